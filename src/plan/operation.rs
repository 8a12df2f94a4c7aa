//! The operations the rules planner plans, as the ontology's calculation
//! patterns name them (`fk:operation`), and the metric type each records.

use crate::turn::MetricType;

/// The operations the rules planner can plan; named as in `fk:operation`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Operation {
    /// One value.
    Lookup,
    /// Later minus earlier.
    Change,
    /// (later - earlier) / earlier.
    PercentageChange,
    /// part / whole.
    Ratio,
    /// a + b (+ ...).
    Sum,
    /// mean of values.
    Average,
    /// a * n.
    Product,
    /// a / n.
    Quotient,
    /// a > b.
    Comparison,
    /// An earlier result in another scale.
    Scale,
}

impl Operation {
    /// The operation an `fk:operation` name stands for.
    pub(super) fn from_name(name: &str) -> Option<Self> {
        Some(match name {
            "lookup" => Self::Lookup,
            "change" => Self::Change,
            "percentage_change" => Self::PercentageChange,
            "ratio" => Self::Ratio,
            "sum" => Self::Sum,
            "average" => Self::Average,
            "product" => Self::Product,
            "quotient" => Self::Quotient,
            "comparison" => Self::Comparison,
            "scale" => Self::Scale,
            _ => return None,
        })
    }

    /// The metric type a result of the operation is recorded with.
    pub(super) fn metric_type(self) -> MetricType {
        match self {
            Self::Lookup | Self::Scale => MetricType::Value,
            Self::Change => MetricType::Change,
            Self::PercentageChange => MetricType::PercentageChange,
            Self::Ratio | Self::Quotient => MetricType::Ratio,
            Self::Sum => MetricType::Sum,
            Self::Average => MetricType::Average,
            Self::Product => MetricType::Product,
            Self::Comparison => MetricType::Comparison,
        }
    }
}

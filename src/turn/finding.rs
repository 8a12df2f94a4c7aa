//! A critic's finding: why a proposed result looks wrong, in words a model
//! can read and with the values it suspects, so a planner can revise its
//! plan ([`crate::planner::Planner::revise`]) and a trace can record it.

use serde::Serialize;

/// Which check a finding comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CheckKind {
    /// The question asks for a scale ("in millions") its values do not have.
    Scale,
    /// The question asks for a percentage; the result is no fraction.
    Percentage,
    /// The question asks for a decrease; the result is an increase.
    Sign,
    /// A look-up whose value is a year printed on the page.
    Year,
    /// The result is more than 1000 times every operand.
    Magnitude,
    /// A change or ratio reads the same page value twice.
    SameValue,
    /// A language model's review.
    Model,
}

impl CheckKind {
    /// The check's name as traces write it.
    pub fn name(self) -> &'static str {
        match self {
            CheckKind::Scale => "scale",
            CheckKind::Percentage => "percentage",
            CheckKind::Sign => "sign",
            CheckKind::Year => "year",
            CheckKind::Magnitude => "magnitude",
            CheckKind::SameValue => "same_value",
            CheckKind::Model => "model",
        }
    }
}

/// Why a proposed result looks wrong.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Finding {
    /// The check that failed.
    pub check: CheckKind,
    /// What is wrong, in one sentence a model can act on.
    pub message: String,
    /// The plan's value names the check suspects (empty: the whole plan).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub suspects: Vec<String>,
}

impl std::fmt::Display for Finding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} check: {}", self.check.name(), self.message)
    }
}

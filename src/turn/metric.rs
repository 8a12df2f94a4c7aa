//! The kind of a turn's result: what the plan computes (a look-up, a change,
//! a ratio...). Written on the wire as the words the ontology's
//! `fk:metricType` and the prompts use ("value", "percentage change", ...).

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

/// What kind of number a turn's result is.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub enum MetricType {
    /// A value looked up (or restated in another scale): `value`.
    #[default]
    Value,
    /// Later minus earlier: `change`.
    Change,
    /// (later - earlier) / earlier: `percentage change`.
    PercentageChange,
    /// Part over whole: `ratio`.
    Ratio,
    /// A sum: `sum`.
    Sum,
    /// A mean: `average`.
    Average,
    /// A product: `product`.
    Product,
    /// A quotient by a count or constant: `quotient`.
    Quotient,
    /// A yes/no comparison: `comparison`.
    Comparison,
    /// An earlier result restated in another scale: `scale`.
    Scale,
    /// A kind no variant names (a model's own word), kept as written.
    Other(String),
}

impl MetricType {
    /// Every named kind, in the order of the enum.
    pub const NAMED: [MetricType; 10] = [
        MetricType::Value,
        MetricType::Change,
        MetricType::PercentageChange,
        MetricType::Ratio,
        MetricType::Sum,
        MetricType::Average,
        MetricType::Product,
        MetricType::Quotient,
        MetricType::Comparison,
        MetricType::Scale,
    ];

    /// The word for the kind, as traces, prompts and the ontology write it.
    pub fn as_str(&self) -> &str {
        match self {
            MetricType::Value => "value",
            MetricType::Change => "change",
            MetricType::PercentageChange => "percentage change",
            MetricType::Ratio => "ratio",
            MetricType::Sum => "sum",
            MetricType::Average => "average",
            MetricType::Product => "product",
            MetricType::Quotient => "quotient",
            MetricType::Comparison => "comparison",
            MetricType::Scale => "scale",
            MetricType::Other(s) => s,
        }
    }

    /// Reads a kind. Named kinds match case-insensitively, with `_` or `-`
    /// for a space ("Percentage_Change"); any other word becomes
    /// [`MetricType::Other`], kept as written.
    pub fn parse(word: &str) -> Self {
        let norm: String = word
            .trim()
            .chars()
            .map(|c| match c {
                '_' | '-' => ' ',
                c => c.to_ascii_lowercase(),
            })
            .collect();
        Self::NAMED
            .into_iter()
            .find(|m| m.as_str() == norm)
            .unwrap_or_else(|| MetricType::Other(word.to_string()))
    }
}

impl From<&str> for MetricType {
    fn from(word: &str) -> Self {
        Self::parse(word)
    }
}

impl fmt::Display for MetricType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for MetricType {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for MetricType {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(Self::parse(&String::deserialize(d)?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_round_trip() {
        for m in MetricType::NAMED {
            assert_eq!(MetricType::parse(m.as_str()), m);
            let json = serde_json::to_string(&m).unwrap();
            assert_eq!(serde_json::from_str::<MetricType>(&json).unwrap(), m);
        }
        assert_eq!(
            serde_json::to_string(&MetricType::PercentageChange).unwrap(),
            r#""percentage change""#
        );
    }

    #[test]
    fn unknown_words_are_kept() {
        assert_eq!(
            MetricType::parse("Percentage_Change"),
            MetricType::PercentageChange
        );
        let other = MetricType::parse("growth multiple");
        assert_eq!(other, MetricType::Other("growth multiple".into()));
        assert_eq!(
            serde_json::to_string(&other).unwrap(),
            r#""growth multiple""#
        );
    }
}

//! The planner contract: the Phase 1 plan (named values) and the Phase 2
//! formula, as serde types shared by every planner and by the LLM's JSON.
//!
//! ```json
//! {"values": {"ups_2004": {"sparql": "SELECT ?value WHERE { ... }", "description": "UPS in 2004"},
//!             "change": "result_3", "base": 100},
//!  "entity": "United Parcel Service Inc.", "metric_type": "change", "period": "2004 to 2009"}
//! {"formula": "change / ups_2004", "reasoning": "..."}
//! ```
//! Unknown extra keys are ignored. Value names and `result_N` references are
//! checked once, when built or deserialised.

use super::MetricType;
use indexmap::IndexMap;
use rust_decimal::Decimal;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use std::str::FromStr;

/// Errors building contract values.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ContractError {
    /// A value name that is not an identifier.
    #[error(
        "`{0}` is not a valid value name (letters, digits and `_`, not starting with a digit)"
    )]
    BadName(String),
    /// A string value that is neither `result_N` nor a number.
    #[error("`{0}` is neither a reference `result_N` nor a number")]
    BadReference(String),
    /// A value given in a shape the contract does not know.
    #[error("value `{name}` must be an object with `sparql`, a string `result_N` or a number")]
    BadValue {
        /// The value's name.
        name: String,
    },
}

/// The name of a value in a plan: an identifier usable in a formula.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ValueName(String);

impl ValueName {
    /// Checks and wraps a name.
    pub fn new(name: &str) -> Result<Self, ContractError> {
        let mut chars = name.chars();
        let ok = chars
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
            && name.len() <= 64;
        if ok {
            Ok(Self(name.to_string()))
        } else {
            Err(ContractError::BadName(name.to_string()))
        }
    }
    /// Wraps a name the caller built as an identifier (letters, digits and
    /// `_`, not starting with a digit); the caller carries that burden.
    pub fn new_unchecked(name: String) -> Self {
        Self(name)
    }
    /// The name.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for ValueName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl Serialize for ValueName {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.0)
    }
}

impl<'de> Deserialize<'de> for ValueName {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        ValueName::new(&s).map_err(serde::de::Error::custom)
    }
}

/// A reference `result_N` to the result of turn `N` (0-based) of the conversation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ResultRef(pub usize);

impl FromStr for ResultRef {
    type Err = ContractError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        s.trim()
            .strip_prefix("result_")
            .and_then(|n| n.parse().ok())
            .map(ResultRef)
            .ok_or_else(|| ContractError::BadReference(s.to_string()))
    }
}

impl fmt::Display for ResultRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "result_{}", self.0)
    }
}

/// How a named value is obtained.
#[derive(Debug, Clone, PartialEq)]
pub enum ValueSpec {
    /// A SPARQL SELECT over the store that binds exactly one number.
    Sparql {
        /// The query text.
        sparql: String,
        /// What the value is, in words.
        description: String,
    },
    /// The result of an earlier turn.
    Reference(ResultRef),
    /// A number given by the planner.
    Constant(Decimal),
}

#[derive(Serialize, Deserialize)]
#[serde(untagged)]
enum RawValueSpec {
    Query {
        sparql: String,
        #[serde(default)]
        description: String,
    },
    Text(String),
    Number(serde_json::Number),
    Other(serde_json::Value),
}

impl Serialize for ValueSpec {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            ValueSpec::Sparql {
                sparql,
                description,
            } => RawValueSpec::Query {
                sparql: sparql.clone(),
                description: description.clone(),
            }
            .serialize(s),
            ValueSpec::Reference(r) => s.serialize_str(&r.to_string()),
            ValueSpec::Constant(d) => {
                match serde_json::Number::from_str(&d.normalize().to_string()) {
                    Ok(n) => n.serialize(s),
                    Err(_) => s.serialize_str(&d.to_string()),
                }
            }
        }
    }
}

impl ValueSpec {
    fn from_raw(name: &str, raw: RawValueSpec) -> Result<Self, ContractError> {
        match raw {
            RawValueSpec::Query {
                sparql,
                description,
            } => Ok(ValueSpec::Sparql {
                sparql,
                description,
            }),
            RawValueSpec::Text(t) => {
                if let Ok(r) = t.parse::<ResultRef>() {
                    Ok(ValueSpec::Reference(r))
                } else if let Ok(d) = Decimal::from_str(t.trim()) {
                    Ok(ValueSpec::Constant(d))
                } else {
                    Err(ContractError::BadReference(t))
                }
            }
            RawValueSpec::Number(n) => Decimal::from_str(&n.to_string())
                .or_else(|_| Decimal::from_scientific(&n.to_string()))
                .map(ValueSpec::Constant)
                .map_err(|_| ContractError::BadValue {
                    name: name.to_string(),
                }),
            RawValueSpec::Other(_) => Err(ContractError::BadValue {
                name: name.to_string(),
            }),
        }
    }
}

/// Phase 1: the values a question needs, each named.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct Plan {
    /// The named values, in order.
    pub values: IndexMap<ValueName, ValueSpec>,
    /// Who or what the values are about.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub entity: Option<String>,
    /// The kind of result (value, change, percentage change, ratio, ...).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub metric_type: Option<MetricType>,
    /// The period the result covers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub period: Option<String>,
}

#[derive(Deserialize)]
struct RawPlan {
    values: IndexMap<String, RawValueSpec>,
    #[serde(default)]
    entity: Option<serde_json::Value>,
    #[serde(default)]
    metric_type: Option<serde_json::Value>,
    #[serde(default)]
    period: Option<serde_json::Value>,
}

fn loose_string(v: Option<serde_json::Value>) -> Option<String> {
    match v? {
        serde_json::Value::String(s) => Some(s),
        serde_json::Value::Null => None,
        other => Some(other.to_string()),
    }
}

impl<'de> Deserialize<'de> for Plan {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let raw = RawPlan::deserialize(d)?;
        let mut values = IndexMap::new();
        for (name, spec) in raw.values {
            let key = ValueName::new(&name).map_err(serde::de::Error::custom)?;
            let spec = ValueSpec::from_raw(&name, spec).map_err(serde::de::Error::custom)?;
            values.insert(key, spec);
        }
        Ok(Plan {
            values,
            entity: loose_string(raw.entity),
            metric_type: loose_string(raw.metric_type).map(|m| MetricType::parse(&m)),
            period: loose_string(raw.period),
        })
    }
}

/// Phase 2: a formula over the plan's value names.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Phase2 {
    /// The formula, e.g. `(a - b) / b`.
    pub formula: String,
    /// Why, in words (optional).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reasoning: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_design_example_with_extra_keys() {
        let plan: Plan = serde_json::from_str(
            r#"{"values": {"ups_2004": {"sparql": "SELECT ?value WHERE { ?s ?p ?value }", "description": "UPS in 2004", "extra": 1},
                          "change": "result_3", "base": 100, "half": "0.5"},
                "entity": "UPS", "metric_type": "change", "period": 2004, "unknown": [1, 2]}"#,
        )
        .unwrap();
        assert_eq!(plan.values.len(), 4);
        let names: Vec<&str> = plan.values.keys().map(ValueName::as_str).collect();
        assert_eq!(names, ["ups_2004", "change", "base", "half"]);
        assert_eq!(plan.values[1], ValueSpec::Reference(ResultRef(3)));
        assert_eq!(plan.values[2], ValueSpec::Constant(Decimal::from(100)));
        assert_eq!(plan.period.as_deref(), Some("2004"));
        assert_eq!(plan.metric_type, Some(MetricType::Change));
        let phase2: Phase2 =
            serde_json::from_str(r#"{"formula": "change / ups_2004", "x": true}"#).unwrap();
        assert_eq!(phase2.formula, "change / ups_2004");
    }

    #[test]
    fn keeps_a_metric_type_it_does_not_know() {
        let json = r#"{"values": {"a": 1}, "metric_type": "growth multiple"}"#;
        let plan: Plan = serde_json::from_str(json).unwrap();
        assert_eq!(
            plan.metric_type,
            Some(MetricType::Other("growth multiple".into()))
        );
        assert_eq!(
            serde_json::to_string(&plan).unwrap(),
            r#"{"values":{"a":1},"metric_type":"growth multiple"}"#
        );
    }

    #[test]
    fn round_trips() {
        let mut plan = Plan::default();
        plan.values.insert(
            ValueName::new("a").unwrap(),
            ValueSpec::Constant(Decimal::new(125, 2)),
        );
        plan.values.insert(
            ValueName::new("b").unwrap(),
            ValueSpec::Reference(ResultRef(0)),
        );
        let json = serde_json::to_string(&plan).unwrap();
        assert_eq!(json, r#"{"values":{"a":1.25,"b":"result_0"}}"#);
        assert_eq!(serde_json::from_str::<Plan>(&json).unwrap(), plan);
    }

    #[test]
    fn refuses_bad_names_and_references() {
        assert!(serde_json::from_str::<Plan>(r#"{"values": {"1x": 3}}"#).is_err());
        assert!(serde_json::from_str::<Plan>(r#"{"values": {"x": "result_x"}}"#).is_err());
        assert!(serde_json::from_str::<Plan>(r#"{"values": {"x": [1]}}"#).is_err());
        assert!(serde_json::from_str::<Plan>(r#"{"formula": "x"}"#).is_err());
    }
}

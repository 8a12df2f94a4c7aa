//! Results: answers, the values a turn bound, and each answered turn's
//! value with the rich metadata later turns (and planners) read to resolve
//! "this", "that" and "the change".

use super::{MetricType, Scale};
use rust_decimal::Decimal;
use serde::{Serialize, Serializer};
use std::fmt;

/// An answer: a number, or yes/no for comparisons.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Answer {
    /// A number in the dataset's convention (fractions for ratios).
    Number(Decimal),
    /// Yes.
    Yes,
    /// No.
    No,
}

impl Answer {
    /// The number, if the answer is one.
    pub fn number(&self) -> Option<Decimal> {
        match self {
            Answer::Number(d) => Some(*d),
            _ => None,
        }
    }
}

/// `d` to `places` decimal places, or, when that would print a value that
/// is not zero as 0 (a cell of `1e-21`), to as many significant digits.
fn rounded(d: Decimal, places: u32) -> Decimal {
    let r = d.round_dp(places);
    if r.is_zero() && !d.is_zero() {
        d.round_sf(places).unwrap_or(d).normalize()
    } else {
        r.normalize()
    }
}

impl fmt::Display for Answer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Answer::Number(d) => write!(f, "{}", rounded(*d, 6)),
            Answer::Yes => f.write_str("yes"),
            Answer::No => f.write_str("no"),
        }
    }
}

impl Serialize for Answer {
    /// Numbers as JSON numbers (rounded to 10 decimal places), yes/no as strings.
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Answer::Number(d) => {
                let text = rounded(*d, 10).to_string();
                match text.parse::<serde_json::Number>() {
                    Ok(n) => n.serialize(s),
                    Err(_) => s.serialize_str(&text),
                }
            }
            Answer::Yes => s.serialize_str("yes"),
            Answer::No => s.serialize_str("no"),
        }
    }
}

/// One value a turn used, as the executor bound it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct UsedValue {
    /// The value's name in the plan.
    pub name: String,
    /// Its number.
    pub value: Decimal,
    /// What it is, in words.
    pub description: String,
    /// Where it came from: a cell, a sentence, an earlier result, a constant.
    pub source: String,
    /// The metric (row label or text context) it measures, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub metric: Option<String>,
    /// The year it is about, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub year: Option<i32>,
    /// The scale its source prints ("million"), when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scale: Option<Scale>,
    /// The SPARQL that retrieved it, when it came from the graph.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sparql: Option<String>,
    /// The IRI of the cell, header number or text fact it was read from,
    /// when the query bound `?source` (the scheme of [`crate::kg::page_iri`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub node: Option<String>,
}

/// A turn's result with everything later turns may need.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TurnResult {
    /// 0-based turn index; later turns refer to it as `result_{turn}`.
    pub turn: usize,
    /// The question asked.
    pub question: String,
    /// The answer.
    pub value: Answer,
    /// The scale that applies to the value (`million`, `thousand`), if known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scale: Option<Scale>,
    /// What the value is, in words.
    pub description: String,
    /// Who or what it is about.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub entity: Option<String>,
    /// What kind of number it is (value, change, percentage change, ...).
    pub metric_type: MetricType,
    /// The period it covers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub period: Option<String>,
    /// Phase 1 variables with their bound values.
    pub variables: Vec<UsedValue>,
    /// Phase 2 formula.
    pub formula: String,
}

/// The results of a conversation so far, in turn order.
#[derive(Debug, Clone, Default)]
pub struct ConversationState {
    results: Vec<Option<TurnResult>>,
    /// Each turn's question, failed turns' too (empty when not given).
    questions: Vec<String>,
}

impl ConversationState {
    /// An empty conversation.
    pub fn new() -> Self {
        Self::default()
    }
    /// Records a turn: its result, or `None` when it failed.
    pub fn push(&mut self, result: Option<TurnResult>) {
        self.push_turn("", result);
    }
    /// Records the next turn with its question (kept for a failed turn too,
    /// so later turns can see what was asked).
    pub fn push_turn(&mut self, question: &str, result: Option<TurnResult>) {
        self.results.push(result);
        self.questions.push(question.to_string());
    }
    /// The question of turn `n`, answered or not (empty when not recorded).
    pub fn question(&self, n: usize) -> Option<&str> {
        self.questions.get(n).map(String::as_str)
    }
    /// The result of turn `n`, if it was answered.
    pub fn result(&self, n: usize) -> Option<&TurnResult> {
        self.results.get(n).and_then(Option::as_ref)
    }
    /// Every turn so far (`None` for failed ones).
    pub fn turns(&self) -> &[Option<TurnResult>] {
        &self.results
    }
    /// The answered turns, oldest first.
    pub fn answered(&self) -> impl DoubleEndedIterator<Item = &TurnResult> {
        self.results.iter().flatten()
    }
    /// Number of turns so far.
    pub fn len(&self) -> usize {
        self.results.len()
    }
    /// Whether no turn has been asked yet.
    pub fn is_empty(&self) -> bool {
        self.results.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tiny_numbers_do_not_print_as_zero() {
        let tiny = Answer::Number(Decimal::from_str_exact("0.000000000000000000001").unwrap());
        assert_eq!(tiny.to_string(), "0.000000000000000000001");
        assert_eq!(serde_json::to_string(&tiny).unwrap(), "1e-21");
        let third = Answer::Number(Decimal::ONE / Decimal::from(3));
        assert_eq!(third.to_string(), "0.333333");
        assert_eq!(serde_json::to_string(&third).unwrap(), "0.3333333333");
        assert_eq!(Answer::Number(Decimal::ZERO).to_string(), "0");
    }
}

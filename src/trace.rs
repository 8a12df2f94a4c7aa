//! Traces: what happened in each turn, written as JSON Lines.
//!
//! One object a turn, in the run folder's `trace.jsonl`:
//! ```json
//! {"id": "Single_MRO/2007/page_134.pdf-1", "turn": 2, "question": "what was, then, the change over the years?",
//!  "planner": "rules", "answer": 35.8, "error": null,
//!  "plan": {"values": {"new": "result_0", "old": "result_1"}, "metric_type": "change"},
//!  "formula": "new - old",
//!  "values": [{"name": "new", "value": "60.94", "description": "...", "source": "result_0: ..."}],
//!  "result": {"turn": 2, "value": 35.8, "description": "...", "metric_type": "change", ...},
//!  "timings_us": {"plan": 120, "execute": 340}}
//! ```

use crate::conversation::{Answer, TurnResult, UsedValue};
use crate::plan::Plan;
use serde::Serialize;

/// Microseconds spent in each stage of a turn.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Timings {
    /// Both planning phases.
    pub plan: u64,
    /// Binding values and evaluating the formula.
    pub execute: u64,
}

/// The trace of one turn.
#[derive(Debug, Clone, Serialize)]
pub struct TurnTrace {
    /// Conversation id.
    pub id: String,
    /// 0-based turn index.
    pub turn: usize,
    /// The question.
    pub question: String,
    /// The planner that planned it.
    pub planner: String,
    /// The answer, or null.
    pub answer: Option<Answer>,
    /// Why there is no answer, or null.
    pub error: Option<String>,
    /// Phase 1 plan, when there was one.
    pub plan: Option<Plan>,
    /// Phase 2 formula, when there was one.
    pub formula: Option<String>,
    /// The bound values with their sources.
    pub values: Vec<UsedValue>,
    /// The result with its metadata, as later turns see it.
    pub result: Option<TurnResult>,
    /// Time spent.
    pub timings_us: Timings,
}

/// Formats an error and its chain of causes on one line: `a: b: c`.
pub fn error_chain(error: &(dyn std::error::Error + 'static)) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(s) = source {
        let part = s.to_string();
        if !text.contains(&part) {
            text.push_str(": ");
            text.push_str(&part);
        }
        source = s.source();
    }
    text
}

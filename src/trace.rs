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
//!
//! Turns planned by the LLM planner add `llm`, every exchange with the
//! model (see [`LlmExchange`]; phase `phase1`/`phase2` for the LLM
//! planner, `agent` for the agent, whose replies show their tool calls as
//! `tool_calls: [...]`), and `usage`, their sum ([`Usage`]); a turn
//! the fallback planner answered after the LLM planner failed adds
//! `fallback`, the reason:
//! ```json
//! {"planner": "rules", "fallback": "llm failed: ...",
//!  "llm": [{"phase": "phase1", "attempt": 0, "prompt": "...", "reply": "{\"values\": ...}",
//!           "error": null, "prompt_tokens": 812, "completion_tokens": 45, "latency_ms": 320,
//!           "retries": 0, "cache_hit": false, "cost_usd": 0.00042}],
//!  "usage": {"requests": 1, "cache_hits": 0, "prompt_tokens": 812, "completion_tokens": 45,
//!            "retries": 0, "cost_usd": 0.00042}}
//! ```
//!
//! A turn whose result a critic reviewed (`--critic`, see [`crate::critic`])
//! adds `critic`: the critic's name, every finding (on the first result,
//! then on each revised one) and the revisions asked, in order (at most
//! `--critic-max-revisions`; none when nothing was found); an accepted
//! revision's plan, values and formula are the turn's own, and `replaced`
//! keeps the first answer:
//! ```json
//! {"critic": {"critic": "deterministic",
//!             "findings": [{"check": "year", "message": "...", "suspects": ["value"]}],
//!             "revisions": [{"accepted": true, "answer": 1250, "replaced": 2008,
//!                            "formula": "value", "error": null}]}}
//! ```

use crate::turn::{Answer, Finding, LlmExchange, Plan, TurnResult, Usage, UsedValue};
use serde::Serialize;

/// Microseconds spent in each stage of a turn.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Timings {
    /// Both planning phases.
    pub plan: u64,
    /// Binding values and evaluating the formula.
    pub execute: u64,
}

/// One candidate a grounder weighed for a value, as `--explain` shows it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CandidateNote {
    /// The cell or text number, in words.
    pub source: String,
    /// Its score.
    pub score: f64,
    /// The features that decided, with their contributions to the score.
    pub features: Vec<(String, f64)>,
}

/// How a planner grounded one value of its plan: the words it looked for
/// and the best candidates, best (the one chosen) first.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ValueGrounding {
    /// The value's name in the plan.
    pub value: String,
    /// The mention's words and year.
    pub mention: String,
    /// The top candidates, best first.
    pub candidates: Vec<CandidateNote>,
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
    /// How the planner grounded the plan's page values (rules planner).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub grounding: Vec<ValueGrounding>,
    /// The result with its metadata, as later turns see it.
    pub result: Option<TurnResult>,
    /// Time spent.
    pub timings_us: Timings,
    /// Why the first planner failed, when the fallback planner answered.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fallback: Option<String>,
    /// Exchanges with a language model, in order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub llm: Vec<LlmExchange>,
    /// The exchanges' requests, tokens and cost.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub usage: Option<Usage>,
    /// What a critic found and the revision it asked for, when a critic
    /// reviewed the turn's result.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub critic: Option<CriticTrace>,
}

/// A critic's review of a turn: its findings and the revisions.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CriticTrace {
    /// The critic, as `--critic` names it.
    pub critic: String,
    /// Every finding, in order: on the first result, then on each revised one.
    pub findings: Vec<Finding>,
    /// The revisions asked, in order: the first after the first finding,
    /// each next one after the finding on the revision before it.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub revisions: Vec<RevisionTrace>,
}

/// One revision round: the revised result and whether it was kept.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RevisionTrace {
    /// The revised result passed the critic and replaced the first.
    pub accepted: bool,
    /// The revised answer, when the revision gave one.
    pub answer: Option<Answer>,
    /// The first answer, when the revision replaced it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replaced: Option<Answer>,
    /// The revised formula, when there was one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub formula: Option<String>,
    /// The revised plan, when there was one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub plan: Option<Plan>,
    /// Why the revision gave no result or was not kept.
    pub error: Option<String>,
}

impl TurnTrace {
    /// The trace of a turn not yet planned.
    pub fn new(id: &str, turn: usize, question: &str, planner: &str) -> Self {
        Self {
            id: id.to_string(),
            turn,
            question: question.to_string(),
            planner: planner.to_string(),
            answer: None,
            error: None,
            plan: None,
            formula: None,
            values: Vec::new(),
            grounding: Vec::new(),
            result: None,
            timings_us: Timings::default(),
            fallback: None,
            llm: Vec::new(),
            usage: None,
            critic: None,
        }
    }
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

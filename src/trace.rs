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
//! model (see [`LlmExchange`]), and `usage`, their sum ([`Usage`]); a turn
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

use crate::conversation::{Answer, TurnResult, UsedValue};
use crate::plan::Plan;
use serde::{Deserialize, Serialize};

/// Microseconds spent in each stage of a turn.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Timings {
    /// Both planning phases.
    pub plan: u64,
    /// Binding values and evaluating the formula.
    pub execute: u64,
}

/// One exchange with a language model: what was sent, what came back and
/// what it cost.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LlmExchange {
    /// `phase1` or `phase2`.
    pub phase: String,
    /// 0 for the phase's first request, then 1, 2... for each reply sent
    /// back with its error.
    pub attempt: usize,
    /// The messages this exchange added to the phase's conversation: the
    /// rendered system and user prompts on attempt 0, the error fed back
    /// on later attempts (the earlier replies are the exchanges before it).
    pub prompt: String,
    /// The model's reply, when one came.
    pub reply: Option<String>,
    /// Why the reply could not be used, or why none came.
    pub error: Option<String>,
    /// Prompt tokens the server reported.
    pub prompt_tokens: Option<u64>,
    /// Completion tokens the server reported.
    pub completion_tokens: Option<u64>,
    /// Milliseconds from the first request to the reply, retries included.
    pub latency_ms: u64,
    /// Requests retried after a timeout, connection error, 429 or 5xx.
    pub retries: u32,
    /// The reply came from the on-disk cache (no request was made).
    pub cache_hit: bool,
    /// What the exchange cost in US dollars at the configured prices (0 on a cache hit).
    pub cost_usd: f64,
}

/// Requests, tokens and cost, summed over exchanges (a turn's or a run's).
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct Usage {
    /// Exchanges answered by the server.
    pub requests: u64,
    /// Exchanges answered from the cache.
    pub cache_hits: u64,
    /// Prompt tokens of the requests (cache hits excluded).
    pub prompt_tokens: u64,
    /// Completion tokens of the requests (cache hits excluded).
    pub completion_tokens: u64,
    /// Retried requests.
    pub retries: u64,
    /// Cost in US dollars.
    pub cost_usd: f64,
}

impl Usage {
    /// Adds one exchange.
    pub fn add_exchange(&mut self, e: &LlmExchange) {
        if e.cache_hit {
            self.cache_hits += 1;
        } else {
            if e.reply.is_some() {
                self.requests += 1;
            }
            self.prompt_tokens += e.prompt_tokens.unwrap_or(0);
            self.completion_tokens += e.completion_tokens.unwrap_or(0);
        }
        self.retries += u64::from(e.retries);
        self.cost_usd += e.cost_usd;
    }
    /// Adds another sum.
    pub fn add(&mut self, other: &Usage) {
        self.requests += other.requests;
        self.cache_hits += other.cache_hits;
        self.prompt_tokens += other.prompt_tokens;
        self.completion_tokens += other.completion_tokens;
        self.retries += other.retries;
        self.cost_usd += other.cost_usd;
    }
    /// The sum of some exchanges, or `None` when there are none.
    pub fn of(exchanges: &[LlmExchange]) -> Option<Usage> {
        if exchanges.is_empty() {
            return None;
        }
        let mut usage = Usage::default();
        for e in exchanges {
            usage.add_exchange(e);
        }
        Some(usage)
    }
}

impl std::fmt::Display for Usage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} requests, {} from the cache, {} retries, {} prompt + {} completion tokens, ${:.4}",
            self.requests,
            self.cache_hits,
            self.retries,
            self.prompt_tokens,
            self.completion_tokens,
            self.cost_usd
        )
    }
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

//! A run's records, shared by the code that writes them (`eval`) and the
//! code that exports them (`mongo`, with the `mongodb` feature): the run folder's
//! records and their reader ([`folder`]), the scores ([`Summary`],
//! [`Tally`]) and the [`RunObserver`] that sees each record as it is
//! written.

pub mod folder;

pub use folder::{
    ConversationRecord, FolderError, GoldRecord, LlmExchangeRecord, PageRecord, PageRow,
    PageSentence, RunFolder, RunInfo, ScoredTurn,
};

use crate::kg::KgStore;
use crate::turn::Usage;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Right and total, with the accuracy.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct Tally {
    /// Right answers.
    pub correct: usize,
    /// Turns counted.
    pub total: usize,
    /// correct / total.
    pub accuracy: f64,
}

impl Tally {
    /// Counts one turn (or conversation), right or not.
    pub fn add(&mut self, ok: bool) {
        self.total += 1;
        self.correct += usize::from(ok);
        self.accuracy = self.correct as f64 / self.total as f64;
    }
}

/// What a run scored.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Summary {
    /// The planner used.
    pub planner: String,
    /// Conversations answered.
    pub conversations: usize,
    /// Every turn.
    pub turns: Tally,
    /// Conversations whose every turn is right.
    pub conversation_accuracy: Tally,
    /// Turns with no answer.
    pub unanswered: usize,
    /// Conversations that failed to load into a graph.
    pub failed_conversations: usize,
    /// By 0-based turn index.
    pub by_turn: BTreeMap<usize, Tally>,
    /// By the operations of the gold program (`subtract,divide`, `lookup`).
    pub by_operation: BTreeMap<String, Tally>,
    /// By the dataset's feature flags.
    pub by_feature: BTreeMap<String, Tally>,
    /// Turns after a right previous turn.
    pub given_previous_right: Tally,
    /// Turns after a wrong previous turn.
    pub given_previous_wrong: Tally,
    /// Seconds the run took.
    pub seconds: f64,
    /// Conversations in flight at once (`--jobs`).
    pub jobs: usize,
    /// Language-model requests, tokens and cost of the run (null for
    /// planners that use no model).
    pub llm: Option<Usage>,
    /// Why the run stopped before the end (a budget or a time limit), or null.
    pub stopped: Option<String>,
    /// The run was interrupted (SIGINT, SIGTERM): no `summary.json` is
    /// written and `run.json` says `interrupted`; never true in a file.
    #[serde(default, skip_serializing)]
    pub interrupted: bool,
}

/// The operations of a gold program: `subtract(60.94, 25.14), divide(#0, 25.14)` → `subtract,divide`.
pub fn program_operations(program: &str) -> String {
    let ops: Vec<&str> = program
        .split([',', ' '])
        .filter_map(|part| part.split_once('(').map(|(op, _)| op.trim()))
        .filter(|op| !op.is_empty())
        .collect();
    if ops.is_empty() {
        "lookup".into()
    } else {
        ops.join(",")
    }
}

/// Sees a run's records as they are written to the run folder; every
/// method does nothing unless overridden. An observer cannot fail the run:
/// it keeps its own failures and reports them when asked.
pub trait RunObserver {
    /// The run starts; `run.json` is written.
    fn started(&mut self, _run: &RunInfo) {}
    /// A conversation's page graph is built, before its turns are asked.
    fn graph(&mut self, _conversation_id: &str, _kg: &KgStore) {}
    /// A conversation is answered and scored; its lines are written.
    fn conversation(&mut self, _record: &ConversationRecord, _turns: &[ScoredTurn<'_>]) {}
    /// The run is over; `summary.json` and the final `run.json` are written.
    fn finished(&mut self, _run: &RunInfo, _summary: &Summary) {}
}

/// The observer that observes nothing.
impl RunObserver for () {}

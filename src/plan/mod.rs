//! Planning a turn in two phases behind one contract ([`contract`]): Phase 1
//! names the values a question needs, Phase 2 writes a formula over them.
//! The rules planner ([`rules`]) is the embedded default.
//!
//! **Invariant:** a planner sees the page's graph (through [`Schema`]), the
//! question and the conversation's own earlier results. Nothing here can
//! reach gold answers: [`crate::dataset::Gold`] appears in no signature.

pub mod contract;
pub mod rules;

pub use contract::{ContractError, Phase2, Plan, ResultRef, ValueName, ValueSpec};
pub use rules::RulesPlanner;

use crate::conversation::{ConversationState, UsedValue};
use crate::kg::Schema;

/// What a planner may see when planning a turn.
#[derive(Debug, Clone, Copy)]
pub struct TurnContext<'a> {
    /// The question of this turn.
    pub question: &'a str,
    /// 0-based index of this turn.
    pub turn: usize,
    /// Earlier results with their metadata.
    pub state: &'a ConversationState,
    /// The page's rows, columns, cells and text facts, read from the graph.
    pub schema: &'a Schema,
}

/// Why a planner could not plan a turn.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum PlanError {
    /// Nothing on the page matches what the question asks for.
    #[error("no value on the page matches `{mention}`")]
    NotGrounded {
        /// The words that could not be grounded.
        mention: String,
    },
    /// The question refers to an earlier result that does not exist.
    #[error("the question refers to an earlier result, but {0}")]
    NoEarlierResult(String),
    /// The question's shape is not one the planner knows.
    #[error("unsupported question: {0}")]
    Unsupported(String),
}

/// A planner: Phase 1 then, once the values are bound, Phase 2.
pub trait Planner {
    /// The planner's name as `--planner` spells it.
    fn name(&self) -> &'static str;
    /// Phase 1: the named values the question needs.
    fn phase1(&mut self, ctx: &TurnContext<'_>) -> Result<Plan, PlanError>;
    /// Phase 2: the formula over the bound values.
    fn phase2(
        &mut self,
        ctx: &TurnContext<'_>,
        plan: &Plan,
        values: &[UsedValue],
    ) -> Result<Phase2, PlanError>;
}

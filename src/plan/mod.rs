//! Planning a turn in two phases behind one contract ([`contract`]): Phase 1
//! names the values a question needs, Phase 2 writes a formula over them.
//! The rules planner ([`rules`]) is the embedded default.
//!
//! **Invariant:** a planner sees the page's graph (through [`Schema`]), the
//! question and the conversation's own earlier results. Nothing here can
//! reach gold answers: [`crate::dataset::Gold`] appears in no signature.

pub mod contract;
pub mod ground;
mod operand;
pub mod rules;

pub use contract::{ContractError, Phase2, Plan, ResultRef, ValueName, ValueSpec};
pub use rules::RulesPlanner;

use crate::conversation::{ConversationState, UsedValue};
use crate::kg::{KgStore, Schema};
use crate::trace::LlmExchange;

/// What a planner may see when planning a turn.
#[derive(Clone, Copy)]
pub struct TurnContext<'a> {
    /// The question of this turn.
    pub question: &'a str,
    /// 0-based index of this turn.
    pub turn: usize,
    /// Earlier results with their metadata.
    pub state: &'a ConversationState,
    /// The page's rows, columns, cells and text facts, read from the graph.
    pub schema: &'a Schema,
    /// The page's graph, for planners that check their plan before handing
    /// it on (the LLM planner binds it through [`crate::exec`] to feed
    /// errors back to the model).
    pub kg: &'a KgStore,
}

impl std::fmt::Debug for TurnContext<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TurnContext")
            .field("question", &self.question)
            .field("turn", &self.turn)
            .field("state", &self.state)
            .field("schema", &self.schema)
            .finish_non_exhaustive()
    }
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
    /// The language model gave no usable plan: the reason, with the last
    /// reply's error or the transport failure.
    #[error("{0}")]
    Llm(String),
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
    /// The exchanges with a language model since the last call, for the
    /// turn's trace (none for planners that use no model).
    fn take_exchanges(&mut self) -> Vec<LlmExchange> {
        Vec::new()
    }
    /// How the last planned turn's page values were grounded, for the
    /// turn's trace and `--explain` (none for planners that do not score
    /// candidates).
    fn take_grounding(&mut self) -> Vec<crate::trace::ValueGrounding> {
        Vec::new()
    }
    /// Set once the run must stop (a budget or a time limit reached): no
    /// further turn should be asked of this planner.
    fn stop_reason(&self) -> Option<String> {
        None
    }
}

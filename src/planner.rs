//! The planner seam: what a planner sees of a turn ([`TurnContext`]), the
//! [`Planner`] trait both planners implement (the rules planner in
//! [`crate::plan`], the LLM planner in [`crate::llm`]) and [`PlanCheck`],
//! the pipeline's way of binding and evaluating a plan for a planner that
//! checks its plan before handing it on.
//!
//! **Invariant:** a planner sees the page's graph (through [`Schema`]), the
//! question and the conversation's own earlier results. Nothing here can
//! reach gold answers: [`crate::dataset::Gold`] appears in no signature.

use crate::kg::{GuardedQuery, QueryOutput, Schema};
use crate::turn::{Answer, ConversationState, Finding, LlmExchange, Phase2, Plan, UsedValue};
use oxigraph::model::NamedNode;

/// Binds and evaluates plans exactly as the pipeline will run them, for a
/// planner that checks a plan before handing it on (the LLM planner feeds
/// the errors back to its model). The pipeline keeps what the check bound
/// and evaluated, so an accepted plan is bound and evaluated once.
pub trait PlanCheck {
    /// Binds a plan's values (the guard, exactly one numeric row a query,
    /// earlier results that exist), or says why not, on one line.
    fn bind(&self, plan: &Plan) -> Result<Vec<UsedValue>, String>;
    /// Evaluates a formula over bound values, or says why not, on one line.
    fn evaluate(&self, formula: &str, values: &[UsedValue]) -> Result<Answer, String>;
    /// Runs a guarded query over the page's graph with the store's limits
    /// (the agent's `query_kg`), or says why not, on one line. By default
    /// no query can be run.
    fn query(&self, query: &GuardedQuery) -> Result<QueryOutput, String> {
        let _ = query;
        Err("this turn cannot run queries".into())
    }
    /// The page's named graph, to describe the nodes a query bound
    /// ([`Schema::describe_source`]); none by default.
    fn graph(&self) -> Option<&NamedNode> {
        None
    }
}

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
    /// Binds and evaluates a plan over the page's graph as the pipeline
    /// will, for planners that check their plan before handing it on.
    pub check: &'a dyn PlanCheck,
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
    /// One revision of the turn just planned, after a critic's finding
    /// about its result (`crate::critic`): a new Phase 1 plan, which the
    /// pipeline binds and hands to [`Planner::phase2`] as usual; `None`
    /// when the planner has no other plan to offer (the default).
    fn revise(
        &mut self,
        _ctx: &TurnContext<'_>,
        _finding: &Finding,
    ) -> Option<Result<Plan, PlanError>> {
        None
    }
    /// Set once the run must stop (a budget or a time limit reached): no
    /// further turn should be asked of this planner.
    fn stop_reason(&self) -> Option<String> {
        None
    }
}

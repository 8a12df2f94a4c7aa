//! The ground floor: the types every layer shares about a turn.
//!
//! - [`contract`]: the Phase 1 plan and the Phase 2 formula, the JSON any
//!   planner (rules or LLM) produces;
//! - [`result`]: answers, bound values, a turn's result with its metadata
//!   and the conversation's results so far;
//! - [`metric`]: the kind of a result ([`MetricType`]), typed;
//! - [`scale`]: a scale word with its multiplier ([`Scale`]);
//! - [`exchange`]: an exchange with a language model and its usage;
//! - [`finding`]: a critic's finding about a proposed result.
//!
//! Nothing here imports another module of the crate.

pub mod contract;
pub mod exchange;
pub mod finding;
pub mod metric;
pub mod result;
pub mod scale;

pub use contract::{ContractError, Phase2, Plan, ResultRef, ValueName, ValueSpec};
pub use exchange::{LlmExchange, Usage};
pub use finding::{CheckKind, Finding};
pub use metric::MetricType;
pub use result::{Answer, ConversationState, TurnResult, UsedValue};
pub use scale::Scale;

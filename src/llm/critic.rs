//! The LLM critic (`--critic llm`): the deterministic checks
//! ([`crate::critic::Deterministic`]) first, then a model's review of the
//! result they accept (`critic.j2`), over the LLM planner's client, cache,
//! limits and traces.
//!
//! The model replies `{"accept": true}` or `{"accept": false, "finding":
//! "..."}`. A reply that is not that object goes back with its error
//! (`repair.j2`) like a planner's; a review that cannot be had (transport,
//! budget, no usable reply) accepts the result: a critic never fails a
//! turn, and its exchanges, errors included, are in the turn's trace.

use super::planner::{LlmPlanner, Phase};
use super::prompts::critic_view;
use super::{reply, LlmError, LlmShared};
use crate::critic::{Critic, Deterministic, Review};
use crate::turn::{CheckKind, Finding, LlmExchange};
use std::sync::Arc;

/// The LLM critic.
pub struct LlmCritic {
    model: LlmPlanner,
    rules: Deterministic,
}

impl std::fmt::Debug for LlmCritic {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LlmCritic").finish_non_exhaustive()
    }
}

impl LlmCritic {
    /// A critic with `shared`'s settings, cache and limits: the run's
    /// planner's own, or its stage of the run ([`LlmShared::for_stage`]),
    /// so its requests count against the run's budget, rate and clock.
    pub fn new(shared: Arc<LlmShared>) -> Result<Self, LlmError> {
        let rules = Deterministic::new().map_err(|e| LlmError::Startup(e.to_string()))?;
        Ok(Self {
            model: LlmPlanner::new(shared)?,
            rules,
        })
    }
}

/// A review reply: `None` accepts, else the finding's words.
fn verdict(content: &str) -> Result<Option<String>, String> {
    let object = reply::json_object(content)?;
    match object.get("accept") {
        Some(serde_json::Value::Bool(true)) => Ok(None),
        Some(serde_json::Value::Bool(false)) => match object.get("finding") {
            Some(serde_json::Value::String(f)) if !f.trim().is_empty() => {
                Ok(Some(f.trim().to_string()))
            }
            _ => Err("`accept` is false but `finding` is not a sentence".into()),
        },
        _ => Err("the reply has no `accept` of true or false".into()),
    }
}

impl Critic for LlmCritic {
    fn name(&self) -> &'static str {
        "llm"
    }

    fn review(&mut self, review: &Review<'_>) -> Option<Finding> {
        if let Some(finding) = self.rules.check(review) {
            return Some(finding);
        }
        let view = critic_view(review.question, review.state, review.result);
        let user = self
            .model
            .shared()
            .prompts
            .render("critic.j2", &view)
            .ok()?;
        self.model.start_turn();
        let messages = vec![super::client::Message::new("user", user)];
        match self.model.converse(Phase::Critic, messages, verdict) {
            Ok(Some(message)) => Some(Finding {
                check: CheckKind::Model,
                message,
                suspects: Vec::new(),
            }),
            Ok(None) | Err(_) => None,
        }
    }

    fn take_exchanges(&mut self) -> Vec<LlmExchange> {
        crate::planner::Planner::take_exchanges(&mut self.model)
    }

    fn stop_reason(&self) -> Option<String> {
        crate::planner::Planner::stop_reason(&self.model)
    }
}

//! The LLM planner: a [`Planner`] whose phases are chat exchanges.
//!
//! Phase 1 renders `system.j2` and `phase1.j2`, sends them, reads the reply
//! ([`super::reply::phase1`]) and checks it the way the pipeline will use
//! it, through the turn's [`PlanCheck`]: the values are bound (the guard,
//! exactly one numeric row, earlier results that exist) and a formula given
//! beside them is evaluated; the pipeline keeps what the check bound, so an
//! accepted plan is bound once. An unusable reply goes back to
//! the model with its error (`repair.j2`) at most `repairs` times, then the
//! turn fails with the reason. Phase 2 uses the formula of the Phase 1
//! reply when there was one, else asks with `phase2.j2` and checks the
//! same way.
//!
//! After a critic's finding ([`Planner::revise`]), the accepted Phase 1
//! exchange goes back with the finding (`revise.j2`) and the reply is read
//! and checked as a Phase 1 reply.
//!
//! Each planner owns a [`Link`] (a current-thread tokio runtime, an HTTP
//! client a phase: Phase 2 may have its own endpoint and model, see
//! [`super::LlmConfig::phase2`]);
//! the planners of a run share [`LlmShared`] (templates, cache, rate
//! limiter, budget and clock).

use super::client::{request_body, Message};
use super::link::{Link, Stage};
use super::prompts::{self, RepairView, RevisionView};
use super::{reply, LlmError, LlmShared};
use crate::kg::watchdog::with_deadline;
use crate::planner::{PlanCheck, PlanError, Planner, TurnContext};
use crate::trace::error_chain;
use crate::turn::{Finding, LlmExchange, Phase2, Plan, UsedValue};
use std::sync::Arc;

/// The LLM planner.
pub struct LlmPlanner {
    link: Link,
    phase1: Stage,
    phase2: Stage,
    pending: Option<Phase2>,
    /// The turn's accepted Phase 1 exchange (its messages and the reply),
    /// which a revision continues.
    conversation: Vec<Message>,
}

impl std::fmt::Debug for LlmPlanner {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LlmPlanner")
            .field("model", &self.phase1.config.model)
            .finish_non_exhaustive()
    }
}

/// Which phase an exchange belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Phase {
    One,
    Two,
    /// Phase 1 again, after a critic's finding.
    Revise,
    /// A review of a proposed result ([`super::LlmCritic`]).
    Critic,
}

impl Phase {
    fn name(self) -> &'static str {
        match self {
            Phase::One => "phase1",
            Phase::Two => "phase2",
            Phase::Revise => "revise",
            Phase::Critic => "critic",
        }
    }
}

impl LlmPlanner {
    /// A planner sharing `shared` with the run's other LLM planners; Phase 2
    /// requests go to the stage `shared`'s `phase2` settings describe.
    pub fn new(shared: Arc<LlmShared>) -> Result<Self, LlmError> {
        let link = Link::new(shared.clone())?;
        let phase1 = link.stage(shared.config.clone())?;
        let phase2 = link.stage(shared.config.for_phase2())?;
        Ok(Self {
            link,
            phase1,
            phase2,
            pending: None,
            conversation: Vec::new(),
        })
    }

    /// One request of the phase's stage; records the exchange.
    fn exchange(
        &mut self,
        phase: Phase,
        attempt: usize,
        messages: &[Message],
        prompt: String,
    ) -> Result<String, LlmError> {
        let stage = match phase {
            Phase::One | Phase::Revise | Phase::Critic => &self.phase1,
            Phase::Two => &self.phase2,
        };
        let body = request_body(&stage.config, messages);
        let reply = self
            .link
            .send(stage, phase.name(), attempt, &body, prompt)?;
        Ok(reply.content)
    }

    /// What a run's LLM planners share.
    pub(super) fn shared(&self) -> &LlmShared {
        &self.link.shared
    }

    /// Starts the clock of a turn's time limit.
    pub(super) fn start_turn(&mut self) {
        let limit = self.link.shared.config.turn_time_limit;
        self.link.start_turn(limit);
    }

    /// Asks until `check` accepts a reply or the repairs run out.
    pub(super) fn converse<T>(
        &mut self,
        phase: Phase,
        mut messages: Vec<Message>,
        mut check: impl FnMut(&str) -> Result<T, String>,
    ) -> Result<T, LlmError> {
        let repairs = self.link.shared.config.repairs;
        let mut prompt = messages
            .iter()
            .map(|m| format!("[{}]\n{}", m.role, m.content))
            .collect::<Vec<_>>()
            .join("\n\n");
        let mut attempt: u32 = 0;
        loop {
            let content = self.exchange(phase, attempt as usize, &messages, prompt)?;
            // the turn's time limit also stops a query of the reply in flight
            let deadline = self.link.turn_deadline.as_ref().map(|d| d.at);
            let error = match with_deadline(deadline, || check(&content)) {
                Ok(value) => {
                    if matches!(phase, Phase::One | Phase::Revise) {
                        self.conversation = messages;
                        self.conversation.push(Message::new("assistant", content));
                    }
                    return Ok(value);
                }
                Err(error) => error,
            };
            if let Some(last) = self.link.exchanges.last_mut() {
                last.error = Some(error.clone());
            }
            if attempt >= repairs {
                return Err(LlmError::Unusable {
                    phase: phase.name(),
                    replies: attempt + 1,
                    error,
                });
            }
            attempt += 1;
            let repair = self.link.shared.prompts.render(
                "repair.j2",
                &RepairView {
                    phase: phase.name(),
                    error,
                    attempt,
                    attempts_left: repairs - attempt,
                    warnings: reply::long_decimal_warning(&content).into_iter().collect(),
                },
            )?;
            messages.push(Message::new("assistant", content));
            messages.push(Message::new("user", repair.clone()));
            prompt = format!("[user]\n{repair}");
        }
    }
}

pub(super) fn plan_error(e: &LlmError) -> PlanError {
    PlanError::Llm(format!("the LLM planner failed: {}", error_chain(e)))
}

/// Checks a Phase 1 reply as the pipeline will use it.
fn check_phase1(ctx: &TurnContext<'_>, content: &str) -> Result<(Plan, Option<Phase2>), String> {
    let (plan, phase2) = reply::phase1(content)?;
    let values = ctx.check.bind(&plan)?;
    if let Some(p) = &phase2 {
        ctx.check.evaluate(&p.formula, &values)?;
    }
    Ok((plan, phase2))
}

/// Checks a Phase 2 reply against the bound values.
fn check_phase2(
    check: &dyn PlanCheck,
    values: &[UsedValue],
    content: &str,
) -> Result<Phase2, String> {
    let phase2 = reply::phase2(content)?;
    check.evaluate(&phase2.formula, values)?;
    Ok(phase2)
}

impl Planner for LlmPlanner {
    fn name(&self) -> &'static str {
        "llm"
    }

    fn phase1(&mut self, ctx: &TurnContext<'_>) -> Result<Plan, PlanError> {
        self.pending = None;
        self.conversation.clear();
        self.start_turn();
        let view = prompts::phase1_view(ctx);
        let prompts = &self.link.shared.prompts;
        let messages = (|| {
            Ok::<_, LlmError>(vec![
                Message::new("system", prompts.render("system.j2", &view)?),
                Message::new("user", prompts.render("phase1.j2", &view)?),
            ])
        })()
        .map_err(|e| plan_error(&e))?;
        let (plan, phase2) = self
            .converse(Phase::One, messages, |content| check_phase1(ctx, content))
            .map_err(|e| plan_error(&e))?;
        self.pending = phase2;
        Ok(plan)
    }

    fn phase2(
        &mut self,
        ctx: &TurnContext<'_>,
        plan: &Plan,
        values: &[UsedValue],
    ) -> Result<Phase2, PlanError> {
        if let Some(p) = self.pending.take() {
            return Ok(p);
        }
        let view = prompts::phase2_view(ctx, plan, values);
        let user = self
            .link
            .shared
            .prompts
            .render("phase2.j2", &view)
            .map_err(|e| plan_error(&e))?;
        self.converse(Phase::Two, vec![Message::new("user", user)], |content| {
            check_phase2(ctx.check, values, content)
        })
        .map_err(|e| plan_error(&e))
    }

    fn take_exchanges(&mut self) -> Vec<LlmExchange> {
        std::mem::take(&mut self.link.exchanges)
    }

    fn revise(
        &mut self,
        ctx: &TurnContext<'_>,
        finding: &Finding,
    ) -> Option<Result<Plan, PlanError>> {
        if self.conversation.is_empty() {
            return None;
        }
        self.pending = None;
        let view = RevisionView {
            check: finding.check.name(),
            finding: finding.message.clone(),
            suspects: finding.suspects.clone(),
        };
        let mut messages = std::mem::take(&mut self.conversation);
        let revised = (|| {
            messages.push(Message::new(
                "user",
                self.link.shared.prompts.render("revise.j2", &view)?,
            ));
            self.converse(Phase::Revise, messages, |content| {
                check_phase1(ctx, content)
            })
        })();
        Some(match revised {
            Ok((plan, phase2)) => {
                self.pending = phase2;
                Ok(plan)
            }
            Err(e) => Err(plan_error(&e)),
        })
    }

    fn stop_reason(&self) -> Option<String> {
        self.link.shared.limits.stop_reason()
    }
}

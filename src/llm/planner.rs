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
//! Each planner owns a current-thread tokio runtime and its HTTP client;
//! the planners of a run share [`LlmShared`] (templates, cache, rate
//! limiter, budget and clock).

use super::cache::ResponseCache;
use super::client::{request_body, ChatClient, Message};
use super::limits::Deadline;
use super::prompts::{self, RepairView, RevisionView};
use super::{reply, LlmError, LlmShared};
use crate::kg::watchdog::with_deadline;
use crate::planner::{PlanCheck, PlanError, Planner, TurnContext};
use crate::trace::error_chain;
use crate::turn::{Finding, LlmExchange, Phase2, Plan, UsedValue};
use std::sync::Arc;
use std::time::Instant;

/// The LLM planner.
pub struct LlmPlanner {
    shared: Arc<LlmShared>,
    runtime: tokio::runtime::Runtime,
    client: ChatClient,
    pending: Option<Phase2>,
    exchanges: Vec<LlmExchange>,
    turn_deadline: Option<Deadline>,
    /// The turn's accepted Phase 1 exchange (its messages and the reply),
    /// which a revision continues.
    conversation: Vec<Message>,
}

impl std::fmt::Debug for LlmPlanner {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LlmPlanner")
            .field("model", &self.shared.config.model)
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
    /// A planner sharing `shared` with the run's other LLM planners.
    pub fn new(shared: Arc<LlmShared>) -> Result<Self, LlmError> {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_io()
            .enable_time()
            .build()
            .map_err(|e| LlmError::Startup(e.to_string()))?;
        let client = {
            let _guard = runtime.enter();
            ChatClient::new(&shared.config)?
        };
        Ok(Self {
            shared,
            runtime,
            client,
            pending: None,
            exchanges: Vec::new(),
            turn_deadline: None,
            conversation: Vec::new(),
        })
    }

    /// One request: from the cache when it holds the reply, else from the
    /// server within the run's limits. Records the exchange.
    fn exchange(
        &mut self,
        phase: Phase,
        attempt: usize,
        messages: &[Message],
        prompt: String,
    ) -> Result<String, LlmError> {
        let config = &self.shared.config;
        let body = request_body(config, messages);
        let key = ResponseCache::key(&body);
        let mut record = LlmExchange {
            phase: phase.name().to_string(),
            attempt,
            prompt,
            reply: None,
            error: None,
            prompt_tokens: None,
            completion_tokens: None,
            latency_ms: 0,
            retries: 0,
            cache_hit: false,
            cost_usd: 0.0,
        };
        let started = Instant::now();
        if let Some(hit) = self.shared.cache.as_ref().and_then(|c| c.get(&key)) {
            record.cache_hit = true;
            record.prompt_tokens = hit.prompt_tokens;
            record.completion_tokens = hit.completion_tokens;
            record.reply = Some(hit.content.clone());
            record.latency_ms = millis(started);
            self.exchanges.push(record);
            return Ok(hit.content);
        }
        if let Err(e) = self.shared.limits.check() {
            record.error = Some(e.to_string());
            self.exchanges.push(record);
            return Err(e);
        }
        let deadline =
            Deadline::earliest(self.turn_deadline.clone(), self.shared.limits.deadline());
        let result = self.runtime.block_on(self.client.complete(
            &body,
            deadline.as_ref(),
            &self.shared.limiter,
            &self.shared.limits,
        ));
        record.latency_ms = millis(started);
        match result {
            Ok(done) => {
                let reply = done.reply;
                record.retries = done.retries;
                record.prompt_tokens = reply.prompt_tokens;
                record.completion_tokens = reply.completion_tokens;
                record.cost_usd = config.cost(
                    reply.prompt_tokens.unwrap_or(0),
                    reply.completion_tokens.unwrap_or(0),
                );
                self.shared.limits.charge(record.cost_usd);
                record.reply = Some(reply.content.clone());
                // A cache that cannot be written costs a rerun, not this turn.
                if let Some(cache) = &self.shared.cache {
                    let _ = cache.put(&key, &config.model, &reply);
                }
                self.exchanges.push(record);
                Ok(reply.content)
            }
            Err(failure) => {
                record.retries = failure.retries;
                record.error = Some(error_chain(&failure.error));
                if let LlmError::Status {
                    status: 401 | 403 | 404,
                    ..
                } = failure.error
                {
                    self.shared.limits.halt(error_chain(&failure.error));
                }
                self.exchanges.push(record);
                Err(failure.error)
            }
        }
    }

    /// What a run's LLM planners share.
    pub(super) fn shared(&self) -> &LlmShared {
        &self.shared
    }

    /// Starts the clock of a turn's time limit.
    pub(super) fn start_turn(&mut self) {
        self.turn_deadline = self.shared.config.turn_time_limit.map(|limit| Deadline {
            at: Instant::now() + limit,
            what: format!("the turn's time limit of {} s", limit.as_secs_f64()),
        });
    }

    /// Asks until `check` accepts a reply or the repairs run out.
    pub(super) fn converse<T>(
        &mut self,
        phase: Phase,
        mut messages: Vec<Message>,
        mut check: impl FnMut(&str) -> Result<T, String>,
    ) -> Result<T, LlmError> {
        let repairs = self.shared.config.repairs;
        let mut prompt = messages
            .iter()
            .map(|m| format!("[{}]\n{}", m.role, m.content))
            .collect::<Vec<_>>()
            .join("\n\n");
        let mut attempt: u32 = 0;
        loop {
            let content = self.exchange(phase, attempt as usize, &messages, prompt)?;
            // the turn's time limit also stops a query of the reply in flight
            let deadline = self.turn_deadline.as_ref().map(|d| d.at);
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
            if let Some(last) = self.exchanges.last_mut() {
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
            let repair = self.shared.prompts.render(
                "repair.j2",
                &RepairView {
                    phase: phase.name(),
                    error,
                    attempt,
                    attempts_left: repairs - attempt,
                },
            )?;
            messages.push(Message::new("assistant", content));
            messages.push(Message::new("user", repair.clone()));
            prompt = format!("[user]\n{repair}");
        }
    }
}

fn millis(since: Instant) -> u64 {
    u64::try_from(since.elapsed().as_millis()).unwrap_or(u64::MAX)
}

fn plan_error(e: &LlmError) -> PlanError {
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
        let prompts = &self.shared.prompts;
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
        std::mem::take(&mut self.exchanges)
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
                self.shared.prompts.render("revise.j2", &view)?,
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
        self.shared.limits.stop_reason()
    }
}

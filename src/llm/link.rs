//! One planner's line to its model(s): the tokio runtime, a
//! [`ChatClient`] a stage ([`Stage`]: Phase 1, Phase 2, the agent), the
//! turn's deadline, and the exchanges recorded for the turn's trace.
//!
//! [`Link::send`] is the one way a planner of this module makes a request:
//! from the cache when it holds the reply, else from the server within the
//! run's limits (budget, rate, clock) and the turn's deadline; every
//! exchange, answered or not, is recorded as an [`LlmExchange`].

use super::cache::ResponseCache;
use super::client::{ChatClient, ChatReply};
use super::limits::Deadline;
use super::{LlmConfig, LlmError, LlmShared};
use crate::trace::error_chain;
use crate::turn::LlmExchange;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A stage's settings and its HTTP client (one endpoint, one model).
#[derive(Debug)]
pub struct Stage {
    /// The stage's settings.
    pub config: LlmConfig,
    client: ChatClient,
}

/// The runtime, the stages' clients, the turn's deadline and its exchanges.
pub struct Link {
    /// What the run's planners share.
    pub shared: Arc<LlmShared>,
    runtime: tokio::runtime::Runtime,
    /// The exchanges since the trace last took them.
    pub exchanges: Vec<LlmExchange>,
    /// The turn's deadline, once a turn started.
    pub turn_deadline: Option<Deadline>,
}

impl std::fmt::Debug for Link {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Link")
            .field("model", &self.shared.config.model)
            .finish_non_exhaustive()
    }
}

impl Link {
    /// A link sharing `shared` with the run's other planners.
    pub fn new(shared: Arc<LlmShared>) -> Result<Self, LlmError> {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_io()
            .enable_time()
            .build()
            .map_err(|e| LlmError::Startup(e.to_string()))?;
        Ok(Self {
            shared,
            runtime,
            exchanges: Vec::new(),
            turn_deadline: None,
        })
    }

    /// A stage with `config`'s endpoint and model; its client is built
    /// inside this link's runtime.
    pub fn stage(&self, config: LlmConfig) -> Result<Stage, LlmError> {
        let _guard = self.runtime.enter();
        let client = ChatClient::new(&config)?;
        Ok(Stage { config, client })
    }

    /// Starts a turn: its deadline is `limit` from now.
    pub fn start_turn(&mut self, limit: Option<Duration>) {
        self.turn_deadline = limit.map(|limit| Deadline {
            at: Instant::now() + limit,
            what: format!("the turn's time limit of {} s", limit.as_secs_f64()),
        });
    }

    /// One request of `body` through `stage`: from the cache when it holds
    /// the reply, else from the server within the run's limits. Records the
    /// exchange (`phase`, `attempt`, the `prompt` text it added).
    pub fn send(
        &mut self,
        stage: &Stage,
        phase: &str,
        attempt: usize,
        body: &serde_json::Value,
        prompt: String,
    ) -> Result<ChatReply, LlmError> {
        let config = &stage.config;
        let key = ResponseCache::key(body);
        let mut record = LlmExchange {
            phase: phase.to_string(),
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
            record.reply = Some(reply_text(&hit));
            record.latency_ms = millis(started);
            self.exchanges.push(record);
            return Ok(hit);
        }
        if let Err(e) = self.shared.limits.check() {
            record.error = Some(e.to_string());
            self.exchanges.push(record);
            return Err(e);
        }
        let deadline =
            Deadline::earliest(self.turn_deadline.clone(), self.shared.limits.deadline());
        let result = self.runtime.block_on(stage.client.complete(
            body,
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
                record.reply = Some(reply_text(&reply));
                // A cache that cannot be written costs a rerun, not this turn.
                if let Some(cache) = &self.shared.cache {
                    let _ = cache.put(&key, &config.model, &reply);
                }
                self.exchanges.push(record);
                Ok(reply)
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
}

/// A reply as the trace shows it: its text, then its tool calls as JSON.
fn reply_text(reply: &ChatReply) -> String {
    match &reply.tool_calls {
        None => reply.content.clone(),
        Some(calls) if reply.content.is_empty() => format!("tool_calls: {calls}"),
        Some(calls) => format!("{}\ntool_calls: {calls}", reply.content),
    }
}

fn millis(since: Instant) -> u64 {
    u64::try_from(since.elapsed().as_millis()).unwrap_or(u64::MAX)
}

//! The LLM planner: the same two-phase contract as the rules planner
//! ([`crate::plan`]), planned by a language model behind any
//! OpenAI-compatible chat-completions endpoint (OpenAI, vLLM, llama.cpp's
//! server, Ollama, LM Studio, hosted gateways).
//!
//! One stage a module:
//! - [`prompts`] renders `prompts/*.j2` (minijinja) from the turn: the
//!   question, the page's schema summary read from the store, the earlier
//!   results with their metadata, the ontology's calculation patterns;
//! - [`client`] sends a chat-completions request (reqwest on tokio) with
//!   retries, exponential backoff with jitter and `Retry-After`;
//! - [`cache`] keeps replies on disk, keyed by a hash of the request;
//! - [`limits`] holds what a run shares: the requests-per-minute limiter,
//!   the budget and the run's time limit;
//! - [`reply`] reads a reply into the contract;
//! - [`link`] is a planner's one request path: its runtime, a client a
//!   stage (Phase 1, Phase 2, the agent), the turn's deadline, the
//!   exchanges recorded;
//! - [`planner`] drives a turn: request, read, check the plan by binding it
//!   through [`crate::exec`], feed errors back a bounded number of times,
//!   and revise a plan after a critic's finding;
//! - [`agent`] is the tool-calling planner (`--planner agent`): the model
//!   explores the page's graph with tools, then calls `answer` with the
//!   same contract;
//! - [`critic`] reviews a proposed result (`--critic llm`).
//!
//! **Invariant:** only this module touches the network, and only when the
//! LLM planner or the agent is asked for (`--planner llm`, `--planner agent`). A reply becomes a plan only
//! through the contract's types and the executor; a turn with no usable
//! reply fails with the reason — never a made-up value.

pub mod agent;
pub mod cache;
pub mod client;
pub mod critic;
pub mod limits;
pub mod link;
pub mod planner;
pub mod prompts;
pub mod reply;

pub use agent::AgentPlanner;
pub use critic::LlmCritic;
pub use planner::LlmPlanner;

use cache::ResponseCache;
use limits::{RateLimiter, RunLimits};
use prompts::Prompts;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// Tool calls the agent may make in a turn unless another number is given.
pub const DEFAULT_MAX_TOOL_CALLS: u32 = 8;

/// What one stage (Phase 2, say) sets apart from the planner's settings:
/// the endpoint, the model and its sampling; what it leaves out is the
/// planner's.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct StageOverride {
    /// Base URL of the stage's API.
    pub base_url: Option<String>,
    /// The stage's model.
    pub model: Option<String>,
    /// Its sampling temperature.
    pub temperature: Option<f64>,
    /// Its `max_tokens`.
    pub max_tokens: Option<u32>,
}

/// A turn's time limit unless one is given: both phases, retries and
/// repairs included.
pub const DEFAULT_TURN_TIME_LIMIT: Duration = Duration::from_secs(60);

/// How the LLM planner reaches its model and how far it may go.
#[derive(Debug, Clone)]
pub struct LlmConfig {
    /// Base URL of the API, up to and including `/v1`; requests go to
    /// `{base_url}/chat/completions`.
    pub base_url: String,
    /// Sent as `Authorization: Bearer ...` when given (local servers need none).
    pub api_key: Option<String>,
    /// The model name the server knows.
    pub model: String,
    /// Sampling temperature.
    pub temperature: f64,
    /// `max_tokens` of each request, when given.
    pub max_tokens: Option<u32>,
    /// Ask for `response_format: {"type": "json_object"}`.
    pub json_mode: bool,
    /// Time limit of one HTTP request.
    pub timeout: Duration,
    /// Retries of a request after a timeout, a connection error, 429 or 5xx.
    pub retries: u32,
    /// First backoff delay; it doubles each retry (with jitter) up to [`limits::MAX_BACKOFF`].
    pub backoff: Duration,
    /// Replies sent back with their error before a turn fails.
    pub repairs: u32,
    /// The reply cache's folder; `None` turns the cache off.
    pub cache_dir: Option<PathBuf>,
    /// A folder of prompt templates to use instead of the built-in ones.
    pub prompts_dir: Option<PathBuf>,
    /// Wall-clock limit of one turn (both phases, retries included).
    pub turn_time_limit: Option<Duration>,
    /// Wall-clock limit of the whole run.
    pub run_time_limit: Option<Duration>,
    /// US dollars per million prompt tokens.
    pub price_input: f64,
    /// US dollars per million completion tokens.
    pub price_output: f64,
    /// Stop the run once this many US dollars are spent.
    pub budget: Option<f64>,
    /// Requests per minute across the run, when limited.
    pub rpm: Option<u32>,
    /// Tool calls the agent may make in a turn ([`AgentPlanner`]); a turn
    /// that reaches them without `answer` fails.
    pub max_tool_calls: u32,
    /// Phase 2's own endpoint, model and sampling, where they differ.
    pub phase2: StageOverride,
}

impl LlmConfig {
    /// A configuration with the defaults for everything but the endpoint and model.
    pub fn new(base_url: &str, model: &str) -> Self {
        Self {
            base_url: base_url.to_string(),
            api_key: None,
            model: model.to_string(),
            temperature: 0.0,
            max_tokens: None,
            json_mode: true,
            timeout: Duration::from_secs(60),
            retries: 4,
            backoff: Duration::from_millis(500),
            repairs: 2,
            cache_dir: None,
            prompts_dir: None,
            turn_time_limit: Some(DEFAULT_TURN_TIME_LIMIT),
            run_time_limit: None,
            price_input: 0.0,
            price_output: 0.0,
            budget: None,
            rpm: None,
            max_tool_calls: DEFAULT_MAX_TOOL_CALLS,
            phase2: StageOverride::default(),
        }
    }

    /// The settings of Phase 2's requests: these, with [`LlmConfig::phase2`]'s
    /// overrides.
    pub fn for_phase2(&self) -> LlmConfig {
        let o = &self.phase2;
        let mut c = self.clone();
        if let Some(url) = &o.base_url {
            c.base_url.clone_from(url);
        }
        if let Some(model) = &o.model {
            c.model.clone_from(model);
        }
        if let Some(t) = o.temperature {
            c.temperature = t;
        }
        if o.max_tokens.is_some() {
            c.max_tokens = o.max_tokens;
        }
        c.phase2 = StageOverride::default();
        c
    }

    /// What a request with these token counts costs in US dollars.
    pub fn cost(&self, prompt_tokens: u64, completion_tokens: u64) -> f64 {
        (prompt_tokens as f64 * self.price_input + completion_tokens as f64 * self.price_output)
            / 1_000_000.0
    }
}

/// Errors of the LLM planner: configuration, templates, transport, limits.
#[derive(Debug, thiserror::Error)]
pub enum LlmError {
    /// A setting is missing or wrong.
    #[error("{0}")]
    Config(String),
    /// A prompt template could not be read.
    #[error("cannot read prompt template `{}`", path.display())]
    TemplateFile {
        /// The file.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// A prompt template does not parse or does not render.
    #[error("prompt template `{template}`{}: {message}", line.map(|l| format!(", line {l}")).unwrap_or_default())]
    Template {
        /// The template's file name.
        template: String,
        /// 1-based line of the error, when known.
        line: Option<usize>,
        /// What is wrong.
        message: String,
    },
    /// The reply cache's folder could not be created.
    #[error("cannot use the LLM cache folder `{}`", path.display())]
    Cache {
        /// The folder.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// The async runtime or the HTTP client could not be built.
    #[error("cannot start the HTTP client: {0}")]
    Startup(String),
    /// The server answered with a status that retrying will not change.
    #[error("{url} answered HTTP {status}: {body}")]
    Status {
        /// The URL.
        url: String,
        /// The HTTP status.
        status: u16,
        /// The start of the body.
        body: String,
    },
    /// Retries ran out on timeouts, connection errors, 429 or 5xx.
    #[error("{url}: no reply after {attempts} attempts; last: {last}")]
    Exhausted {
        /// The URL.
        url: String,
        /// Requests made.
        attempts: u32,
        /// The last failure.
        last: String,
    },
    /// The server's body is not a chat-completions reply.
    #[error("{url}: the reply is not a chat completion: {message}")]
    Protocol {
        /// The URL.
        url: String,
        /// What is wrong.
        message: String,
    },
    /// A time limit (the turn's or the run's) was reached.
    #[error("{0} was reached")]
    TimeLimit(String),
    /// The run's budget is spent.
    #[error("the budget of ${budget:.4} is spent (${spent:.4}); no further request is made")]
    Budget {
        /// The budget.
        budget: f64,
        /// Spent so far.
        spent: f64,
    },
    /// An earlier request failed in a way no retry mends for any turn.
    #[error("no further request is made after: {0}")]
    Halted(String),
    /// The model gave no usable reply within the allowed repairs.
    #[error("no usable {phase} reply after {replies} replies; last error: {error}")]
    Unusable {
        /// `phase1` or `phase2`.
        phase: &'static str,
        /// Replies received.
        replies: u32,
        /// Why the last reply could not be used.
        error: String,
    },
}

/// What every LLM planner of a run shares: settings, templates, the cache,
/// the rate limiter and the run's limits. Another stage of the same run
/// (the LLM critic's model) shares the last three through
/// [`LlmShared::for_stage`], so one budget, one rate and one clock bound
/// every request of the run.
#[derive(Debug)]
pub struct LlmShared {
    config: LlmConfig,
    prompts: Prompts,
    cache: Option<ResponseCache>,
    limiter: Arc<RateLimiter>,
    limits: Arc<RunLimits>,
}

impl LlmShared {
    /// Loads and checks the templates, opens the cache and starts the run's clock.
    pub fn new(config: LlmConfig) -> Result<Arc<Self>, LlmError> {
        let (prompts, cache) = Self::prepare(&config)?;
        Ok(Arc::new(Self {
            limiter: Arc::new(RateLimiter::per_minute(config.rpm)),
            limits: Arc::new(RunLimits::new(config.run_time_limit, config.budget)),
            config,
            prompts,
            cache,
        }))
    }

    /// Another stage of this run (its own endpoint, model, sampling and
    /// prices in `config`) within this run's rate limiter, budget and
    /// clock: `config`'s `rpm`, `budget` and `run_time_limit` are not
    /// used, this run's are. Its cache is `config`'s folder.
    pub fn for_stage(&self, config: LlmConfig) -> Result<Arc<Self>, LlmError> {
        let (prompts, cache) = Self::prepare(&config)?;
        Ok(Arc::new(Self {
            limiter: self.limiter.clone(),
            limits: self.limits.clone(),
            config,
            prompts,
            cache,
        }))
    }

    /// Checks the settings, loads and checks the templates, opens the cache.
    fn prepare(config: &LlmConfig) -> Result<(Prompts, Option<ResponseCache>), LlmError> {
        if config.model.trim().is_empty() {
            return Err(LlmError::Config(
                "the LLM planner needs a model: pass --llm-model or set FINKG_LLM_MODEL".into(),
            ));
        }
        let phase2 = config.for_phase2();
        for url in [&config.base_url, &phase2.base_url] {
            if !(url.starts_with("http://") || url.starts_with("https://")) {
                return Err(LlmError::Config(format!(
                    "the LLM base URL `{url}` must start with http:// or https://"
                )));
            }
        }
        if phase2.model.trim().is_empty() {
            return Err(LlmError::Config(
                "the `phase2` stage's model is empty".into(),
            ));
        }
        let prompts = match &config.prompts_dir {
            Some(dir) => Prompts::from_dir(dir)?,
            None => Prompts::builtin()?,
        };
        prompts.check()?;
        let cache = config
            .cache_dir
            .as_deref()
            .map(ResponseCache::open)
            .transpose()?;
        Ok((prompts, cache))
    }

    /// The settings.
    pub fn config(&self) -> &LlmConfig {
        &self.config
    }

    /// The run's limits and what it has spent.
    pub fn limits(&self) -> &RunLimits {
        &self.limits
    }
}

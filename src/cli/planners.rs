//! The planner options of `solve`, `eval` and `chat` (`--planner`,
//! `--fallback`, `--critic`, the LLM planner's settings) and the planners
//! they make.

use super::CliError;
use crate::critic::{Critic, Deterministic};
use crate::llm::{LlmConfig, LlmCritic, LlmPlanner, LlmShared};
use crate::pipeline::Planners;
use crate::plan::RulesPlanner;
use crate::planner::Planner;
use clap::{Args, ValueEnum};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// Which planner turns questions into plans.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum PlannerKind {
    /// Deterministic rules read from the ontology: offline, free, instant.
    Rules,
    /// A language model behind an OpenAI-compatible chat-completions API
    /// (see the LLM options).
    Llm,
}

/// The planner a failed turn falls back to.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FallbackKind {
    /// The rules planner.
    Rules,
}

/// Which critic reviews each result before it is kept.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum CriticKind {
    /// Checks that need no model: the scale, percentage and sign asked,
    /// a look-up that is a year, a result 1000 times its operands.
    Deterministic,
    /// The deterministic checks, then a language model's review (the LLM
    /// options; one more request a turn).
    Llm,
    /// Keep every result as planned.
    Off,
}

/// Which planner plans the turns, and its settings.
#[derive(Args, Clone)]
pub struct PlannerArgs {
    /// The planner that plans each turn. `llm` calls the network; nothing
    /// else does.
    #[arg(long, value_enum, default_value = "rules")]
    pub planner: PlannerKind,
    /// When the LLM planner fails a turn, let this planner answer it; the
    /// trace keeps the LLM's exchanges and says why (`fallback`).
    #[arg(long, value_enum, value_name = "PLANNER")]
    pub fallback: Option<FallbackKind>,
    /// Match questions against row labels only, not also the learned
    /// lexicon's synonyms (ontology/lexicon.ttl).
    #[arg(long)]
    pub no_lexicon: bool,
    /// Review each result before it is kept; on a finding the planner
    /// revises once (the rules planner tries its next-best grounding, the
    /// LLM planner reads the finding) and the revision is kept only if it
    /// passes. Findings and revisions are in the trace (`critic`).
    #[arg(long, value_enum, default_value = "deterministic")]
    pub critic: CriticKind,
    #[command(flatten)]
    pub llm: LlmArgs,
}

/// Settings of the LLM planner. The API key is read from `OPENAI_API_KEY`
/// (optional: local servers need none).
#[derive(Args, Clone)]
#[command(next_help_heading = "LLM planner (--planner llm)")]
pub struct LlmArgs {
    /// Base URL of the OpenAI-compatible API, up to `/v1`: OpenAI,
    /// a vLLM or llama.cpp server (`http://127.0.0.1:8000/v1`), Ollama
    /// (`http://127.0.0.1:11434/v1`), LM Studio, a gateway. The API key,
    /// if the server needs one, is read from OPENAI_API_KEY.
    #[arg(
        long,
        env = "OPENAI_BASE_URL",
        default_value = "https://api.openai.com/v1"
    )]
    pub llm_base_url: String,
    /// The model name the server knows.
    #[arg(long, value_name = "MODEL", env = "FINKG_LLM_MODEL")]
    pub llm_model: Option<String>,
    /// Sampling temperature.
    #[arg(long, value_name = "T", default_value_t = 0.0)]
    pub llm_temperature: f64,
    /// `max_tokens` of each request (the server's default when not given).
    #[arg(long, value_name = "N")]
    pub llm_max_tokens: Option<u32>,
    /// Do not ask for `response_format: json_object` (for servers that
    /// refuse it); the reply is still read as JSON.
    #[arg(long)]
    pub llm_no_json_mode: bool,
    /// Time limit of one HTTP request, in seconds.
    #[arg(long, value_name = "SECONDS", default_value_t = 60.0)]
    pub llm_timeout: f64,
    /// Retries of a request after a timeout, a connection error, 429 or
    /// 5xx, with exponential backoff and jitter (`Retry-After` honoured).
    #[arg(long, value_name = "N", default_value_t = 4)]
    pub llm_retries: u32,
    /// First backoff delay in milliseconds; it doubles each retry (up to 30 s).
    #[arg(long, value_name = "MS", default_value_t = 500)]
    pub llm_backoff_ms: u64,
    /// Unusable replies (not JSON, missing fields, a refused SPARQL or
    /// one that binds nothing, a formula that does not parse) sent back to
    /// the model with their error before the turn fails.
    #[arg(long, value_name = "N", default_value_t = 2)]
    pub llm_repairs: u32,
    /// The reply cache folder [default: $XDG_CACHE_HOME/finkg/llm or
    /// ~/.cache/finkg/llm]. A rerun of the same prompts is answered from it
    /// without a request.
    #[arg(long, value_name = "DIR")]
    pub llm_cache: Option<PathBuf>,
    /// Neither read nor write the reply cache.
    #[arg(long, conflicts_with = "llm_cache")]
    pub no_llm_cache: bool,
    /// A folder of edited prompt templates (system.j2, phase1.j2,
    /// phase2.j2, repair.j2) to use instead of the built-in ones.
    #[arg(long, value_name = "DIR", env = "FINKG_PROMPTS")]
    pub llm_prompts: Option<PathBuf>,
    /// Wall-clock limit of one turn (both phases, retries included), in
    /// seconds; a query in flight is stopped at it too.
    #[arg(long, value_name = "SECONDS", default_value_t = 60.0)]
    pub llm_turn_time_limit: f64,
    /// Wall-clock limit of the whole run, in seconds: no request starts
    /// after it and the run stops, keeping what was answered.
    #[arg(long, value_name = "SECONDS")]
    pub llm_run_time_limit: Option<f64>,
    /// Price of a million prompt tokens, in US dollars.
    #[arg(
        long,
        value_name = "USD",
        env = "FINKG_LLM_PRICE_INPUT",
        default_value_t = 0.0
    )]
    pub llm_price_input: f64,
    /// Price of a million completion tokens, in US dollars.
    #[arg(
        long,
        value_name = "USD",
        env = "FINKG_LLM_PRICE_OUTPUT",
        default_value_t = 0.0
    )]
    pub llm_price_output: f64,
    /// Stop the run once this many US dollars are spent (at the prices
    /// above); what was answered is kept.
    #[arg(long, value_name = "USD")]
    pub llm_budget: Option<f64>,
    /// At most N requests a minute across the run (all `--jobs`).
    #[arg(long, value_name = "N")]
    pub llm_rpm: Option<u32>,
}

/// A positive number of seconds given to `flag`.
pub fn seconds(flag: &str, value: f64) -> Result<Duration, CliError> {
    Duration::try_from_secs_f64(value)
        .ok()
        .filter(|d| !d.is_zero())
        .ok_or_else(|| {
            CliError::new(format!(
                "{flag} must be a positive number of seconds, not `{value}`"
            ))
        })
}

/// The reply cache's default folder.
pub fn default_cache_dir() -> PathBuf {
    let base = std::env::var_os("XDG_CACHE_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| {
            std::env::var_os("HOME")
                .filter(|v| !v.is_empty())
                .map(|h| PathBuf::from(h).join(".cache"))
        });
    match base {
        Some(b) => b.join("finkg").join("llm"),
        None => PathBuf::from(".finkg-cache").join("llm"),
    }
}

/// The LLM planner's settings from its options.
pub fn llm_config(a: &LlmArgs) -> Result<LlmConfig, CliError> {
    let model = a.llm_model.clone().ok_or_else(|| {
        CliError::new("the LLM planner needs a model: pass --llm-model or set FINKG_LLM_MODEL")
    })?;
    let mut c = LlmConfig::new(&a.llm_base_url, &model);
    c.api_key = std::env::var("OPENAI_API_KEY")
        .ok()
        .filter(|k| !k.trim().is_empty());
    c.temperature = a.llm_temperature;
    c.max_tokens = a.llm_max_tokens;
    c.json_mode = !a.llm_no_json_mode;
    c.timeout = seconds("--llm-timeout", a.llm_timeout)?;
    c.retries = a.llm_retries;
    c.backoff = Duration::from_millis(a.llm_backoff_ms);
    c.repairs = a.llm_repairs;
    c.cache_dir = if a.no_llm_cache {
        None
    } else {
        Some(a.llm_cache.clone().unwrap_or_else(default_cache_dir))
    };
    c.prompts_dir = a.llm_prompts.clone();
    c.turn_time_limit = Some(seconds("--llm-turn-time-limit", a.llm_turn_time_limit)?);
    c.run_time_limit = a
        .llm_run_time_limit
        .map(|s| seconds("--llm-run-time-limit", s))
        .transpose()?;
    for (flag, v) in [
        ("--llm-price-input", a.llm_price_input),
        ("--llm-price-output", a.llm_price_output),
    ] {
        if !(v.is_finite() && v >= 0.0) {
            return Err(CliError::new(format!(
                "{flag} must be a price of zero or more, not `{v}`"
            )));
        }
    }
    c.price_input = a.llm_price_input;
    c.price_output = a.llm_price_output;
    c.budget = a.llm_budget;
    c.rpm = a.llm_rpm;
    Ok(c)
}

/// One set of planners for each of `jobs` workers; LLM planners share one
/// cache, rate limiter, budget and clock.
pub fn make_planners(args: &PlannerArgs, jobs: usize) -> Result<Vec<Planners>, CliError> {
    let rules = || -> Result<Box<dyn Planner + Send>, CliError> {
        Ok(Box::new(
            RulesPlanner::new()?.with_lexicon(!args.no_lexicon),
        ))
    };
    let shared = match (args.planner, args.critic) {
        (PlannerKind::Llm, _) | (_, CriticKind::Llm) => {
            Some(LlmShared::new(llm_config(&args.llm)?)?)
        }
        _ => None,
    };
    let planners: Vec<Planners> = match args.planner {
        PlannerKind::Rules => {
            if args.fallback.is_some() {
                return Err(CliError::new("--fallback is for --planner llm"));
            }
            (0..jobs)
                .map(|_| Ok(Planners::single(rules()?)))
                .collect::<Result<_, CliError>>()?
        }
        PlannerKind::Llm => {
            let shared: Arc<LlmShared> = shared
                .clone()
                .ok_or_else(|| CliError::new("the LLM planner has no settings"))?;
            (0..jobs)
                .map(|_| {
                    Ok(Planners {
                        primary: Box::new(LlmPlanner::new(shared.clone())?),
                        fallback: match args.fallback {
                            Some(FallbackKind::Rules) => Some(rules()?),
                            None => None,
                        },
                        critic: None,
                    })
                })
                .collect::<Result<_, CliError>>()?
        }
    };
    planners
        .into_iter()
        .map(|p| Ok(p.with_critic(make_critic(args.critic, shared.as_ref())?)))
        .collect()
}

/// The critic `--critic` names, one a worker.
fn make_critic(
    kind: CriticKind,
    shared: Option<&Arc<LlmShared>>,
) -> Result<Option<Box<dyn Critic + Send>>, CliError> {
    Ok(match (kind, shared) {
        (CriticKind::Off, _) => None,
        (CriticKind::Deterministic, _) => Some(Box::new(Deterministic::new()?)),
        (CriticKind::Llm, Some(shared)) => Some(Box::new(LlmCritic::new(shared.clone())?)),
        (CriticKind::Llm, None) => return Err(CliError::new("--critic llm needs the LLM options")),
    })
}

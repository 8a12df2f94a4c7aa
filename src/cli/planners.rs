//! The planner options of `solve`, `eval` and `chat` (`--planner`,
//! `--fallback`, `--critic`, the LLM planner's settings) and the planners
//! they make.

use super::config::FileConfig;
use super::CliError;
use crate::critic::{Critic, Deterministic};
use crate::llm::{AgentPlanner, LlmConfig, LlmCritic, LlmPlanner, LlmShared, StageOverride};
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
    /// A tool-calling model that explores the page's graph (query_kg,
    /// list_entities, introspect_ontology, calculate) before it calls
    /// `answer`; the LLM options apply, and the agent's own below.
    Agent,
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
    /// a look-up that is a year, a result 1000 times its operands, one
    /// value read twice.
    Deterministic,
    /// The deterministic checks, then a language model's review (the LLM
    /// options, `[critic]` of the configuration file; one more request a
    /// turn).
    Llm,
    /// Keep every result as planned.
    Off,
}

/// Which critic reviews the web page's answers of `finkg serve`.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ServeCritic {
    /// The checks that need no model, and the rules planner's revision,
    /// as `solve` and `chat` by default.
    Deterministic,
    /// Keep every result as planned.
    Off,
}

/// Which planner plans the turns, and its settings.
#[derive(Args, Clone)]
pub struct PlannerArgs {
    /// The planner that plans each turn. `llm` and `agent` call the
    /// network; nothing else does.
    #[arg(long, value_enum, default_value = "rules")]
    pub planner: PlannerKind,
    /// When the LLM planner or the agent fails a turn, let this planner
    /// answer it; the trace keeps the model's exchanges and says why
    /// (`fallback`).
    #[arg(long, value_enum, value_name = "PLANNER")]
    pub fallback: Option<FallbackKind>,
    /// Match questions against row labels only, not also the learned
    /// lexicon's synonyms (ontology/lexicon.ttl).
    #[arg(long)]
    pub no_lexicon: bool,
    /// Review each result before it is kept; on a finding the planner
    /// revises (the rules planner tries its next-best grounding, the LLM
    /// planner and the agent read the finding; once unless
    /// --critic-max-revisions) and a revision is kept only if it passes.
    /// Findings and revisions are in the trace (`critic`).
    #[arg(long, value_enum, default_value = "deterministic")]
    pub critic: CriticKind,
    /// Revision rounds a turn after a finding, each revision reviewed
    /// again (a revision that fails too is revised with its own finding);
    /// 0 keeps every result as planned, its findings traced. Overrides
    /// `max_revisions` of the configuration file's `[critic]` [default: 1].
    #[arg(long, value_name = "N")]
    pub critic_max_revisions: Option<u32>,
    /// The per-stage configuration file (TOML: `[phase1]`, `[phase2]`,
    /// `[agent]`, `[critic]`, `[run]`; see finkg.example.toml); without it,
    /// `finkg.toml` of the working directory is read when there is one.
    /// Flags override the file.
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    #[command(flatten)]
    pub llm: LlmArgs,
}

/// Settings of the LLM planner. The API key is read from `OPENAI_API_KEY`
/// (optional: local servers need none).
#[derive(Args, Clone)]
#[command(next_help_heading = "LLM planner and agent (--planner llm, --planner agent)")]
pub struct LlmArgs {
    /// Base URL of the OpenAI-compatible API, up to `/v1`: OpenAI,
    /// a vLLM or llama.cpp server (`http://127.0.0.1:8000/v1`), Ollama
    /// (`http://127.0.0.1:11434/v1`), LM Studio, a gateway. The API key,
    /// if the server needs one, is read from OPENAI_API_KEY.
    /// [default: `https://api.openai.com/v1`]
    #[arg(long, env = "OPENAI_BASE_URL")]
    pub llm_base_url: Option<String>,
    /// The model name the server knows.
    #[arg(long, value_name = "MODEL", env = "FINKG_LLM_MODEL")]
    pub llm_model: Option<String>,
    /// Sampling temperature [default: 0].
    #[arg(long, value_name = "T")]
    pub llm_temperature: Option<f64>,
    /// `max_tokens` of each request (the server's default when not given).
    #[arg(long, value_name = "N")]
    pub llm_max_tokens: Option<u32>,
    /// Do not ask for `response_format: json_object` (for servers that
    /// refuse it); the reply is still read as JSON.
    #[arg(long)]
    pub llm_no_json_mode: bool,
    /// Time limit of one HTTP request, in seconds [default: 60].
    #[arg(long, value_name = "SECONDS")]
    pub llm_timeout: Option<f64>,
    /// Retries of a request after a timeout, a connection error, 429 or
    /// 5xx, with exponential backoff and jitter (`Retry-After` honoured)
    /// [default: 4].
    #[arg(long, value_name = "N")]
    pub llm_retries: Option<u32>,
    /// First backoff delay in milliseconds; it doubles each retry (up to
    /// 30 s) [default: 500].
    #[arg(long, value_name = "MS")]
    pub llm_backoff_ms: Option<u64>,
    /// Unusable replies (not JSON, missing fields, a refused SPARQL or
    /// one that binds nothing, a formula that does not parse) sent back to
    /// the model with their error before the turn fails [default: 2].
    #[arg(long, value_name = "N")]
    pub llm_repairs: Option<u32>,
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
    /// seconds; a query in flight is stopped at it too [default: 60].
    #[arg(long, value_name = "SECONDS")]
    pub llm_turn_time_limit: Option<f64>,
    /// Wall-clock limit of the whole run, in seconds: no request starts
    /// after it and the run stops, keeping what was answered.
    #[arg(long, value_name = "SECONDS")]
    pub llm_run_time_limit: Option<f64>,
    /// Price of a million prompt tokens, in US dollars [default: 0].
    #[arg(long, value_name = "USD", env = "FINKG_LLM_PRICE_INPUT")]
    pub llm_price_input: Option<f64>,
    /// Price of a million completion tokens, in US dollars [default: 0].
    #[arg(long, value_name = "USD", env = "FINKG_LLM_PRICE_OUTPUT")]
    pub llm_price_output: Option<f64>,
    /// Stop the run once this many US dollars are spent (at the prices
    /// above); what was answered is kept.
    #[arg(long, value_name = "USD")]
    pub llm_budget: Option<f64>,
    /// At most N requests a minute across the run (all `--jobs`).
    #[arg(long, value_name = "N")]
    pub llm_rpm: Option<u32>,
    /// The agent's tool calls a turn (`--planner agent`); a turn that
    /// reaches them without an accepted `answer` fails [default: 8].
    #[arg(long, value_name = "N")]
    pub agent_max_tool_calls: Option<u32>,
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

/// A setting: the flag's (or its environment variable's), else the
/// stage's table, else the default table's, else none.
fn pick<T: Clone>(flag: &Option<T>, stage: &Option<T>, base: &Option<T>) -> Option<T> {
    flag.clone()
        .or_else(|| stage.clone())
        .or_else(|| base.clone())
}

/// Which stage's settings [`stage_config`] resolves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StageKind {
    /// The LLM planner (`[phase1]`, with `[phase2]`'s overrides for Phase 2).
    Planner,
    /// The agent (`[agent]` over `[phase1]`).
    Agent,
    /// The critic's model (`[critic]` over `[phase1]`).
    Critic,
}

/// The keys a stage's table may set over `[phase1]`'s.
#[derive(Default)]
struct StageKeys {
    base_url: Option<String>,
    model: Option<String>,
    temperature: Option<f64>,
    max_tokens: Option<u32>,
    timeout_s: Option<f64>,
    retries: Option<u32>,
    backoff_ms: Option<u64>,
    turn_time_limit_s: Option<f64>,
    max_tool_calls: Option<u32>,
}

impl StageKeys {
    fn of(file: &FileConfig, kind: StageKind) -> Self {
        match kind {
            StageKind::Planner => Self::default(),
            StageKind::Agent => {
                let a = &file.agent;
                Self {
                    base_url: a.base_url.clone(),
                    model: a.model.clone(),
                    temperature: a.temperature,
                    max_tokens: a.max_tokens,
                    timeout_s: a.timeout_s,
                    retries: a.retries,
                    backoff_ms: a.backoff_ms,
                    turn_time_limit_s: a.turn_time_limit_s,
                    max_tool_calls: a.max_tool_calls,
                }
            }
            StageKind::Critic => {
                let c = &file.critic;
                Self {
                    base_url: c.base_url.clone(),
                    model: c.model.clone(),
                    temperature: c.temperature,
                    max_tokens: c.max_tokens,
                    timeout_s: c.timeout_s,
                    retries: c.retries,
                    backoff_ms: c.backoff_ms,
                    ..Self::default()
                }
            }
        }
    }
}

/// A positive number of seconds, from a flag or the file's key.
fn seconds_of(
    flag: &str,
    key: &str,
    given: &Option<f64>,
    file: &Option<f64>,
    default: f64,
) -> Result<Duration, CliError> {
    match (given, file) {
        (Some(v), _) => seconds(flag, *v),
        (None, Some(v)) => seconds(key, *v),
        (None, None) => seconds(flag, default),
    }
}

/// The LLM planner's settings (`planner` llm or agent) from its options
/// and the configuration file, flags first ([`super::config`]).
pub fn llm_config(
    a: &LlmArgs,
    file: &FileConfig,
    planner: PlannerKind,
) -> Result<LlmConfig, CliError> {
    let kind = if planner == PlannerKind::Agent {
        StageKind::Agent
    } else {
        StageKind::Planner
    };
    stage_config(a, file, kind)
}

/// A stage's settings from the LLM options and the configuration file:
/// a flag first, then the stage's table, then `[phase1]`, then the
/// default ([`super::config`]). The critic's stage (`[critic]`) resolves
/// here too.
pub fn stage_config(
    a: &LlmArgs,
    file: &FileConfig,
    kind: StageKind,
) -> Result<LlmConfig, CliError> {
    let p1 = &file.phase1;
    let ag = StageKeys::of(file, kind);
    let model = pick(&a.llm_model, &ag.model, &p1.model).ok_or_else(|| {
        CliError::new(
            "the LLM planner needs a model: pass --llm-model, set FINKG_LLM_MODEL or `model` in the configuration file",
        )
    })?;
    let base_url = pick(&a.llm_base_url, &ag.base_url, &p1.base_url)
        .unwrap_or_else(|| "https://api.openai.com/v1".to_string());
    let mut c = LlmConfig::new(&base_url, &model);
    c.api_key = std::env::var("OPENAI_API_KEY")
        .ok()
        .filter(|k| !k.trim().is_empty());
    c.temperature = pick(&a.llm_temperature, &ag.temperature, &p1.temperature).unwrap_or(0.0);
    c.max_tokens = pick(&a.llm_max_tokens, &ag.max_tokens, &p1.max_tokens);
    c.json_mode = !a.llm_no_json_mode && p1.json_mode.unwrap_or(true);
    c.timeout = seconds_of(
        "--llm-timeout",
        "timeout_s",
        &a.llm_timeout,
        &ag.timeout_s.or(p1.timeout_s),
        60.0,
    )?;
    c.retries = pick(&a.llm_retries, &ag.retries, &p1.retries).unwrap_or(4);
    c.backoff = Duration::from_millis(
        pick(&a.llm_backoff_ms, &ag.backoff_ms, &p1.backoff_ms).unwrap_or(500),
    );
    c.repairs = pick(&a.llm_repairs, &None, &p1.repairs).unwrap_or(2);
    let run = &file.run;
    c.cache_dir = if a.no_llm_cache {
        None
    } else {
        Some(pick(&a.llm_cache, &None, &run.cache_dir).unwrap_or_else(default_cache_dir))
    };
    c.prompts_dir = pick(&a.llm_prompts, &None, &run.prompts_dir);
    c.turn_time_limit = Some(seconds_of(
        "--llm-turn-time-limit",
        "turn_time_limit_s",
        &a.llm_turn_time_limit,
        &ag.turn_time_limit_s.or(p1.turn_time_limit_s),
        60.0,
    )?);
    c.run_time_limit = match (a.llm_run_time_limit, run.run_time_limit_s) {
        (Some(s), _) => Some(seconds("--llm-run-time-limit", s)?),
        (None, Some(s)) => Some(seconds("run_time_limit_s", s)?),
        (None, None) => None,
    };
    let price_input = pick(&a.llm_price_input, &None, &run.price_input).unwrap_or(0.0);
    let price_output = pick(&a.llm_price_output, &None, &run.price_output).unwrap_or(0.0);
    for (flag, v) in [
        ("--llm-price-input", price_input),
        ("--llm-price-output", price_output),
    ] {
        if !(v.is_finite() && v >= 0.0) {
            return Err(CliError::new(format!(
                "{flag} must be a price of zero or more, not `{v}`"
            )));
        }
    }
    c.price_input = price_input;
    c.price_output = price_output;
    c.budget = pick(&a.llm_budget, &None, &run.budget_usd);
    c.rpm = pick(&a.llm_rpm, &None, &run.rpm);
    if let Some(n) = pick(&a.agent_max_tool_calls, &None, &ag.max_tool_calls) {
        if n == 0 {
            return Err(CliError::new("--agent-max-tool-calls must be at least 1"));
        }
        c.max_tool_calls = n;
    }
    if kind != StageKind::Planner {
        return Ok(c);
    }
    // [phase2] overrides what no flag set.
    let p2 = &file.phase2;
    c.phase2 = StageOverride {
        base_url: p2.base_url.clone().filter(|_| a.llm_base_url.is_none()),
        model: p2.model.clone().filter(|_| a.llm_model.is_none()),
        temperature: p2.temperature.filter(|_| a.llm_temperature.is_none()),
        max_tokens: p2.max_tokens.filter(|_| a.llm_max_tokens.is_none()),
    };
    Ok(c)
}

/// One set of planners for each of `jobs` workers; LLM planners and the
/// LLM critic share one rate limiter, budget and clock (the critic's stage
/// of the planner's run, [`LlmShared::for_stage`]), and the planners one cache.
pub fn make_planners(args: &PlannerArgs, jobs: usize) -> Result<Vec<Planners>, CliError> {
    // Read whatever the planner: a bad file is an error, not ignored.
    let file = FileConfig::load(args.config.as_deref())?;
    let rounds = max_revisions(args, &file);
    let rules = || -> Result<Box<dyn Planner + Send>, CliError> {
        Ok(Box::new(
            RulesPlanner::new()?.with_lexicon(!args.no_lexicon),
        ))
    };
    let mut run: Option<Arc<LlmShared>> = None;
    let planners: Vec<Planners> = match args.planner {
        PlannerKind::Rules => {
            if args.fallback.is_some() {
                return Err(CliError::new(
                    "--fallback is for --planner llm or --planner agent",
                ));
            }
            (0..jobs)
                .map(|_| Ok(Planners::single(rules()?)))
                .collect::<Result<_, CliError>>()?
        }
        PlannerKind::Llm | PlannerKind::Agent => {
            let shared: Arc<LlmShared> =
                LlmShared::new(llm_config(&args.llm, &file, args.planner)?)?;
            run = Some(shared.clone());
            (0..jobs)
                .map(|_| {
                    let primary: Box<dyn Planner + Send> = if args.planner == PlannerKind::Agent {
                        Box::new(AgentPlanner::new(shared.clone())?)
                    } else {
                        Box::new(LlmPlanner::new(shared.clone())?)
                    };
                    Ok(Planners {
                        primary,
                        fallback: match args.fallback {
                            Some(FallbackKind::Rules) => Some(rules()?),
                            None => None,
                        },
                        critic: None,
                        max_revisions: rounds,
                    })
                })
                .collect::<Result<_, CliError>>()?
        }
    };
    // the LLM critic's own stage (`[critic]` over `[phase1]`, flags first),
    // within the planner's run when there is one
    let critic_shared = match args.critic {
        CriticKind::Llm => {
            let config = stage_config(&args.llm, &file, StageKind::Critic)?;
            Some(match &run {
                Some(run) => run.for_stage(config)?,
                None => LlmShared::new(config)?,
            })
        }
        _ => None,
    };
    planners
        .into_iter()
        .map(|p| {
            Ok(
                p.with_critic(make_critic(args.critic, critic_shared.as_ref())?)
                    .with_max_revisions(rounds),
            )
        })
        .collect()
}

/// Revision rounds a turn: `--critic-max-revisions`, else `[critic]`'s
/// `max_revisions`, else one.
pub fn max_revisions(args: &PlannerArgs, file: &FileConfig) -> u32 {
    args.critic_max_revisions
        .or(file.critic.max_revisions)
        .unwrap_or(crate::pipeline::DEFAULT_MAX_REVISIONS)
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

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;
    use std::path::Path;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        llm: LlmArgs,
    }

    fn args(flags: &[&str]) -> LlmArgs {
        let mut all = vec!["finkg"];
        all.extend_from_slice(flags);
        Cli::try_parse_from(all).unwrap().llm
    }

    const FILE: &str = r#"
[phase1]
base_url = "http://127.0.0.1:1/v1"
model = "small"
temperature = 0.1
timeout_s = 30
[phase2]
model = "large"
[agent]
model = "tools"
max_tool_calls = 4
[critic]
base_url = "http://127.0.0.1:2/v1"
model = "judge"
max_tokens = 64
"#;

    #[test]
    fn each_stage_resolves_over_phase1_and_flags_win() {
        let file = FileConfig::parse(FILE, Path::new("finkg.toml")).unwrap();
        let env_free = std::env::var_os("FINKG_LLM_MODEL").is_none()
            && std::env::var_os("OPENAI_BASE_URL").is_none();
        let planner = stage_config(&args(&["--no-llm-cache"]), &file, StageKind::Planner).unwrap();
        let critic = stage_config(&args(&["--no-llm-cache"]), &file, StageKind::Critic).unwrap();
        let agent = stage_config(&args(&["--no-llm-cache"]), &file, StageKind::Agent).unwrap();
        if env_free {
            assert_eq!(planner.model, "small");
            assert_eq!(planner.for_phase2().model, "large");
            assert_eq!(agent.model, "tools");
            assert_eq!(critic.model, "judge");
            assert_eq!(critic.base_url, "http://127.0.0.1:2/v1");
            assert_eq!(agent.base_url, "http://127.0.0.1:1/v1", "[phase1]'s");
        }
        assert_eq!(agent.max_tool_calls, 4);
        assert_eq!(critic.max_tokens, Some(64));
        assert_eq!(critic.temperature, 0.1, "[phase1]'s");
        assert_eq!(critic.timeout, Duration::from_secs(30));
        let flagged = stage_config(
            &args(&[
                "--llm-model",
                "m",
                "--llm-temperature",
                "0.7",
                "--llm-timeout",
                "5",
            ]),
            &file,
            StageKind::Critic,
        )
        .unwrap();
        assert_eq!(flagged.model, "m");
        assert_eq!(flagged.temperature, 0.7);
        assert_eq!(flagged.timeout, Duration::from_secs(5));
        let planner =
            stage_config(&args(&["--llm-model", "m"]), &file, StageKind::Planner).unwrap();
        assert_eq!(planner.for_phase2().model, "m", "a flag sets every stage");
    }

    #[test]
    fn a_bad_value_in_the_file_names_its_key() {
        let file =
            FileConfig::parse("[agent]\nturn_time_limit_s = -1\n", Path::new("f.toml")).unwrap();
        let e = stage_config(&args(&["--llm-model", "m"]), &file, StageKind::Agent).unwrap_err();
        assert!(e.message.contains("turn_time_limit_s"), "{}", e.message);
    }
}

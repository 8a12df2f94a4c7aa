//! The per-stage configuration file: `--config FILE`, else `finkg.toml` in
//! the working directory when there is one. One TOML table a stage —
//! `[phase1]` (the LLM planner, and the defaults of every stage),
//! `[phase2]`, `[agent]`, `[critic]` — and `[run]` for what a run shares
//! (budget, rate, clock, prices, cache, prompts). `finkg.example.toml`
//! shows every key.
//!
//! Precedence, highest first: a command-line flag (or its environment
//! variable), the stage's table, `[phase1]` (for `[agent]` and
//! `[critic]`; `[phase2]` overrides Phase 2's endpoint, model and sampling
//! only), the built-in default. An `--llm-*` flag sets every stage.
//!
//! Unknown tables and keys are errors naming the file, the line and the
//! keys allowed, so a misspelt setting never goes unnoticed.

use super::CliError;
use serde::Deserialize;
use std::path::{Path, PathBuf};

/// The file read from the working directory when `--config` is not given.
pub const DEFAULT_FILE: &str = "finkg.toml";

/// `[phase1]`: the LLM planner's Phase 1, and the defaults of every stage.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Phase1Section {
    /// Base URL of the OpenAI-compatible API, up to `/v1`.
    pub base_url: Option<String>,
    /// The model.
    pub model: Option<String>,
    /// Sampling temperature.
    pub temperature: Option<f64>,
    /// `max_tokens` of each request.
    pub max_tokens: Option<u32>,
    /// Ask for `response_format: json_object`.
    pub json_mode: Option<bool>,
    /// Time limit of one HTTP request, in seconds.
    pub timeout_s: Option<f64>,
    /// Retries of a request (timeouts, connection errors, 429, 5xx).
    pub retries: Option<u32>,
    /// First backoff delay in milliseconds.
    pub backoff_ms: Option<u64>,
    /// Unusable replies sent back with their error before a turn fails.
    pub repairs: Option<u32>,
    /// Wall-clock limit of one turn, in seconds.
    pub turn_time_limit_s: Option<f64>,
}

/// `[phase2]`: Phase 2's own endpoint, model and sampling.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Phase2Section {
    /// Base URL of Phase 2's API.
    pub base_url: Option<String>,
    /// Phase 2's model.
    pub model: Option<String>,
    /// Its sampling temperature.
    pub temperature: Option<f64>,
    /// Its `max_tokens`.
    pub max_tokens: Option<u32>,
}

/// `[agent]`: the agent planner (`--planner agent`).
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AgentSection {
    /// Base URL of the agent's API (it must support tool calls).
    pub base_url: Option<String>,
    /// The agent's model.
    pub model: Option<String>,
    /// Sampling temperature.
    pub temperature: Option<f64>,
    /// `max_tokens` of each request.
    pub max_tokens: Option<u32>,
    /// Time limit of one HTTP request, in seconds.
    pub timeout_s: Option<f64>,
    /// Retries of a request.
    pub retries: Option<u32>,
    /// First backoff delay in milliseconds.
    pub backoff_ms: Option<u64>,
    /// Wall-clock limit of one turn, in seconds.
    pub turn_time_limit_s: Option<f64>,
    /// Tool calls a turn.
    pub max_tool_calls: Option<u32>,
}

/// `[critic]`: the model of `--critic llm`, parsed here for the critics;
/// [`super::planners::stage_config`] with `StageKind::Critic` resolves it
/// over `[phase1]` and the flags into an `LlmConfig`, and
/// [`super::planners::max_revisions`] reads `max_revisions`.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CriticSection {
    /// Base URL of the critic's API.
    pub base_url: Option<String>,
    /// The critic's model.
    pub model: Option<String>,
    /// Sampling temperature.
    pub temperature: Option<f64>,
    /// `max_tokens` of each request.
    pub max_tokens: Option<u32>,
    /// Time limit of one HTTP request, in seconds.
    pub timeout_s: Option<f64>,
    /// Retries of a request.
    pub retries: Option<u32>,
    /// First backoff delay in milliseconds.
    pub backoff_ms: Option<u64>,
    /// Revision rounds a turn after a finding, each revision reviewed
    /// again (`--critic-max-revisions` overrides it; 0: none). It applies
    /// to every critic, the deterministic one included.
    pub max_revisions: Option<u32>,
}

/// `[run]`: what the stages of a run share.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RunSection {
    /// Stop the run once this many US dollars are spent.
    pub budget_usd: Option<f64>,
    /// Requests a minute across the run.
    pub rpm: Option<u32>,
    /// Wall-clock limit of the whole run, in seconds.
    pub run_time_limit_s: Option<f64>,
    /// US dollars a million prompt tokens.
    pub price_input: Option<f64>,
    /// US dollars a million completion tokens.
    pub price_output: Option<f64>,
    /// The reply cache's folder (relative to the file's folder).
    pub cache_dir: Option<PathBuf>,
    /// A folder of edited prompt templates (relative to the file's folder).
    pub prompts_dir: Option<PathBuf>,
}

/// The configuration file, parsed.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FileConfig {
    /// `[phase1]`.
    #[serde(default)]
    pub phase1: Phase1Section,
    /// `[phase2]`.
    #[serde(default)]
    pub phase2: Phase2Section,
    /// `[agent]`.
    #[serde(default)]
    pub agent: AgentSection,
    /// `[critic]`.
    #[serde(default)]
    pub critic: CriticSection,
    /// `[run]`.
    #[serde(default)]
    pub run: RunSection,
    /// The file it was read from (none for the empty configuration).
    #[serde(skip)]
    pub path: Option<PathBuf>,
}

impl FileConfig {
    /// Parses the text of a configuration file; `path` names it in errors
    /// and anchors its relative folders.
    pub fn parse(text: &str, path: &Path) -> Result<Self, CliError> {
        let mut config: FileConfig = toml::from_str(text).map_err(|e| {
            let place = e
                .span()
                .map(|span| {
                    let before = &text[..span.start.min(text.len())];
                    let line = before.matches('\n').count() + 1;
                    let column = before.len() - before.rfind('\n').map_or(0, |i| i + 1) + 1;
                    format!(", line {line}, column {column}")
                })
                .unwrap_or_default();
            CliError::new(format!(
                "cannot read the configuration file `{}`{place}: {}",
                path.display(),
                e.message().trim_end().replace('\n', " ")
            ))
            .with_hint(
                "the tables are [phase1], [phase2], [agent], [critic] and [run]; finkg.example.toml shows every key",
            )
        })?;
        let base = path.parent().unwrap_or(Path::new(""));
        for dir in [&mut config.run.cache_dir, &mut config.run.prompts_dir]
            .into_iter()
            .flatten()
        {
            if dir.is_relative() {
                *dir = base.join(&*dir);
            }
        }
        config.path = Some(path.to_path_buf());
        Ok(config)
    }

    /// The file `--config` names, else `finkg.toml` of the working
    /// directory when there is one, else the empty configuration.
    pub fn load(explicit: Option<&Path>) -> Result<Self, CliError> {
        let (path, required) = match explicit {
            Some(p) => (p.to_path_buf(), true),
            None => (PathBuf::from(DEFAULT_FILE), false),
        };
        match std::fs::read_to_string(&path) {
            Ok(text) => Self::parse(&text, &path),
            Err(e) if !required && e.kind() == std::io::ErrorKind::NotFound => Ok(Self::default()),
            Err(e) => Err(CliError::new(format!(
                "cannot read the configuration file `{}`: {e}",
                path.display()
            ))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_every_table() {
        let c = FileConfig::parse(
            r#"
[phase1]
base_url = "http://127.0.0.1:8000/v1"
model = "small"
temperature = 0.2
[phase2]
model = "large"
[agent]
model = "tools"
max_tool_calls = 5
[critic]
model = "judge"
[run]
budget_usd = 1.5
cache_dir = "cache"
"#,
            Path::new("/etc/finkg/finkg.toml"),
        )
        .unwrap();
        assert_eq!(c.phase1.model.as_deref(), Some("small"));
        assert_eq!(c.phase1.temperature, Some(0.2));
        assert_eq!(c.phase2.model.as_deref(), Some("large"));
        assert_eq!(c.agent.max_tool_calls, Some(5));
        assert_eq!(c.critic.model.as_deref(), Some("judge"));
        assert_eq!(c.run.budget_usd, Some(1.5));
        assert_eq!(c.run.cache_dir, Some(PathBuf::from("/etc/finkg/cache")));
    }

    #[test]
    fn unknown_keys_and_tables_are_errors_with_the_place() {
        let e = FileConfig::parse("[phase1]\nmodle = \"x\"\n", Path::new("f.toml")).unwrap_err();
        assert!(e.message.contains("`f.toml`"), "{}", e.message);
        assert!(e.message.contains("unknown field `modle`"), "{}", e.message);
        assert!(e.message.contains("line 2"), "{}", e.message);
        let e = FileConfig::parse("[phase3]\nmodel = \"x\"\n", Path::new("f.toml")).unwrap_err();
        assert!(
            e.message.contains("unknown field `phase3`"),
            "{}",
            e.message
        );
        let e =
            FileConfig::parse("[phase2]\nmax_tool_calls = 3\n", Path::new("f.toml")).unwrap_err();
        assert!(e.message.contains("max_tool_calls"), "{}", e.message);
        let e = FileConfig::parse("[phase1]\ntemperature = \"hot\"\n", Path::new("f.toml"))
            .unwrap_err();
        assert!(e.message.contains("invalid type"), "{}", e.message);
        let e = FileConfig::parse("[phase1\n", Path::new("f.toml")).unwrap_err();
        assert!(e.message.contains("`f.toml`"), "{}", e.message);
    }

    #[test]
    fn the_example_file_reads() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("finkg.example.toml");
        let text = std::fs::read_to_string(&path).unwrap();
        let c = FileConfig::parse(&text, &path).unwrap();
        assert_eq!(c.agent.max_tool_calls, Some(8));
        assert_eq!(c.phase2.model.as_deref(), Some("Qwen/Qwen2.5-14B-Instruct"));
        assert_eq!(c.critic.max_revisions, Some(1));
        assert_eq!(c.run.rpm, Some(60));
    }

    #[test]
    fn a_missing_default_file_is_no_error_but_a_missing_named_one_is() {
        let e = FileConfig::load(Some(Path::new("/nonexistent/finkg.toml"))).unwrap_err();
        assert!(
            e.message.contains("/nonexistent/finkg.toml"),
            "{}",
            e.message
        );
    }
}

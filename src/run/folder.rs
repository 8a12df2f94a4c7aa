//! The run folder's records beyond `predictions.jsonl` and `failures.md`,
//! written by [`crate::eval::run_with`] and read back by [`RunFolder`] (what
//! `finkg export` sends to MongoDB).
//!
//! - `run.json` — a [`RunInfo`]: run id, start and end (RFC 3339, UTC),
//!   planner, model, dataset, limit, git revision, finkg version, store,
//!   critic and its revision rounds. Written when
//!   the run starts (`finished` null) and again when it ends.
//! - `conversations.jsonl` — one [`ConversationRecord`] a conversation:
//!   `{"id", "turns", "correct", "graph": {"triples", "observations",
//!   "sentences", "text_facts"}, "error"}` (`correct` null without gold,
//!   `graph` null when the page failed to load).
//! - `trace.jsonl` — one [`ScoredTurn`] a turn: the [`TurnTrace`] fields plus
//!   `"gold": {"answer", "text", "program", "operations"}` and `"correct"`
//!   (both null without gold). Gold is added here, after the turn was
//!   answered: the answering path never sees it.
//! - `llm_exchanges.jsonl` — one [`LlmExchangeRecord`] an LLM call (empty for the
//!   rules planner); readers treat a missing file as no exchanges.
//! - `pages.jsonl` — one [`PageRecord`] a conversation: the page's table
//!   and its sentences as the graph numbers them, so that a run folder
//!   shows where each value came from without the dataset:
//!   `{"id", "columns": ["2007", ...], "rows": [{"label", "cells": ["60.94", ...]}],
//!   "sentences": [{"section": "pre_text", "text": "..."}]}`.

use super::Summary;
use crate::dataset::{Conversation, GoldAnswer};
use crate::kg::text::split_sentences;
use crate::kg::GraphStats;
use crate::trace::TurnTrace;
use crate::turn::{Answer, LlmExchange};
use serde::{Deserialize, Serialize};
use std::fs::File;
use std::hash::{BuildHasher, Hasher};
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

/// File names inside a run folder.
pub mod files {
    /// The run's identity and configuration.
    pub const RUN: &str = "run.json";
    /// One line a turn: the ConvFinQA predictions contract.
    pub const PREDICTIONS: &str = "predictions.jsonl";
    /// One line a turn: the full trace with gold and verdict.
    pub const TRACE: &str = "trace.jsonl";
    /// One line a conversation.
    pub const CONVERSATIONS: &str = "conversations.jsonl";
    /// One line an LLM exchange (none until the LLM planner exists).
    pub const LLM_EXCHANGES: &str = "llm_exchanges.jsonl";
    /// The scores.
    pub const SUMMARY: &str = "summary.json";
    /// Each miss in words, grouped by cause.
    pub const FAILURES: &str = "failures.md";
    /// One line a conversation: its page's table and sentences.
    pub const PAGES: &str = "pages.jsonl";
}

/// Who ran what, when: `run.json`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunInfo {
    /// Unique id of the run: `20261122T014748Z-3f9a1c` (UTC start, random suffix).
    pub run_id: String,
    /// When the run started, RFC 3339 UTC with milliseconds.
    pub started: String,
    /// When the run ended; null while it runs (or if it was interrupted).
    pub finished: Option<String>,
    /// The planner (`rules`).
    pub planner: String,
    /// The LLM model, for planners that use one.
    pub model: Option<String>,
    /// The dataset file, as given on the command line.
    pub dataset: Option<String>,
    /// `--limit`, when given.
    pub limit: Option<usize>,
    /// The git revision of the source tree finkg was built from, when it is a
    /// git checkout (`-dirty` appended when it had uncommitted changes).
    pub git_revision: Option<String>,
    /// The finkg version.
    pub finkg_version: String,
    /// The run was interrupted (SIGINT, SIGTERM) before it ended; `finkg
    /// eval --resume` finishes it.
    #[serde(default)]
    pub interrupted: bool,
    /// The SPARQL endpoint the pages' graphs were read from (`eval --store
    /// URL`), without credentials; null when each page's graph was built
    /// in memory.
    #[serde(default)]
    pub store: Option<String>,
    /// The critic that reviewed each result (`eval --critic`):
    /// `deterministic`, `llm` or `off`; null in a run folder written before
    /// it was recorded.
    #[serde(default)]
    pub critic: Option<String>,
    /// Revision rounds a turn after a finding (`--critic-max-revisions`,
    /// else `[critic]`'s `max_revisions`, else 1); null in a run folder
    /// written before it was recorded.
    #[serde(default)]
    pub max_revisions: Option<u32>,
}

impl RunInfo {
    /// A new run starting now.
    pub fn start(planner: &str, dataset: Option<&Path>, limit: Option<usize>) -> Self {
        let now = SystemTime::now();
        Self {
            run_id: new_run_id(now),
            started: utc_timestamp(now),
            finished: None,
            planner: planner.to_string(),
            model: None,
            dataset: dataset.map(|p| p.display().to_string()),
            limit,
            git_revision: git_revision(),
            finkg_version: env!("CARGO_PKG_VERSION").to_string(),
            interrupted: false,
            store: None,
            critic: None,
            max_revisions: None,
        }
    }
}

/// What a page's graph held, counted (as in `conversations.jsonl`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct GraphCounts {
    /// Quads in the page's named graph.
    pub triples: usize,
    /// Table cells.
    pub observations: usize,
    /// Sentences of the text.
    pub sentences: usize,
    /// Numbers read from the text.
    pub text_facts: usize,
}

impl From<GraphStats> for GraphCounts {
    fn from(s: GraphStats) -> Self {
        Self {
            triples: s.triples,
            observations: s.observations,
            sentences: s.sentences,
            text_facts: s.text_facts,
        }
    }
}

/// One conversation of a run: a line of `conversations.jsonl`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ConversationRecord {
    /// Conversation id.
    pub id: String,
    /// Turns asked.
    pub turns: usize,
    /// Turns answered right; null without gold.
    pub correct: Option<usize>,
    /// What the page's graph held; null when it failed to load.
    pub graph: Option<GraphCounts>,
    /// Why the page failed to load, or null.
    pub error: Option<String>,
}

/// A conversation's page as a run folder keeps it: a line of `pages.jsonl`.
/// Sentence `k` and its tokens are those of the graph's
/// `{page}/sentence/{k}` and `{page}/fact/{k}/{t}` (see [`crate::kg::page_iri`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PageRecord {
    /// Conversation id.
    pub id: String,
    /// Column headers as printed.
    pub columns: Vec<String>,
    /// Rows as printed: label and raw cells.
    pub rows: Vec<PageRow>,
    /// The sentences of the text, pre_text first, as the graph splits them.
    pub sentences: Vec<PageSentence>,
}

/// A row of a [`PageRecord`]'s table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PageRow {
    /// The row label as printed.
    pub label: String,
    /// The cells as printed, one a column.
    pub cells: Vec<String>,
}

/// A sentence of a [`PageRecord`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PageSentence {
    /// `pre_text` or `post_text`.
    pub section: String,
    /// The sentence's tokens joined by single spaces (token `t` is the
    /// `t`-th word).
    pub text: String,
}

impl PageRecord {
    /// The page of a conversation.
    pub fn of(conversation: &Conversation) -> Self {
        let doc = &conversation.document;
        let mut sentences = split_sentences(&doc.pre_text, "pre_text", 0);
        let post = split_sentences(&doc.post_text, "post_text", sentences.len());
        sentences.extend(post);
        Self {
            id: conversation.id.clone(),
            columns: doc.table.columns.clone(),
            rows: doc
                .table
                .rows
                .iter()
                .map(|r| PageRow {
                    label: r.label.clone(),
                    cells: r.cells.iter().map(|c| c.raw.clone()).collect(),
                })
                .collect(),
            sentences: sentences
                .into_iter()
                .map(|s| PageSentence {
                    section: s.section.to_string(),
                    text: s.text,
                })
                .collect(),
        }
    }
}

/// A turn's gold, as recorded after scoring.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GoldRecord {
    /// The executed gold answer (a number, `"yes"` or `"no"`).
    pub answer: Answer,
    /// The gold answer as printed (`"142.4%"`).
    pub text: String,
    /// The gold program (`subtract(60.94, 25.14)`), when published.
    pub program: Option<String>,
    /// The program's operations (`subtract,divide`, `lookup`; empty without
    /// a program), as in the summary's `by_operation`.
    pub operations: String,
}

impl GoldRecord {
    /// Records a gold answer with its text and program.
    pub fn new(answer: &GoldAnswer, text: &str, program: Option<&str>) -> Self {
        Self {
            answer: match answer {
                GoldAnswer::Number(d) => Answer::Number(*d),
                GoldAnswer::Yes => Answer::Yes,
                GoldAnswer::No => Answer::No,
            },
            text: text.to_string(),
            program: program.map(str::to_string),
            operations: program.map(super::program_operations).unwrap_or_default(),
        }
    }
}

/// A turn's trace with its gold and verdict: a line of `trace.jsonl`.
#[derive(Debug, Clone, Serialize)]
pub struct ScoredTurn<'a> {
    /// What happened (the fields of [`TurnTrace`], flattened).
    #[serde(flatten)]
    pub trace: &'a TurnTrace,
    /// The gold, when the dataset has it.
    pub gold: Option<GoldRecord>,
    /// Whether the answer is right; null without gold.
    pub correct: Option<bool>,
}

/// One call to an LLM: a line of `llm_exchanges.jsonl`, written by `eval`
/// from each turn's trace (`--planner llm` or `agent`): the turn's exchange as the
/// trace holds it, with the conversation and turn it belongs to.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LlmExchangeRecord {
    /// Conversation id.
    pub id: String,
    /// 0-based turn index.
    pub turn: usize,
    /// The exchange.
    #[serde(flatten)]
    pub exchange: LlmExchange,
}

/// Errors reading a run folder back.
#[derive(Debug, thiserror::Error)]
pub enum FolderError {
    /// A file could not be read.
    #[error("cannot read `{}`", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// A file or a line is not what the run folder format says.
    #[error("`{}`, line {line}: not a run folder record", path.display())]
    Malformed {
        /// The file.
        path: PathBuf,
        /// 1-based line (1 for a whole-file JSON document).
        line: usize,
        /// Why.
        #[source]
        source: serde_json::Error,
    },
    /// A turn line without its conversation id or turn index.
    #[error("`{}`, line {line}: a turn needs `id` and `turn`", path.display())]
    MissingKey {
        /// The file.
        path: PathBuf,
        /// 1-based line.
        line: usize,
    },
}

/// A finished (or interrupted) run folder, read back.
#[derive(Debug, Clone)]
pub struct RunFolder {
    /// The folder.
    pub dir: PathBuf,
    /// `run.json`.
    pub run: RunInfo,
    /// `summary.json`; `None` when the run did not finish.
    pub summary: Option<Summary>,
    /// `conversations.jsonl`, in run order.
    pub conversations: Vec<ConversationRecord>,
    /// `trace.jsonl`, one JSON object a turn, in run order.
    pub turns: Vec<serde_json::Map<String, serde_json::Value>>,
    /// `llm_exchanges.jsonl` (empty when the file is absent).
    pub llm_exchanges: Vec<LlmExchangeRecord>,
}

impl RunFolder {
    /// Reads a run folder written by `finkg eval`.
    pub fn read(dir: &Path) -> Result<Self, FolderError> {
        let run: RunInfo = read_json(&dir.join(files::RUN))?;
        let summary_path = dir.join(files::SUMMARY);
        let summary = if summary_path.is_file() {
            Some(read_json(&summary_path)?)
        } else {
            None
        };
        let conversations = read_lines(&dir.join(files::CONVERSATIONS))?;
        let trace_path = dir.join(files::TRACE);
        let turns: Vec<serde_json::Map<String, serde_json::Value>> = read_lines(&trace_path)?;
        for (i, t) in turns.iter().enumerate() {
            let ok = t.get("id").is_some_and(serde_json::Value::is_string)
                && t.get("turn").is_some_and(serde_json::Value::is_u64);
            if !ok {
                return Err(FolderError::MissingKey {
                    path: trace_path,
                    line: i + 1,
                });
            }
        }
        let llm_path = dir.join(files::LLM_EXCHANGES);
        let llm_exchanges = if llm_path.is_file() {
            read_lines(&llm_path)?
        } else {
            Vec::new()
        };
        Ok(Self {
            dir: dir.to_path_buf(),
            run,
            summary,
            conversations,
            turns,
            llm_exchanges,
        })
    }
}

/// Reads a whole-file JSON record of a run folder.
pub fn read_json<T: serde::de::DeserializeOwned>(path: &Path) -> Result<T, FolderError> {
    let text = std::fs::read_to_string(path).map_err(|source| FolderError::Read {
        path: path.to_path_buf(),
        source,
    })?;
    serde_json::from_str(&text).map_err(|source| FolderError::Malformed {
        path: path.to_path_buf(),
        line: source.line(),
        source,
    })
}

/// Reads a JSON Lines file of a run folder, one record a line.
pub fn read_lines<T: serde::de::DeserializeOwned>(path: &Path) -> Result<Vec<T>, FolderError> {
    let read_error = |source| FolderError::Read {
        path: path.to_path_buf(),
        source,
    };
    let file = File::open(path).map_err(read_error)?;
    let mut out = Vec::new();
    for (i, line) in BufReader::new(file).lines().enumerate() {
        let line = line.map_err(read_error)?;
        if line.trim().is_empty() {
            continue;
        }
        let value = serde_json::from_str(&line).map_err(|source| FolderError::Malformed {
            path: path.to_path_buf(),
            line: i + 1,
            source,
        })?;
        out.push(value);
    }
    Ok(out)
}

/// A run id: the UTC start to the second and six random hex digits,
/// `20261122T014748Z-3f9a1c`; sorts by start time.
pub fn new_run_id(now: SystemTime) -> String {
    let stamp = utc_timestamp(now);
    let compact: String = stamp[..19]
        .chars()
        .filter(|c| *c != '-' && *c != ':')
        .collect();
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u128(
        now.duration_since(UNIX_EPOCH)
            .unwrap_or_default()
            .as_nanos(),
    );
    hasher.write_u32(std::process::id());
    format!("{compact}Z-{:06x}", hasher.finish() & 0xff_ffff)
}

/// An RFC 3339 UTC timestamp with milliseconds: `2026-11-22T01:47:48.320Z`.
pub fn utc_timestamp(t: SystemTime) -> String {
    let since = t.duration_since(UNIX_EPOCH).unwrap_or_default();
    let secs = since.as_secs();
    let (days, rem) = (secs / 86_400, secs % 86_400);
    let (y, m, d) = civil_from_days(days);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}.{:03}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60,
        since.subsec_millis()
    )
}

/// Year, month, day of a count of days since 1970-01-01 (proleptic
/// Gregorian; H. Hinnant's `civil_from_days`).
fn civil_from_days(days: u64) -> (u64, u64, u64) {
    let z = days + 719_468;
    let era = z / 146_097;
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + u64::from(m <= 2);
    (y, m, d)
}

/// The git revision of the source tree this binary was built from, when that
/// tree is a git checkout and `git` runs; `-dirty` when it had changes.
fn git_revision() -> Option<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    if !root.join(".git").exists() {
        return None;
    }
    let out = std::process::Command::new("git")
        .arg("-C")
        .arg(root)
        .args([
            "describe",
            "--always",
            "--dirty",
            "--abbrev=40",
            "--exclude=*",
        ])
        .stderr(std::process::Stdio::null())
        .output()
        .ok()?;
    let text = String::from_utf8(out.stdout).ok()?;
    let text = text.trim();
    (out.status.success() && !text.is_empty()).then(|| text.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn timestamps_are_rfc3339_utc() {
        assert_eq!(utc_timestamp(UNIX_EPOCH), "1970-01-01T00:00:00.000Z");
        let t = UNIX_EPOCH + Duration::from_millis(951_782_400_123); // a leap day
        assert_eq!(utc_timestamp(t), "2000-02-29T00:00:00.123Z");
        let t = UNIX_EPOCH + Duration::from_secs(1_795_311_668);
        assert_eq!(utc_timestamp(t), "2026-11-22T01:41:08.000Z");
    }

    #[test]
    fn run_ids_sort_by_start_and_differ() {
        let t = UNIX_EPOCH + Duration::from_secs(1_795_311_668);
        let a = new_run_id(t);
        assert!(a.starts_with("20261122T014108Z-"), "{a}");
        assert_eq!(a.len(), "20261122T014108Z-".len() + 6);
        let b = new_run_id(t);
        assert_ne!(a, b, "random suffix");
    }

    #[test]
    fn gold_records_name_their_operations() {
        let g = GoldRecord::new(&GoldAnswer::Yes, "yes", Some("greater(5, 3)"));
        assert_eq!(g.operations, "greater");
        let json = serde_json::to_value(&g).unwrap();
        assert_eq!(json["answer"], "yes");
        let g = GoldRecord::new(
            &GoldAnswer::Number(rust_decimal::Decimal::new(358, 1)),
            "35.8",
            None,
        );
        assert_eq!(g.operations, "");
        assert_eq!(serde_json::to_value(&g).unwrap()["answer"], 35.8);
    }
}

//! MongoDB export of runs (the `mongodb` feature): every run, conversation,
//! turn and LLM exchange as one document, written as a run goes
//! ([`MongoObserver`], `finkg eval --mongo-uri`) or from a finished run
//! folder ([`export_folder`], `finkg export`).
//!
//! Collections, each document keyed by the fields in brackets (the upsert
//! filter and a unique index, created on first use):
//! - `runs` `[run_id]` — start, end, status, config (planner, model,
//!   dataset, limit, git revision) and results (turns, correct, accuracy,
//!   `by_operation`, `by_turn`, `by_feature`, cost);
//! - `conversations` `[run_id, conversation_id]` — turns, right turns,
//!   graph statistics (triples, observations, sentences, text facts), error;
//! - `turns` `[run_id, conversation_id, turn]` (also indexed on
//!   `(run_id, correct)`) — a `trace.jsonl` line: question, plan with every
//!   value spec, the bound values with their SPARQL and source cell or
//!   sentence, formula, answer, gold, correct, error, timings, result
//!   metadata, and `tools` (values by kind);
//! - `llm_exchanges` `[run_id, conversation_id, turn, phase, attempt]` — the
//!   prompt, reply, tokens, latency, retries and cache hit of each LLM call.
//!   No planner calls an LLM yet, so the collection is created (with its
//!   index) and stays empty; the path from `llm_exchanges.jsonl` is in place;
//! - `triples` `[g, s, p, o]`, with `--mongo-triples` only — the TBox and
//!   each page's ABox, one document a quad in N-Triples syntax; a graph is
//!   replaced as a whole on each export.
//!
//! Nothing lost, nothing doubled: every write is an upsert by key, so an
//! export repeated or resumed leaves one document per turn. A live export
//! never stops the evaluation: the writer runs on its own thread, stops at
//! its first failure and the run's folder stays complete, to be exported
//! later with `finkg export`. See [`writer`] for how writes are made.

pub mod docs;
pub mod writer;

use crate::dataset::{Conversation, Example};
use crate::kg::{ExportFormat, KgError, KgStore};
use crate::run::{
    ConversationRecord, FolderError, RunFolder, RunInfo, RunObserver, ScoredTurn, Summary,
};
use crate::vocab;
use docs::{Collection, RunStatus};
use mongodb::bson::Document;
use mongodb::options::ClientOptions;
use oxigraph::io::{RdfFormat, RdfParser, RdfSyntaxError};
use std::collections::HashMap;
use std::fmt;
use std::time::{Duration, Instant};
use writer::{Message, WriteError, Writer};

pub use writer::Counts;

/// The database used when the URI names none.
pub const DEFAULT_DATABASE: &str = "finkg";
/// How long the driver looks for a server before a write fails, unless the
/// URI sets `serverSelectionTimeoutMS`.
pub const SERVER_SELECTION_TIMEOUT: Duration = Duration::from_secs(10);
/// Documents per write command, unless told otherwise.
pub const DEFAULT_BATCH_SIZE: usize = 100;

/// Errors of a MongoDB export.
#[derive(Debug, thiserror::Error)]
pub enum MongoError {
    /// The URI does not parse (or names something this build cannot reach).
    #[error("`{uri}` is not a usable MongoDB connection string")]
    BadUri {
        /// The URI, password hidden.
        uri: String,
        /// Why.
        #[source]
        source: mongodb::error::Error,
    },
    /// No async runtime for the driver.
    #[error("cannot start the MongoDB driver's runtime")]
    Runtime(#[source] std::io::Error),
    /// The run folder could not be read.
    #[error(transparent)]
    Folder(#[from] FolderError),
    /// `--mongo-triples` for a conversation the dataset does not hold.
    #[error("conversation `{id}` of the run is not in the dataset `{dataset}`")]
    MissingPage {
        /// The conversation.
        id: String,
        /// The dataset file.
        dataset: String,
    },
    /// A page's graph could not be built or serialized.
    #[error("the graph of conversation `{id}` could not be built")]
    Graph {
        /// The conversation.
        id: String,
        /// Why.
        #[source]
        source: KgError,
    },
    /// A page's serialized graph did not parse back.
    #[error("the graph of conversation `{id}` could not be read back")]
    Quads {
        /// The conversation.
        id: String,
        /// Why.
        #[source]
        source: RdfSyntaxError,
    },
    /// Some documents were not written.
    #[error("MongoDB export to `{uri}` incomplete: not exported: {not_written}")]
    Incomplete {
        /// The URI, password hidden.
        uri: String,
        /// Documents written before the failure.
        written: Counts,
        /// Documents not written.
        not_written: Counts,
        /// The first failure.
        #[source]
        source: Box<WriteError>,
    },
}

/// Where to export: a parsed connection string and its database.
#[derive(Debug, Clone)]
pub struct MongoTarget {
    options: ClientOptions,
    database: String,
    shown: String,
}

impl MongoTarget {
    /// Parses `mongodb://HOST:PORT/DB` (any connection-string option is
    /// kept; the database defaults to [`DEFAULT_DATABASE`]). Nothing is sent
    /// to the server yet.
    pub fn parse(uri: &str) -> Result<Self, MongoError> {
        let shown = hide_password(uri);
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(MongoError::Runtime)?;
        let mut options = runtime
            .block_on(async { ClientOptions::parse(uri).await })
            .map_err(|source| MongoError::BadUri {
                uri: shown.clone(),
                source,
            })?;
        options
            .server_selection_timeout
            .get_or_insert(SERVER_SELECTION_TIMEOUT);
        options.app_name.get_or_insert_with(|| "finkg".into());
        let database = options
            .default_database
            .clone()
            .unwrap_or_else(|| DEFAULT_DATABASE.into());
        Ok(Self {
            options,
            database,
            shown,
        })
    }

    /// The URI with any password hidden, for messages.
    pub fn shown(&self) -> &str {
        &self.shown
    }

    /// The database written to.
    pub fn database(&self) -> &str {
        &self.database
    }

    fn writer(&self, batch_size: usize) -> Writer {
        Writer::start(self.options.clone(), self.database.clone(), batch_size)
    }
}

/// `mongodb://user:secret@host/db` → `mongodb://***@host/db`.
fn hide_password(uri: &str) -> String {
    let Some((scheme, rest)) = uri.split_once("://") else {
        return uri.to_string();
    };
    let hosts_end = rest.find(['/', '?']).unwrap_or(rest.len());
    match rest[..hosts_end].rfind('@') {
        Some(at) => format!("{scheme}://***{}", &rest[at..]),
        None => uri.to_string(),
    }
}

/// What to export besides runs, conversations, turns and LLM exchanges.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ExportOptions {
    /// Also the TBox and each conversation's ABox, one document a quad.
    pub triples: bool,
    /// Documents per write command.
    pub batch_size: usize,
}

impl Default for ExportOptions {
    fn default() -> Self {
        Self {
            triples: false,
            batch_size: DEFAULT_BATCH_SIZE,
        }
    }
}

/// A finished export.
#[derive(Debug, Clone)]
pub struct ExportReport {
    /// The URI, password hidden.
    pub uri: String,
    /// The run exported.
    pub run_id: String,
    /// Documents written.
    pub written: Counts,
    /// Seconds the export took (for a live export: from the run's start).
    pub seconds: f64,
}

impl fmt::Display for ExportReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let w = &self.written;
        write!(
            f,
            "exported run `{}` to `{}`: {} conversations, {} turns, {} LLM exchanges",
            self.run_id, self.uri, w.conversations, w.turns, w.llm_exchanges
        )?;
        if w.triples > 0 {
            write!(f, ", {} triples", w.triples)?;
        }
        write!(f, " in {:.2} s", self.seconds)
    }
}

fn finish(
    target: &MongoTarget,
    writer: Writer,
    run_id: String,
    started: Instant,
) -> Result<ExportReport, MongoError> {
    let report = writer.finish();
    match report.failure {
        Some(failure) => Err(MongoError::Incomplete {
            uri: target.shown.clone(),
            written: report.written,
            not_written: failure.not_written,
            source: Box::new(failure.error),
        }),
        None => Ok(ExportReport {
            uri: target.shown.clone(),
            run_id,
            written: report.written,
            seconds: started.elapsed().as_secs_f64(),
        }),
    }
}

/// A record as the run folder holds it: written as JSON text and read back,
/// so that a live export and the export of the folder build the same
/// documents, float for float (parsing text is not always the exact
/// inverse of printing a float).
fn as_written<T: serde::Serialize, U: serde::de::DeserializeOwned>(record: &T) -> Option<U> {
    serde_json::to_string(record)
        .ok()
        .and_then(|text| serde_json::from_str(&text).ok())
}

fn turn_documents(run_id: &str, turns: &[ScoredTurn<'_>]) -> Vec<(Collection, Document)> {
    turns
        .iter()
        .filter_map(as_written::<_, serde_json::Map<String, serde_json::Value>>)
        .map(|line| (Collection::Turns, docs::turn_document(run_id, line)))
        .collect()
}

/// The `triples` messages of a page's graph: its ABox, and the TBox when
/// asked.
fn graph_messages(id: &str, kg: &KgStore, with_tbox: bool) -> Result<Vec<Message>, MongoError> {
    let mut nquads = Vec::new();
    kg.export(ExportFormat::NQuads, &mut nquads)
        .map_err(|source| MongoError::Graph {
            id: id.to_string(),
            source,
        })?;
    let tbox = format!("<{}>", vocab::TBOX_GRAPH);
    let page = format!("<{}>", kg.graph().as_str());
    let (mut tbox_quads, mut page_quads) = (Vec::new(), Vec::new());
    for quad in RdfParser::from_format(RdfFormat::NQuads).for_slice(&nquads) {
        let quad = quad.map_err(|source| MongoError::Quads {
            id: id.to_string(),
            source,
        })?;
        let g = quad.graph_name.to_string();
        let into = if g == tbox {
            &mut tbox_quads
        } else {
            &mut page_quads
        };
        into.push(docs::triple_document(
            quad.subject.to_string(),
            quad.predicate.to_string(),
            quad.object.to_string(),
            g,
        ));
    }
    let mut messages = vec![Message::Graph {
        graph: page,
        quads: page_quads,
    }];
    if with_tbox {
        messages.insert(
            0,
            Message::Graph {
                graph: tbox,
                quads: tbox_quads,
            },
        );
    }
    Ok(messages)
}

/// Exports a run as it goes: a [`RunObserver`] for
/// the evaluation's `run_with`. Writes never block or fail the run; call
/// [`MongoObserver::finish`] after it to learn what was exported.
pub struct MongoObserver {
    target: MongoTarget,
    writer: Writer,
    triples: bool,
    tbox_sent: bool,
    run_id: String,
    started: Instant,
    graph_error: Option<MongoError>,
}

impl MongoObserver {
    /// Starts the writer (nothing reaches the server before the run starts).
    pub fn start(target: &MongoTarget, options: &ExportOptions) -> Self {
        Self {
            target: target.clone(),
            writer: target.writer(options.batch_size),
            triples: options.triples,
            tbox_sent: false,
            run_id: String::new(),
            started: Instant::now(),
            graph_error: None,
        }
    }

    /// Waits for the queued writes; what was exported, or what was not.
    pub fn finish(self) -> Result<ExportReport, MongoError> {
        let report = finish(&self.target, self.writer, self.run_id, self.started)?;
        match self.graph_error {
            Some(e) => Err(e),
            None => Ok(report),
        }
    }
}

impl RunObserver for MongoObserver {
    fn started(&mut self, run: &RunInfo) {
        self.run_id = run.run_id.clone();
        let doc = docs::run_document(run, None, RunStatus::Running, docs::cost(&[]));
        self.writer
            .send(Message::Upsert(vec![(Collection::Runs, doc)]));
    }

    fn graph(&mut self, conversation_id: &str, kg: &KgStore) {
        if !self.triples || self.graph_error.is_some() {
            return;
        }
        match graph_messages(conversation_id, kg, !self.tbox_sent) {
            Ok(messages) => {
                self.tbox_sent = true;
                messages.into_iter().for_each(|m| self.writer.send(m));
            }
            Err(e) => self.graph_error = Some(e),
        }
    }

    fn conversation(&mut self, record: &ConversationRecord, turns: &[ScoredTurn<'_>]) {
        let mut batch = turn_documents(&self.run_id, turns);
        batch.push((
            Collection::Conversations,
            docs::conversation_document(&self.run_id, record),
        ));
        self.writer.send(Message::Upsert(batch));
    }

    fn finished(&mut self, run: &RunInfo, summary: &Summary) {
        let summary: Option<Summary> = as_written(summary);
        let doc = docs::run_document(run, summary.as_ref(), RunStatus::Finished, docs::cost(&[]));
        self.writer
            .send(Message::Upsert(vec![(Collection::Runs, doc)]));
    }
}

/// Exports a run folder: the run document, then each conversation's turns
/// followed by its document, in batches, then the LLM exchanges and, with
/// `options.triples`, the TBox and each page's ABox rebuilt from `dataset`
/// (needed only then). Safe to repeat: documents are upserted by key.
pub fn export_folder(
    folder: &RunFolder,
    target: &MongoTarget,
    options: &ExportOptions,
    dataset: Option<(&str, &[Example])>,
) -> Result<ExportReport, MongoError> {
    let started = Instant::now();
    let pages = if options.triples {
        Some(pages_of(folder, dataset)?)
    } else {
        None
    };
    let run_id = folder.run.run_id.clone();
    let mut writer = target.writer(options.batch_size);
    let status = match (&folder.run.finished, &folder.summary) {
        (Some(_), Some(_)) => RunStatus::Finished,
        _ => RunStatus::Interrupted,
    };
    let run_doc = docs::run_document(
        &folder.run,
        folder.summary.as_ref(),
        status,
        docs::cost(&folder.llm_exchanges),
    );
    writer.send(Message::Upsert(vec![(Collection::Runs, run_doc)]));

    let mut turns_of: indexmap::IndexMap<&str, Vec<Document>> = indexmap::IndexMap::new();
    for line in &folder.turns {
        let id = line.get("id").and_then(|v| v.as_str()).unwrap_or_default();
        turns_of
            .entry(id)
            .or_default()
            .push(docs::turn_document(&run_id, line.clone()));
    }
    let mut batch: Vec<(Collection, Document)> = Vec::new();
    let mut conversations_in_batch = Vec::new();
    let flush = |writer: &mut Writer,
                 batch: &mut Vec<(Collection, Document)>,
                 conversations: &mut Vec<(Collection, Document)>| {
        batch.append(conversations);
        if !batch.is_empty() {
            writer.send(Message::Upsert(std::mem::take(batch)));
        }
    };
    for record in &folder.conversations {
        let turns = turns_of
            .shift_remove(record.id.as_str())
            .unwrap_or_default();
        batch.extend(turns.into_iter().map(|d| (Collection::Turns, d)));
        conversations_in_batch.push((
            Collection::Conversations,
            docs::conversation_document(&run_id, record),
        ));
        if batch.len() >= options.batch_size.max(1) {
            flush(&mut writer, &mut batch, &mut conversations_in_batch);
        }
    }
    // turns of a conversation whose line an interrupted run did not write
    for (_, turns) in turns_of {
        batch.extend(turns.into_iter().map(|d| (Collection::Turns, d)));
    }
    flush(&mut writer, &mut batch, &mut conversations_in_batch);
    let exchanges: Vec<(Collection, Document)> = folder
        .llm_exchanges
        .iter()
        .map(|e| {
            (
                Collection::LlmExchanges,
                docs::llm_exchange_document(&run_id, e),
            )
        })
        .collect();
    if !exchanges.is_empty() {
        writer.send(Message::Upsert(exchanges));
    }
    if let Some(pages) = pages {
        let mut with_tbox = true;
        for page in pages {
            let kg = KgStore::build(page).map_err(|source| MongoError::Graph {
                id: page.id.clone(),
                source,
            })?;
            for message in graph_messages(&page.id, &kg, with_tbox)? {
                writer.send(message);
            }
            with_tbox = false;
        }
    }
    finish(target, writer, run_id, started)
}

/// The pages of a run's conversations that loaded, from the dataset.
fn pages_of<'a>(
    folder: &RunFolder,
    dataset: Option<(&str, &'a [Example])>,
) -> Result<Vec<&'a Conversation>, MongoError> {
    let (name, examples) = dataset.unwrap_or(("(none given)", &[]));
    let by_id: HashMap<&str, &Conversation> = examples
        .iter()
        .map(|e| (e.conversation.id.as_str(), &e.conversation))
        .collect();
    folder
        .conversations
        .iter()
        .filter(|c| c.graph.is_some())
        .map(|c| {
            by_id
                .get(c.id.as_str())
                .copied()
                .ok_or_else(|| MongoError::MissingPage {
                    id: c.id.clone(),
                    dataset: name.to_string(),
                })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passwords_are_hidden() {
        assert_eq!(
            hide_password("mongodb://u:secret@h1:1,h2:2/db?authSource=admin"),
            "mongodb://***@h1:1,h2:2/db?authSource=admin"
        );
        assert_eq!(
            hide_password("mongodb://127.0.0.1:27017/finkg"),
            "mongodb://127.0.0.1:27017/finkg"
        );
        assert_eq!(hide_password("nonsense"), "nonsense");
    }

    #[test]
    fn uris_name_their_database() {
        let t = MongoTarget::parse("mongodb://127.0.0.1:1/evals").unwrap();
        assert_eq!(t.database(), "evals");
        let t = MongoTarget::parse("mongodb://127.0.0.1:1").unwrap();
        assert_eq!(t.database(), DEFAULT_DATABASE);
        assert_eq!(
            t.options.server_selection_timeout,
            Some(SERVER_SELECTION_TIMEOUT)
        );
        let t = MongoTarget::parse("mongodb://127.0.0.1:1/?serverSelectionTimeoutMS=250").unwrap();
        assert_eq!(
            t.options.server_selection_timeout,
            Some(Duration::from_millis(250))
        );
        assert!(matches!(
            MongoTarget::parse("http://example.com"),
            Err(MongoError::BadUri { .. })
        ));
    }
}

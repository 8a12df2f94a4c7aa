//! The writer: a thread that owns a tokio runtime and a driver `Client`,
//! takes [`Message`]s over a channel and writes them in order.
//!
//! - On the first message it creates the indexes (unique ones on every
//!   collection's key, plus `turns` on `(run_id, correct)`).
//! - [`Message::Upsert`] documents are written as keyed upserts: one `update`
//!   command for each run of documents of one collection, split by count and
//!   by size; the filter is the document's key, the update the whole
//!   document. The `update` command is used rather than the driver's
//!   `bulk_write` because it works on every server (`bulkWrite` needs
//!   MongoDB 8) and on wire-protocol servers such as nx-27017.
//! - [`Message::Graph`] replaces one named graph's quads in `triples`
//!   (delete, then insert): blank-node labels change between processes, so
//!   upserting quads one by one could not keep one copy.
//! - A command cut off by the network (a lost connection, or the driver
//!   giving up on a server too busy to answer its heartbeat) is sent once
//!   more: upserts by key and whole-graph replacements are safe to repeat.
//! - The next failure stops the writing: later messages are only counted,
//!   so that [`WriteReport`] says what was not written. The caller's work
//!   (an evaluation) never waits on the writer until [`Writer::finish`].

use super::docs::{key_filter, Collection};
use mongodb::bson::{doc, Bson, Document};
use mongodb::error::ErrorKind;
use mongodb::options::{ClientOptions, IndexOptions};
use mongodb::{Client, Database, IndexModel};
use std::fmt;
use std::sync::mpsc;
use std::thread::JoinHandle;
use std::time::Duration;

/// Largest `update` command the writer builds, in bytes of its documents
/// (a command is one BSON document, at most 16 MiB on MongoDB).
const MAX_COMMAND_BYTES: usize = 8 * 1024 * 1024;

/// The pause before a command cut off by the network is sent again.
const RETRY_PAUSE: Duration = Duration::from_millis(500);

/// What the writer is asked to write.
#[derive(Debug)]
pub enum Message {
    /// Upsert these documents, in order, each keyed by its collection's key.
    Upsert(Vec<(Collection, Document)>),
    /// Replace the quads of graph `graph` (its `g` value) in `triples`.
    Graph {
        /// The graph, in N-Triples syntax (`<iri>`).
        graph: String,
        /// Its quads as `triples` documents.
        quads: Vec<Document>,
    },
}

impl Message {
    fn counts(&self) -> Counts {
        let mut c = Counts::default();
        match self {
            Message::Upsert(docs) => docs.iter().for_each(|(coll, _)| c.add(*coll, 1)),
            Message::Graph { quads, .. } => c.add(Collection::Triples, quads.len()),
        }
        c
    }
}

/// Documents written (or not), by collection.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counts {
    /// Writes of `runs` documents (a live run writes its document twice:
    /// when it starts and when it ends).
    pub runs: usize,
    /// `conversations` documents.
    pub conversations: usize,
    /// `turns` documents.
    pub turns: usize,
    /// `llm_exchanges` documents.
    pub llm_exchanges: usize,
    /// `triples` documents.
    pub triples: usize,
}

impl Counts {
    fn slot(&mut self, collection: Collection) -> &mut usize {
        match collection {
            Collection::Runs => &mut self.runs,
            Collection::Conversations => &mut self.conversations,
            Collection::Turns => &mut self.turns,
            Collection::LlmExchanges => &mut self.llm_exchanges,
            Collection::Triples => &mut self.triples,
        }
    }

    /// Adds `n` documents of a collection.
    pub fn add(&mut self, collection: Collection, n: usize) {
        *self.slot(collection) += n;
    }

    fn remove(&mut self, collection: Collection, n: usize) {
        let slot = self.slot(collection);
        *slot = slot.saturating_sub(n);
    }

    fn add_all(&mut self, other: Counts) {
        self.runs += other.runs;
        self.conversations += other.conversations;
        self.turns += other.turns;
        self.llm_exchanges += other.llm_exchanges;
        self.triples += other.triples;
    }

    /// Whether nothing is counted.
    pub fn is_empty(&self) -> bool {
        *self == Counts::default()
    }
}

impl fmt::Display for Counts {
    /// `the run document, 3 conversations, 12 turns` (zero counts left out).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts = Vec::new();
        if self.runs > 0 {
            parts.push("the run document".to_string());
        }
        for (n, one, many) in [
            (self.conversations, "conversation", "conversations"),
            (self.turns, "turn", "turns"),
            (self.llm_exchanges, "LLM exchange", "LLM exchanges"),
            (self.triples, "triple", "triples"),
        ] {
            if n > 0 {
                parts.push(format!("{n} {}", if n == 1 { one } else { many }));
            }
        }
        if parts.is_empty() {
            parts.push("nothing".into());
        }
        f.write_str(&parts.join(", "))
    }
}

/// Why a write failed.
#[derive(Debug, thiserror::Error)]
pub enum WriteError {
    /// The driver failed (server unreachable, connection lost, command
    /// refused); shown by its kind, without the driver's debugging fields.
    #[error("{}", .0.kind)]
    Driver(mongodb::error::Error),
    /// The server answered but refused some documents.
    #[error("the server refused writes to `{collection}`: {message}")]
    Refused {
        /// The collection.
        collection: &'static str,
        /// The server's message.
        message: String,
    },
    /// The writer's runtime could not start, or its thread died.
    #[error("the MongoDB writer stopped: {0}")]
    Writer(String),
}

impl WriteError {
    /// Whether the network cut the command off (worth sending once more).
    fn is_network(&self) -> bool {
        match self {
            WriteError::Driver(e) => matches!(
                *e.kind,
                ErrorKind::Io(_) | ErrorKind::ConnectionPoolCleared { .. }
            ),
            _ => false,
        }
    }
}

impl From<mongodb::error::Error> for WriteError {
    fn from(e: mongodb::error::Error) -> Self {
        WriteError::Driver(e)
    }
}

/// The failure that stopped the writer and what it left unwritten.
#[derive(Debug)]
pub struct WriteFailure {
    /// The first error.
    pub error: WriteError,
    /// Documents of the failed message and of every later one.
    pub not_written: Counts,
}

/// What the writer did.
#[derive(Debug, Default)]
pub struct WriteReport {
    /// Documents written.
    pub written: Counts,
    /// Set when a write failed.
    pub failure: Option<WriteFailure>,
}

/// The handle of a writer thread.
pub struct Writer {
    sender: Option<mpsc::Sender<Message>>,
    thread: Option<JoinHandle<WriteReport>>,
    /// Documents handed to the thread.
    sent: Counts,
    /// Documents that could not be handed over (the thread is gone).
    unsent: Counts,
}

impl Writer {
    /// Starts a writer to the database `database` of a server; nothing is
    /// sent to the server until the first message.
    pub fn start(options: ClientOptions, database: String, batch_size: usize) -> Self {
        let (sender, receiver) = mpsc::channel::<Message>();
        let thread = std::thread::Builder::new()
            .name("finkg-mongodb".into())
            .spawn(move || run(options, database, batch_size.max(1), receiver));
        // without a thread, messages go nowhere and finish reports them
        let thread = thread.ok();
        Self {
            sender: thread.is_some().then_some(sender),
            thread,
            sent: Counts::default(),
            unsent: Counts::default(),
        }
    }

    /// Queues a message; never blocks on the server.
    pub fn send(&mut self, message: Message) {
        let counts = message.counts();
        match self.sender.as_ref().map(|s| s.send(message)) {
            Some(Ok(())) => self.sent.add_all(counts),
            Some(Err(_)) | None => self.unsent.add_all(counts),
        }
    }

    /// Waits until every queued message is written (or given up) and says
    /// what was written.
    pub fn finish(mut self) -> WriteReport {
        drop(self.sender.take());
        let stopped = || WriteError::Writer("its thread could not start or panicked".into());
        match self.thread.take().map(JoinHandle::join) {
            Some(Ok(mut report)) => {
                if !self.unsent.is_empty() {
                    report
                        .failure
                        .get_or_insert_with(|| WriteFailure {
                            error: stopped(),
                            not_written: Counts::default(),
                        })
                        .not_written
                        .add_all(self.unsent);
                }
                report
            }
            Some(Err(_)) | None => {
                let mut not_written = self.sent;
                not_written.add_all(self.unsent);
                WriteReport {
                    written: Counts::default(),
                    failure: Some(WriteFailure {
                        error: stopped(),
                        not_written,
                    }),
                }
            }
        }
    }
}

fn run(
    options: ClientOptions,
    database: String,
    batch_size: usize,
    receiver: mpsc::Receiver<Message>,
) -> WriteReport {
    let mut report = WriteReport::default();
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            let mut not_written = Counts::default();
            receiver
                .iter()
                .for_each(|m| not_written.add_all(m.counts()));
            report.failure = Some(WriteFailure {
                error: WriteError::Writer(e.to_string()),
                not_written,
            });
            return report;
        }
    };
    let mut session = None;
    for message in receiver.iter() {
        if let Some(failure) = &mut report.failure {
            failure.not_written.add_all(message.counts());
            continue;
        }
        let mut left = message.counts();
        let result = runtime.block_on(async {
            if session.is_none() {
                session = Some(Session::open(options.clone(), &database).await?);
            }
            let session = session.as_mut().expect("opened above");
            session
                .write(message, batch_size, &mut report.written, &mut left)
                .await
        });
        if let Err(error) = result {
            report.failure = Some(WriteFailure {
                error,
                not_written: left,
            });
        }
    }
    if let Some(session) = session {
        runtime.block_on(async { session.client.shutdown().immediate(true).await });
    }
    report
}

/// A connected client with its indexes made.
struct Session {
    client: Client,
    db: Database,
    triples_indexed: bool,
}

impl Session {
    async fn open(options: ClientOptions, database: &str) -> Result<Self, WriteError> {
        let client = Client::with_options(options)?;
        let db = client.database(database);
        for (collection, keys, unique) in [
            (Collection::Runs, Collection::Runs.key(), true),
            (Collection::Turns, Collection::Turns.key(), true),
            (Collection::Turns, &["run_id", "correct"][..], false),
            (
                Collection::Conversations,
                Collection::Conversations.key(),
                true,
            ),
            (
                Collection::LlmExchanges,
                Collection::LlmExchanges.key(),
                true,
            ),
        ] {
            create_index(&db, collection, keys, unique).await?;
        }
        Ok(Self {
            client,
            db,
            triples_indexed: false,
        })
    }

    async fn write(
        &mut self,
        message: Message,
        batch_size: usize,
        written: &mut Counts,
        left: &mut Counts,
    ) -> Result<(), WriteError> {
        match message {
            Message::Upsert(docs) => {
                let mut rest = docs.as_slice();
                while let Some((collection, _)) = rest.first() {
                    let run = rest.iter().take_while(|(c, _)| c == collection).count();
                    let (same, after) = rest.split_at(run);
                    for chunk in chunks(same, batch_size) {
                        match self.upsert(*collection, chunk).await {
                            Err(e) if e.is_network() => {
                                tokio::time::sleep(RETRY_PAUSE).await;
                                self.upsert(*collection, chunk).await?;
                            }
                            other => other?,
                        }
                        written.add(*collection, chunk.len());
                        left.remove(*collection, chunk.len());
                    }
                    rest = after;
                }
                Ok(())
            }
            Message::Graph { graph, quads } => {
                if !self.triples_indexed {
                    let key = Collection::Triples.key();
                    create_index(&self.db, Collection::Triples, key, true).await?;
                    self.triples_indexed = true;
                }
                match self.replace_graph(&graph, &quads).await {
                    Err(e) if e.is_network() => {
                        tokio::time::sleep(RETRY_PAUSE).await;
                        self.replace_graph(&graph, &quads).await?;
                    }
                    other => other?,
                }
                written.add(Collection::Triples, quads.len());
                left.remove(Collection::Triples, quads.len());
                Ok(())
            }
        }
    }

    /// Deletes a graph's quads, then inserts its new ones.
    async fn replace_graph(&self, graph: &str, quads: &[Document]) -> Result<(), WriteError> {
        let triples = self.db.collection::<Document>(Collection::Triples.name());
        triples.delete_many(doc! {"g": graph}).await?;
        if !quads.is_empty() {
            triples.insert_many(quads).await?;
        }
        Ok(())
    }

    async fn upsert(
        &self,
        collection: Collection,
        docs: &[(Collection, Document)],
    ) -> Result<(), WriteError> {
        let updates: Vec<Document> = docs
            .iter()
            .map(|(c, d)| doc! {"q": key_filter(*c, d), "u": d.clone(), "upsert": true})
            .collect();
        let reply = self
            .db
            .run_command(doc! {"update": collection.name(), "updates": updates, "ordered": true})
            .await?;
        let refused = |message: String| WriteError::Refused {
            collection: collection.name(),
            message,
        };
        if let Ok(errors) = reply.get_array("writeErrors") {
            if let Some(first) = errors.first() {
                let message = first
                    .as_document()
                    .and_then(|d| d.get_str("errmsg").ok())
                    .unwrap_or("no message");
                return Err(refused(format!(
                    "{} of {} documents refused, the first: {message}",
                    errors.len(),
                    docs.len()
                )));
            }
        }
        if let Ok(concern) = reply.get_document("writeConcernError") {
            let message = concern.get_str("errmsg").unwrap_or("no message");
            return Err(refused(format!("write concern error: {message}")));
        }
        Ok(())
    }
}

async fn create_index(
    db: &Database,
    collection: Collection,
    keys: &[&str],
    unique: bool,
) -> Result<(), WriteError> {
    let keys: Document = keys
        .iter()
        .map(|k| (k.to_string(), Bson::Int32(1)))
        .collect();
    let model = IndexModel::builder()
        .keys(keys)
        .options(
            IndexOptions::builder()
                .unique(unique.then_some(true))
                .build(),
        )
        .build();
    db.collection::<Document>(collection.name())
        .create_index(model)
        .await?;
    Ok(())
}

/// Consecutive slices of at most `count` documents and about
/// [`MAX_COMMAND_BYTES`] bytes (a single larger document gets a slice alone).
fn chunks(docs: &[(Collection, Document)], count: usize) -> Vec<&[(Collection, Document)]> {
    let mut out = Vec::new();
    let (mut start, mut bytes) = (0, 0);
    for (i, (_, d)) in docs.iter().enumerate() {
        let size = d.to_vec().map_or(0, |v| v.len());
        if i > start && (i - start == count || bytes + size > MAX_COMMAND_BYTES) {
            out.push(&docs[start..i]);
            (start, bytes) = (i, 0);
        }
        bytes += size;
    }
    if start < docs.len() {
        out.push(&docs[start..]);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunks_split_by_count() {
        let docs: Vec<(Collection, Document)> = (0..7)
            .map(|i| (Collection::Turns, doc! {"turn": i}))
            .collect();
        let sizes: Vec<usize> = chunks(&docs, 3).iter().map(|c| c.len()).collect();
        assert_eq!(sizes, [3, 3, 1]);
        assert_eq!(chunks(&docs, 10).len(), 1);
        assert!(chunks(&[], 3).is_empty());
    }

    #[test]
    fn chunks_split_by_size() {
        let big = "x".repeat(3 * 1024 * 1024);
        let docs: Vec<(Collection, Document)> = (0..5)
            .map(|_| (Collection::Turns, doc! {"big": &big}))
            .collect();
        let sizes: Vec<usize> = chunks(&docs, 100).iter().map(|c| c.len()).collect();
        assert_eq!(sizes, [2, 2, 1]);
    }

    #[test]
    fn counts_say_what_is_missing() {
        let mut c = Counts::default();
        assert_eq!(c.to_string(), "nothing");
        c.add(Collection::Runs, 2);
        c.add(Collection::Conversations, 1);
        c.add(Collection::Turns, 12);
        assert_eq!(c.to_string(), "the run document, 1 conversation, 12 turns");
    }
}

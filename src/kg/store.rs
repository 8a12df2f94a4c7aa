//! The store seam: load a conversation's graph, run a guarded query, export.
//!
//! Today the embedded in-memory Oxigraph store stands behind it; a SPARQL 1.1
//! protocol endpoint could take its place because nothing outside this file
//! touches Oxigraph's store API. Queries enter only as [`GuardedQuery`], so
//! nothing unchecked ever reaches the engine.

use super::abox::{build_abox, each_abox_quad, GraphStats};
use super::guard::{GuardedQuery, QueryForm};
use super::watchdog::{Stop, Watch, QUERY_MEMORY_LIMIT};
use crate::dataset::Conversation;
use crate::ontology;
use crate::vocab;
use oxigraph::io::WriterQuadSerializer;
use oxigraph::io::{RdfFormat, RdfSerializer};
use oxigraph::model::{GraphNameRef, NamedNode, QuadRef, Term, VariableRef};
use oxigraph::sparql::{QueryResults, SparqlEvaluator};
use oxigraph::store::Store;
use std::collections::HashSet;
use std::io::Write;
use std::sync::OnceLock;
use std::time::Duration;

/// The variable [`KgStore::query_page`] binds to the page's named graph.
pub const PAGE: VariableRef<'static> = VariableRef::new_unchecked("page");

/// Most rows a query may return before it is refused.
pub const MAX_ROWS: usize = 10_000;
/// Longest a query may run.
pub const QUERY_TIME_LIMIT: Duration = Duration::from_secs(5);

/// Errors of the store seam.
#[derive(Debug, thiserror::Error)]
pub enum KgError {
    /// The store itself failed.
    #[error("graph store error")]
    Storage(#[from] oxigraph::store::StorageError),
    /// The TBox did not load.
    #[error("ontology error")]
    Ontology(#[from] ontology::OntologyError),
    /// A query failed while it ran.
    #[error("query failed")]
    Evaluation(#[from] oxigraph::sparql::QueryEvaluationError),
    /// A query returned more rows than allowed.
    #[error("query returned more than {max} rows")]
    TooManyRows {
        /// The limit.
        max: usize,
    },
    /// A query ran longer than allowed and was cancelled.
    #[error("query stopped: it ran longer than the limit of {} s", limit.as_secs_f64())]
    Timeout {
        /// The limit.
        limit: Duration,
    },
    /// A query was cancelled at a deadline set for the work around it (a
    /// turn's time limit).
    #[error("query stopped at the turn's time limit")]
    Deadline,
    /// A query grew the process's memory past the limit and was cancelled.
    #[error("query stopped: it used more than {} MiB of memory", limit >> 20)]
    Memory {
        /// The limit in bytes.
        limit: u64,
    },
    /// The guard refused a query.
    #[error("query refused")]
    Guard(#[from] super::guard::GuardError),
    /// Writing an export failed.
    #[error("could not write the graph")]
    Write(#[from] std::io::Error),
    /// Two conversations of one export share an id, so their pages would
    /// share IRIs.
    #[error("conversation id `{id}` appears more than once")]
    DuplicateId {
        /// The id.
        id: String,
    },
}

/// The answer of a guarded query.
#[derive(Debug, Clone, PartialEq)]
pub enum QueryOutput {
    /// SELECT results: the projected variables and one row a solution.
    Solutions {
        /// Projected variable names, without `?`.
        variables: Vec<String>,
        /// One entry a solution, aligned with `variables`.
        rows: Vec<Vec<Option<Term>>>,
    },
    /// ASK result.
    Boolean(bool),
}

/// RDF serialisations [`KgStore::export`] can write.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExportFormat {
    /// Turtle (TBox and ABox merged into one graph).
    Turtle,
    /// N-Triples (TBox and ABox merged into one graph).
    NTriples,
    /// N-Quads (TBox and ABox each in its named graph).
    NQuads,
}

/// One conversation's knowledge graph: the TBox and the page's ABox.
///
/// Queries answer as over one in-memory store holding both, but the TBox is
/// not copied into every page: a query that cannot reach the TBox
/// ([`super::reach`]: every planner query and the `Schema`'s) runs on a
/// store of the page's ABox alone; any other on a store of the TBox and the
/// ABox, built the first time one comes.
pub struct KgStore {
    /// The page's ABox, or for [`KgStore::tbox`] the TBox.
    store: Store,
    /// The TBox and the ABox together, built on first need.
    full: OnceLock<Store>,
    /// `store` already holds the TBox.
    with_tbox: bool,
    graph: NamedNode,
    stats: GraphStats,
}

impl KgStore {
    /// Builds the graph of a conversation's page, with the TBox beside it.
    pub fn build(conversation: &Conversation) -> Result<Self, KgError> {
        ontology::tbox()?;
        let store = Store::new()?;
        let mut transaction = store.start_transaction()?;
        let (graph, stats) = each_abox_quad(&conversation.id, &conversation.document, |quad| {
            transaction.insert(quad)
        });
        transaction.commit()?;
        Ok(Self {
            store,
            full: OnceLock::new(),
            with_tbox: false,
            graph,
            stats,
        })
    }

    /// The TBox alone, loaded once: its graph is the TBox graph.
    pub fn tbox() -> Result<&'static KgStore, KgError> {
        static TBOX: OnceLock<Result<KgStore, String>> = OnceLock::new();
        let tbox = ontology::tbox()?;
        TBOX.get_or_init(|| {
            let store = Store::new().map_err(|e| e.to_string())?;
            store
                .extend(tbox.quads().iter().cloned())
                .map_err(|e| e.to_string())?;
            Ok(KgStore {
                store,
                full: OnceLock::new(),
                with_tbox: true,
                graph: NamedNode::new_unchecked(vocab::TBOX_GRAPH),
                stats: GraphStats::default(),
            })
        })
        .as_ref()
        .map_err(|e| KgError::Storage(oxigraph::store::StorageError::Other(e.clone().into())))
    }

    /// The store holding the TBox and the page: the page's quads read back
    /// (the store returns them newest first) and inserted after the TBox's,
    /// in the order `build` inserted them.
    fn full(&self) -> Result<&Store, KgError> {
        if self.with_tbox {
            return Ok(&self.store);
        }
        if let Some(full) = self.full.get() {
            return Ok(full);
        }
        let mut page = self.store.iter().collect::<Result<Vec<_>, _>>()?;
        page.reverse();
        let full = Store::new()?;
        full.extend(ontology::tbox()?.quads().iter().cloned().chain(page))?;
        Ok(self.full.get_or_init(|| full))
    }

    /// The store a query runs on: the page alone when it cannot reach the TBox.
    fn store_for(&self, query: &GuardedQuery) -> Result<&Store, KgError> {
        if self.with_tbox || !super::reach::reaches_tbox(query.query(), ontology::tbox()?) {
            Ok(&self.store)
        } else {
            self.full()
        }
    }

    /// The named graph holding the page's ABox.
    pub fn graph(&self) -> &NamedNode {
        &self.graph
    }

    /// What the page's graph holds.
    pub fn stats(&self) -> GraphStats {
        self.stats
    }

    /// Runs a guarded query with the row, time and memory limits: the
    /// query is cancelled in flight when its time ([`QUERY_TIME_LIMIT`], or
    /// an earlier deadline set with [`super::watchdog::with_deadline`]) or
    /// its memory ([`super::watchdog::QUERY_MEMORY_LIMIT`]) runs out.
    pub fn query(&self, query: &GuardedQuery) -> Result<QueryOutput, KgError> {
        self.run(query, None)
    }

    /// [`KgStore::query`] with the variable `?page` bound to the page's
    /// named graph before it runs: a query written once for every page
    /// (`GRAPH ?page { … }`) is parsed once, not once a page. The query
    /// must project `?page` (the engine binds only a projected variable).
    pub fn query_page(&self, query: &GuardedQuery) -> Result<QueryOutput, KgError> {
        self.run(query, Some(&self.graph))
    }

    fn run(&self, query: &GuardedQuery, page: Option<&NamedNode>) -> Result<QueryOutput, KgError> {
        let watch = Watch::start(QUERY_TIME_LIMIT);
        let stopped =
            |watch: &Watch, e: oxigraph::sparql::QueryEvaluationError| match watch.stopped() {
                Some(Stop::Time) => KgError::Timeout {
                    limit: QUERY_TIME_LIMIT,
                },
                Some(Stop::Deadline) => KgError::Deadline,
                Some(Stop::Memory) => KgError::Memory {
                    limit: QUERY_MEMORY_LIMIT,
                },
                None => KgError::Evaluation(e),
            };
        let mut prepared = SparqlEvaluator::new()
            .with_cancellation_token(watch.token())
            .for_query(query.query().clone());
        if let Some(page) = page {
            prepared = prepared.substitute_variable(PAGE.into_owned(), page.clone());
        }
        let results = prepared
            .on_store(self.store_for(query)?)
            .execute()
            .map_err(|e| stopped(&watch, e))?;
        match results {
            QueryResults::Boolean(b) => Ok(QueryOutput::Boolean(b)),
            QueryResults::Solutions(solutions) => {
                let variables: Vec<String> = solutions
                    .variables()
                    .iter()
                    .map(|v| v.as_str().to_string())
                    .collect();
                let mut rows = Vec::new();
                for solution in solutions {
                    let solution = solution.map_err(|e| stopped(&watch, e))?;
                    if rows.len() == MAX_ROWS {
                        return Err(KgError::TooManyRows { max: MAX_ROWS });
                    }
                    rows.push(
                        variables
                            .iter()
                            .map(|v| solution.get(v.as_str()).cloned())
                            .collect(),
                    );
                }
                Ok(QueryOutput::Solutions { variables, rows })
            }
            QueryResults::Graph(_) => match query.form() {
                // the guard admits only SELECT and ASK
                QueryForm::Select | QueryForm::Ask => Ok(QueryOutput::Boolean(false)),
            },
        }
    }

    /// Writes the TBox and the page's ABox.
    pub fn export(&self, format: ExportFormat, writer: impl Write) -> Result<(), KgError> {
        let mut out = Exporter::new(format, writer)?;
        let tbox = NamedNode::new_unchecked(vocab::TBOX_GRAPH);
        let store = self.full()?;
        for graph in [&tbox, &self.graph] {
            for quad in store.quads_for_pattern(
                None,
                None,
                None,
                Some(GraphNameRef::NamedNode(graph.as_ref())),
            ) {
                out.write(quad?.as_ref())?;
            }
        }
        out.finish()
    }
}

/// What [`export_pages`] wrote.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ExportStats {
    /// Pages written, each in its own named graph.
    pub pages: usize,
    /// Quads written, the TBox's included.
    pub quads: usize,
}

/// Writes the TBox once, then the ABox of every conversation's page: in
/// N-Quads each page keeps its own named graph beside the TBox graph, as
/// [`KgStore::export`] writes one page; Turtle and N-Triples merge them all
/// into one graph (page IRIs differ, so nothing collides). Each graph is read
/// back from a store, as [`KgStore::export`] does, so literals come out in
/// the same (canonical) form. Conversation ids must be distinct.
pub fn export_pages<'a>(
    conversations: impl IntoIterator<Item = &'a Conversation>,
    format: ExportFormat,
    writer: impl Write,
) -> Result<ExportStats, KgError> {
    let mut out = Exporter::new(format, writer)?;
    let mut stats = ExportStats::default();
    let tbox = NamedNode::new_unchecked(vocab::TBOX_GRAPH);
    stats.quads += write_graph(&mut out, &tbox, ontology::tbox()?.quads().iter().cloned())?;
    let mut seen = HashSet::new();
    for conversation in conversations {
        if !seen.insert(conversation.id.as_str()) {
            return Err(KgError::DuplicateId {
                id: conversation.id.clone(),
            });
        }
        let (graph, quads, _) = build_abox(&conversation.id, &conversation.document);
        stats.quads += write_graph(&mut out, &graph, quads)?;
        stats.pages += 1;
    }
    out.finish()?;
    Ok(stats)
}

/// Loads one graph's quads into a store of their own and writes them back.
fn write_graph<W: Write>(
    out: &mut Exporter<W>,
    graph: &NamedNode,
    quads: impl IntoIterator<Item = oxigraph::model::Quad>,
) -> Result<usize, KgError> {
    let store = Store::new()?;
    store.extend(quads)?;
    let mut written = 0;
    for quad in store.quads_for_pattern(
        None,
        None,
        None,
        Some(GraphNameRef::NamedNode(graph.as_ref())),
    ) {
        out.write(quad?.as_ref())?;
        written += 1;
    }
    Ok(written)
}

/// One serializer for a whole export: quads keep their graph in N-Quads,
/// become triples of one graph otherwise.
struct Exporter<W: Write> {
    out: WriterQuadSerializer<W>,
    quads: bool,
}

impl<W: Write> Exporter<W> {
    fn new(format: ExportFormat, writer: W) -> Result<Self, KgError> {
        let rdf_format = match format {
            ExportFormat::Turtle => RdfFormat::Turtle,
            ExportFormat::NTriples => RdfFormat::NTriples,
            ExportFormat::NQuads => RdfFormat::NQuads,
        };
        let mut serializer = RdfSerializer::from_format(rdf_format);
        if format == ExportFormat::Turtle {
            for (prefix, iri) in vocab::PREFIXES {
                serializer = serializer
                    .with_prefix(prefix, iri)
                    .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidInput, e))?;
            }
        }
        Ok(Self {
            out: serializer.for_writer(writer),
            quads: format == ExportFormat::NQuads,
        })
    }

    fn write(&mut self, quad: QuadRef<'_>) -> Result<(), KgError> {
        if self.quads {
            self.out.serialize_quad(quad)?;
        } else {
            self.out.serialize_triple(quad)?;
        }
        Ok(())
    }

    fn finish(self) -> Result<(), KgError> {
        self.out.finish()?;
        Ok(())
    }
}

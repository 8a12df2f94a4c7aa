//! The store seam: load a conversation's graph, run a guarded query, export.
//!
//! Two stores stand behind it, chosen by [`PageSource`]: the embedded
//! in-memory Oxigraph store (the default: each page's graph built from the
//! dataset and thrown away after the conversation), and a SPARQL 1.1
//! Protocol endpoint that already holds every page's graph
//! ([`super::remote`], loaded by `finkg load`). Callers see one type,
//! [`KgStore`], with the same calls and the same limits either way; nothing
//! outside this file touches Oxigraph's store API or the endpoint's queries.
//! Queries enter only as [`GuardedQuery`], so nothing unchecked ever
//! reaches either engine.

use super::abox::{build_abox, each_abox_quad, GraphStats};
use super::guard::{GuardedQuery, QueryForm};
use super::remote::{RemoteAnswer, RemoteError, RemoteStore, EMPTY_GRAPH};
use super::watchdog::{Stop, Watch, QUERY_MEMORY_LIMIT};
use crate::dataset::Conversation;
use crate::ontology;
use crate::vocab;
use oxigraph::io::WriterQuadSerializer;
use oxigraph::io::{RdfFormat, RdfSerializer};
use oxigraph::model::Variable;
use oxigraph::model::{
    GraphName, GraphNameRef, NamedNode, NamedOrBlankNode, Quad, QuadRef, Term, VariableRef,
};
use oxigraph::sparql::results::{QueryResultsFormat, QueryResultsSerializer};
use oxigraph::sparql::{QueryResults, SparqlEvaluator};
use oxigraph::store::Store;
use std::collections::HashSet;
use std::io::Write;
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

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
    /// The remote store failed or refused.
    #[error("remote store error")]
    Remote(#[source] RemoteError),
    /// The remote store holds no graph for the page.
    #[error("the store holds no graph for conversation `{id}` (load it with `finkg load`)")]
    NotLoaded {
        /// The conversation's id.
        id: String,
    },
    /// The call is not available on a remote store.
    #[error("{what} is not available with a remote store")]
    NotRemote {
        /// What was asked.
        what: &'static str,
    },
    /// A request named a graph the server does not serve (`serve --store`
    /// serves the loaded pages' graphs and the TBox graph alone).
    #[error("<{graph}> is not a graph served here: name a loaded page's graph or the TBox graph")]
    NotServed {
        /// The graph named.
        graph: String,
    },
    /// A dataset file's page differs from the one the store holds.
    #[error(
        "the store's graph of conversation `{id}` was loaded from another version of its page \
         (load it again with `finkg load`)"
    )]
    Stale {
        /// The conversation's id.
        id: String,
    },
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

impl QueryOutput {
    /// Writes the results in one of the SPARQL 1.1 results formats (JSON,
    /// XML, CSV, TSV), by oxigraph's serializers.
    pub fn write(&self, out: &mut impl Write, format: QueryResultsFormat) -> std::io::Result<()> {
        match self {
            QueryOutput::Boolean(b) => {
                QueryResultsSerializer::from_format(format).serialize_boolean_to_writer(out, *b)?;
            }
            QueryOutput::Solutions { variables, rows } => {
                let vars: Vec<Variable> = variables
                    .iter()
                    .map(|v| Variable::new_unchecked(v.as_str()))
                    .collect();
                let mut ser = QueryResultsSerializer::from_format(format)
                    .serialize_solutions_to_writer(out, vars.clone())?;
                for row in rows {
                    ser.serialize(
                        vars.iter()
                            .zip(row)
                            .filter_map(|(v, t)| t.as_ref().map(|t| (v.as_ref(), t.as_ref()))),
                    )?;
                }
                ser.finish()?;
            }
        }
        Ok(())
    }
}

/// The RDF dataset a query runs over when a client names it, as the SPARQL
/// 1.1 Protocol's `default-graph-uri` and `named-graph-uri` parameters do:
/// the default graph the merge of `default`, the named graphs `named`. An
/// empty list leaves that part as the query gives it (its `FROM` or `FROM
/// NAMED`, else the store's empty default graph and every named graph).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct QueryGraphs {
    /// The graphs merged into the default graph.
    pub default: Vec<NamedNode>,
    /// The named graphs the query may see.
    pub named: Vec<NamedNode>,
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
///
/// With a remote store ([`KgStore::open`] with [`PageSource::Remote`]) the
/// graph stays in the endpoint: each query goes there with the page's
/// graph (and the TBox graph when the query can reach it) as its dataset.
pub struct KgStore {
    backend: Box<dyn PageStore>,
    graph: NamedNode,
    stats: GraphStats,
}

/// The engine behind a [`KgStore`]: what the seam asks of a store of
/// pages' graphs. Two stand behind it: the embedded Oxigraph store and a
/// SPARQL 1.1 endpoint ([`RemoteStore`]); another engine would be a third
/// implementation, nothing above this file changes.
trait PageStore: Send + Sync {
    /// Runs a guarded query with the row and time limits over the page
    /// `page` (its graph; with `bind_page`, `?page` bound to it), or over
    /// the dataset `graphs` names when it names one.
    fn run(
        &self,
        query: &GuardedQuery,
        graphs: &QueryGraphs,
        page: &NamedNode,
        bind_page: bool,
    ) -> Result<QueryOutput, KgError>;

    /// Every quad of the named graph `graph`.
    fn graph_quads(&self, graph: &NamedNode) -> Result<Vec<Quad>, KgError>;

    /// Quads the store holds, when it counts them itself.
    fn len(&self) -> Option<usize>;
}

/// A page's graph in a SPARQL endpoint.
struct RemotePage(Arc<RemoteStore>);

/// Every loaded page's graph in a SPARQL endpoint, for `serve --store`:
/// a query sees the TBox graph and every page's graph, or those of them a
/// request or the query's `FROM` names (no other graph of the endpoint).
struct RemotePages {
    remote: Arc<RemoteStore>,
    /// The pages' graphs, then the TBox graph.
    graphs: Vec<NamedNode>,
    /// `graphs`, to check a graph named.
    served: HashSet<String>,
    /// Quads of `graphs` by the load records.
    quads: usize,
}

/// The pages a remote store holds, by its load records: the store over all
/// of them ([`KgStore::open_pages`]) and each page's id and hash, by id.
pub struct RemotePagesOpened {
    /// The store: queries see every page's graph and the TBox graph.
    pub kg: KgStore,
    /// Each loaded page: its conversation id and the hash of its triples
    /// ([`super::remote::LoadPage::hash`]), sorted by id.
    pub pages: Vec<(String, String)>,
}

/// The embedded store of one page (or of every page, for `serve`).
struct Embedded {
    /// The page's ABox, or for [`KgStore::tbox`] the TBox.
    store: Store,
    /// The TBox and the ABox together, built on first need.
    full: OnceLock<Store>,
    /// `store` already holds the TBox.
    with_tbox: bool,
}

/// Where the pages' graphs come from: built from the dataset in memory
/// (the default), or read from a SPARQL endpoint that holds them.
#[derive(Clone, Default)]
pub enum PageSource {
    /// Each page's graph built in an embedded store.
    #[default]
    Build,
    /// Every page's graph already in this endpoint (`finkg load`); each
    /// query of a page goes there.
    Remote(Arc<RemoteStore>),
    /// Every page's graph in this endpoint, each fetched once (one query)
    /// into an embedded store that answers the page's queries.
    Fetch(Arc<RemoteStore>),
}

impl std::fmt::Debug for PageSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PageSource::Build => f.write_str("Build"),
            PageSource::Remote(r) => write!(f, "Remote({})", r.url()),
            PageSource::Fetch(r) => write!(f, "Fetch({})", r.url()),
        }
    }
}

impl PageSource {
    /// The endpoint the pages' graphs are read from, its URL without
    /// credentials ([`RemoteStore::shown_url`]); `None` when they are built.
    pub fn store(&self) -> Option<String> {
        match self {
            PageSource::Build => None,
            PageSource::Remote(r) | PageSource::Fetch(r) => Some(r.shown_url()),
        }
    }
}

impl Embedded {
    fn new(store: Store, with_tbox: bool) -> Embedded {
        Embedded {
            store,
            full: OnceLock::new(),
            with_tbox,
        }
    }
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
            backend: Box::new(Embedded::new(store, false)),
            graph,
            stats,
        })
    }

    /// The graph of a conversation's page from `source`: built (as
    /// [`KgStore::build`]), or the remote store's graph of that page, whose
    /// load record must be there (its counts are the [`KgStore::stats`]).
    pub fn open(conversation: &Conversation, source: &PageSource) -> Result<Self, KgError> {
        match source {
            PageSource::Build => Self::build(conversation),
            PageSource::Remote(remote) | PageSource::Fetch(remote) => {
                let page = super::abox::page_iri(&conversation.id);
                let graph = NamedNode::new_unchecked(format!("{page}/graph"));
                let limit = time_limit().ok_or(KgError::Deadline)?.0;
                let stats = remote
                    .record(graph.as_str(), limit)
                    .map_err(KgError::Remote)?
                    .ok_or_else(|| KgError::NotLoaded {
                        id: conversation.id.clone(),
                    })?;
                let backend: Box<dyn PageStore> = if let PageSource::Fetch(_) = source {
                    let limit = time_limit().ok_or(KgError::Deadline)?.0;
                    let quads = remote.graph_quads(&graph, limit).map_err(KgError::Remote)?;
                    let store = Store::new()?;
                    store.extend(quads)?;
                    Box::new(Embedded::new(store, false))
                } else {
                    Box::new(RemotePage(remote.clone()))
                };
                Ok(Self {
                    backend,
                    graph,
                    stats,
                })
            }
        }
    }

    /// The TBox and every conversation's page in one store, each page in its
    /// own named graph (as [`KgStore::build`] names it) and the TBox in the
    /// TBox graph: what `finkg serve` answers queries over. Its
    /// [`KgStore::graph`] is the TBox graph and its [`KgStore::stats`] the
    /// pages' summed. Conversation ids must be distinct.
    pub fn build_pages<'a>(
        conversations: impl IntoIterator<Item = &'a Conversation>,
    ) -> Result<Self, KgError> {
        let store = Store::new()?;
        store.extend(ontology::tbox()?.quads().iter().cloned())?;
        let mut stats = GraphStats::default();
        let mut seen = HashSet::new();
        for conversation in conversations {
            if !seen.insert(conversation.id.as_str()) {
                return Err(KgError::DuplicateId {
                    id: conversation.id.clone(),
                });
            }
            let (_, quads, page) = build_abox(&conversation.id, &conversation.document);
            store.extend(quads)?;
            stats.triples += page.triples;
            stats.observations += page.observations;
            stats.sentences += page.sentences;
            stats.text_facts += page.text_facts;
        }
        Ok(Self {
            backend: Box::new(Embedded::new(store, true)),
            graph: NamedNode::new_unchecked(vocab::TBOX_GRAPH),
            stats,
        })
    }

    /// Every page a SPARQL endpoint holds, by the load records `finkg load`
    /// wrote, behind one store (as [`KgStore::build_pages`] builds them in
    /// memory, for `serve --store`): a query runs at the endpoint over
    /// every loaded page's graph and the TBox graph, or the ones a request
    /// names. Its [`KgStore::stats`] are the pages' records summed.
    pub fn open_pages(remote: Arc<RemoteStore>) -> Result<RemotePagesOpened, KgError> {
        let records = remote.records().map_err(KgError::Remote)?;
        let mut stats = GraphStats::default();
        let mut pages = Vec::new();
        let mut quads = 0;
        let tbox = records.get(vocab::TBOX_GRAPH);
        if let Some((_, s)) = tbox {
            quads += s.triples;
        }
        for (graph, (hash, s)) in &records {
            if let Some(id) = super::abox::page_id(graph) {
                stats.triples += s.triples;
                stats.observations += s.observations;
                stats.sentences += s.sentences;
                stats.text_facts += s.text_facts;
                quads += s.triples;
                pages.push((id, hash.clone()));
            }
        }
        pages.sort();
        let mut graphs: Vec<NamedNode> = pages
            .iter()
            .map(|(id, _)| NamedNode::new_unchecked(format!("{}/graph", super::abox::page_iri(id))))
            .collect();
        graphs.push(NamedNode::new_unchecked(vocab::TBOX_GRAPH));
        let served = graphs.iter().map(|g| g.as_str().to_string()).collect();
        Ok(RemotePagesOpened {
            kg: KgStore {
                backend: Box::new(RemotePages {
                    remote,
                    graphs,
                    served,
                    quads,
                }),
                graph: NamedNode::new_unchecked(vocab::TBOX_GRAPH),
                stats,
            },
            pages,
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
                backend: Box::new(Embedded::new(store, true)),
                graph: NamedNode::new_unchecked(vocab::TBOX_GRAPH),
                stats: GraphStats::default(),
            })
        })
        .as_ref()
        .map_err(|e| KgError::Storage(oxigraph::store::StorageError::Other(e.clone().into())))
    }
}

impl Embedded {
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
}

impl KgStore {
    /// The named graph holding the page's ABox.
    pub fn graph(&self) -> &NamedNode {
        &self.graph
    }

    /// Quads in the store (for [`KgStore::build_pages`], the TBox's and
    /// every page's).
    pub fn len(&self) -> usize {
        self.backend.len().unwrap_or(self.stats.triples)
    }

    /// The store holds no quad.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
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
        self.run(query, &QueryGraphs::default(), None)
    }

    /// [`KgStore::query`] with the variable `?page` bound to the page's
    /// named graph before it runs: a query written once for every page
    /// (`GRAPH ?page { … }`) is parsed once, not once a page. The query
    /// must project `?page` (the engine binds only a projected variable).
    pub fn query_page(&self, query: &GuardedQuery) -> Result<QueryOutput, KgError> {
        self.run(query, &QueryGraphs::default(), Some(&self.graph))
    }

    /// [`KgStore::query`] over the dataset `graphs` names (the SPARQL
    /// Protocol's `default-graph-uri` and `named-graph-uri`), with the same
    /// limits.
    pub fn query_over(
        &self,
        query: &GuardedQuery,
        graphs: &QueryGraphs,
    ) -> Result<QueryOutput, KgError> {
        self.run(query, graphs, None)
    }

    fn run(
        &self,
        query: &GuardedQuery,
        graphs: &QueryGraphs,
        page: Option<&NamedNode>,
    ) -> Result<QueryOutput, KgError> {
        self.backend.run(query, graphs, &self.graph, page.is_some())
    }
}

impl PageStore for RemotePage {
    /// A query at the endpoint over the page's graph (and the TBox graph
    /// when the query can reach it), or over the graphs `graphs` names; the
    /// default graph an empty one, as the embedded store's is. `?page`
    /// needs no binding: the page's graph is the only named graph (a
    /// page-bound query that also reaches the TBox would see the TBox graph
    /// as a second `?page`; the `Schema`'s queries never reach it).
    fn run(
        &self,
        query: &GuardedQuery,
        graphs: &QueryGraphs,
        page: &NamedNode,
        _bind_page: bool,
    ) -> Result<QueryOutput, KgError> {
        let (limit, by_deadline) = time_limit().ok_or(KgError::Deadline)?;
        let mut default: Vec<&str> = graphs.default.iter().map(|g| g.as_str()).collect();
        let mut named: Vec<&str> = graphs.named.iter().map(|g| g.as_str()).collect();
        if graphs == &QueryGraphs::default() {
            default.push(EMPTY_GRAPH);
            named.push(page.as_str());
            if super::reach::reaches_tbox(query.query(), ontology::tbox()?) {
                named.push(vocab::TBOX_GRAPH);
            }
        }
        let answer = self
            .0
            .select(query.text(), &default, &named, limit, MAX_ROWS);
        remote_output(answer, by_deadline)
    }

    fn graph_quads(&self, graph: &NamedNode) -> Result<Vec<Quad>, KgError> {
        let limit = time_limit().ok_or(KgError::Deadline)?.0;
        self.0.graph_quads(graph, limit).map_err(KgError::Remote)
    }

    fn len(&self) -> Option<usize> {
        None
    }
}

/// A remote store's answer as the embedded store's, its errors as the
/// embedded store's when they mean the same (rows, time).
fn remote_output(
    answer: Result<RemoteAnswer, RemoteError>,
    by_deadline: bool,
) -> Result<QueryOutput, KgError> {
    match answer {
        Ok(RemoteAnswer::Boolean(b)) => Ok(QueryOutput::Boolean(b)),
        Ok(RemoteAnswer::Solutions(variables, rows)) => {
            Ok(QueryOutput::Solutions { variables, rows })
        }
        Err(RemoteError::TooManyRows { max }) => Err(KgError::TooManyRows { max }),
        Err(RemoteError::Timeout { .. }) if by_deadline => Err(KgError::Deadline),
        Err(RemoteError::Timeout { .. }) => Err(KgError::Timeout {
            limit: QUERY_TIME_LIMIT,
        }),
        Err(e) => Err(KgError::Remote(e)),
    }
}

impl PageStore for RemotePages {
    /// A query at the endpoint over the dataset the request names, else
    /// the one its own `FROM` and `FROM NAMED` name, else the empty default
    /// graph and every served graph as the named graphs (as the embedded
    /// store of every page answers); a graph named that is not served is
    /// refused.
    fn run(
        &self,
        query: &GuardedQuery,
        graphs: &QueryGraphs,
        _page: &NamedNode,
        _bind_page: bool,
    ) -> Result<QueryOutput, KgError> {
        let (limit, by_deadline) = time_limit().ok_or(KgError::Deadline)?;
        let own = query.query().dataset();
        let names = |list: &[NamedNode]| -> Vec<String> {
            list.iter().map(|g| g.as_str().to_string()).collect()
        };
        let mut default = if !graphs.default.is_empty() {
            names(&graphs.default)
        } else if let Some(own) = own {
            names(&own.default)
        } else {
            Vec::new()
        };
        let mut named = if !graphs.named.is_empty() {
            names(&graphs.named)
        } else if let Some(own) = own {
            own.named.as_deref().map(names).unwrap_or_default()
        } else {
            names(&self.graphs)
        };
        for graph in default.iter().chain(&named) {
            if graph != EMPTY_GRAPH && !self.served.contains(graph) {
                return Err(KgError::NotServed {
                    graph: graph.clone(),
                });
            }
        }
        // an empty list sent would let the endpoint choose: an empty graph
        // in its place holds nothing, as asked
        for list in [&mut default, &mut named] {
            if list.is_empty() {
                list.push(EMPTY_GRAPH.to_string());
            }
        }
        // the dataset goes as the query's FROM and FROM NAMED, not as
        // protocol parameters: Virtuoso echoes each parameter as a response
        // header, and hundreds of pages pass any client's header limit
        let iris = |list: &[String]| -> Vec<NamedNode> {
            list.iter().map(NamedNode::new_unchecked).collect()
        };
        let dataset = spargebra::algebra::QueryDataset {
            default: iris(&default),
            named: Some(iris(&named)),
        };
        let mut rewritten = query.query().clone();
        match &mut rewritten {
            spargebra::Query::Select { dataset: d, .. }
            | spargebra::Query::Ask { dataset: d, .. }
            | spargebra::Query::Construct { dataset: d, .. }
            | spargebra::Query::Describe { dataset: d, .. } => *d = Some(dataset),
        }
        let answer = self
            .remote
            .select(&rewritten.to_string(), &[], &[], limit, MAX_ROWS);
        remote_output(answer, by_deadline)
    }

    fn graph_quads(&self, graph: &NamedNode) -> Result<Vec<Quad>, KgError> {
        if !self.served.contains(graph.as_str()) {
            return Err(KgError::NotServed {
                graph: graph.as_str().to_string(),
            });
        }
        let limit = time_limit().ok_or(KgError::Deadline)?.0;
        self.remote
            .graph_quads(graph, limit)
            .map_err(KgError::Remote)
    }

    fn len(&self) -> Option<usize> {
        Some(self.quads)
    }
}

/// The time a query may take: [`QUERY_TIME_LIMIT`], or what is left before
/// the thread's deadline ([`super::watchdog::with_deadline`]) when that is
/// sooner (then `true`); `None` when the deadline has passed.
fn time_limit() -> Option<(Duration, bool)> {
    match super::watchdog::current_deadline() {
        Some(deadline) => {
            let left = deadline.checked_duration_since(Instant::now())?;
            if left < QUERY_TIME_LIMIT {
                Some((left, true))
            } else {
                Some((QUERY_TIME_LIMIT, false))
            }
        }
        None => Some((QUERY_TIME_LIMIT, false)),
    }
}

impl PageStore for Embedded {
    fn graph_quads(&self, graph: &NamedNode) -> Result<Vec<Quad>, KgError> {
        let quads = self.full()?.quads_for_pattern(
            None,
            None,
            None,
            Some(GraphNameRef::NamedNode(graph.as_ref())),
        );
        Ok(quads.collect::<Result<_, _>>()?)
    }

    fn len(&self) -> Option<usize> {
        Some(self.store.len().unwrap_or(0))
    }

    fn run(
        &self,
        query: &GuardedQuery,
        graphs: &QueryGraphs,
        page: &NamedNode,
        bind_page: bool,
    ) -> Result<QueryOutput, KgError> {
        let page = bind_page.then_some(page);
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
        if !graphs.default.is_empty() {
            let default = graphs.default.iter().cloned().map(GraphName::from);
            prepared.dataset_mut().set_default_graph(default.collect());
        }
        if !graphs.named.is_empty() {
            let named = graphs.named.iter().cloned().map(NamedOrBlankNode::from);
            prepared
                .dataset_mut()
                .set_available_named_graphs(named.collect());
        }
        // a named dataset may name the TBox graph: the page's store alone
        // would not hold it
        let store = if graphs == &QueryGraphs::default() {
            self.store_for(query)?
        } else {
            self.full()?
        };
        let results = prepared
            .on_store(store)
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
}

impl KgStore {
    /// Writes the TBox and the page's ABox.
    pub fn export(&self, format: ExportFormat, writer: impl Write) -> Result<(), KgError> {
        let tbox = NamedNode::new_unchecked(vocab::TBOX_GRAPH);
        self.export_graphs(&[&tbox, &self.graph], format, writer)
    }

    /// Writes the page's ABox alone.
    pub fn export_page(&self, format: ExportFormat, writer: impl Write) -> Result<(), KgError> {
        self.export_graphs(&[&self.graph], format, writer)
    }

    fn export_graphs(
        &self,
        graphs: &[&NamedNode],
        format: ExportFormat,
        writer: impl Write,
    ) -> Result<(), KgError> {
        let mut out = Exporter::new(format, writer)?;
        for graph in graphs {
            for quad in self.backend.graph_quads(graph)? {
                out.write(quad.as_ref())?;
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

//! The remote store: a SPARQL 1.1 Protocol endpoint (Virtuoso, GraphDB,
//! Jena Fuseki, QLever, Amazon Neptune…) holding every page's graph, each
//! in its own named graph (`{page}/graph`, [`super::abox::page_iri`]), and
//! the TBox in the TBox graph.
//!
//! Queries go out as the SPARQL Protocol's form-encoded POST, with the
//! dataset named by `default-graph-uri` (an empty graph, as the embedded
//! store's default graph is) and `named-graph-uri` (the page's graph, and
//! the TBox graph when the query can reach it): a query written for one
//! page (`GRAPH ?g { … }`) sees that page alone, however many the store
//! holds. Each request has a connect and a total timeout (the query's time
//! limit, or the turn's deadline when earlier); connection failures and
//! HTTP 429/500/502/503/504 are retried a few times with a growing pause
//! inside that limit; nothing waits without a limit. The per-query limit is
//! also sent as `timeout` (milliseconds; Virtuoso's parameter), and
//! Virtuoso's report of a query cut short (`X-SQL-State` on a partial
//! "anytime" answer) is an error, never a partial answer.
//!
//! Answers are read into the same terms the embedded store gives, with the
//! dialect's differences made good: Virtuoso writes `xsd:boolean` as `1`
//! and `0` and answers ASK as one row of `__ASK_RETVAL`.
//!
//! Loading ([`RemoteStore::load_pages`]) replaces a page's graph (`DROP
//! SILENT GRAPH` + `INSERT DATA`, or a Graph Store Protocol `PUT` when a
//! Graph Store URL is given) and records it with the hash of its triples in
//! a graph of its own ([`LOAD_GRAPH`]); a page whose record matches is
//! skipped, so a load interrupted part way resumes where it stopped.

use super::abox::{each_abox_quad, GraphStats};
use crate::dataset::Conversation;
use crate::ontology;
use crate::vocab;
use oxigraph::model::{Literal, NamedNode, NamedOrBlankNode, Quad, Term};
use oxigraph::sparql::results::{
    QueryResultsFormat, QueryResultsParser, SliceQueryResultsParserOutput,
};
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::fmt::Write as _;
use std::io::Read;
use std::time::{Duration, Instant};

/// The graph recording what `finkg load` loaded: for each page's graph its
/// hash and counts.
pub const LOAD_GRAPH: &str = "https://w3id.org/finkg/graph/loads";
/// The namespace of the load records' properties.
const LOAD: &str = "https://w3id.org/finkg/load#";
/// A graph nothing is loaded into: the default graph of every query, as
/// the embedded store's default graph is empty.
pub const EMPTY_GRAPH: &str = "https://w3id.org/finkg/graph/empty";
/// Largest answer read from the endpoint.
const MAX_ANSWER_BYTES: u64 = 64 << 20;
/// Longest a connection may take to open.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);
/// Longest a load request (a batch of pages) may take.
pub const LOAD_TIMEOUT: Duration = Duration::from_secs(120);
/// Further attempts after a transient failure.
const RETRIES: u32 = 2;
/// The pause before the first retry; it doubles each time.
const BACKOFF: Duration = Duration::from_millis(250);

/// Errors of the remote store.
#[derive(Debug, thiserror::Error)]
pub enum RemoteError {
    /// The URL given is not an http(s) URL.
    #[error("`{url}` is not an http:// or https:// URL of a SPARQL endpoint")]
    Url {
        /// The URL.
        url: String,
    },
    /// The HTTP client could not be set up.
    #[error("the HTTP client could not start: {0}")]
    Client(String),
    /// No answer came: the endpoint could not be reached or the connection
    /// broke, every attempt.
    #[error("the store at {url} could not be reached ({attempts} attempts): {reason}")]
    Unreachable {
        /// The endpoint.
        url: String,
        /// Attempts made.
        attempts: u32,
        /// The last failure.
        reason: String,
    },
    /// The endpoint did not answer within the time limit.
    #[error("the store at {url} did not answer within {} s", limit.as_secs_f64())]
    Timeout {
        /// The endpoint.
        url: String,
        /// The limit.
        limit: Duration,
    },
    /// The endpoint answered with an HTTP error.
    #[error("the store at {url} answered HTTP {status}: {message}")]
    Status {
        /// The endpoint.
        url: String,
        /// The HTTP status.
        status: u16,
        /// The start of the answer's body.
        message: String,
    },
    /// The answer was not a SPARQL results document.
    #[error("the store's answer could not be read: {0}")]
    Results(String),
    /// The answer was larger than allowed.
    #[error("the store's answer is larger than {} MiB", MAX_ANSWER_BYTES >> 20)]
    TooLarge,
    /// More rows than allowed.
    #[error("query returned more than {max} rows")]
    TooManyRows {
        /// The limit.
        max: usize,
    },
}

/// How requests authenticate, from the environment:
/// `FINKG_STORE_TOKEN` (a bearer token), else `FINKG_STORE_USER` with
/// `FINKG_STORE_PASSWORD` (HTTP basic), else nothing.
#[derive(Clone, Default, PartialEq, Eq)]
pub enum Auth {
    /// No credentials.
    #[default]
    None,
    /// HTTP basic.
    Basic {
        /// The user.
        user: String,
        /// The password.
        password: String,
    },
    /// A bearer token.
    Bearer(String),
}

impl std::fmt::Debug for Auth {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // credentials are never printed
        f.write_str(match self {
            Auth::None => "None",
            Auth::Basic { .. } => "Basic",
            Auth::Bearer(_) => "Bearer",
        })
    }
}

impl Auth {
    /// The credentials the environment gives.
    pub fn from_env() -> Auth {
        let var = |name: &str| std::env::var(name).ok().filter(|v| !v.is_empty());
        if let Some(token) = var("FINKG_STORE_TOKEN") {
            Auth::Bearer(token)
        } else if let Some(user) = var("FINKG_STORE_USER") {
            Auth::Basic {
                user,
                password: var("FINKG_STORE_PASSWORD").unwrap_or_default(),
            }
        } else {
            Auth::None
        }
    }
}

/// Where the endpoint is and how to speak to it.
#[derive(Debug, Clone)]
pub struct RemoteConfig {
    /// The SPARQL 1.1 query endpoint (and update endpoint unless
    /// `update_url` says otherwise).
    pub query_url: String,
    /// The SPARQL 1.1 update endpoint, when not the query endpoint.
    pub update_url: Option<String>,
    /// The Graph Store Protocol endpoint: pages are loaded by `PUT` there.
    pub graph_store_url: Option<String>,
    /// Credentials.
    pub auth: Auth,
}

impl RemoteConfig {
    /// An endpoint at `url`, no Graph Store URL, credentials from the
    /// environment ([`Auth::from_env`]).
    pub fn new(url: &str) -> RemoteConfig {
        RemoteConfig {
            query_url: url.to_string(),
            update_url: None,
            graph_store_url: None,
            auth: Auth::from_env(),
        }
    }
}

/// The answer of a query as the endpoint gave it, its terms made good.
#[derive(Debug, Clone, PartialEq)]
pub enum RemoteAnswer {
    /// SELECT results: variable names and rows aligned with them.
    Solutions(Vec<String>, Vec<Vec<Option<Term>>>),
    /// An ASK result.
    Boolean(bool),
}

/// One page ready to load: its graph, its triples as N-Triples lines,
/// their hash and counts.
#[derive(Debug, Clone)]
pub struct LoadPage {
    /// The page's named graph.
    pub graph: String,
    /// One N-Triples statement a line.
    pub triples: String,
    /// SHA-256 of `triples`, hex.
    pub hash: String,
    /// What the graph holds.
    pub stats: GraphStats,
}

impl LoadPage {
    /// A conversation's page, built as the embedded store builds it.
    pub fn of(conversation: &Conversation) -> LoadPage {
        let mut triples = String::new();
        let (graph, stats) = each_abox_quad(&conversation.id, &conversation.document, |q| {
            let _ = writeln!(triples, "{} {} {} .", q.subject, q.predicate, q.object);
        });
        LoadPage::new(graph.into_string(), triples, stats)
    }

    /// The TBox, as one page of the TBox graph.
    pub fn tbox() -> Result<LoadPage, ontology::OntologyError> {
        let mut triples = String::new();
        let tbox = ontology::tbox()?;
        // blank nodes renamed in order of first use: the parser's labels
        // are new each process, the hash must not be
        let mut labels: HashMap<String, String> = HashMap::new();
        let mut label = |id: &str| -> String {
            let next = labels.len();
            labels
                .entry(id.to_string())
                .or_insert_with(|| format!("_:b{next}"))
                .clone()
        };
        for q in tbox.quads() {
            let subject = match &q.subject {
                NamedOrBlankNode::BlankNode(b) => label(b.as_str()),
                other => other.to_string(),
            };
            let object = match &q.object {
                Term::BlankNode(b) => label(b.as_str()),
                other => other.to_string(),
            };
            let _ = writeln!(triples, "{subject} {} {object} .", q.predicate);
        }
        let stats = GraphStats {
            triples: tbox.quads().len(),
            ..GraphStats::default()
        };
        Ok(LoadPage::new(vocab::TBOX_GRAPH.to_string(), triples, stats))
    }

    fn new(graph: String, triples: String, stats: GraphStats) -> LoadPage {
        let hash = Sha256::digest(triples.as_bytes())
            .iter()
            .fold(String::new(), |mut s, b| {
                let _ = write!(s, "{b:02x}");
                s
            });
        LoadPage {
            graph,
            triples,
            hash,
            stats,
        }
    }
}

/// A SPARQL 1.1 endpoint holding pages' graphs. One is shared by every
/// worker of a run (the HTTP client keeps a pool of connections).
pub struct RemoteStore {
    config: RemoteConfig,
    http: reqwest::blocking::Client,
}

impl std::fmt::Debug for RemoteStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RemoteStore")
            .field("config", &self.config)
            .finish()
    }
}

/// Whether a URL is an http(s) URL.
fn check_url(url: &str) -> Result<(), RemoteError> {
    match reqwest::Url::parse(url) {
        Ok(u) if matches!(u.scheme(), "http" | "https") && u.host_str().is_some() => Ok(()),
        _ => Err(RemoteError::Url {
            url: url.to_string(),
        }),
    }
}

/// A literal in the embedded store's form: Virtuoso's `1`/`0` booleans
/// as `true`/`false`.
fn normalise(term: Term) -> Term {
    match term {
        Term::Literal(l) if l.datatype() == oxigraph::model::vocab::xsd::BOOLEAN => {
            let value = match l.value() {
                "1" | "true" => "true",
                "0" | "false" => "false",
                _ => return Term::Literal(l),
            };
            Term::Literal(Literal::new_typed_literal(
                value,
                oxigraph::model::vocab::xsd::BOOLEAN,
            ))
        }
        other => other,
    }
}

/// What came back from one attempt.
enum Attempt {
    Done(reqwest::blocking::Response),
    /// Worth another try: the error to give if no try is left.
    Transient(RemoteError),
    Failed(RemoteError),
}

impl RemoteStore {
    /// A client for the endpoint `config` names (nothing is sent yet).
    pub fn new(config: RemoteConfig) -> Result<RemoteStore, RemoteError> {
        check_url(&config.query_url)?;
        for url in [&config.update_url, &config.graph_store_url]
            .into_iter()
            .flatten()
        {
            check_url(url)?;
        }
        let http = reqwest::blocking::Client::builder()
            .connect_timeout(CONNECT_TIMEOUT)
            .timeout(LOAD_TIMEOUT)
            .user_agent(concat!("finkg/", env!("CARGO_PKG_VERSION")))
            .build()
            .map_err(|e| RemoteError::Client(e.to_string()))?;
        Ok(RemoteStore { config, http })
    }

    /// The query endpoint's URL.
    pub fn url(&self) -> &str {
        &self.config.query_url
    }

    /// The query endpoint's URL without the user and password it may
    /// hold (`http://user:secret@host/sparql` is `http://host/sparql`): the
    /// URL a record or a message may show.
    pub fn shown_url(&self) -> String {
        match reqwest::Url::parse(&self.config.query_url) {
            Ok(mut url) => {
                let _ = url.set_username("");
                let _ = url.set_password(None);
                url.to_string()
            }
            Err(_) => self.config.query_url.clone(),
        }
    }

    fn update_url(&self) -> &str {
        self.config
            .update_url
            .as_deref()
            .unwrap_or(&self.config.query_url)
    }

    fn authorised(
        &self,
        request: reqwest::blocking::RequestBuilder,
    ) -> reqwest::blocking::RequestBuilder {
        match &self.config.auth {
            Auth::None => request,
            Auth::Basic { user, password } => request.basic_auth(user, Some(password)),
            Auth::Bearer(token) => request.bearer_auth(token),
        }
    }

    /// Sends the request `make` builds, retrying transient failures while
    /// time is left before `limit` runs out.
    fn send(
        &self,
        url: &str,
        limit: Duration,
        make: impl Fn(Duration) -> reqwest::blocking::RequestBuilder,
    ) -> Result<reqwest::blocking::Response, RemoteError> {
        let started = Instant::now();
        let mut pause = BACKOFF;
        let mut attempts = 0;
        loop {
            attempts += 1;
            let left = limit.saturating_sub(started.elapsed());
            if left.is_zero() {
                return Err(RemoteError::Timeout {
                    url: url.to_string(),
                    limit,
                });
            }
            let attempt = match self.authorised(make(left)).send() {
                Ok(response) => {
                    let status = response.status().as_u16();
                    if response.status().is_success() {
                        Attempt::Done(response)
                    } else {
                        let message = error_body(response);
                        if matches!(status, 429 | 500 | 502 | 503 | 504) {
                            Attempt::Transient(RemoteError::Status {
                                url: url.to_string(),
                                status,
                                message,
                            })
                        } else {
                            Attempt::Failed(RemoteError::Status {
                                url: url.to_string(),
                                status,
                                message,
                            })
                        }
                    }
                }
                Err(e) if e.is_timeout() => {
                    return Err(RemoteError::Timeout {
                        url: url.to_string(),
                        limit,
                    })
                }
                Err(e) => Attempt::Transient(RemoteError::Unreachable {
                    url: url.to_string(),
                    attempts,
                    reason: crate::trace::error_chain(&e),
                }),
            };
            match attempt {
                Attempt::Done(response) => return Ok(response),
                Attempt::Failed(e) => return Err(e),
                Attempt::Transient(error) => {
                    let left = limit.saturating_sub(started.elapsed());
                    if attempts > RETRIES || left <= pause {
                        return Err(error);
                    }
                    std::thread::sleep(pause);
                    pause *= 2;
                }
            }
        }
    }

    /// Runs a query over the dataset of `default` and `named` graphs within
    /// `limit`, refusing more than `max_rows` rows.
    pub fn select(
        &self,
        text: &str,
        default: &[&str],
        named: &[&str],
        limit: Duration,
        max_rows: usize,
    ) -> Result<RemoteAnswer, RemoteError> {
        let url = &self.config.query_url;
        let millis = limit.as_millis().to_string();
        let mut form: Vec<(&str, &str)> = vec![("query", text)];
        form.extend(default.iter().map(|g| ("default-graph-uri", *g)));
        form.extend(named.iter().map(|g| ("named-graph-uri", *g)));
        form.push(("timeout", &millis));
        let body = form_urlencoded::Serializer::new(String::new())
            .extend_pairs(form)
            .finish();
        let response = self.send(url, limit, |left| {
            self.http
                .post(url)
                .timeout(left)
                .header(
                    reqwest::header::ACCEPT,
                    // Virtuoso writes XML results several times faster than JSON
                    "application/sparql-results+xml, application/sparql-results+json;q=0.9",
                )
                .header(
                    reqwest::header::CONTENT_TYPE,
                    "application/x-www-form-urlencoded",
                )
                .body(body.clone())
        })?;
        if response.headers().contains_key("x-sql-state") {
            // Virtuoso's "anytime" answer: what it found before the limit
            return Err(RemoteError::Timeout {
                url: url.to_string(),
                limit,
            });
        }
        let format = match response
            .headers()
            .get(reqwest::header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
        {
            Some(t) if t.contains("xml") => QueryResultsFormat::Xml,
            _ => QueryResultsFormat::Json,
        };
        let bytes = read_limited(response, url, limit)?;
        parse_answer(&bytes, format, max_rows)
    }

    /// Runs a SPARQL update within `limit`.
    pub fn update(&self, text: &str, limit: Duration) -> Result<(), RemoteError> {
        let url = self.update_url();
        let body = form_urlencoded::Serializer::new(String::new())
            .append_pair("update", text)
            .finish();
        let response = self.send(url, limit, |left| {
            self.http
                .post(url)
                .timeout(left)
                .header(
                    reqwest::header::CONTENT_TYPE,
                    "application/x-www-form-urlencoded",
                )
                .body(body.clone())
        })?;
        read_limited(response, url, limit).map(|_| ())
    }

    /// Replaces the graph `graph` by `triples` (N-Triples) with the Graph
    /// Store Protocol's `PUT`.
    fn put_graph(&self, store: &str, graph: &str, triples: &str) -> Result<(), RemoteError> {
        let mut url = reqwest::Url::parse(store).map_err(|_| RemoteError::Url {
            url: store.to_string(),
        })?;
        url.query_pairs_mut().append_pair("graph", graph);
        let response = self.send(store, LOAD_TIMEOUT, |left| {
            self.http
                .put(url.clone())
                .timeout(left)
                .header(reqwest::header::CONTENT_TYPE, "text/turtle")
                .body(triples.to_string())
        })?;
        read_limited(response, store, LOAD_TIMEOUT).map(|_| ())
    }

    /// Whether the endpoint answers a query (`ASK {}`) within `limit`: a
    /// store that is down, stalls or fails is reported before any work.
    pub fn check(&self, limit: Duration) -> Result<(), RemoteError> {
        self.select("ASK {}", &[], &[], limit, 1).map(|_| ())
    }

    /// The load records: each loaded graph's hash (a record missing its
    /// counts is no record).
    pub fn loaded(&self) -> Result<HashMap<String, String>, RemoteError> {
        Ok(self
            .records()?
            .into_iter()
            .map(|(graph, (hash, _))| (graph, hash))
            .collect())
    }

    /// The load records: each loaded graph (the pages' and the TBox's)
    /// with its hash and counts (a record missing its counts is no record).
    pub fn records(&self) -> Result<HashMap<String, (String, GraphStats)>, RemoteError> {
        let text = format!(
            "SELECT ?g ?hash ?t ?o ?s ?f WHERE {{ GRAPH <{LOAD_GRAPH}> {{ ?g <{LOAD}hash> ?hash ; \
             <{LOAD}triples> ?t ; <{LOAD}observations> ?o ; <{LOAD}sentences> ?s ; \
             <{LOAD}textFacts> ?f }} }}"
        );
        let count = |t: &Option<Term>| match t {
            Some(Term::Literal(l)) => l.value().parse().unwrap_or(0),
            _ => 0,
        };
        let mut loaded = HashMap::new();
        if let RemoteAnswer::Solutions(_, rows) =
            self.select(&text, &[], &[], LOAD_TIMEOUT, usize::MAX)?
        {
            for row in rows {
                if let [Some(Term::NamedNode(g)), Some(Term::Literal(h)), t, o, s, f] =
                    row.as_slice()
                {
                    let stats = GraphStats {
                        triples: count(t),
                        observations: count(o),
                        sentences: count(s),
                        text_facts: count(f),
                    };
                    loaded.insert(g.as_str().to_string(), (h.value().to_string(), stats));
                }
            }
        }
        Ok(loaded)
    }

    /// The load record of one graph: what it holds, if it was loaded.
    pub fn record(&self, graph: &str, limit: Duration) -> Result<Option<GraphStats>, RemoteError> {
        let text = format!(
            "SELECT ?t ?o ?s ?f WHERE {{ GRAPH <{LOAD_GRAPH}> {{ <{graph}> <{LOAD}triples> ?t ; \
             <{LOAD}observations> ?o ; <{LOAD}sentences> ?s ; <{LOAD}textFacts> ?f }} }}"
        );
        let RemoteAnswer::Solutions(_, rows) = self.select(&text, &[], &[], limit, 10)? else {
            return Ok(None);
        };
        let count = |t: &Option<Term>| match t {
            Some(Term::Literal(l)) => l.value().parse().unwrap_or(0),
            _ => 0,
        };
        Ok(rows.first().map(|r| GraphStats {
            triples: count(&r[0]),
            observations: count(&r[1]),
            sentences: count(&r[2]),
            text_facts: count(&r[3]),
        }))
    }

    /// Loads `pages` in one request (or, with a Graph Store URL, one `PUT`
    /// a page, then one request for their records): each page's graph is
    /// replaced, never added to, and its record written last.
    pub fn load_pages(&self, pages: &[LoadPage]) -> Result<(), RemoteError> {
        if pages.is_empty() {
            return Ok(());
        }
        let mut update = String::new();
        for page in pages {
            let _ = writeln!(
                update,
                "DELETE WHERE {{ GRAPH <{LOAD_GRAPH}> {{ <{}> ?p ?o }} }} ;",
                page.graph
            );
        }
        if let Some(store) = &self.config.graph_store_url {
            self.update(&update, LOAD_TIMEOUT)?;
            update.clear();
            for page in pages {
                self.put_graph(store, &page.graph, &page.triples)?;
            }
        } else {
            for page in pages {
                // Virtuoso refuses blank nodes (the TBox's) in INSERT DATA:
                // a template with no WHERE condition inserts them once, a
                // few at a time (a long template passes its limit of
                // generated SQL), each blank node's triples in one template
                let (plain, blank) = split_blank(&page.triples);
                let _ = write!(
                    update,
                    "DROP SILENT GRAPH <{g}> ;\nINSERT DATA {{ GRAPH <{g}> {{\n{plain}}} }} ;\n",
                    g = page.graph
                );
                for group in blank {
                    let _ = write!(
                        update,
                        "INSERT {{ GRAPH <{g}> {{\n{group}}} }} WHERE {{ }} ;\n",
                        g = page.graph
                    );
                }
            }
        }
        update.push_str(&format!("INSERT DATA {{ GRAPH <{LOAD_GRAPH}> {{\n"));
        for page in pages {
            let s = page.stats;
            let _ = writeln!(
                update,
                "<{g}> <{LOAD}hash> \"{}\" ; <{LOAD}triples> {} ; <{LOAD}observations> {} ; \
                 <{LOAD}sentences> {} ; <{LOAD}textFacts> {} .",
                page.hash,
                s.triples,
                s.observations,
                s.sentences,
                s.text_facts,
                g = page.graph
            );
        }
        update.push_str("} }");
        self.update(&update, LOAD_TIMEOUT)
    }

    /// Triples in every graph finkg wrote (pages, TBox, load records).
    pub fn count_triples(&self) -> Result<usize, RemoteError> {
        let text = "SELECT (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } \
                    FILTER(STRSTARTS(STR(?g), \"https://w3id.org/finkg/\")) }";
        match self.select(text, &[], &[], LOAD_TIMEOUT, 1)? {
            RemoteAnswer::Solutions(_, rows) => Ok(match rows.first().map(|r| &r[0]) {
                Some(Some(Term::Literal(l))) => l.value().parse().unwrap_or(0),
                _ => 0,
            }),
            RemoteAnswer::Boolean(_) => Ok(0),
        }
    }

    /// Every quad of the graph `graph`.
    pub fn graph_quads(
        &self,
        graph: &NamedNode,
        limit: Duration,
    ) -> Result<Vec<Quad>, RemoteError> {
        let text = format!(
            "SELECT ?s ?p ?o WHERE {{ GRAPH <{}> {{ ?s ?p ?o }} }}",
            graph.as_str()
        );
        let RemoteAnswer::Solutions(_, rows) = self.select(&text, &[], &[], limit, usize::MAX)?
        else {
            return Ok(Vec::new());
        };
        let mut quads = Vec::with_capacity(rows.len());
        for row in rows {
            if let [Some(s), Some(Term::NamedNode(p)), Some(o)] = row.as_slice() {
                let subject: NamedOrBlankNode = match s {
                    Term::NamedNode(n) => n.clone().into(),
                    Term::BlankNode(b) => b.clone().into(),
                    _ => continue,
                };
                quads.push(Quad::new(subject, p.clone(), o.clone(), graph.clone()));
            }
        }
        Ok(quads)
    }
}

/// Most triples with blank nodes in one `INSERT` template.
const BLANK_GROUP: usize = 100;

/// N-Triples lines apart: those without a blank node, and those with one
/// in groups of about [`BLANK_GROUP`] lines, every line naming a blank node
/// in the same group as every other line naming it (directly or through
/// another blank node), so a template's fresh blank nodes stay one node.
fn split_blank(triples: &str) -> (String, Vec<String>) {
    let mut plain = String::new();
    let mut lines: Vec<(&str, Vec<&str>)> = Vec::new();
    for line in triples.lines() {
        let labels: Vec<&str> = line
            .split_whitespace()
            .filter(|t| t.starts_with("_:"))
            .collect();
        if labels.is_empty() {
            plain.push_str(line);
            plain.push('\n');
        } else {
            lines.push((line, labels));
        }
    }
    // union-find over the blank labels
    let mut parent: HashMap<&str, &str> = HashMap::new();
    fn root<'a>(parent: &mut HashMap<&'a str, &'a str>, x: &'a str) -> &'a str {
        let mut r = x;
        while let Some(&p) = parent.get(r) {
            if p == r {
                break;
            }
            r = p;
        }
        parent.insert(x, r);
        r
    }
    for (_, labels) in &lines {
        for l in labels {
            parent.entry(l).or_insert(l);
        }
        let first = root(&mut parent, labels[0]);
        for l in &labels[1..] {
            let other = root(&mut parent, l);
            parent.insert(other, first);
        }
    }
    let mut components: Vec<(&str, String)> = Vec::new();
    let mut index: HashMap<&str, usize> = HashMap::new();
    for (line, labels) in &lines {
        let r = root(&mut parent, labels[0]);
        let i = *index.entry(r).or_insert_with(|| {
            components.push((r, String::new()));
            components.len() - 1
        });
        components[i].1.push_str(line);
        components[i].1.push('\n');
    }
    let mut groups: Vec<String> = Vec::new();
    for (_, text) in components {
        match groups.last_mut() {
            Some(g) if g.lines().count() + text.lines().count() <= BLANK_GROUP => g.push_str(&text),
            _ => groups.push(text),
        }
    }
    (plain, groups)
}

/// The start of an error answer's body, on one line.
fn error_body(response: reqwest::blocking::Response) -> String {
    let mut text = String::new();
    let _ = response.take(2000).read_to_string(&mut text);
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut end = text.len().min(300);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    text[..end].to_string()
}

/// The answer's body, at most [`MAX_ANSWER_BYTES`].
fn read_limited(
    response: reqwest::blocking::Response,
    url: &str,
    limit: Duration,
) -> Result<Vec<u8>, RemoteError> {
    let mut bytes = Vec::new();
    response
        .take(MAX_ANSWER_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| {
            if e.kind() == std::io::ErrorKind::TimedOut
                || crate::trace::error_chain(&e).contains("timed out")
            {
                RemoteError::Timeout {
                    url: url.to_string(),
                    limit,
                }
            } else {
                RemoteError::Unreachable {
                    url: url.to_string(),
                    attempts: 1,
                    reason: crate::trace::error_chain(&e),
                }
            }
        })?;
    if bytes.len() as u64 > MAX_ANSWER_BYTES {
        return Err(RemoteError::TooLarge);
    }
    Ok(bytes)
}

/// A SPARQL results document as rows of terms in the embedded store's form.
fn parse_answer(
    bytes: &[u8],
    format: QueryResultsFormat,
    max_rows: usize,
) -> Result<RemoteAnswer, RemoteError> {
    let parsed = QueryResultsParser::from_format(format)
        .for_slice(bytes)
        .map_err(|e| RemoteError::Results(e.to_string()))?;
    let solutions = match parsed {
        SliceQueryResultsParserOutput::Boolean(b) => return Ok(RemoteAnswer::Boolean(b)),
        SliceQueryResultsParserOutput::Solutions(s) => s,
    };
    let variables: Vec<String> = solutions
        .variables()
        .iter()
        .map(|v| v.as_str().to_string())
        .collect();
    let mut rows = Vec::new();
    for solution in solutions {
        let solution = solution.map_err(|e| RemoteError::Results(e.to_string()))?;
        if rows.len() == max_rows {
            return Err(RemoteError::TooManyRows { max: max_rows });
        }
        rows.push(
            variables
                .iter()
                .map(|v| solution.get(v.as_str()).cloned().map(normalise))
                .collect::<Vec<_>>(),
        );
    }
    // Virtuoso answers ASK as one row of `__ASK_RETVAL`
    if variables == ["__ASK_RETVAL"] {
        let truth = matches!(rows.first().and_then(|r| r[0].as_ref()),
            Some(Term::Literal(l)) if l.value() != "0" && l.value() != "false");
        return Ok(RemoteAnswer::Boolean(truth));
    }
    Ok(RemoteAnswer::Solutions(variables, rows))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn virtuoso_answers_read_as_the_embedded_store_gives_them() {
        let json = br#"{ "head": { "vars": ["b", "d"] }, "results": { "bindings": [
            { "b": { "type": "typed-literal", "datatype": "http://www.w3.org/2001/XMLSchema#boolean", "value": "1" },
              "d": { "type": "typed-literal", "datatype": "http://www.w3.org/2001/XMLSchema#decimal", "value": "12.5" } } ] } }"#;
        let answer = parse_answer(json, QueryResultsFormat::Json, 10).unwrap();
        let RemoteAnswer::Solutions(vars, rows) = answer else {
            panic!("solutions")
        };
        assert_eq!(vars, ["b", "d"]);
        assert_eq!(rows[0][0], Some(Term::Literal(Literal::from(true))));
        let ask = br#"{ "head": { "vars": ["__ASK_RETVAL"] }, "results": { "bindings": [
            { "__ASK_RETVAL": { "type": "typed-literal", "datatype": "http://www.w3.org/2001/XMLSchema#integer", "value": "0" } } ] } }"#;
        assert_eq!(
            parse_answer(ask, QueryResultsFormat::Json, 10).unwrap(),
            RemoteAnswer::Boolean(false)
        );
        assert!(matches!(
            parse_answer(json, QueryResultsFormat::Json, 0),
            Err(RemoteError::TooManyRows { max: 0 })
        ));
        assert!(parse_answer(b"<html>", QueryResultsFormat::Json, 10).is_err());
    }

    #[test]
    fn only_http_urls_are_taken() {
        assert!(RemoteStore::new(RemoteConfig::new("ftp://x/sparql")).is_err());
        assert!(RemoteStore::new(RemoteConfig::new("not a url")).is_err());
        assert!(RemoteStore::new(RemoteConfig::new("http://127.0.0.1:1/sparql")).is_ok());
    }

    #[test]
    fn blank_nodes_stay_with_their_triples() {
        let tbox = LoadPage::tbox().unwrap();
        let (plain, groups) = split_blank(&tbox.triples);
        assert!(!plain.contains("_:"));
        let lines = plain.lines().count() + groups.iter().map(|g| g.lines().count()).sum::<usize>();
        assert_eq!(lines, tbox.stats.triples);
        assert!(groups.len() > 1, "{} groups", groups.len());
        for (i, g) in groups.iter().enumerate() {
            for label in g.split_whitespace().filter(|t| t.starts_with("_:")) {
                for (j, other) in groups.iter().enumerate() {
                    let named = other.split_whitespace().any(|t| t == label);
                    assert!(i == j || !named, "{label} in groups {i} and {j}");
                }
            }
        }
        let (plain, groups) =
            split_blank("<a> <b> _:x .\n_:x <c> _:y .\n_:y <d> <e> .\n<f> <g> <h> .\n");
        assert_eq!(plain, "<f> <g> <h> .\n");
        assert_eq!(groups.len(), 1);
        assert_eq!(groups[0].lines().count(), 3);
    }

    #[test]
    fn the_shown_url_holds_no_credentials() {
        let store = RemoteStore::new(RemoteConfig::new(
            "http://user:secret@127.0.0.1:8890/sparql?x=1",
        ))
        .unwrap();
        assert_eq!(store.shown_url(), "http://127.0.0.1:8890/sparql?x=1");
    }

    #[test]
    fn a_page_to_load_hashes_its_triples() {
        let examples =
            crate::dataset::load_file(std::path::Path::new("data/convfinqa_dev_public.json"))
                .unwrap();
        let page = LoadPage::of(&examples[0].conversation);
        assert_eq!(page.triples.lines().count(), page.stats.triples);
        assert_eq!(page.hash.len(), 64);
        assert_eq!(page.hash, LoadPage::of(&examples[0].conversation).hash);
        assert!(page.graph.ends_with("/graph"));
    }
}

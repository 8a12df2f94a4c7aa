//! `finkg serve`: one process that serves the loaded pages over HTTP.
//!
//! - [`sparql`]: a SPARQL 1.1 Protocol endpoint at `/sparql` (`GET ?query=`,
//!   `POST` as a form or as `application/sparql-query`) over one store
//!   holding the TBox and every page, each page in its named graph; the
//!   results in SPARQL JSON, XML, CSV or TSV by the `Accept` header. Every
//!   query passes the guard and runs with the limits of `finkg query`
//!   ([`crate::kg::GuardedQuery`], [`KgStore::query_over`]); updates are
//!   refused.
//! - [`web`]: a page at `/` to pick a report, read its table and text, and
//!   ask it questions turn by turn through the rules planner and the
//!   deterministic critic unless `--critic off`
//!   ([`crate::pipeline::Session`]), with each answer's plan, formula,
//!   values, SPARQL, and the sources highlighted in the table and text.
//! - [`run`]: with `--run RUN_DIR`, the run folder as `finkg inspect`
//!   shows it, at `/run` (the overview) and `/run/{id}` (a conversation
//!   turn by turn, its sources highlighted in the page's table and text).
//!
//! The server is axum on a current-thread tokio runtime; queries and turns
//! run on tokio's blocking threads. Ctrl-C (or SIGTERM) stops it after the
//! requests in flight are answered.

pub mod run;
pub mod sparql;
pub mod web;

use crate::dataset::{Conversation, Document, Table};
use crate::inspect::RunView;
use crate::kg::remote::{LoadPage, RemoteStore};
use crate::kg::{GraphStats, KgError, KgStore, PageSource};
use axum::routing::{get, post};
use axum::Router;
use std::collections::{HashMap, HashSet};
use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;

/// The address `finkg serve` listens on unless told otherwise (loopback).
pub const DEFAULT_ADDR: &str = "127.0.0.1:7878";

/// What the server answers from: the store of every page and the
/// conversations (page and questions; never gold) by id, and a run
/// folder to browse.
pub struct Served {
    kg: KgStore,
    /// Where a chat's page graph comes from: built, or the remote store.
    source: PageSource,
    conversations: Vec<Conversation>,
    by_id: HashMap<String, usize>,
    /// Pages the store holds whose dataset file was not given: their
    /// table and text are not known here (their questions are asked all
    /// the same).
    unread: HashSet<String>,
    run: Option<RunView>,
    /// Whether `/api/ask` reviews each result with the deterministic
    /// critic, as `solve` and `chat` do by default (`serve --critic`).
    critic: bool,
}

impl Served {
    /// Loads every conversation's page into one store (ids must be distinct).
    pub fn new(conversations: Vec<Conversation>) -> Result<Self, KgError> {
        let kg = KgStore::build_pages(&conversations)?;
        Ok(Self::with(
            kg,
            PageSource::Build,
            conversations,
            HashSet::new(),
        ))
    }

    /// Every page a SPARQL endpoint holds, by the load records of `finkg
    /// load` (`serve --store URL`): the SPARQL endpoint forwards each
    /// query there, over every loaded page's graph, and a chat reads its
    /// page's graph there through `source` (a [`PageSource::Remote`] or
    /// [`PageSource::Fetch`] of `remote`). `conversations` (from the
    /// dataset files given) supply their pages' table, text and questions
    /// for the web page; each must be loaded, as it is in the files. The
    /// other loaded pages are listed after them, by id. Blocking: call it
    /// outside the server's runtime.
    pub fn remote(
        remote: std::sync::Arc<RemoteStore>,
        source: PageSource,
        conversations: Vec<Conversation>,
    ) -> Result<Self, KgError> {
        let opened = KgStore::open_pages(remote)?;
        let loaded: HashMap<&str, &str> = opened
            .pages
            .iter()
            .map(|(id, hash)| (id.as_str(), hash.as_str()))
            .collect();
        let mut given = HashSet::new();
        for c in &conversations {
            if !given.insert(c.id.clone()) {
                return Err(KgError::DuplicateId { id: c.id.clone() });
            }
            match loaded.get(c.id.as_str()) {
                None => return Err(KgError::NotLoaded { id: c.id.clone() }),
                Some(hash) if *hash != LoadPage::of(c).hash => {
                    return Err(KgError::Stale { id: c.id.clone() })
                }
                Some(_) => {}
            }
        }
        let mut conversations = conversations;
        let mut unread = HashSet::new();
        for (id, _) in &opened.pages {
            if !given.contains(id) {
                unread.insert(id.clone());
                conversations.push(Conversation {
                    id: id.clone(),
                    document: Document {
                        pre_text: String::new(),
                        post_text: String::new(),
                        table: Table {
                            columns: Vec::new(),
                            rows: Vec::new(),
                        },
                    },
                    questions: Vec::new(),
                });
            }
        }
        Ok(Self::with(opened.kg, source, conversations, unread))
    }

    fn with(
        kg: KgStore,
        source: PageSource,
        conversations: Vec<Conversation>,
        unread: HashSet<String>,
    ) -> Self {
        let by_id = conversations
            .iter()
            .enumerate()
            .map(|(i, c)| (c.id.clone(), i))
            .collect();
        Self {
            kg,
            source,
            conversations,
            by_id,
            unread,
            run: None,
            critic: true,
        }
    }

    /// The remote store the pages are read from, its URL without
    /// credentials; `None` when they were built here.
    pub fn store(&self) -> Option<String> {
        self.source.store()
    }

    /// Pages whose table and text are not shown (their file not given).
    pub fn unread(&self) -> usize {
        self.unread.len()
    }

    /// Whether `/api/ask` reviews each result with the deterministic
    /// critic (on unless told otherwise, as in `solve` and `chat`).
    pub fn with_critic(mut self, on: bool) -> Self {
        self.critic = on;
        self
    }

    /// Also serves `run` (a run folder, read) at `/run`.
    pub fn with_run(mut self, run: RunView) -> Self {
        self.run = Some(run);
        self
    }

    /// The pages loaded.
    pub fn pages(&self) -> usize {
        self.conversations.len()
    }

    /// The pages' graphs, counted together (the TBox not included).
    pub fn stats(&self) -> GraphStats {
        self.kg.stats()
    }

    /// Quads in the store, the TBox's included.
    pub fn quads(&self) -> usize {
        self.kg.len()
    }

    /// The conversation with this id.
    fn conversation(&self, id: &str) -> Option<&Conversation> {
        self.by_id.get(id).map(|&i| &self.conversations[i])
    }
}

/// Why the server could not start or stopped with an error.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// The address could not be bound (in use, not local, no permission).
    #[error("cannot listen on {addr}")]
    Bind {
        /// The address asked for.
        addr: SocketAddr,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// The runtime or the connection loop failed.
    #[error("the server failed")]
    Io(#[from] std::io::Error),
}

/// The routes: the web page, its assets and API, the run browser, and the
/// SPARQL endpoint.
pub fn router(served: Arc<Served>) -> Router {
    Router::new()
        .route("/", get(web::index))
        .route("/static/app.js", get(web::script))
        .route("/static/style.css", get(web::style))
        .route("/api/ask", post(web::ask))
        .route("/run", get(run::overview))
        .route("/run/{*id}", get(run::conversation))
        .route("/sparql", get(sparql::get).post(sparql::post))
        .with_state(served)
}

/// A socket bound to `addr`, ready for [`serve`]: binding comes first so a
/// port in use is reported before the pages load.
pub fn bind(addr: SocketAddr) -> Result<std::net::TcpListener, ServeError> {
    let listener =
        std::net::TcpListener::bind(addr).map_err(|source| ServeError::Bind { addr, source })?;
    listener.set_nonblocking(true)?;
    Ok(listener)
}

/// Serves `served` on `listener` until Ctrl-C or SIGTERM; requests in
/// flight are answered before it returns.
pub fn serve(listener: std::net::TcpListener, served: Served) -> Result<(), ServeError> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    // held here, so the last of it (a remote store's blocking HTTP client)
    // is let go outside the runtime, never on its thread
    let served = Arc::new(served);
    let app = router(served.clone());
    let result = runtime.block_on(async move {
        let listener = tokio::net::TcpListener::from_std(listener)?;
        axum::serve(listener, app)
            .with_graceful_shutdown(stop_signal())
            .await
    });
    drop(runtime);
    drop(served);
    result?;
    Ok(())
}

/// Resolves at the first Ctrl-C or SIGTERM.
async fn stop_signal() {
    let interrupt = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    let (mut interrupt, mut terminate) = (std::pin::pin!(interrupt), std::pin::pin!(terminate));
    std::future::poll_fn(|cx| {
        if interrupt.as_mut().poll(cx).is_ready() || terminate.as_mut().poll(cx).is_ready() {
            std::task::Poll::Ready(())
        } else {
            std::task::Poll::Pending
        }
    })
    .await;
}

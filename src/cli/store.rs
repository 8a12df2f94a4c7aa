//! `--store URL` (the store the pages' graphs are read from, for `solve`,
//! `eval`, `query` and `chat`) and `finkg load` (every page of dataset
//! files into that store, resumably, with a progress bar).

use super::CliError;
use crate::kg::remote::{LoadPage, RemoteConfig, RemoteStore};
use crate::kg::PageSource;
use crate::trace::error_chain;
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use std::collections::HashSet;
use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Instant;

/// Where the pages' graphs are: built in memory (no `--store`), or in a
/// SPARQL 1.1 endpoint that `finkg load` filled.
#[derive(Args, Clone, Debug, Default)]
pub struct StoreArgs {
    /// Read each page's graph from this SPARQL 1.1 endpoint (Virtuoso,
    /// GraphDB, Fuseki, QLever, Neptune; `finkg load` puts them there)
    /// instead of building it. Credentials from FINKG_STORE_TOKEN (bearer)
    /// or FINKG_STORE_USER and FINKG_STORE_PASSWORD (basic).
    #[arg(
        long = "store",
        value_name = "URL",
        env = "FINKG_STORE",
        help_heading = "Remote store"
    )]
    pub store: Option<String>,
    /// The endpoint's SPARQL 1.1 update URL, when not the query URL.
    #[arg(
        long,
        value_name = "URL",
        requires = "store",
        help_heading = "Remote store"
    )]
    pub update_url: Option<String>,
    /// The endpoint's Graph Store Protocol URL: `load` replaces each page's
    /// graph by a PUT there instead of SPARQL updates.
    #[arg(
        long,
        value_name = "URL",
        requires = "store",
        help_heading = "Remote store"
    )]
    pub graph_store: Option<String>,
    /// Fetch each page's graph from --store once (one query) and answer
    /// its queries in memory, instead of sending every query there.
    #[arg(long, requires = "store", help_heading = "Remote store")]
    pub store_fetch: bool,
}

impl StoreArgs {
    /// The remote store these options name, if any.
    pub fn remote(&self) -> Result<Option<Arc<RemoteStore>>, CliError> {
        let Some(url) = &self.store else {
            return Ok(None);
        };
        let mut config = RemoteConfig::new(url);
        config.update_url.clone_from(&self.update_url);
        config.graph_store_url.clone_from(&self.graph_store);
        let remote = RemoteStore::new(config).map_err(|e| CliError::new(error_chain(&e)))?;
        Ok(Some(Arc::new(remote)))
    }

    /// The remote store these options name, if any, once it has answered
    /// a first query ([`RemoteStore::check`]).
    pub fn checked_remote(&self) -> Result<Option<Arc<RemoteStore>>, CliError> {
        let remote = self.remote()?;
        if let Some(remote) = &remote {
            remote
                .check(crate::kg::store::QUERY_TIME_LIMIT)
                .map_err(|e| {
                    CliError::new(error_chain(&e))
                        .with_hint("is the endpoint up, and is --store its SPARQL query URL?")
                })?;
        }
        Ok(remote)
    }

    /// Where the pages' graphs come from (a remote store checked first).
    pub fn source(&self) -> Result<PageSource, CliError> {
        Ok(match self.checked_remote()? {
            Some(remote) if self.store_fetch => PageSource::Fetch(remote),
            Some(remote) => PageSource::Remote(remote),
            None => PageSource::Build,
        })
    }
}

/// `finkg load`'s arguments (the subcommand's about is in `main.rs`).
#[derive(Args)]
pub struct LoadArgs {
    /// ConvFinQA files: every conversation's page is loaded.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    #[command(flatten)]
    pub store: StoreArgs,
    /// Pages a request.
    #[arg(long, value_name = "N", default_value_t = 8)]
    pub batch: usize,
    /// Load every page again, even one already loaded.
    #[arg(long)]
    pub force: bool,
    /// Hide the progress bar.
    #[arg(long)]
    pub no_progress: bool,
}

/// `finkg load`: the TBox and every page of the files into the store, a
/// batch of pages a request; a page already loaded with the same triples
/// is skipped (unless `force`), so an interrupted load resumes. Prints a
/// summary: pages loaded and skipped, triples, seconds.
pub fn load(req: LoadArgs) -> Result<ExitCode, CliError> {
    let remote = req.store.remote()?.ok_or_else(|| {
        CliError::new("`finkg load` needs --store URL (or FINKG_STORE)")
            .with_hint("e.g. --store http://127.0.0.1:8890/sparql for a local Virtuoso")
    })?;
    if req.batch == 0 {
        return Err(CliError::new("--batch must be at least 1"));
    }
    let started = Instant::now();
    let store_error = |e: crate::kg::remote::RemoteError| {
        CliError::new(error_chain(&e))
            .with_hint("is the endpoint up, and does it allow SPARQL updates from this client?")
    };
    let loaded = remote.loaded().map_err(store_error)?;
    let mut examples = Vec::new();
    let mut seen = HashSet::new();
    for file in &req.files {
        for example in super::load(file)? {
            if !seen.insert(example.conversation.id.clone()) {
                return Err(CliError::new(format!(
                    "{}: conversation id `{}` is also in an earlier file; their pages would share a graph",
                    file.display(),
                    example.conversation.id
                )));
            }
            examples.push(example);
        }
    }
    let fresh = |page: &LoadPage| req.force || loaded.get(&page.graph) != Some(&page.hash);
    let (mut pages, mut triples, mut skipped) = (0usize, 0usize, 0usize);
    let tbox = LoadPage::tbox().map_err(|e| CliError::new(error_chain(&e)))?;
    if fresh(&tbox) {
        remote
            .load_pages(std::slice::from_ref(&tbox))
            .map_err(store_error)?;
        triples += tbox.stats.triples;
    }
    let bar = if !req.no_progress {
        let bar = ProgressBar::new(examples.len() as u64);
        bar.set_style(
            ProgressStyle::with_template("{bar:40} {pos}/{len} pages {per_sec} eta {eta}")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        bar
    } else {
        ProgressBar::hidden()
    };
    let mut batch = Vec::with_capacity(req.batch);
    for (i, example) in examples.iter().enumerate() {
        let page = LoadPage::of(&example.conversation);
        if fresh(&page) {
            batch.push(page);
        } else {
            skipped += 1;
            bar.inc(1);
        }
        if batch.len() == req.batch || (i + 1 == examples.len() && !batch.is_empty()) {
            remote.load_pages(&batch).map_err(|e| {
                bar.abandon();
                store_error(e)
            })?;
            pages += batch.len();
            triples += batch.iter().map(|p| p.stats.triples).sum::<usize>();
            bar.inc(batch.len() as u64);
            batch.clear();
        }
    }
    bar.finish_and_clear();
    let mut out = io::stdout().lock();
    writeln!(
        out,
        "loaded {pages} pages ({skipped} already loaded, skipped), {triples} triples, in {:.1} s into {}",
        started.elapsed().as_secs_f64(),
        remote.url()
    )?;
    Ok(ExitCode::SUCCESS)
}

//! `finkg serve`: loads every conversation of the files given (or, with
//! `--store URL`, reads every page the store holds by its load records),
//! then serves them ([`crate::serve`]) until Ctrl-C.

use super::planners::ServeCritic;
use super::store::StoreArgs;
use super::{load, CliError};
use crate::inspect::RunView;
use crate::kg::PageSource;
use crate::serve::{self, ServeError, Served};
use crate::trace::error_chain;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// `serve FILE... --addr ADDR [--run RUN_DIR] [--store URL] [--critic
/// deterministic|off]`: binds first (a port in use is reported before the
/// pages load), loads every conversation of every file and the run folder,
/// prints where it listens and what it loaded, and serves until Ctrl-C; the
/// web page's questions are answered with `critic`. With `--store URL` the
/// store must answer at start (else a clear error); its loaded pages are
/// served from it, the files giving their table, text and questions.
pub fn run(
    files: &[PathBuf],
    addr: SocketAddr,
    run_dir: Option<&Path>,
    store: &StoreArgs,
    critic: ServeCritic,
) -> Result<ExitCode, CliError> {
    let listener = serve::bind(addr).map_err(|e| {
        let error = CliError::new(error_chain(&e));
        match &e {
            ServeError::Bind { source, .. } if source.kind() == std::io::ErrorKind::AddrInUse => {
                error.with_hint(
                    "another process listens there; give another --addr (port 0 picks a free one)",
                )
            }
            _ => error,
        }
    })?;
    let run = run_dir
        .map(RunView::read)
        .transpose()
        .map_err(|e| CliError::new(error_chain(&e)))?;
    let mut conversations = Vec::new();
    for file in files {
        conversations.extend(load(file)?.into_iter().map(|e| e.conversation));
    }
    let source = store.source()?;
    let mut served = match &source {
        PageSource::Build => Served::new(conversations).map_err(|e| {
            CliError::new(format!("cannot load the pages: {}", error_chain(&e)))
                .with_hint("each conversation id may appear in only one of the files")
        })?,
        PageSource::Remote(remote) | PageSource::Fetch(remote) => {
            Served::remote(remote.clone(), source.clone(), conversations).map_err(|e| {
                CliError::new(format!(
                    "cannot read the pages from the store: {}",
                    error_chain(&e)
                ))
                .with_hint("`finkg load FILE... --store URL` puts the files' pages there")
            })?
        }
    };
    served = served.with_critic(critic == ServeCritic::Deterministic);
    let local = listener.local_addr().unwrap_or(addr);
    let run_line = run.as_ref().map(|view| {
        format!(
            "  run browser:     http://{local}/run (run {} in {}: {} conversations)",
            view.run.run_id,
            view.dir.display(),
            view.conversations.len()
        )
    });
    if let Some(view) = run {
        served = served.with_run(view);
    }
    let mut names: Vec<String> = files.iter().map(|f| f.display().to_string()).collect();
    if names.is_empty() {
        names.push("no file".into());
    }
    let stats = served.stats();
    println!("finkg serve: listening on http://{local}/ (Ctrl-C stops)");
    match served.store() {
        None => println!(
            "  loaded {} pages (every conversation of {}): {} quads with the TBox, {} table cells, {} text numbers",
            served.pages(),
            names.join(", "),
            served.quads(),
            stats.observations,
            stats.text_facts,
        ),
        Some(url) => println!(
            "  serving {} pages from the store at {url} (by its load records; table and text of {} from {}): \
             {} quads with the TBox, {} table cells, {} text numbers",
            served.pages(),
            served.pages() - served.unread(),
            names.join(", "),
            served.quads(),
            stats.observations,
            stats.text_facts,
        ),
    }
    println!(
        "  each page is the named graph <{}{{id}}/graph>, the TBox <{}>; the default graph is empty",
        crate::vocab::DATA,
        crate::vocab::TBOX_GRAPH
    );
    println!("  web page:        http://{local}/");
    println!("  SPARQL endpoint: http://{local}/sparql");
    if let Some(line) = run_line {
        println!("{line}");
    }
    serve::serve(listener, served)?;
    println!("finkg serve: stopped");
    Ok(ExitCode::SUCCESS)
}

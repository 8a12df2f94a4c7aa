//! `finkg kg`: the TBox and a conversation's ABox (or every
//! conversation's) written as Turtle, N-Triples or N-Quads.

use super::{load, pick_conversation, CliError};
use crate::kg::{export_pages, ExportFormat, KgStore};
use crate::trace::error_chain;
use clap::{Args, ValueEnum};
use std::io;
use std::path::PathBuf;
use std::process::ExitCode;

/// `finkg kg`'s arguments (the subcommand's about is in `main.rs`).
#[derive(Args)]
pub struct KgArgs {
    /// A ConvFinQA file.
    pub file: PathBuf,
    /// The RDF serialisation (N-Quads keeps the TBox and each page in its
    /// own named graph).
    #[arg(long, value_enum, default_value = "turtle")]
    pub format: RdfOut,
    /// The conversation with this id instead of the first.
    #[arg(long, value_name = "ID")]
    pub id: Option<String>,
    /// Every conversation of FILE: the TBox once, then each page (in its
    /// own named graph with `--format nquads`; Turtle and N-Triples merge
    /// them into one graph).
    #[arg(long, conflicts_with = "id")]
    pub all: bool,
}

/// `--format` of `finkg kg`.
#[derive(Clone, Copy, ValueEnum)]
pub enum RdfOut {
    /// Turtle, TBox and ABox in one graph.
    Turtle,
    /// N-Triples, TBox and ABox in one graph.
    Ntriples,
    /// N-Quads, TBox and each page in its own named graph.
    Nquads,
}

impl From<RdfOut> for ExportFormat {
    fn from(format: RdfOut) -> Self {
        match format {
            RdfOut::Turtle => ExportFormat::Turtle,
            RdfOut::Ntriples => ExportFormat::NTriples,
            RdfOut::Nquads => ExportFormat::NQuads,
        }
    }
}

/// Runs `finkg kg`: the RDF to stdout.
pub fn kg(args: KgArgs) -> Result<ExitCode, CliError> {
    let KgArgs {
        file,
        format,
        id,
        all,
    } = args;
    let stdout = io::BufWriter::new(io::stdout().lock());
    if all {
        let examples = load(&file)?;
        export_pages(
            examples.iter().map(|e| &e.conversation),
            format.into(),
            stdout,
        )
        .map_err(|e| CliError::new(format!("{}: {}", file.display(), error_chain(&e))))?;
    } else {
        let conversation = pick_conversation(&file, id.as_deref())?;
        KgStore::build(&conversation)?.export(format.into(), stdout)?;
    }
    Ok(ExitCode::SUCCESS)
}

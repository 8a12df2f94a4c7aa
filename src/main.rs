//! The `finkg` command line: the arguments and the dispatch to the
//! library's [`finkg::cli`], which does each subcommand's work and printing;
//! errors are printed once, here, as `error: ...` with their causes.
//!
//! `solve --json` prints JSON Lines, one object a turn:
//! `{"id": "...", "turn": 0, "question": "...", "answer": 60.94, "error": null}`
//! (`answer` a number, "yes"/"no" or null; `error` null or the reason).

use clap::{Parser, Subcommand, ValueEnum};
use finkg::cli::chat::chat;
use finkg::cli::eval::{eval, EvalRequest};
use finkg::cli::inspect::inspect;
use finkg::cli::planners::PlannerArgs;
use finkg::cli::query::{query, query_batch, ResultsOut};
use finkg::cli::solve::solve;
use finkg::cli::store::{LoadRequest, StoreArgs};
use finkg::cli::{load, mongo, ontology, pick_conversation, CliError};
use finkg::kg::{export_pages, ExportFormat, KgStore};
use finkg::trace::error_chain;
use std::io;
use std::path::PathBuf;
use std::process::ExitCode;

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc; // see Cargo.toml

/// Answers conversational numerical questions about financial report pages
/// by turning each page into an RDF knowledge graph and planning every
/// answer as SPARQL look-ups plus an exact formula.
#[derive(Parser)]
#[command(name = "finkg", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Answer every conversation of FILE turn by turn.
    Solve {
        /// A ConvFinQA file: one conversation, a list, a `{split: [...]}` map,
        /// or the original layout.
        file: PathBuf,
        /// Print JSON Lines, one object a turn: id, turn, question, answer, error.
        #[arg(long)]
        json: bool,
        /// Show each turn's plan, SPARQL, bindings with their source cell or
        /// sentence, and formula; with `--planner llm` or `agent`, every exchange with
        /// the model too (prompt, reply, tokens, latency, retries, cache hit).
        #[arg(long)]
        explain: bool,
        /// Ask this question (repeatable) over the file's first conversation
        /// instead of the file's own questions.
        #[arg(long = "question", value_name = "QUESTION")]
        questions: Vec<String>,
        #[command(flatten)]
        planner: PlannerArgs,
        #[command(flatten)]
        store: StoreArgs,
    },
    /// Answer every turn of a dataset, score it against the gold answers and
    /// write a run folder (predictions.jsonl, trace.jsonl, summary.json,
    /// failures.md).
    Eval {
        /// A ConvFinQA file with gold answers (with --resume: the run's own
        /// by default).
        #[arg(required_unless_present = "resume")]
        dataset: Option<PathBuf>,
        /// The run folder to write (created if missing; a folder holding
        /// another run is refused unless --force).
        #[arg(long, default_value = "runs/latest")]
        out: PathBuf,
        /// Finish the interrupted run in RUN_DIR: its whole conversations
        /// are kept, the rest answered (same planner options as the run).
        #[arg(long, value_name = "RUN_DIR", conflicts_with_all = ["force", "limit"])]
        resume: Option<PathBuf>,
        /// Overwrite the run the --out folder holds.
        #[arg(long)]
        force: bool,
        /// Only the first N conversations.
        #[arg(long)]
        limit: Option<usize>,
        /// Hide the progress bar.
        #[arg(long)]
        no_progress: bool,
        /// Conversations in flight at once; the turns of a conversation stay
        /// in order and the run folder keeps the dataset's order.
        #[arg(long, value_name = "N", default_value_t = 1)]
        jobs: usize,
        #[command(flatten)]
        planner: PlannerArgs,
        /// Also write the run to MongoDB as it goes
        /// (`mongodb://HOST:PORT/DB`; needs the `mongodb` feature). If the
        /// server fails, the run goes on and its folder stays complete, for
        /// `finkg export` later.
        #[arg(
            long,
            value_name = "URI",
            env = "FINKG_MONGO_URI",
            hide_env_values = true,
            help_heading = "MongoDB export"
        )]
        mongo_uri: Option<String>,
        /// With --mongo-uri: also write the TBox and each page's ABox to the
        /// `triples` collection, one document a quad.
        #[arg(long, help_heading = "MongoDB export")]
        mongo_triples: bool,
        #[command(flatten)]
        store: StoreArgs,
    },
    /// Ask questions of your own about one report page, with line editing
    /// and history; `:help` lists the commands (`:explain`, `:table`,
    /// `:text`, `:sparql`, `:graph`, `:reset`, `:quit`). Reads stdin line by
    /// line when it is not a terminal.
    Chat {
        /// A ConvFinQA file.
        file: PathBuf,
        /// The conversation whose page to use instead of the first.
        #[arg(long, value_name = "ID")]
        id: Option<String>,
        #[command(flatten)]
        planner: PlannerArgs,
        #[command(flatten)]
        store: StoreArgs,
    },
    /// Read a run folder written by `eval`: its overview (accuracy, by turn,
    /// by operation, wrong turns by cause, worst conversations, plots), or
    /// one conversation turn by turn with each value's source marked in
    /// the page's table or text.
    Inspect {
        /// The run folder.
        run_dir: PathBuf,
        /// A conversation id, or the start of only one.
        id: Option<String>,
        /// Only the wrong turns.
        #[arg(long, requires = "id")]
        failed: bool,
        /// Print the same as one JSON document.
        #[arg(long)]
        json: bool,
    },
    /// Export a run folder written by `eval` to MongoDB (needs the `mongodb`
    /// feature): the run, its conversations, turns and LLM exchanges, one
    /// document each, upserted by key, so an export can be repeated or
    /// resumed.
    Export {
        /// The run folder (holds run.json, trace.jsonl, conversations.jsonl).
        run_dir: PathBuf,
        /// The server and database: `mongodb://HOST:PORT/DB` (DB defaults to
        /// `finkg`).
        #[arg(
            long,
            value_name = "URI",
            env = "FINKG_MONGO_URI",
            hide_env_values = true
        )]
        mongo_uri: Option<String>,
        /// Also write the TBox and each conversation's ABox (rebuilt from the
        /// dataset) to the `triples` collection, one document a quad.
        #[arg(long)]
        mongo_triples: bool,
        /// The dataset the run answered, for --mongo-triples (default: the
        /// one named in run.json).
        #[arg(long)]
        dataset: Option<PathBuf>,
        /// Documents per write command.
        #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u32).range(1..))]
        batch_size: u32,
    },
    /// Write the TBox and the first conversation's ABox as RDF (or the
    /// ABox of the conversation `--id` names, or of every conversation
    /// with `--all`).
    Kg {
        /// A ConvFinQA file.
        file: PathBuf,
        /// The RDF serialisation (N-Quads keeps the TBox and each page in its
        /// own named graph).
        #[arg(long, value_enum, default_value = "turtle")]
        format: RdfOut,
        /// The conversation with this id instead of the first.
        #[arg(long, value_name = "ID")]
        id: Option<String>,
        /// Every conversation of FILE: the TBox once, then each page (in its
        /// own named graph with `--format nquads`; Turtle and N-Triples merge
        /// them into one graph).
        #[arg(long, conflicts_with = "id")]
        all: bool,
    },
    /// Run a SPARQL SELECT or ASK query against the first conversation's
    /// graph, or the graph of the conversation `--id` names (guarded: no
    /// SERVICE, no updates, bounded results).
    Query {
        /// A ConvFinQA file.
        file: PathBuf,
        /// The query. Prefixes fk:, qb:, skos:, prov:, dcterms:, rdf:, rdfs:,
        /// xsd: and owl: are predeclared.
        #[arg(required_unless_present = "queries")]
        sparql: Option<String>,
        /// The conversation with this id instead of the first.
        #[arg(long, value_name = "ID")]
        id: Option<String>,
        /// Run every query of this JSON Lines file instead, one object a line
        /// with the `id` of a conversation of FILE and a `sparql` query (other
        /// keys are copied through). Prints one JSON object a line: the
        /// input's keys plus `results` (the SPARQL 1.1 JSON results) or
        /// `error` (why the query did not run).
        #[arg(long, value_name = "JSONL", conflicts_with_all = ["sparql", "id", "format"])]
        queries: Option<PathBuf>,
        /// Result format: a readable table, or the SPARQL 1.1 JSON, CSV or TSV
        /// results formats.
        #[arg(long, value_enum, default_value = "table")]
        format: ResultsOut,
        #[command(flatten)]
        store: StoreArgs,
    },
    /// Load the TBox and every page of FILE... into a SPARQL 1.1 endpoint
    /// (`--store URL`), each page in its own named graph, a batch of pages a
    /// request. Loading again replaces a page's graph; a page already loaded
    /// with the same triples is skipped, so an interrupted load resumes.
    Load {
        /// ConvFinQA files: every conversation's page is loaded.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        #[command(flatten)]
        store: StoreArgs,
        /// Pages a request.
        #[arg(long, value_name = "N", default_value_t = 8)]
        batch: usize,
        /// Load every page again, even one already loaded.
        #[arg(long)]
        force: bool,
        /// Hide the progress bar.
        #[arg(long)]
        no_progress: bool,
    },
    /// Serve the pages of FILE... over HTTP: a SPARQL 1.1 Protocol endpoint
    /// at /sparql (each page a named graph; read-only, guarded, limited)
    /// and a web page at / to read a report and ask it questions. With
    /// `--store URL`: every page the store holds (`finkg load`), its
    /// queries and chats answered there.
    Serve {
        /// ConvFinQA files: every conversation of each is loaded (with
        /// --store: the pages' table, text and questions for the web page).
        #[arg(required_unless_present_any = ["run", "store"])]
        files: Vec<PathBuf>,
        /// The address to listen on (port 0: any free port).
        #[arg(long, default_value = finkg::serve::DEFAULT_ADDR)]
        addr: std::net::SocketAddr,
        /// Also browse this run folder (`finkg eval --out`) at /run.
        #[arg(long, value_name = "RUN_DIR")]
        run: Option<PathBuf>,
        #[command(flatten)]
        store: StoreArgs,
        /// Review each answer of the web page before it is kept, as
        /// `solve` and `chat` do (the rules planner revises once after a
        /// finding); `off` keeps every result as planned.
        #[arg(long, value_enum, default_value = "deterministic")]
        critic: finkg::cli::planners::ServeCritic,
    },
    /// Learn the metric lexicon, or check the ontology folder.
    Ontology {
        #[command(subcommand)]
        action: OntologyAction,
    },
}

#[derive(Subcommand)]
enum OntologyAction {
    /// Learn metric concepts and their synonyms from a dataset's report
    /// tables and texts (never its questions or answers) and write them as
    /// SKOS Turtle. The binary compiles ontology/ in: rebuild to use a new
    /// lexicon.
    Build {
        /// A ConvFinQA file whose reports to learn from.
        dataset: PathBuf,
        /// Where to write the lexicon.
        #[arg(long, default_value = "ontology/lexicon.ttl")]
        out: PathBuf,
    },
    /// Validate every Turtle file of an ontology folder: each parses, the
    /// calculation patterns and the lexicon load, and every fk: class and
    /// property used is declared with a label and a comment.
    Check {
        /// The folder.
        #[arg(default_value = "ontology")]
        dir: PathBuf,
    },
}

#[derive(Clone, Copy, ValueEnum)]
enum RdfOut {
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

fn main() -> ExitCode {
    finkg::cli::quiet_when_stdout_closes();
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => code,
        Err(CliError {
            message,
            hint,
            broken_pipe,
        }) => {
            // a closed stdout only; a server's broken pipe is no such case
            // (the MongoDB driver's errors are shown, not chained)
            if broken_pipe || finkg::cli::stdout_closed() {
                return ExitCode::SUCCESS;
            }
            eprintln!("error: {}", finkg::cli::printable(&message));
            if let Some(hint) = hint {
                eprintln!("\nhint: {hint}");
            }
            ExitCode::from(2)
        }
    }
}

fn run(cli: Cli) -> Result<ExitCode, CliError> {
    match cli.command {
        Command::Solve {
            file,
            json,
            explain,
            questions,
            planner,
            store,
        } => solve(&file, json, explain, &questions, &planner, &store.source()?),
        Command::Eval {
            dataset,
            out,
            resume,
            force,
            limit,
            no_progress,
            jobs,
            planner,
            mongo_uri,
            mongo_triples,
            store,
        } => eval(EvalRequest {
            dataset,
            out,
            resume,
            force,
            limit,
            progress: !no_progress,
            jobs,
            planner,
            mongo_uri,
            mongo_triples,
            source: store.source()?,
        }),
        Command::Chat {
            file,
            id,
            planner,
            store,
        } => chat(&file, id.as_deref(), &planner, &store.source()?),
        Command::Inspect {
            run_dir,
            id,
            failed,
            json,
        } => inspect(&run_dir, id.as_deref(), failed, json),
        Command::Export {
            run_dir,
            mongo_uri,
            mongo_triples,
            dataset,
            batch_size,
        } => mongo::export(
            &run_dir,
            mongo_uri.as_deref(),
            mongo_triples,
            dataset.as_deref(),
            batch_size as usize,
        ),
        Command::Kg {
            file,
            format,
            id,
            all,
        } => {
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
        Command::Query {
            file,
            sparql,
            id,
            queries,
            format,
            store,
        } => match (queries, sparql) {
            (Some(queries), _) => query_batch(&file, &queries, &store.source()?),
            (None, Some(sparql)) => query(&file, id.as_deref(), &sparql, format, &store.source()?),
            (None, None) => Err(CliError::new("give a query or --queries")),
        },
        Command::Load {
            files,
            store,
            batch,
            force,
            no_progress,
        } => finkg::cli::store::load(LoadRequest {
            files,
            store,
            batch,
            force,
            progress: !no_progress,
        }),
        Command::Serve {
            files,
            addr,
            run,
            store,
            critic,
        } => finkg::cli::serve::run(&files, addr, run.as_deref(), &store, critic),
        Command::Ontology { action } => match action {
            OntologyAction::Build { dataset, out } => ontology::build(&dataset, &out),
            OntologyAction::Check { dir } => ontology::check(&dir),
        },
    }
}

//! The `finkg` command line: the arguments and the dispatch to the
//! library's [`finkg::cli`], which does each subcommand's work and printing;
//! errors are printed once, here, as `error: ...` with their causes.
//!
//! `solve --json` prints JSON Lines, one object a turn:
//! `{"id": "...", "turn": 0, "question": "...", "answer": 60.94, "error": null}`
//! (`answer` a number, "yes"/"no" or null; `error` null or the reason).

use clap::{Parser, Subcommand};
use finkg::cli::chat::chat;
use finkg::cli::eval::{eval, EvalArgs};
use finkg::cli::inspect::inspect;
use finkg::cli::kg::{kg, KgArgs};
use finkg::cli::planners::PlannerArgs;
use finkg::cli::query::{query, query_batch, ResultsOut};
use finkg::cli::solve::solve;
use finkg::cli::store::{load, LoadArgs, StoreArgs};
use finkg::cli::{mongo, ontology, CliError};
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
    Eval(EvalArgs),
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
    Kg(KgArgs),
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
    Load(LoadArgs),
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
        Command::Eval(args) => eval(args),
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
        Command::Kg(args) => kg(args),
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
        Command::Load(args) => load(args),
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

//! The `finkg` command line: the arguments and the dispatch to the
//! library's [`finkg::cli`], which does each subcommand's work and printing;
//! errors are printed once, here, as `error: ...` with their causes.
//!
//! `solve --json` prints JSON Lines, one object a turn:
//! `{"id": "...", "turn": 0, "question": "...", "answer": 60.94, "error": null}`
//! (`answer` a number, "yes"/"no" or null; `error` null or the reason).

use clap::{Parser, Subcommand, ValueEnum};
use finkg::cli::planners::{make_planners, PlannerArgs};
use finkg::cli::query::{query, query_batch, ResultsOut};
use finkg::cli::solve::solve;
use finkg::cli::{
    check_eval_dataset, load, mongo, ontology, pick_conversation, run_to_resume, CliError,
};
use finkg::eval::{self, EvalOptions};
use finkg::kg::{export_pages, ExportFormat, KgStore};
use finkg::trace::error_chain;
use std::io::{self, Write};
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
        /// sentence, and formula; with `--planner llm`, every exchange with
        /// the model too (prompt, reply, tokens, latency, retries, cache hit).
        #[arg(long)]
        explain: bool,
        /// Ask this question (repeatable) over the file's first conversation
        /// instead of the file's own questions.
        #[arg(long = "question", value_name = "QUESTION")]
        questions: Vec<String>,
        #[command(flatten)]
        planner: PlannerArgs,
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
            hide_env_values = true
        )]
        mongo_uri: Option<String>,
        /// With --mongo-uri: also write the TBox and each page's ABox to the
        /// `triples` collection, one document a quad.
        #[arg(long)]
        mongo_triples: bool,
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
            if broken_pipe {
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

/// A run's exit code: 1 when a failure no retry mends halted it (the LLM
/// circuit breaker, a rejected key) or when no turn was answered, else 0.
fn eval_exit(summary: &finkg::run::Summary) -> ExitCode {
    let halted = summary
        .stopped
        .as_deref()
        .filter(|r| r.starts_with("no further request is made"));
    let turns = summary.unanswered.max(summary.turns.total);
    let none_answered = turns > 0 && summary.unanswered == turns;
    if let Some(reason) = halted {
        eprintln!("error: the run stopped: {reason}");
    } else if none_answered {
        eprintln!("error: no turn was answered; see the errors in the run folder's predictions");
    } else {
        return ExitCode::SUCCESS;
    }
    ExitCode::from(1)
}

fn run(cli: Cli) -> Result<ExitCode, CliError> {
    match cli.command {
        Command::Solve {
            file,
            json,
            explain,
            questions,
            planner,
        } => solve(&file, json, explain, &questions, &planner),
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
        } => {
            let mut live = mongo::live(mongo_uri.as_deref(), mongo_triples)?;
            let resuming = resume.is_some();
            let (out, dataset, limit) = match resume {
                Some(dir) => {
                    let info = run_to_resume(&dir)?;
                    let dataset = dataset
                        .or_else(|| info.dataset.map(PathBuf::from))
                        .ok_or_else(|| CliError::new("the run names no dataset; give it"))?;
                    (dir, dataset, info.limit)
                }
                None => (out, dataset.expect("clap requires it"), limit),
            };
            let conversations = check_eval_dataset(&dataset)?;
            if jobs == 0 {
                return Err(CliError::new("--jobs must be at least 1"));
            }
            let workers = make_planners(&planner, jobs)?;
            let interrupt = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
            for signal in [signal_hook::consts::SIGINT, signal_hook::consts::SIGTERM] {
                // a second signal ends the process at once
                signal_hook::flag::register_conditional_shutdown(signal, 130, interrupt.clone())
                    .and_then(|_| signal_hook::flag::register(signal, interrupt.clone()))
                    .map_err(|e| CliError::new(format!("cannot handle signals: {e}")))?;
            }
            let options = EvalOptions {
                out: out.clone(),
                dataset: Some(dataset.clone()),
                limit,
                progress: !no_progress,
                conversations: Some(conversations),
                resume: resuming,
                force,
                interrupt: Some(interrupt),
            };
            let examples = finkg::dataset::stream_file(&dataset)?;
            let summary = match live.as_mut() {
                Some(observer) => eval::run_with(examples, workers, &options, observer),
                None => eval::run(examples, workers, &options),
            }?;
            let mut stdout = io::stdout().lock();
            if summary.interrupted {
                writeln!(
                    stdout,
                    "interrupted after {} conversations; finish with: finkg eval --resume {}",
                    summary.conversations,
                    out.display()
                )?;
                return Ok(ExitCode::from(130));
            }
            write!(stdout, "{}", eval::report(&summary))?;
            writeln!(stdout, "\nrun folder: {}", out.display())?;
            if let Some(live) = live {
                let exported = mongo::finish_live(live, &out)?;
                writeln!(stdout, "{exported}")?;
            }
            Ok(eval_exit(&summary))
        }
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
        } => match (queries, sparql) {
            (Some(queries), _) => query_batch(&file, &queries),
            (None, Some(sparql)) => query(&file, id.as_deref(), &sparql, format),
            (None, None) => Err(CliError::new("give a query or --queries")),
        },
        Command::Ontology { action } => match action {
            OntologyAction::Build { dataset, out } => ontology::build(&dataset, &out),
            OntologyAction::Check { dir } => ontology::check(&dir),
        },
    }
}

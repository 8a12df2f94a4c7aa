//! The `finkg` command line: each subcommand calls into the library and
//! prints; errors are printed once, here, as `error: ...` with their causes.
//!
//! `solve --json` prints JSON Lines, one object a turn:
//! `{"id": "...", "turn": 0, "question": "...", "answer": 60.94, "error": null}`
//! (`answer` a number, "yes"/"no" or null; `error` null or the reason).

use clap::{Args, Parser, Subcommand, ValueEnum};
use finkg::dataset::{self, Conversation, Example};
use finkg::eval::{self, EvalOptions};
use finkg::kg::{export_pages, ExportFormat, GuardedQuery, KgStore, QueryOutput};
use finkg::llm::{LlmConfig, LlmPlanner, LlmShared};
use finkg::pipeline::{Planners, Session};
use finkg::plan::RulesPlanner;
use finkg::planner::Planner;
use finkg::trace::{error_chain, TurnTrace};
use finkg::turn::Usage;
use oxigraph::model::{Term, Variable};
use oxigraph::sparql::results::{QueryResultsFormat, QueryResultsSerializer};
use std::collections::HashMap;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

/// Answers conversational numerical questions about financial report pages
/// by turning each page into an RDF knowledge graph and planning every
/// answer as SPARQL look-ups plus an exact formula.
#[derive(Parser)]
#[command(name = "finkg", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// Which planner turns questions into plans.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum PlannerKind {
    /// Deterministic rules read from the ontology: offline, free, instant.
    Rules,
    /// A language model behind an OpenAI-compatible chat-completions API
    /// (see the LLM options).
    Llm,
}

/// The planner a failed turn falls back to.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum FallbackKind {
    /// The rules planner.
    Rules,
}

/// Which planner plans the turns, and its settings.
#[derive(Args, Clone)]
struct PlannerArgs {
    /// The planner that plans each turn. `llm` calls the network; nothing
    /// else does.
    #[arg(long, value_enum, default_value = "rules")]
    planner: PlannerKind,
    /// When the LLM planner fails a turn, let this planner answer it; the
    /// trace keeps the LLM's exchanges and says why (`fallback`).
    #[arg(long, value_enum, value_name = "PLANNER")]
    fallback: Option<FallbackKind>,
    /// Match questions against row labels only, not also the learned
    /// lexicon's synonyms (ontology/lexicon.ttl).
    #[arg(long)]
    no_lexicon: bool,
    #[command(flatten)]
    llm: LlmArgs,
}

/// Settings of the LLM planner. The API key is read from `OPENAI_API_KEY`
/// (optional: local servers need none).
#[derive(Args, Clone)]
#[command(next_help_heading = "LLM planner (--planner llm)")]
struct LlmArgs {
    /// Base URL of the OpenAI-compatible API, up to `/v1`: OpenAI,
    /// a vLLM or llama.cpp server (`http://127.0.0.1:8000/v1`), Ollama
    /// (`http://127.0.0.1:11434/v1`), LM Studio, a gateway. The API key,
    /// if the server needs one, is read from OPENAI_API_KEY.
    #[arg(
        long,
        env = "OPENAI_BASE_URL",
        default_value = "https://api.openai.com/v1"
    )]
    llm_base_url: String,
    /// The model name the server knows.
    #[arg(long, value_name = "MODEL", env = "FINKG_LLM_MODEL")]
    llm_model: Option<String>,
    /// Sampling temperature.
    #[arg(long, value_name = "T", default_value_t = 0.0)]
    llm_temperature: f64,
    /// `max_tokens` of each request (the server's default when not given).
    #[arg(long, value_name = "N")]
    llm_max_tokens: Option<u32>,
    /// Do not ask for `response_format: json_object` (for servers that
    /// refuse it); the reply is still read as JSON.
    #[arg(long)]
    llm_no_json_mode: bool,
    /// Time limit of one HTTP request, in seconds.
    #[arg(long, value_name = "SECONDS", default_value_t = 60.0)]
    llm_timeout: f64,
    /// Retries of a request after a timeout, a connection error, 429 or
    /// 5xx, with exponential backoff and jitter (`Retry-After` honoured).
    #[arg(long, value_name = "N", default_value_t = 4)]
    llm_retries: u32,
    /// First backoff delay in milliseconds; it doubles each retry (up to 30 s).
    #[arg(long, value_name = "MS", default_value_t = 500)]
    llm_backoff_ms: u64,
    /// Unusable replies (not JSON, missing fields, a refused SPARQL or
    /// one that binds nothing, a formula that does not parse) sent back to
    /// the model with their error before the turn fails.
    #[arg(long, value_name = "N", default_value_t = 2)]
    llm_repairs: u32,
    /// The reply cache folder [default: $XDG_CACHE_HOME/finkg/llm or
    /// ~/.cache/finkg/llm]. A rerun of the same prompts is answered from it
    /// without a request.
    #[arg(long, value_name = "DIR")]
    llm_cache: Option<PathBuf>,
    /// Neither read nor write the reply cache.
    #[arg(long, conflicts_with = "llm_cache")]
    no_llm_cache: bool,
    /// A folder of edited prompt templates (system.j2, phase1.j2,
    /// phase2.j2, repair.j2) to use instead of the built-in ones.
    #[arg(long, value_name = "DIR", env = "FINKG_PROMPTS")]
    llm_prompts: Option<PathBuf>,
    /// Wall-clock limit of one turn (both phases, retries included), in seconds.
    #[arg(long, value_name = "SECONDS")]
    llm_turn_time_limit: Option<f64>,
    /// Wall-clock limit of the whole run, in seconds: no request starts
    /// after it and the run stops, keeping what was answered.
    #[arg(long, value_name = "SECONDS")]
    llm_run_time_limit: Option<f64>,
    /// Price of a million prompt tokens, in US dollars.
    #[arg(
        long,
        value_name = "USD",
        env = "FINKG_LLM_PRICE_INPUT",
        default_value_t = 0.0
    )]
    llm_price_input: f64,
    /// Price of a million completion tokens, in US dollars.
    #[arg(
        long,
        value_name = "USD",
        env = "FINKG_LLM_PRICE_OUTPUT",
        default_value_t = 0.0
    )]
    llm_price_output: f64,
    /// Stop the run once this many US dollars are spent (at the prices
    /// above); what was answered is kept.
    #[arg(long, value_name = "USD")]
    llm_budget: Option<f64>,
    /// At most N requests a minute across the run (all `--jobs`).
    #[arg(long, value_name = "N")]
    llm_rpm: Option<u32>,
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
        /// A ConvFinQA file with gold answers.
        dataset: PathBuf,
        /// The run folder to write (created if missing).
        #[arg(long, default_value = "runs/latest")]
        out: PathBuf,
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

#[derive(Clone, Copy, ValueEnum)]
enum ResultsOut {
    /// An aligned text table.
    Table,
    /// SPARQL 1.1 Query Results JSON.
    Json,
    /// SPARQL 1.1 Query Results CSV.
    Csv,
    /// SPARQL 1.1 Query Results TSV.
    Tsv,
}

/// A failure the user should read: the message and its causes, and what
/// to do about it when that is clear.
struct CliError {
    message: String,
    hint: Option<String>,
    /// Stdout was closed (`finkg kg x.json | head`): not an error.
    broken_pipe: bool,
}

impl CliError {
    fn new(message: impl Into<String>) -> Self {
        Self {
            message: message.into(),
            hint: None,
            broken_pipe: false,
        }
    }

    #[cfg(feature = "mongodb")]
    fn with_hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }
}

impl<E: std::error::Error + 'static> From<E> for CliError {
    fn from(e: E) -> Self {
        let mut error = CliError::new(error_chain(&e));
        let mut cause: Option<&(dyn std::error::Error + 'static)> = Some(&e);
        while let Some(c) = cause {
            if let Some(io) = c.downcast_ref::<io::Error>() {
                error.broken_pipe |= io.kind() == io::ErrorKind::BrokenPipe;
            }
            cause = c.source();
        }
        error
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
            eprintln!("error: {message}");
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
        } => solve(&file, json, explain, &questions, &planner),
        Command::Eval {
            dataset,
            out,
            limit,
            no_progress,
            jobs,
            planner,
            mongo_uri,
            mongo_triples,
        } => {
            let mut live = mongo::live(mongo_uri.as_deref(), mongo_triples)?;
            let examples = load(&dataset)?;
            if jobs == 0 {
                return Err(CliError::new("--jobs must be at least 1"));
            }
            let workers = make_planners(&planner, jobs)?;
            let options = EvalOptions {
                out: out.clone(),
                dataset: Some(dataset.clone()),
                limit,
                progress: !no_progress,
            };
            let summary = match live.as_mut() {
                Some(observer) => eval::run_with(&examples, workers, &options, observer),
                None => eval::run(&examples, workers, &options),
            }?;
            let mut stdout = io::stdout().lock();
            write!(stdout, "{}", eval::report(&summary))?;
            writeln!(stdout, "\nrun folder: {}", out.display())?;
            if let Some(live) = live {
                let exported = mongo::finish_live(live, &out)?;
                writeln!(stdout, "{exported}")?;
            }
            Ok(ExitCode::SUCCESS)
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
        Command::Ontology { action } => ontology_command(action),
    }
}

fn ontology_command(action: OntologyAction) -> Result<ExitCode, CliError> {
    match action {
        OntologyAction::Build { dataset, out } => {
            let conversations: Vec<Conversation> = load(&dataset)?
                .into_iter()
                .map(|e| e.conversation)
                .collect();
            let lexicon = finkg::lexicon::learn(&conversations);
            let source = dataset.display().to_string();
            let turtle = finkg::lexicon::to_turtle(&lexicon, &source);
            let concepts = &lexicon.concepts;
            std::fs::write(&out, turtle)
                .map_err(|e| CliError::new(format!("{}: {e}", out.display())))?;
            let alt: usize = concepts.iter().map(|c| c.alt_labels.len()).sum();
            println!(
                "{} concepts with {alt} synonyms from {} reports ({} conversations) written to {} (rebuild to use it)",
                concepts.len(),
                lexicon.reports,
                conversations.len(),
                out.display()
            );
            Ok(ExitCode::SUCCESS)
        }
        OntologyAction::Check { dir } => {
            let report = finkg::ontology::check_dir(&dir)?;
            println!(
                "{}: {} files ({}), {} triples; {} calculation patterns, {} reference phrases, {} scale words, {} lexicon concepts",
                dir.display(),
                report.files.len(),
                report.files.join(", "),
                report.triples,
                report.patterns,
                report.reference_phrases,
                report.scale_words,
                report.concepts
            );
            if report.differs_from_build {
                println!("note: the files differ from those this binary was built with; rebuild to use them");
            }
            if report.undeclared.is_empty() {
                println!("every fk: term used is declared with a label and a comment");
                Ok(ExitCode::SUCCESS)
            } else {
                Err(CliError::new(format!(
                    "fk: terms used without an rdfs:label and an rdfs:comment: {}",
                    report.undeclared.join(", ")
                )))
            }
        }
    }
}

fn seconds(flag: &str, value: f64) -> Result<Duration, CliError> {
    Duration::try_from_secs_f64(value)
        .ok()
        .filter(|d| !d.is_zero())
        .ok_or_else(|| {
            CliError::new(format!(
                "{flag} must be a positive number of seconds, not `{value}`"
            ))
        })
}

/// The reply cache's default folder.
fn default_cache_dir() -> PathBuf {
    let base = std::env::var_os("XDG_CACHE_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| {
            std::env::var_os("HOME")
                .filter(|v| !v.is_empty())
                .map(|h| PathBuf::from(h).join(".cache"))
        });
    match base {
        Some(b) => b.join("finkg").join("llm"),
        None => PathBuf::from(".finkg-cache").join("llm"),
    }
}

fn llm_config(a: &LlmArgs) -> Result<LlmConfig, CliError> {
    let model = a.llm_model.clone().ok_or_else(|| {
        CliError::new("the LLM planner needs a model: pass --llm-model or set FINKG_LLM_MODEL")
    })?;
    let mut c = LlmConfig::new(&a.llm_base_url, &model);
    c.api_key = std::env::var("OPENAI_API_KEY")
        .ok()
        .filter(|k| !k.trim().is_empty());
    c.temperature = a.llm_temperature;
    c.max_tokens = a.llm_max_tokens;
    c.json_mode = !a.llm_no_json_mode;
    c.timeout = seconds("--llm-timeout", a.llm_timeout)?;
    c.retries = a.llm_retries;
    c.backoff = Duration::from_millis(a.llm_backoff_ms);
    c.repairs = a.llm_repairs;
    c.cache_dir = if a.no_llm_cache {
        None
    } else {
        Some(a.llm_cache.clone().unwrap_or_else(default_cache_dir))
    };
    c.prompts_dir = a.llm_prompts.clone();
    c.turn_time_limit = a
        .llm_turn_time_limit
        .map(|s| seconds("--llm-turn-time-limit", s))
        .transpose()?;
    c.run_time_limit = a
        .llm_run_time_limit
        .map(|s| seconds("--llm-run-time-limit", s))
        .transpose()?;
    for (flag, v) in [
        ("--llm-price-input", a.llm_price_input),
        ("--llm-price-output", a.llm_price_output),
    ] {
        if !(v.is_finite() && v >= 0.0) {
            return Err(CliError::new(format!(
                "{flag} must be a price of zero or more, not `{v}`"
            )));
        }
    }
    c.price_input = a.llm_price_input;
    c.price_output = a.llm_price_output;
    c.budget = a.llm_budget;
    c.rpm = a.llm_rpm;
    Ok(c)
}

/// One set of planners for each of `jobs` workers; LLM planners share one
/// cache, rate limiter, budget and clock.
fn make_planners(args: &PlannerArgs, jobs: usize) -> Result<Vec<Planners>, CliError> {
    let rules = || -> Result<Box<dyn Planner + Send>, CliError> {
        Ok(Box::new(
            RulesPlanner::new()?.with_lexicon(!args.no_lexicon),
        ))
    };
    match args.planner {
        PlannerKind::Rules => {
            if args.fallback.is_some() {
                return Err(CliError::new("--fallback is for --planner llm"));
            }
            (0..jobs).map(|_| Ok(Planners::single(rules()?))).collect()
        }
        PlannerKind::Llm => {
            let shared: Arc<LlmShared> = LlmShared::new(llm_config(&args.llm)?)?;
            (0..jobs)
                .map(|_| {
                    Ok(Planners {
                        primary: Box::new(LlmPlanner::new(shared.clone())?),
                        fallback: match args.fallback {
                            Some(FallbackKind::Rules) => Some(rules()?),
                            None => None,
                        },
                    })
                })
                .collect()
        }
    }
}

fn load(path: &Path) -> Result<Vec<Example>, CliError> {
    Ok(dataset::load_file(path)?)
}

/// The conversation of FILE with this id, or its first one.
fn pick_conversation(path: &Path, id: Option<&str>) -> Result<Conversation, CliError> {
    let mut conversations = load(path)?.into_iter().map(|e| e.conversation);
    match id {
        None => conversations
            .next()
            .ok_or_else(|| CliError::new(format!("{}: holds no conversation", path.display()))),
        Some(id) => conversations.find(|c| c.id == id).ok_or_else(|| {
            CliError::new(format!(
                "{}: holds no conversation with id `{id}`",
                path.display()
            ))
        }),
    }
}

fn solve(
    file: &Path,
    json: bool,
    explain: bool,
    questions: &[String],
    planner: &PlannerArgs,
) -> Result<ExitCode, CliError> {
    let mut examples = load(file)?;
    if !questions.is_empty() {
        examples.truncate(1);
    }
    let mut planners = make_planners(planner, 1)?
        .pop()
        .ok_or_else(|| CliError::new("no planner"))?;
    let mut out = io::BufWriter::new(io::stdout().lock());
    let mut usage: Option<Usage> = None;
    let mut stopped = None;
    'conversations: for example in &examples {
        let conv = &example.conversation;
        let asked: &[String] = if questions.is_empty() {
            &conv.questions
        } else {
            questions
        };
        let mut session = match Session::new(conv) {
            Ok(s) => s,
            Err(e) => {
                let reason = format!("the page's graph could not be built: {}", error_chain(&e));
                for (turn, q) in asked.iter().enumerate() {
                    print_turn_failure(&mut out, json, &conv.id, turn, q, &reason)?;
                }
                continue;
            }
        };
        if !json {
            let st = session.stats();
            writeln!(
                out,
                "== {} ({} triples, {} cells, {} text facts)",
                conv.id, st.triples, st.observations, st.text_facts
            )?;
        }
        for q in asked {
            if let Some(reason) = planners.stop_reason() {
                stopped = Some(reason);
                break 'conversations;
            }
            let trace = session.ask_with(&mut planners, q);
            if let Some(u) = &trace.usage {
                usage.get_or_insert_with(Usage::default).add(u);
            }
            print_turn(&mut out, json, explain, &trace)?;
        }
    }
    out.flush()?;
    if let Some(u) = usage {
        eprintln!("llm: {u}");
    }
    if let Some(reason) = stopped {
        eprintln!("stopped early: {reason}");
    }
    Ok(ExitCode::SUCCESS)
}

fn print_turn_failure(
    out: &mut impl Write,
    json: bool,
    id: &str,
    turn: usize,
    question: &str,
    reason: &str,
) -> io::Result<()> {
    if json {
        let line = serde_json::json!({"id": id, "turn": turn, "question": question, "answer": null, "error": reason});
        writeln!(out, "{line}")
    } else {
        writeln!(out, "[{turn}] {question}\n    -> no answer: {reason}")
    }
}

fn print_turn(out: &mut impl Write, json: bool, explain: bool, t: &TurnTrace) -> io::Result<()> {
    if json {
        let mut line = serde_json::json!({
            "id": t.id, "turn": t.turn, "question": t.question, "answer": t.answer, "error": t.error,
        });
        if explain {
            line["plan"] = serde_json::to_value(&t.plan).unwrap_or_default();
            line["values"] = serde_json::to_value(&t.values).unwrap_or_default();
            line["formula"] = serde_json::to_value(&t.formula).unwrap_or_default();
            line["planner"] = t.planner.clone().into();
            if let Some(f) = &t.fallback {
                line["fallback"] = f.clone().into();
            }
            if !t.llm.is_empty() {
                line["llm"] = serde_json::to_value(&t.llm).unwrap_or_default();
                line["usage"] = serde_json::to_value(t.usage).unwrap_or_default();
            }
        }
        return writeln!(out, "{line}");
    }
    match (&t.answer, &t.error) {
        (Some(a), _) => writeln!(out, "[{}] {}\n    -> {a}", t.turn, t.question)?,
        (None, Some(e)) => writeln!(out, "[{}] {}\n    -> no answer: {e}", t.turn, t.question)?,
        (None, None) => writeln!(out, "[{}] {}\n    -> no answer", t.turn, t.question)?,
    }
    if explain {
        if let Some(f) = &t.fallback {
            writeln!(out, "    fallback: {f}; answered by {}", t.planner)?;
        }
        print_exchanges(out, t)?;
        if let Some(plan) = &t.plan {
            writeln!(
                out,
                "    plan: {} {}{}",
                plan.metric_type.clone().unwrap_or_default(),
                plan.entity
                    .as_deref()
                    .map(|e| format!("of `{e}`"))
                    .unwrap_or_default(),
                plan.period
                    .as_deref()
                    .map(|p| format!(" ({p})"))
                    .unwrap_or_default()
            )?;
            for (name, spec) in &plan.values {
                match spec {
                    finkg::turn::ValueSpec::Sparql {
                        sparql,
                        description,
                    } => {
                        writeln!(out, "    {name}: SPARQL — {description}")?;
                        for line in sparql.lines().filter(|l| !l.starts_with("PREFIX")) {
                            writeln!(out, "        {line}")?;
                        }
                    }
                    finkg::turn::ValueSpec::Reference(r) => writeln!(out, "    {name}: {r}")?,
                    finkg::turn::ValueSpec::Constant(c) => {
                        writeln!(out, "    {name}: constant {c}")?
                    }
                }
            }
        }
        for v in &t.values {
            writeln!(out, "    {} = {}  from {}", v.name, v.value, v.source)?;
        }
        if let Some(f) = &t.formula {
            writeln!(out, "    formula: {f}")?;
        }
    }
    Ok(())
}

/// The LLM exchanges of a turn, prompt and reply indented under a header line.
fn print_exchanges(out: &mut impl Write, t: &TurnTrace) -> io::Result<()> {
    for e in &t.llm {
        let tokens = match (e.prompt_tokens, e.completion_tokens) {
            (Some(p), Some(c)) => format!("{p} + {c} tokens"),
            _ => "tokens not reported".into(),
        };
        writeln!(
            out,
            "    llm {} attempt {}: {tokens}, {} ms, {} retries, ${:.4}{}",
            e.phase,
            e.attempt,
            e.latency_ms,
            e.retries,
            e.cost_usd,
            if e.cache_hit { ", from the cache" } else { "" }
        )?;
        writeln!(out, "      prompt:")?;
        for line in e.prompt.lines() {
            writeln!(out, "        {line}")?;
        }
        if let Some(reply) = &e.reply {
            writeln!(out, "      reply:")?;
            for line in reply.lines() {
                writeln!(out, "        {line}")?;
            }
        }
        if let Some(error) = &e.error {
            writeln!(out, "      error: {error}")?;
        }
    }
    if let Some(u) = &t.usage {
        writeln!(out, "    llm usage: {u}")?;
    }
    Ok(())
}

/// `query --queries`: every query of a JSON Lines file, each against its
/// conversation's graph (built once for a run of lines with the same id).
fn query_batch(file: &Path, queries: &Path) -> Result<ExitCode, CliError> {
    let conversations: HashMap<String, Conversation> = load(file)?
        .into_iter()
        .map(|e| (e.conversation.id.clone(), e.conversation))
        .collect();
    let text = std::fs::read_to_string(queries)
        .map_err(|e| CliError::new(format!("{}: {e}", queries.display())))?;
    let mut out = io::BufWriter::new(io::stdout().lock());
    let mut current: Option<(String, KgStore)> = None;
    for (n, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let place = || format!("{}: line {}", queries.display(), n + 1);
        let mut job: serde_json::Map<String, serde_json::Value> = serde_json::from_str(line)
            .map_err(|e| CliError::new(format!("{}: not a JSON object: {e}", place())))?;
        let field = |key: &str| {
            job.get(key)
                .and_then(serde_json::Value::as_str)
                .map(str::to_string)
                .ok_or_else(|| CliError::new(format!("{}: `{key}` must be a string", place())))
        };
        let (id, sparql) = (field("id")?, field("sparql")?);
        let result = (|| -> Result<serde_json::Value, String> {
            if current.as_ref().is_none_or(|(cur, _)| *cur != id) {
                let conversation = conversations
                    .get(&id)
                    .ok_or_else(|| format!("no conversation with id `{id}`"))?;
                let kg = KgStore::build(conversation).map_err(|e| error_chain(&e))?;
                current = Some((id.clone(), kg));
            }
            let kg = &current.as_ref().expect("built above").1;
            let text = format!("{}{sparql}", finkg::vocab::sparql_prefixes());
            let query = GuardedQuery::parse(&text).map_err(|e| error_chain(&e))?;
            let output = kg.query(&query).map_err(|e| error_chain(&e))?;
            let mut json = Vec::new();
            write_results(&mut json, output, QueryResultsFormat::Json)
                .map_err(|e| error_chain(&e))?;
            serde_json::from_slice(&json).map_err(|e| e.to_string())
        })();
        match result {
            Ok(results) => job.insert("results".into(), results),
            Err(reason) => job.insert("error".into(), reason.into()),
        };
        writeln!(out, "{}", serde_json::Value::Object(job))?;
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// Writes query results in one of the SPARQL 1.1 results formats.
fn write_results(
    out: &mut impl Write,
    output: QueryOutput,
    format: QueryResultsFormat,
) -> io::Result<()> {
    match output {
        QueryOutput::Boolean(b) => {
            QueryResultsSerializer::from_format(format).serialize_boolean_to_writer(out, b)?;
        }
        QueryOutput::Solutions { variables, rows } => {
            let vars: Vec<Variable> = variables
                .iter()
                .map(|v| Variable::new_unchecked(v.as_str()))
                .collect();
            let mut ser = QueryResultsSerializer::from_format(format)
                .serialize_solutions_to_writer(out, vars.clone())?;
            for row in &rows {
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

fn query(
    file: &Path,
    id: Option<&str>,
    sparql: &str,
    format: ResultsOut,
) -> Result<ExitCode, CliError> {
    let conversation = pick_conversation(file, id)?;
    let kg = KgStore::build(&conversation)?;
    let text = format!("{}{sparql}", finkg::vocab::sparql_prefixes());
    let query = GuardedQuery::parse(&text)?;
    let output = kg.query(&query)?;
    let mut out = io::BufWriter::new(io::stdout().lock());
    let results_format = match format {
        ResultsOut::Table => None,
        ResultsOut::Json => Some(QueryResultsFormat::Json),
        ResultsOut::Csv => Some(QueryResultsFormat::Csv),
        ResultsOut::Tsv => Some(QueryResultsFormat::Tsv),
    };
    match (output, results_format) {
        (QueryOutput::Boolean(b), None) => writeln!(out, "{b}")?,
        (output, Some(f)) => write_results(&mut out, output, f)?,
        (QueryOutput::Solutions { variables, rows }, None) => {
            let cells: Vec<Vec<String>> = rows
                .iter()
                .map(|r| {
                    r.iter()
                        .map(|t| t.as_ref().map(show_term).unwrap_or_default())
                        .collect()
                })
                .collect();
            let widths: Vec<usize> = variables
                .iter()
                .enumerate()
                .map(|(i, v)| {
                    cells
                        .iter()
                        .map(|r| r[i].chars().count())
                        .max()
                        .unwrap_or(0)
                        .max(v.len() + 1)
                })
                .collect();
            let line = |vals: Vec<String>| {
                vals.iter()
                    .zip(&widths)
                    .map(|(v, w)| format!("{v:<w$}"))
                    .collect::<Vec<_>>()
                    .join(" | ")
                    .trim_end()
                    .to_string()
            };
            writeln!(
                out,
                "{}",
                line(variables.iter().map(|v| format!("?{v}")).collect())
            )?;
            writeln!(
                out,
                "{}",
                widths
                    .iter()
                    .map(|w| "-".repeat(*w))
                    .collect::<Vec<_>>()
                    .join("-+-")
            )?;
            for r in cells {
                writeln!(out, "{}", line(r))?;
            }
            writeln!(out, "({} rows)", rows.len())?;
        }
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

fn show_term(t: &Term) -> String {
    match t {
        Term::Literal(l) => l.value().to_string(),
        other => other.to_string(),
    }
}

/// `eval --mongo-uri` and `export`, with the `mongodb` feature.
#[cfg(feature = "mongodb")]
mod mongo {
    use super::{load, CliError};
    use finkg::eval::RunFolder;
    use finkg::mongo::{export_folder, ExportOptions, MongoError, MongoObserver, MongoTarget};
    use std::io::Write;
    use std::path::{Path, PathBuf};
    use std::process::ExitCode;

    /// The live exporter of `eval`, when a URI is given.
    pub(crate) fn live(
        uri: Option<&str>,
        triples: bool,
    ) -> Result<Option<MongoObserver>, CliError> {
        let Some(uri) = uri else {
            if triples {
                return Err(CliError::new(
                    "`--mongo-triples` needs `--mongo-uri` (or FINKG_MONGO_URI)",
                ));
            }
            return Ok(None);
        };
        let target = MongoTarget::parse(uri)?;
        let options = ExportOptions {
            triples,
            ..ExportOptions::default()
        };
        Ok(Some(MongoObserver::start(&target, &options)))
    }

    /// Waits for the live export; on failure, says how to export the run later.
    pub(crate) fn finish_live(live: MongoObserver, out: &Path) -> Result<String, CliError> {
        live.finish().map(|r| r.to_string()).map_err(|e| {
            let hint = match &e {
                MongoError::Incomplete { uri: shown, .. } => format!(
                    "the run folder `{}` is complete: export it once the server is back with `finkg export {} --mongo-uri '{}'`",
                    out.display(),
                    out.display(),
                    shown
                ),
                _ => format!("export the run folder later with `finkg export {}`", out.display()),
            };
            CliError::from(e).with_hint(hint)
        })
    }

    /// `finkg export RUN_DIR`.
    pub(crate) fn export(
        run_dir: &Path,
        uri: Option<&str>,
        triples: bool,
        dataset: Option<&Path>,
        batch_size: usize,
    ) -> Result<ExitCode, CliError> {
        let uri = uri.ok_or_else(|| {
            CliError::new("`finkg export` needs `--mongo-uri URI` (or FINKG_MONGO_URI)")
        })?;
        let folder = RunFolder::read(run_dir)?;
        let target = MongoTarget::parse(uri)?;
        let examples = if triples {
            let path = dataset
                .map(Path::to_path_buf)
                .or_else(|| folder.run.dataset.as_ref().map(PathBuf::from))
                .ok_or_else(|| {
                    CliError::new(
                        "`--mongo-triples` needs the dataset: run.json names none, give `--dataset`",
                    )
                })?;
            Some((path.display().to_string(), load(&path)?))
        } else {
            None
        };
        let options = ExportOptions {
            triples,
            batch_size,
        };
        let dataset = examples
            .as_ref()
            .map(|(name, e)| (name.as_str(), e.as_slice()));
        let report = export_folder(&folder, &target, &options, dataset).map_err(|e| {
            let incomplete = matches!(e, MongoError::Incomplete { .. });
            let error = CliError::from(e);
            if incomplete {
                error.with_hint(format!(
                    "exporting again is safe (documents are upserted by key): once the server is back, run `finkg export {} --mongo-uri '{}'`",
                    run_dir.display(),
                    target.shown()
                ))
            } else {
                error
            }
        })?;
        writeln!(std::io::stdout().lock(), "{report}")?;
        Ok(ExitCode::SUCCESS)
    }
}

/// Without the `mongodb` feature: MongoDB options are refused.
#[cfg(not(feature = "mongodb"))]
mod mongo {
    use super::CliError;
    use finkg::eval::RunObserver;
    use std::path::Path;
    use std::process::ExitCode;

    const NEEDS_FEATURE: &str =
        "MongoDB export needs the mongodb feature: cargo install/build --features mongodb";

    /// Stands for the live exporter; never built.
    pub(crate) enum Never {}

    impl RunObserver for Never {}

    fn refuse() -> CliError {
        CliError::new(NEEDS_FEATURE)
    }

    pub(crate) fn live(uri: Option<&str>, triples: bool) -> Result<Option<Never>, CliError> {
        if uri.is_some() || triples {
            return Err(refuse());
        }
        Ok(None)
    }

    pub(crate) fn finish_live(live: Never, _: &Path) -> Result<String, CliError> {
        match live {}
    }

    pub(crate) fn export(
        _: &Path,
        _: Option<&str>,
        _: bool,
        _: Option<&Path>,
        _: usize,
    ) -> Result<ExitCode, CliError> {
        Err(refuse())
    }
}

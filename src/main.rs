//! The `finkg` command line: each subcommand calls into the library and
//! prints; errors are printed once, here, as `error: ...` with their causes.
//!
//! `solve --json` prints JSON Lines, one object a turn:
//! `{"id": "...", "turn": 0, "question": "...", "answer": 60.94, "error": null}`
//! (`answer` a number, "yes"/"no" or null; `error` null or the reason).

use clap::{Parser, Subcommand, ValueEnum};
use finkg::dataset::{self, Conversation, Example};
use finkg::eval::{self, EvalOptions};
use finkg::kg::{ExportFormat, GuardedQuery, KgStore, QueryOutput};
use finkg::pipeline::Session;
use finkg::plan::{Planner, RulesPlanner};
use finkg::trace::{error_chain, TurnTrace};
use oxigraph::model::{Term, Variable};
use oxigraph::sparql::results::{QueryResultsFormat, QueryResultsSerializer};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

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
#[derive(Clone, Copy, ValueEnum)]
enum PlannerKind {
    /// Deterministic rules read from the ontology: offline, free, instant.
    Rules,
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
        /// sentence, and formula.
        #[arg(long)]
        explain: bool,
        /// Ask this question (repeatable) over the file's first conversation
        /// instead of the file's own questions.
        #[arg(long = "question", value_name = "QUESTION")]
        questions: Vec<String>,
        /// The planner that plans each turn.
        #[arg(long, value_enum, default_value = "rules")]
        planner: PlannerKind,
        /// Match questions against row labels only, not also the learned
        /// lexicon's synonyms (ontology/lexicon.ttl).
        #[arg(long)]
        no_lexicon: bool,
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
        /// The planner that plans each turn.
        #[arg(long, value_enum, default_value = "rules")]
        planner: PlannerKind,
        /// Match questions against row labels only, not also the learned
        /// lexicon's synonyms (ontology/lexicon.ttl).
        #[arg(long)]
        no_lexicon: bool,
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
    /// Write the TBox and the first conversation's ABox as RDF.
    Kg {
        /// A ConvFinQA file.
        file: PathBuf,
        /// The RDF serialisation (N-Quads keeps the TBox and ABox named graphs).
        #[arg(long, value_enum, default_value = "turtle")]
        format: RdfOut,
    },
    /// Run a SPARQL SELECT or ASK query against the first conversation's
    /// graph (guarded: no SERVICE, no updates, bounded results).
    Query {
        /// A ConvFinQA file.
        file: PathBuf,
        /// The query. Prefixes fk:, qb:, skos:, prov:, dcterms:, rdf:, rdfs:,
        /// xsd: and owl: are predeclared.
        sparql: String,
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
    /// N-Quads, TBox and ABox each in its named graph.
    Nquads,
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
            no_lexicon,
        } => solve(&file, json, explain, &questions, planner, no_lexicon),
        Command::Eval {
            dataset,
            out,
            limit,
            no_progress,
            planner,
            no_lexicon,
            mongo_uri,
            mongo_triples,
        } => {
            let mut live = mongo::live(mongo_uri.as_deref(), mongo_triples)?;
            let examples = load(&dataset)?;
            let mut planner = make_planner(planner, no_lexicon)?;
            let options = EvalOptions {
                out: out.clone(),
                dataset: Some(dataset.clone()),
                limit,
                progress: !no_progress,
            };
            let summary = match live.as_mut() {
                Some(observer) => eval::run_with(&examples, planner.as_mut(), &options, observer),
                None => eval::run(&examples, planner.as_mut(), &options),
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
        Command::Kg { file, format } => {
            let conversation = first_conversation(&file)?;
            let kg = KgStore::build(&conversation)?;
            let format = match format {
                RdfOut::Turtle => ExportFormat::Turtle,
                RdfOut::Ntriples => ExportFormat::NTriples,
                RdfOut::Nquads => ExportFormat::NQuads,
            };
            let stdout = io::stdout().lock();
            kg.export(format, io::BufWriter::new(stdout))?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Query {
            file,
            sparql,
            format,
        } => query(&file, &sparql, format),
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

fn make_planner(kind: PlannerKind, no_lexicon: bool) -> Result<Box<dyn Planner>, CliError> {
    match kind {
        PlannerKind::Rules => Ok(Box::new(RulesPlanner::new()?.with_lexicon(!no_lexicon))),
    }
}

fn load(path: &Path) -> Result<Vec<Example>, CliError> {
    Ok(dataset::load_file(path)?)
}

fn first_conversation(path: &Path) -> Result<Conversation, CliError> {
    load(path)?
        .into_iter()
        .next()
        .map(|e| e.conversation)
        .ok_or_else(|| CliError::new(format!("{}: holds no conversation", path.display())))
}

fn solve(
    file: &Path,
    json: bool,
    explain: bool,
    questions: &[String],
    planner: PlannerKind,
    no_lexicon: bool,
) -> Result<ExitCode, CliError> {
    let mut examples = load(file)?;
    if !questions.is_empty() {
        examples.truncate(1);
    }
    let mut planner = make_planner(planner, no_lexicon)?;
    let mut out = io::BufWriter::new(io::stdout().lock());
    for example in &examples {
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
            let trace = session.ask(planner.as_mut(), q);
            print_turn(&mut out, json, explain, &trace)?;
        }
    }
    out.flush()?;
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
        }
        return writeln!(out, "{line}");
    }
    match (&t.answer, &t.error) {
        (Some(a), _) => writeln!(out, "[{}] {}\n    -> {a}", t.turn, t.question)?,
        (None, Some(e)) => writeln!(out, "[{}] {}\n    -> no answer: {e}", t.turn, t.question)?,
        (None, None) => writeln!(out, "[{}] {}\n    -> no answer", t.turn, t.question)?,
    }
    if explain {
        if let Some(plan) = &t.plan {
            writeln!(
                out,
                "    plan: {} {}{}",
                plan.metric_type.as_deref().unwrap_or("value"),
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
                    finkg::plan::ValueSpec::Sparql {
                        sparql,
                        description,
                    } => {
                        writeln!(out, "    {name}: SPARQL — {description}")?;
                        for line in sparql.lines().filter(|l| !l.starts_with("PREFIX")) {
                            writeln!(out, "        {line}")?;
                        }
                    }
                    finkg::plan::ValueSpec::Reference(r) => writeln!(out, "    {name}: {r}")?,
                    finkg::plan::ValueSpec::Constant(c) => {
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

fn query(file: &Path, sparql: &str, format: ResultsOut) -> Result<ExitCode, CliError> {
    let conversation = first_conversation(file)?;
    let kg = KgStore::build(&conversation)?;
    let text = format!("{}{sparql}", finkg::kg::vocab::sparql_prefixes());
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
        (QueryOutput::Boolean(b), Some(f)) => {
            QueryResultsSerializer::from_format(f).serialize_boolean_to_writer(&mut out, b)?;
        }
        (QueryOutput::Solutions { variables, rows }, Some(f)) => {
            let vars: Vec<Variable> = variables
                .iter()
                .map(|v| Variable::new_unchecked(v.as_str()))
                .collect();
            let mut ser = QueryResultsSerializer::from_format(f)
                .serialize_solutions_to_writer(&mut out, vars.clone())?;
            for row in &rows {
                ser.serialize(
                    vars.iter()
                        .zip(row)
                        .filter_map(|(v, t)| t.as_ref().map(|t| (v.as_ref(), t.as_ref()))),
                )?;
            }
            ser.finish()?;
        }
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

//! The `finkg` command line: each subcommand calls into the library and
//! prints; errors are printed once, here, as `error: ...` with their causes.
//!
//! `solve --json` prints JSON Lines, one object a turn:
//! `{"id": "...", "turn": 0, "question": "...", "answer": 60.94, "error": null}`
//! (`answer` a number, "yes"/"no" or null; `error` null or the reason).

use clap::{Parser, Subcommand, ValueEnum};
use finkg::dataset::{self, Conversation, Example};
use finkg::eval::{self, EvalOptions};
use finkg::kg::{export_pages, ExportFormat, GuardedQuery, KgStore, QueryOutput};
use finkg::pipeline::Session;
use finkg::plan::{Planner, RulesPlanner};
use finkg::trace::{error_chain, TurnTrace};
use oxigraph::model::{Term, Variable};
use oxigraph::sparql::results::{QueryResultsFormat, QueryResultsSerializer};
use std::collections::HashMap;
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

/// A failure the user should read: the message and its causes.
struct CliError(String);

impl<E: std::error::Error + 'static> From<E> for CliError {
    fn from(e: E) -> Self {
        CliError(error_chain(&e))
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => code,
        Err(CliError(message)) => {
            if message.contains("Broken pipe") {
                return ExitCode::SUCCESS;
            }
            eprintln!("error: {message}");
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
        } => solve(&file, json, explain, &questions, planner),
        Command::Eval {
            dataset,
            out,
            limit,
            no_progress,
            planner,
        } => {
            let examples = load(&dataset)?;
            let mut planner = make_planner(planner)?;
            let options = EvalOptions {
                out: out.clone(),
                limit,
                progress: !no_progress,
            };
            let summary = eval::run(&examples, planner.as_mut(), &options)?;
            let mut stdout = io::stdout().lock();
            write!(stdout, "{}", eval::report(&summary))?;
            writeln!(stdout, "\nrun folder: {}", out.display())?;
            Ok(ExitCode::SUCCESS)
        }
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
                .map_err(|e| CliError(format!("{}: {}", file.display(), error_chain(&e))))?;
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
            (None, None) => Err(CliError("give a query or --queries".into())),
        },
    }
}

fn make_planner(kind: PlannerKind) -> Result<Box<dyn Planner>, CliError> {
    match kind {
        PlannerKind::Rules => Ok(Box::new(RulesPlanner::new()?)),
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
            .ok_or_else(|| CliError(format!("{}: holds no conversation", path.display()))),
        Some(id) => conversations.find(|c| c.id == id).ok_or_else(|| {
            CliError(format!(
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
    planner: PlannerKind,
) -> Result<ExitCode, CliError> {
    let mut examples = load(file)?;
    if !questions.is_empty() {
        examples.truncate(1);
    }
    let mut planner = make_planner(planner)?;
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

/// `query --queries`: every query of a JSON Lines file, each against its
/// conversation's graph (built once for a run of lines with the same id).
fn query_batch(file: &Path, queries: &Path) -> Result<ExitCode, CliError> {
    let conversations: HashMap<String, Conversation> = load(file)?
        .into_iter()
        .map(|e| (e.conversation.id.clone(), e.conversation))
        .collect();
    let text = std::fs::read_to_string(queries)
        .map_err(|e| CliError(format!("{}: {e}", queries.display())))?;
    let mut out = io::BufWriter::new(io::stdout().lock());
    let mut current: Option<(String, KgStore)> = None;
    for (n, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let place = || format!("{}: line {}", queries.display(), n + 1);
        let mut job: serde_json::Map<String, serde_json::Value> = serde_json::from_str(line)
            .map_err(|e| CliError(format!("{}: not a JSON object: {e}", place())))?;
        let field = |key: &str| {
            job.get(key)
                .and_then(serde_json::Value::as_str)
                .map(str::to_string)
                .ok_or_else(|| CliError(format!("{}: `{key}` must be a string", place())))
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
            let text = format!("{}{sparql}", finkg::kg::vocab::sparql_prefixes());
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

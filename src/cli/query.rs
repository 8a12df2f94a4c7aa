//! `finkg query`: a guarded SPARQL query against a conversation's graph,
//! printed as a table or a SPARQL 1.1 results format, or a JSON Lines
//! batch of queries, each against its conversation's graph.

use super::{load, pick_conversation, CliError};
use crate::dataset::Conversation;
use crate::kg::{GuardedQuery, KgStore, PageSource, QueryOutput};
use crate::trace::error_chain;
use clap::ValueEnum;
use oxigraph::model::Term;
use oxigraph::sparql::results::QueryResultsFormat;
use std::collections::HashMap;
use std::io::{self, Write};
use std::path::Path;
use std::process::ExitCode;

/// How `query` prints its results.
#[derive(Clone, Copy, ValueEnum)]
pub enum ResultsOut {
    /// An aligned text table.
    Table,
    /// SPARQL 1.1 Query Results JSON.
    Json,
    /// SPARQL 1.1 Query Results CSV.
    Csv,
    /// SPARQL 1.1 Query Results TSV.
    Tsv,
}

/// `query --queries`: every query of a JSON Lines file, each against its
/// conversation's graph (built once for a run of lines with the same id).
pub fn query_batch(file: &Path, queries: &Path, source: &PageSource) -> Result<ExitCode, CliError> {
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
                let kg = KgStore::open(conversation, source).map_err(|e| error_chain(&e))?;
                current = Some((id.clone(), kg));
            }
            let kg = &current.as_ref().expect("built above").1;
            let text = format!("{}{sparql}", crate::vocab::sparql_prefixes());
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
pub fn write_results(
    out: &mut impl Write,
    output: QueryOutput,
    format: QueryResultsFormat,
) -> io::Result<()> {
    output.write(out, format)
}

/// `query`: one query against a conversation's graph, printed as a table or
/// in a SPARQL 1.1 results format.
pub fn query(
    file: &Path,
    id: Option<&str>,
    sparql: &str,
    format: ResultsOut,
    source: &PageSource,
) -> Result<ExitCode, CliError> {
    let conversation = pick_conversation(file, id)?;
    let kg = KgStore::open(&conversation, source)?;
    let output = run_query(&kg, sparql)?;
    let mut out = io::BufWriter::new(io::stdout().lock());
    let results_format = match format {
        ResultsOut::Table => None,
        ResultsOut::Json => Some(QueryResultsFormat::Json),
        ResultsOut::Csv => Some(QueryResultsFormat::Csv),
        ResultsOut::Tsv => Some(QueryResultsFormat::Tsv),
    };
    match (output, results_format) {
        (QueryOutput::Boolean(b), None) => writeln!(out, "{b}")?,
        (output, Some(f)) => {
            write_results(&mut out, output, f)?;
            if f == QueryResultsFormat::Json {
                // the serializer ends without one
                writeln!(out)?;
            }
        }
        (output, None) => write_table(&mut out, output)?,
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// Runs a query (the finkg prefixes predeclared) through the guard
/// against a page's graph.
pub fn run_query(kg: &KgStore, sparql: &str) -> Result<QueryOutput, CliError> {
    let text = format!("{}{sparql}", crate::vocab::sparql_prefixes());
    let query = GuardedQuery::parse(&text)?;
    Ok(kg.query(&query)?)
}

/// Writes query results as a readable table (`true`/`false` for ASK).
pub fn write_table(out: &mut impl Write, output: QueryOutput) -> io::Result<()> {
    match output {
        QueryOutput::Boolean(b) => writeln!(out, "{b}")?,
        QueryOutput::Solutions { variables, rows } => {
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
    Ok(())
}

fn show_term(t: &Term) -> String {
    match t {
        Term::Literal(l) => l.value().to_string(),
        other => other.to_string(),
    }
}

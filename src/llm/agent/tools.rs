//! The agent's tools: their JSON-schema definitions ([`definitions`], sent
//! as the request's `tools`) and what each does ([`run`]).
//!
//! - `query_kg {"sparql"}` — a SELECT or ASK over the page's graph, through
//!   [`GuardedQuery`] and the store's limits (the turn's [`crate::planner::PlanCheck`]);
//!   the bindings as JSON, at most [`MAX_ROWS`] rows, each row with the
//!   source of the page node it bound (a cell's row and column, a
//!   sentence);
//! - `list_entities {"kind": "rows" | "columns" | "text_facts" | "all"}` —
//!   labels with their IRIs, years and scales, from the page's [`crate::kg::Schema`];
//! - `introspect_ontology {}` — the TBox's classes and properties (read by
//!   SPARQL from the TBox store) and the calculation patterns of
//!   [`crate::ontology`];
//! - `calculate {"formula", "values"}` — the exact decimal evaluator of
//!   [`crate::exec::formula`];
//! - `answer {"values", "formula", ...}` — the turn's Phase 1 and Phase 2
//!   contract ([`crate::turn::contract`]), read by [`super::super::reply`],
//!   bound and evaluated through the `PlanCheck` exactly as the pipeline
//!   will: an accepted answer ends the turn.
//!
//! A tool's failure is an `Err` sentence meant for the model (it goes back
//! as the tool's result); no tool panics on any argument.

use super::super::reply;
use crate::exec::formula::{Formula, FormulaValue};
use crate::kg::schema::label_scale;
use crate::kg::{GuardedQuery, KgStore, QueryOutput};
use crate::ontology;
use crate::planner::TurnContext;
use crate::turn::{Phase2, Plan};
use crate::vocab;
use oxigraph::model::Term;
use rust_decimal::Decimal;
use serde_json::{json, Map, Value};
use std::str::FromStr;
use std::sync::OnceLock;

/// Rows of a `query_kg` result shown to the model; the rest are counted.
pub const MAX_ROWS: usize = 20;

/// Characters of a tool's result shown to the model; longer lists are cut
/// (whole entries) and the cut counted.
pub const MAX_RESULT_CHARS: usize = 12_000;

/// The tools' names, in the order they are offered.
pub const NAMES: [&str; 5] = [
    "query_kg",
    "list_entities",
    "introspect_ontology",
    "calculate",
    "answer",
];

/// What a tool call came to.
#[derive(Debug)]
pub enum Outcome {
    /// The tool's result, sent back to the model.
    Result(String),
    /// `answer` accepted: the turn's plan and formula.
    Answer(Plan, Phase2),
}

/// The `tools` of a request: each tool with its JSON-schema parameters.
pub fn definitions() -> Value {
    let function = |name: &str, description: &str, parameters: Value| {
        json!({"type": "function", "function": {
            "name": name, "description": description, "parameters": parameters}})
    };
    json!([
        function(
            "query_kg",
            "Run a SPARQL SELECT or ASK over the page's RDF graph (prefixes fk:, qb:, rdfs:, xsd:, skos:, prov:, dcterms:, rdf:, owl: are declared). Returns the bindings, at most 20 rows, each with the source (cell row/column or sentence) of the page node it bound.",
            json!({"type": "object", "properties": {
                "sparql": {"type": "string", "description": "the query; write patterns inside GRAPH ?g { ... }"}},
                "required": ["sparql"], "additionalProperties": false}),
        ),
        function(
            "list_entities",
            "List the page's table rows, table columns or text facts (or all) with their IRIs, years and scales.",
            json!({"type": "object", "properties": {
                "kind": {"type": "string", "enum": ["rows", "columns", "text_facts", "all"]}},
                "required": ["kind"], "additionalProperties": false}),
        ),
        function(
            "introspect_ontology",
            "The classes and properties the graph uses, and the calculation patterns (operation, result type, formula, trigger phrases).",
            json!({"type": "object", "properties": {}, "additionalProperties": false}),
        ),
        function(
            "calculate",
            "Evaluate a formula exactly (decimal arithmetic): + - * /, parentheses, abs, min, max, round, avg, sum, comparisons. Names in the formula take their numbers from `values`.",
            json!({"type": "object", "properties": {
                "formula": {"type": "string"},
                "values": {"type": "object", "additionalProperties": {"type": "number"}}},
                "required": ["formula"], "additionalProperties": false}),
        ),
        function(
            "answer",
            "End the turn: name the values the answer needs (each a SPARQL query binding ?value in one row, an earlier result \"result_N\", or a number) and a formula over their names. The program runs the queries and evaluates the formula.",
            json!({"type": "object", "properties": {
                "values": {"type": "object", "additionalProperties": {"anyOf": [
                    {"type": "object", "properties": {
                        "sparql": {"type": "string"}, "description": {"type": "string"}},
                        "required": ["sparql"]},
                    {"type": "string", "description": "result_N"},
                    {"type": "number"}]}},
                "formula": {"type": "string"},
                "entity": {"type": "string"},
                "metric_type": {"type": "string", "description": "value | change | percentage change | ratio | sum | average | product | comparison"},
                "period": {"type": "string"}},
                "required": ["values", "formula"]}),
        ),
    ])
}

/// Runs the tool `name` on its JSON `arguments` for the turn `ctx`.
pub fn run(ctx: &TurnContext<'_>, name: &str, arguments: &str) -> Result<Outcome, String> {
    if !NAMES.contains(&name) {
        return Err(format!(
            "there is no tool `{}`; the tools are {}",
            cut(name, 80),
            NAMES.join(", ")
        ));
    }
    let args = parse_arguments(name, arguments)?;
    match name {
        "query_kg" => query_kg(ctx, &args).map(Outcome::Result),
        "list_entities" => list_entities(ctx, &args).map(Outcome::Result),
        "introspect_ontology" => introspect_ontology().map(Outcome::Result),
        "calculate" => calculate(&args).map(Outcome::Result),
        _ => answer(ctx, arguments),
    }
}

/// The arguments as a JSON object (an empty text counts as `{}`).
fn parse_arguments(name: &str, arguments: &str) -> Result<Map<String, Value>, String> {
    if arguments.trim().is_empty() {
        return Ok(Map::new());
    }
    match serde_json::from_str::<Value>(arguments) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(other) => Err(format!(
            "the arguments of `{name}` must be a JSON object, not `{}`",
            cut(&other.to_string(), 200)
        )),
        Err(e) => Err(format!("the arguments of `{name}` are not valid JSON: {e}")),
    }
}

fn string_arg<'a>(tool: &str, args: &'a Map<String, Value>, key: &str) -> Result<&'a str, String> {
    match args.get(key) {
        Some(Value::String(s)) if !s.trim().is_empty() => Ok(s),
        Some(Value::String(_)) => Err(format!("`{tool}`: `{key}` is empty")),
        Some(other) => Err(format!(
            "`{tool}`: `{key}` must be a string, not `{}`",
            cut(&other.to_string(), 200)
        )),
        None => Err(format!("`{tool}` needs a `{key}` string")),
    }
}

fn cut(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((i, _)) => format!("{}...", &text[..i]),
        None => text.to_string(),
    }
}

/// A term as the model reads it: a literal's lexical form, an IRI as is.
fn term_text(term: &Term) -> String {
    match term {
        Term::Literal(l) => l.value().to_string(),
        Term::NamedNode(n) => n.as_str().to_string(),
        other => other.to_string(),
    }
}

fn query_kg(ctx: &TurnContext<'_>, args: &Map<String, Value>) -> Result<String, String> {
    let sparql = string_arg("query_kg", args, "sparql")?;
    let prefixes = vocab::sparql_prefixes();
    let text = format!("{prefixes}{}", sparql.trim());
    let query = GuardedQuery::parse(&text).map_err(|e| format!("the query is refused: {e}"))?;
    let out = ctx.check.query(&query)?;
    let (variables, rows) = match out {
        QueryOutput::Boolean(b) => return Ok(json!({ "boolean": b }).to_string()),
        QueryOutput::Solutions { variables, rows } => (variables, rows),
    };
    let total = rows.len();
    let mut shown = Vec::new();
    let mut size = 0;
    for row in rows.iter().take(MAX_ROWS) {
        let mut bindings = Map::new();
        let mut source = None;
        for (var, term) in variables.iter().zip(row) {
            let Some(term) = term else { continue };
            if let (Term::NamedNode(n), Some(graph), None) = (term, ctx.check.graph(), &source) {
                source = ctx
                    .schema
                    .describe_source(graph, n.as_str())
                    .map(|s| s.text);
            }
            bindings.insert(var.clone(), Value::String(term_text(term)));
        }
        let mut entry = json!({ "bindings": bindings });
        if let Some(s) = source {
            entry["source"] = Value::String(s);
        }
        size += entry.to_string().len();
        if size > MAX_RESULT_CHARS {
            break;
        }
        shown.push(entry);
    }
    let mut result = json!({"variables": variables, "row_count": total, "rows": shown});
    if total == 0 {
        if let Some(w) = reply::long_decimal_warning(sparql) {
            result["warning"] = Value::String(w);
        }
    }
    if shown_len(&result) < total {
        result["note"] = Value::String(format!(
            "{} of {total} rows shown; narrow the query",
            shown_len(&result)
        ));
    }
    Ok(result.to_string())
}

fn shown_len(result: &Value) -> usize {
    result["rows"].as_array().map_or(0, Vec::len)
}

/// Entries pushed while they fit in `budget` characters.
struct Capped {
    items: Vec<Value>,
    omitted: usize,
    budget: usize,
}

impl Capped {
    fn push(&mut self, item: Value) {
        let len = item.to_string().len();
        if len > self.budget {
            self.omitted += 1;
            self.budget = 0;
        } else {
            self.budget -= len;
            self.items.push(item);
        }
    }
}

fn list_entities(ctx: &TurnContext<'_>, args: &Map<String, Value>) -> Result<String, String> {
    let kind = string_arg("list_entities", args, "kind")?;
    let (rows, columns, facts) = match kind {
        "rows" => (true, false, false),
        "columns" => (false, true, false),
        "text_facts" => (false, false, true),
        "all" => (true, true, true),
        other => {
            return Err(format!(
                "`list_entities`: `kind` is one of rows, columns, text_facts, all, not `{other}`"
            ))
        }
    };
    let schema = ctx.schema;
    let page = ctx
        .check
        .graph()
        .and_then(|g| g.as_str().strip_suffix("/graph").map(str::to_string));
    let iri = |path: String| page.as_ref().map(|p| format!("{p}/{path}"));
    let mut out = Map::new();
    let capped = |key: &str, items: Vec<Value>, out: &mut Map<String, Value>| {
        let mut c = Capped {
            items: Vec::new(),
            omitted: 0,
            budget: MAX_RESULT_CHARS / 3,
        };
        for item in items {
            c.push(item);
        }
        out.insert(key.into(), Value::Array(c.items));
        if c.omitted > 0 {
            out.insert(format!("{key}_omitted"), c.omitted.into());
        }
    };
    if rows {
        let items = schema
            .rows
            .iter()
            .enumerate()
            .map(|(i, (label, year))| {
                json!({"iri": iri(format!("row/{i}")), "index": i, "label": label, "year": year,
                       "scale": label_scale(label).map(|s| s.to_string()),
                       "also_called": schema.row_concept_labels.get(i)
                           .map(|l| l.iter().filter(|x| *x != label).cloned().collect::<Vec<_>>())
                           .unwrap_or_default()})
            })
            .collect();
        capped("rows", items, &mut out);
    }
    if columns {
        let items = schema
            .columns
            .iter()
            .enumerate()
            .map(|(j, (label, year))| {
                let mut c = json!({"iri": iri(format!("column/{j}")), "index": j, "label": label,
                                   "year": year, "scale": label_scale(label).map(|s| s.to_string())});
                if let Some(h) = schema.header_numbers.iter().find(|h| h.column == j) {
                    c["header_number"] = json!({"iri": iri(format!("column/{j}/number")),
                                                "raw": h.raw, "value": h.value.normalize().to_string()});
                }
                c
            })
            .collect();
        capped("columns", items, &mut out);
    }
    if facts {
        let items = schema
            .facts
            .iter()
            .filter(|f| !f.is_year_mention)
            .map(|f| {
                json!({"iri": iri(format!("fact/{}/{}", f.sentence, f.token)), "sentence": f.sentence,
                       "token": f.token, "raw": f.raw, "value": f.value.normalize().to_string(),
                       "percent": f.percent, "year": f.year,
                       "scale": f.scale.as_ref().map(ToString::to_string), "context": f.context})
            })
            .collect();
        capped("text_facts", items, &mut out);
    }
    Ok(Value::Object(out).to_string())
}

/// The TBox's classes and properties with their labels and comments, and
/// the calculation patterns; read once a process.
fn introspect_ontology() -> Result<String, String> {
    static TEXT: OnceLock<Result<String, String>> = OnceLock::new();
    TEXT.get_or_init(|| {
        let query = GuardedQuery::parse(&format!(
            "{}SELECT ?term ?kind ?label ?comment WHERE {{ GRAPH ?t {{ ?term a ?kind .
               FILTER(?kind IN (owl:Class, owl:ObjectProperty, owl:DatatypeProperty))
               OPTIONAL {{ ?term rdfs:label ?label }} OPTIONAL {{ ?term rdfs:comment ?comment }} }} }}
             ORDER BY ?kind ?term",
            vocab::sparql_prefixes()
        ))
        .map_err(|e| e.to_string())?;
        let store = KgStore::tbox().map_err(|e| e.to_string())?;
        let rows = match store.query(&query).map_err(|e| e.to_string())? {
            QueryOutput::Solutions { rows, .. } => rows,
            QueryOutput::Boolean(_) => Vec::new(),
        };
        let mut classes = Vec::new();
        let mut properties = Vec::new();
        let short = |t: &Option<Term>| {
            let text = t.as_ref().map(term_text).unwrap_or_default();
            for (p, iri) in vocab::PREFIXES {
                if let Some(rest) = text.strip_prefix(iri) {
                    return format!("{p}:{rest}");
                }
            }
            text
        };
        for r in &rows {
            let entry = json!({"term": short(&r[0]),
                               "label": r[2].as_ref().map(term_text),
                               "comment": r[3].as_ref().map(|c| cut(&term_text(c), 240))});
            if short(&r[1]) == "owl:Class" {
                classes.push(entry);
            } else {
                properties.push(entry);
            }
        }
        let patterns: Vec<Value> = ontology::tbox()
            .map_err(|e| e.to_string())?
            .patterns()
            .iter()
            .map(|p| {
                json!({"operation": p.operation, "metric_type": p.metric_type.to_string(),
                       "formula": p.formula_template,
                       "triggers": p.triggers.iter().take(6).collect::<Vec<_>>()})
            })
            .collect();
        Ok(json!({"classes": classes, "properties": properties,
                  "cells": "a table cell is a qb:Observation with fk:row and fk:column (nodes with fk:index and rdfs:label), fk:value (xsd:decimal) and fk:rawValue",
                  "calculation_patterns": patterns})
        .to_string())
    })
    .clone()
}

fn calculate(args: &Map<String, Value>) -> Result<String, String> {
    let formula = string_arg("calculate", args, "formula")?;
    let mut values: Vec<(String, Decimal)> = Vec::new();
    match args.get("values") {
        None | Some(Value::Null) => {}
        Some(Value::Object(map)) => {
            for (name, v) in map {
                let text = match v {
                    Value::Number(n) => n.to_string(),
                    Value::String(s) => s.trim().to_string(),
                    other => {
                        return Err(format!(
                            "`calculate`: the value `{name}` must be a number, not `{}`",
                            cut(&other.to_string(), 100)
                        ))
                    }
                };
                let d = Decimal::from_str(&text)
                    .or_else(|_| Decimal::from_scientific(&text))
                    .map_err(|_| {
                        format!("`calculate`: the value `{name}` is not a number: `{text}`")
                    })?;
                values.push((name.clone(), d));
            }
        }
        Some(_) => return Err("`calculate`: `values` must map names to numbers".into()),
    }
    let parsed = Formula::parse(formula).map_err(|e| format!("`calculate`: {e}"))?;
    let lookup = |name: &str| values.iter().find(|(n, _)| n == name).map(|(_, d)| *d);
    let result = match parsed
        .eval(&lookup)
        .map_err(|e| format!("`calculate`: {e}"))?
    {
        FormulaValue::Number(d) => Value::String(d.normalize().to_string()),
        FormulaValue::Bool(b) => Value::String(if b { "yes" } else { "no" }.into()),
    };
    Ok(json!({ "result": result }).to_string())
}

/// Reads, binds and evaluates an answer as the pipeline will.
fn answer(ctx: &TurnContext<'_>, arguments: &str) -> Result<Outcome, String> {
    let (plan, phase2) = reply::phase1(arguments)?;
    let phase2 = phase2.ok_or("`answer` needs a `formula` over the values' names")?;
    let values = ctx.check.bind(&plan)?;
    ctx.check.evaluate(&phase2.formula, &values)?;
    Ok(Outcome::Answer(plan, phase2))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_tool_is_defined_with_an_object_schema() {
        let defs = definitions();
        let names: Vec<&str> = defs
            .as_array()
            .unwrap()
            .iter()
            .map(|d| d["function"]["name"].as_str().unwrap())
            .collect();
        assert_eq!(names, NAMES);
        for d in defs.as_array().unwrap() {
            assert_eq!(d["function"]["parameters"]["type"], "object");
        }
    }

    #[test]
    fn calculate_is_exact_and_says_what_is_wrong() {
        let args = |v: Value| v.as_object().unwrap().clone();
        assert_eq!(
            calculate(&args(
                json!({"formula": "(a - b) / b", "values": {"a": 1500, "b": 1200}})
            ))
            .unwrap(),
            r#"{"result":"0.25"}"#
        );
        assert_eq!(
            calculate(&args(json!({"formula": "0.1 + 0.2"}))).unwrap(),
            r#"{"result":"0.3"}"#
        );
        assert!(
            calculate(&args(json!({"formula": "a / 0", "values": {"a": 1}})))
                .unwrap_err()
                .contains("calculate")
        );
        assert!(calculate(&args(json!({"formula": "x"})))
            .unwrap_err()
            .contains("unknown name `x`"));
        assert!(
            calculate(&args(json!({"formula": "a", "values": {"a": [1]}})))
                .unwrap_err()
                .contains("must be a number")
        );
        assert!(calculate(&args(json!({}))).unwrap_err().contains("formula"));
    }

    #[test]
    fn arguments_must_be_an_object() {
        assert!(parse_arguments("query_kg", "[1]")
            .unwrap_err()
            .contains("JSON object"));
        assert!(parse_arguments("query_kg", "{\"sparql\": ")
            .unwrap_err()
            .contains("not valid JSON"));
        assert!(parse_arguments("introspect_ontology", "")
            .unwrap()
            .is_empty());
    }

    #[test]
    fn the_ontology_lists_classes_properties_and_patterns() {
        let text = introspect_ontology().unwrap();
        let v: Value = serde_json::from_str(&text).unwrap();
        let classes = v["classes"].as_array().unwrap();
        assert!(classes.iter().any(|c| c["term"] == "fk:TableRow"), "{text}");
        assert!(!v["properties"].as_array().unwrap().is_empty());
        assert!(v["calculation_patterns"]
            .as_array()
            .unwrap()
            .iter()
            .any(|p| p["operation"] == "change"));
    }
}

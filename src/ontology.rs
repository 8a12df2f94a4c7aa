//! The TBox: the Turtle files of `ontology/`, parsed once, and what the
//! planners read from them by SPARQL (calculation patterns with their
//! trigger phrases, reference phrases, scale words).
//!
//! The files are compiled into the binary so that `finkg` runs from any
//! directory; editing them takes a rebuild.

use crate::turn::{MetricType, Scale};
use crate::vocab;
use oxigraph::io::{RdfFormat, RdfParser};
use oxigraph::model::{GraphName, NamedNode, Quad, Term};
use oxigraph::sparql::{QueryResults, SparqlEvaluator};
use oxigraph::store::Store;
use rust_decimal::Decimal;
use std::collections::{BTreeMap, HashMap};
use std::str::FromStr;
use std::sync::OnceLock;

/// The TBox files, by name, as shipped in `ontology/`.
pub const TBOX_FILES: [(&str, &str); 5] = [
    ("core.ttl", include_str!("../ontology/core.ttl")),
    ("critic.ttl", include_str!("../ontology/critic.ttl")),
    ("patterns.ttl", include_str!("../ontology/patterns.ttl")),
    ("shapes.ttl", include_str!("../ontology/shapes.ttl")),
    ("lexicon.ttl", include_str!("../ontology/lexicon.ttl")),
];

/// Errors reading the TBox.
#[derive(Debug, Clone, thiserror::Error)]
pub enum OntologyError {
    /// A Turtle file did not parse.
    #[error("ontology/{file} does not parse: {message}")]
    Parse {
        /// The file.
        file: String,
        /// The parser's message.
        message: String,
    },
    /// A query over the TBox failed.
    #[error("reading the TBox failed: {0}")]
    Query(String),
    /// A pattern is malformed.
    #[error("calculation pattern `{pattern}` is invalid: {message}")]
    Pattern {
        /// The pattern's IRI.
        pattern: String,
        /// What is wrong.
        message: String,
    },
}

/// A calculation pattern of `ontology/patterns.ttl`.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct CalculationPattern {
    /// The pattern's IRI.
    pub iri: String,
    /// Operation identifier (`change`, `ratio`, ...).
    pub operation: String,
    /// Metric type recorded for results of this pattern.
    pub metric_type: MetricType,
    /// The formula the pattern produces.
    pub formula_template: String,
    /// Higher wins among matching patterns.
    pub priority: i64,
    /// Phrases that signal the pattern, longest first.
    pub triggers: Vec<String>,
}

/// The parsed TBox and what the planners read from it.
#[derive(Debug)]
pub struct Tbox {
    quads: Vec<Quad>,
    patterns: Vec<CalculationPattern>,
    reference_phrases: Vec<String>,
    scales: Vec<Scale>,
    word_lists: HashMap<String, Vec<String>>,
    synonym_sets: Vec<Vec<String>>,
    number_words: Vec<(String, Decimal)>,
    concepts: HashMap<String, String>,
}

impl Tbox {
    /// The lexicon concept (IRI) whose key is `key` (the key of a label's stemmed words, as the lexicon builder computes it).
    pub fn concept_for_key(&self, key: &str) -> Option<&str> {
        self.concepts.get(key).map(String::as_str)
    }
    /// How many concepts the learned lexicon holds.
    pub fn concept_count(&self) -> usize {
        self.concepts.len()
    }
    /// Every TBox quad, in the TBox named graph.
    pub fn quads(&self) -> &[Quad] {
        &self.quads
    }
    /// The calculation patterns, highest priority first.
    pub fn patterns(&self) -> &[CalculationPattern] {
        &self.patterns
    }
    /// Phrases that refer to an earlier result.
    pub fn reference_phrases(&self) -> &[String] {
        &self.reference_phrases
    }
    /// The scales the TBox's scale words name, smallest first.
    pub fn scales(&self) -> &[Scale] {
        &self.scales
    }
    /// The scale named by a word ("million"), when the TBox knows it.
    pub fn scale(&self, word: &str) -> Option<Scale> {
        self.scales.iter().find(|s| s.word() == word).cloned()
    }
    /// Scale words and their multipliers, smallest first.
    pub fn scale_words(&self) -> Vec<(String, Decimal)> {
        self.scales
            .iter()
            .map(|s| (s.word().to_string(), s.multiplier()))
            .collect()
    }
    /// The words of each `fk:SynonymSet`, lowercase and sorted.
    pub fn synonym_sets(&self) -> &[Vec<String>] {
        &self.synonym_sets
    }
    /// Numbers written as words (`fk:NumberWord`) and their values.
    pub fn number_words(&self) -> &[(String, Decimal)] {
        &self.number_words
    }
    /// The words of the `fk:WordList` with this local name (`BeginningCue`),
    /// lowercase and sorted; empty when the TBox has no such list.
    pub fn word_list(&self, name: &str) -> &[String] {
        self.word_lists.get(name).map_or(&[], Vec::as_slice)
    }
}

/// The TBox, parsed on first use.
pub fn tbox() -> Result<&'static Tbox, OntologyError> {
    static TBOX: OnceLock<Result<Tbox, OntologyError>> = OnceLock::new();
    TBOX.get_or_init(load_tbox).as_ref().map_err(Clone::clone)
}

/// Parses one Turtle text into quads of the TBox graph.
pub fn parse_turtle(file: &str, text: &str) -> Result<Vec<Quad>, OntologyError> {
    let graph = GraphName::NamedNode(NamedNode::new_unchecked(vocab::TBOX_GRAPH));
    RdfParser::from_format(RdfFormat::Turtle)
        .with_default_graph(graph)
        .for_slice(text.as_bytes())
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| OntologyError::Parse {
            file: file.to_string(),
            message: e.to_string(),
        })
}

fn load_tbox() -> Result<Tbox, OntologyError> {
    load_files(TBOX_FILES.iter().map(|(f, t)| (*f, *t)))
}

/// Parses Turtle files (name, text) into a TBox and reads what the planners
/// need from it.
fn load_files<'a>(files: impl Iterator<Item = (&'a str, &'a str)>) -> Result<Tbox, OntologyError> {
    let mut quads = Vec::new();
    for (file, text) in files {
        quads.extend(parse_turtle(file, text)?);
    }
    let store = Store::new().map_err(|e| OntologyError::Query(e.to_string()))?;
    store
        .extend(quads.iter().cloned())
        .map_err(|e| OntologyError::Query(e.to_string()))?;
    let rows = select(
        &store,
        "SELECT ?p ?op ?mt ?ft ?prio ?trigger WHERE { GRAPH ?g {
           ?p a fk:CalculationPattern ; fk:operation ?op ; fk:metricType ?mt ;
              fk:formulaTemplate ?ft ; fk:priority ?prio .
           OPTIONAL { ?p fk:trigger ?trigger } } } ORDER BY DESC(?prio) ?p",
    )?;
    let mut patterns: Vec<CalculationPattern> = Vec::new();
    for row in rows {
        let iri = row[0].clone();
        let priority = i64::from_str(&row[4]).map_err(|_| OntologyError::Pattern {
            pattern: iri.clone(),
            message: format!("priority `{}` is not an integer", row[4]),
        })?;
        let pattern = match patterns.iter_mut().find(|p| p.iri == iri) {
            Some(p) => p,
            None => {
                patterns.push(CalculationPattern {
                    iri,
                    operation: row[1].clone(),
                    metric_type: MetricType::parse(&row[2]),
                    formula_template: row[3].clone(),
                    priority,
                    triggers: Vec::new(),
                });
                let last = patterns.len() - 1;
                &mut patterns[last]
            }
        };
        if !row[5].is_empty() {
            pattern.triggers.push(row[5].to_lowercase());
        }
    }
    for p in &mut patterns {
        p.triggers
            .sort_by(|a, b| b.len().cmp(&a.len()).then(a.cmp(b)));
    }
    let reference_phrases = select(
        &store,
        "SELECT ?phrase WHERE { GRAPH ?g { ?r a fk:ConversationReference ; fk:referencePhrase ?phrase } } ORDER BY ?phrase",
    )?
    .into_iter()
    .map(|r| r[0].clone())
    .collect();
    let scales = select(
        &store,
        "SELECT ?label ?m WHERE { GRAPH ?g { ?w a fk:ScaleWord ; rdfs:label ?label ; fk:multiplier ?m } } ORDER BY ?m",
    )?
    .into_iter()
    .filter_map(|r| Decimal::from_str(&r[1]).ok().map(|m| Scale::new(&r[0], m)))
    .collect();
    let mut word_lists: HashMap<String, Vec<String>> = HashMap::new();
    for r in select(
        &store,
        "SELECT ?list ?word WHERE { GRAPH ?g { ?list a fk:WordList ; fk:word ?word } } ORDER BY ?list ?word",
    )? {
        let name = r[0].rsplit(['#', '/']).next().unwrap_or_default().to_string();
        word_lists.entry(name).or_default().push(r[1].to_lowercase());
    }
    let mut synonym_sets: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for r in select(
        &store,
        "SELECT ?set ?word WHERE { GRAPH ?g { ?set a fk:SynonymSet ; fk:word ?word } } ORDER BY ?set ?word",
    )? {
        synonym_sets.entry(r[0].clone()).or_default().push(r[1].to_lowercase());
    }
    let synonym_sets = synonym_sets.into_values().collect();
    let number_words = select(
        &store,
        "SELECT ?label ?v WHERE { GRAPH ?g { ?w a fk:NumberWord ; rdfs:label ?label ; fk:numberValue ?v } } ORDER BY ?v",
    )?
    .into_iter()
    .filter_map(|r| Decimal::from_str(&r[1]).ok().map(|v| (r[0].to_lowercase(), v)))
    .collect();
    let concepts = select(
        &store,
        "SELECT ?c ?key WHERE { GRAPH ?g { ?c a skos:Concept ; fk:conceptKey ?key } }",
    )?
    .into_iter()
    .map(|r| (r[1].clone(), r[0].clone()))
    .collect();
    Ok(Tbox {
        quads,
        patterns,
        reference_phrases,
        scales,
        word_lists,
        synonym_sets,
        number_words,
        concepts,
    })
}

/// What `finkg ontology check` found in an ontology folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckReport {
    /// The Turtle files read, by name.
    pub files: Vec<String>,
    /// Triples in all of them.
    pub triples: usize,
    /// Calculation patterns.
    pub patterns: usize,
    /// Reference phrases.
    pub reference_phrases: usize,
    /// Scale words.
    pub scale_words: usize,
    /// Concepts of the learned lexicon.
    pub concepts: usize,
    /// `fk:` terms used (as a class or a property) without an `rdfs:label`
    /// and an `rdfs:comment`.
    pub undeclared: Vec<String>,
    /// The files differ from those compiled into this binary (rebuild to use them).
    pub differs_from_build: bool,
}

/// Validates every `*.ttl` of `dir`: each parses, the calculation patterns
/// and the lexicon load, and every `fk:` class and property used is declared
/// with a label and a comment.
pub fn check_dir(dir: &std::path::Path) -> Result<CheckReport, OntologyError> {
    let io = |e: std::io::Error| OntologyError::Query(format!("{}: {e}", dir.display()));
    let mut files: Vec<(String, String)> = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(io)? {
        let path = entry.map_err(io)?.path();
        if path.extension().is_some_and(|e| e == "ttl") {
            let name = path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            let text = std::fs::read_to_string(&path)
                .map_err(|e| OntologyError::Query(format!("{}: {e}", path.display())))?;
            files.push((name, text));
        }
    }
    files.sort();
    if files.is_empty() {
        return Err(OntologyError::Query(format!(
            "{}: no .ttl files",
            dir.display()
        )));
    }
    let tbox = load_files(files.iter().map(|(f, t)| (f.as_str(), t.as_str())))?;
    let store = Store::new().map_err(|e| OntologyError::Query(e.to_string()))?;
    store
        .extend(tbox.quads.iter().cloned())
        .map_err(|e| OntologyError::Query(e.to_string()))?;
    let undeclared = select(
        &store,
        "SELECT DISTINCT ?t WHERE { GRAPH ?g {
           { ?s ?t ?o } UNION { ?s a ?t } UNION { ?s rdfs:domain|rdfs:range ?t }
           FILTER(STRSTARTS(STR(?t), STR(fk:)))
           FILTER NOT EXISTS { GRAPH ?h { ?t rdfs:label ?l ; rdfs:comment ?c } } } } ORDER BY ?t",
    )?
    .into_iter()
    .map(|r| r[0].clone())
    .collect();
    let built: Vec<(String, String)> = TBOX_FILES
        .iter()
        .map(|(f, t)| (f.to_string(), t.to_string()))
        .collect();
    let mut built_sorted = built.clone();
    built_sorted.sort();
    Ok(CheckReport {
        files: files.iter().map(|(f, _)| f.clone()).collect(),
        triples: tbox.quads.len(),
        patterns: tbox.patterns.len(),
        reference_phrases: tbox.reference_phrases.len(),
        scale_words: tbox.scales.len(),
        concepts: tbox.concepts.len(),
        undeclared,
        differs_from_build: built_sorted != files,
    })
}

/// Runs one of this module's own fixed queries; every cell as plain text.
fn select(store: &Store, body: &str) -> Result<Vec<Vec<String>>, OntologyError> {
    let text = format!("{}{body}", vocab::sparql_prefixes());
    let err = |e: &dyn std::fmt::Display| OntologyError::Query(e.to_string());
    let results = SparqlEvaluator::new()
        .parse_query(&text)
        .map_err(|e| err(&e))?
        .on_store(store)
        .execute()
        .map_err(|e| err(&e))?;
    let QueryResults::Solutions(solutions) = results else {
        return Ok(Vec::new());
    };
    let variables: Vec<String> = solutions
        .variables()
        .iter()
        .map(|v| v.as_str().to_string())
        .collect();
    let mut rows = Vec::new();
    for solution in solutions {
        let solution = solution.map_err(|e| err(&e))?;
        rows.push(
            variables
                .iter()
                .map(|v| match solution.get(v.as_str()) {
                    Some(Term::Literal(l)) => l.value().to_string(),
                    Some(Term::NamedNode(n)) => n.as_str().to_string(),
                    Some(other) => other.to_string(),
                    None => String::new(),
                })
                .collect(),
        );
    }
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patterns_come_from_the_turtle() {
        let tbox = tbox().unwrap();
        let ops: Vec<&str> = tbox
            .patterns()
            .iter()
            .map(|p| p.operation.as_str())
            .collect();
        for op in [
            "lookup",
            "change",
            "percentage_change",
            "ratio",
            "sum",
            "average",
            "product",
            "comparison",
        ] {
            assert!(ops.contains(&op), "{op} missing from {ops:?}");
        }
        let pc = tbox
            .patterns()
            .iter()
            .find(|p| p.operation == "percentage_change")
            .unwrap();
        assert!(pc.triggers.iter().any(|t| t == "growth rate"));
        assert!(tbox.reference_phrases().iter().any(|p| p == "that"));
        assert!(tbox
            .scale_words()
            .iter()
            .any(|(w, m)| w == "million" && *m == Decimal::from(1_000_000)));
    }
}

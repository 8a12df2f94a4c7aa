//! The planners' view of a page, read from the store by SPARQL: every row,
//! column, cell, number printed in a column header and text fact with its
//! labels and years. The rules planner
//! grounds questions in it; the LLM planner summarises it in its prompt.

use super::guard::GuardedQuery;
use super::store::{KgError, KgStore, QueryOutput};
use crate::ontology;
use crate::turn::Scale;
use crate::vocab;
use oxigraph::model::{NamedNode, Term};
use rust_decimal::Decimal;
use std::collections::HashMap;
use std::str::FromStr;
use std::sync::OnceLock;

/// A table cell with a numeric value.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct CellEntry {
    /// Row position.
    pub row: usize,
    /// Row label as printed.
    pub row_label: String,
    /// Year the row names, if it names exactly one.
    pub row_year: Option<i32>,
    /// Column position.
    pub column: usize,
    /// Column header as printed.
    pub column_label: String,
    /// Year the column names, if it names exactly one.
    pub column_year: Option<i32>,
    /// The cell's value.
    pub value: Decimal,
    /// The cell as printed.
    pub raw: String,
    /// The cell was printed as a percentage.
    pub percent: bool,
}

/// A number read from the text.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct FactEntry {
    /// Sentence position on the page.
    pub sentence: usize,
    /// Token position in the sentence.
    pub token: usize,
    /// The sentence's text.
    pub sentence_text: String,
    /// Words around the number.
    pub context: String,
    /// The number.
    pub value: Decimal,
    /// The number as printed.
    pub raw: String,
    /// The year it is about, when clear.
    pub year: Option<i32>,
    /// It is a change the sentence states (`fk:isChange`).
    pub is_change: bool,
    /// The other years it is about (`fk:alsoYear`).
    pub also_years: Vec<i32>,
    /// It reads as a year or a day of a date.
    pub is_year_mention: bool,
    /// Printed as a percentage.
    pub percent: bool,
    /// The scale word beside it.
    pub scale: Option<Scale>,
}

/// A number printed in a column header (`fk:HeaderNumber`): the table's
/// first row of values read into its headers (`high $ 17.84`). Read it back
/// with [`header_number_query`] by its column index.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct HeaderNumberEntry {
    /// Column position: the number's identity on the page.
    pub column: usize,
    /// Column header as printed (`high $ 17.84`).
    pub column_label: String,
    /// The header's words other than the number (`high`); empty when the
    /// number is the whole header (`$ 45826`).
    pub words: String,
    /// The year those words name, if they name exactly one.
    pub year: Option<i32>,
    /// The number.
    pub value: Decimal,
    /// The number as printed (`$ 17.84`).
    pub raw: String,
    /// Printed as a percentage.
    pub percent: bool,
}

/// The SPARQL SELECT (prefixes included) that reads the number printed in
/// the header of column `column`: one row binding `?value` (an
/// `xsd:decimal`) and `?source` (the `fk:HeaderNumber`); no row when that
/// header prints no number.
pub fn header_number_query(column: usize) -> String {
    format!(
        "{}{}",
        vocab::sparql_prefixes(),
        super::queries::header_number_query(column)
    )
}

/// Everything a planner may know about a page.
#[derive(Debug, Clone, Default, serde::Serialize)]
pub struct Schema {
    /// Column headers in order, with their years.
    pub columns: Vec<(String, Option<i32>)>,
    /// Row labels in order, with their years.
    pub rows: Vec<(String, Option<i32>)>,
    /// For each row, the labels of its lexicon concept (`fk:concept`), if it
    /// has one: other reports' names for the same metric.
    pub row_concept_labels: Vec<Vec<String>>,
    /// Cells with a numeric value.
    pub cells: Vec<CellEntry>,
    /// Numbers printed in column headers, in column order (years and dates
    /// are not among them).
    pub header_numbers: Vec<HeaderNumberEntry>,
    /// Numbers of the text.
    pub facts: Vec<FactEntry>,
    /// Sentences of the text in order.
    pub sentences: Vec<String>,
    /// How many of them come before the table (`fk:section "pre_text"`):
    /// the last of those is most often the table's caption.
    pub pre_sentences: usize,
}

fn text(t: &Option<Term>) -> String {
    match t {
        Some(Term::Literal(l)) => l.value().to_string(),
        Some(Term::NamedNode(n)) => n.as_str().to_string(),
        Some(other) => other.to_string(),
        None => String::new(),
    }
}

fn number<T: FromStr>(t: &Option<Term>) -> Option<T> {
    match t {
        Some(Term::Literal(l)) => l.value().parse().ok(),
        _ => None,
    }
}

fn rows(kg: &KgStore, body: &str) -> Result<Vec<Vec<Option<Term>>>, KgError> {
    let text = format!("{}{body}", vocab::sparql_prefixes());
    let query = GuardedQuery::parse(&text)?;
    match kg.query(&query)? {
        QueryOutput::Solutions { rows, .. } => Ok(rows),
        QueryOutput::Boolean(_) => Ok(Vec::new()),
    }
}

/// The queries of [`Schema::read`], written once for every page: `?page`
/// is bound to the page's graph as each runs ([`KgStore::query_page`]), so
/// they are parsed once, not once a page. Each projects `?page` last (the
/// engine binds only a projected variable).
struct SchemaQueries {
    columns: GuardedQuery,
    rows: GuardedQuery,
    concepts: GuardedQuery,
    cells: GuardedQuery,
    header_numbers: GuardedQuery,
    sentences: GuardedQuery,
    facts: GuardedQuery,
    also_years: GuardedQuery,
}

fn schema_queries() -> Result<&'static SchemaQueries, KgError> {
    static QUERIES: OnceLock<SchemaQueries> = OnceLock::new();
    if let Some(queries) = QUERIES.get() {
        return Ok(queries);
    }
    let prefixes = vocab::sparql_prefixes();
    let parse = |body: &str| GuardedQuery::parse(&format!("{prefixes}{body}"));
    let queries = SchemaQueries {
        columns: parse("SELECT ?label ?year ?page WHERE { GRAPH ?page { ?c a fk:TableColumn ; rdfs:label ?label ; fk:index ?i . OPTIONAL { ?c fk:year ?year } } } ORDER BY ?i")?,
        rows: parse("SELECT ?label ?year ?page WHERE { GRAPH ?page { ?c a fk:TableRow ; rdfs:label ?label ; fk:index ?i . OPTIONAL { ?c fk:year ?year } } } ORDER BY ?i")?,
        concepts: parse("SELECT ?i ?c ?page WHERE { GRAPH ?page { ?r a fk:TableRow ; fk:index ?i ; fk:concept ?c } }")?,
        cells: parse(
            "SELECT ?ri ?ci ?value ?raw ?unit ?page WHERE { GRAPH ?page {
               ?o a qb:Observation ; fk:row ?r ; fk:column ?c ; fk:value ?value ; fk:rawValue ?raw .
               ?r fk:index ?ri . ?c fk:index ?ci . OPTIONAL { ?o fk:unit ?unit } } } ORDER BY ?ri ?ci",
        )?,
        header_numbers: parse(
            "SELECT ?ci ?value ?raw ?words ?year ?unit ?page WHERE { GRAPH ?page {
               ?n a fk:HeaderNumber ; fk:column ?c ; fk:value ?value ; fk:rawValue ?raw .
               ?c fk:index ?ci .
               OPTIONAL { ?n fk:context ?words } OPTIONAL { ?n fk:year ?year } OPTIONAL { ?n fk:unit ?unit } } }
             ORDER BY ?ci",
        )?,
        sentences: parse("SELECT ?text ?section ?page WHERE { GRAPH ?page { ?s a fk:Sentence ; fk:text ?text ; fk:index ?i OPTIONAL { ?s fk:section ?section } } } ORDER BY ?i")?,
        facts: parse(
            "SELECT ?si ?ti ?value ?raw ?ctx ?year ?isyear ?unit ?scale ?change ?page WHERE { GRAPH ?page {
               ?f a fk:TextFact ; fk:sentence ?s ; fk:tokenIndex ?ti ; fk:value ?value ; fk:rawValue ?raw ;
                  fk:context ?ctx ; fk:isYearMention ?isyear .
               ?s fk:index ?si .
               OPTIONAL { ?f fk:year ?year } OPTIONAL { ?f fk:unit ?unit } OPTIONAL { ?f fk:scale ?scale } OPTIONAL { ?f fk:isChange ?change } } }
             ORDER BY ?si ?ti",
        )?,
        also_years: parse(
            "SELECT ?si ?ti ?year ?page WHERE { GRAPH ?page {
               ?f a fk:TextFact ; fk:sentence ?s ; fk:tokenIndex ?ti ; fk:alsoYear ?year .
               ?s fk:index ?si } } ORDER BY ?si ?ti ?year",
        )?,
    };
    Ok(QUERIES.get_or_init(|| queries))
}

/// The rows of one of the [`SchemaQueries`] over `kg`'s page.
fn page_rows(kg: &KgStore, query: &GuardedQuery) -> Result<Vec<Vec<Option<Term>>>, KgError> {
    match kg.query_page(query)? {
        QueryOutput::Solutions { rows, .. } => Ok(rows),
        QueryOutput::Boolean(_) => Ok(Vec::new()),
    }
}

/// Every concept's labels (`skos:prefLabel`, `skos:altLabel`) in the TBox,
/// by concept IRI, read once.
fn concept_labels() -> Result<&'static HashMap<String, Vec<String>>, KgError> {
    static LABELS: OnceLock<HashMap<String, Vec<String>>> = OnceLock::new();
    if let Some(labels) = LABELS.get() {
        return Ok(labels);
    }
    let mut labels: HashMap<String, Vec<String>> = HashMap::new();
    for r in rows(
        KgStore::tbox()?,
        "SELECT ?c ?label WHERE { GRAPH ?t { ?c skos:prefLabel|skos:altLabel ?label } }",
    )? {
        labels.entry(text(&r[0])).or_default().push(text(&r[1]));
    }
    Ok(LABELS.get_or_init(|| labels))
}

impl Schema {
    /// Reads the page's rows, columns, cells, header numbers and text facts
    /// from the store.
    pub fn read(kg: &KgStore) -> Result<Schema, KgError> {
        let q = schema_queries()?;
        let mut schema = Schema::default();
        for r in page_rows(kg, &q.columns)? {
            schema.columns.push((text(&r[0]), number(&r[1])));
        }
        for r in page_rows(kg, &q.rows)? {
            schema.rows.push((text(&r[0]), number(&r[1])));
        }
        schema.row_concept_labels = vec![Vec::new(); schema.rows.len()];
        // the page names each row's concept; the TBox, read once, its labels
        let labels = concept_labels()?;
        for r in page_rows(kg, &q.concepts)? {
            if let (Some(row), Some(names)) = (
                number::<usize>(&r[0]).and_then(|i| schema.row_concept_labels.get_mut(i)),
                labels.get(&text(&r[1])),
            ) {
                row.extend(names.iter().cloned());
            }
        }
        for row in &mut schema.row_concept_labels {
            row.sort();
        }
        for r in page_rows(kg, &q.cells)? {
            let (Some(row), Some(column), Some(value)) = (
                number::<usize>(&r[0]),
                number::<usize>(&r[1]),
                number::<Decimal>(&r[2]),
            ) else {
                continue;
            };
            let (row_label, row_year) = schema.rows.get(row).cloned().unwrap_or_default();
            let (column_label, column_year) =
                schema.columns.get(column).cloned().unwrap_or_default();
            schema.cells.push(CellEntry {
                row,
                row_label,
                row_year,
                column,
                column_label,
                column_year,
                value,
                raw: text(&r[3]),
                percent: text(&r[4]).ends_with("#Percent"),
            });
        }
        for r in page_rows(kg, &q.header_numbers)? {
            let (Some(column), Some(value)) = (number::<usize>(&r[0]), number::<Decimal>(&r[1]))
            else {
                continue;
            };
            schema.header_numbers.push(HeaderNumberEntry {
                column,
                column_label: schema
                    .columns
                    .get(column)
                    .map(|c| c.0.clone())
                    .unwrap_or_default(),
                words: text(&r[3]),
                year: number(&r[4]),
                value,
                raw: text(&r[2]),
                percent: text(&r[5]).ends_with("#Percent"),
            });
        }
        for r in page_rows(kg, &q.sentences)? {
            schema.sentences.push(text(&r[0]));
            if text(&r[1]) == "pre_text" {
                schema.pre_sentences = schema.sentences.len();
            }
        }
        for r in page_rows(kg, &q.facts)? {
            let (Some(sentence), Some(token), Some(value)) = (
                number::<usize>(&r[0]),
                number::<usize>(&r[1]),
                number::<Decimal>(&r[2]),
            ) else {
                continue;
            };
            let scale = text(&r[8]);
            schema.facts.push(FactEntry {
                sentence,
                token,
                sentence_text: schema.sentences.get(sentence).cloned().unwrap_or_default(),
                context: text(&r[4]),
                value,
                raw: text(&r[3]),
                year: number(&r[5]),
                is_change: text(&r[9]) == "true",
                also_years: Vec::new(),
                is_year_mention: text(&r[6]) == "true",
                percent: text(&r[7]).ends_with("#Percent"),
                scale: scale_named(&scale),
            });
        }
        for r in page_rows(kg, &q.also_years)? {
            let (Some(sentence), Some(token), Some(year)) = (
                number::<usize>(&r[0]),
                number::<usize>(&r[1]),
                number::<i32>(&r[2]),
            ) else {
                continue;
            };
            if let Some(f) = schema
                .facts
                .iter_mut()
                .find(|f| f.sentence == sentence && f.token == token)
            {
                f.also_years.push(year);
            }
        }
        Ok(schema)
    }
}

/// Where a bound value came from, in words, with the metric and year it measures.
#[derive(Debug, Clone, PartialEq, Default, serde::Serialize)]
pub struct SourceInfo {
    /// The cell or sentence, for people.
    pub text: String,
    /// The row label (cells), the words around the number (text facts) or
    /// the header's other words (header numbers, when it has some).
    pub metric: Option<String>,
    /// The year of the column or row (cells), of the fact, or that the
    /// header's other words name (header numbers).
    pub year: Option<i32>,
    /// The scale the source prints: the fact's ("$ 2.5 million"), or the
    /// one a cell's column or row label names ("( in thousands )").
    pub scale: Option<Scale>,
}

/// The scale a label names after "in": "( in thousands )" gives "thousand".
pub fn label_scale(label: &str) -> Option<Scale> {
    let l = label.to_lowercase();
    ontology::tbox()
        .ok()?
        .scales()
        .iter()
        .find(|s| l.contains(&format!("in {}", s.word())))
        .cloned()
}

/// The scale a fact's scale word names (none for an empty word).
fn scale_named(word: &str) -> Option<Scale> {
    ontology::tbox().ok()?.scale(word)
}

impl Schema {
    /// The year of header number `k`: its own words' year, else `lost_row`
    /// (the year of the row the table lost into its headers, if known),
    /// else its column's year.
    pub fn header_number_year(&self, k: usize, lost_row: Option<i32>) -> Option<i32> {
        let h = &self.header_numbers[k];
        h.year
            .or(lost_row)
            .or_else(|| self.columns.get(h.column).and_then(|(_, y)| *y))
    }

    /// Describes a cell, header number or text fact of the page in `graph`
    /// by its IRI (the scheme of [`super::page_iri`]) from what the schema
    /// holds, in the words [`describe_source`] reads from the store; `None`
    /// when the schema holds no such node.
    pub fn describe_source(&self, graph: &NamedNode, iri: &str) -> Option<SourceInfo> {
        let page = graph.as_str().strip_suffix("/graph")?;
        let mut path = iri.strip_prefix(page)?.strip_prefix('/')?.split('/');
        let kind = path.next()?;
        let a: usize = path.next()?.parse().ok()?;
        let b = path.next();
        if path.next().is_some() {
            return None;
        }
        match (kind, b) {
            ("cell", Some(b)) => {
                let column: usize = b.parse().ok()?;
                let i = self
                    .cells
                    .binary_search_by(|c| (c.row, c.column).cmp(&(a, column)))
                    .ok()?;
                let c = &self.cells[i];
                Some(SourceInfo {
                    text: format!(
                        "cell row `{}`, column `{}`: `{}`",
                        c.row_label, c.column_label, c.raw
                    ),
                    metric: Some(c.row_label.clone()),
                    year: c.column_year.or(c.row_year),
                    scale: label_scale(&c.column_label).or_else(|| label_scale(&c.row_label)),
                })
            }
            ("column", Some("number")) => {
                let h = self.header_numbers.iter().find(|h| h.column == a)?;
                Some(SourceInfo {
                    text: format!("column header `{}`: `{}`", h.column_label, h.raw),
                    metric: (!h.words.is_empty()).then(|| h.words.clone()),
                    year: h.year,
                    scale: label_scale(&h.column_label),
                })
            }
            ("fact", Some(b)) => {
                let token: usize = b.parse().ok()?;
                let i = self
                    .facts
                    .binary_search_by(|f| (f.sentence, f.token).cmp(&(a, token)))
                    .ok()?;
                let f = &self.facts[i];
                Some(SourceInfo {
                    text: format!(
                        "sentence {}: \"{}\" (number `{}`)",
                        f.sentence, f.sentence_text, f.raw
                    ),
                    metric: Some(f.context.clone()),
                    year: f.year,
                    scale: f.scale.clone(),
                })
            }
            _ => None,
        }
    }
}

/// Describes a cell, header number or text fact node of the page by its IRI.
pub fn describe_source(kg: &KgStore, iri: &str) -> Result<Option<SourceInfo>, KgError> {
    if iri.contains('>') || iri.contains('<') || iri.contains(' ') {
        return Ok(None);
    }
    let g = format!("<{}>", kg.graph().as_str());
    let cell = rows(
        kg,
        &format!(
            "SELECT ?rl ?cl ?raw ?ry ?cy WHERE {{ GRAPH {g} {{ <{iri}> fk:row ?r ; fk:column ?c ; fk:rawValue ?raw .
               ?r rdfs:label ?rl . ?c rdfs:label ?cl . OPTIONAL {{ ?r fk:year ?ry }} OPTIONAL {{ ?c fk:year ?cy }} }} }}"
        ),
    )?;
    if let Some(r) = cell.first() {
        return Ok(Some(SourceInfo {
            text: format!(
                "cell row `{}`, column `{}`: `{}`",
                text(&r[0]),
                text(&r[1]),
                text(&r[2])
            ),
            metric: Some(text(&r[0])),
            year: number(&r[4]).or(number(&r[3])),
            scale: label_scale(&text(&r[1])).or_else(|| label_scale(&text(&r[0]))),
        }));
    }
    let header = rows(
        kg,
        &format!(
            "SELECT ?cl ?raw ?words ?y WHERE {{ GRAPH {g} {{ <{iri}> a fk:HeaderNumber ; fk:column ?c ; fk:rawValue ?raw .
               ?c rdfs:label ?cl . OPTIONAL {{ <{iri}> fk:context ?words }} OPTIONAL {{ <{iri}> fk:year ?y }} }} }}"
        ),
    )?;
    if let Some(r) = header.first() {
        let words = text(&r[2]);
        return Ok(Some(SourceInfo {
            text: format!("column header `{}`: `{}`", text(&r[0]), text(&r[1])),
            metric: (!words.is_empty()).then_some(words),
            year: number(&r[3]),
            scale: label_scale(&text(&r[0])),
        }));
    }
    let fact = rows(
        kg,
        &format!(
            "SELECT ?si ?st ?raw ?ctx ?y ?scale WHERE {{ GRAPH {g} {{ <{iri}> fk:sentence ?s ; fk:rawValue ?raw ; fk:context ?ctx .
               ?s fk:index ?si ; fk:text ?st . OPTIONAL {{ <{iri}> fk:year ?y }} OPTIONAL {{ <{iri}> fk:scale ?scale }} }} }}"
        ),
    )?;
    if let Some(r) = fact.first() {
        return Ok(Some(SourceInfo {
            text: format!(
                "sentence {}: \"{}\" (number `{}`)",
                text(&r[0]),
                text(&r[1]),
                text(&r[2])
            ),
            metric: Some(text(&r[3])),
            year: number(&r[4]),
            scale: scale_named(&text(&r[5])),
        }));
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_schema_queries_run_on_the_page_alone() {
        let q = schema_queries().unwrap();
        let tbox = ontology::tbox().unwrap();
        for query in [
            &q.columns,
            &q.rows,
            &q.concepts,
            &q.cells,
            &q.header_numbers,
            &q.sentences,
            &q.facts,
            &q.also_years,
        ] {
            assert!(
                !super::super::reach::reaches_tbox(query.query(), tbox),
                "{}",
                query.text()
            );
        }
    }
}

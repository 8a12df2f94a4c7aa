//! Building one page's ABox: the table as a Data Cube and the text as
//! sentences and text facts, each fact with provenance, all in the page's
//! own named graph.
//!
//! Terms built here are read back by SPARQL only; nothing else depends on
//! the IRI scheme, which [`page_iri`] documents.

use super::header::{header_number, HeaderNumber};
use super::text::{extract_numbers, split_sentences, Sentence, TextNumber};
use crate::dataset::cell::CellUnit;
use crate::dataset::{Document, Table};
use crate::vocab::{self, fk};
use crate::words;
use oxigraph::model::vocab::{rdf, rdfs, xsd};
use oxigraph::model::{GraphName, Literal, NamedNode, Quad, QuadRef, Term};

/// What one page's graph holds, counted.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct GraphStats {
    /// Quads in the page's named graph.
    pub triples: usize,
    /// Table cells.
    pub observations: usize,
    /// Sentences of the text.
    pub sentences: usize,
    /// Numbers read from the text.
    pub text_facts: usize,
}

/// How the node of a number printed in a column header ends (after
/// `{page}/column/{j}`).
pub const HEADER_NUMBER_NODE: &str = "/number";

/// The IRI of a conversation's page: `https://w3id.org/finkg/data/{id}`,
/// the id percent-encoded where it holds characters an IRI path may not.
/// Rows are `{page}/row/{i}`, columns `{page}/column/{j}`, cells
/// `{page}/cell/{i}/{j}`, the number printed in column `j`'s header (an
/// `fk:HeaderNumber`, at most one a column) `{page}/column/{j}/number`,
/// sentences `{page}/sentence/{k}` and text facts `{page}/fact/{k}/{t}`
/// (sentence `k`, token `t`); the named graph is `{page}/graph`.
pub fn page_iri(id: &str) -> String {
    let mut out = String::from(vocab::DATA);
    for b in id.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~/".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// The conversation id whose page's named graph is `graph` (the inverse of
/// [`page_iri`] followed by `/graph`); `None` for any other IRI.
pub fn page_id(graph: &str) -> Option<String> {
    let encoded = graph.strip_prefix(vocab::DATA)?.strip_suffix("/graph")?;
    let mut bytes = Vec::with_capacity(encoded.len());
    let mut rest = encoded.as_bytes();
    while let Some((&b, tail)) = rest.split_first() {
        if b == b'%' {
            let hex = std::str::from_utf8(tail.get(..2)?).ok()?;
            bytes.push(u8::from_str_radix(hex, 16).ok()?);
            rest = &tail[2..];
        } else if b.is_ascii_alphanumeric() || b"-._~/".contains(&b) {
            bytes.push(b);
            rest = tail;
        } else {
            return None;
        }
    }
    let id = String::from_utf8(bytes).ok()?;
    (!id.is_empty() && page_iri(&id) == graph[..graph.len() - "/graph".len()]).then_some(id)
}

struct Builder<'a> {
    graph: GraphName,
    /// Where each quad goes, in the order the page's quads are built.
    sink: &'a mut dyn FnMut(QuadRef<'_>),
    count: usize,
}

impl Builder<'_> {
    fn add(&mut self, s: &NamedNode, p: &NamedNode, o: impl Into<Term>) {
        let o = o.into();
        (self.sink)(QuadRef::new(s, p, &o, self.graph.as_ref()));
        self.count += 1;
    }
}

fn node(iri: String) -> NamedNode {
    NamedNode::new_unchecked(iri)
}

fn int(i: usize) -> Literal {
    Literal::new_typed_literal(i.to_string(), xsd::INTEGER)
}

fn decimal(d: rust_decimal::Decimal) -> Literal {
    let mut text = d.normalize().to_string();
    if !text.contains('.') {
        text.push_str(".0");
    }
    Literal::new_typed_literal(text, xsd::DECIMAL)
}

fn year(y: i32) -> Literal {
    Literal::new_typed_literal(format!("{y:04}"), xsd::G_YEAR)
}

/// Builds the ABox quads of one page in the graph `{page}/graph`.
pub fn build_abox(id: &str, doc: &Document) -> (NamedNode, Vec<Quad>, GraphStats) {
    let mut quads = Vec::new();
    let (graph, stats) = each_abox_quad(id, doc, |q| quads.push(q.into_owned()));
    (graph, quads, stats)
}

/// Hands each ABox quad of one page, in the graph `{page}/graph`, to
/// `each` as it is built (in [`build_abox`]'s order), without a copy of
/// its terms: the store inserts them straight away.
pub fn each_abox_quad(
    id: &str,
    doc: &Document,
    mut each: impl FnMut(QuadRef<'_>),
) -> (NamedNode, GraphStats) {
    let page_str = page_iri(id);
    let graph = node(format!("{page_str}/graph"));
    let mut b = Builder {
        graph: GraphName::NamedNode(graph.clone()),
        sink: &mut each,
        count: 0,
    };
    let page = node(page_str.clone());
    b.add(&page, &rdf::TYPE.into_owned(), fk("ReportPage"));
    b.add(&page, &rdf::TYPE.into_owned(), vocab::qb("DataSet"));
    b.add(
        &page,
        &vocab::dcterms("identifier"),
        Literal::new_simple_literal(id),
    );
    let mut sentences = split_sentences(&doc.pre_text, "pre_text", 0);
    let caption = sentences
        .last()
        .map(|s| s.tokens.clone())
        .unwrap_or_default();
    let post = split_sentences(&doc.post_text, "post_text", sentences.len());
    sentences.extend(post);
    let numbers: Vec<Vec<TextNumber>> = sentences.iter().map(extract_numbers).collect();
    // a table whose rows are the periods ("2017", "2018", ...) lost its
    // first period's row into its headers: the column is no year's
    let rows_dated = doc
        .table
        .rows
        .iter()
        .filter(|r| distinct_years(&r.label).len() == 1)
        .count()
        >= 2;
    let mut dated = vec![None; doc.table.columns.len()];
    if !rows_dated {
        dated = header_years_from_text(&doc.table, numbers.iter().flatten());
        if dated.iter().all(Option::is_none) {
            dated = header_years_from_caption(&doc.table, &caption);
        }
    }
    let mut stats = GraphStats {
        observations: add_table(&mut b, &page, &page_str, &doc.table, &dated),
        ..GraphStats::default()
    };
    stats.sentences = sentences.len();
    for (sentence, numbers) in sentences.iter().zip(&numbers) {
        stats.text_facts += numbers.len();
        add_sentence(&mut b, &page, &page_str, sentence, numbers);
    }
    stats.triples = b.count;
    (graph, stats)
}

/// The year of each column that prints none but whose header prints a
/// number the text states for one year only ("$ 8,412" beside "the balance
/// at the beginning of the year was $ 8,412 million for 2012"): a table
/// whose first row was read into its headers dates its columns there. A
/// year two columns would share dates neither.
fn header_years_from_text<'n>(
    table: &Table,
    numbers: impl Iterator<Item = &'n TextNumber> + Clone,
) -> Vec<Option<i32>> {
    let years: Vec<Option<i32>> = table
        .columns
        .iter()
        .map(|header| {
            if !distinct_years(header).is_empty() {
                return None;
            }
            let n = header_number(header)?;
            let mut ys: Vec<i32> = numbers
                .clone()
                .filter(|t| !t.is_year_mention && !t.percent && t.value.abs() == n.value.abs())
                .filter_map(|t| t.year)
                .collect();
            ys.sort_unstable();
            ys.dedup();
            match ys.as_slice() {
                [y] => Some(*y),
                _ => None,
            }
        })
        .collect();
    years
        .iter()
        .map(|y| y.filter(|y| years.iter().filter(|x| **x == Some(*y)).count() == 1))
        .collect()
}

/// The years of a table whose every header is a number (its first row read
/// into its headers, so no header prints a year) from its caption, the
/// sentence just before it, when that prints one year a column ("a
/// reconciliation of unrecognized tax benefits for 2012 and 2011 ,
/// respectively , is as follows"): the columns in the caption's order, or
/// a group of columns a year when the headers print the same words in turn
/// ("high", "low", "high", "low" for 2012 and 2011).
fn header_years_from_caption(table: &Table, caption: &[String]) -> Vec<Option<i32>> {
    let none = vec![None; table.columns.len()];
    // every header a number and no year: the words beside each number
    let lost_row: Option<Vec<String>> = table
        .columns
        .iter()
        .map(|h| header_number(h).filter(|_| distinct_years(h).is_empty()))
        .map(|n| n.map(|n| n.words))
        .collect();
    let Some(words) = lost_row.filter(|_| table.columns.len() >= 2) else {
        return none;
    };
    let mut years: Vec<i32> = Vec::new();
    for y in caption.iter().filter_map(|t| super::text::as_year(t)) {
        if !years.contains(&y) {
            years.push(y);
        }
    }
    if years.len() == table.columns.len() {
        return years.into_iter().map(Some).collect();
    }
    // groups of columns that print the same words in turn ("high $ 32.15",
    // "low $ 27.40", "high $ 29.88", "low $ 24.06"): a year a group
    let n = table.columns.len();
    if years.len() < 2 || !n.is_multiple_of(years.len()) {
        return none;
    }
    let k = n / years.len();
    let group = &words[..k];
    let distinct = group
        .iter()
        .enumerate()
        .all(|(i, w)| !w.is_empty() && !group[..i].contains(w));
    if !distinct || (0..n).any(|j| words[j] != words[j % k]) {
        return none;
    }
    (0..n).map(|j| Some(years[j / k])).collect()
}

fn add_table(
    b: &mut Builder,
    page: &NamedNode,
    page_str: &str,
    table: &Table,
    dated: &[Option<i32>],
) -> usize {
    let type_ = rdf::TYPE.into_owned();
    let label = rdfs::LABEL.into_owned();
    let columns: Vec<NamedNode> = table
        .columns
        .iter()
        .enumerate()
        .map(|(j, header)| {
            let col = node(format!("{page_str}/column/{j}"));
            b.add(&col, &type_, fk("TableColumn"));
            b.add(&col, &label, Literal::new_simple_literal(header));
            b.add(
                &col,
                &vocab::skos("altLabel"),
                Literal::new_simple_literal(words::normalise_label(header)),
            );
            b.add(&col, &fk("index"), int(j));
            b.add(&col, &fk("table"), page.clone());
            if let [y] = distinct_years(header).as_slice() {
                b.add(&col, &fk("year"), year(*y));
            } else if let Some(y) = dated.get(j).copied().flatten() {
                b.add(&col, &fk("year"), year(y));
            }
            if let Some(n) = header_number(header) {
                add_header_number(
                    b,
                    &col,
                    &format!("{page_str}/column/{j}{HEADER_NUMBER_NODE}"),
                    &n,
                );
            }
            col
        })
        .collect();
    let mut observations = 0;
    for (i, row) in table.rows.iter().enumerate() {
        let row_node = node(format!("{page_str}/row/{i}"));
        b.add(&row_node, &type_, fk("TableRow"));
        b.add(&row_node, &label, Literal::new_simple_literal(&row.label));
        b.add(
            &row_node,
            &vocab::skos("altLabel"),
            Literal::new_simple_literal(words::normalise_label(&row.label)),
        );
        b.add(&row_node, &fk("index"), int(i));
        b.add(&row_node, &fk("table"), page.clone());
        let concept = crate::ontology::tbox()
            .ok()
            .and_then(|t| t.concept_for_key(&crate::lexicon::key(&row.label)));
        if let Some(concept) = concept {
            b.add(&row_node, &fk("concept"), node(concept.to_string()));
        }
        if let [y] = distinct_years(&row.label).as_slice() {
            b.add(&row_node, &fk("year"), year(*y));
        }
        for (j, cell) in row.cells.iter().enumerate() {
            let Some(col) = columns.get(j) else { continue };
            let obs = node(format!("{page_str}/cell/{i}/{j}"));
            b.add(&obs, &type_, vocab::qb("Observation"));
            b.add(&obs, &vocab::qb("dataSet"), page.clone());
            b.add(&obs, &fk("row"), row_node.clone());
            b.add(&obs, &fk("column"), col.clone());
            b.add(
                &obs,
                &fk("rawValue"),
                Literal::new_simple_literal(&cell.raw),
            );
            b.add(&obs, &vocab::prov("wasDerivedFrom"), page.clone());
            if let Some(v) = cell.value {
                b.add(&obs, &fk("value"), decimal(v));
            }
            match cell.unit {
                CellUnit::Percent => b.add(&obs, &fk("unit"), fk("Percent")),
                CellUnit::Currency => b.add(&obs, &fk("unit"), fk("Currency")),
                CellUnit::None => {}
            }
            observations += 1;
        }
    }
    observations
}

/// The number a column header prints, as an `fk:HeaderNumber` of its column,
/// with the year its header's other words name.
fn add_header_number(b: &mut Builder, col: &NamedNode, iri: &str, n: &HeaderNumber) {
    let number = node(iri.to_string());
    b.add(&number, &rdf::TYPE.into_owned(), fk("HeaderNumber"));
    b.add(&number, &fk("column"), col.clone());
    b.add(&number, &fk("value"), decimal(n.value));
    b.add(
        &number,
        &fk("rawValue"),
        Literal::new_simple_literal(&n.raw),
    );
    if !n.words.is_empty() {
        b.add(
            &number,
            &fk("context"),
            Literal::new_simple_literal(&n.words),
        );
    }
    match n.unit {
        CellUnit::Percent => b.add(&number, &fk("unit"), fk("Percent")),
        CellUnit::Currency => b.add(&number, &fk("unit"), fk("Currency")),
        CellUnit::None => {}
    }
    if let [y] = distinct_years(&n.words).as_slice() {
        b.add(&number, &fk("year"), year(*y));
    }
    b.add(&number, &vocab::prov("wasDerivedFrom"), col.clone());
}

fn distinct_years(label: &str) -> Vec<i32> {
    let mut ys = words::years_in(label);
    ys.dedup();
    ys
}

fn add_sentence(
    b: &mut Builder,
    page: &NamedNode,
    page_str: &str,
    s: &Sentence,
    numbers: &[TextNumber],
) {
    let type_ = rdf::TYPE.into_owned();
    let sent = node(format!("{page_str}/sentence/{}", s.index));
    b.add(&sent, &type_, fk("Sentence"));
    b.add(&sent, &fk("text"), Literal::new_simple_literal(&s.text));
    b.add(&sent, &fk("index"), int(s.index));
    b.add(
        &sent,
        &fk("section"),
        Literal::new_simple_literal(s.section),
    );
    b.add(&sent, &fk("page"), page.clone());
    for n in numbers {
        let fact = node(format!("{page_str}/fact/{}/{}", s.index, n.token_index));
        b.add(&fact, &type_, fk("TextFact"));
        b.add(&fact, &fk("value"), decimal(n.value));
        b.add(&fact, &fk("rawValue"), Literal::new_simple_literal(&n.raw));
        b.add(&fact, &fk("sentence"), sent.clone());
        b.add(&fact, &fk("tokenIndex"), int(n.token_index));
        b.add(
            &fact,
            &fk("context"),
            Literal::new_simple_literal(&n.context),
        );
        b.add(&fact, &vocab::prov("wasDerivedFrom"), sent.clone());
        b.add(
            &fact,
            &fk("isYearMention"),
            Literal::from(n.is_year_mention),
        );
        if n.percent {
            b.add(&fact, &fk("unit"), fk("Percent"));
        } else if n.currency {
            b.add(&fact, &fk("unit"), fk("Currency"));
        }
        if let Some(scale) = &n.scale {
            b.add(&fact, &fk("scale"), Literal::new_simple_literal(scale));
        }
        if let Some(y) = n.year {
            b.add(&fact, &fk("year"), year(y));
        }
        if n.is_change {
            b.add(&fact, &fk("isChange"), Literal::from(true));
        }
        for y in &n.also_years {
            b.add(&fact, &fk("alsoYear"), year(*y));
        }
        for y in &n.nearby_years {
            b.add(&fact, &fk("nearbyYear"), year(*y));
        }
    }
}

#[cfg(test)]
mod page_id_tests {
    use super::*;

    #[test]
    fn a_page_graph_names_its_conversation() {
        for id in ["Single_MRO/2007/page_134.pdf-1", "a b%c/é", "x"] {
            let graph = format!("{}/graph", page_iri(id));
            assert_eq!(page_id(&graph).as_deref(), Some(id), "{graph}");
        }
        assert_eq!(page_id(vocab::TBOX_GRAPH), None);
        assert_eq!(page_id(&format!("{}x/other", vocab::DATA)), None);
        assert_eq!(page_id(&format!("{}x%zz/graph", vocab::DATA)), None);
        assert_eq!(page_id(&format!("{}graph", vocab::DATA)), None);
    }
}

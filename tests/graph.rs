//! The knowledge graph of a hand-built page, read back through the guarded
//! SPARQL seam: cells by their labels, text facts with their sentence,
//! numbers printed in column headers, and the planners' schema view.

use finkg::dataset::cell::parse_cell;
use finkg::dataset::{Conversation, Document, Row, Table};
use finkg::kg::{
    describe_source, header_number_query, page_iri, GuardedQuery, KgStore, QueryOutput, Schema,
};
use finkg::vocab;
use oxigraph::model::vocab::xsd;
use oxigraph::model::{Literal, NamedNode, Term};
use rust_decimal::Decimal;
use std::collections::HashMap;
use std::str::FromStr;

const ID: &str = "Test_ACME/2009/page_7.pdf-1";
const SENTENCE: &str = "revenue was $ 1,234.5 million in 2009 .";

fn dec(s: &str) -> Decimal {
    Decimal::from_str(s).unwrap()
}

fn row(label: &str, cells: &[&str]) -> Row {
    Row {
        label: label.to_string(),
        cells: cells.iter().map(|c| parse_cell(c)).collect(),
    }
}

fn conversation() -> Conversation {
    Conversation {
        id: ID.to_string(),
        document: Document {
            pre_text: format!("acme makes widgets . {SENTENCE} it employs many people ."),
            post_text: "amounts are in millions .".to_string(),
            table: Table {
                columns: vec!["2009".to_string(), "2008".to_string()],
                rows: vec![
                    row("net sales", &["$ 1,500", "$ 1,200"]),
                    row("operating income", &["300", "240"]),
                    row("restructuring charges", &["( 12 )", "( 10 )"]),
                    row("segment", &["widgets", "n/a"]),
                ],
            },
        },
        questions: vec!["what was net sales in 2009?".to_string()],
    }
}

/// Runs a SELECT (prefixes prepended) and returns each row as a map.
fn select(kg: &KgStore, body: &str) -> Vec<HashMap<String, Term>> {
    let text = format!("{}{body}", vocab::sparql_prefixes());
    let query = GuardedQuery::parse(&text).unwrap_or_else(|e| panic!("guard refused: {e}"));
    match kg.query(&query).expect("query runs") {
        QueryOutput::Solutions { variables, rows } => rows
            .into_iter()
            .map(|r| {
                variables
                    .iter()
                    .cloned()
                    .zip(r)
                    .filter_map(|(v, t)| t.map(|t| (v, t)))
                    .collect()
            })
            .collect(),
        QueryOutput::Boolean(b) => panic!("expected solutions, got {b}"),
    }
}

fn ask(kg: &KgStore, body: &str) -> bool {
    let text = format!("{}{body}", vocab::sparql_prefixes());
    let query = GuardedQuery::parse(&text).unwrap();
    match kg.query(&query).unwrap() {
        QueryOutput::Boolean(b) => b,
        other => panic!("expected a boolean, got {other:?}"),
    }
}

fn literal<'a>(row: &'a HashMap<String, Term>, var: &str) -> &'a Literal {
    match row.get(var) {
        Some(Term::Literal(l)) => l,
        other => panic!("?{var} is not a literal: {other:?}"),
    }
}

fn iri<'a>(row: &'a HashMap<String, Term>, var: &str) -> &'a str {
    match row.get(var) {
        Some(Term::NamedNode(n)) => n.as_str(),
        other => panic!("?{var} is not an IRI: {other:?}"),
    }
}

fn decimal_of(l: &Literal) -> Decimal {
    assert_eq!(l.datatype(), xsd::DECIMAL, "{l} is not an xsd:decimal");
    dec(l.value())
}

fn cell_by_labels(kg: &KgStore, row_label: &str, column_label: &str) -> HashMap<String, Term> {
    let rows = select(
        kg,
        &format!(
            "SELECT ?o ?value ?raw ?from WHERE {{ GRAPH ?g {{
               ?o a qb:Observation ; fk:row ?r ; fk:column ?c ; fk:rawValue ?raw ;
                  prov:wasDerivedFrom ?from .
               OPTIONAL {{ ?o fk:value ?value }}
               ?r rdfs:label \"{row_label}\" . ?c rdfs:label \"{column_label}\" .
             }} }}"
        ),
    );
    assert_eq!(
        rows.len(),
        1,
        "cell ({row_label}, {column_label}): {rows:?}"
    );
    rows.into_iter().next().unwrap()
}

#[test]
fn a_cell_is_found_by_its_row_and_column_labels() {
    let kg = KgStore::build(&conversation()).unwrap();
    let cell = cell_by_labels(&kg, "net sales", "2009");
    assert_eq!(decimal_of(literal(&cell, "value")), dec("1500"));
    assert_eq!(literal(&cell, "raw").value(), "$ 1,500");
    assert_eq!(iri(&cell, "from"), page_iri(ID));

    let cell = cell_by_labels(&kg, "operating income", "2008");
    assert_eq!(decimal_of(literal(&cell, "value")), dec("240"));
    assert_eq!(literal(&cell, "raw").value(), "240");
}

#[test]
fn a_parenthesised_cell_reads_as_negative() {
    let kg = KgStore::build(&conversation()).unwrap();
    let cell = cell_by_labels(&kg, "restructuring charges", "2009");
    assert_eq!(decimal_of(literal(&cell, "value")), dec("-12"));
    assert_eq!(literal(&cell, "raw").value(), "( 12 )");
    let cell = cell_by_labels(&kg, "restructuring charges", "2008");
    assert_eq!(decimal_of(literal(&cell, "value")), dec("-10"));
}

#[test]
fn a_text_cell_keeps_its_raw_text_and_has_no_value() {
    let kg = KgStore::build(&conversation()).unwrap();
    let cell = cell_by_labels(&kg, "segment", "2009");
    assert_eq!(literal(&cell, "raw").value(), "widgets");
    assert!(!cell.contains_key("value"), "{cell:?}");
    let cell = cell_by_labels(&kg, "segment", "2008");
    assert_eq!(literal(&cell, "raw").value(), "n/a");
    assert!(!cell.contains_key("value"), "{cell:?}");
}

#[test]
fn a_currency_cell_has_the_currency_unit() {
    let kg = KgStore::build(&conversation()).unwrap();
    assert!(ask(
        &kg,
        "ASK { GRAPH ?g { ?o fk:row ?r ; fk:column ?c ; fk:unit fk:Currency .
                 ?r rdfs:label \"net sales\" . ?c rdfs:label \"2008\" } }"
    ));
    assert!(!ask(
        &kg,
        "ASK { GRAPH ?g { ?o fk:row ?r ; fk:column ?c ; fk:unit fk:Currency .
                 ?r rdfs:label \"operating income\" . ?c rdfs:label \"2008\" } }"
    ));
}

#[test]
fn columns_named_by_a_year_carry_it() {
    let kg = KgStore::build(&conversation()).unwrap();
    let rows = select(
        &kg,
        "SELECT ?label ?year WHERE { GRAPH ?g { ?c a fk:TableColumn ; rdfs:label ?label ; fk:year ?year } } ORDER BY ?label",
    );
    assert_eq!(rows.len(), 2);
    assert_eq!(literal(&rows[0], "label").value(), "2008");
    assert_eq!(
        literal(&rows[0], "year"),
        &Literal::new_typed_literal("2008", xsd::G_YEAR)
    );
    assert_eq!(literal(&rows[1], "label").value(), "2009");
}

#[test]
fn a_text_number_is_a_text_fact_with_its_sentence() {
    let kg = KgStore::build(&conversation()).unwrap();
    let rows = select(
        &kg,
        "SELECT ?f ?value ?raw ?scale ?s ?text WHERE { GRAPH ?g {
           ?f a fk:TextFact ; fk:value ?value ; fk:rawValue ?raw ; fk:scale ?scale ;
              fk:year \"2009\"^^xsd:gYear ; prov:wasDerivedFrom ?s .
           ?s a fk:Sentence ; fk:text ?text .
           FILTER (?value = 1234.5)
         } }",
    );
    assert_eq!(rows.len(), 1, "{rows:?}");
    let fact = &rows[0];
    assert_eq!(decimal_of(literal(fact, "value")), dec("1234.5"));
    assert_eq!(literal(fact, "scale").value(), "million");
    assert!(literal(fact, "raw").value().contains("1,234.5"));
    assert!(
        literal(fact, "text").value().contains(SENTENCE),
        "sentence text: {}",
        literal(fact, "text").value()
    );
    let fact_iri = iri(fact, "f");
    let sentence_iri = iri(fact, "s");
    assert!(fact_iri.starts_with(&page_iri(ID)), "{fact_iri}");
    assert!(sentence_iri.starts_with(&page_iri(ID)), "{sentence_iri}");

    // the year is typed xsd:gYear
    let years = select(
        &kg,
        &format!("SELECT ?y WHERE {{ GRAPH ?g {{ <{fact_iri}> fk:year ?y }} }}"),
    );
    assert_eq!(years.len(), 1);
    assert_eq!(
        literal(&years[0], "y"),
        &Literal::new_typed_literal("2009", xsd::G_YEAR)
    );
}

#[test]
fn the_abox_lives_in_the_page_graph_and_the_tbox_beside_it() {
    let kg = KgStore::build(&conversation()).unwrap();
    let graph = kg.graph().as_str().to_string();
    assert!(graph.starts_with(&page_iri(ID)), "{graph}");
    assert!(ask(
        &kg,
        &format!("ASK {{ GRAPH <{graph}> {{ ?o a qb:Observation }} }}")
    ));
    assert!(ask(
        &kg,
        &format!("ASK {{ GRAPH <{}> {{ ?s ?p ?o }} }}", vocab::TBOX_GRAPH)
    ));
    assert!(!ask(
        &kg,
        &format!(
            "ASK {{ GRAPH <{}> {{ ?o a qb:Observation }} }}",
            vocab::TBOX_GRAPH
        )
    ));
    let stats = kg.stats();
    assert_eq!(stats.observations, 8, "4 rows x 2 columns");
    assert_eq!(stats.sentences, 4, "{stats:?}");
    assert!(stats.text_facts >= 2, "{stats:?}");
    assert!(stats.triples > stats.observations * 5, "{stats:?}");
}

#[test]
fn page_iri_escapes_what_an_iri_may_not_hold() {
    let iri = page_iri("Double_A B/2009/page_1.pdf-1");
    assert!(NamedNode::new(&iri).is_ok(), "{iri}");
    assert!(!iri.contains(' '), "{iri}");
    assert!(iri.starts_with(vocab::DATA));
}

#[test]
fn schema_lists_rows_columns_cells_and_facts() {
    let kg = KgStore::build(&conversation()).unwrap();
    let schema = Schema::read(&kg).unwrap();
    assert_eq!(
        schema.columns,
        vec![
            ("2009".to_string(), Some(2009)),
            ("2008".to_string(), Some(2008))
        ]
    );
    let labels: Vec<&str> = schema.rows.iter().map(|(l, _)| l.as_str()).collect();
    assert_eq!(
        labels,
        [
            "net sales",
            "operating income",
            "restructuring charges",
            "segment"
        ]
    );
    // only numeric cells are listed
    assert_eq!(schema.cells.len(), 6, "{:?}", schema.cells);
    let c = schema
        .cells
        .iter()
        .find(|c| c.row_label == "operating income" && c.column_label == "2009")
        .expect("operating income 2009");
    assert_eq!(c.value, dec("300"));
    assert_eq!(c.raw, "300");
    assert_eq!(c.column_year, Some(2009));
    assert_eq!((c.row, c.column), (1, 0));
    let neg = schema
        .cells
        .iter()
        .find(|c| c.row_label == "restructuring charges" && c.column_label == "2008")
        .unwrap();
    assert_eq!(neg.value, dec("-10"));
    assert_eq!(neg.raw, "( 10 )");
    assert!(!schema.cells.iter().any(|c| c.row_label == "segment"));

    assert_eq!(schema.sentences.len(), 4);
    assert_eq!(schema.sentences[1], SENTENCE);
    let fact = schema
        .facts
        .iter()
        .find(|f| f.value == dec("1234.5"))
        .expect("the revenue fact");
    assert_eq!(fact.sentence, 1);
    assert_eq!(fact.year, Some(2009));
    assert_eq!(
        fact.scale.as_ref().map(finkg::turn::Scale::word),
        Some("million")
    );
    assert!(!fact.is_year_mention);
    assert_eq!(fact.sentence_text, SENTENCE);
    let year = schema
        .facts
        .iter()
        .find(|f| f.value == dec("2009"))
        .expect("the year is read as a number too");
    assert!(year.is_year_mention);
}

#[test]
fn the_guard_refuses_what_may_not_run() {
    let p = vocab::sparql_prefixes();
    for text in [
        format!(
            "{p}SELECT * WHERE {{ OPTIONAL {{ SERVICE <http://example.org/s> {{ ?s ?p ?o }} }} }}"
        ),
        format!("{p}ASK {{ FILTER EXISTS {{ SERVICE <http://example.org/s> {{ ?s ?p ?o }} }} }}"),
        format!("{p}DELETE WHERE {{ ?s ?p ?o }}"),
        format!("{p}DESCRIBE <http://example.org/a>"),
        format!("{p}CONSTRUCT WHERE {{ ?s ?p ?o }}"),
        format!("{p}SELECT ?x WHERE {{"),
        format!("{p}SELECT * WHERE {{ ?s ?p \"{}\" }}", "x".repeat(20_000)),
    ] {
        assert!(
            GuardedQuery::parse(&text).is_err(),
            "admitted: {}",
            &text[p.len()..(p.len() + 80).min(text.len())]
        );
    }
    assert!(GuardedQuery::parse(&format!("{p}ASK {{ ?s fk:value ?v }}")).is_ok());
}

#[test]
fn rows_link_to_their_lexicon_concept() {
    // the shipped lexicon (ontology/lexicon.ttl) has "net revenue" with the
    // form "net revenues"; a row printed either way names that concept
    let mut conv = conversation();
    conv.document.table.rows[0] = row("net revenues ( 1 )", &["$ 1,500", "$ 1,200"]);
    let kg = KgStore::build(&conv).expect("builds");
    let rows = select(
        &kg,
        "SELECT ?label ?concept ?pref WHERE { GRAPH ?g { ?r a fk:TableRow ; fk:index 0 ; rdfs:label ?label ; fk:concept ?concept }
           GRAPH ?t { ?concept a skos:Concept ; skos:prefLabel ?pref } }",
    );
    assert_eq!(rows.len(), 1, "{rows:?}");
    assert_eq!(
        rows[0]["concept"],
        Term::NamedNode(NamedNode::new_unchecked(
            "https://w3id.org/finkg/lexicon#net-revenu"
        ))
    );
    assert_eq!(
        rows[0]["pref"],
        Term::Literal(Literal::new_simple_literal("net revenue"))
    );
    let schema = Schema::read(&kg).expect("schema");
    assert!(schema.row_concept_labels[0].contains(&"net revenues".to_string()));
    assert!(
        schema.row_concept_labels[2].is_empty(),
        "restructuring charges has no concept"
    );
}

#[test]
fn every_fk_term_in_use_is_declared_labelled_commented_and_defined_by_the_ontology() {
    for conv in [conversation(), header_page()] {
        terms_are_documented(&KgStore::build(&conv).unwrap());
    }
}

fn terms_are_documented(kg: &KgStore) {
    let undocumented = select(
        kg,
        &format!(
            "SELECT DISTINCT ?term WHERE {{
               {{ GRAPH ?g {{ ?s ?term ?o }} }} UNION {{ GRAPH ?g {{ ?s a ?term }} }}
               UNION {{ GRAPH ?g {{ ?term ?p ?o }} }}
               FILTER(isIRI(?term) && STRSTARTS(STR(?term), \"{}\"))
               FILTER NOT EXISTS {{ GRAPH <{}> {{
                 ?term a ?kind ; rdfs:label ?label ; rdfs:comment ?comment }} }}
             }} ORDER BY ?term",
            vocab::FK,
            vocab::TBOX_GRAPH
        ),
    );
    assert!(undocumented.is_empty(), "undocumented: {undocumented:?}");
    let undefined = select(
        kg,
        &format!(
            "SELECT ?term WHERE {{ GRAPH <{}> {{
               ?term a ?kind . VALUES ?kind {{ owl:Class owl:ObjectProperty owl:DatatypeProperty }}
               FILTER(STRSTARTS(STR(?term), \"{}\"))
               FILTER NOT EXISTS {{ ?term rdfs:isDefinedBy <https://w3id.org/finkg/ns> }}
             }} }}",
            vocab::TBOX_GRAPH,
            vocab::FK
        ),
    );
    assert!(undefined.is_empty(), "no rdfs:isDefinedBy: {undefined:?}");
    assert!(ask(
        kg,
        "ASK { GRAPH ?g { <https://w3id.org/finkg/ns> a owl:Ontology ;
             owl:versionInfo ?v ; <http://purl.org/vocab/vann/preferredNamespaceUri> \"https://w3id.org/finkg/ns#\" } }"
    ));
}

const HEADER_ID: &str = "Test_HDR/2010/page_3.pdf-2";

/// A page whose first row of values was read into its column headers,
/// beside columns named by a year and by a date.
fn header_page() -> Conversation {
    Conversation {
        id: HEADER_ID.to_string(),
        document: Document {
            pre_text: "the stock traded as follows .".to_string(),
            post_text: "prices are in dollars .".to_string(),
            table: Table {
                columns: vec![
                    "$ 45826".to_string(),
                    "high $ 17.84".to_string(),
                    "low $ 4.11".to_string(),
                    "2009".to_string(),
                    "december 31 , 2008".to_string(),
                ],
                rows: vec![row(
                    "second quarter",
                    &["$ 41200", "$ 15.10", "$ 3.98", "12", "10"],
                )],
            },
        },
        questions: vec!["what was the high price?".to_string()],
    }
}

#[test]
fn numbers_printed_in_column_headers_are_header_numbers_of_their_columns() {
    let kg = KgStore::build(&header_page()).unwrap();
    let rows = select(
        &kg,
        "SELECT ?n ?index ?label ?value ?raw ?words ?unit ?from WHERE { GRAPH ?g {
           ?n a fk:HeaderNumber ; fk:column ?c ; fk:value ?value ; fk:rawValue ?raw ;
              fk:unit ?unit ; prov:wasDerivedFrom ?from .
           ?c a fk:TableColumn ; fk:index ?index ; rdfs:label ?label .
           OPTIONAL { ?n fk:context ?words }
         } } ORDER BY ?index",
    );
    assert_eq!(rows.len(), 3, "{rows:?}");
    let page = page_iri(HEADER_ID);
    let expected = [
        (0, "$ 45826", "45826", "$ 45826", None),
        (1, "high $ 17.84", "17.84", "$ 17.84", Some("high")),
        (2, "low $ 4.11", "4.11", "$ 4.11", Some("low")),
    ];
    for (row, (index, label, value, raw, words)) in rows.iter().zip(expected) {
        assert_eq!(literal(row, "index").value(), index.to_string());
        assert_eq!(literal(row, "label").value(), label);
        assert_eq!(decimal_of(literal(row, "value")), dec(value));
        assert_eq!(literal(row, "raw").value(), raw);
        assert_eq!(
            row.get("words").map(|_| literal(row, "words").value()),
            words
        );
        assert_eq!(iri(row, "unit"), format!("{}Currency", vocab::FK));
        assert_eq!(iri(row, "from"), format!("{page}/column/{index}"));
        assert_eq!(iri(row, "n"), format!("{page}/column/{index}/number"));
    }
}

#[test]
fn years_and_dates_in_headers_are_not_header_numbers() {
    let kg = KgStore::build(&header_page()).unwrap();
    for label in ["2009", "december 31 , 2008"] {
        assert!(
            !ask(
                &kg,
                &format!(
                    "ASK {{ GRAPH ?g {{ ?n a fk:HeaderNumber ; fk:column ?c . ?c rdfs:label \"{label}\" }} }}"
                )
            ),
            "{label}"
        );
    }
    // they stay the columns' years
    let years = select(
        &kg,
        "SELECT ?index ?year WHERE { GRAPH ?g { ?c a fk:TableColumn ; fk:index ?index ; fk:year ?year } } ORDER BY ?index",
    );
    let years: Vec<(String, String)> = years
        .iter()
        .map(|r| {
            (
                literal(r, "index").value().to_string(),
                literal(r, "year").value().to_string(),
            )
        })
        .collect();
    assert_eq!(
        years,
        [
            ("3".to_string(), "2009".to_string()),
            ("4".to_string(), "2008".to_string())
        ]
    );
    // the first page's headers are all years
    let kg = KgStore::build(&conversation()).unwrap();
    assert!(!ask(&kg, "ASK { GRAPH ?g { ?n a fk:HeaderNumber } }"));
}

#[test]
fn the_header_number_query_reads_one_number_by_its_column() {
    let kg = KgStore::build(&header_page()).unwrap();
    let text = header_number_query(1);
    let query = GuardedQuery::parse(&text).unwrap_or_else(|e| panic!("guard refused: {e}"));
    let QueryOutput::Solutions { variables, rows } = kg.query(&query).unwrap() else {
        panic!("expected solutions");
    };
    assert_eq!(variables, ["value", "source"]);
    assert_eq!(rows.len(), 1, "{rows:?}");
    let Some(Term::Literal(value)) = &rows[0][0] else {
        panic!("?value unbound: {rows:?}");
    };
    assert_eq!(decimal_of(value), dec("17.84"));
    let Some(Term::NamedNode(source)) = &rows[0][1] else {
        panic!("?source unbound: {rows:?}");
    };
    assert_eq!(
        source.as_str(),
        format!("{}/column/1/number", page_iri(HEADER_ID))
    );
    let info = describe_source(&kg, source.as_str())
        .unwrap()
        .expect("described");
    assert_eq!(info.text, "column header `high $ 17.84`: `$ 17.84`");
    assert_eq!(info.metric.as_deref(), Some("high"));

    // a column whose header is a year has none
    let query = GuardedQuery::parse(&header_number_query(3)).unwrap();
    let QueryOutput::Solutions { rows, .. } = kg.query(&query).unwrap() else {
        panic!("expected solutions");
    };
    assert!(rows.is_empty(), "{rows:?}");
}

#[test]
fn schema_lists_header_numbers() {
    let kg = KgStore::build(&header_page()).unwrap();
    let schema = Schema::read(&kg).unwrap();
    let read: Vec<(usize, &str, &str, Decimal, &str, bool)> = schema
        .header_numbers
        .iter()
        .map(|h| {
            (
                h.column,
                h.column_label.as_str(),
                h.words.as_str(),
                h.value,
                h.raw.as_str(),
                h.percent,
            )
        })
        .collect();
    assert_eq!(
        read,
        [
            (0, "$ 45826", "", dec("45826"), "$ 45826", false),
            (1, "high $ 17.84", "high", dec("17.84"), "$ 17.84", false),
            (2, "low $ 4.11", "low", dec("4.11"), "$ 4.11", false),
        ]
    );
    assert!(schema.header_numbers.iter().all(|h| h.year.is_none()));
    // the cells beneath are read as before
    assert_eq!(schema.cells.len(), 5);
    let kg = KgStore::build(&conversation()).unwrap();
    assert!(Schema::read(&kg).unwrap().header_numbers.is_empty());
}

#[test]
fn the_schema_describes_sources_as_the_store_does() {
    for conversation in [conversation(), header_page()] {
        let kg = KgStore::build(&conversation).unwrap();
        let schema = Schema::read(&kg).unwrap();
        let page = page_iri(&conversation.id);
        let mut iris: Vec<String> = schema
            .cells
            .iter()
            .map(|c| format!("{page}/cell/{}/{}", c.row, c.column))
            .chain(
                schema
                    .header_numbers
                    .iter()
                    .map(|h| format!("{page}/column/{}/number", h.column)),
            )
            .chain(
                schema
                    .facts
                    .iter()
                    .map(|f| format!("{page}/fact/{}/{}", f.sentence, f.token)),
            )
            .collect();
        assert!(iris.len() > 3, "{iris:?}");
        iris.push(format!("{page}/row/0"));
        iris.push(format!("{page}/cell/99/0"));
        for iri in &iris {
            assert_eq!(
                schema.describe_source(kg.graph(), iri),
                describe_source(&kg, iri).unwrap(),
                "{iri}"
            );
        }
    }
}

//! Whether a query can reach the TBox: the store seam runs a query that
//! cannot on the page's ABox alone, and one that can (or might) on the
//! page's ABox beside the TBox, so the TBox is not copied into every page.
//!
//! The answer is conservative: `false` only when every solution of the
//! query over the TBox and the ABox together is a solution over the ABox
//! alone, in the same order. That holds when
//!
//! - the query names no dataset (`FROM`, `FROM NAMED`): its default graph
//!   is then the store's default graph, which is empty in both stores, so
//!   patterns outside `GRAPH` match nothing in either;
//! - no `GRAPH` names the TBox graph: a `GRAPH` with another IRI sees the
//!   same quads in both stores;
//! - each `GRAPH ?var` holds a pattern that can have no solution in the TBox
//!   graph: a basic graph pattern one of whose triple patterns matches no
//!   TBox quad (a join within one graph needs them all), joins with such a
//!   side, unions of such sides; anything that yields a row without
//!   matching a quad (an empty pattern, `VALUES`, an aggregate, a path that
//!   may have length zero) counts as reaching.
//!
//! The order holds too: the in-memory store returns the quads matching a
//! pattern in the order they were inserted, whichever index it walks, and
//! the page's quads are inserted in the same order in both stores; the
//! optimizer plans from the query alone, not the data.

use crate::ontology::Tbox;
use crate::vocab;
use oxigraph::model::{Literal, NamedNode, Term};
use spargebra::algebra::{
    AggregateExpression, Expression, GraphPattern, OrderExpression, PropertyPathExpression,
};
use spargebra::term::{NamedNodePattern, TermPattern, TriplePattern};
use spargebra::Query;
use std::collections::HashMap;
use std::sync::OnceLock;

/// The TBox's quads by predicate IRI: (subject, object) pairs.
struct TboxIndex {
    by_predicate: HashMap<String, Vec<(Term, Term)>>,
}

fn index(tbox: &Tbox) -> &'static TboxIndex {
    static INDEX: OnceLock<TboxIndex> = OnceLock::new();
    INDEX.get_or_init(|| {
        let mut by_predicate: HashMap<String, Vec<(Term, Term)>> = HashMap::new();
        for quad in tbox.quads() {
            by_predicate
                .entry(quad.predicate.as_str().to_owned())
                .or_default()
                .push((quad.subject.clone().into(), quad.object.clone()));
        }
        TboxIndex { by_predicate }
    })
}

/// Whether `query` may have a different answer with the TBox beside the
/// page than over the page alone (see the module).
pub(crate) fn reaches_tbox(query: &Query, tbox: &Tbox) -> bool {
    let (dataset, pattern) = match query {
        Query::Select {
            dataset, pattern, ..
        }
        | Query::Ask {
            dataset, pattern, ..
        }
        | Query::Construct {
            dataset, pattern, ..
        }
        | Query::Describe {
            dataset, pattern, ..
        } => (dataset, pattern),
    };
    dataset.is_some() || pattern_reaches(pattern, index(tbox))
}

/// Whether some `GRAPH` in `pattern` (or in its `EXISTS`) may see the TBox.
fn pattern_reaches(pattern: &GraphPattern, tbox: &TboxIndex) -> bool {
    let walk = |p: &GraphPattern| pattern_reaches(p, tbox);
    let expr = |e: &Expression| expression_reaches(e, tbox);
    match pattern {
        GraphPattern::Graph { name, inner } => {
            let here = match name {
                NamedNodePattern::NamedNode(n) => n.as_str() == vocab::TBOX_GRAPH,
                NamedNodePattern::Variable(_) => may_match_in_tbox(inner, tbox),
            };
            here || walk(inner)
        }
        GraphPattern::Bgp { .. } | GraphPattern::Path { .. } | GraphPattern::Values { .. } => false,
        // the guard refuses SERVICE; should one come, assume the worst
        GraphPattern::Service { .. } => true,
        GraphPattern::Join { left, right }
        | GraphPattern::Union { left, right }
        | GraphPattern::Minus { left, right }
        | GraphPattern::Lateral { left, right } => walk(left) || walk(right),
        GraphPattern::LeftJoin {
            left,
            right,
            expression,
        } => walk(left) || walk(right) || expression.as_ref().is_some_and(expr),
        GraphPattern::Filter { expr: e, inner } => expr(e) || walk(inner),
        GraphPattern::Project { inner, .. }
        | GraphPattern::Distinct { inner }
        | GraphPattern::Reduced { inner }
        | GraphPattern::Slice { inner, .. } => walk(inner),
        GraphPattern::Extend {
            inner, expression, ..
        } => walk(inner) || expr(expression),
        GraphPattern::OrderBy { inner, expression } => {
            walk(inner)
                || expression.iter().any(|order| match order {
                    OrderExpression::Asc(e) | OrderExpression::Desc(e) => expr(e),
                })
        }
        GraphPattern::Group {
            inner, aggregates, ..
        } => {
            walk(inner)
                || aggregates.iter().any(|(_, aggregate)| match aggregate {
                    AggregateExpression::CountSolutions { .. } => false,
                    AggregateExpression::FunctionCall { expr: e, .. } => expr(e),
                })
        }
    }
}

fn expression_reaches(e: &Expression, tbox: &TboxIndex) -> bool {
    let walk = |e: &Expression| expression_reaches(e, tbox);
    match e {
        Expression::Exists(pattern) => pattern_reaches(pattern, tbox),
        Expression::NamedNode(_)
        | Expression::Literal(_)
        | Expression::Variable(_)
        | Expression::Bound(_) => false,
        Expression::Or(a, b)
        | Expression::And(a, b)
        | Expression::Equal(a, b)
        | Expression::SameTerm(a, b)
        | Expression::Greater(a, b)
        | Expression::GreaterOrEqual(a, b)
        | Expression::Less(a, b)
        | Expression::LessOrEqual(a, b)
        | Expression::Add(a, b)
        | Expression::Subtract(a, b)
        | Expression::Multiply(a, b)
        | Expression::Divide(a, b) => walk(a) || walk(b),
        Expression::UnaryPlus(a) | Expression::UnaryMinus(a) | Expression::Not(a) => walk(a),
        Expression::In(a, list) => walk(a) || list.iter().any(walk),
        Expression::If(a, b, c) => walk(a) || walk(b) || walk(c),
        Expression::Coalesce(list) | Expression::FunctionCall(_, list) => list.iter().any(walk),
    }
}

/// Whether `pattern`, evaluated inside one named graph, may have a solution
/// in the TBox graph.
fn may_match_in_tbox(pattern: &GraphPattern, tbox: &TboxIndex) -> bool {
    let may = |p: &GraphPattern| may_match_in_tbox(p, tbox);
    match pattern {
        // an empty pattern has one solution in every graph
        GraphPattern::Bgp { patterns } => patterns.iter().all(|t| triple_may_match(t, tbox)),
        GraphPattern::Path { path, .. } => path_may_match(path, tbox),
        GraphPattern::Join { left, right } | GraphPattern::Lateral { left, right } => {
            may(left) && may(right)
        }
        GraphPattern::Union { left, right } => may(left) || may(right),
        GraphPattern::LeftJoin { left, .. } | GraphPattern::Minus { left, .. } => may(left),
        GraphPattern::Filter { inner, .. }
        | GraphPattern::Project { inner, .. }
        | GraphPattern::Distinct { inner }
        | GraphPattern::Reduced { inner }
        | GraphPattern::Slice { inner, .. }
        | GraphPattern::Extend { inner, .. }
        | GraphPattern::OrderBy { inner, .. } => may(inner),
        GraphPattern::Values { .. }
        | GraphPattern::Group { .. }
        | GraphPattern::Graph { .. }
        | GraphPattern::Service { .. } => true,
    }
}

fn triple_may_match(triple: &TriplePattern, tbox: &TboxIndex) -> bool {
    let NamedNodePattern::NamedNode(predicate) = &triple.predicate else {
        return true;
    };
    let Some(pairs) = tbox.by_predicate.get(predicate.as_str()) else {
        return false;
    };
    let subject = constant(&triple.subject);
    let object = constant(&triple.object);
    pairs.iter().any(|(s, o)| {
        subject.as_ref().is_none_or(|c| c.matches(s))
            && object.as_ref().is_none_or(|c| c.matches(o))
    })
}

/// A constant of a triple pattern, compared with the TBox's terms.
enum Constant<'a> {
    Iri(&'a NamedNode),
    /// A plain or language-tagged string: equal only to the same literal.
    String(&'a Literal),
}

impl Constant<'_> {
    fn matches(&self, term: &Term) -> bool {
        match (self, term) {
            (Constant::Iri(a), Term::NamedNode(b)) => *a == b,
            (Constant::String(a), Term::Literal(b)) => *a == b,
            _ => false,
        }
    }
}

/// The pattern's term as a constant to compare, or `None` when it may stand
/// for any term: a variable, a blank node, a quoted triple, or a typed
/// literal the store may read in another lexical form (`01` is `1`).
fn constant(term: &TermPattern) -> Option<Constant<'_>> {
    match term {
        TermPattern::NamedNode(n) => Some(Constant::Iri(n)),
        TermPattern::Literal(l)
            if l.language().is_some() || l.datatype() == oxigraph::model::vocab::xsd::STRING =>
        {
            Some(Constant::String(l))
        }
        _ => None,
    }
}

fn path_may_match(path: &PropertyPathExpression, tbox: &TboxIndex) -> bool {
    match path {
        PropertyPathExpression::NamedNode(p) => tbox.by_predicate.contains_key(p.as_str()),
        PropertyPathExpression::Reverse(p) | PropertyPathExpression::OneOrMore(p) => {
            path_may_match(p, tbox)
        }
        PropertyPathExpression::Sequence(a, b) | PropertyPathExpression::Alternative(a, b) => {
            path_may_match(a, tbox) || path_may_match(b, tbox)
        }
        // a path of length zero matches every node of the graph
        PropertyPathExpression::ZeroOrMore(_)
        | PropertyPathExpression::ZeroOrOne(_)
        | PropertyPathExpression::NegatedPropertySet(_) => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kg::GuardedQuery;

    fn reaches(body: &str) -> bool {
        let text = format!("{}{body}", vocab::sparql_prefixes());
        let query = GuardedQuery::parse(&text).expect("a guarded query");
        reaches_tbox(query.query(), crate::ontology::tbox().unwrap())
    }

    #[test]
    fn page_queries_stay_on_the_page() {
        for body in [
            crate::kg::queries::cell_query(0, "net income", 1, "2009"),
            crate::kg::queries::fact_query(3, 7),
            crate::kg::queries::header_number_query(2),
            "SELECT ?l WHERE { GRAPH <https://w3id.org/finkg/data/x/graph> { ?s ?p ?l } }".into(),
            "SELECT ?v WHERE { ?s ?p ?v }".into(),
            "SELECT ?v WHERE { GRAPH ?g { ?s fk:value ?v } } LIMIT 1".into(),
        ] {
            assert!(!reaches(&body), "{body}");
        }
    }

    #[test]
    fn tbox_queries_reach_it() {
        for body in [
            "SELECT ?c WHERE { GRAPH ?g { ?c a owl:Class } }",
            "SELECT ?s WHERE { GRAPH ?g { ?s ?p ?o } }",
            "SELECT ?g WHERE { GRAPH ?g { } }",
            "SELECT ?g WHERE { GRAPH ?g { VALUES ?x { 1 } } }",
            "SELECT ?x WHERE { GRAPH ?g { ?x fk:value* ?y } }",
            "SELECT ?l WHERE { GRAPH ?g { ?c skos:prefLabel|skos:altLabel ?l } }",
            "SELECT ?s WHERE { GRAPH <https://w3id.org/finkg/graph/tbox> { ?s fk:value ?o } }",
            "SELECT ?s FROM <https://w3id.org/finkg/graph/tbox> WHERE { ?s ?p ?o }",
            "ASK { FILTER NOT EXISTS { GRAPH ?g { ?c a owl:Class } } }",
            "SELECT ?s WHERE { GRAPH ?g { { ?s fk:value ?o } UNION { ?s a owl:Class } } }",
        ] {
            assert!(reaches(body), "{body}");
        }
    }
}

//! The namespaces of the graph and small constructors for their terms.

use oxigraph::model::NamedNode;

/// The project's own vocabulary (documented in `ontology/core.ttl`).
pub const FK: &str = "https://w3id.org/finkg/ns#";
/// Where the pages' ABox nodes live.
pub const DATA: &str = "https://w3id.org/finkg/data/";
/// The named graph that holds the TBox.
pub const TBOX_GRAPH: &str = "https://w3id.org/finkg/graph/tbox";
/// W3C RDF Data Cube.
pub const QB: &str = "http://purl.org/linked-data/cube#";
/// SKOS.
pub const SKOS: &str = "http://www.w3.org/2004/02/skos/core#";
/// PROV-O.
pub const PROV: &str = "http://www.w3.org/ns/prov#";
/// Dublin Core terms.
pub const DCTERMS: &str = "http://purl.org/dc/terms/";

/// The prefixes every query and export uses.
pub const PREFIXES: [(&str, &str); 9] = [
    ("fk", FK),
    ("qb", QB),
    ("skos", SKOS),
    ("prov", PROV),
    ("dcterms", DCTERMS),
    ("rdf", "http://www.w3.org/1999/02/22-rdf-syntax-ns#"),
    ("rdfs", "http://www.w3.org/2000/01/rdf-schema#"),
    ("xsd", "http://www.w3.org/2001/XMLSchema#"),
    ("owl", "http://www.w3.org/2002/07/owl#"),
];

/// The `PREFIX` lines of [`PREFIXES`], for SPARQL text.
pub fn sparql_prefixes() -> String {
    PREFIXES
        .iter()
        .map(|(p, iri)| format!("PREFIX {p}: <{iri}>\n"))
        .collect()
}

/// A term of the project's vocabulary.
pub fn fk(local: &str) -> NamedNode {
    NamedNode::new_unchecked(format!("{FK}{local}"))
}
/// A Data Cube term.
pub fn qb(local: &str) -> NamedNode {
    NamedNode::new_unchecked(format!("{QB}{local}"))
}
/// A SKOS term.
pub fn skos(local: &str) -> NamedNode {
    NamedNode::new_unchecked(format!("{SKOS}{local}"))
}
/// A PROV-O term.
pub fn prov(local: &str) -> NamedNode {
    NamedNode::new_unchecked(format!("{PROV}{local}"))
}
/// A Dublin Core term.
pub fn dcterms(local: &str) -> NamedNode {
    NamedNode::new_unchecked(format!("{DCTERMS}{local}"))
}

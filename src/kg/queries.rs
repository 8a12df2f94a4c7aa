//! The SPARQL that reads one value of a page, built in one place for every
//! planner: a cell by its row and column, a number of the text by its
//! sentence and token, a number printed in a column header. Each query
//! binds `?value` (an `xsd:decimal`) and `?source` (the node it came from)
//! in exactly one row. The text is the query's body: prepend
//! [`crate::vocab::sparql_prefixes`] to run it (the LLM planner's prompts
//! show the body, with the prefixes declared once).

use oxigraph::model::Literal;

/// A string as a SPARQL literal, escaped.
fn literal(s: &str) -> String {
    Literal::new_simple_literal(s).to_string()
}

/// The cell of row `row` (labelled `row_label`) and column `column`
/// (labelled `column_label`).
pub fn cell_query(row: usize, row_label: &str, column: usize, column_label: &str) -> String {
    format!(
        "SELECT ?value ?source WHERE {{ GRAPH ?g {{\n  ?source a qb:Observation ; fk:row ?row ; fk:column ?column ; fk:value ?value .\n  ?row fk:index {row} ; rdfs:label {} .\n  ?column fk:index {column} ; rdfs:label {} .\n}} }}",
        literal(row_label),
        literal(column_label),
    )
}

/// The number at token `token` of sentence `sentence`.
pub fn fact_query(sentence: usize, token: usize) -> String {
    format!(
        "SELECT ?value ?source WHERE {{ GRAPH ?g {{\n  ?source a fk:TextFact ; fk:sentence ?sentence ; fk:tokenIndex {token} ; fk:value ?value .\n  ?sentence fk:index {sentence} .\n}} }}",
    )
}

/// The number printed in the header of column `column` (no row when that
/// header prints none).
pub fn header_number_query(column: usize) -> String {
    format!(
        "SELECT ?value ?source WHERE {{ GRAPH ?g {{\n  ?source a fk:HeaderNumber ; fk:column ?column ; fk:value ?value .\n  ?column fk:index {column} .\n}} }}",
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kg::GuardedQuery;

    #[test]
    fn labels_are_escaped_and_queries_pass_the_guard() {
        let q = cell_query(0, "say \"hi\" \\ there", 1, "2009");
        assert!(q.contains(r#"rdfs:label "say \"hi\" \\ there""#), "{q}");
        for body in [q, fact_query(3, 7), header_number_query(2)] {
            let text = format!("{}{body}", crate::vocab::sparql_prefixes());
            GuardedQuery::parse(&text).expect("a guarded SELECT");
        }
    }
}

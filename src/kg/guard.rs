//! The SPARQL guard: every SPARQL text from any planner passes through
//! [`GuardedQuery::parse`] before it runs.
//!
//! The guard admits only read-only `SELECT` and `ASK` queries that stay on
//! the local store. It refuses over-long text, updates (`INSERT`, `DELETE`,
//! `LOAD`, `CLEAR`, ...), `CONSTRUCT` and `DESCRIBE` queries, and any
//! `SERVICE` clause anywhere in the algebra, including inside `OPTIONAL`,
//! `UNION`, `MINUS`, `GRAPH`, sub-queries and `EXISTS` / `NOT EXISTS`
//! expressions. Only this module can construct a [`GuardedQuery`].

use spargebra::algebra::{AggregateExpression, Expression, GraphPattern, OrderExpression};
use spargebra::{GraphUpdateOperation, Query, SparqlParser, SparqlSyntaxError};

/// Maximum accepted query length in bytes.
pub const MAX_QUERY_LENGTH: usize = 16_384;

/// Deepest nesting of `(`, `{` and `[` accepted, checked before parsing:
/// the parser recurses once a level, and a text nested thousands deep
/// would overflow the stack.
pub const MAX_NESTING_DEPTH: usize = 64;

/// Deepest nesting parsed on the caller's stack; deeper texts (up to
/// [`MAX_NESTING_DEPTH`]) are parsed on a thread of [`PARSE_STACK`] bytes.
const INLINE_PARSE_DEPTH: usize = 12;
/// The parser thread's stack (reserved, touched only as deep as it goes).
const PARSE_STACK: usize = 256 << 20;

/// Most `EXISTS` a query may hold: the parser's time doubles with each
/// `!EXISTS` nested in another (found by `tests/fuzz.rs`).
pub const MAX_EXISTS: usize = 8;

/// The form of an admitted query.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QueryForm {
    /// A `SELECT` query.
    Select,
    /// An `ASK` query.
    Ask,
}

/// Why the guard refused a SPARQL text.
#[derive(Debug, thiserror::Error)]
pub enum GuardError {
    /// The text is longer than [`MAX_QUERY_LENGTH`].
    #[error("query is {len} bytes long, more than the limit of {max}")]
    TooLong {
        /// Length of the text in bytes.
        len: usize,
        /// The limit.
        max: usize,
    },
    /// The text is a SPARQL update.
    #[error("the query is an update ({kind}); only SELECT and ASK queries may run")]
    Update {
        /// The update operation(s), e.g. `"INSERT DATA"` or `"LOAD"`.
        kind: String,
    },
    /// The query is a `CONSTRUCT` or `DESCRIBE`.
    #[error("{form} queries are refused; only SELECT and ASK queries may run")]
    Form {
        /// `"CONSTRUCT"` or `"DESCRIBE"`.
        form: &'static str,
    },
    /// The query contains a `SERVICE` clause.
    #[error("SERVICE clauses are refused: the query may not reach other endpoints")]
    Service,
    /// The text nests brackets deeper than [`MAX_NESTING_DEPTH`].
    #[error("query nests brackets {depth} deep, more than the limit of {max}")]
    TooDeep {
        /// The depth reached (counting stops just past the limit).
        depth: usize,
        /// The limit.
        max: usize,
    },
    /// The text holds more `EXISTS` than [`MAX_EXISTS`].
    #[error("query holds {count} EXISTS, more than the limit of {max}")]
    TooManyExists {
        /// How many (counting stops just past the limit).
        count: usize,
        /// The limit.
        max: usize,
    },
    /// The text is neither a valid query nor a valid update.
    /// (When the text starts with the graph's prefixes that finkg
    /// declares, [`crate::vocab::sparql_prefixes`], the position counts
    /// lines from the end of them, as the author wrote the query.)
    #[error("invalid SPARQL: {message}")]
    Syntax {
        /// The parser's message, its position in the author's lines.
        message: String,
    },
}

/// A SPARQL query that passed the guard: a local, read-only SELECT or ASK.
#[derive(Debug, Clone)]
pub struct GuardedQuery {
    query: Query,
    text: String,
}

impl GuardedQuery {
    /// Parses `text` and admits it only if it is a local SELECT or ASK query.
    pub fn parse(text: &str) -> Result<GuardedQuery, GuardError> {
        if text.len() > MAX_QUERY_LENGTH {
            return Err(GuardError::TooLong {
                len: text.len(),
                max: MAX_QUERY_LENGTH,
            });
        }
        let shape = scan(text, MAX_NESTING_DEPTH + 1);
        if shape.depth > MAX_NESTING_DEPTH {
            return Err(GuardError::TooDeep {
                depth: shape.depth,
                max: MAX_NESTING_DEPTH,
            });
        }
        if shape.exists > MAX_EXISTS {
            return Err(GuardError::TooManyExists {
                count: shape.exists,
                max: MAX_EXISTS,
            });
        }
        let parse = || -> Result<Query, GuardError> {
            match SparqlParser::new().parse_query(text) {
                Ok(query) => Ok(query),
                Err(query_error) => Err(match SparqlParser::new().parse_update(text) {
                    Ok(update) if !update.operations.is_empty() => GuardError::Update {
                        kind: update_kind(&update.operations),
                    },
                    _ => syntax_error(text, &query_error),
                }),
            }
        };
        // The parser recurses about a dozen frames a bracket; a deep text
        // is parsed on a thread whose stack holds the deepest admitted
        // (the caller's may be a 2 MiB worker's).
        let query = if shape.depth > INLINE_PARSE_DEPTH {
            std::thread::scope(|scope| {
                std::thread::Builder::new()
                    .name("finkg-sparql-parse".into())
                    .stack_size(PARSE_STACK)
                    .spawn_scoped(scope, parse)
                    .map_err(|e| GuardError::Syntax {
                        message: format!("could not start the parser's thread: {e}"),
                    })?
                    .join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
            })?
        } else {
            parse()?
        };
        let pattern = match &query {
            Query::Select { pattern, .. } | Query::Ask { pattern, .. } => pattern,
            Query::Construct { .. } => return Err(GuardError::Form { form: "CONSTRUCT" }),
            Query::Describe { .. } => return Err(GuardError::Form { form: "DESCRIBE" }),
        };
        if pattern_has_service(pattern) {
            return Err(GuardError::Service);
        }
        Ok(GuardedQuery {
            query,
            text: text.to_owned(),
        })
    }

    /// The parsed query.
    pub fn query(&self) -> &Query {
        &self.query
    }

    /// Consumes the guard and returns the parsed query.
    pub fn into_query(self) -> Query {
        self.query
    }

    /// The original query text.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Whether this is a SELECT or an ASK query.
    pub fn form(&self) -> QueryForm {
        match self.query {
            Query::Ask { .. } => QueryForm::Ask,
            // Construct and Describe never get past `parse`.
            _ => QueryForm::Select,
        }
    }

    /// The projected variable names of a SELECT (empty for ASK).
    pub fn projected_variables(&self) -> Vec<String> {
        let Query::Select { pattern, .. } = &self.query else {
            return Vec::new();
        };
        let mut current = pattern;
        loop {
            match current {
                GraphPattern::Project { variables, .. } => {
                    return variables.iter().map(|v| v.as_str().to_owned()).collect();
                }
                GraphPattern::Slice { inner, .. }
                | GraphPattern::Distinct { inner }
                | GraphPattern::Reduced { inner }
                | GraphPattern::OrderBy { inner, .. } => current = inner,
                _ => return Vec::new(),
            }
        }
    }
}

/// A syntax error whose `error at LINE:COL` counts from the end of the
/// prefixes finkg declared ahead of the author's text, if it did.
fn syntax_error(text: &str, error: &SparqlSyntaxError) -> GuardError {
    let message = error.to_string();
    let prefixes = crate::vocab::sparql_prefixes();
    let shift = prefixes.matches('\n').count();
    let shifted = (|| {
        if !text.starts_with(&prefixes) {
            return None;
        }
        let rest = message.strip_prefix("error at ")?;
        let (line, after) = rest.split_once(':')?;
        let line: usize = line.parse().ok()?;
        (line > shift).then(|| format!("error at {}:{after}", line - shift))
    })();
    GuardError::Syntax {
        message: shifted.unwrap_or(message),
    }
}

/// The deepest nesting of `(`, `{` and `[` in a SPARQL text, outside
/// string literals, IRIs and comments; counting stops at `stop`. Unbalanced
/// closers are ignored (the parser reports them).
pub fn nesting_depth(text: &str, stop: usize) -> usize {
    scan(text, stop).depth
}

/// What [`scan`] counts.
struct Shape {
    depth: usize,
    exists: usize,
}

/// The nesting depth (counting stops at `stop`) and the `EXISTS` keywords
/// of a SPARQL text, outside string literals, IRIs and comments.
fn scan(text: &str, stop: usize) -> Shape {
    let bytes = text.as_bytes();
    let (mut depth, mut deepest, mut i) = (0usize, 0usize, 0usize);
    let mut exists = 0usize;
    let word =
        |b: u8| b.is_ascii_alphanumeric() || b == b'_' || b == b'?' || b == b'$' || b == b':';
    while i < bytes.len() {
        match bytes[i] {
            b'(' | b'{' | b'[' => {
                depth += 1;
                deepest = deepest.max(depth);
                if deepest >= stop {
                    return Shape {
                        depth: deepest,
                        exists,
                    };
                }
            }
            b')' | b'}' | b']' => depth = depth.saturating_sub(1),
            b'#' => {
                while i < bytes.len() && bytes[i] != b'\n' && bytes[i] != b'\r' {
                    i += 1;
                }
            }
            b'<' => {
                // an IRI runs to `>` without spaces; a `<` operator does not
                let mut j = i + 1;
                while j < bytes.len() && !b"> \t\r\n<\"{}".contains(&bytes[j]) {
                    j += 1;
                }
                if j < bytes.len() && bytes[j] == b'>' {
                    i = j;
                }
            }
            quote @ (b'"' | b'\'') => {
                let long = bytes[i..].starts_with(&[quote; 3]);
                i += if long { 3 } else { 1 };
                while i < bytes.len() {
                    if bytes[i] == b'\\' {
                        i += 2;
                        continue;
                    }
                    if long {
                        if bytes[i..].starts_with(&[quote; 3]) {
                            i += 2;
                            break;
                        }
                    } else if bytes[i] == quote || bytes[i] == b'\n' {
                        break;
                    }
                    i += 1;
                }
            }
            b'e' | b'E'
                if (i == 0 || !word(bytes[i - 1]))
                    && bytes.len() >= i + 6
                    && bytes[i..i + 6].eq_ignore_ascii_case(b"exists")
                    && bytes.get(i + 6).is_none_or(|&b| !word(b)) =>
            {
                exists += 1;
                i += 5;
            }
            _ => {}
        }
        i += 1;
    }
    Shape {
        depth: deepest,
        exists,
    }
}

/// Names the update operations, deduplicated, in order.
fn update_kind(operations: &[GraphUpdateOperation]) -> String {
    let mut kinds: Vec<&'static str> = Vec::new();
    for op in operations {
        let kind = match op {
            GraphUpdateOperation::InsertData { .. } => "INSERT DATA",
            GraphUpdateOperation::DeleteData { .. } => "DELETE DATA",
            GraphUpdateOperation::DeleteInsert { .. } => "DELETE/INSERT",
            GraphUpdateOperation::Load { .. } => "LOAD",
            GraphUpdateOperation::Clear { .. } => "CLEAR",
            GraphUpdateOperation::Create { .. } => "CREATE",
            GraphUpdateOperation::Drop { .. } => "DROP",
        };
        if !kinds.contains(&kind) {
            kinds.push(kind);
        }
    }
    kinds.join(", ")
}

/// Whether `pattern` contains a SERVICE clause anywhere, including inside
/// expressions (`EXISTS`) and aggregates.
///
/// `GraphPattern::Lateral` exists with spargebra's `sep-0006` feature, which
/// oxigraph enables (and `Cargo.toml` names explicitly), so it is walked too.
fn pattern_has_service(pattern: &GraphPattern) -> bool {
    match pattern {
        GraphPattern::Service { .. } => true,
        GraphPattern::Bgp { .. } | GraphPattern::Path { .. } | GraphPattern::Values { .. } => false,
        GraphPattern::Join { left, right }
        | GraphPattern::Union { left, right }
        | GraphPattern::Minus { left, right }
        | GraphPattern::Lateral { left, right } => {
            pattern_has_service(left) || pattern_has_service(right)
        }
        GraphPattern::LeftJoin {
            left,
            right,
            expression,
        } => {
            pattern_has_service(left)
                || pattern_has_service(right)
                || expression.as_ref().is_some_and(expression_has_service)
        }
        GraphPattern::Filter { expr, inner } => {
            expression_has_service(expr) || pattern_has_service(inner)
        }
        GraphPattern::Graph { inner, .. }
        | GraphPattern::Project { inner, .. }
        | GraphPattern::Distinct { inner }
        | GraphPattern::Reduced { inner }
        | GraphPattern::Slice { inner, .. } => pattern_has_service(inner),
        GraphPattern::Extend {
            inner, expression, ..
        } => pattern_has_service(inner) || expression_has_service(expression),
        GraphPattern::OrderBy { inner, expression } => {
            pattern_has_service(inner)
                || expression.iter().any(|order| match order {
                    OrderExpression::Asc(e) | OrderExpression::Desc(e) => expression_has_service(e),
                })
        }
        GraphPattern::Group {
            inner, aggregates, ..
        } => {
            pattern_has_service(inner)
                || aggregates.iter().any(|(_, aggregate)| match aggregate {
                    AggregateExpression::CountSolutions { .. } => false,
                    AggregateExpression::FunctionCall { expr, .. } => expression_has_service(expr),
                })
        }
    }
}

/// Whether `expr` contains an `EXISTS` whose pattern has a SERVICE clause.
fn expression_has_service(expr: &Expression) -> bool {
    match expr {
        Expression::Exists(pattern) => pattern_has_service(pattern),
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
        | Expression::Divide(a, b) => expression_has_service(a) || expression_has_service(b),
        Expression::UnaryPlus(a) | Expression::UnaryMinus(a) | Expression::Not(a) => {
            expression_has_service(a)
        }
        Expression::In(a, list) => {
            expression_has_service(a) || list.iter().any(expression_has_service)
        }
        Expression::If(a, b, c) => {
            expression_has_service(a) || expression_has_service(b) || expression_has_service(c)
        }
        Expression::Coalesce(list) | Expression::FunctionCall(_, list) => {
            list.iter().any(expression_has_service)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refused(text: &str) -> GuardError {
        match GuardedQuery::parse(text) {
            Ok(q) => panic!("query was admitted: {}", q.text()),
            Err(e) => e,
        }
    }

    #[test]
    fn plain_select_passes_with_projected_variables() {
        let text = "PREFIX ex: <http://example.org/>\n\
                    SELECT DISTINCT ?company ?value WHERE { ?company ex:netSales ?value } \
                    ORDER BY ?value LIMIT 10";
        let q = GuardedQuery::parse(text).unwrap();
        assert_eq!(q.form(), QueryForm::Select);
        assert_eq!(q.projected_variables(), vec!["company", "value"]);
        assert_eq!(q.text(), text);
        assert!(matches!(q.query(), Query::Select { .. }));
        assert!(matches!(q.into_query(), Query::Select { .. }));
    }

    #[test]
    fn select_with_aggregate_and_exists_passes() {
        let text = "SELECT (SUM(?v) AS ?total) WHERE { ?s <http://x/p> ?v \
                    FILTER EXISTS { ?s <http://x/q> ?o } } GROUP BY ?s";
        let q = GuardedQuery::parse(text).unwrap();
        assert_eq!(q.projected_variables(), vec!["total"]);
    }

    #[test]
    fn ask_passes() {
        let q = GuardedQuery::parse("ASK { <http://x/a> <http://x/b> ?c }").unwrap();
        assert_eq!(q.form(), QueryForm::Ask);
        assert!(q.projected_variables().is_empty());
    }

    fn assert_service(text: &str) {
        let e = refused(text);
        assert!(matches!(e, GuardError::Service), "{e:?}");
        assert!(e.to_string().contains("SERVICE clauses are refused"));
    }

    #[test]
    fn service_is_refused() {
        assert_service("SELECT * WHERE { SERVICE <http://remote/sparql> { ?s ?p ?o } }");
        assert_service("SELECT * WHERE { SERVICE SILENT <http://remote/sparql> { ?s ?p ?o } }");
    }

    #[test]
    fn service_inside_optional_is_refused() {
        assert_service(
            "SELECT ?s WHERE { ?s ?p ?o OPTIONAL { SERVICE <http://remote/sparql> { ?s ?q ?r } } }",
        );
    }

    #[test]
    fn service_inside_filter_exists_is_refused() {
        assert_service(
            "SELECT ?s WHERE { ?s ?p ?o \
             FILTER EXISTS { SERVICE <http://remote/sparql> { ?s ?q ?r } } }",
        );
        assert_service(
            "ASK { ?s ?p ?o FILTER (!EXISTS { SERVICE <http://remote/sparql> { ?s ?q ?r } }) }",
        );
    }

    #[test]
    fn service_inside_union_minus_graph_subquery_bind_is_refused() {
        let remote = "SERVICE <http://remote/sparql> { ?s ?q ?r }";
        assert_service(&format!(
            "SELECT * WHERE {{ {{ ?s ?p ?o }} UNION {{ {remote} }} }}"
        ));
        assert_service(&format!(
            "SELECT * WHERE {{ ?s ?p ?o MINUS {{ {remote} }} }}"
        ));
        assert_service(&format!(
            "SELECT * WHERE {{ GRAPH <http://g> {{ {remote} }} }}"
        ));
        assert_service(&format!(
            "SELECT ?s WHERE {{ {{ SELECT ?s WHERE {{ {remote} }} }} }}"
        ));
        assert_service(&format!(
            "SELECT ?s ?b WHERE {{ ?s ?p ?o BIND (EXISTS {{ {remote} }} AS ?b) }}"
        ));
        assert_service(&format!(
            "SELECT ?s WHERE {{ ?s ?p ?o }} ORDER BY (EXISTS {{ {remote} }})"
        ));
        assert_service(&format!(
            "SELECT ?s (EXISTS {{ {remote} }} AS ?b) WHERE {{ ?s ?p ?o }}"
        ));
    }

    fn assert_update(text: &str, kind: &str) {
        let e = refused(text);
        match &e {
            GuardError::Update { kind: k } => assert_eq!(k, kind),
            other => panic!("expected an update refusal, got {other:?}"),
        }
        let msg = e.to_string();
        assert!(msg.contains("is an update"), "{msg}");
        assert!(msg.contains(kind), "{msg}");
    }

    #[test]
    fn insert_data_is_refused() {
        assert_update(
            "INSERT DATA { <http://x/a> <http://x/b> <http://x/c> }",
            "INSERT DATA",
        );
    }

    #[test]
    fn load_is_refused() {
        assert_update("LOAD <http://x>", "LOAD");
    }

    #[test]
    fn delete_where_is_refused() {
        assert_update("DELETE WHERE { ?s ?p ?o }", "DELETE/INSERT");
    }

    #[test]
    fn other_updates_are_refused() {
        assert_update("CLEAR ALL", "CLEAR");
        assert_update("DROP GRAPH <http://g>", "DROP");
        assert_update("CREATE GRAPH <http://g>", "CREATE");
        assert_update(
            "DELETE DATA { <http://x/a> <http://x/b> <http://x/c> } ; LOAD <http://x>",
            "DELETE DATA, LOAD",
        );
    }

    #[test]
    fn construct_and_describe_are_refused() {
        let e = refused("CONSTRUCT { ?s ?p ?o } WHERE { ?s ?p ?o }");
        assert!(matches!(e, GuardError::Form { form: "CONSTRUCT" }), "{e:?}");
        assert!(e.to_string().contains("CONSTRUCT queries are refused"));
        let e = refused("DESCRIBE <http://x/a>");
        assert!(matches!(e, GuardError::Form { form: "DESCRIBE" }), "{e:?}");
        assert!(e.to_string().contains("DESCRIBE queries are refused"));
    }

    #[test]
    fn garbage_is_a_syntax_error() {
        for text in ["SELEKT ?x WHERE { ?x ?y ?z }", "this is not sparql", ""] {
            let e = refused(text);
            assert!(matches!(e, GuardError::Syntax { .. }), "{text:?}: {e:?}");
            assert!(e.to_string().starts_with("invalid SPARQL: "), "{e}");
        }
    }

    #[test]
    fn syntax_error_positions_count_the_authors_lines() {
        let body = "SELECT ?x\nWHERE { ?x ?y }";
        let plain = refused(body).to_string();
        let prefixed = refused(&format!("{}{body}", crate::vocab::sparql_prefixes())).to_string();
        assert!(plain.contains("error at 2:"), "{plain}");
        assert_eq!(plain, prefixed);
    }

    #[test]
    fn deep_nesting_is_refused_before_parsing() {
        for (open, close) in [("(", ")"), ("{", "}"), ("[", "]")] {
            let text = format!(
                "SELECT ?x WHERE {{ BIND({}1{} AS ?x) }}",
                open.repeat(5_000),
                close.repeat(5_000)
            );
            let e = refused(&text);
            assert!(
                matches!(
                    e,
                    GuardError::TooDeep {
                        max: MAX_NESTING_DEPTH,
                        ..
                    }
                ),
                "{e:?}"
            );
            assert!(e.to_string().contains("more than the limit of 64"), "{e}");
        }
        // 10,000 opened and never closed: within the length limit, refused
        let e = refused(&format!("SELECT * WHERE {}", "(".repeat(10_000)));
        assert!(matches!(e, GuardError::TooDeep { .. }), "{e:?}");
        // the deepest admitted parses, even on a small stack, in a debug build
        let text = format!(
            "SELECT ?x WHERE {{ BIND({}1{} AS ?x) }}",
            "(-".repeat(62),
            ")".repeat(62)
        );
        std::thread::Builder::new()
            .stack_size(256 << 10)
            .spawn(move || GuardedQuery::parse(&text).map(|_| ()))
            .unwrap()
            .join()
            .unwrap()
            .unwrap();
    }

    #[test]
    fn nested_not_exists_is_refused_before_its_parse_time_doubles_away() {
        // found by tests/fuzz.rs: 20 nested `!EXISTS` took minutes to parse
        let k = 20;
        let text = format!("ASK {{ {} |}}", "?s ?p ?o FILTER (!EXISTS { ".repeat(k));
        let started = std::time::Instant::now();
        let e = refused(&text);
        assert!(started.elapsed() < std::time::Duration::from_secs(5));
        assert!(
            matches!(
                e,
                GuardError::TooManyExists {
                    max: MAX_EXISTS,
                    ..
                }
            ),
            "{e:?}"
        );
        assert!(e.to_string().contains("more than the limit of 8"), "{e}");
        // `exists` in a name, a string or an IRI is no keyword
        let text = format!(
            "SELECT ?exists WHERE {{ ?exists <http://x/EXISTS> \"{}\" FILTER EXISTS {{ ?a ?b ?c }} }}",
            "exists ".repeat(20)
        );
        assert_eq!(scan(&text, 100).exists, 1);
        GuardedQuery::parse(&text).unwrap();
    }

    #[test]
    fn brackets_in_strings_iris_and_comments_do_not_count() {
        let deep = "(".repeat(100);
        let text = format!(
            "SELECT ?x WHERE {{ # {deep}\n ?x <http://x/{deep}> \"{deep}\" . \
             ?x <http://x/p> '''{deep}''' . FILTER(?x < 3 || ?x > 1) }}"
        );
        assert_eq!(nesting_depth(&text, 1000), 2);
        GuardedQuery::parse(&text).unwrap();
    }

    #[test]
    fn too_long_is_refused() {
        let text = format!(
            "SELECT ?s WHERE {{ ?s ?p ?o }} #{}",
            "x".repeat(MAX_QUERY_LENGTH)
        );
        let e = refused(&text);
        assert!(
            matches!(e, GuardError::TooLong { len, max } if len == text.len() && max == MAX_QUERY_LENGTH),
            "{e:?}"
        );
        assert!(e.to_string().contains("more than the limit of 16384"));
    }
}

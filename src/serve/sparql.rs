//! The SPARQL 1.1 Protocol endpoint (`/sparql`), read-only.
//!
//! - `GET /sparql?query=...`, `POST /sparql` with an
//!   `application/x-www-form-urlencoded` body (`query=...`) or an
//!   `application/sparql-query` body (the query itself); in each,
//!   `default-graph-uri` and `named-graph-uri` (repeatable) name the
//!   dataset, as the protocol says, over the query's own `FROM`.
//! - The query is prefixed with the graph's prefixes, as `finkg query`
//!   does ([`crate::vocab::sparql_prefixes`]), passes the guard and runs
//!   with the same limits ([`KgStore::query_over`]).
//! - Results by the `Accept` header: SPARQL JSON (the default, and for
//!   `*/*`), XML, CSV or TSV, written by oxigraph's serializers.
//!
//! Statuses: 400 for a malformed or refused query (an update, `SERVICE`,
//! `CONSTRUCT`, too long or too deep), with the guard's message; 406 when
//! the `Accept` header names no results format served; 415 for a body of
//! another media type; 503 when a query passed a limit (time, memory, rows).
//! Every error body is one line of plain text.

use super::Served;
use crate::kg::{GuardError, GuardedQuery, KgError, QueryGraphs};
use crate::trace::error_chain;
use axum::body::Bytes;
use axum::extract::{RawQuery, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use oxigraph::model::NamedNode;
use oxigraph::sparql::results::QueryResultsFormat;
use std::sync::Arc;

/// A request the endpoint refuses: its status and one line saying why.
#[derive(Debug)]
pub struct Refusal {
    status: StatusCode,
    message: String,
}

impl Refusal {
    fn new(status: StatusCode, message: impl Into<String>) -> Self {
        Self {
            status,
            message: message.into(),
        }
    }

    fn bad(message: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, message)
    }
}

impl IntoResponse for Refusal {
    fn into_response(self) -> Response {
        let line = format!("{}\n", self.message.replace(['\n', '\r'], " "));
        (
            self.status,
            [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
            line,
        )
            .into_response()
    }
}

/// A protocol request's parameters: the query (or an update, refused) and
/// the dataset it names.
#[derive(Debug, Default)]
struct Params {
    query: Option<String>,
    update: bool,
    graphs: QueryGraphs,
}

impl Params {
    /// Reads `query`, `update`, `default-graph-uri` and `named-graph-uri`
    /// from URL-encoded pairs, adding to what is read already.
    fn read(&mut self, encoded: &[u8]) -> Result<(), Refusal> {
        for (key, value) in form_urlencoded::parse(encoded) {
            match key.as_ref() {
                "query" if self.query.is_some() => {
                    return Err(Refusal::bad("give one `query` parameter, not several"))
                }
                "query" => self.query = Some(value.into_owned()),
                "update" => self.update = true,
                "default-graph-uri" => self.graphs.default.push(graph_iri(&key, &value)?),
                "named-graph-uri" => self.graphs.named.push(graph_iri(&key, &value)?),
                _ => {}
            }
        }
        Ok(())
    }
}

fn graph_iri(key: &str, value: &str) -> Result<NamedNode, Refusal> {
    NamedNode::new(value).map_err(|e| Refusal::bad(format!("`{key}`: `{value}` is no IRI: {e}")))
}

/// `GET /sparql?query=...`.
pub async fn get(
    State(served): State<Arc<Served>>,
    RawQuery(raw): RawQuery,
    headers: HeaderMap,
) -> Result<Response, Refusal> {
    let mut params = Params::default();
    params.read(raw.unwrap_or_default().as_bytes())?;
    answer(served, params, &headers).await
}

/// `POST /sparql`, the query in a form or as `application/sparql-query`.
pub async fn post(
    State(served): State<Arc<Served>>,
    RawQuery(raw): RawQuery,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, Refusal> {
    let mut params = Params::default();
    let media = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .map(|v| v.trim().to_ascii_lowercase())
        .unwrap_or_default();
    match media.as_str() {
        "application/x-www-form-urlencoded" => params.read(&body)?,
        "application/sparql-query" => {
            params.read(raw.unwrap_or_default().as_bytes())?;
            let text = std::str::from_utf8(&body)
                .map_err(|_| Refusal::bad("the query is not UTF-8 text"))?;
            params.query = Some(text.to_string());
        }
        "application/sparql-update" => params.update = true,
        other => {
            return Err(Refusal::new(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                format!(
                    "a POST body must be application/x-www-form-urlencoded or \
                     application/sparql-query, not `{other}`"
                ),
            ))
        }
    }
    answer(served, params, &headers).await
}

/// Runs the request's query and writes its results in the format asked for.
async fn answer(
    served: Arc<Served>,
    params: Params,
    headers: &HeaderMap,
) -> Result<Response, Refusal> {
    if params.update {
        return Err(Refusal::bad(
            "SPARQL updates are refused: this endpoint is read-only (SELECT and ASK queries only)",
        ));
    }
    let Some(sparql) = params.query else {
        return Err(Refusal::bad(
            "give a SPARQL query: GET /sparql?query=..., or POST it as a form or as application/sparql-query",
        ));
    };
    let accept = headers
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    let format = negotiate(accept).ok_or_else(|| {
        Refusal::new(
            StatusCode::NOT_ACCEPTABLE,
            format!(
                "no results format served matches `Accept: {accept}`; ask for \
                 application/sparql-results+json, application/sparql-results+xml, \
                 text/csv or text/tab-separated-values"
            ),
        )
    })?;
    let text = format!("{}{sparql}", crate::vocab::sparql_prefixes());
    let query = GuardedQuery::parse(&text).map_err(refused)?;
    let body = tokio::task::spawn_blocking(move || {
        let output = served
            .kg
            .query_over(&query, &params.graphs)
            .map_err(failed)?;
        let mut body = Vec::new();
        output
            .write(&mut body, format)
            .map_err(|e| Refusal::new(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))?;
        Ok::<_, Refusal>(body)
    })
    .await
    .map_err(|e| Refusal::new(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))??;
    let media = match format {
        QueryResultsFormat::Csv => "text/csv; charset=utf-8",
        QueryResultsFormat::Tsv => "text/tab-separated-values; charset=utf-8",
        other => other.media_type(),
    };
    Ok(([(header::CONTENT_TYPE, media)], body).into_response())
}

/// A query the guard refused: 400 with its message.
fn refused(e: GuardError) -> Refusal {
    Refusal::bad(error_chain(&e))
}

/// A query that failed as it ran: 503 when it passed a limit, 400 when the
/// evaluator refused it, 500 when the store failed.
fn failed(e: KgError) -> Refusal {
    let status = match e {
        KgError::Timeout { .. }
        | KgError::Deadline
        | KgError::Memory { .. }
        | KgError::TooManyRows { .. } => StatusCode::SERVICE_UNAVAILABLE,
        KgError::Evaluation(_) | KgError::Guard(_) | KgError::NotServed { .. } => {
            StatusCode::BAD_REQUEST
        }
        // the remote store (`serve --store`) failed or refused
        KgError::Remote(_) => StatusCode::BAD_GATEWAY,
        _ => StatusCode::INTERNAL_SERVER_ERROR,
    };
    Refusal::new(status, error_chain(&e))
}

/// The results format an `Accept` header asks for: the served format with
/// the highest quality (the first named on a tie); SPARQL JSON when the
/// header is empty or accepts anything. `None` when it accepts none.
pub fn negotiate(accept: &str) -> Option<QueryResultsFormat> {
    if accept.trim().is_empty() {
        return Some(QueryResultsFormat::Json);
    }
    let mut best: Option<(f32, QueryResultsFormat)> = None;
    for item in accept.split(',') {
        let mut parts = item.split(';');
        let media = parts.next().unwrap_or("").trim().to_ascii_lowercase();
        let quality = parts
            .filter_map(|p| p.trim().strip_prefix("q="))
            .find_map(|q| q.trim().parse::<f32>().ok())
            .unwrap_or(1.0);
        let format = match media.as_str() {
            "application/sparql-results+json" | "application/json" => QueryResultsFormat::Json,
            "application/sparql-results+xml" | "application/xml" | "text/xml" => {
                QueryResultsFormat::Xml
            }
            "text/csv" => QueryResultsFormat::Csv,
            "text/tab-separated-values" => QueryResultsFormat::Tsv,
            "*/*" | "application/*" => QueryResultsFormat::Json,
            _ => continue,
        };
        if quality > 0.0 && best.is_none_or(|(q, _)| quality > q) {
            best = Some((quality, format));
        }
    }
    best.map(|(_, format)| format)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accept_headers_choose_formats() {
        use QueryResultsFormat::*;
        assert_eq!(negotiate(""), Some(Json));
        assert_eq!(negotiate("application/sparql-results+xml"), Some(Xml));
        assert_eq!(negotiate("text/csv"), Some(Csv));
        assert_eq!(negotiate("text/tab-separated-values"), Some(Tsv));
        assert_eq!(
            negotiate("application/sparql-results+json;q=0.5, text/csv;q=0.9"),
            Some(Csv)
        );
        assert_eq!(
            negotiate("text/html,application/xhtml+xml,*/*;q=0.8"),
            Some(Json)
        );
        assert_eq!(negotiate("text/csv;q=0, image/png"), None);
        assert_eq!(negotiate("text/turtle"), None);
    }
}

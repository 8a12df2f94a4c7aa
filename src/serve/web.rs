//! The web page: `/` (a report picked by `?id=`, the first by default) is
//! rendered on the server, its table's cells, column headers, sentences and
//! their tokens each with an `id` a source can point at; `app.js` asks
//! questions through `POST /api/ask` and highlights the sources.
//!
//! `/api/ask` is stateless: the page sends every question of the
//! conversation so far and the server answers them in order with the rules
//! planner and, unless `serve --critic off`, the deterministic critic with
//! its revision ([`Session::ask_with`]), returning the last turn (answer,
//! plan, formula, values with their sources and SPARQL, the critic's
//! findings and revisions when it found anything). Every text from a report is
//! escaped in the HTML, and the script writes text only as text.

use super::Served;
use crate::critic::{Critic, Deterministic};
use crate::dataset::Conversation;
use crate::kg::text::split_sentences;
use crate::kg::{page_iri, GuardedQuery, KgStore, QueryOutput};
use crate::pipeline::{Planners, Session};
use crate::plan::RulesPlanner;
use crate::trace::{error_chain, TurnTrace};
use crate::turn::UsedValue;
use axum::extract::{RawQuery, State};
use axum::http::{header, StatusCode};
use axum::response::{Html, IntoResponse, Response};
use axum::Json;
use oxigraph::model::Term;
use serde::{Deserialize, Serialize};
use std::fmt::Write as _;
use std::sync::Arc;

/// Most questions one conversation may hold on the page.
pub const MAX_TURNS: usize = 40;
/// Longest question accepted, in bytes.
pub const MAX_QUESTION: usize = 1_000;

const SCRIPT: &str = include_str!("app.js");
const STYLE: &str = include_str!("style.css");
/// Scripts and styles from this server only; no inline script runs.
pub(super) const POLICY: &str =
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'";

/// `text` with `& < > " '` escaped, for HTML text and attribute values.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// `GET /?id=ID`: the report picker, the report and the conversation panel.
pub async fn index(State(served): State<Arc<Served>>, RawQuery(raw): RawQuery) -> Response {
    let id = form_urlencoded::parse(raw.unwrap_or_default().as_bytes())
        .find(|(k, _)| k == "id")
        .map(|(_, v)| v.into_owned());
    let conversation = match id.as_deref() {
        None => served.conversations.first(),
        Some(id) => served.conversation(id),
    };
    if conversation.is_none() && id.is_none() && served.run.is_some() {
        // `serve --run RUN_DIR` without files: the run is the page
        let main = "<main class=\"run\"><section><p>No report is loaded; \
                    <a href=\"/run\">browse the run</a>.</p></section></main>";
        return (
            [(header::CONTENT_SECURITY_POLICY, POLICY)],
            Html(shell(&served, None, main)),
        )
            .into_response();
    }
    let html = match conversation {
        Some(c) => page(&served, c),
        None => shell(
            &served,
            None,
            &format!(
                "<p class=\"error\">No report with id <code>{}</code> is loaded.</p>",
                escape(id.as_deref().unwrap_or(""))
            ),
        ),
    };
    let status = if conversation.is_some() {
        StatusCode::OK
    } else {
        StatusCode::NOT_FOUND
    };
    (
        status,
        [(header::CONTENT_SECURITY_POLICY, POLICY)],
        Html(html),
    )
        .into_response()
}

/// `GET /static/app.js`.
pub async fn script() -> Response {
    (
        [(header::CONTENT_TYPE, "text/javascript; charset=utf-8")],
        SCRIPT,
    )
        .into_response()
}

/// `GET /static/style.css`.
pub async fn style() -> Response {
    ([(header::CONTENT_TYPE, "text/css; charset=utf-8")], STYLE).into_response()
}

/// The page around `main`: head, the report picker.
pub(super) fn shell(served: &Served, current: Option<&str>, main: &str) -> String {
    let mut options = String::new();
    for c in &served.conversations {
        let selected = if Some(c.id.as_str()) == current {
            " selected"
        } else {
            ""
        };
        let _ = write!(
            options,
            "<option value=\"{0}\"{selected}>{0}</option>",
            escape(&c.id)
        );
    }
    format!(
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>finkg{}</title><link rel=\"stylesheet\" href=\"/static/style.css\"></head>\n<body>\
         <header><strong>finkg</strong>\
         <form method=\"get\" action=\"/\"><label>Report \
         <select name=\"id\" id=\"report\">{options}</select></label> <button>Open</button></form>\
         {}<span class=\"count\">{} report{} · SPARQL endpoint at <code>/sparql</code></span></header>\n\
         {main}\n<script src=\"/static/app.js\"></script></body></html>\n",
        current
            .map(|id| format!(" · {}", escape(id)))
            .unwrap_or_default(),
        served
            .run
            .as_ref()
            .map(|r| format!(
                "<a class=\"run-link\" href=\"/run\">Run {}</a> ",
                escape(&r.run.run_id)
            ))
            .unwrap_or_default(),
        served.pages(),
        if served.pages() == 1 { "" } else { "s" },
    )
}

/// One report: its text and table (every source addressable by `id`) and
/// the conversation panel.
fn page(served: &Served, c: &Conversation) -> String {
    let doc = &c.document;
    let pre = split_sentences(&doc.pre_text, "pre_text", 0);
    let post = split_sentences(&doc.post_text, "post_text", pre.len());
    let sentences = |out: &mut String, list: &[crate::kg::text::Sentence]| {
        out.push_str("<p class=\"text\">");
        for s in list {
            let _ = write!(out, "<span class=\"sentence\" id=\"sentence-{}\">", s.index);
            for (t, token) in s.tokens.iter().enumerate() {
                let _ = write!(
                    out,
                    "<span id=\"token-{}-{t}\">{}</span> ",
                    s.index,
                    escape(token)
                );
            }
            out.push_str("</span>");
        }
        out.push_str("</p>");
    };
    let mut main = String::new();
    let _ = write!(
        main,
        "<main data-id=\"{}\"><section id=\"report-page\"><h2>{}</h2>",
        escape(&c.id),
        escape(&c.id)
    );
    if served.unread.contains(&c.id) {
        main.push_str(
            "<p class=\"note\" id=\"unread\">This page's graph is in the store; its table and \
             text are shown when <code>finkg serve --store</code> is given the dataset file \
             that holds it. Its questions are answered all the same.</p>",
        );
    }
    sentences(&mut main, &pre);
    main.push_str("<table id=\"report-table\"><thead><tr><th></th>");
    for (j, column) in doc.table.columns.iter().enumerate() {
        let _ = write!(main, "<th id=\"column-{j}\">{}</th>", escape(column));
    }
    main.push_str("</tr></thead><tbody>");
    for (i, row) in doc.table.rows.iter().enumerate() {
        let _ = write!(main, "<tr><th id=\"row-{i}\">{}</th>", escape(&row.label));
        for (j, cell) in row.cells.iter().enumerate() {
            let _ = write!(main, "<td id=\"cell-{i}-{j}\">{}</td>", escape(&cell.raw));
        }
        main.push_str("</tr>");
    }
    main.push_str("</tbody></table>");
    sentences(&mut main, &post);
    let _ = write!(
        main,
        "<p class=\"iri\">Named graph <code>&lt;{}/graph&gt;</code></p></section>",
        escape(&page_iri(&c.id))
    );
    main.push_str(
        "<section id=\"conversation\"><h2>Ask</h2><ol id=\"turns\"></ol>\
         <form id=\"ask\"><input id=\"question\" name=\"question\" autocomplete=\"off\" \
         placeholder=\"what was the change in net sales from 2008 to 2009?\" required>\
         <button id=\"ask-button\">Ask</button> <button type=\"button\" id=\"reset\">Start over</button></form>\
         <p id=\"status\" role=\"status\"></p>",
    );
    if !c.questions.is_empty() {
        main.push_str(
            "<details><summary>This report's own questions</summary><ol id=\"suggestions\">",
        );
        for q in &c.questions {
            let _ = write!(
                main,
                "<li><button type=\"button\" class=\"suggestion\">{}</button></li>",
                escape(q)
            );
        }
        main.push_str("</ol></details>");
    }
    main.push_str("</section></main>");
    shell(served, Some(&c.id), &main)
}

/// `POST /api/ask`'s body: the report and the conversation's questions so
/// far, the newest last.
#[derive(Deserialize)]
pub struct AskRequest {
    id: String,
    questions: Vec<String>,
}

/// One value of the answered turn, with where it came from.
#[derive(Serialize)]
struct ShownValue {
    name: String,
    value: String,
    description: String,
    source: String,
    /// The `id`s of the page elements it came from (`cell-1-2`,
    /// `token-3-7`, `column-2`); for an earlier result, that turn's
    /// (`turn-0`) and its own values' sources.
    targets: Vec<String>,
    sparql: Option<String>,
}

/// `POST /api/ask`'s answer: the last question's turn.
#[derive(Serialize)]
pub struct AskReply {
    turn: usize,
    question: String,
    answer: Option<String>,
    error: Option<String>,
    description: Option<String>,
    metric_type: Option<String>,
    formula: Option<String>,
    plan: Option<serde_json::Value>,
    values: Vec<ShownValue>,
    /// The critic's findings and revisions (as in the trace's `critic`),
    /// when it found anything.
    #[serde(skip_serializing_if = "Option::is_none")]
    critic: Option<serde_json::Value>,
}

/// `POST /api/ask`: answers the questions in order, returns the last turn.
pub async fn ask(
    State(served): State<Arc<Served>>,
    Json(request): Json<AskRequest>,
) -> Result<Json<AskReply>, (StatusCode, String)> {
    let bad = |m: String| (StatusCode::BAD_REQUEST, m);
    if request.questions.is_empty() || request.questions.len() > MAX_TURNS {
        return Err(bad(format!("give 1 to {MAX_TURNS} questions")));
    }
    if let Some(q) = request.questions.iter().find(|q| q.len() > MAX_QUESTION) {
        return Err(bad(format!(
            "a question is {} bytes long, more than the limit of {MAX_QUESTION}",
            q.len()
        )));
    }
    let Some(conversation) = served.conversation(&request.id).cloned() else {
        return Err((
            StatusCode::NOT_FOUND,
            format!("no report with id `{}` is loaded", request.id),
        ));
    };
    let internal = |m: String| (StatusCode::INTERNAL_SERVER_ERROR, m);
    let reviewed = served.critic;
    tokio::task::spawn_blocking(move || {
        let planner = RulesPlanner::new().map_err(|e| internal(error_chain(&e)))?;
        let critic: Option<Box<dyn Critic + Send>> = if reviewed {
            Some(Box::new(
                Deterministic::new().map_err(|e| internal(error_chain(&e)))?,
            ))
        } else {
            None
        };
        let mut planners = Planners::single(Box::new(planner)).with_critic(critic);
        // the page's graph built, or read from the remote store (blocking
        // HTTP: this runs on one of tokio's blocking threads)
        let mut session =
            Session::open(&conversation, &served.source).map_err(|e| internal(error_chain(&e)))?;
        let mut last = None;
        for q in &request.questions {
            last = Some(session.ask_with(&mut planners, q));
        }
        let trace = last.expect("at least one question");
        Ok(Json(reply(&session, &conversation.id, trace)))
    })
    .await
    .map_err(|e| internal(e.to_string()))?
}

fn reply(session: &Session, id: &str, trace: TurnTrace) -> AskReply {
    let values = trace
        .values
        .iter()
        .map(|v| {
            let mut targets = Vec::new();
            sources(session, id, v, &mut targets, 0);
            ShownValue {
                name: v.name.clone(),
                value: v.value.normalize().to_string(),
                description: v.description.clone(),
                source: v.source.clone(),
                targets,
                sparql: v.sparql.clone(),
            }
        })
        .collect();
    AskReply {
        turn: trace.turn,
        question: trace.question,
        answer: trace.answer.map(|a| a.to_string()),
        error: trace.error,
        description: trace.result.as_ref().map(|r| r.description.clone()),
        metric_type: trace.result.as_ref().map(|r| r.metric_type.to_string()),
        formula: trace.formula,
        plan: trace.plan.and_then(|p| serde_json::to_value(p).ok()),
        values,
        critic: trace
            .critic
            .filter(|c| !c.findings.is_empty())
            .and_then(|c| serde_json::to_value(c).ok()),
    }
}

/// Adds the page elements `value` came from to `out`: for an earlier
/// result (its source starts `result_N`), the sources of its values,
/// recursively, then that turn; for a value of the graph, its element.
fn sources(session: &Session, id: &str, value: &UsedValue, out: &mut Vec<String>, depth: usize) {
    let earlier = value
        .source
        .strip_prefix("result_")
        .and_then(|r| r.split(':').next())
        .and_then(|n| n.parse::<usize>().ok());
    match earlier {
        Some(n) => {
            if let Some(result) = session.state().result(n).filter(|_| depth < MAX_TURNS) {
                for v in &result.variables {
                    sources(session, id, v, out, depth + 1);
                }
            }
            out.push(format!("turn-{n}"));
        }
        None => out.extend(element(session.kg(), id, value.sparql.as_deref())),
    }
}

/// The page element a value of the graph came from: its query run again
/// to read the `?source` node, whose IRI names the cell, header number or
/// text number (`{page}/cell/{i}/{j}`, `{page}/column/{j}/number`,
/// `{page}/fact/{k}/{t}`).
fn element(kg: &KgStore, id: &str, sparql: Option<&str>) -> Option<String> {
    let query = GuardedQuery::parse(sparql?).ok()?;
    let QueryOutput::Solutions { variables, rows } = kg.query(&query).ok()? else {
        return None;
    };
    let column = variables.iter().position(|v| v == "source")?;
    let Some(Some(Term::NamedNode(node))) = rows.first().map(|r| r[column].clone()) else {
        return None;
    };
    let page = page_iri(id);
    let path: Vec<&str> = node
        .as_str()
        .strip_prefix(page.as_str())?
        .strip_prefix('/')?
        .split('/')
        .collect();
    let number = |s: &str| s.parse::<usize>().ok();
    match path.as_slice() {
        ["cell", i, j] => Some(format!("cell-{}-{}", number(i)?, number(j)?)),
        ["column", j, "number"] => Some(format!("column-{}", number(j)?)),
        ["fact", k, t] => Some(format!("token-{}-{}", number(k)?, number(t)?)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markup_is_escaped() {
        assert_eq!(
            escape("<script>alert('x')</script> & \"q\""),
            "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;q&quot;"
        );
    }
}

//! The run browser: `finkg inspect`'s view of a run folder (`serve --run
//! RUN_DIR`) as server-rendered pages. `/run` is the overview (accuracy,
//! by turn, by gold operation, wrong turns by cause, the worst
//! conversations, every conversation), `/run/{id}` one conversation turn by
//! turn: question, answer against gold, the cause of a miss, plan, values
//! with their sources, formula, and the page's table and text with the
//! sources highlighted (when the folder has `pages.jsonl`).
//!
//! The folder is read once at startup ([`RunView::read`]); every text is
//! escaped and no script is needed.

use super::web::{escape, shell, POLICY};
use super::Served;
use crate::inspect::{ConversationView, RunView, SourceLocation, TurnView};
use crate::run::{PageRecord, Tally};
use axum::extract::{Path, State};
use axum::http::{header, StatusCode};
use axum::response::{Html, IntoResponse, Response};
use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::sync::Arc;

/// Conversations listed under "worst conversations".
const WORST: usize = 10;
/// Wrong turns linked under each cause.
const MISSES_SHOWN: usize = 20;

/// `GET /run`: the run's overview.
pub async fn overview(State(served): State<Arc<Served>>) -> Response {
    let Some(view) = served.run.as_ref() else {
        return not_loaded(&served);
    };
    respond(
        StatusCode::OK,
        shell(&served, Some("run"), &overview_html(view)),
    )
}

/// `GET /run/{id}`: one conversation (its id or the only id starting so).
pub async fn conversation(State(served): State<Arc<Served>>, Path(id): Path<String>) -> Response {
    let Some(view) = served.run.as_ref() else {
        return not_loaded(&served);
    };
    match view.find(&id) {
        Ok(c) => respond(
            StatusCode::OK,
            shell(&served, Some(&c.id), &conversation_html(c)),
        ),
        Err(e) => respond(
            StatusCode::NOT_FOUND,
            shell(
                &served,
                None,
                &format!(
                    "<main class=\"run\"><section><p class=\"error\">{}</p>\
                     <p><a href=\"/run\">The run's overview</a></p></section></main>",
                    escape(&crate::trace::error_chain(&e))
                ),
            ),
        ),
    }
}

fn respond(status: StatusCode, html: String) -> Response {
    (
        status,
        [(header::CONTENT_SECURITY_POLICY, POLICY)],
        Html(html),
    )
        .into_response()
}

fn not_loaded(served: &Served) -> Response {
    respond(
        StatusCode::NOT_FOUND,
        shell(
            served,
            None,
            "<main class=\"run\"><section><p class=\"error\">No run is loaded: start \
             <code>finkg serve</code> with <code>--run RUN_DIR</code>.</p></section></main>",
        ),
    )
}

/// The path of a conversation's page: `/run/` and the id, each byte that
/// is not unreserved (or `/`) percent-encoded.
pub fn conversation_path(id: &str) -> String {
    let mut out = String::from("/run/");
    for b in id.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~/".contains(&b) {
            out.push(b as char);
        } else {
            let _ = write!(out, "%{b:02X}");
        }
    }
    out
}

/// A link to a conversation's page (at a turn when given).
fn link(id: &str, turn: Option<usize>, text: &str) -> String {
    let anchor = turn.map(|t| format!("#turn-{t}")).unwrap_or_default();
    format!(
        "<a href=\"{}{anchor}\">{}</a>",
        escape(&conversation_path(id)),
        escape(text)
    )
}

fn share(t: &Tally) -> String {
    format!("{:.1}% ({}/{})", 100.0 * t.accuracy, t.correct, t.total)
}

fn tally_rows(out: &mut String, head: &str, rows: &[(String, &Tally)]) {
    let _ = write!(
        out,
        "<table class=\"tally\"><thead><tr><th>{}</th><th>accuracy</th><th></th></tr></thead><tbody>",
        escape(head)
    );
    for (name, t) in rows {
        let width = (t.accuracy.clamp(0.0, 1.0) * 100.0).round() as usize;
        let _ = write!(
            out,
            "<tr><td>{}</td><td class=\"number\">{}</td>\
             <td><progress max=\"100\" value=\"{width}\"></progress></td></tr>",
            escape(name),
            escape(&share(t))
        );
    }
    out.push_str("</tbody></table>");
}

fn overview_html(view: &RunView) -> String {
    let run = &view.run;
    let mut s = String::from("<main class=\"run\"><section>");
    let _ = write!(
        s,
        "<h2>Run {}</h2><p>{} planner{} on <code>{}</code>, {} conversations; started {}, {}.</p>",
        escape(&run.run_id),
        escape(&run.planner),
        run.model
            .as_deref()
            .map(|m| format!(" ({})", escape(m)))
            .unwrap_or_default(),
        escape(run.dataset.as_deref().unwrap_or("(dataset not recorded)")),
        view.conversations.len(),
        escape(&run.started),
        escape(&match (&run.finished, run.interrupted) {
            (Some(f), _) => format!("finished {f}"),
            (None, true) => "interrupted (finish it with `finkg eval --resume`)".into(),
            (None, false) => "not finished".into(),
        })
    );
    match &view.summary {
        None => s.push_str("<p>No <code>summary.json</code>: the run did not finish.</p>"),
        Some(summary) => {
            let _ = write!(
                s,
                "<p class=\"accuracy\">Turn accuracy <strong>{}</strong> · conversation accuracy \
                 <strong>{}</strong></p><p>Unanswered turns: {}; conversations that failed to load: {}.</p>",
                escape(&share(&summary.turns)),
                escape(&share(&summary.conversation_accuracy)),
                summary.unanswered,
                summary.failed_conversations
            );
            s.push_str("<h3>By turn</h3>");
            let turns: Vec<(String, &Tally)> = summary
                .by_turn
                .iter()
                .map(|(turn, t)| (format!("turn {turn}"), t))
                .collect();
            tally_rows(&mut s, "turn", &turns);
            s.push_str("<h3>By gold operation</h3>");
            let mut ops: Vec<(String, &Tally)> = summary
                .by_operation
                .iter()
                .map(|(op, t)| (op.clone(), t))
                .collect();
            ops.sort_by(|a, b| b.1.total.cmp(&a.1.total).then(a.0.cmp(&b.0)));
            tally_rows(&mut s, "operation", &ops);
        }
    }
    let misses = view.misses_by_cause();
    if !misses.is_empty() {
        s.push_str("<h3>Wrong turns by cause</h3><ul class=\"causes\">");
        for (cause, turns) in &misses {
            let _ = write!(
                s,
                "<li><strong>{}</strong> — {}: ",
                turns.len(),
                escape(&cause.label())
            );
            let shown: Vec<String> = turns
                .iter()
                .take(MISSES_SHOWN)
                .map(|(c, t)| link(&c.id, Some(t.turn), &format!("{} turn {}", c.id, t.turn)))
                .collect();
            s.push_str(&shown.join(", "));
            if turns.len() > MISSES_SHOWN {
                let _ = write!(s, " and {} more", turns.len() - MISSES_SHOWN);
            }
            s.push_str("</li>");
        }
        s.push_str("</ul>");
    }
    let worst = view.worst(WORST);
    if !worst.is_empty() {
        s.push_str("<h3>Worst conversations</h3><ul class=\"worst\">");
        for c in worst {
            let first_wrong = c
                .turns
                .iter()
                .find(|t| t.correct == Some(false))
                .map(|t| t.turn);
            let _ = write!(
                s,
                "<li>{}/{} {}{}</li>",
                c.correct.unwrap_or(0),
                c.turns_asked,
                link(&c.id, None, &c.id),
                first_wrong
                    .map(|t| format!(
                        " — first wrong: {}",
                        link(&c.id, Some(t), &format!("turn {t}"))
                    ))
                    .unwrap_or_default()
            );
        }
        s.push_str("</ul>");
    }
    s.push_str("<h3>Conversations</h3><table class=\"tally\"><thead><tr><th>conversation</th><th>turns right</th></tr></thead><tbody>");
    for c in &view.conversations {
        let right = match (c.correct, &c.error) {
            (_, Some(_)) => "failed to load".to_string(),
            (Some(k), None) => format!("{k}/{}", c.turns_asked),
            (None, None) => format!("{} turns", c.turns_asked),
        };
        let _ = write!(
            s,
            "<tr><td>{}</td><td class=\"number\">{}</td></tr>",
            link(&c.id, None, &c.id),
            escape(&right)
        );
    }
    s.push_str("</tbody></table></section></main>");
    s
}

fn conversation_html(c: &ConversationView) -> String {
    let mut s = String::from("<main class=\"run\"><section>");
    let right = c
        .correct
        .map(|k| format!("{k}/{} turns right", c.turns_asked))
        .unwrap_or_else(|| format!("{} turns", c.turns_asked));
    let _ = write!(
        s,
        "<p><a href=\"/run\">← the run</a></p><h2>{}</h2><p>{}{}</p>",
        escape(&c.id),
        escape(&right),
        c.graph
            .map(|g| format!(
                " ({} triples, {} cells, {} text facts)",
                g.triples, g.observations, g.text_facts
            ))
            .unwrap_or_default()
    );
    if let Some(e) = &c.error {
        let _ = write!(
            s,
            "<p class=\"error\">The page failed to load: {}</p>",
            escape(e)
        );
    }
    if c.page.is_none() {
        s.push_str(
            "<p class=\"label\">This run folder has no <code>pages.jsonl</code>: \
             sources are named, not shown on the page.</p>",
        );
    }
    s.push_str("<ol class=\"run-turns\">");
    for t in &c.turns {
        turn_html(&mut s, t, c.page.as_ref());
    }
    s.push_str("</ol></section></main>");
    s
}

fn turn_html(s: &mut String, t: &TurnView, page: Option<&PageRecord>) {
    let (verdict, class) = match t.correct {
        Some(true) => ("✔ ", " right"),
        Some(false) => ("✘ ", " wrong"),
        None => ("", ""),
    };
    let _ = write!(
        s,
        "<li class=\"turn{class}\" id=\"turn-{0}\" value=\"{0}\"><p class=\"question\">\
         <span class=\"verdict\">{verdict}</span>{1}</p>",
        t.turn,
        escape(&t.question)
    );
    let answer = match (&t.answer, &t.error) {
        (Some(a), _) => a.to_string(),
        (None, Some(e)) => format!("no answer: {e}"),
        (None, None) => "no answer".into(),
    };
    let _ = write!(
        s,
        "<p class=\"answer\">answer <span class=\"value\">{}</span>",
        escape(&answer)
    );
    if let Some(g) = &t.gold {
        let _ = write!(
            s,
            " · gold <span class=\"value\">{}</span> <span class=\"label\">(<code>{}</code>; {})</span>",
            escape(&g.answer.to_string()),
            escape(&g.text),
            escape(g.program.as_deref().unwrap_or("no program"))
        );
    }
    s.push_str("</p>");
    if let Some(cause) = &t.cause {
        let _ = write!(
            s,
            "<p class=\"error\">why wrong: {}</p>",
            escape(&cause.label())
        );
    }
    if let Some(f) = &t.fallback {
        let _ = write!(
            s,
            "<p class=\"label\">fallback: {}; answered by {}</p>",
            escape(f),
            escape(&t.planner)
        );
    }
    if let Some(plan) = &t.plan {
        let head = plan.headline();
        let _ = write!(s, "<p>plan: {}</p><ul class=\"plan\">", escape(&head));
        for v in &plan.values {
            let how = v.how.describe();
            let _ = write!(
                s,
                "<li><code>{}</code>: {}</li>",
                escape(&v.name),
                escape(&how)
            );
        }
        s.push_str("</ul>");
    }
    let mut cells = BTreeSet::new();
    let mut headers = BTreeSet::new();
    let mut sentences: Vec<(usize, Option<usize>)> = Vec::new();
    if !t.values.is_empty() {
        s.push_str(
            "<table class=\"values\"><thead><tr><th>name</th><th>value</th>\
             <th>what</th><th>source</th></tr></thead><tbody>",
        );
        for v in &t.values {
            let location = match v.location {
                Some(l) => located(l, page),
                None => String::new(),
            };
            let _ = write!(
                s,
                "<tr><td><code>{}</code></td><td class=\"number\">{}</td><td>{}</td>\
                 <td>{}{}</td></tr>",
                escape(&v.name),
                escape(&v.value.normalize().to_string()),
                escape(&v.description),
                escape(&v.source),
                location
            );
            match v.location {
                Some(SourceLocation::Cell { row, column }) => {
                    cells.insert((row, column));
                }
                Some(SourceLocation::HeaderNumber { column }) => {
                    headers.insert(column);
                }
                Some(SourceLocation::Sentence { sentence, token }) => {
                    sentences.push((sentence, token));
                }
                _ => {}
            }
        }
        s.push_str("</tbody></table>");
        for v in t.values.iter().filter(|v| v.sparql.is_some()) {
            let _ = write!(
                s,
                "<details><summary>SPARQL of <code>{}</code></summary><pre>{}</pre></details>",
                escape(&v.name),
                escape(v.sparql.as_deref().unwrap_or_default())
            );
        }
    }
    if let Some(page) = page {
        for (sentence, token) in &sentences {
            if let Some(text) = page.sentences.get(*sentence) {
                let _ = write!(
                    s,
                    "<p class=\"text\">in the {} text: {}</p>",
                    escape(text.section.trim_end_matches("_text")),
                    marked_sentence(&text.text, *token)
                );
            }
        }
        if !cells.is_empty() || !headers.is_empty() {
            table_html(s, page, &cells, &headers);
        }
    }
    if let Some(f) = &t.formula {
        let _ = write!(s, "<p>formula: <code>{}</code></p>", escape(f));
    }
    s.push_str("</li>");
}

/// A source location in words (HTML, escaped), after the source's own words.
fn located(location: SourceLocation, page: Option<&PageRecord>) -> String {
    let label = |text: Option<&String>| {
        text.map(|t| format!(" “{}”", escape(t)))
            .unwrap_or_default()
    };
    let words = match location {
        SourceLocation::Cell { row, column } => format!(
            "cell: row {row}{}, column {column}{}",
            label(page.and_then(|p| p.rows.get(row)).map(|r| &r.label)),
            label(page.and_then(|p| p.columns.get(column)))
        ),
        SourceLocation::HeaderNumber { column } => format!(
            "header of column {column}{}",
            label(page.and_then(|p| p.columns.get(column)))
        ),
        SourceLocation::Sentence { sentence, token } => format!(
            "sentence {sentence}{}",
            token.map(|t| format!(", word {t}")).unwrap_or_default()
        ),
        SourceLocation::Result { turn } => {
            format!("the result of <a href=\"#turn-{turn}\">turn {turn}</a>")
        }
        SourceLocation::Constant => "a constant".into(),
    };
    format!("<br><span class=\"location\">{words}</span>")
}

/// A sentence with its number token marked (the whole sentence when the
/// token is unknown).
fn marked_sentence(text: &str, token: Option<usize>) -> String {
    let Some(token) = token else {
        return format!("<mark class=\"source\">{}</mark>", escape(text));
    };
    text.split(' ')
        .enumerate()
        .map(|(i, w)| {
            if i == token {
                format!("<mark class=\"source\">{}</mark>", escape(w))
            } else {
                escape(w)
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The page's table, the given cells and column headers marked `source`.
fn table_html(
    s: &mut String,
    page: &PageRecord,
    cells: &BTreeSet<(usize, usize)>,
    headers: &BTreeSet<usize>,
) {
    let mark = |on: bool| if on { " class=\"source\"" } else { "" };
    s.push_str("<table class=\"page-table\"><thead><tr><th></th>");
    for (j, c) in page.columns.iter().enumerate() {
        let _ = write!(s, "<th{}>{}</th>", mark(headers.contains(&j)), escape(c));
    }
    s.push_str("</tr></thead><tbody>");
    for (i, r) in page.rows.iter().enumerate() {
        let row_marked = cells.iter().any(|&(ri, _)| ri == i);
        let _ = write!(
            s,
            "<tr{}><th>{}</th>",
            if row_marked {
                " class=\"source-row\""
            } else {
                ""
            },
            escape(&r.label)
        );
        for (j, c) in r.cells.iter().enumerate() {
            let _ = write!(s, "<td{}>{}</td>", mark(cells.contains(&(i, j))), escape(c));
        }
        s.push_str("</tr>");
    }
    s.push_str("</tbody></table>");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_become_paths_with_their_slashes() {
        assert_eq!(
            conversation_path("Single_JKHY/2009/page_28.pdf-3"),
            "/run/Single_JKHY/2009/page_28.pdf-3"
        );
        assert_eq!(conversation_path("a b#?\"<"), "/run/a%20b%23%3F%22%3C");
    }

    #[test]
    fn a_marked_sentence_is_escaped() {
        assert_eq!(
            marked_sentence("<b> rose 25 %", Some(2)),
            "&lt;b&gt; rose <mark class=\"source\">25</mark> %"
        );
    }
}

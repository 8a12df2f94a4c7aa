//! [`RunView`] rendered as text for a terminal or a pipe: the run's
//! overview, and one conversation turn by turn with each value's source
//! highlighted in the page's table or sentence. On a terminal the source
//! is bold and inverse ([`Marks::terminal`]); otherwise it is bracketed,
//! `[60.94]` ([`Marks::plain`]), so the output reads the same in a file.

use super::{ConversationView, RunView, SourceLocation, TurnView};
use crate::run::{PageRecord, Tally};
use anstyle::{Effects, Style};
use std::collections::BTreeSet;
use std::fmt::Write;

/// How a source and a heading are marked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Marks {
    terminal: bool,
}

impl Marks {
    /// Bold and inverse escapes, for a terminal.
    pub fn terminal() -> Self {
        Self { terminal: true }
    }
    /// Brackets and no escapes, for files and pipes.
    pub fn plain() -> Self {
        Self { terminal: false }
    }
    /// A source on the page: inverse bold, or `[text]`.
    pub fn source(&self, text: &str) -> String {
        if self.terminal {
            let style = Style::new().effects(Effects::BOLD | Effects::INVERT);
            format!("{}{text}{}", style.render(), style.render_reset())
        } else {
            format!("[{text}]")
        }
    }
    /// A heading: bold, or as is.
    pub fn strong(&self, text: &str) -> String {
        if self.terminal {
            let style = Style::new().effects(Effects::BOLD);
            format!("{}{text}{}", style.render(), style.render_reset())
        } else {
            text.to_string()
        }
    }
}

fn pct(t: &Tally) -> String {
    let share = format!("{:>5.1}% ({}/{})", 100.0 * t.accuracy, t.correct, t.total);
    format!("{share:<17}")
}

/// The run's critic as `inspect` shows it: `off`, or its name and the
/// revision rounds a turn (`deterministic, at most 1 revision a turn`).
pub fn critic_setting(critic: &str, max_revisions: Option<u32>) -> String {
    match max_revisions {
        _ if critic == "off" => critic.to_string(),
        None => critic.to_string(),
        Some(0) => format!("{critic}, no revision (findings traced only)"),
        Some(1) => format!("{critic}, at most 1 revision a turn"),
        Some(n) => format!("{critic}, at most {n} revisions a turn"),
    }
}

/// The run's overview: accuracy, by turn, by gold operation, misses by
/// cause, the worst conversations and the plot files.
pub fn overview(view: &RunView, marks: Marks) -> String {
    let mut s = String::new();
    let run = &view.run;
    let _ = writeln!(
        s,
        "{} {}: {} planner{} on {}, {} conversations",
        marks.strong("run"),
        run.run_id,
        run.planner,
        run.model
            .as_deref()
            .map(|m| format!(" ({m})"))
            .unwrap_or_default(),
        run.dataset.as_deref().unwrap_or("(dataset not recorded)"),
        view.conversations.len()
    );
    if let Some(store) = &run.store {
        let _ = writeln!(s, "pages' graphs read from the store at {store}");
    }
    if let Some(critic) = &run.critic {
        let _ = writeln!(s, "critic: {}", critic_setting(critic, run.max_revisions));
    }
    let _ = writeln!(
        s,
        "started {}, {}",
        run.started,
        match (&run.finished, run.interrupted) {
            (Some(f), _) => format!("finished {f}"),
            (None, true) => "interrupted (finish it with `finkg eval --resume`)".into(),
            (None, false) => "not finished".into(),
        }
    );
    let Some(summary) = &view.summary else {
        let _ = writeln!(s, "no summary.json: the run did not finish");
        return s;
    };
    let _ = writeln!(
        s,
        "turn accuracy:          {}",
        pct(&summary.turns).trim_end()
    );
    let _ = writeln!(
        s,
        "conversation accuracy:  {}",
        pct(&summary.conversation_accuracy).trim_end()
    );
    let _ = writeln!(
        s,
        "unanswered turns: {}; conversations that failed to load: {}",
        summary.unanswered, summary.failed_conversations
    );
    if let Some(u) = &summary.llm {
        let _ = writeln!(s, "llm: {u}");
    }
    let _ = writeln!(s, "\n{}", marks.strong("by turn:"));
    for (turn, t) in &summary.by_turn {
        let _ = writeln!(s, "  turn {turn:<3} {}  {}", pct(t), bar(t.accuracy));
    }
    let _ = writeln!(
        s,
        "\n{}",
        marks.strong("by gold operation (ten most asked):")
    );
    let mut ops: Vec<_> = summary.by_operation.iter().collect();
    ops.sort_by(|a, b| b.1.total.cmp(&a.1.total).then(a.0.cmp(b.0)));
    for (op, t) in ops.iter().take(10) {
        let _ = writeln!(s, "  {op:<24} {}  {}", pct(t), bar(t.accuracy));
    }
    let _ = writeln!(s, "\n{}", marks.strong("wrong turns by cause:"));
    for (cause, turns) in view.misses_by_cause() {
        let _ = writeln!(s, "  {:>4}  {}", turns.len(), cause.label());
    }
    let worst = view.worst(10);
    if !worst.is_empty() {
        let _ = writeln!(s, "\n{}", marks.strong("worst conversations:"));
        for c in worst {
            let first_wrong = c
                .turns
                .iter()
                .find(|t| t.correct == Some(false))
                .map(|t| format!("first wrong: turn {}", t.turn))
                .unwrap_or_default();
            let _ = writeln!(
                s,
                "  {}/{}  {}  {first_wrong}",
                c.correct.unwrap_or(0),
                c.turns_asked,
                c.id
            );
        }
    }
    if !view.plots.is_empty() {
        let _ = writeln!(s, "\n{}", marks.strong("plots:"));
        for p in &view.plots {
            let _ = writeln!(s, "  {}", view.dir.join(p).display());
        }
    }
    let _ = writeln!(
        s,
        "\none conversation: finkg inspect {} ID (an id or its start; --failed for the wrong turns only)",
        view.dir.display()
    );
    s
}

fn bar(share: f64) -> String {
    let n = (share.clamp(0.0, 1.0) * 20.0).round() as usize;
    format!("{}{}", "#".repeat(n), ".".repeat(20 - n))
}

/// One conversation, turn by turn (only the wrong turns with `failed_only`).
pub fn conversation(c: &ConversationView, failed_only: bool, marks: Marks) -> String {
    let mut s = String::new();
    let right = c
        .correct
        .map(|k| format!("{k}/{} turns right", c.turns_asked))
        .unwrap_or_else(|| format!("{} turns", c.turns_asked));
    let graph = c
        .graph
        .map(|g| {
            format!(
                " ({} triples, {} cells, {} text facts)",
                g.triples, g.observations, g.text_facts
            )
        })
        .unwrap_or_default();
    let _ = writeln!(
        s,
        "{} — {right}{graph}",
        marks.strong(&format!("== {}", c.id))
    );
    if let Some(e) = &c.error {
        let _ = writeln!(s, "the page failed to load: {e}");
    }
    if c.page.is_none() {
        let _ = writeln!(
            s,
            "(this run folder has no pages.jsonl: sources are named, not shown on the page)"
        );
    }
    let mut shown = 0;
    for t in &c.turns {
        if failed_only && t.correct != Some(false) {
            continue;
        }
        shown += 1;
        s.push_str(&turn(t, c.page.as_ref(), marks));
    }
    if failed_only && shown == 0 {
        let _ = writeln!(s, "no wrong turn");
    }
    s
}

/// One turn: question, answer against gold, plan, values with their
/// sources on the page, formula.
pub fn turn(t: &TurnView, page: Option<&PageRecord>, marks: Marks) -> String {
    let mut s = String::new();
    let verdict = match t.correct {
        Some(true) => "✔ ",
        Some(false) => "✘ ",
        None => "",
    };
    let _ = writeln!(s, "[{}] {verdict}{}", t.turn, marks.strong(&t.question));
    let answer = match (&t.answer, &t.error) {
        (Some(a), _) => a.to_string(),
        (None, Some(e)) => format!("no answer: {e}"),
        (None, None) => "no answer".into(),
    };
    match &t.gold {
        Some(g) => {
            let program = g.program.as_deref().unwrap_or("no program");
            let _ = writeln!(
                s,
                "    answer: {answer}\n    gold:   {} (`{}`; {program})",
                g.answer, g.text
            );
        }
        None => {
            let _ = writeln!(s, "    answer: {answer}");
        }
    }
    if let Some(cause) = &t.cause {
        let _ = writeln!(s, "    why wrong: {}", cause.label());
    }
    if let Some(f) = &t.fallback {
        let _ = writeln!(s, "    fallback: {f}; answered by {}", t.planner);
    }
    for line in &t.critic {
        let _ = writeln!(s, "    {line}");
    }
    s.push_str(&explain(t, page, marks));
    s
}

/// A turn's plan, values with their sources on the page, and formula (what
/// `chat`'s `:explain` prints).
pub fn explain(t: &TurnView, page: Option<&PageRecord>, marks: Marks) -> String {
    let mut s = String::new();
    if let Some(plan) = &t.plan {
        let head = plan.headline();
        let _ = writeln!(s, "    plan: {head}");
        for v in &plan.values {
            let how = v.how.describe();
            let _ = writeln!(s, "      {}: {how}", v.name);
        }
    }
    let mut cells = BTreeSet::new();
    let mut headers = BTreeSet::new();
    for v in &t.values {
        let _ = writeln!(s, "    {} = {}  from {}", v.name, v.value, v.source);
        if let Some(q) = &v.sparql {
            for line in q.lines() {
                let _ = writeln!(s, "        {line}");
            }
        }
        match (v.location, page) {
            (Some(SourceLocation::Cell { row, column }), Some(_)) => {
                cells.insert((row, column));
            }
            (Some(SourceLocation::HeaderNumber { column }), Some(_)) => {
                headers.insert(column);
            }
            (Some(SourceLocation::Sentence { sentence, token }), Some(page)) => {
                if let Some(text) = page.sentences.get(sentence) {
                    let _ = writeln!(
                        s,
                        "        in the {} text: {}",
                        text.section.trim_end_matches("_text"),
                        marked_sentence(&text.text, token, marks)
                    );
                }
            }
            _ => {}
        }
    }
    if let (Some(page), false) = (page, cells.is_empty() && headers.is_empty()) {
        let _ = writeln!(s, "    in the table:");
        for line in table(page, &cells, &headers, marks).lines() {
            let _ = writeln!(s, "      {line}");
        }
    }
    if let Some(f) = &t.formula {
        let _ = writeln!(s, "    formula: {f}");
    }
    s
}

/// A sentence with its number token marked (the whole sentence when the
/// token is unknown).
fn marked_sentence(text: &str, token: Option<usize>, marks: Marks) -> String {
    let Some(token) = token else {
        return marks.source(text);
    };
    text.split(' ')
        .enumerate()
        .map(|(i, w)| {
            if i == token {
                marks.source(w)
            } else {
                w.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

const MAX_WIDTH: usize = 32;

fn clip(text: &str) -> String {
    if text.chars().count() <= MAX_WIDTH {
        text.to_string()
    } else {
        let head: String = text.chars().take(MAX_WIDTH - 1).collect();
        format!("{head}…")
    }
}

/// The page's table, with the given cells and column headers marked.
pub fn table(
    page: &PageRecord,
    cells: &BTreeSet<(usize, usize)>,
    headers: &BTreeSet<usize>,
    marks: Marks,
) -> String {
    // plain texts first (for widths), marked afterwards
    let mut rows: Vec<Vec<(String, bool)>> = Vec::new();
    let mut head = vec![(String::new(), false)];
    for (j, c) in page.columns.iter().enumerate() {
        let marked = headers.contains(&j);
        head.push((if marked { c.clone() } else { clip(c) }, marked));
    }
    rows.push(head);
    for (i, r) in page.rows.iter().enumerate() {
        let mut line = vec![(clip(&r.label), false)];
        for (j, c) in r.cells.iter().enumerate() {
            line.push((c.clone(), cells.contains(&(i, j))));
        }
        rows.push(line);
    }
    let columns = rows.iter().map(Vec::len).max().unwrap_or(0);
    let mut widths = vec![0; columns];
    for row in &rows {
        for (j, (text, marked)) in row.iter().enumerate() {
            let extra = if *marked && !marks.terminal { 2 } else { 0 };
            widths[j] = widths[j].max(text.chars().count() + extra);
        }
    }
    let mut s = String::new();
    for row in &rows {
        let cells: Vec<String> = row
            .iter()
            .enumerate()
            .map(|(j, (text, marked))| {
                let shown = if *marked {
                    marks.source(text)
                } else {
                    text.clone()
                };
                let visible = text.chars().count() + if *marked && !marks.terminal { 2 } else { 0 };
                format!("{shown}{}", " ".repeat(widths[j].saturating_sub(visible)))
            })
            .collect();
        let _ = writeln!(s, "{}", cells.join(" | ").trim_end());
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::run::{PageRow, PageSentence};

    fn page() -> PageRecord {
        PageRecord {
            id: "p".into(),
            columns: vec!["2009".into(), "2008".into()],
            rows: vec![PageRow {
                label: "net sales".into(),
                cells: vec!["1500".into(), "1200".into()],
            }],
            sentences: vec![PageSentence {
                section: "pre_text".into(),
                text: "sales rose 25 % in 2009 .".into(),
            }],
        }
    }

    #[test]
    fn plain_tables_bracket_the_source_cell_and_stay_aligned() {
        let text = table(
            &page(),
            &BTreeSet::from([(0, 1)]),
            &BTreeSet::new(),
            Marks::plain(),
        );
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[1], "net sales | 1500 | [1200]");
        assert_eq!(lines[0].find('|'), lines[1].find('|'), "{text}");
        assert!(!text.contains('\u{1b}'));
    }

    #[test]
    fn terminal_marks_are_escapes_not_brackets() {
        let text = table(
            &page(),
            &BTreeSet::from([(0, 0)]),
            &BTreeSet::new(),
            Marks::terminal(),
        );
        assert!(text.contains("\u{1b}["), "{text:?}");
        assert!(!text.contains("[1500]"));
    }

    #[test]
    fn a_sentence_marks_its_number_token() {
        let s = marked_sentence("sales rose 25 % in 2009 .", Some(2), Marks::plain());
        assert_eq!(s, "sales rose [25] % in 2009 .");
    }
}

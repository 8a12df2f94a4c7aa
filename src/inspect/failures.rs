//! `failures.md`: a run's wrong turns as Markdown, grouped by [`Cause`]
//! (most frequent first), each with its question, answer and gold, plan,
//! values with their sources, formula, and SPARQL in a fenced block without
//! the PREFIX lines finkg declares. `eval` writes it from the run folder
//! when a run ends.

use super::{Cause, ConversationView, Planned, RunView, TurnView};
use std::fmt::Write;

/// The Markdown of a run's wrong turns.
pub fn markdown(view: &RunView) -> String {
    let groups = view.misses_by_cause();
    let wrong: usize = groups.iter().map(|(_, t)| t.len()).sum();
    let scored = view.turns().filter(|(_, t)| t.correct.is_some()).count();
    let mut s = String::from("# Failures\n\n");
    let _ = writeln!(
        s,
        "{wrong} wrong turns of {scored} scored, by cause (most frequent first). \
         Queries are shown without the PREFIX lines finkg declares; \
         `finkg inspect RUN_DIR ID` shows a conversation with its page.\n"
    );
    for (cause, _) in &groups {
        let h = heading(cause, &groups);
        let _ = writeln!(s, "- [{h}]({})", anchor(&h));
    }
    s.push('\n');
    for (cause, turns) in &groups {
        let _ = writeln!(s, "## {}\n", heading(cause, &groups));
        for (c, t) in turns {
            s.push_str(&turn(c, t));
        }
    }
    s
}

fn heading(cause: &Cause, groups: &[(Cause, Vec<(&ConversationView, &TurnView)>)]) -> String {
    let n = groups
        .iter()
        .find(|(k, _)| k == cause)
        .map_or(0, |(_, t)| t.len());
    format!("{} ({n})", cause.label())
}

/// The GitHub-style anchor of a heading: lower case, spaces to `-`,
/// punctuation dropped.
fn anchor(text: &str) -> String {
    let mut a = String::from("#");
    for ch in text.chars() {
        if ch.is_alphanumeric() {
            a.extend(ch.to_lowercase());
        } else if ch == ' ' || ch == '-' {
            a.push('-');
        }
    }
    a
}

fn turn(c: &ConversationView, t: &TurnView) -> String {
    let mut s = format!("### {} — turn {}\n\n", c.id, t.turn);
    let _ = writeln!(s, "- question: {}", t.question);
    let answer = t
        .answer
        .map(|a| a.to_string())
        .unwrap_or_else(|| "none".into());
    let _ = writeln!(s, "- answer: {answer}");
    if let Some(g) = &t.gold {
        let program = g.program.as_deref().unwrap_or("no program");
        let _ = writeln!(s, "- gold: {} (`{}`; `{program}`)", g.answer, g.text);
    }
    if let Some(e) = &t.error {
        let _ = writeln!(s, "- error: {e}");
    }
    if let Some(plan) = &t.plan {
        let mut head = plan.metric_type.clone().unwrap_or_else(|| "value".into());
        if let Some(e) = &plan.entity {
            head.push_str(&format!(" of `{e}`"));
        }
        if let Some(p) = &plan.period {
            head.push_str(&format!(" ({p})"));
        }
        let _ = writeln!(s, "- plan: {head}");
        for v in &plan.values {
            let how = match &v.how {
                Planned::Sparql { description, .. } => format!("SPARQL — {description}"),
                Planned::Reference { turn } => format!("the answer of turn {turn}"),
                Planned::Constant { value } => format!("the constant {value}"),
            };
            let _ = writeln!(s, "  - `{}`: {how}", v.name);
        }
    }
    for v in &t.values {
        let _ = writeln!(s, "- `{}` = {} — from {}", v.name, v.value, v.source);
    }
    if let Some(f) = &t.formula {
        let _ = writeln!(s, "- formula: `{f}`");
    }
    s.push('\n');
    let queries: Vec<(&str, &str)> = match &t.plan {
        Some(plan) => plan
            .values
            .iter()
            .filter_map(|v| match &v.how {
                Planned::Sparql { sparql, .. } => Some((v.name.as_str(), sparql.as_str())),
                _ => None,
            })
            .collect(),
        None => Vec::new(),
    };
    for (name, q) in queries {
        let _ = writeln!(s, "```sparql\n# {name}\n{q}\n```\n");
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn anchors_follow_the_heading_words() {
        assert_eq!(
            anchor("the right operation over a wrong value (12)"),
            "#the-right-operation-over-a-wrong-value-12"
        );
    }
}

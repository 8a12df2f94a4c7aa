//! `failures.md`: a run's wrong turns as Markdown, grouped by [`Cause`]
//! (most frequent first), each with its question, answer and gold, plan,
//! values with their sources, formula, and SPARQL in a fenced block without
//! the PREFIX lines finkg declares. `eval` writes it from the run folder
//! when a run ends.

use super::{Cause, Planned, RunView, TurnView};
use std::fmt::Write;

/// The wrong turns of a run, rendered as they come, grouped by cause.
#[derive(Debug, Clone, Default)]
pub struct Failures {
    groups: Vec<(Cause, Vec<String>)>,
    scored: usize,
}

impl Failures {
    /// Adds a conversation's turns (the wrong ones are kept, rendered).
    pub fn add(&mut self, id: &str, turns: &[TurnView]) {
        for t in turns {
            self.scored += usize::from(t.correct.is_some());
            let Some(cause) = &t.cause else { continue };
            let section = turn(id, t);
            match self.groups.iter_mut().find(|(k, _)| k == cause) {
                Some((_, sections)) => sections.push(section),
                None => self.groups.push((cause.clone(), vec![section])),
            }
        }
    }

    /// The Markdown: the causes, most frequent first, each with its turns.
    pub fn markdown(&self) -> String {
        let mut groups: Vec<&(Cause, Vec<String>)> = self.groups.iter().collect();
        groups.sort_by(|a, b| b.1.len().cmp(&a.1.len()).then(a.0.cmp(&b.0)));
        let wrong: usize = groups.iter().map(|(_, t)| t.len()).sum();
        let mut s = String::from("# Failures\n\n");
        let _ = writeln!(
            s,
            "{wrong} wrong turns of {} scored, by cause (most frequent first). \
             Queries are shown without the PREFIX lines finkg declares; \
             `finkg inspect RUN_DIR ID` shows a conversation with its page.\n",
            self.scored
        );
        let heading = |(cause, sections): &&(Cause, Vec<String>)| {
            format!("{} ({})", cause.label(), sections.len())
        };
        for g in &groups {
            let h = heading(g);
            let _ = writeln!(s, "- [{h}]({})", anchor(&h));
        }
        s.push('\n');
        for g in &groups {
            let _ = writeln!(s, "## {}\n", heading(g));
            for section in &g.1 {
                s.push_str(section);
            }
        }
        s
    }
}

/// The Markdown of a run's wrong turns.
pub fn markdown(view: &RunView) -> String {
    let mut failures = Failures::default();
    for c in &view.conversations {
        failures.add(&c.id, &c.turns);
    }
    failures.markdown()
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

fn turn(id: &str, t: &TurnView) -> String {
    let mut s = format!("### {id} — turn {}\n\n", t.turn);
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
        let head = plan.headline();
        let _ = writeln!(s, "- plan: {head}");
        for v in &plan.values {
            let how = v.how.describe();
            let _ = writeln!(s, "  - `{}`: {how}", v.name);
        }
    }
    for v in &t.values {
        let _ = writeln!(s, "- `{}` = {} — from {}", v.name, v.value, v.source);
    }
    if let Some(f) = &t.formula {
        let _ = writeln!(s, "- formula: `{f}`");
    }
    for line in &t.critic {
        let _ = writeln!(s, "- {line}");
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

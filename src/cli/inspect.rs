//! `finkg inspect RUN_DIR [ID]`: a run folder's overview, or one
//! conversation turn by turn with its sources on the page; `--json` prints
//! the same data ([`crate::inspect`]'s structs) as one JSON document.

use super::{printable_styled, CliError};
use crate::inspect::text::{self, Marks};
use crate::inspect::RunView;
use std::io::{self, IsTerminal, Write};
use std::path::Path;
use std::process::ExitCode;

/// Marks for stdout: escapes on a terminal unless `NO_COLOR` is set,
/// brackets otherwise.
pub fn stdout_marks() -> Marks {
    let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
    if io::stdout().is_terminal() && !no_color {
        Marks::terminal()
    } else {
        Marks::plain()
    }
}

/// Prints the overview of `dir`, or the conversation `id` names (an id or
/// the start of only one), only its wrong turns with `failed_only`.
pub fn inspect(
    dir: &Path,
    id: Option<&str>,
    failed_only: bool,
    json: bool,
) -> Result<ExitCode, CliError> {
    let view = RunView::read(dir)?;
    let mut out = io::stdout().lock();
    match id {
        None => {
            if json {
                let causes: Vec<_> = view
                    .misses_by_cause()
                    .into_iter()
                    .map(|(cause, turns)| {
                        serde_json::json!({
                            "cause": cause, "label": cause.label(), "turns": turns.len(),
                            "examples": turns.iter().take(5)
                                .map(|(c, t)| serde_json::json!({"id": c.id, "turn": t.turn}))
                                .collect::<Vec<_>>(),
                        })
                    })
                    .collect();
                let worst: Vec<_> = view
                    .worst(10)
                    .into_iter()
                    .map(|c| serde_json::json!({"id": c.id, "turns": c.turns_asked, "correct": c.correct}))
                    .collect();
                let plots: Vec<_> = view.plots.iter().map(|p| view.dir.join(p)).collect();
                let doc = serde_json::json!({
                    "run": view.run, "summary": view.summary, "misses_by_cause": causes,
                    "worst_conversations": worst, "plots": plots,
                });
                writeln!(out, "{doc}")?;
            } else {
                let text = text::overview(&view, stdout_marks());
                write!(out, "{}", printable_styled(&text))?;
            }
        }
        Some(id) => {
            let conversation = view.find(id)?;
            if json {
                let mut c = conversation.clone();
                if failed_only {
                    c.turns.retain(|t| t.correct == Some(false));
                }
                writeln!(out, "{}", serde_json::to_string(&c).unwrap_or_default())?;
            } else {
                let text = text::conversation(conversation, failed_only, stdout_marks());
                write!(out, "{}", printable_styled(&text))?;
            }
        }
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

//! `finkg eval`'s exit code, read from the run's summary.

use crate::run::Summary;
use std::process::ExitCode;

/// A run's exit code: 1 when a failure no retry mends halted it (the LLM
/// circuit breaker, a rejected key) or when no turn was answered, else 0.
pub fn exit_code(summary: &Summary) -> ExitCode {
    let halted = summary
        .stopped
        .as_deref()
        .filter(|r| r.starts_with("no further request is made"));
    let turns = summary.unanswered.max(summary.turns.total);
    let none_answered = turns > 0 && summary.unanswered == turns;
    if let Some(reason) = halted {
        eprintln!("error: the run stopped: {reason}");
    } else if none_answered {
        eprintln!("error: no turn was answered; see the errors in the run folder's predictions");
    } else {
        return ExitCode::SUCCESS;
    }
    ExitCode::from(1)
}

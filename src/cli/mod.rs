//! The command line's work as library functions: each `finkg` subcommand's
//! body and its printing. `src/main.rs` holds only the clap definitions
//! and the dispatch; a subcommand with many arguments has its `#[derive(Args)]`
//! struct beside its work here ([`eval::EvalArgs`], [`kg::KgArgs`],
//! [`store::LoadArgs`]), as do the option groups several share
//! ([`planners::PlannerArgs`], [`store::StoreArgs`]).
//!
//! - [`eval`]: `eval`'s exit code;
//! - [`planners`]: the planner options and the planners they make;
//! - [`config`]: the per-stage configuration file (`--config`, `finkg.toml`);
//! - [`solve`]: `solve`, a conversation turn by turn, printed;
//! - [`chat`]: `chat`, questions of one's own over a page, with commands;
//! - [`eval`]: `eval`, a scored run and its folder;
//! - [`inspect`]: `inspect`, a run folder read back;
//! - [`query`]: `query`, one query or a JSON Lines batch of them;
//! - [`kg`]: `kg`, the TBox and pages' ABoxes as RDF;
//! - [`ontology`]: `ontology build|check`;
//! - [`mongo`]: `eval --mongo-uri` and `export` (refused without the
//!   `mongodb` feature);
//! - [`serve`]: `serve`, the pages over HTTP ([`crate::serve`]);
//! - [`store`]: `--store URL` (a SPARQL endpoint holding the pages) and
//!   `load`, the pages into it.

pub mod chat;
pub mod config;
pub mod eval;
pub mod inspect;
pub mod kg;
pub mod mongo;
pub mod ontology;
pub mod planners;
pub mod query;
pub mod serve;
pub mod solve;
pub mod store;

use crate::dataset::{self, Conversation, Example};
use crate::trace::error_chain;
use std::io;
use std::path::Path;

/// A failure the user should read: the message and its causes, and what
/// to do about it when that is clear.
#[derive(Debug)]
pub struct CliError {
    /// The message with its causes, on one line.
    pub message: String,
    /// What to do about it, when that is clear.
    pub hint: Option<String>,
    /// Stdout was closed (`finkg kg x.json | head`): not an error.
    pub broken_pipe: bool,
}

impl CliError {
    /// An error with this message.
    pub fn new(message: impl Into<String>) -> Self {
        Self {
            message: message.into(),
            hint: None,
            broken_pipe: false,
        }
    }

    /// The error with a hint.
    pub fn with_hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }
}

impl<E: std::error::Error + 'static> From<E> for CliError {
    fn from(e: E) -> Self {
        let mut error = CliError::new(error_chain(&e));
        let mut cause: Option<&(dyn std::error::Error + 'static)> = Some(&e);
        while let Some(c) = cause {
            if let Some(io) = c.downcast_ref::<io::Error>() {
                error.broken_pipe |= io.kind() == io::ErrorKind::BrokenPipe;
            }
            cause = c.source();
        }
        error
    }
}

/// Whether stdout's reader has gone (`finkg kg x.json | head -1`: `head`
/// has exited): stdout is a pipe or socket that `poll` reports in error or
/// hung up. Never blocks; `false` for a terminal, a file, or off Unix.
pub fn stdout_closed() -> bool {
    #[cfg(unix)]
    {
        use rustix::event::{poll, PollFd, PollFlags, Timespec};
        let stdout = io::stdout();
        let mut fds = [PollFd::new(&stdout, PollFlags::OUT)];
        let now = Timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        matches!(poll(&mut fds, Some(&now)), Ok(n) if n > 0)
            && fds[0].revents().intersects(PollFlags::ERR | PollFlags::HUP)
    }
    #[cfg(not(unix))]
    {
        false
    }
}

/// The one way every command ends quietly when its stdout is closed
/// (`finkg ontology check | head -1`): the process ignores SIGPIPE (Rust's
/// default), so a write to a closed pipe fails with `BrokenPipe`. An error
/// that says so ([`CliError::broken_pipe`]), or any error once
/// [`stdout_closed`], ends the process with status 0 and nothing printed
/// (`main`); `println!`'s panic on a closed stdout is caught by the panic
/// hook this installs, which exits with status 0 too. Any other panic is
/// reported by the default hook.
pub fn quiet_when_stdout_closes() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let payload = info
            .payload()
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| info.payload().downcast_ref::<&str>().copied())
            .unwrap_or("");
        if payload.starts_with("failed printing to stdout") && stdout_closed() {
            std::process::exit(0);
        }
        default(info);
    }));
}

/// The examples of a dataset file.
pub fn load(path: &Path) -> Result<Vec<Example>, CliError> {
    let examples = dataset::load_file(path)?;
    let mut seen = std::collections::HashMap::new();
    for (i, e) in examples.iter().enumerate() {
        if let Some(first) = seen.insert(e.conversation.id.as_str(), i) {
            return Err(duplicate(path, &e.conversation.id, first, i));
        }
    }
    Ok(examples)
}

fn duplicate(path: &Path, id: &str, first: usize, again: usize) -> CliError {
    CliError::new(format!(
        "{}: conversation id `{id}` appears more than once (conversations {} and {})",
        path.display(),
        first + 1,
        again + 1
    ))
}

/// The `run.json` of a run folder that `eval --resume` finishes.
pub fn run_to_resume(dir: &Path) -> Result<crate::run::RunInfo, CliError> {
    let path = dir.join("run.json");
    std::fs::read_to_string(&path)
        .map_err(|e| e.to_string())
        .and_then(|t| serde_json::from_str(&t).map_err(|e| e.to_string()))
        .map_err(|e| CliError::new(format!("cannot resume: {}: {e}", path.display())))
}

/// Reads a dataset for `eval` before the run: the whole file well formed,
/// every id once, some gold to score against. Holds the ids, never the
/// conversations (the run reads them again, as a stream). Returns how many
/// conversations the file holds.
pub fn check_eval_dataset(path: &Path) -> Result<usize, CliError> {
    let file = std::fs::File::open(path).map_err(|source| dataset::DatasetError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    let mut seen: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    let (mut twice, mut any_gold) = (None, false);
    let count = dataset::read_each(
        io::BufReader::new(file),
        &path.display().to_string(),
        |example| {
            let i = seen.len();
            any_gold |= example.gold.is_some();
            if let Some(&first) = seen.get(&example.conversation.id) {
                twice.get_or_insert((example.conversation.id, first, i));
            } else {
                seen.insert(example.conversation.id, i);
            }
            Ok(())
        },
    )?;
    if let Some((id, first, again)) = twice {
        return Err(duplicate(path, &id, first, again));
    }
    if !any_gold {
        return Err(CliError::new(format!(
            "{}: no conversation has gold answers, so there is nothing to score",
            path.display()
        ))
        .with_hint("`finkg solve` answers a file without gold"));
    }
    Ok(count)
}

/// A writer for a terminal: control characters other than newline and tab
/// (an ESC sequence, NUL, BEL in a question or a model's reply) are
/// written as `\x1b`-style escapes, never raw.
pub struct Printable<W: io::Write>(pub W);

/// `text` with its control characters escaped as [`Printable`] writes
/// them, except the colour and weight escapes (`ESC [ 1 ; 7 m`) that
/// [`crate::inspect::text::Marks::terminal`] writes.
pub fn printable_styled(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find('\u{1b}') {
        out.push_str(&printable(&rest[..i]));
        let after = &rest[i + 1..];
        let sgr = after.strip_prefix('[').and_then(|a| {
            let end = a.find(|c: char| !(c.is_ascii_digit() || c == ';'))?;
            (a[end..].starts_with('m')).then_some(end + 2)
        });
        match sgr {
            Some(len) => {
                out.push_str(&rest[i..i + 1 + len]);
                rest = &after[len..];
            }
            None => {
                out.push_str("\\x1b");
                rest = after;
            }
        }
    }
    out.push_str(&printable(rest));
    out
}

/// `text` with its control characters escaped as [`Printable`] writes them.
pub fn printable(text: &str) -> String {
    let mut out = Printable(Vec::new());
    let _ = io::Write::write_all(&mut out, text.as_bytes());
    String::from_utf8_lossy(&out.0).into_owned()
}

impl<W: io::Write> io::Write for Printable<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let mut start = 0;
        for (i, &b) in buf.iter().enumerate() {
            if (b < 0x20 && b != b'\n' && b != b'\t') || b == 0x7f {
                self.0.write_all(&buf[start..i])?;
                write!(self.0, "\\x{b:02x}")?;
                start = i + 1;
            }
        }
        self.0.write_all(&buf[start..])?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.0.flush()
    }
}

/// The conversation of FILE with this id, or its first one.
pub fn pick_conversation(path: &Path, id: Option<&str>) -> Result<Conversation, CliError> {
    let mut conversations = load(path)?.into_iter().map(|e| e.conversation);
    match id {
        None => conversations
            .next()
            .ok_or_else(|| CliError::new(format!("{}: holds no conversation", path.display()))),
        Some(id) => conversations.find(|c| c.id == id).ok_or_else(|| {
            CliError::new(format!(
                "{}: holds no conversation with id `{id}`",
                path.display()
            ))
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_are_escaped() {
        assert_eq!(
            printable("a\x1b[31mred\x07\0 ok\n\tnext é\x7f"),
            "a\\x1b[31mred\\x07\\x00 ok\n\tnext é\\x7f"
        );
    }

    #[test]
    fn styled_text_keeps_colour_escapes_and_escapes_the_rest() {
        let text = "a \u{1b}[1m\u{1b}[7mb\u{1b}[0m \u{1b}]0;title\u{7} \u{1b}[2J";
        assert_eq!(
            printable_styled(text),
            "a \u{1b}[1m\u{1b}[7mb\u{1b}[0m \\x1b]0;title\\x07 \\x1b[2J"
        );
    }
}

//! `finkg chat FILE [--id ID]`: a conversation of one's own over one
//! report page. On a terminal, lines are edited and remembered with
//! rustyline (history in `~/.cache/finkg/chat_history`); otherwise stdin
//! is read line by line, so a piped session is a script. A line is a
//! question, or a command:
//!
//! - `:explain` the last answer's plan, values with their sources marked on
//!   the page, and formula;
//! - `:table`, `:text` the page's table and numbered sentences;
//! - `:sparql QUERY` a query through the same guard as `finkg query`;
//! - `:graph` the page's triples as Turtle;
//! - `:reset` a new conversation over the same page;
//! - `:help`, `:quit`.

use super::inspect::stdout_marks;
use super::planners::{make_planners, PlannerArgs};
use super::query::{run_query, write_table};
use super::solve::answer_text;
use super::{pick_conversation, printable_styled, CliError};
use crate::inspect::text::{self, Marks};
use crate::inspect::TurnView;
use crate::kg::ExportFormat;
use crate::pipeline::{Planners, Session};
use crate::run::PageRecord;
use crate::trace::{error_chain, TurnTrace};
use std::collections::BTreeSet;
use std::io::{self, BufRead, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

const HELP: &str = "\
ask a question about the page, or:
  :explain       the last answer's plan, values with their sources, formula
  :table         the page's table
  :text          the page's sentences, numbered
  :sparql QUERY  run a SELECT or ASK query on the page's graph (prefixes fk:, qb:, rdfs:, ... declared)
  :graph         the page's triples as Turtle
  :reset         start the conversation over (earlier answers are forgotten)
  :help          this list
  :quit          leave (or end of input, Ctrl-D)";

/// One chat: the page, its session, the planners and the last turn.
struct Chat {
    conversation: crate::dataset::Conversation,
    page: PageRecord,
    session: Session,
    planners: Planners,
    last: Option<TurnTrace>,
    marks: Marks,
    /// Echo each question with its turn (when the input is not typed).
    echo: bool,
    /// Where the page's graph comes from (`:reset` opens it again).
    source: crate::kg::PageSource,
}

/// What a line asked for.
enum Step {
    Go,
    Quit,
}

/// Runs `finkg chat`.
pub fn chat(
    file: &Path,
    id: Option<&str>,
    planner: &PlannerArgs,
    source: &crate::kg::PageSource,
) -> Result<ExitCode, CliError> {
    let conversation = pick_conversation(file, id)?;
    let session = Session::open(&conversation, source)?;
    let planners = make_planners(planner, 1)?
        .pop()
        .ok_or_else(|| CliError::new("no planner"))?;
    let typed = io::stdin().is_terminal();
    let mut chat = Chat {
        page: PageRecord::of(&conversation),
        source: source.clone(),
        conversation,
        session,
        planners,
        last: None,
        marks: stdout_marks(),
        echo: !typed,
    };
    let st = chat.session.stats();
    let mut out = io::stdout().lock();
    writeln!(
        out,
        "== {} ({} triples, {} cells, {} text facts)",
        printable_styled(&chat.conversation.id),
        st.triples,
        st.observations,
        st.text_facts
    )?;
    if typed {
        writeln!(
            out,
            "ask a question about this page; :help lists the commands"
        )?;
        out.flush()?;
        drop(out);
        return interactive(&mut chat);
    }
    for line in io::stdin().lock().lines() {
        let line = line.map_err(|e| CliError::new(format!("cannot read stdin: {e}")))?;
        if let Step::Quit = chat.line(&mut out, &line)? {
            break;
        }
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// Lines typed on a terminal, edited and remembered by rustyline.
fn interactive(chat: &mut Chat) -> Result<ExitCode, CliError> {
    use rustyline::error::ReadlineError;
    let mut editor = rustyline::DefaultEditor::new()
        .map_err(|e| CliError::new(format!("cannot start the line editor: {e}")))?;
    let history = history_file();
    if let Some(path) = &history {
        let _ = editor.load_history(path);
    }
    loop {
        match editor.readline("finkg> ") {
            Ok(line) => {
                if !line.trim().is_empty() {
                    let _ = editor.add_history_entry(line.as_str());
                }
                let mut out = io::stdout().lock();
                let step = chat.line(&mut out, &line)?;
                out.flush()?;
                if let Step::Quit = step {
                    break;
                }
            }
            Err(ReadlineError::Interrupted) => continue,
            Err(ReadlineError::Eof) => break,
            Err(e) => return Err(CliError::new(format!("cannot read a line: {e}"))),
        }
    }
    if let Some(path) = &history {
        if let Some(dir) = path.parent() {
            let _ = std::fs::create_dir_all(dir);
        }
        let _ = editor.save_history(path);
    }
    Ok(ExitCode::SUCCESS)
}

/// `~/.cache/finkg/chat_history`, when there is a home.
fn history_file() -> Option<PathBuf> {
    let home = std::env::var_os("HOME").filter(|h| !h.is_empty())?;
    Some(PathBuf::from(home).join(".cache/finkg/chat_history"))
}

impl Chat {
    /// Answers a question or runs a command.
    fn line(&mut self, out: &mut impl Write, line: &str) -> Result<Step, CliError> {
        let mut text = Vec::new();
        let step = self.run(&mut text, line)?;
        out.write_all(printable_styled(&String::from_utf8_lossy(&text)).as_bytes())?;
        Ok(step)
    }

    /// [`Self::line`], written unescaped to `out`.
    fn run(&mut self, out: &mut impl Write, line: &str) -> Result<Step, CliError> {
        let line = line.trim();
        if line.is_empty() {
            return Ok(Step::Go);
        }
        let Some(command) = line.strip_prefix(':') else {
            self.ask(out, line)?;
            return Ok(Step::Go);
        };
        let (name, rest) = command
            .split_once(char::is_whitespace)
            .map_or((command, ""), |(n, r)| (n, r.trim()));
        match name {
            "quit" | "q" | "exit" => return Ok(Step::Quit),
            "help" | "h" | "?" => writeln!(out, "{HELP}")?,
            "explain" => match &self.last {
                Some(t) => {
                    let view = TurnView::from_trace(t, Some(&self.page));
                    write!(
                        out,
                        "{}",
                        text::explain(&view, Some(&self.page), self.marks)
                    )?;
                }
                None => writeln!(out, "nothing to explain yet: ask a question first")?,
            },
            "table" => write!(
                out,
                "{}",
                text::table(&self.page, &BTreeSet::new(), &BTreeSet::new(), self.marks)
            )?,
            "text" => {
                for (k, s) in self.page.sentences.iter().enumerate() {
                    writeln!(
                        out,
                        "[{k}] ({}) {}",
                        s.section.trim_end_matches("_text"),
                        s.text
                    )?;
                }
            }
            "sparql" if rest.is_empty() => writeln!(out, "give a query: :sparql SELECT ...")?,
            "sparql" => match run_query(self.session.kg(), rest) {
                Ok(output) => write_table(out, output)?,
                Err(e) => writeln!(out, "error: {}", e.message)?,
            },
            "graph" => {
                let mut turtle = Vec::new();
                match self
                    .session
                    .kg()
                    .export_page(ExportFormat::Turtle, &mut turtle)
                {
                    Ok(()) => out.write_all(&turtle)?,
                    Err(e) => writeln!(out, "error: {}", error_chain(&e))?,
                }
            }
            "reset" => {
                self.session = Session::open(&self.conversation, &self.source)?;
                self.last = None;
                writeln!(out, "a new conversation over the same page")?;
            }
            other => writeln!(out, "unknown command `:{other}`; :help lists the commands")?,
        }
        Ok(Step::Go)
    }

    /// Asks a question and prints its answer.
    fn ask(&mut self, out: &mut impl Write, question: &str) -> io::Result<()> {
        let trace = self.session.ask_with(&mut self.planners, question);
        if self.echo {
            writeln!(out, "[{}] {question}", trace.turn)?;
        }
        writeln!(out, "    -> {}", answer_text(&trace))?;
        self.last = Some(trace);
        Ok(())
    }
}

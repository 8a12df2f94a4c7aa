//! A run folder read back for people: [`RunView`] is a finished (or
//! interrupted) run as typed structs — the overview's scores, each
//! conversation with its page ([`PageRecord`]) and its turns, each turn
//! with its answer and gold, plan, values with the cell or sentence they
//! came from ([`SourceLocation`]) and formula, and why a wrong turn went
//! wrong ([`Cause`]). It reads the folder alone (nothing is re-run, the
//! dataset is not needed) and never prints: [`text`] renders it for a
//! terminal, [`failures`] as `failures.md`, [`plots`] as SVG charts; a web
//! page can render the same structs.
//!
//! Gold is read here as `eval` recorded it; nothing that answers questions
//! imports this module.

pub mod failures;
pub mod plots;
pub mod text;

use crate::kg::page_iri;
use crate::run::folder::{files, read_json, read_lines, FolderError, GraphCounts};
use crate::run::{ConversationRecord, PageRecord, RunInfo, Summary};
use crate::trace::TurnTrace;
use crate::turn::{Answer, Usage};
use rust_decimal::Decimal;
use serde::Serialize;
use serde_json::{Map, Value};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::str::FromStr;

/// Errors reading a run folder or finding a conversation in it.
#[derive(Debug, thiserror::Error)]
pub enum InspectError {
    /// The folder does not exist.
    #[error("`{}` is not a folder", path.display())]
    NoFolder {
        /// The path given.
        path: PathBuf,
    },
    /// The folder holds no run.
    #[error("`{}` holds no run (no run.json): give a folder written by `finkg eval`", path.display())]
    NoRun {
        /// The folder.
        path: PathBuf,
    },
    /// A file of the folder could not be read.
    #[error(transparent)]
    Folder(#[from] FolderError),
    /// No conversation id starts with the one given.
    #[error("no conversation of the run has an id starting with `{id}`")]
    UnknownId {
        /// What was given.
        id: String,
    },
    /// Several conversation ids start with the one given.
    #[error("`{id}` names {} conversations: {}", matches.len(), list(matches))]
    AmbiguousId {
        /// What was given.
        id: String,
        /// The ids it could mean.
        matches: Vec<String>,
    },
}

fn list(ids: &[String]) -> String {
    let mut shown: Vec<String> = ids.iter().take(5).map(|i| format!("`{i}`")).collect();
    if ids.len() > 5 {
        shown.push(format!("and {} more", ids.len() - 5));
    }
    shown.join(", ")
}

/// A run folder, read.
#[derive(Debug, Clone, Serialize)]
pub struct RunView {
    /// The folder.
    pub dir: PathBuf,
    /// `run.json`.
    pub run: RunInfo,
    /// `summary.json`; `None` when the run did not finish.
    pub summary: Option<Summary>,
    /// The conversations in run order.
    pub conversations: Vec<ConversationView>,
    /// The plot files the folder holds (names, in [`plots::PLOTS`] order).
    pub plots: Vec<String>,
}

/// One conversation of a run.
#[derive(Debug, Clone, Serialize)]
pub struct ConversationView {
    /// Conversation id.
    pub id: String,
    /// Turns asked.
    pub turns_asked: usize,
    /// Turns right; `None` without gold.
    pub correct: Option<usize>,
    /// What the page's graph held; `None` when it failed to load.
    pub graph: Option<GraphCounts>,
    /// Why the page failed to load.
    pub error: Option<String>,
    /// The page's table and sentences (`None` in run folders written
    /// before `pages.jsonl` existed).
    pub page: Option<PageRecord>,
    /// The turns, in order.
    pub turns: Vec<TurnView>,
}

/// One turn of a run.
#[derive(Debug, Clone, Serialize)]
pub struct TurnView {
    /// 0-based turn index.
    pub turn: usize,
    /// The question.
    pub question: String,
    /// The planner that answered it.
    pub planner: String,
    /// The answer, or `None`.
    pub answer: Option<Answer>,
    /// Why there is no answer.
    pub error: Option<String>,
    /// The gold, when the dataset has it.
    pub gold: Option<GoldView>,
    /// Whether the answer is right; `None` without gold.
    pub correct: Option<bool>,
    /// Why a wrong turn went wrong.
    pub cause: Option<Cause>,
    /// The phase 1 plan.
    pub plan: Option<PlanView>,
    /// The phase 2 formula.
    pub formula: Option<String>,
    /// The bound values with their sources.
    pub values: Vec<ValueView>,
    /// Why the first planner failed, when the fallback answered.
    pub fallback: Option<String>,
    /// A critic's findings and revision, one line each (none when it
    /// found nothing).
    pub critic: Vec<String>,
    /// Microseconds spent planning.
    pub plan_us: u64,
    /// Microseconds spent binding values and evaluating the formula.
    pub execute_us: u64,
    /// The LLM exchanges' requests, tokens and cost (LLM planner).
    pub usage: Option<Usage>,
    /// Milliseconds the LLM exchanges took, summed (0 without any).
    pub llm_latency_ms: u64,
}

/// A turn's gold.
#[derive(Debug, Clone, Serialize)]
pub struct GoldView {
    /// The executed gold answer.
    pub answer: Answer,
    /// As the dataset prints it (`142.4%`).
    pub text: String,
    /// The gold program.
    pub program: Option<String>,
    /// Its operations (`subtract,divide`, `lookup`).
    pub operations: String,
}

/// A phase 1 plan.
#[derive(Debug, Clone, Serialize)]
pub struct PlanView {
    /// The named values, in order.
    pub values: Vec<PlannedValue>,
    /// Who or what it is about.
    pub entity: Option<String>,
    /// The kind of result (`value`, `change`, `ratio`, ...).
    pub metric_type: Option<String>,
    /// The period.
    pub period: Option<String>,
}

impl PlanView {
    /// The plan in one line: "change of `net sales` (2008 to 2009)".
    pub fn headline(&self) -> String {
        let mut head = self.metric_type.clone().unwrap_or_else(|| "value".into());
        if let Some(e) = &self.entity {
            head.push_str(&format!(" of `{e}`"));
        }
        if let Some(p) = &self.period {
            head.push_str(&format!(" ({p})"));
        }
        head
    }
}

impl Planned {
    /// How the value is obtained, in words.
    pub fn describe(&self) -> String {
        match self {
            Planned::Sparql { description, .. } => format!("SPARQL — {description}"),
            Planned::Reference { turn } => format!("the answer of turn {turn}"),
            Planned::Constant { value } => format!("the constant {value}"),
        }
    }
}

/// One value a plan names.
#[derive(Debug, Clone, Serialize)]
pub struct PlannedValue {
    /// Its name in the formula.
    pub name: String,
    /// How it is obtained.
    pub how: Planned,
}

/// How a planned value is obtained.
#[derive(Debug, Clone, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Planned {
    /// A SPARQL query (shown without its PREFIX lines).
    Sparql {
        /// What it reads, in words.
        description: String,
        /// The query, prefixes stripped.
        sparql: String,
    },
    /// An earlier turn's result.
    Reference {
        /// The turn.
        turn: usize,
    },
    /// A constant.
    Constant {
        /// The number.
        value: String,
    },
}

/// A value as bound.
#[derive(Debug, Clone, Serialize)]
pub struct ValueView {
    /// Its name in the plan.
    pub name: String,
    /// Its number.
    pub value: Decimal,
    /// What it is.
    pub description: String,
    /// Where it came from, in words.
    pub source: String,
    /// Where it came from on the page or in the conversation.
    pub location: Option<SourceLocation>,
    /// The SPARQL that read it, prefixes stripped.
    pub sparql: Option<String>,
}

/// Where a value was read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum SourceLocation {
    /// A table cell (0-based row and column of [`PageRecord`]).
    Cell {
        /// Row index.
        row: usize,
        /// Column index.
        column: usize,
    },
    /// The number printed in a column header.
    HeaderNumber {
        /// Column index.
        column: usize,
    },
    /// A number of the text.
    Sentence {
        /// Sentence index in [`PageRecord::sentences`].
        sentence: usize,
        /// The number's token in the sentence, when known.
        token: Option<usize>,
    },
    /// An earlier turn's result.
    Result {
        /// The turn.
        turn: usize,
    },
    /// A constant of the plan.
    Constant,
}

/// Why a wrong turn went wrong, by the first test that fits, in this order.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(tag = "kind", content = "detail", rename_all = "snake_case")]
pub enum Cause {
    /// No answer; the error's kind (its words before the first quoted part).
    NoAnswer(String),
    /// It used the result of an earlier turn that was itself wrong.
    EarlierTurnWrong,
    /// The gold's number with the other sign.
    Sign,
    /// The gold's number times a power of ten (a percentage or scale slip).
    Scale,
    /// One over the gold's number: a quotient's operands the other way round.
    Inverted,
    /// The formula lacks the gold program's last operation, or computes
    /// where the gold only reads a value.
    Operation,
    /// The right operation over a wrong value: a value read from the
    /// wrong cell or sentence.
    Value,
    /// A yes/no answer that is the other one, or an answer of another kind.
    Other,
}

impl Cause {
    /// The cause in words, as a heading.
    pub fn label(&self) -> String {
        match self {
            Cause::NoAnswer(kind) => format!("no answer: {kind}"),
            Cause::EarlierTurnWrong => "uses an earlier turn that was wrong".into(),
            Cause::Sign => "the gold's number with the other sign".into(),
            Cause::Scale => "the gold's number times a power of ten (percent or scale)".into(),
            Cause::Inverted => "one over the gold's number (a quotient upside down)".into(),
            Cause::Operation => "another operation than the gold program's".into(),
            Cause::Value => "the right operation over a wrong value".into(),
            Cause::Other => "another answer".into(),
        }
    }
}

impl RunView {
    /// Reads a run folder written by `finkg eval`.
    pub fn read(dir: &Path) -> Result<Self, InspectError> {
        if !dir.is_dir() {
            return Err(InspectError::NoFolder {
                path: dir.to_path_buf(),
            });
        }
        if !dir.join(files::RUN).is_file() {
            return Err(InspectError::NoRun {
                path: dir.to_path_buf(),
            });
        }
        let run: RunInfo = read_json(&dir.join(files::RUN))?;
        let summary_path = dir.join(files::SUMMARY);
        let summary = if summary_path.is_file() {
            Some(read_json(&summary_path)?)
        } else {
            None
        };
        let records: Vec<ConversationRecord> = read_lines(&dir.join(files::CONVERSATIONS))?;
        let pages_path = dir.join(files::PAGES);
        let mut pages: HashMap<String, PageRecord> = if pages_path.is_file() {
            read_lines::<PageRecord>(&pages_path)?
                .into_iter()
                .map(|p| (p.id.clone(), p))
                .collect()
        } else {
            HashMap::new()
        };
        let mut turns: HashMap<String, Vec<Map<String, Value>>> = HashMap::new();
        for t in read_lines::<Map<String, Value>>(&dir.join(files::TRACE))? {
            let id = t.get("id").and_then(Value::as_str).unwrap_or_default();
            turns.entry(id.to_string()).or_default().push(t);
        }
        let conversations = records
            .into_iter()
            .map(|r| {
                let page = pages.remove(&r.id);
                let lines = turns.remove(&r.id).unwrap_or_default();
                ConversationView::new(r, page, &lines)
            })
            .collect();
        let plots = plots::PLOTS
            .iter()
            .map(|p| p.file.to_string())
            .filter(|f| dir.join(f).is_file())
            .collect();
        Ok(Self {
            dir: dir.to_path_buf(),
            run,
            summary,
            conversations,
            plots,
        })
    }

    /// The conversation whose id is `id`, or the only one starting with it.
    pub fn find(&self, id: &str) -> Result<&ConversationView, InspectError> {
        if let Some(c) = self.conversations.iter().find(|c| c.id == id) {
            return Ok(c);
        }
        let matches: Vec<&ConversationView> = self
            .conversations
            .iter()
            .filter(|c| c.id.starts_with(id))
            .collect();
        match matches.as_slice() {
            [] => Err(InspectError::UnknownId { id: id.to_string() }),
            [one] => Ok(one),
            many => Err(InspectError::AmbiguousId {
                id: id.to_string(),
                matches: many.iter().map(|c| c.id.clone()).collect(),
            }),
        }
    }

    /// Every scored turn, in run order.
    pub fn turns(&self) -> impl Iterator<Item = (&ConversationView, &TurnView)> {
        self.conversations
            .iter()
            .flat_map(|c| c.turns.iter().map(move |t| (c, t)))
    }

    /// The wrong turns by cause, most frequent cause first.
    pub fn misses_by_cause(&self) -> Vec<(Cause, Vec<(&ConversationView, &TurnView)>)> {
        let mut groups: Vec<(Cause, Vec<(&ConversationView, &TurnView)>)> = Vec::new();
        for (c, t) in self.turns() {
            let Some(cause) = &t.cause else { continue };
            match groups.iter_mut().find(|(k, _)| k == cause) {
                Some((_, turns)) => turns.push((c, t)),
                None => groups.push((cause.clone(), vec![(c, t)])),
            }
        }
        groups.sort_by(|a, b| b.1.len().cmp(&a.1.len()).then(a.0.cmp(&b.0)));
        groups
    }

    /// The conversations with the lowest share of right turns (most
    /// turns first among equals), at most `n`.
    pub fn worst(&self, n: usize) -> Vec<&ConversationView> {
        let mut scored: Vec<&ConversationView> = self
            .conversations
            .iter()
            .filter(|c| c.correct.is_some_and(|k| k < c.turns_asked))
            .collect();
        scored.sort_by(|a, b| {
            let share =
                |c: &ConversationView| c.correct.unwrap_or(0) as f64 / c.turns_asked.max(1) as f64;
            share(a)
                .total_cmp(&share(b))
                .then(b.turns_asked.cmp(&a.turns_asked))
                .then(a.id.cmp(&b.id))
        });
        scored.truncate(n);
        scored
    }
}

impl ConversationView {
    /// A conversation from its record, page and trace lines.
    fn new(
        record: ConversationRecord,
        page: Option<PageRecord>,
        lines: &[Map<String, Value>],
    ) -> Self {
        let mut turns: Vec<TurnView> = lines
            .iter()
            .map(|l| TurnView::from_json(&record.id, l, page.as_ref()))
            .collect();
        set_causes(&mut turns);
        Self {
            id: record.id,
            turns_asked: record.turns,
            correct: record.correct,
            graph: record.graph,
            error: record.error,
            page,
            turns,
        }
    }
}

/// Orders a conversation's turns and says why each wrong one is wrong.
fn set_causes(turns: &mut [TurnView]) {
    turns.sort_by_key(|t| t.turn);
    let wrong: Vec<bool> = turns.iter().map(|t| t.correct == Some(false)).collect();
    for t in turns.iter_mut() {
        t.cause = t.cause_given(&wrong);
    }
}

/// Reads a run folder's conversations one at a time, in run order, each
/// with its turns (causes set; no page): what `eval` needs for
/// `failures.md` and the charts without holding the whole trace.
pub fn each_conversation(
    dir: &Path,
    mut f: impl FnMut(&ConversationRecord, &[TurnView]),
) -> Result<(), InspectError> {
    use std::io::BufRead;
    let records: Vec<ConversationRecord> = read_lines(&dir.join(files::CONVERSATIONS))?;
    let index: HashMap<&str, usize> = records
        .iter()
        .enumerate()
        .map(|(i, r)| (r.id.as_str(), i))
        .collect();
    let path = dir.join(files::TRACE);
    let read_error = |source| FolderError::Read {
        path: path.clone(),
        source,
    };
    let file = std::fs::File::open(&path).map_err(read_error)?;
    let mut current: Option<(usize, Vec<TurnView>)> = None;
    let mut flush = |current: &mut Option<(usize, Vec<TurnView>)>| {
        if let Some((i, mut turns)) = current.take() {
            set_causes(&mut turns);
            f(&records[i], &turns);
        }
    };
    for (n, line) in std::io::BufReader::new(file).lines().enumerate() {
        let line = line.map_err(read_error)?;
        if line.trim().is_empty() {
            continue;
        }
        let v: Map<String, Value> =
            serde_json::from_str(&line).map_err(|source| FolderError::Malformed {
                path: path.clone(),
                line: n + 1,
                source,
            })?;
        let id = v.get("id").and_then(Value::as_str).unwrap_or_default();
        // a turn of a conversation that is not committed is left out
        let Some(&i) = index.get(id) else { continue };
        if current.as_ref().is_some_and(|(c, _)| *c != i) {
            flush(&mut current);
        }
        let turn = TurnView::from_json(id, &v, None);
        current.get_or_insert_with(|| (i, Vec::new())).1.push(turn);
    }
    flush(&mut current);
    Ok(())
}

impl TurnView {
    /// A turn from a line of `trace.jsonl` (or a [`TurnTrace`] written as
    /// JSON); `page` locates the sources of older traces.
    pub fn from_json(id: &str, v: &Map<String, Value>, page: Option<&PageRecord>) -> Self {
        let str_of = |key: &str| v.get(key).and_then(Value::as_str).map(str::to_string);
        let gold = v.get("gold").and_then(Value::as_object).and_then(|g| {
            Some(GoldView {
                answer: answer_of(g.get("answer")?)?,
                text: g
                    .get("text")
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .into(),
                program: g.get("program").and_then(Value::as_str).map(str::to_string),
                operations: g
                    .get("operations")
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .into(),
            })
        });
        let timing = |key: &str| {
            v.get("timings_us")
                .and_then(|t| t.get(key))
                .and_then(Value::as_u64)
                .unwrap_or(0)
        };
        let llm_latency_ms = v
            .get("llm")
            .and_then(Value::as_array)
            .map(|xs| {
                xs.iter()
                    .filter_map(|x| x.get("latency_ms").and_then(Value::as_u64))
                    .sum()
            })
            .unwrap_or(0);
        let values = v
            .get("values")
            .and_then(Value::as_array)
            .map(|vs| vs.iter().filter_map(|x| value_of(id, x, page)).collect())
            .unwrap_or_default();
        Self {
            turn: v.get("turn").and_then(Value::as_u64).unwrap_or(0) as usize,
            question: str_of("question").unwrap_or_default(),
            planner: str_of("planner").unwrap_or_default(),
            answer: v.get("answer").and_then(answer_of),
            error: str_of("error"),
            gold,
            correct: v.get("correct").and_then(Value::as_bool),
            cause: None,
            plan: v.get("plan").and_then(Value::as_object).map(plan_of),
            formula: str_of("formula"),
            values,
            fallback: str_of("fallback"),
            critic: v.get("critic").map(critic_lines).unwrap_or_default(),
            plan_us: timing("plan"),
            execute_us: timing("execute"),
            usage: v
                .get("usage")
                .and_then(|u| serde_json::from_value(u.clone()).ok()),
            llm_latency_ms,
        }
    }

    /// A turn as the pipeline traced it (what `chat` shows).
    pub fn from_trace(trace: &TurnTrace, page: Option<&PageRecord>) -> Self {
        let json = serde_json::to_value(trace).unwrap_or_default();
        let map = json.as_object().cloned().unwrap_or_default();
        Self::from_json(&trace.id, &map, page)
    }

    /// Why this turn is wrong, given which turns of its conversation are.
    fn cause_given(&self, wrong: &[bool]) -> Option<Cause> {
        if self.correct != Some(false) {
            return None;
        }
        let Some(answer) = self.answer else {
            return Some(Cause::NoAnswer(error_kind(self.error.as_deref())));
        };
        let uses_wrong = self.values.iter().any(|v| {
            matches!(v.location, Some(SourceLocation::Result { turn }) if wrong.get(turn) == Some(&true))
        });
        if uses_wrong {
            return Some(Cause::EarlierTurnWrong);
        }
        let gold = self.gold.as_ref()?;
        let (Some(a), Some(g)) = (answer.number(), gold.answer.number()) else {
            return Some(Cause::Other);
        };
        // checked: a run folder's numbers may be anything
        let sum = a.checked_add(g).map(|d| d.abs());
        if !g.is_zero() && sum.is_some_and(|d| d <= g.abs() * Decimal::new(1, 3)) {
            return Some(Cause::Sign);
        }
        if let (false, false, Some(ratio)) = (g.is_zero(), a.is_zero(), a.checked_div(g)) {
            let ratio = ratio.abs();
            let powers = [2u32, 3, 6].into_iter().flat_map(|p| {
                let ten = Decimal::from(10u64.pow(p));
                [ten, Decimal::ONE / ten]
            });
            let near = |x: Decimal| (ratio - x).abs() <= x * Decimal::new(1, 2);
            if powers.into_iter().any(near) {
                return Some(Cause::Scale);
            }
            let product = a.checked_mul(g).map(|d| (d.abs() - Decimal::ONE).abs());
            if product.is_some_and(|d| d <= Decimal::new(1, 2)) {
                return Some(Cause::Inverted);
            }
        }
        let last = gold.operations.rsplit(',').next().unwrap_or_default();
        let formula = self.formula.as_deref().unwrap_or_default();
        let symbol = match last {
            "add" => Some('+'),
            "subtract" => Some('-'),
            "multiply" => Some('*'),
            "divide" => Some('/'),
            _ => None,
        };
        let computes = formula.contains(['+', '-', '*', '/']) || formula.contains('(');
        let operation_differs = match symbol {
            Some(s) => !formula.contains(s),
            None => gold.operations == "lookup" && computes,
        };
        Some(if operation_differs {
            Cause::Operation
        } else {
            Cause::Value
        })
    }
}

/// The kind of an error: its words up to the first quoted part (`…`
/// stands for it), at most two `:`-separated parts (`planning failed: no
/// value on the page matches …`); when that leaves a single word (`formula
/// `a / b`: division by zero in ...`), the words after the quoted part too
/// (`formula …: division by zero in …`).
fn error_kind(error: Option<&str>) -> String {
    let Some(e) = error else {
        return "no reason given".into();
    };
    let e = e.split(['(', '"']).next().unwrap_or_default();
    let (head, quoted) = match e.split_once('`') {
        Some((head, rest)) => (head, Some(rest)),
        None => (e, None),
    };
    let parts: Vec<&str> = head.splitn(3, ": ").take(2).collect();
    let mut kind = parts
        .join(": ")
        .trim()
        .trim_end_matches([':', ','])
        .trim()
        .to_string();
    if let Some(rest) = quoted {
        kind.push_str(" …");
        if !kind.contains(':') {
            if let Some((_, after)) = rest.split_once("`: ") {
                let words = after.split('`').next().unwrap_or_default().trim();
                kind.push_str(&format!(": {words} …"));
            }
        }
    }
    if kind.trim() == "…" || kind.is_empty() {
        "no reason given".into()
    } else {
        kind
    }
}

/// An answer as a trace writes it: a number, `"yes"`, `"no"`.
fn answer_of(v: &Value) -> Option<Answer> {
    match v {
        Value::Number(n) => {
            let text = n.to_string();
            Decimal::from_str(&text)
                .or_else(|_| Decimal::from_scientific(&text))
                .ok()
                .map(Answer::Number)
        }
        Value::String(s) if s == "yes" => Some(Answer::Yes),
        Value::String(s) if s == "no" => Some(Answer::No),
        Value::String(s) => Decimal::from_str(s).ok().map(Answer::Number),
        _ => None,
    }
}

fn plan_of(p: &Map<String, Value>) -> PlanView {
    let str_of = |key: &str| p.get(key).and_then(Value::as_str).map(str::to_string);
    let values = p
        .get("values")
        .and_then(Value::as_object)
        .map(|vs| {
            vs.iter()
                .map(|(name, spec)| PlannedValue {
                    name: name.clone(),
                    how: match spec {
                        Value::Object(o) => Planned::Sparql {
                            description: o
                                .get("description")
                                .and_then(Value::as_str)
                                .unwrap_or_default()
                                .into(),
                            sparql: strip_prefixes(
                                o.get("sparql").and_then(Value::as_str).unwrap_or_default(),
                            ),
                        },
                        Value::String(s) => match result_turn(s) {
                            Some(turn) => Planned::Reference { turn },
                            None => Planned::Constant { value: s.clone() },
                        },
                        other => Planned::Constant {
                            value: other.to_string(),
                        },
                    },
                })
                .collect()
        })
        .unwrap_or_default();
    PlanView {
        values,
        entity: str_of("entity"),
        metric_type: str_of("metric_type"),
        period: str_of("period"),
    }
}

fn result_turn(s: &str) -> Option<usize> {
    s.trim().strip_prefix("result_")?.parse().ok()
}

fn value_of(id: &str, v: &Value, page: Option<&PageRecord>) -> Option<ValueView> {
    let o = v.as_object()?;
    let s = |key: &str| o.get(key).and_then(Value::as_str).map(str::to_string);
    let value = match o.get("value")? {
        Value::String(t) => Decimal::from_str(t).ok()?,
        Value::Number(n) => Decimal::from_str(&n.to_string()).ok()?,
        _ => return None,
    };
    let source = s("source").unwrap_or_default();
    let location = s("node")
        .and_then(|node| location_of_node(id, &node))
        .or_else(|| location_of_text(&source, page));
    Some(ValueView {
        name: s("name").unwrap_or_default(),
        value,
        description: s("description").unwrap_or_default(),
        source,
        location,
        sparql: s("sparql").map(|q| strip_prefixes(&q)),
    })
}

/// A source node's place: `{page}/cell/{i}/{j}`, `{page}/column/{j}/number`,
/// `{page}/fact/{k}/{t}`.
pub fn location_of_node(id: &str, node: &str) -> Option<SourceLocation> {
    let page = page_iri(id);
    let rest = node.strip_prefix(&page)?.strip_prefix('/')?;
    let parts: Vec<&str> = rest.split('/').collect();
    let n = |i: usize| parts.get(i).and_then(|p| p.parse::<usize>().ok());
    match parts.as_slice() {
        ["cell", _, _] => Some(SourceLocation::Cell {
            row: n(1)?,
            column: n(2)?,
        }),
        ["column", _, "number"] => Some(SourceLocation::HeaderNumber { column: n(1)? }),
        ["fact", _, _] => Some(SourceLocation::Sentence {
            sentence: n(1)?,
            token: Some(n(2)?),
        }),
        _ => None,
    }
}

/// A source's place from its words, for traces without `node`:
/// `result_N: ...`, `constant`, `sentence K: ...`, `cell row `L`, column `C`: ...`.
fn location_of_text(source: &str, page: Option<&PageRecord>) -> Option<SourceLocation> {
    if source == "constant" {
        return Some(SourceLocation::Constant);
    }
    if let Some(turn) = source.split(':').next().and_then(result_turn) {
        return Some(SourceLocation::Result { turn });
    }
    if let Some(rest) = source.strip_prefix("sentence ") {
        let k = rest.split(':').next()?.parse().ok()?;
        return Some(SourceLocation::Sentence {
            sentence: k,
            token: None,
        });
    }
    let rest = source.strip_prefix("cell row `")?;
    let (label, rest) = rest.split_once("`, column `")?;
    let (column, rest) = rest.split_once("`: `")?;
    let raw = rest.strip_suffix('`')?;
    let page = page?;
    let j = page.columns.iter().position(|c| c == column)?;
    let i = page
        .rows
        .iter()
        .position(|r| r.label == label && r.cells.get(j).is_some_and(|c| c == raw))?;
    Some(SourceLocation::Cell { row: i, column: j })
}

/// A query without its leading `PREFIX` lines (those finkg declares).
pub fn strip_prefixes(sparql: &str) -> String {
    let mut lines = sparql.lines().peekable();
    while lines
        .peek()
        .is_some_and(|l| l.trim_start().to_ascii_uppercase().starts_with("PREFIX "))
    {
        lines.next();
    }
    lines.collect::<Vec<_>>().join("\n")
}

/// A trace's `critic` as lines: each finding, then each revision
/// (`revisions`; a run folder written before several rounds has one
/// `revision`).
fn critic_lines(c: &Value) -> Vec<String> {
    let text = |v: Option<&Value>| match v {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Null) | None => "no answer".to_string(),
        Some(other) => other.to_string(),
    };
    let mut out: Vec<String> = c
        .get("findings")
        .and_then(Value::as_array)
        .map(|fs| {
            fs.iter()
                .map(|f| {
                    format!(
                        "critic: {} check: {}",
                        text(f.get("check")),
                        text(f.get("message"))
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    let revisions = match (c.get("revisions"), c.get("revision")) {
        (Some(Value::Array(list)), _) => list.iter().collect(),
        (_, Some(one)) if one.is_object() => vec![one],
        _ => Vec::new(),
    };
    for r in revisions.into_iter().filter(|r| r.is_object()) {
        if r.get("accepted").and_then(Value::as_bool) == Some(true) {
            out.push(format!(
                "revised: {} (replaces {})",
                text(r.get("answer")),
                text(r.get("replaced"))
            ));
        } else {
            out.push(format!(
                "revision not kept ({}): {}",
                text(r.get("answer")),
                text(r.get("error"))
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nodes_locate_cells_headers_and_facts() {
        let id = "Single_MRO/2007/page_134.pdf-1";
        let page = page_iri(id);
        assert_eq!(
            location_of_node(id, &format!("{page}/cell/3/1")),
            Some(SourceLocation::Cell { row: 3, column: 1 })
        );
        assert_eq!(
            location_of_node(id, &format!("{page}/column/2/number")),
            Some(SourceLocation::HeaderNumber { column: 2 })
        );
        assert_eq!(
            location_of_node(id, &format!("{page}/fact/22/7")),
            Some(SourceLocation::Sentence {
                sentence: 22,
                token: Some(7)
            })
        );
        assert_eq!(location_of_node("other", &format!("{page}/cell/3/1")), None);
    }

    #[test]
    fn prefixes_are_stripped_and_the_query_kept() {
        let q = "PREFIX fk: <https://w3id.org/finkg/ns#>\nprefix qb: <x>\nSELECT ?value WHERE {\n  ?s fk:value ?value .\n}";
        assert_eq!(
            strip_prefixes(q),
            "SELECT ?value WHERE {\n  ?s fk:value ?value .\n}"
        );
    }

    #[test]
    fn error_kinds_stop_at_the_first_quoted_part() {
        assert_eq!(
            error_kind(Some(
                "planning failed: no value on the page matches `net incom in 2005 (no label)`"
            )),
            "planning failed: no value on the page matches …"
        );
        assert_eq!(
            error_kind(Some(
                "formula `a / b`: division by zero in `a / b` at position 2"
            )),
            "formula …: division by zero in …"
        );
        assert_eq!(error_kind(None), "no reason given");
    }

    fn turn(answer: &str, gold: &str, ops: &str, formula: &str) -> TurnView {
        let v: Value = serde_json::from_str(&format!(
            r#"{{"turn": 1, "question": "q", "answer": {answer}, "formula": "{formula}",
                "gold": {{"answer": {gold}, "text": "{gold}", "operations": "{ops}"}},
                "correct": false, "values": []}}"#
        ))
        .unwrap();
        TurnView::from_json("x", v.as_object().unwrap(), None)
    }

    #[test]
    fn causes_tell_sign_scale_operation_and_value() {
        let none = [false, false];
        let t = turn("-28", "28", "lookup", "value");
        assert_eq!(t.cause_given(&none), Some(Cause::Sign));
        let t = turn("14.24", "0.1424", "subtract,divide", "change / base");
        assert_eq!(t.cause_given(&none), Some(Cause::Scale));
        let t = turn("0.25", "4", "divide", "part / whole");
        assert_eq!(t.cause_given(&none), Some(Cause::Inverted));
        let t = turn("35.8", "0.5", "subtract,divide", "new - old");
        assert_eq!(t.cause_given(&none), Some(Cause::Operation));
        let t = turn("12", "15", "subtract", "new - old");
        assert_eq!(t.cause_given(&none), Some(Cause::Value));
        let t = turn("null", "15", "subtract", "");
        assert_eq!(
            t.cause_given(&none),
            Some(Cause::NoAnswer("no reason given".into()))
        );
    }
}

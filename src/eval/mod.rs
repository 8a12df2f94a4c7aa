//! Evaluation runs: answer every turn of a dataset, score against gold
//! ([`score`], the only reader of gold), print accuracy with breakdowns and
//! write a run folder. Several conversations may be in flight at once
//! (`--jobs`), one worker thread a set of [`Planners`].
//!
//! The run folder holds:
//! - `run.json` — the [`RunInfo`] (run id, start and end, planner, dataset,
//!   git revision);
//! - `predictions.jsonl` — one object a turn: `{"id", "turn", "question",
//!   "answer" (number, "yes"/"no" or null), "error"}`; re-scorable alone;
//! - `trace.jsonl` — one [`TurnTrace`] a turn (plan, SPARQL, bindings,
//!   formula, result metadata, timings) with its `gold` and `correct`
//!   ([`ScoredTurn`]);
//! - `conversations.jsonl` — one [`ConversationRecord`] a conversation
//!   (turns, right turns, graph statistics);
//! - `summary.json` — the [`Summary`];
//! - `failures.md` — each miss with its question, answer, gold, plan,
//!   SPARQL, bindings and formula.
//!
//! [`crate::run::folder`] documents these records and reads a folder back.
//! A [`RunObserver`] sees the same records as they are written (the MongoDB
//! export listens this way).

pub mod score;

use crate::run::folder;
use crate::run::{
    ConversationRecord, GoldRecord, LlmExchangeRecord, RunInfo, RunObserver, ScoredTurn, Summary,
    Tally,
};

use crate::dataset::{Example, Features, Gold};
use crate::kg::KgStore;
use crate::pipeline::{load_failure, unanswered, Planners, Session};
use crate::trace::TurnTrace;
use crate::turn::Usage;
use serde::Serialize;
use std::collections::BTreeMap;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Mutex};

/// Errors of an evaluation run (wrong answers are scores, not errors).
#[derive(Debug, thiserror::Error)]
pub enum EvalError {
    /// The run folder could not be written.
    #[error("cannot write `{path}`")]
    Write {
        /// The file.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
}

/// Options of a run.
#[derive(Debug, Clone)]
pub struct EvalOptions {
    /// The run folder.
    pub out: PathBuf,
    /// The dataset file, recorded in `run.json`.
    pub dataset: Option<PathBuf>,
    /// Only the first N conversations.
    pub limit: Option<usize>,
    /// Show a progress bar on stderr.
    pub progress: bool,
}

#[derive(Serialize)]
struct Prediction<'a> {
    id: &'a str,
    turn: usize,
    question: &'a str,
    answer: Option<crate::turn::Answer>,
    error: Option<&'a str>,
}

struct Writers {
    predictions: BufWriter<File>,
    trace: BufWriter<File>,
    llm: BufWriter<File>,
    conversations: BufWriter<File>,
    failures: BufWriter<File>,
    dir: PathBuf,
}

fn create(dir: &Path, name: &str) -> Result<BufWriter<File>, EvalError> {
    let path = dir.join(name);
    File::create(&path)
        .map(BufWriter::new)
        .map_err(|source| EvalError::Write { path, source })
}

impl Writers {
    fn io(&self, name: &str) -> impl FnOnce(std::io::Error) -> EvalError + '_ {
        let path = self.dir.join(name);
        move |source| EvalError::Write { path, source }
    }
}

/// What answering one conversation gave.
struct Outcome {
    traces: Vec<TurnTrace>,
    /// The page's graph, for the observer (the MongoDB export of triples).
    kg: Option<KgStore>,
    /// Why the page's graph could not be built.
    load_error: Option<String>,
    failed_to_load: bool,
    /// The run had stopped before the conversation began: nothing to record.
    skipped: bool,
}

/// Answers one conversation, stopping before a turn once the planners say
/// the run must stop (the reason goes to `stop`).
fn answer(example: &Example, planners: &mut Planners, stop: &Mutex<Option<String>>) -> Outcome {
    let conv = &example.conversation;
    let stopped = |planners: &Planners| {
        let reason = planners.stop_reason();
        let mut guard = stop.lock().unwrap_or_else(|e| e.into_inner());
        if guard.is_none() {
            guard.clone_from(&reason);
        }
        guard.is_some()
    };
    if stopped(planners) {
        return Outcome {
            traces: Vec::new(),
            kg: None,
            load_error: None,
            failed_to_load: false,
            skipped: true,
        };
    }
    match Session::new(conv) {
        Ok(mut session) => {
            let mut traces = Vec::new();
            let Ok(_) = session.ask_all(planners, &conv.questions, stopped, |t| {
                traces.push(t);
                Ok::<_, std::convert::Infallible>(())
            });
            stopped(planners);
            Outcome {
                traces,
                kg: Some(session.into_kg()),
                load_error: None,
                failed_to_load: false,
                skipped: false,
            }
        }
        Err(e) => {
            let reason = load_failure(&e);
            let traces = unanswered(&conv.id, &conv.questions, planners.primary.name(), &reason);
            Outcome {
                traces,
                kg: None,
                load_error: Some(reason),
                failed_to_load: true,
                skipped: false,
            }
        }
    }
}

/// Answers every turn of `examples`, scores, and writes the run folder.
///
/// Each element of `workers` answers one conversation at a time on its own
/// thread, so `workers.len()` conversations are in flight at once; the
/// turns of a conversation stay in order and the run folder lists the
/// conversations in the dataset's order. Once a planner says the run must
/// stop (a budget or a time limit), no further turn is asked; what was
/// answered is scored and written, and [`Summary::stopped`] says why.
pub fn run(
    examples: &[Example],
    workers: Vec<Planners>,
    options: &EvalOptions,
) -> Result<Summary, EvalError> {
    run_with(examples, workers, options, &mut ())
}

fn write_json(path: PathBuf, value: &impl Serialize) -> Result<(), EvalError> {
    let text = serde_json::to_string_pretty(value).unwrap_or_default();
    std::fs::write(&path, text + "\n").map_err(|source| EvalError::Write { path, source })
}

/// [`run`], showing each record to `observer` as it is written.
pub fn run_with(
    examples: &[Example],
    workers: Vec<Planners>,
    options: &EvalOptions,
    observer: &mut dyn RunObserver,
) -> Result<Summary, EvalError> {
    let started = std::time::Instant::now();
    std::fs::create_dir_all(&options.out).map_err(|source| EvalError::Write {
        path: options.out.clone(),
        source,
    })?;
    let planner_name = workers.first().map(Planners::name).unwrap_or_default();
    let mut info = RunInfo::start(&planner_name, options.dataset.as_deref(), options.limit);
    write_json(options.out.join(folder::files::RUN), &info)?;
    let mut w = Writers {
        predictions: create(&options.out, folder::files::PREDICTIONS)?,
        trace: create(&options.out, folder::files::TRACE)?,
        llm: create(&options.out, folder::files::LLM_EXCHANGES)?,
        conversations: create(&options.out, folder::files::CONVERSATIONS)?,
        failures: create(&options.out, folder::files::FAILURES)?,
        dir: options.out.clone(),
    };
    observer.started(&info);
    writeln!(w.failures, "# Failures\n").map_err(w.io("failures.md"))?;
    let examples: Vec<&Example> = examples
        .iter()
        .take(options.limit.unwrap_or(usize::MAX))
        .collect();
    let bar = if options.progress {
        indicatif::ProgressBar::new(examples.len() as u64)
    } else {
        indicatif::ProgressBar::hidden()
    };
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "{bar:40} {pos}/{len} conversations, {elapsed} {msg}",
        )
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    let mut summary = Summary {
        planner: workers.first().map(Planners::name).unwrap_or_default(),
        jobs: workers.len(),
        ..Summary::default()
    };
    let next = AtomicUsize::new(0);
    let stop: Mutex<Option<String>> = Mutex::new(None);
    let mut written: Result<(), EvalError> = Ok(());
    std::thread::scope(|scope| {
        let (tx, rx) = mpsc::channel::<(usize, Outcome)>();
        for mut planners in workers {
            let tx = tx.clone();
            let (next, stop, examples) = (&next, &stop, &examples);
            scope.spawn(move || loop {
                if stop.lock().map(|s| s.is_some()).unwrap_or(true) {
                    break;
                }
                let i = next.fetch_add(1, Ordering::SeqCst);
                let Some(example) = examples.get(i) else {
                    break;
                };
                let outcome = answer(example, &mut planners, stop);
                if tx.send((i, outcome)).is_err() {
                    break;
                }
            });
        }
        drop(tx);
        let mut pending: BTreeMap<usize, Outcome> = BTreeMap::new();
        let mut next_record = 0;
        for (i, outcome) in rx {
            pending.insert(i, outcome);
            while let Some(outcome) = pending.remove(&next_record) {
                next_record += 1;
                if written.is_err() || outcome.skipped {
                    continue;
                }
                let example = examples[next_record - 1];
                let conv = &example.conversation;
                summary.conversations += 1;
                summary.failed_conversations += usize::from(outcome.failed_to_load);
                let mut record = ConversationRecord {
                    id: conv.id.clone(),
                    turns: conv.questions.len(),
                    correct: None,
                    graph: outcome.kg.as_ref().map(|kg| kg.stats().into()),
                    error: outcome.load_error.clone(),
                };
                if let Some(kg) = &outcome.kg {
                    observer.graph(&conv.id, kg);
                }
                let scored = score_turns(example.gold.as_ref(), &outcome.traces);
                record.correct = example
                    .gold
                    .as_ref()
                    .map(|_| scored.iter().filter(|t| t.correct == Some(true)).count());
                let features = example.gold.as_ref().map(|g| &g.features);
                written = write_conversation(&mut summary, &mut w, &record, &scored, features);
                if written.is_ok() {
                    observer.conversation(&record, &scored);
                }
                if written.is_err() {
                    let mut guard = stop.lock().unwrap_or_else(|e| e.into_inner());
                    guard.get_or_insert_with(|| "the run folder could not be written".into());
                }
                bar.inc(1);
                bar.set_message(format!(
                    "{:.1}% turns right",
                    100.0 * summary.turns.accuracy
                ));
            }
        }
    });
    written?;
    bar.finish_and_clear();
    summary.stopped = stop.into_inner().unwrap_or_else(|e| e.into_inner());
    summary.seconds = started.elapsed().as_secs_f64();
    w.predictions.flush().map_err(w.io("predictions.jsonl"))?;
    w.trace.flush().map_err(w.io("trace.jsonl"))?;
    w.llm.flush().map_err(w.io(folder::files::LLM_EXCHANGES))?;
    w.conversations
        .flush()
        .map_err(w.io(folder::files::CONVERSATIONS))?;
    w.failures.flush().map_err(w.io("failures.md"))?;
    write_json(options.out.join(folder::files::SUMMARY), &summary)?;
    info.finished = Some(folder::utc_timestamp(std::time::SystemTime::now()));
    write_json(options.out.join(folder::files::RUN), &info)?;
    observer.finished(&info, &summary);
    Ok(summary)
}

/// Each trace with its gold and verdict (gold is read here, after answering).
fn score_turns<'a>(gold: Option<&Gold>, traces: &'a [TurnTrace]) -> Vec<ScoredTurn<'a>> {
    traces
        .iter()
        .map(|t| {
            let found = gold.and_then(|gold| {
                let g = gold.answers.get(t.turn)?;
                let text = gold.answer_texts.get(t.turn)?;
                let program = gold.programs.get(t.turn).map(String::as_str);
                Some((g, GoldRecord::new(g, text, program)))
            });
            match found {
                Some((g, record)) => ScoredTurn {
                    trace: t,
                    correct: Some(score::is_correct(t.answer.as_ref(), g, &record.text)),
                    gold: Some(record),
                },
                None => ScoredTurn {
                    trace: t,
                    gold: None,
                    correct: None,
                },
            }
        })
        .collect()
}

fn write_conversation(
    summary: &mut Summary,
    w: &mut Writers,
    record: &ConversationRecord,
    scored: &[ScoredTurn<'_>],
    features: Option<&Features>,
) -> Result<(), EvalError> {
    let line = serde_json::to_string(record).unwrap_or_default();
    writeln!(w.conversations, "{line}").map_err(w.io(folder::files::CONVERSATIONS))?;
    let mut all_right = true;
    let mut any_scored = false;
    let no_features = Features::default();
    let mut previous: Option<bool> = None;
    for s in scored {
        let t = s.trace;
        let line = serde_json::to_string(&Prediction {
            id: &t.id,
            turn: t.turn,
            question: &t.question,
            answer: t.answer,
            error: t.error.as_deref(),
        })
        .unwrap_or_default();
        writeln!(w.predictions, "{line}").map_err(w.io("predictions.jsonl"))?;
        writeln!(w.trace, "{}", serde_json::to_string(s).unwrap_or_default())
            .map_err(w.io("trace.jsonl"))?;
        for x in &t.llm {
            let line = serde_json::to_string(&LlmExchangeRecord {
                id: t.id.clone(),
                turn: t.turn,
                exchange: x.clone(),
            })
            .unwrap_or_default();
            writeln!(w.llm, "{line}").map_err(w.io(folder::files::LLM_EXCHANGES))?;
        }
        if let Some(u) = &t.usage {
            summary.llm.get_or_insert_with(Usage::default).add(u);
        }
        if t.answer.is_none() {
            summary.unanswered += 1;
        }
        let (Some(g), Some(ok)) = (&s.gold, s.correct) else {
            continue;
        };
        any_scored = true;
        all_right &= ok;
        summary.turns.add(ok);
        summary.by_turn.entry(t.turn).or_default().add(ok);
        let ops = &g.operations;
        summary.by_operation.entry(ops.clone()).or_default().add(ok);
        let f = features.unwrap_or(&no_features);
        for (name, flag) in [
            ("has_type2_question", f.has_type2_question),
            ("has_duplicate_columns", f.has_duplicate_columns),
            ("has_non_numeric_values", f.has_non_numeric_values),
        ] {
            if let Some(flag) = flag {
                summary
                    .by_feature
                    .entry(format!("{name}={flag}"))
                    .or_default()
                    .add(ok);
            }
        }
        match previous {
            Some(true) => summary.given_previous_right.add(ok),
            Some(false) => summary.given_previous_wrong.add(ok),
            None => {}
        }
        previous = Some(ok);
        if !ok {
            write_failure(w, t, g)?;
        }
    }
    if any_scored {
        summary.conversation_accuracy.add(all_right);
    }
    Ok(())
}

fn write_failure(w: &mut Writers, t: &TurnTrace, g: &GoldRecord) -> Result<(), EvalError> {
    let gold = match g.answer {
        crate::turn::Answer::Number(d) => d.to_string(),
        other => other.to_string(),
    };
    let (text, ops) = (&g.text, &g.operations);
    let mut s = format!("## {} — turn {}\n\n", t.id, t.turn);
    s.push_str(&format!("- question: {}\n", t.question));
    s.push_str(&format!(
        "- answer: {}\n",
        t.answer
            .map(|a| a.to_string())
            .unwrap_or_else(|| "none".into())
    ));
    s.push_str(&format!("- gold: {gold} (`{text}`, {ops})\n"));
    if let Some(e) = &t.error {
        s.push_str(&format!("- error: {e}\n"));
    }
    if let Some(plan) = &t.plan {
        s.push_str(&format!(
            "- plan: `{}`\n",
            serde_json::to_string(plan).unwrap_or_default()
        ));
    }
    for v in &t.values {
        s.push_str(&format!(
            "- `{}` = {} — {} — from {}\n",
            v.name, v.value, v.description, v.source
        ));
    }
    if let Some(f) = &t.formula {
        s.push_str(&format!("- formula: `{f}`\n"));
    }
    s.push('\n');
    w.failures
        .write_all(s.as_bytes())
        .map_err(w.io("failures.md"))
}

/// The report printed after a run.
pub fn report(summary: &Summary) -> String {
    let pct = |t: &Tally| format!("{:>5.1}% ({}/{})", 100.0 * t.accuracy, t.correct, t.total);
    let mut s = String::new();
    s.push_str(&format!("planner: {}\n", summary.planner));
    s.push_str(&format!("turn accuracy:         {}\n", pct(&summary.turns)));
    s.push_str(&format!(
        "conversation accuracy: {}\n",
        pct(&summary.conversation_accuracy)
    ));
    s.push_str(&format!(
        "unanswered turns: {}; conversations that failed to load: {}; {:.2} s\n",
        summary.unanswered, summary.failed_conversations, summary.seconds
    ));
    if let Some(u) = &summary.llm {
        s.push_str(&format!("llm: {u}\n"));
    }
    if let Some(reason) = &summary.stopped {
        s.push_str(&format!("stopped early: {reason}\n"));
    }
    s.push_str(&format!(
        "after a right turn:    {}\n",
        pct(&summary.given_previous_right)
    ));
    s.push_str(&format!(
        "after a wrong turn:    {}\n",
        pct(&summary.given_previous_wrong)
    ));
    s.push_str("\nby turn:\n");
    for (turn, t) in &summary.by_turn {
        s.push_str(&format!("  turn {turn:<2}               {}\n", pct(t)));
    }
    s.push_str("\nby gold operation:\n");
    let mut ops: Vec<(&String, &Tally)> = summary.by_operation.iter().collect();
    ops.sort_by(|a, b| b.1.total.cmp(&a.1.total).then(a.0.cmp(b.0)));
    for (op, t) in ops {
        s.push_str(&format!("  {op:<28} {}\n", pct(t)));
    }
    s.push_str("\nby feature:\n");
    for (f, t) in &summary.by_feature {
        s.push_str(&format!("  {f:<28} {}\n", pct(t)));
    }
    s
}

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
//! - `pages.jsonl` — one [`PageRecord`] a conversation (its table and
//!   sentences, for `finkg inspect`);
//! - `failures.md` — the misses grouped by cause, each with its question,
//!   answer, gold, plan, SPARQL, bindings and formula, written from the
//!   folder when the run ends ([`crate::inspect::failures`]).
//!
//! A conversation is committed by its line in `conversations.jsonl`,
//! written and flushed only after its lines in the other files are: after
//! an interrupt or a crash, `--resume` ([`EvalOptions::resume`]) keeps the
//! committed conversations, drops any line of the others, rebuilds the
//! summary from what it kept and answers the rest, so a resumed run ends
//! with the summary an uninterrupted one would have. An interrupt
//! ([`EvalOptions::interrupt`]) lets the conversations in flight finish
//! their current turn, records the whole ones, and marks `run.json`
//! `interrupted`. A folder holding another run is refused unless
//! [`EvalOptions::force`].
//!
//! [`crate::run::folder`] documents these records and reads a folder back.
//! A [`RunObserver`] sees the same records as they are written (the MongoDB
//! export listens this way).

pub mod score;

use crate::inspect::failures::Failures;
use crate::inspect::plots::{self, PlotData, PlotError};
use crate::inspect::{self, InspectError};
use crate::run::folder;
use crate::run::{
    ConversationRecord, GoldRecord, LlmExchangeRecord, PageRecord, RunInfo, RunObserver,
    ScoredTurn, Summary, Tally,
};

use crate::dataset::{DatasetError, Example, Features, Gold};
use crate::kg::{KgStore, PageSource};
use crate::pipeline::{load_failure, unanswered, Planners, Session};
use crate::trace::TurnTrace;
use crate::turn::Usage;
use serde::Serialize;
use std::collections::BTreeMap;
use std::collections::{HashMap, HashSet};
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Mutex};

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
    /// The folder holds another run's records.
    #[error("`{}` holds run {run_id}; finish it with --resume or overwrite it with --force", path.display())]
    Occupied {
        /// The folder.
        path: PathBuf,
        /// The run it holds.
        run_id: String,
    },
    /// The dataset could not be read to its end.
    #[error(transparent)]
    Dataset(#[from] DatasetError),
    /// The folder's records could not be read back (for `failures.md`).
    #[error("cannot read the run folder back")]
    ReadBack(#[from] InspectError),
    /// A chart could not be drawn.
    #[error(transparent)]
    Plot(#[from] PlotError),
    /// The folder cannot be resumed.
    #[error("cannot resume `{}`: {why}", path.display())]
    Resume {
        /// The folder.
        path: PathBuf,
        /// Why.
        why: String,
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
    /// How many conversations the dataset holds, for the progress bar (the
    /// conversations arrive as a stream).
    pub conversations: Option<usize>,
    /// Finish the run the folder holds: keep its whole conversations,
    /// answer the rest.
    pub resume: bool,
    /// Overwrite a folder that holds another run.
    pub force: bool,
    /// Set (by a signal handler) to stop the run: no new turn is asked,
    /// the whole conversations are recorded.
    pub interrupt: Option<Arc<AtomicBool>>,
    /// Where each page's graph comes from: built (the default) or a remote
    /// store that holds every page (`eval --store URL`).
    pub source: PageSource,
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
    pages: BufWriter<File>,
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
    /// The conversation answered, with its gold for scoring.
    example: Example,
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
fn answer(
    example: Example,
    planners: &mut Planners,
    stop: &Mutex<Option<String>>,
    interrupt: &AtomicBool,
    source: &PageSource,
) -> Outcome {
    let conv = &example.conversation;
    let stopped = |planners: &Planners| {
        let reason = if interrupt.load(Ordering::SeqCst) {
            Some(INTERRUPTED.to_string())
        } else {
            planners.stop_reason()
        };
        let mut guard = stop.lock().unwrap_or_else(|e| e.into_inner());
        if guard.is_none() {
            guard.clone_from(&reason);
        }
        guard.is_some()
    };
    if stopped(planners) {
        return Outcome {
            example,
            traces: Vec::new(),
            kg: None,
            load_error: None,
            failed_to_load: false,
            skipped: true,
        };
    }
    match Session::open(conv, source) {
        Ok(mut session) => {
            let mut traces = Vec::new();
            let Ok(_) = session.ask_all(planners, &conv.questions, stopped, |t| {
                traces.push(t);
                Ok::<_, std::convert::Infallible>(())
            });
            stopped(planners);
            // an interrupted conversation is answered again on resume
            let skipped = interrupt.load(Ordering::SeqCst) && traces.len() < conv.questions.len();
            let kg = Some(session.into_kg());
            Outcome {
                example,
                traces,
                kg,
                load_error: None,
                failed_to_load: false,
                skipped,
            }
        }
        Err(e) => {
            let reason = load_failure(&e);
            let traces = unanswered(&conv.id, &conv.questions, planners.primary.name(), &reason);
            Outcome {
                example,
                traces,
                kg: None,
                load_error: Some(reason),
                failed_to_load: true,
                skipped: false,
            }
        }
    }
}

/// The stop reason of an interrupt.
const INTERRUPTED: &str = "interrupted";

/// Answers every turn of `examples`, scores, and writes the run folder.
///
/// The conversations arrive as a stream (`dataset::stream_file`, or any
/// iterator) and are let go once written: memory holds the conversations in
/// flight, not the dataset. A dataset error (malformed JSON further on) ends
/// the run with what was answered before it recorded, as an interrupt does.
///
/// Each element of `workers` answers one conversation at a time on its own
/// thread, so `workers.len()` conversations are in flight at once; the
/// turns of a conversation stay in order and the run folder lists the
/// conversations in the dataset's order. Once a planner says the run must
/// stop (a budget or a time limit), no further turn is asked; what was
/// answered is scored and written, and [`Summary::stopped`] says why.
pub fn run(
    examples: impl Iterator<Item = Result<Example, DatasetError>> + Send,
    workers: Vec<Planners>,
    options: &EvalOptions,
) -> Result<Summary, EvalError> {
    run_with(examples, workers, options, &mut ())
}

fn write_json(path: PathBuf, value: &impl Serialize) -> Result<(), EvalError> {
    let text = serde_json::to_string_pretty(value).unwrap_or_default();
    std::fs::write(&path, text + "\n").map_err(|source| EvalError::Write { path, source })
}

/// The conversations still to answer, handed to the workers one at a time
/// with their place in the run.
struct Queue<I> {
    examples: I,
    next: usize,
}

/// [`run`], showing each record to `observer` as it is written.
pub fn run_with(
    examples: impl Iterator<Item = Result<Example, DatasetError>> + Send,
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
    let limit = options.limit.unwrap_or(usize::MAX);
    let mut examples = examples.take(limit);
    let mut summary = Summary {
        planner: planner_name.clone(),
        jobs: workers.len(),
        ..Summary::default()
    };
    let (mut info, done) = if options.resume {
        let (info, done) = resume(&options.out, &mut examples, &planner_name, &mut summary)?;
        (info, done)
    } else {
        clear(&options.out, options.force)?;
        let mut info = RunInfo::start(&planner_name, options.dataset.as_deref(), options.limit);
        info.store = options.source.store();
        if let Some(planners) = workers.first() {
            info.critic = Some(planners.critic_name().to_string());
            info.max_revisions = Some(planners.max_revisions);
        }
        for name in RECORD_FILES {
            create(&options.out, name)?;
        }
        (info, 0)
    };
    write_json(options.out.join(folder::files::RUN), &info)?;
    let mut w = Writers {
        predictions: append(&options.out, folder::files::PREDICTIONS)?,
        trace: append(&options.out, folder::files::TRACE)?,
        llm: append(&options.out, folder::files::LLM_EXCHANGES)?,
        conversations: append(&options.out, folder::files::CONVERSATIONS)?,
        pages: append(&options.out, folder::files::PAGES)?,
        dir: options.out.clone(),
    };
    observer.started(&info);
    let no_interrupt = AtomicBool::new(false);
    let interrupt: &AtomicBool = options.interrupt.as_deref().unwrap_or(&no_interrupt);
    let bar = match options.conversations {
        Some(total) if options.progress => {
            indicatif::ProgressBar::new(total.min(limit).saturating_sub(done) as u64)
        }
        _ => indicatif::ProgressBar::hidden(),
    };
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "{bar:40} {pos}/{len} conversations, {elapsed} {msg}",
        )
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    let queue = Mutex::new(Queue { examples, next: 0 });
    let unread: Mutex<Option<DatasetError>> = Mutex::new(None);
    let stop: Mutex<Option<String>> = Mutex::new(None);
    let mut written: Result<(), EvalError> = Ok(());
    std::thread::scope(|scope| {
        let (tx, rx) = mpsc::channel::<(usize, Outcome)>();
        for mut planners in workers {
            let tx = tx.clone();
            let (queue, unread, stop) = (&queue, &unread, &stop);
            scope.spawn(move || loop {
                if interrupt.load(Ordering::SeqCst) {
                    let mut guard = stop.lock().unwrap_or_else(|e| e.into_inner());
                    guard.get_or_insert_with(|| INTERRUPTED.into());
                }
                if stop.lock().map(|s| s.is_some()).unwrap_or(true) {
                    break;
                }
                let (i, example) = {
                    let mut queue = queue.lock().unwrap_or_else(|e| e.into_inner());
                    let i = queue.next;
                    match queue.examples.next() {
                        Some(Ok(example)) => {
                            queue.next += 1;
                            (i, example)
                        }
                        Some(Err(e)) => {
                            unread
                                .lock()
                                .unwrap_or_else(|e| e.into_inner())
                                .get_or_insert(e);
                            // the run ends as an interrupt ends it
                            let mut guard = stop.lock().unwrap_or_else(|e| e.into_inner());
                            guard.get_or_insert_with(|| INTERRUPTED.into());
                            break;
                        }
                        None => break,
                    }
                };
                let outcome = answer(example, &mut planners, stop, interrupt, &options.source);
                if tx.send((i, outcome)).is_err() {
                    break;
                }
            });
        }
        drop(tx);
        let mut pending: BTreeMap<usize, Outcome> = BTreeMap::new();
        let mut next_record = 0;
        // once a conversation is skipped, later ones (answered by another
        // worker meanwhile) are not recorded either: the folder holds a
        // prefix of the dataset, which --resume continues
        let mut hole = false;
        for (i, outcome) in rx {
            pending.insert(i, outcome);
            while let Some(outcome) = pending.remove(&next_record) {
                next_record += 1;
                hole |= outcome.skipped;
                if written.is_err() || hole {
                    continue;
                }
                written = record(&mut summary, &mut w, observer, outcome);
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
    let unread = unread.into_inner().unwrap_or_else(|e| e.into_inner());
    let stopped = stop.into_inner().unwrap_or_else(|e| e.into_inner());
    summary.interrupted = stopped.as_deref() == Some(INTERRUPTED);
    summary.stopped = stopped.filter(|_| !summary.interrupted);
    summary.seconds = started.elapsed().as_secs_f64();
    w.flush()?;
    drop(w);
    // failures.md and the charts from the folder's records, a
    // conversation at a time
    let mut failed = Failures::default();
    let mut charted = PlotData::default();
    inspect::each_conversation(&options.out, |record, turns| {
        failed.add(&record.id, turns);
        charted.add(record.graph.map(|g| g.observations), turns);
    })?;
    let path = options.out.join(folder::files::FAILURES);
    std::fs::write(&path, failed.markdown()).map_err(|source| EvalError::Write { path, source })?;
    if summary.interrupted {
        info.interrupted = true;
        write_json(options.out.join(folder::files::RUN), &info)?;
        if let Some(e) = unread {
            return Err(e.into());
        }
        return Ok(summary);
    }
    write_json(options.out.join(folder::files::SUMMARY), &summary)?;
    info.finished = Some(folder::utc_timestamp(std::time::SystemTime::now()));
    write_json(options.out.join(folder::files::RUN), &info)?;
    observer.finished(&info, &summary);
    // last: a chart that fails leaves the run's records complete
    draw(&summary, &charted, &options.out)?;
    Ok(summary)
}

/// Draws the run's charts; a panic in the drawing library is an error.
fn draw(summary: &Summary, data: &PlotData, dir: &Path) -> Result<(), EvalError> {
    let drawn = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        plots::write(Some(summary), data, dir)
    }));
    match drawn {
        Ok(result) => result.map(drop).map_err(EvalError::from),
        Err(_) => Err(EvalError::from(PlotError {
            file: "the run's charts".into(),
            why: "the drawing library failed".into(),
        })),
    }
}

/// Scores an answered conversation, writes its records and shows them to
/// `observer`; the conversation is let go after.
fn record(
    summary: &mut Summary,
    w: &mut Writers,
    observer: &mut dyn RunObserver,
    outcome: Outcome,
) -> Result<(), EvalError> {
    let Outcome {
        example,
        traces,
        kg,
        load_error,
        failed_to_load,
        skipped: _,
    } = outcome;
    let conv = &example.conversation;
    summary.conversations += 1;
    summary.failed_conversations += usize::from(failed_to_load);
    let mut record = ConversationRecord {
        id: conv.id.clone(),
        turns: conv.questions.len(),
        correct: None,
        graph: kg.as_ref().map(|kg| kg.stats().into()),
        error: load_error,
    };
    if let Some(kg) = &kg {
        observer.graph(&conv.id, kg);
    }
    let scored = score_turns(example.gold.as_ref(), &traces);
    record.correct = example
        .gold
        .as_ref()
        .map(|_| scored.iter().filter(|t| t.correct == Some(true)).count());
    let features = example.gold.as_ref().map(|g| &g.features);
    let page = PageRecord::of(conv);
    write_conversation(summary, w, &record, &page, &scored, features)?;
    observer.conversation(&record, &scored);
    Ok(())
}

/// The files of a run's records, `run.json` and `summary.json` aside.
const RECORD_FILES: [&str; 5] = [
    folder::files::PREDICTIONS,
    folder::files::TRACE,
    folder::files::LLM_EXCHANGES,
    folder::files::CONVERSATIONS,
    folder::files::PAGES,
];

fn append(dir: &Path, name: &str) -> Result<BufWriter<File>, EvalError> {
    let path = dir.join(name);
    std::fs::OpenOptions::new()
        .append(true)
        .create(true)
        .open(&path)
        .map(BufWriter::new)
        .map_err(|source| EvalError::Write { path, source })
}

/// Readies a folder for a new run: refuses one that holds another run
/// unless `force`, then removes that run's files.
fn clear(dir: &Path, force: bool) -> Result<(), EvalError> {
    let run = dir.join(folder::files::RUN);
    let mut held = RECORD_FILES
        .iter()
        .chain([
            &folder::files::SUMMARY,
            &folder::files::RUN,
            &folder::files::FAILURES,
        ])
        .chain(plots::PLOTS.iter().map(|p| &p.file))
        .map(|name| dir.join(name))
        .filter(|p| p.exists())
        .peekable();
    if held.peek().is_none() {
        return Ok(());
    }
    if !force {
        let run_id = std::fs::read_to_string(&run)
            .ok()
            .and_then(|t| serde_json::from_str::<RunInfo>(&t).ok())
            .map(|i| i.run_id)
            .unwrap_or_else(|| "(unreadable run.json)".into());
        return Err(EvalError::Occupied {
            path: dir.to_path_buf(),
            run_id,
        });
    }
    for path in held {
        std::fs::remove_file(&path).map_err(|source| EvalError::Write { path, source })?;
    }
    Ok(())
}

/// Keeps the whole conversations of an unfinished run in `dir` (rewriting
/// every record file with their lines only), adds their scores to
/// `summary`, and returns the run's info and how many conversations of
/// `examples` it holds: those are read from `examples`, which is left at
/// the first conversation still to answer. The files are read and rewritten
/// line by line; what is held is the kept conversations' ids and the
/// summary's counts of their turns.
fn resume(
    dir: &Path,
    examples: &mut impl Iterator<Item = Result<Example, DatasetError>>,
    planner: &str,
    summary: &mut Summary,
) -> Result<(RunInfo, usize), EvalError> {
    let fail = |why: String| EvalError::Resume {
        path: dir.to_path_buf(),
        why,
    };
    let run = dir.join(folder::files::RUN);
    let mut info: RunInfo = std::fs::read_to_string(&run)
        .map_err(|e| fail(format!("{}: {e}", run.display())))
        .and_then(|t| serde_json::from_str(&t).map_err(|e| fail(format!("run.json: {e}"))))?;
    if info.finished.is_some() {
        return Err(fail(format!("run {} has finished", info.run_id)));
    }
    if info.planner != planner {
        return Err(fail(format!(
            "run {} used the {} planner, not {planner}",
            info.run_id, info.planner
        )));
    }
    // the committed conversations: whole lines of conversations.jsonl,
    // up to the first that is not
    let committed = |line: &str| {
        line.strip_suffix('\n')
            .and_then(|body| serde_json::from_str::<ConversationRecord>(body).ok())
    };
    let mut kept: Vec<ConversationRecord> = Vec::new();
    each_line(dir, folder::files::CONVERSATIONS, |line| {
        let record = committed(line);
        let whole = record.is_some();
        kept.extend(record);
        Ok(whole)
    })?;
    // the features of the kept conversations, read from the dataset
    let mut features: Vec<Option<Features>> = Vec::with_capacity(kept.len());
    for (i, record) in kept.iter().enumerate() {
        let example = examples.next().transpose()?;
        let expected = example.as_ref().map(|e| e.conversation.id.as_str());
        if expected != Some(record.id.as_str()) {
            return Err(fail(format!(
                "its conversation {} is `{}`, the dataset's is {}",
                i + 1,
                record.id,
                expected.map_or("missing".into(), |id| format!("`{id}`"))
            )));
        }
        features.push(example.and_then(|e| e.gold).map(|g| g.features));
    }
    let ids: HashSet<&str> = kept.iter().map(|r| r.id.as_str()).collect();
    let kept_id = |line: &str| -> Keep {
        let Some(body) = line.strip_suffix('\n') else {
            return Keep::Stop;
        };
        let id = serde_json::from_str::<IdOnly>(body).ok().map(|v| v.id);
        if id.is_some_and(|id| ids.contains(id.as_str())) {
            Keep::Line
        } else {
            Keep::Drop
        }
    };
    rewrite(dir, folder::files::PREDICTIONS, kept_id)?;
    rewrite(dir, folder::files::LLM_EXCHANGES, kept_id)?;
    // the scores of the kept conversations' turns, read as the trace is
    // rewritten
    let mut turns: HashMap<String, Vec<TurnScore>> = HashMap::new();
    rewrite(dir, folder::files::TRACE, |line| {
        let keep = kept_id(line);
        if keep == Keep::Line {
            if let Ok(v) = serde_json::from_str::<serde_json::Value>(line) {
                if let Some(id) = v.get("id").and_then(|i| i.as_str()) {
                    turns
                        .entry(id.to_string())
                        .or_default()
                        .push(TurnScore::from_json(&v));
                }
            }
        }
        keep
    })?;
    rewrite(dir, folder::files::PAGES, kept_id)?;
    // last: the commit record
    let mut lines = 0;
    rewrite(dir, folder::files::CONVERSATIONS, |line| {
        lines += 1;
        match committed(line) {
            Some(_) if lines <= kept.len() => Keep::Line,
            _ => Keep::Stop,
        }
    })?;
    for (i, record) in kept.iter().enumerate() {
        summary.conversations += 1;
        summary.failed_conversations += usize::from(record.error.is_some());
        let scores = turns.remove(record.id.as_str()).unwrap_or_default();
        tally(summary, &scores, features[i].as_ref());
    }
    // rewritten when the run ends
    for name in [folder::files::SUMMARY, folder::files::FAILURES] {
        let path = dir.join(name);
        if path.exists() {
            std::fs::remove_file(&path).map_err(|source| EvalError::Write { path, source })?;
        }
    }
    info.interrupted = false;
    Ok((info, kept.len()))
}

/// What [`rewrite`] does with a line of a record file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Keep {
    /// The line stays.
    Line,
    /// The line goes.
    Drop,
    /// The line and every one after it go.
    Stop,
}

/// The `id` of a record line.
#[derive(serde::Deserialize)]
struct IdOnly {
    id: String,
}

/// Hands each line of the record file `name` of `dir` to `each`, with its
/// newline (a last line without one too), until `each` says `false`. A
/// missing file has no line.
fn each_line(
    dir: &Path,
    name: &str,
    mut each: impl FnMut(&str) -> Result<bool, EvalError>,
) -> Result<(), EvalError> {
    use std::io::BufRead;
    let path = dir.join(name);
    let unreadable = |e: std::io::Error| EvalError::Resume {
        path: dir.to_path_buf(),
        why: format!("{}: {e}", path.display()),
    };
    let file = match File::open(&path) {
        Ok(file) => file,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(unreadable(e)),
    };
    let mut reader = std::io::BufReader::new(file);
    let mut line = String::new();
    loop {
        line.clear();
        if reader.read_line(&mut line).map_err(unreadable)? == 0 || !each(&line)? {
            return Ok(());
        }
    }
}

/// Rewrites the record file `name` of `dir` line by line through a
/// temporary file: `keep` says of each line whether it stays.
fn rewrite(dir: &Path, name: &str, mut keep: impl FnMut(&str) -> Keep) -> Result<(), EvalError> {
    let tmp_name = format!("{name}.tmp");
    let mut out = create(dir, &tmp_name)?;
    let write_error = |source| EvalError::Write {
        path: dir.join(&tmp_name),
        source,
    };
    each_line(dir, name, |line| match keep(line) {
        Keep::Line => out
            .write_all(line.as_bytes())
            .map(|()| true)
            .map_err(write_error),
        Keep::Drop => Ok(true),
        Keep::Stop => Ok(false),
    })?;
    out.flush().map_err(write_error)?;
    drop(out);
    let path = dir.join(name);
    std::fs::rename(dir.join(&tmp_name), &path).map_err(|source| EvalError::Write { path, source })
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

/// What the summary counts of a turn.
#[derive(Debug, Default)]
struct TurnScore {
    turn: usize,
    answered: bool,
    usage: Option<Usage>,
    /// The verdict and the gold program's operations, with gold.
    scored: Option<(bool, String)>,
}

impl TurnScore {
    fn of(s: &ScoredTurn<'_>) -> Self {
        Self {
            turn: s.trace.turn,
            answered: s.trace.answer.is_some(),
            usage: s.trace.usage,
            scored: match (&s.gold, s.correct) {
                (Some(g), Some(ok)) => Some((ok, g.operations.clone())),
                _ => None,
            },
        }
    }

    /// From a line of `trace.jsonl`.
    fn from_json(v: &serde_json::Value) -> Self {
        let ops = v
            .get("gold")
            .and_then(|g| g.get("operations"))
            .and_then(|o| o.as_str());
        Self {
            turn: v.get("turn").and_then(|t| t.as_u64()).unwrap_or(0) as usize,
            answered: v.get("answer").is_some_and(|a| !a.is_null()),
            usage: v
                .get("usage")
                .and_then(|u| serde_json::from_value(u.clone()).ok()),
            scored: match (v.get("correct").and_then(|c| c.as_bool()), ops) {
                (Some(ok), Some(ops)) => Some((ok, ops.to_string())),
                _ => None,
            },
        }
    }
}

/// Adds a conversation's turns to the summary.
fn tally(summary: &mut Summary, turns: &[TurnScore], features: Option<&Features>) {
    let mut all_right = true;
    let mut any_scored = false;
    let no_features = Features::default();
    let mut previous: Option<bool> = None;
    for t in turns {
        if let Some(u) = &t.usage {
            summary.llm.get_or_insert_with(Usage::default).add(u);
        }
        if !t.answered {
            summary.unanswered += 1;
        }
        let Some((ok, ops)) = &t.scored else {
            continue;
        };
        let ok = *ok;
        any_scored = true;
        all_right &= ok;
        summary.turns.add(ok);
        summary.by_turn.entry(t.turn).or_default().add(ok);
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
    }
    if any_scored {
        summary.conversation_accuracy.add(all_right);
    }
}

impl Writers {
    fn flush(&mut self) -> Result<(), EvalError> {
        self.predictions
            .flush()
            .map_err(self.io(folder::files::PREDICTIONS))?;
        self.trace.flush().map_err(self.io(folder::files::TRACE))?;
        self.llm
            .flush()
            .map_err(self.io(folder::files::LLM_EXCHANGES))?;
        self.pages.flush().map_err(self.io(folder::files::PAGES))?;
        self.conversations
            .flush()
            .map_err(self.io(folder::files::CONVERSATIONS))
    }
}

/// Writes a conversation's lines, flushed, then its line in
/// `conversations.jsonl`, flushed: that line commits it.
fn write_conversation(
    summary: &mut Summary,
    w: &mut Writers,
    record: &ConversationRecord,
    page: &PageRecord,
    scored: &[ScoredTurn<'_>],
    features: Option<&Features>,
) -> Result<(), EvalError> {
    let line = serde_json::to_string(page).unwrap_or_default();
    writeln!(w.pages, "{line}").map_err(w.io(folder::files::PAGES))?;
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
    }
    w.flush()?;
    let line = serde_json::to_string(record).unwrap_or_default();
    writeln!(w.conversations, "{line}").map_err(w.io(folder::files::CONVERSATIONS))?;
    w.conversations
        .flush()
        .map_err(w.io(folder::files::CONVERSATIONS))?;
    let scores: Vec<TurnScore> = scored.iter().map(TurnScore::of).collect();
    tally(summary, &scores, features);
    Ok(())
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::rules::RulesPlanner;

    fn workers() -> Vec<Planners> {
        vec![Planners::single(Box::new(RulesPlanner::new().unwrap()))]
    }

    #[test]
    fn a_dataset_error_midway_ends_the_run_resumable() {
        let examples = crate::dataset::load_file(Path::new(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/data/examples.json"
        )))
        .unwrap();
        assert!(examples.len() >= 2);
        let dir = tempfile::tempdir().unwrap();
        let options = EvalOptions {
            out: dir.path().join("run"),
            dataset: None,
            limit: None,
            progress: false,
            conversations: None,
            resume: false,
            force: false,
            interrupt: None,
            source: PageSource::default(),
        };
        // the stream breaks after its first conversation
        let broken = vec![
            Ok(examples[0].clone()),
            Err(DatasetError::Empty {
                source_name: "broken.json".into(),
            }),
            Ok(examples[1].clone()),
        ];
        let err = run(broken.into_iter(), workers(), &options).unwrap_err();
        assert!(matches!(err, EvalError::Dataset(_)), "{err:?}");
        let read = |name: &str| std::fs::read_to_string(options.out.join(name)).unwrap();
        let committed = read(folder::files::CONVERSATIONS);
        assert_eq!(committed.lines().count(), 1, "{committed}");
        assert!(committed.contains(&examples[0].conversation.id));
        let info: RunInfo = serde_json::from_str(&read(folder::files::RUN)).unwrap();
        assert!(info.interrupted && info.finished.is_none());
        // resumed over the whole stream, the run ends as an unbroken one
        let resumed = EvalOptions {
            resume: true,
            ..options.clone()
        };
        let whole = examples.iter().take(2).cloned().map(Ok);
        let summary = run(whole, workers(), &resumed).unwrap();
        assert_eq!(summary.conversations, 2);
        assert_eq!(read(folder::files::CONVERSATIONS).lines().count(), 2);
    }
}

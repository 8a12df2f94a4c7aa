//! `finkg eval`: answer a dataset, score it, write the run folder (and,
//! with `--mongo-uri`, the MongoDB export as it goes), print the report.

use super::planners::{make_planners, PlannerArgs};
use super::store::StoreArgs;
use super::{check_eval_dataset, mongo, run_to_resume, CliError};
use crate::eval::{self, EvalOptions};
use clap::Args;
use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;

/// `finkg eval`'s arguments (the subcommand's about is in `main.rs`).
#[derive(Args)]
pub struct EvalArgs {
    /// A ConvFinQA file with gold answers (with --resume: the run's own
    /// by default).
    #[arg(required_unless_present = "resume")]
    pub dataset: Option<PathBuf>,
    /// The run folder to write (created if missing; a folder holding
    /// another run is refused unless --force).
    #[arg(long, default_value = "runs/latest")]
    pub out: PathBuf,
    /// Finish the interrupted run in RUN_DIR: its whole conversations
    /// are kept, the rest answered (same planner options as the run).
    #[arg(long, value_name = "RUN_DIR", conflicts_with_all = ["force", "limit"])]
    pub resume: Option<PathBuf>,
    /// Overwrite the run the --out folder holds.
    #[arg(long)]
    pub force: bool,
    /// Only the first N conversations.
    #[arg(long)]
    pub limit: Option<usize>,
    /// Hide the progress bar.
    #[arg(long)]
    pub no_progress: bool,
    /// Conversations in flight at once; the turns of a conversation stay
    /// in order and the run folder keeps the dataset's order.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub jobs: usize,
    #[command(flatten)]
    pub planner: PlannerArgs,
    /// Also write the run to MongoDB as it goes
    /// (`mongodb://HOST:PORT/DB`; needs the `mongodb` feature). If the
    /// server fails, the run goes on and its folder stays complete, for
    /// `finkg export` later.
    #[arg(
        long,
        value_name = "URI",
        env = "FINKG_MONGO_URI",
        hide_env_values = true,
        help_heading = "MongoDB export"
    )]
    pub mongo_uri: Option<String>,
    /// With --mongo-uri: also write the TBox and each page's ABox to the
    /// `triples` collection, one document a quad.
    #[arg(long, help_heading = "MongoDB export")]
    pub mongo_triples: bool,
    #[command(flatten)]
    pub store: StoreArgs,
}

/// Runs `finkg eval`.
pub fn eval(args: EvalArgs) -> Result<ExitCode, CliError> {
    // the store answers first, before the MongoDB export starts
    let source = args.store.source()?;
    let EvalArgs {
        dataset,
        out,
        resume,
        force,
        limit,
        no_progress,
        jobs,
        planner,
        mongo_uri,
        mongo_triples,
        ..
    } = args;
    let mut live = mongo::live(mongo_uri.as_deref(), mongo_triples)?;
    let resuming = resume.is_some();
    let (out, dataset, limit) = match resume {
        Some(dir) => {
            let info = run_to_resume(&dir)?;
            let dataset = dataset
                .or_else(|| info.dataset.map(PathBuf::from))
                .ok_or_else(|| CliError::new("the run names no dataset; give it"))?;
            (dir, dataset, info.limit)
        }
        None => (out, dataset.expect("clap requires it"), limit),
    };
    let conversations = check_eval_dataset(&dataset)?;
    if jobs == 0 {
        return Err(CliError::new("--jobs must be at least 1"));
    }
    let workers = make_planners(&planner, jobs)?;
    let interrupt = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    for signal in [signal_hook::consts::SIGINT, signal_hook::consts::SIGTERM] {
        // a second signal ends the process at once
        signal_hook::flag::register_conditional_shutdown(signal, 130, interrupt.clone())
            .and_then(|_| signal_hook::flag::register(signal, interrupt.clone()))
            .map_err(|e| CliError::new(format!("cannot handle signals: {e}")))?;
    }
    let options = EvalOptions {
        out: out.clone(),
        dataset: Some(dataset.clone()),
        limit,
        progress: !no_progress,
        conversations: Some(conversations),
        resume: resuming,
        force,
        interrupt: Some(interrupt),
        source,
    };
    let examples = crate::dataset::stream_file(&dataset)?;
    let summary = match live.as_mut() {
        Some(observer) => eval::run_with(examples, workers, &options, observer),
        None => eval::run(examples, workers, &options),
    }?;
    let mut stdout = io::stdout().lock();
    if summary.interrupted {
        writeln!(
            stdout,
            "interrupted after {} conversations; finish with: finkg eval --resume {}",
            summary.conversations,
            out.display()
        )?;
        return Ok(ExitCode::from(130));
    }
    write!(stdout, "{}", eval::report(&summary))?;
    writeln!(stdout, "\nrun folder: {}", out.display())?;
    let charts: Vec<&str> = crate::inspect::plots::PLOTS
        .iter()
        .map(|p| p.file)
        .filter(|f| out.join(f).is_file())
        .collect();
    let llm_note = if summary.llm.is_none() {
        " (LLM latency, tokens and cost: none, no LLM exchange in this run)"
    } else {
        ""
    };
    writeln!(stdout, "plots: {}{llm_note}", charts.join(", "))?;
    writeln!(stdout, "look at it: finkg inspect {}", out.display())?;
    if let Some(live) = live {
        let exported = mongo::finish_live(live, &out)?;
        writeln!(stdout, "{exported}")?;
    }
    Ok(exit_code(&summary))
}

/// A run's exit code: 1 when a failure no retry mends halted it (the LLM
/// circuit breaker, a rejected key) or when no turn was answered, else 0.
pub fn exit_code(summary: &crate::run::Summary) -> ExitCode {
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

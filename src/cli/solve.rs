//! `finkg solve`: a file's conversations (or questions of one's own) answered
//! turn by turn, each turn printed as it is answered: a line of text, or
//! with `--json` one JSON object (`{"id", "turn", "question", "answer",
//! "error"}`), with `--explain` the plan, SPARQL, bindings and formula.

use super::planners::{make_planners, PlannerArgs};
use super::{load, CliError};
use crate::kg::PageSource;
use crate::pipeline::{load_failure, Planners, Session};
use crate::trace::TurnTrace;
use crate::turn::{MetricType, Usage, ValueSpec};
use rust_decimal::Decimal;
use std::io::{self, Write};
use std::path::Path;
use std::process::ExitCode;

/// `solve`: answers every conversation of `file` (or `questions` over its
/// first one) turn by turn and prints each turn as it is answered; each
/// page's graph from `source`.
pub fn solve(
    file: &Path,
    json: bool,
    explain: bool,
    questions: &[String],
    planner: &PlannerArgs,
    source: &PageSource,
) -> Result<ExitCode, CliError> {
    let mut examples = load(file)?;
    if !questions.is_empty() {
        examples.truncate(1);
    }
    let mut planners = make_planners(planner, 1)?
        .pop()
        .ok_or_else(|| CliError::new("no planner"))?;
    let mut out = super::Printable(io::BufWriter::new(io::stdout().lock()));
    let mut usage: Option<Usage> = None;
    let mut stopped = None;
    for example in &examples {
        let conv = &example.conversation;
        let asked: &[String] = if questions.is_empty() {
            &conv.questions
        } else {
            questions
        };
        let mut session = match Session::open(conv, source) {
            Ok(s) => s,
            Err(e) => {
                let reason = load_failure(&e);
                for (turn, q) in asked.iter().enumerate() {
                    print_turn_failure(&mut out, json, &conv.id, turn, q, &reason)?;
                }
                continue;
            }
        };
        if !json {
            let st = session.stats();
            writeln!(
                out,
                "== {} ({} triples, {} cells, {} text facts)",
                conv.id, st.triples, st.observations, st.text_facts
            )?;
        }
        let stop = |p: &Planners| {
            stopped = p.stop_reason();
            stopped.is_some()
        };
        let ended = session.ask_all(&mut planners, asked, stop, |trace| {
            if let Some(u) = &trace.usage {
                usage.get_or_insert_with(Usage::default).add(u);
            }
            print_turn(&mut out, json, explain, &trace)
        })?;
        if ended {
            break;
        }
    }
    out.flush()?;
    if let Some(u) = usage {
        eprintln!("llm: {u}");
    }
    if let Some(reason) = stopped {
        eprintln!("stopped early: {reason}");
    }
    Ok(ExitCode::SUCCESS)
}

/// Prints a turn that could not be asked, with the reason.
fn print_turn_failure(
    out: &mut impl Write,
    json: bool,
    id: &str,
    turn: usize,
    question: &str,
    reason: &str,
) -> io::Result<()> {
    if json {
        let line = serde_json::json!({"id": id, "turn": turn, "question": question, "answer": null, "error": reason});
        writeln!(out, "{line}")
    } else {
        writeln!(out, "[{turn}] {question}\n    -> no answer: {reason}")
    }
}

/// Prints a critic's findings and revisions, when it found anything.
fn print_critic(out: &mut impl Write, t: &TurnTrace) -> io::Result<()> {
    let Some(c) = &t.critic else {
        return Ok(());
    };
    for f in &c.findings {
        writeln!(out, "    critic ({}): {f}", c.critic)?;
    }
    for r in &c.revisions {
        let answer = r
            .answer
            .map_or_else(|| "no answer".to_string(), |a| a.to_string());
        match (r.accepted, &r.error) {
            (true, _) => writeln!(
                out,
                "    revised: {answer} (replaces {})",
                r.replaced.map(|a| a.to_string()).unwrap_or_default()
            )?,
            (false, Some(e)) => writeln!(out, "    revision not kept ({answer}): {e}")?,
            (false, None) => writeln!(out, "    revision not kept ({answer})")?,
        }
    }
    Ok(())
}

/// Prints a turn: its answer or why there is none; with `explain`, its
/// plan, SPARQL, bindings, formula and LLM exchanges; with `json`, one JSON line.
pub fn print_turn(
    out: &mut impl Write,
    json: bool,
    explain: bool,
    t: &TurnTrace,
) -> io::Result<()> {
    if json {
        let mut line = serde_json::json!({
            "id": t.id, "turn": t.turn, "question": t.question, "answer": t.answer, "error": t.error,
        });
        if explain {
            line["plan"] = serde_json::to_value(&t.plan).unwrap_or_default();
            line["values"] = serde_json::to_value(&t.values).unwrap_or_default();
            line["formula"] = serde_json::to_value(&t.formula).unwrap_or_default();
            if !t.grounding.is_empty() {
                line["grounding"] = serde_json::to_value(&t.grounding).unwrap_or_default();
            }
            line["planner"] = t.planner.clone().into();
            if let Some(f) = &t.fallback {
                line["fallback"] = f.clone().into();
            }
            if let Some(c) = t.critic.as_ref().filter(|c| !c.findings.is_empty()) {
                line["critic"] = serde_json::to_value(c).unwrap_or_default();
            }
            if !t.llm.is_empty() {
                line["llm"] = serde_json::to_value(&t.llm).unwrap_or_default();
                line["usage"] = serde_json::to_value(t.usage).unwrap_or_default();
            }
        }
        return writeln!(out, "{line}");
    }
    match (&t.answer, &t.error) {
        (Some(_), _) => writeln!(
            out,
            "[{}] {}\n    -> {}",
            t.turn,
            t.question,
            answer_text(t)
        )?,
        (None, Some(e)) => writeln!(out, "[{}] {}\n    -> no answer: {e}", t.turn, t.question)?,
        (None, None) => writeln!(out, "[{}] {}\n    -> no answer", t.turn, t.question)?,
    }
    if explain {
        if let Some(f) = &t.fallback {
            writeln!(out, "    fallback: {f}; answered by {}", t.planner)?;
        }
        print_critic(out, t)?;
        print_exchanges(out, t)?;
        if let Some(plan) = &t.plan {
            writeln!(
                out,
                "    plan: {} {}{}",
                plan.metric_type.clone().unwrap_or_default(),
                plan.entity
                    .as_deref()
                    .map(|e| format!("of `{e}`"))
                    .unwrap_or_default(),
                plan.period
                    .as_deref()
                    .map(|p| format!(" ({p})"))
                    .unwrap_or_default()
            )?;
            for (name, spec) in &plan.values {
                match spec {
                    ValueSpec::Sparql {
                        sparql,
                        description,
                    } => {
                        writeln!(out, "    {name}: SPARQL — {description}")?;
                        for line in sparql.lines().filter(|l| !l.starts_with("PREFIX")) {
                            writeln!(out, "        {line}")?;
                        }
                        if let Some(g) = t.grounding.iter().find(|g| g.value == name.as_str()) {
                            print_grounding(out, g)?;
                        }
                    }
                    ValueSpec::Reference(r) => writeln!(out, "    {name}: {r}")?,
                    ValueSpec::Constant(c) => writeln!(out, "    {name}: constant {c}")?,
                }
            }
        }
        for v in &t.values {
            writeln!(out, "    {} = {}  from {}", v.name, v.value, v.source)?;
        }
        if let Some(f) = &t.formula {
            writeln!(out, "    formula: {f}")?;
        }
    }
    Ok(())
}

/// A turn's answer as people read it: a ratio or percentage change with
/// its percentage too (`1.424025 (142.4%)`); `--json` keeps the dataset's
/// fraction alone.
pub fn answer_text(t: &TurnTrace) -> String {
    let Some(answer) = t.answer else {
        return match &t.error {
            Some(e) => format!("no answer: {e}"),
            None => "no answer".into(),
        };
    };
    let ratio = t.result.as_ref().is_some_and(|r| {
        matches!(
            r.metric_type,
            MetricType::Ratio | MetricType::PercentageChange
        )
    });
    match answer.number() {
        Some(d) if ratio => {
            let percent = (d * Decimal::ONE_HUNDRED).round_dp(1);
            format!("{answer} ({percent:.1}%)")
        }
        _ => answer.to_string(),
    }
}

/// The LLM exchanges of a turn, prompt and reply indented under a header line.
fn print_exchanges(out: &mut impl Write, t: &TurnTrace) -> io::Result<()> {
    for e in &t.llm {
        let tokens = match (e.prompt_tokens, e.completion_tokens) {
            (Some(p), Some(c)) => format!("{p} + {c} tokens"),
            _ => "tokens not reported".into(),
        };
        writeln!(
            out,
            "    llm {} attempt {}: {tokens}, {} ms, {} retries, ${:.4}{}",
            e.phase,
            e.attempt,
            e.latency_ms,
            e.retries,
            e.cost_usd,
            if e.cache_hit { ", from the cache" } else { "" }
        )?;
        writeln!(out, "      prompt:")?;
        for line in e.prompt.lines() {
            writeln!(out, "        {line}")?;
        }
        if let Some(reply) = &e.reply {
            writeln!(out, "      reply:")?;
            for line in reply.lines() {
                writeln!(out, "        {line}")?;
            }
        }
        if let Some(error) = &e.error {
            writeln!(out, "      error: {error}")?;
        }
    }
    if let Some(u) = &t.usage {
        writeln!(out, "    llm usage: {u}")?;
    }
    Ok(())
}

/// The candidates the grounder weighed for one value, best (chosen) first,
/// each with its score and the features that decided.
fn print_grounding(out: &mut impl Write, g: &crate::trace::ValueGrounding) -> io::Result<()> {
    writeln!(out, "        grounded `{}`:", g.mention)?;
    for (i, c) in g.candidates.iter().enumerate() {
        let features: Vec<String> = c
            .features
            .iter()
            .map(|(n, v)| format!("{n} {v:+.2}"))
            .collect();
        writeln!(
            out,
            "          {}. {:>6.2}  {}  [{}]",
            i + 1,
            c.score,
            c.source,
            features.join(", ")
        )?;
    }
    Ok(())
}

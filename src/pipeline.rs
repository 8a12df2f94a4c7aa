//! Answering a conversation turn by turn: build the page's graph, then for
//! each question plan (Phase 1), bind the values, plan the formula
//! (Phase 2), evaluate it and record the result with its metadata.
//!
//! A turn that fails records its reason and the conversation goes on; with
//! [`Planners::fallback`] a second planner answers it first.
//!
//! A planner that checks its plan before handing it on does so through the
//! turn's [`PlanCheck`] (a `Checker`), which keeps what it bound and
//! evaluated: the pipeline reuses it, so each plan is bound once.
//!
//! With [`Planners::critic`], each result is reviewed before it is kept: on
//! a finding the planner revises it ([`Planner::revise`]), each revision
//! reviewed again, up to [`Planners::max_revisions`] rounds (one unless
//! told); a revision is kept only when the critic accepts it; the trace
//! records every finding and revision (`critic`).

use crate::critic::{Critic, Review};
use crate::dataset::Conversation;
use crate::exec;
use crate::kg::{GraphStats, KgError, KgStore, PageSource, Schema};
use crate::planner::{PlanCheck, Planner, TurnContext};
use crate::trace::{error_chain, CriticTrace, RevisionTrace, TurnTrace};
use crate::turn::{
    Answer, ConversationState, Finding, MetricType, Plan, Scale, TurnResult, Usage, UsedValue,
};
use std::cell::RefCell;
use std::time::Instant;

/// The turn's [`PlanCheck`]: binds and evaluates through [`exec`] over the
/// page's graph and the conversation so far, and keeps the last plan it
/// bound and the last formula it evaluated for the pipeline to reuse.
struct Checker<'a> {
    kg: &'a KgStore,
    schema: &'a Schema,
    state: &'a ConversationState,
    bound: RefCell<Option<(Plan, Vec<UsedValue>)>>,
    evaluated: RefCell<Option<(String, Vec<UsedValue>, Answer)>>,
    /// Plans bound through the executor this turn.
    binds: std::cell::Cell<usize>,
}

impl<'a> Checker<'a> {
    fn new(kg: &'a KgStore, schema: &'a Schema, state: &'a ConversationState) -> Self {
        Self {
            kg,
            schema,
            state,
            bound: RefCell::new(None),
            evaluated: RefCell::new(None),
            binds: std::cell::Cell::new(0),
        }
    }

    /// The plan's values: those the check bound for this very plan, else bound now.
    fn values(&self, plan: &Plan) -> Result<Vec<UsedValue>, exec::ExecError> {
        match self.bound.borrow_mut().take() {
            Some((checked, values)) if checked == *plan => Ok(values),
            _ => self.bind_now(plan),
        }
    }

    fn bind_now(&self, plan: &Plan) -> Result<Vec<UsedValue>, exec::ExecError> {
        self.binds.set(self.binds.get() + 1);
        exec::bind_values(self.kg, self.schema, plan, self.state)
    }

    /// The formula's answer: the check's for this formula and values, else evaluated now.
    fn answer(&self, formula: &str, values: &[UsedValue]) -> Result<Answer, exec::ExecError> {
        match self.evaluated.borrow_mut().take() {
            Some((f, v, answer)) if f == formula && v == values => Ok(answer),
            _ => exec::evaluate(formula, values),
        }
    }
}

impl PlanCheck for Checker<'_> {
    fn bind(&self, plan: &Plan) -> Result<Vec<UsedValue>, String> {
        let values = self.bind_now(plan).map_err(|e| error_chain(&e))?;
        *self.bound.borrow_mut() = Some((plan.clone(), values.clone()));
        Ok(values)
    }

    fn evaluate(&self, formula: &str, values: &[UsedValue]) -> Result<Answer, String> {
        let answer = exec::evaluate(formula, values).map_err(|e| error_chain(&e))?;
        *self.evaluated.borrow_mut() = Some((formula.to_string(), values.to_vec(), answer));
        Ok(answer)
    }

    fn query(&self, query: &crate::kg::GuardedQuery) -> Result<crate::kg::QueryOutput, String> {
        self.kg.query(query).map_err(|e| error_chain(&e))
    }

    fn graph(&self) -> Option<&oxigraph::model::NamedNode> {
        Some(self.kg.graph())
    }
}

/// A conversation's page, loaded and ready for questions.
pub struct Session {
    kg: KgStore,
    schema: Schema,
    id: String,
    state: ConversationState,
}

impl Session {
    /// Builds the graph of a conversation's page.
    pub fn new(conversation: &Conversation) -> Result<Self, KgError> {
        Self::open(conversation, &PageSource::Build)
    }

    /// The graph of a conversation's page from `source`: built, or read
    /// from the remote store that holds it ([`KgStore::open`]).
    pub fn open(conversation: &Conversation, source: &PageSource) -> Result<Self, KgError> {
        let kg = KgStore::open(conversation, source)?;
        let schema = Schema::read(&kg)?;
        Ok(Self {
            kg,
            schema,
            id: conversation.id.clone(),
            state: ConversationState::new(),
        })
    }

    /// The page's graph.
    pub fn kg(&self) -> &KgStore {
        &self.kg
    }

    /// What the graph holds.
    pub fn stats(&self) -> GraphStats {
        self.kg.stats()
    }

    /// The page's graph, the session over.
    pub fn into_kg(self) -> KgStore {
        self.kg
    }

    /// The results so far.
    pub fn state(&self) -> &ConversationState {
        &self.state
    }

    /// Answers the next question of the conversation.
    pub fn ask(&mut self, planner: &mut dyn Planner, question: &str) -> TurnTrace {
        let (trace, result) = self.attempt(planner, question);
        self.state.push_turn(question, result);
        trace
    }

    /// Asks `questions` in order with `planners`, handing each turn's trace
    /// to `each` as it is answered. Before each turn `stop` is asked whether
    /// the run must stop (a planner's budget or time limit); the result says
    /// whether it stopped before the last question.
    pub fn ask_all<E>(
        &mut self,
        planners: &mut Planners,
        questions: &[String],
        mut stop: impl FnMut(&Planners) -> bool,
        mut each: impl FnMut(TurnTrace) -> Result<(), E>,
    ) -> Result<bool, E> {
        for q in questions {
            if stop(planners) {
                return Ok(true);
            }
            each(self.ask_with(planners, q))?;
        }
        Ok(false)
    }

    /// Answers the next question with `planners.primary`; when that fails
    /// and there is a fallback, the fallback answers it and the trace keeps
    /// the first planner's exchanges and says why (`fallback`).
    pub fn ask_with(&mut self, planners: &mut Planners, question: &str) -> TurnTrace {
        let critic = &mut planners.critic;
        let rounds = planners.max_revisions;
        let (first, result) = self.attempt_reviewed(
            planners.primary.as_mut(),
            critic.as_deref_mut(),
            rounds,
            question,
        );
        let Some(fallback) = planners.fallback.as_mut().filter(|_| result.is_none()) else {
            self.state.push_turn(question, result);
            return first;
        };
        let (mut trace, result) =
            self.attempt_reviewed(fallback.as_mut(), critic.as_deref_mut(), rounds, question);
        trace.fallback = Some(format!(
            "{} failed: {}",
            first.planner,
            first.error.as_deref().unwrap_or("no answer")
        ));
        let mut llm = first.llm;
        llm.append(&mut trace.llm);
        trace.usage = Usage::of(&llm);
        trace.llm = llm;
        trace.timings_us.plan += first.timings_us.plan;
        trace.timings_us.execute += first.timings_us.execute;
        self.state.push_turn(question, result);
        trace
    }

    /// Plans, binds and evaluates one turn without recording it.
    fn attempt(
        &self,
        planner: &mut dyn Planner,
        question: &str,
    ) -> (TurnTrace, Option<TurnResult>) {
        let mut trace = TurnTrace::new(&self.id, self.state.len(), question, planner.name());
        let result = self.plan_and_run(planner, question, &mut trace);
        trace.llm = planner.take_exchanges();
        trace.grounding = planner.take_grounding();
        trace.usage = Usage::of(&trace.llm);
        (trace, result)
    }

    /// [`Session::attempt`], then the critic's review of the result and,
    /// on a finding, up to `rounds` revisions, each reviewed again: the
    /// first the critic accepts (with another answer) is kept; a revision
    /// that fails the critic too is revised again with its own finding.
    fn attempt_reviewed(
        &self,
        planner: &mut dyn Planner,
        critic: Option<&mut (dyn Critic + Send + 'static)>,
        rounds: u32,
        question: &str,
    ) -> (TurnTrace, Option<TurnResult>) {
        let (mut trace, result) = self.attempt(planner, question);
        let (Some(critic), Some(first)) = (critic, result.as_ref()) else {
            return (trace, result);
        };
        let mut note = CriticTrace {
            critic: critic.name().to_string(),
            findings: Vec::new(),
            revisions: Vec::new(),
        };
        let finding = critic.review(&Review {
            question,
            state: &self.state,
            result: first,
        });
        trace.llm.append(&mut critic.take_exchanges());
        let mut kept = result;
        let mut next = finding;
        for _ in 0..rounds {
            let Some(finding) = next.take() else {
                break;
            };
            note.findings.push(finding.clone());
            let mut again = TurnTrace::new(&self.id, self.state.len(), question, planner.name());
            let revised = self.revise_and_run(planner, question, &finding, &mut again);
            trace.llm.append(&mut planner.take_exchanges());
            let grounding = planner.take_grounding();
            trace.timings_us.plan += again.timings_us.plan;
            trace.timings_us.execute += again.timings_us.execute;
            let mut revision = RevisionTrace {
                accepted: false,
                answer: again.answer,
                replaced: None,
                formula: again.formula.clone(),
                plan: again.plan.clone(),
                error: again.error.clone(),
            };
            let Some(revised) = revised else {
                note.revisions.push(revision);
                break;
            };
            let second = critic.review(&Review {
                question,
                state: &self.state,
                result: &revised,
            });
            trace.llm.append(&mut critic.take_exchanges());
            match second {
                Some(f) => {
                    revision.error = Some(format!("the revised result fails too: {f}"));
                    next = Some(f);
                }
                None if kept.as_ref().is_some_and(|k| k.value == revised.value) => {
                    revision.error = Some("the revision gives the same answer".into());
                }
                None => {
                    revision.accepted = true;
                    revision.replaced = trace.answer;
                    trace.plan = again.plan;
                    trace.formula = again.formula;
                    trace.values = again.values;
                    trace.grounding = grounding;
                    trace.answer = again.answer;
                    trace.result = Some(revised.clone());
                    kept = Some(revised);
                }
            }
            note.revisions.push(revision);
        }
        // a finding no round was left to revise
        note.findings.extend(next);
        trace.usage = Usage::of(&trace.llm);
        trace.critic = Some(note);
        (trace, kept)
    }

    /// The planner's revision after `finding`, bound, planned and evaluated.
    fn revise_and_run(
        &self,
        planner: &mut dyn Planner,
        question: &str,
        finding: &Finding,
        trace: &mut TurnTrace,
    ) -> Option<TurnResult> {
        let checker = Checker::new(&self.kg, &self.schema, &self.state);
        let ctx = TurnContext {
            question,
            turn: self.state.len(),
            state: &self.state,
            schema: &self.schema,
            check: &checker,
        };
        let started = Instant::now();
        let plan = planner.revise(&ctx, finding);
        trace.timings_us.plan = micros(started);
        match plan {
            None => {
                trace.error = Some(format!("{} has no other plan", planner.name()));
                None
            }
            Some(Err(e)) => {
                trace.error = Some(format!("revising failed: {}", error_chain(&e)));
                None
            }
            Some(Ok(plan)) => self.run_plan(planner, &ctx, &checker, plan, trace),
        }
    }

    fn plan_and_run(
        &self,
        planner: &mut dyn Planner,
        question: &str,
        trace: &mut TurnTrace,
    ) -> Option<TurnResult> {
        let turn = self.state.len();
        let checker = Checker::new(&self.kg, &self.schema, &self.state);
        let ctx = TurnContext {
            question,
            turn,
            state: &self.state,
            schema: &self.schema,
            check: &checker,
        };
        let started = Instant::now();
        let plan = match planner.phase1(&ctx) {
            Ok(p) => p,
            Err(e) => {
                trace.error = Some(format!("planning failed: {}", error_chain(&e)));
                trace.timings_us.plan = micros(started);
                return None;
            }
        };
        trace.timings_us.plan = micros(started);
        self.run_plan(planner, &ctx, &checker, plan, trace)
    }

    /// Binds a Phase 1 plan, asks Phase 2 and evaluates: the turn's result.
    fn run_plan(
        &self,
        planner: &mut dyn Planner,
        ctx: &TurnContext<'_>,
        checker: &Checker<'_>,
        plan: Plan,
        trace: &mut TurnTrace,
    ) -> Option<TurnResult> {
        let (turn, question) = (ctx.turn, ctx.question);
        trace.plan = Some(plan.clone());
        let started = Instant::now();
        let values = match checker.values(&plan) {
            Ok(v) => v,
            Err(e) => {
                trace.error = Some(error_chain(&e));
                trace.timings_us.execute = micros(started);
                return None;
            }
        };
        trace.values = values.clone();
        let exec_time = micros(started);
        let started = Instant::now();
        let phase2 = match planner.phase2(ctx, &plan, &values) {
            Ok(p) => p,
            Err(e) => {
                trace.error = Some(format!("planning the formula failed: {}", error_chain(&e)));
                return None;
            }
        };
        trace.timings_us.plan += micros(started);
        trace.formula = Some(phase2.formula.clone());
        let started = Instant::now();
        let answer = checker.answer(&phase2.formula, &values);
        trace.timings_us.execute = exec_time + micros(started);
        match answer {
            Ok(answer) => {
                let metric_type = plan.metric_type.clone().unwrap_or_default();
                let description = match &metric_type {
                    MetricType::Value => values
                        .first()
                        .map(|v| v.description.clone())
                        .unwrap_or_default(),
                    kind => format!(
                        "{kind}: {} = {}",
                        phase2.formula,
                        values
                            .iter()
                            .map(|v| format!("{} ({})", v.name, v.description))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                };
                let result = TurnResult {
                    turn,
                    question: question.to_string(),
                    value: answer,
                    scale: result_scale(&metric_type, &values),
                    description,
                    entity: plan.entity.clone(),
                    metric_type,
                    period: plan.period.clone(),
                    variables: values,
                    formula: phase2.formula,
                };
                trace.answer = Some(answer);
                trace.result = Some(result.clone());
                Some(result)
            }
            Err(e) => {
                trace.error = Some(error_chain(&e));
                None
            }
        }
    }
}

/// The planners of a run: the one that plans each turn and, optionally,
/// one that answers the turns it fails (`--fallback rules`).
pub struct Planners {
    /// Plans every turn first.
    pub primary: Box<dyn Planner + Send>,
    /// Answers a turn the primary planner failed.
    pub fallback: Option<Box<dyn Planner + Send>>,
    /// Reviews each result before it is kept (`--critic`); none: every
    /// result is kept as planned.
    pub critic: Option<Box<dyn Critic + Send>>,
    /// Revision rounds a turn after a finding ([`DEFAULT_MAX_REVISIONS`]
    /// unless told); 0 keeps every result as planned, its findings traced.
    pub max_revisions: u32,
}

/// Revision rounds a turn unless another number is given.
pub const DEFAULT_MAX_REVISIONS: u32 = 1;

impl Planners {
    /// One planner, no fallback.
    pub fn single(planner: Box<dyn Planner + Send>) -> Self {
        Self {
            primary: planner,
            fallback: None,
            critic: None,
            max_revisions: DEFAULT_MAX_REVISIONS,
        }
    }

    /// The same planners, their results reviewed by `critic`.
    pub fn with_critic(mut self, critic: Option<Box<dyn Critic + Send>>) -> Self {
        self.critic = critic;
        self
    }

    /// The same planners, with up to `rounds` revisions a turn.
    pub fn with_max_revisions(mut self, rounds: u32) -> Self {
        self.max_revisions = rounds;
        self
    }

    /// The run's name for its planners: `llm`, or `llm, fallback rules`.
    pub fn name(&self) -> String {
        match &self.fallback {
            Some(f) => format!("{}, fallback {}", self.primary.name(), f.name()),
            None => self.primary.name().to_string(),
        }
    }

    /// The critic's name as `--critic` spells it: `deterministic`, `llm`,
    /// or `off` when there is none.
    pub fn critic_name(&self) -> &'static str {
        self.critic.as_ref().map_or("off", |c| c.name())
    }

    /// Why the run must stop, if it must (see [`Planner::stop_reason`]
    /// and [`Critic::stop_reason`]).
    pub fn stop_reason(&self) -> Option<String> {
        self.primary
            .stop_reason()
            .or_else(|| self.fallback.as_ref().and_then(|f| f.stop_reason()))
            .or_else(|| self.critic.as_ref().and_then(|c| c.stop_reason()))
    }
}

/// Why a conversation's turns have no answer when its page's graph could
/// not be built.
pub fn load_failure(error: &KgError) -> String {
    format!(
        "the page's graph could not be built: {}",
        error_chain(error)
    )
}

/// The traces of a conversation's questions left unanswered for `reason`
/// (its page's graph could not be built), as `planner` would have planned them.
pub fn unanswered(id: &str, questions: &[String], planner: &str, reason: &str) -> Vec<TurnTrace> {
    questions
        .iter()
        .enumerate()
        .map(|(turn, q)| {
            let mut t = TurnTrace::new(id, turn, q, planner);
            t.error = Some(reason.to_string());
            t
        })
        .collect()
}

fn micros(since: Instant) -> u64 {
    u64::try_from(since.elapsed().as_micros()).unwrap_or(u64::MAX)
}

/// The scale of a result: its values' common scale word for a look-up, a
/// change, a sum or an average (whose count does not count); none for a
/// ratio, a percentage change, a product or a comparison, for a value
/// converted by constants ("in thousands"), or when its values disagree.
fn result_scale(metric_type: &MetricType, values: &[UsedValue]) -> Option<Scale> {
    let constants = values.iter().any(|v| v.source == "constant");
    match metric_type {
        MetricType::Change | MetricType::Sum | MetricType::Value if !constants => {}
        MetricType::Average => {}
        _ => return None,
    }
    let mut scales = values
        .iter()
        .filter(|v| v.source != "constant")
        .map(|v| v.scale.as_ref());
    let first = scales.next()??;
    scales.all(|s| s == Some(first)).then(|| first.clone())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::planner::PlanError;
    use crate::turn::{Phase2, ValueName, ValueSpec};

    /// A planner that checks its plan through the turn's check, as the LLM
    /// planner does.
    struct Checking;

    impl Planner for Checking {
        fn name(&self) -> &'static str {
            "checking"
        }
        fn phase1(&mut self, ctx: &TurnContext<'_>) -> Result<Plan, PlanError> {
            let mut plan = Plan::default();
            plan.values.insert(
                ValueName::new("a").unwrap(),
                ValueSpec::Constant(rust_decimal::Decimal::from(6)),
            );
            let values = ctx.check.bind(&plan).map_err(PlanError::Llm)?;
            ctx.check
                .evaluate("a * 7", &values)
                .map_err(PlanError::Llm)?;
            Ok(plan)
        }
        fn phase2(
            &mut self,
            _: &TurnContext<'_>,
            _: &Plan,
            _: &[UsedValue],
        ) -> Result<Phase2, PlanError> {
            Ok(Phase2 {
                formula: "a * 7".into(),
                reasoning: None,
            })
        }
    }

    #[test]
    fn a_checked_plan_is_bound_once() {
        let examples = crate::dataset::load_str(
            r#"{"id": "T-1", "doc": {"pre_text": "", "post_text": "",
                 "table": {"2009": {"sales": "1"}}}, "dialogue": {"conv_questions": ["q"]}}"#,
            "test",
        )
        .unwrap();
        let kg = KgStore::build(&examples[0].conversation).unwrap();
        let schema = Schema::read(&kg).unwrap();
        let state = ConversationState::new();
        let checker = Checker::new(&kg, &schema, &state);
        let ctx = TurnContext {
            question: "q",
            turn: 0,
            state: &state,
            schema: &schema,
            check: &checker,
        };
        let plan = Checking.phase1(&ctx).unwrap();
        let values = checker.values(&plan).unwrap();
        assert_eq!(checker.binds.get(), 1, "the check's binding is reused");
        let answer = checker.answer("a * 7", &values).unwrap();
        assert_eq!(answer, Answer::Number(rust_decimal::Decimal::from(42)));
        // a plan the check did not bind is bound now
        let mut other = plan.clone();
        other.values.insert(
            ValueName::new("b").unwrap(),
            ValueSpec::Constant(rust_decimal::Decimal::ONE),
        );
        checker.values(&other).unwrap();
        assert_eq!(checker.binds.get(), 2);

        let mut session = Session::new(&examples[0].conversation).unwrap();
        let trace = session.ask(&mut Checking, "what is six times seven?");
        assert_eq!(
            trace.answer,
            Some(Answer::Number(rust_decimal::Decimal::from(42)))
        );
    }
}

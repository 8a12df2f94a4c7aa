//! The rules planner: deterministic, offline, free.
//!
//! It reads a question in three steps:
//! 1. **Operation** — the calculation pattern whose trigger phrase the
//!    question holds (phrases and priorities come from
//!    `ontology/patterns.ttl`); phrases that are part of a row or column
//!    label ("weighted average exercise price") do not count
//!    ([`super::read`]).
//! 2. **Operands** — each mention is either a reference to an earlier result
//!    ("that change", "this 2005 value", "the two years") resolved through
//!    the results' metadata, a constant printed in the question ("times
//!    100"), or grounded in the page: the cell or text fact whose labels and
//!    context best match the mention's words and whose year matches.
//!    Mentions without words of their own ("and in 2006?") inherit the
//!    metric of the last turn that named one ([`super::turn`], one file an
//!    operation family: `change`, `ratio`, `sum`, `compare`, `mention`).
//! 3. **Plan** — one SPARQL query a grounded operand (a cell by row and
//!    column, a text fact by sentence and token), and the formula written
//!    from the pattern's `fk:formulaTemplate` ([`super::operations`],
//!    [`super::build`]).
//!
//! Conventions of the dataset it follows: changes are later minus earlier
//! (or first-asked minus second-asked for values from earlier turns),
//! percentage changes and ratios are fractions, and table figures printed as
//! negatives are taken as magnitudes unless the question asks for a sign.

use super::build::{Formulas, PlanBuilder};
use super::cues::Cues;
use super::ground::Weights;
use crate::ontology::{self, CalculationPattern};
use crate::planner::{PlanError, Planner, TurnContext};
use crate::trace::ValueGrounding;
use crate::turn::{Finding, Phase2, Plan};
use rust_decimal::Decimal;
use std::collections::HashSet;

pub use super::operation::Operation;

/// The rules planner. Holds the TBox's patterns and the formula of the turn
/// being planned between its two phases.
pub struct RulesPlanner {
    pub(super) patterns: Vec<(Operation, &'static CalculationPattern)>,
    /// The patterns' formula templates, checked.
    pub(super) formulas: Formulas,
    pub(super) reference_phrases: Vec<String>,
    /// A reference phrase before a noun of time (" that year ", " this
    /// dates "), padded: it points at a period, not at a result.
    pub(super) period_references: Vec<String>,
    pub(super) scale_words: Vec<(String, Decimal)>,
    pub(super) cues: Cues,
    pub(super) weights: Weights,
    /// Match question words against the lexicon concepts' labels of rows too.
    pub(super) lexicon: bool,
    pending: Option<Phase2>,
    /// How the last planned turn's values were grounded, by value name.
    grounding: Vec<ValueGrounding>,
    /// The last turn's first plan and its grounding, for a revision.
    planned: Option<(Plan, Vec<ValueGrounding>)>,
    /// Candidates the grounder leaves out while a revision is planned.
    pub(super) excluded: HashSet<(String, String)>,
}

impl RulesPlanner {
    /// A planner reading its patterns from the TBox.
    pub fn new() -> Result<Self, ontology::OntologyError> {
        let tbox = ontology::tbox()?;
        let patterns: Vec<(Operation, &'static CalculationPattern)> = tbox
            .patterns()
            .iter()
            .filter_map(|p| Operation::from_name(&p.operation).map(|op| (op, p)))
            .collect();
        let cues = Cues::from_tbox(tbox);
        let period_references = tbox
            .reference_phrases()
            .iter()
            .flat_map(|p| {
                cues.period_noun
                    .iter()
                    .flat_map(move |n| [format!(" {p} {n} "), format!(" {p} {n}s ")])
            })
            .collect();
        Ok(Self {
            formulas: Formulas::from_patterns(&patterns)?,
            patterns,
            reference_phrases: tbox.reference_phrases().to_vec(),
            period_references,
            scale_words: tbox.scale_words().to_vec(),
            cues,
            weights: Weights::from_env().map_err(ontology::OntologyError::Query)?,
            lexicon: true,
            pending: None,
            grounding: Vec::new(),
            planned: None,
            excluded: HashSet::new(),
        })
    }

    /// Whether grounding also matches a row through its lexicon concept's
    /// labels (on by default).
    pub fn with_lexicon(mut self, on: bool) -> Self {
        self.lexicon = on;
        self
    }

    /// Plans one turn: reads it, finds the operands of its operation, and
    /// returns the plan, its formula and how its values were grounded.
    fn plan_turn(
        &self,
        ctx: &TurnContext<'_>,
    ) -> Result<(Plan, Phase2, Vec<ValueGrounding>), PlanError> {
        let turn = self.set_up_turn(ctx);
        let mut b = PlanBuilder::default();
        let (op, formula) = self.operation_formula(&turn, &mut b)?;
        Ok(b.finish(op, formula, &turn.metric))
    }
}

impl Planner for RulesPlanner {
    fn name(&self) -> &'static str {
        "rules"
    }

    fn phase1(&mut self, ctx: &TurnContext<'_>) -> Result<Plan, PlanError> {
        self.grounding.clear();
        self.planned = None;
        let (plan, phase2, grounding) = self.plan_turn(ctx)?;
        self.pending = Some(phase2);
        self.planned = Some((plan.clone(), grounding.clone()));
        self.grounding = grounding;
        Ok(plan)
    }

    /// Plans the turn again without the page values the first plan chose
    /// for the finding's suspects (`revise.rs`); a change that read one
    /// value twice becomes a look-up (of the change the text states next to
    /// it when the suspect's candidates hold one); `None` when none was
    /// grounded or the plan comes out the same.
    fn revise(
        &mut self,
        ctx: &TurnContext<'_>,
        finding: &Finding,
    ) -> Option<Result<Plan, PlanError>> {
        let (first, grounding) = self.planned.take()?;
        if let Some(excluded) = super::revise::printed_change(&first, &grounding, finding) {
            self.excluded = excluded;
            let planned = self.plan_turn(ctx);
            self.excluded.clear();
            if let Ok((replanned, _, regrounded)) = planned {
                if super::revise::won_stated_change(&regrounded, finding) {
                    if let Some(Ok((plan, mut phase2))) =
                        super::revise::as_lookup(&replanned, finding, &self.formulas)
                    {
                        phase2.reasoning = Some(format!(
                            "rules: the change the text states by the value the change read twice ({})",
                            finding.check.name()
                        ));
                        self.pending = Some(phase2);
                        self.grounding = regrounded
                            .into_iter()
                            .filter(|g| plan.values.keys().any(|k| k.as_str() == g.value))
                            .collect();
                        return Some(Ok(plan));
                    }
                }
            }
        }
        if let Some(lookup) = super::revise::as_lookup(&first, finding, &self.formulas) {
            return Some(lookup.map(|(plan, phase2)| {
                self.pending = Some(phase2);
                self.grounding = grounding
                    .into_iter()
                    .filter(|g| plan.values.keys().any(|k| k.as_str() == g.value))
                    .collect();
                plan
            }));
        }
        self.excluded = super::revise::excluded(&grounding, finding);
        if self.excluded.is_empty() {
            return None;
        }
        let planned = self.plan_turn(ctx);
        self.excluded.clear();
        match planned {
            Ok((plan, _, _)) if plan == first => None,
            Ok((plan, phase2, grounding)) => {
                self.pending = Some(phase2);
                self.grounding = grounding;
                Some(Ok(plan))
            }
            Err(e) => Some(Err(e)),
        }
    }

    fn take_grounding(&mut self) -> Vec<ValueGrounding> {
        std::mem::take(&mut self.grounding)
    }

    fn phase2(
        &mut self,
        _ctx: &TurnContext<'_>,
        _plan: &Plan,
        _values: &[crate::turn::UsedValue],
    ) -> Result<Phase2, PlanError> {
        self.pending
            .take()
            .ok_or_else(|| PlanError::Unsupported("phase 2 asked before phase 1".into()))
    }
}

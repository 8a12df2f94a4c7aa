//! A percentage the page prints, applied to an amount asked before it:
//! "how many employees is that?" after a head count and the share of them
//! a sentence prints ("approximately 35% of our employees are covered"),
//! or "how much of that came from outside the united states?" after net
//! revenues, on a page that prints that share ("52% of our net revenues
//! were generated outside the united states"). The amount times the
//! percentage, over 100.

use super::build::{grouped, PlanBuilder};
use super::cues::contains_any;
use super::ground::same_word;
use super::operand::{reference_operand, Operand};
use super::operation::Operation;
use super::rules::RulesPlanner;
use super::turn::Turn;
use crate::planner::PlanError;
use crate::turn::{MetricType, TurnResult};
use crate::words::content_words;
use rust_decimal::Decimal;

impl RulesPlanner {
    /// "how many employees is that?" right after a printed percentage and
    /// an amount before it: the amount and the percentage.
    fn amount_at_last_percent(&self, t: &Turn<'_>) -> Option<(Operand, Operand)> {
        if !self.asks_part_of_amount(t) || !self.refers_in(&t.r.text) {
            return None;
        }
        let (last, earlier) = t.history.split_last()?;
        if !self.is_printed_percent(t, last) {
            return None;
        }
        let amount = earlier
            .iter()
            .rev()
            .find(|h| h.metric_type == MetricType::Value && !self.is_printed_percent(t, h))?;
        Some((reference_operand(amount), reference_operand(last)))
    }

    /// The amount and the percentage of it a look-up asks for, when it asks
    /// one ([`Self::amount_at_last_percent`], [`Self::percent_of_last_amount`]).
    pub(super) fn applied_percent(&self, t: &Turn<'_>) -> Option<(Operand, Operand)> {
        self.amount_at_last_percent(t)
            .or_else(|| self.percent_of_last_amount(t))
    }

    /// "how much of that came from outside the united states?" right after
    /// an amount, grounded on a percentage the page prints: the amount and
    /// that percentage.
    fn percent_of_last_amount(&self, t: &Turn<'_>) -> Option<(Operand, Operand)> {
        if !self.asks_part_of_amount(t) {
            return None;
        }
        let last = t.history.last()?;
        if last.metric_type != MetricType::Value || self.is_printed_percent(t, last) {
            return None;
        }
        let year = t.r.years.first().copied().or(t.last_year);
        let o = t.g.ground(&t.metric, year).ok().filter(|o| o.percent)?;
        // "of that" points at the amount, or the percentage's own words
        // name it ("52 % of net revenues" after total net revenues)
        let partitive = contains_any(&t.r.text, &self.cues.partitive_reference);
        let of_amount = || {
            let label = content_words(&o.label);
            self.cues
                .specific(&last_metric_words(last))
                .iter()
                .any(|w| label.iter().any(|l| same_word(l, w)))
        };
        (partitive || of_amount()).then(|| (reference_operand(last), o))
    }

    /// The formula of `amount` times `percent` over 100.
    pub(super) fn applied_percent_formula(
        &self,
        b: &mut PlanBuilder,
        amount: Operand,
        percent: Operand,
    ) -> Result<String, PlanError> {
        let a = b.add("amount", amount);
        let p = b.add("percent", percent);
        let product = self
            .formulas
            .fill(Operation::Product, &[("a", &a), ("n", &p)], &[])?;
        let hundred = b.constant("hundred", Decimal::ONE_HUNDRED);
        let product = grouped(&product);
        self.formulas.fill(
            Operation::Quotient,
            &[("a", &product), ("n", &hundred)],
            &[],
        )
    }

    /// A look-up that asks how many or how much, not a percentage.
    fn asks_part_of_amount(&self, t: &Turn<'_>) -> bool {
        t.r.op == Operation::Lookup
            && t.r.constants.is_empty()
            && contains_any(&t.r.text, &self.cues.quantity_ask)
            && !contains_any(&t.r.text, &self.cues.percent)
    }

    /// Whether an earlier result is one percentage the page prints.
    fn is_printed_percent(&self, t: &Turn<'_>, h: &TurnResult) -> bool {
        let [v] = h.variables.as_slice() else {
            return false;
        };
        v.node
            .as_deref()
            .and_then(|node| t.g.node_operand(node))
            .is_some_and(|o| o.percent)
    }
}

/// The words of what an earlier value measures: its metric, else its
/// description.
fn last_metric_words(h: &TurnResult) -> Vec<String> {
    let metric = h.variables.first().and_then(|v| v.metric.as_deref());
    content_words(metric.unwrap_or(&h.description))
}

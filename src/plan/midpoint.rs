//! The midpoint of a range a sentence states: "what is the midpoint of the
//! expected range for 2010 capital expenditures?" where the text says
//! "between $ 550 million and $ 575 million" (or "from $ 85 million to $ 95
//! million"): the number the question's words ground on and the one the
//! range joins to it, averaged.

use super::cues::contains_any;
use super::operand::{fact_operand, Operand};
use super::rules::RulesPlanner;
use super::turn::Turn;
use crate::kg::FactEntry;

/// The most tokens between the two numbers of a range ("$ 550 million and
/// $ 575").
const RANGE_GAP: usize = 4;

impl RulesPlanner {
    /// The two ends of the range whose midpoint the question asks.
    pub(super) fn midpoint_of_range(&self, t: &Turn<'_>) -> Option<(Operand, Operand)> {
        if !contains_any(&t.r.text, &self.cues.midpoint_word) {
            return None;
        }
        let year = t.r.years.first().copied().or(t.last_year);
        let o = t.g.ground(&t.metric, year).ok()?;
        let facts = &t.schema.facts;
        let end = facts.iter().find(|f| fact_operand(f).spec == o.spec)?;
        let other = facts.iter().find(|f| self.joins_range(end, f))?;
        let (low, high) = if other.token > end.token {
            (end, other)
        } else {
            (other, end)
        };
        Some((fact_operand(low), fact_operand(high)))
    }

    /// Whether `a` and `b` are the two ends of one range of a sentence: one
    /// after the other, a range word between ("and", "to"), printed alike.
    fn joins_range(&self, a: &FactEntry, b: &FactEntry) -> bool {
        if a.sentence != b.sentence
            || a.token == b.token
            || b.is_year_mention
            || a.percent != b.percent
            || a.scale != b.scale
        {
            return false;
        }
        let (first, last) = (a.token.min(b.token), a.token.max(b.token));
        if last - first > RANGE_GAP + 1 {
            return false;
        }
        let toks: Vec<&str> = a.sentence_text.split_whitespace().collect();
        let Some(between) = toks.get(first + 1..last) else {
            return false;
        };
        between.iter().any(|w| {
            self.cues.range_joiner.iter().any(|j| j == w)
                || self.cues.period_joiner.iter().any(|j| j == w)
        })
    }
}

//! What is left of a whole once a part asked after it is taken out: "what
//! were the remaining contributions?" after total contributions and how
//! much of that was discretionary, "how many were not exercisable?" after
//! the options outstanding and those exercisable. The larger of the last
//! two values less the smaller, when the question names nothing but them.

use super::cues::contains_any;
use super::ground::same_word;
use super::operand::{reference_operand, Operand};
use super::operation::Operation;
use super::rules::RulesPlanner;
use super::turn::Turn;
use crate::turn::{MetricType, TurnResult};
use crate::words::content_words;

impl RulesPlanner {
    /// The whole and the part of "the remaining ...", "the rest", "not
    /// exercisable" right after two values, the question naming no other
    /// words than theirs.
    pub(super) fn remainder_of_last_two(&self, t: &Turn<'_>) -> Option<(Operand, Operand)> {
        if t.r.op != Operation::Lookup
            || !t.r.years.is_empty()
            || !t.r.constants.is_empty()
            || !contains_any(&t.r.text, &self.cues.remainder_word)
        {
            return None;
        }
        // "securities remaining available for future issuance": a word a
        // label prints names that label, not what is left
        let labelled = self.cues.remainder_word.iter().any(|w| {
            t.r.text.contains(&format!(" {w} "))
                && w.split_whitespace()
                    .all(|x| t.g.page.label_tokens.contains(x))
        });
        if labelled {
            return None;
        }
        let [.., a, b] = t.history.as_slice() else {
            return None;
        };
        // amounts (a value, a sum, an average), not changes or ratios
        let amount = |h: &TurnResult| {
            matches!(
                h.metric_type,
                MetricType::Value | MetricType::Sum | MetricType::Average
            )
        };
        if ![a, b].iter().all(|h| amount(h)) {
            return None;
        }
        let theirs: Vec<String> = [a, b].iter().flat_map(|h| result_words(h)).collect();
        let asking: Vec<String> = self
            .cues
            .remainder_word
            .iter()
            .flat_map(|w| content_words(w))
            .collect();
        let mut own = self.cues.specific(&t.own_metric);
        own.retain(|w| !asking.iter().any(|x| same_word(x, w)));
        if !own.iter().all(|w| theirs.iter().any(|x| same_word(x, w))) {
            return None;
        }
        let (va, vb) = (a.value.number()?.abs(), b.value.number()?.abs());
        if va == vb {
            return None;
        }
        let (whole, part) = if va > vb { (a, b) } else { (b, a) };
        Some((reference_operand(whole), reference_operand(part)))
    }
}

/// The words of an earlier value's question and what it measures.
fn result_words(h: &TurnResult) -> Vec<String> {
    let mut words = content_words(&h.question);
    words.extend(content_words(&h.description));
    if let Some(metric) = h.variables.first().and_then(|v| v.metric.as_deref()) {
        words.extend(content_words(metric));
    }
    words
}

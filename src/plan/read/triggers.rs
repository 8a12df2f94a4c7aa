//! The operation a question's trigger phrases ask for: the trigger of the
//! highest priority (not one a question word follows or a per word
//! leads), settled by what else the question says; and the question's
//! metric words, less its triggers' words.

use super::numbers::counted_span;
use crate::plan::cues::{contains_any, contains_phrase};
use crate::plan::operation::Operation;
use crate::plan::rules::RulesPlanner;
use crate::words::{self, content_words};
use rust_decimal::Decimal;
use std::collections::HashMap;

/// The operation a question's triggers settle on, with what it was read from.
pub(super) struct Settled {
    /// The operation settled on.
    pub op: Operation,
    /// The sum was read from the word "total" alone.
    pub weak_sum: bool,
    /// "A less B" with no constant: maybe two mentions to subtract.
    pub less: bool,
}

impl RulesPlanner {
    /// The operation of the highest-priority pattern whose trigger the
    /// question holds, and that trigger.
    pub(super) fn triggered(
        &self,
        text: &str,
        masked: &str,
        years: &[i32],
        refers: bool,
    ) -> Option<(Operation, &str)> {
        let bare = self
            .cues
            .continuation_lead
            .iter()
            .any(|l| l.contains(' ') && text.starts_with(&format!(" {l} ")));
        let scale_question = (refers || bare)
            && years.is_empty()
            && self.cues.specific(&content_words(text)).is_empty();
        let mut best: Option<(i64, Operation, &str)> = None;
        for (op, pattern) in &self.patterns {
            // "what is that in millions?" restates an earlier result; "what was,
            // in millions, the total of X?" only names the unit of its value.
            // The scale asked for may also be a table's unit label, so it is
            // looked for in the unmasked text.
            if *op == Operation::Scale && !scale_question {
                continue;
            }
            let haystack = if *op == Operation::Scale {
                text
            } else {
                masked
            };
            if let Some(trigger) = pattern
                .triggers
                .iter()
                .find(|t| self.triggers_in(haystack, t))
            {
                // "what is the average between them, in billions?" is an
                // average; only a bare restatement is a scale conversion
                let priority = if *op == Operation::Scale {
                    0
                } else {
                    pattern.priority
                };
                if best.is_none_or(|(p, _, _)| priority > p) {
                    best = Some((priority, *op, trigger.as_str()));
                }
            }
        }
        best.map(|(_, op, t)| (op, t))
    }

    /// Whether `text` holds `trigger` as an operation: not where a question
    /// word follows it ("over how many years", fk:QuestionWord), which
    /// asks a value, nor where a per word leads it ("the dividend per share
    /// of common stock", fk:PerWord), which names a unit.
    fn triggers_in(&self, text: &str, trigger: &str) -> bool {
        let needle = format!(" {trigger} ");
        text.match_indices(&needle).any(|(i, _)| {
            let next = text[i + needle.len()..].split_whitespace().next();
            let asks_value = next.is_some_and(|w| self.cues.question_word.iter().any(|q| q == w));
            let head = &text[..=i];
            let per_unit = self
                .cues
                .per_word
                .iter()
                .any(|p| head.ends_with(&format!(" {p} ")));
            !asks_value && !per_unit
        })
    }

    /// The triggered operation, corrected by what else the question says: a
    /// "total" naming one row, a product or quotient without a constant, an
    /// "A less B" that may be two mentions.
    pub(super) fn settle(
        &self,
        mut op: Operation,
        trigger: &str,
        masked: &str,
        years: &[i32],
        constants: &[Decimal],
        refers: bool,
    ) -> Settled {
        // "the total of A and B as a change in net revenue": the change
        // describes the values; the sum is the calculation asked
        let mut trigger = trigger;
        if op == Operation::Change {
            let described = self
                .cues
                .descriptive_lead
                .iter()
                .any(|l| contains_phrase(masked, &format!("{l} {trigger}")));
            let sum = self
                .patterns
                .iter()
                .filter(|(o, _)| *o == Operation::Sum)
                .flat_map(|(_, p)| p.triggers.iter())
                .find(|t| contains_phrase(masked, t));
            if let (true, Some(sum)) = (described, sum) {
                op = Operation::Sum;
                trigger = sum.as_str();
            }
        }
        let weak_sum = op == Operation::Sum
            && self.cues.weak_sum_trigger.iter().any(|w| w == trigger)
            && !contains_any(masked, &self.cues.sum_word);
        if weak_sum && !self.asks_several(masked, years, refers) {
            op = Operation::Lookup;
        }
        // "by what percentage did net sales grow": a rate of change
        if op == Operation::Ratio
            && self.cues.rate_of_change_ask.iter().any(|w| w == trigger)
            && contains_any(masked, &self.cues.rate_of_change_verb)
        {
            op = Operation::PercentageChange;
        }
        // "the change in percentage points" is a difference of two rates
        if op == Operation::PercentageChange && contains_any(masked, &self.cues.point_change_word) {
            op = Operation::Change;
        }
        // "what is the increased rent?" names a value: the participle is an
        // adjective, not a change asked
        let adjective = op == Operation::Change
            && self.cues.change_participle.iter().any(|w| w == trigger)
            && self.participle_adjective(masked, trigger)
            && years.len() < 2
            && constants.is_empty()
            && !refers;
        if adjective {
            op = Operation::Lookup;
        }
        if op == Operation::Quotient && constants.is_empty() {
            op = Operation::Ratio;
        }
        if op == Operation::Product && constants.is_empty() && !refers {
            op = Operation::Lookup;
        }
        if op == Operation::Lookup && self.asks_every_year(masked, years, constants) {
            op = Operation::Sum;
        }
        // "what is revenue less net income?" subtracts two mentions; "the
        // cost less depreciation" may be a row's name
        let less = op == Operation::Change
            && self.cues.difference_connector.iter().any(|w| w == trigger)
            && constants.is_empty()
            && !refers;
        if less {
            op = Operation::Lookup;
        }
        Settled { op, weak_sum, less }
    }

    /// "the fair value of all notes due in 2015 and 2017": a look-up of
    /// one value a year, to add.
    fn asks_every_year(&self, masked: &str, years: &[i32], constants: &[Decimal]) -> bool {
        years.len() >= 2 && constants.is_empty() && contains_any(masked, &self.cues.every_word)
    }

    /// Whether `trigger` stands after a determiner and before a word that
    /// names a metric ("the increased rent", not "the increased amount").
    fn participle_adjective(&self, masked: &str, trigger: &str) -> bool {
        let toks: Vec<&str> = masked.split_whitespace().collect();
        toks.windows(3).any(|w| {
            let next = w[2].trim_matches(|c: char| !c.is_alphanumeric());
            self.cues.participle_determiner.iter().any(|d| d == w[0])
                && w[1] == trigger
                && !next.is_empty()
                && !self.cues.generic.contains(&words::stem(next))
        })
    }

    /// Whether a "total" question names several values to add.
    fn asks_several(&self, masked: &str, years: &[i32], refers: bool) -> bool {
        // the question's opening "and" says nothing about the count
        let body = masked
            .trim_start()
            .split_once(' ')
            .filter(|(first, _)| self.cues.continuation_lead.iter().any(|l| l == first))
            .map_or(masked, |(_, rest)| rest);
        // "the total of all three years", not "more than five years"
        let counted =
            counted_span(&self.cues, body).is_some() && !contains_any(body, &self.cues.than_word);
        // "that total if 2016 is included": an earlier sum and one more
        let adds_one = refers && contains_any(body, &self.cues.including_word);
        years.len() >= 2
            || counted
            || adds_one
            || contains_any(&format!(" {body}"), &self.cues.several)
            || self.names_results_in_plural(body)
    }

    /// Whether the text names earlier results of a kind in the plural ("the
    /// total of the changes", "those two totals"): several values.
    fn names_results_in_plural(&self, text: &str) -> bool {
        let kinds = || {
            self.cues
                .change_word
                .iter()
                .chain(&self.cues.ratio_word)
                .chain(&self.cues.sum_word)
                .chain(&self.cues.weak_sum_trigger)
        };
        text.split_whitespace().any(|t| {
            let singular = [t.strip_suffix("es"), t.strip_suffix('s')];
            singular
                .iter()
                .flatten()
                .any(|s| !s.is_empty() && kinds().any(|k| k == s))
        })
    }

    /// The question's mention words, less the words of its triggers: a word
    /// the question prints more often than its triggers do stays ("the net
    /// change in net interest income").
    pub(super) fn metric_words(&self, text: &str, masked: &str) -> Vec<String> {
        let stems =
            |t: &str| -> Vec<String> { words::tokens(t).iter().map(|w| words::stem(w)).collect() };
        let printed = stems(text);
        let mut trigger_words: HashMap<String, usize> = HashMap::new();
        for t in self
            .patterns
            .iter()
            .flat_map(|(_, p)| p.triggers.iter())
            .filter(|t| contains_phrase(masked, t))
        {
            let times = masked.matches(&format!(" {t} ")).count().max(1);
            for w in content_words(t) {
                *trigger_words.entry(w).or_default() += times;
            }
        }
        self.cues
            .mention_words(text)
            .into_iter()
            .filter(|w| {
                trigger_words
                    .get(w)
                    .is_none_or(|n| printed.iter().filter(|p| *p == w).count() > *n)
            })
            .collect()
    }
}

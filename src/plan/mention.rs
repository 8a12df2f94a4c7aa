//! One mention of a value inside a question ("that long-term debt", "the
//! 2011 value", "revenue"): a reference to an earlier result, a constant,
//! or a value grounded in the page; and the tests of whether a piece of
//! the question points back at an earlier result.

use super::cues::{contains_any, contains_phrase, Cues};
use super::ground::same_word;
use super::history::{last_result, result_with_year};
use super::operand::{constant_operand, operand_from_used, reference_operand, Operand};
use super::read::question_numbers;
use super::rules::RulesPlanner;
use super::turn::Turn;
use crate::planner::PlanError;
use crate::turn::{MetricType, TurnResult, UsedValue};
use crate::words::content_words;
use rust_decimal::Decimal;

impl RulesPlanner {
    /// One side of a ratio, product or difference: a reference to an
    /// earlier result or a grounded value.
    pub(super) fn mention(
        &self,
        text: &str,
        t: &Turn<'_>,
        year_default: Option<i32>,
    ) -> Result<Operand, PlanError> {
        // ", in percentage" says how to answer, not which value
        let padded = format!(" {} ", text.trim());
        let text = self
            .cues
            .percent_restatement
            .iter()
            .fold(padded, |t, p| t.replace(&format!(" {p} "), " "));
        let text = text.as_str();
        let (years, constants) = question_numbers(&self.cues, text);
        // words the page never prints ("represent") say nothing about which
        // value is meant, unless they are all the mention has on a page whose
        // table lost a row's name into its header: then they name that row
        let all_words = self.cues.mention_words(text);
        let all_own = self.cues.specific(&all_words);
        // "the first" or "the second" alone: one of the last two results
        if let ([word], [.., former, latter]) = (all_own.as_slice(), t.history.as_slice()) {
            if self.cues.former_word.contains(word) {
                return Ok(reference_operand(former));
            }
            if self.cues.latter_word.contains(word) {
                return Ok(reference_operand(latter));
            }
        }
        let mut words: Vec<String> = all_words
            .iter()
            .filter(|w| w.starts_with('@') || t.g.knows(w))
            .cloned()
            .collect();
        let mut own = self.cues.specific(&words);
        if own.is_empty()
            && !self.refers_in(text)
            && !t.g.page.lost_row_unnamed.is_empty()
            && !all_own.is_empty()
        {
            words = all_words;
            own = all_own;
        }
        let kind = self.earlier_kind(text);
        if self.refers_in(text) && kind.is_none() && !own.is_empty() {
            // "that long-term debt": the value of that name used earlier
            if let Some(v) = used_value_named(&t.history, &own, years.first().copied()) {
                return Ok(operand_from_used(v));
            }
        }
        if self.refers_in(text) || own.is_empty() || self.only_kind_words(&own, &kind, t) {
            let earlier = self.earlier_mention(t, kind, &years, &constants, &words, &own)?;
            if let Some(o) = earlier {
                return Ok(o);
            }
        }
        let year = years.first().copied().or(year_default);
        let mut w = words;
        if self.cues.specific(&w).is_empty() {
            w = self.cues.with_marks(&t.metric, &w);
        }
        t.g.ground(&w, year)
    }

    /// The kind of earlier result a mention names: "that change", "the
    /// sum", "that ratio".
    fn earlier_kind(&self, text: &str) -> Option<MetricType> {
        let t = format!(" {} ", text.trim());
        if contains_any(&t, &self.cues.change_word) {
            Some(MetricType::Change)
        } else if (contains_any(&t, &self.cues.sum_word)
            || contains_any(&t, &self.cues.weak_sum_trigger))
            && self.refers_in(text)
        {
            Some(MetricType::Sum)
        } else if contains_any(&t, &self.cues.ratio_word) && self.refers_in(text) {
            Some(MetricType::Ratio)
        } else {
            None
        }
    }

    /// The words that name an earlier result of `kind`.
    pub(super) fn kind_words(&self, kind: MetricType) -> Vec<String> {
        match kind {
            MetricType::Change => self.cues.change_word.clone(),
            MetricType::Sum => [&self.cues.sum_word[..], &self.cues.weak_sum_trigger[..]].concat(),
            MetricType::Ratio => self.cues.ratio_word.clone(),
            _ => Vec::new(),
        }
    }

    /// A mention that points back, or has no words of its own: the last
    /// result of its kind, the value about its year, or its constant, or
    /// the last result.
    fn earlier_mention(
        &self,
        t: &Turn<'_>,
        kind: Option<MetricType>,
        years: &[i32],
        constants: &[Decimal],
        words: &[String],
        own: &[String],
    ) -> Result<Option<Operand>, PlanError> {
        let history = t.history.as_slice();
        if let Some(kind) = kind {
            if let Some(h) = history.iter().rev().find(|h| {
                h.metric_type == kind
                    || (kind == MetricType::Change && h.metric_type == MetricType::PercentageChange)
            }) {
                return Ok(Some(reference_operand(h)));
            }
            // "this total" after "what was the total of X?", a look-up: the
            // result whose question used the kind's word
            let words = self.kind_words(kind);
            if let Some(h) = history
                .iter()
                .rev()
                .find(|h| contains_any(&format!(" {} ", h.question.trim()), &words))
            {
                return Ok(Some(reference_operand(h)));
            }
        }
        if let Some(y) = years.first() {
            if let Some(o) = result_with_year(history, *y) {
                return Ok(Some(o));
            }
            return t
                .g
                .ground(&self.cues.with_marks(&t.metric, words), Some(*y))
                .map(Some);
        }
        if own.is_empty() {
            if let Some(c) = constants.first() {
                return Ok(Some(constant_operand(*c)));
            }
            return last_result(history).map(Some);
        }
        Ok(None)
    }

    /// Whether a mention's own words are only the word of a kind of result
    /// the conversation has computed ("the increase" after a change).
    fn only_kind_words(&self, own: &[String], kind: &Option<MetricType>, t: &Turn<'_>) -> bool {
        let Some(kind) = kind else {
            return false;
        };
        let stems: Vec<String> = self
            .kind_words(kind.clone())
            .iter()
            .map(|w| crate::words::stem(w))
            .collect();
        own.iter().all(|w| stems.contains(w)) && t.history.iter().any(|h| h.metric_type == *kind)
    }

    /// Whether a side of a share names only an earlier result: a kind of
    /// result computed before ("of the increase").
    pub(super) fn names_earlier_kind(&self, text: &str, t: &Turn<'_>) -> bool {
        let own = self.cues.specific(&self.cues.mention_words(text));
        self.only_kind_words(&own, &self.earlier_kind(text), t)
    }

    /// Whether a side of a ratio points back at an earlier result; "the
    /// total X" names a total of the page, not an earlier sum.
    pub(super) fn names_earlier(&self, text: &str) -> bool {
        let t = format!(" {} ", text.trim()).replace(" the total ", " total ");
        self.refers_in(&t)
    }

    /// Whether a piece of the question holds a reference phrase.
    /// "Of that year" points back at a period, not at a result.
    pub(super) fn refers_in(&self, text: &str) -> bool {
        let mut t = format!(" {} ", text.trim());
        for p in &self.period_references {
            if t.contains(p.as_str()) {
                t = t.replace(p.as_str(), " ");
            }
        }
        // "the total consumer sales" names a total of the page
        let total = format!(" the {} ", self.cues.total_word);
        while let Some(i) = t.find(&total) {
            let next = t[i + total.len()..].split(' ').next().unwrap_or("");
            let kind_word = [MetricType::Change, MetricType::Sum, MetricType::Ratio]
                .into_iter()
                .any(|k| self.kind_words(k).iter().any(|w| w == next));
            if kind_word
                || content_words(next).is_empty()
                || next.chars().any(|c| c.is_ascii_digit())
            {
                break;
            }
            t.replace_range(i..i + total.len(), " total ");
        }
        self.reference_phrases
            .iter()
            .any(|p| contains_phrase(&t, p))
    }
}

/// The latest value an earlier turn read from the page under a name that
/// holds all of `own` (and about `year`, if given).
fn used_value_named<'h>(
    history: &[&'h TurnResult],
    own: &[String],
    year: Option<i32>,
) -> Option<&'h UsedValue> {
    history
        .iter()
        .rev()
        .copied()
        .flat_map(|h| h.variables.iter())
        .find(|v| {
            let label = content_words(v.metric.as_deref().unwrap_or(&v.description));
            v.sparql.is_some()
                && year.is_none_or(|y| v.year == Some(y))
                && own.iter().all(|w| label.iter().any(|l| same_word(l, w)))
        })
}

/// `left` after the last ratio lead it holds ("what is the ratio of").
pub(super) fn strip_ratio_lead<'t>(left: &'t str, cues: &Cues) -> &'t str {
    let mut s = left;
    for lead in &cues.ratio_lead {
        let lead = format!(" {lead} ");
        if let Some(p) = s.find(&lead) {
            s = &s[p + lead.len()..];
        }
    }
    s
}

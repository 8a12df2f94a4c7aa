//! The terms of a sum or average: an earlier sum with a value added
//! ("including 2008"), the years the question prints, "the total of A and
//! B", or the values asked since an earlier sum or last.

use super::cues::{contains_any, split_at_first};
use super::history::{count_terms, last_result, last_sum, last_two_of_one_kind, values_since};
use super::operand::{constant_operand, reference_operand, repeats_a_value, Operand};
use super::operation::Operation;
use super::read::{counted_span, first_year, small_count, year_range};
use super::rules::RulesPlanner;
use super::turn::Turn;
use crate::planner::PlanError;
use crate::turn::{MetricType, TurnResult};
use crate::words;

/// What a sum or average adds up.
pub(super) enum SumTerms {
    /// Values to add.
    Values(Vec<Operand>),
    /// An earlier sum and how many values it added.
    SumResult(Operand, usize),
}

impl RulesPlanner {
    /// The terms of a sum or average.
    pub(super) fn sum_operands(&self, t: &Turn<'_>) -> Result<SumTerms, PlanError> {
        let r = &t.r;
        let mut years = r.years.clone();
        years.dedup();
        if let Some(every) = self.years_of_range(t, &years) {
            years = every;
        }
        // "what is that plus 9?": the last result and the number printed
        if let Some(c) = r.constants.last().copied() {
            if r.op == Operation::Sum && (r.refers || t.own_metric.is_empty()) {
                return Ok(SumTerms::Values(vec![
                    last_result(&t.history)?,
                    constant_operand(c),
                ]));
            }
        }
        // "what is the sum of the two changes?" after two look-ups each: the
        // last two results of the kind the question names, however far apart
        if let Some(terms) = self.last_two_of_kind_named(t) {
            return Ok(SumTerms::Values(terms));
        }
        // "including 2008, what then becomes that total?" / "including the
        // transmission revenue"; not "the sum of A , B and C in 2009", which
        // names its own terms
        if contains_any(&r.text, &self.cues.including_word)
            || (r.refers
                && r.op == Operation::Sum
                && years.len() == 1
                && self.named_terms(t).is_none())
        {
            if let Some(prev) = last_sum(&t.history) {
                return self.sum_including(t, prev, &years);
            }
        }
        // "A and B ... from 2015 to 2016" where years name a few rows (a
        // roll-forward's "2015 net revenue"): the terms are the rows named
        if years.len() >= 2 && t.g.page.row_years_are_names {
            if let Some(terms) = self.named_terms(t) {
                return Ok(SumTerms::Values(terms));
            }
        }
        if years.len() >= 2 {
            let ops = years
                .iter()
                .map(|y| t.g.ground(&t.metric, Some(*y)))
                .collect::<Result<Vec<_>, _>>()?;
            return Ok(SumTerms::Values(ops));
        }
        if r.op == Operation::Average {
            if let Some(prev) = t
                .history
                .last()
                .filter(|h| h.metric_type == MetricType::Sum)
            {
                let n = count_terms(prev, &t.history);
                return Ok(SumTerms::SumResult(reference_operand(prev), n));
            }
        }
        if let Some(terms) = self.named_terms(t) {
            return Ok(SumTerms::Values(terms));
        }
        if r.weak_sum && !r.refers && !t.own_metric.is_empty() {
            return t
                .g
                .ground(&t.metric, years.first().copied().or(t.last_year))
                .map(|o| SumTerms::Values(vec![o]));
        }
        self.earlier_terms(t, &years)
    }

    /// Every year of the range the question's two years bound ("2007
    /// through 2009"), when the page has each of them.
    fn years_of_range(&self, t: &Turn<'_>, years: &[i32]) -> Option<Vec<i32>> {
        let (a, b) = year_range(&self.cues, &t.r.text)?;
        let (lo, hi) = (a.min(b), a.max(b));
        let every: Vec<i32> = (lo..=hi).collect();
        let spans_more = (3..=10).contains(&every.len());
        let same = years.len() == 2 && years.contains(&a) && years.contains(&b);
        (spans_more && same && every.iter().all(|y| t.g.page.page_years.contains(y)))
            .then_some(every)
    }

    /// An earlier sum and what the question adds to it: the same row in
    /// another year, all values asked since, or a value it names.
    fn sum_including(
        &self,
        t: &Turn<'_>,
        prev: &TurnResult,
        years: &[i32],
    ) -> Result<SumTerms, PlanError> {
        let base = reference_operand(prev);
        // values asked since that sum: "what is the total sum including all 3 years?"
        let since = values_since(&t.history, prev.turn);
        let own = self.cues.specific(&t.r.metric);
        let extra = if let Some(y) = years.first() {
            // the same row as the values summed, in another year
            let row = t
                .history
                .iter()
                .rev()
                .filter(|h| h.turn <= prev.turn && h.metric_type == MetricType::Value)
                .find_map(|h| h.variables.first().and_then(|v| v.metric.clone()));
            match row.and_then(|label| t.g.cell_in_row(&label, *y)) {
                Some(o) => o,
                // "and including the value of notes due in 2019?" after "the
                // fair value of all notes due in 2015 and 2017": the words
                // of the sum's question say which column
                None => {
                    let mut words = t.metric.clone();
                    let read = words::normalise_question(&prev.question);
                    for w in self.cues.specific(&self.cues.mention_words(&read)) {
                        if !words.contains(&w) {
                            words.push(w);
                        }
                    }
                    t.g.ground(&words, Some(*y))?
                }
            }
        } else if !since.is_empty() && own.iter().all(|w| self.cues.all_periods_word.contains(w)) {
            let mut terms = vec![base];
            terms.extend(since);
            return Ok(SumTerms::Values(terms));
        } else {
            t.g.ground(&t.r.metric, t.last_year)?
        };
        Ok(SumTerms::Values(vec![base, extra]))
    }

    /// "the total of A and B", "the sum of A, B and C": the values named
    /// in the list after the lead word (not one row twice when "total" may
    /// name it).
    pub(super) fn named_terms(&self, t: &Turn<'_>) -> Option<Vec<Operand>> {
        let r = &t.r;
        let own = self.cues.specific(&r.metric);
        if own.is_empty() || !contains_any(&r.text, &self.cues.addition_connector) {
            return None;
        }
        let body = split_at_first(&r.listed, &self.cues.terms_lead)
            .map(|(_, b)| b)
            .unwrap_or(r.listed.as_str());
        let year = first_year(&self.cues, body)
            .or(r.years.first().copied())
            .or(t.last_year);
        let words = self.list_mentions(body, t.schema, &self.cues.addition_connector);
        if words.len() < 2 {
            return None;
        }
        let terms: Vec<Operand> = words
            .iter()
            .map(|w| t.g.ground(w, year).ok())
            .collect::<Option<_>>()?;
        let repeated = repeats_a_value(&terms);
        (!(r.weak_sum && repeated)).then_some(terms)
    }

    /// How many values a question counts: "the three years", "all 3
    /// periods" (a number before a span-of-time word).
    fn counted_values(&self, text: &str) -> Option<usize> {
        counted_span(&self.cues, text).or_else(|| {
            // "the sum of these three", "all four": a number after a
            // gathering word
            let toks: Vec<&str> = text.split_whitespace().collect();
            toks.windows(2).find_map(|w| {
                let gathering = self.cues.gathering_word.iter().any(|g| g == w[0]);
                small_count(self.cues.number_word(w[1]).filter(|_| gathering)?)
            })
        })
    }

    /// "what was the average of short-term investments for the two
    /// years?": a question that names its row and counts its years takes
    /// that row's latest years, unless the values last asked are that row's.
    fn row_over_counted_years(
        &self,
        t: &Turn<'_>,
        values: &[&&TurnResult],
    ) -> Option<Vec<Operand>> {
        let n = self.counted_values(&t.r.text)?;
        let own: Vec<String> = self
            .cues
            .specific(&t.r.metric)
            .into_iter()
            .filter(|w| {
                !self
                    .cues
                    .time_span_word
                    .iter()
                    .any(|s| s.starts_with(w.as_str()))
            })
            .collect();
        if own.is_empty() {
            return None;
        }
        let first = t.g.ground(&t.r.metric, t.last_year).ok()?;
        let Some((row, _)) = first.cell else {
            // "the total operating expenses for the three years" the text
            // states year by year
            return (values.len() < n)
                .then(|| self.text_over_counted_years(t, n))
                .flatten();
        };
        let label = &t.schema.cells.iter().find(|c| c.row == row)?.row_label;
        let asked = values.len() >= n
            && values[values.len() - n..].iter().all(|h| {
                h.variables
                    .first()
                    .and_then(|v| v.metric.as_ref())
                    .is_some_and(|m| m == label)
            });
        if asked {
            return None;
        }
        let mut years: Vec<i32> = t
            .schema
            .cells
            .iter()
            .filter(|c| c.row == row)
            .filter_map(|c| c.column_year)
            .collect();
        years.sort_unstable_by(|a, b| b.cmp(a));
        years.dedup();
        if years.len() < n {
            return None;
        }
        years[..n]
            .iter()
            .map(|y| t.g.cell_in_row(label, *y))
            .collect()
    }

    /// The text numbers of the question's metric for the page's `n` latest
    /// years that the text states it for, one a year.
    fn text_over_counted_years(&self, t: &Turn<'_>, n: usize) -> Option<Vec<Operand>> {
        let mut years: Vec<i32> = t.g.page.page_years.iter().copied().collect();
        years.sort_unstable_by(|a, b| b.cmp(a));
        let mut ops: Vec<Operand> = Vec::new();
        for y in years {
            let Ok(o) = t.g.ground(&t.r.metric, Some(y)) else {
                continue;
            };
            if o.year == Some(y) && o.cell.is_none() && !ops.iter().any(|p| p.spec == o.spec) {
                ops.push(o);
            }
            if ops.len() == n {
                return Some(ops);
            }
        }
        None
    }

    /// Whether a question's metric words name something besides a kind of
    /// result ("changes", "totals").
    fn names_more_than_a_kind(&self, metric: &[String]) -> bool {
        let named: Vec<String> = metric
            .iter()
            .filter(|w| !self.cues.is_kind_word(w))
            .cloned()
            .collect();
        !self.cues.specific(&named).is_empty()
    }

    /// The last two results of a kind a question counts two of ("the sum
    /// of the two changes"), when it names nothing else.
    fn last_two_of_kind_named(&self, t: &Turn<'_>) -> Option<Vec<Operand>> {
        let r = &t.r;
        if !r.years.is_empty() || self.names_more_than_a_kind(&r.metric) {
            return None;
        }
        let toks: Vec<&str> = r.text.split_whitespace().collect();
        let kind = [MetricType::Change, MetricType::Ratio]
            .into_iter()
            .find(|k| {
                let stems: Vec<String> = self
                    .kind_words(k.clone())
                    .iter()
                    .map(|w| words::stem(w))
                    .collect();
                toks.windows(2).any(|w| {
                    self.cues.number_word(w[0]).and_then(small_count) == Some(2)
                        && stems.contains(&words::stem(w[1]))
                })
            })?;
        let of_kind: Vec<&&TurnResult> =
            t.history.iter().filter(|h| h.metric_type == kind).collect();
        match of_kind.as_slice() {
            [.., x, y] => Some(vec![reference_operand(x), reference_operand(y)]),
            _ => None,
        }
    }

    /// "what is the total sum?": an earlier sum plus the values asked since
    /// it, else the last two values asked (all of them for an average).
    fn earlier_terms(&self, t: &Turn<'_>, years: &[i32]) -> Result<SumTerms, PlanError> {
        let r = &t.r;
        let history = t.history.as_slice();
        if self.cues.specific(&r.metric).is_empty() && years.is_empty() {
            if let Some(prev) = last_sum(history) {
                let since = values_since(history, prev.turn);
                if !since.is_empty() && r.op == Operation::Sum {
                    let mut terms = vec![reference_operand(prev)];
                    terms.extend(since);
                    return Ok(SumTerms::Values(terms));
                }
            }
        }
        // "what is the sum of the two changes?": the last two results, when
        // they are of one kind other than a value
        let two = self.counted_values(&r.text).is_none_or(|n| n == 2);
        if two && years.is_empty() && !self.names_more_than_a_kind(&r.metric) {
            if let Some((x, y)) = last_two_of_one_kind(history) {
                return Ok(SumTerms::Values(vec![x, y]));
            }
        }
        // "what is the sum?" — the last two values
        let values: Vec<&&TurnResult> = history
            .iter()
            .filter(|h| h.metric_type == MetricType::Value)
            .collect();
        if let Some(terms) = self.row_over_counted_years(t, &values) {
            return Ok(SumTerms::Values(terms));
        }
        if values.len() >= 2 {
            // "the total of the three years": as many values as it counts
            let counted = self.counted_values(&r.text);
            // "what is the sum of these values?" after three look-ups in a
            // row: all the values asked since the last computed result
            let run = history
                .iter()
                .rev()
                .take_while(|h| h.metric_type == MetricType::Value)
                .count();
            let gathers = contains_any(&r.text, &self.cues.gathering_word)
                && !r
                    .text
                    .split_whitespace()
                    .any(|w| self.cues.number_word(w).is_some());
            // "what is the total?" after one row's values in three years
            // or more: every year asked
            let one_row = run > 2 && {
                let rows: Vec<Option<&str>> = history[history.len() - run..]
                    .iter()
                    .map(|h| h.variables.first().and_then(|v| v.metric.as_deref()))
                    .collect();
                rows.iter().all(|m| m.is_some() && *m == rows[0])
            };
            let n = values.len().min(match counted {
                Some(n) if n >= 2 => n,
                _ if (gathers || one_row) && run > 2 => run,
                _ if r.op == Operation::Average => values.len(),
                _ => 2,
            });
            let ops = values[values.len() - n..]
                .iter()
                .map(|h| reference_operand(h))
                .collect();
            return Ok(SumTerms::Values(ops));
        }
        Err(PlanError::Unsupported(format!(
            "a sum needs two or more values: `{}`",
            r.text.trim()
        )))
    }
}

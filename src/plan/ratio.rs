//! The operands of a ratio: the part and the whole. A share ("what
//! percentage of the total X is Y") splits the question at its verb; a
//! ratio ("A as a portion of B") at its connector; a bare "what is the
//! ratio?" takes the last two results.

use super::cues::contains_any;
use super::ground::same_word;
use super::history::{last_two, names_result};
use super::mention::strip_ratio_lead;
use super::operand::{
    cell_of_node, operand_from_used, reference_operand, repeats_a_value, Operand, Whole,
};
use super::read::first_year;
use super::rules::RulesPlanner;
use super::turn::Turn;
use crate::planner::PlanError;
use crate::turn::{MetricType, ResultRef, TurnResult, ValueSpec};
use crate::words::{self, content_words};

/// The value an earlier change started from, when `num` reads that change.
fn started_from(t: &Turn<'_>, num: &Operand) -> Option<Operand> {
    t.history
        .iter()
        .rev()
        .filter(|h| matches!(h.metric_type, MetricType::Change))
        .find(|h| reference_operand(h).spec == num.spec)
        .and_then(|h| h.variables.get(1))
        .map(operand_from_used)
}

/// "what about in 2008?" after a share, naming nothing else: the same
/// measures (table rows or text facts) in the year asked.
pub(super) fn ratio_in_another_year(t: &Turn<'_>) -> PartWhole {
    let [year] = t.r.years.as_slice() else {
        return None;
    };
    let last = t.history.last()?;
    if !t.own_metric.is_empty() || last.metric_type != MetricType::Ratio {
        return None;
    }
    let in_year = |name: &str| {
        let v = last.variables.iter().find(|v| v.name == name)?;
        match v.node.as_deref() {
            Some(node) => t.g.same_measure_in(node, *year),
            None => t.g.cell_in_row(v.metric.as_deref()?, *year),
        }
    };
    let (part, whole) = (in_year("part")?, in_year("whole")?);
    (part.spec != whole.spec).then_some((part, Whole::One(whole)))
}

/// "and what was it in 2009?" after a sum of table cells, naming nothing
/// else: the same rows' (or, where rows are years, columns') cells in the
/// year asked.
pub(super) fn sum_in_another_year(t: &Turn<'_>) -> Option<Vec<Operand>> {
    let [year] = t.r.years.as_slice() else {
        return None;
    };
    let last = t.history.last()?;
    let same_year = last.variables.iter().all(|v| v.year == Some(*year));
    if !t.own_metric.is_empty() || last.metric_type != MetricType::Sum || same_year {
        return None;
    }
    let terms: Vec<Operand> = last
        .variables
        .iter()
        .map(|v| match v.node.as_deref() {
            Some(node) => t.g.same_measure_in(node, *year),
            None => t.g.cell_in_row(v.metric.as_deref()?, *year),
        })
        .collect::<Option<_>>()?;
    let repeated = repeats_a_value(&terms);
    (terms.len() >= 2 && !repeated).then_some(terms)
}

/// A part and its whole, when a reading of the question finds both.
pub(super) type PartWhole = Option<(Operand, Whole)>;

impl RulesPlanner {
    /// Operands of a ratio: part and whole.
    pub(super) fn ratio_operands(&self, t: &Turn<'_>) -> Result<(Operand, Whole), PlanError> {
        let year_default = t.r.years.last().copied().or(t.last_year);
        for lead in &self.cues.share_lead {
            if let Some(found) = self.share_of_whole(t, lead, year_default)? {
                return Ok(found);
            }
        }
        if let Some(found) = self.ratio_by_connector(t, year_default)? {
            return Ok(found);
        }
        if let Some(found) = self.share_of_last_whole(t, year_default) {
            return Ok(found);
        }
        if let Some(found) = self.change_as_percentage(t) {
            return Ok(found);
        }
        if let Some(found) = self.part_of_last_sum(t) {
            return Ok(found);
        }
        // "what is the ratio?" — the last two results, the earlier over the
        // later unless the later is the part
        let (x, y) = last_two(&t.history)?;
        if let [.., a, b] = t.history.as_slice() {
            if self.later_is_part(t, a, b) {
                return Ok((y, Whole::One(x)));
            }
        }
        Ok((x, Whole::One(y)))
    }

    /// Whether the later of two values asked is the part of the earlier:
    /// the question names it and not the earlier ("what portion does
    /// industrial represent?" after total revenue and industrial revenue),
    /// or, naming neither, the earlier is a total and the later not ("what
    /// percentage is that?" after total exploration costs and how much of
    /// that was international).
    fn later_is_part(&self, t: &Turn<'_>, earlier: &TurnResult, later: &TurnResult) -> bool {
        let values = [earlier, later]
            .iter()
            .all(|h| h.metric_type == MetricType::Value);
        if !values {
            return false;
        }
        // "and how much of that is operating leases?": asked as a part of
        // the value before it
        if contains_any(
            &format!(" {} ", words::tokens(&later.question).join(" ")),
            &self.cues.partitive_reference,
        ) {
            return true;
        }
        let own = self.cues.specific(&t.own_metric);
        match (names_result(earlier, &own), names_result(later, &own)) {
            (false, true) => return true,
            (true, false) => return false,
            _ => {}
        }
        let total = |h: &TurnResult| words::tokens(&h.description).contains(&self.cues.total_word);
        own.is_empty() && total(earlier) && !total(later)
    }

    /// "what portion were leased?" right after a sum of earlier values: the
    /// earlier value the question names (its every own word), over the sum.
    fn part_of_last_sum(&self, t: &Turn<'_>) -> PartWhole {
        let own = self.cues.specific(&t.own_metric);
        let (last, earlier) = t.history.split_last()?;
        if own.is_empty() || last.metric_type != MetricType::Sum || self.refers_in(&t.r.text) {
            return None;
        }
        let part = earlier
            .iter()
            .rev()
            .find(|h| h.metric_type == MetricType::Value && names_result(h, &own))?;
        Some((reference_operand(part), Whole::One(reference_operand(last))))
    }

    /// "what is that as a percentage?", "and in percent?" right after a
    /// change, naming nothing: the change over the value it started from.
    fn change_as_percentage(&self, t: &Turn<'_>) -> PartWhole {
        let names_percent = contains_any(&t.r.text, &self.cues.percent);
        let points_back = t.r.refers || contains_any(&t.r.text, &self.cues.percent_restatement);
        if !t.own_metric.is_empty() || !points_back || !names_percent {
            return None;
        }
        let last = t.history.last()?;
        if last.metric_type != MetricType::Change {
            return None;
        }
        let old = last.variables.get(1)?;
        Some((reference_operand(last), Whole::One(operand_from_used(old))))
    }

    /// "and what percentage did the goodwill represent?" after a share of
    /// the total purchase price: a part the question names, of the whole
    /// the last ratio divided by.
    fn share_of_last_whole(&self, t: &Turn<'_>, year_default: Option<i32>) -> PartWhole {
        if t.own_metric.is_empty() || self.refers_in(&t.r.text) {
            return None;
        }
        let last = t.history.last()?;
        if last.metric_type != MetricType::Ratio {
            return None;
        }
        let whole = last.variables.iter().find(|v| v.name == "whole")?;
        let part =
            t.g.ground(&t.own_metric, year_default.or(whole.year))
                .ok()?;
        let whole = operand_from_used(whole);
        (part.spec != whole.spec).then_some((part, Whole::One(whole)))
    }

    /// "what percentage of the total X in 2019 is from the first quarter",
    /// "what portion of this price was dedicated to goodwill": the whole
    /// after the lead, the part after the first verb (failing that, after
    /// a preposition).
    fn share_of_whole(
        &self,
        t: &Turn<'_>,
        lead: &str,
        year_default: Option<i32>,
    ) -> Result<PartWhole, PlanError> {
        let text = t.r.text.as_str();
        let lead = format!(" {lead} ");
        let Some(pos) = text.find(&lead) else {
            return Ok(None);
        };
        // "this change as a portion of the 2010 value": the part is an earlier result
        if self.refers_in(&text[..pos]) {
            return Ok(None);
        }
        let rest = &text[pos + lead.len()..];
        // "what percentage of total X ...": nothing named before the lead
        let bare_lead = self
            .cues
            .specific(&self.cues.mention_words(&text[..pos]))
            .is_empty();
        // split the whole from the part at the first verb; failing that,
        // at a preposition ("of total commitments expire in 1-3 years")
        let split_at = |words: &[String]| -> Option<(&str, &str)> {
            words
                .iter()
                .filter_map(|v| {
                    let v = format!(" {v} ");
                    rest.find(&v).map(|i| (i, v.len()))
                })
                .min()
                .map(|(i, n)| (&rest[..i], &rest[i + n..]))
        };
        let splits = [
            split_at(&self.cues.part_whole_verb),
            split_at(&self.cues.part_whole_preposition),
        ];
        for (whole, part) in splits.into_iter().flatten() {
            if let Some(found) = self.share_split(t, whole, part, year_default, bare_lead)? {
                return Ok(Some(found));
            }
        }
        Ok(None)
    }

    /// The part and whole of one split of a share, unless the whole is the
    /// part itself.
    fn share_split(
        &self,
        t: &Turn<'_>,
        whole: &str,
        part: &str,
        year_default: Option<i32>,
        bare_lead: bool,
    ) -> Result<PartWhole, PlanError> {
        let (named_part, named_whole) = self.named_sides(t, whole, part);
        let named_part = named_part.map(|h| {
            let o = reference_operand(h);
            let year = o.year;
            (o, year)
        });
        let Some((num, year)) =
            named_part.or_else(|| self.share_part(t, whole, part, year_default, bare_lead))
        else {
            return Ok(None);
        };
        if let Some(h) = named_whole {
            let den = reference_operand(h);
            // "what portion of the beginning balance does that represent?"
            // right after the balance, or a part that reads the whole's
            // value again: the part is the value asked before it (with
            // none, the whole is another value than the one asked)
            let again =
                (num.spec == den.spec && self.refers_in(part)) || t.same_page_value(&den, &num);
            let other = t
                .history
                .iter()
                .rev()
                .find(|o| o.turn != h.turn && o.metric_type == MetricType::Value);
            match (again, other) {
                (false, _) if num.spec != den.spec => return Ok(Some((num, Whole::One(den)))),
                (true, Some(o)) => return Ok(Some((reference_operand(o), Whole::One(den)))),
                _ => {}
            }
        }
        // no year asked: the whole is of the part's own year, if it has one;
        // a part added over several years ("those two years") has none
        let spans_years = part_spans_years(t, &num);
        let year = if spans_years && first_year(&self.cues, &t.r.text).is_none() {
            None
        } else {
            year.or_else(|| t.g.cell_of(&num).and_then(|c| c.column_year.or(c.row_year)))
        };
        let den = self.share_whole(t, whole, &num, year)?;
        if matches!(&den, Whole::One(d) if d.spec == num.spec) {
            return Ok(None);
        }
        Ok(Some((num, den)))
    }

    /// The earlier results the whole and the part of a share name, as
    /// (part, whole): two results when the sides name two.
    fn named_sides<'h>(
        &self,
        t: &Turn<'h>,
        whole: &str,
        part: &str,
    ) -> (Option<&'h TurnResult>, Option<&'h TurnResult>) {
        // a side an earlier look-up's question names is that result ("what
        // portion of the total was residential?" after "and total kwh
        // sales?"); the two sides name two results
        let wholes = self.earlier_values_named(t, whole);
        let mut parts = self.earlier_values_named(t, part);
        // "what portion of that was X?": the whole is the last result, so X
        // is another
        if self.names_earlier(whole) && wholes.is_empty() {
            let last = t.history.last().map(|h| h.turn);
            parts.retain(|p| Some(p.turn) != last);
        }
        let pair = parts.iter().find_map(|p| {
            let w = wholes.iter().find(|w| w.turn != p.turn)?;
            Some((*p, *w))
        });
        let named_whole = pair.map(|(_, w)| w).or(wholes.first().copied());
        let named_part = pair.map(|(p, _)| p).or_else(|| {
            parts
                .iter()
                .copied()
                .find(|p| named_whole.is_none_or(|w| w.turn != p.turn))
        });
        (named_part, named_whole)
    }

    /// The whole of a share of the part `num` in `year`: a value asked
    /// before, the part's total, or the total the whole's words name.
    fn share_whole(
        &self,
        t: &Turn<'_>,
        whole: &str,
        num: &Operand,
        year: Option<i32>,
    ) -> Result<Whole, PlanError> {
        let whole_words = self.cues.mention_words(whole);
        // "of the 2001 value", "of the increase": a whole that names only a
        // year, or a kind of result computed before, is a value asked
        // before, like one named by a reference
        let only_a_year = self.cues.specific(&whole_words).is_empty()
            && first_year(&self.cues, whole).is_some()
            && !t.history.is_empty();
        let den = if self.names_earlier(whole) || only_a_year || self.names_earlier_kind(whole, t) {
            Whole::One(self.mention(whole, t, year)?)
        } else if let Some(total) = t.g.total_for(num, &whole_words) {
            total
        } else {
            let mut words = whole_words;
            if !words.iter().any(|w| w == "total") {
                words.push("total".into());
            }
            let year = first_year(&self.cues, whole).or(year);
            let mut d = t.g.ground(&words, year)?;
            // "what percentage of total X is that?": the whole is another
            // page value than the one the part read
            if t.same_page_value(num, &d) {
                if let Some(other) = t.leaving_out(&d) {
                    d = other.g.ground(&words, year).unwrap_or(d);
                }
            }
            Whole::One(d)
        };
        Ok(den)
    }

    /// The values earlier look-ups read, latest first, whose question (or
    /// the label it read) prints every specific word a side of a ratio
    /// prints, in the year that side or the question names. A side that
    /// says it is a whole ("the total", "all stores") names only a look-up
    /// that said so too.
    fn earlier_values_named<'h>(&self, t: &Turn<'h>, side: &str) -> Vec<&'h TurnResult> {
        let own = self.cues.specific(&self.cues.mention_words(side));
        if own.is_empty() {
            return Vec::new();
        }
        let says_whole = |text: &str| {
            words::tokens(text)
                .iter()
                .any(|w| self.cues.whole_qualifier.contains(w))
        };
        let whole = says_whole(side);
        let year = first_year(&self.cues, side).or(t.r.years.first().copied());
        // the words a look-up is named by, if it is named by every word of
        // the side, and how many of its words the side leaves out
        let named = |h: &TurnResult| -> Option<usize> {
            if h.metric_type != MetricType::Value {
                return None;
            }
            let read: Vec<_> = h.variables.iter().filter(|v| v.sparql.is_some()).collect();
            if year.is_some() && read.iter().any(|v| v.year.is_some_and(|y| Some(y) != year)) {
                return None;
            }
            // a cell's row label names it; a sentence says more than its number
            let labels: Vec<&str> = read
                .iter()
                .filter(|v| v.node.as_deref().and_then(cell_of_node).is_some())
                .filter_map(|v| v.metric.as_deref())
                .collect();
            if whole && !says_whole(&h.question) && !labels.iter().any(|l| says_whole(l)) {
                return None;
            }
            let mut names = self.cues.specific(&self.cues.mention_words(&h.question));
            for l in labels {
                names.extend(self.cues.specific(&content_words(l)));
            }
            names.sort();
            names.dedup();
            let covered = own.iter().all(|w| names.iter().any(|n| same_word(n, w)));
            let extra = names
                .iter()
                .filter(|n| !own.iter().any(|w| same_word(n, w)))
                .count();
            covered.then_some(extra)
        };
        // the closest-named first, then the latest
        let mut found: Vec<(usize, &TurnResult)> = t
            .history
            .iter()
            .rev()
            .filter_map(|h| named(h).map(|extra| (extra, *h)))
            .collect();
        found.sort_by_key(|(extra, _)| *extra);
        found.into_iter().map(|(_, h)| h).collect()
    }

    /// The part of a share, grounded with the whole's words to place it
    /// (unless that pulls it onto another row), and its year; one that
    /// names only a year, when nothing is named before the lead, is the
    /// whole's metric in that year.
    fn share_part(
        &self,
        t: &Turn<'_>,
        whole: &str,
        part: &str,
        year_default: Option<i32>,
        bare_lead: bool,
    ) -> Option<(Operand, Option<i32>)> {
        let mut part_words = self.cues.mention_words(part);
        // "what percentage of total obligations does this represent?": a
        // part that names nothing the page prints but points back
        let unnamed = |w: &String| !t.g.knows(w);
        if self.refers_in(part)
            && !self.names_earlier(whole)
            && self.cues.specific(&part_words).iter().all(unnamed)
        {
            let year = first_year(&self.cues, part).or(year_default);
            return self.mention(part, t, year).ok().map(|o| (o, year));
        }
        // a part of generic words only, unless they are a row's whole
        // label ("pricing" in a roll-forward)
        let names_a_row =
            t.g.page
                .row_words
                .iter()
                .any(|r| !r.is_empty() && r.iter().all(|l| part_words.contains(l)));
        if self.cues.specific(&part_words).is_empty() && !names_a_row {
            return self.part_of_a_year(t, whole, part).filter(|_| bare_lead);
        }
        let own_part = self.cues.specific(&part_words);
        let own_words = part_words.clone();
        let whole_words = self.cues.mention_words(whole);
        if self.names_earlier(whole) {
            // "of that long-term debt": its name still says which row
            part_words.extend(
                self.cues
                    .specific(&whole_words)
                    .into_iter()
                    .filter(|w| w != "year"),
            );
        } else {
            // a part of the total is not the total
            let total = words::stem(&self.cues.total_word);
            part_words.extend(whole_words.iter().filter(|w| **w != total).cloned());
        }
        let year = first_year(&self.cues, part).or(year_default);
        let mut num = t.g.ground(&part_words, year).ok()?;
        // the whole's words must not pull the part onto the whole itself
        if !tells_part_from_whole(&num, part, &own_part, &whole_words) {
            if let Ok(o) = t.g.ground(&own_words, year) {
                num = o;
            }
        }
        Some((num, year))
    }

    /// "what percentage of total debt matures in 2011": a part that names
    /// only a year is the whole's own metric in that year.
    fn part_of_a_year(
        &self,
        t: &Turn<'_>,
        whole: &str,
        part: &str,
    ) -> Option<(Operand, Option<i32>)> {
        let year = first_year(&self.cues, part)?;
        if self.names_earlier(whole) || first_year(&self.cues, whole).is_some() {
            return None;
        }
        let words: Vec<String> = self
            .cues
            .specific(&self.cues.mention_words(whole))
            .into_iter()
            .filter(|w| *w != self.cues.total_word)
            .collect();
        if words.is_empty() {
            return None;
        }
        let num = t.g.ground(&words, Some(year)).ok()?;
        Some((num, Some(year)))
    }

    /// "A as a portion of B", "A to B": the part before the connector, the
    /// whole after it (a "total" of the part's table when it says so).
    fn ratio_by_connector(
        &self,
        t: &Turn<'_>,
        year_default: Option<i32>,
    ) -> Result<PartWhole, PlanError> {
        let text = t.r.text.as_str();
        for conn in &self.cues.ratio_connector {
            let needle = format!(" {conn} ");
            let Some(pos) = text.find(&needle) else {
                continue;
            };
            let left = &text[..pos];
            let right = &text[pos + needle.len()..];
            let left = strip_ratio_lead(left, &self.cues);
            if content_words(left).is_empty() && !self.refers_in(left) {
                // "and as a percentage of the low?": the last result over
                // the value the question names
                if let Some(found) = self.last_result_over(t, conn, right, year_default)? {
                    return Ok(Some(found));
                }
                continue;
            }
            let num = self.mention(left, t, year_default)?;
            let right_words = content_words(right);
            if words::tokens(right).iter().any(|w| w == "total") && !self.names_earlier(right) {
                if let Some(total) = t.g.total_for(&num, &right_words) {
                    return Ok(Some((num, total)));
                }
            }
            // "to those due in 1-3 years": the whole is the part's noun
            // ("purchase obligations" of "purchase obligations due in less
            // than 1 year": the part's words before the same preposition)
            let borrowed;
            let pronoun = self
                .cues
                .substitute_pronoun
                .iter()
                .find(|p| right.trim_start().starts_with(&format!("{p} ")));
            let right = match pronoun.and_then(|p| p.split_whitespace().nth(1)) {
                Some(follower) => {
                    let noun = left
                        .split_once(&format!(" {follower} "))
                        .map_or(left, |(noun, _)| noun);
                    borrowed = format!("{noun} {right}");
                    borrowed.as_str()
                }
                None => right,
            };
            let mut den = self.mention(right, t, year_default)?;
            // "this total in relation to the total sales": the whole is
            // another value than the part read
            if t.same_page_value(&num, &den) && num.spec != den.spec {
                if let Some(other) = t.leaving_out(&den) {
                    if let Ok(o) = self.mention(right, &other, year_default) {
                        den = o;
                    }
                }
            }
            if !t.same_page_value(&num, &den) {
                return Ok(Some((num, Whole::One(den))));
            }
            // "the increase as a percentage of the prior year amount": a
            // change over the value it started from
            if let Some(old) = started_from(t, &num) {
                return Ok(Some((num, Whole::One(old))));
            }
        }
        Ok(None)
    }

    /// A follow-up that opens with a ratio connector and names only the
    /// whole ("and as a percentage of the low?" after a difference): the
    /// last result over that whole. Not after a ratio, whose part would be
    /// meant instead.
    fn last_result_over(
        &self,
        t: &Turn<'_>,
        conn: &str,
        right: &str,
        year_default: Option<i32>,
    ) -> Result<PartWhole, PlanError> {
        let Some(last) = t.history.last() else {
            return Ok(None);
        };
        let opens = self.cues.ratio_opener.iter().any(|o| o == conn);
        if !opens || last.metric_type == MetricType::Ratio || content_words(right).is_empty() {
            return Ok(None);
        }
        let part = reference_operand(last);
        let whole = self.mention(right, t, year_default)?;
        Ok((whole.spec != part.spec).then_some((part, Whole::One(whole))))
    }
}

/// Whether the part is a result added over several years ("those two
/// years"), so of no one year.
fn part_spans_years(t: &Turn<'_>, num: &Operand) -> bool {
    match &num.spec {
        ValueSpec::Reference(ResultRef(k)) => {
            t.history.iter().find(|h| h.turn == *k).is_some_and(|h| {
                let mut years: Vec<i32> = h.variables.iter().filter_map(|v| v.year).collect();
                years.sort_unstable();
                years.dedup();
                h.metric_type == MetricType::Sum && years.len() >= 2
            })
        }
        _ => false,
    }
}

/// Whether the label `num` reads prints a word of the part (in the form
/// the question writes it: "exercisable" is not "exercise") that tells it
/// from the whole: one of `own_part` the whole does not print, or any of
/// them when the whole prints them all.
fn tells_part_from_whole(
    num: &Operand,
    part: &str,
    own_part: &[String],
    whole_words: &[String],
) -> bool {
    let label_text = num.read_text();
    let part_surface: Vec<String> = words::tokens(part)
        .iter()
        .map(|w| words::surface(w))
        .collect();
    let label: Vec<String> = words::tokens(label_text)
        .iter()
        .filter(|w| part_surface.contains(&words::surface(w)))
        .flat_map(|w| content_words(w))
        .collect();
    let telling: Vec<&String> = own_part
        .iter()
        .filter(|w| !whole_words.iter().any(|x| same_word(x, w)))
        .collect();
    let telling = if telling.is_empty() {
        own_part.iter().collect()
    } else {
        telling
    };
    telling
        .iter()
        .any(|w| label.iter().any(|l| same_word(l, w)))
}

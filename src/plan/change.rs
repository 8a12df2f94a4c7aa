//! The operands of a change or percentage change: later and earlier value
//! (from years printed in the question, earlier results, or the years of
//! the last change), and the two mentions of "A less B" and "X without Y".

use super::cues::{boundary_of, contains_any, split_at_first, Boundary, Cues};
use super::ground::same_word;
use super::history::{last_change, last_result, last_two_of_one_kind, result_with_year};
use super::mention::strip_ratio_lead;
use super::operand::{
    cell_of_node, constant_operand, operand_from_used, reference_operand, repeats_a_value, Operand,
    Whole,
};
use super::operation::Operation;
use super::read::{first_year, list_items};
use super::rules::RulesPlanner;
use super::table::is_index_table;
use super::turn::Turn;
use crate::kg::Schema;
use crate::planner::PlanError;
use crate::turn::{MetricType, TurnResult, ValueSpec};
use crate::words::{self, content_words};
use rust_decimal::Decimal;

/// What a change is computed from.
pub(super) enum ChangeInputs {
    /// Later and earlier value.
    Pair(Operand, Operand),
    /// An earlier change and the value it started from.
    OfChange(Operand, Operand),
    /// A change the page prints itself: a flow row of a roll-forward
    /// table ("additions" between "balance at january 1" and "balance at
    /// december 31") in the year asked.
    Printed(Operand),
}

use ChangeInputs::Pair;

impl RulesPlanner {
    /// Operands of a change: later and earlier.
    pub(super) fn change_operands(&self, t: &Turn<'_>) -> Result<ChangeInputs, PlanError> {
        let (r, g, history) = (&t.r, &t.g, t.history.as_slice());
        let no_metric = t.own_metric.is_empty();
        // "that less 1", "the value in 2017 less an initial $100 investment"
        if let Some(c) = r.constants.last().copied() {
            let base = if r.refers || no_metric {
                last_result(history)?
            } else {
                g.ground(&t.metric, r.years.last().copied())?
            };
            return Ok(Pair(base, constant_operand(c)));
        }
        let mut years = r.years.clone();
        years.dedup();
        if years.len() < 2 {
            if let Some((new, old)) = self
                .compared_mentions(t)
                .or_else(|| self.change_between_periods(t))
                .or_else(|| self.difference_between_rows(t))
            {
                return Ok(Pair(new, old));
            }
        }
        if years.len() >= 2 {
            return self.change_between_years(t, &years);
        }
        // "in that same period, what was the change in the net income?"
        // after values of another row: the reference is to the period
        if no_metric || (r.refers && !names_another_metric(t)) {
            if let Some(inputs) = change_of_earlier_results(t, &years, &self.cues) {
                return Ok(inputs);
            }
            // "what was the change in this performance value from 2001 to 2006" on one year
        }
        if years.len() == 1 {
            return self.change_over_year(t, years[0]);
        }
        // "over the five year period" on a performance index, no year
        // printed: from its base of 100 to its last period ("in the same
        // period", "over that period" are the last change's)
        let last_spans_years = last_change(&t.history).is_some_and(|p| {
            let ys = years_read(p);
            ys.iter().any(|y| *y != ys[0])
        });
        if years.is_empty()
            && !last_spans_years
            && is_index_table(t.schema)
            && self.cues.names_whole_period(&r.text)
            && !contains_any(&r.text, &self.cues.same_period)
        {
            if let Some(&last) = t.g.years().last() {
                return from_index_base(t, last);
            }
        }
        change_over_inherited_years(t)
    }

    /// A change between the first and last year the question prints.
    fn change_between_years(&self, t: &Turn<'_>, years: &[i32]) -> Result<ChangeInputs, PlanError> {
        let (r, g) = (&t.r, &t.g);
        // "as of 12/31/05 between 2008 and 2009": the joined pair is the
        // period, the other year a date of the report
        let (a, b) = self
            .cues
            .joined_years(&r.text)
            .filter(|_| years.len() > 2)
            .unwrap_or((years[0], years[years.len() - 1]));
        let (late, early) = if a >= b { (a, b) } else { (b, a) };
        if t.own_metric.is_empty() {
            // "and from 2013 to 2014, what was that increase" — reuse values of earlier turns when they match
            if let (Some(n), Some(o)) = (
                result_with_year(&t.history, late),
                result_with_year(&t.history, early),
            ) {
                return Ok(Pair(n, o));
            }
        }
        // "from fiscal 2015 to 2016" when the text states the year's change
        if late == early + 1 {
            if let Some(value) = printed_change(t, late) {
                return Ok(ChangeInputs::Printed(value));
            }
        }
        // "from the start of 2010 to the end of 2012": each year's own cue
        let late_words = self
            .cues
            .with_marks(&t.metric, &self.cues.marks_before(&r.text, late));
        let early_words = self
            .cues
            .with_marks(&t.metric, &self.cues.marks_before(&r.text, early));
        let new = g.ground(&late_words, Some(late))?;
        let mut old = g.ground(&early_words, Some(early)).or_else(|e| {
            // a performance index starts at 100 in its base year
            if is_index_table(t.schema) {
                Ok(constant_operand(Decimal::ONE_HUNDRED))
            } else {
                Err(e)
            }
        })?;
        // a table printing a year twice (quarter and full year): the
        // columns that sit together
        let new = g.nearest_twin(new, &old);
        old = g.nearest_twin(old, &new);
        let (new, old) = g.levels_of_one_measure(new, old);
        Ok(flow_or_pair(t, new, old, late))
    }

    /// A change over the one year the question prints: over an index's
    /// whole period, over the years of the last change that holds it, or
    /// from the year before.
    fn change_over_year(&self, t: &Turn<'_>, y: i32) -> Result<ChangeInputs, PlanError> {
        let (g, metric) = (&t.g, t.metric.as_slice());
        // "over the five year period ended 2017" on a performance index:
        // from its base of 100
        if is_index_table(t.schema) && self.cues.names_whole_period(&t.r.text) {
            return from_index_base(t, y);
        }
        // "the change since 2006": the year printed is the start, the end
        // is the year the conversation is about (else the page's last)
        if self.cues.starts_period(&t.r.text, y) {
            let end = t
                .last_year
                .filter(|&l| l > y)
                .or_else(|| g.years().last().copied().filter(|&l| l > y));
            if let Some(end) = end {
                // "decreased $ 13 million compared to 2008": the text states it
                if end == y + 1 {
                    if let Some(value) = printed_change(t, end) {
                        return Ok(ChangeInputs::Printed(value));
                    }
                }
                let new = g.ground(metric, Some(end))?;
                let old = g.ground(metric, Some(y))?;
                return Ok(Pair(new, old));
            }
        }
        // "the increase in 2010 on positions assumed in acquisitions": a
        // roll-forward's flow row is the year's change
        if t.r.op == Operation::Change {
            if let Ok(mut value) = g.ground(metric, Some(y)) {
                if value.cell.is_some_and(|(row, _)| g.is_flow_row(row)) {
                    // the year's change, whether or not its column names the year
                    value.year = value.year.or(Some(y));
                    return Ok(ChangeInputs::Printed(value));
                }
            }
        }
        if let Some(value) = printed_change(t, y) {
            return Ok(ChangeInputs::Printed(value));
        }
        // a change over a named year, or from the inherited years
        if let Some(prev) = last_change(&t.history) {
            let ys: Vec<i32> = prev.variables.iter().filter_map(|v| v.year).collect();
            if ys.len() == 2 && ys.contains(&y) {
                let new = g.ground(metric, Some(ys[0].max(ys[1])))?;
                let old = g.ground(metric, Some(ys[0].min(ys[1])))?;
                return Ok(Pair(new, old));
            }
        }
        let new = g.ground(metric, Some(y))?;
        // "the net change in cash in 2011": a row that names a change ("net
        // increase ( decrease ) in cash") is the year's change
        if self.names_a_change(t.schema, &new) {
            return Ok(ChangeInputs::Printed(new));
        }
        let old = match g.ground(metric, Some(y - 1)) {
            Ok(o) => o,
            Err(_) if is_index_table(t.schema) => constant_operand(Decimal::ONE_HUNDRED),
            Err(e) => return Err(e),
        };
        Ok(Pair(new, old))
    }

    /// The operand reads a cell whose row label names a change
    /// (fk:ChangeWord: "net increase in cash").
    fn names_a_change(&self, schema: &Schema, value: &Operand) -> bool {
        let Some((row, _)) = value.cell else {
            return false;
        };
        let Some((label, _)) = schema.rows.get(row) else {
            return false;
        };
        words::tokens(label)
            .iter()
            .any(|w| self.cues.change_word.contains(w))
    }

    /// "what would 2005 operating income be without the commercial banking
    /// segment?": the total the named part belongs to, and the part (or the
    /// parts a list names: "without a and b").
    pub(super) fn total_without(&self, t: &Turn<'_>) -> Option<(Operand, Whole)> {
        let (r, g) = (&t.r, &t.g);
        let (left, right) = split_at_first(&r.listed, &self.cues.exclusion_connector)?;
        let items = self.named_items(t, right);
        if items.is_empty() {
            return None;
        }
        let year = r.years.first().copied().or(t.last_year);
        // the whole's words say which column a part is read in
        let left_words = self.cues.mention_words(left);
        let parts: Vec<Operand> = items
            .into_iter()
            .map(|mut words| {
                words.extend(self.cues.specific(&left_words));
                g.ground(&words, year).ok()
            })
            .collect::<Option<_>>()?;
        let total = match g.total_for(&parts[0], &left_words)? {
            Whole::One(total) => total,
            Whole::Sum(_) => return None,
        };
        Some((total, Self::one_or_sum(parts)?))
    }

    /// "what were aerospace sales excluding it?", "what was it excluding
    /// catastrophes?": one side of the exclusion points back at the last
    /// result and the other names a value; the value named less the last
    /// result, or the last result less the value named.
    pub(super) fn value_excluding(&self, t: &Turn<'_>) -> Option<(Operand, Whole)> {
        let (left, right) = split_at_first(&t.r.listed, &self.cues.exclusion_connector)?;
        let last = t.history.last()?;
        let own = |side: &str| self.cues.specific(&self.cues.mention_words(side));
        let year = t.r.years.first().copied().or(t.last_year);
        let (whole, part) = match (own(left).is_empty(), own(right).is_empty()) {
            (false, true) if self.refers_in(right) => {
                (self.mention(left, t, year).ok()?, reference_operand(last))
            }
            (true, false) if self.refers_in(left) => {
                // the part is read beside what the last result measured
                // ("catastrophes" of a combined ratio: their effect on it)
                let measured = last.variables.iter().find_map(|v| v.metric.as_deref());
                let mut asked = self.cues.mention_words(right);
                asked.extend(content_words(measured?).iter().map(|w| words::stem(w)));
                let read_by_last = |o: &Operand| match &o.spec {
                    ValueSpec::Sparql { sparql, .. } => last
                        .variables
                        .iter()
                        .any(|v| v.sparql.as_deref() == Some(sparql.as_str())),
                    _ => false,
                };
                let beside = match t.g.ground(&asked, year) {
                    Ok(p) if read_by_last(&p) => t
                        .leaving_out(&p)
                        .and_then(|other| other.g.ground(&asked, year).ok()),
                    found => found.ok(),
                };
                let part = match beside {
                    Some(p) if !read_by_last(&p) => p,
                    _ => self.mention(right, t, year).ok()?,
                };
                (reference_operand(last), part)
            }
            _ => return None,
        };
        (whole.spec != part.spec).then_some((whole, Whole::One(part)))
    }

    /// "what is revenue less net income?": two different values, each named
    /// on its side of "less" (or "minus"); the right side may be a list
    /// ("revenue less a and b").
    pub(super) fn difference_of_mentions(&self, t: &Turn<'_>) -> Option<(Operand, Whole)> {
        let (r, g) = (&t.r, &t.g);
        let (left, right) = split_at_first(&r.listed, &self.cues.difference_connector)?;
        let left = strip_ratio_lead(left, &self.cues);
        let wl = self.cues.mention_words(left);
        let items = self.named_items(t, right);
        if self.cues.specific(&wl).is_empty() || items.is_empty() {
            return None;
        }
        let year = r.years.first().copied();
        let x = g.ground(&wl, first_year(&self.cues, left).or(year)).ok()?;
        let right_year = first_year(&self.cues, right).or(year);
        let ys: Vec<Operand> = items
            .iter()
            .map(|w| g.ground(w, right_year).ok())
            .collect::<Option<_>>()?;
        if ys.iter().any(|y| y.spec == x.spec) {
            return None;
        }
        Self::one_or_sum(ys).map(|y| (x, y))
    }

    /// "less the current portion?", "plus those granted?": a follow-up
    /// that opens with a connector takes the value it names from (or adds
    /// it to) the last result; the operation and the two operands.
    pub(super) fn continued_arithmetic(
        &self,
        t: &Turn<'_>,
    ) -> Option<(Operation, Operand, Operand)> {
        let toks: Vec<&str> = t.r.text.split_whitespace().collect();
        let is = |list: &[String], w: &str| list.iter().any(|l| l == w);
        let connector = |w: &str| {
            is(&self.cues.difference_connector, w) || is(&self.cues.addition_connector, w)
        };
        let mut start = usize::from(
            toks.first()
                .is_some_and(|w| is(&self.cues.continuation_lead, w)),
        );
        // "and what is that sum plus X?": a reference to the last result
        // and nothing else before the connector (not an "and" that may
        // join two names)
        if t.r.refers && !toks.get(start).is_some_and(|w| connector(w)) {
            // "that less an initial $ 100 investment": the number printed
            if !t.r.constants.is_empty() {
                return None;
            }
            let at = start
                + toks[start..]
                    .iter()
                    .position(|w| connector(w) && !is(&self.cues.continuation_lead, w))?;
            // "that total", "this change": the words that name a result's kind
            let before: Vec<String> = self
                .cues
                .mention_words(&toks[start..at].join(" "))
                .into_iter()
                .filter(|w| !self.cues.is_kind_word(w))
                .collect();
            if !self.cues.specific(&before).is_empty() {
                return None;
            }
            start = at;
        }
        let opening = *toks.get(start)?;
        let op = if is(&self.cues.difference_connector, opening) {
            Operation::Change
        } else if is(&self.cues.addition_connector, opening) {
            Operation::Sum
        } else {
            return None;
        };
        // "and less than one year?" names a period, not a subtraction
        if toks
            .get(start + 1)
            .is_some_and(|w| is(&self.cues.than_word, w))
        {
            return None;
        }
        let rest = toks[start + 1..].join(" ");
        let words = self.cues.mention_words(&rest);
        if self.cues.specific(&words).is_empty() {
            return None;
        }
        let last = last_result(&t.history).ok()?;
        let year = t.r.years.first().copied().or(t.last_year);
        let named = t.g.ground(&words, year).ok()?;
        Some((op, last, named))
    }

    /// The mention words of the items `text` lists that name something
    /// (one item when it lists nothing): "a and b", "a , b and c", "a less
    /// b" (every item after the first "less" is taken away too).
    fn named_items(&self, t: &Turn<'_>, text: &str) -> Vec<Vec<String>> {
        let connectors: Vec<String> = self
            .cues
            .addition_connector
            .iter()
            .chain(&self.cues.difference_connector)
            .cloned()
            .collect();
        let items = self.list_mentions(text, t.schema, &connectors);
        if items.len() >= 2 {
            return items;
        }
        let whole = self.cues.mention_words(text);
        if self.cues.specific(&whole).is_empty() {
            Vec::new()
        } else {
            vec![whole]
        }
    }

    /// The mention words of each item `text` lists ([`list_items`]) that
    /// names something of its own ("what was , in millions ," and "2009"
    /// name nothing).
    pub(super) fn list_mentions(
        &self,
        text: &str,
        schema: &Schema,
        connectors: &[String],
    ) -> Vec<Vec<String>> {
        list_items(text, schema, connectors)
            .iter()
            .map(|i| self.cues.mention_words(i))
            .filter(|w| !self.cues.specific(w).is_empty())
            .collect()
    }

    /// One operand, or the sum of several different ones.
    fn one_or_sum(mut ops: Vec<Operand>) -> Option<Whole> {
        let repeated = repeats_a_value(&ops);
        match ops.len() {
            1 => ops.pop().map(Whole::One),
            n if n > 1 && !repeated => Some(Whole::Sum(ops)),
            _ => None,
        }
    }

    /// "what percentage higher is fair value than carrying value?": the
    /// value named between the comparative and "than" (or, when nothing is
    /// named there, before the comparative) against the one named after
    /// "than", in the question's year.
    fn compared_mentions(&self, t: &Turn<'_>) -> Option<(Operand, Operand)> {
        let toks: Vec<&str> = t.r.text.split_whitespace().collect();
        let is = |list: &[String], w: &str| list.iter().any(|l| l == w);
        let than = toks.iter().position(|w| is(&self.cues.than_word, w))?;
        let comparative = toks[..than]
            .iter()
            .rposition(|w| is(&self.cues.comparative_word, w))?;
        let after = toks[comparative + 1..than]
            .iter()
            .skip_while(|w| is(&self.cues.part_whole_verb, w))
            .copied()
            .collect::<Vec<_>>()
            .join(" ");
        let before = strip_ratio_lead(&toks[..comparative].join(" "), &self.cues).to_string();
        let right = toks[than + 1..].join(" ");
        let named = |text: &str| {
            !self
                .cues
                .specific(&self.cues.mention_words(text))
                .is_empty()
        };
        let left = if named(&after) { after } else { before };
        if !named(&left) || !named(&right) {
            return None;
        }
        let year = t.r.years.first().copied().or(t.last_year);
        let x = self.mention(&left, t, year).ok()?;
        let y = self.mention(&right, t, year).ok()?;
        (x.spec != y.spec).then_some((x, y))
    }

    /// "from the first quarter to the fourth quarter of 2012", "from
    /// october to december": two quarters (or two months) joined as a
    /// period, the later one's value less the earlier one's, in the
    /// question's year.
    fn change_between_periods(&self, t: &Turn<'_>) -> Option<(Operand, Operand)> {
        let period = |s: &str| {
            words::quarter_in(s)
                .map(|q| (q, true))
                .or_else(|| words::month_in(s).map(|m| (m, false)))
        };
        let ((a, quarters), (b, _)) = self.cues.period_joiner.iter().find_map(|j| {
            let (left, right) = t.r.text.split_once(&format!(" {j} "))?;
            let b = period(right)?;
            // "from the first to the fourth quarter": the left side's
            // quarter is the right side's word
            let a = period(left)
                .or_else(|| b.1.then(|| period(&format!("{left} quarter"))).flatten())?;
            (a.1 == b.1 && a.0 != b.0).then_some((a, b))
        })?;
        let year = t.r.years.first().copied().or(t.last_year);
        let month_word = |m: u8| {
            words::tokens(&t.r.text)
                .into_iter()
                .find(|w| words::month_number(w) == Some(m))
        };
        let at = |p: u8| {
            let mut g = t.g.clone();
            let mut mention = t.metric.clone();
            if quarters {
                g.asked_quarter = Some(p);
            } else {
                // a month names a row or column by its word: this one's only
                g.asked_month = Some(p);
                mention.retain(|w| words::month_number(w).is_none());
                mention.push(words::stem(&month_word(p)?));
            }
            g.ground(&mention, year).ok()
        };
        let (new, old) = (at(a.max(b))?, at(a.min(b))?);
        (new.spec != old.spec).then_some((new, old))
    }

    /// "the difference between the statutory rate and the effective rate in
    /// 2010", "between the high and the low in q4": two rows (or columns),
    /// each named in full on its side of "between ... and" (fk:BetweenWord),
    /// the first less the second, in one period.
    fn difference_between_rows(&self, t: &Turn<'_>) -> Option<(Operand, Operand)> {
        let (_, rest) = split_at_first(&t.r.text, &self.cues.between_word)?;
        let (left, right) = rest.split_once(" and ")?;
        let year = t.r.years.first().copied().or(t.last_year);
        let words = |text: &str| self.cues.specific(&self.cues.mention_words(text));
        let (mut own_left, own_right) = (words(left), words(right));
        // "between the high and low interest rate var": one word on the
        // left shares the right side's head; each side names its row or
        // column by its own word, the head need not be printed
        let shared: Vec<String> =
            if own_left.len() == 1 && own_right.len() >= 2 && own_left[0] != own_right[0] {
                own_right[1..].to_vec()
            } else {
                Vec::new()
            };
        own_left.extend(shared.iter().cloned());
        let side = |own: &[String]| -> Option<Operand> {
            if own.is_empty() {
                return None;
            }
            let o = t.g.ground(own, year).ok()?;
            // the side names the row or column it reads: every word of it,
            // but those of a quarter or month ("in q4"), in their labels
            let (row, column) = o.cell?;
            let mut label = content_words(&t.schema.rows.get(row)?.0);
            label.extend(content_words(&t.schema.columns.get(column)?.0));
            let quarter = own.iter().any(|w| w == "quarter");
            let dates = |w: &String| {
                words::quarter_in(w).is_some()
                    || words::month_number(w).is_some()
                    || (quarter
                        && (w == "quarter" || words::quarter_in(&format!("{w} quarter")).is_some()))
            };
            let printed = |w: &String| label.iter().any(|l| super::ground::same_word(l, w));
            let mut head = shared.iter().filter(|w| !dates(w)).peekable();
            let head_printed = head.peek().is_none() || head.any(printed);
            (head_printed
                && own
                    .iter()
                    .filter(|w| !dates(w) && !shared.contains(w))
                    .all(printed))
            .then_some(o)
        };
        let (a, b) = (side(&own_left)?, side(&own_right)?);
        (a.cell != b.cell).then_some((a, b))
    }
}

/// A change of earlier results: a percentage change of the last change
/// over the value it started from, an index's last value over its base of
/// 100, or the last two values asked (first-asked minus second-asked).
/// Whether the question's own words, each printed by a label of the page,
/// name a metric none of the last two values measures (their row labels or
/// text contexts print one of the words not).
fn names_another_metric(t: &Turn<'_>) -> bool {
    let values: Vec<&&TurnResult> = t
        .history
        .iter()
        .rev()
        .filter(|h| h.metric_type == MetricType::Value)
        .take(2)
        .collect();
    // words the page's labels do not print ("the growth rate during this
    // time") name an operation, not another row
    if t.own_metric.is_empty() || values.is_empty() || !t.own_metric.iter().all(|w| t.g.labelled(w))
    {
        return false;
    }
    // a text number's context need not print its metric's name: only rows
    // tell
    let from_cells = values.iter().all(|h| {
        h.variables
            .iter()
            .all(|v| v.node.as_deref().and_then(cell_of_node).is_some())
    });
    from_cells
        && values.iter().all(|h| {
            let measured: Vec<String> = h
                .variables
                .iter()
                .filter_map(|v| v.metric.as_deref())
                .flat_map(content_words)
                .collect();
            !measured.is_empty()
                && t.own_metric
                    .iter()
                    .any(|w| !measured.iter().any(|m| same_word(m, w)))
        })
}

fn change_of_earlier_results(t: &Turn<'_>, years: &[i32], cues: &Cues) -> Option<ChangeInputs> {
    let history = t.history.as_slice();
    let values: Vec<&&TurnResult> = history
        .iter()
        .filter(|h| h.metric_type == MetricType::Value)
        .collect();
    let last_two_are_values = history.len() >= 2
        && history[history.len() - 2..]
            .iter()
            .all(|h| h.metric_type == MetricType::Value);
    // a change asked before the last two values is not the one meant: the
    // values asked since are
    if t.r.op == Operation::PercentageChange && !last_two_are_values {
        if let Some(change) = history
            .iter()
            .rev()
            .find(|h| h.metric_type == MetricType::Change)
        {
            if let Some(old) = change.variables.get(1) {
                return Some(ChangeInputs::OfChange(
                    reference_operand(change),
                    operand_from_used(old),
                ));
            }
        }
    }
    if is_index_table(t.schema)
        && years.is_empty()
        && !last_two_are_values
        && history
            .last()
            .is_some_and(|h| h.metric_type == MetricType::Value)
    {
        if let Some(last) = history.last() {
            return Some(Pair(
                reference_operand(last),
                constant_operand(Decimal::ONE_HUNDRED),
            ));
        }
    }
    // "what was the change?" after two sums, or "the difference between
    // these two changes" after two changes: the last two results, when they
    // are of one kind
    if years.is_empty() {
        if let [.., x, y] = history {
            if let Some((new, old)) = last_two_of_one_kind(history) {
                return Some(in_time_order(x, y, new, old, cues));
            }
        }
    }
    if let [.., x, y] = values.as_slice() {
        let pair = (reference_operand(x), reference_operand(y));
        return Some(in_time_order(x, y, pair.0, pair.1, cues));
    }
    None
}

/// The first-asked result less the second-asked ("what was it in 2009?",
/// "and in 2008?"), unless the first asked a period's beginning and the
/// second its end ("at the start of fiscal 2012?", "and at the end?"): then
/// the end less the beginning.
fn in_time_order(
    x: &TurnResult,
    y: &TurnResult,
    first: Operand,
    second: Operand,
    cues: &Cues,
) -> ChangeInputs {
    let boundary = |h: &TurnResult| boundary_of(&words::tokens(&h.question), cues);
    let first_years = words::years_in(&x.question);
    let one_period = words::years_in(&y.question)
        .iter()
        .all(|w| first_years.contains(w));
    if one_period && boundary(x) == Some(Boundary::Beginning) && boundary(y) == Some(Boundary::End)
    {
        Pair(second, first)
    } else {
        Pair(first, second)
    }
}

/// "interest expense decreased $ 13 million ... in 2010": a change the text
/// states for year `y`, when the grounder prefers it to the levels.
fn printed_change(t: &Turn<'_>, y: i32) -> Option<Operand> {
    if t.r.op != Operation::Change {
        return None;
    }
    t.g.wants_printed_change.set(true);
    let printed = t.g.ground(&t.metric, Some(y));
    t.g.wants_printed_change.set(false);
    // "increased 25%" is no amount of change
    printed
        .ok()
        .filter(|v| v.printed_change && !v.percent && v.year == Some(y))
}

/// Both years read the same flow row of a roll-forward ("volume/weather"
/// between "2010 net revenue" and "2011 net revenue"): the row is the
/// change itself, of the later year; else the pair.
fn flow_or_pair(t: &Turn<'_>, new: Operand, old: Operand, late: i32) -> ChangeInputs {
    match (new.cell, old.cell) {
        (Some(a), Some(b)) if a == b && t.g.is_flow_row(a.0) => printed_flow(new, late),
        _ => Pair(new, old),
    }
}

/// A roll-forward's flow row read as the change of the year `late`.
fn printed_flow(mut value: Operand, late: i32) -> ChangeInputs {
    value.year = value.year.or(Some(late));
    ChangeInputs::Printed(value)
}

/// A performance index's growth to `year` from its base of 100.
fn from_index_base(t: &Turn<'_>, year: i32) -> Result<ChangeInputs, PlanError> {
    let new = t.g.ground(&t.metric, Some(year))?;
    Ok(Pair(new, constant_operand(Decimal::ONE_HUNDRED)))
}

/// The years of the values a result read, in its order.
fn years_read(result: &TurnResult) -> Vec<i32> {
    result.variables.iter().filter_map(|v| v.year).collect()
}

/// No year printed: the years of the last change, else the page's last two.
fn change_over_inherited_years(t: &Turn<'_>) -> Result<ChangeInputs, PlanError> {
    let (g, metric) = (&t.g, t.metric.as_slice());
    if let Some(prev) = last_change(&t.history) {
        let ys = years_read(prev);
        // "and for the s&p 500?" after an index's growth over its whole
        // period: from the same base of 100 to the same period
        let from_base = prev
            .variables
            .iter()
            .any(|v| v.sparql.is_none() && v.year.is_none() && v.value == Decimal::ONE_HUNDRED);
        if let [year] = ys.as_slice() {
            if from_base && is_index_table(t.schema) {
                return from_index_base(t, *year);
            }
        }
        if ys.len() >= 2 && ys[0] != ys[1] {
            let late = ys[0].max(ys[1]);
            let new = g.ground(metric, Some(late))?;
            let old = g.ground(metric, Some(ys[0].min(ys[1])))?;
            return Ok(flow_or_pair(t, new, old, late));
        }
    }
    let ys = g.years();
    if ys.len() >= 2 {
        let late = ys[ys.len() - 1];
        let new = g.ground(metric, Some(late))?;
        // "what was the retail electric price variance?" on a variance
        // table: the flow row is the change itself
        let named = content_words(&new.label)
            .iter()
            .all(|w| metric.iter().any(|m| same_word(m, w)));
        if named && new.cell.is_some_and(|(row, _)| g.is_flow_row(row)) {
            return Ok(printed_flow(new, late));
        }
        let old = g.ground(metric, Some(ys[ys.len() - 2]))?;
        return Ok(Pair(new, old));
    }
    Err(PlanError::Unsupported(format!(
        "a change needs two periods: `{}`",
        t.r.text.trim()
    )))
}

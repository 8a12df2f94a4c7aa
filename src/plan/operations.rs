//! One step per operation: find the operands of the turn's operation, add
//! them to the plan under their names, and write the formula from the
//! operation's calculation pattern template (`Formulas`).

use super::build::{grouped, PlanBuilder};
use super::change::ChangeInputs;
use super::cues::{contains_any, split_at_first};
use super::history::{last_result, names_result};
use super::mention::strip_ratio_lead;
use super::operand::{reference_operand, repeats_a_value, Operand, Whole};
use super::operation::Operation;
use super::rules::RulesPlanner;
use super::sum::SumTerms;
use super::turn::Turn;
use crate::kg::CellEntry;
use crate::planner::PlanError;
use crate::turn::{MetricType, Scale, ValueSpec};
use crate::words::{content_words, normalise_question, stem};
use rust_decimal::Decimal;

/// A turn's operation and its formula, or why it has none.
type Planned = Result<(Operation, String), PlanError>;

impl RulesPlanner {
    /// The operation the turn is recorded as, and its formula over the
    /// values added to `b`: a mechanism a reading of the question finds
    /// (a difference, arithmetic carried on, a computation the page
    /// implies), else the operation's own operands.
    pub(super) fn operation_formula(&self, t: &Turn<'_>, b: &mut PlanBuilder) -> Planned {
        if let Some(planned) = self
            .difference_step(t, b)
            .or_else(|| self.carried_step(t, b))
            .or_else(|| self.implied_step(t, b))
        {
            return planned;
        }
        let r = &t.r;
        let formula = match r.op {
            Operation::Lookup => self.lookup_formula(t, b)?,
            Operation::Product if r.constants.is_empty() => self.product_of_mentions(t, b)?,
            Operation::Product | Operation::Quotient => self.by_constant_formula(t, b)?,
            Operation::Scale => self.scale_formula(t, b)?,
            Operation::Comparison => self.comparison_formula(t, b)?,
            Operation::Change | Operation::PercentageChange => self.change_formula(t, b)?,
            Operation::Ratio => return self.ratio_formula(t, b),
            Operation::Sum | Operation::Average => self.sum_formula(t, b)?,
        };
        Ok((r.op, formula))
    }

    /// "A less B", "X without Y (and Z)", "the remaining contributions": a
    /// difference a look-up asks, recorded as a change (later turns may
    /// name it).
    fn difference_step(&self, t: &Turn<'_>, b: &mut PlanBuilder) -> Option<Planned> {
        let r = &t.r;
        let difference_pair = if r.op == Operation::Lookup && r.less {
            self.difference_of_mentions(t)
        } else if r.op == Operation::Lookup {
            self.total_without(t).or_else(|| self.value_excluding(t))
        } else {
            None
        };
        let (x, y) = difference_pair.or_else(|| {
            self.remainder_of_last_two(t)
                .map(|(whole, part)| (whole, Whole::One(part)))
        })?;
        let formula = match y {
            Whole::One(y) => self.change_pair_formula(b, Operation::Change, x, y),
            Whole::Sum(terms) => {
                let n = b.add("new", x);
                let o: Vec<String> = terms.into_iter().map(|t| b.add("old", t)).collect();
                self.formulas.sum(&o).and_then(|old| {
                    let old = grouped(&old);
                    self.formulas
                        .fill(Operation::Change, &[("new", &n), ("old", &old)], &[])
                })
            }
        };
        Some(formula.map(|f| (Operation::Change, f)))
    }

    /// Arithmetic carried on from the last result ("plus X?", "less the
    /// current portion?", "what about in percentage?") and the last share
    /// or sum repeated in another year ("what about in 2008?").
    fn carried_step(&self, t: &Turn<'_>, b: &mut PlanBuilder) -> Option<Planned> {
        let r = &t.r;
        if let Some((op, last, named)) = self.continued_arithmetic(t) {
            let formula = match op {
                Operation::Sum => {
                    let terms = [b.add("term", last), b.add("term", named)];
                    self.formulas.sum(&terms)
                }
                _ => self.change_pair_formula(b, op, last, named),
            };
            return Some(formula.map(|f| (op, f)));
        }
        if let Some(formula) = self.percent_restatement(t, b) {
            return Some(formula.map(|f| (Operation::Product, f)));
        }
        // "what about in 2008?", "and what was that percentage in 2010?"
        // after a share: the same rows' share that year
        let repeats_ratio = r.op == Operation::Ratio && self.refers_in(&r.text);
        if r.op == Operation::Lookup || repeats_ratio {
            if let Some((num, den)) = super::ratio::ratio_in_another_year(t) {
                return Some(self.ratio_of(t, b, num, den).map(|f| (Operation::Ratio, f)));
            }
        }
        if r.op == Operation::Lookup {
            if let Some(terms) = super::ratio::sum_in_another_year(t) {
                return Some(self.sum_of(b, terms));
            }
        }
        None
    }

    /// A computation the page implies for words it does not print: a
    /// margin, a schedule's next years, the rows a name shares, a year's
    /// (or half year's) quarters, an average per unit, a range's midpoint,
    /// a printed percentage of an amount.
    fn implied_step(&self, t: &Turn<'_>, b: &mut PlanBuilder) -> Option<Planned> {
        if let Some((part, whole)) = self
            .margin_of_last_two(t)
            .or_else(|| self.margin_from_page(t))
        {
            let formula = self.ratio_of(t, b, part, Whole::One(whole));
            return Some(formula.map(|f| (Operation::Ratio, f)));
        }
        if let Some(terms) = self
            .next_years(t)
            .or_else(|| self.rows_sharing_a_name(t))
            .or_else(|| self.year_of_quarters(t))
            .or_else(|| self.half_of_year(t))
            .or_else(|| self.schedule_total(t))
        {
            return Some(self.sum_of(b, terms));
        }
        if let Some((part, whole)) = self
            .average_per(t)
            .or_else(|| self.average_per_from_page(t))
        {
            let (a, n) = (b.add("amount", part), b.add("count", whole));
            let formula = self
                .formulas
                .fill(Operation::Quotient, &[("a", &a), ("n", &n)], &[]);
            return Some(formula.map(|f| (Operation::Quotient, f)));
        }
        if let Some((low, high)) = self.midpoint_of_range(t) {
            let (a, h) = (b.add("low", low), b.add("high", high));
            let n = b.constant("count", Decimal::TWO);
            let slots = [("a", a.as_str()), ("b", h.as_str()), ("n", n.as_str())];
            let formula = self.formulas.fill(Operation::Average, &slots, &[]);
            return Some(formula.map(|f| (Operation::Average, f)));
        }
        let (amount, percent) = self.applied_percent(t)?;
        let formula = self.applied_percent_formula(b, amount, percent);
        Some(formula.map(|f| (Operation::Product, f)))
    }

    /// The sum of `terms`, each added to the plan as a term.
    fn sum_of(&self, b: &mut PlanBuilder, terms: Vec<Operand>) -> Planned {
        let names: Vec<String> = terms.into_iter().map(|o| b.add("term", o)).collect();
        self.formulas.sum(&names).map(|f| (Operation::Sum, f))
    }

    /// "what was the operating margin?" right after two values (operating
    /// income, then revenues) on a page that prints no margin: the value
    /// the question's other words name over the other one.
    fn margin_of_last_two(&self, t: &Turn<'_>) -> Option<(Operand, Operand)> {
        let margin: Vec<String> = self.cues.margin_word.iter().map(|w| stem(w)).collect();
        let asked = crate::words::tokens(&t.r.text)
            .iter()
            .any(|w| self.cues.margin_word.contains(w));
        if t.r.op != Operation::Lookup || !asked || margin.iter().any(|w| t.g.knows(w)) {
            return None;
        }
        let [.., earlier, later] = t.history.as_slice() else {
            return None;
        };
        if [earlier, later]
            .iter()
            .any(|h| h.metric_type != MetricType::Value)
        {
            return None;
        }
        let own: Vec<String> = self
            .cues
            .specific(&t.own_metric)
            .into_iter()
            .filter(|w| !margin.contains(w))
            .collect();
        let (part, whole) = match (names_result(earlier, &own), names_result(later, &own)) {
            (true, false) => (earlier, later),
            (false, true) => (later, earlier),
            _ => return None,
        };
        Some((reference_operand(part), reference_operand(whole)))
    }

    /// "what was the average number of licensed beds per hospital in
    /// 2011?" on a page that prints no amount per hospital: the amount the
    /// words before "per" name over the count the words after it name,
    /// both of the year.
    fn average_per_from_page(&self, t: &Turn<'_>) -> Option<(Operand, Operand)> {
        let r = &t.r;
        if r.op != Operation::Average || r.years.len() > 1 || !r.constants.is_empty() {
            return None;
        }
        let (before, after) = split_at_first(&r.text, &self.cues.per_word)?;
        let unit = crate::words::tokens(after).into_iter().next()?;
        let per = r.text[before.len()..].split_whitespace().next()?;
        let phrase = format!(" {per} {unit} ");
        if t.g.page.prints_phrase(&phrase) {
            return None;
        }
        if let Some(found) = self.unit_cost_in_a_sentence(t, &unit) {
            return Some(found);
        }
        let words_of = |text: &str| -> Vec<String> {
            content_words(text)
                .into_iter()
                .filter(|w| w.chars().any(char::is_alphabetic) && r.metric.contains(w))
                .collect()
        };
        let (amount, count) = (words_of(before), words_of(after));
        if amount.is_empty() || count.is_empty() {
            return None;
        }
        let year = r.years.first().copied().or(t.last_year);
        let a = t.g.ground(&amount, year).ok()?;
        let n = t.g.ground(&count, year).ok()?;
        (a.spec != n.spec).then_some((a, n))
    }

    /// "what amount matures over the next two years?" on a schedule of
    /// years: the mention's amounts in the schedule's first that many
    /// years, from one row (or column).
    fn next_years(&self, t: &Turn<'_>) -> Option<Vec<Operand>> {
        let r = &t.r;
        if !matches!(r.op, Operation::Lookup | Operation::Sum) || !r.years.is_empty() {
            return None;
        }
        let toks = crate::words::tokens(&r.text);
        let n = toks.windows(3).find_map(|w| {
            let n = self
                .cues
                .number_word(&w[1])
                .or_else(|| w[1].parse::<Decimal>().ok())?;
            (self.cues.coming_lead.contains(&w[0]) && stem(&w[2]) == "year").then_some(n)
        })?;
        let n: usize = n.to_string().parse().ok()?;
        let mut years: Vec<i32> = t
            .schema
            .cells
            .iter()
            .filter_map(|c| c.column_year.or(c.row_year))
            .collect();
        years.sort_unstable();
        years.dedup();
        if !(2..=10).contains(&n) || years.len() < n || t.own_metric.is_empty() {
            return None;
        }
        // the span's own words name no amount
        let span: Vec<String> = self.cues.coming_lead.iter().map(|w| stem(w)).collect();
        let mut mention: Vec<String> = t
            .metric
            .iter()
            .filter(|w| !span.contains(w) && *w != "year" && self.cues.number_word(w).is_none())
            .cloned()
            .collect();
        // "the total maturities": the total line's amounts
        let total = &self.cues.total_word;
        if toks.contains(total) && !mention.contains(total) {
            mention.push(total.clone());
        }
        let terms: Vec<Operand> = years[..n]
            .iter()
            .map(|y| t.g.ground(&mention, Some(*y)).ok())
            .collect::<Option<_>>()?;
        // one row's amounts (years as columns) or one column's (as rows)
        let cells: Vec<(usize, usize)> = terms.iter().filter_map(|o| o.cell).collect();
        let one_line = cells.len() == n
            && (cells.iter().all(|c| c.0 == cells[0].0) || cells.iter().all(|c| c.1 == cells[0].1));
        (one_line && !repeats_a_value(&terms)).then_some(terms)
    }

    /// "what was the operating margin in 2010?" on a page that prints no
    /// such margin: the profit of that name ("operating income") over the
    /// revenue, both of the year.
    fn margin_from_page(&self, t: &Turn<'_>) -> Option<(Operand, Operand)> {
        let toks = crate::words::tokens(&t.r.text);
        let at = toks
            .iter()
            .position(|w| self.cues.margin_word.contains(w))?;
        let before = toks.get(at.checked_sub(1)?)?;
        let phrase = format!(" {before} {} ", toks[at]);
        if t.r.op != Operation::Lookup || t.g.page.prints_phrase(&phrase) {
            return None;
        }
        let margin: Vec<String> = self.cues.margin_word.iter().map(|w| stem(w)).collect();
        let own: Vec<String> = t
            .metric
            .iter()
            .filter(|w| !margin.contains(w))
            .cloned()
            .collect();
        if !own.iter().any(|w| !w.starts_with('@')) {
            return None;
        }
        let year = t.r.years.first().copied().or(t.last_year);
        // the best-scoring grounding of `mention` whose label prints `term`
        let best = |mentions: Vec<(Vec<String>, String)>| {
            mentions
                .into_iter()
                .filter_map(|(m, term)| {
                    let o = t.g.ground(&m, year).ok()?;
                    let label = content_words(&o.label);
                    let holds = content_words(&term).iter().all(|w| label.contains(w));
                    let score = o.grounding.as_ref()?.candidates.first()?.score;
                    holds.then_some((score, o))
                })
                .max_by(|a, b| a.0.total_cmp(&b.0))
                .map(|(_, o)| o)
        };
        let profit = best(
            self.cues
                .margin_profit_word
                .iter()
                .map(|p| {
                    let mut m = own.clone();
                    m.push(stem(p));
                    (m, format!("{before} {p}"))
                })
                .collect(),
        )?;
        let revenue = best(
            self.cues
                .margin_base_term
                .iter()
                .map(|term| (content_words(term), term.clone()))
                .collect(),
        )?;
        Some((profit, revenue))
    }

    /// "what were total additions in 2009?" on a table of two rows or more
    /// whose labels hold every word named that a row label prints
    /// ("additions for current year positions", "additions for prior year
    /// positions"), none of them a total and none named by those words
    /// alone: their cells in the year. So too "what was combined nevada
    /// output?", a sum of one mention (rows "red ridge ( nevada )", "silver
    /// pine ( nevada )"; "output" names the table).
    fn rows_sharing_a_name(&self, t: &Turn<'_>) -> Option<Vec<Operand>> {
        let one_mention_sum = t.r.op == Operation::Sum
            && t.r.years.len() <= 1
            && !t.r.refers
            && self.named_terms(t).is_none();
        if !(t.r.op == Operation::Lookup && t.r.weak_sum || one_mention_sum)
            || t.own_metric.is_empty()
        {
            return None;
        }
        let year = t.r.years.first().copied().or(t.last_year);
        let page = &t.g.page;
        // a line per unit ("average fuel price per gallon") adds to nothing
        if let Some(rows) = lines_sharing_a_name(&t.own_metric, &page.row_words, &page.row_is_total)
        {
            if rows.iter().any(|&k| page.row_per_unit[k]) {
                return None;
            }
            return rows
                .iter()
                .map(|&k| t.g.cell_of_row(&t.schema.rows[k].0, year))
                .collect();
        }
        // "what were total tons sold in 2012?" on a table whose rows are
        // years: the columns that share the name ("appalachia tons sold",
        // "powder river basin tons sold")
        let year = year?;
        let columns =
            lines_sharing_a_name(&t.own_metric, &page.column_words, &page.column_is_total)?;
        if columns.iter().any(|&k| page.column_per_unit[k]) {
            return None;
        }
        columns
            .iter()
            .map(|&k| t.g.only_cell(|c| c.column == k && c.row_year == Some(year)))
            .collect()
    }

    /// "what were total dividends declared in 2009?" ("full year net
    /// income") on a table of the year's quarters without a total: the four
    /// quarters' cells.
    fn year_of_quarters(&self, t: &Turn<'_>) -> Option<Vec<Operand>> {
        let whole_year = t.r.weak_sum || contains_any(&t.r.text, &self.cues.full_year);
        if t.r.op != Operation::Lookup
            || !whole_year
            || t.own_metric.is_empty()
            || t.g.asked_quarter.is_some()
        {
            return None;
        }
        let year = t.r.years.first().copied().or(t.last_year);
        let one = t.g.ground(&t.metric, year).ok()?;
        t.g.quarters_of(&one)
    }

    /// "what is the total of the purchase obligations?" on a schedule of
    /// years ("2013" ... "thereafter") that prints no total line across
    /// them, no year asked or carried: the mention's line over every period.
    fn schedule_total(&self, t: &Turn<'_>) -> Option<Vec<Operand>> {
        let r = &t.r;
        let totalled = r.op == Operation::Sum || r.op == Operation::Lookup && r.weak_sum;
        if !totalled
            || !r.years.is_empty()
            || r.refers && !t.history.is_empty()
            || t.last_year.is_some()
            || t.own_metric.is_empty()
        {
            return None;
        }
        let page = &t.g.page;
        let is_after = |label: &str| {
            crate::words::tokens(label)
                .iter()
                .any(|w| self.cues.thereafter.contains(w))
        };
        let schema = t.schema;
        let across_columns = schema.columns.iter().any(|(l, _)| is_after(l));
        let across_rows = schema.rows.iter().any(|(l, _)| is_after(l));
        let totals = if across_columns {
            &page.column_is_total
        } else {
            &page.row_is_total
        };
        if across_columns == across_rows || totals.contains(&true) {
            return None;
        }
        let total = stem(&self.cues.total_word);
        let mention: Vec<String> = t.metric.iter().filter(|w| **w != total).cloned().collect();
        let (row, column) = t.g.ground(&mention, None).ok()?.cell?;
        let line: Vec<&CellEntry> = schema
            .cells
            .iter()
            .filter(|c| {
                if across_columns {
                    c.row == row
                } else {
                    c.column == column
                }
            })
            .collect();
        (line.len() >= 2).then(|| line.iter().map(|c| t.g.cell_value(c)).collect())
    }

    /// "what were net sales in the first half of 2012?" on a table of the
    /// year's quarters: the cells of its first (or second) two quarters.
    fn half_of_year(&self, t: &Turn<'_>) -> Option<Vec<Operand>> {
        let half = if contains_any(&t.r.text, &self.cues.first_half) {
            [1, 2]
        } else if contains_any(&t.r.text, &self.cues.second_half) {
            [3, 4]
        } else {
            return None;
        };
        if t.r.op != Operation::Lookup || t.metric.is_empty() {
            return None;
        }
        let year = t.r.years.first().copied().or(t.last_year);
        let one = t.g.ground(&t.metric, year).ok()?;
        let quarters = t.g.quarter_values_of(&one)?;
        Some(
            quarters
                .into_iter()
                .filter(|(q, _)| half.contains(q))
                .map(|(_, v)| v)
                .collect(),
        )
    }

    /// "what is the average price per share?" after the amount spent and
    /// the number of shares, when the page prints no such average: the
    /// earlier result whose question names what the average is per is the
    /// whole, the other the part.
    fn average_per(&self, t: &Turn<'_>) -> Option<(Operand, Operand)> {
        let r = &t.r;
        if r.op != Operation::Average || !r.years.is_empty() || !r.constants.is_empty() {
            return None;
        }
        let (_, after) = split_at_first(&r.text, &self.cues.per_word)?;
        // what it is per, a noun of time too ("per year"): stems of all words
        let stems = |text: &str| -> Vec<String> {
            crate::words::tokens(text)
                .iter()
                .map(|w| crate::words::stem(w))
                .collect()
        };
        let per = stems(after);
        let per = per.first()?;
        let named: Vec<&String> = r.metric.iter().filter(|w| !w.starts_with('@')).collect();
        let printed = |text: &str| {
            let words = content_words(text);
            named.iter().all(|w| words.contains(*w))
        };
        let s = t.schema;
        if !named.is_empty()
            && (s.rows.iter().chain(&s.columns).any(|(l, _)| printed(l))
                || s.sentences.iter().any(|x| printed(x)))
        {
            return None;
        }
        let [.., a, b] = t.history.as_slice() else {
            return None;
        };
        // the count: the one that names what the average is per, or when
        // both do, the one asked "how many"
        // "the average per year" after a sum over three years: a sum of
        // years counts no years, it is the amount their average divides
        let per_time = self
            .cues
            .duration_word
            .iter()
            .any(|d| crate::words::stem(d) == *per);
        let counts = |h: &crate::turn::TurnResult| {
            let q = normalise_question(&h.question);
            let sum_of_years = per_time && h.metric_type == MetricType::Sum;
            (
                stems(&h.question).contains(per) && !sum_of_years,
                contains_any(&q, &self.cues.count_ask),
            )
        };
        let (ca, cb) = (counts(a), counts(b));
        let b_counts = match (ca.0, cb.0) {
            (false, true) => true,
            (true, false) => false,
            (true, true) if ca.1 != cb.1 => cb.1,
            _ => return None,
        };
        if b_counts {
            Some((reference_operand(a), reference_operand(b)))
        } else {
            Some((reference_operand(b), reference_operand(a)))
        }
    }

    /// "what about in percentage?" after a ratio: the ratio times 100, when
    /// the question names nothing else.
    fn percent_restatement(
        &self,
        t: &Turn<'_>,
        b: &mut PlanBuilder,
    ) -> Option<Result<String, PlanError>> {
        let r = &t.r;
        if r.op != Operation::Ratio || !r.constants.is_empty() {
            return None;
        }
        let (before, after) = split_at_first(&r.text, &self.cues.percent_restatement)?;
        let names_nothing = content_words(after).is_empty()
            && self
                .cues
                .specific(&self.cues.mention_words(before))
                .is_empty();
        let last = t.history.last().filter(|h| {
            matches!(
                h.metric_type,
                MetricType::Ratio | MetricType::PercentageChange
            )
        })?;
        if !names_nothing {
            return None;
        }
        let a = b.add("base", reference_operand(last));
        let n = b.constant("n", Decimal::ONE_HUNDRED);
        Some(
            self.formulas
                .fill(Operation::Product, &[("a", &a), ("n", &n)], &[]),
        )
    }

    /// The count and unit price printed in the row of `o`, a cell of a
    /// column that counts or (when the question says "total") of one that
    /// prices a unit, when the row prints exactly one of the other:
    /// "1442912 options" and their "weighted-average exercise price".
    fn count_and_unit_price(&self, t: &Turn<'_>, o: &Operand) -> Option<(Operand, Operand)> {
        let (row, column) = o.cell?;
        let page = &t.g.page;
        let counts = |c: usize| page.column_counts.get(c).copied().unwrap_or(false);
        let prices = |c: usize| page.column_unit_price.get(c).copied().unwrap_or(false);
        let other_of_row = |wanted: &dyn Fn(usize) -> bool| -> Option<Operand> {
            let cells: Vec<_> = t
                .schema
                .cells
                .iter()
                .filter(|c| c.row == row && c.column != column && wanted(c.column))
                .collect();
            match cells.as_slice() {
                [c] => Some(t.g.cell_value(c)),
                _ => None,
            }
        };
        if counts(column) {
            Some((o.clone(), other_of_row(&prices)?))
        } else if prices(column) && t.g.asks_total {
            // "the total fair value of the rsus vested", not "the fair
            // value of rsus granted" (the column's own name)
            Some((other_of_row(&counts)?, o.clone()))
        } else {
            None
        }
    }

    /// One value; "what was the total, in thousands?" of "$ 8.5 million"
    /// converts it to the scale asked for (the scale pattern's template).
    fn lookup_formula(&self, t: &Turn<'_>, b: &mut PlanBuilder) -> Result<String, PlanError> {
        let year = t.r.years.first().copied().or(t.last_year);
        let o = match self.bare_total(t) {
            Some(total) => total,
            None => t.g.ground(&t.metric, year)?,
        };
        // "what is the total value of the options?": a count times the unit
        // price its row prints; "what was total fuel cost?": the gallons
        // consumed times the price per gallon, two rows of the column
        let value_asked = contains_any(&t.r.text, &self.cues.value_ask);
        let money_asked = contains_any(&t.r.text, &self.cues.money_ask);
        let found = value_asked
            .then(|| self.count_and_unit_price(t, &o))
            .flatten()
            .or_else(|| {
                money_asked
                    .then(|| self.quantity_and_unit_price_rows(t, &o))
                    .flatten()
            });
        if let Some((count, price)) = found {
            let a = b.add("count", count);
            let n = b.add("unit_price", price);
            return self
                .formulas
                .fill(Operation::Product, &[("a", &a), ("n", &n)], &[]);
        }
        // "the annualized dividend" on a quarterly one: four of them
        if let Some(n) = self.periods_per_year(t, &o) {
            let a = b.add("rate", o);
            let n = b.constant(super::annualised::PERIODS, n);
            return self
                .formulas
                .fill(Operation::Product, &[("a", &a), ("n", &n)], &[]);
        }
        let asked = self.asked_scale(&t.r.text);
        let printed = o.scale.as_ref().map(Scale::multiplier);
        let v = b.add("value", o);
        match (printed, asked) {
            (Some(from), Some(to)) if from != to => {
                let f = b.constant("from_scale", from);
                let to = b.constant("to_scale", to);
                let slots = [("a", v.as_str()), ("from", &f), ("to", &to)];
                self.formulas.fill(Operation::Scale, &slots, &[])
            }
            _ => self.formulas.fill(Operation::Lookup, &[("x", &v)], &[]),
        }
    }

    /// "and the total?" after a look-up of one cell, naming nothing else:
    /// the total of that cell's column (or row).
    fn bare_total(&self, t: &Turn<'_>) -> Option<Operand> {
        if !t.r.weak_sum || !t.r.years.is_empty() || !self.cues.specific(&t.r.metric).is_empty() {
            return None;
        }
        let last = reference_operand(t.history.last()?);
        let total = vec![self.cues.total_word.clone()];
        match t.g.total_for(&last, &total)? {
            Whole::One(o) => Some(o),
            Whole::Sum(_) => None,
        }
    }

    /// The percentage the page prints for the question's words, when a
    /// ratio finds no part and whole of its own.
    fn printed_percentage(
        &self,
        t: &Turn<'_>,
        b: &mut PlanBuilder,
    ) -> Option<Result<String, PlanError>> {
        let o = printed_percent(t)?;
        let v = b.add("value", o);
        Some(self.formulas.fill(Operation::Lookup, &[("x", &v)], &[]))
    }

    /// The value the question's own words name, when it has some: a ratio
    /// or a portion the page prints under its name.
    fn named_value(&self, t: &Turn<'_>, b: &mut PlanBuilder) -> Option<Result<String, PlanError>> {
        if t.own_metric.is_empty() {
            return None;
        }
        let year = t.r.years.first().copied().or(t.last_year);
        let o = t.g.ground(&t.metric, year).ok()?;
        let v = b.add("value", o);
        Some(self.formulas.fill(Operation::Lookup, &[("x", &v)], &[]))
    }

    /// "what percentage of sales were outside the united states?" on a page
    /// that prints only the share inside (its sentence or row does not name
    /// the complement): 100 less that printed percentage.
    fn complement_share(
        &self,
        t: &Turn<'_>,
        b: &mut PlanBuilder,
    ) -> Option<Result<String, PlanError>> {
        if !contains_any(&t.r.text, &self.cues.complement_word) {
            return None;
        }
        let o = printed_percent(t)?;
        let source = crate::words::normalise_question(&o.label);
        if contains_any(&source, &self.cues.complement_word) {
            return None;
        }
        let whole = b.constant("whole", Decimal::ONE_HUNDRED);
        let v = b.add("share", o);
        Some(
            self.formulas
                .fill(Operation::Change, &[("new", &whole), ("old", &v)], &[]),
        )
    }

    /// "what is the ratio times the 2011 value?": two mentioned factors.
    /// "what is the product of those?", naming nothing: the last two
    /// results.
    fn product_of_mentions(&self, t: &Turn<'_>, b: &mut PlanBuilder) -> Result<String, PlanError> {
        let (x, y) = match split_at_first(&t.r.text, &self.cues.product_connector) {
            Some((left, right)) => {
                let left = strip_ratio_lead(left, &self.cues);
                (
                    self.mention(left, t, t.last_year)?,
                    self.mention(right, t, t.last_year)?,
                )
            }
            None if t.own_metric.is_empty() => super::history::last_two(&t.history)?,
            None => {
                return Err(PlanError::Unsupported("a product needs two factors".into()));
            }
        };
        let a = b.add("factor", x);
        let c = b.add("factor", y);
        self.formulas
            .fill(Operation::Product, &[("a", &a), ("n", &c)], &[])
    }

    /// An earlier result (or a named value) times or divided by the
    /// question's last constant.
    fn by_constant_formula(&self, t: &Turn<'_>, b: &mut PlanBuilder) -> Result<String, PlanError> {
        let r = &t.r;
        let base = if r.refers || t.own_metric.is_empty() {
            last_result(&t.history)?
        } else {
            t.g.ground(&t.metric, r.years.first().copied().or(t.last_year))?
        };
        let a = b.add("base", base);
        let n = r.constants.last().copied().unwrap_or(Decimal::ONE);
        let c = b.constant("n", n);
        self.formulas.fill(r.op, &[("a", &a), ("n", &c)], &[])
    }

    /// The last result restated in the scale asked for.
    fn scale_formula(&self, t: &Turn<'_>, b: &mut PlanBuilder) -> Result<String, PlanError> {
        let last = t
            .history
            .last()
            .ok_or_else(|| PlanError::NoEarlierResult("this is the first answered turn".into()))?;
        let (from, to) = self.scales(last, &t.r.text, t.schema);
        let a = b.add("base", reference_operand(last));
        let f = b.constant("from_scale", from);
        let to = b.constant("to_scale", to);
        let slots = [("a", a.as_str()), ("from", &f), ("to", &to)];
        self.formulas.fill(Operation::Scale, &slots, &[])
    }

    /// Whether the first value is greater than the second.
    fn comparison_formula(&self, t: &Turn<'_>, b: &mut PlanBuilder) -> Result<String, PlanError> {
        let (x, y) = self.comparison_operands(t)?;
        let a = b.add("first", x);
        let c = b.add("second", y);
        self.formulas
            .fill(Operation::Comparison, &[("a", &a), ("b", &c)], &[])
    }

    /// A change or percentage change of two values; a percentage change of
    /// an earlier change is that change over the value it started from,
    /// the shape of the ratio template.
    fn change_formula(&self, t: &Turn<'_>, b: &mut PlanBuilder) -> Result<String, PlanError> {
        match self.change_operands(t)? {
            ChangeInputs::Pair(new, old) => self.change_pair_formula(b, t.r.op, new, old),
            ChangeInputs::Printed(change) => {
                let v = b.add("value", change);
                self.formulas.fill(Operation::Lookup, &[("x", &v)], &[])
            }
            ChangeInputs::OfChange(change, old) => {
                let c = b.add("change", change);
                let o = b.add("old", old);
                self.formulas
                    .fill(Operation::Ratio, &[("part", &c), ("whole", &o)], &[])
            }
        }
    }

    /// `op`'s template (change or percentage change) over new and old.
    fn change_pair_formula(
        &self,
        b: &mut PlanBuilder,
        op: Operation,
        new: Operand,
        old: Operand,
    ) -> Result<String, PlanError> {
        let n = b.add("new", new);
        let o = b.add("old", old);
        self.formulas.fill(op, &[("new", &n), ("old", &o)], &[])
    }

    /// Part over whole. A whole that is a column's sum is the sum template
    /// in the whole's slot; a part and whole printed in different scales
    /// are each multiplied by their scale (the product template) first. A
    /// share the page prints is read, and recorded as a look-up (so that
    /// "and in 2011?" reads the same sentence's or row's next one).
    fn ratio_formula(&self, t: &Turn<'_>, b: &mut PlanBuilder) -> Planned {
        let ratio = |f: Result<String, PlanError>| f.map(|f| (Operation::Ratio, f));
        let read = |f: Result<String, PlanError>| f.map(|f| (Operation::Lookup, f));
        if let Some(f) = self.complement_share(t, b) {
            return ratio(f);
        }
        let (num, den) = match self.ratio_operands(t) {
            Ok(pair) => pair,
            // "what was the operating profit for the americas as a percentage
            // of net sales?" on a page that prints that percentage: read it
            // (or, printing none, "what was the medical loss ratio in
            // 2012?" and "the funded portion of backlog": a value the page
            // names so)
            Err(e @ PlanError::NoEarlierResult(_)) => {
                return read(
                    self.printed_percentage(t, b)
                        .or_else(|| self.named_value(t, b))
                        .unwrap_or(Err(e)),
                );
            }
            Err(e) => return Err(e),
        };
        // "and what percentage of them are covered by collective bargaining
        // agreements?": a part that meets none of the question's words is
        // no part the page prints; a percentage printed for them is
        // (or whose whole is a printed percentage, or that misses words of
        // the question a printed percentage holds every one of: "what
        // percent of net sales came from the largest customer?" on a page
        // whose table prints only the net sales)
        let mut own = self.cues.specific(&t.own_metric);
        own.retain(|w| t.g.knows(w));
        let whole_is_percent = matches!(&den, Whole::One(d) if d.percent) && !num.percent;
        let grounded = matches!(num.spec, ValueSpec::Sparql { .. });
        let weak_part =
            meets_no_word(&num) || (grounded && (whole_is_percent || misses_words(&num, &own)));
        if weak_part {
            let printed = best_printed_percent(t)
                .filter(|o| !meets_no_word(o) && (!misses_words(o, &own) || meets_no_word(&num)));
            if let Some(printed) = printed {
                let v = b.add("value", printed);
                return read(self.formulas.fill(Operation::Lookup, &[("x", &v)], &[]));
            }
        }
        ratio(self.ratio_of(t, b, num, den))
    }

    /// The formula of a part over its whole, in one scale.
    fn ratio_of(
        &self,
        t: &Turn<'_>,
        b: &mut PlanBuilder,
        num: Operand,
        den: Whole,
    ) -> Result<String, PlanError> {
        // "what percentage of net sales were in the united states?" where the
        // part is a percentage the page prints of an amount, or of a whole
        // printed as 100% (a table of shares): that is the share
        let whole_of_shares = |d: &Operand| {
            d.percent
                && d.cell.is_some_and(|(row, column)| {
                    t.g.schema.cells.iter().any(|c| {
                        c.row == row && c.column == column && c.value == Decimal::ONE_HUNDRED
                    })
                })
        };
        if matches!(&den, Whole::One(d) if num.percent && (!d.percent || whole_of_shares(d))) {
            let v = b.add("value", num);
            return self.formulas.fill(Operation::Lookup, &[("x", &v)], &[]);
        }
        let part_scale = num.scale.as_ref().map(Scale::multiplier);
        let n = b.add("part", num);
        let (part, whole) = match den {
            Whole::One(den) => {
                let whole_scale = den.scale.as_ref().map(Scale::multiplier);
                let d = b.add("whole", den);
                match (part_scale, whole_scale) {
                    // "$ 8.5 million" of a table "( in thousands )"
                    (Some(p), Some(w)) if p != w => {
                        let ps = b.constant("part_scale", p);
                        let ws = b.constant("whole_scale", w);
                        let scaled = |x: &str, s: &str| {
                            self.formulas
                                .fill(Operation::Product, &[("a", x), ("n", s)], &[])
                        };
                        (grouped(&scaled(&n, &ps)?), grouped(&scaled(&d, &ws)?))
                    }
                    _ => (n, d),
                }
            }
            Whole::Sum(terms) => {
                let d: Vec<String> = terms.into_iter().map(|t| b.add("whole", t)).collect();
                (n, grouped(&self.formulas.sum(&d)?))
            }
        };
        self.formulas
            .fill(Operation::Ratio, &[("part", &part), ("whole", &whole)], &[])
    }

    /// A sum of its terms, or an average: the average template over two or
    /// more terms, an earlier sum (or one value) over the count by the
    /// quotient template.
    fn sum_formula(&self, t: &Turn<'_>, b: &mut PlanBuilder) -> Result<String, PlanError> {
        let terms = match self.sum_operands(t) {
            Ok(terms) => terms,
            // "the weighted average discount rate in 2015": a look-up after all
            Err(PlanError::Unsupported(_)) => SumTerms::Values(vec![t
                .g
                .ground(&t.metric, t.r.years.first().copied().or(t.last_year))?]),
            Err(e) => return Err(e),
        };
        let (names, count): (Vec<String>, usize) = match terms {
            SumTerms::Values(ops) => {
                let n = ops.len();
                (ops.into_iter().map(|o| b.add("term", o)).collect(), n)
            }
            SumTerms::SumResult(o, n) => (vec![b.add("sum", o)], n),
        };
        if t.r.op == Operation::Sum {
            return self.formulas.sum(&names);
        }
        let c = b.constant("count", Decimal::from(count as u64));
        match names.as_slice() {
            [a, b2, more @ ..] => {
                let slots = [("a", a.as_str()), ("b", b2), ("n", &c)];
                self.formulas.fill(Operation::Average, &slots, more)
            }
            _ => {
                let sum = self.formulas.sum(&names)?;
                self.formulas
                    .fill(Operation::Quotient, &[("a", &sum), ("n", &c)], &[])
            }
        }
    }
}

/// The best-scoring printed percentage for the question's words, passing
/// over the few better candidates that print none.
fn best_printed_percent(t: &Turn<'_>) -> Option<Operand> {
    let year = t.r.years.first().copied().or(t.last_year);
    let mut turn = t.clone();
    turn.g.wants_percent = true;
    for _ in 0..3 {
        let o = turn.g.ground(&t.metric, year).ok()?;
        if o.percent {
            return Some(o);
        }
        turn = turn.leaving_out(&o)?;
    }
    None
}

/// Whether some of `own` (the question's specific words) are not among
/// the words of what `o` reads (a cell's row and column, a sentence's
/// words around the number).
fn misses_words(o: &Operand, own: &[String]) -> bool {
    let read = content_words(o.read_text());
    own.iter()
        .any(|w| !read.iter().any(|r| super::ground::same_word(r, w)))
}

/// Whether `o` was grounded on a candidate that meets none of the
/// mention's words (a year alone chose it).
fn meets_no_word(o: &Operand) -> bool {
    let no_word = super::features::Feature::no_word_met.name();
    o.grounding
        .as_ref()
        .and_then(|g| g.candidates.first())
        .is_some_and(|c| c.features.iter().any(|(name, _)| *name == no_word))
}

/// The question's metric grounded in its year (or the conversation's), when
/// that is a percentage the page prints.
fn printed_percent(t: &Turn<'_>) -> Option<Operand> {
    let year = t.r.years.first().copied().or(t.last_year);
    // a ratio's grounder leaves printed percentages unwanted: here they are sought
    let mut g = t.g.clone();
    g.wants_percent = true;
    g.ground(&t.metric, year).ok().filter(|o| o.percent)
}

/// The lines (rows or columns, by their labels' words) whose labels hold
/// every word of `metric` that some line prints, when those are at least
/// half of its words (the rest name the table) and two lines or more hold
/// them, none a total and none named by those words alone.
fn lines_sharing_a_name(
    metric: &[String],
    labels: &[Vec<String>],
    is_total: &[bool],
) -> Option<Vec<usize>> {
    let in_label =
        |label: &[String], w: &String| label.iter().any(|l| super::ground::same_word(l, w));
    let named: Vec<&String> = metric
        .iter()
        .filter(|w| labels.iter().any(|l| in_label(l, w)))
        .collect();
    if named.is_empty() || 2 * named.len() < metric.len() {
        return None;
    }
    let lines: Vec<usize> = (0..labels.len())
        .filter(|&k| named.iter().all(|w| in_label(&labels[k], w)))
        .collect();
    let named_alone = lines
        .iter()
        .any(|&k| is_total[k] || labels[k].len() <= named.len());
    (lines.len() >= 2 && !named_alone).then_some(lines)
}

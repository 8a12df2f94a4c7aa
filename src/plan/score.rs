//! The feature vector of each kind of grounding candidate: a table cell, a
//! number printed in a column header, a number of the text. The features
//! and their weights are in [`super::features`].

use super::cues::Boundary;
use super::features::{Feature as F, FeatureVector};
use super::ground::{same_word, Asked, AskedUnit, Grounder};
use crate::kg::schema::HeaderNumberEntry;
use crate::kg::{CellEntry, FactEntry};
use crate::turn::Scale;
use crate::words::{self, content_words};

impl Grounder<'_> {
    /// The features of a table cell.
    pub(super) fn cell_features(&self, cell: &CellEntry, a: &Asked) -> FeatureVector {
        let mut f = FeatureVector::default();
        let (row_hit, col_hit) = self.cell_word_features(&mut f, cell, a);
        self.total_features(&mut f, cell, a, (row_hit, col_hit));
        // a group that lost its name is named like the groups that kept
        // theirs, with other words ("u.s. subsidiaries", "bermuda
        // subsidiaries")
        let named = &self.page.column_unnamed_group[cell.column];
        if a.words
            .iter()
            .any(|w| named.iter().any(|n| same_word(n, w)))
        {
            f.set(F::lost_group_name, self.unnamed_share(a, false));
        }
        if row_hit == 0.0
            && col_hit > 0.0
            && self.earlier.contains(&cell.row_label)
            && col_hit >= 0.5 * self.column_asked_weight(cell.column, a)
        {
            f.set(F::earlier_row_other_column, 1.0);
        }
        // "what were total liabilities in 2008?" names its row anew
        if row_hit > 0.0
            && (self.continues || !a.names_a_row)
            && self.sibling_of_last_row(cell.row, a)
        {
            f.set(F::sibling_of_last_row, 1.0);
        }
        if col_hit == 0.0
            && !a.names_a_column
            && !self.asks_total
            && row_hit >= 0.5 * a.weight
            && (cell.column_year.is_none() || self.year_shares_columns(cell.column, a.year))
            && self.earlier_columns.contains(&cell.column)
        {
            f.set(F::earlier_column_other_row, 1.0);
        }
        // the beginning of a year is the end of the year before
        let (boundary, year) = match self.opening_year(a.boundary, a.year) {
            Some(y) => (Some(Boundary::End), Some(y)),
            None => (a.boundary, a.year),
        };
        self.cell_cue_features(&mut f, cell, boundary);
        self.cell_year_features(&mut f, cell, year);
        if self.asks_row_range && cell.row_year.is_some() {
            f.set(F::range_other, 1.0);
        }
        // a question without the word may still mean such a row: "other"
        // is part of fixed terms ("other comprehensive income")
        // and only when the table's labels print the mention's other words
        // ("the other debt" beside "total debt"), not when they are the
        // text's ("the other regulatory credits")
        let labelled = |w: &String| {
            let page = &self.page;
            page.row_words
                .iter()
                .chain(&page.column_words)
                .any(|l| l.iter().any(|x| same_word(x, w)))
        };
        if self.asks_catch_all
            && self.page.row_is_catch_all[cell.row]
            && a.words.iter().all(|w| w.starts_with('@') || labelled(w))
        {
            f.set(F::catch_all_agrees, 1.0);
        }
        f
    }

    /// The weight of the mention's words a follow-up that names a column
    /// must mostly spend on it: all of them, or for a continuation that
    /// names the column's every word, those some label prints ("and using
    /// level 2 inputs?": no label prints "inputs").
    fn column_asked_weight(&self, column: usize, a: &Asked) -> f64 {
        let words = &self.page.column_words[column];
        let whole_column = !words.is_empty()
            && words
                .iter()
                .all(|c| a.words.iter().any(|w| same_word(c, w)));
        if self.continues && whole_column {
            self.weigh(a.words.iter().filter(|w| self.labelled(w)))
        } else {
            a.weight
        }
    }

    /// Whether a row is a sibling of a row the last turn read: that row's
    /// label prints every word of this one's the mention does not meet (one
    /// at least), and the mention meets a word of this one that row lacks.
    fn sibling_of_last_row(&self, row: usize, a: &Asked) -> bool {
        if self.earlier_rows.contains(&row) {
            return false;
        }
        let words = &self.page.row_words[row];
        let met = |w: &String| a.words.iter().any(|q| same_word(q, w));
        let rest: Vec<&String> = words.iter().filter(|w| !met(w)).collect();
        !rest.is_empty()
            && self.earlier_rows.iter().any(|&r| {
                let last = &self.page.row_words[r];
                let printed = |w: &String| last.iter().any(|l| same_word(l, w));
                rest.iter().all(|w| printed(w)) && words.iter().any(|w| met(w) && !printed(w))
            })
    }

    /// The phrase share of the words beside the text numbers that restate
    /// row `row`'s amount rounded in another scale ("net sales in north
    /// america increased 6.3 % in 2012 , to $ 6.4 billion" for a lost row's
    /// 6,412 in millions), in `year` or of no year: the text's name for the
    /// amount the table prints exactly; none when the question asks for a
    /// scale.
    fn restated_phrase(&self, row: usize, year: Option<i32>, a: &Asked) -> f64 {
        // asked in another scale ("in billions"), the text's own number is
        if self.asked_scale.is_some() {
            return 0.0;
        }
        let restating = self
            .page
            .row_restated_by
            .get(row)
            .map_or(&[][..], Vec::as_slice);
        restating
            .iter()
            .filter(|&&k| {
                let fact_year = self.schema.facts[k].year;
                year.is_none() || fact_year.is_none() || fact_year == year
            })
            .map(|&k| Self::phrase_share(a.mention, &self.page.fact_words[k].0))
            .fold(0.0, f64::max)
    }

    /// The mention's words in the cell's labels, the row label's words the
    /// mention covers, the phrases they share; returns the overlap with the
    /// row label and with the column label.
    fn cell_word_features(&self, f: &mut FeatureVector, cell: &CellEntry, a: &Asked) -> (f64, f64) {
        let q = &a.words;
        let row = &self.page.row_words[cell.row];
        let col = &self.page.column_words[cell.column];
        let row_hit = self.overlap(q, row);
        let col_hit = self.overlap(q, col);
        let head = &self.page.row_head_words[cell.row];
        if row_hit > 0.0 && !head.is_empty() && self.overlap(q, head) == 0.0 {
            f.set(F::head_unmet, 1.0);
        }
        let alias = &self.page.row_alias_words[cell.row];
        f.set(F::label_match, self.label_share(a, row, col, alias));
        self.stem_only_features(f, cell, q);
        // the words the text prints beside the row's amount, those no label
        // prints
        // a total row takes the table's caption for its name, unless the
        // mention names another row in full ("total debt")
        let caption: &[String] = match &self.page.row_caption_words[cell.row] {
            c if c.is_empty() || a.names_a_row => &[],
            c => c,
        };
        let text = self.page.row_text_words[cell.row].iter().chain(caption);
        let text_hit = self.weigh(q.iter().filter(|w| {
            text.clone().any(|l| same_word(l, w))
                && !row
                    .iter()
                    .chain(col.iter())
                    .chain(alias.iter())
                    .any(|l| same_word(l, w))
        }));
        f.set(F::text_alias_match, text_hit / a.weight);
        if !row.is_empty() {
            let covered = row
                .iter()
                .filter(|w| q.iter().any(|x| same_word(x, w)))
                .count();
            f.set(F::row_cover, covered as f64 / row.len() as f64);
        }
        if !col.is_empty() {
            let covered = col
                .iter()
                .filter(|w| q.iter().any(|x| same_word(x, w)))
                .count();
            f.set(F::column_cover, covered as f64 / col.len() as f64);
        }
        f.set(
            F::phrase,
            Self::phrase_share(a.mention, row)
                .max(Self::phrase_share(a.mention, col))
                .max(self.restated_phrase(cell.row, cell.column_year, a)),
        );
        if self.numbered_row[cell.row] || self.numbered_column[cell.column] {
            f.set(F::numbered_phrase, 1.0);
        }
        // labels that meet only the words that say when ("fourth quarter")
        // name no value: the period is the quarter's and year's features
        if self.meets_only_period_words(q, row, col) {
            for word_feature in [
                F::label_match,
                F::row_cover,
                F::column_cover,
                F::phrase,
                F::numbered_phrase,
                F::stem_only_match,
            ] {
                f.set(word_feature, 0.0);
            }
            f.set(F::period_words_only, 1.0);
            return (0.0, 0.0);
        }
        (row_hit, col_hit)
    }

    /// Sets the share of the row and column words the mention meets only
    /// by their stem ("exercised" for "exercisable").
    fn stem_only_features(&self, f: &mut FeatureVector, cell: &CellEntry, q: &[&String]) {
        let met: Vec<&(String, String)> = self.page.row_surface[cell.row]
            .iter()
            .chain(&self.page.column_surface[cell.column])
            .filter(|(stem, _)| q.iter().any(|w| same_word(stem, w)))
            .collect();
        if !met.is_empty() {
            let inexact = met
                .iter()
                .filter(|(_, s)| !self.surface.contains(s))
                .count();
            f.set(F::stem_only_match, inexact as f64 / met.len() as f64);
        }
    }

    /// Whether the labels meet only the mention's words that say when,
    /// the mention has others, and the text prints one of those others.
    fn meets_only_period_words(&self, q: &[&String], row: &[String], col: &[String]) -> bool {
        let period = |w: &&String| self.period_words.contains(w.as_str());
        let met_asked: Vec<&&String> = q
            .iter()
            .filter(|w| row.iter().chain(col.iter()).any(|l| same_word(l, w)))
            .collect();
        // ... when the text prints the other words beside a number: the
        // value is there ("we repurchased 1.4 million shares")
        let named_in_text = || {
            self.page.fact_words.iter().any(|(context, _)| {
                q.iter()
                    .filter(|w| !period(w))
                    .any(|w| context.iter().any(|c| same_word(c, w)))
            })
        };
        !met_asked.is_empty()
            && met_asked.iter().all(|w| period(w))
            && !q.iter().all(period)
            && named_in_text()
    }

    /// Share of the mention's weight its words carry in a cell's row,
    /// column and row alias labels.
    fn label_share(&self, a: &Asked, row: &[String], col: &[String], alias: &[String]) -> f64 {
        let q = &a.words;
        // a word the row and the column both carry counts once
        let carries = |label: &[String], w: &str| label.iter().any(|l| same_word(l, w));
        let hit = self.weigh(
            q.iter()
                .filter(|w| carries(row, w) || carries(col, w) || carries(alias, w)),
        );
        // unless the question says it twice, once for each ("the grant date
        // fair value of the rsus granted")
        let twice = self.weigh(q.iter().filter(|w| {
            a.mention.iter().filter(|m| m == *w).count() > 1 && carries(row, w) && carries(col, w)
        }));
        ((hit + twice) / a.weight).min(1.0)
    }

    /// Whether the mention holds every word of some row's label (a row
    /// named only "total" aside).
    pub(super) fn names_a_row(&self, words: &[&String]) -> bool {
        self.page
            .row_words
            .iter()
            .zip(&self.page.row_caption_words)
            .any(|(row, caption)| {
                caption.is_empty()
                    && !row.is_empty()
                    && row.iter().all(|w| words.iter().any(|x| same_word(x, w)))
            })
    }

    /// Whether the mention holds every word of a row other than the total
    /// row `total`, not itself a total, whose words the total's label does
    /// not all print: it names a part of the total ("the operating income
    /// of the transportation segment" beside "transportation" and "total
    /// operating income"), and the words it shares with the total name the
    /// measure all the parts share.
    fn names_a_part(&self, a: &Asked, total: usize) -> bool {
        let total_words = &self.page.row_words[total];
        let catch_all = &self.page.row_is_catch_all;
        a.named_parts.iter().any(|&r| {
            r != total
                && (!self.page.row_words[r]
                    .iter()
                    .all(|w| total_words.iter().any(|l| same_word(l, w)))
                    || (catch_all[r] && !catch_all[total]))
        })
    }

    /// The rows, not totals, whose every word the mention holds; a
    /// catch-all row ("other") counts when the question prints its word.
    pub(super) fn named_parts(&self, words: &[&String]) -> Vec<usize> {
        (0..self.page.row_words.len())
            .filter(|&r| {
                let label = &self.page.row_words[r];
                let catch_all = self.asks_catch_all && self.page.row_is_catch_all[r];
                !self.page.row_is_total[r]
                    && (!label.is_empty() || catch_all)
                    && label.iter().all(|w| words.iter().any(|x| same_word(x, w)))
            })
            .collect()
    }

    /// Whether a word of the mention that column `column`'s label does not
    /// print is a word of the first row the table lost into its headers:
    /// its label, or the text's words beside its amount.
    fn names_lost_row(&self, a: &Asked, column: usize) -> bool {
        if self.schema.header_numbers.is_empty() {
            return false;
        }
        let page = &self.page;
        let lost = page.lost_row_label.iter().chain(&page.lost_row_text_words);
        Self::past_column(a, &page.column_words[column])
            .any(|w| lost.clone().any(|l| same_word(l, w)))
    }

    /// The mention's words that a column's label (its `column_words`) does
    /// not print.
    fn past_column<'w>(
        a: &'w Asked,
        column_words: &'w [String],
    ) -> impl Iterator<Item = &'w String> + 'w {
        a.words
            .iter()
            .copied()
            .filter(move |w| !column_words.iter().any(|c| same_word(c, w)))
    }

    /// Whether a word of the mention that the column's label does not
    /// print is printed by a row label ("contained ounces at the kestrel
    /// mine" beside a row "kestrel ( canada )"): the mention names a row,
    /// not only the column.
    fn names_another_row(&self, a: &Asked, column: usize) -> bool {
        Self::past_column(a, &self.page.column_words[column]).any(|w| {
            self.page
                .row_words
                .iter()
                .any(|r| r.iter().any(|x| same_word(x, w)))
        })
    }

    /// A total row or column where the mention names only the other axis,
    /// or where the question says "total".
    fn total_features(
        &self,
        f: &mut FeatureVector,
        cell: &CellEntry,
        a: &Asked,
        (row_hit, col_hit): (f64, f64),
    ) {
        let row_is_total = self.page.row_is_total[cell.row];
        let column_is_total = self.page.column_is_total[cell.column];
        // not when the words the column leaves name the row the table lost
        // into its headers ("net sales in north america" over headers
        // "north america $ 6,412")
        if row_hit == 0.0
            && col_hit > 0.0
            && row_is_total
            && !self.names_lost_row(a, cell.column)
            && !self.names_another_row(a, cell.column)
        {
            f.set(F::total_row_for_column, 1.0);
        }
        // a mention that names another column ("thereafter") names more
        // than a row; a year's total column ("2012 total" beside "2012
        // u.s.") is the year's when the mention names only the year
        if col_hit == 0.0
            && row_hit > 0.0
            && (cell.column_year.is_none() || self.year_shares_columns(cell.column, a.year))
            && column_is_total
            && !a.names_a_column
        {
            f.set(F::total_column_for_row, 1.0);
        }
        // ... or the row the table lost with its name, by words no label
        // prints ("how much of the purchase price was allocated to land?")
        let names_unnamed_lost_row =
            || !self.page.lost_row_unnamed.is_empty() && self.unnamed_share(a, false) > 0.0;
        if row_is_total
            && !self.asks_total
            && (self.names_a_part(a, cell.row) || names_unnamed_lost_row())
        {
            f.set(F::total_row_part_named, 1.0);
        }
        if row_is_total && self.names_the_total_measure(a, cell.row) {
            f.set(F::total_of_measure_named, 1.0);
        }
        if self.asks_total && (row_is_total || column_is_total) {
            // "what was the total?", naming no row: the grand total ("total")
            // before a part's ("total debt"), whose other words go unasked
            let words = self.page.row_words[cell.row].len();
            let share = if row_is_total && row_hit == 0.0 && words > 1 {
                1.0 / words as f64
            } else {
                1.0
            };
            f.set(F::total_asked, share);
        }
    }

    /// Whether the mention meets a word of a column label other than the
    /// total word.
    pub(super) fn names_a_column(&self, words: &[&String]) -> bool {
        self.page.column_words.iter().any(|column| {
            column
                .iter()
                .any(|w| !same_word(w, &self.total_word) && words.iter().any(|x| same_word(x, w)))
        })
    }

    /// Whether the mention prints every word of total row `row`'s label
    /// but the total word ("net sales" for "total net sales"), and another
    /// row's label prints them too with a word of its own ("consumer net
    /// sales"): the measure named without a part is the total's.
    fn names_the_total_measure(&self, a: &Asked, row: usize) -> bool {
        let total: Vec<&String> = self.page.row_words[row]
            .iter()
            .filter(|w| !same_word(w, &self.total_word))
            .collect();
        let met = |w: &&String| a.words.iter().any(|x| same_word(x, w));
        if total.is_empty() || !total.iter().all(met) {
            return false;
        }
        self.page.row_words.iter().enumerate().any(|(r, words)| {
            r != row
                && !self.page.row_is_total[r]
                && words.len() > total.len()
                && total.iter().all(|w| words.iter().any(|x| same_word(x, w)))
        })
    }

    /// The beginning or end asked against the one a candidate prints.
    fn boundary_features(f: &mut FeatureVector, asked: Boundary, printed: Option<Boundary>) {
        match printed {
            Some(p) if p == asked => f.set(F::boundary_agrees, 1.0),
            Some(_) => f.set(F::boundary_conflicts, 1.0),
            None => {}
        }
    }

    /// Whether the column's year is `year` and another column has that
    /// year too ("fiscal 2012 high", "fiscal 2012 low"): there the year
    /// asked does not say which column.
    fn year_shares_columns(&self, column: usize, year: Option<i32>) -> bool {
        let columns = &self.schema.columns;
        year.is_some()
            && columns[column].1 == year
            && columns
                .iter()
                .enumerate()
                .any(|(i, (_, y))| i != column && *y == year)
    }

    /// What the question asks besides words and a year: a percentage, the
    /// beginning or end of a period, a scale, a quarter, the row of an
    /// earlier turn.
    fn cell_cue_features(
        &self,
        f: &mut FeatureVector,
        cell: &CellEntry,
        boundary: Option<Boundary>,
    ) {
        if cell.percent && !self.wants_percent {
            f.set(F::cell_percent_unasked, 1.0);
        }
        let labelled = self.page.row_percent[cell.row] || self.page.column_percent[cell.column];
        if labelled && !self.wants_percent {
            f.set(F::label_percent_unasked, 1.0);
        }
        let states_change =
            self.page.row_states_change[cell.row] || self.page.column_states_change[cell.column];
        if states_change && !self.says_change && !self.wants_printed_change.get() {
            f.set(F::label_change_unasked, 1.0);
        }
        // a follow-up of a turn that read a rate per unit asks for one too
        let last_per_unit = self.earlier_rows.iter().any(|r| self.page.row_per_unit[*r]);
        if self.page.row_per_unit[cell.row] && !self.asks_per_unit && !last_per_unit {
            f.set(F::per_unit_unasked, 1.0);
        }
        // "how many options were exercised?" counts; a unit's price does not
        if self.asked_unit == AskedUnit::Count && self.page.column_unit_price[cell.column] {
            f.set(F::count_of_price, 1.0);
        }
        // "how much was spent on fuel?": a label in metric tons is no money
        if self.asked_unit == AskedUnit::Money
            && (self.page.row_quantity_unit[cell.row]
                || self.page.column_quantity_unit[cell.column])
        {
            f.set(F::unit_disagrees, 1.0);
        }
        // "how many tons were shipped?": a cell printed with a currency
        // sign is money, no count
        let money = cell.raw.trim_start().starts_with('$') || self.page.column_money[cell.column];
        if self.asked_unit == AskedUnit::Count && money {
            f.set(F::count_of_money, 1.0);
        }
        if let Some(b) = boundary {
            // the row's cue speaks first ("balance at january 1" in a column
            // "year ended december 31"), unless the row is the period axis
            // ("year ended december 31 , 2012") and the column says where a
            // balance sits ("balance at beginning of year")
            let (row, column) = (
                self.page.row_boundary[cell.row],
                self.page.column_boundary[cell.column],
            );
            let dated = |label: &str| !words::years_in(label).is_empty();
            let printed = if dated(&cell.row_label) && !dated(&cell.column_label) {
                column.or(row)
            } else {
                row.or(column)
            };
            Self::boundary_features(f, b, printed);
            // a level at a period's start or end is a balance, not one of
            // the flows between them ("the reserve at the start of 2011")
            if printed.is_none() && self.is_flow_row(cell.row) {
                f.set(F::boundary_flow, 1.0);
            }
        } else if self.page.row_boundary[cell.row] == Some(Boundary::Beginning) {
            // "the balance in 2012", no cue: a year's level is its end's
            f.set(F::beginning_unasked, 1.0);
        }
        if let Some(asked) = &self.asked_scale {
            let printed = crate::kg::schema::label_scale(&cell.column_label)
                .or_else(|| crate::kg::schema::label_scale(&cell.row_label));
            if printed.as_ref().map(Scale::word) == Some(asked.as_str()) {
                f.set(F::scale_agrees, 1.0);
            }
        }
        if let Some(q) = self.asked_quarter.filter(|_| self.page.quarters_differ) {
            let labels = [
                self.page.row_quarter[cell.row],
                self.page.column_quarter[cell.column],
            ];
            Self::period_features(f, q, &labels);
        }
        // a month plays the quarter's part on a table of months
        if let Some(m) = self.asked_month.filter(|_| self.page.months_differ) {
            let labels = [
                self.page.row_month[cell.row],
                self.page.column_month[cell.column],
            ];
            Self::period_features(f, m, &labels);
        }
        if self.earlier.contains(&cell.row_label) {
            f.set(F::earlier_row, 1.0);
        }
    }

    /// The cell's year against the year asked (or, with no year asked, the
    /// column's position).
    fn cell_year_features(&self, f: &mut FeatureVector, cell: &CellEntry, year: Option<i32>) {
        let printed = &self.page.column_dates[cell.column];
        if self.asked_dates.iter().any(|(m, d, y)| {
            year.is_none_or(|asked| asked == *y)
                && printed
                    .iter()
                    .any(|(pm, pd, py)| pm == m && py == y && d.is_none_or(|d| *pd == Some(d)))
        }) {
            // the date asked is the column's: the year counts as matched
            f.set(F::date_match, 1.0);
            if year.is_some() {
                f.set(F::cell_year_match, 1.0);
                return;
            }
        }
        if let Some(range) = self.asked_column_range {
            // the range asked is a column's: that column is the period
            let printed = self.page.column_year_ranges[cell.column].contains(&range);
            f.set(
                if printed {
                    F::cell_year_match
                } else {
                    F::cell_year_other
                },
                1.0,
            );
            return;
        }
        let cell_year = cell
            .column_year
            .or(cell.row_year)
            .or(self.page.flow_row_year[cell.row]);
        if self.page.row_years_are_names && cell.column_year.is_none() {
            // "2007 net revenue ... rider revenue ... 2008 net revenue": the
            // years name a few rows; a year asked does not rule out the others
            match (year, cell_year) {
                (Some(y), Some(cy)) if y == cy => f.set(F::name_year_match, 1.0),
                (Some(_), Some(_)) => f.set(F::name_year_other, 1.0),
                _ => {}
            }
            return;
        }
        match (year, cell_year) {
            (Some(y), Some(cy)) if y == cy => f.set(F::cell_year_match, 1.0),
            (Some(_), Some(_)) => f.set(F::cell_year_other, 1.0),
            (Some(y), None) => {
                let label = format!("{} {}", cell.row_label, cell.column_label);
                if words::years_in(&label).contains(&y) {
                    f.set(F::cell_year_in_label, 1.0);
                } else if self.page.caption_year == Some(y) {
                    f.set(F::cell_year_in_caption, 1.0);
                } else {
                    f.set(F::cell_year_absent, 1.0);
                }
            }
            (None, _) => f.set(F::column_position, cell.column as f64),
        }
    }

    /// Share of the mention's words (weighted by rarity) that name no row
    /// or column: no row or column label (nor a row's lexicon alias)
    /// prints them, the name of something the table lost. With `by_head`,
    /// a row label names a word only when the mention meets its head too
    /// ("revenues" of "cost of revenues" names nothing when the question
    /// asks for revenues) and, unless the question asks for a total, only
    /// when it is no total row (a total's words are its parts' too): the
    /// first row the table lost into its headers may be what they name.
    fn unnamed_share(&self, a: &Asked, by_head: bool) -> f64 {
        let counts = |r: usize| {
            let head = &self.page.row_head_words[r];
            !by_head
                || ((head.is_empty() || self.overlap(&a.words, head) > 0.0)
                    && (self.asks_total || !self.page.row_is_total[r]))
        };
        let prints = |l: &Vec<String>, w: &str| l.iter().any(|x| same_word(x, w));
        let names = |w: &str| {
            (0..self.page.row_words.len()).any(|r| prints(&self.page.row_words[r], w) && counts(r))
                || self.page.column_words.iter().any(|l| prints(l, w))
                || self.page.row_alias_words.iter().any(|l| prints(l, w))
        };
        self.weigh(a.words.iter().filter(|w| !names(w))) / a.weight
    }

    /// Whether the mention's words (two or more) are each printed by some
    /// row label other than a total but no row prints them all: "funeral
    /// revenue" beside "funeral gross profit" and "cemetery revenue", the
    /// name of the row the table lost that completes the labels' pattern.
    fn combines_row_words(&self, a: &Asked) -> bool {
        // (a total's words are its parts': they name no row of their own)
        let rows = &self.page.row_words;
        let parts: Vec<usize> = (0..rows.len())
            .filter(|r| !self.page.row_is_total[*r])
            .collect();
        let prints = |r: usize, w: &str| rows[r].iter().any(|x| same_word(x, w));
        a.words.len() >= 2
            && a.words.iter().all(|w| parts.iter().any(|r| prints(*r, w)))
            && !(0..rows.len()).any(|r| a.words.iter().all(|w| prints(r, w)))
    }

    /// The features of a number printed in a column header.
    pub(super) fn header_features(
        &self,
        k: usize,
        h: &HeaderNumberEntry,
        a: &Asked,
    ) -> FeatureVector {
        let mut f = FeatureVector::default();
        self.lost_row_name_features(&mut f, k, a);
        let (label, text, opening) = self.header_labels(h);
        let hit = self.header_word_features(&mut f, k, a, &label, &text);
        // a follow-up that names another row keeps the column the last
        // turn read ("and in the first quarter?" after a "low" price)
        let own = content_words(&h.words);
        let column_year = self.schema.columns.get(h.column).and_then(|(_, y)| *y);
        if !own.iter().any(|w| a.words.iter().any(|x| same_word(x, w)))
            && hit >= 0.5 * a.weight
            && !self.asks_total
            && (column_year.is_none() || self.year_shares_columns(h.column, a.year))
            && self.earlier_columns.contains(&h.column)
        {
            f.set(F::earlier_column_other_row, 1.0);
        }
        if h.percent && !self.wants_percent {
            f.set(F::cell_percent_unasked, 1.0);
        }
        if self.asked_unit == AskedUnit::Count && h.raw.trim_start().starts_with('$') {
            f.set(F::count_of_money, 1.0);
        }
        self.header_period_features(&mut f, k, h, a, opening);
        f.set(F::header_source, 1.0);
        f
    }

    /// Sets how far the mention may name the lost row when no label or
    /// list of the text gives its name.
    fn lost_row_name_features(&self, f: &mut FeatureVector, k: usize, a: &Asked) {
        // "other revenues" names the catch-all row the table prints
        let catch_all_named = self.asks_catch_all && self.page.row_is_catch_all.contains(&true);
        let listed = !self.page.lost_row_listed.is_empty();
        if self.page.lost_row_unnamed.contains(&k) && !catch_all_named && !listed {
            // the lost row's name is unknown (no list of the text gives
            // it): the mention's words that no label prints may be it
            f.set(F::lost_row_name, self.unnamed_share(a, true));
            if self.combines_row_words(a) {
                f.set(F::lost_row_combines, 1.0);
            }
        }
    }

    /// A header number's label words, the words the text prints beside it,
    /// and whether it is a roll-forward's lost opening balance.
    fn header_labels(&self, h: &HeaderNumberEntry) -> (Vec<String>, Vec<String>, bool) {
        // the header's words (a label glued to the first header is every
        // header number's) and those the lost row shares with its sequence
        let mut label = if self.page.lost_row_label.is_empty() {
            content_words(&h.words)
        } else {
            self.page.lost_row_label.clone()
        };
        label.extend(self.page.lost_row_words.iter().cloned());
        label.extend(self.page.lost_row_listed.iter().cloned());
        // the words the text prints beside one of its numbers: the row's
        // name when the table lost it, else another name for it
        let mut text: Vec<String> = Vec::new();
        if label.is_empty() {
            label.extend(self.page.lost_row_text_words.iter().cloned());
        } else {
            text.extend(self.page.lost_row_text_words.iter().cloned());
        }
        // a roll-forward that closes with its end and prints no beginning
        // lost its opening balance into the headers, named as its closing
        // one ("balance at end of year")
        let rows = &self.page.row_boundary;
        let opening = rows.contains(&Some(Boundary::End))
            && !rows.contains(&Some(Boundary::Beginning))
            && self.page.lost_row_label.is_empty();
        // a lost row whose label is a balance ("balance at january 1") is
        // a balance of what the caption names, as the closing rows are
        let balance = self.page.lost_row_label_boundary.is_some();
        for (r, b) in rows.iter().enumerate() {
            if *b == Some(Boundary::End) {
                if opening {
                    label.extend(self.page.row_words[r].iter().cloned());
                }
                if balance {
                    text.extend(self.page.row_caption_words[r].iter().cloned());
                }
            }
        }
        (label, text, opening)
    }

    /// Sets how the mention meets a header number's label and text words;
    /// returns its overlap with the label.
    fn header_word_features(
        &self,
        f: &mut FeatureVector,
        k: usize,
        a: &Asked,
        label: &[String],
        text: &[String],
    ) -> f64 {
        let hit = self.overlap(&a.words, label);
        f.set(F::label_match, hit / a.weight);
        // how much of the lost row's name, when a label or a list gives
        // it, the mention covers (as a row label's cover)
        let name = match &self.page.lost_row_label {
            l if l.is_empty() => &self.page.lost_row_listed,
            l => l,
        };
        if !name.is_empty() {
            let covered = name
                .iter()
                .filter(|w| a.words.iter().any(|x| same_word(x, w)))
                .count();
            f.set(F::row_cover, covered as f64 / name.len() as f64);
        }
        let lost = self.schema.rows.len();
        let year = self.schema.header_number_year(k, self.page.lost_row_year);
        f.set(
            F::phrase,
            Self::phrase_share(a.mention, label).max(self.restated_phrase(lost, year, a)),
        );
        let text_hit = self.weigh(a.words.iter().filter(|w| {
            text.iter().any(|l| same_word(l, w)) && !label.iter().any(|l| same_word(l, w))
        }));
        f.set(F::text_alias_match, text_hit / a.weight);
        hit
    }

    /// Sets a header number's quarter, month, balance and year against
    /// those asked.
    fn header_period_features(
        &self,
        f: &mut FeatureVector,
        k: usize,
        h: &HeaderNumberEntry,
        a: &Asked,
        opening: bool,
    ) {
        // a header number is the lost first row's: its period is that row's
        if let Some(q) = self.asked_quarter {
            // a year in the header ("2009 $ 17.84") is the column's: the
            // lost row is still the quarter before the rows'; else the
            // column's own quarter ("fourth quarter $ 28.40" over a "low" row)
            let printed = self
                .page
                .lost_row_quarter
                .or(self.page.column_quarter[h.column]);
            Self::period_features(f, q, &[printed]);
        }
        // a month plays the quarter's part on a table of months
        if let Some(m) = self.asked_month {
            Self::period_features(f, m, &[self.page.lost_row_month]);
        }
        if let Some(asked) = a.boundary {
            if let Some(b) = self.page.lost_row_label_boundary {
                Self::boundary_features(f, asked, Some(b));
            } else if opening {
                Self::boundary_features(f, asked, Some(Boundary::Beginning));
            }
        }
        // else the column's year (one the text gives its header number)
        let year = self.schema.header_number_year(k, self.page.lost_row_year);
        match (a.year, year) {
            (Some(y), Some(hy)) if y == hy => f.set(F::cell_year_match, 1.0),
            (Some(_), Some(_)) => f.set(F::cell_year_other, 1.0),
            (Some(y), None) if self.page.caption_year == Some(y) => {
                f.set(F::cell_year_in_caption, 1.0)
            }
            (Some(_), None) => f.set(F::cell_year_absent, 1.0),
            (None, _) => f.set(F::column_position, h.column as f64),
        }
        if self.asks_row_range && self.page.lost_row_year.is_some() {
            f.set(F::range_other, 1.0);
        }
    }

    /// The features of the text's `k`th number.
    pub(super) fn fact_features(&self, k: usize, fact: &FactEntry, a: &Asked) -> FeatureVector {
        let mut f = FeatureVector::default();
        self.fact_word_features(&mut f, k, fact, a);
        // "at the beginning of 2002": where a move the text states started
        // ("in 2002 ... from $ 128 million"), a level the graph dates to
        // the year before (its end)
        let moved = self.page.fact_boundary[k];
        let year = match (a.boundary, moved, a.year, fact.year) {
            (Some(Boundary::Beginning), Some(Boundary::Beginning), Some(y), Some(fy))
                if fy == y - 1 =>
            {
                Some(fy)
            }
            _ => a.year,
        };
        self.fact_year_features(&mut f, k, fact, year);
        if self.fact_prints_date(fact, year) {
            f.set(F::date_match, 1.0);
        }
        if let Some(b) = a.boundary {
            Self::boundary_features(&mut f, b, moved);
        }
        self.fact_unit_features(&mut f, k, fact);
        // "12,500 , 5,300 and 3,150 shares withheld in october , november
        // and december , respectively": the month beside the number
        if let Some(m) = self.asked_month {
            Self::period_features(&mut f, m, &[self.page.fact_month[k]]);
        }
        if fact.is_change {
            if self.wants_printed_change.get() {
                f.set(F::fact_change_asked, 1.0);
            } else {
                f.set(F::fact_change_unasked, 1.0);
            }
        }
        // "what were total dividends paid?": a number its context calls a total
        if self.asks_total && self.page.fact_is_total[k] {
            f.set(F::total_asked, 1.0);
            if self.page.fact_total_before[k] {
                f.set(F::total_introduces, 1.0);
            }
        }
        // "$ 48.3 million ( $ 30.9 million after-tax )": the bracket's
        // number is asked by its words, the one before it without them
        if let Some(how) = &self.page.fact_restated_as[k] {
            if self.glued.contains(how) {
                f.set(F::restatement_asked, 1.0);
            } else {
                f.set(F::restatement_unasked, 1.0);
            }
        }
        if self.earlier.contains(&fact.context) {
            f.set(F::earlier_row, 1.0);
        }
        f.set(F::text_source, 1.0);
        f.set(F::sentence_position, fact.sentence as f64);
        f
    }

    /// Sets how the mention meets a text number's context, neighbours,
    /// left-out words, contributor and sentence.
    fn fact_word_features(&self, f: &mut FeatureVector, k: usize, fact: &FactEntry, a: &Asked) {
        let (ctx, sent) = &self.page.fact_words[k];
        f.set(F::context_match, self.overlap(&a.words, ctx) / a.weight);
        let neighbours = &self.page.fact_neighbour_words[k];
        if !neighbours.is_empty() {
            f.set(
                F::neighbour_words,
                self.overlap(&a.words, neighbours) / a.weight,
            );
        }
        // "net operating revenues , before the provision for doubtful
        // accounts , were $ 6,962 million": the provision is what the
        // amount leaves out
        if !self.leaves_out {
            if let Some(left_out) = self.page.sentence_left_out.get(fact.sentence) {
                f.set(
                    F::left_out_named,
                    self.overlap(&a.words, left_out) / a.weight,
                );
            }
        }
        let subject = &self.page.fact_contributed_by[k];
        if !subject.is_empty() && self.overlap(&a.words, subject) == 0.0 {
            f.set(F::contribution_unasked, 1.0);
        }
        let in_sentence = self.overlap(&a.words, sent) / a.weight;
        f.set(F::sentence_match, in_sentence);
        if in_sentence < 0.2 {
            f.set(F::fact_words_scarce, 1.0);
        }
        f.set(F::phrase, Self::phrase_share(a.mention, sent));
    }

    /// Sets a text number's percent, per-unit, scale and unit against
    /// those asked.
    fn fact_unit_features(&self, f: &mut FeatureVector, k: usize, fact: &FactEntry) {
        if fact.percent && !self.wants_percent {
            f.set(F::fact_percent_unasked, 1.0);
        }
        if self.page.fact_per_unit[k] && !self.asks_per_unit {
            f.set(F::per_unit_unasked, 1.0);
        }
        if self.says_per && !self.page.fact_per_unit[k] && fact.scale.is_some() {
            f.set(F::per_unit_unmet, 1.0);
        }
        if let (Some(asked), Some(printed)) = (&self.asked_scale, &fact.scale) {
            if printed.word() == asked.as_str() {
                f.set(F::scale_agrees, 1.0);
            }
        }
        if self.page.fact_rounds_cell[k] && self.asked_scale.is_none() {
            f.set(F::fact_rounds_cell, 1.0);
        }
        let money = fact.raw.starts_with('$');
        match self.asked_unit {
            AskedUnit::Money if !money && !fact.percent => f.set(F::unit_disagrees, 1.0),
            AskedUnit::Count if money => f.set(F::count_of_money, 1.0),
            _ => {}
        }
    }

    /// The question prints a date ("as of december 31 , 2017") whose year
    /// is the number's and whose month and day its sentence prints, as a
    /// cell's column may print it.
    fn fact_prints_date(&self, fact: &FactEntry, year: Option<i32>) -> bool {
        let of_fact = |y: i32| fact.year == Some(y) || fact.also_years.contains(&y);
        let asked: Vec<_> = self
            .asked_dates
            .iter()
            .filter(|(_, _, y)| year.is_none_or(|asked| asked == *y) && of_fact(*y))
            .collect();
        if asked.is_empty() {
            return false;
        }
        let printed = words::dates_in(&fact.sentence_text);
        asked.iter().any(|(m, d, _)| {
            printed
                .iter()
                .any(|(pm, pd, _)| pm == m && d.is_none_or(|d| *pd == Some(d)))
        })
    }

    /// The quarter (or month) asked against those a candidate's labels or
    /// words print: one of them, or only others.
    fn period_features(f: &mut FeatureVector, asked: u8, printed: &[Option<u8>]) {
        if printed.contains(&Some(asked)) {
            f.set(F::quarter_match, 1.0);
        } else if printed.iter().flatten().any(|p| *p != asked) {
            f.set(F::quarter_other, 1.0);
        }
    }

    /// A text number's year (or its sentence's) against the year asked.
    fn fact_year_features(
        &self,
        f: &mut FeatureVector,
        k: usize,
        fact: &FactEntry,
        year: Option<i32>,
    ) {
        match (year, fact.year) {
            (Some(y), Some(fy)) if y == fy || fact.also_years.contains(&y) => {
                f.set(F::fact_year_match, 1.0)
            }
            (Some(_), Some(_)) => f.set(F::fact_year_other, 1.0),
            (Some(y), None) => {
                if fact.sentence_text.contains(&y.to_string())
                    || self.page.fact_carried_years[k].contains(&y)
                {
                    f.set(F::fact_year_in_sentence, 1.0);
                } else {
                    f.set(F::fact_year_absent, 1.0);
                }
            }
            (None, _) => {}
        }
    }
}

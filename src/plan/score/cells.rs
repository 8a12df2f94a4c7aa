//! A table cell's features from the words of its labels: the mention's
//! words in the row, column and alias labels, the row label's words the
//! mention covers, the phrases they share, the text's words lent to a row,
//! a total row or column where the mention names only the other axis, and
//! the row or column an earlier turn read.

use crate::kg::CellEntry;
use crate::plan::cues::Boundary;
use crate::plan::features::{Feature as F, FeatureVector};
use crate::plan::ground::{same_word, Asked, Grounder};

impl Grounder<'_> {
    /// The features of a table cell.
    pub(in crate::plan) fn cell_features(&self, cell: &CellEntry, a: &Asked) -> FeatureVector {
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
        let row_text = &self.page.row_text_words[cell.row];
        let in_labels = |w: &String| {
            row.iter()
                .chain(col.iter())
                .chain(alias.iter())
                .any(|l| same_word(l, w))
        };
        let in_text = |w: &String| row_text.iter().chain(caption).any(|l| same_word(l, w));
        let text_hit = self.weigh(q.iter().filter(|w| in_text(w) && !in_labels(w)));
        f.set(F::text_alias_match, text_hit / a.weight);
        // the caption names what the whole table is ("the following
        // unaudited pro forma information"): its words no label (nor the
        // text's name for the row) prints are every cell's
        let caption_hit = self.weigh(q.iter().filter(|w| {
            self.page.caption_words.iter().any(|c| same_word(c, w))
                && !in_labels(w)
                && !row_text.iter().any(|l| same_word(l, w))
        }));
        f.set(F::caption_match, caption_hit / a.weight);
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
}

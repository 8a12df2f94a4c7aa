//! When the best-scored candidate is not the answer: the row the mention
//! names is blank for the year asked, or only a rate of the mention's words
//! is printed and the table's unnamed lost row is meant.

use super::{same_word, Feature, FeatureVector, Grounder, Target};
use crate::kg::CellEntry;
use crate::plan::operand::Operand;

impl Grounder<'_> {
    /// "what were net sales in 2010?" on a table that lost its first row
    /// unnamed, when no label prints all the mention's words and the text
    /// number that wins is a rate or a change the question does not ask
    /// for ("net sales increased 25%"): the level is the lost row's.
    pub(super) fn only_text_rate_names(&self, own: &[&String], winner: &FeatureVector) -> bool {
        let unasked = winner.get(Feature::fact_percent_unasked) > 0.0
            || winner.get(Feature::fact_change_unasked) > 0.0;
        let labels = || self.page.row_words.iter().chain(&self.page.column_words);
        unasked
            && !own.is_empty()
            && !labels().any(|l| own.iter().all(|w| l.iter().any(|x| same_word(x, w))))
    }

    /// The row the table lost into its bare-number header, for a mention
    /// that can name nothing else (`why` says how): the column of the year
    /// asked, else the first; `None` on a page with no such row (or when a
    /// revision left it out).
    pub(super) fn lost_row_unnamed(
        &self,
        mention_text: &str,
        year: Option<i32>,
        why: &str,
    ) -> Option<Operand> {
        let unnamed = &self.page.lost_row_unnamed;
        let k = match year {
            _ if unnamed.len() == 1 => unnamed.first(),
            Some(y) => unnamed
                .iter()
                .find(|k| self.schema.header_numbers[**k].year == Some(y)),
            None => unnamed.first(),
        };
        if let Some(&k) = k {
            let t = Target::Header(k);
            let note = format!("{mention_text} ({why}: the row the table lost into its header)");
            if !self.excluded.contains(&(note.clone(), self.describe(t))) {
                let mut f = FeatureVector::default();
                f.set(Feature::header_source, 1.0);
                return Some(self.grounded(t, year, note, &[(f.score(self.weights), t, f)]));
            }
        }
        None
    }

    /// A row whose label holds every word of the mention but whose cell
    /// for `year` is blank (the winner's row too, when the winner is its
    /// cell of another year) ("--", "n/a") while the
    /// table has a column for that year: the value asked is not printed,
    /// and another row's number would be a wrong answer.
    pub(super) fn blank_named_row(
        &self,
        own: &[&String],
        winner: &CellEntry,
        year: i32,
    ) -> Option<usize> {
        if own.is_empty() {
            return None;
        }
        let year_columns: Vec<usize> = self
            .schema
            .cells
            .iter()
            .filter(|c| c.column_year == Some(year))
            .map(|c| c.column)
            .collect();
        if year_columns.is_empty() {
            return None;
        }
        let named = |row: usize| {
            own.iter()
                .all(|w| self.page.row_words[row].iter().any(|l| same_word(l, w)))
        };
        // the named row's own cell of that year wins: nothing is blank
        if named(winner.row) && winner.column_year == Some(year) {
            return None;
        }
        (0..self.schema.rows.len()).find(|&row| {
            named(row)
                && !self
                    .schema
                    .cells
                    .iter()
                    .any(|c| c.row == row && year_columns.contains(&c.column))
        })
    }
}

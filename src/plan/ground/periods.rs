//! Periods the table's layout answers in another column or row: "after"
//! the schedule's last year as its "thereafter", the end of a year as the
//! next year's opening balance, the beginning of a year as the end of the
//! year before.

use super::rank::boundary_of_mention;
use super::{Feature, FeatureVector, Grounder, Target};
use crate::plan::cues::Boundary;
use crate::plan::operand::Operand;
use crate::words;

impl Grounder<'_> {
    /// "after 2014" on a schedule whose years (or ranges of years, "2013-2014")
    /// end at 2014 and that has a "thereafter" row or column: the mention's
    /// words with that label's word, for no year.
    pub(super) fn after_last_year(
        &self,
        mention: &[String],
        year: Option<i32>,
    ) -> Option<Vec<String>> {
        let y = year?;
        let range_ends = self
            .page
            .row_year_ranges
            .iter()
            .chain(&self.page.column_year_ranges)
            .flatten()
            .map(|(_, last)| *last);
        let last = self.years().into_iter().chain(range_ends).max();
        if self.after_year != Some(y) || last != Some(y) {
            return None;
        }
        let labels = || self.page.row_words.iter().chain(&self.page.column_words);
        let word = self
            .thereafter
            .iter()
            .map(|w| words::stem(w))
            .find(|w| labels().any(|l| l.contains(w)))?;
        let mut later: Vec<String> = mention.to_vec();
        later.push(word);
        Some(later)
    }

    /// "the balance at the end of 2008" on a roll-forward whose columns
    /// start at 2009: the end of a year is the beginning of the next, so
    /// the opening row in the next year's column, when the mention names
    /// the closing row there.
    pub(super) fn closing_as_next_opening(
        &self,
        mention: &[String],
        year: Option<i32>,
        mention_text: &str,
    ) -> Option<Operand> {
        let y = year?;
        let years = self.years();
        if years.contains(&y)
            || !years.contains(&(y + 1))
            || boundary_of_mention(mention) == Some(Boundary::Beginning)
        {
            return None;
        }
        let boundary = &self.page.row_boundary;
        let opening = boundary
            .iter()
            .position(|b| *b == Some(Boundary::Beginning))?;
        let ranked = self.candidates(mention, Some(y + 1));
        let (_, Target::Cell(k), _) = ranked.first()? else {
            return None;
        };
        let closing = &self.schema.cells[*k];
        if boundary[closing.row] != Some(Boundary::End) {
            return None;
        }
        let cell = self
            .schema
            .cells
            .iter()
            .position(|c| c.row == opening && c.column == closing.column)?;
        let note = format!(
            "{mention_text} (the end of {y} is the beginning of {})",
            y + 1
        );
        let mut f = FeatureVector::default();
        f.set(Feature::boundary_agrees, 1.0);
        let t = Target::Cell(cell);
        let mut o = self.grounded(t, Some(y + 1), note, &[(f.score(self.weights), t, f)]);
        o.year = Some(y);
        Some(o)
    }

    /// The year a year-end table answers the beginning of `year` with: the
    /// beginning of a year is the end of the one before, when the mention
    /// says beginning, no row or column of the page says beginning, the
    /// columns are dates alone or the dated rows each end a year, and the
    /// table has a column (or row) for the year before.
    pub(in crate::plan) fn opening_year(
        &self,
        boundary: Option<Boundary>,
        year: Option<i32>,
    ) -> Option<i32> {
        let y = year?;
        let says_beginning = |b: &[Option<Boundary>]| b.contains(&Some(Boundary::Beginning));
        // the columns are years or dates alone ("2002", "december 31 ,
        // 2002"): levels at each year's end
        let year_columns: Vec<&String> = self
            .schema
            .columns
            .iter()
            .filter(|(_, y)| y.is_some())
            .map(|(l, _)| l)
            .collect();
        let dates_alone = year_columns.len() >= 2
            && year_columns.iter().all(|l| {
                words::tokens(l).iter().all(|t| {
                    words::month_number(t).is_some() || !t.chars().any(char::is_alphabetic)
                })
            });
        // or the rows that print a year are each a level at a year's end
        // ("outstanding at december 31 , 2009")
        let dated_rows: Vec<usize> = (0..self.schema.rows.len())
            .filter(|&r| self.schema.rows[r].1.is_some())
            .collect();
        let row_ends = dated_rows.len() >= 2
            && dated_rows
                .iter()
                .all(|&r| self.page.row_boundary.get(r) == Some(&Some(Boundary::End)));
        (boundary == Some(Boundary::Beginning)
            && (dates_alone || row_ends)
            && !says_beginning(&self.page.row_boundary)
            && !says_beginning(&self.page.column_boundary)
            && self.years().contains(&(y - 1)))
        .then_some(y - 1)
    }
}

//! Features and tests the cell, header and text features share: the
//! beginning or end and the quarter (or month) asked against those a
//! candidate prints, a year that several columns share, and the phrase of
//! the text numbers that restate a row's amount.

use crate::plan::cues::Boundary;
use crate::plan::features::{Feature as F, FeatureVector};
use crate::plan::ground::{Asked, Grounder};

impl Grounder<'_> {
    /// The beginning or end asked against the one a candidate prints.
    pub(super) fn boundary_features(
        f: &mut FeatureVector,
        asked: Boundary,
        printed: Option<Boundary>,
    ) {
        match printed {
            Some(p) if p == asked => f.set(F::boundary_agrees, 1.0),
            Some(_) => f.set(F::boundary_conflicts, 1.0),
            None => {}
        }
    }

    /// The quarter (or month) asked against those a candidate's labels or
    /// words print: one of them, or only others.
    pub(super) fn period_features(f: &mut FeatureVector, asked: u8, printed: &[Option<u8>]) {
        if printed.contains(&Some(asked)) {
            f.set(F::quarter_match, 1.0);
        } else if printed.iter().flatten().any(|p| *p != asked) {
            f.set(F::quarter_other, 1.0);
        }
    }

    /// Whether the column's year is `year` and another column has that
    /// year too ("fiscal 2012 high", "fiscal 2012 low"): there the year
    /// asked does not say which column.
    pub(super) fn year_shares_columns(&self, column: usize, year: Option<i32>) -> bool {
        let columns = &self.schema.columns;
        year.is_some()
            && columns[column].1 == year
            && columns
                .iter()
                .enumerate()
                .any(|(i, (_, y))| i != column && *y == year)
    }

    /// The phrase share of the words beside the text numbers that restate
    /// row `row`'s amount rounded in another scale ("net sales in north
    /// america increased 6.3 % in 2012 , to $ 6.4 billion" for a lost row's
    /// 6,412 in millions), in `year` or of no year: the text's name for the
    /// amount the table prints exactly; none when the question asks for a
    /// scale.
    pub(super) fn restated_phrase(&self, row: usize, year: Option<i32>, a: &Asked) -> f64 {
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
}

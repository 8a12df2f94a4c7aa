//! A table cell's features from what the question asks besides words: a
//! percentage, a change, an amount per unit, money or a count, the
//! beginning or end of a period, a scale, a quarter or month, and the year
//! (or date, or range of years) asked against the cell's.

use crate::kg::CellEntry;
use crate::plan::cues::Boundary;
use crate::plan::features::{Feature as F, FeatureVector};
use crate::plan::ground::{AskedUnit, Grounder};
use crate::turn::Scale;
use crate::words;

impl Grounder<'_> {
    /// What the question asks besides words and a year: a percentage, the
    /// beginning or end of a period, a scale, a quarter, the row of an
    /// earlier turn.
    pub(super) fn cell_cue_features(
        &self,
        f: &mut FeatureVector,
        cell: &CellEntry,
        boundary: Option<Boundary>,
    ) {
        self.cell_percent_features(f, cell);
        self.cell_unit_features(f, cell);
        self.cell_boundary_features(f, cell, boundary);
        self.cell_scale_and_period_features(f, cell);
        if self.earlier.contains(&cell.row_label) {
            f.set(F::earlier_row, 1.0);
        }
    }

    /// Sets a printed percentage, a label that states a change and a rate
    /// per unit against what the question asks.
    fn cell_percent_features(&self, f: &mut FeatureVector, cell: &CellEntry) {
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
    }

    /// Sets a unit's price, a physical unit or money against the money or
    /// count asked.
    fn cell_unit_features(&self, f: &mut FeatureVector, cell: &CellEntry) {
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
    }

    /// Sets the beginning or end asked (`boundary`) against the one the
    /// cell's row or column prints; with none asked, a beginning row.
    fn cell_boundary_features(
        &self,
        f: &mut FeatureVector,
        cell: &CellEntry,
        boundary: Option<Boundary>,
    ) {
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
    }

    /// Sets the scale, quarter and month asked against those the cell's
    /// labels print.
    fn cell_scale_and_period_features(&self, f: &mut FeatureVector, cell: &CellEntry) {
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
    }

    /// The cell's year against the year asked (or, with no year asked, the
    /// column's position).
    pub(super) fn cell_year_features(
        &self,
        f: &mut FeatureVector,
        cell: &CellEntry,
        year: Option<i32>,
    ) {
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
}

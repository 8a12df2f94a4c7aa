//! What the table's structure says about a grounded cell: the total it is
//! a part of, its year's other quarters, the twin column of its year, the
//! flows of a roll-forward, the years of the period axis; and a cell read as
//! an operand with the sign its row keeps.

use super::cues::Boundary;
use super::ground::{same_word, Grounder};
use super::operand::{
    cell_of_node, cell_operand, fact_of_node, fact_operand, header_column_of_node, header_operand,
    Operand, Whole,
};
use crate::kg::{CellEntry, Schema};
use rust_decimal::Decimal;

impl Grounder<'_> {
    /// Whether row `row` is a flow of a roll-forward table: the table has
    /// an opening and a closing balance row, and this row is neither.
    pub fn is_flow_row(&self, row: usize) -> bool {
        let b = &self.page.row_boundary;
        b.contains(&Some(Boundary::Beginning))
            && b.contains(&Some(Boundary::End))
            && b.get(row).is_some_and(Option::is_none)
    }

    /// Years the table's columns (or rows) name, ascending.
    pub fn years(&self) -> Vec<i32> {
        let mut ys: Vec<i32> = self.schema.columns.iter().filter_map(|(_, y)| *y).collect();
        if ys.len() < 2 {
            ys = self.schema.rows.iter().filter_map(|(_, y)| *y).collect();
        }
        ys.sort_unstable();
        ys.dedup();
        ys
    }

    /// The total a table cell is a part of: a "total" row in its column or
    /// a "total" column in its row, the one whose label best matches
    /// `whole`; in a table with no totals at all, the sum of its column.
    pub fn total_for(&self, part: &Operand, whole: &[String]) -> Option<Whole> {
        let (row, column) = part.cell?;
        let q: Vec<&String> = whole.iter().collect();
        // "what portion of operating leases is due in 1 year": a whole that
        // names the part's row is that row's total, one that names its
        // column that column's
        let names = |label: &[String]| {
            let all = !label.is_empty() && label.iter().all(|l| q.iter().any(|w| same_word(l, w)));
            if all {
                1.0
            } else {
                0.0
            }
        };
        let names_row = names(&self.page.row_words[row]);
        let names_column = names(&self.page.column_words[column]);
        let mut best: Option<(f64, &CellEntry)> = None;
        for c in &self.schema.cells {
            let (label, total, along) = if c.column == column && c.row != row {
                (
                    &self.page.row_words[c.row],
                    self.page.row_is_total[c.row],
                    names_column,
                )
            } else if c.row == row && c.column != column {
                (
                    &self.page.column_words[c.column],
                    self.page.column_is_total[c.column],
                    names_row,
                )
            } else {
                continue;
            };
            if !total {
                continue;
            }
            // naming the part's row (column) decides; the words break ties
            let score = 1e3 * along + self.overlap(&q, label) - 0.01 * label.len() as f64;
            if best.as_ref().is_none_or(|(s, _)| score > *s) {
                best = Some((score, c));
            }
        }
        if let Some((_, c)) = best {
            return Some(Whole::One(self.cell_value(c)));
        }
        self.column_sum_for(row, column, whole)
    }

    /// In a table with no totals at all, the sum of the part's column,
    /// unless the whole names a row of its own or the column runs over
    /// periods, levels or flows rather than parts.
    fn column_sum_for(&self, row: usize, column: usize, whole: &[String]) -> Option<Whole> {
        let any_total = self
            .page
            .row_is_total
            .iter()
            .chain(&self.page.column_is_total)
            .any(|t| *t);
        let cells: Vec<&CellEntry> = self
            .schema
            .cells
            .iter()
            .filter(|c| c.column == column)
            .collect();
        if any_total || cells.len() < 3 || cells.iter().any(|c| c.percent) {
            return None;
        }
        // "what portion of the net sales is the operating income": the
        // whole names a row of its own, not the column's sum
        let names_row = |r: usize| {
            let label = &self.page.row_words[r];
            !label.is_empty() && label.iter().all(|l| whole.iter().any(|w| same_word(l, w)))
        };
        if cells.iter().any(|c| c.row != row && names_row(c.row)) {
            return None;
        }
        // a table with years as rows: its column runs over periods, and
        // periods are not parts of a whole; the whole is another column
        if cells.iter().all(|c| c.row_year.is_some()) {
            return None;
        }
        // a roll-forward ("outstanding at december 31 , 2009", "granted",
        // ...): its rows are levels and flows, not parts of a whole
        if cells
            .iter()
            .any(|c| self.page.row_boundary[c.row].is_some())
        {
            return None;
        }
        Some(Whole::Sum(
            cells.into_iter().map(|c| self.cell_value(c)).collect(),
        ))
    }

    /// A table cell as an operand: a figure printed negative counts by its
    /// magnitude, unless its row prints both signs ("net income ( loss )"),
    /// or its column, naming no year, does ("% change").
    pub fn cell_value(&self, cell: &CellEntry) -> Operand {
        let mut o = cell_operand(cell);
        if self.page.row_signs_mixed.get(cell.row) == Some(&true)
            || self.page.column_signs_mixed.get(cell.column) == Some(&true)
        {
            o.magnitude = false;
        }
        o
    }

    /// The table cell an operand reads, if it reads one.
    pub fn cell_of(&self, o: &Operand) -> Option<&CellEntry> {
        let (row, column) = o.cell?;
        self.schema
            .cells
            .iter()
            .find(|c| c.row == row && c.column == column)
    }

    /// The cell of the same row and column year as `o` that sits nearest
    /// `other`'s column, when the table prints that year in more than one
    /// column, among those printed as `other` is (an amount or a percentage).
    pub fn nearest_twin(&self, o: Operand, other: &Operand) -> Operand {
        let (Some((row, column)), Some((_, other_column))) = (o.cell, other.cell) else {
            return o;
        };
        let Some(year) = self.cell_of(&o).and_then(|c| c.column_year) else {
            return o;
        };
        // a twin printed as the other value is (not a percentage column
        // beside an amount column of the same year)
        let other_percent = self.cell_of(other).map(|c| c.percent);
        let twin = self
            .schema
            .cells
            .iter()
            .filter(|c| c.row == row && c.column != column && c.column_year == Some(year))
            .filter(|c| other_percent.is_none_or(|p| p == c.percent))
            .min_by_key(|c| c.column.abs_diff(other_column));
        match twin {
            Some(c) if c.column.abs_diff(other_column) < column.abs_diff(other_column) => {
                self.cell_value(c)
            }
            _ => o,
        }
    }

    /// The cells of a year's quarters, when `o` reads one quarter's cell of
    /// a table that prints each quarter of that year (a row or column each,
    /// the first perhaps lost into the column headers) and no total: the
    /// same column's (or row's) values of all four.
    pub fn quarters_of(&self, o: &Operand) -> Option<Vec<Operand>> {
        let values = self.quarter_values_of(o)?;
        Some(values.into_iter().map(|(_, v)| v).collect())
    }

    /// The cells of the year's quarters [`Self::quarters_of`] reads, each
    /// with its quarter (1 to 4), in the table's order.
    pub fn quarter_values_of(&self, o: &Operand) -> Option<Vec<(u8, Operand)>> {
        let (row, column) = o.cell?;
        let page = &self.page;
        // a total among the quarters' lines prints the year: no sum is asked
        let quarters_are_rows = page.row_quarter[row].is_some();
        let totals = if quarters_are_rows {
            &page.row_is_total
        } else {
            &page.column_is_total
        };
        // nor does a total line the quarters cross ("total nonperforming
        // assets"): it names what "total" asks
        let crossed_total = if quarters_are_rows {
            page.column_is_total[column]
        } else {
            page.row_is_total[row]
        };
        if crossed_total || totals.iter().any(|t| *t) {
            return None;
        }
        let cell_at = |r: usize, c: usize| {
            self.schema
                .cells
                .iter()
                .find(|x| x.row == r && x.column == c)
        };
        let year_of = |r: usize, c: usize| {
            let cell = cell_at(r, c)?;
            cell.row_year.or(cell.column_year)
        };
        let year = year_of(row, column);
        let along: Vec<(usize, usize)> = if quarters_are_rows {
            (0..self.schema.rows.len())
                .filter(|&r| page.row_quarter[r].is_some())
                .map(|r| (r, column))
                .collect()
        } else if page.column_quarter[column].is_some() {
            (0..self.schema.columns.len())
                .filter(|&c| page.column_quarter[c].is_some())
                .map(|c| (row, c))
                .collect()
        } else {
            return None;
        };
        let cells: Vec<&CellEntry> = along
            .into_iter()
            .filter(|&(r, c)| year_of(r, c) == year)
            .filter_map(|(r, c)| cell_at(r, c))
            .collect();
        let mut values: Vec<(u8, Operand)> = cells
            .iter()
            .filter_map(|c| {
                let q = page.row_quarter[c.row].or(page.column_quarter[c.column])?;
                Some((q, self.cell_value(c)))
            })
            .collect();
        // quarter rows whose first quarter the table lost into its column
        // headers ("cash dividends declared $ 0.05" over the second to fourth
        // quarters): that header's number is the column's missing quarter
        if let (Some(q), true) = (page.lost_row_quarter, page.row_quarter[row].is_some()) {
            if let Some(h) = self
                .schema
                .header_numbers
                .iter()
                .find(|h| h.column == column)
            {
                values.push((q, header_operand(h)));
            }
        }
        let mut quarters: Vec<u8> = values.iter().map(|(q, _)| *q).collect();
        quarters.sort_unstable();
        quarters.dedup();
        (values.len() == 4 && quarters == [1, 2, 3, 4]).then_some(values)
    }

    /// The cell, header number or text number `node` names, as an operand
    /// (whether it prints a percentage, its scale).
    pub fn node_operand(&self, node: &str) -> Option<Operand> {
        if let Some((row, column)) = cell_of_node(node) {
            let cell = self
                .schema
                .cells
                .iter()
                .find(|c| c.row == row && c.column == column)?;
            return Some(self.cell_value(cell));
        }
        if let Some(column) = header_column_of_node(node) {
            let h = self
                .schema
                .header_numbers
                .iter()
                .find(|h| h.column == column)?;
            return Some(header_operand(h));
        }
        let (sentence, token) = fact_of_node(node)?;
        let fact = self
            .schema
            .facts
            .iter()
            .find(|f| f.sentence == sentence && f.token == token)?;
        Some(fact_operand(fact))
    }

    /// The value that measures what the cell, header number or text
    /// number `node` measures, for `year`. A cell's (`{page}/cell/{i}/{j}`)
    /// in its row when the columns are years, in its column when the rows
    /// are ("2015", "2016" rows of a payments table); a header number's in
    /// the header of the year's column; a text number's
    /// (`{page}/fact/{k}/{t}`) in its sentence ("$ 412 million , $ 286
    /// million and $ 608 million in 2010 , 2009 and 2008 , respectively").
    pub fn same_measure_in(&self, node: &str, year: i32) -> Option<Operand> {
        if let Some((row, column)) = cell_of_node(node) {
            return self.same_measure_at(row, column, year);
        }
        if let Some(column) = header_column_of_node(node) {
            return self.same_header_number_in(column, year);
        }
        let (sentence, token) = fact_of_node(node)?;
        self.same_fact_in(sentence, token, year)
    }

    /// The number printed in the header of the column of `year`, beside
    /// the one of `column` (a lost first row: "2011 $ 8,742", "2010 $
    /// 8,105"), printed the same way.
    fn same_header_number_in(&self, column: usize, year: i32) -> Option<Operand> {
        let numbers = &self.schema.header_numbers;
        let number = numbers.iter().find(|h| h.column == column)?;
        number.year.filter(|&y| y != year)?;
        let [other] = numbers
            .iter()
            .filter(|h| h.year == Some(year) && h.percent == number.percent)
            .collect::<Vec<_>>()[..]
        else {
            return None;
        };
        Some(header_operand(other))
    }

    /// The number of the same sentence, printed the same way (scale,
    /// percentage, change), that is about `year`; the nearest when several.
    fn same_fact_in(&self, sentence: usize, token: usize, year: i32) -> Option<Operand> {
        let facts = &self.schema.facts;
        let fact = facts
            .iter()
            .find(|f| f.sentence == sentence && f.token == token)?;
        fact.year.filter(|&y| y != year)?;
        facts
            .iter()
            .filter(|f| f.sentence == sentence && f.year == Some(year) && !f.is_year_mention)
            .filter(|f| {
                f.scale == fact.scale && f.percent == fact.percent && f.is_change == fact.is_change
            })
            .min_by_key(|f| f.token.abs_diff(token))
            .map(fact_operand)
    }

    /// The two levels of a change, of one measure: when one is a
    /// percentage and the other not (a rate the text states, "increased
    /// 11.7 % in 2012", beside an amount the table prints), the cell's own
    /// row (or column) in the other's year replaces the other.
    pub fn levels_of_one_measure(&self, new: Operand, old: Operand) -> (Operand, Operand) {
        if new.percent == old.percent {
            return (new, old);
        }
        let other = |cell: &Operand, o: &Operand| {
            let (row, column) = cell.cell?;
            o.cell.is_none().then_some(())?;
            self.same_measure_at(row, column, o.year?)
        };
        if let Some(n) = other(&old, &new) {
            return (n, old);
        }
        if let Some(o) = other(&new, &old) {
            return (new, o);
        }
        (new, old)
    }

    /// The cell of `row` and `column`'s measure in `year`.
    fn same_measure_at(&self, row: usize, column: usize, year: i32) -> Option<Operand> {
        let cell = self
            .schema
            .cells
            .iter()
            .find(|c| c.row == row && c.column == column)?;
        let found: Vec<&CellEntry> = self
            .schema
            .cells
            .iter()
            .filter(|c| match (cell.column_year, cell.row_year) {
                (Some(_), _) => c.row == row && c.column_year == Some(year),
                (None, Some(_)) => c.column == column && c.row_year == Some(year),
                (None, None) => false,
            })
            .collect();
        match found.as_slice() {
            [c] => Some(self.cell_value(c)),
            _ => None,
        }
    }

    /// The cell of the row labelled `label` for `year`, or, with no year,
    /// in the table's only column.
    pub fn cell_of_row(&self, label: &str, year: Option<i32>) -> Option<Operand> {
        match year {
            Some(y) => self.cell_in_row(label, y),
            None if self.schema.columns.len() == 1 => self.only_cell(|c| c.row_label == label),
            None => None,
        }
    }

    /// The cell of the row labelled `label` for `year`.
    pub fn cell_in_row(&self, label: &str, year: i32) -> Option<Operand> {
        self.only_cell(|c| c.row_label == label && c.column_year.or(c.row_year) == Some(year))
    }

    /// The one cell that `keep` holds, if exactly one does.
    pub fn only_cell(&self, keep: impl Fn(&CellEntry) -> bool) -> Option<Operand> {
        let mut cells = self.schema.cells.iter().filter(|c| keep(c));
        match (cells.next(), cells.next()) {
            (Some(c), None) => Some(self.cell_value(c)),
            _ => None,
        }
    }
}

/// A stock-performance table: an index whose first column starts at 100.
pub(super) fn is_index_table(schema: &Schema) -> bool {
    let firsts: Vec<&CellEntry> = schema.cells.iter().filter(|c| c.column == 0).collect();
    !firsts.is_empty()
        && firsts
            .iter()
            .filter(|c| c.value == Decimal::ONE_HUNDRED)
            .count()
            * 2
            >= firsts.len()
        || schema.rows.first().is_some_and(|_| {
            let firsts: Vec<&CellEntry> = schema.cells.iter().filter(|c| c.row == 0).collect();
            firsts.len() >= 2
                && schema
                    .cells
                    .iter()
                    .filter(|c| c.column == 0 && c.value == Decimal::ONE_HUNDRED)
                    .count()
                    >= 2
        })
}

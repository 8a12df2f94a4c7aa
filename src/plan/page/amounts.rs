//! The text's amounts against the table's: which row's amount a text
//! number prints (in the table's scale or rounded in another), the words
//! the row borrows from it, and the rows and columns that print both signs.

use super::labels::marks_percent;
use super::PageIndex;
use crate::kg::schema::label_scale;
use crate::kg::Schema;
use crate::plan::cues::Cues;
use crate::words::{self, content_words};
use rust_decimal::Decimal;

impl PageIndex {
    /// The rows (and the lost first row) whose amounts text numbers print:
    /// the words the rows borrow from them and the numbers that restate
    /// them rounded; and the rows and columns of both signs.
    pub(super) fn index_amounts(&mut self, schema: &Schema, cues: &Cues) {
        let aligned = aligned_rows(schema, cues);
        // the lost first row's words are its header's (see `table_amounts`)
        let lost_words: Vec<String> = schema
            .header_numbers
            .iter()
            .flat_map(|h| content_words(&h.words))
            .collect();
        let mut row_text_words = text_alias_words(
            schema.rows.len() + 1,
            &aligned,
            &self.fact_words,
            &self
                .row_words
                .iter()
                .cloned()
                .chain([lost_words])
                .collect::<Vec<_>>(),
        );
        self.lost_row_text_words = row_text_words.pop().unwrap_or_default();
        self.row_text_words = row_text_words;
        let fact_rounds_cell = rounded_restatements(schema, &aligned);
        let mut row_restated_by = vec![Vec::new(); schema.rows.len() + 1];
        for (k, (row, rounds)) in aligned.iter().zip(&fact_rounds_cell).enumerate() {
            if let (Some(r), true) = (row, rounds) {
                row_restated_by[*r].push(k);
            }
        }
        self.fact_rounds_cell = fact_rounds_cell;
        self.row_restated_by = row_restated_by;
        self.row_signs_mixed = signs_mixed(schema);
        self.column_signs_mixed = column_signs_mixed(schema);
    }
}

/// The row whose amount each text number prints, if one: a [`distinctive`]
/// number equal to a cell of one row only (see [`same_amount`]; a number
/// several rows hold is no row's). Money matches no row that counts things
/// (fk:QuantityWord), and only money matches in another scale. The row
/// `schema.rows.len()` is the first row the table lost into its headers
/// (see [`table_amounts`]).
fn aligned_rows(schema: &Schema, cues: &Cues) -> Vec<Option<usize>> {
    // rows that count things ("number of stores") print no money
    let counts: Vec<bool> = schema
        .rows
        .iter()
        .map(|(l, _)| {
            words::tokens(l)
                .iter()
                .any(|w| cues.quantity_word.contains(&words::stem(w)))
        })
        .collect();
    let scales: Vec<Decimal> = match table_scale(schema) {
        Some(s) => vec![s],
        None => [1u64, 1_000, 1_000_000]
            .into_iter()
            .map(Decimal::from)
            .collect(),
    };
    let amounts = table_amounts(schema);
    schema
        .facts
        .iter()
        .map(|fact| {
            if !distinctive(fact.value, fact.is_year_mention) {
                return None;
            }
            let fact_scale = fact.scale.as_ref().map_or(Decimal::ONE, |s| s.multiplier());
            // a rounding in another scale is of money ("$ 1.2 billion"),
            // not of a count ("1.2 million shares")
            let money = fact.raw.starts_with('$');
            let mut rows: Vec<usize> = amounts
                .iter()
                .filter(|(_, _, value, percent)| {
                    distinctive(*value, false) && *percent == fact.percent
                })
                .filter(|(row, ..)| !(money && counts.get(*row) == Some(&true)))
                .filter(|(_, _, value, _)| {
                    if fact.percent {
                        value.abs() == fact.value.abs()
                    } else {
                        scales
                            .iter()
                            .filter(|t| money || **t == fact_scale)
                            .any(|t| same_amount(fact.value, fact_scale, *value, *t))
                    }
                })
                .map(|(row, ..)| *row)
                .collect();
            rows.sort_unstable();
            rows.dedup();
            match rows.as_slice() {
                [row] => Some(*row),
                _ => None,
            }
        })
        .collect()
}

/// The text's words for each row: the context words of each text number
/// that prints the row's amount ([`aligned_rows`]), those the row label
/// does not print itself.
fn text_alias_words(
    rows: usize,
    aligned: &[Option<usize>],
    fact_words: &[(Vec<String>, Vec<String>)],
    row_words: &[Vec<String>],
) -> Vec<Vec<String>> {
    let mut aliases: Vec<Vec<String>> = vec![Vec::new(); rows];
    for (row, (context, _)) in aligned.iter().zip(fact_words) {
        let Some(row) = *row else { continue };
        for w in context {
            if !row_words[row].contains(w) && !aliases[row].contains(w) {
                aliases[row].push(w.clone());
            }
        }
    }
    aliases
}

/// Which text numbers restate the amount of the row they align with (see
/// [`aligned_rows`]) rounded in another scale than the table's: a cell of
/// that row in the number's year (if it has one) is the amount once in the
/// text's scale and rounded as the text prints it.
fn rounded_restatements(schema: &Schema, aligned: &[Option<usize>]) -> Vec<bool> {
    let Some(table) = table_scale(schema) else {
        return vec![false; schema.facts.len()];
    };
    let amounts = table_amounts(schema);
    schema
        .facts
        .iter()
        .zip(aligned)
        .map(|(fact, row)| {
            let Some(scale) = fact.scale.as_ref().map(|s| s.multiplier()) else {
                return false;
            };
            row.is_some_and(|r| {
                scale != table
                    && amounts.iter().any(|(row, year, value, _)| {
                        // an amount of no year is the table's one period's
                        *row == r
                            && (fact.year.is_none() || year.is_none() || *year == fact.year)
                            && same_amount(fact.value, scale, *value, table)
                    })
            })
        })
        .collect()
}

/// A table's amounts as (row, column year, value, percent): its numeric
/// cells, then the numbers printed in its column headers as the row
/// `schema.rows.len()` (the first row the table lost into its headers).
fn table_amounts(schema: &Schema) -> Vec<(usize, Option<i32>, Decimal, bool)> {
    let lost = schema.rows.len();
    let cells = schema
        .cells
        .iter()
        .map(|c| (c.row, c.column_year, c.value, c.percent));
    let headers = schema.header_numbers.iter().enumerate().map(|(k, h)| {
        let year = schema.header_number_year(k, None);
        (lost, year, h.value, h.percent)
    });
    cells.chain(headers).collect()
}

/// The table's scale: what a row or column label prints ("( in millions
/// )"), else what a parenthesis of the text prints; `None` when unknown.
fn table_scale(schema: &Schema) -> Option<Decimal> {
    let labels = schema.columns.iter().chain(schema.rows.iter());
    labels
        .filter_map(|(l, _)| label_scale(l))
        .chain(
            schema
                .sentences
                .iter()
                .filter(|s| s.contains('('))
                .filter_map(|s| label_scale(s)),
        )
        .map(|s| s.multiplier())
        .next()
}

/// Whether a text number printed as `fact` (`fact_scale` its scale word's
/// multiplier, one without) is the cell value `cell` in a table of scale
/// `table`: equal, or equal once both are in the text's scale and the cell
/// is rounded as the text prints it ("$ 1.2 billion" for 1,234 in millions).
fn same_amount(fact: Decimal, fact_scale: Decimal, cell: Decimal, table: Decimal) -> bool {
    let (fact, cell) = (fact.abs(), cell.abs());
    if table == fact_scale {
        return cell.round_dp(fact.scale()) == fact;
    }
    // a rounding in another scale: only a number of two digits or more
    significant_digits(fact) >= 2 && (cell * table / fact_scale).round_dp(fact.scale()) == fact
}

/// Whether a printed number is distinctive enough that a cell of the same
/// value is the same amount, not a coincidence: no year or day of a date, no
/// whole number below ten, no bare whole number that reads as a year.
fn distinctive(value: Decimal, year_like: bool) -> bool {
    let v = value.abs();
    let whole = v.fract().is_zero();
    let small = v < Decimal::from(10);
    let a_year = (Decimal::from(1950)..=Decimal::from(2050)).contains(&v);
    !year_like && !(whole && (small || a_year))
}

/// Significant digits of a printed number ("1.2" has two, "40" two, "5" one).
fn significant_digits(value: Decimal) -> usize {
    let digits = value.abs().normalize().mantissa().to_string();
    digits.trim_start_matches('0').len()
}

/// For each row, whether its cells of year columns print both signs (a
/// row of other columns mixes kinds of value: a "( 2 )" footnote read as a
/// negative beside a size).
fn signs_mixed(schema: &Schema) -> Vec<bool> {
    let cells = schema.cells.iter().filter(|c| c.column_year.is_some());
    mixed(schema.rows.len(), cells.map(|c| (c.row, c.value)))
}

/// For each column that names no year and whose label marks a percentage
/// ("% change"), whether its cells print both signs.
fn column_signs_mixed(schema: &Schema) -> Vec<bool> {
    let cells = schema
        .cells
        .iter()
        .filter(|c| c.column_year.is_none() && marks_percent(&schema.columns[c.column].0));
    mixed(schema.columns.len(), cells.map(|c| (c.column, c.value)))
}

/// For each of `n` lines, whether its (line, value) pairs hold both signs.
fn mixed(n: usize, values: impl Iterator<Item = (usize, Decimal)>) -> Vec<bool> {
    let mut signs = vec![(false, false); n];
    for (line, value) in values {
        if let Some(s) = signs.get_mut(line) {
            if value.is_sign_negative() {
                s.0 = true;
            } else if !value.is_zero() {
                s.1 = true;
            }
        }
    }
    signs.into_iter().map(|(neg, pos)| neg && pos).collect()
}

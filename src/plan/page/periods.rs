//! The periods the labels name: boundaries (beginning or end of a period),
//! a roll-forward's year brackets and flow years, year ranges, quarters,
//! months and dates, the caption's year and every year the page speaks of.

use super::PageIndex;
use crate::kg::Schema;
use crate::plan::cues::{
    boundary_of, names_period, split_year_ranges, year_ranges, Boundary, Cues,
};
use crate::words::{self, content_words};
use std::collections::HashSet;

impl PageIndex {
    /// The rows' boundaries and a roll-forward's flow years, the labels'
    /// ranges of years, quarters, months and dates, and the caption's year.
    pub(super) fn index_periods(&mut self, schema: &Schema, cues: &Cues) {
        // the labels' own boundaries give a roll-forward's flows their year
        let printed_boundary = per_label(&schema.rows, |l| label_boundary(l, cues));
        let mut flow_row_year = flow_row_years(schema, &printed_boundary);
        total_row_years(schema, cues, &mut flow_row_year);
        self.row_boundary = bracket_years(schema, printed_boundary);
        self.row_years_are_names =
            row_years_are_names(schema) && flow_row_year.iter().all(Option::is_none);
        self.flow_row_year = flow_row_year;
        self.row_year_ranges = label_year_ranges(&schema.rows, cues);
        self.column_year_ranges = label_year_ranges(&schema.columns, cues);
        self.row_quarter = per_label(&schema.rows, words::quarter_in);
        self.column_quarter = per_label(&schema.columns, words::quarter_in);
        self.row_month = per_label(&schema.rows, words::month_in);
        self.column_month = per_label(&schema.columns, words::month_in);
        self.column_dates = per_label(&schema.columns, words::dates_in);
        self.caption_year = caption_year(schema);
    }
}

/// The ranges of years each label prints ("2018-2022").
fn label_year_ranges(labels: &[(String, Option<i32>)], cues: &Cues) -> Vec<Vec<(i32, i32)>> {
    labels
        .iter()
        .map(|(l, _)| {
            year_ranges(
                &split_year_ranges(&words::normalise_question(l)),
                &cues.range_joiner,
            )
        })
        .collect()
}

/// A label's boundary: cue words, or a date on the first or last day of a year.
pub(super) fn label_boundary(label: &str, cues: &Cues) -> Option<Boundary> {
    let toks = words::tokens(label);
    if let Some(b) = boundary_of(&toks, cues) {
        return Some(b);
    }
    // "year ended december 31 , 2009" names a year, not its last day
    if (0..toks.len()).any(|i| names_period(&toks, i, cues)) {
        return None;
    }
    words::year_boundary_date(label).map(|first| {
        if first {
            Boundary::Beginning
        } else {
            Boundary::End
        }
    })
}

/// A table of the changes between two years' amounts, opened and closed by
/// rows that name the same amount in consecutive years ("2010 net revenue"
/// ... "2011 net revenue"): its first row is the beginning of the period,
/// its last the end, the rows between are its flows. Boundaries the labels
/// already print are kept. The closing row may come before the last.
fn bracket_years(schema: &Schema, mut boundary: Vec<Option<Boundary>>) -> Vec<Option<Boundary>> {
    let n = schema.rows.len();
    if n < 3 || boundary.iter().any(Option::is_some) {
        return boundary;
    }
    let named = |label: &str| -> Option<(i32, Vec<String>)> {
        let years = words::years_in(label);
        let [year] = years.as_slice() else {
            return None;
        };
        let rest = content_words(label)
            .into_iter()
            .filter(|w| words::years_in(w).is_empty())
            .collect();
        Some((*year, rest))
    };
    // the closing row need not be the last: rows may follow it
    // ("exercisable at september 25 , 2016" after "outstanding at ...")
    let Some((a, first)) = named(&schema.rows[0].0) else {
        return boundary;
    };
    let closing = (2..n)
        .find(|&k| named(&schema.rows[k].0).is_some_and(|(b, last)| b == a + 1 && last == first));
    if let (Some(k), false) = (closing, first.is_empty()) {
        boundary[0] = Some(Boundary::Beginning);
        // the rows after it of its year are levels at the end too
        for (row, b) in boundary.iter_mut().enumerate().skip(k) {
            if words::years_in(&schema.rows[row].0) == [a + 1] {
                *b = Some(Boundary::End);
            }
        }
    }
    boundary
}

/// The year each flow row of a roll-forward is about: a row without a year
/// or boundary of its own, after a balance at the beginning of a year (that
/// year), or between two balances at the end of years (the later one's:
/// "granted" between "outstanding at december 31 , 2009" and "... 2010" is
/// 2010's).
fn flow_row_years(schema: &Schema, boundary: &[Option<Boundary>]) -> Vec<Option<i32>> {
    let balance = |k: usize| boundary[k].zip(schema.rows[k].1);
    (0..schema.rows.len())
        .map(|i| {
            if boundary[i].is_some() || schema.rows[i].1.is_some() {
                return None;
            }
            let before = (0..i).rev().find_map(balance);
            let after = (i + 1..schema.rows.len()).find_map(balance);
            match (before, after) {
                (Some((Boundary::Beginning, y)), _) => Some(y),
                (Some((Boundary::End, _)), Some((Boundary::End, y))) => Some(y),
                _ => None,
            }
        })
        .collect()
}

/// A row named only by the total word ("total") below rows that all name
/// the same year (the months of a quarter: "october 1 - october 31 ,
/// 2011", ...) sums them: it is of that year too.
fn total_row_years(schema: &Schema, cues: &Cues, years: &mut [Option<i32>]) {
    let only_total = |l: &str| words::tokens(l) == [cues.total_word.as_str()];
    let (totals, parts): (Vec<usize>, Vec<usize>) =
        (0..schema.rows.len()).partition(|&i| only_total(&schema.rows[i].0));
    let mut part_years = parts.iter().map(|&i| schema.rows[i].1);
    let Some(Some(year)) = part_years.next() else {
        return;
    };
    if parts.len() < 2 || !part_years.all(|y| y == Some(year)) {
        return;
    }
    for t in totals {
        if schema.rows[t].1.is_none() {
            years[t] = Some(year);
        }
    }
}

/// Whether the table's years name a few rows rather than its period axis:
/// no column names a year and fewer than half the rows do.
fn row_years_are_names(schema: &Schema) -> bool {
    let rows_with_years = schema.rows.iter().filter(|(_, y)| y.is_some()).count();
    schema.columns.iter().all(|(_, y)| y.is_none())
        && rows_with_years > 0
        && rows_with_years * 2 < schema.rows.len()
}

/// Whether the labels (and a lost row) name two quarters (or months) or more.
pub(super) fn quarters_differ(
    rows: &[Option<u8>],
    columns: &[Option<u8>],
    lost: Option<u8>,
) -> bool {
    let mut qs: Vec<u8> = rows
        .iter()
        .chain(columns)
        .flatten()
        .copied()
        .chain(lost)
        .collect();
    qs.sort_unstable();
    qs.dedup();
    qs.len() > 1
}

/// The one year the caption (the sentence just before the table) names,
/// when no row or column label names one.
fn caption_year(schema: &Schema) -> Option<i32> {
    let labels = schema.rows.iter().chain(schema.columns.iter());
    if labels
        .clone()
        .any(|(l, y)| y.is_some() || !words::years_in(l).is_empty())
    {
        return None;
    }
    let caption = schema.sentences.get(schema.pre_sentences.checked_sub(1)?)?;
    let mut years: Vec<i32> = caption
        .split_whitespace()
        .flat_map(words::years_in)
        .collect();
    years.dedup();
    match years.as_slice() {
        [y] => Some(*y),
        _ => None,
    }
}

/// Every year the page speaks of: label years, text numbers' years and
/// years printed in sentences.
pub(super) fn page_years(schema: &Schema) -> HashSet<i32> {
    let mut years: HashSet<i32> = HashSet::new();
    for (label, year) in schema.rows.iter().chain(schema.columns.iter()) {
        years.extend(year.iter().copied());
        years.extend(words::years_in(label));
    }
    years.extend(schema.facts.iter().filter_map(|f| f.year));
    for s in &schema.sentences {
        years.extend(s.split_whitespace().flat_map(words::years_in));
    }
    years
}

/// One value per label (row or column), computed from the label's text.
pub(super) fn per_label<T>(labels: &[(String, Option<i32>)], f: impl Fn(&str) -> T) -> Vec<T> {
    labels.iter().map(|(l, _)| f(l)).collect()
}

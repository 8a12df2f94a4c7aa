//! The numbers a question prints: its years and the constants of its
//! calculation, the first year, a range of years, a small count of values
//! or periods; and the years that are part of a label's name, not the
//! period asked.

use crate::kg::Schema;
use crate::plan::cues::{year_ranges, Cues};
use crate::plan::page::PageIndex;
use crate::words;
use rust_decimal::Decimal;
use std::str::FromStr;

/// Years printed in the question, and the numbers that are operands of the
/// calculation (`100`, `$ 1`, `1000`), not parts of names.
pub(in crate::plan) fn question_numbers(cues: &Cues, text: &str) -> (Vec<i32>, Vec<Decimal>) {
    let mut years = Vec::new();
    let mut numbers = Vec::new();
    let toks: Vec<&str> = text.split_whitespace().collect();
    for (i, tok) in toks.iter().enumerate() {
        let prev = i
            .checked_sub(1)
            .and_then(|p| toks.get(p))
            .copied()
            .unwrap_or("");
        // a constant of the calculation, not part of a name like "s&p 500"
        let operand_position = tok.starts_with('$') || cues.constant_lead.iter().any(|w| w == prev);
        let t = tok
            .trim_start_matches('$')
            .trim_end_matches('.')
            .trim_end_matches('%');
        if let Some(n) = cues
            .number_word(t)
            .filter(|_| cues.number_word_lead.iter().any(|w| w == prev))
        {
            numbers.push(n);
        } else if let Some(y) = crate::kg::text::as_year(t) {
            years.push(y);
        } else if t.contains('/') || t.contains('-') {
            // "12/31/10", "31-dec-2012"
            years.extend(words::years_in(t));
        } else if t
            .bytes()
            .all(|b| b.is_ascii_digit() || b == b'.' || b == b',')
            && t.bytes().any(|b| b.is_ascii_digit())
        {
            if let Ok(d) = Decimal::from_str(&t.replace(',', "")) {
                if operand_position {
                    numbers.push(d);
                }
            }
        }
    }
    (years, numbers)
}

/// The first year printed in `text`.
pub(in crate::plan) fn first_year(cues: &Cues, text: &str) -> Option<i32> {
    question_numbers(cues, text).0.first().copied()
}

/// The first and last year of a range the question prints: "2007 through
/// 2009", "from 2008 to 2011", "2007 - 2009".
pub(in crate::plan) fn year_range(cues: &Cues, text: &str) -> Option<(i32, i32)> {
    let toks: Vec<&str> = text.split_whitespace().collect();
    (0..toks.len()).find_map(|i| years_joined_at(&toks, i, &cues.range_joiner, &[]))
}

/// The two years of `toks[i..]` when it opens with a year, a word of
/// `joiners` or `more` and another year ("2014 and 2015", "2007 - 2009").
pub(super) fn years_joined_at(
    toks: &[&str],
    i: usize,
    joiners: &[String],
    more: &[String],
) -> Option<(i32, i32)> {
    let year = |k: usize| {
        toks.get(k)
            .and_then(|t| crate::kg::text::as_year(t.trim_end_matches('.')))
    };
    let joined = toks
        .get(i + 1)
        .is_some_and(|j| within(joiners, Some(j)) || within(more, Some(j)));
    year(i).filter(|_| joined).zip(year(i + 2))
}

/// Whether `t` is a word of `list`.
pub(super) fn within(list: &[String], t: Option<&&str>) -> bool {
    t.is_some_and(|t| list.iter().any(|w| w == t))
}

/// A number that counts values: a whole number from 2 to 12.
pub(in crate::plan) fn small_count(n: Decimal) -> Option<usize> {
    usize::try_from(n.trunc().mantissa())
        .ok()
        .filter(|n| (2..=12).contains(n))
}

/// How many periods a question counts: "the three years", "all 3
/// periods" (a small number before a span-of-time word, never a year),
/// "both years" (two).
pub(in crate::plan) fn counted_span(cues: &Cues, text: &str) -> Option<usize> {
    let toks: Vec<&str> = text.split_whitespace().collect();
    // "both years", "both segments": two
    if toks.iter().any(|t| cues.pair_word.iter().any(|p| p == t)) {
        return Some(2);
    }
    toks.windows(2).find_map(|w| {
        if !cues.time_span_word.iter().any(|s| s == w[1]) {
            return None;
        }
        small_count(
            cues.number_word(w[0])
                .or_else(|| w[0].parse::<Decimal>().ok())?,
        )
    })
}

/// Drops from `years` each year the question prints after the word a row
/// label prints it after ("the senior notes due 2020 in 2010" beside a row
/// "6.50 % senior notes due 2020"): part of the row's name, not the period
/// asked, when another year a column prints is left to be that.
pub(super) fn drop_name_years(text: &str, schema: &Schema, years: &mut Vec<i32>) {
    if years.len() < 2 {
        return;
    }
    let toks: Vec<&str> = text.split_whitespace().collect();
    let labels: Vec<String> = schema
        .rows
        .iter()
        .map(|(l, _)| format!(" {} ", l.split_whitespace().collect::<Vec<_>>().join(" ")))
        .collect();
    let named: Vec<i32> = toks
        .windows(2)
        .filter(|w| w[0].chars().all(char::is_alphabetic))
        .filter_map(|w| {
            let y = crate::kg::text::as_year(w[1])?;
            let phrase = format!(" {} {} ", w[0], w[1]);
            labels.iter().any(|l| l.contains(&phrase)).then_some(y)
        })
        .collect();
    // the year left must be a period the columns print
    let column_year = |y: &i32| schema.columns.iter().any(|(_, cy)| cy.as_ref() == Some(y));
    if years.iter().any(|y| !named.contains(y) && column_year(y)) {
        years.retain(|y| !named.contains(y));
    }
}

/// Drops from `years` the two years of a range the question prints when a
/// row or column label prints the same range ("the nol set to expire
/// between 2016 to 2020" beside a row "2016 to 2020", "debt due in 2014
/// and 2015" beside a column "2014-2015"): the range names that label, not
/// the period asked.
pub(super) fn drop_range_label_years(
    text: &str,
    page: &PageIndex,
    cues: &Cues,
    years: &mut Vec<i32>,
) {
    let asked = year_ranges(text, &cues.asked_range_joiner);
    let printed = |r: &(i32, i32)| {
        page.row_year_ranges
            .iter()
            .chain(&page.column_year_ranges)
            .any(|ranges| ranges.contains(r))
    };
    for (a, b) in asked.into_iter().filter(printed) {
        years.retain(|y| *y != a && *y != b);
    }
}

//! The first row a table lost into its column headers: its label, name,
//! period (year, quarter, month) and words, the header numbers of a row
//! nothing names, and column groups whose name the table lost.

use super::periods::{label_boundary, quarters_differ};
use super::PageIndex;
use crate::kg::schema::label_scale;
use crate::kg::Schema;
use crate::plan::cues::Cues;
use crate::words::{self, content_words};
use std::collections::HashMap;

impl PageIndex {
    /// The lost first row's label glued to the first header (that header
    /// then names no column) and the name a list of the text gives it.
    pub(super) fn index_lost_row_label(&mut self, schema: &Schema, cues: &Cues) {
        // a first header that names the lost row names no column
        let lost_row_label = lost_row_label(schema);
        self.lost_row_label_boundary = lost_row_label
            .as_deref()
            .and_then(|l| label_boundary(l, cues));
        if lost_row_label.is_some() {
            self.column_words[0].clear();
            self.column_boundary[0] = None;
        }
        self.lost_row_listed = lost_row_listed(schema, &self.row_words, cues).unwrap_or_default();
        self.lost_row_label = lost_row_label
            .as_deref()
            .map(content_words)
            .unwrap_or_default();
    }

    /// The lost first row's period, and whether the labels with it name
    /// several quarters or months; its header numbers when nothing names
    /// it, the words it shares with its sequence; the unnamed column groups.
    pub(super) fn index_lost_row_period(&mut self, schema: &Schema, cues: &Cues) {
        let (year, quarter, month) = lost_row_period(schema, &self.row_quarter);
        self.lost_row_year = year;
        self.lost_row_quarter = quarter;
        self.lost_row_month = month;
        self.quarters_differ = quarters_differ(&self.row_quarter, &self.column_quarter, quarter);
        self.months_differ = quarters_differ(&self.row_month, &self.column_month, month);
        self.lost_row_unnamed = unnamed_lost_row(schema, cues, year, quarter, month);
        self.lost_row_words = lost_row_words(
            &self.row_words,
            &self.row_caption_words,
            year.is_some() || quarter.is_some() || month.is_some(),
        );
        self.column_unnamed_group = unnamed_column_groups(schema, &self.column_words);
    }
}

/// The year, quarter and month of the first row the table lost into its
/// header ([`lost_first_row`], [`lost_first_month`]): rows of months
/// ("december 2009", "january 2010") step by months.
fn lost_row_period(
    schema: &Schema,
    row_quarter: &[Option<u8>],
) -> (Option<i32>, Option<u8>, Option<u8>) {
    let (year, quarter) = lost_first_row(schema, row_quarter);
    let (month, month_year) = lost_first_month(schema);
    let year = if month.is_some() { month_year } else { year };
    (year, quarter, month)
}

/// The period of the first row a table lost into its column headers (its
/// numbers are printed there: "$ 1150786" over rows "2004", "2005", ...):
/// the step before the sequence the remaining rows start, when their first
/// two rows are consecutive years or quarters.
fn lost_first_row(schema: &Schema, row_quarter: &[Option<u8>]) -> (Option<i32>, Option<u8>) {
    if schema.header_numbers.is_empty() || schema.rows.len() < 2 {
        return (None, None);
    }
    let year = match (schema.rows[0].1, schema.rows[1].1) {
        (Some(a), Some(b)) if b == a + 1 => Some(a - 1),
        (Some(a), Some(b)) if b + 1 == a => Some(a + 1),
        _ => None,
    };
    let quarter = match (row_quarter[0], row_quarter[1]) {
        (Some(a), Some(b)) if b == a + 1 && a > 1 => Some(a - 1),
        (Some(a), Some(b)) if a == b + 1 && a < 4 => Some(a + 1),
        _ => None,
    };
    (year, quarter)
}

/// The month (and year, when the first row prints one) of the first row a
/// table lost into its headers, when the first two rows left name
/// consecutive months: the month before the first ("october" before
/// "november 2009", "december 2009"; december of the year before january).
fn lost_first_month(schema: &Schema) -> (Option<u8>, Option<i32>) {
    if schema.header_numbers.is_empty() || schema.rows.len() < 2 {
        return (None, None);
    }
    let (Some(a), Some(b)) = (
        words::month_in(&schema.rows[0].0),
        words::month_in(&schema.rows[1].0),
    ) else {
        return (None, None);
    };
    if b != a % 12 + 1 {
        return (None, None);
    }
    let year = match words::years_in(&schema.rows[0].0).as_slice() {
        [y] => Some(if a == 1 { y - 1 } else { *y }),
        _ => None,
    };
    (Some(if a == 1 { 12 } else { a - 1 }), year)
}

/// A header's tokens without its scale note ("( in millions ) 2011" is
/// "2011") and without brackets.
fn header_tokens(header: &str) -> Vec<String> {
    let scale = label_scale(header).map(|s| words::stem(s.word()));
    let toks = words::tokens(header);
    let noted = |i: usize| {
        scale.as_ref().is_some_and(|s| {
            words::stem(&toks[i]) == *s
                || (toks[i] == "in" && toks.get(i + 1).is_some_and(|n| words::stem(n) == *s))
        })
    };
    (0..toks.len())
        .filter(|&i| !noted(i) && !toks[i].chars().all(|c| c == '(' || c == ')'))
        .map(|i| toks[i].clone())
        .collect()
}

/// The label of the first row the table lost into its headers when the
/// table glued it to the first one: every header prints a number, and only
/// the first prints words besides ("balance at january 1 $ 175.3", "$
/// 157.8", "$ 148.6"). Words every header prints ("high $ 17.84", "low $
/// 14.11") name columns instead.
fn lost_row_label(schema: &Schema) -> Option<String> {
    let numbers = &schema.header_numbers;
    if schema.columns.len() < 2 || numbers.len() != schema.columns.len() {
        return None;
    }
    let first = numbers.iter().find(|h| h.column == 0)?;
    let worded = |w: &str| {
        header_tokens(w)
            .iter()
            .any(|t| t.chars().any(char::is_alphabetic))
    };
    let others_bare = numbers
        .iter()
        .filter(|h| h.column != 0)
        .all(|h| !worded(&h.words));
    (worded(&first.words) && others_bare).then(|| first.words.clone())
}

/// The name of the first row the table lost into its headers when a list
/// of the text names the table's rows and that row first: every item of a
/// list of three or more (parted by punctuation and fk:AdditionConnector)
/// but the first is the label of a row, and the first is none ("three reportable segments : personal insurance ,
/// commercial insurance and specialty" over rows "commercial insurance",
/// "specialty", "total").
fn lost_row_listed(schema: &Schema, row_words: &[Vec<String>], cues: &Cues) -> Option<Vec<String>> {
    if schema.header_numbers.is_empty() || schema.header_numbers.len() != schema.columns.len() {
        return None;
    }
    let is_row = |item: &[String]| {
        !item.is_empty()
            && row_words
                .iter()
                .any(|r| !r.is_empty() && r.as_slice() == item)
    };
    schema.sentences.iter().find_map(|sentence| {
        let toks: Vec<&str> = sentence.split_whitespace().collect();
        let items: Vec<Vec<String>> = toks
            .split(|t| {
                !t.chars().any(char::is_alphanumeric)
                    || cues.addition_connector.iter().any(|c| c == t)
            })
            .map(|part| content_words(&part.join(" ")))
            .collect();
        // runs of short items, each of one to four content words
        items
            .split(|i| i.is_empty() || i.len() > 4)
            .filter(|run| run.len() >= 3)
            .find_map(|run| {
                // the list may open after words of its own ("our segments")
                (0..run.len().saturating_sub(2)).find_map(|start| {
                    let (first, rest) = run[start..].split_first()?;
                    (!is_row(first) && rest.iter().all(|i| is_row(i))).then(|| first.clone())
                })
            })
    })
}

/// The header numbers of the lost first row when nothing on the page names
/// that row: every column header is only a number, or a year and a number
/// (`$ 45826`; `2009 $ 602`, `2008 $ 587`), and the rows left start no
/// sequence of years, quarters or months (which would give the lost row's
/// period).
fn unnamed_lost_row(
    schema: &Schema,
    cues: &Cues,
    year: Option<i32>,
    quarter: Option<u8>,
    month: Option<u8>,
) -> Vec<usize> {
    // a header that prints only its period: a year, or a date
    // ("12/31/2013", "year ended december 2009"), a scale note aside; or a
    // column of a schedule ("thereafter", "total")
    let bare = |w: &str| {
        let day = |t: &str| t.len() <= 2 && t.chars().all(|c| c.is_ascii_digit());
        let is = |list: &[String], t: &str| list.iter().any(|c| c == t);
        let period_word = |t: &str| {
            is(&cues.period_noun, t)
                || is(&cues.boundary_forms, t)
                || cues.period_qualifier.contains(&words::stem(t))
                || words::is_stop_word(t)
        };
        let column_word = |t: &str| is(&cues.thereafter, t) || t == cues.total_word;
        // an ordinal of a quarter the header names ("second quarter")
        let quarter = words::quarter_in(w).is_some();
        let ordinal = |t: &str| quarter && words::quarter_in(&format!("{t} quarter")).is_some();
        words::years_in(w).len() <= 1
            && header_tokens(w).iter().all(|t| {
                words::years_in(t).len() == 1
                    || words::month_number(t).is_some()
                    || day(t)
                    || period_word(t)
                    || column_word(t)
                    || ordinal(t)
            })
    };
    if schema.columns.is_empty()
        || schema.header_numbers.len() != schema.columns.len()
        || year.is_some()
        || quarter.is_some()
        || month.is_some()
        || !schema.header_numbers.iter().all(|h| bare(&h.words))
    {
        return Vec::new();
    }
    (0..schema.header_numbers.len()).collect()
}

/// The words a lost first row shares with its sequence ("quarter" of
/// "second quarter", "third quarter"; a schedule total's words its year
/// rows take): the words of the first two rows both carry, when the rows'
/// sequence gave the lost row a period.
fn lost_row_words(
    row_words: &[Vec<String>],
    row_caption_words: &[Vec<String>],
    period_known: bool,
) -> Vec<String> {
    if !period_known || row_words.len() < 2 {
        return Vec::new();
    }
    let named = |r: usize| row_words[r].iter().chain(&row_caption_words[r]);
    let second: Vec<&String> = named(1).collect();
    let mut out: Vec<String> = named(0).filter(|w| second.contains(w)).cloned().collect();
    out.dedup();
    out
}

/// The words naming each column's group, when a group of columns lost its
/// name. Columns whose year an earlier column already printed start a new
/// group (the `k`th column of a year is in group `k`); a group is unnamed
/// when its labels print no word but years and footnote marks while
/// another group's labels print words besides: the table kept one group's
/// name and lost the other's. An unnamed group's columns get the words of
/// the named groups (those the mention must share to name a group at all,
/// "u.s. subsidiaries" beside "bermuda subsidiaries"); every other column
/// gets none.
fn unnamed_column_groups(schema: &Schema, column_words: &[Vec<String>]) -> Vec<Vec<String>> {
    let none = vec![Vec::new(); schema.columns.len()];
    let mut seen: HashMap<i32, usize> = HashMap::new();
    let group: Vec<Option<usize>> = schema
        .columns
        .iter()
        .map(|(_, year)| {
            year.map(|y| {
                let k = seen.entry(y).or_insert(0);
                *k += 1;
                *k - 1
            })
        })
        .collect();
    let groups = group.iter().flatten().max().map_or(0, |g| g + 1);
    if groups < 2 {
        return none;
    }
    let name_words: Vec<Vec<String>> = (0..groups)
        .map(|g| {
            let mut w: Vec<String> = group
                .iter()
                .zip(column_words)
                .filter(|(k, _)| **k == Some(g))
                .flat_map(|(_, words)| words.iter())
                .filter(|w| w.chars().any(char::is_alphabetic))
                .cloned()
                .collect();
            w.sort();
            w.dedup();
            w
        })
        .collect();
    let named: Vec<String> = name_words.iter().flatten().cloned().collect();
    if named.is_empty() {
        return none;
    }
    group
        .iter()
        .map(|k| match k {
            Some(g) if name_words[*g].is_empty() => named.clone(),
            _ => Vec::new(),
        })
        .collect()
}

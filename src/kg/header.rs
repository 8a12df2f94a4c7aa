//! Numbers printed in column headers: tables whose first row of values was
//! read into the headers (`$ 45826`, `high $ 17.84`, `low $ 4.11`).
//!
//! A header prints a number when, once trailing footnote marks (`( 1 )`,
//! `(a)`) are set aside, it ends with a run of tokens that the cell parser
//! ([`crate::dataset::cell::parse_cell`]) reads as one number: `$ 17.84`,
//! `( 1,234 )`, `12.5 %`, `83382`. Years and dates are not header numbers:
//! a four-digit year (`2009`, `fiscal 2009`, `2008 to 2009`, `$ 2014`), a
//! day after a month (`december 31`), a day or year glued to a year
//! (`dec . 282013`, `20142007`), the end of a range of years (`fiscal year
//! 2023 -24`), a number followed by a word (`less than 1 year`) and the
//! number of a name (`s&p 500`, `level 2`) are not. Nothing here knows
//! about RDF: [`super::abox`] turns a header number into triples.

use super::text::{as_year, is_month};
use crate::dataset::cell::{parse_cell, CellUnit};
use rust_decimal::Decimal;

/// The number a column header prints.
#[derive(Debug, Clone, PartialEq)]
pub struct HeaderNumber {
    /// The number as printed in the header, signs and units included (`$ 17.84`).
    pub raw: String,
    /// Its value (negative when parenthesised or with a minus).
    pub value: Decimal,
    /// The unit mark printed with it.
    pub unit: CellUnit,
    /// The header's other words, before the number (`high`); empty when the
    /// number is the whole header.
    pub words: String,
}

/// Words after which a number names something rather than measuring it
/// (`s&p 500`, `russell 2000`, `level 2`, `series b`).
const NAME_WORDS: &[&str] = &[
    "s&p", "russell", "nasdaq", "nyse", "ftse", "dow", "wilshire", "msci", "stoxx", "nikkei",
    "level", "tier", "class", "series", "phase", "note", "notes", "group", "plan", "section",
    "item", "schedule", "article", "exhibit", "fund",
];

/// The number a column header prints, if it prints one that is not a year
/// or a date.
pub fn header_number(header: &str) -> Option<HeaderNumber> {
    let spans = token_spans(header);
    let mut end = spans.len();
    // trailing footnote marks: `( 1 )`, `( a )`, `(1)`, `[2]`
    while end > 0 {
        let last = &header[spans[end - 1].0..spans[end - 1].1];
        if is_glued_footnote(last) {
            end -= 1;
        } else if last == ")" && end >= 3 && &header[spans[end - 3].0..spans[end - 3].1] == "(" {
            let inner = &header[spans[end - 2].0..spans[end - 2].1];
            if !is_footnote(inner) {
                break;
            }
            end -= 3;
        } else {
            break;
        }
    }
    let token = |k: usize| &header[spans[k].0..spans[k].1];
    // the run of number-like tokens that ends the header; a year before
    // another number is the column's label, not part of it (`2010 5.2%`)
    let mut start = end;
    while start > 0
        && is_number_like(token(start - 1))
        && !(start < end && as_year(token(start - 1)).is_some())
    {
        start -= 1;
    }
    // the longest of its tails the cell parser reads as one number
    let (from, value, unit) = (start..end).find_map(|k| {
        let raw = &header[spans[k].0..spans[end - 1].1];
        let cell = parse_cell(raw);
        cell.value.map(|v| (k, v, cell.unit))
    })?;
    let digits: Vec<usize> = (from..end)
        .filter(|k| token(*k).bytes().any(|b| b.is_ascii_digit()))
        .collect();
    let number = token(*digits.last()?);
    let bare = number
        .trim_matches(|c: char| !c.is_ascii_digit())
        .to_string();
    if as_year(&bare).is_some() || (unit == CellUnit::None && glued_year(number)) {
        return None;
    }
    let before: Vec<&str> = (0..from).map(token).filter(|t| *t != ".").collect();
    // the end of a range of years: `fiscal year 2023 -24`, `2008 - 09`
    let dash = header[spans[from].0..].starts_with(['-', '−', '–']);
    if dash && before.last().is_some_and(|w| as_year(w).is_some()) {
        return None;
    }
    // a day after its month; an amount of money is none ("balance at
    // january 1 $ 175.3")
    if unit != CellUnit::Currency && before.iter().rev().take(2).any(|t| is_month(t)) {
        return None;
    }
    if before
        .last()
        .is_some_and(|w| NAME_WORDS.contains(w) || w.contains('&'))
    {
        return None;
    }
    let mut words: Vec<&str> = (0..from).map(token).collect();
    while words
        .last()
        .is_some_and(|w| matches!(*w, "," | ":" | ";" | "-" | "."))
    {
        words.pop();
    }
    Some(HeaderNumber {
        raw: header[spans[from].0..spans[end - 1].1].to_string(),
        value,
        unit,
        words: words.join(" "),
    })
}

/// A bare integer of five to eight digits that ends with a year: a day or
/// a year glued to a year (`282013`, `20142007`), not an amount. A currency
/// sign makes it an amount (`$ 602011`).
fn glued_year(token: &str) -> bool {
    (5..=8).contains(&token.len())
        && token.bytes().all(|b| b.is_ascii_digit())
        && as_year(&token[token.len() - 4..]).is_some()
}

/// The byte ranges of a text's whitespace-separated tokens.
fn token_spans(text: &str) -> Vec<(usize, usize)> {
    let mut spans = Vec::new();
    let mut start = None;
    for (i, c) in text.char_indices() {
        match (c.is_whitespace(), start) {
            (true, Some(s)) => {
                spans.push((s, i));
                start = None;
            }
            (false, None) => start = Some(i),
            _ => {}
        }
    }
    if let Some(s) = start {
        spans.push((s, text.len()));
    }
    spans
}

/// A token that may be part of a printed number: digits with separators, a
/// sign, a currency sign, a parenthesis or a percent sign (a lone `.` or `,`
/// is punctuation).
fn is_number_like(token: &str) -> bool {
    token != "."
        && token != ","
        && token.chars().all(|c| {
            c.is_ascii_digit()
                || matches!(
                    c,
                    ',' | '.' | '$' | '€' | '£' | '(' | ')' | '%' | '-' | '−' | '–' | '+'
                )
        })
}

/// A footnote reference: one or two letters, a small roman numeral, or a
/// number of at most two digits.
fn is_footnote(inner: &str) -> bool {
    let n = inner.chars().count();
    let letters = inner.chars().all(|c| c.is_ascii_alphabetic());
    let roman = inner
        .chars()
        .all(|c| matches!(c.to_ascii_lowercase(), 'i' | 'v' | 'x'));
    let digits = inner.chars().all(|c| c.is_ascii_digit());
    n > 0 && ((letters && n <= 2) || (roman && n <= 4) || (digits && n <= 2))
}

/// A footnote mark glued into one token: `(1)`, `(a)`, `[2]`.
fn is_glued_footnote(token: &str) -> bool {
    let inner = token
        .strip_prefix('(')
        .and_then(|t| t.strip_suffix(')'))
        .or_else(|| token.strip_prefix('[').and_then(|t| t.strip_suffix(']')));
    inner.is_some_and(is_footnote)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::str::FromStr;

    fn read(header: &str) -> Option<(String, String, String, CellUnit)> {
        header_number(header).map(|n| (n.value.to_string(), n.raw, n.words, n.unit))
    }

    fn number(header: &str, value: &str, raw: &str, words: &str, unit: CellUnit) {
        let n = header_number(header).unwrap_or_else(|| panic!("no number in {header:?}"));
        assert_eq!(n.value, Decimal::from_str(value).unwrap(), "{header:?}");
        assert_eq!(n.raw, raw, "{header:?}");
        assert_eq!(n.words, words, "{header:?}");
        assert_eq!(n.unit, unit, "{header:?}");
    }

    #[test]
    fn headers_that_print_a_number() {
        use CellUnit::{Currency, None as NoUnit, Percent};
        number("$ 45826", "45826", "$ 45826", "", Currency);
        number("high $ 17.84", "17.84", "$ 17.84", "high", Currency);
        number("low $ 4.11", "4.11", "$ 4.11", "low", Currency);
        number("83382", "83382", "83382", "", NoUnit);
        number("$ 450697000", "450697000", "$ 450697000", "", Currency);
        number(
            "internationalsubscribers ( millions ) 246",
            "246",
            "246",
            "internationalsubscribers ( millions )",
            NoUnit,
        );
        number("change ( 1,234 )", "-1234", "( 1,234 )", "change", NoUnit);
        number("margin 12.5 %", "12.5", "12.5 %", "margin", Percent);
        number(
            "rate 5.000% ( 5.000 % )",
            "5.000",
            "5.000% ( 5.000 % )",
            "rate",
            Percent,
        );
        number("high $ 17.84 ( 1 )", "17.84", "$ 17.84", "high", Currency);
        number(
            "price : $ 1,234.5 (a)",
            "1234.5",
            "$ 1,234.5",
            "price",
            Currency,
        );
        number(
            "balance at january 1 $ 175.3",
            "175.3",
            "$ 175.3",
            "balance at january 1",
            Currency,
        );
        // a glued day and year needs its month to be a date
        number("$ 602011", "602011", "$ 602011", "", Currency);
        // a year before the number labels the column
        number("2010 5.2%", "5.2", "5.2%", "2010", Percent);
        number("2009 48.6", "48.6", "48.6", "2009", NoUnit);
        number("2010 $ 1,507", "1507", "$ 1,507", "2010", Currency);
    }

    #[test]
    fn years_dates_footnotes_and_names_are_not_header_numbers() {
        for header in [
            "2009",
            "december 31 , 2008",
            "fiscal 2009",
            "2008 to 2009",
            "2009 ( a )",
            "$ 2014",
            "12/31/05",
            "december 31",
            "dec . 282013 (1)",
            "three months ended dec . 282013 (1)",
            "december 312017",
            "2008 20142007",
            "282013",
            "payments due by fiscal year 2023 -24",
            "fiscal 2008 - 09",
            "% (  % ) change 2014 v 2013",
            "pmi peer group ( 1 )",
            "approximate size ( in squarefeet ) ( 1 )",
            "( 1 )",
            "s&p 500",
            "s&p 500 index",
            "level 2",
            "payments due by period ( a ) less than 1 year",
            "payments due by period ( a ) 1-3 years",
            "commitment expiration by period after 5 years",
            "year ended december 31 , $ change",
            "estimatedincrease to 2012pensionexpense ( in millions )",
            "amount ( in millions )",
            "",
            "$",
            "total",
        ] {
            assert_eq!(read(header), None, "{header:?}");
        }
    }
}

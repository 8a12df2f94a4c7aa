//! Parsing of one table cell as printed in a report ("$ 1,234.5", "( 12 )",
//! "12.5%", "n/a", "12 ( a )") into an exact decimal value and a unit.
//!
//! The parser never guesses: a cell is a number only when, once currency
//! symbols, sign marks, a trailing percent sign, footnote marks and one unit
//! word are set aside, what remains is exactly one number. Everything else
//! (dates, names, "n/a") has no value. The printed text is always kept.

use rust_decimal::Decimal;
use std::str::FromStr;

/// What a cell's number is measured in, as far as the cell itself says.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum CellUnit {
    /// The cell ends with `%`; the value is the number as printed (12% → 12).
    Percent,
    /// The cell carries a currency symbol (`$`, `€`, `£`).
    Currency,
    /// No unit mark, or no value.
    None,
}

/// One table cell: the printed text, and its number when it holds one.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Cell {
    /// The cell exactly as it appears in the data, untouched.
    pub raw: String,
    /// The number the cell shows, sign included; `None` when it shows none.
    pub value: Option<Decimal>,
    /// The unit mark the cell carries; `CellUnit::None` when `value` is `None`.
    pub unit: CellUnit,
}

impl Cell {
    /// An empty cell (raw `""`, no value), used for missing table entries.
    pub fn empty() -> Cell {
        Cell {
            raw: String::new(),
            value: None,
            unit: CellUnit::None,
        }
    }
}

/// Words that mean "no value" when they are the whole cell.
const NO_VALUE: &[&str] = &[
    "", "n/a", "n.a.", "n.a", "na", "nm", "n/m", "-", "--", "—", "–", "none", "nil",
];

/// Unit words accepted after a number ("5 years", "2.5 x", "12 bps").
const UNIT_WORDS: &[&str] = &[
    "year",
    "years",
    "month",
    "months",
    "day",
    "days",
    "x",
    "bps",
    "million",
    "millions",
    "billion",
    "billions",
    "thousand",
    "thousands",
];

/// Parses one printed cell into its value and unit. Never panics.
pub fn parse_cell(raw: &str) -> Cell {
    let (value, unit) = match parse_value(raw) {
        Some((value, unit)) => (Some(value), unit),
        None => (None, CellUnit::None),
    };
    Cell {
        raw: raw.to_string(),
        value,
        unit,
    }
}

/// The value and unit of a printed cell, or `None` when it shows no number.
fn parse_value(raw: &str) -> Option<(Decimal, CellUnit)> {
    let text = raw.trim();
    if NO_VALUE.contains(&text.to_lowercase().as_str()) {
        return None;
    }
    let text = strip_marks(text);
    let text = strip_unit_word(text);
    parse_number(text)
}

/// Removes footnote marks and repeated magnitudes that follow a number:
/// `12*`, `12 [1]`, `12 ( a )`, `12 (1)`, `12 ( b ) ( c )`, and the
/// normalised form `-453.1 ( 453.1 )` / `3.2% ( 3.2 % )`.
fn strip_marks(text: &str) -> &str {
    let mut text = text.trim();
    loop {
        let before = text;
        if let Some(rest) = text.strip_suffix('*') {
            text = rest.trim_end();
        } else if let Some((prefix, inner)) = trailing_group(text, '[', ']') {
            if is_footnote(inner) && has_digit(prefix) {
                text = prefix;
            }
        } else if let Some((prefix, inner)) = trailing_group(text, '(', ')') {
            if has_digit(prefix) && (is_footnote(inner) || repeats_magnitude(prefix, inner)) {
                text = prefix;
            }
        }
        if text.len() == before.len() {
            return text;
        }
    }
}

/// Splits `text` ending with `close` into the text before the matching
/// `open` (trimmed) and the content of the group (trimmed).
fn trailing_group(text: &str, open: char, close: char) -> Option<(&str, &str)> {
    let body = text.strip_suffix(close)?;
    let start = body.rfind(open)?;
    let inner = body.get(start + open.len_utf8()..)?;
    if inner.contains(close) {
        return None;
    }
    let prefix = body.get(..start)?;
    Some((prefix.trim(), inner.trim()))
}

/// A footnote reference: one or two letters, a small roman numeral, or a
/// number of at most two digits.
fn is_footnote(inner: &str) -> bool {
    let n = inner.chars().count();
    if n == 0 {
        return false;
    }
    let letters = inner.chars().all(|c| c.is_ascii_alphabetic());
    let roman = inner
        .chars()
        .all(|c| matches!(c.to_ascii_lowercase(), 'i' | 'v' | 'x'));
    let digits = inner.chars().all(|c| c.is_ascii_digit());
    (letters && n <= 2) || (roman && n <= 4) || (digits && n <= 2)
}

/// Whether `inner` is the magnitude of the number in `prefix`, as in the
/// normalised tables' `-453.1 ( 453.1 )` and `3.2% ( 3.2 % )`.
fn repeats_magnitude(prefix: &str, inner: &str) -> bool {
    match (parse_number(prefix), parse_number(inner)) {
        (Some((a, _)), Some((b, _))) => a.abs() == b.abs(),
        _ => false,
    }
}

fn has_digit(text: &str) -> bool {
    text.chars().any(|c| c.is_ascii_digit())
}

/// Removes one trailing unit word ("years", "x", "million", ...) or an `x`
/// glued to the number ("2.5x").
fn strip_unit_word(text: &str) -> &str {
    if let Some((head, last)) = text.rsplit_once(char::is_whitespace) {
        if UNIT_WORDS.contains(&last.to_lowercase().as_str()) && has_digit(head) {
            return head.trim_end();
        }
    }
    if let Some(head) = text.strip_suffix(['x', 'X']) {
        if head.ends_with(|c: char| c.is_ascii_digit()) {
            return head;
        }
    }
    text
}

/// Parses a bare number with its sign, currency and percent marks:
/// `$ ( 1,234 )`, `( $ 12 )`, `-12.5%`, `−3`, `$-3.7`. Spaces are ignored.
fn parse_number(text: &str) -> Option<(Decimal, CellUnit)> {
    let compact: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    let mut s = compact.as_str();
    let (mut negative, mut parens, mut currency, mut percent) = (false, false, false, false);
    loop {
        if !parens {
            if let Some(inner) = s.strip_prefix('(').and_then(|r| r.strip_suffix(')')) {
                s = inner;
                parens = true;
                negative = !negative;
                continue;
            }
        }
        if !currency {
            if let Some(rest) = s.strip_prefix(['$', '€', '£']) {
                s = rest;
                currency = true;
                continue;
            }
        }
        if !percent {
            if let Some(rest) = s.strip_suffix('%') {
                s = rest;
                percent = true;
                continue;
            }
        }
        break;
    }
    if let Some(rest) = s.strip_prefix(['-', '−', '–']) {
        s = rest;
        negative = !negative;
    } else if let Some(rest) = s.strip_prefix('+') {
        s = rest;
    }
    if !currency {
        if let Some(rest) = s.strip_prefix(['$', '€', '£']) {
            s = rest;
            currency = true;
        }
    }
    let magnitude = parse_unsigned(s)?;
    let value = if negative { -magnitude } else { magnitude };
    let unit = if percent {
        CellUnit::Percent
    } else if currency {
        CellUnit::Currency
    } else {
        CellUnit::None
    };
    Some((value, unit))
}

/// Parses an unsigned decimal: digits with an optional fraction, thousands
/// separators in groups of three (`1,234,567.5`) and an optional exponent
/// (`1e16`, as JSON numbers may print). Out-of-range numbers give `None`.
fn parse_unsigned(s: &str) -> Option<Decimal> {
    let (mantissa, exponent) = match s.find(['e', 'E']) {
        Some(i) => (s.get(..i)?, Some(s.get(i + 1..)?)),
        None => (s, None),
    };
    let (int_part, frac_part) = match mantissa.split_once('.') {
        Some((i, f)) => (i, Some(f)),
        None => (mantissa, None),
    };
    let int_digits = strip_thousands(int_part)?;
    if let Some(frac) = frac_part {
        if !frac.chars().all(|c| c.is_ascii_digit()) {
            return None;
        }
    }
    let frac = frac_part.unwrap_or("");
    if int_digits.is_empty() && frac.is_empty() {
        return None;
    }
    let int_digits = if int_digits.is_empty() {
        "0".to_string()
    } else {
        int_digits
    };
    let plain = if frac.is_empty() {
        int_digits
    } else {
        format!("{int_digits}.{frac}")
    };
    match exponent {
        None => Decimal::from_str(&plain).ok(),
        Some(exp) => {
            let digits = exp.strip_prefix(['+', '-']).unwrap_or(exp);
            if digits.is_empty() || !digits.chars().all(|c| c.is_ascii_digit()) {
                return None;
            }
            let exp = exp.strip_prefix('+').unwrap_or(exp);
            Decimal::from_scientific(&format!("{plain}e{exp}")).ok()
        }
    }
}

/// The digits of an integer part, with thousands separators checked and
/// removed; `None` when separators are misplaced or a non-digit appears.
fn strip_thousands(int_part: &str) -> Option<String> {
    if !int_part.contains(',') {
        return int_part
            .chars()
            .all(|c| c.is_ascii_digit())
            .then(|| int_part.to_string());
    }
    let mut groups = int_part.split(',');
    let first = groups.next()?;
    if first.is_empty() || first.len() > 3 || !first.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let mut digits = first.to_string();
    for group in groups {
        if group.len() != 3 || !group.chars().all(|c| c.is_ascii_digit()) {
            return None;
        }
        digits.push_str(group);
    }
    Some(digits)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(raw: &str, expected: Option<&str>, unit: CellUnit) {
        let cell = parse_cell(raw);
        let expected = expected.map(|e| Decimal::from_str(e).unwrap());
        assert_eq!(cell.value, expected, "value of {raw:?}");
        assert_eq!(cell.unit, unit, "unit of {raw:?}");
        assert_eq!(cell.raw, raw, "raw of {raw:?}");
    }

    #[test]
    fn parses_the_printed_forms() {
        use CellUnit::{Currency, None as NoUnit, Percent};
        let cases: &[(&str, Option<&str>, CellUnit)] = &[
            ("12", Some("12"), NoUnit),
            ("  60.94 ", Some("60.94"), NoUnit),
            ("-28.0", Some("-28.0"), NoUnit),
            ("2014.0", Some("2014"), NoUnit),
            ("1,234.5", Some("1234.5"), NoUnit),
            ("1,234,567", Some("1234567"), NoUnit),
            ("$ 55.78", Some("55.78"), Currency),
            ("$1,410.5", Some("1410.5"), Currency),
            ("€ 12", Some("12"), Currency),
            ("£12.5", Some("12.5"), Currency),
            ("( 12 )", Some("-12"), NoUnit),
            ("(12)", Some("-12"), NoUnit),
            ("(453.1)", Some("-453.1"), NoUnit),
            ("$ ( 1,234 )", Some("-1234"), Currency),
            ("( $ 12 )", Some("-12"), Currency),
            ("$(4.9)", Some("-4.9"), Currency),
            ("-12", Some("-12"), NoUnit),
            ("−19.1%", Some("-19.1"), Percent),
            ("- 12", Some("-12"), NoUnit),
            ("$ -3.7", Some("-3.7"), Currency),
            ("-$3.7", Some("-3.7"), Currency),
            ("12%", Some("12"), Percent),
            ("12.5 %", Some("12.5"), Percent),
            ("( 2.5 )%", Some("-2.5"), Percent),
            ("( 2.5% )", Some("-2.5"), Percent),
            ("12 ( a )", Some("12"), NoUnit),
            ("12 (1)", Some("12"), NoUnit),
            ("12*", Some("12"), NoUnit),
            ("12 [1]", Some("12"), NoUnit),
            ("12 ( b ) ( c )", Some("12"), NoUnit),
            ("$ 1,234 ( ii )", Some("1234"), Currency),
            ("( 12 ) ( a )", Some("-12"), NoUnit),
            ("( 1 )", Some("-1"), NoUnit),
            ("-453.1 ( 453.1 )", Some("-453.1"), NoUnit),
            ("$ -3.7 ( 3.7 )", Some("-3.7"), Currency),
            ("3.2% ( 3.2 % )", Some("3.2"), Percent),
            ("12 ( 100 )", None, NoUnit),
            ("", None, NoUnit),
            ("   ", None, NoUnit),
            ("n/a", None, NoUnit),
            ("N/A", None, NoUnit),
            ("n.a.", None, NoUnit),
            ("na", None, NoUnit),
            ("nm", None, NoUnit),
            ("-", None, NoUnit),
            ("—", None, NoUnit),
            ("–", None, NoUnit),
            ("none", None, NoUnit),
            ("nil", None, NoUnit),
            ("january 3 2009", None, NoUnit),
            ("12/31/2007", None, NoUnit),
            ("leased", None, NoUnit),
            ("2.5 years", Some("2.5"), NoUnit),
            ("5 years", Some("5"), NoUnit),
            ("1.5x", Some("1.5"), NoUnit),
            ("1.5 x", Some("1.5"), NoUnit),
            ("25 bps", Some("25"), NoUnit),
            ("$ 12 million", Some("12"), Currency),
            ("12 apples", None, NoUnit),
            ("years", None, NoUnit),
            (".5", Some("0.5"), NoUnit),
            ("1e16", Some("10000000000000000"), NoUnit),
            ("1.5e-5", Some("0.000015"), NoUnit),
            ("((", None, NoUnit),
            ("()", None, NoUnit),
            ("$", None, NoUnit),
            ("%", None, NoUnit),
            ("1,2,3", None, NoUnit),
            (",123", None, NoUnit),
            ("1,23", None, NoUnit),
            ("1.2.3", None, NoUnit),
            ("1e400", None, NoUnit),
            ("1e", None, NoUnit),
            ("--12", None, NoUnit),
            ("((12))", None, NoUnit),
            ("12)", None, NoUnit),
            ("(12", None, NoUnit),
        ];
        for (raw, value, unit) in cases {
            check(raw, *value, *unit);
        }
        assert!(cases.len() >= 30);
    }

    #[test]
    fn survives_huge_and_odd_inputs() {
        let long = "9".repeat(500);
        assert_eq!(parse_cell(&long).value, None);
        let long_frac = format!("0.{}", "1".repeat(200));
        let _ = parse_cell(&long_frac);
        let commas = "1,000".repeat(100);
        let _ = parse_cell(&commas);
        for raw in [
            "(((((",
            ")))))",
            "[",
            "]",
            "[[1]]",
            "*",
            "**",
            "( a )",
            "(1) (2)",
            "$$12",
            "€",
            "−",
            "1e-400",
            "1e99999999999999999999",
            "12 ( é )",
            "١٢",
        ] {
            let cell = parse_cell(raw);
            assert_eq!(cell.raw, raw);
        }
        assert_eq!(parse_cell("( a )").value, None);
        assert_eq!(parse_cell("**").value, None);
    }
}

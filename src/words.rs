//! Word-level helpers shared by graph building and planning: lowercase
//! tokens, an English Snowball stemmer, stop words and the years a label names.
//!
//! Pure functions over strings; no RDF, no questions' gold.

use rust_stemmers::{Algorithm, Stemmer};
use std::collections::HashSet;
use std::sync::OnceLock;

/// Words too common to tell one row or sentence from another.
const STOP_WORDS: &[&str] = &[
    "a",
    "an",
    "the",
    "of",
    "in",
    "on",
    "at",
    "to",
    "for",
    "from",
    "by",
    "and",
    "or",
    "as",
    "is",
    "was",
    "were",
    "are",
    "be",
    "been",
    "what",
    "which",
    "how",
    "much",
    "many",
    "did",
    "does",
    "do",
    "that",
    "this",
    "it",
    "its",
    "their",
    "them",
    "they",
    "those",
    "these",
    "with",
    "than",
    "then",
    "so",
    "also",
    "over",
    "during",
    "between",
    "year",
    "years",
    "value",
    "values",
    "amount",
    "amounts",
    "number",
    "about",
    "again",
    "there",
    "s",
    "you",
    "we",
    "our",
    "has",
    "have",
    "had",
    "would",
    "will",
    "same",
    "period",
    "ended",
    "ending",
    "end",
    "respectively",
    "based",
    "into",
    "per",
    "all",
    "each",
    "one",
    "two",
    "three",
    "both",
    "any",
    "such",
    "other",
    "million",
    "millions",
    "thousand",
    "thousands",
    "billion",
    "billions",
    "dollars",
    "percent",
    "percentage",
    "rate",
    "specific",
    "then",
    "what's",
    "considering",
    "being",
    "if",
    "when",
    "after",
    "before",
    "under",
    "up",
    "down",
    "can",
    "could",
    "should",
    "into",
    "across",
    "through",
    "since",
    "while",
    "where",
    "who",
    "whose",
    "some",
    // the report's own company, named in most sentences
    "company",
    "company's",
];

/// Whether a (lowercase) word is a stop word.
pub fn is_stop_word(word: &str) -> bool {
    static SET: OnceLock<HashSet<&'static str>> = OnceLock::new();
    SET.get_or_init(|| STOP_WORDS.iter().copied().collect())
        .contains(word)
}

/// Whether `long` is the comparative or superlative of the adjective (or
/// adjective stem) `short`: "lower" and "lowest" of "low", "largest" of
/// "larg".
pub fn compared(short: &str, long: &str) -> bool {
    short.len() >= 3
        && ["er", "est"]
            .iter()
            .any(|ending| long.strip_suffix(ending) == Some(short))
}

/// A word's surface form: lowercase, without a plural's "s" ("revenues"
/// is "revenue"), so that words one stem apart ("exercisable",
/// "exercised") stay apart.
pub fn surface(word: &str) -> String {
    let w = word.to_lowercase();
    match w.strip_suffix('s') {
        Some(stem) if stem.len() > 2 && !stem.ends_with('s') => stem.to_string(),
        _ => w,
    }
}

/// Lowercase alphanumeric tokens of a text (`&`, `/` and punctuation split).
pub fn tokens(text: &str) -> Vec<String> {
    text.to_lowercase()
        .split(|c: char| !(c.is_alphanumeric() || c == '.' || c == '-' || c == '\''))
        .map(|t| t.trim_matches(|c: char| c == '.' || c == '-' || c == '\''))
        .filter(|t| !t.is_empty())
        .map(str::to_string)
        .collect()
}

/// The English (Porter2) Snowball stemmer, built once.
fn stemmer() -> &'static Stemmer {
    static STEMMER: OnceLock<Stemmer> = OnceLock::new();
    STEMMER.get_or_init(|| Stemmer::create(Algorithm::English))
}

/// A word's stem by the English Snowball stemmer, so that "revenues" and
/// "revenue", "expenses" and "expense" meet. "u.s" and "u.s." are "us".
/// Stems are remembered a thread (a page's words recur on every turn), at
/// most [`STEM_MEMO`] of them, so memory stays flat.
pub fn stem(word: &str) -> String {
    if matches!(word, "u.s" | "u.s." | "u. s") {
        return "us".to_string();
    }
    thread_local! {
        static MEMO: std::cell::RefCell<std::collections::HashMap<String, String>> =
            std::cell::RefCell::new(std::collections::HashMap::new());
    }
    MEMO.with(|memo| {
        let mut memo = memo.borrow_mut();
        if let Some(stem) = memo.get(word) {
            return stem.clone();
        }
        let stem = stemmer().stem(word).into_owned();
        if memo.len() >= STEM_MEMO {
            memo.clear();
        }
        memo.insert(word.to_owned(), stem.clone());
        stem
    })
}

/// Most stems [`stem`] remembers a thread.
const STEM_MEMO: usize = 1 << 14;

/// A label with its glued words split apart, as PDF extraction leaves them
/// in table headers (`numberof sharespurchased` is `number of shares
/// purchased`): a word of five letters or more that `known` lacks becomes
/// two or three words that `known` (or the stop words) holds, the split
/// whose shortest part is longest. Other words stay as they are.
pub fn unglue(label: &str, known: &HashSet<String>) -> String {
    let is_word = |w: &str| w.len() >= 2 && (known.contains(w) || is_stop_word(w));
    let split = |w: &str| -> Option<Vec<String>> {
        let mut best: Option<(usize, Vec<String>)> = None;
        let mut consider = |parts: Vec<&str>| {
            let shortest = parts.iter().map(|p| p.len()).min().unwrap_or(0);
            if parts.iter().all(|p| is_word(p)) && best.as_ref().is_none_or(|(b, _)| shortest > *b)
            {
                best = Some((shortest, parts.iter().map(|p| p.to_string()).collect()));
            }
        };
        for i in 2..w.len().saturating_sub(1) {
            consider(vec![&w[..i], &w[i..]]);
            for j in i + 2..w.len().saturating_sub(1) {
                consider(vec![&w[..i], &w[i..j], &w[j..]]);
            }
        }
        best.map(|(_, parts)| parts)
    };
    label
        .split_whitespace()
        .map(|token| {
            let lower = token.to_lowercase();
            let glued = lower.len() >= 5
                && lower.bytes().all(|b| b.is_ascii_lowercase())
                && !known.contains(&lower);
            match glued.then(|| split(&lower)).flatten() {
                Some(parts) => parts.join(" "),
                None => token.to_string(),
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Stemmed content words of a text, stop words, numbers and years removed.
pub fn content_words(text: &str) -> Vec<String> {
    tokens(text)
        .into_iter()
        .flat_map(split_hyphenated)
        .filter(|t| {
            !is_stop_word(t)
                && !t
                    .chars()
                    .all(|c| c.is_ascii_digit() || c == '.' || c == ',')
        })
        .map(|t| stem(strip_footnote_digit(&t)))
        .collect()
}

/// A word joined by hyphens as its parts ("contract-based" is "contract"
/// and "based"), so that a question that writes them apart ("contract based
/// intangible assets") meets it; numbers and ranges ("1-3") stay whole.
fn split_hyphenated(token: String) -> Vec<String> {
    if token.contains('-')
        && token
            .split('-')
            .all(|p| !p.is_empty() && p.chars().all(|c| c.is_alphabetic()))
    {
        token.split('-').map(str::to_string).collect()
    } else {
        vec![token]
    }
}

/// A footnote mark glued to a word: "facilities1", "capital2".
fn strip_footnote_digit(word: &str) -> &str {
    let b = word.as_bytes();
    match b {
        [.., x, y, d]
            if d.is_ascii_digit()
                && x.is_ascii_alphabetic()
                && y.is_ascii_alphabetic()
                && b.len() > 4 =>
        {
            &word[..word.len() - 1]
        }
        _ => word,
    }
}

/// A label with footnote marks like `( 1 )` or `(a)` removed and spaces collapsed.
pub fn normalise_label(label: &str) -> String {
    let lower = label.to_lowercase();
    let mut out = String::with_capacity(lower.len());
    let mut rest = lower.as_str();
    while let Some(start) = rest.find('(') {
        let Some(len) = rest[start..].find(')') else {
            break;
        };
        let inner = rest[start + 1..start + len].trim();
        out.push_str(&rest[..start]);
        let footnote = inner.len() <= 2 && inner.chars().all(|c| c.is_ascii_alphanumeric());
        if !footnote {
            out.push_str(&rest[start..=start + len]);
        }
        rest = &rest[start + len + 1..];
    }
    out.push_str(rest);
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A label without its asides in parentheses: `net gain ( loss ) realized`
/// is `net gain realized`.
pub fn without_asides(label: &str) -> String {
    let mut out = String::with_capacity(label.len());
    let mut depth = 0usize;
    for c in label.chars() {
        match c {
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            _ if depth == 0 => out.push(c),
            _ => {}
        }
    }
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The years a label names, in order: `2007`, `december 31 , 2008`,
/// `12/31/01`, `dec . 282013` (a glued day and year). A date is read as the
/// year it prints, early January included (`january 3 2009` is 2009): the
/// reports' questions name a column by the year it prints.
pub fn years_in(label: &str) -> Vec<i32> {
    let lower = label.to_lowercase();
    let mut years = Vec::new();
    let toks: Vec<&str> = lower
        .split(|c: char| c.is_whitespace() || c == ',' || c == '(' || c == ')')
        .filter(|t| !t.is_empty())
        .collect();
    for tok in &toks {
        if let Some(y) = year_of_token(tok) {
            years.push(y);
        } else if tok.contains('-') && tok.bytes().any(|b| b.is_ascii_alphabetic()) {
            // dd-mon-yyyy or mon-yy
            let parts: Vec<&str> = tok.split('-').collect();
            let has_month = parts.iter().any(|p| {
                p.len() >= 3
                    && MONTHS
                        .iter()
                        .any(|m| p.starts_with(m) && m.starts_with(&p[..3]))
            });
            let last = parts.last().copied().unwrap_or("");
            if has_month && last.bytes().all(|b| b.is_ascii_digit()) {
                let y: i32 = last.parse().unwrap_or(0);
                let y = match last.len() {
                    2 => 2000 + y - if y > 50 { 100 } else { 0 },
                    4 => y,
                    _ => continue,
                };
                years.push(y);
            }
        } else if tok.contains('/') {
            // m/d/yy or m/d/yyyy
            let parts: Vec<&str> = tok.split('/').collect();
            if parts.len() == 3
                && parts
                    .iter()
                    .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
            {
                let y: i32 = parts[2].parse().unwrap_or(0);
                let y = match parts[2].len() {
                    2 => 2000 + y - if y > 50 { 100 } else { 0 },
                    4 => y,
                    _ => continue,
                };
                years.push(y);
            }
        }
    }
    years
}

/// The quarter of a year a text names (1 to 4): "first quarter", "q3",
/// "4th quarter", "the last quarter", or a quarter's closing date ("march
/// 31", "quarter ended 9/30/10").
pub fn quarter_in(text: &str) -> Option<u8> {
    let toks = date_tokens(text);
    for (i, t) in toks.iter().enumerate() {
        let next = toks.get(i + 1).map(String::as_str);
        let q = match t.as_str() {
            "q1" => Some(1),
            "q2" => Some(2),
            "q3" => Some(3),
            "q4" => Some(4),
            "first" | "1st" if next == Some("quarter") => Some(1),
            "second" | "2nd" if next == Some("quarter") => Some(2),
            "third" | "3rd" if next == Some("quarter") => Some(3),
            "fourth" | "4th" | "last" if next == Some("quarter") => Some(4),
            "march" | "mar" if next == Some("31") => Some(1),
            "june" | "jun" if next == Some("30") => Some(2),
            "september" | "sept" | "sep" if next == Some("30") => Some(3),
            "december" | "dec" if next == Some("31") => Some(4),
            _ => None,
        };
        if q.is_some() {
            return q;
        }
        let parts: Vec<&str> = t.split('/').collect();
        if let [m, d, _] = parts.as_slice() {
            return match (*m, *d) {
                ("3" | "03", "31") => Some(1),
                ("6" | "06", "30") => Some(2),
                ("9" | "09", "30") => Some(3),
                ("12", "31") => Some(4),
                _ => None,
            };
        }
    }
    None
}

/// Whether a label dates the first day of a year (`january 1`: true) or
/// the last (`december 31`: false): an opening or a closing balance.
pub fn year_boundary_date(label: &str) -> Option<bool> {
    let text = format!(" {} ", tokens(label).join(" "));
    if text.contains(" january 1 ") {
        Some(true)
    } else if text.contains(" december 31 ") {
        Some(false)
    } else {
        None
    }
}

/// Lowercase tokens split at spaces, commas, parentheses and question marks
/// (dates keep their slashes: `12/31/10`).
fn date_tokens(text: &str) -> Vec<String> {
    text.to_lowercase()
        .split(|c: char| c.is_whitespace() || matches!(c, ',' | '(' | ')' | '?'))
        .filter(|t| !t.is_empty())
        .map(str::to_string)
        .collect()
}

/// The month (1 to 12) a token names: its name or an abbreviation of three
/// letters or more (`dec.`, `sept`).
pub fn month_number(token: &str) -> Option<u8> {
    let t = token.trim_end_matches('.');
    (t.len() >= 3)
        .then(|| MONTH_NAMES.iter().position(|n| n.starts_with(t)))
        .flatten()
        .map(|i| i as u8 + 1)
}

/// The one month a text names (`october`, `oct .`), if it names exactly one.
pub fn month_in(text: &str) -> Option<u8> {
    let mut months = tokens(text).into_iter().filter_map(|t| month_number(&t));
    let first = months.next()?;
    months.all(|m| m == first).then_some(first)
}

/// The dates a text prints, as (month, day if printed, year as printed):
/// `january 3 , 2009`, `december 31 2008`, `12/31/2012`, `january 2009`.
pub fn dates_in(text: &str) -> Vec<(u8, Option<u8>, i32)> {
    let toks = date_tokens(text);
    let mut out = Vec::new();
    for (i, t) in toks.iter().enumerate() {
        let parts: Vec<&str> = t.split('/').collect();
        if let [m, d, y] = parts.as_slice() {
            if let (Ok(m), Ok(d), Ok(y)) = (m.parse::<u8>(), d.parse::<u8>(), y.parse::<i32>()) {
                let y = if y < 100 {
                    2000 + y - if y > 50 { 100 } else { 0 }
                } else {
                    y
                };
                if (1..=12).contains(&m) {
                    out.push((m, Some(d), y));
                }
            }
            continue;
        }
        let Some(m) = month_number(t) else { continue };
        let next = toks.get(i + 1).map(String::as_str);
        let after = toks.get(i + 2).map(String::as_str);
        let day = next
            .and_then(|d| d.parse::<u8>().ok())
            .filter(|d| (1..=31).contains(d));
        let year_tok = if day.is_some() { after } else { next };
        if let Some(y) = year_tok.and_then(year_of_token) {
            out.push((m, day, y));
        }
    }
    out
}

const MONTH_NAMES: [&str; 12] = [
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
];

const MONTHS: [&str; 12] = [
    "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
];

fn year_of_token(tok: &str) -> Option<i32> {
    let digits: &str = tok.trim_end_matches(|c: char| !c.is_ascii_digit());
    if !digits.bytes().all(|b| b.is_ascii_digit()) || digits.len() < 4 || digits.len() > 6 {
        return None;
    }
    // a glued day and year ("282013") keeps its last four digits
    if digits.len() > 4 && tok.len() != digits.len() {
        return None;
    }
    let y: i32 = digits[digits.len() - 4..].parse().ok()?;
    (1950..=2050).contains(&y).then_some(y)
}

/// Lowercased, punctuation spaced out, single spaces, padded with spaces.
pub fn normalise_question(q: &str) -> String {
    normalise(q, false)
}

/// [`normalise_question`] with each comma kept as a token of its own
/// (` , `): where a list parts its items ("the sum of a , b and c").
pub fn normalise_question_keeping_commas(q: &str) -> String {
    normalise(q, true)
}

fn normalise(q: &str, keep_commas: bool) -> String {
    let mut out = String::from(" ");
    for c in q.to_lowercase().chars() {
        match c {
            ',' if keep_commas => out.push_str(" , "),
            '?' | ',' | ';' | ':' | '"' | '(' | ')' => out.push(' '),
            '’' => out.push('\''),
            _ => out.push(c),
        }
    }
    let mut s = out
        .split_whitespace()
        .map(spelled_year)
        .collect::<Vec<_>>()
        .join(" ");
    s.insert(0, ' ');
    s.push(' ');
    s
}

/// A year a question writes short, in full: `'08` is `2008`, `fy08` and
/// `fy2008` are `fy 2008` (two digits over 50 are of the 1900s).
fn spelled_year(token: &str) -> std::borrow::Cow<'_, str> {
    let full = |digits: &str| -> Option<String> {
        if !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        match digits.len() {
            2 => {
                let y: i32 = digits.parse().ok()?;
                Some((if y > 50 { 1900 + y } else { 2000 + y }).to_string())
            }
            4 => Some(digits.to_string()),
            _ => None,
        }
    };
    if let Some(y) = token
        .strip_prefix('\'')
        .filter(|d| d.len() == 2)
        .and_then(full)
    {
        return y.into();
    }
    if let Some(y) = token.strip_prefix("fy").and_then(full) {
        return format!("fy {y}").into();
    }
    token.into()
}

/// Where a run of `tokens` from `start` whose initials spell `letters`
/// ends, and the index of each letter's word.
pub fn spelling_run_at(
    tokens: &[String],
    start: usize,
    letters: &[char],
    content_only: bool,
) -> Option<(usize, Vec<usize>)> {
    let mut at = Vec::new();
    let mut end = start;
    while end < tokens.len() && at.len() < letters.len() {
        let t = &tokens[end];
        let k = at.len();
        // the stop-word test only where it decides
        if t.starts_with(letters[k])
            && (k > 0 || end == start)
            && (!content_only || !is_stop_word(t))
        {
            at.push(end);
        } else if k == 0 || !is_stop_word(t) {
            return None;
        }
        end += 1;
    }
    (at.len() == letters.len()).then_some((end, at))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn surface_forms_drop_a_plural_and_keep_other_endings() {
        assert_eq!(surface("Revenues"), "revenue");
        assert_eq!(surface("exercisable"), "exercisable");
        assert_eq!(surface("exercised"), "exercised");
        assert_eq!(surface("business"), "business");
        assert_eq!(surface("gas"), "gas");
    }

    #[test]
    fn short_years_of_questions_are_spelled_out() {
        assert_eq!(
            normalise_question("What was it in '08, FY09 and fy2010?"),
            " what was it in 2008 fy 2009 and fy 2010 "
        );
        assert_eq!(
            normalise_question("the company's 10 fys"),
            " the company's 10 fys "
        );
    }

    #[test]
    fn years_of_headers() {
        assert_eq!(years_in("2007"), vec![2007]);
        assert_eq!(years_in("december 31 , 2008"), vec![2008]);
        assert_eq!(years_in("12/31/01"), vec![2001]);
        assert_eq!(years_in("31-dec-2012"), vec![2012]);
        assert_eq!(years_in("dec-08"), vec![2008]);
        assert_eq!(years_in("dec . 282013 (1)"), vec![2013]);
        assert_eq!(years_in("january 3 2009"), vec![2009]);
        assert_eq!(years_in("1/3/2009"), vec![2009]);
        assert_eq!(years_in("% change 2014 v 2013"), vec![2014, 2013]);
        assert!(years_in("amount ( in millions )").is_empty());
    }

    #[test]
    fn hyphenated_words_meet_their_parts_written_apart() {
        assert_eq!(
            content_words("contract-based intangible assets"),
            content_words("contract based intangible assets")
        );
        assert_eq!(
            content_words("long-term debt"),
            vec!["long", "term", "debt"]
        );
        // a range of numbers is no pair of words
        assert_eq!(tokens("1-3 years")[0], "1-3");
    }

    #[test]
    fn glued_words_split_on_the_words_a_page_knows() {
        let known: HashSet<String> = ["number", "shares", "purchased", "average", "price"]
            .into_iter()
            .map(String::from)
            .collect();
        assert_eq!(
            unglue("total numberof sharespurchased", &known),
            "total number of shares purchased"
        );
        assert_eq!(
            unglue("averageprice paidper share", &known),
            "average price paidper share"
        );
        // a word the page prints, or one no split explains, stays whole
        assert_eq!(unglue("shares", &known), "shares");
        assert_eq!(unglue("goodwill", &known), "goodwill");
    }

    #[test]
    fn labels_lose_footnotes() {
        assert_eq!(
            normalise_label("Net income ( 1 )  total"),
            "net income total"
        );
        assert_eq!(
            normalise_label("( losses ) earnings"),
            "( losses ) earnings"
        );
    }

    #[test]
    fn quarters_by_name_and_date() {
        assert_eq!(quarter_in("first quarter of 2002"), Some(1));
        assert_eq!(quarter_in("the 4th quarter"), Some(4));
        assert_eq!(quarter_in("quarter ended september 30"), Some(3));
        assert_eq!(quarter_in("quarter ended 12/31/10"), Some(4));
        assert_eq!(quarter_in("q2 2019"), Some(2));
        assert_eq!(quarter_in("fiscal 2009"), None);
    }

    #[test]
    fn dates_with_and_without_a_day() {
        assert_eq!(dates_in("on january 3, 2009"), vec![(1, Some(3), 2009)]);
        assert_eq!(dates_in("december 31 2008"), vec![(12, Some(31), 2008)]);
        assert_eq!(dates_in("12/31/12"), vec![(12, Some(31), 2012)]);
        assert_eq!(dates_in("in january 2009"), vec![(1, None, 2009)]);
        assert!(dates_in("the march of progress in 2009").is_empty());
    }

    #[test]
    fn stems_meet() {
        // inflections of one word meet
        for (a, b) in [
            ("revenues", "revenue"),
            ("expenses", "expense"),
            ("liabilities", "liability"),
            ("losses", "loss"),
            ("increased", "increase"),
            ("beginning", "begin"),
        ] {
            assert_eq!(stem(a), stem(b), "{a} / {b}");
        }
        assert_eq!(stem("revenues"), "revenu");
        assert_eq!(stem("liabilities"), "liabil");
        assert_eq!(stem("losses"), "loss");
        // words that are not inflections of each other stay apart
        assert_ne!(stem("asset"), stem("assess"));
        assert_ne!(stem("income"), stem("interest"));
        // short words and "u.s" as printed
        assert_eq!(stem("gas"), "gas");
        assert_eq!(stem("u.s"), "us");
        assert_eq!(
            content_words("What were the Net Revenues in 2008?"),
            vec!["net", "revenu"]
        );
    }
}

//! Reading the page's text: sentences, and each number in them as a fact
//! with its unit, scale words, position, nearby years and context.
//!
//! The text of ConvFinQA pages is already tokenised (words and punctuation
//! separated by spaces), so a sentence ends at a lone `.` token. Nothing here
//! knows about RDF: [`super::abox`] turns these facts into triples.

use rust_decimal::Decimal;
use std::str::FromStr;

/// One sentence of the page.
#[derive(Debug, Clone, PartialEq)]
pub struct Sentence {
    /// Index of the sentence on the page (pre_text first, then post_text).
    pub index: usize,
    /// `pre_text` or `post_text`.
    pub section: &'static str,
    /// The sentence's text, tokens joined by single spaces.
    pub text: String,
    /// The sentence's whitespace-separated tokens.
    pub tokens: Vec<String>,
}

/// A number printed in a sentence.
#[derive(Debug, Clone, PartialEq)]
pub struct TextNumber {
    /// Index of the sentence it came from.
    pub sentence: usize,
    /// Position among the sentence's tokens.
    pub token_index: usize,
    /// The number as printed, with its sign, currency and unit tokens.
    pub raw: String,
    /// The printed number (negative when parenthesised or with a minus).
    pub value: Decimal,
    /// `%` or `percent` follows it.
    pub percent: bool,
    /// A currency sign precedes it.
    pub currency: bool,
    /// A scale word follows it (`thousand`, `million`, `billion`).
    pub scale: Option<String>,
    /// It reads as a year or a day of a date rather than an amount.
    pub is_year_mention: bool,
    /// The year it is about, when the sentence says so clearly.
    pub year: Option<i32>,
    /// It follows a change verb ("decreased $ 13 million"): a change the
    /// sentence states, not a level.
    pub is_change: bool,
    /// The other years it is about, when one amount stands for a list of
    /// years ("40 cents per share in 2007 , 2006 and 2005").
    pub also_years: Vec<i32>,
    /// Every year printed in the sentence.
    pub nearby_years: Vec<i32>,
    /// The words before and after it.
    pub context: String,
}

/// Whether a token is a month name or abbreviation.
pub fn is_month(token: &str) -> bool {
    crate::words::month_number(token).is_some()
}

/// A plausible year (1950–2050) written as four digits.
pub fn as_year(token: &str) -> Option<i32> {
    if token.len() == 4 && token.bytes().all(|b| b.is_ascii_digit()) {
        let y: i32 = token.parse().ok()?;
        if (1950..=2050).contains(&y) {
            return Some(y);
        }
    }
    None
}

/// Splits a page's text into sentences at lone `.` tokens.
pub fn split_sentences(text: &str, section: &'static str, first_index: usize) -> Vec<Sentence> {
    let mut sentences = Vec::new();
    let mut current: Vec<String> = Vec::new();
    let flush = |current: &mut Vec<String>, sentences: &mut Vec<Sentence>| {
        if current.iter().any(|t| t.chars().any(char::is_alphanumeric)) {
            sentences.push(Sentence {
                index: first_index + sentences.len(),
                section,
                text: current.join(" "),
                tokens: std::mem::take(current),
            });
        }
        current.clear();
    };
    for token in text.split_whitespace() {
        // "u.s ." is an abbreviation and its own period, no sentence's end
        let after_initials = current.last().is_some_and(|t| is_initials(t));
        let ends = (token == "." && !after_initials) || token == ";";
        current.push(token.to_string());
        if ends {
            flush(&mut current, &mut sentences);
        }
    }
    flush(&mut current, &mut sentences);
    sentences
}

/// Whether a token is initials joined by periods, the last one's period
/// printed apart: "u.s", "u.k", "s.a", "non-u.s".
fn is_initials(token: &str) -> bool {
    let bare = token.rsplit('-').next().unwrap_or(token);
    let parts: Vec<&str> = bare.split('.').collect();
    parts.len() >= 2
        && parts
            .iter()
            .all(|p| (1..=2).contains(&p.len()) && p.chars().all(|c| c.is_ascii_alphabetic()))
}

const SCALE_WORDS: [(&str, &str); 8] = [
    ("thousand", "thousand"),
    ("thousands", "thousand"),
    ("million", "million"),
    ("millions", "million"),
    ("mln", "million"),
    ("billion", "billion"),
    ("billions", "billion"),
    ("bn", "billion"),
];

/// Parses one token as a printed number: `1,234.5`, `12%`, `(12)`, `-3`, `.5`.
fn parse_number_token(token: &str) -> Option<(Decimal, bool)> {
    let mut t = token.trim_end_matches([',', ';', ':']);
    let mut negative = false;
    if let Some(rest) = t.strip_prefix('(') {
        if let Some(inner) = rest.strip_suffix(')') {
            t = inner;
            negative = true;
        }
    }
    let t = t.trim_start_matches('$');
    let (t, negative) = match t.strip_prefix('-') {
        Some(rest) => (rest, !negative),
        None => (t, negative),
    };
    let (t, percent) = match t.strip_suffix('%') {
        Some(rest) => (rest, true),
        None => (t, false),
    };
    let t = t.strip_suffix('.').unwrap_or(t);
    if t.is_empty() || !t.bytes().any(|b| b.is_ascii_digit()) {
        return None;
    }
    if !t
        .bytes()
        .all(|b| b.is_ascii_digit() || b == b',' || b == b'.')
    {
        return None;
    }
    if t.matches('.').count() > 1 || t.starts_with(',') || t.ends_with(',') {
        return None;
    }
    // a comma must group thousands: `1,234` but not `1,2`
    if t.contains(',') {
        let int_part = t.split('.').next().unwrap_or("");
        let groups: Vec<&str> = int_part.split(',').collect();
        if groups.iter().skip(1).any(|g| g.len() != 3) || groups[0].is_empty() {
            return None;
        }
    }
    let cleaned: String = t.chars().filter(|c| *c != ',').collect();
    let value = Decimal::from_str(&cleaned).ok()?;
    Some((if negative { -value } else { value }, percent))
}

/// Whether the number at `i` follows a change verb, past filler words
/// ("increased by approximately $ 5 million"); the word lists are the
/// TBox's `fk:ChangeVerb` and `fk:ChangeFiller`.
fn follows_change_verb(tokens: &[String], i: usize) -> bool {
    let Ok(tbox) = crate::ontology::tbox() else {
        return false;
    };
    let (verbs, filler) = (tbox.word_list("ChangeVerb"), tbox.word_list("ChangeFiller"));
    tokens[..i]
        .iter()
        .rev()
        .take(4)
        .find(|t| !filler.iter().any(|f| f == *t))
        .is_some_and(|t| verbs.iter().any(|v| v == t))
}

/// A lone digit 1 to 9: in parentheses, a footnote's mark; before a
/// closing one, a list item's.
fn is_footnote_mark(token: &str) -> bool {
    token.len() == 1 && token.chars().all(|c| ('1'..='9').contains(&c))
}

/// Whether the `i`th token is a right single quote the extraction printed
/// as its code point, `2019`: before an `s` ("company 2019 s") or between
/// a plural and a word ("stockholders 2019 equity"), not a year.
fn is_quote_code(tokens: &[String], i: usize) -> bool {
    let word = |t: Option<&String>| t.is_some_and(|t| t.chars().all(char::is_alphabetic));
    let (prev, next) = (
        i.checked_sub(1).and_then(|p| tokens.get(p)),
        tokens.get(i + 1),
    );
    tokens[i] == "2019"
        && (next.is_some_and(|n| n == "s")
            || (word(prev) && prev.is_some_and(|p| p.len() > 3 && p.ends_with('s')) && word(next)))
}

/// Finds every number of a sentence, with what surrounds it.
pub fn extract_numbers(sentence: &Sentence) -> Vec<TextNumber> {
    let tokens = &sentence.tokens;
    let years: Vec<(usize, i32)> = tokens
        .iter()
        .enumerate()
        .filter(|(i, _)| !is_quote_code(tokens, *i))
        .filter_map(|(i, t)| as_year(t).map(|y| (i, y)))
        .filter(|(i, _)| {
            let prev = i.checked_sub(1).and_then(|p| tokens.get(p));
            prev.is_none_or(|p| p != "$")
        })
        .collect();
    let nearby_years: Vec<i32> = {
        let mut ys: Vec<i32> = years.iter().map(|(_, y)| *y).collect();
        ys.sort_unstable();
        ys.dedup();
        ys
    };
    let mut numbers = Vec::new();
    for (i, token) in tokens.iter().enumerate() {
        let Some((value, mut percent)) = parse_number_token(token) else {
            continue;
        };
        if is_quote_code(tokens, i) {
            continue;
        }
        let prev = i
            .checked_sub(1)
            .and_then(|p| tokens.get(p))
            .map(String::as_str);
        let next = tokens.get(i + 1).map(String::as_str);
        // "rights ( 1 ) weighted-average": a footnote mark, not an amount;
        // "net of : 1 ) fuel , 2 ) purchased power": a list item's mark
        let list_mark = next == Some(")") && !matches!(prev, Some("(") | Some("$"));
        if (prev == Some("(") && next == Some(")") || list_mark) && is_footnote_mark(token) {
            continue;
        }
        let currency = token.starts_with('$') || prev == Some("$");
        // "2 percentage points", "50 basis points": a difference of rates
        let points = tokens.get(i + 2).is_some_and(|t| t.starts_with("point"));
        if matches!(next, Some("%") | Some("percent"))
            || matches!(next, Some("percentage") | Some("basis")) && points
        {
            percent = true;
        }
        let scale = next.and_then(|n| {
            SCALE_WORDS
                .iter()
                .find(|(w, _)| *w == n)
                .map(|(_, s)| s.to_string())
        });
        let is_day =
            prev.is_some_and(is_month) && value < Decimal::from(32) && value.fract().is_zero();
        let is_year = as_year(token).is_some() && !currency && !percent && scale.is_none();
        let mut raw = String::new();
        if prev == Some("$") {
            raw.push_str("$ ");
        }
        raw.push_str(token);
        if let Some(n) = next.filter(|_| percent && !token.ends_with('%')) {
            raw.push(' ');
            raw.push_str(n);
        }
        if let Some(s) = next.filter(|_| scale.is_some()) {
            raw.push(' ');
            raw.push_str(s);
        }
        // "decreased 4% ( 4 % )": a restatement in parentheses is the same change
        let restates_change = prev == Some("(")
            && numbers.last().is_some_and(|n: &TextNumber| {
                n.value == value && n.is_change && i - n.token_index <= 3
            });
        let from = i.saturating_sub(12);
        let to = (i + 5).min(tokens.len());
        numbers.push(TextNumber {
            sentence: sentence.index,
            token_index: i,
            raw,
            value,
            percent,
            currency,
            scale,
            is_year_mention: is_year || is_day,
            year: None,
            is_change: restates_change || follows_change_verb(tokens, i),
            also_years: Vec::new(),
            nearby_years: nearby_years.clone(),
            context: tokens[from..to].join(" "),
        });
    }
    assign_years(tokens, &years, &mut numbers);
    assign_subjects(tokens, &years, &mut numbers);
    assign_respective_items(tokens, &years, &mut numbers);
    assign_compared_list(tokens, &years, &mut numbers);
    assign_compared_heading(tokens, &years, &mut numbers);
    numbers
}

/// "net income 2016 compared to 2015 net income increased $ 37.9 million":
/// a heading that compares two years ("2016 compared to 2015", "2016
/// versus 2015") reports the first; a change stated after it, with no
/// other year between, is that year's.
fn assign_compared_heading(tokens: &[String], years: &[(usize, i32)], numbers: &mut [TextNumber]) {
    for pair in years.windows(2) {
        let ((a, first), (b, second)) = (pair[0], pair[1]);
        let joined = match &tokens[a + 1..b] {
            [c, t] => c == "compared" && (t == "to" || t == "with"),
            [v] => v == "versus" || v == "vs" || v == "vs.",
            _ => false,
        };
        if !joined || first <= second {
            continue;
        }
        let next_year = years.iter().map(|(p, _)| *p).find(|p| *p > b);
        for n in numbers.iter_mut() {
            let after = n.token_index > b && next_year.is_none_or(|p| n.token_index < p);
            if after && n.is_change && !n.is_year_mention && n.year == Some(second) {
                n.year = Some(first);
            }
        }
    }
}

/// "we paid $ 64 million in interest and $ 187 million in income taxes ,
/// compared with $ 71 million and $ 162 million , respectively , in 2012":
/// the amounts of a list after "compared" that closes with "respectively"
/// stand, in order, for as many amounts before it: each takes the words
/// of its counterpart, and the year printed after the list (else the
/// list's own).
fn assign_compared_list(tokens: &[String], years: &[(usize, i32)], numbers: &mut [TextNumber]) {
    let Some(compared) = tokens.iter().position(|t| t == "compared") else {
        return;
    };
    let Some(respectively) = tokens.iter().position(|t| t == "respectively") else {
        return;
    };
    if respectively < compared {
        return;
    }
    let amounts: Vec<usize> = (0..numbers.len())
        .filter(|k| !numbers[*k].is_year_mention)
        .collect();
    let before: Vec<usize> = amounts
        .iter()
        .copied()
        .filter(|k| numbers[*k].token_index < compared)
        .collect();
    let after: Vec<usize> = amounts
        .iter()
        .copied()
        .filter(|k| (compared..respectively).contains(&numbers[*k].token_index))
        .collect();
    // two amounts or more on each side, in the same units, and no year
    // inside the list after "compared" (that is a list of years instead)
    let years_inside = years
        .iter()
        .any(|(p, _)| (compared..respectively).contains(p));
    let same_units = before
        .iter()
        .zip(&after)
        .all(|(b, a)| numbers[*b].percent == numbers[*a].percent);
    if after.len() < 2 || before.len() != after.len() || years_inside || !same_units {
        return;
    }
    let closing = years
        .iter()
        .find(|(p, _)| *p > respectively && *p <= respectively + 4)
        .map(|(_, y)| *y);
    // the amounts before "compared" share the year one of them has
    let mut known: Vec<i32> = before.iter().filter_map(|k| numbers[*k].year).collect();
    known.dedup();
    if let [y] = known.as_slice() {
        for k in &before {
            numbers[*k].year = Some(*y);
        }
    }
    // the counterpart's own words: from the amount before it to the one
    // after it (or "compared")
    let positions: Vec<usize> = before.iter().map(|k| numbers[*k].token_index).collect();
    for (j, (b, a)) in before.iter().zip(&after).enumerate() {
        let at = numbers[*b].token_index;
        let from = if j == 0 {
            at.saturating_sub(4)
        } else {
            positions[j - 1] + 1
        };
        let to = positions
            .get(j + 1)
            .copied()
            .unwrap_or(compared)
            .min(at + 6);
        let words: Vec<&str> = tokens[from..to]
            .iter()
            .map(String::as_str)
            .filter(|t| *t != "$" && !t.chars().any(|c| c.is_ascii_digit()))
            .collect();
        let n = &mut numbers[*a];
        n.context = format!("{} {}", n.raw, words.join(" "));
        if closing.is_some() {
            n.year = closing;
        }
    }
}

/// "net cash from operations and capital expenditures were $ 500 million
/// and $ 200 million , respectively": a list of subjects before a list of
/// as many amounts, in a sentence of at most one year, gives each amount
/// its own subject as its context.
fn assign_subjects(tokens: &[String], years: &[(usize, i32)], numbers: &mut [TextNumber]) {
    if !tokens.iter().any(|t| t == "respectively") || years.iter().any(|(_, y)| *y != years[0].1) {
        return;
    }
    let amounts: Vec<usize> = (0..numbers.len())
        .filter(|k| !numbers[*k].is_year_mention)
        .collect();
    let Some(&first) = amounts.first() else {
        return;
    };
    // the subject: the words before the first amount, up to its verb
    let Ok(tbox) = crate::ontology::tbox() else {
        return;
    };
    let verbs = tbox.word_list("AmountVerb");
    let mut end = numbers[first].token_index;
    while end > 0 && (tokens[end - 1] == "$" || verbs.iter().any(|v| *v == tokens[end - 1])) {
        end -= 1;
    }
    let subject = &tokens[..end];
    let parts: Vec<Vec<&str>> = subject
        .split(|t| t == "and" || t == ",")
        .map(|p| p.iter().map(String::as_str).collect::<Vec<_>>())
        .filter(|p: &Vec<&str>| !p.is_empty())
        .collect();
    if amounts.len() < 2 || parts.len() < amounts.len() {
        return;
    }
    let own = &parts[parts.len() - amounts.len()..];
    for (k, part) in amounts.iter().zip(own) {
        let n = &mut numbers[*k];
        n.context = format!("{} {}", part.join(" "), n.raw);
    }
}

/// "includes 12,500 , 5,300 and 3,150 shares withheld in october ,
/// november and december , respectively": a list of as many items (no
/// years: those [`assign_years`] maps) after a list of amounts, closed by
/// "respectively", gives each amount its own item: its context is the
/// words before the list, the amount, the words between the lists and its
/// item, not the other items.
fn assign_respective_items(tokens: &[String], years: &[(usize, i32)], numbers: &mut [TextNumber]) {
    let Some(respectively) = tokens.iter().position(|t| t == "respectively") else {
        return;
    };
    let amounts: Vec<usize> = (0..numbers.len())
        .filter(|k| !numbers[*k].is_year_mention && numbers[*k].token_index < respectively)
        .collect();
    // the run of amounts nearest before "respectively"
    let Some(run) = runs(&amounts, |k| numbers[*k].token_index, 5).pop() else {
        return;
    };
    let n = run.len();
    let last = numbers[run[n - 1]].token_index;
    let first = numbers[run[0]].token_index;
    let mut end = respectively;
    while end > last && tokens[end - 1] == "," {
        end -= 1;
    }
    // the items: the tail of the words between the lists cut at commas
    // and "and"; the first as long as the longest of the others
    let tail = &tokens[last + 1..end];
    if n < 2 || years.iter().any(|(p, _)| *p > last && *p < respectively) {
        return;
    }
    let mut items: Vec<&[String]> = tail
        .split(|t| t == "," || t == "and")
        .filter(|p| !p.is_empty())
        .collect();
    if items.len() < n {
        return;
    }
    items.drain(..items.len() - n);
    let longest = items[1..].iter().map(|i| i.len()).max().unwrap_or(0);
    let numeric = |i: &[String]| i.iter().any(|t| t.chars().any(|c| c.is_ascii_digit()));
    if longest > 4 || items.iter().any(|i| numeric(i)) {
        return;
    }
    let keep = items[0].len().min(longest);
    items[0] = &items[0][items[0].len() - keep..];
    // the words between the amounts and the first item ("shares withheld in")
    let first_item_at = (last + 1..end)
        .find(|&j| tokens[j..].starts_with(items[0]))
        .unwrap_or(end);
    let plain = |ts: &[String]| -> Vec<String> {
        ts.iter()
            .filter(|t| !matches!(t.as_str(), "$" | "," | "(" | ")"))
            .filter(|t| !t.chars().any(|c| c.is_ascii_digit()))
            .cloned()
            .collect()
    };
    let before = plain(&tokens[first.saturating_sub(12)..first]);
    let between: Vec<String> = plain(&tokens[last + 1..first_item_at])
        .into_iter()
        .filter(|t| !SCALE_WORDS.iter().any(|(w, _)| w == t) && t != "and")
        .collect();
    for (k, item) in run.iter().zip(&items) {
        let number = &mut numbers[*k];
        number.context = format!(
            "{} {} {} {}",
            before.join(" "),
            number.raw,
            between.join(" "),
            item.join(" ")
        );
    }
}

/// Gives each amount the year it is about: by position for "... $a, $b and
/// $c in 2007, 2006 and 2005 (respectively)", otherwise the nearest year
/// printed within a few tokens of it.
fn assign_years(tokens: &[String], years: &[(usize, i32)], numbers: &mut [TextNumber]) {
    // "$ 185 million ( $ 120 million after-tax ) , $ 120 million ( $ 78
    // million after-tax ) and ... in 2013 , 2012 and 2011": the amount in
    // brackets restates the one before it, of its year; the other amounts
    // take their years as if the brackets were not printed
    let restated = restatements(tokens, numbers);
    if restated.is_empty() {
        return assign_years_unbracketed(tokens, years, numbers);
    }
    let inside = |i: usize| restated.iter().any(|r| (r.open..=r.close).contains(&i));
    let kept: Vec<usize> = (0..tokens.len()).filter(|i| !inside(*i)).collect();
    let at = |i: usize| kept.iter().position(|k| *k == i);
    let kept_tokens: Vec<String> = kept.iter().map(|i| tokens[*i].clone()).collect();
    let kept_years: Vec<(usize, i32)> = years
        .iter()
        .filter_map(|(p, y)| at(*p).map(|q| (q, *y)))
        .collect();
    let outer: Vec<usize> = (0..numbers.len())
        .filter(|k| at(numbers[*k].token_index).is_some())
        .collect();
    let mut shifted: Vec<TextNumber> = outer
        .iter()
        .map(|k| {
            let mut n = numbers[*k].clone();
            n.token_index = at(n.token_index).unwrap_or(n.token_index);
            n
        })
        .collect();
    assign_years_unbracketed(&kept_tokens, &kept_years, &mut shifted);
    for (k, n) in outer.iter().zip(shifted) {
        numbers[*k].year = n.year;
        numbers[*k].also_years = n.also_years;
        numbers[*k].context = n.context;
    }
    for r in &restated {
        numbers[r.inner].year = numbers[r.outer].year;
        numbers[r.inner].also_years = numbers[r.outer].also_years.clone();
    }
}

/// [`assign_years`] on a sentence without amounts in brackets.
fn assign_years_unbracketed(tokens: &[String], years: &[(usize, i32)], numbers: &mut [TextNumber]) {
    let amount_idx: Vec<usize> = numbers
        .iter()
        .enumerate()
        .filter(|(_, n)| !n.is_year_mention)
        .map(|(k, _)| k)
        .collect();
    // A list of years and a list of amounts of the same length in one
    // sentence: "$a, $b and $c for 2006, 2005 and 2004 (respectively)".
    let distinct: Vec<i32> = {
        let mut v: Vec<i32> = years.iter().map(|(_, y)| *y).collect();
        v.dedup();
        v
    };
    let respectively = tokens.iter().any(|t| t.starts_with("respectively"));
    let year_runs: Vec<Vec<(usize, i32)>> =
        runs(years, |(p, _)| *p, if respectively { 5 } else { 2 })
            .into_iter()
            .flat_map(|run| split_at_respectively(run, tokens))
            .collect();
    let amount_runs = runs(&amount_idx, |k| numbers[*k].token_index, 5);
    let mut listed = vec![false; numbers.len()];
    for year_run in year_runs.iter().rev() {
        let mut ys: Vec<i32> = year_run.iter().map(|(_, y)| *y).collect();
        ys.dedup();
        if ys.len() < 2 {
            continue;
        }
        let at = year_run[0].0;
        let amounts = amount_runs
            .iter()
            .filter(|r| r.len() == ys.len() && r.iter().all(|k| !listed[*k]))
            .min_by_key(|r| numbers[r[0]].token_index.abs_diff(at));
        // "48.3 percent in 2002 from 47.4 percent in year ended december
        // 31 , 2003 2001": an amount with a year of its own just after it
        // is no member of a list, unless the sentence says "respectively"
        let own_year = |k: &usize| {
            let i = numbers[*k].token_index;
            years
                .iter()
                .any(|(p, _)| *p > i && *p <= i + 3 && !year_run.iter().any(|(q, _)| q == p))
        };
        let amounts = amounts.filter(|r| respectively || !r.iter().any(own_year));
        if let Some(amounts) = amounts {
            // every amount of the list shares the words around the whole list
            let first = numbers[amounts[0]].token_index;
            let last = numbers[amounts[amounts.len() - 1]].token_index;
            let context = tokens[first.saturating_sub(12)..(last + 5).min(tokens.len())].join(" ");
            for (k, y) in amounts.iter().zip(&ys) {
                numbers[*k].year = Some(*y);
                numbers[*k].context = context.clone();
                listed[*k] = true;
            }
        }
    }
    // "$a , $b and $c in 2014 , 2013 and 2012 , respectively , including
    // X of $d , $e and $f , respectively": a second list of as many amounts,
    // with no years of its own, takes the years of the list mapped before it
    let mapped: Vec<(usize, Vec<i32>)> = amount_runs
        .iter()
        .filter(|r| r.iter().all(|k| listed[*k]))
        .filter_map(|r| {
            let ys: Vec<i32> = r.iter().filter_map(|k| numbers[*k].year).collect();
            (ys.len() == r.len()).then(|| (numbers[r[r.len() - 1]].token_index, ys))
        })
        .collect();
    for run in &amount_runs {
        let (start, end) = (
            numbers[run[0]].token_index,
            numbers[run[run.len() - 1]].token_index,
        );
        let closes_with_respectively = tokens
            .iter()
            .skip(end + 1)
            .take(4)
            .any(|t| t.starts_with("respectively"));
        let years_inside = years.iter().any(|(p, _)| *p > start && *p < end + 4);
        if run.len() < 2
            || run.iter().any(|k| listed[*k])
            || !closes_with_respectively
            || years_inside
        {
            continue;
        }
        let Some((_, ys)) = mapped
            .iter()
            .rev()
            .find(|(at, ys)| *at < start && ys.len() == run.len())
        else {
            continue;
        };
        let context = tokens[start.saturating_sub(12)..(end + 5).min(tokens.len())].join(" ");
        for (k, y) in run.iter().zip(ys) {
            numbers[*k].year = Some(*y);
            numbers[*k].context = context.clone();
            listed[*k] = true;
        }
    }
    // "40 cents per share in 2007 , 2006 and 2005": one amount, then a list
    // of years and no other amount before the list ends
    for year_run in &year_runs {
        let (start, end) = (year_run[0].0, year_run[year_run.len() - 1].0);
        let mut ys: Vec<i32> = year_run.iter().map(|(_, y)| *y).collect();
        ys.dedup();
        let before: Vec<usize> = amount_idx
            .iter()
            .copied()
            .filter(|k| numbers[*k].token_index < start && numbers[*k].token_index + 6 >= start)
            .collect();
        let inside = amount_idx
            .iter()
            .any(|k| (start..=end).contains(&numbers[*k].token_index));
        let taken = before.iter().any(|k| listed[*k]);
        if let ([k], false, true, false) = (before.as_slice(), inside, ys.len() >= 2, taken) {
            numbers[*k].year = Some(ys[0]);
            numbers[*k].also_years = ys[1..].to_vec();
            listed[*k] = true;
        }
    }
    // "from $a in 2001 to $b in 2002" or "increased from $a to $b in 2002"
    for &k in amount_idx.iter().filter(|k| !listed[**k]) {
        let i = numbers[k].token_index;
        // a year past "compared" after the amount is the comparison's, not
        // the amount's: "sales were $a compared with $b in 2008"
        let compared_after = |p: usize| p > i && (i + 1..p).any(|j| tokens[j] == "compared");
        let amount_between = |from: usize, to: usize| {
            amount_idx
                .iter()
                .any(|j| (from + 1..to).contains(&numbers[*j].token_index))
        };
        // "$a at december 31 , 2009 and $b at december 31 , 2008": a year
        // that closes an earlier amount's phrase is that amount's, so an
        // amount with a year of its own after it takes that one
        let closes_earlier = |p: usize| {
            amount_idx.iter().any(|j| {
                let at = numbers[*j].token_index;
                at < p && p - at <= 8 && !amount_between(at, p)
            })
        };
        // (its own phrase may run a little further: "to $ 1.38 billion at
        // the end of fiscal 2015")
        let own_after = years
            .iter()
            .find(|(p, _)| *p > i && *p - i <= 8 && !amount_between(i, *p) && !compared_after(*p))
            .map(|(p, y)| (p - i, *p, *y));
        let nearest = years
            .iter()
            .map(|(p, y)| (p.abs_diff(i), *p, *y))
            .filter(|(d, p, _)| *d <= 6 && !compared_after(*p))
            .min_by_key(|(d, p, _)| (*d, usize::from(*p < i)))
            .map(|n| match own_after {
                Some(after) if n.1 < i && closes_earlier(n.1) => after,
                _ => n,
            });
        let compared_year = years
            .iter()
            .find(|(p, _)| *p <= i + 16 && compared_after(*p))
            .map(|(_, y)| *y);
        if let Some((_, p, y)) = nearest {
            // "... as of december 31 , 2008 , compared to approximately $a
            // ... as of december 31 , 2007": past a comparison, the amounts
            // belong to the date that closes their clause
            let compared = p < i && (p + 1..i).any(|j| tokens[j] == "compared");
            let closing = years
                .iter()
                .find(|(q, _)| *q > i && *q <= i + 16)
                .map(|(_, y)| y);
            numbers[k].year = match (compared, closing) {
                (true, Some(cy)) => Some(*cy),
                _ => Some(y),
            };
        } else if let Some((_, _, y)) = years
            .iter()
            .find(|(p, _)| *p > i && *p - i <= 10 && !amount_between(i, *p) && !compared_after(*p))
            .map(|(p, y)| (p - i, *p, *y))
        {
            // "86000 gas customers as of december 31 , 2007": a date that
            // closes the amount's own phrase, a little further on
            numbers[k].year = Some(y);
        } else if let Some(y) =
            year_closing_before_comparison(tokens, numbers, &amount_idx, years, i)
        {
            // "$ 71.2 million , or 5.0% of net revenue , in fiscal 2014
            // compared with $ 87.6 million ...": the year that closes the
            // amount's clause just before the comparison, with only rates
            // of the amount between
            numbers[k].year = Some(y);
        } else if let Some(y) = compared_year {
            // "$a compared with $b in 2008 (and $c in 2007)": $a is the year after
            numbers[k].year = Some(y + 1);
        } else if let Some(y) = year_of_amount_before(numbers, &amount_idx, years, k) {
            // "$ 0.50 in the first half of 2008 and $ 0.45 in the second
            // half , for a total of $ 1.70": the period of the amounts it
            // closes
            numbers[k].year = Some(y);
        } else if distinct.len() == 1 {
            numbers[k].year = Some(distinct[0]);
        }
    }
    // "revenue was $a in 2015 compared with $b in 2014 , and operating
    // income was $c , or 5.0% , compared with $d": a comparison with no
    // years of its own takes those of the dated comparison before it
    compare_as_before(tokens, numbers, &amount_idx);
    // "earnings in 2002 ... increased from $a to $b": $b is the year's
    // figure and $a the year before's
    for pair in amount_idx.windows(2) {
        let (a, b) = (pair[0], pair[1]);
        let (ia, ib) = (numbers[a].token_index, numbers[b].token_index);
        let before = |i: usize, word: &str| (1..=2).any(|d| i >= d && tokens[i - d] == word);
        let year_between = years.iter().any(|(p, _)| *p > ia && *p < ib);
        if before(ia, "from")
            && before(ib, "to")
            && ib - ia <= 6
            && !year_between
            && numbers[a].year.is_some()
            && numbers[a].year == numbers[b].year
        {
            numbers[a].year = numbers[a].year.map(|y| y - 1);
        }
    }
}

/// An amount printed in brackets right after another, restating it
/// ("$ 185 million ( $ 120 million after-tax )").
struct Restatement {
    /// The amount in brackets, and the one it restates (indexes of numbers).
    inner: usize,
    outer: usize,
    /// The token positions of the brackets.
    open: usize,
    close: usize,
}

/// The sentence's amounts printed in brackets right after another amount.
fn restatements(tokens: &[String], numbers: &[TextNumber]) -> Vec<Restatement> {
    let mut out = Vec::new();
    for (inner, n) in numbers.iter().enumerate() {
        let i = n.token_index;
        let open = if i >= 2 && tokens[i - 1] == "$" {
            i - 2
        } else {
            i.wrapping_sub(1)
        };
        if open >= i || tokens[open] != "(" {
            continue;
        }
        let Some(outer) = numbers
            .iter()
            .position(|o| !o.is_year_mention && o.token_index < open && open - o.token_index <= 3)
        else {
            continue;
        };
        let Some(close) = (i + 1..tokens.len().min(i + 6)).find(|&j| tokens[j] == ")") else {
            continue;
        };
        out.push(Restatement {
            inner,
            outer,
            open,
            close,
        });
    }
    out
}

/// Amounts compared with no year (a money amount, "compared", a money
/// amount, rates of them between) take the years of the sentence's last
/// dated comparison of money amounts before them.
fn compare_as_before(tokens: &[String], numbers: &mut [TextNumber], amount_idx: &[usize]) {
    let money: Vec<usize> = amount_idx
        .iter()
        .copied()
        .filter(|k| !numbers[*k].percent)
        .collect();
    let at: Vec<usize> = numbers.iter().map(|n| n.token_index).collect();
    let compared = |a: usize, b: usize| {
        let (i, j) = (at[a], at[b]);
        j > i && j - i <= 14 && (i + 1..j).any(|t| tokens[t] == "compared")
    };
    let mut dated: Option<(i32, i32)> = None;
    for pair in money.windows(2) {
        let (a, b) = (pair[0], pair[1]);
        if !compared(a, b) {
            continue;
        }
        match (numbers[a].year, numbers[b].year, dated) {
            (Some(x), Some(y), _) if x != y => dated = Some((x, y)),
            (None, None, Some((x, y))) => {
                numbers[a].year = Some(x);
                numbers[b].year = Some(y);
            }
            _ => {}
        }
    }
}

/// The year that closes the clause of the amount at token `i` right before
/// a comparison ("... , in fiscal 2014 compared with ..."), at most 16
/// tokens on, with no other comparison and only percentages between.
fn year_closing_before_comparison(
    tokens: &[String],
    numbers: &[TextNumber],
    amount_idx: &[usize],
    years: &[(usize, i32)],
    i: usize,
) -> Option<i32> {
    let compared = |j: usize| tokens.get(j).is_some_and(|t| t == "compared");
    let (p, y) = years
        .iter()
        .find(|(p, _)| *p > i && *p - i <= 16 && (compared(p + 1) || compared(p + 2)))?;
    let amounts_between_are_rates = amount_idx
        .iter()
        .map(|j| &numbers[*j])
        .filter(|n| n.token_index > i && n.token_index < *p)
        .all(|n| n.percent);
    (amounts_between_are_rates && !(i + 1..*p).any(compared)).then_some(*y)
}

/// The year of the amount printed just before the `k`th number, at most
/// twelve tokens before it with no year printed between them.
fn year_of_amount_before(
    numbers: &[TextNumber],
    amount_idx: &[usize],
    years: &[(usize, i32)],
    k: usize,
) -> Option<i32> {
    let i = numbers[k].token_index;
    let before = amount_idx
        .iter()
        .map(|j| &numbers[*j])
        .filter(|n| n.token_index < i)
        .max_by_key(|n| n.token_index)?;
    let at = before.token_index;
    let year_between = years.iter().any(|(p, _)| *p > at && *p < i);
    (i - at <= 12 && !year_between).then_some(before.year?)
}

/// Items split into runs whose positions are at most `max_gap` apart:
/// "2007 , 2006 and 2005" is one run of years.
/// Splits a run of years where "respectively" stands between two of them:
/// the word closes a list ("... in 2009 , 2008 and 2007 , respectively ,
/// with 2008 reflecting hurricanes").
fn split_at_respectively(run: Vec<(usize, i32)>, tokens: &[String]) -> Vec<Vec<(usize, i32)>> {
    let mut out: Vec<Vec<(usize, i32)>> = vec![Vec::new()];
    for (k, year) in run.iter().enumerate() {
        let closed =
            k > 0 && (run[k - 1].0 + 1..year.0).any(|j| tokens[j].starts_with("respectively"));
        if closed {
            out.push(Vec::new());
        }
        out.last_mut().expect("a run").push(*year);
    }
    out
}

fn runs<T: Clone>(items: &[T], position: impl Fn(&T) -> usize, max_gap: usize) -> Vec<Vec<T>> {
    let mut out: Vec<Vec<T>> = Vec::new();
    let mut last: Option<usize> = None;
    for item in items {
        let p = position(item);
        match (out.last_mut(), last) {
            (Some(run), Some(l)) if p - l <= max_gap => run.push(item.clone()),
            _ => out.push(vec![item.clone()]),
        }
        last = Some(p);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn numbers(text: &str) -> Vec<TextNumber> {
        split_sentences(text, "pre_text", 0)
            .iter()
            .flat_map(extract_numbers)
            .collect()
    }

    #[test]
    fn a_list_compared_respectively_stands_for_the_amounts_before_it() {
        let n = numbers(
            "during 2013 we paid $ 64 million in interest and $ 187 million in income taxes , \
             compared with $ 71 million and $ 162 million , respectively , in 2012 .",
        );
        let amounts: Vec<&TextNumber> = n.iter().filter(|n| !n.is_year_mention).collect();
        assert_eq!(amounts.len(), 4);
        let years: Vec<Option<i32>> = amounts.iter().map(|n| n.year).collect();
        assert_eq!(years, [Some(2013), Some(2013), Some(2012), Some(2012)]);
        assert!(
            amounts[2].context.contains("interest"),
            "{}",
            amounts[2].context
        );
        assert!(
            !amounts[2].context.contains("taxes"),
            "{}",
            amounts[2].context
        );
        assert!(
            amounts[3].context.contains("income taxes"),
            "{}",
            amounts[3].context
        );
    }

    #[test]
    fn splits_at_lone_periods() {
        let s = split_sentences("the u.s. grew 1.5 % . then it fell . .", "pre_text", 3);
        assert_eq!(s.len(), 2);
        assert_eq!(s[0].text, "the u.s. grew 1.5 % .");
        assert_eq!(s[1].index, 4);
    }

    #[test]
    fn the_period_of_initials_printed_apart_ends_no_sentence() {
        let s = split_sentences(
            "we prepared 24.6 million u.s . tax returns in 2014 . non-u.s . sales fell .",
            "post_text",
            0,
        );
        assert_eq!(s.len(), 2);
        assert_eq!(
            s[0].text,
            "we prepared 24.6 million u.s . tax returns in 2014 ."
        );
        assert!(is_initials("u.s") && is_initials("s.a") && is_initials("non-u.s"));
        assert!(!is_initials("1.5") && !is_initials("inc") && !is_initials("corp."));
    }

    #[test]
    fn reads_amounts_with_units_and_scales() {
        let n = numbers("revenue was $ 1,234.5 million , up 12 % from (3) last year .");
        assert_eq!(n.len(), 3);
        assert_eq!(n[0].value, Decimal::from_str("1234.5").unwrap());
        assert!(n[0].currency);
        assert_eq!(n[0].scale.as_deref(), Some("million"));
        assert_eq!(n[0].raw, "$ 1,234.5 million");
        assert!(n[1].percent);
        assert_eq!(n[2].value, Decimal::from(-3));
    }

    #[test]
    fn a_lone_digit_in_parentheses_is_a_footnote_mark() {
        let n = numbers(
            "securities to be issued upon exercise of options ( 1 ) were 448859 , ( 12 ) shares .",
        );
        let values: Vec<Decimal> = n.iter().map(|n| n.value).collect();
        assert_eq!(values, vec![Decimal::from(448859), Decimal::from(12)]);
    }

    #[test]
    fn a_lone_digit_before_a_closing_parenthesis_marks_a_list_item() {
        let n = numbers(
            "net revenue consists of : 1 ) fuel , 2 ) purchased power of $ 5 ) and 3 ) other charges of 45 .",
        );
        let values: Vec<Decimal> = n.iter().map(|n| n.value).collect();
        assert_eq!(values, vec![Decimal::from(5), Decimal::from(45)]);
    }

    #[test]
    fn a_quote_printed_as_its_code_is_no_year() {
        let n = numbers(
            "during 2010 , stockholders 2019 equity increased from $ 2.9 billion to $ 3.3 billion \
             . the company 2019 s notes due 2019 were repaid .",
        );
        let values: Vec<Decimal> = n.iter().map(|n| n.value).collect();
        let d = |s: &str| Decimal::from_str(s).unwrap();
        assert_eq!(values, vec![d("2010"), d("2.9"), d("3.3"), d("2019")]);
        // the amounts are of 2010 (the move's start, of the year before),
        // not of 2019
        assert_eq!(n[1].year, Some(2009));
        assert_eq!(n[2].year, Some(2010));
    }

    #[test]
    fn amounts_past_a_comparison_take_the_date_that_closes_their_clause() {
        let n = numbers(
            "93000 customers at december 31 , 2008 , compared to approximately 86000 gas customers as of december 31 , 2007 .",
        );
        let amounts: Vec<_> = n.iter().filter(|n| !n.is_year_mention).collect();
        assert_eq!(amounts[0].year, Some(2008));
        assert_eq!(amounts[1].year, Some(2007));
    }

    #[test]
    fn an_amount_and_its_rate_take_the_year_that_closes_them_before_a_comparison() {
        let n = numbers(
            "freight expense was $ 64.3 million , or 4.1% ( 4.1 % ) of net sales , in fiscal 2016 \
             compared with $ 58.9 million , or 3.9% ( 3.9 % ) of net sales , in fiscal 2015 .",
        );
        let amounts: Vec<_> = n.iter().filter(|n| !n.is_year_mention).collect();
        assert_eq!(amounts[0].value, Decimal::from_str("64.3").unwrap());
        assert_eq!(amounts[0].year, Some(2016));
        let after = amounts
            .iter()
            .find(|a| a.value == Decimal::from_str("58.9").unwrap());
        assert_eq!(after.and_then(|a| a.year), Some(2015));
    }

    #[test]
    fn a_change_after_a_heading_comparing_two_years_is_the_first_years() {
        let n = numbers(
            "results of operations net income 2016 compared to 2015 net income increased \
             $ 37.9 million primarily due to lower other operation and maintenance expenses .",
        );
        let change = n.iter().find(|x| !x.is_year_mention).expect("an amount");
        assert_eq!(change.value, Decimal::from_str("37.9").unwrap());
        assert_eq!(change.year, Some(2016));
    }

    #[test]
    fn a_comparison_without_years_takes_those_of_the_comparison_before_it() {
        let n = numbers(
            "revenue was $ 6,208 million in 2015 compared with $ 5,874 million in 2014 , and \
             operating income was $ 312.4 million , or 5.0% ( 5.0 % ) of revenue , compared with \
             $ 281.9 million , or 4.8% ( 4.8 % ) of revenue .",
        );
        let year_of = |v: &str| {
            n.iter()
                .find(|x| x.value == Decimal::from_str(v).unwrap())
                .and_then(|x| x.year)
        };
        assert_eq!(year_of("6208"), Some(2015));
        assert_eq!(year_of("312.4"), Some(2015));
        assert_eq!(year_of("281.9"), Some(2014));
    }

    #[test]
    fn an_amount_compared_with_last_year_is_the_year_after() {
        let n = numbers(
            "net sales were $ 2.2 billion compared with $ 2.5 billion in 2008 and $ 2.4 billion in 2007 .",
        );
        let amounts: Vec<_> = n.iter().filter(|n| !n.is_year_mention).collect();
        assert_eq!(amounts[0].year, Some(2009));
        assert_eq!(amounts[1].year, Some(2008));
        assert_eq!(amounts[2].year, Some(2007));
        let n = numbers("sales were 220 compared with 250 in 2008 .");
        let amounts: Vec<_> = n.iter().filter(|n| !n.is_year_mention).collect();
        assert_eq!(amounts[0].year, Some(2009));
        assert_eq!(amounts[1].year, Some(2008));
    }

    #[test]
    fn a_year_that_closes_an_earlier_amount_is_not_the_next_ones() {
        let n = numbers(
            "fair value was $ 1,350 million at december 31 , 2009 and $ 1,180 million at december 31 , 2008 .",
        );
        let amounts: Vec<_> = n.iter().filter(|n| !n.is_year_mention).collect();
        assert_eq!(amounts[0].year, Some(2009));
        assert_eq!(amounts[1].year, Some(2008));
        let n = numbers("we paid $ 0.15 per share in 2010 and $ 0.12 per share in 2009 .");
        let amounts: Vec<_> = n.iter().filter(|n| !n.is_year_mention).collect();
        assert_eq!(amounts[0].year, Some(2010));
        assert_eq!(amounts[1].year, Some(2009));
        // an amount with no year after it keeps the one before
        let n = numbers("revenue in 2009 was $ 5 million and costs were $ 3 million .");
        let amounts: Vec<_> = n.iter().filter(|n| !n.is_year_mention).collect();
        assert_eq!(amounts[0].year, Some(2009));
        assert_eq!(amounts[1].year, Some(2009));
    }

    #[test]
    fn a_date_that_closes_an_amounts_phrase_further_on_is_its_year() {
        let n = numbers(
            "we served 141000 electric customers and 93000 gas customers at the end of 2008 , compared to approximately 132000 electric customers and 86000 gas customers as of december 31 , 2007 .",
        );
        let amounts: Vec<_> = n.iter().filter(|n| !n.is_year_mention).collect();
        assert_eq!(amounts[3].raw, "86000");
        assert_eq!(amounts[3].year, Some(2007));
    }

    #[test]
    fn from_a_to_b_in_a_year_dates_a_the_year_before() {
        let n = numbers("earnings in 2002 rose from $ 128 million to $ 201 million .");
        let amounts: Vec<_> = n.iter().filter(|n| !n.is_year_mention).collect();
        assert_eq!(amounts[0].year, Some(2001));
        assert_eq!(amounts[1].year, Some(2002));
        let n = numbers("sales rose from $ 5 million in 2001 to $ 7 million in 2002 .");
        let amounts: Vec<_> = n.iter().filter(|n| !n.is_year_mention).collect();
        assert_eq!(amounts[0].year, Some(2001));
        assert_eq!(amounts[1].year, Some(2002));
        // each amount's own phrase closes with its date, a little further on
        let n = numbers(
            "deferred revenue increased from $ 1.12 billion at the end of fiscal 2014 to \
             $ 1.38 billion at the end of fiscal 2015 .",
        );
        let amounts: Vec<_> = n.iter().filter(|n| !n.is_year_mention).collect();
        assert_eq!(amounts[0].year, Some(2014));
        assert_eq!(amounts[1].year, Some(2015));
    }

    #[test]
    fn a_total_after_amounts_of_a_year_is_of_that_year() {
        let n = numbers("dividends were $ 0.45 in the first half of 2009 and $ 0.50 in the second half , for a total of $ 1.90 , compared with $ 0.40 in the first half of 2008 and $ 0.45 in the second half , for a total of $ 1.70 .");
        let amounts: Vec<_> = n.iter().filter(|n| !n.is_year_mention).collect();
        let years: Vec<_> = amounts.iter().map(|a| a.year).collect();
        assert_eq!(
            years,
            [2009, 2009, 2009, 2008, 2008, 2008].map(Some).to_vec(),
            "{amounts:?}"
        );
    }

    #[test]
    fn an_amount_in_brackets_restates_the_one_before_of_its_year() {
        let n = numbers("we recognized favorable development of $ 185 million ( $ 120 million after-tax ) , $ 120 million ( $ 78 million after-tax ) and $ 64 million ( $ 42 million after-tax ) in 2013 , 2012 and 2011 , respectively .");
        let amounts: Vec<_> = n.iter().filter(|n| !n.is_year_mention).collect();
        let years: Vec<_> = amounts.iter().map(|a| a.year).collect();
        assert_eq!(
            years,
            [2013, 2013, 2012, 2012, 2011, 2011].map(Some).to_vec(),
            "{amounts:?}"
        );
    }

    #[test]
    fn an_amount_with_its_own_year_is_no_member_of_a_list() {
        let n = numbers("margin increased to 48.3 percent in 2002 from 47.4 percent in year ended december 31 , 2003 2001 , due to prices .");
        let amounts: Vec<_> = n.iter().filter(|n| !n.is_year_mention).collect();
        assert_eq!(amounts[0].year, Some(2002));
    }

    #[test]
    fn one_amount_before_a_list_of_years_is_about_each() {
        let n = numbers("annual cash dividends paid on common stock were 40 cents per share in 2007 , 2006 and 2005 .");
        let amounts: Vec<_> = n.iter().filter(|n| !n.is_year_mention).collect();
        assert_eq!(amounts[0].year, Some(2007));
        assert_eq!(amounts[0].also_years, vec![2006, 2005]);
    }

    #[test]
    fn an_amount_after_a_change_verb_is_a_change() {
        let n =
            numbers("interest expense decreased $ 13 million , or 23% , to $ 44 million in 2010 .");
        let amounts: Vec<_> = n.iter().filter(|n| !n.is_year_mention).collect();
        assert!(amounts[0].is_change);
        assert!(!amounts[2].is_change);
    }

    #[test]
    fn a_change_restated_in_parentheses_is_a_change() {
        let n = numbers("sales in 2009 decreased 4% ( 4 % ) compared with 2008 and were 6% ( 6 % ) of revenue .");
        let amounts: Vec<_> = n.iter().filter(|n| !n.is_year_mention).collect();
        assert!(amounts[0].is_change && amounts[1].is_change);
        assert!(!amounts[2].is_change && !amounts[3].is_change);
    }

    #[test]
    fn a_list_of_subjects_gives_each_amount_of_its_list_its_own() {
        let n = numbers("in 2009 , net cash from operations and capital expenditures were $ 500 million and $ 200 million , respectively .");
        let amounts: Vec<_> = n.iter().filter(|n| !n.is_year_mention).collect();
        assert_eq!(amounts[0].context, "net cash from operations $ 500 million");
        assert_eq!(amounts[1].context, "capital expenditures $ 200 million");
    }

    #[test]
    fn a_list_of_items_after_amounts_gives_each_amount_its_own() {
        let n = numbers("( 1 ) includes 12,500 , 5,300 and 3,150 shares withheld in october , november and december , respectively , to satisfy tax obligations .");
        let amounts: Vec<_> = n.iter().filter(|n| !n.is_year_mention).collect();
        assert_eq!(amounts.len(), 3);
        assert_eq!(
            amounts[0].context,
            "includes 12,500 shares withheld in october"
        );
        assert_eq!(
            amounts[2].context,
            "includes 3,150 shares withheld in december"
        );
    }

    #[test]
    fn an_amount_outside_a_list_keeps_its_own_year() {
        let n = numbers("we recorded losses of $ 366 million in 2010 compared with losses of $ 137 million and $ 567 million in 2009 and 2008 , respectively .");
        let amounts: Vec<_> = n.iter().filter(|n| !n.is_year_mention).collect();
        assert_eq!(amounts[0].year, Some(2010));
        assert_eq!(amounts[1].year, Some(2009));
        assert_eq!(amounts[2].year, Some(2008));
    }

    #[test]
    fn a_year_after_respectively_is_no_member_of_the_list() {
        let n = numbers(
            "incurred losses include catastrophe losses of $ 186 million , $ 312 million and $ \
             145 million in 2009 , 2008 and 2007 , respectively , with 2008 reflecting hurricanes .",
        );
        let years: Vec<_> = n
            .iter()
            .filter(|n| !n.is_year_mention)
            .map(|n| n.year)
            .collect();
        assert_eq!(years, [Some(2009), Some(2008), Some(2007)]);
    }

    #[test]
    fn points_of_a_rate_are_a_percentage() {
        let n = numbers(
            "sales rose , reflecting 2 percentage points of volume and 50 basis points of price .",
        );
        assert!(n.iter().all(|n| n.percent), "{n:?}");
    }

    #[test]
    fn respectively_lists_map_amounts_to_years() {
        let n = numbers(
            "expense was $ 80 million , $ 83 million and $ 111 million in 2007 , 2006 and 2005 .",
        );
        let amounts: Vec<_> = n.iter().filter(|n| !n.is_year_mention).collect();
        assert_eq!(amounts.len(), 3);
        assert_eq!(amounts[0].year, Some(2007));
        assert_eq!(amounts[2].year, Some(2005));
        assert_eq!(amounts[2].value, Decimal::from(111));
    }

    #[test]
    fn dates_are_not_amounts() {
        let n = numbers("at december 31 , 2012 , we had 24 million shares .");
        let day = n.iter().find(|n| n.value == Decimal::from(31)).unwrap();
        assert!(day.is_year_mention);
        let shares = n.iter().find(|n| n.value == Decimal::from(24)).unwrap();
        assert!(!shares.is_year_mention);
        assert_eq!(shares.year, Some(2012));
    }

    #[test]
    fn words_are_not_numbers() {
        assert!(numbers("the 2019s results and 1,2 and a-b .")
            .iter()
            .all(|n| n.value != Decimal::from(12)));
    }
}

//! What the question asks, read once for the grounder (`Grounder::new`):
//! a percentage, a change, a total, a unit, a scale, a period, a range of
//! years, a numbered phrase of a label, a catch-all word; the fields the
//! conversation fills (earlier reads, the anchor) start empty.

use super::{AskedUnit, Grounder, Weights};
use crate::kg::Schema;
use crate::plan::cues::{contains_any, contains_phrase, Cues};
use crate::plan::page::PageIndex;
use crate::words;
use std::collections::HashSet;

impl<'a> Grounder<'a> {
    /// A grounder for one question on the page of `schema`.
    pub fn new(
        schema: &'a Schema,
        question: &str,
        lexicon: bool,
        weights: &'a Weights,
        cues: &Cues,
        asked_scale: Option<String>,
    ) -> Self {
        let page = PageIndex::cached(schema, lexicon, cues);
        let tokens = words::tokens(question);
        let q = format!(" {} ", tokens.join(" "));
        let says_per = says_per(&q, cues);
        let spaced = crate::words::normalise_question(question);
        let (asks_row_range, asked_column_range) = asked_label_ranges(&page, &spaced, cues);
        let durations = cues.duration_form(&spaced);
        Self {
            schema,
            weights,
            page,
            wants_percent: wants_percent(question, &tokens, cues),
            says_change: tokens.iter().any(|t| cues.change_label.contains(t)),
            surface: tokens.iter().map(|t| words::surface(t)).collect(),
            asks_total: tokens.contains(&cues.total_word),
            leaves_out: leaves_out(&q, cues),
            total_word: cues.total_word.clone(),
            // "eps" asks for "earnings per share" on a page that prints it;
            // a price is of one unit
            asks_per_unit: says_per
                || tokens
                    .iter()
                    .any(|t| cues.unit_price_word.contains(&words::stem(t))),
            says_per,
            continues: cues
                .continuation_lead
                .iter()
                .any(|l| q.starts_with(&format!(" {l} "))),
            asked_unit: asked_unit(&q, cues),
            asked_scale,
            asked_quarter: words::quarter_in(question),
            asked_month: words::month_in(question),
            asked_dates: words::dates_in(question),
            anchor: None,
            earlier: HashSet::new(),
            earlier_columns: HashSet::new(),
            earlier_rows: HashSet::new(),
            earlier_lost_row: false,
            wants_printed_change: std::cell::Cell::new(false),
            excluded: HashSet::new(),
            numbered_row: numbered_labels(&durations, &schema.rows, cues),
            numbered_column: numbered_labels(&durations, &schema.columns, cues),
            asks_row_range,
            asked_column_range,
            after_year: cues.after_year(&spaced),
            thereafter: cues.thereafter.clone(),
            asks_catch_all: tokens.iter().any(|w| cues.catch_all.contains(w)),
            period_words: period_words(&tokens, cues),
            glued: glued_words(&tokens),
        }
    }
}

/// Whether the question asks for a rate or percentage: a percent cue as a
/// whole word ("generated" or "corporate" asks for no rate), or a "%".
fn wants_percent(question: &str, tokens: &[String], cues: &Cues) -> bool {
    cues.percent.iter().any(|w| {
        tokens
            .iter()
            .any(|t| t == w || words::stem(t) == words::stem(w))
    }) || question.contains('%')
}

/// Whether the question (`q`, its tokens padded by spaces) says "per", or a
/// synonym that says it ("eps").
fn says_per(q: &str, cues: &Cues) -> bool {
    contains_any(q, &cues.per_word) || synonym_says(cues, q, |t| contains_any(t, &cues.per_word))
}

/// Whether the question prints a leave-out qualifier ("before", "net of"),
/// itself or in a synonym ("pre-tax income" is "income before income
/// taxes").
fn leaves_out(q: &str, cues: &Cues) -> bool {
    contains_any(q, &cues.leave_out_qualifier)
        || synonym_says(cues, q, |t| {
            contains_any(&format!(" {t} "), &cues.leave_out_qualifier)
        })
}

/// Whether the question asks for a count or money, or either.
fn asked_unit(q: &str, cues: &Cues) -> AskedUnit {
    if contains_any(q, &cues.count_ask) {
        AskedUnit::Count
    } else if contains_any(q, &cues.money_ask) {
        AskedUnit::Money
    } else {
        AskedUnit::Any
    }
}

/// Whether a range of years the question prints (`spaced`, normalised) is
/// a row label's, and the first that is a column label's.
fn asked_label_ranges(page: &PageIndex, spaced: &str, cues: &Cues) -> (bool, Option<(i32, i32)>) {
    let asked_ranges = asked_year_ranges(spaced, cues);
    let asks_row_range = page
        .row_year_ranges
        .iter()
        .any(|ranges| ranges.iter().any(|r| asked_ranges.contains(r)));
    let asked_column_range = asked_ranges.iter().copied().find(|r| {
        page.column_year_ranges
            .iter()
            .any(|ranges| ranges.contains(r))
    });
    (asks_row_range, asked_column_range)
}

/// For each label, whether the question (`durations`, in
/// [`Cues::duration_form`]) prints a numbered phrase of it.
fn numbered_labels(durations: &str, labels: &[(String, Option<i32>)], cues: &Cues) -> Vec<bool> {
    labels
        .iter()
        .map(|(l, _)| prints_numbered_phrase(durations, l, cues))
        .collect()
}

/// The question's words and adjacent pairs of words glued, hyphens
/// dropped, stemmed ("after-tax", "after taxes" both give "aftertax").
fn glued_words(tokens: &[String]) -> HashSet<String> {
    tokens
        .iter()
        .map(|t| t.replace('-', ""))
        .chain(
            tokens
                .windows(2)
                .map(|p| format!("{}{}", p[0], p[1]).replace('-', "")),
        )
        .map(|g| words::stem(&g))
        .collect()
}

/// The stems of `tokens` that name a period: a period noun ("quarter"), a
/// qualifier of a year ("fiscal"), a month, a quarter's ordinal ("fourth").
fn period_words(tokens: &[String], cues: &Cues) -> HashSet<String> {
    tokens
        .iter()
        .filter(|t| {
            let stem = words::stem(t);
            cues.period_noun.iter().any(|p| words::stem(p) == stem)
                || cues.period_qualifier.contains(&stem)
                || words::month_number(t).is_some()
                || words::quarter_in(&format!("{t} quarter")).is_some()
        })
        .map(|t| words::stem(t))
        .collect()
}

/// Whether `question` (normalised, padded, in [`Cues::duration_form`]) prints
/// a phrase of two words or more of `label` (in the same form) that holds a
/// number other than a year or a day of a month and a word other than a
/// month: "more than 5 years", "1-3 years", "less than 1 year"; or a range
/// of numbers alone ("2016 to 2020", "2016-2020").
fn prints_numbered_phrase(question: &str, label: &str, cues: &Cues) -> bool {
    let label = cues.duration_form(&crate::words::normalise_question(&words::normalise_label(
        label,
    )));
    let toks: Vec<&str> = label.split_whitespace().collect();
    let is_number = |t: &&str| {
        t.bytes().any(|b| b.is_ascii_digit())
            && t.bytes()
                .all(|b| b.is_ascii_digit() || b == b'-' || b == b'.')
            && crate::kg::text::as_year(t).is_none()
    };
    let is_word = |t: &&str| t.chars().all(char::is_alphabetic) && words::month_number(t).is_none();
    // "balance at december 31": a day of a month is a date, not a number
    let is_day = |w: &[&str], i: usize| i > 0 && words::month_number(w[i - 1]).is_some();
    // "notes due 2020": a year after a word (not a month, nor a period
    // qualifier: "fiscal 2010" is a period) is part of a name
    let is_name_year = |w: &[&str], i: usize| {
        i > 0
            && crate::kg::text::as_year(w[i]).is_some()
            && is_word(&w[i - 1])
            && !cues.period_qualifier.contains(&words::stem(w[i - 1]))
    };
    // "2016-2020": a range of numbers alone is a phrase of its own
    let is_range = |t: &&str| is_number(t) && t.split('-').filter(|p| !p.is_empty()).count() == 2;
    (1..=toks.len()).rev().any(|n| {
        toks.windows(n).any(|w| {
            let named = if n == 1 {
                is_range(&w[0])
            } else {
                (0..w.len()).any(|i| (is_number(&w[i]) && !is_day(w, i)) || is_name_year(w, i))
                    && w.iter().any(is_word)
            };
            named && question.contains(&format!(" {} ", w.join(" ")))
        })
    })
}

/// Whether the question prints a term of a synonym set one of whose terms
/// `says` something ("pre-tax income" of a set with "income before income
/// taxes", "eps" of one with "earnings per share").
fn synonym_says(cues: &Cues, question: &str, says: impl Fn(&str) -> bool) -> bool {
    cues.synonym_sets
        .iter()
        .any(|set| set.iter().any(|t| contains_phrase(question, t)) && set.iter().any(|t| says(t)))
}

/// The ranges of years the question prints: two years joined by a range
/// joiner ("2014 through 2015", "2014-2015") or a period joiner ("2014 and
/// 2015").
fn asked_year_ranges(question: &str, cues: &Cues) -> Vec<(i32, i32)> {
    use crate::plan::cues::{split_year_ranges, year_ranges};
    year_ranges(&split_year_ranges(question), &cues.asked_range_joiner)
}

//! The page as the grounder reads it: its words and their rarity, which rows
//! and columns are totals, which say beginning or end of a period, which
//! name a quarter, the years it speaks of. Built once a page (the turns of a
//! conversation share it) and independent of the question.

use super::cues::{boundary_of, Boundary, Cues};
use crate::kg::schema::label_scale;
use crate::kg::{FactEntry, Schema};
use crate::words::{self, content_words};
use rust_decimal::Decimal;
use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::hash::{Hash, Hasher};
use std::rc::Rc;

/// The page's words and structure as the grounder reads them, built once a
/// page (the turns of a conversation share it) and independent of the
/// question.
pub(super) struct PageIndex {
    /// The tokens of each row label, then each column label, then each
    /// sentence: the phrases the reader spells abbreviations from.
    pub phrases: Vec<Vec<String>>,
    /// Every token a row or column label prints.
    pub label_tokens: HashSet<String>,
    /// Each row and column label, then each sentence, as its tokens joined
    /// and padded by spaces (" net sales "), for phrase search.
    pub spaced_labels: Vec<String>,
    pub spaced_sentences: Vec<String>,
    /// Each word's inverse document frequency over the row labels, column
    /// labels and sentences.
    pub idf: HashMap<String, f64>,
    /// Content words of each row label.
    pub row_words: Vec<Vec<String>>,
    /// Words of each row's lexicon concept labels (other reports' names for
    /// the row's metric); empty without the lexicon.
    pub row_alias_words: Vec<Vec<String>>,
    /// The text's words for each row (see [`text_alias_words`]): the words
    /// around a text number that prints the row's amount.
    pub row_text_words: Vec<Vec<String>>,
    /// The text's words for the first row the table lost into its headers:
    /// the context words of each text number that prints one of its header
    /// numbers.
    pub lost_row_text_words: Vec<String>,
    /// The caption's words for each row named only "total" (see
    /// [`caption_names_total`]), and a schedule's total's words for each of
    /// its year rows (see [`schedule_total_names_years`]); empty for other
    /// rows.
    pub row_caption_words: Vec<Vec<String>>,
    /// Content words of each column label.
    pub column_words: Vec<Vec<String>>,
    /// The specific words of each row label's head when the label is a
    /// part of something ("current portion" of "current portion of
    /// long-term debt"); empty for other rows (see [`head_of_part`]).
    pub row_head_words: Vec<Vec<String>>,
    /// Which rows measure an amount per unit of something ("net sales per
    /// square foot", "dividends declared per share").
    pub row_per_unit: Vec<bool>,
    /// Each row's and column's label marks a percentage ("2012 % of total",
    /// "percent change"): its cells are rates, whatever they print.
    pub row_percent: Vec<bool>,
    /// Each text number is a rate per unit of something ("$ 38.12 per
    /// megawatt-hour"), not per a length of time.
    pub fact_per_unit: Vec<bool>,
    /// The month each text number's words name, if one (see
    /// [`words::month_in`]).
    pub fact_month: Vec<Option<u8>>,
    /// For each text number that is an amount (a currency sign or a scale
    /// word) in a sentence printing no year, the years the sentence before
    /// it prints in the same part of the page: the sentence goes on about
    /// them ("net sales for fiscal 2014 were ... . we returned $ 9.4
    /// billion to shareholders ..."); empty for other numbers.
    pub fact_carried_years: Vec<Vec<i32>>,
    pub column_percent: Vec<bool>,
    /// Which rows, and which columns, state a change or an effect ("change
    /// in net interest income", "1% increase"; [`Cues::change_label`]).
    pub row_states_change: Vec<bool>,
    pub column_states_change: Vec<bool>,
    /// Which columns price one unit of what their rows count ("weighted
    /// average exercise price per share"): a word of the unit-price list
    /// and none of the quantity list (glued words apart, see
    /// [`column_tokens`]).
    pub column_unit_price: Vec<bool>,
    /// Which columns count units ("number of shares"): a word of the
    /// quantity list and none of the unit-price list.
    pub column_counts: Vec<bool>,
    /// Which rows, and which columns, state a unit of a physical quantity
    /// ("fuel consumption ( metric tons )") not after a per word ("price
    /// per barrel"): they measure no money.
    pub row_quantity_unit: Vec<bool>,
    pub column_quantity_unit: Vec<bool>,
    /// Which columns are amounts of money: the header is only a number
    /// printed with a currency sign ("$ 3,118"), the first row of a
    /// one-unit table that the header took; its rows share that unit.
    pub column_money: Vec<bool>,
    /// Which rows print a catch-all word ("other revenues").
    pub row_is_catch_all: Vec<bool>,
    /// Which rows and columns are totals (print the total word).
    pub row_is_total: Vec<bool>,
    pub column_is_total: Vec<bool>,
    /// Which text numbers are part of a name a label prints ("the s&p 500
    /// index" beside a row "s&p 500"): no amounts.
    pub fact_is_name: Vec<bool>,
    /// Which text numbers restate a table row's amount rounded in another
    /// scale ("$ 3.9 billion" for 3,870 in a table in millions): the table
    /// prints the amount itself (see [`rounded_restatements`]).
    pub fact_rounds_cell: Vec<bool>,
    /// For each row (and, last, the row the table lost into its headers),
    /// the text numbers that restate its amount so.
    pub row_restated_by: Vec<Vec<usize>>,
    /// Which rows print both positive and negative numbers ("net income
    /// ( loss )"): there the sign is part of the value, not a convention of
    /// print.
    pub row_signs_mixed: Vec<bool>,
    /// Which columns that name no year and mark a percentage print both
    /// signs ("% change" beside years).
    pub column_signs_mixed: Vec<bool>,
    /// Which text numbers' contexts call them a total.
    pub fact_is_total: Vec<bool>,
    /// Whether "total" stands among the few words just before each text
    /// number ("for a total of $ 2.145").
    pub fact_total_before: Vec<bool>,
    /// For each text number that a contribution verb comes just before
    /// ("... contributed $ 47 million of trauma sales"), the specific words
    /// of its subject (the clause before the verb); empty for others.
    pub fact_contributed_by: Vec<Vec<String>>,
    /// For a text number in brackets that restates the amount before it
    /// ("$ 48.3 million ( $ 30.9 million after-tax )"), the words that say
    /// how ("aftertax", hyphens and spaces dropped); `None` for others.
    pub fact_restated_as: Vec<Option<String>>,
    /// For each sentence, the words it prints only inside a phrase that
    /// names what an amount leaves out ("net operating revenues , before
    /// the provision for doubtful accounts , were ..."; see
    /// [`left_out_words`]).
    pub sentence_left_out: Vec<Vec<String>>,
    /// Whether each row and column label says beginning or end of a period.
    pub row_boundary: Vec<Option<Boundary>>,
    /// Whether each text number is where a move started or ended ("from
    /// $ 2.9 billion to $ 3.3 billion"): its period's beginning or end.
    pub fact_boundary: Vec<Option<Boundary>>,
    /// Each row label's content words as (stem, surface form): the
    /// surface tells "exercisable" from "exercised", one stem apart.
    pub row_surface: Vec<Vec<(String, String)>>,
    /// Each column label's words as (stem, surface form) pairs.
    pub column_surface: Vec<Vec<(String, String)>>,
    /// The year of each flow row of a roll-forward ([`flow_row_years`]).
    pub flow_row_year: Vec<Option<i32>>,
    pub column_boundary: Vec<Option<Boundary>>,
    /// The quarter each row and column label names.
    pub row_quarter: Vec<Option<u8>>,
    pub column_quarter: Vec<Option<u8>>,
    /// The labels name at least two quarters: only then does a quarter
    /// tell cells apart ("december 31 2017" on every column of a balance
    /// sheet is a year's end, not a quarter to match).
    pub quarters_differ: bool,
    /// The month each row and each column label names ("january",
    /// "june 30 , 2014").
    pub row_month: Vec<Option<u8>>,
    pub column_month: Vec<Option<u8>>,
    /// Whether the labels (and a lost row) name two months or more.
    pub months_differ: bool,
    /// The dates each column label prints.
    pub column_dates: Vec<Vec<(u8, Option<u8>, i32)>>,
    /// No column names a year and fewer than half the rows do: those years
    /// are part of a few rows' names, not the table's period axis.
    pub row_years_are_names: bool,
    /// The one year the table's caption names ("sales by geographic area
    /// for the year ended december 31 , 2012"), when no row or column label
    /// names a year: the period of every cell.
    pub caption_year: Option<i32>,
    /// The year and quarter of the first row the table lost into its
    /// header (see [`lost_first_row`]): its numbers are the header numbers.
    pub lost_row_year: Option<i32>,
    pub lost_row_quarter: Option<u8>,
    /// The month of the lost first row, when the rows left start a
    /// sequence of months ("november 2009", "december 2009").
    pub lost_row_month: Option<u8>,
    /// The header numbers of a lost first row whose name is lost with it
    /// (see [`unnamed_lost_row`]).
    pub lost_row_unnamed: Vec<usize>,
    /// The words the lost row shares with the sequence it starts: those the
    /// first two rows left share (`quarter` of "second quarter", "third
    /// quarter"); empty when the lost row starts no sequence.
    pub lost_row_words: Vec<String>,
    /// The lost row's own label, when the table glued it to its first
    /// header (see [`lost_row_label`]): its content words.
    pub lost_row_label: Vec<String>,
    /// The lost first row's name a list of the text gives (see
    /// [`lost_row_listed`]): its content words.
    pub lost_row_listed: Vec<String>,
    /// The boundary of a period that label says ("balance at january 1").
    pub lost_row_label_boundary: Option<Boundary>,
    /// The ranges of years each row label prints ("2018-2022").
    pub row_year_ranges: Vec<Vec<(i32, i32)>>,
    /// The ranges of years each column label prints ("2014-2015" in a
    /// schedule of obligations by period).
    pub column_year_ranges: Vec<Vec<(i32, i32)>>,
    /// Which columns belong to a group whose name the table lost: the
    /// years of an earlier group of columns come again with none of its
    /// words ("bermuda subsidiaries 2010", "bermuda subsidiaries 2009",
    /// then "2010", "2009"), so the second group's name ("u.s.
    /// subsidiaries") is printed nowhere in the labels (see
    /// [`unnamed_column_groups`]).
    /// For each such column, the words of the groups that kept their name;
    /// empty for every other column.
    pub column_unnamed_group: Vec<Vec<String>>,
    /// Content words of each text number's context and of its sentence.
    pub fact_words: Vec<(Vec<String>, Vec<String>)>,
    /// The words of each text number's context that belong to another
    /// amount of its sentence (see [`super::binding`]).
    pub fact_neighbour_words: Vec<Vec<String>>,
    /// Every year the page speaks of: in labels, cells, text numbers and
    /// sentences.
    pub page_years: HashSet<i32>,
    /// Every word the page prints, for [`super::ground::Grounder::knows`].
    pub vocabulary: HashSet<String>,
}

/// How many page indexes a thread keeps: a dataset asks several
/// conversations of one page (ConvFinQA's `Single_` and `Double_` ones),
/// not one after another.
const KEPT_PAGES: usize = 256;

thread_local! {
    /// The pages indexed on this thread, by [`page_key`]: a conversation's
    /// turns, and the other conversations of its page, index it once.
    static PAGES: RefCell<HashMap<u64, Rc<PageIndex>>> = RefCell::new(HashMap::new());
}

/// A fingerprint of what a page index is built from.
fn page_key(schema: &Schema, lexicon: bool) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    lexicon.hash(&mut h);
    schema.rows.hash(&mut h);
    schema.columns.hash(&mut h);
    schema.row_concept_labels.hash(&mut h);
    schema.sentences.hash(&mut h);
    schema.facts.len().hash(&mut h);
    for f in &schema.facts {
        (f.sentence, f.token, &f.context, f.year).hash(&mut h);
    }
    h.finish()
}

/// A label's boundary: cue words, or a date on the first or last day of a year.
fn label_boundary(label: &str, cues: &Cues) -> Option<Boundary> {
    let toks = words::tokens(label);
    if let Some(b) = boundary_of(&toks, cues) {
        return Some(b);
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

/// A text number's context as words, and the number's place in them (its
/// context holds up to twelve words before it and four after).
fn placed_in_context(f: &FactEntry) -> (Vec<&str>, usize) {
    let toks: Vec<&str> = f.context.split_whitespace().collect();
    // the number's place in its context: 12 tokens in, unless the context
    // is a list's, shared by its numbers; then where the number is printed
    let number = f
        .raw
        .split_whitespace()
        .find(|t| t.chars().any(|c| c.is_ascii_digit()));
    let printed: Vec<usize> = toks
        .iter()
        .enumerate()
        .filter(|(_, t)| Some(**t) == number)
        .map(|(i, _)| i)
        .collect();
    let at = match printed.as_slice() {
        [i] => *i,
        _ => f.token.min(12),
    };
    (toks, at)
}

/// The three words printed after a text number.
pub(super) fn words_after(f: &FactEntry) -> Vec<&str> {
    let (toks, at) = placed_in_context(f);
    toks.get(at + 1..toks.len().min(at + 4))
        .map(<[&str]>::to_vec)
        .unwrap_or_default()
}

/// The four words printed before a text number (its currency sign aside):
/// "for a total of" before "$ 2.145".
pub(super) fn words_before(f: &FactEntry) -> Vec<&str> {
    let (toks, at) = placed_in_context(f);
    let at = at.min(toks.len());
    let start = if at > 0 && toks[at - 1] == "$" {
        at - 1
    } else {
        at
    };
    toks[start.saturating_sub(4)..start].to_vec()
}

/// The specific words of the subject that contributes a text number to a
/// measure (see [`PageIndex::fact_contributed_by`]): the words of its
/// clause before the contribution verb that stands among the few words
/// just before the number.
fn contributed_by(f: &FactEntry, cues: &Cues) -> Vec<String> {
    let (toks, at) = placed_in_context(f);
    let at = at.min(toks.len());
    let Some(verb) = (at.saturating_sub(3)..at)
        .rev()
        .find(|&k| cues.contribution_verb.iter().any(|v| v == toks[k]))
    else {
        return Vec::new();
    };
    let clause_start = toks[..verb]
        .iter()
        .rposition(|t| *t == "," || cues.clause_break.iter().any(|c| c == t))
        .map_or(0, |k| k + 1);
    cues.specific(&content_words(&toks[clause_start..verb].join(" ")))
}

/// How a text number in brackets restates the amount printed just before
/// the brackets: the words after it up to the closing bracket, its scale
/// word and stop words aside, glued without hyphens and stemmed ("$ 120
/// million ( $ 78 million after-tax )" gives "aftertax").
fn restated_as(f: &FactEntry) -> Option<String> {
    let tokens: Vec<&str> = f.sentence_text.split_whitespace().collect();
    let number = f
        .raw
        .split_whitespace()
        .find(|t| t.chars().any(|c| c.is_ascii_digit()))?;
    let i = f.token;
    (tokens.get(i) == Some(&number)).then_some(())?;
    let open = if i >= 2 && tokens[i - 1] == "$" {
        i - 2
    } else {
        i.checked_sub(1)?
    };
    let amount_before = tokens[open.saturating_sub(3)..open]
        .iter()
        .any(|t| t.chars().any(|c| c.is_ascii_digit()));
    if tokens[open] != "(" || !amount_before {
        return None;
    }
    let words: String = tokens[i + 1..]
        .iter()
        // up to a closing bracket or any other punctuation
        .take_while(|t| {
            t.chars()
                .all(|c| c.is_alphanumeric() || c == '-' || c == '.')
        })
        .take(4)
        .filter(|t| label_scale(t).is_none() && !words::is_stop_word(t) && **t != "%")
        .map(|t| t.replace('-', ""))
        .collect();
    (!words.is_empty()).then(|| words::stem(&words))
}

/// The years a text number's sentence carries over from the sentence
/// before (see [`PageIndex::fact_carried_years`]).
fn carried_years(schema: &Schema, fact: &FactEntry) -> Vec<i32> {
    let s = fact.sentence;
    let pre = schema.pre_sentences;
    let amount = fact.raw.starts_with('$') || fact.scale.is_some();
    if !amount
        || s == 0
        || (s < pre) != (s - 1 < pre)
        || !words::years_in(&fact.sentence_text).is_empty()
    {
        return Vec::new();
    }
    schema
        .sentences
        .get(s - 1)
        .map(|prev| words::years_in(prev))
        .unwrap_or_default()
}

/// A text number is a rate per unit of something: a per word follows it
/// (after its scale word), and no length of time ("per megawatt-hour", not
/// "per year").
fn fact_per_unit(f: &FactEntry, cues: &Cues) -> bool {
    let after = words_after(f);
    let mut rest = after.iter().skip_while(|w| label_scale(w).is_some());
    let is = |list: &[String], w: Option<&&str>| w.is_some_and(|w| list.iter().any(|l| l == w));
    is(&cues.per_word, rest.next())
        && !is(&cues.duration_word, rest.clone().next())
        && !is(&cues.period_noun, rest.next())
}

/// `text` with each term of a synonym set that the page never prints
/// ("headcount") written as the term of the set the page prints, a row or
/// column label's first ("number of employees"), else a sentence's.
pub(super) fn page_synonyms(text: &str, page: &PageIndex, sets: &[Vec<String>]) -> String {
    let spaced = |l: &str| format!(" {} ", words::tokens(l).join(" "));
    let prints = |pages: &[String], term: &str| {
        let term = spaced(term);
        pages.iter().any(|p| p.contains(&term))
    };
    let (labels, sentences) = (&page.spaced_labels, &page.spaced_sentences);
    let mut out = text.to_string();
    for set in sets {
        let Some(asked) = set.iter().find(|t| out.contains(&spaced(t))) else {
            continue;
        };
        if prints(labels, asked) || prints(sentences, asked) {
            continue;
        }
        let printed = set
            .iter()
            .find(|t| prints(labels, t))
            .or_else(|| set.iter().find(|t| prints(sentences, t)));
        if let Some(p) = printed {
            out = out.replacen(&spaced(asked), &format!(" {p} "), 1);
        }
    }
    out
}

/// A label marks a percentage: it prints "%" or the word "percent" (or
/// "percentage").
fn marks_percent(label: &str) -> bool {
    label.contains('%')
        || words::tokens(label)
            .iter()
            .any(|t| t.starts_with("percent"))
}

/// Whether a label states a change or an effect (a word of
/// [`Cues::change_label`]).
fn states_change(label: &str, cues: &Cues) -> bool {
    words::tokens(label)
        .iter()
        .any(|t| cues.change_label.contains(t))
}

/// One value per label (row or column), computed from the label's text.
fn per_label<T>(labels: &[(String, Option<i32>)], f: impl Fn(&str) -> T) -> Vec<T> {
    labels.iter().map(|(l, _)| f(l)).collect()
}

/// The words of each row's concept labels the row label does not print
/// itself; empty without the lexicon.
fn alias_words(schema: &Schema, row_words: &[Vec<String>], lexicon: bool) -> Vec<Vec<String>> {
    (0..schema.rows.len())
        .map(|i| match schema.row_concept_labels.get(i) {
            Some(labels) if lexicon => labels
                .iter()
                .flat_map(|l| content_words(l))
                .filter(|w| !row_words[i].contains(w))
                .collect(),
            _ => Vec::new(),
        })
        .collect()
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

/// In a schedule whose rows are years ("2011", "2012", ..., "total
/// minimum lease payments"), the total row's label names what every year
/// row measures: the year rows take its words (less the total word), and a
/// total row named only "total" lends its caption's.
fn schedule_total_names_years(
    schema: &Schema,
    cues: &Cues,
    row_words: &[Vec<String>],
    column_words: &[Vec<String>],
    row_year_ranges: &[Vec<(i32, i32)>],
    caption: &[String],
    row_caption_words: &mut [Vec<String>],
) {
    let total = words::stem(&cues.total_word);
    // a row of years, or of a range of years ("2018-2022")
    let range = |r: usize| !row_year_ranges[r].is_empty();
    let year_row = |r: usize| {
        cues.specific(&row_words[r])
            .iter()
            .all(|w| w.bytes().any(|b| b.is_ascii_digit()))
            && (range(r)
                || schema
                    .cells
                    .iter()
                    .any(|c| c.row == r && c.row_year.is_some()))
    };
    let year_rows: Vec<usize> = (0..row_words.len())
        .filter(|&r| year_row(r) || is_period_label(&schema.rows[r].0, cues))
        .collect();
    let totals: Vec<usize> = (0..row_words.len())
        .filter(|&r| row_words[r].contains(&total))
        .collect();
    let names: Vec<String> = match (year_rows.as_slice(), totals.as_slice()) {
        ([.., _, _], [t]) => row_words[*t]
            .iter()
            .chain(&row_caption_words[*t])
            .filter(|w| **w != total)
            .chain(caption)
            .cloned()
            .collect(),
        // no total: the caption names what each year row measures, when
        // no column names a measure of its own
        ([.., _, _], []) if column_words.iter().all(|c| cues.specific(c).is_empty()) => {
            caption.to_vec()
        }
        _ => return,
    };
    for r in year_rows {
        for w in &names {
            if !row_caption_words[r].contains(w) {
                row_caption_words[r].push(w.clone());
            }
        }
    }
}

/// Whether a label states a unit of a physical quantity ("( metric tons
/// )", "thousand barrels per day") that no per word comes just before
/// ("price per barrel" prices one).
fn states_quantity_unit(label: &str, cues: &Cues) -> bool {
    let toks = words::tokens(label);
    let spaced = format!(" {} ", toks.join(" "));
    cues.quantity_unit.iter().any(|u| {
        spaced.match_indices(&format!(" {u} ")).any(|(at, _)| {
            let before = spaced[..at].split_whitespace().last().unwrap_or("");
            !cues.per_word.iter().any(|p| p == before)
        })
    })
}

/// Whether a label names only a month or a quarter ("january", "fourth
/// quarter", "march 2014"): a period, not a measure.
fn is_period_label(label: &str, cues: &Cues) -> bool {
    let toks = words::tokens(label);
    let period = |t: &String| {
        words::month_number(t).is_some()
            || words::quarter_in(&format!("{t} quarter")).is_some()
            || words::quarter_in(t).is_some()
            || cues.period_noun.contains(t)
            || t.bytes().all(|b| b.is_ascii_digit() || b == b',')
            || words::is_stop_word(t)
    };
    (words::month_in(label).is_some() || words::quarter_in(label).is_some())
        && toks.iter().all(period)
}

/// The words an initialism stands for where the page defines it: the run
/// of words before "( alll )" whose initials spell it, stop words passed
/// over ("allowance for loan and lease losses").
fn initialism_definition(schema: &Schema, initialism: &str) -> Option<String> {
    if !(2..=6).contains(&initialism.len()) || !initialism.chars().all(|c| c.is_ascii_lowercase()) {
        return None;
    }
    let letters: Vec<char> = initialism.chars().collect();
    let bracketed = format!("( {initialism} )");
    let defining = schema.sentences.iter().filter(|s| s.contains(&bracketed));
    defining.into_iter().find_map(|sentence| {
        let toks: Vec<String> = sentence.split_whitespace().map(str::to_string).collect();
        let at = toks.windows(3).position(|w| w == ["(", initialism, ")"])?;
        // the run that ends just before the bracket, each letter a content
        // word's
        (0..at).rev().find_map(|start| {
            let (end, _) = words::spelling_run_at(&toks, start, &letters, true)?;
            (end == at).then(|| toks[start..at].join(" "))
        })
    })
}

/// The specific words of the table's caption, the sentence just before the
/// table ("the following table summarizes our contractual obligations"),
/// less months and numbers; none when that sentence states amounts the
/// table does not print (a fact of its own, not a caption).
fn caption_words(schema: &Schema, cues: &Cues) -> Option<Vec<String>> {
    let caption_index = schema.pre_sentences.checked_sub(1)?;
    let caption = schema.sentences.get(caption_index)?;
    let states_amounts = schema.facts.iter().any(|f| {
        f.sentence == caption_index
            && !f.is_year_mention
            && !f.percent
            && !schema.cells.iter().any(|c| c.value.abs() == f.value.abs())
    });
    if states_amounts {
        return None;
    }
    // "( excluding lease obligations )" names what the table leaves out
    let mut kept: Vec<&str> = Vec::new();
    let mut excluded = false;
    let tokens: Vec<&str> = caption.split_whitespace().collect();
    for (i, t) in tokens.iter().enumerate() {
        if matches!(t.as_bytes(), [b')' | b',' | b';']) {
            excluded = false;
        } else if cues.exclusion_connector.iter().any(|c| {
            let c: Vec<&str> = c.split_whitespace().collect();
            tokens[i..].starts_with(&c)
        }) {
            excluded = true;
        }
        if !excluded {
            kept.push(t);
        }
    }
    // an initialism the page defines ("the allowance for loan and lease
    // losses ( alll )") names what its words name
    let defined: Vec<String> = kept
        .iter()
        .filter_map(|t| initialism_definition(schema, t))
        .collect();
    kept.extend(defined.iter().map(String::as_str));
    Some(
        cues.specific(&content_words(&kept.join(" ")))
            .into_iter()
            .filter(|w| words::month_in(w).is_none() && !w.chars().any(|c| c.is_ascii_digit()))
            .collect(),
    )
}

/// A row named only "total" totals what the table is about: the words of
/// its caption, the sentence just before the table ("the following table
/// summarizes our contractual obligations"), less months and cue words.
fn caption_names_total(
    cues: &Cues,
    caption: &[String],
    row_words: &[Vec<String>],
    row_boundary: &[Option<Boundary>],
) -> Vec<Vec<String>> {
    let mut aliases: Vec<Vec<String>> = vec![Vec::new(); row_words.len()];
    if caption.is_empty() {
        return aliases;
    }
    let total = words::stem(&cues.total_word);
    // a roll-forward's closing balance is the amount the caption names;
    // every closing row after the last opening one ("net balance at
    // december 31" and "balance at december 31"), whose own words then say
    // which
    let last_opening = row_boundary
        .iter()
        .rposition(|b| *b == Some(Boundary::Beginning));
    let closing = |row: usize| {
        row_boundary[row] == Some(Boundary::End) && last_opening.is_none_or(|o| row > o)
    };
    // and its opening balance, the same amount a period earlier, when the
    // table opens with one
    let opening = |row: usize| {
        row == 0
            && row_boundary[row] == Some(Boundary::Beginning)
            && (1..row_boundary.len()).any(closing)
    };
    for (row, label) in row_words.iter().enumerate() {
        let bare_total = !label.is_empty() && label.iter().all(|w| *w == total);
        if bare_total || closing(row) || opening(row) {
            for w in caption {
                if !aliases[row].contains(w) {
                    aliases[row].push(w.clone());
                }
            }
        }
    }
    aliases
}

/// Whether the labels (and a lost row) name two quarters (or months) or more.
fn quarters_differ(rows: &[Option<u8>], columns: &[Option<u8>], lost: Option<u8>) -> bool {
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

/// Each word's inverse document frequency, `ln(1 + n / df)`, over the
/// documents (each label or sentence one document).
fn inverse_document_frequency(documents: &[&[Vec<String>]]) -> HashMap<String, f64> {
    let mut df: HashMap<String, usize> = HashMap::new();
    for d in documents.iter().flat_map(|docs| docs.iter()) {
        let unique: HashSet<&String> = d.iter().collect();
        for w in unique {
            *df.entry(w.clone()).or_insert(0) += 1;
        }
    }
    let n = documents
        .iter()
        .map(|docs| docs.len())
        .sum::<usize>()
        .max(1) as f64;
    df.into_iter()
        .map(|(w, d)| (w, (1.0 + n / d as f64).ln()))
        .collect()
}

/// Whether the table's years name a few rows rather than its period axis:
/// no column names a year and fewer than half the rows do.
fn row_years_are_names(schema: &Schema) -> bool {
    let rows_with_years = schema.rows.iter().filter(|(_, y)| y.is_some()).count();
    schema.columns.iter().all(|(_, y)| y.is_none())
        && rows_with_years > 0
        && rows_with_years * 2 < schema.rows.len()
}

/// For each text number, whether it and the word before it are a phrase
/// of a row or column label ("s&p 500").
fn facts_in_names(schema: &Schema) -> Vec<bool> {
    let labels: Vec<String> = schema
        .rows
        .iter()
        .chain(&schema.columns)
        .map(|(l, _)| format!(" {} ", l.split_whitespace().collect::<Vec<_>>().join(" ")))
        .collect();
    schema
        .facts
        .iter()
        .map(|f| {
            let toks: Vec<&str> = f.sentence_text.split_whitespace().collect();
            let (Some(prev), Some(number)) = (
                f.token.checked_sub(1).and_then(|k| toks.get(k)),
                toks.get(f.token),
            ) else {
                return false;
            };
            let phrase = format!(" {prev} {number} ");
            prev.chars().any(char::is_alphabetic) && labels.iter().any(|l| l.contains(&phrase))
        })
        .collect()
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

/// Every year the page speaks of: label years, text numbers' years and
/// years printed in sentences.
fn page_years(schema: &Schema) -> HashSet<i32> {
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

impl PageIndex {
    /// The index of `schema`'s page: the one this thread built from the
    /// same page, else a new one (kept for the page's next turns and
    /// conversations).
    pub fn cached(schema: &Schema, lexicon: bool, cues: &Cues) -> Rc<Self> {
        let key = page_key(schema, lexicon);
        PAGES.with(|pages| {
            let mut pages = pages.borrow_mut();
            if let Some(p) = pages.get(&key) {
                return Rc::clone(p);
            }
            if pages.len() >= KEPT_PAGES {
                pages.clear();
            }
            let p = Rc::new(PageIndex::new(schema, lexicon, cues));
            pages.insert(key, Rc::clone(&p));
            p
        })
    }

    /// Indexes a page.
    fn new(schema: &Schema, lexicon: bool, cues: &Cues) -> Self {
        let text_words = text_words(schema, cues);
        let (row_words, mut column_words) = label_words(schema, &text_words);
        let mut column_boundary = per_label(&schema.columns, |l| label_boundary(l, cues));
        // a first header that names the lost row names no column
        let lost_row_label = lost_row_label(schema);
        let lost_row_label_boundary = lost_row_label
            .as_deref()
            .and_then(|l| label_boundary(l, cues));
        if lost_row_label.is_some() {
            column_words[0].clear();
            column_boundary[0] = None;
        }
        let row_alias_words = alias_words(schema, &row_words, lexicon);
        let lost_row_listed = lost_row_listed(schema, &row_words, cues).unwrap_or_default();
        let sentence_words: Vec<Vec<String>> =
            schema.sentences.iter().map(|s| content_words(s)).collect();
        let fact_words = fact_words(schema, &sentence_words, cues);
        let fact_neighbour_words = super::binding::neighbour_words(&schema.facts, cues)
            .into_iter()
            .zip(&fact_words)
            .map(|(n, (ctx, _))| n.into_iter().filter(|w| ctx.contains(w)).collect())
            .collect();
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
            &fact_words,
            &row_words
                .iter()
                .cloned()
                .chain([lost_words])
                .collect::<Vec<_>>(),
        );
        let lost_row_text_words = row_text_words.pop().unwrap_or_default();
        let fact_rounds_cell = rounded_restatements(schema, &aligned);
        let mut row_restated_by = vec![Vec::new(); schema.rows.len() + 1];
        for (k, (row, rounds)) in aligned.iter().zip(&fact_rounds_cell).enumerate() {
            if let (Some(r), true) = (row, rounds) {
                row_restated_by[*r].push(k);
            }
        }
        // the labels' own boundaries give a roll-forward's flows their year
        let printed_boundary = per_label(&schema.rows, |l| label_boundary(l, cues));
        let mut flow_row_year = flow_row_years(schema, &printed_boundary);
        total_row_years(schema, cues, &mut flow_row_year);
        let row_boundary = bracket_years(schema, printed_boundary);
        let label_year_ranges = |labels: &[(String, Option<i32>)]| -> Vec<Vec<(i32, i32)>> {
            labels
                .iter()
                .map(|(l, _)| {
                    super::cues::year_ranges(
                        &super::cues::split_year_ranges(&words::normalise_question(l)),
                        &cues.range_joiner,
                    )
                })
                .collect()
        };
        let row_year_ranges = label_year_ranges(&schema.rows);
        let column_year_ranges = label_year_ranges(&schema.columns);
        let caption = caption_words(schema, cues).unwrap_or_default();
        let mut row_caption_words = caption_names_total(cues, &caption, &row_words, &row_boundary);
        schedule_total_names_years(
            schema,
            cues,
            &row_words,
            &column_words,
            &row_year_ranges,
            &caption,
            &mut row_caption_words,
        );
        let idf = inverse_document_frequency(&[&row_words, &column_words, &sentence_words]);
        let vocabulary = idf
            .keys()
            .cloned()
            .chain(row_alias_words.iter().flatten().cloned())
            .collect();
        let row_quarter = per_label(&schema.rows, words::quarter_in);
        let column_quarter = per_label(&schema.columns, words::quarter_in);
        let (lost_row_year, lost_row_quarter, lost_row_month) =
            lost_row_period(schema, &row_quarter);
        let row_month = per_label(&schema.rows, words::month_in);
        let column_month = per_label(&schema.columns, words::month_in);
        let total_word = cues.total_word.as_str();
        let is_total = |label: &str| words::tokens(label).iter().any(|w| w == total_word);
        let phrases: Vec<Vec<String>> = schema
            .rows
            .iter()
            .chain(schema.columns.iter())
            .map(|(l, _)| words::tokens(l))
            .chain(schema.sentences.iter().map(|s| words::tokens(s)))
            .collect();
        let labels = schema.rows.len() + schema.columns.len();
        let spaced = |p: &Vec<String>| format!(" {} ", p.join(" "));
        let column_tokens = column_tokens(schema, &text_words);
        let column_prints = |list: &[String]| -> Vec<bool> {
            column_tokens
                .iter()
                .map(|tokens| tokens.iter().any(|w| list.contains(w)))
                .collect()
        };
        let (quantity, price) = (
            column_prints(&cues.quantity_word),
            column_prints(&cues.unit_price_word),
        );
        Self {
            label_tokens: phrases[..labels].iter().flatten().cloned().collect(),
            spaced_labels: phrases[..labels].iter().map(spaced).collect(),
            spaced_sentences: phrases[labels..].iter().map(spaced).collect(),
            phrases,
            vocabulary,
            caption_year: caption_year(schema),
            page_years: page_years(schema)
                .into_iter()
                .chain(lost_row_year)
                .collect(),
            row_years_are_names: row_years_are_names(schema)
                && flow_row_year.iter().all(Option::is_none),
            flow_row_year,
            row_surface: per_label(&schema.rows, surface_words),
            column_surface: per_label(&schema.columns, surface_words),
            row_is_total: per_label(&schema.rows, is_total),
            row_head_words: per_label(&schema.rows, |l| head_of_part(l, cues)),
            row_percent: per_label(&schema.rows, marks_percent),
            fact_month: schema
                .facts
                .iter()
                .map(|f| words::month_in(&f.context))
                .collect(),
            fact_carried_years: schema
                .facts
                .iter()
                .map(|f| carried_years(schema, f))
                .collect(),
            fact_per_unit: schema
                .facts
                .iter()
                .map(|f| fact_per_unit(f, cues))
                .collect(),
            column_percent: per_label(&schema.columns, marks_percent),
            row_states_change: per_label(&schema.rows, |l| states_change(l, cues)),
            column_states_change: per_label(&schema.columns, |l| states_change(l, cues)),
            column_unit_price: price.iter().zip(&quantity).map(|(p, q)| *p && !q).collect(),
            column_counts: quantity.iter().zip(&price).map(|(q, p)| *q && !p).collect(),
            row_quantity_unit: per_label(&schema.rows, |l| states_quantity_unit(l, cues)),
            column_quantity_unit: per_label(&schema.columns, |l| states_quantity_unit(l, cues)),
            column_money: (0..schema.columns.len())
                .map(|c| {
                    schema.header_numbers.iter().any(|h| {
                        h.column == c && h.words.trim().is_empty() && h.raw.starts_with('$')
                    })
                })
                .collect(),
            // "per share", not "per day": a rate over time is no unit's
            row_per_unit: per_label(&schema.rows, |l| {
                let spaced = format!(" {} ", words::tokens(l).join(" "));
                cues.per_word.iter().any(|p| {
                    spaced
                        .split_once(&format!(" {p} "))
                        .is_some_and(|(_, after)| {
                            content_words(after).first().is_some_and(|w| {
                                !cues.duration_word.contains(w) && !cues.period_noun.contains(w)
                            })
                        })
                })
            }),
            row_is_catch_all: per_label(&schema.rows, |l| {
                words::tokens(l).iter().any(|w| cues.catch_all.contains(w))
            }),
            column_is_total: per_label(&schema.columns, is_total),
            fact_is_total: schema.facts.iter().map(|f| is_total(&f.context)).collect(),
            fact_restated_as: schema.facts.iter().map(restated_as).collect(),
            sentence_left_out: schema
                .sentences
                .iter()
                .map(|t| left_out_words(t, cues))
                .collect(),
            fact_total_before: schema
                .facts
                .iter()
                .map(|f| words_before(f).contains(&total_word))
                .collect(),
            fact_contributed_by: schema
                .facts
                .iter()
                .map(|f| contributed_by(f, cues))
                .collect(),
            row_signs_mixed: signs_mixed(schema),
            column_signs_mixed: column_signs_mixed(schema),
            fact_is_name: facts_in_names(schema),
            fact_rounds_cell,
            row_restated_by,
            row_boundary,
            fact_boundary: fact_boundaries(schema, cues),
            column_boundary,
            lost_row_label: lost_row_label
                .as_deref()
                .map(content_words)
                .unwrap_or_default(),
            lost_row_label_boundary,
            lost_row_listed,
            quarters_differ: quarters_differ(&row_quarter, &column_quarter, lost_row_quarter),
            months_differ: quarters_differ(&row_month, &column_month, lost_row_month),
            row_month,
            column_month,
            row_quarter,
            lost_row_year,
            lost_row_quarter,
            lost_row_month,
            lost_row_unnamed: unnamed_lost_row(
                schema,
                cues,
                lost_row_year,
                lost_row_quarter,
                lost_row_month,
            ),
            lost_row_words: lost_row_words(
                &row_words,
                &row_caption_words,
                lost_row_year.is_some() || lost_row_quarter.is_some() || lost_row_month.is_some(),
            ),
            row_year_ranges,
            column_year_ranges,
            column_unnamed_group: unnamed_column_groups(schema, &column_words),
            column_quarter,
            column_dates: per_label(&schema.columns, words::dates_in),
            idf,
            row_words,
            row_alias_words,
            row_text_words,
            lost_row_text_words,
            row_caption_words,
            column_words,
            fact_words,
            fact_neighbour_words,
        }
    }
}

/// A text's content words as (stem, surface form).
fn surface_words(text: &str) -> Vec<(String, String)> {
    words::tokens(text)
        .into_iter()
        .filter(|t| !words::is_stop_word(t) && t.chars().any(char::is_alphabetic))
        .map(|t| (words::stem(&t), words::surface(&t)))
        .collect()
}

/// The content words of each row and column label, with words the
/// extraction glued together split on the words the text prints.
fn label_words(
    schema: &Schema,
    text_words: &HashSet<String>,
) -> (Vec<Vec<String>>, Vec<Vec<String>>) {
    let label_words = |l: &str| content_words(&words::unglue(l, text_words));
    (
        per_label(&schema.rows, label_words),
        per_label(&schema.columns, label_words),
    )
}

/// The specific words before a label's first "of" when words follow it:
/// the label names a part or a measure of what follows ("current portion
/// of long-term debt", "amortization of intangible assets"), whose head
/// it is. Empty for labels without such a head, and for heads of generic
/// words only ("number of shares").
fn head_of_part(label: &str, cues: &Cues) -> Vec<String> {
    let tokens = words::tokens(label);
    let Some(at) = tokens.iter().position(|t| cues.part_of.contains(t)) else {
        return Vec::new();
    };
    let tail = content_words(&tokens[at + 1..].join(" "));
    if tail.is_empty() {
        return Vec::new();
    }
    cues.specific(&content_words(&tokens[..at].join(" ")))
}

/// The words the text prints, by which glued label words are split.
fn text_words(schema: &Schema, cues: &Cues) -> HashSet<String> {
    schema
        .sentences
        .iter()
        .flat_map(|s| words::tokens(s))
        // a label word of a cue list is a word, not glued ones ("thereafter")
        .chain(cues.thereafter.iter().cloned())
        .collect()
}

/// Every stemmed token of each column label, stop words kept ("number"),
/// glued words split ("numberof" is "number of").
fn column_tokens(schema: &Schema, text_words: &HashSet<String>) -> Vec<Vec<String>> {
    per_label(&schema.columns, |l| {
        words::tokens(&words::unglue(l, text_words))
            .iter()
            .map(|t| words::stem(t))
            .collect()
    })
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

/// Whether each text number is where a move started (after "from") or
/// ended (after "to", a start or a stated change a few words before it:
/// "increased $ 56.1 million during 2013 to $ 1,340.7 million").
fn fact_boundaries(schema: &Schema, cues: &Cues) -> Vec<Option<Boundary>> {
    let within = |list: &[String], t: &str| list.iter().any(|w| w == t);
    let change_before = |f: &FactEntry| {
        schema.facts.iter().any(|c| {
            c.is_change && c.sentence == f.sentence && c.token < f.token && f.token - c.token <= 8
        })
    };
    schema
        .facts
        .iter()
        .map(|f| {
            let toks: Vec<&str> = f.sentence_text.split_whitespace().collect();
            let before: Vec<&str> = toks[..f.token.min(toks.len())]
                .iter()
                .copied()
                .filter(|t| *t != "$")
                .collect();
            let lead = *before.last()?;
            if within(&cues.move_start_lead, lead) {
                return Some(Boundary::Beginning);
            }
            let started = before
                .iter()
                .rev()
                .skip(1)
                .take(6)
                .any(|t| within(&cues.move_start_lead, t));
            (within(&cues.move_end_lead, lead) && (started || change_before(f)))
                .then_some(Boundary::End)
        })
        .collect()
}

/// The content words a sentence prints only inside phrases that name what
/// an amount leaves out: from a leave-out qualifier ("before", "net of") to
/// the next punctuation or number, at most eight tokens on.
fn left_out_words(sentence: &str, cues: &Cues) -> Vec<String> {
    let tokens: Vec<&str> = sentence.split_whitespace().collect();
    let mut inside = vec![false; tokens.len()];
    let mut i = 0;
    while i < tokens.len() {
        let opened = cues.leave_out_qualifier.iter().find_map(|q| {
            let q: Vec<&str> = q.split_whitespace().collect();
            tokens[i..].starts_with(&q).then_some(q.len())
        });
        let Some(len) = opened else {
            i += 1;
            continue;
        };
        let start = i + len;
        let end = (start..tokens.len().min(start + 8))
            .find(|j| {
                tokens[*j].chars().all(|c| c.is_ascii_punctuation())
                    || tokens[*j].starts_with(|c: char| c.is_ascii_digit())
            })
            .unwrap_or(tokens.len().min(start + 8));
        for flag in &mut inside[i..end] {
            *flag = true;
        }
        i = end.max(i + 1);
    }
    let words_of = |keep: bool| -> HashSet<String> {
        tokens
            .iter()
            .zip(&inside)
            .filter(|(_, x)| **x == keep)
            .flat_map(|(t, _)| content_words(t))
            .collect()
    };
    let outside = words_of(false);
    let mut out: Vec<String> = words_of(true).difference(&outside).cloned().collect();
    out.sort();
    out
}

/// Each text number's context words and its sentence's words (a sentence's
/// words once, whatever the number of its numbers).
fn fact_words(
    schema: &Schema,
    sentence_words: &[Vec<String>],
    cues: &Cues,
) -> Vec<(Vec<String>, Vec<String>)> {
    let mut words: Vec<(Vec<String>, Vec<String>)> = schema
        .facts
        .iter()
        .map(|f| {
            let sentence = sentence_words
                .get(f.sentence)
                .cloned()
                .unwrap_or_else(|| content_words(&f.sentence_text));
            (content_words(&f.context), sentence)
        })
        .collect();
    // "revenues increased $ 1.4 billion , or 4.1 % , to $ 35.6 billion":
    // the level a stated change ends at (or starts from) is the level of
    // what changed, however far its name
    // and the amount another is compared with ("operating income was
    // $ 312.4 million , or 5.0% of revenue , compared with $ 281.9
    // million") is of what the other is
    for k in 0..schema.facts.len() {
        let source = change_of_level(&schema.facts, k)
            .or_else(|| compared_counterpart(&schema.facts, k, cues));
        if let Some(j) = source {
            let theirs = words[j].0.clone();
            let own = &mut words[k].0;
            for w in theirs {
                if !own.contains(&w) {
                    own.push(w);
                }
            }
        }
    }
    words
}

/// The amount the `k`th text number is compared with: the nearest money
/// amount before the compared lead ("compared with") just before it, at
/// most sixteen tokens back in its sentence with no ";" between.
fn compared_counterpart(facts: &[FactEntry], k: usize, cues: &Cues) -> Option<usize> {
    let f = &facts[k];
    let tokens: Vec<&str> = f.sentence_text.split_whitespace().collect();
    let mut end = f.token.min(tokens.len());
    if end > 0 && tokens[end - 1] == "$" {
        end -= 1;
    }
    let lead = cues.compared_lead.iter().find_map(|l| {
        let l: Vec<&str> = l.split_whitespace().collect();
        tokens[..end].ends_with(&l).then(|| end - l.len())
    })?;
    facts
        .iter()
        .enumerate()
        .filter(|(_, c)| c.sentence == f.sentence && !c.percent && !c.is_year_mention)
        .filter(|(_, c)| c.token < lead && lead - c.token <= 16)
        .filter(|(_, c)| !tokens[c.token..lead].contains(&";"))
        .max_by_key(|(_, c)| c.token)
        .map(|(j, _)| j)
}

/// The stated change of the same sentence that the `k`th text number is
/// the end (or start) of: a number printed after "to" or "from" (and its
/// currency sign), with a change before it and no clause break between.
fn change_of_level(facts: &[FactEntry], k: usize) -> Option<usize> {
    let f = &facts[k];
    let tokens: Vec<&str> = f.sentence_text.split_whitespace().collect();
    let mut at = f.token.checked_sub(1)?;
    if tokens.get(at) == Some(&"$") {
        at = at.checked_sub(1)?;
    }
    if !matches!(tokens.get(at), Some(&"to") | Some(&"from")) {
        return None;
    }
    facts
        .iter()
        .enumerate()
        .filter(|(_, c)| c.sentence == f.sentence && c.is_change && c.token < f.token)
        .filter(|(_, c)| !tokens[c.token..f.token].contains(&";"))
        .max_by_key(|(_, c)| c.token)
        .map(|(j, _)| j)
}

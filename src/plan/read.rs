//! Reading a question: its normalised text, the years and constants printed
//! in it, the operation its trigger phrases ask for (with phrases that are
//! part of a row or column label, and spans of time, masked out), and the
//! words that name what is asked about.

use super::cues::{contains_any, contains_phrase, split_year_ranges, year_ranges, Cues};
use super::operation::Operation;
use super::page::{page_synonyms, PageIndex};
use super::rules::RulesPlanner;
use crate::kg::Schema;
use crate::words::{self, content_words};
use rust_decimal::Decimal;
use std::collections::{HashMap, HashSet};
use std::str::FromStr;

/// A question, read.
#[derive(Debug, Clone)]
pub(super) struct Reading {
    /// Lowercased, punctuation spaced out, padded with spaces.
    pub text: String,
    /// `text` with its commas kept as tokens (` , `): a list's items.
    pub listed: String,
    pub op: Operation,
    pub years: Vec<i32>,
    pub constants: Vec<Decimal>,
    /// Content words that name what is asked about.
    pub metric: Vec<String>,
    /// Content words of the question's phrases of two words or more that a
    /// label prints ("average price" of "average price paid per share").
    pub label_phrase_words: Vec<String>,
    pub refers: bool,
    /// The sum was read from the word "total" alone, which often names a row.
    pub weak_sum: bool,
    /// "A less B" with no constant: maybe two mentions to subtract.
    pub less: bool,
}

/// The operation a question's triggers settle on, with what it was read from.
struct Settled {
    op: Operation,
    weak_sum: bool,
    less: bool,
}

/// Years printed in the question, and the numbers that are operands of the
/// calculation (`100`, `$ 1`, `1000`), not parts of names.
pub(super) fn question_numbers(cues: &Cues, text: &str) -> (Vec<i32>, Vec<Decimal>) {
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
pub(super) fn first_year(cues: &Cues, text: &str) -> Option<i32> {
    question_numbers(cues, text).0.first().copied()
}

/// The first and last year of a range the question prints: "2007 through
/// 2009", "from 2008 to 2011", "2007 - 2009".
pub(super) fn year_range(cues: &Cues, text: &str) -> Option<(i32, i32)> {
    let toks: Vec<&str> = text.split_whitespace().collect();
    (0..toks.len()).find_map(|i| years_joined_at(&toks, i, &cues.range_joiner, &[]))
}

/// The two years of `toks[i..]` when it opens with a year, a word of
/// `joiners` or `more` and another year ("2014 and 2015", "2007 - 2009").
fn years_joined_at(
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
fn within(list: &[String], t: Option<&&str>) -> bool {
    t.is_some_and(|t| list.iter().any(|w| w == t))
}

/// A number that counts values: a whole number from 2 to 12.
pub(super) fn small_count(n: Decimal) -> Option<usize> {
    usize::try_from(n.trunc().mantissa())
        .ok()
        .filter(|n| (2..=12).contains(n))
}

/// How many periods a question counts: "the three years", "all 3
/// periods" (a small number before a span-of-time word, never a year),
/// "both years" (two).
pub(super) fn counted_span(cues: &Cues, text: &str) -> Option<usize> {
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

impl RulesPlanner {
    /// Reads a question: text, numbers, operation and metric words.
    pub(super) fn read(&self, question: &str, schema: &Schema) -> Reading {
        let page = PageIndex::cached(schema, self.lexicon, &self.cues);
        let text = expand_abbreviations(
            &split_year_ranges(&words::normalise_question(question)),
            schema,
            &page,
        );
        let text = page_synonyms(&text, &page, &self.cues.synonym_sets);
        let (mut years, constants) = question_numbers(&self.cues, &text);
        drop_name_years(&text, schema, &mut years);
        drop_range_label_years(&text, &page, &self.cues, &mut years);
        // Mask phrases of two or more words that the page uses as labels, so
        // that "weighted average exercise price" does not read as an average.
        let labels_masked = mask_label_phrases(&text, schema);
        let masked = mask_time_spans(
            &self.mask_printed_averages(&labels_masked, &page),
            &self.cues,
        );
        // "the total net revenues" names a row: a reference phrase within a
        // label phrase of the page points back at nothing
        let refers = self
            .reference_phrases
            .iter()
            .any(|p| contains_phrase(&labels_masked, p));
        let best = self.triggered(&text, &masked, &years, refers);
        let op = best.map_or(Operation::Lookup, |(op, _)| op);
        let trigger = best.map(|(_, t)| t).unwrap_or("");
        let settled = self.settle(op, trigger, &masked, &years, &constants, refers);
        let metric = self.metric_words(&text, &masked);
        let listed = expand_abbreviations(
            &split_year_ranges(&words::normalise_question_keeping_commas(question)),
            schema,
            &page,
        );
        let label_phrase_words = text
            .split_whitespace()
            .zip(labels_masked.split_whitespace())
            .filter(|(t, m)| *m == "_" && *t != "_")
            .flat_map(|(t, _)| content_words(t))
            .collect();
        Reading {
            text,
            listed,
            op: settled.op,
            years,
            constants,
            metric,
            label_phrase_words,
            refers,
            weak_sum: settled.weak_sum,
            less: settled.less,
        }
    }

    /// Masks an average's trigger the page prints as part of a name with
    /// the word after it ("average assets under management were $ 541.1
    /// billion", "average monthly rental revenue"): "how much did average
    /// assets grow?" asks about that amount, not for a mean.
    fn mask_printed_averages(&self, text: &str, page: &PageIndex) -> String {
        let triggers: Vec<&String> = self
            .patterns
            .iter()
            .filter(|(op, _)| *op == Operation::Average)
            .flat_map(|(_, p)| p.triggers.iter())
            .filter(|t| !t.contains(' '))
            .collect();
        let mut toks: Vec<&str> = text.split_whitespace().collect();
        for i in 0..toks.len().saturating_sub(1) {
            let next = toks[i + 1];
            if !triggers.iter().any(|t| t.as_str() == toks[i]) || content_words(next).is_empty() {
                continue;
            }
            let phrase = format!(" {} {next} ", toks[i]);
            if page.spaced_sentences.iter().any(|s| s.contains(&phrase)) {
                toks[i] = "_";
            }
        }
        format!(" {} ", toks.join(" "))
    }

    /// The operation of the highest-priority pattern whose trigger the
    /// question holds, and that trigger.
    fn triggered(
        &self,
        text: &str,
        masked: &str,
        years: &[i32],
        refers: bool,
    ) -> Option<(Operation, &str)> {
        let bare = self
            .cues
            .continuation_lead
            .iter()
            .any(|l| l.contains(' ') && text.starts_with(&format!(" {l} ")));
        let scale_question = (refers || bare)
            && years.is_empty()
            && self.cues.specific(&content_words(text)).is_empty();
        let mut best: Option<(i64, Operation, &str)> = None;
        for (op, pattern) in &self.patterns {
            // "what is that in millions?" restates an earlier result; "what was,
            // in millions, the total of X?" only names the unit of its value.
            // The scale asked for may also be a table's unit label, so it is
            // looked for in the unmasked text.
            if *op == Operation::Scale && !scale_question {
                continue;
            }
            let haystack = if *op == Operation::Scale {
                text
            } else {
                masked
            };
            if let Some(trigger) = pattern
                .triggers
                .iter()
                .find(|t| self.triggers_in(haystack, t))
            {
                // "what is the average between them, in billions?" is an
                // average; only a bare restatement is a scale conversion
                let priority = if *op == Operation::Scale {
                    0
                } else {
                    pattern.priority
                };
                if best.is_none_or(|(p, _, _)| priority > p) {
                    best = Some((priority, *op, trigger.as_str()));
                }
            }
        }
        best.map(|(_, op, t)| (op, t))
    }

    /// Whether `text` holds `trigger` as an operation: not where a question
    /// word follows it ("over how many years", fk:QuestionWord), which
    /// asks a value, nor where a per word leads it ("the dividend per share
    /// of common stock", fk:PerWord), which names a unit.
    fn triggers_in(&self, text: &str, trigger: &str) -> bool {
        let needle = format!(" {trigger} ");
        text.match_indices(&needle).any(|(i, _)| {
            let next = text[i + needle.len()..].split_whitespace().next();
            let asks_value = next.is_some_and(|w| self.cues.question_word.iter().any(|q| q == w));
            let head = &text[..=i];
            let per_unit = self
                .cues
                .per_word
                .iter()
                .any(|p| head.ends_with(&format!(" {p} ")));
            !asks_value && !per_unit
        })
    }

    /// The triggered operation, corrected by what else the question says: a
    /// "total" naming one row, a product or quotient without a constant, an
    /// "A less B" that may be two mentions.
    fn settle(
        &self,
        mut op: Operation,
        trigger: &str,
        masked: &str,
        years: &[i32],
        constants: &[Decimal],
        refers: bool,
    ) -> Settled {
        // "the total of A and B as a change in net revenue": the change
        // describes the values; the sum is the calculation asked
        let mut trigger = trigger;
        if op == Operation::Change {
            let described = self
                .cues
                .descriptive_lead
                .iter()
                .any(|l| contains_phrase(masked, &format!("{l} {trigger}")));
            let sum = self
                .patterns
                .iter()
                .filter(|(o, _)| *o == Operation::Sum)
                .flat_map(|(_, p)| p.triggers.iter())
                .find(|t| contains_phrase(masked, t));
            if let (true, Some(sum)) = (described, sum) {
                op = Operation::Sum;
                trigger = sum.as_str();
            }
        }
        let weak_sum = op == Operation::Sum
            && self.cues.weak_sum_trigger.iter().any(|w| w == trigger)
            && !contains_any(masked, &self.cues.sum_word);
        if weak_sum && !self.asks_several(masked, years, refers) {
            op = Operation::Lookup;
        }
        // "by what percentage did net sales grow": a rate of change
        if op == Operation::Ratio
            && self.cues.rate_of_change_ask.iter().any(|w| w == trigger)
            && contains_any(masked, &self.cues.rate_of_change_verb)
        {
            op = Operation::PercentageChange;
        }
        // "the change in percentage points" is a difference of two rates
        if op == Operation::PercentageChange && contains_any(masked, &self.cues.point_change_word) {
            op = Operation::Change;
        }
        // "what is the increased rent?" names a value: the participle is an
        // adjective, not a change asked
        let adjective = op == Operation::Change
            && self.cues.change_participle.iter().any(|w| w == trigger)
            && self.participle_adjective(masked, trigger)
            && years.len() < 2
            && constants.is_empty()
            && !refers;
        if adjective {
            op = Operation::Lookup;
        }
        if op == Operation::Quotient && constants.is_empty() {
            op = Operation::Ratio;
        }
        if op == Operation::Product && constants.is_empty() && !refers {
            op = Operation::Lookup;
        }
        if op == Operation::Lookup && self.asks_every_year(masked, years, constants) {
            op = Operation::Sum;
        }
        // "what is revenue less net income?" subtracts two mentions; "the
        // cost less depreciation" may be a row's name
        let less = op == Operation::Change
            && self.cues.difference_connector.iter().any(|w| w == trigger)
            && constants.is_empty()
            && !refers;
        if less {
            op = Operation::Lookup;
        }
        Settled { op, weak_sum, less }
    }

    /// "the fair value of all notes due in 2015 and 2017": a look-up of
    /// one value a year, to add.
    fn asks_every_year(&self, masked: &str, years: &[i32], constants: &[Decimal]) -> bool {
        years.len() >= 2 && constants.is_empty() && contains_any(masked, &self.cues.every_word)
    }

    /// Whether `trigger` stands after a determiner and before a word that
    /// names a metric ("the increased rent", not "the increased amount").
    fn participle_adjective(&self, masked: &str, trigger: &str) -> bool {
        let toks: Vec<&str> = masked.split_whitespace().collect();
        toks.windows(3).any(|w| {
            let next = w[2].trim_matches(|c: char| !c.is_alphanumeric());
            self.cues.participle_determiner.iter().any(|d| d == w[0])
                && w[1] == trigger
                && !next.is_empty()
                && !self.cues.generic.contains(&words::stem(next))
        })
    }

    /// Whether a "total" question names several values to add.
    fn asks_several(&self, masked: &str, years: &[i32], refers: bool) -> bool {
        // the question's opening "and" says nothing about the count
        let body = masked
            .trim_start()
            .split_once(' ')
            .filter(|(first, _)| self.cues.continuation_lead.iter().any(|l| l == first))
            .map_or(masked, |(_, rest)| rest);
        // "the total of all three years", not "more than five years"
        let counted =
            counted_span(&self.cues, body).is_some() && !contains_any(body, &self.cues.than_word);
        // "that total if 2016 is included": an earlier sum and one more
        let adds_one = refers && contains_any(body, &self.cues.including_word);
        years.len() >= 2
            || counted
            || adds_one
            || contains_any(&format!(" {body}"), &self.cues.several)
            || self.names_results_in_plural(body)
    }

    /// Whether the text names earlier results of a kind in the plural ("the
    /// total of the changes", "those two totals"): several values.
    fn names_results_in_plural(&self, text: &str) -> bool {
        let kinds = || {
            self.cues
                .change_word
                .iter()
                .chain(&self.cues.ratio_word)
                .chain(&self.cues.sum_word)
                .chain(&self.cues.weak_sum_trigger)
        };
        text.split_whitespace().any(|t| {
            let singular = [t.strip_suffix("es"), t.strip_suffix('s')];
            singular
                .iter()
                .flatten()
                .any(|s| !s.is_empty() && kinds().any(|k| k == s))
        })
    }

    /// The question's mention words, less the words of its triggers: a word
    /// the question prints more often than its triggers do stays ("the net
    /// change in net interest income").
    fn metric_words(&self, text: &str, masked: &str) -> Vec<String> {
        let stems =
            |t: &str| -> Vec<String> { words::tokens(t).iter().map(|w| words::stem(w)).collect() };
        let printed = stems(text);
        let mut trigger_words: HashMap<String, usize> = HashMap::new();
        for t in self
            .patterns
            .iter()
            .flat_map(|(_, p)| p.triggers.iter())
            .filter(|t| contains_phrase(masked, t))
        {
            let times = masked.matches(&format!(" {t} ")).count().max(1);
            for w in content_words(t) {
                *trigger_words.entry(w).or_default() += times;
            }
        }
        self.cues
            .mention_words(text)
            .into_iter()
            .filter(|w| {
                trigger_words
                    .get(w)
                    .is_none_or(|n| printed.iter().filter(|p| *p == w).count() > *n)
            })
            .collect()
    }
}

/// Drops from `years` each year the question prints after the word a row
/// label prints it after ("the senior notes due 2020 in 2010" beside a row
/// "6.50 % senior notes due 2020"): part of the row's name, not the period
/// asked, when another year a column prints is left to be that.
fn drop_name_years(text: &str, schema: &Schema, years: &mut Vec<i32>) {
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
fn drop_range_label_years(text: &str, page: &PageIndex, cues: &Cues, years: &mut Vec<i32>) {
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

/// "over the years", "over this period", "over 2014 and 2015": spans of time,
/// not divisions; and idioms whose trigger word asks for nothing ("fall
/// due").
fn mask_time_spans(text: &str, cues: &Cues) -> String {
    // an idiom's words ("fall due") are no trigger
    let mut text = format!(" {} ", text.trim());
    for idiom in &cues.trigger_idiom {
        let masked = format!(
            " {} ",
            vec!["_"; idiom.split_whitespace().count()].join(" ")
        );
        text = text.replace(&format!(" {idiom} "), &masked);
    }
    let toks: Vec<&str> = text.split_whitespace().collect();
    let mut out: Vec<&str> = Vec::with_capacity(toks.len());
    for (i, t) in toks.iter().enumerate() {
        let is_span =
            within(&cues.time_span_lead, Some(t)) && opens_time_span(cues, &toks[i + 1..]);
        out.push(if is_span { "_" } else { t });
    }
    mask_durations(&out, cues)
}

/// Whether `toks` opens with a span of time ("the years", "that period",
/// "2014 and 2015", a list "2007 , 2008 and 2009"), after a time span lead
/// ("over").
fn opens_time_span(cues: &Cues, toks: &[&str]) -> bool {
    let year = |k: usize| {
        toks.get(k)
            .and_then(|t| crate::kg::text::as_year(t))
            .is_some()
    };
    within(&cues.time_span_determiner, toks.first()) && within(&cues.time_span_word, toks.get(1))
        || years_joined_at(toks, 0, &cues.range_joiner, &cues.period_joiner).is_some()
        || year(0) && year(1)
}

/// "a remaining term of more than one year": a comparative before a length
/// of time describes a term; it asks for no change.
fn mask_durations(toks: &[&str], cues: &Cues) -> String {
    let is_number = |t: Option<&&str>| {
        t.is_some_and(|t| cues.number_word(t).is_some() || t.parse::<f64>().is_ok())
    };
    let mut out: Vec<&str> = toks.to_vec();
    for i in 0..toks.len() {
        let than = toks
            .get(i + 1)
            .is_some_and(|t| cues.than_word.iter().any(|w| w == t));
        if within(&cues.comparative_word, toks.get(i))
            && than
            && is_number(toks.get(i + 2))
            && within(&cues.duration_word, toks.get(i + 3))
        {
            out[i] = "_";
            out[i + 1] = "_";
        }
    }
    format!(" {} ", out.join(" "))
}

/// The question with each abbreviation joined by `&` ("sg&a", "r&d") written
/// out as the page's phrase it stands for: the first label, then sentence,
/// whose words' initials spell it (stop words may be passed over: "research
/// and development"). One the page does not spell stays as it is. The other
/// way round, a phrase of the question that spells an abbreviation a label
/// prints, and that the page never prints in full, becomes the abbreviation
/// ("selling , general and administrative" for a row "sg&a").
fn expand_abbreviations(text: &str, schema: &Schema, page: &PageIndex) -> String {
    let phrases = &page.phrases;
    // the first `labels` phrases are row and column labels
    let labels = schema.rows.len() + schema.columns.len();
    let text = abbreviate(text, schema, phrases);
    let label_words = &page.label_tokens;
    let expanded: Vec<String> = text
        .split_whitespace()
        .map(|t| {
            if !is_abbreviation(t) {
                return initialism_spelled(t, phrases, labels, label_words)
                    .unwrap_or_else(|| t.to_string());
            }
            let letters: Vec<char> = t.chars().filter(|c| *c != '&').collect();
            // the "&" is an "and": "research and development" spells "r&d"
            // before "rates decreased" does
            let joined = t.find('&');
            let spelled = is_abbreviation(t)
                .then(|| {
                    phrases
                        .iter()
                        .find_map(|p| spelled_by(p, &letters, joined))
                        .or_else(|| phrases.iter().find_map(|p| spelled_by(p, &letters, None)))
                })
                .flatten();
            spelled.unwrap_or_else(|| t.to_string())
        })
        .collect();
    format!(" {} ", expanded.join(" "))
}

/// The phrase of the page an initialism of the question stands for ("aum"
/// for "assets under management", "asms" for "available seat miles"): a
/// word of three to six letters that no label prints, not a stop word,
/// whose letters (a plural's "s" aside) are the initials of a run of words
/// of a label or sentence, opening and closing with a content word, stop
/// words passed over ("cost per available seat mile"), and a term of the
/// page: a run printed twice or more, or a whole label of three content
/// words or more ("europe , middle east and africa" for "emea").
fn initialism_spelled(
    t: &str,
    phrases: &[Vec<String>],
    labels: usize,
    label_words: &HashSet<String>,
) -> Option<String> {
    let letters_only = t.chars().all(|c| c.is_ascii_lowercase());
    if !letters_only
        || !(3..=6).contains(&t.len())
        || words::is_stop_word(t)
        || label_words.contains(t)
    {
        return None;
    }
    let letters: Vec<char> = t.chars().collect();
    let singular = t
        .strip_suffix('s')
        .map(|s| s.chars().collect::<Vec<char>>());
    [Some(letters), singular.filter(|l| l.len() >= 3)]
        .into_iter()
        .flatten()
        .find_map(|letters| {
            phrases.iter().find_map(|p| {
                (0..p.len()).find_map(|start| {
                    let content = |w: &String| !words::is_stop_word(w);
                    // a stop word may stand for a letter, or be passed over
                    // ("europe , middle east and africa" for "emea")
                    let end = [false, true]
                        .into_iter()
                        .filter_map(|skip| words::spelling_run_at(p, start, &letters, skip))
                        .map(|(end, _)| end)
                        .find(|&end| content(&p[end - 1]))?;
                    let run = &p[start..end];
                    let whole_label = || {
                        run.iter().filter(|w| content(w)).count() >= 3
                            && phrases[..labels].iter().any(|l| l.as_slice() == run)
                    };
                    let printed_twice = || {
                        phrases
                            .iter()
                            .flat_map(|q| q.windows(run.len()))
                            .filter(|w| *w == run)
                            .nth(1)
                            .is_some()
                    };
                    (content(&run[0]) && (whole_label() || printed_twice())).then(|| run.join(" "))
                })
            })
        })
}

/// An abbreviation joined by `&`: letters on both sides ("sg&a", "r&d").
fn is_abbreviation(t: &str) -> bool {
    t.contains('&')
        && t.split('&')
            .all(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_alphabetic()))
}

/// `text` with the first phrase that spells an abbreviation a label prints
/// ("r&d", or an initialism, "arpu"; commas inside the phrase dropped)
/// written as that abbreviation, when no label (for an "&" abbreviation,
/// no sentence either) of the page prints the phrase itself.
fn abbreviate(text: &str, schema: &Schema, phrases: &[Vec<String>]) -> String {
    let toks: Vec<&str> = text.split_whitespace().collect();
    let kept: Vec<usize> = (0..toks.len()).filter(|&i| toks[i] != ",").collect();
    let words: Vec<String> = kept.iter().map(|&i| toks[i].to_string()).collect();
    let labels = schema.rows.iter().chain(schema.columns.iter());
    for abbreviation in labels.flat_map(|(l, _)| l.split_whitespace()) {
        let initialism = !is_abbreviation(abbreviation);
        let (letters, run) = if !initialism {
            let letters: Vec<char> = abbreviation.chars().filter(|c| *c != '&').collect();
            let Some((start, end)) = spelling_run(&words, &letters, true) else {
                continue;
            };
            // each letter a word's own ("research and development"), not a
            // stop word's ("so what was the percentage" is no "s&p")
            let run = (start, end);
            let content = words[start..end]
                .iter()
                .filter(|w| !words::is_stop_word(w))
                .count();
            if content != letters.len() {
                continue;
            }
            (letters, run)
        } else {
            let Some(run) = initialism_run(&words, abbreviation) else {
                continue;
            };
            (abbreviation.chars().collect(), run)
        };
        let (start, end) = run;
        let run = &words[start..end];
        // an initialism a sentence spells out ("lower average revenue per
        // user") still names the label: only a label's own spelling stops it
        let labels = schema.rows.len() + schema.columns.len();
        let looked_in = if initialism {
            &phrases[..labels.min(phrases.len())]
        } else {
            phrases
        };
        if letters.is_empty()
            || looked_in
                .iter()
                .any(|p| p.windows(run.len()).any(|w| w == run))
        {
            continue;
        }
        let (from, to) = (kept[start], kept[end - 1]);
        let mut out: Vec<&str> = toks[..from].to_vec();
        out.push(abbreviation);
        out.extend_from_slice(&toks[to + 1..]);
        return format!(" {} ", out.join(" "));
    }
    text.to_string()
}

/// The run of `words` an initialism of a label spells out, a word of
/// three to six letters ("arpu" for "average revenue per user"): each
/// word gives a letter, stop words too ("per"), and three or more are
/// content words; none when the question prints the initialism itself.
fn initialism_run(words: &[String], initialism: &str) -> Option<(usize, usize)> {
    let letters: Vec<char> = initialism.chars().collect();
    if !(3..=6).contains(&letters.len())
        || !letters.iter().all(char::is_ascii_lowercase)
        || words::is_stop_word(initialism)
        || words.iter().any(|w| w == initialism)
    {
        return None;
    }
    (0..words.len()).find_map(|start| {
        let end = start + letters.len();
        let run = words.get(start..end)?;
        let spelled = run.iter().zip(&letters).all(|(w, c)| w.starts_with(*c));
        let content = run.iter().filter(|w| !words::is_stop_word(w)).count();
        let ends = !words::is_stop_word(&run[0]) && !words::is_stop_word(&run[run.len() - 1]);
        (spelled && ends && content >= 3).then_some((start, end))
    })
}

/// The first run of `tokens` whose initials spell `letters`, stop words
/// passed over inside it; with `and_at`, one where "and" comes just before
/// the word of the letter at that index.
fn spelled_by(tokens: &[String], letters: &[char], and_at: Option<usize>) -> Option<String> {
    (0..tokens.len()).find_map(|start| {
        let (end, at) = words::spelling_run_at(tokens, start, letters, false)?;
        let joined = and_at.is_none_or(|k| {
            at.get(k)
                .is_some_and(|&i| i > start && tokens[i - 1] == "and")
        });
        joined.then(|| tokens[start..end].join(" "))
    })
}

/// Where the first run of `tokens` whose initials spell `letters` starts
/// and ends, stop words passed over inside it; with `content_only`, only
/// words other than stop words spell ("depreciation and amortization" for
/// "d&a", not "depreciation and").
fn spelling_run(tokens: &[String], letters: &[char], content_only: bool) -> Option<(usize, usize)> {
    (0..tokens.len()).find_map(|start| {
        words::spelling_run_at(tokens, start, letters, content_only).map(|(end, _)| (start, end))
    })
}

/// The items of a list `listed` names ("a , b and c", "a plus b"): the
/// text cut at the words of `connectors` and at the commas before the last
/// of them, but not inside a phrase a label of the page prints ("research
/// and development", "selling , general and administrative"); a connector
/// that opens the text ("and what ...") parts nothing.
pub(super) fn list_items(listed: &str, schema: &Schema, connectors: &[String]) -> Vec<String> {
    let toks: Vec<&str> = listed.split_whitespace().collect();
    // the label mask of the text without its commas, token for token
    let words: Vec<&str> = toks.iter().copied().filter(|t| *t != ",").collect();
    let masked = mask_label_phrases(&format!(" {} ", words.join(" ")), schema);
    let mut in_label = masked.split_whitespace().map(|m| m == "_");
    let labelled: Vec<bool> = toks
        .iter()
        .map(|t| *t != "," && in_label.next().unwrap_or(false))
        .collect();
    // a comma between two words of one label phrase is the label's
    let labels = label_phrases(schema);
    let inside = |i: usize| {
        let prev = toks[..i].iter().rposition(|t| *t != ",");
        let next = toks[i + 1..]
            .iter()
            .position(|t| *t != ",")
            .map(|k| k + i + 1);
        match (prev, next) {
            (Some(p), Some(n)) => {
                let pair = format!(" {} {} ", toks[p], toks[n]);
                labelled[p] && labelled[n] && labels.iter().any(|l| l.contains(&pair))
            }
            _ => false,
        }
    };
    let connector = |i: usize| !labelled[i] && connectors.iter().any(|c| c == toks[i]);
    let last = (0..toks.len())
        .rev()
        .find(|&i| connector(i))
        .filter(|&i| i > 0);
    let mut items: Vec<Vec<&str>> = vec![Vec::new()];
    for (i, tok) in toks.iter().enumerate() {
        let parts = i > 0
            && last.is_some_and(|l| {
                i == l || (i < l && (connector(i) || (*tok == "," && !inside(i))))
            });
        if parts {
            items.push(Vec::new());
        } else if *tok != "," {
            if let Some(item) = items.last_mut() {
                item.push(tok);
            }
        }
    }
    items
        .into_iter()
        .filter(|i| !i.is_empty())
        .map(|i| format!(" {} ", i.join(" ")))
        .collect()
}

/// Every row and column label of the page as a question prints it, padded
/// with spaces, with and without its asides in parentheses.
fn label_phrases(schema: &Schema) -> Vec<String> {
    schema
        .rows
        .iter()
        .map(|(l, _)| l)
        .chain(schema.columns.iter().map(|(l, _)| l))
        .flat_map(|l| {
            let label = words::normalise_label(l);
            let plain = words::without_asides(&label);
            [label, plain]
        })
        .map(|l| format!(" {} ", words::normalise_question(&l).trim()))
        .collect()
}

/// The question with every phrase of two to six words that a row or column
/// label of the page holds replaced by `_`; a label is read with and without
/// its asides in parentheses ("net gain ( loss ) realized" holds "gain
/// realized").
fn mask_label_phrases(text: &str, schema: &Schema) -> String {
    let labels = label_phrases(schema);
    let toks: Vec<&str> = text.split_whitespace().collect();
    let mut keep = vec![true; toks.len()];
    for n in (2..=6).rev() {
        if toks.len() < n {
            continue;
        }
        for i in 0..=toks.len() - n {
            let phrase = format!(" {} ", toks[i..i + n].join(" "));
            if labels.iter().any(|l| l.contains(&phrase)) {
                for k in keep.iter_mut().skip(i).take(n) {
                    *k = false;
                }
            }
        }
    }
    let kept: Vec<&str> = toks
        .iter()
        .zip(&keep)
        .map(|(t, k)| if *k { *t } else { "_" })
        .collect();
    format!(" {} ", kept.join(" "))
}

//! The words of the row and column labels: their content words, surface
//! forms, rarity and spaced phrases, and what a label marks (a total, a
//! percentage, a change, a unit price, a quantity's unit, an amount per unit).

use super::periods::{label_boundary, page_years, per_label};
use super::PageIndex;
use crate::kg::Schema;
use crate::plan::cues::Cues;
use crate::words::{self, content_words};
use std::collections::{HashMap, HashSet};

impl PageIndex {
    /// The labels' content words (glued words split on `text_words`), the
    /// lexicon's words for each row, and each column label's boundary.
    pub(super) fn index_labels(
        &mut self,
        schema: &Schema,
        lexicon: bool,
        cues: &Cues,
        text_words: &HashSet<String>,
    ) {
        let (row_words, column_words) = label_words(schema, text_words);
        self.column_boundary = per_label(&schema.columns, |l| label_boundary(l, cues));
        self.row_alias_words = alias_words(schema, &row_words, lexicon);
        self.row_words = row_words;
        self.column_words = column_words;
    }

    /// Each word's rarity and the page's vocabulary, the labels' and
    /// sentences' phrases, and every year the page speaks of (the lost
    /// row's among them).
    pub(super) fn index_vocabulary(&mut self, schema: &Schema, sentence_words: &[Vec<String>]) {
        self.idf =
            inverse_document_frequency(&[&self.row_words, &self.column_words, sentence_words]);
        self.vocabulary = self
            .idf
            .keys()
            .cloned()
            .chain(self.row_alias_words.iter().flatten().cloned())
            .collect();
        let phrases: Vec<Vec<String>> = schema
            .rows
            .iter()
            .chain(schema.columns.iter())
            .map(|(l, _)| words::tokens(l))
            .chain(schema.sentences.iter().map(|s| words::tokens(s)))
            .collect();
        let labels = schema.rows.len() + schema.columns.len();
        let spaced = |p: &Vec<String>| format!(" {} ", p.join(" "));
        self.label_tokens = phrases[..labels].iter().flatten().cloned().collect();
        self.spaced_labels = phrases[..labels].iter().map(spaced).collect();
        self.spaced_sentences = phrases[labels..].iter().map(spaced).collect();
        self.phrases = phrases;
        self.page_years = page_years(schema)
            .into_iter()
            .chain(self.lost_row_year)
            .collect();
    }

    /// What each label marks: its surface words, a total, a part's head, a
    /// percentage, a change, a unit price or count, a quantity's unit, an
    /// amount of money or per unit, a catch-all.
    pub(super) fn index_label_marks(
        &mut self,
        schema: &Schema,
        cues: &Cues,
        text_words: &HashSet<String>,
    ) {
        let is_total = |label: &str| prints_total(label, cues);
        self.row_surface = per_label(&schema.rows, surface_words);
        self.column_surface = per_label(&schema.columns, surface_words);
        self.row_is_total = per_label(&schema.rows, is_total);
        self.row_head_words = per_label(&schema.rows, |l| head_of_part(l, cues));
        self.row_percent = per_label(&schema.rows, marks_percent);
        self.column_percent = per_label(&schema.columns, marks_percent);
        self.row_states_change = per_label(&schema.rows, |l| states_change(l, cues));
        self.column_states_change = per_label(&schema.columns, |l| states_change(l, cues));
        let column_tokens = column_tokens(schema, text_words);
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
        self.column_unit_price = price.iter().zip(&quantity).map(|(p, q)| *p && !q).collect();
        self.column_counts = quantity.iter().zip(&price).map(|(q, p)| *q && !p).collect();
        self.row_quantity_unit = per_label(&schema.rows, |l| states_quantity_unit(l, cues));
        self.column_quantity_unit = per_label(&schema.columns, |l| states_quantity_unit(l, cues));
        self.column_money = (0..schema.columns.len())
            .map(|c| {
                schema
                    .header_numbers
                    .iter()
                    .any(|h| h.column == c && h.words.trim().is_empty() && h.raw.starts_with('$'))
            })
            .collect();
        self.row_per_unit = per_label(&schema.rows, |l| measures_per_unit(l, cues));
        self.column_per_unit = per_label(&schema.columns, |l| measures_per_unit(l, cues));
        self.row_is_catch_all = per_label(&schema.rows, |l| {
            words::tokens(l).iter().any(|w| cues.catch_all.contains(w))
        });
        self.column_is_total = per_label(&schema.columns, is_total);
    }
}

/// Whether a label (or a text number's context) prints the total word.
pub(super) fn prints_total(label: &str, cues: &Cues) -> bool {
    let total_word = cues.total_word.as_str();
    words::tokens(label).iter().any(|w| w == total_word)
}

/// Whether a label measures an amount per unit of something: a per word
/// followed by a content word that is no length of time ("per share", not
/// "per day": a rate over time is no unit's).
fn measures_per_unit(label: &str, cues: &Cues) -> bool {
    let spaced = format!(" {} ", words::tokens(label).join(" "));
    cues.per_word.iter().any(|p| {
        spaced
            .split_once(&format!(" {p} "))
            .is_some_and(|(_, after)| {
                content_words(after).first().is_some_and(|w| {
                    !cues.duration_word.contains(w) && !cues.period_noun.contains(w)
                })
            })
    })
}

/// The words the text prints, by which glued label words are split.
pub(super) fn text_words(schema: &Schema, cues: &Cues) -> HashSet<String> {
    schema
        .sentences
        .iter()
        .flat_map(|s| words::tokens(s))
        // a label word of a cue list is a word, not glued ones ("thereafter")
        .chain(cues.thereafter.iter().cloned())
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

/// A text's content words as (stem, surface form).
fn surface_words(text: &str) -> Vec<(String, String)> {
    words::tokens(text)
        .into_iter()
        .filter(|t| !words::is_stop_word(t) && t.chars().any(char::is_alphabetic))
        .map(|t| (words::stem(&t), words::surface(&t)))
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

/// A label marks a percentage: it prints "%" or the word "percent" (or
/// "percentage").
pub(super) fn marks_percent(label: &str) -> bool {
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

/// `text` with each term of a synonym set that the page never prints
/// ("headcount") written as the term of the set the page prints, a row or
/// column label's first ("number of employees"), else a sentence's.
pub(in crate::plan) fn page_synonyms(text: &str, page: &PageIndex, sets: &[Vec<String>]) -> String {
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

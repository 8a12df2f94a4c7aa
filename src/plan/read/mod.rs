//! Reading a question: its normalised text, the years and constants printed
//! in it, the operation its trigger phrases ask for (with phrases that are
//! part of a row or column label, and spans of time, masked out), and the
//! words that name what is asked about.
//!
//! This file holds the `Reading` and `RulesPlanner::read`, which puts the
//! steps together; the steps are one topic a file:
//! - `numbers.rs` — years and constants the question prints, ranges and
//!   counts of years, years that are part of a label's name;
//! - `abbreviations.rs` — "sg&a" written out as the page's phrase, a
//!   phrase written as a label's abbreviation or initialism;
//! - `labels.rs` — label phrases masked, a list cut into its items;
//! - `spans.rs` — spans of time, durations, idioms and printed averages
//!   masked;
//! - `triggers.rs` — the operation the triggers settle on, and the metric
//!   words left when the triggers' words are taken out.

mod abbreviations;
mod labels;
mod numbers;
mod spans;
mod triggers;

pub(super) use labels::list_items;
pub(super) use numbers::{counted_span, first_year, question_numbers, small_count, year_range};

use super::cues::{contains_phrase, split_year_ranges};
use super::operation::Operation;
use super::page::{page_synonyms, PageIndex};
use super::rules::RulesPlanner;
use crate::kg::Schema;
use crate::words::{self, content_words};
use abbreviations::expand_abbreviations;
use labels::mask_label_phrases;
use numbers::{drop_name_years, drop_range_label_years};
use rust_decimal::Decimal;
use spans::mask_time_spans;

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
}

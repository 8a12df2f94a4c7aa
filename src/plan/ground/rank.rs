//! Every candidate for a mention, scored and ranked (cells, header numbers,
//! text numbers), how the trace names one, and the winner as an operand
//! with the note of the deciding features.

use super::{Asked, Feature, FeatureVector, Grounder, Target};
use crate::plan::cues::{Boundary, BEGINNING_MARK, END_MARK};
use crate::plan::operand::{fact_operand, header_operand, GroundingNote, Operand};
use crate::trace::CandidateNote;
use std::collections::HashSet;

impl Grounder<'_> {
    /// Every candidate for a mention with its features and score, best first
    /// (ties keep the page's order: cells, then the text).
    pub(super) fn candidates(
        &self,
        mention: &[String],
        year: Option<i32>,
    ) -> Vec<(f64, Target, FeatureVector)> {
        let boundary = boundary_of_mention(mention);
        let own: Vec<String> = mention
            .iter()
            .filter(|w| !w.starts_with('@'))
            .cloned()
            .collect();
        let q: Vec<&String> = {
            let mut seen = HashSet::new();
            own.iter().filter(|w| seen.insert(w.as_str())).collect()
        };
        let q_weight: f64 = self.weigh(q.iter()).max(1e-9);
        let names_a_row = self.names_a_row(&q);
        let names_a_column = self.names_a_column(&q);
        let named_parts = self.named_parts(&q);
        let a = Asked {
            words: q,
            weight: q_weight,
            year,
            mention: &own,
            boundary,
            names_a_row,
            names_a_column,
            named_parts,
        };
        let mut out: Vec<(f64, Target, FeatureVector)> = Vec::new();
        let wordy = !a.words.is_empty();
        // a cell whose row prints no word (a year, "thereafter") is named by
        // the caption, which no feature reads
        let named = |t: Target| match t {
            Target::Cell(k) => self.page.row_words[self.schema.cells[k].row]
                .iter()
                .any(|w| w.chars().any(char::is_alphabetic)),
            _ => true,
        };
        let mut push = |mut f: FeatureVector, t: Target| {
            if wordy && named(t) && !f.meets_a_word() {
                f.set(Feature::no_word_met, 1.0);
            }
            out.push((f.score(self.weights), t, f));
        };
        for (k, cell) in self.schema.cells.iter().enumerate() {
            push(self.cell_features(cell, &a), Target::Cell(k));
        }
        for (k, fact) in self.schema.facts.iter().enumerate() {
            if fact.is_year_mention || self.page.fact_is_name[k] {
                continue;
            }
            push(self.fact_features(k, fact, &a), Target::Fact(k));
        }
        for (k, h) in self.schema.header_numbers.iter().enumerate() {
            push(self.header_features(k, h, &a), Target::Header(k));
        }
        out.sort_by(|a, b| b.0.total_cmp(&a.0));
        out
    }

    /// A candidate as the trace and the reasons name it.
    pub(super) fn describe(&self, t: Target) -> String {
        match t {
            Target::Cell(k) => {
                let c = &self.schema.cells[k];
                format!("cell `{}` / `{}` = {}", c.row_label, c.column_label, c.raw)
            }
            Target::Fact(k) => {
                let f = &self.schema.facts[k];
                format!("text `{}` in \"{}\"", f.raw, f.context)
            }
            Target::Header(k) => {
                let h = &self.schema.header_numbers[k];
                format!("column header `{}` = {}", h.column_label, h.raw)
            }
        }
    }

    /// A candidate's number.
    pub(super) fn value_of(&self, t: Target) -> rust_decimal::Decimal {
        match t {
            Target::Cell(k) => self.schema.cells[k].value,
            Target::Fact(k) => self.schema.facts[k].value,
            Target::Header(k) => self.schema.header_numbers[k].value,
        }
    }

    /// The winning candidate `t` as an operand, with a note of the best
    /// three candidates and the features that decided each.
    pub(super) fn grounded(
        &self,
        t: Target,
        year: Option<i32>,
        mention_text: String,
        ranked: &[(f64, Target, FeatureVector)],
    ) -> Operand {
        let mut o = match t {
            Target::Cell(k) => self.cell_value(&self.schema.cells[k]),
            Target::Fact(k) => {
                let fact = &self.schema.facts[k];
                let mut o = fact_operand(fact);
                o.printed_change = fact.is_change;
                // one amount for several years: it is about the year asked
                if year.is_some_and(|y| fact.also_years.contains(&y)) {
                    o.year = year;
                }
                o
            }
            Target::Header(k) => {
                // the header's year, the lost row's, else its column's
                let mut o = header_operand(&self.schema.header_numbers[k]);
                o.year = self.schema.header_number_year(k, self.page.lost_row_year);
                o
            }
        };
        o.grounding = Some(GroundingNote {
            mention: mention_text,
            candidates: ranked
                .iter()
                .take(3)
                .map(|(s, t, f)| CandidateNote {
                    source: self.describe(*t),
                    score: (*s * 1000.0).round() / 1000.0,
                    features: f
                        .deciding(self.weights, 4)
                        .into_iter()
                        .map(|(n, c)| (n.to_string(), (c * 1000.0).round() / 1000.0))
                        .collect(),
                })
                .collect(),
        });
        o
    }
}

/// The beginning or end a mention's marker says.
pub(super) fn boundary_of_mention(mention: &[String]) -> Option<Boundary> {
    if mention.iter().any(|w| w == BEGINNING_MARK) {
        Some(Boundary::Beginning)
    } else if mention.iter().any(|w| w == END_MARK) {
        Some(Boundary::End)
    } else {
        None
    }
}

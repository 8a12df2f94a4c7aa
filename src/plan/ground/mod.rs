//! Grounding: which table cell or text number a mention names.
//!
//! A mention is the words a question uses for a value plus the year it asks
//! about. Every numeric cell, every number printed in a column header and
//! every number of the text is a candidate; each gets a vector of
//! [`Feature`]s (declared in `features.rs`, computed in `score/`) over
//! what the grounder knows of the page (`page/`), and its score is their
//! dot product with one table of [`Weights`]. The best candidate wins when
//! it scores above the floor; otherwise the mention is not grounded and the
//! turn answers null with the reason.
//!
//! This file holds the `Grounder` and the mention as the features read it;
//! the work is one step a file:
//! - `question.rs` — `Grounder::new`: what the question asks, read once;
//! - `word_forms.rs` — `same_word`: when two words meet;
//! - `word_match.rs` — the mention's words against the page's (rarity,
//!   overlap, phrases);
//! - `rank.rs` — every candidate scored, and the winner as an operand;
//! - `anchor.rs` — a follow-up's value on the row asked before;
//! - `periods.rs` — "after" the last year, the end of a year as the next
//!   one's opening, the beginning of a year as the end of the one before;
//! - `overrides.rs` — when the best candidate is not the answer (a blank
//!   row, the table's unnamed lost row);
//! - `choose.rs` — `Grounder::ground`: the steps above, in order.

pub use super::features::{Feature, FeatureVector, Weights};

mod anchor;
mod choose;
mod overrides;
mod periods;
mod question;
mod rank;
mod word_forms;
mod word_match;

pub(super) use word_forms::same_word;

use super::cues::Boundary;
use super::page::PageIndex;
use crate::kg::Schema;
use std::collections::HashSet;
use std::rc::Rc;

/// Where a candidate is: a cell, a text number or a header number, by index.
#[derive(Debug, Clone, Copy)]
enum Target {
    Cell(usize),
    Fact(usize),
    Header(usize),
}

/// What kind of amount a question asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum AskedUnit {
    /// "how much did the company spend": money.
    Money,
    /// "how many shares": a count.
    Count,
    /// Either.
    Any,
}

/// A mention as the features read it.
pub(super) struct Asked<'m> {
    /// The mention's own words, each once.
    pub words: Vec<&'m String>,
    /// Their total weight (each word's rarity, at least 0.3).
    pub weight: f64,
    /// The year asked.
    pub year: Option<i32>,
    /// The mention's own words in order, for phrase matches.
    pub mention: &'m [String],
    /// Whether the mention says beginning or end of a period.
    pub boundary: Option<Boundary>,
    /// Whether the mention holds every word of some row's label (see
    /// `Grounder::names_a_row`): then no row borrows the caption's words.
    pub names_a_row: bool,
    /// Whether the mention meets a word of some column label other than
    /// the total word (see `Grounder::names_a_column`).
    pub names_a_column: bool,
    /// The rows, not totals, whose every word the mention holds (see
    /// `Grounder::names_a_part`).
    pub named_parts: Vec<usize>,
}

/// Grounds mentions in the page's cells and text facts.
#[derive(Clone)]
pub(super) struct Grounder<'a> {
    pub(super) schema: &'a Schema,
    pub(super) weights: &'a Weights,
    /// What the grounder knows of the page, whatever the question.
    pub(super) page: Rc<PageIndex>,
    /// The question asks for a rate or percentage, so printed percentages fit.
    pub(super) wants_percent: bool,
    /// The question prints a word by which a label states a change or an
    /// effect ("change", "increase", "effect").
    pub(super) says_change: bool,
    /// The question's words in their surface forms ([`words::surface`]).
    pub(super) surface: HashSet<String>,
    /// Whether the question asks for money or a count.
    pub(super) asked_unit: AskedUnit,
    /// The question says "total".
    pub(super) asks_total: bool,
    /// The question prints a leave-out qualifier ("before", "net of"): it
    /// may ask for what a phrase of the text leaves out.
    pub(super) leaves_out: bool,
    /// The question asks for an amount per unit ("per share", "for each").
    pub(super) asks_per_unit: bool,
    /// The question says "per" (or "eps", a synonym that says it), not
    /// only a unit's price.
    pub(super) says_per: bool,
    /// The word that names a total ("total").
    pub(super) total_word: String,
    /// The question opens as a continuation of the last ("and the basic
    /// shares?", "what about ...").
    pub(super) continues: bool,
    /// The scale word the question asks its answer in.
    pub(super) asked_scale: Option<String>,
    /// The quarter the question names.
    pub(super) asked_quarter: Option<u8>,
    /// The one month the question names.
    pub(super) asked_month: Option<u8>,
    /// The dates the question prints.
    pub(super) asked_dates: Vec<(u8, Option<u8>, i32)>,
    /// For mentions with these (inherited) words, the row label or text
    /// context of the value they were inherited from (the node of a
    /// header number, whose row has no name).
    pub anchor: Option<(Vec<String>, String)>,
    /// Row labels and text contexts earlier turns read.
    pub earlier: HashSet<String>,
    /// Columns of the cells the last turn read.
    pub earlier_columns: HashSet<usize>,
    /// Rows of the cells the last turn read.
    pub earlier_rows: HashSet<usize>,
    /// Whether the last turn read a number printed in a column header (the
    /// first row the table lost into its headers).
    pub earlier_lost_row: bool,
    /// The turn asks for a change in one year: a change the text states
    /// fits ("decreased $ 13 million in 2010"); otherwise it does not.
    pub wants_printed_change: std::cell::Cell<bool>,
    /// Candidates a revision leaves out, by mention, as the grounding
    /// notes name them (empty but in a revision, see `revise.rs`).
    pub excluded: HashSet<(String, String)>,
    /// For each row, and each column, whether the question prints a phrase
    /// of its label that holds a number ("due in more than 5 years").
    pub(super) numbered_row: Vec<bool>,
    pub(super) numbered_column: Vec<bool>,
    /// Whether the question prints a range of years some row label prints
    /// ("payments for 2018-2022" beside a row "2018-2022"): then a row of
    /// one year, or the lost first row, is another period.
    pub(super) asks_row_range: bool,
    /// The range of years the question prints that some column label
    /// prints ("debt due in 2014 and 2015" beside a column "2014-2015"):
    /// the period asked is that column's.
    pub(super) asked_column_range: Option<(i32, i32)>,
    /// The year the question asks about what comes after ("after 2014").
    after_year: Option<i32>,
    /// The words of a "thereafter" label.
    thereafter: Vec<String>,
    /// The question prints a catch-all word ("other revenues").
    pub(super) asks_catch_all: bool,
    /// The stems of the question's words that name a period ("fourth",
    /// "quarter", "fiscal", "december"): they say when, not what.
    pub(super) period_words: HashSet<String>,
    /// The question's words and adjacent pairs of words glued, hyphens
    /// dropped, stemmed ("after-tax", "after taxes" both give "aftertax").
    pub(super) glued: HashSet<String>,
}

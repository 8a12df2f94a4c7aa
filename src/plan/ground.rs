//! Grounding: which table cell or text number a mention names.
//!
//! A mention is the words a question uses for a value plus the year it asks
//! about. Every numeric cell, every number printed in a column header and
//! every number of the text is a candidate; each gets a vector of
//! [`Feature`]s (declared in `features.rs`, computed in `score.rs`) over
//! what the grounder knows of the page (`page/`), and its score is their
//! dot product with one table of [`Weights`]. The best candidate wins when
//! it scores above the floor; otherwise the mention is not grounded and the
//! turn answers null with the reason.

pub use super::features::{Feature, FeatureVector, Weights};

use super::cues::{contains_any, contains_phrase, Boundary, Cues, BEGINNING_MARK, END_MARK};
use super::operand::{fact_operand, header_operand, GroundingNote, Operand};
use super::page::{words_after, words_before, PageIndex};
use crate::kg::{CellEntry, Schema, HEADER_NUMBER_NODE};
use crate::planner::PlanError;
use crate::trace::CandidateNote;
use crate::words;
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
        // whole words: "generated" or "corporate" asks for no rate
        let wants_percent = cues.percent.iter().any(|w| {
            tokens
                .iter()
                .any(|t| t == w || words::stem(t) == words::stem(w))
        }) || question.contains('%');
        let asks_total = tokens.contains(&cues.total_word);
        let says_change = tokens.iter().any(|t| cues.change_label.contains(t));
        let says_per = contains_any(&q, &cues.per_word)
            || synonym_says(cues, &q, |t| contains_any(t, &cues.per_word));
        let asked_unit = if contains_any(&q, &cues.count_ask) {
            AskedUnit::Count
        } else if contains_any(&q, &cues.money_ask) {
            AskedUnit::Money
        } else {
            AskedUnit::Any
        };
        let spaced = crate::words::normalise_question(question);
        let asked_ranges = asked_year_ranges(&spaced, cues);
        let asks_row_range = page
            .row_year_ranges
            .iter()
            .any(|ranges| ranges.iter().any(|r| asked_ranges.contains(r)));
        let asked_column_range = asked_ranges.iter().copied().find(|r| {
            page.column_year_ranges
                .iter()
                .any(|ranges| ranges.contains(r))
        });
        let durations = cues.duration_form(&spaced);
        let numbered = |labels: &[(String, Option<i32>)]| -> Vec<bool> {
            labels
                .iter()
                .map(|(l, _)| prints_numbered_phrase(&durations, l, cues))
                .collect()
        };
        Self {
            schema,
            weights,
            page,
            wants_percent,
            says_change,
            surface: tokens.iter().map(|t| words::surface(t)).collect(),
            asks_total,
            // ("pre-tax income" is "income before income taxes")
            leaves_out: contains_any(&q, &cues.leave_out_qualifier)
                || synonym_says(cues, &q, |t| {
                    contains_any(&format!(" {t} "), &cues.leave_out_qualifier)
                }),
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
            asked_unit,
            asked_scale,
            asked_quarter: words::quarter_in(question),
            asked_month: words::month_in(question),
            asked_dates: words::dates_in(question),
            anchor: None,
            earlier: HashSet::new(),
            earlier_columns: HashSet::new(),
            earlier_rows: HashSet::new(),
            wants_printed_change: std::cell::Cell::new(false),
            excluded: HashSet::new(),
            numbered_row: numbered(&schema.rows),
            numbered_column: numbered(&schema.columns),
            asks_row_range,
            asked_column_range,
            after_year: cues.after_year(&spaced),
            thereafter: cues.thereafter.clone(),
            asks_catch_all: tokens.iter().any(|w| cues.catch_all.contains(w)),
            period_words: period_words(&tokens, cues),
            glued: tokens
                .iter()
                .map(|t| t.replace('-', ""))
                .chain(
                    tokens
                        .windows(2)
                        .map(|p| format!("{}{}", p[0], p[1]).replace('-', "")),
                )
                .map(|g| words::stem(&g))
                .collect(),
        }
    }

    /// Whether the page prints a word (in a label, a concept label or a
    /// sentence).
    /// Whether every row or column label that carries `w` also names a
    /// year ("fiscal 2010", "december 31 2009"): there `w` dates a period,
    /// it names no value.
    pub(super) fn dates_only(&self, w: &str) -> bool {
        let labels = self
            .page
            .row_words
            .iter()
            .zip(&self.schema.rows)
            .chain(self.page.column_words.iter().zip(&self.schema.columns));
        labels
            .filter(|(words, _)| words.iter().any(|l| same_word(l, w)))
            .all(|(_, (label, year))| year.is_some() || !words::years_in(label).is_empty())
    }

    pub fn knows(&self, w: &str) -> bool {
        self.page.vocabulary.contains(w) || self.page.vocabulary.iter().any(|k| same_word(k, w))
    }

    /// A word's rarity on the page (its inverse document frequency); for a
    /// word the page prints only in another form ("european" for
    /// "europe"), the rarity of that form.
    pub(super) fn weight(&self, w: &str) -> f64 {
        match self.page.idf.get(w) {
            Some(x) => *x,
            None => self
                .page
                .idf
                .iter()
                .filter(|(k, _)| same_word(k, w))
                .map(|(_, x)| *x)
                .fold(0.0, f64::max),
        }
    }

    /// The value in the anchor's row (or sentence) for `year`.
    fn ground_anchor(&self, mention: &[String], year: Option<i32>) -> Option<Operand> {
        let (words, label) = self.anchor.as_ref()?;
        if words.as_slice() != mention {
            return None;
        }
        let year = year?;
        let cells: Vec<&CellEntry> = self
            .schema
            .cells
            .iter()
            .filter(|c| &c.row_label == label && c.column_year.or(c.row_year) == Some(year))
            .collect();
        if let [cell] = cells.as_slice() {
            return Some(self.cell_value(cell));
        }
        // the row the table lost into its headers: its number in the
        // header of the year asked
        if label.ends_with(HEADER_NUMBER_NODE) {
            let mut o = self
                .schema
                .header_numbers
                .iter()
                .find(|h| h.year.or(self.page.lost_row_year) == Some(year))
                .map(header_operand)?;
            o.year = Some(year);
            return Some(o);
        }
        let from = self.schema.facts.iter().find(|f| &f.context == label)?;
        // "93000 gas customers ... 132000 electric customers and 86000 gas
        // customers as of 2007": a number of the same list first, then the
        // number followed (or preceded: "for a total of $ 2.145 ... for a
        // total of $ 2.05") by the same words, then the nearest
        let after = words_after(from);
        let before = words_before(from);
        self.schema
            .facts
            .iter()
            .filter(|f| f.sentence == from.sentence && f.year == Some(year) && !f.is_year_mention)
            .min_by_key(|f| {
                let shared = words_after(f).iter().filter(|w| after.contains(w)).count()
                    + words_before(f)
                        .iter()
                        .filter(|w| before.contains(w))
                        .count();
                (
                    f.context != from.context,
                    usize::MAX - shared,
                    f.token.abs_diff(from.token),
                )
            })
            .map(fact_operand)
    }

    /// Every candidate for a mention with its features and score, best first
    /// (ties keep the page's order: cells, then the text).
    fn candidates(
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
    fn describe(&self, t: Target) -> String {
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
    fn value_of(&self, t: Target) -> rust_decimal::Decimal {
        match t {
            Target::Cell(k) => self.schema.cells[k].value,
            Target::Fact(k) => self.schema.facts[k].value,
            Target::Header(k) => self.schema.header_numbers[k].value,
        }
    }

    /// The cell or text number a mention names, for a year.
    pub fn ground(&self, mention: &[String], year: Option<i32>) -> Result<Operand, PlanError> {
        if let Some(later) = self.after_last_year(mention, year) {
            return self.ground(&later, None);
        }
        if let Some(o) = self.anchored_unless_left_out(mention, year) {
            return Ok(o);
        }
        let mention_text = format!(
            "{}{}",
            mention
                .iter()
                .filter(|w| !w.starts_with('@'))
                .cloned()
                .collect::<Vec<_>>()
                .join(" "),
            year.map(|y| format!(" in {y}")).unwrap_or_default()
        );
        let opening = self.opening_year(boundary_of_mention(mention), year);
        if let Some(o) = self.closing_as_next_opening(mention, year, &mention_text) {
            return Ok(o);
        }
        if let Some(y) = year.filter(|y| !self.page.page_years.contains(y) && opening.is_none()) {
            return Err(PlanError::NotGrounded {
                mention: format!(
                    "{mention_text} (no label, cell or sentence of the page is about {y})"
                ),
            });
        }
        let own: Vec<&String> = mention.iter().filter(|w| !w.starts_with('@')).collect();
        if !own.is_empty() && !own.iter().any(|w| self.knows(w)) {
            // no label or sentence prints these words: on a page whose
            // table lost its first row's name with it, that row is the
            // only thing the mention can name
            let why = "no label or sentence prints these words";
            if let Some(o) = self.lost_row_unnamed(&mention_text, year, why) {
                return Ok(o);
            }
            return Err(PlanError::NotGrounded {
                mention: format!("{mention_text} (the page prints none of these words)"),
            });
        }
        let ranked = super::revise::without(
            self.candidates(mention, year),
            &super::revise::for_mention(&self.excluded, &mention_text),
            |t| self.describe(t),
            |t| self.value_of(t),
        );
        self.choose(ranked, &own, year, mention_text)
    }

    /// The best of the ranked candidates, unless the row the mention names
    /// is blank for the year, the table's unnamed lost row is meant, or no
    /// candidate scores above the floor.
    fn choose(
        &self,
        ranked: Vec<(f64, Target, FeatureVector)>,
        own: &[&String],
        year: Option<i32>,
        mention_text: String,
    ) -> Result<Operand, PlanError> {
        if let (Some((_, Target::Cell(k), _)), Some(y)) = (ranked.first(), year) {
            if let Some(row) = self.blank_named_row(own, &self.schema.cells[*k], y) {
                return Err(PlanError::NotGrounded {
                    mention: format!(
                        "{mention_text} (the row `{}` prints no number for {y})",
                        self.schema.rows[row].0
                    ),
                });
            }
        }
        if let Some((_, Target::Fact(_), f)) = ranked.first() {
            if self.only_text_rate_names(own, f) {
                let why = "no label prints these words, the text only a rate or change of them";
                if let Some(o) = self.lost_row_unnamed(&mention_text, year, why) {
                    return Ok(o);
                }
            }
        }
        match ranked.first() {
            Some((s, t, _)) if *s > self.weights.floor => {
                Ok(self.grounded(*t, year, mention_text, &ranked))
            }
            Some((s, t, _)) => Err(PlanError::NotGrounded {
                mention: format!(
                    "{mention_text} (the nearest, {}, scores {:.2}, under the floor {:.2})",
                    self.describe(*t),
                    s,
                    self.weights.floor
                ),
            }),
            None => Err(PlanError::NotGrounded {
                mention: format!("{mention_text} (the page has no numbers)"),
            }),
        }
    }

    /// "what were net sales in 2010?" on a table that lost its first row
    /// unnamed, when no label prints all the mention's words and the text
    /// number that wins is a rate or a change the question does not ask
    /// for ("net sales increased 25%"): the level is the lost row's.
    fn only_text_rate_names(&self, own: &[&String], winner: &FeatureVector) -> bool {
        let unasked = winner.get(Feature::fact_percent_unasked) > 0.0
            || winner.get(Feature::fact_change_unasked) > 0.0;
        let labels = || self.page.row_words.iter().chain(&self.page.column_words);
        unasked
            && !own.is_empty()
            && !labels().any(|l| own.iter().all(|w| l.iter().any(|x| same_word(x, w))))
    }

    /// The row the table lost into its bare-number header, for a mention
    /// that can name nothing else (`why` says how): the column of the year
    /// asked, else the first; `None` on a page with no such row (or when a
    /// revision left it out).
    fn lost_row_unnamed(
        &self,
        mention_text: &str,
        year: Option<i32>,
        why: &str,
    ) -> Option<Operand> {
        let unnamed = &self.page.lost_row_unnamed;
        let k = match year {
            _ if unnamed.len() == 1 => unnamed.first(),
            Some(y) => unnamed
                .iter()
                .find(|k| self.schema.header_numbers[**k].year == Some(y)),
            None => unnamed.first(),
        };
        if let Some(&k) = k {
            let t = Target::Header(k);
            let note = format!("{mention_text} ({why}: the row the table lost into its header)");
            if !self.excluded.contains(&(note.clone(), self.describe(t))) {
                let mut f = FeatureVector::default();
                f.set(Feature::header_source, 1.0);
                return Some(self.grounded(t, year, note, &[(f.score(self.weights), t, f)]));
            }
        }
        None
    }

    /// "after 2014" on a schedule whose years (or ranges of years, "2013-2014")
    /// end at 2014 and that has a "thereafter" row or column: the mention's
    /// words with that label's word, for no year.
    fn after_last_year(&self, mention: &[String], year: Option<i32>) -> Option<Vec<String>> {
        let y = year?;
        let range_ends = self
            .page
            .row_year_ranges
            .iter()
            .chain(&self.page.column_year_ranges)
            .flatten()
            .map(|(_, last)| *last);
        let last = self.years().into_iter().chain(range_ends).max();
        if self.after_year != Some(y) || last != Some(y) {
            return None;
        }
        let labels = || self.page.row_words.iter().chain(&self.page.column_words);
        let word = self
            .thereafter
            .iter()
            .map(|w| words::stem(w))
            .find(|w| labels().any(|l| l.contains(w)))?;
        let mut later: Vec<String> = mention.to_vec();
        later.push(word);
        Some(later)
    }

    /// The value on the anchor's row for `year`, unless a revision left it out.
    fn anchored_unless_left_out(&self, mention: &[String], year: Option<i32>) -> Option<Operand> {
        let o = Self::anchored(self.ground_anchor(mention, year)?, year);
        let left_out = o.grounding.as_ref().is_some_and(|n| {
            n.candidates.first().is_some_and(|c| {
                self.excluded
                    .contains(&(n.mention.clone(), c.source.clone()))
            })
        });
        (!left_out).then_some(o)
    }

    /// "the balance at the end of 2008" on a roll-forward whose columns
    /// start at 2009: the end of a year is the beginning of the next, so
    /// the opening row in the next year's column, when the mention names
    /// the closing row there.
    fn closing_as_next_opening(
        &self,
        mention: &[String],
        year: Option<i32>,
        mention_text: &str,
    ) -> Option<Operand> {
        let y = year?;
        let years = self.years();
        if years.contains(&y)
            || !years.contains(&(y + 1))
            || boundary_of_mention(mention) == Some(Boundary::Beginning)
        {
            return None;
        }
        let boundary = &self.page.row_boundary;
        let opening = boundary
            .iter()
            .position(|b| *b == Some(Boundary::Beginning))?;
        let ranked = self.candidates(mention, Some(y + 1));
        let (_, Target::Cell(k), _) = ranked.first()? else {
            return None;
        };
        let closing = &self.schema.cells[*k];
        if boundary[closing.row] != Some(Boundary::End) {
            return None;
        }
        let cell = self
            .schema
            .cells
            .iter()
            .position(|c| c.row == opening && c.column == closing.column)?;
        let note = format!(
            "{mention_text} (the end of {y} is the beginning of {})",
            y + 1
        );
        let mut f = FeatureVector::default();
        f.set(Feature::boundary_agrees, 1.0);
        let t = Target::Cell(cell);
        let mut o = self.grounded(t, Some(y + 1), note, &[(f.score(self.weights), t, f)]);
        o.year = Some(y);
        Some(o)
    }

    /// The year a year-end table answers the beginning of `year` with: the
    /// beginning of a year is the end of the one before, when the mention
    /// says beginning, no row or column of the page says beginning, the
    /// columns are dates alone or the dated rows each end a year, and the
    /// table has a column (or row) for the year before.
    pub(super) fn opening_year(
        &self,
        boundary: Option<Boundary>,
        year: Option<i32>,
    ) -> Option<i32> {
        let y = year?;
        let says_beginning = |b: &[Option<Boundary>]| b.contains(&Some(Boundary::Beginning));
        // the columns are years or dates alone ("2002", "december 31 ,
        // 2002"): levels at each year's end
        let year_columns: Vec<&String> = self
            .schema
            .columns
            .iter()
            .filter(|(_, y)| y.is_some())
            .map(|(l, _)| l)
            .collect();
        let dates_alone = year_columns.len() >= 2
            && year_columns.iter().all(|l| {
                words::tokens(l).iter().all(|t| {
                    words::month_number(t).is_some() || !t.chars().any(char::is_alphabetic)
                })
            });
        // or the rows that print a year are each a level at a year's end
        // ("outstanding at december 31 , 2009")
        let dated_rows: Vec<usize> = (0..self.schema.rows.len())
            .filter(|&r| self.schema.rows[r].1.is_some())
            .collect();
        let row_ends = dated_rows.len() >= 2
            && dated_rows
                .iter()
                .all(|&r| self.page.row_boundary.get(r) == Some(&Some(Boundary::End)));
        (boundary == Some(Boundary::Beginning)
            && (dates_alone || row_ends)
            && !says_beginning(&self.page.row_boundary)
            && !says_beginning(&self.page.column_boundary)
            && self.years().contains(&(y - 1)))
        .then_some(y - 1)
    }

    /// A row whose label holds every word of the mention but whose cell
    /// for `year` is blank (the winner's row too, when the winner is its
    /// cell of another year) ("--", "n/a") while the
    /// table has a column for that year: the value asked is not printed,
    /// and another row's number would be a wrong answer.
    fn blank_named_row(&self, own: &[&String], winner: &CellEntry, year: i32) -> Option<usize> {
        if own.is_empty() {
            return None;
        }
        let year_columns: Vec<usize> = self
            .schema
            .cells
            .iter()
            .filter(|c| c.column_year == Some(year))
            .map(|c| c.column)
            .collect();
        if year_columns.is_empty() {
            return None;
        }
        let named = |row: usize| {
            own.iter()
                .all(|w| self.page.row_words[row].iter().any(|l| same_word(l, w)))
        };
        // the named row's own cell of that year wins: nothing is blank
        if named(winner.row) && winner.column_year == Some(year) {
            return None;
        }
        (0..self.schema.rows.len()).find(|&row| {
            named(row)
                && !self
                    .schema
                    .cells
                    .iter()
                    .any(|c| c.row == row && year_columns.contains(&c.column))
        })
    }

    fn anchored(mut o: Operand, year: Option<i32>) -> Operand {
        // "and in 2007?": no words of its own, the row asked before
        o.grounding = Some(GroundingNote {
            mention: format!(
                "(the row or sentence of the value asked before){}",
                year.map(|y| format!(" in {y}")).unwrap_or_default()
            ),
            candidates: vec![CandidateNote {
                source: match &o.spec {
                    crate::turn::ValueSpec::Sparql { description, .. } => description.clone(),
                    other => format!("{other:?}"),
                },
                score: 0.0,
                features: vec![("same_row_as_before".into(), 0.0)],
            }],
        });
        o
    }

    /// The winning candidate `t` as an operand, with a note of the best
    /// three candidates and the features that decided each.
    fn grounded(
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

    /// The weight of the mention's words found in `label` (each word's
    /// rarity, at least 0.3).
    pub fn overlap(&self, q: &[&String], label: &[String]) -> f64 {
        self.weigh(q.iter().filter(|w| label.iter().any(|l| same_word(l, w))))
    }

    /// The total weight of some of a mention's words (each word's rarity,
    /// at least 0.3).
    pub(super) fn weigh<'w>(&self, words: impl Iterator<Item = &'w &'w String>) -> f64 {
        words.map(|w| self.weight(w).max(0.3)).sum()
    }

    /// Whether some row or column label carries `w`.
    pub(super) fn labelled(&self, w: &str) -> bool {
        self.page
            .row_words
            .iter()
            .chain(&self.page.column_words)
            .any(|l| l.iter().any(|x| same_word(x, w)))
    }

    /// Share of the mention's adjacent word pairs that sit adjacent in `label`.
    pub(super) fn phrase_share(mention: &[String], label: &[String]) -> f64 {
        if mention.len() < 2 || label.len() < 2 {
            return 0.0;
        }
        let pairs = mention.len() - 1;
        let hits = mention
            .windows(2)
            .filter(|m| {
                label
                    .windows(2)
                    .any(|l| same_word(&l[0], &m[0]) && same_word(&l[1], &m[1]))
            })
            .count();
        hits as f64 / pairs as f64
    }
}

/// The beginning or end a mention's marker says.
fn boundary_of_mention(mention: &[String]) -> Option<Boundary> {
    if mention.iter().any(|w| w == BEGINNING_MARK) {
        Some(Boundary::Beginning)
    } else if mention.iter().any(|w| w == END_MARK) {
        Some(Boundary::End)
    } else {
        None
    }
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
    use super::cues::{split_year_ranges, year_ranges};
    year_ranges(&split_year_ranges(question), &cues.asked_range_joiner)
}

/// Words that meet: equal, one a short extension of the other ("africa"
/// and "african", "europ" and "european"), or an adjective and its
/// comparison ("low" and "lowest", "high" and "higher").
pub(super) fn same_word(a: &str, b: &str) -> bool {
    if a == b {
        return true;
    }
    let (short, long) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    let extension = long.len() - short.len();
    (short.len() >= 4
        && (extension <= 2 || short.len() >= 5 && extension <= 3)
        && long.starts_with(short))
        || words::compared(short, long)
        || one_typo_apart(short, long)
}

/// Two long words (seven letters or more, the same first letter) one
/// typing slip apart: a letter left out, added, changed, or two swapped
/// ("lousiana" for "louisiana").
fn one_typo_apart(short: &str, long: &str) -> bool {
    let (s, l) = (short.as_bytes(), long.as_bytes());
    if s.len() < 7 || l.len() - s.len() > 1 || s[0] != l[0] {
        return false;
    }
    let head = s.iter().zip(l).take_while(|(x, y)| x == y).count();
    if s.len() == l.len() {
        let tail_same = |from: usize| s[from..] == l[from..];
        // one letter changed, or two neighbours swapped
        head == s.len()
            || tail_same(head + 1)
            || (head + 1 < s.len()
                && s[head] == l[head + 1]
                && s[head + 1] == l[head]
                && tail_same(head + 2))
    } else {
        // one letter left out of the shorter
        s[head..] == l[head + 1..]
    }
}

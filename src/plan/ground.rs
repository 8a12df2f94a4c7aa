//! Grounding: which table cell or text number a mention names.
//!
//! A mention is the words a question uses for a value plus the year it asks
//! about. Every numeric cell and every number of the text is a candidate;
//! each gets a vector of general [`Feature`]s (word overlap weighted by
//! rarity on the page, phrase matches, year agreement, cues like "total" or
//! "beginning", the learned lexicon's synonyms, what earlier turns grounded)
//! and its score is their dot product with one table of [`Weights`]. The best
//! candidate wins when it scores above the floor; otherwise the mention is
//! not grounded and the turn answers null with the reason.
//!
//! The default weights were fitted on the tune half of the public split
//! (`FINKG_GROUNDING_WEIGHTS` points at a JSON object of overrides, by
//! feature name, for refitting) and read on the other half.

use super::cues::{boundary_of, Boundary, Cues, BEGINNING_MARK, END_MARK};
use super::operand::{cell_operand, fact_operand, header_operand, GroundingNote, Operand, Whole};
use crate::kg::{CellEntry, FactEntry, Schema};
use crate::planner::PlanError;
use crate::trace::CandidateNote;
use crate::turn::Scale;
use crate::words::{self, content_words};
use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::hash::{Hash, Hasher};
use std::rc::Rc;

macro_rules! features {
    ($($name:ident = $weight:expr, $doc:literal;)*) => {
        /// A feature of a grounding candidate; its weight is in [`Weights`].
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        #[allow(non_camel_case_types)]
        pub enum Feature {
            $(#[doc = $doc] $name,)*
        }

        impl Feature {
            /// Every feature, in the order of a feature vector.
            pub const ALL: &'static [Feature] = &[$(Feature::$name,)*];

            /// The feature's name, as in a weights file.
            pub fn name(self) -> &'static str {
                match self {
                    $(Feature::$name => stringify!($name),)*
                }
            }
        }

        /// The default weight of each feature, in [`Feature::ALL`]'s order.
        const DEFAULT_WEIGHTS: [f64; Feature::ALL.len()] = [$($weight,)*];
    };
}

features! {
    label_match = 1.0, "Share of the mention's words (weighted by rarity) found in the cell's row, column or row concept labels.";
    row_cover = 0.25, "Share of the row label's words the mention covers.";
    no_word_match = 0.0, "The mention has words of its own and the candidate's labels, context and sentence hold none of them.";
    caption_match = 0.0, "Share of the mention's words found in the sentence just before the table, which often names what the table measures.";
    phrase = 1.2, "Share of the mention's adjacent word pairs found adjacent in the row label or the number's sentence.";
    total_row_for_column = 0.2, "The mention names only a column, and the cell is in a total row.";
    total_asked = 0.15, "The question says \"total\" and the cell is in a total row or column.";
    total_column_for_row = 0.2, "The mention names only a row, and the cell is in a total column.";
    cell_percent_unasked = -0.3, "A percentage cell when the question asks for no rate or percentage.";
    cell_year_match = 1.2, "The cell's column (or row) year is the year asked.";
    cell_year_other = -1.5, "The cell's year is another year than the one asked.";
    cell_year_in_label = 0.8, "The cell has no year of its own, but its labels print the year asked.";
    cell_year_absent = -0.3, "A year is asked and the cell's labels print none.";
    printed_year_match = 0.0, "A date column whose fiscal year differs from the year asked prints the year asked (\"january 3 2009\" asked as 2009).";
    name_year_match = 0.5, "Years name a few rows (not the period axis) and the row names the year asked.";
    name_year_other = -1.0, "Years name a few rows and the row names another year.";
    column_position = -0.02, "No year asked: the column's position (the first column is the latest).";
    boundary_agrees = 0.5, "The mention says beginning or end of a period, and the row or column says the same.";
    boundary_conflicts = -0.5, "The mention says beginning (end) and the row or column says end (beginning).";
    context_match = 0.7, "Share of the mention's words found in the words around a text number.";
    sentence_match = 0.3, "Share of the mention's words found in the number's sentence.";
    fact_year_match = 0.9, "The text number's year is the year asked.";
    fact_year_other = -1.0, "The text number's year is another year.";
    fact_year_in_sentence = 0.4, "The number has no year of its own, but its sentence prints the year asked.";
    fact_year_absent = -0.5, "A year is asked and the number's sentence prints none.";
    fact_percent_unasked = -0.5, "A percentage in the text when the question asks for no rate or percentage.";
    header_source = -0.2, "The candidate is a number printed in a column header (a first row the table lost into its header).";
    text_source = -0.15, "The candidate is a number of the text (the table is the first place to look).";
    sentence_position = -0.001, "The sentence's position on the page.";
    quarter_match = 0.5, "The question names a quarter and the cell's labels name the same one (by name or closing date).";
    quarter_other = -0.5, "The question names a quarter and the cell's labels name another.";
    scale_agrees = 0.4, "The question asks for a scale (\"in millions\") the candidate prints.";
    earlier_row = 0.05, "An earlier turn of the conversation read the same row or sentence.";
}

/// The weight of each feature.
#[derive(Debug, Clone, PartialEq)]
pub struct Weights {
    w: [f64; Feature::ALL.len()],
    /// The score a candidate must pass to be grounded.
    pub floor: f64,
}

impl Default for Weights {
    fn default() -> Self {
        Self {
            w: DEFAULT_WEIGHTS,
            floor: 0.05,
        }
    }
}

impl Weights {
    /// The weight of one feature.
    pub fn get(&self, f: Feature) -> f64 {
        self.w[f as usize]
    }

    /// The defaults with the overrides of a JSON object (`{"phrase": 0.4,
    /// "floor": 0.1}`); an unknown name is an error.
    pub fn with_overrides(json: &str) -> Result<Self, String> {
        let map: HashMap<String, f64> =
            serde_json::from_str(json).map_err(|e| format!("grounding weights: {e}"))?;
        let mut w = Self::default();
        for (name, value) in map {
            if name == "floor" {
                w.floor = value;
                continue;
            }
            let f = Feature::ALL
                .iter()
                .find(|f| f.name() == name)
                .ok_or_else(|| format!("grounding weights: no feature named `{name}`"))?;
            w.w[*f as usize] = value;
        }
        Ok(w)
    }

    /// The weights in force: the defaults, or the overrides of the file
    /// `FINKG_GROUNDING_WEIGHTS` names.
    pub fn from_env() -> Result<Self, String> {
        match std::env::var_os("FINKG_GROUNDING_WEIGHTS") {
            None => Ok(Self::default()),
            Some(path) => {
                let text = std::fs::read_to_string(&path)
                    .map_err(|e| format!("{}: {e}", path.to_string_lossy()))?;
                Self::with_overrides(&text)
            }
        }
    }
}

/// A candidate's feature values.
#[derive(Debug, Clone, PartialEq)]
pub struct FeatureVector([f64; Feature::ALL.len()]);

impl Default for FeatureVector {
    fn default() -> Self {
        Self([0.0; Feature::ALL.len()])
    }
}

impl FeatureVector {
    fn set(&mut self, f: Feature, v: f64) {
        self.0[f as usize] = v;
    }

    fn score(&self, w: &Weights) -> f64 {
        self.0.iter().zip(w.w.iter()).map(|(x, w)| x * w).sum()
    }

    /// The features that moved the score most, with their contributions.
    fn deciding(&self, w: &Weights, n: usize) -> Vec<(&'static str, f64)> {
        let mut c: Vec<(&'static str, f64)> = Feature::ALL
            .iter()
            .map(|f| (f.name(), self.0[*f as usize] * w.get(*f)))
            .filter(|(_, c)| c.abs() > 1e-9)
            .collect();
        c.sort_by(|a, b| b.1.abs().total_cmp(&a.1.abs()));
        c.truncate(n);
        c
    }
}

#[derive(Debug, Clone, Copy)]
enum Target {
    Cell(usize),
    Fact(usize),
    Header(usize),
}

/// Grounds mentions in the page's cells and text facts.
pub(super) struct Grounder<'a> {
    schema: &'a Schema,
    weights: &'a Weights,
    /// What the grounder knows of the page, whatever the question.
    page: Rc<PageIndex>,
    /// The question asks for a rate or percentage, so printed percentages fit.
    wants_percent: bool,
    /// The question says "total".
    asks_total: bool,
    /// The scale word the question asks its answer in.
    asked_scale: Option<String>,
    /// The quarter the question names.
    asked_quarter: Option<u8>,
    /// For mentions with these (inherited) words, the row label or text
    /// context of the value they were inherited from.
    pub anchor: Option<(Vec<String>, String)>,
    /// Row labels and text contexts earlier turns read.
    pub earlier: HashSet<String>,
}

/// The page's words and structure as the grounder reads them, built once a
/// page (the turns of a conversation share it) and independent of the
/// question.
struct PageIndex {
    /// What it was built from (see [`page_key`]).
    key: u64,
    idf: HashMap<String, f64>,
    row_words: Vec<Vec<String>>,
    /// Words of each row's lexicon concept labels (other reports' names for
    /// the row's metric); empty without the lexicon.
    row_alias_words: Vec<Vec<String>>,
    column_words: Vec<Vec<String>>,
    /// Which rows and columns are totals.
    row_is_total: Vec<bool>,
    column_is_total: Vec<bool>,
    row_boundary: Vec<Option<Boundary>>,
    column_boundary: Vec<Option<Boundary>>,
    /// The quarter each row and column label names.
    row_quarter: Vec<Option<u8>>,
    column_quarter: Vec<Option<u8>>,
    /// No column names a year and fewer than half the rows do: those years
    /// are part of a few rows' names, not the table's period axis.
    row_years_are_names: bool,
    fact_words: Vec<(Vec<String>, Vec<String>)>,
    /// Words of the sentence just before the table.
    caption_words: Vec<String>,
    /// Every year the page speaks of: in labels (as printed and as fiscal
    /// years), cells, text numbers and sentences.
    page_years: HashSet<i32>,
    /// Every word the page prints, for [`Grounder::knows`].
    vocabulary: HashSet<String>,
}

thread_local! {
    /// The last page indexed on this thread: a conversation's turns come
    /// one after another, so each page is indexed once.
    static LAST_PAGE: RefCell<Option<Rc<PageIndex>>> = const { RefCell::new(None) };
}

/// A fingerprint of what a page index is built from.
fn page_key(schema: &Schema, lexicon: bool) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    lexicon.hash(&mut h);
    schema.rows.hash(&mut h);
    schema.columns.hash(&mut h);
    schema.row_concept_labels.hash(&mut h);
    schema.sentences.hash(&mut h);
    schema.pre_text_sentences.hash(&mut h);
    schema.facts.len().hash(&mut h);
    for f in &schema.facts {
        (f.sentence, f.token, &f.context, f.year).hash(&mut h);
    }
    h.finish()
}

/// A label's boundary: cue words, or a date on the first or last day of a year.
fn label_boundary(label: &str, cues: &Cues) -> Option<Boundary> {
    let toks = words::tokens(label);
    let stems: Vec<String> = toks.iter().map(|t| words::stem(t)).collect();
    if let Some(b) = boundary_of(&stems, cues) {
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

impl PageIndex {
    fn new(schema: &Schema, lexicon: bool, cues: &Cues, key: u64) -> Self {
        let row_words: Vec<Vec<String>> =
            schema.rows.iter().map(|(l, _)| content_words(l)).collect();
        let row_alias_words: Vec<Vec<String>> = (0..schema.rows.len())
            .map(|i| match schema.row_concept_labels.get(i) {
                Some(labels) if lexicon => labels
                    .iter()
                    .flat_map(|l| content_words(l))
                    .filter(|w| !row_words[i].contains(w))
                    .collect(),
                _ => Vec::new(),
            })
            .collect();
        let column_words: Vec<Vec<String>> = schema
            .columns
            .iter()
            .map(|(l, _)| content_words(l))
            .collect();
        let fact_words: Vec<(Vec<String>, Vec<String>)> = schema
            .facts
            .iter()
            .map(|f| (content_words(&f.context), content_words(&f.sentence_text)))
            .collect();
        let sentence_words: Vec<Vec<String>> =
            schema.sentences.iter().map(|s| content_words(s)).collect();
        let mut df: HashMap<String, usize> = HashMap::new();
        for d in row_words
            .iter()
            .chain(column_words.iter())
            .chain(sentence_words.iter())
        {
            let unique: HashSet<&String> = d.iter().collect();
            for w in unique {
                *df.entry(w.clone()).or_insert(0) += 1;
            }
        }
        let n = (row_words.len() + column_words.len() + sentence_words.len()).max(1) as f64;
        let idf: HashMap<String, f64> = df
            .into_iter()
            .map(|(w, d)| (w, (1.0 + n / d as f64).ln()))
            .collect();
        let total_word = cues.total_word.as_str();
        let is_total = |label: &str| words::tokens(label).iter().any(|w| w == total_word);
        let rows_with_years = schema.rows.iter().filter(|(_, y)| y.is_some()).count();
        let row_years_are_names = schema.columns.iter().all(|(_, y)| y.is_none())
            && rows_with_years > 0
            && rows_with_years * 2 < schema.rows.len();
        let mut page_years: HashSet<i32> = HashSet::new();
        for (label, year) in schema.rows.iter().chain(schema.columns.iter()) {
            page_years.extend(year.iter().copied());
            page_years.extend(words::years_in(label));
            page_years.extend(words::printed_years(label));
        }
        page_years.extend(schema.facts.iter().filter_map(|f| f.year));
        for s in &schema.sentences {
            page_years.extend(s.split_whitespace().flat_map(words::printed_years));
        }
        let caption_words = schema
            .pre_text_sentences
            .checked_sub(1)
            .and_then(|i| sentence_words.get(i))
            .cloned()
            .unwrap_or_default();
        let vocabulary = idf
            .keys()
            .cloned()
            .chain(row_alias_words.iter().flatten().cloned())
            .collect();
        Self {
            key,
            vocabulary,
            caption_words,
            page_years,
            row_years_are_names,
            row_is_total: schema.rows.iter().map(|(l, _)| is_total(l)).collect(),
            column_is_total: schema.columns.iter().map(|(l, _)| is_total(l)).collect(),
            row_boundary: schema
                .rows
                .iter()
                .map(|(l, _)| label_boundary(l, cues))
                .collect(),
            column_boundary: schema
                .columns
                .iter()
                .map(|(l, _)| label_boundary(l, cues))
                .collect(),
            row_quarter: schema
                .rows
                .iter()
                .map(|(l, _)| words::quarter_in(l))
                .collect(),
            column_quarter: schema
                .columns
                .iter()
                .map(|(l, _)| words::quarter_in(l))
                .collect(),
            idf,
            row_words,
            row_alias_words,
            column_words,
            fact_words,
        }
    }
}

impl<'a> Grounder<'a> {
    pub fn new(
        schema: &'a Schema,
        question: &str,
        lexicon: bool,
        weights: &'a Weights,
        cues: &Cues,
        asked_scale: Option<String>,
    ) -> Self {
        let key = page_key(schema, lexicon);
        let page = LAST_PAGE.with(|last| {
            let mut last = last.borrow_mut();
            match last.as_ref() {
                Some(p) if p.key == key => Rc::clone(p),
                _ => {
                    let p = Rc::new(PageIndex::new(schema, lexicon, cues, key));
                    *last = Some(Rc::clone(&p));
                    p
                }
            }
        });
        let q = format!(" {} ", words::tokens(question).join(" "));
        let wants_percent =
            cues.percent.iter().any(|w| q.contains(w.as_str())) || question.contains('%');
        let asks_total = words::tokens(question).contains(&cues.total_word);
        Self {
            schema,
            weights,
            page,
            wants_percent,
            asks_total,
            asked_scale,
            asked_quarter: words::quarter_in(question),
            anchor: None,
            earlier: HashSet::new(),
        }
    }

    /// Whether the page prints a word (in a label, a concept label or a
    /// sentence).
    pub fn knows(&self, w: &str) -> bool {
        self.page.vocabulary.contains(w) || self.page.vocabulary.iter().any(|k| same_word(k, w))
    }

    fn weight(&self, w: &str) -> f64 {
        self.page.idf.get(w).copied().unwrap_or(0.0)
    }

    /// Years the table's columns (or rows) name, ascending.
    pub fn years(&self) -> Vec<i32> {
        let mut ys: Vec<i32> = self.schema.columns.iter().filter_map(|(_, y)| *y).collect();
        if ys.len() < 2 {
            ys = self.schema.rows.iter().filter_map(|(_, y)| *y).collect();
        }
        ys.sort_unstable();
        ys.dedup();
        ys
    }

    /// The total a table cell is a part of: a "total" row in its column or
    /// a "total" column in its row, the one whose label best matches
    /// `whole`; in a table with no totals at all, the sum of its column.
    pub fn total_for(&self, part: &Operand, whole: &[String]) -> Option<Whole> {
        let (row, column) = part.cell?;
        let q: Vec<&String> = whole.iter().collect();
        let mut best: Option<(f64, &CellEntry)> = None;
        for c in &self.schema.cells {
            let (label, total) = if c.column == column && c.row != row {
                (&self.page.row_words[c.row], self.page.row_is_total[c.row])
            } else if c.row == row && c.column != column {
                (
                    &self.page.column_words[c.column],
                    self.page.column_is_total[c.column],
                )
            } else {
                continue;
            };
            if !total {
                continue;
            }
            let score = self.overlap(&q, label) - 0.01 * label.len() as f64;
            if best.as_ref().is_none_or(|(s, _)| score > *s) {
                best = Some((score, c));
            }
        }
        if let Some((_, c)) = best {
            return Some(Whole::One(cell_operand(c)));
        }
        let any_total = self
            .page
            .row_is_total
            .iter()
            .chain(&self.page.column_is_total)
            .any(|t| *t);
        let cells: Vec<&CellEntry> = self
            .schema
            .cells
            .iter()
            .filter(|c| c.column == column)
            .collect();
        if any_total || cells.len() < 3 || cells.iter().any(|c| c.percent) {
            return None;
        }
        Some(Whole::Sum(cells.into_iter().map(cell_operand).collect()))
    }

    /// The cell of the same row and column year as `o` that sits nearest
    /// `other`'s column, when the table prints that year in more than one
    /// column.
    pub fn nearest_twin(&self, o: Operand, other: &Operand) -> Operand {
        let (Some((row, column)), Some((_, other_column))) = (o.cell, other.cell) else {
            return o;
        };
        let Some(year) = self
            .schema
            .cells
            .iter()
            .find(|c| c.row == row && c.column == column)
            .and_then(|c| c.column_year)
        else {
            return o;
        };
        let twin = self
            .schema
            .cells
            .iter()
            .filter(|c| c.row == row && c.column != column && c.column_year == Some(year))
            .min_by_key(|c| c.column.abs_diff(other_column));
        match twin {
            Some(c) if c.column.abs_diff(other_column) < column.abs_diff(other_column) => {
                cell_operand(c)
            }
            _ => o,
        }
    }

    /// The cell of the row labelled `label` for `year`.
    pub fn cell_in_row(&self, label: &str, year: i32) -> Option<Operand> {
        let cells: Vec<&CellEntry> = self
            .schema
            .cells
            .iter()
            .filter(|c| c.row_label == label && c.column_year.or(c.row_year) == Some(year))
            .collect();
        match cells.as_slice() {
            [cell] => Some(cell_operand(cell)),
            _ => None,
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
            return Some(cell_operand(cell));
        }
        let from = self.schema.facts.iter().find(|f| &f.context == label)?;
        self.schema
            .facts
            .iter()
            .filter(|f| f.sentence == from.sentence && f.year == Some(year) && !f.is_year_mention)
            .min_by_key(|f| f.token.abs_diff(from.token))
            .map(fact_operand)
    }

    /// Every candidate for a mention with its features and score, best first
    /// (ties keep the page's order: cells, then the text).
    fn candidates(
        &self,
        mention: &[String],
        year: Option<i32>,
    ) -> Vec<(f64, Target, FeatureVector)> {
        let boundary = if mention.iter().any(|w| w == BEGINNING_MARK) {
            Some(Boundary::Beginning)
        } else if mention.iter().any(|w| w == END_MARK) {
            Some(Boundary::End)
        } else {
            None
        };
        let mention: Vec<String> = mention
            .iter()
            .filter(|w| !w.starts_with('@'))
            .cloned()
            .collect();
        let mention = mention.as_slice();
        let q: Vec<&String> = {
            let mut seen = HashSet::new();
            mention.iter().filter(|w| seen.insert(w.as_str())).collect()
        };
        let q_weight: f64 = q
            .iter()
            .map(|w| self.weight(w).max(0.3))
            .sum::<f64>()
            .max(1e-9);
        let mut out: Vec<(f64, Target, FeatureVector)> = Vec::new();
        for (k, cell) in self.schema.cells.iter().enumerate() {
            let f = self.cell_features(cell, &q, q_weight, year, mention, boundary);
            out.push((f.score(self.weights), Target::Cell(k), f));
        }
        for (k, fact) in self.schema.facts.iter().enumerate() {
            if fact.is_year_mention {
                continue;
            }
            let f = self.fact_features(k, fact, &q, q_weight, year, mention);
            out.push((f.score(self.weights), Target::Fact(k), f));
        }
        for (k, h) in self.schema.header_numbers.iter().enumerate() {
            let f = self.header_features(h, &q, q_weight, year, mention);
            out.push((f.score(self.weights), Target::Header(k), f));
        }
        out.sort_by(|a, b| b.0.total_cmp(&a.0));
        out
    }

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

    /// The cell or text number a mention names, for a year.
    pub fn ground(&self, mention: &[String], year: Option<i32>) -> Result<Operand, PlanError> {
        if let Some(mut o) = self.ground_anchor(mention, year) {
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
        if let Some(y) = year.filter(|y| !self.page.page_years.contains(y)) {
            return Err(PlanError::NotGrounded {
                mention: format!(
                    "{mention_text} (no label, cell or sentence of the page is about {y})"
                ),
            });
        }
        let own: Vec<&String> = mention.iter().filter(|w| !w.starts_with('@')).collect();
        if !own.is_empty() && !own.iter().any(|w| self.knows(w)) {
            return Err(PlanError::NotGrounded {
                mention: format!("{mention_text} (the page prints none of these words)"),
            });
        }
        let ranked = self.candidates(mention, year);
        match ranked.first() {
            Some((s, t, _)) if *s > self.weights.floor => {
                let mut o = match *t {
                    Target::Cell(k) => cell_operand(&self.schema.cells[k]),
                    Target::Fact(k) => fact_operand(&self.schema.facts[k]),
                    Target::Header(k) => header_operand(&self.schema.header_numbers[k]),
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
                Ok(o)
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

    pub fn overlap(&self, q: &[&String], label: &[String]) -> f64 {
        q.iter()
            .filter(|w| label.iter().any(|l| same_word(l, w)))
            .map(|w| self.weight(w).max(0.3))
            .sum()
    }

    /// Share of the mention's adjacent word pairs that sit adjacent in `label`.
    fn phrase_share(mention: &[String], label: &[String]) -> f64 {
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

    fn cell_features(
        &self,
        cell: &CellEntry,
        q: &[&String],
        q_weight: f64,
        year: Option<i32>,
        mention: &[String],
        boundary: Option<Boundary>,
    ) -> FeatureVector {
        use Feature as F;
        let mut f = FeatureVector::default();
        let row = &self.page.row_words[cell.row];
        let col = &self.page.column_words[cell.column];
        let row_hit = self.overlap(q, row);
        let col_hit = self.overlap(q, col);
        // a word the row and the column both carry counts once
        let alias = &self.page.row_alias_words[cell.row];
        let hit: f64 = q
            .iter()
            .filter(|w| {
                row.iter()
                    .chain(col.iter())
                    .chain(alias.iter())
                    .any(|l| same_word(l, w))
            })
            .map(|w| self.weight(w).max(0.3))
            .sum();
        f.set(F::label_match, hit / q_weight);
        let caption_hit = self.overlap(q, &self.page.caption_words);
        f.set(F::caption_match, caption_hit / q_weight);
        if hit == 0.0 && caption_hit == 0.0 && !q.is_empty() {
            f.set(F::no_word_match, 1.0);
        }
        if !row.is_empty() {
            let covered = row
                .iter()
                .filter(|w| q.iter().any(|x| same_word(x, w)))
                .count();
            f.set(F::row_cover, covered as f64 / row.len() as f64);
        }
        f.set(
            F::phrase,
            Self::phrase_share(mention, row).max(Self::phrase_share(mention, col)),
        );
        if row_hit == 0.0 && col_hit > 0.0 && self.page.row_is_total[cell.row] {
            f.set(F::total_row_for_column, 1.0);
        }
        if col_hit == 0.0
            && row_hit > 0.0
            && cell.column_year.is_none()
            && self.page.column_is_total[cell.column]
        {
            f.set(F::total_column_for_row, 1.0);
        }
        if self.asks_total
            && (self.page.row_is_total[cell.row] || self.page.column_is_total[cell.column])
        {
            f.set(F::total_asked, 1.0);
        }
        if cell.percent && !self.wants_percent {
            f.set(F::cell_percent_unasked, 1.0);
        }
        if let Some(b) = boundary {
            // the row's cue speaks first ("balance at january 1" in a column
            // "year ended december 31")
            match self.page.row_boundary[cell.row].or(self.page.column_boundary[cell.column]) {
                Some(l) if l == b => f.set(F::boundary_agrees, 1.0),
                Some(_) => f.set(F::boundary_conflicts, 1.0),
                None => {}
            }
        }
        if let Some(asked) = &self.asked_scale {
            let printed = crate::kg::schema::label_scale(&cell.column_label)
                .or_else(|| crate::kg::schema::label_scale(&cell.row_label));
            if printed.as_ref().map(Scale::word) == Some(asked.as_str()) {
                f.set(F::scale_agrees, 1.0);
            }
        }
        if let Some(q) = self.asked_quarter {
            let labels = [
                self.page.row_quarter[cell.row],
                self.page.column_quarter[cell.column],
            ];
            if labels.contains(&Some(q)) {
                f.set(F::quarter_match, 1.0);
            } else if labels.iter().flatten().any(|l| *l != q) {
                f.set(F::quarter_other, 1.0);
            }
        }
        if self.earlier.contains(&cell.row_label) {
            f.set(F::earlier_row, 1.0);
        }
        let cell_year = cell.column_year.or(cell.row_year);
        if self.page.row_years_are_names && cell.column_year.is_none() {
            // "2007 net revenue ... rider revenue ... 2008 net revenue": the
            // years name a few rows; a year asked does not rule out the others
            match (year, cell_year) {
                (Some(y), Some(cy)) if y == cy => f.set(F::name_year_match, 1.0),
                (Some(_), Some(_)) => f.set(F::name_year_other, 1.0),
                _ => {}
            }
            return f;
        }
        match (year, cell_year) {
            (Some(y), Some(cy)) if y == cy => f.set(F::cell_year_match, 1.0),
            (Some(y), Some(_)) => {
                f.set(F::cell_year_other, 1.0);
                let printed = words::printed_years(&cell.column_label);
                if printed.contains(&y) {
                    f.set(F::printed_year_match, 1.0);
                }
            }
            (Some(y), None) => {
                let label = format!("{} {}", cell.row_label, cell.column_label);
                if words::years_in(&label).contains(&y) {
                    f.set(F::cell_year_in_label, 1.0);
                } else {
                    f.set(F::cell_year_absent, 1.0);
                }
            }
            (None, _) => f.set(F::column_position, cell.column as f64),
        }
        f
    }

    fn header_features(
        &self,
        h: &crate::kg::schema::HeaderNumberEntry,
        q: &[&String],
        q_weight: f64,
        year: Option<i32>,
        mention: &[String],
    ) -> FeatureVector {
        use Feature as F;
        let mut f = FeatureVector::default();
        let label = content_words(&h.words);
        let hit = self.overlap(q, &label);
        let caption_hit = self.overlap(q, &self.page.caption_words);
        f.set(F::label_match, hit / q_weight);
        f.set(F::caption_match, caption_hit / q_weight);
        if hit == 0.0 && caption_hit == 0.0 && !q.is_empty() {
            f.set(F::no_word_match, 1.0);
        }
        f.set(F::phrase, Self::phrase_share(mention, &label));
        if h.percent && !self.wants_percent {
            f.set(F::cell_percent_unasked, 1.0);
        }
        match (year, h.year) {
            (Some(y), Some(hy)) if y == hy => f.set(F::cell_year_match, 1.0),
            (Some(_), Some(_)) => f.set(F::cell_year_other, 1.0),
            (Some(_), None) => f.set(F::cell_year_absent, 1.0),
            (None, _) => f.set(F::column_position, h.column as f64),
        }
        f.set(F::header_source, 1.0);
        f
    }

    fn fact_features(
        &self,
        k: usize,
        fact: &FactEntry,
        q: &[&String],
        q_weight: f64,
        year: Option<i32>,
        mention: &[String],
    ) -> FeatureVector {
        use Feature as F;
        let mut f = FeatureVector::default();
        let (ctx, sent) = &self.page.fact_words[k];
        let sentence_hit = self.overlap(q, sent);
        f.set(F::context_match, self.overlap(q, ctx) / q_weight);
        f.set(F::sentence_match, sentence_hit / q_weight);
        if sentence_hit == 0.0 && !q.is_empty() {
            f.set(F::no_word_match, 1.0);
        }
        f.set(F::phrase, Self::phrase_share(mention, sent));
        match (year, fact.year) {
            (Some(y), Some(fy)) if y == fy => f.set(F::fact_year_match, 1.0),
            (Some(_), Some(_)) => f.set(F::fact_year_other, 1.0),
            (Some(y), None) => {
                if fact.sentence_text.contains(&y.to_string()) {
                    f.set(F::fact_year_in_sentence, 1.0);
                } else {
                    f.set(F::fact_year_absent, 1.0);
                }
            }
            (None, _) => {}
        }
        if fact.percent && !self.wants_percent {
            f.set(F::fact_percent_unasked, 1.0);
        }
        if let (Some(asked), Some(printed)) = (&self.asked_scale, &fact.scale) {
            if printed.word() == asked.as_str() {
                f.set(F::scale_agrees, 1.0);
            }
        }
        if self.earlier.contains(&fact.context) {
            f.set(F::earlier_row, 1.0);
        }
        f.set(F::text_source, 1.0);
        f.set(F::sentence_position, fact.sentence as f64);
        f
    }
}

/// Words that meet: equal, or one a short extension of the other
/// ("africa" and "african").
pub(super) fn same_word(a: &str, b: &str) -> bool {
    if a == b {
        return true;
    }
    let (short, long) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    short.len() >= 4 && long.len() - short.len() <= 2 && long.starts_with(short)
}

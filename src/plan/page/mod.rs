//! The page as the grounder reads it: its words and their rarity, which rows
//! and columns are totals, which say beginning or end of a period, which
//! name a quarter, the years it speaks of. Built once a page (the turns of a
//! conversation share it) and independent of the question.

mod amounts;
mod captions;
mod facts;
mod labels;
mod lost_row;
mod periods;

use super::cues::{Boundary, Cues};
use crate::kg::Schema;
use crate::words::content_words;
use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::hash::{Hash, Hasher};
use std::rc::Rc;

pub(super) use facts::{words_after, words_before};
pub(super) use labels::page_synonyms;

/// The page's words and structure as the grounder reads them, built once a
/// page (the turns of a conversation share it) and independent of the
/// question.
#[derive(Default)]
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
    /// The specific words of the table's caption (the sentence just before
    /// it), which every cell is of.
    pub caption_words: Vec<String>,
    /// Content words of each column label.
    pub column_words: Vec<Vec<String>>,
    /// The specific words of each row label's head when the label is a
    /// part of something ("current portion" of "current portion of
    /// long-term debt"); empty for other rows (see [`head_of_part`]).
    pub row_head_words: Vec<Vec<String>>,
    /// Which rows measure an amount per unit of something ("net sales per
    /// square foot", "dividends declared per share").
    pub row_per_unit: Vec<bool>,
    /// Which columns measure an amount per unit of something.
    pub column_per_unit: Vec<bool>,
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

impl PageIndex {
    /// Whether a label or sentence of the page prints `phrase` (spaced and
    /// padded: " operating margin ").
    pub fn prints_phrase(&self, phrase: &str) -> bool {
        self.spaced_labels
            .iter()
            .chain(&self.spaced_sentences)
            .any(|l| l.contains(phrase))
    }

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

    /// Indexes a page, stage by stage: each stage reads what the stages
    /// before it filled in (the label words before the lost row's label
    /// clears its column, the text numbers' words before the rows borrow
    /// them, the row boundaries before the captions, ...).
    fn new(schema: &Schema, lexicon: bool, cues: &Cues) -> Self {
        let mut page = Self::default();
        let text_words = labels::text_words(schema, cues);
        page.index_labels(schema, lexicon, cues, &text_words);
        page.index_lost_row_label(schema, cues);
        let sentence_words: Vec<Vec<String>> =
            schema.sentences.iter().map(|s| content_words(s)).collect();
        page.index_facts(schema, cues, &sentence_words);
        page.index_amounts(schema, cues);
        page.index_periods(schema, cues);
        page.index_captions(schema, cues);
        page.index_lost_row_period(schema, cues);
        page.index_vocabulary(schema, &sentence_words);
        page.index_label_marks(schema, cues, &text_words);
        page
    }
}

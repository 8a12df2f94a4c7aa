//! The features of a grounding candidate and their weights.
//!
//! Every candidate (a table cell, a number printed in a column header, a
//! number of the text) gets a vector of general [`Feature`]s (word overlap
//! weighted by rarity on the page, phrase matches, year agreement, cues like
//! "total" or "beginning", the learned lexicon's synonyms, what earlier turns
//! grounded) and its score is their dot product with one table of
//! [`Weights`].
//!
//! The default weights were fitted on the tune half of the public split
//! (`FINKG_GROUNDING_WEIGHTS` points at a JSON object of overrides, by
//! feature name, for refitting) and read on the other half;
//! `benches/fit_weights.py` reads the defaults from the `features!` block
//! below.

use std::collections::HashMap;

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
    text_alias_match = 0.75, "Share of the mention's words (weighted by rarity) that no label of the cell prints but the text prints beside a number equal to the row's amount (the text's name for the row).";
    caption_match = 0.4, "Share of the mention's words (weighted by rarity) that no label of the cell prints but the table's caption (the sentence just before it) does: the caption names what every cell of the table is (\"the following unaudited pro forma information\").";
    stem_only_match = -0.2, "Share of the row and column labels' words the mention meets only by their stem, not their surface form (\"exercised\" or \"exercise\" for \"exercisable\").";
    row_cover = 0.25, "Share of the row label's words the mention covers.";
    column_cover = 0.1, "Share of the column label's words the mention covers.";
    numbered_phrase = 0.5, "The question prints a phrase of the cell's row or column label that holds a number other than a year (\"more than 5 years\", \"1-3 years\"), or a range of numbers (\"2016 to 2020\"): numbers and comparatives are not content words, so the words alone miss it.";
    phrase = 1.2, "Share of the mention's adjacent word pairs found adjacent in the row label or the number's sentence.";
    head_unmet = -0.3, "The mention meets the row label only after its head (\"long-term debt\" against \"current portion of long-term debt\"): the row is a part or a measure of what the question names.";
    catch_all_agrees = 0.5, "The question and the cell's row label both print a catch-all word (\"other revenues\", a row \"other\"): a stop word, so the words alone miss it.";
    total_row_for_column = 0.2, "The mention names only a column, and the cell is in a total row.";
    total_asked = 0.15, "The question says \"total\" and the cell is in a total row or column.";
    total_row_part_named = -1.0, "The cell is in a total row, the question does not say \"total\", and the mention names another row in full, one whose words the total's label does not all print (\"the operating income of the transportation segment\" beside \"transportation\" and \"total operating income\"): the words it shares with the total name the measure the parts share.";
    total_of_measure_named = 0.3, "The cell is in a total row whose label's other words the mention prints (\"net sales\" for \"total net sales\"), and another row prints them with a part's word (\"consumer net sales\"): a measure named without a part is the total.";
    total_column_for_row = 0.2, "The mention names only a row, and the cell is in a total column.";
    per_unit_unasked = -1.25, "The cell's row measures an amount per unit of something (\"net sales per square foot\") and neither the question nor the row the last turn read is per unit (\"what were net sales in fiscal 2012?\"): the row is a rate of what the question names, not the amount.";
    per_unit_unmet = -0.5, "The question says per (\"diluted earnings per share\") and the text number is a total in a scale (\"$ 71.8 million\"), which no amount per unit is.";
    cell_percent_unasked = -0.3, "A percentage cell when the question asks for no rate or percentage.";
    label_percent_unasked = -0.8, "The cell's row or column label marks a percentage (\"2012 % of total\", \"percent change\") when the question asks for no rate or percentage: the label's words (\"total\") name what the rate is of.";
    label_change_unasked = -1.0, "The cell's row or column label states a change or an effect (\"change in net interest income\", \"effect on 2011 pension expense\", \"1% increase\") and the question prints no such word: it asks for the level.";
    cell_year_match = 1.2, "The cell's column (or row) year is the year asked.";
    cell_year_other = -1.5, "The cell's year is another year than the one asked.";
    range_other = -1.0, "The question prints a range of years a row label prints (\"2018-2022\"), and the candidate's row is a single year (or the first row the table lost into its headers).";
    cell_year_in_label = 0.8, "The cell has no year of its own, but its labels print the year asked.";
    cell_year_in_caption = 0.8, "No label of the table prints a year, and the table's caption (the sentence just before it) names one year, the year asked (\"sales by geographic area for the year ended december 31 , 2012\").";
    cell_year_absent = -0.3, "A year is asked and the cell's labels print none.";
    date_match = 0.3, "The question prints the column's date (\"january 3, 2009\", or its month and year): it names that column (the year counts as matched).";
    name_year_match = 0.5, "Years name a few rows (not the period axis) and the row names the year asked.";
    name_year_other = -1.0, "Years name a few rows and the row names another year.";
    column_position = -0.02, "No year asked: the column's position (the first column is the latest).";
    boundary_agrees = 0.5, "The mention says beginning or end of a period, and the row or column says the same.";
    beginning_unasked = -0.1, "The mention says neither beginning nor end of a period, and the row is a period's beginning (\"balance at january 1\"): a year's level is its end's.";
    count_of_price = -0.5, "The question asks how many, and the cell's column prices one unit (\"weighted average exercise price per share\").";
    boundary_flow = -0.4, "The mention says beginning or end of a period, and the row is a flow of a roll-forward (neither its opening nor its closing balance row).";
    boundary_conflicts = -0.5, "The mention says beginning (end) and the row or column says end (beginning).";
    total_introduces = 0.4, "The question says \"total\" and the word stands just before the text number (\"for a total of $ 2.145\"): of the sentence's numbers of one measure, the one the text calls the total.";
    restatement_asked = 0.6, "A text number in brackets that restates the amount before it (\"$ 48.3 million ( $ 30.9 million after-tax )\"), and the question prints the words that say how (\"after-tax\").";
    restatement_unasked = -0.6, "A text number in brackets that restates the amount before it, and the question does not print the words that say how: the amount before the brackets is the one named plainly.";
    context_match = 0.7, "Share of the mention's words found in the words around a text number.";
    neighbour_words = -0.4, "Share of the mention's words (weighted by rarity) that the number's context holds only where they belong to another amount of its sentence (\"$ 245 million was allocated to goodwill and $ 290 million to intangible assets\": goodwill is the first amount's).";
    left_out_named = -0.8, "Share of the mention's words (weighted by rarity) that the number's sentence prints only in a phrase naming what its amounts leave out (\"net operating revenues , before the provision for doubtful accounts , were $ 6,962 million\" for \"the provision for doubtful accounts\"), when the question prints no such qualifier.";
    contribution_unasked = -0.8, "A text number a subject contributes to a measure (\"the acquisition of ossitek contributed $ 47 million of trauma sales\") when the mention meets none of the subject's words: the question names the measure, not that part of it.";
    sentence_match = 0.3, "Share of the mention's words found in the number's sentence.";
    fact_words_scarce = -0.3, "Less than a fifth of the mention's words (weighted by rarity) stand in the number's sentence: its year alone does not name it.";
    fact_year_match = 0.9, "The text number's year is the year asked.";
    fact_year_other = -1.0, "The text number's year is another year.";
    fact_year_in_sentence = 0.4, "The number has no year of its own, but its sentence prints the year asked.";
    fact_year_absent = -0.5, "A year is asked and the number's sentence prints none.";
    fact_percent_unasked = -0.7, "A percentage in the text when the question asks for no rate or percentage.";
    fact_change_unasked = -0.4, "A change the text states (\"decreased $ 13 million\") when the question asks for a level.";
    fact_change_asked = 0.6, "A change the text states when the question asks for the change in one year.";
    unit_disagrees = -0.6, "A text number printed without a currency sign, or a cell whose row or column label states a unit of a physical quantity (\"( metric tons )\"), when the question asks for money (\"spent\", \"paid\").";
    count_of_money = -1.5, "A number printed with a currency sign (in the text, a cell or a column header) when the question asks how many: an amount of money or a price is no count.";
    lost_row_name = 1.25, "Share of the mention's words (weighted by rarity) that no row or column label prints, for a number of the first row the table lost into its headers with its name: words no label prints can name only that row or the text.";
    lost_row_combines = 1.2, "For a number of the first row the table lost into its headers with its name: each of the mention's words (two or more) is printed by some row label but no row prints them all (\"funeral revenue\" beside \"funeral gross profit\" and \"cemetery revenue\"): the lost row's name completes the labels' pattern.";
    lost_group_name = 1.25, "Share of the mention's words (weighted by rarity) that no row or column label prints, for a cell of a group of columns whose name the table lost (the years of a named group come again without its words) when the mention shares a word with a named group's (\"u.s. subsidiaries\" beside \"bermuda subsidiaries\"): words no label prints can name only that group or the text.";
    period_words_only = -0.1, "The cell's labels meet only the mention's words that name a period (\"fourth quarter\", \"fiscal\") and the mention has words besides (\"shares bought back in the fourth quarter\"): a period says when, not what, so those words count for no label feature (the quarter's and year's features read the period).";
    no_word_met = -0.25, "The mention has words and the candidate meets none of them (in its labels, the text's name for its row, or its sentence): a year alone does not name it.";
    header_source = -0.2, "The candidate is a number printed in a column header (a first row the table lost into its header).";
    fact_rounds_cell = -1.0, "A text number that restates a table row's amount rounded in another scale (\"$ 3.9 billion\" for 3,870 in a table in millions), when the question asks for no scale: the table prints the amount itself.";
    text_source = -0.15, "The candidate is a number of the text (the table is the first place to look).";
    sentence_position = -0.001, "The sentence's position on the page.";
    quarter_match = 0.5, "The question names a quarter and the cell's labels name the same one (by name or closing date).";
    quarter_other = -0.5, "The question names a quarter and the cell's labels name another.";
    scale_agrees = 0.4, "The question asks for a scale (\"in millions\") the candidate prints.";
    earlier_row = 0.05, "An earlier turn of the conversation read the same row or sentence.";
    earlier_row_other_column = 0.4, "The mention's words are mostly the cell's column's and none its row's, and an earlier turn read the cell's row: a follow-up that names another column (\"and for non-u.s. plans?\", \"how much is due in less than 1 year?\") keeps the row.";
    sibling_of_last_row = 0.3, "The last turn read a row whose label prints every word of the cell's row label that the mention does not meet, and the mention meets a word that row lacks (unless a question that does not open as a continuation names another row in full): a follow-up that swaps a word of the last row (\"and the basic shares?\" after \"weighted average common shares outstanding - diluted\", \"and the interest cost?\" after \"postretirement service cost\") names its sibling row.";
    earlier_column_other_row = 0.4, "The mention's words are mostly the cell's row's, none its column's and none of another column's, the column names no year (or its year is the year asked and another column's too: \"fiscal 2012 high\", \"fiscal 2012 low\"), the question does not say \"total\", and the last turn read a cell of that column: a follow-up that names another row (\"and in december 2009?\" on a table of months) keeps the column (\"average price paid per share\").";
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
    /// Sets one feature's value.
    pub(super) fn set(&mut self, f: Feature, v: f64) {
        self.0[f as usize] = v;
    }

    /// One feature's value.
    pub(super) fn get(&self, f: Feature) -> f64 {
        self.0[f as usize]
    }

    /// Whether any feature that matches the mention's words against the
    /// candidate's labels, names or sentence is set.
    pub(super) fn meets_a_word(&self) -> bool {
        [
            Feature::label_match,
            Feature::text_alias_match,
            Feature::phrase,
            Feature::numbered_phrase,
            Feature::context_match,
            Feature::sentence_match,
            Feature::lost_row_name,
            Feature::lost_row_combines,
            Feature::lost_group_name,
            Feature::row_cover,
            Feature::column_cover,
        ]
        .iter()
        .any(|f| self.get(*f) > 0.0)
    }

    /// The candidate's score: the dot product with the weights.
    pub(super) fn score(&self, w: &Weights) -> f64 {
        self.0.iter().zip(w.w.iter()).map(|(x, w)| x * w).sum()
    }

    /// The features that moved the score most, with their contributions.
    pub(super) fn deciding(&self, w: &Weights, n: usize) -> Vec<(&'static str, f64)> {
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

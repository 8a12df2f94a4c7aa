//! What a mention's words name on the page: a row, a column, the parts of
//! a total, the measure a total sums, the row the table lost into its
//! headers, and the share of its words that no label prints.

use crate::plan::ground::{same_word, Asked, Grounder};

impl Grounder<'_> {
    /// Whether the mention holds every word of some row's label (a row
    /// named only "total" aside).
    pub(in crate::plan) fn names_a_row(&self, words: &[&String]) -> bool {
        self.page
            .row_words
            .iter()
            .zip(&self.page.row_caption_words)
            .any(|(row, caption)| {
                caption.is_empty()
                    && !row.is_empty()
                    && row.iter().all(|w| words.iter().any(|x| same_word(x, w)))
            })
    }

    /// Whether the mention meets a word of a column label other than the
    /// total word.
    pub(in crate::plan) fn names_a_column(&self, words: &[&String]) -> bool {
        self.page.column_words.iter().any(|column| {
            column
                .iter()
                .any(|w| !same_word(w, &self.total_word) && words.iter().any(|x| same_word(x, w)))
        })
    }

    /// The rows, not totals, whose every word the mention holds; a
    /// catch-all row ("other") counts when the question prints its word.
    pub(in crate::plan) fn named_parts(&self, words: &[&String]) -> Vec<usize> {
        (0..self.page.row_words.len())
            .filter(|&r| {
                let label = &self.page.row_words[r];
                let catch_all = self.asks_catch_all && self.page.row_is_catch_all[r];
                !self.page.row_is_total[r]
                    && (!label.is_empty() || catch_all)
                    && label.iter().all(|w| words.iter().any(|x| same_word(x, w)))
            })
            .collect()
    }

    /// Whether the mention holds every word of a row other than the total
    /// row `total`, not itself a total, whose words the total's label does
    /// not all print: it names a part of the total ("the operating income
    /// of the transportation segment" beside "transportation" and "total
    /// operating income"), and the words it shares with the total name the
    /// measure all the parts share.
    pub(super) fn names_a_part(&self, a: &Asked, total: usize) -> bool {
        let total_words = &self.page.row_words[total];
        let catch_all = &self.page.row_is_catch_all;
        a.named_parts.iter().any(|&r| {
            r != total
                && (!self.page.row_words[r]
                    .iter()
                    .all(|w| total_words.iter().any(|l| same_word(l, w)))
                    || (catch_all[r] && !catch_all[total] && self.asks_catch_all))
        })
    }

    /// Whether the mention prints every word of total row `row`'s label
    /// but the total word ("net sales" for "total net sales"), and another
    /// row's label prints them too with a word of its own ("consumer net
    /// sales"): the measure named without a part is the total's.
    pub(super) fn names_the_total_measure(&self, a: &Asked, row: usize) -> bool {
        let total: Vec<&String> = self.page.row_words[row]
            .iter()
            .filter(|w| !same_word(w, &self.total_word))
            .collect();
        let met = |w: &&String| a.words.iter().any(|x| same_word(x, w));
        if total.is_empty() || !total.iter().all(met) {
            return false;
        }
        self.page.row_words.iter().enumerate().any(|(r, words)| {
            r != row
                && !self.page.row_is_total[r]
                && words.len() > total.len()
                && total.iter().all(|w| words.iter().any(|x| same_word(x, w)))
        })
    }

    /// Whether a word of the mention that column `column`'s label does not
    /// print is a word of the first row the table lost into its headers:
    /// its label, or the text's words beside its amount.
    pub(super) fn names_lost_row(&self, a: &Asked, column: usize) -> bool {
        if self.schema.header_numbers.is_empty() {
            return false;
        }
        let page = &self.page;
        let lost = page.lost_row_label.iter().chain(&page.lost_row_text_words);
        Self::past_column(a, &page.column_words[column])
            .any(|w| lost.clone().any(|l| same_word(l, w)))
    }

    /// The mention's words that a column's label (its `column_words`) does
    /// not print.
    fn past_column<'w>(
        a: &'w Asked,
        column_words: &'w [String],
    ) -> impl Iterator<Item = &'w String> + 'w {
        a.words
            .iter()
            .copied()
            .filter(move |w| !column_words.iter().any(|c| same_word(c, w)))
    }

    /// Whether a word of the mention that the column's label does not
    /// print is printed by a row label ("contained ounces at the kestrel
    /// mine" beside a row "kestrel ( canada )"): the mention names a row,
    /// not only the column.
    pub(super) fn names_another_row(&self, a: &Asked, column: usize) -> bool {
        Self::past_column(a, &self.page.column_words[column]).any(|w| {
            self.page
                .row_words
                .iter()
                .any(|r| r.iter().any(|x| same_word(x, w)))
        })
    }

    /// Share of the mention's words (weighted by rarity) that name no row
    /// or column: no row or column label (nor a row's lexicon alias)
    /// prints them, the name of something the table lost. With `by_head`,
    /// a row label names a word only when the mention meets its head too
    /// ("revenues" of "cost of revenues" names nothing when the question
    /// asks for revenues) and, unless the question asks for a total, only
    /// when it is no total row (a total's words are its parts' too): the
    /// first row the table lost into its headers may be what they name.
    pub(super) fn unnamed_share(&self, a: &Asked, by_head: bool) -> f64 {
        let counts = |r: usize| {
            let head = &self.page.row_head_words[r];
            !by_head
                || ((head.is_empty() || self.overlap(&a.words, head) > 0.0)
                    && (self.asks_total || !self.page.row_is_total[r]))
        };
        let prints = |l: &Vec<String>, w: &str| l.iter().any(|x| same_word(x, w));
        let names = |w: &str| {
            (0..self.page.row_words.len()).any(|r| prints(&self.page.row_words[r], w) && counts(r))
                || self.page.column_words.iter().any(|l| prints(l, w))
                || self.page.row_alias_words.iter().any(|l| prints(l, w))
        };
        self.weigh(a.words.iter().filter(|w| !names(w))) / a.weight
    }

    /// Whether the mention's words (two or more) are each printed by some
    /// row label other than a total but no row prints them all: "funeral
    /// revenue" beside "funeral gross profit" and "cemetery revenue", the
    /// name of the row the table lost that completes the labels' pattern.
    pub(super) fn combines_row_words(&self, a: &Asked) -> bool {
        // (a total's words are its parts': they name no row of their own)
        let rows = &self.page.row_words;
        let parts: Vec<usize> = (0..rows.len())
            .filter(|r| !self.page.row_is_total[*r])
            .collect();
        let prints = |r: usize, w: &str| rows[r].iter().any(|x| same_word(x, w));
        a.words.len() >= 2
            && a.words.iter().all(|w| parts.iter().any(|r| prints(*r, w)))
            && !(0..rows.len()).any(|r| a.words.iter().all(|w| prints(r, w)))
    }
}

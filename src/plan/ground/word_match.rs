//! The mention's words against the page's: whether the page prints a
//! word, a word's rarity on the page, the weight of the words a label
//! carries, and the share of a mention's word pairs a label prints.

use super::{same_word, Grounder};
use crate::words;

impl Grounder<'_> {
    /// Whether the page prints a word (in a label, a concept label or a
    /// sentence).
    pub fn knows(&self, w: &str) -> bool {
        self.page.vocabulary.contains(w) || self.page.vocabulary.iter().any(|k| same_word(k, w))
    }

    /// Whether every row or column label that carries `w` also names a
    /// year ("fiscal 2010", "december 31 2009"): there `w` dates a period,
    /// it names no value.
    pub(in crate::plan) fn dates_only(&self, w: &str) -> bool {
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

    /// A word's rarity on the page (its inverse document frequency); for a
    /// word the page prints only in another form ("european" for
    /// "europe"), the rarity of that form.
    pub(in crate::plan) fn weight(&self, w: &str) -> f64 {
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

    /// The weight of the mention's words found in `label` (each word's
    /// rarity, at least 0.3).
    pub fn overlap(&self, q: &[&String], label: &[String]) -> f64 {
        self.weigh(q.iter().filter(|w| label.iter().any(|l| same_word(l, w))))
    }

    /// The total weight of some of a mention's words (each word's rarity,
    /// at least 0.3).
    pub(in crate::plan) fn weigh<'w>(&self, words: impl Iterator<Item = &'w &'w String>) -> f64 {
        words.map(|w| self.weight(w).max(0.3)).sum()
    }

    /// Whether some row or column label carries `w`.
    pub(in crate::plan) fn labelled(&self, w: &str) -> bool {
        self.page
            .row_words
            .iter()
            .chain(&self.page.column_words)
            .any(|l| l.iter().any(|x| same_word(x, w)))
    }

    /// Share of the mention's adjacent word pairs that sit adjacent in `label`.
    pub(in crate::plan) fn phrase_share(mention: &[String], label: &[String]) -> f64 {
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

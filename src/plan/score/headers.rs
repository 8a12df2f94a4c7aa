//! The features of a number printed in a column header (the first row the
//! table lost into its headers): how far the mention names the lost row,
//! the header's label and text words, and its quarter, month, balance and
//! year against those asked.

use crate::kg::schema::HeaderNumberEntry;
use crate::plan::cues::Boundary;
use crate::plan::features::{Feature as F, FeatureVector};
use crate::plan::ground::{same_word, Asked, AskedUnit, Grounder};
use crate::words::content_words;

impl Grounder<'_> {
    /// The features of a number printed in a column header.
    pub(in crate::plan) fn header_features(
        &self,
        k: usize,
        h: &HeaderNumberEntry,
        a: &Asked,
    ) -> FeatureVector {
        let mut f = FeatureVector::default();
        self.lost_row_name_features(&mut f, k, a);
        let (label, text, opening) = self.header_labels(h);
        let hit = self.header_word_features(&mut f, k, a, &label, &text);
        // a follow-up that names another row keeps the column the last
        // turn read ("and in the first quarter?" after a "low" price)
        let own = content_words(&h.words);
        let column_year = self.schema.columns.get(h.column).and_then(|(_, y)| *y);
        if !own.iter().any(|w| a.words.iter().any(|x| same_word(x, w)))
            && hit >= 0.5 * a.weight
            && !self.asks_total
            && (column_year.is_none() || self.year_shares_columns(h.column, a.year))
            && self.earlier_columns.contains(&h.column)
        {
            f.set(F::earlier_column_other_row, 1.0);
        }
        // a follow-up that names another column keeps the lost row the
        // last turn read ("and the low?" after the high price of a quarter
        // a header prints)
        let own_hit = self.overlap(&a.words, &own);
        if self.earlier_lost_row
            && !self.earlier_columns.contains(&h.column)
            && own_hit > 0.0
            && own_hit >= 0.5 * a.weight
            && !a.names_a_row
        {
            f.set(F::earlier_row_other_column, 1.0);
        }
        if h.percent && !self.wants_percent {
            f.set(F::cell_percent_unasked, 1.0);
        }
        if self.asked_unit == AskedUnit::Count && h.raw.trim_start().starts_with('$') {
            f.set(F::count_of_money, 1.0);
        }
        self.header_period_features(&mut f, k, h, a, opening);
        f.set(F::header_source, 1.0);
        f
    }

    /// Sets how far the mention may name the lost row when no label or
    /// list of the text gives its name.
    fn lost_row_name_features(&self, f: &mut FeatureVector, k: usize, a: &Asked) {
        // "other revenues" names the catch-all row the table prints
        let catch_all_named = self.asks_catch_all && self.page.row_is_catch_all.contains(&true);
        let listed = !self.page.lost_row_listed.is_empty();
        if self.page.lost_row_unnamed.contains(&k) && !catch_all_named && !listed {
            // the lost row's name is unknown (no list of the text gives
            // it): the mention's words that no label prints may be it
            f.set(F::lost_row_name, self.unnamed_share(a, true));
            if self.combines_row_words(a) {
                f.set(F::lost_row_combines, 1.0);
            }
        }
    }

    /// A header number's label words, the words the text prints beside it,
    /// and whether it is a roll-forward's lost opening balance.
    fn header_labels(&self, h: &HeaderNumberEntry) -> (Vec<String>, Vec<String>, bool) {
        // the header's words (a label glued to the first header is every
        // header number's) and those the lost row shares with its sequence
        let mut label = if self.page.lost_row_label.is_empty() {
            content_words(&h.words)
        } else {
            self.page.lost_row_label.clone()
        };
        label.extend(self.page.lost_row_words.iter().cloned());
        label.extend(self.page.lost_row_listed.iter().cloned());
        // the words the text prints beside one of its numbers: the row's
        // name when the table lost it, else another name for it
        let mut text: Vec<String> = Vec::new();
        if label.is_empty() {
            label.extend(self.page.lost_row_text_words.iter().cloned());
        } else {
            text.extend(self.page.lost_row_text_words.iter().cloned());
        }
        // a roll-forward that closes with its end and prints no beginning
        // lost its opening balance into the headers, named as its closing
        // one ("balance at end of year")
        let rows = &self.page.row_boundary;
        let opening = rows.contains(&Some(Boundary::End))
            && !rows.contains(&Some(Boundary::Beginning))
            && self.page.lost_row_label.is_empty();
        // a lost row whose label is a balance ("balance at january 1") is
        // a balance of what the caption names, as the closing rows are
        let balance = self.page.lost_row_label_boundary.is_some();
        for (r, b) in rows.iter().enumerate() {
            if *b == Some(Boundary::End) {
                if opening {
                    label.extend(self.page.row_words[r].iter().cloned());
                }
                if balance {
                    text.extend(self.page.row_caption_words[r].iter().cloned());
                }
            }
        }
        (label, text, opening)
    }

    /// Sets how the mention meets a header number's label and text words;
    /// returns its overlap with the label.
    fn header_word_features(
        &self,
        f: &mut FeatureVector,
        k: usize,
        a: &Asked,
        label: &[String],
        text: &[String],
    ) -> f64 {
        let hit = self.overlap(&a.words, label);
        f.set(F::label_match, hit / a.weight);
        // how much of the lost row's name, when a label or a list gives
        // it, the mention covers (as a row label's cover)
        let name = match &self.page.lost_row_label {
            l if l.is_empty() => &self.page.lost_row_listed,
            l => l,
        };
        if !name.is_empty() {
            let covered = name
                .iter()
                .filter(|w| a.words.iter().any(|x| same_word(x, w)))
                .count();
            f.set(F::row_cover, covered as f64 / name.len() as f64);
        }
        let lost = self.schema.rows.len();
        let year = self.schema.header_number_year(k, self.page.lost_row_year);
        f.set(
            F::phrase,
            Self::phrase_share(a.mention, label).max(self.restated_phrase(lost, year, a)),
        );
        let text_hit = self.weigh(a.words.iter().filter(|w| {
            text.iter().any(|l| same_word(l, w)) && !label.iter().any(|l| same_word(l, w))
        }));
        f.set(F::text_alias_match, text_hit / a.weight);
        hit
    }

    /// Sets a header number's quarter, month, balance and year against
    /// those asked.
    fn header_period_features(
        &self,
        f: &mut FeatureVector,
        k: usize,
        h: &HeaderNumberEntry,
        a: &Asked,
        opening: bool,
    ) {
        // a header number is the lost first row's: its period is that row's
        if let Some(q) = self.asked_quarter {
            // a year in the header ("2009 $ 17.84") is the column's: the
            // lost row is still the quarter before the rows'; else the
            // column's own quarter ("fourth quarter $ 28.40" over a "low" row)
            let printed = self
                .page
                .lost_row_quarter
                .or(self.page.column_quarter[h.column]);
            Self::period_features(f, q, &[printed]);
        }
        // a month plays the quarter's part on a table of months
        if let Some(m) = self.asked_month {
            Self::period_features(f, m, &[self.page.lost_row_month]);
        }
        if let Some(asked) = a.boundary {
            if let Some(b) = self.page.lost_row_label_boundary {
                Self::boundary_features(f, asked, Some(b));
            } else if opening {
                Self::boundary_features(f, asked, Some(Boundary::Beginning));
            }
        }
        // else the column's year (one the text gives its header number)
        let year = self.schema.header_number_year(k, self.page.lost_row_year);
        match (a.year, year) {
            (Some(y), Some(hy)) if y == hy => f.set(F::cell_year_match, 1.0),
            (Some(_), Some(_)) => f.set(F::cell_year_other, 1.0),
            (Some(y), None) if self.page.caption_year == Some(y) => {
                f.set(F::cell_year_in_caption, 1.0)
            }
            (Some(_), None) => f.set(F::cell_year_absent, 1.0),
            (None, _) => f.set(F::column_position, h.column as f64),
        }
        if self.asks_row_range && self.page.lost_row_year.is_some() {
            f.set(F::range_other, 1.0);
        }
    }
}

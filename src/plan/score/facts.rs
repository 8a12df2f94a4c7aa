//! The features of a number of the text: the mention's words in its
//! context, neighbours and sentence, its unit and scale, the date and year
//! it is about, and what its context says of it (a change, a total, a
//! restatement).

use crate::kg::FactEntry;
use crate::plan::cues::Boundary;
use crate::plan::features::{Feature as F, FeatureVector};
use crate::plan::ground::{Asked, AskedUnit, Grounder};
use crate::words;

impl Grounder<'_> {
    /// The features of the text's `k`th number.
    pub(in crate::plan) fn fact_features(
        &self,
        k: usize,
        fact: &FactEntry,
        a: &Asked,
    ) -> FeatureVector {
        let mut f = FeatureVector::default();
        self.fact_word_features(&mut f, k, fact, a);
        // "at the beginning of 2002": where a move the text states started
        // ("in 2002 ... from $ 128 million"), a level the graph dates to
        // the year before (its end)
        let moved = self.page.fact_boundary[k];
        let year = match (a.boundary, moved, a.year, fact.year) {
            (Some(Boundary::Beginning), Some(Boundary::Beginning), Some(y), Some(fy))
                if fy == y - 1 =>
            {
                Some(fy)
            }
            _ => a.year,
        };
        self.fact_year_features(&mut f, k, fact, year);
        if self.fact_prints_date(fact, year) {
            f.set(F::date_match, 1.0);
        }
        if let Some(b) = a.boundary {
            Self::boundary_features(&mut f, b, moved);
        }
        self.fact_unit_features(&mut f, k, fact);
        // "12,500 , 5,300 and 3,150 shares withheld in october , november
        // and december , respectively": the month beside the number
        if let Some(m) = self.asked_month {
            Self::period_features(&mut f, m, &[self.page.fact_month[k]]);
        }
        if fact.is_change {
            if self.wants_printed_change.get() {
                f.set(F::fact_change_asked, 1.0);
            } else {
                f.set(F::fact_change_unasked, 1.0);
            }
        }
        // "what were total dividends paid?": a number its context calls a total
        if self.asks_total && self.page.fact_is_total[k] {
            f.set(F::total_asked, 1.0);
            if self.page.fact_total_before[k] {
                f.set(F::total_introduces, 1.0);
            }
        }
        // "$ 48.3 million ( $ 30.9 million after-tax )": the bracket's
        // number is asked by its words, the one before it without them
        if let Some(how) = &self.page.fact_restated_as[k] {
            if self.glued.contains(how) {
                f.set(F::restatement_asked, 1.0);
            } else {
                f.set(F::restatement_unasked, 1.0);
            }
        }
        if self.earlier.contains(&fact.context) {
            f.set(F::earlier_row, 1.0);
        }
        f.set(F::text_source, 1.0);
        f.set(F::sentence_position, fact.sentence as f64);
        f
    }

    /// Sets how the mention meets a text number's context, neighbours,
    /// left-out words, contributor and sentence.
    fn fact_word_features(&self, f: &mut FeatureVector, k: usize, fact: &FactEntry, a: &Asked) {
        let (ctx, sent) = &self.page.fact_words[k];
        f.set(F::context_match, self.overlap(&a.words, ctx) / a.weight);
        let neighbours = &self.page.fact_neighbour_words[k];
        if !neighbours.is_empty() {
            f.set(
                F::neighbour_words,
                self.overlap(&a.words, neighbours) / a.weight,
            );
        }
        // "net operating revenues , before the provision for doubtful
        // accounts , were $ 6,962 million": the provision is what the
        // amount leaves out
        if !self.leaves_out {
            if let Some(left_out) = self.page.sentence_left_out.get(fact.sentence) {
                f.set(
                    F::left_out_named,
                    self.overlap(&a.words, left_out) / a.weight,
                );
            }
        }
        let subject = &self.page.fact_contributed_by[k];
        if !subject.is_empty() && self.overlap(&a.words, subject) == 0.0 {
            f.set(F::contribution_unasked, 1.0);
        }
        let in_sentence = self.overlap(&a.words, sent) / a.weight;
        f.set(F::sentence_match, in_sentence);
        if in_sentence < 0.2 {
            f.set(F::fact_words_scarce, 1.0);
        }
        f.set(F::phrase, Self::phrase_share(a.mention, sent));
    }

    /// Sets a text number's percent, per-unit, scale and unit against
    /// those asked.
    fn fact_unit_features(&self, f: &mut FeatureVector, k: usize, fact: &FactEntry) {
        if fact.percent && !self.wants_percent {
            f.set(F::fact_percent_unasked, 1.0);
        }
        if self.page.fact_per_unit[k] && !self.asks_per_unit {
            f.set(F::per_unit_unasked, 1.0);
        }
        if self.says_per && !self.page.fact_per_unit[k] && fact.scale.is_some() {
            f.set(F::per_unit_unmet, 1.0);
        }
        if let (Some(asked), Some(printed)) = (&self.asked_scale, &fact.scale) {
            if printed.word() == asked.as_str() {
                f.set(F::scale_agrees, 1.0);
            }
        }
        if self.page.fact_rounds_cell[k] && self.asked_scale.is_none() {
            f.set(F::fact_rounds_cell, 1.0);
        }
        let money = fact.raw.starts_with('$');
        match self.asked_unit {
            AskedUnit::Money if !money && !fact.percent => f.set(F::unit_disagrees, 1.0),
            AskedUnit::Count if money => f.set(F::count_of_money, 1.0),
            _ => {}
        }
    }

    /// The question prints a date ("as of december 31 , 2017") whose year
    /// is the number's and whose month and day its sentence prints, as a
    /// cell's column may print it.
    fn fact_prints_date(&self, fact: &FactEntry, year: Option<i32>) -> bool {
        let of_fact = |y: i32| fact.year == Some(y) || fact.also_years.contains(&y);
        let asked: Vec<_> = self
            .asked_dates
            .iter()
            .filter(|(_, _, y)| year.is_none_or(|asked| asked == *y) && of_fact(*y))
            .collect();
        if asked.is_empty() {
            return false;
        }
        let printed = words::dates_in(&fact.sentence_text);
        asked.iter().any(|(m, d, _)| {
            printed
                .iter()
                .any(|(pm, pd, _)| pm == m && d.is_none_or(|d| *pd == Some(d)))
        })
    }

    /// A text number's year (or its sentence's) against the year asked.
    fn fact_year_features(
        &self,
        f: &mut FeatureVector,
        k: usize,
        fact: &FactEntry,
        year: Option<i32>,
    ) {
        match (year, fact.year) {
            (Some(y), Some(fy)) if y == fy || fact.also_years.contains(&y) => {
                f.set(F::fact_year_match, 1.0)
            }
            (Some(_), Some(_)) => f.set(F::fact_year_other, 1.0),
            (Some(y), None) => {
                if fact.sentence_text.contains(&y.to_string())
                    || self.page.fact_carried_years[k].contains(&y)
                {
                    f.set(F::fact_year_in_sentence, 1.0);
                } else {
                    f.set(F::fact_year_absent, 1.0);
                }
            }
            (None, _) => {}
        }
    }
}

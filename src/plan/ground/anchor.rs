//! A follow-up with no words of its own ("and in 2007?"): the value on the
//! row (or lost first row, or sentence) of the value asked before, for the
//! year asked.

use super::Grounder;
use crate::kg::{CellEntry, HEADER_NUMBER_NODE};
use crate::plan::operand::{fact_operand, header_operand, GroundingNote, Operand};
use crate::plan::page::{words_after, words_before};
use crate::trace::CandidateNote;

impl Grounder<'_> {
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

    /// The value on the anchor's row for `year`, unless a revision left it out.
    pub(super) fn anchored_unless_left_out(
        &self,
        mention: &[String],
        year: Option<i32>,
    ) -> Option<Operand> {
        let o = Self::anchored(self.ground_anchor(mention, year)?, year);
        let left_out = o.grounding.as_ref().is_some_and(|n| {
            n.candidates.first().is_some_and(|c| {
                self.excluded
                    .contains(&(n.mention.clone(), c.source.clone()))
            })
        });
        (!left_out).then_some(o)
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
}

//! The operands of a comparison, and the scales of a scale conversion:
//! the scale an earlier result was in and the scale the question asks for.

use super::cues::split_at_first;
use super::history::{last_result, last_two};
use super::operand::{constant_operand, Operand};
use super::read::first_year;
use super::rules::RulesPlanner;
use super::turn::Turn;
use crate::kg::Schema;
use crate::planner::PlanError;
use crate::turn::TurnResult;
use rust_decimal::Decimal;

impl RulesPlanner {
    /// "is that greater than 1000?", "which one is greater: A in 2009 or in
    /// 2008?", "which is greater?" (the last two results, first-asked first).
    pub(super) fn comparison_operands(
        &self,
        t: &Turn<'_>,
    ) -> Result<(Operand, Operand), PlanError> {
        let (r, g) = (&t.r, &t.g);
        if let Some(c) = r.constants.last().copied() {
            return Ok((last_result(&t.history)?, constant_operand(c)));
        }
        if let Some((a, b)) = split_at_first(&r.text, &self.cues.option_connector) {
            let a = self
                .cues
                .comparison_word
                .iter()
                .find_map(|w| a.rsplit_once(&format!(" {w}")))
                .map_or(a, |(_, rest)| rest);
            let wa = self.cues.mention_words(a);
            let mut wb = self.cues.mention_words(b);
            if self.cues.specific(&wb).is_empty() {
                wb = wa.clone();
            }
            let ya = first_year(&self.cues, a).or(t.last_year);
            let yb = first_year(&self.cues, b).or(ya);
            if !self.cues.specific(&wa).is_empty() {
                if let (Ok(x), Ok(y)) = (g.ground(&wa, ya), g.ground(&wb, yb)) {
                    return Ok((x, y));
                }
            }
        }
        last_two(&t.history)
    }

    /// The multiplier of a scale word ("million"), from the ontology.
    fn multiplier(&self, word: &str) -> Option<Decimal> {
        self.scale_words
            .iter()
            .find(|(w, _)| word.contains(w.as_str()))
            .map(|(_, m)| *m)
    }

    /// The scale a question asks its answer in: "in thousands".
    pub(super) fn asked_scale(&self, text: &str) -> Option<Decimal> {
        self.scale_words
            .iter()
            .find(|(w, _)| text.contains(&format!(" in {w}")))
            .map(|(_, m)| *m)
    }

    /// The scale the text prints for the table in a parenthesis ("the
    /// following table ( in thousands ) :"), when its parentheses name one
    /// scale only.
    fn caption_scale(&self, schema: &Schema) -> Option<Decimal> {
        let mut found = None;
        for sentence in &schema.sentences {
            let mut rest = sentence.as_str();
            while let Some(open) = rest.find('(') {
                let inner = &rest[open + 1..];
                let close = inner.find(')').unwrap_or(inner.len());
                let paren = format!(" {} ", &inner[..close]);
                rest = &inner[close..];
                let named = self
                    .scale_words
                    .iter()
                    .find(|(w, _)| paren.contains(&format!(" in {w}")))
                    .map(|(_, m)| *m);
                match (named, found) {
                    (Some(m), Some(f)) if m != f => return None,
                    (Some(m), _) => found = Some(m),
                    _ => {}
                }
            }
        }
        found
    }

    /// The multipliers of an earlier result's scale and of the scale asked for.
    pub(super) fn scales(
        &self,
        last: &TurnResult,
        question: &str,
        schema: &Schema,
    ) -> (Decimal, Decimal) {
        let to = self.multiplier(question).unwrap_or(Decimal::ONE);
        let sources: String = last
            .variables
            .iter()
            .map(|v| format!("{} {}", v.source, v.description))
            .collect();
        let page_scale = schema
            .columns
            .iter()
            .map(|(l, _)| l)
            .chain(schema.rows.iter().map(|(l, _)| l))
            .find_map(|l| self.multiplier(l).filter(|_| l.contains("in ")))
            .or_else(|| self.caption_scale(schema));
        // the result's own scale (its values' common one) before any scale
        // word its sources' text happens to print
        let from = last
            .scale
            .as_ref()
            .map(crate::turn::Scale::multiplier)
            .or_else(|| self.multiplier(&sources))
            .or(page_scale)
            .unwrap_or(Decimal::ONE);
        (from, to)
    }
}

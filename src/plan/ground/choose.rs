//! Grounding one mention (`Grounder::ground`): the periods and anchors
//! decided before any ranking, a mention the page prints no word or year
//! of, then the choice among the ranked candidates.

use super::rank::boundary_of_mention;
use super::{FeatureVector, Grounder, Target};
use crate::plan::operand::Operand;
use crate::planner::PlanError;

impl Grounder<'_> {
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
        let ranked = crate::plan::revise::without(
            self.candidates(mention, year),
            &crate::plan::revise::for_mention(&self.excluded, &mention_text),
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
}

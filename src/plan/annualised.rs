//! A yearly amount from the rate of a shorter period the page prints:
//! "what was the annualized dividend per share in 2010?" on a row
//! "quarterly dividend per share" is that rate times four (a monthly one
//! times twelve).

use super::cues::contains_any;
use super::operand::Operand;
use super::rules::RulesPlanner;
use super::turn::Turn;
use rust_decimal::Decimal;

/// The name of the constant the rate is multiplied by in the plan.
pub(super) const PERIODS: &str = "periods";

impl RulesPlanner {
    /// How many of its periods make a year, when the question asks a
    /// yearly amount and `o` reads the rate of a quarter (4) or a month
    /// (12) the page names so.
    pub(super) fn periods_per_year(&self, t: &Turn<'_>, o: &Operand) -> Option<Decimal> {
        // "and in 2009?" right after a yearly amount so made asks it again
        let again = t.own_metric.is_empty()
            && t.history
                .last()
                .is_some_and(|h| h.variables.iter().any(|v| v.name == PERIODS));
        if !again && !contains_any(&t.r.text, &self.cues.annual_word) {
            return None;
        }
        let read = o.read_text();
        // a rate the page adds up already ("quarterly cash dividends
        // totaling $ 0.84 per share in 2010") is the year's
        let stems = crate::words::content_words(read);
        let total = crate::words::stem(&self.cues.total_word);
        let added = stems.contains(&total)
            || self
                .cues
                .sum_word
                .iter()
                .any(|w| stems.contains(&crate::words::stem(w)));
        let read = format!(" {} ", crate::words::tokens(read).join(" "));
        if added || contains_any(&read, &self.cues.annual_word) {
            return None;
        }
        if contains_any(&read, &self.cues.quarterly_word) {
            Some(Decimal::from(4))
        } else if contains_any(&read, &self.cues.monthly_word) {
            Some(Decimal::from(12))
        } else {
            None
        }
    }
}

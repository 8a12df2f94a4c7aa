//! The average price of units a sentence counts and prices together: "we
//! repurchased 6.2 million of our common shares for $ 248 million" makes
//! "the average price paid per share repurchased in 2009" $ 248 million
//! over 6.2 million.

use super::operand::{fact_operand, Operand};
use super::rules::RulesPlanner;
use super::turn::Turn;
use crate::kg::FactEntry;
use crate::words::{content_words, stem};

/// How many tokens after a count its unit may be printed ("6.2 million of
/// our common shares").
const UNIT_REACH: usize = 5;

impl RulesPlanner {
    /// The amount of money and the count of `unit`s (the word after "per")
    /// one sentence prints together, the sentence naming what the question
    /// asks besides the unit and the price ("repurchased").
    pub(super) fn unit_cost_in_a_sentence(
        &self,
        t: &Turn<'_>,
        unit: &str,
    ) -> Option<(Operand, Operand)> {
        let unit = stem(unit);
        let money: Vec<String> = self.cues.money_ask.iter().map(|w| stem(w)).collect();
        let named: Vec<String> = self
            .cues
            .specific(&t.own_metric)
            .into_iter()
            .filter(|w| *w != unit && !money.contains(w))
            .collect();
        if named.is_empty() {
            return None;
        }
        let year = t.r.years.first().copied();
        let facts = &t.schema.facts;
        facts.iter().find_map(|count| {
            let sentence = content_words(&count.sentence_text);
            let about = named.iter().any(|w| sentence.contains(w))
                && year.is_none_or(|y| {
                    count.year == Some(y) || count.sentence_text.contains(&y.to_string())
                });
            if !about || !counts_unit(count, &unit) {
                return None;
            }
            let amount = facts
                .iter()
                .find(|f| f.sentence == count.sentence && f.token > count.token && is_money(f))?;
            Some((fact_operand(amount), fact_operand(count)))
        })
    }
}

/// Whether a text number is an amount of money ("$ 248 million").
fn is_money(f: &FactEntry) -> bool {
    f.raw.contains('$') && !f.percent
}

/// Whether a text number counts `unit`s: no money, no percentage, the unit
/// printed a few tokens after it.
fn counts_unit(f: &FactEntry, unit: &str) -> bool {
    if is_money(f) || f.percent || f.is_year_mention {
        return false;
    }
    f.sentence_text
        .split_whitespace()
        .skip(f.token + 1)
        .take(UNIT_REACH)
        .any(|w| stem(w) == unit)
}

impl RulesPlanner {
    /// "what was total fuel cost in 2009?" on a table with a row of a
    /// quantity ("fuel gallons consumed ( millions )") and a row of its
    /// price per unit ("average fuel price per gallon"), `o` a cell of one
    /// of them: the two rows' cells of `o`'s column, quantity first.
    pub(super) fn quantity_and_unit_price_rows(
        &self,
        t: &Turn<'_>,
        o: &Operand,
    ) -> Option<(Operand, Operand)> {
        let (row, column) = o.cell?;
        let labels: Vec<Vec<String>> = t
            .schema
            .rows
            .iter()
            .map(|(l, _)| crate::words::tokens(l))
            .collect();
        let units = |label: &[String]| -> Vec<String> {
            self.cues
                .quantity_unit
                .iter()
                .filter(|u| !u.contains(' ') && label.contains(u))
                .map(|u| stem(u))
                .collect()
        };
        // the unit a row prices: the word after its per word
        let priced = |label: &[String]| -> Option<String> {
            let at = label.iter().position(|w| self.cues.per_word.contains(w))?;
            let named = label
                .iter()
                .any(|w| self.cues.unit_price_word.contains(&stem(w)));
            let unit = label.get(at + 1)?;
            named.then(|| stem(unit))
        };
        let pair = |q: usize, p: usize| -> bool {
            let unit = priced(&labels[p]);
            q != p
                && t.g.page.row_quantity_unit[q]
                && unit.is_some_and(|u| units(&labels[q]).contains(&u))
        };
        let (q, p) = if t.g.page.row_quantity_unit[row] {
            let p = (0..labels.len()).find(|&p| pair(row, p))?;
            (row, p)
        } else {
            let q = (0..labels.len()).find(|&q| pair(q, row))?;
            (q, row)
        };
        let at = |r: usize| t.g.only_cell(|c| c.row == r && c.column == column);
        Some((at(q)?, at(p)?))
    }
}

//! Building the plan: the named values (`PlanBuilder`), the formulas of the
//! ontology's calculation patterns (`Formulas`, one checked template an
//! operation), and the finished `Plan` and `Phase2` of a turn.

use super::operand::Operand;
use super::operation::Operation;
use super::template::Template;
use crate::ontology::{CalculationPattern, OntologyError};
use crate::planner::PlanError;
use crate::trace::ValueGrounding;
use crate::turn::{Phase2, Plan, ValueName, ValueSpec};
use rust_decimal::Decimal;
use std::collections::HashMap;

/// Collects the plan's values and the years and labels they carry.
#[derive(Default)]
pub(super) struct PlanBuilder {
    values: indexmap::IndexMap<ValueName, ValueSpec>,
    years: Vec<i32>,
    labels: Vec<String>,
    count: HashMap<String, usize>,
    grounding: Vec<ValueGrounding>,
}

impl PlanBuilder {
    /// A name not used yet: the stem, then `stem_2`, `stem_3`, ...
    fn fresh(&mut self, stem: &str) -> ValueName {
        let n = self.count.entry(stem.to_string()).or_insert(0);
        *n += 1;
        let name = if *n == 1 {
            stem.to_string()
        } else {
            format!("{stem}_{n}")
        };
        ValueName::new_unchecked(name)
    }

    /// Adds an operand and returns the formula text that stands for it.
    pub fn add(&mut self, stem: &str, o: Operand) -> String {
        let name = self.fresh(stem);
        if let Some(y) = o.year {
            self.years.push(y);
        }
        self.labels.push(o.label);
        if let Some(note) = o.grounding {
            self.grounding.push(ValueGrounding {
                value: name.to_string(),
                mention: note.mention,
                candidates: note.candidates,
            });
        }
        let text = if o.magnitude {
            format!("abs({name})")
        } else {
            name.to_string()
        };
        self.values.insert(name, o.spec);
        text
    }

    /// Adds a constant and returns its name.
    pub fn constant(&mut self, stem: &str, d: Decimal) -> String {
        let name = self.fresh(stem);
        let text = name.to_string();
        self.values.insert(name, ValueSpec::Constant(d));
        text
    }

    /// The turn's plan (values, entity, metric type, period), its Phase 2
    /// and how its values were grounded.
    pub fn finish(
        mut self,
        op: Operation,
        formula: String,
        metric: &[String],
    ) -> (Plan, Phase2, Vec<ValueGrounding>) {
        let period = {
            let mut ys: Vec<i32> = self.years.clone();
            ys.sort_unstable();
            ys.dedup();
            match ys.as_slice() {
                [] => None,
                [y] => Some(y.to_string()),
                [a, .., z] => Some(format!("{a} to {z}")),
            }
        };
        let entity = self.labels.first().cloned();
        let grounding = std::mem::take(&mut self.grounding);
        let plan = Plan {
            values: self.values,
            entity,
            metric_type: Some(op.metric_type()),
            period,
        };
        let phase2 = Phase2 {
            formula,
            reasoning: Some(format!(
                "rules: {} of {}",
                op.metric_type(),
                metric.join(" ")
            )),
        };
        (plan, phase2, grounding)
    }
}

/// The slots the planner fills in each operation's template (written as
/// one string, separated by spaces), and whether the template takes
/// further operands (`...`).
fn expected_slots(op: Operation) -> (&'static str, bool) {
    match op {
        Operation::Lookup => ("x", false),
        Operation::Change | Operation::PercentageChange => ("new old", false),
        Operation::Ratio => ("part whole", false),
        Operation::Sum => ("a b", true),
        Operation::Average => ("a b n", true),
        Operation::Product | Operation::Quotient => ("a n", false),
        Operation::Comparison => ("a b", false),
        Operation::Scale => ("a from to", false),
    }
}

/// Every operation the planner writes a formula for.
const OPERATIONS: [Operation; 10] = [
    Operation::Lookup,
    Operation::Change,
    Operation::PercentageChange,
    Operation::Ratio,
    Operation::Sum,
    Operation::Average,
    Operation::Product,
    Operation::Quotient,
    Operation::Comparison,
    Operation::Scale,
];

/// The formula template of each operation, read from its calculation
/// pattern and checked against the slots the planner fills.
#[derive(Debug, Clone)]
pub(super) struct Formulas {
    templates: Vec<(Operation, Template)>,
}

impl Formulas {
    /// The templates of `patterns`; an error names a pattern whose template
    /// does not parse or has other slots than the planner fills, or an
    /// operation no pattern gives a template.
    pub fn from_patterns(
        patterns: &[(Operation, &CalculationPattern)],
    ) -> Result<Self, OntologyError> {
        let mut templates = Vec::new();
        for op in OPERATIONS {
            let Some((_, pattern)) = patterns.iter().find(|(o, _)| *o == op) else {
                return Err(OntologyError::Pattern {
                    pattern: format!("{op:?}"),
                    message: "no calculation pattern has this operation".into(),
                });
            };
            let invalid = |message: String| OntologyError::Pattern {
                pattern: pattern.iri.clone(),
                message,
            };
            let template =
                Template::parse(&pattern.formula_template).map_err(|e| invalid(e.to_string()))?;
            let (slots, variadic) = expected_slots(op);
            let mut found = template.slots();
            found.sort_unstable();
            let mut wanted: Vec<&str> = slots.split_whitespace().collect();
            wanted.sort_unstable();
            if found != wanted || template.variadic() != variadic {
                return Err(invalid(format!(
                    "formula template `{template}` should name the slots {}{}",
                    slots.replace(' ', ", "),
                    if variadic {
                        " and end its sum with `...`"
                    } else {
                        ""
                    }
                )));
            }
            templates.push((op, template));
        }
        Ok(Self { templates })
    }

    /// The formula of `op` with its slots filled, and `more` operands for
    /// its `...`.
    pub fn fill(
        &self,
        op: Operation,
        slots: &[(&str, &str)],
        more: &[String],
    ) -> Result<String, PlanError> {
        let (_, template) = self
            .templates
            .iter()
            .find(|(o, _)| *o == op)
            .ok_or_else(|| PlanError::Unsupported(format!("no formula template for {op:?}")))?;
        template
            .fill(slots, more)
            .map_err(|e| PlanError::Unsupported(format!("formula template: {e}")))
    }

    /// The sum of `terms`: the sum template over two or more, the one term
    /// itself (the look-up template) alone.
    pub fn sum(&self, terms: &[String]) -> Result<String, PlanError> {
        match terms {
            [] => Err(PlanError::Unsupported("a sum of no values".into())),
            [x] => self.fill(Operation::Lookup, &[("x", x)], &[]),
            [a, b, more @ ..] => self.fill(Operation::Sum, &[("a", a), ("b", b)], more),
        }
    }
}

/// A sub-formula put in a slot of another formula, in parentheses.
pub(super) fn grouped(formula: &str) -> String {
    format!("({formula})")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn formulas() -> Formulas {
        let tbox = crate::ontology::tbox().unwrap();
        let patterns: Vec<(Operation, &CalculationPattern)> = tbox
            .patterns()
            .iter()
            .filter_map(|p| Operation::from_name(&p.operation).map(|op| (op, p)))
            .collect();
        Formulas::from_patterns(&patterns).unwrap()
    }

    #[test]
    fn the_ontology_templates_write_the_planner_formulas() {
        let f = formulas();
        let fill = |op, slots: &[(&str, &str)]| f.fill(op, slots, &[]).unwrap();
        assert_eq!(
            fill(Operation::Lookup, &[("x", "abs(value)")]),
            "abs(value)"
        );
        assert_eq!(
            fill(
                Operation::PercentageChange,
                &[("new", "new"), ("old", "old")]
            ),
            "(new - old) / old"
        );
        assert_eq!(
            fill(
                Operation::Scale,
                &[("a", "base"), ("from", "from_scale"), ("to", "to_scale")]
            ),
            "base * from_scale / to_scale"
        );
        assert_eq!(f.sum(&["term".into()]).unwrap(), "term");
        assert_eq!(
            f.sum(&["term".into(), "term_2".into(), "term_3".into()])
                .unwrap(),
            "term + term_2 + term_3"
        );
        let mean = f
            .fill(
                Operation::Average,
                &[("a", "term"), ("b", "term_2"), ("n", "count")],
                &["term_3".to_string()],
            )
            .unwrap();
        assert_eq!(mean, "(term + term_2 + term_3) / count");
    }

    #[test]
    fn a_template_with_other_slots_is_refused() {
        let tbox = crate::ontology::tbox().unwrap();
        let mut change = tbox
            .patterns()
            .iter()
            .find(|p| p.operation == "change")
            .unwrap()
            .clone();
        change.formula_template = "later - earlier".into();
        let mut patterns: Vec<(Operation, &CalculationPattern)> = tbox
            .patterns()
            .iter()
            .filter_map(|p| Operation::from_name(&p.operation).map(|op| (op, p)))
            .filter(|(op, _)| *op != Operation::Change)
            .collect();
        patterns.push((Operation::Change, &change));
        assert!(Formulas::from_patterns(&patterns).is_err());
    }
}

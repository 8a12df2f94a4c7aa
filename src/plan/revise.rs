//! The rules planner's revision after a critic's finding
//! ([`crate::planner::Planner::revise`]): the question is read the same
//! way and grounded again, without the page values the first plan chose
//! for the values the finding suspects (all of them when it names none),
//! so each such mention falls to its next-best candidate. A change that
//! read one page value twice (the `same_value` check) is instead that
//! value's look-up: the page prints the change itself ("volume/weather
//! 21.3" in a table of variances), or, when the suspect's next-best
//! grounding is a change the text states ("operating revenues increased
//! $ 411.0 million to $ 1.2 billion" read twice at `$ 1.2 billion`), that
//! stated change's look-up ([`printed_change`]).

use super::build::Formulas;
use super::operation::Operation;
use crate::planner::PlanError;
use crate::trace::{CandidateNote, ValueGrounding};
use crate::turn::{CheckKind, Finding, MetricType, Phase2, Plan};
use rust_decimal::Decimal;
use std::collections::HashSet;

/// The candidates the revision leaves out, each for the mention it won
/// (mention and candidate as the grounding notes name them): the winners
/// of the suspected values' groundings.
pub(super) fn excluded(
    grounding: &[ValueGrounding],
    finding: &Finding,
) -> HashSet<(String, String)> {
    grounding
        .iter()
        .filter(|g| finding.suspects.is_empty() || finding.suspects.contains(&g.value))
        .filter_map(|g| {
            g.candidates
                .first()
                .map(|c| (g.mention.clone(), c.source.clone()))
        })
        .collect()
}

/// The candidates left out for one mention.
pub(super) fn for_mention(excluded: &HashSet<(String, String)>, mention: &str) -> HashSet<String> {
    excluded
        .iter()
        .filter(|(m, _)| m == mention)
        .map(|(_, s)| s.clone())
        .collect()
}

/// The ranked candidates without the excluded ones (`describe` names a
/// candidate as the grounding notes do) and without any other candidate
/// of the same number (`value`): a number printed twice ("2.1% ( 2.1 % )")
/// is no other grounding.
pub(super) fn without<T: Copy, F>(
    ranked: Vec<(f64, T, F)>,
    excluded: &HashSet<String>,
    describe: impl Fn(T) -> String,
    value: impl Fn(T) -> Decimal,
) -> Vec<(f64, T, F)> {
    if excluded.is_empty() {
        return ranked;
    }
    let numbers: Vec<Decimal> = ranked
        .iter()
        .filter(|(_, t, _)| excluded.contains(&describe(*t)))
        .map(|(_, t, _)| value(*t))
        .collect();
    ranked
        .into_iter()
        .filter(|(_, t, _)| !numbers.contains(&value(*t)) && !excluded.contains(&describe(*t)))
        .collect()
}

/// Whether a grounding candidate is a change the text states
/// ("increased $ 411.0 million").
fn states_change(c: &CandidateNote) -> bool {
    c.features
        .iter()
        .any(|(name, _)| name.starts_with("fact_change"))
}

/// For a change that read one page value twice (`same_value`), when that
/// value is no stated change but the suspect's next candidates hold one:
/// the winner to leave out, so that the suspect falls to the stated change
/// (the page prints the change next to the level it reached).
pub(super) fn printed_change(
    first: &Plan,
    grounding: &[ValueGrounding],
    finding: &Finding,
) -> Option<HashSet<(String, String)>> {
    if finding.check != CheckKind::SameValue || first.metric_type != Some(MetricType::Change) {
        return None;
    }
    let name = finding.suspects.first()?;
    let g = grounding.iter().find(|g| &g.value == name)?;
    let (winner, rest) = g.candidates.split_first()?;
    if states_change(winner) || !rest.iter().any(states_change) {
        return None;
    }
    Some(HashSet::from([(g.mention.clone(), winner.source.clone())]))
}

/// Whether the regrounded suspect won a stated change.
pub(super) fn won_stated_change(grounding: &[ValueGrounding], finding: &Finding) -> bool {
    let Some(name) = finding.suspects.first() else {
        return false;
    };
    grounding
        .iter()
        .find(|g| &g.value == name)
        .and_then(|g| g.candidates.first())
        .is_some_and(states_change)
}

/// The look-up of the value a change read twice, when the finding says so.
pub(super) fn as_lookup(
    first: &Plan,
    finding: &Finding,
    formulas: &Formulas,
) -> Option<Result<(Plan, Phase2), PlanError>> {
    if finding.check != CheckKind::SameValue || first.metric_type != Some(MetricType::Change) {
        return None;
    }
    let name = finding.suspects.first()?;
    let mut plan = first.clone();
    plan.values.retain(|k, _| k.as_str() == name);
    if plan.values.len() != 1 {
        return None;
    }
    plan.metric_type = Some(Operation::Lookup.metric_type());
    Some(
        formulas
            .fill(Operation::Lookup, &[("x", name.as_str())], &[])
            .map(|formula| {
                let phase2 = Phase2 {
                    formula,
                    reasoning: Some(format!(
                        "rules: the value the change read twice ({})",
                        finding.check.name()
                    )),
                };
                (plan, phase2)
            }),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::RulesPlanner;
    use crate::turn::{ValueName, ValueSpec};

    fn change_of_one_cell() -> Plan {
        let cell = ValueSpec::Sparql {
            sparql: "SELECT ?value WHERE { }".into(),
            description: "weather (amount)".into(),
        };
        let mut plan = Plan {
            metric_type: Some(MetricType::Change),
            ..Plan::default()
        };
        plan.values
            .insert(ValueName::new("new").unwrap(), cell.clone());
        plan.values.insert(ValueName::new("old").unwrap(), cell);
        plan
    }

    fn finding(check: CheckKind) -> Finding {
        Finding {
            check,
            message: "the change reads the same page value twice".into(),
            suspects: vec!["old".into()],
        }
    }

    #[test]
    fn a_change_of_one_value_with_itself_becomes_its_look_up() {
        let rules = RulesPlanner::new().unwrap();
        let (plan, phase2) = as_lookup(
            &change_of_one_cell(),
            &finding(CheckKind::SameValue),
            &rules.formulas,
        )
        .unwrap()
        .unwrap();
        assert_eq!(plan.metric_type, Some(MetricType::Value));
        let names: Vec<&str> = plan.values.keys().map(|k| k.as_str()).collect();
        assert_eq!(names, ["old"]);
        assert_eq!(phase2.formula, "old");
        // other findings regrounded instead
        assert!(as_lookup(
            &change_of_one_cell(),
            &finding(CheckKind::Year),
            &rules.formulas
        )
        .is_none());
    }

    #[test]
    fn the_winners_of_the_suspects_are_left_out_for_their_own_mention() {
        let note = |value: &str, mention: &str, source: &str| ValueGrounding {
            value: value.into(),
            mention: mention.into(),
            candidates: vec![crate::trace::CandidateNote {
                source: source.into(),
                score: 1.0,
                features: Vec::new(),
            }],
        };
        let grounding = [
            note("new", "weather in 2009", "cell a"),
            note("old", "weather in 2008", "cell a"),
        ];
        let left_out = excluded(&grounding, &finding(CheckKind::Year));
        assert_eq!(for_mention(&left_out, "weather in 2008").len(), 1);
        assert!(for_mention(&left_out, "weather in 2009").is_empty());
        let all = Finding {
            suspects: Vec::new(),
            ..finding(CheckKind::Magnitude)
        };
        assert_eq!(excluded(&grounding, &all).len(), 2);
    }

    #[test]
    fn a_level_read_twice_falls_to_the_change_the_text_states() {
        let candidate = |source: &str, feature: &str| crate::trace::CandidateNote {
            source: source.into(),
            score: 1.0,
            features: vec![(feature.into(), 0.7)],
        };
        let grounding = |first: &str, second: &str| {
            vec![ValueGrounding {
                value: "old".into(),
                mention: "revenues in 2001".into(),
                candidates: vec![
                    candidate("text `$ 1.2 billion`", first),
                    candidate("text `$ 411.0 million`", second),
                ],
            }]
        };
        let plan = change_of_one_cell();
        let stated = grounding("phrase", "fact_change_unasked");
        let left_out = printed_change(&plan, &stated, &finding(CheckKind::SameValue)).unwrap();
        assert_eq!(
            left_out,
            HashSet::from([(
                "revenues in 2001".to_string(),
                "text `$ 1.2 billion`".to_string()
            )])
        );
        assert!(!won_stated_change(&stated, &finding(CheckKind::SameValue)));
        let regrounded = grounding("fact_change_unasked", "phrase");
        assert!(won_stated_change(
            &regrounded,
            &finding(CheckKind::SameValue)
        ));
        // no stated change among the candidates, or the winner is one already
        assert!(printed_change(
            &plan,
            &grounding("phrase", "phrase"),
            &finding(CheckKind::SameValue)
        )
        .is_none());
        assert!(printed_change(&plan, &regrounded, &finding(CheckKind::SameValue)).is_none());
        // other findings are regrounded as before
        assert!(printed_change(&plan, &stated, &finding(CheckKind::Year)).is_none());
    }

    #[test]
    fn a_number_printed_twice_is_no_other_grounding() {
        let ranked = vec![(2.0, 0, ()), (1.5, 1, ()), (1.0, 2, ())];
        let values = [dec(2.1), dec(2.1), dec(119.0)];
        let excluded = HashSet::from(["c0".to_string()]);
        let left = without(ranked, &excluded, |t| format!("c{t}"), |t: usize| values[t]);
        let kept: Vec<usize> = left.iter().map(|(_, t, _)| *t).collect();
        assert_eq!(kept, [2]);
    }

    fn dec(x: f64) -> Decimal {
        Decimal::try_from(x).unwrap()
    }
}

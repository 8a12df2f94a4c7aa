//! The rules planner's revision after a critic's finding
//! ([`crate::planner::Planner::revise`]): the question is read the same
//! way and grounded again, without the page values the first plan chose
//! for the values the finding suspects (all of them when it names none),
//! so each such mention falls to its next-best candidate.

use crate::trace::ValueGrounding;
use crate::turn::Finding;
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

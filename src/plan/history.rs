//! The conversation's earlier results as operands: the last one, the last
//! two, the one about a year, how many values an earlier sum added, and
//! the metric words of the last turn that named one.

use super::cues::Cues;
use super::operand::{reference_operand, Operand};
use crate::planner::PlanError;
use crate::turn::{MetricType, TurnResult};
use crate::words::normalise_question;

/// How many values an earlier sum added up (following sums of sums).
pub(super) fn count_terms(sum: &TurnResult, history: &[&TurnResult]) -> usize {
    sum.variables
        .iter()
        .map(|v| {
            let reference = v
                .source
                .strip_prefix("result_")
                .and_then(|s| s.split(':').next())
                .and_then(|n| n.parse::<usize>().ok());
            match reference.and_then(|n| history.iter().find(|h| h.turn == n)) {
                Some(h) if h.metric_type == MetricType::Sum => count_terms(h, history),
                _ => 1,
            }
        })
        .sum::<usize>()
        .max(1)
}

/// The metric words of the last turn that named one.
pub(super) fn inherited_metric(history: &[&TurnResult], cues: &Cues) -> Vec<String> {
    for h in history.iter().rev() {
        let w = cues.mention_words(&normalise_question(&h.question));
        if !cues.specific(&w).is_empty() {
            return w;
        }
    }
    Vec::new()
}

/// Whether an earlier result's description holds every one of `own` (and
/// `own` is not empty): the question names that result.
pub(super) fn names_result(h: &TurnResult, own: &[String]) -> bool {
    let label = crate::words::content_words(&h.description);
    !own.is_empty()
        && own
            .iter()
            .all(|w| label.iter().any(|l| super::ground::same_word(l, w)))
}

/// The last earlier result.
pub(super) fn last_result(history: &[&TurnResult]) -> Result<Operand, PlanError> {
    history
        .last()
        .map(|h| reference_operand(h))
        .ok_or_else(|| PlanError::NoEarlierResult("this is the first answered turn".into()))
}

/// The last two earlier results, first-asked first, when they are of one
/// kind other than a value (two sums, two changes): "what was the change?",
/// "the sum of the two changes".
pub(super) fn last_two_of_one_kind(history: &[&TurnResult]) -> Option<(Operand, Operand)> {
    match history {
        [.., x, y] if x.metric_type == y.metric_type && x.metric_type != MetricType::Value => {
            Some((reference_operand(x), reference_operand(y)))
        }
        _ => None,
    }
}

/// The last two earlier results, first-asked first.
pub(super) fn last_two(history: &[&TurnResult]) -> Result<(Operand, Operand), PlanError> {
    match history {
        [.., a, b] => Ok((reference_operand(a), reference_operand(b))),
        _ => Err(PlanError::NoEarlierResult(
            "fewer than two earlier results".into(),
        )),
    }
}

/// An earlier single value about `year`.
pub(super) fn result_with_year(history: &[&TurnResult], year: i32) -> Option<Operand> {
    history
        .iter()
        .rev()
        .find(|h| {
            h.metric_type == MetricType::Value
                && h.period.as_deref() == Some(year.to_string().as_str())
        })
        .map(|h| reference_operand(h))
}

/// The last earlier change or percentage change.
pub(super) fn last_change<'h>(history: &[&'h TurnResult]) -> Option<&'h TurnResult> {
    history
        .iter()
        .rev()
        .find(|h| {
            h.metric_type == MetricType::Change || h.metric_type == MetricType::PercentageChange
        })
        .copied()
}

/// The last earlier sum.
pub(super) fn last_sum<'h>(history: &[&'h TurnResult]) -> Option<&'h TurnResult> {
    history
        .iter()
        .rev()
        .find(|h| h.metric_type == MetricType::Sum)
        .copied()
}

/// The single values asked after an earlier turn, as operands.
pub(super) fn values_since(history: &[&TurnResult], turn: usize) -> Vec<Operand> {
    history
        .iter()
        .filter(|h| h.turn > turn && h.metric_type == MetricType::Value)
        .map(|h| reference_operand(h))
        .collect()
}

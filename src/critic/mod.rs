//! Critics: checks of a proposed result before the pipeline accepts it.
//!
//! A [`Critic`] reads a turn's question, the conversation so far and the
//! [`TurnResult`] a planner proposes, and either accepts it or returns a
//! [`Finding`]. On a finding the pipeline asks the planner for a revision
//! ([`crate::planner::Planner::revise`]), reviews it again, and on its
//! finding asks for another, up to `Planners::max_revisions` rounds (one
//! unless told); it keeps the first revised result the critic accepts;
//! otherwise the first result stands.
//!
//! [`Deterministic`] needs no model. Its checks, each silent unless the
//! question and the result clearly disagree:
//! - **scale**: the question asks for a scale ("in millions") and the
//!   result carries another;
//! - **percentage**: the question asks for a percentage and the result is an
//!   amount (a look-up, change, sum or average of amounts, no division, no
//!   printed percentage, no earlier fraction); or a ratio of two page
//!   values divides an amount and a printed percentage;
//! - **sign**: the question asks for a decrease (and not for a change or an
//!   increase) and the computed change is positive, or for an increase (and
//!   not for a change or a decrease) and it is negative;
//! - **year**: a page value that is a year (a whole number from 1900 to
//!   2100 printed without "$" or a thousands separator) when the question
//!   asks no year or date;
//! - **magnitude**: a result more than 1000 times every operand;
//! - **same value**: a change or ratio of two values that reads the same
//!   page value twice (0 or 1 by construction);
//! - **share**: "what percentage of" answered by a ratio of page amounts
//!   above one hundred (the part larger than the whole even read as a
//!   percentage).
//!
//! Its cue words are the ontology's (`ontology/critic.ttl`), not Rust
//! literals. The LLM critic ([`crate::llm::LlmCritic`]) runs these checks
//! first and then asks a model.
//!
//! **Invariant:** a critic sees what a planner sees (question, earlier
//! results, the proposed result); never gold.

use crate::ontology::{self, Tbox};
use crate::turn::{
    Answer, CheckKind, ConversationState, Finding, LlmExchange, MetricType, Scale, TurnResult,
    UsedValue,
};
use crate::words;
use rust_decimal::Decimal;

/// What a critic reviews: a turn's question, the conversation before it
/// and the result a planner proposes.
#[derive(Debug, Clone, Copy)]
pub struct Review<'a> {
    /// The question of the turn.
    pub question: &'a str,
    /// The results of the earlier turns.
    pub state: &'a ConversationState,
    /// The proposed result.
    pub result: &'a TurnResult,
}

/// A critic of proposed results.
pub trait Critic {
    /// The critic's name as `--critic` spells it.
    fn name(&self) -> &'static str;
    /// Accepts the result (`None`) or says what looks wrong.
    fn review(&mut self, review: &Review<'_>) -> Option<Finding>;
    /// The exchanges with a language model since the last call, for the
    /// turn's trace (none for critics that use no model).
    fn take_exchanges(&mut self) -> Vec<LlmExchange> {
        Vec::new()
    }
    /// Why the run must stop, if it must: a critic with a model shares the
    /// run's budget and clock (none for critics that use no model).
    fn stop_reason(&self) -> Option<String> {
        None
    }
}

/// The checks that need no model, with their cue words from the TBox.
#[derive(Debug, Clone)]
pub struct Deterministic {
    decrease: Vec<String>,
    increase: Vec<String>,
    either_sign: Vec<String>,
    percentage: Vec<String>,
    year: Vec<String>,
    punctuation_code: Vec<String>,
    scales: Vec<Scale>,
}

/// How many times every operand a result may be before it looks wrong.
const MAGNITUDE_LIMIT: i64 = 1000;

impl Deterministic {
    /// The critic with the TBox's cue words (`ontology/critic.ttl`) and
    /// scale words.
    pub fn new() -> Result<Self, ontology::OntologyError> {
        Ok(Self::from_tbox(ontology::tbox()?))
    }

    /// The critic with the cue words of `tbox`.
    pub fn from_tbox(tbox: &Tbox) -> Self {
        let stemmed = |name: &str| -> Vec<String> {
            tbox.word_list(name)
                .iter()
                .map(|w| words::stem(w))
                .collect()
        };
        Self {
            decrease: stemmed("DecreaseAsked"),
            increase: stemmed("IncreaseAsked"),
            either_sign: stemmed("EitherSignAsked"),
            percentage: stemmed("PercentageAsked"),
            year: stemmed("YearAsked"),
            punctuation_code: tbox.word_list("PunctuationCode").to_vec(),
            scales: tbox.scales().to_vec(),
        }
    }

    /// Every check in turn; the first that fails.
    pub fn check(&self, review: &Review<'_>) -> Option<Finding> {
        let stems: Vec<String> = words::tokens(review.question)
            .iter()
            .map(|t| words::stem(t))
            .collect();
        let q = Question {
            text: review.question,
            stems: &stems,
        };
        self.scale(&q, review.result)
            .or_else(|| same_value_twice(review.result))
            .or_else(|| self.percentage(&q, review))
            .or_else(|| self.share(&q, review.result))
            .or_else(|| self.sign(&q, review.result))
            .or_else(|| self.year(&q, review.result))
            .or_else(|| magnitude(review.result))
    }

    /// The scale the question asks its answer in ("in millions").
    fn asked_scale(&self, q: &Question<'_>) -> Option<&Scale> {
        q.stems.windows(2).find_map(|w| {
            (w[0] == "in")
                .then(|| self.scales.iter().find(|s| words::stem(s.word()) == w[1]))
                .flatten()
        })
    }

    fn scale(&self, q: &Question<'_>, result: &TurnResult) -> Option<Finding> {
        let asked = self.asked_scale(q)?;
        let has = result.scale.as_ref()?;
        if has.multiplier() == asked.multiplier() {
            return None;
        }
        Some(Finding {
            check: CheckKind::Scale,
            message: format!(
                "the question asks for the answer in {}s, but the result is in {}s",
                asked.word(),
                has.word()
            ),
            suspects: result
                .variables
                .iter()
                .filter(|v| v.scale.as_ref().is_some_and(|s| s == has))
                .map(|v| v.name.clone())
                .collect(),
        })
    }

    fn percentage(&self, q: &Question<'_>, review: &Review<'_>) -> Option<Finding> {
        let r = review.result;
        if let Some(f) = mixed_ratio(r) {
            return Some(f);
        }
        if !(q.has_any(&self.percentage) || q.text.contains('%')) {
            return None;
        }
        let divides = match r.metric_type {
            MetricType::Value | MetricType::Change | MetricType::Sum => r.formula.contains('/'),
            // an average divides by its count, not by a whole
            MetricType::Average => false,
            _ => return None,
        };
        if divides || r.variables.is_empty() {
            return None;
        }
        let fraction = |v: &UsedValue| {
            printed_percentage(v)
                || earlier(review.state, v).is_some_and(|e| {
                    e.formula.contains('/')
                        || !matches!(
                            e.metric_type,
                            MetricType::Value
                                | MetricType::Change
                                | MetricType::Sum
                                | MetricType::Average
                        )
                })
        };
        if r.variables.iter().any(fraction) {
            return None;
        }
        Some(Finding {
            check: CheckKind::Percentage,
            message: format!(
                "the question asks for a percentage, but the result is a {} of amounts, \
                 with no division and no printed percentage",
                r.metric_type
            ),
            suspects: Vec::new(),
        })
    }

    /// "what percentage of X is Y": a share of page values above one.
    fn share(&self, q: &Question<'_>, result: &TurnResult) -> Option<Finding> {
        if result.metric_type != MetricType::Ratio
            || !q.has_any(&self.percentage)
            || result
                .variables
                .iter()
                .any(|v| v.sparql.is_none() || printed_percentage(v))
        {
            return None;
        }
        // above one hundred: larger than the whole even read as a percentage
        let value = result.value.number()?;
        if value.abs() <= Decimal::ONE_HUNDRED {
            return None;
        }
        Some(Finding {
            check: CheckKind::Percentage,
            message: format!(
                "the question asks for a percentage of a whole, but the part is larger than the whole ({})",
                result.value
            ),
            suspects: Vec::new(),
        })
    }

    /// A change whose sign is not the one the question asks: a decrease
    /// asked and a rise computed, or an increase asked and a fall.
    fn sign(&self, q: &Question<'_>, result: &TurnResult) -> Option<Finding> {
        if !matches!(
            result.metric_type,
            MetricType::Change | MetricType::PercentageChange
        ) || q.has_any(&self.either_sign)
        {
            return None;
        }
        let value = result.value.number()?;
        let (asked, computed) = match (q.has_any(&self.decrease), q.has_any(&self.increase)) {
            (true, false) if value > Decimal::ZERO => ("a decrease", "positive, an increase"),
            (false, true) if value < Decimal::ZERO => ("an increase", "negative, a decrease"),
            _ => return None,
        };
        Some(Finding {
            check: CheckKind::Sign,
            message: format!(
                "the question asks for {asked}, but the computed {} is {computed} ({})",
                result.metric_type, result.value
            ),
            suspects: Vec::new(),
        })
    }

    /// A table cell in the range of years is an amount ("revenue" of 1950,
    /// any cell printed "$ 2,020") unless it is a punctuation code ("2014" for an em dash) or its row
    /// names a year or date (a column "year ended ..." names the period); a
    /// number of the text in that range reads as a year unless it is
    /// printed with a currency sign or a thousands separator ("2,012").
    fn reads_as_year(&self, v: &UsedValue) -> bool {
        // a value printed with a currency sign or a thousands separator
        // ("$ 2,020", "the rig count was 2,012") is an amount, whatever its
        // row or sentence
        let cell = v.node.as_deref().is_some_and(|n| n.contains("/cell/"));
        let printed = if cell {
            v.source
                .rsplit_once(": `")
                .map_or("", |(_, raw)| raw.trim_end_matches('`'))
        } else {
            v.source.rsplit_once("(number `").map_or("", |(_, raw)| {
                raw.trim_end_matches(')').trim_end_matches('`')
            })
        };
        if printed.contains('$') || printed.contains(',') {
            return false;
        }
        if !cell {
            return true;
        }
        let printed = v.value.normalize().to_string();
        self.punctuation_code.contains(&printed)
            || v.metric.as_deref().is_some_and(|row| {
                words::tokens(row)
                    .iter()
                    .any(|w| self.year.contains(&words::stem(w)))
            })
    }

    fn year(&self, q: &Question<'_>, result: &TurnResult) -> Option<Finding> {
        if q.has_any(&self.year) || !matches!(result.value, Answer::Number(_)) {
            return None;
        }
        let years: Vec<&UsedValue> = result
            .variables
            .iter()
            .filter(|v| {
                v.sparql.is_some()
                    && v.value.fract().is_zero()
                    && v.value >= Decimal::from(1900)
                    && v.value <= Decimal::from(2100)
                    && self.reads_as_year(v)
            })
            .collect();
        let first = years.first()?;
        Some(Finding {
            check: CheckKind::Year,
            message: format!(
                "the question asks for an amount, but {} = {} ({}) reads as a year",
                first.name,
                first.value.normalize(),
                first.source
            ),
            suspects: years.iter().map(|v| v.name.clone()).collect(),
        })
    }
}

/// Whether a page value was printed as a percentage (its source ends with
/// the printed number in backticks: `` `12.5%` ``).
fn printed_percentage(v: &UsedValue) -> bool {
    v.sparql.is_some()
        && v.source
            .rsplit('`')
            .nth(1)
            .is_some_and(|printed| printed.contains('%'))
}

/// A ratio of two page values of which one was printed as a percentage and
/// the other as an amount: a percentage of an amount is no share of it.
fn mixed_ratio(result: &TurnResult) -> Option<Finding> {
    if result.metric_type != MetricType::Ratio {
        return None;
    }
    let [a, b] = result.variables.as_slice() else {
        return None;
    };
    if a.sparql.is_none() || b.sparql.is_none() {
        return None;
    }
    let percent: Vec<&UsedValue> = [a, b]
        .into_iter()
        .filter(|v| printed_percentage(v))
        .collect();
    let [p] = percent.as_slice() else {
        return None;
    };
    Some(Finding {
        check: CheckKind::Percentage,
        message: format!(
            "the ratio divides an amount and a printed percentage ({} = {}), which are not parts of one whole",
            p.name,
            p.value.normalize()
        ),
        suspects: vec![p.name.clone()],
    })
}

/// A change or ratio that reads one page value twice: its two operands
/// are the same cell or number, so the result is 0 or 1 by construction.
fn same_value_twice(result: &TurnResult) -> Option<Finding> {
    if !matches!(
        result.metric_type,
        MetricType::Change | MetricType::PercentageChange | MetricType::Ratio
    ) {
        return None;
    }
    let vars = &result.variables;
    if vars.len() != 2 {
        return None;
    }
    let twice: Vec<String> = vars
        .iter()
        .enumerate()
        .filter(|(i, v)| v.node.is_some() && vars[..*i].iter().any(|w| w.node == v.node))
        .map(|(_, v)| v.name.clone())
        .collect();
    if twice.is_empty() {
        return None;
    }
    Some(Finding {
        check: CheckKind::SameValue,
        message: format!(
            "the {} reads the same page value twice ({}), so it compares a value with itself",
            result.metric_type,
            twice.join(", ")
        ),
        suspects: twice,
    })
}

/// The earlier result a bound value refers to, if it is one.
fn earlier<'s>(state: &'s ConversationState, v: &UsedValue) -> Option<&'s TurnResult> {
    let (reference, _) = v.source.split_once(':')?;
    let turn: usize = reference.strip_prefix("result_")?.parse().ok()?;
    state.result(turn)
}

/// A result more than [`MAGNITUDE_LIMIT`] times its largest operand.
fn magnitude(result: &TurnResult) -> Option<Finding> {
    let value = result.value.number()?.abs();
    let largest = result.variables.iter().map(|v| v.value.abs()).max()?;
    if largest.is_zero() {
        return None;
    }
    let limit = largest.checked_mul(Decimal::from(MAGNITUDE_LIMIT))?;
    if value <= limit {
        return None;
    }
    Some(Finding {
        check: CheckKind::Magnitude,
        message: format!(
            "the result {} is more than {MAGNITUDE_LIMIT} times every value it was computed from \
             (the largest is {}): a scale or a value is likely wrong",
            result.value,
            largest.normalize()
        ),
        suspects: result
            .variables
            .iter()
            .filter(|v| v.sparql.is_some())
            .map(|v| v.name.clone())
            .collect(),
    })
}

/// A question's text and its stemmed words.
struct Question<'a> {
    text: &'a str,
    stems: &'a [String],
}

impl Question<'_> {
    fn has_any(&self, list: &[String]) -> bool {
        self.stems.iter().any(|s| list.contains(s))
    }
}

impl Critic for Deterministic {
    fn name(&self) -> &'static str {
        "deterministic"
    }

    fn review(&mut self, review: &Review<'_>) -> Option<Finding> {
        self.check(review)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::str::FromStr;

    fn dec(s: &str) -> Decimal {
        Decimal::from_str(s).unwrap()
    }

    /// A page value: a cell printed as `printed`.
    fn cell(name: &str, value: &str, printed: &str) -> UsedValue {
        UsedValue {
            name: name.into(),
            value: dec(value),
            description: format!("{name} of the page"),
            source: format!("cell row `{name}`, column `2009`: `{printed}`"),
            metric: Some(name.into()),
            year: Some(2009),
            scale: None,
            sparql: Some("SELECT ?value WHERE { }".into()),
            node: Some(format!("https://example.org/page/cell/{name}")),
        }
    }

    fn constant(name: &str, value: &str) -> UsedValue {
        UsedValue {
            name: name.into(),
            value: dec(value),
            description: format!("the constant {value}"),
            source: "constant".into(),
            metric: None,
            year: None,
            scale: None,
            sparql: None,
            node: None,
        }
    }

    fn result(
        metric_type: MetricType,
        value: &str,
        formula: &str,
        vars: Vec<UsedValue>,
    ) -> TurnResult {
        TurnResult {
            turn: 0,
            question: String::new(),
            value: Answer::Number(dec(value)),
            scale: None,
            description: String::new(),
            entity: None,
            metric_type,
            period: None,
            variables: vars,
            formula: formula.into(),
        }
    }

    /// The check that fails for `question` and `result` after `state`, if any.
    fn check_in(
        state: &ConversationState,
        question: &str,
        result: &TurnResult,
    ) -> Option<CheckKind> {
        let critic = Deterministic::new().unwrap();
        critic
            .check(&Review {
                question,
                state,
                result,
            })
            .map(|f| f.check)
    }

    fn check(question: &str, result: &TurnResult) -> Option<CheckKind> {
        check_in(&ConversationState::new(), question, result)
    }

    fn million() -> Scale {
        ontology::tbox().unwrap().scale("million").unwrap()
    }

    fn thousand() -> Scale {
        ontology::tbox().unwrap().scale("thousand").unwrap()
    }

    #[test]
    fn scale_asked_against_the_results_scale() {
        let mut r = result(
            MetricType::Value,
            "1500",
            "v",
            vec![cell("v", "1500", "1,500")],
        );
        r.scale = Some(thousand());
        r.variables[0].scale = Some(thousand());
        let f = Deterministic::new()
            .unwrap()
            .check(&Review {
                question: "what was revenue in 2009, in millions?",
                state: &ConversationState::new(),
                result: &r,
            })
            .unwrap();
        assert_eq!(f.check, CheckKind::Scale);
        assert_eq!(f.suspects, ["v"]);
        assert!(f.message.contains("millions"), "{}", f.message);
        r.scale = Some(million());
        assert_eq!(check("what was revenue in 2009, in millions?", &r), None);
        // no scale asked, or none known: silent
        r.scale = Some(thousand());
        assert_eq!(check("what was revenue in 2009?", &r), None);
        r.scale = None;
        assert_eq!(check("what was revenue in 2009, in millions?", &r), None);
    }

    #[test]
    fn percentage_asked_against_an_amount() {
        let amount = result(
            MetricType::Change,
            "300",
            "new - old",
            vec![cell("new", "1500", "1,500"), cell("old", "1200", "1,200")],
        );
        assert_eq!(
            check("what percentage did revenue grow?", &amount),
            Some(CheckKind::Percentage)
        );
        assert_eq!(check("how much did revenue grow?", &amount), None);
        // a fraction computed, or printed percentages: silent
        let fraction = result(
            MetricType::PercentageChange,
            "0.25",
            "(new - old) / old",
            amount.variables.clone(),
        );
        assert_eq!(check("what percentage did revenue grow?", &fraction), None);
        let printed = result(
            MetricType::Change,
            "2",
            "new - old",
            vec![cell("new", "12", "12%"), cell("old", "10", "10%")],
        );
        assert_eq!(
            check("by how many percent did the margin grow?", &printed),
            None
        );
        // an earlier ratio as an operand is a fraction
        let mut state = ConversationState::new();
        state.push_turn(
            "what share?",
            Some(result(MetricType::Ratio, "0.2", "a / b", Vec::new())),
        );
        let mut earlier = constant("share", "0.2");
        earlier.source = "result_0: what share?".into();
        let from_earlier = result(MetricType::Value, "0.2", "share", vec![earlier]);
        assert_eq!(check_in(&state, "and in percentage?", &from_earlier), None);
    }

    #[test]
    fn a_ratio_of_an_amount_and_a_printed_percentage() {
        let r = result(
            MetricType::Ratio,
            "41.43",
            "part / whole",
            vec![cell("part", "87", "87"), cell("whole", "2.1", "2.1%")],
        );
        let f = Deterministic::new()
            .unwrap()
            .check(&Review {
                question: "what did the charges represent in relation to the increase?",
                state: &ConversationState::new(),
                result: &r,
            })
            .unwrap();
        assert_eq!(f.check, CheckKind::Percentage);
        assert_eq!(f.suspects, ["whole"]);
        let both = result(
            MetricType::Ratio,
            "2",
            "part / whole",
            vec![cell("part", "4.2", "4.2%"), cell("whole", "2.1", "2.1%")],
        );
        assert_eq!(check("what is the ratio?", &both), None);
    }

    #[test]
    fn a_share_above_one_hundred() {
        let r = result(
            MetricType::Ratio,
            "150",
            "part / whole",
            vec![cell("part", "300", "300"), cell("whole", "2", "2")],
        );
        assert_eq!(
            check("what percentage of the total is the europe segment?", &r),
            Some(CheckKind::Percentage)
        );
        // above one but not above one hundred: it may be a percentage already
        let r = result(
            MetricType::Ratio,
            "22.35",
            "part / whole",
            vec![cell("part", "95", "95"), cell("whole", "4.25", "4.25")],
        );
        assert_eq!(check("what percentage of the total is europe?", &r), None);
    }

    #[test]
    fn sign_asked_against_the_results_sign() {
        let vars = vec![cell("new", "1500", "1,500"), cell("old", "1200", "1,200")];
        let up = result(MetricType::Change, "300", "new - old", vars.clone());
        assert_eq!(
            check("how much did revenue decline from 2008 to 2009?", &up),
            Some(CheckKind::Sign)
        );
        let down = result(MetricType::Change, "-300", "new - old", vars.clone());
        assert_eq!(
            check("how much did revenue decline from 2008 to 2009?", &down),
            None
        );
        // a change that may go either way, or a look-up: silent
        assert_eq!(
            check("what was the increase or decrease in revenue?", &up),
            None
        );
        let down_pct = result(
            MetricType::PercentageChange,
            "-0.2",
            "(new - old) / old",
            vars.clone(),
        );
        assert_eq!(
            check("what was the growth rate of revenue?", &down_pct),
            Some(CheckKind::Sign)
        );
        assert_eq!(check("what was the growth rate of revenue?", &up), None);
        assert_eq!(check("what was the change in revenue?", &down), None);
        let lookup = result(MetricType::Value, "300", "v", vec![cell("v", "300", "300")]);
        assert_eq!(
            check("what was the decrease in revenue in 2009?", &lookup),
            None
        );
    }

    #[test]
    fn a_page_value_that_is_a_year() {
        let in_row = |row: &str, value: &str| {
            let mut v = cell("v", value, value);
            v.metric = Some(row.into());
            result(MetricType::Value, value, "v", vec![v])
        };
        let r = in_row("revenue record year", "2007");
        // an amount in the range of years is an amount, unless it is the
        // digits of a dash's code point
        assert_eq!(
            check("what was revenue in 2009?", &in_row("revenue", "1950")),
            None
        );
        assert_eq!(
            check("what was revenue in 2009?", &in_row("revenue", "2014")),
            Some(CheckKind::Year)
        );
        assert_eq!(
            check("what was the revenue record in 2009?", &r),
            Some(CheckKind::Year)
        );
        assert_eq!(check("in what year was the revenue record?", &r), None);
        assert_eq!(check("when does the lease expire?", &r), None);
        let amount = result(
            MetricType::Value,
            "2007.5",
            "v",
            vec![cell("v", "2007.5", "2,007.5")],
        );
        assert_eq!(check("what was the revenue in 2009?", &amount), None);
        let constant_year = result(
            MetricType::Product,
            "4014",
            "v * n",
            vec![cell("v", "2", "2"), constant("n", "2007")],
        );
        assert_eq!(check("what is it times 2007?", &constant_year), None);
    }

    #[test]
    fn a_text_number_printed_as_an_amount_is_no_year() {
        let fact = |printed: &str, value: &str| {
            let v = UsedValue {
                node: Some("https://example.org/page/fact/2/7".into()),
                source: format!(
                    "sentence 2: \"the rig count was {printed} in 2011\" (number `{printed}`)"
                ),
                metric: None,
                ..cell("v", value, printed)
            };
            result(MetricType::Value, value, "v", vec![v])
        };
        let question = "what was the rig count in 2011?";
        assert_eq!(check(question, &fact("2,012", "2012")), None);
        assert_eq!(check(question, &fact("$ 2012", "2012")), None);
        assert_eq!(
            check(question, &fact("2012", "2012")),
            Some(CheckKind::Year)
        );
    }

    #[test]
    fn a_result_a_thousand_times_its_operands() {
        let r = result(
            MetricType::Ratio,
            "15000000",
            "a / b",
            vec![cell("a", "1500", "1,500"), cell("b", "0.0001", "0.0001")],
        );
        assert_eq!(check("what is a over b?", &r), Some(CheckKind::Magnitude));
        let r = result(
            MetricType::Ratio,
            "1500",
            "a / b",
            vec![cell("a", "1500", "1,500"), cell("b", "1", "1")],
        );
        assert_eq!(check("what is a over b?", &r), None);
    }

    #[test]
    fn a_change_of_one_value_with_itself() {
        let mut twice = cell("old", "1500", "1,500");
        twice.node = Some("https://example.org/page/cell/new".into());
        let r = result(
            MetricType::Change,
            "0",
            "new - old",
            vec![cell("new", "1500", "1,500"), twice],
        );
        let f = Deterministic::new()
            .unwrap()
            .check(&Review {
                question: "what was the change in revenue?",
                state: &ConversationState::new(),
                result: &r,
            })
            .unwrap();
        assert_eq!(f.check, CheckKind::SameValue);
        assert_eq!(f.suspects, ["old"]);
        let apart = result(
            MetricType::Change,
            "300",
            "new - old",
            vec![cell("new", "1500", "1,500"), cell("old", "1200", "1,200")],
        );
        assert_eq!(check("what was the change in revenue?", &apart), None);
    }

    #[test]
    fn yes_no_answers_pass() {
        let mut r = result(
            MetricType::Comparison,
            "0",
            "a > b",
            vec![cell("a", "2007", "2007"), cell("b", "1", "1")],
        );
        r.value = Answer::Yes;
        assert_eq!(check("was revenue greater?", &r), None);
    }
}

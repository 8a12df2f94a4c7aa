//! The rules planner: deterministic, offline, free.
//!
//! It reads a question in three steps:
//! 1. **Operation** — the calculation pattern whose trigger phrase the
//!    question holds (phrases and priorities come from
//!    `ontology/patterns.ttl`); phrases that are part of a row or column
//!    label ("weighted average exercise price") do not count.
//! 2. **Operands** — each mention is either a reference to an earlier result
//!    ("that change", "this 2005 value", "the two years") resolved through
//!    the results' metadata, a constant printed in the question ("times
//!    100"), or grounded in the page: the cell or text fact whose labels and
//!    context best match the mention's words and whose year matches.
//!    Mentions without words of their own ("and in 2006?") inherit the
//!    metric of the last turn that named one.
//! 3. **Plan** — one SPARQL query a grounded operand (a cell by row and
//!    column, a text fact by sentence and token), and the pattern's formula.
//!
//! Conventions of the dataset it follows: changes are later minus earlier
//! (or first-asked minus second-asked for values from earlier turns),
//! percentage changes and ratios are fractions, and table figures printed as
//! negatives are taken as magnitudes unless the question asks for a sign.

use super::cues::{contains_any, contains_phrase, split_at_first, Cues};
use super::ground::{same_word, Grounder, Weights};
use super::operand::{constant_operand, operand_from_used, reference_operand, Operand, Whole};
use crate::kg::{CellEntry, Schema};
use crate::ontology::{self, CalculationPattern};
use crate::planner::{PlanError, Planner, TurnContext};
use crate::trace::ValueGrounding;
use crate::turn::{MetricType, Phase2, Plan, Scale, TurnResult, ValueName, ValueSpec};
use crate::words::{self, content_words};
use rust_decimal::Decimal;
use std::collections::{HashMap, HashSet};
use std::str::FromStr;

/// The operations the rules planner can plan; named as in `fk:operation`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Operation {
    /// One value.
    Lookup,
    /// Later minus earlier.
    Change,
    /// (later - earlier) / earlier.
    PercentageChange,
    /// part / whole.
    Ratio,
    /// a + b (+ ...).
    Sum,
    /// mean of values.
    Average,
    /// a * n.
    Product,
    /// a / n.
    Quotient,
    /// a > b.
    Comparison,
    /// An earlier result in another scale.
    Scale,
}

impl Operation {
    fn from_name(name: &str) -> Option<Self> {
        Some(match name {
            "lookup" => Self::Lookup,
            "change" => Self::Change,
            "percentage_change" => Self::PercentageChange,
            "ratio" => Self::Ratio,
            "sum" => Self::Sum,
            "average" => Self::Average,
            "product" => Self::Product,
            "quotient" => Self::Quotient,
            "comparison" => Self::Comparison,
            "scale" => Self::Scale,
            _ => return None,
        })
    }
    fn metric_type(self) -> MetricType {
        match self {
            Self::Lookup | Self::Scale => MetricType::Value,
            Self::Change => MetricType::Change,
            Self::PercentageChange => MetricType::PercentageChange,
            Self::Ratio | Self::Quotient => MetricType::Ratio,
            Self::Sum => MetricType::Sum,
            Self::Average => MetricType::Average,
            Self::Product => MetricType::Product,
            Self::Comparison => MetricType::Comparison,
        }
    }
}

/// The rules planner. Holds the TBox's patterns and the formula of the turn
/// being planned between its two phases.
pub struct RulesPlanner {
    patterns: Vec<(Operation, &'static CalculationPattern)>,
    reference_phrases: Vec<String>,
    scale_words: Vec<(String, Decimal)>,
    cues: Cues,
    weights: Weights,
    /// Match question words against the lexicon concepts' labels of rows too.
    lexicon: bool,
    pending: Option<Phase2>,
    /// How the last planned turn's values were grounded, by value name.
    grounding: Vec<ValueGrounding>,
}

impl RulesPlanner {
    /// A planner reading its patterns from the TBox.
    pub fn new() -> Result<Self, ontology::OntologyError> {
        let tbox = ontology::tbox()?;
        let patterns = tbox
            .patterns()
            .iter()
            .filter_map(|p| Operation::from_name(&p.operation).map(|op| (op, p)))
            .collect();
        Ok(Self {
            patterns,
            reference_phrases: tbox.reference_phrases().to_vec(),
            scale_words: tbox.scale_words().to_vec(),
            cues: Cues::from_tbox(tbox),
            weights: Weights::from_env().map_err(ontology::OntologyError::Query)?,
            lexicon: true,
            pending: None,
            grounding: Vec::new(),
        })
    }

    /// Whether grounding also matches a row through its lexicon concept's
    /// labels (on by default).
    pub fn with_lexicon(mut self, on: bool) -> Self {
        self.lexicon = on;
        self
    }
}

impl Planner for RulesPlanner {
    fn name(&self) -> &'static str {
        "rules"
    }

    fn phase1(&mut self, ctx: &TurnContext<'_>) -> Result<Plan, PlanError> {
        self.grounding.clear();
        let (plan, phase2, grounding) = self.plan_turn(ctx)?;
        self.pending = Some(phase2);
        self.grounding = grounding;
        Ok(plan)
    }

    fn take_grounding(&mut self) -> Vec<ValueGrounding> {
        std::mem::take(&mut self.grounding)
    }

    fn phase2(
        &mut self,
        _ctx: &TurnContext<'_>,
        _plan: &Plan,
        _values: &[crate::turn::UsedValue],
    ) -> Result<Phase2, PlanError> {
        self.pending
            .take()
            .ok_or_else(|| PlanError::Unsupported("phase 2 asked before phase 1".into()))
    }
}

/// A question, read.
#[derive(Debug, Clone)]
struct Reading {
    /// Lowercased, punctuation spaced out, padded with spaces.
    text: String,
    op: Operation,
    years: Vec<i32>,
    constants: Vec<Decimal>,
    /// Content words that name what is asked about.
    metric: Vec<String>,
    refers: bool,
    /// The sum was read from the word "total" alone, which often names a row.
    weak_sum: bool,
    /// "A less B" with no constant: maybe two mentions to subtract.
    less: bool,
}

fn normalise_question(q: &str) -> String {
    let mut out = String::from(" ");
    for c in q.to_lowercase().chars() {
        match c {
            '?' | ',' | ';' | ':' | '"' | '(' | ')' => out.push(' '),
            '’' => out.push('\''),
            _ => out.push(c),
        }
    }
    let mut s = out.split_whitespace().collect::<Vec<_>>().join(" ");
    s.insert(0, ' ');
    s.push(' ');
    s
}

/// Numbers printed in the question that are not years: `100`, `$ 1`, `1000`.
fn question_numbers(cues: &Cues, text: &str) -> (Vec<i32>, Vec<Decimal>) {
    let mut years = Vec::new();
    let mut numbers = Vec::new();
    let toks: Vec<&str> = text.split_whitespace().collect();
    for (i, tok) in toks.iter().enumerate() {
        let prev = i
            .checked_sub(1)
            .and_then(|p| toks.get(p))
            .copied()
            .unwrap_or("");
        // a constant of the calculation, not part of a name like "s&p 500"
        let operand_position = tok.starts_with('$') || cues.constant_lead.iter().any(|w| w == prev);
        let t = tok
            .trim_start_matches('$')
            .trim_end_matches('.')
            .trim_end_matches('%');
        if let Some(n) = cues
            .number_word(t)
            .filter(|_| cues.number_word_lead.iter().any(|w| w == prev))
        {
            numbers.push(n);
        } else if let Some(y) = crate::kg::text::as_year(t) {
            years.push(y);
        } else if t.contains('/') || t.contains('-') {
            // "12/31/10", "31-dec-2012"
            years.extend(words::years_in(t));
        } else if t
            .bytes()
            .all(|b| b.is_ascii_digit() || b == b'.' || b == b',')
            && t.bytes().any(|b| b.is_ascii_digit())
        {
            if let Ok(d) = Decimal::from_str(&t.replace(',', "")) {
                if operand_position {
                    numbers.push(d);
                }
            }
        }
    }
    (years, numbers)
}

impl RulesPlanner {
    fn read(&self, question: &str, schema: &Schema) -> Reading {
        let text = normalise_question(question);
        let (years, constants) = question_numbers(&self.cues, &text);
        // Mask phrases of two or more words that the page uses as labels, so
        // that "weighted average exercise price" does not read as an average.
        let masked = mask_time_spans(&mask_label_phrases(&text, schema), &self.cues);
        let bare = self
            .cues
            .continuation_lead
            .iter()
            .any(|l| l.contains(' ') && text.starts_with(&format!(" {l} ")));
        let refers_early = self
            .reference_phrases
            .iter()
            .any(|p| contains_phrase(&text, p));
        let scale_question = (refers_early || bare)
            && years.is_empty()
            && self.cues.specific(&content_words(&text)).is_empty();
        let mut best: Option<(i64, Operation, &str)> = None;
        for (op, pattern) in &self.patterns {
            // "what is that in millions?" restates an earlier result; "what was,
            // in millions, the total of X?" only names the unit of its value.
            // The scale asked for may also be a table's unit label, so it is
            // looked for in the unmasked text.
            if *op == Operation::Scale && !scale_question {
                continue;
            }
            let haystack = if *op == Operation::Scale {
                &text
            } else {
                &masked
            };
            for trigger in &pattern.triggers {
                if contains_phrase(haystack, trigger) {
                    // "what is the average between them, in billions?" is an
                    // average; only a bare restatement is a scale conversion
                    let priority = if *op == Operation::Scale {
                        0
                    } else {
                        pattern.priority
                    };
                    if best.is_none_or(|(p, _, _)| priority > p) {
                        best = Some((priority, *op, trigger.as_str()));
                    }
                    break;
                }
            }
        }
        let refers = self
            .reference_phrases
            .iter()
            .any(|p| contains_phrase(&text, p));
        let mut op = best.map_or(Operation::Lookup, |(_, op, _)| op);
        let trigger = best.map(|(_, _, t)| t).unwrap_or("");
        let weak_sum = op == Operation::Sum
            && self.cues.weak_sum_trigger.iter().any(|w| w == trigger)
            && !contains_any(&masked, &self.cues.sum_word);
        if weak_sum {
            // the question's opening "and" says nothing about the count
            let body = masked
                .trim_start()
                .split_once(' ')
                .filter(|(first, _)| self.cues.continuation_lead.iter().any(|l| l == first))
                .map_or(masked.as_str(), |(_, rest)| rest);
            let several = years.len() >= 2 || contains_any(&format!(" {body}"), &self.cues.several);
            if !several {
                op = Operation::Lookup;
            }
        }
        if op == Operation::Quotient && constants.is_empty() {
            op = Operation::Ratio;
        }
        if op == Operation::Product && constants.is_empty() && !refers {
            op = Operation::Lookup;
        }
        // "what is revenue less net income?" subtracts two mentions; "the
        // cost less depreciation" may be a row's name
        let less = op == Operation::Change
            && self.cues.difference_connector.iter().any(|w| w == trigger)
            && constants.is_empty()
            && !refers;
        if less {
            op = Operation::Lookup;
        }
        let trigger_words: HashSet<String> = self
            .patterns
            .iter()
            .flat_map(|(_, p)| p.triggers.iter())
            .filter(|t| contains_phrase(&masked, t))
            .flat_map(|t| content_words(t))
            .collect();
        let metric = self
            .cues
            .mention_words(&text)
            .into_iter()
            .filter(|w| !trigger_words.contains(w))
            .collect();
        Reading {
            text,
            op,
            years,
            constants,
            metric,
            refers,
            weak_sum,
            less,
        }
    }

    fn plan_turn(
        &self,
        ctx: &TurnContext<'_>,
    ) -> Result<(Plan, Phase2, Vec<ValueGrounding>), PlanError> {
        let mut r = self.read(ctx.question, ctx.schema);
        // "and from 2007 to 2008?", "and in operating income over the same
        // period?": the operation of the turn before, on new periods or rows
        if r.op == Operation::Lookup
            && self
                .cues
                .continuation_lead
                .iter()
                .any(|l| r.text.starts_with(&format!(" {l} ")))
        {
            let previous = ctx.state.turns().last().and_then(Option::as_ref);
            let repeated = previous.and_then(|p| match p.metric_type {
                MetricType::Change => Some(Operation::Change),
                MetricType::PercentageChange => Some(Operation::PercentageChange),
                _ => None,
            });
            if let Some(op) = repeated {
                if r.years.len() >= 2
                    || (r.years.is_empty() && !self.cues.specific(&r.metric).is_empty())
                {
                    r.op = op;
                }
            }
        }
        let asked_scale = self
            .scale_words
            .iter()
            .find(|(w, _)| r.text.contains(&format!(" in {w}")))
            .map(|(w, _)| w.clone());
        let mut g = Grounder::new(
            ctx.schema,
            ctx.question,
            self.lexicon,
            &self.weights,
            &self.cues,
            asked_scale,
        );
        let history: Vec<&TurnResult> = ctx.state.answered().collect();
        g.earlier = history
            .iter()
            .flat_map(|h| h.variables.iter())
            .filter_map(|v| v.metric.clone())
            .collect();
        let inherited = inherited_metric(&history, &self.cues);
        // words the page never prints (a typo, "what os the net change?")
        // say nothing about which value is meant, so a turn with earlier
        // results reads them as a follow-up; a first turn keeps them, and
        // finds nothing
        let mut own_metric = self.cues.specific(&r.metric);
        if !history.is_empty() && own_metric.iter().all(|w| !g.knows(w)) {
            own_metric.clear();
        }
        // "and at the beginning of 2010?": a cue of this turn replaces the
        // inherited one, and the row may change with it
        let own_cues: Vec<String> = r
            .metric
            .iter()
            .filter(|w| w.starts_with('@'))
            .cloned()
            .collect();
        let inherited: Vec<String> = if own_cues.is_empty() {
            inherited
        } else {
            inherited
                .into_iter()
                .filter(|w| !w.starts_with('@'))
                .chain(own_cues.iter().cloned())
                .collect()
        };
        if own_metric.is_empty() && own_cues.is_empty() {
            // "and in 2006?": the same row (or sentence) as the last value asked
            g.anchor = history
                .iter()
                .rev()
                .find(|h| h.metric_type == MetricType::Value)
                .and_then(|h| h.variables.first())
                .and_then(|v| v.metric.clone())
                .map(|label| (inherited.clone(), label));
        }
        let metric: Vec<String> = if own_metric.is_empty() && !inherited.is_empty() {
            inherited.clone()
        } else {
            r.metric.clone()
        };
        let last_year = history
            .iter()
            .rev()
            .find_map(|h| h.variables.iter().rev().find_map(|v| v.year));
        let difference_pair = if r.op == Operation::Lookup && r.less {
            self.difference_of_mentions(&r, &g)
        } else if r.op == Operation::Lookup {
            self.total_without(&r, &g, last_year)
        } else {
            None
        };
        let mut b = PlanBuilder::default();
        // "A less B", "X without Y" are recorded as changes, which later turns may name
        let op = if difference_pair.is_some() {
            Operation::Change
        } else {
            r.op
        };
        let formula = if let Some((x, y)) = difference_pair {
            let n = b.add("new", x);
            let o = b.add("old", y);
            format!("{n} - {o}")
        } else {
            match r.op {
                Operation::Lookup => {
                    let year = r.years.first().copied().or(last_year);
                    let o = g.ground(&metric, year)?;
                    // "what was the total, in thousands?" of "$ 8.5 million"
                    let asked = self.asked_scale(&r.text);
                    let printed = o.scale.as_ref().map(Scale::multiplier);
                    let v = b.add("value", o);
                    match (printed, asked) {
                        (Some(from), Some(to)) if from != to => {
                            let f = b.constant("from_scale", from);
                            let t = b.constant("to_scale", to);
                            format!("{v} * {f} / {t}")
                        }
                        _ => v,
                    }
                }
                Operation::Product if r.constants.is_empty() => {
                    // "what is the ratio times the 2011 value?"
                    let (left, right) = split_at_first(&r.text, &self.cues.product_connector)
                        .ok_or_else(|| {
                            PlanError::Unsupported("a product needs two factors".into())
                        })?;
                    let left = strip_ratio_lead(left, &self.cues);
                    let x = self.mention(left, &g, &history, &metric, last_year)?;
                    let y = self.mention(right, &g, &history, &metric, last_year)?;
                    let a = b.add("factor", x);
                    let c = b.add("factor", y);
                    format!("{a} * {c}")
                }
                Operation::Product | Operation::Quotient => {
                    let base = if r.refers || own_metric.is_empty() {
                        last_result(&history)?
                    } else {
                        g.ground(&metric, r.years.first().copied().or(last_year))?
                    };
                    let a = b.add("base", base);
                    let n = r.constants.last().copied().unwrap_or(Decimal::ONE);
                    let c = b.constant("n", n);
                    if r.op == Operation::Product {
                        format!("{a} * {c}")
                    } else {
                        format!("{a} / {c}")
                    }
                }
                Operation::Scale => {
                    let last = history.last().ok_or_else(|| {
                        PlanError::NoEarlierResult("this is the first answered turn".into())
                    })?;
                    let (from, to) = self.scales(last, &r.text, ctx.schema);
                    let a = b.add("base", reference_operand(last));
                    let f = b.constant("from_scale", from);
                    let t = b.constant("to_scale", to);
                    format!("{a} * {f} / {t}")
                }
                Operation::Comparison => {
                    let (x, y) = self.comparison_operands(&r, &g, &history, last_year)?;
                    let a = b.add("first", x);
                    let c = b.add("second", y);
                    format!("{a} > {c}")
                }
                Operation::Change | Operation::PercentageChange => {
                    match self.change_operands(
                        &r,
                        &g,
                        &history,
                        &metric,
                        own_metric.is_empty(),
                        ctx.schema,
                    )? {
                        ChangeInputs::Pair(new, old) => {
                            let n = b.add("new", new);
                            let o = b.add("old", old);
                            if r.op == Operation::Change {
                                format!("{n} - {o}")
                            } else {
                                format!("({n} - {o}) / {o}")
                            }
                        }
                        ChangeInputs::OfChange(change, old) => {
                            let c = b.add("change", change);
                            let o = b.add("old", old);
                            format!("{c} / {o}")
                        }
                    }
                }
                Operation::Ratio => {
                    let (num, den) = self.ratio_operands(&r, &g, &history, &metric, last_year)?;
                    let part_scale = num.scale.as_ref().map(Scale::multiplier);
                    let n = b.add("part", num);
                    match den {
                        Whole::One(den) => {
                            let whole_scale = den.scale.as_ref().map(Scale::multiplier);
                            let d = b.add("whole", den);
                            match (part_scale, whole_scale) {
                                // "$ 8.5 million" of a table "( in thousands )"
                                (Some(p), Some(w)) if p != w => {
                                    let ps = b.constant("part_scale", p);
                                    let ws = b.constant("whole_scale", w);
                                    format!("({n} * {ps}) / ({d} * {ws})")
                                }
                                _ => format!("{n} / {d}"),
                            }
                        }
                        Whole::Sum(terms) => {
                            let d: Vec<String> =
                                terms.into_iter().map(|t| b.add("whole", t)).collect();
                            format!("{n} / ({})", d.join(" + "))
                        }
                    }
                }
                Operation::Sum | Operation::Average => {
                    let terms = match self.sum_operands(&r, &g, &history, &metric, last_year) {
                        Ok(t) => t,
                        // "the weighted average discount rate in 2015": a look-up after all
                        Err(PlanError::Unsupported(_)) => SumTerms::Values(vec![
                            g.ground(&metric, r.years.first().copied().or(last_year))?
                        ]),
                        Err(e) => return Err(e),
                    };
                    let (names, count): (Vec<String>, usize) = match terms {
                        SumTerms::Values(ops) => {
                            let n = ops.len();
                            (ops.into_iter().map(|o| b.add("term", o)).collect(), n)
                        }
                        SumTerms::SumResult(o, n) => (vec![b.add("sum", o)], n),
                    };
                    let sum = names.join(" + ");
                    if r.op == Operation::Sum {
                        sum
                    } else {
                        let c = b.constant("count", Decimal::from(count as u64));
                        if names.len() == 1 {
                            format!("{sum} / {c}")
                        } else {
                            format!("({sum}) / {c}")
                        }
                    }
                }
            }
        };
        let period = {
            let mut ys: Vec<i32> = b.years.clone();
            ys.sort_unstable();
            ys.dedup();
            match ys.as_slice() {
                [] => None,
                [y] => Some(y.to_string()),
                [a, .., z] => Some(format!("{a} to {z}")),
            }
        };
        let entity = b.labels.first().cloned();
        let grounding = std::mem::take(&mut b.grounding);
        let plan = Plan {
            values: b.values,
            entity,
            metric_type: Some(op.metric_type()),
            period,
        };
        Ok((
            plan,
            Phase2 {
                formula,
                reasoning: Some(format!(
                    "rules: {} of {}",
                    op.metric_type(),
                    metric.join(" ")
                )),
            },
            grounding,
        ))
    }

    /// "what is revenue less net income?": two different values, each named
    /// on its side of "less" (or "minus").
    fn difference_of_mentions(&self, r: &Reading, g: &Grounder<'_>) -> Option<(Operand, Operand)> {
        let (left, right) = split_at_first(&r.text, &self.cues.difference_connector)?;
        let left = strip_ratio_lead(left, &self.cues);
        let (wl, wr) = (
            self.cues.mention_words(left),
            self.cues.mention_words(right),
        );
        if self.cues.specific(&wl).is_empty() || self.cues.specific(&wr).is_empty() {
            return None;
        }
        let year = r.years.first().copied();
        let x = g
            .ground(
                &wl,
                question_numbers(&self.cues, left)
                    .0
                    .first()
                    .copied()
                    .or(year),
            )
            .ok()?;
        let y = g
            .ground(
                &wr,
                question_numbers(&self.cues, right)
                    .0
                    .first()
                    .copied()
                    .or(year),
            )
            .ok()?;
        (x.spec != y.spec).then_some((x, y))
    }

    /// "what would 2005 operating income be without the commercial banking
    /// segment?": the total the named part belongs to, and the part.
    fn total_without(
        &self,
        r: &Reading,
        g: &Grounder<'_>,
        last_year: Option<i32>,
    ) -> Option<(Operand, Operand)> {
        let (left, right) = split_at_first(&r.text, &self.cues.exclusion_connector)?;
        let part_words = self.cues.mention_words(right);
        if self.cues.specific(&part_words).is_empty() {
            return None;
        }
        let year = r.years.first().copied().or(last_year);
        // the whole's words say which column the part is read in
        let left_words = self.cues.mention_words(left);
        let mut words = part_words.clone();
        words.extend(self.cues.specific(&left_words));
        let part = g.ground(&words, year).ok()?;
        match g.total_for(&part, &left_words)? {
            Whole::One(total) => Some((total, part)),
            Whole::Sum(_) => None,
        }
    }

    /// Operands of a change: later and earlier.
    fn change_operands(
        &self,
        r: &Reading,
        g: &Grounder<'_>,
        history: &[&TurnResult],
        metric: &[String],
        no_metric: bool,
        schema: &Schema,
    ) -> Result<ChangeInputs, PlanError> {
        use ChangeInputs::Pair;
        // "that less 1", "the value in 2017 less an initial $100 investment"
        if let Some(c) = r.constants.last().copied() {
            let base = if r.refers || no_metric {
                last_result(history)?
            } else {
                g.ground(metric, r.years.last().copied())?
            };
            return Ok(Pair(base, constant_operand(c)));
        }
        let mut years = r.years.clone();
        years.dedup();
        if years.len() >= 2 {
            let (a, b) = (years[0], years[years.len() - 1]);
            let (late, early) = if a >= b { (a, b) } else { (b, a) };
            if no_metric {
                // "and from 2013 to 2014, what was that increase" — reuse values of earlier turns when they match
                if let (Some(n), Some(o)) = (
                    result_with_year(history, late),
                    result_with_year(history, early),
                ) {
                    return Ok(Pair(n, o));
                }
            }
            // "from the start of 2010 to the end of 2012": each year's own cue
            let late_words = self
                .cues
                .with_marks(metric, &self.cues.marks_before(&r.text, late));
            let early_words = self
                .cues
                .with_marks(metric, &self.cues.marks_before(&r.text, early));
            let new = g.ground(&late_words, Some(late))?;
            let mut old = g.ground(&early_words, Some(early)).or_else(|e| {
                // a performance index starts at 100 in its base year
                if is_index_table(schema) {
                    Ok(constant_operand(Decimal::ONE_HUNDRED))
                } else {
                    Err(e)
                }
            })?;
            // a table printing a year twice (quarter and full year): the
            // columns that sit together
            let new = g.nearest_twin(new, &old);
            old = g.nearest_twin(old, &new);
            return Ok(Pair(new, old));
        }
        if no_metric || r.refers {
            // the last two values asked: first-asked minus second-asked
            let values: Vec<&&TurnResult> = history
                .iter()
                .filter(|h| h.metric_type == MetricType::Value)
                .collect();
            if r.op == Operation::PercentageChange {
                if let Some(change) = history
                    .iter()
                    .rev()
                    .find(|h| h.metric_type == MetricType::Change)
                {
                    if let Some(old) = change.variables.get(1) {
                        return Ok(ChangeInputs::OfChange(
                            reference_operand(change),
                            operand_from_used(old),
                        ));
                    }
                }
            }
            let last_two_are_values = history.len() >= 2
                && history[history.len() - 2..]
                    .iter()
                    .all(|h| h.metric_type == MetricType::Value);
            if is_index_table(schema)
                && years.is_empty()
                && !last_two_are_values
                && history
                    .last()
                    .is_some_and(|h| h.metric_type == MetricType::Value)
            {
                if let Some(last) = history.last() {
                    return Ok(Pair(
                        reference_operand(last),
                        constant_operand(Decimal::ONE_HUNDRED),
                    ));
                }
            }
            if values.len() >= 2 {
                let x = values[values.len() - 2];
                let y = values[values.len() - 1];
                return Ok(Pair(reference_operand(x), reference_operand(y)));
            }
            // "what was the change in this performance value from 2001 to 2006" on one year
        }
        if years.len() == 1 {
            let y = years[0];
            // "over the five year period ended 2017" on a performance index:
            // from its base of 100
            if is_index_table(schema) && self.names_whole_period(&r.text) {
                let new = g.ground(metric, Some(y))?;
                return Ok(Pair(new, constant_operand(Decimal::ONE_HUNDRED)));
            }
            // a change over a named year, or from the inherited years
            if let Some(prev) = history.iter().rev().find(|h| {
                h.metric_type == MetricType::Change || h.metric_type == MetricType::PercentageChange
            }) {
                let ys: Vec<i32> = prev.variables.iter().filter_map(|v| v.year).collect();
                if ys.len() == 2 && ys.contains(&y) {
                    let new = g.ground(metric, Some(ys[0].max(ys[1])))?;
                    let old = g.ground(metric, Some(ys[0].min(ys[1])))?;
                    return Ok(Pair(new, old));
                }
            }
            let new = g.ground(metric, Some(y))?;
            let old = match g.ground(metric, Some(y - 1)) {
                Ok(o) => o,
                Err(_) if is_index_table(schema) => constant_operand(Decimal::ONE_HUNDRED),
                Err(e) => return Err(e),
            };
            return Ok(Pair(new, old));
        }
        // no year: inherit the years of the last change, else of the last two values
        if let Some(prev) = history.iter().rev().find(|h| {
            h.metric_type == MetricType::Change || h.metric_type == MetricType::PercentageChange
        }) {
            let ys: Vec<i32> = prev.variables.iter().filter_map(|v| v.year).collect();
            if ys.len() >= 2 && ys[0] != ys[1] {
                let new = g.ground(metric, Some(ys[0].max(ys[1])))?;
                let old = g.ground(metric, Some(ys[0].min(ys[1])))?;
                return Ok(Pair(new, old));
            }
        }
        let ys = g.years();
        if ys.len() >= 2 {
            let new = g.ground(metric, Some(ys[ys.len() - 1]))?;
            let old = g.ground(metric, Some(ys[ys.len() - 2]))?;
            return Ok(Pair(new, old));
        }
        Err(PlanError::Unsupported(format!(
            "a change needs two periods: `{}`",
            r.text.trim()
        )))
    }

    /// Operands of a ratio: part and whole.
    fn ratio_operands(
        &self,
        r: &Reading,
        g: &Grounder<'_>,
        history: &[&TurnResult],
        metric: &[String],
        last_year: Option<i32>,
    ) -> Result<(Operand, Whole), PlanError> {
        let text = r.text.as_str();
        let year_default = r.years.last().copied().or(last_year);
        // "what percentage of the total X in 2019 is from the first quarter",
        // "what portion of this price was dedicated to goodwill"
        for lead in &self.cues.share_lead {
            let lead = format!(" {lead} ");
            let Some(pos) = text.find(&lead) else {
                continue;
            };
            // "this change as a portion of the 2010 value": the part is an earlier result
            if self.refers_in(&text[..pos]) {
                continue;
            }
            let rest = &text[pos + lead.len()..];
            // split the whole from the part at the first verb; failing that,
            // at a preposition ("of total commitments expire in 1-3 years")
            let split_at = |words: &[String]| -> Option<(&str, &str)> {
                words
                    .iter()
                    .filter_map(|v| {
                        let v = format!(" {v} ");
                        rest.find(&v).map(|i| (i, v.len()))
                    })
                    .min()
                    .map(|(i, n)| (&rest[..i], &rest[i + n..]))
            };
            let splits = [
                split_at(&self.cues.part_whole_verb),
                split_at(&self.cues.part_whole_preposition),
            ];
            for (whole, part) in splits.into_iter().flatten() {
                let mut part_words = self.cues.mention_words(part);
                if self.cues.specific(&part_words).is_empty() {
                    continue;
                }
                let own_part = self.cues.specific(&part_words);
                let whole_words = self.cues.mention_words(whole);
                let whole_is_earlier = self.names_earlier(whole);
                if whole_is_earlier {
                    // "of that long-term debt": its name still says which row
                    part_words.extend(
                        self.cues
                            .specific(&whole_words)
                            .into_iter()
                            .filter(|w| w != "year"),
                    );
                } else {
                    part_words.extend(whole_words.iter().cloned());
                }
                let year = question_numbers(&self.cues, part)
                    .0
                    .first()
                    .copied()
                    .or(year_default);
                let Ok(mut num) = g.ground(&part_words, year) else {
                    continue;
                };
                // the whole's words must not pull the part onto the whole itself
                let label = match &num.spec {
                    ValueSpec::Sparql { description, .. } => content_words(description),
                    _ => content_words(&num.label),
                };
                if !own_part
                    .iter()
                    .any(|w| label.iter().any(|l| same_word(l, w)))
                {
                    if let Ok(o) = g.ground(&own_part, year) {
                        num = o;
                    }
                }
                let den = if whole_is_earlier {
                    Whole::One(self.mention(whole, g, history, metric, year)?)
                } else if let Some(total) = g.total_for(&num, &whole_words) {
                    total
                } else {
                    let mut words = whole_words;
                    if !words.iter().any(|w| w == "total") {
                        words.push("total".into());
                    }
                    Whole::One(
                        g.ground(
                            &words,
                            question_numbers(&self.cues, whole)
                                .0
                                .first()
                                .copied()
                                .or(year),
                        )?,
                    )
                };
                if !matches!(&den, Whole::One(d) if d.spec == num.spec) {
                    return Ok((num, den));
                }
            }
        }
        for conn in &self.cues.ratio_connector {
            let needle = format!(" {conn} ");
            let Some(pos) = text.find(&needle) else {
                continue;
            };
            let left = &text[..pos];
            let right = &text[pos + needle.len()..];
            let left = strip_ratio_lead(left, &self.cues);
            if content_words(left).is_empty() && !self.refers_in(left) {
                continue;
            }
            let num = self.mention(left, g, history, metric, year_default)?;
            let right_words = content_words(right);
            if words::tokens(right).iter().any(|w| w == "total") && !self.names_earlier(right) {
                if let Some(total) = g.total_for(&num, &right_words) {
                    return Ok((num, total));
                }
            }
            let den = self.mention(right, g, history, metric, year_default)?;
            if num.spec != den.spec {
                return Ok((num, Whole::One(den)));
            }
        }
        // "what is the ratio?" — the last two results
        let (x, y) = last_two(history)?;
        Ok((x, Whole::One(y)))
    }

    /// "is that greater than 1000?", "which one is greater: A in 2009 or in
    /// 2008?", "which is greater?" (the last two results, first-asked first).
    fn comparison_operands(
        &self,
        r: &Reading,
        g: &Grounder<'_>,
        history: &[&TurnResult],
        last_year: Option<i32>,
    ) -> Result<(Operand, Operand), PlanError> {
        if let Some(c) = r.constants.last().copied() {
            return Ok((last_result(history)?, constant_operand(c)));
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
            let ya = question_numbers(&self.cues, a)
                .0
                .first()
                .copied()
                .or(last_year);
            let yb = question_numbers(&self.cues, b).0.first().copied().or(ya);
            if !self.cues.specific(&wa).is_empty() {
                if let (Ok(x), Ok(y)) = (g.ground(&wa, ya), g.ground(&wb, yb)) {
                    return Ok((x, y));
                }
            }
        }
        last_two(history)
    }

    /// The multiplier of a scale word ("million"), from the ontology.
    fn multiplier(&self, word: &str) -> Option<Decimal> {
        self.scale_words
            .iter()
            .find(|(w, _)| word.contains(w.as_str()))
            .map(|(_, m)| *m)
    }

    /// The scale a question asks its answer in: "in thousands".
    fn asked_scale(&self, text: &str) -> Option<Decimal> {
        self.scale_words
            .iter()
            .find(|(w, _)| text.contains(&format!(" in {w}")))
            .map(|(_, m)| *m)
    }

    /// The multipliers of an earlier result's scale and of the scale asked for.
    fn scales(&self, last: &TurnResult, question: &str, schema: &Schema) -> (Decimal, Decimal) {
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
            .find_map(|l| self.multiplier(l).filter(|_| l.contains("in ")));
        let from = self
            .multiplier(&sources)
            .or(page_scale)
            .unwrap_or(Decimal::ONE);
        (from, to)
    }

    /// "the cumulative return", "over the five-year period": a change
    /// measured over an index's whole period.
    fn names_whole_period(&self, text: &str) -> bool {
        let toks: Vec<&str> = text.split_whitespace().collect();
        contains_any(text, &self.cues.whole_period)
            || toks.iter().any(|t| t.ends_with("-year"))
            || toks.windows(2).any(|w| {
                (self.cues.number_word(w[0]).is_some() || w[0].parse::<u32>().is_ok())
                    && w[1].starts_with("year")
            })
    }

    /// Whether a side of a ratio points back at an earlier result; "the
    /// total X" names a total of the page, not an earlier sum.
    fn names_earlier(&self, text: &str) -> bool {
        let t = format!(" {} ", text.trim()).replace(" the total ", " total ");
        self.refers_in(&t)
    }

    fn refers_in(&self, text: &str) -> bool {
        let t = format!(" {} ", text.trim());
        self.reference_phrases
            .iter()
            .any(|p| contains_phrase(&t, p))
    }

    /// One side of a ratio: a reference to an earlier result or a grounded value.
    fn mention(
        &self,
        text: &str,
        g: &Grounder<'_>,
        history: &[&TurnResult],
        metric: &[String],
        year_default: Option<i32>,
    ) -> Result<Operand, PlanError> {
        let (years, constants) = question_numbers(&self.cues, text);
        // words the page never prints ("represent") say nothing about which
        // value is meant
        let words: Vec<String> = self
            .cues
            .mention_words(text)
            .into_iter()
            .filter(|w| w.starts_with('@') || g.knows(w))
            .collect();
        let own = self.cues.specific(&words);
        let t = format!(" {} ", text.trim());
        let kind = if contains_any(&t, &self.cues.change_word) {
            Some(MetricType::Change)
        } else if (contains_any(&t, &self.cues.sum_word)
            || contains_any(&t, &self.cues.weak_sum_trigger))
            && self.refers_in(text)
        {
            Some(MetricType::Sum)
        } else if contains_any(&t, &self.cues.ratio_word) && self.refers_in(text) {
            Some(MetricType::Ratio)
        } else {
            None
        };
        if self.refers_in(text) && kind.is_none() && !own.is_empty() {
            // "that long-term debt": the value of that name used earlier
            let year = years.first().copied();
            let used = history
                .iter()
                .rev()
                .flat_map(|h| h.variables.iter())
                .find(|v| {
                    let label = content_words(v.metric.as_deref().unwrap_or(&v.description));
                    v.sparql.is_some()
                        && year.is_none_or(|y| v.year == Some(y))
                        && own.iter().all(|w| label.iter().any(|l| same_word(l, w)))
                });
            if let Some(v) = used {
                return Ok(operand_from_used(v));
            }
        }
        if self.refers_in(text) || own.is_empty() {
            if let Some(kind) = kind {
                if let Some(h) = history.iter().rev().find(|h| {
                    h.metric_type == kind
                        || (kind == MetricType::Change
                            && h.metric_type == MetricType::PercentageChange)
                }) {
                    return Ok(reference_operand(h));
                }
            }
            if let Some(y) = years.first() {
                if let Some(o) = result_with_year(history, *y) {
                    return Ok(o);
                }
                return g.ground(&self.cues.with_marks(metric, &words), Some(*y));
            }
            if own.is_empty() {
                if let Some(c) = constants.first() {
                    return Ok(constant_operand(*c));
                }
                return last_result(history);
            }
        }
        let year = years.first().copied().or(year_default);
        let mut w = words;
        if self.cues.specific(&w).is_empty() {
            w = self.cues.with_marks(metric, &w);
        }
        g.ground(&w, year)
    }

    fn sum_operands(
        &self,
        r: &Reading,
        g: &Grounder<'_>,
        history: &[&TurnResult],
        metric: &[String],
        last_year: Option<i32>,
    ) -> Result<SumTerms, PlanError> {
        let mut years = r.years.clone();
        years.dedup();
        let own = self.cues.specific(&r.metric);
        // "including 2008, what then becomes that total?" / "including the transmission revenue"
        if contains_any(&r.text, &self.cues.including_word)
            || (r.refers && r.op == Operation::Sum && !years.is_empty() && years.len() < 2)
        {
            if let Some(prev) = history
                .iter()
                .rev()
                .find(|h| h.metric_type == MetricType::Sum)
            {
                let base = reference_operand(prev);
                // values asked since that sum: "what is the total sum including all 3 years?"
                let since: Vec<Operand> = history
                    .iter()
                    .filter(|h| h.turn > prev.turn && h.metric_type == MetricType::Value)
                    .map(|h| reference_operand(h))
                    .collect();
                let extra = if let Some(y) = years.first() {
                    // the same row as the values summed, in another year
                    let row = history
                        .iter()
                        .rev()
                        .filter(|h| h.turn <= prev.turn && h.metric_type == MetricType::Value)
                        .find_map(|h| h.variables.first().and_then(|v| v.metric.clone()));
                    match row.and_then(|label| g.cell_in_row(&label, *y)) {
                        Some(o) => o,
                        None => g.ground(metric, Some(*y))?,
                    }
                } else if !since.is_empty()
                    && own.iter().all(|w| self.cues.all_periods_word.contains(w))
                {
                    let mut terms = vec![base];
                    terms.extend(since);
                    return Ok(SumTerms::Values(terms));
                } else {
                    g.ground(&r.metric, last_year)?
                };
                return Ok(SumTerms::Values(vec![base, extra]));
            }
        }
        if years.len() >= 2 {
            let ops = years
                .iter()
                .map(|y| g.ground(metric, Some(*y)))
                .collect::<Result<Vec<_>, _>>()?;
            return Ok(SumTerms::Values(ops));
        }
        if r.op == Operation::Average {
            if let Some(prev) = history.last().filter(|h| h.metric_type == MetricType::Sum) {
                let n = count_terms(prev, history);
                return Ok(SumTerms::SumResult(reference_operand(prev), n));
            }
        }
        // "the total of A and B"
        if !own.is_empty() && contains_any(&r.text, &self.cues.addition_connector) {
            let body = split_at_first(&r.text, &self.cues.terms_lead)
                .map(|(_, b)| b)
                .unwrap_or(r.text.as_str());
            if let Some((a, b2)) = split_at_first(body, &self.cues.addition_connector) {
                let (ya, yb) = (
                    question_numbers(&self.cues, a).0.first().copied(),
                    question_numbers(&self.cues, b2).0.first().copied(),
                );
                let year = ya.or(yb).or(last_year);
                let wa = self.cues.mention_words(a);
                let wb = self.cues.mention_words(b2);
                if !self.cues.specific(&wa).is_empty() && !self.cues.specific(&wb).is_empty() {
                    let oa = g.ground(&wa, year);
                    let ob = g.ground(&wb, year);
                    if let (Ok(oa), Ok(ob)) = (oa, ob) {
                        if !(r.weak_sum && oa.spec == ob.spec) {
                            return Ok(SumTerms::Values(vec![oa, ob]));
                        }
                    }
                }
            }
        }
        if r.weak_sum && !r.refers {
            return g
                .ground(metric, years.first().copied().or(last_year))
                .map(|o| SumTerms::Values(vec![o]));
        }
        // "what is the total sum?" after a sum and a value asked since: that
        // sum plus the values asked since
        if own.is_empty() && years.is_empty() {
            if let Some(prev) = history
                .iter()
                .rev()
                .find(|h| h.metric_type == MetricType::Sum)
            {
                let since: Vec<Operand> = history
                    .iter()
                    .filter(|h| h.turn > prev.turn && h.metric_type == MetricType::Value)
                    .map(|h| reference_operand(h))
                    .collect();
                if !since.is_empty() && r.op == Operation::Sum {
                    let mut terms = vec![reference_operand(prev)];
                    terms.extend(since);
                    return Ok(SumTerms::Values(terms));
                }
            }
        }
        // "what is the sum?" — the last two values
        let values: Vec<&&TurnResult> = history
            .iter()
            .filter(|h| h.metric_type == MetricType::Value)
            .collect();
        if values.len() >= 2 {
            let n = values.len().min(if r.op == Operation::Average {
                values.len()
            } else {
                2
            });
            let ops = values[values.len() - n..]
                .iter()
                .map(|h| reference_operand(h))
                .collect();
            return Ok(SumTerms::Values(ops));
        }
        Err(PlanError::Unsupported(format!(
            "a sum needs two or more values: `{}`",
            r.text.trim()
        )))
    }
}

enum ChangeInputs {
    /// Later and earlier value.
    Pair(Operand, Operand),
    /// An earlier change and the value it started from.
    OfChange(Operand, Operand),
}

enum SumTerms {
    Values(Vec<Operand>),
    SumResult(Operand, usize),
}

/// How many values an earlier sum added up (following sums of sums).
fn count_terms(sum: &TurnResult, history: &[&TurnResult]) -> usize {
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

fn strip_ratio_lead<'t>(left: &'t str, cues: &Cues) -> &'t str {
    let mut s = left;
    for lead in &cues.ratio_lead {
        let lead = format!(" {lead} ");
        if let Some(p) = s.find(&lead) {
            s = &s[p + lead.len()..];
        }
    }
    s
}

/// The metric words of the last turn that named one.
fn inherited_metric(history: &[&TurnResult], cues: &Cues) -> Vec<String> {
    for h in history.iter().rev() {
        let w = cues.mention_words(&normalise_question(&h.question));
        if !cues.specific(&w).is_empty() {
            return w;
        }
    }
    Vec::new()
}

fn last_result(history: &[&TurnResult]) -> Result<Operand, PlanError> {
    history
        .last()
        .map(|h| reference_operand(h))
        .ok_or_else(|| PlanError::NoEarlierResult("this is the first answered turn".into()))
}

fn last_two(history: &[&TurnResult]) -> Result<(Operand, Operand), PlanError> {
    match history {
        [.., a, b] => Ok((reference_operand(a), reference_operand(b))),
        _ => Err(PlanError::NoEarlierResult(
            "fewer than two earlier results".into(),
        )),
    }
}

/// An earlier single value about `year`.
fn result_with_year(history: &[&TurnResult], year: i32) -> Option<Operand> {
    history
        .iter()
        .rev()
        .find(|h| {
            h.metric_type == MetricType::Value
                && h.period.as_deref() == Some(year.to_string().as_str())
        })
        .map(|h| reference_operand(h))
}

/// A stock-performance table: an index whose first column starts at 100.
fn is_index_table(schema: &Schema) -> bool {
    let firsts: Vec<&CellEntry> = schema.cells.iter().filter(|c| c.column == 0).collect();
    !firsts.is_empty()
        && firsts
            .iter()
            .filter(|c| c.value == Decimal::ONE_HUNDRED)
            .count()
            * 2
            >= firsts.len()
        || schema.rows.first().is_some_and(|_| {
            let firsts: Vec<&CellEntry> = schema.cells.iter().filter(|c| c.row == 0).collect();
            firsts.len() >= 2
                && schema
                    .cells
                    .iter()
                    .filter(|c| c.column == 0 && c.value == Decimal::ONE_HUNDRED)
                    .count()
                    >= 2
        })
}

/// "over the years", "over this period": spans of time, not divisions.
fn mask_time_spans(text: &str, cues: &Cues) -> String {
    let toks: Vec<&str> = text.split_whitespace().collect();
    let mut out: Vec<&str> = Vec::with_capacity(toks.len());
    let within = |list: &[String], t: Option<&&str>| t.is_some_and(|t| list.iter().any(|w| w == t));
    for (i, t) in toks.iter().enumerate() {
        let is_span = within(&cues.time_span_lead, Some(t))
            && within(&cues.time_span_determiner, toks.get(i + 1))
            && within(&cues.time_span_word, toks.get(i + 2));
        out.push(if is_span { "_" } else { t });
    }
    format!(" {} ", out.join(" "))
}

fn mask_label_phrases(text: &str, schema: &Schema) -> String {
    let labels: Vec<String> = schema
        .rows
        .iter()
        .map(|(l, _)| l)
        .chain(schema.columns.iter().map(|(l, _)| l))
        .map(|l| {
            format!(
                " {} ",
                normalise_question(&words::normalise_label(l)).trim()
            )
        })
        .collect();
    let toks: Vec<&str> = text.split_whitespace().collect();
    let mut keep = vec![true; toks.len()];
    for n in (2..=6).rev() {
        if toks.len() < n {
            continue;
        }
        for i in 0..=toks.len() - n {
            let phrase = format!(" {} ", toks[i..i + n].join(" "));
            if labels.iter().any(|l| l.contains(&phrase)) {
                for k in keep.iter_mut().skip(i).take(n) {
                    *k = false;
                }
            }
        }
    }
    let kept: Vec<&str> = toks
        .iter()
        .zip(&keep)
        .map(|(t, k)| if *k { *t } else { "_" })
        .collect();
    format!(" {} ", kept.join(" "))
}

/// Collects the plan's values and the years and labels they carry.
#[derive(Default)]
struct PlanBuilder {
    values: indexmap::IndexMap<ValueName, ValueSpec>,
    years: Vec<i32>,
    labels: Vec<String>,
    count: HashMap<String, usize>,
    grounding: Vec<ValueGrounding>,
}

impl PlanBuilder {
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
    fn add(&mut self, stem: &str, o: Operand) -> String {
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

    fn constant(&mut self, stem: &str, d: Decimal) -> String {
        let name = self.fresh(stem);
        let text = name.to_string();
        self.values.insert(name, ValueSpec::Constant(d));
        text
    }
}

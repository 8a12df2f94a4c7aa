//! A turn being planned: the question read (and re-read as a continuation
//! of the turn before), the grounder set up for the question and the
//! conversation, and the metric words the turn is about, its own or
//! inherited from the last turn that named one.

use super::cues::contains_any;
use super::ground::Grounder;
use super::history::inherited_metric;
use super::operand::{cell_of_node, header_column_of_node, Operand};
use super::operation::Operation;
use super::read::Reading;
use super::rules::RulesPlanner;
use crate::kg::Schema;
use crate::kg::HEADER_NUMBER_NODE;
use crate::planner::TurnContext;
use crate::turn::{MetricType, ResultRef, TurnResult, ValueSpec};

/// What the operand steps of one turn read.
#[derive(Clone)]
pub(super) struct Turn<'a> {
    /// The question, read.
    pub r: Reading,
    /// Grounds mentions in the page.
    pub g: Grounder<'a>,
    /// The answered turns, oldest first.
    pub history: Vec<&'a TurnResult>,
    /// The words that name what is asked: the question's own, or the
    /// inherited ones when it has none.
    pub metric: Vec<String>,
    /// The question's own specific words the page knows (empty on a
    /// follow-up such as "and in 2006?").
    pub own_metric: Vec<String>,
    /// The latest year an earlier turn's values carry.
    pub last_year: Option<i32>,
    /// The page.
    pub schema: &'a Schema,
}

impl Turn<'_> {
    /// The turn with a grounder that leaves out the page value `o` was
    /// grounded on, so its mention falls to its next-best candidate.
    pub fn leaving_out(&self, o: &Operand) -> Option<Self> {
        let note = o.grounding.as_ref()?;
        let best = note.candidates.first()?;
        let mut t = self.clone();
        t.g.excluded
            .insert((note.mention.clone(), best.source.clone()));
        Some(t)
    }

    /// Whether `a` and `b` read one page value: the same value, or an
    /// earlier result whose only page value `b` reads again.
    pub fn same_page_value(&self, a: &Operand, b: &Operand) -> bool {
        if a.spec == b.spec {
            return true;
        }
        let (ValueSpec::Reference(ResultRef(k)), ValueSpec::Sparql { sparql, .. }) =
            (&a.spec, &b.spec)
        else {
            return false;
        };
        let Some(h) = self.history.iter().find(|h| h.turn == *k) else {
            return false;
        };
        let mut read = h.variables.iter().filter_map(|v| v.sparql.as_ref());
        matches!((read.next(), read.next()), (Some(q), None) if q == sparql)
    }
}

impl RulesPlanner {
    /// Reads the turn's question and sets up what its operands are found with.
    pub(super) fn set_up_turn<'a>(&'a self, ctx: &TurnContext<'a>) -> Turn<'a> {
        let mut r = self.read(ctx.question, ctx.schema);
        self.continue_operation(&mut r, ctx);
        // "the five year cumulative return" of a performance index: its
        // growth from the base of 100, not the level it prints
        if r.op == Operation::Lookup
            && contains_any(&r.text, &self.cues.return_word)
            && self.cues.names_whole_period(&r.text)
            && super::table::is_index_table(ctx.schema)
        {
            r.op = Operation::PercentageChange;
        }
        let mut g = self.turn_grounder(ctx, &r);
        let history: Vec<&TurnResult> = ctx.state.answered().collect();
        Self::note_earlier_reads(&mut g, &history);
        let (mut metric, own_metric) = self.turn_metric(&r, &mut g, &history);
        // "what was total stockholders equity?": the "total" of a look-up
        // that names a row is part of the row's name (the reading took it
        // for an addition's word)
        let total = crate::words::stem(&self.cues.total_word);
        if r.op == Operation::Lookup
            && r.weak_sum
            && !own_metric.is_empty()
            && g.asks_total
            && !metric.contains(&total)
        {
            metric.push(total);
        }
        // the period a result was asked for when it is one year (a number
        // printed for several years is about the one asked), else the year
        // of its last value
        let last_year = history.iter().rev().find_map(|h| {
            h.period
                .as_deref()
                .and_then(|p| p.parse::<i32>().ok())
                .or_else(|| h.variables.iter().rev().find_map(|v| v.year))
        });
        self.carry_years(&mut r, &history, last_year);
        Turn {
            r,
            g,
            history,
            metric,
            own_metric,
            last_year,
            schema: ctx.schema,
        }
    }

    /// The grounder for the turn's question, set up for what the reading
    /// asks.
    fn turn_grounder<'a>(&'a self, ctx: &TurnContext<'a>, r: &Reading) -> Grounder<'a> {
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
        g.excluded.clone_from(&self.excluded);
        // an initialism the reader spelled out may name a rate per unit
        // ("casm" for "cost per available seat mile")
        if contains_any(&r.text, &self.cues.per_word) {
            g.asks_per_unit = true;
        }
        // "in percentage" asks how to state a ratio: its part and whole are amounts
        if r.op == Operation::Ratio {
            g.wants_percent = false;
        }
        // "the total of industrial sales in 2008 and 2009": the total is the
        // addition asked, not a total row
        if r.op == Operation::Sum && r.weak_sum {
            g.asks_total = false;
        }
        g
    }

    /// Notes on the grounder the metrics the answered turns read and the
    /// rows and columns the last turn read.
    fn note_earlier_reads(g: &mut Grounder<'_>, history: &[&TurnResult]) {
        g.earlier = history
            .iter()
            .flat_map(|h| h.variables.iter())
            .filter_map(|v| v.metric.clone())
            .collect();
        // the columns of the cells the last turn read (`{page}/cell/{i}/{j}`)
        let last_cells: Vec<(usize, usize)> = history
            .last()
            .iter()
            .flat_map(|h| h.variables.iter())
            .filter_map(|v| cell_of_node(v.node.as_deref()?))
            .collect();
        // a header number's column too: "and the low?" after the high price
        // a quarter's header prints
        let last_headers = history
            .last()
            .iter()
            .flat_map(|h| h.variables.iter())
            .filter_map(|v| header_column_of_node(v.node.as_deref()?))
            .collect::<Vec<_>>();
        g.earlier_lost_row = !last_headers.is_empty();
        g.earlier_columns = last_cells
            .iter()
            .map(|(_, column)| *column)
            .chain(last_headers)
            .collect();
        g.earlier_rows = last_cells.iter().map(|(row, _)| *row).collect();
    }

    /// The years a question that names none takes from the turns before:
    /// the same ones, or one named relative to the last.
    fn carry_years(&self, r: &mut Reading, history: &[&TurnResult], last_year: Option<i32>) {
        // "over the same two years" after a sum of 2009 and 2010: those years,
        // and a value over them is one value a year, added
        if r.years.is_empty() && contains_any(&r.text, &self.cues.same_period) {
            let mut spanned: Vec<i32> = history
                .last()
                .iter()
                .flat_map(|h| h.variables.iter())
                .filter_map(|v| v.year)
                .collect();
            spanned.sort_unstable_by(|a, b| b.cmp(a));
            spanned.dedup();
            if spanned.len() >= 2 {
                r.years = spanned;
                if r.op == Operation::Lookup {
                    r.op = Operation::Sum;
                    r.weak_sum = false;
                }
            }
        }
        // "and in the year before?": a year named relative to the last one;
        // after a change ("how much did it rise in 2012?") the later year's
        if r.years.is_empty() {
            let latest = history.last().and_then(|h| {
                (h.metric_type == MetricType::Change)
                    .then(|| h.variables.iter().filter_map(|v| v.year).max())
                    .flatten()
            });
            r.years.extend(
                latest
                    .or(last_year)
                    .and_then(|y| self.cues.relative_year(&r.text, y)),
            );
        }
    }

    /// "and from 2007 to 2008?", "and in operating income over the same
    /// period?": a look-up that opens like a continuation repeats the
    /// operation of the turn before, on new periods or rows.
    fn continue_operation(&self, r: &mut Reading, ctx: &TurnContext<'_>) {
        if self.sums_last_two_values(r, ctx) {
            r.op = Operation::Sum;
            // the words name the values' row: no total row is meant
            r.weak_sum = false;
            return;
        }
        let continues = self
            .cues
            .continuation_lead
            .iter()
            .any(|l| r.text.starts_with(&format!(" {l} ")));
        if r.op != Operation::Lookup || !continues {
            return;
        }
        let previous = ctx.state.turns().last().and_then(Option::as_ref);
        self.repeat_change(r, previous);
        if self.asks_share_of_part(r, previous) {
            r.op = Operation::Ratio;
        }
    }

    /// "what is the total?" after two values: their sum, not a total row;
    /// "what were total contributions?" after the contributions of two
    /// years: the words name what the two values measure.
    fn sums_last_two_values(&self, r: &Reading, ctx: &TurnContext<'_>) -> bool {
        let values = |turns: &[Option<TurnResult>]| {
            turns.len() >= 2
                && turns[turns.len() - 2..].iter().all(|t| {
                    t.as_ref()
                        .is_some_and(|t| t.metric_type == MetricType::Value)
                })
        };
        let names_their_metric = || {
            let turns = ctx.state.turns();
            let own = self.cues.specific(&r.metric);
            let measured: Vec<Vec<String>> = turns[turns.len().saturating_sub(2)..]
                .iter()
                .flatten()
                .map(|t| {
                    t.variables
                        .first()
                        .and_then(|v| v.metric.as_deref())
                        .map(crate::words::content_words)
                        .unwrap_or_default()
                })
                .collect();
            measured.len() == 2
                && measured.iter().all(|m| {
                    own.iter()
                        .all(|w| m.iter().any(|x| super::ground::same_word(x, w)))
                })
        };
        r.op == Operation::Lookup
            && r.weak_sum
            && r.years.is_empty()
            && values(ctx.state.turns())
            && (self.cues.specific(&r.metric).is_empty() || names_their_metric())
    }

    /// After a change (or percentage change), a continuation that names
    /// new periods, or new words and no year, asks that change again.
    fn repeat_change(&self, r: &mut Reading, previous: Option<&TurnResult>) {
        let repeated = previous.and_then(|p| match p.metric_type {
            MetricType::Change => Some(Operation::Change),
            MetricType::PercentageChange => Some(Operation::PercentageChange),
            _ => None,
        });
        if let Some(op) = repeated {
            // "and from 2008 to that year?": a start year is a new period too
            let starts = r.years.len() == 1 && self.cues.starts_period(&r.text, r.years[0]);
            if r.years.len() >= 2
                || starts
                || (r.years.is_empty() && !self.cues.specific(&r.metric).is_empty())
            {
                r.op = op;
            }
        }
    }

    /// "and for emea?" after a share: the share of the part it names, of
    /// the same whole (not "and ..., what was the number of shares?", a
    /// question of its own).
    fn asks_share_of_part(&self, r: &Reading, previous: Option<&TurnResult>) -> bool {
        let after_share = previous.is_some_and(|p| p.metric_type == MetricType::Ratio);
        let bare = self.cues.continuation_lead.iter().any(|l| {
            r.text.strip_prefix(&format!(" {l} ")).is_some_and(|rest| {
                !rest
                    .split_whitespace()
                    .any(|w| self.cues.question_word.iter().any(|q| q == w))
            })
        });
        after_share && bare && r.years.is_empty() && !self.cues.specific(&r.metric).is_empty()
    }

    /// The turn's metric words and its own specific words; on a follow-up
    /// with no words of its own, anchors the grounder on the row (or
    /// sentence) of the last value asked.
    fn turn_metric(
        &self,
        r: &Reading,
        g: &mut Grounder<'_>,
        history: &[&TurnResult],
    ) -> (Vec<String>, Vec<String>) {
        let inherited = inherited_metric(history, &self.cues);
        let read_metric = self.undated_metric(r, g);
        let own_metric = self.own_metric(r, g, history, &read_metric);
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
            Self::anchor_on_last_value(g, history, &inherited);
        }
        let metric = if own_metric.is_empty() && !inherited.is_empty() {
            inherited
        } else {
            read_metric
        };
        (metric, own_metric)
    }

    /// The reading's metric words less those that only date the value
    /// asked: a month or a "fiscal" the page never prints (a "fiscal" it
    /// prints only in labels that name a year: "fiscal 2010") dates the
    /// value asked ("as of december 31, 2015", "in fiscal 2007"), naming
    /// none.
    fn undated_metric(&self, r: &Reading, g: &Grounder<'_>) -> Vec<String> {
        let dating = |w: &String| {
            let qualifier = self.cues.period_qualifier.contains(w);
            (crate::words::month_number(w).is_some() || qualifier)
                && (!g.knows(w) || (qualifier && g.dates_only(w)))
        };
        r.metric.iter().filter(|w| !dating(w)).cloned().collect()
    }

    /// The turn's own specific words (of `read_metric`), none on a
    /// follow-up whose words name no value: words the page never prints (a
    /// typo, "what os the net change?") say nothing about which value is
    /// meant, so a turn with earlier results reads them as a follow-up; a
    /// first turn keeps them, and finds nothing; on a page whose table lost
    /// a row's name into its header, such words name that row.
    fn own_metric(
        &self,
        r: &Reading,
        g: &Grounder<'_>,
        history: &[&TurnResult],
        read_metric: &[String],
    ) -> Vec<String> {
        let mut own_metric = self.cues.specific(read_metric);
        // "and at what average price?": generic words name what a label
        // prints them in a phrase of
        if own_metric.is_empty() {
            own_metric = read_metric
                .iter()
                .filter(|w| r.label_phrase_words.contains(w))
                .cloned()
                .collect();
        }
        // "and at december 31 2019?": on a follow-up, a month that only
        // dates the columns names no value either (on a table whose rows
        // are months, "and in december 2009?", it names the row)
        let month_of_dates = |w: &String| {
            crate::words::month_number(w).is_some()
                && g.dates_only(w)
                && !g.page.row_words.iter().flatten().any(|l| l == w)
        };
        if !history.is_empty() && own_metric.iter().all(month_of_dates) {
            own_metric.clear();
        }
        if !history.is_empty()
            && own_metric.iter().all(|w| !g.knows(w))
            && g.page.lost_row_unnamed.is_empty()
        {
            own_metric.clear();
        }
        own_metric
    }

    /// "and in 2006?": anchors the grounder, for the `inherited` words, on
    /// the same row (or sentence) as the last value asked, or as the last
    /// change (whose two values share a row).
    fn anchor_on_last_value(g: &mut Grounder<'_>, history: &[&TurnResult], inherited: &[String]) {
        g.anchor = history
            .iter()
            .rev()
            .find(|h| {
                matches!(
                    h.metric_type,
                    MetricType::Value | MetricType::Change | MetricType::PercentageChange
                )
            })
            .and_then(|h| h.variables.first())
            .and_then(|v| {
                // a header number's row has no name: its node stands for it
                v.node
                    .clone()
                    .filter(|n| n.ends_with(HEADER_NUMBER_NODE))
                    .or_else(|| v.metric.clone())
            })
            .map(|label| (inherited.to_vec(), label));
    }
}

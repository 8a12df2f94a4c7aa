//! Operands of a rules plan: what a grounded cell, text number, earlier
//! result or constant becomes in the Phase 1 contract, with the year, label,
//! cell position and scale later steps read from it.

use crate::kg::schema::label_scale;
use crate::kg::schema::{header_number_query, HeaderNumberEntry};
use crate::kg::{queries, CellEntry, FactEntry};
use crate::trace::CandidateNote;
use crate::turn::{MetricType, ResultRef, Scale, TurnResult, UsedValue, ValueSpec};
use rust_decimal::Decimal;

/// An operand of the formula.
#[derive(Debug, Clone)]
pub(super) struct Operand {
    pub spec: ValueSpec,
    /// Take the magnitude (a table figure printed negative).
    pub magnitude: bool,
    pub year: Option<i32>,
    pub label: String,
    /// Row and column of the table cell it reads, if it reads one.
    pub cell: Option<(usize, usize)>,
    /// The scale word its source prints ("million"), if any.
    pub scale: Option<Scale>,
    /// Its source prints a percentage.
    pub percent: bool,
    /// It is a change the text states ("decreased $ 13 million").
    pub printed_change: bool,
    /// Why the grounder chose it, for `--explain` (grounded operands only).
    pub grounding: Option<GroundingNote>,
}

impl Operand {
    /// The words of what the operand reads: a cell's row and column, a
    /// text number's words around it; its label otherwise.
    pub fn read_text(&self) -> &str {
        match &self.spec {
            ValueSpec::Sparql { description, .. } => description,
            _ => &self.label,
        }
    }
}

/// How one value was grounded: the mention and the best candidates.
#[derive(Debug, Clone, PartialEq)]
pub struct GroundingNote {
    /// The mention's words and year.
    pub mention: String,
    /// The top candidates, best first.
    pub candidates: Vec<CandidateNote>,
}

/// Whether two of `ops` read the same value.
pub(super) fn repeats_a_value(ops: &[Operand]) -> bool {
    ops.iter()
        .enumerate()
        .any(|(i, o)| ops[..i].iter().any(|p| p.spec == o.spec))
}

/// The denominator of a ratio.
pub(super) enum Whole {
    One(Operand),
    /// A column without a total row: the sum of its cells.
    Sum(Vec<Operand>),
}

/// The query that reads one table cell by row and column.
pub(super) fn cell_operand(cell: &CellEntry) -> Operand {
    let sparql = format!(
        "{}{}",
        crate::vocab::sparql_prefixes(),
        queries::cell_query(cell.row, &cell.row_label, cell.column, &cell.column_label)
    );
    Operand {
        spec: ValueSpec::Sparql {
            sparql,
            description: format!("{} ({})", cell.row_label, cell.column_label),
        },
        magnitude: cell.value.is_sign_negative(),
        year: cell.column_year.or(cell.row_year),
        label: cell.row_label.clone(),
        cell: Some((cell.row, cell.column)),
        scale: label_scale(&cell.column_label).or_else(|| label_scale(&cell.row_label)),
        percent: cell.percent,
        printed_change: false,
        grounding: None,
    }
}

/// The query that reads one number of the text by sentence and token.
pub(super) fn fact_operand(fact: &FactEntry) -> Operand {
    let sparql = format!(
        "{}{}",
        crate::vocab::sparql_prefixes(),
        queries::fact_query(fact.sentence, fact.token)
    );
    Operand {
        spec: ValueSpec::Sparql {
            sparql,
            description: format!("`{}` in \"{}\"", fact.raw, fact.context),
        },
        magnitude: false,
        year: fact.year,
        label: fact.context.clone(),
        cell: None,
        scale: fact.scale.clone(),
        percent: fact.percent,
        printed_change: false,
        grounding: None,
    }
}

/// The query that reads the number printed in a column header.
pub(super) fn header_operand(h: &HeaderNumberEntry) -> Operand {
    Operand {
        spec: ValueSpec::Sparql {
            sparql: header_number_query(h.column),
            description: format!("column header `{}`", h.column_label),
        },
        magnitude: h.value.is_sign_negative(),
        year: h.year,
        label: h.column_label.clone(),
        cell: None,
        scale: label_scale(&h.column_label),
        percent: h.percent,
        printed_change: false,
        grounding: None,
    }
}

/// An earlier turn's result; one that read a single table cell keeps that
/// cell's place, so that "what percentage of the total is that?" finds the
/// total of its row or column.
pub(super) fn reference_operand(h: &TurnResult) -> Operand {
    let year = h.period.as_deref().and_then(|p| p.parse().ok());
    let cells: Vec<(usize, usize)> = h
        .variables
        .iter()
        .filter_map(|v| v.node.as_deref().and_then(cell_of_node))
        .collect();
    let read_one_cell = h.metric_type == MetricType::Value
        && cells.len() == 1
        && h.variables.iter().filter(|v| v.sparql.is_some()).count() == 1;
    Operand {
        spec: ValueSpec::Reference(ResultRef(h.turn)),
        magnitude: false,
        year,
        label: h.description.clone(),
        cell: cells.first().copied().filter(|_| read_one_cell),
        scale: h.scale.clone(),
        percent: false,
        printed_change: false,
        grounding: None,
    }
}

/// The row and column of a cell's node (`{page}/cell/{row}/{column}`).
pub(super) fn cell_of_node(node: &str) -> Option<(usize, usize)> {
    let (_, place) = node.rsplit_once("/cell/")?;
    let (row, column) = place.split_once('/')?;
    Some((row.parse().ok()?, column.parse().ok()?))
}

/// The sentence and token of a text number's node (`{page}/fact/{k}/{t}`).
pub(super) fn fact_of_node(node: &str) -> Option<(usize, usize)> {
    let (_, place) = node.rsplit_once("/fact/")?;
    let (sentence, token) = place.split_once('/')?;
    Some((sentence.parse().ok()?, token.parse().ok()?))
}

/// The column of a header number's node (`{page}/column/{j}/number`).
pub(super) fn header_column_of_node(node: &str) -> Option<usize> {
    let column = node.strip_suffix(crate::kg::HEADER_NUMBER_NODE)?;
    column.rsplit_once("/column/")?.1.parse().ok()
}

/// A value an earlier turn used, read again the same way.
pub(super) fn operand_from_used(v: &UsedValue) -> Operand {
    let spec = match &v.sparql {
        Some(q) => ValueSpec::Sparql {
            sparql: q.clone(),
            description: v.description.clone(),
        },
        None => ValueSpec::Constant(v.value),
    };
    Operand {
        spec,
        magnitude: false,
        year: v.year,
        label: v.description.clone(),
        cell: None,
        scale: v.scale.clone(),
        percent: false,
        printed_change: false,
        grounding: None,
    }
}

/// A number of the question or of a convention (an index's base of 100).
pub(super) fn constant_operand(c: Decimal) -> Operand {
    Operand {
        spec: ValueSpec::Constant(c),
        magnitude: false,
        year: None,
        label: c.to_string(),
        cell: None,
        scale: None,
        percent: false,
        printed_change: false,
        grounding: None,
    }
}

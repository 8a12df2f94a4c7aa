//! The executor: binds a plan's named values (guarded SPARQL through the
//! store, `result_N` through the conversation, constants as given) and
//! evaluates the Phase 2 formula exactly ([`formula`]).
//!
//! Planner-written SPARQL runs here and nowhere else; every query passes
//! [`GuardedQuery::parse`] first.

pub mod formula;

use crate::kg::{
    describe_source, GuardError, GuardedQuery, KgError, KgStore, QueryForm, QueryOutput, Schema,
};
use crate::turn::{Answer, ConversationState, UsedValue};
use crate::turn::{Plan, ValueSpec};
use formula::{Formula, FormulaError, FormulaValue};
use oxigraph::model::Term;
use rust_decimal::Decimal;
use std::str::FromStr;

/// Errors binding values or evaluating the formula.
#[derive(Debug, thiserror::Error)]
pub enum ExecError {
    /// The guard refused a value's query.
    #[error("value `{name}`: query refused")]
    Refused {
        /// The value's name.
        name: String,
        /// Why.
        #[source]
        source: GuardError,
    },
    /// The value's query is an ASK.
    #[error("value `{name}`: an ASK query binds no number; use SELECT ?value")]
    Ask {
        /// The value's name.
        name: String,
    },
    /// The store failed running the query.
    #[error("value `{name}`: query failed")]
    Query {
        /// The value's name.
        name: String,
        /// Why.
        #[source]
        source: KgError,
    },
    /// The query bound no row or several.
    #[error("value `{name}` bound {rows} rows, expected 1")]
    RowCount {
        /// The value's name.
        name: String,
        /// Rows returned.
        rows: usize,
    },
    /// The query projects several variables and none is `?value`.
    #[error(
        "value `{name}`: the query projects {variables:?}; project `?value` (or a single variable)"
    )]
    Variable {
        /// The value's name.
        name: String,
        /// The projected variables.
        variables: Vec<String>,
    },
    /// The bound term is not a number.
    #[error("value `{name}` bound `{term}`, which is not a number")]
    NotNumeric {
        /// The value's name.
        name: String,
        /// The bound term.
        term: String,
    },
    /// A `result_N` names a turn that has not been answered.
    #[error("value `{name}` refers to result_{turn}, which {why}")]
    BadReference {
        /// The value's name.
        name: String,
        /// The referenced turn.
        turn: usize,
        /// Why it cannot be used.
        why: &'static str,
    },
    /// The formula did not parse or evaluate.
    #[error("formula `{formula}`: {source}")]
    Formula {
        /// The formula.
        formula: String,
        /// Why.
        #[source]
        source: FormulaError,
    },
}

/// Binds every value of a plan, in order; `schema` (the page's, read from
/// `kg`) describes each value's source.
pub fn bind_values(
    kg: &KgStore,
    schema: &Schema,
    plan: &Plan,
    state: &ConversationState,
) -> Result<Vec<UsedValue>, ExecError> {
    plan.values
        .iter()
        .map(|(name, spec)| bind_value(kg, schema, name.as_str(), spec, state))
        .collect()
}

fn bind_value(
    kg: &KgStore,
    schema: &Schema,
    name: &str,
    spec: &ValueSpec,
    state: &ConversationState,
) -> Result<UsedValue, ExecError> {
    let name_s = name.to_string();
    match spec {
        ValueSpec::Constant(d) => Ok(UsedValue {
            name: name_s,
            value: *d,
            description: format!("the constant {d}"),
            source: "constant".into(),
            metric: None,
            year: None,
            scale: None,
            sparql: None,
            node: None,
        }),
        ValueSpec::Reference(r) => {
            let bad = |why| ExecError::BadReference {
                name: name_s.clone(),
                turn: r.0,
                why,
            };
            if r.0 >= state.len() {
                return Err(bad("is not an earlier turn"));
            }
            let result = state.result(r.0).ok_or_else(|| bad("failed"))?;
            let value = result
                .value
                .number()
                .ok_or_else(|| bad("is a yes/no answer"))?;
            Ok(UsedValue {
                name: name_s,
                value,
                description: result.description.clone(),
                source: format!("{r}: {}", result.question),
                metric: result.entity.clone(),
                year: result.period.as_deref().and_then(|p| p.parse().ok()),
                scale: result.scale.clone(),
                sparql: None,
                node: None,
            })
        }
        ValueSpec::Sparql {
            sparql,
            description,
        } => {
            let query = GuardedQuery::parse(sparql).map_err(|source| ExecError::Refused {
                name: name_s.clone(),
                source,
            })?;
            if query.form() == QueryForm::Ask {
                return Err(ExecError::Ask { name: name_s });
            }
            let output = kg.query(&query).map_err(|source| ExecError::Query {
                name: name_s.clone(),
                source,
            })?;
            let QueryOutput::Solutions { variables, rows } = output else {
                return Err(ExecError::Ask { name: name_s });
            };
            let column = variables
                .iter()
                .position(|v| v == "value")
                .or_else(|| (variables.len() == 1).then_some(0))
                .ok_or_else(|| ExecError::Variable {
                    name: name_s.clone(),
                    variables: variables.clone(),
                })?;
            if rows.len() != 1 {
                return Err(ExecError::RowCount {
                    name: name_s,
                    rows: rows.len(),
                });
            }
            let row = &rows[0];
            let term = row[column].as_ref().ok_or(ExecError::RowCount {
                name: name_s.clone(),
                rows: 0,
            })?;
            let value = term_number(term).ok_or_else(|| ExecError::NotNumeric {
                name: name_s.clone(),
                term: term.to_string(),
            })?;
            let source_iri = variables
                .iter()
                .position(|v| v == "source")
                .and_then(|i| row[i].as_ref())
                .and_then(|t| match t {
                    Term::NamedNode(n) => Some(n.as_str().to_string()),
                    _ => None,
                });
            let info = match &source_iri {
                Some(iri) => schema
                    .describe_source(kg.graph(), iri)
                    .or_else(|| describe_source(kg, iri).ok().flatten()),
                None => None,
            };
            Ok(UsedValue {
                name: name_s,
                value,
                description: description.clone(),
                source: info
                    .as_ref()
                    .map(|i| i.text.clone())
                    .or_else(|| source_iri.clone())
                    .unwrap_or_else(|| "graph".into()),
                metric: info.as_ref().and_then(|i| i.metric.clone()),
                year: info.as_ref().and_then(|i| i.year),
                scale: info.as_ref().and_then(|i| i.scale.clone()),
                sparql: Some(sparql.clone()),
                node: source_iri,
            })
        }
    }
}

/// A literal as a decimal: xsd:decimal, integer, double or float, or a numeric string.
fn term_number(term: &Term) -> Option<Decimal> {
    let Term::Literal(l) = term else { return None };
    let text = l.value().trim();
    Decimal::from_str(text)
        .or_else(|_| Decimal::from_scientific(text))
        .ok()
}

/// Evaluates a formula over bound values.
pub fn evaluate(formula: &str, values: &[UsedValue]) -> Result<Answer, ExecError> {
    let err = |source| ExecError::Formula {
        formula: formula.to_string(),
        source,
    };
    let parsed = Formula::parse(formula).map_err(err)?;
    let lookup = |name: &str| values.iter().find(|v| v.name == name).map(|v| v.value);
    match parsed.eval(&lookup).map_err(err)? {
        FormulaValue::Number(d) => Ok(Answer::Number(d)),
        FormulaValue::Bool(true) => Ok(Answer::Yes),
        FormulaValue::Bool(false) => Ok(Answer::No),
    }
}

//! The rules planner ([`rules`]), the embedded default: it plans a turn in
//! the two phases of the turn contract ([`crate::turn::contract`]) behind
//! the [`crate::planner::Planner`] seam, as the LLM planner does.
//!
//! **Invariant:** the planner sees the page's graph (through
//! [`crate::kg::Schema`]), the question and the conversation's own earlier
//! results, never gold.

mod annualised;
mod applied;
mod binding;
mod build;
mod change;
mod compare;
mod cues;
mod features;
pub mod ground;
mod history;
mod mention;
mod midpoint;
mod operand;
mod operation;
mod operations;
mod page;
mod ratio;
mod read;
mod remainder;
mod revise;
pub mod rules;
mod score;
mod sum;
mod table;
mod template;
mod turn;
mod unit_cost;

pub use rules::RulesPlanner;

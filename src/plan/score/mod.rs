//! The feature vector of each kind of grounding candidate: a table cell, a
//! number printed in a column header, a number of the text. The features
//! and their weights are in [`super::features`]; the grounder that ranks
//! the candidates by them is [`super::ground`].
//!
//! One family of features a file, over helpers they share:
//! - `cells.rs` — a cell's label words, totals and earlier reads;
//! - `cell_cues.rs` — a cell's percent, unit, boundary, scale, quarter and
//!   year against those asked;
//! - `headers.rs` — a number printed in a column header;
//! - `facts.rs` — a number of the text;
//! - `names.rs` — what the mention's words name on the page (a row, a
//!   column, a total's parts, the lost row), which the grounder reads too;
//! - `shared.rs` — the boundary, quarter, shared-year and restated-phrase
//!   tests the families share.

mod cell_cues;
mod cells;
mod facts;
mod headers;
mod names;
mod shared;

//! finkg: conversational numerical question answering over financial
//! report pages as RDF knowledge graphs.
//!
//! The stages, each a module, dependencies pointing down only:
//! - [`dataset`] loads ConvFinQA files (both layouts); gold answers are a
//!   separate type only [`eval`] reads.
//! - [`ontology`] is the TBox (`ontology/*.ttl`); [`kg`] builds each page's
//!   ABox, guards and runs SPARQL, exports RDF.
//! - [`plan`] holds the planner contract and the rules planner; [`exec`]
//!   binds values and evaluates formulas exactly.
//! - [`conversation`] keeps results with their metadata; [`pipeline`]
//!   answers a conversation turn by turn; [`trace`] records each turn.
//! - [`llm`] is the other planner behind the same contract: prompts, a
//!   chat-completions client, a reply cache; the only module that touches
//!   the network.
//! - [`eval`] scores runs and writes run folders.
//! - `mongo` (with the `mongodb` feature) exports runs to MongoDB, as they
//!   go or from a run folder.

pub mod conversation;
pub mod dataset;
pub mod eval;
pub mod exec;
pub mod kg;
pub mod lexicon;
pub mod llm;
#[cfg(feature = "mongodb")]
pub mod mongo;
pub mod ontology;
pub mod pipeline;
pub mod plan;
pub mod trace;
pub mod words;

//! finkg: conversational numerical question answering over financial
//! report pages as RDF knowledge graphs.
//!
//! The stages, each a module, dependencies pointing down only:
//! - the ground floor: [`turn`] (the turn contract every layer shares:
//!   plans, results, metric types, scales, LLM exchanges), [`dataset`]
//!   (ConvFinQA files; gold answers are a separate type only [`eval`]
//!   reads), [`ontology`] (the TBox, `ontology/*.ttl`), [`lexicon`],
//!   [`vocab`], [`trace`] (each turn's record) and [`words`].
//! - [`kg`] builds each page's ABox, guards and runs SPARQL, exports RDF.
//! - [`exec`] binds values and evaluates formulas exactly.
//! - [`planner`] is the seam planners implement; [`plan`] holds the rules
//!   planner and [`llm`] the LLM planner (prompts, a chat-completions
//!   client, a reply cache; the only module that touches the network),
//!   side by side.
//! - [`critic`] checks a proposed result before it is kept (the
//!   deterministic checks; the LLM critic is in [`llm`]); on a finding the
//!   planner revises (one round unless `--critic-max-revisions`).
//! - [`pipeline`] answers a conversation turn by turn.
//! - [`run`] holds a run's records (the run folder's, the scores, the
//!   observer seam), shared by [`eval`], which scores runs and writes run
//!   folders, and `mongo` (with the
//!   `mongodb` feature) exports runs to MongoDB, as they go or from a run
//!   folder.
//! - [`inspect`] reads a run folder back into typed structs (overview,
//!   conversations, turns with answer, gold, plan, values and their
//!   sources) and renders them: text for `finkg inspect`, `failures.md`,
//!   the run's SVG plots; `eval` writes the last two through it.
//! - [`serve`] serves the pages over HTTP: a SPARQL 1.1 Protocol endpoint
//!   and a web page to ask a report questions.
//! - [`cli`] does the work of each `finkg` subcommand and its printing;
//!   the binary only parses the arguments.

pub mod cli;
pub mod critic;
pub mod dataset;
pub mod eval;
pub mod exec;
pub mod inspect;
pub mod kg;
pub mod lexicon;
pub mod llm;
#[cfg(feature = "mongodb")]
pub mod mongo;
pub mod ontology;
pub mod pipeline;
pub mod plan;
pub mod planner;
pub mod run;
pub mod serve;
pub mod trace;
pub mod turn;
pub mod vocab;
pub mod words;

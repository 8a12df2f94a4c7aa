//! The knowledge graph of one report page: the ABox built from the table
//! and the text ([`abox`], [`text`], [`header`]: numbers printed in column
//! headers), the guard every query passes
//! ([`guard`]), the store seam ([`store`]: the embedded store, or a SPARQL
//! endpoint, [`remote`]) and the planners' view of the
//! page read back by SPARQL ([`schema`]).

pub mod abox;
pub mod guard;
pub mod header;
pub mod queries;
mod reach;
pub mod remote;
pub mod schema;
pub mod store;
pub mod text;
pub mod watchdog;

pub use abox::{page_iri, GraphStats, HEADER_NUMBER_NODE};
pub use guard::{GuardError, GuardedQuery, QueryForm};
pub use schema::{
    describe_source, header_number_query, CellEntry, FactEntry, HeaderNumberEntry, Schema,
    SourceInfo,
};
pub use store::{
    export_pages, ExportFormat, ExportStats, KgError, KgStore, PageSource, QueryGraphs, QueryOutput,
};

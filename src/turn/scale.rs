//! A scale word ("thousand", "million", "billion") with the multiplier the
//! ontology gives it (`fk:ScaleWord`, `fk:multiplier`). The ontology module
//! builds the known scales once, when it reads the TBox (`Tbox::scales`);
//! values and results carry one, written on the wire as its word.

use rust_decimal::Decimal;
use serde::{Serialize, Serializer};
use std::fmt;
use std::sync::Arc;

/// A scale: its word and what it multiplies a number by.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Scale {
    word: Arc<str>,
    multiplier: Decimal,
}

impl Scale {
    /// A scale word and its multiplier.
    pub fn new(word: &str, multiplier: Decimal) -> Self {
        Self {
            word: Arc::from(word),
            multiplier,
        }
    }
    /// The word, singular: "million".
    pub fn word(&self) -> &str {
        &self.word
    }
    /// What the scale multiplies a number by: 1000000 for "million".
    pub fn multiplier(&self) -> Decimal {
        self.multiplier
    }
}

impl fmt::Display for Scale {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.word)
    }
}

impl Serialize for Scale {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.word)
    }
}

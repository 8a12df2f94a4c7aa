//! Reading a model's reply into the contract ([`crate::turn::contract`]).
//!
//! A reply is one JSON object, possibly inside a code fence or after a
//! sentence; the first object that parses is taken. Phase 1 needs
//! `values`; a `formula` beside it serves Phase 2 without a second
//! request. Extra keys are ignored. Errors are sentences meant to be sent
//! back to the model.

use crate::turn::{Phase2, Plan, ValueSpec};
use crate::vocab;
use serde::Deserialize;
use serde_json::{Map, Value};

/// The first JSON object in a reply.
pub fn json_object(content: &str) -> Result<Map<String, Value>, String> {
    let mut first_error = None;
    for (i, _) in content.match_indices('{').take(20) {
        let mut stream = serde_json::Deserializer::from_str(&content[i..]).into_iter::<Value>();
        match stream.next() {
            Some(Ok(Value::Object(map))) => return Ok(map),
            Some(Err(e)) => {
                first_error.get_or_insert_with(|| e.to_string());
            }
            _ => {}
        }
    }
    Err(match first_error {
        Some(e) => format!("the reply is not valid JSON ({e}); reply with one JSON object only"),
        None => {
            "the reply is not JSON: it holds no `{...}` object; reply with one JSON object only"
                .into()
        }
    })
}

fn formula_of(map: &Map<String, Value>) -> Result<Option<Phase2>, String> {
    let formula = match map.get("formula") {
        None | Some(Value::Null) => return Ok(None),
        Some(Value::String(s)) if s.trim().is_empty() => {
            return Err("`formula` is empty".into());
        }
        Some(Value::String(s)) => s.trim().to_string(),
        Some(Value::Number(n)) => n.to_string(),
        Some(other) => return Err(format!("`formula` must be a string, not `{other}`")),
    };
    let reasoning = map
        .get("reasoning")
        .and_then(Value::as_str)
        .map(str::to_string);
    Ok(Some(Phase2 { formula, reasoning }))
}

/// Phase 1: the plan, and the formula when the reply already gives one.
pub fn phase1(content: &str) -> Result<(Plan, Option<Phase2>), String> {
    let map = json_object(content)?;
    match map.get("values") {
        Some(Value::Object(v)) if !v.is_empty() => {}
        Some(Value::Object(_)) => {
            return Err("`values` is empty: name at least one value the question needs".into())
        }
        Some(_) => return Err("`values` must be an object mapping names to values".into()),
        None => {
            return Err(
                "the reply has no `values` object naming the values the question needs".into(),
            )
        }
    }
    let formula = formula_of(&map)?;
    let mut plan = Plan::deserialize(Value::Object(map)).map_err(|e| format!("`values`: {e}"))?;
    with_prefixes(&mut plan);
    Ok((plan, formula))
}

/// Phase 2: the formula.
pub fn phase2(content: &str) -> Result<Phase2, String> {
    let map = json_object(content)?;
    formula_of(&map)?.ok_or_else(|| "the reply has no `formula` string".to_string())
}

/// Decimal places past which Oxigraph's `xsd:decimal` cannot hold a
/// literal exactly: a query comparing with one silently matches nothing.
pub const MAX_DECIMAL_PLACES: usize = 18;

/// A warning for the repair message when `text` (a reply) holds a decimal
/// literal with more than [`MAX_DECIMAL_PLACES`] decimal places; none
/// otherwise.
pub fn long_decimal_warning(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut found = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i].is_ascii_digit() && (i == 0 || !is_word(bytes[i - 1])) {
            let start = i;
            while i < bytes.len() && bytes[i].is_ascii_digit() {
                i += 1;
            }
            if i + 1 < bytes.len() && bytes[i] == b'.' && bytes[i + 1].is_ascii_digit() {
                let dot = i;
                i += 1;
                while i < bytes.len() && bytes[i].is_ascii_digit() {
                    i += 1;
                }
                if i - dot - 1 > MAX_DECIMAL_PLACES && (i == bytes.len() || !is_word(bytes[i])) {
                    found.push(&text[start..i]);
                }
            }
        } else {
            i += 1;
        }
    }
    let first = found.first()?;
    Some(format!(
        "the decimal literal `{first}` has more than {MAX_DECIMAL_PLACES} decimal places: the store cannot hold it exactly and a query comparing with it silently matches nothing; write at most {MAX_DECIMAL_PLACES} decimal places (or select the value and compute in the formula)"
    ))
}

fn is_word(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'.'
}

/// Declares the graph's prefixes ahead of every SPARQL of a plan, so a
/// model may use `fk:`, `qb:`, `rdfs:`... without declaring them (its own
/// declarations come later and win).
pub fn with_prefixes(plan: &mut Plan) {
    let prefixes = vocab::sparql_prefixes();
    for spec in plan.values.values_mut() {
        if let ValueSpec::Sparql { sparql, .. } = spec {
            if !sparql.starts_with(&prefixes) {
                *sparql = format!("{prefixes}{}", sparql.trim());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kg::GuardedQuery;
    use crate::turn::ResultRef;

    #[test]
    fn finds_the_object_in_fences_and_prose() {
        let map = json_object("Sure!\n```json\n{\"formula\": \"a - b\"}\n```\nDone.").unwrap();
        assert_eq!(map["formula"], "a - b");
        let map = json_object("the {set} is {\"formula\": \"x\"}").unwrap();
        assert_eq!(map["formula"], "x");
        assert!(json_object("no json here")
            .unwrap_err()
            .contains("not JSON"));
        assert!(json_object("{\"a\": ")
            .unwrap_err()
            .contains("not valid JSON"));
    }

    #[test]
    fn one_reply_can_serve_both_phases() {
        let (plan, formula) = phase1(
            r#"{"values": {"x": {"sparql": "SELECT ?value WHERE { GRAPH ?g { ?s fk:value ?value } } LIMIT 1", "description": "d"}},
                "formula": "x", "note": "extra keys are fine"}"#,
        )
        .unwrap();
        assert_eq!(formula.unwrap().formula, "x");
        let ValueSpec::Sparql { sparql, .. } = &plan.values[0] else {
            panic!("a query")
        };
        assert!(sparql.starts_with("PREFIX fk:"));
        GuardedQuery::parse(sparql).expect("prefixed query parses");
        let (plan, formula) = phase1(r#"{"values": {"a": "result_0", "b": 2}}"#).unwrap();
        assert_eq!(plan.values[0], ValueSpec::Reference(ResultRef(0)));
        assert!(formula.is_none());
    }

    #[test]
    fn a_query_may_declare_its_own_prefixes() {
        let (plan, _) = phase1(
            r#"{"values": {"x": {"sparql": "PREFIX fk: <https://w3id.org/finkg/ns#>\nSELECT ?value WHERE { ?s fk:value ?value }"}}}"#,
        )
        .unwrap();
        let ValueSpec::Sparql { sparql, .. } = &plan.values[0] else {
            panic!("a query")
        };
        GuardedQuery::parse(sparql).expect("a prefix declared twice parses");
    }

    #[test]
    fn warns_of_decimals_past_eighteen_places() {
        let long = "FILTER(?value = 0.1234567890123456789)";
        let warning = long_decimal_warning(long).unwrap();
        assert!(warning.contains("`0.1234567890123456789`"), "{warning}");
        assert!(warning.contains("18 decimal places"), "{warning}");
        assert_eq!(
            long_decimal_warning("FILTER(?value = 0.123456789012345678)"),
            None
        );
        assert_eq!(
            long_decimal_warning("fk:row/rdfs:label \"12.5\" x1.2345678901234567890"),
            None
        );
    }

    #[test]
    fn says_what_is_missing() {
        assert!(phase1(r#"{"formula": "x"}"#)
            .unwrap_err()
            .contains("no `values`"));
        assert!(phase1(r#"{"values": {}}"#).unwrap_err().contains("empty"));
        assert!(phase1(r#"{"values": {"1x": 1}}"#)
            .unwrap_err()
            .contains("1x"));
        assert!(phase1(r#"{"values": {"x": "result_x"}}"#)
            .unwrap_err()
            .contains("result_x"));
        assert!(phase1(r#"{"values": {"x": 1}, "formula": ["x"]}"#)
            .unwrap_err()
            .contains("formula"));
        assert!(phase2(r#"{"values": {}}"#)
            .unwrap_err()
            .contains("no `formula`"));
        assert_eq!(
            phase2(r#"{"formula": " a / b ", "reasoning": "r"}"#)
                .unwrap()
                .formula,
            "a / b"
        );
    }
}

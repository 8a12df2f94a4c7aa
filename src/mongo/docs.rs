//! The MongoDB documents of a run, built from the run folder's records (the
//! same records whether they come from a running `eval` or from the files of
//! a finished one). Pure functions: no I/O.
//!
//! Every document carries the fields of its key (see [`Collection::key`]),
//! which the writer uses as the upsert filter.

use crate::run::{ConversationRecord, LlmExchangeRecord, RunInfo, Summary, Tally};
use mongodb::bson::{doc, Bson, DateTime, Document};
use serde_json::{Map, Value};

/// The collections finkg writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Collection {
    /// One document a run.
    Runs,
    /// One document a conversation of a run.
    Conversations,
    /// One document a turn of a run.
    Turns,
    /// One document an LLM call of a run (none until the LLM planner exists).
    LlmExchanges,
    /// One document a quad of the TBox or of a page's ABox (`--mongo-triples`).
    Triples,
}

impl Collection {
    /// The collection's name in the database.
    pub fn name(self) -> &'static str {
        match self {
            Collection::Runs => "runs",
            Collection::Conversations => "conversations",
            Collection::Turns => "turns",
            Collection::LlmExchanges => "llm_exchanges",
            Collection::Triples => "triples",
        }
    }

    /// The fields that identify one document: the upsert filter and the
    /// unique index.
    pub fn key(self) -> &'static [&'static str] {
        match self {
            Collection::Runs => &["run_id"],
            Collection::Conversations => &["run_id", "conversation_id"],
            Collection::Turns => &["run_id", "conversation_id", "turn"],
            Collection::LlmExchanges => &["run_id", "conversation_id", "turn", "phase", "attempt"],
            Collection::Triples => &["g", "s", "p", "o"],
        }
    }
}

/// The upsert filter of a document: its key fields.
pub fn key_filter(collection: Collection, document: &Document) -> Document {
    let mut filter = Document::new();
    for field in collection.key() {
        filter.insert(*field, document.get(*field).cloned().unwrap_or(Bson::Null));
    }
    filter
}

/// A JSON value as BSON: integers as 32-bit when they fit (so `turn: 0`
/// reads back as a plain number in mongosh), else 64-bit, else a double;
/// objects keep their key order.
pub fn json_to_bson(value: Value) -> Bson {
    match value {
        Value::Null => Bson::Null,
        Value::Bool(b) => Bson::Boolean(b),
        Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                int(i)
            } else {
                Bson::Double(n.as_f64().unwrap_or(f64::NAN))
            }
        }
        Value::String(s) => Bson::String(s),
        Value::Array(items) => Bson::Array(items.into_iter().map(json_to_bson).collect()),
        Value::Object(map) => Bson::Document(object_to_document(map)),
    }
}

fn object_to_document(map: Map<String, Value>) -> Document {
    map.into_iter().map(|(k, v)| (k, json_to_bson(v))).collect()
}

/// A count as BSON: 32-bit when it fits, else 64-bit.
fn count(n: usize) -> Bson {
    i64::try_from(n).map_or(Bson::Double(n as f64), int)
}

fn int(n: i64) -> Bson {
    i32::try_from(n).map_or(Bson::Int64(n), Bson::Int32)
}

fn to_bson(value: &impl serde::Serialize) -> Bson {
    json_to_bson(serde_json::to_value(value).unwrap_or(Value::Null))
}

fn date(rfc3339: Option<&str>) -> Bson {
    rfc3339
        .and_then(|s| DateTime::parse_rfc3339_str(s).ok())
        .map_or(Bson::Null, Bson::DateTime)
}

/// Whether a run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RunStatus {
    /// Still answering (live export).
    Running,
    /// Ended with a summary.
    Finished,
    /// Exported from a folder whose run never ended.
    Interrupted,
}

impl RunStatus {
    fn as_str(self) -> &'static str {
        match self {
            RunStatus::Running => "running",
            RunStatus::Finished => "finished",
            RunStatus::Interrupted => "interrupted",
        }
    }
}

/// What the LLM calls of a run cost (all zero for the rules planner).
pub fn cost(exchanges: &[LlmExchangeRecord]) -> Document {
    let sum = |f: fn(&LlmExchangeRecord) -> Option<u64>| -> Bson {
        let total = exchanges
            .iter()
            .filter_map(f)
            .fold(0u64, u64::saturating_add);
        i64::try_from(total).map_or(Bson::Double(total as f64), int)
    };
    doc! {
        "llm_calls": count(exchanges.len()),
        "cache_hits": count(exchanges.iter().filter(|e| e.exchange.cache_hit).count()),
        "prompt_tokens": sum(|e| e.exchange.prompt_tokens),
        "completion_tokens": sum(|e| e.exchange.completion_tokens),
        // a fold from +0.0: an empty f64 sum is -0.0
        "usd": exchanges.iter().map(|e| e.exchange.cost_usd).fold(0.0, |a, b| a + b),
    }
}

fn tallies<K: ToString>(
    label: &str,
    items: impl IntoIterator<Item = (K, Tally)>,
    as_number: bool,
) -> Bson {
    Bson::Array(
        items
            .into_iter()
            .map(|(k, t)| {
                let key = k.to_string();
                let mut d = Document::new();
                match key.parse::<i32>() {
                    Ok(n) if as_number => d.insert(label, n),
                    _ => d.insert(label, key),
                };
                d.extend(tally(&t));
                Bson::Document(d)
            })
            .collect(),
    )
}

fn tally(t: &Tally) -> Document {
    doc! {
        "correct": count(t.correct),
        "total": count(t.total),
        "accuracy": t.accuracy,
    }
}

/// The `runs` document: identity, times, configuration and, once the run
/// ended, its results (`by_operation`, `by_turn` and `by_feature` as arrays
/// of `{operation|turn|feature, correct, total, accuracy}`).
pub fn run_document(
    run: &RunInfo,
    summary: Option<&Summary>,
    status: RunStatus,
    cost: Document,
) -> Document {
    let results = summary.map_or(Bson::Null, |s| {
        let mut results = doc! {
            "conversations": count(s.conversations),
            "turns": count(s.turns.total),
            "correct": count(s.turns.correct),
            "accuracy": s.turns.accuracy,
            "conversation_accuracy": tally(&s.conversation_accuracy),
            "unanswered": count(s.unanswered),
            "failed_conversations": count(s.failed_conversations),
            "given_previous_right": tally(&s.given_previous_right),
            "given_previous_wrong": tally(&s.given_previous_wrong),
        };
        results.insert(
            "by_operation",
            tallies("operation", s.by_operation.clone(), false),
        );
        results.insert("by_turn", tallies("turn", s.by_turn.clone(), true));
        results.insert(
            "by_feature",
            tallies("feature", s.by_feature.clone(), false),
        );
        results.insert("seconds", s.seconds);
        results.insert("cost", cost);
        Bson::Document(results)
    });
    doc! {
        "run_id": &run.run_id,
        "started": date(Some(&run.started)),
        "finished": date(run.finished.as_deref()),
        "status": status.as_str(),
        "config": {
            "planner": &run.planner,
            "model": to_bson(&run.model),
            "dataset": to_bson(&run.dataset),
            "limit": to_bson(&run.limit),
            "critic": to_bson(&run.critic),
            "max_revisions": to_bson(&run.max_revisions),
            "git_revision": to_bson(&run.git_revision),
            "finkg_version": &run.finkg_version,
        },
        "results": results,
    }
}

/// The `conversations` document.
pub fn conversation_document(run_id: &str, c: &ConversationRecord) -> Document {
    doc! {
        "run_id": run_id,
        "conversation_id": &c.id,
        "turns": count(c.turns),
        "correct": to_bson(&c.correct),
        "all_correct": c.correct.map_or(Bson::Null, |n| Bson::Boolean(n == c.turns)),
        "graph": to_bson(&c.graph),
        "error": to_bson(&c.error),
    }
}

/// The `turns` document of a `trace.jsonl` line: `run_id`,
/// `conversation_id` (the line's `id`) and `turn` first, then every field of
/// the line (question, answer, error, correct, gold, plan, formula, values
/// with their SPARQL and sources, result, timings), and `tools`: how many of
/// the plan's values came from SPARQL, earlier results and constants.
pub fn turn_document(run_id: &str, mut line: Map<String, Value>) -> Document {
    let conversation_id = line.shift_remove("id").unwrap_or(Value::Null);
    let turn = line.shift_remove("turn").unwrap_or(Value::Null);
    let tools = tools(line.get("plan"));
    let mut d = doc! {
        "run_id": run_id,
        "conversation_id": json_to_bson(conversation_id),
        "turn": json_to_bson(turn),
    };
    d.extend(object_to_document(line));
    d.insert("tools", tools);
    d
}

/// Counts the kinds of a plan's values (the planner's "tools").
fn tools(plan: Option<&Value>) -> Document {
    let (mut sparql, mut reference, mut constant) = (0i32, 0i32, 0i32);
    if let Some(values) = plan
        .and_then(|p| p.get("values"))
        .and_then(Value::as_object)
    {
        for spec in values.values() {
            match spec {
                Value::Object(o) if o.contains_key("sparql") => sparql += 1,
                Value::String(s) if s.starts_with("result_") => reference += 1,
                _ => constant += 1,
            }
        }
    }
    doc! {"sparql": sparql, "reference": reference, "constant": constant}
}

/// The `llm_exchanges` document.
pub fn llm_exchange_document(run_id: &str, record: &LlmExchangeRecord) -> Document {
    let e = &record.exchange;
    doc! {
        "run_id": run_id,
        "conversation_id": &record.id,
        "turn": to_bson(&record.turn),
        "phase": &e.phase,
        "attempt": to_bson(&e.attempt),
        "prompt": &e.prompt,
        "reply": to_bson(&e.reply),
        "tokens": {
            "prompt": to_bson(&e.prompt_tokens),
            "completion": to_bson(&e.completion_tokens),
        },
        "latency_ms": to_bson(&e.latency_ms),
        "retries": to_bson(&e.retries),
        "cache_hit": e.cache_hit,
        "cost_usd": to_bson(&e.cost_usd),
        "error": to_bson(&e.error),
    }
}

/// A quad as a `triples` document: subject, predicate, object and graph in
/// N-Triples syntax (`<iri>`, `_:blank`, `"literal"^^<datatype>`).
pub fn triple_document(s: String, p: String, o: String, g: String) -> Document {
    doc! {"s": s, "p": p, "o": o, "g": g}
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn turn_documents_lead_with_their_key() {
        let line = json!({
            "id": "Single_X/2007/page_1.pdf-1", "turn": 2, "question": "what was the change?",
            "answer": 35.8, "error": null, "correct": true,
            "plan": {"values": {"new": "result_0", "old": {"sparql": "SELECT ...", "description": "d"}, "k": 100}},
        });
        let Value::Object(map) = line else {
            unreachable!()
        };
        let d = turn_document("r1", map);
        let keys: Vec<&str> = d.keys().map(String::as_str).take(4).collect();
        assert_eq!(keys, ["run_id", "conversation_id", "turn", "question"]);
        assert_eq!(d.get_i32("turn").unwrap(), 2);
        assert_eq!(d.get_f64("answer").unwrap(), 35.8);
        assert!(d.get("id").is_none());
        let tools = d.get_document("tools").unwrap();
        assert_eq!(tools, &doc! {"sparql": 1, "reference": 1, "constant": 1});
        assert_eq!(
            key_filter(Collection::Turns, &d),
            doc! {"run_id": "r1", "conversation_id": "Single_X/2007/page_1.pdf-1", "turn": 2}
        );
    }

    #[test]
    fn numbers_keep_their_kind() {
        assert_eq!(json_to_bson(json!(7)), Bson::Int32(7));
        assert_eq!(
            json_to_bson(json!(5_000_000_000u64)),
            Bson::Int64(5_000_000_000)
        );
        assert_eq!(json_to_bson(json!(u64::MAX)), Bson::Double(u64::MAX as f64));
        assert_eq!(json_to_bson(json!(-1.5)), Bson::Double(-1.5));
    }

    #[test]
    fn run_documents_carry_config_and_results() {
        let run = RunInfo {
            run_id: "r1".into(),
            started: "2026-11-22T01:41:08.000Z".into(),
            finished: None,
            planner: "rules".into(),
            model: None,
            dataset: Some("data/x.json".into()),
            limit: Some(5),
            git_revision: None,
            finkg_version: "0.1.0".into(),
            interrupted: false,
            store: None,
            critic: None,
            max_revisions: None,
        };
        let d = run_document(&run, None, RunStatus::Running, cost(&[]));
        assert_eq!(d.get_str("status").unwrap(), "running");
        assert_eq!(
            d.get_datetime("started").unwrap().timestamp_millis(),
            1_795_311_668_000
        );
        assert_eq!(d.get("finished"), Some(&Bson::Null));
        assert_eq!(
            d.get_document("config").unwrap().get_i32("limit").unwrap(),
            5
        );
        assert_eq!(d.get("results"), Some(&Bson::Null));

        let mut summary = Summary {
            turns: Tally {
                correct: 3,
                total: 4,
                accuracy: 0.75,
            },
            ..Summary::default()
        };
        summary
            .by_operation
            .insert("subtract".into(), summary.turns);
        summary.by_turn.insert(1, summary.turns);
        let d = run_document(&run, Some(&summary), RunStatus::Finished, cost(&[]));
        let results = d.get_document("results").unwrap();
        assert_eq!(results.get_f64("accuracy").unwrap(), 0.75);
        let ops = results.get_array("by_operation").unwrap();
        assert_eq!(
            ops[0].as_document().unwrap(),
            &doc! {"operation": "subtract", "correct": 3, "total": 4, "accuracy": 0.75}
        );
        let turns = results.get_array("by_turn").unwrap();
        assert_eq!(turns[0].as_document().unwrap().get_i32("turn").unwrap(), 1);
        assert_eq!(
            results
                .get_document("cost")
                .unwrap()
                .get_i32("llm_calls")
                .unwrap(),
            0
        );
    }
}

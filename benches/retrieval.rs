//! criterion benches of the real paths: SPARQL retrieval on real example
//! graphs, graph building per example, and a whole turn with the rules
//! planner.
//!
//! The queries are the files in `benches/queries/`, run on the graph of
//! `data/example.json`; `benches/compare_rdflib.py` runs the same files on
//! the same graph (exported as N-Quads) in rdflib and prints the ratio.

use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use finkg::dataset::{self, Conversation};
use finkg::kg::{GuardedQuery, KgStore, QueryOutput, Schema};
use finkg::pipeline::Session;
use finkg::plan::RulesPlanner;
use std::hint::black_box;
use std::path::Path;

const QUERIES: [(&str, &str); 3] = [
    (
        "cell_by_metric_and_period",
        include_str!("queries/cell_by_metric_and_period.rq"),
    ),
    (
        "text_fact_by_words_and_year",
        include_str!("queries/text_fact_by_words_and_year.rq"),
    ),
    ("schema_summary", include_str!("queries/schema_summary.rq")),
];

fn conversations(file: &str) -> Vec<Conversation> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
    dataset::load_file(&path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .into_iter()
        .map(|e| e.conversation)
        .collect()
}

fn example() -> Conversation {
    conversations("data/example.json").remove(0)
}

fn rows(kg: &KgStore, q: &GuardedQuery) -> usize {
    match kg.query(q).expect("the query runs") {
        QueryOutput::Solutions { rows, .. } => rows.len(),
        QueryOutput::Boolean(b) => usize::from(b),
    }
}

fn sparql(c: &mut Criterion) {
    let kg = KgStore::build(&example()).expect("the example's graph builds");
    let mut group = c.benchmark_group("sparql");
    for (name, text) in QUERIES {
        let q = GuardedQuery::parse(text).expect("the bench query passes the guard");
        assert!(rows(&kg, &q) > 0, "{name} binds nothing on the example");
        group.bench_function(name, |b| b.iter(|| rows(&kg, black_box(&q))));
    }
    // the same cell query parsed (and guarded) on every run, beside the
    // prepared one above: what parsing once saves
    let (_, cell) = QUERIES[0];
    group.bench_function("cell_by_metric_and_period_parsed_each_time", |b| {
        b.iter(|| {
            let q = GuardedQuery::parse(black_box(cell)).expect("passes the guard");
            rows(&kg, &q)
        })
    });
    // the planner's own view of a page: several queries, read into a Schema
    group.bench_function("schema_read", |b| {
        b.iter(|| Schema::read(black_box(&kg)).expect("the schema reads"))
    });
    group.finish();
}

fn graph_build(c: &mut Criterion) {
    let mut group = c.benchmark_group("graph_build");
    let example = example();
    group.bench_function("example", |b| {
        b.iter(|| KgStore::build(black_box(&example)).expect("builds"))
    });
    // the public split's page with the most text: the slowest build
    let largest = conversations("data/convfinqa_dev_public.json")
        .into_iter()
        .max_by_key(|c| {
            c.document.pre_text.len() + c.document.post_text.len() + c.document.table.rows.len()
        })
        .expect("the public split is not empty");
    group.bench_function("largest_public_page", |b| {
        b.iter(|| KgStore::build(black_box(&largest)).expect("builds"))
    });
    group.finish();
}

fn turn(c: &mut Criterion) {
    let example = example();
    let question = example.questions[0].clone();
    let mut group = c.benchmark_group("turn");
    // plan, bind and evaluate one question on a page whose graph is built
    group.bench_function("rules_first_turn", |b| {
        b.iter_batched(
            || {
                (
                    Session::new(&example).expect("builds"),
                    RulesPlanner::new().expect("patterns load"),
                )
            },
            |(mut session, mut planner)| session.ask(&mut planner, black_box(&question)),
            BatchSize::SmallInput,
        )
    });
    // the whole conversation, graph building included
    group.bench_function("rules_whole_conversation", |b| {
        b.iter(|| {
            let mut session = Session::new(&example).expect("builds");
            let mut planner = RulesPlanner::new().expect("patterns load");
            for q in &example.questions {
                black_box(session.ask(&mut planner, q));
            }
        })
    });
    group.finish();
}

fn eval(c: &mut Criterion) {
    // the public split's first 20 conversations, every turn, as `finkg eval`
    // answers them (graph, schema, plan, bind, evaluate; no run folder)
    let first: Vec<Conversation> = conversations("data/convfinqa_dev_public.json")
        .into_iter()
        .take(20)
        .collect();
    let mut group = c.benchmark_group("eval");
    group.sample_size(10);
    group.bench_function("rules_20_conversations", |b| {
        b.iter(|| {
            let mut planner = RulesPlanner::new().expect("patterns load");
            for conversation in &first {
                let mut session = Session::new(conversation).expect("builds");
                for q in &conversation.questions {
                    black_box(session.ask(&mut planner, q));
                }
            }
        })
    });
    group.finish();
}

criterion_group!(benches, sparql, graph_build, turn, eval);
criterion_main!(benches);

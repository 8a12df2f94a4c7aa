//! Bounded mutation fuzzing of the parsers that read untrusted text: the
//! formula language, the SPARQL guard, both dataset layouts and the LLM
//! reply reader (the chat-completions body, then the Phase 1 and Phase 2
//! JSON).
//!
//! cargo-fuzz needs a nightly toolchain and libFuzzer; these targets run on
//! stable inside `cargo test`: each mutates a corpus of valid inputs
//! (byte flips, inserted tokens from the target's dictionary, deleted,
//! repeated and spliced spans, deep nesting) with a seeded generator, so a
//! run is reproducible, and checks that the reader returns (never panics,
//! never overflows the stack) and that what it admits is what it promises.
//! Each target stops after `FINKG_FUZZ_ITERS` inputs (default 1,500) or
//! `FINKG_FUZZ_SECS` seconds (default 10), whichever comes first; `.ci/run`
//! runs them longer. `FINKG_FUZZ_SEED` picks another seed. An input that
//! fails (or runs over 5 s) is written to `target/fuzz-failures/` and
//! named; keep it in `tests/fuzz/` as a regression case, in the target's
//! corpus.

use finkg::dataset::load_str;
use finkg::exec::formula::Formula;
use finkg::kg::{GuardedQuery, QueryForm};
use finkg::llm::{client::parse_reply, reply};
use rust_decimal::Decimal;
use std::path::Path;
use std::time::{Duration, Instant};

fn env_u64(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Runs `check` on mutations of `corpus` (and on the corpus itself) on a
/// thread with the 2 MiB stack of a worker thread, as `eval --jobs` runs.
fn fuzz(
    name: &'static str,
    corpus: Vec<Vec<u8>>,
    dictionary: &'static [&'static str],
    check: fn(&[u8]),
) {
    let handle = std::thread::Builder::new()
        .name(format!("fuzz-{name}"))
        .stack_size(2 << 20)
        .spawn(move || run(name, &corpus, dictionary, check))
        .unwrap();
    handle.join().unwrap();
}

/// Longest one input may take (debug build, loaded machine).
const SLOW_SECS: u64 = 5;

fn run(name: &str, corpus: &[Vec<u8>], dictionary: &[&str], check: fn(&[u8])) {
    let iterations = env_u64("FINKG_FUZZ_ITERS", 1_500);
    let limit = Duration::from_secs(env_u64("FINKG_FUZZ_SECS", 10));
    let seed = env_u64("FINKG_FUZZ_SEED", 0x5eed_f1c6);
    let mut rng = fastrand::Rng::with_seed(seed ^ name.len() as u64);
    let started = Instant::now();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/fuzz-failures");
    let keep = |input: &[u8], n: u64| {
        let _ = std::fs::create_dir_all(&dir);
        let path = dir.join(format!("{name}-{seed:x}-{n}"));
        let _ = std::fs::write(&path, input);
        path
    };
    // a reader that takes seconds on 16 KB is a denial of service: a
    // watcher ends the test process on an input that runs too long
    let current = std::sync::Arc::new(std::sync::Mutex::new((0u64, Instant::now(), Vec::new())));
    let done_flag = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    {
        let (current, done_flag) = (current.clone(), done_flag.clone());
        let (dir, name) = (dir.clone(), name.to_string());
        std::thread::spawn(move || {
            while !done_flag.load(std::sync::atomic::Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(500));
                let guard = current.lock().unwrap_or_else(|e| e.into_inner());
                if guard.1.elapsed() > Duration::from_secs(SLOW_SECS) {
                    let _ = std::fs::create_dir_all(&dir);
                    let path = dir.join(format!("{name}-{seed:x}-{}-slow", guard.0));
                    let _ = std::fs::write(&path, &guard.2);
                    eprintln!(
                        "fuzz target {name} ran over {SLOW_SECS} s on input {}, written to {}",
                        guard.0,
                        path.display()
                    );
                    std::process::exit(101);
                }
            }
        });
    }
    let attempt = |input: &[u8], n: u64| {
        *current.lock().unwrap_or_else(|e| e.into_inner()) = (n, Instant::now(), input.to_vec());
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| check(input)));
        if result.is_err() {
            let path = keep(input, n);
            panic!(
                "fuzz target {name} failed on input {n}, written to {}",
                path.display()
            );
        }
    };
    for (n, input) in corpus.iter().enumerate() {
        attempt(input, n as u64);
    }
    let mut done = 0;
    while done < iterations && started.elapsed() < limit {
        let input = mutate(&mut rng, corpus, dictionary);
        attempt(&input, done);
        done += 1;
    }
    done_flag.store(true, std::sync::atomic::Ordering::Relaxed);
    eprintln!(
        "fuzz {name}: {done} inputs in {:.1} s (seed {seed:#x})",
        started.elapsed().as_secs_f64()
    );
}

fn mutate(rng: &mut fastrand::Rng, corpus: &[Vec<u8>], dictionary: &[&str]) -> Vec<u8> {
    let mut data = corpus[rng.usize(..corpus.len())].clone();
    for _ in 0..rng.usize(1..8) {
        let at = rng.usize(..=data.len());
        match rng.u8(..8) {
            0 if !data.is_empty() => {
                let i = rng.usize(..data.len());
                data[i] ^= 1 << rng.u8(..8);
            }
            1 => data.insert(at, rng.u8(..)),
            2 | 3 if !dictionary.is_empty() => {
                let word = dictionary[rng.usize(..dictionary.len())];
                data.splice(at..at, word.bytes());
            }
            4 if !data.is_empty() => {
                let end = (at + rng.usize(1..64)).min(data.len());
                data.drain(at.min(end)..end);
            }
            5 if !data.is_empty() => {
                let start = rng.usize(..data.len());
                let end = (start + rng.usize(1..32)).min(data.len());
                let span = data[start..end].repeat(rng.usize(1..64));
                data.splice(at..at, span);
            }
            6 => {
                // deep nesting, the stack's enemy
                let (open, close) = [("(", ")"), ("{", "}"), ("[", "]")][rng.usize(..3)];
                let depth = rng.usize(1..6000);
                let mut deep = open.repeat(depth);
                if rng.bool() {
                    deep.push_str(&close.repeat(depth));
                }
                data.splice(at..at, deep.bytes());
            }
            _ => {
                let other = &corpus[rng.usize(..corpus.len())];
                let start = rng.usize(..=other.len());
                let end = (start + rng.usize(0..256)).min(other.len());
                data.splice(at..at, other[start..end].iter().copied());
            }
        }
    }
    data
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn seeds(items: &[&str]) -> Vec<Vec<u8>> {
    items.iter().map(|s| s.as_bytes().to_vec()).collect()
}

fn file(path: &str) -> Vec<u8> {
    std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join(path)).unwrap()
}

// ------------------------------------------------------------------ targets

fn check_formula(bytes: &[u8]) {
    let source = text(bytes);
    if let Ok(formula) = Formula::parse(&source) {
        let names = formula.names();
        let lookup = |name: &str| {
            names
                .iter()
                .position(|n| n == name)
                .map(|i| Decimal::from(i as i64 * 7 - 3))
        };
        let _ = formula.eval(&lookup);
        assert_eq!(formula.source(), source);
    }
}

#[test]
fn fuzz_formula_parser() {
    fuzz(
        "formula",
        seeds(&[
            "(net_sales_2009 - net_sales_2008) / net_sales_2008",
            "abs(a - b) * 100",
            "max(a, b, c) > min(a, b)",
            "round(avg(a, b, c), 2)",
            "sum(a, b) / -c",
            "-(-(-a))",
            "a >= b",
            "1e3 + 0.5",
            "99999999999999999999999999999 * 99999999999999999999999999999",
            "1 / 0",
        ]),
        &[
            "(",
            ")",
            "+",
            "-",
            "*",
            "/",
            ",",
            "abs(",
            "min(",
            "max(",
            "round(",
            "avg(",
            "sum(",
            ">",
            "<",
            ">=",
            "==",
            "!=",
            "0",
            "1e28",
            "79228162514264337593543950335",
            "a",
            " ",
        ],
        check_formula,
    );
}

fn check_guard(bytes: &[u8]) {
    let source = text(bytes);
    if let Ok(query) = GuardedQuery::parse(&source) {
        assert!(matches!(query.form(), QueryForm::Select | QueryForm::Ask));
        assert_eq!(query.text(), source);
        let _ = query.projected_variables();
    }
}

#[test]
fn fuzz_sparql_guard() {
    let mut corpus = seeds(&[
        "SELECT ?v WHERE { GRAPH ?g { ?o <https://w3id.org/finkg/ns#value> ?v } } LIMIT 3",
        "ASK { ?s ?p ?o FILTER (!EXISTS { ?s <http://x/q> ?r }) }",
        "SELECT (SUM(?v) AS ?t) WHERE { ?s <http://x/p> ?v } GROUP BY ?s ORDER BY DESC(?t)",
        "SELECT * WHERE { SERVICE <http://remote/sparql> { ?s ?p ?o } }",
        "INSERT DATA { <http://x/a> <http://x/b> \"c\" }",
        "CONSTRUCT { ?s ?p ?o } WHERE { ?s ?p ?o }",
        "SELECT ?x WHERE { BIND(((1 + 2) * 3) AS ?x) VALUES ?y { 1 2 } OPTIONAL { ?x ?p ?y } }",
    ]);
    for q in [
        "cell_by_metric_and_period",
        "schema_summary",
        "text_fact_by_words_and_year",
    ] {
        let mut text = finkg::vocab::sparql_prefixes().into_bytes();
        text.extend(file(&format!("benches/queries/{q}.rq")));
        corpus.push(text);
    }
    // regressions: inputs the fuzzer found
    corpus.push(file("tests/fuzz/guard-nested-not-exists.rq"));
    fuzz(
        "guard",
        corpus,
        &[
            "SELECT", "ASK", "WHERE", "{", "}", "(", ")", "[", "]", "SERVICE", "OPTIONAL", "UNION",
            "MINUS", "FILTER", "EXISTS", "NOT", "GRAPH", "BIND", "VALUES", "LATERAL", "?x", "<",
            ">", "\"", "'''", "#", "\n", ".", ";", "*", "/", "|", "^", "fk:value", "@en", "^^",
        ],
        check_guard,
    );
}

fn check_dataset(bytes: &[u8]) {
    let source = text(bytes);
    match load_str(&source, "fuzz.json") {
        Ok(examples) => {
            for e in &examples {
                // a loaded page builds a graph without panicking
                let _ = finkg::kg::KgStore::build(&e.conversation);
            }
        }
        Err(e) => assert!(e.to_string().contains("fuzz.json"), "{e}"),
    }
}

#[test]
fn fuzz_dataset_loaders() {
    fuzz(
        "dataset",
        vec![
            file("data/example.json"),
            file("data/examples.json"),
            file("data/original_layout_sample.json"),
        ],
        &[
            "{",
            "}",
            "[",
            "]",
            ",",
            ":",
            "\"",
            "null",
            "true",
            "1e999",
            "-0",
            "\"$ 1,234.5\"",
            "\"( 12 )\"",
            "\"12%\"",
            "\"n/a\"",
            "\"id\"",
            "\"doc\"",
            "\"table\"",
            "\"dialogue\"",
            "\"pre_text\"",
            "\"qa\"",
            "\"table_ori\"",
            "\"conv_questions\"",
            "\"executed_answers\"",
            "\\u0000",
            "\\ud800",
        ],
        check_dataset,
    );
}

fn check_reply(bytes: &[u8]) {
    let source = text(bytes);
    if let Ok(reply) = parse_reply(&source) {
        let _ = reply::phase1(&reply.content);
        let _ = reply::phase2(&reply.content);
    }
    let _ = reply::json_object(&source);
    if let Ok((plan, _)) = reply::phase1(&source) {
        let _ = serde_json::to_string(&plan).unwrap();
    }
    let _ = reply::phase2(&source);
}

#[test]
fn fuzz_llm_reply_reader() {
    let plan = r#"{"values": {"x": {"sparql": "SELECT ?value WHERE { ?s fk:value ?value }", "description": "d"}, "r": "result_0", "c": 100}, "entity": "ACME", "metric_type": "change", "period": "2009", "formula": "(x - r) / c"}"#;
    let body = serde_json::json!({
        "choices": [{"message": {"role": "assistant", "content": plan}}],
        "usage": {"prompt_tokens": 10, "completion_tokens": 5}
    })
    .to_string();
    fuzz(
        "reply",
        seeds(&[
            plan,
            &body,
            "Here is the plan:\n```json\n{\"formula\": \"a + b\"}\n```",
            "{\"formula\": \"a / b\", \"reasoning\": \"...\"}",
        ]),
        &[
            "{",
            "}",
            "[",
            "]",
            "\"",
            ":",
            ",",
            "```json",
            "```",
            "\"values\"",
            "\"sparql\"",
            "\"formula\"",
            "\"result_99999999999999999999\"",
            "\"result_-1\"",
            "1e400",
            "null",
            "\"choices\"",
            "\"content\"",
            "\\u0000",
        ],
        check_reply,
    );
}

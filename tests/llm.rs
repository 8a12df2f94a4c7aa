//! The LLM planner end to end: the `finkg` binary with `--planner llm`
//! against a scripted chat-completions server on 127.0.0.1
//! ([`support::Server`]). Each test checks the answers and what the server
//! received. No test reaches beyond loopback.

mod support;

use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::time::Duration;
use support::{finkg, Reply, Server};
use tempfile::TempDir;

/// A hand-written page: a two-year table and a sentence with a number.
const PAGE: &str = r#"{
  "id": "Test_ACME/2009/page_7.pdf-1",
  "doc": {
    "pre_text": "acme makes widgets . in 2009 , revenue from services was $ 45.5 million .",
    "post_text": "all amounts are in millions .",
    "table": {
      "2009": {"net sales": "$ 1,500", "operating income": "300"},
      "2008": {"net sales": "$ 1,200", "operating income": "240"}
    }
  },
  "dialogue": {
    "conv_questions": ["what was net sales in 2009?", "and in 2008?", "what was the change?",
                       "and the percentage change?"],
    "executed_answers": [1500, 1200, 300, 0.25],
    "conv_answers": ["1500", "1200", "300", "25%"],
    "turn_program": ["1500", "1200", "subtract(1500, 1200)", "subtract(1500, 1200), divide(#0, 1200)"]
  }
}"#;

fn page(dir: &TempDir) -> PathBuf {
    let path = dir.path().join("page.json");
    std::fs::write(&path, PAGE).unwrap();
    path
}

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("data")
        .join(name)
}

/// `finkg solve FILE --json --explain --planner llm` against `server`, plus `extra`.
fn solve(server: &Server, file: &Path, extra: &[&str]) -> assert_cmd::assert::Assert {
    finkg()
        .arg("solve")
        .arg(file)
        .args([
            "--json",
            "--explain",
            "--planner",
            "llm",
            "--llm-model",
            "any",
        ])
        .args(["--llm-base-url", &server.url()])
        .args(extra)
        .assert()
}

fn lines(out: &[u8]) -> Vec<Value> {
    String::from_utf8_lossy(out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

fn answers(turns: &[Value]) -> Vec<Value> {
    turns.iter().map(|t| t["answer"].clone()).collect()
}

/// A query for the cell of `row` and `column`, by their labels.
fn cell(row: &str, column: &str) -> String {
    format!(
        "SELECT ?value ?source WHERE {{ GRAPH ?g {{ ?source a qb:Observation ; fk:row/rdfs:label \"{row}\" ; fk:column/rdfs:label \"{column}\" ; fk:value ?value }} }}"
    )
}

fn lookup(name: &str, row: &str, column: &str) -> Value {
    json!({"values": {name: {"sparql": cell(row, column), "description": format!("{row} in {column}")}},
           "entity": "ACME", "metric_type": "value", "period": column, "formula": name})
}

#[test]
fn a_whole_conversation_through_the_llm_planner() {
    let dir = TempDir::new().unwrap();
    let server = Server::script(vec![
        // Turn 0 in two phases: values, then the formula.
        Reply::json(
            json!({"values": {"sales_2009": {"sparql": cell("net sales", "2009"), "description": "net sales in 2009"}},
                           "entity": "ACME", "metric_type": "value", "period": "2009"}),
        ),
        Reply::json(json!({"formula": "sales_2009", "reasoning": "a look-up"})),
        // The others in one reply each.
        Reply::json(lookup("sales_2008", "net sales", "2008")),
        Reply::json(
            json!({"values": {"new": "result_0", "old": "result_1"}, "metric_type": "change",
                           "formula": "new - old", "confidence": 0.9}),
        ),
        Reply::json(json!({"values": {"change": "result_2", "old": "result_1"},
                           "metric_type": "percentage change", "formula": "change / old"})),
    ]);
    let out = finkg()
        .env("OPENAI_API_KEY", "sk-test")
        .arg("solve")
        .arg(page(&dir))
        .args([
            "--json",
            "--planner",
            "llm",
            "--llm-model",
            "any",
            "--no-llm-cache",
        ])
        .args(["--llm-base-url", &server.url()])
        .assert()
        .success();
    let turns = lines(&out.get_output().stdout);
    assert_eq!(
        answers(&turns),
        [json!(1500), json!(1200), json!(300), json!(0.25)]
    );
    assert!(turns.iter().all(|t| t["error"].is_null()), "{turns:?}");

    let got = server.received();
    assert_eq!(
        got.len(),
        5,
        "one request a phase, one a turn when the reply has the formula"
    );
    let first = &got[0];
    assert_eq!(first.path, "/v1/chat/completions");
    assert_eq!(first.header("authorization"), Some("Bearer sk-test"));
    assert_eq!(first.body["model"], "any");
    assert_eq!(first.body["response_format"]["type"], "json_object");
    let roles: Vec<&str> = first.body["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["role"].as_str().unwrap())
        .collect();
    assert_eq!(roles, ["system", "user"]);
    let prompt = first.text();
    for needle in [
        "what was net sales in 2009?",
        "\"net sales\"",
        "\"operating income\"",
        "\"2008\" (year 2008)",
        "`$ 45.5 million` = 45.5",
        "PREFIX fk: <https://w3id.org/finkg/ns#>",
        "percentage_change",
        "first question",
    ] {
        assert!(
            prompt.contains(needle),
            "`{needle}` not in the first prompt:\n{prompt}"
        );
    }
    let phase2 = got[1].text();
    assert!(phase2.contains("sales_2009 = 1500"), "{phase2}");
    assert!(
        phase2.contains("printed in parentheses, such as ( 1,234 ), are taken as magnitudes"),
        "{phase2}"
    );
    let third = got[3].text();
    for needle in [
        "what was the change?",
        r#"result_0: {"value":1500,"scale":null,"description":"net sales in 2009","entity":"ACME","type":"value","period":"2009","question":"what was net sales in 2009?"}"#,
        r#"result_1: {"value":1200,"#,
    ] {
        assert!(
            third.contains(needle),
            "`{needle}` not in turn 2's prompt:\n{third}"
        );
    }
}

#[test]
fn a_script_that_knows_no_vocabulary_drives_solve() {
    let any = |value: &str| {
        Reply::json(json!({"values": {"x": {
            "sparql": format!("SELECT ?value WHERE {{ GRAPH ?g {{ ?s ?p ?value }} FILTER(?value = {value}) }} LIMIT 1"),
            "description": "a number of the page"}}, "formula": "x"}))
    };
    let server = Server::script(vec![
        any("60.94"),
        any("25.14"),
        Reply::json(json!({"values": {"a": "result_0", "b": "result_1"}, "formula": "a - b"})),
        any("25.14"),
        Reply::json(json!({"values": {"a": "result_2", "b": "result_3"}, "formula": "a / b"})),
    ]);
    let out = finkg()
        .arg("solve")
        .arg(data("example.json"))
        .args(["--planner", "llm", "--llm-model", "any", "--no-llm-cache"])
        .args(["--llm-base-url", &server.url()])
        .assert()
        .success();
    let text = String::from_utf8_lossy(&out.get_output().stdout).to_string();
    let got: Vec<&str> = text
        .lines()
        .filter_map(|l| l.trim().strip_prefix("-> "))
        .collect();
    assert_eq!(
        got,
        ["60.94", "25.14", "35.8", "25.14", "1.424025"],
        "{text}"
    );
    let received = server.received();
    assert_eq!(received.len(), 5);
    assert_eq!(
        received[0].header("authorization"),
        None,
        "no key, no header"
    );
    assert!(received[0]
        .text()
        .contains("weighted average exercise price per share"));
}

#[test]
fn a_reply_that_is_not_json_is_sent_back() {
    let dir = TempDir::new().unwrap();
    let server = Server::script(vec![
        Reply::chat("Sure! Net sales in 2009 were 1,500."),
        Reply::chat(format!(
            "```json\n{}\n```",
            lookup("sales", "net sales", "2009")
        )),
    ]);
    let out = solve(
        &server,
        &page(&dir),
        &[
            "--no-llm-cache",
            "--question",
            "what was net sales in 2009?",
        ],
    )
    .success();
    let turns = lines(&out.get_output().stdout);
    assert_eq!(turns[0]["answer"], 1500);
    let exchanges = turns[0]["llm"].as_array().unwrap();
    assert_eq!(exchanges.len(), 2);
    assert!(exchanges[0]["error"].as_str().unwrap().contains("not JSON"));
    assert!(exchanges[1]["error"].is_null());
    let got = server.received();
    let messages = got[1].messages();
    assert_eq!(messages.len(), 4, "the prompt, the bad reply and the error");
    assert_eq!(messages[2]["role"], "assistant");
    assert_eq!(
        messages[2]["content"],
        "Sure! Net sales in 2009 were 1,500."
    );
    let repair = messages[3]["content"].as_str().unwrap();
    assert!(
        repair.contains("could not be used") && repair.contains("not JSON"),
        "{repair}"
    );
}

/// The feedback the planner sends back after `first` (a reply it cannot
/// use), when the model then answers "net sales in 2009" correctly.
fn repair_after(first: Value) -> String {
    let dir = TempDir::new().unwrap();
    let server = Server::script(vec![
        Reply::json(first),
        Reply::json(lookup("x", "net sales", "2009")),
    ]);
    let out = solve(
        &server,
        &page(&dir),
        &[
            "--no-llm-cache",
            "--question",
            "what was net sales in 2009?",
        ],
    )
    .success();
    assert_eq!(lines(&out.get_output().stdout)[0]["answer"], 1500);
    let got = server.received();
    assert_eq!(got.len(), 2);
    let repair = got[1].messages()[3]["content"]
        .as_str()
        .unwrap()
        .to_string();
    repair
}

#[test]
fn a_decimal_past_eighteen_places_is_warned_of_in_the_repair() {
    let repair = repair_after(
        json!({"values": {"x": {"sparql": "SELECT ?value WHERE { GRAPH ?g { ?c fk:value ?value FILTER(?value = 1500.0000000000000000001) } }"}},
               "formula": "x"}),
    );
    assert!(repair.contains("bound 0 rows"), "{repair}");
    assert!(
        repair.contains("Warning: the decimal literal `1500.0000000000000000001` has more than 18 decimal places"),
        "{repair}"
    );
    // A literal within the limit is not warned of.
    let repair = repair_after(
        json!({"values": {"x": {"sparql": "SELECT ?value WHERE { GRAPH ?g { ?c fk:value ?value FILTER(?value = 1500.000000000000000001) } }"}},
               "formula": "x"}),
    );
    assert!(!repair.contains("Warning"), "{repair}");
}

#[test]
fn the_prompt_states_the_parentheses_convention() {
    let dir = TempDir::new().unwrap();
    let server = Server::script(vec![Reply::json(lookup("x", "net sales", "2009"))]);
    solve(
        &server,
        &page(&dir),
        &[
            "--no-llm-cache",
            "--question",
            "what was net sales in 2009?",
        ],
    )
    .success();
    let prompt = server.received()[0].text();
    assert!(
        prompt.contains("Figures printed in parentheses, such as ( 1,234 ), are losses or outflows, but the dataset takes them as magnitudes"),
        "{prompt}"
    );
    assert!(!prompt.contains("Keep signs as retrieved"), "{prompt}");
}

#[test]
fn a_refused_sparql_is_sent_back_and_corrected() {
    let repair = repair_after(
        json!({"values": {"x": {"sparql": "SELECT ?value WHERE { SERVICE <http://example.org/sparql> { ?s ?p ?value } }"}},
                           "formula": "x"}),
    );
    assert!(
        repair.contains("query refused") && repair.contains("SERVICE"),
        "{repair}"
    );
}

#[test]
fn a_query_that_binds_nothing_and_a_formula_that_does_not_parse_are_sent_back() {
    let dir = TempDir::new().unwrap();
    let server = Server::script(vec![
        Reply::json(lookup("x", "net profits", "2009")),
        Reply::json(
            json!({"values": {"x": {"sparql": cell("net sales", "2009")}}, "formula": "x +"}),
        ),
        Reply::json(lookup("x", "net sales", "2009")),
    ]);
    let out = solve(
        &server,
        &page(&dir),
        &[
            "--no-llm-cache",
            "--question",
            "what was net sales in 2009?",
        ],
    )
    .success();
    assert_eq!(lines(&out.get_output().stdout)[0]["answer"], 1500);
    let got = server.received();
    assert_eq!(got.len(), 3);
    let last = got[2].messages();
    assert_eq!(last.len(), 6);
    let first_error = last[3]["content"].as_str().unwrap();
    assert!(first_error.contains("bound 0 rows"), "{first_error}");
    let second_error = last[5]["content"].as_str().unwrap();
    assert!(second_error.contains("formula `x +`"), "{second_error}");
}

#[test]
fn a_turn_fails_with_the_reason_once_the_repairs_run_out() {
    let dir = TempDir::new().unwrap();
    let server = Server::script(vec![
        Reply::chat("I cannot say."),
        Reply::chat("{\"answer\": 1500}"),
        Reply::json(lookup("x", "net sales", "2008")),
    ]);
    let out = solve(
        &server,
        &page(&dir),
        &[
            "--no-llm-cache",
            "--llm-repairs",
            "1",
            "--question",
            "what was net sales in 2009?",
            "--question",
            "and in 2008?",
        ],
    )
    .success();
    let turns = lines(&out.get_output().stdout);
    assert!(turns[0]["answer"].is_null(), "never a made-up value");
    let error = turns[0]["error"].as_str().unwrap();
    assert!(
        error.contains("no usable phase1 reply after 2 replies"),
        "{error}"
    );
    assert!(error.contains("no `values`"), "{error}");
    assert_eq!(turns[1]["answer"], 1200, "the conversation goes on");
    assert_eq!(server.received().len(), 3);
}

#[test]
fn a_429_with_retry_after_is_waited_out() {
    let dir = TempDir::new().unwrap();
    let server = Server::script(vec![
        Reply::status(429, r#"{"error": "slow down"}"#).header("Retry-After", "1"),
        Reply::json(lookup("x", "net sales", "2009")),
    ]);
    let out = solve(
        &server,
        &page(&dir),
        &[
            "--no-llm-cache",
            "--llm-backoff-ms",
            "1",
            "--question",
            "what was net sales in 2009?",
        ],
    )
    .success();
    let turns = lines(&out.get_output().stdout);
    assert_eq!(turns[0]["answer"], 1500);
    assert_eq!(turns[0]["llm"][0]["retries"], 1);
    let got = server.received();
    assert_eq!(got.len(), 2);
    assert!(
        got[1].at - got[0].at >= Duration::from_millis(900),
        "the retry waited for Retry-After, not the 1 ms backoff"
    );
}

#[test]
fn a_timeout_is_retried() {
    let dir = TempDir::new().unwrap();
    let server = Server::script(vec![
        Reply::json(lookup("x", "net sales", "2008")).after(Duration::from_secs(3)),
        Reply::json(lookup("x", "net sales", "2009")),
    ]);
    let out = solve(
        &server,
        &page(&dir),
        &[
            "--no-llm-cache",
            "--llm-timeout",
            "0.5",
            "--llm-backoff-ms",
            "1",
            "--question",
            "what was net sales in 2009?",
        ],
    )
    .success();
    let turns = lines(&out.get_output().stdout);
    assert_eq!(turns[0]["answer"], 1500, "the late reply was not used");
    assert_eq!(turns[0]["llm"][0]["retries"], 1);
    assert_eq!(server.received().len(), 2);
}

#[test]
fn the_turn_time_limit_ends_a_slow_turn() {
    let dir = TempDir::new().unwrap();
    let server = Server::script(vec![
        Reply::json(lookup("x", "net sales", "2009")).after(Duration::from_secs(3)),
        Reply::json(lookup("x", "net sales", "2008")),
    ]);
    let out = solve(
        &server,
        &page(&dir),
        &[
            "--no-llm-cache",
            "--llm-turn-time-limit",
            "0.5",
            "--question",
            "what was net sales in 2009?",
            "--question",
            "and in 2008?",
        ],
    )
    .success();
    let turns = lines(&out.get_output().stdout);
    let error = turns[0]["error"].as_str().unwrap();
    assert!(
        error.contains("the turn's time limit of 0.5 s was reached"),
        "{error}"
    );
    assert_eq!(turns[1]["answer"], 1200, "the next turn has its own time");
}

#[test]
fn retries_run_out_on_server_errors() {
    let dir = TempDir::new().unwrap();
    let server = Server::script(vec![
        Reply::status(503, "busy"),
        Reply::status(502, "bad gateway"),
        Reply::status(401, "never reached"),
    ]);
    let out = solve(
        &server,
        &page(&dir),
        &[
            "--no-llm-cache",
            "--llm-retries",
            "1",
            "--llm-backoff-ms",
            "1",
            "--question",
            "what was net sales in 2009?",
        ],
    )
    .success();
    let turns = lines(&out.get_output().stdout);
    let error = turns[0]["error"].as_str().unwrap();
    assert!(
        error.contains("no reply after 2 attempts") && error.contains("HTTP 502"),
        "{error}"
    );
    assert_eq!(server.received().len(), 2);
}

#[test]
fn a_rerun_is_answered_from_the_cache() {
    let dir = TempDir::new().unwrap();
    let cache = dir.path().join("cache");
    let cache = cache.to_str().unwrap();
    let first = Server::script(vec![
        Reply::json(lookup("x", "net sales", "2009")),
        Reply::json(lookup("x", "net sales", "2008")),
        Reply::json(json!({"values": {"a": "result_0", "b": "result_1"}, "formula": "a - b"})),
        Reply::json(json!({"values": {"a": "result_2", "b": "result_1"}, "formula": "a / b"})),
    ]);
    let file = page(&dir);
    let out = solve(&first, &file, &["--llm-cache", cache]).success();
    let before = lines(&out.get_output().stdout);
    assert_eq!(first.received().len(), 4);
    assert!(before.iter().all(|t| t["usage"]["cache_hits"] == 0));

    let second = Server::script(Vec::new());
    let out = solve(&second, &file, &["--llm-cache", cache]).success();
    let after = lines(&out.get_output().stdout);
    assert_eq!(second.received().len(), 0, "no request reaches the server");
    assert_eq!(answers(&after), answers(&before));
    assert_eq!(
        answers(&after),
        [json!(1500), json!(1200), json!(300), json!(0.25)]
    );
    for t in &after {
        assert_eq!(t["llm"][0]["cache_hit"], true);
        assert_eq!(t["usage"]["cost_usd"], 0.0);
        assert_eq!(t["usage"]["requests"], 0);
    }
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(stderr.contains("0 requests, 4 from the cache"), "{stderr}");
}

#[test]
fn the_budget_stops_a_run_cleanly() {
    let dir = TempDir::new().unwrap();
    let file = page(&dir);
    let out_dir = dir.path().join("run");
    let server = Server::script(vec![
        Reply::json(lookup("x", "net sales", "2009")),
        Reply::json(lookup("x", "net sales", "2008")),
        Reply::json(json!({"values": {"a": "result_0", "b": "result_1"}, "formula": "a - b"})),
    ]);
    // 100 prompt tokens at $10 and 10 completion tokens at $10 a million: $0.0011 a request.
    let out = finkg()
        .arg("eval")
        .arg(&file)
        .arg("--out")
        .arg(&out_dir)
        .args([
            "--no-progress",
            "--planner",
            "llm",
            "--llm-model",
            "any",
            "--no-llm-cache",
        ])
        .args(["--llm-base-url", &server.url()])
        .args([
            "--llm-price-input",
            "10",
            "--llm-price-output",
            "10",
            "--llm-budget",
            "0.002",
        ])
        .assert()
        .success();
    let report = String::from_utf8_lossy(&out.get_output().stdout).to_string();
    assert!(
        report.contains("stopped early: the budget of $0.0020 is spent"),
        "{report}"
    );
    assert_eq!(
        server.received().len(),
        2,
        "no request after the budget was crossed"
    );
    let predictions = std::fs::read_to_string(out_dir.join("predictions.jsonl")).unwrap();
    let kept = lines(predictions.as_bytes());
    assert_eq!(
        answers(&kept),
        [json!(1500), json!(1200)],
        "what was answered is kept"
    );
    let trace = std::fs::read_to_string(out_dir.join("trace.jsonl")).unwrap();
    let trace = lines(trace.as_bytes());
    let prompt = trace[1]["llm"][0]["prompt"].as_str().unwrap();
    assert!(prompt.contains("and in 2008?"), "{prompt}");
    assert_eq!(trace[1]["usage"]["prompt_tokens"], 100);
    let summary: Value =
        serde_json::from_str(&std::fs::read_to_string(out_dir.join("summary.json")).unwrap())
            .unwrap();
    assert!(summary["stopped"].as_str().unwrap().contains("budget"));
    assert_eq!(summary["llm"]["requests"], 2);
    assert_eq!(summary["llm"]["prompt_tokens"], 200);
    let cost = summary["llm"]["cost_usd"].as_f64().unwrap();
    assert!((cost - 0.0022).abs() < 1e-9, "{cost}");
}

/// `finkg eval FILE --out DIR --no-progress --no-llm-cache` against
/// `server` at $10 a million tokens either way ($0.0011 a request), plus `extra`.
fn eval_priced(server: &Server, file: &Path, out_dir: &Path, extra: &[&str]) -> String {
    let out = finkg()
        .arg("eval")
        .arg(file)
        .arg("--out")
        .arg(out_dir)
        .args(["--no-progress", "--llm-model", "any", "--no-llm-cache"])
        .args(["--llm-base-url", &server.url()])
        .args(["--llm-price-input", "10", "--llm-price-output", "10"])
        .args(extra)
        .assert()
        .success();
    String::from_utf8_lossy(&out.get_output().stdout).to_string()
}

#[test]
fn the_llm_critic_spends_the_planners_budget() {
    let dir = TempDir::new().unwrap();
    let file = page(&dir);
    let out_dir = dir.path().join("run");
    let server = Server::script(vec![
        Reply::json(lookup("x", "net sales", "2009")),
        Reply::json(json!({"accept": true})),
        Reply::json(lookup("x", "net sales", "2008")),
        Reply::json(json!({"accept": true})),
    ]);
    // the planner's request ($0.0011) is within $0.002; with the critic's, it is spent
    let report = eval_priced(
        &server,
        &file,
        &out_dir,
        &[
            "--planner",
            "llm",
            "--critic",
            "llm",
            "--llm-budget",
            "0.002",
        ],
    );
    assert!(
        report.contains("stopped early: the budget of $0.0020 is spent"),
        "{report}"
    );
    assert_eq!(
        server.received().len(),
        2,
        "turn 0's plan and review, then nothing"
    );
    let trace = std::fs::read_to_string(out_dir.join("trace.jsonl")).unwrap();
    let trace = lines(trace.as_bytes());
    assert_eq!(answers(&trace), [json!(1500)]);
    let phases: Vec<&str> = trace[0]["llm"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["phase"].as_str().unwrap_or_default())
        .collect();
    assert_eq!(phases, ["phase1", "critic"]);
    assert_eq!(trace[0]["usage"]["requests"], 2);
    let summary: Value =
        serde_json::from_str(&std::fs::read_to_string(out_dir.join("summary.json")).unwrap())
            .unwrap();
    assert!(summary["stopped"].as_str().unwrap().contains("budget"));
    assert_eq!(summary["llm"]["requests"], 2);
    let cost = summary["llm"]["cost_usd"].as_f64().unwrap();
    assert!((cost - 0.0022).abs() < 1e-9, "{cost}");
}

#[test]
fn the_llm_critics_budget_stops_a_run_of_the_rules_planner() {
    let dir = TempDir::new().unwrap();
    let file = page(&dir);
    let out_dir = dir.path().join("run");
    let server = Server::script(vec![
        Reply::json(json!({"accept": true})),
        Reply::json(json!({"accept": true})),
        Reply::json(json!({"accept": true})),
        Reply::json(json!({"accept": true})),
    ]);
    let report = eval_priced(
        &server,
        &file,
        &out_dir,
        &[
            "--planner",
            "rules",
            "--critic",
            "llm",
            "--llm-budget",
            "0.001",
        ],
    );
    assert!(
        report.contains("stopped early: the budget of $0.0010 is spent"),
        "{report}"
    );
    assert_eq!(server.received().len(), 1, "one review, then nothing");
    let trace = std::fs::read_to_string(out_dir.join("trace.jsonl")).unwrap();
    assert_eq!(
        lines(trace.as_bytes()).len(),
        1,
        "the run stopped after turn 0"
    );
}

#[test]
fn fallback_rules_answers_a_turn_the_llm_planner_fails() {
    let dir = TempDir::new().unwrap();
    let server = Server::script(vec![
        Reply::chat("no idea"),
        Reply::json(lookup("x", "net sales", "2008")),
    ]);
    let out = solve(
        &server,
        &page(&dir),
        &[
            "--no-llm-cache",
            "--llm-repairs",
            "0",
            "--fallback",
            "rules",
            "--question",
            "what was net sales in 2009?",
            "--question",
            "and in 2008?",
        ],
    )
    .success();
    let turns = lines(&out.get_output().stdout);
    assert_eq!(turns[0]["answer"], 1500);
    assert_eq!(turns[0]["planner"], "rules");
    let why = turns[0]["fallback"].as_str().unwrap();
    assert!(
        why.starts_with("llm failed:") && why.contains("not JSON"),
        "{why}"
    );
    assert_eq!(
        turns[0]["llm"].as_array().unwrap().len(),
        1,
        "the LLM's exchange is kept"
    );
    assert_eq!(turns[1]["answer"], 1200);
    assert_eq!(turns[1]["planner"], "llm");
    assert!(turns[1].get("fallback").is_none());

    let text = finkg()
        .arg("solve")
        .arg(page(&dir))
        .args([
            "--explain",
            "--planner",
            "llm",
            "--llm-model",
            "any",
            "--no-llm-cache",
        ])
        .args([
            "--llm-base-url",
            &Server::script(vec![Reply::chat("no idea")]).url(),
        ])
        .args([
            "--llm-repairs",
            "0",
            "--fallback",
            "rules",
            "--question",
            "what was net sales in 2009?",
        ])
        .assert()
        .success();
    let text = String::from_utf8_lossy(&text.get_output().stdout).to_string();
    assert!(
        text.contains("fallback: llm failed:") && text.contains("answered by rules"),
        "{text}"
    );
    assert!(
        text.contains("llm phase1 attempt 0: 100 + 10 tokens"),
        "{text}"
    );
}

#[test]
fn explain_shows_each_exchange() {
    let dir = TempDir::new().unwrap();
    let server = Server::script(vec![Reply::json(lookup("x", "net sales", "2009"))]);
    let out = finkg()
        .arg("solve")
        .arg(page(&dir))
        .args([
            "--explain",
            "--planner",
            "llm",
            "--llm-model",
            "any",
            "--no-llm-cache",
        ])
        .args([
            "--llm-base-url",
            &server.url(),
            "--question",
            "what was net sales in 2009?",
        ])
        .assert()
        .success();
    let text = String::from_utf8_lossy(&out.get_output().stdout).to_string();
    for needle in [
        "-> 1500",
        "llm phase1 attempt 0: 100 + 10 tokens",
        "      prompt:",
        "        [system]",
        "        what was net sales in 2009?",
        "      reply:",
        "llm usage: 1 requests, 0 from the cache",
        "x = 1500  from cell row `net sales`, column `2009`",
    ] {
        assert!(text.contains(needle), "`{needle}` not in:\n{text}");
    }
}

/// Picks a reply by the question of the request's last turn.
fn by_question(body: &Value) -> Reply {
    let text = body["messages"]
        .as_array()
        .and_then(|m| m.last())
        .and_then(|m| m["content"].as_str())
        .unwrap_or_default()
        .to_string();
    let question = text
        .split("# Question (turn ")
        .nth(1)
        .and_then(|rest| rest.lines().nth(1))
        .unwrap_or_default()
        .to_string();
    let reply = match question.as_str() {
        "what was net sales in 2009?" => lookup("x", "net sales", "2009"),
        "and in 2008?" => lookup("x", "net sales", "2008"),
        "what was the change?" => {
            json!({"values": {"a": "result_0", "b": "result_1"}, "formula": "a - b"})
        }
        "and the percentage change?" => {
            json!({"values": {"a": "result_2", "b": "result_1"}, "formula": "a / b"})
        }
        other => return Reply::status(400, &format!("unknown question `{other}`")),
    };
    Reply::json(reply).after(Duration::from_millis(150))
}

#[test]
fn eval_answers_conversations_concurrently_in_order() {
    let dir = TempDir::new().unwrap();
    let conversation: Value = serde_json::from_str(PAGE).unwrap();
    let dataset: Vec<Value> = (0..4)
        .map(|i| {
            let mut c = conversation.clone();
            c["id"] = format!("Test_ACME/2009/page_7.pdf-{i}").into();
            c
        })
        .collect();
    let file = dir.path().join("four.json");
    std::fs::write(&file, serde_json::to_string(&dataset).unwrap()).unwrap();
    let out_dir = dir.path().join("run");
    let server = Server::picking(by_question);
    let out = finkg()
        .arg("eval")
        .arg(&file)
        .arg("--out")
        .arg(&out_dir)
        .args([
            "--no-progress",
            "--jobs",
            "2",
            "--llm-rpm",
            "6000",
            "--planner",
            "llm",
        ])
        .args([
            "--llm-model",
            "any",
            "--no-llm-cache",
            "--llm-base-url",
            &server.url(),
        ])
        .assert()
        .success();
    let report = String::from_utf8_lossy(&out.get_output().stdout).to_string();
    assert!(
        report.contains("turn accuracy:         100.0% (16/16)"),
        "{report}"
    );
    assert!(report.contains("planner: llm"), "{report}");
    let predictions = std::fs::read_to_string(out_dir.join("predictions.jsonl")).unwrap();
    let ids: Vec<(String, u64)> = lines(predictions.as_bytes())
        .iter()
        .map(|p| {
            (
                p["id"].as_str().unwrap().to_string(),
                p["turn"].as_u64().unwrap(),
            )
        })
        .collect();
    let expected: Vec<(String, u64)> = (0..4)
        .flat_map(|i| (0..4).map(move |t| (format!("Test_ACME/2009/page_7.pdf-{i}"), t)))
        .collect();
    assert_eq!(ids, expected, "the dataset's order, turns in order");
    // the trace's exchanges are charted: latency, tokens and cost a turn
    for name in [
        "llm_latency_per_turn.svg",
        "llm_tokens_per_turn.svg",
        "llm_cost_over_run.svg",
    ] {
        let svg = std::fs::read_to_string(out_dir.join(name)).unwrap();
        assert!(svg.contains("<polyline"), "{name} draws its line: {svg}");
    }
    let got = server.received();
    assert_eq!(got.len(), 16);
    let overlapped = got.iter().enumerate().any(|(i, a)| {
        got[i + 1..]
            .iter()
            .any(|b| a.answered.is_some_and(|done| b.at < done))
    });
    assert!(overlapped, "two conversations were in flight at once");
}

#[test]
fn a_broken_template_stops_with_its_name_and_line() {
    let dir = TempDir::new().unwrap();
    let prompts = dir.path().join("prompts");
    std::fs::create_dir(&prompts).unwrap();
    for name in ["system.j2", "phase1.j2", "phase2.j2", "repair.j2"] {
        let src = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("prompts")
            .join(name);
        std::fs::copy(src, prompts.join(name)).unwrap();
    }
    std::fs::write(
        prompts.join("phase2.j2"),
        "line one\n{{ question }}\n{{ no_such_variable }}\n",
    )
    .unwrap();
    let server = Server::script(Vec::new());
    let out = finkg()
        .arg("solve")
        .arg(page(&dir))
        .args(["--planner", "llm", "--llm-model", "any", "--no-llm-cache"])
        .args(["--llm-base-url", &server.url()])
        .arg("--llm-prompts")
        .arg(&prompts)
        .assert()
        .code(2);
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(
        stderr.contains("error: prompt template `phase2.j2`, line 3: undefined value"),
        "{stderr}"
    );
    std::fs::write(prompts.join("phase2.j2"), "{% for %}\n").unwrap();
    let out = finkg()
        .arg("solve")
        .arg(page(&dir))
        .args(["--planner", "llm", "--llm-model", "any", "--no-llm-cache"])
        .args(["--llm-base-url", &server.url()])
        .arg("--llm-prompts")
        .arg(&prompts)
        .assert()
        .code(2);
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(
        stderr.contains("prompt template `phase2.j2`, line 1: syntax error"),
        "{stderr}"
    );
    assert_eq!(server.received().len(), 0);
}

#[test]
fn a_rejected_key_stops_the_run() {
    let dir = TempDir::new().unwrap();
    let server = Server::script(vec![Reply::status(401, r#"{"error": "invalid api key"}"#)]);
    let out = solve(&server, &page(&dir), &["--no-llm-cache"]).success();
    let turns = lines(&out.get_output().stdout);
    assert_eq!(turns.len(), 1, "no turn is asked after the key was refused");
    let error = turns[0]["error"].as_str().unwrap();
    assert!(
        error.contains("answered HTTP 401: {\"error\": \"invalid api key\"}"),
        "{error}"
    );
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(
        stderr.contains("stopped early: no further request is made after:"),
        "{stderr}"
    );
    assert_eq!(server.received().len(), 1);
}

#[test]
fn the_llm_planner_needs_a_model() {
    let dir = TempDir::new().unwrap();
    let out = finkg()
        .arg("solve")
        .arg(page(&dir))
        .args([
            "--planner",
            "llm",
            "--llm-base-url",
            "http://127.0.0.1:9/v1",
        ])
        .assert()
        .code(2);
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(
        stderr.contains(
            "needs a model: pass --llm-model, set FINKG_LLM_MODEL or `model` in the configuration file"
        ),
        "{stderr}"
    );
}

// ------------------------------------------------------- hard limits (issue 11)

#[test]
fn a_deeply_nested_query_is_sent_back_not_a_crash() {
    let deep = format!(
        "SELECT ?value WHERE {{ BIND({}1{} AS ?value) }}",
        "(".repeat(5000),
        ")".repeat(5000)
    );
    let repair = repair_after(json!({"values": {"x": {"sparql": deep}}, "formula": "x"}));
    assert!(repair.contains("nests brackets"), "{repair}");
}

#[test]
fn a_runaway_query_is_stopped_at_the_turn_time_limit() {
    let dir = TempDir::new().unwrap();
    let product =
        "SELECT (COUNT(*) AS ?value) WHERE { GRAPH ?g { ?a ?b ?c . ?d ?e ?f . ?h ?i ?j } }";
    let server = Server::script(vec![Reply::json(
        json!({"values": {"x": {"sparql": product}}, "formula": "x"}),
    )]);
    let out = solve(
        &server,
        &page(&dir),
        &[
            "--no-llm-cache",
            "--llm-repairs",
            "0",
            "--llm-turn-time-limit",
            "2",
            "--question",
            "how many?",
        ],
    )
    .success();
    // the turn's limit (2 s) stopped the query, not the query's own (5 s)
    let turns = lines(&out.get_output().stdout);
    assert!(turns[0]["answer"].is_null());
    let error = turns[0]["error"].as_str().unwrap();
    assert!(
        error.contains("query stopped at the turn's time limit"),
        "{error}"
    );
}

#[test]
fn an_oversized_reply_fails_while_it_is_read() {
    let dir = TempDir::new().unwrap();
    let server = Server::script(vec![Reply::chat("x".repeat(9 << 20))]);
    let out = solve(
        &server,
        &page(&dir),
        &[
            "--no-llm-cache",
            "--question",
            "what was net sales in 2009?",
        ],
    )
    .success();
    let turns = lines(&out.get_output().stdout);
    assert!(turns[0]["answer"].is_null());
    let error = turns[0]["error"].as_str().unwrap();
    assert!(error.contains("larger than 8 MiB"), "{error}");
}

#[test]
fn a_dead_endpoint_stops_the_eval_in_seconds_with_a_non_zero_exit() {
    let dir = TempDir::new().unwrap();
    // a port nothing listens on: tcpmux's, below the ephemeral range the
    // other tests' servers bind in parallel (a port freed by a test could
    // be taken by another's server before the eval connects)
    let port = 1;
    let out = finkg()
        .arg("eval")
        .arg(data("convfinqa_dev_public.json"))
        .args(["--limit", "2", "--no-progress", "--no-llm-cache"])
        .args(["--planner", "llm", "--llm-model", "any"])
        .args(["--llm-base-url", &format!("http://127.0.0.1:{port}/v1")])
        .arg("--out")
        .arg(dir.path().join("run"))
        .assert()
        .code(1);
    let err = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(err.contains("connections in a row failed"), "{err}");
}

#[test]
fn a_failed_turns_question_stays_in_the_conversation_so_far() {
    let dir = TempDir::new().unwrap();
    let server = Server::script(vec![
        Reply::chat("I cannot say."),
        Reply::json(lookup("x", "net sales", "2008")),
    ]);
    let out = solve(
        &server,
        &page(&dir),
        &[
            "--no-llm-cache",
            "--llm-repairs",
            "0",
            "--question",
            "what was net sales in 2009?",
            "--question",
            "and in 2008?",
        ],
    )
    .success();
    let turns = lines(&out.get_output().stdout);
    assert!(turns[0]["answer"].is_null());
    assert_eq!(turns[1]["answer"], 1200);
    let prompt = server.received()[1].text();
    assert!(
        prompt.contains("result_0: no answer to \"what was net sales in 2009?\""),
        "{prompt}"
    );
}

#[test]
fn a_failed_turns_question_stays_in_phase_2s_conversation_too() {
    let dir = TempDir::new().unwrap();
    let server = Server::script(vec![
        Reply::chat("I cannot say."),
        Reply::json(json!({"values": {"x": {"sparql": cell("net sales", "2008")}}})),
        Reply::json(json!({"formula": "x"})),
    ]);
    let out = solve(
        &server,
        &page(&dir),
        &[
            "--no-llm-cache",
            "--llm-repairs",
            "0",
            "--question",
            "what was net sales in 2009?",
            "--question",
            "and in 2008?",
        ],
    )
    .success();
    let turns = lines(&out.get_output().stdout);
    assert_eq!(turns[1]["answer"], 1200);
    let phase2 = server.received()[2].text();
    assert!(phase2.contains("# Retrieved values"), "{phase2}");
    assert!(
        phase2.contains("result_0: no answer to \"what was net sales in 2009?\" (the turn failed)"),
        "{phase2}"
    );
}

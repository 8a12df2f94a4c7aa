//! The agent planner end to end: the `finkg` binary with `--planner agent`
//! against a scripted tool-calling chat-completions server on 127.0.0.1
//! ([`support::Server`], replies with `tool_calls`). Each test checks the
//! answers and what the server received: the tools offered, the tool
//! results sent back, the reasons a turn fails. No test reaches beyond
//! loopback.

mod support;

use assert_cmd::Command;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use support::{Reply, Server};
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
    "conv_questions": ["what was net sales in 2009?", "and in 2008?", "what was the change?"],
    "executed_answers": [1500, 1200, 300],
    "conv_answers": ["1500", "1200", "300"],
    "turn_program": ["1500", "1200", "subtract(1500, 1200)"]
  }
}"#;

fn page(dir: &TempDir) -> PathBuf {
    let path = dir.path().join("page.json");
    std::fs::write(&path, PAGE).unwrap();
    path
}

/// `finkg` with no LLM settings inherited from the environment, run in
/// `dir` (so no `finkg.toml` of the working directory is read).
fn finkg(dir: &Path) -> Command {
    let mut cmd = support::finkg();
    cmd.current_dir(dir);
    cmd
}

/// `finkg solve PAGE --json --planner agent` against `server`, plus `extra`.
fn solve(server: &Server, dir: &TempDir, extra: &[&str]) -> Vec<Value> {
    let out = finkg(dir.path())
        .arg("solve")
        .arg(page(dir))
        .args([
            "--json",
            "--planner",
            "agent",
            "--llm-model",
            "any",
            "--no-llm-cache",
        ])
        .args(["--llm-base-url", &server.url()])
        .args(extra)
        .assert()
        .success();
    String::from_utf8_lossy(&out.get_output().stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

/// A query for the cell of `row` and `column`, by their labels.
fn cell(row: &str, column: &str) -> String {
    format!(
        "SELECT ?value ?source WHERE {{ GRAPH ?g {{ ?source a qb:Observation ; fk:row/rdfs:label \"{row}\" ; fk:column/rdfs:label \"{column}\" ; fk:value ?value }} }}"
    )
}

fn answer_lookup(name: &str, row: &str, column: &str) -> Reply {
    Reply::tool(
        "answer",
        json!({"values": {name: {"sparql": cell(row, column), "description": format!("{row} in {column}")}},
               "formula": name, "entity": "ACME", "metric_type": "value", "period": column}),
    )
}

/// The `tool` messages of a request, as (tool_call_id, content).
fn tool_results(body: &Value) -> Vec<(String, String)> {
    body["messages"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["role"] == "tool")
        .map(|m| {
            (
                m["tool_call_id"].as_str().unwrap_or_default().to_string(),
                m["content"].as_str().unwrap_or_default().to_string(),
            )
        })
        .collect()
}

fn last_content(body: &Value) -> String {
    body["messages"].as_array().unwrap().last().unwrap()["content"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

#[test]
fn a_whole_conversation_runs_through_the_tools_and_ends_in_answer() {
    let dir = TempDir::new().unwrap();
    let server = Server::script(vec![
        // Turn 0: look, query, answer.
        Reply::tool("list_entities", json!({"kind": "rows"})),
        Reply::tool("query_kg", json!({"sparql": cell("net sales", "2009")})),
        answer_lookup("sales_2009", "net sales", "2009"),
        // Turn 1: the ontology and a text fact, then the answer.
        Reply::tools(&[
            ("introspect_ontology", json!({})),
            ("list_entities", json!({"kind": "text_facts"})),
        ]),
        answer_lookup("sales_2008", "net sales", "2008"),
        // Turn 2: a calculation, then the answer over earlier results.
        Reply::tool(
            "calculate",
            json!({"formula": "new - old", "values": {"new": 1500, "old": 1200}}),
        ),
        Reply::tool(
            "answer",
            json!({"values": {"new": "result_0", "old": "result_1"}, "formula": "new - old",
                   "metric_type": "change"}),
        ),
    ]);
    let turns = solve(&server, &dir, &["--explain"]);
    let answers: Vec<&Value> = turns.iter().map(|t| &t["answer"]).collect();
    assert_eq!(answers, [&json!(1500), &json!(1200), &json!(300)]);
    assert!(turns.iter().all(|t| t["error"].is_null()), "{turns:?}");
    assert_eq!(turns[2]["plan"]["metric_type"], "change", "{:?}", turns[2]);
    assert_eq!(turns[2]["planner"], "agent");

    let got = server.received();
    assert_eq!(got.len(), 7);
    let first = &got[0].body;
    let offered: Vec<&str> = first["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["function"]["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        offered,
        [
            "query_kg",
            "list_entities",
            "introspect_ontology",
            "calculate",
            "answer"
        ]
    );
    assert!(
        first.get("response_format").is_none(),
        "no JSON mode beside tools"
    );
    let prompt = got[0].text();
    for needle in [
        "what was net sales in 2009?",
        "\"net sales\"",
        "at most 8 tool calls",
        "first question",
    ] {
        assert!(prompt.contains(needle), "`{needle}` not in:\n{prompt}");
    }
    // The rows with their IRIs go back as the tool's result.
    let results = tool_results(&got[1].body);
    assert_eq!(results.len(), 1);
    assert_eq!(results[0].0, "call_0_list_entities");
    assert!(
        results[0]
            .1
            .contains("https://w3id.org/finkg/data/Test_ACME/2009/page_7.pdf-1/row/0"),
        "{}",
        results[0].1
    );
    // The assistant's tool calls are sent back before their results.
    let messages = got[1].body["messages"].as_array().unwrap();
    let assistant = &messages[messages.len() - 2];
    assert_eq!(assistant["role"], "assistant");
    assert_eq!(
        assistant["tool_calls"][0]["function"]["name"],
        "list_entities"
    );
    // query_kg: the binding with its source cell.
    let (_, query) = &tool_results(&got[2].body)[1];
    let query: Value = serde_json::from_str(query).unwrap();
    assert_eq!(query["row_count"], 1);
    assert_eq!(query["rows"][0]["bindings"]["value"], "1500");
    assert_eq!(
        query["rows"][0]["source"],
        "cell row `net sales`, column `2009`: `$ 1,500`"
    );
    // Two calls in one reply, two results.
    let results = tool_results(&got[4].body);
    assert_eq!(results.len(), 2);
    assert!(results[0].1.contains("fk:TableRow"), "{}", results[0].1);
    assert!(
        results[1]
            .1
            .contains(r#""raw":"$ 45.5 million","value":"45.5""#),
        "{}",
        results[1].1
    );
    // Turn 1 sees turn 0's result and metadata.
    assert!(got[3].text().contains(r#"result_0: {"value":1500"#));
    // calculate is exact.
    assert_eq!(tool_results(&got[6].body)[0].1, r#"{"result":"300"}"#);
    // The trace keeps every exchange, as phase `agent`.
    let llm = turns[0]["llm"].as_array().expect("exchanges in the trace");
    assert_eq!(llm.len(), 3);
    assert!(llm.iter().all(|e| e["phase"] == "agent"), "{llm:?}");
    assert!(llm[0]["reply"].as_str().unwrap().contains("list_entities"));
}

#[test]
fn tool_errors_go_back_to_the_model_as_results() {
    let dir = TempDir::new().unwrap();
    let server = Server::script(vec![
        Reply::tool("query_kg", json!({"sparql": "DELETE WHERE { ?s ?p ?o }"})),
        Reply::tool("query_kg", json!({"sparql": "SELECT ?x WHERE {"})),
        Reply::tool("list_entities", json!({"kind": "everything"})),
        Reply::tool("calculate", json!({"formula": "1 / 0"})),
        Reply::tool(
            "answer",
            json!({"values": {"x": {"sparql": cell("net sales", "1999")}}, "formula": "x"}),
        ),
        Reply::tool(
            "answer",
            json!({"values": {"x": {"sparql": "SELECT ?value WHERE { GRAPH ?g { ?c fk:value ?value FILTER(?value = 0.1234567890123456789) } }"}},
                   "formula": "x"}),
        ),
        answer_lookup("x", "net sales", "2009"),
    ]);
    let turns = solve(
        &server,
        &dir,
        &[
            "--agent-max-tool-calls",
            "10",
            "--question",
            "what was net sales in 2009?",
        ],
    );
    assert_eq!(turns[0]["answer"], 1500, "{turns:?}");
    let got = server.received();
    assert_eq!(got.len(), 7);
    let result = |i: usize| tool_results(&got[i].body).last().unwrap().1.clone();
    assert!(
        result(1).starts_with("error: the query is refused"),
        "{}",
        result(1)
    );
    assert!(
        result(2).starts_with("error: the query is refused"),
        "{}",
        result(2)
    );
    assert!(
        result(3).contains("`kind` is one of rows, columns, text_facts, all"),
        "{}",
        result(3)
    );
    assert!(result(4).contains("division by zero"), "{}", result(4));
    assert!(result(5).starts_with("error: value `x`"), "{}", result(5));
    assert!(
        result(6).contains("more than 18 decimal places"),
        "{}",
        result(6)
    );
}

#[test]
fn a_model_that_never_answers_fails_the_turn_with_the_reason() {
    let dir = TempDir::new().unwrap();
    let server = Server::picking(|_| Reply::tool("list_entities", json!({"kind": "all"})));
    let turns = solve(
        &server,
        &dir,
        &[
            "--agent-max-tool-calls",
            "3",
            "--question",
            "what was net sales in 2009?",
            "--question",
            "and in 2008?",
        ],
    );
    assert!(turns[0]["answer"].is_null(), "never a made-up value");
    let error = turns[0]["error"].as_str().unwrap();
    assert!(
        error.contains("the model made 3 tool calls without an accepted `answer` (the limit is 3)"),
        "{error}"
    );
    assert!(turns[1]["answer"].is_null());
    assert_eq!(server.received().len(), 6, "three calls a turn, then stop");
}

#[test]
fn malformed_tool_calls_and_unknown_tools_are_survived_with_a_reason() {
    let dir = TempDir::new().unwrap();
    let server = Server::script(vec![
        Reply::ToolCalls(json!({"not": "a list"})),
        Reply::ToolCalls(json!([{"id": "c", "type": "function", "function": {"arguments": "{}"}}])),
        Reply::ToolCalls(
            json!([{"id": "c", "type": "function", "function": {"name": "query_kg", "arguments": "{\"sparql\": "}}]),
        ),
        Reply::tool("drop_table", json!({"name": "cells"})),
        Reply::chat("The answer is 1500."),
        answer_lookup("x", "net sales", "2009"),
    ]);
    let turns = solve(
        &server,
        &dir,
        &["--question", "what was net sales in 2009?"],
    );
    assert_eq!(turns[0]["answer"], 1500, "{turns:?}");
    let got = server.received();
    assert_eq!(got.len(), 6);
    let first = last_content(&got[1].body);
    assert!(
        first.contains("`tool_calls` could not be read: `tool_calls` must be a list"),
        "{first}"
    );
    assert!(first.contains("Call one of the tools"), "{first}");
    assert!(last_content(&got[2].body).contains("names no function"));
    assert!(last_content(&got[3].body).contains("the arguments of `query_kg` are not valid JSON"));
    assert!(
        last_content(&got[4].body)
            .contains("there is no tool `drop_table`; the tools are query_kg"),
        "{}",
        last_content(&got[4].body)
    );
    assert!(last_content(&got[5].body).contains("the reply called no tool"));
}

#[test]
fn a_failed_turns_question_stays_in_the_agents_conversation() {
    let dir = TempDir::new().unwrap();
    let server = Server::script(vec![
        Reply::chat("I cannot say."),
        answer_lookup("x", "net sales", "2008"),
    ]);
    let turns = solve(
        &server,
        &dir,
        &[
            "--agent-max-tool-calls",
            "1",
            "--question",
            "what was net sales in 2009?",
            "--question",
            "and in 2008?",
        ],
    );
    assert!(turns[0]["answer"].is_null());
    assert_eq!(turns[1]["answer"], 1200);
    let prompt = server.received()[1].text();
    assert!(
        prompt.contains("result_0: no answer to \"what was net sales in 2009?\""),
        "{prompt}"
    );
}

#[test]
fn the_turn_time_limit_ends_a_slow_agent_turn() {
    let dir = TempDir::new().unwrap();
    let server = Server::picking(|_| {
        Reply::tool("list_entities", json!({"kind": "rows"}))
            .after(std::time::Duration::from_millis(400))
    });
    let turns = solve(
        &server,
        &dir,
        &[
            "--agent-max-tool-calls",
            "50",
            "--llm-turn-time-limit",
            "1",
            "--llm-retries",
            "0",
            "--question",
            "what was net sales in 2009?",
        ],
    );
    assert!(turns[0]["answer"].is_null());
    let error = turns[0]["error"].as_str().unwrap();
    assert!(error.contains("the turn's time limit of 1 s"), "{error}");
}

// The per-stage configuration file (`--config`, `finkg.toml`).

/// The model each request named.
fn models(server: &Server) -> Vec<String> {
    server
        .received()
        .iter()
        .map(|r| r.body["model"].as_str().unwrap_or_default().to_string())
        .collect()
}

#[test]
fn the_working_directorys_finkg_toml_sets_each_stage() {
    let dir = TempDir::new().unwrap();
    let server = Server::script(vec![
        // Phase 1 without a formula, so Phase 2 is asked.
        Reply::json(json!({"values": {"x": {"sparql": cell("net sales", "2009")}}})),
        Reply::json(json!({"formula": "x"})),
    ]);
    std::fs::write(
        dir.path().join("finkg.toml"),
        format!(
            "[phase1]\nbase_url = \"{}\"\nmodel = \"small\"\ntemperature = 0.3\n\n[phase2]\nmodel = \"large\"\nmax_tokens = 77\n",
            server.url()
        ),
    )
    .unwrap();
    let out = finkg(dir.path())
        .arg("solve")
        .arg(page(&dir))
        .args(["--json", "--planner", "llm", "--no-llm-cache"])
        .args(["--question", "what was net sales in 2009?"])
        .assert()
        .success();
    let line: Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    assert_eq!(line["answer"], 1500);
    assert_eq!(models(&server), ["small", "large"]);
    let got = server.received();
    assert_eq!(got[0].body["temperature"], 0.3);
    assert!(got[0].body.get("max_tokens").is_none());
    assert_eq!(got[1].body["temperature"], 0.3, "[phase1] is the default");
    assert_eq!(got[1].body["max_tokens"], 77);
}

#[test]
fn flags_override_the_file() {
    let dir = TempDir::new().unwrap();
    let server = Server::script(vec![
        Reply::json(json!({"values": {"x": {"sparql": cell("net sales", "2009")}}})),
        Reply::json(json!({"formula": "x"})),
    ]);
    let config = dir.path().join("stages.toml");
    std::fs::write(
        &config,
        "[phase1]\nbase_url = \"http://127.0.0.1:9/v1\"\nmodel = \"small\"\ntemperature = 0.3\n[phase2]\nmodel = \"large\"\n",
    )
    .unwrap();
    finkg(dir.path())
        .arg("solve")
        .arg(page(&dir))
        .args(["--json", "--planner", "llm", "--no-llm-cache"])
        .arg("--config")
        .arg(&config)
        .args(["--llm-base-url", &server.url(), "--llm-model", "flagged"])
        .args(["--llm-temperature", "0.5"])
        .args(["--question", "what was net sales in 2009?"])
        .assert()
        .success();
    assert_eq!(
        models(&server),
        ["flagged", "flagged"],
        "a flag sets every stage"
    );
    assert!(server
        .received()
        .iter()
        .all(|r| r.body["temperature"] == 0.5));
}

#[test]
fn the_agent_table_sets_the_agent_and_its_tool_call_limit() {
    let dir = TempDir::new().unwrap();
    let server = Server::picking(|_| Reply::tool("list_entities", json!({"kind": "rows"})));
    let config = dir.path().join("finkg.toml");
    std::fs::write(
        &config,
        format!(
            "[phase1]\nmodel = \"planner\"\n[agent]\nbase_url = \"{}\"\nmodel = \"tools\"\nmax_tool_calls = 2\n[critic]\nmodel = \"judge\"\n",
            server.url()
        ),
    )
    .unwrap();
    let run = |extra: &[&str]| {
        let out = finkg(dir.path())
            .arg("solve")
            .arg(page(&dir))
            .args(["--json", "--planner", "agent", "--no-llm-cache"])
            .args(extra)
            .args(["--question", "what was net sales in 2009?"])
            .assert()
            .success();
        let line: Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
        line["error"].as_str().unwrap_or_default().to_string()
    };
    let error = run(&[]);
    assert!(error.contains("(the limit is 2)"), "{error}");
    assert_eq!(models(&server), ["tools", "tools"]);
    let error = run(&["--agent-max-tool-calls", "3"]);
    assert!(error.contains("(the limit is 3)"), "{error}");
}

#[test]
fn a_bad_configuration_file_stops_with_a_clear_error() {
    let dir = TempDir::new().unwrap();
    std::fs::write(
        dir.path().join("finkg.toml"),
        "[phase1]\nmodel = \"m\"\n\n[agent]\nmax_tool_call = 3\n",
    )
    .unwrap();
    let out = finkg(dir.path())
        .arg("solve")
        .arg(page(&dir))
        .args([
            "--planner",
            "agent",
            "--question",
            "what was net sales in 2009?",
        ])
        .assert()
        .failure();
    let err = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    for needle in [
        "cannot read the configuration file `finkg.toml`",
        "line 5",
        "unknown field `max_tool_call`",
        "hint:",
    ] {
        assert!(err.contains(needle), "`{needle}` not in:\n{err}");
    }
    let out = finkg(dir.path())
        .arg("solve")
        .arg(page(&dir))
        .args([
            "--config",
            "missing.toml",
            "--question",
            "what was net sales in 2009?",
        ])
        .assert()
        .failure();
    let err = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(
        err.contains("cannot read the configuration file `missing.toml`"),
        "{err}"
    );
}

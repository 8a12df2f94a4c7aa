//! `finkg serve` end to end: the real server on 127.0.0.1 (a free port),
//! queried over HTTP with reqwest. The SPARQL 1.1 Protocol endpoint gives
//! the bindings `finkg query` gives, refuses updates and malformed queries
//! with 400, negotiates the results format, and keeps the limits; the web
//! page's API answers as `finkg solve` does and escapes report text.

mod served;

use assert_cmd::Command;
use reqwest::header::{ACCEPT, CONTENT_TYPE};
use reqwest::{Client, StatusCode};
use serde_json::{json, Value};
use served::{data, Server};
use std::future::Future;

/// Runs a future on a current-thread runtime.
fn block_on<F: Future>(future: F) -> F::Output {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime")
        .block_on(future)
}

/// A page's named graph.
fn graph(id: &str) -> String {
    format!("https://w3id.org/finkg/data/{id}/graph")
}

/// A query reading every cell of a page: row, column, printed text, value.
fn cells_query(id: &str) -> String {
    format!(
        "SELECT ?row ?column ?raw ?value WHERE {{ GRAPH <{}> {{ ?cell a qb:Observation ; \
         fk:row/rdfs:label ?row ; fk:column/rdfs:label ?column ; fk:rawValue ?raw . \
         OPTIONAL {{ ?cell fk:value ?value }} }} }}",
        graph(id)
    )
}

/// SPARQL JSON results' bindings, each as sorted `var=term` text, sorted.
fn bindings(results: &Value) -> Vec<String> {
    let mut rows: Vec<String> = results["results"]["bindings"]
        .as_array()
        .expect("bindings")
        .iter()
        .map(|b| {
            let mut pairs: Vec<String> = b
                .as_object()
                .expect("a binding")
                .iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect();
            pairs.sort();
            pairs.join(" ")
        })
        .collect();
    rows.sort();
    rows
}

/// `finkg query FILE --id ID QUERY --format json`, parsed.
fn finkg_query(file: &std::path::Path, id: &str, query: &str) -> Value {
    let out = Command::cargo_bin("finkg")
        .expect("the binary")
        .arg("query")
        .arg(file)
        .args(["--id", id, "--format", "json", query])
        .output()
        .expect("finkg query runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("JSON results")
}

#[test]
fn the_endpoint_gives_the_bindings_of_finkg_query() {
    let file = data("convfinqa_dev_public.json");
    let server = Server::start(&[&file]);
    assert!(
        server.banner.contains("loaded 257 pages"),
        "{}",
        server.banner
    );
    let client = Client::new();
    let ids = [
        "Single_MRO/2007/page_134.pdf-1",
        "Double_HII/2017/page_104.pdf",
        "Single_UNP/2008/page_77.pdf-2",
    ];
    block_on(async {
        for id in ids {
            let query = cells_query(id);
            let expected = finkg_query(&file, id, &query);
            let reply = client
                .get(server.url("/sparql"))
                .query(&[("query", &query)])
                .header(ACCEPT, "application/sparql-results+json")
                .send()
                .await
                .expect("the server answers");
            assert_eq!(reply.status(), StatusCode::OK);
            assert_eq!(
                reply.headers()[CONTENT_TYPE],
                "application/sparql-results+json"
            );
            let got: Value = reply.json().await.expect("JSON results");
            assert_eq!(got["head"], expected["head"]);
            let (got, expected) = (bindings(&got), bindings(&expected));
            assert!(expected.len() > 3, "{id}: {expected:?}");
            assert_eq!(got, expected, "{id}");
        }
        // every page is its own named graph, the default graph is empty
        let pages = client
            .get(server.url("/sparql"))
            .query(&[(
                "query",
                "SELECT (COUNT(DISTINCT ?g) AS ?n) WHERE { GRAPH ?g { ?c a qb:Observation } }",
            )])
            .send()
            .await
            .expect("answers")
            .json::<Value>()
            .await
            .expect("JSON");
        assert_eq!(pages["results"]["bindings"][0]["n"]["value"], "257");
        let ask = client
            .get(server.url("/sparql"))
            .query(&[("query", "ASK { ?s ?p ?o }")])
            .send()
            .await
            .expect("answers")
            .json::<Value>()
            .await
            .expect("JSON");
        assert_eq!(ask["boolean"], false);
    });
}

#[test]
fn queries_come_by_get_form_post_and_direct_post_alike() {
    let server = Server::start(&[&data("examples.json")]);
    let client = Client::new();
    let id = "Single_MRO/2007/page_134.pdf-1";
    let query = cells_query(id);
    block_on(async {
        let get = client
            .get(server.url("/sparql"))
            .query(&[("query", &query)])
            .send()
            .await
            .expect("answers");
        let form = client
            .post(server.url("/sparql"))
            .form(&[("query", &query)])
            .send()
            .await
            .expect("answers");
        let direct = client
            .post(server.url("/sparql"))
            .header(CONTENT_TYPE, "application/sparql-query")
            .body(query.clone())
            .send()
            .await
            .expect("answers");
        let mut results = Vec::new();
        for reply in [get, form, direct] {
            assert_eq!(reply.status(), StatusCode::OK);
            results.push(bindings(&reply.json::<Value>().await.expect("JSON")));
        }
        assert_eq!(results[0].len(), 18);
        assert_eq!(results[0], results[1]);
        assert_eq!(results[0], results[2]);
        // the protocol's default-graph-uri makes the page the default graph
        let dataset = client
            .get(server.url("/sparql"))
            .query(&[
                ("default-graph-uri", graph(id).as_str()),
                (
                    "query",
                    "SELECT (COUNT(*) AS ?n) WHERE { ?c a qb:Observation }",
                ),
            ])
            .send()
            .await
            .expect("answers")
            .json::<Value>()
            .await
            .expect("JSON");
        assert_eq!(dataset["results"]["bindings"][0]["n"]["value"], "18");
    });
}

#[test]
fn updates_and_malformed_queries_are_refused_with_400() {
    let server = Server::start(&[&data("examples.json")]);
    let client = Client::new();
    block_on(async {
        let update = "INSERT DATA { GRAPH <urn:x> { <urn:a> <urn:b> <urn:c> } }";
        let replies = [
            client
                .post(server.url("/sparql"))
                .form(&[("update", update)])
                .send(),
            client
                .post(server.url("/sparql"))
                .header(CONTENT_TYPE, "application/sparql-update")
                .body(update)
                .send(),
            client
                .get(server.url("/sparql"))
                .query(&[("query", update)])
                .send(),
        ];
        for reply in replies {
            let reply = reply.await.expect("answers");
            assert_eq!(reply.status(), StatusCode::BAD_REQUEST);
            let text = reply.text().await.expect("text");
            assert!(
                text.contains("read-only") || text.contains("is an update"),
                "{text}"
            );
        }
        // nothing was inserted
        let ask = client
            .get(server.url("/sparql"))
            .query(&[("query", "ASK { GRAPH <urn:x> { ?s ?p ?o } }")])
            .send()
            .await
            .expect("answers")
            .json::<Value>()
            .await
            .expect("JSON");
        assert_eq!(ask["boolean"], false);

        for (query, says) in [
            ("SELECT ?x WHERE { ?x", "invalid SPARQL"),
            (
                "SELECT * WHERE { SERVICE <http://example.org/> { ?s ?p ?o } }",
                "SERVICE",
            ),
            ("CONSTRUCT { ?s ?p ?o } WHERE { ?s ?p ?o }", "CONSTRUCT"),
        ] {
            let reply = client
                .get(server.url("/sparql"))
                .query(&[("query", query)])
                .send()
                .await
                .expect("answers");
            assert_eq!(reply.status(), StatusCode::BAD_REQUEST, "{query}");
            let text = reply.text().await.expect("text");
            assert!(text.contains(says), "{query}: {text}");
        }
        let missing = client
            .get(server.url("/sparql"))
            .send()
            .await
            .expect("answers");
        assert_eq!(missing.status(), StatusCode::BAD_REQUEST);
    });
}

#[test]
fn results_come_as_json_xml_csv_or_tsv_by_accept() {
    let server = Server::start(&[&data("examples.json")]);
    let client = Client::new();
    let query = format!(
        "SELECT ?raw WHERE {{ GRAPH <{}> {{ ?c fk:row/fk:index 0 ; fk:column/fk:index 0 ; fk:rawValue ?raw }} }}",
        graph("Single_MRO/2007/page_134.pdf-1")
    );
    block_on(async {
        let fetch = |accept: &'static str| {
            client
                .get(server.url("/sparql"))
                .query(&[("query", &query)])
                .header(ACCEPT, accept)
                .send()
        };
        let cases = [
            (
                "application/sparql-results+json",
                "application/sparql-results+json",
            ),
            (
                "application/sparql-results+xml",
                "application/sparql-results+xml",
            ),
            ("text/csv", "text/csv; charset=utf-8"),
            (
                "text/tab-separated-values",
                "text/tab-separated-values; charset=utf-8",
            ),
            ("text/html, */*;q=0.8", "application/sparql-results+json"),
        ];
        let mut bodies = Vec::new();
        for (accept, media) in cases {
            let reply = fetch(accept).await.expect("answers");
            assert_eq!(reply.status(), StatusCode::OK, "{accept}");
            assert_eq!(reply.headers()[CONTENT_TYPE], media, "{accept}");
            bodies.push(reply.text().await.expect("text"));
        }
        let json: Value = serde_json::from_str(&bodies[0]).expect("JSON");
        assert_eq!(
            json["results"]["bindings"][0]["raw"]["value"],
            json!("60.94")
        );
        assert!(bodies[1].starts_with("<?xml"), "{}", bodies[1]);
        assert!(
            bodies[1].contains("<binding name=\"raw\"><literal>60.94</literal>"),
            "{}",
            bodies[1]
        );
        assert_eq!(bodies[2], "raw\r\n60.94\r\n");
        assert_eq!(bodies[3], "?raw\n\"60.94\"\n");
        assert_eq!(bodies[4], bodies[0]);

        let refused = fetch("text/turtle").await.expect("answers");
        assert_eq!(refused.status(), StatusCode::NOT_ACCEPTABLE);
        let refused = client
            .post(server.url("/sparql"))
            .header(CONTENT_TYPE, "text/plain")
            .body("ASK {}")
            .send()
            .await
            .expect("answers");
        assert_eq!(refused.status(), StatusCode::UNSUPPORTED_MEDIA_TYPE);
    });
}

#[test]
fn a_query_past_the_row_limit_is_stopped_with_503() {
    let server = Server::start(&[&data("examples.json")]);
    block_on(async {
        let reply = Client::new()
            .get(server.url("/sparql"))
            .query(&[(
                "query",
                "SELECT * WHERE { GRAPH ?g { ?a ?b ?c } GRAPH ?h { ?d ?e ?f } }",
            )])
            .send()
            .await
            .expect("answers");
        assert_eq!(reply.status(), StatusCode::SERVICE_UNAVAILABLE);
        let text = reply.text().await.expect("text");
        assert!(text.contains("more than 10000 rows"), "{text}");
    });
}

#[test]
fn the_page_api_answers_as_solve_and_points_at_the_sources() {
    let file = data("example.json");
    let server = Server::start(&[&file]);
    let questions = [
        "what was the weighted average exercise price per share in 2007?",
        "and what was it in 2005?",
        "what was, then, the change over the years?",
    ];
    let mut solve = Command::cargo_bin("finkg").expect("the binary");
    solve.arg("solve").arg(&file).arg("--json");
    for q in questions {
        solve.args(["--question", q]);
    }
    let out = solve.output().expect("solve runs");
    let solved: Vec<Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect();
    assert_eq!(solved.len(), 3);
    block_on(async {
        let client = Client::new();
        for n in 1..=3 {
            let reply = client
                .post(server.url("/api/ask"))
                .json(
                    &json!({"id": "Single_MRO/2007/page_134.pdf-1", "questions": &questions[..n]}),
                )
                .send()
                .await
                .expect("answers");
            assert_eq!(reply.status(), StatusCode::OK);
            let turn: Value = reply.json().await.expect("JSON");
            let expected = solved[n - 1]["answer"].to_string();
            assert_eq!(turn["answer"].as_str(), Some(expected.as_str()), "{turn}");
            if n == 3 {
                assert_eq!(turn["formula"], "new - old");
                // the change's values are the earlier turns, and through
                // them the 2007 and 2005 cells of row 0
                assert_eq!(turn["values"][0]["targets"], json!(["cell-0-0", "turn-0"]));
                assert_eq!(turn["values"][1]["targets"], json!(["cell-0-2", "turn-1"]));
            }
        }
        let page = client.get(server.url("/")).send().await.expect("answers");
        assert_eq!(page.status(), StatusCode::OK);
        let html = page.text().await.expect("text");
        assert!(html.contains("id=\"cell-0-2\">25.14</td>"), "{html}");
        assert!(html.contains("<script src=\"/static/app.js\">"));
        // a number of the text: its token in its sentence
        let text: Value = client
            .post(server.url("/api/ask"))
            .json(
                &json!({"id": "Single_MRO/2007/page_134.pdf-1", "questions": [
                    "what was the total employee stock-based compensation expense in 2007?"
                ]}),
            )
            .send()
            .await
            .expect("answers")
            .json()
            .await
            .expect("JSON");
        assert_eq!(text["answer"], "80", "{text}");
        assert_eq!(text["values"][0]["targets"], json!(["token-24-11"]));
        assert!(html.contains("<span id=\"token-24-11\">80</span>"));
        let unknown = client
            .post(server.url("/api/ask"))
            .json(&json!({"id": "nope", "questions": ["what?"]}))
            .send()
            .await
            .expect("answers");
        assert_eq!(unknown.status(), StatusCode::NOT_FOUND);
        let none = client
            .post(server.url("/api/ask"))
            .json(&json!({"id": "Single_MRO/2007/page_134.pdf-1", "questions": []}))
            .send()
            .await
            .expect("answers");
        assert_eq!(none.status(), StatusCode::BAD_REQUEST);
    });
}

#[test]
fn report_text_is_escaped_on_the_page() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let file = dir.path().join("evil.json");
    std::fs::write(
        &file,
        json!({
            "id": "Evil/<b>1</b>",
            "doc": {
                "pre_text": "revenue was <script>alert('x')</script> $ 5 million in 2009 .",
                "post_text": "\"quoted\" & more .",
                "table": {"2009": {"<img src=x onerror=alert(1)>": "12"}}
            },
            "dialogue": {"conv_questions": ["what was <i>it</i>?"]}
        })
        .to_string(),
    )
    .expect("writes");
    let server = Server::start(&[&file]);
    block_on(async {
        let html = Client::new()
            .get(server.url("/"))
            .send()
            .await
            .expect("answers")
            .text()
            .await
            .expect("text");
        for raw in ["<script>alert", "<img src=x", "<b>1</b>", "<i>it</i>"] {
            assert!(!html.contains(raw), "{raw} unescaped in {html}");
        }
        assert!(html.contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;"));
        assert!(html.contains("&lt;img src=x onerror=alert(1)&gt;"));
        assert!(html.contains("Evil/&lt;b&gt;1&lt;/b&gt;"));
    });
}

#[test]
fn a_port_in_use_is_a_clear_error_and_ctrl_c_stops_cleanly() {
    let server = Server::start(&[&data("example.json")]);
    let addr = server.base.trim_start_matches("http://").to_string();
    let out = Command::cargo_bin("finkg")
        .expect("the binary")
        .arg("serve")
        .arg(data("example.json"))
        .args(["--addr", &addr])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(&format!("error: cannot listen on {addr}")),
        "{err}"
    );
    assert!(err.contains("hint: another process listens there"), "{err}");

    let (status, rest) = server.interrupt();
    assert!(status.success(), "{status:?}");
    assert!(rest.contains("finkg serve: stopped"), "{rest}");

    let bad = Command::cargo_bin("finkg")
        .expect("the binary")
        .args(["serve", "no-such-file.json", "--addr", "127.0.0.1:0"])
        .output()
        .expect("runs");
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("no-such-file.json"));
}

/// `finkg eval` of the public split's first three conversations into a
/// fresh run folder: (the temp dir holding it, the folder).
fn run_folder() -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().expect("a temp dir");
    let run = dir.path().join("run");
    Command::cargo_bin("finkg")
        .expect("the binary")
        .env_remove("FINKG_MONGO_URI")
        .arg("eval")
        .arg(data("convfinqa_dev_public.json"))
        .args(["--limit", "3", "--no-progress", "--out"])
        .arg(&run)
        .assert()
        .success();
    (dir, run)
}

/// A GET's status and body.
fn get_text(url: &str) -> (StatusCode, String) {
    block_on(async {
        let response = Client::new().get(url).send().await.expect("GET answers");
        let status = response.status();
        (status, response.text().await.expect("a body"))
    })
}

#[test]
fn a_run_folder_is_browsed_at_run_with_its_sources_highlighted() {
    let (_dir, run) = run_folder();
    let summary: Value =
        serde_json::from_str(&std::fs::read_to_string(run.join("summary.json")).unwrap()).unwrap();
    let turns = &summary["turns"];
    let accuracy = format!(
        "{:.1}% ({}/{})",
        100.0 * turns["accuracy"].as_f64().unwrap(),
        turns["correct"],
        turns["total"]
    );
    let first: Value = serde_json::from_str(
        std::fs::read_to_string(run.join("conversations.jsonl"))
            .unwrap()
            .lines()
            .next()
            .unwrap(),
    )
    .unwrap();
    let id = first["id"].as_str().unwrap().to_string();
    // the conversation's first question, as the page escapes it
    let question = std::fs::read_to_string(run.join("trace.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .find(|t| t["id"] == id.as_str() && t["turn"] == 0)
        .expect("the first turn is traced")["question"]
        .as_str()
        .unwrap()
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&#39;");

    // alongside a file, as without --run; the banner names the run browser
    let server = Server::start_with(
        &[&data("example.json")],
        &["--run".as_ref(), run.as_os_str()],
        5,
    );
    assert!(server.banner.contains("run browser:"), "{}", server.banner);

    let (status, index) = get_text(&server.url("/"));
    assert_eq!(status, StatusCode::OK);
    assert!(index.contains("href=\"/run\""), "{index}");

    let (status, overview) = get_text(&server.url("/run"));
    assert_eq!(status, StatusCode::OK);
    assert!(overview.contains(&accuracy), "{accuracy} in {overview}");
    assert!(overview.contains("By turn") && overview.contains("By gold operation"));
    let href = format!("href=\"/run/{id}\"");
    assert!(overview.contains(&href), "{href} in {overview}");

    let (status, page) = get_text(&server.url(&format!("/run/{id}")));
    assert_eq!(status, StatusCode::OK);
    assert!(page.contains(&question), "{question} in {page}");
    assert!(page.contains('✔') || page.contains('✘'), "{page}");
    assert!(page.contains("<td class=\"source\">"), "{page}");
    assert!(page.contains("id=\"turn-0\""), "{page}");

    let (status, missing) = get_text(&server.url("/run/unknown"));
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(missing.contains("unknown"), "{missing}");
}

#[test]
fn without_files_the_run_is_the_page_and_a_non_run_folder_is_an_error() {
    let (_dir, run) = run_folder();
    let server = Server::start_with(&[], &["--run".as_ref(), run.as_os_str()], 5);
    let (status, index) = get_text(&server.url("/"));
    assert_eq!(status, StatusCode::OK);
    assert!(index.contains("href=\"/run\""), "{index}");
    let (status, _) = get_text(&server.url("/run"));
    assert_eq!(status, StatusCode::OK);

    // without --run there is no run to browse
    let plain = Server::start(&[&data("example.json")]);
    let (status, page) = get_text(&plain.url("/run"));
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(page.contains("--run RUN_DIR"), "{page}");

    let empty = tempfile::tempdir().expect("a temp dir");
    let out = Command::cargo_bin("finkg")
        .expect("the binary")
        .arg("serve")
        .arg(data("example.json"))
        .arg("--run")
        .arg(empty.path())
        .args(["--addr", "127.0.0.1:0"])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("holds no run (no run.json)"), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
}

/// A page whose "revenue record year" row (years) is the rules planner's
/// first grounding of "the revenue record in 2009" (as in tests/critic.rs).
const YEAR_PAGE: &str = r#"{"id": "Test_WIDGET/2009/page_3.pdf-1",
 "doc": {"pre_text": "widget co makes widgets .", "post_text": "",
   "table": {"2009": {"revenue": "1,500", "service revenue": "300", "revenue record year": "2007"},
             "2008": {"revenue": "1,200", "service revenue": "250", "revenue record year": "2007"}}},
 "dialogue": {"conv_questions": ["what was the revenue record in 2009?"]}}"#;

/// `/api/ask` of a `finkg serve` of the page above started with `args`.
fn ask_year_page(args: &[&str]) -> Value {
    let dir = tempfile::tempdir().expect("a temp dir");
    let file = dir.path().join("page.json");
    std::fs::write(&file, YEAR_PAGE).expect("written");
    let args: Vec<&std::ffi::OsStr> = args.iter().map(std::ffi::OsStr::new).collect();
    let server = Server::start_with(&[file.as_path()], &args, 4);
    block_on(async {
        let reply = Client::new()
            .post(server.url("/api/ask"))
            .json(&json!({"id": "Test_WIDGET/2009/page_3.pdf-1",
                          "questions": ["what was the revenue record in 2009?"]}))
            .send()
            .await
            .expect("answers");
        assert_eq!(reply.status(), StatusCode::OK);
        reply.json().await.expect("JSON")
    })
}

#[test]
fn the_web_page_answers_with_the_deterministic_critic_unless_off() {
    let reviewed = ask_year_page(&[]);
    assert_eq!(reviewed["answer"], "1500", "{reviewed}");
    assert_eq!(reviewed["critic"]["critic"], "deterministic", "{reviewed}");
    assert_eq!(reviewed["critic"]["findings"][0]["check"], "year");
    assert_eq!(reviewed["critic"]["revisions"][0]["accepted"], true);
    assert_eq!(reviewed["values"][0]["value"], "1500");
    let off = ask_year_page(&["--critic", "off"]);
    assert_eq!(off["answer"], "2007", "{off}");
    assert!(off.get("critic").is_none(), "{off}");
    // the critic's choices are those that need no model
    let out = Command::cargo_bin("finkg")
        .expect("the binary")
        .args(["serve", "--critic", "llm", "--addr", "127.0.0.1:0"])
        .arg(data("example.json"))
        .output()
        .expect("finkg runs");
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("deterministic"), "{stderr}");
}

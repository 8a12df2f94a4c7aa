//! The remote store (`--store URL`, `finkg load`) against a real engine
//! and against endpoints that fail.
//!
//! With Virtuoso: the test starts `virtuoso-t` (Debian's
//! `virtuoso-opensource-7-bin`; or the binary `FINKG_VIRTUOSO` names) on
//! 127.0.0.1 with a scratch database folder and free ports, grants SPARQL
//! updates to its SPARQL user, loads the public split, and checks that
//! `eval --store` (and `--store-fetch`) gives the embedded store's
//! predictions, that every query
//! the run's plans hold answers the same from both stores, and that
//! loading again (skipping, resuming after a first page, or replacing with
//! `--force`, by SPARQL updates or Graph Store Protocol PUTs) leaves the
//! triple count unchanged. Without `virtuoso-t` it says so and passes, unless
//! `FINKG_REQUIRE_VIRTUOSO` is set (`.ci/run` sets it after installing the
//! package): then it fails.
//!
//! Without an engine: an endpoint that is down, answers HTTP 500 or
//! stalls gives a clear error and the process ends (a scripted server on
//! 127.0.0.1, `tests/support`).

mod served;
mod support;

use serde_json::Value;
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};
use support::{finkg, Reply, Server};

/// A path under the crate's `data/` folder.
fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("data")
        .join(name)
}

/// How long Virtuoso may take to create its database and come up.
const STARTUP: Duration = Duration::from_secs(120);

/// A binary on the PATH.
fn on_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(name))
        .find(|p| p.is_file())
}

/// A port free on 127.0.0.1 a moment ago.
fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port()
}

/// A Virtuoso server of the test's own, stopped when dropped.
struct Virtuoso {
    child: Child,
    http: u16,
    _dir: tempfile::TempDir,
}

impl Drop for Virtuoso {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Virtuoso {
    /// Starts `binary` with a scratch database; SPARQL updates granted to
    /// the endpoint's user.
    fn start(binary: &Path) -> Virtuoso {
        let dir = tempfile::tempdir().expect("a temp dir");
        let (sql, http) = (free_port(), free_port());
        let d = dir.path().display();
        let ini = format!(
            "[Database]\nDatabaseFile = {d}/virtuoso.db\nErrorLogFile = {d}/virtuoso.log\n\
             LockFile = {d}/virtuoso.lck\nTransactionFile = {d}/virtuoso.trx\n\
             xa_persistent_file = {d}/virtuoso.pxa\nErrorLogLevel = 7\nFileExtend = 200\n\
             MaxCheckpointRemap = 2000\nStriping = 0\nTempStorage = TempDatabase\n\n\
             [TempDatabase]\nDatabaseFile = {d}/virtuoso-temp.db\n\
             TransactionFile = {d}/virtuoso-temp.trx\nMaxCheckpointRemap = 2000\nStriping = 0\n\n\
             [Parameters]\nServerPort = 127.0.0.1:{sql}\nNumberOfBuffers = 20000\n\
             MaxDirtyBuffers = 15000\nServerThreads = 10\nCheckpointInterval = 60\n\
             DirsAllowed = .\n\n\
             [HTTPServer]\nServerPort = 127.0.0.1:{http}\nServerRoot = {d}\n\
             MaxClientConnections = 8\nServerThreads = 8\nEnabledDavVSP = 0\n\n\
             [SPARQL]\nResultSetMaxRows = 100000\nMaxQueryExecutionTime = 60\n"
        );
        let ini_path = dir.path().join("virtuoso.ini");
        std::fs::write(&ini_path, ini).expect("virtuoso.ini written");
        let child = std::process::Command::new(binary)
            .arg("-f")
            .arg("+configfile")
            .arg(&ini_path)
            .current_dir(dir.path())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("virtuoso-t starts");
        let mut server = Virtuoso {
            child,
            http,
            _dir: dir,
        };
        let isql = binary
            .parent()
            .map(|p| p.join("isql-vt"))
            .filter(|p| p.is_file())
            .or_else(|| on_path("isql-vt"))
            .expect("isql-vt beside virtuoso-t");
        let started = Instant::now();
        loop {
            if let Ok(Some(status)) = server.child.try_wait() {
                panic!("virtuoso-t ended at startup: {status}");
            }
            let granted = std::process::Command::new(&isql)
                .arg(sql.to_string())
                .args(["dba", "dba", "exec=GRANT SPARQL_UPDATE TO \"SPARQL\";"])
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status()
                .is_ok_and(|s| s.success());
            if granted && server.answers() {
                return server;
            }
            assert!(
                started.elapsed() < STARTUP,
                "virtuoso-t did not come up within {STARTUP:?}"
            );
            std::thread::sleep(Duration::from_millis(500));
        }
    }

    fn url(&self) -> String {
        format!("http://127.0.0.1:{}/sparql", self.http)
    }

    fn answers(&self) -> bool {
        let config = finkg::kg::remote::RemoteConfig::new(&self.url());
        finkg::kg::remote::RemoteStore::new(config)
            .is_ok_and(|s| s.check(Duration::from_secs(5)).is_ok())
    }

    fn triples(&self) -> usize {
        let mut config = finkg::kg::remote::RemoteConfig::new(&self.url());
        config.auth = Default::default();
        finkg::kg::remote::RemoteStore::new(config)
            .expect("a client")
            .count_triples()
            .expect("the store counts")
    }
}

/// The summary line of `finkg load` of the file `file` with `args`.
fn load(file: &str, store: &str, args: &[&str]) -> String {
    let mut cmd = finkg();
    cmd.arg("load")
        .arg(data(file))
        .args(["--store", store, "--no-progress"])
        .args(args);
    let out = cmd.assert().success().get_output().stdout.clone();
    String::from_utf8(out).expect("UTF-8")
}

/// A JSON results document's rows, each as sorted `var=term` text, sorted:
/// two engines may list unordered rows in any order.
fn rows_of(results: &Value) -> Vec<String> {
    if let Some(b) = results.get("boolean") {
        return vec![b.to_string()];
    }
    let mut rows: Vec<String> = results["results"]["bindings"]
        .as_array()
        .map(|a| a.iter().map(Value::to_string).collect())
        .unwrap_or_default();
    rows.sort();
    rows
}

#[test]
fn virtuoso_answers_as_the_embedded_store() {
    let binary = std::env::var_os("FINKG_VIRTUOSO")
        .map(PathBuf::from)
        .or_else(|| on_path("virtuoso-t"));
    let Some(binary) = binary else {
        assert!(
            std::env::var_os("FINKG_REQUIRE_VIRTUOSO").is_none(),
            "FINKG_REQUIRE_VIRTUOSO is set but no virtuoso-t was found (set FINKG_VIRTUOSO)"
        );
        eprintln!(
            "skipped: no virtuoso-t (install Debian's `virtuoso-opensource-7-bin` or set FINKG_VIRTUOSO)"
        );
        return;
    };
    let virtuoso = Virtuoso::start(&binary);
    let store = virtuoso.url();
    let dataset = data("convfinqa_dev_public.json");

    // a conversation not loaded yet is a clear error, not a wrong answer
    let said = fails_saying(
        finkg()
            .args(["query", "--store", &store])
            .arg(&dataset)
            .arg("ASK { GRAPH ?g { ?s ?p ?o } }"),
    );
    assert!(said.contains("finkg load"), "{said}");
    let said = fails_saying(
        finkg()
            .args(["serve", "--store", &store, "--addr", "127.0.0.1:0"])
            .arg(data("example.json")),
    );
    assert!(
        said.contains("cannot read the pages from the store") && said.contains("finkg load"),
        "{said}"
    );

    // a load that stopped after the first page resumes after it
    let one = load("example.json", &store, &[]);
    assert!(one.starts_with("loaded 1 pages"), "{one}");
    let first = load("convfinqa_dev_public.json", &store, &[]);
    assert!(
        first.starts_with("loaded 256 pages (1 already loaded"),
        "{first}"
    );
    let count = virtuoso.triples();
    assert!(count > 100_000, "{count} triples");

    // eval against the store (four conversations at once; and each page
    // fetched once), and embedded
    let runs = tempfile::tempdir().expect("a temp dir");
    let eval = |name: &str, args: &[&str]| -> PathBuf {
        let out = runs.path().join(name);
        let mut cmd = finkg();
        cmd.arg("eval").arg(&dataset).arg("--out").arg(&out);
        cmd.arg("--no-progress").args(args);
        cmd.assert().success();
        out
    };
    let embedded = eval("embedded", &[]);
    let remote = eval("remote", &["--store", &store, "--jobs", "4"]);
    let fetched = eval("fetched", &["--store", &store, "--store-fetch"]);
    let read = |dir: &Path, name: &str| std::fs::read_to_string(dir.join(name)).expect(name);
    let want = read(&embedded, "predictions.jsonl");
    assert_eq!(want.lines().count(), 910);
    for run in [&remote, &fetched] {
        let got = read(run, "predictions.jsonl");
        assert_eq!(want.lines().count(), got.lines().count());
        for (w, g) in want.lines().zip(got.lines()) {
            assert_eq!(w, g, "a prediction differs between the stores");
        }
    }
    // run.json names the store (without credentials); inspect shows it
    let info =
        |dir: &Path| -> Value { serde_json::from_str(&read(dir, "run.json")).expect("run.json") };
    assert_eq!(info(&remote)["store"], store.as_str());
    assert_eq!(info(&fetched)["store"], store.as_str());
    assert_eq!(info(&embedded)["store"], Value::Null);
    let shown = finkg().arg("inspect").arg(&remote).assert().success();
    let shown = String::from_utf8_lossy(&shown.get_output().stdout).into_owned();
    assert!(
        shown.contains(&format!("pages' graphs read from the store at {store}")),
        "{shown}"
    );
    let shown = finkg().arg("inspect").arg(&embedded).assert().success();
    assert!(!String::from_utf8_lossy(&shown.get_output().stdout).contains("read from the store"));

    serve_answers_as_the_embedded_store(&store, &dataset);

    // every query the run's plans hold, and a few of other shapes
    // (aggregates, ASK, the TBox, string functions), through both stores
    let mut batch = String::new();
    for line in read(&embedded, "trace.jsonl").lines() {
        let turn: Value = serde_json::from_str(line).expect("a trace line");
        for value in turn["values"].as_array().into_iter().flatten() {
            if let Some(sparql) = value["sparql"].as_str() {
                let job = serde_json::json!({"id": turn["id"], "sparql": sparql});
                batch.push_str(&format!("{job}\n"));
            }
        }
    }
    let planned = batch.lines().count();
    assert!(planned > 500, "{planned} planned queries");
    let ids: Vec<String> = want
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter_map(|p| p["id"].as_str().map(str::to_string))
        .step_by(40)
        .collect();
    for id in &ids {
        for sparql in [
            "SELECT (SUM(?v) AS ?sum) (COUNT(?v) AS ?n) (MAX(?v) AS ?max) WHERE { GRAPH ?g { ?o a qb:Observation ; fk:value ?v } }",
            "ASK { GRAPH ?g { ?f a fk:TextFact ; fk:isYearMention true } }",
            "SELECT ?label ?class WHERE { GRAPH ?g { ?c a ?class ; rdfs:label ?label } GRAPH ?t { ?class rdfs:label ?cl } }",
            "SELECT ?t WHERE { GRAPH ?g { ?s a fk:Sentence ; fk:text ?t FILTER(CONTAINS(LCASE(?t), \"million\")) } }",
            "SELECT ?y ?b WHERE { GRAPH ?g { ?f a fk:TextFact ; fk:isYearMention ?b . OPTIONAL { ?f fk:year ?y } } }",
        ] {
            let job = serde_json::json!({"id": id, "sparql": sparql});
            batch.push_str(&format!("{job}\n"));
        }
    }
    let jobs = runs.path().join("queries.jsonl");
    std::fs::write(&jobs, &batch).expect("queries written");
    let answers = |remote: bool| -> Vec<Value> {
        let mut cmd = finkg();
        cmd.arg("query").arg(&dataset).arg("--queries").arg(&jobs);
        if remote {
            cmd.args(["--store", &store]);
        }
        let out = cmd.assert().success().get_output().stdout.clone();
        String::from_utf8(out)
            .expect("UTF-8")
            .lines()
            .map(|l| serde_json::from_str(l).expect("a JSON line"))
            .collect()
    };
    let (want, got) = (answers(false), answers(true));
    assert_eq!(want.len(), batch.lines().count());
    assert_eq!(want.len(), got.len());
    for (w, g) in want.iter().zip(&got) {
        assert!(w.get("error").is_none(), "{w}");
        assert!(g.get("error").is_none(), "{g}");
        assert_eq!(
            rows_of(&w["results"]),
            rows_of(&g["results"]),
            "{}",
            w["sparql"]
        );
    }

    // loading again: skipped (resumable), or replaced, by SPARQL updates
    // or by the Graph Store Protocol; never added to
    let again = load("convfinqa_dev_public.json", &store, &[]);
    assert!(
        again.starts_with("loaded 0 pages (257 already loaded"),
        "{again}"
    );
    assert_eq!(virtuoso.triples(), count);
    let forced = load("convfinqa_dev_public.json", &store, &["--force"]);
    assert!(forced.starts_with("loaded 257 pages"), "{forced}");
    assert_eq!(virtuoso.triples(), count);
    let crud = store.replace("/sparql", "/sparql-graph-crud");
    let put = load(
        "convfinqa_dev_public.json",
        &store,
        &["--force", "--graph-store", &crud],
    );
    assert!(put.starts_with("loaded 257 pages"), "{put}");
    assert_eq!(virtuoso.triples(), count);
}

/// A page's named graph.
fn page_graph(id: &str) -> String {
    format!("https://w3id.org/finkg/data/{id}/graph")
}

/// `serve --store URL` (the store loaded with the public split) answers
/// SPARQL queries and chat questions as `serve` on the embedded store does;
/// a page whose file is not given is served from the store all the same.
fn serve_answers_as_the_embedded_store(store: &str, dataset: &Path) {
    use std::ffi::OsStr;
    let embedded = served::Server::start(&[dataset]);
    let remote = served::Server::start_with(
        &[&data("example.json")],
        &[OsStr::new("--store"), OsStr::new(store)],
        4,
    );
    assert!(
        remote
            .banner
            .contains("serving 257 pages from the store at")
            && remote.banner.contains("table and text of 1 from"),
        "{}",
        remote.banner
    );
    let client = reqwest::blocking::Client::new();
    let sparql = |server: &served::Server, query: &str, named: &[&str]| {
        let mut form = vec![("query", query)];
        form.extend(named.iter().map(|g| ("named-graph-uri", *g)));
        let reply = client
            .post(server.url("/sparql"))
            .form(&form)
            .header("accept", "application/sparql-results+json")
            .send()
            .expect("the server answers");
        let status = reply.status().as_u16();
        (status, reply.text().expect("a body"))
    };
    let mro = "Single_MRO/2007/page_134.pdf-1";
    let hii = "Double_HII/2017/page_104.pdf";
    let cells = format!(
        "SELECT ?row ?column ?raw ?value WHERE {{ GRAPH <{}> {{ ?cell a qb:Observation ; \
         fk:row/rdfs:label ?row ; fk:column/rdfs:label ?column ; fk:rawValue ?raw . \
         OPTIONAL {{ ?cell fk:value ?value }} }} }}",
        page_graph(hii)
    );
    let pages = "SELECT (COUNT(DISTINCT ?g) AS ?n) WHERE { GRAPH ?g { ?c a qb:Observation } }";
    let tbox = "SELECT ?class WHERE { GRAPH ?t { ?class a owl:Class } }";
    let one = page_graph(mro);
    let cases: [(&str, &[&str]); 5] = [
        (&cells, &[]),
        (pages, &[]),
        (pages, &[one.as_str()]),
        ("ASK { ?s ?p ?o }", &[]),
        (tbox, &[]),
    ];
    for (query, named) in cases {
        let (want_status, want) = sparql(&embedded, query, named);
        let (got_status, got) = sparql(&remote, query, named);
        assert_eq!((want_status, got_status), (200, 200), "{query}: {got}");
        let (want, got): (Value, Value) = (
            serde_json::from_str(&want).expect("JSON"),
            serde_json::from_str(&got).expect("JSON"),
        );
        assert!(!rows_of(&want).is_empty(), "{query}");
        assert_eq!(rows_of(&want), rows_of(&got), "{query}");
    }
    let (_, all) = sparql(&remote, pages, &[]);
    assert!(all.contains("\"257\""), "{all}");
    let (_, mine) = sparql(&remote, pages, &[one.as_str()]);
    assert!(mine.contains("\"1\""), "{mine}");
    // no graph of the endpoint but the pages' and the TBox's
    let (status, said) = sparql(&remote, pages, &["https://w3id.org/finkg/graph/loads"]);
    assert_eq!(status, 400, "{said}");
    assert!(said.contains("not a graph served here"), "{said}");
    let (status, _) = sparql(&remote, "INSERT DATA { <a:b> <a:c> <a:d> }", &[]);
    assert_eq!(status, 400);

    // chat: the same turns, values, formulas and sources
    let ask = |server: &served::Server, id: &str, questions: &[&str]| -> Value {
        let reply = client
            .post(server.url("/api/ask"))
            .json(&serde_json::json!({"id": id, "questions": questions}))
            .send()
            .expect("the server answers");
        assert_eq!(reply.status().as_u16(), 200);
        reply.json().expect("JSON")
    };
    let mro_questions = [
        "what was the weighted average exercise price per share in 2007?",
        "and what was it in 2005?",
        "what was, then, the change over the years?",
    ];
    for n in 1..=mro_questions.len() {
        let want = ask(&embedded, mro, &mro_questions[..n]);
        assert!(want["answer"].is_string(), "{want}");
        assert_eq!(want, ask(&remote, mro, &mro_questions[..n]));
    }
    let hii_questions = ["what was the total in 2017?", "and in 2016?"];
    let want = ask(&embedded, hii, &hii_questions);
    assert_eq!(want, ask(&remote, hii, &hii_questions));

    // the page whose file was given shows its table; another says why not
    let page = |id: &str| {
        client
            .get(remote.url("/"))
            .query(&[("id", id)])
            .send()
            .expect("answers")
            .text()
            .expect("text")
    };
    let shown = page(mro);
    assert!(shown.contains("id=\"cell-0-2\">25.14</td>"), "{shown}");
    assert!(!shown.contains("id=\"unread\""));
    assert!(page(hii).contains("id=\"unread\""));
    let (status, rest) = remote.interrupt();
    assert!(status.success(), "{rest}");
}

#[test]
fn serve_with_a_store_that_is_down_is_a_clear_error() {
    let port = free_port();
    let said = fails_saying(
        finkg()
            .args(["serve", "--addr", "127.0.0.1:0", "--store"])
            .arg(format!("http://127.0.0.1:{port}/sparql")),
    );
    assert!(said.contains("could not be reached (3 attempts)"), "{said}");
    assert!(said.contains("hint: is the endpoint up"), "{said}");
}

/// `solve --store URL` over the example file: its stderr, after it ended
/// with a failure.
fn solve_fails(store: &str) -> String {
    fails_saying(
        finkg()
            .arg("solve")
            .arg(data("example.json"))
            .args(["--store", store]),
    )
}

/// The stderr of a command that must end with a failure.
fn fails_saying(cmd: &mut assert_cmd::Command) -> String {
    let out = cmd.assert().failure().get_output().stderr.clone();
    String::from_utf8_lossy(&out).into_owned()
}

#[test]
fn an_endpoint_that_is_down_is_a_clear_error() {
    let port = free_port();
    let said = solve_fails(&format!("http://127.0.0.1:{port}/sparql"));
    assert!(said.contains("could not be reached (3 attempts)"), "{said}");
    assert!(said.contains("hint: is the endpoint up"), "{said}");
}

#[test]
fn an_endpoint_answering_errors_is_retried_then_reported() {
    let server = Server::script(vec![
        Reply::status(
            500,
            "Virtuoso 42000 Error: storage failed"
        );
        3
    ]);
    let said = solve_fails(&format!("{}/sparql", server.url()));
    assert!(
        said.contains("answered HTTP 500: Virtuoso 42000 Error: storage failed"),
        "{said}"
    );
    assert_eq!(server.received().len(), 3, "one attempt and two retries");
    let refused = Server::script(vec![Reply::status(403, "no updates for you")]);
    let said = solve_fails(&format!("{}/sparql", refused.url()));
    assert!(said.contains("answered HTTP 403"), "{said}");
    assert_eq!(refused.received().len(), 1, "a refusal is not retried");
}

#[test]
fn an_endpoint_that_stalls_times_out() {
    let reply = Reply::status(200, "{}").after(Duration::from_secs(3600));
    let server = Server::script(vec![reply; 3]);
    let said = solve_fails(&format!("{}/sparql", server.url()));
    assert!(said.contains("did not answer within 5 s"), "{said}");
}

#[test]
fn an_endpoint_answering_garbage_is_a_clear_error() {
    let server = Server::script(vec![Reply::status(200, "<html>hello</html>")]);
    let said = solve_fails(&format!("{}/sparql", server.url()));
    assert!(
        said.contains("the store's answer could not be read"),
        "{said}"
    );
}

#[test]
fn load_needs_a_store_and_a_store_needs_an_http_url() {
    let said = fails_saying(finkg().arg("load").arg(data("example.json")));
    assert!(said.contains("needs --store URL"), "{said}");
    let said = solve_fails("ftp://127.0.0.1/sparql");
    assert!(said.contains("is not an http:// or https:// URL"), "{said}");
}

#[test]
fn credentials_come_from_the_environment() {
    let ask = r#"{"head": {}, "boolean": true}"#;
    let bearer = Server::script(vec![Reply::status(200, ask)]);
    finkg()
        .arg("solve")
        .arg(data("example.json"))
        .args(["--store", &format!("{}/sparql", bearer.url())])
        .env("FINKG_STORE_TOKEN", "t0ken")
        .output()
        .expect("finkg runs");
    let first = &bearer.received()[0];
    assert_eq!(first.header("authorization"), Some("Bearer t0ken"));
    let basic = Server::script(vec![Reply::status(200, ask)]);
    finkg()
        .arg("solve")
        .arg(data("example.json"))
        .args(["--store", &format!("{}/sparql", basic.url())])
        .env("FINKG_STORE_USER", "dba")
        .env("FINKG_STORE_PASSWORD", "secret")
        .output()
        .expect("finkg runs");
    // "dba:secret" in base64
    let first = &basic.received()[0];
    assert_eq!(
        first.header("authorization"),
        Some("Basic ZGJhOnNlY3JldA==")
    );
}

#[test]
fn a_partial_answer_cut_short_by_the_engine_is_an_error() {
    // Virtuoso's "anytime" answer: what it found before its limit, flagged
    let partial = Reply::status(200, r#"{"head": {}, "boolean": false}"#)
        .header("X-SQL-State", "S1TAT")
        .header("X-SQL-Message", "Returning incomplete results");
    let server = Server::script(vec![partial]);
    let said = solve_fails(&format!("{}/sparql", server.url()));
    assert!(said.contains("did not answer within 5 s"), "{said}");
}

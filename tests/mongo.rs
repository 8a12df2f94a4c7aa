//! MongoDB export against a real MongoDB wire-protocol server: each test
//! starts its own nx-27017 (an SQLite-backed server from PyPI) on a free
//! loopback port, drives the `finkg` binary and reads the documents back
//! through the official driver.
//!
//! Needs `nx-27017` on PATH (`pip install nx-27017`; `.ci/run` installs it)
//! or its path in `NX_27017`; without it these tests fail, they do not skip.
//! Run with `cargo test --features mongodb --test mongo`.
#![cfg(feature = "mongodb")]

use assert_cmd::Command;
use mongodb::bson::{doc, Bson, Document};
use mongodb::IndexModel;
use serde_json::Value;
use std::io::Read;
use std::net::{Ipv4Addr, SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};
use tempfile::TempDir;

const TBOX_GRAPH: &str = "<https://w3id.org/finkg/graph/tbox>";

// ------------------------------------------------------------ the server

/// The nx-27017 executable: `NX_27017`, else `nx-27017` on PATH.
fn nx_27017() -> PathBuf {
    if let Some(path) = std::env::var_os("NX_27017") {
        return PathBuf::from(path);
    }
    std::env::var_os("PATH")
        .iter()
        .flat_map(std::env::split_paths)
        .map(|dir| dir.join("nx-27017"))
        .find(|p| p.is_file())
        .unwrap_or_else(|| {
            panic!(
                "nx-27017 is not on PATH: the MongoDB tests need this wire-protocol server; \
                 install it with `pip install nx-27017` (.ci/run does) or set NX_27017"
            )
        })
}

fn free_port() -> u16 {
    TcpListener::bind((Ipv4Addr::LOCALHOST, 0))
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free loopback port")
}

/// An nx-27017 server on 127.0.0.1 with its data in an SQLite file of its
/// own (so that it can be stopped and started again), killed on drop.
struct Server {
    dir: TempDir,
    port: u16,
    child: Option<Child>,
}

impl Server {
    fn start() -> Self {
        let mut server = Server {
            dir: tempfile::tempdir().unwrap(),
            port: free_port(),
            child: None,
        };
        server.run();
        server
    }

    fn run(&mut self) {
        let log = std::fs::File::create(self.dir.path().join("stderr.log")).unwrap();
        let child = std::process::Command::new(nx_27017())
            .args(["--host", "127.0.0.1", "--port", &self.port.to_string()])
            .arg("--db")
            .arg(self.dir.path().join("data.db"))
            .arg("--log-file")
            .arg(self.dir.path().join("nx.log"))
            .arg("--pid-file")
            .arg(self.dir.path().join("nx.pid"))
            .stdin(Stdio::null())
            .stdout(log.try_clone().unwrap())
            .stderr(log)
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start nx-27017: {e}"));
        self.child = Some(child);
        let address = SocketAddr::from((Ipv4Addr::LOCALHOST, self.port));
        let deadline = Instant::now() + Duration::from_secs(30);
        while TcpStream::connect_timeout(&address, Duration::from_millis(200)).is_err() {
            let exited = self.child.as_mut().unwrap().try_wait().unwrap();
            if exited.is_some() || Instant::now() > deadline {
                let log = std::fs::read_to_string(self.dir.path().join("stderr.log"));
                panic!("nx-27017 did not start on port {}: {log:?}", self.port);
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Kills the server (as a crash would).
    fn stop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    /// Starts the server again on the same port and data.
    fn restart(&mut self) {
        self.stop();
        self.run();
    }

    fn uri(&self, db: &str) -> String {
        format!(
            "mongodb://127.0.0.1:{}/{db}?serverSelectionTimeoutMS=3000",
            self.port
        )
    }

    fn db(&self, name: &str) -> Db {
        Db::connect(&self.uri(name))
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.stop();
    }
}

/// A database read back through the driver.
struct Db {
    runtime: tokio::runtime::Runtime,
    db: mongodb::Database,
}

impl Db {
    fn connect(uri: &str) -> Self {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let client = runtime
            .block_on(async { mongodb::Client::with_uri_str(uri).await })
            .unwrap();
        let db = client.default_database().unwrap();
        Db { runtime, db }
    }

    fn collection(&self, name: &str) -> mongodb::Collection<Document> {
        self.db.collection(name)
    }

    fn count(&self, name: &str, filter: Document) -> u64 {
        self.runtime
            .block_on(async { self.collection(name).count_documents(filter).await })
            .unwrap()
    }

    fn find(&self, name: &str, filter: Document, sort: Document) -> Vec<Document> {
        self.runtime.block_on(async {
            let mut cursor = self.collection(name).find(filter).sort(sort).await.unwrap();
            let mut docs = Vec::new();
            while cursor.advance().await.unwrap() {
                let mut d = cursor.deserialize_current().unwrap();
                d.remove("_id");
                docs.push(d);
            }
            docs
        })
    }

    fn one(&self, name: &str, filter: Document) -> Document {
        let mut docs = self.find(name, filter.clone(), doc! {});
        assert_eq!(docs.len(), 1, "one document in `{name}` for {filter}");
        docs.remove(0)
    }

    fn aggregate(&self, name: &str, pipeline: Vec<Document>) -> Vec<Document> {
        self.runtime.block_on(async {
            let mut cursor = self.collection(name).aggregate(pipeline).await.unwrap();
            let mut docs = Vec::new();
            while cursor.advance().await.unwrap() {
                docs.push(cursor.deserialize_current().unwrap());
            }
            docs
        })
    }

    fn indexes(&self, name: &str) -> Vec<IndexModel> {
        self.runtime.block_on(async {
            let mut cursor = self.collection(name).list_indexes().await.unwrap();
            let mut out = Vec::new();
            while cursor.advance().await.unwrap() {
                out.push(cursor.deserialize_current().unwrap());
            }
            out
        })
    }

    fn collections(&self) -> Vec<String> {
        self.runtime
            .block_on(async { self.db.list_collection_names().await })
            .unwrap()
    }

    fn insert(&self, name: &str, d: Document) -> mongodb::error::Result<()> {
        self.runtime
            .block_on(async { self.collection(name).insert_one(d).await })
            .map(|_| ())
    }
}

// ------------------------------------------------------------ helpers

fn dev_data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("data/convfinqa_dev_public.json")
}

fn finkg() -> Command {
    let mut cmd = Command::cargo_bin("finkg").expect("the finkg binary builds");
    cmd.env_remove("FINKG_MONGO_URI");
    cmd
}

struct Output {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

fn run(cmd: &mut Command) -> Output {
    let out = cmd.output().unwrap();
    Output {
        code: out.status.code(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

fn succeeds(cmd: &mut Command) -> String {
    let out = run(cmd);
    assert_eq!(
        out.code,
        Some(0),
        "stdout: {}\nstderr: {}",
        out.stdout,
        out.stderr
    );
    out.stdout
}

/// `finkg eval` of the first `limit` public conversations into `out`.
fn eval(out: &Path, limit: usize) -> Command {
    let mut cmd = finkg();
    cmd.arg("eval").arg(dev_data()).arg("--out").arg(out).args([
        "--no-progress",
        "--limit",
        &limit.to_string(),
    ]);
    cmd
}

fn export(run_dir: &Path, uri: &str) -> Command {
    let mut cmd = finkg();
    cmd.arg("export").arg(run_dir).args(["--mongo-uri", uri]);
    cmd
}

fn json_file(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn json_lines(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn counts(db: &Db) -> [u64; 4] {
    ["runs", "conversations", "turns", "llm_exchanges"].map(|c| db.count(c, doc! {}))
}

fn int(d: &Document, key: &str) -> i64 {
    match d.get(key) {
        Some(Bson::Int32(n)) => i64::from(*n),
        Some(Bson::Int64(n)) => *n,
        other => panic!("`{key}` is not an integer: {other:?} in {d}"),
    }
}

/// The JSON of a BSON value, to compare with the run folder's lines.
fn json(b: &Bson) -> Value {
    match b {
        Bson::Null => Value::Null,
        Bson::Boolean(x) => Value::from(*x),
        Bson::Int32(n) => Value::from(*n),
        Bson::Int64(n) => Value::from(*n),
        Bson::Double(x) => Value::from(*x),
        Bson::String(s) => Value::from(s.as_str()),
        Bson::Array(items) => items.iter().map(json).collect(),
        Bson::Document(d) => d.iter().map(|(k, v)| (k.clone(), json(v))).collect(),
        other => panic!("not in a run folder: {other:?}"),
    }
}

// ------------------------------------------------------------ tests

#[test]
fn eval_exports_every_record_as_it_goes() {
    let server = Server::start();
    let tmp = tempfile::tempdir().unwrap();
    let run_dir = tmp.path().join("run");
    let out = succeeds(eval(&run_dir, 5).args(["--mongo-uri", &server.uri("evals")]));
    assert!(out.contains("turn accuracy"), "{out}");
    assert!(
        out.contains("5 conversations, 20 turns, 0 LLM exchanges"),
        "{out}"
    );

    let info = json_file(&run_dir.join("run.json"));
    let summary = json_file(&run_dir.join("summary.json"));
    let run_id = info["run_id"].as_str().unwrap();
    let db = server.db("evals");
    assert_eq!(counts(&db), [1, 5, 20, 0]);

    let run = db.one("runs", doc! {"run_id": run_id});
    assert_eq!(run.get_str("status").unwrap(), "finished");
    assert!(run.get_datetime("started").is_ok() && run.get_datetime("finished").is_ok());
    let config = run.get_document("config").unwrap();
    assert_eq!(config.get_str("planner").unwrap(), "rules");
    assert!(config
        .get_str("dataset")
        .unwrap()
        .ends_with("convfinqa_dev_public.json"));
    assert_eq!(int(config, "limit"), 5);
    let results = run.get_document("results").unwrap();
    assert_eq!(int(results, "turns"), 20);
    let correct = summary["turns"]["correct"].as_i64().unwrap();
    assert_eq!(int(results, "correct"), correct);
    assert_eq!(
        results.get_f64("accuracy").unwrap(),
        summary["turns"]["accuracy"].as_f64().unwrap()
    );
    let by_operation = results.get_array("by_operation").unwrap();
    assert_eq!(
        by_operation.len(),
        summary["by_operation"].as_object().unwrap().len()
    );
    for op in by_operation {
        let op = op.as_document().unwrap();
        let name = op.get_str("operation").unwrap();
        assert_eq!(
            int(op, "total"),
            summary["by_operation"][name]["total"].as_i64().unwrap()
        );
    }
    assert_eq!(int(results.get_document("cost").unwrap(), "llm_calls"), 0);

    for line in json_lines(&run_dir.join("conversations.jsonl")) {
        let c = db.one(
            "conversations",
            doc! {"run_id": run_id, "conversation_id": line["id"].as_str().unwrap()},
        );
        assert_eq!(int(&c, "turns"), line["turns"].as_i64().unwrap());
        assert_eq!(int(&c, "correct"), line["correct"].as_i64().unwrap());
        let graph = c.get_document("graph").unwrap();
        for key in ["triples", "observations", "text_facts"] {
            assert_eq!(
                int(graph, key),
                line["graph"][key].as_i64().unwrap(),
                "{key}"
            );
            assert!(int(graph, key) > 0, "{key}");
        }
    }

    let trace = json_lines(&run_dir.join("trace.jsonl"));
    assert_eq!(trace.len(), 20);
    for line in &trace {
        let t = db.one(
            "turns",
            doc! {
                "run_id": run_id,
                "conversation_id": line["id"].as_str().unwrap(),
                "turn": line["turn"].as_i64().unwrap(),
            },
        );
        assert_eq!(t.get_str("question").unwrap(), line["question"]);
        assert_eq!(t.get_bool("correct").unwrap(), line["correct"]);
        for key in [
            "answer", "gold", "plan", "formula", "values", "result", "error",
        ] {
            assert_eq!(json(t.get(key).unwrap()), line[key], "{key}");
        }
        assert!(t.get_document("timings_us").is_ok());
        let tools = t.get_document("tools").unwrap();
        let planned = line["plan"]["values"].as_object().map_or(0, |v| v.len()) as i64;
        assert_eq!(
            int(tools, "sparql") + int(tools, "reference") + int(tools, "constant"),
            planned
        );
    }
    // the SPARQL of a looked-up value, with its binding and source cell
    let lookup = db.one(
        "turns",
        doc! {"run_id": run_id, "conversation_id": "Single_MRO/2007/page_134.pdf-1", "turn": 0},
    );
    let value = lookup.get_array("values").unwrap()[0]
        .as_document()
        .unwrap();
    assert!(value.get_str("sparql").unwrap().contains("SELECT"));
    assert!(value.get_str("source").unwrap().starts_with("cell row"));
    assert_eq!(value.get_str("value").unwrap(), "60.94");

    let wrong = db.count("turns", doc! {"run_id": run_id, "correct": false});
    assert_eq!(wrong as i64, 20 - correct);
    assert!(db.collections().contains(&"llm_exchanges".to_string()));
}

#[test]
fn unique_indexes_are_created_and_enforced() {
    let server = Server::start();
    let tmp = tempfile::tempdir().unwrap();
    let run_dir = tmp.path().join("run");
    succeeds(eval(&run_dir, 1).args(["--mongo-uri", &server.uri("idx")]));
    let db = server.db("idx");
    let has = |collection: &str, keys: Document, unique: bool| {
        let indexes = db.indexes(collection);
        assert!(
            indexes.iter().any(|i| i.keys == keys
                && i.options.as_ref().and_then(|o| o.unique).unwrap_or(false) == unique),
            "`{collection}` has no index {keys} (unique: {unique}): {indexes:?}"
        );
    };
    has("runs", doc! {"run_id": 1}, true);
    has(
        "turns",
        doc! {"run_id": 1, "conversation_id": 1, "turn": 1},
        true,
    );
    has("turns", doc! {"run_id": 1, "correct": 1}, false);
    has(
        "conversations",
        doc! {"run_id": 1, "conversation_id": 1},
        true,
    );
    has(
        "llm_exchanges",
        doc! {"run_id": 1, "conversation_id": 1, "turn": 1, "phase": 1, "attempt": 1},
        true,
    );

    let run_id = json_file(&run_dir.join("run.json"))["run_id"]
        .as_str()
        .unwrap()
        .to_string();
    let turn =
        doc! {"run_id": &run_id, "conversation_id": "Single_MRO/2007/page_134.pdf-1", "turn": 0};
    assert!(
        db.insert("turns", turn).is_err(),
        "a second document for a turn is refused"
    );
    assert!(db.insert("runs", doc! {"run_id": &run_id}).is_err());
    assert_eq!(counts(&db), [1, 1, 5, 0]);
}

#[test]
fn exporting_again_leaves_the_same_documents() {
    let server = Server::start();
    let tmp = tempfile::tempdir().unwrap();
    let run_dir = tmp.path().join("run");
    let uri = server.uri("again");
    succeeds(eval(&run_dir, 5).args(["--mongo-uri", &uri]));
    let db = server.db("again");
    let key = doc! {"conversation_id": 1, "turn": 1};
    let live = db.find("turns", doc! {}, key.clone());
    let live_run = db.find("runs", doc! {}, doc! {});
    assert_eq!(counts(&db), [1, 5, 20, 0]);

    for _ in 0..2 {
        let out = succeeds(&mut export(&run_dir, &uri));
        assert!(out.contains("5 conversations, 20 turns"), "{out}");
        assert_eq!(counts(&db), [1, 5, 20, 0]);
    }
    // the folder's export writes what the live export wrote
    assert_eq!(db.find("turns", doc! {}, key), live);
    assert_eq!(db.find("runs", doc! {}, doc! {}), live_run);
}

#[test]
fn an_interrupted_export_resumes_with_every_turn_once() {
    let mut server = Server::start();
    let tmp = tempfile::tempdir().unwrap();
    let run_dir = tmp.path().join("run");
    succeeds(&mut eval(&run_dir, 30));
    let total = json_lines(&run_dir.join("trace.jsonl")).len() as u64;
    assert!(total > 80, "{total} turns");
    let uri = server.uri("resume");

    // one document a command, so that the export is slow enough to interrupt
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_finkg"))
        .env_remove("FINKG_MONGO_URI")
        .arg("export")
        .arg(&run_dir)
        .args(["--mongo-uri", &uri, "--batch-size", "1"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let db = server.db("resume");
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let written = db.count("turns", doc! {});
        if written >= 10 {
            assert!(
                written < total,
                "the export ended before it could be stopped"
            );
            break;
        }
        assert!(
            child.try_wait().unwrap().is_none(),
            "the export ended before it could be stopped"
        );
        assert!(Instant::now() < deadline, "the export wrote nothing");
        std::thread::sleep(Duration::from_millis(5));
    }
    drop(db);
    server.stop();
    let status = child.wait().unwrap();
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    assert_eq!(status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("incomplete: not exported:"), "{stderr}");
    assert!(stderr.contains(" turns"), "{stderr}");
    assert!(stderr.contains("finkg export"), "{stderr}");

    server.restart();
    let db = server.db("resume");
    let partial = db.count("turns", doc! {});
    assert!((10..total).contains(&partial), "{partial} of {total}");

    let out = succeeds(&mut export(&run_dir, &uri));
    assert!(out.contains(&format!("{total} turns")), "{out}");
    assert_eq!(db.count("turns", doc! {}), total);
    assert_eq!(db.count("conversations", doc! {}), 30);
    assert_eq!(db.count("runs", doc! {}), 1);
    // (nx-27017 groups by an expression, not by a document of fields)
    let key = doc! {"$concat": ["$conversation_id", "#", {"$toString": "$turn"}]};
    let per_turn = db.aggregate(
        "turns",
        vec![doc! {"$group": {"_id": key, "n": {"$sum": 1}}}],
    );
    assert_eq!(per_turn.len() as u64, total, "one group a turn");
    let twice: Vec<&Document> = per_turn.iter().filter(|d| int(d, "n") != 1).collect();
    assert!(twice.is_empty(), "turns written twice: {twice:?}");
    for line in json_lines(&run_dir.join("trace.jsonl")) {
        let filter = doc! {"conversation_id": line["id"].as_str().unwrap(), "turn": line["turn"].as_i64().unwrap()};
        assert_eq!(db.count("turns", filter.clone()), 1, "{filter}");
    }
}

#[test]
fn a_server_lost_during_eval_leaves_a_complete_run_folder_to_export_later() {
    let mut server = Server::start();
    let tmp = tempfile::tempdir().unwrap();
    let run_dir = tmp.path().join("run");
    let uri = server.uri("lost");
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_finkg"))
        .env_remove("FINKG_MONGO_URI")
        .arg("eval")
        .arg(dev_data())
        .arg("--out")
        .arg(&run_dir)
        .args(["--no-progress", "--limit", "30", "--mongo-uri", &uri])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let db = server.db("lost");
    let deadline = Instant::now() + Duration::from_secs(60);
    while db.count("turns", doc! {}) == 0 {
        assert!(
            child.try_wait().unwrap().is_none(),
            "the run ended before the server could be stopped"
        );
        assert!(Instant::now() < deadline, "the run exported nothing");
        std::thread::sleep(Duration::from_millis(5));
    }
    drop(db);
    server.stop();
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stdout.contains("turn accuracy"),
        "the run went on: {stdout}"
    );
    assert!(
        stderr.contains("incomplete: not exported: the run document,"),
        "{stderr}"
    );
    assert!(
        stderr.contains("is complete: export it once the server is back with `finkg export"),
        "{stderr}"
    );
    let total = json_lines(&run_dir.join("trace.jsonl")).len() as u64;
    assert_eq!(json_lines(&run_dir.join("conversations.jsonl")).len(), 30);
    assert_eq!(
        json_file(&run_dir.join("summary.json"))["turns"]["total"],
        total
    );

    server.restart();
    let db = server.db("lost");
    let partial = db.count("turns", doc! {});
    assert!((1..total).contains(&partial), "{partial} of {total}");
    succeeds(&mut export(&run_dir, &uri));
    assert_eq!(counts(&db), [1, 30, total, 0]);
    let run = db.one("runs", doc! {});
    assert_eq!(run.get_str("status").unwrap(), "finished");
}

#[test]
fn an_unreachable_server_fails_clearly_and_keeps_the_run_folder() {
    let tmp = tempfile::tempdir().unwrap();
    let run_dir = tmp.path().join("run");
    let port = free_port();
    let uri = format!("mongodb://127.0.0.1:{port}/finkg?serverSelectionTimeoutMS=500");
    let out = run(eval(&run_dir, 5).args(["--mongo-uri", &uri]));
    assert_eq!(out.code, Some(2), "{}", out.stderr);
    assert!(out.stdout.contains("turn accuracy"), "{}", out.stdout);
    assert!(
        out.stderr.contains(&format!(
            "error: MongoDB export to `{uri}` incomplete: not exported: the run document, 5 conversations, 20 turns:"
        )),
        "{}",
        out.stderr
    );
    assert!(
        out.stderr.contains("Server selection timeout"),
        "{}",
        out.stderr
    );
    assert!(
        out.stderr.contains(&format!(
            "hint: the run folder `{}` is complete: export it once the server is back with `finkg export {}",
            run_dir.display(),
            run_dir.display()
        )),
        "{}",
        out.stderr
    );

    // the run folder is whole
    assert_eq!(json_lines(&run_dir.join("predictions.jsonl")).len(), 20);
    assert_eq!(json_lines(&run_dir.join("trace.jsonl")).len(), 20);
    assert_eq!(json_lines(&run_dir.join("conversations.jsonl")).len(), 5);
    assert_eq!(
        json_file(&run_dir.join("summary.json"))["turns"]["total"],
        20
    );
    assert!(json_file(&run_dir.join("run.json"))["finished"].is_string());

    let out = run(&mut export(&run_dir, &uri));
    assert_eq!(out.code, Some(2));
    assert!(
        out.stderr
            .contains("incomplete: not exported: the run document, 5 conversations, 20 turns"),
        "{}",
        out.stderr
    );

    // and exports once a server is there
    let server = Server::start();
    let out = succeeds(&mut export(&run_dir, &server.uri("later")));
    assert!(out.contains("5 conversations, 20 turns"), "{out}");
    assert_eq!(counts(&server.db("later")), [1, 5, 20, 0]);
}

#[test]
fn triples_and_llm_exchanges_are_exported_once() {
    let server = Server::start();
    let tmp = tempfile::tempdir().unwrap();
    let run_dir = tmp.path().join("run");
    let uri = server.uri("graphs");
    succeeds(eval(&run_dir, 2).args(["--mongo-uri", &uri, "--mongo-triples"]));
    let db = server.db("graphs");
    let tbox = db.count("triples", doc! {"g": TBOX_GRAPH});
    assert!(tbox > 100, "{tbox} TBox quads");
    let mut pages = 0;
    for line in json_lines(&run_dir.join("conversations.jsonl")) {
        let id = line["id"].as_str().unwrap();
        let g = format!("<https://w3id.org/finkg/data/{id}/graph>");
        let n = db.count("triples", doc! {"g": &g});
        assert_eq!(n as i64, line["graph"]["triples"].as_i64().unwrap(), "{g}");
        pages += n;
    }
    let all = db.count("triples", doc! {});
    assert_eq!(all, tbox + pages);
    let cell = db.find(
        "triples",
        doc! {"p": "<https://w3id.org/finkg/ns#rawValue>", "o": "\"60.94\""},
        doc! {},
    );
    assert!(!cell.is_empty(), "a cell's printed value is a triple");

    // LLM exchanges: none yet from the rules planner; a folder that holds
    // some (as the LLM planner will write them) exports them, once
    let lines = [
        r#"{"id":"Single_MRO/2007/page_134.pdf-1","turn":0,"phase":"phase1","attempt":0,"prompt":"p","reply":"{}","prompt_tokens":100,"completion_tokens":20,"latency_ms":300,"retries":0,"cache_hit":false,"cost_usd":0.001}"#,
        r#"{"id":"Single_MRO/2007/page_134.pdf-1","turn":0,"phase":"phase2","attempt":0,"prompt":"q","reply":null,"prompt_tokens":null,"completion_tokens":null,"latency_ms":null,"retries":0,"cache_hit":true,"cost_usd":null}"#,
    ];
    std::fs::write(run_dir.join("llm_exchanges.jsonl"), lines.join("\n")).unwrap();
    for _ in 0..2 {
        let out = succeeds(export(&run_dir, &uri).arg("--mongo-triples"));
        assert!(out.contains("2 LLM exchanges"), "{out}");
        assert!(out.contains(&format!("{all} triples")), "{out}");
    }
    assert_eq!(
        db.count("triples", doc! {}),
        all,
        "blank nodes do not double the TBox"
    );
    assert_eq!(db.count("llm_exchanges", doc! {}), 2);
    let e = db.one("llm_exchanges", doc! {"phase": "phase1"});
    assert_eq!(int(e.get_document("tokens").unwrap(), "prompt"), 100);
    assert_eq!(int(&e, "turn"), 0);
    let run = db.one("runs", doc! {});
    let cost = run
        .get_document("results")
        .unwrap()
        .get_document("cost")
        .unwrap();
    assert_eq!(int(cost, "llm_calls"), 2);
    assert_eq!(int(cost, "cache_hits"), 1);
    assert_eq!(int(cost, "prompt_tokens"), 100);
}

#[test]
fn a_malformed_uri_is_refused_before_the_run() {
    let tmp = tempfile::tempdir().unwrap();
    let run_dir = tmp.path().join("run");
    let out = run(eval(&run_dir, 1).args(["--mongo-uri", "http://example.com/db"]));
    assert_eq!(out.code, Some(2));
    assert!(
        out.stderr.starts_with(
            "error: `http://example.com/db` is not a usable MongoDB connection string"
        ),
        "{}",
        out.stderr
    );
    assert!(!run_dir.exists(), "nothing ran");

    let out = run(finkg()
        .arg("export")
        .arg(&run_dir)
        .env("FINKG_MONGO_URI", "mongodb://127.0.0.1:1/x"));
    assert_eq!(out.code, Some(2));
    assert!(out.stderr.contains("run.json"), "{}", out.stderr);

    let out = run(finkg().arg("export").arg(&run_dir));
    assert_eq!(out.code, Some(2));
    assert!(out.stderr.contains("needs `--mongo-uri"), "{}", out.stderr);

    let out = run(finkg().arg("eval").arg(dev_data()).arg("--mongo-triples"));
    assert_eq!(out.code, Some(2));
    assert!(
        out.stderr.contains("`--mongo-triples` needs `--mongo-uri`"),
        "{}",
        out.stderr
    );
}

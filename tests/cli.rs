//! End-to-end tests of the `finkg` binary: every subcommand, its output
//! formats, the run folder of `eval`, the SPARQL guard and malformed input.

use assert_cmd::Command;
use oxigraph::io::{RdfFormat, RdfParser};
use oxigraph::model::Term;
use predicates::prelude::*;
use serde_json::Value;
use std::path::{Path, PathBuf};
use tempfile::TempDir;

const TBOX_GRAPH: &str = "https://w3id.org/finkg/graph/tbox";
const FK: &str = "https://w3id.org/finkg/ns#";

/// A path under the crate's `data/` folder.
fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("data")
        .join(name)
}

fn finkg() -> Command {
    let mut cmd = Command::cargo_bin("finkg").expect("the finkg binary builds");
    cmd.env_remove("FINKG_MONGO_URI");
    cmd.env_remove("FINKG_STORE");
    cmd
}

/// A hand-written conversation in the doc/dialogue layout: a small table
/// with years as columns, and a pre_text sentence holding a number.
const TABLE_CONVERSATION: &str = r#"{
  "id": "Test_ACME/2009/page_7.pdf-1",
  "doc": {
    "pre_text": "acme makes widgets . in 2009 , revenue from services was $ 45.5 million .",
    "post_text": "all amounts are in millions .",
    "table": {
      "2009": {"net sales": "$ 1,500", "operating income": "300", "restructuring": "( 12 )"},
      "2008": {"net sales": "$ 1,200", "operating income": "240", "restructuring": "( 10 )"}
    }
  },
  "dialogue": {
    "conv_questions": ["what was net sales in 2009?", "and in 2008?", "what was the change?"]
  }
}"#;

/// The same page with gold, as `eval` needs it, plus a second conversation
/// so that `--limit 1` has something to leave out.
const GOLD_CONVERSATIONS: &str = r#"[
  {
    "id": "Test_ACME/2009/page_7.pdf-1",
    "doc": {
      "pre_text": "acme makes widgets .",
      "post_text": "",
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
  },
  {
    "id": "Test_BETA/2011/page_3.pdf-2",
    "doc": {
      "pre_text": "beta sells gadgets .",
      "post_text": "",
      "table": {
        "2011": {"total revenue": "80", "net income": "8"},
        "2010": {"total revenue": "64", "net income": "6"}
      }
    },
    "dialogue": {
      "conv_questions": ["what was total revenue in 2011?", "and in 2010?"],
      "executed_answers": [80, 64],
      "conv_answers": ["80", "64"],
      "turn_program": ["80", "64"]
    }
  }
]"#;

/// Writes `text` to `name` in a fresh temporary folder.
fn fixture(name: &str, text: &str) -> (TempDir, PathBuf) {
    let dir = TempDir::new().unwrap();
    let path = dir.path().join(name);
    std::fs::write(&path, text).unwrap();
    (dir, path)
}

fn stdout_of(cmd: &mut Command) -> String {
    let out = cmd.assert().success().get_output().stdout.clone();
    String::from_utf8(out).expect("stdout is UTF-8")
}

fn stderr_of_failure(cmd: &mut Command) -> String {
    let out = cmd.assert().failure().code(2).get_output().stderr.clone();
    String::from_utf8(out).expect("stderr is UTF-8")
}

/// Parses JSON Lines, asserting every line is an object with the turn keys.
fn json_lines(text: &str) -> Vec<Value> {
    text.lines()
        .map(|line| {
            let v: Value = serde_json::from_str(line)
                .unwrap_or_else(|e| panic!("line is not JSON ({e}): {line}"));
            for key in ["id", "turn", "question", "answer", "error"] {
                assert!(v.get(key).is_some(), "key `{key}` missing in {line}");
            }
            v
        })
        .collect()
}

fn assert_number(v: &Value, expected: f64) {
    let got = v
        .as_f64()
        .unwrap_or_else(|| panic!("{v} is not a number (expected {expected})"));
    assert!(
        (got - expected).abs() <= 1e-6 * expected.abs().max(1.0),
        "got {got}, expected {expected}"
    );
}

// ---------------------------------------------------------------- solve

#[test]
fn solve_example_prints_the_first_answer() {
    let out = stdout_of(finkg().arg("solve").arg(data("example.json")));
    let first_turn = out
        .lines()
        .skip_while(|l| !l.starts_with("[0]"))
        .nth(1)
        .expect("a line after the first question");
    assert!(first_turn.contains("60.94"), "first turn: {first_turn}");
    assert!(out.contains("Single_MRO/2007/page_134.pdf-1"));
}

#[test]
fn solve_json_prints_one_json_object_a_turn() {
    let out = stdout_of(finkg().args(["solve", "--json"]).arg(data("example.json")));
    let lines = json_lines(&out);
    assert_eq!(lines.len(), 5, "example.json has five questions");
    for (i, line) in lines.iter().enumerate() {
        assert_eq!(line["turn"], i);
        assert_eq!(line["id"], "Single_MRO/2007/page_134.pdf-1");
        assert!(line["question"].is_string());
    }
    assert_number(&lines[0]["answer"], 60.94);
    assert!(lines[0]["error"].is_null());
}

#[test]
fn ratios_are_printed_with_their_percentage_and_json_keeps_the_fraction() {
    let out = stdout_of(finkg().arg("solve").arg(data("example.json")));
    assert!(out.contains("    -> 1.424025 (142.4%)\n"), "{out}");
    assert!(out.contains("    -> 35.8\n"), "a change is no ratio: {out}");
    let json = stdout_of(finkg().args(["solve", "--json"]).arg(data("example.json")));
    let lines = json_lines(&json);
    assert_number(&lines[4]["answer"], 1.424025);
    assert!(!json.contains('%'), "{json}");
}

// ---------------------------------------------------------------- chat

/// The `-> ...` lines of a text output.
fn answer_lines(out: &str) -> Vec<&str> {
    out.lines()
        .filter(|l| l.trim_start().starts_with("-> "))
        .collect()
}

#[test]
fn chat_answers_a_piped_conversation_as_solve_does() {
    let questions = [
        "what was the weighted average exercise price per share in 2007?",
        "and what was it in 2005?",
        "what was, then, the change over the years?",
    ];
    let mut solve = finkg();
    solve.arg("solve").arg(data("example.json"));
    for q in questions {
        solve.args(["--question", q]);
    }
    let solved = stdout_of(&mut solve);
    let chatted = stdout_of(
        finkg()
            .arg("chat")
            .arg(data("example.json"))
            .write_stdin(questions.join("\n") + "\n"),
    );
    assert_eq!(answer_lines(&chatted), answer_lines(&solved), "{chatted}");
    assert_eq!(
        answer_lines(&chatted),
        ["    -> 60.94", "    -> 25.14", "    -> 35.8"]
    );
    assert!(
        chatted.contains("[2] what was, then, the change over the years?"),
        "{chatted}"
    );
}

#[test]
fn chat_commands_explain_show_query_and_reset() {
    let script = "\
what was the weighted average exercise price per share in 2005?
:explain
:table
:text
:sparql SELECT ?l WHERE { GRAPH ?g { ?r a fk:TableRow ; fk:index 3 ; rdfs:label ?l } }
:sparql DELETE WHERE { ?s ?p ?o }
:bogus
:reset
:explain
what was, then, the change over the years?
:quit
what was the expected volatility in 2006?
";
    let out = stdout_of(
        finkg()
            .arg("chat")
            .arg(data("example.json"))
            .write_stdin(script),
    );
    // :explain marks the source cell in the page's table
    let explained = out.split("    -> 25.14\n").nth(1).unwrap();
    assert!(explained.contains("    formula: value"), "{out}");
    let row = explained
        .lines()
        .find(|l| {
            l.trim_start()
                .starts_with("weighted average exercise price")
        })
        .unwrap();
    assert!(row.ends_with("| [25.14]"), "{row}");
    // :text numbers the sentences
    assert!(out.contains("\n[0] (pre) "), "{out}");
    // :sparql through the guard
    assert!(out.contains("expected volatility\n(1 rows)"), "{out}");
    assert!(out.contains("error: the query is an update"), "{out}");
    assert!(out.contains("unknown command `:bogus`"), "{out}");
    // :reset forgets the answers: the next question is turn 0 again
    assert!(out.contains("nothing to explain yet"), "{out}");
    assert!(
        out.contains("[0] what was, then, the change over the years?"),
        "{out}"
    );
    // :quit ends before the last line
    assert!(!out.contains("expected volatility in 2006"), "{out}");
}

#[test]
fn chat_graph_is_the_pages_turtle() {
    let out = stdout_of(
        finkg()
            .arg("chat")
            .arg(data("example.json"))
            .write_stdin(":graph\n"),
    );
    let turtle = out.split_once('\n').unwrap().1;
    let triples = RdfParser::from_format(RdfFormat::Turtle)
        .for_slice(turtle.as_bytes())
        .collect::<Result<Vec<_>, _>>()
        .expect("the page's Turtle parses");
    assert_eq!(triples.len(), 919, "the page's triples, no TBox");
}

#[test]
fn solve_explain_shows_sparql_and_formula() {
    let out = stdout_of(
        finkg()
            .args(["solve", "--explain"])
            .arg(data("example.json")),
    );
    assert!(out.contains("SELECT"), "{out}");
    assert!(out.contains("formula:"), "{out}");
    assert!(out.contains("60.94"), "{out}");
}

#[test]
fn solve_custom_questions_over_a_table() {
    let (_dir, path) = fixture("table.json", TABLE_CONVERSATION);
    let out = stdout_of(finkg().args(["solve", "--json"]).arg(&path).args([
        "--question",
        "what was net sales in 2009?",
        "--question",
        "what was it in 2008?",
        "--question",
        "what was the operating income in 2008?",
    ]));
    let lines = json_lines(&out);
    assert_eq!(lines.len(), 3, "only the asked questions: {out}");
    assert_eq!(lines[0]["question"], "what was net sales in 2009?");
    assert_number(&lines[0]["answer"], 1500.0);
    assert_eq!(lines[1]["question"], "what was it in 2008?");
    assert_number(&lines[1]["answer"], 1200.0);
    assert_number(&lines[2]["answer"], 240.0);
}

#[test]
fn solve_escapes_control_characters_in_text_output() {
    let (_dir, path) = fixture("table.json", TABLE_CONVERSATION);
    let out = stdout_of(finkg().arg("solve").arg(&path).args([
        "--explain",
        "--question",
        "what was net sales in 2009?\u{1b}[2J\u{7}",
    ]));
    assert!(
        !out.bytes().any(|b| b < 0x20 && b != b'\n' && b != b'\t'),
        "{out:?}"
    );
    assert!(out.contains("\\x1b[2J\\x07"), "{out}");
}

#[test]
fn solve_custom_question_over_the_text() {
    let (_dir, path) = fixture("text.json", TABLE_CONVERSATION);
    let out = stdout_of(
        finkg()
            .args(["solve", "--json"])
            .arg(&path)
            .args(["--question", "what was the revenue from services in 2009?"]),
    );
    let lines = json_lines(&out);
    assert_eq!(lines.len(), 1);
    assert_number(&lines[0]["answer"], 45.5);
}

#[test]
fn solve_original_layout_answers_or_explains_every_turn() {
    let out = stdout_of(
        finkg()
            .args(["solve", "--json"])
            .arg(data("original_layout_sample.json")),
    );
    let lines = json_lines(&out);
    assert!(!lines.is_empty());
    for line in &lines {
        assert!(
            !line["answer"].is_null() || !line["error"].is_null(),
            "turn with neither answer nor error: {line}"
        );
        if let Some(e) = line["error"].as_str() {
            assert!(!e.is_empty(), "empty error: {line}");
        }
    }
    let answered = lines.iter().filter(|l| !l["answer"].is_null()).count();
    assert!(answered > 0, "no turn answered at all");
}

#[test]
fn solve_the_dev_file_prints_every_turn() {
    let out = stdout_of(
        finkg()
            .args(["solve", "--json"])
            .arg(data("convfinqa_dev_public.json")),
    );
    assert_eq!(out.lines().count(), 910);
}

// ---------------------------------------------------------------- eval

#[test]
fn eval_writes_a_run_folder() {
    let (dir, path) = fixture("gold.json", GOLD_CONVERSATIONS);
    let run = dir.path().join("run");
    let out = stdout_of(
        finkg()
            .arg("eval")
            .arg(&path)
            .arg("--out")
            .arg(&run)
            .arg("--no-progress"),
    );
    assert!(out.contains("turn accuracy"), "{out}");

    let predictions = std::fs::read_to_string(run.join("predictions.jsonl")).unwrap();
    let lines = json_lines(&predictions);
    assert_eq!(lines.len(), 5, "one line a turn: {predictions}");
    assert_eq!(lines[0]["id"], "Test_ACME/2009/page_7.pdf-1");
    assert_eq!(lines[0]["question"], "what was net sales in 2009?");
    assert_number(&lines[0]["answer"], 1500.0);
    assert_eq!(lines[4]["id"], "Test_BETA/2011/page_3.pdf-2");
    assert_eq!(lines[4]["turn"], 1);

    let summary: Value =
        serde_json::from_str(&std::fs::read_to_string(run.join("summary.json")).unwrap()).unwrap();
    assert_eq!(summary["turns"]["total"], 5);
    assert_eq!(summary["conversations"], 2);
    let correct = summary["turns"]["correct"].as_u64().unwrap();
    assert!(correct <= 5);

    assert!(run.join("failures.md").is_file());
    let trace = std::fs::read_to_string(run.join("trace.jsonl")).unwrap();
    assert_eq!(trace.lines().count(), 5);
    for line in trace.lines() {
        let v: Value = serde_json::from_str(line).unwrap();
        assert!(v.get("question").is_some() && v.get("answer").is_some());
        assert!(v["correct"].is_boolean(), "scored after answering: {v}");
    }
    let first: Value = serde_json::from_str(trace.lines().next().unwrap()).unwrap();
    assert_number(&first["gold"]["answer"], 1500.0);
    assert_eq!(first["gold"]["text"], "1500");
    assert_eq!(first["gold"]["operations"], "lookup");
    let third: Value = serde_json::from_str(trace.lines().nth(2).unwrap()).unwrap();
    assert_eq!(third["gold"]["program"], "subtract(1500, 1200)");
    assert_eq!(third["gold"]["operations"], "subtract");

    let info: Value =
        serde_json::from_str(&std::fs::read_to_string(run.join("run.json")).unwrap()).unwrap();
    assert_eq!(info["planner"], "rules");
    assert_eq!(info["dataset"], path.display().to_string());
    assert_eq!(
        info["critic"], "deterministic",
        "the default critic: {info}"
    );
    assert_eq!(
        info["max_revisions"], 1,
        "one revision round by default: {info}"
    );
    assert!(info["run_id"].as_str().is_some_and(|id| id.len() > 10));
    assert!(info["finished"].as_str().is_some_and(|t| t.ends_with('Z')));

    let conversations = std::fs::read_to_string(run.join("conversations.jsonl")).unwrap();
    let conversations: Vec<Value> = conversations
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(conversations.len(), 2);
    assert_eq!(conversations[0]["id"], "Test_ACME/2009/page_7.pdf-1");
    assert_eq!(conversations[0]["turns"], 3);
    assert!(conversations[0]["graph"]["triples"].as_u64().unwrap() > 0);
    assert_eq!(conversations[0]["graph"]["observations"], 4);
    let right: u64 = conversations
        .iter()
        .map(|c| c["correct"].as_u64().unwrap())
        .sum();
    assert_eq!(right, correct);

    let folder = finkg::run::RunFolder::read(&run).expect("the run folder reads back");
    assert_eq!(folder.turns.len(), 5);
    assert_eq!(folder.conversations.len(), 2);
    assert!(folder.llm_exchanges.is_empty());
    assert_eq!(folder.summary.unwrap().turns.total, 5);

    // the critic and its revision rounds as asked, recorded and shown
    let other = dir.path().join("run-critic-off");
    finkg()
        .arg("eval")
        .arg(&path)
        .arg("--out")
        .arg(&other)
        .arg("--no-progress")
        .args(["--critic", "off", "--critic-max-revisions", "3"])
        .assert()
        .success();
    let info = read_json(&other.join("run.json"));
    assert_eq!(info["critic"], "off", "{info}");
    assert_eq!(info["max_revisions"], 3, "{info}");
    let shown = stdout_of(finkg().arg("inspect").arg(&other));
    assert!(shown.contains("\ncritic: off\n"), "{shown}");
}

/// Reads a JSON file of a run folder.
fn read_json(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn eval_refuses_a_folder_holding_another_run_unless_forced() {
    let (dir, path) = fixture("gold.json", GOLD_CONVERSATIONS);
    let run = dir.path().join("run");
    let eval = || {
        let mut cmd = finkg();
        cmd.arg("eval")
            .arg(&path)
            .arg("--out")
            .arg(&run)
            .arg("--no-progress");
        cmd
    };
    stdout_of(&mut eval());
    let first = read_json(&run.join("run.json"))["run_id"].clone();
    let err = stderr_of_failure(&mut eval());
    assert!(
        err.contains("holds run") && err.contains("--force"),
        "{err}"
    );
    assert_eq!(
        read_json(&run.join("run.json"))["run_id"],
        first,
        "untouched"
    );
    stdout_of(eval().arg("--force"));
    assert_ne!(read_json(&run.join("run.json"))["run_id"], first);
    assert_eq!(read_json(&run.join("summary.json"))["conversations"], 2);
}

/// A crash leaves whole conversations in `conversations.jsonl` and maybe
/// lines of the next in the other files; `--resume` drops those and ends
/// with the records and summary of a run that was never stopped.
#[test]
fn eval_resume_after_a_crash_gives_the_uninterrupted_run() {
    let dir = TempDir::new().unwrap();
    let (whole, cut) = (dir.path().join("whole"), dir.path().join("cut"));
    let dataset = data("convfinqa_dev_public.json");
    for out in [&whole, &cut] {
        stdout_of(
            finkg()
                .arg("eval")
                .arg(&dataset)
                .args(["--limit", "6", "--no-progress", "--out"])
                .arg(out),
        );
    }
    // the crash: three conversations committed, half a line of the fourth,
    // the fourth's turns partly in predictions and trace, no summary
    let text = |name: &str| std::fs::read_to_string(cut.join(name)).unwrap();
    let conversations = text("conversations.jsonl");
    let lines: Vec<&str> = conversations.lines().collect();
    let fourth_id = serde_json::from_str::<Value>(lines[3]).unwrap()["id"].clone();
    let kept = format!(
        "{}\n{}\n{}\n{}",
        lines[0],
        lines[1],
        lines[2],
        &lines[3][..10]
    );
    std::fs::write(cut.join("conversations.jsonl"), kept).unwrap();
    for name in ["predictions.jsonl", "trace.jsonl", "pages.jsonl"] {
        let through_fourth: String = text(name)
            .lines()
            .take_while(|l| {
                let id = serde_json::from_str::<Value>(l).unwrap()["id"].clone();
                id != lines.get(4).map_or(Value::Null, |l| {
                    serde_json::from_str::<Value>(l).unwrap()["id"].clone()
                })
            })
            .map(|l| format!("{l}\n"))
            .collect();
        assert!(through_fourth.contains(fourth_id.as_str().unwrap()));
        std::fs::write(cut.join(name), format!("{through_fourth}{{\"id\": \"trunc")).unwrap();
    }
    std::fs::remove_file(cut.join("summary.json")).unwrap();
    let mut info = read_json(&cut.join("run.json"));
    info["finished"] = Value::Null;
    std::fs::write(cut.join("run.json"), info.to_string()).unwrap();

    let out = stdout_of(
        finkg()
            .arg("eval")
            .arg("--resume")
            .arg(&cut)
            .arg("--no-progress"),
    );
    assert!(out.contains("turn accuracy"), "{out}");
    let mut a = read_json(&whole.join("summary.json"));
    let mut b = read_json(&cut.join("summary.json"));
    a["seconds"] = Value::Null;
    b["seconds"] = Value::Null;
    assert_eq!(a, b);
    for name in [
        "predictions.jsonl",
        "conversations.jsonl",
        "failures.md",
        "pages.jsonl",
    ] {
        assert_eq!(
            std::fs::read_to_string(whole.join(name)).unwrap(),
            text(name),
            "{name}"
        );
    }
    assert_eq!(
        text("trace.jsonl").lines().count(),
        a["turns"]["total"].as_u64().unwrap() as usize
    );
    let info = read_json(&cut.join("run.json"));
    assert!(info["finished"].is_string() && info["interrupted"] == false);
    // a finished run is not resumed again
    let err = stderr_of_failure(finkg().arg("eval").arg("--resume").arg(&cut));
    assert!(err.contains("has finished"), "{err}");
}

#[test]
fn eval_without_gold_says_so_and_exits_2() {
    let (dir, path) = fixture("table.json", TABLE_CONVERSATION);
    let err = stderr_of_failure(
        finkg()
            .arg("eval")
            .arg(&path)
            .arg("--out")
            .arg(dir.path().join("r")),
    );
    assert!(err.contains("no conversation has gold answers"), "{err}");
    assert!(!dir.path().join("r").exists());
}

#[test]
fn eval_limit_keeps_the_first_conversation() {
    let (dir, path) = fixture("gold.json", GOLD_CONVERSATIONS);
    let run = dir.path().join("limited");
    finkg()
        .arg("eval")
        .arg(&path)
        .arg("--out")
        .arg(&run)
        .args(["--no-progress", "--limit", "1"])
        .assert()
        .success()
        .stdout(predicate::str::contains("turn accuracy"));
    let predictions = std::fs::read_to_string(run.join("predictions.jsonl")).unwrap();
    let lines = json_lines(&predictions);
    assert_eq!(lines.len(), 3);
    assert!(lines
        .iter()
        .all(|l| l["id"] == "Test_ACME/2009/page_7.pdf-1"));
    let summary: Value =
        serde_json::from_str(&std::fs::read_to_string(run.join("summary.json")).unwrap()).unwrap();
    assert_eq!(summary["turns"]["total"], 3);
}

// ---------------------------------------------------------------- kg

#[test]
fn kg_turtle_reparses_and_holds_the_cells() {
    let (_dir, path) = fixture("table.json", TABLE_CONVERSATION);
    let out = stdout_of(finkg().arg("kg").arg(&path).args(["--format", "turtle"]));
    let triples: Vec<_> = RdfParser::from_format(RdfFormat::Turtle)
        .for_slice(out.as_bytes())
        .collect::<Result<_, _>>()
        .expect("the Turtle export re-parses");
    assert!(triples.len() > 50, "{} triples", triples.len());
    let raw_value = format!("{FK}rawValue");
    let has_raw = triples.iter().any(|q| {
        q.predicate.as_str() == raw_value
            && matches!(&q.object, Term::Literal(l) if l.value() == "$ 1,500")
    });
    assert!(has_raw, "no fk:rawValue \"$ 1,500\" in the export");
    let value = format!("{FK}value");
    let has_value = triples.iter().any(|q| {
        q.predicate.as_str() == value
            && matches!(&q.object, Term::Literal(l)
                if l.value().parse::<f64>().ok() == Some(1500.0))
    });
    assert!(has_value, "no fk:value 1500 in the export");
}

#[test]
fn kg_ntriples_exits_zero() {
    let (_dir, path) = fixture("table.json", TABLE_CONVERSATION);
    let out = stdout_of(finkg().arg("kg").arg(&path).args(["--format", "ntriples"]));
    let triples = RdfParser::from_format(RdfFormat::NTriples)
        .for_slice(out.as_bytes())
        .collect::<Result<Vec<_>, _>>()
        .expect("the N-Triples export re-parses");
    assert!(!triples.is_empty());
    assert!(out.contains("\"( 12 )\""), "raw negative cell missing");
}

#[test]
fn kg_nquads_names_the_tbox_graph() {
    let (_dir, path) = fixture("table.json", TABLE_CONVERSATION);
    let out = stdout_of(finkg().arg("kg").arg(&path).args(["--format", "nquads"]));
    assert!(out.contains(&format!("<{TBOX_GRAPH}>")));
    let quads = RdfParser::from_format(RdfFormat::NQuads)
        .for_slice(out.as_bytes())
        .collect::<Result<Vec<_>, _>>()
        .expect("the N-Quads export re-parses");
    assert!(quads
        .iter()
        .any(|q| q.graph_name.to_string().contains("/graph")
            && !q.graph_name.to_string().contains(TBOX_GRAPH)));
}

#[test]
fn kg_all_writes_every_page_in_its_own_graph_and_the_tbox_once() {
    let (_dir, path) = fixture("gold.json", GOLD_CONVERSATIONS);
    let all = stdout_of(
        finkg()
            .arg("kg")
            .arg(&path)
            .args(["--all", "--format", "nquads"]),
    );
    let quads = RdfParser::from_format(RdfFormat::NQuads)
        .for_slice(all.as_bytes())
        .collect::<Result<Vec<_>, _>>()
        .expect("the N-Quads export re-parses");
    let graphs: std::collections::BTreeSet<String> =
        quads.iter().map(|q| q.graph_name.to_string()).collect();
    let expected: std::collections::BTreeSet<String> = [
        format!("<{TBOX_GRAPH}>"),
        "<https://w3id.org/finkg/data/Test_ACME/2009/page_7.pdf-1/graph>".to_string(),
        "<https://w3id.org/finkg/data/Test_BETA/2011/page_3.pdf-2/graph>".to_string(),
    ]
    .into();
    assert_eq!(graphs, expected);
    // each page's quads are exactly what the single-page export writes
    for id in ["Test_ACME/2009/page_7.pdf-1", "Test_BETA/2011/page_3.pdf-2"] {
        let one = stdout_of(
            finkg()
                .arg("kg")
                .arg(&path)
                .args(["--id", id, "--format", "nquads"]),
        );
        // the page's quads are the same; the TBox's are as many (blank
        // node labels differ from one run to the next)
        let graph = format!("/{id}/graph> .");
        let tbox = format!("<{TBOX_GRAPH}> .");
        let part = |text: &str, suffix: &str| {
            let mut lines: Vec<String> = text
                .lines()
                .filter(|l| l.ends_with(suffix))
                .map(str::to_string)
                .collect();
            lines.sort();
            lines
        };
        let page = part(&one, &graph);
        assert!(!page.is_empty(), "{id}");
        assert!(part(&all, &graph) == page, "{id}: the page's quads differ");
        assert_eq!(part(&one, &tbox).len(), part(&all, &tbox).len(), "{id}");
        assert_eq!(
            one.lines().count(),
            page.len() + part(&one, &tbox).len(),
            "{id}: one page and the TBox only"
        );
    }
    let turtle = stdout_of(
        finkg()
            .arg("kg")
            .arg(&path)
            .args(["--all", "--format", "turtle"]),
    );
    let triples = RdfParser::from_format(RdfFormat::Turtle)
        .for_slice(turtle.as_bytes())
        .collect::<Result<Vec<_>, _>>()
        .expect("the Turtle export re-parses");
    assert_eq!(triples.len(), quads.len(), "Turtle merges the same triples");
}

#[test]
fn kg_id_names_a_conversation_and_an_unknown_id_is_an_error() {
    let (_dir, path) = fixture("gold.json", GOLD_CONVERSATIONS);
    let out = stdout_of(finkg().arg("kg").arg(&path).args([
        "--id",
        "Test_BETA/2011/page_3.pdf-2",
        "--format",
        "ntriples",
    ]));
    assert!(out.contains("\"total revenue\""), "{out}");
    assert!(!out.contains("Test_ACME"), "only the named page: {out}");
    let err = stderr_of_failure(finkg().arg("kg").arg(&path).args(["--id", "Nope"]));
    assert!(err.starts_with("error:") && err.contains("`Nope`"), "{err}");
    // --all and --id exclude each other
    finkg()
        .arg("kg")
        .arg(&path)
        .args(["--all", "--id", "Nope"])
        .assert()
        .failure()
        .code(2);
}

#[test]
fn kg_all_refuses_duplicate_ids() {
    let first = GOLD_CONVERSATIONS.find("\n  {").unwrap();
    let second = GOLD_CONVERSATIONS
        .find("\n  {\n    \"id\": \"Test_BETA")
        .unwrap();
    let acme = &GOLD_CONVERSATIONS[first..second];
    let text = format!("[{}{}]", acme, acme.trim_end().trim_end_matches(','));
    let (_dir, path) = fixture("twice.json", &text);
    for sub in [&["kg", "--all"][..], &["eval"], &["solve"]] {
        let mut cmd = finkg();
        cmd.arg(sub[0]).arg(&path).args(&sub[1..]);
        if sub[0] == "eval" {
            cmd.arg("--out").arg(_dir.path().join("run"));
        }
        let err = stderr_of_failure(&mut cmd);
        assert!(
            err.contains("Test_ACME/2009/page_7.pdf-1")
                && err.contains("more than once (conversations 1 and 2)"),
            "{sub:?}: {err}"
        );
    }
}

// ---------------------------------------------------------------- query

const VALUES_QUERY: &str = "SELECT ?v WHERE { GRAPH ?g { ?o fk:value ?v } } LIMIT 3";

#[test]
fn query_json_results() {
    let (_dir, path) = fixture("table.json", TABLE_CONVERSATION);
    let out = stdout_of(
        finkg()
            .arg("query")
            .arg(&path)
            .arg(VALUES_QUERY)
            .args(["--format", "json"]),
    );
    let v: Value = serde_json::from_str(&out).expect("SPARQL JSON results");
    assert_eq!(v["head"]["vars"], serde_json::json!(["v"]));
    assert_eq!(v["results"]["bindings"].as_array().unwrap().len(), 3);
    assert!(out.ends_with("}\n"), "ends with a newline: {out:?}");
}

#[test]
fn query_csv_tsv_and_table_results() {
    let (_dir, path) = fixture("table.json", TABLE_CONVERSATION);
    let csv = stdout_of(
        finkg()
            .arg("query")
            .arg(&path)
            .arg(VALUES_QUERY)
            .args(["--format", "csv"]),
    );
    assert_eq!(csv.lines().next().map(str::trim), Some("v"));
    assert_eq!(csv.lines().count(), 4, "header and three rows: {csv}");
    let tsv = stdout_of(
        finkg()
            .arg("query")
            .arg(&path)
            .arg(VALUES_QUERY)
            .args(["--format", "tsv"]),
    );
    assert_eq!(tsv.lines().next().map(str::trim), Some("?v"));
    assert_eq!(tsv.lines().count(), 4, "{tsv}");
    let table = stdout_of(
        finkg()
            .arg("query")
            .arg(&path)
            .arg(VALUES_QUERY)
            .args(["--format", "table"]),
    );
    assert!(table.starts_with("?v"), "{table}");
    assert!(table.lines().count() >= 4, "{table}");
}

#[test]
fn query_finds_a_cell_by_its_labels() {
    let (_dir, path) = fixture("table.json", TABLE_CONVERSATION);
    let out = stdout_of(
        finkg()
            .arg("query")
            .arg(&path)
            .arg(
                "SELECT ?raw WHERE { GRAPH ?g { ?o fk:row ?r ; fk:column ?c ; fk:rawValue ?raw . \
         ?r rdfs:label \"operating income\" . ?c rdfs:label \"2008\" } }",
            )
            .args(["--format", "csv"]),
    );
    assert_eq!(out.lines().nth(1).map(str::trim), Some("240"), "{out}");
}

#[test]
fn query_id_runs_against_the_named_conversation() {
    let (_dir, path) = fixture("gold.json", GOLD_CONVERSATIONS);
    let labels = "SELECT ?l WHERE { GRAPH ?g { ?r a fk:TableRow ; rdfs:label ?l } } ORDER BY ?l";
    let first = stdout_of(
        finkg()
            .arg("query")
            .arg(&path)
            .arg(labels)
            .args(["--format", "csv"]),
    );
    assert!(first.contains("net sales"), "{first}");
    let second = stdout_of(finkg().arg("query").arg(&path).arg(labels).args([
        "--id",
        "Test_BETA/2011/page_3.pdf-2",
        "--format",
        "csv",
    ]));
    assert!(
        second.contains("total revenue") && !second.contains("net sales"),
        "{second}"
    );
}

#[test]
fn query_batch_answers_each_line_against_its_conversation() {
    let (dir, path) = fixture("gold.json", GOLD_CONVERSATIONS);
    let value = |row: &str, col: &str| {
        format!(
            "SELECT ?value WHERE {{ GRAPH ?g {{ ?o fk:row/rdfs:label \"{row}\" ; \
             fk:column/rdfs:label \"{col}\" ; fk:value ?value }} }}"
        )
    };
    let lines = [
        serde_json::json!({"id": "Test_ACME/2009/page_7.pdf-1", "sparql": value("net sales", "2008"), "key": "a"}),
        serde_json::json!({"id": "Test_BETA/2011/page_3.pdf-2", "sparql": value("net income", "2011"), "key": "b"}),
        serde_json::json!({"id": "Test_BETA/2011/page_3.pdf-2", "sparql": "ASK { GRAPH ?g { ?s fk:value ?v FILTER(?v = 64) } }"}),
        serde_json::json!({"id": "Nope", "sparql": "ASK {}"}),
        serde_json::json!({"id": "Test_BETA/2011/page_3.pdf-2", "sparql": "DELETE WHERE { ?s ?p ?o }"}),
    ];
    let queries = dir.path().join("queries.jsonl");
    std::fs::write(
        &queries,
        lines.iter().map(|l| format!("{l}\n")).collect::<String>(),
    )
    .unwrap();
    let out = stdout_of(
        finkg()
            .arg("query")
            .arg(&path)
            .arg("--queries")
            .arg(&queries),
    );
    let answers: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(answers.len(), 5, "{out}");
    assert_eq!(answers[0]["key"], "a", "input keys are kept");
    let bound = |a: &Value| a["results"]["results"]["bindings"][0]["value"]["value"].clone();
    assert_eq!(bound(&answers[0]), "1200");
    assert_eq!(bound(&answers[1]), "8");
    assert_eq!(answers[2]["results"]["boolean"], true);
    assert!(answers[3]["error"].as_str().unwrap().contains("`Nope`"));
    assert!(answers[4]["error"].as_str().unwrap().contains("update"));
    // a malformed line is an error naming the file and line
    std::fs::write(&queries, "{\"id\": 1}\n").unwrap();
    let err = stderr_of_failure(
        finkg()
            .arg("query")
            .arg(&path)
            .arg("--queries")
            .arg(&queries),
    );
    assert!(err.contains("queries.jsonl: line 1"), "{err}");
}

fn refused(sparql: &str) -> String {
    let (_dir, path) = fixture("table.json", TABLE_CONVERSATION);
    let err = stderr_of_failure(finkg().arg("query").arg(&path).arg(sparql));
    assert!(err.starts_with("error:"), "{err}");
    err
}

#[test]
fn query_refuses_service() {
    let err = refused("SELECT ?v WHERE { SERVICE <http://example.org/sparql> { ?o fk:value ?v } }");
    assert!(err.contains("SERVICE"), "{err}");
}

#[test]
fn query_refuses_updates() {
    let err = refused(
        "INSERT DATA { <http://example.org/a> <http://example.org/b> <http://example.org/c> }",
    );
    assert!(err.contains("update"), "{err}");
}

#[test]
fn query_refuses_construct() {
    let err = refused("CONSTRUCT { ?s ?p ?o } WHERE { GRAPH ?g { ?s ?p ?o } }");
    assert!(err.contains("CONSTRUCT"), "{err}");
}

/// A runaway query is cancelled in flight: a COUNT over a cartesian product
/// returns one row only at the end, so a limit checked between rows would
/// never fire; a sort over a 5-way product would fill the memory.
#[test]
fn query_runaway_products_are_stopped_within_their_limit() {
    for sparql in [
        "SELECT (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?a ?b ?c . ?d ?e ?f . ?h ?i ?j } }",
        "SELECT * WHERE { GRAPH ?g { ?a ?b ?c . ?d ?e ?f . ?h ?i ?j . ?k ?l ?m . ?n ?o ?p } } \
         ORDER BY DESC(?c) LIMIT 1",
        "SELECT * WHERE { GRAPH ?g { ?a ?b ?c . ?d ?e ?f . ?h ?i ?j } FILTER(CONCAT(STR(?c), STR(?f), STR(?j)) = \"none\") }",
    ] {
        // only the in-flight watchdog says "query stopped": a limit checked
        // between rows would never return
        let err = refused(sparql);
        assert!(err.contains("query stopped"), "{sparql}: {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
    }
}

#[test]
fn query_deep_nesting_is_refused_and_a_batch_goes_on() {
    let err = refused(&format!("SELECT * WHERE {}", "(".repeat(10_000)));
    assert!(err.contains("nests brackets"), "{err}");
    let (dir, path) = fixture("table.json", TABLE_CONVERSATION);
    let id = "Test_ACME/2009/page_7.pdf-1";
    let deep = format!(
        "SELECT ?x WHERE {{ BIND({}1{} AS ?x) }}",
        "(".repeat(4000),
        ")".repeat(4000)
    );
    let lines = [
        serde_json::json!({"id": id, "sparql": deep}),
        serde_json::json!({"id": id, "sparql": "ASK {}"}),
    ];
    let queries = dir.path().join("queries.jsonl");
    std::fs::write(
        &queries,
        lines.iter().map(|l| format!("{l}\n")).collect::<String>(),
    )
    .unwrap();
    let out = stdout_of(
        finkg()
            .arg("query")
            .arg(&path)
            .arg("--queries")
            .arg(&queries),
    );
    let answers: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(answers.len(), 2, "{out}");
    assert!(
        answers[0]["error"]
            .as_str()
            .unwrap()
            .contains("nests brackets"),
        "{out}"
    );
    assert_eq!(answers[1]["results"]["boolean"], true);
}

#[test]
fn query_syntax_error_positions_count_the_users_lines() {
    let err = refused("SELECT ?x\nWHERE { ?x ?y }");
    assert!(err.contains("error at 2:"), "{err}");
}

// ---------------------------------------------------------------- bad input

#[test]
fn malformed_json_names_the_file_and_line() {
    let (_dir, path) = fixture("broken.json", "{\n  \"id\": \"x\",\n  \"doc\": [1, 2,\n");
    let err = stderr_of_failure(finkg().arg("solve").arg(&path));
    assert!(err.starts_with("error:"), "{err}");
    assert!(err.contains("broken.json"), "{err}");
    assert!(err.contains("line"), "{err}");
}

#[test]
fn missing_file_is_an_error() {
    let dir = TempDir::new().unwrap();
    let path = dir.path().join("does_not_exist.json");
    for sub in ["solve", "kg"] {
        let err = stderr_of_failure(finkg().arg(sub).arg(&path));
        assert!(err.starts_with("error:"), "{err}");
        assert!(err.contains("does_not_exist.json"), "{err}");
    }
}

#[test]
fn wrong_shape_is_an_error() {
    let (_dir, path) = fixture("shape.json", r#"{"dev": [{"id": "x"}]}"#);
    let err = stderr_of_failure(finkg().arg("solve").arg(&path));
    assert!(err.starts_with("error:"), "{err}");
    assert!(err.contains("shape.json"), "{err}");
    let (_dir2, path2) = fixture("scalar.json", "42");
    let err = stderr_of_failure(finkg().arg("kg").arg(&path2));
    assert!(err.starts_with("error:"), "{err}");
}

// ---------------------------------------------------------------- help

#[test]
fn subcommand_help_lists_the_options() {
    let cases: &[(&str, &[&str])] = &[
        ("solve", &["--json", "--explain", "--question", "--planner"]),
        (
            "eval",
            &[
                "--out",
                "--limit",
                "--no-progress",
                "--mongo-uri",
                "FINKG_MONGO_URI",
                "--mongo-triples",
            ],
        ),
        (
            "export",
            &[
                "--mongo-uri",
                "--mongo-triples",
                "--dataset",
                "--batch-size",
            ],
        ),
        ("kg", &["--format", "turtle", "nquads", "--all", "--id"]),
        ("query", &["--format", "json", "csv", "--id", "--queries"]),
        ("inspect", &["RUN_DIR", "[ID]", "--failed", "--json"]),
        ("chat", &["FILE", "--id", "--planner", "--llm-model"]),
    ];
    for (sub, options) in cases {
        let out = stdout_of(finkg().args([*sub, "--help"]));
        for option in *options {
            assert!(
                out.contains(option),
                "`{sub} --help` lacks {option}:\n{out}"
            );
        }
    }
    // the MongoDB options under their own heading, not the LLM planner's
    let out = stdout_of(finkg().args(["eval", "--help"]));
    let mongo = out
        .split("MongoDB export:")
        .nth(1)
        .unwrap_or_else(|| panic!("no MongoDB heading:\n{out}"));
    assert!(mongo.contains("--mongo-uri") && mongo.contains("--mongo-triples"));
    let before = out.split("MongoDB export:").next().unwrap();
    assert!(!before.contains("--mongo-uri"), "{out}");
}

#[test]
fn top_level_help_lists_the_subcommands() {
    let out = stdout_of(finkg().arg("--help"));
    for sub in ["solve", "eval", "export", "kg", "query", "ontology"] {
        assert!(out.contains(sub), "{out}");
    }
}

#[test]
fn ontology_build_learns_a_lexicon_that_check_accepts() {
    let dir = tempfile::tempdir().unwrap();
    for f in ["core.ttl", "patterns.ttl", "shapes.ttl"] {
        std::fs::copy(format!("ontology/{f}"), dir.path().join(f)).unwrap();
    }
    let out = dir.path().join("lexicon.ttl");
    finkg()
        .args(["ontology", "build", "data/examples.json", "--out"])
        .arg(&out)
        .assert()
        .success()
        .stdout(predicates::str::contains("concepts"));
    let turtle = std::fs::read_to_string(&out).unwrap();
    assert!(turtle.contains("skos:ConceptScheme"));
    finkg()
        .args(["ontology", "check"])
        .arg(dir.path())
        .assert()
        .success()
        .stdout(predicates::str::contains("every fk: term used is declared"));
}

#[test]
fn ontology_check_refuses_an_undeclared_term() {
    let dir = tempfile::tempdir().unwrap();
    for f in ["core.ttl", "patterns.ttl", "shapes.ttl", "lexicon.ttl"] {
        std::fs::copy(format!("ontology/{f}"), dir.path().join(f)).unwrap();
    }
    std::fs::write(
        dir.path().join("extra.ttl"),
        "@prefix fk: <https://w3id.org/finkg/ns#> .\nfk:x fk:undeclaredProperty 1 .\n",
    )
    .unwrap();
    finkg()
        .args(["ontology", "check"])
        .arg(dir.path())
        .assert()
        .code(2)
        .stderr(predicates::str::contains("undeclaredProperty"));
    std::fs::write(
        dir.path().join("extra.ttl"),
        "@prefix fk: <oops> . fk:x fk:y",
    )
    .unwrap();
    finkg()
        .args(["ontology", "check"])
        .arg(dir.path())
        .assert()
        .code(2)
        .stderr(predicates::str::contains("extra.ttl"));
}

#[test]
fn no_lexicon_is_accepted_by_solve_and_eval() {
    finkg()
        .args(["solve", "data/example.json", "--json", "--no-lexicon"])
        .assert()
        .success();
    let dir = tempfile::tempdir().unwrap();
    finkg()
        .args([
            "eval",
            "data/examples.json",
            "--no-progress",
            "--no-lexicon",
            "--out",
        ])
        .arg(dir.path())
        .assert()
        .success();
}

#[cfg(not(feature = "mongodb"))]
#[test]
fn mongodb_export_needs_the_feature() {
    const REFUSAL: &str =
        "error: MongoDB export needs the mongodb feature: cargo install/build --features mongodb\n";
    let (dir, path) = fixture("gold.json", GOLD_CONVERSATIONS);
    let run = dir.path().join("run");
    let uri = "mongodb://127.0.0.1:27017/finkg";
    let mut eval = finkg();
    eval.arg("eval").arg(&path).arg("--out").arg(&run);
    let mut from_env = finkg();
    from_env
        .arg("eval")
        .arg(&path)
        .arg("--out")
        .arg(&run)
        .env("FINKG_MONGO_URI", uri);
    let mut export = finkg();
    export.arg("export").arg(&run);
    for cmd in [
        eval.args(["--mongo-uri", uri]),
        &mut from_env,
        export.args(["--mongo-uri", uri]),
        finkg().arg("export").arg(&run),
    ] {
        cmd.assert().code(2).stdout("").stderr(REFUSAL);
    }
    assert!(!run.exists(), "refused before running");
    // the password of a URI in the environment is not shown in help
    let help = stdout_of(
        finkg()
            .args(["eval", "--help"])
            .env("FINKG_MONGO_URI", "mongodb://u:secret@h/db"),
    );
    assert!(!help.contains("secret"), "{help}");
}

/// Regression: a closed stdout exits 0 quietly, but only a closed stdout (a
/// MongoDB server's broken connection once passed for one and hid the error).
#[test]
fn a_closed_stdout_is_no_error() {
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_finkg"))
        .arg("solve")
        .arg(data("convfinqa_dev_public.json"))
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
}

/// Runs `finkg ARGS` with stdout a pipe whose reader is already closed
/// (as `| head -1` leaves it once `head` is done): every write fails with
/// EPIPE. Returns the exit status and stderr.
fn with_closed_stdout(args: &[&std::ffi::OsStr]) -> (std::process::ExitStatus, String) {
    let (reader, writer) = std::io::pipe().expect("a pipe");
    drop(reader);
    let out = std::process::Command::new(assert_cmd::cargo::cargo_bin("finkg"))
        .args(args)
        .env_remove("FINKG_MONGO_URI")
        .env_remove("FINKG_STORE")
        .stdin(std::process::Stdio::null())
        .stdout(writer)
        .stderr(std::process::Stdio::piped())
        .output()
        .expect("finkg runs");
    (
        out.status,
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn a_closed_stdout_ends_every_command_quietly() {
    let (dir, path) = fixture("gold.json", GOLD_CONVERSATIONS);
    let run = dir.path().join("run");
    stdout_of(
        finkg()
            .arg("eval")
            .arg(&path)
            .arg("--out")
            .arg(&run)
            .arg("--no-progress"),
    );
    let dev = data("convfinqa_dev_public.json");
    let again = dir.path().join("again");
    let commands: Vec<Vec<std::ffi::OsString>> = vec![
        vec![
            "ontology".into(),
            "check".into(),
            data("../ontology").into(),
        ],
        vec!["kg".into(), dev.clone().into(), "--all".into()],
        vec![
            "query".into(),
            dev.clone().into(),
            "SELECT * WHERE { GRAPH ?g { ?s ?p ?o } }".into(),
        ],
        vec!["solve".into(), dev.clone().into()],
        vec!["solve".into(), path.clone().into(), "--json".into()],
        vec!["inspect".into(), run.clone().into()],
        vec!["inspect".into(), run.into(), "--json".into()],
        vec![
            "eval".into(),
            path.into(),
            "--out".into(),
            again.into(),
            "--no-progress".into(),
        ],
    ];
    for args in &commands {
        let args: Vec<&std::ffi::OsStr> = args.iter().map(|a| a.as_os_str()).collect();
        let (status, stderr) = with_closed_stdout(&args);
        assert!(
            !stderr.contains("panicked") && !stderr.contains("error"),
            "{args:?}: {stderr}"
        );
        assert_eq!(status.code(), Some(0), "{args:?}: {stderr}");
    }
}

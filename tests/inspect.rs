//! End-to-end tests of `finkg inspect` and of what `eval` writes for it
//! (`pages.jsonl`, `failures.md` grouped by cause, the plots): a small
//! dataset with one wrong turn is evaluated, then the run folder read back.

use assert_cmd::Command;
use serde_json::Value;
use std::path::{Path, PathBuf};
use tempfile::TempDir;

/// Two conversations with gold: ACME's three turns are right (one reads
/// the text), BETA's second gold is 65 where the page prints 64, so that
/// turn is wrong with a value read from the page.
const DATASET: &str = r#"[
  {
    "id": "Test_ACME/2009/page_7.pdf-1",
    "doc": {
      "pre_text": "acme makes widgets . in 2009 , revenue from services was $ 45.5 million .",
      "post_text": "",
      "table": {
        "2009": {"net sales": "$ 1,500", "operating income": "300"},
        "2008": {"net sales": "$ 1,200", "operating income": "240"}
      }
    },
    "dialogue": {
      "conv_questions": ["what was net sales in 2009?", "and in 2008?",
                         "what was the revenue from services in 2009?"],
      "executed_answers": [1500, 1200, 45.5],
      "conv_answers": ["1500", "1200", "45.5"],
      "turn_program": ["1500", "1200", "45.5"]
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
      "executed_answers": [80, 65],
      "conv_answers": ["80", "65"],
      "turn_program": ["80", "65"]
    }
  }
]"#;

fn finkg() -> Command {
    let mut cmd = Command::cargo_bin("finkg").expect("the finkg binary builds");
    cmd.env_remove("FINKG_MONGO_URI");
    cmd
}

/// Evaluates [`DATASET`] into a fresh run folder.
fn run_folder() -> (TempDir, PathBuf) {
    let dir = TempDir::new().unwrap();
    let data = dir.path().join("gold.json");
    std::fs::write(&data, DATASET).unwrap();
    let run = dir.path().join("run");
    finkg()
        .arg("eval")
        .arg(&data)
        .arg("--out")
        .arg(&run)
        .arg("--no-progress")
        .assert()
        .success();
    (dir, run)
}

fn stdout_of(cmd: &mut Command) -> String {
    let out = cmd.assert().success().get_output().stdout.clone();
    String::from_utf8(out).expect("stdout is UTF-8")
}

fn stderr_of_failure(cmd: &mut Command) -> String {
    let out = cmd.assert().failure().code(2).get_output().stderr.clone();
    String::from_utf8(out).expect("stderr is UTF-8")
}

fn inspect(run: &Path) -> Command {
    let mut cmd = finkg();
    cmd.arg("inspect").arg(run);
    cmd
}

#[test]
fn the_overview_shows_accuracy_causes_and_the_worst_conversation() {
    let (_dir, run) = run_folder();
    let out = stdout_of(&mut inspect(&run));
    assert!(
        out.contains("\ncritic: deterministic, at most 1 revision a turn\n"),
        "the run's critic: {out}"
    );
    assert!(
        out.contains("turn accuracy:           80.0% (4/5)"),
        "{out}"
    );
    assert!(
        out.contains("conversation accuracy:   50.0% (1/2)"),
        "{out}"
    );
    assert!(
        out.contains("1  the right operation over a wrong value"),
        "{out}"
    );
    let worst = out.split("worst conversations:").nth(1).unwrap();
    assert!(
        worst.contains("1/2  Test_BETA/2011/page_3.pdf-2  first wrong: turn 1"),
        "{out}"
    );
    assert!(
        !worst.contains("Test_ACME"),
        "a right conversation is not among the worst: {out}"
    );
    assert!(
        !out.contains('\u{1b}'),
        "no escapes when stdout is a pipe: {out:?}"
    );
}

#[test]
fn a_conversation_by_prefix_marks_its_sources_in_the_table_and_text() {
    let (_dir, run) = run_folder();
    let out = stdout_of(inspect(&run).arg("Test_AC"));
    assert!(
        out.starts_with("== Test_ACME/2009/page_7.pdf-1 — 3/3 turns right"),
        "{out}"
    );
    assert!(out.contains("[1] ✔ and in 2008?"), "{out}");
    // turn 1's table marks the 2008 cell of net sales, and only it
    let turn1 = out
        .split("[1] ")
        .nth(1)
        .unwrap()
        .split("[2] ")
        .next()
        .unwrap();
    let row = turn1
        .lines()
        .find(|l| l.trim_start().starts_with("net sales "))
        .unwrap();
    assert!(row.ends_with("| $ 1,500 | [$ 1,200]"), "{row}");
    assert_eq!(turn1.matches('[').count(), 1, "{turn1}");
    // turn 2 marks the number in its sentence
    let turn2 = out.split("[2] ").nth(1).unwrap();
    assert!(
        turn2.contains("in the pre text: in 2009 , revenue from services was $ [45.5] million ."),
        "{turn2}"
    );
    assert!(
        !out.contains("PREFIX"),
        "queries without the prefix block: {out}"
    );
    assert!(out.contains("SELECT ?value ?source"), "{out}");
}

#[test]
fn failed_shows_only_the_wrong_turns_with_gold_and_cause() {
    let (_dir, run) = run_folder();
    let out = stdout_of(inspect(&run).arg("Test_BETA").arg("--failed"));
    assert!(!out.contains("[0]"), "the right turn is left out: {out}");
    assert!(out.contains("[1] ✘ and in 2010?"), "{out}");
    assert!(out.contains("answer: 64\n    gold:   65"), "{out}");
    assert!(
        out.contains("why wrong: the right operation over a wrong value"),
        "{out}"
    );
    let out = stdout_of(inspect(&run).arg("Test_ACME").arg("--failed"));
    assert!(out.contains("no wrong turn"), "{out}");
}

#[test]
fn json_holds_the_turns_with_their_source_locations() {
    let (_dir, run) = run_folder();
    let out = stdout_of(inspect(&run).arg("Test_ACME").arg("--json"));
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["id"], "Test_ACME/2009/page_7.pdf-1");
    let turns = v["turns"].as_array().unwrap();
    assert_eq!(turns.len(), 3);
    let cell = &turns[1]["values"][0]["location"];
    assert_eq!(cell["kind"], "cell");
    let net_sales = v["page"]["rows"]
        .as_array()
        .unwrap()
        .iter()
        .position(|r| r["label"] == "net sales")
        .unwrap();
    assert_eq!(cell["row"], net_sales);
    assert_eq!(
        v["page"]["columns"][cell["column"].as_u64().unwrap() as usize],
        "2008"
    );
    assert_eq!(turns[2]["values"][0]["location"]["kind"], "sentence");
    assert_eq!(turns[0]["correct"], true);

    let out = stdout_of(inspect(&run).arg("--json"));
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["summary"]["turns"]["correct"], 4);
    assert_eq!(v["misses_by_cause"][0]["cause"]["kind"], "value");
    assert_eq!(v["misses_by_cause"][0]["examples"][0]["turn"], 1);
}

#[test]
fn bad_folders_and_ids_are_one_line_errors() {
    let (dir, run) = run_folder();
    let err = stderr_of_failure(&mut inspect(&dir.path().join("missing")));
    assert!(err.contains("is not a folder"), "{err}");
    let err = stderr_of_failure(&mut inspect(dir.path()));
    assert!(err.contains("holds no run (no run.json)"), "{err}");
    let err = stderr_of_failure(inspect(&run).arg("Test_GAMMA"));
    assert!(
        err.contains("no conversation of the run has an id starting with `Test_GAMMA`"),
        "{err}"
    );
    let err = stderr_of_failure(inspect(&run).arg("Test_"));
    assert!(
        err.contains("`Test_` names 2 conversations: `Test_ACME/2009/page_7.pdf-1`, `Test_BETA/2011/page_3.pdf-2`"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
}

#[test]
fn failures_md_groups_the_misses_by_cause_without_prefixes() {
    let (_dir, run) = run_folder();
    let md = std::fs::read_to_string(run.join("failures.md")).unwrap();
    assert!(md.contains("1 wrong turns of 5 scored"), "{md}");
    assert!(
        md.contains("## the right operation over a wrong value (1)\n"),
        "{md}"
    );
    assert!(
        md.contains("### Test_BETA/2011/page_3.pdf-2 — turn 1\n"),
        "{md}"
    );
    assert!(md.contains("```sparql\n# value\nSELECT"), "{md}");
    assert!(!md.contains("PREFIX fk:"), "{md}");
    assert!(
        !md.contains("Test_ACME"),
        "right turns are not failures: {md}"
    );
}

#[test]
fn eval_draws_the_accuracy_charts_and_inspect_names_them() {
    let (_dir, run) = run_folder();
    let charts = [
        "accuracy_by_turn.svg",
        "accuracy_by_operation.svg",
        "accuracy_by_table_size.svg",
        "accuracy_by_value_source.svg",
    ];
    for name in charts {
        let svg = std::fs::read_to_string(run.join(name)).unwrap();
        assert!(svg.starts_with("<svg"), "{name}: {svg}");
        assert!(svg.contains("turn accuracy by"), "{name} has its title");
    }
    let by_turn = std::fs::read_to_string(run.join("accuracy_by_turn.svg")).unwrap();
    for bar in ["100.0% (2/2)", "50.0% (1/2)", "100.0% (1/1)"] {
        assert!(by_turn.contains(bar), "turns 0, 1 and 2: {bar}");
    }
    let by_source = std::fs::read_to_string(run.join("accuracy_by_value_source.svg")).unwrap();
    assert!(
        by_source.contains("text only"),
        "ACME's third turn reads the text"
    );
    assert!(
        !run.join("llm_latency_per_turn.svg").exists(),
        "a rules run has no LLM charts"
    );
    let out = stdout_of(&mut inspect(&run));
    let plots = out.split("plots:").nth(1).unwrap();
    for name in charts {
        assert!(plots.contains(&*run.join(name).to_string_lossy()), "{out}");
    }
}

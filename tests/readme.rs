//! The README against the code: every code fence is closed and names its
//! language, every `$ finkg ...` example in a `text` block prints what the
//! README shows (up to a line `...` where the README cuts it short), and
//! the figures it quotes from longer runs (the interoperability check's
//! triple count, the `inspect` example) are what the code gives today.

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn readme() -> String {
    std::fs::read_to_string(root().join("README.md")).expect("README.md reads")
}

/// A fenced block: its language, first line number (1-based) and lines.
#[derive(Debug)]
struct Block {
    language: String,
    line: usize,
    lines: Vec<String>,
}

/// The fenced blocks of a Markdown text; an error names an unclosed fence.
fn blocks(text: &str) -> Result<Vec<Block>, String> {
    let mut out = Vec::new();
    let mut open: Option<Block> = None;
    for (i, line) in text.lines().enumerate() {
        let Some(info) = line.trim_start().strip_prefix("```") else {
            if let Some(b) = open.as_mut() {
                b.lines.push(line.to_string());
            }
            continue;
        };
        match open.take() {
            Some(b) => {
                if !info.trim().is_empty() {
                    return Err(format!(
                        "line {}: a fence that opens `{info}` while the block of line {} is open",
                        i + 1,
                        b.line
                    ));
                }
                out.push(b);
            }
            None => {
                open = Some(Block {
                    language: info.trim().to_string(),
                    line: i + 1,
                    lines: Vec::new(),
                })
            }
        }
    }
    match open {
        Some(b) => Err(format!(
            "the block opened at line {} is never closed",
            b.line
        )),
        None => Ok(out),
    }
}

#[test]
fn every_code_fence_is_closed_and_names_its_language() {
    let blocks = blocks(&readme()).unwrap_or_else(|e| panic!("README.md: {e}"));
    assert!(blocks.len() > 20, "the README's examples were found");
    for b in &blocks {
        assert!(
            !b.language.is_empty(),
            "README.md line {}: name the block's language (```text, ```sh)",
            b.line
        );
    }
}

#[test]
fn the_fence_check_finds_an_unclosed_block() {
    let err = blocks("# a\n\n```sh\ncargo test\n\n## b\n\n```text\nx\n```\n").unwrap_err();
    assert!(err.contains("line 8"), "{err}");
    assert!(blocks("```sh\nx\n").is_err());
}

/// One `$ command` of a text block and the output the README shows for it.
struct Example {
    line: usize,
    command: String,
    output: Vec<String>,
    /// The README cut the output with `...`: compare its lines as a prefix.
    cut: bool,
}

/// The `$ ` commands of the README's `text` blocks, continuation lines
/// (`\` at the end) joined.
fn examples(text: &str) -> Vec<Example> {
    let mut out = Vec::new();
    for b in blocks(text).unwrap_or_default() {
        if b.language != "text" {
            continue;
        }
        let mut lines = b.lines.iter().enumerate().peekable();
        while let Some((i, line)) = lines.next() {
            let Some(first) = line.strip_prefix("$ ") else {
                continue;
            };
            let mut command = first.trim_end_matches('\\').trim().to_string();
            let mut last = line.clone();
            while last.ends_with('\\') {
                let Some((_, next)) = lines.next() else { break };
                command.push(' ');
                command.push_str(next.trim_end_matches('\\').trim());
                last = next.clone();
            }
            let mut output = Vec::new();
            let mut cut = false;
            while let Some((_, next)) = lines.peek() {
                if next.starts_with("$ ") {
                    break;
                }
                let next = lines.next().map(|(_, l)| l.clone()).unwrap_or_default();
                if next.trim() == "..." {
                    cut = true;
                    // the rest of this command's output is not shown
                    while lines.peek().is_some_and(|(_, l)| !l.starts_with("$ ")) {
                        lines.next();
                    }
                    break;
                }
                output.push(next);
            }
            out.push(Example {
                line: b.line + i + 1,
                command,
                output,
                cut,
            });
        }
    }
    out
}

fn bin_dir() -> PathBuf {
    let exe = PathBuf::from(env!("CARGO_BIN_EXE_finkg"));
    exe.parent().expect("the binary's folder").to_path_buf()
}

/// Runs a README command with `finkg` on the PATH, from the crate's folder.
fn run(command: &str, dir: &Path) -> String {
    let path = format!(
        "{}:{}",
        bin_dir().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let out = Command::new("sh")
        .arg("-c")
        .arg(command)
        .current_dir(dir)
        .env("PATH", path)
        .env("NO_COLOR", "1")
        .env_remove("FINKG_MONGO_URI")
        .output()
        .expect("sh runs");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Commands not run here: they write files of the tree, need a server or
/// a model, run until stopped, or take long (`inspect` is checked by a
/// test of its own below, `serve` by tests/serve.rs).
const NOT_RUN: [&str; 8] = [
    "finkg eval",
    "finkg ontology build",
    "--planner llm",
    "--planner agent",
    "finkg export",
    "finkg inspect",
    "finkg serve",
    "curl ",
];

/// A fresh folder that sees the crate's `data/` and `ontology/`, where the
/// examples run in README order (a file one writes, the next reads).
fn workspace() -> tempfile::TempDir {
    let dir = tempfile::TempDir::new().unwrap();
    for name in ["data", "ontology"] {
        std::os::unix::fs::symlink(root().join(name), dir.path().join(name)).unwrap();
    }
    dir
}

fn assert_prints(e: &Example, actual: &str) {
    let actual: Vec<&str> = actual.lines().map(str::trim_end).collect();
    let expected: Vec<&str> = e.output.iter().map(|l| l.trim_end()).collect();
    let actual = if e.cut {
        &actual[..expected.len().min(actual.len())]
    } else {
        &actual[..]
    };
    assert_eq!(
        actual,
        &expected[..],
        "README.md line {}: `{}` prints otherwise",
        e.line,
        e.command
    );
}

#[test]
fn command_examples_print_what_the_readme_shows() {
    let examples = examples(&readme());
    let dir = workspace();
    let mut ran = Vec::new();
    for e in &examples {
        if NOT_RUN.iter().any(|s| e.command.contains(s)) {
            continue;
        }
        assert_prints(e, &run(&e.command, dir.path()));
        ran.push(e.command.clone());
    }
    // the examples this test must find (a renamed one fails here)
    for must in [
        "finkg solve data/example.json",
        "finkg solve data/example.json --json | head -3",
        "finkg ontology check",
        "finkg chat data/example.json",
        "ASK { ?s ?p ?o }",
        "--queries q.jsonl",
    ] {
        assert!(
            ran.iter().any(|c| c.contains(must)),
            "no README example runs `{must}`: {ran:#?}"
        );
    }
}

#[test]
fn the_inspect_example_is_what_inspect_prints() {
    let readme = readme();
    let examples = examples(&readme);
    let inspect: Vec<&Example> = examples
        .iter()
        .filter(|e| e.command.starts_with("finkg inspect runs/public "))
        .collect();
    assert!(
        !inspect.is_empty(),
        "the README shows `finkg inspect runs/public ID`"
    );
    // the conversation alone, evaluated into runs/public of a fresh folder
    let dir = tempfile::TempDir::new().unwrap();
    let data: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(root().join("data/convfinqa_dev_public.json")).unwrap(),
    )
    .unwrap();
    for e in inspect {
        let id = e.command.split_whitespace().nth(3).unwrap();
        let conversations: Vec<&serde_json::Value> = data["dev"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|c| c["id"].as_str().is_some_and(|i| i.starts_with(id)))
            .collect();
        assert_eq!(conversations.len(), 1, "`{id}` names one conversation");
        let file = dir.path().join("one.json");
        std::fs::write(&file, serde_json::to_string(&conversations).unwrap()).unwrap();
        let _ = std::fs::remove_dir_all(dir.path().join("runs"));
        run(
            "finkg eval one.json --out runs/public --no-progress",
            dir.path(),
        );
        assert_prints(e, &run(&e.command, dir.path()));
    }
}

/// The number after `label` on a line of the README.
fn figure(readme: &str, label: &str) -> usize {
    let line = readme
        .lines()
        .find(|l| l.trim_start().starts_with(label))
        .unwrap_or_else(|| panic!("the README has a line `{label}`"));
    line[line.find(label).unwrap() + label.len()..]
        .split_whitespace()
        .next()
        .and_then(|n| n.replace(',', "").parse().ok())
        .unwrap_or_else(|| panic!("a number after `{label}`: {line}"))
}

#[test]
fn the_interop_triple_count_is_the_public_splits_export() {
    // tests/interop/check.py counts the quads of `finkg kg --all --format nquads`
    let nquads = run(
        "finkg kg data/convfinqa_dev_public.json --all --format nquads",
        root(),
    );
    let quads = nquads.lines().filter(|l| !l.trim().is_empty()).count();
    assert_eq!(figure(&readme(), "triples:"), quads);
}

#[test]
fn the_eval_example_shows_todays_accuracy() {
    let readme = readme();
    let examples = examples(&readme);
    let e = examples
        .iter()
        .find(|e| e.command == "finkg eval data/convfinqa_dev_public.json --out runs/public")
        .expect("the README shows the public split's eval");
    let dir = workspace();
    let out = run(&format!("{} --no-progress", e.command), dir.path());
    // the time the run took is the machine's, not the code's
    let untimed = |l: &str| match l.strip_prefix("unanswered turns:") {
        Some(_) => l.rsplit_once("; ").map_or(l, |(head, _)| head).to_string(),
        None => l.trim_end().to_string(),
    };
    let actual: Vec<String> = out.lines().map(untimed).collect();
    let expected: Vec<String> = e.output.iter().map(|l| untimed(l)).collect();
    assert!(e.cut, "the README cuts the report short");
    assert_eq!(
        &actual[..expected.len().min(actual.len())],
        &expected[..],
        "README.md line {}: the eval report differs",
        e.line
    );
}

//! The rules planner keeps no word lists in Rust: every cue word and phrase
//! lives in `ontology/` (`fk:WordList`, `fk:NumberWord`, the calculation
//! patterns' triggers), where a user can read and change them. This test
//! reads the planner's source and fails on a list of string literals: an
//! array of two or more strings, a `const` of `&str`s, or a `matches!`
//! over string alternatives.

use std::path::Path;

/// The places in `source` that look like a word list.
fn word_lists(source: &str) -> Vec<String> {
    let code: String = source
        .lines()
        .map(|l| l.trim())
        .filter(|l| !l.starts_with("//"))
        .collect::<Vec<_>>()
        .join(" ");
    let squeezed: String = code.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut found = Vec::new();
    for (i, _) in squeezed.match_indices('[') {
        // `["a", "b"` or `&["a", "b"`
        let rest = squeezed[i + 1..].trim_start();
        if let Some(after) = rest.strip_prefix('"') {
            if let Some(end) = after.find('"') {
                let tail = after[end + 1..].trim_start();
                if let Some(next) = tail.strip_prefix(',') {
                    if next.trim_start().starts_with('"') {
                        found.push(squeezed[i..(i + 60).min(squeezed.len())].to_string());
                    }
                }
            }
        }
    }
    // an array of strings with a length: `const W: [&str; 2]` (a slice type
    // `&[&str]` is no list)
    for (i, _) in squeezed.match_indices("[&str;") {
        found.push(squeezed[i.saturating_sub(20)..(i + 30).min(squeezed.len())].to_string());
    }
    for (i, _) in squeezed.match_indices("\" | \"") {
        found.push(squeezed[i.saturating_sub(30)..(i + 30).min(squeezed.len())].to_string());
    }
    found
}

#[test]
fn the_planner_source_holds_no_word_list() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/plan");
    let mut offending = Vec::new();
    // src/plan and its module directories (`page/`)
    let mut dirs = vec![dir];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).expect("src/plan is readable") {
            let path = entry.expect("a directory entry").path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let text = std::fs::read_to_string(&path).expect("a source file");
                for place in word_lists(&text) {
                    offending.push(format!("{}: {place}", path.display()));
                }
            }
        }
    }
    assert!(
        offending.is_empty(),
        "word lists belong in ontology/ (fk:WordList), not in Rust:\n{}",
        offending.join("\n")
    );
}

#[test]
fn the_check_finds_each_kind_of_list() {
    assert_eq!(word_lists(r#"let a = ["less", "minus"];"#).len(), 1);
    assert_eq!(word_lists("const W: [&str; 2] = x;").len(), 1);
    assert_eq!(word_lists(r#"matches!(t, "a" | "b")"#).len(), 1);
    assert!(word_lists(r#"let a = ["one"]; let b = [x, "y"];"#).is_empty());
    assert!(word_lists("fn f(toks: &[&str]) {}").is_empty());
    assert!(word_lists("// [\"a\", \"b\"] in a comment").is_empty());
}

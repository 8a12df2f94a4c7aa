//! `finkg ontology build|check`: learn the metric lexicon from a dataset's
//! reports, or check an ontology folder.

use super::{load, CliError};
use crate::dataset::Conversation;
use crate::{lexicon, ontology};
use std::path::Path;
use std::process::ExitCode;

/// `ontology build`: learns the lexicon from `dataset`'s reports and writes
/// it to `out` as Turtle.
pub fn build(dataset: &Path, out: &Path) -> Result<ExitCode, CliError> {
    let conversations: Vec<Conversation> =
        load(dataset)?.into_iter().map(|e| e.conversation).collect();
    let lexicon = lexicon::learn(&conversations);
    let source = dataset.display().to_string();
    let turtle = lexicon::to_turtle(&lexicon, &source)?;
    let concepts = &lexicon.concepts;
    std::fs::write(out, turtle).map_err(|e| CliError::new(format!("{}: {e}", out.display())))?;
    let alt: usize = concepts.iter().map(|c| c.alt_labels.len()).sum();
    println!(
        "{} concepts with {alt} synonyms from {} reports ({} conversations) written to {} (rebuild to use it)",
        concepts.len(),
        lexicon.reports,
        conversations.len(),
        out.display()
    );
    Ok(ExitCode::SUCCESS)
}

/// `ontology check`: every Turtle file of `dir` parses, the patterns and the
/// lexicon load, and every `fk:` term used is declared.
pub fn check(dir: &Path) -> Result<ExitCode, CliError> {
    let report = ontology::check_dir(dir)?;
    println!(
        "{}: {} files ({}), {} triples; {} calculation patterns, {} reference phrases, {} scale words, {} lexicon concepts",
        dir.display(),
        report.files.len(),
        report.files.join(", "),
        report.triples,
        report.patterns,
        report.reference_phrases,
        report.scale_words,
        report.concepts
    );
    if report.differs_from_build {
        println!(
            "note: the files differ from those this binary was built with; rebuild to use them"
        );
    }
    if report.undeclared.is_empty() {
        println!("every fk: term used is declared with a label and a comment");
        Ok(ExitCode::SUCCESS)
    } else {
        Err(CliError::new(format!(
            "fk: terms used without an rdfs:label and an rdfs:comment: {}",
            report.undeclared.join(", ")
        )))
    }
}

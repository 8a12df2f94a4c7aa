//! The learned lexicon: metric concepts and their synonyms, learned from
//! report tables and text only (never from questions or answers), written as
//! SKOS Turtle (`ontology/lexicon.ttl`) by `finkg ontology build`.
//!
//! A concept gathers the row labels of many reports that say the same thing
//! in different forms ("net revenues", "net revenue ( 1 )", "revenue , net"):
//! labels meet when their stemmed content words are the same set, which is
//! the concept's key. The most common form is the `skos:prefLabel`, the others
//! are `skos:altLabel`s, and so are acronyms the texts define for a label
//! ("earnings per share ( eps )"). Only labels seen in two or more reports
//! become concepts. The ABox links each table row to its concept
//! (`fk:concept`), and the rules planner matches a question's words against
//! the concept's labels as well as the row's own.

use crate::dataset::Conversation;
use crate::{vocab, words};
use oxigraph::io::{RdfFormat, RdfSerializer};
use oxigraph::model::vocab::{rdf, rdfs, xsd};
use oxigraph::model::{Literal, NamedNode, Term, TripleRef};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::io;

/// The lexicon's namespace: concepts are `lex:{slug}`.
pub const LEXICON_NS: &str = "https://w3id.org/finkg/lexicon#";

/// A metric concept.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Concept {
    /// The IRI's local name.
    pub slug: String,
    /// The most common form of its labels.
    pub pref_label: String,
    /// The other forms, and acronyms the texts define.
    pub alt_labels: Vec<String>,
    /// In how many reports its labels were seen.
    pub reports: usize,
}

/// Words a concept key and an acronym's initials leave out: only articles,
/// conjunctions and prepositions ("other assets" is not "assets").
const FUNCTION_WORDS: [&str; 10] = ["the", "of", "a", "an", "and", "in", "for", "to", "on", "at"];

/// The concept key of a label: its stemmed content words, sorted and
/// deduplicated, footnote marks removed. Empty for labels made only of
/// numbers, years and stop words.
pub fn key(label: &str) -> String {
    // only articles and prepositions go: "other assets" is not "assets"
    const FUNCTION_WORDS: [&str; 10] =
        ["the", "of", "a", "an", "and", "in", "for", "to", "on", "at"];
    let words: BTreeSet<String> = words::tokens(&words::normalise_label(label))
        .into_iter()
        .filter(|w| w.chars().any(char::is_alphabetic) && !FUNCTION_WORDS.contains(&w.as_str()))
        .map(|w| words::stem(&w))
        .collect();
    words.into_iter().collect::<Vec<_>>().join(" ")
}

/// The report a conversation is about: several conversations share one page
/// (`Single_MRO/2007/page_134.pdf-1`, `Double_MRO/2007/page_134.pdf`).
fn report_of(id: &str) -> &str {
    let id = id
        .strip_prefix("Single_")
        .or_else(|| id.strip_prefix("Double_"))
        .unwrap_or(id);
    match id.rsplit_once('-') {
        Some((page, n)) if n.chars().all(|c| c.is_ascii_digit()) => page,
        _ => id,
    }
}

/// A label's printed form, tidied: footnotes dropped, spaces collapsed,
/// trailing colons and the like trimmed.
fn surface(label: &str) -> String {
    words::normalise_label(label)
        .trim_matches(|c: char| c == ':' || c == '-' || c == '.' || c.is_whitespace())
        .to_string()
}

/// Acronyms a text defines: "earnings per share ( eps )" gives
/// ("earnings per share", "eps") when the initials of the words before the
/// parenthesis spell the acronym.
fn defined_acronyms(text: &str) -> Vec<(String, String)> {
    let tokens: Vec<String> = text.split_whitespace().map(str::to_lowercase).collect();
    let mut out = Vec::new();
    for i in 0..tokens.len() {
        if tokens[i] != "(" || tokens.get(i + 2).map(String::as_str) != Some(")") {
            continue;
        }
        let acronym = &tokens[i + 1];
        if !(2..=6).contains(&acronym.len()) || !acronym.chars().all(|c| c.is_ascii_alphabetic()) {
            continue;
        }
        // the shortest run of words just before whose initials spell it,
        // with or without its function words ("net operating loss",
        // "securities and exchange commission")
        for k in 1..=i.min(8) {
            let phrase = &tokens[i - k..i];
            if !phrase[0].chars().all(|c| c.is_alphabetic() || c == '-') {
                break;
            }
            let initials = |skip: bool| -> String {
                phrase
                    .iter()
                    .filter(|w| !(skip && FUNCTION_WORDS.contains(&w.as_str())))
                    .filter_map(|w| w.chars().next())
                    .collect()
            };
            if !FUNCTION_WORDS.contains(&phrase[0].as_str())
                && (initials(false) == *acronym || initials(true) == *acronym)
            {
                out.push((phrase.join(" "), acronym.clone()));
                break;
            }
        }
    }
    out
}

/// A learned lexicon.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lexicon {
    /// The concepts, by key.
    pub concepts: Vec<Concept>,
    /// How many distinct reports it was learned from.
    pub reports: usize,
}

/// Learns the lexicon from the reports of `conversations` (tables and text
/// only).
pub fn learn(conversations: &[Conversation]) -> Lexicon {
    // key -> (form -> reports it was printed in)
    let mut forms: BTreeMap<String, BTreeMap<String, BTreeSet<&str>>> = BTreeMap::new();
    let mut acronyms: HashMap<String, BTreeSet<String>> = HashMap::new();
    let mut seen_reports = BTreeSet::new();
    for c in conversations {
        let report = report_of(&c.id);
        if !seen_reports.insert(report) {
            continue;
        }
        for row in &c.document.table.rows {
            let k = key(&row.label);
            let form = surface(&row.label);
            if k.is_empty() || form.is_empty() || !words::years_in(&form).is_empty() {
                continue;
            }
            forms
                .entry(k)
                .or_default()
                .entry(form)
                .or_default()
                .insert(report);
        }
        for text in [&c.document.pre_text, &c.document.post_text] {
            for (phrase, acronym) in defined_acronyms(text) {
                acronyms.entry(key(&phrase)).or_default().insert(acronym);
            }
        }
    }
    let mut concepts = Vec::new();
    let mut slugs = BTreeSet::new();
    for (k, by_form) in forms {
        let reports: BTreeSet<&str> = by_form.values().flatten().copied().collect();
        if reports.len() < 2 {
            continue;
        }
        let mut ranked: Vec<(&String, usize)> = by_form.iter().map(|(f, r)| (f, r.len())).collect();
        ranked.sort_by(|a, b| {
            b.1.cmp(&a.1)
                .then(a.0.len().cmp(&b.0.len()))
                .then(a.0.cmp(b.0))
        });
        let pref_label = ranked[0].0.clone();
        let mut alt_labels: Vec<String> = ranked[1..].iter().map(|(f, _)| (*f).clone()).collect();
        if let Some(a) = acronyms.get(&k) {
            for acronym in a {
                if !alt_labels.contains(acronym) {
                    alt_labels.push(acronym.clone());
                }
            }
        }
        let mut slug: String = k
            .split(' ')
            .collect::<Vec<_>>()
            .join("-")
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '-' {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        while !slugs.insert(slug.clone()) {
            slug.push('_');
        }
        concepts.push(Concept {
            slug,
            pref_label,
            alt_labels,
            reports: reports.len(),
        });
    }
    Lexicon {
        concepts,
        reports: seen_reports.len(),
    }
}

/// The lexicon as Turtle, written by oxigraph's serializer: a
/// `skos:ConceptScheme` and one `skos:Concept` a metric, with
/// `fk:conceptKey` and `fk:reportCount`, under a comment naming the source.
pub fn to_turtle(lexicon: &Lexicon, source: &str) -> io::Result<String> {
    let comment = format!(
        "# The learned lexicon: generated by `finkg ontology build {}`; do not edit by hand.\n",
        source.replace(['\n', '\r'], " ")
    );
    let used = ["fk", "skos", "rdfs", "xsd", "dcterms"];
    let prefixes = vocab::PREFIXES.iter().filter(|(p, _)| used.contains(p));
    let mut serializer = RdfSerializer::from_format(RdfFormat::Turtle);
    for &(prefix, iri) in std::iter::once(&("lex", LEXICON_NS)).chain(prefixes) {
        serializer = serializer
            .with_prefix(prefix, iri)
            .map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e))?;
    }
    let mut out = serializer.for_writer(comment.into_bytes());
    let lex = |local: &str| NamedNode::new_unchecked(format!("{LEXICON_NS}{local}"));
    let text = |s: &str| Term::from(Literal::new_simple_literal(s));
    let scheme = lex("scheme");
    let mut triples = vec![
        (scheme.clone(), rdf::TYPE.into_owned(), Term::from(vocab::skos("ConceptScheme"))),
        (scheme.clone(), rdfs::LABEL.into_owned(), text("finkg metric lexicon")),
        (
            scheme.clone(),
            rdfs::COMMENT.into_owned(),
            text(&format!(
                "Metric concepts and their synonyms, learned from the tables and texts of {} reports' pages (never from questions or answers).",
                lexicon.reports
            )),
        ),
        (scheme.clone(), vocab::dcterms("source"), text(source)),
    ];
    for c in &lexicon.concepts {
        let concept = lex(&c.slug);
        triples.push((
            concept.clone(),
            rdf::TYPE.into_owned(),
            vocab::skos("Concept").into(),
        ));
        triples.push((
            concept.clone(),
            vocab::skos("inScheme"),
            scheme.clone().into(),
        ));
        triples.push((
            concept.clone(),
            vocab::skos("prefLabel"),
            text(&c.pref_label),
        ));
        for a in &c.alt_labels {
            triples.push((concept.clone(), vocab::skos("altLabel"), text(a)));
        }
        triples.push((
            concept.clone(),
            vocab::fk("conceptKey"),
            text(&key(&c.pref_label)),
        ));
        triples.push((
            concept,
            vocab::fk("reportCount"),
            Literal::new_typed_literal(c.reports.to_string(), xsd::INTEGER).into(),
        ));
    }
    for (s, p, o) in &triples {
        out.serialize_triple(TripleRef::new(s, p, o))?;
    }
    let bytes = out.finish()?;
    String::from_utf8(bytes).map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dataset::{Document, Row, Table};

    fn page(id: &str, labels: &[&str], text: &str) -> Conversation {
        Conversation {
            id: id.to_string(),
            document: Document {
                pre_text: text.to_string(),
                post_text: String::new(),
                table: Table {
                    columns: vec!["2009".into()],
                    rows: labels
                        .iter()
                        .map(|l| Row {
                            label: l.to_string(),
                            cells: vec![crate::dataset::cell::parse_cell("1")],
                        })
                        .collect(),
                },
            },
            questions: Vec::new(),
        }
    }

    #[test]
    fn forms_of_one_label_meet_in_a_concept() {
        let concepts = learn(&[
            page("Single_A/2009/page_1.pdf-1", &["net revenues", "other"], ""),
            page("Single_A/2009/page_1.pdf-2", &["net revenues"], ""),
            page("Single_B/2010/page_2.pdf-1", &["net revenue ( 1 )"], ""),
            page(
                "Single_C/2010/page_3.pdf-1",
                &["revenue net", "earnings per share"],
                "diluted earnings per share ( eps ) rose .",
            ),
            page("Single_D/2011/page_4.pdf-1", &["earnings per share"], ""),
        ])
        .concepts;
        let revenue = concepts
            .iter()
            .find(|c| c.pref_label == "net revenue")
            .unwrap();
        assert_eq!(revenue.slug, "net-revenu");
        // the same page twice counts once
        assert_eq!(revenue.reports, 3);
        // each form in one report: the shortest, then the first in order, leads
        assert_eq!(revenue.pref_label, "net revenue");
        assert!(revenue.alt_labels.contains(&"net revenues".to_string()));
        assert!(revenue.alt_labels.contains(&"revenue net".to_string()));
        let eps = concepts
            .iter()
            .find(|c| c.pref_label == "earnings per share")
            .unwrap();
        assert_eq!(eps.slug, "earn-per-share");
        assert!(eps.alt_labels.contains(&"eps".to_string()), "{eps:?}");
        // seen in one report only
        assert!(!concepts.iter().any(|c| c.pref_label == "other"));
        assert_ne!(key("other assets"), key("total assets"));
    }

    #[test]
    fn acronyms_need_matching_initials() {
        assert_eq!(
            defined_acronyms("the net operating loss ( nol ) carryforwards"),
            vec![("net operating loss".to_string(), "nol".to_string())]
        );
        assert!(defined_acronyms("revenue ( 2009 ) and cash ( see note )").is_empty());
    }

    #[test]
    fn turtle_parses() {
        let lexicon = Lexicon {
            concepts: vec![Concept {
                slug: "net-revenue".into(),
                pref_label: "net \"revenues\"".into(),
                alt_labels: vec!["net revenue".into()],
                reports: 3,
            }],
            reports: 3,
        };
        let ttl = to_turtle(&lexicon, "data/x.json").unwrap();
        assert!(ttl.starts_with("# The learned lexicon"), "{ttl}");
        let quads = crate::ontology::parse_turtle("lexicon.ttl", &ttl).expect("valid Turtle");
        // the scheme's four triples, the concept's six
        assert_eq!(quads.len(), 10, "{ttl}");
        assert!(
            ttl.contains(r#"skos:prefLabel "net \"revenues\"""#),
            "{ttl}"
        );
    }
}

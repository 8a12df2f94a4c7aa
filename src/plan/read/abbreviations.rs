//! Abbreviations and initialisms: one joined by "&" ("sg&a") written out
//! as the page's phrase it spells, an initialism ("aum") as the page's
//! term, and a phrase of the question written as the abbreviation or
//! initialism a label prints ("average revenue per user" as "arpu").

use crate::kg::Schema;
use crate::plan::page::PageIndex;
use crate::words;
use std::collections::HashSet;

/// The question with each abbreviation joined by `&` ("sg&a", "r&d") written
/// out as the page's phrase it stands for: the first label, then sentence,
/// whose words' initials spell it (stop words may be passed over: "research
/// and development"). One the page does not spell stays as it is. The other
/// way round, a phrase of the question that spells an abbreviation a label
/// prints, and that the page never prints in full, becomes the abbreviation
/// ("selling , general and administrative" for a row "sg&a").
pub(super) fn expand_abbreviations(text: &str, schema: &Schema, page: &PageIndex) -> String {
    let phrases = &page.phrases;
    // the first `labels` phrases are row and column labels
    let labels = schema.rows.len() + schema.columns.len();
    let text = abbreviate(text, schema, phrases);
    let label_words = &page.label_tokens;
    let expanded: Vec<String> = text
        .split_whitespace()
        .map(|t| {
            if !is_abbreviation(t) {
                return initialism_spelled(t, phrases, labels, label_words)
                    .unwrap_or_else(|| t.to_string());
            }
            let letters: Vec<char> = t.chars().filter(|c| *c != '&').collect();
            // the "&" is an "and": "research and development" spells "r&d"
            // before "rates decreased" does
            let joined = t.find('&');
            let spelled = is_abbreviation(t)
                .then(|| {
                    phrases
                        .iter()
                        .find_map(|p| spelled_by(p, &letters, joined))
                        .or_else(|| phrases.iter().find_map(|p| spelled_by(p, &letters, None)))
                })
                .flatten();
            spelled.unwrap_or_else(|| t.to_string())
        })
        .collect();
    format!(" {} ", expanded.join(" "))
}

/// The phrase of the page an initialism of the question stands for ("aum"
/// for "assets under management", "asms" for "available seat miles"): a
/// word of three to six letters that no label prints, not a stop word,
/// whose letters (a plural's "s" aside) are the initials of a run of words
/// of a label or sentence, opening and closing with a content word, stop
/// words passed over ("cost per available seat mile"), and a term of the
/// page: a run printed twice or more, or a whole label of three content
/// words or more ("europe , middle east and africa" for "emea").
fn initialism_spelled(
    t: &str,
    phrases: &[Vec<String>],
    labels: usize,
    label_words: &HashSet<String>,
) -> Option<String> {
    let letters_only = t.chars().all(|c| c.is_ascii_lowercase());
    if !letters_only
        || !(3..=6).contains(&t.len())
        || words::is_stop_word(t)
        || label_words.contains(t)
    {
        return None;
    }
    let letters: Vec<char> = t.chars().collect();
    let singular = t
        .strip_suffix('s')
        .map(|s| s.chars().collect::<Vec<char>>());
    [Some(letters), singular.filter(|l| l.len() >= 3)]
        .into_iter()
        .flatten()
        .find_map(|letters| {
            phrases.iter().find_map(|p| {
                (0..p.len()).find_map(|start| {
                    let content = |w: &String| !words::is_stop_word(w);
                    // a stop word may stand for a letter, or be passed over
                    // ("europe , middle east and africa" for "emea")
                    let end = [false, true]
                        .into_iter()
                        .filter_map(|skip| words::spelling_run_at(p, start, &letters, skip))
                        .map(|(end, _)| end)
                        .find(|&end| content(&p[end - 1]))?;
                    let run = &p[start..end];
                    let whole_label = || {
                        run.iter().filter(|w| content(w)).count() >= 3
                            && phrases[..labels].iter().any(|l| l.as_slice() == run)
                    };
                    let printed_twice = || {
                        phrases
                            .iter()
                            .flat_map(|q| q.windows(run.len()))
                            .filter(|w| *w == run)
                            .nth(1)
                            .is_some()
                    };
                    (content(&run[0]) && (whole_label() || printed_twice())).then(|| run.join(" "))
                })
            })
        })
}

/// An abbreviation joined by `&`: letters on both sides ("sg&a", "r&d").
fn is_abbreviation(t: &str) -> bool {
    t.contains('&')
        && t.split('&')
            .all(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_alphabetic()))
}

/// `text` with the first phrase that spells an abbreviation a label prints
/// ("r&d", or an initialism, "arpu"; commas inside the phrase dropped)
/// written as that abbreviation, when no label (for an "&" abbreviation,
/// no sentence either) of the page prints the phrase itself.
fn abbreviate(text: &str, schema: &Schema, phrases: &[Vec<String>]) -> String {
    let toks: Vec<&str> = text.split_whitespace().collect();
    let kept: Vec<usize> = (0..toks.len()).filter(|&i| toks[i] != ",").collect();
    let words: Vec<String> = kept.iter().map(|&i| toks[i].to_string()).collect();
    let labels = schema.rows.iter().chain(schema.columns.iter());
    for abbreviation in labels.flat_map(|(l, _)| l.split_whitespace()) {
        let initialism = !is_abbreviation(abbreviation);
        let (letters, run) = if !initialism {
            let letters: Vec<char> = abbreviation.chars().filter(|c| *c != '&').collect();
            let Some((start, end)) = spelling_run(&words, &letters, true) else {
                continue;
            };
            // each letter a word's own ("research and development"), not a
            // stop word's ("so what was the percentage" is no "s&p")
            let run = (start, end);
            let content = words[start..end]
                .iter()
                .filter(|w| !words::is_stop_word(w))
                .count();
            if content != letters.len() {
                continue;
            }
            (letters, run)
        } else {
            let Some(run) = initialism_run(&words, abbreviation) else {
                continue;
            };
            (abbreviation.chars().collect(), run)
        };
        let (start, end) = run;
        let run = &words[start..end];
        // an initialism a sentence spells out ("lower average revenue per
        // user") still names the label: only a label's own spelling stops it
        let labels = schema.rows.len() + schema.columns.len();
        let looked_in = if initialism {
            &phrases[..labels.min(phrases.len())]
        } else {
            phrases
        };
        if letters.is_empty()
            || looked_in
                .iter()
                .any(|p| p.windows(run.len()).any(|w| w == run))
        {
            continue;
        }
        let (from, to) = (kept[start], kept[end - 1]);
        let mut out: Vec<&str> = toks[..from].to_vec();
        out.push(abbreviation);
        out.extend_from_slice(&toks[to + 1..]);
        return format!(" {} ", out.join(" "));
    }
    text.to_string()
}

/// The run of `words` an initialism of a label spells out, a word of
/// three to six letters ("arpu" for "average revenue per user"): each
/// word gives a letter, stop words too ("per"), and three or more are
/// content words; none when the question prints the initialism itself.
fn initialism_run(words: &[String], initialism: &str) -> Option<(usize, usize)> {
    let letters: Vec<char> = initialism.chars().collect();
    if !(3..=6).contains(&letters.len())
        || !letters.iter().all(char::is_ascii_lowercase)
        || words::is_stop_word(initialism)
        || words.iter().any(|w| w == initialism)
    {
        return None;
    }
    (0..words.len()).find_map(|start| {
        let end = start + letters.len();
        let run = words.get(start..end)?;
        let spelled = run.iter().zip(&letters).all(|(w, c)| w.starts_with(*c));
        let content = run.iter().filter(|w| !words::is_stop_word(w)).count();
        let ends = !words::is_stop_word(&run[0]) && !words::is_stop_word(&run[run.len() - 1]);
        (spelled && ends && content >= 3).then_some((start, end))
    })
}

/// The first run of `tokens` whose initials spell `letters`, stop words
/// passed over inside it; with `and_at`, one where "and" comes just before
/// the word of the letter at that index.
fn spelled_by(tokens: &[String], letters: &[char], and_at: Option<usize>) -> Option<String> {
    (0..tokens.len()).find_map(|start| {
        let (end, at) = words::spelling_run_at(tokens, start, letters, false)?;
        let joined = and_at.is_none_or(|k| {
            at.get(k)
                .is_some_and(|&i| i > start && tokens[i - 1] == "and")
        });
        joined.then(|| tokens[start..end].join(" "))
    })
}

/// Where the first run of `tokens` whose initials spell `letters` starts
/// and ends, stop words passed over inside it; with `content_only`, only
/// words other than stop words spell ("depreciation and amortization" for
/// "d&a", not "depreciation and").
fn spelling_run(tokens: &[String], letters: &[char], content_only: bool) -> Option<(usize, usize)> {
    (0..tokens.len()).find_map(|start| {
        words::spelling_run_at(tokens, start, letters, content_only).map(|(end, _)| (start, end))
    })
}

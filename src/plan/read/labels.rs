//! The question against the page's row and column labels: every label
//! phrase it prints masked, and a list it names cut into its items at its
//! connectors, never inside a label's phrase.

use crate::kg::Schema;
use crate::words;

/// The items of a list `listed` names ("a , b and c", "a plus b"): the
/// text cut at the words of `connectors` and at the commas before the last
/// of them, but not inside a phrase a label of the page prints ("research
/// and development", "selling , general and administrative"); a connector
/// that opens the text ("and what ...") parts nothing.
pub(in crate::plan) fn list_items(
    listed: &str,
    schema: &Schema,
    connectors: &[String],
) -> Vec<String> {
    let toks: Vec<&str> = listed.split_whitespace().collect();
    // the label mask of the text without its commas, token for token
    let words: Vec<&str> = toks.iter().copied().filter(|t| *t != ",").collect();
    let masked = mask_label_phrases(&format!(" {} ", words.join(" ")), schema);
    let mut in_label = masked.split_whitespace().map(|m| m == "_");
    let labelled: Vec<bool> = toks
        .iter()
        .map(|t| *t != "," && in_label.next().unwrap_or(false))
        .collect();
    // a comma between two words of one label phrase is the label's
    let labels = label_phrases(schema);
    let inside = |i: usize| {
        let prev = toks[..i].iter().rposition(|t| *t != ",");
        let next = toks[i + 1..]
            .iter()
            .position(|t| *t != ",")
            .map(|k| k + i + 1);
        match (prev, next) {
            (Some(p), Some(n)) => {
                let pair = format!(" {} {} ", toks[p], toks[n]);
                labelled[p] && labelled[n] && labels.iter().any(|l| l.contains(&pair))
            }
            _ => false,
        }
    };
    let connector = |i: usize| !labelled[i] && connectors.iter().any(|c| c == toks[i]);
    let last = (0..toks.len())
        .rev()
        .find(|&i| connector(i))
        .filter(|&i| i > 0);
    let mut items: Vec<Vec<&str>> = vec![Vec::new()];
    for (i, tok) in toks.iter().enumerate() {
        let parts = i > 0
            && last.is_some_and(|l| {
                i == l || (i < l && (connector(i) || (*tok == "," && !inside(i))))
            });
        if parts {
            items.push(Vec::new());
        } else if *tok != "," {
            if let Some(item) = items.last_mut() {
                item.push(tok);
            }
        }
    }
    items
        .into_iter()
        .filter(|i| !i.is_empty())
        .map(|i| format!(" {} ", i.join(" ")))
        .collect()
}

/// Every row and column label of the page as a question prints it, padded
/// with spaces, with and without its asides in parentheses.
fn label_phrases(schema: &Schema) -> Vec<String> {
    schema
        .rows
        .iter()
        .map(|(l, _)| l)
        .chain(schema.columns.iter().map(|(l, _)| l))
        .flat_map(|l| {
            let label = words::normalise_label(l);
            let plain = words::without_asides(&label);
            [label, plain]
        })
        .map(|l| format!(" {} ", words::normalise_question(&l).trim()))
        .collect()
}

/// The question with every phrase of two to six words that a row or column
/// label of the page holds replaced by `_`; a label is read with and without
/// its asides in parentheses ("net gain ( loss ) realized" holds "gain
/// realized").
///
/// A label the question prints whole claims its words: a part of another
/// label that runs across its edge is no name ("percent change in cash
/// used in investing activities" beside "net change in cash" and "cash
/// used in investing activities" keeps its "change"), nor are that part's
/// own parts.
pub(super) fn mask_label_phrases(text: &str, schema: &Schema) -> String {
    let labels = label_phrases(schema);
    let toks: Vec<&str> = text.split_whitespace().collect();
    let mut keep = vec![true; toks.len()];
    let whole = whole_labels_printed(&toks, &labels);
    let mut crossed = vec![false; toks.len()];
    for n in (2..=6).rev() {
        if toks.len() < n {
            continue;
        }
        for i in 0..=toks.len() - n {
            let phrase = format!(" {} ", toks[i..i + n].join(" "));
            if !labels.iter().any(|l| l.contains(&phrase)) {
                continue;
            }
            let (a, b) = (i, i + n);
            // across a whole label's edge: overlapping it, neither holding
            // the other
            let across = whole
                .iter()
                .any(|&(s, e)| a < e && s < b && !(a <= s && e <= b) && !(s <= a && b <= e));
            if across {
                for (k, c) in crossed.iter_mut().enumerate().take(b).skip(a) {
                    *c |= !whole.iter().any(|&(s, e)| s <= k && k < e);
                }
                continue;
            }
            if (a..b).all(|k| crossed[k]) {
                continue;
            }
            for k in keep.iter_mut().skip(i).take(n) {
                *k = false;
            }
        }
    }
    let kept: Vec<&str> = toks
        .iter()
        .zip(&keep)
        .map(|(t, k)| if *k { *t } else { "_" })
        .collect();
    format!(" {} ", kept.join(" "))
}

/// The spans of the question's tokens that print a label of two or more
/// words whole.
fn whole_labels_printed(toks: &[&str], labels: &[String]) -> Vec<(usize, usize)> {
    let mut spans = Vec::new();
    for label in labels {
        let words: Vec<&str> = label.split_whitespace().collect();
        if words.len() < 2 || words.len() > toks.len() {
            continue;
        }
        for i in 0..=toks.len() - words.len() {
            if toks[i..i + words.len()] == words[..] {
                spans.push((i, i + words.len()));
            }
        }
    }
    spans
}

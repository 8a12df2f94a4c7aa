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
pub(super) fn mask_label_phrases(text: &str, schema: &Schema) -> String {
    let labels = label_phrases(schema);
    let toks: Vec<&str> = text.split_whitespace().collect();
    let mut keep = vec![true; toks.len()];
    for n in (2..=6).rev() {
        if toks.len() < n {
            continue;
        }
        for i in 0..=toks.len() - n {
            let phrase = format!(" {} ", toks[i..i + n].join(" "));
            if labels.iter().any(|l| l.contains(&phrase)) {
                for k in keep.iter_mut().skip(i).take(n) {
                    *k = false;
                }
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

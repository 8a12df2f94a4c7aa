//! Which words of a sentence belong to which of its amounts.
//!
//! A text number's context is a window of words around it, and in a
//! sentence of several amounts the windows overlap: in "$ 245 million was
//! allocated to goodwill and $ 290 million to intangible assets" both
//! windows hold "goodwill". Two plain rules of how such sentences are
//! written say whose words they are:
//!
//! - the words after an amount, up to the next one, are the earlier
//!   amount's when the later one has words of its own after it ("$ A for
//!   X and $ B for Y"), and the later amount's when it has none ("X was
//!   $ A and Y was $ B");
//! - the words right after a count or a bare number, up to the first stop
//!   word, are what it counts ("397612895 outstanding shares ... and 463
//!   registered holders").
//!
//! A word of an amount's window that another amount owns, and that its own
//! part of the window does not print, is a neighbour's word.

use super::cues::Cues;
use crate::kg::FactEntry;
use crate::words::{content_words, is_stop_word};
use std::collections::{BTreeMap, HashSet};

/// For each text number, the content words of its context window (twelve
/// tokens before it, four after) that belong to another amount of its
/// sentence and that its own part of the window does not print.
pub(super) fn neighbour_words(facts: &[FactEntry], cues: &Cues) -> Vec<Vec<String>> {
    let mut out = vec![Vec::new(); facts.len()];
    let mut by_sentence: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for (k, f) in facts.iter().enumerate() {
        if !f.is_year_mention {
            by_sentence.entry(f.sentence).or_default().push(k);
        }
    }
    for amounts in by_sentence.values_mut() {
        if amounts.len() < 2 {
            continue;
        }
        amounts.sort_by_key(|k| facts[*k].token);
        let tokens: Vec<&str> = facts[amounts[0]].sentence_text.split_whitespace().collect();
        let spans: Option<Vec<Span>> = amounts
            .iter()
            .map(|k| span(&tokens, &facts[*k], cues))
            .collect();
        let Some(spans) = spans else {
            continue;
        };
        // each token's content words, read once a sentence
        let words: Vec<Vec<String>> = tokens.iter().map(|t| content_words(t)).collect();
        let owner = owners(&tokens, &words, &spans, cues);
        for (a, k) in amounts.iter().enumerate() {
            let at = spans[a].number;
            let window = at.saturating_sub(12)..(at + 5).min(tokens.len());
            let (mut own, mut foreign) = (HashSet::new(), HashSet::new());
            for i in window {
                match owner[i] {
                    Some(o) if o.foreign_to(a) => foreign.extend(words[i].iter().cloned()),
                    _ => own.extend(words[i].iter().cloned()),
                }
            }
            out[*k] = foreign.difference(&own).cloned().collect();
            out[*k].sort();
        }
    }
    out
}

/// Where an amount is printed in its sentence's tokens.
struct Span {
    /// The number's own token.
    number: usize,
    /// Its first token (a currency sign before it) and its last (a percent
    /// sign or a scale word after it).
    first: usize,
    last: usize,
    /// It counts something (no currency sign, no percent).
    count: bool,
}

/// The span of a text number in its sentence's tokens, if the token its
/// position names prints a digit.
fn span(tokens: &[&str], f: &FactEntry, cues: &Cues) -> Option<Span> {
    let number = f.token;
    if !tokens.get(number)?.bytes().any(|b| b.is_ascii_digit()) {
        return None;
    }
    let first = if number > 0 && tokens[number - 1] == "$" {
        number - 1
    } else {
        number
    };
    let mut last = number;
    while tokens
        .get(last + 1)
        .is_some_and(|t| cues.number_tail.iter().any(|w| w == t))
    {
        last += 1;
    }
    Some(Span {
        number,
        first,
        last,
        count: !f.raw.contains('$') && !f.percent,
    })
}

/// Whose a token between two amounts is (amounts by position).
#[derive(Debug, Clone, Copy)]
enum Owner {
    /// The words after the amount, what it is or counts ("$ 245 million
    /// was allocated to goodwill"): no other amount's.
    After(usize),
    /// The words before the amount, its subject ("and operating income
    /// was $ 20 million"): no earlier amount's, but a later one of the
    /// same clause shares them ("operating revenues increased $ 411.0
    /// million to $ 1.2 billion"), as every amount shares the words
    /// before the first.
    Before(usize),
}

impl Owner {
    /// Whether the token is the words of another amount than `b`'s.
    fn foreign_to(self, b: usize) -> bool {
        match self {
            Owner::After(a) => a != b,
            Owner::Before(a) => a > b,
        }
    }
}

/// Whose each token between amounts is, by the two rules of the module;
/// `None` for tokens before the first amount and for the amounts' own
/// tokens.
/// `words` holds each token's content words.
fn owners(
    tokens: &[&str],
    words: &[Vec<String>],
    spans: &[Span],
    cues: &Cues,
) -> Vec<Option<Owner>> {
    let mut owner = vec![None; tokens.len()];
    let n = spans.len();
    // whether the words after each amount are its own, from the last back
    let mut has_own = vec![false; n];
    for a in (0..n).rev() {
        let after = spans[a].last + 1..spans.get(a + 1).map_or(tokens.len(), |s| s.first);
        // what a count counts: the content words right after it
        let head_end = if spans[a].count {
            after
                .clone()
                .find(|&i| is_stop_word(tokens[i]) || words[i].is_empty())
                .unwrap_or(after.end)
        } else {
            after.start
        };
        // "revenue of $ 214.6 million and operating income of $ 18.9
        // million", "totaling $ 87.4 million , and repurchased 3.8 million
        // shares": words that open with "and" (a comma before it aside)
        // name the next amount
        let opening = after.clone().find(|&i| tokens[i] != ",");
        let opens_next = a + 1 < n
            && opening.is_some_and(|o| {
                cues.addition_connector.iter().any(|w| w == tokens[o])
                    && (o + 1..after.end).any(|i| !words[i].is_empty())
            });
        if opens_next {
            for i in after {
                owner[i] = Some(Owner::Before(a + 1));
            }
            continue;
        }
        let claims_after = a + 1 == n || has_own[a + 1];
        // an amount's words end at a clause break ("; fffd operating
        // revenues increased $ 411.0 million"): what follows is the next one's
        let broken = after
            .clone()
            .find(|&i| cues.clause_break.iter().any(|w| w == tokens[i]))
            .unwrap_or(after.end);
        let mut claimed = false;
        for i in after.clone() {
            let own = i < head_end || (claims_after && i < broken);
            owner[i] = if own {
                claimed |= !words[i].is_empty();
                Some(Owner::After(a))
            } else if a + 1 < n {
                Some(Owner::Before(a + 1))
            } else {
                None
            };
        }
        has_own[a] = claimed;
    }
    owner
}

#[cfg(test)]
mod tests {
    use super::*;
    use rust_decimal::Decimal;

    fn fact(sentence: &str, token: usize, raw: &str, percent: bool) -> FactEntry {
        FactEntry {
            sentence: 0,
            token,
            sentence_text: sentence.to_string(),
            context: String::new(),
            value: Decimal::ONE,
            raw: raw.to_string(),
            year: None,
            is_change: false,
            also_years: Vec::new(),
            is_year_mention: false,
            percent,
            scale: None,
        }
    }

    fn numbers_of(sentence: &str) -> Vec<FactEntry> {
        let tokens: Vec<&str> = sentence.split_whitespace().collect();
        tokens
            .iter()
            .enumerate()
            .filter(|(_, t)| t.bytes().next().is_some_and(|b| b.is_ascii_digit()))
            .filter(|(_, t)| crate::kg::text::as_year(t).is_none())
            .map(|(i, t)| {
                let money = i > 0 && tokens[i - 1] == "$";
                let raw = if money {
                    format!("$ {t}")
                } else {
                    t.to_string()
                };
                fact(sentence, i, &raw, tokens.get(i + 1) == Some(&"%"))
            })
            .collect()
    }

    fn neighbour_words(facts: &[FactEntry]) -> Vec<Vec<String>> {
        let tbox = crate::ontology::tbox().expect("the TBox loads");
        super::neighbour_words(facts, &Cues::from_tbox(tbox))
    }

    /// Whether `words` holds `word`'s stem.
    fn has(words: &[String], word: &str) -> bool {
        words.contains(&content_words(word)[0])
    }

    #[test]
    fn words_after_an_amount_are_its_own_when_the_next_has_words_after_it() {
        let s = "of which $ 245 million was allocated to goodwill and $ 290 million to intangible assets .";
        let n = neighbour_words(&numbers_of(s));
        assert!(
            has(&n[1], "goodwill") && has(&n[1], "allocated"),
            "{:?}",
            n[1]
        );
        assert!(n[0].is_empty(), "{:?}", n[0]);
    }

    #[test]
    fn words_before_an_amount_with_nothing_after_are_its_own() {
        let s = "revenue was $ 100 million and operating income was $ 20 million .";
        let n = neighbour_words(&numbers_of(s));
        assert!(has(&n[0], "operating"), "{:?}", n[0]);
        assert!(n[1].is_empty(), "{:?}", n[1]);
    }

    #[test]
    fn words_that_open_with_and_name_the_next_amount() {
        let s = "fenwick contributed revenue of $ 214.6 million and operating income of \
                 $ 18.9 million , which included $ 12.4 million of inventory step-up amortization .";
        let n = neighbour_words(&numbers_of(s));
        assert!(has(&n[0], "operating"), "{:?}", n[0]);
        assert!(!has(&n[1], "operating"), "{:?}", n[1]);
    }

    #[test]
    fn what_a_count_counts_is_its_own() {
        let s = "we had 397612895 outstanding shares of common stock and 463 registered holders .";
        let n = neighbour_words(&numbers_of(s));
        assert!(
            has(&n[1], "outstanding") && has(&n[1], "shares"),
            "{:?}",
            n[1]
        );
        assert!(n[0].is_empty(), "{:?}", n[0]);
    }

    #[test]
    fn a_restated_percentage_shares_the_subject() {
        let s = "net sales increased $ 15 million , or 5 % , compared to 2008 .";
        let n = neighbour_words(&numbers_of(s));
        assert!(n[1].is_empty(), "{:?}", n[1]);
    }
}

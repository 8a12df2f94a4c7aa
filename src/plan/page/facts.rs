//! The numbers of the text: their words (context, sentence, neighbours,
//! those before and after), what they restate or are compared with, where
//! a move starts or ends, and the words a sentence says an amount leaves out.

use super::labels::prints_total;
use super::PageIndex;
use crate::kg::schema::label_scale;
use crate::kg::{FactEntry, Schema};
use crate::plan::binding::neighbour_words;
use crate::plan::cues::{boundary_of, Boundary, Cues};
use crate::words::{self, content_words};
use std::collections::HashSet;

impl PageIndex {
    /// What each text number's words say: its context's and sentence's
    /// words, its month, the years it carries, a rate per unit, a total, a
    /// restatement, a contributor, a name, a boundary; and each sentence's
    /// left-out words.
    pub(super) fn index_facts(
        &mut self,
        schema: &Schema,
        cues: &Cues,
        sentence_words: &[Vec<String>],
    ) {
        let facts = &schema.facts;
        self.fact_words = fact_words(schema, sentence_words, cues);
        self.fact_neighbour_words = neighbour_words(facts, cues)
            .into_iter()
            .zip(&self.fact_words)
            .map(|(n, (ctx, _))| n.into_iter().filter(|w| ctx.contains(w)).collect())
            .collect();
        self.fact_month = facts.iter().map(|f| words::month_in(&f.context)).collect();
        self.fact_carried_years = facts.iter().map(|f| carried_years(schema, f)).collect();
        self.fact_per_unit = facts.iter().map(|f| fact_per_unit(f, cues)).collect();
        self.fact_is_total = facts
            .iter()
            .map(|f| prints_total(&f.context, cues))
            .collect();
        self.fact_restated_as = facts.iter().map(restated_as).collect();
        self.sentence_left_out = schema
            .sentences
            .iter()
            .map(|t| left_out_words(t, cues))
            .collect();
        let total_word = cues.total_word.as_str();
        self.fact_total_before = facts
            .iter()
            .map(|f| words_before(f).contains(&total_word))
            .collect();
        self.fact_contributed_by = facts.iter().map(|f| contributed_by(f, cues)).collect();
        self.fact_is_name = facts_in_names(schema)
            .into_iter()
            .zip(facts)
            .map(|(name, f)| name || in_address(f, cues))
            .collect();
        self.fact_boundary = fact_boundaries(schema, cues);
    }
}

/// A text number's context as words, and the number's place in them (its
/// context holds up to twelve words before it and four after).
fn placed_in_context(f: &FactEntry) -> (Vec<&str>, usize) {
    let toks: Vec<&str> = f.context.split_whitespace().collect();
    // the number's place in its context: 12 tokens in, unless the context
    // is a list's, shared by its numbers; then where the number is printed
    let number = f
        .raw
        .split_whitespace()
        .find(|t| t.chars().any(|c| c.is_ascii_digit()));
    let printed: Vec<usize> = toks
        .iter()
        .enumerate()
        .filter(|(_, t)| Some(**t) == number)
        .map(|(i, _)| i)
        .collect();
    let at = match printed.as_slice() {
        [i] => *i,
        _ => f.token.min(12),
    };
    (toks, at)
}

/// The three words printed after a text number.
pub(in crate::plan) fn words_after(f: &FactEntry) -> Vec<&str> {
    let (toks, at) = placed_in_context(f);
    toks.get(at + 1..toks.len().min(at + 4))
        .map(<[&str]>::to_vec)
        .unwrap_or_default()
}

/// The four words printed before a text number (its currency sign aside):
/// "for a total of" before "$ 2.145".
pub(in crate::plan) fn words_before(f: &FactEntry) -> Vec<&str> {
    let (toks, at) = placed_in_context(f);
    let at = at.min(toks.len());
    let start = if at > 0 && toks[at - 1] == "$" {
        at - 1
    } else {
        at
    };
    toks[start.saturating_sub(4)..start].to_vec()
}

/// The specific words of the subject that contributes a text number to a
/// measure (see [`PageIndex::fact_contributed_by`]): the words of its
/// clause before the contribution verb that stands among the few words
/// just before the number.
fn contributed_by(f: &FactEntry, cues: &Cues) -> Vec<String> {
    let (toks, at) = placed_in_context(f);
    let at = at.min(toks.len());
    let Some(verb) = (at.saturating_sub(3)..at)
        .rev()
        .find(|&k| cues.contribution_verb.iter().any(|v| v == toks[k]))
    else {
        return Vec::new();
    };
    let clause_start = toks[..verb]
        .iter()
        .rposition(|t| *t == "," || cues.clause_break.iter().any(|c| c == t))
        .map_or(0, |k| k + 1);
    cues.specific(&content_words(&toks[clause_start..verb].join(" ")))
}

/// How a text number in brackets restates the amount printed just before
/// the brackets: the words after it up to the closing bracket, its scale
/// word and stop words aside, glued without hyphens and stemmed ("$ 120
/// million ( $ 78 million after-tax )" gives "aftertax").
fn restated_as(f: &FactEntry) -> Option<String> {
    let tokens: Vec<&str> = f.sentence_text.split_whitespace().collect();
    let number = f
        .raw
        .split_whitespace()
        .find(|t| t.chars().any(|c| c.is_ascii_digit()))?;
    let i = f.token;
    (tokens.get(i) == Some(&number)).then_some(())?;
    let open = if i >= 2 && tokens[i - 1] == "$" {
        i - 2
    } else {
        i.checked_sub(1)?
    };
    let amount_before = tokens[open.saturating_sub(3)..open]
        .iter()
        .any(|t| t.chars().any(|c| c.is_ascii_digit()));
    if tokens[open] != "(" || !amount_before {
        return None;
    }
    let words: String = tokens[i + 1..]
        .iter()
        // up to a closing bracket or any other punctuation
        .take_while(|t| {
            t.chars()
                .all(|c| c.is_alphanumeric() || c == '-' || c == '.')
        })
        .take(4)
        .filter(|t| label_scale(t).is_none() && !words::is_stop_word(t) && **t != "%")
        .map(|t| t.replace('-', ""))
        .collect();
    (!words.is_empty()).then(|| words::stem(&words))
}

/// The years a text number's sentence carries over from the sentence
/// before (see [`PageIndex::fact_carried_years`]).
fn carried_years(schema: &Schema, fact: &FactEntry) -> Vec<i32> {
    let s = fact.sentence;
    let pre = schema.pre_sentences;
    let amount = fact.raw.starts_with('$') || fact.scale.is_some();
    if !amount
        || s == 0
        || (s < pre) != (s - 1 < pre)
        || !words::years_in(&fact.sentence_text).is_empty()
    {
        return Vec::new();
    }
    schema
        .sentences
        .get(s - 1)
        .map(|prev| words::years_in(prev))
        .unwrap_or_default()
}

/// A text number is a rate per unit of something: a per word follows it
/// (after its scale word), and no length of time ("per megawatt-hour", not
/// "per year").
fn fact_per_unit(f: &FactEntry, cues: &Cues) -> bool {
    let after = words_after(f);
    let mut rest = after.iter().skip_while(|w| label_scale(w).is_some());
    let is = |list: &[String], w: Option<&&str>| w.is_some_and(|w| list.iter().any(|l| l == w));
    is(&cues.per_word, rest.next())
        && !is(&cues.duration_word, rest.clone().next())
        && !is(&cues.period_noun, rest.next())
}

/// Whether each text number is where a move started (after "from") or
/// ended (after "to", a start or a stated change a few words before it:
/// "increased $ 56.1 million during 2013 to $ 1,340.7 million").
fn fact_boundaries(schema: &Schema, cues: &Cues) -> Vec<Option<Boundary>> {
    let within = |list: &[String], t: &str| list.iter().any(|w| w == t);
    let change_before = |f: &FactEntry| {
        schema.facts.iter().any(|c| {
            c.is_change && c.sentence == f.sentence && c.token < f.token && f.token - c.token <= 8
        })
    };
    schema
        .facts
        .iter()
        .map(|f| {
            let toks: Vec<&str> = f.sentence_text.split_whitespace().collect();
            let before: Vec<&str> = toks[..f.token.min(toks.len())]
                .iter()
                .copied()
                .filter(|t| *t != "$")
                .collect();
            let lead = *before.last()?;
            if within(&cues.move_start_lead, lead) {
                return Some(Boundary::Beginning);
            }
            let started = before
                .iter()
                .rev()
                .skip(1)
                .take(6)
                .any(|t| within(&cues.move_start_lead, t));
            if within(&cues.move_end_lead, lead) && (started || change_before(f)) {
                return Some(Boundary::End);
            }
            // "ending the year with 1,046 stores": a cue a few words before
            // the number, with no other number between
            let apart = |t: &str| t == ";" || t.bytes().any(|b| b.is_ascii_digit());
            let mut start = before.len();
            while start > 0 && before.len() - start < 5 && !apart(before[start - 1]) {
                start -= 1;
            }
            let near: Vec<String> = before[start..].iter().map(|t| t.to_string()).collect();
            boundary_of(&near, cues)
        })
        .collect()
}

/// The content words a sentence prints only inside phrases that name what
/// an amount leaves out: from a leave-out qualifier ("before", "net of") to
/// the next punctuation or number, at most eight tokens on.
fn left_out_words(sentence: &str, cues: &Cues) -> Vec<String> {
    let tokens: Vec<&str> = sentence.split_whitespace().collect();
    let mut inside = vec![false; tokens.len()];
    let mut i = 0;
    while i < tokens.len() {
        let opened = cues.leave_out_qualifier.iter().find_map(|q| {
            let q: Vec<&str> = q.split_whitespace().collect();
            tokens[i..].starts_with(&q).then_some(q.len())
        });
        let Some(len) = opened else {
            i += 1;
            continue;
        };
        let start = i + len;
        let end = (start..tokens.len().min(start + 8))
            .find(|j| {
                tokens[*j].chars().all(|c| c.is_ascii_punctuation())
                    || tokens[*j].starts_with(|c: char| c.is_ascii_digit())
            })
            .unwrap_or(tokens.len().min(start + 8));
        for flag in &mut inside[i..end] {
            *flag = true;
        }
        i = end.max(i + 1);
    }
    let words_of = |keep: bool| -> HashSet<String> {
        tokens
            .iter()
            .zip(&inside)
            .filter(|(_, x)| **x == keep)
            .flat_map(|(t, _)| content_words(t))
            .collect()
    };
    let outside = words_of(false);
    let mut out: Vec<String> = words_of(true).difference(&outside).cloned().collect();
    out.sort();
    out
}

/// Each text number's context words and its sentence's words (a sentence's
/// words once, whatever the number of its numbers).
fn fact_words(
    schema: &Schema,
    sentence_words: &[Vec<String>],
    cues: &Cues,
) -> Vec<(Vec<String>, Vec<String>)> {
    let mut words: Vec<(Vec<String>, Vec<String>)> = schema
        .facts
        .iter()
        .map(|f| {
            let sentence = sentence_words
                .get(f.sentence)
                .cloned()
                .unwrap_or_else(|| content_words(&f.sentence_text));
            without_cause(f, content_words(&f.context), sentence, cues)
        })
        .collect();
    // "revenues increased $ 1.4 billion , or 4.1 % , to $ 35.6 billion":
    // the level a stated change ends at (or starts from) is the level of
    // what changed, however far its name
    // and the amount another is compared with ("operating income was
    // $ 312.4 million , or 5.0% of revenue , compared with $ 281.9
    // million") is of what the other is
    for k in 0..schema.facts.len() {
        let source = change_of_level(&schema.facts, k)
            .or_else(|| compared_counterpart(&schema.facts, k, cues));
        if let Some(j) = source {
            let theirs = words[j].0.clone();
            let own = &mut words[k].0;
            for w in theirs {
                if !own.contains(&w) {
                    own.push(w);
                }
            }
        }
    }
    words
}

/// A text number's context and sentence words without those of the cause
/// its sentence gives after it ("increased $ 37.9 million primarily due to
/// higher net revenue"): the cause's words name no measure of the number.
fn without_cause(
    f: &FactEntry,
    context: Vec<String>,
    sentence: Vec<String>,
    cues: &Cues,
) -> (Vec<String>, Vec<String>) {
    let toks: Vec<&str> = f.sentence_text.split_whitespace().collect();
    let opens = |i: usize| {
        cues.cause_connector.iter().any(|c| {
            let c: Vec<&str> = c.split_whitespace().collect();
            toks.get(i..i + c.len()) == Some(&c[..])
        })
    };
    let Some(at) = (f.token + 1..toks.len()).find(|&i| opens(i)) else {
        return (context, sentence);
    };
    let before = content_words(&toks[..at].join(" "));
    let cause: HashSet<String> = content_words(&toks[at..].join(" "))
        .into_iter()
        .filter(|w| !before.contains(w))
        .collect();
    let keep = |ws: Vec<String>| ws.into_iter().filter(|w| !cause.contains(w)).collect();
    (keep(context), keep(sentence))
}

/// The amount the `k`th text number is compared with: the nearest money
/// amount before the compared lead ("compared with") just before it, at
/// most sixteen tokens back in its sentence with no ";" between.
fn compared_counterpart(facts: &[FactEntry], k: usize, cues: &Cues) -> Option<usize> {
    let f = &facts[k];
    let tokens: Vec<&str> = f.sentence_text.split_whitespace().collect();
    let mut end = f.token.min(tokens.len());
    if end > 0 && tokens[end - 1] == "$" {
        end -= 1;
    }
    let lead = cues.compared_lead.iter().find_map(|l| {
        let l: Vec<&str> = l.split_whitespace().collect();
        tokens[..end].ends_with(&l).then(|| end - l.len())
    })?;
    facts
        .iter()
        .enumerate()
        .filter(|(_, c)| c.sentence == f.sentence && !c.percent && !c.is_year_mention)
        .filter(|(_, c)| c.token < lead && lead - c.token <= 16)
        .filter(|(_, c)| !tokens[c.token..lead].contains(&";"))
        .max_by_key(|(_, c)| c.token)
        .map(|(j, _)| j)
}

/// The stated change of the same sentence that the `k`th text number is
/// the end (or start) of: a number printed after "to" or "from" (and its
/// currency sign), with a change before it and no clause break between.
fn change_of_level(facts: &[FactEntry], k: usize) -> Option<usize> {
    let f = &facts[k];
    let tokens: Vec<&str> = f.sentence_text.split_whitespace().collect();
    let mut at = f.token.checked_sub(1)?;
    if tokens.get(at) == Some(&"$") {
        at = at.checked_sub(1)?;
    }
    if !matches!(tokens.get(at), Some(&"to") | Some(&"from")) {
        return None;
    }
    facts
        .iter()
        .enumerate()
        .filter(|(_, c)| c.sentence == f.sentence && c.is_change && c.token < f.token)
        .filter(|(_, c)| !tokens[c.token..f.token].contains(&";"))
        .max_by_key(|(_, c)| c.token)
        .map(|(j, _)| j)
}

/// For each text number, whether it and the word before it are a phrase
/// of a row or column label ("s&p 500").
/// Whether a text number is a street number of an address ("the 141 west
/// jackson complex", "20 south wacker drive"): a bare whole number a
/// compass point follows, or a street word two or three words on.
fn in_address(f: &FactEntry, cues: &Cues) -> bool {
    let toks: Vec<&str> = f.sentence_text.split_whitespace().collect();
    let is = |k: usize, list: &[String]| toks.get(k).is_some_and(|t| list.iter().any(|w| w == t));
    let bare = !f.percent && f.scale.is_none() && !f.raw.contains('$') && f.value.fract().is_zero();
    bare && (is(f.token + 1, &cues.compass_point)
        || is(f.token + 2, &cues.street_word)
        || is(f.token + 3, &cues.street_word))
}

fn facts_in_names(schema: &Schema) -> Vec<bool> {
    let labels: Vec<String> = schema
        .rows
        .iter()
        .chain(&schema.columns)
        .map(|(l, _)| format!(" {} ", l.split_whitespace().collect::<Vec<_>>().join(" ")))
        .collect();
    schema
        .facts
        .iter()
        .map(|f| {
            let toks: Vec<&str> = f.sentence_text.split_whitespace().collect();
            let (Some(prev), Some(number)) = (
                f.token.checked_sub(1).and_then(|k| toks.get(k)),
                toks.get(f.token),
            ) else {
                return false;
            };
            let phrase = format!(" {prev} {number} ");
            prev.chars().any(char::is_alphabetic) && labels.iter().any(|l| l.contains(&phrase))
        })
        .collect()
}

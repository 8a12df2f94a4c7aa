//! What the trigger search must not read as an operation: spans of time
//! ("over the years", "over 2014 and 2015"), idioms ("fall due"),
//! durations ("more than one year"), and an average the page prints as
//! part of a name ("average assets under management").

use super::numbers::{within, years_joined_at};
use crate::plan::cues::Cues;
use crate::plan::operation::Operation;
use crate::plan::page::PageIndex;
use crate::plan::rules::RulesPlanner;
use crate::words::content_words;

impl RulesPlanner {
    /// Masks an average's trigger (or a sum word) the page prints as part
    /// of a name with the word after it ("average assets under management
    /// were $ 541.1 billion", "average monthly rental revenue", "the
    /// combined ratio was 101.3 %"): "how much did average assets grow?"
    /// asks about that amount, not for a mean; "what was the combined
    /// ratio in 2012?" for the ratio printed, not a sum.
    pub(super) fn mask_printed_averages(&self, text: &str, page: &PageIndex) -> String {
        // and a sum word the text prints as a term ("the combined ratio")
        let triggers: Vec<&String> = self
            .patterns
            .iter()
            .filter(|(op, _)| *op == Operation::Average)
            .flat_map(|(_, p)| p.triggers.iter())
            .chain(&self.cues.sum_word)
            .filter(|t| !t.contains(' '))
            .collect();
        let mut toks: Vec<&str> = text.split_whitespace().collect();
        for i in 0..toks.len().saturating_sub(1) {
            let next = toks[i + 1];
            if !triggers.iter().any(|t| t.as_str() == toks[i]) || content_words(next).is_empty() {
                continue;
            }
            let phrase = format!(" {} {next} ", toks[i]);
            if page.spaced_sentences.iter().any(|s| s.contains(&phrase)) {
                toks[i] = "_";
            }
        }
        format!(" {} ", toks.join(" "))
    }
}

/// "over the years", "over this period", "over 2014 and 2015": spans of time,
/// not divisions; and idioms whose trigger word asks for nothing ("fall
/// due").
pub(super) fn mask_time_spans(text: &str, cues: &Cues) -> String {
    // an idiom's words ("fall due") are no trigger
    let mut text = format!(" {} ", text.trim());
    for idiom in &cues.trigger_idiom {
        let masked = format!(
            " {} ",
            vec!["_"; idiom.split_whitespace().count()].join(" ")
        );
        text = text.replace(&format!(" {idiom} "), &masked);
    }
    let toks: Vec<&str> = text.split_whitespace().collect();
    let mut out: Vec<&str> = Vec::with_capacity(toks.len());
    for (i, t) in toks.iter().enumerate() {
        let is_span =
            within(&cues.time_span_lead, Some(t)) && opens_time_span(cues, &toks[i + 1..]);
        out.push(if is_span { "_" } else { t });
    }
    mask_durations(&out, cues)
}

/// Whether `toks` opens with a span of time ("the years", "that period",
/// "2014 and 2015", a list "2007 , 2008 and 2009"), after a time span lead
/// ("over").
fn opens_time_span(cues: &Cues, toks: &[&str]) -> bool {
    let year = |k: usize| {
        toks.get(k)
            .and_then(|t| crate::kg::text::as_year(t))
            .is_some()
    };
    within(&cues.time_span_determiner, toks.first()) && within(&cues.time_span_word, toks.get(1))
        || years_joined_at(toks, 0, &cues.range_joiner, &cues.period_joiner).is_some()
        || year(0) && year(1)
}

/// "a remaining term of more than one year": a comparative before a length
/// of time describes a term; it asks for no change.
fn mask_durations(toks: &[&str], cues: &Cues) -> String {
    let is_number = |t: Option<&&str>| {
        t.is_some_and(|t| cues.number_word(t).is_some() || t.parse::<f64>().is_ok())
    };
    let mut out: Vec<&str> = toks.to_vec();
    for i in 0..toks.len() {
        let than = toks
            .get(i + 1)
            .is_some_and(|t| cues.than_word.iter().any(|w| w == t));
        if within(&cues.comparative_word, toks.get(i))
            && than
            && is_number(toks.get(i + 2))
            && within(&cues.duration_word, toks.get(i + 3))
        {
            out[i] = "_";
            out[i + 1] = "_";
        }
    }
    format!(" {} ", out.join(" "))
}

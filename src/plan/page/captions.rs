//! The caption (the sentence just before the table) and the words it and a
//! schedule's total lend rows: a bare "total" row, a roll-forward's closing
//! balance, a schedule's period rows; initialisms the page defines.

use super::PageIndex;
use crate::kg::Schema;
use crate::plan::cues::{Boundary, Cues};
use crate::words::{self, content_words};

impl PageIndex {
    /// The words the caption and a schedule's total lend each row.
    pub(super) fn index_captions(&mut self, schema: &Schema, cues: &Cues) {
        let caption = caption_words(schema, cues).unwrap_or_default();
        // a sentence that states an amount is a fact of its own, whatever
        // the table prints ("the company had 8 new stores in 2009")
        let states_amount = schema.pre_sentences.checked_sub(1).is_some_and(|c| {
            schema
                .facts
                .iter()
                .any(|f| f.sentence == c && !f.is_year_mention)
        });
        if !states_amount {
            self.caption_words.clone_from(&caption);
        }
        let mut row_caption_words =
            caption_names_total(cues, &caption, &self.row_words, &self.row_boundary);
        schedule_total_names_years(
            schema,
            cues,
            &self.row_words,
            &self.column_words,
            &self.row_year_ranges,
            &caption,
            &mut row_caption_words,
        );
        self.row_caption_words = row_caption_words;
    }
}

/// The specific words of the table's caption, the sentence just before the
/// table ("the following table summarizes our contractual obligations"),
/// less months and numbers; none when that sentence states amounts the
/// table does not print (a fact of its own, not a caption).
fn caption_words(schema: &Schema, cues: &Cues) -> Option<Vec<String>> {
    let caption_index = schema.pre_sentences.checked_sub(1)?;
    let caption = schema.sentences.get(caption_index)?;
    let states_amounts = schema.facts.iter().any(|f| {
        f.sentence == caption_index
            && !f.is_year_mention
            && !f.percent
            && !schema.cells.iter().any(|c| c.value.abs() == f.value.abs())
    });
    if states_amounts {
        return None;
    }
    // "( excluding lease obligations )" names what the table leaves out
    let mut kept: Vec<&str> = Vec::new();
    let mut excluded = false;
    let tokens: Vec<&str> = caption.split_whitespace().collect();
    for (i, t) in tokens.iter().enumerate() {
        if matches!(t.as_bytes(), [b')' | b',' | b';']) {
            excluded = false;
        } else if cues.exclusion_connector.iter().any(|c| {
            let c: Vec<&str> = c.split_whitespace().collect();
            tokens[i..].starts_with(&c)
        }) {
            excluded = true;
        }
        if !excluded {
            kept.push(t);
        }
    }
    // an initialism the page defines ("the allowance for loan and lease
    // losses ( alll )") names what its words name
    let defined: Vec<String> = kept
        .iter()
        .filter_map(|t| initialism_definition(schema, t))
        .collect();
    kept.extend(defined.iter().map(String::as_str));
    Some(
        cues.specific(&content_words(&kept.join(" ")))
            .into_iter()
            .filter(|w| words::month_in(w).is_none() && !w.chars().any(|c| c.is_ascii_digit()))
            .collect(),
    )
}

/// The words an initialism stands for where the page defines it: the run
/// of words before "( alll )" whose initials spell it, stop words passed
/// over ("allowance for loan and lease losses").
fn initialism_definition(schema: &Schema, initialism: &str) -> Option<String> {
    if !(2..=6).contains(&initialism.len()) || !initialism.chars().all(|c| c.is_ascii_lowercase()) {
        return None;
    }
    let letters: Vec<char> = initialism.chars().collect();
    let bracketed = format!("( {initialism} )");
    let defining = schema.sentences.iter().filter(|s| s.contains(&bracketed));
    defining.into_iter().find_map(|sentence| {
        let toks: Vec<String> = sentence.split_whitespace().map(str::to_string).collect();
        let at = toks.windows(3).position(|w| w == ["(", initialism, ")"])?;
        // the run that ends just before the bracket, each letter a content
        // word's
        (0..at).rev().find_map(|start| {
            let (end, _) = words::spelling_run_at(&toks, start, &letters, true)?;
            (end == at).then(|| toks[start..at].join(" "))
        })
    })
}

/// A row named only "total" totals what the table is about: the words of
/// its caption, the sentence just before the table ("the following table
/// summarizes our contractual obligations"), less months and cue words.
fn caption_names_total(
    cues: &Cues,
    caption: &[String],
    row_words: &[Vec<String>],
    row_boundary: &[Option<Boundary>],
) -> Vec<Vec<String>> {
    let mut aliases: Vec<Vec<String>> = vec![Vec::new(); row_words.len()];
    if caption.is_empty() {
        return aliases;
    }
    let total = words::stem(&cues.total_word);
    // a roll-forward's closing balance is the amount the caption names;
    // every closing row after the last opening one ("net balance at
    // december 31" and "balance at december 31"), whose own words then say
    // which
    let last_opening = row_boundary
        .iter()
        .rposition(|b| *b == Some(Boundary::Beginning));
    let closing = |row: usize| {
        row_boundary[row] == Some(Boundary::End) && last_opening.is_none_or(|o| row > o)
    };
    // and its opening balance, the same amount a period earlier, when the
    // table opens with one
    let opening = |row: usize| {
        row == 0
            && row_boundary[row] == Some(Boundary::Beginning)
            && (1..row_boundary.len()).any(closing)
    };
    for (row, label) in row_words.iter().enumerate() {
        let bare_total = !label.is_empty() && label.iter().all(|w| *w == total);
        if bare_total || closing(row) || opening(row) {
            for w in caption {
                if !aliases[row].contains(w) {
                    aliases[row].push(w.clone());
                }
            }
        }
    }
    aliases
}

/// In a schedule whose rows are years ("2011", "2012", ..., "total
/// minimum lease payments"), the total row's label names what every year
/// row measures: the year rows take its words (less the total word), and a
/// total row named only "total" lends its caption's.
fn schedule_total_names_years(
    schema: &Schema,
    cues: &Cues,
    row_words: &[Vec<String>],
    column_words: &[Vec<String>],
    row_year_ranges: &[Vec<(i32, i32)>],
    caption: &[String],
    row_caption_words: &mut [Vec<String>],
) {
    let total = words::stem(&cues.total_word);
    // a row of years, or of a range of years ("2018-2022")
    let range = |r: usize| !row_year_ranges[r].is_empty();
    let year_row = |r: usize| {
        cues.specific(&row_words[r])
            .iter()
            .all(|w| w.bytes().any(|b| b.is_ascii_digit()))
            && (range(r)
                || schema
                    .cells
                    .iter()
                    .any(|c| c.row == r && c.row_year.is_some()))
    };
    let year_rows: Vec<usize> = (0..row_words.len())
        .filter(|&r| year_row(r) || is_period_label(&schema.rows[r].0, cues))
        .collect();
    let totals: Vec<usize> = (0..row_words.len())
        .filter(|&r| row_words[r].contains(&total))
        .collect();
    let names: Vec<String> = match (year_rows.as_slice(), totals.as_slice()) {
        ([.., _, _], [t]) => row_words[*t]
            .iter()
            .chain(&row_caption_words[*t])
            .filter(|w| **w != total)
            .chain(caption)
            .cloned()
            .collect(),
        // no total: the caption names what each year row measures, when
        // no column names a measure of its own
        ([.., _, _], []) if column_words.iter().all(|c| cues.specific(c).is_empty()) => {
            caption.to_vec()
        }
        _ => return,
    };
    for r in year_rows {
        for w in &names {
            if !row_caption_words[r].contains(w) {
                row_caption_words[r].push(w.clone());
            }
        }
    }
}

/// Whether a label names only a month or a quarter ("january", "fourth
/// quarter", "march 2014"): a period, not a measure.
fn is_period_label(label: &str, cues: &Cues) -> bool {
    let toks = words::tokens(label);
    let period = |t: &String| {
        words::month_number(t).is_some()
            || words::quarter_in(&format!("{t} quarter")).is_some()
            || words::quarter_in(t).is_some()
            || cues.period_noun.contains(t)
            || t.bytes().all(|b| b.is_ascii_digit() || b == b',')
            || words::is_stop_word(t)
    };
    (words::month_in(label).is_some() || words::quarter_in(label).is_some())
        && toks.iter().all(period)
}

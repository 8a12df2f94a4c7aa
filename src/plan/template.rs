//! Formula templates: the `fk:formulaTemplate` of each calculation pattern
//! (`ontology/patterns.ttl`) read as text over named slots, filled with the
//! formula text of the plan's operands.
//!
//! The language is small: every identifier (`new`, `part`, `from`) is a
//! slot, everything else (operators, parentheses, spaces, numbers) is kept
//! as written, and `...` after a slot and an operator repeats that operator
//! with each further operand (`a + b + ...` adds up any number of terms).
//! Slots are matched as whole identifiers, so filling `a` never touches the
//! `a` inside `part`.

use std::fmt;

/// One piece of a template.
#[derive(Debug, Clone, PartialEq)]
enum Piece {
    /// Text kept as written.
    Text(String),
    /// A named slot.
    Slot(String),
    /// `...`: each further operand, after the separator written before it.
    More { separator: String },
}

/// A parsed formula template.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Template {
    source: String,
    pieces: Vec<Piece>,
}

/// Why a template could not be filled or read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct TemplateError(pub String);

impl fmt::Display for TemplateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Whether `c` may start an identifier.
fn starts_identifier(c: char) -> bool {
    c.is_ascii_alphabetic() || c == '_'
}

/// Whether `c` may continue an identifier.
fn continues_identifier(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

impl Template {
    /// Reads a template; `...` must follow a slot and a separator.
    pub fn parse(source: &str) -> Result<Self, TemplateError> {
        let mut pieces: Vec<Piece> = Vec::new();
        let mut text = String::new();
        let mut chars = source.char_indices().peekable();
        while let Some((i, c)) = chars.next() {
            if starts_identifier(c) {
                let mut end = i + c.len_utf8();
                while let Some((j, d)) = chars.peek().copied() {
                    if !continues_identifier(d) {
                        break;
                    }
                    end = j + d.len_utf8();
                    chars.next();
                }
                if !text.is_empty() {
                    pieces.push(Piece::Text(std::mem::take(&mut text)));
                }
                pieces.push(Piece::Slot(source[i..end].to_string()));
            } else if source[i..].starts_with("...") {
                chars.next();
                chars.next();
                let after_slot = matches!(pieces.last(), Some(Piece::Slot(_)));
                if text.trim().is_empty() || !after_slot {
                    return Err(TemplateError(format!(
                        "`...` must follow a slot and an operator in `{source}`"
                    )));
                }
                pieces.push(Piece::More {
                    separator: std::mem::take(&mut text),
                });
            } else {
                text.push(c);
            }
        }
        if !text.is_empty() {
            pieces.push(Piece::Text(text));
        }
        Ok(Self {
            source: source.to_string(),
            pieces,
        })
    }

    /// The slots the template names, in order of first appearance.
    pub fn slots(&self) -> Vec<&str> {
        let mut out: Vec<&str> = Vec::new();
        for p in &self.pieces {
            if let Piece::Slot(s) = p {
                if !out.contains(&s.as_str()) {
                    out.push(s);
                }
            }
        }
        out
    }

    /// Whether the template takes further operands (`...`).
    pub fn variadic(&self) -> bool {
        self.pieces.iter().any(|p| matches!(p, Piece::More { .. }))
    }

    /// The template with each slot replaced by its text and `...` by the
    /// `more` operands. Every slot must be given, and every given slot must
    /// be one of the template's.
    pub fn fill(&self, slots: &[(&str, &str)], more: &[String]) -> Result<String, TemplateError> {
        if let Some((name, _)) = slots.iter().find(|(n, _)| !self.slots().contains(n)) {
            return Err(TemplateError(format!(
                "`{}` has no slot `{name}`",
                self.source
            )));
        }
        if !more.is_empty() && !self.variadic() {
            return Err(TemplateError(format!(
                "`{}` takes no further operands",
                self.source
            )));
        }
        let mut out = String::new();
        for p in &self.pieces {
            match p {
                Piece::Text(t) => out.push_str(t),
                Piece::Slot(s) => {
                    let (_, text) = slots.iter().find(|(n, _)| n == s).ok_or_else(|| {
                        TemplateError(format!("slot `{s}` of `{}` is not filled", self.source))
                    })?;
                    out.push_str(text);
                }
                Piece::More { separator } => {
                    for m in more {
                        out.push_str(separator);
                        out.push_str(m);
                    }
                }
            }
        }
        Ok(out)
    }
}

impl fmt::Display for Template {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.source)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(s: &str) -> Template {
        Template::parse(s).unwrap()
    }

    #[test]
    fn slots_are_whole_identifiers() {
        let tpl = t("a * from / to");
        assert_eq!(tpl.slots().join(" "), "a from to");
        let filled = tpl
            .fill(
                &[("a", "base"), ("from", "from_scale"), ("to", "to_scale")],
                &[],
            )
            .unwrap();
        assert_eq!(filled, "base * from_scale / to_scale");
    }

    #[test]
    fn a_slot_may_appear_twice_and_take_any_text() {
        let filled = t("(new - old) / old")
            .fill(&[("new", "abs(new)"), ("old", "old_2")], &[])
            .unwrap();
        assert_eq!(filled, "(abs(new) - old_2) / old_2");
    }

    #[test]
    fn filled_text_is_not_read_again() {
        let filled = t("part / whole")
            .fill(&[("part", "whole"), ("whole", "part")], &[])
            .unwrap();
        assert_eq!(filled, "whole / part");
    }

    #[test]
    fn an_ellipsis_repeats_the_last_operator() {
        let more = vec!["z".to_string(), "w".to_string()];
        let sum = t("a + b + ...");
        assert!(sum.variadic());
        assert_eq!(sum.fill(&[("a", "x"), ("b", "y")], &[]).unwrap(), "x + y");
        assert_eq!(
            sum.fill(&[("a", "x"), ("b", "y")], &more).unwrap(),
            "x + y + z + w"
        );
        let mean = t("(a + b + ...) / n");
        assert_eq!(
            mean.fill(
                &[("a", "t"), ("b", "t_2"), ("n", "count")],
                &["t_3".to_string()]
            )
            .unwrap(),
            "(t + t_2 + t_3) / count"
        );
    }

    #[test]
    fn numbers_and_operators_are_kept() {
        let tpl = t("(a + b) / 2");
        assert_eq!(tpl.slots().join(" "), "a b");
        assert_eq!(
            tpl.fill(&[("a", "x"), ("b", "y")], &[]).unwrap(),
            "(x + y) / 2"
        );
    }

    #[test]
    fn misfits_are_errors() {
        assert!(t("x").fill(&[], &[]).is_err());
        assert!(t("x").fill(&[("x", "v"), ("y", "w")], &[]).is_err());
        assert!(t("a > b")
            .fill(&[("a", "v"), ("b", "w")], &["z".to_string()])
            .is_err());
        assert!(Template::parse("... + a").is_err());
        assert!(Template::parse("a ...").is_err());
    }
}

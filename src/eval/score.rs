//! The scoring rule of `../shared/convfinqa/README.md`: the only code that
//! reads gold answers.
//!
//! A turn is right when the gold is yes/no and the answer is the same word,
//! or when `|p - g| <= max(0.001 * |g|, 0.0001)`, or when the gold text ends
//! with `%` and `p / 100` is that close to `g`.

use crate::dataset::GoldAnswer;
use crate::turn::Answer;
use rust_decimal::Decimal;

fn close(p: Decimal, g: Decimal) -> bool {
    let tolerance = (g.abs() * Decimal::new(1, 3)).max(Decimal::new(1, 4));
    p.checked_sub(g).is_some_and(|d| d.abs() <= tolerance)
}

/// Whether a predicted answer is right for a gold answer and its printed text.
pub fn is_correct(predicted: Option<&Answer>, gold: &GoldAnswer, gold_text: &str) -> bool {
    match (predicted, gold) {
        (Some(Answer::Yes), GoldAnswer::Yes) | (Some(Answer::No), GoldAnswer::No) => true,
        (Some(Answer::Number(p)), GoldAnswer::Number(g)) => {
            close(*p, *g)
                || (gold_text.trim().ends_with('%')
                    && p.checked_div(Decimal::ONE_HUNDRED)
                        .is_some_and(|q| close(q, *g)))
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::str::FromStr;

    fn n(s: &str) -> Decimal {
        Decimal::from_str(s).unwrap()
    }

    #[test]
    fn the_rule() {
        let g = GoldAnswer::Number(n("1.42403"));
        assert!(is_correct(
            Some(&Answer::Number(n("1.4240254"))),
            &g,
            "142.4%"
        ));
        assert!(is_correct(Some(&Answer::Number(n("142.4"))), &g, "142.4%"));
        assert!(!is_correct(Some(&Answer::Number(n("142.4"))), &g, "1.42"));
        assert!(!is_correct(Some(&Answer::Number(n("1.43"))), &g, "142.4%"));
        assert!(!is_correct(None, &g, "142.4%"));
        let zero = GoldAnswer::Number(Decimal::ZERO);
        assert!(is_correct(Some(&Answer::Number(n("0.00009"))), &zero, "0"));
        assert!(!is_correct(Some(&Answer::Number(n("0.0002"))), &zero, "0"));
        assert!(is_correct(Some(&Answer::Yes), &GoldAnswer::Yes, "yes"));
        assert!(!is_correct(Some(&Answer::No), &GoldAnswer::Yes, "yes"));
        assert!(!is_correct(
            Some(&Answer::Number(Decimal::ONE)),
            &GoldAnswer::Yes,
            "yes"
        ));
    }
}

//! When two words meet (`same_word`): equal, one a short extension of the
//! other, an adjective and its comparison, or two long words one typing
//! slip apart. The grounder's features and the planner's steps all match
//! words by it.

use crate::words;

/// Words that meet: equal, one a short extension of the other ("africa"
/// and "african", "europ" and "european"), or an adjective and its
/// comparison ("low" and "lowest", "high" and "higher").
pub(in crate::plan) fn same_word(a: &str, b: &str) -> bool {
    if a == b {
        return true;
    }
    let (short, long) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    let extension = long.len() - short.len();
    (short.len() >= 4
        && (extension <= 2 || short.len() >= 5 && extension <= 3)
        && long.starts_with(short))
        || words::compared(short, long)
        || one_typo_apart(short, long)
}

/// Two long words (seven letters or more, the same first letter) one
/// typing slip apart: a letter left out, added, changed, or two swapped
/// ("lousiana" for "louisiana").
fn one_typo_apart(short: &str, long: &str) -> bool {
    let (s, l) = (short.as_bytes(), long.as_bytes());
    if s.len() < 7 || l.len() - s.len() > 1 || s[0] != l[0] {
        return false;
    }
    let head = s.iter().zip(l).take_while(|(x, y)| x == y).count();
    if s.len() == l.len() {
        let tail_same = |from: usize| s[from..] == l[from..];
        // one letter changed, or two neighbours swapped
        head == s.len()
            || tail_same(head + 1)
            || (head + 1 < s.len()
                && s[head] == l[head + 1]
                && s[head + 1] == l[head]
                && tail_same(head + 2))
    } else {
        // one letter left out of the shorter
        s[head..] == l[head + 1..]
    }
}

//! Kuhn and Leduc poker: tiny two-player poker games with hidden private cards
//! and known exact answers (Nash values, the uniform policy's exploitability),
//! used to validate hidden-information search against
//! [`crate::analysis::exploitability`]. Rules as in the literature and in
//! OpenSpiel (`kuhn_poker`, `leduc_poker`), including action numbering; the deal
//! is chance nodes, so a game's tree is enumerable. See `RULES.md`.

mod encoding;
pub mod kuhn;
pub mod leduc;

/// A card slot not dealt yet.
pub const NO_CARD: u8 = u8::MAX;

/// The `k`-th card (in increasing order) of `0..deck` not among `used`.
fn nth_free(deck: u8, used: &[u8], mut k: usize) -> u8 {
    for c in 0..deck {
        if !used.contains(&c) {
            if k == 0 {
                return c;
            }
            k -= 1;
        }
    }
    unreachable!("fewer than k free cards")
}

/// How many cards of `0..deck` are not among `used` (`NO_CARD`s are ignored).
fn free_count(deck: u8, used: &[u8]) -> usize {
    (0..deck).filter(|c| !used.contains(c)).count()
}

/// +1 if `a` beats `b`, -1 if it loses, 0 for a tie.
fn sign(a: u32, b: u32) -> f64 {
    match a.cmp(&b) {
        std::cmp::Ordering::Greater => 1.0,
        std::cmp::Ordering::Less => -1.0,
        std::cmp::Ordering::Equal => 0.0,
    }
}

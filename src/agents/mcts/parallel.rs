//! Root-parallel search: `threads` independent trees per decision, each with
//! its own random stream, their root visit counts summed (Chaslot, Winands &
//! van den Herik 2008). Each tree's seed is drawn from the agent's stream in
//! tree order before any search starts, so for a given number of trees the
//! decision is the same whichever thread runs which tree and however many
//! threads the runner uses; with one tree the agent's stream is used as is.

use rand::RngCore;

use crate::rng::{GameRng, rng_from_seed};

/// Runs `search` on every searcher, on threads of their own when there are
/// several, and returns the iterations run in total.
pub fn search_all<S: Send>(
    searchers: &mut [S],
    rng: &mut GameRng,
    search: impl Fn(&mut S, &mut GameRng) -> u64 + Sync,
) -> u64 {
    if let [only] = searchers {
        return search(only, rng);
    }
    let seeds: Vec<u64> = searchers.iter().map(|_| rng.next_u64()).collect();
    let search = &search;
    std::thread::scope(|scope| {
        let handles: Vec<_> = searchers
            .iter_mut()
            .zip(seeds)
            .map(|(s, seed)| scope.spawn(move || search(s, &mut rng_from_seed(seed))))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .sum()
    })
}

/// Sums (action, visits) pairs per action, in the order of `legal`.
pub fn merge_visits<A: Copy + PartialEq>(
    legal: &[A],
    totals: &mut Vec<u64>,
    pairs: impl Iterator<Item = (A, u64)>,
) {
    if totals.len() != legal.len() {
        totals.clear();
        totals.resize(legal.len(), 0);
    }
    for (a, v) in pairs {
        if let Some(i) = legal.iter().position(|&l| l == a) {
            totals[i] += v;
        }
    }
}

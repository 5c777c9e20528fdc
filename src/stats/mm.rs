//! The minorization–maximization (MM) algorithm of Hunter (2004, "MM
//! algorithms for generalized Bradley–Terry models") for choice models: each
//! observation is a *stage* in which one item was chosen from a set with
//! probability `γ_winner / Σ_{j in set} γ_j`. Bradley–Terry (a stage per game
//! of two) and Plackett–Luce (a stage per place of a ranking) are both fitted by
//! this one loop. Each MM step provably increases the likelihood, needs no step
//! size, and converges to the maximum-likelihood estimate whenever it exists.

use std::collections::{BTreeMap, BTreeSet};

/// One choice: `winner` was chosen from `set` (which contains it), counting
/// `weight` times. An agent may appear more than once in `set`.
#[derive(Clone, Debug, PartialEq)]
pub struct Stage {
    /// The chosen agent.
    pub winner: usize,
    /// The agents it was chosen from, winner included.
    pub set: Vec<usize>,
    /// How many times this choice counts (fractional for ties).
    pub weight: f64,
}

/// Merges stages with the same winner and set, summing their weights, so one
/// MM iteration costs the number of distinct stages, not of games.
pub fn aggregate(stages: impl IntoIterator<Item = Stage>) -> Vec<Stage> {
    let mut merged: BTreeMap<(usize, Vec<usize>), f64> = BTreeMap::new();
    for mut s in stages {
        s.set.sort_unstable();
        *merged.entry((s.winner, s.set)).or_default() += s.weight;
    }
    merged
        .into_iter()
        .map(|((winner, set), weight)| Stage {
            winner,
            set,
            weight,
        })
        .collect()
}

/// Virtual draws that keep the estimate finite: for every pair of agents that
/// appear in `stages`, `prior` games of two in which each wins half. Without
/// them an agent that never wins (or never loses) has an infinite rating. One
/// virtual draw per pair is negligible against hundreds of real games.
pub fn prior_stages(stages: &[Stage], prior: f64) -> Vec<Stage> {
    if prior <= 0.0 {
        return Vec::new();
    }
    let present: BTreeSet<usize> = stages.iter().flat_map(|s| s.set.iter().copied()).collect();
    let present: Vec<usize> = present.into_iter().collect();
    let mut out = Vec::new();
    for (k, &i) in present.iter().enumerate() {
        for &j in &present[k + 1..] {
            for w in [i, j] {
                out.push(Stage {
                    winner: w,
                    set: vec![i, j],
                    weight: prior / 2.0,
                });
            }
        }
    }
    out
}

/// Converged when no log-strength moves by more than this in one step.
const TOLERANCE: f64 = 1e-10;
/// A bound on MM steps; convergence is linear, typically within a few hundred.
const MAX_ITERATIONS: usize = 20_000;

/// Maximum-likelihood strengths of `agents` agents as natural logarithms,
/// anchored so that the agents present in `stages` have mean 0. Agents absent
/// from every stage get 0. An agent present but never chosen drifts towards
/// minus infinity (use [`prior_stages`] to prevent that); it is floored at
/// `ln 1e-12`.
pub fn fit(agents: usize, stages: &[Stage]) -> Vec<f64> {
    let mut wins = vec![0.0; agents];
    let mut present = vec![false; agents];
    for s in stages {
        wins[s.winner] += s.weight;
        for &j in &s.set {
            present[j] = true;
        }
    }
    let mut gamma = vec![1.0f64; agents];
    for _ in 0..MAX_ITERATIONS {
        let mut denom = vec![0.0; agents];
        for s in stages {
            let total: f64 = s.set.iter().map(|&j| gamma[j]).sum();
            for &j in &s.set {
                denom[j] += s.weight / total;
            }
        }
        let mut next: Vec<f64> = (0..agents)
            .map(|i| {
                if present[i] && denom[i] > 0.0 {
                    (wins[i] / denom[i]).max(1e-12)
                } else {
                    1.0
                }
            })
            .collect();
        // Strengths are defined up to a factor: fix the geometric mean at 1.
        let logs: Vec<f64> = (0..agents)
            .filter(|&i| present[i])
            .map(|i| next[i].ln())
            .collect();
        let shift = if logs.is_empty() {
            0.0
        } else {
            logs.iter().sum::<f64>() / logs.len() as f64
        };
        for i in (0..agents).filter(|&i| present[i]) {
            next[i] = (next[i].ln() - shift).exp();
        }
        let change = (0..agents)
            .map(|i| (next[i].ln() - gamma[i].ln()).abs())
            .fold(0.0, f64::max);
        gamma = next;
        if change < TOLERANCE {
            break;
        }
    }
    gamma.iter().map(|g| g.ln()).collect()
}

/// Elo ratings of aggregated `stages` with `prior` virtual draws per pair.
pub fn elo_of(agents: usize, mut stages: Vec<Stage>, prior: f64) -> Vec<f64> {
    let prior = prior_stages(&stages, prior);
    stages.extend(prior);
    to_elo(&fit(agents, &stages))
}

/// Converts natural-log strengths to Elo points: `400 · log10 γ`, so that a
/// difference of `d` means an expected score of `1 / (1 + 10^(-d/400))` for
/// the stronger in a game of two.
pub fn to_elo(log_strengths: &[f64]) -> Vec<f64> {
    log_strengths
        .iter()
        .map(|l| 400.0 * l / std::f64::consts::LN_10)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stage(winner: usize, set: &[usize], weight: f64) -> Stage {
        Stage {
            winner,
            set: set.to_vec(),
            weight,
        }
    }

    #[test]
    fn two_agents_match_the_closed_form() {
        // A chosen over B 3 times, B over A once: γA/γB = 3.
        let stages = [stage(0, &[0, 1], 3.0), stage(1, &[1, 0], 1.0)];
        let elo = to_elo(&fit(2, &stages));
        let diff = 400.0 * 3f64.log10();
        assert!((elo[0] - elo[1] - diff).abs() < 1e-6, "{elo:?}");
        assert!((elo[0] + elo[1]).abs() < 1e-9);
    }

    #[test]
    fn aggregation_merges_equal_stages() {
        let merged = aggregate([
            stage(0, &[1, 0], 1.0),
            stage(0, &[0, 1], 0.5),
            stage(1, &[0, 1], 1.0),
        ]);
        assert_eq!(merged, [stage(0, &[0, 1], 1.5), stage(1, &[0, 1], 1.0)]);
    }

    #[test]
    fn prior_keeps_a_winless_agent_finite() {
        let stages = vec![stage(0, &[0, 1], 10.0)];
        let mut with = stages.clone();
        with.extend(prior_stages(&stages, 1.0));
        let elo = to_elo(&fit(3, &with));
        // 10.5 to 0.5: γ ratio 21.
        assert!((elo[0] - elo[1] - 400.0 * 21f64.log10()).abs() < 1e-6);
        assert_eq!(elo[2], 0.0, "an absent agent stays at 0");
    }
}

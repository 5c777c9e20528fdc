//! Bradley–Terry ratings for games of two: `P(i beats j) = γi / (γi + γj)`,
//! fitted by maximum likelihood with Hunter's MM algorithm ([`super::mm`]).
//! A draw counts as half a win for each side.

use super::bootstrap::{Interval, bootstrap_counted};
use super::mm::{self, Stage};

/// The result of one game of two, from `a`'s side.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PairGame {
    /// One agent.
    pub a: usize,
    /// The other agent.
    pub b: usize,
    /// `a`'s points: 1 win, 0.5 draw, 0 loss.
    pub score_a: f64,
}

/// The choice stages of games of two, each given with the times it was
/// played: `a` chosen over `b` with weight `score_a`, `b` over `a` with
/// weight `1 - score_a`, times that count.
pub fn stages(games: &[(&PairGame, f64)]) -> Vec<Stage> {
    mm::aggregate(games.iter().flat_map(|&(g, times)| {
        stages_of(g).into_iter().map(move |mut s| {
            s.weight *= times;
            s
        })
    }))
}

/// The choice stages of one game, not aggregated.
pub fn stages_of(g: &PairGame) -> Vec<Stage> {
    [(g.a, g.score_a), (g.b, 1.0 - g.score_a)]
        .into_iter()
        .filter(|&(_, w)| w > 0.0)
        .map(|(winner, weight)| Stage {
            winner,
            set: vec![g.a, g.b],
            weight,
        })
        .collect()
}

/// Maximum-likelihood Elo ratings (mean 0 over the agents that played) of
/// `agents` agents, with `prior` virtual draws per pair of agents
/// ([`mm::prior_stages`]) so that unbeaten or winless agents stay finite.
pub fn elo(agents: usize, games: &[&PairGame], prior: f64) -> Vec<f64> {
    let once: Vec<(&PairGame, f64)> = games.iter().map(|&g| (g, 1.0)).collect();
    elo_counted(agents, &once, prior)
}

/// [`elo`] of games given as `(game, times it was played)`.
pub fn elo_counted(agents: usize, games: &[(&PairGame, f64)], prior: f64) -> Vec<f64> {
    let mut s = stages(games);
    s.extend(mm::prior_stages(&s, prior));
    mm::to_elo(&mm::fit(agents, &s))
}

/// What makes two games the same game for a fit.
pub fn same_game(g: &PairGame) -> (usize, usize, u64) {
    (g.a, g.b, g.score_a.to_bits())
}

/// Elo ratings with bootstrap intervals (games resampled with replacement,
/// `resamples` times, from `seed`; see [`bootstrap_counted`]).
pub fn ratings(
    agents: usize,
    games: &[PairGame],
    prior: f64,
    resamples: usize,
    seed: u64,
) -> Vec<Interval> {
    let refs: Vec<&PairGame> = games.iter().collect();
    let point = elo(agents, &refs, prior);
    bootstrap_counted(&point, games, same_game, resamples, seed, |sample| {
        elo_counted(agents, sample, prior)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(a: usize, b: usize, score_a: f64) -> PairGame {
        PairGame { a, b, score_a }
    }

    #[test]
    fn three_wins_to_one_is_a_ratio_of_three() {
        let games = [
            game(0, 1, 1.0),
            game(1, 0, 0.0),
            game(0, 1, 1.0),
            game(0, 1, 0.0),
        ];
        let refs: Vec<&PairGame> = games.iter().collect();
        let elo = elo(2, &refs, 0.0);
        assert!(
            (elo[0] - 400.0 * 3f64.log10() / 2.0).abs() < 1e-6,
            "{elo:?}"
        );
        assert!((elo[1] + 400.0 * 3f64.log10() / 2.0).abs() < 1e-6);
    }

    #[test]
    fn draws_count_half() {
        // Two draws and a win: 2 points to 1, ratio 2.
        let games = [game(0, 1, 0.5), game(0, 1, 0.5), game(1, 0, 0.0)];
        let refs: Vec<&PairGame> = games.iter().collect();
        let elo = elo(2, &refs, 0.0);
        assert!((elo[0] - elo[1] - 400.0 * 2f64.log10()).abs() < 1e-6);
    }

    #[test]
    fn fit_satisfies_the_likelihood_equations() {
        // A hand-made table with a cycle: wins[i][j] = games i won against j.
        let wins = [[0, 7, 3], [3, 0, 6], [5, 4, 0]];
        let mut games = Vec::new();
        for (i, row) in wins.iter().enumerate() {
            for (j, &w) in row.iter().enumerate() {
                games.extend((0..w).map(|_| game(i, j, 1.0)));
            }
        }
        let refs: Vec<&PairGame> = games.iter().collect();
        let elo = elo(3, &refs, 0.0);
        let gamma: Vec<f64> = elo.iter().map(|e| 10f64.powf(e / 400.0)).collect();
        // At the maximum, each agent's wins equal its expected wins.
        for i in 0..3 {
            let won: f64 = (0..3).map(|j| f64::from(wins[i][j])).sum();
            let expected: f64 = (0..3)
                .filter(|&j| j != i)
                .map(|j| f64::from(wins[i][j] + wins[j][i]) * gamma[i] / (gamma[i] + gamma[j]))
                .sum();
            assert!(
                (won - expected).abs() < 1e-6,
                "agent {i}: {won} vs {expected}"
            );
        }
        assert!(elo.iter().sum::<f64>().abs() < 1e-6);
    }

    #[test]
    fn bootstrap_interval_brackets_the_estimate_and_is_deterministic() {
        let games: Vec<PairGame> = (0..200)
            .map(|k| game(k % 2, 1 - k % 2, if k % 10 < 7 { 1.0 } else { 0.0 }))
            .collect();
        let a = ratings(2, &games, 1.0, 100, 7);
        let b = ratings(2, &games, 1.0, 100, 7);
        assert_eq!(a, b);
        for r in &a {
            assert!(r.low < r.estimate && r.estimate < r.high, "{r:?}");
        }
        // Agent 0 scores 80 + 40 of 200, plus half a virtual draw each.
        let expected = 200.0 * (120.5f64 / 80.5).log10();
        assert!((a[0].estimate - expected).abs() < 1e-6, "{a:?}");
        let c = ratings(2, &games, 1.0, 100, 8);
        assert_ne!(a, c, "another seed resamples differently");
    }
}

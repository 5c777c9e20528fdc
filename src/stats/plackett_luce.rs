//! Plackett–Luce ratings for games of three or more: a game's ranking is read
//! as a sequence of choices — first place chosen from everyone with
//! probability `γi / Σ γ`, second from the rest, and so on — fitted by
//! maximum likelihood with Hunter's MM algorithm ([`super::mm`]). With two
//! players it is exactly Bradley–Terry.
//!
//! **Ties.** Tied players are ordered at random, and the likelihood counts
//! every order of a tied group with equal weight (an expected log-likelihood
//! over the tie-breaks). For a tied group `G` of size `t` above the players
//! `L` ranked below it, that gives, for every subset `R ⊆ G` and `w ∈ R`, the
//! stage "`w` chosen from `R ∪ L`" with weight `1 / (C(t, |R|) · |R|)`: the
//! chance that exactly `G \ R` went first, times the chance that `w` is next.
//! The weights of each subset size add up to one, so a group of `t` still
//! counts as `t` places. For two players a tie is a draw counted as half a win
//! each way, as in [`super::bradley_terry`].

use super::bootstrap::{Interval, bootstrap_counted};
use super::mm::{self, Stage};

/// One game: `(agent, place)` per seat, place 0 the best; equal places are
/// ties.
pub type Ranking = Vec<(usize, u32)>;

fn binomial(n: usize, k: usize) -> f64 {
    (0..k).fold(1.0, |acc, i| acc * (n - i) as f64 / (i + 1) as f64)
}

/// The choice stages of one ranked game, ties expanded as described in the
/// module documentation. Stages with a single candidate carry no information
/// and are left out.
pub fn stages(ranking: &[(usize, u32)]) -> Vec<Stage> {
    let mut places: Vec<u32> = ranking.iter().map(|&(_, p)| p).collect();
    places.sort_unstable();
    places.dedup();
    let mut out = Vec::new();
    for place in places {
        let group: Vec<usize> = ranking
            .iter()
            .filter(|&&(_, p)| p == place)
            .map(|&(a, _)| a)
            .collect();
        let lower: Vec<usize> = ranking
            .iter()
            .filter(|&&(_, p)| p > place)
            .map(|&(a, _)| a)
            .collect();
        let t = group.len();
        // Subsets of a tied group by bit mask: at most 2^MAX_PLAYERS of them.
        for mask in 1u32..(1 << t) {
            let remaining: Vec<usize> = (0..t)
                .filter(|&k| mask & (1 << k) != 0)
                .map(|k| group[k])
                .collect();
            let r = remaining.len();
            if r + lower.len() < 2 {
                continue;
            }
            let weight = 1.0 / (binomial(t, r) * r as f64);
            let set: Vec<usize> = remaining.iter().chain(&lower).copied().collect();
            for &w in &remaining {
                out.push(Stage {
                    winner: w,
                    set: set.clone(),
                    weight,
                });
            }
        }
    }
    out
}

/// Maximum-likelihood Elo ratings (mean 0 over the agents that played) from
/// rankings, with `prior` virtual draws per pair of agents
/// ([`mm::prior_stages`]).
pub fn elo(agents: usize, games: &[&Ranking], prior: f64) -> Vec<f64> {
    let once: Vec<(&Ranking, f64)> = games.iter().map(|&g| (g, 1.0)).collect();
    elo_counted(agents, &once, prior)
}

/// [`elo`] of games given as `(ranking, times it was played)`.
pub fn elo_counted(agents: usize, games: &[(&Ranking, f64)], prior: f64) -> Vec<f64> {
    let mut s = mm::aggregate(games.iter().flat_map(|&(g, times)| {
        stages(g).into_iter().map(move |mut s| {
            s.weight *= times;
            s
        })
    }));
    s.extend(mm::prior_stages(&s, prior));
    mm::to_elo(&mm::fit(agents, &s))
}

/// Elo ratings with bootstrap intervals over games (see
/// [`super::bootstrap::bootstrap_counted`]).
pub fn ratings(
    agents: usize,
    games: &[Ranking],
    prior: f64,
    resamples: usize,
    seed: u64,
) -> Vec<Interval> {
    let refs: Vec<&Ranking> = games.iter().collect();
    let point = elo(agents, &refs, prior);
    bootstrap_counted(&point, games, Clone::clone, resamples, seed, |sample| {
        elo_counted(agents, sample, prior)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::bradley_terry::{self, PairGame};
    use rand::Rng;

    fn weight_of(stages: &[Stage], winner: usize, set: &[usize]) -> f64 {
        let mut set = set.to_vec();
        set.sort_unstable();
        stages
            .iter()
            .filter(|s| {
                let mut t = s.set.clone();
                t.sort_unstable();
                s.winner == winner && t == set
            })
            .map(|s| s.weight)
            .sum()
    }

    #[test]
    fn strict_ranking_is_a_sequence_of_choices() {
        let s = stages(&[(2, 1), (0, 0), (1, 2)]);
        assert_eq!(s.len(), 2);
        assert_eq!(weight_of(&s, 0, &[0, 1, 2]), 1.0);
        assert_eq!(weight_of(&s, 2, &[1, 2]), 1.0);
    }

    #[test]
    fn ties_split_the_weight() {
        // A two-player draw: half a win each way.
        let s = stages(&[(0, 0), (1, 0)]);
        assert_eq!(weight_of(&s, 0, &[0, 1]), 0.5);
        assert_eq!(weight_of(&s, 1, &[0, 1]), 0.5);
        // 0 and 1 tied above 2: each first from all three with weight 1/2, then
        // the other beats 2 with weight 1/2.
        let s = stages(&[(0, 0), (1, 0), (2, 1)]);
        assert_eq!(weight_of(&s, 0, &[0, 1, 2]), 0.5);
        assert_eq!(weight_of(&s, 1, &[0, 1, 2]), 0.5);
        assert_eq!(weight_of(&s, 0, &[0, 2]), 0.5);
        assert_eq!(weight_of(&s, 1, &[1, 2]), 0.5);
        let total: f64 = s.iter().map(|s| s.weight).sum();
        assert!((total - 2.0).abs() < 1e-12, "two informative places");
        // Three-way tie: subset sizes 3 and 2 each weigh 1 in all.
        let s = stages(&[(0, 0), (1, 0), (2, 0)]);
        let total: f64 = s.iter().map(|s| s.weight).sum();
        assert!((total - 2.0).abs() < 1e-12);
        assert!((weight_of(&s, 0, &[0, 1]) - 1.0 / 6.0).abs() < 1e-12);
    }

    #[test]
    fn two_player_rankings_equal_bradley_terry() {
        let results = [
            (0, 1, 1.0),
            (1, 0, 0.5),
            (0, 1, 0.0),
            (0, 1, 1.0),
            (1, 0, 0.0),
        ];
        let pairs: Vec<PairGame> = results
            .iter()
            .map(|&(a, b, score_a)| PairGame { a, b, score_a })
            .collect();
        let ranks: Vec<Ranking> = results
            .iter()
            .map(|&(a, b, s)| {
                let (pa, pb) = if s > 0.5 {
                    (0, 1)
                } else if s < 0.5 {
                    (1, 0)
                } else {
                    (0, 0)
                };
                vec![(a, pa), (b, pb)]
            })
            .collect();
        let bt = bradley_terry::elo(2, &pairs.iter().collect::<Vec<_>>(), 1.0);
        let pl = elo(2, &ranks.iter().collect::<Vec<_>>(), 1.0);
        for (x, y) in bt.iter().zip(&pl) {
            assert!((x - y).abs() < 1e-6, "{bt:?} {pl:?}");
        }
    }

    #[test]
    fn symmetric_rankings_give_equal_ratings() {
        let perms = [
            [0, 1, 2],
            [0, 2, 1],
            [1, 0, 2],
            [1, 2, 0],
            [2, 0, 1],
            [2, 1, 0],
        ];
        let games: Vec<Ranking> = perms
            .iter()
            .map(|p| {
                p.iter()
                    .enumerate()
                    .map(|(place, &a)| (a, place as u32))
                    .collect()
            })
            .collect();
        let elo = elo(3, &games.iter().collect::<Vec<_>>(), 0.0);
        assert!(elo.iter().all(|e| e.abs() < 1e-6), "{elo:?}");
    }

    #[test]
    fn recovers_known_strengths_from_simulated_games() {
        // True Elo 0, 100, 200, 300 among four players; 3000 simulated games.
        let truth = [0.0, 100.0, 200.0, 300.0];
        let gamma: Vec<f64> = truth.iter().map(|e| 10f64.powf(e / 400.0)).collect();
        let mut rng = crate::rng::rng_from_seed(11);
        let games: Vec<Ranking> = (0..3000)
            .map(|_| {
                let mut left: Vec<usize> = (0..4).collect();
                let mut ranking = Vec::new();
                while !left.is_empty() {
                    let total: f64 = left.iter().map(|&i| gamma[i]).sum();
                    let mut x = rng.random::<f64>() * total;
                    let mut k = 0;
                    while k + 1 < left.len() && x >= gamma[left[k]] {
                        x -= gamma[left[k]];
                        k += 1;
                    }
                    ranking.push((left.remove(k), ranking.len() as u32));
                }
                ranking
            })
            .collect();
        let r = ratings(4, &games, 1.0, 50, 5);
        for i in 1..4 {
            let diff = r[i].estimate - r[0].estimate;
            assert!((diff - truth[i]).abs() < 25.0, "agent {i}: {diff}");
        }
        // The true value (centred) lies inside the intervals.
        for (i, x) in r.iter().enumerate() {
            let centred = truth[i] - 150.0;
            assert!(x.low <= centred && centred <= x.high, "agent {i}: {x:?}");
        }
    }
}

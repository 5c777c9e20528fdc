//! Percentile bootstrap over games: resample the games with replacement,
//! refit, and read the interval off the spread of the refitted values. It needs
//! no asymptotic variance formula, so it works the same for Bradley–Terry and
//! Plackett–Luce, and it respects that all of a game's rows move together.

use std::collections::BTreeMap;

use rand::Rng;
use rayon::prelude::*;

use super::describe::percentile_nearest_rank;
use crate::rng::{game_seed, rng_from_seed};

/// The confidence level of bootstrap intervals.
pub const LEVEL: f64 = 0.95;

/// The most resamples a bootstrap draws: every command's `--resamples` and
/// `--bootstrap`, and the Python API's, are checked against it.
pub const MAX_RESAMPLES: usize = 100_000;

/// A number of bootstrap resamples as typed (`text`), from 1 to
/// [`MAX_RESAMPLES`]: the one check of the command line and the Python API.
pub fn check_resamples(text: &str) -> Result<usize, String> {
    match text.trim().parse::<usize>() {
        Ok(n @ 1..=MAX_RESAMPLES) => Ok(n),
        _ => Err(format!(
            "'{text}' is not a number of bootstrap resamples from 1 to {MAX_RESAMPLES}"
        )),
    }
}

/// A point estimate with a confidence interval.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct Interval {
    /// The estimate from all the data.
    pub estimate: f64,
    /// Lower bound.
    pub low: f64,
    /// Upper bound.
    pub high: f64,
}

/// 95 % percentile intervals around `point` (the fit on all `games`): `fit`
/// is rerun on `resamples` samples of `games` drawn with replacement, and each
/// bound is the nearest-rank 2.5 % / 97.5 % quantile of the refitted values.
///
/// Deterministic: resample `k` draws from its own generator seeded by
/// `(seed, k)`, so the result is the same for any thread count. With no
/// games or no resamples the interval collapses to the estimate.
pub fn bootstrap<T: Sync>(
    point: &[f64],
    games: &[T],
    resamples: usize,
    seed: u64,
    fit: impl Fn(&[&T]) -> Vec<f64> + Sync,
) -> Vec<Interval> {
    let fits = refits(games.len(), resamples, seed, |draws| {
        let sample: Vec<&T> = draws.map(|i| &games[i]).collect();
        fit(&sample)
    });
    intervals(point, &fits)
}

/// `fit` run once per resample on the indices that resample draws: `n` draws
/// from `0..n`, resample `k` from its own generator seeded by `(seed, k)`.
/// No resamples at all when there are no games.
fn refits(
    n: usize,
    resamples: usize,
    seed: u64,
    fit: impl Fn(&mut dyn Iterator<Item = usize>) -> Vec<f64> + Sync,
) -> Vec<Vec<f64>> {
    if n == 0 {
        return Vec::new();
    }
    (0..resamples as u64)
        .into_par_iter()
        .map(|k| {
            let mut rng = rng_from_seed(game_seed(seed, k));
            fit(&mut (0..n).map(move |_| rng.random_range(0..n)))
        })
        .collect()
}

/// [`bootstrap`] for fits that see the games only through how often each
/// distinct game occurs, as rating fits do. The resamples are the same draws
/// from the same generators, handed to `fit` as `(game, times drawn)` for
/// each distinct game (games with equal `key` are the same game), so a
/// resample of a million games costs a counter per draw, not a copy of them.
pub fn bootstrap_counted<T: Sync, K: Ord>(
    point: &[f64],
    games: &[T],
    key: impl Fn(&T) -> K,
    resamples: usize,
    seed: u64,
    fit: impl Fn(&[(&T, f64)]) -> Vec<f64> + Sync,
) -> Vec<Interval> {
    let mut kinds = Kinds::default();
    let mut seen: BTreeMap<K, u32> = BTreeMap::new();
    let mut distinct: Vec<&T> = Vec::new();
    for g in games {
        let kind = *seen.entry(key(g)).or_insert_with(|| {
            distinct.push(g);
            distinct.len() as u32 - 1
        });
        kinds.push(kind);
    }
    bootstrap_kinds(point, &distinct, &kinds, resamples, seed, |sample| {
        let sample: Vec<(&T, f64)> = sample.iter().map(|&(g, times)| (*g, times)).collect();
        fit(&sample)
    })
}

/// The kind of each game of a sample, in game order: an index into the
/// sample's distinct games, one byte per game while there are at most 256
/// kinds. It is all a counted bootstrap keeps per game.
#[derive(Clone, Debug, Default)]
pub struct Kinds {
    narrow: Vec<u8>,
    wide: Vec<u32>,
}

impl Kinds {
    /// Appends the next game's kind.
    pub fn push(&mut self, kind: u32) {
        if self.wide.is_empty() {
            if let Ok(k) = u8::try_from(kind) {
                self.narrow.push(k);
                return;
            }
            self.wide = self.narrow.drain(..).map(u32::from).collect();
            self.narrow.shrink_to_fit();
        }
        self.wide.push(kind);
    }

    /// Games.
    pub fn len(&self) -> usize {
        self.narrow.len().max(self.wide.len())
    }

    /// No games.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The kind of game `i`.
    pub fn get(&self, i: usize) -> usize {
        if self.wide.is_empty() {
            usize::from(self.narrow[i])
        } else {
            self.wide[i] as usize
        }
    }
}

/// [`bootstrap_counted`] of games given as their distinct kinds and the kind
/// of each game in order, so that a caller reading games one at a time keeps
/// a byte per game instead of the games.
pub fn bootstrap_kinds<T: Sync>(
    point: &[f64],
    distinct: &[T],
    kinds: &Kinds,
    resamples: usize,
    seed: u64,
    fit: impl Fn(&[(&T, f64)]) -> Vec<f64> + Sync,
) -> Vec<Interval> {
    let fits = refits(kinds.len(), resamples, seed, |draws| {
        let mut drawn = vec![0u64; distinct.len()];
        for i in draws {
            drawn[kinds.get(i)] += 1;
        }
        let sample: Vec<(&T, f64)> = distinct
            .iter()
            .zip(&drawn)
            .filter(|&(_, &times)| times > 0)
            .map(|(g, &times)| (g, times as f64))
            .collect();
        fit(&sample)
    });
    intervals(point, &fits)
}

/// Nearest-rank percentile intervals of the refitted values around `point`.
fn intervals(point: &[f64], fits: &[Vec<f64>]) -> Vec<Interval> {
    point
        .iter()
        .enumerate()
        .map(|(i, &estimate)| {
            let values: Vec<f64> = fits.iter().map(|f| f[i]).collect();
            let tail = (1.0 - LEVEL) / 2.0;
            Interval {
                estimate,
                low: percentile_nearest_rank(&values, tail).unwrap_or(estimate),
                high: percentile_nearest_rank(&values, 1.0 - tail).unwrap_or(estimate),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bootstrap_of_a_mean_is_close_to_the_normal_interval() {
        // 0/1 data with mean 0.3, n = 400: normal interval ± 1.96·sqrt(.21/400) = ± 0.045.
        let data: Vec<f64> = (0..400).map(|k| f64::from(k % 10 < 3)).collect();
        let mean = |s: &[&f64]| vec![s.iter().copied().sum::<f64>() / s.len() as f64];
        let r = bootstrap(&[0.3], &data, 400, 3, mean)[0];
        assert!((r.low - 0.255).abs() < 0.012, "{r:?}");
        assert!((r.high - 0.345).abs() < 0.012, "{r:?}");
        assert_eq!(r, bootstrap(&[0.3], &data, 400, 3, mean)[0]);
    }

    #[test]
    fn no_games_collapse_the_interval() {
        let r = bootstrap(&[1.5], &[] as &[f64], 100, 1, |_| vec![0.0])[0];
        assert_eq!((r.low, r.estimate, r.high), (1.5, 1.5, 1.5));
    }

    #[test]
    fn counted_resamples_are_the_plain_resamples() {
        // The same draws, seen as counts of distinct games: a fit that only
        // sums gives the same interval either way.
        let data: Vec<u32> = (0..300).map(|k| k % 7 + (k % 3) * 10).collect();
        let mean =
            |s: &[&u32]| vec![s.iter().map(|&&v| f64::from(v)).sum::<f64>() / s.len() as f64];
        let counted_mean = |s: &[(&u32, f64)]| {
            let n: f64 = s.iter().map(|(_, c)| c).sum();
            vec![s.iter().map(|(v, c)| f64::from(**v) * c).sum::<f64>() / n]
        };
        let point = mean(&data.iter().collect::<Vec<_>>());
        let plain = bootstrap(&point, &data, 200, 9, mean);
        let counted = bootstrap_counted(&point, &data, |v| *v, 200, 9, counted_mean);
        assert_eq!(plain, counted);
        assert!(plain[0].low < plain[0].high);
    }
}

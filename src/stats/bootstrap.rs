//! Percentile bootstrap over games: resample the games with replacement,
//! refit, and read the interval off the spread of the refitted values. It needs
//! no asymptotic variance formula, so it works the same for Bradley–Terry and
//! Plackett–Luce, and it respects that all of a game's rows move together.

use rand::Rng;
use rayon::prelude::*;

use super::describe::percentile_nearest_rank;
use crate::rng::{game_seed, rng_from_seed};

/// The confidence level of bootstrap intervals.
pub const LEVEL: f64 = 0.95;

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
    let n = games.len();
    let fits: Vec<Vec<f64>> = if n == 0 {
        Vec::new()
    } else {
        (0..resamples as u64)
            .into_par_iter()
            .map(|k| {
                let mut rng = rng_from_seed(game_seed(seed, k));
                let sample: Vec<&T> = (0..n).map(|_| &games[rng.random_range(0..n)]).collect();
                fit(&sample)
            })
            .collect()
    };
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
}

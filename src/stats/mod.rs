//! Statistics used by summaries, reports and tests: confidence intervals,
//! hypothesis tests with multiple-comparison correction, ratings of agents
//! (Bradley–Terry, Plackett–Luce) with bootstrap intervals, and the SPRT used
//! to decide between two Elo hypotheses with as few games as possible.

pub mod bootstrap;
pub mod bradley_terry;
pub mod describe;
pub mod hypothesis;
pub mod mm;
pub mod plackett_luce;
pub mod rate;
pub mod ratings;
pub mod seat_tests;
pub mod sprt;

pub use describe::{mean, median, p90, percentile_nearest_rank};
pub use hypothesis::{holm, holm_reject, normal_cdf, normal_quantile, proportion_p_value};

/// The 95 % two-sided normal quantile.
pub const Z95: f64 = 1.959_963_984_540_054;

/// Wilson score interval for `successes` out of `n` at normal quantile `z`.
/// `successes` may be fractional (draws counted as half a win).
///
/// ```
/// use boardlab::stats::{Z95, wilson};
///
/// // 8 wins in 10 games: 0.8, with a 95 % interval of [0.490, 0.943].
/// let (low, high) = wilson(8.0, 10.0, Z95);
/// assert!((low - 0.4902).abs() < 1e-4 && (high - 0.9433).abs() < 1e-4);
/// // Unlike the normal approximation, it stays inside [0, 1].
/// assert_eq!(wilson(0.0, 20.0, Z95).0, 0.0);
/// ```
pub fn wilson(successes: f64, n: f64, z: f64) -> (f64, f64) {
    if n <= 0.0 {
        return (0.0, 1.0);
    }
    let p = successes / n;
    let z2 = z * z;
    let centre = p + z2 / (2.0 * n);
    let margin = z * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    let denom = 1.0 + z2 / n;
    (
        ((centre - margin) / denom).max(0.0),
        ((centre + margin) / denom).min(1.0),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_matches_known_values() {
        // 8 of 10: the textbook interval is [0.4902, 0.9433].
        let (lo, hi) = wilson(8.0, 10.0, Z95);
        assert!(
            (lo - 0.4902).abs() < 1e-4 && (hi - 0.9433).abs() < 1e-4,
            "{lo} {hi}"
        );
        // 0 of 20: [0, 0.1611].
        let (lo, hi) = wilson(0.0, 20.0, Z95);
        assert!(lo == 0.0 && (hi - 0.1611).abs() < 1e-4, "{hi}");
        // 50 of 100 is symmetric around one half.
        let (lo, hi) = wilson(50.0, 100.0, Z95);
        assert!((lo + hi - 1.0).abs() < 1e-12);
    }
}

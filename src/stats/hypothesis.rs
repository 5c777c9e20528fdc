//! Hypothesis tests for balance reports: is a seat's (or role's) win rate
//! different from what a fair game gives, and which of many such flags survive
//! a correction for testing many hypotheses at once (Holm–Bonferroni).

/// Complementary error function, `erfc(x) = 1 - erf(x)`, by the Chebyshev
/// fit of Numerical Recipes (`erfcc`): fractional error below 1.2e-7
/// everywhere, ample for p-values, and no dependency for it.
pub fn erfc(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let poly = -z * z - 1.265_512_23
        + t * (1.000_023_68
            + t * (0.374_091_96
                + t * (0.096_784_18
                    + t * (-0.186_288_06
                        + t * (0.278_868_07
                            + t * (-1.135_203_98
                                + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77))))))));
    let r = t * poly.exp();
    if x >= 0.0 { r } else { 2.0 - r }
}

/// Standard normal cumulative distribution function.
pub fn normal_cdf(x: f64) -> f64 {
    0.5 * erfc(-x / std::f64::consts::SQRT_2)
}

/// The standard normal quantile of `p` in (0, 1), by bisection on the CDF.
pub fn normal_quantile(p: f64) -> f64 {
    let (mut lo, mut hi) = (-40.0f64, 40.0f64);
    for _ in 0..200 {
        let mid = (lo + hi) / 2.0;
        if normal_cdf(mid) < p {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    (lo + hi) / 2.0
}

/// Two-sided p-value of the test "the success probability is `p0`" given
/// `successes` out of `n` trials, by the normal approximation to the binomial
/// (the score test: `z = (x - n p0) / sqrt(n p0 (1 - p0))`).
///
/// `successes` may be fractional, so draws can count as half a win. Draws make
/// the true variance smaller than the binomial one, so the test is then
/// conservative. The approximation is good once `n p0 (1 - p0)` is about 10 or
/// more, which any balance study exceeds. Returns 1 when `n` is 0 or `p0` is
/// degenerate (no evidence either way).
pub fn proportion_p_value(successes: f64, n: f64, p0: f64) -> f64 {
    let var = n * p0 * (1.0 - p0);
    if n <= 0.0 || var <= 0.0 {
        return 1.0;
    }
    let z = (successes - n * p0) / var.sqrt();
    erfc(z.abs() / std::f64::consts::SQRT_2).clamp(0.0, 1.0)
}

/// Holm–Bonferroni step-down adjusted p-values, in the order given.
///
/// With the `m` p-values sorted ascending, the `k`-th smallest (0-based) is
/// multiplied by `m - k`, capped at 1, and made non-decreasing along the sorted
/// order. Rejecting every hypothesis whose adjusted value is at most `alpha`
/// controls the family-wise error rate at `alpha` under any dependence, and is
/// never less powerful than plain Bonferroni. A NaN p-value is treated as 1.
///
/// ```
/// use boardlab::stats::{holm, holm_reject};
///
/// let p = [0.01, 0.04, 0.03];
/// assert_eq!(holm(&p), vec![0.03, 0.06, 0.06]);
/// assert_eq!(holm_reject(&p, 0.05), vec![true, false, false]);
/// ```
pub fn holm(p_values: &[f64]) -> Vec<f64> {
    let m = p_values.len();
    let clean = |p: f64| if p.is_nan() { 1.0 } else { p.clamp(0.0, 1.0) };
    let mut order: Vec<usize> = (0..m).collect();
    order.sort_by(|&a, &b| clean(p_values[a]).total_cmp(&clean(p_values[b])));
    let mut adjusted = vec![1.0; m];
    let mut running = 0.0f64;
    for (k, &i) in order.iter().enumerate() {
        running = running.max(((m - k) as f64 * clean(p_values[i])).min(1.0));
        adjusted[i] = running;
    }
    adjusted
}

/// Which hypotheses Holm's procedure rejects at family-wise level `alpha`.
pub fn holm_reject(p_values: &[f64], alpha: f64) -> Vec<bool> {
    holm(p_values).iter().map(|&p| p <= alpha).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::Z95;

    #[test]
    fn normal_cdf_known_values() {
        assert!((normal_cdf(0.0) - 0.5).abs() < 1e-7);
        assert!((normal_cdf(1.959_963_984_540_054) - 0.975).abs() < 1e-7);
        assert!((normal_cdf(-1.0) - 0.158_655_253_931_457).abs() < 1e-7);
        assert!((normal_cdf(3.0) - 0.998_650_101_968_37).abs() < 1e-7);
    }

    #[test]
    fn proportion_test_known_values() {
        // 60 of 100 against 0.5: z = 2, p = 0.0455003.
        assert!((proportion_p_value(60.0, 100.0, 0.5) - 0.045_500_26).abs() < 1e-6);
        // Symmetric: 40 of 100 gives the same p-value.
        assert!(
            (proportion_p_value(40.0, 100.0, 0.5) - proportion_p_value(60.0, 100.0, 0.5)).abs()
                < 1e-12
        );
        // Exactly at p0 there is no evidence.
        assert!((proportion_p_value(50.0, 100.0, 0.5) - 1.0).abs() < 1e-7);
        // 30 of 100 against 0.25: z = 5 / sqrt(18.75) = 1.1547, p = 0.2482.
        assert!((proportion_p_value(30.0, 100.0, 0.25) - 0.248_213).abs() < 1e-5);
        assert_eq!(proportion_p_value(0.0, 0.0, 0.5), 1.0);
    }

    #[test]
    fn holm_matches_a_hand_computed_table() {
        // Sorted: 0.005·4 = 0.02, 0.01·3 = 0.03, 0.03·2 = 0.06, 0.04·1 = 0.04 → 0.06.
        let p = [0.01, 0.04, 0.03, 0.005];
        let adj = holm(&p);
        let expected = [0.03, 0.06, 0.06, 0.02];
        for (a, e) in adj.iter().zip(expected) {
            assert!((a - e).abs() < 1e-12, "{adj:?}");
        }
        assert_eq!(holm_reject(&p, 0.05), [true, false, false, true]);
        // Capped at one, and a NaN counts as one.
        assert_eq!(holm(&[0.6, f64::NAN]), [1.0, 1.0]);
        assert!(holm(&[]).is_empty());
    }

    #[test]
    fn normal_quantile_inverts_the_cdf() {
        // The CDF's erfc has a relative error below 1.2e-7; at 0.975 the
        // density is 0.058, so the quantile is good to about 1e-6.
        assert!((normal_quantile(0.975) - Z95).abs() < 1e-5);
        assert!(normal_quantile(0.5).abs() < 1e-6);
        assert!((normal_quantile(0.995) - 2.575_829_3).abs() < 1e-5);
    }
}

//! Tests across seats and paired comparisons: the omnibus chi-square of seat
//! scores against equal shares, the Cochran–Armitage trend over seat order,
//! McNemar's test of paired results (generalised to draws counted half), and
//! the normal interval of a mean of independent per-deal values.

use super::Z95;
use super::hypothesis::erfc;

/// `ln Γ(x)` for `x > 0`, by the Lanczos approximation (g = 7, nine
/// coefficients): relative error near 1e-15, ample for p-values.
pub fn ln_gamma(x: f64) -> f64 {
    const G: [f64; 9] = [
        0.999_999_999_999_809_9,
        676.520_368_121_885_1,
        -1_259.139_216_722_402_8,
        771.323_428_777_653_1,
        -176.615_029_162_140_6,
        12.507_343_278_686_905,
        -0.138_571_095_265_720_12,
        9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];
    if x < 0.5 {
        // Reflection: Γ(x) Γ(1 - x) = π / sin(π x).
        let pi = std::f64::consts::PI;
        return (pi / (pi * x).sin()).abs().ln() - ln_gamma(1.0 - x);
    }
    let x = x - 1.0;
    let mut a = G[0];
    let t = x + 7.5;
    for (i, g) in G.iter().enumerate().skip(1) {
        a += g / (x + i as f64);
    }
    0.5 * (2.0 * std::f64::consts::PI).ln() + (x + 0.5) * t.ln() - t + a.ln()
}

/// The regularized upper incomplete gamma function `Q(a, x)`: a series below
/// `x = a + 1`, a continued fraction (modified Lentz) above, as in Numerical
/// Recipes' `gammq`.
pub fn gamma_q(a: f64, x: f64) -> f64 {
    if x <= 0.0 || a <= 0.0 {
        return 1.0;
    }
    let log_front = -x + a * x.ln() - ln_gamma(a);
    if x < a + 1.0 {
        let (mut sum, mut term, mut ap) = (1.0 / a, 1.0 / a, a);
        for _ in 0..10_000 {
            ap += 1.0;
            term *= x / ap;
            sum += term;
            if term.abs() < sum.abs() * 1e-16 {
                break;
            }
        }
        (1.0 - sum * log_front.exp()).clamp(0.0, 1.0)
    } else {
        let tiny = 1e-300;
        let mut b = x + 1.0 - a;
        let mut c = 1.0 / tiny;
        let mut d = 1.0 / b;
        let mut h = d;
        for i in 1..10_000 {
            let an = -(i as f64) * (i as f64 - a);
            b += 2.0;
            d = an * d + b;
            if d.abs() < tiny {
                d = tiny;
            }
            c = b + an / c;
            if c.abs() < tiny {
                c = tiny;
            }
            d = 1.0 / d;
            let delta = d * c;
            h *= delta;
            if (delta - 1.0).abs() < 1e-16 {
                break;
            }
        }
        (log_front.exp() * h).clamp(0.0, 1.0)
    }
}

/// Upper tail `P(X ≥ x)` of the chi-square distribution with `df` degrees of
/// freedom.
pub fn chi_square_sf(x: f64, df: f64) -> f64 {
    if x.is_nan() || df <= 0.0 {
        return 1.0;
    }
    gamma_q(df / 2.0, x / 2.0)
}

/// A test statistic with its p-value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TestResult {
    /// The statistic: chi-square (omnibus, McNemar) or z (trend).
    pub statistic: f64,
    /// Degrees of freedom of a chi-square statistic (1 for z tests).
    pub df: f64,
    /// Two-sided p-value.
    pub p_value: f64,
}

/// Pearson's goodness-of-fit test of seat scores against equal shares:
/// `points[s]` is seat `s`'s wins plus half its draws over `games[s]` games;
/// seat `s` is expected to hold `total points · games[s] / total games`, and
/// `Σ (O − E)² / E` is referred to chi-square with `seats − 1` degrees of
/// freedom. With one winner per game this is the textbook test of the winner
/// counts; a draw spreads its point over the drawing seats, which lowers the
/// variance, so draws make the test conservative, never liberal. With two
/// seats it is the square of the per-seat z test.
pub fn seat_chi_square(points: &[f64], games: &[f64]) -> TestResult {
    let total_points: f64 = points.iter().sum();
    let total_games: f64 = games.iter().sum();
    let df = points.len().saturating_sub(1) as f64;
    if total_points <= 0.0 || total_games <= 0.0 || df == 0.0 {
        return TestResult {
            statistic: 0.0,
            df,
            p_value: 1.0,
        };
    }
    let statistic: f64 = points
        .iter()
        .zip(games)
        .map(|(&o, &n)| {
            let e = total_points * n / total_games;
            if e > 0.0 { (o - e).powi(2) / e } else { 0.0 }
        })
        .sum();
    TestResult {
        statistic,
        df,
        p_value: chi_square_sf(statistic, df),
    }
}

/// The Cochran–Armitage test for a linear trend in proportions across ordered
/// groups: group `i` has `successes[i]` (may be fractional: draws count half)
/// of `totals[i]` trials and score `scores[i]`. Returns z (positive: the rate
/// rises with the score) and its two-sided normal p-value.
pub fn cochran_armitage(successes: &[f64], totals: &[f64], scores: &[f64]) -> TestResult {
    let n: f64 = totals.iter().sum();
    let r: f64 = successes.iter().sum();
    let none = TestResult {
        statistic: 0.0,
        df: 1.0,
        p_value: 1.0,
    };
    if n <= 0.0 {
        return none;
    }
    let p = r / n;
    let t: f64 = (0..totals.len())
        .map(|i| scores[i] * (successes[i] - totals[i] * p))
        .sum();
    let st2: f64 = (0..totals.len())
        .map(|i| scores[i] * scores[i] * totals[i])
        .sum();
    let st: f64 = (0..totals.len()).map(|i| scores[i] * totals[i]).sum();
    let var = p * (1.0 - p) * (st2 - st * st / n);
    if var <= 0.0 {
        return none;
    }
    let z = t / var.sqrt();
    TestResult {
        statistic: z,
        df: 1.0,
        p_value: erfc(z.abs() / std::f64::consts::SQRT_2).clamp(0.0, 1.0),
    }
}

/// The trend over seat order: the Cochran–Armitage statistic of the seats'
/// points (`points[s]` of `games[s]`, seat order as the score) with the
/// variance of points shared out within each game. Cochran–Armitage assumes
/// independent trials, but in a game of `n` seats with one winner the seats'
/// results are multinomial, and the statistic's variance is the independent
/// one divided by `1 − p̄` (`p̄` = 1/n): without this the test is liberal
/// (with two seats its z² would be twice the omnibus chi-square, here it is
/// equal to it).
pub fn seat_trend(points: &[f64], games: &[f64]) -> TestResult {
    let order: Vec<f64> = (0..points.len()).map(|s| s as f64).collect();
    let t = cochran_armitage(points, games, &order);
    let n: f64 = games.iter().sum();
    let p = if n > 0.0 {
        points.iter().sum::<f64>() / n
    } else {
        0.0
    };
    let z = t.statistic * (1.0 - p).max(0.0).sqrt();
    TestResult {
        statistic: z,
        df: 1.0,
        p_value: if z == 0.0 {
            1.0
        } else {
            erfc(z.abs() / std::f64::consts::SQRT_2).clamp(0.0, 1.0)
        },
    }
}

/// The mean of paired differences with its 95 % interval and McNemar's test.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Paired {
    /// Pairs.
    pub n: u64,
    /// Mean difference.
    pub mean: f64,
    /// Lower bound of the 95 % interval.
    pub low: f64,
    /// Upper bound of the 95 % interval.
    pub high: f64,
    /// Sum of the positive differences (pairs won by the first: McNemar's b).
    pub better: f64,
    /// Sum of the negative differences, as a positive number (McNemar's c).
    pub worse: f64,
    /// McNemar's test.
    pub test: TestResult,
}

/// Paired comparison of per-game results `d[i] = x[i] − y[i]` (each result 1
/// for a win, ½ for a draw, 0 for a loss). The test statistic is
/// `(Σd)² / Σd²`: with no draws this is McNemar's `(b − c)² / (b + c)`, and with
/// draws counted half it is the normal approximation of the sign-flip test of
/// the same null (each pair's difference as likely either way). The interval
/// is the Wald interval of a paired mean, `d̄ ± z·sqrt(Σd² − n d̄²) / n`, which
/// without draws is the textbook interval for a difference of dependent
/// proportions.
pub fn paired(d: &[f64]) -> Paired {
    let mut sums = PairedSums::default();
    d.iter().for_each(|&x| sums.add(x));
    sums.finish()
}

/// The running sums of [`paired`], for differences that arrive one at a
/// time: added in the same order, the result is bit for bit that of the slice.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PairedSums {
    n: u64,
    sum: f64,
    sq: f64,
    better: f64,
    worse: f64,
}

impl Default for PairedSums {
    fn default() -> Self {
        // An empty float sum is -0.0, which a sum of nothing keeps.
        let zero: f64 = std::iter::empty::<f64>().sum();
        PairedSums {
            n: 0,
            sum: zero,
            sq: zero,
            better: zero,
            worse: zero,
        }
    }
}

impl PairedSums {
    /// Adds one pair's difference.
    pub fn add(&mut self, x: f64) {
        self.n += 1;
        self.sum += x;
        self.sq += x * x;
        if x > 0.0 {
            self.better += x;
        }
        if x < 0.0 {
            self.worse += x;
        }
    }

    /// Pairs so far.
    pub fn len(&self) -> u64 {
        self.n
    }

    /// True before the first pair.
    pub fn is_empty(&self) -> bool {
        self.n == 0
    }

    /// The comparison of the pairs so far.
    pub fn finish(&self) -> Paired {
        let s = self;
        let (sum, sq, better, worse) = (s.sum, s.sq, s.better, -s.worse);
        let n = s.n as f64;
        let mean = if n > 0.0 { sum / n } else { 0.0 };
        let half = if n > 0.0 {
            Z95 * (sq - n * mean * mean).max(0.0).sqrt() / n
        } else {
            0.0
        };
        let statistic = if sq > 0.0 { sum * sum / sq } else { 0.0 };
        Paired {
            n: s.n,
            mean,
            low: mean - half,
            high: mean + half,
            better,
            worse,
            test: TestResult {
                statistic,
                df: 1.0,
                p_value: chi_square_sf(statistic, 1.0),
            },
        }
    }
}

/// The mean of independent values with its 95 % normal interval
/// (`x̄ ± z·s/√n`, `s` the sample standard deviation) and the two-sided
/// p-value of "the mean is zero"; used for per-deal values, which are
/// independent across deals.
pub fn mean_interval(values: &[f64]) -> (f64, f64, f64, f64) {
    mean_interval_of(values.iter().copied())
}

/// [`mean_interval`] of values produced twice by `values` (mean, then
/// spread), for callers that do not hold them in a slice.
pub fn mean_interval_of(values: impl Iterator<Item = f64> + Clone) -> (f64, f64, f64, f64) {
    let n = values.clone().count() as f64;
    if n < 2.0 {
        let m = values.clone().next().unwrap_or(0.0);
        return (m, m, m, 1.0);
    }
    let mean = values.clone().sum::<f64>() / n;
    let var = values.map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1.0);
    let se = (var / n).sqrt();
    let p = if se > 0.0 {
        erfc((mean / se).abs() / std::f64::consts::SQRT_2).clamp(0.0, 1.0)
    } else if mean == 0.0 {
        1.0
    } else {
        0.0
    };
    (mean, mean - Z95 * se, mean + Z95 * se, p)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    #[test]
    fn ln_gamma_known_values() {
        assert!(close(ln_gamma(1.0), 0.0, 1e-12));
        assert!(close(ln_gamma(5.0), 24f64.ln(), 1e-12));
        // Γ(1/2) = √π.
        assert!(close(
            ln_gamma(0.5),
            std::f64::consts::PI.sqrt().ln(),
            1e-12
        ));
        assert!(close(ln_gamma(0.25), 3.625_609_908_221_908f64.ln(), 1e-12));
    }

    #[test]
    fn chi_square_tail_matches_tables() {
        // The 5 % and 1 % critical values of the usual tables.
        for (x, df, p) in [
            (3.841_458_820_694_124, 1.0, 0.05),
            (6.634_896_601_021_214, 1.0, 0.01),
            (5.991_464_547_107_979, 2.0, 0.05),
            (7.814_727_903_251_178, 3.0, 0.05),
            (11.344_866_730_144_373, 3.0, 0.01),
            (9.487_729_036_781_154, 4.0, 0.05),
            (18.307_038_053_275_146, 10.0, 0.05),
            (0.584_374_375_155_452, 3.0, 0.90),
        ] {
            let got = chi_square_sf(x, df);
            assert!(close(got, p, 1e-9), "chi2({x}, {df}) = {got}, not {p}");
        }
        // Two degrees of freedom: the tail is exp(-x / 2) exactly.
        for x in [0.1, 1.0, 4.0, 30.0] {
            assert!(close(chi_square_sf(x, 2.0), (-x / 2.0f64).exp(), 1e-12));
        }
        assert_eq!(chi_square_sf(0.0, 3.0), 1.0);
    }

    #[test]
    fn seat_chi_square_known_answers() {
        // Two seats, 60 of 100 points to seat 0: X² = z² = 4, p = 0.0455.
        let t = seat_chi_square(&[60.0, 40.0], &[100.0, 100.0]);
        assert!(close(t.statistic, 4.0, 1e-12) && t.df == 1.0);
        assert!(close(t.p_value, 0.045_500_26, 1e-7), "{t:?}");
        // Four seats, 400 games with one winner each: 120, 100, 95, 85.
        // X² = (400 + 0 + 25 + 225) / 100 = 6.5 on 3 df, p = 0.089663.
        let t = seat_chi_square(&[120.0, 100.0, 95.0, 85.0], &[400.0; 4]);
        assert!(close(t.statistic, 6.5, 1e-12) && t.df == 3.0);
        assert!(close(t.p_value, 0.089_662_5, 1e-6), "{t:?}");
        // Equal shares: no evidence.
        let t = seat_chi_square(&[50.0, 50.0, 50.0], &[150.0; 3]);
        assert!(t.statistic == 0.0 && close(t.p_value, 1.0, 1e-12));
        assert_eq!(seat_chi_square(&[0.0, 0.0], &[0.0, 0.0]).p_value, 1.0);
    }

    #[test]
    fn cochran_armitage_matches_agresti() {
        // Agresti, Categorical Data Analysis: maternal alcohol consumption
        // (scores 0, 0.5, 1.5, 4, 7) and congenital malformation. z² = 6.57,
        // p = 0.0104.
        let present = [48.0, 38.0, 5.0, 1.0, 1.0];
        let absent = [17_066.0, 14_464.0, 788.0, 126.0, 37.0];
        let totals: Vec<f64> = present.iter().zip(absent).map(|(a, b)| a + b).collect();
        let t = cochran_armitage(&present, &totals, &[0.0, 0.5, 1.5, 4.0, 7.0]);
        assert!(close(t.statistic * t.statistic, 6.570, 0.001), "{t:?}");
        assert!(t.statistic > 0.0);
        assert!(close(t.p_value, 0.010_37, 0.000_01), "{t:?}");
        // A falling trend has a negative z; no trend gives p = 1.
        let t = cochran_armitage(&[60.0, 50.0, 40.0], &[100.0; 3], &[0.0, 1.0, 2.0]);
        assert!(t.statistic < 0.0);
        let t = cochran_armitage(&[50.0, 50.0, 50.0], &[100.0; 3], &[0.0, 1.0, 2.0]);
        assert!(close(t.p_value, 1.0, 1e-7));
    }

    #[test]
    fn seat_trend_uses_the_within_game_variance() {
        // Two seats: the trend is the one comparison, z² = the omnibus X².
        let (pts, n) = ([101.0, 99.0], [200.0, 200.0]);
        let t = seat_trend(&pts, &n);
        assert!(close(
            t.statistic.powi(2),
            seat_chi_square(&pts, &n).statistic,
            1e-12
        ));
        assert!(
            close(t.p_value, seat_chi_square(&pts, &n).p_value, 1e-6),
            "{t:?}"
        );
        // Three seats, one winner per game, 130/100/70 of 300: T = −60,
        // variance (1/3)·600 = 200, z = −60/√200 = −4.2426.
        let t = seat_trend(&[130.0, 100.0, 70.0], &[300.0; 3]);
        assert!(close(t.statistic, -60.0 / 200f64.sqrt(), 1e-9), "{t:?}");
    }

    #[test]
    fn mcnemar_matches_agresti() {
        // Agresti's presidential approval survey: 794 approve twice, 150
        // approve then disapprove, 86 the reverse, 570 disapprove twice.
        // McNemar z² = (86 − 150)² / 236 = 17.36; the difference of the
        // approval rates is −0.04 with SE 0.0095, 95 % CI (−0.059, −0.021).
        let mut d = vec![0.0; 794 + 570];
        d.extend(std::iter::repeat_n(1.0, 86));
        d.extend(std::iter::repeat_n(-1.0, 150));
        let p = paired(&d);
        assert_eq!(p.n, 1600);
        assert!(close(p.test.statistic, 17.356, 0.001), "{p:?}");
        assert!(p.test.p_value < 1e-4 && p.test.p_value > 1e-5, "{p:?}");
        assert!(close(p.mean, -0.04, 1e-12));
        assert!(close(p.low, -0.04 - 1.96 * 0.009_549, 2e-4), "{p:?}");
        assert!(close(p.high, -0.04 + 1.96 * 0.009_549, 2e-4), "{p:?}");
        assert_eq!((p.better, p.worse), (86.0, 150.0));
        // No discordant pairs: no evidence.
        let p = paired(&[0.0; 10]);
        assert_eq!((p.mean, p.test.p_value), (0.0, 1.0));
    }

    #[test]
    fn mean_interval_known_values() {
        // Values 0, 1 alternating over 100: mean 0.5, s = 0.50252, SE 0.050252.
        let v: Vec<f64> = (0..100).map(|i| f64::from(i % 2)).collect();
        let (m, lo, hi, p) = mean_interval(&v);
        assert!(close(m, 0.5, 1e-12));
        assert!(close(hi - m, Z95 * 0.050_251_9, 1e-6), "{lo} {hi}");
        assert!(p < 1e-6);
        assert_eq!(mean_interval(&[0.3]).3, 1.0);
    }
}

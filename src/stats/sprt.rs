//! The sequential probability ratio test (SPRT) on Elo, as chess engine
//! testing uses it (Fishtest, OpenBench, cutechess): keep playing until the
//! evidence accepts `H0: elo = elo0` or `H1: elo = elo1` with error rates
//! `alpha` (false H1) and `beta` (false H0), which typically needs far fewer
//! games than a fixed-size test of the same power.
//!
//! Elo is *logistic*: an Elo difference `e` means an expected score
//! `s(e) = 1 / (1 + 10^(-e/400))` per game (a draw scores one half).
//!
//! **The log-likelihood ratio** is the generalized SPRT (GSPRT) in its normal
//! approximation (Van den Bergh's, used by Fishtest). With `N` independent
//! results of sample mean `x̄` and sample variance `σ²`, the mean is
//! approximately normal with variance `σ²/N`, so
//!
//! ```text
//! LLR = ln [ φ((x̄ - s1) / (σ/√N)) / φ((x̄ - s0) / (σ/√N)) ]
//!     = N / (2σ²) · [ (x̄ - s0)² - (x̄ - s1)² ]
//!     = N (s1 - s0) (2x̄ - s0 - s1) / (2σ²)
//! ```
//!
//! with `s0 = s(elo0)`, `s1 = s(elo1)`. The results are games scoring 0, ½, 1
//! (*trinomial*: W/D/L counts) or, for games played in pairs with the seats
//! swapped, pairs scoring 0, ¼, ½, ¾, 1 per game (*pentanomial*), whose
//! variance accounts for the correlation within a pair. Empty categories are
//! given a count of 1e-3 (as Fishtest does), so that a one-sided record such
//! as all wins has a small positive variance instead of none.
//!
//! **The bounds** (Wald): accept H0 once `LLR <= ln(beta / (1 - alpha))`,
//! accept H1 once `LLR >= ln((1 - beta) / alpha)`, otherwise continue.

/// Expected score per game at a logistic Elo difference.
pub fn elo_to_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The logistic Elo difference of an expected score (±infinity at 0 and 1).
pub fn score_to_elo(score: f64) -> f64 {
    -400.0 * (1.0 / score - 1.0).log10()
}

/// What the test says so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// Not enough evidence yet: play more.
    Continue,
    /// The evidence favours `elo0`.
    AcceptH0,
    /// The evidence favours `elo1`.
    AcceptH1,
}

/// Wald's bounds `(lower, upper) = (ln(beta / (1 - alpha)), ln((1 - beta) / alpha))`.
pub fn bounds(alpha: f64, beta: f64) -> (f64, f64) {
    ((beta / (1.0 - alpha)).ln(), ((1.0 - beta) / alpha).ln())
}

/// The decision for a log-likelihood ratio.
pub fn decide(llr: f64, alpha: f64, beta: f64) -> Decision {
    let (lower, upper) = bounds(alpha, beta);
    if llr >= upper {
        Decision::AcceptH1
    } else if llr <= lower {
        Decision::AcceptH0
    } else {
        Decision::Continue
    }
}

/// Regularized count of one category (see the module documentation).
fn regularize(count: u64) -> f64 {
    if count == 0 { 1e-3 } else { count as f64 }
}

/// Mean and variance of a score distribution given as `(score, count)`.
fn mean_var(dist: &[(f64, f64)]) -> (f64, f64, f64) {
    let n: f64 = dist.iter().map(|d| d.1).sum();
    let mean = dist.iter().map(|d| d.0 * d.1).sum::<f64>() / n;
    let var = dist.iter().map(|d| (d.0 - mean).powi(2) * d.1).sum::<f64>() / n;
    (n, mean, var)
}

fn llr(dist: &[(f64, u64)], elo0: f64, elo1: f64) -> f64 {
    if dist.iter().all(|d| d.1 == 0) {
        return 0.0;
    }
    let reg: Vec<(f64, f64)> = dist.iter().map(|&(s, c)| (s, regularize(c))).collect();
    let (n, mean, var) = mean_var(&reg);
    let (s0, s1) = (elo_to_score(elo0), elo_to_score(elo1));
    n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var)
}

/// Log-likelihood ratio of `H1: elo1` against `H0: elo0` from win/draw/loss
/// counts of independent games.
pub fn llr_trinomial(wins: u64, draws: u64, losses: u64, elo0: f64, elo1: f64) -> f64 {
    llr(&[(0.0, losses), (0.5, draws), (1.0, wins)], elo0, elo1)
}

/// Log-likelihood ratio from game pairs: `pairs[k]` counts the pairs in which
/// the tested side scored `k / 2` points over the two games (0 = lost both,
/// 4 = won both; a win and a loss and two draws both score 2).
pub fn llr_pentanomial(pairs: [u64; 5], elo0: f64, elo1: f64) -> f64 {
    let dist: Vec<(f64, u64)> = pairs
        .iter()
        .enumerate()
        .map(|(k, &c)| (k as f64 / 4.0, c))
        .collect();
    llr(&dist, elo0, elo1)
}

/// Elo estimate with a 95 % normal interval from pair counts (as in
/// [`llr_pentanomial`]): the logistic Elo of the mean score per game, its
/// bounds from the mean ± 1.96 standard errors (an infinite bound when that
/// leaves the range of scores). `None` without pairs.
pub fn pentanomial_elo(pairs: [u64; 5]) -> Option<(f64, f64, f64)> {
    let total: u64 = pairs.iter().sum();
    if total == 0 {
        return None;
    }
    let dist: Vec<(f64, f64)> = pairs
        .iter()
        .enumerate()
        .map(|(k, &c)| (k as f64 / 4.0, c as f64))
        .collect();
    let (n, mean, var) = mean_var(&dist);
    let half = super::Z95 * (var / n).sqrt();
    Some((
        score_to_elo(mean),
        score_to_elo((mean - half).max(0.0)),
        score_to_elo((mean + half).min(1.0)),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_at_five_percent() {
        let (lo, hi) = bounds(0.05, 0.05);
        assert!((lo + 2.944_438_979_166_44).abs() < 1e-9, "{lo}");
        assert!((hi - 2.944_438_979_166_44).abs() < 1e-9, "{hi}");
        let (lo, hi) = bounds(0.05, 0.1);
        assert!(((lo - (0.1f64 / 0.95).ln()).abs() < 1e-12) && (hi - 18f64.ln()).abs() < 1e-12);
    }

    #[test]
    fn decisions_follow_the_bounds() {
        assert_eq!(decide(3.0, 0.05, 0.05), Decision::AcceptH1);
        assert_eq!(decide(-3.0, 0.05, 0.05), Decision::AcceptH0);
        assert_eq!(decide(0.0, 0.05, 0.05), Decision::Continue);
        assert_eq!(decide(2.9, 0.05, 0.05), Decision::Continue);
    }

    #[test]
    fn llr_sign_follows_the_evidence() {
        // Scores well above s1 favour H1, below s0 favour H0, between the two
        // hypotheses (closer to the midpoint) the LLR is small.
        assert!(llr_trinomial(70, 10, 20, 0.0, 50.0) > 0.0);
        assert!(llr_trinomial(20, 10, 70, 0.0, 50.0) < 0.0);
        assert!(
            llr_trinomial(40, 20, 40, 0.0, 50.0) < 0.0,
            "a score of 0.5 is H0"
        );
        let mid = elo_to_score(25.0);
        let w = (mid * 1000.0).round() as u64;
        assert!(llr_trinomial(w, 0, 1000 - w, 0.0, 50.0).abs() < 0.5);
        // More of the same evidence moves the LLR further.
        assert!(llr_trinomial(140, 20, 40, 0.0, 50.0) > llr_trinomial(70, 10, 20, 0.0, 50.0));
        assert_eq!(llr_trinomial(0, 0, 0, 0.0, 50.0), 0.0);
        // All wins: regularized, strongly H1.
        assert!(llr_trinomial(30, 0, 0, 0.0, 50.0) > 2.95);
    }

    #[test]
    fn llr_matches_the_formula_by_hand() {
        // W/D/L = 60/20/20: x̄ = 0.7, σ² = (60 + 20/4)/100 - 0.49 = 0.16,
        // s1 = s(50) = 0.5714631, LLR = 100 · 0.0714631 · 0.3285369 / 0.32 = 7.336959.
        assert!((llr_trinomial(60, 20, 20, 0.0, 50.0) - 7.336_959_316_758_886).abs() < 1e-9);
        // Pairs 5/10/30/25/30: x̄ = 0.6625, σ² = 0.08296875, LLR = 10.918892.
        assert!(
            (llr_pentanomial([5, 10, 30, 25, 30], 0.0, 50.0) - 10.918_891_756_233_432).abs() < 1e-9
        );
    }

    #[test]
    fn elo_and_score_are_inverse() {
        assert!((elo_to_score(0.0) - 0.5).abs() < 1e-15);
        assert!((score_to_elo(elo_to_score(123.0)) - 123.0).abs() < 1e-9);
        // 400 Elo: ten to one.
        assert!((elo_to_score(400.0) - 10.0 / 11.0).abs() < 1e-12);
        let (e, lo, hi) = pentanomial_elo([5, 10, 30, 25, 30]).unwrap_or_default();
        assert!(lo < e && e < hi && (e - score_to_elo(0.6625)).abs() < 1e-9);
        assert_eq!(pentanomial_elo([0; 5]), None);
        let (_, _, hi) = pentanomial_elo([0, 0, 0, 1, 9]).unwrap_or_default();
        assert_eq!(hi, f64::INFINITY);
    }
}

//! Win rates of units that share their luck in clusters (the seats of one
//! game, the games of one duplicate deal), and the equivalence test of two.

use serde::Serialize;

use super::{Z95, normal_cdf};

/// A win rate (win 1, draw ½, loss 0) with its 95 % interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Rate {
    /// Seat-games counted.
    pub n: u64,
    /// Independent clusters (games, or deals with duplicate deals).
    pub clusters: u64,
    /// The rate.
    pub rate: f64,
    /// Its standard error.
    pub se: f64,
    /// Lower end of the 95 % interval.
    pub low: f64,
    /// Upper end of the 95 % interval.
    pub high: f64,
}

impl Rate {
    /// Half the width of the 95 % interval.
    pub fn half_width(&self) -> f64 {
        (self.high - self.low) / 2.0
    }
}

/// The rate of `(cluster, points)` units, ordered by cluster, with the
/// cluster-robust standard error of a ratio: units of one cluster (the seats
/// of one game, the games of one duplicate deal) share their luck and are not
/// independent, so only clusters count as independent draws. With one unit per
/// cluster this is the usual binomial standard error (times √(k/(k−1))).
pub fn clustered_rate(units: &[(u64, f64)]) -> Rate {
    let mut sums: Vec<(f64, f64)> = Vec::new();
    let mut last = None;
    for &(c, p) in units {
        if last != Some(c) {
            sums.push((0.0, 0.0));
            last = Some(c);
        }
        let s = sums.last_mut().expect("pushed above");
        s.0 += p;
        s.1 += 1.0;
    }
    let k = sums.len() as f64;
    let m: f64 = sums.iter().map(|s| s.1).sum();
    if m == 0.0 {
        return Rate {
            n: 0,
            clusters: 0,
            rate: 0.5,
            se: f64::INFINITY,
            low: 0.0,
            high: 1.0,
        };
    }
    let rate = sums.iter().map(|s| s.0).sum::<f64>() / m;
    let ss: f64 = sums.iter().map(|s| (s.0 - rate * s.1).powi(2)).sum();
    cluster_robust(m, k, rate, ss)
}

/// The rate of `m` units in `k` clusters with its cluster-robust interval,
/// from the clusters' summed squared residuals `ss`.
fn cluster_robust(m: f64, k: f64, rate: f64, ss: f64) -> Rate {
    let se = if k > 1.0 {
        (k / (k - 1.0) * ss).sqrt() / m
    } else {
        f64::INFINITY
    };
    Rate {
        n: m as u64,
        clusters: k as u64,
        rate,
        se,
        low: (rate - Z95 * se).max(0.0),
        high: (rate + Z95 * se).min(1.0),
    }
}

/// [`clustered_rate`] of clusters given as how many had each (points
/// doubled, units): the same rate, its spread summed by kind of cluster
/// rather than in order, so that games read one at a time keep a few
/// counters instead of every cluster.
pub fn clustered_rate_counted(clusters: &std::collections::BTreeMap<(u64, u64), u64>) -> Rate {
    let k: u64 = clusters.values().sum();
    let m: u64 = clusters.iter().map(|(&(_, n), &c)| n * c).sum();
    if m == 0 {
        return clustered_rate(&[]);
    }
    let (k, m) = (k as f64, m as f64);
    let rate = clusters
        .iter()
        .map(|(&(p, _), &c)| p as f64 / 2.0 * c as f64)
        .sum::<f64>()
        / m;
    let ss: f64 = clusters
        .iter()
        .map(|(&(p, n), &c)| c as f64 * (p as f64 / 2.0 - rate * n as f64).powi(2))
        .sum();
    cluster_robust(m, k, rate, ss)
}

/// Two one-sided tests (TOST) of "the two rates differ by less than `tol`":
/// the larger of the two one-sided p-values. Below 0.05 the rates are shown
/// equivalent at the 5 % level (the 90 % interval of the difference lies
/// inside ±`tol`).
pub fn tost(a: &Rate, b: &Rate, tol: f64) -> f64 {
    let d = a.rate - b.rate;
    let se = (a.se * a.se + b.se * b.se).sqrt();
    if !se.is_finite() || se == 0.0 {
        return if d.abs() < tol && se == 0.0 { 0.0 } else { 1.0 };
    }
    let lower = 1.0 - normal_cdf((d + tol) / se);
    let upper = normal_cdf((d - tol) / se);
    lower.max(upper)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counted_clusters_give_the_rate_of_the_clusters_in_order() {
        let mut x: u64 = 7;
        let mut units = Vec::new();
        for c in 0..500u64 {
            for _ in 0..1 + c % 3 {
                x = x.wrapping_mul(6364136223846793005).wrapping_add(1);
                units.push((c, [0.0, 0.5, 1.0][(x >> 40) as usize % 3]));
            }
        }
        let mut counts = std::collections::BTreeMap::new();
        let mut last: Option<(u64, u64, u64)> = None;
        for &(c, p) in &units {
            match &mut last {
                Some((id, s, n)) if *id == c => {
                    *s += (p * 2.0) as u64;
                    *n += 1;
                }
                _ => {
                    if let Some((_, s, n)) = last {
                        *counts.entry((s, n)).or_insert(0) += 1;
                    }
                    last = Some((c, (p * 2.0) as u64, 1));
                }
            }
        }
        if let Some((_, s, n)) = last {
            *counts.entry((s, n)).or_insert(0) += 1;
        }
        let (a, b) = (clustered_rate(&units), clustered_rate_counted(&counts));
        assert_eq!((a.n, a.clusters), (b.n, b.clusters));
        assert!(
            (a.rate - b.rate).abs() < 1e-12 && (a.se - b.se).abs() < 1e-12,
            "{a:?} {b:?}"
        );
        let none = clustered_rate_counted(&std::collections::BTreeMap::new());
        assert_eq!((none.n, none.rate), (0, 0.5));
    }

    #[test]
    fn clustered_rate_is_binomial_for_single_units_and_wider_for_shared_luck() {
        // 100 independent games, 60 wins: se = sqrt(.24/100) * sqrt(100/99).
        let units: Vec<(u64, f64)> = (0..100).map(|i| (i, f64::from(u8::from(i < 60)))).collect();
        let r = clustered_rate(&units);
        assert!((r.rate - 0.6).abs() < 1e-12);
        assert!((r.se - (0.24f64 / 100.0 * 100.0 / 99.0).sqrt()).abs() < 1e-12);
        // The same results in pairs with equal outcomes: half the clusters, √2 the error.
        let paired: Vec<(u64, f64)> = (0..100)
            .map(|i| (i / 2, f64::from(u8::from(i < 60))))
            .collect();
        let q = clustered_rate(&paired);
        assert!((q.rate - 0.6).abs() < 1e-12);
        assert!(
            q.se > 1.35 * r.se && q.se < 1.45 * r.se,
            "{} vs {}",
            q.se,
            r.se
        );
    }

    #[test]
    fn tost_needs_both_closeness_and_precision() {
        let rate = |rate: f64, se: f64| Rate {
            n: 1000,
            clusters: 1000,
            rate,
            se,
            low: rate - Z95 * se,
            high: rate + Z95 * se,
        };
        assert!(tost(&rate(0.50, 0.01), &rate(0.51, 0.01), 0.05) < 0.05);
        // Close but imprecise: not shown equivalent.
        assert!(tost(&rate(0.50, 0.05), &rate(0.51, 0.05), 0.05) > 0.05);
        // Precise but apart.
        assert!(tost(&rate(0.50, 0.005), &rate(0.58, 0.005), 0.05) > 0.5);
    }
}

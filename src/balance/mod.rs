//! Balance methods for designers, all with identical agents in every seat so
//! that any difference between seats is the game's: balance as skill grows
//! (`skill`, `boardlab balance`), the compensation solver (`fair`,
//! `boardlab fair`) and component ablation (`ablate`, `boardlab ablate`).
//!
//! Games are played through the runner's [`play_indexed`](crate::arena::play_indexed), so their seeds,
//! seatings and duplicate deals are those of `boardlab run`, and every result
//! is the same for any thread count.

pub mod ablate;
pub mod fair;
pub mod paired;
pub mod records;
pub mod shard;
pub mod skill;

use anyhow::{Result, bail};
use rayon::prelude::*;
use serde::Serialize;

use crate::agents::registry::AgentSpec;
use crate::arena::record::role_parts;
use crate::arena::{PlayedGame, RunOptions, play_indexed_with};
use crate::game::{Game, Outcome};
use crate::stats::{Z95, normal_cdf};

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

/// Points of one outcome.
pub fn points(o: Outcome) -> f64 {
    match o {
        Outcome::Win => 1.0,
        Outcome::Draw => 0.5,
        Outcome::Loss => 0.0,
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
    let se = if k > 1.0 {
        let ss: f64 = sums.iter().map(|s| (s.0 - rate * s.1).powi(2)).sum();
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

/// Whom a rate is about: a seat or a role (faction, character…).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub enum Group {
    /// A seat number.
    Seat(u8),
    /// A role label as the game names it.
    Role(String),
}

impl Group {
    /// `seat 0` or `role Foxes`.
    pub fn label(&self) -> String {
        match self {
            Group::Seat(s) => format!("seat {s}"),
            Group::Role(r) => format!("role {r}"),
        }
    }
}

/// The unit of luck game `game_index` belongs to: itself, or its deal with
/// duplicate deals (one game per seating).
pub fn cluster(game_index: u64, seats: usize, duplicate: bool) -> u64 {
    if duplicate {
        game_index / seats as u64
    } else {
        game_index
    }
}

/// The rate of `group` over `games`; clusters are games, or deals with duplicate deals.
pub fn group_rate(games: &[PlayedGame], group: &Group, seats: usize, duplicate: bool) -> Rate {
    let units: Vec<(u64, f64)> = games
        .iter()
        .flat_map(|g| &g.rows)
        .filter(|r| match group {
            Group::Seat(s) => r.seat == *s,
            Group::Role(role) => !r.role.is_empty() && role_parts(&r.role).contains(role),
        })
        .map(|r| (cluster(r.game_index, seats, duplicate), points(r.outcome)))
        .collect();
    clustered_rate(&units)
}

/// Every seat, then every role seen in `games` in name order; a seat holding
/// a drafted set (`a+b`) counts for each member, never as the combination.
pub fn groups(games: &[PlayedGame], seats: usize) -> Vec<Group> {
    let mut roles: Vec<String> = games
        .iter()
        .flat_map(|g| &g.rows)
        .filter(|r| !r.role.is_empty())
        .flat_map(|r| role_parts(&r.role))
        .collect();
    roles.sort();
    roles.dedup();
    (0..seats as u8)
        .map(Group::Seat)
        .chain(roles.into_iter().map(Group::Role))
        .collect()
}

/// Plays game indices `range` (increasing) of `game` with `agent` in every
/// seat, in index order, on `pool`; seeds as in `boardlab run --seed seed
/// [--duplicate]`.
pub fn play_identical<G: Game>(
    game: &G,
    agent: &AgentSpec,
    range: impl IntoIterator<Item = u64>,
    seed: u64,
    duplicate: bool,
    pool: &rayon::ThreadPool,
) -> Vec<PlayedGame> {
    play_identical_with(game, agent, None, range, seed, duplicate, pool)
}

/// [`play_identical`] where `factory`, when given, builds the agent instead of its spec.
pub fn play_identical_with<G: Game>(
    game: &G,
    agent: &AgentSpec,
    factory: Option<crate::arena::AgentFactory<G>>,
    range: impl IntoIterator<Item = u64>,
    seed: u64,
    duplicate: bool,
    pool: &rayon::ThreadPool,
) -> Vec<PlayedGame> {
    let n = game.num_players();
    let specs = vec![agent.clone(); n];
    let factories = vec![factory; n];
    let labels = vec![agent.label.clone(); n];
    let opts = RunOptions {
        seed,
        duplicate,
        ..RunOptions::default()
    };
    let indices: Vec<u64> = range.into_iter().collect();
    pool.install(|| {
        indices
            .par_iter()
            .map(|&i| play_indexed_with(game, &specs, &factories, &labels, i, &opts))
            .collect()
    })
}

/// A thread pool of `threads` workers (0: one per core).
pub fn pool(threads: usize) -> Result<rayon::ThreadPool> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| anyhow::anyhow!("cannot start {threads} threads: {e}"))
}

/// Checks that `agent` builds for `game`, so the runner never meets a bad spec.
pub fn check_agent_any<G: Game>(_game: &G, agent: &AgentSpec) -> Result<()> {
    agent.build::<G>()?;
    Ok(())
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

/// Writes `text` to `dir/name` through a temporary file.
pub fn save(dir: &std::path::Path, name: &str, text: &str) -> Result<()> {
    let path = dir.join(name);
    let tmp = dir.join(format!("{name}.tmp"));
    std::fs::write(&tmp, text)
        .and_then(|()| std::fs::rename(&tmp, &path))
        .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", path.display()))
}

/// Creates `dir` and holds it for writing (see [`crate::fsutil::OutputLock`]),
/// refusing to overwrite `file` there without `force`.
pub fn prepare_out(
    dir: &std::path::Path,
    file: &str,
    force: bool,
) -> Result<crate::fsutil::OutputLock> {
    let lock = crate::fsutil::OutputLock::claim(dir)
        .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", dir.display()))?;
    if dir.join(file).exists() && !force {
        bail!(
            "{} already holds {file} (use --force to overwrite, or another --out)",
            dir.display()
        );
    }
    Ok(lock)
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn drafted_sets_are_rated_member_by_member() {
        // Hamunaptra seats hold a drafted set of characters (`a+b+c+d`).
        let game = crate::games::hamunaptra::Hamunaptra::from_spec_text("hamunaptra").unwrap();
        let agent = AgentSpec::parse("random").unwrap();
        let games = play_identical(&game, &agent, 0..6, 1, false, &pool(1).unwrap());
        let groups = groups(&games, 2);
        let roles: Vec<&String> = groups
            .iter()
            .filter_map(|g| match g {
                Group::Role(r) => Some(r),
                Group::Seat(_) => None,
            })
            .collect();
        assert!(roles.len() > 2, "{roles:?}");
        assert!(roles.iter().all(|r| !r.contains('+')), "{roles:?}");
        // Each member counts every seat that held it, once per game.
        for role in roles {
            let held = games
                .iter()
                .flat_map(|g| &g.rows)
                .filter(|r| r.role.split('+').any(|m| m == role.as_str()))
                .count();
            let rate = group_rate(&games, &Group::Role(role.clone()), 2, false);
            assert_eq!(rate.n, held as u64, "{role}");
        }
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

    #[test]
    fn normal_quantile_inverts_the_cdf() {
        // The CDF's erfc has a relative error below 1.2e-7; at 0.975 the
        // density is 0.058, so the quantile is good to about 1e-6.
        assert!((normal_quantile(0.975) - Z95).abs() < 1e-5);
        assert!(normal_quantile(0.5).abs() < 1e-6);
        assert!((normal_quantile(0.995) - 2.575_829_3).abs() < 1e-5);
    }
}

//! Game-quality metrics after Browne (2008) and Ludii's metrics: completion,
//! drawishness, decisiveness, duration, branching factor, drama, lead
//! changes, uncertainty and killer moves, computed from each side's estimated
//! chance of winning at every decision along each game, plus a skill-depth
//! index (how much of the outcome the pairing of agents explains, and the
//! Elo spread of a ladder).
//!
//! The chance estimate maps the game's heuristic `h ∈ [-1, 1]` of each side
//! to `(1 + h) / 2` and normalises over the sides so that the chances sum to
//! one; at the end of a completed game the winner has chance 1 (a draw shares
//! it). It is a monotone reading of the heuristic, not a calibrated
//! probability: drama, lead changes, uncertainty and killer moves measure the
//! heuristic's view of the game, and they are comparable across variants and
//! agents of one game, not across games.

use std::fmt::Write as _;
use std::path::Path;

use rayon::prelude::*;

use crate::agents::registry::AgentSpec;
use crate::arena::{seating, seed_of};
use crate::game::{Game, Outcome};
use crate::rng::game_seed;
use crate::stats::seat_tests::{chi_square_sf, mean_interval};
use crate::stats::{Z95, wilson};

/// A mover's rise in chance of at least this much in one move is a killer move.
pub const KILLER_SWING: f64 = 0.5;

/// One game as the metrics see it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Trajectory {
    /// Each side's chance at each decision state, then (in a completed game)
    /// at the end; every row sums to one.
    pub chances: Vec<Vec<f64>>,
    /// The side to move at each decision state (one per decision).
    pub movers: Vec<usize>,
    /// Legal actions at each decision.
    pub branching: Vec<u32>,
    /// The winning side; `None` for a draw or an incomplete game.
    pub winner: Option<usize>,
    /// Ended by the rules, not by a cap or a fault.
    pub completed: bool,
    /// Actions applied (decisions and chance outcomes).
    pub actions: u32,
    /// Pooled outcome of seat 0 (1 win, ½ draw, 0 loss), for the skill index.
    pub seat0_points: f64,
    /// The seating (game index mod seats): which agent sat where.
    pub seating: usize,
}

/// Chances from per-side heuristics in [-1, 1]: `(1 + h) / 2`, normalised.
pub fn chances_from_heuristic(h: &[f64]) -> Vec<f64> {
    let c: Vec<f64> = h
        .iter()
        .map(|&x| ((1.0 + x) / 2.0).clamp(0.0, 1.0))
        .collect();
    let sum: f64 = c.iter().sum();
    if sum > 0.0 {
        c.iter().map(|x| x / sum).collect()
    } else {
        vec![1.0 / h.len().max(1) as f64; h.len()]
    }
}

/// The side with the strictly largest chance, if one has.
pub fn leader(c: &[f64]) -> Option<usize> {
    let (mut best, mut at, mut tie) = (f64::NEG_INFINITY, 0, false);
    for (i, &x) in c.iter().enumerate() {
        if x > best + 1e-12 {
            (best, at, tie) = (x, i, false);
        } else if (x - best).abs() <= 1e-12 {
            tie = true;
        }
    }
    (!c.is_empty() && !tie).then_some(at)
}

/// Times the leader changes along the game; a tie keeps the previous leader.
pub fn lead_changes(chances: &[Vec<f64>]) -> u32 {
    let mut last = None;
    let mut changes = 0;
    for c in chances {
        if let Some(l) = leader(c) {
            if last.is_some_and(|p| p != l) {
                changes += 1;
            }
            last = Some(l);
        }
    }
    changes
}

/// Drama: over the states where the eventual winner does not lead, the mean
/// gap between the best chance and the winner's; 0 if the winner never
/// trails. `None` without a winner.
pub fn drama(t: &Trajectory) -> Option<f64> {
    let w = t.winner?;
    let gaps: Vec<f64> = t
        .chances
        .iter()
        .filter(|c| leader(c) != Some(w))
        .map(|c| c.iter().copied().fold(0.0, f64::max) - c[w])
        .collect();
    Some(if gaps.is_empty() {
        0.0
    } else {
        gaps.iter().sum::<f64>() / gaps.len() as f64
    })
}

/// Uncertainty: the mean over decision states of the normalised entropy of
/// the chances (1 when every side is equally likely to win, 0 when one is sure).
pub fn uncertainty(t: &Trajectory) -> Option<f64> {
    let states = &t.chances[..t.movers.len().min(t.chances.len())];
    if states.is_empty() {
        return None;
    }
    let sum: f64 = states
        .iter()
        .map(|c| {
            if c.len() < 2 {
                return 0.0;
            }
            let h: f64 = c.iter().filter(|&&x| x > 0.0).map(|&x| -x * x.ln()).sum();
            h / (c.len() as f64).ln()
        })
        .sum();
    Some(sum / states.len() as f64)
}

/// Killer moves: decisions after which the mover's chance rose by at least
/// [`KILLER_SWING`] by the next decision (or the end).
pub fn killer_moves(t: &Trajectory) -> u32 {
    t.movers
        .iter()
        .enumerate()
        .filter(|&(i, &m)| {
            t.chances
                .get(i + 1)
                .is_some_and(|next| next[m] - t.chances[i][m] >= KILLER_SWING - 1e-12)
        })
        .count() as u32
}

/// Decision point: the share of the game's states after which the eventual
/// winner leads to the end (0: led from the start, near 1: decided at the
/// last move). `None` without a winner.
pub fn decision_point(t: &Trajectory) -> Option<f64> {
    let w = t.winner?;
    let n = t.chances.len();
    if n < 2 {
        return Some(0.0);
    }
    let from = (0..n)
        .rev()
        .take_while(|&i| leader(&t.chances[i]) == Some(w))
        .last()
        .unwrap_or(n - 1);
    Some(from as f64 / (n - 1) as f64)
}

/// Skill against luck: the share of seat 0's outcome variance explained by
/// the seating (which agent sits where: the pairing), ω² of a one-way
/// analysis of variance, with the large-sample p-value of "the seating
/// explains nothing". Seat advantage is common to every seating and so counts
/// as luck here; with identical agents the share is about 0 by construction.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SkillShare {
    /// ω², clamped at 0.
    pub share: f64,
    /// p-value of the between-seating F (as χ² with seatings − 1 df).
    pub p_value: f64,
    /// Seatings compared.
    pub groups: usize,
}

/// See [`SkillShare`]: `y` values in groups.
pub fn skill_share(groups: &[Vec<f64>]) -> Option<SkillShare> {
    let groups: Vec<&Vec<f64>> = groups.iter().filter(|g| !g.is_empty()).collect();
    let k = groups.len();
    let n: usize = groups.iter().map(|g| g.len()).sum();
    if k < 2 || n <= k {
        return None;
    }
    let grand = groups.iter().flat_map(|g| g.iter()).sum::<f64>() / n as f64;
    let mut ss_b = 0.0;
    let mut ss_w = 0.0;
    for g in &groups {
        let m = g.iter().sum::<f64>() / g.len() as f64;
        ss_b += g.len() as f64 * (m - grand).powi(2);
        ss_w += g.iter().map(|y| (y - m).powi(2)).sum::<f64>();
    }
    let ms_w = ss_w / (n - k) as f64;
    let total = ss_b + ss_w;
    let share = if total + ms_w > 0.0 {
        ((ss_b - (k - 1) as f64 * ms_w) / (total + ms_w)).max(0.0)
    } else {
        0.0
    };
    let p_value = if ms_w > 0.0 {
        chi_square_sf(ss_b / ms_w, (k - 1) as f64)
    } else if ss_b > 0.0 {
        0.0
    } else {
        1.0
    };
    Some(SkillShare {
        share,
        p_value,
        groups: k,
    })
}

/// One line of `quality.csv`.
#[derive(Clone, Debug, PartialEq)]
pub struct Metric {
    /// Short name.
    pub name: &'static str,
    /// Its value.
    pub value: f64,
    /// 95 % interval (Wilson for shares, normal over games for means).
    pub low: f64,
    /// Upper bound.
    pub high: f64,
    /// Games it is computed over.
    pub n: usize,
    /// What it means.
    pub about: &'static str,
}

fn share_metric(name: &'static str, k: usize, n: usize, about: &'static str) -> Metric {
    let (low, high) = wilson(k as f64, n as f64, Z95);
    Metric {
        name,
        value: if n > 0 { k as f64 / n as f64 } else { 0.0 },
        low,
        high,
        n,
        about,
    }
}

fn mean_metric(name: &'static str, values: &[f64], about: &'static str) -> Metric {
    let (value, low, high, _) = mean_interval(values);
    Metric {
        name,
        value,
        low,
        high,
        n: values.len(),
        about,
    }
}

/// The metrics of a set of games, in report order.
pub fn metrics(games: &[Trajectory]) -> Vec<Metric> {
    let n = games.len();
    let completed: Vec<&Trajectory> = games.iter().filter(|t| t.completed).collect();
    let won: Vec<&Trajectory> = completed
        .iter()
        .copied()
        .filter(|t| t.winner.is_some())
        .collect();
    let per = |f: &dyn Fn(&Trajectory) -> Option<f64>, set: &[&Trajectory]| -> Vec<f64> {
        set.iter().filter_map(|t| f(t)).collect()
    };
    let all: Vec<&Trajectory> = games.iter().collect();
    let mut out = vec![
        share_metric(
            "completion",
            completed.len(),
            n,
            "share of games ended by the rules (not by a cap or a fault)",
        ),
        share_metric(
            "drawishness",
            completed.len() - won.len(),
            completed.len(),
            "share of completed games that end in a draw",
        ),
        share_metric(
            "decisiveness",
            won.len(),
            n,
            "share of all games that end by the rules with a single winning side",
        ),
        mean_metric(
            "decision_point",
            &per(&decision_point, &won),
            "share of the game after which the eventual winner leads to the end (decisive games)",
        ),
        mean_metric(
            "duration",
            &per(&|t| Some(f64::from(t.actions)), &all),
            "actions per game (decisions and chance outcomes)",
        ),
        mean_metric(
            "decisions",
            &per(&|t| Some(t.movers.len() as f64), &all),
            "decisions per game",
        ),
        mean_metric(
            "branching",
            &per(
                &|t| {
                    (!t.branching.is_empty()).then(|| {
                        t.branching.iter().map(|&b| f64::from(b)).sum::<f64>()
                            / t.branching.len() as f64
                    })
                },
                &all,
            ),
            "legal actions per decision (mean per game)",
        ),
        mean_metric(
            "drama",
            &per(&drama, &won),
            "mean gap between the leader's and the eventual winner's chance while the winner trails",
        ),
        mean_metric(
            "lead_changes",
            &per(&|t| Some(f64::from(lead_changes(&t.chances))), &all),
            "times the leading side changes per game",
        ),
        mean_metric(
            "uncertainty",
            &per(&uncertainty, &all),
            "mean normalised entropy of the chances over the decisions (1: open, 0: settled)",
        ),
        mean_metric(
            "killer_moves",
            &per(&|t| Some(f64::from(killer_moves(t))), &all),
            "moves per game that raise the mover's chance by at least 0.5",
        ),
    ];
    let mut groups: Vec<Vec<f64>> = Vec::new();
    for t in games {
        if groups.len() <= t.seating {
            groups.resize(t.seating + 1, Vec::new());
        }
        groups[t.seating].push(t.seat0_points);
    }
    if let Some(s) = skill_share(&groups) {
        out.push(Metric {
            name: "skill_share",
            value: s.share,
            low: f64::NAN,
            high: f64::NAN,
            n,
            about: "share of seat 0's outcome variance explained by the seating of the agents (omega squared); the rest is luck and seat",
        });
        out.push(Metric {
            name: "skill_share_p",
            value: s.p_value,
            low: f64::NAN,
            high: f64::NAN,
            n,
            about: "p-value of 'the seating of the agents explains nothing'",
        });
    }
    out
}

/// The skill depth of a ladder: Elo of the best entrant above random play.
#[derive(Clone, Debug, PartialEq)]
pub struct LadderDepth {
    /// The best entrant.
    pub best: String,
    /// Its Elo above random play.
    pub spread: f64,
    /// Its interval.
    pub low: f64,
    /// Upper bound.
    pub high: f64,
    /// Entrants.
    pub entrants: usize,
}

/// Reads a `ladder.csv` (random play anchored at Elo 0).
pub fn ladder_depth(path: &Path) -> Result<LadderDepth, String> {
    let why = |e: &dyn std::fmt::Display| format!("cannot read ladder {}: {e}", path.display());
    let mut r =
        crate::fsutil::csv_reader(path, crate::fsutil::MAX_TEXT_BYTES).map_err(|e| why(&e))?;
    let head = r.headers().map_err(|e| why(&e))?.clone();
    let col = |name: &str| {
        head.iter().position(|h| h == name).ok_or_else(|| {
            why(&format!(
                "no column '{name}' (a ladder.csv of boardlab ladder)"
            ))
        })
    };
    let (entrant, elo, lo, hi) = (
        col("entrant")?,
        col("elo")?,
        col("elo_low")?,
        col("elo_high")?,
    );
    let mut best: Option<LadderDepth> = None;
    let mut anchor = 0.0;
    let mut entrants = 0;
    for rec in r.records() {
        let rec = rec.map_err(|e| why(&e))?;
        let num = |i: usize| -> Result<f64, String> {
            rec.get(i)
                .and_then(|t| t.trim().parse().ok())
                .ok_or_else(|| why(&format!("'{}' is not a number", rec.get(i).unwrap_or(""))))
        };
        entrants += 1;
        let name = rec.get(entrant).unwrap_or("").to_string();
        if name == "random" {
            anchor = num(elo)?;
        }
        let e = num(elo)?;
        if best.as_ref().is_none_or(|b| e > b.spread) {
            best = Some(LadderDepth {
                best: name,
                spread: e,
                low: num(lo)?,
                high: num(hi)?,
                entrants: 0,
            });
        }
    }
    let mut b = best.ok_or_else(|| why(&"no entrants"))?;
    b.spread -= anchor;
    b.low -= anchor;
    b.high -= anchor;
    b.entrants = entrants;
    Ok(b)
}

/// Plays `games` games (agents rotated over the seats as in `run`) and
/// records each one's trajectory. The same seed gives the same trajectories
/// for any thread count.
pub fn play<G: Game>(
    game: &G,
    specs: &[AgentSpec],
    games: u64,
    seed: u64,
    threads: usize,
) -> anyhow::Result<Vec<Trajectory>> {
    let n = game.num_players();
    if specs.len() != n {
        anyhow::bail!(
            "{} takes {n} agents (one per seat), got {}",
            game.spec(),
            specs.len()
        );
    }
    for s in specs {
        s.build::<G>()?;
        s.check_game(game)?;
    }
    let sides = (0..n)
        .map(|p| game.side(p as u8) as usize + 1)
        .max()
        .unwrap_or(1);
    let games = crate::arena::rounded_games(games, n);
    let pool = crate::arena::pool(threads).map_err(anyhow::Error::msg)?;
    Ok(pool.install(|| {
        (0..games)
            .into_par_iter()
            .map(|index| play_one(game, specs, sides, index, seed))
            .collect()
    }))
}

fn side_chances<G: Game>(game: &G, state: &G::State, sides: usize) -> Vec<f64> {
    let mut h = vec![0.0; sides];
    let mut k = vec![0.0; sides];
    for p in 0..game.num_players() {
        let s = game.side(p as u8) as usize;
        h[s] += game.heuristic(state, p as u8);
        k[s] += 1.0;
    }
    let mean: Vec<f64> = h
        .iter()
        .zip(&k)
        .map(|(h, k)| h / f64::max(*k, 1.0))
        .collect();
    chances_from_heuristic(&mean)
}

fn play_one<G: Game>(
    game: &G,
    specs: &[AgentSpec],
    sides: usize,
    index: u64,
    master: u64,
) -> Trajectory {
    let n = game.num_players();
    let seats = seating(index, n);
    let mut agents: Vec<Box<dyn crate::agents::Agent<G>>> = seats
        .iter()
        .filter_map(|&a| specs[a].build::<G>().ok())
        .collect();
    let mut t = Trajectory {
        seating: (index % n as u64) as usize,
        ..Trajectory::default()
    };
    let mut hook = |state: &G::State, player: Option<u8>, _action: G::Action| {
        if let Some(p) = player {
            t.chances.push(side_chances(game, state, sides));
            t.movers.push(game.side(p) as usize);
            t.branching.push(game.legal_actions(state).len() as u32);
        }
    };
    let r = crate::arena::play::play_game_split(
        game,
        &mut agents,
        seed_of(master, index, n, false),
        game_seed(master, index),
        None,
        &mut hook,
    );
    t.actions = r.actions;
    t.completed = !r.truncated && r.error.is_none();
    t.seat0_points = r.seats[0].outcome.points();
    if t.completed {
        let winners: Vec<usize> = (0..n)
            .filter(|&p| r.seats[p].outcome == Outcome::Win)
            .map(|p| game.side(p as u8) as usize)
            .collect();
        let drawn: Vec<usize> = (0..n)
            .filter(|&p| r.seats[p].outcome == Outcome::Draw)
            .map(|p| game.side(p as u8) as usize)
            .collect();
        let mut end = vec![0.0; sides];
        if let Some(&w) = winners.first() {
            t.winner = Some(w);
            end[w] = 1.0;
        } else {
            let mut d = drawn;
            d.sort_unstable();
            d.dedup();
            for &s in &d {
                end[s] = 1.0 / d.len() as f64;
            }
        }
        t.chances.push(end);
    }
    t
}

/// `quality.csv`: `metric,value,ci_low,ci_high,n,about`.
pub fn to_csv(metrics: &[Metric], ladder: Option<&LadderDepth>) -> String {
    let mut out = String::from("metric,value,ci_low,ci_high,n,about\n");
    let f = |x: f64| {
        if x.is_finite() {
            format!("{x:.6}")
        } else {
            String::new()
        }
    };
    for m in metrics {
        let _ = writeln!(
            out,
            "{},{},{},{},{},\"{}\"",
            m.name,
            f(m.value),
            f(m.low),
            f(m.high),
            m.n,
            m.about
        );
    }
    if let Some(l) = ladder {
        let _ = writeln!(
            out,
            "elo_spread,{},{},{},{},\"Elo of the best ladder entrant ({}) above random play\"",
            f(l.spread),
            f(l.low),
            f(l.high),
            l.entrants,
            l.best
        );
    }
    out
}

/// `quality.md`: the metrics with intervals and what each means.
pub fn to_markdown(title: &str, metrics: &[Metric], ladder: Option<&LadderDepth>) -> String {
    let mut out = format!("# Game quality: {title}\n\n");
    out.push_str(
        "Each side's chance of winning is read from the game's heuristic h in [-1, 1] at every \
         decision as (1 + h) / 2, normalised over the sides; a completed game ends at 1 for the \
         winner (a draw shares it). This is a monotone reading of the heuristic, **not a \
         calibrated probability**: compare drama, lead changes, uncertainty and killer moves \
         across variants and agents of one game, not across games. Intervals: 95 % (Wilson for \
         shares, normal over games for means).\n\n",
    );
    out.push_str("| metric | value | 95 % CI | games | meaning |\n|---|---:|---|---:|---|\n");
    let ci = |m: &Metric| {
        if m.low.is_finite() {
            format!("[{:.3}, {:.3}]", m.low, m.high)
        } else {
            "-".into()
        }
    };
    for m in metrics {
        let _ = writeln!(
            out,
            "| {} | {:.3} | {} | {} | {} |",
            m.name,
            m.value,
            ci(m),
            m.n,
            m.about
        );
    }
    if let Some(l) = ladder {
        let _ = writeln!(
            out,
            "| elo_spread | {:.1} | [{:.1}, {:.1}] | {} entrants | Elo of the best ladder entrant (`{}`) above random play |",
            l.spread, l.low, l.high, l.entrants, l.best
        );
    }
    out.push_str(
        "\nSkill depth: `skill_share` is the share of seat 0's outcome variance that the seating \
         of the agents explains (who plays whom from where; ω² of a one-way analysis of \
         variance over the seatings); the rest is luck, seat advantage and the agents' own \
         randomness. With identical agents it is 0 by construction. `elo_spread` (with \
         `--ladder`) is the Elo of the strongest agent of a ladder above random play.\n",
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn two(p: &[f64]) -> Vec<Vec<f64>> {
        p.iter().map(|&x| vec![x, 1.0 - x]).collect()
    }

    fn traj(p: &[f64], winner: Option<usize>) -> Trajectory {
        let chances = two(p);
        let movers = (0..chances.len() - 1).map(|i| i % 2).collect();
        Trajectory {
            branching: vec![3; chances.len() - 1],
            chances,
            movers,
            winner,
            completed: true,
            actions: p.len() as u32 - 1,
            ..Trajectory::default()
        }
    }

    #[test]
    fn chances_normalise_the_heuristic() {
        assert_eq!(chances_from_heuristic(&[0.5, -0.5]), vec![0.75, 0.25]);
        let c = chances_from_heuristic(&[0.0, 0.0, 1.0]);
        assert!((c[2] - 0.5).abs() < 1e-12 && (c[0] - 0.25).abs() < 1e-12);
        assert_eq!(chances_from_heuristic(&[-1.0, -1.0]), vec![0.5, 0.5]);
    }

    #[test]
    fn a_monotone_game_has_no_lead_change_and_no_drama() {
        let t = traj(&[0.55, 0.6, 0.7, 0.8, 0.9, 1.0], Some(0));
        assert_eq!(lead_changes(&t.chances), 0);
        assert_eq!(drama(&t), Some(0.0));
        assert_eq!(decision_point(&t), Some(0.0));
        assert_eq!(killer_moves(&t), 0);
    }

    #[test]
    fn lead_changes_count_swaps_and_ties_keep_the_leader() {
        // 0 leads, tie, 0 leads, 1 leads, 0 leads, 0 wins: two changes.
        let c = two(&[0.6, 0.5, 0.7, 0.3, 0.8, 1.0]);
        assert_eq!(lead_changes(&c), 2);
        assert_eq!(leader(&[0.5, 0.5]), None);
    }

    #[test]
    fn drama_is_the_mean_gap_while_the_winner_trails() {
        // Side 1 wins after trailing at 0.8 (gap 0.6) and 0.6 (gap 0.2).
        let t = traj(&[0.8, 0.6, 0.4, 0.0], Some(1));
        assert!((drama(&t).unwrap() - 0.4).abs() < 1e-12);
        // It leads from state 2 of 0..=3: decided at 2/3.
        assert!((decision_point(&t).unwrap() - 2.0 / 3.0).abs() < 1e-12);
        assert_eq!(drama(&traj(&[0.5, 1.0], None)), None);
    }

    #[test]
    fn uncertainty_is_normalised_entropy_over_decisions() {
        // Decisions at 0.5 (entropy 1) and 1.0 (0); the end is not counted.
        let t = traj(&[0.5, 1.0, 1.0], Some(0));
        assert!((uncertainty(&t).unwrap() - 0.5).abs() < 1e-12);
    }

    #[test]
    fn killer_moves_are_rises_of_half_for_the_mover() {
        // Side 0 moves at 0 (0.5 → 0.4), side 1 at 1 (0.6 → 0.7: +0.1),
        // side 0 at 2 (0.3 → 0.9: +0.6, a killer), side 1 at 3 (0.1 → 0.0).
        let t = traj(&[0.5, 0.4, 0.3, 0.9, 1.0], Some(0));
        assert_eq!(killer_moves(&t), 1);
    }

    #[test]
    fn shares_count_completed_draws_and_winners() {
        let mut cut = traj(&[0.5, 0.5], None);
        cut.completed = false;
        cut.chances.pop();
        let games = vec![
            traj(&[0.5, 1.0], Some(0)),
            traj(&[0.5, 0.5], None),
            traj(&[0.5, 0.5], None),
            cut,
        ];
        let m = metrics(&games);
        let get = |n: &str| m.iter().find(|x| x.name == n).unwrap().value;
        assert_eq!(get("completion"), 0.75);
        assert!((get("drawishness") - 2.0 / 3.0).abs() < 1e-12);
        assert_eq!(get("decisiveness"), 0.25);
        assert_eq!(get("branching"), 3.0);
        assert_eq!(get("duration"), 1.0);
    }

    #[test]
    fn skill_share_separates_pairing_from_luck() {
        // Seating 0: seat 0 always wins; seating 1: always loses: all pairing.
        let s = skill_share(&[vec![1.0; 50], vec![0.0; 50]]).unwrap();
        assert!(s.share > 0.99 && s.p_value < 1e-9, "{s:?}");
        // Same coin in both seatings: no pairing effect.
        let coin: Vec<f64> = (0..100).map(|i| f64::from(i % 2)).collect();
        let s = skill_share(&[coin.clone(), coin]).unwrap();
        assert_eq!(s.share, 0.0);
        assert!(s.p_value > 0.99);
        assert!(skill_share(&[vec![1.0]]).is_none());
    }

    fn run(game: &str, agents: &[&str], games: u64, threads: usize) -> Vec<Trajectory> {
        let g = crate::games::AnyGame::parse(game).unwrap();
        let specs: Vec<AgentSpec> = agents
            .iter()
            .map(|a| AgentSpec::parse(a).unwrap())
            .collect();
        crate::with_game!(&g, g => play(g, &specs, games, 3, threads)).unwrap()
    }

    fn value(m: &[Metric], name: &str) -> f64 {
        m.iter().find(|x| x.name == name).unwrap().value
    }

    #[test]
    fn perfect_tictactoe_is_always_drawn() {
        let games = run("tictactoe", &["alphabeta", "alphabeta"], 4, 1);
        let m = metrics(&games);
        assert_eq!(value(&m, "completion"), 1.0);
        assert_eq!(value(&m, "drawishness"), 1.0);
        assert_eq!(value(&m, "decisiveness"), 0.0);
        // Nine marks in every drawn game.
        assert_eq!(value(&m, "decisions"), 9.0);
        // Perfect play against random: the pairing decides most of the outcome.
        let m = metrics(&run("tictactoe", &["alphabeta", "random"], 200, 2));
        assert!(value(&m, "skill_share") > 0.5, "{m:?}");
        let m = metrics(&run("tictactoe", &["random", "random"], 200, 2));
        assert!(value(&m, "skill_share") < 0.05, "{m:?}");
    }

    #[test]
    fn connect4_random_games_are_decisive_with_at_most_seven_moves() {
        let games = run("connect4", &["random", "random"], 60, 2);
        let m = metrics(&games);
        assert_eq!(value(&m, "completion"), 1.0);
        assert!(value(&m, "decisiveness") > 0.9, "{m:?}");
        let b = value(&m, "branching");
        assert!(b > 5.0 && b <= 7.0, "{b}");
        let d = value(&m, "decisions");
        assert!((7.0..=42.0).contains(&d), "{d}");
        // Every decision state's chances are a distribution; the end is certain.
        for t in &games {
            assert!(
                t.chances
                    .iter()
                    .all(|c| (c.iter().sum::<f64>() - 1.0).abs() < 1e-9)
            );
            if let Some(w) = t.winner {
                assert_eq!(t.chances.last().unwrap()[w], 1.0);
            }
            assert_eq!(t.chances.len(), t.movers.len() + 1);
        }
        let u = value(&m, "uncertainty");
        assert!(u > 0.0 && u < 1.0, "{u}");
    }

    #[test]
    fn fox_trajectories_do_not_depend_on_threads() {
        let a = run("fox", &["greedy", "random"], 8, 1);
        let b = run("fox", &["greedy", "random"], 8, 3);
        assert_eq!(a, b);
        let m = metrics(&a);
        assert!(a.iter().any(|t| t.winner.is_some()));
        assert!(value(&m, "lead_changes") >= 0.0 && value(&m, "branching") >= 1.0);
        for x in &m {
            assert!(x.value.is_finite(), "{x:?}");
        }
    }
}

//! `boardlab design`: a search of a variant space (see [`space`]) for a
//! game that is fair and plays well, from cheap evidence to strong play.
//!
//! Multi-fidelity racing on common seeds. Each stage plays every surviving
//! variant: an *agent* stage has identical agents in every seat and plays in
//! batches (every variant gets the same game seeds, so their differences are
//! not luck), and after each batch drops the variants that are shown
//!
//! - unfair: some side's (or seat's) rate lies outside the fair share ±
//!   the tolerance, interval and all;
//! - poor: a quality limit (cap share, decisiveness, length) is broken,
//!   interval and all;
//! - beaten: its distance from fair is surely larger than the best
//!   variant's.
//!
//! Intervals are corrected (Bonferroni) over a stage's looks and the groups,
//! so each variant keeps its error rate at `alpha` over the whole stage. A
//! stage ends when every survivor is shown fair and within the limits, or at
//! its game cap; `keep` then passes on only the closest to fair. A
//! *population* stage confirms the survivors by the meta-game between the
//! population's members (see [`crate::metagame`]): the sides' payoffs at the
//! equilibrium mix, with bootstrap intervals.
//!
//! The recommendation is the survivor of the last stage shown fair and
//! within every limit there, closest to fair; or none within tolerance.
//! Every game is kept (`stage-K/variant-NNNN.csv` in games.csv's format, or
//! the meta-game's cells), so `--resume` continues an interrupted search
//! and decides exactly as an uninterrupted one.

pub mod page;
pub mod space;

use std::io::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, anyhow, bail};
use serde::{Deserialize, Serialize};

use crate::arena::PlayedGame;
use crate::files::rows::{GameRow, read_games};
use crate::game::Outcome;
use crate::metagame::{MetagameOptions, Side, sides_of};
use crate::runtime::{DynGame, GameSource};
use crate::spec::Spec;
use crate::stats::normal_quantile;
use crate::stats::wilson;
use space::{By, Space, Stage, Variant};

/// How to run a search.
#[derive(Clone, Debug)]
pub struct DesignOptions {
    /// The space, as read.
    pub space: Space,
    /// The space file's text, kept beside the results.
    pub space_text: String,
    /// Master seed: every variant plays the same game seeds.
    pub seed: u64,
    /// Worker threads (0: one per core).
    pub threads: usize,
    /// Output directory.
    pub out: PathBuf,
    /// Replace an earlier search in `out`.
    pub force: bool,
    /// Continue an interrupted search in `out`.
    pub resume: bool,
    /// Progress on stderr.
    pub progress: bool,
    /// The command line, recorded in design.json.
    pub command: String,
}

/// One game, reduced to what the search reads.
#[derive(Clone, Debug)]
struct Summary {
    /// Points of each group (side or seat).
    points: Vec<f64>,
    /// Stopped by a cap.
    capped: bool,
    /// Ended by the rules with a winner.
    decisive: bool,
    /// Turns played.
    turns: f64,
}

/// A value with an interval.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Interval {
    /// The estimate.
    pub value: f64,
    /// Lower end.
    pub low: f64,
    /// Upper end.
    pub high: f64,
}

/// One group's rate.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct GroupRate {
    /// `foxes`, `side 1`, `seat 2`.
    pub name: String,
    /// Its rate (or meta-game payoff) with its interval.
    pub rate: Interval,
}

/// A variant as measured at one stage.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Measure {
    /// The stage (1-based).
    pub stage: usize,
    /// Games played (per cell at a population stage).
    pub games: u64,
    /// Each group's rate.
    pub groups: Vec<GroupRate>,
    /// The fair share: the mean of the groups' rates.
    pub fair: f64,
    /// The largest distance of a group's rate from the fair share.
    pub deviation: Interval,
    /// Share of games stopped by a cap.
    pub cap_share: Interval,
    /// Share of games with a winner.
    pub decisive: Interval,
    /// Mean turns per game.
    pub turns: Interval,
    /// Every group within tolerance, interval and all.
    pub shown_fair: bool,
    /// Every quality limit met, interval and all.
    pub shown_quality: bool,
}

/// Where a variant's search ended.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct VariantResult {
    /// The variant.
    #[serde(flatten)]
    pub variant: Variant,
    /// Its measures, one per stage it reached.
    pub measures: Vec<Measure>,
    /// `recommended`, `survived`, or `dropped`.
    pub status: String,
    /// Why it was dropped, or empty.
    pub reason: String,
    /// On the Pareto front of the last stage's survivors (distance from
    /// fair, cap share, decisiveness).
    pub pareto: bool,
}

/// The search's answer.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Design {
    /// The base game spec.
    pub game: String,
    /// Master seed.
    pub seed: u64,
    /// The command line.
    pub command: String,
    /// Sides or seats.
    pub by: By,
    /// The fairness tolerance of the last stage, which the recommendation meets.
    pub tolerance: f64,
    /// Every variant, in the space's order.
    pub variants: Vec<VariantResult>,
    /// The recommended variant's index, if any.
    pub recommended: Option<usize>,
    /// One sentence: the recommendation, or why there is none.
    pub verdict: String,
}

/// The groups whose rates must be even.
fn groups_of(game: &dyn DynGame, by: By) -> Vec<Side> {
    match by {
        By::Sides => sides_of(&game.sides()),
        By::Seats => (0..game.num_players())
            .map(|s| Side {
                side: s,
                seats: vec![s],
                name: format!("seat {s}"),
            })
            .collect(),
    }
}

/// Reduces one game's rows (one per seat).
fn summarize(rows: &[GameRow], groups: &[Side]) -> Summary {
    let by_seat = |s: usize| rows.iter().find(|r| r.seat as usize == s);
    let points = groups
        .iter()
        .map(|g| by_seat(g.seats[0]).map_or(0.0, |r| r.outcome.points()))
        .collect();
    let capped = rows.iter().any(|r| r.truncated);
    let decisive = !capped && rows.iter().any(|r| r.outcome == Outcome::Win);
    let turns = rows.first().map_or(0.0, |r| f64::from(r.turns));
    Summary {
        points,
        capped,
        decisive,
        turns,
    }
}

/// Names the groups from the rows' roles: a side whose first seat holds the
/// same role (up to a `:`) in every game is called by it.
fn group_names(groups: &mut [Side], rows: &[GameRow]) {
    for g in groups.iter_mut() {
        let mut roles = rows
            .iter()
            .filter(|r| r.seat as usize == g.seats[0])
            .map(|r| r.role.split(':').next().unwrap_or_default());
        if let Some(first) = roles.next()
            && !first.is_empty()
            && roles.all(|r| r == first)
        {
            g.name = first.to_string();
        }
    }
}

/// The distance of `rate` from `fair`, with its interval.
fn distance(rate: &Interval, fair: f64) -> Interval {
    Interval {
        value: (rate.value - fair).abs(),
        low: (rate.low - fair).max(fair - rate.high).max(0.0),
        high: (rate.high - fair).max(fair - rate.low),
    }
}

/// Mean and interval of `xs` at `z`.
fn mean_interval(xs: impl Iterator<Item = f64> + Clone, z: f64) -> Interval {
    let n = xs.clone().count() as f64;
    if n == 0.0 {
        return Interval {
            value: 0.0,
            low: 0.0,
            high: f64::INFINITY,
        };
    }
    let m = xs.clone().sum::<f64>() / n;
    let var = if n > 1.0 {
        xs.map(|x| (x - m).powi(2)).sum::<f64>() / (n - 1.0)
    } else {
        f64::INFINITY
    };
    let h = z * (var / n).sqrt();
    Interval {
        value: m,
        low: m - h,
        high: m + h,
    }
}

fn share(k: usize, n: usize, z: f64) -> Interval {
    let (low, high) = wilson(k as f64, n as f64, z);
    Interval {
        value: if n == 0 { 0.0 } else { k as f64 / n as f64 },
        low,
        high,
    }
}

/// What the limits say of a measure: `Err(reason)` when one is surely
/// broken, `Ok(true)` when all are surely met, `Ok(false)` when undecided.
fn judge_quality(m: &Measure, q: &space::Quality) -> Result<bool, String> {
    let mut shown = true;
    if let Some(max) = q.max_cap_share {
        if m.cap_share.low > max {
            return Err(format!(
                "cap share {:.3} [{:.3}, {:.3}] above {max}",
                m.cap_share.value, m.cap_share.low, m.cap_share.high
            ));
        }
        shown &= m.cap_share.high <= max;
    }
    if let Some(min) = q.min_decisive {
        if m.decisive.high < min {
            return Err(format!(
                "decisive share {:.3} [{:.3}, {:.3}] below {min}",
                m.decisive.value, m.decisive.low, m.decisive.high
            ));
        }
        shown &= m.decisive.low >= min;
    }
    if let Some(min) = q.min_turns {
        if m.turns.high < min {
            return Err(format!(
                "{:.1} turns a game, fewer than {min}",
                m.turns.value
            ));
        }
        shown &= m.turns.low >= min;
    }
    if let Some(max) = q.max_turns {
        if m.turns.low > max {
            return Err(format!(
                "{:.1} turns a game, more than {max}",
                m.turns.value
            ));
        }
        shown &= m.turns.high <= max;
    }
    Ok(shown)
}

/// Measures games from the rates of the groups (given, or from the games at `z`).
fn measure(
    stage: usize,
    games: &[Summary],
    names: &[String],
    rates: Option<Vec<Interval>>,
    z: f64,
    space: &Space,
) -> Measure {
    let tol = space.stages[stage - 1].tolerance(&space.fairness);
    let n = games.len();
    let rates = rates.unwrap_or_else(|| {
        (0..names.len())
            .map(|g| {
                let r = mean_interval(games.iter().map(|s| s.points[g]), z);
                Interval {
                    low: r.low.max(0.0),
                    high: r.high.min(1.0),
                    ..r
                }
            })
            .collect()
    });
    let fair = rates.iter().map(|r| r.value).sum::<f64>() / rates.len() as f64;
    let dist: Vec<Interval> = rates.iter().map(|r| distance(r, fair)).collect();
    let deviation = Interval {
        value: dist.iter().map(|d| d.value).fold(0.0, f64::max),
        low: dist.iter().map(|d| d.low).fold(0.0, f64::max),
        high: dist.iter().map(|d| d.high).fold(0.0, f64::max),
    };
    let mut m = Measure {
        stage,
        games: n as u64,
        groups: names
            .iter()
            .zip(rates)
            .map(|(name, rate)| GroupRate {
                name: name.clone(),
                rate,
            })
            .collect(),
        fair,
        shown_fair: deviation.high <= tol,
        deviation,
        cap_share: share(games.iter().filter(|g| g.capped).count(), n, z),
        decisive: share(games.iter().filter(|g| g.decisive).count(), n, z),
        turns: mean_interval(games.iter().map(|g| g.turns), z),
        shown_quality: false,
    };
    m.shown_quality = judge_quality(&m, &space.quality).unwrap_or(false);
    m
}

/// A variant during the search.
struct Live {
    game: Box<dyn DynGame>,
    result: VariantResult,
    games: Vec<Summary>,
    alive: bool,
}

impl Live {
    fn drop_for(&mut self, reason: String) {
        self.alive = false;
        self.result.status = "dropped".into();
        self.result.reason = reason;
    }
}

fn variant_file(dir: &Path, stage: usize, index: usize) -> PathBuf {
    dir.join(format!("stage-{stage}"))
        .join(format!("variant-{index:04}.csv"))
}

/// The complete games 0, 1, … kept in `path`, rewritten to hold exactly
/// those (a search killed mid-write leaves a torn tail).
fn resume_rows(path: &Path, seats: usize) -> Result<Vec<Vec<GameRow>>> {
    if !path.exists() {
        return Ok(Vec::new());
    }
    let text = crate::fsutil::read_text(path, 1 << 34)
        .with_context(|| format!("cannot read {}", path.display()))?;
    let whole = match text.rfind('\n') {
        Some(i) => &text[..=i],
        None => "",
    };
    let tmp = path.with_extension("whole");
    crate::fsutil::write_atomic(&tmp, whole)?;
    let rows = read_games(&tmp).map_err(|e| anyhow!("{}: {e}", path.display()));
    let _ = std::fs::remove_file(&tmp);
    let rows = rows?;
    let mut games: Vec<Vec<GameRow>> = Vec::new();
    for r in rows {
        let g = r.game_index as usize;
        if g == games.len() {
            games.push(Vec::new());
        } else if g + 1 != games.len() {
            bail!(
                "{}: game {g} is out of place (a file of another search?); use --force to start again",
                path.display()
            );
        }
        games[g].push(r);
    }
    while games.last().is_some_and(|g| g.len() != seats) {
        games.pop();
    }
    write_rows(path, &games, true)?;
    Ok(games)
}

/// Writes (or with `fresh`, replaces) `path` with `games`' rows.
fn write_rows(path: &Path, games: &[Vec<GameRow>], fresh: bool) -> Result<()> {
    let mut w = csv::WriterBuilder::new()
        .has_headers(fresh || !path.exists())
        .from_writer(Vec::new());
    for r in games.iter().flatten() {
        w.serialize(r)?;
    }
    let bytes = w.into_inner().map_err(|e| anyhow!("{e}"))?;
    if fresh {
        if games.is_empty() {
            return Ok(());
        }
        crate::fsutil::write_atomic(path, bytes)
            .with_context(|| format!("cannot write {}", path.display()))
    } else {
        let mut f = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .with_context(|| format!("cannot write {}", path.display()))?;
        f.write_all(&bytes)
            .and_then(|()| f.flush())
            .with_context(|| format!("cannot write {}", path.display()))
    }
}

/// The variants' games at an agent stage, racing.
fn agent_stage(
    k: usize,
    stage: &Stage,
    agent: &str,
    live: &mut [Live],
    (groups, names): (&[Side], &mut Vec<String>),
    o: &DesignOptions,
    pool: &rayon::ThreadPool,
) -> Result<()> {
    let space = &o.space;
    let batch = stage.batch.unwrap_or((stage.games / 10).max(1));
    let looks = stage.games.div_ceil(batch);
    let z =
        normal_quantile(1.0 - space.fairness.alpha / (2.0 * (looks * groups.len() as u64) as f64));
    let alive_now = live.iter().filter(|l| l.alive).count() as u64;
    let bar = crate::arena::progress::Progress::of(
        alive_now * stage.games,
        o.progress,
        "game",
        format!("stage {k}"),
    );
    for l in live.iter_mut() {
        l.games.clear();
    }
    let dir = o.out.join(format!("stage-{k}"));
    let _made = crate::fsutil::MadeDir::make(&dir)
        .with_context(|| format!("cannot create {}", dir.display()))?;
    let mut start = 0;
    while start < stage.games {
        let end = (start + batch).min(stage.games);
        for l in live.iter_mut().filter(|l| l.alive) {
            let path = variant_file(&o.out, k, l.result.variant.index);
            let seats = l.game.num_players();
            if start == 0 && o.resume {
                let kept = resume_rows(&path, seats)?;
                if names.is_empty() {
                    group_names_from(names, groups, &kept);
                }
                l.games = kept.iter().map(|g| summarize(g, groups)).collect();
            } else if start == 0 {
                let _ = std::fs::remove_file(&path);
            }
            let have = l.games.len() as u64;
            if have < end {
                let played = l
                    .game
                    .play_identical(agent, have..end, o.seed, false, pool)?;
                let rows = rows_of(played, &l.result.variant.spec)?;
                if names.is_empty() {
                    group_names_from(names, groups, &rows);
                }
                write_rows(&path, &rows, false)?;
                l.games.extend(rows.iter().map(|g| summarize(g, groups)));
            }
            bar.inc(end - start);
        }
        let mut measures: Vec<Option<Measure>> = live
            .iter()
            .map(|l| {
                l.alive
                    .then(|| measure(k, &l.games[..end as usize], names, None, z, space))
            })
            .collect();
        race(live, &mut measures, space, stage.tolerance(&space.fairness));
        for (l, m) in live.iter_mut().zip(measures) {
            if let Some(m) = m {
                match l.result.measures.last_mut() {
                    Some(last) if last.stage == k => *last = m,
                    _ => l.result.measures.push(m),
                }
            }
        }
        start = end;
        let settled = live.iter().filter(|l| l.alive).all(|l| {
            l.result
                .measures
                .last()
                .is_some_and(|m| m.shown_fair && m.shown_quality)
        });
        if settled {
            break;
        }
    }
    bar.finish_and_clear();
    let record = crate::files::DesignStage {
        agent: agent.to_string(),
        seed: o.seed,
        variants: live
            .iter()
            .filter(|l| !l.games.is_empty())
            .map(|l| crate::files::DesignStageVariant {
                file: format!("variant-{:04}.csv", l.result.variant.index),
                spec: l.result.variant.spec.clone(),
                games: l.games.len() as u64,
            })
            .collect(),
    };
    let json = serde_json::to_string_pretty(&record)? + "\n";
    crate::fsutil::write_atomic(&dir.join(crate::files::DESIGN_STAGE_FILE), json)?;
    Ok(())
}

/// The group names, taken from the first rows seen.
fn group_names_from(names: &mut Vec<String>, groups: &[Side], games: &[Vec<GameRow>]) {
    if games.is_empty() {
        return;
    }
    let mut g = groups.to_vec();
    let rows: Vec<GameRow> = games.iter().flatten().cloned().collect();
    group_names(&mut g, &rows);
    *names = g.into_iter().map(|s| s.name).collect();
}

fn rows_of(played: Vec<PlayedGame>, spec: &str) -> Result<Vec<Vec<GameRow>>> {
    played
        .into_iter()
        .map(|p| match p.stop {
            Some(stop) => Err(anyhow!("{spec}: the game failed: {stop:?}")),
            None => Ok(p.rows),
        })
        .collect()
}

/// Drops the variants the measures condemn (unfair, poor, beaten).
fn race(live: &mut [Live], measures: &mut [Option<Measure>], space: &Space, tol: f64) {
    for (l, m) in live.iter_mut().zip(measures.iter()) {
        let Some(m) = m else { continue };
        if m.deviation.low > tol {
            // The first group farthest from fair.
            let off = |g: &GroupRate| (g.rate.value - m.fair).abs();
            let worst = m
                .groups
                .iter()
                .fold(&m.groups[0], |w, g| if off(g) > off(w) { g } else { w });
            l.drop_for(format!(
                "unfair: {} {:.3} [{:.3}, {:.3}] against a fair {:.3} ± {tol} after {} games",
                worst.name, worst.rate.value, worst.rate.low, worst.rate.high, m.fair, m.games
            ));
        } else if let Err(why) = judge_quality(m, &space.quality) {
            l.drop_for(format!("{why} after {} games", m.games));
        }
    }
    let best = live
        .iter()
        .zip(measures.iter())
        .filter(|(l, m)| l.alive && m.is_some())
        .map(|(l, m)| {
            (
                l.result.variant.index,
                m.as_ref().expect("filtered").deviation.high,
            )
        })
        .min_by(|a, b| a.1.total_cmp(&b.1));
    if let Some((best, bound)) = best {
        for (l, m) in live.iter_mut().zip(measures.iter()) {
            if let Some(m) = m
                && l.alive
                && l.result.variant.index != best
                && m.deviation.low > bound
            {
                l.drop_for(format!(
                    "beaten: {:.3} [{:.3}, {:.3}] from fair, surely farther than variant {best} (at most {bound:.3}) after {} games",
                    m.deviation.value, m.deviation.low, m.deviation.high, m.games
                ));
            }
        }
    }
}

/// The meta-game of `population` on every survivor.
fn population_stage(
    k: usize,
    stage: &Stage,
    population: &[String],
    live: &mut [Live],
    o: &DesignOptions,
) -> Result<()> {
    let space = &o.space;
    let z = normal_quantile(1.0 - space.fairness.alpha / 2.0);
    for l in live.iter_mut().filter(|l| l.alive) {
        let dir = o
            .out
            .join(format!("stage-{k}"))
            .join(format!("variant-{:04}", l.result.variant.index));
        if o.progress {
            eprintln!("stage {k}: meta-game of {}", l.result.variant.spec);
        }
        let mo = MetagameOptions {
            agents: population.to_vec(),
            games: stage.games,
            seed: o.seed,
            threads: o.threads,
            out: dir.clone(),
            force: !o.resume,
            resume: o.resume,
            tolerance: stage.tolerance(&space.fairness),
            progress: o.progress,
            command: o.command.clone(),
            ..MetagameOptions::default()
        };
        let sol = crate::metagame::run(l.game.as_ref(), &mo)
            .map_err(|e| anyhow!("{}: {e}", l.result.variant.spec))?
            .pop()
            .expect("one meta-game")
            .1;
        let mut rows = Vec::new();
        let seats = l.game.num_players();
        let groups = sides_of(&l.game.sides());
        let cells = dir.join("cells");
        let mut entries: Vec<PathBuf> = std::fs::read_dir(&cells)
            .with_context(|| format!("cannot read {}", cells.display()))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .collect();
        entries.sort();
        for cell in entries {
            let r = read_games(&cell.join("games.csv")).map_err(|e| anyhow!(e))?;
            for game in r.chunks(seats) {
                rows.push(summarize(game, &groups));
            }
        }
        let names: Vec<String> = sol.sides.iter().map(|s| s.name.clone()).collect();
        let rates = sol
            .side_payoffs
            .iter()
            .map(|e| Interval {
                value: e.value,
                low: e.ci_low,
                high: e.ci_high,
            })
            .collect();
        let m = measure(k, &rows, &names, Some(rates), z, space);
        let tol = stage.tolerance(&space.fairness);
        l.result.measures.push(Measure {
            games: stage.games,
            ..m.clone()
        });
        if m.deviation.low > tol {
            l.drop_for(format!(
                "unfair under the meta-game: {:.3} [{:.3}, {:.3}] from fair",
                m.deviation.value, m.deviation.low, m.deviation.high
            ));
        } else if let Err(why) = judge_quality(&m, &space.quality) {
            l.drop_for(format!("{why} under the meta-game"));
        }
    }
    Ok(())
}

/// Keeps the `keep` alive variants closest to fair.
fn keep_best(live: &mut [Live], keep: usize, k: usize) {
    let mut alive: Vec<(usize, f64)> = live
        .iter()
        .enumerate()
        .filter(|(_, l)| l.alive)
        .map(|(i, l)| {
            let d = l
                .result
                .measures
                .last()
                .map_or(f64::INFINITY, |m| m.deviation.value);
            (i, d)
        })
        .collect();
    alive.sort_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)));
    for &(i, _) in alive.iter().skip(keep) {
        live[i].drop_for(format!(
            "not among the {keep} closest to fair after stage {k}"
        ));
    }
}

/// Marks the Pareto front of the survivors: nobody else is at least as good
/// on distance from fair, cap share and decisiveness and better on one.
fn mark_pareto(live: &mut [Live]) {
    let points: Vec<Option<[f64; 3]>> = live
        .iter()
        .map(|l| {
            l.alive.then(|| {
                let m = l.result.measures.last().expect("a survivor was measured");
                [m.deviation.value, m.cap_share.value, -m.decisive.value]
            })
        })
        .collect();
    for (i, l) in live.iter_mut().enumerate() {
        let Some(p) = points[i] else { continue };
        let dominated = points
            .iter()
            .flatten()
            .any(|q| q.iter().zip(&p).all(|(a, b)| a <= b) && q.iter().zip(&p).any(|(a, b)| a < b));
        l.result.pareto = !dominated;
    }
}

/// Runs the search; writes design.json, ranking.csv and design.md in `out`.
pub fn run(source: &dyn GameSource, o: &DesignOptions) -> Result<Design> {
    let space = &o.space;
    let variants = space.variants()?;
    let mut live = Vec::with_capacity(variants.len());
    for v in variants {
        let spec = Spec::parse(&v.spec)?;
        let game = source
            .game(&spec)
            .map_err(|e| anyhow!("variant {} ({}): {e}", v.index, v.spec))?;
        let variant = Variant {
            spec: game.spec(),
            ..v
        };
        live.push(Live {
            game,
            result: VariantResult {
                variant,
                measures: Vec::new(),
                status: "survived".into(),
                reason: String::new(),
                pareto: false,
            },
            games: Vec::new(),
            alive: true,
        });
    }
    let groups = groups_of(live[0].game.as_ref(), space.fairness.by);
    for l in &live {
        if groups_of(l.game.as_ref(), space.fairness.by).len() != groups.len() {
            bail!(
                "variant {} ({}) has a different number of {}: search one player count at a time",
                l.result.variant.index,
                l.result.variant.spec,
                if space.fairness.by == By::Sides {
                    "sides"
                } else {
                    "seats"
                }
            );
        }
    }
    if groups.len() < 2 {
        bail!(
            "{} has one side only: there is nothing to balance",
            live[0].result.variant.spec
        );
    }
    for (i, s) in space.stages.iter().enumerate() {
        let k = i + 1;
        if let Some(a) = &s.agent {
            for l in &live {
                l.game.check_agents(std::slice::from_ref(a))?;
            }
        }
        if let Some(p) = &s.population {
            if space.fairness.by == By::Seats && groups.len() != live[0].game.sides().len() {
                bail!("stage {k}: a population stage measures sides; set fairness.by = \"sides\"");
            }
            live[0].game.check_agents(p)?;
        }
    }
    let _lock = crate::balance::prepare_out(&o.out, "design.json", o.force || o.resume)?;
    if o.out.join("design.json").exists() && o.force {
        for i in 1..=space.stages.len() {
            let d = o.out.join(format!("stage-{i}"));
            if d.is_dir() && !d.is_symlink() {
                std::fs::remove_dir_all(&d)
                    .with_context(|| format!("cannot remove {}", d.display()))?;
            }
        }
    }
    let kept = o.out.join("space.toml");
    if o.resume && kept.exists() {
        let before = crate::fsutil::read_text(&kept, 1 << 24)?;
        if before != o.space_text {
            bail!(
                "{} holds a search of another space (space.toml differs): use --force to replace it, or another --out",
                o.out.display()
            );
        }
    }
    crate::fsutil::write_atomic(&kept, &o.space_text)?;
    let pool = crate::arena::pool(o.threads).map_err(anyhow::Error::msg)?;
    let mut names: Vec<String> = Vec::new();
    for (i, s) in space.stages.iter().enumerate() {
        let k = i + 1;
        if !live.iter().any(|l| l.alive) {
            break;
        }
        match (&s.agent, &s.population) {
            (Some(a), _) => agent_stage(k, s, a, &mut live, (&groups, &mut names), o, &pool)?,
            (None, Some(p)) => population_stage(k, s, p, &mut live, o)?,
            (None, None) => unreachable!("checked when read"),
        }
        if let Some(keep) = s.keep {
            keep_best(&mut live, keep, k);
        }
    }
    mark_pareto(&mut live);
    let last = space.stages.len();
    let recommended = live
        .iter()
        .filter(|l| l.alive)
        .filter_map(|l| {
            let m = l.result.measures.last()?;
            (m.stage == last && m.shown_fair && m.shown_quality).then_some((l, m.deviation.value))
        })
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(l, _)| l.result.variant.index);
    if let Some(r) = recommended {
        live[r].result.status = "recommended".into();
    }
    let variants: Vec<VariantResult> = live.into_iter().map(|l| l.result).collect();
    let verdict = verdict(&variants, recommended, space);
    let design = Design {
        game: space.game.clone(),
        seed: o.seed,
        command: o.command.clone(),
        by: space.fairness.by,
        tolerance: space.stages[space.stages.len() - 1].tolerance(&space.fairness),
        variants,
        recommended,
        verdict,
    };
    let json = serde_json::to_string_pretty(&design)? + "\n";
    crate::fsutil::write_atomic(&o.out.join("ranking.csv"), design.to_csv())?;
    crate::fsutil::write_atomic(&o.out.join("design.md"), design.to_markdown())?;
    crate::fsutil::write_atomic(&o.out.join("design.json"), json)?;
    Ok(design)
}

fn rates_text(m: &Measure) -> String {
    m.groups
        .iter()
        .map(|g| {
            format!(
                "{} {:.3} [{:.3}, {:.3}]",
                g.name, g.rate.value, g.rate.low, g.rate.high
            )
        })
        .collect::<Vec<_>>()
        .join(", ")
}

fn verdict(variants: &[VariantResult], recommended: Option<usize>, space: &Space) -> String {
    let last = space.stages.len();
    let tol = space.stages[last - 1].tolerance(&space.fairness);
    let how = |m: &Measure| match &space.stages[m.stage - 1] {
        Stage { agent: Some(a), .. } => format!("{a} in every seat, {} games", m.games),
        Stage {
            population: Some(p),
            ..
        } => format!(
            "the meta-game of {}, {} games a cell",
            p.join(", "),
            m.games
        ),
        _ => String::new(),
    };
    if let Some(r) = recommended {
        let v = &variants[r];
        let m = v.measures.last().expect("measured");
        return format!(
            "play {}: {} (fair {:.3} ± {tol}) under {}",
            v.variant.spec,
            rates_text(m),
            m.fair,
            how(m)
        );
    }
    // The closest variant of the last stage, else of any stage.
    fn closest_of<'a>(pool: impl Iterator<Item = &'a VariantResult>) -> Option<&'a VariantResult> {
        let distance = |v: &VariantResult| {
            v.measures
                .last()
                .map_or(f64::INFINITY, |m| m.deviation.value)
        };
        pool.min_by(|a, b| distance(a).total_cmp(&distance(b)))
    }
    let closest = closest_of(
        variants
            .iter()
            .filter(|v| v.measures.last().is_some_and(|m| m.stage == last)),
    )
    .or_else(|| closest_of(variants.iter()));
    match closest.and_then(|v| v.measures.last().map(|m| (v, m))) {
        Some((v, m)) => format!(
            "none within tolerance (± {tol}): the closest, {}, is {:.3} [{:.3}, {:.3}] from fair ({}) under {}{}",
            v.variant.spec,
            m.deviation.value,
            m.deviation.low,
            m.deviation.high,
            rates_text(m),
            how(m),
            if m.deviation.low <= tol && v.status != "dropped" {
                "; undecided, not shown unfair: its interval reaches the tolerance, and more games would settle it"
            } else {
                ""
            }
        ),
        None => format!("none within tolerance (± {tol}): no variant was measured"),
    }
}

impl Design {
    /// `ranking.csv`: every variant, closest to fair first, with its last measure.
    pub fn to_csv(&self) -> String {
        let mut w = csv::Writer::from_writer(Vec::new());
        let _ = w.write_record([
            "rank",
            "variant",
            "spec",
            "status",
            "stage",
            "games",
            "deviation",
            "deviation_low",
            "deviation_high",
            "rates",
            "cap_share",
            "decisive",
            "turns",
            "pareto",
            "reason",
        ]);
        for (rank, v) in self.ranked().iter().enumerate() {
            let m = v.measures.last();
            let f = |x: Option<f64>| x.map_or(String::new(), |x| format!("{x:.4}"));
            let _ = w.write_record([
                (rank + 1).to_string(),
                v.variant.index.to_string(),
                v.variant.spec.clone(),
                v.status.clone(),
                m.map_or(String::new(), |m| m.stage.to_string()),
                m.map_or(String::new(), |m| m.games.to_string()),
                f(m.map(|m| m.deviation.value)),
                f(m.map(|m| m.deviation.low)),
                f(m.map(|m| m.deviation.high)),
                m.map_or(String::new(), rates_text),
                f(m.map(|m| m.cap_share.value)),
                f(m.map(|m| m.decisive.value)),
                f(m.map(|m| m.turns.value)),
                v.pareto.to_string(),
                v.reason.clone(),
            ]);
        }
        String::from_utf8(w.into_inner().unwrap_or_default()).unwrap_or_default()
    }

    /// The variants by how far they got (last stage first), then closest to fair.
    pub fn ranked(&self) -> Vec<&VariantResult> {
        let mut v: Vec<&VariantResult> = self.variants.iter().collect();
        let key = |v: &VariantResult| {
            let m = v.measures.last();
            (
                v.status != "recommended",
                v.status == "dropped",
                std::cmp::Reverse(m.map_or(0, |m| m.stage)),
                m.map_or(f64::INFINITY, |m| m.deviation.value),
            )
        };
        v.sort_by(|a, b| {
            let (ka, kb) = (key(a), key(b));
            (ka.0, ka.1, ka.2)
                .cmp(&(kb.0, kb.1, kb.2))
                .then(ka.3.total_cmp(&kb.3))
                .then(a.variant.index.cmp(&b.variant.index))
        });
        v
    }

    /// `design.md`: the verdict, then the ranked table.
    pub fn to_markdown(&self) -> String {
        let mut s = format!(
            "# Variant search: {}\n\n**{}**\n\n",
            self.game, self.verdict
        );
        s += &format!(
            "Fair means every {} within ± {} of the fair share (the mean of their rates). Seed {}.\n\n",
            if self.by == By::Sides { "side" } else { "seat" },
            self.tolerance,
            self.seed
        );
        s += "| rank | variant | status | stage | games | from fair | rates | cap share | decisive | turns | Pareto | why dropped |\n";
        s += "|---:|---|---|---:|---:|---|---|---:|---:|---:|:-:|---|\n";
        for (rank, v) in self.ranked().iter().enumerate() {
            let (stage, games, dev, rates, cap, dec, turns) = match v.measures.last() {
                Some(m) => (
                    m.stage.to_string(),
                    m.games.to_string(),
                    format!(
                        "{:.3} [{:.3}, {:.3}]",
                        m.deviation.value, m.deviation.low, m.deviation.high
                    ),
                    rates_text(m),
                    format!("{:.3}", m.cap_share.value),
                    format!("{:.3}", m.decisive.value),
                    format!("{:.1}", m.turns.value),
                ),
                None => Default::default(),
            };
            s += &format!(
                "| {} | `{}` | {} | {stage} | {games} | {dev} | {rates} | {cap} | {dec} | {turns} | {} | {} |\n",
                rank + 1,
                v.variant.spec,
                v.status,
                if v.pareto { "yes" } else { "" },
                v.reason.replace('|', "/")
            );
        }
        s += &format!("\nCommand: `{}`\n", self.command);
        s
    }
}

//! Strength against thinking budget: each search agent at doubling budgets per
//! decision (milliseconds, or iterations for reproducible runs), rated by
//! Bradley–Terry in Elo with random play anchored at 0.
//!
//! The schedule is a ladder, not a round robin, so it grows linearly with the
//! number of entrants: every entrant meets random play, the same agent at the
//! next budget, and every other agent at the same budget. Each meeting is
//! `games` games in pairs on one seed with the seats swapped, so the deal and
//! the seat advantage cancel within a pair. The ratings come from all the
//! meetings at once, with percentile bootstrap intervals over games in which
//! the anchor is re-applied to every resample.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::io::{Seek, SeekFrom, Write as _};
use std::path::Path;
use std::sync::Mutex;

use anyhow::{Context, Result, bail};
use rayon::prelude::*;

use crate::agents::Agent;
use crate::agents::registry::AgentSpec;
use crate::arena::play;
use crate::game::Game;
use crate::report::plots::SweepPoint;
use crate::rng::game_seed;
use crate::stats::bootstrap::{Interval, bootstrap_counted};
use crate::stats::bradley_terry::{self, PairGame};

/// Agent kinds that take a thinking budget.
const SEARCH_KINDS: &[&str] = &["mcts", "pimc", "ismcts"];

/// What a budget counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BudgetUnit {
    /// Wall-clock milliseconds per decision (`time_ms`).
    Millis,
    /// Search iterations per decision (`iterations`): machine-independent.
    Iterations,
    /// Milliseconds of the searching thread's CPU per decision (`cpu_ms`):
    /// equal thinking for every entrant on a loaded machine.
    CpuMillis,
}

impl BudgetUnit {
    fn suffix(self) -> &'static str {
        match self {
            BudgetUnit::Millis => "ms",
            BudgetUnit::Iterations => "it",
            BudgetUnit::CpuMillis => "cpu_ms",
        }
    }
}

/// One rated player: an agent, at a budget when it searches.
#[derive(Clone, Debug)]
pub struct Entrant {
    /// The agent as given (before the budget was set).
    pub agent: String,
    /// Its budget, or `None` for agents that do not search (random, greedy).
    pub budget: Option<u64>,
    /// The resolved spec, budget included; its label names the entrant.
    pub spec: AgentSpec,
}

/// A ladder to play.
#[derive(Clone, Debug)]
pub struct LadderPlan {
    /// Entrants; index 0 is random play, the anchor.
    pub entrants: Vec<Entrant>,
    /// Meetings as pairs of entrant indices.
    pub meetings: Vec<(usize, usize)>,
    /// What the budgets count.
    pub unit: BudgetUnit,
}

/// The most games a ladder meeting plays (`ladder --games`, `balance
/// --ladder-games`): its pairs are planned up front.
pub const MAX_MEETING_GAMES: u64 = 1_000_000;

/// Games per ladder meeting as typed (`text`), from `least` (0: no ladder,
/// where a command allows it) to [`MAX_MEETING_GAMES`].
pub fn check_meeting_games(text: &str, least: u64) -> Result<u64, String> {
    match text.trim().parse::<u64>() {
        Ok(n) if (least..=MAX_MEETING_GAMES).contains(&n) => Ok(n),
        _ => Err(format!(
            "'{text}' is not a number of games a ladder meeting from {least} to {MAX_MEETING_GAMES}"
        )),
    }
}

/// Builds the entrants and the schedule. `agents` are agent specs; random
/// play is added as the anchor if missing. Budgets must be positive.
pub fn plan(agents: &[String], budgets: &[u64], unit: BudgetUnit) -> Result<LadderPlan> {
    if budgets.is_empty() || budgets.contains(&0) {
        bail!("ladder budgets must be a list of positive numbers, e.g. 10,20,40");
    }
    let mut sorted = budgets.to_vec();
    sorted.sort_unstable();
    sorted.dedup();
    let mut entrants = vec![Entrant {
        agent: "random".into(),
        budget: None,
        spec: AgentSpec::parse("random")?,
    }];
    // Rows of the ladder: per searching agent, its entrant index at each budget.
    let mut rows: Vec<Vec<usize>> = Vec::new();
    let mut fixed: Vec<usize> = Vec::new();
    for text in agents {
        let base = AgentSpec::parse(text)?;
        if base.spec.name == "random" {
            continue;
        }
        if !SEARCH_KINDS.contains(&base.spec.name.as_str()) {
            fixed.push(entrants.len());
            entrants.push(Entrant {
                agent: base.label.clone(),
                budget: None,
                spec: base,
            });
            continue;
        }
        let mut row = Vec::new();
        for &b in &sorted {
            let mut spec = base.clone();
            match unit {
                BudgetUnit::Millis => spec.spec.params.set("time_ms", &b.to_string()),
                BudgetUnit::Iterations => {
                    spec.spec.params.set("iterations", &b.to_string());
                    spec.spec.params.set("time_ms", "0");
                }
                BudgetUnit::CpuMillis => {
                    spec.spec.params.set("cpu_ms", &b.to_string());
                    spec.spec.params.set("time_ms", "0");
                }
            }
            spec.label = format!("{}@{b}{}", base.label, unit.suffix());
            // Check the budget is in range for the kind.
            spec.check()?;
            row.push(entrants.len());
            entrants.push(Entrant {
                agent: base.label.clone(),
                budget: Some(b),
                spec,
            });
        }
        rows.push(row);
    }
    if entrants.len() < 2 {
        bail!("a ladder needs at least one agent besides random");
    }
    let mut meetings = Vec::new();
    for i in 1..entrants.len() {
        meetings.push((i, 0));
    }
    for row in &rows {
        for w in row.windows(2) {
            meetings.push((w[1], w[0]));
        }
    }
    for (k, _) in sorted.iter().enumerate() {
        for a in 0..rows.len() {
            for b in a + 1..rows.len() {
                meetings.push((rows[a][k], rows[b][k]));
            }
        }
    }
    for (x, &f) in fixed.iter().enumerate() {
        for &g in &fixed[x + 1..] {
            meetings.push((f, g));
        }
        // Non-searching agents meet every searcher at its smallest budget.
        for row in &rows {
            meetings.push((row[0], f));
        }
    }
    Ok(LadderPlan {
        entrants,
        meetings,
        unit,
    })
}

/// The result of one game of a meeting.
#[derive(Clone, Copy, Debug)]
struct Played {
    game: PairGame,
    /// Thinking time and decisions of each side (a, b).
    think_us: [u64; 2],
    decisions: [u64; 2],
}

/// One entrant's rating and cost.
#[derive(Clone, Debug)]
pub struct Rung {
    /// Its entry.
    pub entrant: Entrant,
    /// Games played.
    pub games: u64,
    /// Points scored (win 1, draw ½).
    pub points: f64,
    /// Mean thinking time per decision, in milliseconds of one core.
    pub cpu_ms: f64,
    /// Elo with random play at 0, and its 95 % bootstrap interval.
    pub elo: Interval,
}

/// Everything a ladder produced.
#[derive(Clone, Debug)]
pub struct LadderResult {
    /// Per entrant, in entrant order.
    pub rungs: Vec<Rung>,
    /// Per meeting: (a, b, games, a's points).
    pub meetings: Vec<(usize, usize, u64, f64)>,
}

/// Plays one game with entrant `seating[s]` in seat `s`; a game that panics or
/// faults counts as recorded by the runner (a forfeit), a failed game as a draw.
fn play_one<G: Game>(
    game: &G,
    plan: &LadderPlan,
    a: usize,
    b: usize,
    a_seat: usize,
    seed: u64,
) -> Played {
    let seating = if a_seat == 0 { [a, b] } else { [b, a] };
    let mut agents: Vec<Box<dyn Agent<G>>> = seating
        .iter()
        .map(|&i| {
            plan.entrants[i]
                .spec
                .build::<G>()
                .unwrap_or_else(|e| unreachable!("entrants are validated before playing: {e}"))
        })
        .collect();
    let played = play::contained(|| {
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            play::play_game(game, &mut agents, seed, None, &mut |_, _, _| {})
        }))
    });
    let b_seat = 1 - a_seat;
    match played {
        Ok(r) => {
            let score_a = if r.truncated {
                0.5
            } else {
                r.seats[a_seat].outcome.points()
            };
            Played {
                game: PairGame { a, b, score_a },
                think_us: [r.seats[a_seat].think_us, r.seats[b_seat].think_us],
                decisions: [
                    u64::from(r.seats[a_seat].decisions),
                    u64::from(r.seats[b_seat].decisions),
                ],
            }
        }
        Err(_) => Played {
            game: PairGame { a, b, score_a: 0.5 },
            think_us: [0; 2],
            decisions: [0; 2],
        },
    }
}

/// The ladder's `pairs.csv`: one line per finished pair of games, appended
/// as pairs finish, so a ladder that is stopped keeps what it played and
/// `ladder --resume` plays only the rest. Seeds depend on the meeting and
/// the pair alone, so a resumed ladder rates as if it had never stopped.
pub struct Journal {
    done: HashMap<(usize, u64), [Played; 2]>,
    sink: Mutex<std::fs::File>,
    path: std::path::PathBuf,
}

const JOURNAL_HEADER: &str = "meeting,pair,score_a_0,score_a_1,think_us_a_0,think_us_b_0,decisions_a_0,decisions_b_0,think_us_a_1,think_us_b_1,decisions_a_1,decisions_b_1\n";

/// Largest journal read back (a line is under 100 bytes).
const JOURNAL_MAX: u64 = 256 << 20;

impl Journal {
    /// Starts an empty journal at `path`, replacing any earlier one.
    pub fn create(path: &Path) -> Result<Self> {
        let mut file = crate::fsutil::create(path)
            .with_context(|| format!("cannot create {}", path.display()))?;
        file.write_all(JOURNAL_HEADER.as_bytes())?;
        Ok(Journal {
            done: HashMap::new(),
            sink: Mutex::new(file),
            path: path.to_path_buf(),
        })
    }

    /// Reads the pairs an interrupted ladder wrote to `path`, checked against
    /// `plan` and `pairs` per meeting; a torn last line (the interruption's)
    /// is dropped, and new pairs are appended after the kept ones.
    pub fn resume(path: &Path, plan: &LadderPlan, pairs: u64) -> Result<Self> {
        let text = crate::fsutil::read_text(path, JOURNAL_MAX)
            .with_context(|| format!("cannot read {} to resume", path.display()))?;
        let kept = &text[..text.rfind('\n').map_or(0, |i| i + 1)];
        let Some(body) = kept.strip_prefix(JOURNAL_HEADER) else {
            bail!(
                "{} is not a ladder's pairs.csv (its first line must be the header {})",
                path.display(),
                JOURNAL_HEADER.trim_end()
            );
        };
        let mut done = HashMap::new();
        for (i, line) in body.lines().enumerate() {
            let bad = || {
                anyhow::anyhow!(
                    "{} line {}: expected 12 numbers (meeting < {}, pair < {pairs}, scores 0, 0.5 or 1), got '{line}'",
                    path.display(),
                    i + 2,
                    plan.meetings.len()
                )
            };
            let f: Vec<&str> = line.split(',').collect();
            if f.len() != 12 {
                return Err(bad());
            }
            let int = |k: usize| f[k].parse::<u64>().map_err(|_| bad());
            let score = |k: usize| match f[k] {
                "0" => Ok(0.0),
                "0.5" => Ok(0.5),
                "1" => Ok(1.0),
                _ => Err(bad()),
            };
            let (m, p) = (int(0)? as usize, int(1)?);
            let Some(&(a, b)) = plan.meetings.get(m) else {
                return Err(bad());
            };
            if p >= pairs {
                return Err(bad());
            }
            let mut pair = [Played {
                game: PairGame { a, b, score_a: 0.0 },
                think_us: [0; 2],
                decisions: [0; 2],
            }; 2];
            for (g, played) in pair.iter_mut().enumerate() {
                played.game.score_a = score(2 + g)?;
                played.think_us = [int(4 + 4 * g)?, int(5 + 4 * g)?];
                played.decisions = [int(6 + 4 * g)?, int(7 + 4 * g)?];
            }
            done.insert((m, p), pair);
        }
        crate::fsutil::write_atomic(path, kept)
            .with_context(|| format!("cannot rewrite {}", path.display()))?;
        let mut file = crate::fsutil::open_existing(path)
            .with_context(|| format!("cannot open {}", path.display()))?;
        file.seek(SeekFrom::End(0))?;
        Ok(Journal {
            done,
            sink: Mutex::new(file),
            path: path.to_path_buf(),
        })
    }

    /// Pairs already played.
    pub fn pairs_done(&self) -> usize {
        self.done.len()
    }

    fn record(&self, m: usize, p: u64, pair: &[Played; 2]) -> std::io::Result<()> {
        let line = Self::line(m, p, pair);
        let mut file = self.sink.lock().unwrap_or_else(|e| e.into_inner());
        file.write_all(line.as_bytes())
    }

    /// Rewrites the journal with every pair in `jobs` order once all are
    /// played: pairs are appended as threads finish them, and the file kept
    /// must not depend on that timing.
    fn settle(&self, jobs: &[(usize, u64)], played: &[[Played; 2]]) -> std::io::Result<()> {
        let _file = self.sink.lock().unwrap_or_else(|e| e.into_inner());
        crate::fsutil::write_atomic_with(&self.path, |w| {
            w.write_all(JOURNAL_HEADER.as_bytes())?;
            for (&(m, p), pair) in jobs.iter().zip(played) {
                w.write_all(Self::line(m, p, pair).as_bytes())?;
            }
            Ok(())
        })
    }

    /// The journal line of pair `p` of meeting `m`.
    fn line(m: usize, p: u64, pair: &[Played; 2]) -> String {
        let [x, y] = pair;
        format!(
            "{m},{p},{},{},{},{},{},{},{},{},{},{}\n",
            x.game.score_a,
            y.game.score_a,
            x.think_us[0],
            x.think_us[1],
            x.decisions[0],
            x.decisions[1],
            y.think_us[0],
            y.think_us[1],
            y.decisions[0],
            y.decisions[1]
        )
    }
}

/// Pair `p` of meeting `m`: one game in each seating on one seed.
fn play_pair<G: Game>(game: &G, plan: &LadderPlan, m: usize, p: u64, seed: u64) -> [Played; 2] {
    let (a, b) = plan.meetings[m];
    let s = game_seed(game_seed(seed, m as u64), p);
    [
        play_one(game, plan, a, b, 0, s),
        play_one(game, plan, a, b, 1, s),
    ]
}

/// Plays shard `k` of `n` (1-based) of the ladder's pairs into `journal`: the
/// pairs whose place in [`play_ladder`]'s order is `k − 1` modulo `n`. The
/// journals of all shards, joined, let `play_ladder` rate without playing.
pub fn play_share<G: Game>(
    game: &G,
    plan: &LadderPlan,
    games: u64,
    seed: u64,
    threads: usize,
    journal: &Journal,
    (k, n): (u64, u64),
) -> Result<()> {
    for e in &plan.entrants {
        e.spec.build::<G>()?;
        e.spec.check_game(game)?;
    }
    let pool = crate::arena::pool(threads).map_err(anyhow::Error::msg)?;
    let pairs = games.div_ceil(2).max(1);
    let jobs: Vec<(usize, u64)> = (0..plan.meetings.len())
        .flat_map(|m| (0..pairs).map(move |p| (m, p)))
        .skip((k - 1) as usize)
        .step_by(n as usize)
        .collect();
    let played: Vec<[Played; 2]> = pool.install(|| {
        jobs.par_iter()
            .map(|&(m, p)| {
                let pair = play_pair(game, plan, m, p, seed);
                journal
                    .record(m, p, &pair)
                    .context("cannot append to the ladder's pairs")?;
                Ok(pair)
            })
            .collect::<Result<_>>()
    })?;
    journal
        .settle(&jobs, &played)
        .context("cannot rewrite the ladder's pairs in order")
}

/// Plays the ladder: `games` games per meeting (rounded up to pairs), on
/// `threads` threads (0: one per core); game seeds derive from `seed`, the
/// meeting and the pair, so with iteration budgets the result is the same
/// for any thread count. With a `journal`, its pairs are taken as played
/// and every new pair is appended to it. With `progress`, a bar of pairs on
/// a terminal.
#[allow(clippy::too_many_arguments)]
pub fn play_ladder<G: Game>(
    game: &G,
    plan: &LadderPlan,
    games: u64,
    seed: u64,
    threads: usize,
    resamples: usize,
    journal: Option<&Journal>,
    progress: bool,
) -> Result<LadderResult> {
    if game.num_players() != 2 {
        bail!(
            "ladder needs a two-player game; {} has {} players",
            game.spec(),
            game.num_players()
        );
    }
    for e in &plan.entrants {
        e.spec.build::<G>()?;
        e.spec.check_game(game)?;
    }
    let pool = crate::arena::pool(threads).map_err(anyhow::Error::msg)?;
    let pairs = games.div_ceil(2).max(1);
    let jobs: Vec<(usize, u64)> = (0..plan.meetings.len())
        .flat_map(|m| (0..pairs).map(move |p| (m, p)))
        .collect();
    let bar = crate::arena::progress::Progress::of(
        jobs.len() as u64,
        progress,
        "pair",
        "ladder".to_string(),
    );
    let played: Vec<[Played; 2]> = pool.install(|| {
        jobs.par_iter()
            .map(|&(m, p)| {
                if let Some(pair) = journal.and_then(|j| j.done.get(&(m, p))) {
                    bar.inc(1);
                    return Ok(*pair);
                }
                let pair = play_pair(game, plan, m, p, seed);
                if let Some(j) = journal {
                    j.record(m, p, &pair)
                        .context("cannot append to pairs.csv")?;
                }
                bar.inc(1);
                Ok(pair)
            })
            .collect::<Result<_>>()
    })?;
    if let Some(j) = journal {
        j.settle(&jobs, &played)
            .context("cannot rewrite pairs.csv in order")?;
    }
    bar.finish_and_clear();
    let n = plan.entrants.len();
    let results: Vec<PairGame> = played.iter().flatten().map(|p| p.game).collect();
    let mut meetings: Vec<(usize, usize, u64, f64)> =
        plan.meetings.iter().map(|&(a, b)| (a, b, 0, 0.0)).collect();
    let mut played_games = vec![0u64; n];
    let mut scored = vec![0.0f64; n];
    let mut think = vec![0u64; n];
    let mut decisions = vec![0u64; n];
    for (&(m, _), pair) in jobs.iter().zip(&played) {
        for p in pair {
            let g = p.game;
            meetings[m].2 += 1;
            meetings[m].3 += g.score_a;
            for (k, i) in [g.a, g.b].into_iter().enumerate() {
                played_games[i] += 1;
                scored[i] += if k == 0 { g.score_a } else { 1.0 - g.score_a };
                think[i] += p.think_us[k];
                decisions[i] += p.decisions[k];
            }
        }
    }
    let elo = anchored_elo(n, &results, resamples, seed);
    let rungs = plan
        .entrants
        .iter()
        .enumerate()
        .map(|(i, e)| Rung {
            entrant: e.clone(),
            games: played_games[i],
            points: scored[i],
            cpu_ms: if decisions[i] == 0 {
                0.0
            } else {
                think[i] as f64 / decisions[i] as f64 / 1000.0
            },
            elo: elo[i],
        })
        .collect();
    Ok(LadderResult { rungs, meetings })
}

/// Bradley–Terry Elo with entrant 0 at 0, in the fit and in every resample.
pub fn anchored_elo(n: usize, games: &[PairGame], resamples: usize, seed: u64) -> Vec<Interval> {
    let fit = |sample: &[(&PairGame, f64)]| {
        let e = bradley_terry::elo_counted(n, sample, 1.0);
        e.iter().map(|v| v - e[0]).collect::<Vec<f64>>()
    };
    let once: Vec<(&PairGame, f64)> = games.iter().map(|g| (g, 1.0)).collect();
    let point = fit(&once);
    bootstrap_counted(
        &point,
        games,
        bradley_terry::same_game,
        resamples,
        seed,
        fit,
    )
}

impl LadderResult {
    /// `ladder.csv`: one row per entrant.
    pub fn to_csv(&self, unit: BudgetUnit) -> String {
        let mut out = String::from(
            "entrant,agent,budget,budget_unit,games,points,score,cpu_ms_per_decision,elo,elo_low,elo_high\n",
        );
        for r in &self.rungs {
            let budget = r.entrant.budget.map(|b| b.to_string()).unwrap_or_default();
            let _ = writeln!(
                out,
                "{},{},{},{},{},{},{:.4},{:.4},{:.1},{:.1},{:.1}",
                csv_field(&r.entrant.spec.label),
                csv_field(&r.entrant.agent),
                budget,
                if r.entrant.budget.is_some() {
                    unit.suffix()
                } else {
                    ""
                },
                r.games,
                r.points,
                if r.games == 0 {
                    0.0
                } else {
                    r.points / r.games as f64
                },
                r.cpu_ms,
                r.elo.estimate,
                r.elo.low,
                r.elo.high
            );
        }
        out
    }

    /// `meetings.csv`: one row per meeting.
    pub fn meetings_csv(&self, plan: &LadderPlan) -> String {
        let mut out = String::from("a,b,games,a_points,a_score\n");
        for &(a, b, g, p) in &self.meetings {
            let _ = writeln!(
                out,
                "{},{},{g},{p},{:.4}",
                csv_field(&plan.entrants[a].spec.label),
                csv_field(&plan.entrants[b].spec.label),
                if g == 0 { 0.0 } else { p / g as f64 }
            );
        }
        out
    }

    /// Elo against mean CPU per decision (log₂ scale), one line per agent
    /// with 95 % error bars; agents that do not search are single points.
    pub fn plot(&self, path: &Path, title: &str) -> std::io::Result<()> {
        let mut series: Vec<(String, Vec<SweepPoint>)> = Vec::new();
        for r in &self.rungs {
            let point = SweepPoint {
                x: r.cpu_ms.max(1e-3).log2(),
                rate: r.elo.estimate,
                low: r.elo.low,
                high: r.elo.high,
            };
            match series.iter_mut().find(|s| s.0 == r.entrant.agent) {
                Some(s) => s.1.push(point),
                None => series.push((r.entrant.agent.clone(), vec![point])),
            }
        }
        elo_chart(path, title, &series)
    }
}

/// The chart of [`LadderResult::plot`], in the conventions of
/// [`crate::report::plots`]: plotters' SVG backend, 720 × 420, Okabe–Ito colours.
fn elo_chart(
    path: &Path,
    title: &str,
    series: &[(String, Vec<SweepPoint>)],
) -> std::io::Result<()> {
    use crate::report::plots::COLOURS;
    use plotters::prelude::*;
    let err = |e: &dyn std::fmt::Display| std::io::Error::other(format!("cannot draw chart: {e}"));
    let pts = || series.iter().flat_map(|s| s.1.iter());
    let span = |lo: f64, hi: f64| {
        if !lo.is_finite() {
            (0.0, 1.0)
        } else if hi - lo < 1e-9 {
            (lo - 1.0, hi + 1.0)
        } else {
            let pad = (hi - lo) * 0.06;
            (lo - pad, hi + pad)
        }
    };
    let (x0, x1) = span(
        pts().map(|p| p.x).fold(f64::INFINITY, f64::min),
        pts().map(|p| p.x).fold(f64::NEG_INFINITY, f64::max),
    );
    let (y0, y1) = span(
        pts().map(|p| p.low).fold(0.0, f64::min),
        pts().map(|p| p.high).fold(0.0, f64::max),
    );
    crate::report::plots::svg_file(path, (720, 420), |root| {
        root.fill(&WHITE).map_err(|e| err(&e))?;
        let mut chart = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 22))
            .margin(12)
            .x_label_area_size(44)
            .y_label_area_size(56)
            .build_cartesian_2d(x0..x1, y0..y1)
            .map_err(|e| err(&e))?;
        chart
            .configure_mesh()
            .max_light_lines(1)
            .x_label_formatter(&|x| {
                let ms = x.exp2();
                if ms >= 10.0 {
                    format!("{ms:.0}")
                } else {
                    format!("{ms:.2}")
                }
            })
            .x_desc("CPU per decision, ms (log scale)")
            .y_desc("Elo (random = 0)")
            .draw()
            .map_err(|e| err(&e))?;
        for (i, (label, points)) in series.iter().enumerate() {
            let c = COLOURS[i % COLOURS.len()];
            let mut points = points.clone();
            points.sort_by(|a, b| a.x.total_cmp(&b.x));
            chart
                .draw_series(LineSeries::new(
                    points.iter().map(|p| (p.x, p.rate)),
                    c.stroke_width(2),
                ))
                .map_err(|e| err(&e))?
                .label(label.clone())
                .legend(move |(x, y)| PathElement::new([(x, y), (x + 20, y)], c.stroke_width(2)));
            chart
                .draw_series(
                    points
                        .iter()
                        .map(|p| ErrorBar::new_vertical(p.x, p.low, p.rate, p.high, c, 10)),
                )
                .map_err(|e| err(&e))?;
            chart
                .draw_series(
                    points
                        .iter()
                        .map(|p| Circle::new((p.x, p.rate), 3, c.filled())),
                )
                .map_err(|e| err(&e))?;
        }
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .position(SeriesLabelPosition::UpperLeft)
            .draw()
            .map_err(|e| err(&e))?;
        root.present().map_err(|e| err(&e))
    })
}

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::tictactoe::TicTacToe;

    fn names(p: &LadderPlan, m: (usize, usize)) -> (String, String) {
        (
            p.entrants[m.0].spec.label.clone(),
            p.entrants[m.1].spec.label.clone(),
        )
    }

    #[test]
    fn plan_links_budgets_agents_and_the_anchor() {
        let agents = vec!["mcts".to_string(), "greedy".into(), "ismcts(c=1)".into()];
        let p = plan(&agents, &[20, 10], BudgetUnit::Iterations).unwrap();
        let labels: Vec<&str> = p.entrants.iter().map(|e| e.spec.label.as_str()).collect();
        assert_eq!(
            labels,
            [
                "random",
                "mcts@10it",
                "mcts@20it",
                "greedy",
                "ismcts(c=1)@10it",
                "ismcts(c=1)@20it"
            ]
        );
        let m: Vec<(String, String)> = p.meetings.iter().map(|&m| names(&p, m)).collect();
        let has = |a: &str, b: &str| m.iter().any(|(x, y)| x == a && y == b);
        assert!(has("mcts@20it", "mcts@10it"));
        assert!(has("mcts@10it", "ismcts(c=1)@10it"));
        assert!(has("greedy", "random"));
        assert!(has("mcts@10it", "greedy"));
        assert!(!has("mcts@20it", "ismcts(c=1)@10it"));
        assert_eq!(
            p.entrants[2]
                .spec
                .spec
                .params
                .iter()
                .find(|kv| kv.0 == "iterations"),
            Some(("iterations", "20"))
        );
    }

    #[test]
    fn bad_budgets_and_lone_random_are_errors() {
        let a = vec!["mcts".to_string()];
        assert!(plan(&a, &[], BudgetUnit::Millis).is_err());
        assert!(plan(&a, &[10, 0], BudgetUnit::Millis).is_err());
        assert!(plan(&["random".to_string()], &[10], BudgetUnit::Millis).is_err());
        assert!(plan(&["nonsense".to_string()], &[10], BudgetUnit::Millis).is_err());
    }

    #[test]
    fn more_iterations_rate_higher_and_random_is_zero() {
        let agents = vec!["mcts".to_string()];
        let p = plan(&agents, &[2, 200], BudgetUnit::Iterations).unwrap();
        let r = play_ladder(&TicTacToe, &p, 40, 1, 1, 50, None, false).unwrap();
        assert_eq!(r.rungs[0].elo.estimate, 0.0);
        let (lo, hi) = (&r.rungs[1], &r.rungs[2]);
        assert!(hi.elo.estimate > lo.elo.estimate + 50.0, "{r:?}");
        assert!(hi.elo.low > 0.0, "{r:?}");
        assert!(hi.cpu_ms > lo.cpu_ms);
        // Reproducible with iteration budgets, whatever the thread count.
        let again = play_ladder(&TicTacToe, &p, 40, 1, 2, 50, None, false).unwrap();
        assert_eq!(r.meetings, again.meetings);
        let csv = r.to_csv(p.unit);
        assert!(csv.starts_with("entrant,agent,budget"));
        assert_eq!(csv.lines().count(), 4);
    }
}

//! `boardlab metagame`: cross-play of a population of agents, and the value
//! of the meta-game between them.
//!
//! Self-play of one agent family measures "how balanced is the game when
//! every side plays like this program". Cross-play asks the designer's
//! question instead: every assignment of population members to the game's
//! sides (a *cell*) is played, on the same deals, and the sides' payoffs form
//! a matrix (two sides) or a tensor (more). With two sides the game between
//! the sides' choices of player is zero-sum, and its value, the first side's
//! score when each side picks its best mix of the available players, does
//! not depend on which AI is asked, only on which AIs are available
//! (`solve::solve_zero_sum`). With more sides, replicator dynamics from the
//! uniform mix stand in for it (`solve::replicator`).
//!
//! Each cell is an ordinary run with fixed seats (`RunOptions::fixed_seats`)
//! in `cells/<name>/`, all with the same master seed, so game `g` of every
//! cell is dealt from the same seed: resume, `--until` and `boardlab verify`
//! work on the cells as on any run.

pub mod calibrate;
pub mod page;
pub mod solve;

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, anyhow, bail};
use serde::{Deserialize, Serialize};

use crate::arena::RunOptions;
use crate::runtime::DynGame;

/// What a side scores in one game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Payoff {
    /// Win 1, draw ½, loss 0.
    Win,
    /// The game's return (chips in poker); the game must be constant-sum
    /// over the sides.
    Return,
}

impl Payoff {
    /// Parses `win` or `return`.
    pub fn parse(text: &str) -> Result<Payoff> {
        match text {
            "win" => Ok(Payoff::Win),
            "return" => Ok(Payoff::Return),
            other => bail!("unknown payoff {other:?}: expected win or return"),
        }
    }
}

/// How to play and solve a meta-game.
#[derive(Clone, Debug)]
pub struct MetagameOptions {
    /// The population, as agent specs; a member containing `{budget}` is
    /// played at each of `budgets`.
    pub agents: Vec<String>,
    /// Search budgets substituted for `{budget}`; empty: one meta-game.
    pub budgets: Vec<u64>,
    /// Games per cell (the cap with `until`).
    pub games: u64,
    /// Master seed, shared by every cell.
    pub seed: u64,
    /// Worker threads (0: one per core).
    pub threads: usize,
    /// Output directory.
    pub out: PathBuf,
    /// Replace earlier results.
    pub force: bool,
    /// Continue earlier results.
    pub resume: bool,
    /// Play each cell until its 95 % half-width is at most this.
    pub until: Option<f64>,
    /// What a side scores.
    pub payoff: Payoff,
    /// Bootstrap resamples for the value's interval.
    pub bootstrap: usize,
    /// Two consecutive budgets agree when the TOST shows their values within ± this.
    pub tolerance: f64,
    /// Progress on stderr.
    pub progress: bool,
    /// The command line, recorded in each cell's run.json.
    pub command: String,
    /// Play only the cells `i` with `i mod N = K − 1` (1-based `(K, N)`) and
    /// solve nothing: shards of one meta-game share its folder, and a last
    /// run with `resume` reads every finished cell and solves.
    pub shard: Option<(u64, u64)>,
    /// Calibrate every searching member to this many CPU milliseconds per
    /// decision before playing (`calibrate`); kept in `calibration.json`.
    pub match_cpu: Option<f64>,
    /// Self-play games per calibration trial.
    pub calibration_games: u64,
}

/// The command line's defaults, so that callers name only what they set.
impl Default for MetagameOptions {
    fn default() -> Self {
        MetagameOptions {
            agents: Vec::new(),
            budgets: Vec::new(),
            games: 200,
            seed: 1,
            threads: 0,
            out: PathBuf::new(),
            force: false,
            resume: false,
            until: None,
            payoff: Payoff::Win,
            bootstrap: 1000,
            tolerance: 0.03,
            progress: false,
            command: String::new(),
            shard: None,
            match_cpu: None,
            calibration_games: 4,
        }
    }
}

/// A side of the game: the seats that share its returns.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Side {
    /// Its index among the sides (order of first seat).
    pub side: usize,
    /// Its seats.
    pub seats: Vec<usize>,
    /// The role its seats hold in every game (`foxes`, `wolf`), from the
    /// games' role column up to a `:`; `side N` when the role varies or is empty.
    #[serde(default)]
    pub name: String,
}

/// The sides of a game, from `side` per seat, in order of their first seat.
pub fn sides_of(side_per_seat: &[u8]) -> Vec<Side> {
    let mut sides: Vec<(u8, Side)> = Vec::new();
    for (seat, &s) in side_per_seat.iter().enumerate() {
        match sides.iter_mut().find(|(v, _)| *v == s) {
            Some((_, side)) => side.seats.push(seat),
            None => {
                let side = sides.len();
                sides.push((
                    s,
                    Side {
                        side,
                        seats: vec![seat],
                        name: format!("side {side}"),
                    },
                ))
            }
        }
    }
    sides.into_iter().map(|(_, s)| s).collect()
}

/// One assignment of population members to sides.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cell {
    /// `members[s]`: the population member playing side `s`.
    pub members: Vec<usize>,
}

impl Cell {
    /// Every assignment, side 0 the most significant digit.
    pub fn all(members: usize, sides: usize) -> Vec<Cell> {
        let count = members.pow(sides as u32);
        (0..count)
            .map(|mut c| {
                let mut m = vec![0; sides];
                for s in (0..sides).rev() {
                    m[s] = c % members;
                    c /= members;
                }
                Cell { members: m }
            })
            .collect()
    }

    /// The cell's folder name, e.g. `cell-0-2`.
    pub fn name(&self) -> String {
        let digits: Vec<String> = self.members.iter().map(|m| m.to_string()).collect();
        format!("cell-{}", digits.join("-"))
    }

    /// The agent of each seat.
    pub fn lineup(&self, sides: &[Side], population: &[String]) -> Vec<String> {
        let seats: usize = sides.iter().map(|s| s.seats.len()).sum();
        let mut lineup = vec![String::new(); seats];
        for (s, side) in sides.iter().enumerate() {
            for &seat in &side.seats {
                lineup[seat] = population[self.members[s]].clone();
            }
        }
        lineup
    }
}

/// The most cells a meta-game may have (members ^ sides).
pub const MAX_CELLS: usize = 4096;

/// The payoffs of every game of every cell: `games[cell][game][side]`.
pub struct Played {
    /// Per cell, per game, per side.
    pub games: Vec<Vec<Vec<f64>>>,
    /// Each side's name ([`Side::name`]).
    pub names: Vec<String>,
}

/// A payoff with its 95 % interval.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Estimate {
    /// The estimate.
    pub value: f64,
    /// Lower end of the 95 % interval.
    pub ci_low: f64,
    /// Upper end of the 95 % interval.
    pub ci_high: f64,
}

/// One member's weight in a side's mix.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Weight {
    /// The member.
    pub agent: String,
    /// Its probability.
    pub weight: f64,
}

/// A side's best single member.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct BestSingle {
    /// The member.
    pub agent: String,
    /// What it guarantees its side against every member of the other side
    /// (its worst cell).
    pub guaranteed: f64,
    /// What it scores against the other side's equilibrium mix.
    pub against_equilibrium: f64,
}

/// A member playing every side itself.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct SelfPlay {
    /// The member.
    pub agent: String,
    /// Side 0's payoff in self-play, with its interval.
    #[serde(flatten)]
    pub side0: Estimate,
}

/// The solved meta-game, written as `metagame.json`.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Solution {
    /// The game spec.
    pub game: String,
    /// The population, as played.
    pub population: Vec<String>,
    /// What a side scores.
    pub payoff: Payoff,
    /// The sides and their seats.
    pub sides: Vec<Side>,
    /// Master seed.
    pub seed: u64,
    /// Fewest games in a cell.
    pub games_per_cell: u64,
    /// `nash` (two sides, linear programming) or `replicator` (more sides).
    pub solution: String,
    /// Side 0's payoff at the solution (the meta-game's value with two sides).
    pub value: f64,
    /// Lower end of the value's 95 % bootstrap interval.
    pub ci_low: f64,
    /// Upper end of the value's 95 % bootstrap interval.
    pub ci_high: f64,
    /// Each side's payoff at the solution, with bootstrap intervals.
    pub side_payoffs: Vec<Estimate>,
    /// Each side's payoff when every side mixes the members uniformly.
    pub uniform_payoffs: Vec<f64>,
    /// The payoff of a side when the sides are even (½ with win, the mean
    /// of a side's returns over the matrix's symmetric part otherwise: null).
    pub fair: Option<f64>,
    /// Each side's mix at the solution.
    pub support: Vec<Vec<Weight>>,
    /// Each side's best single member (two sides only).
    pub best_single: Vec<BestSingle>,
    /// Self-play of each member: side 0's payoff when it plays every side.
    pub self_play: Vec<SelfPlay>,
    /// How the bootstrap resampled: `deals` (one set of deal indices for
    /// every cell, as the cells share deals) or `cells` (each cell alone).
    pub bootstrap: String,
    /// Bootstrap resamples.
    pub bootstrap_samples: usize,
    /// How far the solution is from an equilibrium of the measured matrix
    /// (the most a side gains by deviating to one member).
    pub deviation_gain: f64,
}

fn sides_payoff(payoff: Payoff, sides: &[Side], outcome: &[String], ret: &[f64]) -> Vec<f64> {
    sides
        .iter()
        .map(|side| {
            let seat = side.seats[0];
            match payoff {
                Payoff::Win => match outcome[seat].as_str() {
                    "win" => 1.0,
                    "draw" => 0.5,
                    _ => 0.0,
                },
                Payoff::Return => ret[seat],
            }
        })
        .collect()
}

#[derive(Deserialize)]
struct Row {
    game_index: u64,
    seat: usize,
    role: String,
    outcome: String,
    #[serde(rename = "return")]
    ret: f64,
}

/// Reads one cell's games.csv into each game's side payoffs, in game order.
pub fn read_cell(dir: &Path, payoff: Payoff, sides: &[Side]) -> Result<Vec<Vec<f64>>> {
    let path = dir.join("games.csv");
    let mut reader = crate::fsutil::csv_reader(&path, crate::fsutil::MAX_CSV_BYTES)
        .with_context(|| format!("cannot read {}", path.display()))?;
    let seats: usize = sides.iter().map(|s| s.seats.len()).sum();
    let mut games = Vec::new();
    let (mut outcome, mut ret) = (vec![String::new(); seats], vec![0.0; seats]);
    let mut current: Option<(u64, usize)> = None;
    for row in reader.deserialize::<Row>() {
        let r = row.with_context(|| format!("malformed {}", path.display()))?;
        let (index, filled) = current.unwrap_or((r.game_index, 0));
        if r.game_index != index || r.seat != filled || r.seat >= seats {
            bail!(
                "{}: row of game {} seat {} out of order (expected game {index} seat {filled})",
                path.display(),
                r.game_index,
                r.seat
            );
        }
        outcome[r.seat] = r.outcome;
        ret[r.seat] = r.ret;
        if filled + 1 == seats {
            games.push(sides_payoff(payoff, sides, &outcome, &ret));
            current = Some((index + 1, 0));
        } else {
            current = Some((index, filled + 1));
        }
    }
    if current.is_some_and(|(_, filled)| filled != 0) {
        bail!("{}: the last game is incomplete", path.display());
    }
    Ok(games)
}

/// Plays every cell of one population (resuming what `resume` finds) and
/// reads back every game's side payoffs.
pub fn play(
    game: &dyn DynGame,
    sides: &[Side],
    population: &[String],
    dir: &Path,
    o: &MetagameOptions,
) -> Result<Played> {
    let cells = Cell::all(population.len(), sides.len());
    let mine = |i: usize| o.shard.is_none_or(|(k, n)| i as u64 % n == k - 1);
    let count = (0..cells.len()).filter(|&i| mine(i)).count() as u64;
    // One bar for every game of every cell, done ones included.
    let bar =
        crate::arena::progress::Progress::of(count * o.games, o.progress, "game", String::new());
    let mut games = Vec::with_capacity(cells.len());
    for (i, cell) in cells.iter().enumerate() {
        if !mine(i) {
            continue;
        }
        let cell_dir = dir.join("cells").join(cell.name());
        let lineup = cell.lineup(sides, population);
        let started = cell_dir.join("run.json").exists();
        let names: Vec<&str> = cell
            .members
            .iter()
            .map(|&m| population[m].as_str())
            .collect();
        bar.set_label(&format!(
            "cell {}/{}: {}",
            i + 1,
            cells.len(),
            names.join(" against ")
        ));
        // A finished cell is read as it stands: resuming it would replay
        // nothing, and a cell made by an earlier build stays usable.
        if o.resume && started && o.until.is_none() {
            let recorded = crate::arena::manifest::read(&cell_dir).map_err(|e| anyhow!(e))?;
            let id = &recorded.identity;
            if id.games == o.games && id.agents == lineup && id.seed == o.seed && id.fixed_seats {
                let done = read_cell(&cell_dir, o.payoff, sides)?;
                if done.len() as u64 == o.games {
                    bar.inc(o.games);
                    games.push(done);
                    continue;
                }
            }
        }
        let opts = RunOptions {
            games: o.games,
            seed: o.seed,
            threads: o.threads,
            out: Some(cell_dir.clone()),
            force: o.force,
            resume: o.resume && started,
            until: o.until,
            fixed_seats: true,
            progress_into: Some(bar.clone()),
            command: o.command.clone(),
            ..RunOptions::default()
        };
        game.run(&lineup, &opts)
            .map_err(|e| anyhow!("cell {}: {e}", cell.name()))?;
        let played = read_cell(&cell_dir, o.payoff, sides)?;
        // A cell that met --until early leaves its cap's rest unplayed.
        bar.inc(o.games.saturating_sub(played.len() as u64));
        games.push(played);
    }
    bar.finish_and_clear();
    if o.shard.is_some() {
        return Ok(Played {
            games,
            names: Vec::new(),
        });
    }
    let first = dir.join("cells").join(cells[0].name());
    Ok(Played {
        games,
        names: side_names(&first, sides)?,
    })
}

/// Each side's role when its first seat holds the same one (up to a `:`)
/// in every game of the cell in `dir`.
fn side_names(dir: &Path, sides: &[Side]) -> Result<Vec<String>> {
    let path = dir.join("games.csv");
    let mut reader = crate::fsutil::csv_reader(&path, crate::fsutil::MAX_CSV_BYTES)
        .with_context(|| format!("cannot read {}", path.display()))?;
    let mut names: Vec<Option<Option<String>>> = vec![None; sides.len()];
    for row in reader.deserialize::<Row>() {
        let r = row.with_context(|| format!("malformed {}", path.display()))?;
        let Some(s) = sides.iter().position(|s| s.seats[0] == r.seat) else {
            continue;
        };
        let role = r.role.split(':').next().unwrap_or("").to_string();
        names[s] = match &names[s] {
            None => Some(Some(role)),
            Some(Some(n)) if *n == role => Some(Some(role)),
            _ => Some(None),
        };
    }
    Ok(names
        .into_iter()
        .zip(sides)
        .map(|(n, side)| match n.flatten() {
            Some(n) if !n.is_empty() => n,
            _ => side.name.clone(),
        })
        .collect())
}

/// Means of each side's payoff per cell: `means[cell][side]`.
fn means(games: &[Vec<Vec<f64>>], pick: Option<&[usize]>) -> Vec<Vec<f64>> {
    games
        .iter()
        .map(|cell| {
            let sides = cell.first().map_or(0, Vec::len);
            let mut sum = vec![0.0; sides];
            let mut n = 0.0;
            let mut add = |g: &Vec<f64>| {
                for (s, v) in g.iter().enumerate() {
                    sum[s] += v;
                }
                n += 1.0;
            };
            match pick {
                Some(idx) => idx.iter().for_each(|&i| add(&cell[i])),
                None => cell.iter().for_each(&mut add),
            }
            sum.iter().map(|s| s / n).collect()
        })
        .collect()
}

/// The solution of a table of cell means: side payoffs at the solution and
/// the mixes.
struct Solved {
    side_payoffs: Vec<f64>,
    mixes: Vec<Vec<f64>>,
    deviation_gain: f64,
}

fn tensor(means: &[Vec<f64>], members: usize, sides: usize) -> solve::Tensor {
    solve::Tensor {
        members,
        sides,
        payoffs: means.iter().flatten().copied().collect(),
    }
}

/// Replicator steps and step size for more than two sides.
const REPLICATOR_STEPS: usize = 2000;
const REPLICATOR_RATE: f64 = 2.0;

fn solve_means(means: &[Vec<f64>], members: usize, sides: usize) -> Solved {
    let t = tensor(means, members, sides);
    if sides == 2 {
        let a: Vec<Vec<f64>> = (0..members)
            .map(|i| (0..members).map(|j| means[i * members + j][0]).collect())
            .collect();
        let e = solve::solve_zero_sum(&a);
        let mixes = vec![e.row.clone(), e.col.clone()];
        let side_payoffs = (0..2).map(|s| t.payoff(&mixes, s, None)).collect();
        Solved {
            side_payoffs,
            deviation_gain: solve::deviation_gain(&a, &e.row, &e.col),
            mixes,
        }
    } else {
        let mixes = solve::replicator(&t, REPLICATOR_STEPS, REPLICATOR_RATE);
        let side_payoffs: Vec<f64> = (0..sides).map(|s| t.payoff(&mixes, s, None)).collect();
        let deviation_gain = (0..sides)
            .map(|s| {
                (0..members)
                    .map(|k| t.payoff(&mixes, s, Some(k)) - side_payoffs[s])
                    .fold(0.0, f64::max)
            })
            .fold(0.0, f64::max);
        Solved {
            side_payoffs,
            mixes,
            deviation_gain,
        }
    }
}

/// A percentile of sorted values.
fn percentile(sorted: &[f64], p: f64) -> f64 {
    let i = ((sorted.len() - 1) as f64 * p).round() as usize;
    sorted[i]
}

/// Solves a played meta-game: the solution, its bootstrap intervals and the
/// figures a reader compares it with.
pub fn solve(
    game: &str,
    population: &[String],
    sides: &[Side],
    played: &Played,
    o: &MetagameOptions,
) -> Result<Solution> {
    let k = population.len();
    let s = sides.len();
    if played.games.iter().any(Vec::is_empty) {
        bail!("a cell holds no complete game: nothing to solve");
    }
    if o.payoff == Payoff::Return {
        constant_sum(played)?;
    }
    let m = means(&played.games, None);
    let solved = solve_means(&m, k, s);
    let counts: Vec<usize> = played.games.iter().map(Vec::len).collect();
    let paired = counts.iter().all(|&c| c == counts[0]);
    let mut rng = crate::rng::rng_from_seed(o.seed ^ 0x6d65_7461_6761_6d65);
    let samples = if s == 2 {
        o.bootstrap
    } else {
        o.bootstrap.min(200)
    };
    let mut draws: Vec<Vec<f64>> = vec![Vec::with_capacity(samples); s];
    for _ in 0..samples {
        let resampled: Vec<Vec<f64>> = if paired {
            let n = counts[0];
            let idx: Vec<usize> = (0..n).map(|_| crate::rng::below(&mut rng, n)).collect();
            means(&played.games, Some(&idx))
        } else {
            played
                .games
                .iter()
                .map(|cell| {
                    let n = cell.len();
                    let idx: Vec<usize> = (0..n).map(|_| crate::rng::below(&mut rng, n)).collect();
                    means(std::slice::from_ref(cell), Some(&idx)).remove(0)
                })
                .collect()
        };
        let b = solve_means(&resampled, k, s);
        for (d, v) in draws.iter_mut().zip(&b.side_payoffs) {
            d.push(*v);
        }
    }
    let side_payoffs: Vec<Estimate> = (0..s)
        .map(|side| {
            let mut d = draws[side].clone();
            d.sort_by(f64::total_cmp);
            let value = solved.side_payoffs[side];
            match d.is_empty() {
                true => Estimate {
                    value,
                    ci_low: value,
                    ci_high: value,
                },
                false => Estimate {
                    value,
                    ci_low: percentile(&d, 0.025),
                    ci_high: percentile(&d, 0.975),
                },
            }
        })
        .collect();
    let uniform = vec![vec![1.0 / k as f64; k]; s];
    let t = tensor(&m, k, s);
    let uniform_payoffs = (0..s).map(|side| t.payoff(&uniform, side, None)).collect();
    let support = solved
        .mixes
        .iter()
        .map(|mix| {
            mix.iter()
                .enumerate()
                .filter(|(_, w)| **w > 1e-6)
                .map(|(i, w)| Weight {
                    agent: population[i].clone(),
                    weight: *w,
                })
                .collect()
        })
        .collect();
    let best_single = if s == 2 {
        best_singles(&m, k, &solved.mixes, population)
    } else {
        Vec::new()
    };
    let self_play = (0..k)
        .map(|i| {
            let cell = (0..s).fold(0, |acc, _| acc * k + i);
            SelfPlay {
                agent: population[i].clone(),
                side0: cell_estimate(&played.games[cell], 0, o.payoff),
            }
        })
        .collect();
    Ok(Solution {
        game: game.to_string(),
        population: population.to_vec(),
        payoff: o.payoff,
        sides: sides
            .iter()
            .zip(&played.names)
            .map(|(s, name)| Side {
                name: name.clone(),
                ..s.clone()
            })
            .collect(),
        seed: o.seed,
        games_per_cell: counts.iter().copied().min().unwrap_or(0) as u64,
        solution: if s == 2 { "nash" } else { "replicator" }.into(),
        value: side_payoffs[0].value,
        ci_low: side_payoffs[0].ci_low,
        ci_high: side_payoffs[0].ci_high,
        side_payoffs,
        uniform_payoffs,
        fair: (o.payoff == Payoff::Win).then_some(1.0 / s as f64),
        support,
        best_single,
        self_play,
        bootstrap: if paired { "deals" } else { "cells" }.into(),
        bootstrap_samples: samples,
        deviation_gain: solved.deviation_gain,
    })
}

fn best_singles(
    m: &[Vec<f64>],
    k: usize,
    mixes: &[Vec<f64>],
    population: &[String],
) -> Vec<BestSingle> {
    // Side 0 maximises m[i][j][0]; side 1 maximises m[i][j][1].
    (0..2)
        .map(|side| {
            let payoff = |mine: usize, theirs: usize| {
                let cell = if side == 0 {
                    mine * k + theirs
                } else {
                    theirs * k + mine
                };
                m[cell][side]
            };
            let other = &mixes[1 - side];
            (0..k)
                .map(|i| BestSingle {
                    agent: population[i].clone(),
                    guaranteed: (0..k).map(|j| payoff(i, j)).fold(f64::INFINITY, f64::min),
                    against_equilibrium: (0..k).map(|j| other[j] * payoff(i, j)).sum(),
                })
                .max_by(|a, b| {
                    a.guaranteed
                        .total_cmp(&b.guaranteed)
                        .then(a.against_equilibrium.total_cmp(&b.against_equilibrium))
                })
                .expect("a population has members")
        })
        .collect()
}

/// A side's mean payoff in one cell with its 95 % interval (Wilson's with
/// win payoffs, normal otherwise).
pub fn cell_estimate(games: &[Vec<f64>], side: usize, payoff: Payoff) -> Estimate {
    let n = games.len() as f64;
    let sum: f64 = games.iter().map(|g| g[side]).sum();
    let mean = sum / n;
    let (lo, hi) = match payoff {
        Payoff::Win => crate::stats::wilson(sum, n, crate::stats::Z95),
        Payoff::Return => {
            let var =
                games.iter().map(|g| (g[side] - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
            let half = crate::stats::Z95 * (var / n).sqrt();
            (mean - half, mean + half)
        }
    };
    Estimate {
        value: mean,
        ci_low: lo,
        ci_high: hi,
    }
}

/// With return payoffs the sides' returns must sum to one constant in every
/// game: only then is the meta-game zero-sum.
fn constant_sum(played: &Played) -> Result<()> {
    let mut total: Option<f64> = None;
    for (c, cell) in played.games.iter().enumerate() {
        for (g, game) in cell.iter().enumerate() {
            let sum: f64 = game.iter().sum();
            match total {
                None => total = Some(sum),
                Some(t) if (t - sum).abs() > 1e-9 => bail!(
                    "--payoff return needs the sides' returns to sum to one constant, but game {g} of cell {c} sums to {sum} and an earlier one to {t}; use --payoff win"
                ),
                Some(_) => {}
            }
        }
    }
    Ok(())
}

/// Writes `matrix.csv`: one row per cell and side, the side's payoff with
/// its 95 % interval.
pub fn write_matrix(path: &Path, sol: &Solution, played: &Played) -> Result<()> {
    let k = sol.population.len();
    let s = sol.sides.len();
    let mut w = csv::Writer::from_writer(Vec::new());
    let mut header: Vec<String> = (0..s).map(|i| format!("side_{i}")).collect();
    header.extend(["side", "games", "payoff", "ci_low", "ci_high"].map(String::from));
    w.write_record(&header)?;
    for (c, cell) in Cell::all(k, s).iter().enumerate() {
        for side in 0..s {
            let e = cell_estimate(&played.games[c], side, sol.payoff);
            let mut rec: Vec<String> = cell
                .members
                .iter()
                .map(|&m| sol.population[m].clone())
                .collect();
            rec.push(side.to_string());
            rec.push(played.games[c].len().to_string());
            for v in [e.value, e.ci_low, e.ci_high] {
                rec.push(format!("{v:.6}"));
            }
            w.write_record(&rec)?;
        }
    }
    let bytes = w.into_inner().map_err(|e| anyhow!("{e}"))?;
    crate::fsutil::write_atomic(path, bytes)
        .with_context(|| format!("cannot write {}", path.display()))
}

/// The markdown summary of a solution (`metagame.md`).
pub fn markdown(sol: &Solution, played: &Played) -> String {
    use std::fmt::Write;
    let k = sol.population.len();
    let mut md = String::new();
    let _ = writeln!(md, "# Meta-game of {}\n", sol.game);
    let seats = |side: &Side| {
        let s: Vec<String> = side.seats.iter().map(|s| s.to_string()).collect();
        s.join(", ")
    };
    let side_names: Vec<String> = sol
        .sides
        .iter()
        .map(|s| format!("{} (seats {})", s.name, seats(s)))
        .collect();
    let _ = writeln!(
        md,
        "Population of {k}, every assignment of members to the {} sides played on the same deals, at least {} games a cell; payoff: {}.\n",
        sol.sides.len(),
        sol.games_per_cell,
        match sol.payoff {
            Payoff::Win => "win 1, draw ½, loss 0",
            Payoff::Return => "the game's returns",
        }
    );
    let what = if sol.solution == "nash" {
        "Value of the meta-game (side 0's score when each side plays its best mix of the population)"
    } else {
        "Side 0's score at the end of replicator dynamics from the uniform mix"
    };
    let _ = writeln!(
        md,
        "**{what}: {:.3} [{:.3}, {:.3}]** (95 % bootstrap over {}, {} resamples){}.\n",
        sol.value,
        sol.ci_low,
        sol.ci_high,
        sol.bootstrap,
        sol.bootstrap_samples,
        sol.fair
            .map_or(String::new(), |f| format!("; fair is {f:.3}"))
    );
    let _ = writeln!(
        md,
        "| side | payoff at the solution | 95 % CI | uniform mix | mix |"
    );
    let _ = writeln!(md, "|---|---:|---|---:|---|");
    for (i, name) in side_names.iter().enumerate() {
        let e = &sol.side_payoffs[i];
        let mix: Vec<String> = sol.support[i]
            .iter()
            .map(|w| format!("{} {:.2}", w.agent, w.weight))
            .collect();
        let _ = writeln!(
            md,
            "| {name} | {:.3} | [{:.3}, {:.3}] | {:.3} | {} |",
            e.value,
            e.ci_low,
            e.ci_high,
            sol.uniform_payoffs[i],
            mix.join(", ")
        );
    }
    if sol.sides.len() == 2 {
        let (a, b) = (&sol.sides[0].name, &sol.sides[1].name);
        let _ = writeln!(md, "\n{a}'s payoff (rows: {a}'s member, columns: {b}'s):\n");
        let mut head = format!("| {a} \\ {b} |");
        let mut rule = String::from("|---|");
        for p in &sol.population {
            let _ = write!(head, " {p} |");
            rule.push_str("---:|");
        }
        let _ = writeln!(md, "{head}\n{rule}");
        for i in 0..k {
            let _ = write!(md, "| {} |", sol.population[i]);
            for j in 0..k {
                let e = cell_estimate(&played.games[i * k + j], 0, sol.payoff);
                let _ = write!(md, " {:.3} |", e.value);
            }
            md.push('\n');
        }
        let _ = writeln!(
            md,
            "\n| side | best single member | guarantees | against the other side's mix |"
        );
        let _ = writeln!(md, "|---|---|---:|---:|");
        for (i, b) in sol.best_single.iter().enumerate() {
            let _ = writeln!(
                md,
                "| {} | {} | {:.3} | {:.3} |",
                side_names[i], b.agent, b.guaranteed, b.against_equilibrium
            );
        }
    }
    let _ = writeln!(
        md,
        "\nSelf-play, the figure a one-family study reports (side 0's payoff when the member plays every side):\n"
    );
    let _ = writeln!(md, "| member | side 0 | 95 % CI | minus the meta-game |");
    let _ = writeln!(md, "|---|---:|---|---:|");
    for sp in &sol.self_play {
        let _ = writeln!(
            md,
            "| {} | {:.3} | [{:.3}, {:.3}] | {:+.3} |",
            sp.agent,
            sp.side0.value,
            sp.side0.ci_low,
            sp.side0.ci_high,
            sp.side0.value - sol.value
        );
    }
    md
}

/// One budget's solution in a convergence study.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct BudgetPoint {
    /// The budget substituted for `{budget}`.
    pub budget: u64,
    /// Side 0's value.
    #[serde(flatten)]
    pub value: Estimate,
    /// The TOST p-value of "this budget's value is within ± tolerance of the
    /// previous budget's" (null for the first).
    pub tost_p: Option<f64>,
    /// Self-play of each member at this budget (side 0).
    pub self_play: Vec<SelfPlay>,
}

/// Plays and solves one population into `dir`: cells, matrix.csv,
/// metagame.json and metagame.md.
pub fn run_one(
    game: &dyn DynGame,
    sides: &[Side],
    population: &[String],
    dir: &Path,
    o: &MetagameOptions,
) -> Result<Solution> {
    let played = play(game, sides, population, dir, o)?;
    let sol = solve(&game.spec(), population, sides, &played, o)?;
    write_matrix(&dir.join("matrix.csv"), &sol, &played)?;
    let json = serde_json::to_string_pretty(&sol)? + "\n";
    crate::fsutil::write_atomic(&dir.join("metagame.json"), json)?;
    crate::fsutil::write_atomic(&dir.join("metagame.md"), markdown(&sol, &played))?;
    Ok(sol)
}

/// Solves again the meta-game stored in `dir` from its cells' games alone
/// (population, sides, payoff, seed and bootstrap read from its
/// metagame.json): what a reader or a check recomputes from the committed rows.
pub fn resolve(dir: &Path) -> Result<Solution> {
    let path = dir.join("metagame.json");
    let text = crate::fsutil::read_text(&path, 1 << 24)
        .with_context(|| format!("cannot read {}", path.display()))?;
    let stored: Solution = serde_json::from_str(&text)
        .with_context(|| format!("{} is not a meta-game's solution", path.display()))?;
    let sides = stored.sides.clone();
    let cells = Cell::all(stored.population.len(), sides.len());
    let games = cells
        .iter()
        .map(|c| read_cell(&dir.join("cells").join(c.name()), stored.payoff, &sides))
        .collect::<Result<Vec<_>>>()?;
    let played = Played {
        games,
        names: sides.iter().map(|s| s.name.clone()).collect(),
    };
    let o = MetagameOptions {
        agents: stored.population.clone(),
        games: stored.games_per_cell,
        seed: stored.seed,
        threads: 1,
        out: dir.to_path_buf(),
        payoff: stored.payoff,
        bootstrap: stored.bootstrap_samples,
        ..MetagameOptions::default()
    };
    solve(&stored.game, &stored.population, &sides, &played, &o)
}

/// The population at one budget: `{budget}` replaced in every member.
pub fn at_budget(agents: &[String], budget: u64) -> Vec<String> {
    agents
        .iter()
        .map(|a| a.replace("{budget}", &budget.to_string()))
        .collect()
}

/// Plays the meta-game (at each budget, when there are budgets) and writes
/// its files; returns the solutions in budget order.
pub fn run(game: &dyn DynGame, o: &MetagameOptions) -> Result<Vec<(Option<u64>, Solution)>> {
    let sides = sides_of(&game.sides());
    check(game, &sides, o)?;
    if o.match_cpu.is_some() {
        let calibration = matched_population(game, o, &mut |_| {})?;
        let o = MetagameOptions {
            agents: calibration.population(),
            match_cpu: None,
            ..o.clone()
        };
        return run(game, &o);
    }
    if o.shard.is_some() {
        let budgets: Vec<Option<u64>> = if o.budgets.is_empty() {
            vec![None]
        } else {
            o.budgets.iter().copied().map(Some).collect()
        };
        for b in budgets {
            let (dir, population) = match b {
                None => (o.out.clone(), o.agents.clone()),
                Some(b) => (o.out.join(format!("budget-{b}")), at_budget(&o.agents, b)),
            };
            play(game, &sides, &population, &dir, o)?;
        }
        return Ok(Vec::new());
    }
    if o.budgets.is_empty() {
        return Ok(vec![(None, run_one(game, &sides, &o.agents, &o.out, o)?)]);
    }
    let mut out = Vec::new();
    for &b in &o.budgets {
        let dir = o.out.join(format!("budget-{b}"));
        let population = at_budget(&o.agents, b);
        out.push((Some(b), run_one(game, &sides, &population, &dir, o)?));
    }
    write_convergence(&o.out, &out, o.tolerance)?;
    Ok(out)
}

/// The population calibrated to `o.match_cpu`: the one kept in `o.out`
/// when it was made for the same members and target (resume, shards, a
/// second look), else calibrated now and kept there. `report` sees each
/// member calibrated now.
pub fn matched_population(
    game: &dyn DynGame,
    o: &MetagameOptions,
    report: &mut dyn FnMut(&calibrate::Calibrated),
) -> Result<calibrate::Calibration> {
    let cpu_ms = o.match_cpu.context("no --match-cpu to calibrate to")?;
    check(game, &sides_of(&game.sides()), o)?;
    if let Some(kept) = calibrate::Calibration::read(&o.out)? {
        let given: Vec<&String> = kept.members.iter().map(|m| &m.given).collect();
        let same = kept.game == game.spec()
            && kept.cpu_ms == cpu_ms
            && given.iter().copied().eq(o.agents.iter());
        if same && !o.force {
            return Ok(kept);
        }
        if !o.force {
            bail!(
                "{} holds a calibration of other members, game or target: use --force to calibrate again, or another --out",
                o.out.join(calibrate::CALIBRATION_FILE).display()
            );
        }
    }
    if o.shard.is_some() {
        bail!(
            "shards must share one calibration: run the same command once with --calibrate-only and without --shard, then the shards"
        );
    }
    let calibration =
        calibrate::calibrate(game, &o.agents, cpu_ms, o.calibration_games, o.seed, report)?;
    calibration.write(&o.out)?;
    Ok(calibration)
}

fn check(game: &dyn DynGame, sides: &[Side], o: &MetagameOptions) -> Result<()> {
    let k = o.agents.len();
    if k == 0 {
        bail!("--agents names no agent: give the population, e.g. --agents greedy,ismcts-1k");
    }
    if sides.len() < 2 {
        bail!(
            "{} has one side only: there is nothing to balance",
            game.spec()
        );
    }
    let cells = k.checked_pow(sides.len() as u32).unwrap_or(usize::MAX);
    if cells > MAX_CELLS {
        bail!(
            "{k} agents over {} sides make {cells} cells, more than {MAX_CELLS}: use a smaller population",
            sides.len()
        );
    }
    for (i, a) in o.agents.iter().enumerate() {
        if o.agents[..i].contains(a) {
            bail!("agent {a:?} is listed twice in the population");
        }
    }
    let uses_budget = o.agents.iter().any(|a| a.contains("{budget}"));
    if !o.budgets.is_empty() && !uses_budget {
        bail!(
            "--budgets needs a member containing {{budget}}, e.g. 'ismcts(iterations={{budget}})'"
        );
    }
    if o.match_cpu.is_some() && (uses_budget || !o.budgets.is_empty()) {
        bail!(
            "--match-cpu sets each search's iterations: it cannot be combined with --budgets or {{budget}}"
        );
    }
    if o.budgets.is_empty() && uses_budget {
        bail!("a member contains {{budget}} but no --budgets are given");
    }
    if o.budgets.windows(2).any(|w| w[0] >= w[1]) || o.budgets.contains(&0) {
        bail!("--budgets must be positive and increasing, e.g. 100,200,400");
    }
    let probe = at_budget(&o.agents, o.budgets.first().copied().unwrap_or(1));
    game.check_agents(&probe)?;
    if !(o.tolerance > 0.0 && o.tolerance < 1.0) {
        bail!("--tolerance must be between 0 and 1");
    }
    if o.out.join("metagame.json").exists() && !(o.force || o.resume) {
        bail!(
            "{} already holds a meta-game (use --resume to continue it, --force to replace it, or another --out)",
            o.out.display()
        );
    }
    Ok(())
}

fn write_convergence(dir: &Path, sols: &[(Option<u64>, Solution)], tol: f64) -> Result<()> {
    let mut points: Vec<BudgetPoint> = Vec::new();
    for (b, sol) in sols {
        let value = Estimate {
            value: sol.value,
            ci_low: sol.ci_low,
            ci_high: sol.ci_high,
        };
        let tost_p = points.last().map(|prev| {
            // Standard errors from the bootstrap intervals' widths.
            let se = |e: &Estimate| (e.ci_high - e.ci_low) / (2.0 * crate::stats::Z95);
            let rate = |e: &Estimate| crate::stats::rate::Rate {
                n: 0,
                clusters: 0,
                rate: e.value,
                se: se(e),
                low: e.ci_low,
                high: e.ci_high,
            };
            let (a, c) = (rate(&prev.value), rate(&value));
            crate::stats::rate::tost(&a, &c, tol)
        });
        points.push(BudgetPoint {
            budget: b.unwrap_or(0),
            value,
            tost_p,
            self_play: sol.self_play.clone(),
        });
    }
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(["budget", "agent", "value", "ci_low", "ci_high", "tost_p"])?;
    for p in &points {
        let tost = p.tost_p.map_or(String::new(), |t| format!("{t:.4}"));
        w.write_record([
            p.budget.to_string(),
            "metagame".into(),
            format!("{:.6}", p.value.value),
            format!("{:.6}", p.value.ci_low),
            format!("{:.6}", p.value.ci_high),
            tost.clone(),
        ])?;
        for sp in &p.self_play {
            w.write_record([
                p.budget.to_string(),
                sp.agent.clone(),
                format!("{:.6}", sp.side0.value),
                format!("{:.6}", sp.side0.ci_low),
                format!("{:.6}", sp.side0.ci_high),
                String::new(),
            ])?;
        }
    }
    let bytes = w.into_inner().map_err(|e| anyhow!("{e}"))?;
    crate::fsutil::write_atomic(&dir.join("convergence.csv"), bytes)?;
    let stable = points
        .last()
        .and_then(|p| p.tost_p)
        .is_some_and(|p| p < 0.05);
    let json = serde_json::json!({
        "tolerance": tol,
        "stable": stable,
        "budgets": points,
    });
    crate::fsutil::write_atomic(
        &dir.join("convergence.json"),
        serde_json::to_string_pretty(&json)? + "\n",
    )?;
    Ok(())
}

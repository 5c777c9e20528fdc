//! The tournament runner: a list of games fixed up front (index → seed and
//! seating), played in parallel with rayon, written in index order.
//!
//! Results do not depend on the thread count: each game's seed is derived from
//! the master seed and its index, agents are built fresh per game, and rows are
//! written in index order chunk by chunk (a crash loses only the games in flight).

pub mod play;
pub mod record;
pub mod trace;

use std::io::Write;
use std::path::PathBuf;

use rayon::prelude::*;

use crate::agents::Agent;
use crate::agents::registry::AgentSpec;
use crate::error::SpecError;
use crate::game::Game;
use crate::rng::game_seed;
use record::{AgentSummary, GameRow, SeatSummary};

/// How to run a tournament.
#[derive(Clone, Debug)]
pub struct RunOptions {
    /// Games requested (rounded up to a multiple of the number of seatings).
    pub games: u64,
    /// Master seed.
    pub seed: u64,
    /// Worker threads (0: one per core).
    pub threads: usize,
    /// Output directory for games.csv, summary.csv and seats.csv.
    pub out: Option<PathBuf>,
    /// Directory for one JSON-lines trace per game.
    pub trace: Option<PathBuf>,
    /// Overwrite an existing games.csv in `out`.
    pub force: bool,
    /// Show a progress bar on stderr.
    pub progress: bool,
}

/// Everything a run produced.
#[derive(Clone, Debug)]
pub struct RunOutput {
    /// Games played.
    pub games: u64,
    /// True when the number of games was rounded up to fill every seating.
    pub rounded: bool,
    /// All rows, in game-index order.
    pub rows: Vec<GameRow>,
    /// Per agent.
    pub agents: Vec<AgentSummary>,
    /// Per seat.
    pub seats: Vec<SeatSummary>,
}

/// A run that could not start or could not write its results.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// Bad specs or counts.
    #[error(transparent)]
    Spec(#[from] SpecError),
    /// An output file or directory.
    #[error("cannot write {path}: {why}")]
    Output {
        /// The path.
        path: String,
        /// The reason.
        why: String,
    },
}

fn output_error(path: &std::path::Path, e: impl std::fmt::Display) -> RunError {
    RunError::Output {
        path: path.display().to_string(),
        why: e.to_string(),
    }
}

/// The seating of game `index`: seat `s` gets agent `(s + index) mod n`, so
/// over every block of `n` games each agent sits in each seat once.
pub fn seating(index: u64, seats: usize) -> Vec<usize> {
    (0..seats).map(|s| (s + index as usize) % seats).collect()
}

/// Games actually played for `requested`: rounded up to a multiple of `seats`.
pub fn rounded_games(requested: u64, seats: usize) -> u64 {
    requested.div_ceil(seats as u64) * seats as u64
}

/// Plays one game of the run and returns its rows.
pub fn play_indexed<G: Game>(
    game: &G,
    specs: &[AgentSpec],
    labels: &[String],
    master: u64,
    index: u64,
    trace: Option<&PathBuf>,
) -> Vec<GameRow> {
    let n = game.num_players();
    let seats = seating(index, n);
    let seed = game_seed(master, index);
    let mut agents: Vec<Box<dyn Agent<G>>> = Vec::with_capacity(n);
    for &a in &seats {
        match specs[a].build::<G>() {
            Ok(agent) => agents.push(agent),
            Err(e) => unreachable!("agent specs are validated before the run: {e}"),
        }
    }
    let mut log = Vec::new();
    let mut record = |_: &G::State, player: Option<u8>, action: G::Action| {
        if trace.is_some() {
            log.push(play::Step { player, action });
        }
    };
    let result = play::play_game(game, &mut agents, seed, &mut record);
    if let Some(dir) = trace {
        let header = trace::Header {
            game: game.spec(),
            agents: seats.iter().map(|&a| labels[a].clone()).collect(),
            seed,
            game_index: index,
        };
        // A trace that cannot be written is reported in the row's error column.
        if let Err(e) = trace::write(
            game,
            &dir.join(format!("game-{index:08}.jsonl")),
            &header,
            &log,
            &result,
        ) {
            let mut rows = GameRow::from_result(index, seed, &game.spec(), &seats, labels, &result);
            for r in &mut rows {
                r.error = format!("trace not written: {e}");
            }
            return rows;
        }
    }
    GameRow::from_result(index, seed, &game.spec(), &seats, labels, &result)
}

/// Runs a tournament of `game` between `specs` (one per seat).
pub fn run<G: Game>(
    game: &G,
    specs: &[AgentSpec],
    opts: &RunOptions,
) -> Result<RunOutput, RunError> {
    let n = game.num_players();
    if specs.len() != n {
        return Err(SpecError::Invalid(format!(
            "{} needs exactly {n} agents, one per seat; {} given",
            game.spec(),
            specs.len()
        ))
        .into());
    }
    for s in specs {
        s.build::<G>()?;
    }
    if opts.games == 0 {
        return Err(SpecError::Invalid("--games must be at least 1".into()).into());
    }
    let labels: Vec<String> = specs.iter().map(|s| s.label.clone()).collect();
    let total = rounded_games(opts.games, n);
    let mut writer = match &opts.out {
        None => None,
        Some(dir) => {
            std::fs::create_dir_all(dir).map_err(|e| output_error(dir, e))?;
            let path = dir.join("games.csv");
            if path.exists() && !opts.force {
                return Err(output_error(
                    &path,
                    "it already holds results (use --force to overwrite, or another --out)",
                ));
            }
            let file = std::fs::File::create(&path).map_err(|e| output_error(&path, e))?;
            Some((
                path,
                csv::Writer::from_writer(std::io::BufWriter::new(file)),
            ))
        }
    };
    if let Some(dir) = &opts.trace {
        std::fs::create_dir_all(dir).map_err(|e| output_error(dir, e))?;
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(opts.threads)
        .build()
        .map_err(|e| SpecError::Invalid(format!("cannot start {} threads: {e}", opts.threads)))?;
    let bar = progress_bar(total, opts.progress);
    let chunk = (pool.current_num_threads() as u64 * 32).max(64);
    let mut rows = Vec::with_capacity((total as usize) * n);
    let mut start = 0;
    while start < total {
        let end = (start + chunk).min(total);
        let batch: Vec<Vec<GameRow>> = pool.install(|| {
            (start..end)
                .into_par_iter()
                .map(|i| {
                    let r = play_indexed(game, specs, &labels, opts.seed, i, opts.trace.as_ref());
                    bar.inc(1);
                    r
                })
                .collect()
        });
        for game_rows in batch {
            if let Some((path, w)) = writer.as_mut() {
                for r in &game_rows {
                    w.serialize(r).map_err(|e| output_error(path, e))?;
                }
            }
            rows.extend(game_rows);
        }
        if let Some((path, w)) = writer.as_mut() {
            w.flush().map_err(|e| output_error(path, e))?;
        }
        start = end;
    }
    bar.finish_and_clear();
    let agents = record::summarize_agents(&rows, &labels);
    let seats = record::summarize_seats(&rows, n);
    if let Some(dir) = &opts.out {
        let p = dir.join("summary.csv");
        record::write_summary(&p, &agents).map_err(|e| output_error(&p, e))?;
        let p = dir.join("seats.csv");
        record::write_summary(&p, &seats).map_err(|e| output_error(&p, e))?;
    }
    Ok(RunOutput {
        games: total,
        rounded: total != opts.games,
        rows,
        agents,
        seats,
    })
}

fn progress_bar(total: u64, show: bool) -> indicatif::ProgressBar {
    use std::io::IsTerminal;
    if !show || !std::io::stderr().is_terminal() {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new(total);
    bar.set_style(
        indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} games  {per_sec}  ETA {eta}")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    let _ = std::io::stderr().flush();
    bar
}

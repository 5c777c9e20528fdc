//! The command line: clap arguments in, library calls, errors out as one line
//! with exit code 2.

mod soak;

mod bench;
mod commands;
mod exploitability;
mod ladder;
mod listing;
mod sprt;
mod summarize;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Self-play and strategy research on modern tabletop games.
///
/// Games are named by a spec: `fox`, `fox(players=4)`, `karmaka(players=3,teams=false)`.
/// Agents likewise: `random`, `mcts(iterations=2000,c=1.4)`, a preset name such as
/// `ismcts-1k`, or `@path/to/preset.toml`. `boardlab games` and `boardlab agents`
/// list what exists.
///
/// Exit codes: 0 success, 1 run stopped by --max-errors, 2 bad input or output that cannot be written.
#[derive(Debug, Parser)]
#[command(name = "boardlab", version, about, long_about, help_expected = true)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Play a tournament: agents rotate over seats; results go to CSV files.
    ///
    /// Example: boardlab run --game 'fox(players=2)' --agents random,greedy --games 1000 --out results/demo
    Run(RunArgs),
    /// Play one game interactively (use `human` for your seat).
    ///
    /// The other seats' moves and chance outcomes are narrated as each human
    /// seat sees them: a rival's secret draw is announced, not named.
    ///
    /// Example: boardlab play --game tictactoe --agents human,random
    Play(PlayArgs),
    /// Re-simulate a trace file written by `run --trace` and print it turn by turn.
    Replay(ReplayArgs),
    /// Play many random games of every game and variant, checking every state.
    ///
    /// Example: boardlab soak --games 10000 --json
    Soak(SoakArgs),
    /// List the games, their player counts and parameters with defaults.
    Games(ListArgs),
    /// List the agent kinds, their parameters and the presets in agents/.
    Agents(ListArgs),
    /// Measure random-playout throughput (or an agent's search speed) on one thread.
    ///
    /// After a warm-up, --samples runs of equal length; each rate is given per
    /// second of wall time and per second of this thread's CPU time (which
    /// ignores time the process waited on a busy machine), as mean ± σ, min, max.
    ///
    /// Example: boardlab bench --game karmaka --seconds 5 --samples 10
    Bench(BenchArgs),
    /// Run a study described in a TOML file: a parameter sweep × agent lineups.
    ///
    /// Example: boardlab experiment experiments/seats-fox.toml --out runs/seats-fox
    Experiment(ExperimentArgs),
    /// Combine the shard directories of one run (`run --shard K/N`) into one result.
    Merge(MergeArgs),
    /// Recompute summaries, ratings, a Markdown balance report and SVG plots from DIR/games.csv.
    ///
    /// Example: boardlab summarize results/demo
    Summarize(SummarizeArgs),
    /// Test whether agent A is stronger than agent B by elo1 (or not by more than elo0)
    /// with a sequential probability ratio test on game pairs with swapped seats.
    ///
    /// Exit code 0 when the test decides, 1 when --max-games is reached first.
    ///
    /// Example: boardlab sprt --game connect4 --agents 'mcts(iterations=400),random' --elo0 0 --elo1 50
    Sprt(SprtArgs),
    /// Exact exploitability of an agent's policy in a small two-player zero-sum
    /// game (Kuhn, Leduc): its policy is estimated at every information set from
    /// --samples decisions, then best responses are computed over the whole tree.
    ///
    /// Example: boardlab exploitability --game kuhn --agent ismcts-1k --samples 100
    Exploitability(ExploitabilityArgs),
    /// Rate agents at doubling thinking budgets per decision: Elo (random = 0)
    /// against CPU per decision, as ladder.csv, meetings.csv and ladder.svg.
    ///
    /// Example: boardlab ladder --game fox --agents mcts,ismcts,greedy --time-ms 5,10,20 --games 40 --out results/ladders/fox
    Ladder(LadderArgs),
    /// Print a shell completion script.
    ///
    /// Example: boardlab completions bash > ~/.local/share/bash-completion/completions/boardlab
    Completions(CompletionsArgs),
    /// Print the manual page (roff).
    ///
    /// Example: boardlab man > boardlab.1 && man ./boardlab.1
    Man,
}

/// Arguments of `games` and `agents`.
#[derive(Debug, clap::Args)]
pub struct ListArgs {
    /// Print one JSON value instead of tables.
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `completions`.
#[derive(Debug, clap::Args)]
pub struct CompletionsArgs {
    /// The shell.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

/// Arguments of `exploitability`.
#[derive(Debug, clap::Args)]
pub struct ExploitabilityArgs {
    /// Game spec of a small two-player zero-sum game with chance as chance nodes.
    #[arg(long)]
    pub game: String,
    /// The agent whose policy is measured (or `uniform` for the exact uniform random policy).
    #[arg(long)]
    pub agent: String,
    /// Decisions asked of the agent at each information set.
    #[arg(long, default_value_t = 100)]
    pub samples: u32,
    /// Master seed of the views and the agent's streams.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Worker threads (0: one per core); the result does not depend on it.
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `ladder`.
#[derive(Debug, clap::Args)]
pub struct LadderArgs {
    /// Game spec of a two-player game.
    #[arg(long)]
    pub game: String,
    /// Agents, comma-separated; search agents (mcts, pimc, ismcts and their presets)
    /// are rated at every budget, others (greedy) once; random play is always the anchor.
    #[arg(long)]
    pub agents: String,
    /// Budgets per decision in milliseconds of wall time on one core, e.g. 10,20,40.
    #[arg(long)]
    pub time_ms: Option<String>,
    /// Budgets per decision in search iterations, e.g. 100,200,400 (reproducible).
    #[arg(long)]
    pub iterations: Option<String>,
    /// Games per meeting (rounded up to pairs with the seats swapped).
    #[arg(long, default_value_t = 20)]
    pub games: u64,
    /// Master seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Worker threads (0: one per core); with --time-ms use 1 so budgets mean one core each.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Bootstrap resamples for the Elo intervals.
    #[arg(long, default_value_t = 200)]
    pub resamples: usize,
    /// Output directory.
    #[arg(long)]
    pub out: PathBuf,
    /// Overwrite an existing ladder in --out.
    #[arg(long)]
    pub force: bool,
}

/// Arguments of `summarize`.
#[derive(Debug, clap::Args)]
pub struct SummarizeArgs {
    /// A result directory holding games.csv (and run.json, whose agent list is used when present).
    pub dir: PathBuf,
    /// Title of the report (default: the game spec).
    #[arg(long)]
    pub title: Option<String>,
    /// Bootstrap resamples for the rating intervals.
    #[arg(long, default_value_t = 200)]
    pub resamples: usize,
    /// Seed of the bootstrap.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// Arguments of `sprt`.
#[derive(Debug, clap::Args)]
pub struct SprtArgs {
    /// Game spec of a two-player game.
    #[arg(long)]
    pub game: String,
    /// The two agents, A,B: the test is on A's Elo over B.
    #[arg(long)]
    pub agents: String,
    /// Elo difference of H0.
    #[arg(long, default_value_t = 0.0, allow_negative_numbers = true)]
    pub elo0: f64,
    /// Elo difference of H1 (greater than elo0).
    #[arg(long, allow_negative_numbers = true)]
    pub elo1: f64,
    /// Probability of accepting H1 when H0 holds.
    #[arg(long, default_value_t = 0.05)]
    pub alpha: f64,
    /// Probability of accepting H0 when H1 holds.
    #[arg(long, default_value_t = 0.05)]
    pub beta: f64,
    /// Master seed; pair k plays both its games on seed f(seed, k).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Stop without a decision after this many games.
    #[arg(long, default_value_t = 100_000)]
    pub max_games: u64,
    /// Game pairs per batch; the test is checked (and a line printed) after each batch, from 10 pairs on.
    #[arg(long, default_value_t = 20)]
    pub batch: u64,
    /// Worker threads (0: one per core); the results do not depend on it.
    #[arg(long, default_value_t = 0, value_parser = parse_threads)]
    pub threads: usize,
}

/// Arguments of `experiment`.
#[derive(Debug, clap::Args)]
pub struct ExperimentArgs {
    /// The experiment file (see experiments/ for examples).
    pub file: PathBuf,
    /// Output directory (default: results/<file name without .toml>).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Worker threads, overriding the file's setting.
    #[arg(long, value_parser = parse_threads)]
    pub threads: Option<usize>,
    /// Continue an interrupted experiment: finished games of every cell are kept.
    #[arg(long, conflicts_with = "force")]
    pub resume: bool,
    /// Overwrite an earlier output.
    #[arg(long)]
    pub force: bool,
    /// No progress output.
    #[arg(long, short)]
    pub quiet: bool,
}

/// Arguments of `merge`.
#[derive(Debug, clap::Args)]
pub struct MergeArgs {
    /// Shard directories, each written by `run --shard K/N --out DIR`.
    #[arg(required = true)]
    pub dirs: Vec<PathBuf>,
    /// Directory for the merged results.
    #[arg(long)]
    pub out: PathBuf,
    /// Overwrite results already in --out.
    #[arg(long)]
    pub force: bool,
}

pub use crate::arena::max_threads;

/// A `--threads` value: 0 (one per core) up to [`max_threads`].
fn parse_threads(text: &str) -> Result<usize, String> {
    let max = max_threads();
    match text.trim().parse::<usize>() {
        Ok(n) if n <= max => Ok(n),
        _ => Err(format!(
            "'{text}' is not a thread count from 0 (one per core) to {max} (4 per core)"
        )),
    }
}

/// The largest `--games` of one run: far beyond any study, and small enough
/// that rounding up to a multiple of the seats never overflows.
pub const MAX_GAMES: u64 = 1_000_000_000_000;

/// A game count from 1 to [`MAX_GAMES`].
fn parse_games(text: &str) -> Result<u64, String> {
    match text.trim().parse::<u64>() {
        Ok(n @ 1..=MAX_GAMES) => Ok(n),
        _ => Err(format!(
            "'{text}' is not a number of games from 1 to {MAX_GAMES}"
        )),
    }
}

fn parse_shard(text: &str) -> Result<(u64, u64), String> {
    let bad = || format!("'{text}' is not K/N with 1 <= K <= N, e.g. 2/8");
    let (k, n) = text.split_once('/').ok_or_else(bad)?;
    let (k, n): (u64, u64) = (
        k.trim().parse().map_err(|_| bad())?,
        n.trim().parse().map_err(|_| bad())?,
    );
    if k == 0 || n == 0 || k > n {
        return Err(bad());
    }
    Ok((k, n))
}

/// Arguments of `run`.
#[derive(Debug, clap::Args)]
pub struct RunArgs {
    /// Game spec, e.g. `connect4` or `fox(players=3)`.
    #[arg(long)]
    pub game: String,
    /// Comma-separated agents, one per seat, e.g. `random,mcts(iterations=1000)`.
    #[arg(long)]
    pub agents: String,
    /// Number of games (rounded up to a multiple of the number of seats, so every agent sits in every seat equally often).
    #[arg(long, default_value_t = 100, value_parser = parse_games)]
    pub games: u64,
    /// Master seed; the same seed gives the same games whatever the thread count.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Worker threads (0: one per core).
    #[arg(long, default_value_t = 0, value_parser = parse_threads)]
    pub threads: usize,
    /// Directory for games.csv, summary.csv and seats.csv.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Directory for one JSON-lines trace per game (replay with `boardlab replay`).
    #[arg(long)]
    pub trace: Option<PathBuf>,
    /// Overwrite results already in --out.
    #[arg(long, conflicts_with = "resume")]
    pub force: bool,
    /// Continue an interrupted run in --out (same arguments required); finished games are kept.
    #[arg(long, requires = "out")]
    pub resume: bool,
    /// Play only shard K of N of the game indices (1-based), e.g. 2/8; combine shards with `boardlab merge`.
    #[arg(long, value_name = "K/N", value_parser = parse_shard)]
    pub shard: Option<(u64, u64)>,
    /// Stop the run once this many games have ended in a fault (agent panic, illegal action, timeout).
    #[arg(long, value_name = "N")]
    pub max_errors: Option<u64>,
    /// A decision that takes longer than this forfeits the game (milliseconds).
    #[arg(long, value_name = "MS")]
    pub move_timeout_ms: Option<u64>,
    /// Duplicate deals: each deal (setup and chance stream) is played once per seating, so
    /// seats and agents are compared on identical luck; reports use per-deal paired estimates.
    #[arg(long)]
    pub duplicate: bool,
    /// Play in batches until the 95 % interval half-width of seat 0's and every agent's win
    /// rate is at most X (e.g. ci=0.02), or --max-games; run.json says why it stopped.
    #[arg(long, value_name = "ci=X", value_parser = parse_until, requires = "max_games", conflicts_with = "games")]
    pub until: Option<f64>,
    /// The cap on games for --until.
    #[arg(long, value_name = "N", requires = "until")]
    pub max_games: Option<u64>,
    /// No progress bar.
    #[arg(long, short)]
    pub quiet: bool,
}

fn parse_until(text: &str) -> Result<f64, String> {
    let bad = || format!("expected ci=X with 0 < X < 0.5 (e.g. ci=0.02), got '{text}'");
    let value = text.strip_prefix("ci=").ok_or_else(bad)?;
    let ci: f64 = value.parse().map_err(|_| bad())?;
    if ci > 0.0 && ci < 0.5 {
        Ok(ci)
    } else {
        Err(bad())
    }
}

/// Arguments of `play`.
#[derive(Debug, clap::Args)]
pub struct PlayArgs {
    /// Game spec.
    #[arg(long)]
    pub game: String,
    /// Comma-separated agents, one per seat; `human` for a person at the terminal.
    #[arg(long)]
    pub agents: String,
    /// Seed of the game.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// Arguments of `replay`.
#[derive(Debug, clap::Args)]
pub struct ReplayArgs {
    /// A trace file (game-NNNNNNNN.jsonl).
    pub file: PathBuf,
}

/// Arguments of `soak`.
#[derive(Debug, clap::Args)]
pub struct SoakArgs {
    /// Game spec to soak (repeatable); default: every registered game in every variant of its test specs.
    #[arg(long)]
    pub game: Vec<String>,
    /// Random games per spec.
    #[arg(long, default_value_t = 1000, value_parser = parse_games)]
    pub games: u64,
    /// Master seed; each game's seed derives from it and the game's index.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Index of the first game (with --games 1, replays one reported game).
    #[arg(long, default_value_t = 0)]
    pub start: u64,
    /// Worker threads (0: one per core).
    #[arg(long, default_value_t = 0, value_parser = parse_threads)]
    pub threads: usize,
    /// Print one JSON object instead of a table.
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `bench`.
#[derive(Debug, clap::Args)]
pub struct BenchArgs {
    /// Game spec.
    #[arg(long)]
    pub game: String,
    /// Measure this agent's search from the initial state instead of random playouts.
    #[arg(long)]
    pub agent: Option<String>,
    /// Measuring time in seconds, shared by the samples (a warm-up of a tenth
    /// of it, at most 1 s, comes first and is not counted).
    #[arg(long, default_value_t = 3.0)]
    pub seconds: f64,
    /// Samples of equal length: rates are reported as mean ± σ, min and max.
    #[arg(long, default_value_t = 5)]
    pub samples: u32,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

/// Runs the CLI and maps errors to exit code 2 with a one-line message.
pub fn main(cli: Cli) -> ExitCode {
    match commands::dispatch(cli) {
        Ok(code) => code,
        Err(e) => {
            let text = format!("{e:#}").replace('\n', " ");
            eprintln!("boardlab: error: {text}");
            ExitCode::from(2)
        }
    }
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    #[test]
    fn cli_is_well_formed() {
        super::Cli::command().debug_assert();
    }
}

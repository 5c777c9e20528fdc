//! The command line: clap arguments in, library calls, errors out as one line
//! with exit code 2.

mod soak;

mod ablate;
mod balance;
mod bench;
mod commands;
mod exploitability;
mod fair;
mod fit;
mod game;
mod json;
mod ladder;
mod listing;
mod metagame;
mod play;
mod play_html;
mod quality;
mod registry;
mod report;
mod sprt;
mod summarize;
mod tune;
mod verify;
mod view;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

pub use registry::Registry;

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
    /// Draw a trace as one self-contained HTML page: every state as a picture,
    /// stepping controls, each seat's point of view, the action log and, for
    /// traces written with `run --trace-search`, the search's candidates.
    ///
    /// Example: boardlab view traces/game-00000000.jsonl --out game.html
    View(ViewArgs),
    /// Play many random games of every game and variant, checking every state.
    ///
    /// Example: boardlab soak --games 10000 --json
    Soak(SoakArgs),
    /// List the games and their player counts, or one game's parameters in full.
    ///
    /// Example: boardlab games fox
    Games(GamesArgs),
    /// List the agent kinds, the search parameters and the presets in agents/,
    /// or one kind or preset in full.
    ///
    /// Example: boardlab agents ismcts
    Agents(AgentsArgs),
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
    /// --samples decisions (or stated exactly, by cfr), then best responses are
    /// computed over the whole tree.
    ///
    /// Example: boardlab exploitability --game kuhn --agent ismcts-1k --samples 100
    Exploitability(ExploitabilityArgs),
    /// Rate agents at doubling thinking budgets per decision: Elo (random = 0)
    /// against CPU per decision, as ladder.csv, meetings.csv and ladder.svg.
    ///
    /// Example: boardlab ladder --game fox --agents mcts,ismcts,greedy --time-ms 5,10,20 --games 40 --out results/ladders/fox
    Ladder(LadderArgs),
    /// Game-quality metrics (completion, drawishness, decisiveness, duration,
    /// branching, drama, lead changes, uncertainty, killer moves) and a
    /// skill-depth index, as quality.csv and quality.md.
    ///
    /// Example: boardlab quality --game connect4 --agents greedy,mcts-1k --games 200 --out results/quality-c4
    Quality(QualityArgs),
    /// One self-contained HTML dashboard (report.html, with dashboard.md beside
    /// it) for a run or experiment directory, picking up optional study CSVs.
    ///
    /// Example: boardlab report results/fox-tile-sets
    Report(ReportArgs),
    /// Replay the first games of stored results (a run folder, an experiment
    /// folder, or a folder of them) with this binary and compare every column
    /// but the timings: fresh, stale (what differs) or not reproducible.
    ///
    /// A study whose README.md has a line starting with SUPERSEDED is skipped.
    /// Exit code 0 when everything is fresh or skipped, 1 otherwise.
    ///
    /// Example: boardlab verify results/seats-fox --sample 5
    Verify(VerifyArgs),
    /// Tune an agent's parameters by games (NTBEA): mark each tuned parameter
    /// `key=?` (a default grid) or `key=[a,b,...]`; the pick is confirmed on
    /// games with seeds of their own and can be written as a preset.
    ///
    /// Example: boardlab tune --game fox --agent 'ismcts(time_ms=10,c=?,max_rollout=?)' --against fox-best-20ms --budget 400 --out runs/tune-fox
    Tune(TuneArgs),
    /// Fit a game's linear evaluation from self-play: the features of sampled
    /// positions regressed on the final outcome (logistic), measured on
    /// held-out games against the heuristic; agents use it with eval=@FILE.
    ///
    /// Example: boardlab fit --game karmaka --agent greedy --games 400 --out karmaka-eval.toml
    Fit(FitArgs),
    /// Seat and role balance of one search agent against itself at doubling
    /// budgets, until two consecutive budgets agree (TOST) or a cap; writes
    /// balance.csv, balance.json and balance.md (does the imbalance grow, shrink or flip),
    /// and every game of each budget (`games-<budget>.csv`) for --resume and `compare`.
    ///
    /// Example: boardlab balance --game fox --agent ismcts --budgets 250,500,1000 --until ci=0.03 --max-games 2000 --out results/balance/fox
    Balance(BalanceArgs),
    /// A variant against its base game, game by game: the paired differences
    /// (seat and role win rates, endings, lengths) of two `balance` studies
    /// played on the same seeds, with their 95 % intervals; writes paired.csv and paired.md.
    ///
    /// Example: boardlab compare --base results/balance-hamunaptra --variant results/balance-hamunaptra-rule4
    Compare(CompareArgs),
    /// Compensation solver: bisection with sequential tests on a numeric game
    /// parameter for the value where the first seat (or a role) wins at the target rate.
    ///
    /// Example: boardlab fair --game planted --param komi --range 0..0.5 --out results/fair/planted
    Fair(FairArgs),
    /// Component ablation: each component the game lists is removed in turn and
    /// the games replayed on the same seeds; reports its paired effect on its holder's win rate.
    ///
    /// Example: boardlab ablate --game karmaka --agent greedy --games 1000 --out results/ablate/karmaka
    Ablate(AblateArgs),
    /// Cross-play of a population of agents: every assignment of members to the
    /// game's sides played on the same deals; the per-side payoff matrix and the
    /// meta-game's value (the first side's score when each side plays its best
    /// mix of the population), so that balance does not depend on which AI is asked.
    ///
    /// Example: boardlab metagame --game fox --agents greedy,ismcts-1k,'ismcts(iterations=1000,max_rollout=20)' --games 200 --out results/metagame/fox
    Metagame(metagame::MetagameArgs),
    /// Print a shell completion script.
    ///
    /// Example: boardlab completions bash > ~/.local/share/bash-completion/completions/boardlab
    Completions(CompletionsArgs),
    /// Print the manual page (roff).
    ///
    /// Example: boardlab man > boardlab.1 && man ./boardlab.1
    Man,
}

/// Arguments of `games`.
#[derive(Debug, clap::Args)]
pub struct GamesArgs {
    /// One game to show in full (every parameter with its default).
    pub name: Option<String>,
    /// Print one JSON value instead of tables.
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `agents`.
#[derive(Debug, clap::Args)]
pub struct AgentsArgs {
    /// One agent kind or preset to show in full.
    pub name: Option<String>,
    /// List the test aids too (agents that commit faults on purpose).
    #[arg(long)]
    pub all: bool,
    /// Print one JSON value instead of tables (always complete).
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

/// Arguments of `balance`.
#[derive(Debug, clap::Args)]
pub struct BalanceArgs {
    /// Game spec.
    #[arg(long)]
    pub game: String,
    /// The search agent in every seat (mcts, pimc, ismcts or a preset); its iterations are set to each budget.
    #[arg(long, default_value = "ismcts")]
    pub agent: String,
    /// Increasing budgets in search iterations per decision, e.g. 250,500,1000.
    #[arg(long)]
    pub budgets: String,
    /// Play each budget until every seat's and role's 95 % half-width is at most X (e.g. ci=0.03), or --max-games.
    #[arg(long, value_name = "ci=X", value_parser = parse_until)]
    pub until: Option<f64>,
    /// Games per budget (the cap with --until).
    #[arg(long, default_value_t = 1000, value_parser = parse_games)]
    pub max_games: u64,
    /// Duplicate deals: each deal is played once per seating; intervals count deals, not games.
    #[arg(long)]
    pub duplicate: bool,
    /// Two budgets agree when the TOST shows every seat and role within ± this.
    #[arg(long, default_value_t = 0.05)]
    pub tolerance: f64,
    /// Start no new budget after this many seconds.
    #[arg(long)]
    pub max_seconds: Option<f64>,
    /// Games per ladder meeting for the Elo column, two-player games only (0: none).
    #[arg(long, default_value_t = 20)]
    pub ladder_games: u64,
    /// Master seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Worker threads (0: one per core); the results do not depend on it.
    #[arg(long, default_value_t = 0, value_parser = parse_threads)]
    pub threads: usize,
    /// Play only shard K of N of every budget's games and ladder pairs (1-based), e.g.
    /// 2/8; combine the output directories of all shards with `boardlab merge`.
    #[arg(long, value_name = "K/N", value_parser = parse_shard)]
    pub shard: Option<(u64, u64)>,
    /// Output directory.
    #[arg(long)]
    pub out: PathBuf,
    /// Overwrite an earlier result in --out.
    #[arg(long, conflicts_with = "resume")]
    pub force: bool,
    /// Continue the interrupted (or time-capped) study in --out, given the same
    /// options: its complete games are kept and only the rest is played. A
    /// larger --max-games extends a finished study the same way.
    #[arg(long, conflicts_with = "shard")]
    pub resume: bool,
}

/// Arguments of `compare`.
#[derive(Debug, clap::Args)]
pub struct CompareArgs {
    /// The base game's `balance` output directory.
    #[arg(long)]
    pub base: PathBuf,
    /// The variant's `balance` output directory, played with the same --seed.
    #[arg(long)]
    pub variant: PathBuf,
    /// Where to write paired.csv and paired.md (default: the variant's directory).
    #[arg(long)]
    pub out: Option<PathBuf>,
}

/// Arguments of `fair`.
#[derive(Debug, clap::Args)]
pub struct FairArgs {
    /// Game spec (the parameter is set on top of it).
    #[arg(long)]
    pub game: String,
    /// The numeric game parameter to solve for.
    #[arg(long)]
    pub param: String,
    /// Search range A..B.
    #[arg(long, allow_hyphen_values = true)]
    pub range: String,
    /// The agent in every seat.
    #[arg(long, default_value = "random")]
    pub agent: String,
    /// Target win rate.
    #[arg(long, default_value_t = 0.5)]
    pub target: f64,
    /// Whose rate: this seat...
    #[arg(long, default_value_t = 0, conflicts_with = "faction")]
    pub seat: u8,
    /// ...or this role (faction) as the game names it.
    #[arg(long)]
    pub faction: Option<String>,
    /// Cap on games per probe.
    #[arg(long, default_value_t = 4000, value_parser = parse_games)]
    pub max_games: u64,
    /// Stop when the bracket is this narrow (default: the range / 64).
    #[arg(long)]
    pub precision: Option<f64>,
    /// Master seed (the same seeds at every probe).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Worker threads (0: one per core); the results do not depend on it.
    #[arg(long, default_value_t = 0, value_parser = parse_threads)]
    pub threads: usize,
    /// Output directory for fair.csv, fair.json and fair.md.
    #[arg(long)]
    pub out: PathBuf,
    /// Overwrite an earlier result in --out.
    #[arg(long)]
    pub force: bool,
}

/// Arguments of `ablate`.
#[derive(Debug, clap::Args)]
pub struct AblateArgs {
    /// Game spec.
    #[arg(long)]
    pub game: String,
    /// The agent in every seat.
    #[arg(long, default_value = "random")]
    pub agent: String,
    /// Games with and without each component.
    #[arg(long, default_value_t = 1000, value_parser = parse_games)]
    pub games: u64,
    /// Only these components, comma-separated (names as listed in ablate.csv).
    #[arg(long)]
    pub components: Option<String>,
    /// Master seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Worker threads (0: one per core); the results do not depend on it.
    #[arg(long, default_value_t = 0, value_parser = parse_threads)]
    pub threads: usize,
    /// Output directory for ablate.csv, ablate.json and ablate.md.
    #[arg(long)]
    pub out: PathBuf,
    /// Overwrite an earlier result in --out.
    #[arg(long)]
    pub force: bool,
}

/// Arguments of `tune`.
#[derive(Debug, clap::Args)]
pub struct TuneArgs {
    /// Game spec.
    #[arg(long)]
    pub game: String,
    /// The agent template, e.g. `ismcts(time_ms=10, c=?, rollout=[random,mast])`.
    #[arg(long)]
    pub agent: String,
    /// The opponent in every other seat.
    #[arg(long)]
    pub against: String,
    /// Games of the search (rounded up to whole seat rotations; one rotation is one evaluation).
    #[arg(long, default_value_t = 200, value_parser = parse_games)]
    pub budget: u64,
    /// Games of the confirmation of the pick (rounded up likewise).
    #[arg(long, default_value_t = 200, value_parser = parse_games)]
    pub confirm: u64,
    /// Master seed; the same seed gives the same tuning whatever the thread count.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Worker threads (0: one per core); with time_ms use 1 so budgets mean one core each.
    #[arg(long, default_value_t = 1, value_parser = parse_threads)]
    pub threads: usize,
    /// NTBEA's exploration constant.
    #[arg(long, default_value_t = 1.0, allow_negative_numbers = true)]
    pub k: f64,
    /// Neighbours the model scores per evaluation.
    #[arg(long, default_value_t = 50)]
    pub neighbours: usize,
    /// Directory for tune.csv (every game) and summary.md.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Write the pick as a preset file (agents/ format).
    #[arg(long)]
    pub preset_out: Option<PathBuf>,
    /// Overwrite an earlier tune.csv in --out or the --preset-out file.
    #[arg(long)]
    pub force: bool,
}

/// Arguments of `quality`.
#[derive(Debug, clap::Args)]
pub struct QualityArgs {
    /// Game spec.
    #[arg(long)]
    pub game: String,
    /// Agents, one per seat, comma-separated; they rotate over the seats. A
    /// single agent fills every seat.
    #[arg(long)]
    pub agents: String,
    /// Games (rounded up to whole seat rotations).
    #[arg(long, default_value_t = 100, value_parser = parse_games)]
    pub games: u64,
    /// Master seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Worker threads (0: one per core); the results do not depend on it.
    #[arg(long, default_value_t = 0, value_parser = parse_threads)]
    pub threads: usize,
    /// A ladder.csv (from `boardlab ladder`) for the Elo spread from random to the best agent.
    #[arg(long)]
    pub ladder: Option<PathBuf>,
    /// Output directory (quality.csv, quality.md).
    #[arg(long)]
    pub out: PathBuf,
    /// Overwrite an existing quality.csv in --out.
    #[arg(long)]
    pub force: bool,
}

/// Arguments of `report`.
#[derive(Debug, clap::Args)]
pub struct ReportArgs {
    /// A run directory (games.csv) or an experiment directory (cells.csv).
    pub dir: PathBuf,
}

/// Arguments of `verify`.
#[derive(Debug, clap::Args)]
pub struct VerifyArgs {
    /// Study folders: each holds run.json, or run folders below it (cells/c000, ...).
    #[arg(required = true)]
    pub dirs: Vec<PathBuf>,
    /// Games replayed per run (the first ones of the run).
    #[arg(long, default_value_t = crate::files::SAMPLE_GAMES)]
    pub sample: usize,
    /// Worker threads (0: one per core).
    #[arg(long, default_value_t = 0, value_parser = parse_threads)]
    pub threads: usize,
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
    /// Decisions asked of the agent at each information set (an agent that states its
    /// policy exactly, such as cfr, is asked for it once instead).
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
    /// Budgets per decision in milliseconds of the searching thread's CPU, e.g. 5,10,20,40
    /// (equal thinking on a loaded machine).
    #[arg(long)]
    pub cpu_ms: Option<String>,
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
    /// Continue an interrupted ladder in --out (same arguments): its finished pairs are kept.
    #[arg(long, conflicts_with = "force")]
    pub resume: bool,
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

/// Arguments of `fit`.
#[derive(Debug, clap::Args)]
pub struct FitArgs {
    /// Game spec (a game with evaluation features, e.g. karmaka).
    #[arg(long)]
    pub game: String,
    /// The agent playing every seat of the self-play games.
    #[arg(long)]
    pub agent: String,
    /// Self-play games (the last --holdout share of them is held out).
    #[arg(long, default_value_t = 400)]
    pub games: u64,
    /// Master seed; game i plays on seed f(seed, i).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Every stride-th decision of a game is recorded, from every seat's view.
    #[arg(long, default_value_t = 4)]
    pub stride: u32,
    /// Share of the games held out to measure the fit.
    #[arg(long, default_value_t = 0.25)]
    pub holdout: f64,
    /// Ridge penalty on the weights.
    #[arg(long, default_value_t = 0.001)]
    pub l2: f64,
    /// Worker threads (0: one per core); the weights do not depend on it.
    #[arg(long, default_value_t = 0, value_parser = parse_threads)]
    pub threads: usize,
    /// The weights file to write (TOML).
    #[arg(long)]
    pub out: PathBuf,
    /// Replace the weights file if it exists.
    #[arg(long)]
    pub force: bool,
    /// Other weights to measure on the same held-out games, beside the new
    /// fit and the heuristic, named as an agent's `eval=` names them:
    /// `fitted` (the game's shipped weights), a weights set the game names
    /// (`boardlab agents` lists them, e.g. `race` in Hamunaptra) or a
    /// weights file written by `boardlab fit` (`@FILE` or a bare path).
    /// Printed only; the weights written do not depend on it.
    #[arg(long)]
    pub compare: Option<String>,
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
    /// Print the result as one JSON object (the progress lines go to standard error; an
    /// infinite Elo bound, as after a clean sweep, is null).
    #[arg(long)]
    pub json: bool,
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
    /// Play only shard K of N of every cell's games (1-based), e.g. 2/8; combine the
    /// output directories of all shards with `boardlab merge`.
    #[arg(long, value_name = "K/N", value_parser = parse_shard)]
    pub shard: Option<(u64, u64)>,
    /// No progress output.
    #[arg(long, short)]
    pub quiet: bool,
}

/// Arguments of `merge`.
#[derive(Debug, clap::Args)]
pub struct MergeArgs {
    /// Shard directories, each written by `run --shard K/N --out DIR` (or
    /// `experiment FILE --shard K/N --out DIR`, or `balance … --shard K/N --out DIR`).
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
    crate::arena::check_threads(text)
}

pub use crate::arena::MAX_GAMES;

/// A game count from 1 to [`MAX_GAMES`].
fn parse_games(text: &str) -> Result<u64, String> {
    crate::arena::check_games(text)
}

/// A `--move-timeout-ms` value, at most [`crate::agents::MAX_MOVE_MS`].
fn parse_move_timeout(text: &str) -> Result<u64, String> {
    let max = crate::agents::MAX_MOVE_MS;
    match text.trim().parse::<u64>() {
        Ok(n @ 1..) if n <= max => Ok(n),
        _ => Err(format!(
            "--move-timeout-ms takes milliseconds from 1 to {max} (an hour); got '{text}'"
        )),
    }
}

/// A `--max-errors` value: at least 1 (omit the flag for no limit).
fn parse_max_errors(text: &str) -> Result<u64, String> {
    match text.trim().parse::<u64>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err(format!(
            "'{text}' is not a number of faulty games from 1 (stop at the first); omit --max-errors for no limit"
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
    /// Comma-separated agents, one per seat, e.g. `random,mcts(iterations=1000)`;
    /// a single agent fills every seat (`--agents greedy`).
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
    /// Directory for one JSON-lines trace per game (replay with `boardlab replay`, draw with `boardlab view`).
    #[arg(long)]
    pub trace: Option<PathBuf>,
    /// Record at each search agent's decision the root's candidate actions with
    /// visits and values in the traces (larger traces; `boardlab view` shows them).
    #[arg(long, requires = "trace")]
    pub trace_search: bool,
    /// Overwrite results already in --out.
    #[arg(long, conflicts_with = "resume")]
    pub force: bool,
    /// Continue an interrupted run in --out (same arguments required); finished games are kept.
    #[arg(long, requires = "out")]
    pub resume: bool,
    /// Play only shard K of N of the game indices (1-based), e.g. 2/8; combine shards with `boardlab merge`.
    #[arg(long, value_name = "K/N", value_parser = parse_shard)]
    pub shard: Option<(u64, u64)>,
    /// Stop the run once this many games have ended in a fault (agent panic, illegal action,
    /// timeout), counted from this invocation's start: `--resume` after such a stop continues.
    #[arg(long, value_name = "N", value_parser = parse_max_errors)]
    pub max_errors: Option<u64>,
    /// A decision that takes longer than this forfeits the game (milliseconds, 1 to 3600000).
    /// Search agents see the limit as a deadline and stop in time, whatever their own budget;
    /// an agent that overruns is abandoned when it passes (see `arena::watchdog`).
    #[arg(long, value_name = "MS", value_parser = parse_move_timeout)]
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
    /// Print the summary as one JSON object (agents' and seats' tallies) instead of tables.
    #[arg(long)]
    pub json: bool,
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
    /// Comma-separated agents, one per seat (a single agent fills every seat);
    /// `human` for a person at the terminal.
    #[arg(long)]
    pub agents: String,
    /// Seed of the game.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Play in a browser: the board drawn as in `boardlab view`, moves clicked.
    #[arg(long)]
    pub html: bool,
    /// The localhost port of `--html` (0: a free port, printed at the start).
    #[arg(long, default_value_t = 0, requires = "html")]
    pub port: u16,
}

/// Arguments of `replay`.
#[derive(Debug, clap::Args)]
pub struct ReplayArgs {
    /// A trace file (game-NNNNNNNN.jsonl).
    pub file: PathBuf,
    /// The trace's game spec, required when it names data files: replay reads
    /// only files named on its command line, never one a trace names.
    #[arg(long)]
    pub game: Option<String>,
}

/// Arguments of `view`.
#[derive(Debug, clap::Args)]
pub struct ViewArgs {
    /// A trace file (game-NNNNNNNN.jsonl) written by `run --trace`.
    pub file: PathBuf,
    /// The HTML file to write (default: the trace's name with .html).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Replace the HTML file if it exists.
    #[arg(long)]
    pub force: bool,
    /// The trace's game spec, required when it names data files (as for `replay`).
    #[arg(long)]
    pub game: Option<String>,
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

/// Runs the CLI on the built-in games and maps errors to exit code 2 with a
/// one-line message.
pub fn main(cli: Cli) -> ExitCode {
    main_with(cli, &Registry::builtin())
}

/// [`main`] with the games and agent kinds of `registry`.
pub fn main_with(cli: Cli, registry: &Registry) -> ExitCode {
    match commands::dispatch(cli, registry) {
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

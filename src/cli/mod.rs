//! The command line: clap arguments in, library calls, errors out as one line
//! with exit code 2.

mod soak;

mod ablate;
mod balance;
mod bench;
mod commands;
mod design;
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
    Run(commands::RunArgs),
    /// Play one game interactively (use `human` for your seat).
    ///
    /// The other seats' moves and chance outcomes are narrated as each human
    /// seat sees them: a rival's secret draw is announced, not named.
    ///
    /// Example: boardlab play --game tictactoe --agents human,random
    Play(commands::PlayArgs),
    /// Re-simulate a trace file written by `run --trace` and print it turn by turn.
    Replay(commands::ReplayArgs),
    /// Draw a trace as one self-contained HTML page: every state as a picture,
    /// stepping controls, each seat's point of view, the action log and, for
    /// traces written with `run --trace-search`, the search's candidates.
    ///
    /// Example: boardlab view traces/game-00000000.jsonl --out game.html
    View(view::ViewArgs),
    /// Play many random games of every game and variant, checking every state.
    ///
    /// Example: boardlab soak --games 10000 --json
    Soak(soak::SoakArgs),
    /// List the games and their player counts, or one game's parameters in full.
    ///
    /// Example: boardlab games fox
    Games(listing::GamesArgs),
    /// List the agent kinds, the search parameters and the presets in agents/,
    /// or one kind or preset in full.
    ///
    /// Example: boardlab agents ismcts
    Agents(listing::AgentsArgs),
    /// Measure random-playout throughput (or an agent's search speed) on one thread.
    ///
    /// After a warm-up, --samples runs of equal length; each rate is given per
    /// second of wall time and per second of this thread's CPU time (which
    /// ignores time the process waited on a busy machine), as mean ± σ, min, max.
    ///
    /// Example: boardlab bench --game karmaka --seconds 5 --samples 10
    Bench(bench::BenchArgs),
    /// Run a study described in a TOML file: a parameter sweep × agent lineups.
    ///
    /// Example: boardlab experiment experiments/seats-fox.toml --out runs/seats-fox
    Experiment(commands::ExperimentArgs),
    /// Combine the shard directories of one run (`run --shard K/N`) into one result.
    Merge(commands::MergeArgs),
    /// Recompute summaries, ratings, a Markdown balance report and SVG plots from DIR/games.csv.
    ///
    /// Example: boardlab summarize results/demo
    Summarize(summarize::SummarizeArgs),
    /// Test whether agent A is stronger than agent B by elo1 (or not by more than elo0)
    /// with a sequential probability ratio test on game pairs with swapped seats.
    ///
    /// Exit code 0 when the test decides, 1 when --max-games is reached first.
    ///
    /// Example: boardlab sprt --game connect4 --agents 'mcts(iterations=400),random' --elo0 0 --elo1 50
    Sprt(sprt::SprtArgs),
    /// Exact exploitability of an agent's policy in a small two-player zero-sum
    /// game (Kuhn, Leduc): its policy is estimated at every information set from
    /// --samples decisions (or stated exactly, by cfr), then best responses are
    /// computed over the whole tree.
    ///
    /// Example: boardlab exploitability --game kuhn --agent ismcts-1k --samples 100
    Exploitability(exploitability::ExploitabilityArgs),
    /// Rate agents at doubling thinking budgets per decision: Elo (random = 0)
    /// against CPU per decision, as ladder.csv, meetings.csv and ladder.svg.
    ///
    /// Example: boardlab ladder --game fox --agents mcts,ismcts,greedy --time-ms 5,10,20 --games 40 --out results/ladders/fox
    Ladder(ladder::LadderArgs),
    /// Game-quality metrics (completion, drawishness, decisiveness, duration,
    /// branching, drama, lead changes, uncertainty, killer moves) and a
    /// skill-depth index, as quality.csv and quality.md.
    ///
    /// Example: boardlab quality --game connect4 --agents greedy,mcts-1k --games 200 --out results/quality-c4
    Quality(quality::QualityArgs),
    /// One self-contained HTML dashboard (report.html, with dashboard.md beside
    /// it) for a run or experiment directory, picking up optional study CSVs.
    ///
    /// Example: boardlab report results/fox-tile-sets
    Report(report::ReportArgs),
    /// Replay the first games of stored results (a run folder, an experiment
    /// folder, or a folder of them) with this binary and compare every column
    /// but the timings: fresh, stale (what differs) or not reproducible.
    ///
    /// A study whose README.md has a line starting with SUPERSEDED is skipped.
    /// Exit code 0 when everything is fresh or skipped, 1 otherwise.
    ///
    /// Example: boardlab verify results/seats-fox --sample 5
    Verify(verify::VerifyArgs),
    /// Tune an agent's parameters by games (NTBEA): mark each tuned parameter
    /// `key=?` (a default grid) or `key=[a,b,...]`; the pick is confirmed on
    /// games with seeds of their own and can be written as a preset.
    ///
    /// Example: boardlab tune --game fox --agent 'ismcts(time_ms=10,c=?,max_rollout=?)' --against fox-best-20ms --budget 400 --out runs/tune-fox
    Tune(tune::TuneArgs),
    /// Fit a game's linear evaluation from self-play: the features of sampled
    /// positions regressed on the final outcome (logistic), measured on
    /// held-out games against the heuristic; agents use it with eval=@FILE.
    ///
    /// Example: boardlab fit --game karmaka --agent greedy --games 400 --out karmaka-eval.toml
    Fit(fit::FitArgs),
    /// Seat and role balance of one search agent against itself at doubling
    /// budgets, until two consecutive budgets agree (TOST) or a cap; writes
    /// balance.csv, balance.json and balance.md (does the imbalance grow, shrink or flip),
    /// and every game of each budget (`games-<budget>.csv`) for --resume and `compare`.
    ///
    /// Example: boardlab balance --game fox --agent ismcts --budgets 250,500,1000 --until ci=0.03 --max-games 2000 --out results/balance/fox
    Balance(balance::BalanceArgs),
    /// A variant against its base game, game by game: the paired differences
    /// (seat and role win rates, endings, lengths) of two `balance` studies
    /// played on the same seeds, with their 95 % intervals; writes paired.csv and paired.md.
    ///
    /// Example: boardlab compare --base results/balance-hamunaptra --variant results/balance-hamunaptra-rule4
    Compare(balance::CompareArgs),
    /// Compensation solver: bisection with sequential tests on a numeric game
    /// parameter for the value where the first seat (or a role) wins at the target rate.
    ///
    /// Example: boardlab fair --game planted --param komi --range 0..0.5 --out results/fair/planted
    Fair(fair::FairArgs),
    /// Component ablation: each component the game lists is removed in turn and
    /// the games replayed on the same seeds; reports its paired effect on its holder's win rate.
    ///
    /// Example: boardlab ablate --game karmaka --agent greedy --games 1000 --out results/ablate/karmaka
    Ablate(ablate::AblateArgs),
    /// Cross-play of a population of agents: every assignment of members to the
    /// game's sides played on the same deals; the per-side payoff matrix and the
    /// meta-game's value (the first side's score when each side plays its best
    /// mix of the population), so that balance does not depend on which AI is asked.
    ///
    /// Example: boardlab metagame --game fox --agents greedy,ismcts-1k,'ismcts(iterations=1000,max_rollout=20)' --games 200 --out results/metagame/fox
    Metagame(metagame::MetagameArgs),
    /// Search a space of variants (switches, ranges, alternative data files)
    /// for a fair game that plays well: cheap agents screen, sequential tests
    /// drop the unfair, the survivors are confirmed at strong play (or by a
    /// population's meta-game); a ranked table and a recommendation, or
    /// "none within tolerance".
    ///
    /// Example: boardlab design experiments/design/planted.toml --out results/design-planted
    Design(design::DesignArgs),
    /// Print a shell completion script.
    ///
    /// Example: boardlab completions bash > ~/.local/share/bash-completion/completions/boardlab
    Completions(listing::CompletionsArgs),
    /// Print the manual page (roff).
    ///
    /// Example: boardlab man > boardlab.1 && man ./boardlab.1
    Man,
}

// The options many commands share, each declared once and flattened into
// the commands that take it. A command that says more about one of them
// adjusts its help (or default) with `mut_args`; flag names, value names and
// parsers stay the group's.

/// `--game`: the game a command plays.
#[derive(Debug, Clone, clap::Args)]
pub struct GameArg {
    /// Game spec, e.g. `connect4` or `fox(players=3)`.
    #[arg(long)]
    pub game: String,
}

/// `--game` given any number of times, or not at all: the [`GameArg`]
/// option made optional and repeatable, for a command that plays many games.
#[derive(Debug, Clone, Default)]
pub struct GameList {
    /// The game specs, in the order given.
    pub games: Vec<String>,
}

impl clap::FromArgMatches for GameList {
    fn from_arg_matches(m: &clap::ArgMatches) -> Result<Self, clap::Error> {
        let games = m
            .get_many::<String>("game")
            .map_or_else(Vec::new, |v| v.cloned().collect());
        Ok(GameList { games })
    }

    fn update_from_arg_matches(&mut self, m: &clap::ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(m)?;
        Ok(())
    }
}

impl clap::Args for GameList {
    fn augment_args(cmd: clap::Command) -> clap::Command {
        <GameArg as clap::Args>::augment_args(cmd).mut_args(repeatable("game"))
    }

    fn augment_args_for_update(cmd: clap::Command) -> clap::Command {
        Self::augment_args(cmd)
    }
}

/// `--seed`: the master seed that every game's seeds derive from.
#[derive(Debug, Clone, Copy, clap::Args)]
pub struct Seed {
    /// Master seed; the same seed gives the same results whatever the thread count.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// `--threads`: worker threads, which no result depends on.
#[derive(Debug, Clone, Copy, clap::Args)]
pub struct Threads {
    /// Worker threads (0: one per core); the results do not depend on it.
    #[arg(long, default_value_t = 0, value_parser = parse_threads)]
    pub threads: usize,
}

/// `--out` and `--force`: where a command writes, and whether it may
/// replace an earlier result there. Optional unless the command makes it
/// `required`; [`Output::dir`] reads it then.
#[derive(Debug, Clone, clap::Args)]
pub struct Output {
    /// Output directory.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Overwrite an earlier result in --out.
    #[arg(long)]
    pub force: bool,
}

impl Output {
    /// `--out` of a command that requires it.
    pub fn dir(&self) -> anyhow::Result<&std::path::Path> {
        self.out
            .as_deref()
            .ok_or_else(|| anyhow::anyhow!("--out is required"))
    }
}

// A command's own say on a shared option, as `#[command(mut_args(...))]`
// (which, unlike `mut_arg`, keeps the options in their order).

/// Makes the option `id` required.
fn required(id: &'static str) -> impl FnMut(clap::Arg) -> clap::Arg {
    move |arg| {
        if arg.get_id() == id {
            arg.required(true)
        } else {
            arg
        }
    }
}

/// Makes the option `id` optional: flattened as `Option<GameArg>`, the
/// group is `None` when the option is not given.
fn optional(id: &'static str) -> impl FnMut(clap::Arg) -> clap::Arg {
    move |arg| {
        if arg.get_id() == id {
            arg.required(false)
        } else {
            arg
        }
    }
}

/// Makes the option `id` optional and repeatable.
fn repeatable(id: &'static str) -> impl FnMut(clap::Arg) -> clap::Arg {
    move |arg| {
        if arg.get_id() == id {
            arg.required(false).action(clap::ArgAction::Append)
        } else {
            arg
        }
    }
}

/// Gives the option `id` this command's help text.
fn help(id: &'static str, text: &'static str) -> impl FnMut(clap::Arg) -> clap::Arg {
    move |arg| {
        if arg.get_id() == id {
            arg.help(text)
        } else {
            arg
        }
    }
}

/// Gives the option `id` this command's default value.
fn default(id: &'static str, value: &'static str) -> impl FnMut(clap::Arg) -> clap::Arg {
    move |arg| {
        if arg.get_id() == id {
            arg.default_value(value)
        } else {
            arg
        }
    }
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

/// Bootstrap resamples, from 1 to [`crate::stats::bootstrap::MAX_RESAMPLES`].
fn parse_resamples(text: &str) -> Result<usize, String> {
    crate::stats::bootstrap::check_resamples(text)
}

/// Games per ladder meeting, from 1 to [`crate::ladder::MAX_MEETING_GAMES`].
fn parse_meeting_games(text: &str) -> Result<u64, String> {
    crate::ladder::check_meeting_games(text, 1)
}

/// Games per ladder meeting, or 0 for no ladder.
fn parse_meeting_games_or_none(text: &str) -> Result<u64, String> {
    crate::ladder::check_meeting_games(text, 0)
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

    /// The commands' own say on the shared options reaches them (a misspelt
    /// id would silently change nothing).
    #[test]
    fn shared_options_take_each_command_s_say() {
        let cli = super::Cli::command();
        let arg = |command: &str, id: &str| {
            let sub = cli.find_subcommand(command).unwrap();
            sub.get_arguments()
                .find(|a| a.get_id() == id)
                .unwrap_or_else(|| panic!("{command} --{id}"))
                .clone()
        };
        for command in [
            "merge", "ladder", "quality", "fit", "balance", "fair", "ablate",
        ] {
            assert!(arg(command, "out").is_required_set(), "{command}");
        }
        for command in ["run", "tune", "experiment", "view"] {
            assert!(!arg(command, "out").is_required_set(), "{command}");
        }
        for (command, threads) in [("run", "0"), ("tune", "1"), ("ladder", "1")] {
            assert_eq!(arg(command, "threads").get_default_values(), [threads]);
        }
        let help = |command: &str, id: &str| arg(command, id).get_help().unwrap().to_string();
        assert_eq!(help("play", "seed"), "Seed of the game");
        assert_eq!(help("fit", "out"), "The weights file to write (TOML)");
        assert_eq!(
            help("fit", "force"),
            "Replace the weights file if it exists"
        );
        assert_eq!(help("sprt", "game"), "Game spec of a two-player game");
    }
}

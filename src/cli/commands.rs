//! One function per subcommand.

use std::path::PathBuf;

use anyhow::{Context, Result, bail};

use std::process::ExitCode;

use super::game::GameCommands;
use super::{
    Cli, Command, GameArg, Output, Registry, Seed, Threads, help, optional, parse_games,
    parse_max_errors, parse_move_timeout, parse_shard, parse_threads, parse_until, required,
};
use crate::arena::trace::{ActionLine, Header, ResultLine};
use crate::arena::{self, RunOptions, record};
use crate::game::Game;
use crate::runtime::GameSource;
use crate::spec::split_list;

/// Arguments of `run`.
#[derive(Debug, clap::Args)]
#[command(
    mut_args(help(
        "seed",
        "Master seed; the same seed gives the same games whatever the thread count"
    )),
    mut_args(help("threads", "Worker threads (0: one per core)")),
    mut_args(help("out", "Directory for games.csv, summary.csv and seats.csv"))
)]
pub struct RunArgs {
    /// `--game`.
    #[command(flatten)]
    pub game: GameArg,
    /// Comma-separated agents, one per seat, e.g. `random,mcts(iterations=1000)`;
    /// a single agent fills every seat (`--agents greedy`).
    #[arg(long)]
    pub agents: String,
    /// Number of games (rounded up to a multiple of the number of seats, so every agent sits in every seat equally often).
    #[arg(long, default_value_t = 100, value_parser = parse_games)]
    pub games: u64,
    /// `--seed`.
    #[command(flatten)]
    pub seed: Seed,
    /// `--threads`.
    #[command(flatten)]
    pub threads: Threads,
    /// `--out` and `--force`.
    #[command(flatten)]
    pub output: Output,
    /// Directory for one JSON-lines trace per game (replay with `boardlab replay`, draw with `boardlab view`).
    #[arg(long)]
    pub trace: Option<PathBuf>,
    /// Record at each search agent's decision the root's candidate actions with
    /// visits and values in the traces (larger traces; `boardlab view` shows them).
    #[arg(long, requires = "trace")]
    pub trace_search: bool,
    /// Continue an interrupted run in --out (same arguments required); finished games are kept.
    #[arg(long, requires = "out", conflicts_with = "force")]
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
    #[arg(long, value_name = "N", requires = "until", value_parser = parse_games)]
    pub max_games: Option<u64>,
    /// No progress bar.
    #[arg(long, short)]
    pub quiet: bool,
    /// Print the summary as one JSON object (agents' and seats' tallies) instead of tables.
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `play`.
#[derive(Debug, clap::Args)]
#[command(mut_args(help("seed", "Seed of the game")))]
pub struct PlayArgs {
    /// `--game`.
    #[command(flatten)]
    pub game: GameArg,
    /// Comma-separated agents, one per seat (a single agent fills every seat);
    /// `human` for a person at the terminal.
    #[arg(long)]
    pub agents: String,
    /// `--seed`.
    #[command(flatten)]
    pub seed: Seed,
    /// Play in a browser: the board drawn as in `boardlab view`, moves clicked.
    #[arg(long)]
    pub html: bool,
    /// The localhost port of `--html` (0: a free port, printed at the start).
    #[arg(long, default_value_t = 0, requires = "html")]
    pub port: u16,
}

/// Arguments of `replay`.
#[derive(Debug, clap::Args)]
#[command(
    mut_args(optional("game")),
    mut_args(help(
        "game",
        "The trace's game spec, required when it names data files: replay reads only files named on its command line, never one a trace names"
    ))
)]
pub struct ReplayArgs {
    /// A trace file (game-NNNNNNNN.jsonl).
    pub file: PathBuf,
    /// `--game`, optional.
    #[command(flatten)]
    pub game: Option<GameArg>,
}

/// Arguments of `experiment`.
#[derive(Debug, clap::Args)]
#[command(
    mut_args(help("out", "Output directory (default: results/<file name without .toml>)")),
    mut_args(help("force", "Overwrite an earlier output"))
)]
pub struct ExperimentArgs {
    /// The experiment file (see experiments/ for examples).
    pub file: PathBuf,
    /// `--out` and `--force`.
    #[command(flatten)]
    pub output: Output,
    /// Worker threads, overriding the file's setting.
    #[arg(long, value_parser = parse_threads)]
    pub threads: Option<usize>,
    /// Continue an interrupted experiment: finished games of every cell are kept.
    #[arg(long, conflicts_with = "force")]
    pub resume: bool,
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
#[command(
    mut_args(required("out")),
    mut_args(help("out", "Directory for the merged results"))
)]
pub struct MergeArgs {
    /// Shard directories, each written by `run --shard K/N --out DIR` (or
    /// `experiment FILE --shard K/N --out DIR`, or `balance … --shard K/N --out DIR`).
    #[arg(required = true)]
    pub dirs: Vec<PathBuf>,
    /// `--out` and `--force`.
    #[command(flatten)]
    pub output: Output,
}

pub(super) fn dispatch(cli: Cli, registry: &Registry) -> Result<ExitCode> {
    match cli.command {
        Command::Run(a) => return run(a, registry),
        Command::Play(a) => play_interactive(a, registry)?,
        Command::Replay(a) => replay(a, registry)?,
        Command::View(a) => super::view::run(a, registry)?,
        Command::Soak(a) => super::soak::run(a, registry)?,
        Command::Games(a) => super::listing::games(&a, registry)?,
        Command::Agents(a) => super::listing::agents(&a, registry)?,
        Command::Completions(a) => super::listing::completions(a)?,
        Command::Man => super::listing::man()?,
        Command::Bench(a) => super::bench::bench(a, registry)?,
        Command::Merge(a) => merge(a, registry)?,
        Command::Experiment(a) => experiment(a, registry)?,
        Command::Summarize(a) => super::summarize::summarize(a)?,
        Command::Sprt(a) => return super::sprt::sprt(a, registry),
        Command::Exploitability(a) => super::exploitability::exploitability(a, registry)?,
        Command::Ladder(a) => super::ladder::run(a, registry)?,
        Command::Quality(a) => super::quality::run(a, registry)?,
        Command::Report(a) => super::report::run(a)?,
        Command::Verify(a) => return super::verify::run(a),
        Command::Tune(a) => super::tune::run(a, registry)?,
        Command::Fit(a) => super::fit::run(a)?,
        Command::Balance(a) => super::balance::run(a, registry)?,
        Command::Compare(a) => super::balance::compare(&a)?,
        Command::Fair(a) => super::fair::run(a, registry)?,
        Command::Ablate(a) => super::ablate::run(a, registry)?,
        Command::Metagame(a) => super::metagame::run(a, registry)?,
        Command::Design(a) => super::design::run(a, registry)?,
    }
    Ok(ExitCode::SUCCESS)
}

/// The agents of a comma-separated list, one per seat; a single agent fills
/// every seat, as an experiment's single-agent lineup does.
pub(super) fn seat_agents(text: &str, seats: usize) -> Result<Vec<String>> {
    let agents = split_list(text)?;
    Ok(match &agents[..] {
        [one] => vec![one.clone(); seats],
        _ => agents,
    })
}

fn experiment(a: ExperimentArgs, registry: &Registry) -> Result<()> {
    arena::play::quiet_contained_panics();
    let exp = crate::experiment::Experiment::load_in(registry, &a.file)?;
    let stem = a
        .file
        .file_stem()
        .map_or("experiment".into(), |s| s.to_string_lossy().to_string());
    let out = a
        .output
        .out
        .clone()
        .unwrap_or_else(|| std::path::PathBuf::from("results").join(stem));
    let opts = crate::experiment::ExperimentOptions {
        out: out.clone(),
        threads: a.threads,
        resume: a.resume,
        force: a.output.force,
        progress: !a.quiet,
        command: crate::provenance::command_line(),
        shard: a.shard,
    };
    let results = crate::experiment::run_in(registry, &exp, &a.file, &opts)?;
    for r in &results {
        println!(
            "{} {} [{}]",
            r.cell.id,
            r.cell.game,
            r.cell.agents.join(", ")
        );
        print!("{}", record::format_table(&r.agents));
    }
    if let Some((k, n)) = a.shard {
        println!("shard {k}/{n} of every cell: combine the shards with boardlab merge");
    }
    println!("results in {}", out.display());
    Ok(())
}

fn merge(a: MergeArgs, registry: &Registry) -> Result<()> {
    let out = a.output.dir()?;
    if a.dirs[0].join(crate::files::SHARD_FILE).exists() {
        return super::balance::merge(&a, registry);
    }
    // The shards of an experiment hold a copy of its file and a run per cell.
    if a.dirs[0].join(crate::files::EXPERIMENT_FILE).exists() {
        let command = std::env::args().collect::<Vec<_>>().join(" ");
        let cells = crate::experiment::merge_in(registry, &a.dirs, out, a.output.force, &command)?;
        println!(
            "merged {} shard directories of an experiment: {} cells into {}",
            a.dirs.len(),
            cells.len(),
            out.display()
        );
        return Ok(());
    }
    // A game registered from another crate is merged as that game; the
    // built-in ones (and unreadable shards) by `merge`, which names the problem.
    let added = arena::manifest::read(&a.dirs[0])
        .ok()
        .and_then(|m| crate::spec::Spec::parse(&m.identity.game).ok())
        .filter(|spec| registry.is_added(&spec.name));
    let merged = match added {
        Some(spec) => registry.game(&spec)?.merge(&a.dirs, out, a.output.force)?,
        None => crate::runtime::merge(&a.dirs, out, a.output.force)?,
    };
    println!(
        "merged {} shard directories: {} games of {} into {}",
        a.dirs.len(),
        merged.games,
        merged.manifest.identity.game,
        out.display()
    );
    Ok(())
}

fn run(a: RunArgs, registry: &Registry) -> Result<ExitCode> {
    arena::play::quiet_contained_panics();
    let game = registry.parse(&a.game.game)?;
    let agents = seat_agents(&a.agents, game.num_players())?;
    let opts = a.options();
    let waited_before = arena::watchdog::waited();
    let out = game.run(&agents, &opts)?;
    let waited = arena::watchdog::waited().saturating_sub(waited_before);
    let spec = game.spec();
    let played = match out.stop_reason {
        Some(_) => out.resumed + out.played,
        None => out.games,
    };
    if a.json {
        let summary = super::json::run(&spec, a.seed.seed, played, &out, a.output.out.as_deref());
        println!("{summary}");
        if out.stopped {
            eprintln!(
                "boardlab: error: stopped after {} faulty games (--max-errors); the games so far are saved, --resume continues",
                out.errors
            );
            return Ok(ExitCode::from(1));
        }
        return Ok(ExitCode::SUCCESS);
    }
    if out.resumed > 0 {
        println!(
            "resumed: {} games were already done, {} played now",
            out.resumed, out.played
        );
    }
    if let Some((k, n)) = a.shard {
        println!(
            "shard {k}/{n}: {} of the run's {} games",
            out.resumed + out.played,
            out.games
        );
    }
    if out.rounded {
        println!(
            "note: {} games requested, {} played so that every agent sits in every seat equally often",
            opts.games, out.games
        );
    }
    if let Some(reason) = &out.stop_reason {
        println!("stopped: {reason}");
    }
    let deals = if a.duplicate {
        format!(
            " ({} duplicate deals)",
            played / out.seats.len().max(1) as u64
        )
    } else {
        String::new()
    };
    println!("{spec}: {played} games{deals}, seed {}", a.seed.seed);
    print!("{}", record::format_table(&out.agents));
    let seats: Vec<String> = out
        .seats
        .iter()
        .map(|s| {
            format!(
                "seat {}: {:.3} [{:.3}, {:.3}]",
                s.seat, s.tally.win_rate, s.tally.ci_low, s.tally.ci_high
            )
        })
        .collect();
    println!("win rate by seat: {}", seats.join("; "));
    if out.errors > 0 {
        println!(
            "warning: {} games ended in a fault (see the error column)",
            out.errors
        );
    }
    if waited >= std::time::Duration::from_millis(100) {
        println!(
            "warning: moves waited {:.1} s in all (summed over threads) for computations abandoned at the move limit to end (at most {} run at once, since a thread cannot be stopped): an agent that ignores its deadline slows the run",
            waited.as_secs_f64(),
            arena::watchdog::max_strays()
        );
    }
    let finished = out.resumed + out.played;
    if out.capped * 2 > finished {
        println!(
            "warning: {} of {finished} games ended at a length or round cap (truncated): the results describe capped games, check the game's data and parameters",
            out.capped
        );
    }
    if let Some(dir) = &a.output.out {
        println!("results in {}", dir.display());
    }
    if out.stopped {
        eprintln!(
            "boardlab: error: stopped after {} faulty games (--max-errors); the games so far are saved, --resume continues",
            out.errors
        );
        return Ok(ExitCode::from(1));
    }
    Ok(ExitCode::SUCCESS)
}

impl RunArgs {
    /// The runner's options, converted once from the command line.
    fn options(&self) -> RunOptions {
        RunOptions {
            games: self.max_games.unwrap_or(self.games),
            seed: self.seed.seed,
            threads: self.threads.threads,
            out: self.output.out.clone(),
            trace: self.trace.clone(),
            trace_search: self.trace_search,
            force: self.output.force,
            resume: self.resume,
            shard: self.shard,
            max_errors: self.max_errors,
            move_timeout: self.move_timeout_ms.map(std::time::Duration::from_millis),
            keep_rows: false,
            progress: !self.quiet,
            progress_into: None,
            command: crate::provenance::command_line(),
            duplicate: self.duplicate,
            until: self.until,
            fixed_seats: false,
            interrupt: None,
        }
    }
}

fn play_interactive(a: PlayArgs, registry: &Registry) -> Result<()> {
    arena::play::quiet_contained_panics();
    let game = registry.command_game(&a.game.game)?;
    let agents = seat_agents(&a.agents, game.num_players())?;
    game.check_agents(&agents)?;
    game.play(&agents, a.seed.seed, a.html.then_some(a.port))
}

fn replay(a: ReplayArgs, registry: &Registry) -> Result<()> {
    let (header, game, rest) =
        open_trace(registry, &a.file, a.game.as_ref().map(|g| g.game.as_str()))?;
    game.replay(&header, &rest)
}

/// Reads a trace: its header, its game (the spec the command line gives
/// when the trace's game reads data files) and the lines after the header.
pub(super) fn open_trace(
    registry: &Registry,
    file: &std::path::Path,
    game: Option<&str>,
) -> Result<(Header, Box<dyn GameCommands>, Vec<String>)> {
    let text = crate::fsutil::read_text(file, crate::fsutil::MAX_TRACE_BYTES)
        .with_context(|| format!("cannot read trace {}", file.display()))?;
    let mut lines = text.lines();
    let first = lines.next().context("empty trace file")?;
    // Only a JSON object can be a header; of anything else nothing is quoted.
    if serde_json::from_str::<serde_json::Map<String, serde_json::Value>>(first).is_err() {
        bail!(
            "{} is not a trace file: its first line is not a JSON header",
            file.display()
        );
    }
    let header: Header = serde_json::from_str(first)
        .with_context(|| format!("malformed trace header in {}", file.display()))?;
    // A trace never names a file to read: a game reading data files is
    // replayed only when the command line gives that same spec.
    let spec = crate::spec::Spec::parse(&header.game)?;
    let info = registry.games().find(|g| g.name == spec.name);
    let file_param = spec.params.iter().find(|(k, _)| {
        info.is_some_and(|g| {
            g.params
                .iter()
                .any(|p| p.name == *k && p.default.starts_with("embedded"))
        })
    });
    match (game, file_param) {
        (Some(given), _) if given != header.game => {
            bail!("--game {given} is not the trace's game {}", header.game)
        }
        (None, Some((key, _))) => bail!(
            "the trace's game reads a data file ({key}=...), and replay reads no file a trace names; give the spec with --game '{}' to replay it",
            header.game
        ),
        _ => {}
    }
    let game = registry.command_game(&header.game)?;
    let rest: Vec<String> = lines.map(str::to_string).collect();
    Ok((header, game, rest))
}

pub(super) fn replay_lines<G: Game>(game: &G, header: &Header, lines: &[String]) -> Result<()> {
    let Some((last, actions)) = lines.split_last() else {
        bail!("trace has no result line");
    };
    let expected: ResultLine = serde_json::from_str(last).context("malformed trace result line")?;
    if header.agents.len() != game.num_players() {
        bail!(
            "the trace's header names {} agents, but {} has {} seats",
            header.agents.len(),
            header.game,
            game.num_players()
        );
    }
    let mut rng = crate::rng::stream_rng(header.seed, crate::rng::Stream::Game);
    let mut state = game.initial_state(&mut rng);
    println!(
        "{} seed {} agents {}",
        header.game,
        header.seed,
        header.agents.join(", ")
    );
    println!("{}", game.render(&state, None));
    for (i, line) in actions.iter().enumerate() {
        let step: ActionLine<G::Action> = serde_json::from_str(line)
            .with_context(|| format!("malformed trace line {}", i + 2))?;
        if !crate::arena::trace::is_legal_step(game, &state, step.player, step.action) {
            bail!(
                "trace step {} ({}) is not legal in the re-simulated game",
                step.step,
                step.label
            );
        }
        let who = step.player.map_or("chance".to_string(), |p| {
            format!("seat {p} ({})", header.agents[p as usize])
        });
        println!(
            "{:>4}. {who}: {}",
            step.step,
            game.action_label(&state, step.action)
        );
        let before = game.turn(&state);
        game.apply(&mut state, step.action);
        if before != game.turn(&state) {
            println!("{}", game.render(&state, None));
        }
    }
    crate::arena::trace::check_result(game, &state, &expected).map_err(anyhow::Error::msg)?;
    println!(
        "result: {} (returns {:?}){}",
        expected.outcomes.join(", "),
        expected.returns,
        if expected.ending.is_empty() {
            String::new()
        } else {
            format!(", ending {}", expected.ending)
        }
    );
    Ok(())
}

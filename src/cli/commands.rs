//! One function per subcommand.

use anyhow::{Context, Result, bail};

use std::process::ExitCode;

use super::game::GameCommands;
use super::{Cli, Command, ExperimentArgs, MergeArgs, PlayArgs, Registry, ReplayArgs, RunArgs};
use crate::arena::trace::{ActionLine, Header, ResultLine};
use crate::arena::{self, RunOptions, record};
use crate::game::Game;
use crate::runtime::GameSource;
use crate::spec::split_list;

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
        .out
        .clone()
        .unwrap_or_else(|| std::path::PathBuf::from("results").join(stem));
    let opts = crate::experiment::ExperimentOptions {
        out: out.clone(),
        threads: a.threads,
        resume: a.resume,
        force: a.force,
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
    if a.dirs[0].join(crate::files::SHARD_FILE).exists() {
        return super::balance::merge(&a, registry);
    }
    // The shards of an experiment hold a copy of its file and a run per cell.
    if a.dirs[0].join(crate::files::EXPERIMENT_FILE).exists() {
        let command = std::env::args().collect::<Vec<_>>().join(" ");
        let cells = crate::experiment::merge_in(registry, &a.dirs, &a.out, a.force, &command)?;
        println!(
            "merged {} shard directories of an experiment: {} cells into {}",
            a.dirs.len(),
            cells.len(),
            a.out.display()
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
        Some(spec) => registry.game(&spec)?.merge(&a.dirs, &a.out, a.force)?,
        None => crate::runtime::merge(&a.dirs, &a.out, a.force)?,
    };
    println!(
        "merged {} shard directories: {} games of {} into {}",
        a.dirs.len(),
        merged.games,
        merged.manifest.identity.game,
        a.out.display()
    );
    Ok(())
}

fn run(a: RunArgs, registry: &Registry) -> Result<ExitCode> {
    arena::play::quiet_contained_panics();
    let game = registry.parse(&a.game)?;
    let agents = seat_agents(&a.agents, game.num_players())?;
    let opts = RunOptions {
        games: a.max_games.unwrap_or(a.games),
        seed: a.seed,
        threads: a.threads,
        out: a.out.clone(),
        trace: a.trace.clone(),
        trace_search: a.trace_search,
        force: a.force,
        resume: a.resume,
        shard: a.shard,
        max_errors: a.max_errors,
        move_timeout: a.move_timeout_ms.map(std::time::Duration::from_millis),
        keep_rows: false,
        progress: !a.quiet,
        command: crate::provenance::command_line(),
        duplicate: a.duplicate,
        until: a.until,
        fixed_seats: false,
    };
    let out = game.run(&agents, &opts)?;
    let spec = game.spec();
    let played = match out.stop_reason {
        Some(_) => out.resumed + out.played,
        None => out.games,
    };
    if a.json {
        let summary = super::json::run(&spec, a.seed, played, &out, a.out.as_deref());
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
    println!("{spec}: {played} games{deals}, seed {}", a.seed);
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
    let finished = out.resumed + out.played;
    if out.capped * 2 > finished {
        println!(
            "warning: {} of {finished} games ended at a length or round cap (truncated): the results describe capped games, check the game's data and parameters",
            out.capped
        );
    }
    if let Some(dir) = &a.out {
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

fn play_interactive(a: PlayArgs, registry: &Registry) -> Result<()> {
    arena::play::quiet_contained_panics();
    let game = registry.command_game(&a.game)?;
    let agents = seat_agents(&a.agents, game.num_players())?;
    game.check_agents(&agents)?;
    game.play(&agents, a.seed, a.html.then_some(a.port))
}

fn replay(a: ReplayArgs, registry: &Registry) -> Result<()> {
    let (header, game, rest) = open_trace(registry, &a.file, a.game.as_deref())?;
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

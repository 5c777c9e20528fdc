//! `boardlab metagame`: cross-play of a population (see [`crate::metagame`]).

use anyhow::{Context, Result};

use super::{GameArg, Output, Registry, Seed, Threads, help, required};
use crate::metagame::{MetagameOptions, Payoff};
use crate::spec::split_list;

/// Arguments of `metagame`.
#[derive(Debug, clap::Args)]
#[command(
    mut_args(help(
        "seed",
        "Master seed, shared by every cell: game g of every cell is dealt from the same seed"
    )),
    mut_args(required("out")),
    mut_args(help(
        "out",
        "Output directory: cells/ (one run per assignment), matrix.csv, metagame.json, metagame.md"
    )),
    mut_args(help("force", "Replace an earlier meta-game in --out"))
)]
pub struct MetagameArgs {
    /// `--game`.
    #[command(flatten)]
    pub game: GameArg,
    /// The population: agent specs separated by commas, e.g.
    /// greedy,ismcts-1k,'pimc(iterations=200)'. A member containing {budget}
    /// is played at each of --budgets.
    #[arg(long)]
    pub agents: String,
    /// Games per cell (the cap with --until).
    #[arg(long, default_value_t = 200, value_parser = super::parse_games)]
    pub games: u64,
    /// `--seed`.
    #[command(flatten)]
    pub seed: Seed,
    /// What a side scores: win (1, draw ½, loss 0) or return (the game's returns; constant-sum games only).
    #[arg(long, default_value = "win")]
    pub payoff: String,
    /// Budgets substituted for {budget} in the members, increasing, e.g. 100,200,400:
    /// one meta-game per budget and convergence.csv (is the value stable?).
    #[arg(long)]
    pub budgets: Option<String>,
    /// Two consecutive budgets agree when the TOST shows their values within ± this.
    #[arg(long, default_value_t = 0.03)]
    pub tolerance: f64,
    /// Play each cell until every seat's 95 % half-width is at most X (e.g. ci=0.05), or --games.
    #[arg(long, value_name = "ci=X", value_parser = super::parse_until)]
    pub until: Option<f64>,
    /// Bootstrap resamples for the value's interval.
    #[arg(long, default_value_t = 1000, value_parser = super::parse_resamples)]
    pub bootstrap: usize,
    /// `--threads`.
    #[command(flatten)]
    pub threads: Threads,
    /// `--out` and `--force`.
    #[command(flatten)]
    pub output: Output,
    /// Continue an interrupted meta-game in --out with the same options: complete games are kept.
    #[arg(long, conflicts_with = "force")]
    pub resume: bool,
    /// Play only cells i with i mod N = K - 1 (1-based), e.g. 2/8, and solve
    /// nothing: every shard writes into the same --out (a shared folder on a
    /// cluster); when all are done, the same command without --shard and with
    /// --resume reads every finished cell and solves.
    #[arg(long, value_name = "K/N", value_parser = super::parse_shard)]
    pub shard: Option<(u64, u64)>,
    /// Matched CPU: before playing, set every search's iterations so that it
    /// spends about MS CPU milliseconds per decision in self-play on this
    /// machine (greedy and random members are kept as written). The members
    /// found are kept in --out/calibration.json and reused by --resume, the
    /// shards and verify, so the games replay on any machine.
    #[arg(long, value_name = "MS", conflicts_with = "budgets")]
    pub match_cpu: Option<f64>,
    /// Self-play games per calibration trial (two trials per search).
    #[arg(long, default_value_t = 4, value_parser = super::parse_games, requires = "match_cpu")]
    pub calibration_games: u64,
    /// Calibrate (--match-cpu), write calibration.json and stop: the step to
    /// run once before shards.
    #[arg(long, requires = "match_cpu")]
    pub calibrate_only: bool,
    /// No progress on stderr.
    #[arg(long)]
    pub quiet: bool,
}

pub(super) fn run(a: MetagameArgs, registry: &Registry) -> Result<()> {
    crate::arena::play::quiet_contained_panics();
    let game = registry.parse(&a.game.game)?;
    let budgets = match &a.budgets {
        None => Vec::new(),
        Some(text) => text
            .split(',')
            .map(|t| {
                t.trim().parse::<u64>().ok().filter(|&v| v > 0).with_context(|| {
                    format!("--budgets takes increasing positive whole numbers separated by commas, e.g. 100,200,400; got '{t}'")
                })
            })
            .collect::<Result<Vec<u64>>>()?,
    };
    let opts = MetagameOptions {
        agents: split_list(&a.agents)?,
        budgets,
        games: a.games,
        seed: a.seed.seed,
        threads: a.threads.threads,
        out: a.output.dir()?.to_path_buf(),
        force: a.output.force,
        resume: a.resume,
        until: a.until,
        payoff: Payoff::parse(&a.payoff)?,
        bootstrap: a.bootstrap,
        tolerance: a.tolerance,
        progress: !a.quiet && std::io::IsTerminal::is_terminal(&std::io::stderr()),
        command: crate::provenance::command_line(),
        shard: a.shard,
        match_cpu: a.match_cpu,
        calibration_games: a.calibration_games,
    };
    let mut opts = opts;
    if opts.match_cpu.is_some() {
        let calibration = crate::metagame::matched_population(game.as_ref(), &opts, &mut |m| {
            if !a.quiet {
                eprintln!("{}", calibrated_line(m));
            }
        })?;
        println!(
            "matched at {} CPU ms per decision ({}):",
            calibration.cpu_ms,
            opts.out
                .join(crate::metagame::calibrate::CALIBRATION_FILE)
                .display()
        );
        for m in &calibration.members {
            println!("  {}", calibrated_line(m));
        }
        if a.calibrate_only {
            return Ok(());
        }
        opts.agents = calibration.population();
        opts.match_cpu = None;
    }
    let solutions = crate::metagame::run(game.as_ref(), &opts)?;
    if let Some((k, n)) = a.shard {
        println!(
            "shard {k}/{n}: its cells are in {}; when every shard is done, run the same command without --shard and with --resume to solve",
            opts.out.join("cells").display()
        );
        return Ok(());
    }
    for (budget, sol) in &solutions {
        let at = budget.map_or(String::new(), |b| format!(" at budget {b}"));
        let what = if sol.solution == "nash" {
            "value of the meta-game"
        } else {
            "side 0 at the replicator mix"
        };
        let mixes: Vec<String> = sol
            .support
            .iter()
            .enumerate()
            .map(|(s, mix)| {
                let m: Vec<String> = mix
                    .iter()
                    .map(|w| format!("{} {:.2}", w.agent, w.weight))
                    .collect();
                format!("{}: {}", sol.sides[s].name, m.join(", "))
            })
            .collect();
        println!(
            "{}{at}: {what} {:.3} [{:.3}, {:.3}]{}; mixes: {}",
            sol.game,
            sol.value,
            sol.ci_low,
            sol.ci_high,
            sol.fair
                .map_or(String::new(), |f| format!(" (fair {f:.3})")),
            mixes.join("; ")
        );
    }
    println!("results in {}", opts.out.display());
    Ok(())
}

/// One calibrated member as a line: what was written, what plays, what it cost.
fn calibrated_line(m: &crate::metagame::calibrate::Calibrated) -> String {
    match (m.measured_ms, m.measured_at) {
        (Some(ms), Some(at)) => format!(
            "{} -> {} ({ms:.2} ms a decision at {at} iterations)",
            m.given, m.resolved
        ),
        _ => format!("{} (no search: kept as written)", m.given),
    }
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use crate::metagame::{MetagameOptions, Payoff};

    /// `MetagameOptions::default()` is what the library's callers (design,
    /// Python) get: it must be the command line's defaults, flag by flag.
    #[test]
    fn the_options_default_is_the_command_line_s() {
        let cli = super::super::Cli::try_parse_from([
            "boardlab",
            "metagame",
            "--game",
            "fox",
            "--agents",
            "greedy,random",
            "--out",
            "x",
        ])
        .unwrap();
        let super::super::Command::Metagame(a) = cli.command else {
            panic!("not the metagame command");
        };
        let d = MetagameOptions::default();
        assert_eq!(a.games, d.games);
        assert_eq!(a.seed.seed, d.seed);
        assert_eq!(a.threads.threads, d.threads);
        assert_eq!(Payoff::parse(&a.payoff).unwrap(), d.payoff);
        assert_eq!(a.bootstrap, d.bootstrap);
        assert_eq!(a.tolerance, d.tolerance);
        assert_eq!(a.calibration_games, d.calibration_games);
        assert_eq!(a.until, d.until);
        assert_eq!(a.match_cpu, d.match_cpu);
        assert_eq!(a.resume, d.resume);
        assert!(a.budgets.is_none() && d.budgets.is_empty());
    }
}

//! `boardlab quality`: game-quality metrics and the skill-depth index (see
//! [`crate::analysis::quality`]), written as `quality.csv` and `quality.md`.

use std::path::PathBuf;

use anyhow::{Context, Result, bail};

use super::{GameArg, Output, Registry, Seed, Threads, help, parse_games, required};
use crate::agents::registry::AgentSpec;
use crate::analysis::quality;

/// Arguments of `quality`.
#[derive(Debug, clap::Args)]
#[command(
    mut_args(required("out")),
    mut_args(help("out", "Output directory (quality.csv, quality.md)")),
    mut_args(help("force", "Overwrite an existing quality.csv in --out"))
)]
pub struct QualityArgs {
    /// `--game`.
    #[command(flatten)]
    pub game: GameArg,
    /// Agents, one per seat, comma-separated; they rotate over the seats. A
    /// single agent fills every seat.
    #[arg(long)]
    pub agents: String,
    /// Games (rounded up to whole seat rotations).
    #[arg(long, default_value_t = 100, value_parser = parse_games)]
    pub games: u64,
    /// `--seed`.
    #[command(flatten)]
    pub seed: Seed,
    /// `--threads`.
    #[command(flatten)]
    pub threads: Threads,
    /// A ladder.csv (from `boardlab ladder`) for the Elo spread from random to the best agent.
    #[arg(long)]
    pub ladder: Option<PathBuf>,
    /// `--out` and `--force`.
    #[command(flatten)]
    pub output: Output,
}

pub(super) fn run(a: QualityArgs, registry: &Registry) -> Result<()> {
    let out = a.output.dir()?;
    let game = registry.command_game(&a.game.game)?;
    let agents = super::commands::seat_agents(&a.agents, game.num_players())?;
    registry.builtin_agents_only("quality", agents.iter().map(String::as_str))?;
    let specs = agents
        .iter()
        .map(|t| AgentSpec::parse(t))
        .collect::<Result<Vec<_>, _>>()?;
    let ladder = a
        .ladder
        .as_deref()
        .map(quality::ladder_depth)
        .transpose()
        .map_err(anyhow::Error::msg)?;
    let csv = out.join("quality.csv");
    if csv.exists() && !a.output.force {
        bail!(
            "{} already holds quality.csv (use --force to overwrite, or another --out)",
            out.display()
        );
    }
    let games = game.quality(&specs, a.games, a.seed.seed, a.threads.threads)?;
    let metrics = quality::metrics(&games);
    std::fs::create_dir_all(out).with_context(|| format!("cannot create {}", out.display()))?;
    let title = format!("{} with {}", a.game.game, a.agents);
    let save = |name: &str, text: String| {
        let path = out.join(name);
        crate::fsutil::write_atomic(&path, text)
            .with_context(|| format!("cannot write {}", path.display()))
    };
    save("quality.csv", quality::to_csv(&metrics, ladder.as_ref()))?;
    save(
        "quality.md",
        quality::to_markdown(&title, &metrics, ladder.as_ref()),
    )?;
    for m in &metrics {
        if m.low.is_finite() {
            println!(
                "{:<15} {:>9.3} [{:.3}, {:.3}]",
                m.name, m.value, m.low, m.high
            );
        } else {
            println!("{:<15} {:>9.3}", m.name, m.value);
        }
    }
    if let Some(l) = &ladder {
        println!(
            "{:<15} {:>9.1} [{:.1}, {:.1}] ({})",
            "elo_spread", l.spread, l.low, l.high, l.best
        );
    }
    Ok(())
}

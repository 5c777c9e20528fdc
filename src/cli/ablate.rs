//! `boardlab ablate`: component ablation (see [`crate::balance::ablate`]).

use anyhow::Result;

use super::{GameArg, Output, Registry, Seed, Threads, help, parse_games, required};
use crate::balance::ablate::{AblateOptions, ablate_in};
use crate::balance::{prepare_out, save};
use crate::spec::split_list;

/// Arguments of `ablate`.
#[derive(Debug, clap::Args)]
#[command(
    mut_args(required("out")),
    mut_args(help("out", "Output directory for ablate.csv, ablate.json and ablate.md"))
)]
pub struct AblateArgs {
    /// `--game`.
    #[command(flatten)]
    pub game: GameArg,
    /// The agent in every seat.
    #[arg(long, default_value = "random")]
    pub agent: String,
    /// Games with and without each component.
    #[arg(long, default_value_t = 1000, value_parser = parse_games)]
    pub games: u64,
    /// Only these components, comma-separated (names as listed in ablate.csv).
    #[arg(long)]
    pub components: Option<String>,
    /// `--seed`.
    #[command(flatten)]
    pub seed: Seed,
    /// `--threads`.
    #[command(flatten)]
    pub threads: Threads,
    /// `--out` and `--force`.
    #[command(flatten)]
    pub output: Output,
}

pub(super) fn run(a: AblateArgs, registry: &Registry) -> Result<()> {
    crate::arena::play::quiet_contained_panics();
    let out = a.output.dir()?;
    let game = registry.command_game(&a.game.game)?;
    let only = match &a.components {
        Some(list) => Some(split_list(list)?),
        None => None,
    };
    let opts = AblateOptions {
        agent: a.agent.clone(),
        games: a.games,
        only,
        seed: a.seed.seed,
        threads: a.threads.threads,
    };
    let _out = prepare_out(out, "ablate.csv", a.output.force)?;
    let r = ablate_in(registry, &*game, &opts)?;
    save(out, "ablate.csv", &r.to_csv())?;
    save(out, "ablate.json", &serde_json::to_string_pretty(&r)?)?;
    let md = r.to_markdown();
    save(out, "ablate.md", &md)?;
    print!("{md}");
    Ok(())
}

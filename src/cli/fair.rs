//! `boardlab fair`: the compensation solver (see [`crate::balance::fair`]).

use anyhow::{Result, bail};

use super::{GameArg, Output, Registry, Seed, Threads, help, parse_games, required};
use crate::balance::fair::{FairOptions, solve_in};
use crate::balance::{Group, prepare_out, save};

/// Arguments of `fair`.
#[derive(Debug, clap::Args)]
#[command(
    mut_args(help("game", "Game spec (the parameter is set on top of it)")),
    mut_args(help("seed", "Master seed (the same seeds at every probe)")),
    mut_args(required("out")),
    mut_args(help("out", "Output directory for fair.csv, fair.json and fair.md"))
)]
pub struct FairArgs {
    /// `--game`.
    #[command(flatten)]
    pub game: GameArg,
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

/// Reads `A..B`.
fn range(text: &str) -> Result<(f64, f64)> {
    let bad =
        || anyhow::anyhow!("--range takes A..B with numbers A < B, e.g. 0..0.5; got '{text}'");
    let (a, b) = text.split_once("..").ok_or_else(bad)?;
    let (a, b): (f64, f64) = (
        a.trim().parse().map_err(|_| bad())?,
        b.trim().parse().map_err(|_| bad())?,
    );
    if !(a.is_finite() && b.is_finite() && a < b) {
        return Err(bad());
    }
    Ok((a, b))
}

pub(super) fn run(a: FairArgs, registry: &Registry) -> Result<()> {
    crate::arena::play::quiet_contained_panics();
    let out = a.output.dir()?;
    let (lo, hi) = range(&a.range)?;
    if let Some(p) = a.precision
        && !(p > 0.0 && p.is_finite())
    {
        bail!("--precision must be a positive number, got {p}");
    }
    let opts = FairOptions {
        game: a.game.game.clone(),
        param: a.param.clone(),
        range: (lo, hi),
        agent: a.agent.clone(),
        target: a.target,
        group: match &a.faction {
            Some(f) => Group::Role(f.clone()),
            None => Group::Seat(a.seat),
        },
        max_games: a.max_games,
        precision: a.precision.unwrap_or((hi - lo) / 64.0),
        seed: a.seed.seed,
        threads: a.threads.threads,
    };
    let _out = prepare_out(out, "fair.csv", a.output.force)?;
    let r = solve_in(registry, &opts)?;
    save(out, "fair.csv", &r.to_csv())?;
    save(out, "fair.json", &serde_json::to_string_pretty(&r)?)?;
    let md = r.to_markdown();
    save(out, "fair.md", &md)?;
    print!("{md}");
    Ok(())
}

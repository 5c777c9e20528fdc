//! `boardlab fair`: the compensation solver (see [`crate::balance::fair`]).

use anyhow::{Result, bail};

use super::{FairArgs, Registry};
use crate::balance::fair::{FairOptions, solve_in};
use crate::balance::{Group, prepare_out, save};

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

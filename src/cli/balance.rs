//! `boardlab balance`: balance against skill (see [`crate::balance::skill`]).

use anyhow::{Context, Result, bail};

use super::{BalanceArgs, CompareArgs, MergeArgs, Registry};
use crate::balance::records::Records;
use crate::balance::skill::{SkillOptions, SkillResult};
use crate::balance::{prepare_out, save};
use crate::files::BALANCE_RUN_FILE;

pub(super) fn run(a: BalanceArgs, registry: &Registry) -> Result<()> {
    crate::arena::play::quiet_contained_panics();
    let out = a.output.dir()?;
    let budgets = a
        .budgets
        .split(',')
        .map(|t| {
            t.trim().parse::<u64>().ok().filter(|&v| v > 0).with_context(|| {
                format!("--budgets takes increasing positive whole numbers separated by commas, e.g. 250,500,1000; got '{t}'")
            })
        })
        .collect::<Result<Vec<u64>>>()?;
    if !(a.tolerance > 0.0 && a.tolerance < 0.5) {
        bail!("--tolerance must be between 0 and 0.5, got {}", a.tolerance);
    }
    if let Some(s) = a.max_seconds
        && (s.is_nan() || s <= 0.0)
    {
        bail!("--max-seconds must be positive, got {s}");
    }
    let game = registry.command_game(&a.game.game)?;
    let opts = SkillOptions {
        agent: a.agent.clone(),
        budgets,
        until: a.until,
        max_games: a.max_games,
        duplicate: a.duplicate,
        tolerance: a.tolerance,
        max_seconds: a.max_seconds,
        ladder_games: a.ladder_games,
        seed: a.seed.seed,
        threads: a.threads.threads,
        progress: true,
    };
    if a.shard.is_some() && (a.until.is_some() || a.max_seconds.is_some()) {
        bail!(
            "--shard plays a fixed share of --max-games at every budget; drop --until and --max-seconds"
        );
    }
    // Check every input before creating the output directory.
    registry.builtin_agents_only("balance", [a.agent.as_str()])?;
    let _ = crate::agents::registry::AgentSpec::parse(&a.agent)?;
    if let Some(shard) = a.shard {
        let _out = prepare_out(out, crate::files::SHARD_FILE, a.output.force)?;
        game.balance_shard(&opts, shard, out)?;
        println!(
            "played shard {}/{} into {}; combine every shard with `boardlab merge`",
            shard.0,
            shard.1,
            out.display()
        );
        return Ok(());
    }
    let _out = if a.resume {
        if !out.is_dir() {
            bail!(
                "cannot resume in {}: no such directory (drop --resume to start the study)",
                out.display()
            );
        }
        crate::fsutil::OutputLock::claim(out)
            .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", out.display()))?
    } else {
        let lock = prepare_out(out, "balance.csv", a.output.force)?;
        if !a.output.force && out.join(BALANCE_RUN_FILE).exists() {
            bail!(
                "{} holds an unfinished balance study (use --resume to continue it, --force to start over, or another --out)",
                out.display()
            );
        }
        lock
    };
    let records = Records {
        dir: out,
        resume: a.resume,
    };
    write(out, &game.balance(&opts, records)?)
}

/// `compare`: the paired differences of a variant's balance study against the base game's.
pub(super) fn compare(a: &CompareArgs) -> Result<()> {
    let c = crate::balance::paired::compare(&a.base, &a.variant)?;
    let out = a.out.as_ref().unwrap_or(&a.variant);
    let _out = crate::fsutil::OutputLock::claim(out)
        .with_context(|| format!("cannot write {}", out.display()))?;
    save(out, "paired.csv", &c.to_csv())?;
    let md = c.to_markdown();
    save(out, "paired.md", &md)?;
    print!("{md}");
    Ok(())
}

/// `merge` of the shard directories of one `balance --shard` command.
pub(super) fn merge(a: &MergeArgs, registry: &Registry) -> Result<()> {
    let out = a.output.dir()?;
    let spec = crate::balance::shard::read_spec(&a.dirs[0])?;
    let game = registry.command_game(&spec.game)?;
    let _out = prepare_out(out, "balance.csv", a.output.force)?;
    write(out, &game.balance_merge(&a.dirs, out)?)
}

/// Writes balance.csv, balance.json and balance.md and prints the last.
fn write(out: &std::path::Path, r: &SkillResult) -> Result<()> {
    save(out, "balance.csv", &r.to_csv())?;
    save(out, "balance.json", &serde_json::to_string_pretty(&r)?)?;
    let md = r.to_markdown();
    save(out, "balance.md", &md)?;
    print!("{md}");
    Ok(())
}

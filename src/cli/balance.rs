//! `boardlab balance`: balance against skill (see [`crate::balance::skill`]).

use anyhow::{Context, Result, bail};

use super::{BalanceArgs, Registry};
use crate::balance::skill::SkillOptions;
use crate::balance::{prepare_out, save};

pub(super) fn run(a: BalanceArgs, registry: &Registry) -> Result<()> {
    crate::arena::play::quiet_contained_panics();
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
    let game = registry.command_game(&a.game)?;
    let opts = SkillOptions {
        agent: a.agent.clone(),
        budgets,
        until: a.until,
        max_games: a.max_games,
        duplicate: a.duplicate,
        tolerance: a.tolerance,
        max_seconds: a.max_seconds,
        ladder_games: a.ladder_games,
        seed: a.seed,
        threads: a.threads,
    };
    // Check every input before creating the output directory.
    registry.builtin_agents_only("balance", [a.agent.as_str()])?;
    let _ = crate::agents::registry::AgentSpec::parse(&a.agent)?;
    prepare_out(&a.out, "balance.csv", a.force)?;
    let r = game.balance(&opts)?;
    save(&a.out, "balance.csv", &r.to_csv())?;
    save(&a.out, "balance.json", &serde_json::to_string_pretty(&r)?)?;
    let md = r.to_markdown();
    save(&a.out, "balance.md", &md)?;
    print!("{md}");
    Ok(())
}

//! `boardlab ladder`: Elo against thinking budget per decision (see
//! [`crate::ladder`]), written as `ladder.csv`, `meetings.csv` and `ladder.svg`.

use anyhow::{Context, Result, bail};

use super::{LadderArgs, Registry};
use crate::agents::MAX_MOVE_MS;
use crate::game::Game;
use crate::ladder::{self, BudgetUnit, LadderPlan};
use crate::spec::split_list;

/// Reads a list of positive integers up to `max`, such as `10,20,40`.
fn budgets(text: &str, flag: &str, max: u64) -> Result<Vec<u64>> {
    text.split(',')
        .map(|t| {
            t.trim()
                .parse::<u64>()
                .ok()
                .filter(|&v| v > 0 && v <= max)
                .with_context(|| format!("{flag} takes whole numbers from 1 to {max} separated by commas, e.g. 10,20,40; got '{t}'"))
        })
        .collect()
}

pub(super) fn run(a: LadderArgs, registry: &Registry) -> Result<()> {
    crate::arena::play::quiet_contained_panics();
    let (list, unit) = match (&a.time_ms, &a.iterations, &a.cpu_ms) {
        (Some(t), None, None) => (budgets(t, "--time-ms", MAX_MOVE_MS)?, BudgetUnit::Millis),
        (None, Some(i), None) => (
            budgets(i, "--iterations", u64::from(u32::MAX))?,
            BudgetUnit::Iterations,
        ),
        (None, None, Some(c)) => (budgets(c, "--cpu-ms", MAX_MOVE_MS)?, BudgetUnit::CpuMillis),
        _ => bail!("give exactly one of --time-ms, --iterations or --cpu-ms"),
    };
    if a.games == 0 {
        bail!("--games must be at least 1");
    }
    let game = registry.command_game(&a.game)?;
    let agents = split_list(&a.agents)?;
    registry.builtin_agents_only("ladder", agents.iter().map(String::as_str))?;
    let plan = ladder::plan(&agents, &list, unit)?;
    let out = &a.out;
    let csv = out.join("ladder.csv");
    if csv.exists() && !a.force {
        bail!(
            "{} already holds a ladder (use --force to overwrite, or another --out)",
            out.display()
        );
    }
    std::fs::create_dir_all(out).with_context(|| format!("cannot create {}", out.display()))?;
    println!(
        "{}: {} entrants, {} meetings of {} games",
        a.game,
        plan.entrants.len(),
        plan.meetings.len(),
        a.games.div_ceil(2) * 2
    );
    game.ladder(&plan, &a)
}

pub(super) fn write<G: Game>(game: &G, plan: &LadderPlan, a: &LadderArgs) -> Result<()> {
    let r = ladder::play_ladder(game, plan, a.games, a.seed, a.threads, a.resamples)?;
    let save = |name: &str, text: String| {
        let path = a.out.join(name);
        crate::fsutil::write_atomic(&path, text)
            .with_context(|| format!("cannot write {}", path.display()))
    };
    save("ladder.csv", r.to_csv(plan.unit))?;
    save("meetings.csv", r.meetings_csv(plan))?;
    let svg = a.out.join("ladder.svg");
    r.plot(
        &svg,
        &format!("{}: Elo against CPU per decision", game.spec()),
    )
    .with_context(|| format!("cannot write {}", svg.display()))?;
    for rung in &r.rungs {
        println!(
            "{:<40} {:>9.3} ms/decision  Elo {:+7.1} [{:+.1}, {:+.1}]",
            rung.entrant.spec.label, rung.cpu_ms, rung.elo.estimate, rung.elo.low, rung.elo.high
        );
    }
    Ok(())
}

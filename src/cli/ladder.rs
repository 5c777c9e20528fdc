//! `boardlab ladder`: Elo against thinking budget per decision (see
//! [`crate::ladder`]), written as `ladder.csv`, `meetings.csv` and `ladder.svg`.

use anyhow::{Context, Result, bail};

use super::{GameArg, Output, Registry, Seed, Threads, default, help, required};
use crate::agents::MAX_MOVE_MS;
use crate::game::Game;
use crate::ladder::{self, BudgetUnit, LadderPlan};
use crate::spec::split_list;

/// Arguments of `ladder`.
#[derive(Debug, clap::Args)]
#[command(
    mut_args(help("game", "Game spec of a two-player game")),
    mut_args(default("threads", "1")),
    mut_args(help(
        "threads",
        "Worker threads (0: one per core); with --time-ms use 1 so budgets mean one core each"
    )),
    mut_args(required("out")),
    mut_args(help("force", "Overwrite an existing ladder in --out"))
)]
pub struct LadderArgs {
    /// `--game`.
    #[command(flatten)]
    pub game: GameArg,
    /// Agents, comma-separated; search agents (mcts, pimc, ismcts and their presets)
    /// are rated at every budget, others (greedy) once; random play is always the anchor.
    #[arg(long)]
    pub agents: String,
    /// Budgets per decision in milliseconds of wall time on one core, e.g. 10,20,40.
    #[arg(long)]
    pub time_ms: Option<String>,
    /// Budgets per decision in search iterations, e.g. 100,200,400 (reproducible).
    #[arg(long)]
    pub iterations: Option<String>,
    /// Budgets per decision in milliseconds of the searching thread's CPU, e.g. 5,10,20,40
    /// (equal thinking on a loaded machine).
    #[arg(long)]
    pub cpu_ms: Option<String>,
    /// Games per meeting (rounded up to pairs with the seats swapped).
    #[arg(long, default_value_t = 20, value_parser = super::parse_meeting_games)]
    pub games: u64,
    /// `--seed`.
    #[command(flatten)]
    pub seed: Seed,
    /// `--threads`.
    #[command(flatten)]
    pub threads: Threads,
    /// Bootstrap resamples for the Elo intervals.
    #[arg(long, default_value_t = 200, value_parser = super::parse_resamples)]
    pub resamples: usize,
    /// `--out` and `--force`.
    #[command(flatten)]
    pub output: Output,
    /// Continue an interrupted ladder in --out (same arguments): its finished pairs are kept.
    #[arg(long, conflicts_with = "force")]
    pub resume: bool,
}

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
    let game = registry.command_game(&a.game.game)?;
    let agents = split_list(&a.agents)?;
    registry.builtin_agents_only("ladder", agents.iter().map(String::as_str))?;
    let plan = ladder::plan(&agents, &list, unit)?;
    let out = a.output.dir()?;
    let pairs = a.games.div_ceil(2);
    // What makes two invocations the same ladder, kept for --resume.
    let identity = serde_json::json!({
        "game": game.spec(),
        "entrants": plan.entrants.iter().map(|e| e.spec.label.clone()).collect::<Vec<_>>(),
        "games": pairs * 2,
        "seed": a.seed.seed,
    });
    let id_path = out.join("ladder.json");
    let journal_path = out.join("pairs.csv");
    let _out = crate::fsutil::OutputLock::claim(out)
        .with_context(|| format!("cannot write {}", out.display()))?;
    let journal = if a.resume {
        let text = crate::fsutil::read_text(&id_path, 1 << 20).with_context(|| {
            format!(
                "--resume needs an interrupted ladder in {}: cannot read its ladder.json",
                out.display()
            )
        })?;
        let stored: serde_json::Value = serde_json::from_str(&text)
            .with_context(|| format!("{} is not valid JSON", id_path.display()))?;
        for (key, value) in identity.as_object().expect("an object") {
            if stored.get(key) != Some(value) {
                bail!(
                    "--resume: the ladder in {} has {key} {}, this command {value}; give the same --game, --agents, budgets, --games and --seed",
                    out.display(),
                    stored.get(key).map_or("missing".into(), |v| v.to_string())
                );
            }
        }
        let j = ladder::Journal::resume(&journal_path, &plan, pairs)?;
        println!("resuming: {} pairs of games already played", j.pairs_done());
        j
    } else {
        if (out.join("ladder.csv").exists() || journal_path.exists()) && !a.output.force {
            bail!(
                "{} already holds a ladder (use --force to overwrite, --resume to continue it, or another --out)",
                out.display()
            );
        }
        crate::fsutil::write_atomic(&id_path, format!("{identity:#}\n"))
            .with_context(|| format!("cannot write {}", id_path.display()))?;
        ladder::Journal::create(&journal_path)?
    };
    println!(
        "{}: {} entrants, {} meetings of {} games",
        a.game.game,
        plan.entrants.len(),
        plan.meetings.len(),
        pairs * 2
    );
    game.ladder(&plan, &a, &journal)
}

pub(super) fn write<G: Game>(
    game: &G,
    plan: &LadderPlan,
    a: &LadderArgs,
    journal: &ladder::Journal,
) -> Result<()> {
    let r = ladder::play_ladder(
        game,
        plan,
        a.games,
        a.seed.seed,
        a.threads.threads,
        a.resamples,
        Some(journal),
        true,
    )?;
    let out = a.output.dir()?;
    let save = |name: &str, text: String| {
        let path = out.join(name);
        crate::fsutil::write_atomic(&path, text)
            .with_context(|| format!("cannot write {}", path.display()))
    };
    save("ladder.csv", r.to_csv(plan.unit))?;
    save("meetings.csv", r.meetings_csv(plan))?;
    let svg = out.join("ladder.svg");
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

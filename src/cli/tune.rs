//! `boardlab tune`: NTBEA over an agent's parameters (see [`crate::tune`]),
//! a table of the pick and the model's top settings, `tune.csv` and a preset.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};

use super::{GameArg, Output, Registry, Seed, Threads, default, help, parse_games};
use crate::agents::registry::AgentSpec;
use crate::game::Game;
use crate::tune::ntbea::Ntbea;
use crate::tune::{self, SearchSpace, TuneOptions};

/// Arguments of `tune`.
#[derive(Debug, clap::Args)]
#[command(
    mut_args(default("threads", "1")),
    mut_args(help(
        "threads",
        "Worker threads (0: one per core); with time_ms use 1 so budgets mean one core each"
    )),
    mut_args(help("out", "Directory for tune.csv (every game) and summary.md")),
    mut_args(help(
        "force",
        "Overwrite an earlier tune.csv in --out or the --preset-out file"
    ))
)]
pub struct TuneArgs {
    /// `--game`.
    #[command(flatten)]
    pub game: GameArg,
    /// The agent template, e.g. `ismcts(time_ms=10, c=?, rollout=[random,mast])`.
    #[arg(long)]
    pub agent: String,
    /// The opponent in every other seat.
    #[arg(long)]
    pub against: String,
    /// Games of the search (rounded up to whole seat rotations; one rotation is one evaluation).
    #[arg(long, default_value_t = 200, value_parser = parse_games)]
    pub budget: u64,
    /// Games of the confirmation of the pick (rounded up likewise).
    #[arg(long, default_value_t = 200, value_parser = parse_games)]
    pub confirm: u64,
    /// `--seed`.
    #[command(flatten)]
    pub seed: Seed,
    /// `--threads`.
    #[command(flatten)]
    pub threads: Threads,
    /// NTBEA's exploration constant.
    #[arg(long, default_value_t = 1.0, allow_negative_numbers = true)]
    pub k: f64,
    /// Neighbours the model scores per evaluation.
    #[arg(long, default_value_t = 50)]
    pub neighbours: usize,
    /// `--out` and `--force`.
    #[command(flatten)]
    pub output: Output,
    /// Write the pick as a preset file (agents/ format).
    #[arg(long)]
    pub preset_out: Option<PathBuf>,
}

pub(super) fn run(a: TuneArgs, registry: &Registry) -> Result<()> {
    crate::arena::play::quiet_contained_panics();
    if !(a.k.is_finite() && a.k >= 0.0) {
        bail!("--k must be a finite number >= 0; {} given", a.k);
    }
    if a.neighbours == 0 {
        bail!("--neighbours must be at least 1");
    }
    let game = registry.command_game(&a.game.game)?;
    registry.builtin_agents_only("tune", [a.agent.as_str(), a.against.as_str()])?;
    let space = SearchSpace::parse(&a.agent)?;
    let against = AgentSpec::parse(&a.against)?;
    if let Some(dir) = &a.output.out
        && dir.join("tune.csv").exists()
        && !a.output.force
    {
        bail!(
            "{} already holds a tuning (use --force to overwrite, or another --out)",
            dir.display()
        );
    }
    if let Some(dir) = &a.output.out {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    if let Some(p) = &a.preset_out {
        if p.extension().is_none_or(|e| e != "toml") {
            bail!("--preset-out must name a .toml file; {} given", p.display());
        }
        if p.exists() && !a.output.force {
            bail!("{} exists (use --force to overwrite)", p.display());
        }
        let parent = p.parent().filter(|d| !d.as_os_str().is_empty());
        if parent.is_some_and(|d| !d.is_dir()) {
            bail!("cannot write {}: its directory does not exist", p.display());
        }
    }
    game.tune(&space, &against, &a)
}

pub(super) fn tune_game<G: Game>(
    game: &G,
    space: &SearchSpace,
    against: &AgentSpec,
    a: &TuneArgs,
) -> Result<()> {
    let n = game.num_players() as u64;
    if a.budget < 2 * n {
        bail!(
            "--budget must be at least {} games (two seat rotations of {}); {} given",
            2 * n,
            game.spec(),
            a.budget
        );
    }
    let opts = TuneOptions {
        budget: a.budget,
        confirm: a.confirm,
        seed: a.seed.seed,
        threads: a.threads.threads,
        ntbea: Ntbea {
            k: a.k,
            neighbours: a.neighbours,
        },
        progress: true,
    };
    let grid: usize = space.sizes().iter().product();
    println!(
        "{}: tuning {} ({} settings) against {}; {} games in rotations of {n}, seed {}",
        game.spec(),
        a.agent.trim(),
        grid,
        against.label,
        a.budget.div_ceil(n) * n,
        a.seed.seed
    );
    let r = tune::tune(game, space, against, &opts)?;
    let (won, games, lo, hi) = r.confirmation;
    let rate = won / games as f64;
    let mut text = String::new();
    text.push_str(&format!(
        "# Tuning {} in {} against {}\n\n",
        a.agent.trim(),
        game.spec(),
        against.label
    ));
    text.push_str(&format!(
        "NTBEA (1-, 2- and n-tuples, k = {}, {} neighbours): {} evaluations of {n} games, seed {}.\n\n",
        a.k,
        a.neighbours,
        r.model.evaluations(),
        a.seed.seed
    ));
    text.push_str("| | setting | win rate | 95 % interval | games |\n|---|---|---:|---|---:|\n");
    text.push_str(&format!(
        "| best | `{}` | {rate:.3} | [{lo:.3}, {hi:.3}] | {games} |\n\n",
        space.describe(&r.best)
    ));
    text.push_str(&format!(
        "Confirmation games use seeds of their own. Agent: `{}`\n\n",
        space.setting(&r.best).label
    ));
    text.push_str("Top settings by the n-tuple model (search games):\n\n");
    text.push_str(
        "| rank | setting | model | evaluations | their mean |\n|---:|---|---:|---:|---:|\n",
    );
    for (i, (p, mean)) in r.model.ranked().iter().take(10).enumerate() {
        let s = r.model.full(p);
        text.push_str(&format!(
            "| {} | `{}` | {mean:.3} | {} | {:.3} |\n",
            i + 1,
            space.describe(p),
            s.n,
            s.mean()
        ));
    }
    print!("{text}");
    if let Some(dir) = &a.output.out {
        write(&dir.join("tune.csv"), &tune::records_csv(space, &r.records))?;
        write(&dir.join("summary.md"), &text)?;
    }
    if let Some(path) = &a.preset_out {
        let description = format!(
            "Tuned by NTBEA in {} against {} ({} games, seed {}): wins {rate:.3} [{lo:.3}, {hi:.3}] of {games} confirmation games",
            game.spec(),
            against.label,
            a.budget.div_ceil(n) * n,
            a.seed.seed
        );
        write(path, &tune::preset_toml(space, &r.best, &description))?;
    }
    Ok(())
}

/// Writes through a temporary file, so a failed write leaves no half file.
fn write(path: &Path, text: &str) -> Result<()> {
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, text)
        .and_then(|()| std::fs::rename(&tmp, path))
        .with_context(|| format!("cannot write {}", path.display()))
}

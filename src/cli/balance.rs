//! `boardlab balance`: balance against skill (see [`crate::balance::skill`]).

use std::path::PathBuf;

use anyhow::{Context, Result, bail};

use super::commands::MergeArgs;
use super::{
    GameArg, Output, Registry, Seed, Threads, parse_games, parse_shard, parse_until, required,
};
use crate::balance::records::Records;
use crate::balance::skill::{SkillOptions, SkillResult};
use crate::balance::{prepare_out, save};
use crate::files::BALANCE_RUN_FILE;

/// Arguments of `balance`.
#[derive(Debug, clap::Args)]
#[command(mut_args(required("out")))]
pub struct BalanceArgs {
    /// `--game`.
    #[command(flatten)]
    pub game: GameArg,
    /// The search agent in every seat (mcts, pimc, ismcts or a preset); its iterations are set to each budget.
    #[arg(long, default_value = "ismcts")]
    pub agent: String,
    /// Increasing budgets in search iterations per decision, e.g. 250,500,1000.
    #[arg(long)]
    pub budgets: String,
    /// Play each budget until every seat's and role's 95 % half-width is at most X (e.g. ci=0.03), or --max-games.
    #[arg(long, value_name = "ci=X", value_parser = parse_until)]
    pub until: Option<f64>,
    /// Games per budget (the cap with --until).
    #[arg(long, default_value_t = 1000, value_parser = parse_games)]
    pub max_games: u64,
    /// Duplicate deals: each deal is played once per seating; intervals count deals, not games.
    #[arg(long)]
    pub duplicate: bool,
    /// Two budgets agree when the TOST shows every seat and role within ± this.
    #[arg(long, default_value_t = 0.05)]
    pub tolerance: f64,
    /// Start no new budget after this many seconds.
    #[arg(long)]
    pub max_seconds: Option<f64>,
    /// Games per ladder meeting for the Elo column, two-player games only (0: none).
    #[arg(long, default_value_t = 20, value_parser = super::parse_meeting_games_or_none)]
    pub ladder_games: u64,
    /// `--seed`.
    #[command(flatten)]
    pub seed: Seed,
    /// `--threads`.
    #[command(flatten)]
    pub threads: Threads,
    /// Play only shard K of N of every budget's games and ladder pairs (1-based), e.g.
    /// 2/8; combine the output directories of all shards with `boardlab merge`.
    #[arg(long, value_name = "K/N", value_parser = parse_shard)]
    pub shard: Option<(u64, u64)>,
    /// `--out` and `--force`.
    #[command(flatten)]
    pub output: Output,
    /// Continue the interrupted (or time-capped) study in --out, given the same
    /// options: its complete games are kept and only the rest is played. A
    /// larger --max-games extends a finished study the same way.
    #[arg(long, conflicts_with_all = ["shard", "force"])]
    pub resume: bool,
}

/// Arguments of `compare`.
#[derive(Debug, clap::Args)]
pub struct CompareArgs {
    /// The base game's `balance` output directory.
    #[arg(long)]
    pub base: PathBuf,
    /// The variant's `balance` output directory, played with the same --seed.
    #[arg(long)]
    pub variant: PathBuf,
    /// Where to write paired.csv and paired.md (default: the variant's directory).
    #[arg(long)]
    pub out: Option<PathBuf>,
}

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
    save(out, crate::balance::page::PAIRED_FILE, &c.to_csv())?;
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

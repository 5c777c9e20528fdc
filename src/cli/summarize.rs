//! `boardlab summarize DIR`: rebuilds a run's summaries, ratings and report
//! from its `games.csv` alone, so that analysis can change after the games
//! were played (or be redone on merged or hand-filtered rows).

use std::path::PathBuf;

use anyhow::Result;

use super::{Seed, help};
use crate::arena::{manifest, record};
use crate::report::balance::ReportMeta;
use crate::report::stream::{self, Summary};
use crate::stats::ratings::RatingOptions;

/// Arguments of `summarize`.
#[derive(Debug, clap::Args)]
#[command(mut_args(help("seed", "Seed of the bootstrap")))]
pub struct SummarizeArgs {
    /// A result directory holding games.csv (and run.json, whose agent list is used when present).
    pub dir: PathBuf,
    /// Title of the report (default: the game spec).
    #[arg(long)]
    pub title: Option<String>,
    /// Bootstrap resamples for the rating intervals.
    #[arg(long, default_value_t = 200, value_parser = super::parse_resamples)]
    pub resamples: usize,
    /// `--seed`.
    #[command(flatten)]
    pub seed: Seed,
}

pub(super) fn summarize(a: SummarizeArgs) -> Result<()> {
    // The manifest names every agent, even one without rows; without it the
    // rows name those that played.
    stream::check_games_count(&a.dir).map_err(anyhow::Error::msg)?;
    let _out = crate::fsutil::OutputLock::hold_existing(&a.dir)
        .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", a.dir.display()))?;
    let run = manifest::read(&a.dir).ok();
    let mut notes = Vec::new();
    if let Some(m) = &run {
        notes.push(format!("agents: {}", m.identity.resolved_agents.join(", ")));
        notes.push(format!("master seed: {}", m.identity.seed));
        notes.push(format!("command: `{}`", m.command));
        if m.identity.duplicate {
            notes.push("duplicate deals: each deal played once per seating".into());
        }
        if let Some(until) = &m.identity.until {
            notes.push(format!(
                "sequential: until {until}, at most {} games",
                m.identity.games
            ));
        }
        if let Some(stop) = &m.stop {
            notes.push(format!("stopped: {stop}"));
        }
    }
    let meta = ReportMeta {
        title: a.title.clone().unwrap_or_default(),
        notes,
    };
    let opts = RatingOptions {
        resamples: a.resamples,
        seed: a.seed.seed,
        ..RatingOptions::default()
    };
    let labels = run.as_ref().map(|m| m.identity.agents.as_slice());
    let Summary {
        agents,
        seats: seat_summaries,
        balance: b,
    } = stream::summarize(&a.dir, labels, &meta, &opts).map_err(anyhow::Error::msg)?;
    match &run {
        Some(m) => println!("{}: {} games, seed {}", b.game, b.games, m.identity.seed),
        None => println!("{}: {} games", b.game, b.games),
    }
    print!("{}", record::format_table(&agents));
    let by_seat: Vec<String> = seat_summaries
        .iter()
        .map(|s| {
            format!(
                "seat {}: {:.3} [{:.3}, {:.3}]",
                s.seat, s.tally.win_rate, s.tally.ci_low, s.tally.ci_high
            )
        })
        .collect();
    println!("win rate by seat: {}", by_seat.join("; "));
    let ratings: Vec<String> = b
        .ratings
        .agents
        .iter()
        .map(|r| format!("{} {:+.0}", r.agent, r.elo.estimate))
        .collect();
    println!(
        "ratings ({}, Elo): {}",
        b.ratings.model.name(),
        ratings.join("; ")
    );
    println!(
        "summary.csv, seats.csv, ratings.csv, {} and plots in {}",
        crate::files::REPORT_FILE,
        a.dir.display()
    );
    Ok(())
}

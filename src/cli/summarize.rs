//! `boardlab summarize DIR`: rebuilds a run's summaries, ratings and report
//! from its `games.csv` alone, so that analysis can change after the games
//! were played (or be redone on merged or hand-filtered rows).

use anyhow::{Result, bail};

use super::SummarizeArgs;
use crate::arena::{manifest, record};
use crate::report::balance::{self, ReportMeta};
use crate::stats::ratings::RatingOptions;

pub(super) fn summarize(a: SummarizeArgs) -> Result<()> {
    let rows = record::read_games(&a.dir.join("games.csv")).map_err(anyhow::Error::msg)?;
    if rows.is_empty() {
        bail!("{} has no games", a.dir.join("games.csv").display());
    }
    // The manifest names every agent, even one without rows; without it the
    // rows name those that played.
    // Agents and seats are few: a larger index is not a games.csv row.
    if let Some(r) = rows.iter().find(|r| {
        r.agent_index >= crate::game::MAX_PLAYERS || r.seat as usize >= crate::game::MAX_PLAYERS
    }) {
        bail!(
            "games.csv: game {} names agent {} in seat {}, beyond the {} seats a game can have",
            r.game_index,
            r.agent_index,
            r.seat,
            crate::game::MAX_PLAYERS
        );
    }
    let run = manifest::read(&a.dir).ok();
    let labels = match &run {
        Some(m) => m.identity.agents.clone(),
        None => {
            let n = rows.iter().map(|r| r.agent_index + 1).max().unwrap_or(0);
            let mut labels = vec![String::new(); n];
            for r in &rows {
                labels[r.agent_index].clone_from(&r.agent);
            }
            labels
        }
    };
    if let Some(r) = rows.iter().find(|r| r.agent_index >= labels.len()) {
        bail!(
            "games.csv names agent {} but run.json lists only {}",
            r.agent_index,
            labels.len()
        );
    }
    let seats = rows.iter().map(|r| r.seat as usize + 1).max().unwrap_or(0);
    let agents = record::summarize_agents(&rows, &labels);
    let seat_summaries = record::summarize_seats(&rows, seats);
    let write = |name: &str, result: std::io::Result<()>| {
        result.map_err(|e| anyhow::anyhow!("cannot write {}: {e}", a.dir.join(name).display()))
    };
    write(
        "summary.csv",
        record::write_summary(&a.dir.join("summary.csv"), &agents),
    )?;
    write(
        "seats.csv",
        record::write_summary(&a.dir.join("seats.csv"), &seat_summaries),
    )?;
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
        seed: a.seed,
        ..RatingOptions::default()
    };
    let b = balance::write_report(&a.dir, &rows, &meta, &opts)
        .map_err(|e| anyhow::anyhow!("cannot write the report in {}: {e}", a.dir.display()))?;
    crate::report::metrics::append_to_report(&a.dir, &rows).map_err(|e| {
        anyhow::anyhow!(
            "cannot add the metrics to the report in {}: {e}",
            a.dir.display()
        )
    })?;
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
        balance::REPORT_FILE,
        a.dir.display()
    );
    Ok(())
}

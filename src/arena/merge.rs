//! Merging the shards of one run (`--shard K/N` on several machines) into the
//! files a single-machine run would have written.

use std::path::{Path, PathBuf};

use super::manifest::{self, Manifest};
use super::record::{self, GameRow};
use super::{RunError, Tallies, output_error};

/// What a merge produced.
#[derive(Debug)]
pub struct Merged {
    /// The common manifest (without a shard).
    pub manifest: Manifest,
    /// Games merged.
    pub games: u64,
}

fn bad(path: &Path, why: impl Into<String>) -> RunError {
    RunError::Merge {
        path: path.display().to_string(),
        why: why.into(),
    }
}

/// Checks that a shard's rows are the games its manifest describes: each
/// row's index belongs to the shard, its seed is derived from the master
/// seed, its game is the run's game and its agent the one seated there.
fn check_rows(m: &Manifest, rows: &[GameRow]) -> Result<(), String> {
    let id = &m.identity;
    let seats = id.agents.len();
    let (k, n) = m.shard.unwrap_or((1, 1));
    for r in rows {
        let index_ok = n > 0 && r.game_index < id.games && r.game_index % n == k - 1;
        let why = if !index_ok {
            format!(
                "game index {} does not belong to shard {k}/{n}",
                r.game_index
            )
        } else if r.seat as usize >= seats {
            format!("seat {} but the run has {seats} agents", r.seat)
        } else if r.game != id.game {
            format!("game '{}' but the run plays '{}'", r.game, id.game)
        } else if r.seed != super::seed_of(id.seed, r.game_index, seats, id.duplicate) {
            format!(
                "seed {} is not derived from master seed {}",
                r.seed, id.seed
            )
        } else if r.agent_index != super::seating(r.game_index, seats)[r.seat as usize]
            || r.agent != id.agents[r.agent_index]
        {
            format!("agent '{}' is not the one seated there", r.agent)
        } else {
            continue;
        };
        return Err(format!(
            "games.csv row of game {} seat {}: {why}",
            r.game_index, r.seat
        ));
    }
    Ok(())
}

/// Checks the shard directories belong to one run and cover every game index
/// exactly once, then writes games.csv, summary.csv, seats.csv and run.json to `out`.
pub fn merge(dirs: &[PathBuf], out: &Path, force: bool) -> Result<Merged, RunError> {
    let Some(first) = dirs.first() else {
        return Err(bad(out, "no shard directories given"));
    };
    let base = manifest::read(first).map_err(|e| bad(first, e))?;
    let mut rows: Vec<GameRow> = Vec::new();
    let mut metrics: Vec<record::MetricRow> = Vec::new();
    for dir in dirs {
        let m = manifest::read(dir).map_err(|e| bad(dir, e))?;
        if let Some(diff) = base.identity.difference(&m.identity) {
            return Err(bad(
                dir,
                format!("not a shard of the same run as {}: {diff}", first.display()),
            ));
        }
        let part = record::read_games(&dir.join("games.csv")).map_err(|e| bad(dir, e))?;
        check_rows(&m, &part).map_err(|e| bad(dir, e))?;
        let path = dir.join("metrics.csv");
        if !path.exists() {
            return Err(bad(
                dir,
                "metrics.csv is missing (every shard writes one; copy it with games.csv)",
            ));
        }
        let mut r = csv::Reader::from_path(&path).map_err(|e| bad(dir, e.to_string()))?;
        let played: std::collections::HashSet<u64> = part.iter().map(|r| r.game_index).collect();
        for row in r.deserialize::<record::MetricRow>() {
            let row = row.map_err(|e| bad(dir, format!("malformed metrics.csv: {e}")))?;
            if !played.contains(&row.game_index) {
                return Err(bad(
                    dir,
                    format!(
                        "metrics.csv has a row of game {} that is not in this shard's games.csv",
                        row.game_index
                    ),
                ));
            }
            metrics.push(row);
        }
        rows.extend(part);
    }
    // Stable: each game's metrics keep the order the game reported them in.
    metrics.sort_by_key(|m| (m.game_index, m.seat));
    rows.sort_by_key(|r| (r.game_index, r.seat));
    let seats = rows.iter().map(|r| r.seat as usize + 1).max().unwrap_or(0);
    let games = base.identity.games;
    if base.identity.agents.is_empty() {
        return Err(bad(first, "run.json lists no agents"));
    }
    if seats != base.identity.agents.len() {
        return Err(bad(
            first,
            format!(
                "rows have {seats} seats but the run has {} agents",
                base.identity.agents.len()
            ),
        ));
    }
    for (i, chunk) in rows.chunks(seats).enumerate() {
        let ok = chunk.len() == seats
            && chunk
                .iter()
                .enumerate()
                .all(|(s, r)| r.game_index == i as u64 && r.seat as usize == s);
        if !ok {
            let r = &chunk[0];
            return Err(bad(
                out,
                format!(
                    "game index {} is missing, duplicated or incomplete (found game {} seat {} in its place)",
                    i, r.game_index, r.seat
                ),
            ));
        }
    }
    if games.checked_mul(seats as u64) != Some(rows.len() as u64) {
        return Err(bad(
            out,
            format!(
                "the shards hold {} of the run's {games} games",
                rows.len() / seats.max(1)
            ),
        ));
    }
    std::fs::create_dir_all(out).map_err(|e| output_error(out, e))?;
    let path = out.join("games.csv");
    if path.exists() && !force {
        return Err(bad(
            out,
            "games.csv already exists (use --force to overwrite)",
        ));
    }
    let tmp = out.join("games.csv.tmp");
    let write = || -> std::io::Result<()> {
        let mut w = csv::Writer::from_path(&tmp)?;
        for r in &rows {
            w.serialize(r)?;
        }
        w.flush()?;
        std::fs::rename(&tmp, &path)
    };
    write().map_err(|e| bad(out, e.to_string()))?;
    let write_metrics = || -> std::io::Result<()> {
        let tmp = out.join("metrics.csv.tmp");
        let mut w = csv::WriterBuilder::new()
            .has_headers(false)
            .from_path(&tmp)?;
        w.write_record(["game_index", "seat", "metric", "value"])?;
        for m in &metrics {
            w.serialize(m)?;
        }
        w.flush()?;
        std::fs::rename(&tmp, out.join("metrics.csv"))
    };
    write_metrics().map_err(|e| bad(out, e.to_string()))?;
    let mut tallies = Tallies::new(seats, seats);
    rows.iter().for_each(|r| tallies.add(r));
    let (agents, seat_rows) = tallies.finish(&base.identity.agents);
    let p = out.join("summary.csv");
    record::write_summary(&p, &agents).map_err(|e| output_error(&p, e))?;
    let p = out.join("seats.csv");
    record::write_summary(&p, &seat_rows).map_err(|e| output_error(&p, e))?;
    crate::verify::write_sample(out).map_err(|e| output_error(out, e))?;
    let manifest = Manifest {
        shard: None,
        ..base
    };
    manifest::write(out, &manifest).map_err(|e| output_error(&out.join("run.json"), e))?;
    Ok(Merged { manifest, games })
}

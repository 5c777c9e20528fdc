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

/// Checks the shard directories belong to one run, that together they are
/// every shard of it once, and that each holds exactly its own games, every
/// row as the run would have written it (see [`super::check::game_rows`]),
/// with its metrics.csv; then writes games.csv, metrics.csv, summary.csv,
/// seats.csv and run.json to `out`.
pub fn merge(dirs: &[PathBuf], out: &Path, force: bool) -> Result<Merged, RunError> {
    let Some(first) = dirs.first() else {
        return Err(bad(out, "no shard directories given"));
    };
    let base = manifest::read(first).map_err(|e| bad(first, e))?;
    if base.identity.agents.is_empty() {
        return Err(bad(first, "run.json lists no agents"));
    }
    let game = crate::games::AnyGame::parse(&base.identity.game).map_err(|e| {
        bad(
            first,
            format!("run.json names a game that cannot be built: {e}"),
        )
    })?;
    crate::with_game!(&game, g => merge_game(g, dirs, base, out, force))
}

/// [`merge`] for a game of the caller's own (one that `AnyGame` does not
/// name, e.g. from a crate built on boardlab): the shards must be runs of
/// exactly this game.
pub fn merge_for<G: crate::game::Game>(
    game: &G,
    dirs: &[PathBuf],
    out: &Path,
    force: bool,
) -> Result<Merged, RunError> {
    let Some(first) = dirs.first() else {
        return Err(bad(out, "no shard directories given"));
    };
    let base = manifest::read(first).map_err(|e| bad(first, e))?;
    if base.identity.game != game.spec() {
        return Err(bad(
            first,
            format!("a run of {}, not of {}", base.identity.game, game.spec()),
        ));
    }
    if base.identity.agents.is_empty() {
        return Err(bad(first, "run.json lists no agents"));
    }
    merge_game(game, dirs, base, out, force)
}

fn merge_game<G: crate::game::Game>(
    game: &G,
    dirs: &[PathBuf],
    base: Manifest,
    out: &Path,
    force: bool,
) -> Result<Merged, RunError> {
    let first = &dirs[0];
    let id = &base.identity;
    let seats = game.num_players();
    if id.agents.len() != seats {
        return Err(bad(
            first,
            format!(
                "run.json lists {} agents but {} has {seats} seats",
                id.agents.len(),
                id.game
            ),
        ));
    }
    let games = id.games;
    let most = super::rounded_games(super::MAX_GAMES, seats);
    if !games.is_multiple_of(seats as u64) || games == 0 || games > most {
        return Err(bad(
            first,
            format!(
                "run.json says the run has {games} games: not a whole number of seat rotations from {seats} to {most}"
            ),
        ));
    }
    let mut rows: Vec<GameRow> = Vec::new();
    let mut metrics: Vec<record::MetricRow> = Vec::new();
    let mut parts: Option<(u64, Vec<bool>)> = None;
    for dir in dirs {
        let m = manifest::read(dir).map_err(|e| bad(dir, e))?;
        if let Some(diff) = id.difference(&m.identity) {
            return Err(bad(
                dir,
                format!("not a shard of the same run as {}: {diff}", first.display()),
            ));
        }
        // Every shard of one split, each once.
        let (k, n) = m.shard.unwrap_or((1, 1));
        if k == 0 || k > n || n > games {
            return Err(bad(
                dir,
                format!("run.json names shard {k}/{n}, which cannot be"),
            ));
        }
        let (split, seen) = parts.get_or_insert_with(|| (n, vec![false; n as usize]));
        if *split != n {
            return Err(bad(
                dir,
                format!("shard {k}/{n} splits the run in {n}, the other shards in {split}"),
            ));
        }
        if std::mem::replace(&mut seen[k as usize - 1], true) {
            return Err(bad(dir, format!("shard {k}/{n} is given twice")));
        }
        let part = record::read_games(&dir.join("games.csv")).map_err(|e| bad(dir, e))?;
        if let Some(r) = part
            .iter()
            .find(|r| r.game_index >= games || r.game_index % n != k - 1)
        {
            return Err(bad(
                dir,
                format!(
                    "games.csv row of game {} seat {} does not belong to shard {k}/{n}",
                    r.game_index, r.seat
                ),
            ));
        }
        let expected = manifest::shard_indices(games, m.shard).count();
        if part.len() != expected * seats {
            return Err(bad(
                dir,
                format!(
                    "games.csv holds {} rows, but shard {k}/{n} has {expected} games of {seats} seats: the shard is incomplete or has extra rows",
                    part.len()
                ),
            ));
        }
        for (index, chunk) in manifest::shard_indices(games, m.shard).zip(part.chunks(seats)) {
            super::check::game_rows(game, id, index, chunk)
                .map_err(|e| bad(dir, format!("games.csv: {e}")))?;
        }
        rows.extend(part);
        // Every run writes metrics.csv: without it the merged metrics would
        // silently cover only some of the games.
        let path = dir.join("metrics.csv");
        if !path.exists() {
            return Err(bad(
                dir,
                "metrics.csv is missing (every shard writes one; copy it with games.csv)",
            ));
        }
        let part = record::read_metrics(&path).map_err(|e| bad(dir, e))?;
        if let Some(m) = part.iter().find(|m| {
            m.game_index >= games || m.game_index % n != k - 1 || m.seat as usize >= seats
        }) {
            return Err(bad(
                dir,
                format!(
                    "metrics.csv has a row for game {} seat {}, which is not in shard {k}/{n}",
                    m.game_index, m.seat
                ),
            ));
        }
        metrics.extend(part);
    }
    if let Some((n, seen)) = &parts
        && let Some(k) = seen.iter().position(|s| !s)
    {
        return Err(bad(out, format!("shard {}/{n} is missing", k + 1)));
    }
    // Stable: each game's metrics keep the order the game reported them in.
    metrics.sort_by_key(|m| (m.game_index, m.seat));
    rows.sort_by_key(|r| (r.game_index, r.seat));
    std::fs::create_dir_all(out).map_err(|e| output_error(out, e))?;
    let path = out.join("games.csv");
    if path.exists() && !force {
        return Err(bad(
            out,
            "games.csv already exists (use --force to overwrite)",
        ));
    }
    crate::fsutil::write_atomic_with(&path, |w| {
        let mut w = csv::Writer::from_writer(w);
        for r in &rows {
            w.serialize(r)?;
        }
        w.flush()
    })
    .map_err(|e| output_error(&path, e))?;
    let path = out.join("metrics.csv");
    crate::fsutil::write_atomic_with(&path, |w| {
        let mut w = csv::WriterBuilder::new().has_headers(false).from_writer(w);
        w.write_record(["game_index", "seat", "metric", "value"])?;
        for m in &metrics {
            w.serialize(m)?;
        }
        w.flush()
    })
    .map_err(|e| output_error(&path, e))?;
    let mut tallies = Tallies::new(seats, seats);
    rows.iter().for_each(|r| tallies.add(r));
    let (agents, seat_rows) = tallies.finish(&id.agents);
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

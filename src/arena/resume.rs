//! Continuing an interrupted run: check it is the same run, drop a torn last
//! line and any incomplete game, and reopen games.csv for appending.

use std::io::{Read, Seek, SeekFrom};
use std::path::Path;

use super::manifest::{self, Identity};
use super::record::{self, GameRow};
use super::{RunError, check};
use crate::fsutil;
use crate::game::Game;

fn refuse(dir: &Path, why: impl Into<String>) -> RunError {
    RunError::Resume {
        path: dir.display().to_string(),
        why: why.into(),
    }
}

/// Checks `dir` holds an earlier attempt at this very run, truncates games.csv
/// after its last complete game, and returns the file (positioned at its end)
/// with the rows kept. Rows must be the run's first games in index order, each
/// as the run would have written it (see [`super::check::game_rows`]).
pub fn reopen<G: Game>(
    game: &G,
    dir: &Path,
    identity: &Identity,
    shard: Option<(u64, u64)>,
    indices: &[u64],
) -> Result<(std::fs::File, Vec<GameRow>), RunError> {
    let seats = game.num_players();
    let old = manifest::read(dir).map_err(|e| refuse(dir, e))?;
    if let Some(diff) = identity.difference(&old.identity) {
        return Err(refuse(dir, diff));
    }
    if old.shard != shard {
        return Err(refuse(
            dir,
            format!(
                "shard differs ({shard:?} here, {:?} in the existing run)",
                old.shard
            ),
        ));
    }
    let path = dir.join("games.csv");
    let mut file = fsutil::open_existing(&path)
        .map_err(|e| refuse(dir, format!("cannot open games.csv: {e}")))?;
    let mut bytes = Vec::new();
    (&mut file)
        .take(fsutil::MAX_CSV_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| refuse(dir, format!("cannot read games.csv: {e}")))?;
    if bytes.len() as u64 > fsutil::MAX_CSV_BYTES {
        return Err(refuse(dir, "games.csv is larger than any run writes"));
    }
    // A torn last line (no newline yet) is dropped and its game redone.
    let whole = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |p| p + 1);
    let mut reader = csv::Reader::from_reader(&bytes[..whole]);
    let mut rows: Vec<GameRow> = Vec::new();
    let mut keep_bytes = 0u64;
    let mut header_end = 0u64;
    let header = reader
        .headers()
        .map_err(|e| refuse(dir, format!("malformed games.csv: {e}")))?
        .clone();
    if !header.is_empty() {
        record::check_games_header(&header)
            .map_err(|e| refuse(dir, format!("malformed games.csv: {e}")))?;
        header_end = reader.position().byte();
        keep_bytes = header_end;
    }
    let mut line = csv::StringRecord::new();
    let mut pending: Vec<GameRow> = Vec::new();
    loop {
        match reader.read_record(&mut line) {
            Ok(false) => break,
            Ok(true) => {}
            Err(e) => return Err(refuse(dir, format!("malformed games.csv: {e}"))),
        }
        let row: GameRow = line
            .deserialize(Some(&header))
            .map_err(|e| refuse(dir, format!("malformed games.csv row: {e}")))?;
        let game_no = rows.len() / seats;
        if game_no >= indices.len()
            || row.game_index != indices[game_no]
            || row.seat as usize != pending.len()
        {
            return Err(refuse(
                dir,
                format!(
                    "games.csv row for game {} seat {} does not belong to this run at this place",
                    row.game_index, row.seat
                ),
            ));
        }
        pending.push(row);
        if pending.len() == seats {
            check::game_rows(game, identity, indices[game_no], &pending)
                .map_err(|e| refuse(dir, format!("games.csv: {e}")))?;
            rows.append(&mut pending);
            keep_bytes = reader.position().byte();
        }
    }
    let io = |e: std::io::Error| refuse(dir, format!("cannot truncate games.csv: {e}"));
    if header_end == 0 || rows.is_empty() {
        // No complete game: start the file afresh, header included.
        file.set_len(0).map_err(io)?;
    } else {
        file.set_len(keep_bytes).map_err(io)?;
    }
    file.seek(SeekFrom::End(0)).map_err(io)?;
    Ok((file, rows))
}

/// Keeps in metrics.csv only the rows of games in `done` (those kept in
/// games.csv) and returns the file positioned at its end for appending.
/// Finished games without metrics.csv are an error: metrics are written
/// before the games, so the file was removed or never belonged to the run.
pub fn trim_metrics(dir: &Path, done: &[u64]) -> Result<std::fs::File, RunError> {
    let path = dir.join("metrics.csv");
    let keep: std::collections::HashSet<u64> = done.iter().copied().collect();
    let mut rows: Vec<record::MetricRow> = Vec::new();
    match fsutil::open_existing(&path) {
        Ok(mut file) => {
            let mut bytes = Vec::new();
            (&mut file)
                .take(fsutil::MAX_CSV_BYTES + 1)
                .read_to_end(&mut bytes)
                .map_err(|e| refuse(dir, format!("cannot read metrics.csv: {e}")))?;
            if bytes.len() as u64 > fsutil::MAX_CSV_BYTES {
                return Err(refuse(dir, "metrics.csv is larger than any run writes"));
            }
            // A torn last line is dropped like in games.csv.
            let whole = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |p| p + 1);
            for row in csv::Reader::from_reader(&bytes[..whole]).deserialize::<record::MetricRow>()
            {
                let row = row.map_err(|e| refuse(dir, format!("malformed metrics.csv: {e}")))?;
                if keep.contains(&row.game_index) {
                    rows.push(row);
                }
            }
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            if !done.is_empty() {
                return Err(refuse(
                    dir,
                    "metrics.csv is missing, yet games.csv holds finished games",
                ));
            }
        }
        Err(e) => return Err(refuse(dir, format!("cannot open metrics.csv: {e}"))),
    }
    let io = |e: std::io::Error| refuse(dir, format!("cannot rewrite metrics.csv: {e}"));
    fsutil::write_atomic_with(&path, |out| {
        let mut w = csv::WriterBuilder::new()
            .has_headers(false)
            .from_writer(out);
        if !done.is_empty() {
            w.write_record(["game_index", "seat", "metric", "value"])?;
        }
        for r in &rows {
            w.serialize(r)?;
        }
        w.flush()
    })
    .map_err(io)?;
    let mut file = fsutil::open_existing(&path).map_err(io)?;
    file.seek(SeekFrom::End(0)).map_err(io)?;
    Ok(file)
}

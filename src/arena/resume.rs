//! Continuing an interrupted run: check it is the same run, drop a torn last
//! line and any incomplete game, and reopen games.csv for appending.

use std::fs::OpenOptions;
use std::io::{Seek, SeekFrom};
use std::path::Path;

use super::RunError;
use super::manifest::{self, Identity};
use super::record::GameRow;

fn refuse(dir: &Path, why: impl Into<String>) -> RunError {
    RunError::Resume {
        path: dir.display().to_string(),
        why: why.into(),
    }
}

/// Checks `dir` holds an earlier attempt at this very run, truncates games.csv
/// after its last complete game, and returns the file (positioned at its end)
/// with the rows kept. Rows must be the run's first games in index order.
pub fn reopen(
    dir: &Path,
    identity: &Identity,
    shard: Option<(u64, u64)>,
    indices: &[u64],
    seats: usize,
) -> Result<(std::fs::File, Vec<GameRow>), RunError> {
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
    let bytes =
        std::fs::read(&path).map_err(|e| refuse(dir, format!("cannot read games.csv: {e}")))?;
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
        header_end = reader.position().byte();
        keep_bytes = header_end;
    }
    let mut record = csv::StringRecord::new();
    let mut pending: Vec<GameRow> = Vec::new();
    loop {
        match reader.read_record(&mut record) {
            Ok(false) => break,
            Ok(true) => {}
            Err(e) => return Err(refuse(dir, format!("malformed games.csv: {e}"))),
        }
        let row: GameRow = record
            .deserialize(Some(&header))
            .map_err(|e| refuse(dir, format!("malformed games.csv row: {e}")))?;
        let game = rows.len() / seats;
        if game >= indices.len()
            || row.game_index != indices[game]
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
            rows.append(&mut pending);
            keep_bytes = reader.position().byte();
        }
    }
    let mut file = OpenOptions::new()
        .read(true)
        .write(true)
        .open(&path)
        .map_err(|e| refuse(dir, format!("cannot open games.csv: {e}")))?;
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

//! Continuing an interrupted run: check it is the same run, drop a torn last
//! line and any incomplete game, and reopen games.csv for appending.

use std::io::{Read as _, Seek, SeekFrom};
use std::path::Path;

use super::manifest::{self, Identity};
use super::record::{self, GameRow};
use super::{Positions, RunError, check};
use crate::fsutil;
use crate::game::Game;

fn refuse(dir: &Path, why: impl Into<String>) -> RunError {
    RunError::Resume {
        path: dir.display().to_string(),
        why: why.into(),
    }
}

/// The length of `file` up to and including its last line break: a torn
/// last line (no newline yet) is dropped and its game redone. Reads only the
/// tail, so a file of any size costs no memory.
pub(crate) fn whole_lines(file: &std::fs::File) -> std::io::Result<u64> {
    use std::os::unix::fs::FileExt as _;
    let mut end = file.metadata()?.len();
    let mut buf = vec![0u8; 64 << 10];
    while end > 0 {
        let start = end.saturating_sub(buf.len() as u64);
        let part = &mut buf[..(end - start) as usize];
        file.read_exact_at(part, start)?;
        if let Some(p) = part.iter().rposition(|&b| b == b'\n') {
            return Ok(start + p as u64 + 1);
        }
        end = start;
    }
    Ok(0)
}

/// Checks `dir` holds an earlier attempt at this very run, truncates games.csv
/// after its last complete game, and returns the file (positioned at its end)
/// with the number of games kept, each handed to `kept` as it is read (the
/// rows are never all in memory). Rows must be the run's first games in
/// index order, each as the run would have written it (see
/// [`super::check::game_rows`]).
pub fn reopen<G: Game>(
    game: &G,
    dir: &Path,
    identity: &Identity,
    shard: Option<(u64, u64)>,
    positions: &Positions,
    kept: &mut dyn FnMut(&[GameRow]),
) -> Result<(std::fs::File, usize), RunError> {
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
    let (mut file, whole) = open_games(dir)?;
    let read = read_games(game, dir, identity, positions, &file, whole, kept)?;
    // A finished run whose games.csv is the one it wrote must hold its own
    // metrics.csv too (not another run's, nor an edited one); checked before
    // any change. A cut games.csv (a run killed after finishing, or a copy)
    // is resumed from its rows, each checked above.
    if manifest::games_intact(dir, &old) {
        manifest::check_digests(dir, &old).map_err(|e| refuse(dir, e))?;
    }
    let io = |e: std::io::Error| refuse(dir, format!("cannot truncate games.csv: {e}"));
    if read.header_end == 0 || read.done == 0 {
        // No complete game: start the file afresh, header included.
        file.set_len(0).map_err(io)?;
    } else {
        file.set_len(read.keep_bytes).map_err(io)?;
    }
    file.seek(SeekFrom::End(0)).map_err(io)?;
    Ok((file, read.done))
}

/// games.csv of the run in `dir`, with the length of its whole lines.
fn open_games(dir: &Path) -> Result<(std::fs::File, u64), RunError> {
    let path = dir.join(crate::files::GAMES_FILE);
    let file = fsutil::open_existing(&path)
        .map_err(|e| refuse(dir, format!("cannot open games.csv: {e}")))?;
    let size = file
        .metadata()
        .map_err(|e| refuse(dir, format!("cannot read games.csv: {e}")))?
        .len();
    if size > fsutil::MAX_CSV_BYTES {
        return Err(refuse(dir, "games.csv is larger than any run writes"));
    }
    let whole =
        whole_lines(&file).map_err(|e| refuse(dir, format!("cannot read games.csv: {e}")))?;
    Ok((file, whole))
}

/// What [`read_games`] found in games.csv.
struct Read {
    /// Complete games, each checked.
    done: usize,
    /// Bytes up to the end of the last complete game.
    keep_bytes: u64,
    /// Bytes of the header line (0: none).
    header_end: u64,
}

/// Reads the first `whole` bytes of games.csv game by game, checking each
/// is the run's next game as the run would have written it, and hands each
/// complete game to `kept`.
fn read_games<G: Game>(
    game: &G,
    dir: &Path,
    identity: &Identity,
    positions: &Positions,
    file: &std::fs::File,
    whole: u64,
    kept: &mut dyn FnMut(&[GameRow]),
) -> Result<Read, RunError> {
    let seats = game.num_players();
    let mut reader = csv::Reader::from_reader(std::io::BufReader::new(file.take(whole)));
    let mut read = Read {
        done: 0,
        keep_bytes: 0,
        header_end: 0,
    };
    let header = reader
        .headers()
        .map_err(|e| refuse(dir, format!("malformed games.csv: {e}")))?
        .clone();
    if !header.is_empty() {
        record::check_games_header(&header)
            .map_err(|e| refuse(dir, format!("malformed games.csv: {e}")))?;
        read.header_end = reader.position().byte();
        read.keep_bytes = read.header_end;
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
        let done = read.done;
        if done >= positions.len()
            || row.game_index != positions.index(done)
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
            check::game_rows(game, identity, positions.index(done), &pending)
                .map_err(|e| refuse(dir, format!("games.csv: {e}")))?;
            kept(&pending);
            pending.clear();
            read.done += 1;
            read.keep_bytes = reader.position().byte();
        }
    }
    Ok(read)
}

/// Keeps in metrics.csv only the rows of the first `done` games of
/// `positions` (those kept in games.csv), copying it row by row, and returns
/// the file positioned at its end for appending. Finished games without
/// metrics.csv are an error: metrics are written before the games, so the
/// file was removed or never belonged to the run.
pub fn trim_metrics(
    dir: &Path,
    positions: &Positions,
    done: usize,
) -> Result<std::fs::File, RunError> {
    let path = dir.join(crate::files::METRICS_FILE);
    let source = match fsutil::open_existing(&path) {
        Ok(file) => {
            let size = file
                .metadata()
                .map_err(|e| refuse(dir, format!("cannot read metrics.csv: {e}")))?
                .len();
            if size > fsutil::MAX_CSV_BYTES {
                return Err(refuse(dir, "metrics.csv is larger than any run writes"));
            }
            // A torn last line is dropped like in games.csv.
            let whole = whole_lines(&file)
                .map_err(|e| refuse(dir, format!("cannot read metrics.csv: {e}")))?;
            Some((file, whole))
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            if done > 0 {
                return Err(refuse(
                    dir,
                    "metrics.csv is missing, yet games.csv holds finished games",
                ));
            }
            None
        }
        Err(e) => return Err(refuse(dir, format!("cannot open metrics.csv: {e}"))),
    };
    // Rows are checked before anything is replaced.
    fn rows(
        f: &std::fs::File,
        whole: u64,
    ) -> impl Iterator<Item = csv::Result<record::MetricRow>> + '_ {
        csv::Reader::from_reader(std::io::BufReader::new(f.take(whole))).into_deserialize()
    }
    if let Some((f, whole)) = &source {
        for row in rows(f, *whole) {
            row.map_err(|e| refuse(dir, format!("malformed metrics.csv: {e}")))?;
        }
    }
    let io = |e: std::io::Error| refuse(dir, format!("cannot rewrite metrics.csv: {e}"));
    fsutil::write_atomic_with(&path, |out| {
        let mut w = csv::WriterBuilder::new()
            .has_headers(false)
            .from_writer(out);
        if done > 0 {
            w.write_record(["game_index", "seat", "metric", "value"])?;
        }
        if let Some((f, whole)) = &source {
            (&*f).seek(SeekFrom::Start(0))?;
            for row in rows(f, *whole) {
                let row = row?;
                if positions.among_first(row.game_index, done) {
                    w.serialize(row)?;
                }
            }
        }
        w.flush()
    })
    .map_err(io)?;
    let mut file = fsutil::open_existing(&path).map_err(io)?;
    file.seek(SeekFrom::End(0)).map_err(io)?;
    Ok(file)
}

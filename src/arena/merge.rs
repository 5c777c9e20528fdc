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

/// A shard's directory, and whether its metrics.csv is in order of game and seat.
type Shard = (PathBuf, bool);

pub(crate) fn bad(path: &Path, why: impl Into<String>) -> RunError {
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
///
/// The shards must be runs of exactly `game`; `crate::runtime::merge` finds
/// a built-in game from the shards' run.json.
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

pub(crate) fn merge_game<G: crate::game::Game>(
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
    let whole = id.fixed_seats || games.is_multiple_of(seats as u64);
    if !whole || games == 0 || games > most {
        return Err(bad(
            first,
            format!(
                "run.json says the run has {games} games: not a whole number of seat rotations from {seats} to {most}"
            ),
        ));
    }
    let (n, shards) = shards_of(game, dirs, id, out)?;
    let _out = crate::fsutil::OutputLock::claim(out).map_err(|e| output_error(out, e))?;
    let path = out.join(crate::files::GAMES_FILE);
    if path.exists() && !force {
        return Err(bad(
            out,
            "games.csv already exists (use --force to overwrite)",
        ));
    }
    // Game g is in shard g mod n, whose rows were checked to be its games in
    // order, seat by seat: reading the shards in turn puts the rows in order
    // of game and seat without holding them.
    let mut tallies = Tallies::new(seats, seats);
    let mut readers = shards
        .iter()
        .map(|(dir, _)| {
            record::GameRows::open(&dir.join(crate::files::GAMES_FILE)).map_err(|e| bad(dir, e))
        })
        .collect::<Result<Vec<_>, _>>()?;
    crate::fsutil::write_atomic_with(&path, |w| {
        let mut w = csv::Writer::from_writer(w);
        for g in 0..games {
            for _ in 0..seats {
                let r = readers[(g % n) as usize]
                    .next()
                    .unwrap_or_else(|| Err("a shard changed while merging".into()))
                    .map_err(std::io::Error::other)?;
                w.serialize(&r)?;
                tallies.add(&r);
            }
        }
        w.flush()
    })
    .map_err(|e| output_error(&path, e))?;
    let path = out.join(crate::files::METRICS_FILE);
    write_metrics(&path, &shards, games, n).map_err(|e| output_error(&path, e))?;
    let (agents, seat_rows) = tallies.finish(&id.agents);
    let p = out.join(crate::files::SUMMARY_FILE);
    record::write_summary(&p, &agents).map_err(|e| output_error(&p, e))?;
    let p = out.join(crate::files::SEATS_FILE);
    record::write_summary(&p, &seat_rows).map_err(|e| output_error(&p, e))?;
    crate::files::write_sample(out).map_err(|e| output_error(out, e))?;
    let manifest = Manifest {
        shard: None,
        played: Some(games),
        digests: manifest::digests(out).map_err(|e| output_error(out, e))?,
        ..base
    };
    manifest::write(out, &manifest)
        .map_err(|e| output_error(&out.join(crate::files::MANIFEST_FILE), e))?;
    Ok(Merged { manifest, games })
}

/// The shards in `dirs`, in order, and how many there are: every shard of
/// one split of the run `id`, each once, each checked (its games, its
/// metrics, the digests of both).
fn shards_of<G: crate::game::Game>(
    game: &G,
    dirs: &[PathBuf],
    id: &manifest::Identity,
    out: &Path,
) -> Result<(u64, Vec<Shard>), RunError> {
    let first = &dirs[0];
    let (games, seats) = (id.games, game.num_players());
    // The split, and per shard its directory and whether its metrics are in order.
    let mut parts: Option<(u64, Vec<Option<Shard>>)> = None;
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
        let (split, seen) = parts.get_or_insert_with(|| (n, vec![None; n as usize]));
        if *split != n {
            return Err(bad(
                dir,
                format!("shard {k}/{n} splits the run in {n}, the other shards in {split}"),
            ));
        }
        if seen[k as usize - 1].is_some() {
            return Err(bad(dir, format!("shard {k}/{n} is given twice")));
        }
        check_games(game, id, dir, m.shard).map_err(|e| bad(dir, e))?;
        // Every run writes metrics.csv: without it the merged metrics would
        // silently cover only some of the games.
        let path = dir.join(crate::files::METRICS_FILE);
        if !path.exists() {
            return Err(bad(
                dir,
                "metrics.csv is missing (every shard writes one; copy it with games.csv)",
            ));
        }
        let in_order = check_metrics(&path, games, seats, (k, n)).map_err(|e| bad(dir, e))?;
        // Rows forged consistently, or another run's metrics.csv, pass the
        // checks above: the files must be those the shard's run wrote.
        manifest::check_digests(dir, &m).map_err(|e| bad(dir, e))?;
        seen[k as usize - 1] = Some((dir.clone(), in_order));
    }
    let Some((n, shards)) = parts else {
        return Err(bad(out, "no shards"));
    };
    if let Some(k) = shards.iter().position(Option::is_none) {
        return Err(bad(out, format!("shard {}/{n} is missing", k + 1)));
    }
    Ok((n, shards.into_iter().flatten().collect()))
}

/// Checks a shard's games.csv, one game at a time: every row in the shard,
/// one per game and seat, each game as the run would have written it.
fn check_games<G: crate::game::Game>(
    game: &G,
    id: &manifest::Identity,
    dir: &Path,
    shard: Option<(u64, u64)>,
) -> Result<(), String> {
    let (k, n) = shard.unwrap_or((1, 1));
    let (games, seats) = (id.games, game.num_players());
    let mut indices = manifest::shard_indices(games, shard);
    let (mut rows, mut stray, mut wrong) = (0usize, None, None);
    let mut chunk: Vec<GameRow> = Vec::with_capacity(seats);
    for r in record::GameRows::open(&dir.join(crate::files::GAMES_FILE))? {
        let r = r?;
        rows += 1;
        if stray.is_none() && (r.game_index >= games || r.game_index % n != k - 1) {
            stray = Some((r.game_index, r.seat));
        }
        if wrong.is_none() {
            chunk.push(r);
            if chunk.len() == seats {
                if let Some(index) = indices.next() {
                    wrong = super::check::game_rows(game, id, index, &chunk).err();
                }
                chunk.clear();
            }
        }
    }
    if let Some((index, seat)) = stray {
        return Err(format!(
            "games.csv row of game {index} seat {seat} does not belong to shard {k}/{n}"
        ));
    }
    let expected = manifest::shard_indices(games, shard).count();
    if rows != expected * seats {
        return Err(format!(
            "games.csv holds {rows} rows, but shard {k}/{n} has {expected} games of {seats} seats: the shard is incomplete or has extra rows"
        ));
    }
    match wrong {
        Some(e) => Err(format!("games.csv: {e}")),
        None => Ok(()),
    }
}

/// Checks a shard's metrics.csv holds only rows of its own games and seats;
/// true when they come in order of game and seat, as runs write them.
fn check_metrics(
    path: &Path,
    games: u64,
    seats: usize,
    (k, n): (u64, u64),
) -> Result<bool, String> {
    let (mut stray, mut last, mut in_order) = (None, (0, 0), true);
    for m in record::MetricRows::open(path)? {
        let m = m?;
        if stray.is_none()
            && (m.game_index >= games || m.game_index % n != k - 1 || m.seat as usize >= seats)
        {
            stray = Some((m.game_index, m.seat));
        }
        in_order &= (m.game_index, m.seat) >= last;
        last = (m.game_index, m.seat);
    }
    match stray {
        Some((index, seat)) => Err(format!(
            "metrics.csv has a row for game {index} seat {seat}, which is not in shard {k}/{n}"
        )),
        None => Ok(in_order),
    }
}

/// Writes the shards' metrics in order of game and seat, each game's rows in
/// the order the game reported them: read in turn from shards in order,
/// sorted in memory only when a shard is not.
fn write_metrics(path: &Path, shards: &[Shard], games: u64, n: u64) -> std::io::Result<()> {
    let open = |dir: &PathBuf| {
        record::MetricRows::open(&dir.join(crate::files::METRICS_FILE))
            .map_err(std::io::Error::other)
    };
    crate::fsutil::write_atomic_with(path, |w| {
        let mut w = csv::WriterBuilder::new().has_headers(false).from_writer(w);
        w.write_record(["game_index", "seat", "metric", "value"])?;
        if shards.iter().all(|(_, in_order)| *in_order) {
            let mut readers = Vec::new();
            for (dir, _) in shards {
                readers.push(open(dir)?.peekable());
            }
            for g in 0..games {
                let shard = &mut readers[(g % n) as usize];
                while let Some(m) = shard.next_if(|m| m.as_ref().is_ok_and(|m| m.game_index == g)) {
                    w.serialize(m.map_err(std::io::Error::other)?)?;
                }
            }
        } else {
            let mut metrics = Vec::new();
            for (dir, _) in shards {
                for m in open(dir)? {
                    metrics.push(m.map_err(std::io::Error::other)?);
                }
            }
            // Stable: each game's metrics keep the order the game reported them in.
            metrics.sort_by_key(|m| (m.game_index, m.seat));
            for m in &metrics {
                w.serialize(m)?;
            }
        }
        w.flush()
    })
}

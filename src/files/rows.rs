//! The rows of the result files, `games.csv` and `metrics.csv`, their headers
//! and their checked readers: what every layer reading results shares, below
//! the runner that writes them.

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::game::Outcome;

/// The roles a seat's role text names: a seat holding several (`a+b`, or
/// `faction:a+b`) counts for each (`a`, `b`; `faction:a`, `faction:b`), so that
/// drafted or dealt sets are compared role by role, not as rare combinations.
pub fn role_parts(role: &str) -> Vec<String> {
    let (prefix, rest) = match role.split_once(':') {
        Some((p, r)) => (format!("{p}:"), r),
        None => (String::new(), role),
    };
    rest.split('+')
        .map(|part| format!("{prefix}{part}"))
        .collect()
}

/// One row of `games.csv`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRow {
    /// Index of the game in the run.
    pub game_index: u64,
    /// The game's seed (derived from the master seed and the index).
    pub seed: u64,
    /// Canonical game spec.
    pub game: String,
    /// Seat number.
    pub seat: u8,
    /// Index of the agent in the `--agents` list.
    pub agent_index: usize,
    /// The agent as written by the user.
    pub agent: String,
    /// Role of the seat in this game (faction, character…), or empty.
    pub role: String,
    /// win, draw or loss.
    pub outcome: Outcome,
    /// The game's score for the seat.
    pub score: f64,
    /// The payoff for the seat.
    #[serde(rename = "return")]
    pub ret: f64,
    /// Turns in the game.
    pub turns: u32,
    /// Actions in the game, chance outcomes included.
    pub actions: u32,
    /// Decisions this seat took.
    pub decisions: u32,
    /// Mean legal actions at this seat's decisions.
    pub branching: f64,
    /// Search iterations this seat ran.
    pub iterations: u64,
    /// Stopped at the length cap.
    pub truncated: bool,
    /// The rule that ended the game, from the game's small vocabulary
    /// (`Rules::endings`); empty in files written before the column existed.
    #[serde(default)]
    pub ending: String,
    /// Rounds played, for games that count rounds; empty otherwise.
    #[serde(default)]
    pub rounds: Option<u32>,
    /// The fault that forfeited the game, or empty.
    pub error: String,
    /// Time this seat spent deciding (µs).
    pub think_us: u64,
    /// Wall time of the whole game (µs).
    pub wall_us: u64,
}

/// The header line of `games.csv`: the [`GameRow`] fields in order.
pub const GAMES_HEADER: &str = "game_index,seed,game,seat,agent_index,agent,role,outcome,score,\
return,turns,actions,decisions,branching,iterations,truncated,ending,rounds,error,think_us,wall_us\n";

/// The header line of `metrics.csv`.
pub const METRICS_HEADER: &str = "game_index,seat,metric,value\n";

/// One row of `metrics.csv`: a named statistic of one seat in one game
/// (tidy long format, joinable with games.csv on `game_index` and `seat`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MetricRow {
    /// Index of the game in the run.
    pub game_index: u64,
    /// Seat number.
    pub seat: u8,
    /// The statistic's name.
    pub metric: String,
    /// Its value.
    pub value: f64,
}

/// The first columns of every games.csv header: a file that does not start
/// with them is not a games.csv, and nothing of it is quoted.
pub const GAMES_HEADER_START: [&str; 5] = ["game_index", "seed", "game", "seat", "agent_index"];

/// Checks a games.csv header.
pub fn check_games_header(header: &csv::StringRecord) -> Result<(), String> {
    if header.len() >= GAMES_HEADER_START.len()
        && header.iter().zip(GAMES_HEADER_START).all(|(a, b)| a == b)
    {
        Ok(())
    } else {
        Err(format!(
            "not a games.csv file: its first line is not a header starting {}",
            GAMES_HEADER_START.join(",")
        ))
    }
}

/// Checks the numbers of a row are finite: a NaN or infinite return or
/// score would poison every mean computed from it.
pub fn check_row(r: &GameRow) -> Result<(), String> {
    for (name, v) in [
        ("return", r.ret),
        ("score", r.score),
        ("branching", r.branching),
    ] {
        if !v.is_finite() {
            return Err(format!(
                "game {} seat {} has a {name} of {v}, not a finite number",
                r.game_index, r.seat
            ));
        }
    }
    Ok(())
}

/// Reads `games.csv` (a regular file of at most [`crate::fsutil::MAX_CSV_BYTES`]).
pub fn read_games(path: &Path) -> Result<Vec<GameRow>, String> {
    GameRows::open(path)?.collect()
}

/// `games.csv` read one row at a time, each checked as [`read_games`]
/// checks it, so that a long file is never held whole.
pub struct GameRows {
    rows: Option<csv::DeserializeRecordsIntoIter<std::io::Take<std::fs::File>, GameRow>>,
    path: std::path::PathBuf,
}

impl GameRows {
    /// Opens `path` and checks its header; a file without one has no rows.
    pub fn open(path: &Path) -> Result<GameRows, String> {
        let mut r = crate::fsutil::csv_reader(path, crate::fsutil::MAX_CSV_BYTES)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let malformed = |e: String| format!("malformed {}: {e}", path.display());
        let header = r.headers().map_err(|e| malformed(e.to_string()))?.clone();
        let rows = if header.is_empty() {
            None
        } else {
            check_games_header(&header).map_err(malformed)?;
            Some(r.into_deserialize())
        };
        Ok(GameRows {
            rows,
            path: path.to_path_buf(),
        })
    }
}

impl Iterator for GameRows {
    type Item = Result<GameRow, String>;

    fn next(&mut self) -> Option<Self::Item> {
        let row = self.rows.as_mut()?.next()?;
        let malformed = |e: String| format!("malformed {}: {e}", self.path.display());
        Some(
            row.map_err(|e| malformed(e.to_string()))
                .and_then(|row| check_row(&row).map_err(malformed).map(|()| row)),
        )
    }
}

/// Reads `metrics.csv` (a regular file of bounded size).
pub fn read_metrics(path: &Path) -> Result<Vec<MetricRow>, String> {
    MetricRows::open(path)?.collect()
}

/// `metrics.csv` read one row at a time, each checked as [`read_metrics`]
/// checks it.
pub struct MetricRows {
    rows: csv::DeserializeRecordsIntoIter<std::io::Take<std::fs::File>, MetricRow>,
    path: std::path::PathBuf,
}

impl MetricRows {
    /// Opens `path`.
    pub fn open(path: &Path) -> Result<MetricRows, String> {
        let r = crate::fsutil::csv_reader(path, crate::fsutil::MAX_CSV_BYTES)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        Ok(MetricRows {
            rows: r.into_deserialize(),
            path: path.to_path_buf(),
        })
    }
}

impl Iterator for MetricRows {
    type Item = Result<MetricRow, String>;

    fn next(&mut self) -> Option<Self::Item> {
        let m = self.rows.next()?;
        let path = self.path.display();
        Some(match m {
            Err(e) => Err(format!("malformed {path}: {e}")),
            Ok(m) if m.value.is_finite() => Ok(m),
            Ok(m) => Err(format!(
                "malformed {path}: game {} seat {} has a {} of {}, not a finite number",
                m.game_index, m.seat, m.metric, m.value
            )),
        })
    }
}

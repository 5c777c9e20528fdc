//! `boardlab verify`: is a stored result still what today's binary makes?
//!
//! Every run directory (a `run` output, or each cell of an experiment) records
//! its identity in run.json. Verify replays the run's first games from that
//! identity (game, seeds, agents after preset expansion, options) with the
//! binary at hand and compares every column except the timings with the
//! recorded rows: from games.csv, or from sample.csv (the first games, kept
//! when a large games.csv is not committed), and the metrics of those games.
//! A `boardlab balance` study (a folder holding balance-run.json) is replayed
//! the same way, budget by budget, from its `games-<budget>.csv` or the
//! `sample-<budget>.csv` kept in its place.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use rayon::prelude::*;

use crate::agents::registry::AgentSpec;
use crate::arena::{self, RunOptions, manifest};
use crate::balance::{records, skill};
use crate::files::{BALANCE_RUN_FILE, SAMPLE_FILE, SAMPLE_METRICS_FILE};
use crate::game::Rules;
use crate::games::AnyGame;
use crate::with_game;

/// Columns that measure time and so differ between any two runs.
const TIMING_COLUMNS: &[&str] = &["think_us", "wall_us"];

/// What verify found about one run directory or one study.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Status {
    /// Every replayed game matches the record.
    Fresh,
    /// A replayed game differs: where and how.
    Stale(String),
    /// The games cannot be replayed (missing or changed inputs, wall-time agents).
    NotReproducible(String),
    /// The stored rows are not the run's games: some missing, repeated,
    /// foreign or out of order, or fewer than run.json records.
    Incomplete(String),
    /// A folder below the one given that records no run: nothing to replay.
    Skipped(String),
    /// The study's README marks it superseded: the marking line.
    Superseded(String),
}

impl Status {
    /// True for the outcomes that pass (fresh, or explicitly superseded).
    pub fn passes(&self) -> bool {
        matches!(
            self,
            Status::Fresh | Status::Superseded(_) | Status::Skipped(_)
        )
    }
}

impl std::fmt::Display for Status {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Status::Fresh => write!(f, "fresh"),
            Status::Stale(why) => write!(f, "stale: {why}"),
            Status::NotReproducible(why) => write!(f, "not reproducible: {why}"),
            Status::Incomplete(why) => write!(f, "incomplete: {why}"),
            Status::Skipped(why) => write!(f, "skipped: {why}"),
            Status::Superseded(line) => write!(f, "skipped, superseded: {line}"),
        }
    }
}

/// The result for one run directory.
#[derive(Clone, Debug)]
pub struct RunCheck {
    /// The games file replayed, or the folder when none was.
    pub dir: PathBuf,
    /// Games replayed.
    pub games: usize,
    /// What was found.
    pub status: Status,
}

/// The line of `dir/README.md` marking the study superseded, if any: a line
/// starting with `SUPERSEDED` (bold, quoted or as a heading).
pub fn superseded(dir: &Path) -> Option<String> {
    let text = std::fs::read_to_string(dir.join("README.md")).ok()?;
    text.lines()
        .map(|l| l.trim_start_matches(|c: char| "#>*_ ".contains(c)))
        .find(|l| l.starts_with("SUPERSEDED"))
        .map(|l| l.replace("**", "").trim_end().to_string())
}

/// The run directories at or below `dir` (those holding run.json, or a
/// balance study's balance-run.json), in order; the topmost folders below
/// `dir` with none at or below them go to `bare`.
fn find_runs(dir: &Path, runs: &mut Vec<PathBuf>, bare: &mut Vec<PathBuf>) {
    if dir.join(crate::files::MANIFEST_FILE).is_file()
        || dir.join(BALANCE_RUN_FILE).is_file()
        || dir.join(crate::files::DESIGN_STAGE_FILE).is_file()
    {
        runs.push(dir.to_path_buf());
        return;
    }
    let mut subs: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .flatten()
                .map(|e| e.path())
                .filter(|p| p.is_dir())
                .collect()
        })
        .unwrap_or_default();
    subs.sort();
    for sub in subs {
        let (found, mut below) = (runs.len(), Vec::new());
        find_runs(&sub, runs, &mut below);
        if runs.len() == found {
            bare.push(sub);
        } else {
            bare.append(&mut below);
        }
    }
}

/// Verifies a study folder: skipped when superseded, else each run below it;
/// a folder below it recording no run is named as skipped, never passed over.
pub fn verify_study(dir: &Path, sample: usize, threads: usize) -> Vec<RunCheck> {
    if let Some(line) = superseded(dir) {
        return vec![RunCheck {
            dir: dir.to_path_buf(),
            games: 0,
            status: Status::Superseded(line),
        }];
    }
    let (mut runs, mut bare) = (Vec::new(), Vec::new());
    find_runs(dir, &mut runs, &mut bare);
    if runs.is_empty() {
        return vec![RunCheck {
            dir: dir.to_path_buf(),
            games: 0,
            status: Status::NotReproducible(
                "no run.json here or below: nothing records how these results were made".into(),
            ),
        }];
    }
    let skipped = bare.into_iter().map(|b| RunCheck {
        dir: b,
        games: 0,
        status: Status::Skipped(
            "no run.json or balance-run.json here or below: nothing records how its results were made"
                .into(),
        ),
    });
    runs.iter()
        .flat_map(|r| {
            if r.join(BALANCE_RUN_FILE).is_file() {
                return verify_balance(r, sample, threads);
            }
            if r.join(crate::files::DESIGN_STAGE_FILE).is_file() {
                return verify_design_stage(r, sample, threads);
            }
            vec![verify_run(r, sample, threads)]
        })
        .chain(skipped)
        .collect()
}

/// The games file of `budget` kept in a balance study: the whole
/// `games-<budget>.csv`, or the `sample-<budget>.csv` kept in its place.
fn balance_games_file(dir: &Path, budget: u64) -> Option<PathBuf> {
    [records::games_file(budget), records::sample_file(budget)]
        .into_iter()
        .map(|name| dir.join(name))
        .find(|p| p.is_file())
}

/// Verifies a `boardlab balance` study: each budget's first `sample` games
/// are replayed from balance-run.json and compared with its games file. A
/// budget without a file after the last one with a file was never played
/// (the study converged or hit its time cap first).
pub fn verify_balance(dir: &Path, sample: usize, threads: usize) -> Vec<RunCheck> {
    let fail = |status: Status| {
        vec![RunCheck {
            dir: dir.to_path_buf(),
            games: 0,
            status,
        }]
    };
    let spec = match records::read_spec(dir) {
        Ok(spec) => spec,
        Err(e) => return fail(Status::NotReproducible(format!("{e:#}"))),
    };
    let files: Vec<Option<PathBuf>> = spec
        .budgets
        .iter()
        .map(|&b| balance_games_file(dir, b))
        .collect();
    let Some(played) = files.iter().rposition(Option::is_some) else {
        return fail(Status::NotReproducible(format!(
            "no games-<budget>.csv or sample-<budget>.csv kept for budgets {:?}",
            spec.budgets
        )));
    };
    spec.budgets[..=played]
        .iter()
        .zip(&files)
        .map(|(&budget, file)| {
            let Some(file) = file else {
                return RunCheck {
                    dir: dir.join(records::games_file(budget)),
                    games: 0,
                    status: Status::NotReproducible(format!(
                        "neither {} nor {} is kept, though a larger budget was played",
                        records::games_file(budget),
                        records::sample_file(budget)
                    )),
                };
            };
            let (games, status) = match replay_budget(&spec, budget, file, sample, threads) {
                Ok((n, None)) => (n, Status::Fresh),
                Ok((n, Some(diff))) => {
                    let code = crate::provenance::CODE_FINGERPRINT;
                    let why = if spec.code == code {
                        diff
                    } else {
                        format!("{diff} (code fingerprint {} then, {code} now)", spec.code)
                    };
                    (n, Status::Stale(why))
                }
                Err(status) => (0, status),
            };
            RunCheck {
                dir: file.clone(),
                games,
                status,
            }
        })
        .collect()
}

/// Verifies an agent stage of `boardlab design`: the first `sample` games of
/// each variant's file are replayed from stage.json (the variant's spec, the
/// stage's agent in every seat, its seed) and compared.
pub fn verify_design_stage(dir: &Path, sample: usize, threads: usize) -> Vec<RunCheck> {
    let path = dir.join(crate::files::DESIGN_STAGE_FILE);
    let stage: crate::files::DesignStage = match crate::fsutil::read_text(&path, 1 << 26)
        .map_err(|e| e.to_string())
        .and_then(|t| serde_json::from_str(&t).map_err(|e| e.to_string()))
    {
        Ok(s) => s,
        Err(e) => {
            return vec![RunCheck {
                dir: path,
                games: 0,
                status: Status::NotReproducible(format!("unreadable: {e}")),
            }];
        }
    };
    let agent = match AgentSpec::parse(&stage.agent) {
        Ok(a) => a,
        Err(e) => {
            return vec![RunCheck {
                dir: path,
                games: 0,
                status: Status::NotReproducible(format!("agent '{}': {e}", stage.agent)),
            }];
        }
    };
    stage
        .variants
        .iter()
        .map(|v| {
            let file = dir.join(&v.file);
            let (games, status) = match replay_identical(
                &v.spec,
                &agent,
                (stage.seed, false),
                &file,
                v.games,
                (sample, threads),
            ) {
                Ok((n, None)) => (n, Status::Fresh),
                Ok((n, Some(diff))) => (n, Status::Stale(diff)),
                Err(status) => (0, status),
            };
            RunCheck {
                dir: file,
                games,
                status,
            }
        })
        .collect()
}

/// Replays the first `sample` of the (at most) `total` games in `file`,
/// played by `agent` in every seat of `spec` from `seed` (with duplicate
/// deals or not), and compares them.
fn replay_identical(
    spec: &str,
    agent: &AgentSpec,
    (seed, duplicate): (u64, bool),
    file: &Path,
    total: u64,
    (sample, threads): (usize, usize),
) -> Replayed {
    let name = file_name(file);
    let game = AnyGame::parse(spec).map_err(|e| format!("game '{spec}' no longer builds: {e}"))?;
    let seats = with_game!(&game, g => g.num_players());
    let recorded = read_games(file, 0..total, seats, None, sample)?;
    let indices = games_of(&recorded);
    if indices.is_empty() {
        return Err(format!("{name} holds no game").into());
    }
    let pool = crate::arena::pool(threads)?;
    let played: Vec<arena::PlayedGame> = with_game!(&game, g => {
        crate::arena::identical::play_identical(g, agent, indices.iter().copied(), seed, duplicate, &pool)
    });
    let replayed = games_table(&played)?;
    Ok((
        indices.len(),
        compare(&name, &recorded, &replayed, &indices),
    ))
}

/// The games replayed and the first difference found, or why nothing was compared.
type Replayed = Result<(usize, Option<String>), Status>;

/// Replays the first `sample` games of `budget` recorded in `file` with the
/// agent and seeds of `spec`; the games replayed and the first difference.
fn replay_budget(
    spec: &records::RunSpec,
    budget: u64,
    file: &Path,
    sample: usize,
    threads: usize,
) -> Replayed {
    let base = AgentSpec::parse(&spec.agent).map_err(|e| format!("agent '{}': {e}", spec.agent))?;
    let agent = skill::at_budget(&base, budget);
    // A budget's games are its first ones, in order (how many depends on
    // where its stopping rule or the time cap ended it).
    replay_identical(
        &spec.game,
        &agent,
        (spec.seed, spec.duplicate),
        file,
        spec.max_games,
        (sample, threads),
    )
}

/// The game indices of a table's rows, in order.
fn games_of(t: &Table) -> Vec<u64> {
    let mut games: Vec<u64> = t.rows.keys().map(|k| k.0).collect();
    games.dedup();
    games
}

/// The games rows of `played` as a table, as games.csv would hold them.
fn games_table(played: &[arena::PlayedGame]) -> Result<Table, String> {
    to_table(true, &|w| {
        played
            .iter()
            .flat_map(|g| &g.rows)
            .try_for_each(|r| w.serialize(r))
    })
}

/// Writes rows with `write` and reads them back as a table; `auto_header`:
/// csv writes the header with the first row (there is always a game row;
/// metrics may have none, so theirs is written by hand).
fn to_table(
    auto_header: bool,
    write: &dyn Fn(&mut csv::Writer<Vec<u8>>) -> csv::Result<()>,
) -> Result<Table, String> {
    let mut w = csv::WriterBuilder::new()
        .has_headers(auto_header)
        .from_writer(Vec::new());
    write(&mut w).map_err(|e| e.to_string())?;
    let bytes = w.into_inner().map_err(|e| e.to_string())?;
    parse_table(&String::from_utf8_lossy(&bytes))
}

/// Recorded rows of a CSV file: its header and rows keyed by `(game_index, seat)`.
struct Table {
    header: Vec<String>,
    rows: BTreeMap<(u64, u64), Vec<csv::StringRecord>>,
}

/// Why stored rows were not compared.
enum Fault {
    /// The file cannot be read or parsed.
    Unreadable(String),
    /// The rows are not the run's games.
    Incomplete(String),
}

/// An error found before any comparison: the inputs cannot be replayed.
impl From<String> for Status {
    fn from(why: String) -> Status {
        Status::NotReproducible(why)
    }
}

impl From<Fault> for Status {
    fn from(f: Fault) -> Status {
        match f {
            Fault::Unreadable(why) => Status::NotReproducible(why),
            Fault::Incomplete(why) => Status::Incomplete(why),
        }
    }
}

/// The file name of `path`, as messages name it.
fn file_name(path: &Path) -> String {
    path.file_name()
        .map_or(String::new(), |n| n.to_string_lossy().into_owned())
}

/// Opens a CSV file and finds its `game_index` and `seat` columns.
fn open_csv(path: &Path) -> Result<(CsvRows, Vec<String>, usize, usize), String> {
    let name = file_name(path);
    let mut r = crate::fsutil::csv_reader(path, crate::fsutil::MAX_CSV_BYTES)
        .map_err(|e| format!("cannot read {name}: {e}"))?;
    let header: Vec<String> = r
        .headers()
        .map_err(|e| format!("malformed {name}: {e}"))?
        .iter()
        .map(str::to_string)
        .collect();
    let col = |c: &str| header.iter().position(|h| h == c);
    let (Some(gi), Some(seat)) = (col("game_index"), col("seat")) else {
        return Err(format!("malformed {name}: no game_index and seat columns"));
    };
    Ok((r, header, gi, seat))
}

type CsvRows = csv::Reader<std::io::Take<std::fs::File>>;

/// The game index and seat of a row.
fn key(rec: &csv::StringRecord, gi: usize, seat: usize) -> Option<(u64, u64)> {
    let num = |i: usize| rec.get(i).and_then(|v| v.parse::<u64>().ok());
    Some((num(gi)?, num(seat)?))
}

/// Reads a games file, checking as the rows stream by that they are the
/// games of `order` (the run's game indices in the order it writes them)
/// from the first, each as one row per seat in seat order, and `expected`
/// games in all when that is known. Keeps the rows of the first `keep`
/// games only, so a file of any size costs little memory.
fn read_games(
    path: &Path,
    mut order: impl Iterator<Item = u64>,
    seats: usize,
    expected: Option<u64>,
    keep: usize,
) -> Result<Table, Fault> {
    let name = file_name(path);
    let (mut r, header, gi, seat) = open_csv(path).map_err(Fault::Unreadable)?;
    let mut rows: BTreeMap<(u64, u64), Vec<csv::StringRecord>> = BTreeMap::new();
    let (mut games, mut next_seat, mut current) = (0u64, 0usize, 0u64);
    for rec in r.records() {
        let rec = rec.map_err(|e| Fault::Unreadable(format!("malformed {name}: {e}")))?;
        let Some((g, s)) = key(&rec, gi, seat) else {
            return Err(Fault::Unreadable(format!(
                "malformed {name}: a row without a game index and seat: {rec:?}"
            )));
        };
        if next_seat == 0 {
            current = match order.next() {
                Some(want) if want == g => g,
                Some(want) => {
                    return Err(Fault::Incomplete(format!(
                        "{name} holds game {g} where game {want} belongs: a game is missing, \
                         repeated, out of order or not of this run"
                    )));
                }
                None => {
                    return Err(Fault::Incomplete(format!(
                        "{name} holds game {g}, beyond the run's games"
                    )));
                }
            };
        }
        if g != current || s != next_seat as u64 {
            return Err(Fault::Incomplete(format!(
                "{name} holds game {g} seat {s} where game {current} seat {next_seat} belongs \
                 (one row per seat, in seat order)"
            )));
        }
        if (games as usize) < keep {
            rows.entry((g, s)).or_default().push(rec);
        }
        next_seat += 1;
        if next_seat == seats {
            next_seat = 0;
            games += 1;
        }
    }
    if next_seat != 0 {
        return Err(Fault::Incomplete(format!(
            "{name} ends inside game {current}: {next_seat} of its {seats} rows"
        )));
    }
    if let Some(e) = expected
        && games != e
    {
        return Err(Fault::Incomplete(format!(
            "{name} holds {games} of the {e} games its record says it holds"
        )));
    }
    Ok(Table { header, rows })
}

/// Reads the rows of a metrics file belonging to the games `wanted`.
fn read_metrics(path: &Path, wanted: &[u64]) -> Result<Table, String> {
    let name = file_name(path);
    let (mut r, header, gi, seat) = open_csv(path)?;
    let wanted: std::collections::HashSet<u64> = wanted.iter().copied().collect();
    let mut rows: BTreeMap<(u64, u64), Vec<csv::StringRecord>> = BTreeMap::new();
    for rec in r.records() {
        let rec = rec.map_err(|e| format!("malformed {name}: {e}"))?;
        let Some(k) = key(&rec, gi, seat) else {
            return Err(format!(
                "malformed {name}: a row without a game index and seat: {rec:?}"
            ));
        };
        if wanted.contains(&k.0) {
            rows.entry(k).or_default().push(rec);
        }
    }
    Ok(Table { header, rows })
}

fn parse_table(text: &str) -> Result<Table, String> {
    let mut r = csv::Reader::from_reader(text.as_bytes());
    let header: Vec<String> = r
        .headers()
        .map_err(|e| e.to_string())?
        .iter()
        .map(str::to_string)
        .collect();
    let col = |name: &str| header.iter().position(|h| h == name);
    let (Some(gi), Some(seat)) = (col("game_index"), col("seat")) else {
        return Err("no game_index and seat columns".into());
    };
    let mut rows: BTreeMap<(u64, u64), Vec<csv::StringRecord>> = BTreeMap::new();
    for rec in r.records() {
        let rec = rec.map_err(|e| e.to_string())?;
        let Some(k) = key(&rec, gi, seat) else {
            return Err(format!("a row without a game index and seat: {rec:?}"));
        };
        rows.entry(k).or_default().push(rec);
    }
    Ok(Table { header, rows })
}

/// Compares recorded and replayed tables on the games replayed; the first
/// difference, named by game, seat and column.
fn compare(file: &str, recorded: &Table, replayed: &Table, games: &[u64]) -> Option<String> {
    let wanted: Vec<&String> = replayed
        .header
        .iter()
        .filter(|h| !TIMING_COLUMNS.contains(&h.as_str()))
        .collect();
    for h in &wanted {
        if !recorded.header.contains(h) {
            return Some(format!(
                "{file} has no '{h}' column (written by an older version)"
            ));
        }
    }
    let games: std::collections::HashSet<u64> = games.iter().copied().collect();
    let keys: std::collections::BTreeSet<&(u64, u64)> = recorded
        .rows
        .keys()
        .chain(replayed.rows.keys())
        .filter(|k| games.contains(&k.0))
        .collect();
    for key in keys {
        let empty = Vec::new();
        let a = recorded.rows.get(key).unwrap_or(&empty);
        let b = replayed.rows.get(key).unwrap_or(&empty);
        let at = format!("{file} game {} seat {}", key.0, key.1);
        if a.len() != b.len() {
            return Some(format!(
                "{at}: {} rows recorded, {} replayed",
                a.len(),
                b.len()
            ));
        }
        for (ra, rb) in a.iter().zip(b) {
            for h in &wanted {
                let ia = recorded.header.iter().position(|x| x == *h);
                let ib = replayed.header.iter().position(|x| x == *h);
                let va = ia.and_then(|i| ra.get(i)).unwrap_or("");
                let vb = ib.and_then(|i| rb.get(i)).unwrap_or("");
                if va != vb {
                    return Some(format!("{at} column {h}: recorded '{va}', today '{vb}'"));
                }
            }
        }
    }
    None
}

/// The games file verify replays in a run directory, with its metrics:
/// games.csv whenever it is there, readable or not (a broken games.csv is
/// reported, never passed over for the sample), else sample.csv.
fn stored_files(dir: &Path) -> Result<(&'static str, &'static str), String> {
    if std::fs::symlink_metadata(dir.join("games.csv")).is_ok() {
        Ok(("games.csv", "metrics.csv"))
    } else if std::fs::symlink_metadata(dir.join(SAMPLE_FILE)).is_ok() {
        Ok((SAMPLE_FILE, SAMPLE_METRICS_FILE))
    } else {
        Err(format!("neither games.csv nor {SAMPLE_FILE} is kept"))
    }
}

/// Replays the first `sample` games of the run in `dir` and compares them
/// with the record, after checking the record holds the run's games.
pub fn verify_run(dir: &Path, sample: usize, threads: usize) -> RunCheck {
    let (games_file, metrics_file) = match stored_files(dir) {
        Ok(files) => files,
        Err(why) => {
            return RunCheck {
                dir: dir.to_path_buf(),
                games: 0,
                status: Status::NotReproducible(why),
            };
        }
    };
    let (games, status) = match replay_and_compare(dir, games_file, metrics_file, sample, threads) {
        Ok((n, None)) => (n, Status::Fresh),
        Ok((n, Some(diff))) => (n, Status::Stale(diff)),
        Err(status) => (0, status),
    };
    RunCheck {
        dir: dir.join(games_file),
        games,
        status,
    }
}

/// The games a run directory's games file must hold: what run.json records
/// (see [`manifest::Manifest::expected_games`]), checked against the run's
/// size; for the sample, its first [`SAMPLE_GAMES`](crate::files::SAMPLE_GAMES).
fn expected_games(m: &manifest::Manifest, games_file: &str) -> Result<Option<u64>, Status> {
    let all = manifest::shard_len(m.identity.games, m.shard);
    if let Some(played) = m.played
        && (played > all || (played < all && m.identity.until.is_none()))
    {
        return Err(Status::Incomplete(format!(
            "run.json records {played} games played of a run of {all}{}",
            if played > all {
                ""
            } else {
                " without a stopping rule"
            }
        )));
    }
    let expected = m.expected_games();
    Ok(if games_file == SAMPLE_FILE {
        expected.map(|e| e.min(crate::files::SAMPLE_GAMES as u64))
    } else {
        expected
    })
}

fn replay_and_compare(
    dir: &Path,
    games_file: &str,
    metrics_file: &str,
    sample: usize,
    threads: usize,
) -> Replayed {
    let m = manifest::read(dir)?;
    let id = &m.identity;
    let game = AnyGame::parse(&id.game)
        .map_err(|e| format!("game '{}' no longer builds: {e}", id.game))?;
    for (param, hash) in &id.data_files {
        let path = param.split_once('=').map_or(param.as_str(), |p| p.1);
        match crate::provenance::sha256_file(Path::new(path)) {
            Ok(h) if &h == hash => {}
            Ok(_) => return Err(format!("data file {path} has changed since the run").into()),
            Err(e) => return Err(format!("data file {path}: {e}").into()),
        }
    }
    let mut specs = Vec::new();
    for (i, label) in id.agents.iter().enumerate() {
        let resolved = id.resolved_agents.get(i).unwrap_or(label);
        let spec = crate::spec::Spec::parse(resolved)
            .map_err(|e| format!("agent '{label}' ({resolved}): {e}"))?;
        // A time budget, wall (`time_ms`) or the thread's CPU (`cpu_ms`),
        // buys a different number of iterations on every run.
        if let Some((key, _)) = spec
            .params
            .iter()
            .find(|(k, _)| *k == "time_ms" || *k == "cpu_ms")
        {
            let budget = if key == "time_ms" {
                "wall-time"
            } else {
                "CPU-time"
            };
            return Err(format!(
                "agent '{label}' searches for a {budget} budget ({key}); its games cannot be replayed exactly"
            )
            .into());
        }
        let today = AgentSpec::parse(label).map_err(|e| format!("agent '{label}': {e}"))?;
        if today.spec != spec {
            return Ok((
                0,
                Some(format!(
                    "agent '{label}' now expands to '{}', the run used '{resolved}'",
                    today.spec
                )),
            ));
        }
        specs.push(AgentSpec {
            label: label.clone(),
            spec,
        });
    }
    let seats = with_game!(&game, g => g.num_players());
    if seats != specs.len() {
        return Err(format!("{seats} seats but {} agents recorded", specs.len()).into());
    }
    let recorded = read_games(
        &dir.join(games_file),
        manifest::shard_indices(id.games, m.shard),
        seats,
        expected_games(&m, games_file)?,
        sample,
    )?;
    let indices = games_of(&recorded);
    if indices.is_empty() {
        return Err(format!("{games_file} holds no game of this run").into());
    }
    let recorded_metrics = match dir.join(metrics_file) {
        p if std::fs::symlink_metadata(&p).is_ok() => Some(read_metrics(&p, &indices)?),
        _ => None,
    };
    let opts = RunOptions {
        seed: id.seed,
        duplicate: id.duplicate,
        fixed_seats: id.fixed_seats,
        move_timeout: id.move_timeout_ms.map(std::time::Duration::from_millis),
        ..RunOptions::default()
    };
    let pool = crate::arena::pool(threads)?;
    let played: Vec<arena::PlayedGame> = with_game!(&game, g => {
        let labels: Vec<String> = specs.iter().map(|s| s.label.clone()).collect();
        pool.install(|| {
            indices
                .par_iter()
                .map(|&i| arena::play_indexed(g, &specs, &labels, i, &opts))
                .collect()
        })
    });
    let replayed = games_table(&played)?;
    if let Some(diff) = compare(games_file, &recorded, &replayed, &indices) {
        return Ok((indices.len(), Some(diff)));
    }
    if let Some(recorded_metrics) = recorded_metrics {
        let replayed = to_table(false, &|w| {
            w.write_record(["game_index", "seat", "metric", "value"])?;
            played
                .iter()
                .flat_map(|g| &g.metrics)
                .try_for_each(|r| w.serialize(r))
        })?;
        if let Some(diff) = compare(metrics_file, &recorded_metrics, &replayed, &indices) {
            return Ok((indices.len(), Some(diff)));
        }
    }
    Ok((indices.len(), None))
}

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
use crate::game::Game;
use crate::games::AnyGame;
use crate::with_game;

/// The first games of each run, kept as sample.csv (and their metrics as
/// sample-metrics.csv) so that a study whose raw files are not kept can still
/// be replayed and compared.
pub const SAMPLE_GAMES: usize = 20;
/// The games sample of a run directory.
pub const SAMPLE_FILE: &str = "sample.csv";
/// The metrics of the sampled games.
pub const SAMPLE_METRICS_FILE: &str = "sample-metrics.csv";

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
    /// The study's README marks it superseded: the marking line.
    Superseded(String),
}

impl Status {
    /// True for the outcomes that pass (fresh, or explicitly superseded).
    pub fn passes(&self) -> bool {
        matches!(self, Status::Fresh | Status::Superseded(_))
    }
}

impl std::fmt::Display for Status {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Status::Fresh => write!(f, "fresh"),
            Status::Stale(why) => write!(f, "stale: {why}"),
            Status::NotReproducible(why) => write!(f, "not reproducible: {why}"),
            Status::Superseded(line) => write!(f, "skipped, superseded: {line}"),
        }
    }
}

/// The result for one run directory.
#[derive(Clone, Debug)]
pub struct RunCheck {
    /// The run directory.
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
/// balance study's balance-run.json), in order.
pub fn run_dirs(dir: &Path) -> Vec<PathBuf> {
    if dir.join("run.json").is_file() || dir.join(records::RUN_FILE).is_file() {
        return vec![dir.to_path_buf()];
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
    subs.iter().flat_map(|s| run_dirs(s)).collect()
}

/// Verifies a study folder: skipped when superseded, else each run below it.
pub fn verify_study(dir: &Path, sample: usize, threads: usize) -> Vec<RunCheck> {
    if let Some(line) = superseded(dir) {
        return vec![RunCheck {
            dir: dir.to_path_buf(),
            games: 0,
            status: Status::Superseded(line),
        }];
    }
    let runs = run_dirs(dir);
    if runs.is_empty() {
        return vec![RunCheck {
            dir: dir.to_path_buf(),
            games: 0,
            status: Status::NotReproducible(
                "no run.json here or below: nothing records how these results were made".into(),
            ),
        }];
    }
    runs.iter()
        .flat_map(|r| {
            if r.join(records::RUN_FILE).is_file() {
                return verify_balance(r, sample, threads);
            }
            let (games, status) = verify_run(r, sample, threads);
            vec![RunCheck {
                dir: r.clone(),
                games,
                status,
            }]
        })
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
                Err(why) => (0, Status::NotReproducible(why)),
            };
            RunCheck {
                dir: file.clone(),
                games,
                status,
            }
        })
        .collect()
}

/// Replays the first `sample` games of `budget` recorded in `file` with the
/// agent and seeds of `spec`; the games replayed and the first difference.
fn replay_budget(
    spec: &records::RunSpec,
    budget: u64,
    file: &Path,
    sample: usize,
    threads: usize,
) -> Outcome {
    let name = file
        .file_name()
        .map_or(String::new(), |n| n.to_string_lossy().into_owned());
    let recorded = read_table(file)?;
    let game = AnyGame::parse(&spec.game)
        .map_err(|e| format!("game '{}' no longer builds: {e}", spec.game))?;
    let base = AgentSpec::parse(&spec.agent).map_err(|e| format!("agent '{}': {e}", spec.agent))?;
    let agent = skill::at_budget(&base, budget);
    let indices: Vec<u64> = (0..spec.max_games)
        .filter(|i| recorded.rows.contains_key(&(*i, 0)))
        .take(sample)
        .collect();
    if indices.is_empty() {
        return Err(format!("{name} holds no game"));
    }
    let pool = crate::balance::pool(threads).map_err(|e| e.to_string())?;
    let played: Vec<arena::PlayedGame> = with_game!(&game, g => {
        crate::balance::play_identical(g, &agent, indices.iter().copied(), spec.seed, spec.duplicate, &pool)
    });
    let replayed = games_table(&played)?;
    Ok((
        indices.len(),
        compare(&name, &recorded, &replayed, &indices),
    ))
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

fn read_table(path: &Path) -> Result<Table, String> {
    let text = crate::data::read_text(&path.display().to_string()).map_err(|e| e.to_string())?;
    parse_table(&text).map_err(|e| format!("malformed {}: {e}", path.display()))
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
        let num = |i: usize| rec.get(i).and_then(|v| v.parse::<u64>().ok());
        let (Some(g), Some(s)) = (num(gi), num(seat)) else {
            return Err(format!("a row without a game index and seat: {rec:?}"));
        };
        rows.entry((g, s)).or_default().push(rec);
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

/// Replays the first `sample` games of the run in `dir` and compares them
/// with the record; returns the games replayed and the status.
pub fn verify_run(dir: &Path, sample: usize, threads: usize) -> (usize, Status) {
    match replay_and_compare(dir, sample, threads) {
        Ok((n, None)) => (n, Status::Fresh),
        Ok((n, Some(diff))) => (n, Status::Stale(diff)),
        Err(why) => (0, Status::NotReproducible(why)),
    }
}

type Outcome = Result<(usize, Option<String>), String>;

fn replay_and_compare(dir: &Path, sample: usize, threads: usize) -> Outcome {
    let m = manifest::read(dir)?;
    let id = &m.identity;
    let (games_file, metrics_file) = if dir.join("games.csv").is_file() {
        ("games.csv", "metrics.csv")
    } else if dir.join(SAMPLE_FILE).is_file() {
        (SAMPLE_FILE, SAMPLE_METRICS_FILE)
    } else {
        return Err(format!("neither games.csv nor {SAMPLE_FILE} is kept"));
    };
    let recorded = read_table(&dir.join(games_file))?;
    let recorded_metrics = match dir.join(metrics_file) {
        p if p.is_file() => Some(read_table(&p)?),
        _ => None,
    };
    let game = AnyGame::parse(&id.game)
        .map_err(|e| format!("game '{}' no longer builds: {e}", id.game))?;
    for (param, hash) in &id.data_files {
        let path = param.split_once('=').map_or(param.as_str(), |p| p.1);
        match crate::provenance::sha256_file(Path::new(path)) {
            Ok(h) if &h == hash => {}
            Ok(_) => return Err(format!("data file {path} has changed since the run")),
            Err(e) => return Err(format!("data file {path}: {e}")),
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
            ));
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
    let indices: Vec<u64> = manifest::shard_indices(id.games, m.shard)
        .filter(|i| recorded.rows.contains_key(&(*i, 0)))
        .take(sample)
        .collect();
    if indices.is_empty() {
        return Err(format!("{games_file} holds no game of this run"));
    }
    let opts = RunOptions {
        seed: id.seed,
        duplicate: id.duplicate,
        fixed_seats: id.fixed_seats,
        move_timeout: id.move_timeout_ms.map(std::time::Duration::from_millis),
        ..RunOptions::default()
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| format!("cannot start {threads} threads: {e}"))?;
    let played: Vec<arena::PlayedGame> = with_game!(&game, g => {
        let labels: Vec<String> = specs.iter().map(|s| s.label.clone()).collect();
        if g.num_players() != specs.len() {
            return Err(format!("{} seats but {} agents recorded", g.num_players(), specs.len()));
        }
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

/// Writes sample.csv and sample-metrics.csv: the header and the rows of the
/// first [`SAMPLE_GAMES`] games of games.csv and metrics.csv in `dir`.
pub fn write_sample(dir: &Path) -> std::io::Result<()> {
    for (from, to) in [
        ("games.csv", SAMPLE_FILE),
        ("metrics.csv", SAMPLE_METRICS_FILE),
    ] {
        let path = dir.join(from);
        if !path.is_file() {
            continue;
        }
        let mut r = csv::Reader::from_path(&path)?;
        let tmp = dir.join(format!("{to}.tmp"));
        let mut w = csv::Writer::from_path(&tmp)?;
        w.write_record(r.headers()?)?;
        let mut seen = std::collections::BTreeSet::new();
        for rec in r.records() {
            let rec = rec?;
            let index = rec.get(0).unwrap_or("").to_string();
            if !seen.contains(&index) {
                if seen.len() == SAMPLE_GAMES {
                    break;
                }
                seen.insert(index);
            }
            w.write_record(&rec)?;
        }
        w.flush()?;
        drop(w);
        std::fs::rename(tmp, dir.join(to))?;
    }
    Ok(())
}

//! Experiments as files: a TOML study (a game, a grid of game parameters to
//! sweep, agent lineups, games per cell, a master seed) run cell by cell into
//! one directory with the raw CSV of every cell, combined summaries, a report
//! and a provenance file.
//!
//! Every cell uses the same master seed, so game `i` of every cell starts from
//! the same seed (common random numbers): differences between variants are
//! differences of rules, not of luck.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::arena::record::{self, AgentSummary, GameRow, SeatSummary, Tally};
use crate::arena::{self, RunOptions};
use crate::error::SpecError;
use crate::files::{COMPARISONS_FILE, EXPERIMENT_FILE};
use crate::report::balance::ReportMeta;
use crate::report::plots;
use crate::report::stream;
use crate::report::sweep::{SweepTally, sweep_lines};
use crate::runtime::{Builtin, GameSource};
use crate::spec::Spec;
use crate::stats::ratings::{RatingOptions, RatingStream};
use crate::stats::seat_tests::PairedSums;

/// An experiment file.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Experiment {
    /// The question the study answers, one or two sentences.
    pub description: String,
    /// The base game spec, e.g. `fox` or `hamunaptra(players=2)`.
    pub game: String,
    /// Game parameters to sweep: every combination of the listed values is a cell.
    #[serde(default)]
    pub sweep: BTreeMap<String, Vec<toml::Value>>,
    /// Agent lineups, one agent per seat; a single agent fills every seat (self-play).
    #[serde(default)]
    pub lineups: Vec<Vec<String>>,
    /// Agents to play every combination of as many of them as the game has seats.
    #[serde(default)]
    pub round_robin: Vec<String>,
    /// Games per cell (rounded up to whole seat rotations).
    pub games: u64,
    /// Master seed, shared by every cell.
    #[serde(default = "one")]
    pub seed: u64,
    /// Worker threads (0: one per core).
    #[serde(default)]
    pub threads: usize,
    /// Duplicate deals in every cell (see `run --duplicate`).
    #[serde(default)]
    pub duplicate: bool,
    /// The cell every other is compared with (`c000`, ...); the first by default.
    #[serde(default)]
    pub baseline: Option<String>,
}

fn one() -> u64 {
    1
}

/// One cell of the grid: a game spec and a lineup.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Cell {
    /// Short id, `c000`, `c001`, ...: the cell's directory under `cells/`.
    pub id: String,
    /// The swept parameters of this cell, in key order.
    pub params: Vec<(String, String)>,
    /// The full game spec.
    pub game: String,
    /// Agents per seat.
    pub agents: Vec<String>,
    /// Which lineup of the file (in order: `lineups`, then the round-robin
    /// combinations) this cell plays; the same across the sweep.
    pub lineup: usize,
}

fn value_text(v: &toml::Value) -> String {
    match v {
        toml::Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

impl Experiment {
    /// Reads and validates an experiment file over the built-in games.
    pub fn load(path: &Path) -> Result<Experiment, SpecError> {
        Experiment::load_in(&Builtin::default(), path)
    }

    /// Reads and validates an experiment file whose games come from `source`.
    pub fn load_in(source: &dyn GameSource, path: &Path) -> Result<Experiment, SpecError> {
        let fail = |why: String| SpecError::DataFile {
            path: path.display().to_string(),
            why,
        };
        let text = crate::fsutil::read_text(path, crate::fsutil::MAX_TEXT_BYTES)
            .map_err(|e| fail(e.to_string()))?;
        let exp: Experiment = crate::data::parse_toml(&text).map_err(fail)?;
        exp.cells_in(source)?;
        Ok(exp)
    }

    /// The grid: every sweep combination × every lineup, each checked (game
    /// builds, agents parse, agent count fits the seats).
    pub fn cells(&self) -> Result<Vec<Cell>, SpecError> {
        self.cells_in(&Builtin::default())
    }

    /// [`Experiment::cells`] with games from `source`.
    pub fn cells_in(&self, source: &dyn GameSource) -> Result<Vec<Cell>, SpecError> {
        if self.games == 0 {
            return Err(SpecError::Invalid(
                "experiment 'games' must be at least 1".into(),
            ));
        }
        if self.lineups.is_empty() && self.round_robin.is_empty() {
            return Err(SpecError::Invalid(
                "experiment has no 'lineups' and no 'round_robin' agents".into(),
            ));
        }
        let base = Spec::parse(&self.game)?;
        let mut combos: Vec<Vec<(String, String)>> = vec![Vec::new()];
        for (key, values) in &self.sweep {
            if values.is_empty() {
                return Err(SpecError::Invalid(format!("sweep '{key}' has no values")));
            }
            combos = combos
                .into_iter()
                .flat_map(|c| {
                    values.iter().map(move |v| {
                        let mut c = c.clone();
                        c.push((key.clone(), value_text(v)));
                        c
                    })
                })
                .collect();
        }
        let mut cells = Vec::new();
        for combo in combos {
            let mut spec = base.clone();
            for (k, v) in &combo {
                spec.params.set(k, v);
            }
            let game = source.game(&spec)?;
            let seats = game.num_players();
            let mut lineups: Vec<Vec<String>> = self
                .lineups
                .iter()
                .map(|l| {
                    if l.len() == 1 {
                        vec![l[0].clone(); seats]
                    } else {
                        l.clone()
                    }
                })
                .collect();
            lineups.extend(combinations(&self.round_robin, seats));
            if !self.round_robin.is_empty() && self.round_robin.len() < seats {
                return Err(SpecError::Invalid(format!(
                    "round_robin lists {} agents but {spec} has {seats} seats",
                    self.round_robin.len()
                )));
            }
            for (lineup, agents) in lineups.into_iter().enumerate() {
                if agents.len() != seats {
                    return Err(SpecError::Invalid(format!(
                        "lineup [{}] has {} agents but {spec} has {seats} seats",
                        agents.join(", "),
                        agents.len()
                    )));
                }
                game.check_agents(&agents)?;
                cells.push(Cell {
                    id: format!("c{:03}", cells.len()),
                    params: combo.clone(),
                    game: spec.to_string(),
                    agents,
                    lineup,
                });
            }
        }
        if let Some(b) = &self.baseline
            && !cells.iter().any(|c| &c.id == b)
        {
            return Err(SpecError::Invalid(format!(
                "baseline '{b}' is not a cell: the cells are c000 to c{:03}",
                cells.len() - 1
            )));
        }
        Ok(cells)
    }
}

/// Every combination of `k` distinct items, in order.
fn combinations(items: &[String], k: usize) -> Vec<Vec<String>> {
    if k == 0 {
        return vec![Vec::new()];
    }
    if items.len() < k {
        return Vec::new();
    }
    let mut out: Vec<Vec<String>> = combinations(&items[1..], k - 1)
        .into_iter()
        .map(|mut rest| {
            rest.insert(0, items[0].clone());
            rest
        })
        .collect();
    out.extend(combinations(&items[1..], k));
    out
}

/// What one cell's games came to; the rows stay in its games.csv, read one
/// game at a time, so an experiment's memory does not grow with its games.
#[derive(Clone, Debug)]
pub struct CellResult {
    /// The cell.
    pub cell: Cell,
    /// Per agent of the lineup, labelled as in the experiment file.
    pub agents: Vec<AgentSummary>,
    /// Per seat.
    pub seats: Vec<SeatSummary>,
}

impl CellResult {
    /// The cell's summaries, one per agent and per seat of its lineup (an
    /// agent or seat without games gets an empty tally).
    fn of(cell: &Cell, agents: &[AgentSummary], seats: &[SeatSummary]) -> CellResult {
        let empty = || Tally::of(std::iter::empty());
        CellResult {
            cell: cell.clone(),
            agents: cell
                .agents
                .iter()
                .enumerate()
                .map(|(i, label)| AgentSummary {
                    agent_index: i,
                    agent: label.clone(),
                    tally: agents.get(i).map_or_else(empty, |a| a.tally.clone()),
                })
                .collect(),
            seats: (0..cell.agents.len())
                .map(|s| SeatSummary {
                    seat: s as u8,
                    tally: seats.get(s).map_or_else(empty, |t| t.tally.clone()),
                })
                .collect(),
        }
    }

    fn dir(&self, out: &Path) -> PathBuf {
        out.join("cells").join(&self.cell.id)
    }
}

/// Provenance of an experiment's outputs.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Provenance {
    /// The command line, shell-quoted.
    pub command: String,
    /// The experiment file.
    pub experiment: String,
    /// SHA-256 of the experiment file.
    #[serde(default)]
    pub experiment_sha256: Option<String>,
    /// The git commit the binary was built from, if known.
    pub git_commit: Option<String>,
    /// Whether that build had uncommitted edits to its sources.
    #[serde(default)]
    pub dirty: Option<bool>,
    /// Fingerprint of the sources that decide games.
    #[serde(default)]
    pub code: Option<String>,
    /// Master seed.
    pub seed: u64,
    /// Worker threads requested (0: one per core).
    pub threads: usize,
    /// The machine.
    #[serde(default)]
    pub machine: Option<crate::provenance::Machine>,
    /// boardlab version.
    pub version: String,
    /// When the run finished (UTC, RFC 3339).
    pub date: String,
}

/// How to run an experiment.
#[derive(Clone, Debug)]
pub struct ExperimentOptions {
    /// Output directory.
    pub out: PathBuf,
    /// Threads (overrides the file's when given).
    pub threads: Option<usize>,
    /// Continue cells already started.
    pub resume: bool,
    /// Overwrite an earlier output.
    pub force: bool,
    /// Progress bars.
    pub progress: bool,
    /// The command line.
    pub command: String,
    /// Play only shard `k` of `n` of every cell's games; `boardlab merge`
    /// combines the shard directories and writes the combined outputs.
    pub shard: Option<(u64, u64)>,
}

/// Runs every cell and writes the combined outputs; returns the cells' summaries.
pub fn run(
    exp: &Experiment,
    file: &Path,
    opts: &ExperimentOptions,
) -> Result<Vec<CellResult>, arena::RunError> {
    run_in(&Builtin::default(), exp, file, opts)
}

/// [`run`] with games (and agent kinds) from `source`.
pub fn run_in(
    source: &dyn GameSource,
    exp: &Experiment,
    file: &Path,
    opts: &ExperimentOptions,
) -> Result<Vec<CellResult>, arena::RunError> {
    if opts.progress {
        // Every combination's game is built and checked before the first
        // game: a sweep of many thousands takes seconds, said here.
        let combinations = exp
            .sweep
            .values()
            .fold(1usize, |n, values| n.saturating_mul(values.len()));
        eprintln!(
            "checking the {combinations} parameter combination{} of {}",
            if combinations == 1 { "" } else { "s" },
            file.display()
        );
    }
    let cells = exp.cells_in(source)?;
    let threads = opts.threads.unwrap_or(exp.threads);
    if threads > crate::arena::max_threads() {
        return Err(SpecError::Invalid(format!(
            "threads = {threads} in {}: at most {} (4 per core), or 0 for one per core",
            file.display(),
            crate::arena::max_threads()
        ))
        .into());
    }
    let text = crate::fsutil::read_text(file, crate::fsutil::MAX_TEXT_BYTES).map_err(|e| {
        SpecError::DataFile {
            path: file.display().to_string(),
            why: e.to_string(),
        }
    })?;
    // Held for the whole experiment; the cells folder (like each cell's,
    // which its run holds) is never a link, so nothing is written outside.
    let _out = crate::fsutil::OutputLock::claim(&opts.out).map_err(|e| io(&opts.out, e))?;
    let cells_dir = opts.out.join("cells");
    let _cells = crate::fsutil::MadeDir::make(&cells_dir).map_err(|e| io(&cells_dir, e))?;
    let mut results = Vec::new();
    for cell in &cells {
        let game = source.game(&Spec::parse(&cell.game)?)?;
        let dir = cells_dir.join(&cell.id);
        let run_opts = RunOptions {
            games: exp.games,
            seed: exp.seed,
            threads,
            out: Some(dir.clone()),
            force: opts.force,
            resume: opts.resume && dir.join(crate::files::MANIFEST_FILE).exists(),
            shard: opts.shard,
            progress: opts.progress,
            command: opts.command.clone(),
            duplicate: exp.duplicate,
            ..RunOptions::default()
        };
        if opts.progress {
            eprintln!(
                "cell {} of {}: {} with {}",
                cell.id,
                cells.len(),
                cell.game,
                cell.agents.join(", ")
            );
        }
        let out = game.run(&cell.agents, &run_opts)?;
        results.push(CellResult::of(cell, &out.agents, &out.seats));
    }
    let copy = opts.out.join(EXPERIMENT_FILE);
    crate::fsutil::write_atomic(&copy, text).map_err(|e| io(&copy, e))?;
    // A shard's cells hold part of the games: the combined outputs are
    // written by `merge` once every shard is there.
    if opts.shard.is_none() {
        results = write_outputs(exp, file, &cells, opts, threads)?;
    }
    Ok(results)
}

fn io(p: &Path, e: std::io::Error) -> arena::RunError {
    arena::RunError::Output {
        path: p.display().to_string(),
        why: e.to_string(),
    }
}

/// Merges the output directories of the shards of one experiment (each
/// `experiment FILE --shard K/N`): every cell as `merge` does for runs, then
/// the combined outputs a single run of the experiment writes.
pub fn merge(
    dirs: &[PathBuf],
    out: &Path,
    force: bool,
    command: &str,
) -> Result<Vec<CellResult>, arena::RunError> {
    merge_in(&Builtin::default(), dirs, out, force, command)
}

/// [`merge`] with games from `source`.
pub fn merge_in(
    source: &dyn GameSource,
    dirs: &[PathBuf],
    out: &Path,
    force: bool,
    command: &str,
) -> Result<Vec<CellResult>, arena::RunError> {
    let bad = |dir: &Path, why: String| arena::RunError::Merge {
        path: dir.display().to_string(),
        why,
    };
    let Some(first) = dirs.first() else {
        return Err(bad(out, "no shard directories given".into()));
    };
    let read = |dir: &Path| {
        crate::fsutil::read_text(&dir.join(EXPERIMENT_FILE), crate::fsutil::MAX_TEXT_BYTES)
            .map_err(|e| bad(dir, format!("cannot read {EXPERIMENT_FILE}: {e}")))
    };
    let text = read(first)?;
    for dir in &dirs[1..] {
        if read(dir)? != text {
            return Err(bad(
                dir,
                format!(
                    "its {EXPERIMENT_FILE} differs from that of {}: not a shard of the same experiment",
                    first.display()
                ),
            ));
        }
    }
    let exp: Experiment = crate::data::parse_toml(&text)
        .map_err(|e| bad(first, format!("malformed {EXPERIMENT_FILE}: {e}")))?;
    let cells = exp.cells_in(source)?;
    let _out = crate::fsutil::OutputLock::claim(out).map_err(|e| io(out, e))?;
    let copy = out.join(EXPERIMENT_FILE);
    crate::fsutil::write_atomic(&copy, &text).map_err(|e| io(&copy, e))?;
    let cells_dir = out.join("cells");
    let _cells = crate::fsutil::MadeDir::make(&cells_dir).map_err(|e| io(&cells_dir, e))?;
    for cell in &cells {
        let parts: Vec<PathBuf> = dirs
            .iter()
            .map(|d| d.join("cells").join(&cell.id))
            .collect();
        let dir = out.join("cells").join(&cell.id);
        source
            .game(&Spec::parse(&cell.game)?)?
            .merge(&parts, &dir, force)?;
    }
    let opts = ExperimentOptions {
        out: out.to_path_buf(),
        threads: None,
        resume: false,
        force,
        progress: false,
        command: command.to_string(),
        shard: None,
    };
    write_outputs(&exp, &copy, &cells, &opts, exp.threads)
}

/// The outputs over all cells: cells.csv, each cell's report, comparisons,
/// the experiment's report, combined summaries and provenance. Every cell's
/// games are read from its games.csv one game at a time.
fn write_outputs(
    exp: &Experiment,
    file: &Path,
    cells: &[Cell],
    opts: &ExperimentOptions,
    threads: usize,
) -> Result<Vec<CellResult>, arena::RunError> {
    write_cells_csv(&opts.out.join("cells.csv"), exp, cells).map_err(|e| io(&opts.out, e))?;
    let mut results = Vec::new();
    for cell in cells {
        let dir = opts.out.join("cells").join(&cell.id);
        let meta = |rows: u64| ReportMeta {
            title: format!("{}: {} with {}", cell.id, cell.game, cell.agents.join(", ")),
            notes: vec![format!(
                "{} games, master seed {}",
                rows / cell.agents.len().max(1) as u64,
                exp.seed
            )],
        };
        // The run's own labels, as its summary.csv has them.
        let labels = arena::manifest::read(&dir).ok().map(|m| m.identity.agents);
        let summary =
            stream::summarize_with(&dir, labels.as_deref(), meta, &RatingOptions::default())
                .map_err(|why| stream_error(&dir, why))?;
        results.push(CellResult::of(cell, &summary.agents, &summary.seats));
    }
    let comparisons =
        compare_cells(exp, &results, &opts.out).map_err(|why| stream_error(&opts.out, why))?;
    write_comparisons(&opts.out.join(COMPARISONS_FILE), &comparisons)
        .map_err(|e| io(&opts.out, e))?;
    write_report(&opts.out, exp, file, &results, &comparisons).map_err(|e| io(&opts.out, e))?;
    write_combined(&opts.out, &results).map_err(|e| io(&opts.out, e))?;
    let provenance = Provenance {
        command: opts.command.clone(),
        experiment: file.display().to_string(),
        experiment_sha256: crate::provenance::sha256_file(file).ok(),
        git_commit: crate::provenance::commit(),
        dirty: crate::provenance::dirty(),
        code: Some(crate::provenance::CODE_FINGERPRINT.to_string()),
        seed: exp.seed,
        threads,
        machine: Some(crate::provenance::Machine::current()),
        version: crate::provenance::VERSION.to_string(),
        date: crate::provenance::now(),
    };
    let text = serde_json::to_string_pretty(&provenance).map_err(|e| io(&opts.out, e.into()))?;
    crate::fsutil::write_atomic(&opts.out.join("provenance.json"), text + "\n")
        .map_err(|e| io(&opts.out, e))?;
    Ok(results)
}

fn stream_error(p: &Path, why: String) -> arena::RunError {
    arena::RunError::Output {
        path: p.display().to_string(),
        why,
    }
}

fn write_cells_csv(path: &Path, exp: &Experiment, cells: &[Cell]) -> std::io::Result<()> {
    let mut w = csv::Writer::from_writer(Vec::new());
    let mut header = vec!["cell".to_string(), "game".to_string(), "agents".to_string()];
    header.extend(exp.sweep.keys().cloned());
    w.write_record(&header)?;
    for cell in cells {
        let mut rec = vec![cell.id.clone(), cell.game.clone(), cell.agents.join(" | ")];
        rec.extend(cell.params.iter().map(|p| p.1.clone()));
        w.write_record(&rec)?;
    }
    crate::fsutil::write_atomic(path, csv_bytes(w)?)
}

/// The bytes a CSV writer over memory wrote.
fn csv_bytes(w: csv::Writer<Vec<u8>>) -> std::io::Result<Vec<u8>> {
    w.into_inner()
        .map_err(|e| std::io::Error::other(e.to_string()))
}

/// `summary.csv` and `seats.csv` of the whole experiment: one block per cell,
/// with the cell id as the first column.
fn write_combined(dir: &Path, results: &[CellResult]) -> std::io::Result<()> {
    let mut agents = csv::Writer::from_writer(Vec::new());
    let mut seats = csv::Writer::from_writer(Vec::new());
    let header = |keys: &[&'static str]| -> Vec<&'static str> {
        keys.iter()
            .chain(record::TALLY_HEADER.iter())
            .copied()
            .collect()
    };
    agents.write_record(header(&["cell", "agent_index", "agent"]))?;
    seats.write_record(header(&["cell", "seat"]))?;
    for r in results {
        for a in &r.agents {
            let keys = [
                r.cell.id.clone(),
                a.agent_index.to_string(),
                a.agent.clone(),
            ];
            agents.write_record(keys.iter().chain(a.tally.fields().iter()))?;
        }
        for s in &r.seats {
            let keys = [r.cell.id.clone(), s.seat.to_string()];
            seats.write_record(keys.iter().chain(s.tally.fields().iter()))?;
        }
    }
    crate::fsutil::write_atomic(&dir.join(crate::files::SUMMARY_FILE), csv_bytes(agents)?)?;
    crate::fsutil::write_atomic(&dir.join(crate::files::SEATS_FILE), csv_bytes(seats)?)
}

/// The table of cells: each one's agents and seats with 95 % intervals and
/// a link to its own report.
fn cells_table(md: &mut String, results: &[CellResult]) {
    use std::fmt::Write as _;
    let _ = writeln!(md, "## Cells\n");
    let _ = writeln!(
        md,
        "| cell | game | agents | agent win rates [95 % CI] | seat win rates [95 % CI] | report |"
    );
    let _ = writeln!(md, "|---|---|---|---|---|---|");
    for r in results {
        let agents: Vec<String> = r
            .agents
            .iter()
            .map(|a| {
                format!(
                    "{}: {:.3} [{:.3}, {:.3}]",
                    a.agent, a.tally.win_rate, a.tally.ci_low, a.tally.ci_high
                )
            })
            .collect();
        let seats: Vec<String> = r
            .seats
            .iter()
            .map(|s| {
                format!(
                    "{}: {:.3} [{:.3}, {:.3}]",
                    s.seat, s.tally.win_rate, s.tally.ci_low, s.tally.ci_high
                )
            })
            .collect();
        let _ = writeln!(
            md,
            "| {} | `{}` | {} | {} | {} | [report](cells/{}/report.md) |",
            r.cell.id,
            r.cell.game,
            r.cell.agents.join(", "),
            agents.join("<br>"),
            seats.join("<br>"),
            r.cell.id
        );
    }
}

/// One chart per swept parameter, over the cells of each lineup, linked
/// from the report.
fn sweep_charts(
    md: &mut String,
    dir: &Path,
    exp: &Experiment,
    results: &[CellResult],
) -> std::io::Result<()> {
    use std::fmt::Write as _;
    for (key, values) in &exp.sweep {
        let numeric = values
            .iter()
            .all(|v| v.as_integer().is_some() || v.as_float().is_some());
        let x_of = |text: &str| -> f64 {
            if numeric {
                text.parse().unwrap_or(0.0)
            } else {
                values
                    .iter()
                    .position(|v| value_text(v) == text)
                    .unwrap_or(0) as f64
            }
        };
        let lineups = results
            .iter()
            .map(|r| r.cell.lineup)
            .max()
            .map_or(0, |m| m + 1);
        for li in 0..lineups {
            let Some(first) = results.iter().find(|r| r.cell.lineup == li) else {
                continue;
            };
            let lineup = &first.cell.agents;
            let runs: Vec<(f64, Vec<SweepTally>)> = results
                .iter()
                .filter(|r| r.cell.lineup == li)
                .filter_map(|r| {
                    let tallies = r
                        .seats
                        .iter()
                        .filter(|s| s.tally.games > 0)
                        .map(|s| ((s.seat, format!("seat {}", s.seat)), s.tally.clone()))
                        .collect();
                    r.cell
                        .params
                        .iter()
                        .find(|p| &p.0 == key)
                        .map(|p| (x_of(&p.1), tallies))
                })
                .collect();
            if runs.len() < 2 {
                continue;
            }
            let chart = format!("sweep-{key}-{li}.svg");
            let title = format!("win rate by seat against {key} ({})", lineup.join(", "));
            let series = sweep_lines(&runs);
            if numeric {
                plots::sweep_chart(&dir.join(&chart), &title, key, &series)?;
            } else {
                // Categories (tile sets, character lists) get a categorical
                // axis: a file's name, not its path, labels its slot.
                let categories: Vec<String> = values
                    .iter()
                    .map(|v| {
                        let text = value_text(v);
                        text.rsplit('/').next().unwrap_or(&text).to_string()
                    })
                    .collect();
                plots::category_chart(&dir.join(&chart), &title, key, &categories, &series, None)?;
            }
            let _ = writeln!(md, "\n![win rate against {key}]({chart})");
        }
    }
    Ok(())
}

/// Ratings across cells, when some agents meet more than once (and nothing
/// is swept): into the report and ratings.csv.
fn cross_cell_ratings(
    md: &mut String,
    dir: &Path,
    exp: &Experiment,
    results: &[CellResult],
) -> std::io::Result<()> {
    use std::fmt::Write as _;
    let mut labels: Vec<String> = Vec::new();
    for r in results {
        for a in &r.cell.agents {
            if !labels.contains(a) {
                labels.push(a.clone());
            }
        }
    }
    if labels.len() > 1
        && results
            .iter()
            .all(|r| r.cell.agents.len() == results[0].cell.agents.len())
        && exp.sweep.is_empty()
    {
        // Game by game, cell after cell: the games of cell `c` numbered
        // from `c` × 10⁹, each agent by its place among all labels.
        let mut all = RatingStream::new();
        for (ci, r) in results.iter().enumerate() {
            let path = r.dir(dir).join(crate::files::GAMES_FILE);
            for game in stream::games_of(&path).map_err(std::io::Error::other)? {
                let mut game = game.map_err(std::io::Error::other)?;
                for row in &mut game {
                    row.game_index += ci as u64 * 1_000_000_000;
                    row.agent_index = labels.iter().position(|l| *l == row.agent).unwrap_or(0);
                }
                all.add_game(&game.iter().collect::<Vec<_>>());
            }
        }
        let ratings = all.finish(&RatingOptions::default());
        let _ = writeln!(
            md,
            "\n## Ratings over all cells\n\n{}",
            ratings.to_markdown()
        );
        crate::fsutil::write_atomic(&dir.join("ratings.csv"), ratings.to_csv())?;
    }
    Ok(())
}

/// The experiment's `report.md`: the question, the grid, every cell's agents
/// with 95 % intervals and seat balance, one chart per swept parameter, and
/// ratings over all cells when agents meet in several lineups.
fn write_report(
    dir: &Path,
    exp: &Experiment,
    file: &Path,
    results: &[CellResult],
    comparisons: &[Comparison],
) -> std::io::Result<()> {
    use std::fmt::Write as _;
    let mut md = String::new();
    let name = file
        .file_stem()
        .map_or("experiment".into(), |s| s.to_string_lossy().to_string());
    let _ = writeln!(md, "# {name}\n\n{}\n", exp.description.trim());
    let _ = writeln!(
        md,
        "Game `{}`, {} games per cell (rounded up to whole seat rotations), master seed {} shared by every cell (common random numbers). Made by `boardlab experiment {}`; see provenance.json.\n",
        exp.game,
        exp.games,
        exp.seed,
        file.display()
    );
    cells_table(&mut md, results);
    comparisons_markdown(&mut md, comparisons);
    sweep_charts(&mut md, dir, exp, results)?;
    cross_cell_ratings(&mut md, dir, exp, results)?;
    crate::fsutil::write_atomic(&dir.join("report.md"), md)
}

/// One cell's difference from the baseline cell in one quantity.
#[derive(Clone, Debug, PartialEq)]
pub struct Comparison {
    /// The cell.
    pub cell: String,
    /// The baseline cell.
    pub baseline: String,
    /// `seat 0`, or `agent 1` (the lineup's second agent).
    pub quantity: String,
    /// The cell's win rate (draws half) over the paired games.
    pub rate: f64,
    /// The baseline's win rate over the same games.
    pub baseline_rate: f64,
    /// The paired difference (cell − baseline), its interval and McNemar's test.
    pub paired: crate::stats::seat_tests::Paired,
    /// McNemar's p-value after Holm's correction over every comparison.
    pub p_holm: f64,
}

/// Each cell against the baseline (the file's `baseline`, or the first cell),
/// game by game: every cell plays game `i` from the same seed (common random
/// numbers), so the difference of each game's result is paired, and McNemar's
/// test and the paired interval use the pairs' agreement to cancel shared luck.
/// Quantities: each seat's win rate, and each lineup position's (agent index)
/// unless the cell and the baseline each seat one agent everywhere (positions
/// of identical agents differ only by luck). Holm's correction runs over every
/// comparison.
///
/// Each cell's games are read from its games.csv under `out`, beside the
/// baseline's, one game at a time.
pub fn compare_cells(
    exp: &Experiment,
    results: &[CellResult],
    out: &Path,
) -> Result<Vec<Comparison>, String> {
    compare_cells_with(exp, results, |r| {
        stream::games_of(&r.dir(out).join(crate::files::GAMES_FILE))
    })
}

/// [`compare_cells`] of the games `games` gives for each cell, in game order.
pub fn compare_cells_with<I>(
    exp: &Experiment,
    results: &[CellResult],
    games: impl Fn(&CellResult) -> Result<I, String>,
) -> Result<Vec<Comparison>, String>
where
    I: Iterator<Item = Result<Vec<GameRow>, String>>,
{
    let Some(base) = (match &exp.baseline {
        Some(id) => results.iter().find(|r| &r.cell.id == id),
        None => results.first(),
    }) else {
        return Ok(Vec::new());
    };
    let points = |r: &GameRow| r.outcome.points();
    let picks: [fn(&GameRow) -> usize; 2] = [|r| r.seat as usize, |r| r.agent_index];
    let mut out = Vec::new();
    for r in results.iter().filter(|r| r.cell.id != base.cell.id) {
        let seats = r.cell.agents.len().min(base.cell.agents.len());
        // Per pick (seat, agent) and quantity: the cell's points, the
        // baseline's, and the paired differences, game by game.
        let mut sums = vec![vec![(0.0, 0.0, PairedSums::default()); seats]; 2];
        let mut base_games = games(base)?;
        let mut current: Option<Vec<GameRow>> = None;
        for game in games(r)? {
            let game = game?;
            let index = game[0].game_index;
            while current.as_ref().is_none_or(|b| b[0].game_index < index) {
                match base_games.next() {
                    Some(b) => current = Some(b?),
                    None => {
                        current = None;
                        break;
                    }
                }
            }
            let Some(b) = current.as_ref().filter(|b| b[0].game_index == index) else {
                continue;
            };
            for (pick, sums) in picks.iter().zip(&mut sums) {
                for row in game.iter().filter(|row| pick(row) < seats) {
                    let q = pick(row);
                    // As an index of the baseline's rows by game and
                    // quantity would: its last row of the quantity.
                    if let Some(y) = b.iter().rev().find(|x| pick(x) == q).map(points) {
                        let (cell, baseline, d) = &mut sums[q];
                        *cell += points(row);
                        *baseline += y;
                        d.add(points(row) - y);
                    }
                }
            }
        }
        let alike = |agents: &[String]| agents.windows(2).all(|w| w[0] == w[1]);
        let agents_differ = !alike(&r.cell.agents) || !alike(&base.cell.agents);
        let quantities = ["seat", "agent"].into_iter().zip(&sums);
        for (what, sums) in quantities.filter(|(what, _)| *what == "seat" || agents_differ) {
            for (q, (x, y, d)) in sums.iter().enumerate() {
                let n = d.len().max(1) as f64;
                out.push(Comparison {
                    cell: r.cell.id.clone(),
                    baseline: base.cell.id.clone(),
                    quantity: format!("{what} {q}"),
                    rate: x / n,
                    baseline_rate: y / n,
                    paired: d.finish(),
                    p_holm: 1.0,
                });
            }
        }
    }
    let p: Vec<f64> = out.iter().map(|c| c.paired.test.p_value).collect();
    for (c, adjusted) in out.iter_mut().zip(crate::stats::holm(&p)) {
        c.p_holm = adjusted;
    }
    Ok(out)
}

fn write_comparisons(path: &Path, rows: &[Comparison]) -> std::io::Result<()> {
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record([
        "cell",
        "baseline",
        "quantity",
        "pairs",
        "rate",
        "baseline_rate",
        "difference",
        "ci_low",
        "ci_high",
        "better",
        "worse",
        "mcnemar",
        "p_value",
        "p_holm",
    ])?;
    for c in rows {
        let p = &c.paired;
        w.write_record([
            c.cell.clone(),
            c.baseline.clone(),
            c.quantity.clone(),
            p.n.to_string(),
            format!("{:.6}", c.rate),
            format!("{:.6}", c.baseline_rate),
            format!("{:.6}", p.mean),
            format!("{:.6}", p.low),
            format!("{:.6}", p.high),
            format!("{}", p.better),
            format!("{}", p.worse),
            format!("{:.6}", p.test.statistic),
            format!("{:.6}", p.test.p_value),
            format!("{:.6}", c.p_holm),
        ])?;
    }
    crate::fsutil::write_atomic(path, csv_bytes(w)?)
}

fn comparisons_markdown(md: &mut String, rows: &[Comparison]) {
    use std::fmt::Write as _;
    let Some(first) = rows.first() else {
        return;
    };
    let _ = writeln!(
        md,
        "\n## Differences from the baseline cell {}\n\nGame by game (the cells share seeds), \
         each cell's result minus the baseline's: the mean difference in win rate with its \
         paired 95 % interval, and McNemar's test (draws count half), its p-value also after \
         Holm's correction over every row. Lineup positions are compared only where the \
         agents differ. Also in {COMPARISONS_FILE}.\n",
        first.baseline
    );
    let _ = writeln!(
        md,
        "| cell | quantity | pairs | rate | baseline | difference [95 % CI] | McNemar χ² | p | Holm p |"
    );
    let _ = writeln!(md, "|---|---|---:|---:|---:|---|---:|---:|---:|");
    for c in rows {
        let p = &c.paired;
        let _ = writeln!(
            md,
            "| {} | {} | {} | {:.3} | {:.3} | {:+.3} [{:+.3}, {:+.3}] | {:.2} | {:.4} | {:.4} |",
            c.cell,
            c.quantity,
            p.n,
            c.rate,
            c.baseline_rate,
            p.mean,
            p.low,
            p.high,
            p.test.statistic,
            p.test.p_value,
            c.p_holm
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_are_compared_game_by_game_with_the_baseline() {
        use crate::report::balance::tests::rows;
        let e: Experiment = toml::from_str(
            "description = \"d\"\ngame = \"tictactoe\"\ngames = 1\nlineups = [[\"random\"]]\nbaseline = \"c001\"",
        )
        .unwrap();
        let cell = |id: &str| Cell {
            id: id.into(),
            params: Vec::new(),
            game: "tictactoe".into(),
            agents: vec!["x".into(), "y".into()],
            lineup: 0,
        };
        // Baseline c001: seat 0 wins games 0..50 of 100. Cell c000: seat 0
        // wins games 0..60 and draws 60..70: games 50..60 are +1 for seat 0,
        // games 60..70 +½; McNemar (Σd)² / Σd² = 15² / 12.5 = 18.
        let results = vec![
            CellResult::of(&cell("c000"), &[], &[]),
            CellResult::of(&cell("c001"), &[], &[]),
        ];
        let games = |r: &CellResult| {
            let rows = match r.cell.id.as_str() {
                "c000" => rows(100, 60, 10),
                _ => rows(100, 50, 0),
            };
            let mut games: Vec<Vec<GameRow>> = Vec::new();
            for row in rows {
                match games.last_mut() {
                    Some(g) if g[0].game_index == row.game_index => g.push(row),
                    _ => games.push(vec![row]),
                }
            }
            Ok::<_, String>(games.into_iter().map(Ok))
        };
        let c = compare_cells_with(&e, &results, games).unwrap();
        assert_eq!(c.len(), 4);
        let s0 = &c[0];
        assert_eq!((s0.cell.as_str(), s0.baseline.as_str()), ("c000", "c001"));
        assert_eq!(s0.quantity, "seat 0");
        assert_eq!(s0.paired.n, 100);
        assert!((s0.rate - 0.65).abs() < 1e-12 && (s0.baseline_rate - 0.5).abs() < 1e-12);
        assert!((s0.paired.mean - 0.15).abs() < 1e-12);
        assert!((s0.paired.test.statistic - 18.0).abs() < 1e-9, "{s0:?}");
        assert!(s0.paired.low > 0.0);
        // Seat 1 is the mirror image.
        assert!((c[1].paired.mean + 0.15).abs() < 1e-12);
        let mut md = String::new();
        comparisons_markdown(&mut md, &c);
        assert!(md.contains("baseline cell c001"), "{md}");
        assert!(
            md.contains("| c000 | seat 0 | 100 | 0.650 | 0.500 | +0.150 ["),
            "{md}"
        );
    }

    fn exp(text: &str) -> Result<Vec<Cell>, SpecError> {
        toml::from_str::<Experiment>(text)
            .map_err(|e| SpecError::Invalid(e.to_string()))?
            .cells()
    }

    #[test]
    fn grid_is_sweep_times_lineups() {
        let cells = exp(r#"
            description = "d"
            game = "fox"
            games = 10
            sweep = { players = [2, 4], start_used = [false, true] }
            lineups = [["random"]]
            "#)
        .unwrap();
        assert_eq!(cells.len(), 4);
        assert_eq!(cells[3].game, "fox(players=4,start_used=true)");
        assert_eq!(cells[3].agents.len(), 4);
        assert_eq!(
            cells[0].params,
            vec![
                ("players".into(), "2".into()),
                ("start_used".into(), "false".into())
            ]
        );
    }

    #[test]
    fn round_robin_makes_every_pair() {
        let cells = exp(r#"
            description = "d"
            game = "tictactoe"
            games = 10
            round_robin = ["random", "greedy", "mcts-1k"]
            "#)
        .unwrap();
        let lineups: Vec<String> = cells.iter().map(|c| c.agents.join("+")).collect();
        assert_eq!(
            lineups,
            ["random+greedy", "random+mcts-1k", "greedy+mcts-1k"]
        );
    }

    #[test]
    fn bad_experiments_are_explained() {
        let err = |t: &str| exp(t).unwrap_err().to_string();
        assert!(err("description = \"d\"\ngame = \"tictactoe\"\ngames = 1\nlineups = [[\"random\", \"random\", \"random\"]]").contains("has 3 agents"));
        assert!(
            err("description = \"d\"\ngame = \"tictactoe\"\ngames = 1").contains("no 'lineups'")
        );
        assert!(
            err("description = \"d\"\ngame = \"nope\"\ngames = 1\nlineups = [[\"random\"]]")
                .contains("unknown game")
        );
        assert!(err("description = \"d\"\ngame = \"tictactoe\"\ngames = 1\nlineups = [[\"random\", \"x\"]]").contains("unknown agent"));
        assert!(err("description = \"d\"\ngame = \"tictactoe\"\ngames = 1\nlineups = [[\"random\"]]\ncolour = 1").contains("unknown field"));
        assert!(err("description = \"d\"\ngame = \"tictactoe\"\ngames = 1\nlineups = [[\"random\"]]\nbaseline = \"c009\"").contains("baseline 'c009' is not a cell"));
    }
}

//! Every file the project writes, by name, and the rows of its result files.
//!
//! This module sits low (above `game`, below `stats` and the runner), so any
//! layer can name a file or read a row without importing the layer that
//! writes it: the runner, the reports, verify and the studies all agree on
//! one name per file.

pub mod rows;

use std::path::Path;

/// One row per game and seat (see [`rows::GameRow`]).
pub const GAMES_FILE: &str = "games.csv";
/// One row per game, seat and named statistic (see [`rows::MetricRow`]).
pub const METRICS_FILE: &str = "metrics.csv";
/// Win, draw and loss tallies per agent.
pub const SUMMARY_FILE: &str = "summary.csv";
/// Win, draw and loss tallies per seat.
pub const SEATS_FILE: &str = "seats.csv";
/// A run's identity (game, seeds, agents, options) and provenance.
pub const MANIFEST_FILE: &str = "run.json";

/// The first games of each run, kept as [`SAMPLE_FILE`] (and their metrics as
/// [`SAMPLE_METRICS_FILE`]) so that a study whose raw files are not kept can
/// still be replayed and compared.
pub const SAMPLE_GAMES: usize = 20;
/// The games sample of a run directory.
pub const SAMPLE_FILE: &str = "sample.csv";
/// The metrics of the sampled games.
pub const SAMPLE_METRICS_FILE: &str = "sample-metrics.csv";

/// The seat report's text, written by `report::balance::write_report`.
pub const REPORT_FILE: &str = "report.md";
/// The seat report's ratings.
pub const RATINGS_FILE: &str = "ratings.csv";
/// The seat report's chart of win rates by seat.
pub const SEATS_PLOT: &str = "plot-seats.svg";
/// The seat report's chart by role; written only when the game has roles.
pub const ROLES_PLOT: &str = "plot-roles.svg";
/// The seat report's chart of game lengths.
pub const TURNS_PLOT: &str = "plot-turns.svg";

/// The dashboard page of `boardlab report`.
pub const HTML_FILE: &str = "report.html";
/// The dashboard's Markdown twin.
pub const MARKDOWN_FILE: &str = "dashboard.md";

/// The copy of the experiment file kept in its output directory, from which
/// `merge` rebuilds the grid of a sharded experiment.
pub const EXPERIMENT_FILE: &str = "experiment.toml";
/// The file of an experiment's paired cell comparisons.
pub const COMPARISONS_FILE: &str = "comparisons.csv";

/// What decides a balance study's games and rates, written before any game.
pub const BALANCE_RUN_FILE: &str = "balance-run.json";
/// A balance study's ladder pairs (a ladder journal), appended as pairs finish.
pub const PAIRS_FILE: &str = "ladder-pairs.csv";
/// The file that marks a balance shard and records what it plays.
pub const SHARD_FILE: &str = "balance-shard.json";

/// What an agent stage of `boardlab design` played, kept beside its games
/// (`variant-NNNN.csv`, in games.csv's format) so `verify` can replay them.
pub const DESIGN_STAGE_FILE: &str = "stage.json";

/// The contents of [`DESIGN_STAGE_FILE`].
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct DesignStage {
    /// The agent in every seat.
    pub agent: String,
    /// The master seed: game `i` of every variant is dealt from the same seed.
    pub seed: u64,
    /// Each variant played at this stage.
    pub variants: Vec<DesignStageVariant>,
}

/// One variant of a [`DesignStage`].
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct DesignStageVariant {
    /// Its games file in the stage's folder.
    pub file: String,
    /// Its game spec.
    pub spec: String,
    /// Games played (its first ones, in order).
    pub games: u64,
}

/// Writes [`SAMPLE_FILE`] and [`SAMPLE_METRICS_FILE`]: the header and the
/// rows of the first [`SAMPLE_GAMES`] games of [`GAMES_FILE`] and
/// [`METRICS_FILE`] in `dir`.
pub fn write_sample(dir: &Path) -> std::io::Result<()> {
    for (from, to) in [
        (GAMES_FILE, SAMPLE_FILE),
        (METRICS_FILE, SAMPLE_METRICS_FILE),
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

//! Populations at matched CPU: every search spends the same CPU time per
//! decision.
//!
//! Equal iterations are not equal cost: a MO-ISMCTS iteration costs more than
//! an ISMCTS one, a rollout cut at 20 actions far less than a full one. A
//! meta-game between searches at equal iterations favours the cheap ones'
//! rivals; at matched CPU it asks which family makes the best use of the same
//! thinking time. [`calibrate`] sets each searching member's `iterations` so
//! that its mean CPU time per decision, measured in short self-play on this
//! machine, is the target. The resolved members are ordinary fixed-iteration
//! agents, so their games replay exactly (time budgets would not), and the
//! measurement is kept beside the results (`calibration.json`) so that a
//! resumed or verified meta-game plays the same members on any machine.

use std::path::Path;
use std::time::Duration;

use anyhow::{Result, anyhow, bail};
use serde::{Deserialize, Serialize};

use crate::agents::registry::{AGENT_KINDS, AgentSpec};
use crate::arena::RunOptions;
use crate::runtime::DynGame;

/// The file a calibrated meta-game keeps its members in.
pub const CALIBRATION_FILE: &str = "calibration.json";

/// Iterations a calibrated member may be given, at most.
const MAX_ITERATIONS: u64 = 10_000_000;

/// One member, as given and as resolved.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Calibrated {
    /// The member as written.
    pub given: String,
    /// The member with its calibrated `iterations` (as given when it does not search).
    pub resolved: String,
    /// The calibrated iterations per decision; none for a member that does not search.
    pub iterations: Option<u64>,
    /// Mean CPU milliseconds per decision measured at the last trial.
    pub measured_ms: Option<f64>,
    /// The iterations of that last trial.
    pub measured_at: Option<u64>,
}

/// A population calibrated to one CPU time per decision.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Calibration {
    /// The game, canonical.
    pub game: String,
    /// Target CPU milliseconds per decision.
    pub cpu_ms: f64,
    /// Self-play games per trial.
    pub games: u64,
    /// Seed of the trials.
    pub seed: u64,
    /// Every member, in population order.
    pub members: Vec<Calibrated>,
}

impl Calibration {
    /// The resolved population, in order.
    pub fn population(&self) -> Vec<String> {
        self.members.iter().map(|m| m.resolved.clone()).collect()
    }

    /// Reads the calibration kept in `dir`, if any.
    pub fn read(dir: &Path) -> Result<Option<Calibration>> {
        let path = dir.join(CALIBRATION_FILE);
        if !path.exists() {
            return Ok(None);
        }
        let text = crate::fsutil::read_text(&path, 1 << 20)?;
        serde_json::from_str(&text)
            .map(Some)
            .map_err(|e| anyhow!("{} is not a calibration: {e}", path.display()))
    }

    /// Writes it into `dir`.
    pub fn write(&self, dir: &Path) -> Result<()> {
        std::fs::create_dir_all(dir)?;
        let json = serde_json::to_string_pretty(self)? + "\n";
        crate::fsutil::write_atomic(&dir.join(CALIBRATION_FILE), json)?;
        Ok(())
    }
}

/// The member's iterations per decision when it is a per-decision search
/// (a kind with a CPU budget), or `None`.
fn searched_iterations(member: &str) -> Result<Option<u64>> {
    let parsed = AgentSpec::parse(member)?;
    let Some(kind) = AGENT_KINDS.iter().find(|k| k.name == parsed.spec.name) else {
        return Ok(None);
    };
    if !kind.params.iter().any(|p| p.name == "cpu_ms") {
        return Ok(None);
    }
    let mut params = parsed.spec.params.clone();
    for budget in ["time_ms", "cpu_ms"] {
        if params.raw(budget).is_some_and(|v| v != "0") {
            bail!(
                "member {member:?} already has a time budget ({budget}); matched CPU sets iterations: drop {budget}"
            );
        }
    }
    let default = kind
        .params
        .iter()
        .find(|p| p.name == "iterations")
        .map_or("0", |p| p.default);
    let text = params
        .raw("iterations")
        .unwrap_or_else(|| default.to_string());
    Ok(text.parse::<u64>().ok())
}

/// `member` with `iterations=n`: the value replaced where it is written,
/// added otherwise (a preset name takes parameters that override its own).
pub fn with_iterations(member: &str, n: u64) -> String {
    let member = member.trim();
    let Some(open) = member.find('(') else {
        return format!("{member}(iterations={n})");
    };
    let body = &member[open + 1..member.len() - 1];
    let mut parts: Vec<String> = body
        .split(',')
        .map(|p| p.trim().to_string())
        .filter(|p| !p.is_empty())
        .collect();
    let key = |p: &str| p.split('=').next().unwrap_or("").trim().to_string();
    match parts.iter_mut().find(|p| key(p) == "iterations") {
        Some(p) => *p = format!("iterations={n}"),
        None => parts.insert(0, format!("iterations={n}")),
    }
    format!("{}({})", &member[..open], parts.join(","))
}

/// CPU time of the whole process (the trials run on one worker thread), or
/// wall time where the platform has no CPU clock.
fn process_cpu() -> Duration {
    static START: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
    let start = START.get_or_init(std::time::Instant::now);
    crate::agents::mcts::clock::process_cpu().unwrap_or_else(|| start.elapsed())
}

/// Mean CPU milliseconds per decision of `member` in `games` self-play games.
fn trial(game: &dyn DynGame, member: &str, games: u64, seed: u64) -> Result<f64> {
    let lineup = vec![member.to_string(); game.num_players()];
    let opts = RunOptions {
        games,
        seed,
        threads: 1,
        keep_rows: true,
        fixed_seats: true,
        ..RunOptions::default()
    };
    let start = process_cpu();
    let out = game
        .run(&lineup, &opts)
        .map_err(|e| anyhow!("calibrating {member}: {e}"))?;
    let cpu = process_cpu().saturating_sub(start);
    let decisions: u64 = out.rows.iter().map(|r| u64::from(r.decisions)).sum();
    if decisions == 0 {
        bail!("calibrating {member}: its self-play took no decision");
    }
    Ok(cpu.as_secs_f64() * 1000.0 / decisions as f64)
}

/// Iterations that bring a trial of `ms` at `at` iterations to `target` ms,
/// assuming cost grows in proportion.
fn scaled(at: u64, ms: f64, target: f64) -> u64 {
    let n = (at as f64 * target / ms.max(1e-6)).round();
    (n as u64).clamp(1, MAX_ITERATIONS)
}

/// Calibrates every searching member of `population` to `cpu_ms` CPU
/// milliseconds per decision: a self-play trial at its written iterations,
/// a second at the proportional estimate, and the proportional estimate
/// from the second. Members that do not search are kept as written.
/// `report` is called with each member once it is calibrated.
pub fn calibrate(
    game: &dyn DynGame,
    population: &[String],
    cpu_ms: f64,
    games: u64,
    seed: u64,
    report: &mut dyn FnMut(&Calibrated),
) -> Result<Calibration> {
    if !(cpu_ms > 0.0 && cpu_ms <= crate::agents::MAX_MOVE_MS as f64) {
        bail!(
            "--match-cpu takes milliseconds per decision, above 0 and at most {}; got {cpu_ms}",
            crate::agents::MAX_MOVE_MS
        );
    }
    if games == 0 {
        bail!("calibration needs at least one game a trial");
    }
    let mut members = Vec::with_capacity(population.len());
    for member in population {
        let calibrated = match searched_iterations(member)? {
            None => Calibrated {
                given: member.clone(),
                resolved: member.clone(),
                iterations: None,
                measured_ms: None,
                measured_at: None,
            },
            Some(given) => {
                let first = given.max(1);
                let ms = trial(game, &with_iterations(member, first), games, seed)?;
                let second = scaled(first, ms, cpu_ms);
                let ms2 = trial(game, &with_iterations(member, second), games, seed)?;
                let n = scaled(second, ms2, cpu_ms);
                Calibrated {
                    given: member.clone(),
                    resolved: with_iterations(member, n),
                    iterations: Some(n),
                    measured_ms: Some(ms2),
                    measured_at: Some(second),
                }
            }
        };
        report(&calibrated);
        members.push(calibrated);
    }
    Ok(Calibration {
        game: game.spec(),
        cpu_ms,
        games,
        seed,
        members,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iterations_are_replaced_where_written_and_added_otherwise() {
        assert_eq!(
            with_iterations("ismcts(iterations=400,max_rollout=20)", 90),
            "ismcts(iterations=90,max_rollout=20)"
        );
        assert_eq!(
            with_iterations("ismcts(max_rollout=20)", 90),
            "ismcts(iterations=90,max_rollout=20)"
        );
        assert_eq!(with_iterations("ismcts-1k", 7), "ismcts-1k(iterations=7)");
        assert_eq!(with_iterations("mcts", 7), "mcts(iterations=7)");
    }

    #[test]
    fn only_per_decision_searches_are_calibrated() {
        assert_eq!(searched_iterations("greedy").unwrap(), None);
        assert_eq!(searched_iterations("random").unwrap(), None);
        assert_eq!(
            searched_iterations("ismcts(iterations=400)").unwrap(),
            Some(400)
        );
        assert!(searched_iterations("ismcts-1k").unwrap().is_some());
        let err = searched_iterations("ismcts(cpu_ms=5)").unwrap_err();
        assert!(err.to_string().contains("time budget"), "{err}");
    }

    #[test]
    fn proportional_estimate_is_bounded() {
        assert_eq!(scaled(100, 10.0, 20.0), 200);
        assert_eq!(scaled(100, 1000.0, 1.0), 1);
        assert_eq!(scaled(u64::MAX / 2, 1.0, 1000.0), MAX_ITERATIONS);
    }
}

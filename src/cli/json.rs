//! The `--json` summaries of `run`: one object on standard output, the same
//! numbers as the tables and summary files.

use serde_json::{Value, json};

use crate::arena::RunOutput;
use crate::arena::record::Tally;

/// A tally as the columns of summary.csv.
pub(super) fn tally(t: &Tally) -> Value {
    json!({
        "games": t.games, "wins": t.wins, "draws": t.draws, "losses": t.losses,
        "win_rate": t.win_rate, "ci_low": t.ci_low, "ci_high": t.ci_high,
        "mean_score": t.mean_score,
    })
}

/// `run --json`: the game, the counts and every agent's and seat's tally.
pub(super) fn run(
    spec: &str,
    seed: u64,
    played: u64,
    out: &RunOutput,
    dir: Option<&std::path::Path>,
) -> Value {
    let agents: Vec<Value> = out
        .agents
        .iter()
        .map(|a| json!({"agent": a.agent, "index": a.agent_index, "tally": tally(&a.tally)}))
        .collect();
    let seats: Vec<Value> = out
        .seats
        .iter()
        .map(|s| json!({"seat": s.seat, "tally": tally(&s.tally)}))
        .collect();
    json!({
        "game": spec,
        "seed": seed,
        "games": played,
        "games_in_run": out.games,
        "played_now": out.played,
        "resumed": out.resumed,
        "faults": out.errors,
        "capped": out.capped,
        "stopped": out.stopped,
        "stop_reason": out.stop_reason,
        "agents": agents,
        "seats": seats,
        "out": dir.map(|d| d.display().to_string()),
    })
}

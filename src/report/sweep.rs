//! Win rate against a swept parameter: turns the rows of several runs (one per
//! parameter value) into the lines of [`super::plots::sweep_chart`].

use std::collections::BTreeMap;

use super::plots::{Series, SweepPoint};
use crate::arena::record::{GameRow, Tally};

/// What one line of a sweep follows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SweepKey {
    /// One line per agent, by its label (so the same agent matches across runs
    /// even if its index changes).
    Agent,
    /// One line per seat.
    Seat,
}

/// Lines for a sweep chart: for each run `(x, rows)` and each agent or seat,
/// the win rate (draws half) with its 95 % Wilson interval at `x`. Lines are
/// ordered by label (agents) or seat number.
pub fn sweep_series(runs: &[(f64, &[GameRow])], key: SweepKey) -> Vec<Series> {
    let tallied: Vec<(f64, Vec<SweepTally>)> = runs
        .iter()
        .map(|&(x, rows)| {
            let mut groups: BTreeMap<(u8, String), Tally> = BTreeMap::new();
            for r in rows {
                let k = match key {
                    SweepKey::Agent => (0, r.agent.clone()),
                    SweepKey::Seat => (r.seat, format!("seat {}", r.seat)),
                };
                groups.entry(k).or_default().add(r);
            }
            let tallies = groups
                .into_iter()
                .map(|(k, mut t)| {
                    t.finish();
                    (k, t)
                })
                .collect();
            (x, tallies)
        })
        .collect();
    sweep_lines(&tallied)
}

/// One line's finished tally in one run: its sort key (seat, or 0 for
/// agents), its label, and the tally.
pub type SweepTally = ((u8, String), Tally);

/// [`sweep_series`] from each run's finished tallies instead of its rows.
pub fn sweep_lines(runs: &[(f64, Vec<SweepTally>)]) -> Vec<Series> {
    let mut lines: BTreeMap<(u8, String), Vec<SweepPoint>> = BTreeMap::new();
    for (x, tallies) in runs {
        for (k, t) in tallies {
            lines.entry(k.clone()).or_default().push(SweepPoint {
                x: *x,
                rate: t.win_rate,
                low: t.ci_low,
                high: t.ci_high,
            });
        }
    }
    lines
        .into_iter()
        .map(|((_, label), points)| Series { label, points })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Outcome;

    fn row(seat: u8, agent: &str, outcome: Outcome) -> GameRow {
        GameRow {
            game_index: 0,
            seed: 0,
            game: "g".into(),
            seat,
            agent_index: 0,
            agent: agent.into(),
            role: String::new(),
            outcome,
            score: 0.0,
            ret: 0.0,
            turns: 1,
            actions: 1,
            decisions: 1,
            branching: 0.0,
            iterations: 0,
            truncated: false,
            ending: String::new(),
            rounds: None,
            error: String::new(),
            think_us: 0,
            wall_us: 0,
        }
    }

    #[test]
    fn one_line_per_agent_and_one_point_per_run() {
        use Outcome::*;
        let low = vec![row(0, "mcts", Loss), row(1, "random", Win)];
        let high = vec![
            row(0, "mcts", Win),
            row(1, "random", Loss),
            row(0, "random", Draw),
            row(1, "mcts", Draw),
        ];
        let runs = [(100.0, low.as_slice()), (400.0, high.as_slice())];
        let s = sweep_series(&runs, SweepKey::Agent);
        assert_eq!(s.len(), 2);
        assert_eq!(s[0].label, "mcts");
        let rates: Vec<(f64, f64)> = s[0].points.iter().map(|p| (p.x, p.rate)).collect();
        assert_eq!(rates, [(100.0, 0.0), (400.0, 0.75)]);
        assert!(s[0].points[1].low < 0.75 && s[0].points[1].high > 0.75);
        let s = sweep_series(&runs, SweepKey::Seat);
        let labels: Vec<&str> = s.iter().map(|l| l.label.as_str()).collect();
        assert_eq!(labels, ["seat 0", "seat 1"]);
        assert_eq!(s[1].points[1].rate, 0.25);
    }
}

//! Checks that the rows of one game in games.csv are what the run would have
//! written: `merge` and `--resume` read every row through it, so an edited,
//! swapped or foreign row is refused instead of silently counted.

use super::manifest::Identity;
use super::record::GameRow;
use crate::game::{ENDING_LENGTH_CAP, Game, outcomes};

/// Checks the rows of game `index` (one per seat, in seat order): the index
/// and seat of each row, the game, the seed derived from the master seed, the
/// seating and agent names, the columns shared by all seats, and outcomes
/// that follow from the returns (unless the game ended in a fault).
pub fn game_rows<G: Game>(
    game: &G,
    id: &Identity,
    index: u64,
    rows: &[GameRow],
) -> Result<(), String> {
    let n = game.num_players();
    let at = |r: &GameRow| format!("the row of game {} seat {}", r.game_index, r.seat);
    if rows.len() != n {
        return Err(format!(
            "game {index} has {} rows, not one per seat ({n})",
            rows.len()
        ));
    }
    let seating = super::seating_of(index, n, id.fixed_seats);
    let seed = super::seed_of(id.seed, index, n, id.duplicate);
    let first = &rows[0];
    for (s, r) in rows.iter().enumerate() {
        if r.game_index != index || r.seat as usize != s {
            return Err(format!(
                "{} stands where game {index} seat {s} belongs",
                at(r)
            ));
        }
        if r.game != id.game {
            return Err(format!("{} is of game {}, not {}", at(r), r.game, id.game));
        }
        if r.seed != seed {
            return Err(format!(
                "{} has seed {}, which is not derived from master seed {} (expected {seed})",
                at(r),
                r.seed,
                id.seed
            ));
        }
        let Some(label) = id.agents.get(r.agent_index) else {
            return Err(format!(
                "{} names agent {}, but the run has {} agents",
                at(r),
                r.agent_index,
                id.agents.len()
            ));
        };
        if r.agent_index != seating[s] || &r.agent != label {
            return Err(format!(
                "{} seats agent {} ({}), but the run seats agent {} ({}) there",
                at(r),
                r.agent_index,
                r.agent,
                seating[s],
                id.agents[seating[s]]
            ));
        }
        super::record::check_row(r)?;
        let same = r.turns == first.turns
            && r.actions == first.actions
            && r.truncated == first.truncated
            && r.ending == first.ending
            && r.rounds == first.rounds
            && r.error == first.error
            && r.wall_us == first.wall_us;
        if !same {
            return Err(format!(
                "{} disagrees with seat 0 on a column shared by the whole game",
                at(r)
            ));
        }
    }
    if first.error.is_empty() {
        let returns: Vec<f64> = rows.iter().map(|r| r.ret).collect();
        let expected = outcomes(game, &returns, first.ending == ENDING_LENGTH_CAP);
        if let Some(r) = rows.iter().zip(&expected).find(|(r, o)| r.outcome != **o) {
            return Err(format!(
                "{} says {} but its returns give {}",
                at(r.0),
                r.0.outcome.as_str(),
                r.1.as_str()
            ));
        }
    }
    Ok(())
}

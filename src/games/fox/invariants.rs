//! The consistency rules of a Fox on the Run state, checked after every step
//! by the conformance suite, `boardlab soak` and fuzzing.

use super::Fox;
use super::data::TILES;
use super::state::{Cell, Ending, INDIGO, PUFFER, Phase, SCARLETT, State, ZEV};

/// Tile conservation (three start tiles, every directional tile exactly once),
/// turn order, the turn cap, what each ending implies, and pawn placement.
pub(super) fn check(g: &Fox, s: &State) -> Result<(), String> {
    let starts = s
        .cells
        .iter()
        .filter(|c| matches!(c, Cell::Start(_)))
        .count();
    if starts != 3 {
        return Err(format!("{starts} start tiles on the board, expected 3"));
    }
    let mut ids = 0u32;
    for c in s.cells {
        if let Cell::Down(id) | Cell::Up(id, _) = c {
            if usize::from(id) >= TILES || ids & (1 << id) != 0 {
                return Err(format!("tile {id} is out of range or on two squares"));
            }
            ids |= 1 << id;
        }
        if let Cell::Up(id, r) = c
            && r >= 4
        {
            return Err(format!("tile {id} has rotation {r}"));
        }
    }
    if ids != (1 << TILES) - 1 {
        return Err(format!("tiles lost: present mask {ids:#x}"));
    }
    // The turn that reaches the cap ends the game without handing over, so
    // the last mover is still the one to move there.
    let handed_over = match s.phase {
        Phase::Over(Ending::Cap) => s.turn_count + 3,
        _ => s.turn_count,
    };
    if u32::from(s.to_move) != handed_over % 4 {
        return Err(format!(
            "character {} to move after {} turns",
            s.to_move, s.turn_count
        ));
    }
    let cap = g.tile_set().turn_cap;
    if s.turn_count > cap {
        return Err(format!("{} turns, past the cap {cap}", s.turn_count));
    }
    let p = |c: u8| s.pos[c as usize];
    let ok = match s.phase {
        Phase::Over(Ending::Rescue) => p(INDIGO) == p(SCARLETT),
        Phase::Over(Ending::Capture) => p(ZEV) == p(INDIGO),
        Phase::Over(Ending::AllRevealed) => s.face_down() == 0,
        Phase::Over(Ending::Cap) => s.turn_count == cap,
        Phase::Reveal { square, .. } => {
            (square as usize) < s.cells.len() && matches!(s.cells[square as usize], Cell::Down(_))
        }
        Phase::Move | Phase::Ability => {
            for a in 0..4 {
                if usize::from(s.pos[a]) >= s.cells.len() {
                    return Err(format!("pawn {a} off the board"));
                }
                for b in a + 1..4 {
                    if s.pos[a] == s.pos[b] && (a as u8, b as u8) != (PUFFER, ZEV) {
                        return Err(format!("pawns {a} and {b} share a square"));
                    }
                }
                if matches!(s.cells[s.pos[a] as usize], Cell::Down(_)) {
                    return Err(format!("pawn {a} on a face-down tile"));
                }
            }
            s.face_down() > 0
        }
    };
    if !ok {
        return Err(format!("phase {:?} does not fit the board", s.phase));
    }
    Ok(())
}

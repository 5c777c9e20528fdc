//! Integer actions and observation tensors (see [`crate::game::encoding`]).
//!
//! Action indices, in blocks: `Move(sq)` 0..25, `Pass` 25, `Reveal(sq)`
//! 26..51, `Rotate(sq, k)` 51 + 4·sq + k, `Swap(a, b)` 151 + 25·a + b,
//! `Tile(id)` 776 + id; 798 in all.
//!
//! Observation (flat, 904 numbers): for each of the 25 squares (row-major), 35
//! numbers: start tile of Indigo, Scarlett, Guardians (3), face down (1),
//! face up (1), the face-up tile's identity one-hot (22) and rotation one-hot
//! (4), and the pawns of Indigo, Puffer, Scarlett, Zev on it (4). Then the
//! character to move (4), the phase (Move, Reveal, Ability, Over: 4), the
//! observing seat (4), the seats of the characters (4 · 4 one-hot) and the
//! turn count divided by 100 (1). A face-down tile's identity is never shown.

use super::Fox;
use super::board::SQUARES;
use super::data::TILES;
use super::state::{Action, Cell, Phase, State};
use crate::game::PlayerId;
use crate::game::encoding::{Blocks, Encode, one_hot};

const SQ: u32 = SQUARES as u32;

fn blocks() -> Blocks {
    Blocks::new(&[SQ, 1, SQ, SQ * 4, SQ * SQ, TILES as u32])
}

impl Encode for Fox {
    fn num_distinct_actions(&self) -> u32 {
        blocks().total()
    }

    fn action_index(&self, _state: &State, action: Action) -> u32 {
        let b = blocks();
        match action {
            Action::Move(sq) => b.at(0, sq.into()),
            Action::Pass => b.at(1, 0),
            Action::Reveal(sq) => b.at(2, sq.into()),
            Action::Rotate(sq, k) => b.at(3, u32::from(sq) * 4 + u32::from(k)),
            Action::Swap(x, y) => b.at(4, u32::from(x) * SQ + u32::from(y)),
            Action::Tile(id) => b.at(5, id.into()),
        }
    }

    fn action_from_index(&self, _state: &State, index: u32) -> Option<Action> {
        let (block, i) = blocks().locate(index)?;
        Some(match block {
            0 => Action::Move(i as u8),
            1 => Action::Pass,
            2 => Action::Reveal(i as u8),
            3 => Action::Rotate((i / 4) as u8, (i % 4) as u8),
            4 => Action::Swap((i / SQ) as u8, (i % SQ) as u8),
            _ => Action::Tile(i as u8),
        })
    }

    /// The board as the seat sees it (face-down tiles unnamed).
    fn information_string(&self, state: &State, player: PlayerId) -> String {
        crate::game::Reporting::render(self, state, Some(player))
    }

    fn observation_shape(&self) -> Vec<usize> {
        vec![SQUARES * 35 + 4 + 4 + 4 + 16 + 1]
    }

    fn observation_tensor(&self, s: &State, player: PlayerId, out: &mut Vec<f32>) {
        out.clear();
        for sq in 0..SQUARES {
            match s.cells[sq] {
                Cell::Start(k) => {
                    one_hot(out, k.into(), 3);
                    out.extend([0.0; 2 + TILES + 4]);
                }
                Cell::Down(_) => {
                    out.extend([0.0, 0.0, 0.0, 1.0, 0.0]);
                    out.extend([0.0; TILES + 4]);
                }
                Cell::Up(id, rot) => {
                    out.extend([0.0, 0.0, 0.0, 0.0, 1.0]);
                    one_hot(out, id.into(), TILES);
                    one_hot(out, rot.into(), 4);
                }
            }
            for c in 0..4 {
                out.push(f32::from(u8::from(usize::from(s.pos[c]) == sq)));
            }
        }
        one_hot(out, s.to_move.into(), 4);
        let phase = match s.phase {
            Phase::Move => 0,
            Phase::Reveal { .. } => 1,
            Phase::Ability => 2,
            Phase::Over(_) => 3,
        };
        one_hot(out, phase, 4);
        one_hot(out, player.into(), 4);
        for c in 0..4 {
            one_hot(out, self.controller[c].into(), 4);
        }
        out.push(s.turn_count as f32 / 100.0);
    }
}

//! The post-move abilities (spec §4.4): Zev reveals, Puffer rotates,
//! Scarlett swaps; Indigo has none. Options whose result equals another
//! option's or passing are dropped, as the spec recommends.

use arrayvec::ArrayVec;

use super::board::{neighbours, rotate_mask, squares_of};
use super::state::{Action, Cell, PUFFER, SCARLETT, State, ZEV};
use super::{Actions, Fox};

impl Fox {
    /// True when the character to move has at least one ability option besides pass.
    pub(super) fn has_ability(&self, s: &State) -> bool {
        let mut out = Actions::new();
        self.push_abilities(s, &mut out);
        !out.is_empty()
    }

    /// Appends the ability options (not pass) of the character to move, in square order.
    pub(super) fn push_abilities(&self, s: &State, out: &mut Actions) {
        let c = s.to_move;
        let me = s.pos[c as usize];
        // The squares next to the mover, and those of them nobody stands on,
        // in square order.
        let near = neighbours(me);
        let near_free = near & !s.occupied();
        match c {
            ZEV => {
                for q in squares_of(near) {
                    if matches!(s.cells[q as usize], Cell::Down(_)) {
                        out.push(Action::Reveal(q));
                    }
                }
            }
            PUFFER => {
                let turns: &[u8] = if self.rotate_ccw { &[1, 3, 2] } else { &[1, 2] };
                for q in squares_of(near_free) {
                    let Cell::Up(id, r) = s.cells[q as usize] else {
                        continue;
                    };
                    let mask = self.mv.masks[id as usize];
                    let mut seen: ArrayVec<u8, 4> = ArrayVec::new();
                    seen.push(rotate_mask(mask, r));
                    for &k in turns {
                        let m = rotate_mask(mask, r + k);
                        if !seen.contains(&m) {
                            seen.push(m);
                            out.push(Action::Rotate(q, k));
                        }
                    }
                }
            }
            SCARLETT => {
                let mut cands: ArrayVec<u8, 8> = ArrayVec::new();
                for q in squares_of(near_free) {
                    if !matches!(s.cells[q as usize], Cell::Down(_)) {
                        cands.push(q);
                    }
                }
                for (i, &a) in cands.iter().enumerate() {
                    for &b in &cands[i + 1..] {
                        if self.same_function(s.cells[a as usize], s.cells[b as usize]) {
                            continue;
                        }
                        out.push(Action::Swap(a, b));
                    }
                }
            }
            _ => {}
        }
    }

    /// Two face-up tiles that behave identically now and after any rotation:
    /// two start tiles, or two directional tiles with the same effective arrows.
    fn same_function(&self, a: Cell, b: Cell) -> bool {
        match (a, b) {
            (Cell::Start(_), Cell::Start(_)) => true,
            (Cell::Up(..), Cell::Up(..)) => self.mv.arrows(a) == self.mv.arrows(b),
            _ => false,
        }
    }
}

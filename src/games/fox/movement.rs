//! Movement (spec §4.2, §4.3): the entry rule and the search over chained
//! moves that yields every distinct final square of a character's movement.
//!
//! Nothing random happens and nothing else changes between the first step and
//! the end of movement, so the movement is one macro decision (spec §4.7): the
//! final square fixes the result, whichever path led there.

use super::board::{ALL_DIRS, ORTHOGONAL, adjacent, orthogonally_adjacent, rotate_mask, step};
use super::data::TILES;
use super::state::{Cell, Character, INDIGO, PUFFER, SCARLETT, State, ZEV};

/// The rule switches and tile masks movement depends on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveRules {
    /// Canonical arrow mask per physical tile.
    pub masks: [u8; TILES],
    /// A7 alternative: the turn's starting square counts as already used.
    pub start_used: bool,
    /// A15 alternative: only an orthogonally adjacent Zev closes Scarlett's square.
    pub orthogonal_guard: bool,
}

impl MoveRules {
    /// Is Zev close enough to Scarlett to close her square to Indigo (A15)?
    pub fn zev_guards_scarlett(&self, s: &State) -> bool {
        let (z, sc) = (s.pos[ZEV as usize], s.pos[SCARLETT as usize]);
        if self.orthogonal_guard {
            orthogonally_adjacent(z, sc)
        } else {
            adjacent(z, sc)
        }
    }

    /// `can_enter(C, q)` of spec §4.2 for an on-board square `q`.
    pub fn can_enter(&self, s: &State, c: Character, q: u8) -> bool {
        let others = s.pawns_on(q) & !(1 << c);
        let bit = |x: Character| 1u8 << x;
        match (c, others) {
            (_, 0) => true,
            (INDIGO, o) if o == bit(SCARLETT) => !self.zev_guards_scarlett(s),
            (ZEV, o) if o & bit(INDIGO) != 0 => true,
            (ZEV, o) if o == bit(PUFFER) => true,
            (PUFFER, o) if o == bit(ZEV) => true,
            _ => false,
        }
    }

    /// Effective arrows of a face-up directional cell, 0 for any other cell.
    pub fn arrows(&self, cell: Cell) -> u8 {
        match cell {
            Cell::Up(id, r) => rotate_mask(self.masks[id as usize], r),
            _ => 0,
        }
    }

    /// First-step targets of `c`: 8 directions for Indigo, orthogonal for the others.
    pub fn first_steps<'a>(&'a self, s: &'a State, c: Character) -> impl Iterator<Item = u8> + 'a {
        let dirs: &'static [u8] = if c == INDIGO { &ALL_DIRS } else { &ORTHOGONAL };
        let from = s.pos[c as usize];
        dirs.iter()
            .filter_map(move |&d| step(from, d))
            .filter(move |&q| self.can_enter(s, c, q))
    }

    /// Bitmask of every square where `c`'s movement can end, from its current
    /// square with an empty used set. Zero when no first step is legal (stay put).
    pub fn reach(&self, s: &State, c: Character) -> u32 {
        let from = s.pos[c as usize];
        let used = if self.start_used { 1u32 << from } else { 0 };
        let mut out = 0u32;
        for q in self.first_steps(s, c) {
            self.enter(s, c, q, used, &mut out);
        }
        out
    }

    /// Step 2 of spec §4.3 at square `q`: records where movement can end.
    /// The used set is part of the search state because it depends on the path.
    fn enter(&self, s: &State, c: Character, q: u8, used: u32, out: &mut u32) {
        let here = 1u32 << q;
        if *out & here != 0 && !matches!(s.cells[q as usize], Cell::Up(..)) {
            return; // a stop square already recorded and never chained from
        }
        let pawns = s.pawns_on(q);
        let win = (c == INDIGO && pawns & (1 << SCARLETT) != 0)
            || (c == ZEV && pawns & (1 << INDIGO) != 0);
        let cell = s.cells[q as usize];
        if win || !matches!(cell, Cell::Up(..)) || used & here != 0 {
            *out |= here;
            return;
        }
        let used = used | here;
        let arrows = self.arrows(cell);
        for d in 0..8u8 {
            if arrows & (1 << d) == 0 {
                continue;
            }
            match step(q, d) {
                Some(r) if self.can_enter(s, c, r) => self.enter(s, c, r, used, out),
                _ => *out |= here, // effect ignored: movement ends on q (A9, A10)
            }
        }
    }
}

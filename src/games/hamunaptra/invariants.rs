//! The rules' invariants, checked after every step by the soak, the fuzz
//! targets and the tests: tiles match their neighbours, every card is in
//! exactly one place, start tiles never move, characters stand on tiles and
//! apart, hands stay within the limit.

use super::Hamunaptra;
use super::board::opp;
use super::state::{Cell, HMAX, NO_CELL, NONE, Phase, State, W, cell_of};

// A board row fits the occupancy mask of the conservation scan.
const _: () = assert!(W <= 32);

impl Hamunaptra {
    /// The first broken invariant of `s`, if any.
    pub fn invariants(&self, s: &State) -> Result<(), String> {
        self.cards_conserved(s)?;
        for &(t, cell, r) in &self.layout {
            let at = s.cells[cell as usize];
            if (at.tile, at.rot) != (t + 1, r) {
                return Err(format!("start tile moved from {}", self.pos(cell)));
            }
        }
        for (i, a) in s.chars.iter().enumerate() {
            if !a.alive || a.cell == NO_CELL {
                continue;
            }
            if s.cells[a.cell as usize].tile == 0 {
                return Err(format!(
                    "character {i} off the tiles at {}",
                    self.pos(a.cell)
                ));
            }
            // Players share a tile only on an exit in the final round (or in a rule-1 fight).
            for b in s.chars.iter().skip(i + 1) {
                let cell = s.cells[a.cell as usize];
                if b.alive
                    && b.cell == a.cell
                    && b.owner != a.owner
                    && !((cell.exit && s.final_round) || self.rule1)
                {
                    return Err(format!("two players share {}", self.pos(a.cell)));
                }
            }
        }
        // What a seat knows of a hand is in that hand.
        for o in 0..self.players {
            for q in 0..self.players {
                let known = s.known.of(o, q);
                let hand = &s.players[q as usize].hand;
                for (k, &n) in known.iter().enumerate() {
                    if n > 0
                        && (o == q
                            || usize::from(n) > hand.iter().filter(|&&x| x == k as u8).count())
                    {
                        return Err(format!(
                            "player {o} knows of {n} {} in player {q}'s hand, which holds fewer",
                            self.comps.kind_name(k as u8)
                        ));
                    }
                }
            }
        }
        // Above the hand limit only while discarding after a trade.
        if s.phase != Phase::TradeDiscard
            && let Some(p) = s
                .players
                .iter()
                .position(|p| p.hand.len() > self.hand_size as usize)
        {
            return Err(format!(
                "player {p} holds more than {} cards",
                self.hand_size
            ));
        }
        Ok(())
    }

    /// Every card is in exactly one place: pile, out of the game, board,
    /// hands, tables, in use, selected, offered or in a trade. The same pass
    /// over the board checks that each placed tile's open sides match its
    /// placed neighbours'.
    fn cards_conserved(&self, s: &State) -> Result<(), String> {
        let kinds = self.comps.kinds();
        let mut count = [0u32; 64];
        for (k, n) in count.iter_mut().enumerate().take(kinds) {
            *n += u32::from(s.pile[k]) + u32::from(s.gone[k]);
        }
        // In-bounds rows only: a card off the board would go uncounted and
        // fail the conservation check below. Sides 0 and 1 cover each pair of
        // neighbours once.
        const FULL: usize = W as usize;
        let w = 2 * self.h as usize + 1;
        // The in-bounds columns of a full grid row.
        let in_bounds = ((1u32 << w) - 1) << (HMAX - self.h);
        for y in -self.h..=self.h {
            let row = cell_of(-HMAX, y) as usize;
            let cells: &[Cell; FULL] = s.cells[row..row + FULL].try_into().expect("a grid row");
            // Occupied cells as a bit mask first, over a whole grid row of
            // fixed length (unrolled, branch-free), then only the occupied
            // cells (a few dozen of the 500) are visited.
            let mut occupied = 0u32;
            for (i, cell) in cells.iter().enumerate() {
                occupied |= u32::from(cell.tile | cell.enc != 0) << i;
            }
            occupied &= in_bounds;
            while occupied != 0 {
                let i = occupied.trailing_zeros() as usize;
                occupied &= occupied - 1;
                let cell = &cells[i];
                let a = (row + i) as u16;
                if cell.tile != 0 {
                    let open = self.open_of(cell);
                    for d in 0..2 {
                        if let Some(b) = self.nb(a, d)
                            && s.cells[b as usize].tile != 0
                            && open >> d & 1 != self.open(s, b) >> opp(d) & 1
                        {
                            return Err(format!("tiles mismatch at {} side {d}", self.pos(a)));
                        }
                    }
                    if (cell.tile as usize) <= self.comps.pile_tile_types {
                        count[cell.tile as usize - 1] += 1;
                    }
                }
                if cell.enc != 0 {
                    count[self.comps.foe_kind(cell.enc - 1) as usize] += 1;
                }
            }
        }
        for p in &s.players {
            for &k in &p.hand {
                count[k as usize] += 1;
            }
            for &e in &p.table {
                count[self.comps.equip_kind(e) as usize] += 1;
            }
            for (k, &n) in p.discarded.iter().enumerate() {
                count[k] += u32::from(n);
            }
            if p.discarded.iter().map(|&n| u16::from(n)).sum::<u16>() != p.ndisc {
                return Err("a player's discard count is off".into());
            }
        }
        for chr in &s.chars {
            if chr.active != NONE {
                count[self.comps.equip_kind(chr.active) as usize] += 1;
            }
        }
        if s.sel_card != NONE {
            count[s.sel_card as usize] += 1;
        }
        if let Some((_, card)) = s.offer {
            count[card as usize] += 1;
        }
        for &k in s.give.iter().chain(s.back.iter()) {
            count[k as usize] += 1;
        }
        for (k, &n) in count.iter().enumerate().take(kinds) {
            if n != u32::from(self.comps.kind_count[k]) {
                return Err(format!(
                    "card {} not conserved: {n} in play, {} in the game",
                    self.comps.kind_name(k as u8),
                    self.comps.kind_count[k]
                ));
            }
        }
        if s.pile.iter().map(|&x| u16::from(x)).sum::<u16>() != s.pile_len {
            return Err("pile size differs from its counts".into());
        }
        Ok(())
    }
}

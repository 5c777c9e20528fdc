//! The rules' invariants, checked after every step by the soak, the fuzz
//! targets and the tests: tiles only where their kind may be, one tile per slot
//! and one ring per character, each character with the seat and side it was
//! dealt, statistics within their ranges, characters on
//! free, walkable, unguarded squares or in prison with no life, Skeletors on
//! anchors and apart, every mission card in exactly one place.

use super::Karmox;
use super::data::{Kind, SqSet, colour_of};
use super::state::{Loc, Phase, State};

impl Karmox {
    /// The first broken invariant of `s`, if any.
    pub fn invariants(&self, s: &State) -> Result<(), String> {
        let mut slots = [0u8; 6];
        for (i, t) in self.c.tiles.iter().enumerate() {
            match s.tiles[i] {
                Loc::Board(_) if t.kind != Kind::Skeletor => {
                    return Err(format!("tile {i} on the board is not a Skeletor"));
                }
                Loc::Slot(c) | Loc::Sheet(c) => {
                    if t.kind == Kind::Skeletor {
                        return Err(format!("Skeletor tile {i} held by character {c}"));
                    }
                    if !s.ch[c as usize].in_play {
                        return Err(format!("tile {i} held by unused character {c}"));
                    }
                    if s.tiles[i] == Loc::Slot(c) {
                        slots[c as usize] += 1;
                    }
                }
                _ => {}
            }
        }
        if usize::from(s.seat) >= self.n {
            return Err(format!(
                "seat {} to move at a {}-seat table",
                s.seat, self.n
            ));
        }
        for (c, ch) in s.ch.iter().enumerate() {
            // Seat and side are kept on the sheet too; they never change.
            if ch.in_play && (ch.seat, ch.side) != (self.char_seat[c], self.side_of_char(c)) {
                return Err(format!(
                    "character {c} held by seat {} of side {}, dealt to seat {} of side {}",
                    ch.seat,
                    ch.side,
                    self.char_seat[c],
                    self.side_of_char(c)
                ));
            }
            if slots[c] > 1 {
                return Err(format!("character {c} has two tiles in its slot"));
            }
            if self.count_kind(s, c, Kind::Ring) > 1 {
                return Err(format!("character {c} has two rings"));
            }
            if ch.life > 5 || ch.level > 2 || ch.abil.iter().any(|&a| a > 3) {
                return Err(format!(
                    "character {c} out of range: life {}, level {}, abilities {:?}",
                    ch.life, ch.level, ch.abil
                ));
            }
            if ch.on_board() {
                if ch.life == 0 {
                    return Err(format!("character {c} on the board with no life"));
                }
                if !self.c.board.walk[ch.pos as usize] {
                    return Err(format!("character {c} on an unwalkable square"));
                }
                if s.phase != Phase::SkelTest && self.guard_at(s, ch.pos, colour_of(c)).is_some() {
                    return Err(format!("character {c} on a guarded square"));
                }
                if s.ch[c + 1..]
                    .iter()
                    .any(|d| d.on_board() && d.pos == ch.pos)
                {
                    return Err(format!("character {c} shares its square"));
                }
            } else if ch.in_play && !(1..=5).contains(&ch.prison) {
                return Err(format!("character {c} off the board but in no prison cell"));
            } else if ch.in_play && ch.life != 0 {
                // Only a defeat imprisons, and nothing heals a prisoner.
                return Err(format!("character {c} in prison with {} life", ch.life));
            }
        }
        self.skeletors_apart(s)?;
        if let Phase::PlayPair { c, stat, first } = s.phase {
            let kind = if stat.is_some() {
                Kind::Tome
            } else {
                Kind::Potion
            };
            let later = self
                .sheet(s, c as usize)
                .filter(|&t| self.c.tiles[t].kind == kind && first.is_none_or(|f| t > f.into()))
                .count();
            let first_held = first.is_none_or(|f| {
                s.tiles[f as usize] == Loc::Sheet(c) && self.c.tiles[f as usize].kind == kind
            });
            if !first_held || later < if first.is_some() { 1 } else { 2 } {
                return Err(format!(
                    "character {c} chooses a {} pair it does not hold",
                    kind.label()
                ));
            }
        }
        self.missions_conserved(s)
    }

    /// Skeletors stand on anchors of the empty board and never overlap (4.9).
    fn skeletors_apart(&self, s: &State) -> Result<(), String> {
        let b = &self.c.board;
        let mut covered = SqSet::EMPTY;
        for &t in &self.c.skeletors {
            if let Loc::Board(a) = s.tiles[t] {
                if !b.anchors.contains(&a) {
                    return Err(format!("Skeletor tile {t} at {}, not an anchor", b.name(a)));
                }
                for sq in b.cover(a) {
                    if covered.has(sq) {
                        return Err(format!("Skeletors overlap on {}", b.name(sq)));
                    }
                    covered.insert(sq);
                }
            }
        }
        Ok(())
    }

    /// Every mission card is in the deck (known or not) or in one pile, once.
    fn missions_conserved(&self, s: &State) -> Result<(), String> {
        let mut seen = u64::from(s.deck_unknown);
        let mut count = s.deck_unknown.count_ones() as usize;
        let piles = s.piles.iter().flatten().map(|c| c.id);
        for id in s.deck_known.iter().copied().chain(piles) {
            if seen & (1 << id) != 0 {
                return Err(format!("mission card {id} in two places"));
            }
            seen |= 1 << id;
            count += 1;
        }
        if count != self.c.missions.len() {
            return Err(format!(
                "{count} mission cards in play, {} in the game",
                self.c.missions.len()
            ));
        }
        Ok(())
    }
}

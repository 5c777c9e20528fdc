//! Victory points (spec §6.2), the winner with tie-breaks (§6.3) and the
//! greedy evaluation (§9).

use super::Hamunaptra;
use super::data::KindClass;
use super::state::{NONE, Phase, State, xy};
use arrayvec::ArrayVec;

use crate::game::{PlayerId, Returns};

/// A seat's victory points by item.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Vp {
    /// Exit stairs it laid (4 each).
    pub exits: u32,
    /// Others' exits connected to its entrance (2 each).
    pub other_exits: u32,
    /// Its connected ordinary stairs (1 each).
    pub stairs: u32,
    /// Living characters on an exit (3 each).
    pub escaped: u32,
    /// Other living characters (2 each).
    pub survivors: u32,
    /// Unused equipment in hand or face down (1 each).
    pub equipment: u32,
    /// Total points.
    pub total: u32,
}

impl Hamunaptra {
    /// Victory points of `p` from the current state.
    pub fn vp(&self, s: &State, p: PlayerId) -> Vp {
        let mut v = Vp::default();
        let e = s.players[p as usize].entrance;
        let comp = self.component(s, &[e], true);
        for &c in &s.stairs {
            let cell = &s.cells[c as usize];
            let mine = cell.placer == p + 1;
            if cell.exit {
                if mine {
                    v.exits += 1;
                } else if comp.has(c) {
                    v.other_exits += 1;
                }
            } else if mine && comp.has(c) {
                v.stairs += 1;
            }
        }
        for ch in &s.chars {
            if ch.alive && ch.owner == p && ch.cell != super::state::NO_CELL {
                if s.cells[ch.cell as usize].exit {
                    v.escaped += 1;
                } else {
                    v.survivors += 1;
                }
            }
        }
        let pl = &s.players[p as usize];
        v.equipment = pl.table.len() as u32
            + pl.hand
                .iter()
                .filter(|&&k| k != NONE && matches!(self.comps.class(k), KindClass::Equip(_)))
                .count() as u32;
        let surv = if self.escaped_also_survivor {
            v.survivors + v.escaped
        } else {
            v.survivors
        };
        v.total =
            4 * v.exits + 2 * v.other_exits + v.stairs + 3 * v.escaped + 2 * surv + v.equipment;
        v
    }

    /// Ranking key: VP, then escaped, exits found, living characters (§6.3).
    pub fn rank_key(&self, s: &State, p: PlayerId) -> (u32, u32, u32, u32) {
        let v = self.vp(s, p);
        (v.total, v.escaped, v.exits, v.escaped + v.survivors)
    }

    /// +1 for every seat with the best ranking key, −1 for the others.
    pub fn final_returns(&self, s: &State) -> Returns {
        let keys: Vec<_> = (0..self.players).map(|p| self.rank_key(s, p)).collect();
        let best = keys.iter().copied().max().unwrap_or_default();
        keys.iter()
            .map(|&k| if k == best { 1.0 } else { -1.0 })
            .collect()
    }

    /// Estimated VP including exit potential (§9 items 1–2): the farthest
    /// character's progress toward distance D, an open cell in the exit zone
    /// next to one of its characters, and (own hand only) stairs held.
    pub(super) fn estimate(&self, s: &State, p: PlayerId, own_hand: bool) -> f64 {
        self.estimate_parts(s, p).value(own_hand)
    }

    /// The terms of [`Hamunaptra::estimate`], worked out once for both
    /// readings of the hand.
    fn estimate_parts(&self, s: &State, p: PlayerId) -> EstimateParts {
        let v = self.vp(s, p);
        let pl = &s.players[p as usize];
        let in_hand = pl
            .hand
            .iter()
            .filter(|&&k| k != NONE && matches!(self.comps.class(k), KindClass::Equip(_)))
            .count();
        let mut parts = EstimateParts {
            total: v.total,
            hidden_equipment: in_hand,
            hand: pl.hand.len(),
            board: None,
        };
        let e = s.players[p as usize].entrance;
        if e == super::state::NO_CELL {
            return parts;
        }
        let (ex, ey) = xy(e);
        let mut best = 0i32;
        for ch in &s.chars {
            if ch.alive && ch.owner == p && ch.cell != super::state::NO_CELL {
                let (x, y) = xy(ch.cell);
                best = best.max((x - ex).abs().max((y - ey).abs()));
            }
        }
        let progress = 2.0 * f64::from(best.min(self.d)) / f64::from(self.d.max(1));
        // Danger (§9 item 5): a character sharing or bordering the cell of a
        // monster or trap on the board may be lost (2 VP) in the next fight.
        let mut dangers = 0u32;
        for ch in &s.chars {
            if ch.alive && ch.owner == p && ch.cell != super::state::NO_CELL {
                let near = |c: u16| c == ch.cell || (0..4).any(|d| self.nb(ch.cell, d) == Some(c));
                if s.foes
                    .iter()
                    .any(|f| f.cell != super::state::NO_CELL && near(f.cell))
                {
                    dangers += 1;
                }
            }
        }
        // An empty cell at distance ≥ D facing a tile where a character stands.
        let mut zone = false;
        // Along tunnels a tile on an empty cell would be one step beyond the
        // nearest linked tile facing it.
        let paths = (self.metric == 2).then(|| self.path_dists(s, e));
        self.for_frontier(s, |c| {
            if zone {
                return;
            }
            let dist = match &paths {
                Some(p) => (0..4)
                    .filter_map(|d| {
                        let n = self.nb(c, d)?;
                        (self.open(s, n) >> super::board::opp(d) & 1 == 1
                            && p[n as usize] != u16::MAX)
                            .then(|| i32::from(p[n as usize]) + 1)
                    })
                    .min(),
                None => self.exit_dist(s, e, c),
            };
            if dist.is_none_or(|d| d < self.d) {
                return;
            }
            zone = (0..4).any(|d| {
                self.nb(c, d).is_some_and(|n| {
                    self.open(s, n) >> super::board::opp(d) & 1 == 1 && self.own_on(s, n, p)
                })
            });
        });
        let stairs_in_hand = pl
            .hand
            .iter()
            .filter(|&&k| {
                k != NONE
                    && matches!(self.comps.class(k), KindClass::Tile(t) if self.comps.tiles[t as usize].stairs)
            })
            .count();
        parts.board = Some(BoardTerms {
            progress,
            dangers,
            zone,
            stairs_in_hand,
        });
        parts
    }

    /// Heuristic in [−1, 1]: own estimate against the best opponent's.
    pub fn heuristic_value(&self, s: &State, p: PlayerId) -> f64 {
        if s.phase == Phase::Over {
            return self.final_returns(s)[p as usize];
        }
        let parts: ArrayVec<EstimateParts, MAX_SEATS> = (0..self.players)
            .map(|q| self.estimate_parts(s, q))
            .collect();
        Self::heuristic_from(&parts, p)
    }

    /// [`Hamunaptra::heuristic_value`] for every seat, each seat's estimate
    /// worked out once.
    pub fn heuristic_values(&self, s: &State) -> Returns {
        if s.phase == Phase::Over {
            return self.final_returns(s);
        }
        let parts: ArrayVec<EstimateParts, MAX_SEATS> = (0..self.players)
            .map(|q| self.estimate_parts(s, q))
            .collect();
        (0..self.players)
            .map(|p| Self::heuristic_from(&parts, p))
            .collect()
    }

    /// The heuristic for `p` from every seat's estimate terms.
    fn heuristic_from(parts: &[EstimateParts], p: PlayerId) -> f64 {
        let mine = parts[p as usize].value(true);
        let best_other = (0..parts.len() as PlayerId)
            .filter(|&q| q != p)
            .map(|q| parts[q as usize].value(false))
            .fold(f64::NEG_INFINITY, f64::max);
        ((mine - best_other) / 10.0).tanh()
    }
}

/// Hamunaptra's largest seat count.
const MAX_SEATS: usize = 4;

/// The terms of one seat's estimate ([`Hamunaptra::estimate`]).
#[derive(Clone, Copy, Debug)]
struct EstimateParts {
    /// Victory points.
    total: u32,
    /// Equipment cards in hand.
    hidden_equipment: usize,
    /// Cards in hand.
    hand: usize,
    /// The terms of a seat with an entrance.
    board: Option<BoardTerms>,
}

/// The terms of [`EstimateParts`] that need the seat's entrance.
#[derive(Clone, Copy, Debug)]
struct BoardTerms {
    /// The farthest character's progress toward distance D.
    progress: f64,
    /// Characters next to a monster or trap.
    dangers: u32,
    /// An open cell in the exit zone next to one of the seat's characters.
    zone: bool,
    /// Stairs tiles in hand.
    stairs_in_hand: usize,
}

impl EstimateParts {
    /// The estimate, added up in the order the terms were defined (so the
    /// same value to the bit); `own_hand`: the hand's cards may be read.
    fn value(&self, own_hand: bool) -> f64 {
        let mut est = f64::from(self.total);
        if !own_hand {
            // Another player's hand is hidden: count its size, not its cards.
            est -= self.hidden_equipment as f64;
            est += 0.1 * self.hand as f64;
        }
        let Some(b) = self.board else {
            return est;
        };
        est += b.progress;
        for _ in 0..b.dangers {
            est -= 0.6;
        }
        if b.zone {
            est += 1.5;
        }
        if own_hand {
            est += 0.5 * b.stairs_in_hand as f64;
            if b.zone && b.stairs_in_hand > 0 {
                est += 2.0;
            }
        }
        est
    }
}

//! Victory points (spec §6.2), the winner with tie-breaks (§6.3) and the
//! greedy evaluation (§9).

use super::Hamunaptra;
use super::data::KindClass;
use super::state::{NONE, Phase, State, xy};
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
        let v = self.vp(s, p);
        let mut est = f64::from(v.total);
        if !own_hand {
            // Another player's hand is hidden: count its size, not its cards.
            let pl = &s.players[p as usize];
            let in_hand = pl
                .hand
                .iter()
                .filter(|&&k| k != NONE && matches!(self.comps.class(k), KindClass::Equip(_)))
                .count();
            est -= in_hand as f64;
            est += 0.1 * pl.hand.len() as f64;
        }
        let e = s.players[p as usize].entrance;
        if e == super::state::NO_CELL {
            return est;
        }
        let (ex, ey) = xy(e);
        let mut best = 0i32;
        for ch in &s.chars {
            if ch.alive && ch.owner == p && ch.cell != super::state::NO_CELL {
                let (x, y) = xy(ch.cell);
                best = best.max((x - ex).abs().max((y - ey).abs()));
            }
        }
        est += 2.0 * f64::from(best.min(self.d)) / f64::from(self.d.max(1));
        // Danger (§9 item 5): a character sharing or bordering the cell of a
        // monster or trap on the board may be lost (2 VP) in the next fight.
        for ch in &s.chars {
            if ch.alive && ch.owner == p && ch.cell != super::state::NO_CELL {
                let near = |c: u16| c == ch.cell || (0..4).any(|d| self.nb(ch.cell, d) == Some(c));
                if s.foes
                    .iter()
                    .any(|f| f.cell != super::state::NO_CELL && near(f.cell))
                {
                    est -= 0.6;
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
        if zone {
            est += 1.5;
        }
        if own_hand {
            let stairs_in_hand = s.players[p as usize]
                .hand
                .iter()
                .filter(|&&k| {
                    k != NONE
                        && matches!(self.comps.class(k), KindClass::Tile(t) if self.comps.tiles[t as usize].stairs)
                })
                .count();
            est += 0.5 * stairs_in_hand as f64;
            if zone && stairs_in_hand > 0 {
                est += 2.0;
            }
        }
        est
    }

    /// Heuristic in [−1, 1]: own estimate against the best opponent's.
    pub fn heuristic_value(&self, s: &State, p: PlayerId) -> f64 {
        if s.phase == Phase::Over {
            return self.final_returns(s)[p as usize];
        }
        let mine = self.estimate(s, p, true);
        let best_other = (0..self.players)
            .filter(|&q| q != p)
            .map(|q| self.estimate(s, q, false))
            .fold(f64::NEG_INFINITY, f64::max);
        ((mine - best_other) / 10.0).tanh()
    }
}

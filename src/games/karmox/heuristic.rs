//! A greedy evaluation after spec 9: permanent XP dominates, then the portal
//! race, the 9+1 route, mission prospects, growth (abilities, rings, pairs)
//! and life; relative to the best rival side, squashed into [-1, 1].

use crate::game::PlayerId;

use super::Karmox;
use super::data::{Kind, NO_SQ};
use super::state::{DRAW, NO_RESULT, Phase, State};

impl Karmox {
    /// Distance in squares (Manhattan) from a character to the nearest access square.
    fn portal_distance(&self, s: &State, ch: usize) -> f64 {
        let pos = s.ch[ch].pos;
        if pos == NO_SQ {
            return 30.0;
        }
        let (x, y) = self.c.board.xy(pos);
        self.c
            .board
            .access
            .iter()
            .map(|&a| {
                let (ax, ay) = self.c.board.xy(a);
                (x.abs_diff(ax) + y.abs_diff(ay)) as f64
            })
            .fold(30.0, f64::min)
    }

    /// Raw value of one side in XP-like units.
    fn side_value(&self, s: &State, side: u8) -> f64 {
        let xp = f64::from(s.xp[side as usize]);
        let mut v = xp;
        let all_items = self.side_chars(side).all(|c| self.xp_items(s, c) >= 1);
        let ready = xp >= 10.0 || (xp >= 9.0 && all_items);
        for c in self.side_chars(side) {
            let ch = &s.ch[c];
            v += 0.15 * f64::from(ch.life) + 0.1 * f64::from(ch.level);
            v += 0.3 * ch.abil.iter().map(|&a| f64::from(a)).sum::<f64>();
            v += 0.5 * self.count_kind(s, c, Kind::Ring) as f64;
            v += 0.1
                * (self.count_kind(s, c, Kind::Potion) + self.count_kind(s, c, Kind::Tome)) as f64;
            if xp >= 8.0 {
                v += 0.4 * self.xp_items(s, c).min(1) as f64;
            }
            if ch.prison > 0 {
                v -= 1.0;
            }
            if ready {
                v += 3.0 - 0.15 * self.portal_distance(s, c).min(20.0);
            }
        }
        // Cards in hand are worth part of their XP.
        v += 0.3 * s.piles[side as usize].len() as f64;
        v
    }

    /// Heuristic in [-1, 1] from `player`'s view.
    pub fn evaluate(&self, s: &State, player: PlayerId) -> f64 {
        let side = self.seat_side[player as usize];
        if s.phase == Phase::Over {
            return match s.result {
                DRAW | NO_RESULT => 0.0,
                w if w == side => 1.0,
                _ => -1.0,
            };
        }
        let mine = self.side_value(s, side);
        let best_other = (0..self.n_sides as u8)
            .filter(|&x| x != side)
            .map(|x| self.side_value(s, x))
            .fold(f64::NEG_INFINITY, f64::max);
        ((mine - best_other) / 12.0).tanh().clamp(-0.99, 0.99)
    }
}

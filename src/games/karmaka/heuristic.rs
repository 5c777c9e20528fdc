//! A cheap evaluation in [-1, 1] following spec §9: ladder lead first, then
//! how safely each side will climb at its next death, then Future Life quality,
//! counting a card on offer for the recipient who would take it (the karmic
//! cost of an ability play).

use super::Karmaka;
use super::state::MAXP as MAX_SEATS;
use super::state::{NONE, Phase, State, THRESHOLD, TRANSCENDED};
use crate::game::Returns;

impl Karmaka {
    /// Progress of one seat in rungs: the rung, plus up to 0.8 for the share of
    /// the next threshold already secured (Deeds score plus rings), plus up to
    /// 0.15 for a Future Life that would score well next life. Once the climb
    /// is secured, a short remaining life (few Hand and Deck cards) and an
    /// off-colour exposed "cover" Deed add a little (spec §9, terms 1 and 4).
    /// `offered`: a card counted on top of the Future Life.
    pub(super) fn progress(&self, s: &State, p: u8, offered: Option<u8>) -> f64 {
        let pu = p as usize;
        let level = s.level[pu];
        if level >= TRANSCENDED {
            return f64::from(TRANSCENDED) + 1.0;
        }
        let need = f64::from(THRESHOLD[level as usize]);
        let now = f64::from(self.score_deeds(&s.deeds[pu])) + f64::from(s.rings[pu]);
        let secured = (now / need).min(1.0) * 0.8;
        let next = THRESHOLD.get(level as usize + 1).copied().unwrap_or(7);
        let future_score = match offered {
            Some(card) => {
                let mut pile = s.futures[pu].clone();
                pile.push(card);
                self.score_deeds(&pile)
            }
            None => self.score_deeds(&s.futures[pu]),
        };
        let future = (f64::from(future_score) / f64::from(next)).min(1.0) * 0.15;
        let mut extra = 0.0;
        if now >= need {
            let left = (s.hands[pu].len() + s.decks[pu].len()).min(10) as f64;
            extra += 0.03 * (1.0 - left / 10.0);
            // Losing the exposed Deed (Vengeance, Thievery) would not hurt.
            if let Some((_, below)) = s.deeds[pu].split_last()
                && f64::from(self.score_deeds(below)) + f64::from(s.rings[pu]) >= need
            {
                extra += 0.02;
            }
        }
        f64::from(level) + secured + future + extra
    }

    /// The heuristic value of `s` for `player`.
    pub fn evaluate(&self, s: &State, player: u8) -> f64 {
        if s.phase == Phase::Over {
            return self.evaluate_over(s, player);
        }
        let progress = self.progresses(s);
        self.evaluate_from(&progress, player)
    }

    /// [`Karmaka::evaluate`] for every seat, each seat's progress worked
    /// out once.
    pub fn evaluate_all(&self, s: &State) -> Returns {
        let seats = 0..self.players;
        if s.phase == Phase::Over {
            return seats.map(|p| self.evaluate_over(s, p)).collect();
        }
        let progress = self.progresses(s);
        seats.map(|p| self.evaluate_from(&progress, p)).collect()
    }

    /// The value of a finished game for `player`.
    fn evaluate_over(&self, s: &State, player: u8) -> f64 {
        if s.winner == super::state::NONE {
            0.0
        } else if self.side_of(s.winner) == self.side_of(player) {
            1.0
        } else {
            -1.0
        }
    }

    /// Every seat's progress (a seat past [`Karmaka::players`] is never read).
    fn progresses(&self, s: &State) -> [f64; MAX_SEATS] {
        // Karmic cost (spec §9, term 5): the player offered the played card
        // takes it when it improves their Future Life.
        let mut out = [0.0; MAX_SEATS];
        for q in 0..self.players {
            let now = self.progress(s, q, None);
            out[q as usize] = match s.phase {
                Phase::Offer(to, _) if to == q && s.center != NONE => {
                    now.max(self.progress(s, q, Some(s.center)))
                }
                _ => now,
            };
        }
        out
    }

    /// The heuristic value for `player` of a state in play, from every
    /// seat's progress.
    fn evaluate_from(&self, progress: &[f64; MAX_SEATS], player: u8) -> f64 {
        let mine = (0..self.players)
            .filter(|&q| self.side_of(q) == self.side_of(player))
            .map(|q| progress[q as usize])
            .fold(0.0, f64::max);
        let theirs = (0..self.players)
            .filter(|&q| self.side_of(q) != self.side_of(player))
            .map(|q| progress[q as usize])
            .fold(0.0, f64::max);
        ((mine - theirs) / 4.0).clamp(-0.99, 0.99)
    }
}

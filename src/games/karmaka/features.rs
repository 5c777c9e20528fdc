//! Evaluation features for a fitted evaluation (`eval=fitted`): the terms of
//! spec §9 (ladder lead, security of the climb, Future Life quality, tempo
//! and life length, rings, the Transcendence threat) as differences between
//! the leading seat of `player`'s side and the leading rival, so that a
//! linear model of them is zero-sum like the game. No allocation.

use super::Karmaka;
use super::state::{NONE, Phase, State, THRESHOLD, TRANSCENDED};
use crate::game::{PlayerId, Rules, Turn};

/// Feature names, in the order [`Karmaka::features_into`] writes them.
pub const FEATURES: [&str; 13] = [
    "lead",
    "rung",
    "secured",
    "safe",
    "future",
    "future_cards",
    "life",
    "safe_short",
    "unsafe_long",
    "rings",
    "hand",
    "ape_safe",
    "to_move",
];

/// Per-seat terms: every feature but `lead` and `to_move`.
const SEAT_TERMS: usize = 11;

/// The fitted weights shipped with the game (`boardlab fit`; see the file).
pub const FITTED: &str = include_str!("fitted.toml");

impl Karmaka {
    /// One seat's terms, in [`FEATURES`] order from `rung`, each about [0, 1]
    /// (the rung 0–4).
    fn seat_terms(&self, s: &State, p: u8) -> [f64; SEAT_TERMS] {
        let pu = p as usize;
        let level = s.level[pu];
        if level >= TRANSCENDED {
            return [
                f64::from(level),
                1.0,
                1.0,
                1.0,
                1.0,
                0.0,
                1.0,
                0.0,
                0.0,
                0.0,
                1.0,
            ];
        }
        let need = f64::from(THRESHOLD[level as usize]);
        let now = f64::from(self.score_deeds(&s.deeds[pu])) + f64::from(s.rings[pu]);
        let safe = if now >= need { 1.0 } else { 0.0 };
        let next = THRESHOLD.get(level as usize + 1).copied().unwrap_or(7);
        let life = ((s.hands[pu].len() + s.decks[pu].len()) as f64 / 10.0).min(1.0);
        [
            f64::from(level),
            (now / need).min(1.0),
            safe,
            (f64::from(self.score_deeds(&s.futures[pu])) / f64::from(next)).min(1.0),
            (s.futures[pu].len() as f64 / 6.0).min(1.0),
            life,
            safe * (1.0 - life),
            (1.0 - safe) * life,
            f64::from(s.rings[pu]) / 4.0,
            s.hands[pu].len() as f64 / 6.0,
            if level + 1 == TRANSCENDED { safe } else { 0.0 },
        ]
    }

    /// A seat's progress as the heuristic counts it, the card on offer included.
    fn progress_offered(&self, s: &State, q: u8) -> f64 {
        let now = self.progress(s, q, None);
        match s.phase {
            Phase::Offer(to, _) if to == q && s.center != NONE => {
                now.max(self.progress(s, q, Some(s.center)))
            }
            _ => now,
        }
    }

    /// Writes [`FEATURES`] for `player` into `out`: the leading seat (by the
    /// heuristic's progress) of `player`'s side minus the leading rival.
    pub fn features_into(&self, s: &State, player: PlayerId, out: &mut [f64]) {
        let mine_side = self.side_of(player);
        let (mut mine, mut theirs) = ((f64::NEG_INFINITY, player), (f64::NEG_INFINITY, player));
        for q in 0..self.players {
            let v = self.progress_offered(s, q);
            let best = if self.side_of(q) == mine_side {
                &mut mine
            } else {
                &mut theirs
            };
            if v > best.0 {
                *best = (v, q);
            }
        }
        let (a, b) = (self.seat_terms(s, mine.1), self.seat_terms(s, theirs.1));
        out[0] = mine.0 - theirs.0;
        for i in 0..SEAT_TERMS {
            out[1 + i] = a[i] - b[i];
        }
        out[1 + SEAT_TERMS] = match self.turn(s) {
            Turn::Player(p) if self.side_of(p) == mine_side => 1.0,
            Turn::Player(_) => -1.0,
            _ => 0.0,
        };
    }
}

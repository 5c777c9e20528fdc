//! Evaluation features for a linear evaluation (`eval=fitted`,
//! `eval=race`): the heuristic's estimate lead, the victory-point lead that
//! a capped game is scored by, whether the leader can end the game by
//! taking an exit, and who wins the race to the exits and by how much
//! (`race.rs`).
//! Capped games show why ending matters: a leader that never steps on an
//! exit leaves the game to the 60-round cap and the dice of every fight on
//! the way, while a character standing on an exit at the end of its move
//! makes the round the last (spec §6.1). The default heuristic is unchanged;
//! these features are read only with `eval=fitted`, `eval=race` or
//! `eval=@FILE`.

use super::Hamunaptra;
use super::state::{NO_CELL, Phase, State};
use crate::game::PlayerId;

/// Feature names, in the order [`Hamunaptra::features_into`] writes them.
pub const FEATURES: [&str; 7] = [
    "lead",
    "vp_lead",
    "late_lead",
    "exit_ahead",
    "ending",
    "race",
    "margin",
];

/// The fitted weights shipped with the game (`boardlab fit`; see the file).
pub const FITTED: &str = include_str!("fitted.toml");

impl Hamunaptra {
    /// Writes [`FEATURES`] for `p` into `out` (length 7). No allocation.
    ///
    /// - `lead`: the heuristic's estimate lead over the best rival, / 10.
    /// - `vp_lead`: victory points over the best rival's, / 10.
    /// - `late_lead`: `vp_lead` times the share of the round cap played.
    /// - `exit_ahead`: when `p` leads in VP, its best character's nearness
    ///   to an exit, `1 / (1 + steps)` (1 on an exit); minus the same for
    ///   the best rival when that rival leads.
    /// - `ending`: the sign of `vp_lead` once the game ends with this round.
    /// - `race`: [`Hamunaptra::race`], +1 or −1 when the seat that can end
    ///   the game by its next move would win or lose by it.
    /// - `margin`: when the race is decided, by how many victory points,
    ///   / 10 ([`Hamunaptra::race_and_margin`]).
    pub fn features_into(&self, s: &State, p: PlayerId, out: &mut [f64]) {
        out.fill(0.0);
        if s.phase == Phase::Over || out.len() < FEATURES.len() {
            return;
        }
        let mine = self.estimate(s, p, true);
        let mut best_est = f64::NEG_INFINITY;
        let mut rival = p;
        let mut rival_vp = 0u32;
        for q in (0..self.players).filter(|&q| q != p) {
            best_est = best_est.max(self.estimate(s, q, false));
            let v = self.vp(s, q).total;
            if rival == p || v > rival_vp {
                (rival, rival_vp) = (q, v);
            }
        }
        if rival == p {
            return;
        }
        let my_vp = self.vp(s, p).total;
        let vp_lead = (f64::from(my_vp) - f64::from(rival_vp)) / 10.0;
        out[0] = (mine - best_est) / 10.0;
        out[1] = vp_lead;
        out[2] =
            vp_lead * f64::from(s.round.min(self.max_rounds)) / f64::from(self.max_rounds.max(1));
        if my_vp > rival_vp {
            out[3] = self.exit_reach(s, p);
        } else if rival_vp > my_vp
            && (0..self.players)
                .filter(|&q| q != rival)
                .all(|q| self.vp(s, q).total < rival_vp)
        {
            out[3] = -self.exit_reach(s, rival);
        }
        if s.final_round {
            out[4] = vp_lead.signum() * f64::from(u8::from(vp_lead != 0.0));
        }
        (out[5], out[6]) = self.race_and_margin(s, p);
    }

    /// `1 / (1 + steps)` from `p`'s nearest living character to a cell
    /// holding an exit stair, along linked tiles (1 when one stands on an
    /// exit); 0 when no exit can be reached.
    pub fn exit_reach(&self, s: &State, p: PlayerId) -> f64 {
        if !s.stairs.iter().any(|&c| s.cells[c as usize].exit) {
            return 0.0;
        }
        let mut best = 0.0f64;
        for ch in s
            .chars
            .iter()
            .filter(|c| c.alive && c.owner == p && c.cell != NO_CELL)
        {
            let dist = self.path_dists(s, ch.cell);
            for &c in &s.stairs {
                let d = dist[c as usize];
                if s.cells[c as usize].exit && d != u16::MAX {
                    best = best.max(1.0 / (1.0 + f64::from(d)));
                }
            }
        }
        best
    }
}

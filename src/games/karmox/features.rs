//! Evaluation features for a fitted evaluation (`eval=fitted`): the
//! heuristic's own terms (spec 9) taken apart, each as `player`'s side minus
//! the best rival side (the rival the heuristic compares with), so that a
//! logistic model of them can weigh what the hand-set heuristic adds up with
//! fixed weights. Like the heuristic, the features read only the state they
//! are given, and of a rival side's secret mission cards only their number.
//! The default heuristic is unchanged; these features are read only with
//! `eval=fitted` or `eval=@FILE`. No allocation.

use super::Karmox;
use super::data::Kind;
use super::heuristic::{Distances, FAR, Holding};
use super::state::{Phase, State};
use crate::game::{PlayerId, Turn};

/// Feature names, in the order [`Karmox::features_into`] writes them.
pub const FEATURES: [&str; 16] = [
    "lead",
    "xp",
    "xp_late",
    "ready",
    "portal",
    "missions",
    "cards",
    "life",
    "level",
    "abilities",
    "items",
    "rings",
    "threat",
    "prison",
    "tempo",
    "to_move",
];

/// The fitted weights shipped with the game (`boardlab fit`; see the file).
pub const FITTED: &str = include_str!("fitted.toml");

/// One side's public terms, in [`FEATURES`] order from `ready` (without
/// `missions`), each about [0, 1] per character.
#[derive(Clone, Copy, Default)]
struct SideTerms {
    xp: f64,
    ready: f64,
    portal: f64,
    cards: f64,
    life: f64,
    level: f64,
    abilities: f64,
    items: f64,
    rings: f64,
    threat: f64,
    prison: f64,
    tempo: f64,
}

impl Karmox {
    /// Terms every seat can see: XP, readiness and the portal race as the
    /// heuristic counts them, the number of mission cards, the characters'
    /// sheets, the danger they stand in, prison and the tempo term.
    fn side_terms(
        &self,
        s: &State,
        side: u8,
        pos: &[u16; 6],
        h: &[Holding; 6],
        t: &Distances,
    ) -> SideTerms {
        let xp = f64::from(s.xp[side as usize]);
        let ready = self.portal_ready(side, xp, h);
        let mut out = SideTerms {
            xp: xp / 10.0,
            ready: if ready { 1.0 } else { 0.0 },
            cards: s.piles[side as usize].len() as f64 / 3.0,
            ..SideTerms::default()
        };
        let mut portal = f64::from(FAR);
        for c in self.side_chars(side) {
            let ch = &s.ch[c];
            out.life += f64::from(ch.life) / 5.0;
            out.level += f64::from(ch.level) / 3.0;
            out.abilities += ch.abil.iter().map(|&a| f64::from(a)).sum::<f64>() / 3.0;
            out.items += f64::from(h[c].tiles) / 3.0;
            out.rings += f64::from(h[c].kinds[Kind::Ring as usize]);
            if ch.on_board() {
                out.threat += self.threat(s, c, pos, t);
                let to_icon = self.slot(s, c).map_or(f64::from(FAR), |tile| {
                    t.to_icon(pos[c], self.c.tiles[tile].icon)
                });
                out.tempo += (1.0 - to_icon / 24.0).max(0.0);
            }
            if ch.prison > 0 {
                out.prison += 1.0;
            } else if ch.in_play && (xp >= 10.0 || h[c].xp_items() >= 1) {
                portal = portal.min(t.to_access(pos[c]));
            }
        }
        if ready {
            out.portal = 1.0 - portal.min(20.0) / 20.0;
        }
        out
    }

    /// Writes [`FEATURES`] for `player` into `out` (length 16): `player`'s
    /// side minus the rival side the heuristic compares with. Like the
    /// heuristic, a Move of one of the side's characters is scored at its
    /// best destination (by the heuristic's side value), so one-step
    /// look-ahead sees what the Move is for. All zero once the game is over.
    ///
    /// - `lead`: the heuristic's lead before its squashing, / 12.
    /// - `xp`: permanent XP / 10; `xp_late`: that lead times the larger
    ///   side's XP / 10 (up to 1), as the race nears the portal.
    /// - `ready`: 1 for a side that may take the portal; `portal`: then its
    ///   nearest eligible character's closeness to an access square.
    /// - `missions`: the heuristic's progress toward the side's own cards,
    ///   in XP / 10 (own side only: a rival's cards are secret); `cards`:
    ///   mission cards held / 3.
    /// - `life` (/ 5), `level` (/ 3), `abilities` (/ 3), `items` (tiles held,
    ///   / 3), `rings`: summed over the side's characters.
    /// - `threat`: the heuristic's danger to the side's characters; `prison`:
    ///   characters in prison; `tempo`: closeness to the icon of the tile
    ///   waiting in each character's cell.
    /// - `to_move`: 1 when `player`'s side decides, −1 a rival, 0 chance.
    pub fn features_into(&self, s: &State, player: PlayerId, out: &mut [f64]) {
        out.fill(0.0);
        if s.phase == Phase::Over || out.len() < FEATURES.len() {
            return;
        }
        let side = self.seat_side[player as usize];
        let h = self.sheet_summary(s);
        let pos = self.positions(s);
        self.with_distances(|t| {
            // The side's own terms where the heuristic takes its value: a
            // Move of one of ours at its best destination.
            let (lead, rival, at) = self.raw_lead(s, side, &pos, &h, t);
            let a = self.side_terms(s, side, &at, &h, t);
            let r = self.side_terms(s, rival, &pos, &h, t);
            let mut missions = 0.0;
            for card in &s.piles[side as usize] {
                let m = &self.c.missions[card.id as usize];
                missions += f64::from(m.xp) * self.mission_progress(s, side, m.check, &at, &h, t);
            }
            out[0] = lead / 12.0;
            out[1] = a.xp - r.xp;
            out[2] = (a.xp - r.xp) * a.xp.max(r.xp).min(1.0);
            out[3] = a.ready - r.ready;
            out[4] = a.portal - r.portal;
            out[5] = missions / 10.0;
            out[6] = a.cards - r.cards;
            out[7] = a.life - r.life;
            out[8] = a.level - r.level;
            out[9] = a.abilities - r.abilities;
            out[10] = a.items - r.items;
            out[11] = a.rings - r.rings;
            out[12] = a.threat - r.threat;
            out[13] = a.prison - r.prison;
            out[14] = a.tempo - r.tempo;
        });
        out[15] = match self.turn_of(s) {
            Turn::Player(p) if self.seat_side[p as usize] == side => 1.0,
            Turn::Player(_) => -1.0,
            _ => 0.0,
        };
    }
}

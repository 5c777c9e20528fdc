//! Missions (spec 4.11): checkpoints evaluate the active side's secret pile;
//! completed cards are revealed, scored as permanent XP, put under the deck
//! (publicly known from then on) and replaced by draws.

use arrayvec::ArrayVec;

use super::Karmox;
use super::data::{Check, Kind, colour_of};
use super::state::{State, bump};

impl Karmox {
    /// True when mission `card` is fulfilled for `side` at this checkpoint.
    pub fn mission_done(&self, s: &State, side: u8, card: usize) -> bool {
        let b = &self.c.board;
        let mut chars = self.side_chars(side);
        match self.c.missions[card].check {
            Check::Event(bit) => s.events & bit != 0,
            Check::Forzieri2 => chars.any(|c| self.count_kind(s, c, Kind::Forziere) >= 2),
            Check::Tiles3 => chars.any(|c| self.sheet(s, c).count() >= 3),
            Check::PortalSentinel => {
                chars.any(|c| s.ch[c].on_board() && b.access.contains(&s.ch[c].pos))
            }
            Check::Intruder => chars.any(|c| {
                s.ch[c].on_board()
                    && (0..6).any(|e| {
                        s.ch[e].in_play && self.side_of_char(e) != side && b.front[e] == s.ch[c].pos
                    })
            }),
            Check::Explorer => chars.any(|c| {
                if !s.ch[c].on_board() {
                    return false;
                }
                let y = b.xy(s.ch[c].pos).1 as u16;
                let wing = if colour_of(c) == 0 {
                    b.red_wing
                } else {
                    b.blue_wing
                };
                (wing[0]..=wing[1]).contains(&y)
            }),
        }
    }

    /// A checkpoint of the active side: complete, score, bury, redraw; then
    /// the action phase.
    pub fn checkpoint(&self, s: &mut State) {
        let side = self.seat_side[s.seat as usize];
        let mut done: ArrayVec<u8, 3> = ArrayVec::new();
        for card in &s.piles[side as usize] {
            if self.mission_done(s, side, card.id as usize) {
                done.push(card.id);
            }
        }
        done.sort_unstable();
        for &id in &done {
            let pile = &mut s.piles[side as usize];
            if let Some(i) = pile.iter().position(|c| c.id == id) {
                pile.remove(i);
            }
            let xp = self.c.missions[id as usize].xp;
            s.xp[side as usize] = s.xp[side as usize].saturating_add(xp);
            let seat = s.seat as usize;
            bump(&mut s.tally.missions[seat]);
            s.tally.mission_xp[seat] = s.tally.mission_xp[seat].saturating_add(u16::from(xp));
            s.deck_known.push(id);
        }
        s.events = 0;
        s.draw_side = side;
        s.draws_left = done.len() as u8;
        self.continue_draws(s);
    }
}

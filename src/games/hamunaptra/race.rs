//! The race to the exits: who can end the game by stepping onto an exit,
//! and would that seat win (spec §6.1, §9 item 4).
//!
//! A search whose rollouts move characters at random almost never walks a
//! rival's party onto an exit, so it cannot see a rival about to end the
//! game in the lead, nor the escapes a rival still makes in the last round.
//! This one-round look-ahead counts those escapes instead: it moves every
//! character that can reach an exit this turn onto it and compares the
//! ranking keys (§6.3) that would result. It leaves out fights, exits laid
//! during the round and edge walks, so it is an estimate, read only by the
//! `race` evaluation feature: `eval=race` adds it to the heuristic.

use super::Hamunaptra;
use super::board::CellSet;
use super::state::{MAXP, NO_CELL, Phase, State};
use crate::game::PlayerId;

/// `eval=race`: the heuristic plus the race (`race.toml` beside this file).
pub const RACE: &str = include_str!("race.toml");

impl Hamunaptra {
    /// How many living characters of `p`, not yet on an exit, could stand on
    /// one after moving: with their movement points left when `now` (the
    /// seat to move, in its turn), else with their printed movement (a turn
    /// still to come). `last_round`: exits held by another seat's characters
    /// may be shared (§4.5). Encounter tiles stop a character and are never
    /// counted; other seats' characters block.
    pub fn escapes(&self, s: &State, p: PlayerId, now: bool, last_round: bool) -> u32 {
        let mut count = 0;
        for (i, ch) in s.chars.iter().enumerate().take(self.comps.chars.len()) {
            if !(ch.alive && ch.owner == p && ch.cell != NO_CELL) || s.cells[ch.cell as usize].exit
            {
                continue;
            }
            let budget = match now {
                true if ch.stopped => 0,
                true => ch.mp,
                false => self.comps.chars[i].m,
            };
            if self.reaches_exit(s, p, ch.cell, budget, last_round) {
                count += 1;
            }
        }
        count
    }

    /// Breadth-first walk of at most `budget` steps from `from`.
    fn reaches_exit(
        &self,
        s: &State,
        p: PlayerId,
        from: u16,
        budget: u8,
        last_round: bool,
    ) -> bool {
        let mut seen = CellSet::new();
        seen.add(from);
        // Within a turn's few steps far fewer cells are reached than this.
        let mut queue = [(0u16, 0u8); 256];
        queue[0] = (from, 0);
        let (mut head, mut tail) = (0, 1);
        while head < tail {
            let (c, depth) = queue[head];
            head += 1;
            if depth == budget {
                continue;
            }
            let mut found = false;
            self.for_adjacent(s, c, |u| {
                if found || seen.has(u) {
                    return;
                }
                seen.add(u);
                let cell = &s.cells[u as usize];
                if cell.tile == 0 || cell.enc != 0 {
                    return;
                }
                if self.others_on(s, u, p) {
                    found = cell.exit && last_round;
                    return;
                }
                if cell.exit {
                    found = true;
                    return;
                }
                if tail < queue.len() {
                    queue[tail] = (u, depth + 1);
                    tail += 1;
                }
            });
            if found {
                return true;
            }
        }
        false
    }

    /// The race seen from `p`: +1 when `p` wins it, −1 when a rival does,
    /// 0 when nobody can end the game in the lead by its next move.
    ///
    /// - In the last round: every seat still to move escapes all it can,
    ///   and the ranking keys decide.
    /// - Otherwise: the next seat to move ends the game if it can reach an
    ///   exit and would rank first after the seats after it in the round
    ///   have escaped all they can in reply.
    pub fn race(&self, s: &State, p: PlayerId) -> f64 {
        self.race_and_margin(s, p).0
    }

    /// [`Hamunaptra::race`] and, when the race is decided, the margin it is
    /// won by: `p`'s victory points after the escapes minus the best
    /// rival's, / 10, within [−1, 1] (0 when nobody wins the race). The
    /// sign alone rates a win by one point like a win by five; added to
    /// `eval=race`, the margin did not make the search stronger at equal
    /// CPU (results/strength-sprt §11), so it is a research feature.
    pub fn race_and_margin(&self, s: &State, p: PlayerId) -> (f64, f64) {
        let setup = matches!(
            s.phase,
            Phase::FirstRoll | Phase::Draft | Phase::Entrance | Phase::Over
        );
        if setup || self.rule3 || !s.stairs.iter().any(|&c| s.cells[c as usize].exit) {
            return (0.0, 0.0);
        }
        let moving = matches!(
            s.phase,
            Phase::Draw
                | Phase::Trade
                | Phase::TradeBuild
                | Phase::TradeReply
                | Phase::TradeDiscard
                | Phase::Move
                | Phase::OvertakeGroup
        );
        let n = self.players;
        let mut gains = [0u32; MAXP];
        let (winner, totals) = if s.final_round {
            if moving {
                gains[s.seat as usize] = self.escapes(s, s.seat, true, true);
            }
            self.replies(s, s.seat, s.first, &mut gains);
            self.race_winner(s, &gains)
        } else {
            // The next seat to move: this one if it has not finished
            // moving, else the next (the First Player when the round is
            // over).
            let (mover, now) = if moving {
                (s.seat, true)
            } else {
                ((s.seat + 1) % n, false)
            };
            let on_exit = now
                && s.chars.iter().any(|ch| {
                    ch.alive
                        && ch.owner == mover
                        && ch.cell != NO_CELL
                        && s.cells[ch.cell as usize].exit
                });
            gains[mover as usize] = self.escapes(s, mover, now, false);
            if gains[mover as usize] == 0 && !on_exit {
                return (0.0, 0.0);
            }
            let round_start = if moving || mover != s.first {
                s.first
            } else {
                // A new round: every other seat replies after the First
                // Player.
                mover
            };
            self.replies(s, mover, round_start, &mut gains);
            let (winner, totals) = self.race_winner(s, &gains);
            (winner.filter(|&w| w == mover), totals)
        };
        let Some(w) = winner else {
            return (0.0, 0.0);
        };
        let rival = (0..self.players)
            .filter(|&q| q != p)
            .map(|q| totals[q as usize])
            .max()
            .unwrap_or(0);
        let margin = (f64::from(totals[p as usize]) - f64::from(rival)) / 10.0;
        (if w == p { 1.0 } else { -1.0 }, margin.clamp(-1.0, 1.0))
    }

    /// The last-round escapes of the seats after `after` in turn order, up
    /// to (not including) `until`: their replies once the game is ending.
    fn replies(&self, s: &State, after: PlayerId, until: PlayerId, gains: &mut [u32; MAXP]) {
        let mut q = (after + 1) % self.players;
        while q != until {
            gains[q as usize] = self.escapes(s, q, false, true);
            q = (q + 1) % self.players;
        }
    }

    /// The seat ranking strictly first once each seat's `gains` characters
    /// have stepped onto an exit (`None` on a tie), and each seat's
    /// victory points then.
    fn race_winner(&self, s: &State, gains: &[u32; MAXP]) -> (Option<PlayerId>, [u32; MAXP]) {
        let per = if self.escaped_also_survivor { 3 } else { 1 };
        let mut totals = [0u32; MAXP];
        let mut best: Option<((u32, u32, u32, u32), PlayerId)> = None;
        let mut tied = false;
        for q in 0..self.players {
            let v = self.vp(s, q);
            let e = gains[q as usize];
            totals[q as usize] = v.total + per * e;
            let key = (
                totals[q as usize],
                v.escaped + e,
                v.exits,
                v.escaped + v.survivors,
            );
            match best {
                Some((b, _)) if key < b => {}
                Some((b, _)) if key == b => tied = true,
                _ => {
                    best = Some((key, q));
                    tied = false;
                }
            }
        }
        (best.filter(|_| !tied).map(|(_, q)| q), totals)
    }
}

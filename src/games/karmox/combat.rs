//! Attack resolution (spec 4.5): the roll with rerolled ties, damage and level
//! points, defeat and imprisonment, then the winner's adrenaline decisions in
//! the fixed order steal → push → self-move (defender: push → move).

use super::Karmox;
use super::data::NO_SQ;
use super::state::{Action, Phase, State, bump, ev};

impl Karmox {
    /// Resolves one C-CombatRoll outcome (dice totals).
    pub fn combat_roll(&self, s: &mut State, att_dice: u8, def_dice: u8) {
        let (a, d) = (s.combat.att as usize, s.combat.def as usize);
        let ra = i16::from(att_dice) + self.att_eff(s, a);
        let rd = i16::from(def_dice) + self.def_eff(s, d);
        if ra == rd {
            s.combat.rerolls = s.combat.rerolls.wrapping_add(1);
            return;
        }
        if ra > rd {
            bump(&mut s.tally.fights_won[a]);
            bump(&mut s.tally.fights_lost[d]);
            let adr = (ra - rd + i16::from(s.adr_bonus)).min(255) as u8;
            s.combat.adr = adr;
            s.events |= ev::WIN;
            if adr >= 5 {
                s.events |= ev::WIN_A5;
            }
            s.ch[d].life = s.ch[d].life.saturating_sub(1);
            // Defeat is automatic and independent of the level-up choice, so it
            // is resolved first: no state shows a lifeless pawn on the board.
            if s.ch[d].life == 0 {
                let c = &mut s.ch[d];
                c.prison = 1;
                c.prison_cell = a as u8;
                c.pos = NO_SQ;
                s.events |= ev::DEFEAT;
                bump(&mut s.tally.defeats[a]);
                bump(&mut s.tally.imprisoned[d]);
            }
            s.ch[a].level += 1;
            if s.ch[a].level >= 3 {
                s.ch[a].level = 0;
                if s.ch[a].abil.iter().any(|&x| x < 3) {
                    s.phase = Phase::LevelUp;
                    return;
                }
            }
            self.after_level(s);
        } else {
            bump(&mut s.tally.fights_won[d]);
            bump(&mut s.tally.fights_lost[a]);
            s.combat.adr = (rd - ra).min(255) as u8;
            self.defender_push_phase(s);
        }
    }

    /// Direction of a push by `from` against `target` (away from the pusher).
    fn push_dir(&self, s: &State, from: usize, target: usize) -> u8 {
        self.c.board.dir_to(s.ch[from].pos, s.ch[target].pos)
    }

    /// Largest push now offered (`min(A, maxPush)`).
    pub fn push_limit(&self, s: &State) -> u8 {
        let (a, d) = (s.combat.att as usize, s.combat.def as usize);
        let (pusher, target) = if s.phase == Phase::DefPush {
            (d, a)
        } else {
            (a, d)
        };
        let dir = self.push_dir(s, pusher, target);
        s.combat.adr.min(self.max_push(s, target, dir))
    }

    /// After the level-up: D-Steal if a tile is affordable, else the push.
    pub fn after_level(&self, s: &mut State) {
        let d = s.combat.def as usize;
        let any = self
            .sheet(s, d)
            .any(|t| self.c.tiles[t].cost <= s.combat.adr);
        if any {
            s.phase = Phase::Steal;
        } else {
            self.attacker_push_phase(s);
        }
    }

    /// D-Steal outcome.
    pub fn steal(&self, s: &mut State, a: Action) {
        match a {
            Action::Tile(t) => {
                let t = t as usize;
                s.combat.adr -= self.c.tiles[t].cost;
                self.receive(s, s.combat.att as usize, t);
                s.events |= ev::STEAL;
                bump(&mut s.tally.stolen[s.combat.att as usize]);
                self.self_move_phase(s);
            }
            _ => self.attacker_push_phase(s),
        }
    }

    fn attacker_push_phase(&self, s: &mut State) {
        let d = s.combat.def as usize;
        s.phase = Phase::Push;
        if s.ch[d].on_board() && self.push_limit(s) > 0 {
            return;
        }
        self.self_move_phase(s);
    }

    /// D-Push outcome.
    pub fn attacker_push(&self, s: &mut State, p: u8) {
        let (a, d) = (s.combat.att as usize, s.combat.def as usize);
        let dir = self.push_dir(s, a, d);
        self.push(s, d, dir, p);
        s.combat.adr -= p;
        if p >= 3 {
            s.events |= ev::PUSH3;
        }
        self.self_move_phase(s);
    }

    fn self_move_phase(&self, s: &mut State) {
        let a = s.combat.att as usize;
        if s.combat.adr > 0 && self.can_move(s, a, s.combat.adr) {
            s.phase = Phase::SelfMove;
        } else {
            self.action_done(s);
        }
    }

    fn defender_push_phase(&self, s: &mut State) {
        s.phase = Phase::DefPush;
        if self.push_limit(s) > 0 {
            return;
        }
        self.defender_move_phase(s);
    }

    /// D-DefPush outcome.
    pub fn defender_push(&self, s: &mut State, p: u8) {
        let (a, d) = (s.combat.att as usize, s.combat.def as usize);
        let dir = self.push_dir(s, d, a);
        self.push(s, a, dir, p);
        s.combat.adr -= p;
        self.defender_move_phase(s);
    }

    fn defender_move_phase(&self, s: &mut State) {
        let d = s.combat.def as usize;
        if s.combat.adr > 0 && self.can_move(s, d, s.combat.adr) {
            s.phase = Phase::DefMove;
        } else {
            self.action_done(s);
        }
    }
}

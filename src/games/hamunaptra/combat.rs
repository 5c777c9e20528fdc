//! The combat sequence (spec §4.7), character fights (rule 1, §4.12.1) and
//! ambushes (rule 2, §4.12.2).

use super::Actions;
use super::Hamunaptra;
use super::state::{Action, Combat, NO_CELL, NONE, Phase, Stage, State, bump};

impl Hamunaptra {
    /// Living characters of `p` on `cell`, by index.
    pub fn on_cell(&self, s: &State, p: u8, cell: u16) -> impl Iterator<Item = u8> + '_ {
        let cells: [(u8, u16, bool); 16] =
            core::array::from_fn(|i| (s.chars[i].owner, s.chars[i].cell, s.chars[i].alive));
        (0..16u8).filter(move |&i| {
            let (o, c, a) = cells[i as usize];
            a && o == p && c == cell
        })
    }

    /// The controller for a fight of `fighter` (spec §4.7, A25).
    pub fn controller_for(&self, s: &State, fighter: u8) -> u8 {
        let n = self.players;
        (0..n)
            .map(|i| (s.ctrl_ptr + i) % n)
            .find(|&q| q != fighter)
            .unwrap_or(0)
    }

    /// Starts the fight at `cell` for the active seat.
    pub fn start_fight(&self, s: &mut State, cell: u16) {
        let p = s.seat;
        s.fought.push(cell);
        let enc = s.cells[cell as usize].enc;
        let (foe, opp) = if enc != 0 {
            (enc - 1, NONE)
        } else {
            (NONE, self.single_other_owner(s, cell, p).unwrap_or(NONE))
        };
        let controller = if foe != NONE {
            self.controller_for(s, p)
        } else {
            opp
        };
        bump(&mut s.tally.combats, p);
        if opp != NONE {
            bump(&mut s.tally.combats, opp);
        }
        s.combat = Some(Combat {
            cell,
            foe,
            opp,
            fighter: p,
            controller,
            stage: Stage::Assign,
            stat: 0,
            counter: 0,
            target: NONE,
            target_att: NONE,
            pending: 0,
            rounds: 0,
            ambush: false,
        });
        s.phase = Phase::Fight;
        self.begin_round(s);
    }

    /// Starts a rule-2 ambush: `foe` entered `cell`, where `owner`'s characters stand.
    pub fn start_ambush(&self, s: &mut State, foe: u8, cell: u16, owner: u8, mover: u8) {
        let controller = if mover == owner {
            (mover + 1) % self.players
        } else {
            mover
        };
        bump(&mut s.tally.combats, owner);
        s.combat = Some(Combat {
            cell,
            foe,
            opp: NONE,
            fighter: owner,
            controller,
            stage: Stage::Counter,
            stat: 0,
            counter: 0,
            target: NONE,
            target_att: NONE,
            pending: 0,
            rounds: 0,
            ambush: true,
        });
        s.phase = Phase::Fight;
    }

    /// Attack stats available this fight (bit 0 F, bit 1 I).
    fn attack_stats(&self, c: &Combat) -> u8 {
        if c.foe == NONE {
            3
        } else {
            let mut m = 0;
            for st in 0..2 {
                if self.comps.foe_stat(c.foe, st).is_some() {
                    m |= 1 << st;
                }
            }
            m
        }
    }

    /// Can `e` be assigned to character `ch` of side `side` in this fight (§4.10 items 3–4)?
    fn assign_ok(&self, s: &State, c: &Combat, side: u8, e: u8, ch: u8) -> bool {
        if s.chars[ch as usize].active != NONE {
            return false;
        }
        for k in 0..4 {
            if self.comps.equip_bonus(e, k) == 0 {
                continue;
            }
            let clash = self.on_cell(s, side, c.cell).any(|o| {
                let a = s.chars[o as usize].active;
                a != NONE && self.comps.equip_bonus(a, k) > 0
            });
            if clash {
                return false;
            }
        }
        true
    }

    /// Is the equipment step offered to `side`? Decided on public facts (a
    /// face-down item on its table, a participant without an active item),
    /// not on the hidden items' bonuses, so that skipping the step does not
    /// reveal them; when every hidden item clashes, `DoneAssign` is the only
    /// choice.
    fn has_assignment(&self, s: &State, c: &Combat, side: u8) -> bool {
        !s.players[side as usize].table.is_empty()
            && self
                .on_cell(s, side, c.cell)
                .any(|ch| s.chars[ch as usize].active == NONE)
    }

    /// Skips the steps of a new round that offer no choice.
    fn begin_round(&self, s: &mut State) {
        let mut c = s.combat.expect("combat");
        c.stage = Stage::Assign;
        if !self.has_assignment(s, &c, c.fighter) {
            c.stage = Stage::QAssign;
        }
        if c.stage == Stage::QAssign && (c.opp == NONE || !self.has_assignment(s, &c, c.opp)) {
            c.stage = Stage::Stat;
        }
        if c.stage == Stage::Stat {
            let stats = self.attack_stats(&c);
            if stats.count_ones() == 1 {
                c.stat = stats.trailing_zeros() as u8;
                c.stage = self.after_stat(&c);
            }
        }
        s.combat = Some(c);
    }

    fn after_stat(&self, c: &Combat) -> Stage {
        if c.foe == NONE {
            Stage::TargetDef
        } else {
            Stage::AttackRoll
        }
    }

    /// Sum of a stat over a side on the cell plus the one equipment bonus for it.
    pub fn pool(&self, s: &State, side: u8, cell: u16, stat: u8) -> u8 {
        let mut n = 0u8;
        let mut bonus = 0u8;
        for ch in self.on_cell(s, side, cell) {
            n += self.comps.char_stat(ch, stat);
            let a = s.chars[ch as usize].active;
            if a != NONE {
                bonus = bonus.max(self.comps.equip_bonus(a, stat));
            }
        }
        n + bonus
    }

    /// The fight's current roll as (dice, target), if it is at a roll.
    pub fn fight_roll(&self, s: &State) -> Option<(u8, u8)> {
        let c = s.combat?;
        match c.stage {
            Stage::AttackRoll => {
                let n = self.pool(s, c.fighter, c.cell, c.stat);
                let v = if c.foe != NONE {
                    self.comps.foe_stat(c.foe, c.stat).unwrap_or(4)
                } else {
                    self.comps.char_stat(c.target, c.stat)
                };
                Some((n, v))
            }
            Stage::CounterRoll => {
                let n = self.comps.foe_stat(c.foe, c.counter).unwrap_or(0);
                Some((n, self.comps.char_stat(c.target, c.counter)))
            }
            Stage::PvpRoll => {
                let n = self.pool(s, c.opp, c.cell, c.stat);
                Some((n, self.comps.char_stat(c.target_att, c.stat)))
            }
            _ => None,
        }
    }

    /// Legal decisions inside a fight.
    pub fn fight_actions(&self, s: &State, out: &mut Actions) {
        let c = s.combat.expect("combat");
        match c.stage {
            Stage::Assign | Stage::QAssign => {
                let side = if c.stage == Stage::Assign {
                    c.fighter
                } else {
                    c.opp
                };
                for &e in &s.players[side as usize].table {
                    for ch in self.on_cell(s, side, c.cell) {
                        if self.assign_ok(s, &c, side, e, ch) {
                            out.push(Action::AssignCombat { equip: e, ch });
                        }
                    }
                }
                out.push(Action::DoneAssign);
            }
            Stage::Stat => {
                let stats = self.attack_stats(&c);
                for st in 0..2 {
                    if stats >> st & 1 == 1 {
                        out.push(Action::Attack(st));
                    }
                }
            }
            Stage::TargetDef => {
                for ch in self.on_cell(s, c.opp, c.cell) {
                    out.push(Action::Target(ch));
                }
            }
            Stage::TargetAtt => {
                for ch in self.on_cell(s, c.fighter, c.cell) {
                    out.push(Action::Target(ch));
                }
            }
            Stage::Counter => {
                for st in 0..2 {
                    if self.comps.foe_stat(c.foe, st).is_none() {
                        continue;
                    }
                    if self.defender_owner {
                        out.push(Action::Counter { stat: st, ch: NONE });
                    } else {
                        for ch in self.on_cell(s, c.fighter, c.cell) {
                            out.push(Action::Counter { stat: st, ch });
                        }
                    }
                }
            }
            Stage::CounterDef => {
                for ch in self.on_cell(s, c.fighter, c.cell) {
                    out.push(Action::Target(ch));
                }
            }
            Stage::Decide => {
                out.push(Action::Continue);
                self.for_retreats(s, &c, |l| out.push(Action::Retreat(l)));
            }
            Stage::AttackRoll | Stage::CounterRoll | Stage::PvpRoll => {}
        }
    }

    /// Legal retreat cells (spec §4.7 g).
    pub fn for_retreats(&self, s: &State, c: &Combat, mut f: impl FnMut(u16)) {
        for d in 0..4 {
            let Some(l) = self.link(s, c.cell, d) else {
                continue;
            };
            if s.cells[l as usize].enc != 0 || self.others_on(s, l, c.fighter) {
                continue;
            }
            if !c.ambush
                && self
                    .on_cell(s, c.fighter, c.cell)
                    .any(|ch| s.chars[ch as usize].came_from == l)
            {
                continue;
            }
            f(l);
        }
    }

    fn kill(&self, s: &mut State, ch: u8) {
        bump(&mut s.tally.deaths, s.chars[ch as usize].owner);
        let c = &mut s.chars[ch as usize];
        c.alive = false;
        c.cell = NO_CELL;
        if c.active != NONE {
            let k = self.comps.equip_kind(c.active);
            c.active = NONE;
            s.gone[k as usize] += 1;
        }
    }

    fn hit(&self, s: &mut State, ch: u8, k: u8) {
        let c = &mut s.chars[ch as usize];
        c.dmg += k;
        let rb = if c.active == NONE {
            0
        } else {
            self.comps.equip_bonus(c.active, 2)
        };
        if c.dmg >= self.comps.chars[ch as usize].r + rb {
            self.kill(s, ch);
        }
    }

    /// Applies a decision or roll inside a fight.
    pub fn fight_apply(&self, s: &mut State, a: Action) {
        let mut c = s.combat.expect("combat");
        match (c.stage, a) {
            (Stage::Assign | Stage::QAssign, Action::AssignCombat { equip, ch }) => {
                let side = s.chars[ch as usize].owner;
                let t = &mut s.players[side as usize].table;
                if let Some(i) = t.iter().position(|&x| x == equip) {
                    t.remove(i);
                }
                bump(&mut s.tally.equip_activated, side);
                s.chars[ch as usize].active = equip;
                if !self.has_assignment(s, &c, side) {
                    self.after_assign(s, c);
                }
            }
            (Stage::Assign | Stage::QAssign, Action::DoneAssign) => self.after_assign(s, c),
            (Stage::Stat, Action::Attack(st)) => {
                c.stat = st;
                c.stage = self.after_stat(&c);
                s.combat = Some(c);
            }
            (Stage::TargetDef, Action::Target(ch)) => {
                c.target = ch;
                c.stage = Stage::TargetAtt;
                s.combat = Some(c);
            }
            (Stage::TargetAtt, Action::Target(ch)) => {
                c.target_att = ch;
                c.stage = Stage::AttackRoll;
                s.combat = Some(c);
            }
            (Stage::AttackRoll, Action::Roll(k)) => {
                if c.foe == NONE {
                    c.pending = k;
                    c.stage = Stage::PvpRoll;
                    s.combat = Some(c);
                    return;
                }
                let f = &mut s.foes[c.foe as usize];
                f.dmg += k;
                if f.dmg >= self.comps.foes[c.foe as usize].r {
                    f.cell = NO_CELL;
                    f.dmg = 0;
                    s.cells[c.cell as usize].enc = 0;
                    let kind = self.comps.foe_kind(c.foe);
                    s.gone[kind as usize] += 1;
                    bump(&mut s.tally.won, c.fighter);
                    if self.comps.foe_is_monster[c.foe as usize] {
                        bump(&mut s.tally.monsters, c.fighter);
                    } else {
                        bump(&mut s.tally.traps, c.fighter);
                    }
                    self.end_fight(s, c);
                } else {
                    c.stage = Stage::Counter;
                    s.combat = Some(c);
                }
            }
            (Stage::Counter, Action::Counter { stat, ch }) => {
                c.counter = stat;
                if ch == NONE {
                    c.stage = Stage::CounterDef;
                } else {
                    c.target = ch;
                    c.stage = Stage::CounterRoll;
                }
                s.combat = Some(c);
            }
            (Stage::CounterDef, Action::Target(ch)) => {
                c.target = ch;
                c.stage = Stage::CounterRoll;
                s.combat = Some(c);
            }
            (Stage::CounterRoll, Action::Roll(k)) => {
                self.hit(s, c.target, k);
                self.round_over(s, c);
            }
            (Stage::PvpRoll, Action::Roll(k)) => {
                self.hit(s, c.target, c.pending);
                self.hit(s, c.target_att, k);
                c.pending = 0;
                self.round_over(s, c);
            }
            (Stage::Decide, Action::Continue) => {
                s.combat = Some(c);
                self.begin_round(s);
            }
            (Stage::Decide, Action::Retreat(l)) => {
                let movers: arrayvec::ArrayVec<u8, 16> =
                    self.on_cell(s, c.fighter, c.cell).collect();
                for ch in movers {
                    s.chars[ch as usize].cell = l;
                    s.chars[ch as usize].stopped = true;
                }
                bump(&mut s.tally.retreats, c.fighter);
                self.end_fight(s, c);
            }
            (stage, a) => panic!("illegal fight action {a:?} at {stage:?}"),
        }
    }

    fn after_assign(&self, s: &mut State, mut c: Combat) {
        if c.stage == Stage::Assign && c.opp != NONE && self.has_assignment(s, &c, c.opp) {
            c.stage = Stage::QAssign;
            s.combat = Some(c);
            return;
        }
        c.stage = Stage::Stat;
        let stats = self.attack_stats(&c);
        if stats.count_ones() == 1 {
            c.stat = stats.trailing_zeros() as u8;
            c.stage = self.after_stat(&c);
        }
        s.combat = Some(c);
    }

    fn round_over(&self, s: &mut State, mut c: Combat) {
        c.rounds += 1;
        let attackers = self.on_cell(s, c.fighter, c.cell).count();
        let defenders = if c.foe == NONE {
            self.on_cell(s, c.opp, c.cell).count()
        } else {
            1
        };
        if attackers == 0 || defenders == 0 || c.rounds >= self.max_combat_rounds {
            // A side with nobody left lost; the other side, if still there, won.
            // A monster or trap is not a seat: only its fighter is counted.
            let sides = [(c.fighter, attackers), (c.opp, defenders)];
            for (i, &(seat, left)) in sides.iter().enumerate() {
                let other = sides[1 - i].1;
                if seat == NONE {
                    continue;
                }
                if left == 0 {
                    bump(&mut s.tally.lost, seat);
                } else if other == 0 {
                    bump(&mut s.tally.won, seat);
                }
            }
            self.end_fight(s, c);
            return;
        }
        c.stage = Stage::Decide;
        s.combat = Some(c);
    }

    fn end_fight(&self, s: &mut State, c: Combat) {
        if c.foe != NONE {
            s.ctrl_ptr = (c.controller + 1) % self.players;
        }
        s.combat = None;
        if c.ambush {
            self.next_monster_actor(s);
        } else {
            self.enter_combat(s);
        }
    }
}

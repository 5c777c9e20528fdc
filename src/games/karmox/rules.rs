//! Turn structure (spec 3, 4.2, 4.3, 4.13): setup, the event phase, the action
//! phase with the no-repeat rule, items, teleport, portal, prison, end of turn;
//! plus who acts, the legal actions and the chance outcomes of every node.

use crate::game::{Rules, Turn};
use crate::rng::{GameRng, below};

use super::data::{Effect, Kind, colour_of};
use super::movement::MAX_STEPS;
use super::state::{Action, After, Combat, Loc, Phase, State, act, bump, ev};
use super::{Actions, Karmox};

/// Probability of a 2d6 total.
pub fn p2d6(total: u8) -> f64 {
    f64::from(6 - (i32::from(total) - 7).abs()) / 36.0
}

/// Per character: sheet tiles by [`Kind`], and the active slot tile (`u8::MAX` if none).
struct Holdings {
    kinds: [[u8; 6]; 6],
    slot: [u8; 6],
}

impl Karmox {
    // ----- tiles and statistics (spec 2.3.3) -----

    /// Tiles on a character's sheet, in tile order.
    pub fn sheet<'a>(&'a self, s: &'a State, ch: usize) -> impl Iterator<Item = usize> + 'a {
        (0..self.c.tiles.len()).filter(move |&t| s.tiles[t] == Loc::Sheet(ch as u8))
    }

    /// Number of tiles of `kind` on a sheet.
    pub fn count_kind(&self, s: &State, ch: usize, kind: Kind) -> usize {
        self.sheet(s, ch)
            .filter(|&t| self.c.tiles[t].kind == kind)
            .count()
    }

    /// The active tile in a cell slot.
    pub fn slot(&self, s: &State, cell: usize) -> Option<usize> {
        (0..self.c.tiles.len()).find(|&t| s.tiles[t] == Loc::Slot(cell as u8))
    }

    fn ring_bonus(&self, s: &State, ch: usize, stat: u8) -> i16 {
        self.sheet(s, ch)
            .filter(|&t| self.c.tiles[t].kind == Kind::Ring && self.c.tiles[t].ring_stat == stat)
            .count() as i16
            * 2
    }

    pub(super) fn stat(&self, s: &State, ch: usize, stat: u8) -> i16 {
        i16::from(self.c.kinds[ch / 2].base[stat as usize])
            + i16::from(s.ch[ch].abil[stat as usize])
            + self.ring_bonus(s, ch, stat)
    }

    /// ATT_eff: the turn modifier counts on the owner's own turn only.
    pub fn att_eff(&self, s: &State, ch: usize) -> i16 {
        let m = if self.char_seat[ch] == s.seat {
            i16::from(s.att_mod)
        } else {
            0
        };
        self.stat(s, ch, 0) + m
    }

    /// DEF_eff, including the owner's lasting DEF modifier.
    pub fn def_eff(&self, s: &State, ch: usize) -> i16 {
        self.stat(s, ch, 1) + i16::from(s.def_mod[self.char_seat[ch] as usize])
    }

    /// MOVE_ALLOWANCE: at least 1, forzieri −1 each.
    pub fn allowance(&self, s: &State, ch: usize) -> u8 {
        let m = if self.char_seat[ch] == s.seat {
            i16::from(s.mov_mod)
        } else {
            0
        };
        // One pass for the forzieri and the MOV rings (`stat` counts the rings too).
        let (mut forz, mut rings) = (0i16, 0i16);
        for (loc, tile) in s.tiles.iter().zip(&self.c.tiles) {
            if *loc == Loc::Sheet(ch as u8) {
                match tile.kind {
                    Kind::Forziere => forz += 1,
                    Kind::Ring if tile.ring_stat == 2 => rings += 1,
                    _ => {}
                }
            }
        }
        let mov = i16::from(self.c.kinds[ch / 2].base[2]) + i16::from(s.ch[ch].abil[2]) + rings * 2;
        (mov + m - forz).clamp(1, i16::from(MAX_STEPS)) as u8
    }

    /// Non-permanent XP carried (scrolls and forzieri).
    pub fn xp_items(&self, s: &State, ch: usize) -> usize {
        self.sheet(s, ch)
            .filter(|&t| matches!(self.c.tiles[t].kind, Kind::Scroll | Kind::Forziere))
            .count()
    }

    /// Gives tile `t` to `ch`; a received ring sends the old ring to the supply (A18).
    pub fn receive(&self, s: &mut State, ch: usize, t: usize) {
        if self.c.tiles[t].kind == Kind::Ring {
            for o in 0..self.c.tiles.len() {
                if o != t
                    && s.tiles[o] == Loc::Sheet(ch as u8)
                    && self.c.tiles[o].kind == Kind::Ring
                {
                    s.tiles[o] = Loc::Supply;
                }
            }
        }
        s.tiles[t] = Loc::Sheet(ch as u8);
    }

    /// The portal condition of spec 4.12 for character `ch` (position aside).
    pub fn portal_xp_ok(&self, s: &State, ch: usize) -> bool {
        let side = self.side_of_char(ch);
        let xp = s.xp[side as usize];
        xp >= 10
            || (xp == 9
                && self.xp_items(s, ch) >= 1
                && self.side_chars(side).all(|c| self.xp_items(s, c) >= 1))
    }

    fn own_on_board(&self, s: &State) -> impl Iterator<Item = usize> + '_ {
        let seat = s.seat;
        let chs = s.ch;
        (0..6).filter(move |&c| self.char_seat[c] == seat && chs[c].on_board())
    }

    // ----- setup (spec 3) -----

    /// The state before the first decision: pawns on their fronts, full supply,
    /// every card in the unknown deck, first S1 decision pending.
    pub fn setup_state(&self) -> State {
        let mut s = State::default();
        for c in 0..6 {
            if self.char_seat[c] != 255 {
                let ch = &mut s.ch[c];
                ch.in_play = true;
                ch.seat = self.char_seat[c];
                ch.side = self.side_of_char(c);
                ch.pos = self.c.board.front[c];
                ch.life = 5;
            }
        }
        s.deck_unknown = if self.c.missions.len() >= 32 {
            u32::MAX
        } else {
            (1u32 << self.c.missions.len()) - 1
        };
        s.setup = true;
        let first = (0..6).find(|&c| s.ch[c].in_play).unwrap_or(0);
        s.phase = Phase::SetupStat(first as u8);
        s
    }

    fn setup_deal_next(&self, s: &mut State) {
        for side in 0..self.n_sides as u8 {
            let want = self.side_chars(side).count();
            let have = s.piles[side as usize].len();
            if have < want {
                s.draw_side = side;
                s.draws_left = (want - have) as u8;
                self.continue_draws(s);
                return;
            }
        }
        match self.first {
            Some(f) => self.begin(s, f),
            None => s.phase = Phase::FirstPlayer,
        }
    }

    fn begin(&self, s: &mut State, first: u8) {
        s.setup = false;
        s.first = first;
        self.start_turn(s, first);
    }

    /// Draws due cards: known cards at the deck top are drawn directly, an
    /// unknown top is a chance node.
    pub fn continue_draws(&self, s: &mut State) {
        while s.draws_left > 0 && s.deck_unknown == 0 && !s.deck_known.is_empty() {
            let card = s.deck_known.remove(0);
            s.piles[s.draw_side as usize].push(super::state::Card {
                id: card,
                public: true,
            });
            s.draws_left -= 1;
        }
        if s.draws_left > 0 && s.deck_unknown != 0 {
            s.phase = Phase::Drawing;
            return;
        }
        s.draws_left = 0;
        if s.setup {
            self.setup_deal_next(s);
        } else {
            s.phase = Phase::Action;
        }
    }

    // ----- event phase (spec 4.2) -----

    /// EP0: per-turn resets.
    pub fn start_turn(&self, s: &mut State, seat: u8) {
        s.seat = seat;
        s.def_mod[seat as usize] = 0;
        s.actions_left = 2;
        s.att_mod = 0;
        s.mov_mod = 0;
        s.adr_bonus = 0;
        s.liberation = false;
        s.events = 0;
        for (c, ch) in s.ch.iter_mut().enumerate() {
            ch.used = 0;
            if ch.in_play && ch.seat == seat && ch.prison > 0 {
                bump(&mut s.tally.prison_turns[c]);
            }
        }
        s.phase = Phase::EventDie;
    }

    /// Cells holding prisoners of the active seat.
    fn own_prison_cells(&self, s: &State) -> u8 {
        let mut cells = 0u8;
        for c in 0..6 {
            if self.char_seat[c] == s.seat && s.ch[c].in_play && s.ch[c].prison > 0 {
                cells |= 1 << s.ch[c].prison_cell;
            }
        }
        cells
    }

    /// Releases `ch` from prison with `life` (4.10.3 placement).
    pub fn release(&self, s: &mut State, ch: usize, life: u8) {
        let cell = s.ch[ch].prison_cell as usize;
        let sq = self.release_square(s, ch, cell);
        let c = &mut s.ch[ch];
        c.prison = 0;
        c.pos = sq;
        c.life = life;
    }

    fn release_own_in_cell(&self, s: &mut State, cell: u8) {
        for c in 0..6 {
            if self.char_seat[c] == s.seat && s.ch[c].prison > 0 && s.ch[c].prison_cell == cell {
                self.release(s, c, 2);
            }
        }
    }

    fn wound_targets(&self, s: &State) -> u8 {
        self.own_on_board(s)
            .filter(|&c| s.ch[c].life >= 2)
            .fold(0, |m, c| m | 1 << c)
    }

    fn heal_targets(&self, s: &State) -> u8 {
        self.own_on_board(s)
            .filter(|&c| s.ch[c].life < 5)
            .fold(0, |m, c| m | 1 << c)
    }

    fn free_step_movers(&self, s: &State) -> u8 {
        self.own_on_board(s)
            .filter(|&c| self.can_move(s, c, 2))
            .fold(0, |m, c| m | 1 << c)
    }

    fn supply_skeletor(&self, s: &State, colour: u8) -> Option<usize> {
        (0..self.c.tiles.len()).find(|&t| {
            self.c.tiles[t].kind == Kind::Skeletor
                && self.c.tiles[t].colour == colour
                && s.tiles[t] == Loc::Supply
        })
    }

    fn event_die(&self, s: &mut State, d: u8) {
        let k = self.skittle_of(s.seat as usize);
        s.skittle[k] = ((s.skittle[k] as usize + d as usize) % self.c.events.len()) as u8;
        s.square = s.skittle[k];
        match self.c.events[s.square as usize].effect {
            Effect::Unlock => {
                if self.teams() {
                    s.liberation = true;
                }
                let cells = self.own_prison_cells(s);
                if cells.count_ones() > 1 {
                    s.phase = Phase::Unlock;
                    return;
                }
                if cells != 0 {
                    self.release_own_in_cell(s, cells.trailing_zeros() as u8);
                }
            }
            Effect::MovPlus2 => s.mov_mod = 2,
            Effect::MovMinus1 => s.mov_mod = -1,
            Effect::AttPlus2 => s.att_mod = 2,
            Effect::AttMinus2 => s.att_mod = -2,
            Effect::DefPlus2 => s.def_mod[s.seat as usize] = 2,
            Effect::DefMinus2 => s.def_mod[s.seat as usize] = -2,
            Effect::ActionsPlus1 => s.actions_left = 3,
            Effect::ActionsMinus1 => s.actions_left = 1,
            Effect::AdrenalinePlus2 => s.adr_bonus = 2,
            Effect::None => {}
            Effect::Wound => {
                let t = self.wound_targets(s);
                if t.count_ones() > 1 {
                    s.phase = Phase::Wound;
                    return;
                }
                if t != 0 {
                    s.ch[t.trailing_zeros() as usize].life -= 1;
                }
            }
            Effect::Heal => {
                let t = self.heal_targets(s);
                if t.count_ones() > 1 {
                    s.phase = Phase::Heal;
                    return;
                }
                if t != 0 {
                    s.ch[t.trailing_zeros() as usize].life += 1;
                }
            }
            Effect::FreeStep => {
                if self.free_step_movers(s) != 0 {
                    s.phase = Phase::FreeStep;
                    return;
                }
            }
            Effect::Summon(colour) => {
                if self.supply_skeletor(s, colour).is_some() && !self.legal_anchors(s).is_empty() {
                    s.phase = Phase::Summon(colour);
                    return;
                }
            }
        }
        self.to_ep4(s);
    }

    fn activation_kind(&self, s: &State) -> Option<Kind> {
        let kind = self.c.events[s.square as usize].picture?;
        (0..self.c.tiles.len())
            .any(|t| self.c.tile_kind[t] == kind && s.tiles[t] == Loc::Supply)
            .then_some(kind)
    }

    /// EP4: offer activation when a tile of the pictured kind is in the supply.
    pub fn to_ep4(&self, s: &mut State) {
        if self.activation_kind(s).is_some() {
            s.phase = Phase::Activate;
        } else {
            self.ep5(s);
        }
    }

    /// EP5: prison upkeep, then the checkpoint.
    fn ep5(&self, s: &mut State) {
        for c in 0..6 {
            if self.char_seat[c] == s.seat && s.ch[c].in_play && s.ch[c].prison > 0 {
                if s.ch[c].prison >= 5 {
                    self.release(s, c, 1);
                } else {
                    s.ch[c].prison += 1;
                }
            }
        }
        self.checkpoint(s);
    }

    /// After an action and its aftermath: checkpoint, then the action phase.
    pub fn action_done(&self, s: &mut State) {
        self.checkpoint(s);
    }

    /// 4.13: cleanup, next seat, round counter and the turn cap.
    fn end_turn(&self, s: &mut State) {
        s.att_mod = 0;
        s.mov_mod = 0;
        s.adr_bonus = 0;
        s.liberation = false;
        let next = ((s.seat as usize + 1) % self.n) as u8;
        if next == s.first {
            s.round += 1;
            if s.round > self.max_rounds {
                s.result = super::state::DRAW;
                s.phase = Phase::Over;
                return;
            }
        }
        self.start_turn(s, next);
    }

    // ----- who acts, legal actions -----

    /// Who acts in a state.
    pub fn turn_of(&self, s: &State) -> Turn {
        match s.phase {
            Phase::Over => Turn::Terminal,
            Phase::Drawing
            | Phase::FirstPlayer
            | Phase::EventDie
            | Phase::CombatRoll
            | Phase::SkelTest => Turn::Chance,
            Phase::SetupStat(c) => Turn::Player(self.char_seat[c as usize]),
            Phase::DefPush | Phase::DefMove => Turn::Player(self.char_seat[s.combat.def as usize]),
            _ => Turn::Player(s.seat),
        }
    }

    fn give_partners(&self, s: &State, c: usize) -> impl Iterator<Item = usize> + '_ {
        let chs = s.ch;
        let side = self.side_of_char(c);
        (0..6).filter(move |&p| {
            p != c
                && chs[p].on_board()
                && self.side_of_char(p) == side
                && self.c.board.adjacent(chs[c].pos, chs[p].pos)
        })
    }

    fn teleport_ok(&self, s: &State, c: usize, to: u16) -> bool {
        to != s.ch[c].pos
            && self.occupant(s, to).is_none()
            && self.guard_at(s, to, colour_of(c)).is_none()
    }

    fn liberate_ok(&self, s: &State, cell: usize) -> bool {
        let side = self.seat_side[s.seat as usize];
        let front = self.c.board.front[cell];
        let teammate_prisoner = (0..6).any(|c| {
            s.ch[c].in_play
                && s.ch[c].prison > 0
                && s.ch[c].prison_cell as usize == cell
                && self.char_seat[c] != s.seat
                && self.side_of_char(c) == side
        });
        teammate_prisoner && self.own_on_board(s).any(|c| s.ch[c].pos == front)
    }

    /// Appends the legal actions to `out` (none at chance and terminal nodes).
    pub fn legal_into(&self, s: &State, out: &mut Actions) {
        match s.phase {
            Phase::SetupStat(_) | Phase::LevelUp => {
                let ch = match s.phase {
                    Phase::SetupStat(c) => c as usize,
                    _ => s.combat.att as usize,
                };
                for k in 0..3 {
                    if s.ch[ch].abil[k] < 3 {
                        out.push(Action::Stat(k as u8));
                    }
                }
            }
            Phase::Unlock => {
                let cells = self.own_prison_cells(s);
                for cell in 0..6 {
                    if cells & (1 << cell) != 0 {
                        out.push(Action::Cell(cell));
                    }
                }
            }
            Phase::Wound | Phase::Heal => {
                let t = if s.phase == Phase::Wound {
                    self.wound_targets(s)
                } else {
                    self.heal_targets(s)
                };
                for c in 0..6 {
                    if t & (1 << c) != 0 {
                        out.push(Action::Char(c));
                    }
                }
            }
            Phase::FreeStep => {
                out.push(Action::Pass);
                let m = self.free_step_movers(s);
                for c in 0..6 {
                    if m & (1 << c) != 0 {
                        out.push(Action::Char(c));
                    }
                }
            }
            Phase::FreeStepDest(c) => {
                self.each_destination(s, c as usize, 2, |d| out.push(Action::Dest(d)));
            }
            Phase::Summon(_) => {
                out.push(Action::Pass);
                for &a in &self.legal_anchors(s) {
                    out.push(Action::Anchor(a));
                }
            }
            Phase::Activate => {
                out.push(Action::Pass);
                if let Some(kind) = self.activation_kind(s) {
                    for t in 0..self.c.tiles.len() {
                        if self.c.tile_kind[t] == kind && s.tiles[t] == Loc::Supply {
                            for cell in self.seat_chars(s.seat as usize) {
                                out.push(Action::Activate {
                                    tile: t as u8,
                                    cell: cell as u8,
                                });
                            }
                        }
                    }
                }
            }
            Phase::Action => self.legal_main(s, out),
            Phase::MoveDest(c) => {
                self.each_destination(s, c as usize, self.allowance(s, c as usize), |d| {
                    out.push(Action::Dest(d))
                });
            }
            Phase::GiveSel { c, p } => {
                if self.sheet(s, p as usize).next().is_some() {
                    out.push(Action::Pass);
                }
                for t in self.sheet(s, c as usize) {
                    out.push(Action::Tile(t as u8));
                }
            }
            Phase::TakeSel { p, give, .. } => {
                if give != 255 {
                    out.push(Action::Pass);
                }
                for t in self.sheet(s, p as usize) {
                    out.push(Action::Tile(t as u8));
                }
            }
            Phase::PlayPair { c, stat, first } => {
                let kind = if stat.is_some() {
                    Kind::Tome
                } else {
                    Kind::Potion
                };
                // Canonical order: the first tile is any but the last of the
                // kind, the second any later one.
                let last = (0..self.c.tiles.len())
                    .rev()
                    .find(|&t| s.tiles[t] == Loc::Sheet(c) && self.c.tile_kind[t] == kind);
                for t in self.sheet(s, c as usize) {
                    let later = match first {
                        None => Some(t) != last,
                        Some(f) => t > f as usize,
                    };
                    if self.c.tile_kind[t] == kind && later {
                        out.push(Action::Tile(t as u8));
                    }
                }
            }
            Phase::Steal => {
                out.push(Action::Pass);
                for t in self.sheet(s, s.combat.def as usize) {
                    if self.c.tiles[t].cost <= s.combat.adr {
                        out.push(Action::Tile(t as u8));
                    }
                }
            }
            Phase::Push | Phase::DefPush => {
                for p in 0..=self.push_limit(s) {
                    out.push(Action::Push(p));
                }
            }
            Phase::SelfMove | Phase::DefMove => {
                out.push(Action::Pass);
                let mover = if s.phase == Phase::SelfMove {
                    s.combat.att
                } else {
                    s.combat.def
                };
                self.each_destination(s, mover as usize, s.combat.adr, |d| {
                    out.push(Action::Dest(d))
                });
            }
            Phase::Drawing
            | Phase::FirstPlayer
            | Phase::EventDie
            | Phase::CombatRoll
            | Phase::SkelTest
            | Phase::Over => {}
        }
    }

    /// Sheet counts by kind and slot tiles of every character, in one pass.
    fn holdings(&self, s: &State) -> Holdings {
        let mut h = Holdings {
            kinds: [[0; 6]; 6],
            slot: [u8::MAX; 6],
        };
        for (t, (loc, &kind)) in s.tiles.iter().zip(&self.c.tile_kind).enumerate() {
            match *loc {
                Loc::Sheet(c) => {
                    if let Some(k) = h.kinds.get_mut(c as usize) {
                        k[kind as usize] += 1;
                    }
                }
                Loc::Slot(c) => {
                    if let Some(x) = h.slot.get_mut(c as usize)
                        && *x == u8::MAX
                    {
                        *x = t as u8;
                    }
                }
                _ => {}
            }
        }
        h
    }

    fn legal_main(&self, s: &State, out: &mut Actions) {
        let b = &self.c.board;
        let h = self.holdings(s);
        let holds = |c: usize| h.kinds[c].iter().any(|&n| n > 0);
        let open = self.open(s);
        for c in self.own_on_board(s) {
            let ch = &s.ch[c];
            let cu = c as u8;
            let kinds = &h.kinds[c];
            if s.actions_left > 0 {
                // The allowance is at least 1, so a free neighbour is enough.
                if ch.used & act::MOVE == 0 && self.can_step(&open, ch.pos) {
                    out.push(Action::Move(cu));
                }
                if ch.used & act::EQUIP == 0
                    && h.slot[c] != u8::MAX
                    && b.icon_at[ch.pos as usize] == self.c.tiles[h.slot[c] as usize].icon
                {
                    out.push(Action::Equip(cu));
                }
                if ch.used & act::GIVE == 0 {
                    for p in self.give_partners(s, c) {
                        if holds(c) || holds(p) {
                            out.push(Action::Give { c: cu, p: p as u8 });
                        }
                    }
                }
                if ch.used & act::ATTACK == 0 {
                    for d in 0..6 {
                        if s.ch[d].on_board()
                            && self.side_of_char(d) != self.side_of_char(c)
                            && b.adjacent(ch.pos, s.ch[d].pos)
                        {
                            out.push(Action::Attack { c: cu, d: d as u8 });
                        }
                    }
                }
                if ch.used & act::TELEPORT == 0
                    && b.teleports.contains(&ch.pos)
                    && kinds[Kind::Scroll as usize] > 0
                {
                    for &to in &b.teleports {
                        if self.teleport_ok(s, c, to) {
                            out.push(Action::Teleport { c: cu, to });
                        }
                    }
                }
                if ch.used & act::PORTAL == 0
                    && b.access.contains(&ch.pos)
                    && self.portal_xp_ok(s, c)
                {
                    out.push(Action::Portal(cu));
                }
            }
            if kinds[Kind::Potion as usize] >= 2 && ch.life < 5 {
                out.push(Action::Potions(cu));
            }
            if kinds[Kind::Tome as usize] >= 2 {
                for k in 0..3u8 {
                    if ch.abil[k as usize] < 3 {
                        out.push(Action::Tomes { c: cu, stat: k });
                    }
                }
            }
        }
        if s.liberation {
            for cell in 0..6 {
                if self.liberate_ok(s, cell) {
                    out.push(Action::Liberate(cell as u8));
                }
            }
        }
        out.push(Action::EndTurn);
    }

    // ----- chance -----

    /// Every chance outcome with its exact probability.
    pub fn chances(&self, s: &State) -> Vec<(Action, f64)> {
        match s.phase {
            Phase::Drawing => {
                let n = s.deck_unknown.count_ones() as f64;
                (0..32)
                    .filter(|i| s.deck_unknown & (1 << i) != 0)
                    .map(|i| (Action::Draw(i as u8), 1.0 / n))
                    .collect()
            }
            Phase::FirstPlayer => (0..self.n)
                .map(|p| (Action::First(p as u8), 1.0 / self.n as f64))
                .collect(),
            Phase::EventDie => (1..=6).map(|d| (Action::Die(d), 1.0 / 6.0)).collect(),
            Phase::CombatRoll => {
                let mut v = Vec::with_capacity(121);
                for a in 2..=12 {
                    for d in 2..=12 {
                        v.push((Action::Roll { att: a, def: d }, p2d6(a) * p2d6(d)));
                    }
                }
                v
            }
            Phase::SkelTest => {
                let (pass, fail) = self.c.tiles[self.tested_skeletor(s)].test_odds();
                vec![(Action::Test(true), pass), (Action::Test(false), fail)]
            }
            _ => Vec::new(),
        }
    }

    /// One chance outcome, without allocating.
    pub fn sample(&self, s: &State, rng: &mut GameRng) -> Action {
        let die = |rng: &mut GameRng| below(rng, 6) as u8 + 1;
        match s.phase {
            Phase::Drawing => {
                let k = below(rng, s.deck_unknown.count_ones() as usize);
                let mut seen = 0;
                for i in 0..32 {
                    if s.deck_unknown & (1 << i) != 0 {
                        if seen == k {
                            return Action::Draw(i);
                        }
                        seen += 1;
                    }
                }
                Action::Draw(s.deck_unknown.trailing_zeros() as u8)
            }
            Phase::FirstPlayer => Action::First(below(rng, self.n) as u8),
            Phase::EventDie => Action::Die(die(rng)),
            Phase::CombatRoll => {
                let att = die(rng) + die(rng);
                let def = die(rng) + die(rng);
                Action::Roll { att, def }
            }
            Phase::SkelTest => {
                let faces = self.c.tiles[self.tested_skeletor(s)].test_faces;
                let (a, b) = (die(rng), die(rng));
                Action::Test(faces & (1 << a | 1 << b) != 0)
            }
            _ => Action::Pass,
        }
    }

    // ----- apply -----

    /// Applies a legal action or chance outcome.
    pub fn apply_action(&self, s: &mut State, a: Action) {
        debug_assert!(
            self.turn_of(s) == Turn::Chance || self.legal_actions(s).contains(&a),
            "illegal action {a:?} in phase {:?}",
            s.phase
        );
        match (s.phase, a) {
            (Phase::SetupStat(c), Action::Stat(k)) => {
                s.ch[c as usize].abil[k as usize] += 1;
                match (c as usize + 1..6).find(|&n| s.ch[n].in_play) {
                    Some(n) => s.phase = Phase::SetupStat(n as u8),
                    None => self.setup_deal_next(s),
                }
            }
            (Phase::Drawing, Action::Draw(card)) => {
                s.deck_unknown &= !(1 << card);
                s.piles[s.draw_side as usize].push(super::state::Card {
                    id: card,
                    public: false,
                });
                s.draws_left -= 1;
                self.continue_draws(s);
            }
            (Phase::FirstPlayer, Action::First(p)) => self.begin(s, p),
            (Phase::EventDie, Action::Die(d)) => self.event_die(s, d),
            (Phase::Unlock, Action::Cell(cell)) => {
                self.release_own_in_cell(s, cell);
                self.to_ep4(s);
            }
            (Phase::Wound, Action::Char(c)) => {
                s.ch[c as usize].life -= 1;
                self.to_ep4(s);
            }
            (Phase::Heal, Action::Char(c)) => {
                s.ch[c as usize].life += 1;
                self.to_ep4(s);
            }
            (Phase::FreeStep, Action::Pass) => self.to_ep4(s),
            (Phase::FreeStep, Action::Char(c)) => s.phase = Phase::FreeStepDest(c),
            (Phase::FreeStepDest(c), Action::Dest(d)) => {
                self.start_walk(s, c as usize, d, 2, After::EventPhase)
            }
            (Phase::Summon(_), Action::Pass) => self.to_ep4(s),
            (Phase::Summon(colour), Action::Anchor(anchor)) => {
                if let Some(t) = self.supply_skeletor(s, colour) {
                    s.tiles[t] = Loc::Board(anchor);
                    bump(&mut s.tally.summoned[s.seat as usize]);
                }
                self.to_ep4(s);
            }
            (Phase::Activate, Action::Pass) => self.ep5(s),
            (Phase::Activate, Action::Activate { tile, cell }) => {
                if let Some(old) = self.slot(s, cell as usize) {
                    s.tiles[old] = Loc::Supply;
                }
                s.tiles[tile as usize] = Loc::Slot(cell);
                self.ep5(s);
            }
            (Phase::Action, a) => self.apply_main(s, a),
            (Phase::MoveDest(c), Action::Dest(d)) => {
                let lim = self.allowance(s, c as usize);
                self.start_walk(s, c as usize, d, lim, After::ActionDone)
            }
            (Phase::GiveSel { c, p }, Action::Tile(t)) => {
                s.phase = Phase::TakeSel { c, p, give: t }
            }
            (Phase::GiveSel { c, p }, Action::Pass) => s.phase = Phase::TakeSel { c, p, give: 255 },
            (Phase::TakeSel { c, p, give }, take) => {
                let take = match take {
                    Action::Tile(t) => Some(t as usize),
                    _ => None,
                };
                let give = (give != 255).then_some(give as usize);
                if let Some(g) = give {
                    s.tiles[g] = Loc::Sheet(p);
                }
                if let Some(t) = take {
                    s.tiles[t] = Loc::Sheet(c);
                }
                // Ring rule after the simultaneous swap.
                if let Some(g) = give {
                    self.receive(s, p as usize, g);
                }
                if let Some(t) = take {
                    self.receive(s, c as usize, t);
                }
                self.action_done(s);
            }
            (Phase::CombatRoll, Action::Roll { att, def }) => self.combat_roll(s, att, def),
            (Phase::LevelUp, Action::Stat(k)) => {
                s.ch[s.combat.att as usize].abil[k as usize] += 1;
                s.events |= ev::LEVEL_UP;
                self.after_level(s);
            }
            (
                Phase::PlayPair {
                    c,
                    stat,
                    first: None,
                },
                Action::Tile(t),
            ) => {
                s.phase = Phase::PlayPair {
                    c,
                    stat,
                    first: Some(t),
                }
            }
            (
                Phase::PlayPair {
                    c,
                    stat,
                    first: Some(f),
                },
                Action::Tile(t),
            ) => self.play_pair(s, c, stat, [f as usize, t as usize]),
            (Phase::Steal, a) => self.steal(s, a),
            (Phase::Push, Action::Push(p)) => self.attacker_push(s, p),
            (Phase::DefPush, Action::Push(p)) => self.defender_push(s, p),
            (Phase::SelfMove | Phase::DefMove, Action::Pass) => self.action_done(s),
            (Phase::SelfMove, Action::Dest(d)) => {
                let lim = s.combat.adr;
                self.start_walk(s, s.combat.att as usize, d, lim, After::ActionDone)
            }
            (Phase::DefMove, Action::Dest(d)) => {
                let lim = s.combat.adr;
                self.start_walk(s, s.combat.def as usize, d, lim, After::ActionDone)
            }
            (Phase::SkelTest, Action::Test(pass)) => self.skeletor_test(s, pass),
            (phase, a) => debug_assert!(false, "action {a:?} does not fit phase {phase:?}"),
        }
    }

    fn spend(&self, s: &mut State, c: u8, kind: u8) {
        s.ch[c as usize].used |= kind;
        s.actions_left -= 1;
    }

    /// PLAY_POTIONS / PLAY_TOMES: with exactly two halves they are played at
    /// once; with more, the owner chooses which two (`Phase::PlayPair`).
    fn start_pair(&self, s: &mut State, c: u8, stat: Option<u8>) {
        let kind = if stat.is_some() {
            Kind::Tome
        } else {
            Kind::Potion
        };
        let halves = {
            let mut it = self
                .sheet(s, c as usize)
                .filter(|&t| self.c.tiles[t].kind == kind);
            (it.next(), it.next(), it.next())
        };
        match halves {
            (Some(a), Some(b), None) => self.play_pair(s, c, stat, [a, b]),
            _ => {
                s.phase = Phase::PlayPair {
                    c,
                    stat,
                    first: None,
                }
            }
        }
    }

    /// Returns the two chosen halves to the supply and applies the pair's effect.
    fn play_pair(&self, s: &mut State, c: u8, stat: Option<u8>, pair: [usize; 2]) {
        for t in pair {
            s.tiles[t] = Loc::Supply;
        }
        let ch = &mut s.ch[c as usize];
        match stat {
            None => {
                ch.life = (ch.life + 1).min(5);
                s.events |= ev::POTIONS;
            }
            Some(k) => {
                ch.abil[k as usize] += 1;
                s.events |= ev::TOMES;
            }
        }
        self.checkpoint(s);
    }

    fn apply_main(&self, s: &mut State, a: Action) {
        match a {
            Action::Move(c) => {
                self.spend(s, c, act::MOVE);
                s.phase = Phase::MoveDest(c);
            }
            Action::Equip(c) => {
                self.spend(s, c, act::EQUIP);
                if let Some(t) = self.slot(s, c as usize) {
                    self.receive(s, c as usize, t);
                    bump(&mut s.tally.equipped[c as usize]);
                    if self.c.tiles[t].kind == Kind::Ring {
                        s.events |= ev::EQUIP_RING;
                    }
                }
                self.action_done(s);
            }
            Action::Give { c, p } => {
                self.spend(s, c, act::GIVE);
                s.phase = Phase::GiveSel { c, p };
            }
            Action::Attack { c, d } => {
                self.spend(s, c, act::ATTACK);
                bump(&mut s.tally.attacks[c as usize]);
                s.combat = Combat {
                    att: c,
                    def: d,
                    adr: 0,
                    rerolls: 0,
                };
                s.phase = Phase::CombatRoll;
            }
            Action::Teleport { c, to } => {
                self.spend(s, c, act::TELEPORT);
                s.ch[c as usize].pos = to;
                s.events |= ev::TELEPORT;
                self.action_done(s);
            }
            Action::Portal(c) => {
                self.spend(s, c, act::PORTAL);
                s.result = self.side_of_char(c as usize);
                s.phase = Phase::Over;
            }
            Action::Potions(c) => self.start_pair(s, c, None),
            Action::Tomes { c, stat } => self.start_pair(s, c, Some(stat)),
            Action::Liberate(cell) => {
                let side = self.seat_side[s.seat as usize];
                for c in 0..6 {
                    if s.ch[c].in_play
                        && s.ch[c].prison > 0
                        && s.ch[c].prison_cell == cell
                        && self.side_of_char(c) == side
                    {
                        self.release(s, c, 2);
                    }
                }
                self.checkpoint(s);
            }
            Action::EndTurn => self.end_turn(s),
            other => debug_assert!(false, "not an action-phase action: {other:?}"),
        }
    }
}

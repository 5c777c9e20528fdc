//! Turn flow: setup, draw, trade, movement, placement, equipment, end of
//! turn and round, the rule-2 monster phase (spec §3, §4).

use arrayvec::ArrayVec;

use super::Hamunaptra;
use super::board::{CellSet, Slots};
use super::data::KindClass;
use super::state::{
    Action, Cell, Ch, Foe, Known, NCELLS, NO_CELL, NONE, Phase, Pl, State, Tally, bump, cell_of, xy,
};
use super::{Actions, MAX_ACTIONS};

/// Binomial probability of `k` successes in `n` trials of probability `p`.
pub fn binom(n: u8, k: u8, p: f64) -> f64 {
    let mut c = 1.0;
    for i in 0..k {
        c = c * f64::from(n - i) / f64::from(i + 1);
    }
    c * p.powi(i32::from(k)) * (1.0 - p).powi(i32::from(n - k))
}

/// Success chance of one d4 against target `v` (spec §2.10).
pub fn p_success(v: u8) -> f64 {
    f64::from(5u8.saturating_sub(v.max(1))) / 4.0
}

/// Calls `f` for each success count of `n` dice against `v` with its probability.
pub fn for_dice(n: u8, v: u8, mut f: impl FnMut(Action, f64)) {
    let p = p_success(v);
    for k in 0..=n {
        let q = binom(n, k, p);
        if q > 0.0 {
            f(Action::Roll(k), q);
        }
    }
}

fn insert_sorted<const N: usize>(v: &mut ArrayVec<u8, N>, x: u8) {
    let i = v.iter().position(|&y| y > x).unwrap_or(v.len());
    v.insert(i, x);
}

fn remove_one<const N: usize>(v: &mut ArrayVec<u8, N>, x: u8) {
    if let Some(i) = v.iter().position(|&y| y == x) {
        v.remove(i);
    }
}

impl Hamunaptra {
    /// The state before the first-player roll, with the start tiles laid.
    pub fn new_state(&self) -> State {
        let mut cells = [Cell::default(); NCELLS];
        for &(t, c, r) in &self.layout {
            cells[c as usize].tile = t + 1;
            cells[c as usize].rot = r;
        }
        let mut pile = [0u8; 64];
        for (k, &n) in self.comps.kind_count.iter().enumerate() {
            pile[k] = n;
        }
        let pile_len = pile.iter().map(|&x| u16::from(x)).sum();
        let players: [Pl; 4] = Default::default();
        State {
            cells,
            chars: [Ch::default(); 16],
            foes: [Foe::default(); 16],
            players,
            pile,
            pile_len,
            gone: [0; 64],
            phase: Phase::FirstRoll,
            seat: 0,
            first: 0,
            round: 0,
            final_round: false,
            ctrl_ptr: 0,
            placed: 0,
            enc_placed: 0,
            foreign: 0,
            equip_played: 0,
            asked: 0,
            sel_card: NONE,
            sel_cell: NO_CELL,
            offer: None,
            trade_to: NONE,
            give: ArrayVec::new(),
            back: ArrayVec::new(),
            ask: NONE,
            placed_round: false,
            pile_was_empty: false,
            roll_tied: (1u8 << self.players) - 1,
            roll_fours: [0; 4],
            roll_done: 0,
            picks: 0,
            combat: None,
            fought: ArrayVec::new(),
            mon_actor: 0,
            mon_passes: 0,
            mon_foe: NONE,
            stairs: ArrayVec::new(),
            ot: None,
            ot_group: 0,
            ot_next: 0,
            dice_rolled: 0,
            dice_succ: 0,
            tally: Tally::default(),
            known: Known::default(),
        }
    }

    /// Seat that rolls next in the first-player roll.
    fn next_roller(&self, s: &State) -> u8 {
        (0..self.players)
            .find(|&p| s.roll_tied >> p & 1 == 1 && s.roll_done >> p & 1 == 0)
            .unwrap_or(0)
    }

    /// The current dice roll as (dice, target), if the node is a roll.
    pub fn roll_spec(&self, s: &State) -> Option<(u8, u8)> {
        match s.phase {
            Phase::FirstRoll => Some((4, 4)),
            Phase::Fight => self.fight_roll(s),
            _ => None,
        }
    }

    /// Chance outcomes of the current chance node.
    pub fn for_chance(&self, s: &State, mut f: impl FnMut(Action, f64)) {
        if let Some((n, v)) = self.roll_spec(s) {
            if self.each_die && n > 0 {
                for face in 1..=4 {
                    f(Action::Die(face), 0.25);
                }
            } else {
                for_dice(n, v, f);
            }
            return;
        }
        match s.phase {
            Phase::Draw => {
                let total = f64::from(s.pile_len);
                for k in 0..self.comps.kinds() {
                    if s.pile[k] > 0 {
                        f(Action::Draw(k as u8), f64::from(s.pile[k]) / total);
                    }
                }
            }
            Phase::Penalty => {
                let hand = &s.players[s.seat as usize].hand;
                let total = hand.len() as f64;
                let mut prev = NONE;
                for &k in hand {
                    if k != prev {
                        let n = hand.iter().filter(|&&x| x == k).count();
                        f(Action::Lose(k), n as f64 / total);
                        prev = k;
                    }
                }
            }
            _ => {}
        }
    }

    /// Fills `out` with the legal actions.
    pub fn legal_into(&self, s: &State, out: &mut Actions) {
        match s.phase {
            Phase::FirstRoll | Phase::Draw | Phase::Penalty | Phase::Over => {}
            Phase::Draft => {
                for (c, ch) in s.chars.iter().enumerate().take(self.comps.chars.len()) {
                    if ch.owner == NONE {
                        out.push(Action::Draft(c as u8));
                    }
                }
            }
            Phase::Entrance => {
                for (i, &e) in self.entrances.iter().enumerate() {
                    if !s.players.iter().any(|p| p.entrance == e) {
                        out.push(Action::Entrance(i as u8));
                    }
                }
            }
            Phase::Trade => self.trade_actions(s, out),
            Phase::TradeBuild => self.trade_build_actions(s, out),
            Phase::TradeReply => self.trade_reply_actions(s, out),
            Phase::TradeDiscard => self.discard_actions(s, out),
            Phase::Move => self.move_actions(s, out),
            Phase::OvertakeGroup => {
                out.push(Action::Join(true));
                out.push(Action::Join(false));
            }
            Phase::Place => self.place_actions(s, out),
            Phase::PlaceCell => self.place_cell_actions(s, out),
            Phase::PlaceRot => self.rotation_actions(s, out),
            Phase::Site => {
                self.for_sites(s, |c| out.push(Action::Site(c)));
            }
            Phase::Fight => self.fight_actions(s, out),
            Phase::Equip => self.equip_actions(s, out),
            Phase::Monsters => self.monster_actions(s, out),
            Phase::MonsterStep2 => {
                let f = s.mon_foe;
                let from = s.foes[f as usize].cell;
                self.for_monster_dest(s, f, from, |to| {
                    out.push(Action::MonsterStep { foe: f, to })
                });
                out.push(Action::MonsterStop);
            }
        }
        debug_assert!(out.len() <= MAX_ACTIONS);
    }

    /// Opening a trade with a seat (general trades) or offering it one card.
    fn trade_actions(&self, s: &State, out: &mut Actions) {
        let hand = &s.players[s.seat as usize].hand;
        let mut comp = None;
        for q in 0..self.players {
            if self.trade == 2 && self.can_trade_cached(s, q, &mut comp) {
                out.push(Action::OpenTrade(q));
            } else if self.can_trade_cached(s, q, &mut comp) {
                let mut prev = NONE;
                for &k in hand {
                    if k != prev {
                        out.push(Action::Propose { to: q, card: k });
                        prev = k;
                    }
                }
            }
        }
        out.push(Action::EndTrade);
    }

    /// Building an open trade: a card to give, or how many to ask back.
    fn trade_build_actions(&self, s: &State, out: &mut Actions) {
        let mut prev = NONE;
        for &k in &s.players[s.seat as usize].hand {
            if k != prev {
                out.push(Action::Give(k));
                prev = k;
            }
        }
        let most = s.players[s.trade_to as usize].hand.len() as u8;
        let least = u8::from(s.give.is_empty());
        for n in least..=most {
            out.push(Action::Ask(n));
        }
    }

    /// The asked seat's reply: a card back (or agreeing), or rejecting.
    fn trade_reply_actions(&self, s: &State, out: &mut Actions) {
        let q = s.trade_to;
        if s.offer.is_some() || s.back.len() < usize::from(s.ask) {
            let mut prev = NONE;
            for &k in &s.players[q as usize].hand {
                if k != prev {
                    out.push(Action::Accept(k));
                    prev = k;
                }
            }
        } else {
            out.push(Action::Agree);
        }
        out.push(Action::Reject);
    }

    /// A card to discard down to the hand limit.
    fn discard_actions(&self, s: &State, out: &mut Actions) {
        let p = self.discarder(s);
        let mut prev = NONE;
        for &k in &s.players[p as usize].hand {
            if k != prev {
                out.push(Action::Discard(k));
                prev = k;
            }
        }
    }

    /// A placeable card of the hand, a scroll, or the end of placing.
    fn place_actions(&self, s: &State, out: &mut Actions) {
        let mut slots = None;
        let mut any = false;
        let hand = &s.players[s.seat as usize].hand;
        let mut prev = NONE;
        for &k in hand {
            if k != prev && self.kind_placeable(s, k, &mut slots) {
                out.push(Action::Select(k));
                any = true;
            }
            prev = k;
        }
        self.scroll_actions(s, out);
        if s.placed > 0 || !any || self.voluntary_pass {
            out.push(Action::EndPlace);
        }
    }

    /// The cells the selected card may go to.
    fn place_cell_actions(&self, s: &State, out: &mut Actions) {
        let k = s.sel_card;
        match self.comps.class(k) {
            KindClass::Tile(t) => {
                let net = self.net(s, s.seat);
                self.for_frontier(s, |c| {
                    let (key, res) = self.slot(s, s.seat, c, &net);
                    if res.is_some() && self.fits(t, key) {
                        out.push(Action::At(c));
                    }
                });
            }
            // A frontier cell is empty and faces an open side already.
            _ => self.for_frontier(s, |c| {
                if s.cells[c as usize].enc == 0 {
                    out.push(Action::At(c));
                }
            }),
        }
    }

    /// The distinct rotations the selected tile fits in at its cell.
    fn rotation_actions(&self, s: &State, out: &mut Actions) {
        let KindClass::Tile(t) = self.comps.class(s.sel_card) else {
            return;
        };
        let net = self.net(s, s.seat);
        for r in 0..4 {
            if self.distinct_rot(t, r) && self.tile_ok(s, s.seat, t, s.sel_cell, r, &net).is_some()
            {
                out.push(Action::Rotate(r));
            }
        }
    }

    /// A piece of equipment from the hand to play face down, or none.
    fn equip_actions(&self, s: &State, out: &mut Actions) {
        let mut prev = NONE;
        for &k in &s.players[s.seat as usize].hand {
            if let (true, KindClass::Equip(e)) = (k != prev, self.comps.class(k)) {
                out.push(Action::PlayEquip(e));
            }
            prev = k;
        }
        out.push(Action::SkipEquip);
    }

    /// A monster's step, or passing.
    fn monster_actions(&self, s: &State, out: &mut Actions) {
        for f in 0..self.comps.foes.len() as u8 {
            if self.monster_movable(s, f) {
                let from = s.foes[f as usize].cell;
                self.for_monster_dest(s, f, from, |to| {
                    out.push(Action::MonsterStep { foe: f, to })
                });
            }
        }
        out.push(Action::Pass);
    }

    /// The player who must discard to the hand limit (active seat first).
    pub fn discarder(&self, s: &State) -> u8 {
        if s.players[s.seat as usize].hand.len() > usize::from(self.hand_size) {
            s.seat
        } else {
            s.trade_to
        }
    }

    /// True when the active seat may propose a trade to `q` (spec §4.4).
    pub fn can_trade_with(&self, s: &State, q: u8) -> bool {
        self.can_trade_cached(s, q, &mut None)
    }

    /// [`Self::can_trade_with`] with the active seat's component computed on
    /// first need and kept in `comp` for the other partners.
    fn can_trade_cached(&self, s: &State, q: u8, comp: &mut Option<CellSet>) -> bool {
        let (mine, theirs) = (
            s.players[s.seat as usize].hand.is_empty(),
            s.players[q as usize].hand.is_empty(),
        );
        let empty = if self.trade == 2 {
            mine && theirs
        } else {
            mine || theirs
        };
        if self.trade == 0 || q == s.seat || s.asked >> q & 1 == 1 || empty {
            return false;
        }
        comp.get_or_insert_with(|| self.component(s, &[s.players[s.seat as usize].entrance], true))
            .has(s.players[q as usize].entrance)
    }

    /// True when card kind `k` has at least one legal placement for the active seat.
    pub fn card_placeable(&self, s: &State, k: u8, net: &CellSet) -> bool {
        match self.comps.class(k) {
            KindClass::Tile(t) => self.slots_fit(&self.slots(s, s.seat, net), t),
            KindClass::Foe(_) => s.enc_placed == 0 && self.slots(s, s.seat, net).enc_free,
            KindClass::Equip(_) => false,
        }
    }

    /// [`Self::card_placeable`] with the frontier facts computed on first
    /// need and shared by the other cards of the hand.
    fn kind_placeable(&self, s: &State, k: u8, slots: &mut Option<Slots>) -> bool {
        let class = self.comps.class(k);
        if matches!(class, KindClass::Equip(_))
            || matches!(class, KindClass::Foe(_)) && s.enc_placed != 0
        {
            return false;
        }
        let sl = slots.get_or_insert_with(|| self.slots(s, s.seat, &self.net(s, s.seat)));
        match class {
            KindClass::Tile(t) => self.slots_fit(sl, t),
            _ => sl.enc_free,
        }
    }

    /// Scroll uses available now (spec §4.10 item 7).
    fn scroll_actions(&self, s: &State, out: &mut Actions) {
        let p = s.seat as usize;
        for &e in &s.players[p].table {
            if !self.comps.equipment[e as usize].destroy_tile {
                continue;
            }
            let mut targets = CellSet::new();
            for ch in s.chars.iter() {
                if !(ch.alive && ch.owner == s.seat) {
                    continue;
                }
                for d in 0..4 {
                    if let Some(n) = self.nb(ch.cell, d) {
                        targets.add(n);
                    }
                }
            }
            let h = self.h;
            for y in -h..=h {
                for x in -h..=h {
                    let c = cell_of(x, y);
                    if targets.has(c) && self.scroll_target_ok(s, c) {
                        out.push(Action::Scroll { equip: e, at: c });
                    }
                }
            }
        }
    }

    /// A tile a scroll may destroy: a pile tile, no character, connectivity kept.
    pub fn scroll_target_ok(&self, s: &State, c: u16) -> bool {
        let t = s.cells[c as usize].tile;
        t != 0
            && !self.comps.tiles[t as usize - 1].start
            && !self.anyone_on(s, c)
            && self.removal_keeps_connected(s, c)
    }

    fn dest_ok(&self, s: &State, p: u8, u: u16) -> bool {
        let cell = &s.cells[u as usize];
        if cell.tile == 0 {
            return false;
        }
        if !self.others_on(s, u, p) {
            return true;
        }
        if cell.exit && s.final_round {
            return true;
        }
        self.rule1 && cell.enc == 0 && self.single_other_owner(s, u, p).is_some()
    }

    /// The one other seat whose characters stand on `u`, if exactly one.
    pub fn single_other_owner(&self, s: &State, u: u16, p: u8) -> Option<u8> {
        let mut o = NONE;
        for ch in &s.chars {
            if ch.alive && ch.cell == u && ch.owner != p {
                if o != NONE && o != ch.owner {
                    return None;
                }
                o = ch.owner;
            }
        }
        (o != NONE).then_some(o)
    }

    /// Cost of a step from `t` to `u`, or 0 if not reachable in one step.
    pub fn step_cost(&self, s: &State, t: u16, u: u16) -> u8 {
        for d in 0..4 {
            if self.link(s, t, d) == Some(u) {
                return 1;
            }
        }
        if self.twin(s, t) == Some(u) {
            return 1;
        }
        self.edge_cost(s, t, u)
    }

    /// [`Self::step_cost`] along the board edge only (0 when none).
    fn edge_cost(&self, s: &State, t: u16, u: u16) -> u8 {
        let st = self.edge_sides(s, t);
        let su = self.edge_sides(s, u);
        let common = st & su;
        if common == 0 || t == u {
            return 0;
        }
        let (tx, ty) = xy(t);
        let (ux, uy) = xy(u);
        let mut best = u8::MAX;
        for d in 0..4 {
            if common >> d & 1 == 1 {
                let cost = if d % 2 == 1 {
                    (ty - uy).abs()
                } else {
                    (tx - ux).abs()
                };
                best = best.min(cost as u8);
            }
        }
        best
    }

    fn move_actions(&self, s: &State, out: &mut Actions) {
        let p = s.seat;
        let n = self.comps.chars.len();
        for ci in 0..n {
            let ch = &s.chars[ci];
            if !(ch.alive && ch.owner == p) {
                continue;
            }
            if !ch.moved && !ch.stopped && ch.active == NONE {
                for &e in &s.players[p as usize].table {
                    if self.comps.equip_bonus(e, 3) > 0 {
                        out.push(Action::AssignMove {
                            equip: e,
                            ch: ci as u8,
                        });
                    }
                }
            }
            if ch.stopped || ch.mp == 0 {
                continue;
            }
            let t = ch.cell;
            let mut dests: ArrayVec<u16, 80> = ArrayVec::new();
            self.for_adjacent(s, t, |u| {
                if !dests.contains(&u) {
                    dests.push(u);
                }
            });
            // Adjacent cells cost 1; any later one is not adjacent.
            let adjacent = dests.len();
            let sides = self.edge_sides(s, t);
            if sides != 0 {
                let h = self.h;
                for d in 0..4 {
                    if sides >> d & 1 == 0 {
                        continue;
                    }
                    for i in -h..=h {
                        let u = match d {
                            0 => cell_of(i, h),
                            1 => cell_of(h, i),
                            2 => cell_of(i, -h),
                            _ => cell_of(-h, i),
                        };
                        if u != t && self.edge_sides(s, u) >> d & 1 == 1 && !dests.contains(&u) {
                            dests.push(u);
                        }
                    }
                }
            }
            for (i, &u) in dests.iter().enumerate() {
                let cost = if i < adjacent {
                    1
                } else {
                    self.edge_cost(s, t, u)
                };
                if cost > 0 && cost <= ch.mp && self.dest_ok(s, p, u) {
                    out.push(Action::Step {
                        ch: ci as u8,
                        to: u,
                    });
                }
            }
        }
        // Overtaking, one candidate start cell at a time.
        let mut starts: ArrayVec<u16, 16> = ArrayVec::new();
        for ch in s.chars.iter().take(n) {
            if ch.alive && ch.owner == p && !ch.stopped && ch.mp >= 2 && !starts.contains(&ch.cell)
            {
                starts.push(ch.cell);
            }
        }
        for &t0 in &starts {
            let mut vias: ArrayVec<u16, 8> = ArrayVec::new();
            self.for_adjacent(s, t0, |b| {
                if !vias.contains(&b) {
                    vias.push(b)
                }
            });
            for &b in &vias {
                if !self.overtake_via_ok(s, p, t0, b) {
                    continue;
                }
                let mut lands: ArrayVec<u16, 8> = ArrayVec::new();
                self.for_adjacent(s, b, |l| {
                    if !lands.contains(&l) {
                        lands.push(l)
                    }
                });
                for &l in &lands {
                    if l != t0 && self.landing_ok(s, p, l) {
                        out.push(Action::Overtake {
                            from: t0,
                            via: b,
                            to: l,
                        });
                    }
                }
            }
        }
        out.push(Action::EndMove);
    }

    /// Effective movement of a character (printed M plus active equipment).
    pub fn m_eff(&self, s: &State, c: usize) -> u32 {
        let ch = &s.chars[c];
        let bonus = if ch.active == NONE {
            0
        } else {
            self.comps.equip_bonus(ch.active, 3)
        };
        u32::from(self.comps.chars[c].m) + u32::from(bonus)
    }

    fn overtake_via_ok(&self, s: &State, p: u8, t0: u16, b: u16) -> bool {
        if s.cells[b as usize].enc != 0 || !self.others_on(s, b, p) {
            return false;
        }
        let (mut g, mut gm, mut o, mut om) = (0u32, 0u32, 0u32, 0u32);
        for (i, ch) in s.chars.iter().enumerate() {
            if !ch.alive {
                continue;
            }
            if ch.cell == t0 && ch.owner == p && !ch.stopped && ch.mp >= 2 {
                g += 1;
                gm += self.m_eff(s, i);
            } else if ch.cell == b && ch.owner != p {
                o += 1;
                om += self.m_eff(s, i);
            }
        }
        g > 0 && (g > o || gm > om)
    }

    /// Overtake group test (spec §4.5.2) for the characters in `mask`.
    fn overtake_group_ok(&self, s: &State, via: u16, mask: u16) -> bool {
        let p = s.seat;
        let (mut g, mut gm, mut o, mut om) = (0u32, 0u32, 0u32, 0u32);
        for (i, ch) in s.chars.iter().enumerate() {
            if mask >> i & 1 == 1 {
                g += 1;
                gm += self.m_eff(s, i);
            } else if ch.alive && ch.cell == via && ch.owner != p {
                o += 1;
                om += self.m_eff(s, i);
            }
        }
        g > 0 && (g > o || gm > om)
    }

    /// Decides the overtake group one character at a time (index order),
    /// asking only when both answers can still make a legal group; moves the
    /// group when every character is decided.
    fn overtake_advance(&self, s: &mut State) {
        let (from, via, to) = s.ot.expect("overtake in progress");
        let p = s.seat;
        let able = |s: &State, i: usize| {
            let ch = &s.chars[i];
            ch.alive && ch.owner == p && ch.cell == from && !ch.stopped && ch.mp >= 2
        };
        loop {
            let next = (s.ot_next as usize..16).find(|&i| able(s, i));
            let Some(i) = next else {
                break;
            };
            s.ot_next = i as u8;
            let later: u16 = (i + 1..16)
                .filter(|&j| able(s, j))
                .fold(0, |m, j| m | 1 << j);
            if self.overtake_group_ok(s, via, s.ot_group | later) {
                s.phase = Phase::OvertakeGroup;
                return;
            }
            s.ot_group |= 1 << i;
            s.ot_next += 1;
        }
        let enc = s.cells[to as usize].enc != 0;
        for i in 0..16 {
            if s.ot_group >> i & 1 == 1 {
                let ch = &mut s.chars[i];
                ch.cell = to;
                ch.mp -= 2;
                ch.stopped = true;
                ch.moved = true;
                if enc {
                    ch.came_from = via;
                }
            }
        }
        s.ot = None;
        s.ot_group = 0;
        s.ot_next = 0;
        s.phase = Phase::Move;
    }

    fn landing_ok(&self, s: &State, p: u8, l: u16) -> bool {
        let cell = &s.cells[l as usize];
        cell.tile != 0 && (!self.others_on(s, l, p) || (cell.exit && s.final_round))
    }

    /// Calls `f` for each uncontested combat site of the active seat (spec §4.7).
    pub fn for_sites(&self, s: &State, mut f: impl FnMut(u16)) {
        let p = s.seat;
        let mut seen: ArrayVec<u16, 16> = ArrayVec::new();
        for ch in s.chars.iter() {
            if !(ch.alive && ch.owner == p) || seen.contains(&ch.cell) {
                continue;
            }
            let c = ch.cell;
            seen.push(c);
            if s.fought.contains(&c) {
                continue;
            }
            let cell = &s.cells[c as usize];
            let foe_site = cell.enc != 0;
            let pvp_site = self.rule1
                && cell.enc == 0
                && !(cell.exit && s.final_round)
                && self.single_other_owner(s, c, p).is_some();
            if foe_site || pvp_site {
                f(c);
            }
        }
    }

    fn monster_movable(&self, s: &State, f: u8) -> bool {
        let foe = &s.foes[f as usize];
        self.comps.foe_is_monster[f as usize]
            && !foe.moved
            && foe.cell != NO_CELL
            && s.cells[foe.cell as usize].tile != 0
    }

    fn for_monster_dest(&self, s: &State, _f: u8, from: u16, mut out: impl FnMut(u16)) {
        let mut dests: ArrayVec<u16, 8> = ArrayVec::new();
        self.for_adjacent(s, from, |u| {
            if !dests.contains(&u) {
                dests.push(u)
            }
        });
        for &u in &dests {
            let cell = &s.cells[u as usize];
            if cell.enc != 0 {
                continue;
            }
            let mut owner = NONE;
            let mut mixed = false;
            for ch in &s.chars {
                if ch.alive && ch.cell == u {
                    if owner != NONE && owner != ch.owner {
                        mixed = true;
                    }
                    owner = ch.owner;
                }
            }
            if !mixed {
                out(u);
            }
        }
    }

    // ---------------------------------------------------------------- apply

    /// Applies one legal action or chance outcome.
    pub fn apply_action(&self, s: &mut State, a: Action) {
        if let Action::Die(face) = a {
            let (n, v) = self.roll_spec(s).expect("a die at a roll");
            s.dice_rolled += 1;
            s.dice_succ += u8::from(face >= v);
            if s.dice_rolled == n {
                let k = s.dice_succ;
                s.dice_rolled = 0;
                s.dice_succ = 0;
                self.apply_action(s, Action::Roll(k));
            }
            return;
        }
        match s.phase {
            Phase::FirstRoll | Phase::Draft | Phase::Entrance | Phase::Draw => {
                self.apply_setup(s, a)
            }
            Phase::Trade | Phase::TradeBuild | Phase::TradeReply | Phase::TradeDiscard => {
                self.apply_trade(s, a)
            }
            Phase::Move | Phase::OvertakeGroup => self.apply_move(s, a),
            Phase::Place | Phase::PlaceCell | Phase::PlaceRot | Phase::Penalty => {
                self.apply_place(s, a)
            }
            Phase::Site
            | Phase::Fight
            | Phase::Equip
            | Phase::Monsters
            | Phase::MonsterStep2
            | Phase::Over => self.apply_encounters(s, a),
        }
    }

    /// The first roll, the draft of characters, the entrances and the draws.
    fn apply_setup(&self, s: &mut State, a: Action) {
        match (s.phase, a) {
            (Phase::FirstRoll, Action::Roll(k)) => self.first_roll(s, k),
            (Phase::Draft, Action::Draft(c)) => {
                let picker = (s.first + s.picks) % self.players;
                let ch = &mut s.chars[c as usize];
                ch.owner = picker;
                ch.alive = true;
                s.picks += 1;
                if s.picks == self.players * self.cpp {
                    s.picks = 0;
                    s.phase = Phase::Entrance;
                }
            }
            (Phase::Entrance, Action::Entrance(i)) => {
                let picker = (s.first + self.players - 1 + s.picks) % self.players;
                let e = self.entrances[i as usize];
                s.players[picker as usize].entrance = e;
                for ch in s.chars.iter_mut() {
                    if ch.owner == picker {
                        ch.cell = e;
                    }
                }
                s.picks += 1;
                if s.picks == self.players {
                    s.round = 1;
                    s.seat = s.first;
                    s.ctrl_ptr = s.first;
                    self.start_turn(s);
                }
            }
            (Phase::Draw, Action::Draw(k)) => {
                s.pile[k as usize] -= 1;
                s.pile_len -= 1;
                insert_sorted(&mut s.players[s.seat as usize].hand, k);
                if s.pile_len == 0 {
                    s.pile_was_empty = true;
                    if !self.rule3 {
                        s.final_round = true;
                    }
                }
                self.continue_draw(s);
            }
            (phase, a) => panic!("illegal action {a:?} in phase {phase:?}"),
        }
    }

    /// Trades: offers and their replies, open trades built card by card, the
    /// discards to the hand limit after them.
    fn apply_trade(&self, s: &mut State, a: Action) {
        match (s.phase, a) {
            (Phase::Trade, Action::Propose { to, card }) => {
                remove_one(&mut s.players[s.seat as usize].hand, card);
                self.leaves_seen_by(s, s.seat, card, &[to]);
                s.offer = Some((to, card));
                s.trade_to = to;
                s.asked |= 1 << to;
                s.phase = Phase::TradeReply;
            }
            (Phase::Trade, Action::OpenTrade(q)) => {
                s.trade_to = q;
                s.asked |= 1 << q;
                s.ask = NONE;
                s.phase = Phase::TradeBuild;
            }
            (Phase::TradeBuild, Action::Give(k)) => {
                remove_one(&mut s.players[s.seat as usize].hand, k);
                self.leaves_seen_by(s, s.seat, k, &[s.trade_to]);
                insert_sorted(&mut s.give, k);
            }
            (Phase::TradeBuild, Action::Ask(n)) => {
                s.ask = n;
                s.phase = Phase::TradeReply;
            }
            (Phase::TradeReply, Action::Accept(k)) if s.offer.is_none() => {
                remove_one(&mut s.players[s.trade_to as usize].hand, k);
                self.leaves_seen_by(s, s.trade_to, k, &[s.seat]);
                insert_sorted(&mut s.back, k);
            }
            (Phase::TradeReply, Action::Agree) => {
                let (p, q) = (s.seat as usize, s.trade_to as usize);
                for k in s.back.clone() {
                    insert_sorted(&mut s.players[p].hand, k);
                    s.known.enters(q as u8, p as u8, k);
                }
                for k in s.give.clone() {
                    insert_sorted(&mut s.players[q].hand, k);
                    s.known.enters(p as u8, q as u8, k);
                }
                s.back.clear();
                s.give.clear();
                bump(&mut s.tally.trades, s.seat);
                self.after_trade(s);
            }
            (Phase::TradeReply, Action::Reject) if s.offer.is_none() => {
                let (p, q) = (s.seat as usize, s.trade_to as usize);
                for k in s.give.clone() {
                    insert_sorted(&mut s.players[p].hand, k);
                    s.known.enters(q as u8, p as u8, k);
                }
                for k in s.back.clone() {
                    insert_sorted(&mut s.players[q].hand, k);
                    s.known.enters(p as u8, q as u8, k);
                }
                s.back.clear();
                s.give.clear();
                s.trade_to = NONE;
                s.ask = NONE;
                self.enter_trade(s);
            }
            (Phase::TradeDiscard, Action::Discard(k)) => {
                let p = self.discarder(s) as usize;
                remove_one(&mut s.players[p].hand, k);
                self.leaves_unseen(s, p as u8);
                s.players[p].discarded[k as usize] += 1;
                s.players[p].ndisc += 1;
                self.after_trade(s);
            }
            (Phase::Trade, Action::EndTrade) => self.enter_move(s),
            (Phase::TradeReply, Action::Accept(k)) => {
                let (q, card) = s.offer.take().expect("offer");
                remove_one(&mut s.players[q as usize].hand, k);
                self.leaves_seen_by(s, q, k, &[s.seat]);
                insert_sorted(&mut s.players[q as usize].hand, card);
                s.known.enters(s.seat, q, card);
                insert_sorted(&mut s.players[s.seat as usize].hand, k);
                s.known.enters(q, s.seat, k);
                bump(&mut s.tally.trades, s.seat);
                s.trade_to = NONE;
                self.enter_trade(s);
            }
            (Phase::TradeReply, Action::Reject) => {
                let (q, card) = s.offer.take().expect("offer");
                insert_sorted(&mut s.players[s.seat as usize].hand, card);
                s.known.enters(q, s.seat, card);
                s.trade_to = NONE;
                self.enter_trade(s);
            }
            (phase, a) => panic!("illegal action {a:?} in phase {phase:?}"),
        }
    }

    /// Movement: equipment assigned, steps, overtaking with a group, the end of moving.
    fn apply_move(&self, s: &mut State, a: Action) {
        match (s.phase, a) {
            (Phase::Move, Action::AssignMove { equip, ch }) => {
                bump(&mut s.tally.equip_activated, s.seat);
                remove_one(&mut s.players[s.seat as usize].table, equip);
                let c = &mut s.chars[ch as usize];
                c.active = equip;
                c.mp += self.comps.equip_bonus(equip, 3);
            }
            (Phase::Move, Action::Step { ch, to }) => {
                let from = s.chars[ch as usize].cell;
                let cost = self.step_cost(s, from, to);
                let enc = s.cells[to as usize].enc != 0;
                let attack = !enc
                    && self.rule1
                    && self.others_on(s, to, s.seat)
                    && !(s.cells[to as usize].exit && s.final_round);
                let c = &mut s.chars[ch as usize];
                c.mp -= cost;
                c.cell = to;
                c.moved = true;
                if enc || attack {
                    c.stopped = true;
                    c.came_from = from;
                }
            }
            (Phase::Move, Action::Overtake { from, via, to }) => {
                s.ot = Some((from, via, to));
                s.ot_group = 0;
                s.ot_next = 0;
                self.overtake_advance(s);
            }
            (Phase::OvertakeGroup, Action::Join(join)) => {
                if join {
                    s.ot_group |= 1 << s.ot_next;
                }
                s.ot_next += 1;
                self.overtake_advance(s);
            }
            (Phase::Move, Action::EndMove) => {
                let p = s.seat;
                if !self.rule3
                    && s.chars
                        .iter()
                        .any(|c| c.alive && c.owner == p && s.cells[c.cell as usize].exit)
                {
                    s.final_round = true;
                }
                s.phase = Phase::Place;
            }
            (phase, a) => panic!("illegal action {a:?} in phase {phase:?}"),
        }
    }

    /// Placing: a card selected, then its cell and rotation; scrolls; the end
    /// of placing and the penalty for placing nothing.
    fn apply_place(&self, s: &mut State, a: Action) {
        match (s.phase, a) {
            (Phase::Place, Action::Select(k)) => {
                remove_one(&mut s.players[s.seat as usize].hand, k);
                self.leaves_seen_by(s, s.seat, k, &[0, 1, 2, 3]);
                s.sel_card = k;
                s.phase = Phase::PlaceCell;
            }
            (Phase::Place, Action::Scroll { equip, at }) => {
                bump(&mut s.tally.scrolls, s.seat);
                remove_one(&mut s.players[s.seat as usize].table, equip);
                let ek = self.comps.equip_kind(equip);
                s.gone[ek as usize] += 1;
                let t = s.cells[at as usize].tile - 1;
                s.gone[t as usize] += 1;
                let cell = &mut s.cells[at as usize];
                cell.tile = 0;
                cell.rot = 0;
                cell.placer = 0;
                cell.exit = false;
                if let Some(i) = s.stairs.iter().position(|&x| x == at) {
                    s.stairs.remove(i);
                }
            }
            (Phase::Place, Action::EndPlace) => {
                if s.placed == 0 && !s.players[s.seat as usize].hand.is_empty() {
                    s.phase = Phase::Penalty;
                } else {
                    self.enter_combat(s);
                }
            }
            (Phase::PlaceCell, Action::At(c)) => match self.comps.class(s.sel_card) {
                KindClass::Foe(f) => {
                    s.cells[c as usize].enc = f + 1;
                    s.foes[f as usize].cell = c;
                    bump(&mut s.tally.encounters, s.seat);
                    s.placed += 1;
                    s.enc_placed = 1;
                    s.placed_round = true;
                    s.sel_card = NONE;
                    s.phase = Phase::Place;
                }
                _ => {
                    s.sel_cell = c;
                    s.phase = Phase::PlaceRot;
                }
            },
            (Phase::PlaceRot, Action::Rotate(r)) => {
                let KindClass::Tile(t) = self.comps.class(s.sel_card) else {
                    unreachable!("rotation of a non-tile")
                };
                let c = s.sel_cell;
                let net = self.net(s, s.seat);
                let foreign = self.tile_ok(s, s.seat, t, c, r, &net).unwrap_or(false);
                let cell = &mut s.cells[c as usize];
                cell.tile = t + 1;
                cell.rot = r;
                if self.comps.tiles[t as usize].stairs {
                    cell.placer = s.seat + 1;
                    let e = s.players[s.seat as usize].entrance;
                    s.stairs.push(c);
                    s.cells[c as usize].exit = self.is_exit_from(s, e, c);
                    bump(&mut s.tally.stairs, s.seat);
                    if s.cells[c as usize].exit {
                        bump(&mut s.tally.exits, s.seat);
                    }
                }
                bump(&mut s.tally.tiles, s.seat);
                s.foreign += u8::from(foreign);
                s.placed += 1;
                s.placed_round = true;
                s.sel_card = NONE;
                s.sel_cell = NO_CELL;
                s.phase = Phase::Place;
            }
            (Phase::Penalty, Action::Lose(k)) => {
                remove_one(&mut s.players[s.seat as usize].hand, k);
                self.leaves_unseen(s, s.seat);
                s.pile[k as usize] += 1;
                s.pile_len += 1;
                self.enter_combat(s);
            }
            (phase, a) => panic!("illegal action {a:?} in phase {phase:?}"),
        }
    }

    /// Fights at a site, equipment played at the end of a turn, and the
    /// monsters' moves.
    fn apply_encounters(&self, s: &mut State, a: Action) {
        match (s.phase, a) {
            (Phase::Site, Action::Site(c)) => self.start_fight(s, c),
            (Phase::Fight, a) => self.fight_apply(s, a),
            (Phase::Equip, Action::PlayEquip(e)) => {
                bump(&mut s.tally.equip_played, s.seat);
                let k = self.comps.equip_kind(e);
                remove_one(&mut s.players[s.seat as usize].hand, k);
                // Face down: the others see an equipment card go, not which.
                let first_equip = self.comps.equip_kind(0) as usize;
                for o in 0..self.players {
                    if o != s.seat {
                        s.known.of_mut(o, s.seat)[first_equip..].fill(0);
                    }
                }
                insert_sorted(&mut s.players[s.seat as usize].table, e);
                s.equip_played = 1;
                self.end_turn(s);
            }
            (Phase::Equip, Action::SkipEquip) => self.end_turn(s),
            (Phase::Monsters, Action::MonsterStep { foe, to }) => {
                s.foes[foe as usize].moved = true;
                s.mon_passes = 0;
                s.mon_foe = foe;
                if self.monster_move(s, foe, to) {
                    s.phase = Phase::MonsterStep2;
                }
            }
            (Phase::MonsterStep2, Action::MonsterStep { foe, to }) => {
                if self.monster_move(s, foe, to) {
                    self.next_monster_actor(s);
                }
            }
            (Phase::MonsterStep2, Action::MonsterStop) => self.next_monster_actor(s),
            (Phase::Monsters, Action::Pass) => {
                s.mon_passes += 1;
                self.next_monster_actor(s);
            }
            (phase, a) => panic!("illegal action {a:?} in phase {phase:?}"),
        }
    }

    /// Card kind `k` left q's hand: the seats in `seen` saw which card it
    /// was, the others lose track of q's hand.
    fn leaves_seen_by(&self, s: &mut State, q: u8, k: u8, seen: &[u8]) {
        for o in 0..self.players {
            if o == q {
                continue;
            }
            if seen.contains(&o) {
                s.known.leaves(o, q, k);
            } else {
                s.known.forget(o, q);
            }
        }
    }

    /// A card left q's hand face down: everyone else loses track of it.
    fn leaves_unseen(&self, s: &mut State, q: u8) {
        self.leaves_seen_by(s, q, NONE, &[]);
    }

    fn first_roll(&self, s: &mut State, k: u8) {
        let p = self.next_roller(s);
        s.roll_fours[p as usize] = k;
        s.roll_done |= 1 << p;
        if s.roll_done != s.roll_tied {
            return;
        }
        let best = (0..self.players)
            .filter(|&q| s.roll_tied >> q & 1 == 1)
            .map(|q| s.roll_fours[q as usize])
            .max()
            .unwrap_or(0);
        let tied: u8 = (0..self.players)
            .filter(|&q| s.roll_tied >> q & 1 == 1 && s.roll_fours[q as usize] == best)
            .fold(0, |m, q| m | 1 << q);
        s.roll_fours = [0; 4];
        s.roll_done = 0;
        s.picks += 1;
        if tied.count_ones() == 1 || s.picks >= 20 {
            s.first = tied.trailing_zeros() as u8;
            s.roll_tied = 0;
            s.picks = 0;
            s.phase = Phase::Draft;
        } else {
            s.roll_tied = tied;
        }
    }

    /// T0 of the active seat (spec §4.2), then the draw.
    pub fn start_turn(&self, s: &mut State) {
        let p = s.seat;
        for i in 0..16 {
            let ch = &mut s.chars[i];
            if ch.owner != p {
                continue;
            }
            if ch.active != NONE {
                let k = self.comps.equip_kind(ch.active);
                s.gone[k as usize] += 1;
                s.chars[i].active = NONE;
            }
            let ch = &mut s.chars[i];
            if ch.alive {
                ch.mp = self.comps.chars[i].m;
                ch.moved = false;
                ch.stopped = false;
                ch.came_from = NO_CELL;
            }
        }
        s.placed = 0;
        s.enc_placed = 0;
        s.foreign = 0;
        s.equip_played = 0;
        s.asked = 0;
        s.fought.clear();
        s.phase = Phase::Draw;
        self.continue_draw(s);
    }

    fn continue_draw(&self, s: &mut State) {
        if s.players[s.seat as usize].hand.len() >= usize::from(self.hand_size) || s.pile_len == 0 {
            self.enter_trade(s);
        }
    }

    fn enter_trade(&self, s: &mut State) {
        let mut comp = None;
        if (0..self.players).any(|q| self.can_trade_cached(s, q, &mut comp)) {
            s.phase = Phase::Trade;
        } else {
            self.enter_move(s);
        }
    }

    /// After an accepted general trade: discards to the hand limit, then
    /// back to the trade window.
    fn after_trade(&self, s: &mut State) {
        let limit = usize::from(self.hand_size);
        if s.players[s.seat as usize].hand.len() > limit
            || s.players[s.trade_to as usize].hand.len() > limit
        {
            s.phase = Phase::TradeDiscard;
        } else {
            s.trade_to = NONE;
            s.ask = NONE;
            self.enter_trade(s);
        }
    }

    fn enter_move(&self, s: &mut State) {
        s.phase = Phase::Move;
    }

    /// T4: the next combat site, or T5.
    pub fn enter_combat(&self, s: &mut State) {
        let mut first = NO_CELL;
        let mut count = 0;
        self.for_sites(s, |c| {
            if first == NO_CELL {
                first = c;
            }
            count += 1;
        });
        match count {
            0 => self.enter_equip(s),
            1 => self.start_fight(s, first),
            _ => s.phase = Phase::Site,
        }
    }

    /// T5 is offered on public facts only (a hand, room on the table), so
    /// that skipping it does not show whether the hidden hand holds
    /// equipment; without any, `SkipEquip` is the only choice.
    fn enter_equip(&self, s: &mut State) {
        let p = s.seat as usize;
        let living = s
            .chars
            .iter()
            .filter(|c| c.alive && c.owner == s.seat)
            .count();
        let active = s
            .chars
            .iter()
            .filter(|c| c.alive && c.owner == s.seat && c.active != NONE)
            .count();
        let has = !s.players[p].hand.is_empty();
        if has && s.equip_played == 0 && s.players[p].table.len() + active < living {
            s.phase = Phase::Equip;
        } else {
            self.end_turn(s);
        }
    }

    fn clear_damage(&self, s: &mut State) {
        for c in s.chars.iter_mut() {
            c.dmg = 0;
        }
        for f in s.foes.iter_mut() {
            f.dmg = 0;
        }
    }

    /// T6: clear damage, pass the turn, or end the round.
    pub fn end_turn(&self, s: &mut State) {
        self.clear_damage(s);
        if self.rule3 && s.pile_len == 0 && s.players.iter().all(|p| p.hand.is_empty()) {
            s.final_round = true;
        }
        let next = (s.seat + 1) % self.players;
        if next == s.first {
            self.end_round(s);
        } else {
            s.seat = next;
            self.start_turn(s);
        }
    }

    fn end_round(&self, s: &mut State) {
        if !self.enter_monsters(s) {
            self.round_checks(s);
        }
    }

    /// Rule 2: starts the monster phase from the First Player when some
    /// monster stands on a tile; false (nothing changed) otherwise.
    pub(super) fn enter_monsters(&self, s: &mut State) -> bool {
        let any = self.rule2
            && (0..self.comps.foes.len() as u8).any(|f| {
                let foe = &s.foes[f as usize];
                self.comps.foe_is_monster[f as usize]
                    && foe.cell != NO_CELL
                    && s.cells[foe.cell as usize].tile != 0
            });
        if any {
            for f in s.foes.iter_mut() {
                f.moved = false;
            }
            s.mon_actor = s.first;
            s.mon_passes = 0;
            s.mon_foe = NONE;
            s.phase = Phase::Monsters;
        }
        any
    }

    fn round_checks(&self, s: &mut State) {
        if s.final_round
            || s.round >= self.max_rounds
            || (self.rule3 && s.pile_was_empty && !s.placed_round)
        {
            s.phase = Phase::Over;
            return;
        }
        s.round += 1;
        s.ctrl_ptr = s.first;
        s.placed_round = false;
        s.seat = s.first;
        self.start_turn(s);
    }

    /// Moves a monster one step; starts an ambush and returns false when it
    /// meets characters.
    fn monster_move(&self, s: &mut State, foe: u8, to: u16) -> bool {
        let from = s.foes[foe as usize].cell;
        s.cells[from as usize].enc = 0;
        s.cells[to as usize].enc = foe + 1;
        s.foes[foe as usize].cell = to;
        let owner = s
            .chars
            .iter()
            .find(|c| c.alive && c.cell == to)
            .map(|c| c.owner);
        match owner {
            Some(o) => {
                self.start_ambush(s, foe, to, o, s.mon_actor);
                false
            }
            None => true,
        }
    }

    /// Passes the monster phase to the next seat, or ends it.
    pub fn next_monster_actor(&self, s: &mut State) {
        s.mon_foe = NONE;
        s.mon_actor = (s.mon_actor + 1) % self.players;
        s.phase = Phase::Monsters;
        let any_left = (0..self.comps.foes.len() as u8).any(|f| self.monster_movable(s, f));
        if !any_left || s.mon_passes >= self.players {
            self.clear_damage(s);
            self.round_checks(s);
        }
    }
}

//! The rules engine: legal actions, applying an action, and the automatic
//! steps between decisions (Well takes, offers, turn changes, reincarnation).

use arrayvec::ArrayVec;

use super::Karmaka;
use super::cards::{Colour, NCARDS, Who};
use super::state::{
    ALL, Action, Dest, NONE, Phase, State, THRESHOLD, TRANSCENDED, Then, bit, insert_sorted,
    sort_cards,
};
use crate::game::Turn;

/// Capacity of the legal-action list. The largest lists are: a main or bonus
/// play, 4 modes (Points, Ability, Future, AllyFuture) per distinct card type
/// in the Hand (at most `MAX_TYPES` = 24) plus Pass or Stop = 97; a Crisis or
/// Transmigrate pick by position, at most 64. Everything else is smaller.
pub const MAX_ACTIONS: usize = 100;

/// The legal-action list.
pub type Actions = ArrayVec<Action, MAX_ACTIONS>;

impl Karmaka {
    /// Side of a seat: teams by parity in 2v2, Wolf (seat 0) against the
    /// Beetles in Big Bad Wolf, else one side per seat.
    pub fn side_of(&self, p: u8) -> u8 {
        if self.teams {
            p % 2
        } else if self.wolf {
            u8::from(p != 0)
        } else {
            p
        }
    }

    /// Whether `b` is a rival of `a`.
    pub fn is_rival(&self, a: u8, b: u8) -> bool {
        a != b && self.side_of(a) != self.side_of(b)
    }

    /// The teammate of `p`, if any.
    pub fn ally(&self, p: u8) -> Option<u8> {
        (0..self.players).find(|&q| q != p && self.side_of(q) == self.side_of(p))
    }

    /// Whether `p` may play cards to its ally's Future Life (mode D).
    pub fn ally_play(&self, p: u8) -> bool {
        (self.teams || (self.wolf && self.switches.bbw_partner_future)) && self.ally(p).is_some()
    }

    /// In plain 4P the player opposite cannot be targeted (spec §4.1).
    fn opposite(&self, a: u8, b: u8) -> bool {
        self.players == 4 && !self.teams && (a + 2) % 4 == b
    }

    /// Players `actor` may target with this wording, as a bit mask.
    pub fn target_mask(&self, actor: u8, who: Who) -> u8 {
        let mut m = 0;
        for q in 0..self.players {
            let ok = match who {
                Who::Rival => self.is_rival(actor, q) && !self.opposite(actor, q),
                Who::Any => {
                    let friendly = q == actor
                        || (self.side_of(q) == self.side_of(actor)
                            && (self.teams || self.switches.bbw_partner_target));
                    (friendly || self.is_rival(actor, q))
                        && (!self.opposite(actor, q) || self.switches.opposite_targetable)
                }
                _ => false,
            };
            if ok {
                m |= bit(q);
            }
        }
        m
    }

    /// Players whose exposed Deed `actor` may copy with Mimic.
    pub fn mimic_mask(&self, s: &State, actor: u8) -> u8 {
        let mut m = 0;
        for q in 0..self.players {
            let allowed = self.is_rival(actor, q)
                || (q != actor
                    && self.teams
                    && self.switches.mimic_ally
                    && self.ally(actor) == Some(q));
            if allowed && !s.deeds[q as usize].is_empty() {
                m |= bit(q);
            }
        }
        m
    }

    pub(super) fn kind(&self, c: u8) -> u8 {
        self.cards.kind[c as usize]
    }

    /// Bit mask of the card types present in a pile.
    pub fn types_in(&self, pile: &[u8]) -> u32 {
        pile.iter().fold(0, |m, &c| m | 1 << self.kind(c))
    }

    /// Death score: best colour plus mosaic (spec §4.10).
    pub fn score_deeds(&self, deeds: &[u8]) -> u32 {
        let mut by = [0u32; 4];
        for &c in deeds {
            let t = self.cards.ty(c);
            let i = match t.colour {
                Colour::Red => 0,
                Colour::Green => 1,
                Colour::Blue => 2,
                Colour::Mosaic => 3,
            };
            by[i] += u32::from(t.points);
        }
        by[0].max(by[1]).max(by[2]) + by[3]
    }

    /// Who must act.
    pub fn turn_of(&self, s: &State) -> Turn {
        match s.phase {
            Phase::Over => Turn::Terminal,
            Phase::Drawing(..) | Phase::SpiteChance(..) | Phase::SwindleChance(..) => Turn::Chance,
            Phase::DwindlePick(v) | Phase::CrisisPick(v) => Turn::Player(v),
            Phase::Offer(to, _) => Turn::Player(to),
            _ => Turn::Player(s.active),
        }
    }

    fn push_types(&self, out: &mut Actions, pile: &[u8]) {
        let mut m = self.types_in(pile);
        while m != 0 {
            out.push(Action::Pick(m.trailing_zeros() as u8));
            m &= m - 1;
        }
    }

    /// Fills the legal actions of `s`.
    pub fn legal(&self, s: &State) -> Actions {
        let mut out = Actions::new();
        self.legal_into(s, &mut out);
        out
    }

    /// [`Karmaka::legal`] written into `out`, replacing what it held.
    pub fn legal_into(&self, s: &State, out: &mut Actions) {
        out.clear();
        let a = s.active as usize;
        match s.phase {
            Phase::Main | Phase::Bonus => {
                let mut m = self.types_in(&s.hands[a]);
                let ally = self.ally_play(s.active);
                // The types in hand, in increasing order.
                while m != 0 {
                    let t = m.trailing_zeros() as u8;
                    m &= m - 1;
                    out.push(Action::Points(t));
                    if self.no_ability != Some(t) {
                        out.push(Action::Ability(t));
                    }
                    out.push(Action::Future(t));
                    if ally {
                        out.push(Action::AllyFuture(t));
                    }
                }
                if s.phase == Phase::Bonus {
                    out.push(Action::Stop);
                } else if !s.decks[a].is_empty() || (!self.switches.pass_after_draw && s.drew) {
                    out.push(Action::Pass);
                }
            }
            Phase::Target(t) => {
                let m = self.target_mask(s.active, self.cards.types[t as usize].who);
                out.extend(
                    (0..self.players)
                        .filter(|&q| m & bit(q) != 0)
                        .map(Action::Target),
                );
            }
            Phase::MimicSource => {
                let m = self.mimic_mask(s, s.active);
                out.extend(
                    (0..self.players)
                        .filter(|&q| m & bit(q) != 0)
                        .map(Action::Target),
                );
            }
            Phase::DenialPick | Phase::SowPlace(_) => self.push_types(out, &s.hands[a]),
            Phase::DwindlePick(v) => self.push_types(out, &s.hands[v as usize]),
            Phase::RouletteRuin(_) | Phase::JubileePick(_) => {
                self.push_types(out, &s.hands[a]);
                out.push(Action::Stop);
            }
            Phase::RouletteDraw(_) => {
                out.push(Action::Draw);
                out.push(Action::Stop);
            }
            Phase::EmbodyPick => self.push_types(out, &s.deeds[a]),
            Phase::CrisisPick(v) => {
                out.extend((0..s.deeds[v as usize].len() as u8).map(Action::Deed));
            }
            Phase::TransPick => out.extend((0..s.futures[a].len() as u8).map(Action::Position)),
            Phase::DestinyPlace(_) => {
                self.push_types(out, &s.aside);
                out.push(Action::Stop);
            }
            Phase::DestinyReturn | Phase::SwindleTake(_) => self.push_types(out, &s.aside),
            Phase::RuinPick(_) => out.extend((0..s.ruins.len().min(3) as u8).map(Action::Ruin)),
            Phase::Offer(..) => {
                out.push(Action::Accept);
                out.push(Action::Decline);
            }
            Phase::Drawing(..)
            | Phase::SpiteChance(..)
            | Phase::SwindleChance(..)
            | Phase::Over => {}
        }
    }

    /// Card-type counts in the pile a pending chance event draws from.
    pub fn chance_counts(&self, s: &State) -> [u8; 32] {
        let mut counts = [0u8; 32];
        let pile: &[u8] = match s.phase {
            Phase::Drawing(..) => &s.well,
            Phase::SpiteChance(v, _) | Phase::SwindleChance(v, _) => &s.hands[v as usize],
            _ => &[],
        };
        for &c in pile {
            counts[self.kind(c) as usize] += 1;
        }
        counts
    }

    /// Removes a card of type `t` from an unordered pile (a Hand, the Well
    /// pool, the cards aside) and keeps what each observer knows a function
    /// of what it saw (spec §5.2), and what it knows about the others'
    /// knowledge a function of what it saw too. Copies of a type are
    /// interchangeable, so the choice looks only at who knows each copy,
    /// never at its id: the copy known to the most observers moves (ties: the
    /// larger knowledge mask). A copy every player knows moves if there is
    /// one, and then nobody's knowledge changes. Otherwise an observer `o`
    /// who knew only part of the pile cannot tell whether the copy came from
    /// what it knew; how it updates must not tell a third seat which:
    ///
    /// * if every other player knows the whole pile (two players, or all the
    ///   others saw it), nobody can learn from `o`'s knowledge, and `o` keeps
    ///   it exactly: having known `k` copies of the type, it still knows
    ///   `k - 1` (it forgets the copy known to the fewest observers, ties:
    ///   the smaller mask);
    /// * otherwise `o` forgets every card of the pile that not every player
    ///   knows, so what a third seat sees of `o`'s knowledge (the masks)
    ///   depends only on the masks before and the type played.
    ///
    /// Copies with equal masks are alike in every view (views number copies
    /// canonically), so which of them moves is unobservable. The caller sets
    /// the moved card's knowledge for its destination.
    pub(super) fn take_kind<const N: usize>(
        &self,
        pile: &mut ArrayVec<u8, N>,
        known: &mut [u8; NCARDS],
        t: u8,
    ) -> u8 {
        let players = (1u8 << self.players) - 1;
        let public = |m: u8| m & players == players;
        let rank = |m: u8| (m.count_ones(), m);
        let mut best: Option<(usize, (u32, u8))> = None;
        let mut knew = 0u8;
        let (mut full, mut some) = (players, 0u8);
        for (i, &c) in pile.iter().enumerate() {
            let m = known[c as usize];
            full &= m;
            some |= m;
            if self.kind(c) != t {
                continue;
            }
            knew |= m;
            if best.is_none_or(|(_, r)| rank(m) > r) {
                best = Some((i, rank(m)));
            }
        }
        let (i, _) = best.expect("a card of the chosen type is in the pile");
        let c = pile.remove(i);
        if public(known[c as usize]) {
            return c;
        }
        let partial = some & players & !full;
        for o in (0..self.players).filter(|&o| partial & bit(o) != 0) {
            let others = players & !bit(o);
            if others & full == others {
                if knew & !known[c as usize] & bit(o) == 0 {
                    continue;
                }
                let forget = pile
                    .iter()
                    .copied()
                    .filter(|&r| self.kind(r) == t && known[r as usize] & bit(o) != 0)
                    .min_by_key(|&r| rank(known[r as usize]));
                if let Some(r) = forget {
                    known[r as usize] &= !bit(o);
                }
            } else {
                for &r in pile.iter() {
                    if !public(known[r as usize]) {
                        known[r as usize] &= !bit(o);
                    }
                }
            }
        }
        c
    }

    pub(super) fn ruin(s: &mut State, c: u8) {
        s.known[c as usize] = ALL;
        s.ruins.push(c);
    }

    pub(super) fn to_hand(s: &mut State, p: u8, c: u8) {
        s.known[c as usize] |= bit(p);
        insert_sorted(&mut s.hands[p as usize], c);
    }

    /// Every observer but those in `keep` loses track of `p`'s Hand (a card
    /// left it face down, and they cannot tell which).
    pub(super) fn blur_hand(s: &mut State, p: u8, keep: u8) {
        for i in 0..s.hands[p as usize].len() {
            let c = s.hands[p as usize][i] as usize;
            s.known[c] &= keep;
        }
    }

    /// Applies one legal action and runs the automatic steps after it.
    pub fn step(&self, s: &mut State, action: Action) {
        s.steps += 1;
        self.count(s, action);
        match s.phase {
            Phase::Main | Phase::Bonus => self.apply_play(s, action),
            Phase::DestinyPlace(_)
            | Phase::DestinyReturn
            | Phase::SwindleTake(_)
            | Phase::RuinPick(_)
            | Phase::SowPlace(_)
            | Phase::JubileePick(_) => self.apply_card_moves(s, action),
            Phase::Offer(..)
            | Phase::Drawing(..)
            | Phase::SpiteChance(..)
            | Phase::SwindleChance(..) => self.apply_offer_or_chance(s, action),
            _ => self.apply_ability_choice(s, action),
        }
        self.advance(s);
        if s.phase != Phase::Over && s.steps >= self.max_steps() {
            s.phase = Phase::Over;
        }
    }

    /// A play on the active player's turn: a card for points, to the Future
    /// (its own or an ally's), for its ability, or passing.
    fn apply_play(&self, s: &mut State, action: Action) {
        let a = s.active;
        let au = a as usize;
        match (s.phase, action) {
            (Phase::Main | Phase::Bonus, Action::Pass | Action::Stop) => self.end_turn(s),
            (Phase::Main | Phase::Bonus, Action::Points(t)) => {
                let c = self.take_kind(&mut s.hands[au], &mut s.known, t);
                s.known[c as usize] = ALL;
                s.deeds[au].push(c);
                self.end_turn(s);
            }
            (Phase::Main | Phase::Bonus, Action::Future(t)) => {
                let c = self.take_kind(&mut s.hands[au], &mut s.known, t);
                s.known[c as usize] = bit(a);
                Self::blur_hand(s, a, bit(a));
                s.futures[au].push(c);
                self.end_turn(s);
            }
            (Phase::Main | Phase::Bonus, Action::AllyFuture(t)) => {
                let ally = self.ally(a).expect("mode D needs an ally");
                let c = self.take_kind(&mut s.hands[au], &mut s.known, t);
                s.known[c as usize] = bit(a) | bit(ally);
                Self::blur_hand(s, a, bit(a) | bit(ally));
                s.futures[ally as usize].push(c);
                self.end_turn(s);
            }
            (Phase::Main | Phase::Bonus, Action::Ability(t)) => {
                let c = self.take_kind(&mut s.hands[au], &mut s.known, t);
                s.known[c as usize] = ALL;
                s.center = c;
                s.chain = 0;
                s.victim = NONE;
                self.start_ability(s, t);
            }
            (phase, action) => panic!("illegal action {action:?} in phase {phase:?}"),
        }
    }

    /// A choice inside an ability: its target, the card it copies, picks from
    /// a Hand or Deeds, the Roulette's ruins and draws, Transmigration's card.
    fn apply_ability_choice(&self, s: &mut State, action: Action) {
        let a = s.active;
        let au = a as usize;
        match (s.phase, action) {
            (Phase::Target(t), Action::Target(x)) => self.targeted(s, t, x),
            (Phase::MimicSource, Action::Target(x)) => {
                let d = *s.deeds[x as usize].last().expect("Mimic source has a Deed");
                let t = self.kind(d);
                self.start_ability(s, t);
            }
            (Phase::DenialPick, Action::Pick(t)) => {
                let c = self.take_kind(&mut s.hands[au], &mut s.known, t);
                Self::ruin(s, c);
                self.start_ability(s, t);
            }
            (Phase::EmbodyPick, Action::Pick(t)) => self.start_ability(s, t),
            (Phase::DwindlePick(v), Action::Pick(t)) => {
                let c = self.take_kind(&mut s.hands[v as usize], &mut s.known, t);
                Self::ruin(s, c);
                self.finish(s, v, true);
            }
            (Phase::CrisisPick(v), Action::Deed(i)) => {
                let c = s.deeds[v as usize].remove(i as usize);
                Self::ruin(s, c);
                self.finish(s, v, true);
            }
            (Phase::RouletteRuin(k), Action::Pick(t)) => {
                let c = self.take_kind(&mut s.hands[au], &mut s.known, t);
                Self::ruin(s, c);
                let k = k + 1;
                s.phase = if k == 2 || s.hands[au].is_empty() {
                    Phase::RouletteDraw(k + 1)
                } else {
                    Phase::RouletteRuin(k)
                };
            }
            (Phase::RouletteRuin(k), Action::Stop) => s.phase = Phase::RouletteDraw(k + 1),
            (Phase::RouletteDraw(left), Action::Draw) => {
                s.phase = Phase::Drawing(Dest::Hand(a), 1, Then::RouletteDraw(left - 1));
            }
            (Phase::RouletteDraw(_), Action::Stop) => self.finish(s, NONE, true),
            (Phase::TransPick, Action::Position(i)) => {
                let c = s.futures[au].remove(i as usize);
                Self::to_hand(s, a, c);
                self.finish(s, NONE, true);
            }
            (phase, action) => panic!("illegal action {action:?} in phase {phase:?}"),
        }
    }

    /// Abilities that move chosen cards: Destiny's placing and returning,
    /// Swindle's take, a card from the Ruins, Sow and Jubilee.
    fn apply_card_moves(&self, s: &mut State, action: Action) {
        let a = s.active;
        let au = a as usize;
        match (s.phase, action) {
            (Phase::DestinyPlace(n), Action::Pick(t)) => {
                let c = self.take_kind(&mut s.aside, &mut s.known, t);
                s.known[c as usize] = bit(a);
                s.futures[au].push(c);
                if n + 1 == 2 || s.aside.is_empty() {
                    self.destiny_return(s);
                } else {
                    s.phase = Phase::DestinyPlace(n + 1);
                }
            }
            (Phase::DestinyPlace(_), Action::Stop) => self.destiny_return(s),
            (Phase::DestinyReturn, Action::Pick(t)) => {
                let c = self.take_kind(&mut s.aside, &mut s.known, t);
                s.known[c as usize] = bit(a);
                s.well_top.push(c);
                self.destiny_return(s);
            }
            (Phase::SwindleTake(v), Action::Pick(t)) => {
                let c = self.take_kind(&mut s.aside, &mut s.known, t);
                let keep = bit(a) | bit(v);
                s.known[c as usize] = keep;
                insert_sorted(&mut s.hands[au], c);
                while let Some(r) = s.aside.pop() {
                    insert_sorted(&mut s.hands[v as usize], r);
                }
                Self::blur_hand(s, v, keep);
                self.finish(s, v, true);
            }
            (Phase::RuinPick(to_future), Action::Ruin(d)) => {
                let i = s.ruins.len() - 1 - d as usize;
                let c = s.ruins.remove(i);
                if to_future {
                    s.futures[au].push(c);
                } else {
                    Self::to_hand(s, a, c);
                }
                self.finish(s, NONE, true);
            }
            (Phase::SowPlace(left), Action::Pick(t)) => {
                let c = self.take_kind(&mut s.hands[au], &mut s.known, t);
                s.known[c as usize] = bit(a);
                Self::blur_hand(s, a, bit(a));
                s.futures[au].push(c);
                if left <= 1 || s.hands[au].is_empty() {
                    self.finish(s, NONE, true);
                } else {
                    s.phase = Phase::SowPlace(left - 1);
                }
            }
            (Phase::JubileePick(left), Action::Pick(t)) => {
                let c = self.take_kind(&mut s.hands[au], &mut s.known, t);
                s.known[c as usize] = ALL;
                s.deeds[au].push(c);
                if left <= 1 || s.hands[au].is_empty() {
                    self.finish(s, NONE, true);
                } else {
                    s.phase = Phase::JubileePick(left - 1);
                }
            }
            (Phase::JubileePick(_), Action::Stop) => self.finish(s, NONE, true),
            (phase, action) => panic!("illegal action {action:?} in phase {phase:?}"),
        }
    }

    /// An offer of the played card to a rival, and chance draws: from the
    /// Well, Spite's and Swindle's cards shown from a Hand.
    fn apply_offer_or_chance(&self, s: &mut State, action: Action) {
        let a = s.active;
        match (s.phase, action) {
            (Phase::Offer(to, _), Action::Accept) => {
                let c = s.center;
                s.center = NONE;
                s.known[c as usize] = ALL;
                s.futures[to as usize].push(c);
                self.after_offer(s);
            }
            (Phase::Offer(to, single), Action::Decline) => {
                let next = if single { None } else { self.next_rival(a, to) };
                match next {
                    Some(r) => s.phase = Phase::Offer(r, false),
                    None => {
                        let c = s.center;
                        s.center = NONE;
                        Self::ruin(s, c);
                        self.after_offer(s);
                    }
                }
            }
            (Phase::Drawing(dest, left, then), Action::Chance(t)) => {
                let c = self.take_kind(&mut s.well, &mut s.known, t);
                self.place(s, c, dest);
                s.phase = Phase::Drawing(dest, left - 1, then);
            }
            (Phase::SpiteChance(v, left), Action::Chance(t)) => {
                let c = self.take_kind(&mut s.hands[v as usize], &mut s.known, t);
                Self::ruin(s, c);
                if left <= 1 || s.hands[v as usize].is_empty() {
                    self.finish(s, v, true);
                } else {
                    s.phase = Phase::SpiteChance(v, left - 1);
                }
            }
            (Phase::SwindleChance(v, left), Action::Chance(t)) => {
                // Only the actor and the victim see the shown cards; third
                // parties cannot tell which cards left the Hand.
                let keep = bit(a) | bit(v);
                let c = self.take_kind(&mut s.hands[v as usize], &mut s.known, t);
                s.known[c as usize] = keep;
                Self::blur_hand(s, v, keep);
                s.aside.push(c);
                s.phase = if left <= 1 {
                    Phase::SwindleTake(v)
                } else {
                    Phase::SwindleChance(v, left - 1)
                };
            }
            (phase, action) => panic!("illegal action {action:?} in phase {phase:?}"),
        }
    }

    /// Counts a play or a copy by the active player before it is applied.
    fn count(&self, s: &mut State, action: Action) {
        let au = s.active as usize;
        let t = &mut s.tally;
        match s.phase {
            Phase::Main | Phase::Bonus => {
                let (ty, mode) = match action {
                    Action::Points(ty) => (ty, 0),
                    Action::Ability(ty) => (ty, 1),
                    Action::Future(ty) => (ty, 2),
                    Action::AllyFuture(ty) => (ty, 3),
                    _ => return,
                };
                let n = &mut t.played[au][ty as usize][mode];
                *n = n.saturating_add(1);
                if mode >= 2 {
                    let n = &mut t.face_down[au][mode - 2];
                    *n = n.saturating_add(1);
                }
                if s.phase == Phase::Bonus {
                    t.bonus_plays[au] = t.bonus_plays[au].saturating_add(1);
                }
            }
            Phase::MimicSource | Phase::DenialPick | Phase::EmbodyPick => {
                t.copies[au] = t.copies[au].saturating_add(1);
            }
            _ => {}
        }
    }

    /// The hard cap on applied actions (far above any real game).
    pub fn max_steps(&self) -> u32 {
        self.max_plies.saturating_mul(60).saturating_add(200)
    }

    /// Puts a card taken from the Well where it goes, with its knowledge.
    pub(super) fn place(&self, s: &mut State, c: u8, dest: Dest) {
        s.effect = true;
        match dest {
            Dest::Hand(p) => Self::to_hand(s, p, c),
            Dest::Deck(p) => s.decks[p as usize].push(c),
            Dest::Aside => {
                s.known[c as usize] = bit(s.active);
                s.aside.push(c);
            }
        }
    }

    pub(super) fn end_turn(&self, s: &mut State) {
        s.active = (s.active + 1) % self.players;
        self.start_turn(s);
    }

    /// T0 and T1 of a turn (spec §4.3): death check, then the Deck draw.
    pub(crate) fn start_turn(&self, s: &mut State) {
        s.victim = NONE;
        s.center = NONE;
        s.drew = false;
        if s.plies >= self.max_plies {
            s.phase = Phase::Over;
            return;
        }
        s.plies += 1;
        let p = s.active;
        let pu = p as usize;
        if s.hands[pu].is_empty() && s.decks[pu].is_empty() {
            self.reincarnate(s, p);
            return;
        }
        if let Some(c) = s.decks[pu].pop() {
            Self::to_hand(s, p, c);
            s.drew = true;
        }
        s.phase = Phase::Main;
    }

    /// Rings the dying player spends: the minimum that makes them climb, else none.
    pub fn rings_spent(score: u32, need: u32, rings: u32) -> u32 {
        if score >= need || score + rings < need {
            0
        } else {
            need - score
        }
    }

    /// The Limbo turn: score, ladder, win check, rebirth (spec §4.10).
    fn reincarnate(&self, s: &mut State, p: u8) {
        let pu = p as usize;
        let score = self.score_deeds(&s.deeds[pu]);
        let need = THRESHOLD[s.level[pu] as usize];
        let spent = Self::rings_spent(score, need, u32::from(s.rings[pu]));
        s.rings[pu] -= spent as u16;
        let t = &mut s.tally;
        t.deaths[pu] = t.deaths[pu].saturating_add(1);
        t.rings_spent[pu] = t.rings_spent[pu].saturating_add(spent as u16);
        if score + spent >= need {
            s.level[pu] += 1;
            t.climbs[pu] = t.climbs[pu].saturating_add(1);
        } else {
            s.rings[pu] = s.rings[pu].saturating_add(1);
            t.rings_gained[pu] = t.rings_gained[pu].saturating_add(1);
        }
        if s.level[pu] >= TRANSCENDED {
            s.winner = p;
            s.phase = Phase::Over;
            return;
        }
        let deeds = core::mem::take(&mut s.deeds[pu]);
        for c in deeds {
            Self::ruin(s, c);
        }
        while let Some(c) = s.futures[pu].first().copied() {
            s.futures[pu].remove(0);
            Self::to_hand(s, p, c);
        }
        let left = 6usize.saturating_sub(s.hands[pu].len() + s.decks[pu].len()) as u8;
        s.phase = Phase::Drawing(Dest::Deck(p), left, Then::EndTurn);
    }

    /// Runs automatic steps: Well takes that need no chance, refills, and the
    /// continuations after a series of takes.
    pub(crate) fn advance(&self, s: &mut State) {
        while let Phase::Drawing(dest, left, then) = s.phase {
            if left > 0 {
                if let Some(c) = s.well_top.pop() {
                    self.place(s, c, dest);
                    s.phase = Phase::Drawing(dest, left - 1, then);
                    continue;
                }
                if !s.well.is_empty() {
                    return;
                }
                let may_refill = self.switches.refill_on_deal || !matches!(dest, Dest::Deck(_));
                if may_refill && s.ruins.len() > 3 {
                    let keep = s.ruins.len() - 3;
                    for c in s.ruins.drain(..keep) {
                        s.known[c as usize] = 0;
                        s.well.push(c);
                    }
                    sort_cards(&mut s.well);
                    return;
                }
            }
            // Done, or nothing left to take: the rest of this effect gets
            // nothing (§4.11), Roulette's remaining draws included.
            let short = left > 0;
            match then {
                Then::Finish => {
                    let v = s.victim;
                    self.finish(s, v, false);
                }
                Then::SowPlace => {
                    let n = s.hands[s.active as usize].len().min(2) as u8;
                    if n == 0 {
                        self.finish(s, NONE, false);
                    } else {
                        s.phase = Phase::SowPlace(n);
                    }
                }
                Then::RouletteDraw(0) => self.finish(s, NONE, false),
                Then::RouletteDraw(_) if short => self.finish(s, NONE, false),
                Then::RouletteDraw(n) => s.phase = Phase::RouletteDraw(n),
                Then::DestinyPlace => {
                    if s.aside.is_empty() {
                        self.finish(s, NONE, false);
                    } else {
                        s.phase = Phase::DestinyPlace(0);
                    }
                }
                Then::EndTurn => self.end_turn(s),
            }
        }
    }

    /// Sanity check used by tests: every card id is in exactly one place.
    pub fn conserved(s: &State) -> bool {
        let mut seen = [0u8; NCARDS];
        let mut mark = |c: u8| {
            if (c as usize) < NCARDS {
                seen[c as usize] += 1;
            }
        };
        for p in 0..4 {
            s.hands[p].iter().for_each(|&c| mark(c));
            s.decks[p].iter().for_each(|&c| mark(c));
            s.futures[p].iter().for_each(|&c| mark(c));
            s.deeds[p].iter().for_each(|&c| mark(c));
        }
        s.ruins.iter().for_each(|&c| mark(c));
        s.well.iter().for_each(|&c| mark(c));
        s.well_top.iter().for_each(|&c| mark(c));
        s.aside.iter().for_each(|&c| mark(c));
        if s.center != NONE {
            mark(s.center);
        }
        seen.iter().all(|&n| n == 1)
    }
}

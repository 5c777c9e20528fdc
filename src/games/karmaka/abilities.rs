//! The abilities (spec §4.6 and §4.9): starting a played or copied ability,
//! its targeted effects, the end of a resolution chain, and the karmic offer.

use super::Karmaka;
use super::cards::Ability;
use super::state::{Dest, NONE, Phase, State, Then, bit};

impl Karmaka {
    /// Next rival clockwise after `after`, stopping before coming back to `actor`.
    pub(super) fn next_rival(&self, actor: u8, after: u8) -> Option<u8> {
        let n = self.players;
        let mut q = (after + 1) % n;
        while q != actor {
            if self.is_rival(actor, q) {
                return Some(q);
            }
            q = (q + 1) % n;
        }
        None
    }

    /// Begins resolving the ability of card type `t` for the active player
    /// (a played card or a copy).
    pub(crate) fn start_ability(&self, s: &mut State, t: u8) {
        let a = s.active;
        let au = a as usize;
        let ty = &self.cards.types[t as usize];
        s.resolving = t;
        s.effect = false;
        if ty.ability.targeted() {
            if self.target_mask(a, ty.who) == 0 {
                self.finish(s, NONE, false);
            } else {
                s.phase = Phase::Target(t);
            }
            return;
        }
        match ty.ability {
            Ability::Mimic => {
                if s.chain & 2 != 0 {
                    return self.void(s);
                }
                s.chain |= 2;
                if self.mimic_mask(s, a) == 0 {
                    return self.void(s);
                }
                s.phase = Phase::MimicSource;
            }
            Ability::Embody => {
                if s.chain & 1 != 0 || s.deeds[au].is_empty() {
                    s.chain |= 1;
                    return self.void(s);
                }
                s.chain |= 1;
                s.phase = Phase::EmbodyPick;
            }
            Ability::Denial => {
                if s.hands[au].is_empty() {
                    return self.void(s);
                }
                s.phase = Phase::DenialPick;
            }
            Ability::Roulette => {
                s.phase = if s.hands[au].is_empty() {
                    Phase::RouletteDraw(1)
                } else {
                    Phase::RouletteRuin(0)
                };
            }
            Ability::Transmigrate => {
                if s.futures[au].is_empty() {
                    self.finish(s, NONE, false);
                } else {
                    s.phase = Phase::TransPick;
                }
            }
            Ability::Destiny => s.phase = Phase::Drawing(Dest::Aside, 3, Then::DestinyPlace),
            Ability::AnotherDay => s.phase = Phase::Drawing(Dest::Hand(a), 1, Then::Finish),
            Ability::Voyage => s.phase = Phase::Drawing(Dest::Hand(a), 3, Then::Finish),
            Ability::Sowing => s.phase = Phase::Drawing(Dest::Hand(a), 2, Then::SowPlace),
            Ability::Recycle | Ability::Salvage => {
                if s.ruins.is_empty() {
                    self.finish(s, NONE, false);
                } else {
                    s.phase = Phase::RuinPick(ty.ability == Ability::Recycle);
                }
            }
            Ability::Jubilee => {
                if s.hands[au].is_empty() {
                    self.finish(s, NONE, false);
                } else {
                    s.phase = Phase::JubileePick(2);
                }
            }
            _ => unreachable!("targeted abilities are handled above"),
        }
    }

    /// The ability of type `t` aimed at player `x`.
    pub(super) fn targeted(&self, s: &mut State, t: u8, x: u8) {
        let a = s.active;
        let xu = x as usize;
        match self.cards.types[t as usize].ability {
            Ability::Panic => {
                let hit = s.decks[xu].pop();
                if let Some(c) = hit {
                    Self::ruin(s, c);
                }
                self.finish(s, x, hit.is_some());
            }
            Ability::Dwindle => {
                if s.hands[xu].is_empty() {
                    self.finish(s, x, false);
                } else {
                    s.phase = Phase::DwindlePick(x);
                }
            }
            Ability::Crisis => {
                if s.deeds[xu].is_empty() {
                    self.finish(s, x, false);
                } else {
                    s.phase = Phase::CrisisPick(x);
                }
            }
            Ability::HellsHeart => {
                let mut hit = false;
                for _ in 0..2 {
                    if let Some(c) = s.futures[xu].pop() {
                        Self::ruin(s, c);
                        hit = true;
                    }
                }
                self.finish(s, x, hit);
            }
            Ability::Vengeance => {
                let hit = s.deeds[xu].pop();
                if let Some(c) = hit {
                    Self::ruin(s, c);
                }
                self.finish(s, x, hit.is_some());
            }
            Ability::Spite => {
                let m = s.hands[xu].len().min(2) as u8;
                if m == 0 {
                    self.finish(s, x, false);
                } else {
                    s.phase = Phase::SpiteChance(x, m);
                }
            }
            Ability::Peek => {
                for i in 0..s.hands[xu].len() {
                    let c = s.hands[xu][i] as usize;
                    s.known[c] |= bit(a);
                }
                let hit = !s.hands[xu].is_empty();
                self.finish(s, x, hit);
            }
            Ability::StolenDreams => {
                let hit = s.futures[xu].pop();
                if let Some(c) = hit {
                    s.known[c as usize] |= bit(a);
                    s.futures[a as usize].push(c);
                }
                self.finish(s, x, hit.is_some());
            }
            Ability::Thievery => {
                let hit = s.deeds[xu].pop();
                if let Some(c) = hit {
                    Self::to_hand(s, a, c);
                }
                self.finish(s, x, hit.is_some());
            }
            Ability::Swindle => {
                let m = s.hands[xu].len().min(3) as u8;
                if m == 0 {
                    self.finish(s, x, false);
                } else {
                    s.phase = Phase::SwindleChance(x, m);
                }
            }
            Ability::Longevity => {
                s.victim = x;
                s.phase = Phase::Drawing(Dest::Deck(x), 2, Then::Finish);
            }
            other => unreachable!("{other:?} takes no target"),
        }
    }

    /// A copy that could not run (no Deed, a loop, an empty Hand): no victim, no bonus.
    fn void(&self, s: &mut State) {
        s.victim = NONE;
        self.offer(s, false);
    }

    /// The ability being resolved is done; `effect` says whether it did anything.
    pub(crate) fn finish(&self, s: &mut State, victim: u8, effect: bool) {
        s.victim = victim;
        s.effect |= effect;
        if !self.switches.embody_victim && s.chain & 1 != 0 {
            s.victim = NONE;
        }
        let ty = &self.cards.types[s.resolving as usize];
        let bonus = ty.bonus && (s.effect || self.switches.bonus_when_void);
        self.offer(s, bonus);
    }

    /// Starts the karmic offer of the center card (spec §4.7); the bonus play,
    /// if any, waits until the offer is settled.
    fn offer(&self, s: &mut State, bonus: bool) {
        s.bonus = bonus;
        s.effect = false;
        let a = s.active;
        if s.victim != NONE && self.is_rival(a, s.victim) {
            s.phase = Phase::Offer(s.victim, true);
        } else {
            match self.next_rival(a, a) {
                Some(r) => s.phase = Phase::Offer(r, false),
                None => {
                    let c = s.center;
                    s.center = NONE;
                    Self::ruin(s, c);
                    self.after_offer(s);
                }
            }
        }
    }

    pub(super) fn after_offer(&self, s: &mut State) {
        let bonus = s.bonus;
        s.bonus = false;
        s.chain = 0;
        if bonus && !s.hands[s.active as usize].is_empty() {
            let n = &mut s.tally.bonus_granted[s.active as usize];
            *n = n.saturating_add(1);
            s.phase = Phase::Bonus;
        } else {
            self.end_turn(s);
        }
    }

    pub(super) fn destiny_return(&self, s: &mut State) {
        if s.aside.len() >= 2 {
            s.phase = Phase::DestinyReturn;
            return;
        }
        if let Some(c) = s.aside.pop() {
            s.known[c as usize] = bit(s.active);
            s.well_top.push(c);
        }
        self.finish(s, NONE, true);
    }
}

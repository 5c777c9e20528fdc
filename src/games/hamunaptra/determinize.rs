//! Hidden information (spec §5): the observer's view and resampling.
//!
//! The info key is the state with everything the observer cannot see
//! blanked: other hands and face-down equipment become `NONE` placeholders
//! of the right length, the pile keeps only its size, and a trade offer
//! between two other players hides its card. Cards the observer saw go into
//! another hand in a trade, and has not seen leave, stay in that hand's
//! key (spec §5.4 item 4); what the other seats know of each other's hands
//! is blanked. Determinization starts from that key alone, so its result
//! depends only on what the observer knows.

use super::Hamunaptra;
use super::data::KindClass;
use super::state::{NONE, State};
use crate::game::PlayerId;
use crate::rng::{GameRng, below};

/// A view before its unknown cards are dealt ([`Hamunaptra::undealt`]).
#[derive(Clone, Debug)]
pub struct Undealt {
    view: State,
    observer: PlayerId,
    equip: Vec<u8>,
    other: Vec<u8>,
}

/// The cards [`Hamunaptra::deal`] shuffles, kept between deals.
#[derive(Clone, Debug, Default)]
pub struct Scratch {
    equip: Vec<u8>,
    other: Vec<u8>,
}

impl Hamunaptra {
    /// The observer's view of `s`.
    pub fn mask(&self, s: &State, observer: PlayerId) -> State {
        let mut m = s.clone();
        for q in 0..self.players {
            if q == observer {
                continue;
            }
            let known = s.known.of(observer, q);
            let pl = &mut m.players[q as usize];
            let len = pl.hand.len();
            pl.hand.clear();
            for (k, &n) in known.iter().enumerate() {
                for _ in 0..n {
                    pl.hand.push(k as u8);
                }
            }
            while pl.hand.len() < len {
                pl.hand.push(NONE);
            }
            for x in pl.table.iter_mut() {
                *x = NONE;
            }
            pl.discarded = [0; 64];
            for r in 0..self.players {
                if r != observer {
                    m.known.forget(q, r);
                }
            }
        }
        let partner = observer == m.seat || observer == m.trade_to;
        if !partner {
            for x in m.give.iter_mut().chain(m.back.iter_mut()) {
                *x = NONE;
            }
        }
        m.pile = [0; 64];
        if let Some((to, card)) = m.offer {
            let knows = observer == m.seat || observer == to;
            m.offer = Some((to, if knows { card } else { NONE }));
        }
        m
    }

    /// Copies of each card kind whose location the masked state does not show.
    fn unknown_pool(&self, m: &State) -> [u8; 64] {
        let mut pool = [0u8; 64];
        let n = self.comps.kinds();
        pool[..n].copy_from_slice(&self.comps.kind_count[..n]);
        let mut take = |k: u8| {
            if (k as usize) < pool.len() && pool[k as usize] > 0 {
                pool[k as usize] -= 1;
            }
        };
        for k in 0..self.comps.kinds() {
            for _ in 0..m.gone[k] {
                take(k as u8);
            }
        }
        for cell in m.cells.iter() {
            if cell.tile != 0 && (cell.tile as usize) <= self.comps.pile_tile_types {
                take(cell.tile - 1);
            }
            if cell.enc != 0 {
                take(self.comps.foe_kind(cell.enc - 1));
            }
        }
        for ch in &m.chars {
            if ch.active != NONE {
                take(self.comps.equip_kind(ch.active));
            }
        }
        if m.sel_card != NONE {
            take(m.sel_card);
        }
        if let Some((_, card)) = m.offer.filter(|o| o.1 != NONE) {
            take(card);
        }
        for &k in m.give.iter().chain(m.back.iter()) {
            if k != NONE {
                take(k);
            }
        }
        for p in m.players.iter() {
            for (k, &n) in p.discarded.iter().enumerate() {
                for _ in 0..n {
                    take(k as u8);
                }
            }
            for &k in &p.hand {
                if k != NONE {
                    take(k);
                }
            }
            for &e in &p.table {
                if e != NONE {
                    take(self.comps.equip_kind(e));
                }
            }
        }
        pool
    }

    /// A full state consistent with the observer's view, hidden cards redealt.
    pub fn determinize_state(&self, s: &State, observer: PlayerId, rng: &mut GameRng) -> State {
        let mut scratch = Scratch::default();
        self.deal(&self.undealt(s, observer), rng, &mut scratch)
    }

    /// What every determinization for `observer` starts from: the view and
    /// its unknown cards, equipment and the rest, in kind order. It depends
    /// only on the state and observer, so a search works it out once.
    pub fn undealt(&self, s: &State, observer: PlayerId) -> Undealt {
        let view = self.mask(s, observer);
        let pool = self.unknown_pool(&view);
        // Canonical order: by kind.
        let mut equip: Vec<u8> = Vec::new();
        let mut other: Vec<u8> = Vec::new();
        for (k, &n) in pool.iter().enumerate() {
            for _ in 0..n {
                if matches!(self.comps.class(k as u8), KindClass::Equip(_)) {
                    equip.push(k as u8);
                } else {
                    other.push(k as u8);
                }
            }
        }
        Undealt {
            view,
            observer,
            equip,
            other,
        }
    }

    /// The unknown cards of `u` shuffled and dealt into its unknown places;
    /// `scratch` holds the shuffled cards, so repeated deals do not allocate.
    pub fn deal(&self, u: &Undealt, rng: &mut GameRng, scratch: &mut Scratch) -> State {
        let observer = u.observer;
        let mut m = u.view.clone();
        let Scratch { equip, other } = scratch;
        equip.clone_from(&u.equip);
        other.clone_from(&u.other);
        shuffle(equip, rng);
        // Face-down table slots take equipment only.
        for q in 0..self.players as usize {
            let n = m.players[q].table.iter().filter(|&&x| x == NONE).count();
            if n == 0 {
                continue;
            }
            m.players[q].table.retain(|x| *x != NONE);
            for _ in 0..n {
                let k = equip.pop().expect("enough equipment for face-down slots");
                let KindClass::Equip(e) = self.comps.class(k) else {
                    unreachable!()
                };
                m.players[q].table.push(e);
            }
            m.players[q].table.sort_unstable();
        }
        other.extend_from_slice(equip);
        other.sort_unstable();
        shuffle(other, rng);
        for q in 0..self.players as usize {
            let n = m.players[q].hand.iter().filter(|&&x| x == NONE).count();
            if n == 0 {
                continue;
            }
            m.players[q].hand.retain(|x| *x != NONE);
            for _ in 0..n {
                m.players[q]
                    .hand
                    .push(other.pop().expect("enough cards for hands"));
            }
            m.players[q].hand.sort_unstable();
        }
        for x in m.give.iter_mut().chain(m.back.iter_mut()) {
            if *x == NONE {
                *x = other.pop().expect("a card for the trade");
            }
        }
        m.give.sort_unstable();
        m.back.sort_unstable();
        for q in 0..self.players as usize {
            if q as u8 == observer {
                continue;
            }
            for _ in 0..m.players[q].ndisc {
                let k = other.pop().expect("a card for the discards");
                m.players[q].discarded[k as usize] += 1;
            }
        }
        if let Some((to, NONE)) = m.offer {
            m.offer = Some((to, other.pop().expect("a card for the offer")));
        }
        for &k in other.iter() {
            m.pile[k as usize] += 1;
        }
        debug_assert_eq!(
            m.pile.iter().map(|&x| u16::from(x)).sum::<u16>(),
            m.pile_len,
            "pile size preserved"
        );
        m
    }
}

fn shuffle(v: &mut [u8], rng: &mut GameRng) {
    for i in (1..v.len()).rev() {
        let j = below(rng, i + 1);
        v.swap(i, j);
    }
}

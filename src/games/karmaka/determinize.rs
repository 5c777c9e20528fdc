//! What one observer knows (the info key) and determinization (spec §5).
//!
//! The view is the state with every card the observer does not know replaced
//! by `NONE`; a Hand is shown as its known cards (sorted) followed by one
//! `NONE` per unknown card, since a Hand has no order. Determinization starts
//! from that view only, so its result cannot depend on anything hidden: the
//! unknown cards are collected in id order, shuffled, and dealt into the
//! unknown slots.

use arrayvec::ArrayVec;

use super::Karmaka;
use super::cards::NCARDS;
use super::state::{NONE, Phase, Pile, State, bit};
use crate::rng::{GameRng, shuffle};

/// Everything an observer knows: the masked state.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct InfoKey {
    /// The observer.
    pub observer: u8,
    /// The state with unknown cards replaced by `NONE`.
    pub view: State,
}

fn mask_pile(pile: &mut Pile, known: &[u8; NCARDS], b: u8) {
    for c in pile.iter_mut() {
        if known[*c as usize] & b == 0 {
            *c = NONE;
        }
    }
}

fn mask_small(pile: &mut ArrayVec<u8, 3>, known: &[u8; NCARDS], b: u8) {
    for c in pile.iter_mut() {
        if known[*c as usize] & b == 0 {
            *c = NONE;
        }
    }
}

impl Karmaka {
    /// The state as `o` sees it.
    pub fn view(&self, s: &State, o: u8) -> State {
        let b = bit(o);
        let mut v = s.clone();
        for p in 0..self.players as usize {
            let hidden = s.hands[p]
                .iter()
                .filter(|&&c| s.known[c as usize] & b == 0)
                .count();
            v.hands[p].retain(|c| s.known[*c as usize] & b != 0);
            for _ in 0..hidden {
                v.hands[p].push(NONE);
            }
            mask_pile(&mut v.decks[p], &s.known, b);
            mask_pile(&mut v.futures[p], &s.known, b);
        }
        mask_pile(&mut v.well, &s.known, b);
        mask_small(&mut v.well_top, &s.known, b);
        mask_small(&mut v.aside, &s.known, b);
        for c in v.known.iter_mut() {
            if *c & b == 0 {
                *c = 0;
            }
        }
        v
    }

    /// A full state consistent with `o`'s view, hidden cards resampled
    /// uniformly. Cards filled in are known only to the owner of the Hand or
    /// Future Life they land in (third-party knowledge of unseen cards is
    /// dropped, as the observer cannot tell what it was).
    pub fn determinize_for(&self, s: &State, o: u8, rng: &mut GameRng) -> State {
        let mut v = self.view(s, o);
        let mut present = [false; NCARDS];
        let mut note = |pile: &[u8]| {
            for &c in pile {
                if c != NONE {
                    present[c as usize] = true;
                }
            }
        };
        for p in 0..self.players as usize {
            note(&v.hands[p]);
            note(&v.decks[p]);
            note(&v.futures[p]);
            note(&v.deeds[p]);
        }
        note(&v.ruins);
        note(&v.well);
        note(&v.well_top);
        note(&v.aside);
        if v.center != NONE {
            present[v.center as usize] = true;
        }
        let mut pool: Pile = (0..NCARDS as u8)
            .filter(|&c| !present[c as usize])
            .collect();
        shuffle(rng, &mut pool);
        let aside_mask = bit(v.active)
            | match v.phase {
                Phase::SwindleChance(x, _) | Phase::SwindleTake(x) => bit(x),
                _ => 0,
            };
        let mut fill = |pile: &mut [u8], known: &mut [u8; NCARDS], mask: u8| {
            for c in pile.iter_mut() {
                if *c == NONE {
                    *c = pool.pop().expect("as many unknown cards as unknown slots");
                    known[*c as usize] = mask;
                }
            }
        };
        for p in 0..self.players as usize {
            fill(&mut v.hands[p], &mut v.known, bit(p as u8));
            v.hands[p].sort_unstable();
            fill(&mut v.decks[p], &mut v.known, 0);
            fill(&mut v.futures[p], &mut v.known, bit(p as u8));
        }
        fill(&mut v.well_top, &mut v.known, 0);
        fill(&mut v.aside, &mut v.known, aside_mask);
        fill(&mut v.well, &mut v.known, 0);
        v.well.sort_unstable();
        v
    }
}

//! What one observer knows (the info key) and determinization (spec §5).
//!
//! The view is the state with every card the observer does not know replaced
//! by `NONE`; a Hand is shown as its known cards (sorted) followed by one
//! `NONE` per unknown card, since a Hand has no order. Determinization starts
//! from that view only, so its result cannot depend on anything hidden: the
//! unknown cards are collected in id order, shuffled, and dealt into the
//! unknown slots. Who else knows each unknown slot (a rival who peeked at a
//! Hand, a Destiny player who knows a dealt Deck card) is public and part of
//! the key, and the resampled cards inherit it. The play counters of the
//! tally keep the card type of a face-down play only for those who saw it.

use arrayvec::ArrayVec;

use super::Karmaka;
use super::cards::NCARDS;
use super::state::{NONE, Pile, State, Tally, bit};
use crate::rng::{GameRng, shuffle};

/// Everything an observer knows: the masked state.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct InfoKey {
    /// The observer.
    pub observer: u8,
    /// The state with unknown cards replaced by `NONE`.
    pub view: State,
    /// Who knows each unknown slot, in the canonical slot order.
    pub hidden: Masks,
}

/// Knowledge masks of the unknown slots, in canonical slot order: per seat
/// the Hand (sorted, as a Hand has no order), Deck and Future Life, then the
/// Well top, the aside cards and the Well pool.
pub type Masks = ArrayVec<u8, NCARDS>;

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
        self.view_masks(s, o).0
    }

    /// The view plus who knows each slot unknown to `o`.
    pub fn view_masks(&self, s: &State, o: u8) -> (State, Masks) {
        let b = bit(o);
        let mut v = s.clone();
        let mut masks = Masks::new();
        let unknown = |c: u8| s.known[c as usize] & b == 0;
        let push_positional = |pile: &[u8], masks: &mut Masks| {
            for &c in pile {
                if unknown(c) {
                    masks.push(s.known[c as usize]);
                }
            }
        };
        for p in 0..self.players as usize {
            let mut hm: Masks = s.hands[p]
                .iter()
                .filter(|&&c| unknown(c))
                .map(|&c| s.known[c as usize])
                .collect();
            hm.sort_unstable();
            let hidden = hm.len();
            masks.extend(hm);
            v.hands[p].retain(|c| !unknown(*c));
            for _ in 0..hidden {
                v.hands[p].push(NONE);
            }
            push_positional(&s.decks[p], &mut masks);
            push_positional(&s.futures[p], &mut masks);
            mask_pile(&mut v.decks[p], &s.known, b);
            mask_pile(&mut v.futures[p], &s.known, b);
        }
        push_positional(&s.well_top, &mut masks);
        push_positional(&s.aside, &mut masks);
        push_positional(&s.well, &mut masks);
        mask_pile(&mut v.well, &s.known, b);
        mask_small(&mut v.well_top, &s.known, b);
        mask_small(&mut v.aside, &s.known, b);
        for c in v.known.iter_mut() {
            if *c & b == 0 {
                *c = 0;
            }
        }
        self.strip_tally(&mut v.tally, o);
        (v, masks)
    }

    /// Clears the per-type counts of face-down plays (modes C and D) that
    /// `o` did not see: the player saw its own, the receiving ally a mode D
    /// card, nobody else the type. The true state keeps them for `metrics`.
    fn strip_tally(&self, t: &mut Tally, o: u8) {
        for p in 0..self.players {
            let counts = &mut t.played[p as usize];
            if p != o {
                counts.iter_mut().for_each(|c| c[2] = 0);
            }
            if p != o && self.ally(p) != Some(o) {
                counts.iter_mut().for_each(|c| c[3] = 0);
            }
        }
    }

    /// A full state consistent with `o`'s view, hidden cards resampled
    /// uniformly; each filled slot keeps who knew that slot.
    pub fn determinize_for(&self, s: &State, o: u8, rng: &mut GameRng) -> State {
        let (mut v, masks) = self.view_masks(s, o);
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
        let mut next_mask = masks.iter().copied();
        let mut fill = |pile: &mut [u8], known: &mut [u8; NCARDS]| {
            for c in pile.iter_mut() {
                if *c == NONE {
                    *c = pool.pop().expect("as many unknown cards as unknown slots");
                    known[*c as usize] = next_mask.next().expect("a mask per unknown slot");
                }
            }
        };
        for p in 0..self.players as usize {
            fill(&mut v.hands[p], &mut v.known);
            v.hands[p].sort_unstable();
            fill(&mut v.decks[p], &mut v.known);
            fill(&mut v.futures[p], &mut v.known);
        }
        fill(&mut v.well_top, &mut v.known);
        fill(&mut v.aside, &mut v.known);
        fill(&mut v.well, &mut v.known);
        v.well.sort_unstable();
        v
    }
}

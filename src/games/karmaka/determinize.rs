//! What one observer knows (the info key) and determinization (spec §5).
//!
//! The view is the state with every card the observer does not know replaced
//! by `NONE`; an unordered pile (Hand, cards aside, Well pool) is shown as its
//! known cards followed by one `NONE` per unknown card. The view numbers the
//! copies of each type canonically (`renumber`), so it never depends on which
//! copy of a type is where. Determinization starts from that view only, so its
//! result cannot depend on anything hidden: the unknown cards are collected in
//! id order, shuffled, and dealt into the unknown slots. Who else knows each
//! unknown slot (a rival who peeked at a Hand, a Destiny player who knows a
//! dealt Deck card) is public and part of the key, and the resampled cards
//! inherit it. The play counters of the tally keep the card type of a
//! face-down play only for those who saw it.

use arrayvec::ArrayVec;

use super::Karmaka;
use super::cards::NCARDS;
use super::state::{MAXP, NONE, Pile, State, Tally, bit, sort_cards};
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

/// A view before its unknown cards are dealt ([`Karmaka::undealt`]).
#[derive(Clone, Debug)]
pub struct Undealt {
    view: State,
    masks: Masks,
    pool: Pile,
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

/// An unordered pile as the observer with bit `b` sees it: its known cards,
/// then one `NONE` per unknown card; the unknown cards' knowledge masks go
/// to `masks`, sorted, as the slots have no order.
fn mask_unordered<const N: usize>(
    view: &mut ArrayVec<u8, N>,
    pile: &[u8],
    known: &[u8; NCARDS],
    b: u8,
    masks: &mut Masks,
) {
    let at = masks.len();
    for &c in pile {
        if known[c as usize] & b == 0 {
            masks.push(known[c as usize]);
        }
    }
    masks[at..].sort_unstable();
    let hidden = masks.len() - at;
    view.retain(|c| known[*c as usize] & b != 0);
    for _ in 0..hidden {
        view.push(NONE);
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
        let push_positional = |pile: &[u8], masks: &mut Masks| {
            for &c in pile {
                if s.known[c as usize] & b == 0 {
                    masks.push(s.known[c as usize]);
                }
            }
        };
        for p in 0..self.players as usize {
            mask_unordered(&mut v.hands[p], &s.hands[p], &s.known, b, &mut masks);
            push_positional(&s.decks[p], &mut masks);
            push_positional(&s.futures[p], &mut masks);
            mask_pile(&mut v.decks[p], &s.known, b);
            mask_pile(&mut v.futures[p], &s.known, b);
        }
        push_positional(&s.well_top, &mut masks);
        for c in v.well_top.iter_mut() {
            if s.known[*c as usize] & b == 0 {
                *c = NONE;
            }
        }
        mask_unordered(&mut v.aside, &s.aside, &s.known, b, &mut masks);
        mask_unordered(&mut v.well, &s.well, &s.known, b, &mut masks);
        for c in v.known.iter_mut() {
            if *c & b == 0 {
                *c = 0;
            }
        }
        self.strip_tally(&mut v.tally, o);
        self.renumber(&mut v);
        (v, masks)
    }

    /// Numbers the copies of each card type that a view shows canonically,
    /// so that a view never depends on which copy of a type is where: the
    /// shown copies of a type get the type's lowest ids in a fixed order of
    /// places (per seat the Hand, Deck, Future Life and Deeds; then the
    /// Ruins, the Well top, the cards aside, the centre and the Well pool),
    /// along each ordered pile from the bottom, and in the unordered ones
    /// (Hand, aside, Well pool) by type and then by who knows each card.
    /// The ids left over are those of the unknown copies.
    fn renumber(&self, v: &mut State) {
        let mut map = [NONE; NCARDS];
        let mut next = self.cards.first;
        let known = v.known;
        let mut assign = |pile: &[u8], unordered: bool| {
            let mut order: ArrayVec<u8, NCARDS> =
                pile.iter().copied().filter(|&c| c != NONE).collect();
            if unordered {
                order.sort_unstable_by_key(|&c| (self.kind(c), known[c as usize], c));
            }
            for c in order {
                let t = self.kind(c) as usize;
                map[c as usize] = next[t];
                next[t] += 1;
            }
        };
        for p in 0..MAXP {
            assign(&v.hands[p], true);
            assign(&v.decks[p], false);
            assign(&v.futures[p], false);
            assign(&v.deeds[p], false);
        }
        assign(&v.ruins, false);
        assign(&v.well_top, false);
        assign(&v.aside, true);
        assign(&[v.center], false);
        assign(&v.well, true);
        let rename = |pile: &mut [u8]| {
            for c in pile.iter_mut().filter(|c| **c != NONE) {
                *c = map[*c as usize];
            }
        };
        for p in 0..MAXP {
            rename(&mut v.hands[p]);
            v.hands[p].sort_unstable();
            rename(&mut v.decks[p]);
            rename(&mut v.futures[p]);
            rename(&mut v.deeds[p]);
        }
        rename(&mut v.ruins);
        rename(&mut v.well_top);
        rename(&mut v.aside);
        v.aside.sort_unstable();
        rename(core::slice::from_mut(&mut v.center));
        rename(&mut v.well);
        v.well.sort_unstable();
        v.known = [0; NCARDS];
        for (c, &to) in map.iter().enumerate() {
            if to != NONE {
                v.known[to as usize] = known[c];
            }
        }
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
        self.deal(&self.undealt(s, o), rng)
    }

    /// What every determinization for `o` starts from: the view, who knows
    /// each unknown slot, and the unknown cards in id order. It depends only
    /// on the state and observer, so a search works it out once.
    pub fn undealt(&self, s: &State, o: u8) -> Undealt {
        let (view, masks) = self.view_masks(s, o);
        let mut present = [false; NCARDS];
        let mut note = |pile: &[u8]| {
            for &c in pile {
                if c != NONE {
                    present[c as usize] = true;
                }
            }
        };
        let v = &view;
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
        let pool: Pile = (0..NCARDS as u8)
            .filter(|&c| !present[c as usize])
            .collect();
        Undealt { view, masks, pool }
    }

    /// The unknown cards of `u` shuffled and dealt into its unknown slots.
    pub fn deal(&self, u: &Undealt, rng: &mut GameRng) -> State {
        let mut v = u.view.clone();
        let mut pool = u.pool.clone();
        let masks = &u.masks;
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
            sort_cards(&mut v.hands[p]);
            fill(&mut v.decks[p], &mut v.known);
            fill(&mut v.futures[p], &mut v.known);
        }
        fill(&mut v.well_top, &mut v.known);
        fill(&mut v.aside, &mut v.known);
        sort_cards(&mut v.aside);
        fill(&mut v.well, &mut v.known);
        sort_cards(&mut v.well);
        v
    }
}

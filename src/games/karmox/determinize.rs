//! Hidden information (spec 5): the identities of other sides' unrevealed
//! mission cards and of the deck's unknown part. The information key masks
//! them; determinization deals the unseen cards, collected in card order and
//! shuffled, into the unknown slots, so it depends only on the key and the rng.

use arrayvec::ArrayVec;

use crate::game::PlayerId;
use crate::rng::{GameRng, shuffle};

use super::Karmox;
use super::data::MAX_MISSIONS;
use super::state::State;

/// Marker for a card identity the observer cannot see.
pub const HIDDEN: u8 = u8::MAX;

/// What one observer knows: the public state with hidden card identities
/// masked, plus the observer's side.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct InfoKey {
    /// Observer's side.
    pub side: u8,
    /// Number of cards in the deck's unknown part.
    pub deck_unknown: u32,
    /// The state with other sides' secret cards masked and the unknown deck cleared.
    pub view: State,
}

impl Karmox {
    /// The information key of `observer`.
    pub fn info(&self, s: &State, observer: PlayerId) -> InfoKey {
        let side = self.seat_side[observer as usize];
        let mut view = s.clone();
        for (x, pile) in view.piles.iter_mut().enumerate() {
            if x != side as usize {
                for card in pile.iter_mut().filter(|c| !c.public) {
                    card.id = HIDDEN;
                }
            }
        }
        view.deck_unknown = 0;
        InfoKey {
            side,
            deck_unknown: s.deck_unknown.count_ones(),
            view,
        }
    }

    /// A state consistent with the observer's knowledge, the unseen cards resampled.
    pub fn determinize_state(&self, s: &State, observer: PlayerId, rng: &mut GameRng) -> State {
        let side = self.seat_side[observer as usize] as usize;
        let mut seen = 0u64;
        for (x, pile) in s.piles.iter().enumerate() {
            for c in pile {
                if x == side || c.public {
                    seen |= 1 << c.id;
                }
            }
        }
        for &c in &s.deck_known {
            seen |= 1 << c;
        }
        let mut pool: ArrayVec<u8, MAX_MISSIONS> = (0..self.c.missions.len() as u8)
            .filter(|&c| seen & (1 << c) == 0)
            .collect();
        shuffle(rng, &mut pool);
        let mut out = s.clone();
        let mut next = pool.iter();
        for (x, pile) in out.piles.iter_mut().enumerate() {
            if x != side {
                for card in pile.iter_mut().filter(|c| !c.public) {
                    card.id = *next.next().expect("enough unseen cards");
                }
            }
        }
        out.deck_unknown = next.fold(0, |m, &c| m | 1 << c);
        out
    }
}

//! Integer actions and observation tensors (see [`crate::game::encoding`]).
//!
//! Actions: the player actions keep OpenSpiel's numbers (Kuhn: 0 pass,
//! 1 bet; Leduc: 0 fold, 1 call, 2 raise), and the chance outcomes (the card
//! dealt) follow them: Kuhn 2 + card (5 in all), Leduc 3 + card (9 in all).
//!
//! Observations, from the seat's information key only:
//! * Kuhn (11): the seat one-hot (2), its card one-hot (3), the betting
//!   history, each of 3 slots one-hot pass / bet (6).
//! * Leduc (40): the seat one-hot (2), its card one-hot (6), the public card
//!   one-hot (6), the betting of each round, 4 slots one-hot fold / call /
//!   raise (24), and each seat's chips in the pot over 13 (2).
//!
//! Information state tensors (perfect recall), in OpenSpiel's layouts for
//! `kuhn_poker` and `leduc_poker`, checked against pyspiel in
//! `python/tests/test_openspiel.py`:
//! * Kuhn (11): the observation, which holds the whole betting.
//! * Leduc (30): the seat one-hot (2), its card (6), the public card (6), each
//!   round's 4 betting slots as two flags, call `1 0`, raise `0 1` (16).

use super::kuhn::{self, Kuhn};
use super::leduc::{self, Leduc};
use crate::game::encoding::{Encode, one_hot};
use crate::game::{PlayerId, Rules, Turn};

/// Player actions first, then the deal's card outcomes.
fn index(chance: bool, moves: u32, action: u8) -> u32 {
    if chance {
        moves + u32::from(action)
    } else {
        u32::from(action)
    }
}

/// The inverse of [`index`]: an index names a move or a card, whatever the state.
fn decode(moves: u32, cards: u32, i: u32) -> Option<u8> {
    if i < moves {
        Some(i as u8)
    } else if i < moves + cards {
        Some((i - moves) as u8)
    } else {
        None
    }
}

/// The betting of one round: `slots` entries one-hot over `kinds` actions.
fn history(out: &mut Vec<f32>, actions: &[u8], slots: usize, kinds: usize) {
    for slot in 0..slots {
        match actions.get(slot) {
            Some(&a) => one_hot(out, usize::from(a), kinds),
            None => out.extend(std::iter::repeat_n(0.0, kinds)),
        }
    }
}

/// A card one-hot, all zero while it is not dealt or not visible.
fn card(out: &mut Vec<f32>, c: u8, deck: usize) {
    if usize::from(c) < deck {
        one_hot(out, usize::from(c), deck);
    } else {
        out.extend(std::iter::repeat_n(0.0, deck));
    }
}

impl Encode for Kuhn {
    fn num_distinct_actions(&self) -> u32 {
        5
    }
    fn action_index(&self, state: &kuhn::State, action: u8) -> u32 {
        index(self.turn(state) == Turn::Chance, 2, action)
    }
    fn action_from_index(&self, _state: &kuhn::State, i: u32) -> Option<u8> {
        decode(2, 3, i)
    }
    fn observation_shape(&self) -> Vec<usize> {
        vec![11]
    }
    fn observation_tensor(&self, state: &kuhn::State, player: PlayerId, out: &mut Vec<f32>) {
        out.clear();
        let key = self.info_key(state, player);
        one_hot(out, usize::from(player), 2);
        card(out, key.card, 3);
        history(out, &key.history, 3, 2);
    }
    fn information_string(&self, state: &kuhn::State, player: PlayerId) -> String {
        format!("seat {player} {:?}", self.info_key(state, player))
    }
    fn information_state_shape(&self) -> Option<Vec<usize>> {
        Some(vec![11])
    }
    /// The observation: it already holds the whole betting, and its layout is
    /// OpenSpiel's `kuhn_poker` information state tensor.
    fn information_state_tensor(&self, state: &kuhn::State, player: PlayerId, out: &mut Vec<f32>) {
        self.observation_tensor(state, player, out);
    }
}

impl Encode for Leduc {
    fn num_distinct_actions(&self) -> u32 {
        9
    }
    fn action_index(&self, state: &leduc::State, action: u8) -> u32 {
        index(self.turn(state) == Turn::Chance, 3, action)
    }
    fn action_from_index(&self, _state: &leduc::State, i: u32) -> Option<u8> {
        decode(3, 6, i)
    }
    fn observation_shape(&self) -> Vec<usize> {
        vec![40]
    }
    fn observation_tensor(&self, state: &leduc::State, player: PlayerId, out: &mut Vec<f32>) {
        out.clear();
        let key = self.info_key(state, player);
        one_hot(out, usize::from(player), 2);
        card(out, key.card, 6);
        card(out, key.public, 6);
        for round in &key.rounds {
            history(out, round, 4, 3);
        }
        // The chips in the pot follow from the public betting.
        out.extend(state.contrib.iter().map(|&c| f32::from(c) / 13.0));
    }
    fn information_string(&self, state: &leduc::State, player: PlayerId) -> String {
        format!("seat {player} {:?}", self.info_key(state, player))
    }
    fn information_state_shape(&self) -> Option<Vec<usize>> {
        Some(vec![30])
    }
    /// OpenSpiel's `leduc_poker` layout: the seat one-hot (2), its card (6),
    /// the public card (6), then each round's 4 betting slots as two flags,
    /// call `1 0` and raise `0 1` (a fold, which ends the hand, sets none).
    fn information_state_tensor(&self, state: &leduc::State, player: PlayerId, out: &mut Vec<f32>) {
        out.clear();
        let key = self.info_key(state, player);
        one_hot(out, usize::from(player), 2);
        card(out, key.card, 6);
        card(out, key.public, 6);
        for round in &key.rounds {
            for slot in 0..4 {
                let a = round.get(slot).copied();
                out.push(f32::from(u8::from(a == Some(leduc::CALL))));
                out.push(f32::from(u8::from(a == Some(leduc::RAISE))));
            }
        }
    }
}

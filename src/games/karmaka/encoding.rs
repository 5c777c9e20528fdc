//! Integer actions and observation tensors (see [`crate::game::encoding`]).
//!
//! Action indices, in blocks (T = 24 card-type slots, `MAX_TYPES`):
//! `Points(t)` 0.., `Ability(t)` T.., `Future(t)` 2T.., `AllyFuture(t)` 3T..,
//! `Pass` 4T, `Stop` 4T+1, `Target(p)` 4 slots, `Pick(t)` T, `Deed(i)` 64,
//! `Position(i)` 64, `Ruin(i)` 64, `Draw`, `Accept`, `Decline`, `Chance(t)` T;
//! 421 in all.
//!
//! Observation (flat, 549 numbers), from the observer's view (every card it
//! does not know masked, spec §5), seats listed from the observer clockwise
//! (absent seats all zero). Per seat, 106 numbers: cards in Hand, Deck, Future
//! Life, Deeds (4); rung one-hot (4 rungs and transcended: 5); karmic rings;
//! known cards by type in Hand, Future Life and Deeds (3 · T); the exposed
//! Deed's type one-hot (T). Then: Ruins size, Ruins by type (T), top Ruin's
//! type (T), Well size, known Well-top cards by type (T), aside cards by type
//! (T), the active seat one-hot (4, relative), the phase one-hot (22) and the
//! plies played over the cap (1).

use super::Karmaka;
use super::cards::{MAX_TYPES, NCARDS};
use super::state::{Action, NONE, Phase, State};
use crate::game::PlayerId;
use crate::game::encoding::{Blocks, Encode, one_hot, relative};

const T: u32 = MAX_TYPES as u32;
const N: u32 = NCARDS as u32;
const PER_SEAT: usize = 4 + 5 + 1 + 4 * MAX_TYPES;
const PHASES: usize = 22;

fn blocks() -> Blocks {
    Blocks::new(&[T, T, T, T, 1, 1, 4, T, N, N, N, 1, 1, 1, T])
}

fn phase_index(p: Phase) -> usize {
    match p {
        Phase::Main => 0,
        Phase::Bonus => 1,
        Phase::Target(_) => 2,
        Phase::MimicSource => 3,
        Phase::DenialPick => 4,
        Phase::EmbodyPick => 5,
        Phase::DwindlePick(_) => 6,
        Phase::CrisisPick(_) => 7,
        Phase::RouletteRuin(_) => 8,
        Phase::RouletteDraw(_) => 9,
        Phase::TransPick => 10,
        Phase::DestinyPlace(_) => 11,
        Phase::DestinyReturn => 12,
        Phase::SwindleTake(_) => 13,
        Phase::RuinPick(_) => 14,
        Phase::SowPlace(_) => 15,
        Phase::JubileePick(_) => 16,
        Phase::Offer(..) => 17,
        Phase::Drawing(..) => 18,
        Phase::SpiteChance(..) => 19,
        Phase::SwindleChance(..) => 20,
        Phase::Over => 21,
    }
}

impl Karmaka {
    /// Known cards of `pile` counted by type, appended as `MAX_TYPES` numbers.
    fn by_type(&self, out: &mut Vec<f32>, pile: &[u8]) {
        let at = out.len();
        out.resize(at + MAX_TYPES, 0.0);
        for &c in pile.iter().filter(|&&c| c != NONE) {
            out[at + usize::from(self.cards.kind[usize::from(c)])] += 1.0;
        }
    }

    fn type_one_hot(&self, out: &mut Vec<f32>, card: Option<&u8>) {
        let t = card
            .filter(|&&c| c != NONE)
            .map_or(MAX_TYPES, |&c| usize::from(self.cards.kind[usize::from(c)]));
        one_hot(out, t, MAX_TYPES);
    }
}

impl Encode for Karmaka {
    fn num_distinct_actions(&self) -> u32 {
        blocks().total()
    }

    fn action_index(&self, _state: &State, action: Action) -> u32 {
        let b = blocks();
        match action {
            Action::Points(t) => b.at(0, t.into()),
            Action::Ability(t) => b.at(1, t.into()),
            Action::Future(t) => b.at(2, t.into()),
            Action::AllyFuture(t) => b.at(3, t.into()),
            Action::Pass => b.at(4, 0),
            Action::Stop => b.at(5, 0),
            Action::Target(p) => b.at(6, p.into()),
            Action::Pick(t) => b.at(7, t.into()),
            Action::Deed(i) => b.at(8, i.into()),
            Action::Position(i) => b.at(9, i.into()),
            Action::Ruin(i) => b.at(10, i.into()),
            Action::Draw => b.at(11, 0),
            Action::Accept => b.at(12, 0),
            Action::Decline => b.at(13, 0),
            Action::Chance(t) => b.at(14, t.into()),
        }
    }

    fn action_from_index(&self, _state: &State, index: u32) -> Option<Action> {
        let (block, i) = blocks().locate(index)?;
        let x = i as u8;
        Some(match block {
            0 => Action::Points(x),
            1 => Action::Ability(x),
            2 => Action::Future(x),
            3 => Action::AllyFuture(x),
            4 => Action::Pass,
            5 => Action::Stop,
            6 => Action::Target(x),
            7 => Action::Pick(x),
            8 => Action::Deed(x),
            9 => Action::Position(x),
            10 => Action::Ruin(x),
            11 => Action::Draw,
            12 => Action::Accept,
            13 => Action::Decline,
            _ => Action::Chance(x),
        })
    }

    /// The table as the seat sees it.
    fn information_string(&self, state: &State, player: PlayerId) -> String {
        crate::game::Reporting::render(self, state, Some(player))
    }

    fn observation_shape(&self) -> Vec<usize> {
        vec![4 * PER_SEAT + 2 + 4 * MAX_TYPES + 4 + PHASES + 1]
    }

    fn observation_tensor(&self, state: &State, player: PlayerId, out: &mut Vec<f32>) {
        out.clear();
        let v = self.view(state, player);
        let n = usize::from(self.players);
        for r in 0..4 {
            if r >= n {
                out.resize(out.len() + PER_SEAT, 0.0);
                continue;
            }
            let p = (usize::from(player) + r) % n;
            for pile in [&v.hands[p], &v.decks[p], &v.futures[p], &v.deeds[p]] {
                out.push(pile.len() as f32);
            }
            one_hot(out, v.level[p].into(), 5);
            out.push(f32::from(v.rings[p]));
            self.by_type(out, &v.hands[p]);
            self.by_type(out, &v.futures[p]);
            self.by_type(out, &v.deeds[p]);
            self.type_one_hot(out, v.deeds[p].last());
        }
        out.push(v.ruins.len() as f32);
        self.by_type(out, &v.ruins);
        self.type_one_hot(out, v.ruins.last());
        out.push(v.well.len() as f32);
        self.by_type(out, &v.well_top);
        self.by_type(out, &v.aside);
        one_hot(out, relative(v.active.into(), player, n), 4);
        one_hot(out, phase_index(v.phase), PHASES);
        out.push(v.plies as f32 / self.max_plies.max(1) as f32);
    }
}

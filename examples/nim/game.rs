//! Nim, written outside boardlab as a user would write a game of their own:
//! piles of stones, each turn take one to three stones from one pile, and
//! whoever takes the last stone wins.
//!
//! Nim has no chance and no hidden information, so the `Game` trait's
//! defaults cover chance, determinization, the heuristic, rendering and
//! labels; only the rules are written here.

use boardlab::prelude::*;

/// The rules: the starting piles.
#[derive(Clone, Debug)]
pub struct Nim {
    /// Stones in each pile at the start.
    pub piles: Vec<u8>,
}

/// Up to four piles of up to 255 stones, and whose turn it is.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(crate = "boardlab::serde")]
pub struct State {
    /// Stones left in each pile (unused piles hold 0).
    pub piles: [u8; 4],
    /// The player to move.
    pub to_move: u8,
}

/// Take `take` stones (1 to 3) from pile `pile`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(crate = "boardlab::serde")]
pub struct Take {
    /// Which pile.
    pub pile: u8,
    /// How many stones.
    pub take: u8,
}

impl Nim {
    /// Builds the game from a spec's parameters, e.g. `nim(piles=3-5-7)`:
    /// one to four piles of 1 to 255 stones.
    pub fn from_params(params: &mut Params) -> Result<Nim, SpecError> {
        let text = params.text("piles").unwrap_or_else(|| "3-5-7".into());
        let bad = || SpecError::BadValue {
            key: "piles".into(),
            value: text.clone(),
            expected: "one to four pile sizes from 1 to 255 joined by '-', e.g. 3-5-7".into(),
        };
        let piles = text
            .split('-')
            .map(|n| n.trim().parse::<u8>().ok().filter(|&n| n > 0))
            .collect::<Option<Vec<u8>>>()
            .filter(|p| p.len() <= 4)
            .ok_or_else(bad)?;
        params.finish("nim", &["piles"])?;
        Ok(Nim { piles })
    }
}

impl Rules for Nim {
    type State = State;
    type Action = Take;
    /// Four piles, three amounts each.
    type Actions = ArrayVec<Take, 12>;
    type InfoKey = State;

    fn spec(&self) -> String {
        let piles: Vec<String> = self.piles.iter().map(u8::to_string).collect();
        format!("nim(piles={})", piles.join("-"))
    }
    fn num_players(&self) -> usize {
        2
    }
    fn max_actions(&self) -> usize {
        12
    }
    fn max_game_length(&self) -> u32 {
        4 * 255
    }
    fn has_hidden_information(&self) -> bool {
        false
    }
    fn initial_state(&self, _rng: &mut GameRng) -> State {
        let mut piles = [0; 4];
        for (slot, &n) in piles.iter_mut().zip(&self.piles) {
            *slot = n;
        }
        State { piles, to_move: 0 }
    }
    fn turn(&self, state: &State) -> Turn {
        if state.piles.iter().all(|&n| n == 0) {
            Turn::Terminal
        } else {
            Turn::Player(state.to_move)
        }
    }
    fn legal_actions(&self, state: &State) -> Self::Actions {
        let mut out = ArrayVec::new();
        for (pile, &n) in state.piles.iter().enumerate() {
            for take in 1..=n.min(3) {
                out.push(Take {
                    pile: pile as u8,
                    take,
                });
            }
        }
        out
    }
    fn apply(&self, state: &mut State, action: Take) {
        state.piles[action.pile as usize] -= action.take;
        state.to_move = 1 - state.to_move;
    }
    fn info_key(&self, state: &State, _observer: PlayerId) -> State {
        state.clone()
    }
    fn returns(&self, state: &State) -> Returns {
        // The player to move at the end did not take the last stone.
        let winner = 1 - state.to_move as usize;
        (0..2)
            .map(|p| if p == winner { 1.0 } else { -1.0 })
            .collect()
    }
}

impl Reporting for Nim {}

impl Evaluation for Nim {}

/// Nim is not drawn: `boardlab view` shows its text rendering.
impl Picture for Nim {}

/// The perfect player: leave a position whose piles, taken modulo 4, have a
/// nim-sum of zero; when no move does, take one stone.
pub struct PerfectNim;

impl Agent<Nim> for PerfectNim {
    fn act(&mut self, d: Decision<'_, Nim>) -> Take {
        let grundy = |piles: &[u8; 4]| piles.iter().fold(0, |x, &n| x ^ (n % 4));
        d.legal
            .iter()
            .copied()
            .find(|a| {
                let mut after = d.view.clone();
                d.game.apply(&mut after, *a);
                grundy(&after.piles) == 0
            })
            .unwrap_or(d.legal[0])
    }
}

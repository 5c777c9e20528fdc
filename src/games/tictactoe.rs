//! Tic-tac-toe: the smallest perfect-information game, used to validate agents
//! (perfect play is a draw) and as the template for new games.

use arrayvec::ArrayVec;
use serde::{Deserialize, Serialize};

use crate::error::SpecError;
use crate::game::{Evaluation, PlayerId, Reporting, Returns, Rules, Turn};
use crate::rng::GameRng;
use crate::spec::Params;

/// The rules (no parameters).
#[derive(Clone, Debug, Default)]
pub struct TicTacToe;

/// Cells 0..9, row-major. Bit i of a mask is cell i.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct State {
    /// Cells held by each player (X is player 0).
    pub marks: [u16; 2],
    /// Player to move.
    pub to_move: u8,
}

/// Mark a cell (0..9, row-major).
pub type Action = u8;

const LINES: [u16; 8] = [0o007, 0o070, 0o700, 0o111, 0o222, 0o444, 0o421, 0o124];

impl TicTacToe {
    /// Builds the game; it has no parameters.
    pub fn from_params(params: &mut Params) -> Result<Self, SpecError> {
        params.finish("tictactoe", &[])?;
        Ok(TicTacToe)
    }

    fn winner(state: &State) -> Option<usize> {
        (0..2).find(|&p| LINES.iter().any(|&l| state.marks[p] & l == l))
    }

    fn full(state: &State) -> bool {
        (state.marks[0] | state.marks[1]) == 0o777
    }
}

impl Rules for TicTacToe {
    type State = State;
    type Action = Action;
    /// At most the 9 empty cells of an empty board.
    type Actions = ArrayVec<Action, 9>;
    type InfoKey = State;

    fn spec(&self) -> String {
        "tictactoe".into()
    }
    fn num_players(&self) -> usize {
        2
    }
    fn max_actions(&self) -> usize {
        9
    }
    fn max_game_length(&self) -> u32 {
        9
    }
    fn has_hidden_information(&self) -> bool {
        false
    }
    fn initial_state(&self, _rng: &mut GameRng) -> State {
        State::default()
    }
    fn turn(&self, state: &State) -> Turn {
        if Self::winner(state).is_some() || Self::full(state) {
            Turn::Terminal
        } else {
            Turn::Player(state.to_move)
        }
    }
    fn legal_actions(&self, state: &State) -> Self::Actions {
        let mut out = ArrayVec::new();
        if self.turn(state) != Turn::Terminal {
            let used = state.marks[0] | state.marks[1];
            out.extend((0..9).filter(|&c| used & (1 << c) == 0));
        }
        out
    }
    fn apply(&self, state: &mut State, action: Action) {
        debug_assert!((state.marks[0] | state.marks[1]) & (1 << action) == 0);
        state.marks[state.to_move as usize] |= 1 << action;
        state.to_move ^= 1;
    }
    fn chance_outcomes(&self, _state: &State) -> Vec<(Action, f64)> {
        Vec::new()
    }
    fn sample_chance(&self, _state: &State, _rng: &mut GameRng) -> Action {
        unreachable!("tic-tac-toe has no chance nodes")
    }
    fn determinize(&self, state: &State, _observer: PlayerId, _rng: &mut GameRng) -> State {
        state.clone()
    }
    fn info_key(&self, state: &State, _observer: PlayerId) -> State {
        state.clone()
    }
    fn returns(&self, state: &State) -> Returns {
        match Self::winner(state) {
            Some(0) => [1.0, -1.0].into_iter().collect(),
            Some(_) => [-1.0, 1.0].into_iter().collect(),
            None => [0.0, 0.0].into_iter().collect(),
        }
    }
    fn ending(&self, state: &State) -> &'static str {
        if Self::winner(state).is_some() {
            "line"
        } else {
            "full-board"
        }
    }
    fn endings(&self) -> &'static [&'static str] {
        &["line", "full-board"]
    }

    /// Marks on distinct cells of the 3x3 board, X never behind O nor more
    /// than one ahead, and the player to move is the one behind.
    fn check_invariants(&self, s: &State) -> Result<(), String> {
        let [x, o] = s.marks;
        if x & o != 0 || (x | o) >> 9 != 0 {
            return Err(format!("marks overlap or leave the board: {x:#x} {o:#x}"));
        }
        let (nx, no) = (x.count_ones(), o.count_ones());
        if !(nx == no || nx == no + 1) || u32::from(s.to_move) != nx - no {
            return Err(format!(
                "{nx} X and {no} O with player {} to move",
                s.to_move
            ));
        }
        Ok(())
    }
}

impl Reporting for TicTacToe {
    fn render(&self, state: &State, _viewer: Option<PlayerId>) -> String {
        let mut s = String::new();
        for r in 0..3 {
            for c in 0..3 {
                let i = r * 3 + c;
                s.push(if state.marks[0] & (1 << i) != 0 {
                    'X'
                } else if state.marks[1] & (1 << i) != 0 {
                    'O'
                } else {
                    char::from(b'1' + i as u8)
                });
            }
            s.push('\n');
        }
        s
    }
    fn action_label(&self, _state: &State, action: Action) -> String {
        format!(
            "cell {} (row {}, column {})",
            action + 1,
            action / 3 + 1,
            action % 3 + 1
        )
    }
}

impl Evaluation for TicTacToe {
    fn heuristic(&self, state: &State, player: PlayerId) -> f64 {
        if self.turn(state) == Turn::Terminal {
            return self.returns(state)[player as usize];
        }
        // Open lines (not blocked by the opponent) weighted by own marks on them.
        let me = state.marks[player as usize];
        let them = state.marks[1 - player as usize];
        let open = |a: u16, b: u16| -> f64 {
            LINES
                .iter()
                .filter(|&&l| l & b == 0)
                .map(|&l| f64::from((l & a).count_ones()))
                .sum()
        };
        ((open(me, them) - open(them, me)) / 12.0).clamp(-1.0, 1.0)
    }
}

/// Action index = cell (0..9). Observation: 3 planes of 3x3, row-major cells:
/// empty, X (player 0), O (player 1); the board is public.
impl crate::game::encoding::Encode for TicTacToe {
    fn num_distinct_actions(&self) -> u32 {
        9
    }
    fn action_index(&self, _state: &State, action: Action) -> u32 {
        action.into()
    }
    fn action_from_index(&self, _state: &State, index: u32) -> Option<Action> {
        (index < 9).then_some(index as u8)
    }
    fn information_string(&self, state: &State, _player: PlayerId) -> String {
        self.render(state, None)
    }
    fn observation_shape(&self) -> Vec<usize> {
        vec![3, 3, 3]
    }
    fn observation_tensor(&self, state: &State, _player: PlayerId, out: &mut Vec<f32>) {
        out.clear();
        let [x, o] = state.marks;
        for plane in [!(x | o), x, o] {
            out.extend((0..9).map(|c| f32::from(u8::from(plane >> c & 1 == 1))));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::conformance;

    #[test]
    fn conformance() {
        conformance::check(&TicTacToe, conformance::Config::default());
    }

    #[test]
    fn row_wins_and_full_board_draws() {
        let g = TicTacToe;
        let mut s = State::default();
        for a in [0, 3, 1, 4, 2] {
            g.apply(&mut s, a);
        }
        assert_eq!(g.turn(&s), Turn::Terminal);
        assert_eq!(&*g.returns(&s), &[1.0, -1.0]);
        let mut s = State::default();
        for a in [0, 1, 2, 4, 3, 5, 7, 6, 8] {
            g.apply(&mut s, a);
        }
        assert_eq!(g.turn(&s), Turn::Terminal);
        assert_eq!(&*g.returns(&s), &[0.0, 0.0]);
    }
}

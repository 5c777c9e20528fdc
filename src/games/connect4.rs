//! Connect Four, 7 columns by 6 rows: a reference game with a known answer
//! (the first player wins with perfect play) and the speed yardstick against
//! other frameworks. Bitboards in the classic layout: each column holds 7 bits
//! (6 cells and a sentinel), so a four-in-a-row is four shifted ANDs.

use arrayvec::ArrayVec;
use serde::{Deserialize, Serialize};

use crate::error::SpecError;
use crate::game::{Evaluation, PlayerId, Reporting, Returns, Rules, Turn};
use crate::rng::GameRng;
use crate::spec::Params;

const WIDTH: u8 = 7;
const HEIGHT: u8 = 6;
const COLUMN_BITS: u8 = HEIGHT + 1;
const BOTTOM: u64 = 0b0000001_0000001_0000001_0000001_0000001_0000001_0000001;

/// The rules (no parameters).
#[derive(Clone, Debug, Default)]
pub struct Connect4;

/// Position as two bitboards.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct State {
    /// Discs of each player (player 0 moves first).
    pub discs: [u64; 2],
    /// Number of discs played.
    pub moves: u8,
    /// Set once a player has four in a row.
    pub winner: Option<u8>,
}

/// Drop a disc in a column (0..7).
pub type Action = u8;

fn four_in_a_row(b: u64) -> bool {
    [1, COLUMN_BITS, COLUMN_BITS - 1, COLUMN_BITS + 1]
        .iter()
        .any(|&d| {
            let m = b & (b >> d);
            m & (m >> (2 * d)) != 0
        })
}

impl Connect4 {
    /// Builds the game; it has no parameters.
    pub fn from_params(params: &mut Params) -> Result<Self, SpecError> {
        params.finish("connect4", &[])?;
        Ok(Connect4)
    }
}

impl Rules for Connect4 {
    type State = State;
    type Action = Action;
    /// At most one drop per column.
    type Actions = ArrayVec<Action, 7>;
    type InfoKey = State;

    fn spec(&self) -> String {
        "connect4".into()
    }
    fn num_players(&self) -> usize {
        2
    }
    fn max_actions(&self) -> usize {
        WIDTH as usize
    }
    fn max_game_length(&self) -> u32 {
        u32::from(WIDTH * HEIGHT)
    }
    fn has_hidden_information(&self) -> bool {
        false
    }
    fn initial_state(&self, _rng: &mut GameRng) -> State {
        State::default()
    }
    fn turn(&self, state: &State) -> Turn {
        if state.winner.is_some() || state.moves == WIDTH * HEIGHT {
            Turn::Terminal
        } else {
            Turn::Player(state.moves & 1)
        }
    }
    fn legal_actions(&self, state: &State) -> Self::Actions {
        let mut out = ArrayVec::new();
        self.legal_actions_into(state, &mut out);
        out
    }
    #[inline]
    fn legal_actions_into(&self, state: &State, out: &mut Self::Actions) {
        out.clear();
        if self.turn(state) != Turn::Terminal {
            // Adding one at each column's bottom carries into the sentinel bit
            // exactly when the column is full.
            let sentinels = BOTTOM << HEIGHT;
            let mut open = !((state.discs[0] | state.discs[1]) + BOTTOM) & sentinels;
            while open != 0 {
                out.push((open.trailing_zeros() / u32::from(COLUMN_BITS)) as u8);
                open &= open - 1;
            }
        }
    }
    fn apply(&self, state: &mut State, action: Action) {
        let me = (state.moves & 1) as usize;
        let occupied = state.discs[0] | state.discs[1];
        let column_mask = 0x3f_u64 << (action * COLUMN_BITS);
        let new = (occupied + (1 << (action * COLUMN_BITS))) & column_mask & !occupied;
        debug_assert!(new != 0, "column {action} is full");
        state.discs[me] |= new;
        state.moves += 1;
        if four_in_a_row(state.discs[me]) {
            state.winner = Some(me as u8);
        }
    }
    fn chance_outcomes(&self, _state: &State) -> Vec<(Action, f64)> {
        Vec::new()
    }
    fn sample_chance(&self, _state: &State, _rng: &mut GameRng) -> Action {
        unreachable!("Connect Four has no chance nodes")
    }
    fn determinize(&self, state: &State, _observer: PlayerId, _rng: &mut GameRng) -> State {
        state.clone()
    }
    fn info_key(&self, state: &State, _observer: PlayerId) -> State {
        state.clone()
    }
    fn returns(&self, state: &State) -> Returns {
        match state.winner {
            Some(0) => [1.0, -1.0].into_iter().collect(),
            Some(_) => [-1.0, 1.0].into_iter().collect(),
            None => [0.0, 0.0].into_iter().collect(),
        }
    }
    fn ending(&self, state: &State) -> &'static str {
        if state.winner.is_some() {
            "line"
        } else {
            "full-board"
        }
    }
    fn endings(&self) -> &'static [&'static str] {
        &["line", "full-board"]
    }

    /// Discs on distinct cells inside the board, stacked from the bottom of
    /// each column, counted by `moves`, the players alternating.
    fn check_invariants(&self, s: &State) -> Result<(), String> {
        let [a, b] = s.discs;
        if a & b != 0 {
            return Err("a cell holds discs of both players".into());
        }
        let board = (BOTTOM << HEIGHT) - BOTTOM;
        if (a | b) & !board != 0 {
            return Err("a disc outside the board".into());
        }
        for c in 0..WIDTH {
            let column = ((a | b) >> (c * COLUMN_BITS)) & ((1 << COLUMN_BITS) - 1);
            if column & (column + 1) != 0 {
                return Err(format!("column {} has a gap under a disc", c + 1));
            }
        }
        let (na, nb) = (a.count_ones(), b.count_ones());
        if na + nb != u32::from(s.moves) || !(na == nb || na == nb + 1) {
            return Err(format!("{na} and {nb} discs after {} moves", s.moves));
        }
        Ok(())
    }
}

impl Reporting for Connect4 {
    fn render(&self, state: &State, _viewer: Option<PlayerId>) -> String {
        let mut s = String::new();
        for row in (0..HEIGHT).rev() {
            for c in 0..WIDTH {
                let bit = 1u64 << (c * COLUMN_BITS + row);
                s.push(if state.discs[0] & bit != 0 {
                    'X'
                } else if state.discs[1] & bit != 0 {
                    'O'
                } else {
                    '.'
                });
            }
            s.push('\n');
        }
        s.push_str("1234567\n");
        s
    }
    fn action_label(&self, _state: &State, action: Action) -> String {
        format!("column {}", action + 1)
    }
}

impl Evaluation for Connect4 {
    fn heuristic(&self, state: &State, player: PlayerId) -> f64 {
        if let Some(w) = state.winner {
            return if w == player { 1.0 } else { -1.0 };
        }
        // Central columns take part in more lines; count discs weighted by column.
        const WEIGHT: [f64; 7] = [1.0, 2.0, 3.0, 4.0, 3.0, 2.0, 1.0];
        let value = |b: u64| -> f64 {
            (0..WIDTH)
                .map(|c| {
                    WEIGHT[c as usize] * f64::from(((b >> (c * COLUMN_BITS)) & 0x3f).count_ones())
                })
                .sum()
        };
        let diff = value(state.discs[player as usize]) - value(state.discs[1 - player as usize]);
        (diff / 24.0).clamp(-0.9, 0.9)
    }
}

/// Action index = column (0..7). Observation: 3 planes of 6 rows (bottom row
/// first) by 7 columns: empty, player 0's discs, player 1's discs.
impl crate::game::encoding::Encode for Connect4 {
    fn num_distinct_actions(&self) -> u32 {
        WIDTH.into()
    }
    fn action_index(&self, _state: &State, action: Action) -> u32 {
        action.into()
    }
    fn action_from_index(&self, _state: &State, index: u32) -> Option<Action> {
        (index < u32::from(WIDTH)).then_some(index as u8)
    }
    fn information_string(&self, state: &State, _player: PlayerId) -> String {
        self.render(state, None)
    }
    fn observation_shape(&self) -> Vec<usize> {
        vec![3, HEIGHT.into(), WIDTH.into()]
    }
    fn observation_tensor(&self, state: &State, _player: PlayerId, out: &mut Vec<f32>) {
        out.clear();
        let [a, b] = state.discs;
        for plane in [!(a | b), a, b] {
            for row in 0..HEIGHT {
                for c in 0..WIDTH {
                    let bit = 1u64 << (c * COLUMN_BITS + row);
                    out.push(f32::from(u8::from(plane & bit != 0)));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play(moves: &[u8]) -> State {
        let mut s = State::default();
        for &m in moves {
            Connect4.apply(&mut s, m);
        }
        s
    }

    #[test]
    fn four_in_every_direction() {
        // Horizontal, vertical, both diagonals for player 0.
        assert_eq!(play(&[0, 0, 1, 1, 2, 2, 3]).winner, Some(0));
        assert_eq!(play(&[0, 1, 0, 1, 0, 1, 0]).winner, Some(0));
        assert_eq!(play(&[0, 1, 1, 2, 2, 3, 2, 3, 3, 6, 3]).winner, Some(0));
        assert_eq!(play(&[6, 5, 5, 4, 4, 3, 4, 3, 3, 0, 3]).winner, Some(0));
        // Three in a row is not a win; wrapping across columns is not a line.
        assert_eq!(play(&[0, 0, 1, 1, 2, 2]).winner, None);
        assert_eq!(play(&[0, 1, 0, 1, 0, 2, 1, 0, 1]).winner, None);
    }

    #[test]
    fn full_columns_leave_the_legal_list() {
        let s = play(&[3, 3, 3, 3, 3, 3]);
        assert_eq!(&*Connect4.legal_actions(&s), &[0, 1, 2, 4, 5, 6]);
        assert_eq!(Connect4.turn(&s), Turn::Player(0));
    }
}

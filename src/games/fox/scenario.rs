//! Positions written in the grid notation of the spec's §8, for tests and
//! research: a board is five rows, 5 (north) down to 1, each `row c1 … c5`.
//!
//! | cell | meaning |
//! |---|---|
//! | `##` | a face-down tile whose type does not matter (the tiles left over) |
//! | `#X` | a face-down tile of type `X`, e.g. `#N+E` |
//! | `*I`, `*S`, `*G` | the start tiles of Indigo, Scarlett and the Guardians |
//! | `N`, `E+S`, `NE`… | a face-up tile showing these effective arrows; `E~1`: rotation 1 |
//! | `@In`, `@Sc`, `@Ze`, `@Pu` | pawns on the square, e.g. `*G@PuZe` |

use super::board::{SQUARES, parse_dir};
use super::data::TILES;
use super::state::{Character, PAWN_CODES};
use super::{Cell, Fox, Phase, State, Tally};
use crate::game::Rules;

impl Fox {
    /// The position drawn by `grid` (spec §8 notation, see the module docs),
    /// with `to_move` starting its turn as the rules start one (a character
    /// without a step goes on to its ability or passes). Face-up and `#X`
    /// cells take the first free physical tile of their type, `##` cells the
    /// remaining tiles in identity order; the result passes the game's
    /// invariants, or the error says what is wrong.
    ///
    /// ```
    /// use boardlab::game::{Evaluation, Game, Reporting, Rules};
    /// use boardlab::games::fox::Fox;
    ///
    /// let fox = Fox::with("").unwrap();
    /// let s = fox
    ///     .scenario(
    ///         "5 ## ## ## ## ##
    ///          4 ## ## ## ## ##
    ///          3 ## ## *G@PuZe ## ##
    ///          2 ## ## ## ## ##
    ///          1 *I@In ## ## ## *S@Sc",
    ///         0,
    ///     )
    ///     .unwrap();
    /// assert!(!fox.legal_actions(&s).is_empty());
    /// assert!(fox.scenario("5 ## ##", 0).is_err());
    /// ```
    pub fn scenario(&self, grid: &str, to_move: Character) -> Result<State, String> {
        self.scenario_in_round(grid, to_move, 1)
    }

    /// [`Fox::scenario`] in a later round (1-based; a round is the four
    /// character-turns from Indigo's to Zev's), so that `to_move` starts
    /// character-turn `4 × (round − 1) + to_move` of the game, e.g. for a
    /// position just before the turn cap.
    pub fn scenario_in_round(
        &self,
        grid: &str,
        to_move: Character,
        round: u32,
    ) -> Result<State, String> {
        if to_move >= 4 {
            return Err(format!("character {to_move} does not exist (0..4)"));
        }
        let cap = self.turn_cap();
        if round == 0 || 4 * (round - 1) + u32::from(to_move) >= cap {
            return Err(format!(
                "round {round} out of range: the turn cap of {cap} character-turns ends the game"
            ));
        }
        let masks = self.tile_set().masks;
        let mut used = [false; TILES];
        let mut cells = [None; SQUARES];
        let mut pos = [u8::MAX; 4];
        let mut rows = [false; 5];
        for line in grid.lines() {
            let tokens: Vec<&str> = line.split_whitespace().collect();
            let Some(first) = tokens.first() else {
                continue;
            };
            let row = match first.parse::<u8>() {
                Ok(r @ 1..=5) => r,
                _ => return Err(format!("a row starts with its number 1..5, not {first:?}")),
            };
            if tokens.len() != 6 {
                return Err(format!("row {row} needs 5 cells: {line:?}"));
            }
            if std::mem::replace(&mut rows[row as usize - 1], true) {
                return Err(format!("row {row} is given twice"));
            }
            for (x, token) in tokens[1..].iter().enumerate() {
                let q = (row - 1) * 5 + x as u8;
                let (tile, pawns) = token.split_once('@').unwrap_or((token, ""));
                if pawns.len() % 2 != 0 {
                    return Err(format!(
                        "pawns are two letters each (In, Pu, Sc, Ze): {token}"
                    ));
                }
                for code in pawns.as_bytes().chunks(2) {
                    let code =
                        std::str::from_utf8(code).map_err(|_| format!("bad pawn in {token}"))?;
                    let c = PAWN_CODES
                        .iter()
                        .position(|p| *p == code)
                        .ok_or_else(|| format!("unknown pawn {code:?} (In, Pu, Sc, Ze)"))?;
                    if pos[c] != u8::MAX {
                        return Err(format!("pawn {code} is placed twice"));
                    }
                    pos[c] = q;
                }
                let mut take = |mask: u8| -> Result<u8, String> {
                    let id = (0..TILES)
                        .find(|&i| !used[i] && masks[i] == mask)
                        .ok_or_else(|| format!("no tile of the type of {tile:?} is left"))?;
                    used[id] = true;
                    Ok(id as u8)
                };
                cells[q as usize] = match tile {
                    "##" => None,
                    "*I" => Some(Cell::Start(0)),
                    "*S" => Some(Cell::Start(1)),
                    "*G" => Some(Cell::Start(2)),
                    t if t.starts_with('#') => Some(Cell::Down(take(arrow_mask(&t[1..])?)?)),
                    t => {
                        let (arrows, r) = match t.split_once('~') {
                            Some((a, r)) => match r.parse::<u8>() {
                                Ok(r @ 0..=3) => (a, r),
                                _ => return Err(format!("rotation 0..3 expected in {t:?}")),
                            },
                            None => (t, 0),
                        };
                        let canonical = arrow_mask(arrows)?.rotate_right(2 * u32::from(r));
                        Some(Cell::Up(take(canonical)?, r))
                    }
                };
            }
        }
        if let Some(r) = rows.iter().position(|&seen| !seen) {
            return Err(format!("row {} is missing: a grid has rows 5 to 1", r + 1));
        }
        if let Some(c) = pos.iter().position(|&p| p == u8::MAX) {
            return Err(format!("pawn {} is not on the board", PAWN_CODES[c]));
        }
        let mut rest = (0..TILES as u8).filter(|&i| !used[i as usize]);
        let mut filled = [Cell::Start(0); SQUARES];
        for (q, c) in cells.iter().enumerate() {
            filled[q] = match c {
                Some(c) => *c,
                None => Cell::Down(rest.next().ok_or("more `##` cells than tiles left over")?),
            };
        }
        if rest.next().is_some() {
            return Err("the board must hold exactly 22 directional tiles".into());
        }
        let mut s = State {
            cells: filled,
            pos,
            to_move,
            // Character-turns completed before this one (turn order).
            turn_count: 4 * (round - 1) + u32::from(to_move),
            phase: Phase::Move,
            tally: Tally::default(),
        };
        self.begin_turn(&mut s);
        self.check_invariants(&s)?;
        Ok(s)
    }
}

/// Arrows such as `N+E` or `NE` (one diagonal) as a bit mask.
fn arrow_mask(arrows: &str) -> Result<u8, String> {
    arrows.split('+').try_fold(0u8, |m, a| {
        parse_dir(a)
            .map(|d| m | 1 << d)
            .ok_or_else(|| format!("unknown arrow {a:?} in {arrows:?}"))
    })
}

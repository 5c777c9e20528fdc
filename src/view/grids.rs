//! The reference games: tic-tac-toe and Connect Four as grids (with the
//! numbers a human types at `boardlab play`); Kuhn, Leduc and the
//! calibration game show their text rendering.

use super::svg::{self, layer};
use super::{Canvas, Picture};
use crate::game::{PlayerId, Rules};
use crate::games::connect4::{self, Connect4};
use crate::games::planted::Planted;
use crate::games::poker::{kuhn::Kuhn, leduc::Leduc};
use crate::games::tictactoe::{self, TicTacToe};

const X_COLOUR: &str = "#1f77b4";
const O_COLOUR: &str = "#d62728";
/// Connect Four's discs: seat 0 yellow, seat 1 red.
const DISCS: [&str; 2] = ["#f2c230", "#d62728"];

impl Picture for TicTacToe {
    super::move_number_from_encoding!();
    fn canvas(&self, _states: &[tictactoe::State]) -> Option<Canvas> {
        Some(Canvas::sized(320.0, 340.0))
    }

    fn draw(&self, s: &tictactoe::State, _pov: Option<PlayerId>, _c: &Canvas) -> Vec<String> {
        let mut grid = String::new();
        for i in 1..3 {
            let k = 10.0 + 100.0 * f64::from(i);
            svg::line(&mut grid, k, 10.0, k, 310.0, "#333", 4.0);
            svg::line(&mut grid, 10.0, k, 310.0, k, "#333", 4.0);
        }
        let mut marks = String::new();
        for i in 0..9u16 {
            let (x, y) = (
                60.0 + 100.0 * f64::from(i % 3),
                60.0 + 100.0 * f64::from(i / 3),
            );
            if s.marks[0] & 1 << i != 0 {
                svg::line(
                    &mut marks,
                    x - 30.0,
                    y - 30.0,
                    x + 30.0,
                    y + 30.0,
                    X_COLOUR,
                    9.0,
                );
                svg::line(
                    &mut marks,
                    x - 30.0,
                    y + 30.0,
                    x + 30.0,
                    y - 30.0,
                    X_COLOUR,
                    9.0,
                );
            } else if s.marks[1] & 1 << i != 0 {
                marks.push_str(&format!(
                    r#"<circle cx="{x}" cy="{y}" r="32" fill="none" stroke="{O_COLOUR}" stroke-width="9"/>"#
                ));
            } else {
                // The number `play` asks for.
                svg::text(
                    &mut marks,
                    x,
                    y + 10.0,
                    28.0,
                    "middle",
                    "#bbb",
                    &(i + 1).to_string(),
                );
            }
        }
        let status = match self.turn(s) {
            crate::game::Turn::Player(p) => format!("{} to move", ["X", "O"][p as usize]),
            _ => "game over".to_string(),
        };
        let mut st = String::new();
        svg::text(&mut st, 160.0, 334.0, 16.0, "middle", "#333", &status);
        let mut picks = String::new();
        for i in 0..9u16 {
            let (x, y) = (
                14.0 + 100.0 * f64::from(i % 3),
                14.0 + 100.0 * f64::from(i / 3),
            );
            svg::pick(&mut picks, [x, y, 92.0, 92.0], &format!("cell:{}", i + 1));
        }
        vec![
            layer("grid", &grid),
            layer("marks", &marks),
            layer("status", &st),
            layer("picks", &picks),
        ]
    }

    /// A cell: its number, as the board and the move keys name it.
    fn picks(&self, _s: &tictactoe::State, action: tictactoe::Action) -> Vec<String> {
        vec![format!("cell:{}", action + 1)]
    }

    fn text_legend(&self) -> Vec<(String, String)> {
        pairs(&[
            ("X", "seat 0's marks (X moves first)"),
            ("O", "seat 1's marks"),
            (
                "1-9",
                "empty cells: the number is the key of the move there",
            ),
        ])
    }

    fn seat_name(&self, _s: &tictactoe::State, player: PlayerId) -> String {
        format!("playing {}", ["X", "O"][player as usize % 2])
    }

    fn legend(&self) -> Vec<(String, String)> {
        vec![
            ("X (blue)".into(), "seat 0".into()),
            ("O (red)".into(), "seat 1".into()),
            (
                "grey digits".into(),
                "empty cells, numbered as `boardlab play` asks for them".into(),
            ),
        ]
    }
}

impl Picture for Connect4 {
    super::move_number_from_encoding!();
    fn seat_colours(&self) -> &'static [&'static str] {
        &DISCS
    }

    fn canvas(&self, _states: &[connect4::State]) -> Option<Canvas> {
        Some(Canvas::sized(7.0 * 60.0 + 20.0, 6.0 * 60.0 + 70.0))
    }

    fn draw(&self, s: &connect4::State, _pov: Option<PlayerId>, _c: &Canvas) -> Vec<String> {
        let mut frame = String::new();
        svg::rect(
            &mut frame,
            [10.0, 10.0, 420.0, 360.0],
            10.0,
            "#2a4d9b",
            "#1a2f60",
        );
        for c in 0..7 {
            svg::text(
                &mut frame,
                40.0 + 60.0 * f64::from(c),
                394.0,
                18.0,
                "middle",
                "#333",
                &(c + 1).to_string(),
            );
        }
        let mut discs = String::new();
        for c in 0..7u32 {
            for row in 0..6u32 {
                // Seven bits a column: six rows and the bitboard's guard bit.
                let bit = 1u64 << (c * 7 + row);
                let fill = if s.discs[0] & bit != 0 {
                    DISCS[0]
                } else if s.discs[1] & bit != 0 {
                    DISCS[1]
                } else {
                    "#fffdf8"
                };
                svg::circle(
                    &mut discs,
                    40.0 + 60.0 * f64::from(c),
                    340.0 - 60.0 * f64::from(row),
                    24.0,
                    fill,
                    "#1a2f60",
                );
            }
        }
        let status = match self.turn(s) {
            crate::game::Turn::Player(p) => {
                format!(
                    "{} to move",
                    ["yellow (seat 0)", "red (seat 1)"][p as usize]
                )
            }
            _ => "game over".to_string(),
        };
        let mut st = String::new();
        svg::text(&mut st, 220.0, 420.0, 16.0, "middle", "#333", &status);
        let mut picks = String::new();
        for c in 0..7u32 {
            let x = 12.0 + 60.0 * f64::from(c);
            svg::pick(
                &mut picks,
                [x, 12.0, 56.0, 392.0],
                &format!("column:{}", c + 1),
            );
        }
        vec![
            layer("frame", &frame),
            layer("discs", &discs),
            layer("status", &st),
            layer("picks", &picks),
        ]
    }

    /// A column: its number, as the board and the move keys name it.
    fn picks(&self, _s: &connect4::State, action: connect4::Action) -> Vec<String> {
        vec![format!("column:{}", action + 1)]
    }

    fn text_legend(&self) -> Vec<(String, String)> {
        pairs(&[
            ("X", "seat 0's discs (X moves first)"),
            ("O", "seat 1's discs"),
            (".", "empty cell"),
            (
                "1234567",
                "column numbers: the key of a drop into that column",
            ),
        ])
    }

    fn seat_name(&self, _s: &connect4::State, player: PlayerId) -> String {
        format!("playing {}", ["X", "O"][player as usize % 2])
    }

    fn legend(&self) -> Vec<(String, String)> {
        vec![
            ("yellow".into(), "seat 0".into()),
            ("red".into(), "seat 1".into()),
            (
                "1–7".into(),
                "columns, numbered as `boardlab play` asks for them".into(),
            ),
        ]
    }
}

/// (symbol, meaning) pairs from string literals.
pub(super) fn pairs(items: &[(&str, &str)]) -> Vec<(String, String)> {
    items
        .iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect()
}

impl Picture for Kuhn {
    super::move_number_from_encoding!();
    fn text_legend(&self) -> Vec<(String, String)> {
        pairs(&[
            ("P0, P1", "the seats' cards: J < Q < K"),
            ("?", "a card you cannot see"),
            ("-", "no card dealt yet"),
            ("pot", "chips in the pot (each antes 1, a bet adds 1)"),
            ("betting", "the actions so far, first to last"),
        ])
    }
}

impl Picture for Leduc {
    super::move_number_from_encoding!();
    fn text_legend(&self) -> Vec<(String, String)> {
        pairs(&[
            (
                "P0, P1",
                "the seats' private cards: J, Q or K (two of each)",
            ),
            ("?", "a card you cannot see"),
            ("public", "the shared card of round 2 (- before it)"),
            (
                "pot (a + b)",
                "chips in the pot, and each seat's part of it",
            ),
            ("round 1, 2", "the actions of each betting round"),
        ])
    }
}

impl Picture for Planted {
    super::move_number_from_encoding!();
    fn text_legend(&self) -> Vec<(String, String)> {
        pairs(&[
            ("card: Pn", "the seat holding the card (- before the deal)"),
            ("bold, timid", "each seat's choice (- before it chooses)"),
            ("winner: Pn", "the seat that won (- before the end)"),
        ])
    }
}

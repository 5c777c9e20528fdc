//! The registered games and the one place that dispatches on a game name.
//!
//! Generic code (runner, agents, conformance) is written once over `G: Game`;
//! the CLI picks the concrete game once, through [`AnyGame`] and [`with_game!`].

pub mod hamunaptra;
pub mod tictactoe;

use crate::error::SpecError;
use crate::spec::Spec;

/// A parameter of a game, for `boardlab games`.
#[derive(Clone, Copy, Debug)]
pub struct ParamInfo {
    /// Key in the spec.
    pub name: &'static str,
    /// Default value as text.
    pub default: &'static str,
    /// What it does and what values it takes.
    pub help: &'static str,
}

/// Description of a game for listings.
#[derive(Clone, Copy, Debug)]
pub struct GameInfo {
    /// Name used in specs.
    pub name: &'static str,
    /// One line on what it is.
    pub summary: &'static str,
    /// Allowed player counts, e.g. "2-4".
    pub players: &'static str,
    /// Its parameters.
    pub params: &'static [ParamInfo],
    /// Specs covering every player count and variant, used by the generic
    /// tests (conformance, allocations, soak).
    pub test_specs: &'static [&'static str],
}

/// Every registered game in listing order.
pub const GAMES: &[GameInfo] = &[
    GameInfo {
        name: "tictactoe",
        summary: "Tic-tac-toe, 3x3 (reference game with a known answer: a draw)",
        players: "2",
        params: &[],
        test_specs: &["tictactoe"],
    },
    GameInfo {
        name: "hamunaptra",
        summary: "Hamunaptra: tile-laying pyramid escape with d4 combat, hidden hands and exits",
        players: "2-4",
        params: hamunaptra::PARAMS,
        test_specs: hamunaptra::TEST_SPECS,
    },
];

/// One concrete game of any registered kind.
#[derive(Clone, Debug)]
pub enum AnyGame {
    /// Tic-tac-toe.
    TicTacToe(tictactoe::TicTacToe),
    /// Hamunaptra.
    Hamunaptra(hamunaptra::Hamunaptra),
}

impl AnyGame {
    /// Builds a game from its spec, rejecting unknown names and parameters.
    pub fn from_spec(spec: &Spec) -> Result<AnyGame, SpecError> {
        let mut params = spec.params.clone();
        let game = match spec.name.as_str() {
            "tictactoe" => AnyGame::TicTacToe(tictactoe::TicTacToe::from_params(&mut params)?),
            "hamunaptra" => AnyGame::Hamunaptra(hamunaptra::Hamunaptra::from_params(&mut params)?),
            other => {
                return Err(SpecError::UnknownGame {
                    name: other.to_string(),
                    known: GAMES.iter().map(|g| g.name).collect::<Vec<_>>().join(", "),
                });
            }
        };
        Ok(game)
    }

    /// Parses and builds a game from spec text.
    pub fn parse(text: &str) -> Result<AnyGame, SpecError> {
        AnyGame::from_spec(&Spec::parse(text)?)
    }
}

/// Runs `$body` with `$g` bound to the concrete game inside an [`AnyGame`].
#[macro_export]
macro_rules! with_game {
    ($any:expr, $g:ident => $body:expr) => {
        match $any {
            $crate::games::AnyGame::TicTacToe($g) => $body,
            $crate::games::AnyGame::Hamunaptra($g) => $body,
        }
    };
}

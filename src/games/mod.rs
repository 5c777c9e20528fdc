//! The registered games and the one place that dispatches on a game name.
//!
//! Generic code (runner, agents, conformance) is written once over `G: Game`;
//! the CLI picks the concrete game once, through [`AnyGame`] and [`with_game!`](crate::with_game).

pub mod connect4;
pub mod fox;
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
        name: "connect4",
        summary: "Connect Four, 7x6 (reference game; the first player wins with perfect play)",
        players: "2",
        params: &[],
        test_specs: &["connect4"],
    },
    GameInfo {
        name: "fox",
        summary: "Fox on the Run: two foxes against wolf and badger on a 5x5 grid of face-down arrow tiles",
        players: "2-4",
        params: &[
            ParamInfo {
                name: "players",
                default: "2",
                help: "2 (Foxes vs Guardians), 3 (one player holds a whole faction, see 'alone') or 4 (one character each)",
            },
            ParamInfo {
                name: "alone",
                default: "foxes",
                help: "players=3 only: faction held by the lone player, foxes or guardians",
            },
            ParamInfo {
                name: "tiles",
                default: "embedded src/games/fox/tiles.toml",
                help: "TOML or JSON file with the 22-tile set, start layout and turn cap",
            },
            ParamInfo {
                name: "start_used",
                default: "false",
                help: "true: the square a turn starts on counts as already used (rejected reading of A7)",
            },
            ParamInfo {
                name: "stay_ability",
                default: "true",
                help: "false: no ability after staying put (A16)",
            },
            ParamInfo {
                name: "start_ability",
                default: "true",
                help: "false: ending the movement on a start tile ends the turn (A13)",
            },
            ParamInfo {
                name: "rotate_ccw",
                default: "true",
                help: "false: Puffer turns 90 degrees clockwise or 180 only (A17)",
            },
            ParamInfo {
                name: "guard",
                default: "adjacent",
                help: "adjacent or orthogonal: how close Zev must be to close Scarlett's square (A15)",
            },
        ],
        test_specs: &[
            "fox",
            "fox(players=3)",
            "fox(players=3,alone=guardians)",
            "fox(players=4)",
            "fox(start_used=true,stay_ability=false,start_ability=false,rotate_ccw=false,guard=orthogonal)",
        ],
    },
];

/// One concrete game of any registered kind.
#[derive(Clone, Debug)]
pub enum AnyGame {
    /// Tic-tac-toe.
    TicTacToe(tictactoe::TicTacToe),
    /// Connect Four.
    Connect4(connect4::Connect4),
    /// Fox on the Run.
    Fox(fox::Fox),
}

impl AnyGame {
    /// Builds a game from its spec, rejecting unknown names and parameters.
    pub fn from_spec(spec: &Spec) -> Result<AnyGame, SpecError> {
        let mut params = spec.params.clone();
        let game = match spec.name.as_str() {
            "tictactoe" => AnyGame::TicTacToe(tictactoe::TicTacToe::from_params(&mut params)?),
            "connect4" => AnyGame::Connect4(connect4::Connect4::from_params(&mut params)?),
            "fox" => AnyGame::Fox(fox::Fox::from_params(&mut params)?),
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
            $crate::games::AnyGame::Connect4($g) => $body,
            $crate::games::AnyGame::Fox($g) => $body,
        }
    };
}

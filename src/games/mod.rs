//! The registered games and the one place that dispatches on a game name.
//!
//! Generic code (runner, agents, conformance) is written once over `G: Game`;
//! the CLI picks the concrete game once, through [`AnyGame`] and [`with_game!`].

pub mod karmox;
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
        name: "karmox",
        summary: "Karmox la Fuga: cloned prisoners race for mission XP and escape through the portal",
        players: "2-6",
        params: &[
            ParamInfo {
                name: "players",
                default: "2",
                help: "number of players, 2 to 6",
            },
            ParamInfo {
                name: "mode",
                default: "by players",
                help: "solo (P2, P4_SOLO, P5_SOLO, P6_SOLO), clones (P3_CLONES; with 6 players P6_TEAMS3_CLONES) or teams (P4_TEAMS, P6_TEAMS2); the spec ids are accepted too",
            },
            ParamInfo {
                name: "chars",
                default: "by mode",
                help: "one character per seat joined by '-', e.g. GKa-MGb-GRa-GRb (one-character modes only)",
            },
            ParamInfo {
                name: "first",
                default: "random",
                help: "first seat, or random for the roll-off",
            },
            ParamInfo {
                name: "max_rounds",
                default: "100",
                help: "turn cap in rounds, then a draw",
            },
            ParamInfo {
                name: "board",
                default: "embedded",
                help: "board data file (.json or .toml)",
            },
            ParamInfo {
                name: "characters",
                default: "embedded",
                help: "character base statistics file",
            },
            ParamInfo {
                name: "items",
                default: "embedded",
                help: "item tiles file",
            },
            ParamInfo {
                name: "events",
                default: "embedded",
                help: "Event Table file",
            },
            ParamInfo {
                name: "missions",
                default: "embedded",
                help: "mission cards file",
            },
        ],
        test_specs: &[
            "karmox",
            "karmox(players=3,max_rounds=20)",
            "karmox(players=4,max_rounds=20)",
            "karmox(players=4,mode=teams,max_rounds=20)",
            "karmox(players=5,max_rounds=15)",
            "karmox(players=6,max_rounds=12)",
            "karmox(players=6,mode=teams,max_rounds=12)",
            "karmox(players=6,mode=clones,max_rounds=12)",
        ],
    },
];

/// One concrete game of any registered kind.
#[derive(Clone, Debug)]
pub enum AnyGame {
    /// Tic-tac-toe.
    TicTacToe(tictactoe::TicTacToe),
    /// Karmox la Fuga.
    Karmox(karmox::Karmox),
}

impl AnyGame {
    /// Builds a game from its spec, rejecting unknown names and parameters.
    pub fn from_spec(spec: &Spec) -> Result<AnyGame, SpecError> {
        let mut params = spec.params.clone();
        let game = match spec.name.as_str() {
            "tictactoe" => AnyGame::TicTacToe(tictactoe::TicTacToe::from_params(&mut params)?),
            "karmox" => AnyGame::Karmox(karmox::Karmox::from_params(&mut params)?),
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
            $crate::games::AnyGame::Karmox($g) => $body,
        }
    };
}

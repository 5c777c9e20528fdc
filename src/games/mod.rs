//! The registered games and the one place that dispatches on a game name.
//!
//! Generic code (runner, agents, conformance) is written once over `G: Game`;
//! the CLI picks the concrete game once, through [`AnyGame`] and [`with_game!`](crate::with_game),
//! or behind a trait object ([`crate::runtime::DynGame`]) when games come from other crates too.

pub mod connect4;
pub mod fox;
pub mod hamunaptra;
pub mod karmaka;
pub mod karmox;
pub mod planted;
pub mod poker;
pub mod tictactoe;

use crate::error::SpecError;
pub use crate::spec::ParamInfo;
use crate::spec::Spec;

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
        name: "kuhn",
        summary: "Kuhn poker: J/Q/K, ante 1, one bet (hidden-information reference game; value -1/18 for the first player)",
        players: "2",
        params: &[],
        test_specs: &["kuhn"],
    },
    GameInfo {
        name: "leduc",
        summary: "Leduc poker: 6 cards, two betting rounds (raises 2 then 4), one public card (hidden-information reference game)",
        players: "2",
        params: &[],
        test_specs: &["leduc"],
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
    GameInfo {
        name: "karmaka",
        summary: "Karmaka: climb the Karmic Ladder through successive lives (cards, karmic cost)",
        players: "2-4",
        params: &[
            ParamInfo {
                name: "players",
                default: "2",
                help: "2, 3 or 4 (3 with big-bad-wolf)",
            },
            ParamInfo {
                name: "teams",
                default: "false",
                help: "2v2 teams {P0,P2} vs {P1,P3}; needs players=4",
            },
            ParamInfo {
                name: "variant",
                default: "standard",
                help: "standard or big-bad-wolf (2v1, seat 0 is the Wolf)",
            },
            ParamInfo {
                name: "cards",
                default: "embedded",
                help: "path of a TOML/JSON card table (64 cards)",
            },
            ParamInfo {
                name: "first",
                default: "random",
                help: "first player: random or a seat number",
            },
            ParamInfo {
                name: "max_plies",
                default: "2000",
                help: "main plays plus Limbo turns before a draw",
            },
            ParamInfo {
                name: "bonus_when_void",
                default: "true",
                help: "bonus play even if the ability did nothing",
            },
            ParamInfo {
                name: "embody_victim",
                default: "true",
                help: "Embody's copied victim gets the offer",
            },
            ParamInfo {
                name: "opposite_targetable",
                default: "false",
                help: "4P: any-player cards may target the opposite seat",
            },
            ParamInfo {
                name: "mimic_ally",
                default: "false",
                help: "2v2: Mimic may copy the ally's exposed Deed",
            },
            ParamInfo {
                name: "bbw_partner_target",
                default: "true",
                help: "Big Bad Wolf: any-player cards may target the partner",
            },
            ParamInfo {
                name: "bbw_partner_future",
                default: "false",
                help: "Big Bad Wolf: Beetles may play to the partner's Future Life",
            },
            ParamInfo {
                name: "pass_after_draw",
                default: "true",
                help: "Pass needs a non-empty Deck after the draw",
            },
            ParamInfo {
                name: "refill_on_deal",
                default: "true",
                help: "Longevity and rebirth deals refill the Well",
            },
            ParamInfo {
                name: "no_ability",
                default: "none",
                help: "a card code: that type may not be played for its ability (ablation)",
            },
        ],
        test_specs: &[
            "karmaka",
            "karmaka(players=3)",
            "karmaka(players=4)",
            "karmaka(players=4,teams=true)",
            "karmaka(variant=big-bad-wolf,bbw_partner_future=true)",
        ],
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
    GameInfo {
        name: "hamunaptra",
        summary: "Hamunaptra: tile-laying pyramid escape with d4 combat, hidden hands and exits",
        players: "2-4",
        params: hamunaptra::PARAMS,
        test_specs: hamunaptra::TEST_SPECS,
    },
    GameInfo {
        name: "planted",
        summary: "Planted: a luck-heavy calibration game with a planted seat advantage, card effect, fair compensation and skill, all known in closed form",
        players: "2",
        params: &[
            ParamInfo {
                name: "p",
                default: "0.6",
                help: "seat 0's win chance between equal agents (0 to 1)",
            },
            ParamInfo {
                name: "card",
                default: "0.15",
                help: "what the card adds to its holder's win chance (0 to 0.5; 0 neutralises it)",
            },
            ParamInfo {
                name: "skill",
                default: "0.1",
                help: "what bold play adds to the seat's win chance (0 to 0.5)",
            },
            ParamInfo {
                name: "komi",
                default: "0",
                help: "compensation: seat 0's base chance is p*(1-komi); fair at 1-1/(2p)",
            },
        ],
        test_specs: &["planted", "planted(p=0.5,card=0.2,skill=0.2,komi=0.1)"],
    },
];

/// One concrete game of any registered kind.
#[derive(Clone, Debug)]
pub enum AnyGame {
    /// Tic-tac-toe.
    TicTacToe(tictactoe::TicTacToe),
    /// Connect Four.
    Connect4(connect4::Connect4),
    /// Kuhn poker.
    Kuhn(poker::kuhn::Kuhn),
    /// Leduc poker.
    Leduc(poker::leduc::Leduc),
    /// Fox on the Run.
    Fox(fox::Fox),
    /// Karmaka.
    Karmaka(karmaka::Karmaka),
    /// Karmox la Fuga.
    Karmox(karmox::Karmox),
    /// Hamunaptra.
    Hamunaptra(hamunaptra::Hamunaptra),
    /// The calibration game.
    Planted(planted::Planted),
}

impl AnyGame {
    /// Builds a game from its spec, rejecting unknown names and parameters.
    pub fn from_spec(spec: &Spec) -> Result<AnyGame, SpecError> {
        let mut params = spec.params.clone();
        let game = match spec.name.as_str() {
            "tictactoe" => AnyGame::TicTacToe(tictactoe::TicTacToe::from_params(&mut params)?),
            "connect4" => AnyGame::Connect4(connect4::Connect4::from_params(&mut params)?),
            "kuhn" => AnyGame::Kuhn(poker::kuhn::Kuhn::from_params(&mut params)?),
            "leduc" => AnyGame::Leduc(poker::leduc::Leduc::from_params(&mut params)?),
            "fox" => AnyGame::Fox(fox::Fox::from_params(&mut params)?),
            "karmaka" => AnyGame::Karmaka(karmaka::Karmaka::from_params(&mut params)?),
            "karmox" => AnyGame::Karmox(karmox::Karmox::from_params(&mut params)?),
            "hamunaptra" => AnyGame::Hamunaptra(hamunaptra::Hamunaptra::from_params(&mut params)?),
            "planted" => AnyGame::Planted(planted::Planted::from_params(&mut params)?),
            other => {
                return Err(SpecError::UnknownGame {
                    name: other.to_string(),
                    hint: crate::error::did_you_mean(other, GAMES.iter().map(|g| g.name)),
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
            $crate::games::AnyGame::Kuhn($g) => $body,
            $crate::games::AnyGame::Leduc($g) => $body,
            $crate::games::AnyGame::Fox($g) => $body,
            $crate::games::AnyGame::Karmaka($g) => $body,
            $crate::games::AnyGame::Karmox($g) => $body,
            $crate::games::AnyGame::Hamunaptra($g) => $body,
            $crate::games::AnyGame::Planted($g) => $body,
        }
    };
}

//! Every registered game, in every variant listed in its `test_specs`, passes
//! the generic conformance suite.

use boardlab::game::conformance::{Config, check};
use boardlab::games::{AnyGame, GAMES};
use boardlab::with_game;

#[test]
fn every_game_and_variant_conforms() {
    for info in GAMES {
        for spec in info.test_specs {
            let game = AnyGame::parse(spec).unwrap_or_else(|e| panic!("{spec}: {e}"));
            with_game!(&game, g => check(g, Config { playouts: 60, ..Config::default() }));
        }
    }
}

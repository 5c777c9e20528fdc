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

/// The fuzz targets' game loop on stable: byte strings from a fixed stream
/// steer every game and variant, including choices of unlikely chance outcomes.
#[test]
fn byte_steered_games_conform() {
    use boardlab::game::conformance::play_bytes;
    let mut rng = boardlab::rng::rng_from_seed(17);
    for info in GAMES {
        for spec in info.test_specs {
            let game = AnyGame::parse(spec).unwrap_or_else(|e| panic!("{spec}: {e}"));
            for len in [0usize, 3, 8, 20, 200, 2000] {
                let bytes: Vec<u8> = (0..len)
                    .map(|_| boardlab::rng::below(&mut rng, 256) as u8)
                    .collect();
                with_game!(&game, g => play_bytes(g, &bytes))
                    .unwrap_or_else(|e| panic!("{spec} with {len} bytes: {e}"));
            }
        }
    }
}

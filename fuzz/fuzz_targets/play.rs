//! Byte-steered games: the first byte picks a game and variant among every
//! registered game's test specs, the rest seeds setup and picks each legal
//! action and chance outcome; every state is checked (invariants, legal list,
//! chance probabilities, termination). A violation panics with its step.
#![no_main]

use boardlab::game::Rules;
use boardlab::game::conformance::play_bytes;
use boardlab::games::{AnyGame, GAMES};
use boardlab::with_game;
use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;

/// Every test spec, built once.
fn games() -> &'static [AnyGame] {
    static GAMES_BUILT: OnceLock<Vec<AnyGame>> = OnceLock::new();
    GAMES_BUILT.get_or_init(|| {
        GAMES
            .iter()
            .flat_map(|g| g.test_specs.iter())
            .map(|s| AnyGame::parse(s).expect("test specs parse"))
            .collect()
    })
}

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let all = games();
    let game = &all[usize::from(pick) % all.len()];
    with_game!(game, g => {
        if let Err(e) = play_bytes(g, rest) {
            panic!("{}: {e}", g.spec());
        }
    });
});

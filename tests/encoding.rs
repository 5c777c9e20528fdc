//! Every registered game, in every variant listed in its `test_specs`, has a
//! consistent action encoding and observation tensor (see
//! `boardlab::game::encoding::check`). One test per game so they run in parallel.

use boardlab::game::encoding::check;
use boardlab::games::{AnyGame, GAMES};
use boardlab::with_game;

fn encodes(name: &str) {
    // Hamunaptra's games are long and its tensor large: fewer games per variant.
    let playouts = if name == "hamunaptra" { 3 } else { 12 };
    let info = GAMES
        .iter()
        .find(|g| g.name == name)
        .expect("registered game");
    for spec in info.test_specs {
        let game = AnyGame::parse(spec).unwrap_or_else(|e| panic!("{spec}: {e}"));
        with_game!(&game, g => check(g, playouts, 1));
    }
}

macro_rules! encoding_tests {
    ($($name:ident),*) => {
        $(#[test]
        fn $name() {
            encodes(stringify!($name));
        })*

        #[test]
        fn every_registered_game_is_covered() {
            let covered = [$(stringify!($name)),*];
            for g in GAMES {
                assert!(covered.contains(&g.name), "add {} to tests/encoding.rs", g.name);
            }
        }
    };
}

encoding_tests!(
    tictactoe, connect4, fox, karmaka, karmox, hamunaptra, kuhn, leduc, planted
);

//! Every registered game, in every variant listed in its `test_specs`, passes
//! the generic conformance suite. One test per game, one thread per variant,
//! so they run in parallel.

use boardlab::game::Rules;
use boardlab::game::conformance::{Config, check, check_observed_moves, check_observer_labels};
use boardlab::games::{AnyGame, GAMES};
use boardlab::with_game;

fn conforms(name: &str) {
    let info = GAMES
        .iter()
        .find(|g| g.name == name)
        .expect("registered game");
    // One thread per variant: a game with many variants would otherwise be
    // the one test still running, on one core, long after the others end.
    std::thread::scope(|scope| {
        for spec in info.test_specs {
            scope.spawn(move || conforms_spec(spec));
        }
    });
}

fn conforms_spec(spec: &str) {
    let game = AnyGame::parse(spec).unwrap_or_else(|e| panic!("{spec}: {e}"));
    with_game!(&game, g => check(g, Config { playouts: 60, ..Config::default() }));
    with_game!(&game, g => {
        if g.has_hidden_information() {
            let compared = check_observer_labels(g, 3, 1);
            assert!(compared > 0, "{spec}: no labels compared");
            let checked = check_observed_moves(g, 3, 1);
            assert!(checked > 0, "{spec}: no observed moves checked");
        }
    });
}

macro_rules! conformance_tests {
    ($($name:ident),*) => {
        $(#[test]
        fn $name() {
            conforms(stringify!($name));
        })*

        #[test]
        fn every_registered_game_is_covered() {
            let covered = [$(stringify!($name)),*];
            for g in GAMES {
                assert!(covered.contains(&g.name), "add {} to tests/conformance.rs", g.name);
            }
        }
    };
}

conformance_tests!(
    tictactoe, connect4, kuhn, leduc, fox, karmaka, karmox, hamunaptra, planted
);

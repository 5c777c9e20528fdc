//! Scenario tests H1–H25 and soak tests.

use super::*;
use crate::game::conformance::{Config, check};
use crate::rng::rng_from_seed;

fn game(spec: &str) -> Hamunaptra {
    Hamunaptra::from_spec_text(spec).unwrap()
}

#[test]
fn quick_conformance() {
    let g = game("hamunaptra(max_rounds=12)");
    check(
        &g,
        Config {
            playouts: 5,
            ..Config::default()
        },
    );
}

#[test]
fn random_playout_finishes() {
    let g = game("hamunaptra");
    let mut rng = rng_from_seed(3);
    let mut s = g.initial_state(&mut rng);
    let n = crate::game::random_playout(&g, &mut s, &mut rng, g.max_game_length());
    eprintln!("{n} steps, round {}", s.round);
    assert_eq!(g.turn(&s), Turn::Terminal);
}

#[test]
fn debug_render() {
    let g = game("hamunaptra");
    let mut rng = rng_from_seed(5);
    let mut s = g.initial_state(&mut rng);
    for i in 0..400 {
        if g.turn(&s) == Turn::Terminal {
            break;
        }
        let a = match g.turn(&s) {
            Turn::Chance => g.sample_chance(&s, &mut rng),
            _ => {
                let l = g.legal_actions(&s);
                l[crate::rng::below(&mut rng, l.len())]
            }
        };
        if i > 300 {
            eprintln!("{:?} {} : {}", g.turn(&s), i, g.action_label(&s, a));
        }
        g.apply(&mut s, a);
    }
    eprintln!("{}", g.render(&s, None));
}

//! Scenario tests K1–K46 of the spec, card conservation and variant checks.

#[allow(unused_imports)]
use super::state::{ALL, Dest, NONE, Then, bit};
use super::*;
use crate::game::conformance;
use crate::rng::rng_from_seed;

/// Plays random games and checks that all 64 cards are always somewhere.
fn soak(spec: &str, games: u32, seed: u64) {
    let g = Karmaka::parse(spec).unwrap();
    let mut rng = rng_from_seed(seed);
    for i in 0..games {
        let mut s = g.initial_state(&mut rng);
        let mut n = 0;
        while g.turn(&s) != Turn::Terminal {
            assert!(Karmaka::conserved(&s), "{spec} game {i} step {n}: {s:?}");
            let a = match g.turn(&s) {
                Turn::Chance => g.sample_chance(&s, &mut rng),
                _ => {
                    let l = g.legal_actions(&s);
                    l[crate::rng::below(&mut rng, l.len())]
                }
            };
            g.apply(&mut s, a);
            n += 1;
        }
        assert!(Karmaka::conserved(&s));
    }
}

#[test]
fn soak_all_variants_conserve_cards() {
    for spec in [
        "karmaka",
        "karmaka(players=3)",
        "karmaka(players=4)",
        "karmaka(players=4,teams=true)",
        "karmaka(variant=big-bad-wolf)",
        "karmaka(variant=big-bad-wolf,bbw_partner_future=true)",
    ] {
        soak(spec, 60, 11);
    }
}

#[test]
fn conformance_two_players() {
    conformance::check(
        &Karmaka::parse("karmaka").unwrap(),
        conformance::Config {
            playouts: 10,
            ..Default::default()
        },
    );
}

#[test]
fn diag_lengths() {
    let g = Karmaka::parse("karmaka(players=3)").unwrap();
    let mut rng = rng_from_seed(5);
    for _ in 0..5 {
        let mut s = g.initial_state(&mut rng);
        let n = crate::game::random_playout(&g, &mut s, &mut rng, 1_000_000);
        eprintln!(
            "len {n} plies {} winner {} phase {:?} levels {:?}",
            s.plies, s.winner, s.phase, s.level
        );
    }
}

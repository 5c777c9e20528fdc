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
        "karmaka(players=4,opposite_targetable=true,bonus_when_void=false,embody_victim=false)",
        "karmaka(players=3,pass_after_draw=false,refill_on_deal=false)",
        "karmaka(players=4,teams=true,mimic_ally=true,max_plies=100)",
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

// ---------------------------------------------------------------- helpers

fn game(spec: &str) -> Karmaka {
    Karmaka::parse(spec).unwrap()
}

/// Type number of a card code.
fn ty(g: &Karmaka, code: &str) -> u8 {
    g.cards.types.iter().position(|t| t.code == code).unwrap() as u8
}

/// Type number of an instance id.
fn k(g: &Karmaka, id: u8) -> u8 {
    g.cards.kind[id as usize]
}

/// Applies a legal decision, checking it is legal and the cards are conserved.
fn act(g: &Karmaka, s: &mut State, a: Action) {
    let legal = g.legal_actions(s);
    assert!(
        legal.contains(&a),
        "{a:?} not legal in {:?}; legal: {legal:?}",
        s.phase
    );
    g.apply(s, a);
    assert!(Karmaka::conserved(s), "cards not conserved after {a:?}");
}

/// Forces a chance outcome: the card of this id's type is taken.
fn chance(g: &Karmaka, s: &mut State, id: u8) {
    assert_eq!(g.turn(s), Turn::Chance, "not a chance node: {:?}", s.phase);
    let t = k(g, id);
    assert!(
        g.chance_outcomes(s)
            .iter()
            .any(|(a, _)| *a == Action::Chance(t)),
        "type of {id} is not a chance outcome"
    );
    g.apply(s, Action::Chance(t));
    assert!(Karmaka::conserved(s));
}

/// The card types of a pile, in pile order.
fn kinds(g: &Karmaka, pile: &[u8]) -> Vec<u8> {
    pile.iter().map(|&c| k(g, c)).collect()
}

fn sorted(v: &[u8]) -> Vec<u8> {
    let mut v = v.to_vec();
    v.sort_unstable();
    v
}

// ---------------------------------------------------------------- scenarios
//
// Each position is built with the public `Scenario` builder, then reached
// through legal actions (`act`) and forced chance outcomes (`chance`).

#[test]
fn k01_ring_climb_and_rebirth_with_short_future() {
    let g = game("karmaka");
    let s = Scenario::new(&g)
        .level(0, 2)
        .rings(0, 2)
        .future(0, &[22, 50, 58])
        .deeds(0, &[15, 28, 6])
        .ruins(&[0])
        .well_top(&[47, 19, 38])
        .hand(1, &[1])
        .build()
        .unwrap();
    assert_eq!(s.level[0], 3);
    assert_eq!(s.rings[0], 1);
    assert_eq!(&s.ruins[..], &[0, 15, 28, 6]);
    assert!(s.deeds[0].is_empty());
    assert_eq!(&s.hands[0][..], &[22, 50, 58]);
    assert_eq!(&s.decks[0][..], &[38, 19, 47]);
    assert!(s.decks[0].iter().all(|&c| s.known[c as usize] == 0));
    assert_eq!(s.active, 1);
    assert_eq!(s.phase, Phase::Main);
}

#[test]
fn k02_failure_gains_ring_and_big_future_leaves_deck_empty() {
    let g = game("karmaka");
    let mut s = Scenario::new(&g)
        .level(0, 1)
        .deeds(0, &[13, 21, 59])
        .future(0, &[19, 20, 22, 25, 31, 12, 57])
        .hand(1, &[1])
        .build()
        .unwrap();
    assert_eq!((s.level[0], s.rings[0]), (1, 1));
    assert_eq!(&s.ruins[..], &[13, 21, 59]);
    assert_eq!(sorted(&s.hands[0]), vec![12, 19, 20, 22, 25, 31, 57]);
    assert!(s.decks[0].is_empty());
    assert_eq!(s.well.len(), 64 - 3 - 7 - 1, "the Well is untouched");
    assert_eq!(s.active, 1);
    // P1 plays; on P0's next turn there is no draw and no Pass.
    act(&g, &mut s, Action::Points(ty(&g, "PAN")));
    assert_eq!(s.active, 0);
    assert!(!s.drew);
    assert_eq!(s.phase, Phase::Main);
    assert!(!g.legal_actions(&s).contains(&Action::Pass));
}

#[test]
fn k03_targeted_karmic_cost_in_multiplayer() {
    let g = game("karmaka(players=3)");
    let mut s = Scenario::new(&g)
        .hand(0, &[15, 38])
        .deck(0, &[19])
        .deeds(2, &[47, 55])
        .ruins(&[6])
        .hand(1, &[1])
        .hand(2, &[2])
        .build()
        .unwrap();
    act(&g, &mut s, Action::Ability(ty(&g, "VEN")));
    act(&g, &mut s, Action::Target(2));
    assert_eq!(&s.ruins[..], &[6, 55]);
    assert_eq!(&s.deeds[2][..], &[47]);
    assert_eq!(s.phase, Phase::Offer(2, true));
    assert_eq!(g.turn(&s), Turn::Player(2));
    let mut acc = s.clone();
    act(&g, &mut acc, Action::Accept);
    assert_eq!(acc.futures[2].last(), Some(&15));
    assert_eq!(acc.known[15], ALL);
    act(&g, &mut s, Action::Decline);
    assert_eq!(&s.ruins[..], &[6, 55, 15]);
    assert_eq!(&s.hands[0][..], &[19, 38]);
    assert_eq!(s.active, 1, "no bonus: the turn passed");
}

#[test]
fn k04_self_only_card_offered_round_robin() {
    let g = game("karmaka(players=3)");
    let mut s = Scenario::new(&g)
        .hand(0, &[53, 3])
        .deck(0, &[48])
        .well_top(&[44, 7, 20])
        .build()
        .unwrap();
    act(&g, &mut s, Action::Ability(ty(&g, "VOY")));
    assert_eq!(sorted(&s.hands[0]), vec![3, 7, 20, 44, 48]);
    assert_eq!(s.phase, Phase::Offer(1, false));
    let mut both = s.clone();
    act(&g, &mut s, Action::Decline);
    assert_eq!(s.phase, Phase::Offer(2, false));
    act(&g, &mut s, Action::Accept);
    assert_eq!(s.futures[2].last(), Some(&53));
    assert_eq!(s.phase, Phase::Bonus);
    assert_eq!(s.active, 0);
    act(&g, &mut both, Action::Decline);
    act(&g, &mut both, Action::Decline);
    assert_eq!(both.ruins.last(), Some(&53));
    assert_eq!(both.phase, Phase::Bonus);
}

#[test]
fn k05_peek_chain_offer_before_next_play() {
    let g = game("karmaka");
    let mut s = Scenario::new(&g)
        .hand(0, &[19, 16, 51])
        .deck(0, &[3, 22])
        .hand(1, &[55, 36])
        .deeds(1, &[44, 34])
        .build()
        .unwrap();
    assert!(s.hands[0].contains(&22));
    act(&g, &mut s, Action::Ability(ty(&g, "PEE")));
    act(&g, &mut s, Action::Target(1));
    assert!(s.known[55] & bit(0) != 0 && s.known[36] & bit(0) != 0);
    assert_eq!(s.phase, Phase::Offer(1, true));
    act(&g, &mut s, Action::Decline);
    assert_eq!(s.phase, Phase::Bonus);
    act(&g, &mut s, Action::Ability(ty(&g, "VEN")));
    act(&g, &mut s, Action::Target(1));
    act(&g, &mut s, Action::Accept);
    assert_eq!(s.futures[1].last(), Some(&16));
    assert_eq!(s.active, 1);
    assert_eq!(&s.hands[0][..], &[22, 51]);
    assert_eq!(&s.decks[0][..], &[3]);
    assert_eq!(&s.deeds[1][..], &[44]);
    assert_eq!(&s.ruins[s.ruins.len() - 2..], &[19, 34]);
}

#[test]
fn k06_refill_leaves_top_three_ruins() {
    let g = game("karmaka");
    // Hand {ANO#38, X} after the draw, the Deck still non-empty, Well [].
    let mut s = Scenario::new(&g)
        .hand(0, &[38])
        .deck(0, &[5, 1])
        .ruins(&[47, 7, 20, 45, 4, 13])
        .unplaced_to_deck(1)
        .build()
        .unwrap();
    assert_eq!(&s.hands[0][..], &[1, 38]);
    assert_eq!(&s.decks[0][..], &[5]);
    assert!(s.well.is_empty() && s.well_top.is_empty());
    act(&g, &mut s, Action::Ability(ty(&g, "ANO")));
    assert_eq!(&s.ruins[..], &[45, 4, 13]);
    assert_eq!(&s.well[..], &[7, 20, 47]);
    let outs = g.chance_outcomes(&s);
    assert_eq!(outs.len(), 3);
    assert!(outs.iter().all(|(_, p)| (p - 1.0 / 3.0).abs() < 1e-9));
    chance(&g, &mut s, 20);
    assert!(s.hands[0].contains(&20));
    assert_eq!(&s.well[..], &[7, 47]);
    assert_eq!(s.phase, Phase::Offer(1, false));
    act(&g, &mut s, Action::Decline);
    assert_eq!(&s.ruins[..], &[45, 4, 13, 38]);
    assert_eq!(s.phase, Phase::Bonus);
}

#[test]
fn k07_multi_card_moves_reverse_order() {
    let g = game("karmaka");
    // (a) Hell's Heart.
    let mut s = Scenario::new(&g)
        .future(1, &[28, 34, 17])
        .ruins(&[0])
        .hand(0, &[9])
        .build()
        .unwrap();
    act(&g, &mut s, Action::Ability(ty(&g, "HEL")));
    act(&g, &mut s, Action::Target(1));
    assert_eq!(&s.ruins[..], &[0, 17, 34]);
    assert_eq!(&s.futures[1][..], &[28]);
    assert_eq!(s.phase, Phase::Offer(1, true));
    // (b) Longevity.
    let mut s = Scenario::new(&g)
        .well_top(&[56, 52])
        .deck(1, &[39])
        .hand(0, &[44])
        .build()
        .unwrap();
    act(&g, &mut s, Action::Ability(ty(&g, "LON")));
    act(&g, &mut s, Action::Target(1));
    assert_eq!(&s.decks[1][..], &[39, 52, 56]);
    assert_eq!(s.phase, Phase::Offer(1, true));
    // P1's next draw is JUB#56.
    act(&g, &mut s, Action::Decline);
    assert_eq!(s.active, 1);
    assert!(s.hands[1].contains(&56));
    assert_eq!(&s.decks[1][..], &[39, 52]);
}

#[test]
fn k08_transmigrate_with_empty_future() {
    let g = game("karmaka");
    let mut s = Scenario::new(&g).hand(0, &[23, 1]).build().unwrap();
    act(&g, &mut s, Action::Ability(ty(&g, "TRA")));
    assert_eq!(s.phase, Phase::Offer(1, false));
    assert_eq!(&s.hands[0][..], &[1]);
    act(&g, &mut s, Action::Decline);
    assert_eq!(s.ruins.last(), Some(&23));
}

#[test]
fn k09_dwindle_against_empty_hand() {
    let g = game("karmaka(players=3)");
    let mut s = Scenario::new(&g).hand(0, &[4]).build().unwrap();
    act(&g, &mut s, Action::Ability(ty(&g, "DWI")));
    act(&g, &mut s, Action::Target(2));
    assert!(s.ruins.is_empty(), "no effect");
    assert_eq!(s.phase, Phase::Offer(2, true));
}

#[test]
fn k10_crisis_rival_chooses_any_deed() {
    let g = game("karmaka");
    let mut s = Scenario::new(&g)
        .deeds(1, &[15, 50, 0])
        .hand(0, &[6])
        .build()
        .unwrap();
    act(&g, &mut s, Action::Ability(ty(&g, "CRI")));
    act(&g, &mut s, Action::Target(1));
    assert_eq!(g.turn(&s), Turn::Player(1));
    assert_eq!(
        &*g.legal_actions(&s),
        &[Action::Deed(0), Action::Deed(1), Action::Deed(2)]
    );
    act(&g, &mut s, Action::Deed(1));
    assert_eq!(&s.deeds[1][..], &[15, 0]);
    assert_eq!(s.ruins.last(), Some(&50));
    assert_eq!(s.phase, Phase::Offer(1, true));
}

#[test]
fn k11_denial_plays_thievery_victim_gets_denial() {
    let g = game("karmaka(players=3)");
    let mut s = Scenario::new(&g)
        .hand(0, &[25, 34, 38])
        .deeds(2, &[53, 56])
        .build()
        .unwrap();
    act(&g, &mut s, Action::Ability(ty(&g, "DEN")));
    act(&g, &mut s, Action::Pick(ty(&g, "THI")));
    assert_eq!(s.ruins.last(), Some(&34));
    act(&g, &mut s, Action::Target(2));
    assert_eq!(&s.hands[0][..], &[38, 56]);
    assert_eq!(&s.deeds[2][..], &[53]);
    assert_eq!(s.ruins.last(), Some(&34));
    assert_eq!(s.center, 25);
    assert_eq!(s.phase, Phase::Offer(2, true));
}

#[test]
fn k12_salvage_through_denial_recovers_itself() {
    let g = game("karmaka");
    let mut s = Scenario::new(&g)
        .ruins(&[0, 6])
        .hand(0, &[26, 48])
        .build()
        .unwrap();
    act(&g, &mut s, Action::Ability(ty(&g, "DEN")));
    act(&g, &mut s, Action::Pick(ty(&g, "SAL")));
    assert_eq!(&s.ruins[..], &[0, 6, 48]);
    assert_eq!(
        &*g.legal_actions(&s),
        &[Action::Ruin(0), Action::Ruin(1), Action::Ruin(2)]
    );
    act(&g, &mut s, Action::Ruin(0));
    assert_eq!(&s.hands[0][..], &[48]);
    assert_eq!(&s.ruins[..], &[0, 6]);
    assert_eq!(s.phase, Phase::Offer(1, false));
    assert_eq!(s.center, 26);
}

#[test]
fn k13_chained_denials() {
    let g = game("karmaka");
    let mut s = Scenario::new(&g)
        .hand(0, &[25, 26, 15, 19])
        .hand(1, &[1])
        .deeds(1, &[50, 54])
        .ruins(&[0])
        .build()
        .unwrap();
    act(&g, &mut s, Action::Ability(ty(&g, "DEN")));
    assert_eq!(s.center, 25);
    act(&g, &mut s, Action::Pick(ty(&g, "DEN")));
    act(&g, &mut s, Action::Pick(ty(&g, "VEN")));
    act(&g, &mut s, Action::Target(1));
    assert_eq!(&s.ruins[..], &[0, 26, 15, 54]);
    assert_eq!(&s.hands[0][..], &[19]);
    assert_eq!(s.phase, Phase::Offer(1, true));
    act(&g, &mut s, Action::Decline);
    assert_eq!(&s.ruins[..], &[0, 26, 15, 54, 25]);
}

#[test]
fn k14_dwindle_on_yourself() {
    let g = game("karmaka");
    let mut s = Scenario::new(&g).hand(0, &[5, 14, 21]).build().unwrap();
    act(&g, &mut s, Action::Ability(ty(&g, "DWI")));
    assert_eq!(s.center, 5);
    act(&g, &mut s, Action::Target(0));
    assert_eq!(g.turn(&s), Turn::Player(0));
    act(&g, &mut s, Action::Pick(ty(&g, "ROU")));
    assert_eq!(&s.hands[0][..], &[21]);
    assert_eq!(s.ruins.last(), Some(&14));
    assert_eq!(s.phase, Phase::Offer(1, false));
    // Had P1 been the target, P1 would choose.
    let mut t = Scenario::new(&g)
        .hand(0, &[5])
        .hand(1, &[14, 21])
        .build()
        .unwrap();
    act(&g, &mut t, Action::Ability(ty(&g, "DWI")));
    act(&g, &mut t, Action::Target(1));
    assert_eq!(g.turn(&t), Turn::Player(1));
    assert_eq!(t.phase, Phase::DwindlePick(1));
}

#[test]
fn k15_embody_with_no_usable_deed() {
    let g = game("karmaka");
    // (a) No Deeds.
    let mut s = Scenario::new(&g).hand(0, &[57, 1]).build().unwrap();
    act(&g, &mut s, Action::Ability(ty(&g, "EMB")));
    assert_eq!(s.phase, Phase::Offer(1, false));
    assert_eq!(&s.hands[0][..], &[1]);
    // (b) The only Deed is an Embody: the second Embody does nothing.
    let mut s = Scenario::new(&g)
        .hand(0, &[57])
        .deeds(0, &[58])
        .build()
        .unwrap();
    act(&g, &mut s, Action::Ability(ty(&g, "EMB")));
    act(&g, &mut s, Action::Pick(ty(&g, "EMB")));
    assert_eq!(s.phase, Phase::Offer(1, false));
    assert_eq!(&s.deeds[0][..], &[58]);
    assert!(s.ruins.is_empty());
}

#[test]
fn k16_embody_own_mimic_then_rival_voyage() {
    let g = game("karmaka");
    let mut s = Scenario::new(&g)
        .deeds(0, &[62, 50])
        .deeds(1, &[55, 53])
        .hand(0, &[57, 19])
        .well_top(&[8, 10, 29])
        .build()
        .unwrap();
    act(&g, &mut s, Action::Ability(ty(&g, "EMB")));
    act(&g, &mut s, Action::Pick(ty(&g, "MIM")));
    assert_eq!(&*g.legal_actions(&s), &[Action::Target(1)]);
    act(&g, &mut s, Action::Target(1));
    assert_eq!(sorted(&s.hands[0]), vec![8, 10, 19, 29]);
    assert_eq!(&s.deeds[0][..], &[62, 50]);
    assert_eq!(&s.deeds[1][..], &[55, 53]);
    assert_eq!(s.phase, Phase::Offer(1, false));
    act(&g, &mut s, Action::Decline);
    assert_eq!(s.phase, Phase::Bonus);
    assert!(g.legal_actions(&s).contains(&Action::Stop));
}

#[test]
fn k17_mimic_rival_embody_then_own_hells_heart() {
    let g = game("karmaka");
    let mut s = Scenario::new(&g)
        .deeds(1, &[7, 58])
        .future(1, &[32, 27, 46])
        .deeds(0, &[11, 40])
        .hand(0, &[62])
        .build()
        .unwrap();
    act(&g, &mut s, Action::Ability(ty(&g, "MIM")));
    act(&g, &mut s, Action::Target(1));
    assert_eq!(s.phase, Phase::EmbodyPick);
    act(&g, &mut s, Action::Pick(ty(&g, "HEL")));
    act(&g, &mut s, Action::Target(1));
    assert_eq!(&s.ruins[..], &[46, 27]);
    assert_eq!(&s.futures[1][..], &[32]);
    assert_eq!(s.center, 62);
    assert_eq!(s.phase, Phase::Offer(1, true));
}

#[test]
fn k18_mimic_spite_aimed_at_third_player() {
    let g = game("karmaka(players=3)");
    let mut s = Scenario::new(&g)
        .deeds(1, &[17])
        .hand(2, &[19, 22, 44])
        .hand(0, &[63])
        .build()
        .unwrap();
    act(&g, &mut s, Action::Ability(ty(&g, "MIM")));
    assert_eq!(&*g.legal_actions(&s), &[Action::Target(1)]);
    act(&g, &mut s, Action::Target(1));
    act(&g, &mut s, Action::Target(2));
    assert_eq!(s.phase, Phase::SpiteChance(2, 2));
    chance(&g, &mut s, 22);
    chance(&g, &mut s, 19);
    assert_eq!(&s.hands[2][..], &[44]);
    assert_eq!(&s.ruins[..], &[22, 19]);
    assert_eq!(&s.deeds[1][..], &[17]);
    assert_eq!(s.phase, Phase::Offer(2, true));
}

#[test]
fn k19_four_players_opposite_seat() {
    let g = game("karmaka(players=4)");
    let s = Scenario::new(&g)
        .deeds(2, &[16])
        .deeds(3, &[50, 55])
        .hand(0, &[62, 15, 0, 44])
        .build()
        .unwrap();
    // No ability from P0's Hand may target P2, whatever its wording.
    for (code, want) in [
        ("VEN", bit(1) | bit(3)),
        ("PAN", bit(0) | bit(1) | bit(3)),
        ("LON", bit(0) | bit(1) | bit(3)),
    ] {
        let mut direct = s.clone();
        act(&g, &mut direct, Action::Ability(ty(&g, code)));
        let targets: Vec<Action> = (0..4u8)
            .filter(|&p| want & bit(p) != 0)
            .map(Action::Target)
            .collect();
        assert_eq!(&*g.legal_actions(&direct), &targets[..], "{code}");
    }
    let mut s = s;
    act(&g, &mut s, Action::Ability(ty(&g, "MIM")));
    assert_eq!(
        &*g.legal_actions(&s),
        &[Action::Target(2), Action::Target(3)]
    );
    act(&g, &mut s, Action::Target(2));
    assert_eq!(
        &*g.legal_actions(&s),
        &[Action::Target(1), Action::Target(3)]
    );
    act(&g, &mut s, Action::Target(3));
    assert_eq!(&s.deeds[3][..], &[50]);
    assert_eq!(&s.deeds[2][..], &[16]);
    assert_eq!(s.ruins.last(), Some(&55));
    assert_eq!(s.phase, Phase::Offer(3, true));
    // Any-player wording cannot reach the opposite seat either.
    assert_eq!(g.target_mask(0, cards::Who::Any), bit(0) | bit(1) | bit(3));
}

#[test]
fn k20_mimic_of_exposed_mimic_does_nothing() {
    let g = game("karmaka");
    let mut s = Scenario::new(&g)
        .deeds(1, &[63])
        .hand(0, &[62])
        .build()
        .unwrap();
    act(&g, &mut s, Action::Ability(ty(&g, "MIM")));
    act(&g, &mut s, Action::Target(1));
    assert_eq!(s.phase, Phase::Offer(1, false));
    assert_eq!(&s.deeds[1][..], &[63]);
    assert!(s.ruins.is_empty());
}

#[test]
fn k21_roulette_ruin_two_draw_up_to_three() {
    let g = game("karmaka");
    let mut s = Scenario::new(&g)
        .hand(0, &[12, 3, 1, 50])
        .well_top(&[45, 54, 20])
        .build()
        .unwrap();
    act(&g, &mut s, Action::Ability(ty(&g, "ROU")));
    act(&g, &mut s, Action::Pick(ty(&g, "DWI")));
    act(&g, &mut s, Action::Pick(ty(&g, "PAN")));
    assert_eq!(s.phase, Phase::RouletteDraw(3));
    act(&g, &mut s, Action::Draw);
    assert!(s.hands[0].contains(&20));
    assert_eq!(s.phase, Phase::RouletteDraw(2));
    act(&g, &mut s, Action::Draw);
    assert!(s.hands[0].contains(&54));
    act(&g, &mut s, Action::Stop);
    assert_eq!(sorted(&s.hands[0]), vec![20, 50, 54]);
    assert_eq!(&s.well_top[..], &[45]);
    assert_eq!(&s.ruins[..], &[3, 1]);
    assert_eq!(s.phase, Phase::Offer(1, false));
}

#[test]
fn k22_roulette_limits() {
    let g = game("karmaka");
    // (a) k = 0: one draw at most.
    let mut s = Scenario::new(&g).hand(0, &[12, 50]).build().unwrap();
    act(&g, &mut s, Action::Ability(ty(&g, "ROU")));
    act(&g, &mut s, Action::Stop);
    assert_eq!(s.phase, Phase::RouletteDraw(1));
    act(&g, &mut s, Action::Draw);
    chance(&g, &mut s, 0);
    assert_eq!(s.phase, Phase::Offer(1, false));
    // (b) Hand {ROU, DWI}: k = 1 at most, then up to 2 draws.
    let mut s = Scenario::new(&g).hand(0, &[12, 3]).build().unwrap();
    act(&g, &mut s, Action::Ability(ty(&g, "ROU")));
    act(&g, &mut s, Action::Pick(ty(&g, "DWI")));
    assert_eq!(s.phase, Phase::RouletteDraw(2));
    // (c) Well empty, only 3 Ruins: nothing can be drawn.
    let mut s = Scenario::new(&g)
        .hand(0, &[12, 3])
        .ruins(&[13, 4])
        .unplaced_to_deck(1)
        .build()
        .unwrap();
    act(&g, &mut s, Action::Ability(ty(&g, "ROU")));
    act(&g, &mut s, Action::Pick(ty(&g, "DWI")));
    assert_eq!(&s.ruins[..], &[13, 4, 3]);
    assert_eq!(s.center, 12);
    // The first Draw finds nothing, so the remaining draw of this effect gets
    // nothing too (§4.11): the ability ends without asking again.
    act(&g, &mut s, Action::Draw);
    assert!(s.hands[0].is_empty());
    assert_eq!(s.phase, Phase::Offer(1, false));
    assert_eq!(&s.ruins[..], &[13, 4, 3]);
}

#[test]
fn k23_teams_two_vs_two() {
    let g = game("karmaka(players=4,teams=true)");
    let s = Scenario::new(&g)
        .hand(0, &[44, 34, 15, 19])
        .build()
        .unwrap();
    // (a) Longevity on the ally.
    let mut a = s.clone();
    act(&g, &mut a, Action::Ability(ty(&g, "LON")));
    assert_eq!(
        &*g.legal_actions(&a),
        &[
            Action::Target(0),
            Action::Target(1),
            Action::Target(2),
            Action::Target(3)
        ]
    );
    act(&g, &mut a, Action::Target(2));
    chance(&g, &mut a, 0);
    chance(&g, &mut a, 1);
    assert_eq!(a.decks[2].len(), 2);
    assert_eq!(a.phase, Phase::Offer(1, false));
    act(&g, &mut a, Action::Decline);
    assert_eq!(a.phase, Phase::Offer(3, false));
    act(&g, &mut a, Action::Decline);
    assert_eq!(a.ruins.last(), Some(&44));
    // (b) Thievery and Vengeance cannot target the ally.
    for code in ["THI", "VEN"] {
        let mut b = s.clone();
        act(&g, &mut b, Action::Ability(ty(&g, code)));
        assert_eq!(
            &*g.legal_actions(&b),
            &[Action::Target(1), Action::Target(3)]
        );
    }
    // (c) Mode D.
    let mut c = s.clone();
    act(&g, &mut c, Action::AllyFuture(ty(&g, "PEE")));
    assert_eq!(c.futures[2].last(), Some(&19));
    assert_eq!(c.known[19], bit(0) | bit(2));
    assert_eq!(c.active, 1, "no offer after mode D");
    // (d) The ally transcends: the team wins.
    let d = Scenario::new(&g)
        .active(2)
        .level(2, 3)
        .deeds(2, &[53, 55, 57])
        .build()
        .unwrap();
    assert_eq!(g.turn(&d), Turn::Terminal);
    assert_eq!(d.winner, 2);
    assert_eq!(&*g.returns(&d), &[1.0, -1.0, 1.0, -1.0]);
}

#[test]
fn k24_big_bad_wolf() {
    let g = game("karmaka(variant=big-bad-wolf)");
    let s0 = g.initial_state(&mut rng_from_seed(1));
    assert_eq!(&s0.level[..3], &[2, 0, 0]);
    assert_eq!(g.role(&s0, 0), "wolf");
    assert_eq!(g.role(&s0, 1), "pig");
    assert_eq!(g.target_mask(1, cards::Who::Rival), bit(0));
    assert_eq!(g.target_mask(1, cards::Who::Any), bit(0) | bit(1) | bit(2));
    // A Beetle may not aim rival wording at its partner.
    for code in ["VEN", "THI", "CRI", "HEL", "SPI", "PEE", "STO", "SWI"] {
        let c = g.card(code, 0).unwrap();
        let mut s = Scenario::new(&g).active(1).hand(1, &[c]).build().unwrap();
        act(&g, &mut s, Action::Ability(ty(&g, code)));
        assert_eq!(&*g.legal_actions(&s), &[Action::Target(0)], "{code}");
    }
    // A Beetle's self-only card goes to the Wolf only.
    let mut s = Scenario::new(&g)
        .active(1)
        .hand(1, &[38, 1])
        .build()
        .unwrap();
    act(&g, &mut s, Action::Ability(ty(&g, "ANO")));
    chance(&g, &mut s, 2);
    assert_eq!(s.phase, Phase::Offer(0, false));
    act(&g, &mut s, Action::Decline);
    assert_eq!(s.ruins.last(), Some(&38));
    assert_eq!(s.phase, Phase::Bonus, "nobody else is asked");
    // The Wolf's goes to P1, then P2.
    let mut s = Scenario::new(&g).hand(0, &[39, 1]).build().unwrap();
    act(&g, &mut s, Action::Ability(ty(&g, "ANO")));
    chance(&g, &mut s, 2);
    assert_eq!(s.phase, Phase::Offer(1, false));
    act(&g, &mut s, Action::Decline);
    assert_eq!(s.phase, Phase::Offer(2, false));
    // Longevity on the partner is legal.
    let mut s = Scenario::new(&g).active(1).hand(1, &[45]).build().unwrap();
    act(&g, &mut s, Action::Ability(ty(&g, "LON")));
    assert!(g.legal_actions(&s).contains(&Action::Target(2)));
    act(&g, &mut s, Action::Target(2));
    chance(&g, &mut s, 0);
    chance(&g, &mut s, 1);
    assert_eq!(s.decks[2].len(), 2);
    // A Beetle transcends: both Beetles win.
    let s = Scenario::new(&g)
        .active(2)
        .level(2, 3)
        .deeds(2, &[53, 55, 57])
        .build()
        .unwrap();
    assert_eq!(g.turn(&s), Turn::Terminal);
    assert_eq!(&*g.returns(&s), &[-1.0, 1.0, 1.0]);
}

#[test]
fn k25_limbo_vulnerability_and_cover_deed() {
    let g = game("karmaka");
    for (cover, climbs) in [(false, false), (true, true)] {
        let d: &[u8] = if cover { &[15, 6, 19] } else { &[15, 6] };
        let mut s = Scenario::new(&g)
            .level(1, 1)
            .deeds(1, d)
            .hand(0, &[16, 1])
            .build()
            .unwrap();
        act(&g, &mut s, Action::Ability(ty(&g, "VEN")));
        act(&g, &mut s, Action::Target(1));
        assert_eq!(s.ruins.last(), Some(d.last().unwrap()));
        act(&g, &mut s, Action::Decline);
        assert_eq!(s.active, 1);
        assert_eq!(s.phase, Phase::Drawing(Dest::Deck(1), 6, Then::EndTurn));
        if climbs {
            assert_eq!((s.level[1], s.rings[1]), (2, 0));
        } else {
            assert_eq!((s.level[1], s.rings[1]), (1, 1));
        }
    }
}

#[test]
fn k26_spite() {
    let g = game("karmaka");
    for n in [3usize, 1, 0] {
        let cards = [0u8, 22, 44];
        let mut s = Scenario::new(&g)
            .hand(1, &cards[..n])
            .hand(0, &[18])
            .build()
            .unwrap();
        act(&g, &mut s, Action::Ability(ty(&g, "SPI")));
        act(&g, &mut s, Action::Target(1));
        match n {
            3 => {
                assert_eq!(g.chance_outcomes(&s).len(), 3);
                chance(&g, &mut s, 22);
                chance(&g, &mut s, 0);
                assert_eq!(&s.ruins[..], &[22, 0]);
                assert_eq!(&s.hands[1][..], &[44]);
            }
            1 => {
                chance(&g, &mut s, 0);
                assert_eq!(&s.ruins[..], &[0]);
                assert!(s.hands[1].is_empty());
            }
            _ => assert!(s.ruins.is_empty()),
        }
        assert_eq!(s.phase, Phase::Offer(1, true));
    }
}

#[test]
fn k27_swindle_and_knowledge() {
    let g = game("karmaka(players=3)");
    let mut s = Scenario::new(&g)
        .hand(1, &[2, 8, 56, 30, 41])
        .reveal(30, 2) // P2 knew one of P1's cards.
        .hand(0, &[36])
        .build()
        .unwrap();
    act(&g, &mut s, Action::Ability(ty(&g, "SWI")));
    act(&g, &mut s, Action::Target(1));
    chance(&g, &mut s, 8);
    chance(&g, &mut s, 56);
    chance(&g, &mut s, 41);
    assert_eq!(
        &*g.legal_actions(&s),
        &[
            Action::Pick(ty(&g, "CRI")),
            Action::Pick(ty(&g, "REC")),
            Action::Pick(ty(&g, "JUB"))
        ]
    );
    act(&g, &mut s, Action::Pick(ty(&g, "JUB")));
    assert_eq!(&s.hands[0][..], &[56]);
    assert_eq!(&s.hands[1][..], &[2, 8, 30, 41]);
    assert_eq!(s.phase, Phase::Offer(1, true));
    assert_eq!(s.known[56], bit(0) | bit(1));
    assert!(s.known[8] & bit(0) != 0 && s.known[41] & bit(0) != 0);
    assert_eq!(s.known[2] & bit(0), 0);
    assert!(
        s.hands[1]
            .iter()
            .all(|&c| s.known[c as usize] & bit(2) == 0)
    );
}

#[test]
fn k28_denial_copies_peek_offer_before_bonus() {
    let g = game("karmaka");
    let mut s = Scenario::new(&g)
        .hand(0, &[27, 21, 46, 49])
        .hand(1, &[5, 6])
        .build()
        .unwrap();
    act(&g, &mut s, Action::Ability(ty(&g, "DEN")));
    act(&g, &mut s, Action::Pick(ty(&g, "PEE")));
    assert_eq!(s.ruins.last(), Some(&21));
    act(&g, &mut s, Action::Target(1));
    assert!(s.known[5] & bit(0) != 0 && s.known[6] & bit(0) != 0);
    assert_eq!(s.center, 27);
    assert_eq!(s.phase, Phase::Offer(1, true));
    act(&g, &mut s, Action::Decline);
    assert_eq!(s.phase, Phase::Bonus);
    assert!(g.legal_actions(&s).contains(&Action::Stop));
    act(&g, &mut s, Action::Points(ty(&g, "LON")));
    assert_eq!(&s.deeds[0][..], &[46]);
    assert_eq!(s.active, 1);
}

#[test]
fn k29_the_loop_is_cut() {
    let g = game("karmaka");
    // (a) Embody -> own Mimic -> rival's Embody: no effect.
    let mut s = Scenario::new(&g)
        .deeds(0, &[62])
        .deeds(1, &[59])
        .hand(0, &[57])
        .build()
        .unwrap();
    act(&g, &mut s, Action::Ability(ty(&g, "EMB")));
    act(&g, &mut s, Action::Pick(ty(&g, "MIM")));
    act(&g, &mut s, Action::Target(1));
    assert_eq!(s.phase, Phase::Offer(1, false));
    assert_eq!(s.center, 57);
    // (b) Mimic -> rival's Embody -> own Mimic: no effect; own Hell's Heart works.
    let mut s = Scenario::new(&g)
        .deeds(0, &[62, 9])
        .deeds(1, &[59])
        .future(1, &[0])
        .hand(0, &[63])
        .build()
        .unwrap();
    act(&g, &mut s, Action::Ability(ty(&g, "MIM")));
    act(&g, &mut s, Action::Target(1));
    let mut hel = s.clone();
    act(&g, &mut s, Action::Pick(ty(&g, "MIM")));
    assert_eq!(s.phase, Phase::Offer(1, false));
    assert_eq!(&s.futures[1][..], &[0]);
    act(&g, &mut hel, Action::Pick(ty(&g, "HEL")));
    act(&g, &mut hel, Action::Target(1));
    assert!(hel.futures[1].is_empty());
    assert_eq!(hel.phase, Phase::Offer(1, true));
}

#[test]
fn k30_pass_or_must_play() {
    for (spec, pass_on_turn2) in [("karmaka", false), ("karmaka(pass_after_draw=false)", true)] {
        let g = game(spec);
        let mut s = Scenario::new(&g)
            .hand(0, &[50])
            .deck(0, &[38, 0])
            .hand(1, &[1, 2, 3])
            .build()
            .unwrap();
        // Turn 1: PAN#0 drawn, ANO#38 still in the Deck: Pass is legal.
        assert!(s.drew);
        assert_eq!(&s.hands[0][..], &[0, 50]);
        assert!(g.legal_actions(&s).contains(&Action::Pass));
        act(&g, &mut s, Action::Pass);
        act(&g, &mut s, Action::Points(ty(&g, "PAN")));
        // Turn 2: ANO#38 drawn, the Deck is empty: P0 must play.
        assert!(s.hands[0].contains(&38) && s.decks[0].is_empty());
        assert_eq!(g.legal_actions(&s).contains(&Action::Pass), pass_on_turn2);
        act(&g, &mut s, Action::Future(ty(&g, "PAN")));
        act(&g, &mut s, Action::Points(ty(&g, "PAN")));
        // Turn 3: no draw, P0 must play again.
        assert_eq!(s.active, 0);
        assert!(!s.drew);
        assert!(!g.legal_actions(&s).contains(&Action::Pass));
        assert_eq!(s.phase, Phase::Main);
    }
}

#[test]
fn k31_longevity_saves_panic_hastens() {
    let g = game("karmaka");
    // (a) Longevity on an empty player cancels the death.
    let mut s = Scenario::new(&g)
        .hand(0, &[45])
        .deck(0, &[2])
        .well_top(&[5, 6])
        .build()
        .unwrap();
    assert!(s.hands[1].is_empty() && s.decks[1].is_empty());
    act(&g, &mut s, Action::Ability(ty(&g, "LON")));
    act(&g, &mut s, Action::Target(1));
    assert_eq!(&s.decks[1][..], &[6, 5]);
    assert_eq!(s.phase, Phase::Offer(1, true));
    act(&g, &mut s, Action::Decline);
    assert_eq!(s.active, 1);
    assert_eq!(s.phase, Phase::Main);
    assert_eq!(s.rings[1], 0, "no Limbo turn");
    assert_eq!(&s.hands[1][..], &[5]);
    assert!(g.legal_actions(&s).contains(&Action::Pass));
    // (b) Panic ruins the last Deck card: Limbo next turn.
    let mut s = Scenario::new(&g)
        .hand(0, &[0])
        .deck(0, &[2])
        .deck(1, &[30])
        .build()
        .unwrap();
    act(&g, &mut s, Action::Ability(ty(&g, "PAN")));
    act(&g, &mut s, Action::Target(1));
    assert_eq!(s.ruins.last(), Some(&30));
    act(&g, &mut s, Action::Decline);
    // Panic's bonus play: P0 stops, and P1's turn starts with nothing.
    assert_eq!(s.phase, Phase::Bonus);
    act(&g, &mut s, Action::Stop);
    assert_eq!(s.active, 1);
    assert_eq!(s.phase, Phase::Drawing(Dest::Deck(1), 6, Then::EndTurn));
    assert_eq!(s.rings[1], 1);
}

#[test]
fn k32_ring_arithmetic() {
    assert_eq!(Karmaka::rings_spent(2, 4, 1), 0);
    assert_eq!(Karmaka::rings_spent(3, 5, 3), 2);
    assert_eq!(Karmaka::rings_spent(9, 4, 5), 0);
    let g = game("karmaka");
    // (level, rings, deeds) -> (level, rings)
    type Case<'a> = (u8, u16, &'a [u8], (u8, u16));
    let cases: [Case; 3] = [
        (0, 1, &[0, 3], (0, 2)),
        (1, 3, &[15], (2, 1)),
        (0, 0, &[15, 16, 17], (1, 0)),
    ];
    for (level, rings, d, want) in cases {
        let s = Scenario::new(&g)
            .level(0, level)
            .rings(0, rings)
            .deeds(0, d)
            .hand(1, &[1])
            .build()
            .unwrap();
        assert_eq!((s.level[0], s.rings[0]), want, "deeds {d:?}");
        assert!(s.deeds[0].is_empty(), "reborn");
    }
}

#[test]
fn k33_transcendence_ends_game_at_once() {
    for spec in ["karmaka", "karmaka(players=4,teams=true)"] {
        let g = game(spec);
        let s = Scenario::new(&g)
            .level(0, 3)
            .deeds(0, &[53, 55, 57])
            .future(0, &[1])
            .hand(1, &[2])
            .build()
            .unwrap();
        assert_eq!(g.turn(&s), Turn::Terminal);
        assert_eq!(s.winner, 0);
        assert_eq!(s.level[0], 4);
        assert_eq!(&s.deeds[0][..], &[53, 55, 57], "no rebirth");
        assert_eq!(&s.futures[0][..], &[1], "no rebirth");
        assert!(g.legal_actions(&s).is_empty());
        let r = g.returns(&s);
        assert_eq!(r[0], 1.0);
        assert_eq!(r[1], -1.0);
        if g.num_players() == 4 {
            assert_eq!(r[2], 1.0);
        }
    }
}

#[test]
fn k34_destiny_with_short_well() {
    let g = game("karmaka");
    let mut s = Scenario::new(&g)
        .hand(0, &[28])
        .ruins(&[0, 6, 44, 3, 14])
        .well_top(&[47, 20])
        .unplaced_to_deck(1)
        .build()
        .unwrap();
    assert!(s.well.is_empty());
    act(&g, &mut s, Action::Ability(ty(&g, "DES")));
    assert_eq!(&s.ruins[..], &[44, 3, 14]);
    assert_eq!(&s.well[..], &[0, 6]);
    chance(&g, &mut s, 6);
    assert_eq!(sorted(&s.aside), vec![6, 20, 47]);
    assert!(s.aside.iter().all(|&c| s.known[c as usize] == bit(0)));
    assert_eq!(s.phase, Phase::DestinyPlace(0));
    act(&g, &mut s, Action::Pick(ty(&g, "SAL")));
    act(&g, &mut s, Action::Pick(ty(&g, "PEE")));
    assert_eq!(&s.futures[0][..], &[47, 20]);
    assert_eq!(&s.well_top[..], &[6]);
    assert_eq!(&s.well[..], &[0]);
    assert_eq!(s.known[6], bit(0));
    assert_eq!(s.phase, Phase::Offer(1, false));
}

#[test]
fn k35_voyage_when_well_runs_dry() {
    let g = game("karmaka");
    // Well [ANO#39]: one card, nothing under it.
    let mut s = Scenario::new(&g)
        .hand(0, &[54])
        .ruins(&[47, 6, 0])
        .well_top(&[39])
        .unplaced_to_deck(1)
        .build()
        .unwrap();
    act(&g, &mut s, Action::Ability(ty(&g, "VOY")));
    assert_eq!(&s.hands[0][..], &[39]);
    assert!(s.well.is_empty() && s.well_top.is_empty());
    assert_eq!(&s.ruins[..], &[47, 6, 0], "no refill from 3 Ruins");
    assert_eq!(s.phase, Phase::Offer(1, false));
    act(&g, &mut s, Action::Decline);
    assert_eq!(s.phase, Phase::Bonus);
}

#[test]
fn k36_sowing_can_empty_the_hand() {
    let g = game("karmaka");
    let mut s = Scenario::new(&g)
        .deck(0, &[51])
        .well_top(&[3, 0])
        .hand(1, &[1, 2])
        .build()
        .unwrap();
    assert_eq!(&s.hands[0][..], &[51]);
    assert!(!g.legal_actions(&s).contains(&Action::Pass));
    act(&g, &mut s, Action::Ability(ty(&g, "SOW")));
    assert_eq!(&s.hands[0][..], &[0, 3]);
    assert_eq!(s.phase, Phase::SowPlace(2));
    act(&g, &mut s, Action::Pick(ty(&g, "DWI")));
    act(&g, &mut s, Action::Pick(ty(&g, "PAN")));
    assert_eq!(&s.futures[0][..], &[3, 0]);
    assert!(s.hands[0].is_empty());
    assert_eq!(s.phase, Phase::Offer(1, false));
    act(&g, &mut s, Action::Decline);
    act(&g, &mut s, Action::Points(ty(&g, "PAN")));
    // P0's turn is a Limbo turn: reborn with its Future Life as Hand.
    assert_eq!(s.rings[0], 1);
    assert_eq!(&s.hands[0][..], &[0, 3]);
}

#[test]
fn k37_jubilee_and_exposed_deed() {
    let g = game("karmaka");
    let mut s = Scenario::new(&g)
        .hand(0, &[55, 15, 19, 47])
        .deeds(0, &[6])
        .hand(1, &[35])
        .build()
        .unwrap();
    act(&g, &mut s, Action::Ability(ty(&g, "JUB")));
    act(&g, &mut s, Action::Pick(ty(&g, "VEN")));
    act(&g, &mut s, Action::Pick(ty(&g, "PEE")));
    assert_eq!(&s.deeds[0][..], &[6, 15, 19]);
    assert_eq!(&s.hands[0][..], &[47]);
    assert_eq!(s.phase, Phase::Offer(1, false));
    act(&g, &mut s, Action::Decline);
    act(&g, &mut s, Action::Ability(ty(&g, "THI")));
    act(&g, &mut s, Action::Target(0));
    assert_eq!(&s.hands[1][..], &[19]);
    assert_eq!(&s.deeds[0][..], &[6, 15]);
    assert_eq!(g.score_deeds(&s.deeds[0]), 5);
}

#[test]
fn k38_panic_own_deck_then_bonus_to_future() {
    let g = game("karmaka(players=3)");
    let mut s = Scenario::new(&g)
        .hand(0, &[1, 29])
        .deck(0, &[40, 17])
        .build()
        .unwrap();
    assert_eq!(&s.hands[0][..], &[1, 17, 29]);
    act(&g, &mut s, Action::Ability(ty(&g, "PAN")));
    act(&g, &mut s, Action::Target(0));
    assert_eq!(s.ruins.last(), Some(&40));
    assert_eq!(s.known[40], ALL);
    assert_eq!(s.phase, Phase::Offer(1, false));
    act(&g, &mut s, Action::Decline);
    assert_eq!(s.phase, Phase::Offer(2, false));
    act(&g, &mut s, Action::Decline);
    assert_eq!(s.ruins.last(), Some(&1));
    assert_eq!(s.phase, Phase::Bonus);
    act(&g, &mut s, Action::Future(ty(&g, "SPI")));
    assert_eq!(&s.hands[0][..], &[29]);
    assert!(s.decks[0].is_empty());
    assert_eq!(&s.futures[0][..], &[17]);
    assert_eq!(s.known[17], bit(0));
    for o in [1, 2] {
        assert_eq!(&g.view(&s, o).futures[0][..], &[NONE]);
    }
}

#[test]
fn k39_four_player_round_robin_includes_opposite() {
    let g = game("karmaka(players=4)");
    let mut s = Scenario::new(&g)
        .hand(0, &[42])
        .ruins(&[5])
        .build()
        .unwrap();
    act(&g, &mut s, Action::Ability(ty(&g, "REC")));
    act(&g, &mut s, Action::Ruin(0));
    assert_eq!(s.phase, Phase::Offer(1, false));
    act(&g, &mut s, Action::Decline);
    assert_eq!(s.phase, Phase::Offer(2, false));
    act(&g, &mut s, Action::Decline);
    assert_eq!(s.phase, Phase::Offer(3, false));
    act(&g, &mut s, Action::Accept);
    assert_eq!(s.futures[3].last(), Some(&42));
    assert_eq!(&s.futures[0][..], &[5]);
    assert_eq!(s.known[5], ALL, "a Recycled card stays public");
}

#[test]
fn k40_mimic_vengeance_against_its_owner() {
    let g = game("karmaka");
    let mut s = Scenario::new(&g)
        .deeds(1, &[50, 16])
        .hand(0, &[62])
        .build()
        .unwrap();
    act(&g, &mut s, Action::Ability(ty(&g, "MIM")));
    act(&g, &mut s, Action::Target(1));
    act(&g, &mut s, Action::Target(1));
    assert_eq!(&s.deeds[1][..], &[50]);
    assert_eq!(s.ruins.last(), Some(&16));
    assert_eq!(s.phase, Phase::Offer(1, true));
}

#[test]
fn k41_salvage_cannot_take_itself() {
    let g = game("karmaka");
    let mut s = Scenario::new(&g)
        .ruins(&[0, 6, 44, 3])
        .hand(0, &[47])
        .build()
        .unwrap();
    act(&g, &mut s, Action::Ability(ty(&g, "SAL")));
    assert_eq!(s.center, 47);
    assert_eq!(
        &*g.legal_actions(&s),
        &[Action::Ruin(0), Action::Ruin(1), Action::Ruin(2)]
    );
    act(&g, &mut s, Action::Ruin(1));
    assert_eq!(&s.hands[0][..], &[44]);
    act(&g, &mut s, Action::Decline);
    assert_eq!(&s.ruins[..], &[0, 6, 3, 47]);
}

#[test]
fn k42_stolen_dreams_and_public_knowledge() {
    let g = game("karmaka(players=3)");
    // VEN#15 is publicly known: P1 accepted it as a karmic card earlier.
    let mut s = Scenario::new(&g)
        .future(1, &[23, 15])
        .public(15)
        .hand(0, &[31, 32])
        .hand(1, &[1])
        .hand(2, &[2])
        .build()
        .unwrap();
    assert_eq!((s.known[15], s.known[23]), (ALL, bit(1)));
    act(&g, &mut s, Action::Ability(ty(&g, "STO")));
    act(&g, &mut s, Action::Target(1));
    assert_eq!(s.futures[0].last(), Some(&15));
    assert_eq!(&s.futures[1][..], &[23]);
    assert_eq!(s.known[15], ALL);
    assert_eq!(s.phase, Phase::Offer(1, true));
    // P1 and P2 each play a card; P0's next turn plays the second one.
    let next_turn = |s: &mut State| {
        act(&g, s, Action::Points(ty(&g, "PAN")));
        act(&g, s, Action::Points(ty(&g, "PAN")));
        assert_eq!((s.active, s.phase), (0, Phase::Main));
        act(&g, s, Action::Ability(ty(&g, "STO")));
        act(&g, s, Action::Target(1));
    };
    let mut accepted = s.clone();
    // P1 declined STO#31: the second Stolen Dreams takes TRA#23, which P0
    // and P1 know, P2 not.
    act(&g, &mut s, Action::Decline);
    assert_eq!(s.ruins.last(), Some(&31));
    next_turn(&mut s);
    assert_eq!(s.futures[0].last(), Some(&23));
    assert!(s.futures[1].is_empty());
    assert_eq!(s.known[23], bit(0) | bit(1));
    // Had P1 accepted STO#31, the second one would take it instead.
    act(&g, &mut accepted, Action::Accept);
    assert_eq!(&accepted.futures[1][..], &[23, 31]);
    next_turn(&mut accepted);
    assert_eq!(accepted.futures[0].last(), Some(&31));
    assert_eq!(&accepted.futures[1][..], &[23]);
    assert_eq!(accepted.known[31], ALL);
}

#[test]
fn k43_crisis_or_vengeance_without_deeds() {
    let g = game("karmaka");
    for code in ["CRI", "VEN"] {
        let mut s = Scenario::new(&g).hand(0, &[7, 15]).build().unwrap();
        assert!(s.deeds[1].is_empty());
        act(&g, &mut s, Action::Ability(ty(&g, code)));
        act(&g, &mut s, Action::Target(1));
        assert_eq!(s.phase, Phase::Offer(1, true));
        assert!(s.ruins.is_empty());
    }
}

#[test]
fn k44_denial_with_nothing_left() {
    let g = game("karmaka");
    let mut s = Scenario::new(&g)
        .hand(0, &[25])
        .hand(1, &[1])
        .build()
        .unwrap();
    assert!(!g.legal_actions(&s).contains(&Action::Pass));
    act(&g, &mut s, Action::Ability(ty(&g, "DEN")));
    assert_eq!(s.phase, Phase::Offer(1, false));
    assert!(s.ruins.is_empty());
    act(&g, &mut s, Action::Decline);
    assert_eq!(&s.ruins[..], &[25]);
    act(&g, &mut s, Action::Points(ty(&g, "PAN")));
    // P0's Limbo turn happened: a ring for a score of 0.
    assert_eq!(s.rings[0], 1);
    assert_eq!(s.phase, Phase::Drawing(Dest::Deck(0), 6, Then::EndTurn));
}

#[test]
fn k45_denial_another_day_with_empty_well() {
    let g = game("karmaka");
    let mut s = Scenario::new(&g)
        .ruins(&[0, 6, 44, 3])
        .hand(0, &[25, 38, 1])
        .unplaced_to_deck(1)
        .build()
        .unwrap();
    assert!(s.well.is_empty());
    act(&g, &mut s, Action::Ability(ty(&g, "DEN")));
    act(&g, &mut s, Action::Pick(ty(&g, "ANO")));
    assert_eq!(&s.ruins[..], &[44, 3, 38]);
    assert_eq!(&s.well[..], &[0, 6]);
    chance(&g, &mut s, 6);
    assert_eq!(&s.hands[0][..], &[1, 6]);
    assert_eq!(s.center, 25);
    assert_eq!(s.phase, Phase::Offer(1, false));
    act(&g, &mut s, Action::Decline);
    assert_eq!(s.ruins.last(), Some(&25));
    assert_eq!(s.phase, Phase::Bonus);
}

#[test]
fn k46_determinization_view() {
    let g = game("karmaka");
    // P0 had peeked P1's Hand; P1 had accepted VOY#53 as a karmic card.
    let mut s = Scenario::new(&g)
        .active(1)
        .hand(0, &[2, 3])
        .future(0, &[4])
        .deck(0, &[5, 7])
        .hand(1, &[15, 34, 40])
        .future(1, &[50, 53])
        .public(53)
        .deeds(1, &[60])
        .ruins(&[61])
        .reveal(15, 0)
        .reveal(34, 0)
        .reveal(40, 0)
        .build()
        .unwrap();
    act(&g, &mut s, Action::Future(ty(&g, "VEN")));
    assert!(
        s.hands[1]
            .iter()
            .all(|&c| s.known[c as usize] & bit(0) == 0)
    );
    let key = g.info_key(&s, 0);
    let mut hand_changed = false;
    let mut deck_changed = false;
    for seed in 0..20 {
        let d = g.determinize(&s, 0, &mut rng_from_seed(seed));
        assert_eq!(g.info_key(&d, 0), key);
        assert!(Karmaka::conserved(&d));
        // Views number copies canonically: what stays fixed is each card's
        // type (copies of a type are interchangeable).
        assert_eq!(
            kinds(&g, &d.hands[0]),
            kinds(&g, &[2, 3, 7]),
            "P0 drew DWI#7 at its turn start"
        );
        assert_eq!(kinds(&g, &d.futures[0]), kinds(&g, &[4]));
        assert_eq!(kinds(&g, &d.deeds[1]), kinds(&g, &[60]));
        assert_eq!(kinds(&g, &d.ruins), kinds(&g, &[61]));
        assert_eq!(
            k(&g, d.futures[1][1]),
            k(&g, 53),
            "the public karmic card stays"
        );
        assert_eq!(d.known[d.futures[1][1] as usize], ALL);
        assert_eq!(d.hands[1].len(), 2);
        assert_eq!(d.futures[1].len(), 3);
        assert_eq!((d.level, d.rings), (s.level, s.rings));
        hand_changed |= kinds(&g, &d.hands[1]) != kinds(&g, &s.hands[1]);
        deck_changed |= kinds(&g, &d.decks[0]) != kinds(&g, &s.decks[0]);
    }
    assert!(hand_changed && deck_changed);
}

// ---------------------------------------------------------------- variants and data

#[test]
fn invalid_combinations_are_errors() {
    for spec in [
        "karmaka(players=3,teams=true)",
        "karmaka(players=2,teams=true)",
        "karmaka(variant=big-bad-wolf,players=4)",
        "karmaka(variant=big-bad-wolf,players=4,teams=true)",
        "karmaka(players=5)",
        "karmaka(variant=pigs)",
        "karmaka(first=3)",
        "karmaka(colour=red)",
    ] {
        assert!(Karmaka::parse(spec).is_err(), "{spec} should be rejected");
    }
    assert!(crate::games::AnyGame::parse("karmaka(players=3,teams=true)").is_err());
    let g = game("karmaka(variant=big-bad-wolf)");
    assert_eq!(g.num_players(), 3);
    assert_eq!(g.spec(), "karmaka(variant=big-bad-wolf)");
    assert_eq!(game("karmaka(players=4,teams=true)").side(3), 1);
    for spec in [
        "karmaka(players=4,teams=true,first=2)",
        "karmaka(variant=big-bad-wolf,bbw_partner_future=true)",
        "karmaka(players=3,max_plies=300,refill_on_deal=false)",
    ] {
        let g = game(spec);
        assert_eq!(game(&g.spec()).spec(), g.spec(), "{spec}");
        assert_ne!(g.spec(), "karmaka");
    }
}

#[test]
fn card_table_matches_the_spec() {
    let g = game("karmaka");
    assert_eq!(g.cards.types.len(), 23);
    let by = |col: cards::Colour| {
        (0..64u8)
            .filter(|&c| g.cards.ty(c).colour == col)
            .map(|c| u32::from(g.cards.ty(c).points))
            .collect::<Vec<_>>()
    };
    assert_eq!(by(cards::Colour::Red).len(), 19);
    assert_eq!(by(cards::Colour::Blue).iter().sum::<u32>(), 36);
    assert_eq!(by(cards::Colour::Green).iter().sum::<u32>(), 36);
    assert_eq!(by(cards::Colour::Mosaic).len(), 7);
    assert_eq!(g.cards.label(15), "VEN#15");
    assert_eq!(g.cards.label(62), "MIM#62");
    assert_eq!(g.cards.label(36), "SWI#36");
}

#[test]
fn bad_card_files_are_rejected() {
    let dir = std::env::temp_dir();
    let short = dir.join("karmaka_short_cards.toml");
    let text = cards::DEFAULT_CARDS.replacen("copies = 3", "copies = 2", 1);
    std::fs::write(&short, text).unwrap();
    let err = Karmaka::parse(&format!("karmaka(cards={})", short.display()))
        .unwrap_err()
        .to_string();
    assert!(err.contains("63"), "{err}");
    let bad = dir.join("karmaka_bad_ability.toml");
    std::fs::write(
        &bad,
        cards::DEFAULT_CARDS.replacen("\"panic\"", "\"teleport\"", 1),
    )
    .unwrap();
    let err = Karmaka::parse(&format!("karmaka(cards={})", bad.display()))
        .unwrap_err()
        .to_string();
    assert!(err.contains("teleport"), "{err}");
    let good = dir.join("karmaka_same_cards.toml");
    std::fs::write(&good, cards::DEFAULT_CARDS).unwrap();
    let g = Karmaka::parse(&format!("karmaka(cards={})", good.display())).unwrap();
    assert_eq!(g.cards, game("karmaka").cards);
}

#[test]
fn switches_change_the_rules() {
    // Ambiguity 6: no bonus when Peek saw nothing.
    for (spec, bonus) in [("karmaka", true), ("karmaka(bonus_when_void=false)", false)] {
        let g = game(spec);
        let mut s = Scenario::new(&g).hand(0, &[19, 1]).build().unwrap();
        act(&g, &mut s, Action::Ability(ty(&g, "PEE")));
        act(&g, &mut s, Action::Target(1));
        act(&g, &mut s, Action::Decline);
        assert_eq!(s.phase == Phase::Bonus, bonus, "{spec}");
    }
    // Ambiguity 10: opposite seat reachable by any-player wording.
    let g = game("karmaka(players=4,opposite_targetable=true)");
    assert_eq!(g.target_mask(0, cards::Who::Any), 0b1111);
    assert_eq!(g.target_mask(0, cards::Who::Rival), bit(1) | bit(3));
    // Ambiguity 12 and the mode-D flag in Big Bad Wolf.
    let g = game("karmaka(variant=big-bad-wolf,bbw_partner_target=false)");
    assert_eq!(g.target_mask(1, cards::Who::Any), bit(0) | bit(1));
    assert!(!game("karmaka(variant=big-bad-wolf)").ally_play(1));
    let g = game("karmaka(variant=big-bad-wolf,bbw_partner_future=true)");
    assert!(g.ally_play(1) && !g.ally_play(0));
    // Ambiguity 11: Mimic of the ally's Deed.
    let g = game("karmaka(players=4,teams=true,mimic_ally=true)");
    let s = Scenario::new(&g)
        .hand(0, &[1])
        .deeds(2, &[16])
        .build()
        .unwrap();
    assert_eq!(g.mimic_mask(&s, 0), bit(2));
    assert_eq!(game("karmaka(players=4,teams=true)").mimic_mask(&s, 0), 0);
    // Ambiguity 7: Embody chain offered round-robin.
    let g = game("karmaka(players=3,embody_victim=false)");
    let mut s = Scenario::new(&g)
        .deeds(0, &[15])
        .deeds(2, &[1])
        .hand(0, &[57])
        .build()
        .unwrap();
    act(&g, &mut s, Action::Ability(ty(&g, "EMB")));
    act(&g, &mut s, Action::Pick(ty(&g, "VEN")));
    act(&g, &mut s, Action::Target(2));
    assert_eq!(s.phase, Phase::Offer(1, false));
    // refill_on_deal=false: Longevity from an empty Well deals nothing.
    let g = game("karmaka(refill_on_deal=false)");
    let mut s = Scenario::new(&g)
        .hand(0, &[44])
        .ruins(&[0, 1, 2, 3, 4])
        .unplaced_to_deck(0)
        .build()
        .unwrap();
    assert!(s.well.is_empty());
    let before = s.decks[1].len();
    act(&g, &mut s, Action::Ability(ty(&g, "LON")));
    act(&g, &mut s, Action::Target(1));
    assert_eq!(s.decks[1].len(), before);
    assert_eq!(s.ruins.len(), 5);
}

#[test]
fn render_shows_only_what_the_viewer_sees() {
    let g = game("karmaka");
    let s = Scenario::new(&g)
        .hand(0, &[15])
        .hand(1, &[34])
        .future(1, &[53])
        .build()
        .unwrap();
    let text = g.render(&s, Some(0));
    assert!(text.contains("Vengeance"), "{text}");
    assert!(!text.contains("Thievery"), "{text}");
    assert!(!text.contains("Voyage"), "{text}");
    assert!(g.render(&s, None).contains("Thievery"));
    let l = g.action_label(&s, Action::Ability(ty(&g, "VEN")));
    assert!(l.contains("Vengeance"), "{l}");
}
/// A longer run of the generic suite over more switch combinations
/// (`cargo test -- --ignored`).
#[test]
#[ignore]
fn zz_heavy_conformance() {
    for spec in [
        "karmaka",
        "karmaka(players=3)",
        "karmaka(players=4)",
        "karmaka(players=4,teams=true,mimic_ally=true)",
        "karmaka(variant=big-bad-wolf)",
        "karmaka(variant=big-bad-wolf,bbw_partner_future=true,bbw_partner_target=false)",
        "karmaka(players=4,opposite_targetable=true,bonus_when_void=false,embody_victim=false)",
        "karmaka(players=3,pass_after_draw=false,refill_on_deal=false,max_plies=50)",
    ] {
        conformance::check(
            &game(spec),
            conformance::Config {
                playouts: 200,
                seed: 99,
                ..Default::default()
            },
        );
        soak(spec, 200, 5);
    }
}

#[test]
fn heuristic_prefers_progress() {
    let g = game("karmaka");
    let base = || Scenario::new(&g).hand(0, &[0]);
    let s = base().build().unwrap();
    assert_eq!(g.heuristic(&s, 0), 0.0);
    let s = base().level(0, 2).build().unwrap();
    assert!(g.heuristic(&s, 0) > 0.3 && g.heuristic(&s, 1) < -0.3);
    let before = g.heuristic(&s, 0);
    let s = base().level(0, 2).deeds(0, &[15, 16]).build().unwrap();
    assert!(g.heuristic(&s, 0) > before, "secured points count");
    let t = base().deeds(1, &[15, 16]).build().unwrap();
    assert!(g.heuristic(&t, 0) < 0.0);
}

/// Spec §9 term 5: a card that fits the recipient's Future Life costs the
/// actor more than one the recipient would decline.
#[test]
fn heuristic_counts_the_karmic_cost_of_an_offer() {
    let g = game("karmaka");
    let offered = |card: u8| {
        let mut s = Scenario::new(&g)
            .hand(0, &[card])
            .future(1, &[9, 12])
            .hand(1, &[1])
            .build()
            .unwrap();
        act(&g, &mut s, Action::Ability(k(&g, card)));
        act(&g, &mut s, Action::Target(1));
        assert_eq!(s.phase, Phase::Offer(1, true));
        assert_eq!(s.center, card);
        let mut declined = s.clone();
        act(&g, &mut declined, Action::Decline);
        (g.heuristic(&s, 0), g.heuristic(&declined, 0))
    };
    // Vengeance (red) offered to a red Future Life; Peek (blue) beside it.
    let (fits, fits_declined) = offered(15);
    let (off_colour, off_declined) = offered(19);
    assert!(fits < fits_declined, "{fits} vs {fits_declined}");
    assert_eq!(off_colour, off_declined);
    assert!(fits < off_colour);
}

#[test]
fn setup_deals_four_and_two() {
    let g = game("karmaka(players=4,first=2)");
    let s = g.initial_state(&mut rng_from_seed(8));
    assert!(Karmaka::conserved(&s));
    assert_eq!(s.active, 2);
    assert_eq!(s.phase, Phase::Main);
    for p in 0..4u8 {
        let pu = p as usize;
        // The first player has drawn its top Deck card.
        let (h, d) = if p == 2 { (5, 1) } else { (4, 2) };
        assert_eq!((s.hands[pu].len(), s.decks[pu].len()), (h, d));
        assert!(s.decks[pu].iter().all(|&c| s.known[c as usize] == 0));
        assert!(s.hands[pu].iter().all(|&c| s.known[c as usize] == bit(p)));
    }
    assert_eq!(s.well.len(), 64 - 24);
    // Nobody, not even the owner, sees a Deck.
    let v = g.view(&s, 0);
    assert!(v.decks[0].iter().all(|&c| c == NONE));
    assert!(v.hands[1].iter().all(|&c| c == NONE));
    assert!(v.hands[0].iter().all(|&c| c != NONE));
}

#[test]
fn destiny_knowledge_follows_cards_onto_a_deck() {
    let g = game("karmaka(players=3)");
    let mut s = Scenario::new(&g)
        .hand(0, &[28, 44])
        .hand(1, &[1])
        .hand(2, &[2])
        .well_top(&[10, 20, 30])
        .build()
        .unwrap();
    act(&g, &mut s, Action::Ability(ty(&g, "DES")));
    act(&g, &mut s, Action::Stop);
    assert_eq!(s.phase, Phase::DestinyReturn);
    act(&g, &mut s, Action::Pick(k(&g, 20)));
    act(&g, &mut s, Action::Pick(k(&g, 10)));
    assert_eq!(&s.well_top[..], &[20, 10, 30]);
    act(&g, &mut s, Action::Decline);
    act(&g, &mut s, Action::Decline);
    // P1 and P2 play; on P0's next turn Longevity on P1 deals 30 then 10
    // onto its Deck.
    act(&g, &mut s, Action::Points(ty(&g, "PAN")));
    act(&g, &mut s, Action::Points(ty(&g, "PAN")));
    assert_eq!((s.active, s.phase), (0, Phase::Main));
    assert_eq!(&s.well_top[..], &[20, 10, 30]);
    act(&g, &mut s, Action::Ability(ty(&g, "LON")));
    act(&g, &mut s, Action::Target(1));
    assert_eq!(&s.decks[1][..], &[30, 10]);
    assert_eq!(s.known[10], bit(0));
    let v0 = g.view(&s, 0);
    assert_eq!(kinds(&g, &v0.decks[1]), kinds(&g, &[30, 10]));
    assert_eq!(&g.view(&s, 1).decks[1][..], &[NONE, NONE]);
    // P0's determinizations keep the Deck cards and the Well top it knows.
    for seed in 0..5 {
        let d = g.determinize(&s, 0, &mut rng_from_seed(seed));
        assert_eq!(kinds(&g, &d.decks[1]), kinds(&g, &[30, 10]));
        assert_eq!(kinds(&g, &d.well_top), kinds(&g, &[20]));
        assert_eq!(g.info_key(&d, 0), g.info_key(&s, 0));
    }
    // P2's resample them, but remember that P0 knows the top Deck card.
    let moved = (0..20).any(|seed| {
        let d = g.determinize(&s, 2, &mut rng_from_seed(seed));
        assert_eq!(d.known[d.decks[1][1] as usize], bit(0));
        assert_eq!(g.info_key(&d, 2), g.info_key(&s, 2));
        kinds(&g, &d.decks[1]) != kinds(&g, &[30, 10])
    });
    assert!(moved);
}

#[test]
fn third_party_peek_survives_determinization() {
    let g = game("karmaka(players=3)");
    let mut s = Scenario::new(&g)
        .active(2)
        .hand(1, &[5, 6, 7])
        .hand(2, &[19, 1])
        .hand(0, &[2])
        .build()
        .unwrap();
    act(&g, &mut s, Action::Ability(ty(&g, "PEE")));
    act(&g, &mut s, Action::Target(1));
    assert!(
        s.hands[1]
            .iter()
            .all(|&c| s.known[c as usize] == bit(1) | bit(2))
    );
    let key = g.info_key(&s, 0);
    assert_eq!(key.view.hands[1][..], [NONE, NONE, NONE]);
    for seed in 0..5 {
        let d = g.determinize(&s, 0, &mut rng_from_seed(seed));
        assert!(
            d.hands[1]
                .iter()
                .all(|&c| d.known[c as usize] == bit(1) | bit(2))
        );
        assert_eq!(g.info_key(&d, 0), key);
    }
}

#[test]
fn metrics_match_an_independent_count_of_the_action_log() {
    use std::collections::BTreeMap;
    let mut saw = BTreeMap::new();
    for spec in [
        "karmaka",
        "karmaka(players=3)",
        "karmaka(players=4,teams=true)",
        "karmaka(variant=big-bad-wolf)",
    ] {
        let g = Karmaka::parse(spec).unwrap();
        let mut rng = rng_from_seed(91);
        for i in 0..25 {
            let mut s = g.initial_state(&mut rng);
            let start_level = s.level;
            // Counted from the log, per seat.
            let mut played: Vec<BTreeMap<String, f64>> = vec![BTreeMap::new(); 4];
            let (mut bonus_granted, mut bonus_plays, mut copies) = ([0.0; 4], [0.0; 4], [0.0; 4]);
            let (mut climbs, mut gains) = ([0.0; 4], [0.0; 4]);
            while g.turn(&s) != Turn::Terminal {
                let a = match g.turn(&s) {
                    Turn::Chance => g.sample_chance(&s, &mut rng),
                    _ => {
                        let l = g.legal_actions(&s);
                        l[crate::rng::below(&mut rng, l.len())]
                    }
                };
                let p = s.active as usize;
                let play = match a {
                    Action::Points(t) => Some((t, "points")),
                    Action::Ability(t) => Some((t, "ability")),
                    Action::Future(t) => Some((t, "future")),
                    Action::AllyFuture(t) => Some((t, "ally_future")),
                    _ => None,
                };
                match s.phase {
                    Phase::Main | Phase::Bonus => {
                        if s.phase == Phase::Bonus {
                            bonus_granted[p] += 1.0;
                        }
                        if let Some((t, mode)) = play {
                            let code = g.cards.types[t as usize].code.to_lowercase();
                            *played[p]
                                .entry(format!("played_{code}_{mode}"))
                                .or_default() += 1.0;
                            if s.phase == Phase::Bonus {
                                bonus_plays[p] += 1.0;
                            }
                        }
                    }
                    Phase::MimicSource | Phase::DenialPick | Phase::EmbodyPick => copies[p] += 1.0,
                    _ => {}
                }
                let before = s.clone();
                g.apply(&mut s, a);
                // A Limbo turn either climbs a rung or gains a ring.
                for q in 0..g.players as usize {
                    climbs[q] += f64::from(s.level[q] - before.level[q]);
                    if s.rings[q] > before.rings[q] {
                        gains[q] += f64::from(s.rings[q] - before.rings[q]);
                    }
                }
            }
            for p in 0..g.players {
                let pu = p as usize;
                let ctx = format!("{spec} game {i} seat {p}");
                let m: BTreeMap<&str, f64> = g.metrics(&s, p).into_iter().collect();
                let listed: BTreeMap<String, f64> = m
                    .iter()
                    .filter(|(k, _)| {
                        k.starts_with("played_") && k.split('_').count() >= 3 && {
                            let code = k.split('_').nth(1).unwrap();
                            g.cards.types.iter().any(|t| t.code.to_lowercase() == code)
                        }
                    })
                    .map(|(k, v)| (k.to_string(), *v))
                    .collect();
                assert_eq!(listed, played[pu], "{ctx}");
                for mode in ["points", "ability", "future", "ally_future"] {
                    let want: f64 = played[pu]
                        .iter()
                        .filter(|(k, _)| {
                            k.ends_with(&format!("_{mode}"))
                                && (mode != "future" || !k.ends_with("_ally_future"))
                        })
                        .map(|(_, v)| v)
                        .sum();
                    assert_eq!(m[format!("played_{mode}").as_str()], want, "{ctx} {mode}");
                }
                assert_eq!(m["played"], played[pu].values().sum::<f64>(), "{ctx}");
                assert_eq!(m["bonus_granted"], bonus_granted[pu], "{ctx}");
                assert_eq!(m["bonus_plays"], bonus_plays[pu], "{ctx}");
                assert_eq!(m["copies"], copies[pu], "{ctx}");
                assert_eq!(m["rung"], f64::from(s.level[pu]), "{ctx}");
                assert_eq!(m["rings"], f64::from(s.rings[pu]), "{ctx}");
                assert_eq!(m["climbs"], climbs[pu], "{ctx}");
                assert_eq!(
                    m["climbs"],
                    f64::from(s.level[pu] - start_level[pu]),
                    "{ctx}"
                );
                assert_eq!(m["rings_gained"], gains[pu], "{ctx}");
                assert_eq!(m["rings_gained"] - m["rings_spent"], m["rings"], "{ctx}");
                assert_eq!(m["deaths"], m["climbs"] + m["rings_gained"], "{ctx}");
                assert_eq!(
                    m["transcended"],
                    f64::from(u8::from(s.winner == p)),
                    "{ctx}"
                );
                assert_eq!(m["lives"], m["reincarnations"] + 1.0, "{ctx}");
                assert_eq!(m["reincarnations"], m["deaths"] - m["transcended"], "{ctx}");
                for (k, v) in &m {
                    *saw.entry(k.to_string()).or_insert(0.0) += v;
                }
            }
        }
    }
    // The random games exercise every counter.
    for key in [
        "bonus_plays",
        "copies",
        "climbs",
        "rings_gained",
        "rings_spent",
        "played_ally_future",
        "transcended",
    ] {
        assert!(saw[key] > 0.0, "{key} never counted: {saw:?}");
    }
}

#[test]
fn invariants_catch_broken_states() {
    let g = game("karmaka");
    let s = g.initial_state(&mut rng_from_seed(1));
    assert_eq!(g.check_invariants(&s), Ok(()));
    let mut twice = s.clone();
    let card = twice.hands[0][0];
    twice.hands[1].push(card);
    assert!(g.check_invariants(&twice).is_err());
    let mut high = s.clone();
    high.level[1] = 9;
    assert!(g.check_invariants(&high).unwrap_err().contains("top rung"));
}

// ---------------------------------------------------------------- hidden information

/// The type of a card played face down stays out of the keys of the seats
/// that did not see it; the player (and the ally of a mode D play) keep it,
/// and the research metrics still count it.
#[test]
fn face_down_plays_keep_their_type_out_of_other_keys() {
    let g = game("karmaka");
    let play = |code: &str| {
        let mut s = Scenario::new(&g)
            .hand(0, &[6, 9])
            .hand(1, &[0])
            .deck(1, &[1])
            .build()
            .unwrap();
        act(&g, &mut s, Action::Future(ty(&g, code)));
        s
    };
    let (a, b) = (play("CRI"), play("HEL"));
    assert_eq!(g.info_key(&a, 1), g.info_key(&b, 1));
    assert_ne!(g.info_key(&a, 0), g.info_key(&b, 0));
    assert!(g.metrics(&a, 0).contains(&("played_cri_future", 1.0)));
    for seed in 0..5 {
        let d = g.determinize(&a, 1, &mut rng_from_seed(seed));
        assert_eq!(d.tally.played[0][ty(&g, "CRI") as usize][2], 0);
    }
    // Mode D: the ally saw the card, the rivals did not.
    let g4 = game("karmaka(players=4,teams=true)");
    let play = |code: &str| {
        let mut s = Scenario::new(&g4)
            .hand(0, &[6, 9])
            .hand(1, &[0])
            .build()
            .unwrap();
        act(&g4, &mut s, Action::AllyFuture(ty(&g4, code)));
        s
    };
    let (a, b) = (play("CRI"), play("HEL"));
    assert_eq!(g4.info_key(&a, 1), g4.info_key(&b, 1));
    assert_eq!(g4.info_key(&a, 3), g4.info_key(&b, 3));
    assert_ne!(g4.info_key(&a, 2), g4.info_key(&b, 2));
}

/// Playing "a card of type X" moves a copy chosen so that an observer who
/// knew where one copy was learns nothing from which copy moved.
#[test]
fn the_copy_that_moves_is_knowledge_neutral() {
    // P1 knows CRI#7 in P0's Hand; the other Hand card is CRI#6 or HEL#9.
    let g = game("karmaka");
    let world = |other: u8| {
        let mut s = Scenario::new(&g)
            .hand(0, &[other, 7])
            .reveal(7, 1)
            .hand(1, &[0])
            .deck(1, &[1])
            .build()
            .unwrap();
        act(&g, &mut s, Action::Points(ty(&g, "CRI")));
        s
    };
    let (a, b) = (world(6), world(9));
    assert_eq!(g.info_key(&a, 1), g.info_key(&b, 1));
    assert!(
        a.hands[0]
            .iter()
            .all(|&c| a.known[c as usize] & bit(1) == 0)
    );
}

/// Two observers who each knew a different copy: after one copy is played,
/// neither can tell which one is left; one who knew both still knows one.
#[test]
fn observers_of_different_copies_both_lose_track() {
    let g3 = game("karmaka(players=3)");
    let mut s = Scenario::new(&g3)
        .hand(0, &[6, 7, 15])
        .reveal(6, 1)
        .reveal(7, 2)
        .hand(1, &[0])
        .build()
        .unwrap();
    act(&g3, &mut s, Action::Points(ty(&g3, "CRI")));
    for o in [1, 2] {
        assert!(
            s.hands[0]
                .iter()
                .all(|&c| s.known[c as usize] & bit(o) == 0),
            "seat {o} still knows a card of P0's Hand"
        );
    }
    // A seat that knew both copies (but not the whole Hand) still knows the
    // one left when no third seat could read its knowledge (two players);
    // with a third seat it forgets the Hand (see the next test for why).
    for (spec, left) in [("karmaka", 1), ("karmaka(players=3)", 0)] {
        let g = game(spec);
        let mut s = Scenario::new(&g)
            .hand(0, &[6, 7, 15])
            .reveal(6, 1)
            .reveal(7, 1)
            .hand(1, &[0])
            .build()
            .unwrap();
        act(&g, &mut s, Action::Points(ty(&g, "CRI")));
        let known = s.hands[0]
            .iter()
            .filter(|&&c| s.known[c as usize] & bit(1) != 0 && k(&g, c) == ty(&g, "CRI"))
            .count();
        assert_eq!(known, left, "{spec}");
    }
}

/// P1 peeked at P0's Hand, then P0 drew a card P1 has not seen. P0 plays a
/// Crisis to its Deeds: it was the freshly drawn card in one world and a
/// card P1 had seen in the other. P2 saw the same in both, so its info key
/// and determinizations must not tell them apart (before, P1's remaining
/// knowledge of the Hand, part of every key, told P2 which card was played).
#[test]
fn a_third_seat_cannot_tell_whether_the_fresh_card_was_played() {
    let g = game("karmaka(players=3)");
    let (cri, pan) = (ty(&g, "CRI"), ty(&g, "PAN"));
    let card = |code: &str, n: usize| g.card(code, n).unwrap();
    let world = |hand: [u8; 2], drawn: u8| {
        let mut s = Scenario::new(&g)
            .hand(0, &hand)
            .reveal(hand[0], 1)
            .reveal(hand[1], 1)
            .deck(0, &[drawn])
            .hand(1, &[card("HEL", 0)])
            .hand(2, &[card("HEL", 1)])
            .build()
            .unwrap();
        assert!(s.drew);
        let before = g.info_key(&s, 2);
        act(&g, &mut s, Action::Points(cri));
        (before, s)
    };
    let (ka, a) = world([card("CRI", 0), card("PAN", 0)], card("PAN", 1));
    let (kb, b) = world([card("PAN", 0), card("PAN", 1)], card("CRI", 0));
    assert_eq!(ka, kb, "P2 cannot tell the worlds apart before the play");
    assert_eq!(kinds(&g, &a.hands[0]), vec![pan, pan]);
    assert_eq!(kinds(&g, &b.hands[0]), vec![pan, pan]);
    assert_eq!(g.info_key(&a, 2), g.info_key(&b, 2));
    assert_eq!(
        g.determinize(&a, 2, &mut rng_from_seed(5)),
        g.determinize(&b, 2, &mut rng_from_seed(5))
    );
    assert_eq!(g.render(&a, Some(2)), g.render(&b, Some(2)));
    // P1 itself saw different things (in `b` it knows the Crisis was the
    // new card), and P0 knows everything; only P2's view must agree.
}

/// Spite's random pick (a chance outcome by type) follows the same rule.
#[test]
fn spite_pick_is_knowledge_neutral() {
    let g3 = game("karmaka(players=3)");
    let mut s = Scenario::new(&g3)
        .hand(1, &[6, 7, 15])
        .reveal(7, 2)
        .hand(0, &[17])
        .build()
        .unwrap();
    act(&g3, &mut s, Action::Ability(ty(&g3, "SPI")));
    act(&g3, &mut s, Action::Target(1));
    chance(&g3, &mut s, 6);
    assert_eq!(s.phase, Phase::SpiteChance(1, 1));
    assert!(
        s.hands[1]
            .iter()
            .all(|&c| s.known[c as usize] & bit(2) == 0)
    );
}

/// Swindle shows its cards to the actor and the victim only: a third party
/// who knew one of them learns nothing about where it went.
#[test]
fn swindle_shows_cards_to_actor_and_victim_only() {
    let g = game("karmaka(players=3)");
    let mut s = Scenario::new(&g)
        .hand(1, &[2, 8, 56, 30, 41])
        .reveal(30, 2)
        .hand(0, &[36])
        .build()
        .unwrap();
    act(&g, &mut s, Action::Ability(ty(&g, "SWI")));
    act(&g, &mut s, Action::Target(1));
    chance(&g, &mut s, 30);
    chance(&g, &mut s, 8);
    chance(&g, &mut s, 41);
    assert_eq!(s.phase, Phase::SwindleTake(1));
    for &c in &s.aside {
        assert_eq!(s.known[c as usize], bit(0) | bit(1), "card {c}");
    }
    assert!(g.view(&s, 2).aside.iter().all(|&c| c == NONE));
    assert!(
        s.hands[1]
            .iter()
            .all(|&c| s.known[c as usize] & bit(2) == 0)
    );
}

/// A game stopped by the ply cap is flagged truncated; a won game is not.
#[test]
fn the_ply_cap_is_a_truncation() {
    let g = game("karmaka(max_plies=10)");
    let mut rng = rng_from_seed(3);
    let mut s = g.initial_state(&mut rng);
    crate::game::random_playout(&g, &mut s, &mut rng, g.max_game_length());
    assert_eq!(g.turn(&s), Turn::Terminal);
    assert_eq!((s.winner, s.plies), (NONE, 10));
    assert!(g.truncated(&s));
    let won = Scenario::new(&g)
        .level(0, 3)
        .deeds(0, &[15, 16, 17])
        .hand(1, &[0])
        .build()
        .unwrap();
    assert_eq!((won.winner, g.turn(&won)), (0, Turn::Terminal));
    assert!(!g.truncated(&won));
}

/// The builder refuses positions that break the rules' invariants.
#[test]
fn scenario_builder_rejects_bad_positions() {
    let g = game("karmaka(players=3)");
    for (b, want) in [
        (Scenario::new(&g).hand(3, &[0]), "seat 3"),
        (Scenario::new(&g).active(5), "seat 5"),
        (Scenario::new(&g).hand(0, &[64]), "card 64"),
        (
            Scenario::new(&g).hand(0, &[5]).deck(1, &[5]),
            "placed twice",
        ),
        (Scenario::new(&g).level(1, 4), "rung 4"),
        (Scenario::new(&g).well_top(&[1, 2, 3, 4]), "Well top"),
        (Scenario::new(&g).reveal(9, 1), "not placed"),
        (Scenario::new(&g).public(9), "not placed"),
        (Scenario::new(&g).unplaced_to_deck(3), "seat 3"),
    ] {
        let e = b.build().unwrap_err();
        assert!(e.contains(want), "{e}");
    }
    let s = Scenario::new(&g)
        .hand(0, &[1])
        .future(2, &[40])
        .reveal(40, 1)
        .build()
        .unwrap();
    assert!(g.check_invariants(&s).is_ok());
    assert_eq!(s.well.len(), 62);
    assert_eq!(s.known[40], bit(1) | bit(2));
    // The unplaced cards go under the Deck's own cards; the Well is empty.
    let s = Scenario::new(&g)
        .hand(0, &[1])
        .deck(2, &[9, 5])
        .well_top(&[7])
        .unplaced_to_deck(2)
        .build()
        .unwrap();
    assert!(s.well.is_empty());
    assert_eq!(&s.well_top[..], &[7]);
    assert_eq!(s.decks[2].len(), 64 - 2);
    assert_eq!(&s.decks[2][..2], &[0, 2]);
    assert_eq!(&s.decks[2][s.decks[2].len() - 2..], &[9, 5]);
    assert!(s.decks[2].iter().all(|&c| s.known[c as usize] == 0));
    assert_eq!(g.card("VEN", 1), Some(16));
    assert_eq!(g.card("VEN", 2), None);
    assert_eq!(g.card("XYZ", 0), None);
}

/// `s` with the copies of every card type renumbered by a random permutation
/// (the same game: copies of a type are interchangeable).
fn renumbered(g: &Karmaka, s: &State, rng: &mut crate::rng::GameRng) -> State {
    let mut map: Vec<u8> = (0..64).collect();
    for t in 0..g.cards.types.len() as u8 {
        let mut ids: Vec<u8> = (0..64).filter(|&c| k(g, c) == t).collect();
        let from = ids.clone();
        crate::rng::shuffle(rng, &mut ids);
        for (a, b) in from.into_iter().zip(ids) {
            map[a as usize] = b;
        }
    }
    let mut r = s.clone();
    let rename = |pile: &mut [u8]| pile.iter_mut().for_each(|c| *c = map[*c as usize]);
    for p in 0..4 {
        rename(&mut r.hands[p]);
        r.hands[p].sort_unstable();
        rename(&mut r.decks[p]);
        rename(&mut r.futures[p]);
        rename(&mut r.deeds[p]);
    }
    rename(&mut r.ruins);
    rename(&mut r.well);
    r.well.sort_unstable();
    rename(&mut r.well_top);
    rename(&mut r.aside);
    if r.center != NONE {
        r.center = map[r.center as usize];
    }
    for (c, &to) in map.iter().enumerate() {
        r.known[to as usize] = s.known[c];
    }
    assert!(Karmaka::conserved(&r));
    r
}

/// Views number the copies of a type canonically: a state and the same state
/// with the copies of each type renumbered give every seat the same info key
/// and the same determinization for the same random stream.
#[test]
fn renumbered_copies_look_the_same_to_everyone() {
    for spec in ["karmaka", "karmaka(players=3)", "karmaka(players=4)"] {
        let g = game(spec);
        let mut rng = rng_from_seed(41);
        let mut checked = 0;
        for _ in 0..12 {
            let mut s = g.initial_state(&mut rng);
            for step in 0..400 {
                if g.turn(&s) == Turn::Terminal {
                    break;
                }
                if step % 37 == 20 {
                    let r = renumbered(&g, &s, &mut rng);
                    for o in 0..g.players {
                        assert_eq!(
                            g.info_key(&s, o),
                            g.info_key(&r, o),
                            "{spec} step {step} seat {o}"
                        );
                        let seed = 1000 + step;
                        assert_eq!(
                            g.determinize(&s, o, &mut rng_from_seed(seed)),
                            g.determinize(&r, o, &mut rng_from_seed(seed)),
                            "{spec} step {step} seat {o}"
                        );
                        checked += 1;
                    }
                }
                let a = match g.turn(&s) {
                    Turn::Chance => g.sample_chance(&s, &mut rng),
                    _ => {
                        let l = g.legal_actions(&s);
                        l[crate::rng::below(&mut rng, l.len())]
                    }
                };
                g.apply(&mut s, a);
            }
        }
        assert!(checked > 50, "{spec}: only {checked} checks");
    }
}

/// P1 knows where one Crisis of P0's Hand is (CRI#6 in one world, CRI#7 in
/// the other); P2 cannot tell the worlds apart, nor, after P0 plays a Crisis
/// to its Deeds (or for its ability, or with Jubilee), which copy it was.
#[test]
fn which_copy_reaches_the_deeds_is_not_seen() {
    let g = game("karmaka(players=3)");
    let cri = ty(&g, "CRI");
    let world = |known: u8, plays: &[Action]| {
        let mut s = Scenario::new(&g)
            .hand(0, &[6, 7, 15, 55])
            .reveal(known, 1)
            .hand(1, &[0])
            .hand(2, &[1])
            .deck(0, &[2])
            .build()
            .unwrap();
        for &a in plays {
            act(&g, &mut s, a);
        }
        s
    };
    let before = (world(6, &[]), world(7, &[]));
    assert_eq!(g.info_key(&before.0, 2), g.info_key(&before.1, 2));
    for plays in [
        vec![Action::Points(cri)],
        vec![Action::Ability(cri)],
        vec![
            Action::Ability(ty(&g, "JUB")),
            Action::Pick(cri),
            Action::Stop,
        ],
    ] {
        let (a, b) = (world(6, &plays), world(7, &plays));
        for o in [0, 2] {
            assert_eq!(g.info_key(&a, o), g.info_key(&b, o), "{plays:?} seat {o}");
        }
        // P1 knew a copy either way: its key is the same too.
        assert_eq!(g.info_key(&a, 1), g.info_key(&b, 1), "{plays:?} seat 1");
    }
}

/// How many cards a seat played face down is public (everyone sees a card
/// go face down); only their types are hidden.
#[test]
fn face_down_play_counts_stay_in_every_view() {
    let metric = |m: Vec<(&'static str, f64)>, name: &str| {
        m.iter().find(|(n, _)| *n == name).map_or(0.0, |x| x.1)
    };
    let g = game("karmaka");
    let mut s = Scenario::new(&g)
        .hand(0, &[6, 9])
        .hand(1, &[0])
        .deck(1, &[1])
        .build()
        .unwrap();
    act(&g, &mut s, Action::Future(ty(&g, "CRI")));
    for o in 0..2 {
        let v = g.view(&s, o);
        assert_eq!(metric(g.metrics(&v, 0), "played_future"), 1.0, "seat {o}");
        assert_eq!(metric(g.metrics(&v, 0), "played"), 1.0, "seat {o}");
        let d = g.determinize(&s, o, &mut rng_from_seed(5));
        assert_eq!(metric(g.metrics(&d, 0), "played_future"), 1.0, "seat {o}");
    }
    let g4 = game("karmaka(players=4,teams=true)");
    let mut s = Scenario::new(&g4)
        .hand(0, &[6, 9])
        .hand(1, &[0])
        .build()
        .unwrap();
    act(&g4, &mut s, Action::AllyFuture(ty(&g4, "CRI")));
    for o in 0..4 {
        let v = g4.view(&s, o);
        assert_eq!(
            metric(g4.metrics(&v, 0), "played_ally_future"),
            1.0,
            "seat {o}"
        );
    }
}

/// A play of a type to the Deeds shows every other seat the type and
/// nothing else: applied to the true state and to a determinization for seat
/// `o` (a world `o` cannot tell from the true one) where it is legal, it
/// leaves `o` with one info key. Random 3- and 4-player games, where a third
/// seat's knowledge of a Hand could tell `o` which card was played. (Not
/// checked when the turn passes to `o`, whose own Deck draw differs.)
#[test]
fn a_play_to_the_deeds_tells_no_seat_more_than_its_type() {
    let mut checked = 0;
    for spec in ["karmaka(players=3)", "karmaka(players=4)"] {
        let g = game(spec);
        let mut rng = rng_from_seed(77);
        for _ in 0..40 {
            let mut s = g.initial_state(&mut rng);
            for _ in 0..600 {
                let p = match g.turn(&s) {
                    Turn::Terminal => break,
                    Turn::Chance => {
                        let a = g.sample_chance(&s, &mut rng);
                        g.apply(&mut s, a);
                        continue;
                    }
                    Turn::Player(p) => p,
                };
                let legal = g.legal_actions(&s);
                for &a in legal.iter().filter(|a| matches!(a, Action::Points(_))) {
                    for o in (0..g.players).filter(|&o| o != p) {
                        let d = g.determinize(&s, o, &mut rng);
                        if !g.legal_actions(&d).contains(&a) {
                            continue;
                        }
                        let (mut x, mut y) = (s.clone(), d);
                        g.apply(&mut x, a);
                        g.apply(&mut y, a);
                        if x.active == o {
                            continue;
                        }
                        assert_eq!(
                            g.info_key(&x, o),
                            g.info_key(&y, o),
                            "{spec} {a:?} seat {o}"
                        );
                        checked += 1;
                    }
                }
                let a = legal[crate::rng::below(&mut rng, legal.len())];
                g.apply(&mut s, a);
            }
        }
    }
    assert!(checked > 1000, "only {checked} checks");
}

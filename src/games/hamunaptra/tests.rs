//! Scenario tests H1–H25 of the specification (forced dice and draws), exact
//! combat probabilities from the chance outcomes, and soak tests checking
//! board invariants after every step.

use std::collections::HashMap;

use super::data::KindClass;
use super::state::{NO_CELL, NONE, Phase, Stage, cell_of};
use super::*;
use crate::game::conformance::{Config, check};
use crate::rng::{below, rng_from_seed};

fn game(spec: &str) -> Hamunaptra {
    Hamunaptra::from_spec_text(spec).unwrap()
}

fn c(x: i32, y: i32) -> u16 {
    cell_of(x, y)
}

/// Card kind by id (tile type, encounter or equipment id).
fn k(g: &Hamunaptra, id: &str) -> u8 {
    (0..g.comps.kinds() as u8)
        .find(|&k| match g.comps.class(k) {
            KindClass::Tile(t) => g.comps.tiles[t as usize].id == id,
            KindClass::Foe(f) => g.comps.foes[f as usize].id == id,
            KindClass::Equip(e) => g.comps.equipment[e as usize].id == id,
        })
        .unwrap_or_else(|| panic!("no card {id}"))
}

fn ch(g: &Hamunaptra, id: &str) -> u8 {
    g.comps.chars.iter().position(|d| d.id == id).unwrap() as u8
}

fn foe(g: &Hamunaptra, id: &str) -> u8 {
    g.comps.foes.iter().position(|d| d.id == id).unwrap() as u8
}

fn eq(g: &Hamunaptra, id: &str) -> u8 {
    g.comps.equipment.iter().position(|d| d.id == id).unwrap() as u8
}

fn tile_type(g: &Hamunaptra, id: &str) -> u8 {
    g.comps.tiles.iter().position(|t| t.id == id).unwrap() as u8
}

fn legal(g: &Hamunaptra, s: &State) -> Vec<Action> {
    g.legal_actions(s).to_vec()
}

fn is_legal(g: &Hamunaptra, s: &State, a: Action) -> bool {
    legal(g, s).contains(&a)
}

fn prob(g: &Hamunaptra, s: &State, a: Action) -> f64 {
    g.chance_outcomes(s)
        .iter()
        .find(|o| o.0 == a)
        .map_or(0.0, |o| o.1)
}

/// Applies a legal decision or a possible chance outcome (panics otherwise).
fn play(g: &Hamunaptra, s: &mut State, a: Action) {
    match g.turn(s) {
        Turn::Chance => assert!(prob(g, s, a) > 0.0, "{a:?} impossible here"),
        Turn::Player(_) => assert!(is_legal(g, s, a), "{a:?} illegal: {:?}", legal(g, s)),
        Turn::Terminal => panic!("game over"),
    }
    g.apply(s, a);
}

fn close(a: f64, b: f64) {
    assert!((a - b).abs() < 1e-12, "{a} != {b}");
}

/// Sets up a game: seat 0 wins the first roll, seats draft the given
/// characters in round-robin order, entrances are taken in layout order
/// starting from seat n−1. Stops at seat 0's first draw.
fn start(g: &Hamunaptra, drafts: &[&[&str]]) -> State {
    let mut s = g.new_state();
    let n = g.players as usize;
    for p in 0..n {
        if g.each_die {
            for f in if p == 0 { [4, 4, 1, 1] } else { [4, 1, 1, 1] } {
                play(g, &mut s, Action::Die(f));
            }
        } else {
            play(g, &mut s, Action::Roll(if p == 0 { 2 } else { 1 }));
        }
    }
    assert_eq!(s.phase, Phase::Draft);
    for i in 0..g.cpp as usize {
        for d in drafts.iter().take(n) {
            play(g, &mut s, Action::Draft(ch(g, d[i])));
        }
    }
    // Seat n−1 picks first: give seat p the entrance index p.
    for i in 0..n {
        let picker = (n - 1 + i) % n;
        play(g, &mut s, Action::Entrance(picker as u8));
    }
    assert_eq!(s.phase, Phase::Draw);
    s
}

const ANN: &[&str] = &["C01", "C02", "C13", "C15"];
const BOB: &[&str] = &["C16", "C14", "C12", "C07"];

/// Moves one card of kind `id` from the pile to a hand.
fn give(g: &Hamunaptra, s: &mut State, p: usize, id: &str) {
    let kk = k(g, id);
    assert!(s.pile[kk as usize] > 0, "{id} not in pile");
    s.pile[kk as usize] -= 1;
    s.pile_len -= 1;
    let h = &mut s.players[p].hand;
    let i = h.iter().position(|&y| y > kk).unwrap_or(h.len());
    h.insert(i, kk);
}

/// Lays a pile tile directly (from the pile), recording stairs.
fn lay(g: &Hamunaptra, s: &mut State, id: &str, x: i32, y: i32, deg: u16, placer: u8) {
    let t = tile_type(g, id);
    s.pile[t as usize] -= 1;
    s.pile_len -= 1;
    let cell = c(x, y);
    s.cells[cell as usize].tile = t + 1;
    s.cells[cell as usize].rot = (deg / 90) as u8;
    if g.comps.tiles[t as usize].stairs {
        s.cells[cell as usize].placer = placer + 1;
        let e = s.players[placer as usize].entrance;
        s.cells[cell as usize].exit = g.is_exit_from(s, e, cell);
        s.stairs.push(cell);
    }
}

fn put(g: &Hamunaptra, s: &mut State, id: &str, x: i32, y: i32) {
    s.chars[ch(g, id) as usize].cell = c(x, y);
}

/// Can seat `s.seat` lay `id` at (x, y) with rotation `deg` now?
fn can_place(g: &Hamunaptra, s: &State, id: &str, x: i32, y: i32, deg: u16) -> bool {
    let mut t = s.clone();
    let kk = k(g, id);
    if !is_legal(g, &t, Action::Select(kk)) {
        return false;
    }
    g.apply(&mut t, Action::Select(kk));
    if !is_legal(g, &t, Action::At(c(x, y))) {
        return false;
    }
    g.apply(&mut t, Action::At(c(x, y)));
    if t.phase == Phase::Place {
        return true; // an encounter
    }
    is_legal(g, &t, Action::Rotate((deg / 90) as u8))
}

fn place(g: &Hamunaptra, s: &mut State, id: &str, x: i32, y: i32, deg: u16) {
    assert!(
        can_place(g, s, id, x, y, deg),
        "cannot lay {id} at ({x},{y}) r{deg}"
    );
    g.apply(s, Action::Select(k(g, id)));
    g.apply(s, Action::At(c(x, y)));
    if s.phase == Phase::PlaceRot {
        g.apply(s, Action::Rotate((deg / 90) as u8));
    }
}

/// A 2-player board with a fight ready: the given Ann characters on the
/// encounter at (−3,2), entered from (−3,1), Ann at T3 with an empty hand
/// (and an empty pile, so that nothing is drawn).
fn fight_setup(g: &Hamunaptra, fighters: &[&str], enc: &str) -> State {
    fight_scenario(g, fighters, enc, |b| b)
}

/// [`fight_setup`] with more built onto the position (equipment on the
/// table, an item carried) before the fighters step in.
fn fight_scenario(
    g: &Hamunaptra,
    fighters: &[&str],
    enc: &str,
    more: impl FnOnce(Scenario<'_>) -> Scenario<'_>,
) -> State {
    let mut b = Scenario::new(g)
        .characters(0, ANN)
        .characters(1, BOB)
        .tile("C-STR", -3, 1, 0, 0)
        .tile("C-STR", -3, 2, 0, 0)
        .encounter(enc, -3, 2)
        .deck(&[]);
    for f in fighters {
        b = b.at(f, -3, 1);
    }
    let mut s = more(b).build().unwrap();
    assert_eq!(s.phase, Phase::Move);
    for f in fighters {
        play(
            g,
            &mut s,
            Action::Step {
                ch: ch(g, f),
                to: c(-3, 2),
            },
        );
    }
    play(g, &mut s, Action::EndMove);
    assert_eq!((s.phase, s.seat), (Phase::Place, 0));
    for f in fighters {
        let x = s.chars[ch(g, f) as usize];
        assert_eq!((x.cell, x.came_from, x.stopped), (c(-3, 2), c(-3, 1), true));
    }
    s
}

/// Probability the encounter is defeated, Ann always continuing and
/// assigning nothing more, the controller countering by `policy`.
fn win_prob(
    g: &Hamunaptra,
    s: &State,
    policy: &dyn Fn(&State) -> Action,
    memo: &mut HashMap<State, f64>,
) -> f64 {
    let Some(cb) = s.combat else {
        return 0.0;
    };
    if let Some(&v) = memo.get(s) {
        return v;
    }
    let v = match g.turn(s) {
        Turn::Chance => {
            let mut v = 0.0;
            for (a, p) in g.chance_outcomes(s) {
                let mut t = s.clone();
                g.apply(&mut t, a);
                let won = t.foes[cb.foe as usize].cell == NO_CELL;
                v += p * if t.combat.is_none() {
                    f64::from(u8::from(won))
                } else {
                    win_prob(g, &t, policy, memo)
                };
            }
            v
        }
        Turn::Player(_) => {
            let a = match cb.stage {
                Stage::Counter | Stage::CounterDef => policy(s),
                Stage::Decide => Action::Continue,
                Stage::Assign => Action::DoneAssign,
                Stage::Stat => Action::Attack(0),
                _ => unreachable!(),
            };
            let mut t = s.clone();
            play(g, &mut t, a);
            if t.combat.is_none() {
                f64::from(u8::from(t.foes[cb.foe as usize].cell == NO_CELL))
            } else {
                win_prob(g, &t, policy, memo)
            }
        }
        Turn::Terminal => 0.0,
    };
    memo.insert(s.clone(), v);
    v
}

/// Exact fight probabilities: a 20-round cap changes them by far less than
/// 1e-12 (a round without damage has probability below 1/30) and keeps the
/// recursion shallow.
const FIGHT_SPEC: &str = "hamunaptra(max_combat_rounds=20)";

// ------------------------------------------------------------------ H1–H25

#[test]
fn h01_dice_reading_and_successes() {
    use super::rules::{binom, p_success};
    for (v, p) in [(1, 1.0), (2, 0.75), (3, 0.5), (4, 0.25)] {
        close(p_success(v), p);
    }
    // [3, 1, 4] against 3 → 2 successes; the count's probability for 3 dice.
    let succ = [3u8, 1, 4].iter().filter(|&&d| d >= 3).count();
    assert_eq!(succ, 2);
    close(binom(3, 2, p_success(3)), 3.0 / 8.0);
}

#[test]
fn h02_setup() {
    let g = game("hamunaptra");
    let mut s = g.new_state();
    // Number of 4s in 4D4.
    for (n, w) in [81.0, 108.0, 54.0, 12.0, 1.0].iter().enumerate() {
        close(prob(&g, &s, Action::Roll(n as u8)), w / 256.0);
    }
    // Tie (one 4 each) → both reroll.
    play(&g, &mut s, Action::Roll(1));
    play(&g, &mut s, Action::Roll(1));
    assert_eq!(s.phase, Phase::FirstRoll);
    // Ann (seat 0) two 4s, Bob one.
    play(&g, &mut s, Action::Roll(2));
    play(&g, &mut s, Action::Roll(1));
    assert_eq!((s.phase, s.first), (Phase::Draft, 0));
    // Layout: the two entrances only.
    assert_eq!(g.tile_count(&s), 2);
    assert_eq!(g.open(&s, c(-3, 0)), 1 | 4 | 8);
    assert_eq!(g.open(&s, c(3, 0)), 1 | 2 | 4);
    // Draft order Ann, Bob, Ann, ...
    for i in 0..8 {
        assert_eq!(g.turn(&s), Turn::Player((i % 2) as u8));
        let a = legal(&g, &s)[0];
        play(&g, &mut s, a);
    }
    // Entrance order: Bob first.
    assert_eq!(g.turn(&s), Turn::Player(1));
    play(&g, &mut s, Action::Entrance(1));
    assert_eq!(g.turn(&s), Turn::Player(0));
    assert_eq!(legal(&g, &s), vec![Action::Entrance(0)]);
    play(&g, &mut s, Action::Entrance(0));
    for chr in s.chars.iter().filter(|x| x.owner == 0) {
        assert_eq!(chr.cell, c(-3, 0));
    }
    assert_eq!(s.pile_len, 115);
    assert!(s.players.iter().all(|p| p.hand.is_empty()));
    // Ann's first turn: four draws.
    for _ in 0..4 {
        assert_eq!(g.turn(&s), Turn::Chance);
        let a = g.chance_outcomes(&s)[0].0;
        play(&g, &mut s, a);
    }
    assert_eq!((s.pile_len, s.players[0].hand.len()), (111, 4));
    // 4 players: entrances chosen by seats 3, 0, 1, 2.
    let g4 = game("hamunaptra(players=4)");
    let mut s = g4.new_state();
    for p in 0..4 {
        play(&g4, &mut s, Action::Roll(if p == 0 { 1 } else { 0 }));
    }
    for _ in 0..16 {
        let a = legal(&g4, &s)[0];
        play(&g4, &mut s, a);
    }
    let mut order = Vec::new();
    for _ in 0..4 {
        let Turn::Player(p) = g4.turn(&s) else {
            panic!()
        };
        order.push(p);
        let a = legal(&g4, &s)[0];
        play(&g4, &mut s, a);
    }
    assert_eq!(order, vec![3, 0, 1, 2]);
}

#[test]
fn h03_minimum_path_and_exit_status() {
    let g = game("hamunaptra");
    let base = || Scenario::new(&g).characters(0, ANN).characters(1, BOB);
    let s = base().build().unwrap();
    let ann = c(-3, 0);
    let bob = c(3, 0);
    assert_eq!(g.exit_dist(&s, ann, c(5, 0)), Some(8));
    assert_eq!(g.exit_dist(&s, ann, c(4, -6)), Some(7));
    assert_eq!(g.exit_dist(&s, ann, c(-3, 8)), Some(8));
    assert_eq!(g.exit_dist(&s, ann, c(-11, 4)), Some(8));
    assert!(g.in_bounds(-11, 4));
    assert_eq!(g.exit_dist(&s, bob, c(-4, 1)), Some(7));
    assert_eq!(g.exit_dist(&s, bob, c(-5, 1)), Some(8));
    // Through the placement action: Bob lays a stair as a foreign tile at
    // (−5,0) next to Ann's C-CRS → an exit found by Bob.
    let mut s2 = base()
        .tile("C-CRS", -4, 0, 0, 0)
        .hand(1, &["ST-DEAD", "E03", "E12", "E08"])
        .turn(1)
        .build()
        .unwrap();
    play(&g, &mut s2, Action::EndMove);
    place(&g, &mut s2, "ST-DEAD", -5, 0, 90);
    let cell = s2.cells[c(-5, 0) as usize];
    assert!(cell.exit && cell.placer == 2);
    // Ann laying at (−4,1)... ordinary for Ann (distance 1).
    let mut s3 = base()
        .tile("C-CRS", -4, 0, 0, 0)
        .at("C01", -4, 0)
        .hand(0, &["ST-DEAD", "E03", "E12", "E08"])
        .build()
        .unwrap();
    play(&g, &mut s3, Action::EndMove);
    place(&g, &mut s3, "ST-DEAD", -4, 1, 180);
    assert!(!s3.cells[c(-4, 1) as usize].exit);
    // Rule 4 with D = 6: (3,5) is an exit for Ann.
    let g6 = game("hamunaptra(rule4=true,exit_distance=6)");
    assert!(g6.exit_dist(&s, ann, c(3, 5)) >= Some(g6.d));
    assert!(g.exit_dist(&s, ann, c(3, 5)) < Some(g.d));
}

/// The H4 board: Ann's characters on her entrance, hand of four.
fn h4_state(g: &Hamunaptra) -> State {
    let mut s = Scenario::new(g)
        .characters(0, ANN)
        .characters(1, BOB)
        .hand(0, &["C-STR", "C-CRS", "C-CRN", "C-DEAD"])
        .build()
        .unwrap();
    play(g, &mut s, Action::EndMove);
    s
}

#[test]
fn h04_placements_around_a_character() {
    let g = game("hamunaptra");
    let mut s = h4_state(&g);
    assert!(can_place(&g, &s, "C-STR", -3, 1, 0));
    assert!(can_place(&g, &s, "C-CRS", -4, 0, 0));
    assert!(can_place(&g, &s, "C-CRN", -3, -1, 0));
    for id in ["C-STR", "C-CRS", "C-CRN", "C-DEAD"] {
        for r in [0, 90, 180, 270] {
            assert!(!can_place(&g, &s, id, -2, 0, r), "{id} at (-2,0)");
        }
    }
    // Must play: EndPlace is not offered before the first placement.
    assert!(!is_legal(&g, &s, Action::EndPlace));
    place(&g, &mut s, "C-STR", -3, 1, 0);
    assert!(
        !can_place(&g, &s, "C-DEAD", -3, 2, 180),
        "no character on (-3,1)"
    );
    place(&g, &mut s, "C-CRS", -4, 0, 0);
    place(&g, &mut s, "C-CRN", -3, -1, 0);
    assert_eq!(s.placed, 3);
    assert!(is_legal(&g, &s, Action::EndPlace));
}

#[test]
fn h05_mismatched_sides() {
    let g = game("hamunaptra");
    // After H4's three tiles, next turn: the Bodyguard on (−4,0).
    let mut s = Scenario::new(&g)
        .characters(0, ANN)
        .characters(1, BOB)
        .tile("C-STR", -3, 1, 0, 0)
        .tile("C-CRS", -4, 0, 0, 0)
        .tile("C-CRN", -3, -1, 0, 0)
        .at("C01", -4, 0)
        .hand(0, &["C-STR", "C-DEAD", "C-CRN", "E03"])
        .build()
        .unwrap();
    play(&g, &mut s, Action::EndMove);
    assert!(can_place(&g, &s, "C-STR", -4, 1, 0));
    assert!(!can_place(&g, &s, "C-DEAD", -4, 1, 0));
    assert!(can_place(&g, &s, "C-DEAD", -4, 1, 180));
    assert!(!can_place(&g, &s, "C-CRN", -4, 1, 90));
    assert!(can_place(&g, &s, "C-CRN", -4, 1, 180));
}

#[test]
fn h06_monster_placement_and_proximity_ban() {
    let g = game("hamunaptra");
    // Bob's turn, Ann's C-STR at (−3,1) (and her C-CRS at (−4,0)).
    let bob_turn = |crs: bool| {
        let mut b = Scenario::new(&g)
            .characters(0, ANN)
            .characters(1, BOB)
            .tile("C-STR", -3, 1, 0, 0);
        if crs {
            b = b.tile("C-CRS", -4, 0, 0, 0);
        }
        let mut s = b
            .hand(1, &["M1", "M3", "C-STR", "E03"])
            .turn(1)
            .build()
            .unwrap();
        play(&g, &mut s, Action::EndMove);
        s
    };
    // Rule check: an encounter may also go right against Ann's entrance.
    assert!(can_place(&g, &bob_turn(false), "M1", -4, 0, 0));
    let mut s = bob_turn(true);
    place(&g, &mut s, "M1", -3, 2, 0);
    assert!(!can_place(&g, &s, "M3", -5, 0, 0), "second encounter");
    // Ann's turn: the Bodyguard on a tile at (−2,1), linked through
    // (−3,−1), (−2,−1) and (−2,0), faces (−2,2), next to the Mummy.
    let mut s = Scenario::new(&g)
        .characters(0, ANN)
        .characters(1, BOB)
        .tile("C-STR", -3, 1, 0, 0)
        .tile("C-CRS", -4, 0, 0, 0)
        .encounter("M1", -3, 2)
        .tile("C-CRN", -3, -1, 0, 0)
        .tile("C-CRN", -2, -1, 270, 0)
        .tiles("C-STR", &[(-2, 0), (-2, 1)], 0, 0)
        .at("C01", -2, 1)
        .hand(0, &["C-STR", "C-CRS", "C-DEAD", "C-CRN"])
        .build()
        .unwrap();
    // Ann moves the Young Boy (−3,0) → (−3,1).
    play(
        &g,
        &mut s,
        Action::Step {
            ch: ch(&g, "C02"),
            to: c(-3, 1),
        },
    );
    play(&g, &mut s, Action::EndMove);
    for r in [0, 90, 180, 270] {
        for id in ["C-STR", "C-CRS", "C-DEAD", "C-CRN"] {
            assert!(!can_place(&g, &s, id, -2, 2, r), "B1 at (-2,2)");
        }
    }
    assert!(can_place(&g, &s, "C-STR", -3, 2, 0), "under the Mummy");
    place(&g, &mut s, "C-STR", -3, 2, 0);
    assert_eq!(s.cells[c(-3, 2) as usize].enc, foe(&g, "M1") + 1);
    // Next turn the character can step onto the Mummy and stops there.
    let mut s = Scenario::new(&g)
        .characters(0, ANN)
        .characters(1, BOB)
        .tiles("C-STR", &[(-3, 1), (-3, 2)], 0, 0)
        .encounter("M1", -3, 2)
        .at("C01", -3, 1)
        .hand(0, &["C-CRS", "C-DEAD", "C-CRN", "E03"])
        .build()
        .unwrap();
    let bg = ch(&g, "C01");
    assert_eq!(s.chars[bg as usize].mp, 2);
    play(
        &g,
        &mut s,
        Action::Step {
            ch: bg,
            to: c(-3, 2),
        },
    );
    assert!(s.chars[bg as usize].stopped);
    assert_eq!(s.chars[bg as usize].came_from, c(-3, 1));
}

/// H7's two ANKH stairs, each at the end of a tunnel from its placer's
/// entrance: Ann's SY-CRN at (−6,3), Bob's SY-DEAD at (7,4).
fn h7_scenario(g: &Hamunaptra) -> Scenario<'_> {
    Scenario::new(g)
        .characters(0, ANN)
        .characters(1, BOB)
        .tiles("C-STR", &[(-3, 1), (-3, 2)], 0, 0)
        .tile("C-CRN", -3, 3, 180, 0)
        .tiles("C-STR", &[(-4, 3), (-5, 3)], 90, 0)
        .tile("SY-CRN-ANKH", -6, 3, 0, 0)
        .tiles("C-STR", &[(3, 1), (3, 2), (3, 3), (3, 4)], 0, 1)
        .tile("C-CRN", 3, 5, 90, 1)
        .tiles("C-STR", &[(4, 5), (5, 5), (6, 5)], 90, 1)
        .tile("C-CRN", 7, 5, 180, 1)
        .tile("SY-DEAD-ANKH", 7, 4, 0, 1)
        .at("C13", -6, 3)
        .movement_left("C13", 1)
        .hand(0, &["C-STR", "C-CRS", "C-DEAD", "C-CRN"])
}

/// Skips the trade window, if it opened.
fn skip_trade(g: &Hamunaptra, s: &mut State) {
    if s.phase == Phase::Trade {
        play(g, s, Action::EndTrade);
    }
    assert_eq!(s.phase, Phase::Move);
}

#[test]
fn h07_passages() {
    let g = game("hamunaptra");
    let mut s = h7_scenario(&g).build().unwrap();
    assert!(!s.cells[c(7, 4) as usize].exit);
    assert!(!s.cells[c(-6, 3) as usize].exit);
    assert_eq!(g.twin(&s, c(-6, 3)), Some(c(7, 4)));
    let ex = ch(&g, "C13");
    skip_trade(&g, &mut s);
    assert!(is_legal(
        &g,
        &s,
        Action::Step {
            ch: ex,
            to: c(7, 4)
        }
    ));
    // Not with a Bob character there.
    let mut t = h7_scenario(&g).at("C16", 7, 4).build().unwrap();
    skip_trade(&g, &mut t);
    assert!(!is_legal(
        &g,
        &t,
        Action::Step {
            ch: ex,
            to: c(7, 4)
        }
    ));
    // G_conn joins the stairs, G_link does not.
    assert!(g.component(&s, &[c(-6, 3)], true).has(c(7, 4)));
    assert!(!g.component(&s, &[c(-6, 3)], false).has(c(7, 4)));
    play(
        &g,
        &mut s,
        Action::Step {
            ch: ex,
            to: c(7, 4),
        },
    );
    assert_eq!(s.chars[ex as usize].mp, 0);
}

/// Ann's network reaching (−1,1) and Bob's reaching (1,1).
fn h8_state(g: &Hamunaptra) -> State {
    h8_scenario(g)
        .hand(1, &["C-STR", "C-CRN", "E03", "E12"])
        .turn(1)
        .build()
        .unwrap()
}

/// The H8 networks, not yet joined: Ann's to (−1,1), Bob's to (1,1).
fn h8_scenario(g: &Hamunaptra) -> Scenario<'_> {
    Scenario::new(g)
        .characters(0, ANN)
        .characters(1, BOB)
        .tile("C-CRN", -3, 1, 90, 0)
        .tile("C-STR", -2, 1, 90, 0)
        .tile("C-STR", -1, 1, 90, 0)
        .tile("C-CRN", 3, 1, 180, 1)
        .tile("C-STR", 2, 1, 90, 1)
        .tile("C-STR", 1, 1, 90, 1)
}

#[test]
fn h08_joining_tunnels() {
    let g = game("hamunaptra");
    let mut s = h8_state(&g);
    play(&g, &mut s, Action::EndMove);
    assert!(g.net(&s, 0).has(c(-1, 1)));
    assert!(g.net(&s, 1).has(c(1, 1)));
    assert!(
        !can_place(&g, &s, "C-STR", 0, 1, 90),
        "no Bob character on (1,1)"
    );
    let mut s = h8_scenario(&g)
        .at("C16", 1, 1)
        .hand(1, &["C-STR", "C-CRN", "E03", "E12"])
        .turn(1)
        .build()
        .unwrap();
    play(&g, &mut s, Action::EndMove);
    assert!(!can_place(&g, &s, "C-CRN", 0, 1, 0), "mismatch");
    place(&g, &mut s, "C-STR", 0, 1, 90);
    assert_eq!(s.foreign, 0, "an own placement");
    assert!(g.net(&s, 0).has(c(3, 0)));
    assert!(g.net(&s, 1).has(c(-3, 0)));
}

#[test]
fn h09_monster_attack() {
    let g = game("hamunaptra");
    let mut s = fight_setup(&g, &["C01"], "M1");
    play(&g, &mut s, Action::EndPlace);
    let cb = s.combat.unwrap();
    assert_eq!((cb.stage, cb.controller), (Stage::AttackRoll, 1));
    play(&g, &mut s, Action::Roll(1));
    let bg = ch(&g, "C01");
    // Bob must choose F (the Mummy has no I).
    assert_eq!(legal(&g, &s), vec![Action::Counter { stat: 0, ch: bg }]);
    play(&g, &mut s, Action::Counter { stat: 0, ch: bg });
    for (n, w) in [27.0, 27.0, 9.0, 1.0].iter().enumerate() {
        close(prob(&g, &s, Action::Roll(n as u8)), w / 64.0);
    }
    let kill: f64 = (2..=3).map(|n| prob(&g, &s, Action::Roll(n))).sum();
    close(kill, 5.0 / 32.0);
    play(&g, &mut s, Action::Roll(2));
    assert!(!s.chars[bg as usize].alive);
    assert!(s.combat.is_none());
}

#[test]
fn h10_combat_and_successes() {
    let g = game(FIGHT_SPEC);
    let base = fight_setup(&g, &["C01"], "M1");
    let mut s = base.clone();
    play(&g, &mut s, Action::EndPlace);
    let p2: f64 = (2..=4).map(|n| prob(&g, &s, Action::Roll(n))).sum();
    close(p2, 11.0 / 16.0);
    // Line A.
    let mut a = s.clone();
    play(&g, &mut a, Action::Roll(2));
    assert!(a.combat.is_none());
    assert_eq!(a.foes[foe(&g, "M1") as usize].cell, NO_CELL);
    assert_eq!(a.cells[c(-3, 2) as usize].enc, 0);
    // Line B.
    let bg = ch(&g, "C01");
    play(&g, &mut s, Action::Roll(1));
    play(&g, &mut s, Action::Counter { stat: 0, ch: bg });
    play(&g, &mut s, Action::Roll(1));
    assert!(s.chars[bg as usize].alive);
    assert_eq!(s.chars[bg as usize].dmg, 1);
    assert!(!is_legal(&g, &s, Action::Retreat(c(-3, 1))), "origin");
    play(&g, &mut s, Action::Continue);
    play(&g, &mut s, Action::Roll(1));
    assert!(s.combat.is_none(), "damage accumulates: 1 + 1 = R2");
    // End of turn clears damage.
    assert_eq!(s.chars[bg as usize].dmg, 0);
    // Whole fight, always continuing.
    let mut memo = HashMap::new();
    let mut f = base.clone();
    g.apply(&mut f, Action::EndPlace);
    let policy = move |_: &State| Action::Counter { stat: 0, ch: bg };
    let v = win_prob(&g, &f, &policy, &mut memo);
    assert!((v - 931069952.0 / 991026973.0).abs() < 1e-12, "{v}");
}

#[test]
fn h11_combined_attack() {
    let g = game(FIGHT_SPEC);
    let base = fight_setup(&g, &["C01", "C02"], "M1");
    let mut s = base.clone();
    play(&g, &mut s, Action::EndPlace);
    let p2: f64 = (2..=5).map(|n| prob(&g, &s, Action::Roll(n))).sum();
    close(p2, 13.0 / 16.0);
    let (bg, boy) = (ch(&g, "C01"), ch(&g, "C02"));
    play(&g, &mut s, Action::Roll(1));
    play(&g, &mut s, Action::Counter { stat: 0, ch: boy });
    assert_eq!(g.chance_outcomes(&s), vec![(Action::Roll(3), 1.0)]);
    play(&g, &mut s, Action::Roll(3));
    assert!(!s.chars[boy as usize].alive);
    // Controller policy: the Boy first.
    let policy = move |t: &State| {
        let target = if t.chars[boy as usize].alive { boy } else { bg };
        Action::Counter {
            stat: 0,
            ch: target,
        }
    };
    let mut f = base.clone();
    g.apply(&mut f, Action::EndPlace);
    let v = win_prob(&g, &f, &policy, &mut HashMap::new());
    assert!((v - 15799112825.0 / 15856431568.0).abs() < 1e-12, "{v}");
    // P(the Boy dies) = P(the Mummy survives the first attack).
    let survive: f64 = (0..=1).map(|n| prob(&g, &f, Action::Roll(n))).sum();
    close(survive, 6.0 / 32.0);
    // defender_chooser = owner: the controller names the stat, Ann the defender.
    let go = game("hamunaptra(defender_chooser=owner)");
    let mut s = fight_setup(&go, &["C01", "C02"], "M1");
    play(&go, &mut s, Action::EndPlace);
    play(&go, &mut s, Action::Roll(0));
    assert_eq!(legal(&go, &s), vec![Action::Counter { stat: 0, ch: NONE }]);
    play(&go, &mut s, Action::Counter { stat: 0, ch: NONE });
    assert_eq!(go.turn(&s), Turn::Player(0));
    play(&go, &mut s, Action::Target(bg));
    let kill: f64 = (2..=3).map(|n| prob(&go, &s, Action::Roll(n))).sum();
    close(kill, 5.0 / 32.0);
}

#[test]
fn h12_equipment_in_combat() {
    let g = game(FIGHT_SPEC);
    let base = fight_scenario(&g, &["C01"], "M1", |b| b.table(0, &["E01"]));
    let (bg, boy) = (ch(&g, "C01"), ch(&g, "C02"));
    let bow = eq(&g, "E01");
    let mut s = base.clone();
    play(&g, &mut s, Action::EndPlace);
    assert_eq!(s.combat.unwrap().stage, Stage::Assign);
    play(&g, &mut s, Action::AssignCombat { equip: bow, ch: bg });
    assert_eq!(s.chars[bg as usize].active, bow);
    let p2: f64 = (2..=6).map(|n| prob(&g, &s, Action::Roll(n))).sum();
    close(p2, 57.0 / 64.0);
    let policy = move |_: &State| Action::Counter { stat: 0, ch: bg };
    let v = win_prob(&g, &s, &policy, &mut HashMap::new());
    assert!((v - 66150727680.0 / 67369460509.0).abs() < 1e-12, "{v}");
    // The Mummy still needs 4s against the Bodyguard.
    play(&g, &mut s, Action::Roll(0));
    play(&g, &mut s, Action::Counter { stat: 0, ch: bg });
    close(prob(&g, &s, Action::Roll(0)), 27.0 / 64.0);
    // Bodyguard + Boy with the Bow: 7D4.
    let mut b2 = fight_scenario(&g, &["C01", "C02"], "M1", |b| b.table(0, &["E01"]));
    play(&g, &mut b2, Action::EndPlace);
    play(&g, &mut b2, Action::AssignCombat { equip: bow, ch: bg });
    let p2: f64 = (2..=7).map(|n| prob(&g, &b2, Action::Roll(n))).sum();
    close(p2, 15.0 / 16.0);
    // Clash: the Boy carries an active Revolver.
    let mut b3 = fight_scenario(&g, &["C01", "C02"], "M1", |b| {
        b.table(0, &["E01", "E06"]).carrying("C02", "E03")
    });
    assert_eq!(b3.chars[boy as usize].active, eq(&g, "E03"));
    play(&g, &mut b3, Action::EndPlace);
    let amulet = eq(&g, "E06");
    assert!(!is_legal(
        &g,
        &b3,
        Action::AssignCombat { equip: bow, ch: bg }
    ));
    assert!(is_legal(
        &g,
        &b3,
        Action::AssignCombat {
            equip: amulet,
            ch: bg
        }
    ));
    assert!(!is_legal(
        &g,
        &b3,
        Action::AssignCombat {
            equip: amulet,
            ch: boy
        }
    ));
    // The Bow stays active until Ann's next T0, then is discarded.
    let mut t = s.clone();
    while t.seat == 0 && g.turn(&t) != Turn::Terminal {
        let a = match g.turn(&t) {
            Turn::Chance => g.chance_outcomes(&t)[0].0,
            _ => *legal(&g, &t).last().unwrap(),
        };
        g.apply(&mut t, a);
    }
    if t.chars[bg as usize].alive {
        assert_eq!(
            t.chars[bg as usize].active, bow,
            "still active in Bob's turn"
        );
    }
    g.start_turn(&mut {
        let mut u = t.clone();
        u.seat = 0;
        u
    });
    let mut u = t.clone();
    u.seat = 0;
    g.start_turn(&mut u);
    assert_eq!(u.chars[bg as usize].active, NONE);
    let e01 = k(&g, "E01") as usize;
    assert_eq!(u.gone[e01], base.gone[e01] + 1);
}

/// The H13 corridor t0 = (0,5), b = (1,5), l = (2,5), linked to Ann's
/// entrance by a passage up from (−3,1); Bob's Porter on b, Ann to move with
/// a full hand. Movers are put on t0 by the caller.
fn h13_scenario(g: &Hamunaptra) -> Scenario<'_> {
    let mut b = Scenario::new(g)
        .characters(0, &["C05", "C13", "C08", "C03"])
        .characters(1, BOB)
        .hand(0, &["C-STR", "C-CRS", "C-CRN", "C-DEAD"]);
    for y in 1..=4 {
        b = b.tile("C-STR", -3, y, 0, 0);
    }
    b = b.tile("C-CRN", -3, 5, 90, 0);
    for x in -2..=2 {
        b = b.tile("C-STR", x, 5, 90, 0);
    }
    b.at("C16", 1, 5)
}

/// The H13 position with these Ann characters on t0, each with its full M.
fn h13_state(g: &Hamunaptra, movers: &[&str]) -> State {
    h13_with(g, movers, |b| b)
}

fn h13_with(
    g: &Hamunaptra,
    movers: &[&str],
    more: impl FnOnce(Scenario<'_>) -> Scenario<'_>,
) -> State {
    let mut b = h13_scenario(g);
    for id in movers {
        b = b.at(id, 0, 5);
    }
    let s = more(b).build().unwrap();
    assert_eq!((s.phase, s.seat), (Phase::Move, 0));
    s
}

#[test]
fn h13_overtaking() {
    let g = game("hamunaptra");
    let ov = Action::Overtake {
        from: c(0, 5),
        via: c(1, 5),
        to: c(2, 5),
    };
    // A: two movers, count test.
    let mut s = h13_state(&g, &["C05", "C13"]);
    play(&g, &mut s, ov);
    for (id, left) in [("C05", 0), ("C13", 1)] {
        let x = s.chars[ch(&g, id) as usize];
        assert_eq!((x.cell, x.mp, x.stopped), (c(2, 5), left, true));
    }
    // B: total M 4 > 3.
    let s = h13_state(&g, &["C08"]);
    assert!(is_legal(&g, &s, ov));
    // C: blocked, may not even enter b.
    let s = h13_state(&g, &["C03"]);
    assert!(!is_legal(&g, &s, ov));
    let arch = ch(&g, "C03");
    assert!(!is_legal(
        &g,
        &s,
        Action::Step {
            ch: arch,
            to: c(1, 5)
        }
    ));
    // D: not enough MP.
    let s = h13_with(&g, &["C08"], |b| b.movement_left("C08", 1));
    assert!(!is_legal(&g, &s, ov));
    // E: a Bob character on l.
    let s = h13_with(&g, &["C08"], |b| b.at("C14", 2, 5));
    assert!(!is_legal(&g, &s, ov));
}

#[test]
fn h14_must_play_penalty() {
    let g = game("hamunaptra");
    let at_place = |g: &Hamunaptra, hand: &[&str]| {
        let mut s = Scenario::new(g)
            .characters(0, ANN)
            .characters(1, BOB)
            .hand(0, hand)
            .build()
            .unwrap();
        play(g, &mut s, Action::EndMove);
        s
    };
    let mut s = at_place(&g, &["E03", "E12", "E08", "E02"]);
    assert_eq!(legal(&g, &s), vec![Action::EndPlace]);
    let pile = s.pile_len;
    play(&g, &mut s, Action::EndPlace);
    assert_eq!(s.phase, Phase::Penalty);
    for id in ["E03", "E12", "E08", "E02"] {
        close(prob(&g, &s, Action::Lose(k(&g, id))), 0.25);
    }
    play(&g, &mut s, Action::Lose(k(&g, "E12")));
    assert_eq!(s.pile_len, pile + 1);
    assert_eq!(s.players[0].hand.len(), 3);
    assert_eq!(s.phase, Phase::Equip, "T5 still open");
    // Variant: a C-DEAD that fits makes EndPlace illegal.
    let v = at_place(&g, &["E03", "E12", "E08", "C-DEAD"]);
    assert!(!is_legal(&g, &v, Action::EndPlace));
    // With allow_voluntary_pass it is legal (and penalised).
    let gv = game("hamunaptra(allow_voluntary_pass=true)");
    let mut v = at_place(&gv, &["E03", "E12", "E08", "C-DEAD"]);
    play(&gv, &mut v, Action::EndPlace);
    assert_eq!(v.phase, Phase::Penalty);
}

#[test]
fn h15_foreign_placement_limit() {
    let g = game("hamunaptra");
    let mut s = Scenario::new(&g)
        .characters(0, ANN)
        .characters(1, BOB)
        .tile("C-CRS", -4, 0, 0, 0)
        .hand(1, &["C-DEAD", "C-DEAD", "C-STR", "E03"])
        .turn(1)
        .build()
        .unwrap();
    play(&g, &mut s, Action::EndMove);
    place(&g, &mut s, "C-DEAD", -5, 0, 90);
    assert_eq!(s.foreign, 1);
    assert!(
        !can_place(&g, &s, "C-DEAD", -4, -1, 0),
        "second foreign tile"
    );
    assert!(
        can_place(&g, &s, "C-STR", 3, 1, 0),
        "own tiles still allowed"
    );
}

/// The H16 board with the Scroll of Thoth on Ann's table, Ann at T3; her
/// characters parked on (−3,−1) except those moved to `at`.
fn h16_state(g: &Hamunaptra, at: &[(&str, i32, i32)]) -> State {
    let mut b = Scenario::new(g)
        .characters(0, ANN)
        .characters(1, BOB)
        .tile("C-CRS", -4, 0, 0, 0)
        .tile("C-STR", -4, 1, 0, 0)
        .tile("C-STR", -3, 1, 0, 0)
        .tile("C-CRN", -3, -1, 0, 0)
        .tile("C-STR", -3, 2, 0, 0)
        .encounter("M1", -3, 2)
        .tile("C-DEAD", -5, 0, 90, 1)
        .table(0, &["E13"])
        .hand(0, &["E03", "E12", "E08", "E02"]);
    for id in ANN {
        b = b.at(id, -3, -1);
    }
    for &(id, x, y) in at {
        b = b.at(id, x, y);
    }
    let mut s = b.build().unwrap();
    play(g, &mut s, Action::EndMove);
    s
}

#[test]
fn h16_scroll_destruction() {
    let g = game("hamunaptra");
    let scroll = eq(&g, "E13");
    let sc = |x, y| Action::Scroll {
        equip: scroll,
        at: c(x, y),
    };
    let s = h16_state(&g, &[("C13", -4, 0)]);
    assert!(is_legal(&g, &s, sc(-5, 0)));
    assert!(!is_legal(&g, &s, sc(-3, 0)), "entrance");
    assert!(is_legal(&g, &s, sc(-4, 1)));
    let mut t = s.clone();
    play(&g, &mut t, sc(-5, 0));
    assert_eq!(t.cells[c(-5, 0) as usize].tile, 0);
    assert!(t.players[0].table.is_empty());
    assert_eq!(t.gone[k(&g, "E13") as usize], 1);
    // Cutting (−3,2) off is illegal.
    let s = h16_state(&g, &[("C13", -4, 1)]);
    assert!(!is_legal(&g, &s, sc(-3, 1)));
    // A tile with a character on it is immune.
    let s = h16_state(&g, &[("C13", -4, 1), ("C02", -4, 0)]);
    assert!(!is_legal(&g, &s, sc(-4, 0)));
    // Under the Mummy: the Mummy stays on the empty cell.
    let mut s = h16_state(&g, &[("C13", -3, 1)]);
    play(&g, &mut s, sc(-3, 2));
    assert_eq!(s.cells[c(-3, 2) as usize].tile, 0);
    assert_eq!(s.cells[c(-3, 2) as usize].enc, foe(&g, "M1") + 1);
    // Using a scroll is not a placement: the must-play obligation remains.
    assert_eq!(s.placed, 0);
}

/// The characters fighting in a turn, each with its encounter's cell.
type Fighters = &'static [(&'static str, i32, i32)];

#[test]
fn h17_monster_controller_rotation() {
    let g = game("hamunaptra(players=3)");
    // Entrances: seat 0 (0,3) open W,N,E; seat 1 (3,0) N,E,S; seat 2 (−3,0)
    // N,W,S. Each fighter steps onto an encounter of R1 next to its
    // entrance, so a roll with the most successes always defeats it. Hands
    // of equipment only: no placement, the penalty, the fight, then T5.
    let mut s = Scenario::new(&g)
        .characters(0, ANN)
        .characters(1, BOB)
        .characters(2, &["C03", "C04", "C05", "C06"])
        .tile("C-STR", 0, 4, 0, 0)
        .encounter("T1", 0, 4)
        .tile("C-STR", 4, 0, 90, 1)
        .encounter("T4", 4, 0)
        .tile("C-STR", -4, 0, 90, 2)
        .encounter("M2", -4, 0)
        .tile("C-STR", -3, 1, 0, 2)
        .encounter("T7", -3, 1)
        .hand(0, &["E01", "E02", "E03", "E04"])
        .hand(1, &["E05", "E06", "E07", "E08"])
        .hand(2, &["E09", "E10", "E11", "E12"])
        .build()
        .unwrap();
    assert_eq!((s.round, s.ctrl_ptr), (1, 0));
    // (seat, its fighters and their encounters), in turn order.
    let turns: [(u8, Fighters); 3] = [
        (0, &[("C01", 0, 4)]),
        (1, &[("C16", 4, 0)]),
        (2, &[("C03", -4, 0), ("C04", -3, 1)]),
    ];
    let expect = [(1, 2), (2, 0), (0, 1), (1, 2)];
    let mut fight = 0;
    for (seat, fighters) in turns {
        assert_eq!((s.seat, s.phase), (seat, Phase::Move));
        for &(id, x, y) in fighters {
            play(
                &g,
                &mut s,
                Action::Step {
                    ch: ch(&g, id),
                    to: c(x, y),
                },
            );
        }
        play(&g, &mut s, Action::EndMove);
        play(&g, &mut s, Action::EndPlace);
        assert_eq!(s.phase, Phase::Penalty);
        let lose = g.chance_outcomes(&s)[0].0;
        play(&g, &mut s, lose);
        for _ in fighters {
            if s.phase == Phase::Site {
                let site = legal(&g, &s)[0];
                play(&g, &mut s, site);
            }
            let (ctrl, ptr) = expect[fight];
            fight += 1;
            let cb = s.combat.unwrap();
            assert_eq!(cb.controller, ctrl, "combat {fight}");
            let stats: Vec<Action> = legal(&g, &s);
            if !stats.is_empty() {
                play(&g, &mut s, stats[0]);
            }
            let best = g.chance_outcomes(&s).last().unwrap().0;
            play(&g, &mut s, best);
            // This fight is over (the turn's next one may have begun).
            assert_eq!(s.cells[cb.cell as usize].enc, 0, "combat {fight}");
            assert_ne!(s.combat.map(|x| x.cell), Some(cb.cell));
            assert_eq!(s.ctrl_ptr, ptr, "pointer after combat {fight}");
        }
        play(&g, &mut s, Action::SkipEquip);
    }
    assert_eq!(fight, 4);
    // A new round resets the pointer to the First Player.
    assert_eq!((s.round, s.ctrl_ptr, s.seat), (2, 0, 0));
}

/// The H18 board (connected starts): Ann's column north to her exit at
/// (−3,8) with two ordinary stairs on it, Bob's column south to his exit at
/// (3,−8) with one ordinary stair off it; Ann's Bodyguard dead.
fn h18_scenario(g: &Hamunaptra) -> Scenario<'_> {
    let mut b = Scenario::new(g)
        .characters(0, &["C13", "C02", "C15", "C01"])
        .characters(1, &["C16", "C14", "C12", "C07"])
        .dead("C01")
        .round(20);
    for y in 1..=7 {
        let id = if y == 2 || y == 3 { "ST-STR" } else { "C-STR" };
        b = b.tile(id, -3, y, 0, 0);
    }
    b = b
        .tile("SY-DEAD-SUN", -3, 8, 180, 0)
        .tile("C-TEE", 3, -1, 270, 1);
    for y in 2..=7 {
        b = b.tile("C-STR", 3, -y, 0, 1);
    }
    b.tile("ST-DEAD", 4, -1, 270, 1)
        .tile("ST-DEAD", 3, -8, 0, 1)
        .at("C02", -3, 1)
        .at("C15", -3, 1)
}

#[test]
fn h18_exit_end_scoring_tiebreak() {
    for (spec, ann_vp, bob_vp) in [
        ("hamunaptra(rule5=true)", 17, 17),
        ("hamunaptra(rule5=true,escaped_also_survivor=true)", 19, 21),
    ] {
        let g = game(spec);
        // Play: Ann's Explorer reaches her exit and ends movement.
        let mut s = h18_scenario(&g)
            .at("C13", -3, 7)
            .hand(0, &["E12", "E06", "E07", "E08"])
            .build()
            .unwrap();
        assert!(s.cells[c(-3, 8) as usize].exit && s.cells[c(3, -8) as usize].exit);
        assert!(!s.cells[c(-3, 2) as usize].exit);
        skip_trade(&g, &mut s);
        let ex = ch(&g, "C13");
        play(
            &g,
            &mut s,
            Action::Step {
                ch: ex,
                to: c(-3, 8),
            },
        );
        play(&g, &mut s, Action::EndMove);
        assert!(s.final_round);
        // Bob's turn in that round: his Porter may share the exit now.
        // Ann holds the Rope and has the Pith Helmet face down; the pile is
        // empty, so Bob draws nothing.
        let bob_turn = |last: bool| {
            let mut b = h18_scenario(&g)
                .at("C13", -3, 8)
                .at("C16", -3, 7)
                .at("C14", 3, -7)
                .hand(0, &["E12"])
                .table(0, &["E05"])
                .deck(&[])
                .turn(1);
            if last {
                b = b.final_round();
            }
            let mut s = b.build().unwrap();
            skip_trade(&g, &mut s);
            s
        };
        let porter = ch(&g, "C16");
        let share = Action::Step {
            ch: porter,
            to: c(-3, 8),
        };
        assert!(!is_legal(&g, &bob_turn(false), share));
        let mut s = bob_turn(true);
        play(&g, &mut s, share);
        play(
            &g,
            &mut s,
            Action::Step {
                ch: ch(&g, "C14"),
                to: c(3, -8),
            },
        );
        let (va, vb) = (g.vp(&s, 0), g.vp(&s, 1));
        assert_eq!((va.exits, va.other_exits, va.stairs), (1, 1, 2));
        assert_eq!((vb.exits, vb.other_exits, vb.stairs), (1, 1, 1));
        assert_eq!((va.escaped, vb.escaped), (1, 2));
        assert_eq!((va.total, vb.total), (ann_vp, bob_vp), "{spec}");
        // The round ends → game over; Bob wins (tie-break or more VP).
        play(&g, &mut s, Action::EndMove);
        play(&g, &mut s, Action::EndPlace);
        assert_eq!(g.turn(&s), Turn::Terminal);
        let r = g.returns(&s);
        assert!(r[1] > r[0]);
    }
}

#[test]
fn h19_deck_exhaustion() {
    let g = game("hamunaptra(players=3)");
    // Seat 1 starts its turn with 2 cards; the pile holds 2.
    let keep = [k(&g, "C-STR"), k(&g, "C-CRN")];
    let mut s = Scenario::new(&g)
        .characters(0, ANN)
        .characters(1, BOB)
        .characters(2, &["C03", "C04", "C05", "C06"])
        .hand(1, &["E01", "E02"])
        .hand(2, &["C-DEAD"])
        .deck(&["C-STR", "C-CRN"])
        .turn(1)
        .build()
        .unwrap();
    assert_eq!((s.round, s.pile_len, s.phase), (1, 2, Phase::Draw));
    play(&g, &mut s, Action::Draw(keep[0]));
    assert!(!s.final_round);
    play(&g, &mut s, Action::Draw(keep[1]));
    assert!(s.final_round);
    // Play on: seat 2 draws nothing and the game ends with the round.
    let mut rng = rng_from_seed(1);
    let mut saw_seat2 = false;
    while g.turn(&s) != Turn::Terminal {
        if s.seat == 2 && s.phase != Phase::Draw {
            saw_seat2 = true;
            assert_eq!(s.pile_len, 0);
        }
        let a = match g.turn(&s) {
            Turn::Chance => g.sample_chance(&s, &mut rng),
            _ => {
                let l = legal(&g, &s);
                l[below(&mut rng, l.len())]
            }
        };
        g.apply(&mut s, a);
    }
    assert!(saw_seat2);
    assert_eq!(s.round, 1);
}

#[test]
fn h20_equipment_limit_and_persistence() {
    let g = game("hamunaptra");
    // Bob: 2 living characters, the Khopesh and the Rope face down.
    let bob = |hand: &[&str]| {
        Scenario::new(&g)
            .characters(0, ANN)
            .characters(1, BOB)
            .dead("C12")
            .dead("C07")
            .table(1, &["E02", "E12"])
            .hand(0, &["C-STR", "E06", "E07", "E08"])
            .hand(1, hand)
            .turn(1)
            .build()
            .unwrap()
    };
    // Bob's turn, T5 with equipment in hand: no third item (limit 2).
    let mut s = bob(&["E03", "C-STR", "E04", "E05"]);
    play(&g, &mut s, Action::EndMove);
    place(&g, &mut s, "C-STR", 3, 1, 0);
    play(&g, &mut s, Action::EndPlace);
    assert_ne!(s.phase, Phase::Equip);
    // Movement with the Rope.
    let merc = ch(&g, "C14");
    let rope = eq(&g, "E12");
    let mut t = bob(&["E03", "C-STR", "E04", "E05"]);
    assert_eq!(t.chars[merc as usize].mp, 3);
    play(
        &g,
        &mut t,
        Action::AssignMove {
            equip: rope,
            ch: merc,
        },
    );
    assert_eq!(t.chars[merc as usize].mp, 4);
    // Still counts toward the limit this turn: 1 face down + 1 active = 2.
    play(&g, &mut t, Action::EndMove);
    place(&g, &mut t, "C-STR", 3, 1, 0);
    play(&g, &mut t, Action::EndPlace);
    assert_ne!(t.phase, Phase::Equip);
    assert_eq!(t.chars[merc as usize].active, rope);
    // Ann's turn (round 2) lays a tile and passes T5.
    assert_eq!((t.seat, t.round, t.phase), (0, 2, Phase::Move));
    play(&g, &mut t, Action::EndMove);
    place(&g, &mut t, "C-STR", -3, 1, 0);
    play(&g, &mut t, Action::EndPlace);
    play(&g, &mut t, Action::SkipEquip);
    // Bob's next T0: the Rope is discarded; now Bob may play one.
    assert_eq!((t.seat, t.phase), (1, Phase::Draw));
    assert_eq!(t.chars[merc as usize].active, NONE);
    assert_eq!(t.gone[k(&g, "E12") as usize], 1);
    play(&g, &mut t, Action::Draw(k(&g, "C-STR")));
    play(&g, &mut t, Action::EndMove);
    place(&g, &mut t, "C-STR", 3, -1, 0);
    play(&g, &mut t, Action::EndPlace);
    assert_eq!(t.phase, Phase::Equip);
}

/// H21's two edge tiles, C-CRN r270 [W,N] at (−11,2) and C-STR r90 [E,W]
/// at (−11,0), and a C-STR [N,S] at (−5,11) opening on the north edge,
/// each linked to Ann's entrance by a tunnel; the Bedouin Guide on (−11,2).
/// (−11,1) stays empty, faced by the open W side of a C-TEE at (−10,1).
fn h21_scenario(g: &Hamunaptra) -> Scenario<'_> {
    let row: Vec<(i32, i32)> = (4..=9).map(|x| (-x, 0)).collect();
    let column: Vec<(i32, i32)> = (1..=8).map(|y| (-3, y)).collect();
    Scenario::new(g)
        .characters(0, &["C07", "C02", "C13", "C15"])
        .characters(1, &["C16", "C14", "C12", "C11"])
        .tiles("C-STR", &row, 90, 0)
        .tile("C-TEE", -10, 0, 180, 0)
        .tile("C-STR", -11, 0, 90, 0)
        .tile("C-TEE", -10, 1, 90, 0)
        .tile("C-STR", -10, 2, 0, 0)
        .tile("C-CRN", -10, 3, 180, 0)
        .tile("C-CRN", -11, 3, 90, 0)
        .tile("C-CRN", -11, 2, 270, 0)
        .tiles("C-TEE", &column, 270, 0)
        .tile("C-STR", -3, 9, 0, 0)
        .tile("C-CRN", -3, 10, 180, 0)
        .tile("C-STR", -4, 10, 90, 0)
        .tile("C-CRN", -5, 10, 0, 0)
        .tile("C-STR", -5, 11, 0, 0)
        .at("C07", -11, 2)
        .hand(0, &["C-STR", "C-CRS", "C-DEAD", "C-CRN"])
}

#[test]
fn h21_lost_edge_walk() {
    for (spec, allowed) in [("hamunaptra", true), ("hamunaptra(edge_walk=false)", false)] {
        let g = game(spec);
        let mut s = h21_scenario(&g).build().unwrap();
        assert_eq!(g.open(&s, c(-11, 2)), 1 | 8);
        let guide = ch(&g, "C07");
        assert_eq!((s.phase, s.chars[guide as usize].mp), (Phase::Move, 3));
        assert_eq!(
            is_legal(
                &g,
                &s,
                Action::Step {
                    ch: guide,
                    to: c(-11, 0)
                }
            ),
            allowed
        );
        assert!(!is_legal(
            &g,
            &s,
            Action::Step {
                ch: guide,
                to: c(-5, 11)
            }
        ));
        if allowed {
            let t = h21_scenario(&g).movement_left("C07", 1).build().unwrap();
            assert!(!is_legal(
                &g,
                &t,
                Action::Step {
                    ch: guide,
                    to: c(-11, 0)
                }
            ));
            play(
                &g,
                &mut s,
                Action::Step {
                    ch: guide,
                    to: c(-11, 0),
                },
            );
            assert_eq!(s.chars[guide as usize].mp, 1);
        }
    }
}

/// H22: the Adventurer with 1 MP left steps from (−3,1) onto the Mummy at
/// (−3,2) (on a tile `under`, rotated `deg`), Ann ends T3 with an empty
/// hand, and the first round of the fight leaves both standing.
fn h22_fight(g: &Hamunaptra, under: &str, deg: u16, east: bool) -> State {
    let mut b = Scenario::new(g)
        .characters(0, &["C05", "C02", "C13", "C15"])
        .characters(1, BOB)
        .tile("C-STR", -3, 1, 0, 0)
        .tile(under, -3, 2, deg, 0);
    if east {
        b = b.tile("C-STR", -2, 2, 90, 0);
    }
    let mut s = b
        .encounter("M1", -3, 2)
        .at("C05", -3, 1)
        .movement_left("C05", 1)
        .deck(&[])
        .build()
        .unwrap();
    let adv = ch(g, "C05");
    play(
        g,
        &mut s,
        Action::Step {
            ch: adv,
            to: c(-3, 2),
        },
    );
    assert_eq!(s.chars[adv as usize].came_from, c(-3, 1));
    play(g, &mut s, Action::EndMove);
    play(g, &mut s, Action::EndPlace);
    play(g, &mut s, Action::Roll(1));
    play(g, &mut s, Action::Counter { stat: 0, ch: adv });
    play(g, &mut s, Action::Roll(0));
    s
}

#[test]
fn h22_retreat_rules() {
    let g = game("hamunaptra");
    let adv = ch(&g, "C05");
    let mut s = h22_fight(&g, "C-CRS", 0, true);
    assert!(!is_legal(&g, &s, Action::Retreat(c(-3, 1))));
    assert!(is_legal(&g, &s, Action::Retreat(c(-2, 2))));
    assert_eq!(s.chars[adv as usize].mp, 0);
    play(&g, &mut s, Action::Retreat(c(-2, 2)));
    assert_eq!(s.chars[adv as usize].cell, c(-2, 2));
    assert!(s.combat.is_none());
    // Variant: C-STR under the Mummy, (−2,2) and (−3,3) empty.
    let v = h22_fight(&g, "C-STR", 0, false);
    assert_eq!(legal(&g, &v), vec![Action::Continue]);
}

#[test]
fn h23_monster_movement_and_ambush() {
    let g = game("hamunaptra(rule2=true)");
    // Ann's tunnel from her entrance up (−3,1..5), east along y = 5 and
    // north at x = 0 through (0,6), (0,7), (0,8).
    let mut s = Scenario::new(&g)
        .characters(0, ANN)
        .characters(1, BOB)
        .tiles("C-STR", &[(-3, 1), (-3, 2), (-3, 3), (-3, 4)], 0, 0)
        .tile("C-CRN", -3, 5, 90, 0)
        .tiles("C-STR", &[(-2, 5), (-1, 5)], 90, 0)
        .tile("C-CRN", 0, 5, 270, 0)
        .tiles("C-STR", &[(0, 6), (0, 7), (0, 8)], 0, 0)
        .encounter("M1", 0, 6)
        .at("C13", 0, 8)
        .monster_phase()
        .build()
        .unwrap();
    let ex = ch(&g, "C13");
    let mummy = foe(&g, "M1");
    assert_eq!(
        (s.phase, s.round, g.turn(&s)),
        (Phase::Monsters, 1, Turn::Player(0))
    );
    play(&g, &mut s, Action::Pass);
    assert_eq!(g.turn(&s), Turn::Player(1));
    play(
        &g,
        &mut s,
        Action::MonsterStep {
            foe: mummy,
            to: c(0, 7),
        },
    );
    play(
        &g,
        &mut s,
        Action::MonsterStep {
            foe: mummy,
            to: c(0, 8),
        },
    );
    let cb = s.combat.unwrap();
    assert!(cb.ambush);
    assert_eq!(
        (cb.fighter, cb.controller, cb.stage),
        (0, 1, Stage::Counter)
    );
    play(&g, &mut s, Action::Counter { stat: 0, ch: ex });
    close(1.0 - prob(&g, &s, Action::Roll(0)), 63.0 / 64.0);
    play(&g, &mut s, Action::Roll(0));
    assert_eq!(g.turn(&s), Turn::Player(0));
    play(&g, &mut s, Action::Continue);
    // Ann's own attack: 2D4 against 3.
    close(prob(&g, &s, Action::Roll(0)), 0.25);
    play(&g, &mut s, Action::Roll(0));
    play(&g, &mut s, Action::Counter { stat: 0, ch: ex });
    play(&g, &mut s, Action::Roll(1));
    assert!(!s.chars[ex as usize].alive);
    // The phase ends (no movable monster left) and damage is cleared.
    assert!(s.foes.iter().all(|f| f.dmg == 0));
    assert_ne!(s.phase, Phase::Fight);
}

#[test]
fn h24_character_vs_character() {
    let g = game("hamunaptra(rule1=true)");
    // Ann's tunnel up (−3,1..4) and east along y = 5; the Boxer on (0,5),
    // Bob's Porter on (1,5); empty hands and pile.
    let mut s = Scenario::new(&g)
        .characters(0, &["C12", "C02", "C13", "C15"])
        .characters(1, &["C16", "C14", "C11", "C07"])
        .tiles("C-STR", &[(-3, 1), (-3, 2), (-3, 3), (-3, 4)], 0, 0)
        .tile("C-CRN", -3, 5, 90, 0)
        .tiles("C-STR", &[(-2, 5), (-1, 5), (0, 5), (1, 5)], 90, 0)
        .at("C12", 0, 5)
        .at("C16", 1, 5)
        .deck(&[])
        .build()
        .unwrap();
    let (boxer, porter) = (ch(&g, "C12"), ch(&g, "C16"));
    assert_eq!((s.phase, s.chars[boxer as usize].mp), (Phase::Move, 2));
    play(
        &g,
        &mut s,
        Action::Step {
            ch: boxer,
            to: c(1, 5),
        },
    );
    assert!(s.chars[boxer as usize].stopped);
    let base = {
        let mut t = s.clone();
        play(&g, &mut t, Action::EndMove);
        play(&g, &mut t, Action::EndPlace);
        t
    };
    // F.
    let mut t = base.clone();
    assert_eq!(t.combat.unwrap().stage, Stage::Stat);
    play(&g, &mut t, Action::Attack(0));
    play(&g, &mut t, Action::Target(porter));
    assert_eq!(g.turn(&t), Turn::Player(1));
    play(&g, &mut t, Action::Target(boxer));
    let p3: f64 = (3..=4).map(|n| prob(&g, &t, Action::Roll(n))).sum();
    close(p3, 189.0 / 256.0);
    play(&g, &mut t, Action::Roll(3));
    close(1.0 - prob(&g, &t, Action::Roll(0)), 7.0 / 16.0);
    play(&g, &mut t, Action::Roll(1));
    assert!(!t.chars[boxer as usize].alive && !t.chars[porter as usize].alive);
    // I.
    let mut t = base.clone();
    play(&g, &mut t, Action::Attack(1));
    play(&g, &mut t, Action::Target(porter));
    play(&g, &mut t, Action::Target(boxer));
    assert_eq!(g.chance_outcomes(&t), vec![(Action::Roll(2), 1.0)]);
    play(&g, &mut t, Action::Roll(2));
    close(prob(&g, &t, Action::Roll(1)), 0.75);
}

#[test]
fn h25_component_data_integrity() {
    let g = game("hamunaptra");
    let d = &g.comps;
    assert_eq!(d.chars.len(), 16);
    assert!(
        d.chars
            .iter()
            .all(|x| x.f >= 1 && x.i >= 1 && x.r >= 1 && x.m >= 1)
    );
    assert!(d.chars.iter().all(|x| x.f + x.i + x.r + x.m == 9));
    let monsters = d.foe_is_monster.iter().filter(|&&m| m).count();
    assert_eq!((monsters, d.foes.len() - monsters), (9, 7));
    assert!(
        d.foes
            .iter()
            .all(|x| (x.f.is_some() || x.i.is_some()) && x.r >= 1)
    );
    assert_eq!(d.equipment.len(), 15);
    assert_eq!(d.equipment.iter().filter(|e| e.destroy_tile).count(), 3);
    let pile_tiles: u32 = (0..d.pile_tile_types)
        .map(|t| u32::from(d.kind_count[t]))
        .sum();
    assert_eq!(pile_tiles, 84);
    let stairs: u32 = (0..d.pile_tile_types)
        .filter(|&t| d.tiles[t].stairs)
        .map(|t| u32::from(d.kind_count[t]))
        .sum();
    assert_eq!(stairs, 16);
    for sym in 1..=5u8 {
        let n: u32 = (0..d.pile_tile_types)
            .filter(|&t| d.tiles[t].symbol == sym)
            .map(|t| u32::from(d.kind_count[t]))
            .sum();
        assert_eq!(n, 2);
    }
    assert_eq!(d.symbols.len(), 5);
    let s = g.new_state();
    assert_eq!(s.pile_len, 115);
    let bg = &d.chars[ch(&g, "C01") as usize];
    assert_eq!((bg.f, bg.r), (4, 2));
    assert_eq!(d.chars[ch(&g, "C02") as usize].f, 1);
    let m = &d.foes[foe(&g, "M1") as usize];
    assert_eq!((m.f, m.i, m.r), (Some(3), None, 2));
    assert_eq!(d.equipment[eq(&g, "E01") as usize].f, 2);
    // Start tiles: 29 in the box, 8 entrances (read from the file).
    let raw: data::ComponentsFile = toml::from_str(data::DEFAULT_COMPONENTS).unwrap();
    let starts: u32 = raw.start_tile.iter().map(|t| u32::from(t.count)).sum();
    let entr: u32 = raw
        .start_tile
        .iter()
        .filter(|t| t.entrance)
        .map(|t| u32::from(t.count))
        .sum();
    assert_eq!((starts, entr), (29, 8));
}

// ------------------------------------------------------------ parameters

#[test]
fn bad_parameters_are_errors() {
    for bad in [
        "hamunaptra(players=5)",
        "hamunaptra(players=4,rule6=true)",
        "hamunaptra(exit_distance=6)",
        "hamunaptra(characters=5)",
        "hamunaptra(rule6=true,characters=9)",
        "hamunaptra(H=40)",
        "hamunaptra(trade_mode=barter)",
        "hamunaptra(defender_chooser=nobody)",
        "hamunaptra(components=/nonexistent.toml)",
        "hamunaptra(colour=red)",
        "hamunaptra(rule1=maybe)",
    ] {
        assert!(Hamunaptra::from_spec_text(bad).is_err(), "{bad}");
    }
    let g = game("hamunaptra(players=3,rule6=true)");
    assert_eq!(g.cpp, 5);
    assert_eq!(g.spec(), "hamunaptra(players=3,rule6=true,characters=5)");
    assert_eq!(game("hamunaptra(players=2,rule6=true)").cpp, 6);
}

#[test]
fn bad_component_file_is_explained() {
    let dir = std::env::temp_dir().join("hamunaptra_bad_components.toml");
    let text = data::DEFAULT_COMPONENTS
        .replace("symbol = \"SUN\"\ncount = 1", "symbol = \"SUN\"\ncount = 2");
    std::fs::write(&dir, text).unwrap();
    let err = Hamunaptra::from_spec_text(&format!("hamunaptra(components={})", dir.display()))
        .unwrap_err()
        .to_string();
    assert!(err.contains("SUN"), "{err}");
    let _ = std::fs::remove_file(&dir);
}

// ------------------------------------------------------------------ soak

/// The game's invariants, with the test's context on failure.
fn check_invariants(g: &Hamunaptra, s: &State, ctx: &str) {
    if let Err(e) = g.check_invariants(s) {
        panic!("{ctx}: {e}");
    }
}

fn soak(spec: &str, games: u64) {
    let g = game(spec);
    for seed in 0..games {
        let mut rng = rng_from_seed(seed);
        let mut s = g.initial_state(&mut rng);
        let mut steps = 0;
        while g.turn(&s) != Turn::Terminal {
            let a = match g.turn(&s) {
                Turn::Chance => g.sample_chance(&s, &mut rng),
                _ => {
                    let l = g.legal_actions(&s);
                    l[below(&mut rng, l.len())]
                }
            };
            g.apply(&mut s, a);
            steps += 1;
            check_invariants(&g, &s, &format!("{spec} seed {seed} step {steps}"));
            assert!(steps <= g.max_game_length());
        }
    }
}

#[test]
fn soak_every_parameter_combination() {
    let specs = [
        "hamunaptra(max_rounds=20)",
        "hamunaptra(players=3,max_rounds=15)",
        "hamunaptra(players=4,max_rounds=12)",
        "hamunaptra(rule1=true,max_rounds=15,max_combat_rounds=10)",
        "hamunaptra(players=3,rule1=true,max_rounds=10,max_combat_rounds=10)",
        "hamunaptra(rule2=true,max_rounds=15,max_combat_rounds=10)",
        "hamunaptra(players=4,rule2=true,max_rounds=10,max_combat_rounds=10)",
        "hamunaptra(rule3=true,max_rounds=20)",
        "hamunaptra(rule4=true,exit_distance=3,max_rounds=15)",
        "hamunaptra(rule5=true,max_rounds=15)",
        "hamunaptra(players=3,rule5=true,max_rounds=10)",
        "hamunaptra(players=4,rule5=true,max_rounds=10)",
        "hamunaptra(rule6=true,characters=8,max_rounds=15)",
        "hamunaptra(players=3,rule6=true,max_rounds=10)",
        "hamunaptra(H=6,max_rounds=20)",
        "hamunaptra(H=6,edge_walk=false,max_rounds=10)",
        "hamunaptra(distance_metric=manhattan,max_rounds=10)",
        "hamunaptra(distance_metric=path,rule4=true,exit_distance=4,max_rounds=10)",
        "hamunaptra(trade_mode=off,defender_chooser=owner,max_rounds=10)",
        "hamunaptra(trade_mode=general,max_rounds=15)",
        "hamunaptra(players=4,rule5=true,trade_mode=general,max_rounds=10)",
        "hamunaptra(allow_voluntary_pass=true,escaped_also_survivor=true,max_rounds=10)",
        "hamunaptra(hand_size=6,max_rounds=10)",
        "hamunaptra(dice=each,rule1=true,rule2=true,max_rounds=10,max_combat_rounds=10)",
        "hamunaptra(rule1=true,rule2=true,rule3=true,rule5=true,max_rounds=12,max_combat_rounds=10)",
    ];
    for spec in specs {
        soak(spec, 12);
    }
}

#[test]
fn full_length_games_end() {
    let g = game("hamunaptra");
    for seed in 0..4 {
        let mut rng = rng_from_seed(seed);
        let mut s = g.initial_state(&mut rng);
        let n = crate::game::random_playout(&g, &mut s, &mut rng, g.max_game_length());
        assert_eq!(g.turn(&s), Turn::Terminal, "seed {seed} after {n} steps");
    }
}

#[test]
fn conformance_with_trades_and_fights() {
    let g = game("hamunaptra(players=3,rule1=true,rule2=true,max_rounds=6,max_combat_rounds=8)");
    check(
        &g,
        Config {
            playouts: 6,
            ..Config::default()
        },
    );
}

#[test]
fn render_and_labels() {
    let g = game("hamunaptra");
    let mut rng = rng_from_seed(9);
    let mut s = g.initial_state(&mut rng);
    crate::game::random_playout(&g, &mut s, &mut rng, 300);
    let seen = g.render(&s, Some(0));
    assert!(seen.contains("Seat 0") && seen.contains("hand:"));
    assert!(seen.contains("┤") || seen.contains("├"), "entrances drawn");
    let all = g.render(&s, None);
    // Seat 1's hand is a count to seat 0, its cards to the full rendering.
    assert!(s.players[1].hand.is_empty() || seen.contains("in unseen cards"));
    assert!(!all.contains("in unseen cards") && all != seen);
    assert!(!g.role(&s, 0).is_empty());
}

#[test]
fn general_trade_and_hand_limit() {
    let g = game("hamunaptra(rule5=true,trade_mode=general)");
    let mut s = start(&g, &[ANN, BOB]);
    // Ann draws four; Bob holds four.
    for id in ["C-STR", "C-CRN", "C-TEE", "E01"] {
        give(&g, &mut s, 0, id);
    }
    for id in ["C-DEAD", "R-CRS", "E02", "M1"] {
        give(&g, &mut s, 1, id);
    }
    s.seat = 0;
    s.asked = 0;
    s.phase = Phase::Trade;
    play(&g, &mut s, Action::OpenTrade(1));
    play(&g, &mut s, Action::Give(k(&g, "C-STR")));
    play(&g, &mut s, Action::Give(k(&g, "C-CRN")));
    assert!(is_legal(&g, &s, Action::Ask(0)));
    play(&g, &mut s, Action::Ask(1));
    assert_eq!(g.turn(&s), Turn::Player(1));
    // A third player's view would hide the offered cards; here both see them.
    assert_eq!(g.info_key(&s, 1).give, s.give);
    play(&g, &mut s, Action::Accept(k(&g, "M1")));
    assert_eq!(legal(&g, &s), vec![Action::Agree, Action::Reject]);
    play(&g, &mut s, Action::Agree);
    assert_eq!(s.players[0].hand.len(), 3);
    assert_eq!(s.players[1].hand.len(), 5);
    assert_eq!(
        (s.phase, g.turn(&s)),
        (Phase::TradeDiscard, Turn::Player(1))
    );
    play(&g, &mut s, Action::Discard(k(&g, "C-DEAD")));
    assert_eq!(s.players[1].hand.len(), 4);
    assert_eq!(s.players[1].ndisc, 1);
    // Ann does not know the discard; determinizing for her redeals it.
    assert_eq!(g.info_key(&s, 0).players[1].discarded, [0; 64]);
    let mut rng = rng_from_seed(4);
    let d = g.determinize(&s, 0, &mut rng);
    assert_eq!(d.players[1].ndisc, 1);
    assert_eq!(
        d.players[1]
            .discarded
            .iter()
            .map(|&n| u32::from(n))
            .sum::<u32>(),
        1
    );
    assert_eq!(g.info_key(&d, 1).players[1].hand.len(), 4);
    check_invariants(&g, &d, "determinized");
    // The window stays open for other partners only: back to movement.
    assert_eq!(s.phase, Phase::Move);
}

/// Applies dice faces one by one (`dice=each`).
fn dice(g: &Hamunaptra, s: &mut State, faces: &[u8]) {
    for &f in faces {
        assert_eq!(g.turn(s), Turn::Chance);
        close(prob(g, s, Action::Die(f)), 0.25);
        g.apply(s, Action::Die(f));
    }
}

#[test]
fn h01_h02_h10_with_individual_dice() {
    let g = game("hamunaptra(dice=each)");
    // H2: Ann [4,1,1,1] and Bob [2,4,3,3] tie; then [4,2,4,1] beats [3,4,1,1].
    let mut s = g.new_state();
    dice(&g, &mut s, &[4, 1, 1, 1, 2, 4, 3, 3]);
    assert_eq!((s.phase, s.roll_tied), (Phase::FirstRoll, 3));
    dice(&g, &mut s, &[4, 2, 4, 1, 3, 4, 1, 1]);
    assert_eq!((s.phase, s.first), (Phase::Draft, 0));
    // H10 line A: [3, 1, 4, 2] against 3 → 2 successes, the Mummy falls.
    let base = fight_setup(&g, &["C01"], "M1");
    let mut a = base.clone();
    play(&g, &mut a, Action::EndPlace);
    dice(&g, &mut a, &[3, 1, 4, 2]);
    assert!(a.combat.is_none());
    assert_eq!(a.foes[foe(&g, "M1") as usize].cell, NO_CELL);
    // Line B: [3,1,2,2] → 1; the Mummy's [1,4,2] against F4 → 1; then
    // [2,2,1,4] → 1 more: defeated.
    let bg = ch(&g, "C01");
    let mut b = base.clone();
    play(&g, &mut b, Action::EndPlace);
    dice(&g, &mut b, &[3, 1, 2, 2]);
    assert_eq!(b.foes[foe(&g, "M1") as usize].dmg, 1);
    play(&g, &mut b, Action::Counter { stat: 0, ch: bg });
    dice(&g, &mut b, &[1, 4, 2]);
    assert_eq!(b.chars[bg as usize].dmg, 1);
    play(&g, &mut b, Action::Continue);
    dice(&g, &mut b, &[2, 2, 1, 4]);
    assert!(b.combat.is_none());
    // H1: the same success law as the binomial nodes: P(≥2 of 4 against 3).
    let mut first = base.clone();
    g.apply(&mut first, Action::EndPlace);
    let mut p = 0.0;
    for code in 0..256u32 {
        let faces: Vec<u8> = (0..4).map(|i| (code >> (2 * i) & 3) as u8 + 1).collect();
        let mut t = first.clone();
        for &f in &faces {
            g.apply(&mut t, Action::Die(f));
        }
        if t.combat.is_none() {
            p += 1.0 / 256.0;
        }
    }
    close(p, 11.0 / 16.0);
}

#[test]
fn rule3_play_out_the_deck() {
    let g = game("hamunaptra(rule3=true)");
    let mut s = start(&g, &[ANN, BOB]);
    lay(&g, &mut s, "C-STR", -3, 1, 0, 0);
    lay(&g, &mut s, "ST-DEAD", -3, 9, 0, 0);
    assert!(s.cells[c(-3, 9) as usize].exit);
    // Standing on an exit does not end the game.
    let ex = ch(&g, "C13");
    put(&g, &mut s, "C13", -3, 9);
    s.seat = 0;
    s.phase = Phase::Move;
    s.chars[ex as usize].mp = 0;
    play(&g, &mut s, Action::EndMove);
    assert!(!s.final_round);
    // Pile empty and every hand empty: the round is the last.
    let mut t = s.clone();
    t.pile = [0; 64];
    t.pile_len = 0;
    for p in t.players.iter_mut() {
        p.hand.clear();
    }
    t.phase = Phase::Equip;
    t.players[0].hand.push(k(&g, "E01"));
    play(&g, &mut t, Action::PlayEquip(eq(&g, "E01")));
    assert!(t.final_round);
    // Stalemate fallback: after the pile has emptied once, a round with no
    // placement ends the game.
    let mut u = s.clone();
    u.pile_was_empty = true;
    u.placed_round = false;
    u.seat = 1;
    u.players[1].hand.clear();
    u.players[1].hand.push(k(&g, "E02"));
    u.phase = Phase::Equip;
    play(&g, &mut u, Action::SkipEquip);
    assert_eq!(g.turn(&u), Turn::Terminal);
    let mut w = s.clone();
    w.placed_round = true;
    w.seat = 1;
    w.phase = Phase::Equip;
    w.players[1].hand.clear();
    w.players[1].hand.push(k(&g, "E02"));
    play(&g, &mut w, Action::SkipEquip);
    assert_ne!(g.turn(&w), Turn::Terminal);
}

#[test]
fn rule5_and_rule6_setups() {
    for n in 2..=4u8 {
        let g = game(&format!("hamunaptra(players={n},rule5=true)"));
        let s = g.new_state();
        let e: Vec<u16> = g.entrances.clone();
        assert_eq!(e.len(), n as usize);
        let comp = g.component(&s, &[e[0]], false);
        assert!(
            e.iter().all(|&x| comp.has(x)),
            "{n} players: entrances linked"
        );
        let iso = game(&format!("hamunaptra(players={n})"));
        let s = iso.new_state();
        let comp = iso.component(&s, &[iso.entrances[0]], false);
        assert!(iso.entrances[1..].iter().all(|&x| !comp.has(x)));
    }
    let g = game("hamunaptra(rule6=true)");
    let mut s = g.new_state();
    play(&g, &mut s, Action::Roll(1));
    play(&g, &mut s, Action::Roll(0));
    for _ in 0..12 {
        let a = legal(&g, &s)[0];
        play(&g, &mut s, a);
    }
    assert_eq!(s.phase, Phase::Entrance);
    for p in 0..2 {
        assert_eq!(s.chars.iter().filter(|x| x.owner == p).count(), 6);
    }
}

#[test]
fn determinize_resamples_only_the_unknown() {
    let g = game("hamunaptra(players=3)");
    let mut rng = rng_from_seed(11);
    let mut s = g.initial_state(&mut rng);
    crate::game::random_playout(&g, &mut s, &mut rng, 400);
    let mut differs = false;
    for i in 0..10 {
        let d = g.determinize(&s, 1, &mut rng_from_seed(i));
        assert_eq!(d.players[1].hand, s.players[1].hand);
        assert_eq!(d.players[1].table, s.players[1].table);
        assert_eq!(d.cells, s.cells);
        assert_eq!(d.chars, s.chars);
        assert_eq!(d.pile_len, s.pile_len);
        for p in [0usize, 2] {
            assert_eq!(d.players[p].hand.len(), s.players[p].hand.len());
            assert_eq!(d.players[p].table.len(), s.players[p].table.len());
            differs |= d.players[p].hand != s.players[p].hand;
        }
        check_invariants(&g, &d, "determinized");
    }
    assert!(differs, "opponents' hands were never resampled");
    // Rendering for a viewer hides the other hands.
    let view = g.render(&s, Some(1));
    assert_eq!(view.matches("hand: ").count(), 3);
    assert_eq!(view.matches(" cards, face down").count(), 2);
}

#[test]
fn heuristic_tracks_victory_points() {
    let g = game("hamunaptra");
    let mut s = start(&g, &[ANN, BOB]);
    let h0 = g.heuristic(&s, 0);
    assert!(h0.abs() < 1e-9, "symmetric start: {h0}");
    // Ann loses two characters: Bob is ahead.
    for id in ["C01", "C02"] {
        let i = ch(&g, id) as usize;
        s.chars[i].alive = false;
        s.chars[i].cell = NO_CELL;
    }
    let (ha, hb) = (g.heuristic(&s, 0), g.heuristic(&s, 1));
    assert!(ha < 0.0 && hb > 0.0 && (-1.0..=1.0).contains(&ha));
    assert_eq!(g.score(&s, 1), 8.0);
}

#[test]
fn h09_counterfactual_mummy_with_intelligence() {
    let path = std::env::temp_dir().join("hamunaptra_mummy_i.toml");
    let text = data::DEFAULT_COMPONENTS.replacen(
        "kind = \"monster\"\nf = 3\nr = 2",
        "kind = \"monster\"\nf = 3\ni = 3\nr = 2",
        1,
    );
    assert_ne!(text, data::DEFAULT_COMPONENTS);
    std::fs::write(&path, text).unwrap();
    let g = game(&format!("hamunaptra(components={})", path.display()));
    let mut s = fight_setup(&g, &["C01"], "M1");
    play(&g, &mut s, Action::EndPlace);
    play(&g, &mut s, Action::Attack(0));
    play(&g, &mut s, Action::Roll(1));
    let bg = ch(&g, "C01");
    play(&g, &mut s, Action::Counter { stat: 1, ch: bg });
    assert_eq!(g.chance_outcomes(&s), vec![(Action::Roll(3), 1.0)]);
    play(&g, &mut s, Action::Roll(3));
    assert!(!s.chars[bg as usize].alive);
    let _ = std::fs::remove_file(&path);
}

#[test]
fn h21_edge_walk_ignores_the_cells_between() {
    let g = game("hamunaptra");
    let s = h21_scenario(&g).encounter("M2", -11, 1).build().unwrap();
    let guide = ch(&g, "C07");
    assert!(is_legal(
        &g,
        &s,
        Action::Step {
            ch: guide,
            to: c(-11, 0)
        }
    ));
}

#[test]
fn components_load_from_json() {
    let value: toml::Value = toml::from_str(data::DEFAULT_COMPONENTS).unwrap();
    let path = std::env::temp_dir().join("hamunaptra_components.json");
    std::fs::write(&path, serde_json::to_string(&value).unwrap()).unwrap();
    let g = game(&format!("hamunaptra(components={})", path.display()));
    assert_eq!(g.new_state().pile_len, 115);
    let _ = std::fs::remove_file(&path);
}

#[test]
fn h13_overtaking_group_choice() {
    let g = game("hamunaptra");
    let mut s = h13_state(&g, &["C05", "C08", "C13"]);
    play(
        &g,
        &mut s,
        Action::Overtake {
            from: c(0, 5),
            via: c(1, 5),
            to: c(2, 5),
        },
    );
    // The Adventurer may stay (the others still pass the test).
    assert_eq!(s.phase, Phase::OvertakeGroup);
    assert_eq!(s.ot_next, ch(&g, "C05"));
    play(&g, &mut s, Action::Join(false));
    // The Tomb Robber is then forced in (the Explorer alone fails: 1 > 1, 3 > 3);
    // the Explorer may stay out.
    assert_eq!(s.ot_next, ch(&g, "C13"));
    play(&g, &mut s, Action::Join(false));
    assert_eq!(s.phase, Phase::Move);
    let at = |id: &str| s.chars[ch(&g, id) as usize].cell;
    assert_eq!(
        (at("C05"), at("C08"), at("C13")),
        (c(0, 5), c(2, 5), c(0, 5))
    );
    assert_eq!(s.chars[ch(&g, "C08") as usize].mp, 2);
}

#[test]
fn metrics_match_an_independent_count_of_the_action_log() {
    use std::collections::BTreeMap;
    let mut saw: BTreeMap<&str, f64> = BTreeMap::new();
    for spec in [
        "hamunaptra(max_rounds=20)",
        "hamunaptra(players=3,rule1=true,max_rounds=15,max_combat_rounds=10)",
        "hamunaptra(players=4,rule1=true,rule2=true,max_rounds=12,max_combat_rounds=10)",
    ] {
        let g = game(spec);
        for seed in 0..10 {
            let mut rng = rng_from_seed(500 + seed);
            let mut s = g.initial_state(&mut rng);
            // Counted from the log, per seat.
            let mut count: BTreeMap<&str, [f64; 4]> = BTreeMap::new();
            while g.turn(&s) != Turn::Terminal {
                let a = match g.turn(&s) {
                    Turn::Chance => g.sample_chance(&s, &mut rng),
                    _ => {
                        let l = g.legal_actions(&s);
                        l[below(&mut rng, l.len())]
                    }
                };
                let before = s.clone();
                g.apply(&mut s, a);
                let mut add =
                    |k: &'static str, p: u8| count.entry(k).or_default()[p as usize] += 1.0;
                let seat = before.seat;
                match a {
                    Action::Rotate(_) => {
                        add("tiles_placed", seat);
                        if s.stairs.len() > before.stairs.len() {
                            add("stairs_placed", seat);
                            if s.cells[before.sel_cell as usize].exit {
                                add("exit_stairs_placed", seat);
                            }
                        }
                    }
                    Action::At(c) if s.cells[c as usize].enc != before.cells[c as usize].enc => {
                        add("encounters_placed", seat)
                    }
                    Action::PlayEquip(_) => add("equipment_played", seat),
                    Action::AssignMove { .. } => add("equipment_activated", seat),
                    Action::AssignCombat { ch, .. } => {
                        add("equipment_activated", before.chars[ch as usize].owner)
                    }
                    Action::Scroll { .. } => add("scrolls_used", seat),
                    Action::Agree => add("trades_accepted", seat),
                    Action::Accept(_) if before.offer.is_some() => add("trades_accepted", seat),
                    _ => {}
                }
                for (x, y) in before.chars.iter().zip(&s.chars) {
                    if x.alive && !y.alive {
                        add("characters_lost", x.owner);
                    }
                }
                // Fights begun: a new site fought, or an ambush by a moving monster.
                let new_site = s.fought.len() > before.fought.len();
                let ambush = matches!(before.phase, Phase::Monsters | Phase::MonsterStep2)
                    && s.phase == Phase::Fight;
                if new_site || ambush {
                    let c = s.combat.unwrap();
                    add("combats", c.fighter);
                    if c.opp != NONE {
                        add("combats", c.opp);
                    }
                }
                // Fights ended, and how.
                let ended = before.phase == Phase::Fight && (s.phase != Phase::Fight || new_site);
                if let (true, Some(c)) = (ended, before.combat) {
                    let left = |p: u8| {
                        s.chars
                            .iter()
                            .filter(|x| x.alive && x.owner == p && x.cell == c.cell)
                            .count()
                    };
                    if matches!(a, Action::Retreat(_)) {
                        add("retreats", c.fighter);
                    } else if c.foe != NONE && s.foes[c.foe as usize].cell == NO_CELL {
                        add("combats_won", c.fighter);
                        if g.comps.foe_is_monster[c.foe as usize] {
                            add("monsters_defeated", c.fighter);
                        } else {
                            add("traps_resolved", c.fighter);
                        }
                    } else if c.foe != NONE {
                        if left(c.fighter) == 0 {
                            add("combats_lost", c.fighter);
                        }
                    } else {
                        let (f, o) = (left(c.fighter), left(c.opp));
                        for (p, mine, theirs) in [(c.fighter, f, o), (c.opp, o, f)] {
                            if mine == 0 {
                                add("combats_lost", p);
                            } else if theirs == 0 {
                                add("combats_won", p);
                            }
                        }
                    }
                }
            }
            for p in 0..g.players {
                let ctx = format!("{spec} seed {seed} seat {p}");
                let m: BTreeMap<&str, f64> = g.metrics(&s, p).into_iter().collect();
                for k in [
                    "tiles_placed",
                    "stairs_placed",
                    "exit_stairs_placed",
                    "encounters_placed",
                    "combats",
                    "combats_won",
                    "combats_lost",
                    "retreats",
                    "monsters_defeated",
                    "traps_resolved",
                    "characters_lost",
                    "equipment_played",
                    "equipment_activated",
                    "scrolls_used",
                    "trades_accepted",
                ] {
                    let want = count.get(k).map_or(0.0, |c| c[p as usize]);
                    assert_eq!(m[k], want, "{ctx}: {k}");
                    *saw.entry(k).or_default() += want;
                }
                let v = g.vp(&s, p);
                assert_eq!(m["vp"], g.score(&s, p), "{ctx}");
                assert_eq!(m["exits_found"], f64::from(v.exits), "{ctx}");
                assert!(m["exits_found"] <= m["exit_stairs_placed"], "{ctx}");
                let alive = s.chars.iter().filter(|x| x.owner == p && x.alive).count() as f64;
                assert_eq!(m["escaped"] + m["survivors"], alive, "{ctx}");
            }
        }
    }
    for k in [
        "tiles_placed",
        "stairs_placed",
        "encounters_placed",
        "combats",
        "combats_won",
        "combats_lost",
        "monsters_defeated",
        "traps_resolved",
        "characters_lost",
        "equipment_played",
        "equipment_activated",
    ] {
        assert!(saw[k] > 0.0, "{k} never counted: {saw:?}");
    }
}

#[test]
fn invariants_catch_broken_states() {
    let g = game("hamunaptra");
    let s = g.initial_state(&mut rng_from_seed(1));
    assert_eq!(g.check_invariants(&s), Ok(()));
    let mut extra = s.clone();
    extra.pile[0] += 1;
    extra.pile_len += 1;
    assert!(
        g.check_invariants(&extra)
            .unwrap_err()
            .contains("not conserved")
    );
    let mut short = s.clone();
    short.pile_len += 1;
    assert!(
        g.check_invariants(&short)
            .unwrap_err()
            .contains("pile size")
    );
    let mut moved = s.clone();
    let (_, cell, _) = g.layout[0];
    moved.cells[cell as usize].rot ^= 1;
    assert!(g.check_invariants(&moved).is_err());
}

/// Spec §6.5: a game ended by `max_rounds` is scored normally and flagged
/// truncated; one ended by an exit's final round is not.
#[test]
fn round_cap_endings_are_flagged_truncated() {
    let (mut capped, mut natural) = (0, 0);
    for (spec, seeds) in [("hamunaptra(max_rounds=2)", 0..20), ("hamunaptra", 0..60)] {
        let g = game(spec);
        for seed in seeds {
            let mut rng = rng_from_seed(seed);
            let mut s = g.initial_state(&mut rng);
            crate::game::random_playout(&g, &mut s, &mut rng, g.max_game_length());
            assert_eq!(g.turn(&s), Turn::Terminal, "{spec} seed {seed}");
            assert_eq!(g.truncated(&s), !s.final_round, "{spec} seed {seed}");
            assert_eq!(g.truncated(&s), s.round >= g.max_rounds && !s.final_round);
            if g.truncated(&s) {
                capped += 1;
            } else {
                natural += 1;
            }
        }
    }
    assert!(
        capped >= 20 && natural > 0,
        "{capped} capped, {natural} natural"
    );
}

// ------------------------------------------------- scenario builder and fixes

#[test]
fn scenario_builder_checks_what_it_builds() {
    let g = game("hamunaptra");
    // A short hand is topped up by the turn start's draw, as in play.
    let s = Scenario::new(&g)
        .characters(0, ANN)
        .characters(1, BOB)
        .hand(0, &["C-STR"])
        .build()
        .unwrap();
    assert_eq!((s.phase, s.seat, s.round), (Phase::Draw, 0, 1));
    check_invariants(&g, &s, "built");
    // An exact deck: the rest is out of the game.
    let s = Scenario::new(&g)
        .characters(0, ANN)
        .characters(1, BOB)
        .deck(&["C-STR", "M1"])
        .build()
        .unwrap();
    assert_eq!(s.pile_len, 2);
    assert_eq!(s.pile.iter().map(|&n| u32::from(n)).sum::<u32>(), 2);
    // Broken positions are errors, not panics.
    let bad = |b: Scenario<'_>| b.build().unwrap_err();
    assert!(bad(Scenario::new(&g).tile("C-STR", -2, 5, 0, 0)).contains("not linked"));
    assert!(bad(Scenario::new(&g).tile("C-STR", 40, 0, 0, 0)).contains("off the board"));
    assert!(bad(Scenario::new(&g).hand(0, &["XYZ"])).contains("no card XYZ"));
    assert!(bad(Scenario::new(&g).turn(2)).contains("seat 2"));
    assert!(
        bad(Scenario::new(&g).hand(0, &["E01", "E01"])).contains("no copy of E01"),
        "one Bow in the game"
    );
    assert!(
        bad(Scenario::new(&g).hand(0, &["C-STR"; 5])).contains("more than 4 cards"),
        "hand limit"
    );
    assert!(
        bad(Scenario::new(&g).characters(0, ANN).at("C01", -3, 4)).contains("off the tiles"),
        "a character on an empty cell"
    );
    assert!(
        bad(Scenario::new(&g).characters(0, ANN).characters(1, &["C01"])).contains("given twice")
    );
    assert!(
        bad(Scenario::new(&g)
            .tile("C-CRS", -4, 0, 0, 0)
            .tile("C-STR", -3, 1, 0, 0)
            .tile("C-CRS", -4, 1, 0, 0))
        .contains("mismatch"),
        "the crossroads' E faces the corridor's closed W"
    );
}

/// Applies the same actions to two states and checks, after each, that
/// `observer` sees the same thing (info key and whose turn it is).
fn same_view(g: &Hamunaptra, a: &mut State, b: &mut State, observer: u8, actions: &[Action]) {
    assert_eq!(g.info_key(a, observer), g.info_key(b, observer), "at start");
    for (i, &act) in actions.iter().enumerate() {
        play(g, a, act);
        play(g, b, act);
        assert_eq!(g.turn(a), g.turn(b), "turn after action {i} {act:?}");
        assert!(
            g.info_key(a, observer) == g.info_key(b, observer),
            "seat {observer} tells the hidden cards apart after action {i} {act:?}: {:?} vs {:?}",
            a.phase,
            b.phase
        );
    }
}

/// Item: whether T5 is offered depends on the public hand size, not on
/// whether the hidden hand holds equipment.
#[test]
fn equipment_step_does_not_reveal_the_hand() {
    let g = game("hamunaptra");
    let with = |hand: &[&str]| {
        let mut s = Scenario::new(&g)
            .characters(0, ANN)
            .characters(1, BOB)
            .hand(0, hand)
            .build()
            .unwrap();
        play(&g, &mut s, Action::EndMove);
        s
    };
    let mut a = with(&["C-STR", "C-DEAD", "C-DEAD", "E03"]);
    let mut b = with(&["C-STR", "C-DEAD", "C-DEAD", "C-CRN"]);
    let steps = [
        Action::Select(k(&g, "C-STR")),
        Action::At(c(-3, 1)),
        Action::Rotate(0),
        Action::EndPlace,
    ];
    same_view(&g, &mut a, &mut b, 1, &steps);
    // Both wait at T5; only the hand with equipment can play it.
    assert_eq!((a.phase, b.phase), (Phase::Equip, Phase::Equip));
    assert_eq!(legal(&g, &b), vec![Action::SkipEquip]);
    same_view(&g, &mut a, &mut b, 1, &[Action::SkipEquip]);
}

/// Item: whether the equipment step of a fight is offered depends on the
/// public count of face-down items and free participants, not on whether
/// the hidden items clash.
#[test]
fn combat_assignment_step_does_not_reveal_the_table() {
    let g = game("hamunaptra");
    let with = |table: &[&str]| {
        Scenario::new(&g)
            .characters(0, ANN)
            .characters(1, BOB)
            .tile("C-STR", -3, 1, 0, 0)
            .tile("C-STR", -3, 2, 0, 0)
            .encounter("M1", -3, 2)
            .at("C01", -3, 1)
            .at("C02", -3, 1)
            .table(0, table)
            .hand(0, &["C-CRN", "C-DEAD", "C-DEAD", "C-DEAD"])
            .build()
            .unwrap()
    };
    // The Bullwhip (+1 F, +1 M) goes on the Boy for movement; the second
    // item is the Bow (+2 F, clashes: nothing assignable) or the Amulet.
    let mut a = with(&["E04", "E01"]);
    let mut b = with(&["E04", "E06"]);
    let (bg, boy) = (ch(&g, "C01"), ch(&g, "C02"));
    let steps = [
        Action::AssignMove {
            equip: eq(&g, "E04"),
            ch: boy,
        },
        Action::Step {
            ch: boy,
            to: c(-3, 2),
        },
        Action::Step {
            ch: bg,
            to: c(-3, 2),
        },
        Action::EndMove,
        Action::Select(k(&g, "C-CRN")),
        Action::At(c(-3, -1)),
        Action::Rotate(0),
        Action::EndPlace,
    ];
    same_view(&g, &mut a, &mut b, 1, &steps);
    assert_eq!(a.combat.unwrap().stage, Stage::Assign);
    assert_eq!(legal(&g, &a), vec![Action::DoneAssign]);
    same_view(&g, &mut a, &mut b, 1, &[Action::DoneAssign]);
}

/// Item: after a trade, each partner's determinizations keep the card it
/// gave in the other's hand (spec §5.4 item 4).
#[test]
fn traded_cards_stay_where_the_partners_saw_them_go() {
    let g = game("hamunaptra(rule5=true)");
    let s0 = Scenario::new(&g)
        .characters(0, ANN)
        .characters(1, BOB)
        .hand(0, &["E09", "C-STR", "C-CRN", "C-DEAD"])
        .hand(1, &["C-TEE", "E11", "C-STR", "C-CRS"])
        .build()
        .unwrap();
    assert_eq!(s0.phase, Phase::Trade);
    let (notebook, tee) = (k(&g, "E09"), k(&g, "C-TEE"));
    let mut s = s0.clone();
    play(
        &g,
        &mut s,
        Action::Propose {
            to: 1,
            card: notebook,
        },
    );
    play(&g, &mut s, Action::Accept(tee));
    let mut moved_in_untraded = 0;
    for seed in 0..200 {
        let d0 = g.determinize(&s, 0, &mut rng_from_seed(seed));
        assert!(
            d0.players[1].hand.contains(&notebook),
            "seed {seed}: Ann's view moved the Field Notebook out of Bob's hand"
        );
        let d1 = g.determinize(&s, 1, &mut rng_from_seed(seed));
        assert!(
            d1.players[0].hand.contains(&tee),
            "seed {seed}: Bob's view moved the T-junction out of Ann's hand"
        );
        check_invariants(&g, &d0, "determinized for Ann");
        check_invariants(&g, &d1, "determinized for Bob");
        // Without the trade the same view scatters a card Ann never saw.
        let u = g.determinize(&s0, 0, &mut rng_from_seed(seed));
        moved_in_untraded += usize::from(!u.players[1].hand.contains(&k(&g, "E11")));
    }
    assert!(moved_in_untraded > 100, "{moved_in_untraded}");
    // Ann lays the T-junction face up: Bob sees it leave her hand, and his
    // views stop forcing one into it.
    assert_eq!(s.phase, Phase::Move, "one partner, already asked");
    play(&g, &mut s, Action::EndMove);
    place(&g, &mut s, "C-TEE", -3, -1, 270);
    assert_eq!(s.known.of(1, 0)[tee as usize], 0);
    assert_eq!(s.known.of(0, 1)[notebook as usize], 1);
    let mut without = 0;
    for seed in 0..50 {
        let d1 = g.determinize(&s, 1, &mut rng_from_seed(seed));
        without += usize::from(!d1.players[0].hand.contains(&tee));
        check_invariants(&g, &d1, "after the T-junction left");
    }
    assert!(without > 0);
    // Bob plays the Notebook face down at his T5: Ann no longer knows where
    // it is (his hand or his table).
    play(&g, &mut s, Action::EndPlace);
    play(&g, &mut s, Action::SkipEquip);
    assert_eq!((s.seat, s.phase), (1, Phase::Trade), "Bob's hand is full");
    play(&g, &mut s, Action::EndTrade);
    play(&g, &mut s, Action::EndMove);
    place(&g, &mut s, "C-STR", 3, 1, 0);
    play(&g, &mut s, Action::EndPlace);
    assert_eq!(s.known.of(0, 1)[notebook as usize], 1);
    play(&g, &mut s, Action::PlayEquip(eq(&g, "E09")));
    let t = s;
    assert_eq!(t.known.of(0, 1)[notebook as usize], 0);
}

/// Item: spec §4.6 item 5 counts a placer's character on any tile the new
/// tile links to, even on a rival's network the placement joins.
#[test]
fn placement_joining_a_rival_network_counts_a_character_on_its_side() {
    let g = game("hamunaptra");
    // Ann's Explorer stands on Bob's tile (1,1); nobody of Ann's on (−1,1).
    let mut s = h8_scenario(&g)
        .at("C13", 1, 1)
        .hand(0, &["C-STR", "E03", "E12", "E08"])
        .build()
        .unwrap();
    play(&g, &mut s, Action::EndMove);
    assert!(can_place(&g, &s, "C-STR", 0, 1, 90));
    place(&g, &mut s, "C-STR", 0, 1, 90);
    assert_eq!(s.foreign, 0, "an own placement");
    assert!(g.net(&s, 0).has(c(3, 0)));
    // With the Explorer at home, nobody of Ann's stands on a linked tile.
    let mut t = h8_scenario(&g)
        .hand(0, &["C-STR", "E03", "E12", "E08"])
        .build()
        .unwrap();
    play(&g, &mut t, Action::EndMove);
    assert!(!can_place(&g, &t, "C-STR", 0, 1, 90));
}

/// Item: with `distance_metric=path` a stair with no tunnel path to its
/// placer's entrance is not an exit.
#[test]
fn path_metric_stair_without_a_path_is_no_exit() {
    let g = game("hamunaptra(distance_metric=path,rule4=true,exit_distance=2)");
    let base = Scenario::new(&g)
        .characters(0, ANN)
        .characters(1, BOB)
        .tile("C-CRS", -4, 0, 0, 0);
    // Bob's foreign stair in Ann's network: no path to Bob's entrance.
    let mut s = base
        .clone()
        .hand(1, &["ST-DEAD", "E03", "E12", "E08"])
        .turn(1)
        .build()
        .unwrap();
    play(&g, &mut s, Action::EndMove);
    place(&g, &mut s, "ST-DEAD", -5, 0, 90);
    let cell = s.cells[c(-5, 0) as usize];
    assert_eq!((cell.placer, cell.exit), (2, false));
    // Ann's stair on the same cell is two steps along her tunnels: an exit.
    let mut s = base
        .at("C01", -4, 0)
        .hand(0, &["ST-DEAD", "E03", "E12", "E08"])
        .build()
        .unwrap();
    play(&g, &mut s, Action::EndMove);
    place(&g, &mut s, "ST-DEAD", -5, 0, 90);
    let cell = s.cells[c(-5, 0) as usize];
    assert_eq!((cell.placer, cell.exit), (1, true));
}

/// A seat's rendering comes from its own view: another seat's VP counts
/// equipment hidden in its hand, so it is shown as the visible part plus
/// what the unseen cards may add, and face-down items stay unnamed.
#[test]
fn render_for_a_seat_hides_other_vp_and_equipment() {
    let g = game("hamunaptra");
    let build = |hand: &[&str], table: &[&str]| {
        Scenario::new(&g)
            .characters(0, ANN)
            .characters(1, BOB)
            .hand(0, &["C-STR", "C-CRS", "C-CRN", "C-DEAD"])
            .hand(1, hand)
            .table(1, table)
            .build()
            .unwrap()
    };
    // Bob holds two equipment cards, or none; his face-down item differs.
    let a = build(&["E11", "E12", "C-STR", "C-CRS"], &["E09"]);
    let b = build(&["C-TEE", "C-STR", "C-CRS", "C-CRN"], &["E03"]);
    assert_eq!(
        g.info_key(&a, 0),
        g.info_key(&b, 0),
        "Ann cannot tell them apart"
    );
    assert_ne!(g.vp(&a, 1).total, g.vp(&b, 1).total);
    let (ra, rb) = (g.render(&a, Some(0)), g.render(&b, Some(0)));
    assert_eq!(ra, rb);
    assert!(ra.contains("+ up to 4 in unseen cards"), "{ra}");
    for name in ["E11", "E09", "E03"] {
        let n = &g.comps.equipment[eq(&g, name) as usize].name;
        assert!(!ra.contains(n.as_str()), "{n} shown to Ann:\n{ra}");
    }
    // Bob sees his own cards, and the full rendering shows everything.
    assert_ne!(g.render(&a, Some(1)), g.render(&b, Some(1)));
    assert_ne!(g.render(&a, None), g.render(&b, None));
}

/// Whether a trade happened is public (spec §5.1): a third seat learns that
/// the partner accepted or rejected, not which cards moved.
#[test]
fn trade_answers_are_public_but_not_their_cards() {
    let g = game("hamunaptra(players=3,rule5=true)");
    let s0 = Scenario::new(&g)
        .characters(0, ANN)
        .characters(1, BOB)
        .characters(2, &["C03", "C04", "C05", "C06"])
        .hand(0, &["E09", "C-STR", "C-CRN", "C-DEAD"])
        .hand(1, &["C-TEE", "E11", "C-STR", "C-CRS"])
        .hand(2, &["C-STR", "C-CRS", "C-CRN", "C-DEAD"])
        .build()
        .unwrap();
    assert_eq!(s0.phase, Phase::Trade);
    let mut s = s0.clone();
    play(
        &g,
        &mut s,
        Action::Propose {
            to: 1,
            card: k(&g, "E09"),
        },
    );
    let (tee, notebook) = (Action::Accept(k(&g, "C-TEE")), Action::Accept(k(&g, "E11")));
    let after = |a: Action| {
        let mut t = s.clone();
        play(&g, &mut t, a);
        t
    };
    // The third seat: accepting shows, the card given back does not.
    assert_eq!(g.action_label_for(&s, tee, 2), "accept the trade");
    assert_eq!(
        g.action_label_for(&s, Action::Reject, 2),
        "reject the trade"
    );
    assert_eq!(g.info_key(&after(tee), 2), g.info_key(&after(notebook), 2));
    assert_ne!(
        g.info_key(&after(tee), 2),
        g.info_key(&after(Action::Reject), 2)
    );
    assert_eq!(after(tee).tally.trades, [1, 0, 0, 0]);
    assert_eq!(after(Action::Reject).tally.trades, [0; 4]);
    // The partners see the card.
    assert_ne!(
        g.action_label_for(&s, tee, 0),
        g.action_label_for(&s, notebook, 0)
    );
}

#[test]
fn exit_reach_counts_steps_to_an_exit() {
    let g = game("hamunaptra");
    let at = |y: i32| h18_scenario(&g).at("C13", -3, y).build().unwrap();
    // Ann's exit is (−3,8): her Explorer one step, on it, or left behind at
    // the start with the others (seven steps).
    assert!((g.exit_reach(&at(7), 0) - 0.5).abs() < 1e-12);
    assert!((g.exit_reach(&at(8), 0) - 1.0).abs() < 1e-12);
    assert!((g.exit_reach(&at(1), 0) - 1.0 / 8.0).abs() < 1e-12);
}

/// Spec scenario H18's board after Bob has lost three characters, so that
/// Ann leads, with her Explorer at (−3, `y`), her exit at (−3,8).
fn ann_leads(g: &Hamunaptra, y: i32) -> State {
    h18_scenario(g)
        .at("C13", -3, y)
        .dead("C16")
        .dead("C14")
        .dead("C12")
        .build()
        .unwrap()
}

#[test]
fn exit_features_reward_the_leader_near_an_exit() {
    let g = game("hamunaptra");
    let mut f = [0.0; 7];
    let mut feats = |s: &State, p: u8| {
        g.features_into(s, p, &mut f);
        f
    };
    // Ann leads, her Explorer one step from her exit.
    let lead = |y: i32| ann_leads(&g, y);
    let s = lead(7);
    assert!(g.vp(&s, 0).total > g.vp(&s, 1).total);
    let (a, b) = (feats(&s, 0), feats(&s, 1));
    assert!(
        a[1] > 0.0 && (a[1] + b[1]).abs() < 1e-12,
        "vp_lead {a:?} {b:?}"
    );
    assert!((a[3] - 0.5).abs() < 1e-12, "exit_ahead {a:?}");
    assert!(
        (b[3] + 0.5).abs() < 1e-12,
        "the trailing side sees the threat: {b:?}"
    );
    assert_eq!((a[4], b[4]), (0.0, 0.0), "not the last round");
    // Closer to the exit is worth more to the leader.
    assert!(feats(&lead(8), 0)[3] > feats(&lead(4), 0)[3]);
    // In the last round, the lead's sign.
    let mut last = lead(7);
    last.final_round = true;
    assert_eq!((feats(&last, 0)[4], feats(&last, 1)[4]), (1.0, -1.0));
    // The late lead grows with the round: round 20 of the 60-round cap.
    assert!((a[2] - a[1] * 20.0 / 60.0).abs() < 1e-12, "{a:?}");
}

/// The race (spec §9 item 4): Ann's exit is (−3,8) and Bob's (3,−8).
#[test]
fn race_sees_who_can_end_the_game_in_the_lead() {
    let g = game("hamunaptra");
    // Ann leads (Bob has lost three characters) and moves now: her
    // Explorer (M3) one step from her exit can end the game; seven steps
    // away it cannot.
    let ann_leads = |y: i32| ann_leads(&g, y);
    let s = ann_leads(7);
    assert_eq!(g.escapes(&s, 0, true, false), 1);
    assert_eq!((g.race(&s, 0), g.race(&s, 1)), (1.0, -1.0));
    // She wins it by her lead plus the escape's 1 point (3 for escaping,
    // 2 fewer for surviving), seen from both sides.
    let lead = f64::from(g.vp(&s, 0).total + 1) - f64::from(g.vp(&s, 1).total);
    assert!(lead > 0.0);
    let margin = (lead / 10.0).min(1.0);
    assert_eq!(g.race_and_margin(&s, 0), (1.0, margin));
    assert_eq!(g.race_and_margin(&s, 1), (-1.0, -margin));
    assert_eq!(g.race_and_margin(&ann_leads(1), 0), (0.0, 0.0), "no race");
    assert_eq!(
        (g.race(&ann_leads(1), 0), g.race(&ann_leads(1), 1)),
        (0.0, 0.0)
    );
    // Bob leads (Ann has one character left) with his Mercenary (M3) three
    // steps from his exit: while Ann moves, her own walk decides (she
    // cannot reach hers); once she has ended her move, Bob moves next and
    // wins by ending the game.
    let bob_leads = |y: i32| {
        let mut s = h18_scenario(&g)
            .at("C13", -3, 1)
            .dead("C02")
            .dead("C15")
            .at("C14", 3, y)
            .hand(0, &["C-STR", "C-CRS", "C-CRN", "C-DEAD"])
            .build()
            .unwrap();
        skip_trade(&g, &mut s);
        s
    };
    let mut s = bob_leads(-5);
    assert!(g.vp(&s, 1).total > g.vp(&s, 0).total);
    assert_eq!(g.race(&s, 0), 0.0);
    play(&g, &mut s, Action::EndMove);
    assert_eq!(s.seat, 0, "Ann places next");
    assert_eq!((g.race(&s, 0), g.race(&s, 1)), (-1.0, 1.0));
    assert_eq!(g.escapes(&s, 1, false, false), 1);
    // Four steps away, he cannot.
    let mut s = bob_leads(-4);
    play(&g, &mut s, Action::EndMove);
    assert_eq!(g.race(&s, 0), 0.0);
}

/// In the last round the seats still to move escape all they can: the
/// end of spec scenario H18, seen before Bob moves.
#[test]
fn race_in_the_last_round_counts_the_replies() {
    for spec in [
        "hamunaptra(rule5=true)",
        "hamunaptra(rule5=true,escaped_also_survivor=true)",
    ] {
        let g = game(spec);
        let bob_turn = |mercenary: i32| {
            let mut s = h18_scenario(&g)
                .at("C13", -3, 8)
                .at("C16", -3, 7)
                .at("C14", 3, mercenary)
                .hand(0, &["E12"])
                .table(0, &["E05"])
                .deck(&[])
                .turn(1)
                .final_round()
                .build()
                .unwrap();
            skip_trade(&g, &mut s);
            s
        };
        // Both of Bob's characters reach an exit (the Porter shares Ann's):
        // Bob ranks first, as the scenario's play shows.
        let s = bob_turn(-7);
        assert_eq!(g.escapes(&s, 1, true, true), 2, "{spec}");
        assert_eq!(
            g.escapes(&s, 1, true, false),
            1,
            "{spec}: no sharing before the last round"
        );
        assert_eq!((g.race(&s, 0), g.race(&s, 1)), (-1.0, 1.0), "{spec}");
        // By his points after both escapes over Ann's: none, as the
        // scenario ends level on points and Bob ranks first on escapes.
        let per = if spec.contains("also") { 3 } else { 1 };
        let won_by = f64::from(g.vp(&s, 1).total + 2 * per) - f64::from(g.vp(&s, 0).total);
        let (_, margin) = g.race_and_margin(&s, 1);
        assert!(
            won_by >= 0.0 && (margin - (won_by / 10.0).min(1.0)).abs() < 1e-12,
            "{spec}: {margin} {won_by}"
        );
        // The Mercenary four steps away: only the Porter escapes.
        let s = bob_turn(-4);
        assert_eq!(g.escapes(&s, 1, true, true), 1, "{spec}");
        let (a, b) = (g.vp(&s, 0).total, g.vp(&s, 1).total);
        let expect = if a > b + per {
            1.0
        } else if a < b + per {
            -1.0
        } else {
            0.0
        };
        assert_ne!(expect, 0.0, "{spec}: {a} against {b} + {per}");
        assert_eq!(g.race(&s, 0), expect, "{spec}");
        let (_, margin) = g.race_and_margin(&s, 0);
        let want = ((f64::from(a) - f64::from(b + per)) / 10.0).clamp(-1.0, 1.0);
        assert!((margin - want).abs() < 1e-12, "{spec}: {margin} {want}");
    }
}

/// `eval=race` is the heuristic moved by the race: as far as a race
/// feature of ±1 at weight 2 moves `tanh`'s argument.
#[test]
fn the_race_evaluation_is_the_heuristic_plus_the_race() {
    use crate::eval::Eval;
    use crate::spec::Params;
    let g = game("hamunaptra");
    let mut p = Params::from_pairs([("eval".to_string(), "race".to_string())]);
    let eval = Eval::from_params::<Hamunaptra>(&mut p, true).unwrap();
    let s = ann_leads(&g, 7);
    for (seat, race) in [(0, 1.0), (1, -1.0)] {
        assert_eq!(g.race(&s, seat), race);
        let h = g.heuristic(&s, seat);
        let want = (h.atanh() + race).tanh().clamp(-0.99, 0.99);
        assert!((eval.value(&g, &s, seat) - want).abs() < 1e-9, "{seat}");
    }
    let mut p = Params::from_pairs([("eval".to_string(), "rush".to_string())]);
    let e = Eval::from_params::<Hamunaptra>(&mut p, true)
        .unwrap_err()
        .to_string();
    assert!(e.contains("eval=rush") && e.contains("race"), "{e}");
}

#[test]
fn lead_feature_at_weight_two_is_the_heuristic() {
    use crate::eval::LinearEval;
    let g = game("hamunaptra");
    let w = LinearEval {
        fitted_on: String::new(),
        features: features::FEATURES.iter().map(|s| s.to_string()).collect(),
        weights: vec![2.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
        quality: None,
    };
    let mut rng = rng_from_seed(11);
    let mut s = g.initial_state(&mut rng);
    let mut checked = 0;
    for _ in 0..400 {
        match g.turn(&s) {
            Turn::Terminal => break,
            Turn::Chance => {
                let a = g.sample_chance(&s, &mut rng);
                g.apply(&mut s, a);
            }
            Turn::Player(_) => {
                for p in 0..2 {
                    let (lin, h) = (w.value(&g, &s, p), g.heuristic(&s, p));
                    assert!((lin - h).abs() < 1e-9 || lin.abs() >= 0.99, "{lin} {h}");
                }
                checked += 1;
                let legal = g.legal_actions(&s);
                g.apply(&mut s, legal[below(&mut rng, legal.len())]);
            }
        }
    }
    assert!(checked > 50, "{checked}");
}

/// The layout probe of a user's components file accepts the embedded
/// tables, given as a file, for every player count and layout (so a playable
/// layout is never refused), and refuses entrances with no open side.
#[test]
fn the_layout_probe_refuses_only_layouts_where_no_game_ends() {
    let dir = std::env::temp_dir().join(format!("boardlab-probe-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let text = include_str!("components.toml");
    let good = dir.join("good.toml");
    std::fs::write(&good, text).unwrap();
    let closed = dir.join("closed.toml");
    std::fs::write(&closed, text.replacen("id = \"ENTR\"\nshape = \"entrance, rockfall with cross on the closed side\"\nopen = \"ESW\"", "id = \"ENTR\"\nopen = \"\"", 1)).unwrap();
    for players in 2..=4 {
        for rule5 in [false, true] {
            for rule3 in [false, true] {
                let spec = |p: &std::path::Path| {
                    format!(
                        "hamunaptra(players={players},rule5={rule5},rule3={rule3},components={})",
                        p.display()
                    )
                };
                if let Err(e) = Hamunaptra::from_spec_text(&spec(&good)) {
                    panic!("{}: {e}", spec(&good));
                }
                let err = Hamunaptra::from_spec_text(&spec(&closed))
                    .unwrap_err()
                    .to_string();
                assert!(err.contains("no game can end"), "{err}");
                assert!(!err.contains('\n'), "{err}");
            }
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

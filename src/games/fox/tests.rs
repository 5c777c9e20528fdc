//! Scenario tests F1–F24 of spec §8 (boards written in the spec's notation),
//! parameter handling, and a soak test over random games.

use std::collections::BTreeSet;

use super::board::{adjacent, parse_dir, parse_square, square_name};
use super::state::GUARDIANS;
use super::*;
use crate::game::conformance;
use crate::rng::rng_from_seed;

fn fox() -> Fox {
    Fox::with("").unwrap()
}

fn sq(name: &str) -> u8 {
    parse_square(name).unwrap_or_else(|| panic!("bad square {name}"))
}

fn mask_of(arrows: &str) -> u8 {
    arrows.split('+').fold(0, |m, a| {
        m | 1 << parse_dir(a).unwrap_or_else(|| panic!("bad arrow {a}"))
    })
}

/// The position of a grid in the notation of spec §8 (see `Fox::scenario`).
fn board(g: &Fox, grid: &str, to_move: Character) -> State {
    g.scenario(grid, to_move)
        .unwrap_or_else(|e| panic!("bad scenario: {e}"))
}

/// The distinct final squares of the mover's movement, as sorted names.
fn finals(g: &Fox, s: &State) -> BTreeSet<String> {
    g.legal_actions(s)
        .iter()
        .map(|a| match a {
            Action::Move(q) => square_name(*q),
            other => panic!("not a movement: {other:?}"),
        })
        .collect()
}

fn names(list: &[&str]) -> BTreeSet<String> {
    list.iter().map(|s| s.to_string()).collect()
}

/// A physical tile of the given type (arrows at rotation 0) still face-down.
fn hidden_tile(g: &Fox, s: &State, arrows: &str) -> Action {
    let m = mask_of(arrows);
    let ids = s.hidden_ids();
    let id = (0..TILES as u8)
        .find(|&i| ids & (1 << i) != 0 && g.tile_set().masks[i as usize] == m)
        .unwrap_or_else(|| panic!("no face-down {arrows}"));
    Action::Tile(id)
}

/// Resolves the pending flip as a tile of the given type.
fn flip_as(g: &Fox, s: &mut State, arrows: &str) {
    assert_eq!(g.turn(s), Turn::Chance, "no flip pending");
    let tile = hidden_tile(g, s, arrows);
    g.apply(s, tile);
}

fn up_arrows(g: &Fox, s: &State, name: &str) -> u8 {
    g.movement().arrows(s.cells[sq(name) as usize])
}

// ---------------------------------------------------------------- generic

#[test]
fn conformance_all_variants() {
    for spec in [
        "",
        "players=3",
        "players=3,alone=guardians",
        "players=4",
        "start_used=true,stay_ability=false,start_ability=false,rotate_ccw=false,guard=orthogonal",
    ] {
        conformance::check(
            &Fox::with(spec).unwrap(),
            conformance::Config {
                playouts: 80,
                ..conformance::Config::default()
            },
        );
    }
}

// ---------------------------------------------------------------- F1–F24

#[test]
fn f1_initial_position_first_moves_and_order() {
    let g = fox();
    let mut s = g.initial_state(&mut rng_from_seed(5));
    assert_eq!(s.face_down(), 22);
    assert_eq!(s.pos, [sq("a1"), sq("d4"), sq("e5"), sq("d4")]);
    assert!(adjacent(s.pos[ZEV as usize], s.pos[SCARLETT as usize]));
    assert_eq!(g.turn(&s), Turn::Player(g.controller(INDIGO)));
    let mv = g.movement();
    let reach = |s: &State, c| {
        (0..25u8)
            .filter(|q| mv.reach(s, c) & (1 << q) != 0)
            .map(square_name)
            .collect::<BTreeSet<_>>()
    };
    assert_eq!(reach(&s, INDIGO), names(&["a2", "b2", "b1"]));
    assert_eq!(reach(&s, PUFFER), names(&["d5", "e4", "d3", "c4"]));
    assert_eq!(reach(&s, SCARLETT), names(&["d5", "e4"]));
    assert_eq!(reach(&s, ZEV), names(&["d5", "e4", "d3", "c4"]));
    // No movement can be passed, and the order is I, P, S, Z, I.
    let mut order = Vec::new();
    let mut rng = rng_from_seed(9);
    while order.len() < 5 {
        match g.turn(&s) {
            Turn::Chance => {
                let a = g.sample_chance(&s, &mut rng);
                g.apply(&mut s, a);
            }
            Turn::Player(_) => {
                let legal = g.legal_actions(&s);
                if s.phase == Phase::Move {
                    assert!(!legal.contains(&Action::Pass));
                    assert!(legal.iter().all(|a| matches!(a, Action::Move(_))));
                    order.push(s.to_move);
                }
                // Pass abilities so the game moves on.
                let a = if legal.contains(&Action::Pass) {
                    Action::Pass
                } else {
                    legal[0]
                };
                g.apply(&mut s, a);
            }
            Turn::Terminal => panic!("game over too early"),
        }
    }
    assert_eq!(order, vec![INDIGO, PUFFER, SCARLETT, ZEV, INDIGO]);
}

const F2: &str = "
  5   ##      ##      ##      ##        *S@Sc
  4   ##      ##      ##      *G@PuZe   ##
  3   ##      ##      ##      ##        ##
  2   ##      #N+E    ##      ##        ##
  1   *I@In   ##      ##      ##        ##
";

#[test]
fn f2_reveal_by_entering_ends_movement() {
    let g = fox();
    let mut s = board(&g, F2, INDIGO);
    assert!(g.legal_actions(&s).contains(&Action::Move(sq("b2"))));
    g.apply(&mut s, Action::Move(sq("b2")));
    assert_eq!(g.turn(&s), Turn::Chance);
    let outcomes = g.chance_outcomes(&s);
    assert_eq!(outcomes.len(), 22);
    let ne = mask_of("N+E");
    let p: f64 = outcomes
        .iter()
        .filter(|(a, _)| matches!(a, Action::Tile(i) if g.tile_set().masks[*i as usize] == ne))
        .map(|o| o.1)
        .sum();
    assert!((p - 1.0 / 22.0).abs() < 1e-12);
    flip_as(&g, &mut s, "N+E");
    // Indigo stays on b2 (no chaining), has no ability, Puffer moves next.
    assert_eq!(s.pos[INDIGO as usize], sq("b2"));
    assert_eq!(up_arrows(&g, &s, "b2"), ne);
    assert!(matches!(s.cells[sq("b2") as usize], Cell::Up(_, 0)));
    assert_eq!((s.to_move, s.phase), (PUFFER, Phase::Move));
    assert_eq!(s.turn_count, 1);
    assert_eq!(s.face_down(), 21);
}

const F3: &str = "
  5   ##      ##      ##      ##      *S
  4   ##      ##      #N+E    *G@Pu   ##
  3   ##      ##      N       W       S@Sc
  2   ##      ##      ##      ##      ##
  1   *I@In   ##      ##      E@Ze    ##
";

#[test]
fn f3_chain_ends_on_tile_a() {
    let g = fox();
    let mut s = board(&g, F3, SCARLETT);
    assert_eq!(finals(&g, &s), names(&["e4", "e2", "c4"]));
    g.apply(&mut s, Action::Move(sq("c4")));
    assert_eq!(
        s.phase,
        Phase::Reveal {
            square: sq("c4"),
            by_ability: false
        }
    );
    flip_as(&g, &mut s, "N+E");
    assert_eq!(s.pos[SCARLETT as usize], sq("c4"));
    assert_eq!(up_arrows(&g, &s, "c4"), mask_of("N+E"));
    // Her swap follows: c3 and d3 are her free face-up neighbours.
    assert_eq!(s.phase, Phase::Ability);
    assert_eq!(
        &*g.legal_actions(&s),
        &[Action::Pass, Action::Swap(sq("c3"), sq("d3"))]
    );
}

#[test]
fn f3_used_tiles_stop_a_second_pass() {
    // The chain d3 (W) -> c3 (N) marks both as used: with c3's N tile
    // turned to point east the chain returns to d3, where it must stop.
    let g = fox();
    let s = board(&g, &F3.replace("N       W", "E~1     W"), SCARLETT);
    assert!(matches!(s.cells[sq("c3") as usize], Cell::Up(_, 1)));
    assert!(finals(&g, &s).contains("d3"));
}

const F4: &str = "
  5   ##      ##      ##        ##      *S@Sc
  4   ##      ##      E+W@Pu    *G      S@Ze
  3   ##      ##      N+E       ##      ##
  2   ##      ##      W@In      ##      ##
  1   *I      ##      ##        ##      ##
";

#[test]
fn f4_deliberate_stop_against_a_pawn() {
    let g = fox();
    let mut s = board(&g, F4, INDIGO);
    assert_eq!(
        finals(&g, &s),
        names(&["b1", "b2", "b3", "c1", "c3", "d1", "d2", "d3"])
    );
    let down = s.face_down();
    g.apply(&mut s, Action::Move(sq("c3")));
    assert_eq!(s.pos[INDIGO as usize], sq("c3"));
    assert_eq!(s.face_down(), down);
    assert_eq!((s.to_move, s.phase), (PUFFER, Phase::Move));
}

const F5: &str = "
  5   ##      ##      ##      S@Ze    *S@Sc
  4   ##      E@Pu    ##      *G      W
  3   ##      ##      ##      E@In    N+E
  2   ##      ##      ##      ##      ##
  1   *I      ##      ##      ##      ##
";

#[test]
fn f5_stop_at_board_edge_and_chain_to_start_tile() {
    let g = fox();
    let mut s = board(&g, F5, INDIGO);
    assert_eq!(
        finals(&g, &s),
        names(&["c2", "c3", "c4", "d2", "d4", "e2", "e3"])
    );
    let mut edge = s.clone();
    g.apply(&mut edge, Action::Move(sq("e3")));
    assert_eq!(edge.pos[INDIGO as usize], sq("e3"));
    assert_eq!(edge.face_down(), s.face_down());
    g.apply(&mut s, Action::Move(sq("d4")));
    assert_eq!(s.pos[INDIGO as usize], sq("d4"));
    assert_eq!(s.to_move, PUFFER);
}

const F6: &str = "
  5   ##      ##      ##      ##        *S
  4   ##      ##      ##      *G@PuZe   ##
  3   ##      S       W       ##        N+S@In
  2   ##      E       N       ##        ##
  1   *I      E+W@Sc  ##      ##        ##
";

/// F6 with Zev on b1 at the start of his turn (Scarlett back on her start tile).
const F6_ZEV: &str = "
  5   ##      ##      ##      ##        *S@Sc
  4   ##      ##      ##      *G@Pu     ##
  3   ##      S       W       ##        N+S@In
  2   ##      E       N       ##        ##
  1   *I      E+W@Ze  ##      ##        ##
";

#[test]
fn f6_once_per_turn_loop() {
    let g = fox();
    let mut s = board(&g, F6, SCARLETT);
    assert_eq!(finals(&g, &s), names(&["b2", "c1", "a1"]));
    let down = s.face_down();
    g.apply(&mut s, Action::Move(sq("b2")));
    assert_eq!(s.pos[SCARLETT as usize], sq("b2"));
    assert_eq!(s.face_down(), down);
    if s.phase == Phase::Ability {
        g.apply(&mut s, Action::Pass);
    }
    assert_eq!((s.to_move, s.phase), (ZEV, Phase::Move));
    // The loop tiles work again for Zev: from b1 he runs the same loop.
    let s = board(&g, F6_ZEV, ZEV);
    assert!(finals(&g, &s).contains("b2"));
    // Without the once-per-turn rule b2 would send him on to c2 forever; the
    // stop is on b2 and nowhere inside the loop.
    for q in ["c2", "c3", "b3"] {
        assert!(!finals(&g, &s).contains(q), "{q}");
    }
}

const F7: &str = "
  5   ##      ##      ##      ##      *S@Sc
  4   ##      ##      ##      *G      S@Ze
  3   ##      ##      ##      ##      ##
  2   ##      E       E@Pu    ##      ##
  1   *I@In   ##      ##      ##      ##
";

#[test]
fn f7_starting_square_is_not_used() {
    let g = fox();
    let s = board(&g, F7, PUFFER);
    assert_eq!(finals(&g, &s), names(&["c3", "d2", "c1"]));
    // The rejected reading (start_used) stops him back on c2.
    let alt = Fox::with("start_used=true").unwrap();
    let s = board(&alt, F7, PUFFER);
    assert_eq!(finals(&alt, &s), names(&["c3", "d2", "c1", "c2"]));
}

const F8: &str = "
  5   ##      ##      ##      ##      *S@Sc
  4   ##      ##      ##      *G@Pu   ##
  3   ##      ##      ##      ##      ##
  2   ##      S       N@Ze    ##      ##
  1   *I      W       ##      ##      E@In
";

#[test]
fn f8_chain_ends_on_empty_start_tile() {
    let g = fox();
    let mut s = board(&g, F8, ZEV);
    assert_eq!(finals(&g, &s), names(&["c3", "d2", "c1", "a1"]));
    g.apply(&mut s, Action::Move(sq("a1")));
    assert_eq!(s.pos[ZEV as usize], sq("a1"));
    // The ability still follows a start tile (A13): a2 is face-down next to him.
    assert_eq!(s.phase, Phase::Ability);
    assert!(g.legal_actions(&s).contains(&Action::Reveal(sq("a2"))));
    let alt = Fox::with("start_ability=false").unwrap();
    let mut s = board(&alt, F8, ZEV);
    alt.apply(&mut s, Action::Move(sq("a1")));
    assert_eq!((s.to_move, s.phase), (INDIGO, Phase::Move));
}

const F9: &str = "
  5   ##      ##      ##      ##      *S
  4   ##      ##      ##      *G      ##
  3   ##      ##      ##      ##      ##
  2   ##      E@Sc    N@Pu    ##      ##
  1   *I      W@In    S@Ze    ##      ##
";

#[test]
fn f9_occupancy_rules() {
    let g = fox();
    let s = board(&g, F9, INDIGO);
    assert_eq!(finals(&g, &s), names(&["a1", "a2"]));
    let mut s = board(&g, F9, PUFFER);
    assert_eq!(finals(&g, &s), names(&["c1", "c3", "d2"]));
    g.apply(&mut s, Action::Move(sq("c1")));
    assert_eq!(s.pos[PUFFER as usize], s.pos[ZEV as usize]);
    let s = board(&g, F9, SCARLETT);
    assert_eq!(finals(&g, &s), names(&["b3", "a2"]));
    let mut s = board(&g, F9, ZEV);
    assert_eq!(finals(&g, &s), names(&["b1", "c3", "d1"]));
    g.apply(&mut s, Action::Move(sq("b1")));
    assert_eq!(s.phase, Phase::Over(Ending::Capture));
    assert_eq!(&*g.returns(&s), &[-1.0, 1.0]);
}

const F10: &str = "
  5   ##      E@Ze    ##      ##      *S
  4   ##      ##      ##      N@Sc    S@Pu
  3   ##      ##      W@In    ##      ##
  2   ##      ##      ##      ##      ##
  1   *I      ##      ##      *G      ##
";

#[test]
fn f10_foxes_win_with_a_diagonal_step() {
    let g = fox();
    let mut s = board(&g, F10, INDIGO);
    assert_eq!(
        finals(&g, &s),
        names(&["d4", "c4", "d3", "d2", "c2", "b2", "b3", "b4"])
    );
    g.apply(&mut s, Action::Move(sq("d4")));
    assert_eq!(s.phase, Phase::Over(Ending::Rescue));
    assert_eq!(g.turn(&s), Turn::Terminal);
    assert_eq!(&*g.returns(&s), &[1.0, -1.0]);
}

const F11: &str = "
  5   ##      ##      ##      ##      *S
  4   ##      ##      ##      N@Sc    S@Pu
  3   ##      ##      W@In    ##      E@Ze
  2   ##      ##      ##      ##      ##
  1   *I      ##      ##      *G      ##
";

#[test]
fn f11_rescue_forbidden_while_zev_adjacent() {
    let g = fox();
    let s = board(&g, F11, INDIGO);
    assert_eq!(
        finals(&g, &s),
        names(&["c4", "d3", "d2", "c2", "b2", "b3", "b4"])
    );
    // Under the rejected orthogonal reading (A15) the diagonal Zev does not guard.
    let alt = Fox::with("guard=orthogonal").unwrap();
    let s = board(&alt, F11, INDIGO);
    assert!(finals(&alt, &s).contains("d4"));
}

const F12: &str = "
  5   ##      ##      ##      ##      *S
  4   ##      ##      E+W@Sc  ##      ##
  3   S@In    E       N       ##      ##
  2   ##      ##      ##      ##      W@Ze
  1   *I      ##      ##      *G@Pu   ##
";

#[test]
fn f12_foxes_win_through_a_chain() {
    let g = fox();
    let mut s = board(&g, F12, INDIGO);
    assert_eq!(finals(&g, &s), names(&["c4", "a4", "b4", "b2", "a2"]));
    g.apply(&mut s, Action::Move(sq("c4")));
    assert_eq!(s.phase, Phase::Over(Ending::Rescue));
}

const F13: &str = "
  5   ##      ##      ##      ##      *S@Sc
  4   ##      ##      ##      *G@Pu   ##
  3   ##      ##      ##      ##      ##
  2   ##      S       N@Ze    ##      ##
  1   *I@In   W       ##      ##      ##
";

#[test]
fn f13_capture_through_a_chain_on_a_start_tile() {
    let g = fox();
    let mut s = board(&g, F13, ZEV);
    assert_eq!(finals(&g, &s), names(&["a1", "c3", "d2", "c1"]));
    g.apply(&mut s, Action::Move(sq("a1")));
    assert_eq!(s.phase, Phase::Over(Ending::Capture));
    assert!(g.legal_actions(&s).is_empty());
    assert_eq!(&*g.returns(&s), &[-1.0, 1.0]);
}

const F14: &str = "
  5   N+S     E+W     S       W       *S@Sc
  4   N       E       SE      NE      S+W
  3   N       E@Pu    NW      S@Ze    N+E
  2   N@In    E       SW      *G      W+N
  1   *I      W       E+S     S       #W
";

#[test]
fn f14a_all_revealed_by_zevs_reveal() {
    let g = fox();
    let mut s = board(&g, F14, ZEV);
    assert_eq!(s.face_down(), 1);
    assert_eq!(finals(&g, &s), names(&["d4", "e3", "d2"]));
    g.apply(&mut s, Action::Move(sq("d2")));
    assert_eq!(s.phase, Phase::Ability);
    assert_eq!(
        &*g.legal_actions(&s),
        &[Action::Pass, Action::Reveal(sq("e1"))]
    );
    g.apply(&mut s, Action::Reveal(sq("e1")));
    let outcomes = g.chance_outcomes(&s);
    assert_eq!(outcomes.len(), 1);
    assert_eq!(outcomes[0].1, 1.0);
    flip_as(&g, &mut s, "W");
    assert_eq!(s.phase, Phase::Over(Ending::AllRevealed));
    assert_eq!(&*g.returns(&s), &[-1.0, 1.0]);
}

#[test]
fn f14a_detour_through_the_starting_square() {
    // W-NW-E-SE-S returns to d3 and applies its arrow (A7); under the
    // rejected reading the detour would stop on d3 instead.
    let g = Fox::with("start_used=true").unwrap();
    let s = board(&g, F14, ZEV);
    assert!(finals(&g, &s).contains("d3"));
    assert!(!finals(&fox(), &board(&fox(), F14, ZEV)).contains("d3"));
}

/// F14 with Puffer on d2, Scarlett on e2 and Zev on e3.
const F14B: &str = "
  5   N+S     E+W     S       W       *S
  4   N       E       SE      NE      S+W
  3   N       E       NW      S       N+E@Ze
  2   N@In    E       SW      *G@Pu   W+N@Sc
  1   *I      W       E+S     S       #W
";

#[test]
fn f14b_a_fox_forced_onto_the_last_tile() {
    let g = fox();
    let mut s = board(&g, F14B, SCARLETT);
    assert_eq!(&*g.legal_actions(&s), &[Action::Move(sq("e1"))]);
    g.apply(&mut s, Action::Move(sq("e1")));
    flip_as(&g, &mut s, "W");
    assert_eq!(s.phase, Phase::Over(Ending::AllRevealed));
    assert_eq!(&*g.returns(&s), &[-1.0, 1.0]);
}

const F15: &str = "
  5   ##      ##      ##      ##      *S
  4   ##      ##      ##      *G      S@Ze
  3   ##      ##      ##      W@In    N@Sc
  2   ##      ##      ##      E+S     W@Pu
  1   *I      ##      ##      ##      ##
";

#[test]
fn f15_no_legal_step_stay_put_ability_still_allowed() {
    let g = fox();
    // The scenario starts Scarlett's turn as the rules do.
    let mut s = board(&g, F15, SCARLETT);
    assert_eq!(g.movement().reach(&s, SCARLETT), 0);
    let down = s.face_down();
    assert_eq!((s.to_move, s.phase), (SCARLETT, Phase::Ability));
    assert_eq!(s.pos[SCARLETT as usize], sq("e3"));
    assert_eq!(s.face_down(), down);
    assert_eq!(
        &*g.legal_actions(&s),
        &[Action::Pass, Action::Swap(sq("d2"), sq("d4"))]
    );
    g.apply(&mut s, Action::Swap(sq("d2"), sq("d4")));
    assert!(matches!(s.cells[sq("d2") as usize], Cell::Start(_)));
    assert!(matches!(s.cells[sq("d4") as usize], Cell::Up(_, 0)));
    assert_eq!(up_arrows(&g, &s, "d4"), mask_of("E+S"));
    assert_eq!(s.to_move, ZEV);
    // Without abilities after staying put (A16) her turn is skipped.
    let alt = Fox::with("stay_ability=false").unwrap();
    let s = board(&alt, F15, SCARLETT);
    assert_eq!((s.to_move, s.turn_count), (ZEV, u32::from(SCARLETT) + 1));
}

const F16: &str = "
  5   ##      ##      ##      ##        *S@Sc
  4   ##      *G      N+S@Pu  ##        ##
  3   S@In    N       #W      E+S@Ze    ##
  2   ##      ##      W       ##        ##
  1   *I      ##      ##      ##        ##
";

/// F16 after Puffer's move to c3, which turned up a W.
const F16_AFTER: &str = "
  5   ##      ##      ##      ##        *S@Sc
  4   ##      *G      N+S     ##        ##
  3   S@In    N       W@Pu    E+S@Ze    ##
  2   ##      ##      W       ##        ##
  1   *I      ##      ##      ##        ##
";

#[test]
fn f16_puffer_rotation_options_and_effect() {
    let g = fox();
    let mut s = board(&g, F16, PUFFER);
    assert_eq!(finals(&g, &s), names(&["c5", "d4", "c3", "b4"]));
    g.apply(&mut s, Action::Move(sq("c3")));
    flip_as(&g, &mut s, "W");
    assert_eq!(s.phase, Phase::Ability);
    let legal = g.legal_actions(&s);
    let (c4, b3, c2) = (sq("c4"), sq("b3"), sq("c2"));
    let expected = [
        Action::Pass,
        Action::Rotate(c2, 1),
        Action::Rotate(c2, 3),
        Action::Rotate(c2, 2),
        Action::Rotate(b3, 1),
        Action::Rotate(b3, 3),
        Action::Rotate(b3, 2),
        Action::Rotate(c4, 1),
    ];
    assert_eq!(&*legal, &expected, "7 distinct rotations plus pass");
    // The results shown in the spec's table.
    for (a, name, arrows) in [
        (Action::Rotate(c4, 1), "c4", "E+W"),
        (Action::Rotate(b3, 1), "b3", "E"),
        (Action::Rotate(b3, 3), "b3", "W"),
        (Action::Rotate(b3, 2), "b3", "S"),
        (Action::Rotate(c2, 1), "c2", "N"),
        (Action::Rotate(c2, 3), "c2", "S"),
        (Action::Rotate(c2, 2), "c2", "E"),
    ] {
        let mut t = s.clone();
        g.apply(&mut t, a);
        assert_eq!(up_arrows(&g, &t, name), mask_of(arrows), "{a:?}");
    }
    // Only clockwise turns under the A17 switch.
    let alt = Fox::with("rotate_ccw=false").unwrap();
    let alt_legal = alt.legal_actions(&s);
    assert_eq!(alt_legal.len(), 6);
    assert!(!alt_legal.iter().any(|a| matches!(a, Action::Rotate(_, 3))));
    // Effect check on Indigo's next turn from a3.
    let before = board(&g, F16_AFTER, INDIGO);
    assert!(!finals(&g, &before).contains("b3"));
    g.apply(&mut s, Action::Rotate(b3, 1));
    assert!(matches!(s.cells[b3 as usize], Cell::Up(_, 1)));
    assert_eq!(s.to_move, SCARLETT);
    let after = board(
        &g,
        &F16_AFTER.replace("N       W@Pu", "E~1     W@Pu"),
        INDIGO,
    );
    assert_eq!(after.cells[b3 as usize], s.cells[b3 as usize]);
    assert!(finals(&g, &after).contains("b3"));
}

const F17: &str = "
  5   ##      ##      ##      ##      *S
  4   ##      *G      N+E     E~1     ##
  3   ##      ##      #S+W    S@Ze    ##
  2   ##      W       S@Sc    ##      ##
  1   *I@In   ##      ##      ##      E@Pu
";

#[test]
fn f17_scarlett_swap_with_a_start_tile_keeps_rotation() {
    let g = fox();
    let mut s = board(&g, F17, SCARLETT);
    assert_eq!(finals(&g, &s), names(&["c3", "d2", "c1", "a2"]));
    g.apply(&mut s, Action::Move(sq("c3")));
    flip_as(&g, &mut s, "S+W");
    let legal = g.legal_actions(&s);
    assert_eq!(legal.len(), 11, "10 swaps plus pass: {legal:?}");
    let (b4, d4) = (sq("b4"), sq("d4"));
    assert!(legal.contains(&Action::Swap(b4, d4)));
    let mut zev_before = s.clone();
    zev_before.to_move = ZEV;
    zev_before.phase = Phase::Move;
    assert_eq!(finals(&g, &zev_before), names(&["e4", "e3", "d2"]));
    g.apply(&mut s, Action::Swap(b4, d4));
    let n = mask_of("N");
    match s.cells[b4 as usize] {
        Cell::Up(id, 1) => assert_eq!(g.tile_set().masks[id as usize], n),
        other => panic!("b4 holds {other:?}"),
    }
    assert_eq!(up_arrows(&g, &s, "b4"), mask_of("E"));
    assert!(matches!(s.cells[d4 as usize], Cell::Start(2)));
    assert_eq!((s.to_move, s.phase), (ZEV, Phase::Move));
    assert_eq!(finals(&g, &s), names(&["d4", "e3", "d2"]));
}

const F18: &str = "
  5   ##      ##      ##      ##      *S@Sc
  4   ##      *G@Pu   ##      ##      ##
  3   ##      ##      ##      ##      ##
  2   ##      ##      N@Ze    ##      ##
  1   *I@In   ##      ##      ##      ##
";

#[test]
fn f18_zev_reveal() {
    let g = fox();
    let mut s = board(&g, F18, ZEV);
    assert_eq!(finals(&g, &s), names(&["c3", "d2", "c1", "b2"]));
    g.apply(&mut s, Action::Move(sq("c3")));
    flip_as(&g, &mut s, "E");
    assert_eq!(s.pos[ZEV as usize], sq("c3"));
    let reveals: BTreeSet<String> = g
        .legal_actions(&s)
        .iter()
        .filter_map(|a| match a {
            Action::Reveal(q) => Some(square_name(*q)),
            Action::Pass => None,
            other => panic!("unexpected {other:?}"),
        })
        .collect();
    assert_eq!(reveals, names(&["c4", "d4", "d3", "d2", "b2", "b3"]));
    assert_eq!(g.legal_actions(&s)[0], Action::Pass);
    g.apply(&mut s, Action::Reveal(sq("d4")));
    // Type probabilities count_R(t)/|R| over the 20 unseen tiles.
    let outcomes = g.chance_outcomes(&s);
    assert_eq!(outcomes.len(), 20);
    let p_of = |arrows: &str| -> f64 {
        let m = mask_of(arrows);
        outcomes
            .iter()
            .filter(|(a, _)| matches!(a, Action::Tile(i) if g.tile_set().masks[*i as usize] == m))
            .map(|o| o.1)
            .sum()
    };
    assert!((p_of("N") - 2.0 / 20.0).abs() < 1e-12);
    assert!((p_of("E") - 2.0 / 20.0).abs() < 1e-12);
    assert!((p_of("S") - 3.0 / 20.0).abs() < 1e-12);
    flip_as(&g, &mut s, "S+W");
    assert!(matches!(s.cells[sq("d4") as usize], Cell::Up(_, 0)));
    assert_eq!(up_arrows(&g, &s, "d4"), mask_of("S+W"));
    assert_eq!(s.pos[ZEV as usize], sq("c3"));
    assert_eq!((s.to_move, s.phase), (INDIGO, Phase::Move));
}

const F19: &str = "
  5   ##      ##      ##      ##      *S@Sc
  4   ##      ##      ##      *G      ##
  3   ##      ##      ##      ##      ##
  2   E@Pu    N+E     S@Ze    ##      ##
  1   *I@In   ##      ##      ##      ##
";

#[test]
fn f19_puffer_passes_through_zevs_square() {
    let g = fox();
    let s = board(&g, F19, PUFFER);
    assert_eq!(finals(&g, &s), names(&["a3", "b3", "c1"]));
}

/// F19 with Scarlett on a2 in Puffer's place, Puffer on the Guardians' start.
const F19_SCARLETT: &str = "
  5   ##      ##      ##      ##      *S
  4   ##      ##      ##      *G@Pu   ##
  3   ##      ##      ##      ##      ##
  2   E@Sc    N+E     S@Ze    ##      ##
  1   *I@In   ##      ##      ##      ##
";

#[test]
fn f19_contrast_scarlett_stops_before_zev() {
    let g = fox();
    let s = board(&g, F19_SCARLETT, SCARLETT);
    assert_eq!(finals(&g, &s), names(&["a3", "b3", "b2"]));
}

const F20: &str = "
  5   W@Pu    ##      ##      ##      *S@Sc
  4   ##      ##      ##      *G      ##
  3   ##      ##      NE      ##      ##
  2   ##      ##      N+S@Ze  ##      ##
  1   *I@In   ##      ##      ##      ##
";

#[test]
fn f20_diagonal_arrow_carries_zev() {
    let g = fox();
    let mut s = board(&g, F20, ZEV);
    assert_eq!(finals(&g, &s), names(&["d4", "d2", "c1", "b2"]));
    g.apply(&mut s, Action::Move(sq("d4")));
    assert!(g.movement().zev_guards_scarlett(&s));
}

const F21: &str = "
  5   ##      ##      ##      ##      *S
  4   ##      ##      ##      W@Ze    ##
  3   S@In    E+S     N@Sc    ##      ##
  2   ##      ##      ##      ##      ##
  1   *I      ##      ##      *G@Pu   ##
";

#[test]
fn f21_arrow_into_guarded_scarlett_is_a_stop() {
    let g = fox();
    let s = board(&g, F21, INDIGO);
    assert_eq!(finals(&g, &s), names(&["b3", "b2", "a4", "b4", "a2"]));
}

#[test]
fn f21_variant_zev_away_so_the_arrow_wins() {
    // Zev on e5, d4 an empty W tile: E-E now enters Scarlett's square.
    let g = fox();
    let mut v = board(&g, F21, INDIGO);
    v.pos[ZEV as usize] = sq("e5");
    let f = finals(&g, &v);
    assert!(f.contains("c3") && !f.contains("b3"), "{f:?}");
    g.apply(&mut v, Action::Move(sq("c3")));
    assert_eq!(v.phase, Phase::Over(Ending::Rescue));
}

const F22: &str = "
  5   ##      ##      ##      W       *S@Sc
  4   ##      ##      W       *G@Ze   S
  3   ##      ##      ##      S       ##
  2   ##      ##      ##      ##      ##
  1   *I@In   ##      ##      ##      E@Pu
";

#[test]
fn f22_mandatory_move_drags_zev_away() {
    let g = fox();
    let s = board(&g, F22, ZEV);
    assert!(g.movement().zev_guards_scarlett(&s));
    assert_eq!(finals(&g, &s), names(&["c5", "e3", "d2", "b4"]));
    assert!(!g.legal_actions(&s).contains(&Action::Pass));
    for a in g.legal_actions(&s) {
        let mut t = s.clone();
        g.apply(&mut t, a);
        assert!(!g.movement().zev_guards_scarlett(&t), "{a:?}");
    }
}

#[test]
fn f23_turn_cap_draw() {
    let g = fox();
    // Zev's 50th turn is character-turn 200, the last.
    let mut s = g.scenario_in_round(F18, ZEV, 50).unwrap();
    assert_eq!(s.turn_count, 199);
    assert!(g.scenario_in_round(F18, INDIGO, 51).is_err());
    g.apply(&mut s, Action::Move(sq("c3")));
    flip_as(&g, &mut s, "E");
    assert_eq!(g.turn(&s), Turn::Player(1));
    g.apply(&mut s, Action::Pass);
    assert_eq!(s.turn_count, 200);
    assert_eq!(s.phase, Phase::Over(Ending::Cap));
    assert_eq!(&*g.returns(&s), &[0.0, 0.0]);
    // A win in that last turn is not overwritten by the cap.
    let mut s = g.scenario_in_round(F14, ZEV, 50).unwrap();
    g.apply(&mut s, Action::Move(sq("d2")));
    g.apply(&mut s, Action::Reveal(sq("e1")));
    flip_as(&g, &mut s, "W");
    assert_eq!(s.phase, Phase::Over(Ending::AllRevealed));
}

#[test]
fn f24_determinization_and_chance_model() {
    let g = fox();
    let mut s = board(&g, F2, INDIGO);
    g.apply(&mut s, Action::Move(sq("b2")));
    flip_as(&g, &mut s, "N+E");
    let remaining = |s: &State| -> Vec<u8> {
        let mut v: Vec<u8> = s
            .cells
            .iter()
            .filter_map(|c| match c {
                Cell::Down(id) => Some(g.tile_set().masks[*id as usize]),
                _ => None,
            })
            .collect();
        v.sort();
        v
    };
    let mut r = Vec::new();
    for (arrows, n) in [
        ("N", 3),
        ("E", 3),
        ("S", 3),
        ("W", 3),
        ("NE", 1),
        ("SE", 1),
        ("SW", 1),
        ("NW", 1),
        ("E+S", 1),
        ("S+W", 1),
        ("W+N", 1),
        ("N+S", 1),
        ("E+W", 1),
    ] {
        r.extend(std::iter::repeat_n(mask_of(arrows), n));
    }
    r.sort();
    assert_eq!(remaining(&s), r);
    assert_eq!(s.face_down(), 21);
    // Next reveal: P(N) = 3/21, P(N+E) = 0.
    let mut next = s.clone();
    next.to_move = PUFFER;
    next.phase = Phase::Reveal {
        square: sq("d3"),
        by_ability: false,
    };
    let outcomes = g.chance_outcomes(&next);
    let p = |m: u8| -> f64 {
        outcomes
            .iter()
            .filter(|(a, _)| matches!(a, Action::Tile(i) if g.tile_set().masks[*i as usize] == m))
            .map(|o| o.1)
            .sum()
    };
    assert!((p(mask_of("N")) - 3.0 / 21.0).abs() < 1e-12);
    assert_eq!(p(mask_of("N+E")), 0.0);
    // The determinizer permutes exactly R over F, at rotation 0, and nothing else.
    let mut rng = rng_from_seed(11);
    let mut differs = 0;
    for _ in 0..20 {
        let d = g.determinize(&s, 0, &mut rng);
        assert_eq!(remaining(&d), r);
        assert_eq!(d.pos, s.pos);
        for q in 0..SQUARES {
            match (s.cells[q], d.cells[q]) {
                (Cell::Down(_), Cell::Down(_)) => {}
                (a, b) => assert_eq!(a, b, "square {q}"),
            }
        }
        assert_eq!(g.info_key(&d, 0), g.info_key(&s, 0));
        assert_eq!(g.info_key(&d, 1), g.info_key(&s, 1));
        differs += usize::from(d != s);
    }
    assert!(differs > 15);
    // Rotations and swaps do not change R; a reveal removes exactly one type.
    let mut t = board(&g, F16, PUFFER);
    let before = remaining(&t);
    g.apply(&mut t, Action::Move(sq("c3")));
    flip_as(&g, &mut t, "W");
    let after = remaining(&t);
    assert_eq!(after.len() + 1, before.len());
    g.apply(&mut t, Action::Rotate(sq("b3"), 1));
    assert_eq!(remaining(&t), after);
    // Observations cannot tell two assignments apart, and the chance draw
    // does not depend on the hidden sample.
    let a = g.determinize(&next, 0, &mut rng_from_seed(1));
    let b = g.determinize(&next, 0, &mut rng_from_seed(2));
    assert_ne!(a, b);
    assert_eq!(g.info_key(&a, 0), g.info_key(&b, 0));
    assert_eq!(g.render(&a, Some(0)), g.render(&b, Some(0)));
    assert_eq!(
        g.sample_chance(&a, &mut rng_from_seed(3)),
        g.sample_chance(&b, &mut rng_from_seed(3))
    );
    assert_eq!(g.heuristic(&a, 0), g.heuristic(&b, 0));
}

// ---------------------------------------------------------------- parameters and seats

#[test]
fn parameters_are_checked() {
    for (spec, needle) in [
        ("players=5", "players"),
        ("players=two", "players"),
        ("alone=foxes", "players=3"),
        ("players=3,alone=wolves", "foxes, guardians"),
        ("start_used=maybe", "start_used"),
        ("guard=diagonal", "adjacent, orthogonal"),
        ("colour=red", "colour"),
        ("tiles=/nonexistent/tiles.toml", "/nonexistent/tiles.toml"),
        ("players=3,alone=guardians,stay_ability=2", "stay_ability"),
    ] {
        let e = Fox::with(spec).unwrap_err().to_string();
        assert!(e.contains(needle), "{spec}: {e}");
    }
    for spec in [
        "",
        "players=3",
        "players=3,alone=guardians",
        "players=4",
        "start_used=true,stay_ability=false,start_ability=false,rotate_ccw=false,guard=orthogonal",
    ] {
        let g = Fox::with(spec).unwrap();
        let again = crate::games::AnyGame::parse(&g.spec()).unwrap();
        let crate::games::AnyGame::Fox(h) = again else {
            panic!("not fox")
        };
        assert_eq!(h.spec(), g.spec());
    }
    assert_eq!(Fox::with("players=2").unwrap().spec(), "fox");
}

#[test]
fn tiles_parameter_replaces_the_data() {
    // A JSON file with another layout, an orthogonal-only mix and a short cap.
    let json = r#"{
        "version": "test-orthogonal",
        "turn_cap": 12,
        "layout": {"indigo": "a5", "scarlett": "e1", "guardians": "d2"},
        "tile": [
            {"code": "N", "arrows": ["N"], "copies": 5},
            {"code": "E", "arrows": ["E"], "copies": 5},
            {"code": "S", "arrows": ["S"], "copies": 5},
            {"code": "W", "arrows": ["W"], "copies": 5},
            {"code": "N+S", "arrows": ["N", "S"], "copies": 1},
            {"code": "E+W", "arrows": ["E", "W"], "copies": 1}
        ]
    }"#;
    let dir = std::env::temp_dir().join(format!("fox-tiles-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("orthogonal.json");
    std::fs::write(&path, json).unwrap();
    let g = Fox::with(&format!("tiles={}", path.display())).unwrap();
    assert_eq!(g.tile_set().turn_cap, 12);
    assert_eq!(g.max_game_length(), 48);
    let mut rng = rng_from_seed(4);
    let s = g.initial_state(&mut rng);
    assert_eq!(s.pos, [sq("a5"), sq("d2"), sq("e1"), sq("d2")]);
    assert!(matches!(s.cells[sq("e1") as usize], Cell::Start(1)));
    // Games end by the short cap at the latest.
    for _ in 0..20 {
        let mut s = g.initial_state(&mut rng);
        crate::game::random_playout(&g, &mut s, &mut rng, g.max_game_length());
        assert_eq!(g.turn(&s), Turn::Terminal);
        assert!(s.turn_count <= 12);
    }
}

#[test]
fn seats_roles_and_sides() {
    let s = fox().initial_state(&mut rng_from_seed(1));
    let cases: [(&str, &[&str]); 4] = [
        ("", &["foxes:indigo+scarlett", "guardians:puffer+zev"]),
        (
            "players=3",
            &["foxes:indigo+scarlett", "guardians:puffer", "guardians:zev"],
        ),
        (
            "players=3,alone=guardians",
            &["foxes:indigo", "guardians:puffer+zev", "foxes:scarlett"],
        ),
        (
            "players=4",
            &[
                "foxes:indigo",
                "guardians:puffer",
                "foxes:scarlett",
                "guardians:zev",
            ],
        ),
    ];
    for (spec, roles) in cases {
        let g = Fox::with(spec).unwrap();
        assert_eq!(g.num_players(), roles.len());
        for (p, role) in roles.iter().enumerate() {
            assert_eq!(g.role(&s, p as u8), *role, "{spec} seat {p}");
            let side = if role.starts_with("foxes") {
                FOXES
            } else {
                GUARDIANS
            };
            assert_eq!(g.side(p as u8), side);
        }
        for c in CHARACTERS {
            assert_eq!(g.side(g.controller(c)), faction(c));
        }
    }
    // With 2 players control alternates every character-turn.
    let g = fox();
    let seats: Vec<u8> = CHARACTERS.iter().map(|&c| g.controller(c)).collect();
    assert_eq!(seats, vec![0, 1, 0, 1]);
}

#[test]
fn render_and_labels() {
    let g = fox();
    let mut s = board(&g, F17, SCARLETT);
    let public = g.render(&s, Some(0));
    assert!(
        public.contains("*S ") || public.contains("*S\n"),
        "{public}"
    );
    assert!(public.contains("↑→ "), "N+E on c4:\n{public}");
    assert!(public.contains("→@Pu"), "{public}");
    assert!(
        public.contains("↓@Sc") && public.contains("*I@In"),
        "{public}"
    );
    assert!(!public.contains("#S+W"), "hidden tile leaked:\n{public}");
    assert!(g.render(&s, None).contains("#S+W"));
    let rows: Vec<&str> = public.lines().collect();
    assert!(rows[1].trim_start().starts_with('5') && rows[5].trim_start().starts_with('1'));
    assert_eq!(
        g.action_label(&s, Action::Move(sq("c3"))),
        "Scarlett moves to c3 (flip)"
    );
    g.apply(&mut s, Action::Move(sq("c3")));
    let tile = hidden_tile(&g, &s, "S+W");
    assert!(
        g.action_label(&s, tile)
            .starts_with("c3 is revealed as S+W")
    );
    g.apply(&mut s, tile);
    let label = g.action_label(&s, Action::Swap(sq("b4"), sq("d4")));
    assert_eq!(label, "Scarlett swaps b4 (*G) and d4 (E~1)");
}

#[test]
fn heuristic_sees_immediate_wins() {
    let g = fox();
    let s = board(&g, F12, INDIGO);
    assert!(g.heuristic(&s, 0) > 0.9 && g.heuristic(&s, 1) < -0.9);
    let s = board(&g, F13, ZEV);
    assert!(g.heuristic(&s, 0) < -0.9 && g.heuristic(&s, 1) > 0.9);
    let s = fox().initial_state(&mut rng_from_seed(2));
    assert!(g.heuristic(&s, 0).abs() < 0.5);
}

// ---------------------------------------------------------------- soak

/// The movement pseudocode of spec §4.6, literally: the pawn really moves and
/// every arrow decision is tried.
fn reference_finals(g: &Fox, s: &State, c: Character) -> u32 {
    fn walk(g: &Fox, s: &State, c: Character, q: u8, used: u32, out: &mut u32) {
        let mut t = s.clone();
        t.pos[c as usize] = q;
        let on = |x: Character| t.pos[x as usize] == q;
        let cell = t.cells[q as usize];
        if (c == INDIGO && on(SCARLETT)) || (c == ZEV && on(INDIGO)) {
            *out |= 1 << q;
            return;
        }
        if !matches!(cell, Cell::Up(..)) || used & (1 << q) != 0 {
            *out |= 1 << q;
            return;
        }
        let arrows = g.movement().arrows(cell);
        for d in (0..8u8).filter(|d| arrows & (1 << d) != 0) {
            match super::board::step(q, d) {
                Some(r) if g.movement().can_enter(&t, c, r) => {
                    walk(g, &t, c, r, used | 1 << q, out)
                }
                _ => *out |= 1 << q,
            }
        }
    }
    let mut out = 0;
    let from = s.pos[c as usize];
    let used = if g.movement().start_used {
        1 << from
    } else {
        0
    };
    for q in g.movement().first_steps(s, c).collect::<Vec<_>>() {
        walk(g, s, c, q, used, &mut out);
    }
    out
}

fn check_invariants(g: &Fox, s: &State, ctx: &str) {
    if let Err(e) = super::invariants::check(g, s) {
        panic!("{ctx}: {e}");
    }
}

#[test]
fn soak_random_games_all_player_counts() {
    let mut endings = [0u32; 4];
    for (k, spec) in [
        "",
        "players=3",
        "players=3,alone=guardians",
        "players=4",
        "start_used=true,stay_ability=false,guard=orthogonal",
    ]
    .iter()
    .enumerate()
    {
        let g = Fox::with(spec).unwrap();
        for game in 0..80u64 {
            let mut rng = rng_from_seed(1000 * k as u64 + game);
            let mut s = g.initial_state(&mut rng);
            let mut down = s.face_down();
            for step in 0..g.max_game_length() {
                let ctx = format!("{} game {game} step {step}", g.spec());
                check_invariants(&g, &s, &ctx);
                assert!(s.face_down() <= down, "{ctx}: tiles turned face-down");
                down = s.face_down();
                let action = match g.turn(&s) {
                    Turn::Terminal => break,
                    Turn::Chance => g.sample_chance(&s, &mut rng),
                    Turn::Player(p) => {
                        assert_eq!(p, g.controller(s.to_move), "{ctx}");
                        let legal = g.legal_actions(&s);
                        if s.phase == Phase::Move {
                            let mine = legal.iter().fold(0u32, |m, a| match a {
                                Action::Move(q) => m | 1 << q,
                                _ => panic!("{ctx}: {a:?} in the movement phase"),
                            });
                            assert_eq!(mine, reference_finals(&g, &s, s.to_move), "{ctx}");
                        } else {
                            assert_eq!(legal[0], Action::Pass, "{ctx}");
                            assert!(legal.len() > 1, "{ctx}: ability phase with only pass");
                        }
                        legal[crate::rng::below(&mut rng, legal.len())]
                    }
                };
                g.apply(&mut s, action);
            }
            let Phase::Over(end) = s.phase else {
                panic!("{spec} game {game} did not end")
            };
            endings[end as usize] += 1;
            let r = g.returns(&s);
            for p in 0..g.num_players() as u8 {
                let mine = r[p as usize];
                assert!(mine == 1.0 || mine == -1.0 || mine == 0.0);
                let foxes_won = end == Ending::Rescue;
                if end != Ending::Cap {
                    assert_eq!(mine > 0.0, (g.side(p) == FOXES) == foxes_won);
                }
            }
        }
    }
    eprintln!("endings (rescue, capture, all revealed, cap): {endings:?}");
    // Random play reaches every kind of win.
    assert!(endings[Ending::Rescue as usize] > 0, "{endings:?}");
    assert!(endings[Ending::Capture as usize] > 0, "{endings:?}");
    assert!(endings[Ending::AllRevealed as usize] > 0, "{endings:?}");
}

#[test]
fn sampled_flips_follow_the_type_counts() {
    let g = fox();
    let mut s = board(&g, F2, INDIGO);
    g.apply(&mut s, Action::Move(sq("b2")));
    let mut rng = rng_from_seed(21);
    let n = 22_000;
    let mut singles_n = 0;
    for _ in 0..n {
        let Action::Tile(id) = g.sample_chance(&s, &mut rng) else {
            panic!("not a tile")
        };
        assert_ne!(s.hidden_ids() & (1 << id), 0);
        singles_n += usize::from(g.tile_set().masks[id as usize] == mask_of("N"));
    }
    // Binomial p = 3/22: allow 5 standard deviations.
    let p = 3.0 / 22.0;
    let sd = (n as f64 * p * (1.0 - p)).sqrt();
    assert!(
        (singles_n as f64 - n as f64 * p).abs() < 5.0 * sd,
        "{singles_n}"
    );
}

#[test]
fn metrics_match_an_independent_count_of_the_action_log() {
    let mut endings = BTreeSet::new();
    for spec in ["", "players=3", "players=4"] {
        let g = Fox::with(spec).unwrap();
        for game in 0..40u64 {
            let mut rng = rng_from_seed(7000 + game);
            let mut s = g.initial_state(&mut rng);
            // Counted from the log: (character to move, action) per step.
            let mut revealed = [0.0; 4];
            let mut abilities = [0.0; 4];
            while g.turn(&s) != Turn::Terminal {
                let action = match g.turn(&s) {
                    Turn::Chance => g.sample_chance(&s, &mut rng),
                    _ => {
                        let legal = g.legal_actions(&s);
                        legal[crate::rng::below(&mut rng, legal.len())]
                    }
                };
                let c = s.to_move as usize;
                match action {
                    Action::Tile(_) => revealed[c] += 1.0,
                    Action::Rotate(..) | Action::Swap(..) | Action::Reveal(_) => {
                        abilities[c] += 1.0
                    }
                    Action::Move(_) | Action::Pass => {}
                }
                g.apply(&mut s, action);
                let mut rng2 = rng_from_seed(game);
                assert_eq!(g.determinize(&s, 0, &mut rng2).tally, s.tally);
            }
            let Phase::Over(end) = s.phase else {
                unreachable!()
            };
            endings.insert(end as u8);
            // Turns go round in order from Indigo; the last one is unfinished
            // unless the cap ended the game.
            let begun = s.turn_count + u32::from(end != Ending::Cap);
            let turns = |c: u8| (0..begun).filter(|k| k % 4 == u32::from(c)).count() as f64;
            for p in 0..g.num_players() as u8 {
                let m: std::collections::BTreeMap<_, _> = g.metrics(&s, p).into_iter().collect();
                let mine: Vec<u8> = (0..4).filter(|&c| g.controller(c) == p).collect();
                let sum = |per: &[f64; 4]| mine.iter().map(|&c| per[c as usize]).sum::<f64>();
                let kind = |c: u8| {
                    if mine.contains(&c) {
                        abilities[c as usize]
                    } else {
                        0.0
                    }
                };
                let ctx = format!("{} game {game} seat {p}", g.spec());
                assert_eq!(
                    m["turns"],
                    mine.iter().map(|&c| turns(c)).sum::<f64>(),
                    "{ctx}"
                );
                assert_eq!(m["tiles_revealed"], sum(&revealed), "{ctx}");
                assert_eq!(m["abilities_used"], sum(&abilities), "{ctx}");
                assert_eq!(m["rotations"], kind(PUFFER), "{ctx}");
                assert_eq!(m["swaps"], kind(SCARLETT), "{ctx}");
                assert_eq!(m["ability_reveals"], kind(ZEV), "{ctx}");
                let flags = [
                    m["end_rescue"],
                    m["end_capture"],
                    m["end_all_revealed"],
                    m["end_cap"],
                ];
                let mut want = [0.0; 4];
                want[end as usize] = 1.0;
                assert_eq!(flags, want, "{ctx}");
            }
            // Every tile flipped once, so the seats' reveals add up to the
            // face-up count.
            let total: f64 = revealed.iter().sum();
            assert_eq!(total as u32, TILES as u32 - s.face_down(), "game {game}");
        }
    }
    assert!(endings.len() >= 3, "{endings:?}");
}

// ---------------------------------------------------------------- movement cost

/// A tile set of the default layout and cap with the given types.
fn tile_set_file(name: &str, types: &[(&str, u32)]) -> String {
    let mut text = String::from(
        "version = \"test\"\nturn_cap = 200\n[layout]\nindigo = \"a1\"\nscarlett = \"e5\"\nguardians = \"d4\"\n",
    );
    for (arrows, copies) in types {
        let list: Vec<String> = arrows.split('+').map(|a| format!("\"{a}\"")).collect();
        text.push_str(&format!(
            "[[tile]]\ncode = \"{arrows}\"\narrows = [{}]\ncopies = {copies}\n",
            list.join(", ")
        ));
    }
    let dir = std::env::temp_dir().join(format!("fox-move-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.display().to_string()
}

/// Eleven three-arrow types, two copies each.
fn three_arrow_tiles() -> String {
    tile_set_file(
        "three.toml",
        &[
            ("N+E+S", 2),
            ("N+E+W", 2),
            ("N+S+W", 2),
            ("E+S+W", 2),
            ("NE+SE+SW", 2),
            ("NE+SW+NW", 2),
            ("N+SE+SW", 2),
            ("E+SW+NW", 2),
            ("S+NE+NW", 2),
            ("W+NE+SE", 2),
            ("N+NE+E", 2),
        ],
    )
}

/// A random position: each face-down tile turned face up at a random
/// rotation with a random density, the pawns on random squares.
fn random_position(g: &Fox, rng: &mut GameRng) -> State {
    let mut s = g.initial_state(rng);
    let density = [0.3, 0.6, 0.85, 1.0][below(rng, 4)];
    for cell in s.cells.iter_mut() {
        if let Cell::Down(id) = *cell
            && crate::rng::unit(rng) < density
        {
            *cell = Cell::Up(id, below(rng, 4) as u8);
        }
    }
    for p in s.pos.iter_mut() {
        *p = below(rng, SQUARES) as u8;
    }
    s
}

#[test]
fn reach_matches_the_search_over_paths() {
    let three = three_arrow_tiles();
    let mut positions = 0;
    let mut nonempty = 0;
    for (k, spec) in [
        String::new(),
        "start_used=true".into(),
        "guard=orthogonal".into(),
        format!("tiles={three}"),
        format!("tiles={three},start_used=true"),
    ]
    .iter()
    .enumerate()
    {
        let g = Fox::with(spec).unwrap();
        let mv = g.movement();
        let mut rng = rng_from_seed(70 + k as u64);
        for i in 0..2_500 {
            let s = random_position(&g, &mut rng);
            positions += 1;
            for c in CHARACTERS {
                let (new, old) = (mv.reach(&s, c), mv.reach_by_paths(&s, c));
                assert_eq!(new, old, "{spec} position {i} character {c}: {s:?}");
                assert_eq!(new != 0, mv.can_move(&s, c), "{spec} position {i}");
                nonempty += u32::from(new != 0);
            }
        }
        // Positions reached in play too, at every movement decision.
        for game in 0..20u64 {
            let mut rng = rng_from_seed(900 + game);
            let mut s = g.initial_state(&mut rng);
            while g.turn(&s) != Turn::Terminal {
                if s.phase == Phase::Move {
                    positions += 1;
                    let c = s.to_move;
                    assert_eq!(mv.reach(&s, c), mv.reach_by_paths(&s, c), "{spec}: {s:?}");
                }
                let a = match g.turn(&s) {
                    Turn::Chance => g.sample_chance(&s, &mut rng),
                    _ => {
                        let l = g.legal_actions(&s);
                        l[below(&mut rng, l.len())]
                    }
                };
                g.apply(&mut s, a);
            }
        }
    }
    assert!(positions > 10_000, "{positions}");
    assert!(nonempty > 20_000, "{nonempty}");
}

#[test]
fn eight_arrow_tiles_keep_movement_cheap() {
    let all = tile_set_file("eight.toml", &[("N+NE+E+SE+S+SW+W+NW", 22)]);
    let g = Fox::with(&format!("tiles={all}")).unwrap();
    let started = std::time::Instant::now();
    let budget = std::time::Duration::from_secs(20);
    let mut steps = 0u64;
    for game in 0..30u64 {
        let mut rng = rng_from_seed(game);
        let mut s = g.initial_state(&mut rng);
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
            assert!(
                started.elapsed() < budget,
                "game {game}: {steps} steps took {:?}",
                started.elapsed()
            );
        }
    }
    // Every square but a blocked stop can chain on: whole boards face up
    // must be cheap too, not only the early game.
    let mut rng = rng_from_seed(3);
    for _ in 0..2_000 {
        let mut s = random_position(&g, &mut rng);
        for cell in s.cells.iter_mut() {
            if let Cell::Down(id) = *cell {
                *cell = Cell::Up(id, 0);
            }
        }
        for c in CHARACTERS {
            std::hint::black_box(g.movement().reach(&s, c));
        }
        assert!(started.elapsed() < budget, "{:?}", started.elapsed());
    }
}

/// Turning a tile changes a character's reach only when the turn changes
/// the tile's arrows and some chain of the character's enters the tile
/// (`MoveRules::entered`), which the heuristic's rotation threat relies on:
/// checked for every character, tile and turn over random games.
#[test]
fn a_turn_outside_the_entered_squares_keeps_the_reach() {
    let g = fox();
    let mut rng = rng_from_seed(17);
    let mut checked = 0;
    for _ in 0..10 {
        let mut s = g.initial_state(&mut rng);
        while g.turn(&s) != Turn::Terminal {
            for c in 0..4 {
                let reach = g.mv.reach(&s, c);
                let entered = g.mv.entered(&s, c);
                assert_eq!(reach & !entered, 0, "reach outside the entered squares");
                for q in 0..25u8 {
                    let Cell::Up(id, r) = s.cells[q as usize] else {
                        continue;
                    };
                    for k in 1..4 {
                        let turned = Cell::Up(id, (r + k) % 4);
                        if entered & (1 << q) != 0
                            && g.mv.arrows(turned) != g.mv.arrows(s.cells[q as usize])
                        {
                            continue;
                        }
                        let mut t = s.clone();
                        t.cells[q as usize] = turned;
                        assert_eq!(
                            g.mv.reach(&t, c),
                            reach,
                            "character {c}, square {q}, turn {k}"
                        );
                        checked += 1;
                    }
                }
            }
            let a = match g.turn(&s) {
                Turn::Chance => g.sample_chance(&s, &mut rng),
                _ => {
                    let legal = g.legal_actions(&s);
                    legal[crate::rng::below(&mut rng, legal.len())]
                }
            };
            g.apply(&mut s, a);
        }
    }
    assert!(checked > 1000, "only {checked} turns checked");
}

//! Rule tests: the worked scenarios X1–X22 of the spec with forced dice, the
//! combat table of 2.7 from the chance outcomes, configuration errors, data
//! overrides, hidden information and an invariant soak over every mode.

use super::data::{Kind, NO_SQ};
use super::state::{Action, Card, Loc, Phase, State};
use super::*;
use crate::game::{Evaluation, Reporting, Rules, Turn};
use crate::rng::rng_from_seed;

fn game(args: &str) -> Karmox {
    Karmox::parse(args).unwrap_or_else(|e| panic!("{args}: {e}"))
}

fn sq(x: usize, y: usize) -> u16 {
    (y * 23 + x) as u16
}

fn ch(id: &str) -> usize {
    data::char_index(id).unwrap()
}

fn tid(g: &Karmox, id: &str) -> usize {
    g.c.tiles.iter().position(|t| t.id == id).unwrap()
}

fn mid(g: &Karmox, id: &str) -> u8 {
    g.c.missions.iter().position(|m| m.id == id).unwrap() as u8
}

/// A state in `seat`'s action phase: pawns on their fronts, no markers, empty piles.
fn base(g: &Karmox, seat: u8) -> State {
    let mut s = g.setup_state();
    s.setup = false;
    s.first = 0;
    g.start_turn(&mut s, seat);
    s.phase = Phase::Action;
    s
}

fn place(s: &mut State, id: &str, x: usize, y: usize) {
    s.ch[ch(id)].pos = sq(x, y);
}

/// Moves a pawn out of the way (onto a far floor square).
fn park(s: &mut State, id: &str, x: usize, y: usize) {
    place(s, id, x, y);
}

fn equip(g: &Karmox, s: &mut State, tile: &str, id: &str) {
    s.tiles[tid(g, tile)] = Loc::Sheet(ch(id) as u8);
}

fn hold(g: &Karmox, s: &mut State, side: usize, cards: &[&str]) {
    for c in cards {
        let m = mid(g, c);
        s.deck_unknown &= !(1 << m);
        s.piles[side].push(Card {
            id: m,
            public: false,
        });
    }
}

fn legal(g: &Karmox, s: &State) -> Vec<Action> {
    g.legal_actions(s).to_vec()
}

/// Applies a decision (asserting it is legal) or a chance outcome (asserting it exists).
fn play(g: &Karmox, s: &mut State, a: Action) {
    match g.turn(s) {
        Turn::Player(_) => assert!(
            g.legal_actions(s).contains(&a),
            "{a:?} illegal in {:?}; legal {:?}",
            s.phase,
            legal(g, s)
        ),
        Turn::Chance => assert!(
            g.chance_outcomes(s).iter().any(|o| o.0 == a),
            "{a:?} not a chance outcome in {:?}",
            s.phase
        ),
        Turn::Terminal => panic!("terminal"),
    }
    g.apply(s, a);
}

/// Draws the lowest unknown cards while draws are pending.
fn drain(g: &Karmox, s: &mut State) {
    while s.phase == Phase::Drawing {
        let c = s.deck_unknown.trailing_zeros() as u8;
        play(g, s, Action::Draw(c));
    }
}

fn roll(g: &Karmox, s: &mut State, att: u8, def: u8) {
    play(g, s, Action::Roll { att, def });
}

/// Plays a whole turn of the active seat: the die, passes through the event
/// phase (first option when Pass is not offered), then END_TURN.
fn pass_turn(g: &Karmox, s: &mut State, die: u8) {
    assert_eq!(s.phase, Phase::EventDie);
    play(g, s, Action::Die(die));
    while s.phase != Phase::Action {
        drain(g, s);
        if s.phase == Phase::Action {
            break;
        }
        let l = legal(g, s);
        let a = if l.contains(&Action::Pass) {
            Action::Pass
        } else {
            l[0]
        };
        play(g, s, a);
    }
    play(g, s, Action::EndTurn);
}

// ----- configurations and data -----

#[test]
fn every_mode_builds_with_its_sides() {
    let cases: &[(&str, usize, &[u8], usize)] = &[
        ("", 2, &[0, 1], 6),
        ("players=3", 3, &[0, 1, 2], 6),
        ("players=4", 4, &[0, 1, 2, 3], 4),
        ("players=4,mode=teams", 2, &[0, 1, 0, 1], 4),
        ("players=5", 5, &[0, 1, 2, 3, 4], 5),
        ("players=6", 6, &[0, 1, 2, 3, 4, 5], 6),
        ("players=6,mode=teams", 2, &[0, 1, 0, 1, 0, 1], 6),
        ("players=6,mode=clones", 3, &[0, 1, 2, 0, 1, 2], 6),
    ];
    for (args, sides, seat_sides, in_play) in cases {
        let g = game(args);
        assert_eq!(g.n_sides, *sides, "{args}");
        for (p, &side) in seat_sides.iter().enumerate() {
            assert_eq!(g.side(p as u8), side, "{args} seat {p}");
        }
        let s = g.setup_state();
        assert_eq!(
            s.ch.iter().filter(|c| c.in_play).count(),
            *in_play,
            "{args}"
        );
    }
    // Characters per mode (spec 1.3).
    assert_eq!(game("").role(&State::default(), 0), "MGa+GRa+GKa");
    assert_eq!(game("players=3").role(&State::default(), 1), "GRa+GRb");
    assert_eq!(
        game("players=4,mode=teams").role(&State::default(), 0),
        "GKa"
    );
    // Even games: each seat's skittle is its colour; odd games share one.
    let t = game("players=4,mode=teams");
    assert_eq!(
        (0..4).map(|p| t.skittle_of(p)).collect::<Vec<_>>(),
        [0, 1, 0, 1]
    );
    let c = game("players=6,mode=clones");
    assert_eq!(
        (0..6).map(|p| c.skittle_of(p)).collect::<Vec<_>>(),
        [0, 0, 0, 1, 1, 1]
    );
    assert_eq!(game("players=5").skittle_of(1), 0);
}

#[test]
fn invalid_configurations_are_errors() {
    for bad in [
        "players=1",
        "players=7",
        "players=3,mode=teams",
        "players=5,mode=teams",
        "players=2,mode=clones",
        "players=4,mode=clones",
        "players=4,mode=teams,chars=MGa-GRa-GKa-MGb",
        "players=4,chars=MGa-MGa-GRa-GRb",
        "players=4,chars=MGa-GRa",
        "players=4,chars=XXa-MGb-GRa-GRb",
        "players=2,chars=MGa-MGb",
        "players=6,mode=clones,chars=MGa-GRa-GKa-MGb-GRb-GRb",
        "first=2",
        "max_rounds=0",
        "colour=blue",
        "board=/nonexistent/board.json",
    ] {
        let r = Karmox::parse(bad);
        assert!(r.is_err(), "{bad} should be rejected");
        assert!(!r.unwrap_err().to_string().is_empty());
    }
    assert!(Karmox::parse("players=4,chars=GKa-MGb-GRa-GRb,first=3").is_ok());
    // The spec's mode ids are aliases, checked against the player count.
    assert_eq!(
        game("players=6,mode=P6_TEAMS3_CLONES").mode,
        Mode::Teams3Clones
    );
    assert_eq!(game("players=4,mode=P4_TEAMS").mode, Mode::Teams);
    assert!(Karmox::parse("players=4,mode=P6_TEAMS2").is_err());
    // The canonical spec builds the same game.
    for args in ["", "players=4,mode=teams,first=1,max_rounds=7", "players=3"] {
        let g = game(args);
        let again = crate::games::AnyGame::parse(&g.spec()).unwrap();
        let crate::games::AnyGame::Karmox(h) = again else {
            panic!("not karmox")
        };
        assert_eq!(h.spec(), g.spec());
        assert_eq!(
            (h.mode, h.char_seat, h.first, h.max_rounds),
            (g.mode, g.char_seat, g.first, g.max_rounds)
        );
    }
}

#[test]
fn data_files_replace_the_defaults_and_are_validated() {
    let dir = std::env::temp_dir().join(format!("karmox-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let chars = dir.join("chars.json");
    std::fs::write(
        &chars,
        r#"{"MG": {"name": "m", "ATT": 9, "DEF": 2, "MOV": 5},
            "GR": {"name": "g", "ATT": 4, "DEF": 3, "MOV": 3},
            "GK": {"name": "k", "ATT": 3, "DEF": 4, "MOV": 4}}"#,
    )
    .unwrap();
    let g = game(&format!("characters={}", chars.display()));
    assert_eq!(g.c.kinds[0].base, [9, 2, 5]);
    assert!(g.spec().contains("characters="));
    let toml_chars = dir.join("chars.toml");
    std::fs::write(
        &toml_chars,
        "[MG]\nname = \"m\"\nATT = 1\nDEF = 2\nMOV = 5\n[GR]\nname = \"g\"\nATT = 4\nDEF = 3\nMOV = 3\n[GK]\nname = \"k\"\nATT = 3\nDEF = 4\nMOV = 4\n",
    )
    .unwrap();
    assert_eq!(
        game(&format!("characters={}", toml_chars.display()))
            .c
            .kinds[0]
            .base[0],
        1
    );
    // A TOML items file missing a steal cost is rejected with its name.
    let items = dir.join("items.toml");
    std::fs::write(&items, "x = 1\n").unwrap();
    let err = Karmox::parse(&format!("items={}", items.display()))
        .unwrap_err()
        .to_string();
    assert!(err.contains("items.toml"), "{err}");
    // A board whose tile icons are missing is rejected.
    let board = dir.join("board.json");
    let mut v: serde_json::Value = serde_json::from_str(data::BOARD_JSON).unwrap();
    v["icons"].as_object_mut().unwrap().remove("G");
    std::fs::write(&board, v.to_string()).unwrap();
    let err = Karmox::parse(&format!("board={}", board.display()))
        .unwrap_err()
        .to_string();
    assert!(err.contains("icon"), "{err}");
    // Missions with an unknown check are rejected.
    let missions = dir.join("missions.json");
    std::fs::write(&missions, data::MISSIONS_JSON.replace("win_attack", "fly")).unwrap();
    let err = Karmox::parse(&format!("missions={}", missions.display()))
        .unwrap_err()
        .to_string();
    assert!(err.contains("fly"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn default_board_matches_the_spec_counts() {
    let g = game("");
    let b = &g.c.board;
    assert_eq!(b.walk.iter().filter(|&&w| w).count(), 212);
    assert_eq!(b.anchors.len(), 68);
    assert_eq!(g.c.tiles.len(), 35);
    assert_eq!(
        g.c.missions.iter().map(|m| u32::from(m.xp)).sum::<u32>(),
        47
    );
    assert_eq!(g.c.events.len(), 18);
    assert_eq!(b.front[ch("GRa")], sq(11, 2));
    assert_eq!(b.access, vec![sq(11, 8), sq(11, 9)]);
    // Reference distances of 2.2.4 from the empty board (pawns removed).
    let mut s = base(&g, 0);
    for c in 0..6 {
        s.ch[c].in_play = c == ch("MGa");
    }
    let reach = |s: &State, to: u16, lim: u8| g.destinations(s, ch("MGa"), lim).contains(&to);
    assert!(reach(&s, sq(11, 8), 14) && !reach(&s, sq(11, 8), 13));
    assert!(reach(&s, sq(1, 4), 8) && !reach(&s, sq(1, 4), 7));
    assert!(reach(&s, sq(3, 15), 17) && !reach(&s, sq(3, 15), 16));
}

#[test]
fn nearest_target_tables_match_a_scan_of_the_board() {
    let g = game("");
    let b = &g.c.board;
    g.with_distances(|t| {
        let scan = |a: u16, targets: &mut dyn Iterator<Item = u16>| {
            targets
                .map(|q| t.between(a, q))
                .fold(f64::from(heuristic::FAR), f64::min)
        };
        let wing = |rows: [u16; 2]| -> Vec<u16> {
            (rows[0]..=rows[1])
                .flat_map(|y| (0..b.w).map(move |x| sq(x, usize::from(y))))
                .filter(|&q| b.walk[q as usize])
                .collect()
        };
        let (red, blue) = (wing(b.red_wing), wing(b.blue_wing));
        assert!(!red.is_empty() && !blue.is_empty());
        let squares = (0..b.walk.len() as u16).chain([NO_SQ]);
        for a in squares {
            assert_eq!(t.to_access(a), scan(a, &mut b.access.iter().copied()));
            assert_eq!(t.to_teleport(a), scan(a, &mut b.teleports.iter().copied()));
            assert_eq!(t.to_wing(a, 0), scan(a, &mut red.iter().copied()));
            assert_eq!(t.to_wing(a, 1), scan(a, &mut blue.iter().copied()));
            for icon in 0..b.icon_names.len() as u8 {
                let mut printed =
                    (0..b.walk.len() as u16).filter(|&q| b.icon_at[q as usize] == icon);
                assert_eq!(t.to_icon(a, icon), scan(a, &mut printed));
            }
        }
        // Hand-counted walks to the nearer access square, (11,8) or (11,9).
        assert_eq!(t.to_access(sq(11, 10)), 1.0);
        assert_eq!(t.to_access(sq(13, 7)), 3.0);
    });
}

#[test]
fn distance_tables_follow_a_replaced_board() {
    let g = game("");
    let mut other = g.clone();
    let mut comps = (*g.c).clone();
    comps.board.access = vec![sq(1, 4)];
    other.c = std::sync::Arc::new(comps);
    // Alternate on one thread: each game must see its own board's tables.
    for _ in 0..2 {
        assert_eq!(g.with_distances(|t| t.to_access(sq(11, 8))), 0.0);
        assert_eq!(other.with_distances(|t| t.to_access(sq(1, 4))), 0.0);
        assert!(other.with_distances(|t| t.to_access(sq(11, 8))) > 0.0);
    }
    // A copy sharing the components reuses them.
    let copy = g.clone();
    assert_eq!(copy.with_distances(|t| t.to_access(sq(11, 9))), 0.0);
}

// ----- 2.7 combat probabilities -----

#[test]
fn combat_probabilities_match_the_reference_table() {
    let g = game("");
    let mut s = base(&g, 0);
    s.phase = Phase::CombatRoll;
    let outcomes = g.chance_outcomes(&s);
    assert_eq!(outcomes.len(), 121);
    assert!((outcomes.iter().map(|o| o.1).sum::<f64>() - 1.0).abs() < 1e-12);
    // Δ, P(win), P(win, A ≥ 3), P(win, A ≥ 5), E[A | win].
    let table = [
        (-3, 0.173, 0.059, 0.013, 2.22),
        (-2, 0.265, 0.108, 0.030, 2.48),
        (-1, 0.376, 0.178, 0.061, 2.77),
        (0, 0.500, 0.270, 0.110, 3.09),
        (1, 0.624, 0.376, 0.178, 3.47),
        (2, 0.735, 0.491, 0.265, 3.90),
        (3, 0.827, 0.605, 0.365, 4.41),
        (4, 0.896, 0.708, 0.473, 4.99),
    ];
    for (delta, win, a3, a5, mean) in table {
        let (mut pw, mut p3, mut p5, mut tie, mut sum_a) = (0.0, 0.0, 0.0, 0.0, 0.0);
        for (a, p) in &outcomes {
            let Action::Roll { att, def } = *a else {
                panic!()
            };
            let diff = i32::from(att) + delta - i32::from(def);
            if diff == 0 {
                tie += p;
            } else if diff > 0 {
                pw += p;
                sum_a += p * f64::from(diff);
                if diff >= 3 {
                    p3 += p;
                }
                if diff >= 5 {
                    p5 += p;
                }
            }
        }
        let k = 1.0 - tie;
        assert!((pw / k - win).abs() < 0.0005, "Δ {delta}: {}", pw / k);
        assert!((p3 / k - a3).abs() < 0.0005, "Δ {delta}: {}", p3 / k);
        assert!((p5 / k - a5).abs() < 0.0005, "Δ {delta}: {}", p5 / k);
        assert!(
            (sum_a / pw - mean).abs() < 0.005,
            "Δ {delta}: {}",
            sum_a / pw
        );
    }
    s.phase = Phase::SkelTest;
    let t = g.chance_outcomes(&s);
    assert!((t[0].1 - 5.0 / 9.0).abs() < 1e-12 && t[0].0 == Action::Test(true));
    // Sampled tests pass about 5/9 of the time.
    let mut rng = rng_from_seed(5);
    let n = 9000;
    let passes = (0..n)
        .filter(|_| g.sample_chance(&s, &mut rng) == Action::Test(true))
        .count();
    assert!((passes as f64 / n as f64 - 5.0 / 9.0).abs() < 0.03);
}

// ----- scenarios X1–X22 -----

#[test]
fn x1_tie_reroll_win_level_push_and_self_move() {
    let g = game("");
    let mut s = Scenario::new(&g)
        .at("GRa", 14, 7)
        .abilities("GRa", [1, 0, 0])
        .at("GKb", 14, 8)
        .abilities("GKb", [0, 0, 1])
        .missions(0, &["M01", "M04", "M11"])
        .build_in_action_phase()
        .unwrap();
    play(&g, &mut s, Action::Attack { c: 2, d: 5 });
    roll(&g, &mut s, 5, 6); // 10 vs 10: reroll
    assert_eq!(s.phase, Phase::CombatRoll);
    assert_eq!(s.combat.rerolls, 1);
    roll(&g, &mut s, 10, 5); // 15 vs 9
    assert_eq!(s.ch[ch("GKb")].life, 4);
    assert_eq!(s.ch[ch("GRa")].level, 1);
    assert_eq!(s.phase, Phase::Push, "no steal: GKb has no tiles");
    assert_eq!(legal(&g, &s), (0..=5).map(Action::Push).collect::<Vec<_>>());
    play(&g, &mut s, Action::Push(3));
    assert_eq!(s.ch[ch("GKb")].pos, sq(14, 11));
    assert_eq!(s.phase, Phase::SelfMove);
    play(&g, &mut s, Action::Dest(sq(11, 7)));
    assert_eq!(s.ch[ch("GRa")].pos, sq(11, 7));
    assert_eq!(s.xp[0], 4, "M01 and M04 complete");
    drain(&g, &mut s);
    assert_eq!(s.piles[0].len(), 3);
    assert_eq!(s.actions_left, 1);
    let l = legal(&g, &s);
    assert!(l.contains(&Action::Move(2)));
    assert!(!l.iter().any(|a| matches!(a, Action::Attack { c: 2, .. })));
    play(&g, &mut s, Action::Move(2));
    play(&g, &mut s, Action::Dest(sq(11, 8)));
    assert_eq!(s.actions_left, 0);
}

#[test]
fn x2_defender_wins_push_limited_by_wall() {
    let g = game("");
    let mut s = Scenario::new(&g)
        .missions(1, &["M04", "M11", "M15"])
        .at("MGa", 2, 7)
        .abilities("MGa", [0, 1, 0])
        .at("GRb", 3, 7)
        .abilities("GRb", [1, 0, 0])
        .build_in_action_phase()
        .unwrap();
    play(&g, &mut s, Action::Attack { c: 0, d: 3 });
    roll(&g, &mut s, 3, 10); // 6 vs 13
    assert_eq!(
        g.turn(&s),
        Turn::Player(1),
        "the defender's controller decides"
    );
    assert_eq!(s.phase, Phase::DefPush);
    assert_eq!(legal(&g, &s), vec![Action::Push(0), Action::Push(1)]);
    assert_eq!(s.ch[0].life, 5);
    assert_eq!(s.ch[3].life, 5);
    assert_eq!(s.ch[3].level, 0);
    play(&g, &mut s, Action::Push(1));
    assert_eq!(s.ch[0].pos, sq(1, 7));
    assert_eq!(s.combat.adr, 6);
    let l = legal(&g, &s);
    assert!(l.contains(&Action::Dest(sq(8, 7))));
    assert!(!l.contains(&Action::Dest(sq(10, 7))), "7 steps is beyond 6");
    play(&g, &mut s, Action::Dest(sq(8, 7)));
    assert_eq!(s.ch[3].pos, sq(8, 7));
    assert_eq!(s.xp, [0; 6], "nothing completes for the defender's side");
    assert_eq!(s.phase, Phase::Action);
    assert_eq!(s.actions_left, 1);
    let l = legal(&g, &s);
    assert!(l.contains(&Action::Move(0)));
    assert!(!l.iter().any(|a| matches!(a, Action::Attack { c: 0, .. })));
}

/// Rolls the event die and declines the pictured activation when offered.
fn event(g: &Karmox, s: &mut State, die: u8) {
    play(g, s, Action::Die(die));
    if s.phase == Phase::Activate {
        play(g, s, Action::Pass);
    }
}

/// X3's table: GKa (ability in MOV) north of MGb, which wears T03, T11 and
/// T24; blue's skittle on E00, so a die of 3 lands on E03 (ATT +2).
fn x3_scenario(g: &Karmox) -> Scenario<'_> {
    Scenario::new(g)
        .at("GKa", 17, 8)
        .abilities("GKa", [0, 0, 1])
        .at("MGb", 17, 9)
        .abilities("MGb", [1, 0, 0])
        .equip("MGb", "T03")
        .equip("MGb", "T11")
        .equip("MGb", "T24")
}

#[test]
fn x3_steal_with_exact_adrenaline_and_leftover_rule() {
    let g = game("players=4,chars=GKa-MGb-MGa-GRb");
    let mut s = x3_scenario(&g)
        .missions(0, &["M03", "M01"])
        .build()
        .unwrap();
    event(&g, &mut s, 3); // E03
    assert_eq!((s.square, s.phase), (3, Phase::Action));
    assert_eq!(g.att_eff(&s, ch("GKa")), 5);
    assert_eq!(g.def_eff(&s, ch("MGb")), 4);
    play(&g, &mut s, Action::Attack { c: 4, d: 1 });
    roll(&g, &mut s, 11, 7); // 16 vs 11, A = 5
    assert_eq!(s.combat.adr, 5);
    assert_eq!(s.ch[1].life, 4);
    assert_eq!(s.ch[4].level, 1);
    let mut options = vec![Action::Pass];
    options.extend(["T03", "T11", "T24"].map(|t| Action::Tile(tid(&g, t) as u8)));
    assert_eq!(legal(&g, &s), options);
    let mut a = s.clone();
    play(&g, &mut a, Action::Tile(tid(&g, "T03") as u8));
    assert_eq!(a.combat.adr, 0);
    assert_eq!(a.tiles[tid(&g, "T03")], Loc::Sheet(4));
    assert_eq!(g.def_eff(&a, ch("GKa")), 6);
    assert_eq!(g.def_eff(&a, ch("MGb")), 2);
    assert_eq!(a.phase, Phase::Drawing, "M03 and M01 complete");
    assert_eq!(a.xp[0], 5);
    // Variant a: stealing T11 leaves 3 points for the thief's own move only.
    let mut v = s.clone();
    play(&g, &mut v, Action::Tile(tid(&g, "T11") as u8));
    assert_eq!(v.phase, Phase::SelfMove);
    assert_eq!(v.combat.adr, 3);
    let l = legal(&g, &v);
    assert!(
        l.iter()
            .all(|a| matches!(a, Action::Pass | Action::Dest(_)))
    );
    assert!(l.contains(&Action::Dest(sq(14, 8))), "3 steps west");
    // Variant b: wearing T02, the same dice give A = 7; stealing T03 drops T02.
    let mut w = x3_scenario(&g).equip("GKa", "T02").build().unwrap();
    event(&g, &mut w, 3);
    assert_eq!(g.att_eff(&w, ch("GKa")), 7);
    play(&g, &mut w, Action::Attack { c: 4, d: 1 });
    roll(&g, &mut w, 11, 7);
    assert_eq!(w.combat.adr, 7);
    play(&g, &mut w, Action::Tile(tid(&g, "T03") as u8));
    assert_eq!(w.tiles[tid(&g, "T02")], Loc::Supply);
    assert_eq!(
        g.att_eff(&w, ch("GKa")),
        5,
        "3 + E03 for the rest of the turn"
    );
    play(&g, &mut w, Action::Pass);
    play(&g, &mut w, Action::EndTurn);
    assert_eq!(w.seat, 1);
    assert_eq!(g.att_eff(&w, ch("GKa")), 3, "E03 is over");
}

#[test]
fn x4_level_up_and_full_rows() {
    let g = game("");
    let setup = |abil: [u8; 3]| {
        Scenario::new(&g)
            .at("GRa", 12, 7)
            .abilities("GRa", abil)
            .level("GRa", 2)
            .at("GKb", 12, 8)
            .missions(0, &["M05"])
    };
    let mut s = setup([1, 0, 0]).build_in_action_phase().unwrap();
    assert_eq!(g.att_eff(&s, 2), 5);
    assert_eq!(g.def_eff(&s, 5), 4);
    play(&g, &mut s, Action::Attack { c: 2, d: 5 });
    roll(&g, &mut s, 10, 4); // 15 vs 8
    assert_eq!(s.ch[5].life, 4);
    assert_eq!(s.ch[2].level, 0);
    assert_eq!(s.phase, Phase::LevelUp);
    assert_eq!(
        legal(&g, &s),
        vec![Action::Stat(0), Action::Stat(1), Action::Stat(2)]
    );
    play(&g, &mut s, Action::Stat(2));
    assert_eq!(s.ch[2].abil, [1, 0, 1]);
    assert_eq!(g.allowance(&s, 2), 4, "base 3 + 1 marker");
    assert_eq!(s.combat.adr, 7);
    play(&g, &mut s, Action::Push(0));
    play(&g, &mut s, Action::Pass);
    assert_eq!(s.xp[0], 4, "M05");
    drain(&g, &mut s);
    // A later MOVE goes 4 steps.
    play(&g, &mut s, Action::Move(2));
    assert!(legal(&g, &s).contains(&Action::Dest(sq(8, 7))));
    assert!(!legal(&g, &s).contains(&Action::Dest(sq(7, 7))));
    // A full ATT row is not offered.
    let mut s = setup([3, 0, 0]).build_in_action_phase().unwrap();
    play(&g, &mut s, Action::Attack { c: 2, d: 5 });
    roll(&g, &mut s, 10, 2);
    assert_eq!(s.phase, Phase::LevelUp);
    assert_eq!(legal(&g, &s), vec![Action::Stat(1), Action::Stat(2)]);
    // All boxes full: the point is lost, the level still resets.
    let mut s = setup([3, 3, 3]).build_in_action_phase().unwrap();
    play(&g, &mut s, Action::Attack { c: 2, d: 5 });
    roll(&g, &mut s, 12, 2);
    assert_ne!(s.phase, Phase::LevelUp);
    assert_eq!(s.ch[2].level, 0);
    assert_eq!(s.ch[2].abil, [3, 3, 3]);
    while s.phase != Phase::Action {
        let a = legal(&g, &s)[0];
        play(&g, &mut s, a);
    }
    assert_eq!(s.xp[0], 0, "a lost point is no Veteran");
}

fn x5_after_defeat(g: &Karmox) -> State {
    let mut s = Scenario::new(g)
        .at("GRa", 12, 4)
        .abilities("GRa", [0, 0, 1])
        .at("MGb", 11, 4)
        .abilities("MGb", [1, 0, 0])
        .life("MGb", 1)
        .equip("MGb", "T21")
        .skittle(1, 3)
        .missions(0, &["M02"])
        .build_in_action_phase()
        .unwrap();
    play(g, &mut s, Action::Attack { c: 2, d: 1 });
    roll(g, &mut s, 8, 4); // 12 vs 6, A = 6
    assert_eq!(s.ch[1].prison, 1);
    assert_eq!(s.ch[1].prison_cell, 2);
    assert_eq!(s.ch[1].pos, NO_SQ);
    assert_eq!(s.ch[2].level, 1);
    assert_eq!(s.phase, Phase::Steal);
    play(g, &mut s, Action::Tile(tid(g, "T21") as u8));
    assert_eq!(s.combat.adr, 3);
    assert_eq!(
        s.phase,
        Phase::SelfMove,
        "no push: the defender is off the board"
    );
    play(g, &mut s, Action::Dest(sq(11, 2)));
    assert_eq!(s.ch[2].pos, sq(11, 2));
    assert_eq!(s.xp[0], 5, "M02");
    drain(g, &mut s);
    play(g, &mut s, Action::EndTurn);
    s
}

#[test]
fn x5_defeat_timer_and_release_on_occupied_front() {
    let g = game("first=0");
    let mut s = x5_after_defeat(&g);
    let mgb = ch("MGb");
    for (i, die) in [2u8, 3, 4, 2].into_iter().enumerate() {
        assert_eq!(s.seat, 1);
        pass_turn(&g, &mut s, die);
        assert_eq!(
            s.ch[mgb].prison,
            2 + i as u8,
            "timer after P2 turn {}",
            i + 1
        );
        pass_turn(&g, &mut s, 1); // P1 (GRa stays on (11,2))
    }
    assert_eq!(s.skittle[1], 14);
    assert_eq!(s.ch[2].pos, sq(11, 2));
    play(&g, &mut s, Action::Die(2)); // E16
    while s.phase != Phase::Action {
        play(&g, &mut s, Action::Pass);
    }
    assert_eq!(s.ch[mgb].prison, 0);
    assert_eq!(s.ch[mgb].life, 1);
    assert_eq!(s.ch[mgb].pos, sq(10, 2));
    assert_eq!(s.actions_left, 2);
    assert!(legal(&g, &s).contains(&Action::Move(mgb as u8)));
}

#[test]
fn x6_early_release_by_unlock() {
    let g = game("first=0");
    let mut s = x5_after_defeat(&g);
    pass_turn(&g, &mut s, 2); // P2 turn 1: box 2, skittle E05
    pass_turn(&g, &mut s, 1);
    assert_eq!(s.ch[1].prison, 2);
    play(&g, &mut s, Action::Die(4)); // E05 → E09 UNLOCK
    assert_eq!(s.ch[1].prison, 0);
    assert_eq!(s.ch[1].life, 2);
    assert_eq!(s.ch[1].pos, sq(10, 2), "GRa occupies the front square");
    assert_eq!(s.phase, Phase::Activate);
    assert!(
        legal(&g, &s)
            .iter()
            .any(|a| matches!(a, Action::Activate { tile, .. } if g.c.tiles[*tile as usize].kind == Kind::Ring))
    );
    play(&g, &mut s, Action::Pass);
    assert_eq!(s.phase, Phase::Action);
    assert!(legal(&g, &s).contains(&Action::Move(1)));
}

#[test]
fn x7_team_liberation() {
    let g = game("players=4,mode=teams");
    assert_eq!(g.role(&State::default(), 3), "GRb");
    let (mgb, grb, gka) = (ch("MGb"), ch("GRb"), ch("GKa"));
    // P4 (GRb) to roll; MGb (P2) in GKa's cell on box 2; red skittle on E15.
    let table = |x: usize, y: usize| {
        Scenario::new(&g)
            .turn(3)
            .prison("MGb", "GKa", 2)
            .at("GKa", 14, 7)
            .at("GRb", x, y)
            .abilities("GRb", [1, 0, 0])
            .skittle(1, 15)
            .build()
            .unwrap()
    };
    let liberate = |s: &State| {
        legal(&g, s)
            .iter()
            .any(|a| matches!(a, Action::Liberate(_)))
    };
    let mut s = table(17, 3);
    play(&g, &mut s, Action::Die(3));
    assert_eq!(s.skittle[1], 0);
    assert!(s.liberation);
    assert_eq!(s.ch[mgb].prison, 2, "P4 has no prisoner of its own");
    play(&g, &mut s, Action::Pass); // EP4
    assert_eq!(s.ch[mgb].prison, 2, "EP5 advances only P4's own timers");
    assert!(!liberate(&s), "GRb is not on the cell's front square");
    play(&g, &mut s, Action::Move(grb as u8));
    play(&g, &mut s, Action::Dest(sq(19, 2)));
    assert!(legal(&g, &s).contains(&Action::Liberate(gka as u8)));
    play(&g, &mut s, Action::Liberate(gka as u8));
    assert_eq!(s.ch[mgb].prison, 0);
    assert_eq!(s.ch[mgb].life, 2);
    assert_eq!(s.ch[mgb].pos, sq(18, 2));
    assert_eq!(s.actions_left, 1);
    // The right ends with the turn.
    let mut t = table(17, 3);
    event(&g, &mut t, 3);
    assert!(t.liberation);
    play(&g, &mut t, Action::EndTurn);
    assert!(!t.liberation);
    // On the front square without landing on UNLOCK: no liberation.
    let mut u = table(19, 2);
    event(&g, &mut u, 1); // E16
    assert!(!liberate(&u));
    let mut v = table(19, 2);
    event(&g, &mut v, 3); // E00 UNLOCK
    assert!(legal(&g, &v).contains(&Action::Liberate(gka as u8)));
}

#[test]
fn x8_skeletor_summon_and_crossing() {
    let g = game("first=0");
    let mut s = Scenario::new(&g)
        .turn(1)
        .skittle(1, 10)
        .at("GKa", 15, 8)
        .at("GRb", 14, 9)
        .missions(0, &["M12", "M15"])
        .build()
        .unwrap();
    play(&g, &mut s, Action::Die(3));
    assert_eq!(s.phase, Phase::Summon(1));
    let l = legal(&g, &s);
    assert!(
        !l.contains(&Action::Anchor(sq(11, 7))),
        "covers an access square"
    );
    assert!(
        !l.contains(&Action::Anchor(sq(18, 8))),
        "covers an icon square"
    );
    assert!(!l.contains(&Action::Anchor(sq(8, 8))), "covers the portal");
    assert!(l.contains(&Action::Anchor(sq(12, 8))));
    play(&g, &mut s, Action::Anchor(sq(12, 8)));
    assert_eq!(s.tiles[tid(&g, "T34")], Loc::Board(sq(12, 8)));
    assert_eq!(
        s.phase,
        Phase::Action,
        "no item picture on a Skeletor square"
    );
    // A red character walks through freely.
    let mut red = s.clone();
    play(&g, &mut red, Action::Move(3));
    play(&g, &mut red, Action::Dest(sq(12, 9)));
    assert_eq!(red.ch[3].pos, sq(12, 9));
    assert_eq!(red.tiles[tid(&g, "T34")], Loc::Board(sq(12, 8)));
    assert_eq!(red.phase, Phase::Action);
    play(&g, &mut s, Action::EndTurn);
    play(&g, &mut s, Action::Die(6)); // blue E06 HEAL, nobody hurt
    play(&g, &mut s, Action::Pass);
    drain(&g, &mut s);
    let gka = ch("GKa") as u8;
    assert_eq!(g.allowance(&s, gka as usize), 4);
    assert_eq!(
        g.canonical_path(&s, gka as usize, sq(11, 8), 4).to_vec(),
        vec![3, 3, 3, 3]
    );
    play(&g, &mut s, Action::Move(gka));
    play(&g, &mut s, Action::Dest(sq(11, 8)));
    assert_eq!(s.phase, Phase::SkelTest);
    assert_eq!(s.ch[gka as usize].pos, sq(14, 8));
    play(&g, &mut s, Action::Test(false));
    assert_eq!(s.ch[gka as usize].pos, sq(14, 8));
    assert_eq!(s.phase, Phase::Action);
    assert!(!legal(&g, &s).contains(&Action::Move(gka)));
    assert_eq!(s.xp[0], 0);
    play(&g, &mut s, Action::EndTurn);
    pass_turn(&g, &mut s, 1); // red E13 → E14
    play(&g, &mut s, Action::Die(6)); // blue E06 → E12
    play(&g, &mut s, Action::Pass);
    play(&g, &mut s, Action::Move(gka));
    play(&g, &mut s, Action::Dest(sq(11, 8)));
    assert_eq!(s.phase, Phase::SkelTest);
    play(&g, &mut s, Action::Test(true));
    assert_eq!(s.tiles[tid(&g, "T34")], Loc::Supply);
    assert_eq!(s.ch[gka as usize].pos, sq(11, 8));
    assert_eq!(s.xp[0], 6, "M12 (4) and M15 (2) at one checkpoint");
}

#[test]
fn x9_teleport_and_state_missions() {
    let g = game("");
    let mut s = Scenario::new(&g)
        .at("MGa", 1, 2)
        .equip("MGa", "T21")
        .at("GKb", 14, 12)
        .missions(0, &["M10", "M13", "M11"])
        .build_in_action_phase()
        .unwrap();
    let l = legal(&g, &s);
    assert!(l.contains(&Action::Teleport {
        c: 0,
        to: sq(21, 15)
    }));
    assert!(!l.contains(&Action::Teleport { c: 0, to: sq(1, 2) }));
    play(
        &g,
        &mut s,
        Action::Teleport {
            c: 0,
            to: sq(21, 15),
        },
    );
    assert_eq!(s.xp[0], 5, "M10 + M13");
    drain(&g, &mut s);
    assert!(
        !legal(&g, &s)
            .iter()
            .any(|a| matches!(a, Action::Teleport { c: 0, .. }))
    );
    play(&g, &mut s, Action::Move(0));
    play(&g, &mut s, Action::Dest(sq(19, 15)));
    assert_eq!(s.xp[0], 8, "M11: front square of GKb's cell");
    assert_eq!(s.tiles[tid(&g, "T21")], Loc::Sheet(0));
    // Illegal variants: no scroll; an occupied destination; a destination
    // guarded by a red Skeletor.
    let teleports = |s: &State| -> Vec<u16> {
        legal(&g, s)
            .iter()
            .filter_map(|a| match a {
                Action::Teleport { to, .. } => Some(*to),
                _ => None,
            })
            .collect()
    };
    let v = Scenario::new(&g)
        .at("GRa", 21, 2)
        .build_in_action_phase()
        .unwrap();
    assert!(teleports(&v).is_empty());
    let scroll = || Scenario::new(&g).at("MGa", 1, 2).equip("MGa", "T21");
    let v = scroll().at("GKb", 5, 8).build_in_action_phase().unwrap();
    assert_eq!(
        teleports(&v),
        vec![sq(21, 2), sq(5, 9), sq(1, 15), sq(21, 15)]
    );
    let v = scroll()
        .skeletor("T34", 4, 8)
        .build_in_action_phase()
        .unwrap();
    assert_eq!(teleports(&v), vec![sq(21, 2), sq(1, 15), sq(21, 15)]);
}

#[test]
fn x10_forziere_movement_penalty() {
    let g = game("");
    let gka = ch("GKa");
    let forzieri = || Scenario::new(&g).equip("GKa", "T29").equip("GKa", "T30");
    let s = forzieri().build_in_action_phase().unwrap();
    assert_eq!(g.allowance(&s, gka), 2);
    assert_eq!(g.xp_items(&s, gka), 2);
    let mut s = forzieri().build().unwrap();
    event(&g, &mut s, 1); // E01 MOV +2
    assert_eq!(g.allowance(&s, gka), 4);
    let mut s = forzieri().equip("GKa", "T06").build().unwrap();
    event(&g, &mut s, 1);
    assert_eq!(g.allowance(&s, gka), 6);
    let s = forzieri()
        .equip("GKa", "T06")
        .build_in_action_phase()
        .unwrap();
    assert_eq!(g.allowance(&s, gka), 4);
    // Five forzieri and E10 (MOV −1): 4 − 5 − 1, raised to 1.
    let five = || {
        forzieri()
            .equip("GKa", "T26")
            .equip("GKa", "T27")
            .equip("GKa", "T28")
            .at("GKa", 14, 7)
    };
    let mut s = five().at("GKb", 14, 8).skittle(0, 4).build().unwrap();
    event(&g, &mut s, 6); // E10
    assert_eq!(g.allowance(&s, gka), 1);
    assert_eq!(g.xp_items(&s, gka), 5);
    let mut m = s.clone();
    play(&g, &mut m, Action::Move(gka as u8));
    assert_eq!(
        legal(&g, &m),
        [(14, 6), (13, 7), (15, 7)].map(|(x, y)| Action::Dest(sq(x, y)))
    );
    // An adrenaline self-move with A = 3 still goes 3 steps.
    play(&g, &mut s, Action::Attack { c: 4, d: 5 });
    roll(&g, &mut s, 12, 8); // 15 vs 12
    assert_eq!(s.combat.adr, 3);
    play(&g, &mut s, Action::Push(0));
    assert_eq!(s.phase, Phase::SelfMove);
    let l = legal(&g, &s);
    assert!(l.contains(&Action::Dest(sq(11, 7))));
    assert!(!l.contains(&Action::Dest(sq(10, 7))));
    // FREE_STEP still goes 2 steps.
    let mut f = five().skittle(0, 13).build().unwrap();
    play(&g, &mut f, Action::Die(1)); // E14
    assert_eq!(f.phase, Phase::FreeStep);
    play(&g, &mut f, Action::Char(gka as u8));
    let l = legal(&g, &f);
    assert!(l.contains(&Action::Dest(sq(12, 7))));
    assert!(!l.contains(&Action::Dest(sq(11, 7))));
}

#[test]
fn x11_portal_with_ten_xp_and_the_action_budget() {
    let g = game("");
    let ten = || Scenario::new(&g).xp(0, 10);
    let mut s = ten().at("MGa", 11, 7).build_in_action_phase().unwrap();
    assert!(!legal(&g, &s).contains(&Action::Portal(0)));
    play(&g, &mut s, Action::Move(0));
    play(&g, &mut s, Action::Dest(sq(11, 8)));
    play(&g, &mut s, Action::Portal(0));
    assert_eq!(g.turn(&s), Turn::Terminal);
    assert_eq!(&*g.returns(&s), &[1.0, 0.0]);
    // Variant a: no action left after reaching the square.
    let mut a = ten().at("MGa", 15, 8).build_in_action_phase().unwrap();
    play(&g, &mut a, Action::Move(2));
    play(&g, &mut a, Action::Dest(sq(11, 3)));
    play(&g, &mut a, Action::Move(0));
    play(&g, &mut a, Action::Dest(sq(11, 8)));
    assert!(!legal(&g, &a).contains(&Action::Portal(0)));
    // Variant c: both access squares occupied by red.
    let mut c = ten()
        .at("MGa", 12, 7)
        .at("GRb", 11, 8)
        .at("GKb", 11, 9)
        .build_in_action_phase()
        .unwrap();
    play(&g, &mut c, Action::Move(0));
    let l = legal(&g, &c);
    assert!(!l.contains(&Action::Dest(sq(11, 8))) && !l.contains(&Action::Dest(sq(11, 9))));
}

#[test]
fn x12_portal_nine_plus_one() {
    let g = game("");
    let nine = || {
        Scenario::new(&g)
            .xp(0, 9)
            .at("MGa", 11, 8)
            .equip("MGa", "T21")
            .at("GRa", 14, 7)
            .equip("GRa", "T26")
            .equip("GRa", "T27")
    };
    let mut s = nine().at("GKa", 14, 8).build_in_action_phase().unwrap();
    assert!(
        !legal(&g, &s).contains(&Action::Portal(0)),
        "GKa holds no XP item"
    );
    play(&g, &mut s, Action::Give { c: 2, p: 4 });
    play(&g, &mut s, Action::Tile(tid(&g, "T27") as u8));
    play(&g, &mut s, Action::Pass);
    assert_eq!(s.tiles[tid(&g, "T27")], Loc::Sheet(4));
    play(&g, &mut s, Action::Portal(0));
    assert_eq!(s.result, 0);
    // Edge a: an imprisoned GKa holding T29 counts.
    let e = nine()
        .prison("GKa", "MGb", 1)
        .equip("GKa", "T29")
        .build_in_action_phase()
        .unwrap();
    assert!(legal(&g, &e).contains(&Action::Portal(0)));
    // Edge b: 8 permanent XP and two scrolls is not enough.
    let b = Scenario::new(&g)
        .xp(0, 8)
        .at("MGa", 11, 8)
        .equip("MGa", "T21")
        .equip("MGa", "T22")
        .equip("GRa", "T23")
        .equip("GKa", "T24")
        .build_in_action_phase()
        .unwrap();
    assert!(!legal(&g, &b).contains(&Action::Portal(0)));
    // Edge c: the activator must carry the item.
    let c = Scenario::new(&g)
        .xp(0, 9)
        .at("GRa", 11, 9)
        .equip("MGa", "T21")
        .equip("GKa", "T24")
        .build_in_action_phase()
        .unwrap();
    assert!(!legal(&g, &c).contains(&Action::Portal(2)));
}

#[test]
fn x13_no_repeat_rule_and_budget() {
    let g = game("players=4,chars=GRa-MGb-GKa-GRb");
    // (MOVE, ATTACK): a second MOVE is refused, the attack is offered.
    let mut s = Scenario::new(&g)
        .at("GRa", 14, 7)
        .at("MGb", 12, 7)
        .build_in_action_phase()
        .unwrap();
    play(&g, &mut s, Action::Move(2));
    play(&g, &mut s, Action::Dest(sq(13, 7)));
    let l = legal(&g, &s);
    assert!(!l.contains(&Action::Move(2)));
    assert!(l.contains(&Action::Attack { c: 2, d: 1 }));
    // (ATTACK, MOVE).
    let mut a = Scenario::new(&g)
        .at("GRa", 13, 7)
        .at("MGb", 12, 7)
        .build_in_action_phase()
        .unwrap();
    play(&g, &mut a, Action::Attack { c: 2, d: 1 });
    roll(&g, &mut a, 2, 12); // 6 vs 14: MGb wins
    play(&g, &mut a, Action::Push(0));
    play(&g, &mut a, Action::Pass);
    assert_eq!(a.actions_left, 1);
    assert!(legal(&g, &a).contains(&Action::Move(2)));
    assert!(!legal(&g, &a).contains(&Action::Attack { c: 2, d: 1 }));
    // After E08 (3 actions): MOVE, ATTACK, EQUIP are fine; a second MOVE is not.
    let mut t = Scenario::new(&g)
        .at("GRa", 10, 4)
        .at("MGb", 7, 5)
        .activate("GRa", "T18")
        .skittle(0, 2)
        .build()
        .unwrap();
    event(&g, &mut t, 6); // E08
    assert_eq!(t.actions_left, 3);
    play(&g, &mut t, Action::Move(2));
    play(&g, &mut t, Action::Dest(sq(7, 4)));
    play(&g, &mut t, Action::Attack { c: 2, d: 1 });
    roll(&g, &mut t, 12, 2); // 16 vs 4; (7,6) is a wall, so no push
    assert_eq!(t.phase, Phase::SelfMove);
    play(&g, &mut t, Action::Pass);
    assert_eq!(t.actions_left, 1);
    let l = legal(&g, &t);
    assert!(!l.contains(&Action::Move(2)));
    assert!(l.contains(&Action::Equip(2)));
    play(&g, &mut t, Action::Equip(2));
    assert_eq!(t.tiles[tid(&g, "T18")], Loc::Sheet(2));
    assert_eq!(t.actions_left, 0);
    assert_eq!(legal(&g, &t), vec![Action::EndTurn]);
    // P2: two characters may both move, and both attack the same enemy.
    let g2 = game("");
    let u = Scenario::new(&g2)
        .at("GKb", 14, 8)
        .at("GRa", 14, 7)
        .at("GKa", 13, 8)
        .build_in_action_phase()
        .unwrap();
    let mut m = u.clone();
    play(&g2, &mut m, Action::Move(2));
    play(&g2, &mut m, Action::Dest(sq(15, 7)));
    play(&g2, &mut m, Action::Move(4));
    play(&g2, &mut m, Action::Dest(sq(12, 8)));
    assert_eq!(m.actions_left, 0);
    let mut u = u;
    play(&g2, &mut u, Action::Attack { c: 2, d: 5 });
    roll(&g2, &mut u, 2, 12); // 6 vs 16: GKb wins
    play(&g2, &mut u, Action::Push(0));
    play(&g2, &mut u, Action::Pass);
    play(&g2, &mut u, Action::Attack { c: 4, d: 5 });
    assert_eq!(u.actions_left, 0);
    // Free actions use neither actions nor action types.
    let potions = || {
        Scenario::new(&g2)
            .life("MGa", 3)
            .equip("MGa", "T07")
            .equip("MGa", "T08")
            .equip("MGa", "T09")
            .equip("MGa", "T10")
    };
    let mut f = potions().build_in_action_phase().unwrap();
    play(&g2, &mut f, Action::Potions(0));
    play(&g2, &mut f, Action::Tile(tid(&g2, "T07") as u8));
    play(&g2, &mut f, Action::Tile(tid(&g2, "T08") as u8));
    assert_eq!(f.ch[0].life, 4);
    assert_eq!(f.actions_left, 2);
    assert!(legal(&g2, &f).contains(&Action::Move(0)));
    let mut e = potions().build().unwrap();
    event(&g2, &mut e, 5); // E05: one action
    assert_eq!(e.actions_left, 1);
    play(&g2, &mut e, Action::Move(0));
    play(&g2, &mut e, Action::Dest(sq(4, 2)));
    assert_eq!(legal(&g2, &e), vec![Action::Potions(0), Action::EndTurn]);
}

#[test]
fn x14_activation_replacement_and_ownership() {
    let g = game("");
    // The supply's rings are T01 and T05; T02 is worn by `t02`.
    let table = |t02: &str| {
        Scenario::new(&g)
            .equip(t02, "T02")
            .equip("GRb", "T03")
            .equip("MGb", "T04")
            .equip("GKb", "T06")
            .activate("MGa", "T11")
            .at("MGa", 1, 4)
            .at("GRa", 1, 13)
            .build()
            .unwrap()
    };
    for t02 in ["GKa", "MGa"] {
        let mut s = table(t02);
        play(&g, &mut s, Action::Die(2)); // E02 WOUND, picture Ring
        assert_eq!(s.phase, Phase::Wound);
        assert_eq!(
            legal(&g, &s),
            vec![Action::Char(0), Action::Char(2), Action::Char(4)]
        );
        play(&g, &mut s, Action::Char(4));
        assert_eq!(s.ch[4].life, 4);
        assert_eq!(s.phase, Phase::Activate);
        let mut expect = vec![Action::Pass];
        for t in ["T01", "T05"] {
            for cell in [0, 2, 4] {
                expect.push(Action::Activate {
                    tile: tid(&g, t) as u8,
                    cell,
                });
            }
        }
        assert_eq!(legal(&g, &s), expect, "T01, T05 × three own cells");
        play(
            &g,
            &mut s,
            Action::Activate {
                tile: tid(&g, "T05") as u8,
                cell: 0,
            },
        );
        assert_eq!(s.tiles[tid(&g, "T11")], Loc::Supply);
        assert_eq!(s.tiles[tid(&g, "T05")], Loc::Slot(0));
        assert_eq!(s.phase, Phase::Action);
        let l = legal(&g, &s);
        assert!(!l.contains(&Action::Equip(2)), "T05 is in MGa's cell");
        assert!(l.contains(&Action::Equip(0)));
        play(&g, &mut s, Action::Equip(0));
        assert_eq!(s.tiles[tid(&g, "T05")], Loc::Sheet(0));
        assert_eq!(g.allowance(&s, 0), 7);
        let old = if t02 == "MGa" {
            Loc::Supply
        } else {
            Loc::Sheet(4)
        };
        assert_eq!(s.tiles[tid(&g, "T02")], old, "a replaced ring goes back");
    }
    // Exhausted supply: no activation step, the WOUND still applies.
    let mut e = Scenario::new(&g)
        .equip("MGb", "T01")
        .equip("GKb", "T02")
        .equip("GRb", "T03")
        .equip("MGa", "T04")
        .equip("GRa", "T05")
        .equip("GKa", "T06")
        .build()
        .unwrap();
    play(&g, &mut e, Action::Die(2));
    play(&g, &mut e, Action::Char(0));
    assert_eq!(e.ch[0].life, 4);
    assert_eq!(e.phase, Phase::Action);
}

#[test]
fn x15_potions_and_tomes() {
    let g = game("");
    let mut s = Scenario::new(&g)
        .at("MGa", 8, 4)
        .life("MGa", 3)
        .equip("MGa", "T07")
        .activate("MGa", "T11")
        .equip("GRa", "T15")
        .equip("GRa", "T18")
        .missions(0, &["M07", "M08"])
        .build_in_action_phase()
        .unwrap();
    assert!(!legal(&g, &s).contains(&Action::Potions(0)));
    play(&g, &mut s, Action::Move(0));
    play(&g, &mut s, Action::Dest(sq(7, 4)));
    play(&g, &mut s, Action::Equip(0));
    play(&g, &mut s, Action::Potions(0));
    assert_eq!(s.ch[0].life, 4);
    assert_eq!(s.tiles[tid(&g, "T07")], Loc::Supply);
    assert_eq!(s.tiles[tid(&g, "T11")], Loc::Supply);
    assert_eq!(s.xp[0], 3, "M07");
    drain(&g, &mut s);
    play(&g, &mut s, Action::Tomes { c: 2, stat: 1 });
    assert_eq!(s.ch[2].abil[1], 1);
    assert_eq!(g.def_eff(&s, 2), 4);
    assert_eq!(s.tiles[tid(&g, "T15")], Loc::Supply);
    assert_eq!(s.tiles[tid(&g, "T18")], Loc::Supply);
    assert_eq!(s.xp[0], 6, "M08");
    // Illegal: at life 5, and halves split over two characters.
    let t = Scenario::new(&g)
        .equip("MGa", "T07")
        .equip("MGa", "T08")
        .build_in_action_phase()
        .unwrap();
    assert!(!legal(&g, &t).contains(&Action::Potions(0)));
    let t = Scenario::new(&g)
        .life("MGa", 4)
        .equip("MGa", "T07")
        .life("GRa", 4)
        .equip("GRa", "T08")
        .build_in_action_phase()
        .unwrap();
    let l = legal(&g, &t);
    assert!(!l.contains(&Action::Potions(0)) && !l.contains(&Action::Potions(2)));
}

#[test]
fn x16_missions_reveal_draw_and_public_deck() {
    let g = game("");
    let mut s = Scenario::new(&g)
        .missions(0, &["M01", "M06", "M15"])
        .missions(1, &["M03", "M04", "M05"])
        .at("MGa", 11, 8)
        .at("GRa", 14, 7)
        .at("GKb", 14, 8)
        .at("GKa", 21, 4)
        .activate("GKa", "T03")
        .build()
        .unwrap();
    play(&g, &mut s, Action::Die(6)); // E06 HEAL: nobody hurt
    play(&g, &mut s, Action::Pass);
    assert_eq!(s.xp[0], 2, "M15 at the event-phase checkpoint");
    assert_eq!(s.phase, Phase::Drawing);
    play(&g, &mut s, Action::Draw(mid(&g, "M09")));
    play(&g, &mut s, Action::Attack { c: 2, d: 5 });
    roll(&g, &mut s, 10, 2);
    play(&g, &mut s, Action::Push(0));
    play(&g, &mut s, Action::Pass);
    assert_eq!(s.xp[0], 4, "M01");
    assert_eq!(s.phase, Phase::Drawing);
    play(&g, &mut s, Action::Draw(mid(&g, "M02")));
    play(&g, &mut s, Action::Equip(4));
    assert_eq!(s.xp[0], 6, "M06");
    drain(&g, &mut s);
    assert_eq!(s.piles[0].len(), 3);
    let known: Vec<&str> = s
        .deck_known
        .iter()
        .map(|&c| g.c.missions[c as usize].id.as_str())
        .collect();
    assert_eq!(known, ["M15", "M01", "M06"]);
    // Red sees the count and the revealed cards, not blue's new cards.
    let key = g.info_key(&s, 1);
    assert!(
        key.view.piles[0]
            .iter()
            .all(|c| c.id == determinize::HIDDEN)
    );
    assert_eq!(key.view.deck_known, s.deck_known);
    let mut rng = rng_from_seed(9);
    for _ in 0..20 {
        let d = g.determinize(&s, 1, &mut rng);
        assert_eq!(d.piles[1], s.piles[1]);
        assert_eq!(d.deck_known, s.deck_known);
        assert!(d.piles[0].iter().all(|c| !s.deck_known.contains(&c.id)));
        assert!(
            d.piles[0]
                .iter()
                .all(|c| !s.piles[1].iter().any(|o| o.id == c.id))
        );
    }
    // A card drawn at the checkpoint of a win does not count that win.
    let mut t = Scenario::new(&g)
        .missions(0, &["M16", "M09", "M10"])
        .at("GRa", 14, 7)
        .at("GKb", 14, 8)
        .build_in_action_phase()
        .unwrap();
    play(&g, &mut t, Action::Attack { c: 2, d: 5 });
    roll(&g, &mut t, 12, 2); // A = 10: M16
    play(&g, &mut t, Action::Push(0));
    play(&g, &mut t, Action::Pass);
    assert_eq!(t.xp[0], 3);
    play(&g, &mut t, Action::Draw(mid(&g, "M01")));
    assert_eq!(t.phase, Phase::Action);
    assert_eq!(t.xp[0], 3, "M01 was drawn after the win");
    play(&g, &mut t, Action::Move(0));
    play(&g, &mut t, Action::Dest(sq(4, 2)));
    assert_eq!(t.xp[0], 3, "and it needs a new win");
}

#[test]
fn x17_modifiers_across_turns_and_adrenaline_bonus() {
    let g = game("first=0");
    // P2 (red) to roll, its skittle on E04; blue's on E13.
    let mut s = Scenario::new(&g)
        .turn(1)
        .skittle(1, 4)
        .skittle(0, 13)
        .at("GRa", 14, 7)
        .abilities("GRa", [0, 1, 0])
        .at("GKb", 14, 8)
        .abilities("GKb", [1, 0, 0])
        .missions(0, &["M16", "M01"])
        .build()
        .unwrap();
    event(&g, &mut s, 3); // E07 DEF −2
    assert_eq!(s.def_mod[1], -2);
    play(&g, &mut s, Action::EndTurn);
    assert_eq!((s.seat, s.round), (0, 2));
    assert_eq!(g.def_eff(&s, 5), 2, "lasts through P1's turn");
    event(&g, &mut s, 3); // E16
    assert_eq!(s.adr_bonus, 2);
    assert_eq!(g.att_eff(&s, 2), 4);
    assert_eq!(g.def_eff(&s, 5), 2);
    play(&g, &mut s, Action::Attack { c: 2, d: 5 });
    roll(&g, &mut s, 6, 5); // 10 vs 7
    assert_eq!(s.combat.adr, 5);
    assert_eq!(s.ch[5].life, 4);
    play(&g, &mut s, Action::Push(0));
    play(&g, &mut s, Action::Pass);
    assert_eq!(s.xp[0], 5, "M16 and M01");
    drain(&g, &mut s);
    play(&g, &mut s, Action::EndTurn);
    assert_eq!(s.def_mod[1], 0, "reset at the start of P2's next turn");
    assert_eq!(g.def_eff(&s, 5), 4);
}

#[test]
fn x18_push_blocked_by_skeletor_and_defender_path() {
    let g = game("");
    let table = || {
        Scenario::new(&g)
            .skeletor("T32", 12, 9)
            .at("GKa", 15, 9)
            .abilities("GKa", [0, 1, 0])
            .at("GRb", 14, 9)
            .abilities("GRb", [1, 0, 0])
    };
    let s = table().build_in_action_phase().unwrap();
    let mut a = s.clone();
    play(&g, &mut a, Action::Attack { c: 4, d: 3 });
    roll(&g, &mut a, 12, 4); // 15 vs 7
    assert_eq!(a.combat.adr, 8);
    assert_eq!(a.phase, Phase::SelfMove, "push west is blocked at once");
    assert_eq!(
        g.canonical_path(&a, 4, sq(11, 10), 8).to_vec(),
        vec![2, 3, 3, 3, 3]
    );
    play(&g, &mut a, Action::Dest(sq(11, 10)));
    assert_eq!(a.ch[4].pos, sq(11, 10));
    assert_eq!(a.phase, Phase::Action, "no test: same colour");
    let mut b = s.clone();
    play(&g, &mut b, Action::Attack { c: 4, d: 3 });
    roll(&g, &mut b, 2, 11); // 5 vs 14
    assert_eq!(b.combat.adr, 9);
    assert_eq!(g.turn(&b), Turn::Player(1));
    assert_eq!(legal(&g, &b), (0..=6).map(Action::Push).collect::<Vec<_>>());
    play(&g, &mut b, Action::Push(2));
    assert_eq!(b.ch[4].pos, sq(17, 9));
    assert_eq!(
        g.canonical_path(&b, 3, sq(11, 9), 7).to_vec(),
        vec![0, 3, 3, 3, 2]
    );
    play(&g, &mut b, Action::Dest(sq(11, 9)));
    assert_eq!(b.ch[3].pos, sq(11, 9));
    assert_eq!(b.tiles[tid(&g, "T32")], Loc::Board(sq(12, 9)));
    assert_eq!(b.phase, Phase::Action);
    // A defender's long push never completes Shove (M04) for its side.
    let mut c = table()
        .missions(1, &["M04"])
        .build_in_action_phase()
        .unwrap();
    play(&g, &mut c, Action::Attack { c: 4, d: 3 });
    roll(&g, &mut c, 2, 11);
    play(&g, &mut c, Action::Push(3));
    play(&g, &mut c, Action::Pass);
    play(&g, &mut c, Action::EndTurn);
    play(&g, &mut c, Action::Die(1));
    while c.phase != Phase::Action {
        play(&g, &mut c, Action::Pass);
    }
    assert_eq!(c.xp[1], 0);
}

#[test]
fn x19_shared_skittle_in_an_odd_game() {
    let g = game("players=3,first=0");
    let mut s = Scenario::new(&g).build().unwrap();
    play(&g, &mut s, Action::Die(4));
    assert_eq!(s.phase, Phase::Summon(0));
    play(&g, &mut s, Action::Pass);
    play(&g, &mut s, Action::EndTurn);
    play(&g, &mut s, Action::Die(5));
    assert_eq!(s.skittle[0], 9);
    assert_eq!(s.phase, Phase::Activate);
    let cells: Vec<u8> = legal(&g, &s)
        .iter()
        .filter_map(|a| match a {
            Action::Activate { cell, .. } => Some(*cell),
            _ => None,
        })
        .collect();
    assert!(cells.iter().all(|&c| c == 2 || c == 3) && cells.contains(&2) && cells.contains(&3));
    play(&g, &mut s, Action::Pass);
    play(&g, &mut s, Action::EndTurn);
    pass_turn(&g, &mut s, 6);
    assert_eq!(s.skittle[0], 15);
    play(&g, &mut s, Action::Die(3));
    assert_eq!(s.skittle[0], 0);
    assert_eq!(s.skittle[1], 0, "the second skittle is unused");
}

#[test]
fn x20_event_edge_cases() {
    let g = game("");
    // WOUND with nobody at 2+ life.
    let mut s = Scenario::new(&g)
        .life("MGa", 1)
        .life("GRa", 1)
        .life("GKa", 1)
        .build()
        .unwrap();
    play(&g, &mut s, Action::Die(2));
    assert_eq!(s.phase, Phase::Activate, "no WOUND decision");
    assert!([0, 2, 4].iter().all(|&c| s.ch[c].life == 1));
    // HEAL with everyone at full life.
    let mut f = Scenario::new(&g).skittle(0, 4).build().unwrap();
    play(&g, &mut f, Action::Die(2));
    assert_eq!(f.phase, Phase::Activate);
    assert!(f.ch.iter().all(|c| c.life == 5));
    // HEAL with one character imprisoned: it is no target.
    let heal = || Scenario::new(&g).skittle(0, 4).prison("MGa", "MGb", 1);
    let mut h = heal().build().unwrap();
    play(&g, &mut h, Action::Die(2));
    assert_eq!(h.ch[0].life, 0);
    assert_eq!(h.phase, Phase::Activate);
    let mut h = heal().life("GRa", 4).build().unwrap();
    play(&g, &mut h, Action::Die(2));
    assert_eq!(h.phase, Phase::Activate, "GRa is the only target");
    assert_eq!((h.ch[0].life, h.ch[2].life), (0, 5));
    // SUMMON_BLUE with both blue Skeletors on the board: nothing to decide.
    let mut m = Scenario::new(&g)
        .skeletor("T32", 12, 8)
        .skeletor("T33", 12, 12)
        .build()
        .unwrap();
    play(&g, &mut m, Action::Die(4));
    assert_eq!(m.phase, Phase::Action);
    // No anchor may cover a character.
    let mut p = Scenario::new(&g).at("GRa", 13, 9).build().unwrap();
    play(&g, &mut p, Action::Die(4));
    assert_eq!(p.phase, Phase::Summon(0));
    let l = legal(&g, &p);
    for (x, y) in [(12, 8), (13, 8), (12, 9), (13, 9)] {
        assert!(!l.contains(&Action::Anchor(sq(x, y))), "({x},{y})");
    }
    assert!(l.contains(&Action::Anchor(sq(14, 7))));
}

#[test]
fn x21_imprisoned_characters_are_out_of_play() {
    let g = game("");
    let mgb = ch("MGb");
    let prisoner = || {
        Scenario::new(&g)
            .prison("MGb", "GRa", 2)
            .equip("MGb", "T24")
            .at("GRa", 11, 2)
    };
    // P1's turn: MGb cannot be attacked (nor, so, stolen from).
    let s = prisoner().build_in_action_phase().unwrap();
    assert!(
        !legal(&g, &s)
            .iter()
            .any(|a| matches!(a, Action::Attack { d: 1, .. }))
    );
    // P2's turn: its cell can still be activated; MGb neither acts nor trades.
    let mut r = prisoner()
        .turn(1)
        .equip("MGb", "T07")
        .equip("MGb", "T08")
        .at("GRb", 10, 2)
        .skittle(1, 14)
        .build()
        .unwrap();
    play(&g, &mut r, Action::Die(1)); // E15: potion picture
    let t09 = Action::Activate {
        tile: tid(&g, "T09") as u8,
        cell: mgb as u8,
    };
    assert!(legal(&g, &r).contains(&t09));
    play(&g, &mut r, t09);
    assert_eq!(r.tiles[tid(&g, "T09")], Loc::Slot(mgb as u8));
    assert_eq!(r.ch[mgb].prison, 3, "EP5");
    assert_eq!(r.phase, Phase::Action);
    let l = legal(&g, &r);
    assert!(!l.iter().any(|a| matches!(
        a,
        Action::Move(1)
            | Action::Equip(1)
            | Action::Potions(1)
            | Action::Give { c: 1, .. }
            | Action::Give { p: 1, .. }
    )));
    // 9+1 for red counts the prisoner's scroll.
    let nine = |scroll: bool| {
        let t = Scenario::new(&g)
            .turn(1)
            .prison("MGb", "GRa", 2)
            .xp(1, 9)
            .at("GRb", 11, 9)
            .equip("GRb", "T21")
            .equip("GKb", "T26");
        let t = if scroll { t.equip("MGb", "T24") } else { t };
        t.build_in_action_phase().unwrap()
    };
    assert!(legal(&g, &nine(true)).contains(&Action::Portal(3)));
    assert!(!legal(&g, &nine(false)).contains(&Action::Portal(3)));
    // M09 counts a prisoner's forzieri.
    let mut m = Scenario::new(&g)
        .turn(1)
        .prison("MGb", "GRa", 2)
        .equip("MGb", "T29")
        .equip("MGb", "T30")
        .missions(1, &["M09"])
        .skittle(1, 14)
        .build()
        .unwrap();
    event(&g, &mut m, 1);
    assert_eq!(m.xp[1], 3, "M09 at the event-phase checkpoint");
}

#[test]
fn x22_turn_cap_is_a_draw() {
    let g = game("players=4");
    let at_round_100 = |seat| {
        Scenario::new(&g)
            .round(100)
            .turn(seat)
            .build_in_action_phase()
            .unwrap()
    };
    let mut s = at_round_100(3);
    play(&g, &mut s, Action::EndTurn);
    assert_eq!(g.turn(&s), Turn::Terminal);
    assert_eq!(&*g.returns(&s), &[0.25, 0.25, 0.25, 0.25]);
    let mut t = at_round_100(2);
    play(&g, &mut t, Action::EndTurn);
    assert_eq!(g.turn(&t), Turn::Chance);
    assert_eq!((t.seat, t.phase, t.round), (3, Phase::EventDie, 100));
}

// ----- setup, hidden information, soak -----

#[test]
fn setup_places_markers_deals_and_rolls_off() {
    let g = game("players=4,mode=teams");
    let mut s = g.initial_state(&mut rng_from_seed(1));
    assert_eq!(s.phase, Phase::SetupStat(ch("MGb") as u8));
    assert_eq!(g.turn(&s), Turn::Player(1));
    while let Phase::SetupStat(_) = s.phase {
        play(&g, &mut s, Action::Stat(2));
    }
    assert_eq!(s.phase, Phase::Drawing);
    drain(&g, &mut s);
    assert_eq!(s.piles[0].len(), 2);
    assert_eq!(s.piles[1].len(), 2);
    assert_eq!(s.phase, Phase::FirstPlayer);
    assert_eq!(g.chance_outcomes(&s).len(), 4);
    play(&g, &mut s, Action::First(2));
    assert_eq!(s.seat, 2);
    assert_eq!(s.phase, Phase::EventDie);
    assert_eq!(s.ch[ch("GRa")].abil, [0, 0, 1]);
    assert_eq!(s.ch[ch("MGa")].abil, [0, 0, 0], "unused character");
    assert_eq!(s.ch[ch("GRa")].pos, sq(11, 2));
}

/// The game's invariants, and XP never lost from one step to the next.
fn check_invariants(g: &Karmox, s: &State, prev_xp: &[u8; 6], ctx: &str) {
    if let Err(e) = g.check_invariants(s) {
        panic!("{ctx}: {e}");
    }
    for (now, before) in s.xp.iter().zip(prev_xp) {
        assert!(now >= before, "{ctx}: XP lost");
    }
}

#[test]
fn soak_invariants_in_every_configuration() {
    use crate::rng::below;
    for (spec, games) in [
        ("max_rounds=40", 60),
        ("players=3,max_rounds=30", 40),
        ("players=4,max_rounds=25", 30),
        ("players=4,mode=teams,max_rounds=25", 30),
        ("players=5,max_rounds=20", 30),
        ("players=6,max_rounds=15", 30),
        ("players=6,mode=teams,max_rounds=15", 30),
        ("players=6,mode=clones,max_rounds=15", 30),
    ] {
        let g = game(spec);
        let mut rng = rng_from_seed(11);
        let (mut wins, mut combats, mut pair_choices) = (0, 0, 0);
        for n in 0..games {
            let mut s = g.initial_state(&mut rng);
            // Every third game starts with 10 XP per side so the portal is reachable.
            if n % 3 == 2 {
                s.xp = [10; 6];
            }
            // Every other third game gives a character three potions and
            // three tomes, so that the choice of halves comes up.
            if n % 3 == 1 {
                let c = (0..6).find(|&c| s.ch[c].in_play).unwrap();
                for id in ["T07", "T09", "T11", "T15", "T16", "T18"] {
                    s.tiles[tid(&g, id)] = Loc::Sheet(c as u8);
                }
                s.ch[c].life = 3;
            }
            let mut step = 0;
            loop {
                let prev = s.xp;
                let a = match g.turn(&s) {
                    Turn::Terminal => break,
                    Turn::Chance => g.sample_chance(&s, &mut rng),
                    Turn::Player(_) => {
                        let l = g.legal_actions(&s);
                        let portal = l.iter().find(|a| matches!(a, Action::Portal(_)));
                        // Prefer acting over ending the turn so games go somewhere.
                        let non_end: Vec<_> = l.iter().filter(|a| **a != Action::EndTurn).collect();
                        if let Some(&p) = portal {
                            p
                        } else if !non_end.is_empty() && below(&mut rng, 8) != 0 {
                            *non_end[below(&mut rng, non_end.len())]
                        } else {
                            l[below(&mut rng, l.len())]
                        }
                    }
                };
                if matches!(a, Action::Roll { .. }) {
                    combats += 1;
                }
                g.apply(&mut s, a);
                if matches!(s.phase, Phase::PlayPair { first: None, .. }) {
                    pair_choices += 1;
                }
                step += 1;
                check_invariants(
                    &g,
                    &s,
                    &prev,
                    &format!("{spec} game {n} step {step} after {a:?}"),
                );
            }
            if s.result < 6 {
                wins += 1;
                let r = g.returns(&s);
                for p in 0..g.n {
                    let expect = if g.side(p as u8) == s.result {
                        1.0
                    } else {
                        0.0
                    };
                    assert_eq!(r[p], expect, "{spec}");
                }
            }
        }
        assert!(combats > 0, "{spec}: no combat in the soak");
        assert!(pair_choices > 0, "{spec}: no choice of halves in the soak");
        assert!(wins > 0, "{spec}: no portal win in the soak");
        println!(
            "{spec}: {games} games, {wins} portal wins, {combats} combat rolls, {pair_choices} pair choices"
        );
    }
}

#[test]
fn teammates_share_the_pile_and_views_hide_rivals_cards() {
    let g = game("players=4,mode=teams,first=0");
    let mut s = g.initial_state(&mut rng_from_seed(4));
    let mut rng = rng_from_seed(4);
    while g.turn(&s) != Turn::Chance || s.phase != Phase::EventDie {
        let a = match g.turn(&s) {
            Turn::Chance => g.sample_chance(&s, &mut rng),
            _ => g.legal_actions(&s)[0],
        };
        g.apply(&mut s, a);
    }
    // Seats 0 and 2 are one team: same knowledge, same views.
    assert_eq!(g.info_key(&s, 0), g.info_key(&s, 2));
    assert_ne!(g.info_key(&s, 0), g.info_key(&s, 1));
    let own = s.piles[0].clone();
    let mut changed = false;
    for seed in 0..10 {
        let d = g.determinize(&s, 2, &mut rng_from_seed(seed));
        assert_eq!(d.piles[0], own);
        assert_eq!(g.info_key(&d, 0), g.info_key(&s, 0));
        changed |= d.piles[1] != s.piles[1];
    }
    assert!(changed, "rival cards are resampled");
    // The render shows the viewer's cards only.
    let text = g.render(&s, Some(1));
    let name = |c: &Card| g.c.missions[c.id as usize].name.clone();
    assert!(s.piles[1].iter().all(|c| text.contains(&name(c))));
    assert!(s.piles[0].iter().all(|c| !text.contains(&name(c))));
}

#[test]
fn render_labels_and_heuristic() {
    let g = game("");
    let mut s = base(&g, 0);
    s.tiles[tid(&g, "T34")] = Loc::Board(sq(12, 8));
    let text = g.render(&s, None);
    let rows: Vec<&str> = text.lines().collect();
    // Column letters above the map, row numbers on both sides of it.
    assert_eq!(rows[2], "   abcdefghijklmnopqrstuvw");
    assert!(rows[3].starts_with(" 1 #") && rows[3].ends_with("# 1"));
    let map_row = |y: usize| &rows[3 + y][3..];
    assert_eq!(&map_row(2)[3..4], "m", "MGa on its front square");
    assert_eq!(&map_row(15)[11..12], "G", "GRb on its front square");
    assert_eq!(&map_row(8)[12..14], "SS", "red Skeletor");
    assert!(text.contains("Side 1: 0 permanent XP"));
    // A square's key is the edges' letters and number: (11,8) is l9.
    assert_eq!(g.c.board.key(sq(11, 8)), "l9");
    assert_eq!(
        crate::view::move_keys(&g, &s, &[Action::Dest(sq(11, 8))]),
        ["l9"]
    );
    assert_eq!(
        g.action_label(&s, Action::Attack { c: 2, d: 5 }),
        "GRa attacks GKb"
    );
    assert_eq!(g.action_label(&s, Action::Dest(sq(11, 8))), "to l9");
    // More permanent XP is better, and views are in [-1, 1].
    let even = g.heuristic(&s, 0);
    s.xp[0] = 6;
    assert!(g.heuristic(&s, 0) > even);
    assert!(g.heuristic(&s, 1) < 0.0);
    assert_eq!(g.score(&s, 0), 6.0);
    s.xp[1] = 40;
    assert!((-1.0..=1.0).contains(&g.heuristic(&s, 0)));
}

#[test]
fn give_trade_ring_rule_and_choices() {
    let g = game("");
    let mut s = base(&g, 0);
    place(&mut s, "MGa", 8, 7);
    place(&mut s, "GRa", 9, 7);
    equip(&g, &mut s, "T01", "MGa");
    equip(&g, &mut s, "T03", "GRa");
    // Ring for ring: a plain swap.
    let mut t = s.clone();
    play(&g, &mut t, Action::Give { c: 0, p: 2 });
    assert_eq!(
        legal(&g, &t),
        vec![Action::Pass, Action::Tile(tid(&g, "T01") as u8)]
    );
    play(&g, &mut t, Action::Tile(tid(&g, "T01") as u8));
    assert_eq!(
        legal(&g, &t),
        vec![Action::Pass, Action::Tile(tid(&g, "T03") as u8)]
    );
    play(&g, &mut t, Action::Tile(tid(&g, "T03") as u8));
    assert_eq!(t.tiles[tid(&g, "T01")], Loc::Sheet(2));
    assert_eq!(t.tiles[tid(&g, "T03")], Loc::Sheet(0));
    assert_eq!(t.actions_left, 1);
    assert!(
        !legal(&g, &t)
            .iter()
            .any(|a| matches!(a, Action::Give { c: 0, .. }))
    );
    // Giving a ring to a ring wearer sends the old one to the supply.
    let mut u = s.clone();
    play(&g, &mut u, Action::Give { c: 0, p: 2 });
    play(&g, &mut u, Action::Tile(tid(&g, "T01") as u8));
    play(&g, &mut u, Action::Pass);
    assert_eq!(u.tiles[tid(&g, "T01")], Loc::Sheet(2));
    assert_eq!(u.tiles[tid(&g, "T03")], Loc::Supply);
    // No trading with enemies, nor with a non-adjacent friend.
    place(&mut s, "GRb", 8, 8);
    equip(&g, &mut s, "T07", "GRb");
    place(&mut s, "GKa", 12, 7);
    let l = legal(&g, &s);
    assert!(!l.contains(&Action::Give { c: 0, p: 3 }));
    assert!(!l.contains(&Action::Give { c: 0, p: 4 }));
    // Nothing to exchange: not offered.
    let mut e = base(&g, 0);
    place(&mut e, "MGa", 8, 7);
    place(&mut e, "GRa", 9, 7);
    assert!(
        !legal(&g, &e)
            .iter()
            .any(|a| matches!(a, Action::Give { .. }))
    );
}

#[test]
fn unlock_choice_heal_choice_and_free_step_with_a_test() {
    let g = game("");
    let mut s = base(&g, 1);
    s.phase = Phase::EventDie;
    for (id, cell) in [("MGb", 0u8), ("GRb", 2u8)] {
        let c = &mut s.ch[ch(id)];
        c.prison = 3;
        c.prison_cell = cell;
        c.pos = NO_SQ;
        c.life = 0;
    }
    s.skittle[1] = 3;
    play(&g, &mut s, Action::Die(6)); // E09 UNLOCK
    assert_eq!(s.phase, Phase::Unlock);
    assert_eq!(legal(&g, &s), vec![Action::Cell(0), Action::Cell(2)]);
    play(&g, &mut s, Action::Cell(2));
    assert_eq!(s.ch[ch("GRb")].prison, 0);
    assert_eq!(s.ch[ch("GRb")].life, 2);
    assert_eq!(
        s.ch[ch("GRb")].pos,
        sq(10, 2),
        "GRa stands on its front square"
    );
    assert_eq!(s.ch[ch("MGb")].prison, 3);
    play(&g, &mut s, Action::Pass); // EP4 ring
    assert_eq!(s.ch[ch("MGb")].prison, 4, "EP5 advances the other prisoner");
    // HEAL with two hurt characters asks for the target.
    let mut h = base(&g, 0);
    h.phase = Phase::EventDie;
    h.skittle[0] = 5;
    h.ch[0].life = 3;
    h.ch[2].life = 4;
    play(&g, &mut h, Action::Die(1));
    assert_eq!(legal(&g, &h), vec![Action::Char(0), Action::Char(2)]);
    play(&g, &mut h, Action::Char(2));
    assert_eq!(h.ch[2].life, 5);
    // FREE_STEP through a guarding Skeletor: the test, then EP4.
    let mut f = base(&g, 0);
    f.phase = Phase::EventDie;
    f.skittle[0] = 13;
    f.tiles[tid(&g, "T34")] = Loc::Board(sq(12, 8));
    place(&mut f, "GKa", 14, 8);
    hold(&g, &mut f, 0, &["M12"]);
    play(&g, &mut f, Action::Die(1)); // E14 FREE_STEP
    assert_eq!(f.phase, Phase::FreeStep);
    play(&g, &mut f, Action::Char(4));
    play(&g, &mut f, Action::Dest(sq(12, 8)));
    assert_eq!(f.phase, Phase::SkelTest);
    play(&g, &mut f, Action::Test(true));
    assert_eq!(f.ch[4].pos, sq(12, 8));
    assert_eq!(f.phase, Phase::Activate, "E14 pictures a ring");
    play(&g, &mut f, Action::Pass);
    assert_eq!(f.xp[0], 4, "M12 at the event-phase checkpoint");
}

#[test]
fn clone_teams_liberate_their_clone() {
    let g = game("players=6,mode=clones,first=0");
    // Seat 0 MGa and seat 3 MGb are Team MG.
    assert_eq!(g.side(0), g.side(3));
    let mut s = base(&g, 0);
    let mgb = ch("MGb");
    s.ch[mgb].prison = 1;
    s.ch[mgb].prison_cell = ch("GKa") as u8;
    s.ch[mgb].pos = NO_SQ;
    s.ch[mgb].life = 0;
    park(&mut s, "GKa", 14, 7);
    place(&mut s, "MGa", 19, 2);
    assert!(!legal(&g, &s).contains(&Action::Liberate(4)));
    s.liberation = true;
    play(&g, &mut s, Action::Liberate(4));
    assert_eq!(s.ch[mgb].life, 2);
    assert_eq!(s.ch[mgb].pos, sq(18, 2));
}

#[test]
fn metrics_match_an_independent_count_of_the_action_log() {
    use crate::rng::below;
    use std::collections::BTreeMap;
    let mut saw: BTreeMap<&str, f64> = BTreeMap::new();
    for spec in [
        "max_rounds=40",
        "players=3,max_rounds=30",
        "players=4,mode=teams,max_rounds=25",
    ] {
        let g = game(spec);
        let mut rng = rng_from_seed(23);
        for n in 0..40 {
            let mut s = g.initial_state(&mut rng);
            if n % 3 == 2 {
                s.xp = [10; 6];
            }
            let start_xp = s.xp;
            // Counted from the log, per character or per seat.
            let mut per_ch: BTreeMap<&str, [f64; 6]> = BTreeMap::new();
            let mut per_seat: BTreeMap<&str, [f64; 6]> = BTreeMap::new();
            loop {
                let a = match g.turn(&s) {
                    Turn::Terminal => break,
                    Turn::Chance => g.sample_chance(&s, &mut rng),
                    Turn::Player(_) => {
                        let l = g.legal_actions(&s);
                        let non_end: Vec<_> = l.iter().filter(|a| **a != Action::EndTurn).collect();
                        if !non_end.is_empty() && below(&mut rng, 8) != 0 {
                            *non_end[below(&mut rng, non_end.len())]
                        } else {
                            l[below(&mut rng, l.len())]
                        }
                    }
                };
                let before = s.clone();
                g.apply(&mut s, a);
                let seat = before.seat as usize;
                let mut ch = |k: &'static str, c: usize| per_ch.entry(k).or_default()[c] += 1.0;
                match (before.phase, a) {
                    (_, Action::Attack { c, .. }) => ch("attacks", c as usize),
                    (_, Action::Equip(c)) if before.tiles.contains(&Loc::Slot(c)) => {
                        ch("items_equipped", c as usize)
                    }
                    (Phase::Steal, Action::Tile(_)) => {
                        ch("items_stolen", before.combat.att as usize)
                    }
                    (Phase::EventDie, Action::Die(_)) => {
                        for c in 0..6 {
                            let x = before.ch[c];
                            if x.in_play && x.seat == before.seat && x.prison > 0 {
                                ch("prison_turns", c);
                            }
                        }
                    }
                    (Phase::CombatRoll, Action::Roll { .. }) if s.phase != Phase::CombatRoll => {
                        let (att, def) = (before.combat.att as usize, before.combat.def as usize);
                        // The loser of a won attack loses a life; a lost attack costs none.
                        let (w, l) = if s.ch[def].life < before.ch[def].life {
                            (att, def)
                        } else {
                            (def, att)
                        };
                        ch("fights_won", w);
                        ch("fights_lost", l);
                        if s.ch[def].prison > 0 && before.ch[def].prison == 0 {
                            ch("defeats", att);
                            ch("imprisoned", def);
                        }
                    }
                    (Phase::SkelTest, Action::Test(true)) => {
                        let gone = (0..g.c.tiles.len())
                            .filter(|&t| {
                                matches!(before.tiles[t], Loc::Board(_))
                                    && s.tiles[t] == Loc::Supply
                            })
                            .count();
                        for _ in 0..gone {
                            ch("skeletors_eliminated", before.walk.ch as usize);
                        }
                    }
                    (Phase::Summon(_), Action::Anchor(_)) => {
                        per_seat.entry("skeletors_summoned").or_default()[seat] += 1.0
                    }
                    _ => {}
                }
                // Completed missions leave the active side's pile.
                let side = g.seat_side[seat] as usize;
                let left = before.piles[side]
                    .iter()
                    .filter(|c| !s.piles[side].iter().any(|d| d.id == c.id))
                    .count();
                per_seat.entry("missions_completed").or_default()[seat] += left as f64;
            }
            for p in 0..g.n {
                let ctx = format!("{spec} game {n} seat {p}");
                let m: BTreeMap<&str, f64> = g.metrics(&s, p as u8).into_iter().collect();
                for (k, v) in &per_ch {
                    let want: f64 = g.seat_chars(p).map(|c| v[c]).sum();
                    assert_eq!(m[k], want, "{ctx}: {k}");
                }
                for (k, v) in &per_seat {
                    assert_eq!(m[k], v[p], "{ctx}: {k}");
                }
                let side = g.seat_side[p];
                let side_xp: f64 = (0..g.n)
                    .filter(|&q| g.seat_side[q] == side)
                    .map(|q| {
                        g.metrics(&s, q as u8)
                            .into_iter()
                            .find(|x| x.0 == "mission_xp")
                            .unwrap()
                            .1
                    })
                    .sum();
                let gained = f64::from(s.xp[side as usize] - start_xp[side as usize]);
                assert_eq!(side_xp, gained, "{ctx}");
                assert_eq!(m["xp_permanent"], f64::from(s.xp[side as usize]), "{ctx}");
                let items = g
                    .seat_chars(p)
                    .flat_map(|c| g.sheet(&s, c))
                    .filter(|&t| matches!(g.c.tiles[t].kind, Kind::Scroll | Kind::Forziere))
                    .count() as f64;
                assert_eq!(m["xp_items"], items, "{ctx}");
                assert_eq!(m["xp_total"], m["xp_permanent"] + items, "{ctx}");
                for k in [
                    "attacks",
                    "fights_won",
                    "fights_lost",
                    "defeats",
                    "imprisoned",
                    "prison_turns",
                    "items_equipped",
                    "items_stolen",
                    "skeletors_summoned",
                    "skeletors_eliminated",
                    "missions_completed",
                ] {
                    *saw.entry(k).or_default() += m[k];
                }
            }
        }
    }
    // The random games exercise every counter.
    for (k, v) in &saw {
        assert!(*v > 0.0, "{k} never counted: {saw:?}");
    }
}

#[test]
fn invariants_catch_broken_states() {
    let g = game("players=4");
    let s = g.initial_state(&mut rng_from_seed(1));
    assert_eq!(g.check_invariants(&s), Ok(()));
    let mut lost = s.clone();
    lost.deck_unknown &= lost.deck_unknown - 1;
    assert!(
        g.check_invariants(&lost)
            .unwrap_err()
            .contains("mission cards")
    );
    // Play on until two characters stand on the board, then put one on the other.
    let mut rng = rng_from_seed(2);
    let mut later = s.clone();
    while (0..6).filter(|&c| later.ch[c].on_board()).count() < 2 {
        let a = match g.turn(&later) {
            Turn::Chance => g.sample_chance(&later, &mut rng),
            _ => g.legal_actions(&later)[0],
        };
        g.apply(&mut later, a);
    }
    let on: Vec<usize> = (0..6).filter(|&c| later.ch[c].on_board()).collect();
    later.ch[on[1]].pos = later.ch[on[0]].pos;
    assert!(g.check_invariants(&later).unwrap_err().contains("shares"));
    let mut hurt = s.clone();
    hurt.ch[0].life = 9;
    assert!(
        g.check_invariants(&hurt)
            .unwrap_err()
            .contains("out of range")
    );
    let c = (0..6).find(|&c| s.ch[c].in_play).unwrap();
    let mut moved = s.clone();
    moved.ch[c].seat = (moved.ch[c].seat + 1) % 4;
    assert!(g.check_invariants(&moved).unwrap_err().contains("dealt to"));
    let mut turned = s.clone();
    turned.ch[c].side ^= 1;
    assert!(
        g.check_invariants(&turned)
            .unwrap_err()
            .contains("dealt to")
    );
    let mut seat = s.clone();
    seat.seat = 4;
    assert!(
        g.check_invariants(&seat)
            .unwrap_err()
            .contains("4-seat table")
    );
}

/// A29: the turn cap ends the game in a draw, flagged truncated; a portal
/// activation is a real ending.
#[test]
fn turn_cap_draw_is_flagged_truncated() {
    let g = game("max_rounds=1");
    let mut rng = rng_from_seed(3);
    let mut s = g.initial_state(&mut rng);
    while g.turn(&s) != Turn::Terminal {
        let a = match g.turn(&s) {
            Turn::Chance => g.sample_chance(&s, &mut rng),
            _ => g.legal_actions(&s)[0],
        };
        g.apply(&mut s, a);
    }
    assert!(g.truncated(&s));
    assert_eq!(g.returns(&s)[0], g.returns(&s)[1]);
    let mut won = s.clone();
    won.result = 0;
    assert!(!g.truncated(&won));
}

// ----- choosing the halves of a pair -----

#[test]
fn pair_play_lets_the_owner_choose_which_halves_stay() {
    let g = game("");
    let t = |id: &str| Action::Tile(tid(&g, id) as u8);
    let kept = |s: &State, c: usize| -> Vec<String> {
        g.sheet(s, c).map(|x| g.c.tiles[x].id.clone()).collect()
    };
    // GRa holds three tomes: T15 (steal cost 2), T16 (3) and T18 (2).
    let s = Scenario::new(&g)
        .equip("GRa", "T15")
        .equip("GRa", "T16")
        .equip("GRa", "T18")
        .missions(0, &["M08"])
        .build_in_action_phase()
        .unwrap();
    let mut a = s.clone();
    play(&g, &mut a, Action::Tomes { c: 2, stat: 1 });
    assert_eq!(
        a.phase,
        Phase::PlayPair {
            c: 2,
            stat: Some(1),
            first: None
        }
    );
    assert_eq!(a.ch[2].abil[1], 0, "nothing is played before the choice");
    assert_eq!(g.turn(&a), Turn::Player(0));
    assert_eq!(legal(&g, &a), vec![t("T15"), t("T16")]);
    assert_eq!(
        g.action_label(&a, t("T16")),
        "play T16(tome) (steal cost 3)"
    );
    let mut outcomes = Vec::new();
    for first in legal(&g, &a) {
        let mut b = a.clone();
        play(&g, &mut b, first);
        for second in legal(&g, &b) {
            let mut c = b.clone();
            play(&g, &mut c, second);
            g.check_invariants(&c).unwrap();
            assert_eq!(c.ch[2].abil[1], 1, "one ability point");
            assert_eq!(c.xp[0], 3, "M08 completes");
            outcomes.push((first, second, kept(&c, 2)));
        }
    }
    assert_eq!(
        outcomes,
        vec![
            (t("T15"), t("T16"), vec!["T18".to_string()]),
            (t("T15"), t("T18"), vec!["T16".to_string()]),
            (t("T16"), t("T18"), vec!["T15".to_string()]),
        ],
        "each pair is offered once and the other tile stays"
    );
    // Four potions at life 3: keep the two that cost 3 to steal.
    let mut p = Scenario::new(&g)
        .life("MGa", 3)
        .equip("MGa", "T07")
        .equip("MGa", "T09")
        .equip("MGa", "T11")
        .equip("MGa", "T13")
        .build_in_action_phase()
        .unwrap();
    play(&g, &mut p, Action::Potions(0));
    assert_eq!(legal(&g, &p), vec![t("T07"), t("T09"), t("T11")]);
    play(&g, &mut p, t("T07"));
    assert_eq!(legal(&g, &p), vec![t("T09"), t("T11"), t("T13")]);
    play(&g, &mut p, t("T11"));
    assert_eq!(p.ch[0].life, 4);
    assert_eq!(kept(&p, 0), ["T09", "T13"]);
    assert_eq!(p.tiles[tid(&g, "T07")], Loc::Supply);
    assert_eq!(p.phase, Phase::Action);
    // Exactly two halves: no choice to make, played at once.
    play(&g, &mut p, Action::Potions(0));
    assert_eq!(p.ch[0].life, 5);
    assert!(kept(&p, 0).is_empty());
    assert_eq!(p.phase, Phase::Action);
    // A choice of halves the character does not hold is a broken state.
    let mut bad = a.clone();
    bad.tiles[tid(&g, "T16")] = Loc::Supply;
    bad.tiles[tid(&g, "T18")] = Loc::Supply;
    assert!(g.check_invariants(&bad).is_err());
}

// ----- the public scenario builder -----

#[test]
fn scenario_builder_runs_the_turn_start_and_refuses_broken_positions() {
    let g = game("players=4,mode=teams");
    // Seats: GKa (blue), MGb (red), GRa (blue), GRb (red); sides blue 0, red 1.
    let s = Scenario::new(&g)
        .turn(3)
        .round(4)
        .at("MGb", 11, 8)
        .life("MGb", 2)
        .level("MGb", 2)
        .abilities("MGb", [1, 0, 2])
        .prison("GRb", "GKa", 2)
        .equip("GRa", "T21")
        .activate("GKa", "T01")
        .skeletor("T32", 12, 9)
        .xp(1, 7)
        .missions(0, &["M01", "M02"])
        .missions(1, &["M03"])
        .deck_bottom(&["M15"])
        .skittle(1, 5)
        .build()
        .unwrap();
    assert_eq!((s.seat, s.round, s.phase), (3, 4, Phase::EventDie));
    assert_eq!(g.turn(&s), Turn::Chance);
    assert_eq!(s.actions_left, 2);
    assert_eq!(
        s.tally.prison_turns[ch("GRb")],
        1,
        "its turn began in prison"
    );
    assert_eq!(s.ch[ch("GRb")].prison, 2);
    assert_eq!(s.ch[ch("MGb")].abil, [1, 0, 2]);
    assert_eq!(s.tiles[tid(&g, "T01")], Loc::Slot(ch("GKa") as u8));
    assert_eq!(s.tiles[tid(&g, "T32")], Loc::Board(sq(12, 9)));
    assert_eq!(s.piles[1].len(), 1);
    assert_eq!(s.deck_known.to_vec(), vec![mid(&g, "M15")]);
    assert_eq!(s.deck_unknown.count_ones(), 12);
    assert_eq!((s.xp[1], s.skittle[1]), (7, 5));
    // The rules continue from it.
    let mut t = s.clone();
    play(&g, &mut t, Action::Die(1));
    g.check_invariants(&t).unwrap();

    let cases: Vec<(Scenario, &str)> = vec![
        (Scenario::new(&g).at("GKa", 0, 0), "unwalkable"),
        (Scenario::new(&g).at("GKa", 30, 2), "off the"),
        (Scenario::new(&g).at("MGa", 3, 2), "not in play"),
        (Scenario::new(&g).life("XYZ", 3), "unknown character"),
        (
            Scenario::new(&g).at("GKa", 11, 8).at("GRa", 11, 8),
            "shares",
        ),
        (Scenario::new(&g).life("GKa", 0), "no life"),
        (Scenario::new(&g).life("GKa", 6), "out of range"),
        (
            Scenario::new(&g).abilities("GKa", [4, 0, 0]),
            "out of range",
        ),
        (
            Scenario::new(&g).equip("GRa", "T01").equip("GRa", "T02"),
            "two rings",
        ),
        (Scenario::new(&g).equip("GRa", "T32"), "Skeletor"),
        (Scenario::new(&g).equip("GRa", "T99"), "unknown item tile"),
        (Scenario::new(&g).skeletor("T01", 12, 9), "not a Skeletor"),
        (Scenario::new(&g).skeletor("T32", 0, 0), "anchor"),
        (
            Scenario::new(&g)
                .missions(0, &["M01"])
                .missions(1, &["M01"]),
            "placed twice",
        ),
        (
            Scenario::new(&g).missions(0, &["M01", "M02", "M03", "M04"]),
            "more than 3",
        ),
        (Scenario::new(&g).missions(2, &["M01"]), "side 2"),
        (Scenario::new(&g).prison("GKa", "MGb", 0), "timer"),
        (
            Scenario::new(&g).prison("GKa", "MGb", 2).life("GKa", 3),
            "in prison with 3 life",
        ),
        (
            Scenario::new(&g)
                .skeletor("T32", 12, 9)
                .skeletor("T33", 13, 8),
            "overlap",
        ),
        (
            Scenario::new(&g).skeletor("T34", 12, 9).at("GKa", 13, 10),
            "guarded",
        ),
        (Scenario::new(&g).turn(4), "seat 4"),
        (Scenario::new(&g).round(0), "round 0"),
        (Scenario::new(&g).skittle(2, 0), "skittle"),
    ];
    for (scenario, why) in cases {
        let e = scenario.build().expect_err(why);
        assert!(e.contains(why), "{why}: {e}");
    }
}

/// Each Skeletor's crossing test passes on the faces its tile prints
/// (`test_faces` in the items data), not on a fixed 1 or 6.
#[test]
fn skeletor_test_faces_come_from_the_items_data() {
    let dir = std::env::temp_dir().join(format!("karmox-faces-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let write = |name: &str, faces: serde_json::Value| {
        let mut v: serde_json::Value = serde_json::from_str(data::ITEMS_JSON).unwrap();
        v[33]["test_faces"] = faces; // T34, red
        let path = dir.join(name);
        std::fs::write(&path, v.to_string()).unwrap();
        format!("items={}", path.display())
    };
    let test_at = |g: &Karmox| {
        // Blue GKa steps west into the red Skeletor's square (13,8).
        let mut s = Scenario::new(g)
            .skeletor("T34", 12, 8)
            .at("GKa", 14, 8)
            .build_in_action_phase()
            .unwrap();
        play(g, &mut s, Action::Move(4));
        play(g, &mut s, Action::Dest(sq(12, 8)));
        assert_eq!(s.phase, Phase::SkelTest);
        s
    };
    let six = game(&write("six.json", serde_json::json!([6])));
    let s = test_at(&six);
    let pass = |g: &Karmox, s: &State| {
        g.chance_outcomes(s)
            .iter()
            .find(|o| o.0 == Action::Test(true))
            .unwrap()
            .1
    };
    assert!((pass(&six, &s) - 11.0 / 36.0).abs() < 1e-12);
    assert!((pass(&game(""), &test_at(&game(""))) - 5.0 / 9.0).abs() < 1e-12);
    // Sampling agrees: 3600 tests, 4 standard deviations (about 0.031).
    let mut rng = rng_from_seed(3);
    let n = 3600;
    let passes = (0..n)
        .filter(|_| six.sample_chance(&s, &mut rng) == Action::Test(true))
        .count();
    let sd = (11.0 / 36.0 * 25.0 / 36.0 / f64::from(n)).sqrt();
    assert!((passes as f64 / f64::from(n) - 11.0 / 36.0).abs() < 4.0 * sd);
    // Faces outside 1..6, or a test that cannot fail, are refused.
    for (name, faces) in [
        ("seven.json", serde_json::json!([7])),
        ("all.json", serde_json::json!([1, 2, 3, 4, 5, 6])),
    ] {
        let err = Karmox::parse(&write(name, faces)).unwrap_err().to_string();
        assert!(err.contains("face"), "{err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The observation's XP block gives each seat its side's permanent XP, so
/// teammates show the same value.
#[test]
fn observation_gives_each_seat_its_sides_xp() {
    use crate::game::encoding::Encode;
    let g = game("players=4,mode=teams");
    let s = Scenario::new(&g).xp(0, 7).xp(1, 4).build().unwrap();
    let mut out = Vec::new();
    g.observation_tensor(&s, 1, &mut out);
    // After 6 characters × 20 values; seats 1, 2, 3, 0 are sides 1, 0, 1, 0.
    assert_eq!(out[120..126], [4.0, 7.0, 4.0, 7.0, 0.0, 0.0]);
}

// ----- narration as one seat sees it -----

#[test]
fn observer_labels_hide_rivals_draws_only() {
    let g = game("players=4,mode=teams");
    let mut s = Scenario::new(&g).build().unwrap();
    s.phase = Phase::Drawing;
    s.draw_side = 1;
    s.draws_left = 1;
    let draw = Action::Draw(mid(&g, "M16"));
    assert_eq!(g.action_label(&s, draw), "draw mission M16");
    // Seats 1 and 3 are side 1; seats 0 and 2 are its rivals.
    for seat in [1, 3] {
        assert_eq!(g.action_label_for(&s, draw, seat), "draw mission M16");
    }
    for seat in [0, 2] {
        assert_eq!(g.action_label_for(&s, draw, seat), "side 1 draws a mission");
    }
    // Public actions read the same for every seat.
    let t = base(&g, 0);
    let attack = Action::Attack { c: 4, d: 1 };
    assert_eq!(
        g.action_label_for(&t, attack, 1),
        g.action_label(&t, attack)
    );
}

/// The features of `seat` in `s`.
fn feats(g: &Karmox, s: &State, seat: u8) -> [f64; 16] {
    let mut f = [0.0; 16];
    g.features_into(s, seat, &mut f);
    f
}

#[test]
fn features_are_named_deterministic_and_zero_at_the_end() {
    use crate::rng::below;
    assert_eq!(Karmox::feature_names().len(), features::FEATURES.len());
    assert!(features::FEATURES.len() <= crate::game::MAX_FEATURES);
    assert_eq!(features::FEATURES[0], "lead");
    for spec in ["", "players=6,mode=clones"] {
        let g = game(spec).with_cap(10).unwrap();
        let mut rng = rng_from_seed(5);
        let mut s = g.initial_state(&mut rng);
        let (mut checked, mut moved) = (0, 0.0f64);
        while g.turn(&s) != Turn::Terminal {
            if let Turn::Player(_) = g.turn(&s) {
                for p in 0..g.n as u8 {
                    let (a, b) = (feats(&g, &s, p), feats(&g, &s, p));
                    assert_eq!(a, b, "{spec}: features differ between calls");
                    assert!(a.iter().all(|x| x.is_finite() && x.abs() < 50.0), "{a:?}");
                    moved = moved.max(a[0].abs());
                }
                checked += 1;
            }
            let a = match g.turn(&s) {
                Turn::Chance => g.sample_chance(&s, &mut rng),
                _ => {
                    let legal = g.legal_actions(&s);
                    legal[below(&mut rng, legal.len())]
                }
            };
            g.apply(&mut s, a);
        }
        assert!(checked > 50 && moved > 0.0, "{spec}: {checked} {moved}");
        for p in 0..g.n as u8 {
            assert_eq!(feats(&g, &s, p), [0.0; 16], "{spec}: game over");
        }
    }
}

#[test]
fn features_count_sides_by_hand() {
    let g = game("");
    let mine = g.side_of_char(ch("MGa"));
    let seat = (0..2u8).find(|&p| g.seat_side[p as usize] == mine).unwrap();
    let other = 1 - seat;
    let mut s = base(&g, seat);
    let even = feats(&g, &s, seat);
    assert_eq!(even[15], 1.0, "the seat to move");
    assert_eq!(feats(&g, &s, other)[15], -1.0);
    s.xp[mine as usize] = 6;
    s.xp[1 - mine as usize] = 2;
    equip(&g, &mut s, "T01", "MGa");
    s.ch[ch("MGa")].life = 3;
    hold(&g, &mut s, 1 - mine as usize, &["M07"]);
    let f = feats(&g, &s, seat);
    let near = |i: usize, want: f64| {
        assert!(
            (f[i] - want).abs() < 1e-12,
            "{} = {} not {want}",
            features::FEATURES[i],
            f[i]
        )
    };
    near(1, 0.4); // xp: (6 − 2) / 10
    near(2, 0.4 * 0.6); // xp_late: times the larger side's 6 / 10
    near(3, 0.0); // neither side may take the portal
    near(4, 0.0);
    near(5, 0.0); // no cards of our own
    near(6, -1.0 / 3.0); // the rival holds one card
    near(7, -0.4); // two lives fewer, / 5
    near(10, 1.0 / 3.0); // one tile held, / 3
    near(11, 1.0); // a ring
    near(13, 0.0);
    // The rival's view is the mirror image of the public terms.
    let r = feats(&g, &s, other);
    for i in [1, 2, 6, 7, 10, 11] {
        assert!((r[i] + f[i]).abs() < 1e-12, "{}", features::FEATURES[i]);
    }
    // A rival's card is read by number only: another card changes nothing.
    let mut t = s.clone();
    t.piles[1 - mine as usize].clear();
    hold(&g, &mut t, 1 - mine as usize, &["M01"]);
    assert_ne!(
        t.piles[1 - mine as usize][0].id,
        s.piles[1 - mine as usize][0].id
    );
    assert_eq!(feats(&g, &t, seat), f);
    // Ten XP: ready, and the portal race counts.
    s.xp[mine as usize] = 10;
    let f = feats(&g, &s, seat);
    assert_eq!(f[3], 1.0);
    assert!(f[4] > 0.0 && f[4] <= 1.0, "portal {}", f[4]);
}

#[test]
fn lead_feature_at_weight_two_is_the_heuristic() {
    use crate::eval::LinearEval;
    use crate::rng::below;
    let g = game("").with_cap(10).unwrap();
    let mut weights = vec![0.0; features::FEATURES.len()];
    weights[0] = 2.0;
    let w = LinearEval {
        fitted_on: String::new(),
        features: features::FEATURES.iter().map(|s| s.to_string()).collect(),
        weights,
        quality: None,
    };
    let mut rng = rng_from_seed(11);
    let mut s = g.initial_state(&mut rng);
    let mut checked = 0;
    while g.turn(&s) != Turn::Terminal {
        let a = match g.turn(&s) {
            Turn::Chance => g.sample_chance(&s, &mut rng),
            _ => {
                for p in 0..2 {
                    let (lin, h) = (w.value(&g, &s, p), g.heuristic(&s, p));
                    assert!((lin - h).abs() < 1e-9, "{lin} {h}");
                }
                checked += 1;
                let legal = g.legal_actions(&s);
                legal[below(&mut rng, legal.len())]
            }
        };
        g.apply(&mut s, a);
    }
    assert!(checked > 50, "{checked}");
}

#[test]
fn shipped_fitted_weights_load_and_move() {
    use crate::eval::{Eval, LinearEval};
    use crate::spec::Params;
    let w = LinearEval::parse(features::FITTED, "fitted").unwrap();
    w.check::<Karmox>().unwrap();
    assert!(
        w.fitted_on.starts_with("boardlab fit --game 'karmox"),
        "{}",
        w.fitted_on
    );
    let q = w.quality.as_ref().expect("the fit's quality is recorded");
    assert!(q.log_loss < 0.693 && q.test_positions > 1000, "{q:?}");
    let mut p = Params::from_pairs([("eval".to_string(), "fitted".to_string())]);
    let eval = Eval::from_params::<Karmox>(&mut p, true).unwrap();
    assert!(matches!(eval, Eval::Linear(_)));
    let g = game("");
    let mut s = base(&g, 0);
    let even = eval.value(&g, &s, 0);
    s.xp[g.seat_side[0] as usize] = 9;
    assert!(eval.value(&g, &s, 0) > even, "more XP is better");
    assert!(eval.value(&g, &s, 0).abs() < 1.0);
}

#[test]
fn features_score_a_move_at_its_best_destination() {
    let g = game("");
    let mine = g.side_of_char(ch("MGa"));
    let seat = (0..2u8).find(|&p| g.seat_side[p as usize] == mine).unwrap();
    let mut s = base(&g, seat);
    s.xp[mine as usize] = 10;
    let before = feats(&g, &s, seat);
    // Choosing to move a character: the portal race is scored as if it had
    // walked to its best square, for at least one of the side's characters.
    let closer = g
        .side_chars(mine)
        .filter(|&c| g.legal_actions(&s).contains(&Action::Move(c as u8)))
        .filter(|&c| {
            let mut t = s.clone();
            play(&g, &mut t, Action::Move(c as u8));
            assert!(matches!(t.phase, Phase::MoveDest(_)), "{:?}", t.phase);
            let f = feats(&g, &t, seat);
            assert!(f[4] >= before[4], "portal {} < {}", f[4], before[4]);
            f[4] > before[4]
        })
        .count();
    assert!(closer >= 1, "no Move brought the portal closer");
}

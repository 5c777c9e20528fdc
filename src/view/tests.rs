use super::*;
use crate::agents::random::RandomAgent;
use crate::game::Rules;
use crate::games::{AnyGame, GAMES};
use crate::with_game;

/// A random game of `game` as the lines of a trace after its header, its
/// steps cut after the first 160 to keep the tests fast (a viewer of a trace
/// shorter than its game draws the states it has).
fn random_trace<G: Game>(game: &G, seed: u64) -> (Header, Vec<String>) {
    let mut agents: Vec<Box<dyn crate::agents::Agent<G>>> = (0..game.num_players())
        .map(|_| Box::new(RandomAgent) as Box<dyn crate::agents::Agent<G>>)
        .collect();
    let mut steps = Vec::new();
    let mut hook = |s: &G::State, player: Option<u8>, action: G::Action| {
        steps.push(ActionLine {
            step: steps.len() as u32,
            player,
            action,
            label: game.action_label(s, action),
            search: None,
        });
    };
    let result = crate::arena::play::play_game(game, &mut agents, seed, None, &mut hook);
    let header = Header {
        game: game.spec(),
        agents: vec!["random".into(); game.num_players()],
        seed,
        game_index: 0,
    };
    let mut lines: Vec<String> = steps
        .iter()
        .take(160)
        .map(|s| serde_json::to_string(s).unwrap())
        .collect();
    let result = ResultLine {
        outcomes: result
            .seats
            .iter()
            .map(|s| s.outcome.as_str().to_string())
            .collect(),
        returns: result.seats.iter().map(|s| s.ret).collect(),
        // A trace cut short is a game stopped before its end, as the
        // runner's length cap records one.
        truncated: result.truncated || steps.len() > 160,
        ending: result.ending.to_string(),
        rounds: result.rounds,
    };
    lines.push(serde_json::to_string(&result).unwrap());
    (header, lines)
}

/// Every registered game in every test variant: the page holds one frame per
/// state and point of view, and every layer's groups are balanced.
#[test]
fn every_game_draws_every_state() {
    for info in GAMES {
        for spec in info.test_specs {
            let game = AnyGame::parse(spec).unwrap();
            with_game!(&game, g => {
                let (header, lines) = random_trace(g, 7);
                let replay = replay(g, header, &lines).unwrap();
                assert_eq!(replay.states.len(), lines.len(), "{spec}");
                assert_eq!(replay.steps.len() + 1, replay.states.len(), "{spec}");
                let html = page(g, &replay);
                assert!(html.contains("<script type=\"application/json\" id=\"data\">"), "{spec}");
                assert!(!html.contains("NaN"), "{spec}");
                if let Some(c) = g.canvas(&replay.states) {
                    for s in replay.states.iter().step_by(7) {
                        for pov in std::iter::once(None).chain((0..g.num_players()).map(|p| Some(p as u8))) {
                            for layer in g.draw(s, pov, &c) {
                                assert_eq!(layer.matches("<g").count(), layer.matches("</g>").count(), "{spec}");
                                assert!(layer.starts_with("<g class="), "{spec}");
                            }
                        }
                    }
                }
            });
        }
    }
}

/// A seat's drawing depends only on what the seat knows: a determinization
/// for that seat (same info key, hidden parts resampled) draws the same.
#[test]
fn seat_views_draw_only_what_the_seat_knows() {
    for spec in [
        "fox",
        "karmaka",
        "karmaka(players=4)",
        "karmox",
        "hamunaptra(players=3)",
    ] {
        let game = AnyGame::parse(spec).unwrap();
        with_game!(&game, g => {
            let (header, lines) = random_trace(g, 11);
            let replay = replay(g, header, &lines).unwrap();
            let c = g.canvas(&replay.states).unwrap();
            let mut rng = crate::rng::rng_from_seed(5);
            let mut differs = false;
            for s in replay.states.iter().step_by(5) {
                for p in 0..g.num_players() as u8 {
                    let guess = g.determinize(s, p, &mut rng);
                    assert_eq!(g.draw(s, Some(p), &c), g.draw(&guess, Some(p), &c), "{spec} seat {p}");
                    differs |= g.draw(s, None, &c) != g.draw(&guess, None, &c);
                }
            }
            // Fox's face-down tiles are unknown to everyone, drawn as backs even
            // in the omniscient view; the other games hide cards from seats.
            assert_eq!(differs, spec != "fox", "{spec}: the omniscient view shows the hidden parts");
        });
    }
}

/// A trace whose step is not legal where it is played is refused.
#[test]
fn an_illegal_step_is_refused() {
    let game = crate::games::tictactoe::TicTacToe;
    let (header, mut lines) = random_trace(&game, 3);
    // The second move onto the first move's cell.
    let first: ActionLine<u8> = serde_json::from_str(&lines[0]).unwrap();
    let mut second: ActionLine<u8> = serde_json::from_str(&lines[1]).unwrap();
    second.action = first.action;
    lines[1] = serde_json::to_string(&second).unwrap();
    let err = replay(&game, header, &lines).unwrap_err();
    assert!(err.contains("trace step 1"), "{err}");
}

/// Equal layers are stored once: a game's page is far smaller than its frames.
#[test]
fn equal_layers_are_stored_once() {
    let game = crate::games::karmaka::Karmaka::parse("karmaka").unwrap();
    let (header, lines) = random_trace(&game, 4);
    let replay = replay(&game, header, &lines).unwrap();
    let c = game.canvas(&replay.states).unwrap();
    let full: usize = replay
        .states
        .iter()
        .map(|s| {
            (0..3)
                .map(|p| game.draw(s, [None, Some(0), Some(1)][p], &c).concat().len())
                .sum::<usize>()
        })
        .sum();
    let html = page(&game, &replay);
    assert!(
        html.len() * 4 < full,
        "page {} bytes, frames {full}",
        html.len()
    );
}

/// `boardlab play` keys: at every decision of random games of every game,
/// each legal move has its own key, the same whatever else is legal (a key
/// is a function of the state and the action alone), and every game has a
/// legend for its text board.
#[test]
fn every_game_keys_its_moves_uniquely_and_has_a_text_legend() {
    use crate::game::encoding::Encode;
    fn check<G: Picture + Encode>(g: &G, spec: &str) {
        // These games key every move by what their board prints.
        let named = ["fox", "karmaka", "karmox", "hamunaptra"]
            .iter()
            .any(|n| spec.starts_with(n));
        assert!(!g.text_legend().is_empty(), "{spec}: no text legend");
        for seed in 0..3 {
            let mut rng = crate::rng::rng_from_seed(seed);
            let mut s = g.initial_state(&mut rng);
            for _ in 0..1500 {
                let a = match g.turn(&s) {
                    crate::game::Turn::Terminal => break,
                    crate::game::Turn::Chance => g.sample_chance(&s, &mut rng),
                    crate::game::Turn::Player(_) => {
                        let legal = g.legal_actions(&s);
                        let keys = move_keys(g, &s, &legal);
                        // Unique as typed: the prompt ignores case.
                        let distinct: std::collections::HashSet<String> =
                            keys.iter().map(|k| k.to_lowercase()).collect();
                        assert_eq!(distinct.len(), keys.len(), "{spec}: {keys:?}");
                        if named {
                            // Read off the board, not numbered by the encoding.
                            assert!(
                                keys.iter().all(|k| !k.chars().all(|c| c.is_ascii_digit())),
                                "{spec}: {keys:?}"
                            );
                        }
                        assert!(
                            keys.iter()
                                .all(|k| !k.is_empty() && !k.contains(char::is_whitespace))
                        );
                        legal[crate::rng::below(&mut rng, legal.len())]
                    }
                };
                g.apply(&mut s, a);
            }
        }
    }
    for info in GAMES {
        for spec in info.test_specs {
            let game = AnyGame::parse(spec).unwrap();
            with_game!(&game, g => check(g, spec));
        }
    }
}

/// `play --html` picks: at every decision of random games, each part a
/// legal move is chosen by names an element of the drawing the acting seat
/// sees, and the games drawn with clickable parts offer some moves by them.
#[test]
fn every_pick_names_a_part_of_the_drawing() {
    fn check<G: Picture>(g: &G, spec: &str) -> usize {
        let mut picked = 0;
        for seed in 0..2 {
            let mut rng = crate::rng::rng_from_seed(seed);
            let mut s = g.initial_state(&mut rng);
            for _ in 0..200 {
                let a = match g.turn(&s) {
                    crate::game::Turn::Terminal => break,
                    crate::game::Turn::Chance => g.sample_chance(&s, &mut rng),
                    crate::game::Turn::Player(p) => {
                        let legal = g.legal_actions(&s);
                        let picks: Vec<Vec<String>> =
                            legal.iter().map(|&a| g.picks(&s, a)).collect();
                        if picks.iter().any(|p| !p.is_empty()) {
                            let canvas = g.canvas(std::slice::from_ref(&s)).unwrap();
                            let drawn = g.draw(&s, Some(p), &canvas).concat();
                            for pick in picks.iter().flatten() {
                                let attr = format!("data-pick=\"{}\"", svg::esc(pick));
                                assert!(drawn.contains(&attr), "{spec}: {pick} is not drawn");
                            }
                            picked += picks.iter().filter(|p| !p.is_empty()).count();
                        }
                        legal[crate::rng::below(&mut rng, legal.len())]
                    }
                };
                g.apply(&mut s, a);
            }
        }
        picked
    }
    for name in [
        "tictactoe",
        "connect4",
        "fox",
        "karmaka",
        "karmox",
        "hamunaptra",
    ] {
        let game = AnyGame::parse(name).unwrap();
        let picked = with_game!(&game, g => check(g, name));
        assert!(picked > 0, "{name}: no move is chosen on the board");
    }
}

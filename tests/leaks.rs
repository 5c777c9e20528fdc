//! No agent can see what its seat may not see. For every hidden-information
//! game: two true states that the seat cannot tell apart (same info key, other
//! hidden cards) lead every agent to the same decision, given the same random
//! streams — exactly the path the runner takes (a view determinized from the
//! truth on the view stream, the agent on its seat stream).

use boardlab::agents::Decision;
use boardlab::agents::registry::AgentSpec;
use boardlab::game::{Game, Rules, Turn};
use boardlab::games::{AnyGame, GAMES};
use boardlab::rng::{Stream, below, rng_from_seed, stream_rng};
use boardlab::with_game;

const AGENTS: [&str; 7] = [
    "random",
    "greedy(samples=2)",
    "mcts(iterations=40,max_rollout=30)",
    "pimc(iterations=40,determinizations=4,max_rollout=30)",
    "ismcts(iterations=40,max_rollout=30)",
    "ismcts(iterations=40,max_rollout=30,widen=0.5,bias=1,threads=2)",
    "moismcts(iterations=40,max_rollout=30)",
];

/// Agents that carry what they learnt from one decision to the next.
const REUSING: [&str; 2] = [
    "mcts(iterations=40,max_rollout=30,reuse=true)",
    "ismcts(iterations=40,max_rollout=30,reuse=true)",
];

/// Returns (decisions compared, pairs of true states that really differed).
fn check<G: Game>(game: &G, spec: &str, agents: &[&str]) -> (u32, u32) {
    let (mut compared, mut differing) = (0, 0);
    for seed in 0..6u64 {
        let mut rng = rng_from_seed(seed);
        let mut state = game.initial_state(&mut rng);
        let stop = 5 + below(&mut rng, 40);
        for step in 0.. {
            let p = match game.turn(&state) {
                Turn::Terminal => break,
                Turn::Chance => {
                    let a = game.sample_chance(&state, &mut rng);
                    game.apply(&mut state, a);
                    continue;
                }
                Turn::Player(p) => p,
            };
            if step >= stop || step % 7 == 3 {
                // A second truth: same information for p, hidden parts resampled.
                let other = game.determinize(&state, p, &mut rng);
                assert_eq!(game.info_key(&other, p), game.info_key(&state, p));
                differing += u32::from(other != state);
                let legal = game.legal_actions(&state);
                assert_eq!(
                    &*legal,
                    &*game.legal_actions(&other),
                    "{spec}: legal actions depend on hidden state"
                );
                for &agent in agents {
                    let spec_a = AgentSpec::parse(agent).unwrap();
                    let decide = |truth: &G::State| {
                        let mut a = spec_a.build::<G>().unwrap();
                        let view = game.determinize(truth, p, &mut stream_rng(seed, Stream::View));
                        a.act(Decision {
                            game,
                            me: p,
                            view: &view,
                            legal: &legal,
                            rng: &mut stream_rng(seed, Stream::Seat(p)),
                            deadline: None,
                        })
                    };
                    assert_eq!(
                        decide(&state),
                        decide(&other),
                        "{spec}: {agent} decided on hidden information (seed {seed}, step {step})"
                    );
                    compared += 1;
                }
                if step >= stop {
                    break;
                }
            }
            let legal = game.legal_actions(&state);
            let a = legal[below(&mut rng, legal.len())];
            game.apply(&mut state, a);
        }
    }
    (compared, differing)
}

/// A reusing agent plays one seat of a game (the others random) from the
/// runner's views; at some of its decisions, a second truth with the same
/// information for that seat must lead it to the same action, its earlier
/// decisions replayed alike. Returns the decisions compared.
fn check_reuse<G: Game>(game: &G, spec: &str, agent: &str) -> u32 {
    let parsed = AgentSpec::parse(agent).unwrap();
    let mut compared = 0;
    // Seeds until two checks are made (short games need more of them).
    for seed in 0..20u64 {
        if compared >= 2 {
            break;
        }
        let mut rng = rng_from_seed(100 + seed);
        let mut state = game.initial_state(&mut rng);
        let me = 0;
        // The views and legal actions of the seat's decisions so far.
        let mut history: Vec<(G::State, G::Actions)> = Vec::new();
        let mut view_rng = stream_rng(seed, Stream::View);
        let mut seat_rng = stream_rng(seed, Stream::Seat(me));
        let mut live = parsed.build::<G>().unwrap();
        // Replays the seat's decisions on the recorded views, then decides
        // on `last`; returns that action.
        let replay = |history: &[(G::State, G::Actions)], last: &G::State| {
            let mut a = parsed.build::<G>().unwrap();
            let mut seat_rng = stream_rng(seed, Stream::Seat(me));
            let n = history.len();
            let mut action = None;
            for (i, (view, legal)) in history.iter().enumerate() {
                action = Some(a.act(Decision {
                    game,
                    me,
                    view: if i + 1 == n { last } else { view },
                    legal,
                    rng: &mut seat_rng,
                    deadline: None,
                }));
            }
            action.unwrap()
        };
        loop {
            let a = match game.turn(&state) {
                Turn::Terminal => break,
                Turn::Chance => game.sample_chance(&state, &mut rng),
                Turn::Player(p) if p == me => {
                    let legal = game.legal_actions(&state);
                    let stream_here = view_rng.clone();
                    let view = game.determinize(&state, me, &mut view_rng);
                    let a = live.act(Decision {
                        game,
                        me,
                        view: &view,
                        legal: &legal,
                        rng: &mut seat_rng,
                        deadline: None,
                    });
                    history.push((view, legal));
                    // Checked at the seat's 2nd, 3rd, 5th, 9th… decision.
                    if history.len() > 1 && (history.len() - 1).is_power_of_two() {
                        // The same decision from a view of another truth
                        // (made as the runner would, on the view stream).
                        let other = game.determinize(&state, me, &mut rng);
                        assert_eq!(game.info_key(&other, me), game.info_key(&state, me));
                        let other_view = game.determinize(&other, me, &mut stream_here.clone());
                        let last = history.last().unwrap().0.clone();
                        assert_eq!(replay(&history, &last), a, "{spec}: {agent} replay differs");
                        assert_eq!(
                            a,
                            replay(&history, &other_view),
                            "{spec}: {agent} decided on hidden information (seed {seed})"
                        );
                        compared += 1;
                        if history.len() > 32 {
                            break;
                        }
                    }
                    a
                }
                Turn::Player(_) => {
                    let legal = game.legal_actions(&state);
                    legal[below(&mut rng, legal.len())]
                }
            };
            game.apply(&mut state, a);
        }
    }
    compared
}

#[test]
fn reusing_agents_decide_on_their_views_only() {
    for info in GAMES {
        let spec = info.test_specs[0];
        let game = AnyGame::parse(spec).unwrap();
        if !with_game!(&game, g => g.has_hidden_information()) {
            continue;
        }
        for agent in REUSING {
            let compared = with_game!(&game, g => check_reuse(g, spec, agent));
            assert!(compared >= 1, "{spec}: {agent} never reached its check");
        }
    }
}

#[test]
fn no_agent_decides_on_hidden_information() {
    let mut hidden_games = 0;
    for info in GAMES {
        let spec = info.test_specs[0];
        let game = AnyGame::parse(spec).unwrap();
        if !with_game!(&game, g => g.has_hidden_information()) {
            continue;
        }
        hidden_games += 1;
        let (compared, differing) = with_game!(&game, g => check(g, spec, &AGENTS));
        assert!(compared >= 20, "{spec}: only {compared} decisions compared");
        assert!(
            differing > 0,
            "{spec}: the alternative truths never differed, the test proves nothing"
        );
    }
    assert!(hidden_games >= 1);
}

/// A fitted evaluation reads only the determinized view it is given: the
/// agents that use it decide alike on two truths the seat cannot tell apart.
#[test]
fn fitted_evaluation_decides_on_the_view_only() {
    let agents = [
        "greedy(samples=2,eval=fitted)",
        "ismcts(iterations=40,max_rollout=5,eval=fitted)",
        "moismcts(iterations=40,max_rollout=5,eval=fitted)",
    ];
    for spec in ["karmaka", "hamunaptra", "karmox"] {
        let game = AnyGame::parse(spec).unwrap();
        let (compared, differing) = with_game!(&game, g => check(g, spec, &agents));
        assert!(
            compared >= 20 && differing > 0,
            "{spec}: {compared} {differing}"
        );
    }
}

/// The `cfr` agent plays its solution at its own view's information set:
/// two truths the seat cannot tell apart lead it to the same decision.
#[test]
fn cfr_decides_on_the_view_only() {
    for spec in ["kuhn", "leduc"] {
        let game = AnyGame::parse(spec).unwrap();
        let agents = ["cfr(iterations=50)", "cfr(iterations=400)"];
        let (compared, differing) = with_game!(&game, g => check(g, spec, &agents));
        // At least one decision compared per seed and agent.
        assert!(
            compared >= 12 && differing > 0,
            "{spec}: {compared} {differing}"
        );
    }
}

//! No agent can see what its seat may not see. For every hidden-information
//! game: two true states that the seat cannot tell apart (same info key, other
//! hidden cards) lead every agent to the same decision, given the same random
//! streams — exactly the path the runner takes (a view determinized from the
//! truth on the view stream, the agent on its seat stream).

use boardlab::agents::Decision;
use boardlab::agents::registry::AgentSpec;
use boardlab::game::{Game, Turn};
use boardlab::games::{AnyGame, GAMES};
use boardlab::rng::{Stream, below, rng_from_seed, stream_rng};
use boardlab::with_game;

const AGENTS: [&str; 5] = [
    "random",
    "greedy(samples=2)",
    "mcts(iterations=40,max_rollout=30)",
    "pimc(iterations=40,determinizations=4,max_rollout=30)",
    "ismcts(iterations=40,max_rollout=30)",
];

/// Returns (decisions compared, pairs of true states that really differed).
fn check<G: Game>(game: &G, spec: &str) -> (u32, u32) {
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
                for agent in AGENTS {
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
        let (compared, differing) = with_game!(&game, g => check(g, spec));
        assert!(compared >= 20, "{spec}: only {compared} decisions compared");
        assert!(
            differing > 0,
            "{spec}: the alternative truths never differed, the test proves nothing"
        );
    }
    assert!(hidden_games >= 1);
}

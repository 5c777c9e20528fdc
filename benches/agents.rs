//! Search speed: iterations per second of each search agent deciding from the
//! initial position of tic-tac-toe and Connect Four. Criterion reports the
//! throughput in elements/s, one element being one search iteration; compare
//! agents by the ratios, which depend far less on the machine than the values.

use std::hint::black_box;

use boardlab::agents::mcts::ismcts::IsmctsAgent;
use boardlab::agents::mcts::pimc::PimcAgent;
use boardlab::agents::mcts::uct::MctsAgent;
use boardlab::agents::mcts::{Rollout, SearchConfig};
use boardlab::agents::{Agent, Budget, Decision};
use boardlab::game::{Game, Turn};
use boardlab::games::connect4::Connect4;
use boardlab::games::tictactoe::TicTacToe;
use boardlab::rng::rng_from_seed;
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};

const ITERATIONS: u32 = 1000;

fn config(rollout: Rollout) -> SearchConfig {
    SearchConfig {
        budget: Budget::Iterations(ITERATIONS),
        rollout,
        ..SearchConfig::default()
    }
}

/// The agents measured, by label.
fn agents<G: Game>() -> Vec<(&'static str, Box<dyn Agent<G>>)> {
    let greedy = Rollout::Greedy { epsilon: 0.1 };
    vec![
        (
            "mcts",
            Box::new(MctsAgent::<G>::new(config(Rollout::Random))),
        ),
        ("mcts-greedy", Box::new(MctsAgent::<G>::new(config(greedy)))),
        (
            "pimc",
            Box::new(PimcAgent::<G>::new(config(Rollout::Random), 10)),
        ),
        (
            "ismcts",
            Box::new(IsmctsAgent::<G>::new(config(Rollout::Random))),
        ),
    ]
}

fn bench_game<G: Game>(c: &mut Criterion, game: &G, name: &str) {
    let mut group = c.benchmark_group(format!("search/{name}"));
    group.throughput(Throughput::Elements(u64::from(ITERATIONS)));
    group.sample_size(20);
    let state = game.initial_state(&mut rng_from_seed(1));
    let Turn::Player(me) = game.turn(&state) else {
        panic!("{name} does not start with a decision")
    };
    let legal = game.legal_actions(&state);
    for (label, mut agent) in agents::<G>() {
        let mut rng = rng_from_seed(7);
        group.bench_function(BenchmarkId::from_parameter(label), |b| {
            b.iter(|| {
                let a = agent.act(Decision {
                    game,
                    me,
                    view: &state,
                    legal: &legal,
                    rng: &mut rng,
                });
                assert_eq!(agent.last_iterations(), u64::from(ITERATIONS));
                black_box(a)
            })
        });
    }
    group.finish();
}

fn searches(c: &mut Criterion) {
    bench_game(c, &TicTacToe, "tictactoe");
    bench_game(c, &Connect4, "connect4");
}

criterion_group!(benches, searches);
criterion_main!(benches);

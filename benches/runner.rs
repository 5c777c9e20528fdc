//! The runner against the simulator: per game, `arena::run` of random agents
//! (one thread, games.csv and metrics.csv written) next to the bare random
//! playouts of `boardlab bench`, both counted in games. The ratio is what
//! the runner costs on top of the rules.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;

use boardlab::agents::registry::AgentSpec;
use boardlab::arena::{RunOptions, run};
use boardlab::game::{Game, random_playout};
use boardlab::games::AnyGame;
use boardlab::rng::rng_from_seed;
use boardlab::with_game;

const GAMES: u64 = 64;

fn bench_game<G: Game>(c: &mut Criterion, name: &str, game: &G) {
    let specs: Vec<AgentSpec> = (0..game.num_players())
        .map(|_| AgentSpec::parse("random").expect("random is an agent"))
        .collect();
    let out = std::env::temp_dir().join(format!("boardlab-bench-runner-{name}"));
    let opts = RunOptions {
        games: GAMES,
        seed: 1,
        threads: 1,
        out: Some(out.clone()),
        force: true,
        ..RunOptions::default()
    };
    let mut group = c.benchmark_group(format!("runner/{name}"));
    group.throughput(Throughput::Elements(GAMES));
    group.bench_function("run", |b| {
        b.iter(|| black_box(run(game, &specs, &opts).expect("the run completes").games))
    });
    let mut rng = rng_from_seed(1);
    group.bench_function("playouts", |b| {
        b.iter(|| {
            let mut actions = 0;
            for _ in 0..GAMES {
                let mut s = game.initial_state(&mut rng);
                actions += random_playout(game, &mut s, &mut rng, game.max_game_length());
            }
            black_box(actions)
        })
    });
    group.finish();
    let _ = std::fs::remove_dir_all(out);
}

fn runner(c: &mut Criterion) {
    for name in ["connect4", "fox", "karmaka", "karmox", "hamunaptra"] {
        let game = AnyGame::parse(name).expect("registered game");
        with_game!(&game, g => bench_game(c, name, g));
    }
}

criterion_group!(benches, runner);
criterion_main!(benches);

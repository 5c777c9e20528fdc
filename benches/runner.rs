//! The runner against the simulator: per game, `arena::run` of random agents
//! (one thread, games.csv and metrics.csv written) next to the bare random
//! playouts of `boardlab bench`, both counted in games. The ratio is what
//! the runner costs on top of the rules. Between the two, `game-loop` plays
//! the same games through the runner's game loop (`play::play_game`: seeded
//! streams, agents behind the `Agent` trait, legality checks, the game's
//! result) without formatting or writing anything, so the three split the
//! runner's cost into the loop's and the output's.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;

use boardlab::agents::Agent;
use boardlab::agents::registry::AgentSpec;
use boardlab::arena::{RunOptions, play, run};
use boardlab::game::{Game, random_playout};
use boardlab::games::AnyGame;
use boardlab::rng::{game_seed, rng_from_seed};
use boardlab::with_game;

/// Games per measured run, per game: about a tenth of a second of random
/// play, so that what a run does once (files, run.json, summaries) is small
/// next to what it does per game.
const GAMES: &[(&str, u64)] = &[
    ("connect4", 65_536),
    ("fox", 4_096),
    ("karmaka", 2_048),
    ("karmox", 256),
    ("hamunaptra", 256),
];

fn bench_game<G: Game>(c: &mut Criterion, name: &str, game: &G, games: u64) {
    let specs: Vec<AgentSpec> = (0..game.num_players())
        .map(|_| AgentSpec::parse("random").expect("random is an agent"))
        .collect();
    let out = std::env::temp_dir().join(format!("boardlab-bench-runner-{name}"));
    let opts = RunOptions {
        games,
        seed: 1,
        threads: 1,
        out: Some(out.clone()),
        force: true,
        ..RunOptions::default()
    };
    let mut group = c.benchmark_group(format!("runner/{name}"));
    group
        .throughput(Throughput::Elements(games))
        .sample_size(10);
    group.bench_function("run", |b| {
        b.iter(|| black_box(run(game, &specs, &opts).expect("the run completes").games))
    });
    group.bench_function("game-loop", |b| {
        let mut agents: Vec<Box<dyn Agent<G>>> = specs
            .iter()
            .map(|s| s.build::<G>().expect("random builds for every game"))
            .collect();
        let mut index = 0;
        b.iter(|| {
            let mut actions = 0;
            for _ in 0..games {
                let seed = game_seed(1, index);
                index += 1;
                let r = play::play_game(game, &mut agents, seed, None, &mut |_, _, _| {});
                actions += r.actions;
            }
            black_box(actions)
        })
    });
    let mut rng = rng_from_seed(1);
    group.bench_function("playouts", |b| {
        b.iter(|| {
            let mut actions = 0;
            for _ in 0..games {
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
    for &(name, games) in GAMES {
        let game = AnyGame::parse(name).expect("registered game");
        with_game!(&game, g => bench_game(c, name, g, games));
    }
}

criterion_group!(benches, runner);
criterion_main!(benches);

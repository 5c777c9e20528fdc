//! Per game: random playout, `legal_actions`, `apply`, `clone` and
//! `determinize`, from positions reached by a fixed random prefix. Each bench
//! first checks a playout checksum so a broken simulator cannot post a number.

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;

use boardlab::game::{Game, Turn, random_playout};
use boardlab::games::{AnyGame, GAMES};
use boardlab::rng::{below, rng_from_seed};
use boardlab::with_game;

/// A mid-game position: the state after a random prefix of about a third of a game.
fn midgame<G: Game>(game: &G) -> G::State {
    let mut rng = rng_from_seed(11);
    let mut s = game.initial_state(&mut rng);
    let mut probe = s.clone();
    let len = random_playout(game, &mut probe, &mut rng.clone(), game.max_game_length());
    for _ in 0..len / 3 {
        let a = match game.turn(&s) {
            Turn::Terminal => break,
            Turn::Chance => game.sample_chance(&s, &mut rng),
            Turn::Player(_) => {
                let l = game.legal_actions(&s);
                l[below(&mut rng, l.len())]
            }
        };
        game.apply(&mut s, a);
    }
    // Benchmarks of legal_actions and determinize want a player to move.
    while game.turn(&s) == Turn::Chance {
        let a = game.sample_chance(&s, &mut rng);
        game.apply(&mut s, a);
    }
    s
}

fn bench_game<G: Game>(c: &mut Criterion, name: &str, game: &G) {
    // Checksum: the same seed always gives the same playout lengths.
    let lengths = |seed| {
        let mut rng = rng_from_seed(seed);
        (0..20)
            .map(|_| {
                let mut s = game.initial_state(&mut rng);
                random_playout(game, &mut s, &mut rng, game.max_game_length())
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(
        lengths(5),
        lengths(5),
        "{name}: playouts are not reproducible"
    );
    let mut g = c.benchmark_group(name);
    let mut rng = rng_from_seed(1);
    g.bench_function("random_playout", |b| {
        b.iter(|| {
            let mut s = game.initial_state(&mut rng);
            black_box(random_playout(
                game,
                &mut s,
                &mut rng,
                game.max_game_length(),
            ))
        })
    });
    let mid = midgame(game);
    g.bench_function("legal_actions", |b| {
        b.iter(|| black_box(game.legal_actions(black_box(&mid))))
    });
    if let Turn::Player(p) = game.turn(&mid) {
        let first = game.legal_actions(&mid)[0];
        g.bench_function("clone_apply", |b| {
            b.iter(|| {
                let mut s = black_box(&mid).clone();
                game.apply(&mut s, first);
                black_box(s)
            })
        });
        g.bench_function("determinize", |b| {
            b.iter(|| black_box(game.determinize(black_box(&mid), p, &mut rng)))
        });
    }
    g.bench_function("clone", |b| b.iter(|| black_box(black_box(&mid).clone())));
    g.finish();
}

fn games(c: &mut Criterion) {
    for info in GAMES {
        let game = AnyGame::parse(info.name).expect("default spec builds");
        with_game!(&game, g => bench_game(c, info.name, g));
    }
}

criterion_group!(benches, games);
criterion_main!(benches);

//! Search speed: iterations per second of each search agent deciding from the
//! initial position of tic-tac-toe and Connect Four. Criterion reports the
//! throughput in elements/s, one element being one search iteration; compare
//! agents by the ratios, which depend far less on the machine than the values.
//!
//! On a shared machine consecutive measurements drift, so before Criterion
//! runs, the agents are also timed interleaved (round-robin, best of several
//! rounds) and their iterations/s printed with ratios to `mcts`: those ratios
//! are the comparable numbers.
//!
//! Before measuring, a counting allocator checks that a search whose tree fits
//! in the arena left by an earlier, larger search allocates nothing at all.
//!
//! The seed games' search speed, and how it changed against earlier builds
//! (measured interleaved with `boardlab bench --agent`), is in
//! results/search-speed/README.md with the commands that remake it.

use std::alloc::{GlobalAlloc, Layout, System};
use std::hint::black_box;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use boardlab::agents::mcts::ismcts::IsmctsAgent;
use boardlab::agents::mcts::pimc::PimcAgent;
use boardlab::agents::mcts::uct::MctsAgent;
use boardlab::agents::mcts::{Rollout, SearchConfig};
use boardlab::agents::{Agent, Budget, Decision};
use boardlab::game::{Game, Turn};
use boardlab::games::AnyGame;
use boardlab::games::connect4::Connect4;
use boardlab::games::tictactoe::TicTacToe;
use boardlab::rng::rng_from_seed;
use boardlab::with_game;
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};

const ITERATIONS: u32 = 1000;

struct Counting;

static ALLOCATIONS: AtomicU64 = AtomicU64::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Panics if a search allocates once its arena has grown: a search of
/// `ITERATIONS` iterations adds at most one node per iteration, so after a first
/// decision has sized the arena (and the scratch buffers), further decisions
/// from the same position must not allocate at all.
fn check_no_allocations<G: Game>(game: &G, name: &str) {
    let state = game.initial_state(&mut rng_from_seed(1));
    let Turn::Player(me) = game.turn(&state) else {
        panic!("{name} does not start with a decision")
    };
    let legal = game.legal_actions(&state);
    let mut rng = rng_from_seed(3);
    for (label, mut agent) in agents::<G>(0) {
        let mut allocations = 0;
        for i in 0..5 {
            let before = ALLOCATIONS.load(Ordering::Relaxed);
            black_box(agent.act(Decision {
                game,
                me,
                view: &state,
                legal: &legal,
                rng: &mut rng,
                deadline: None,
            }));
            if i > 0 {
                allocations += ALLOCATIONS.load(Ordering::Relaxed) - before;
            }
        }
        assert_eq!(
            allocations, 0,
            "{label} on {name} allocated after its arena was sized"
        );
    }
}

/// Times every agent round-robin, keeps each one's fastest decision (the one
/// least disturbed by other processes) and prints iterations/s and the ratio
/// to the first agent.
fn print_ratios<G: Game>(game: &G, name: &str, rounds: u32) {
    let state = game.initial_state(&mut rng_from_seed(1));
    let Turn::Player(me) = game.turn(&state) else {
        panic!("{name} does not start with a decision")
    };
    let legal = game.legal_actions(&state);
    let mut rng = rng_from_seed(5);
    let mut agents = agents::<G>(0);
    let mut best = vec![Duration::MAX; agents.len()];
    for _ in 0..rounds {
        for (i, (_, agent)) in agents.iter_mut().enumerate() {
            let t = Instant::now();
            black_box(agent.act(Decision {
                game,
                me,
                view: &state,
                legal: &legal,
                rng: &mut rng,
                deadline: None,
            }));
            best[i] = best[i].min(t.elapsed());
        }
    }
    let rate = |d: Duration| f64::from(ITERATIONS) / d.as_secs_f64();
    for (i, (label, _)) in agents.iter().enumerate() {
        println!(
            "interleaved {name}/{label}: {:.0} iterations/s, {:.2} x {}",
            rate(best[i]),
            rate(best[i]) / rate(best[0]),
            agents[0].0
        );
    }
}

fn config(rollout: Rollout, max_rollout: u32) -> SearchConfig {
    SearchConfig {
        budget: Budget::Iterations(ITERATIONS),
        rollout,
        max_rollout,
        ..SearchConfig::default()
    }
}

/// The agents measured, by label.
fn agents<G: Game>(max_rollout: u32) -> Vec<(&'static str, Box<dyn Agent<G>>)> {
    let greedy = Rollout::Greedy { epsilon: 0.1 };
    let config = |rollout| config(rollout, max_rollout);
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

/// Benchmarks every search agent from the first decision of a fixed game
/// (setup chance resolved with a fixed seed); `max_rollout` cuts rollouts in
/// long games (0: play them out).
fn bench_game<G: Game>(c: &mut Criterion, game: &G, name: &str, max_rollout: u32) {
    let mut group = c.benchmark_group(format!("search/{name}"));
    group.throughput(Throughput::Elements(u64::from(ITERATIONS)));
    group.sample_size(10);
    let mut rng = rng_from_seed(1);
    let mut state = game.initial_state(&mut rng);
    while game.turn(&state) == Turn::Chance {
        let a = game.sample_chance(&state, &mut rng);
        game.apply(&mut state, a);
    }
    let Turn::Player(me) = game.turn(&state) else {
        panic!("{name} does not start with a decision")
    };
    let legal = game.legal_actions(&state);
    for (label, mut agent) in agents::<G>(max_rollout) {
        let mut rng = rng_from_seed(7);
        group.bench_function(BenchmarkId::from_parameter(label), |b| {
            b.iter(|| {
                let a = agent.act(Decision {
                    game,
                    me,
                    view: &state,
                    legal: &legal,
                    rng: &mut rng,
                    deadline: None,
                });
                assert_eq!(agent.last_iterations(), u64::from(ITERATIONS));
                black_box(a)
            })
        });
    }
    group.finish();
}

fn searches(c: &mut Criterion) {
    check_no_allocations(&TicTacToe, "tictactoe");
    check_no_allocations(&Connect4, "connect4");
    print_ratios(&TicTacToe, "tictactoe", 30);
    print_ratios(&Connect4, "connect4", 30);
    bench_game(c, &TicTacToe, "tictactoe", 0);
    bench_game(c, &Connect4, "connect4", 0);
    // The hidden-information games, from their first decision. Karmox and
    // Hamunaptra rollouts are cut after 20 actions (the ismcts-1k-h20 preset):
    // a full random rollout there is 600-1,200 actions.
    for (spec, cut) in [
        ("fox", 0),
        ("karmaka", 0),
        ("karmox", 20),
        ("hamunaptra", 20),
    ] {
        let game = AnyGame::parse(spec).expect("default spec");
        with_game!(&game, g => bench_game(c, g, spec, cut));
    }
}

criterion_group!(benches, searches);
criterion_main!(benches);

//! Zero heap allocations per step: `legal_actions`, `apply` and `sample_chance`
//! never allocate once a game is set up, for every registered game and variant.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use boardlab::game::{Game, Rules, Turn};
use boardlab::games::{AnyGame, GAMES};
use boardlab::rng::{below, rng_from_seed};
use boardlab::with_game;

struct Counting;

thread_local! {
    // Counted per thread: the test harness allocates on other threads.
    static MEASURING: Cell<bool> = const { Cell::new(false) };
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
}

fn count() {
    if MEASURING.try_with(Cell::get).unwrap_or(false) {
        let _ = ALLOCATIONS.try_with(|a| a.set(a.get() + 1));
    }
}

fn allocations() -> u64 {
    ALLOCATIONS.with(Cell::get)
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count();
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count();
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Counts allocations made by the step functions only, over many random games.
fn allocations_per_step<G: Game>(game: &G, games: u32) -> (u64, u64) {
    let mut rng = rng_from_seed(7);
    let (mut allocs, mut steps) = (0, 0);
    for _ in 0..games {
        let mut state = game.initial_state(&mut rng);
        let mut clone = state.clone();
        for _ in 0..game.max_game_length() {
            let before = allocations();
            MEASURING.with(|m| m.set(true));
            let action = match game.turn(&state) {
                Turn::Terminal => {
                    MEASURING.with(|m| m.set(false));
                    break;
                }
                Turn::Chance => game.sample_chance(&state, &mut rng),
                Turn::Player(_) => {
                    let legal = game.legal_actions(&state);
                    legal[below(&mut rng, legal.len())]
                }
            };
            game.apply(&mut state, action);
            clone.clone_from(&state);
            MEASURING.with(|m| m.set(false));
            allocs += allocations() - before;
            steps += 1;
        }
    }
    (allocs, steps)
}

#[test]
fn the_counter_sees_allocations() {
    MEASURING.with(|m| m.set(true));
    let before = allocations();
    let v: Vec<u64> = std::hint::black_box(vec![1, 2, 3]);
    MEASURING.with(|m| m.set(false));
    assert_eq!(v.len(), 3);
    assert!(allocations() > before);
}

#[test]
fn no_allocation_per_step_in_any_game() {
    for info in GAMES {
        for spec in info.test_specs {
            let game = AnyGame::parse(spec).unwrap();
            let (allocs, steps) = with_game!(&game, g => allocations_per_step(g, 30));
            assert!(steps > 0, "{spec}: no steps played");
            assert_eq!(allocs, 0, "{spec}: {allocs} allocations in {steps} steps");
        }
    }
}

/// The fitted evaluation, features included, runs at every rollout cut: it
/// must not allocate either (the weights are loaded once, before).
#[test]
fn fitted_evaluation_does_not_allocate() {
    for spec in [
        "karmaka",
        "karmaka(players=3)",
        "karmaka(players=4,teams=true)",
        "karmaka(variant=big-bad-wolf)",
        "karmox",
        "karmox(players=3)",
        "karmox(players=4,mode=teams)",
        "karmox(players=6,mode=clones)",
    ] {
        let game = AnyGame::parse(spec).unwrap();
        let (allocs, evals, sum) = match &game {
            AnyGame::Karmaka(g) => fitted_allocations(g, 10),
            AnyGame::Karmox(g) => fitted_allocations(&g.with_cap(8).unwrap(), 3),
            _ => unreachable!("{spec} has fitted weights"),
        };
        assert!(
            evals > 100 && sum.is_finite(),
            "{spec}: {evals} evaluations"
        );
        assert_eq!(
            allocs, 0,
            "{spec}: {allocs} allocations in {evals} evaluations"
        );
    }
}

/// Allocations made by `eval=fitted` over `games` random games of `game`,
/// for every seat at every state: (allocations, evaluations, sum of values).
fn fitted_allocations<G: Game>(game: &G, games: u32) -> (u64, u64, f64) {
    use boardlab::eval::Eval;
    use boardlab::spec::Params;
    let mut params = Params::from_pairs([("eval", "fitted")]);
    let eval = Eval::from_params::<G>(&mut params, true).unwrap();
    // The first call builds per-thread tables (Karmox's walking distances).
    let first = game.initial_state(&mut rng_from_seed(0));
    let _ = eval.value(game, &first, 0);
    let mut rng = rng_from_seed(3);
    let (mut allocs, mut evals, mut sum) = (0, 0, 0.0);
    for _ in 0..games {
        let mut state = game.initial_state(&mut rng);
        while game.turn(&state) != Turn::Terminal {
            let before = allocations();
            MEASURING.with(|m| m.set(true));
            for p in 0..game.num_players() as u8 {
                sum += eval.value(game, &state, p);
                evals += 1;
            }
            MEASURING.with(|m| m.set(false));
            allocs += allocations() - before;
            let action = match game.turn(&state) {
                Turn::Chance => game.sample_chance(&state, &mut rng),
                _ => {
                    let legal = game.legal_actions(&state);
                    legal[below(&mut rng, legal.len())]
                }
            };
            game.apply(&mut state, action);
        }
    }
    (allocs, evals, sum)
}

/// Every seat's heuristic at once (what a search scores a cut rollout with)
/// allocates nothing either.
#[test]
fn heuristics_of_every_seat_do_not_allocate() {
    for info in GAMES {
        for spec in info.test_specs {
            let game = AnyGame::parse(spec).unwrap();
            let (allocs, evals) = with_game!(&game, g => heuristic_allocations(g, 5));
            assert!(evals > 0, "{spec}: nothing evaluated");
            assert_eq!(
                allocs, 0,
                "{spec}: {allocs} allocations in {evals} evaluations"
            );
        }
    }
}

/// Allocations made by [`Evaluation::heuristics`] at every state of `games`
/// random games: (allocations, evaluations).
fn heuristic_allocations<G: Game>(game: &G, games: u32) -> (u64, u64) {
    // The first call may build per-thread tables (Karmox's walking distances).
    let _ = game.heuristics(&game.initial_state(&mut rng_from_seed(0)));
    let mut rng = rng_from_seed(5);
    let (mut allocs, mut evals) = (0, 0);
    for _ in 0..games {
        let mut state = game.initial_state(&mut rng);
        for _ in 0..game.max_game_length() {
            let turn = game.turn(&state);
            if turn == Turn::Terminal {
                break;
            }
            let before = allocations();
            MEASURING.with(|m| m.set(true));
            let values = std::hint::black_box(game.heuristics(&state));
            MEASURING.with(|m| m.set(false));
            allocs += allocations() - before;
            evals += values.len() as u64;
            let action = match turn {
                Turn::Chance => game.sample_chance(&state, &mut rng),
                _ => {
                    let legal = game.legal_actions(&state);
                    legal[below(&mut rng, legal.len())]
                }
            };
            game.apply(&mut state, action);
        }
    }
    (allocs, evals)
}

/// A search keeps its tree arena, its scratch lists and its legal-action
/// list from one decision to the next: once a search of a given size has
/// run, the next one allocates only a bounded number of times (its
/// determinizer's buffers, say), whatever its number of iterations. Nothing
/// is allocated per node or per iteration, so four times the iterations
/// allocate no more than a few times more.
#[test]
fn search_allocations_do_not_grow_with_iterations() {
    for (spec, kind) in [
        ("connect4", "mcts"),
        ("connect4", "ismcts"),
        ("karmaka", "ismcts"),
        ("karmaka", "pimc"),
        ("karmaka", "mcts"),
        ("fox", "ismcts"),
        ("karmox", "ismcts"),
        ("hamunaptra", "ismcts"),
        ("hamunaptra(players=4)", "ismcts"),
        // One tree per seat, following what each sees of the others' moves.
        ("karmaka", "moismcts"),
        ("fox", "moismcts"),
        ("karmox", "moismcts"),
        ("hamunaptra", "moismcts"),
        ("hamunaptra(players=4)", "moismcts"),
    ] {
        let game = AnyGame::parse(spec).unwrap();
        let small = with_game!(&game, g => search_allocations(g, kind, 400));
        let large = with_game!(&game, g => search_allocations(g, kind, 1600));
        assert!(
            large <= small + 8,
            "{spec} {kind}: {small} allocations in a search of 400 iterations, {large} in one of 1,600"
        );
    }
}

/// Allocations made by the second of two searches of `iterations` from the
/// first decision of `game` by one `kind` agent (cut rollouts).
fn search_allocations<G: Game>(game: &G, kind: &str, iterations: u32) -> u64 {
    use boardlab::agents::Decision;
    use boardlab::agents::registry::AgentSpec;
    let mut rng = rng_from_seed(1);
    let mut state = game.initial_state(&mut rng);
    while game.turn(&state) == Turn::Chance {
        let a = game.sample_chance(&state, &mut rng);
        game.apply(&mut state, a);
    }
    let Turn::Player(me) = game.turn(&state) else {
        panic!("{}: no decision at the start", game.spec())
    };
    let legal = game.legal_actions(&state);
    let spec =
        AgentSpec::parse(&format!("{kind}(iterations={iterations},max_rollout=20)")).unwrap();
    let mut agent = spec.build::<G>().unwrap();
    let mut allocs = 0;
    for round in 0..2 {
        let view = game.determinize(&state, me, &mut rng);
        let before = allocations();
        MEASURING.with(|m| m.set(round == 1));
        let _ = agent.act(Decision {
            game,
            me,
            view: &view,
            legal: &legal,
            rng: &mut rng,
            deadline: None,
        });
        MEASURING.with(|m| m.set(false));
        allocs = allocations() - before;
    }
    allocs
}

//! Behavioural tests of the agents: known answers on tic-tac-toe, a hidden-card
//! game with a known best play, determinism, capacity reuse, and the rule that
//! hidden information reaches an agent only through its determinized view.
//!
//! Game counts and tolerances are chosen from the sample sizes; see each test.

use arrayvec::ArrayVec;
use serde::{Deserialize, Serialize};

use super::greedy::GreedyAgent;
use super::mcts::ismcts::IsmctsAgent;
use super::mcts::pimc::PimcAgent;
use super::mcts::uct::MctsAgent;
use super::mcts::{Rollout, SearchConfig};
use super::random::RandomAgent;
use super::registry::AgentSpec;
use super::{Agent, Budget, Decision};
use crate::game::{Evaluation, Game, PlayerId, Reporting, Returns, Rules, Turn, conformance};
use crate::games::tictactoe::{State as TttState, TicTacToe};
use crate::rng::{GameRng, Stream, below, rng_from_seed, stream_rng};

/// Plays one game the way the runner does: chance from the game stream, each
/// seat's view determinized from the true state on the view stream, each seat
/// with its own stream. Returns the final returns and the action log.
pub(crate) fn play<G: Game>(
    game: &G,
    agents: &mut [&mut dyn Agent<G>],
    seed: u64,
) -> (Returns, Vec<G::Action>) {
    let mut game_rng = stream_rng(seed, Stream::Game);
    let mut view_rng = stream_rng(seed, Stream::View);
    let mut seat_rngs: Vec<GameRng> = (0..game.num_players())
        .map(|s| stream_rng(seed, Stream::Seat(s as u8)))
        .collect();
    let mut state = game.initial_state(&mut game_rng);
    let mut log = Vec::new();
    for _ in 0..game.max_game_length() {
        let action = match game.turn(&state) {
            Turn::Terminal => break,
            Turn::Chance => game.sample_chance(&state, &mut game_rng),
            Turn::Player(p) => {
                let legal = game.legal_actions(&state);
                let view = game.determinize(&state, p, &mut view_rng);
                let a = agents[p as usize].act(Decision {
                    game,
                    me: p,
                    view: &view,
                    legal: &legal,
                    rng: &mut seat_rngs[p as usize],
                    deadline: None,
                });
                assert!(legal.contains(&a), "illegal action {a:?}");
                a
            }
        };
        game.apply(&mut state, action);
        log.push(action);
    }
    assert_eq!(game.turn(&state), Turn::Terminal, "game did not finish");
    (game.returns(&state), log)
}

/// One decision of `agent` at `state` (which is also its view).
fn decide<G: Game>(game: &G, agent: &mut dyn Agent<G>, state: &G::State, seed: u64) -> G::Action {
    let Turn::Player(me) = game.turn(state) else {
        panic!("not a decision")
    };
    let legal = game.legal_actions(state);
    let mut rng = rng_from_seed(seed);
    agent.act(Decision {
        game,
        me,
        view: state,
        legal: &legal,
        rng: &mut rng,
        deadline: None,
    })
}

fn iters(n: u32) -> SearchConfig {
    SearchConfig {
        budget: Budget::Iterations(n),
        ..SearchConfig::default()
    }
}

fn mcts<G: Game>(n: u32) -> MctsAgent<G> {
    MctsAgent::new(iters(n))
}

fn ttt(x: &[u8], o: &[u8]) -> TttState {
    let mask = |cells: &[u8]| cells.iter().fold(0u16, |m, &c| m | 1 << c);
    TttState {
        marks: [mask(x), mask(o)],
        to_move: u8::from(x.len() > o.len()),
    }
}

/// The three tree searches with `n` iterations each, by name.
fn searchers<G: Game>(n: u32) -> Vec<(&'static str, Box<dyn Agent<G>>)> {
    vec![
        ("mcts", Box::new(mcts::<G>(n))),
        ("pimc", Box::new(PimcAgent::<G>::new(iters(n), 10))),
        ("ismcts", Box::new(IsmctsAgent::<G>::new(iters(n)))),
    ]
}

// ---------------------------------------------------------------- tic-tac-toe

#[test]
fn searches_take_a_win_in_one_and_block() {
    let g = TicTacToe;
    // X on 0,1 and O on 3,4, X to move: 2 wins at once (5 would let O win).
    let win = ttt(&[0, 1], &[3, 4]);
    // X on 0,1, O on 4, O to move: only 2 prevents X's immediate win.
    let block = ttt(&[0, 1], &[4]);
    for (name, mut agent) in searchers::<TicTacToe>(1000) {
        for seed in 0..3 {
            assert_eq!(decide(&g, &mut *agent, &win, seed), 2, "{name} win");
            assert_eq!(decide(&g, &mut *agent, &block, seed), 2, "{name} block");
        }
    }
    let mut greedy = GreedyAgent::new(4);
    for seed in 0..5 {
        assert_eq!(decide(&g, &mut greedy, &win, seed), 2);
    }
}

/// `mcts` never loses to `random`. A loss rate of even 1 % would show up in
/// `n` games with probability 1 - 0.99^n (33 % at 40 games, 87 % at 200).
fn mcts_never_loses_to_random_in(games: u64) {
    let g = TicTacToe;
    let mut m = mcts::<TicTacToe>(1000);
    let mut r = RandomAgent;
    for i in 0..games {
        let seat = (i % 2) as usize;
        let (returns, log) = if seat == 0 {
            play(&g, &mut [&mut m, &mut r], 1000 + i)
        } else {
            play(&g, &mut [&mut r, &mut m], 1000 + i)
        };
        assert!(returns[seat] >= 0.0, "mcts lost in seat {seat}: {log:?}");
    }
}

#[test]
fn mcts_never_loses_to_random() {
    mcts_never_loses_to_random_in(200);
}

#[test]
fn mcts_draws_against_itself() {
    let g = TicTacToe;
    for seed in 0..4 {
        let mut a = mcts::<TicTacToe>(1000);
        let mut b = mcts::<TicTacToe>(1000);
        let (returns, log) = play(&g, &mut [&mut a, &mut b], seed);
        assert_eq!(&*returns, &[0.0, 0.0], "seed {seed}: {log:?}");
    }
}

#[test]
fn greedy_rollouts_and_cutoffs_play_sensibly() {
    let g = TicTacToe;
    let cfg = SearchConfig {
        budget: Budget::Iterations(300),
        rollout: Rollout::Greedy { epsilon: 0.2 },
        max_rollout: 3,
        ..SearchConfig::default()
    };
    let mut a = MctsAgent::<TicTacToe>::new(cfg);
    assert_eq!(decide(&g, &mut a, &ttt(&[0, 1], &[4]), 1), 2);
    let mut r = RandomAgent;
    for seed in 0..6 {
        let (returns, log) = play(&g, &mut [&mut a, &mut r], seed);
        assert!(returns[0] >= 0.0, "{log:?}");
    }
}

#[test]
fn mast_rollouts_play_sensibly() {
    let g = TicTacToe;
    for rollout in [
        Rollout::Mast { epsilon: 0.1 },
        Rollout::MastGibbs { tau: 0.5 },
    ] {
        let cfg = SearchConfig {
            budget: Budget::Iterations(500),
            rollout,
            ..SearchConfig::default()
        };
        let mut a = MctsAgent::<TicTacToe>::new(cfg);
        assert_eq!(decide(&g, &mut a, &ttt(&[0, 1], &[4]), 1), 2, "{rollout:?}");
        assert_eq!(
            decide(&g, &mut a, &ttt(&[0, 1], &[3, 4]), 2),
            2,
            "{rollout:?}"
        );
        let mut r = RandomAgent;
        for seed in 0..6 {
            let (returns, log) = play(&g, &mut [&mut r, &mut a], seed);
            assert!(returns[1] >= 0.0, "{rollout:?}: {log:?}");
        }
    }
}

#[test]
fn same_seed_same_game() {
    let g = TicTacToe;
    let run = |seed| {
        let mut a = mcts::<TicTacToe>(200);
        let mut b = IsmctsAgent::<TicTacToe>::new(iters(200));
        play(&g, &mut [&mut a, &mut b], seed).1
    };
    assert_eq!(run(7), run(7));
    let run = |seed| {
        let mut a = PimcAgent::<TicTacToe>::new(iters(200), 4);
        let mut b = GreedyAgent::new(2);
        play(&g, &mut [&mut a, &mut b], seed).1
    };
    assert_eq!(run(8), run(8));
    let hc = HIGH_CARD;
    for seed in 0..5 {
        let run = || {
            let mut a = IsmctsAgent::<HighCard>::new(iters(50));
            let mut b = RandomAgent;
            play(&hc, &mut [&mut a, &mut b], seed).1
        };
        assert_eq!(run(), run());
    }
}

#[test]
fn iterations_are_reported_and_arena_capacity_reused() {
    let g = TicTacToe;
    let start = TttState::default();
    let mut a = mcts::<TicTacToe>(500);
    decide(&g, &mut a, &start, 1);
    assert_eq!(a.last_iterations(), 500);
    // One node per iteration at most, plus the root.
    assert!(a.engine().tree().len() <= 501);
    let cap = a.engine().tree().capacity();
    decide(&g, &mut a, &start, 2);
    assert_eq!(a.engine().tree().capacity(), cap);
    let mut p = PimcAgent::<TicTacToe>::new(iters(95), 10);
    decide(&g, &mut p, &start, 1);
    assert_eq!(p.last_iterations(), 95);
    let mut p = PimcAgent::<TicTacToe>::new(iters(3), 10);
    decide(&g, &mut p, &start, 1);
    assert_eq!(p.last_iterations(), 3);
    // A forced move needs no search.
    let mut i = IsmctsAgent::<TicTacToe>::new(iters(100));
    decide(&g, &mut i, &ttt(&[0, 1, 5, 6], &[2, 3, 4, 8]), 1);
    assert_eq!(i.last_iterations(), 0);
}

#[test]
fn registry_builds_search_kinds_with_time_budgets() {
    let g = TicTacToe;
    for spec in [
        "mcts(time_ms=20)",
        "pimc(time_ms=20,determinizations=4)",
        "ismcts(time_ms=20,rollout=greedy,epsilon=0.5,max_rollout=4)",
        "greedy(samples=2)",
        "mcts-1k",
        "ismcts-1k(iterations=50)",
    ] {
        let mut agent = AgentSpec::parse(spec)
            .unwrap()
            .build::<TicTacToe>()
            .unwrap();
        let a = decide(&g, &mut *agent, &ttt(&[0, 1], &[4]), 3);
        assert_eq!(a, 2, "{spec}");
        if spec.contains("time_ms") {
            assert!(agent.last_iterations() >= 8, "{spec}");
        }
    }
    for bad in [
        "mcts(rollout=smart)",
        "pimc(determinizations=0)",
        "ismcts(c=-1)",
    ] {
        assert!(AgentSpec::parse(bad).is_err(), "{bad}");
    }
}

// ---------------------------------------------------------- a hidden-card game

/// "High card": a deck of `deck` cards 0 < 1 < …; chance deals one to each seat,
/// face down. Seat 0 then folds (returns -0.25 / +0.25) or bets (higher card
/// wins ±1). With three cards the best play is: bet with 2 (sure win), fold with
/// 0 (sure loss), and bet with 1, since seat 1 holds 0 or 2 with equal
/// probability: betting is worth 0, folding -0.25. A search that trusts one
/// determinization folds a 1 whenever its view gives the opponent the 2.
#[derive(Clone, Debug)]
pub(crate) struct HighCard {
    deck: u8,
}

const HIGH_CARD: HighCard = HighCard { deck: 3 };

const NONE: u8 = u8::MAX;
const FOLD: u8 = 10;
const BET: u8 = 11;

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub(crate) struct HighCardState {
    cards: [u8; 2],
    dealt: u8,
    choice: u8,
}

impl HighCardState {
    fn dealt(p0: u8, p1: u8) -> Self {
        HighCardState {
            cards: [p0, p1],
            dealt: 2,
            choice: NONE,
        }
    }
}

impl HighCard {
    /// Cards not yet dealt, excluding `except`.
    fn free(&self, cards: &[u8], except: u8) -> ArrayVec<u8, 8> {
        (0..self.deck)
            .filter(|c| !cards.contains(c) && *c != except)
            .collect()
    }
}

impl Rules for HighCard {
    type State = HighCardState;
    type Action = u8;
    type Actions = ArrayVec<u8, 2>;
    type InfoKey = (u8, u8, u8);

    fn spec(&self) -> String {
        format!("highcard(deck={})", self.deck)
    }
    fn num_players(&self) -> usize {
        2
    }
    fn max_actions(&self) -> usize {
        2
    }
    fn max_game_length(&self) -> u32 {
        3
    }
    fn has_hidden_information(&self) -> bool {
        true
    }
    fn initial_state(&self, _rng: &mut GameRng) -> HighCardState {
        HighCardState {
            cards: [NONE; 2],
            dealt: 0,
            choice: NONE,
        }
    }
    fn turn(&self, s: &HighCardState) -> Turn {
        if s.dealt < 2 {
            Turn::Chance
        } else if s.choice == NONE {
            Turn::Player(0)
        } else {
            Turn::Terminal
        }
    }
    fn legal_actions(&self, s: &HighCardState) -> ArrayVec<u8, 2> {
        let mut out = ArrayVec::new();
        if self.turn(s) == Turn::Player(0) {
            out.push(FOLD);
            out.push(BET);
        }
        out
    }
    fn apply(&self, s: &mut HighCardState, a: u8) {
        if s.dealt < 2 {
            s.cards[s.dealt as usize] = a;
            s.dealt += 1;
        } else {
            s.choice = a;
        }
    }
    fn chance_outcomes(&self, s: &HighCardState) -> Vec<(u8, f64)> {
        let free = self.free(&s.cards[..s.dealt as usize], NONE);
        let p = 1.0 / free.len() as f64;
        free.iter().map(|&c| (c, p)).collect()
    }
    fn sample_chance(&self, s: &HighCardState, rng: &mut GameRng) -> u8 {
        let free = self.free(&s.cards[..s.dealt as usize], NONE);
        free[below(rng, free.len())]
    }
    fn determinize(
        &self,
        s: &HighCardState,
        observer: PlayerId,
        rng: &mut GameRng,
    ) -> HighCardState {
        let mut d = s.clone();
        let me = observer as usize;
        let other = 1 - me;
        if (other as u8) < s.dealt {
            // The other card is anything but the observer's own (if dealt).
            let mine = if (me as u8) < s.dealt {
                s.cards[me]
            } else {
                NONE
            };
            let free = self.free(&[], mine);
            d.cards[other] = free[below(rng, free.len())];
        }
        d
    }
    fn info_key(&self, s: &HighCardState, observer: PlayerId) -> (u8, u8, u8) {
        let me = observer as usize;
        let mine = if (me as u8) < s.dealt {
            s.cards[me]
        } else {
            NONE
        };
        (mine, s.dealt, s.choice)
    }
    fn returns(&self, s: &HighCardState) -> Returns {
        let r0 = match s.choice {
            FOLD => -0.25,
            _ if s.cards[0] > s.cards[1] => 1.0,
            _ => -1.0,
        };
        [r0, -r0].into_iter().collect()
    }
}

impl Reporting for HighCard {
    fn render(&self, s: &HighCardState, viewer: Option<PlayerId>) -> String {
        match viewer {
            None => format!("{s:?}"),
            Some(p) => format!("{:?}", self.info_key(s, p)),
        }
    }
    fn action_label(&self, s: &HighCardState, a: u8) -> String {
        match (s.dealt < 2, a) {
            (true, c) => format!("deal {c}"),
            (false, FOLD) => "fold".into(),
            (false, _) => "bet".into(),
        }
    }
}

impl Evaluation for HighCard {
    fn heuristic(&self, _s: &HighCardState, _player: PlayerId) -> f64 {
        0.0
    }
}

#[test]
fn high_card_is_a_conforming_game() {
    conformance::check(
        &HIGH_CARD,
        conformance::Config {
            determinize_every: 1,
            ..conformance::Config::default()
        },
    );
}

/// Every view seat 0 can be handed with its own card `mine` (the opponent's
/// card in a view is a guess).
fn views(g: &HighCard, mine: u8) -> impl Iterator<Item = HighCardState> {
    (0..g.deck)
        .filter(move |&c| c != mine)
        .map(move |c| HighCardState::dealt(mine, c))
}

#[test]
fn ismcts_finds_the_best_play_with_hidden_cards() {
    let g = HIGH_CARD;
    for (mine, best) in [(0, FOLD), (1, BET), (2, BET)] {
        for view in views(&g, mine) {
            for seed in 0..3 {
                let mut i = IsmctsAgent::<HighCard>::new(iters(1000));
                assert_eq!(decide(&g, &mut i, &view, seed), best, "{view:?}");
            }
        }
    }
    // UCT on the view alone believes the guess: with a 1 it folds when the view
    // says the opponent holds the 2. This is why `mcts` is a baseline only.
    let mut m = mcts::<HighCard>(1000);
    assert_eq!(decide(&g, &mut m, &HighCardState::dealt(1, 2), 0), FOLD);
    assert_eq!(decide(&g, &mut m, &HighCardState::dealt(1, 0), 0), BET);
}

/// PIMC sums root visits over worlds, which behaves like a vote of the worlds:
/// it finds the best play where the best action is also best in most worlds.
/// With three cards and a 1, betting is best in expectation but best in only
/// half the worlds, and the vote follows the sampling noise in how many worlds
/// of each kind were drawn (60–90 % right over 100 seeds at 10–50 worlds), so
/// that case is not asserted. With four cards and a 2, betting is worth +1/3
/// against -1/4 and best in two worlds out of three.
#[test]
fn pimc_finds_the_best_play_with_hidden_cards() {
    let three = HIGH_CARD;
    let four = HighCard { deck: 4 };
    let cases = [
        (&three, 0, FOLD),
        (&three, 2, BET),
        (&four, 0, FOLD),
        (&four, 2, BET),
        (&four, 3, BET),
    ];
    for (g, mine, best) in cases {
        for view in views(g, mine) {
            for seed in 0..3 {
                let mut p = PimcAgent::<HighCard>::new(iters(1000), 20);
                assert_eq!(decide(g, &mut p, &view, seed), best, "{view:?}");
                let mut i = IsmctsAgent::<HighCard>::new(iters(1000));
                assert_eq!(decide(g, &mut i, &view, seed), best, "{view:?}");
            }
        }
    }
}

/// The no-leak rule. An agent sees the true state only through the view the
/// runner makes with `determinize(truth, me, view_rng)`, which resamples
/// everything `me` cannot see. So two true states that `me` cannot tell apart
/// give the same distribution of views, hence of decisions; in a game whose
/// determinization ignores the hidden values (as here) they give identical views
/// for the same view stream, hence identical decisions for the same seat stream.
/// An agent can still read the hidden part *of its view* (plain `mcts` does),
/// which is harmless because that part is a guess. PIMC and ISMCTS go further:
/// they touch their view only through `determinize`, so even two views that
/// differ in hidden values give the same decision.
fn assert_no_leak<G: Game>(
    game: &G,
    a: &G::State,
    b: &G::State,
    me: PlayerId,
    agent: &mut dyn Agent<G>,
    view_only_through_determinize: bool,
    seed: u64,
) {
    assert_eq!(
        game.info_key(a, me),
        game.info_key(b, me),
        "not equivalent for {me}"
    );
    assert_ne!(a, b, "the states should differ in hidden information");
    let legal = game.legal_actions(a);
    assert_eq!(&*legal, &*game.legal_actions(b));
    let mut run = |view: &G::State| {
        let mut rng = rng_from_seed(seed);
        agent.act(Decision {
            game,
            me,
            view,
            legal: &legal,
            rng: &mut rng,
            deadline: None,
        })
    };
    let va = game.determinize(a, me, &mut rng_from_seed(seed ^ 0x5eed));
    let vb = game.determinize(b, me, &mut rng_from_seed(seed ^ 0x5eed));
    assert_eq!(va, vb, "determinization leaked the hidden values");
    assert_eq!(run(&va), run(&vb), "decision depends on hidden information");
    if view_only_through_determinize {
        assert_eq!(run(a), run(b), "decision read the view's hidden part");
    }
}

#[test]
fn hidden_information_reaches_agents_only_through_the_view() {
    let g = HIGH_CARD;
    let a = HighCardState::dealt(1, 0);
    let b = HighCardState::dealt(1, 2);
    for seed in 0..4 {
        assert_no_leak(&g, &a, &b, 0, &mut mcts::<HighCard>(100), false, seed);
        assert_no_leak(&g, &a, &b, 0, &mut GreedyAgent::new(2), false, seed);
        let mut p = PimcAgent::<HighCard>::new(iters(100), 5);
        assert_no_leak(&g, &a, &b, 0, &mut p, true, seed);
        let mut i = IsmctsAgent::<HighCard>::new(iters(100));
        assert_no_leak(&g, &a, &b, 0, &mut i, true, seed);
    }
}

// -------------------------------------------------------------- Connect Four

/// `mcts(iterations=1000)` beats `random` in at least 95 % of Connect Four
/// games. Played through the runner's game loop, half the games in each seat.
/// Draws count as failures. With n = 200, the 95 % Wilson lower bound clears
/// 0.95 only with at most 2 failures (198/200 gives 0.964), so a true win rate
/// of 95 % passes this with negligible probability: the check is a real lower
/// bound, not a smoke test.
#[test]
fn mcts_beats_random_at_connect_four() {
    use crate::arena::play::play_game;
    use crate::game::Outcome;
    use crate::games::connect4::Connect4;
    use crate::stats::{Z95, wilson};
    let g = Connect4;
    let n = 200u64;
    let mut wins = 0u64;
    for i in 0..n {
        let seat = (i % 2) as usize;
        let mut agents: Vec<Box<dyn Agent<Connect4>>> =
            vec![Box::new(mcts::<Connect4>(1000)), Box::new(RandomAgent)];
        if seat == 1 {
            agents.swap(0, 1);
        }
        let result = play_game(&g, &mut agents, 5000 + i, None, &mut |_, _, _| {});
        assert!(result.error.is_none(), "{:?}", result.error);
        wins += u64::from(result.seats[seat].outcome == Outcome::Win);
    }
    let (lo, _) = wilson(wins as f64, n as f64, Z95);
    assert!(lo >= 0.95, "{wins}/{n} wins, Wilson lower bound {lo:.3}");
}

#[test]
fn searches_take_a_win_and_block_at_connect_four() {
    use crate::games::connect4::Connect4;
    let g = Connect4;
    let play_cols = |cols: &[u8]| {
        let mut s = g.initial_state(&mut rng_from_seed(0));
        for &c in cols {
            g.apply(&mut s, c);
        }
        s
    };
    // X holds columns 0,1,2 on the bottom row, O stacked on 6: X wins at 3.
    let win = play_cols(&[0, 6, 1, 6, 2, 5]);
    // Same threat, O to move: only 3 stops it.
    let block = play_cols(&[0, 6, 1, 6, 2]);
    for (name, mut agent) in searchers::<Connect4>(1000) {
        for seed in 0..2 {
            assert_eq!(decide(&g, &mut *agent, &win, seed), 3, "{name} win");
            assert_eq!(decide(&g, &mut *agent, &block, seed), 3, "{name} block");
        }
    }
}

// ------------------------------------------------------- max^n with 3 players

/// Three seats move once each, in order, choosing 0 or 1. Seat 2's choice only
/// pays itself; seats 0 and 1 get (seat 0 first, seat 1 second):
///
/// | seat 0 | seat 1 = 0   | seat 1 = 1   |
/// |--------|--------------|--------------|
/// | 0      | (0.5, -1)    | (-0.5, 1)    |
/// | 1      | (0, 1)       | (-1, -1)     |
///
/// Under max^n seat 1 answers 0 with 1 and 1 with 0, so seat 0 gets -0.5 or 0
/// and plays 1. Backing up seat 0's return everywhere (optimistic: 0.5 vs 0)
/// or assuming the others minimise it (paranoid: -0.5 vs -1) both play 0.
#[derive(Clone, Debug)]
struct ThreeSeats;

#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
struct ThreeSeatsState {
    moves: [u8; 3],
    n: u8,
}

impl Rules for ThreeSeats {
    type State = ThreeSeatsState;
    type Action = u8;
    type Actions = ArrayVec<u8, 2>;
    type InfoKey = ThreeSeatsState;

    fn spec(&self) -> String {
        "threeseats".into()
    }
    fn num_players(&self) -> usize {
        3
    }
    fn max_actions(&self) -> usize {
        2
    }
    fn max_game_length(&self) -> u32 {
        3
    }
    fn has_hidden_information(&self) -> bool {
        false
    }
    fn initial_state(&self, _rng: &mut GameRng) -> ThreeSeatsState {
        ThreeSeatsState::default()
    }
    fn turn(&self, s: &ThreeSeatsState) -> Turn {
        if s.n < 3 {
            Turn::Player(s.n)
        } else {
            Turn::Terminal
        }
    }
    fn legal_actions(&self, s: &ThreeSeatsState) -> ArrayVec<u8, 2> {
        if s.n < 3 {
            [0, 1].into_iter().collect()
        } else {
            ArrayVec::new()
        }
    }
    fn apply(&self, s: &mut ThreeSeatsState, a: u8) {
        s.moves[s.n as usize] = a;
        s.n += 1;
    }
    fn chance_outcomes(&self, _s: &ThreeSeatsState) -> Vec<(u8, f64)> {
        Vec::new()
    }
    fn sample_chance(&self, _s: &ThreeSeatsState, _rng: &mut GameRng) -> u8 {
        unreachable!("no chance nodes")
    }
    fn determinize(
        &self,
        s: &ThreeSeatsState,
        _o: PlayerId,
        _rng: &mut GameRng,
    ) -> ThreeSeatsState {
        s.clone()
    }
    fn info_key(&self, s: &ThreeSeatsState, _o: PlayerId) -> ThreeSeatsState {
        s.clone()
    }
    fn returns(&self, s: &ThreeSeatsState) -> Returns {
        let (r0, r1) = match (s.moves[0], s.moves[1]) {
            (0, 0) => (0.5, -1.0),
            (0, _) => (-0.5, 1.0),
            (_, 0) => (0.0, 1.0),
            _ => (-1.0, -1.0),
        };
        let r2 = if s.moves[2] == 0 { 0.5 } else { 0.0 };
        [r0, r1, r2].into_iter().collect()
    }
}

impl Reporting for ThreeSeats {
    fn render(&self, s: &ThreeSeatsState, _viewer: Option<PlayerId>) -> String {
        format!("{s:?}")
    }
    fn action_label(&self, _s: &ThreeSeatsState, a: u8) -> String {
        a.to_string()
    }
}

impl Evaluation for ThreeSeats {
    fn heuristic(&self, _s: &ThreeSeatsState, _player: PlayerId) -> f64 {
        0.0
    }
}

#[test]
fn searches_back_up_max_n_with_three_seats() {
    let g = ThreeSeats;
    conformance::check(&g, conformance::Config::default());
    let after = |moves: &[u8]| {
        let mut s = ThreeSeatsState::default();
        for &m in moves {
            g.apply(&mut s, m);
        }
        s
    };
    for (name, mut agent) in searchers::<ThreeSeats>(1000) {
        for seed in 0..3 {
            assert_eq!(
                decide(&g, &mut *agent, &after(&[]), seed),
                1,
                "{name} seat 0"
            );
            assert_eq!(
                decide(&g, &mut *agent, &after(&[0]), seed),
                1,
                "{name} seat 1"
            );
            assert_eq!(
                decide(&g, &mut *agent, &after(&[1]), seed),
                0,
                "{name} seat 1"
            );
            assert_eq!(
                decide(&g, &mut *agent, &after(&[1, 0]), seed),
                0,
                "{name} seat 2"
            );
        }
    }
    let mut r = RandomAgent;
    let mut m = mcts::<ThreeSeats>(500);
    let mut i = IsmctsAgent::<ThreeSeats>::new(iters(500));
    let (returns, log) = play(&g, &mut [&mut m, &mut i, &mut r], 1);
    assert_eq!(&log[..2], &[1, 0], "{returns:?}");
}

// ---------------------------------------------------- chance after a decision

/// Seat 0 stays (returns 0 for both) or rolls a die and wins ±1 on a roll of
/// at least `win_from`. Rolling is worth (7 - 2 win_from) / 3: +1/3 when
/// `win_from` is 3, -1/3 when it is 5. Seat 1 never moves.
#[derive(Clone, Debug)]
struct Dice {
    win_from: u8,
}

const STAY: u8 = 0;
const ROLL: u8 = 1;

#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
struct DiceState {
    choice: Option<u8>,
    die: Option<u8>,
}

impl Rules for Dice {
    type State = DiceState;
    type Action = u8;
    type Actions = ArrayVec<u8, 2>;
    type InfoKey = DiceState;

    fn spec(&self) -> String {
        format!("dice(win_from={})", self.win_from)
    }
    fn num_players(&self) -> usize {
        2
    }
    fn max_actions(&self) -> usize {
        2
    }
    fn max_game_length(&self) -> u32 {
        2
    }
    fn has_hidden_information(&self) -> bool {
        false
    }
    fn initial_state(&self, _rng: &mut GameRng) -> DiceState {
        DiceState::default()
    }
    fn turn(&self, s: &DiceState) -> Turn {
        match (s.choice, s.die) {
            (None, _) => Turn::Player(0),
            (Some(ROLL), None) => Turn::Chance,
            _ => Turn::Terminal,
        }
    }
    fn legal_actions(&self, s: &DiceState) -> ArrayVec<u8, 2> {
        match s.choice {
            None => [STAY, ROLL].into_iter().collect(),
            Some(_) => ArrayVec::new(),
        }
    }
    fn apply(&self, s: &mut DiceState, a: u8) {
        if s.choice.is_none() {
            s.choice = Some(a);
        } else {
            s.die = Some(a);
        }
    }
    fn chance_outcomes(&self, _s: &DiceState) -> Vec<(u8, f64)> {
        (1..=6).map(|d| (d, 1.0 / 6.0)).collect()
    }
    fn sample_chance(&self, _s: &DiceState, rng: &mut GameRng) -> u8 {
        1 + below(rng, 6) as u8
    }
    fn determinize(&self, s: &DiceState, _o: PlayerId, _rng: &mut GameRng) -> DiceState {
        s.clone()
    }
    fn info_key(&self, s: &DiceState, _o: PlayerId) -> DiceState {
        s.clone()
    }
    fn returns(&self, s: &DiceState) -> Returns {
        let r = match s.die {
            None => 0.0,
            Some(d) if d >= self.win_from => 1.0,
            Some(_) => -1.0,
        };
        [r, -r].into_iter().collect()
    }
}

impl Reporting for Dice {
    fn render(&self, s: &DiceState, _viewer: Option<PlayerId>) -> String {
        format!("{s:?}")
    }
    fn action_label(&self, _s: &DiceState, a: u8) -> String {
        a.to_string()
    }
}

impl Evaluation for Dice {
    fn heuristic(&self, _s: &DiceState, _player: PlayerId) -> f64 {
        0.0
    }
}

/// Open-loop chance: the searches average over sampled rolls. With 1,000
/// iterations the rolling node gets at least about 120 visits (UCB keeps
/// exploring a gap of 1/3 that long), so its mean has a standard error of at
/// most 0.09 against a margin of 1/3. Greedy averages
/// `samples` rolls: 200 give a standard error of 0.067, a 5-sigma margin.
#[test]
fn searches_and_greedy_average_over_chance() {
    for (win_from, best) in [(3, ROLL), (5, STAY)] {
        let g = Dice { win_from };
        conformance::check(&g, conformance::Config::default());
        let s = DiceState::default();
        for (name, mut agent) in searchers::<Dice>(1000) {
            for seed in 0..3 {
                assert_eq!(decide(&g, &mut *agent, &s, seed), best, "{name} {win_from}");
            }
        }
        let mut greedy = GreedyAgent::new(200);
        for seed in 0..3 {
            assert_eq!(decide(&g, &mut greedy, &s, seed), best, "greedy {win_from}");
        }
    }
}

// ------------------------------------------------------- availability counts

/// Chance deals seat 1 a hidden card 0..3; seat 0 picks 0 or 1; seat 1 then
/// passes or plays its card. Seen from seat 0, which of seat 1's replies is
/// legal depends on the determinization: exactly what availability counts are for.
#[derive(Clone, Debug)]
struct Reply;

const PASS: u8 = 10;

#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
struct ReplyState {
    card: Option<u8>,
    choice: Option<u8>,
    reply: Option<u8>,
}

impl Rules for Reply {
    type State = ReplyState;
    type Action = u8;
    type Actions = ArrayVec<u8, 2>;
    type InfoKey = (Option<u8>, Option<u8>, Option<u8>);

    fn spec(&self) -> String {
        "reply".into()
    }
    fn num_players(&self) -> usize {
        2
    }
    fn max_actions(&self) -> usize {
        2
    }
    fn max_game_length(&self) -> u32 {
        3
    }
    fn has_hidden_information(&self) -> bool {
        true
    }
    fn initial_state(&self, _rng: &mut GameRng) -> ReplyState {
        ReplyState::default()
    }
    fn turn(&self, s: &ReplyState) -> Turn {
        match (s.card, s.choice, s.reply) {
            (None, _, _) => Turn::Chance,
            (_, None, _) => Turn::Player(0),
            (_, _, None) => Turn::Player(1),
            _ => Turn::Terminal,
        }
    }
    fn legal_actions(&self, s: &ReplyState) -> ArrayVec<u8, 2> {
        match self.turn(s) {
            Turn::Player(0) => [0, 1].into_iter().collect(),
            Turn::Player(_) => [PASS, s.card.unwrap_or(0)].into_iter().collect(),
            _ => ArrayVec::new(),
        }
    }
    fn apply(&self, s: &mut ReplyState, a: u8) {
        match self.turn(s) {
            Turn::Chance => s.card = Some(a),
            Turn::Player(0) => s.choice = Some(a),
            _ => s.reply = Some(a),
        }
    }
    fn chance_outcomes(&self, _s: &ReplyState) -> Vec<(u8, f64)> {
        (0..3).map(|c| (c, 1.0 / 3.0)).collect()
    }
    fn sample_chance(&self, _s: &ReplyState, rng: &mut GameRng) -> u8 {
        below(rng, 3) as u8
    }
    fn determinize(&self, s: &ReplyState, observer: PlayerId, rng: &mut GameRng) -> ReplyState {
        let mut d = s.clone();
        if observer == 0 && s.card.is_some() {
            // A played card is public; otherwise seat 1's card is anything.
            d.card = match s.reply {
                Some(c) if c != PASS => Some(c),
                _ => Some(below(rng, 3) as u8),
            };
        }
        d
    }
    fn info_key(&self, s: &ReplyState, observer: PlayerId) -> Self::InfoKey {
        let card = if observer == 1 { s.card } else { None };
        (card, s.choice, s.reply)
    }
    fn returns(&self, s: &ReplyState) -> Returns {
        // Seat 1 gains by playing a card higher than seat 0's choice.
        let r1 = match s.reply {
            Some(c) if c != PASS && c > s.choice.unwrap_or(0) => 1.0,
            _ => 0.0,
        };
        [-r1, r1].into_iter().collect()
    }
}

impl Reporting for Reply {
    fn render(&self, s: &ReplyState, viewer: Option<PlayerId>) -> String {
        match viewer {
            Some(p) => format!("{:?}", self.info_key(s, p)),
            None => format!("{s:?}"),
        }
    }
    fn action_label(&self, _s: &ReplyState, a: u8) -> String {
        a.to_string()
    }
}

impl Evaluation for Reply {
    fn heuristic(&self, _s: &ReplyState, _player: PlayerId) -> f64 {
        0.0
    }
}

#[test]
fn ismcts_counts_availability_per_determinization() {
    use super::mcts::{Engine, Sampling};
    let g = Reply;
    let every_state = conformance::Config {
        determinize_every: 1,
        ..conformance::Config::default()
    };
    conformance::check(&g, every_state);
    let view = ReplyState {
        card: Some(2),
        ..ReplyState::default()
    };
    let cfg = iters(2000);
    let mut rng = rng_from_seed(11);
    let mut engine = Engine::<Reply>::default();
    for sampling in [Sampling::Redeterminize, Sampling::Fixed] {
        engine.reset(0);
        engine.search(&g, &view, 0, &cfg, cfg.budget, sampling, &mut rng);
        let t = engine.tree();
        for x in t.children(0) {
            let parent = t.get(x).visits;
            let replies: Vec<_> = t.children(x).map(|c| *t.get(c)).collect();
            for r in &replies {
                assert!(r.avail >= r.visits, "{r:?}");
                assert!(r.avail <= parent, "{r:?}");
            }
            let pass = replies.iter().find(|r| r.action == PASS).unwrap();
            assert!(
                pass.avail + 4 >= parent,
                "pass always legal: {pass:?} of {parent}"
            );
            match sampling {
                // Each card is legal in about a third of the visits (binomial
                // sd below 0.03 of them at these counts); half is far outside.
                Sampling::Redeterminize => {
                    assert_eq!(replies.len(), 4, "pass and three cards seen");
                    for r in replies.iter().filter(|r| r.action != PASS) {
                        assert!(2 * r.avail < parent, "{r:?} of {parent}");
                    }
                }
                // The view's card only.
                Sampling::Fixed => assert_eq!(replies.len(), 2),
            }
        }
    }
}

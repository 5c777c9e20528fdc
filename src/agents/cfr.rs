//! `cfr`: an equilibrium player for two-player zero-sum games small enough to
//! solve in memory (Kuhn and Leduc poker). It builds the whole game tree
//! ([`GameTree`]: chance enumerated, information sets from
//! [`Rules::info_key`](crate::game::Rules::info_key)), runs CFR+ on it ([`crate::tree::cfr`]: why CFR+
//! is said there) and plays the average strategy at the information set of
//! its seat's view, drawing with the seat's random stream. It sees what any
//! agent sees: the tree is the rules', the information set its own view's.
//!
//! A game is solved once per process for each spec and iteration count, by
//! whichever thread asks first, and shared: a tournament of thousands of
//! games solves once.

use std::any::{Any, TypeId};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use super::{Agent, Decision};
use crate::error::SpecError;
use crate::game::Game;
use crate::rng::{rng_from_seed, weighted_index};
use crate::spec::Params;
use crate::tree::cfr;
use crate::tree::{GameTree, MAX_NODES, Policy};

/// The most iterations accepted.
pub const MAX_ITERATIONS: u64 = 1_000_000;

/// A game's tree and its CFR+ average strategy.
pub struct Solution<G: Game> {
    /// The whole game tree.
    pub tree: GameTree<G>,
    /// The average strategy at each of the tree's information sets.
    pub policy: Policy,
}

/// The `cfr` agent: its iteration count, and once it has met its game, the
/// solution it plays.
#[derive(Clone)]
pub struct CfrAgent<G: Game> {
    iterations: u32,
    solution: Option<Arc<Solution<G>>>,
}

impl<G: Game> CfrAgent<G> {
    /// An agent that will solve its game with `iterations` iterations.
    pub fn new(iterations: u32) -> Self {
        CfrAgent {
            iterations,
            solution: None,
        }
    }

    /// Reads `iterations` (1 to [`MAX_ITERATIONS`], 1000 by default).
    pub fn from_params(params: &mut Params) -> Result<Self, SpecError> {
        Ok(Self::new(
            params.int("iterations", 1000, 1, MAX_ITERATIONS)? as u32,
        ))
    }

    /// Solves `game` now (or finds it solved): the error says why it cannot
    /// be solved (not two players, not zero-sum, a tree over [`MAX_NODES`]
    /// nodes, setup randomness outside chance nodes).
    pub fn prepare(&mut self, game: &G) -> Result<Arc<Solution<G>>, String> {
        if let Some(s) = &self.solution {
            return Ok(s.clone());
        }
        let s = solved(game, self.iterations)?;
        self.solution = Some(s.clone());
        Ok(s)
    }

    /// The average strategy at `d`'s information set, in the order of `d.legal`.
    fn strategy(&mut self, d: &Decision<'_, G>) -> Vec<f64> {
        // The runner and `boardlab exploitability` call `prepare` first, so
        // these only fail for a caller that did not.
        let solution = self.prepare(d.game).unwrap_or_else(|e| panic!("cfr: {e}"));
        let key = d.game.info_key(d.view, d.me);
        let Some(i) = solution.tree.infoset_of(d.me, &key) else {
            panic!(
                "cfr: seat {} reached an information set outside the solved tree of {}",
                d.me,
                d.game.spec()
            )
        };
        assert!(
            solution.tree.infosets[i].legal[..] == d.legal[..],
            "cfr: the legal actions differ from the solved tree's at seat {}'s information set",
            d.me
        );
        solution.policy[i].clone()
    }
}

impl<G: Game> Agent<G> for CfrAgent<G> {
    fn act(&mut self, d: Decision<'_, G>) -> G::Action {
        let p = self.strategy(&d);
        d.legal[weighted_index(d.rng, p.iter().copied())]
    }

    fn exact_policy(&mut self, d: Decision<'_, G>) -> Option<Vec<f64>> {
        Some(self.strategy(&d))
    }
}

/// Solved games: (game type, spec, iterations) → a cell holding
/// `Result<Arc<Solution<G>>, String>` for that type.
type Cache = Mutex<HashMap<(TypeId, String, u32), Arc<dyn Any + Send + Sync>>>;

/// The solution of `game` at `iterations`, computed once per process: the
/// first caller solves, concurrent callers of the same key wait for it,
/// others find it. Failures are kept too, so they are not tried again.
pub fn solved<G: Game>(game: &G, iterations: u32) -> Result<Arc<Solution<G>>, String> {
    static CACHE: OnceLock<Cache> = OnceLock::new();
    type Cell<G> = OnceLock<Result<Arc<Solution<G>>, String>>;
    let key = (TypeId::of::<G>(), game.spec(), iterations);
    let cell = {
        let mut map = CACHE
            .get_or_init(Default::default)
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        map.entry(key)
            .or_insert_with(|| Arc::new(Cell::<G>::new()))
            .clone()
    };
    let Some(cell) = cell.downcast_ref::<Cell<G>>() else {
        unreachable!("the cache's key holds the game type")
    };
    cell.get_or_init(|| solve(game, iterations).map(Arc::new))
        .clone()
}

/// Builds `game`'s tree and runs CFR+ on it.
fn solve<G: Game>(game: &G, iterations: u32) -> Result<Solution<G>, String> {
    let root = game.initial_state(&mut rng_from_seed(0));
    let tree = GameTree::build(game, &root).map_err(|e| {
        format!("{e} (cfr solves two-player zero-sum games of at most {MAX_NODES} nodes)")
    })?;
    // One tree covers every game only when the setup's randomness, if any,
    // goes through chance nodes.
    if (1..16).any(|seed| game.initial_state(&mut rng_from_seed(seed)) != root) {
        return Err(format!(
            "{} deals its setup outside chance nodes, so no one game tree covers it",
            game.spec()
        ));
    }
    let policy = cfr::solve(&tree, iterations);
    Ok(Solution { tree, policy })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Evaluation, Reporting, Rules};
    use crate::games::poker::kuhn::Kuhn;
    use crate::rng::Stream;
    use crate::rng::stream_rng;

    #[test]
    fn a_game_is_solved_once_and_shared() {
        let a = solved(&Kuhn, 37).unwrap();
        let b = std::thread::spawn(|| solved(&Kuhn, 37).unwrap())
            .join()
            .unwrap();
        assert!(Arc::ptr_eq(&a, &b));
        assert!(!Arc::ptr_eq(&a, &solved(&Kuhn, 38).unwrap()));
    }

    #[test]
    fn games_it_cannot_solve_are_errors() {
        let fox = crate::games::AnyGame::parse("fox(players=3)").unwrap();
        let crate::games::AnyGame::Fox(fox) = fox else {
            unreachable!()
        };
        let e = CfrAgent::new(10).prepare(&fox).err().unwrap();
        assert!(e.contains("3 players"), "{e}");
        let e = CfrAgent::new(10)
            .prepare(&crate::games::connect4::Connect4)
            .err()
            .unwrap();
        assert!(e.contains("nodes"), "{e}");
        let e = CfrAgent::new(10).prepare(&SetupCoin).err().unwrap();
        assert!(e.contains("outside chance nodes"), "{e}");
    }

    /// A coin tossed by `initial_state` rather than at a chance node, which
    /// seat 0 guesses: one tree from one initial state would not cover it.
    #[derive(Clone)]
    struct SetupCoin;

    impl Rules for SetupCoin {
        /// The coin and the guess (2: not yet).
        type State = [u8; 2];
        type Action = u8;
        type Actions = arrayvec::ArrayVec<u8, 2>;
        type InfoKey = u8;

        fn spec(&self) -> String {
            "setup-coin".into()
        }
        fn num_players(&self) -> usize {
            2
        }
        fn max_actions(&self) -> usize {
            2
        }
        fn max_game_length(&self) -> u32 {
            1
        }
        fn has_hidden_information(&self) -> bool {
            true
        }
        fn initial_state(&self, rng: &mut crate::rng::GameRng) -> [u8; 2] {
            [crate::rng::below(rng, 2) as u8, 2]
        }
        fn turn(&self, s: &[u8; 2]) -> crate::game::Turn {
            match s[1] {
                2 => crate::game::Turn::Player(0),
                _ => crate::game::Turn::Terminal,
            }
        }
        fn legal_actions(&self, s: &[u8; 2]) -> Self::Actions {
            match s[1] {
                2 => [0, 1].into_iter().collect(),
                _ => Self::Actions::new(),
            }
        }
        fn apply(&self, s: &mut [u8; 2], a: u8) {
            s[1] = a;
        }
        fn info_key(&self, s: &[u8; 2], _observer: crate::game::PlayerId) -> u8 {
            s[1]
        }
        fn returns(&self, s: &[u8; 2]) -> crate::game::Returns {
            let r = if s[0] == s[1] { 1.0 } else { -1.0 };
            [r, -r].into_iter().collect()
        }
    }

    impl Reporting for SetupCoin {}

    impl Evaluation for SetupCoin {}

    /// Self-play through the runner's game loop (views determinized, seat
    /// streams) earns the first player Kuhn's value, −1/18: the mean return
    /// of 20,000 games lies within 4 standard errors of the policy's exact
    /// value, which lies within NashConv of −1/18.
    #[test]
    fn self_play_earns_the_first_player_the_game_value() {
        let solution = solved(&Kuhn, 1000).unwrap();
        let e = solution.tree.exploitability(&solution.policy).unwrap();
        assert!((e.policy_values[0] + 1.0 / 18.0).abs() <= e.nash_conv);
        let n = 20_000u64;
        let returns: Vec<f64> = (0..n)
            .map(|seed| {
                let mut agents: Vec<Box<dyn Agent<Kuhn>>> = (0..2)
                    .map(|_| Box::new(CfrAgent::<Kuhn>::new(1000)) as Box<dyn Agent<Kuhn>>)
                    .collect();
                let r = crate::arena::play::play_game(
                    &Kuhn,
                    &mut agents,
                    seed,
                    None,
                    &mut |_, _, _| {},
                );
                assert!(r.error.is_none(), "{:?}", r.error);
                r.seats[0].ret
            })
            .collect();
        let mean = returns.iter().sum::<f64>() / n as f64;
        let var = returns.iter().map(|r| (r - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
        let se = (var / n as f64).sqrt();
        assert!(
            (mean - e.policy_values[0]).abs() <= 4.0 * se,
            "mean {mean} ± {se}, policy value {}",
            e.policy_values[0]
        );
    }

    /// Each action is drawn with its average-strategy probability: over 4,000
    /// draws at a set where the policy is p, the share lies within 4.5
    /// standard errors (at most 0.036) of p.
    #[test]
    fn it_plays_its_stated_policy() {
        let game = Kuhn;
        let mut agent = CfrAgent::<Kuhn>::new(200);
        let solution = agent.prepare(&game).unwrap();
        let mut rng = stream_rng(5, Stream::Seat(0));
        for (i, set) in solution.tree.infosets.iter().enumerate() {
            let stated = agent
                .exact_policy(Decision {
                    game: &game,
                    me: set.player,
                    view: &set.state,
                    legal: &set.legal,
                    rng: &mut rng,
                    deadline: None,
                })
                .unwrap();
            assert_eq!(stated, solution.policy[i]);
            let n = 4000;
            let mut first = 0;
            for _ in 0..n {
                let a = agent.act(Decision {
                    game: &game,
                    me: set.player,
                    view: &set.state,
                    legal: &set.legal,
                    rng: &mut rng,
                    deadline: None,
                });
                first += u32::from(a == set.legal[0]);
            }
            let share = f64::from(first) / f64::from(n);
            let p = stated[0];
            let se = (p * (1.0 - p) / f64::from(n)).sqrt();
            assert!((share - p).abs() <= 4.5 * se + 1e-9, "{i}: {share} vs {p}");
        }
    }
}

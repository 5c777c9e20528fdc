//! `mcts`: UCT on the agent's view. The view is one determinization made by the
//! runner, so in hidden-information games this agent treats one guess of the
//! hidden state as the truth; [`super::pimc`] and [`super::ismcts`] do better.
//!
//! The agent here is the single-tree search that `ismcts` shares: the two
//! differ only in where each iteration's state comes from ([`SamplingMode`]).
//! Both take the tree options: reuse of the last tree ([`super::reuse`]) and
//! several trees searched in parallel ([`super::parallel`]).

use std::marker::PhantomData;

use super::clock::Mark;
use super::parallel::{merge_visits, search_all};
use super::reuse::{Memory, find_subtree};
use super::{Engine, Sampling, SearchConfig, most_visited, root_stats};
use crate::agents::{Agent, Budget, Decision, RootStat};
use crate::error::SpecError;
use crate::game::Game;
use crate::spec::Params;

/// Where a single-tree agent's iterations start, as a type.
pub trait SamplingMode: Clone + std::fmt::Debug + Send + 'static {
    /// The engine's sampling for this mode.
    const SAMPLING: Sampling;
}

/// Every iteration searches the view itself (plain UCT).
#[derive(Clone, Copy, Debug)]
pub struct OnTheView;

impl SamplingMode for OnTheView {
    const SAMPLING: Sampling = Sampling::Fixed;
}

/// How a tree agent keeps and splits its trees.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TreeOptions {
    /// Keep the subtree of the new information set between decisions.
    pub reuse: bool,
    /// Independent trees searched in parallel, root visits summed (≥ 1).
    pub threads: u32,
}

impl Default for TreeOptions {
    fn default() -> Self {
        TreeOptions {
            reuse: false,
            threads: 1,
        }
    }
}

impl TreeOptions {
    /// Reads `reuse` and `threads`.
    pub fn from_params(params: &mut Params) -> Result<TreeOptions, SpecError> {
        Ok(TreeOptions {
            reuse: params.bool("reuse", false)?,
            threads: params.int("threads", 1, 1, 64)? as u32,
        })
    }
}

/// One search tree (or several, root-parallel), open loop, max^n backup,
/// chosen by most visits.
#[derive(Clone, Debug)]
pub struct SingleTreeAgent<G: Game, S: SamplingMode> {
    cfg: SearchConfig,
    opts: TreeOptions,
    engines: Vec<Engine<G>>,
    memory: Option<Memory<G>>,
    totals: Vec<u64>,
    last: u64,
    mode: PhantomData<S>,
}

/// Open-loop UCT with max^n backup over the view.
pub type MctsAgent<G> = SingleTreeAgent<G, OnTheView>;

impl<G: Game, S: SamplingMode> SingleTreeAgent<G, S> {
    /// An agent with the given search parameters, one tree, no reuse.
    pub fn new(cfg: SearchConfig) -> Self {
        Self::with_options(cfg, TreeOptions::default())
    }

    /// An agent with the given search parameters and tree options.
    pub fn with_options(cfg: SearchConfig, opts: TreeOptions) -> Self {
        SingleTreeAgent {
            cfg,
            opts,
            engines: (0..opts.threads.max(1))
                .map(|_| Engine::default())
                .collect(),
            memory: None,
            totals: Vec::new(),
            last: 0,
            mode: PhantomData,
        }
    }

    /// The engine (tree of the last search; the first with several), for inspection.
    pub fn engine(&self) -> &Engine<G> {
        &self.engines[0]
    }
}

impl<G: Game, S: SamplingMode> Agent<G> for SingleTreeAgent<G, S> {
    fn act(&mut self, mut d: Decision<'_, G>) -> G::Action {
        let start = self.cfg.clock.mark();
        if self.opts.reuse {
            // Follow the game in every tree, forced moves included.
            let memory = self.memory.take();
            for e in &mut self.engines {
                let node = memory
                    .as_ref()
                    .and_then(|m| find_subtree(d.game, e.tree(), m, d.me, d.view));
                match node {
                    Some(n) => e.reroot(n),
                    None => e.reset(d.legal[0]),
                }
            }
        }
        let action = self.decide(&mut d, start);
        if self.opts.reuse {
            self.memory = Some(Memory {
                view: d.view.clone(),
                action,
            });
        }
        action
    }

    fn last_iterations(&self) -> u64 {
        self.last
    }

    fn last_root_stats(&self) -> Option<Vec<RootStat<G::Action>>> {
        (self.last > 0).then(|| root_stats(self.engines.iter().flat_map(|e| e.root_totals())))
    }
}

impl<G: Game, S: SamplingMode> SingleTreeAgent<G, S> {
    /// Searches and chooses; a time budget counts from `start`, so the time
    /// spent finding a reusable subtree is part of the decision's time.
    fn decide(&mut self, d: &mut Decision<'_, G>, start: Mark) -> G::Action {
        if d.legal.len() == 1 {
            self.last = 0;
            return d.legal[0];
        }
        if !self.opts.reuse {
            for e in &mut self.engines {
                e.reset(d.legal[0]);
            }
        }
        let cfg = SearchConfig {
            deadline: d.deadline,
            ..self.cfg
        };
        let budget = match cfg.budget {
            Budget::Time(t) => Budget::Time(t.saturating_sub(start.elapsed())),
            b => b,
        };
        let (game, view, me) = (d.game, d.view, d.me);
        let rng = &mut *d.rng;
        self.last = search_all(&mut self.engines, rng, |e, rng| {
            e.search(game, view, me, &cfg, budget, S::SAMPLING, rng)
        });
        if let [e] = &self.engines[..] {
            // Determinization keeps the observer's legal actions, so every root
            // child is in `d.legal`; the filter guards against a game that breaks it.
            let counts = e
                .root_visits()
                .filter(|(a, _)| d.legal.contains(a))
                .map(|(a, v)| (a, u64::from(v)));
            return most_visited(counts, rng).unwrap_or(d.legal[0]);
        }
        self.totals.clear();
        for e in &self.engines {
            merge_visits(
                d.legal,
                &mut self.totals,
                e.root_visits().map(|(a, v)| (a, u64::from(v))),
            );
        }
        let counts = d.legal.iter().copied().zip(self.totals.iter().copied());
        most_visited(counts, rng).unwrap_or(d.legal[0])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Rules;
    use crate::games::tictactoe::{State, TicTacToe};
    use crate::rng::rng_from_seed;

    fn cfg(n: u32) -> SearchConfig {
        SearchConfig {
            budget: Budget::Iterations(n),
            ..SearchConfig::default()
        }
    }

    fn act<A: Agent<TicTacToe>>(agent: &mut A, view: &State, seed: u64) -> u8 {
        let g = TicTacToe;
        let legal = g.legal_actions(view);
        let crate::game::Turn::Player(me) = g.turn(view) else {
            panic!("not a decision")
        };
        agent.act(Decision {
            game: &g,
            me,
            view,
            legal: &legal,
            rng: &mut rng_from_seed(seed),
            deadline: None,
        })
    }

    fn after(moves: &[u8]) -> State {
        let g = TicTacToe;
        let mut s = State::default();
        for &m in moves {
            g.apply(&mut s, m);
        }
        s
    }

    /// Two trees: the decision and the summed visits are the same on every
    /// run, whatever thread pool the caller runs in, and both trees search.
    #[test]
    fn root_parallel_trees_are_deterministic() {
        let opts = TreeOptions {
            reuse: false,
            threads: 2,
        };
        let run = || {
            let mut a = MctsAgent::<TicTacToe>::with_options(cfg(300), opts);
            let action = act(&mut a, &after(&[0, 4]), 9);
            let visits: Vec<Vec<(u8, u32)>> = a
                .engines
                .iter()
                .map(|e| e.root_visits().collect())
                .collect();
            (action, a.last_iterations(), visits)
        };
        let first = run();
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap();
        assert_eq!(pool.install(run), first);
        assert_eq!(run(), first);
        assert_eq!(first.1, 600);
        // The two trees drew different seeds, so they differ.
        assert_ne!(first.2[0], first.2[1]);
        // One tree keeps the agent's own stream: as before threads existed.
        let mut one = MctsAgent::<TicTacToe>::with_options(cfg(300), TreeOptions::default());
        let mut plain = MctsAgent::<TicTacToe>::new(cfg(300));
        assert_eq!(
            act(&mut one, &after(&[0]), 5),
            act(&mut plain, &after(&[0]), 5)
        );
        assert_eq!(
            one.engine().root_visits().collect::<Vec<_>>(),
            plain.engine().root_visits().collect::<Vec<_>>()
        );
    }

    /// After the opponent answers with a move the tree holds, the next search
    /// starts from that node's statistics; after a position the tree cannot
    /// explain, it starts from nothing.
    #[test]
    fn reuse_keeps_a_valid_subtree_and_discards_an_invalid_one() {
        let opts = TreeOptions {
            reuse: true,
            threads: 1,
        };
        let mut a = MctsAgent::<TicTacToe>::with_options(cfg(400), opts);
        let mine = act(&mut a, &State::default(), 1);
        let tree = a.engine().tree();
        let node = tree.find_child(0, 0, mine).unwrap();
        let answer = tree
            .children(node)
            .max_by_key(|&c| tree.get(c).visits)
            .unwrap();
        let (reply, kept) = (tree.get(answer).action, tree.get(answer).visits);
        assert!(kept > 1);
        act(&mut a, &after(&[mine, reply]), 2);
        assert_eq!(a.engine().tree().get(0).visits, kept + 400);
        assert_eq!(a.last_iterations(), 400);
        // A position not reached from the last decision: a fresh tree.
        let mut b = MctsAgent::<TicTacToe>::with_options(cfg(400), opts);
        let mine = act(&mut b, &State::default(), 1);
        let other = (0..9).find(|&m| m != mine).unwrap();
        let third = (0..9).find(|&m| m != mine && m != other).unwrap();
        act(&mut b, &after(&[other, third]), 2);
        assert_eq!(b.engine().tree().get(0).visits, 400);
        // Without reuse, every search starts afresh.
        let mut c = MctsAgent::<TicTacToe>::new(cfg(400));
        let mine = act(&mut c, &State::default(), 1);
        act(&mut c, &after(&[mine, (mine + 1) % 9]), 2);
        assert_eq!(c.engine().tree().get(0).visits, 400);
    }
}

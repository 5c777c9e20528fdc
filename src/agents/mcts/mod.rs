//! Monte Carlo tree search: the configuration shared by every search agent and
//! the one search engine they drive.
//!
//! The engine runs open-loop UCT with max^n backup: a node stands for an action
//! taken by a seat (not for a state), chance outcomes are sampled afresh on every
//! iteration, and each node accumulates the returns of the seat that chose its
//! action, so with 2–6 players every seat maximises its own return. How the
//! state of an iteration is obtained decides the algorithm:
//!
//! * [`uct`]: always the agent's view (one determinization, made by the runner);
//! * [`pimc`]: several determinizations of the view, a fresh tree for each;
//! * [`ismcts`]: a new determinization every iteration in one tree, with
//!   availability counts in the UCB formula (single-observer ISMCTS).

pub mod ismcts;
pub mod pimc;
pub mod tree;
pub mod uct;

use std::time::{Duration, Instant};

use super::Budget;
use super::greedy::{epsilon_greedy, normalized_returns};
use crate::error::SpecError;
use crate::game::{Game, PlayerId, Returns, Turn};
use crate::rng::{GameRng, below};
use crate::spec::Params;
use tree::{NIL, Tree};

/// How a rollout picks actions.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Rollout {
    /// Uniformly random legal actions: cheap, unbiased, weak.
    Random,
    /// One-step heuristic look-ahead, with a random action with probability `epsilon`.
    Greedy {
        /// Probability of a random action instead of the greedy one.
        epsilon: f64,
    },
}

/// Exploration constant for returns in [-1, 1].
///
/// UCB1's `sqrt(2)` assumes rewards in [0, 1]; on our range of width 2 the
/// equivalent constant would be `2 * sqrt(2) ≈ 2.8`. That value comes from a
/// worst-case regret bound and explores far more than game trees need; in
/// practice UCT does best with roughly half of it (Kocsis & Szepesvári's bound is
/// loose, and minimax-like trees reward exploitation). 1.4 is that half: the
/// usual `c ≈ 0.7` on [0, 1] rewards, rescaled to our range.
pub const DEFAULT_C: f64 = 1.4;

/// Parameters of a tree search.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SearchConfig {
    /// Iterations or wall time per decision.
    pub budget: Budget,
    /// UCB exploration constant.
    pub c: f64,
    /// Rollout policy.
    pub rollout: Rollout,
    /// Actions after which a rollout stops and is scored by the heuristic (0: never).
    pub max_rollout: u32,
}

impl Default for SearchConfig {
    fn default() -> Self {
        SearchConfig {
            budget: Budget::Iterations(1000),
            c: DEFAULT_C,
            rollout: Rollout::Random,
            max_rollout: 0,
        }
    }
}

impl SearchConfig {
    /// Reads `iterations`, `time_ms`, `c`, `rollout`, `epsilon`, `max_rollout`.
    /// `time_ms` > 0 replaces the iteration budget with a wall-clock one.
    pub fn from_params(params: &mut Params) -> Result<SearchConfig, SpecError> {
        let iterations = params.int("iterations", 1000, 1, u64::from(u32::MAX))?;
        let time_ms = params.int("time_ms", 0, 0, 3_600_000)?;
        let c = params.float("c", DEFAULT_C, 0.0, 100.0)?;
        let rollout = params.choice("rollout", 0, &["random", "greedy"])?;
        let epsilon = params.float("epsilon", 0.1, 0.0, 1.0)?;
        let max_rollout = params.int("max_rollout", 0, 0, u64::from(u32::MAX))?;
        Ok(SearchConfig {
            budget: if time_ms > 0 {
                Budget::Time(Duration::from_millis(time_ms))
            } else {
                Budget::Iterations(iterations as u32)
            },
            c,
            rollout: if rollout == 0 {
                Rollout::Random
            } else {
                Rollout::Greedy { epsilon }
            },
            max_rollout: max_rollout as u32,
        })
    }
}

/// Where each iteration's state comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sampling {
    /// Search the given state itself (UCT on one determinization); the UCB
    /// formula uses the parent's visit count.
    Fixed,
    /// Redeterminize the given state for the searching seat every iteration;
    /// the UCB formula uses each child's availability count.
    Redeterminize,
}

/// A reusable search: the tree arena and scratch buffers survive between
/// decisions, so a search allocates only when the tree outgrows earlier ones.
#[derive(Clone, Debug)]
pub struct Engine<G: Game> {
    tree: Tree<G::Action>,
    path: Vec<u32>,
    candidates: Vec<u32>,
    has_child: Vec<bool>,
}

impl<G: Game> Default for Engine<G> {
    fn default() -> Self {
        Engine {
            tree: Tree::new(),
            path: Vec::new(),
            candidates: Vec::new(),
            has_child: Vec::new(),
        }
    }
}

impl<G: Game> Engine<G> {
    /// The tree of the last search.
    pub fn tree(&self) -> &Tree<G::Action> {
        &self.tree
    }

    /// Clears the tree for a search from a state where `placeholder` is legal.
    pub fn reset(&mut self, placeholder: G::Action) {
        self.tree.reset(placeholder);
    }

    /// Runs iterations from `root` (where `me` is to act) until `budget` is
    /// spent, adding to the current tree; returns the iterations run (at least one).
    #[allow(clippy::too_many_arguments)]
    pub fn search(
        &mut self,
        game: &G,
        root: &G::State,
        me: PlayerId,
        cfg: &SearchConfig,
        budget: Budget,
        sampling: Sampling,
        rng: &mut GameRng,
    ) -> u64 {
        debug_assert!(!self.tree.is_empty(), "reset before search");
        let mut done = 0u64;
        match budget {
            Budget::Iterations(n) => {
                for _ in 0..n.max(1) {
                    self.iterate(game, root, me, cfg, sampling, rng);
                    done += 1;
                }
            }
            Budget::Time(limit) => {
                let start = Instant::now();
                loop {
                    self.iterate(game, root, me, cfg, sampling, rng);
                    done += 1;
                    // Reading the clock (tens of nanoseconds) is cheap next to
                    // an iteration, and checking every time bounds the overrun
                    // by one iteration however slow iterations are.
                    if start.elapsed() >= limit {
                        break;
                    }
                }
            }
        }
        done
    }

    /// One iteration: select and expand in the tree, roll out, back up.
    fn iterate(
        &mut self,
        game: &G,
        root: &G::State,
        me: PlayerId,
        cfg: &SearchConfig,
        sampling: Sampling,
        rng: &mut GameRng,
    ) {
        let mut state = match sampling {
            Sampling::Fixed => root.clone(),
            Sampling::Redeterminize => game.determinize(root, me, rng),
        };
        let cap = game.max_game_length();
        let mut steps = 0u32;
        let mut node = 0u32;
        self.path.clear();
        self.path.push(node);
        let values: Returns = loop {
            let turn = game.turn(&state);
            if turn != Turn::Terminal && steps >= cap {
                break heuristic_values(game, &state);
            }
            let p = match turn {
                Turn::Terminal => break normalized_returns(game, &state),
                Turn::Chance => {
                    // Open loop: outcomes are not stored in the tree.
                    let outcome = game.sample_chance(&state, rng);
                    game.apply(&mut state, outcome);
                    steps += 1;
                    continue;
                }
                Turn::Player(p) => p,
            };
            let legal = game.legal_actions(&state);
            // Which legal actions already have a child, and those children.
            self.has_child.clear();
            self.has_child.resize(legal.len(), false);
            self.candidates.clear();
            let mut c = self.tree.get(node).first_child;
            while c != NIL {
                let n = self.tree.get(c);
                if n.mover == p
                    && let Some(i) = legal.iter().position(|&a| a == n.action)
                {
                    self.has_child[i] = true;
                    self.candidates.push(c);
                }
                c = n.next_sibling;
            }
            let untried = legal.len() - self.candidates.len();
            if untried > 0 {
                // Expand one untried action chosen at random, then roll out.
                let mut k = below(rng, untried);
                let mut pick = 0;
                for (i, &has) in self.has_child.iter().enumerate() {
                    if !has {
                        if k == 0 {
                            pick = i;
                            break;
                        }
                        k -= 1;
                    }
                }
                let action = legal[pick];
                let child = self.tree.add_child(node, p, action);
                game.apply(&mut state, action);
                self.path.push(child);
                break rollout(game, &mut state, cfg, steps + 1, rng);
            }
            let parent_visits = f64::from(self.tree.get(node).visits.max(1));
            let mut best = f64::NEG_INFINITY;
            let mut best_c = self.candidates[0];
            for &c in &self.candidates {
                let n = self.tree.get(c);
                let visits = f64::from(n.visits.max(1));
                let parent = match sampling {
                    Sampling::Fixed => parent_visits,
                    Sampling::Redeterminize => f64::from(n.avail.max(1)),
                };
                let ucb = n.total / visits + cfg.c * (parent.ln() / visits).sqrt();
                if ucb > best {
                    best = ucb;
                    best_c = c;
                }
            }
            // Every child legal in this iteration's state was available for
            // this selection (counted after it, as in the reference code). Kept
            // in both modes so trees can be inspected alike; only ISMCTS uses it.
            for &c in &self.candidates {
                self.tree.get_mut(c).avail += 1;
            }
            game.apply(&mut state, self.tree.get(best_c).action);
            node = best_c;
            self.path.push(node);
            steps += 1;
        };
        for &i in &self.path {
            let n = self.tree.get_mut(i);
            n.visits += 1;
            n.total += values[n.mover as usize];
        }
    }

    /// Visit counts of the root's children as (action, visits).
    pub fn root_visits(&self) -> impl Iterator<Item = (G::Action, u32)> + '_ {
        self.tree.children(0).map(|c| {
            let n = self.tree.get(c);
            (n.action, n.visits)
        })
    }
}

/// Every seat's heuristic value: the evaluation of a cut-off rollout.
pub fn heuristic_values<G: Game>(game: &G, state: &G::State) -> Returns {
    (0..game.num_players())
        .map(|p| game.heuristic(state, p as PlayerId))
        .collect()
}

/// Plays `state` out with the configured policy and returns every seat's value
/// in [-1, 1]. `steps` actions have been applied since the search root; the
/// game's length bound caps the rollout too.
pub fn rollout<G: Game>(
    game: &G,
    state: &mut G::State,
    cfg: &SearchConfig,
    mut steps: u32,
    rng: &mut GameRng,
) -> Returns {
    let cap = game.max_game_length();
    let mut n = 0u32;
    loop {
        let turn = game.turn(state);
        if turn == Turn::Terminal {
            return normalized_returns(game, state);
        }
        if (cfg.max_rollout > 0 && n >= cfg.max_rollout) || steps >= cap {
            return heuristic_values(game, state);
        }
        let action = match turn {
            Turn::Chance => game.sample_chance(state, rng),
            Turn::Player(p) => {
                let legal = game.legal_actions(state);
                match cfg.rollout {
                    Rollout::Random => legal[below(rng, legal.len())],
                    Rollout::Greedy { epsilon } => {
                        epsilon_greedy(game, state, &legal, p, epsilon, rng)
                    }
                }
            }
            Turn::Terminal => unreachable!(),
        };
        game.apply(state, action);
        n += 1;
        steps += 1;
    }
}

/// The action with the most visits among `(action, visits)` pairs, ties broken
/// uniformly at random; `None` when the list is empty.
pub fn most_visited<A: Copy>(
    counts: impl Iterator<Item = (A, u64)>,
    rng: &mut GameRng,
) -> Option<A> {
    let mut best: Option<(A, u64)> = None;
    let mut ties = 0usize;
    for (a, v) in counts {
        match best {
            Some((_, bv)) if v < bv => {}
            Some((_, bv)) if v == bv => {
                ties += 1;
                if below(rng, ties) == 0 {
                    best = Some((a, v));
                }
            }
            _ => {
                best = Some((a, v));
                ties = 1;
            }
        }
    }
    best.map(|(a, _)| a)
}

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

use std::collections::HashMap;
use std::time::{Duration, Instant};

use super::Budget;
use super::greedy::{epsilon_greedy, normalized_returns};
use crate::error::SpecError;
use crate::game::{Game, PlayerId, Returns, Turn};
use crate::rng::{GameRng, below, unit};
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
    /// MAST (move-average sampling, Finnsson & Björnsson 2008): the mean
    /// return of each (seat, action) over this search's iterations, tree and
    /// rollout alike, picks the rollout's actions: the best mean with
    /// probability `1 - epsilon` (untried actions count as the best), a
    /// uniformly random action otherwise. Cheap knowledge learnt on the fly.
    Mast {
        /// Probability of a random action instead of the best-mean one.
        epsilon: f64,
    },
    /// MAST with Gibbs sampling: action `a` with probability proportional to
    /// `exp(Q(a) / tau)` (untried actions at the best value, 1).
    MastGibbs {
        /// Temperature: large is near uniform, small near greedy.
        tau: f64,
    },
}

impl Rollout {
    fn uses_mast(self) -> bool {
        matches!(self, Rollout::Mast { .. } | Rollout::MastGibbs { .. })
    }
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
    /// Reads `iterations`, `time_ms`, `c`, `rollout`, `epsilon`, `tau`, `max_rollout`.
    /// `time_ms` > 0 replaces the iteration budget with a wall-clock one.
    pub fn from_params(params: &mut Params) -> Result<SearchConfig, SpecError> {
        let iterations = params.int("iterations", 1000, 1, u64::from(u32::MAX))?;
        let time_ms = params.int("time_ms", 0, 0, 3_600_000)?;
        let c = params.float("c", DEFAULT_C, 0.0, 100.0)?;
        let rollout = params.choice("rollout", 0, &["random", "greedy", "mast", "mast-gibbs"])?;
        let epsilon = params.float("epsilon", 0.1, 0.0, 1.0)?;
        let tau = params.float("tau", 1.0, 0.01, 100.0)?;
        let max_rollout = params.int("max_rollout", 0, 0, u64::from(u32::MAX))?;
        Ok(SearchConfig {
            budget: if time_ms > 0 {
                Budget::Time(Duration::from_millis(time_ms))
            } else {
                Budget::Iterations(iterations as u32)
            },
            c,
            rollout: match rollout {
                0 => Rollout::Random,
                1 => Rollout::Greedy { epsilon },
                2 => Rollout::Mast { epsilon },
                _ => Rollout::MastGibbs { tau },
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
    /// MAST: (sum of the mover's returns, count) per (mover, action).
    mast: HashMap<(u8, G::Action), (f64, u32)>,
    /// MAST: the (mover, action) pairs of the current iteration's rollout.
    played: Vec<(u8, G::Action)>,
    /// MAST Gibbs weights, parallel to the legal actions.
    weights: Vec<f64>,
}

impl<G: Game> Default for Engine<G> {
    fn default() -> Self {
        Engine {
            tree: Tree::new(),
            path: Vec::new(),
            candidates: Vec::new(),
            has_child: Vec::new(),
            mast: HashMap::new(),
            played: Vec::new(),
            weights: Vec::new(),
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
        self.mast.clear();
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
                break if cfg.rollout.uses_mast() {
                    self.mast_rollout(game, &mut state, cfg, steps + 1, rng)
                } else {
                    rollout(game, &mut state, cfg, steps + 1, rng)
                };
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
        if cfg.rollout.uses_mast() {
            let tree_moves = self.path[1..].iter().map(|&i| {
                let n = self.tree.get(i);
                (n.mover, n.action)
            });
            for key in tree_moves.chain(self.played.drain(..)) {
                let e = self.mast.entry(key).or_insert((0.0, 0));
                e.0 += values[key.0 as usize];
                e.1 += 1;
            }
        }
    }

    /// [`rollout`] with the MAST policy, recording the moves it plays.
    fn mast_rollout(
        &mut self,
        game: &G,
        state: &mut G::State,
        cfg: &SearchConfig,
        mut steps: u32,
        rng: &mut GameRng,
    ) -> Returns {
        let cap = game.max_game_length();
        let mut n = 0u32;
        self.played.clear();
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
                    let a = self.mast_pick(p, &legal, cfg.rollout, rng);
                    self.played.push((p, a));
                    a
                }
                Turn::Terminal => unreachable!(),
            };
            game.apply(state, action);
            n += 1;
            steps += 1;
        }
    }

    /// The MAST choice among `legal` for seat `p`.
    fn mast_pick(
        &mut self,
        p: PlayerId,
        legal: &[G::Action],
        policy: Rollout,
        rng: &mut GameRng,
    ) -> G::Action {
        let q = |a: G::Action| match self.mast.get(&(p, a)) {
            Some(&(sum, n)) if n > 0 => sum / f64::from(n),
            _ => 1.0,
        };
        match policy {
            Rollout::MastGibbs { tau } => {
                self.weights.clear();
                let mut total = 0.0;
                for &a in legal {
                    let w = (q(a) / tau).exp();
                    total += w;
                    self.weights.push(w);
                }
                let mut x = unit(rng) * total;
                for (i, &w) in self.weights.iter().enumerate() {
                    if x < w {
                        return legal[i];
                    }
                    x -= w;
                }
                legal[legal.len() - 1]
            }
            Rollout::Mast { epsilon } if !(epsilon > 0.0 && unit(rng) < epsilon) => {
                let mut best = f64::NEG_INFINITY;
                let mut pick = legal[0];
                let mut ties = 0usize;
                for &a in legal {
                    let v = q(a);
                    if v > best + 1e-12 {
                        best = v;
                        pick = a;
                        ties = 1;
                    } else if (v - best).abs() <= 1e-12 {
                        ties += 1;
                        if below(rng, ties) == 0 {
                            pick = a;
                        }
                    }
                }
                pick
            }
            _ => legal[below(rng, legal.len())],
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
                    // MAST needs a search's statistics (`Engine::mast_rollout`);
                    // without them every mean is unknown, so play uniformly.
                    Rollout::Random | Rollout::Mast { .. } | Rollout::MastGibbs { .. } => {
                        legal[below(rng, legal.len())]
                    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::tictactoe::{State, TicTacToe};
    use crate::rng::rng_from_seed;

    /// MAST learns every tree and rollout move's mean return for its mover,
    /// and its ε-greedy choice (ε = 0) is the best-mean legal action, with
    /// untried actions counted as the best.
    #[test]
    fn mast_statistics_follow_the_returns() {
        let g = TicTacToe;
        // X on 0,1 and O on 3,4, X to move: 2 wins at once.
        let s = State {
            marks: [0b11, 0b11000],
            to_move: 0,
        };
        let cfg = SearchConfig {
            budget: Budget::Iterations(400),
            rollout: Rollout::Mast { epsilon: 0.0 },
            ..SearchConfig::default()
        };
        let mut e = Engine::<TicTacToe>::default();
        let mut rng = rng_from_seed(3);
        let legal = g.legal_actions(&s);
        e.reset(legal[0]);
        e.search(&g, &s, 0, &cfg, cfg.budget, Sampling::Fixed, &mut rng);
        let (sum, n) = e.mast[&(0, 2)];
        assert!(
            n > 0 && (sum / f64::from(n) - 1.0).abs() < 1e-9,
            "{sum}/{n}"
        );
        let mean = |a: u8| {
            e.mast
                .get(&(0, a))
                .map_or(1.0, |&(sum, n)| sum / f64::from(n))
        };
        assert!(legal.iter().all(|&a| a == 2 || mean(a) < 1.0));
        assert_eq!(e.mast_pick(0, &legal, cfg.rollout, &mut rng), 2);
        // An action never seen is tried before a known loser.
        e.mast.clear();
        e.mast.insert((0, 2), (-3.0, 3));
        assert_ne!(e.mast_pick(0, &[2, 5], cfg.rollout, &mut rng), 2);
        // A reset forgets the statistics.
        e.reset(legal[0]);
        assert!(e.mast.is_empty());
    }
}

//! MAST (move-average sampling, Finnsson & Björnsson 2008): the mean return
//! of each (seat, action) over a search's iterations, tree and rollout moves
//! alike, picks rollout moves. Kept apart from the tree so that every search
//! (single tree, one tree per seat) learns and uses it the same way.

use rustc_hash::FxHashMap;

use super::{CutCounter, Rollout, SearchConfig, heuristic_values, legal_in};
use crate::agents::greedy::normalized_returns;
use crate::game::{Game, PlayerId, Turn};
use crate::rng::{GameRng, below, unit};

/// A search's move statistics and the scratch space of its rollouts.
#[derive(Clone, Debug)]
pub struct Mast<A> {
    /// (sum of the mover's returns, count) per (mover, action). Looked up at
    /// every rollout move, so hashed with Fx, not SipHash (a search's keys are
    /// its own actions, not input an adversary chooses); nothing iterates
    /// over it, so the hasher changes no choice.
    pub(super) table: FxHashMap<(u8, A), (f64, u32)>,
    /// The (mover, action) pairs of the current iteration's rollout.
    played: Vec<(u8, A)>,
    /// Gibbs weights, parallel to the legal actions.
    weights: Vec<f64>,
}

impl<A> Default for Mast<A> {
    fn default() -> Self {
        Mast {
            table: FxHashMap::default(),
            played: Vec::new(),
            weights: Vec::new(),
        }
    }
}

impl<A: Copy + Eq + std::hash::Hash> Mast<A> {
    /// Forgets every statistic.
    pub fn clear(&mut self) {
        self.table.clear();
        self.played.clear();
    }

    /// Adds an iteration's returns to its tree moves and to the rollout moves
    /// recorded since the last call.
    pub fn record(&mut self, tree_moves: impl Iterator<Item = (u8, A)>, values: &[f64]) {
        let played = std::mem::take(&mut self.played);
        for key in tree_moves.chain(played.iter().copied()) {
            let e = self.table.entry(key).or_insert((0.0, 0));
            e.0 += values[key.0 as usize];
            e.1 += 1;
        }
        self.played = played;
        self.played.clear();
    }

    /// A rollout with the MAST policy from `state`, `steps` actions below the
    /// search root, recording its moves for [`Mast::record`].
    pub fn rollout<G: Game<Action = A>>(
        &mut self,
        game: &G,
        state: &mut G::State,
        cfg: &SearchConfig,
        mut steps: u32,
        rng: &mut GameRng,
        legal: &mut Option<G::Actions>,
    ) -> crate::game::Returns {
        let cap = game.max_game_length();
        let mut cut = CutCounter::default();
        self.played.clear();
        loop {
            let turn = game.turn(state);
            if turn == Turn::Terminal {
                return normalized_returns(game, state);
            }
            if cut.reached(cfg, turn) || steps >= cap {
                return heuristic_values(game, state, &cfg.eval);
            }
            let action = match turn {
                Turn::Chance => game.sample_chance(state, rng),
                Turn::Player(p) => {
                    let legal = legal_in(game, state, legal);
                    let a = self.pick(p, legal, cfg.rollout, rng);
                    self.played.push((p, a));
                    a
                }
                Turn::Terminal => unreachable!(),
            };
            game.apply(state, action);
            cut.step(turn);
            steps += 1;
        }
    }

    /// The MAST choice among `legal` for seat `p`.
    pub fn pick(&mut self, p: PlayerId, legal: &[A], policy: Rollout, rng: &mut GameRng) -> A {
        let q = |a: A| match self.table.get(&(p, a)) {
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
}

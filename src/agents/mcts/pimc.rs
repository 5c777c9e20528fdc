//! `pimc`: perfect-information Monte Carlo (determinized MCTS). Samples
//! `determinizations` worlds from the view, runs an independent UCT search in
//! each with an equal share of the budget, sums the root visit counts per action
//! and plays the most visited. Known weaknesses (strategy fusion, non-locality)
//! are what [`super::ismcts`] addresses; PIMC is the strong simple baseline.

use std::time::Duration;

use super::{Engine, Sampling, SearchConfig, most_visited};
use crate::agents::{Agent, Budget, Decision, RootStat};
use crate::game::Game;

/// Determinized UCT agent.
#[derive(Clone, Debug)]
pub struct PimcAgent<G: Game> {
    cfg: SearchConfig,
    determinizations: u32,
    engine: Engine<G>,
    /// Summed root visits, parallel to the decision's legal actions (reused).
    totals: Vec<u64>,
    /// The last decision's actions and summed root returns, parallel to `totals`.
    actions: Vec<G::Action>,
    returns: Vec<f64>,
    last: u64,
}

impl<G: Game> PimcAgent<G> {
    /// An agent sampling `determinizations` worlds per decision (at least 1).
    pub fn new(cfg: SearchConfig, determinizations: u32) -> Self {
        PimcAgent {
            cfg,
            determinizations: determinizations.max(1),
            engine: Engine::default(),
            totals: Vec::new(),
            actions: Vec::new(),
            returns: Vec::new(),
            last: 0,
        }
    }
}

impl<G: Game> Agent<G> for PimcAgent<G> {
    fn act(&mut self, d: Decision<'_, G>) -> G::Action {
        if d.legal.len() == 1 {
            self.last = 0;
            return d.legal[0];
        }
        self.totals.clear();
        self.totals.resize(d.legal.len(), 0);
        self.returns.clear();
        self.returns.resize(d.legal.len(), 0.0);
        self.actions.clear();
        self.actions.extend_from_slice(d.legal);
        // Split the budget: with fewer iterations than worlds, one iteration
        // per world; otherwise the remainder goes to the first worlds.
        let worlds = match self.cfg.budget {
            Budget::Iterations(n) => self.determinizations.min(n.max(1)),
            Budget::Time(_) => self.determinizations,
        };
        self.last = 0;
        let cfg = SearchConfig {
            deadline: d.deadline,
            ..self.cfg
        };
        for w in 0..worlds {
            if w > 0 && cfg.deadline.is_some_and(|t| std::time::Instant::now() >= t) {
                break;
            }
            let budget = match self.cfg.budget {
                Budget::Iterations(n) => Budget::Iterations(n / worlds + u32::from(w < n % worlds)),
                Budget::Time(t) => Budget::Time(t / worlds.max(1)),
            };
            if budget == Budget::Time(Duration::ZERO) {
                continue;
            }
            let world = d.game.determinize(d.view, d.me, d.rng);
            self.engine.reset(d.legal[0]);
            self.last +=
                self.engine
                    .search(d.game, &world, d.me, &cfg, budget, Sampling::Fixed, d.rng);
            for (a, v, total) in self.engine.root_totals() {
                if let Some(i) = d.legal.iter().position(|&l| l == a) {
                    self.totals[i] += v;
                    self.returns[i] += total;
                }
            }
        }
        let counts = d.legal.iter().copied().zip(self.totals.iter().copied());
        most_visited(counts, d.rng).unwrap_or(d.legal[0])
    }

    fn last_iterations(&self) -> u64 {
        self.last
    }

    fn last_root_stats(&self) -> Option<Vec<RootStat<G::Action>>> {
        (self.last > 0).then(|| {
            let triples = self.actions.iter().zip(&self.totals).zip(&self.returns);
            super::root_stats(triples.map(|((&a, &v), &t)| (a, v, t)))
        })
    }
}

//! `ismcts`: single-observer information-set MCTS (Cowling, Powley & Whitehouse
//! 2012). One tree whose nodes are keyed by action (open loop); each iteration
//! redeterminizes the view for the searching seat, descends only through
//! actions legal in that determinization, and scores children with UCB using
//! availability counts (a child's "parent visits" are the iterations in which it
//! was legal). Backup is max^n, as in every search here.

use super::{Engine, Sampling, SearchConfig, most_visited};
use crate::agents::{Agent, Decision};
use crate::game::Game;

/// SO-ISMCTS agent.
#[derive(Clone, Debug)]
pub struct IsmctsAgent<G: Game> {
    cfg: SearchConfig,
    engine: Engine<G>,
    last: u64,
}

impl<G: Game> IsmctsAgent<G> {
    /// An agent with the given search parameters.
    pub fn new(cfg: SearchConfig) -> Self {
        IsmctsAgent {
            cfg,
            engine: Engine::default(),
            last: 0,
        }
    }

    /// The engine (tree of the last search), for inspection.
    pub fn engine(&self) -> &Engine<G> {
        &self.engine
    }
}

impl<G: Game> Agent<G> for IsmctsAgent<G> {
    fn act(&mut self, d: Decision<'_, G>) -> G::Action {
        if d.legal.len() == 1 {
            self.last = 0;
            return d.legal[0];
        }
        self.engine.reset(d.legal[0]);
        self.last = self.engine.search(
            d.game,
            d.view,
            d.me,
            &self.cfg,
            self.cfg.budget,
            Sampling::Redeterminize,
            d.rng,
        );
        // Determinization keeps the observer's legal actions, so every root
        // child is in `d.legal`; the filter guards against a game that breaks it.
        let counts = self
            .engine
            .root_visits()
            .filter(|(a, _)| d.legal.contains(a))
            .map(|(a, v)| (a, u64::from(v)));
        most_visited(counts, d.rng).unwrap_or(d.legal[0])
    }

    fn last_iterations(&self) -> u64 {
        self.last
    }
}

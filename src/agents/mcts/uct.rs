//! `mcts`: UCT on the agent's view. The view is one determinization made by the
//! runner, so in hidden-information games this agent treats one guess of the
//! hidden state as the truth; [`super::pimc`] and [`super::ismcts`] do better.

use super::{Engine, Sampling, SearchConfig, most_visited};
use crate::agents::{Agent, Decision};
use crate::game::Game;

/// Open-loop UCT with max^n backup over the view.
#[derive(Clone, Debug)]
pub struct MctsAgent<G: Game> {
    cfg: SearchConfig,
    engine: Engine<G>,
    last: u64,
}

impl<G: Game> MctsAgent<G> {
    /// An agent with the given search parameters.
    pub fn new(cfg: SearchConfig) -> Self {
        MctsAgent {
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

impl<G: Game> Agent<G> for MctsAgent<G> {
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
            Sampling::Fixed,
            d.rng,
        );
        let counts = self.engine.root_visits().map(|(a, v)| (a, u64::from(v)));
        most_visited(counts, d.rng).unwrap_or(d.legal[0])
    }

    fn last_iterations(&self) -> u64 {
        self.last
    }
}

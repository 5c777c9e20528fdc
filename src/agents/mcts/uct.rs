//! `mcts`: UCT on the agent's view. The view is one determinization made by the
//! runner, so in hidden-information games this agent treats one guess of the
//! hidden state as the truth; [`super::pimc`] and [`super::ismcts`] do better.
//!
//! The agent here is the single-tree search that `ismcts` shares: the two
//! differ only in where each iteration's state comes from ([`SamplingMode`]).

use std::marker::PhantomData;

use super::{Engine, Sampling, SearchConfig, most_visited};
use crate::agents::{Agent, Decision};
use crate::game::Game;

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

/// One search tree, open loop, max^n backup, chosen by most visits.
#[derive(Clone, Debug)]
pub struct SingleTreeAgent<G: Game, S: SamplingMode> {
    cfg: SearchConfig,
    engine: Engine<G>,
    last: u64,
    mode: PhantomData<S>,
}

/// Open-loop UCT with max^n backup over the view.
pub type MctsAgent<G> = SingleTreeAgent<G, OnTheView>;

impl<G: Game, S: SamplingMode> SingleTreeAgent<G, S> {
    /// An agent with the given search parameters.
    pub fn new(cfg: SearchConfig) -> Self {
        SingleTreeAgent {
            cfg,
            engine: Engine::default(),
            last: 0,
            mode: PhantomData,
        }
    }

    /// The engine (tree of the last search), for inspection.
    pub fn engine(&self) -> &Engine<G> {
        &self.engine
    }
}

impl<G: Game, S: SamplingMode> Agent<G> for SingleTreeAgent<G, S> {
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
            S::SAMPLING,
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

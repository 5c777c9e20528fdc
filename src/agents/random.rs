//! The uniform random agent: the baseline every other agent must beat.

use super::{Agent, Decision};
use crate::game::Game;
use crate::rng::below;

/// Picks a legal action uniformly at random from its seat's stream.
#[derive(Clone, Debug, Default)]
pub struct RandomAgent;

impl<G: Game> Agent<G> for RandomAgent {
    fn act(&mut self, d: Decision<'_, G>) -> G::Action {
        d.legal[below(d.rng, d.legal.len())]
    }

    fn needs_view(&self) -> bool {
        false
    }

    fn timed(&self) -> bool {
        false
    }
}

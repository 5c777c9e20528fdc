//! Games with identical agents in every seat, played by index on a pool:
//! what the balance studies and verify replay, with the seeds, seatings and
//! duplicate deals of `boardlab run`, so every result is the same for any
//! thread count.

use rayon::prelude::*;

use super::{AgentFactory, PlayedGame, RunOptions, play_indexed_with};
use crate::agents::registry::AgentSpec;
use crate::game::Game;

/// Plays game indices `range` (increasing) of `game` with `agent` in every
/// seat, in index order, on `pool`; seeds as in `boardlab run --seed seed
/// [--duplicate]`.
pub fn play_identical<G: Game>(
    game: &G,
    agent: &AgentSpec,
    range: impl IntoIterator<Item = u64>,
    seed: u64,
    duplicate: bool,
    pool: &rayon::ThreadPool,
) -> Vec<PlayedGame> {
    play_identical_with(game, agent, None, range, seed, duplicate, pool)
}

/// [`play_identical`] where `factory`, when given, builds the agent instead of its spec.
pub fn play_identical_with<G: Game>(
    game: &G,
    agent: &AgentSpec,
    factory: Option<AgentFactory<G>>,
    range: impl IntoIterator<Item = u64>,
    seed: u64,
    duplicate: bool,
    pool: &rayon::ThreadPool,
) -> Vec<PlayedGame> {
    let n = game.num_players();
    let specs = vec![agent.clone(); n];
    let factories = vec![factory; n];
    let labels = vec![agent.label.clone(); n];
    let opts = RunOptions {
        seed,
        duplicate,
        ..RunOptions::default()
    };
    let indices: Vec<u64> = range.into_iter().collect();
    pool.install(|| {
        indices
            .par_iter()
            .map(|&i| play_indexed_with(game, &specs, &factories, &labels, i, &opts))
            .collect()
    })
}

//! One-step look-ahead: try every legal action on a copy of the view, score the
//! result with the game's heuristic, keep the best. Also the scoring used by
//! greedy rollouts in the tree searches.

use super::{Agent, Decision};
use crate::eval::Eval;
use crate::game::{Game, PlayerId, Returns, Turn};
use crate::rng::{GameRng, below, unit};

/// Terminal returns on the heuristic's scale: divided by the game's
/// [`Evaluation::max_utility`](crate::game::Evaluation::max_utility) when it has one; otherwise unchanged when they already
/// lie in [-1, 1] (win/draw/loss games), else divided by their largest
/// magnitude, which keeps their order and makes them comparable with heuristic values.
pub fn normalized_returns<G: Game>(game: &G, state: &G::State) -> Returns {
    let mut r = game.returns(state);
    let m = match game.max_utility() {
        Some(m) => m,
        None => r.iter().fold(0.0f64, |m, v| m.max(v.abs())),
    };
    if m > 1.0 {
        for v in r.iter_mut() {
            *v /= m;
        }
    }
    r
}

/// The value of a state for `player` in [-1, 1]: normalized returns at a
/// terminal, the heuristic otherwise.
pub fn state_value<G: Game>(game: &G, state: &G::State, player: PlayerId) -> f64 {
    state_value_with(game, state, player, &Eval::Heuristic)
}

/// [`state_value`] with `eval` in place of the game's heuristic.
pub fn state_value_with<G: Game>(game: &G, state: &G::State, player: PlayerId, eval: &Eval) -> f64 {
    if game.turn(state) == Turn::Terminal {
        normalized_returns(game, state)[player as usize]
    } else {
        eval.value(game, state, player)
    }
}

/// The value for `player` of playing `action` at `state`: chance nodes after the
/// action are resolved by sampling until a player or terminal node, `samples`
/// times, and the values averaged. Without chance one evaluation is exact.
pub fn action_value<G: Game>(
    game: &G,
    state: &G::State,
    action: G::Action,
    player: PlayerId,
    samples: u32,
    rng: &mut GameRng,
) -> f64 {
    action_value_with(game, state, action, player, samples, &Eval::Heuristic, rng)
}

/// [`action_value`] with `eval` in place of the game's heuristic.
pub fn action_value_with<G: Game>(
    game: &G,
    state: &G::State,
    action: G::Action,
    player: PlayerId,
    samples: u32,
    eval: &Eval,
    rng: &mut GameRng,
) -> f64 {
    let mut after = state.clone();
    game.apply(&mut after, action);
    if game.turn(&after) != Turn::Chance {
        return state_value_with(game, &after, player, eval);
    }
    let samples = samples.max(1);
    let mut sum = 0.0;
    // Bound the chance chain so a game whose chance nodes loop cannot hang us.
    let cap = game.max_game_length();
    for _ in 0..samples {
        let mut s = after.clone();
        let mut steps = 0;
        while game.turn(&s) == Turn::Chance && steps < cap {
            let outcome = game.sample_chance(&s, rng);
            game.apply(&mut s, outcome);
            steps += 1;
        }
        sum += state_value_with(game, &s, player, eval);
    }
    sum / f64::from(samples)
}

/// The index of the best action in `legal` for `player`, ties broken uniformly
/// at random (reservoir sampling, no allocation).
pub fn best_action_index<G: Game>(
    game: &G,
    state: &G::State,
    legal: &[G::Action],
    player: PlayerId,
    samples: u32,
    rng: &mut GameRng,
) -> usize {
    best_action_index_with(game, state, legal, player, samples, &Eval::Heuristic, rng)
}

/// [`best_action_index`] with `eval` in place of the game's heuristic.
pub fn best_action_index_with<G: Game>(
    game: &G,
    state: &G::State,
    legal: &[G::Action],
    player: PlayerId,
    samples: u32,
    eval: &Eval,
    rng: &mut GameRng,
) -> usize {
    let mut best = f64::NEG_INFINITY;
    let mut best_i = 0;
    let mut ties = 0u32;
    for (i, &a) in legal.iter().enumerate() {
        let v = action_value_with(game, state, a, player, samples, eval, rng);
        if v > best + 1e-12 {
            best = v;
            best_i = i;
            ties = 1;
        } else if (v - best).abs() <= 1e-12 {
            ties += 1;
            if below(rng, ties as usize) == 0 {
                best_i = i;
            }
        }
    }
    best_i
}

/// Greedy with probability `1 - epsilon`, a uniformly random action otherwise:
/// the rollout policy of `rollout=greedy`.
pub fn epsilon_greedy<G: Game>(
    game: &G,
    state: &G::State,
    legal: &[G::Action],
    player: PlayerId,
    epsilon: f64,
    rng: &mut GameRng,
) -> G::Action {
    if epsilon > 0.0 && unit(rng) < epsilon {
        legal[below(rng, legal.len())]
    } else {
        legal[best_action_index(game, state, legal, player, 1, rng)]
    }
}

/// The one-step look-ahead agent.
#[derive(Clone, Debug)]
pub struct GreedyAgent {
    /// Chance samples per action when the action leads to a chance node.
    pub samples: u32,
    /// The evaluation of each result (default: the game's heuristic).
    pub eval: Eval,
}

impl GreedyAgent {
    /// Greedy on the game's heuristic with `samples` chance samples per action.
    pub fn new(samples: u32) -> GreedyAgent {
        GreedyAgent {
            samples,
            eval: Eval::Heuristic,
        }
    }
}

impl<G: Game> Agent<G> for GreedyAgent {
    fn act(&mut self, d: Decision<'_, G>) -> G::Action {
        let i = best_action_index_with(
            d.game,
            d.view,
            d.legal,
            d.me,
            self.samples,
            &self.eval,
            d.rng,
        );
        d.legal[i]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Rules;
    use crate::games::tictactoe::{State, TicTacToe};
    use crate::rng::rng_from_seed;

    fn decide(s: &State, seed: u64) -> u8 {
        let g = TicTacToe;
        let legal = g.legal_actions(s);
        let mut rng = rng_from_seed(seed);
        let me = s.to_move;
        GreedyAgent::new(4).act(Decision {
            game: &g,
            me,
            view: s,
            legal: &legal,
            rng: &mut rng,
            deadline: None,
        })
    }

    #[test]
    fn takes_a_win_in_one() {
        // X: 0,1 ; O: 3,4 ; X to move wins at 2.
        let s = State {
            marks: [0b11, 0b11000],
            to_move: 0,
        };
        for seed in 0..10 {
            assert_eq!(decide(&s, seed), 2);
        }
    }
}

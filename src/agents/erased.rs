//! Agents of every game: an agent written once over [`Position`], a game's
//! position behind one object, plays any [`Game`] through [`Erased`].
//!
//! An [`Agent<G>`] is written for one game type. A program that registers an
//! agent kind for every game, including games other crates add, cannot name
//! their types; it writes an [`AnyAgent`] instead, which sees its seat's view
//! as a `Position` (moves by their index in the legal list) and can look
//! ahead on forks of it. `boardlab::cli::Registry::with_any_agent` registers
//! such a kind.
//!
//! ```
//! use boardlab::agents::erased::{AnyAgent, Erased, Position};
//! use boardlab::prelude::*;
//! use boardlab::games::tictactoe::TicTacToe;
//!
//! /// Takes a move that wins at once, else the first legal move.
//! struct WinNow;
//! impl AnyAgent for WinNow {
//!     fn act(&mut self, view: &dyn Position<'_>, me: PlayerId, _rng: &mut GameRng) -> usize {
//!         (0..view.legal()).find(|&i| {
//!             let mut next = view.fork();
//!             next.play(i);
//!             next.turn() == Turn::Terminal && next.returns()[me as usize] > 0.0
//!         }).unwrap_or(0)
//!     }
//! }
//!
//! let specs = [AgentSpec::custom("win-now"), AgentSpec::parse("random")?];
//! let factories: [Option<AgentFactory<TicTacToe>>; 2] =
//!     [Some(std::sync::Arc::new(|| Box::new(Erased(Box::new(WinNow))))), None];
//! let out = run_with(&TicTacToe, &specs, &factories, &RunOptions { games: 20, ..RunOptions::default() })?;
//! assert_eq!(out.errors, 0);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use super::{Agent, Decision};
use crate::game::{Game, PlayerId, Returns, Turn};
use crate::rng::GameRng;

/// A position of some game: a seat's view, stepped by index.
pub trait Position<'a> {
    /// Number of seats.
    fn num_players(&self) -> usize;
    /// Whose turn it is.
    fn turn(&self) -> Turn;
    /// Number of legal actions (0 unless a player is to move).
    fn legal(&self) -> usize;
    /// The `i`-th legal action as the game names it.
    fn label(&self, i: usize) -> String;
    /// Applies the `i`-th legal action. Panics when `i >= legal()`.
    fn play(&mut self, i: usize);
    /// At a chance node, samples an outcome and applies it.
    fn chance(&mut self, rng: &mut GameRng);
    /// Each seat's return (at a terminal position).
    fn returns(&self) -> Returns;
    /// The game's estimate of `player`'s chances, in [-1, 1].
    fn heuristic(&self, player: PlayerId) -> f64;
    /// The game's text rendering of the position, everything shown.
    fn render(&self) -> String;
    /// An independent copy, to look ahead on.
    fn fork(&self) -> Box<dyn Position<'a> + 'a>;
}

/// An agent of every game: returns the index of its move in the legal list.
pub trait AnyAgent: Send {
    /// Chooses one of `view.legal()` moves for seat `me`.
    fn act(&mut self, view: &dyn Position<'_>, me: PlayerId, rng: &mut GameRng) -> usize;
}

/// An [`AnyAgent`] seated in a game of type `G`.
pub struct Erased(pub Box<dyn AnyAgent>);

impl<G: Game> Agent<G> for Erased {
    fn act(&mut self, d: Decision<'_, G>) -> G::Action {
        let view = At {
            game: d.game,
            state: d.view.clone(),
            legal: d.game.legal_actions(d.view),
        };
        let i = self.0.act(&view, d.me, d.rng);
        assert!(
            i < d.legal.len(),
            "chose move {i} of {} legal moves",
            d.legal.len()
        );
        d.legal[i]
    }
}

/// A state of `G` with its game.
struct At<'a, G: Game> {
    game: &'a G,
    state: G::State,
    legal: G::Actions,
}

impl<'a, G: Game> Position<'a> for At<'a, G> {
    fn num_players(&self) -> usize {
        self.game.num_players()
    }
    fn turn(&self) -> Turn {
        self.game.turn(&self.state)
    }
    fn legal(&self) -> usize {
        self.legal.len()
    }
    fn label(&self, i: usize) -> String {
        self.game.action_label(&self.state, self.legal[i])
    }
    fn play(&mut self, i: usize) {
        self.game.apply(&mut self.state, self.legal[i]);
        self.game.legal_actions_into(&self.state, &mut self.legal);
    }
    fn chance(&mut self, rng: &mut GameRng) {
        let outcome = self.game.sample_chance(&self.state, rng);
        self.game.apply(&mut self.state, outcome);
        self.game.legal_actions_into(&self.state, &mut self.legal);
    }
    fn returns(&self) -> Returns {
        self.game.returns(&self.state)
    }
    fn heuristic(&self, player: PlayerId) -> f64 {
        self.game.heuristic(&self.state, player)
    }
    fn render(&self) -> String {
        self.game.render(&self.state, None)
    }
    fn fork(&self) -> Box<dyn Position<'a> + 'a> {
        Box::new(At {
            game: self.game,
            state: self.state.clone(),
            legal: self.legal.clone(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Rules;
    use crate::games::tictactoe::TicTacToe;
    use crate::rng::rng_from_seed;

    /// Plays the last legal move.
    struct Last;
    impl AnyAgent for Last {
        fn act(&mut self, view: &dyn Position<'_>, _me: PlayerId, _rng: &mut GameRng) -> usize {
            view.legal() - 1
        }
    }

    #[test]
    fn an_erased_agent_plays_the_move_it_names_and_forks_do_not_touch_the_view() {
        let game = TicTacToe;
        let mut rng = rng_from_seed(1);
        let state = game.initial_state(&mut rng);
        let legal = game.legal_actions(&state);
        let mut agent = Erased(Box::new(Last));
        let chosen = Agent::<TicTacToe>::act(
            &mut agent,
            Decision {
                game: &game,
                me: 0,
                view: &state,
                legal: &legal,
                rng: &mut rng,
                deadline: None,
            },
        );
        assert_eq!(chosen, legal[legal.len() - 1]);

        let view = At {
            game: &game,
            state: state.clone(),
            legal: legal.clone(),
        };
        let mut fork = view.fork();
        fork.play(0);
        assert_eq!(view.legal(), 9);
        assert_eq!(fork.legal(), 8);
        assert_eq!(fork.turn(), Turn::Player(1));
        assert_eq!(view.turn(), Turn::Player(0));
    }
}

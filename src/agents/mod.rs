//! Agents: what decides for a seat.
//!
//! An agent sees only a [`Decision`]: a copy of the true state determinized for
//! its seat by the runner (never the true state), the legal actions, its own
//! random stream and a budget. There is deliberately no way to reach the truth.
//!
//! Kinds: [`random`], [`human`], [`greedy`] (one-step heuristic look-ahead),
//! [`alphabeta`] (exact or depth-limited minimax), [`cfr`] (an equilibrium of
//! a small two-player zero-sum game, solved in memory) and the tree searches in [`mcts`]: `mcts` (UCT on the view), `pimc`
//! (determinized UCT), `ismcts` (information-set MCTS) and `moismcts` (one tree per seat). Every search shares
//! one engine, keeps its tree in a reusable arena and is deterministic for a
//! given seat stream when its budget is in iterations.

pub mod alphabeta;
pub mod cfr;
pub mod erased;
pub mod faulty;
pub mod greedy;
pub mod human;
pub mod mcts;
pub mod random;
pub mod registry;

#[cfg(test)]
mod tests;

use std::time::Duration;

use crate::game::{Game, PlayerId};
use crate::rng::GameRng;

/// The panic payload of an agent that cannot go on and must stop the whole
/// run instead of forfeiting its game: a human at the end of input, a Python
/// agent whose callable raised. The runner records nothing of that game and
/// ends with an error naming [`Abort::0`]; anything that asks an agent
/// outside the runner reports it like any other panic
/// ([`panic_text`](crate::arena::play::panic_text)).
#[derive(Clone, Debug)]
pub struct Abort(pub String);

impl Abort {
    /// Stops the run: unwinds out of the agent's decision with `why`.
    pub fn raise(why: String) -> ! {
        std::panic::panic_any(Abort(why))
    }
}

/// The longest time per decision anything accepts, in milliseconds (one
/// hour): the search budgets `time_ms` and `cpu_ms` and the runner's
/// `--move-timeout-ms`. Longer values are typing slips, and near `u64::MAX`
/// they would overflow the clock.
pub const MAX_MOVE_MS: u64 = 3_600_000;

/// How much thinking an agent may do for one decision.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Budget {
    /// A fixed number of search iterations (machine-independent; the default).
    Iterations(u32),
    /// Wall-clock time per decision.
    Time(Duration),
}

/// Everything an agent may know when it must act.
pub struct Decision<'a, G: Game> {
    /// The rules.
    pub game: &'a G,
    /// The seat deciding.
    pub me: PlayerId,
    /// A determinization of the true state for `me`.
    pub view: &'a G::State,
    /// The legal actions at the true state (equal to those at `view`).
    pub legal: &'a [G::Action],
    /// This seat's random stream.
    pub rng: &'a mut GameRng,
    /// When the runner needs the answer (its move time limit), if it has one.
    /// A search stops here whatever its own budget says; an agent that
    /// answers later forfeits the game.
    pub deadline: Option<std::time::Instant>,
}

/// Builds a fresh agent for one game: parsed once, called per game. A
/// library caller (the Python bindings) seats an agent that is not in the
/// registry this way too.
pub type AgentFactory<G> = std::sync::Arc<dyn Fn() -> Box<dyn Agent<G>> + Send + Sync>;

/// A decision maker for one seat of a game of type `G`.
///
/// An agent sees only its [`Decision`]: its seat's view of the state and the
/// legal actions. One that always takes the first legal action:
///
/// ```
/// use boardlab::prelude::*;
/// use boardlab::games::tictactoe::TicTacToe;
///
/// struct First;
/// impl<G: Game> Agent<G> for First {
///     fn act(&mut self, d: Decision<'_, G>) -> G::Action {
///         d.legal[0]
///     }
/// }
///
/// let game = TicTacToe;
/// let mut rng = boardlab::rng::rng_from_seed(1);
/// let state = game.initial_state(&mut rng);
/// let legal = game.legal_actions(&state);
/// let d = Decision { game: &game, me: 0, view: &state, legal: &legal, rng: &mut rng, deadline: None };
/// assert_eq!(First.act(d), 0);
/// ```
pub trait Agent<G: Game>: Send {
    /// Chooses one element of `d.legal`. The runner checks it and forfeits the
    /// game of an agent that returns anything else.
    fn act(&mut self, d: Decision<'_, G>) -> G::Action;

    /// Search iterations run in the last `act` (0 for agents that do not search).
    fn last_iterations(&self) -> u64 {
        0
    }

    /// Whether `act` reads `d.view`. An agent that returns false decides from
    /// the legal actions alone; the runner then skips determinizing a fresh
    /// view at each of its decisions (the costliest step of a cheap game) and
    /// may hand it an earlier view of its own seat instead — never the truth.
    fn needs_view(&self) -> bool {
        true
    }

    /// Whether the runner times each decision for the `think_us` column. An
    /// agent whose decisions take far less than the column's microsecond
    /// (random play) says no: its times would round to 0 µs, and the two
    /// clock reads would cost more than the decision. Under a move limit
    /// every decision is timed.
    fn timed(&self) -> bool {
        true
    }

    /// The root's candidates of the last `act` that searched: every action
    /// with its visits and mean value for the deciding seat, for traces that
    /// explain a decision (`run --trace-search`). `None` for agents that do
    /// not search and for decisions taken without a search (a forced move).
    fn last_root_stats(&self) -> Option<Vec<RootStat<G::Action>>> {
        None
    }

    /// The probability with which `act` would choose each of `d.legal` (in
    /// that order), for an agent that can state its policy exactly (`cfr`'s
    /// average strategy). `None`, the default, for agents that cannot;
    /// `boardlab exploitability` then estimates the policy by sampling `act`.
    fn exact_policy(&mut self, d: Decision<'_, G>) -> Option<Vec<f64>> {
        let _ = d;
        None
    }
}

/// One candidate at the root of a search: how often the search tried it and
/// what it was worth to the deciding seat on average, in [-1, 1].
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct RootStat<A> {
    /// The action.
    pub action: A,
    /// Iterations through it (summed over trees or worlds).
    pub visits: u64,
    /// Mean return of those iterations for the deciding seat.
    pub value: f64,
}

//! The contract every game implements.
//!
//! Modelled on OpenSpiel's Game/State split and TAG's `copy(playerId)`:
//! a [`Game`] value holds the rules and parameters and never changes; its
//! [`Rules::State`] is plain data that search clones and mutates (copy-make).
//!
//! * Randomness happens only at setup and at [`Turn::Chance`] nodes, whose
//!   outcomes are ordinary actions. [`Rules::apply`] is deterministic, so a game is
//!   reproduced exactly from its seed and action list, and a test can force any
//!   die or draw by applying the outcome it wants.
//! * Hidden information: [`Rules::determinize`] returns a full state consistent with
//!   what one observer knows, everything else resampled; [`Rules::info_key`] is what
//!   that observer knows, and determinization must preserve it.
//! * Legal actions come in a fixed-capacity list; no heap in the hot path.

pub mod conformance;
pub mod encoding;

use std::fmt::Debug;
use std::hash::Hash;
use std::ops::Deref;

use arrayvec::ArrayVec;
use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::rng::GameRng;

/// Seat number, `0..num_players`.
pub type PlayerId = u8;

/// The largest player count of any supported game (Karmox la Fuga allows 6).
pub const MAX_PLAYERS: usize = 6;

/// The default [`Rules::ending`] of games with a single way to end.
pub const ENDING_END: &str = "end";
/// The ending the runner records when it stops a game at
/// [`Rules::max_game_length`] (see [`Rules::ending`] for the game's own cap).
pub const ENDING_LENGTH_CAP: &str = "length-cap";
/// The ending recorded when a seat's fault forfeits the game.
pub const ENDING_FAULT: &str = "fault";
/// The ending of every game stopped by a simulation cap of its own.
pub const ENDING_CAP: &str = "cap";

/// One value per player.
pub type Returns = ArrayVec<f64, MAX_PLAYERS>;

/// Most evaluation features a game exposes ([`Evaluation::eval_features`]).
pub const MAX_FEATURES: usize = 16;

/// Who acts at a state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Turn {
    /// This player must choose one of the legal actions.
    Player(PlayerId),
    /// Nature chooses among the chance outcomes.
    Chance,
    /// The game is over; see [`Rules::returns`].
    Terminal,
}

/// A whole game: its [`Rules`], how reports show it ([`Reporting`]) and how
/// agents rate its states ([`Evaluation`]). Implemented for every type that
/// implements the three, so generic code asks for `G: Game` alone.
pub trait Game: Rules + Reporting + Evaluation {}

impl<T: Rules + Reporting + Evaluation> Game for T {}

/// The rules of one game with its parameters fixed (player count, variants):
/// everything the runner and the searches need to play it. The required
/// methods come first; the defaulted ones after them suit most games.
///
/// Implementors are immutable values shared across threads; all mutable data
/// lives in [`Rules::State`]. They are `Clone` so that a move run under the
/// runner's time limit can hold its own copy of the rules (`arena::watchdog`). A game is played by asking whose turn it is,
/// choosing among the legal actions (or the chance outcomes) and applying one:
///
/// ```
/// use boardlab::prelude::*;
/// use boardlab::games::tictactoe::TicTacToe;
///
/// let game = TicTacToe;
/// let mut state = game.initial_state(&mut boardlab::rng::rng_from_seed(1));
/// assert_eq!(game.turn(&state), Turn::Player(0));
/// assert_eq!(game.legal_actions(&state).len(), 9);
/// // The first player takes the top row while the second answers in the middle row.
/// for cell in [0, 3, 1, 4, 2] {
///     game.apply(&mut state, cell);
/// }
/// assert_eq!(game.turn(&state), Turn::Terminal);
/// assert_eq!(&game.returns(&state)[..], &[1.0, -1.0]);
/// ```
///
/// `examples/nim/game.rs` implements it for a game of its own, and
/// docs/extending.md is the guide.
pub trait Rules: Clone + Send + Sync + Sized + 'static {
    /// Plain data: fixed-size where possible, no RNG, no `Rc`/`RefCell`/trait
    /// objects. Cloning it is how agents search, so keep it small.
    type State: Clone + Eq + Hash + Debug + Send + Sync + Serialize + DeserializeOwned;

    /// One atomic decision or one chance outcome. Compound moves are split into
    /// several decisions through a pending-decision phase in the state.
    type Action: Copy + Eq + Hash + Debug + Send + Sync + Serialize + DeserializeOwned;

    /// A fixed-capacity list such as `ArrayVec<Action, N>`; the game argues `N`
    /// in a comment and the conformance suite checks it.
    type Actions: Deref<Target = [Self::Action]> + Clone + Debug + Send;

    /// What one observer knows: equal for two states the observer cannot tell
    /// apart. Plain data like the state: solved policies keyed by it are
    /// shared between threads (the `cfr` agent).
    type InfoKey: Clone + Eq + Hash + Debug + Send + Sync;

    /// The canonical spec, e.g. `fox(players=3)`, written into every result row.
    /// Parameters at their defaults may be omitted.
    fn spec(&self) -> String;

    /// Number of seats.
    fn num_players(&self) -> usize;

    /// The capacity of [`Rules::Actions`], checked by the conformance suite.
    fn max_actions(&self) -> usize;

    /// Upper bound on the number of actions (decisions and chance outcomes) in a
    /// game; the runner stops a game there and records it as truncated.
    fn max_game_length(&self) -> u32;

    /// True when some seat cannot see the whole state. When false, the
    /// runner hands every seat the state itself as its view (nothing is
    /// hidden, so nothing is determinized).
    fn has_hidden_information(&self) -> bool;

    /// The state before the first action. Setup shuffles use `rng`; games that
    /// prefer to draw setup randomness through chance nodes may ignore it.
    fn initial_state(&self, rng: &mut GameRng) -> Self::State;

    /// Who acts.
    fn turn(&self, state: &Self::State) -> Turn;

    /// The legal actions: non-empty exactly when `turn` is a player, no
    /// duplicates, a stable order. Empty at chance and terminal states.
    fn legal_actions(&self, state: &Self::State) -> Self::Actions;

    /// Applies a legal action or chance outcome. Deterministic. Callers guarantee
    /// legality; implementations may `debug_assert!` it.
    fn apply(&self, state: &mut Self::State, action: Self::Action);

    /// What `observer` knows about `state`.
    fn info_key(&self, state: &Self::State, observer: PlayerId) -> Self::InfoKey;

    /// Final payoffs at a terminal state (teammates get equal payoffs). The
    /// winning side gets the highest value.
    fn returns(&self, state: &Self::State) -> Returns;

    /// Side (team) of a seat; seats on one side share their returns. Default: one side per seat.
    fn side(&self, player: PlayerId) -> u8 {
        player
    }

    /// [`Rules::legal_actions`] written into `out`, replacing what it held. A
    /// loop that keeps one list skips moving a large fixed-capacity list by
    /// value each step; games with large lists override this.
    #[inline]
    fn legal_actions_into(&self, state: &Self::State, out: &mut Self::Actions) {
        *out = self.legal_actions(state);
    }

    /// At a chance node, every outcome with its probability (summing to 1).
    /// Used by tests and exact analyses; may allocate.
    ///
    /// Default: no outcomes, for games without chance nodes (whose `turn`
    /// never returns [`Turn::Chance`]).
    fn chance_outcomes(&self, state: &Self::State) -> Vec<(Self::Action, f64)> {
        let _ = state;
        Vec::new()
    }

    /// At a chance node, draws one outcome with the probabilities of
    /// [`Rules::chance_outcomes`], without allocating.
    ///
    /// Default: draws from [`Rules::chance_outcomes`], which allocates; games
    /// with chance nodes override it to keep the hot path free of the heap
    /// (`tests/allocations.rs` checks the built-in games).
    fn sample_chance(&self, state: &Self::State, rng: &mut GameRng) -> Self::Action {
        let outcomes = self.chance_outcomes(state);
        assert!(
            !outcomes.is_empty(),
            "{}: a chance node without outcomes (override chance_outcomes)",
            self.spec()
        );
        let mut x = crate::rng::unit(rng);
        for &(action, p) in &outcomes {
            if x < p {
                return action;
            }
            x -= p;
        }
        outcomes[outcomes.len() - 1].0
    }

    /// A full state consistent with everything `observer` knows, every hidden
    /// part resampled. Must keep `info_key(_, observer)`, `turn` and, at the
    /// observer's turn, `legal_actions`.
    ///
    /// Default: a clone, which is right only for perfect-information games;
    /// a game with hidden information must override it (the conformance
    /// suite's leak checks catch one that does not).
    fn determinize(
        &self,
        state: &Self::State,
        observer: PlayerId,
        rng: &mut GameRng,
    ) -> Self::State {
        let _ = (observer, rng);
        state.clone()
    }

    /// Runs `body` with a sampler of `determinize(state, observer, _)`: each
    /// call returns exactly what [`Rules::determinize`] would for the same
    /// random stream. A search draws a determinization of one root every
    /// iteration, so a game whose determinization first works out the
    /// observer's view overrides this to work it out once (the conformance
    /// suite checks that the samples are the same).
    ///
    /// Default: `determinize` at every call.
    fn with_determinizer<R>(
        &self,
        state: &Self::State,
        observer: PlayerId,
        body: impl FnOnce(&mut dyn FnMut(&mut GameRng) -> Self::State) -> R,
    ) -> R {
        body(&mut |rng| self.determinize(state, observer, rng))
    }

    /// True at a terminal state reached through a simulation cap of the game's
    /// own (a round limit the rulebook does not have) rather than through its
    /// rules' ending. The result stands as the game scores it; the runner flags
    /// the game `truncated` so that reports do not count it as decisive.
    fn truncated(&self, _state: &Self::State) -> bool {
        false
    }

    /// The rule that ended a finished game, one word of [`Rules::endings`]
    /// (Fox: `capture`, `rescue`…; every game with a cap of its own: `cap`,
    /// exactly when [`Rules::truncated`]). Read at a terminal state only.
    fn ending(&self, _state: &Self::State) -> &'static str {
        ENDING_END
    }

    /// Every word [`Rules::ending`] can return, in the order reports list them.
    fn endings(&self) -> &'static [&'static str] {
        &[ENDING_END]
    }

    /// This game with its own simulation cap (turns, rounds or plies, as the
    /// game counts them) set to `cap`, so that tests can force a game to its
    /// cap; `None` for games without a cap of their own.
    fn with_cap(&self, _cap: u32) -> Option<Self> {
        None
    }

    /// The game's own consistency rules for a state (card conservation, piece
    /// counts, a single owner per component…); `Err` names the broken rule.
    ///
    /// Called after every step by the conformance suite, `boardlab soak` and
    /// the fuzz targets, never in the hot path of a run. Games override it so
    /// that a rules bug shows up at the step that caused it, not many steps
    /// later as a strange result. Default: no extra rules.
    fn check_invariants(&self, _state: &Self::State) -> Result<(), String> {
        Ok(())
    }
}

/// How reports, logs and views show a game: text, labels, scores and
/// per-seat statistics. Every method has a default, so a new game can leave
/// this impl empty and fill it in once its rules work.
pub trait Reporting: Rules {
    /// Text rendering for humans, as `viewer` sees it (`None`: everything).
    ///
    /// Default: the state's `Debug` form, for perfect-information games only
    /// (a hidden-information game must draw only what `viewer` may see).
    fn render(&self, state: &Self::State, viewer: Option<PlayerId>) -> String {
        if viewer.is_some() && self.has_hidden_information() {
            return "(this game draws no view for one seat)".to_string();
        }
        format!("{state:?}")
    }

    /// Short human label of an action in a state (before applying it).
    ///
    /// Default: the action's `Debug` form.
    fn action_label(&self, state: &Self::State, action: Self::Action) -> String {
        let _ = state;
        format!("{action:?}")
    }

    /// [`Reporting::action_label`] as `observer` sees it: it names nothing that the
    /// observer will not know once the action is applied (a rival's secret
    /// draw, a card played face down), so narration can be shown to that seat.
    /// It must be a function of the observer's info keys before and after the
    /// action; the conformance suite checks that.
    ///
    /// Default: the full label in perfect-information games. Hidden-information
    /// games should override it; their default names only who acts, which
    /// leaks nothing but tells little.
    fn action_label_for(
        &self,
        state: &Self::State,
        action: Self::Action,
        observer: PlayerId,
    ) -> String {
        let _ = observer;
        if !self.has_hidden_information() {
            return self.action_label(state, action);
        }
        match self.turn(state) {
            Turn::Player(p) => format!("seat {p} decides"),
            _ => "a chance event".to_string(),
        }
    }

    /// What `observer` learns of `action` in `state`, for searches that keep
    /// a tree per seat: `None` when it can tell which action it was, else a
    /// key shared by exactly the actions it cannot tell apart (those with one
    /// [`Reporting::action_label_for`] for it). It must agree with the labels;
    /// the conformance suite checks that.
    ///
    /// Default: read from the labels, which allocates two strings a call;
    /// games that are searched this way override it without allocating.
    fn observed_move(
        &self,
        state: &Self::State,
        action: Self::Action,
        observer: PlayerId,
    ) -> Option<u64> {
        if !self.has_hidden_information() {
            return None;
        }
        let seen = self.action_label_for(state, action, observer);
        (seen != self.action_label(state, action)).then(|| fnv1a(seen.as_bytes()))
    }

    /// A role label for a seat in a given game (faction, character…), empty if none.
    fn role(&self, _state: &Self::State, _player: PlayerId) -> String {
        String::new()
    }

    /// Rounds played so far, for games that count rounds.
    fn rounds(&self, _state: &Self::State) -> Option<u32> {
        None
    }

    /// The seat that played first, read at the end of a game, for games whose
    /// first player is not simply the first seat to decide (setup decisions
    /// before a roll-off). Default `None`: the seat of the first decision.
    fn first_player(&self, _state: &Self::State) -> Option<PlayerId> {
        None
    }

    /// A game score per seat for reports (points, or the return if none).
    fn score(&self, state: &Self::State, player: PlayerId) -> f64 {
        if self.turn(state) == Turn::Terminal {
            self.returns(state)[player as usize]
        } else {
            0.0
        }
    }

    /// Named per-seat statistics of a finished (or truncated) game for balance
    /// reports, e.g. cards played by type or fights won. Called once per game,
    /// so it may allocate. Games keep the counters they need in their state.
    fn metrics(&self, _state: &Self::State, _player: PlayerId) -> Vec<(&'static str, f64)> {
        Vec::new()
    }

    /// Components that can be removed or neutralised one at a time through a
    /// spec parameter, for `boardlab ablate`. Default: none.
    fn ablations(&self) -> Vec<Ablation> {
        Vec::new()
    }
}

/// How agents rate non-terminal states: the heuristic and the features of a
/// fitted evaluation. Every method has a default (no opinion), so a game
/// plays without one; greedy agents and cut rollouts get better with it.
pub trait Evaluation: Rules {
    /// An evaluation of a non-terminal state in [-1, 1] from `player`'s view,
    /// for greedy agents and rollout cut-offs.
    ///
    /// Default: 0, no opinion (greedy then plays like random, and searches
    /// score cut rollouts as even).
    fn heuristic(&self, state: &Self::State, player: PlayerId) -> f64 {
        let _ = (state, player);
        0.0
    }

    /// [`Evaluation::heuristic`] for every seat in seat order, as a search scores
    /// a cut rollout. A game whose heuristic works out every seat's standing
    /// to rate one overrides this to work it out once; each value must be
    /// exactly (to the bit) what `heuristic` gives for that seat (the
    /// conformance suite checks it).
    ///
    /// Default: `heuristic` once per seat.
    fn heuristics(&self, state: &Self::State) -> Returns {
        (0..self.num_players())
            .map(|p| self.heuristic(state, p as PlayerId))
            .collect()
    }

    /// The largest magnitude any return can have, for games that pay in chips
    /// rather than in [-1, 1]: searches divide returns by it, so that winning
    /// more counts for more. `None` (the default): each terminal's returns are
    /// divided by their own largest magnitude when it exceeds 1.
    fn max_utility(&self) -> Option<f64> {
        None
    }

    /// Names of the features [`Evaluation::eval_features`] writes, in order, for a
    /// fitted evaluation (`eval=fitted`, `boardlab fit`). Default: none.
    fn feature_names() -> &'static [&'static str] {
        &[]
    }

    /// Writes the evaluation features of `state` from `player`'s view into
    /// `out` (of length [`Evaluation::feature_names`]`().len()`, at most
    /// [`MAX_FEATURES`]), without allocating: called at every rollout cut.
    /// Like the heuristic, it reads only the state it is given.
    fn eval_features(&self, state: &Self::State, player: PlayerId, out: &mut [f64]) {
        let _ = (state, player);
        out.fill(0.0);
    }

    /// The game's default fitted weights (a `boardlab fit` TOML file), used
    /// by `eval=fitted`. Default: none.
    fn fitted_eval() -> Option<&'static str> {
        None
    }

    /// Other weights files the game ships, by name, for `eval=NAME`
    /// (for example a hand-set combination of its features). Default: none.
    fn named_evals() -> &'static [(&'static str, &'static str)] {
        &[]
    }
}

/// One component of a game that `boardlab ablate` can take away: the game
/// with `param` set plays without it, on the same seeds, and its effect is
/// read on the seats that held or played it in the game with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ablation {
    /// The component's name in reports, e.g. `card` or `ability of K12`.
    pub component: String,
    /// The spec parameter (key, value) that removes or neutralises it.
    pub param: (String, String),
    /// The per-seat metric ([`Reporting::metrics`]) that is positive for the seats
    /// that held or played the component in a game with it.
    pub holder_metric: String,
}

/// Outcome of one seat in a finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    /// This seat's side alone has the best return.
    Win,
    /// Several sides share the best return, or the game was truncated.
    Draw,
    /// Another side did better.
    Loss,
}

impl Outcome {
    /// The CSV word.
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Win => "win",
            Outcome::Draw => "draw",
            Outcome::Loss => "loss",
        }
    }

    /// The seat's points: win 1, draw ½, loss 0 (the score every win rate counts).
    pub fn points(self) -> f64 {
        match self {
            Outcome::Win => 1.0,
            Outcome::Draw => 0.5,
            Outcome::Loss => 0.0,
        }
    }

    /// Twice [`Outcome::points`], as an integer: win 2, draw 1, loss 0.
    pub fn half_points(self) -> u64 {
        (2.0 * self.points()) as u64
    }
}

/// Outcomes per seat from returns: the side with the best return wins alone,
/// several sides tied at the top draw, everyone else loses.
pub fn outcomes<G: Game>(
    game: &G,
    returns: &[f64],
    truncated: bool,
) -> ArrayVec<Outcome, MAX_PLAYERS> {
    let n = returns.len();
    if truncated {
        return (0..n).map(|_| Outcome::Draw).collect();
    }
    let best = returns.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let top = |p: usize| (returns[p] - best).abs() < 1e-9;
    let first_top_side = (0..n).find(|&p| top(p)).map(|p| game.side(p as PlayerId));
    let sole = (0..n).all(|p| !top(p) || Some(game.side(p as PlayerId)) == first_top_side);
    (0..n)
        .map(|p| match (top(p), sole) {
            (true, true) => Outcome::Win,
            (true, false) => Outcome::Draw,
            (false, _) => Outcome::Loss,
        })
        .collect()
}

/// Plays uniformly random actions (chance sampled) from `state` until terminal
/// or `max_steps` actions; returns the number of actions applied.
pub fn random_playout<G: Game>(
    game: &G,
    state: &mut G::State,
    rng: &mut GameRng,
    max_steps: u32,
) -> u32 {
    let mut steps = 0;
    while steps < max_steps {
        let action = match game.turn(state) {
            Turn::Terminal => break,
            Turn::Chance => game.sample_chance(state, rng),
            Turn::Player(_) => {
                let legal = game.legal_actions(state);
                legal[crate::rng::below(rng, legal.len())]
            }
        };
        game.apply(state, action);
        steps += 1;
    }
    steps
}

/// FNV-1a: a hash that is the same in every build and on every platform.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

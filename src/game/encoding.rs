//! Integer actions and observation tensors, for learning code and the Python
//! bindings (OpenSpiel's `num_distinct_actions` and `observation_tensor`).
//!
//! A separate trait over [`Game`] so that each game's encoding lives in a file
//! of its own, apart from its rules.
//!
//! * Actions (decisions and chance outcomes) map one-to-one into
//!   `0..num_distinct_actions()`, a fixed index space per game and parameters.
//!   The index of an action never changes from state to state, except that a
//!   game may name a cell reached through a link relative to the state's board
//!   (Hamunaptra's passages), which is why the state is passed.
//! * The observation tensor of a seat is built only from what that seat sees
//!   (its masked view), so two states the seat cannot tell apart give equal
//!   tensors. Its layout is documented in each game's encoding.

use std::collections::HashSet;

use super::{Game, PlayerId, Turn};
use crate::rng::{GameRng, below, rng_from_seed};

/// Integer actions and observation tensors of a game.
pub trait Encode: Game {
    /// Size of the action index space: every action and chance outcome of
    /// every state has an index below it.
    fn num_distinct_actions(&self) -> u32;

    /// The index of `action` (legal at `state`, or a chance outcome there).
    fn action_index(&self, state: &Self::State, action: Self::Action) -> u32;

    /// The action of an index at `state`; `None` when the index names no
    /// action at all. A `Some` is not a promise of legality.
    fn action_from_index(&self, state: &Self::State, index: u32) -> Option<Self::Action>;

    /// Shape of [`Encode::observation_tensor`] (its product is the length).
    fn observation_shape(&self) -> Vec<usize>;

    /// What `player` sees of `state`, as numbers, written into `out` (cleared first).
    fn observation_tensor(&self, state: &Self::State, player: PlayerId, out: &mut Vec<f32>);

    /// What `player` sees of `state`, as text (OpenSpiel's information state
    /// string): equal for two states the seat cannot tell apart.
    fn information_string(&self, state: &Self::State, player: PlayerId) -> String;
}

/// An index space made of consecutive blocks, one per action variant.
#[derive(Clone, Debug)]
pub struct Blocks(Vec<u32>);

impl Blocks {
    /// Blocks of these sizes, in this order.
    pub fn new(sizes: &[u32]) -> Blocks {
        Blocks(sizes.to_vec())
    }

    /// First index of block `b`.
    pub fn base(&self, b: usize) -> u32 {
        self.0[..b].iter().sum()
    }

    /// Index `local` of block `b`.
    pub fn at(&self, b: usize, local: u32) -> u32 {
        debug_assert!(local < self.0[b], "index {local} outside block {b}");
        self.base(b) + local
    }

    /// All indices.
    pub fn total(&self) -> u32 {
        self.0.iter().sum()
    }

    /// The block holding `index` and the index within it.
    pub fn locate(&self, index: u32) -> Option<(usize, u32)> {
        let mut rest = index;
        for (b, &size) in self.0.iter().enumerate() {
            if rest < size {
                return Some((b, rest));
            }
            rest -= size;
        }
        None
    }
}

/// Appends a one-hot of `value` among `n` slots (all zero when out of range).
pub fn one_hot(out: &mut Vec<f32>, value: usize, n: usize) {
    let at = out.len();
    out.resize(at + n, 0.0);
    if value < n {
        out[at + value] = 1.0;
    }
}

/// Appends `n` flags, bit `i` of `mask` in slot `i`.
pub fn bits(out: &mut Vec<f32>, mask: u64, n: usize) {
    out.extend((0..n).map(|i| f32::from(u8::from(mask >> i & 1 == 1))));
}

/// The seat `seat` as seen from `player`: 0 for itself, then clockwise.
pub fn relative(seat: usize, player: PlayerId, players: usize) -> usize {
    (seat + players - player as usize) % players
}

/// Checks the encoding on `playouts` random games from `seed`: every legal
/// action and chance outcome has an index in range that decodes back to it,
/// distinct actions have distinct indices, tensors have the declared shape,
/// finite values, and tensors and information strings are equal for a state
/// and its determinizations for the
/// seat (which keep what the seat knows, everything else resampled), checked
/// at every third step. Panics
/// naming the spec, seed and step of the first failure.
pub fn check<G: Encode>(game: &G, playouts: u32, seed: u64) {
    let n = game.num_distinct_actions();
    let len: usize = game.observation_shape().iter().product();
    let mut tensor = Vec::new();
    let mut other = Vec::new();
    let mut hidden_changed = 0u64;
    let mut distinct_tensors = HashSet::new();
    for g in 0..playouts {
        let seed = seed.wrapping_add(u64::from(g));
        let mut rng: GameRng = rng_from_seed(seed);
        let mut state = game.initial_state(&mut rng);
        for step in 0.. {
            let ctx = format!("{} seed {seed} step {step}", game.spec());
            assert_eq!(
                game.action_from_index(&state, n),
                None,
                "{ctx}: index {n} (one past the space) decodes"
            );
            let actions: Vec<G::Action> = match game.turn(&state) {
                Turn::Terminal => Vec::new(),
                Turn::Chance => game
                    .chance_outcomes(&state)
                    .into_iter()
                    .map(|o| o.0)
                    .collect(),
                Turn::Player(_) => game.legal_actions(&state).to_vec(),
            };
            let mut seen = HashSet::new();
            for &a in &actions {
                let i = game.action_index(&state, a);
                assert!(i < n, "{ctx}: {a:?} has index {i} >= {n}");
                assert_eq!(
                    game.action_from_index(&state, i),
                    Some(a),
                    "{ctx}: index {i} of {a:?} decodes to another action"
                );
                assert!(seen.insert(i), "{ctx}: two actions share index {i}");
            }
            for p in 0..game.num_players() as PlayerId {
                if step % 3 != 0 {
                    break;
                }
                game.observation_tensor(&state, p, &mut tensor);
                assert_eq!(tensor.len(), len, "{ctx}: tensor length for seat {p}");
                assert!(
                    tensor.iter().all(|x| x.is_finite()),
                    "{ctx}: non-finite tensor value"
                );
                distinct_tensors.insert(tensor.iter().map(|x| x.to_bits()).collect::<Vec<_>>());
                let view = game.determinize(&state, p, &mut rng);
                game.observation_tensor(&view, p, &mut other);
                assert!(
                    tensor == other,
                    "{ctx}: seat {p}'s tensor differs on a determinization for it"
                );
                hidden_changed += u64::from(view != state);
                assert_eq!(
                    game.information_string(&state, p),
                    game.information_string(&view, p),
                    "{ctx}: seat {p}'s information string differs on a determinization for it"
                );
            }
            if actions.is_empty() {
                break;
            }
            let a = match game.turn(&state) {
                Turn::Chance => game.sample_chance(&state, &mut rng),
                _ => actions[below(&mut rng, actions.len())],
            };
            game.apply(&mut state, a);
        }
    }
    if game.has_hidden_information() {
        assert!(
            hidden_changed > 0,
            "{}: no determinization changed a state: the tensor check saw nothing hidden",
            game.spec()
        );
    }
    assert!(
        distinct_tensors.len() > 1,
        "{}: every tensor was the same",
        game.spec()
    );
}

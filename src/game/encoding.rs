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

    /// Shape of [`Encode::information_state_tensor`], or `None` (the default)
    /// for a game that provides none.
    fn information_state_shape(&self) -> Option<Vec<usize>> {
        None
    }

    /// What `player` knows of `state` and of the play so far, as numbers
    /// (OpenSpiel's information state tensor: perfect recall, so that two
    /// decisions the seat can tell apart by what it saw before get different
    /// tensors), written into `out` (cleared first). Built only from what the
    /// seat sees. Games without one (`information_state_shape` is `None`)
    /// leave `out` empty.
    fn information_state_tensor(&self, state: &Self::State, player: PlayerId, out: &mut Vec<f32>) {
        let _ = (state, player);
        out.clear();
    }

    /// The factored form of the action indices, or `None` (the default) for
    /// a game whose flat index space is small enough as it is.
    fn factored(&self) -> Option<Factored> {
        None
    }
}

/// Components of a factored action: its kind, then up to three fields.
pub const FACTORS: usize = 4;

/// A compact factored form of a flat index space made of blocks: each index
/// as `(kind, f0, f1, f2)`, the kind its block and the fields its index in
/// the block written row-major over the block's field sizes, unused fields 0.
/// Component `c` of every action lies below `shape()[c]`, so a policy can
/// choose the components one after the other (the kind, then the first field
/// given the kind…) with `sum(shape())` outputs instead of one per index.
/// Tuples in lexicographic order are the flat indices in order.
#[derive(Clone, Debug)]
pub struct Factored {
    /// Field sizes of each kind, at most `FACTORS - 1`, each at least 1.
    fields: Vec<Vec<u32>>,
    /// First flat index of each kind.
    base: Vec<u32>,
}

impl Factored {
    /// The kinds in block order, each with its field sizes (empty for an
    /// action without fields). Panics on a kind of more than three fields or
    /// a field of size 0.
    pub fn new(fields: Vec<Vec<u32>>) -> Factored {
        let mut base = Vec::with_capacity(fields.len());
        let mut next = 0u32;
        for f in &fields {
            assert!(
                f.len() < FACTORS,
                "a kind of more than {} fields",
                FACTORS - 1
            );
            assert!(f.iter().all(|&n| n > 0), "a field of size 0");
            base.push(next);
            next += f.iter().product::<u32>();
        }
        Factored { fields, base }
    }

    /// Whether the kinds' sizes are these blocks', in order.
    pub fn matches(&self, blocks: &Blocks) -> bool {
        self.fields.len() == blocks.0.len()
            && self
                .fields
                .iter()
                .zip(&blocks.0)
                .all(|(f, &size)| f.iter().product::<u32>() == size)
    }

    /// The field sizes of each kind.
    pub fn fields(&self) -> &[Vec<u32>] {
        &self.fields
    }

    /// The number of values of each component: the kinds, then each field's
    /// largest size over the kinds (1 where no kind has that field).
    pub fn shape(&self) -> [u32; FACTORS] {
        let mut shape = [1u32; FACTORS];
        shape[0] = self.fields.len() as u32;
        for f in &self.fields {
            for (c, &n) in f.iter().enumerate() {
                shape[c + 1] = shape[c + 1].max(n);
            }
        }
        shape
    }

    /// The number of flat indices.
    pub fn total(&self) -> u32 {
        self.fields.iter().map(|f| f.iter().product::<u32>()).sum()
    }

    /// The tuple of a flat index; `None` outside the space.
    pub fn to_factored(&self, index: u32) -> Option<[u32; FACTORS]> {
        let kind = self.base.partition_point(|&b| b <= index).checked_sub(1)?;
        let fields = &self.fields[kind];
        let mut rest = index - self.base[kind];
        if rest >= fields.iter().product::<u32>() {
            return None;
        }
        let mut out = [0u32; FACTORS];
        out[0] = kind as u32;
        for (c, &n) in fields.iter().enumerate().rev() {
            out[c + 1] = rest % n;
            rest /= n;
        }
        Some(out)
    }

    /// The flat index of a tuple, or why it names none (what is allowed).
    pub fn from_factored(&self, t: [u32; FACTORS]) -> Result<u32, String> {
        let kinds = self.fields.len();
        let fields = self
            .fields
            .get(t[0] as usize)
            .ok_or_else(|| format!("kind {} is outside 0..{kinds}", t[0]))?;
        let mut local = 0u32;
        for c in 0..FACTORS - 1 {
            let v = t[c + 1];
            match fields.get(c) {
                Some(&n) if v < n => local = local * n + v,
                Some(&n) => {
                    return Err(format!("field {c} of kind {} is {v}, outside 0..{n}", t[0]));
                }
                None if v == 0 => {}
                None => {
                    return Err(format!(
                        "kind {} has {} fields: field {c} must be 0, not {v}",
                        t[0],
                        fields.len()
                    ));
                }
            }
        }
        Ok(self.base[t[0] as usize] + local)
    }
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
/// distinct actions have distinct indices and, where the game has a factored
/// form, a tuple in its shape that reads back, tensors (the information state
/// tensor too, where the game has one) have the declared shape,
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
    let factored = game.factored();
    if let Some(f) = &factored {
        assert_eq!(
            f.total(),
            n,
            "{}: the factored form's kinds do not cover the index space",
            game.spec()
        );
    }
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
                if let Some(f) = &factored {
                    let t = f.to_factored(i);
                    assert!(
                        t.is_some_and(|t| t.iter().zip(f.shape()).all(|(&v, s)| v < s)),
                        "{ctx}: index {i} has factored form {t:?} outside {:?}",
                        f.shape()
                    );
                    assert_eq!(
                        t.map(|t| f.from_factored(t)),
                        Some(Ok(i)),
                        "{ctx}: the factored form of {i} does not read back"
                    );
                }
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
                if let Some(shape) = game.information_state_shape() {
                    game.information_state_tensor(&state, p, &mut tensor);
                    assert_eq!(
                        tensor.len(),
                        shape.iter().product::<usize>(),
                        "{ctx}: information state tensor length for seat {p}"
                    );
                    assert!(
                        tensor.iter().all(|x| x.is_finite()),
                        "{ctx}: non-finite information state tensor value"
                    );
                    game.information_state_tensor(&view, p, &mut other);
                    assert!(
                        tensor == other,
                        "{ctx}: seat {p}'s information state tensor differs on a determinization for it"
                    );
                }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn factored_round_trips_and_refuses_what_it_does_not_hold() {
        let f = Factored::new(vec![vec![3], vec![2, 5], vec![], vec![4, 2, 3]]);
        assert_eq!(f.shape(), [4, 4, 5, 3]);
        assert_eq!(f.total(), 3 + 10 + 1 + 24);
        assert!(f.matches(&Blocks::new(&[3, 10, 1, 24])));
        assert!(!f.matches(&Blocks::new(&[3, 10, 24])));
        let all: Vec<[u32; FACTORS]> = (0..f.total()).map(|i| f.to_factored(i).unwrap()).collect();
        assert!(all.windows(2).all(|w| w[0] < w[1]), "tuples in index order");
        for (i, &t) in all.iter().enumerate() {
            assert_eq!(f.from_factored(t), Ok(i as u32));
        }
        assert_eq!(all[3], [1, 0, 0, 0]);
        assert_eq!(all[12], [1, 1, 4, 0]);
        assert_eq!(all[13], [2, 0, 0, 0]);
        assert_eq!(all[14 + 2 * 3 + 1], [3, 1, 0, 1]); // local 7 = 1·(2·3) + 0·3 + 1
        assert_eq!(f.to_factored(f.total()), None);
        assert!(
            f.from_factored([4, 0, 0, 0])
                .unwrap_err()
                .contains("outside 0..4")
        );
        assert!(
            f.from_factored([1, 2, 0, 0])
                .unwrap_err()
                .contains("outside 0..2")
        );
        assert!(
            f.from_factored([0, 0, 1, 0])
                .unwrap_err()
                .contains("must be 0")
        );
    }
}

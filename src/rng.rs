//! The one random number generator type used everywhere, and seed derivation.
//!
//! Every random stream in boardlab is a [`GameRng`] seeded from a derived seed, so
//! a run is reproduced exactly from its master seed whatever the thread count.
//! The algorithm is named (xoshiro256++), never `StdRng`, whose algorithm may change
//! between rand releases. A rand upgrade touches this file only.

use rand::{Rng, RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// The PRNG handed to games (setup, chance sampling, determinization) and agents.
pub type GameRng = Xoshiro256PlusPlus;

/// Builds a generator from a 64-bit seed.
pub fn rng_from_seed(seed: u64) -> GameRng {
    GameRng::seed_from_u64(seed)
}

/// Independent random streams of one game. Agent search never draws from the
/// game's stream, so a stronger agent cannot shift the dice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stream {
    /// Setup shuffles and chance outcomes.
    Game,
    /// Determinizations the runner makes for agents' views.
    View,
    /// The agent sitting in this seat.
    Seat(u8),
}

impl Stream {
    fn id(self) -> u64 {
        match self {
            Stream::Game => 1,
            Stream::View => 2,
            Stream::Seat(s) => 16 + u64::from(s),
        }
    }
}

/// SplitMix64 finaliser: a bijective mix with good avalanche, used to derive seeds.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The seed of game number `index` in a run with master seed `master`.
pub fn game_seed(master: u64, index: u64) -> u64 {
    mix(mix(master) ^ index.wrapping_mul(0xD6E8_FEB8_6659_FD93))
}

/// The seed of one stream of a game whose seed is `seed`.
pub fn stream_seed(seed: u64, stream: Stream) -> u64 {
    mix(seed ^ mix(stream.id()))
}

/// A generator for one stream of a game.
pub fn stream_rng(seed: u64, stream: Stream) -> GameRng {
    rng_from_seed(stream_seed(seed, stream))
}

/// Uniform index in `0..n` (n > 0).
///
/// Exactly `rng.random_range(0..n)` (rand 0.9's biased Canon method on a
/// `u32` draw, a second draw when the first is in the biased band), written
/// out so that rollouts inline it; a test compares the two draw for draw.
#[inline]
pub fn below(rng: &mut GameRng, n: usize) -> usize {
    debug_assert!(n > 0);
    let Ok(range) = u32::try_from(n) else {
        return rng.random_range(0..n);
    };
    let wide = u64::from(rng.next_u32()) * u64::from(range);
    let (mut result, low) = ((wide >> 32) as u32, wide as u32);
    if low > range.wrapping_neg() {
        let high = ((u64::from(rng.next_u32()) * u64::from(range)) >> 32) as u32;
        result += u32::from(low.checked_add(high).is_none());
    }
    result as usize
}

/// Uniform float in [0, 1).
pub fn unit(rng: &mut GameRng) -> f64 {
    rng.random::<f64>()
}

/// Shuffles a slice in place (Fisher–Yates), without allocating.
pub fn shuffle<T>(rng: &mut GameRng, items: &mut [T]) {
    for i in (1..items.len()).rev() {
        let j = below(rng, i + 1);
        items.swap(i, j);
    }
}

/// Picks an index with probability proportional to `weights` (not all zero).
pub fn weighted_index(rng: &mut GameRng, weights: impl Iterator<Item = f64> + Clone) -> usize {
    let total: f64 = weights.clone().sum();
    let mut x = unit(rng) * total;
    let mut last = 0;
    for (i, w) in weights.enumerate() {
        if w > 0.0 {
            last = i;
            if x < w {
                return i;
            }
            x -= w;
        }
    }
    last
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn streams_differ_and_are_stable() {
        let s = game_seed(42, 7);
        assert_eq!(s, game_seed(42, 7));
        assert_ne!(s, game_seed(42, 8));
        assert_ne!(s, game_seed(43, 7));
        let a = stream_seed(s, Stream::Game);
        let b = stream_seed(s, Stream::View);
        let c = stream_seed(s, Stream::Seat(0));
        let d = stream_seed(s, Stream::Seat(1));
        assert!(a != b && a != c && c != d && b != d);
    }

    /// `below` is rand's `random_range(0..n)` draw for draw, small and
    /// large ranges alike (past `u32::MAX` it is `random_range` itself).
    #[test]
    fn below_draws_what_random_range_draws() {
        let ns = [
            1usize,
            2,
            3,
            5,
            6,
            7,
            10,
            29,
            100,
            1000,
            1 << 20,
            (1 << 31) + 3,
        ]
        .into_iter()
        .chain([
            u32::MAX as usize - 1,
            u32::MAX as usize,
            u32::MAX as usize + 7,
        ]);
        for (seed, n) in ns.enumerate() {
            let (mut a, mut b) = (rng_from_seed(seed as u64), rng_from_seed(seed as u64));
            for _ in 0..20_000 {
                assert_eq!(below(&mut a, n), b.random_range(0..n), "n {n}");
            }
            assert_eq!(a.next_u64(), b.next_u64(), "n {n}: streams diverged");
        }
    }

    #[test]
    fn weighted_index_follows_weights() {
        let mut rng = rng_from_seed(1);
        let w = [0.0, 1.0, 3.0];
        let mut counts = [0usize; 3];
        let n = 40_000;
        for _ in 0..n {
            counts[weighted_index(&mut rng, w.iter().copied())] += 1;
        }
        assert_eq!(counts[0], 0);
        // Binomial p = 0.75, sd = sqrt(n p q) ≈ 87; allow 5 sd.
        let expected = 0.75 * n as f64;
        assert!((counts[2] as f64 - expected).abs() < 5.0 * (n as f64 * 0.75 * 0.25).sqrt());
    }

    #[test]
    fn shuffle_is_a_permutation() {
        let mut rng = rng_from_seed(3);
        let mut v: Vec<u32> = (0..50).collect();
        shuffle(&mut rng, &mut v);
        let mut s = v.clone();
        s.sort();
        assert_eq!(s, (0..50).collect::<Vec<_>>());
        assert_ne!(v, s);
    }
}

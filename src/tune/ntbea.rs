//! The N-Tuple Bandit Evolutionary Algorithm (Lucas, Liu and Perez-Liebana,
//! 2018; the variant TAG uses) over a grid of discrete settings.
//!
//! Each iteration spends one noisy evaluation on the current point and adds
//! it to an n-tuple model: running means of the score for every value of each
//! dimension (1-tuples), every pair of dimensions (2-tuples) and the whole
//! point (the n-tuple). The next point is the neighbour (a mutation of the
//! current one) whose model upper bound is highest, so evaluations go where
//! the model is promising or uncertain. The recommendation is the sampled
//! point with the best model mean: the tuples pool the evaluations of related
//! settings, which is why NTBEA needs far fewer evaluations than measuring
//! every setting on its own.

use std::collections::BTreeMap;

use crate::rng::{below, rng_from_seed, unit};

/// The optimizer's settings (TAG's defaults: k = 1, 50 neighbours).
#[derive(Clone, Copy, Debug)]
pub struct Ntbea {
    /// Exploration constant of the tuples' upper bound, for scores in [0, 1].
    pub k: f64,
    /// Neighbours of the current point scored by the model per iteration.
    pub neighbours: usize,
}

impl Default for Ntbea {
    fn default() -> Self {
        Ntbea {
            k: 1.0,
            neighbours: 50,
        }
    }
}

/// Keeps the exploration term finite for values a tuple has not seen (TAG's ε).
const EPSILON: f64 = 0.1;

/// Count and sum of the scores that fell into one cell of a tuple.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Stat {
    /// Evaluations.
    pub n: u64,
    /// Sum of their scores.
    pub sum: f64,
}

impl Stat {
    /// The mean score (NaN when empty).
    pub fn mean(&self) -> f64 {
        self.sum / self.n as f64
    }
}

/// Statistics of one subset of the dimensions, keyed by the point's values there.
#[derive(Clone, Debug)]
struct Tuple {
    dims: Vec<usize>,
    cells: BTreeMap<Vec<usize>, Stat>,
    n: u64,
}

impl Tuple {
    fn key(&self, point: &[usize]) -> Vec<usize> {
        self.dims.iter().map(|&d| point[d]).collect()
    }
    fn get(&self, point: &[usize]) -> Option<&Stat> {
        self.cells.get(&self.key(point))
    }
}

/// The n-tuple landscape model: 1-tuples, 2-tuples and the full n-tuple.
#[derive(Clone, Debug)]
pub struct Model {
    sizes: Vec<usize>,
    tuples: Vec<Tuple>,
    /// Distinct sampled points in the order first sampled.
    sampled: Vec<Vec<usize>>,
    total: Stat,
}

impl Model {
    /// An empty model of a grid with `sizes[d]` values in dimension `d`.
    pub fn new(sizes: &[usize]) -> Model {
        let d = sizes.len();
        let mut subsets: Vec<Vec<usize>> = (0..d).map(|i| vec![i]).collect();
        for i in 0..d {
            for j in i + 1..d {
                subsets.push(vec![i, j]);
            }
        }
        if d > 2 {
            subsets.push((0..d).collect());
        }
        Model {
            sizes: sizes.to_vec(),
            tuples: subsets
                .into_iter()
                .map(|dims| Tuple {
                    dims,
                    cells: BTreeMap::new(),
                    n: 0,
                })
                .collect(),
            sampled: Vec::new(),
            total: Stat::default(),
        }
    }

    /// Adds one evaluation of `point`.
    pub fn add(&mut self, point: &[usize], score: f64) {
        for t in &mut self.tuples {
            let cell = t.cells.entry(t.dims.iter().map(|&d| point[d]).collect());
            let s = cell.or_default();
            s.n += 1;
            s.sum += score;
            t.n += 1;
        }
        self.total.n += 1;
        self.total.sum += score;
        if self.full(point).n == 1 {
            self.sampled.push(point.to_vec());
        }
    }

    /// The model's estimate of `point`: the mean over the tuples that have
    /// seen its values (the overall mean when none has).
    pub fn mean(&self, point: &[usize]) -> f64 {
        let (mut sum, mut seen) = (0.0, 0);
        for s in self.tuples.iter().filter_map(|t| t.get(point)) {
            sum += s.mean();
            seen += 1;
        }
        if seen > 0 {
            sum / f64::from(seen)
        } else if self.total.n > 0 {
            self.total.mean()
        } else {
            0.0
        }
    }

    /// The upper bound NTBEA climbs: the mean plus `k` times the tuples'
    /// average UCB exploration term `sqrt(ln((1 + N) / (ε + n)))`.
    pub fn upper(&self, point: &[usize], k: f64) -> f64 {
        let explore: f64 = self
            .tuples
            .iter()
            .map(|t| {
                let n = t.get(point).map_or(0, |s| s.n);
                ((1.0 + t.n as f64) / (EPSILON + n as f64)).ln().sqrt()
            })
            .sum::<f64>()
            / self.tuples.len() as f64;
        self.mean(point) + k * explore
    }

    /// The evaluations of exactly `point`: its cell in the tuple spanning
    /// every dimension (the single 1-tuple or pair when there are one or two).
    pub fn full(&self, point: &[usize]) -> Stat {
        self.tuples
            .iter()
            .find(|t| t.dims.len() == self.sizes.len())
            .and_then(|t| t.get(point).copied())
            .unwrap_or_default()
    }

    /// Every distinct sampled point with its model mean, best first (ties:
    /// the earlier sampled first).
    pub fn ranked(&self) -> Vec<(Vec<usize>, f64)> {
        let mut all: Vec<(Vec<usize>, f64)> = self
            .sampled
            .iter()
            .map(|p| (p.clone(), self.mean(p)))
            .collect();
        all.sort_by(|a, b| b.1.total_cmp(&a.1));
        all
    }

    /// The recommendation: the sampled point with the best model mean.
    pub fn best(&self) -> Vec<usize> {
        self.ranked()
            .into_iter()
            .next()
            .map(|(p, _)| p)
            .unwrap_or_default()
    }

    /// Evaluations so far.
    pub fn evaluations(&self) -> u64 {
        self.total.n
    }
}

impl Ntbea {
    /// Runs `evaluations` iterations from a random point of the grid
    /// `sizes` (every dimension at least two values). `evaluate(i, point)` is
    /// the `i`-th noisy evaluation, a score in [0, 1]. The walk is fixed by
    /// `seed` and the scores, so it is as deterministic as `evaluate`.
    pub fn run(
        &self,
        sizes: &[usize],
        evaluations: u64,
        seed: u64,
        mut evaluate: impl FnMut(u64, &[usize]) -> f64,
    ) -> Model {
        assert!(
            !sizes.is_empty() && sizes.iter().all(|&n| n >= 2),
            "every dimension needs two values or more"
        );
        let mut rng = rng_from_seed(seed);
        let mut model = Model::new(sizes);
        let space: f64 = sizes.iter().map(|&n| n as f64).product();
        // TAG: no more neighbours than a quarter of the grid, and at least five.
        let neighbours = (self.neighbours as f64).min(space / 4.0).max(5.0) as usize;
        let d = sizes.len();
        let mut point: Vec<usize> = sizes.iter().map(|&n| below(&mut rng, n)).collect();
        for i in 0..evaluations {
            let score = evaluate(i, &point);
            model.add(&point, score);
            if i + 1 == evaluations {
                break;
            }
            let mut next = point.clone();
            let mut best = f64::NEG_INFINITY;
            for _ in 0..neighbours {
                let mut p = point.clone();
                let mut mutated = false;
                for (dim, &n) in sizes.iter().enumerate() {
                    if unit(&mut rng) < 1.0 / d as f64 {
                        p[dim] = other_value(&mut rng, point[dim], n);
                        mutated = true;
                    }
                }
                if !mutated {
                    let dim = below(&mut rng, d);
                    p[dim] = other_value(&mut rng, point[dim], sizes[dim]);
                }
                let ucb = model.upper(&p, self.k);
                if ucb > best {
                    best = ucb;
                    next = p;
                }
            }
            point = next;
        }
        model
    }
}

/// A uniformly random value in `0..n` other than `current`.
fn other_value(rng: &mut crate::rng::GameRng, current: usize, n: usize) -> usize {
    let v = below(rng, n - 1);
    if v >= current { v + 1 } else { v }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::game_seed;

    /// The toy problem: a 4 × 5 × 6 × 5 grid whose evaluation is a win with
    /// probability `p(x) = 0.9 - 0.1 · |x - OPTIMUM|₁` (clamped to [0.1, 0.9]).
    const SIZES: [usize; 4] = [4, 5, 6, 5];
    const OPTIMUM: [usize; 4] = [1, 3, 2, 4];

    fn p(x: &[usize]) -> f64 {
        let l1: usize = x.iter().zip(OPTIMUM).map(|(&a, b)| a.abs_diff(b)).sum();
        (0.9 - 0.1 * l1 as f64).clamp(0.1, 0.9)
    }

    /// One tuning run on the toy problem with Bernoulli noise; the win
    /// probability of its recommendation.
    fn toy_run(seed: u64, evaluations: u64) -> f64 {
        let model = Ntbea::default().run(&SIZES, evaluations, seed, |i, x| {
            let mut rng = rng_from_seed(game_seed(seed, i));
            if unit(&mut rng) < p(x) { 1.0 } else { 0.0 }
        });
        p(&model.best())
    }

    /// The budget, derived before measuring: the pick is right in a dimension
    /// when the 1-tuple mean of the optimal value beats its neighbour's, whose
    /// true means differ by 0.1. With n evaluations in each cell the
    /// difference has standard error √(2 · 0.25 / n), so a swap has
    /// probability ≤ 5 % (z = 1.64) from n ≈ 135; spread over ~5 values per
    /// dimension that is ~700 evaluations, and with at most 5 % per dimension
    /// two wrong dimensions (a setting more than 0.1 below the optimum) have
    /// probability ≈ 6 · 0.05² < 2 %. 1,000 evaluations leave margin. The
    /// measured success rate at that budget (see `toy_success_rates`, 200
    /// seeds) is documented in results/tune/README.md; with a success rate
    /// s ≥ 0.9 the bar of 15 of 20 seeds fails with probability
    /// P(Bin(20, 0.9) < 15) ≈ 1 %, and far less at the measured rate.
    const BUDGET: u64 = 1000;

    #[test]
    fn finds_the_optimum_of_a_noisy_toy_problem() {
        let seeds = 20;
        let good: Vec<u64> = (0..seeds)
            .filter(|&s| toy_run(1000 + s, BUDGET) >= 0.9 - 0.1 - 1e-9)
            .collect();
        assert!(
            good.len() >= 15,
            "within 0.1 of the optimum in only {} of {seeds} seeds",
            good.len()
        );
    }

    #[test]
    fn is_deterministic_for_a_seed() {
        let a = toy_run(7, 200);
        let b = toy_run(7, 200);
        assert_eq!(a, b);
        let run = |seed| {
            let model = Ntbea::default().run(&SIZES, 100, seed, |i, x| {
                let mut rng = rng_from_seed(game_seed(seed, i));
                if unit(&mut rng) < p(x) { 1.0 } else { 0.0 }
            });
            model.ranked()
        };
        assert_eq!(run(3), run(3));
    }

    #[test]
    fn model_averages_the_tuples_that_saw_a_point() {
        let mut m = Model::new(&[3, 3, 3]);
        m.add(&[0, 0, 0], 1.0);
        m.add(&[0, 1, 2], 0.0);
        // [0, 0, 0]: 1-tuples (0.5, 1, 1), pairs (1, 1, 1), full 1.
        let expected = (0.5 + 1.0 + 1.0 + 1.0 + 1.0 + 1.0 + 1.0) / 7.0;
        assert!((m.mean(&[0, 0, 0]) - expected).abs() < 1e-12);
        // A point no tuple has seen gets the overall mean.
        assert_eq!(m.mean(&[2, 2, 1]), 0.5);
        assert_eq!(m.full(&[0, 1, 2]), Stat { n: 1, sum: 0.0 });
        assert_eq!(m.full(&[1, 1, 2]).n, 0);
        // Unseen points explore more than seen ones.
        assert!(m.upper(&[2, 2, 1], 1.0) > m.upper(&[0, 0, 0], 1.0));
        assert_eq!(m.best(), vec![0, 0, 0]);
    }

    /// Success rate against budget over 200 seeds, for results/tune/README.md
    /// (`cargo test --release --lib tune::ntbea -- --ignored --nocapture`).
    #[test]
    #[ignore]
    fn toy_success_rates() {
        for budget in [250, 500, 1000] {
            let picks: Vec<f64> = (0..200u64)
                .map(|s| toy_run(1_000_000 + s, budget))
                .collect();
            let within = picks.iter().filter(|&&p| p >= 0.8 - 1e-9).count();
            let exact = picks.iter().filter(|&&p| p >= 0.9 - 1e-9).count();
            println!("budget {budget}: within 0.1 in {within}/200, the optimum in {exact}/200");
        }
    }
}

//! Fitting a linear evaluation from self-play: play games, record the
//! features of sampled positions for every seat with that seat's final
//! outcome, and fit a logistic regression (Newton's method, i.e. IRLS, with a
//! small ridge penalty) on most games, measuring it on the games held out.

use rayon::prelude::*;

use crate::agents::registry::AgentSpec;
use crate::arena::play::play_game;
use crate::error::SpecError;
use crate::eval::{LinearEval, Quality};
use crate::game::{Game, MAX_FEATURES, Turn};
use crate::rng::game_seed;

/// One recorded position from one seat's view.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    /// The game it comes from (held-out games are split by this index).
    pub game: u64,
    /// The game's features for the seat.
    pub features: Vec<f64>,
    /// The game's heuristic for the seat, the baseline to beat.
    pub heuristic: f64,
    /// The seat's result: 1 won, 0 lost, ½ drawn.
    pub outcome: f64,
}

/// How to collect samples.
#[derive(Clone, Debug)]
pub struct Collect {
    /// Games played.
    pub games: u64,
    /// Master seed: game `i` plays on `game_seed(seed, i)`.
    pub seed: u64,
    /// Every `stride`-th decision of a game is recorded (for every seat).
    pub stride: u32,
    /// Games played at once (0: one per core).
    pub threads: usize,
    /// A progress bar of the games on a terminal.
    pub progress: bool,
}

/// Plays `c.games` games of `agent` against itself in every seat and
/// records samples. Same seed, same samples, for any thread count.
pub fn collect<G: Game>(
    game: &G,
    agent: &AgentSpec,
    c: &Collect,
) -> Result<Vec<Sample>, SpecError> {
    let n = G::feature_names().len();
    if n == 0 {
        return Err(SpecError::Invalid(format!(
            "{} exposes no evaluation features to fit",
            game.spec()
        )));
    }
    agent.build::<G>()?;
    let pool = crate::arena::pool(c.threads).map_err(SpecError::Invalid)?;
    let bar = crate::arena::progress::Progress::of(c.games, c.progress, "game", "fit".into());
    let per_game: Vec<Vec<Sample>> = pool.install(|| {
        (0..c.games)
            .into_par_iter()
            .map(|i| {
                let samples =
                    play_and_record(game, agent, i, game_seed(c.seed, i), c.stride.max(1), n);
                bar.inc(1);
                samples
            })
            .collect()
    });
    bar.finish_and_clear();
    Ok(per_game.into_iter().flatten().collect())
}

fn play_and_record<G: Game>(
    game: &G,
    agent: &AgentSpec,
    index: u64,
    seed: u64,
    stride: u32,
    n: usize,
) -> Vec<Sample> {
    let seats = game.num_players();
    let mut agents: Vec<_> = (0..seats)
        .map(|_| match agent.build::<G>() {
            Ok(a) => a,
            Err(e) => unreachable!("the agent was built before the games: {e}"),
        })
        .collect();
    let mut recorded: Vec<(u8, Vec<f64>, f64)> = Vec::new();
    let mut decisions = 0u32;
    let mut hook = |s: &G::State, p: Option<u8>, _a: G::Action| {
        if p.is_none() || game.turn(s) == Turn::Terminal {
            return;
        }
        decisions += 1;
        if !decisions.is_multiple_of(stride) {
            return;
        }
        for seat in 0..seats as u8 {
            let mut f = [0.0; MAX_FEATURES];
            game.eval_features(s, seat, &mut f[..n]);
            recorded.push((seat, f[..n].to_vec(), game.heuristic(s, seat)));
        }
    };
    let result = play_game(game, &mut agents, seed, None, &mut hook);
    if result.error.is_some() {
        return Vec::new();
    }
    recorded
        .into_iter()
        .map(|(seat, features, heuristic)| Sample {
            game: index,
            features,
            heuristic,
            outcome: result.seats[seat as usize].outcome.points(),
        })
        .collect()
}

fn sigmoid(z: f64) -> f64 {
    1.0 / (1.0 + (-z).exp())
}

/// Logistic regression without intercept by Newton's method (IRLS):
/// minimises the mean log-loss plus `l2 / 2 · |w|²`. `y` may be fractional
/// (a draw is ½). Returns one weight per column of `x`.
pub fn logistic(x: &[Vec<f64>], y: &[f64], l2: f64) -> Vec<f64> {
    let d = x.first().map_or(0, Vec::len);
    let m = x.len().max(1) as f64;
    let mut w = vec![0.0; d];
    for _ in 0..100 {
        let mut grad: Vec<f64> = w.iter().map(|wi| l2 * wi).collect();
        let mut hess = vec![vec![0.0; d]; d];
        for (i, h) in hess.iter_mut().enumerate() {
            h[i] = l2.max(1e-12);
        }
        for (row, &t) in x.iter().zip(y) {
            let p = sigmoid(dot(&w, row));
            let r = p * (1.0 - p) / m;
            for j in 0..d {
                grad[j] += (p - t) * row[j] / m;
                for k in 0..d {
                    hess[j][k] += r * row[j] * row[k];
                }
            }
        }
        let step = solve(hess, grad);
        let size: f64 = step.iter().map(|s| s.abs()).fold(0.0, f64::max);
        for (wj, s) in w.iter_mut().zip(&step) {
            *wj -= s;
        }
        if size < 1e-10 {
            break;
        }
    }
    w
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// Solves `a · s = b` by Gaussian elimination with partial pivoting (a is
/// symmetric positive definite here, thanks to the ridge term).
fn solve(mut a: Vec<Vec<f64>>, mut b: Vec<f64>) -> Vec<f64> {
    let d = b.len();
    for col in 0..d {
        let piv = (col..d)
            .max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))
            .unwrap_or(col);
        a.swap(col, piv);
        b.swap(col, piv);
        let p = a[col][col];
        if p.abs() < 1e-300 {
            continue;
        }
        for r in col + 1..d {
            let f = a[r][col] / p;
            if f != 0.0 {
                let (top, bottom) = a.split_at_mut(r);
                for (x, y) in bottom[0][col..].iter_mut().zip(&top[col][col..]) {
                    *x -= f * y;
                }
                b[r] -= f * b[col];
            }
        }
    }
    let mut s = vec![0.0; d];
    for r in (0..d).rev() {
        let tail: f64 = (r + 1..d).map(|k| a[r][k] * s[k]).sum();
        s[r] = if a[r][r].abs() < 1e-300 {
            0.0
        } else {
            (b[r] - tail) / a[r][r]
        };
    }
    s
}

/// Mean log-loss (nats) of the model `σ(w·x)`.
pub fn log_loss(w: &[f64], x: &[Vec<f64>], y: &[f64]) -> f64 {
    let sum: f64 = x
        .iter()
        .zip(y)
        .map(|(row, &t)| {
            let p = sigmoid(dot(w, row)).clamp(1e-12, 1.0 - 1e-12);
            -(t * p.ln() + (1.0 - t) * (1.0 - p).ln())
        })
        .sum();
    sum / x.len().max(1) as f64
}

/// Share of decisive samples (outcome 0 or 1) whose winner the sign of
/// `w·x` names; a score of exactly 0 counts half.
pub fn accuracy(w: &[f64], x: &[Vec<f64>], y: &[f64]) -> f64 {
    let (mut right, mut n) = (0.0, 0.0);
    for (row, &t) in x.iter().zip(y) {
        if t != 0.0 && t != 1.0 {
            continue;
        }
        n += 1.0;
        let z = dot(w, row);
        right += if z == 0.0 {
            0.5
        } else if (z > 0.0) == (t == 1.0) {
            1.0
        } else {
            0.0
        };
    }
    if n == 0.0 { 0.0 } else { right / n }
}

/// Fits weights on the samples of games `0..train_games` and measures them,
/// and the heuristic (its scale fitted on the same games), on the rest.
pub fn fit<G: Game>(
    samples: &[Sample],
    train_games: u64,
    l2: f64,
) -> Result<LinearEval, SpecError> {
    let (train, test): (Vec<&Sample>, Vec<&Sample>) =
        samples.iter().partition(|s| s.game < train_games);
    if train.is_empty() || test.is_empty() {
        return Err(SpecError::Invalid(format!(
            "the fit needs positions in both the training and the held-out games ({} and {} recorded); play more games",
            train.len(),
            test.len()
        )));
    }
    // Drawn positions alone carry no evidence of what wins: every weight
    // would fit to zero, an evaluation that only looks fitted.
    if !train.iter().any(|s| s.outcome != 0.5) {
        return Err(SpecError::Invalid(format!(
            "no training game was decided (all {} positions come from drawn games): nothing to fit; play more games or another agent",
            train.len()
        )));
    }
    let xs = |v: &[&Sample]| v.iter().map(|s| s.features.clone()).collect::<Vec<_>>();
    let hs = |v: &[&Sample]| v.iter().map(|s| vec![s.heuristic]).collect::<Vec<_>>();
    let ys = |v: &[&Sample]| v.iter().map(|s| s.outcome).collect::<Vec<_>>();
    let (x, y) = (xs(&train), ys(&train));
    let w = logistic(&x, &y, l2);
    let a = logistic(&hs(&train), &y, l2);
    let (tx, th, ty) = (xs(&test), hs(&test), ys(&test));
    Ok(LinearEval {
        fitted_on: String::new(),
        features: G::feature_names().iter().map(|s| s.to_string()).collect(),
        weights: w.iter().map(|v| round6(*v)).collect(),
        quality: Some(Quality {
            train_positions: train.len(),
            test_positions: test.len(),
            log_loss: round6(log_loss(&w, &tx, &ty)),
            accuracy: round6(accuracy(&w, &tx, &ty)),
            heuristic_log_loss: round6(log_loss(&a, &th, &ty)),
            heuristic_accuracy: round6(accuracy(&a, &th, &ty)),
        }),
    })
}

fn round6(v: f64) -> f64 {
    (v * 1e6).round() / 1e6
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::{rng_from_seed, unit};

    /// Outcomes drawn from a known logistic model: the fit finds its weights
    /// within a few standard errors (about 0.03 for 20,000 samples).
    #[test]
    fn logistic_fit_recovers_known_weights() {
        let truth = [1.5, -0.8, 0.0, 0.3];
        let mut rng = rng_from_seed(11);
        let (mut x, mut y) = (Vec::new(), Vec::new());
        for _ in 0..20_000 {
            let row: Vec<f64> = (0..truth.len())
                .map(|_| 2.0 * unit(&mut rng) - 1.0)
                .collect();
            let p = sigmoid(dot(&truth, &row));
            y.push(if unit(&mut rng) < p { 1.0 } else { 0.0 });
            x.push(row);
        }
        let w = logistic(&x, &y, 1e-6);
        for (got, want) in w.iter().zip(truth) {
            assert!((got - want).abs() < 0.12, "{w:?} against {truth:?}");
        }
        // The true model predicts better than a coin, and no worse than the fit.
        let fitted = log_loss(&w, &x, &y);
        assert!(fitted < 0.69 && fitted <= log_loss(&truth, &x, &y) + 1e-9);
        assert!(accuracy(&w, &x, &y) > 0.6);
    }

    #[test]
    fn solve_solves_a_small_system() {
        let s = solve(vec![vec![4.0, 1.0], vec![1.0, 3.0]], vec![1.0, 2.0]);
        assert!((s[0] - 1.0 / 11.0).abs() < 1e-12 && (s[1] - 7.0 / 11.0).abs() < 1e-12);
    }

    #[test]
    fn collect_is_deterministic_across_threads_and_fits_karmaka() {
        let game = crate::games::karmaka::Karmaka::from_params(&mut crate::spec::Params::default())
            .unwrap();
        let agent = AgentSpec::parse("greedy").unwrap();
        let c = |threads| Collect {
            games: 8,
            seed: 5,
            stride: 7,
            threads,
            progress: false,
        };
        let a = collect(&game, &agent, &c(1)).unwrap();
        let b = collect(&game, &agent, &c(2)).unwrap();
        assert_eq!(a, b);
        assert!(a.iter().all(|s| s.features.len() == 13));
        let eval = fit::<crate::games::karmaka::Karmaka>(&a, 6, 1e-3).unwrap();
        let q = eval.quality.unwrap();
        assert!(q.train_positions > 0 && q.test_positions > 0);
        assert!(q.log_loss.is_finite() && q.accuracy > 0.0);
    }

    #[test]
    fn a_fit_without_a_decided_game_is_refused() {
        let drawn = |game| Sample {
            game,
            features: vec![0.5; 13],
            heuristic: 0.1,
            outcome: 0.5,
        };
        let samples: Vec<Sample> = (0..4).map(drawn).collect();
        let e = fit::<crate::games::karmaka::Karmaka>(&samples, 3, 1e-3).unwrap_err();
        assert!(
            e.to_string().contains("no training game was decided"),
            "{e}"
        );
        // One decided game is evidence enough to fit.
        let mut decided = samples;
        decided[0].outcome = 1.0;
        assert!(fit::<crate::games::karmaka::Karmaka>(&decided, 3, 1e-3).is_ok());
    }
}

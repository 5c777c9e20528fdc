//! Solving the meta-game: the Nash equilibrium of a two-sided zero-sum matrix
//! game by linear programming, and replicator dynamics for more sides.
//!
//! The matrices are small (one row and one column per population member), so
//! a dense simplex with Bland's rule is exact enough and never cycles; no LP
//! crate is needed for a dozen rows.

/// The equilibrium of a zero-sum matrix game: the row side maximises, the
/// column side minimises the row side's payoff.
#[derive(Clone, Debug, PartialEq)]
pub struct Equilibrium {
    /// The row side's payoff when both sides play their equilibrium mixes.
    pub value: f64,
    /// The row side's equilibrium mix (sums to 1).
    pub row: Vec<f64>,
    /// The column side's equilibrium mix (sums to 1).
    pub col: Vec<f64>,
}

const EPS: f64 = 1e-11;

/// Solves `max_x min_y x·A·y` for an `m × n` matrix given row by row.
///
/// The payoffs are shifted positive, and `max 1·w s.t. A w ≤ 1, w ≥ 0` is
/// solved from the slack basis (feasible at `w = 0`, so no first phase): the
/// value is `1 / Σw`, the column mix `w · value`, and the row mix the duals,
/// read off the slack columns of the final objective row.
///
/// # Panics
/// On an empty or ragged matrix, or a non-finite entry: callers build the
/// matrix from counted games, so either is a bug.
pub fn solve_zero_sum(a: &[Vec<f64>]) -> Equilibrium {
    let m = a.len();
    assert!(m > 0, "an empty payoff matrix");
    let n = a[0].len();
    assert!(
        n > 0 && a.iter().all(|r| r.len() == n),
        "a ragged payoff matrix"
    );
    assert!(
        a.iter().flatten().all(|v| v.is_finite()),
        "a payoff is not finite"
    );
    let low = a.iter().flatten().copied().fold(f64::INFINITY, f64::min);
    let shift = 1.0 - low; // every shifted payoff is at least 1
    // Tableau: m constraint rows over n + m columns and a right-hand side.
    let width = n + m + 1;
    let mut t = vec![0.0; (m + 1) * width];
    for i in 0..m {
        for j in 0..n {
            t[i * width + j] = a[i][j] + shift;
        }
        t[i * width + n + i] = 1.0;
        t[i * width + n + m] = 1.0;
    }
    // Objective row holds the negated reduced costs: -1 for each w.
    for j in 0..n {
        t[m * width + j] = -1.0;
    }
    let mut basis: Vec<usize> = (n..n + m).collect();
    // Bland's rule: the lowest-indexed column that improves.
    while let Some(enter) = (0..n + m).find(|&j| t[m * width + j] < -EPS) {
        let mut leave: Option<(usize, f64)> = None;
        for i in 0..m {
            let coef = t[i * width + enter];
            if coef > EPS {
                let ratio = t[i * width + n + m] / coef;
                let better = match leave {
                    None => true,
                    Some((l, best)) => {
                        ratio < best - EPS || (ratio <= best + EPS && basis[i] < basis[l])
                    }
                };
                if better {
                    leave = Some((i, ratio));
                }
            }
        }
        // Bounded: every shifted payoff is positive, so each column has a
        // positive coefficient in some row.
        let (pivot_row, _) = leave.expect("the game's LP is bounded");
        let p = t[pivot_row * width + enter];
        for j in 0..width {
            t[pivot_row * width + j] /= p;
        }
        for i in 0..=m {
            if i != pivot_row {
                let f = t[i * width + enter];
                if f != 0.0 {
                    for j in 0..width {
                        t[i * width + j] -= f * t[pivot_row * width + j];
                    }
                }
            }
        }
        basis[pivot_row] = enter;
    }
    let total = t[m * width + n + m];
    let shifted_value = 1.0 / total;
    let mut col = vec![0.0; n];
    for (i, &b) in basis.iter().enumerate() {
        if b < n {
            col[b] = t[i * width + n + m] * shifted_value;
        }
    }
    let row: Vec<f64> = (0..m)
        .map(|i| (t[m * width + n + i] * shifted_value).max(0.0))
        .collect();
    Equilibrium {
        value: shifted_value - shift,
        row: normalised(row),
        col: normalised(col),
    }
}

fn normalised(mut v: Vec<f64>) -> Vec<f64> {
    for x in v.iter_mut() {
        if *x < 0.0 {
            *x = 0.0;
        }
    }
    let s: f64 = v.iter().sum();
    v.iter_mut().for_each(|x| *x /= s);
    v
}

/// How far a pair of mixes is from an equilibrium of `a`: the most either
/// side gains by deviating to a pure strategy (0 at an exact equilibrium).
pub fn deviation_gain(a: &[Vec<f64>], row: &[f64], col: &[f64]) -> f64 {
    let value: f64 = (0..a.len())
        .map(|i| row[i] * (0..col.len()).map(|j| a[i][j] * col[j]).sum::<f64>())
        .sum();
    let best_row = (0..a.len())
        .map(|i| (0..col.len()).map(|j| a[i][j] * col[j]).sum::<f64>())
        .fold(f64::NEG_INFINITY, f64::max);
    let best_col = (0..col.len())
        .map(|j| (0..a.len()).map(|i| a[i][j] * row[i]).sum::<f64>())
        .fold(f64::INFINITY, f64::min);
    (best_row - value).max(value - best_col)
}

/// A payoff tensor of `sides` sides with `members` choices each: entry
/// `cell` holds every side's payoff when side `s` plays member `cell[s]`.
pub struct Tensor {
    /// Choices per side.
    pub members: usize,
    /// Number of sides.
    pub sides: usize,
    /// `payoffs[index(cell) * sides + s]`.
    pub payoffs: Vec<f64>,
}

impl Tensor {
    /// Side `s`'s expected payoff when side `s` plays `pure` (or its own mix
    /// when `None`) and every other side its mix in `mixes`.
    pub fn payoff(&self, mixes: &[Vec<f64>], s: usize, pure: Option<usize>) -> f64 {
        let cells = self.members.pow(self.sides as u32);
        let mut total = 0.0;
        for c in 0..cells {
            let mut rest = c;
            let mut p = 1.0;
            // Cell digits: side 0 is the most significant.
            for side in (0..self.sides).rev() {
                let choice = rest % self.members;
                rest /= self.members;
                p *= match (side == s, pure) {
                    (true, Some(k)) => f64::from(u8::from(choice == k)),
                    _ => mixes[side][choice],
                };
            }
            if p > 0.0 {
                total += p * self.payoffs[c * self.sides + s];
            }
        }
        total
    }
}

/// Discrete replicator dynamics from the uniform mix: each side's mix moves
/// toward its members that do better than the side's average against the
/// others' current mixes. Returns the mixes after `steps` steps. Payoffs are
/// points in [0, 1] (win 1, draw ½); the update is `x ← x (1 + η (u − ū))`.
pub fn replicator(t: &Tensor, steps: usize, rate: f64) -> Vec<Vec<f64>> {
    let k = t.members;
    let mut mixes = vec![vec![1.0 / k as f64; k]; t.sides];
    for _ in 0..steps {
        let next: Vec<Vec<f64>> = (0..t.sides)
            .map(|s| {
                let mean = t.payoff(&mixes, s, None);
                let grown: Vec<f64> = (0..k)
                    .map(|i| mixes[s][i] * (1.0 + rate * (t.payoff(&mixes, s, Some(i)) - mean)))
                    .collect();
                normalised(grown)
            })
            .collect();
        mixes = next;
    }
    mixes
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9
    }

    fn m(rows: &[&[f64]]) -> Vec<Vec<f64>> {
        rows.iter().map(|r| r.to_vec()).collect()
    }

    #[test]
    fn matching_pennies_is_even() {
        let e = solve_zero_sum(&m(&[&[1.0, -1.0], &[-1.0, 1.0]]));
        assert!(close(e.value, 0.0), "{e:?}");
        assert!(close(e.row[0], 0.5) && close(e.col[0], 0.5), "{e:?}");
    }

    #[test]
    fn rock_paper_scissors_is_uniform() {
        let e = solve_zero_sum(&m(&[&[0.5, 0.0, 1.0], &[1.0, 0.5, 0.0], &[0.0, 1.0, 0.5]]));
        assert!(close(e.value, 0.5), "{e:?}");
        for p in e.row.iter().chain(&e.col) {
            assert!(close(*p, 1.0 / 3.0), "{e:?}");
        }
    }

    #[test]
    fn a_saddle_point_is_found() {
        // Row 0 guarantees 2 (its minimum); column 1 holds every row to its
        // own maximum over rows: a pure equilibrium at (0, 1).
        let e = solve_zero_sum(&m(&[&[4.0, 2.0, 5.0], &[3.0, 1.0, 0.0]]));
        assert!(close(e.value, 2.0), "{e:?}");
        assert!(close(e.row[0], 1.0) && close(e.col[1], 1.0), "{e:?}");
    }

    #[test]
    fn a_hand_solved_mixed_game() {
        // [[3, -1], [-2, 1]]: the row mixes p = 3/7 on row 0 (3p - 2(1-p) =
        // -p + (1-p)), value 1/7; the column mix q = 2/7 on column 0.
        let e = solve_zero_sum(&m(&[&[3.0, -1.0], &[-2.0, 1.0]]));
        assert!(close(e.value, 1.0 / 7.0), "{e:?}");
        assert!(close(e.row[0], 3.0 / 7.0), "{e:?}");
        assert!(close(e.col[0], 2.0 / 7.0), "{e:?}");
    }

    #[test]
    fn degenerate_games_still_give_an_equilibrium() {
        // Every entry equal: any mix is optimal.
        let flat = m(&[&[0.5, 0.5], &[0.5, 0.5], &[0.5, 0.5]]);
        let e = solve_zero_sum(&flat);
        assert!(close(e.value, 0.5));
        assert!(deviation_gain(&flat, &e.row, &e.col) < 1e-9);
        // Duplicated rows and a dominated column (ties in the ratio test).
        let dup = m(&[&[1.0, 0.0, 2.0], &[1.0, 0.0, 2.0], &[0.0, 1.0, 2.0]]);
        let e = solve_zero_sum(&dup);
        assert!(close(e.value, 0.5), "{e:?}");
        assert!(close(e.col[2], 0.0), "{e:?}");
        assert!(deviation_gain(&dup, &e.row, &e.col) < 1e-9);
    }

    #[test]
    fn random_matrices_give_equilibria() {
        let mut rng = crate::rng::rng_from_seed(7);
        for _ in 0..300 {
            let rows = 1 + crate::rng::below(&mut rng, 7);
            let cols = 1 + crate::rng::below(&mut rng, 7);
            let a: Vec<Vec<f64>> = (0..rows)
                .map(|_| {
                    (0..cols)
                        .map(|_| crate::rng::below(&mut rng, 5) as f64 / 4.0)
                        .collect()
                })
                .collect();
            let e = solve_zero_sum(&a);
            assert!(
                deviation_gain(&a, &e.row, &e.col) < 1e-9,
                "{a:?} gave {e:?}"
            );
            assert!((e.row.iter().sum::<f64>() - 1.0).abs() < 1e-9);
            assert!((e.col.iter().sum::<f64>() - 1.0).abs() < 1e-9);
        }
    }

    #[test]
    fn replicator_dynamics_find_the_strict_best_member() {
        // Two sides, member 1 strictly dominant for both: the dynamics
        // concentrate on it.
        let payoffs = vec![
            0.5, 0.5, 0.2, 0.8, // cell (0, 0), (0, 1)
            0.8, 0.2, 0.5, 0.5, // cell (1, 0), (1, 1)
        ];
        let t = Tensor {
            members: 2,
            sides: 2,
            payoffs,
        };
        let mixes = replicator(&t, 5000, 1.0);
        assert!(mixes[0][1] > 0.99 && mixes[1][1] > 0.99, "{mixes:?}");
    }
}

//! Zero-sum matrix games solved exactly by the simplex method (TG-52): the value and an optimal
//! mixed strategy for each side. Games here are small (9 x 9 moves), so a dense tableau with
//! Bland's rule (no cycling on the many ties of duplicate moves) is all it takes.

/// The solution of a matrix game whose row player maximises.
#[derive(Clone, Debug, PartialEq)]
pub struct Solution {
    pub value: f64,
    /// The row player's optimal mixed strategy.
    pub rows: Vec<f64>,
    /// The column player's optimal mixed strategy.
    pub cols: Vec<f64>,
}

/// Tolerance on the scaled tableau, whose payoffs lie in [1, 2].
const EPS: f64 = 1e-10;

/// Solves the game `a[i][j]` (row i against column j; the row player receives it).
pub fn solve(a: &[Vec<f64>]) -> Solution {
    let m = a.len();
    let n = a[0].len();
    // Payoffs mapped onto [1, 2]: the value is positive, so the LP below is bounded, and the
    // tolerances mean the same whatever the game's scale (a duel of 200 turns has payoffs in the
    // hundreds, a probability game below 1; issue 53's panic was a reduced cost of rounding size
    // left with no pivot row on the unscaled tableau).
    let lo = a.iter().flatten().copied().fold(f64::INFINITY, f64::min);
    let hi = a
        .iter()
        .flatten()
        .copied()
        .fold(f64::NEG_INFINITY, f64::max);
    if hi - lo <= 0.0 || !(hi - lo).is_finite() {
        // A constant game (or one with no finite spread): every strategy is optimal.
        return Solution {
            value: lo,
            rows: vec![1.0 / m as f64; m],
            cols: vec![1.0 / n as f64; n],
        };
    }
    let span = hi - lo;
    // The column player: maximise sum q subject to A q <= 1, q >= 0 (slack basis is feasible).
    let w = n + m + 1;
    let mut t = vec![0.0; (m + 1) * w];
    for i in 0..m {
        for j in 0..n {
            t[i * w + j] = 1.0 + (a[i][j] - lo) / span;
        }
        t[i * w + n + i] = 1.0;
        t[i * w + w - 1] = 1.0;
    }
    for j in 0..n {
        t[m * w + j] = -1.0;
    }
    let mut basis: Vec<usize> = (n..n + m).collect();
    // Bland: the first column with a negative reduced cost enters...
    while let Some(col) = (0..n + m).find(|&j| t[m * w + j] < -EPS) {
        // ...and the row with the least ratio leaves (ties: the lowest basic index).
        let mut row = None;
        let mut best = f64::INFINITY;
        for i in 0..m {
            let c = t[i * w + col];
            if c > EPS {
                let r = t[i * w + w - 1] / c;
                if r < best - EPS
                    || (r < best + EPS && row.is_some_and(|k: usize| basis[i] < basis[k]))
                {
                    best = r;
                    row = Some(i);
                }
            }
        }
        // The LP is bounded (every payoff is at least 1), so a column with no positive entry
        // can only be a reduced cost of rounding size: the tableau is optimal.
        let Some(row) = row else {
            break;
        };
        let p = t[row * w + col];
        for k in 0..w {
            t[row * w + k] /= p;
        }
        for i in 0..=m {
            if i != row {
                let f = t[i * w + col];
                if f != 0.0 {
                    for k in 0..w {
                        t[i * w + k] -= f * t[row * w + k];
                    }
                }
            }
        }
        basis[row] = col;
    }
    let total = t[m * w + w - 1];
    let v = 1.0 / total;
    let mut cols = vec![0.0; n];
    for (i, &b) in basis.iter().enumerate() {
        if b < n {
            cols[b] = t[i * w + w - 1] * v;
        }
    }
    // The row player's strategy: the slack columns' reduced costs (the dual), normalised.
    let rows: Vec<f64> = (0..m).map(|i| t[m * w + n + i].max(0.0) * v).collect();
    Solution {
        value: lo + (v - 1.0) * span,
        rows,
        cols,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matching_pennies_is_even_odds() {
        let s = solve(&[vec![1.0, -1.0], vec![-1.0, 1.0]]);
        assert!(s.value.abs() < 1e-9);
        assert!((s.rows[0] - 0.5).abs() < 1e-9 && (s.cols[0] - 0.5).abs() < 1e-9);
    }

    #[test]
    fn a_saddle_point_is_a_pure_strategy() {
        let s = solve(&[vec![3.0, 5.0], vec![1.0, 4.0]]);
        assert!((s.value - 3.0).abs() < 1e-9);
        assert!((s.rows[0] - 1.0).abs() < 1e-9 && (s.cols[0] - 1.0).abs() < 1e-9);
    }

    /// Checks a solution by its guarantees: each side's mix holds the other to the value.
    fn holds(a: &[Vec<f64>], s: &Solution, tol: f64) {
        let (m, n) = (a.len(), a[0].len());
        let sum = |v: &[f64]| v.iter().sum::<f64>();
        assert!((sum(&s.rows) - 1.0).abs() < 1e-6 && (sum(&s.cols) - 1.0).abs() < 1e-6);
        assert!(s.rows.iter().chain(&s.cols).all(|&p| p >= -1e-9));
        let row_worst = (0..n)
            .map(|j| (0..m).map(|i| s.rows[i] * a[i][j]).sum::<f64>())
            .fold(f64::INFINITY, f64::min);
        let col_worst = (0..m)
            .map(|i| (0..n).map(|j| s.cols[j] * a[i][j]).sum::<f64>())
            .fold(f64::NEG_INFINITY, f64::max);
        assert!(
            (row_worst - s.value).abs() <= tol,
            "{row_worst} vs {}",
            s.value
        );
        assert!(
            (col_worst - s.value).abs() <= tol,
            "{col_worst} vs {}",
            s.value
        );
    }

    // Issue 53: degenerate (duplicate moves, ties everywhere) and badly scaled games, as the
    // duels of 6-7 squares and 200-400 turns make, solve to their guarantees and never panic.
    #[test]
    fn degenerate_and_badly_scaled_games_solve_to_their_guarantees() {
        use rand::{RngExt, SeedableRng};
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(53);
        for case in 0..3000 {
            let m = rng.random_range(1..=9);
            let n = rng.random_range(1..=9);
            let scale = [1e-9, 1e-3, 1.0, 400.0, 1e7][case % 5];
            let levels = rng.random_range(1..=4);
            let mut a: Vec<Vec<f64>> = (0..m)
                .map(|_| {
                    (0..n)
                        .map(|_| scale * rng.random_range(0..levels) as f64 + 200.0 * scale)
                        .collect()
                })
                .collect();
            // Duplicate rows and columns: the ties of equivalent moves.
            if m > 1 && case % 2 == 0 {
                a[m - 1] = a[0].clone();
            }
            if n > 1 && case % 3 == 0 {
                for r in &mut a {
                    r[n - 1] = r[0];
                }
            }
            let s = solve(&a);
            holds(&a, &s, 1e-7 * scale * 200.0);
        }
        let constant = solve(&vec![vec![5.0; 3]; 2]);
        assert_eq!(constant.value, 5.0);
    }

    #[test]
    fn rock_paper_scissors_is_uniform() {
        let s = solve(&[
            vec![0.0, -1.0, 1.0],
            vec![1.0, 0.0, -1.0],
            vec![-1.0, 1.0, 0.0],
        ]);
        assert!(s.value.abs() < 1e-9);
        for p in s.rows.iter().chain(&s.cols) {
            assert!((p - 1.0 / 3.0).abs() < 1e-9);
        }
    }
}

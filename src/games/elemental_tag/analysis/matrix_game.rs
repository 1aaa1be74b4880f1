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

const EPS: f64 = 1e-12;

/// Solves the game `a[i][j]` (row i against column j; the row player receives it).
pub fn solve(a: &[Vec<f64>]) -> Solution {
    let m = a.len();
    let n = a[0].len();
    // Shift every payoff above 0, so the value is positive and the LP below is bounded.
    let lo = a.iter().flatten().copied().fold(f64::INFINITY, f64::min);
    let shift = 1.0 - lo;
    // The column player: maximise sum q subject to A q <= 1, q >= 0 (slack basis is feasible).
    let w = n + m + 1;
    let mut t = vec![0.0; (m + 1) * w];
    for i in 0..m {
        for j in 0..n {
            t[i * w + j] = a[i][j] + shift;
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
        let row = row.expect("a positive matrix game's LP is bounded");
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
        value: v - shift,
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

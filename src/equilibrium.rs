//! Symmetric equilibria of empirical games (issue 54): a game where every player picks one of `k`
//! strategies and a player's expected payoff depends only on its own strategy and the multiset
//! of the others' (seats rotated away), as the bidding meta-game of Auto Rumble is. Knows no
//! game: payoffs come in as numbers.
//!
//! - [`SymmetricGame::payoff`]: the expected payoff of a strategy when the other `n - 1` players
//!   draw their strategies independently from a mix (a multinomial over the others' multisets).
//! - [`SymmetricGame::equilibria`]: mixes no strategy gains against (each with its largest gain
//!   from deviating, its *regret*), found by multiplicative weights (the exponential replicator)
//!   from many starts, its time average kept (the average converges where the path cycles, as in
//!   rock-paper-scissors), then polished on its support.
//! - [`SymmetricGame::exact_two_player`]: for two players, every symmetric equilibrium by
//!   support enumeration (linear equations per support): exact, for the small games here.

use crate::rng::{Stream, stream_rng};
use rand::RngExt;

/// A symmetric game of `k` strategies and `n` players, given by `u[s][o]`: the payoff of a
/// player of strategy `s` when the others are `others[o]` (counts per strategy, summing to
/// `n - 1`).
#[derive(Clone, Debug)]
pub struct SymmetricGame {
    pub k: usize,
    pub n: usize,
    pub others: Vec<Vec<u8>>,
    pub u: Vec<Vec<f64>>,
}

/// A mix and how far it is from an equilibrium.
#[derive(Clone, Debug, PartialEq)]
pub struct Equilibrium {
    pub x: Vec<f64>,
    /// The largest gain any strategy has over the mix against the mix (0 at an equilibrium).
    pub max_regret: f64,
}

impl Equilibrium {
    /// The strategies it plays (weight above `tol`).
    pub fn support(&self, tol: f64) -> Vec<usize> {
        (0..self.x.len()).filter(|&i| self.x[i] > tol).collect()
    }
}

/// Every multiset of `m` items of `k` kinds, as counts, in a fixed order.
pub fn multisets(k: usize, m: usize) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    let mut cur = vec![0u8; k];
    fn rec(i: usize, left: usize, cur: &mut Vec<u8>, out: &mut Vec<Vec<u8>>) {
        if i + 1 == cur.len() {
            cur[i] = left as u8;
            out.push(cur.clone());
            return;
        }
        for c in (0..=left).rev() {
            cur[i] = c as u8;
            rec(i + 1, left - c, cur, out);
        }
        cur[i] = 0;
    }
    if k > 0 {
        rec(0, m, &mut cur, &mut out);
    }
    out
}

fn ln_factorial(n: usize) -> f64 {
    (1..=n).map(|i| (i as f64).ln()).sum()
}

impl SymmetricGame {
    /// The game from a payoff function over (strategy, others' counts).
    pub fn from_fn(k: usize, n: usize, mut f: impl FnMut(usize, &[u8]) -> f64) -> SymmetricGame {
        let others = multisets(k, n - 1);
        let u = (0..k)
            .map(|s| others.iter().map(|o| f(s, o)).collect())
            .collect();
        SymmetricGame { k, n, others, u }
    }

    /// Each others-multiset's probability when every other player draws from `x`.
    fn weights(&self, x: &[f64]) -> Vec<f64> {
        let m = self.n - 1;
        let lm = ln_factorial(m);
        self.others
            .iter()
            .map(|o| {
                let mut p = lm;
                for (j, &c) in o.iter().enumerate() {
                    if c == 0 {
                        continue;
                    }
                    if x[j] <= 0.0 {
                        return 0.0;
                    }
                    p += c as f64 * x[j].ln() - ln_factorial(c as usize);
                }
                p.exp()
            })
            .collect()
    }

    /// Every strategy's expected payoff against others drawn from `x`.
    pub fn payoffs(&self, x: &[f64]) -> Vec<f64> {
        let w = self.weights(x);
        (0..self.k)
            .map(|s| w.iter().zip(&self.u[s]).map(|(p, u)| p * u).sum())
            .collect()
    }

    /// Strategy `s`'s expected payoff against others drawn from `x`.
    pub fn payoff(&self, s: usize, x: &[f64]) -> f64 {
        self.payoffs(x)[s]
    }

    /// Each strategy's gain over the mix, against the mix: `u(s, x) - u(x, x)`. At an
    /// equilibrium none is above 0; played strategies are at 0.
    pub fn gains(&self, x: &[f64]) -> Vec<f64> {
        let f = self.payoffs(x);
        let avg: f64 = f.iter().zip(x).map(|(a, b)| a * b).sum();
        f.iter().map(|v| v - avg).collect()
    }

    fn judge(&self, x: Vec<f64>) -> Equilibrium {
        let max_regret = self.gains(&x).into_iter().fold(0.0, f64::max);
        Equilibrium { x, max_regret }
    }

    /// Multiplicative weights from `x0` for `steps` steps; returns the time average.
    fn hedge(&self, x0: &[f64], steps: usize, eta: f64) -> Vec<f64> {
        let mut x = x0.to_vec();
        let mut avg = vec![0.0; self.k];
        for t in 0..steps {
            let f = self.payoffs(&x);
            let top = f.iter().cloned().fold(f64::MIN, f64::max);
            let step = eta / ((t + 1) as f64).sqrt();
            let mut sum = 0.0;
            for (xi, fi) in x.iter_mut().zip(&f) {
                *xi *= ((fi - top) * step).exp();
                *xi = xi.max(1e-300);
                sum += *xi;
            }
            for xi in &mut x {
                *xi /= sum;
            }
            // The second half's average: the start's transient left out.
            if t >= steps / 2 {
                for (a, xi) in avg.iter_mut().zip(&x) {
                    *a += xi;
                }
            }
        }
        let total: f64 = avg.iter().sum();
        avg.iter().map(|a| a / total).collect()
    }

    /// Replicator polish on a support: strategies with weight below `tol` are dropped and the
    /// plain replicator runs on the rest, which converges where the average has come close.
    fn polish(&self, x: &[f64], steps: usize) -> Vec<f64> {
        let mut y: Vec<f64> = x.iter().map(|&v| if v < 1e-4 { 0.0 } else { v }).collect();
        let s: f64 = y.iter().sum();
        y.iter_mut().for_each(|v| *v /= s);
        for _ in 0..steps {
            let f = self.payoffs(&y);
            let avg: f64 = f.iter().zip(&y).map(|(a, b)| a * b).sum();
            let lo = f.iter().cloned().fold(f64::MAX, f64::min).min(0.0);
            let mut sum = 0.0;
            for (yi, fi) in y.iter_mut().zip(&f) {
                *yi *= (fi - lo + 1e-9) / (avg - lo + 1e-9);
                sum += *yi;
            }
            y.iter_mut().for_each(|v| *v /= sum);
        }
        y
    }

    /// Equilibria found from `starts` starting mixes (the uniform mix, then random ones drawn
    /// from `seed`), distinct within `tol`, best (smallest regret) first.
    pub fn equilibria(&self, starts: usize, seed: u64) -> Vec<Equilibrium> {
        let mut rng = stream_rng(seed, 0, Stream::Roster);
        let mut found: Vec<Equilibrium> = Vec::new();
        for i in 0..starts.max(1) {
            let x0: Vec<f64> = if i == 0 {
                vec![1.0 / self.k as f64; self.k]
            } else {
                let raw: Vec<f64> = (0..self.k)
                    .map(|_| -(rng.random_range(1e-9..1.0f64)).ln())
                    .collect();
                let s: f64 = raw.iter().sum();
                raw.iter().map(|v| v / s).collect()
            };
            let avg = self.hedge(&x0, 4000, 2.0);
            let mut best = self.judge(avg.clone());
            let polished = self.judge(self.polish(&avg, 4000));
            if polished.max_regret < best.max_regret {
                best = polished;
            }
            if !found
                .iter()
                .any(|e| e.x.iter().zip(&best.x).all(|(a, b)| (a - b).abs() < 0.02))
            {
                found.push(best);
            }
        }
        found.sort_by(|a, b| a.max_regret.total_cmp(&b.max_regret));
        found
    }

    /// For two players: every symmetric equilibrium, by support enumeration (for each support,
    /// the mix making its strategies equally good, kept when it is a mix and nothing outside
    /// does better). Exact up to rounding; `k` up to about 12.
    pub fn exact_two_player(&self) -> Vec<Equilibrium> {
        assert_eq!(self.n, 2, "support enumeration here is for two players");
        // a[i][j]: i's payoff against one other of strategy j.
        let a: Vec<Vec<f64>> = (0..self.k)
            .map(|i| {
                (0..self.k)
                    .map(|j| {
                        let o = self
                            .others
                            .iter()
                            .position(|o| o[j] == 1)
                            .expect("one other of each strategy");
                        self.u[i][o]
                    })
                    .collect()
            })
            .collect();
        let mut out = Vec::new();
        for mask in 1u32..(1 << self.k) {
            let sup: Vec<usize> = (0..self.k).filter(|&i| mask & (1 << i) != 0).collect();
            let m = sup.len();
            // Unknowns: x over the support, then v. Rows: a[i]·x - v = 0 for i in the support;
            // sum x = 1.
            let mut mat = vec![vec![0.0; m + 2]; m + 1];
            for (r, &i) in sup.iter().enumerate() {
                for (c, &j) in sup.iter().enumerate() {
                    mat[r][c] = a[i][j];
                }
                mat[r][m] = -1.0;
            }
            for v in mat[m].iter_mut().take(m) {
                *v = 1.0;
            }
            mat[m][m + 1] = 1.0;
            let Some(sol) = gauss(mat) else { continue };
            if sol[..m].iter().any(|&v| v < -1e-9) {
                continue;
            }
            let mut x = vec![0.0; self.k];
            for (c, &i) in sup.iter().enumerate() {
                x[i] = sol[c].max(0.0);
            }
            let e = self.judge(x);
            if e.max_regret <= 1e-9
                && !out
                    .iter()
                    .any(|o: &Equilibrium| o.x.iter().zip(&e.x).all(|(p, q)| (p - q).abs() < 1e-9))
            {
                out.push(e);
            }
        }
        out
    }
}

/// Solves a square linear system given as rows `[coefficients.., rhs]`; `None` when singular.
fn gauss(mut m: Vec<Vec<f64>>) -> Option<Vec<f64>> {
    let n = m.len();
    for col in 0..n {
        let piv = (col..n).max_by(|&a, &b| m[a][col].abs().total_cmp(&m[b][col].abs()))?;
        if m[piv][col].abs() < 1e-12 {
            return None;
        }
        m.swap(col, piv);
        for r in 0..n {
            if r != col {
                let f = m[r][col] / m[col][col];
                if f != 0.0 {
                    let pivot = m[col].clone();
                    for (x, p) in m[r].iter_mut().zip(&pivot).skip(col) {
                        *x -= f * p;
                    }
                }
            }
        }
    }
    Some((0..n).map(|i| m[i][n] / m[i][i]).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A two-player symmetric game from its matrix: row's payoff against column.
    fn two(a: &[&[f64]]) -> SymmetricGame {
        SymmetricGame::from_fn(a.len(), 2, |s, o| {
            let j = o.iter().position(|&c| c == 1).unwrap();
            a[s][j]
        })
    }

    #[test]
    fn rock_paper_scissors_mixes_evenly() {
        let g = two(&[&[0.5, 0.0, 1.0], &[1.0, 0.5, 0.0], &[0.0, 1.0, 0.5]]);
        let exact = g.exact_two_player();
        assert_eq!(exact.len(), 1, "{exact:?}");
        for v in &exact[0].x {
            assert!((v - 1.0 / 3.0).abs() < 1e-9);
        }
        let found = g.equilibria(8, 1);
        assert!(found[0].max_regret < 1e-3, "{found:?}");
        for v in &found[0].x {
            assert!((v - 1.0 / 3.0).abs() < 0.02, "{found:?}");
        }
    }

    #[test]
    fn a_dominated_strategy_gets_no_weight() {
        // Rock-paper-scissors plus a strategy worse than rock against everything.
        let g = two(&[
            &[0.5, 0.0, 1.0, 0.6],
            &[1.0, 0.5, 0.0, 1.0],
            &[0.0, 1.0, 0.5, 1.0],
            &[0.4, 0.0, 0.9, 0.5],
        ]);
        for e in g.exact_two_player() {
            assert!(e.x[3] < 1e-9, "{e:?}");
        }
        let found = g.equilibria(8, 2);
        assert!(found[0].x[3] < 0.01, "{found:?}");
    }

    #[test]
    fn a_pure_equilibrium_is_found_pure() {
        // A prisoner's dilemma: defecting (1) is better whatever the other does.
        let g = two(&[&[0.6, 0.0], &[1.0, 0.2]]);
        let exact = g.exact_two_player();
        assert_eq!(exact.len(), 1);
        assert!((exact[0].x[1] - 1.0).abs() < 1e-9);
        let found = g.equilibria(4, 3);
        assert!(found[0].x[1] > 0.99, "{found:?}");
    }

    #[test]
    fn three_player_payoffs_weigh_the_others_multinomially() {
        // A player scores the share of the others playing its own strategy.
        let g = SymmetricGame::from_fn(2, 3, |s, o| o[s] as f64 / 2.0);
        assert_eq!(g.others.len(), 3);
        let f = g.payoffs(&[0.25, 0.75]);
        assert!(
            (f[0] - 0.25).abs() < 1e-12 && (f[1] - 0.75).abs() < 1e-12,
            "{f:?}"
        );
        // Coordination: both pure mixes are equilibria; the found ones have no regret.
        let found = g.equilibria(12, 4);
        assert!(
            found
                .iter()
                .all(|e| e.max_regret < 1e-3 || e.x.iter().all(|&v| (v - 0.5).abs() < 0.05))
        );
        assert!(found.iter().any(|e| e.x[0] > 0.99));
        assert!(found.iter().any(|e| e.x[1] > 0.99));
    }

    #[test]
    fn multisets_count_as_combinations_with_repetition() {
        assert_eq!(multisets(7, 2).len(), 28);
        assert_eq!(multisets(7, 3).len(), 84);
        assert!(
            multisets(3, 2)
                .iter()
                .all(|m| m.iter().map(|&c| c as usize).sum::<usize>() == 2)
        );
    }
}

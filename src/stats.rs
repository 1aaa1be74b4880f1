//! Estimates with intervals from exact integer sums: means, paired differences, and the inverse
//! of an increasing curve by the delta method. No game, no RNG, no IO.

/// The two-sided 95% normal quantile.
pub const Z95: f64 = 1.959_963_984_540_054;

/// Sums of one paired variable over n observations: its mean and the standard error of the mean
/// come from the first two sums. Integer sums make merging exact and order-free, so results do
/// not depend on how the work was split across threads.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Sums {
    pub n: u64,
    pub s1: i64,
    pub s2: i64,
}

impl Sums {
    #[inline]
    pub fn add(&mut self, x: i64) {
        self.n += 1;
        self.s1 += x;
        self.s2 += x * x;
    }

    pub fn merge(&mut self, o: &Sums) {
        self.n += o.n;
        self.s1 += o.s1;
        self.s2 += o.s2;
    }

    pub fn mean(&self) -> f64 {
        if self.n == 0 {
            return f64::NAN;
        }
        self.s1 as f64 / self.n as f64
    }

    /// The standard error of the mean (sample variance with n - 1).
    pub fn se(&self) -> f64 {
        if self.n < 2 {
            return f64::INFINITY;
        }
        covariance(self.n, self.s1, self.s1, self.s2)
            .max(0.0)
            .sqrt()
            / (self.n as f64).sqrt()
    }

    /// The mean and its 95% interval.
    pub fn interval(&self) -> (f64, f64, f64) {
        let (m, h) = (self.mean(), Z95 * self.se());
        (m, m - h, m + h)
    }
}

/// The sample covariance of two variables over n paired observations, from their sums and the
/// sum of their products.
pub fn covariance(n: u64, sx: i64, sy: i64, sxy: i64) -> f64 {
    if n < 2 {
        return f64::NAN;
    }
    let n = n as f64;
    (sxy as f64 - sx as f64 * sy as f64 / n) / (n - 1.0)
}

/// Pool-adjacent-violators: the non-decreasing sequence closest to `y` in least squares (equal
/// weights). Returns, for each point, the range of points its pooled value averages.
pub fn isotonic_blocks(y: &[f64]) -> Vec<std::ops::Range<usize>> {
    // Blocks as (start, end, sum).
    let mut blocks: Vec<(usize, usize, f64)> = Vec::with_capacity(y.len());
    for (i, &v) in y.iter().enumerate() {
        blocks.push((i, i + 1, v));
        while blocks.len() > 1 {
            let b = blocks[blocks.len() - 1];
            let a = blocks[blocks.len() - 2];
            let mean = |x: (usize, usize, f64)| x.2 / (x.1 - x.0) as f64;
            if mean(a) <= mean(b) {
                break;
            }
            blocks.pop();
            let last = blocks.len() - 1;
            blocks[last] = (a.0, b.1, a.2 + b.2);
        }
    }
    let mut out = vec![0..0; y.len()];
    for (s, e, _) in blocks {
        for o in &mut out[s..e] {
            *o = s..e;
        }
    }
    out
}

/// Where a value fell relative to the measured curve.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Censor {
    /// Inside the grid: the value and interval are estimates.
    No,
    /// Below the curve's lowest point: the value is the grid's lowest x, an upper bound.
    Below,
    /// Above the curve's highest point: the value is the grid's highest x, a lower bound.
    Above,
}

/// x such that curve(x) = target, with its standard error.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Inverse {
    pub x: f64,
    pub se: f64,
    pub censor: Censor,
}

impl Inverse {
    pub fn interval(&self) -> (f64, f64) {
        (self.x - Z95 * self.se, self.x + Z95 * self.se)
    }
    /// The 95% half-width (infinite when censored: the value is a bound, not an estimate).
    pub fn half_width(&self) -> f64 {
        if self.censor == Censor::No {
            Z95 * self.se
        } else {
            f64::INFINITY
        }
    }
}

/// Inverts an increasing curve measured at `grid` (sorted x) for a measured `target`.
///
/// Variables: index 0 is the target, index 1 + i the curve at `grid[i]`; `cov(a, b)` is the
/// covariance of the *estimates* a and b (already divided by the sample size). The curve is made
/// non-decreasing by pool-adjacent-violators, then interpolated linearly; the standard error is
/// the delta method's through the pooling and the interpolation.
pub fn invert_curve(
    grid: &[f64],
    curve: &[f64],
    target: f64,
    cov: impl Fn(usize, usize) -> f64,
) -> Inverse {
    assert_eq!(grid.len(), curve.len());
    assert!(grid.len() >= 2, "a curve needs two points");
    let blocks = isotonic_blocks(curve);
    let pooled: Vec<f64> = blocks
        .iter()
        .map(|b| curve[b.clone()].iter().sum::<f64>() / b.len() as f64)
        .collect();
    let last = grid.len() - 1;
    if target < pooled[0] {
        return Inverse {
            x: grid[0],
            se: f64::INFINITY,
            censor: Censor::Below,
        };
    }
    // The last point at or below the target; its successor is strictly above it.
    let i = pooled.iter().rposition(|&f| f <= target).unwrap_or(0);
    if i == last {
        return Inverse {
            x: grid[last],
            se: f64::INFINITY,
            censor: Censor::Above,
        };
    }
    let (fi, fj) = (pooled[i], pooled[i + 1]);
    let h = grid[i + 1] - grid[i];
    let t = (target - fi) / (fj - fi);
    let x = grid[i] + t * h;
    // d x / d target, d fi, d fj; then fi and fj spread over their blocks' raw points.
    let mut g = vec![0.0; grid.len() + 1];
    g[0] = h / (fj - fi);
    for (b, d) in [
        (&blocks[i], h * (t - 1.0) / (fj - fi)),
        (&blocks[i + 1], -h * t / (fj - fi)),
    ] {
        for k in b.clone() {
            g[1 + k] += d / b.len() as f64;
        }
    }
    let mut var = 0.0;
    for a in 0..g.len() {
        if g[a] == 0.0 {
            continue;
        }
        for b in 0..g.len() {
            if g[b] != 0.0 {
                var += g[a] * g[b] * cov(a, b);
            }
        }
    }
    Inverse {
        x,
        se: var.max(0.0).sqrt(),
        censor: Censor::No,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sums_give_mean_and_standard_error() {
        let mut s = Sums::default();
        for x in [1, -1, 0, 1, 1] {
            s.add(x);
        }
        assert_eq!(s.mean(), 0.4);
        // Sample variance: (4 - 5 * 0.16) / 4 = 0.8.
        assert!((s.se() - (0.8f64 / 5.0).sqrt()).abs() < 1e-12);
    }

    #[test]
    fn isotonic_pools_violators() {
        let b = isotonic_blocks(&[0.0, 2.0, 1.0, 3.0]);
        assert_eq!(b, vec![0..1, 1..3, 1..3, 3..4]);
        let b = isotonic_blocks(&[3.0, 2.0, 1.0]);
        assert_eq!(b, vec![0..3, 0..3, 0..3]);
    }

    #[test]
    fn inverse_interpolates_and_censors() {
        let grid = [-10.0, 0.0, 10.0, 20.0];
        let curve = [-0.1, 0.0, 0.1, 0.3];
        let zero = |_: usize, _: usize| 0.0;
        let v = invert_curve(&grid, &curve, 0.2, zero);
        assert!((v.x - 15.0).abs() < 1e-12);
        assert_eq!(v.censor, Censor::No);
        assert_eq!(invert_curve(&grid, &curve, 0.5, zero).censor, Censor::Above);
        assert_eq!(
            invert_curve(&grid, &curve, -0.5, zero).censor,
            Censor::Below
        );
        assert_eq!(invert_curve(&grid, &curve, 0.0, zero).x, 0.0);
    }

    #[test]
    fn inverse_standard_error_is_the_delta_methods() {
        // Only the target is uncertain: se(x) = se(target) / slope.
        let grid = [0.0, 10.0];
        let curve = [0.0, 0.2];
        let v = invert_curve(&grid, &curve, 0.1, |a, b| {
            if a == 0 && b == 0 { 1e-4 } else { 0.0 }
        });
        assert!((v.x - 5.0).abs() < 1e-12);
        assert!((v.se - 0.01 / 0.02).abs() < 1e-12);
    }
}

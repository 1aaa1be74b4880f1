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

    /// [`Sums::interval`] of a variable that lies in `[lo, hi]`, never of zero width (issue 63):
    /// where every observation was the same, another value's chance is at most
    /// [`none_seen_bound`], so the mean lies within that share of the way to either end.
    pub fn interval_in(&self, lo: i64, hi: i64) -> (f64, f64, f64) {
        let (m, a, b) = self.interval();
        if self.n == 0 || b > a {
            return (m, a, b);
        }
        let u = none_seen_bound(self.n);
        (m, m - u * (m - lo as f64), m + u * (hi as f64 - m))
    }
}

/// The 97.5% upper bound on the chance of an event seen in none of `n` trials (Clopper-Pearson:
/// 1 - 0.025^(1/n), about 3.7 / n), the end of a 95% interval that starts at 0.
pub fn none_seen_bound(n: u64) -> f64 {
    if n == 0 {
        return 1.0;
    }
    -(0.025f64.ln() / n as f64).exp_m1()
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
    let (x, g) = match curve_inverse(grid, curve, target) {
        Ok(v) => v,
        Err(censored) => return censored,
    };
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

/// [`invert_curve`] of an effect, the mean of paired differences `d` that lie in
/// `[-most, most]`, never of zero width (issue 63: an item or power that changed no battle read
/// `0 [0, 0]`): where every difference was 0, the effect lies within the chance of a change none
/// showed ([`none_seen_bound`]) either way, and the inverse within those effects' inverses.
pub fn invert_effect(
    grid: &[f64],
    curve: &[f64],
    d: &Sums,
    most: f64,
    cov: impl Fn(usize, usize) -> f64,
) -> Inverse {
    let at = invert_curve(grid, curve, d.mean(), &cov);
    if d.s2 != 0 || d.n == 0 || at.censor != Censor::No {
        return at;
    }
    let u = most * none_seen_bound(d.n);
    // An end beyond the curve stops at the grid's end (a ladder that starts at 0 measures no
    // worth below it).
    let end = |t: f64, i: usize| {
        let e = invert_curve(grid, curve, t, &cov);
        match e.censor {
            Censor::No => [e.interval().0, e.interval().1][i],
            _ => e.x,
        }
    };
    let (lo, hi) = (end(-u, 0), end(u, 1));
    Inverse {
        se: (hi - at.x).max(at.x - lo) / Z95,
        ..at
    }
}

/// [`invert_curve`]'s x and its gradient over the variables (index 0 the target, 1 + i the
/// curve at `grid[i]`): what the covariance of two inverses of one curve needs (a candidate
/// and a field member valued on the same rosters, issue 63). `Err`: the censored inverse.
pub fn curve_inverse(grid: &[f64], curve: &[f64], target: f64) -> Result<(f64, Vec<f64>), Inverse> {
    assert_eq!(grid.len(), curve.len());
    assert!(grid.len() >= 2, "a curve needs two points");
    let blocks = isotonic_blocks(curve);
    let pooled: Vec<f64> = blocks
        .iter()
        .map(|b| curve[b.clone()].iter().sum::<f64>() / b.len() as f64)
        .collect();
    let last = grid.len() - 1;
    if target < pooled[0] {
        return Err(Inverse {
            x: grid[0],
            se: f64::INFINITY,
            censor: Censor::Below,
        });
    }
    // The last point at or below the target; its successor is strictly above it.
    let i = pooled.iter().rposition(|&f| f <= target).unwrap_or(0);
    if i == last {
        return Err(Inverse {
            x: grid[last],
            se: f64::INFINITY,
            censor: Censor::Above,
        });
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
    Ok((x, g))
}

/// The two-sided p-value of a standard normal statistic `z`: P(|Z| >= |z|). From the
/// complementary error function (Numerical Recipes' Chebyshev fit, relative error under 1.2e-7:
/// ample for a test at 5%).
pub fn two_sided_p(z: f64) -> f64 {
    let x = z.abs() / std::f64::consts::SQRT_2;
    let t = 1.0 / (1.0 + 0.5 * x);
    let poly = -x * x - 1.265_512_23
        + t * (1.000_023_68
            + t * (0.374_091_96
                + t * (0.096_784_18
                    + t * (-0.186_288_06
                        + t * (0.278_868_07
                            + t * (-1.135_203_98
                                + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77))))))));
    (t * poly.exp()).clamp(0.0, 1.0)
}

/// The two-sided p-value of a Student t statistic with `df` degrees of freedom: P(|T| >= |t|),
/// the regularised incomplete beta I_{df/(df+t^2)}(df/2, 1/2); the normal's for infinite `df`.
/// Issue 80: a t-based variance read through the normal's tails gave 1.3-1.8% where Holm's
/// steps ask 1-1.25%.
pub fn t_two_sided_p(t: f64, df: f64) -> f64 {
    if !df.is_finite() || df > 1e7 {
        return two_sided_p(t);
    }
    if df <= 0.0 || t.is_nan() {
        return 1.0;
    }
    incomplete_beta(df / 2.0, 0.5, df / (df + t * t)).clamp(0.0, 1.0)
}

/// The `t` with P(|T| >= t) = `alpha` for Student's t with `df` degrees of freedom (infinite:
/// the normal's): [`t_two_sided_p`] inverted by bisection, for intervals at levels no table
/// holds (a pick among many, issue 80).
pub fn t_two_sided_quantile(alpha: f64, df: f64) -> f64 {
    let (mut lo, mut hi) = (0.0, 1.0);
    while t_two_sided_p(hi, df) > alpha && hi < 1e12 {
        hi *= 2.0;
    }
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if t_two_sided_p(mid, df) > alpha {
            lo = mid;
        } else {
            hi = mid;
        }
        if hi - lo <= 1e-12 * hi {
            break;
        }
    }
    0.5 * (lo + hi)
}

/// ln Gamma(x) for x > 0 (Lanczos, g = 7, nine terms: relative error about 1e-15).
fn ln_gamma(x: f64) -> f64 {
    const G: [f64; 9] = [
        0.999_999_999_999_809_9,
        676.520_368_121_885_1,
        -1_259.139_216_722_402_8,
        771.323_428_777_653_1,
        -176.615_029_162_140_6,
        12.507_343_278_686_905,
        -0.138_571_095_265_720_12,
        9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];
    if x < 0.5 {
        // Reflection.
        return (std::f64::consts::PI / (std::f64::consts::PI * x).sin()).ln() - ln_gamma(1.0 - x);
    }
    let x = x - 1.0;
    let mut a = G[0];
    let t = x + 7.5;
    for (i, g) in G.iter().enumerate().skip(1) {
        a += g / (x + i as f64);
    }
    0.5 * (2.0 * std::f64::consts::PI).ln() + (x + 0.5) * t.ln() - t + a.ln()
}

/// The regularised incomplete beta function I_x(a, b), by its continued fraction (Lentz).
fn incomplete_beta(a: f64, b: f64, x: f64) -> f64 {
    if x <= 0.0 {
        return 0.0;
    }
    if x >= 1.0 {
        return 1.0;
    }
    let front =
        (ln_gamma(a + b) - ln_gamma(a) - ln_gamma(b) + a * x.ln() + b * (1.0 - x).ln()).exp();
    // The fraction converges fast for x below (a + 1) / (a + b + 2); else by symmetry.
    if x > (a + 1.0) / (a + b + 2.0) {
        return 1.0 - incomplete_beta(b, a, 1.0 - x);
    }
    let tiny = 1e-300;
    let (mut c, mut d) = (1.0, 1.0 - (a + b) * x / (a + 1.0));
    if d.abs() < tiny {
        d = tiny;
    }
    d = 1.0 / d;
    let mut f = d;
    for m in 1..300 {
        let m = m as f64;
        for num in [
            m * (b - m) * x / ((a + 2.0 * m - 1.0) * (a + 2.0 * m)),
            -(a + m) * (a + b + m) * x / ((a + 2.0 * m) * (a + 2.0 * m + 1.0)),
        ] {
            d = 1.0 + num * d;
            if d.abs() < tiny {
                d = tiny;
            }
            c = 1.0 + num / c;
            if c.abs() < tiny {
                c = tiny;
            }
            d = 1.0 / d;
            f *= d * c;
        }
        if (d * c - 1.0).abs() < 1e-15 {
            break;
        }
    }
    front * f / a
}

/// The `z` whose two-sided p-value is `alpha` (the inverse of [`two_sided_p`], by bisection):
/// 1.96 at 5%; the wider quantile a family of `k` comparisons at `alpha` takes at `alpha / k`.
pub fn z_two_sided(alpha: f64) -> f64 {
    let (mut lo, mut hi) = (0.0f64, 40.0f64);
    for _ in 0..200 {
        let mid = (lo + hi) / 2.0;
        if two_sided_p(mid) > alpha {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    (lo + hi) / 2.0
}

/// Holm's step-down procedure: which of the hypotheses with p-values `p` are rejected with the
/// chance of rejecting any true one held to `alpha` (the family of comparisons, issue 63).
pub fn holm(p: &[f64], alpha: f64) -> Vec<bool> {
    let mut order: Vec<usize> = (0..p.len()).collect();
    order.sort_by(|&a, &b| p[a].total_cmp(&p[b]).then(a.cmp(&b)));
    let mut out = vec![false; p.len()];
    let m = p.len();
    for (i, &k) in order.iter().enumerate() {
        if p[k] <= alpha / (m - i) as f64 {
            out[k] = true;
        } else {
            break;
        }
    }
    out
}

/// Which way an estimate is better.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Better {
    Higher,
    Lower,
}

impl Better {
    pub fn words(self) -> &'static str {
        match self {
            Better::Higher => "higher is better",
            Better::Lower => "lower is better",
        }
    }
}

/// Where a candidate stands among a field (issue 63): its rank counted from the best with ties
/// shared, and how many members are told apart from it by a two-sided test of their difference
/// at 5% for the whole family (Holm).
#[derive(Clone, Debug, PartialEq)]
pub struct Verdict {
    /// 1 + the members strictly better.
    pub rank: usize,
    /// Members with exactly its value.
    pub tied: usize,
    /// The candidate and the field.
    pub of: usize,
    /// Members found better, and worse.
    pub better: usize,
    pub worse: usize,
    pub direction: Better,
}

impl Verdict {
    /// `rank 2 of 6 (tied with 1)`.
    pub fn rank_words(&self) -> String {
        let tie = match self.tied {
            0 => String::new(),
            n => format!(" (tied with {n})"),
        };
        format!("rank {} of {}{tie}", self.rank, self.of)
    }
}

/// The candidate `(value, standard error)` against each member of `field`. `cov[i]`, where
/// known, is the covariance of the candidate's estimate with member `i`'s (common random
/// numbers make it positive; `None`: taken as 0, which overstates the difference's variance, so
/// the test stays at or under its level).
pub fn compare(me: (f64, f64), field: &[(f64, f64, Option<f64>)], direction: Better) -> Verdict {
    let p = p_values(me, field, f64::INFINITY);
    let apart = holm(&p, 0.05);
    verdict_of(me, field, direction, &apart)
}

/// One comparison of a verdict card: the candidate `(value, standard error)`, the field as in
/// [`compare`], which way is better, and the degrees of freedom of the paired variances (their
/// parts less one; infinite where they are known).
pub type Card<'a> = ((f64, f64), &'a [(f64, f64, Option<f64>)], Better, f64);

/// [`compare`] for a whole verdict card at once (issue 80: each section was its own family, and
/// with a field of twins 28% of cards showed a false "clearly"): every difference of every
/// section is one family under Holm's procedure, each p-value from the t with its variance's
/// degrees of freedom.
pub fn compare_family(cards: &[Card]) -> Vec<Verdict> {
    compare_family_apart(cards)
        .into_iter()
        .map(|x| x.0)
        .collect()
}

/// [`compare_family`] with, for each card, which members (in its field's order) the family's
/// test told apart from the candidate: what `calibrate --twins` reads of the member a twin
/// plays as.
pub fn compare_family_apart(cards: &[Card]) -> Vec<(Verdict, Vec<bool>)> {
    let p: Vec<Vec<f64>> = cards
        .iter()
        .map(|&(me, field, _, df)| p_values(me, field, df))
        .collect();
    let apart = holm(&p.concat(), 0.05);
    let mut at = 0;
    cards
        .iter()
        .map(|&(me, field, direction, _)| {
            let mine = &apart[at..at + field.len()];
            let v = verdict_of(me, field, direction, mine);
            at += field.len();
            (v, mine.to_vec())
        })
        .collect()
}

/// Each member's two-sided p-value against the candidate, from the t with `df` degrees of
/// freedom where the variance of the difference was measured (`cov` known), else the normal's.
fn p_values(me: (f64, f64), field: &[(f64, f64, Option<f64>)], df: f64) -> Vec<f64> {
    field
        .iter()
        .map(|&(v, se, cov)| {
            let var = se * se + me.1 * me.1 - 2.0 * cov.unwrap_or(0.0);
            if v == me.0 {
                1.0
            } else if var.is_nan() || var <= 0.0 || !var.is_finite() {
                // No spread (values exact by construction) tells them apart; an unknown one
                // does not.
                if var == 0.0 { 0.0 } else { 1.0 }
            } else if cov.is_some() {
                t_two_sided_p((v - me.0) / var.sqrt(), df)
            } else {
                two_sided_p((v - me.0) / var.sqrt())
            }
        })
        .collect()
}

/// The rank and the members told apart (`apart`, in the field's order).
fn verdict_of(
    me: (f64, f64),
    field: &[(f64, f64, Option<f64>)],
    direction: Better,
    apart: &[bool],
) -> Verdict {
    let sign = match direction {
        Better::Higher => 1.0,
        Better::Lower => -1.0,
    };
    let mut v = Verdict {
        rank: 1,
        tied: 0,
        of: field.len() + 1,
        better: 0,
        worse: 0,
        direction,
    };
    for (i, &(x, _, _)) in field.iter().enumerate() {
        let d = sign * (x - me.0);
        v.rank += (d > 0.0) as usize;
        v.tied += (d == 0.0) as usize;
        if apart[i] {
            v.better += (d > 0.0) as usize;
            v.worse += (d < 0.0) as usize;
        }
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Student's t two-sided p-values at the table's 97.5% points, and the normal's in the limit.
    #[test]
    fn t_p_values_match_the_table() {
        for (t, df) in [
            (12.706, 1.0),
            (4.303, 2.0),
            (2.228, 10.0),
            (2.093, 19.0),
            (2.042, 30.0),
        ] {
            let p = t_two_sided_p(t, df);
            assert!((p - 0.05).abs() < 2e-4, "t = {t}, df = {df}: {p}");
        }
        assert!((t_two_sided_p(2.861, 19.0) - 0.01).abs() < 1e-4);
        assert!((t_two_sided_p(1.959_964, f64::INFINITY) - 0.05).abs() < 1e-6);
        assert!((t_two_sided_p(0.0, 5.0) - 1.0).abs() < 1e-12);
        // Heavier tails than the normal's at the same statistic.
        assert!(t_two_sided_p(2.6, 19.0) > two_sided_p(2.6));
        assert!((z_two_sided(0.05) - Z95).abs() < 1e-6);
    }

    /// Issue 80: one family over the whole card. Seven sections each with one difference at
    /// p = 0.02: alone each reads as "clearly" (0.02 <= 0.05); together Holm's first step asks
    /// 0.05 / 7 and none does.
    #[test]
    fn a_verdict_card_is_one_family() {
        // A difference of 2.33 standard errors: p = 0.02.
        let field = [(2.326, 0.0, None)];
        let me = (0.0, 1.0);
        assert_eq!(compare(me, &field, Better::Higher).better, 1);
        let cards: Vec<Card> = (0..7)
            .map(|_| (me, &field[..], Better::Higher, f64::INFINITY))
            .collect();
        let v = compare_family(&cards);
        assert_eq!(v.len(), 7);
        assert!(v.iter().all(|v| v.better == 0 && v.rank == 2), "{v:?}");
    }

    // Issue 63: a power or item that changed none of n battles read `0 [0, 0]`; its effect is
    // within the chance of a change none showed (about 3.7 / n) either way, and so its worth.
    #[test]
    fn an_effect_no_battle_showed_has_an_interval_of_the_chance_none_showed() {
        let u = none_seen_bound(10_000);
        assert!((u * 10_000.0 - 3.689).abs() < 0.01, "{u}");
        let mut d = Sums::default();
        for _ in 0..10_000 {
            d.add(0);
        }
        assert_eq!(d.interval(), (0.0, 0.0, 0.0));
        assert_eq!(d.interval_in(-1, 1), (0.0, -u, u));
        // Every one at the top of its range: the interval reaches down only.
        let mut top = Sums::default();
        (0..100).for_each(|_| top.add(2));
        let (m, lo, hi) = top.interval_in(-2, 2);
        assert_eq!((m, hi), (2.0, 2.0));
        assert!(lo < 2.0 && lo > 1.8, "{lo}");
        // Through a curve rising one point of effect per coin: worth within +-u coins.
        let (grid, curve) = ([-1.0, 0.0, 1.0], [-1.0, 0.0, 1.0]);
        let w = invert_effect(&grid, &curve, &d, 1.0, |_, _| 0.0);
        assert_eq!(w.x, 0.0);
        let (lo, hi) = w.interval();
        assert!(
            (hi - u).abs() < 1e-12 && (lo + u).abs() < 1e-12,
            "{lo} {hi}"
        );
        // A moved effect keeps the delta method's interval.
        d.add(1);
        let plain = invert_curve(&grid, &curve, d.mean(), |_, _| 0.0);
        assert_eq!(invert_effect(&grid, &curve, &d, 1.0, |_, _| 0.0), plain);
    }

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

    #[test]
    fn two_sided_p_values_match_the_normal_table() {
        assert!((two_sided_p(1.959_963_984_540_054) - 0.05).abs() < 1e-6);
        assert!((two_sided_p(0.0) - 1.0).abs() < 1e-6);
        assert!((two_sided_p(-2.575_829) - 0.01).abs() < 1e-6);
        assert!(two_sided_p(10.0) < 1e-20);
    }

    #[test]
    fn t_quantile_inverts_the_two_sided_p_value() {
        // The tables' 0.975 quantiles: 19 and 4 degrees of freedom, and the normal's.
        assert!((t_two_sided_quantile(0.05, 19.0) - 2.093).abs() < 1e-3);
        assert!((t_two_sided_quantile(0.05, 4.0) - 2.776).abs() < 1e-3);
        assert!((t_two_sided_quantile(0.05, f64::INFINITY) - Z95).abs() < 1e-6);
        // Bonferroni over 16 at 19: the 0.05 / 16 level, far wider.
        let q = t_two_sided_quantile(0.05 / 16.0, 19.0);
        assert!((t_two_sided_p(q, 19.0) - 0.05 / 16.0).abs() < 1e-9);
        assert!(q > 3.3 && q < 3.5, "{q}");
    }

    #[test]
    fn holm_rejects_step_down_and_stops_at_the_first_kept() {
        // m = 4: thresholds 0.0125, 0.0167, 0.025, 0.05.
        assert_eq!(
            holm(&[0.01, 0.04, 0.02, 0.015], 0.05),
            [true, true, true, true]
        );
        assert_eq!(
            holm(&[0.01, 0.04, 0.03, 0.015], 0.05),
            [true, false, false, true]
        );
        assert_eq!(
            holm(&[0.01, 0.04, 0.03, 0.02], 0.05),
            [true, false, false, false]
        );
        assert_eq!(holm(&[0.2, 0.3], 0.05), [false, false]);
    }

    #[test]
    fn a_candidate_is_ranked_with_ties_and_its_direction() {
        let field = [
            (3.0, 0.1, None),
            (1.0, 0.1, None),
            (2.0, 0.1, None),
            (2.0, 0.1, None),
        ];
        let v = compare((2.0, 0.1), &field, Better::Higher);
        assert_eq!((v.rank, v.tied, v.of, v.better, v.worse), (2, 2, 5, 1, 1));
        assert_eq!(v.rank_words(), "rank 2 of 5 (tied with 2)");
        // Points lost: lower is better, so the candidate with the least is first.
        let v = compare(
            (1.0, 0.1),
            &[(2.0, 0.1, None), (3.0, 0.1, None)],
            Better::Lower,
        );
        assert_eq!((v.rank, v.better, v.worse), (1, 0, 2));
        // A positive covariance (common random numbers) tells a small gap apart.
        let near = [(2.25, 0.1, None)];
        assert_eq!(compare((2.0, 0.1), &near, Better::Higher).better, 0);
        let paired = [(2.25, 0.1, Some(0.009))];
        assert_eq!(compare((2.0, 0.1), &paired, Better::Higher).better, 1);
    }
}

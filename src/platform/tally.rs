//! Win counts a simulation keeps per chunk, summed across chunks and reported with 95% Wilson
//! intervals. Counts are integers, so the sum (and the summary) is the same in any order.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// The start of the name of every mean group that holds win points (a win 2, a draw 1): reports
/// show such a group as a share (half its mean), as the summaries do.
pub const WIN_POINTS: &str = "win share";

/// The start of the name of every count group that is a share of something other than wins
/// (the melees a clan was disqualified from): reports title it by its own name.
pub const SHARE_OF: &str = "share of";

/// Wins out of trials for one label of one group (heroes holding Amoeba, 4-hero battles...).
///
/// The match is the unit of independence (issue 63): when one match adds several trials (every
/// player of a team wins or loses together; exactly one of four heroes wins), the rows are not
/// independent, and the interval comes from the spread between matches ([`ByMatch`]). A count
/// whose every match adds one trial keeps the plain Wilson interval.
#[derive(Clone, Copy, Debug, Default, Serialize, Deserialize)]
pub struct Count {
    pub wins: u64,
    pub trials: u64,
    /// Sums over matches, once some match added more than one trial; absent: one per match.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub by_match: Option<ByMatch>,
    /// The match now adding (its tally's match count when [`Tally::count`] handed it out) and
    /// what it added so far. Scratch: never saved or compared.
    #[serde(skip)]
    open: Open,
}

/// The match whose rows a count or mean is adding now.
#[derive(Clone, Copy, Debug, Default)]
struct Open {
    /// Set by [`Tally::count`] / [`Tally::mean`]: rows are grouped by `epoch`; unset, every row
    /// is a match of its own.
    grouped: bool,
    epoch: u64,
    /// Rows and their sum so far in this match.
    n: u64,
    sum: i64,
}

impl Open {
    fn enter(&mut self, epoch: u64) {
        if !self.grouped || self.epoch != epoch {
            *self = Open {
                grouped: true,
                epoch,
                n: 0,
                sum: 0,
            };
        }
    }
}

/// Integer sums over matches for a ratio estimator (wins per trial, or a mean per row) whose
/// variance is estimated by match (the delta method): per match `i`, `y_i` is what its rows add
/// up to and `n_i` how many rows it added. Integers keep merging exact in any order.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ByMatch {
    /// Matches that added at least one row.
    pub matches: u64,
    /// Sum of `y_i^2`, of `y_i n_i` and of `n_i^2`.
    #[serde(with = "wide")]
    pub yy: i128,
    #[serde(with = "wide")]
    pub yn: i128,
    #[serde(with = "wide")]
    pub nn: i128,
}

/// A 128-bit sum in JSON: a number while it fits 64 bits, else its digits as a string (a JSON
/// tree holds no wider number, and saving a long run's sums must not fail).
mod wide {
    use serde::{Deserialize, Deserializer, Serializer, de::Error};

    pub fn serialize<S: Serializer>(x: &i128, s: S) -> Result<S::Ok, S::Error> {
        match i64::try_from(*x) {
            Ok(v) => s.serialize_i64(v),
            Err(_) => s.serialize_str(&x.to_string()),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<i128, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Wide {
            Signed(i64),
            Unsigned(u64),
            Digits(String),
        }
        match Wide::deserialize(d)? {
            Wide::Signed(v) => Ok(v as i128),
            Wide::Unsigned(v) => Ok(v as i128),
            Wide::Digits(t) => t.parse().map_err(D::Error::custom),
        }
    }
}

impl ByMatch {
    /// The sums when every match added one row of value `x` (`sum` and `sum_sq` of the values).
    fn plain(n: u64, sum: i64, sum_sq: i128) -> ByMatch {
        ByMatch {
            matches: n,
            yy: sum_sq,
            yn: sum as i128,
            nn: n as i128,
        }
    }

    fn merge(&mut self, o: &ByMatch) {
        self.matches += o.matches;
        self.yy += o.yy;
        self.yn += o.yn;
        self.nn += o.nn;
    }

    /// The spread of the ratio `total / rows` over matches: the sum of `(y_i - r n_i)^2`;
    /// `None` with fewer than two matches (no spread to measure).
    pub fn spread(&self, total: f64, rows: f64) -> Option<f64> {
        if self.matches < 2 || rows <= 0.0 {
            return None;
        }
        let r = total / rows;
        let spread = self.yy as f64 - 2.0 * r * self.yn as f64 + r * r * self.nn as f64;
        Some(spread.max(0.0))
    }

    /// The variance of the ratio `total / rows` by the delta method over matches.
    pub fn ratio_variance(&self, total: f64, rows: f64) -> Option<f64> {
        let m = self.matches as f64;
        self.spread(total, rows)
            .map(|s| m / (m - 1.0) * s / (rows * rows))
    }
}

/// Adds `rows` rows summing to `x` to the match now adding (`open`; not grouped: a match of
/// their own), keeping `by_match` absent while every match has one row.
fn grow(by_match: &mut Option<ByMatch>, plain: ByMatch, open: &mut Open, x: i64, rows: u64) {
    if rows == 0 {
        return;
    }
    let (y, n) = if open.grouped {
        (open.sum, open.n)
    } else {
        (0, 0)
    };
    if by_match.is_none() && n + rows > 1 {
        *by_match = Some(plain);
    }
    if let Some(b) = by_match {
        let (y, n, x, r) = (y as i128, n as i128, x as i128, rows as i128);
        // What the open match's terms become: (y + x)^2, (y + x)(n + r), (n + r)^2.
        b.yy += 2 * y * x + x * x;
        b.yn += y * r + x * n + x * r;
        b.nn += 2 * n * r + r * r;
        b.matches += (n == 0) as u64;
    }
    if open.grouped {
        open.n += rows;
        open.sum += x;
    }
}

/// The 95% interval of a share `p` (a rate, or win points over the most they could be) over
/// `rows` rows from `matches` matches, `spread` the sum over matches of (share points in the
/// match - p x its rows)^2 (`None`: fewer than two matches). Wilson's interval at the effective
/// number of rows that spread gives, so it stays inside [0, 1]; at 0 or 1, where there is no
/// spread to measure, the interval of one row per match, which holds however the rows of a
/// match go together. Never zero-width.
pub fn share_interval(p: f64, rows: f64, matches: u64, spread: Option<f64>) -> (f64, f64) {
    const Z: f64 = crate::stats::Z95;
    if p <= 0.0 || p >= 1.0 {
        let m = matches.max(1);
        return wilson(if p <= 0.0 { 0 } else { m }, m, Z);
    }
    let Some(spread) = spread else {
        return (0.0, 1.0);
    };
    // Wilson's interval at the effective number of rows: the rows over the design effect, the
    // spread between matches against what independent rows would show. Both get z^2 pseudo-rows,
    // half won and half lost (Agresti and Coull's): independent rows then keep Wilson's own
    // interval, and a share whose spread comes from rare events (a draw among battles that
    // otherwise have exactly one winner) is never zero-width in a small run. The pseudo-rows'
    // weight fades as matches accumulate.
    let m = matches as f64;
    let pseudo = 0.5 * Z * Z * ((1.0 - p).powi(2) + p * p);
    let deff = m / (m - 1.0) * (spread + pseudo) / (rows * p * (1.0 - p) + pseudo);
    wilson_f(p, rows / deff, Z)
}

/// Both sides' sums by match, the plain ones made explicit where only one side has them.
fn merged_by_match(
    a: Option<ByMatch>,
    a_plain: ByMatch,
    b: Option<ByMatch>,
    b_plain: ByMatch,
) -> Option<ByMatch> {
    if a.is_none() && b.is_none() {
        return None;
    }
    let mut out = a.unwrap_or(a_plain);
    out.merge(&b.unwrap_or(b_plain));
    Some(out)
}

impl PartialEq for Count {
    fn eq(&self, o: &Count) -> bool {
        (self.wins, self.trials) == (o.wins, o.trials) && self.by_match() == o.by_match()
    }
}
impl Eq for Count {}

impl Count {
    /// A count of `wins` out of `trials`, one trial per match.
    pub fn new(wins: u64, trials: u64) -> Count {
        Count {
            wins,
            trials,
            ..Count::default()
        }
    }

    pub fn add(&mut self, won: bool) {
        self.add_rows(won as u64, 1);
    }

    /// `trials` more rows of the match now adding, `wins` of them won (a player's battles).
    pub fn add_rows(&mut self, wins: u64, trials: u64) {
        let plain = ByMatch::plain(self.trials, self.wins as i64, self.wins as i128);
        grow(
            &mut self.by_match,
            plain,
            &mut self.open,
            wins as i64,
            trials,
        );
        self.wins += wins;
        self.trials += trials;
    }

    /// One match's rows at once, `wins` of `trials` (a kernel that counts in arrays, outside a
    /// tally): each call is a match of its own.
    pub fn add_match(&mut self, wins: u64, trials: u64) {
        self.open = Open::default();
        self.add_rows(wins, trials);
    }

    /// The sums by match, explicit also when every match added one trial.
    pub fn by_match(&self) -> ByMatch {
        self.by_match
            .unwrap_or_else(|| ByMatch::plain(self.trials, self.wins as i64, self.wins as i128))
    }

    pub fn merge(&mut self, o: &Count) {
        self.by_match = merged_by_match(self.by_match, self.by_match(), o.by_match, o.by_match());
        self.wins += o.wins;
        self.trials += o.trials;
    }

    pub fn rate(&self) -> f64 {
        if self.trials == 0 {
            f64::NAN
        } else {
            self.wins as f64 / self.trials as f64
        }
    }

    /// The 95% interval for the win rate: Wilson's when every match added one trial; else
    /// Wilson's at the effective number of trials the spread between matches gives (the design
    /// effect), so that it stays inside [0, 1] and behaves at rates near 0 or 1.
    pub fn wilson95(&self) -> (f64, f64) {
        const Z: f64 = crate::stats::Z95;
        let Some(b) = self.by_match else {
            return wilson(self.wins, self.trials, Z);
        };
        let (w, t) = (self.wins as f64, self.trials as f64);
        share_interval(w / t, t, b.matches, b.spread(w, t))
    }

    /// The win rate and its 95% interval (a grid's cell).
    pub fn estimate(&self) -> (f64, f64, f64) {
        let (lo, hi) = self.wilson95();
        (self.rate(), lo, hi)
    }

    /// `51.2% [49.8, 52.6]`: the win rate with its 95% interval, for summary tables.
    pub fn share95(&self) -> String {
        let (lo, hi) = self.wilson95();
        share_cell(self.rate(), lo, hi)
    }
}

/// `51.2% [49.8, 52.6]`: a share (a fraction) with its interval, in percent, for summary tables.
pub fn share_cell(share: f64, lo: f64, hi: f64) -> String {
    format!(
        "{:5.1}% [{:4.1}, {:4.1}]",
        100.0 * share,
        100.0 * lo,
        100.0 * hi
    )
}

/// The Wilson score interval for `wins` out of `trials` at normal quantile `z`. Unlike the plain
/// normal interval it stays inside [0, 1] and behaves at rates near 0 or 1 (powers that almost
/// always or never win).
pub fn wilson(wins: u64, trials: u64, z: f64) -> (f64, f64) {
    if trials == 0 {
        return (0.0, 1.0);
    }
    wilson_f(wins as f64 / trials as f64, trials as f64, z)
}

/// [`wilson`] for a rate `p` over `n` effective trials (not necessarily whole).
pub fn wilson_f(p: f64, n: f64, z: f64) -> (f64, f64) {
    if n.is_nan() || n <= 0.0 {
        return (0.0, 1.0);
    }
    let z2 = z * z;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = z / (1.0 + z2 / n) * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    // Clamped to hold the rate itself: at 0 or 1 wins in n, rounding may land a hair inside it.
    ((centre - half).clamp(0.0, p), (centre + half).clamp(p, 1.0))
}

/// Named groups of labelled counts: `group -> label -> count`. Ordered maps keep the summary and
/// the manifest stable.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tally {
    /// Matches played, and matches that ended without a winner.
    pub matches: u64,
    pub draws: u64,
    /// Work done (hits for Auto Rumble), for throughput reports.
    pub work: u64,
    /// The operations that did it, where a kernel plays many alike at once (Auto Rumble's
    /// classes: one class hitting one class); 0 where it does not count them. Never saved.
    #[serde(skip)]
    pub ops: u64,
    pub groups: BTreeMap<String, BTreeMap<String, Count>>,
    /// Integer sums to average per group and label (coins left per strategy...).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub means: BTreeMap<String, BTreeMap<String, Mean>>,
}

/// A sum of integers and how many: its mean is exact to report and order-free to merge. Like
/// [`Count`], its interval is by match once some match added more than one value.
#[derive(Clone, Copy, Debug, Default, Serialize, Deserialize)]
pub struct Mean {
    pub n: u64,
    pub sum: i64,
    /// Sum of squares, for the interval; integers keep merging exact in any order.
    #[serde(default)]
    pub sum_sq: i64,
    /// Sums over matches, once some match added more than one value; absent: one per match.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub by_match: Option<ByMatch>,
    #[serde(skip)]
    open: Open,
}

impl PartialEq for Mean {
    fn eq(&self, o: &Mean) -> bool {
        (self.n, self.sum, self.sum_sq) == (o.n, o.sum, o.sum_sq) && self.by_match() == o.by_match()
    }
}
impl Eq for Mean {}

impl Mean {
    /// `n` values summing to `sum`, squares to `sum_sq`, one value per match.
    pub fn new(n: u64, sum: i64, sum_sq: i64) -> Mean {
        Mean {
            n,
            sum,
            sum_sq,
            ..Mean::default()
        }
    }

    pub fn add(&mut self, x: i64) {
        let plain = ByMatch::plain(self.n, self.sum, self.sum_sq as i128);
        grow(&mut self.by_match, plain, &mut self.open, x, 1);
        self.n += 1;
        self.sum += x;
        self.sum_sq += x * x;
    }

    /// `rows` more values of the match now adding, summing to `sum`, each not kept (a
    /// champion's damage over its attacks): the interval is by match, so the values' own
    /// squares are not needed.
    pub fn add_rows(&mut self, sum: i64, rows: u64) {
        if rows == 1 {
            return self.add(sum);
        }
        let plain = ByMatch::plain(self.n, self.sum, self.sum_sq as i128);
        grow(&mut self.by_match, plain, &mut self.open, sum, rows);
        self.n += rows;
        self.sum += sum;
    }
    pub fn mean(&self) -> f64 {
        self.sum as f64 / self.n.max(1) as f64
    }

    /// The sums by match, explicit also when every match added one value.
    pub fn by_match(&self) -> ByMatch {
        self.by_match
            .unwrap_or_else(|| ByMatch::plain(self.n, self.sum, self.sum_sq as i128))
    }

    pub fn merge(&mut self, o: &Mean) {
        self.by_match = merged_by_match(self.by_match, self.by_match(), o.by_match, o.by_match());
        self.n += o.n;
        self.sum += o.sum;
        self.sum_sq += o.sum_sq;
    }

    /// 95% normal interval of the mean: its variance by match (the delta method for a ratio),
    /// which is the sample variance over `n` when every match added one value. A single match
    /// has no width.
    pub fn ci95(&self) -> (f64, f64) {
        let m = self.mean();
        match self.se() {
            None => (m, m),
            Some(se) => {
                let half = crate::stats::Z95 * se;
                (m - half, m + half)
            }
        }
    }

    /// The mean's standard error over matches (the match is the unit of independence), what
    /// [`Self::ci95`] is z of either side; `None` where the spread cannot be measured.
    pub fn se(&self) -> Option<f64> {
        const Z: f64 = crate::stats::Z95;
        let b = self.by_match();
        let rows = self.n as f64;
        let spread = b.spread(self.sum as f64, rows)?;
        // Integers differ by 1 at least: z^2 / 2 pseudo-rows one unit off, as Agresti and
        // Coull add to a share (issue 63: a mean that rare events move, "powers won" at 6 but
        // now and then 5, covered 84% with no row off in some small runs). Their weight fades
        // as rows accumulate.
        let k = b.matches as f64;
        let v = k / (k - 1.0) * (spread + 0.5 * Z * Z) / (rows * rows);
        Some(v.sqrt())
    }

    /// The mean and its 95% normal interval (a grid's cell).
    pub fn estimate(&self) -> (f64, f64, f64) {
        let (lo, hi) = self.ci95();
        (self.mean(), lo, hi)
    }

    /// A mean of win points (win 2, draw 1) as a share and its 95% interval (a grid's cell).
    pub fn points_estimate(&self) -> (f64, f64, f64) {
        let (lo, hi) = self.points_ci95();
        (0.5 * self.mean(), lo, hi)
    }

    /// The 95% interval of a mean of win points (win 2, draw 1, loss 0) as a share: a share's
    /// interval ([`share_interval`]), inside [0, 1] and never zero-width at 0% or 100% (issue
    /// 63: 0 wins of 2,000 read `0.00% [0.00%, 0.00%]`).
    pub fn points_ci95(&self) -> (f64, f64) {
        self.share_ci95(2.0)
    }

    /// The 95% interval of the mean over `most` (each value in `0..=most`) as a share.
    pub fn share_ci95(&self, most: f64) -> (f64, f64) {
        if self.n == 0 || most <= 0.0 {
            return (0.0, 1.0);
        }
        let b = self.by_match();
        let (sum, n) = (self.sum as f64, self.n as f64);
        let spread = b.spread(sum, n).map(|v| v / (most * most));
        share_interval(sum / n / most, n, b.matches, spread)
    }

    /// `3.25 [3.10, 3.40]`: the mean with its 95% interval, for summary tables.
    pub fn mean95(&self) -> String {
        let (lo, hi) = self.ci95();
        format!("{:5.2} [{:5.2}, {:5.2}]", self.mean(), lo, hi)
    }

    /// A mean of win points (win 2, draw 1) as a share with its 95% interval (`share_cell`);
    /// name its group `win share ...` ([`WIN_POINTS`]) so reports show it as a share too.
    pub fn points_share95(&self) -> String {
        let (lo, hi) = self.points_ci95();
        share_cell(0.5 * self.mean(), lo, hi)
    }
}

impl Tally {
    pub fn count(&mut self, group: &str, label: &str) -> &mut Count {
        // Look up before inserting so the steady state allocates no strings.
        if !self.groups.contains_key(group) {
            self.groups.insert(group.to_string(), BTreeMap::new());
        }
        let g = self.groups.get_mut(group).expect("inserted above");
        if !g.contains_key(label) {
            g.insert(label.to_string(), Count::default());
        }
        let c = g.get_mut(label).expect("inserted above");
        // The rows one match adds are one trial of the interval (issue 63): every simulation
        // counts its match before or after all of the match's rows, so the count tells them apart.
        c.open.enter(self.matches);
        c
    }

    pub fn mean(&mut self, group: &str, label: &str) -> &mut Mean {
        if !self.means.contains_key(group) {
            self.means.insert(group.to_string(), BTreeMap::new());
        }
        let g = self.means.get_mut(group).expect("inserted above");
        if !g.contains_key(label) {
            g.insert(label.to_string(), Mean::default());
        }
        let m = g.get_mut(label).expect("inserted above");
        m.open.enter(self.matches);
        m
    }

    pub fn merge(&mut self, other: &Tally) {
        for (g, labels) in &other.means {
            for (l, m) in labels {
                self.mean(g, l).merge(m);
            }
        }
        self.matches += other.matches;
        self.draws += other.draws;
        self.work += other.work;
        self.ops += other.ops;
        for (g, labels) in &other.groups {
            for (l, c) in labels {
                self.count(g, l).merge(c);
            }
        }
    }
}

/// 1234567 -> "1,234,567".
pub fn thousands(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::with_capacity(s.len() + s.len() / 3);
    for (i, ch) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_matches_published_values() {
        // 81 of 263 at 95%: (0.2553, 0.3662), worked by hand from the closed form.
        let (lo, hi) = wilson(81, 263, crate::stats::Z95);
        assert!((lo - 0.2553).abs() < 5e-4, "{lo}");
        assert!((hi - 0.3662).abs() < 5e-4, "{hi}");
    }

    #[test]
    fn wilson_stays_inside_the_unit_interval_at_the_edges() {
        // 0 of n: the upper end has the closed form z^2 / (n + z^2).
        let (lo, hi) = wilson(0, 10, 1.96);
        assert_eq!(lo, 0.0);
        assert!((hi - 1.96f64.powi(2) / (10.0 + 1.96f64.powi(2))).abs() < 1e-12);
        let (lo, hi) = wilson(10, 10, 1.96);
        assert!(lo > 0.65 && lo < 1.0);
        assert_eq!(hi, 1.0);
    }

    #[test]
    fn merged_tallies_are_order_independent() {
        let mut a = Tally::default();
        a.count("power", "Amoeba").add(true);
        a.matches = 1;
        let mut b = Tally::default();
        b.count("power", "Amoeba").add(false);
        b.count("heroes", "3").add(true);
        b.matches = 2;
        let mut ab = a.clone();
        ab.merge(&b);
        let mut ba = b.clone();
        ba.merge(&a);
        assert_eq!(ab, ba);
        assert_eq!(ab.groups["power"]["Amoeba"], Count::new(1, 2));
        assert_eq!(ab.matches, 3);
    }

    /// 100 matches of four rows that all win or all lose together (an element's players).
    fn teams(tally: &mut Tally) {
        for m in 0..100 {
            tally.matches += 1;
            for _ in 0..4 {
                tally.count("team", "of 4").add(m % 2 == 0);
                tally
                    .mean("score", "of 4")
                    .add(if m % 2 == 0 { 3 } else { 1 });
            }
        }
    }

    #[test]
    fn rows_of_one_match_are_one_trial_of_the_interval() {
        let mut t = Tally::default();
        teams(&mut t);
        let c = t.groups["team"]["of 4"];
        assert_eq!((c.wins, c.trials), (200, 400));
        assert_eq!(c.by_match().matches, 100);
        let (lo, hi) = c.wilson95();
        // As wide as 50 of 100 (one trial per match, plus the pseudo-rows), not 200 of 400.
        let (wlo, whi) = wilson(50, 100, crate::stats::Z95);
        let (rlo, rhi) = wilson(200, 400, crate::stats::Z95);
        assert!((hi - lo) > 0.95 * (whi - wlo), "{lo} {hi} vs {wlo} {whi}");
        assert!((hi - lo) > 1.8 * (rhi - rlo));
        // The mean's interval too: values 3 or 1 by match, sd 1 over 100 matches.
        // Plus z^2 / 2 pseudo-rows one unit off (issue 63), over the 400 rows.
        let mean = t.means["score"]["of 4"];
        let (mlo, mhi) = mean.ci95();
        let z = crate::stats::Z95;
        let rows = mean.n as f64;
        let spread = rows * rows / 100.0 + 0.5 * z * z;
        let half = z * (100.0 / 99.0 * spread).sqrt() / rows;
        assert!(((mhi - mlo) / 2.0 - half).abs() < 1e-9, "{mlo} {mhi}");
    }

    // Issue 63: "powers won" is 6 but now and then 5; a small run with none off had an interval
    // of no width, and covered 84%. Integers differ by 1 at least.
    #[test]
    fn a_mean_with_no_spread_yet_still_has_an_interval() {
        let mut t = Tally::default();
        for _ in 0..200 {
            t.matches += 1;
            t.mean("powers won", "value").add(6);
        }
        let (lo, hi) = t.means["powers won"]["value"].ci95();
        assert!(lo < 6.0 && hi > 6.0, "{lo} {hi}");
        // About 2.7 / n either way: a row in 100 off by one is outside it at 200 rows.
        assert!(6.0 - lo > 0.01 && 6.0 - lo < 0.02, "{lo}");
    }

    #[test]
    fn one_row_per_match_keeps_the_plain_intervals() {
        let mut t = Tally::default();
        for m in 0..50u64 {
            t.matches += 1;
            t.count("g", "l").add(m % 3 == 0);
            t.mean("g", "l").add(m as i64);
        }
        let c = t.groups["g"]["l"];
        assert_eq!(c.by_match, None);
        assert_eq!(c.wilson95(), wilson(17, 50, crate::stats::Z95));
        let m = t.means["g"]["l"];
        assert_eq!(m.by_match, None);
        // The sample variance, with z^2 / 2 pseudo-rows one unit off (issue 63).
        let z = crate::stats::Z95;
        let ss = (0..50).map(|x| (x as f64 - 24.5).powi(2)).sum::<f64>() + 0.5 * z * z;
        let half = z * (ss / 49.0 / 50.0).sqrt();
        let (lo, hi) = m.ci95();
        assert!((hi - lo - 2.0 * half).abs() < 1e-9);
    }

    #[test]
    fn exactly_one_winner_among_four_is_narrower_than_its_rows() {
        // Auto Rumble's heroes in the battle: one of four wins, save a draw in 1 of 25.
        let mut c = Count::default();
        for m in 0..1000 {
            c.add_match((m % 25 != 0) as u64, 4);
        }
        let (lo, hi) = c.wilson95();
        let (rlo, rhi) = wilson(c.wins, c.trials, crate::stats::Z95);
        assert!(lo < c.rate() && c.rate() < hi);
        assert!((hi - lo) < 0.5 * (rhi - rlo), "{lo} {hi} vs {rlo} {rhi}");
    }

    #[test]
    fn sums_by_match_merge_in_any_order_as_one_run() {
        let mut whole = Tally::default();
        teams(&mut whole);
        let (mut a, mut b) = (Tally::default(), Tally::default());
        teams(&mut a);
        teams(&mut b);
        let mut ab = a.clone();
        ab.merge(&b);
        let mut ba = b.clone();
        ba.merge(&a);
        assert_eq!(ab, ba);
        let mut twice = whole.clone();
        twice.merge(&whole);
        assert_eq!(
            ab.groups["team"]["of 4"].by_match(),
            twice.groups["team"]["of 4"].by_match()
        );
        assert_eq!(ab.groups["team"]["of 4"].by_match().matches, 200);
        // Saved and read back (a manifest's tally) they are the same sums.
        let back: Tally = serde_json::from_str(&serde_json::to_string(&ab).unwrap()).unwrap();
        assert_eq!(back, ab);
        // Sums past 64 bits (a very long run) are saved as digits and read back whole.
        let mut huge = ab.clone();
        huge.groups
            .get_mut("team")
            .unwrap()
            .get_mut("of 4")
            .unwrap()
            .by_match = Some(ByMatch {
            matches: 2,
            yy: 1 << 100,
            yn: -(1 << 70),
            nn: 5,
        });
        let v = serde_json::to_value(&huge).unwrap();
        assert_eq!(serde_json::from_value::<Tally>(v).unwrap(), huge);
        // A tally saved before sums by match were kept reads as one row per match.
        let old: Count = serde_json::from_str(r#"{"wins":3,"trials":9}"#).unwrap();
        assert_eq!(old, Count::new(3, 9));
    }

    #[test]
    fn a_share_at_zero_or_one_is_never_zero_width() {
        let mut none = Mean::default();
        let mut all = Mean::default();
        for _ in 0..2000 {
            none.add(0);
            all.add(2);
        }
        let (lo, hi) = none.points_ci95();
        assert_eq!(lo, 0.0);
        assert!(hi > 0.0 && hi < 0.01, "{hi}");
        let (lo, hi) = all.points_ci95();
        assert!(lo > 0.99 && lo < 1.0 && hi == 1.0, "{lo}");
        let mut c = Count::default();
        for _ in 0..50 {
            c.add_match(0, 4);
        }
        assert!(c.wilson95().1 > 0.0);
    }

    #[test]
    fn thousands_separators() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(5_000_000), "5,000,000");
    }
}

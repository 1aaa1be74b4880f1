//! Win counts a simulation keeps per chunk, summed across chunks and reported with 95% Wilson
//! intervals. Counts are integers, so the sum (and the summary) is the same in any order.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// The start of the name of every mean group that holds win points (a win 2, a draw 1): reports
/// show such a group as a share (half its mean), as the summaries do.
pub const WIN_POINTS: &str = "win share";

/// Wins out of trials for one label of one group (heroes holding Amoeba, 4-hero battles...).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Count {
    pub wins: u64,
    pub trials: u64,
}

impl Count {
    pub fn add(&mut self, won: bool) {
        self.wins += won as u64;
        self.trials += 1;
    }

    pub fn rate(&self) -> f64 {
        if self.trials == 0 {
            f64::NAN
        } else {
            self.wins as f64 / self.trials as f64
        }
    }

    /// The 95% Wilson score interval for the win rate.
    pub fn wilson95(&self) -> (f64, f64) {
        wilson(self.wins, self.trials, 1.959_963_984_540_054)
    }

    /// The win rate and its 95% Wilson interval (a grid's cell).
    pub fn estimate(&self) -> (f64, f64, f64) {
        let (lo, hi) = self.wilson95();
        (self.rate(), lo, hi)
    }

    /// `51.2% [49.8, 52.6]`: the win rate with its 95% Wilson interval, for summary tables.
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
    let n = trials as f64;
    let p = wins as f64 / n;
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

/// A sum of integers and how many: its mean is exact to report and order-free to merge.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Mean {
    pub n: u64,
    pub sum: i64,
    /// Sum of squares, for the interval; integers keep merging exact in any order.
    #[serde(default)]
    pub sum_sq: i64,
}

impl Mean {
    pub fn add(&mut self, x: i64) {
        self.n += 1;
        self.sum += x;
        self.sum_sq += x * x;
    }
    pub fn mean(&self) -> f64 {
        self.sum as f64 / self.n.max(1) as f64
    }
    pub fn merge(&mut self, o: &Mean) {
        self.n += o.n;
        self.sum += o.sum;
        self.sum_sq += o.sum_sq;
    }
    /// 95% normal interval of the mean (sample variance; a single value has no width).
    pub fn ci95(&self) -> (f64, f64) {
        let m = self.mean();
        if self.n < 2 {
            return (m, m);
        }
        let n = self.n as f64;
        let var = ((self.sum_sq as f64 - n * m * m) / (n - 1.0)).max(0.0);
        let half = 1.959_963_984_540_054 * (var / n).sqrt();
        (m - half, m + half)
    }

    /// The mean and its 95% normal interval (a grid's cell).
    pub fn estimate(&self) -> (f64, f64, f64) {
        let (lo, hi) = self.ci95();
        (self.mean(), lo, hi)
    }

    /// A mean of win points (win 2, draw 1) as a share and its 95% interval (a grid's cell).
    pub fn points_estimate(&self) -> (f64, f64, f64) {
        let (m, lo, hi) = self.estimate();
        (0.5 * m, 0.5 * lo, 0.5 * hi)
    }

    /// `3.25 [3.10, 3.40]`: the mean with its 95% interval, for summary tables.
    pub fn mean95(&self) -> String {
        let (lo, hi) = self.ci95();
        format!("{:5.2} [{:5.2}, {:5.2}]", self.mean(), lo, hi)
    }

    /// A mean of win points (win 2, draw 1) as a share with its 95% interval (`share_cell`);
    /// name its group `win share ...` ([`WIN_POINTS`]) so reports show it as a share too.
    pub fn points_share95(&self) -> String {
        let (lo, hi) = self.ci95();
        share_cell(0.5 * self.mean(), 0.5 * lo, 0.5 * hi)
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
        g.get_mut(label).expect("inserted above")
    }

    pub fn mean(&mut self, group: &str, label: &str) -> &mut Mean {
        if !self.means.contains_key(group) {
            self.means.insert(group.to_string(), BTreeMap::new());
        }
        let g = self.means.get_mut(group).expect("inserted above");
        if !g.contains_key(label) {
            g.insert(label.to_string(), Mean::default());
        }
        g.get_mut(label).expect("inserted above")
    }

    pub fn merge(&mut self, other: &Tally) {
        for (g, labels) in &other.means {
            for (l, m) in labels {
                let mine = self.mean(g, l);
                mine.n += m.n;
                mine.sum += m.sum;
                mine.sum_sq += m.sum_sq;
            }
        }
        self.matches += other.matches;
        self.draws += other.draws;
        self.work += other.work;
        self.ops += other.ops;
        for (g, labels) in &other.groups {
            for (l, c) in labels {
                let mine = self.count(g, l);
                mine.wins += c.wins;
                mine.trials += c.trials;
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
        let (lo, hi) = wilson(81, 263, 1.959_963_984_540_054);
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
        assert_eq!(ab.groups["power"]["Amoeba"], Count { wins: 1, trials: 2 });
        assert_eq!(ab.matches, 3);
    }

    #[test]
    fn thousands_separators() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(5_000_000), "5,000,000");
    }
}

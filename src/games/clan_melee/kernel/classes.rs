//! The melee played by classes (issue 25): members of one kind with equal hp and max are one
//! class with a count. A turn draws the random matching over classes with the distribution a
//! uniform matching of the members has, resolves each class pair once per outcome of its coins,
//! and gathers the results into the next turn's classes. Same distribution as the per-member
//! engine ([`crate::games::clan_melee::kernel::engine`]), not the same draws: a first turn of
//! ten million alike members costs what a small melee's does.
//!
//! The matching (CM-6): who sits out an odd count is a uniform member (a class drawn by its
//! count). The rest are matched uniformly: a uniform matching seats the members in pairs, and
//! which members take the pairs' first seats is a uniform subset of half of them, so each class's
//! count there is a multivariate hypergeometric draw; the second seats are then a uniform
//! assignment of the rest to the first, so the members of each first-seat class meet each
//! second-seat class in counts drawn the same way, class after class. Each pair's three coins
//! (CM-13) are fair and independent, so a class pair's pairs split over the 8 outcomes as a
//! multinomial draw; every pair of one outcome ends alike.

use std::collections::HashMap;

use rand::{Rng, RngExt};
use rand_distr::{Binomial, Distribution, Hypergeometric};

use crate::games::clan_melee::input::clan::{HP_CAP, Made};
use crate::games::clan_melee::kernel::meeting::Meeting;
use crate::games::clan_melee::rules::{Coins, Mode};
use crate::games::clan_melee::state::{Field, Participants};

/// The field's members as classes: (kind, hp, max) and how many.
#[derive(Debug, Default)]
pub struct Classes {
    kind: Vec<u16>,
    hp: Vec<i32>,
    max: Vec<i32>,
    count: Vec<u64>,
    /// The next turn's classes while they gather, and where each (kind, hp, max) sits there.
    next_kind: Vec<u16>,
    next_hp: Vec<i32>,
    next_max: Vec<i32>,
    next_count: Vec<u64>,
    index: HashMap<(u16, i32, i32), u32>,
    /// This turn's counts in first and second seats.
    first: Vec<u64>,
    second: Vec<u64>,
}

/// Draws how many of `sample` taken without replacement from `total` are among `marked`.
fn hypergeometric(rng: &mut impl Rng, total: u64, marked: u64, sample: u64) -> u64 {
    if sample == 0 || marked == 0 {
        return 0;
    }
    if marked == total {
        return sample;
    }
    if sample == total {
        return marked;
    }
    // The draw seen from the smaller of each pair of complements (the count is symmetric).
    let (n1, k) = (marked.min(total - marked), sample.min(total - sample));
    // rand_distr takes its inverse-transform branch where the mode is under 10, and sets it up
    // by a loop over the whole population that underflows (PopulationTooLarge) on a turn of
    // millions. There one of the two sets is short (n1 x k < 10 x total): draw item by item.
    let mode = (k as f64 + 1.0) * (n1 as f64 + 1.0) / (total as f64 + 2.0);
    if mode >= 10.0 {
        return Hypergeometric::new(total, marked, sample)
            .expect("marked and sample within total")
            .sample(rng);
    }
    // |M & S| from whichever of M, M' (the unmarked) and S, S' (the unsampled) are smallest.
    let (unmarked, unsampled) = (total - marked, total - sample);
    match (marked <= unmarked, sample <= unsampled) {
        (true, true) => overlap(rng, total, marked, sample),
        (false, true) => sample - overlap(rng, total, unmarked, sample),
        (true, false) => marked - overlap(rng, total, marked, unsampled),
        (false, false) => marked + sample + overlap(rng, total, unmarked, unsampled) - total,
    }
}

/// How many items two uniform, independent subsets of sizes `a` and `b` of `total` items share,
/// exactly: the smaller one's items in turn, each in the other with the chance of what is left.
fn overlap(rng: &mut impl Rng, total: u64, a: u64, b: u64) -> u64 {
    let (a, b) = (a.min(b), a.max(b));
    let mut x = 0;
    for i in 0..a {
        x += (rng.random_range(0..total - i) < b - x) as u64;
    }
    x
}

impl Classes {
    /// Members alive: the sum of the counts.
    pub fn members(&self) -> u64 {
        self.count.iter().sum()
    }

    pub fn len(&self) -> usize {
        self.count.len()
    }

    pub fn is_empty(&self) -> bool {
        self.count.is_empty()
    }

    /// The rosters' runs (field kinds) gathered into classes (their order does not matter:
    /// every turn draws a uniform matching); members start at max = hp (CM-3).
    pub fn load(&mut self, runs: &[Made]) {
        self.begin();
        for m in runs {
            let hp = m.hp.min(HP_CAP);
            self.add(m.kind, hp, hp, m.count as u64);
        }
        self.end();
    }

    /// Every member as a participant, for the per-member engine.
    pub fn expand(&self, p: &mut Participants) {
        p.clear();
        for c in 0..self.len() {
            let k = self.count[c] as usize;
            p.kind.extend(std::iter::repeat_n(self.kind[c], k));
            p.hp.extend(std::iter::repeat_n(self.hp[c], k));
            p.max.extend(std::iter::repeat_n(self.max[c], k));
        }
    }

    fn begin(&mut self) {
        self.next_kind.clear();
        self.next_hp.clear();
        self.next_max.clear();
        self.next_count.clear();
        self.index.clear();
    }

    /// `n` members of (kind, hp, max) join the next turn's classes.
    #[inline]
    fn add(&mut self, kind: u16, hp: i32, max: i32, n: u64) {
        let at = *self
            .index
            .entry((kind, hp, max))
            .or_insert(self.next_count.len() as u32) as usize;
        if at == self.next_count.len() {
            self.next_kind.push(kind);
            self.next_hp.push(hp);
            self.next_max.push(max);
            self.next_count.push(0);
        }
        self.next_count[at] += n;
    }

    fn end(&mut self) {
        std::mem::swap(&mut self.kind, &mut self.next_kind);
        std::mem::swap(&mut self.hp, &mut self.next_hp);
        std::mem::swap(&mut self.max, &mut self.next_max);
        std::mem::swap(&mut self.count, &mut self.next_count);
    }

    /// One turn (CM-6 .. CM-9): the odd one out decays, the rest meet in pairs, the dead leave.
    /// Returns the interactions played.
    pub fn turn(&mut self, field: &Field, mode: Mode, rng: &mut impl Rng) -> u64 {
        let n = self.members();
        self.begin();
        if n < 2 {
            // No pair; a lone member decays as the odd one out (CM-9).
            for c in 0..self.len() {
                let (h, m) = field.rules.decay(self.hp[c], self.max[c]);
                self.keep(mode, self.kind[c], h, m, self.count[c]);
            }
            self.end();
            return 0;
        }
        if n % 2 == 1 {
            // CM-9: a uniform member sits out and decays.
            let mut u = rng.random_range(0..n);
            let c = (0..self.len())
                .find(|&c| {
                    let hit = u < self.count[c];
                    u = u.wrapping_sub(self.count[c]);
                    hit
                })
                .expect("u < members");
            self.count[c] -= 1;
            let (h, m) = field.rules.decay(self.hp[c], self.max[c]);
            self.keep(mode, self.kind[c], h, m, 1);
        }
        let pairs = n / 2;
        // First seats: a uniform half of the members, class by class.
        let k = self.len();
        self.first.clear();
        self.second.clear();
        let (mut left, mut seats) = (2 * pairs, pairs);
        for c in 0..k {
            let a = hypergeometric(rng, left, self.count[c], seats);
            left -= self.count[c];
            seats -= a;
            self.first.push(a);
            self.second.push(self.count[c] - a);
        }
        // Second seats: each first-seat class meets the second-seat classes left.
        let mut open = pairs;
        for i in 0..k {
            let mut need = self.first[i];
            if need == 0 {
                continue;
            }
            let mut pool = open;
            open -= need;
            for j in 0..k {
                if need == 0 {
                    break;
                }
                let b = self.second[j];
                if b == 0 {
                    continue;
                }
                let m = hypergeometric(rng, pool, b, need);
                pool -= b;
                need -= m;
                self.second[j] -= m;
                if m > 0 {
                    self.meet(field, mode, i, j, m, rng);
                }
            }
        }
        self.end();
        pairs
    }

    /// `m` pairs with a member of class `i` in the first seat and one of class `j` in the
    /// second: each outcome of the three coins once, for the pairs it falls to.
    fn meet(&mut self, field: &Field, mode: Mode, i: usize, j: usize, m: u64, rng: &mut impl Rng) {
        let mut left = m;
        for o in 0..8u32 {
            let x = if o == 7 || left == 0 {
                left
            } else {
                Binomial::new(left, 1.0 / (8 - o) as f64)
                    .expect("a probability")
                    .sample(rng)
            };
            left -= x;
            if x == 0 {
                continue;
            }
            let coins = Coins(o);
            let kind = [self.kind[i], self.kind[j]];
            let mut hp = [self.hp[i], self.hp[j]];
            let mut max = [self.max[i], self.max[j]];
            let f = coins.p1_offset();
            Meeting::new(field, kind[f], kind[f ^ 1])
                .resolve(field, mode, &mut hp, &mut max, coins);
            self.keep(mode, kind[0], hp[0], max[0], x);
            self.keep(mode, kind[1], hp[1], max[1], x);
        }
    }

    /// Survivors go on to the next turn (CM-8: the dead leave at its end).
    #[inline]
    fn keep(&mut self, mode: Mode, kind: u16, hp: i32, max: i32, n: u64) {
        if mode.alive(hp) {
            self.add(kind, hp, max, n);
        }
    }

    /// Survivors and their wrapping hp total per clan (CM-11); returns the clans still in play.
    pub fn census(&self, field: &Field, survivors: &mut Vec<u32>, totals: &mut Vec<i32>) -> usize {
        let k = field.clans.len();
        survivors.clear();
        survivors.resize(k, 0);
        totals.clear();
        totals.resize(k, 0);
        for c in 0..self.len() {
            let clan = field.kinds[self.kind[c] as usize].clan as usize;
            survivors[clan] += self.count[c] as u32;
            // The 32-bit sum of `count` equal terms, wrapping as the reference's does.
            totals[clan] = totals[clan].wrapping_add(self.hp[c].wrapping_mul(self.count[c] as i32));
        }
        survivors.iter().filter(|&&s| s > 0).count()
    }

    /// CM-12: every survivor a healer that cannot hurt by side effect, with hp < 0 and max < 0.
    pub fn deadlocked(&self, field: &Field) -> bool {
        (0..self.len()).all(|c| {
            let k = field.kinds[self.kind[c] as usize];
            k.healer && !k.effect && self.hp[c] < 0 && self.max[c] < 0
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::{Stream, match_stream_rng};

    /// P(X = x) for the hypergeometric, from log-factorials summed exactly enough for tests.
    fn pmf(total: u64, marked: u64, sample: u64, x: u64) -> f64 {
        let ln_choose = |n: u64, k: u64| -> f64 {
            (0..k)
                .map(|i| ((n - i) as f64).ln() - ((i + 1) as f64).ln())
                .sum()
        };
        if x > marked || x > sample || sample - x > total - marked {
            return 0.0;
        }
        (ln_choose(marked, x) + ln_choose(total - marked, sample - x) - ln_choose(total, sample))
            .exp()
    }

    // The draw has the hypergeometric's distribution on both of its paths (item by item where the
    // mode is small, from every side of the complements; rand_distr's elsewhere): 40,000 draws per
    // case, every count within 5 standard errors of its exact chance.
    #[test]
    fn hypergeometric_draws_follow_the_exact_distribution_on_every_path() {
        let mut rng = match_stream_rng(3, Stream::Battle);
        let cases = [
            (60, 7, 20),
            (60, 53, 20),
            (60, 7, 45),
            (60, 53, 45),
            (1000, 400, 500),
            (100_000, 3, 50_000),
        ];
        for (total, marked, sample) in cases {
            let n = 40_000;
            let mut seen = vec![0u32; sample.min(marked) as usize + 1];
            for _ in 0..n {
                seen[hypergeometric(&mut rng, total, marked, sample) as usize] += 1;
            }
            for (x, &c) in seen.iter().enumerate() {
                let p = pmf(total, marked, sample, x as u64);
                let sd = (n as f64 * p * (1.0 - p)).sqrt().max(1.0);
                assert!(
                    (c as f64 - n as f64 * p).abs() < 5.0 * sd,
                    "({total}, {marked}, {sample}): x = {x} seen {c}, expected {:.1}",
                    n as f64 * p
                );
            }
        }
    }

    // A first turn of ten million members: the small-mode draws rand_distr refuses
    // (PopulationTooLarge) are made item by item, with the right mean.
    #[test]
    fn hypergeometric_draws_from_ten_million_members_without_failing() {
        let mut rng = match_stream_rng(4, Stream::Battle);
        let (total, marked, sample) = (10_192_389u64, 17, 5_096_194);
        let n = 2_000;
        let sum: u64 = (0..n)
            .map(|_| hypergeometric(&mut rng, total, marked, sample))
            .sum();
        let mean = marked as f64 * sample as f64 / total as f64;
        let sd = (mean * 0.5 * 0.5 * 2.0 / n as f64).sqrt();
        assert!(
            (sum as f64 / n as f64 - mean).abs() < 5.0 * sd,
            "mean {}",
            sum as f64 / n as f64
        );
    }
}

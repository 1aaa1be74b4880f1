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

use crate::games::clan_melee::kernel::engine::Meeting;
use crate::games::clan_melee::rules::{self, Coins, Mode};
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
#[inline]
fn hypergeometric(rng: &mut impl Rng, total: u64, marked: u64, sample: u64) -> u64 {
    if sample == 0 || marked == 0 {
        0
    } else if marked == total {
        sample
    } else if sample == total {
        marked
    } else {
        Hypergeometric::new(total, marked, sample)
            .expect("marked and sample within total")
            .sample(rng)
    }
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

    /// The participants gathered into classes (their order does not matter: every turn draws a
    /// uniform matching).
    pub fn load(&mut self, p: &Participants) {
        self.begin();
        let n = p.len();
        let mut i = 0;
        while i < n {
            // Builders make runs of alike members: one lookup per run.
            let mut j = i + 1;
            while j < n && p.kind[j] == p.kind[i] && p.hp[j] == p.hp[i] && p.max[j] == p.max[i] {
                j += 1;
            }
            self.add(p.kind[i], p.hp[i], p.max[i], (j - i) as u64);
            i = j;
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
                let (h, m) = rules::decay(self.hp[c], self.max[c]);
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
            let (h, m) = rules::decay(self.hp[c], self.max[c]);
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

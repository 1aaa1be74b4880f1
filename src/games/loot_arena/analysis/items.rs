//! `skirmish analyze loot items` (LA-32): what items, pairings and sets are worth, from paired
//! battles. Every comparison replays the same battle seed with one thing changed; dice are read
//! by place (LA-30), so the change alters only the rolls it adds (common random numbers).
//!
//! - **Item worth.** A focal champion (side 0, first seat) of each class, its second item slot and
//!   its armor emptied, fights the random field; each item kind and tier in that slot, each armor
//!   it may wear, and +5, +10, +20, +40 health are played on the same battles. An item's worth
//!   is the extra health with the same effect on the win share (the health curve inverted, its
//!   interval by the delta method).
//! - **Pairings.** The 6x6 matrix of pair against pair, bare and equipped, under the rules' crit
//!   reading and the other one.
//! - **Leave one out.** In equipped battles, how much side 0's win share drops without each of its
//!   items, grouped by kind and tier.
//! - **Sets.** For each class, the focal champion plays each candidate policy against the same
//!   battles; the best per class, paired against the first candidate.

use crate::error::Error;
use std::ops::Range;
use std::sync::atomic::{AtomicU64, Ordering};

use rand::RngExt;
use rayon::prelude::*;

use crate::games::loot_arena::kernel::battle::{Battle, Silent};
use crate::games::loot_arena::policy::Policy;
use crate::games::loot_arena::rules::{Class, Crit, Kind, Tier, Weight};
use crate::games::loot_arena::simulation::battles::{Field, PAIRS, pair_name};
use crate::games::loot_arena::state::{Fielded, NO_ITEM};
use crate::platform::answer::Unit;
use crate::platform::grid::{Cell, Grid};
use crate::platform::ledger::{Ledger, Sums as LedgerSums};
use crate::platform::table::{Code, Label, Table};
use crate::rng::{Stream, match_seed, match_stream_rng};
use crate::stats::{Censor, Sums, covariance};

/// Extra health points of the curve items are measured against. Up to +160 (issue 63: with the
/// ladder ending at +40, a third of the item-by-class rows read "over 40 health" and had no rank):
/// each rung is one more arm played on the same battles.
pub const GRID: [i32; N_GRID] = [5, 10, 20, 40, 80, 160];
/// Rungs of the health ladder.
pub const N_GRID: usize = 6;

/// What the study measures.
#[derive(Clone, Debug)]
pub struct Study {
    pub field: Field,
    /// Battles per class for item worth and sets, and for leave one out.
    pub battles: u64,
    /// Battles per cell of the pairing matrices.
    pub cell: u64,
    /// Candidate policies for the focal champion (the first is the yardstick).
    pub sets: Vec<Policy>,
    /// A host's candidate items (issue 51), catalogue indices of items the field never draws:
    /// measured in the focal slot on the same battles as the catalogue's.
    pub candidates: Vec<u16>,
}

impl Study {
    /// What the study's kept cells hold for (issue 51: all but its counts), as values (issue 78:
    /// its rules and catalogue were their debug text): the version, the seed, the field's flags
    /// (`field`), every rules number, the catalogue by digest and the sets. A folder's cells are
    /// continued only under the same identity.
    pub fn identity(&self, seed: u64, field: String) -> serde_json::Value {
        let (rules, catalogue) = (&self.field.rules, &self.field.catalogue);
        let mut id = crate::platform::ledger::identity(seed, field, rules, catalogue);
        let sets: Vec<String> = self.sets.iter().map(|p| p.spec()).collect();
        id.insert("sets".into(), sets.into());
        id.into()
    }

    /// The study of `field` with a host's `candidates` added to its catalogue, undrawn (a
    /// candidate may not take a catalogue item's name).
    pub fn new(
        mut field: Field,
        battles: u64,
        cell: u64,
        sets: Vec<Policy>,
        candidates: Vec<crate::games::loot_arena::state::Item>,
    ) -> Result<Study, Error> {
        let mut added = Vec::new();
        for item in candidates {
            if field.catalogue.find(&item.name).is_some() {
                return Err(Error::Input(format!(
                    "--candidate: `{}` is the name of a catalogue item: rename it",
                    item.name
                )));
            }
            added.push(field.catalogue.add_undrawn(item));
        }
        Ok(Study {
            field,
            battles,
            cell,
            sets,
            candidates: added,
        })
    }
}

/// An arm of the item study: what the focal champion gets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arm {
    Health(i32),
    Item(Kind, Tier, u16),
    Armor(Weight, Tier, u16),
}

impl Arm {
    pub fn label(&self, f: &Field) -> String {
        match self {
            Arm::Health(h) => format!("+{h} health"),
            Arm::Item(_, _, i) | Arm::Armor(_, _, i) => {
                let it = &f.catalogue.items[*i as usize];
                format!("{} ({})", it.label(), it.name)
            }
        }
    }
}

/// Paired sums of one class's item study.
#[derive(Clone, Debug, Default)]
struct ItemAcc {
    /// Per arm: the difference from the base, in half points.
    d: Vec<Sums>,
    /// Per arm, then per arm of the first `width` (every arm; the curve's points alone in sums
    /// kept before issue 63): sums of products, for the delta method and for comparing a
    /// candidate with each item on the same battles.
    cross: Vec<i64>,
    width: usize,
}

impl ItemAcc {
    fn new(arms: usize) -> ItemAcc {
        ItemAcc {
            d: vec![Sums::default(); arms],
            cross: vec![0; arms * arms],
            width: arms,
        }
    }
    /// The sum of arm `a`'s products with arm `b` (`b` below `width`).
    fn cross(&self, a: usize, b: usize) -> i64 {
        self.cross[a * self.width + b]
    }
    /// Keeps only the products with the curve's points (what older sums hold).
    fn narrow(&mut self) {
        if self.width == N_GRID {
            return;
        }
        let w = self.width;
        self.cross = self
            .cross
            .chunks(w)
            .flat_map(|row| row[..N_GRID].to_vec())
            .collect();
        self.width = N_GRID;
    }
    fn merge(mut self, mut o: ItemAcc) -> ItemAcc {
        for (a, b) in self.d.iter_mut().zip(&o.d) {
            a.merge(b);
        }
        if self.width != o.width {
            self.narrow();
            o.narrow();
        }
        for (a, b) in self.cross.iter_mut().zip(&o.cross) {
            *a += b;
        }
        self
    }
}

impl LedgerSums for ItemAcc {
    fn to_ints(&self) -> Vec<i64> {
        (self.d.clone(), self.cross.clone()).to_ints()
    }
    fn from_ints(v: &[i64]) -> Option<Self> {
        let (d, cross) = <(Vec<Sums>, Vec<i64>)>::from_ints(v)?;
        let width = [d.len(), N_GRID]
            .into_iter()
            .find(|&w| cross.len() == w * d.len() && d.len() >= N_GRID)?;
        Some(ItemAcc { d, cross, width })
    }
    fn merge(&mut self, o: &Self) {
        if self.d.is_empty() {
            *self = o.clone();
        } else {
            *self = std::mem::take(self).merge(o.clone());
        }
    }
}

/// Battles `range` in chunks of 500 on every thread, each chunk's sums from `play(battle,
/// chunk)`, merged (integer sums: the same whatever the split).
fn chunked<S: LedgerSums + Send>(
    range: Range<u64>,
    play: impl Fn(&mut Battle, Range<u64>) -> S + Sync,
) -> S {
    const CHUNK: u64 = 500;
    let chunks: Vec<Range<u64>> = (range.start..range.end)
        .step_by(CHUNK as usize)
        .map(|a| a..(a + CHUNK).min(range.end))
        .collect();
    chunks
        .par_iter()
        .map_init(Battle::new, |b, r| play(b, r.clone()))
        .reduce(S::default, |mut a, b| {
            a.merge(&b);
            a
        })
}

/// One estimate: a mean and its 95% interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Est {
    pub mean: f64,
    pub lo: f64,
    pub hi: f64,
    pub n: u64,
    /// Its standard error: the interval is z of them either side (widened where every
    /// battle came out the same, issue 63, and read so).
    pub se: f64,
}

impl Est {
    /// From sums of half points, as a share (0..1).
    fn share(s: &Sums) -> Est {
        let (m, lo, hi) = s.interval_in(-2, 2);
        Est {
            mean: m / 2.0,
            lo: lo / 2.0,
            hi: hi / 2.0,
            n: s.n,
            se: (hi - lo) / 2.0 / (2.0 * crate::stats::Z95),
        }
    }
}

/// An item's measured worth to one class.
#[derive(Clone, Debug, PartialEq)]
pub struct Worth {
    pub class: Class,
    pub arm: Arm,
    pub label: String,
    /// Change in win share.
    pub effect: Est,
    /// Extra health with the same effect; `censor` says when it is a bound.
    pub health: f64,
    pub health_lo: f64,
    pub health_hi: f64,
    pub censor: Censor,
}

/// One cell of a pairing matrix: a pair's win share against an opponent pair.
#[derive(Clone, Copy, Debug)]
pub struct Pairing {
    /// The crit reading (LA-10) and whether the champions were equipped (else bare).
    pub crit: Crit,
    pub equipped: bool,
    pub pair: usize,
    pub opponent: usize,
    pub share: Est,
}

/// What an item is worth to the field by its absence: the win share side 0 loses without it.
#[derive(Clone, Debug)]
pub struct LeftOut {
    pub item: String,
    pub drop: Est,
}

/// A policy a class writes its sets with: its side's win share, and the difference from the
/// first candidate policy (paired).
#[derive(Clone, Debug)]
pub struct SetPolicy {
    pub class: Class,
    pub policy: String,
    pub share: Est,
    pub vs_first: Est,
}

/// Everything the study found.
#[derive(Clone, Debug, Default)]
pub struct Findings {
    pub worth: Vec<Worth>,
    pub pairings: Vec<Pairing>,
    /// Items removed at least twice.
    pub leave_one_out: Vec<LeftOut>,
    /// Items removed only once: no interval can be measured from one removal (issue 79: it was
    /// written as NaN, and the answer could not be read back).
    pub removed_once: Vec<String>,
    pub sets: Vec<SetPolicy>,
    pub battles: u64,
    /// `(class, candidate, item)`: the variance of the difference of their worth in health,
    /// measured on the same battles.
    pub paired: std::collections::BTreeMap<(String, String, String), f64>,
    /// The same for their win-share changes, which no ladder censors (a candidate worth more
    /// than the ladder's top is ranked by them).
    pub paired_effect: std::collections::BTreeMap<(String, String, String), f64>,
}

fn side0_points(
    b: &mut Battle,
    f: &Fielded,
    field: &Field,
    rules: &crate::games::loot_arena::rules::Rules,
    seed: u64,
) -> i64 {
    b.play(f, &field.catalogue, rules, seed, &mut Silent)
        .points()
}

impl Study {
    /// The arms a class's focal champion is measured with.
    pub fn arms(&self, class: Class) -> Vec<Arm> {
        let cat = &self.field.catalogue;
        let mut arms: Vec<Arm> = GRID.iter().map(|&h| Arm::Health(h)).collect();
        for k in Kind::CARRIED {
            for t in Tier::ALL {
                if let Some(&i) = cat.carried[k as usize][t as usize].first() {
                    arms.push(Arm::Item(k, t, i));
                }
            }
        }
        let allowed = self.field.rules.class(class).armor;
        for w in Weight::ALL {
            if allowed & w.bit() == 0 {
                continue;
            }
            for t in Tier::ALL {
                if let Some(&i) = cat.armor[w as usize][t as usize].first() {
                    arms.push(Arm::Armor(w, t, i));
                }
            }
        }
        for &i in &self.candidates {
            let it = &cat.items[i as usize];
            match it.weight {
                None => arms.push(Arm::Item(it.kind, it.tier, i)),
                Some(w) if allowed & w.bit() != 0 => arms.push(Arm::Armor(w, it.tier, i)),
                Some(_) => {} // the class cannot wear it (LA-18)
            }
        }
        arms
    }

    /// Battle i of a class's study: the field's draw with the focal champion of `class` in side
    /// 0's first seat, a partner drawn among the other classes.
    fn focal(&self, class: Class, master: u64, i: u64) -> (Fielded, u64) {
        let seed = match_seed(master ^ (0xF0CA1 + class as u64), i);
        let (mut f, _) = self.field.draw(i, seed);
        let mut rng = match_stream_rng(seed, Stream::LootField);
        let others: Vec<Class> = Class::ALL.into_iter().filter(|c| *c != class).collect();
        let partner = others[rng.random_range(0..3usize)];
        for (k, c) in [class, partner].into_iter().enumerate() {
            let h = self.field.rules.class(c).health;
            let policy = f[k].policy;
            let mut l = crate::games::loot_arena::state::Loadout::bare(c, h, policy);
            self.field.equip(&mut rng, &mut l);
            f[k] = l;
        }
        (f, seed)
    }

    fn default_policy(&self) -> Policy {
        self.sets[0]
    }

    /// Runs every part, its sums kept by cell in `ledger` (issue 51: a run continued with more
    /// battles, or one shard of several, plays only its new or its own cells); `tick` is told
    /// how many battles were played so far. `None` when the ledger is not whole (a shard's run:
    /// the findings wait for every shard's cells).
    pub fn run(
        &self,
        master: u64,
        ledger: &mut Ledger,
        tick: &(dyn Fn(u64) + Sync),
    ) -> Result<Option<Findings>, Error> {
        let done = AtomicU64::new(0);
        let count = |n: u64| {
            let v = done.fetch_add(n, Ordering::Relaxed) + n;
            tick(v);
        };
        let rules = &self.field.rules;
        // Item worth, per class: each arm's paired difference from the bare focal champion.
        let mut worth_sums = Vec::new();
        for class in Class::ALL {
            let arms = self.arms(class);
            let key = format!("item worth/{}", class.name());
            let acc = ledger.cell(&key, self.battles, |range| {
                chunked(range, |b, r| {
                    let mut acc = ItemAcc::new(arms.len());
                    for i in r.clone() {
                        let (mut f, seed) = self.focal(class, master, i);
                        f[0].items[1] = NO_ITEM;
                        f[0].armor = NO_ITEM;
                        for l in f.iter_mut() {
                            l.policy = self.default_policy();
                        }
                        let base = side0_points(b, &f, &self.field, rules, seed);
                        let mut d = vec![0i64; arms.len()];
                        for (a, arm) in arms.iter().enumerate() {
                            let mut g = f;
                            match *arm {
                                Arm::Health(h) => {
                                    g[0].health += h;
                                    g[0].max += h;
                                }
                                Arm::Item(_, _, it) => g[0].items[1] = it,
                                Arm::Armor(_, _, it) => g[0].armor = it,
                            }
                            d[a] = side0_points(b, &g, &self.field, rules, seed) - base;
                        }
                        let w = arms.len();
                        for a in 0..w {
                            acc.d[a].add(d[a]);
                            if d[a] != 0 {
                                for (c, &dk) in acc.cross[a * w..(a + 1) * w].iter_mut().zip(&d) {
                                    *c += d[a] * dk;
                                }
                            }
                        }
                    }
                    count((r.end - r.start) * (arms.len() as u64 + 1));
                    acc
                })
            })?;
            worth_sums.push((class, arms, acc));
        }
        // Pairings: the rules' crit reading and the other one, bare and equipped.
        let other = if rules.crit == Crit::AnyDie {
            Crit::EveryDie
        } else {
            Crit::AnyDie
        };
        let mut pairing_sums = Vec::new();
        for crit in [rules.crit, other] {
            let mut r = rules.clone();
            r.crit = crit;
            for equipped in [false, true] {
                for (p, q) in (0..6).flat_map(|p| (0..6).map(move |q| (p, q))) {
                    let key = format!(
                        "pairings/{crit:?}/{}/{}/{}",
                        if equipped { "equipped" } else { "bare" },
                        pair_name(p),
                        pair_name(q)
                    );
                    let s: Sums = ledger.cell(&key, self.cell, |range| {
                        chunked(range, |b, js| {
                            let mut s = Sums::default();
                            for j in js.clone() {
                                // A battle's index names its cell and its place in it, never the
                                // cell's size: a cell continued with more battles keeps its first.
                                let idx = (((p * 6 + q) as u64) << 32) | j;
                                let seed = match_seed(master ^ 0x9A1B, idx);
                                let mut rng = match_stream_rng(seed, Stream::LootField);
                                let mut f = self.field.draw(idx, seed).0;
                                for (side, pair) in [p, q].into_iter().enumerate() {
                                    for (k, c) in
                                        [PAIRS[pair].0, PAIRS[pair].1].into_iter().enumerate()
                                    {
                                        let mut l = crate::games::loot_arena::state::Loadout::bare(
                                            c,
                                            r.class(c).health,
                                            self.default_policy(),
                                        );
                                        if equipped {
                                            self.field.equip(&mut rng, &mut l);
                                        }
                                        f[2 * side + k] = l;
                                    }
                                }
                                s.add(side0_points(b, &f, &self.field, &r, seed));
                            }
                            count(js.end - js.start);
                            s
                        })
                    })?;
                    pairing_sums.push((crit, equipped, p, q, s));
                }
            }
        }
        // Leave one out.
        let labels: Vec<String> = self
            .field
            .catalogue
            .items
            .iter()
            .map(|i| i.label())
            .collect();
        let mut groups: Vec<String> = labels.clone();
        groups.sort();
        groups.dedup();
        let loo: (Vec<Sums>, Vec<i64>) = ledger.cell("leave one out", self.battles, |range| {
            chunked(range, |b, r| {
                let mut acc = vec![Sums::default(); groups.len()];
                let mut played = 0;
                for i in r {
                    let seed = match_seed(master ^ 0x100, i);
                    let (mut f, _) = self.field.draw(i, seed);
                    for l in f.iter_mut() {
                        l.policy = self.default_policy();
                    }
                    let base = side0_points(b, &f, &self.field, rules, seed);
                    played += 1;
                    for k in 0..2 {
                        for slot in 0..5 {
                            let mut g = f;
                            let it = if slot < 4 {
                                std::mem::replace(&mut g[k].items[slot], NO_ITEM)
                            } else {
                                std::mem::replace(&mut g[k].armor, NO_ITEM)
                            };
                            if it == NO_ITEM {
                                continue;
                            }
                            let without = side0_points(b, &g, &self.field, rules, seed);
                            played += 1;
                            let gi = groups.binary_search(&labels[it as usize]).unwrap_or(0);
                            acc[gi].add(base - without);
                        }
                    }
                }
                count(played as u64);
                (acc, vec![played])
            })
        })?;
        // Sets per class.
        let k = self.sets.len();
        let mut set_sums = Vec::new();
        for class in Class::ALL {
            let key = format!("sets/{}", class.name());
            let sums: (Vec<Sums>, Vec<Sums>) = ledger.cell(&key, self.battles, |range| {
                chunked(range, |b, r| {
                    let mut wins = vec![Sums::default(); k];
                    let mut diffs = vec![Sums::default(); k];
                    for i in r.clone() {
                        let (mut f, seed) = self.focal(class, master ^ 0x5E75, i);
                        for l in f.iter_mut() {
                            l.policy = self.default_policy();
                        }
                        let mut first = 0;
                        for (j, p) in self.sets.iter().enumerate() {
                            f[0].policy = *p;
                            let v = side0_points(b, &f, &self.field, rules, seed);
                            if j == 0 {
                                first = v;
                            }
                            wins[j].add(v);
                            diffs[j].add(v - first);
                        }
                    }
                    count((r.end - r.start) * k as u64);
                    (wins, diffs)
                })
            })?;
            set_sums.push((class, sums));
        }
        if !ledger.whole() {
            return Ok(None);
        }
        let mut out = Findings::default();
        for (class, arms, acc) in worth_sums {
            out.battles += self.battles * (arms.len() as u64 + 1);
            self.worth(class, &arms, &acc, &mut out);
        }
        for (crit, equipped, p, q, s) in pairing_sums {
            out.battles += self.cell;
            out.pairings.push(Pairing {
                crit,
                equipped,
                pair: p,
                opponent: q,
                share: Est::share(&s),
            });
        }
        out.battles += loo.1.first().copied().unwrap_or(0) as u64;
        for (g, s) in groups.iter().zip(&loo.0) {
            match s.n {
                0 => {}
                1 => out.removed_once.push(g.clone()),
                _ => out.leave_one_out.push(LeftOut {
                    item: g.clone(),
                    drop: Est::share(s),
                }),
            }
        }
        for (class, (wins, diffs)) in set_sums {
            out.battles += self.battles * k as u64;
            for j in 0..k {
                out.sets.push(SetPolicy {
                    class,
                    policy: self.sets[j].spec(),
                    share: Est::share(&wins[j]),
                    vs_first: Est::share(&diffs[j]),
                });
            }
        }
        Ok(Some(out))
    }

    /// One class's item worth from its arms' paired sums: each item's effect, and the health
    /// that has the same effect (the inverse of the health curve, by the delta method).
    fn worth(&self, class: Class, arms: &[Arm], acc: &ItemAcc, out: &mut Findings) {
        let n = acc.d[0].n;
        let curve: Vec<f64> = std::iter::once(0.0)
            .chain((0..N_GRID).map(|k| acc.d[k].mean()))
            .collect();
        let grid: Vec<f64> = std::iter::once(0.0)
            .chain(GRID.iter().map(|&h| h as f64))
            .collect();
        for (a, arm) in arms.iter().enumerate() {
            if matches!(arm, Arm::Health(_)) {
                continue;
            }
            // Covariances of the estimates: index 0 the arm, 1 the base (0, exact), 2.. the
            // curve points.
            let var = |x: usize, y: usize| -> f64 {
                let (sx, sy, sxy) = match (x, y) {
                    (0, 0) => (acc.d[a].s1, acc.d[a].s1, acc.d[a].s2),
                    (0, k) | (k, 0) if k >= 2 => {
                        (acc.d[a].s1, acc.d[k - 2].s1, acc.cross(a, k - 2))
                    }
                    (i, j) if i >= 2 && j >= 2 => {
                        (acc.d[i - 2].s1, acc.d[j - 2].s1, acc.cross(i - 2, j - 2))
                    }
                    _ => return 0.0,
                };
                covariance(n, sx, sy, sxy) / n as f64
            };
            // Half points: a paired difference lies in [-2, 2].
            let inv = crate::stats::invert_effect(&grid, &curve, &acc.d[a], 2.0, var);
            let (lo, hi) = inv.interval();
            out.worth.push(Worth {
                class,
                arm: *arm,
                label: arm.label(&self.field),
                effect: Est::share(&acc.d[a]),
                health: inv.x,
                health_lo: lo,
                health_hi: hi,
                censor: inv.censor,
            });
        }
        self.paired(class, arms, acc, &grid, &curve, out);
    }

    /// Each candidate's worth against each other item's for `class`, as measured on the same
    /// battles (issue 63): the variance of their difference, from both inverses' gradients
    /// through the one health curve and the products of their effects. Nothing from sums kept
    /// without those products.
    fn paired(
        &self,
        class: Class,
        arms: &[Arm],
        acc: &ItemAcc,
        grid: &[f64],
        curve: &[f64],
        out: &mut Findings,
    ) {
        let n = acc.d[0].n;
        if acc.width != arms.len() || n < 2 {
            return;
        }
        let item = |a: &Arm| match *a {
            Arm::Health(_) => None,
            Arm::Item(_, _, i) | Arm::Armor(_, _, i) => Some(i),
        };
        let inverse = |a: usize| {
            crate::stats::curve_inverse(grid, curve, acc.d[a].mean())
                .ok()
                .map(|(_, g)| g)
        };
        // Covariance of variable x of arm a (0 its effect, 1 the base: exact, 2.. the curve's
        // points) with variable y of arm b.
        let cov = |a: usize, x: usize, b: usize, y: usize| -> f64 {
            let var = |x: usize, a: usize| if x == 0 { Some(a) } else { x.checked_sub(2) };
            match (var(x, a), var(y, b)) {
                (Some(i), Some(j)) => {
                    covariance(n, acc.d[i].s1, acc.d[j].s1, acc.cross(i, j)) / n as f64
                }
                _ => 0.0,
            }
        };
        let quad = |a: usize, ga: &[f64], b: usize, gb: &[f64]| -> f64 {
            let mut s = 0.0;
            for (x, &u) in ga.iter().enumerate().filter(|(_, u)| **u != 0.0) {
                for (y, &v) in gb.iter().enumerate().filter(|(_, v)| **v != 0.0) {
                    s += u * v * cov(a, x, b, y);
                }
            }
            s
        };
        for (c, arm) in arms.iter().enumerate() {
            if !item(arm).is_some_and(|i| self.candidates.contains(&i)) {
                continue;
            }
            let gc = inverse(c);
            for (m, other) in arms.iter().enumerate() {
                if m == c || item(other).is_none() {
                    continue;
                }
                let key = (
                    class.name().to_string(),
                    arm.label(&self.field),
                    other.label(&self.field),
                );
                // Their win-share changes' difference, and their worths' where both are on
                // the ladder.
                let v = cov(c, 0, c, 0) + cov(m, 0, m, 0) - 2.0 * cov(c, 0, m, 0);
                if v.is_finite() {
                    out.paired_effect.insert(key.clone(), v.max(0.0));
                }
                let (Some(gc), Some(gm)) = (&gc, inverse(m)) else {
                    continue;
                };
                let v = quad(c, gc, c, gc) + quad(m, &gm, m, &gm) - 2.0 * quad(c, gc, m, &gm);
                if v.is_finite() {
                    out.paired.insert(key, v.max(0.0));
                }
            }
        }
    }

    /// Battles the whole study plays (for the progress bar; leave one out counted at its most).
    pub fn planned(&self) -> u64 {
        let items: u64 = Class::ALL
            .iter()
            .map(|&c| self.battles * (self.arms(c).len() as u64 + 1))
            .sum();
        items
            + 4 * 36 * self.cell
            + self.battles * (1 + 2 * (self.field.rules.item_slots as u64 + 1))
            + 4 * self.battles * self.sets.len() as u64
    }
}

crate::table! {
    /// `item_worth.parquet`: each item's worth to each class.
    struct WorthRow, WorthRows = "item_worth" {
        class: Code => "the focal champion's class",
        item: Label => "the item given (tier, kind or armor weight, name)",
        effect: f64 => "change in the side's win share (paired)",
        effect_lo: f64 => "95% interval, low",
        effect_hi: f64 => "95% interval, high",
        health: f64 => "extra health with the same effect",
        health_lo: f64 => "95% interval, low (-inf/inf when censored)",
        health_hi: f64 => "95% interval, high",
        battles: u64 => "paired battles behind the row",
    }
}

crate::table! {
    /// `pairings.parquet`: the 6x6 pairing matrices.
    struct PairingRow, PairingRows = "pairings" {
        crit: Label => "the crit reading (LA-10)",
        equipped: bool => "random items (else bare)",
        pair: Label => "the pair measured",
        opponent: Label => "the pair it fights",
        share: f64 => "its win share (draws half)",
        share_lo: f64 => "95% interval, low",
        share_hi: f64 => "95% interval, high",
        battles: u64 => "battles in the cell",
    }
}

crate::table! {
    /// `leave_one_out.parquet`: what each item is worth to the field by its absence.
    struct LeaveOneOutRow, LeaveOneOutRows = "leave_one_out" {
        item: Label => "the item removed (tier and kind)",
        drop: f64 => "the side's win share lost without it",
        drop_lo: f64 => "95% interval, low",
        drop_hi: f64 => "95% interval, high",
        removals: u64 => "paired removals behind the row",
    }
}

crate::table! {
    /// `sets.parquet`: each class's policies for writing its sets.
    struct SetRow, SetRows = "sets" {
        class: Label => "the focal champion's class",
        policy: Label => "the policy it played (LA-20)",
        share: f64 => "its side's win share",
        share_lo: f64 => "95% interval, low",
        share_hi: f64 => "95% interval, high",
        vs_first: f64 => "win share minus the first candidate's (paired)",
        vs_first_lo: f64 => "95% interval, low",
        vs_first_hi: f64 => "95% interval, high",
    }
}

/// The findings as tables.
pub fn tables(f: &Findings) -> Vec<Table> {
    let mut worth = WorthRows::default();
    for x in &f.worth {
        worth.push(WorthRow {
            class: x.class as u16,
            item: &x.label,
            effect: x.effect.mean,
            effect_lo: x.effect.lo,
            effect_hi: x.effect.hi,
            health: x.health,
            health_lo: x.health_lo,
            health_hi: x.health_hi,
            battles: x.effect.n,
        });
    }
    let mut pairings = PairingRows::default();
    for x in &f.pairings {
        pairings.push(PairingRow {
            crit: &format!("{:?}", x.crit),
            equipped: x.equipped,
            pair: &pair_name(x.pair),
            opponent: &pair_name(x.opponent),
            share: x.share.mean,
            share_lo: x.share.lo,
            share_hi: x.share.hi,
            battles: x.share.n,
        });
    }
    let mut loo = LeaveOneOutRows::default();
    for x in &f.leave_one_out {
        loo.push(LeaveOneOutRow {
            item: &x.item,
            drop: x.drop.mean,
            drop_lo: x.drop.lo,
            drop_hi: x.drop.hi,
            removals: x.drop.n,
        });
    }
    let mut sets = SetRows::default();
    for x in &f.sets {
        sets.push(SetRow {
            class: x.class.name(),
            policy: &x.policy,
            share: x.share.mean,
            share_lo: x.share.lo,
            share_hi: x.share.hi,
            vs_first: x.vs_first.mean,
            vs_first_lo: x.vs_first.lo,
            vs_first_hi: x.vs_first.hi,
        });
    }
    let classes = Class::ALL.iter().map(|c| c.name().to_string()).collect();
    vec![
        worth.finish().with_labels("class", classes),
        pairings.finish(),
        loo.finish(),
        sets.finish(),
    ]
}

/// The findings in the platform's result model (issue 50): item worth in health and the sets'
/// win shares per class, and what each item's loss costs, each with its 95% interval.
pub fn answer(f: &Findings, seed: u64, command: &str) -> crate::platform::answer::Answer {
    use crate::platform::answer::{Answer, Estimate, Provenance, Section, Unit};
    let est = |label: &str, e: &Est| Estimate {
        label: label.to_string(),
        value: e.mean,
        lo: e.lo,
        hi: e.hi,
        count: e.n,
        exact: false,
        se: None,
    };
    let mut sections = Vec::new();
    let mut notes = Vec::new();
    for class in Class::ALL {
        let mut worth = Vec::new();
        for w in f.worth.iter().filter(|w| w.class == class) {
            match w.censor {
                Censor::No => worth.push(Estimate {
                    label: w.label.clone(),
                    value: w.health,
                    lo: w.health_lo,
                    hi: w.health_hi,
                    count: w.effect.n,
                    exact: false,
                    se: None,
                }),
                Censor::Below => notes.push(format!(
                    "{}, {}: below 0 health (no measurable gain)",
                    class.name(),
                    w.label
                )),
                Censor::Above => notes.push(format!(
                    "{}, {}: over {} health",
                    class.name(),
                    w.label,
                    GRID[N_GRID - 1]
                )),
            }
        }
        if !worth.is_empty() {
            sections.push(Section {
                band: None,
                better: None,
                title: format!("item worth for a {}, in health", class.name()),
                meaning: "the extra health that changes the focal champion's win share as much as the item (LA-32)".into(),
                unit: Unit::Number,
                estimates: worth,
            });
        }
    }
    let mut loo = f.leave_one_out.clone();
    loo.sort_by(|a, b| b.drop.mean.total_cmp(&a.drop.mean));
    if !f.removed_once.is_empty() {
        notes.push(format!(
            "leave one out: {} removed only once in these battles, so no interval can be measured for {}; more battles (--battles) measure {}",
            f.removed_once.join(", "),
            if f.removed_once.len() == 1 { "it" } else { "them" },
            if f.removed_once.len() == 1 { "it" } else { "them" },
        ));
    }
    if !loo.is_empty() {
        sections.push(Section {
            band: None,
            better: None,
            title: "leave one out".into(),
            meaning: "side 0's win share lost without one of its items".into(),
            unit: Unit::Share,
            estimates: loo.iter().map(|x| est(&x.item, &x.drop)).collect(),
        });
    }
    for class in Class::ALL {
        let rows: Vec<Estimate> = f
            .sets
            .iter()
            .filter(|x| x.class == class)
            .map(|x| est(&x.policy, &x.share))
            .collect();
        if !rows.is_empty() {
            sections.push(Section {
                band: None,
                better: None,
                title: format!("sets for a {}", class.name()),
                meaning: "the focal champion's side's win share by its policy".into(),
                unit: Unit::Share,
                estimates: rows,
            });
        }
    }
    // The pairing matrices (issue 52: README's class-balance figures come from here): each
    // pair's mean win share over the six opponents, per crit reading and bare or equipped, and
    // the matrix itself as a heat map.
    let mut heatmaps = Vec::new();
    let mut readings: Vec<Crit> = Vec::new();
    for p in &f.pairings {
        if !readings.contains(&p.crit) {
            readings.push(p.crit);
        }
    }
    for (crit, equipped) in readings.into_iter().flat_map(|c| [(c, false), (c, true)]) {
        let cell = |p: usize, q: usize| {
            f.pairings
                .iter()
                .find(|x| {
                    x.crit == crit && x.equipped == equipped && x.pair == p && x.opponent == q
                })
                .map(|x| x.share)
        };
        let kit = if equipped { "equipped" } else { "bare" };
        let mut rows = Vec::new();
        for p in 0..6 {
            let cells: Vec<Est> = (0..6).filter_map(|q| cell(p, q)).collect();
            if cells.len() != 6 {
                continue;
            }
            // Independent cells: the mean's standard error from theirs.
            let mean = cells.iter().map(|e| e.mean).sum::<f64>() / 6.0;
            let se = cells.iter().map(|e| e.se.powi(2)).sum::<f64>().sqrt() / 6.0;
            rows.push(Estimate {
                label: pair_name(p).to_string(),
                value: mean,
                lo: mean - crate::stats::Z95 * se,
                hi: mean + crate::stats::Z95 * se,
                count: cells.iter().map(|e| e.n).sum(),
                exact: false,
                se: None,
            });
        }
        if rows.len() == 6 {
            rows.sort_by(|a, b| b.value.total_cmp(&a.value));
            sections.push(Section {
                band: None,
                better: None,
                title: format!("pairings, {kit}, crit = {}", crit.word()),
                meaning: "each pair's win share against the six pairs, averaged".into(),
                unit: Unit::Share,
                estimates: rows,
            });
            heatmaps.push(crate::platform::answer::HeatMap {
                title: format!(
                    "pairings, {kit}, crit = {}: row's win share against column",
                    crit.word()
                ),
                meaning: "the row pair's win share against the column pair".into(),
                unit: Unit::Share,
                rows: (0..6).map(|p| pair_name(p).to_string()).collect(),
                columns: (0..6).map(|q| pair_name(q).to_string()).collect(),
                values: (0..6)
                    .map(|p| {
                        (0..6)
                            .map(|q| cell(p, q).map_or(f64::NAN, |e| e.mean))
                            .collect()
                    })
                    .collect(),
            });
        }
    }
    Answer {
        verdict: Vec::new(),
        highlight: Vec::new(),
        outcome: None,
        apart: Vec::new(),
        title: format!(
            "loot items: {} battles, seed {seed}",
            crate::platform::tally::thousands(f.battles)
        ),
        provenance: Provenance {
            command: command.to_string(),
            source: "loot-items".into(),
            version: env!("CARGO_PKG_VERSION").into(),
            seed,
            matches: f.battles,
            played: f.battles,
            settings: serde_json::Value::Null,
            inputs: Default::default(),
        },
        totals: vec![(
            "battles".into(),
            crate::platform::tally::thousands(f.battles),
        )],
        sections,
        tables: ["item_worth", "pairings", "leave_one_out", "sets"]
            .map(String::from)
            .to_vec(),
        notes,
        heatmaps,
        grids: grids(f),
    }
}

/// The summary's grids (issue 50): each item's win-share change and worth in health per class,
/// the pairs' mean win share per reading, what each item's loss costs, and the sets per class
/// (the pairing matrices themselves are the answer's heat maps).
/// Each candidate item's verdict in every class (issue 51): its rank among the catalogue's items
/// of its tier by worth, paired on the same battles (issue 63); where its worth is beyond the
/// ladder (or below it), ranked by the win-share change itself, which the worth only translates
/// into health. Its label joins the answer's highlights.
pub fn candidate_verdicts(
    st: &Study,
    found: &Findings,
    answer: &mut crate::platform::answer::Answer,
) {
    // Each section the candidate is ranked in, its label, and each member's measured
    // difference variance.
    type Asked = (crate::platform::answer::Section, String, Vec<(String, f64)>);
    let mut asks: Vec<Asked> = Vec::new();
    for &i in &st.candidates {
        let it = &st.field.catalogue.items[i as usize];
        let label = format!("{} ({})", it.label(), it.name);
        answer.highlight.push(label.clone());
        let tier = it.tier.name();
        for sec in answer.sections.clone() {
            if !sec.title.starts_with("item worth") {
                continue;
            }
            let mut same_tier = sec.clone();
            same_tier.title = format!("{} among {tier} items", sec.title);
            same_tier.estimates.retain(|e| e.label.starts_with(tier));
            // Measured on the same battles: each difference's variance as paired (issue 63).
            let class = Class::ALL
                .into_iter()
                .map(|c| c.name())
                .find(|c| sec.title == format!("item worth for a {c}, in health"))
                .unwrap_or_default();
            let var_diff = measured(&same_tier, &found.paired, class, &label);
            asks.push((same_tier, label.clone(), var_diff));
        }
        // A class where its worth is beyond the ladder (or below it): ranked by the win-share
        // change itself, which the worth only translates into health (issue 63: every
        // candidate gets a verdict for every class).
        for class in Class::ALL {
            let censored = found.worth.iter().any(|w| {
                w.class == class && w.label == label && w.censor != crate::stats::Censor::No
            });
            if !censored {
                continue;
            }
            let section = crate::platform::answer::Section {
                band: None,
                better: None,
                title: format!(
                    "win-share change for a {} among {tier} items (its worth is {})",
                    class.name(),
                    match found
                        .worth
                        .iter()
                        .find(|w| w.class == class && w.label == label)
                    {
                        Some(w) if w.censor == crate::stats::Censor::Above =>
                            format!("over {} health, beyond the ladder", GRID[N_GRID - 1]),
                        _ => "below 0 health".to_string(),
                    }
                ),
                meaning: "the focal champion's win-share change with the item".into(),
                unit: crate::platform::answer::Unit::Points,
                estimates: found
                    .worth
                    .iter()
                    .filter(|w| w.class == class && w.label.starts_with(tier))
                    .map(|w| crate::platform::answer::Estimate {
                        label: w.label.clone(),
                        value: w.effect.mean,
                        lo: w.effect.lo,
                        hi: w.effect.hi,
                        count: w.effect.n,
                        exact: false,
                        se: None,
                    })
                    .collect(),
            };
            let var_diff = measured(&section, &found.paired_effect, class.name(), &label);
            asks.push((section, label.clone(), var_diff));
        }
    }
    // Every candidate's every class is one verdict card, one family (issue 80).
    let lookups: Vec<_> = asks
        .iter()
        .map(|(_, _, v)| move |other: &str| v.iter().find(|(l, _)| l == other).map(|x| x.1))
        .collect();
    let card: Vec<crate::platform::pairing::Ask> = asks
        .iter()
        .zip(&lookups)
        .map(|((sec, label, _), f)| {
            (
                sec,
                label.as_str(),
                crate::stats::Better::Higher,
                f as &dyn Fn(&str) -> Option<f64>,
            )
        })
        .collect();
    for ((sec, _, _), judged) in asks
        .iter()
        .zip(crate::platform::pairing::card_standings(&card))
    {
        if let Some((st, apart)) = judged {
            answer.verdict.push(st.line(sec));
            answer.apart.extend(apart);
        }
    }
}

/// Each estimate of `sec` whose difference from the candidate `label` was measured on the same
/// battles in `class` (`paired`, keyed by class, candidate and member), with that variance.
fn measured(
    sec: &crate::platform::answer::Section,
    paired: &std::collections::BTreeMap<(String, String, String), f64>,
    class: &str,
    label: &str,
) -> Vec<(String, f64)> {
    sec.estimates
        .iter()
        .filter_map(|e| {
            let key = (class.to_string(), label.to_string(), e.label.clone());
            Some((e.label.clone(), *paired.get(&key)?))
        })
        .collect()
}

fn grids(f: &Findings) -> Vec<Grid> {
    let est = |e: &Est| Cell::estimate((e.mean, e.lo, e.hi));
    let mut out = Vec::new();
    for class in Class::ALL {
        let mut g = Grid::new(
            &format!("item worth for a {}", class.name()),
            "the focal champion's win-share change with the item, and the extra health that changes it as much (LA-32), with 95% intervals",
            "item",
            &[
                ("win-share change [95%]", Unit::Points),
                ("health [95%]", Unit::Number),
            ],
        );
        for w in f.worth.iter().filter(|w| w.class == class) {
            let health = match w.censor {
                Censor::No => Cell::estimate((w.health, w.health_lo, w.health_hi)),
                Censor::Below => Cell::Text("below 0 (no measurable gain)".into()),
                Censor::Above => Cell::Text(format!("over {}", GRID[N_GRID - 1])),
            };
            g.row(w.label.clone(), vec![est(&w.effect), health]);
        }
        if !g.rows.is_empty() {
            out.push(g);
        }
    }
    let mut readings: Vec<(Crit, bool)> = Vec::new();
    for p in &f.pairings {
        if !readings.contains(&(p.crit, p.equipped)) {
            readings.push((p.crit, p.equipped));
        }
    }
    if !readings.is_empty() {
        let heads: Vec<String> = readings
            .iter()
            .map(|(c, e)| {
                format!(
                    "{}, crit = {}",
                    if *e { "equipped" } else { "bare" },
                    c.word()
                )
            })
            .collect();
        let columns: Vec<(&str, Unit)> = heads.iter().map(|h| (h.as_str(), Unit::Share)).collect();
        let mut g = Grid::new(
            "pairings",
            "each pair's mean win share against the six pairs, by kit and crit reading (the matrices are below)",
            "pair",
            &columns,
        );
        for p in 0..6 {
            let cells = readings
                .iter()
                .map(|&(crit, equipped)| {
                    let v: Vec<f64> = f
                        .pairings
                        .iter()
                        .filter(|x| x.crit == crit && x.equipped == equipped && x.pair == p)
                        .map(|x| x.share.mean)
                        .collect();
                    Cell::Value(v.iter().sum::<f64>() / v.len().max(1) as f64)
                })
                .collect();
            g.row(pair_name(p), cells);
        }
        out.push(g);
    }
    let mut loo = f.leave_one_out.clone();
    loo.sort_by(|a, b| b.drop.mean.total_cmp(&a.drop.mean));
    let mut g = Grid::new(
        "leave one out",
        "side 0's win share lost without one of its items, with its 95% interval",
        "item",
        &[
            ("win share lost [95%]", Unit::Points),
            ("removals", Unit::Number),
        ],
    );
    for x in &loo {
        g.row(x.item.clone(), vec![est(&x.drop), Cell::Count(x.drop.n)]);
    }
    if !g.rows.is_empty() {
        out.push(g);
    }
    for class in Class::ALL {
        let rows: Vec<_> = f.sets.iter().filter(|x| x.class == class).collect();
        let Some(best) = rows
            .iter()
            .max_by(|a, b| a.share.mean.total_cmp(&b.share.mean))
        else {
            continue;
        };
        let mut g = Grid::new(
            &format!("sets for a {}", class.name()),
            &format!(
                "the focal champion's side's win share by its policy, and against the first candidate (paired), with 95% intervals; best: {}",
                best.policy
            ),
            "set",
            &[
                ("win share [95%]", Unit::Share),
                ("against the first [95%]", Unit::Points),
            ],
        );
        for x in rows {
            g.row(x.policy.clone(), vec![est(&x.share), est(&x.vs_first)]);
        }
        out.push(g);
    }
    out
}

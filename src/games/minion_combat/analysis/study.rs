//! The study behind `analyze minions`. Every combat's seed is `match_seed(seed, index)` with an
//! index fixed by the question, arm-free, and cell, so arms of one comparison replay the same
//! random choices (common random numbers, MC-30) and the answers do not depend on threads.
//!
//! - Stat worth (MC-32): a focal group and an opponent drawn from the field; the focal group is
//!   played as drawn and with every minion given +1 hand (those with hand damage), +1 missile
//!   (those with missile damage), +1 armor, +4 max HP, +1 level (within the range), +1 attack per
//!   round (combatants), each on the same seeds. Paired differences in win points and HP left.
//! - Monster worth (MC-33): each monster alone against 1..8 baseline swordsmen and, separately,
//!   archers; the number it beats half the time, interpolated between the counts around 50%.
//! - Matchups (MC-34): every pool minion as a group of `size` of its kind against every other.
//! - Splits (MC-35): 8 baseline recruits, s swordsmen and 8 - s archers, against each other and
//!   against the field.
//! - Nations (MC-36): a nation's swordsmen and archers (4 + 4) against the field, with its
//!   ability and, on the same seeds, without it.

// Cells index several parallel tables at once: index loops say so plainly.
#![allow(clippy::needless_range_loop)]

use crate::error::Error;

use std::ops::Range;

use rayon::prelude::*;

use crate::games::minion_combat::input::combat::minion_spec;
use crate::games::minion_combat::kernel::combat::{Combat, Silent, Unit};
use crate::games::minion_combat::rules::{MAX_GROUP, Rules};
use crate::games::minion_combat::simulation::combats::{Field, fielded};
use crate::games::minion_combat::state::{Minion, Outcome};
use crate::platform::answer::Unit as Shown;
use crate::platform::grid::{Cell, Grid};
use crate::platform::ledger::{Ledger, Sums as LedgerSums};
use crate::platform::table::{Code, Table};
use crate::platform::tally::{Mean, thousands};
use crate::rng::match_seed;

/// The stat changes measured, as (name, change).
pub const STATS: [&str; 6] = [
    "+1 hand",
    "+1 missile",
    "+1 armor",
    "+4 max HP",
    "+1 level",
    "+1 attack",
];

/// Applies stat change `k` of [`STATS`] to a fielded minion.
pub fn improve(m: &mut Minion, k: usize, r: &Rules) {
    match k {
        0 => m.hand = m.hand.map(|h| h + 1),
        1 => m.missile = m.missile.map(|h| h + 1),
        2 => m.armor += 1,
        3 => {
            m.hp += 4;
            m.max_hp += 4;
        }
        4 => m.level = r.clamp_level(m.level + 1),
        _ => {
            if m.hand.is_some() || m.missile.is_some() {
                m.attacks += 1
            }
        }
    }
}

/// What the study plays.
pub struct Study {
    pub field: Field,
    /// Paired combats per stat and per nation.
    pub combats: u64,
    /// Combats per matrix cell and per ladder rung.
    pub cell: u64,
    /// Minions per group in the minion matrix.
    pub size: usize,
    /// Baseline swordsman and archer specs (catalogue names, with modifiers).
    pub swordsman: String,
    pub archer: String,
}

impl Study {
    /// What the study's kept cells hold for (issue 51: all but its counts), as values (issue 78:
    /// its rules and catalogue were their debug text): the version, the seed, the field's flags
    /// (`field`), every rules number, the catalogue by digest, the group size and the baselines.
    /// A folder's cells are continued only under the same identity.
    pub fn identity(&self, seed: u64, field: String) -> serde_json::Value {
        let (rules, catalogue) = (&self.field.rules, &self.field.catalogue);
        let mut id = crate::platform::ledger::identity(seed, field, rules, catalogue);
        id.insert("size".into(), self.size.into());
        id.insert("swordsman".into(), self.swordsman.clone().into());
        id.insert("archer".into(), self.archer.clone().into());
        id.into()
    }

    /// The study of `field` with its baseline recruits named by `swordsman` and `archer`
    /// (catalogue specs): the split fields them in one group, so each must be a recruit (MC-1;
    /// issue 53: a monster here measured groups the rules forbid, with exit 0).
    pub fn new(
        field: Field,
        combats: u64,
        cell: u64,
        size: usize,
        swordsman: &str,
        archer: &str,
    ) -> Result<Study, Error> {
        for (flag, spec) in [("--swordsman", swordsman), ("--archer", archer)] {
            let (minions, _) = minion_spec(spec, &field.catalogue, &field.rules)
                .map_err(|e| format!("{flag}: {e}"))?;
            if minions.iter().any(|m| !m.recruit) {
                return Err(Error::Input(format!(
                    "{flag} `{spec}`: a monster; the split fields swordsmen and archers together, and a group is all recruits or all monsters (MC-1): name a recruit, e.g. `Dwarf swordsman`"
                )));
            }
        }
        Ok(Study {
            field,
            combats,
            cell,
            size,
            swordsman: swordsman.to_string(),
            archer: archer.to_string(),
        })
    }
}

/// One stat's or nation's paired result.
#[derive(Clone, Debug, Default)]
pub struct Paired {
    pub name: String,
    /// Win points (2 win, 1 draw, 0 loss) of the focal group, as played and changed.
    pub base: Mean,
    pub changed: Mean,
    /// Per-combat differences: win points and HP left.
    pub points: Mean,
    pub hp: Mean,
}

#[derive(Clone, Debug)]
pub struct Rung {
    pub monster: String,
    /// Win points of the monster against k = 1..8 swordsmen, and against archers.
    pub vs: [[Mean; MAX_GROUP]; 2],
    /// Baseline recruits it beats half the time (interpolated); None: beyond 1..8.
    pub worth: [Option<f64>; 2],
}

/// A round robin: `names` and the row's win points against each column.
#[derive(Clone, Debug, Default)]
pub struct Matrix {
    pub names: Vec<String>,
    pub cells: Vec<Vec<Mean>>,
}

impl Matrix {
    /// A row's win points over every other column.
    pub fn row(&self, i: usize) -> Mean {
        let mut m = Mean::default();
        for (j, c) in self.cells[i].iter().enumerate() {
            if j != i {
                m.merge(c);
            }
        }
        m
    }
}

pub struct Found {
    pub stats: Vec<Paired>,
    pub monsters: Vec<Rung>,
    pub minions: Matrix,
    pub splits: Matrix,
    /// Each split's win points against the field.
    pub splits_vs_field: Vec<Mean>,
    pub nations: Vec<Paired>,
    pub combats: u64,
    /// Combats played by this run (the rest were kept in the folder).
    pub played: u64,
}

/// Question numbers in the seed index, so no two questions share a seed.
const Q_STATS: u64 = 1;
const Q_MONSTERS: u64 = 2;
const Q_MATRIX: u64 = 3;
const Q_SPLITS: u64 = 4;
const Q_SPLIT_FIELD: u64 = 5;
const Q_NATIONS: u64 = 6;

fn index(q: u64, cell: u64, m: u64) -> u64 {
    (q << 56) | (cell << 32) | m
}

fn units(ms: &[Minion], r: &Rules) -> Vec<Unit> {
    ms.iter().map(|m| Unit::new(m, r)).collect()
}

/// Plays `n` combats of `a` against `b`, side of precedence alternating, into `a`'s win points.
/// Side 0's win points over combats `0..n` in parallel; `play(kernel, m)` plays combat m.
fn points(range: Range<u64>, play: impl Fn(&mut Combat, u64) -> Outcome + Sync) -> Mean {
    range
        .into_par_iter()
        .fold(
            || (Combat::new(), Mean::default()),
            |(mut k, mut acc), m| {
                acc.add(play(&mut k, m).points(0) as i64);
                (k, acc)
            },
        )
        .map(|(_, m)| m)
        .reduce(Mean::default, |mut x, y| {
            x.merge(&y);
            x
        })
}

fn ladder(
    a: &[Unit],
    b: &[Unit],
    r: &Rules,
    seed: u64,
    q: u64,
    cell: u64,
    range: Range<u64>,
) -> Mean {
    points(range, |k, m| {
        let s = match_seed(seed, index(q, cell, m));
        k.play([a, b], (m & 1) as usize, r, s, &mut Silent)
    })
}

impl Study {
    /// Combats the study plays, for the progress bar.
    pub fn planned(&self) -> u64 {
        let f = &self.field;
        let pool = (f.pool[0].len() + f.pool[1].len()) as u64;
        let monsters = f.pool[1].len() as u64;
        let nations = f.rules.nations.iter().filter(|n| n.bonus.is_some()).count() as u64;
        self.combats * (1 + STATS.len() as u64)
            + monsters * 16 * self.cell
            + pool * pool * self.cell
            + 81 * self.cell
            + 9 * self.combats
            + nations * 2 * self.combats
    }

    fn group(&self, spec: &str, n: usize) -> Result<Vec<Minion>, Error> {
        let (ms, _) = minion_spec(spec, &self.field.catalogue, &self.field.rules)
            .map_err(|e| format!("baseline `{spec}`: {e}"))?;
        if !ms[0].kernel_plays() {
            return Err(Error::Input(format!(
                "baseline `{spec}` carries effects (MC-41) that only `minions combat` plays; name a minion without them"
            )));
        }
        Ok(vec![ms[0].clone(); n])
    }

    /// Runs every question, its sums kept by cell in `ledger` (issue 51: a run continued with
    /// more combats, or one shard of several, plays only its new or its own cells); `tick(n)` is
    /// told after each batch of `n` combats. `None` when the ledger is not whole (a shard's run).
    pub fn run(
        &self,
        seed: u64,
        ledger: &mut Ledger,
        tick: &(dyn Fn(u64) + Sync),
    ) -> Result<Option<Found>, Error> {
        let f = &self.field;
        let r = &f.rules;
        let mut total = 0u64;
        // Blocks of a cell are played side by side (the ledger's groups): an atomic count.
        let now = std::sync::atomic::AtomicU64::new(0);
        // A cell's new combats (`per` played for each index), told as they are played.
        let played = |range: &Range<u64>, per: u64| {
            let n = (range.end - range.start) * per;
            now.fetch_add(n, std::sync::atomic::Ordering::Relaxed);
            tick(n);
        };
        // MC-32: stat worth on paired combats against the field.
        let sums: Vec<Paired> = ledger.cell("stat worth", self.combats, |rg| {
            played(&rg, 1 + STATS.len() as u64);
            self.stat_worth(seed, rg)
        })?;
        total += self.combats * (1 + STATS.len() as u64);
        let stats: Vec<Paired> = sums
            .into_iter()
            .zip(STATS)
            .map(|(p, n)| Paired {
                name: n.to_string(),
                ..p
            })
            .collect();
        // MC-33: monsters against baseline recruits.
        let recruits = [
            units(&self.group(&self.swordsman, MAX_GROUP)?, r),
            units(&self.group(&self.archer, MAX_GROUP)?, r),
        ];
        let mut monsters = Vec::new();
        for (c, &id) in f.pool[1].iter().enumerate() {
            let me = [f.units[id as usize]];
            let mut vs: [[Mean; MAX_GROUP]; 2] = Default::default();
            for kind in 0..2 {
                for k in 1..=MAX_GROUP {
                    let cell = ((c * 2 + kind) * 8 + k) as u64;
                    let key = format!("monster {c}/{kind}/{k}");
                    vs[kind][k - 1] = ledger.cell(&key, self.cell, |rg| {
                        played(&rg, 1);
                        ladder(&me, &recruits[kind][..k], r, seed, Q_MONSTERS, cell, rg)
                    })?;
                }
            }
            let worth = [0, 1].map(|kind| crossing(&vs[kind]));
            monsters.push(Rung {
                monster: f.catalogue.minions[id as usize].name.clone(),
                vs,
                worth,
            });
            total += 16 * self.cell;
        }
        // MC-34: the minion matrix.
        let pool: Vec<u16> = f.pool[0].iter().chain(&f.pool[1]).copied().collect();
        let size = self.size.clamp(1, MAX_GROUP);
        let mut minions = Matrix {
            names: pool
                .iter()
                .map(|&i| f.catalogue.minions[i as usize].name.clone())
                .collect(),
            cells: Vec::new(),
        };
        for (a, &x) in pool.iter().enumerate() {
            let ga = vec![f.units[x as usize]; size];
            let mut row = Vec::new();
            for (b, &y) in pool.iter().enumerate() {
                let gb = vec![f.units[y as usize]; size];
                let cell = (a * pool.len() + b) as u64;
                row.push(ledger.cell(&format!("matrix {a}/{b}"), self.cell, |rg| {
                    played(&rg, 1);
                    ladder(&ga, &gb, r, seed, Q_MATRIX, cell, rg)
                })?);
            }
            minions.cells.push(row);
            total += pool.len() as u64 * self.cell;
        }
        // MC-35: swordsman/archer splits.
        let sword = self.group(&self.swordsman, 1)?.remove(0);
        let archer = self.group(&self.archer, 1)?.remove(0);
        let split_groups: Vec<Vec<Unit>> = (0..=MAX_GROUP)
            .map(|s| {
                let mut g = vec![sword.clone(); s];
                g.extend(vec![archer.clone(); MAX_GROUP - s]);
                units(&g, r)
            })
            .collect();
        let mut splits = Matrix {
            names: (0..=MAX_GROUP)
                .map(|s| format!("{s} swordsmen + {} archers", MAX_GROUP - s))
                .collect(),
            cells: Vec::new(),
        };
        for a in 0..=MAX_GROUP {
            let mut row = Vec::new();
            for b in 0..=MAX_GROUP {
                let cell = (a * 9 + b) as u64;
                row.push(ledger.cell(&format!("split {a}/{b}"), self.cell, |rg| {
                    played(&rg, 1);
                    let (ga, gb) = (&split_groups[a], &split_groups[b]);
                    ladder(ga, gb, r, seed, Q_SPLITS, cell, rg)
                })?);
            }
            splits.cells.push(row);
        }
        total += 81 * self.cell;
        let mut splits_vs_field = Vec::new();
        for (s, g) in split_groups.iter().enumerate() {
            let key = format!("split {s} against the field");
            splits_vs_field.push(ledger.cell(&key, self.combats, |rg| {
                played(&rg, 1);
                self.against_field(g, seed, Q_SPLIT_FIELD, r, rg)
            })?);
        }
        total += 9 * self.combats;
        // MC-36: nation abilities, on and off.
        let mut nations = Vec::new();
        for (ni, n) in r.nations.iter().enumerate() {
            if n.bonus.is_none() {
                continue;
            }
            let specs = [
                format!("{} swordsman", n.name),
                format!("{} archer", n.name),
            ];
            let mut g = Vec::new();
            for s in &specs {
                if f.catalogue.find(s).is_some() {
                    g.extend(self.group(s, MAX_GROUP / 2)?);
                }
            }
            if g.is_empty() {
                continue;
            }
            let mut off = r.clone();
            off.nations[ni].bonus = None;
            let (with, without) = (units(&g, r), units(&g, &off));
            let p: Paired = ledger.cell(&format!("nation {ni}"), self.combats, |rg| {
                played(&rg, 2);
                self.paired(&with, &without, seed, ni as u64, rg)
            })?;
            nations.push(Paired {
                name: format!("{} ({})", n.name, ability(n.bonus)),
                ..p
            });
            total += 2 * self.combats;
        }
        if !ledger.whole() {
            return Ok(None);
        }
        Ok(Some(Found {
            stats,
            monsters,
            minions,
            splits,
            splits_vs_field,
            nations,
            combats: total,
            played: now.load(std::sync::atomic::Ordering::Relaxed),
        }))
    }

    /// `g`'s win points against field opponents (side 1 of the field's draws).
    fn against_field(&self, g: &[Unit], seed: u64, q: u64, r: &Rules, range: Range<u64>) -> Mean {
        let f = &self.field;
        points(range, |k, m| {
            let s = match_seed(seed, index(q, 0, m));
            let d = f.draw(m, s);
            k.play([g, d.sides()[1]], d.first, r, s, &mut Silent)
        })
    }

    /// A nation's group with its ability (`a`) and without (`b`), paired on the field's draws.
    fn paired(&self, a: &[Unit], b: &[Unit], seed: u64, cell: u64, range: Range<u64>) -> Paired {
        let f = &self.field;
        let r = &f.rules;
        range
            .into_par_iter()
            .fold(
                || (Combat::new(), Paired::default()),
                |(mut k, mut p), m| {
                    let s = match_seed(seed, index(Q_NATIONS, cell, m));
                    let d = f.draw(m, s);
                    let x = k.play([a, d.sides()[1]], d.first, r, s, &mut Silent);
                    let y = k.play([b, d.sides()[1]], d.first, r, s, &mut Silent);
                    add_pair(&mut p, &x, &y);
                    (k, p)
                },
            )
            .map(|(_, p)| p)
            .reduce(Paired::default, merge_paired)
    }

    /// MC-32: each stat change paired against the group as drawn.
    fn stat_worth(&self, seed: u64, range: Range<u64>) -> Vec<Paired> {
        let f = &self.field;
        let r = &f.rules;
        range
            .into_par_iter()
            .fold(
                || (Combat::new(), vec![Paired::default(); STATS.len()]),
                |(mut k, mut ps), m| {
                    let s = match_seed(seed, index(Q_STATS, 0, m));
                    let d = f.draw(m, s);
                    let base = k.play(d.sides(), d.first, r, s, &mut Silent);
                    let mut changed = [Unit::default(); MAX_GROUP];
                    for (st, p) in ps.iter_mut().enumerate() {
                        for i in 0..d.n[0] {
                            let mut x = fielded(&f.catalogue.minions[d.id[0][i] as usize], r);
                            improve(&mut x, st, r);
                            changed[i] = Unit::new(&x, r);
                        }
                        let o = k.play(
                            [&changed[..d.n[0]], d.sides()[1]],
                            d.first,
                            r,
                            s,
                            &mut Silent,
                        );
                        add_pair(p, &o, &base);
                    }
                    (k, ps)
                },
            )
            .map(|(_, p)| p)
            .reduce(
                || vec![Paired::default(); STATS.len()],
                |a, b| {
                    a.into_iter()
                        .zip(b)
                        .map(|(x, y)| merge_paired(x, y))
                        .collect()
                },
            )
    }
}

impl LedgerSums for Paired {
    fn to_ints(&self) -> Vec<i64> {
        [self.base, self.changed, self.points, self.hp]
            .iter()
            .flat_map(|m| m.to_ints())
            .collect()
    }
    fn from_ints(v: &[i64]) -> Option<Self> {
        if v.len() != 12 {
            return None;
        }
        let m = |k: usize| <Mean as LedgerSums>::from_ints(&v[3 * k..3 * k + 3]);
        Some(Paired {
            name: String::new(),
            base: m(0)?,
            changed: m(1)?,
            points: m(2)?,
            hp: m(3)?,
        })
    }
    fn merge(&mut self, o: &Self) {
        *self = merge_paired(std::mem::take(self), o.clone());
    }
}

/// Adds one pair: `changed` against `base`, side 0 focal.
fn add_pair(p: &mut Paired, changed: &Outcome, base: &Outcome) {
    let (c, b) = (changed.points(0) as i64, base.points(0) as i64);
    p.changed.add(c);
    p.base.add(b);
    p.points.add(c - b);
    p.hp.add(changed.hp_left(0) - base.hp_left(0));
}

fn merge_paired(mut a: Paired, b: Paired) -> Paired {
    a.base.merge(&b.base);
    a.changed.merge(&b.changed);
    a.points.merge(&b.points);
    a.hp.merge(&b.hp);
    a
}

fn ability(b: Option<(crate::games::minion_combat::rules::Attack, u32, i32)>) -> String {
    match b {
        Some((a, g, n)) => format!("{n:+} {} in round {g}", a.word()),
        None => "none".into(),
    }
}

/// The count of recruits a monster beats half the time: between the last count it beats at
/// least half the time and the next, by linear interpolation of its win share (against no
/// recruits it wins: share 1 at count 0). `None`: it beats even 8 half the time.
pub fn crossing(vs: &[Mean; MAX_GROUP]) -> Option<f64> {
    let mut prev = 1.0;
    for (k, m) in vs.iter().enumerate() {
        let p = m.mean() / 2.0;
        if p < 0.5 {
            return Some(k as f64 + (prev - 0.5) / (prev - p));
        }
        prev = p;
    }
    None
}

fn share(m: &Mean) -> (f64, f64, f64) {
    m.points_estimate()
}

crate::table! {
    /// `stat_worth.parquet` (and, its `change` told anew, `nation_worth.parquet`): a change's
    /// paired effect on the focal group.
    struct PairedRow, PairedRows = "stat_worth" {
        change: Code => "the stat change given to every minion of the focal group (MC-32)",
        combats: u64 => "paired combats",
        win_share: f64 => "the focal group's win share as played (draws half)",
        win_share_changed: f64 => "with the change, same seeds",
        win_share_gain: f64 => "mean paired difference in win share",
        gain_lo: f64 => "its 95% interval, low end",
        gain_hi: f64 => "high end",
        hp_gain: f64 => "mean paired difference in the focal group's HP left",
        hp_gain_lo: f64 => "its 95% interval, low end",
        hp_gain_hi: f64 => "high end",
    }
}

crate::table! {
    /// `monster_worth.parquet`: a row per monster, recruits' kind and count.
    struct MonsterRow, MonsterRows = "monster_worth" {
        monster: Code => "the monster, alone",
        recruits: Code => "the baseline recruits it fights",
        count: u8 => "how many of them",
        combats: u64 => "combats played",
        win_share: f64 => "the monster's win share (draws half)",
        worth_swordsmen_x100: Option<i32> => "swordsmen it beats half the time, x100 (null: it beats 8)",
        worth_archers_x100: Option<i32> => "archers it beats half the time, x100",
    }
}

crate::table! {
    /// `splits.parquet` (and, without `a_vs_field`, `minion_matrix.parquet`): every pairing's
    /// win share.
    struct MatrixRow, MatrixRows = "splits" {
        a: Code => "8 baseline recruits, swordsmen + archers (MC-35)",
        b: Code => "its opponent",
        combats: u64 => "combats played",
        win_share: f64 => "a's win share (draws half)",
        a_vs_field: f64 => "a's win share against the field",
    }
}

/// The tables: stat_worth, monster_worth, minion_matrix, splits, nation_worth.
pub fn tables(f: &Found) -> Vec<Table> {
    let paired = |rows: &[Paired]| {
        let mut t = PairedRows::default();
        for (i, p) in rows.iter().enumerate() {
            let (d, lo, hi) = share(&p.points);
            let (hlo, hhi) = p.hp.ci95();
            t.push(PairedRow {
                change: i as u16,
                combats: p.points.n,
                win_share: share(&p.base).0,
                win_share_changed: share(&p.changed).0,
                win_share_gain: d,
                gain_lo: lo,
                gain_hi: hi,
                hp_gain: p.hp.mean(),
                hp_gain_lo: hlo,
                hp_gain_hi: hhi,
            });
        }
        t.finish()
            .with_labels("change", rows.iter().map(|p| p.name.clone()).collect())
    };
    let mut monsters = MonsterRows::default();
    for (i, r) in f.monsters.iter().enumerate() {
        let x100 = |w: Option<f64>| w.map(|x| (x * 100.0).round() as i32);
        for kd in 0..2 {
            for c in 0..MAX_GROUP {
                monsters.push(MonsterRow {
                    monster: i as u16,
                    recruits: kd as u16,
                    count: c as u8 + 1,
                    combats: r.vs[kd][c].n,
                    win_share: r.vs[kd][c].mean() / 2.0,
                    worth_swordsmen_x100: x100(r.worth[0]),
                    worth_archers_x100: x100(r.worth[1]),
                });
            }
        }
    }
    let monsters = monsters
        .finish()
        .with_labels(
            "monster",
            f.monsters.iter().map(|r| r.monster.clone()).collect(),
        )
        .with_labels("recruits", vec!["swordsmen".into(), "archers".into()]);
    // `vs_field`: each row's `a` against the field (the splits'; the minion matrix has none).
    let matrix = |m: &Matrix, vs_field: &dyn Fn(usize) -> f64| {
        let mut t = MatrixRows::default();
        for i in 0..m.names.len() {
            for j in 0..m.names.len() {
                t.push(MatrixRow {
                    a: i as u16,
                    b: j as u16,
                    combats: m.cells[i][j].n,
                    win_share: m.cells[i][j].mean() / 2.0,
                    a_vs_field: vs_field(i),
                });
            }
        }
        t.finish()
            .with_labels("a", m.names.clone())
            .with_labels("b", m.names.clone())
    };
    vec![
        paired(&f.stats),
        monsters,
        matrix(&f.minions, &|_| f64::NAN)
            .without("a_vs_field")
            .named("minion_matrix")
            .with_doc("a", "a group of one pool minion (MC-34)"),
        matrix(&f.splits, &|i| f.splits_vs_field[i].mean() / 2.0),
        paired(&f.nations).named("nation_worth").with_doc(
            "change",
            "a nation's 4 swordsmen + 4 archers, ability on vs off (MC-36)",
        ),
    ]
}

/// The summary a user reads.
/// The findings in the platform's result model (issue 50): each stat's and nation ability's
/// win-share change, and each split's win share against the field, with 95% intervals;
/// monster worth (a count, not an estimate with an interval) stays in its table and summary.
pub fn answer(f: &Found, st: &Study, seed: u64, command: &str) -> crate::platform::answer::Answer {
    use crate::platform::answer::{Answer, Estimate, Provenance, Section, Unit};
    let est = |label: &str, m: &Mean| {
        let (x, lo, hi) = share(m);
        Estimate {
            label: label.to_string(),
            value: x,
            lo,
            hi,
            count: m.n,
            exact: false,
            se: None,
        }
    };
    let sections = vec![
        Section {
            band: None,
            better: None,
            title: "what a stat is worth".into(),
            meaning: "win share change when every minion of a random field group gets the stat, paired (MC-32)".into(),
            unit: Unit::Share,
            estimates: f.stats.iter().map(|p| est(&p.name, &p.points)).collect(),
        },
        Section {
            band: None,
            better: None,
            title: "splits against the field".into(),
            meaning: "win share of 8 recruits split between the baseline swordsman and archer, against the field (MC-35)".into(),
            unit: Unit::Share,
            estimates: f
                .splits
                .names
                .iter()
                .zip(&f.splits_vs_field)
                .map(|(n, m)| est(n, m))
                .collect(),
        },
        Section {
            band: None,
            better: None,
            title: "nation abilities".into(),
            meaning: "win share change of a nation's group with its ability on rather than off, paired (MC-36)".into(),
            unit: Unit::Share,
            estimates: f.nations.iter().map(|p| est(&p.name, &p.points)).collect(),
        },
    ];
    Answer {
        verdict: Vec::new(),
        highlight: Vec::new(),
        outcome: None,
        apart: Vec::new(),
        title: format!(
            "analyze minions: {} combats, seed {seed}",
            thousands(f.combats)
        ),
        provenance: Provenance {
            command: command.to_string(),
            source: "minions-study".into(),
            version: env!("CARGO_PKG_VERSION").into(),
            seed,
            matches: f.combats,
            played: f.combats,
            settings: serde_json::Value::Null,
            inputs: Default::default(),
        },
        totals: vec![("combats".into(), thousands(f.combats))],
        sections: sections
            .into_iter()
            .filter(|s| !s.estimates.is_empty())
            .collect(),
        tables: [
            "stat_worth",
            "monster_worth",
            "minion_matrix",
            "splits",
            "nation_worth",
        ]
        .map(String::from)
        .to_vec(),
        notes: vec![format!(
            "no combat ability in the rules (9-HP nations have it in their stat blocks): {}",
            st.field
                .rules
                .nations
                .iter()
                .filter(|n| n.bonus.is_none())
                .map(|n| n.name.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        )],
        heatmaps: Vec::new(),
        grids: grids(f, st),
    }
}

/// The summary's grids (issue 50): what a stat is worth, each monster's worth in baseline
/// recruits, the minion matrix's top and bottom ten, the splits, and the nation abilities.
fn grids(f: &Found, st: &Study) -> Vec<Grid> {
    let points = |m: &Mean| Cell::estimate(share(m));
    let mut stats = Grid::new(
        "what a stat is worth",
        &format!(
            "given to every minion of a random field group, paired on {} combats (MC-32): win share change and HP left change, 95% intervals",
            thousands(st.combats)
        ),
        "stat",
        &[
            ("win-share change [95%]", Shown::Points),
            ("HP left change [95%]", Shown::Signed),
        ],
    );
    for p in &f.stats {
        stats.row(
            p.name.clone(),
            vec![points(&p.points), Cell::estimate(p.hp.estimate())],
        );
    }
    let mut monsters = Grid::new(
        "monster worth in baseline recruits",
        &format!(
            "each monster alone against 1-8 `{}` / `{}` (MC-33): the count it beats half the time ({} combats per count)",
            st.swordsman,
            st.archer,
            thousands(st.cell)
        ),
        "monster",
        &[("swordsmen", Shown::Number), ("archers", Shown::Number)],
    );
    let mut rows: Vec<&Rung> = f.monsters.iter().collect();
    rows.sort_by(|a, b| {
        b.worth[0]
            .unwrap_or(9.0)
            .total_cmp(&a.worth[0].unwrap_or(9.0))
    });
    let worth = |w: Option<f64>| w.map_or(Cell::Text("> 8".into()), Cell::Value);
    for r in rows {
        monsters.row(
            r.monster.clone(),
            vec![worth(r.worth[0]), worth(r.worth[1])],
        );
    }
    let m = &f.minions;
    let mut order: Vec<usize> = (0..m.names.len()).collect();
    order.sort_by(|&a, &b| m.row(b).mean().total_cmp(&m.row(a).mean()));
    let mut matrix = Grid::new(
        "minion matrix",
        &format!(
            "groups of {} of one pool minion against every other (MC-34): mean win share over the row, top and bottom 10",
            st.size
        ),
        "minion",
        &[("rank", Shown::Number), ("win share", Shown::Share)],
    );
    let n = order.len();
    for (rank, &i) in order.iter().enumerate() {
        if rank < 10 || rank + 10 >= n {
            matrix.row(
                m.names[i].clone(),
                vec![
                    Cell::Count(rank as u64 + 1),
                    Cell::Value(0.5 * m.row(i).mean()),
                ],
            );
        } else if rank == 10 {
            matrix.row("...", vec![Cell::Empty, Cell::Empty]);
        }
    }
    let mut splits = Grid::new(
        "splits",
        &format!(
            "8 recruits, `{}` and `{}` (MC-35): win share against the other splits and against the field",
            st.swordsman, st.archer
        ),
        "split",
        &[
            ("round robin", Shown::Share),
            ("against the field [95%]", Shown::Share),
            ("", Shown::Number),
        ],
    );
    let best = (0..f.splits.names.len())
        .max_by(|&a, &b| {
            f.splits_vs_field[a]
                .mean()
                .total_cmp(&f.splits_vs_field[b].mean())
        })
        .unwrap_or(0);
    for i in 0..f.splits.names.len() {
        splits.row(
            f.splits.names[i].clone(),
            vec![
                Cell::Value(0.5 * f.splits.row(i).mean()),
                points(&f.splits_vs_field[i]),
                if i == best {
                    Cell::Text("<- best against the field".into())
                } else {
                    Cell::Empty
                },
            ],
        );
    }
    let mut nations = Grid::new(
        "nation abilities",
        &format!(
            "4 swordsmen + 4 archers of the nation against the field, ability on vs off, paired on {} combats (MC-36)",
            thousands(st.combats)
        ),
        "nation",
        &[("win-share change [95%]", Shown::Points)],
    );
    for p in &f.nations {
        nations.row(p.name.clone(), vec![points(&p.points)]);
    }
    vec![stats, monsters, matrix, splits, nations]
}

/// A host's candidate minion against the field (issue 51, `analyze minions --candidate`).
pub struct CandidateFound {
    pub name: String,
    /// Its win points alone against k = 1..8 baseline swordsmen, and archers (MC-33's ladder).
    pub vs: [[Mean; MAX_GROUP]; 2],
    /// Baseline recruits it beats half the time; `None`: beyond 1..8.
    pub worth: [Option<f64>; 2],
    /// Each monster of the pool on the same ladder (its worth against swordsmen), for the rank.
    pub monsters: Vec<(String, Option<f64>)>,
    /// Side 0's group of the field's draw, every minion replaced by the candidate, and on the
    /// same seeds by the baseline swordsman: win points of each and their paired difference.
    pub field: Paired,
    pub combats: u64,
}

const Q_CANDIDATE: u64 = 7;

impl Study {
    /// The candidate's questions: its worth in baseline recruits (the monster ladder) and its
    /// win share against the field, paired against the baseline swordsman on the same draws.
    pub fn candidate(&self, m: &Minion, seed: u64) -> Result<CandidateFound, Error> {
        let f = &self.field;
        let r = &f.rules;
        let recruits = [
            units(&self.group(&self.swordsman, MAX_GROUP)?, r),
            units(&self.group(&self.archer, MAX_GROUP)?, r),
        ];
        let rung = |me: &[Unit], cell_of: &dyn Fn(usize, usize) -> (u64, u64)| {
            let mut vs: [[Mean; MAX_GROUP]; 2] = Default::default();
            for kind in 0..2 {
                for k in 1..=MAX_GROUP {
                    let (q, cell) = cell_of(kind, k);
                    vs[kind][k - 1] =
                        ladder(me, &recruits[kind][..k], r, seed, q, cell, 0..self.cell);
                }
            }
            vs
        };
        let me = Unit::new(m, r);
        let vs = rung(&[me], &|kind, k| (Q_CANDIDATE, (kind * 8 + k) as u64));
        let worth = [0, 1].map(|kind| crossing(&vs[kind]));
        // The pool's monsters on their own ladder seeds (the full study's numbers).
        let monsters = f.pool[1]
            .iter()
            .enumerate()
            .map(|(c, &id)| {
                let vs = rung(&[f.units[id as usize]], &|kind, k| {
                    (Q_MONSTERS, ((c * 2 + kind) * 8 + k) as u64)
                });
                (
                    f.catalogue.minions[id as usize].name.clone(),
                    crossing(&vs[0]),
                )
            })
            .collect();
        let base = recruits[0][0];
        let field = (0..self.combats)
            .into_par_iter()
            .fold(
                || (Combat::new(), Paired::default()),
                |(mut k, mut p), i| {
                    let s = match_seed(seed, index(Q_CANDIDATE, 99, i));
                    let d = f.draw(i, s);
                    let n = d.n[0];
                    let sw = [base; MAX_GROUP];
                    let cand = [me; MAX_GROUP];
                    let o_base = k.play([&sw[..n], d.sides()[1]], d.first, r, s, &mut Silent);
                    let o_cand = k.play([&cand[..n], d.sides()[1]], d.first, r, s, &mut Silent);
                    add_pair(&mut p, &o_cand, &o_base);
                    (k, p)
                },
            )
            .map(|(_, p)| p)
            .reduce(Paired::default, merge_paired);
        Ok(CandidateFound {
            name: m.name.clone(),
            vs,
            worth,
            monsters,
            field,
            combats: self.cell * 16 * (1 + f.pool[1].len() as u64) + 2 * self.combats,
        })
    }
}

/// The candidate's answer: the ladder, its worth, its win share against the field paired
/// against the baseline swordsman, and its rank among the pool's monsters by worth.
pub fn candidate_answer(
    c: &CandidateFound,
    st: &Study,
    seed: u64,
    command: &str,
) -> crate::platform::answer::Answer {
    use crate::platform::answer::{Answer, Estimate, Provenance, Section, Unit};
    let est = |label: String, m: &Mean| {
        let (x, lo, hi) = share(m);
        Estimate {
            label,
            value: x,
            lo,
            hi,
            count: m.n,
            exact: false,
            se: None,
        }
    };
    let mut verdict = Vec::new();
    for (kind, who) in [(0, &st.swordsman), (1, &st.archer)] {
        verdict.push(match c.worth[kind] {
            Some(w) => format!(
                "{} is worth {w:.2} baseline recruits ({who}): it beats that many half the time, alone",
                c.name
            ),
            None => format!(
                "{}: beyond the ladder against {who} (it beats 8, or loses to 1, more often than not)",
                c.name
            ),
        });
    }
    if let Some(w) = c.worth[0] {
        let measured: Vec<f64> = c.monsters.iter().filter_map(|m| m.1).collect();
        let rank = 1 + measured.iter().filter(|&&x| x > w).count();
        verdict.push(format!(
            "{}: rank {rank} of {} among the pool's monsters by worth in {} (those with a worth on the ladder)",
            c.name,
            measured.len() + 1,
            st.swordsman
        ));
    }
    // Win points are 2, 1, 0: half of them is the win share.
    let (d, dlo, dhi) = share(&c.field.points);
    verdict.push(format!(
        "candidate {} against the field: win share {:+.1} points [{:+.1}, {:+.1}] beside the baseline swordsman in the same slots of the same draws (paired)",
        c.name,
        100.0 * d,
        100.0 * dlo,
        100.0 * dhi
    ));
    // The baseline keeps its own label beside a candidate of the same name (a twin).
    let baseline = if c.name == st.swordsman {
        format!("{} (baseline)", st.swordsman)
    } else {
        st.swordsman.clone()
    };
    let ladder = |kind: usize, who: &str| Section {
        band: None,
        better: None,
        title: format!("{} alone against k {who}", c.name),
        meaning: "its win share against 1..8 baseline recruits (MC-33's ladder), 95% interval"
            .into(),
        unit: Unit::Share,
        estimates: (0..MAX_GROUP)
            .map(|k| est(format!("{} x {who}", k + 1), &c.vs[kind][k]))
            .collect(),
    };
    Answer {
        verdict,
        highlight: vec![c.name.clone()],
        outcome: None,
        // Its only test: the paired difference against the baseline, told apart where its
        // interval leaves out 0.
        apart: vec![crate::platform::answer::Apart {
            candidate: c.name.clone(),
            member: baseline.clone(),
            section: "against the field".into(),
            told: dlo > 0.0 || dhi < 0.0,
        }],
        title: format!(
            "analyze minions --candidate: {} combats, seed {seed}",
            thousands(c.combats)
        ),
        provenance: Provenance {
            command: command.to_string(),
            source: "minions-candidate".into(),
            version: env!("CARGO_PKG_VERSION").into(),
            seed,
            matches: c.combats,
            played: c.combats,
            settings: serde_json::Value::Null,
            inputs: Default::default(),
        },
        totals: vec![("combats".into(), thousands(c.combats))],
        sections: vec![
            Section {
                band: None,
                better: None,
                title: "against the field".into(),
                meaning: "win share of side 0's drawn group made all of the candidate, and all of the baseline swordsman, on the same draws (common random numbers)".into(),
                unit: Unit::Share,
                estimates: vec![
                    est(c.name.clone(), &c.field.changed),
                    est(baseline.clone(), &c.field.base),
                ],
            },
            ladder(0, &st.swordsman),
            ladder(1, &st.archer),
        ],
        tables: Vec::new(),
        notes: Vec::new(),
        heatmaps: Vec::new(),
        grids: Vec::new(),
    }
}

//! What a power is worth in coins (`skirmish analyze rumble powers`, AR-44).
//!
//! Each *roster* is a random battle seen from one hero, the *focal* hero (slot 0), and played
//! many times over with one change each ("arms"): as drawn (the base), with the focal hero given
//! k more unspent coins (the coin curve), holding one power, the *rival* (slot 1) holding one
//! power, or a pair of those. Every arm of a roster shares its heroes, coins and base initiatives
//! (common random numbers), so the differences between arms are measured on the same battles and
//! most of the noise cancels. A power's coin value is where the coin curve reaches the power's
//! win-rate effect; its interval comes from the delta method (`crate::stats::invert_curve`).
//!
//! Sums are integers, so the result does not depend on the thread count; the stopping rule is
//! checked between fixed batches of rosters, so it does not either.

use crate::error::Error;
use std::ops::Range;

use rand::RngExt;
use rayon::prelude::*;

use crate::games::auto_rumble::kernel::data::{self, DataKernel};
use crate::games::auto_rumble::powers::catalogue::{
    Catalogue, Held, Loadout, MAX_HELD, MAX_USE, PowerId, Use,
};
use crate::games::auto_rumble::rules;
use crate::games::auto_rumble::simulation::ffa::{MAX_HEROES, Room, pick_fitting, use_order};
use crate::platform::answer::Unit;
use crate::platform::grid::{Cell, Grid};
use crate::platform::table::{Code, Table};
use crate::rng::{Stream, match_seed, match_stream_rng, unit_f64};
use crate::stats::{Censor, Inverse, Sums, covariance};

/// Most coin-curve points (the grid lives on the stack per roster).
pub const MAX_GRID: usize = 48;

/// Groups of rosters a what-if pairs by (issue 63): enough degrees of freedom for a t interval,
/// few enough that each group's sums are steady.
pub const GROUPS: usize = 20;

/// The analysis settings. Ranges are inclusive `[min, max]`.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct ValueSettings {
    /// Power file; `None`: the built-in six sample powers.
    pub power_file: Option<String>,
    /// A host's file of new powers (issue 51): valued against the catalogue's powers as the
    /// field, ranked among them, on the same rosters.
    pub candidates: Option<String>,
    /// The powers to value, by name; empty: every power of the file.
    pub powers: Vec<String>,
    /// Heroes per battle (the focal hero, the rival and the field).
    pub heroes: [u8; 2],
    /// Every hero's unspent coins as drawn.
    pub coins: [i32; 2],
    /// Powers per field hero (slots 2 and up), drawn from every power of the file.
    pub field_powers: [u8; 2],
    /// Strength of each field power.
    pub field_strength: [i32; 2],
    /// Strengths at which powers that read their strength are valued; the middle one is used
    /// for pairs and for powers that do not read it.
    pub strengths: Vec<i32>,
    /// Coin offsets of the coin curve (0, the base, is implied).
    pub grid: Vec<i32>,
    /// Target 95% half-width of every coin value, in coins.
    pub precision: f64,
    /// Most battles to play.
    pub max_battles: u64,
    /// Rosters per batch: the stopping rule is checked after each.
    pub batch: u64,
    /// Pairs of powers both held by the focal hero, sampled per roster (round robin).
    pub synergy_per_roster: u32,
    /// (power, rival's power) pairs sampled per roster (round robin).
    pub counter_per_roster: u32,
    pub max_rounds: u32,
    pub capacity: u32,
    /// A rules file (issue 51); `None`: the seed's numbers.
    pub rules_file: Option<String>,
}

impl Default for ValueSettings {
    fn default() -> ValueSettings {
        ValueSettings {
            power_file: None,
            candidates: None,
            powers: Vec::new(),
            heroes: [3, 8],
            coins: [-30, 60],
            field_powers: [0, 2],
            field_strength: [1, 30],
            strengths: vec![10, 20, 40],
            grid: vec![
                -60, -45, -30, -20, -10, 10, 20, 30, 45, 60, 80, 100, 125, 150,
            ],
            precision: 1.0,
            max_battles: 50_000_000,
            batch: 2_000,
            synergy_per_roster: 8,
            counter_per_roster: 8,
            max_rounds: rules::DEFAULT_MAX_ROUNDS,
            capacity: 256,
            rules_file: None,
        }
    }
}

/// One power at one strength: a row of the per-power table.
#[derive(Clone, Debug)]
pub struct Arm {
    /// Index into [`PowerValue::powers`].
    pub power: usize,
    pub strength: i32,
}

/// The settings, checked and compiled.
pub struct PowerValue {
    pub settings: ValueSettings,
    pub cat: Catalogue,
    /// The powers valued, as catalogue ids.
    pub powers: Vec<PowerId>,
    /// Whether each valued power reads its strength.
    pub scales: Vec<bool>,
    /// Each valued power's arm at the middle strength (pairs and the rival use it).
    pub default_arm: Vec<usize>,
    pub arms: Vec<Arm>,
    /// The coin curve's x: the grid with 0 inserted, ascending.
    pub grid: Vec<i32>,
    /// Index of 0 in `grid`.
    zero: usize,
    /// The middle strength: pairs, the rival and powers that do not read theirs use it.
    mid: i32,
    /// Pairs (indices into `powers`) the focal hero can hold together.
    pub synergy: Vec<(usize, usize)>,
    /// (focal's power, rival's power), every ordered pair.
    pub counter: Vec<(usize, usize)>,
    /// Pairs that cannot be held together (too many clauses or counters), by name.
    pub unpairable: Vec<(String, String)>,
    /// Every power of the file: what field heroes draw from.
    field: Vec<PowerId>,
    /// The candidates' powers (issue 51), valued but never drawn by the field.
    pub candidates: Vec<PowerId>,
    /// The candidates' arms and the catalogue powers' arms (middle strength): their products
    /// are summed per roster, so each candidate is compared with each member on the same
    /// rosters (issue 63).
    cand_arms: Vec<usize>,
    field_arms: Vec<usize>,
}

fn loadout_error(what: &str, e: impl std::fmt::Display) -> String {
    format!("{what}: {e}")
}

impl PowerValue {
    /// Checks every setting; messages name the setting and the fix.
    pub fn new(
        src: &crate::platform::sources::Sources,
        settings: ValueSettings,
    ) -> Result<PowerValue, Error> {
        let (cat, candidates) = with_candidates(
            src,
            settings.power_file.as_deref(),
            settings.candidates.as_deref(),
        )?;
        let cat = cat.with_rules_file(src, settings.rules_file.as_deref())?;
        let s = &settings;
        for (field, r) in [
            ("heroes", [s.heroes[0] as i64, s.heroes[1] as i64]),
            ("coins", [s.coins[0] as i64, s.coins[1] as i64]),
            (
                "field-powers",
                [s.field_powers[0] as i64, s.field_powers[1] as i64],
            ),
            (
                "field-strength",
                [s.field_strength[0] as i64, s.field_strength[1] as i64],
            ),
        ] {
            if r[0] > r[1] {
                return Err(Error::Input(format!(
                    "--{field}: the range {}..{} is empty; give MIN..MAX with MIN <= MAX",
                    r[0], r[1]
                )));
            }
        }
        if s.heroes[0] < 2 || s.heroes[1] > MAX_HEROES {
            return Err(Error::Input(format!(
                "--heroes: {}..{} is outside 2..{MAX_HEROES}: a battle needs the focal hero and a rival",
                s.heroes[0], s.heroes[1]
            )));
        }
        if s.field_powers[1] as usize > MAX_HELD || s.field_powers[1] as usize > cat.len() {
            return Err(Error::Input(format!(
                "--field-powers: at most {} distinct powers per hero here; lower the maximum",
                MAX_HELD.min(cat.len())
            )));
        }
        if s.strengths.is_empty() || s.strengths.iter().any(|&x| x < 0) {
            return Err("--strengths: give one or more strengths >= 0, e.g. 10,20,40".into());
        }
        let mut sorted = s.strengths.clone();
        sorted.sort_unstable();
        sorted.dedup();
        if sorted.len() != s.strengths.len() {
            return Err("--strengths: list each strength once".into());
        }
        let mut grid = s.grid.clone();
        grid.sort_unstable();
        grid.dedup();
        if grid.len() != s.grid.len()
            || grid.contains(&0)
            || !grid.iter().any(|&k| k > 0)
            || grid.len() >= MAX_GRID
        {
            return Err(
                "--grid: give distinct non-zero coin offsets (fewer than 48) with at least one above 0, e.g. -30,-10,10,30,60"
                    .into(),
            );
        }
        let reach = s.coins[0].unsigned_abs().max(s.coins[1].unsigned_abs()) as i64
            + grid
                .iter()
                .map(|k| k.unsigned_abs() as i64)
                .max()
                .unwrap_or(0);
        if reach > rules::MAX_ABS_COINS as i64 {
            return Err(Error::Input(format!(
                "--coins and --grid reach {reach} coins, beyond {} (AR-18): narrow them",
                rules::MAX_ABS_COINS
            )));
        }
        if s.precision.is_nan() || s.precision <= 0.0 || !s.precision.is_finite() {
            return Err("--precision: give a positive number of coins, e.g. 1".into());
        }
        if s.batch == 0 {
            return Err("--batch: give at least 1 roster per batch".into());
        }
        crate::games::auto_rumble::input::scenario::check_limits(
            s.max_rounds,
            s.capacity,
            s.heroes[1],
            ["--max-rounds", "--capacity"],
        )?;
        cat.check_work(
            cat.drawable.iter().copied(),
            s.capacity as usize,
            s.max_rounds,
            "--capacity",
        )?;
        let mut powers = Vec::new();
        if s.powers.is_empty() {
            // AR-55: helper powers are valued only through the powers that summon them.
            powers = cat.drawable.clone();
        } else {
            for name in &s.powers {
                let p = cat.drawable_id(name, "--power")?;
                if powers.contains(&p) {
                    return Err(Error::Input(format!(
                        "--power: `{name}` is named twice; name it once"
                    )));
                }
                powers.push(p);
            }
        }
        let mid = sorted[(sorted.len() - 1) / 2];
        let scales: Vec<bool> = powers
            .iter()
            .map(|&p| cat.defs[p as usize].reads_strength())
            .collect();
        let mut arms = Vec::new();
        let mut default_arm = Vec::new();
        for (i, &p) in powers.iter().enumerate() {
            let levels: Vec<i32> = if scales[i] { sorted.clone() } else { vec![mid] };
            for &st in &levels {
                if st == mid {
                    default_arm.push(arms.len());
                }
                let held = [Held {
                    power: p,
                    strength: st,
                }];
                compile(&cat, 0, &held).map_err(|e| loadout_error(cat.name(p), e))?;
                arms.push(Arm {
                    power: i,
                    strength: st,
                });
            }
        }
        let mut synergy = Vec::new();
        let mut unpairable = Vec::new();
        for i in 0..powers.len() {
            for j in i + 1..powers.len() {
                let held = [
                    Held {
                        power: powers[i],
                        strength: mid,
                    },
                    Held {
                        power: powers[j],
                        strength: mid,
                    },
                ];
                match compile(&cat, 0, &held) {
                    Ok(_) => synergy.push((i, j)),
                    Err(_) => unpairable.push((
                        cat.name(powers[i]).to_string(),
                        cat.name(powers[j]).to_string(),
                    )),
                }
            }
        }
        let counter = (0..powers.len())
            .flat_map(|i| (0..powers.len()).map(move |j| (i, j)))
            .collect();
        let zero = grid.iter().position(|&k| k > 0).expect("checked above");
        grid.insert(zero, 0);
        // The field is the catalogue's own: a candidate is never drawn against itself.
        let field: Vec<PowerId> = cat
            .drawable
            .iter()
            .copied()
            .filter(|p| !candidates.contains(p))
            .collect();
        let (cand_arms, field_arms) = (0..powers.len())
            .map(|i| (candidates.contains(&powers[i]), default_arm[i]))
            .partition::<Vec<_>, _>(|(c, _)| *c);
        let (cand_arms, field_arms) = (
            cand_arms.into_iter().map(|(_, a)| a).collect(),
            field_arms.into_iter().map(|(_, a)| a).collect(),
        );
        Ok(PowerValue {
            settings,
            cat,
            powers,
            scales,
            default_arm,
            arms,
            grid,
            zero,
            mid,
            synergy,
            counter,
            unpairable,
            field,
            candidates,
            cand_arms,
            field_arms,
        })
    }

    /// Each candidate's standing among the catalogue's powers (issue 51): its coin value and
    /// rank at the middle strength, and how many catalogue powers a test of each difference
    /// tells apart from it at 5% for the family (issue 63, Holm's). Both are valued on the
    /// same rosters, so each difference's variance takes their covariance (the delta method
    /// through the shared coin curve, from the products of their effects summed per roster):
    /// the paired test. A value beyond the grid has no standard error and is told apart from
    /// none.
    pub fn standings(&self, est: &Estimates) -> Vec<Standing> {
        let overall: Vec<&ArmEstimate> = est.overall().collect();
        let at = |i: usize| {
            overall
                .iter()
                .find(|r| r.arm == self.default_arm[i])
                .copied()
        };
        let se = |a: &ArmEstimate| match a.value.censor {
            Censor::No => a.value.se,
            _ => f64::INFINITY,
        };
        let mut out = Vec::new();
        for (i, &p) in self.powers.iter().enumerate() {
            if !self.candidates.contains(&p) {
                continue;
            }
            let Some(me) = at(i) else { continue };
            let (lo, hi) = me.value.interval();
            let members: Vec<(&str, &ArmEstimate)> = self
                .powers
                .iter()
                .enumerate()
                .filter(|(_, q)| !self.candidates.contains(q))
                .filter_map(|(j, &q)| Some((self.cat.name(q), at(j)?)))
                .collect();
            let field: Vec<(f64, f64, Option<f64>)> = members
                .iter()
                .map(|(_, o)| {
                    let cov = est.paired.get(&(me.arm, o.arm)).copied();
                    (o.value.x, se(o), cov)
                })
                .collect();
            // Its card is one section, its own family; the covariances are known (the
            // normal's p-values).
            let (verdict, told) = crate::stats::compare_family_apart(&[(
                (me.value.x, se(me)),
                &field,
                crate::stats::Better::Higher,
                f64::INFINITY,
            )])
            .remove(0);
            out.push(Standing {
                name: self.cat.name(p).to_string(),
                value: me.value.x,
                lo,
                hi,
                censor: me.value.censor,
                verdict,
                apart: members
                    .iter()
                    .zip(told)
                    .map(|((m, _), t)| (m.to_string(), t))
                    .collect(),
            });
        }
        out
    }

    fn synergy_per_roster(&self) -> usize {
        (self.settings.synergy_per_roster as usize).min(self.synergy.len())
    }

    fn counter_per_roster(&self) -> usize {
        (self.settings.counter_per_roster as usize).min(self.counter.len())
    }

    /// Whether the rival's arms (one per power) are played: the counter pairs need them.
    fn rival_arms(&self) -> usize {
        if self.counter_per_roster() > 0 {
            self.powers.len()
        } else {
            0
        }
    }

    /// Battles one roster costs: the base, the coin curve, every arm, the rival's arms, pairs.
    pub fn battles_per_roster(&self) -> u64 {
        (self.grid.len() + self.arms.len() + self.rival_arms()) as u64
            + (self.synergy_per_roster() + self.counter_per_roster()) as u64
    }

    /// One group's sums: its rosters, each arm's effect, each curve point.
    fn group_width(&self) -> usize {
        1 + self.arms.len() + self.grid.len()
    }

    fn strata(&self) -> usize {
        1 + (self.settings.heroes[1] - self.settings.heroes[0]) as usize + 1
    }

    fn empty(&self) -> Accum {
        let k = self.grid.len();
        let a = self.arms.len();
        Accum {
            strata: (0..self.strata())
                .map(|_| Stratum {
                    rosters: 0,
                    base_wins: 0,
                    curve: vec![0; k],
                    curve2: vec![0; k * k],
                    arm: vec![Sums::default(); a],
                    armx: vec![0; a * k],
                    rival: vec![Sums::default(); self.powers.len()],
                })
                .collect(),
            synergy: vec![Sums::default(); self.synergy.len()],
            counter: vec![Sums::default(); self.counter.len()],
            cross: vec![0; self.cand_arms.len() * self.field_arms.len()],
            groups: vec![0; GROUPS * self.group_width()],
            battles: 0,
            capped: 0,
        }
    }

    fn worker(&self) -> Worker {
        let blank = Loadout::compile(&self.cat, 0, &[], &[Use::Attack]).expect("valid");
        let m = MAX_HEROES as usize;
        Worker {
            kernel: DataKernel::new(self.settings.capacity as usize),
            coins: vec![0; m],
            base: vec![0.0; m],
            builds: vec![blank; m],
            initiative: vec![0.0; m],
            arm_d: vec![0; self.arms.len()],
            rival_d: vec![0; self.powers.len()],
            capped: 0,
        }
    }

    /// Draws roster `r` (AR-44): heroes, coins, the field's powers, then base initiatives.
    fn draw(&self, seed: u64, w: &mut Worker) -> usize {
        let s = &self.settings;
        let mut rng = match_stream_rng(seed, Stream::Roster);
        let n = rng.random_range(s.heroes[0]..=s.heroes[1]) as usize;
        let m = self.field.len();
        let mut pool = [0 as PowerId; crate::games::auto_rumble::simulation::ffa::MAX_POOL];
        let m = m.min(pool.len());
        pool[..m].copy_from_slice(&self.field[..m]);
        for h in 0..n {
            w.coins[h] = rng.random_range(s.coins[0]..=s.coins[1]);
            if h < 2 {
                continue;
            }
            let mut k = rng.random_range(s.field_powers[0]..=s.field_powers[1]) as usize;
            let mut held = [Held {
                power: 0,
                strength: 0,
            }; MAX_HELD];
            let mut room = Room::default();
            let mut end = m;
            for j in 0..k {
                // AR-22: a field power that would not fit beside the others is set aside.
                if !pick_fitting(&mut rng, &self.cat, &mut pool, j, &mut end, &mut room) {
                    k = j;
                    break;
                }
                held[j] = Held {
                    power: pool[j],
                    strength: rng.random_range(s.field_strength[0]..=s.field_strength[1]),
                };
            }
            let mut order = [Use::Attack; MAX_USE];
            let len = use_order(&mut rng, &self.cat, &held[..k], &mut order);
            w.builds[h] = Loadout::compile(&self.cat, w.coins[h], &held[..k], &order[..len])
                .expect("a drawn field hero fits by construction (AR-22)");
        }
        let mut rng = match_stream_rng(seed, Stream::Initiative);
        for h in 0..n {
            w.base[h] = unit_f64(&mut rng);
        }
        n
    }

    /// One battle of the drawn roster with the focal hero holding `focal` and `extra` more
    /// coins, and the rival holding `rival`: 1 if the focal hero's team wins.
    fn battle(&self, w: &mut Worker, n: usize, focal: &[Held], extra: i32, rival: &[Held]) -> i64 {
        w.builds[0] = compile(&self.cat, w.coins[0] + extra, focal).expect("checked at setup");
        w.builds[1] = compile(&self.cat, w.coins[1], rival).expect("checked at setup");
        for h in 0..n {
            w.initiative[h] = rules::initiative(w.builds[h].coins, w.base[h]);
        }
        let o = data::play(
            &mut w.kernel,
            &self.cat,
            &w.builds[..n],
            &w.initiative[..n],
            self.settings.max_rounds,
        );
        w.capped += o.capped as u64;
        (o.winner == Some(0)) as i64
    }

    fn held(&self, arm: usize) -> Held {
        let a = &self.arms[arm];
        Held {
            power: self.powers[a.power],
            strength: a.strength,
        }
    }

    /// Plays every arm of roster `r` and adds it to `acc`.
    fn roster(&self, master: u64, r: u64, w: &mut Worker, acc: &mut Accum) {
        let seed = match_seed(master, r);
        let n = self.draw(seed, w);
        let k = self.grid.len();
        let w0 = self.battle(w, n, &[], 0, &[]);
        let mut d = [0i64; MAX_GRID];
        let d = &mut d[..k];
        for (i, &c) in self.grid.iter().enumerate() {
            d[i] = if i == self.zero {
                0
            } else {
                self.battle(w, n, &[], c, &[]) - w0
            };
        }
        for a in 0..self.arms.len() {
            let h = self.held(a);
            w.arm_d[a] = (self.battle(w, n, &[h], 0, &[]) - w0) as i8;
        }
        let mid = self.mid;
        for q in 0..self.rival_arms() {
            let h = Held {
                power: self.powers[q],
                strength: mid,
            };
            w.rival_d[q] = (self.battle(w, n, &[], 0, &[h]) - w0) as i8;
        }
        let stratum = 1 + n - self.settings.heroes[0] as usize;
        for s in [0, stratum] {
            let st = &mut acc.strata[s];
            st.rosters += 1;
            st.base_wins += w0 as u64;
            for i in 0..k {
                st.curve[i] += d[i];
                for j in 0..k {
                    st.curve2[i * k + j] += d[i] * d[j];
                }
            }
            for a in 0..self.arms.len() {
                let x = w.arm_d[a] as i64;
                st.arm[a].add(x);
                if x != 0 {
                    for (acc, &di) in st.armx[a * k..(a + 1) * k].iter_mut().zip(d.iter()) {
                        *acc += x * di;
                    }
                }
            }
            for q in 0..self.rival_arms() {
                st.rival[q].add(w.rival_d[q] as i64);
            }
        }
        let gw = self.group_width();
        let g = &mut acc.groups[(r % GROUPS as u64) as usize * gw..][..gw];
        g[0] += 1;
        for (x, &d) in g[1..].iter_mut().zip(w.arm_d.iter()) {
            *x += d as i64;
        }
        add_all(&mut g[1 + self.arms.len()..], &*d);
        let m = self.field_arms.len();
        for (ci, &ca) in self.cand_arms.iter().enumerate() {
            let x = w.arm_d[ca] as i64;
            if x != 0 {
                let row = &mut acc.cross[ci * m..(ci + 1) * m];
                for (c, &fa) in row.iter_mut().zip(&self.field_arms) {
                    *c += x * w.arm_d[fa] as i64;
                }
            }
        }
        // Pairs, round robin over rosters so every pair gets the same share.
        let m = self.synergy_per_roster();
        for t in 0..m {
            let j = ((r as u128 * m as u128 + t as u128) % self.synergy.len() as u128) as usize;
            let (p, q) = self.synergy[j];
            let (ap, aq) = (self.default_arm[p], self.default_arm[q]);
            let both = [self.held(ap), self.held(aq)];
            let dpq = self.battle(w, n, &both, 0, &[]) - w0;
            acc.synergy[j].add(dpq - w.arm_d[ap] as i64 - w.arm_d[aq] as i64);
        }
        let m = self.counter_per_roster();
        for t in 0..m {
            let j = ((r as u128 * m as u128 + t as u128) % self.counter.len() as u128) as usize;
            let (p, q) = self.counter[j];
            let ap = self.default_arm[p];
            let rival = [Held {
                power: self.powers[q],
                strength: mid,
            }];
            let dpq = self.battle(w, n, &[self.held(ap)], 0, &rival) - w0;
            acc.counter[j].add(dpq - w.arm_d[ap] as i64 - w.rival_d[q] as i64);
        }
        acc.battles += self.battles_per_roster();
    }

    /// Bytes one set of sums takes (its pairs grow as the square of the powers: 1,000
    /// candidates make a million counter pairs), what [`PowerValue::memory`] counts.
    pub fn accum_bytes(&self) -> u64 {
        let (k, a, p) = (
            self.grid.len() as u64,
            self.arms.len() as u64,
            self.powers.len() as u64,
        );
        let sums = std::mem::size_of::<Sums>() as u64;
        let stratum = 8 * (k + k * k + a * k) + sums * (a + p);
        let cross = 8 * (self.cand_arms.len() * self.field_arms.len()) as u64;
        let groups = 8 * (GROUPS * self.group_width()) as u64;
        sums * (self.synergy.len() + self.counter.len()) as u64
            + self.strata() as u64 * stratum
            + cross
            + groups
    }

    /// The memory a run holds in sums: one set per thread while a batch is played (at most
    /// that many: [`PowerValue::play`] splits no finer), and, whatever the threads, the run's
    /// own, the batch's result and one being merged; and what needs it, for the message.
    pub fn memory(&self) -> (u64, u64, String) {
        let one = self.accum_bytes();
        // The folder's saved sums (`state.json`, sealed JSON) are built as a JSON tree and text
        // before they are written: about 2.6 KB per sum at their peak (measured: 3.7 GB for
        // 1,006 powers' 1.5 million pair sums).
        let sums = (self.synergy.len() + self.counter.len()) as u64
            + self.strata() as u64 * (self.arms.len() + self.powers.len()) as u64
            + (self.cand_arms.len() * self.field_arms.len()) as u64
            + (GROUPS * self.group_width()) as u64;
        (
            one,
            one.saturating_mul(3)
                .saturating_add(sums.saturating_mul(2_600)),
            format!(
                "the sums of {} powers and their {} pairs",
                self.powers.len(),
                self.synergy.len() + self.counter.len()
            ),
        )
    }

    /// Plays rosters `range` on the current rayon pool.
    fn play(&self, master: u64, range: Range<u64>) -> Accum {
        const CHUNK: u64 = 8;
        let chunks = (range.end - range.start).div_ceil(CHUNK);
        // One set of sums per thread, not per split (issue 62: a set per split held 1.4 GB and
        // more for 1,000 candidate powers).
        let per_thread = chunks.div_ceil(rayon::current_num_threads().max(1) as u64);
        (0..chunks as usize)
            .into_par_iter()
            .with_min_len(per_thread.max(1) as usize)
            .fold(
                || (self.worker(), self.empty()),
                |(mut w, mut acc), c| {
                    let lo = range.start + c as u64 * CHUNK;
                    for r in lo..(lo + CHUNK).min(range.end) {
                        self.roster(master, r, &mut w, &mut acc);
                    }
                    acc.capped += std::mem::take(&mut w.capped);
                    (w, acc)
                },
            )
            .map(|(_, a)| a)
            .reduce(
                || self.empty(),
                |mut a, b| {
                    a.merge(&b);
                    a
                },
            )
    }

    /// Runs batches until every coin value reaches the precision or the battle budget is spent.
    /// `progress` is told after each batch.
    pub fn run(&self, master: u64, progress: impl FnMut(&Progress)) -> Estimates {
        self.run_from(master, None, &Batches::new(), progress).0
    }

    /// The rosters a run of these settings plays at most.
    pub fn max_rosters(&self) -> u64 {
        self.settings.max_battles / self.battles_per_roster()
    }

    /// [`PowerValue::run`] continued from a finished run's rosters and sums (issue 51), or from
    /// nothing; returns the estimates with the rosters and sums they end on. Batches end on
    /// multiples of the batch size (or the budget) however the run began, and the stopping rule
    /// is checked only there, so a continued run stops where a run that asked for the larger
    /// count from the start stops, with the same sums.
    ///
    /// `ready` holds batches already played elsewhere (shards' batches, issue 51), by first
    /// roster: a batch found there with the same rosters is merged, not played again, so the
    /// stopping rule replays batch by batch exactly as on one machine.
    pub fn run_from(
        &self,
        master: u64,
        from: Option<(u64, Accum)>,
        ready: &Batches,
        mut progress: impl FnMut(&Progress),
    ) -> (Estimates, u64, Accum) {
        let per = self.battles_per_roster();
        let cap = self.max_rosters();
        let batch = self.settings.batch.max(1);
        let (mut done, mut acc) = from.unwrap_or_else(|| (0, self.empty()));
        // The widest half-width at `done` (measured after each batch; at a continued run's
        // start, from its sums).
        let mut worst = None;
        let stop = loop {
            // At least two batches, so that a power that has not yet changed a battle is not
            // taken for one that cannot.
            if done > 0 && (done % batch == 0 || done >= cap) && done >= 2 * batch.min(cap) {
                let w = *worst.get_or_insert_with(|| self.estimate(&acc).worst_half_width());
                if w <= self.settings.precision {
                    break Stop::Precision;
                }
            }
            if done >= cap {
                break Stop::Budget;
            }
            let b = (batch - done % batch).min(cap - done);
            match ready.get(&done) {
                Some((n, part)) if *n == b => acc.merge(part),
                _ => acc.merge(&self.play(master, done..done + b)),
            }
            done += b;
            let w = self.estimate(&acc).worst_half_width();
            worst = Some(w);
            progress(&Progress {
                rosters: done,
                battles: acc.battles,
                max_battles: cap * per,
                worst: w,
            });
        };
        let mut est = self.estimate(&acc);
        est.stop = stop;
        (est, done, acc)
    }

    /// Shard `k` of `of` (issue 51): every `of`-th batch of the budget from the `k`-th, each
    /// played alone (a batch ends where a one-machine run's does: on a multiple of the batch
    /// size, or at the budget). With a precision, a one-machine run may stop before the budget;
    /// shards cannot know where, so they play every batch of it, and the finishing run
    /// ([`PowerValue::run_from`] with these as `ready`) replays the stopping rule over them.
    pub fn run_shard(&self, master: u64, k: u64, of: u64, tick: impl Fn(u64)) -> Batches {
        let cap = self.max_rosters();
        let batch = self.settings.batch.max(1);
        let mut out = Batches::new();
        for b in (0..cap.div_ceil(batch)).filter(|b| b % of == k) {
            let start = b * batch;
            let n = batch.min(cap - start);
            out.insert(start, (n, self.play(master, start..start + n)));
            tick(n);
        }
        out
    }

    /// The estimates from the sums so far.
    pub fn estimate(&self, acc: &Accum) -> Estimates {
        let mut rows = Vec::new();
        for (s, st) in acc.strata.iter().enumerate() {
            if st.rosters < 2 {
                continue;
            }
            let heroes = if s == 0 {
                0
            } else {
                self.settings.heroes[0] + (s - 1) as u8
            };
            let curve = self.curve(st);
            for (a, arm) in self.arms.iter().enumerate() {
                let effect = st.arm[a];
                let value = self.value(st, &curve, a);
                let rival = (self.rival_arms() > 0 && self.default_arm[arm.power] == a)
                    .then(|| st.rival[arm.power]);
                rows.push(ArmEstimate {
                    arm: a,
                    heroes,
                    rosters: st.rosters,
                    base_win_rate: st.base_wins as f64 / st.rosters as f64,
                    effect,
                    value,
                    rival,
                });
            }
        }
        let mut curve = Vec::new();
        for (s, st) in acc.strata.iter().enumerate() {
            let heroes = if s == 0 {
                0
            } else {
                self.settings.heroes[0] + (s - 1) as u8
            };
            for (i, &c) in self.grid.iter().enumerate() {
                let k = self.grid.len();
                curve.push(CurvePoint {
                    heroes,
                    coins: c,
                    sums: Sums {
                        n: st.rosters,
                        s1: st.curve[i],
                        s2: st.curve2[i * k + i],
                    },
                });
            }
        }
        Estimates {
            rows,
            curve,
            synergy: acc.synergy.clone(),
            counter: acc.counter.clone(),
            rosters: acc.strata[0].rosters,
            battles: acc.battles,
            capped: acc.capped,
            stop: Stop::Running,
            paired: self.paired(acc),
        }
    }

    /// Each candidate's coin value's covariance with each catalogue power's over every roster:
    /// the gradients of both inverses through the one coin curve, and the covariances of their
    /// variables (each effect, the curve's points) from the sums of their products.
    fn paired(&self, acc: &Accum) -> std::collections::BTreeMap<(usize, usize), f64> {
        let mut out = std::collections::BTreeMap::new();
        let st = &acc.strata[0];
        let m = self.field_arms.len();
        if st.rosters < 2 || acc.cross.len() != self.cand_arms.len() * m {
            return out;
        }
        let (n, k) = (st.rosters, self.grid.len());
        let grid: Vec<f64> = self.grid.iter().map(|&c| c as f64).collect();
        let curve = self.curve(st);
        let inverse = |a: usize| crate::stats::curve_inverse(&grid, &curve, st.arm[a].mean()).ok();
        let field: Vec<_> = self.field_arms.iter().map(|&a| inverse(a)).collect();
        for (ci, &ca) in self.cand_arms.iter().enumerate() {
            let Some((_, gc)) = inverse(ca) else { continue };
            for (mi, &ma) in self.field_arms.iter().enumerate() {
                let Some((_, gm)) = &field[mi] else { continue };
                // Variable 0 is each one's effect, 1 + i the curve at grid point i.
                let cov = |a: usize, b: usize| -> f64 {
                    let c = match (a, b) {
                        (0, 0) => {
                            covariance(n, st.arm[ca].s1, st.arm[ma].s1, acc.cross[ci * m + mi])
                        }
                        (0, j) => {
                            covariance(n, st.arm[ca].s1, st.curve[j - 1], st.armx[ca * k + j - 1])
                        }
                        (i, 0) => {
                            covariance(n, st.curve[i - 1], st.arm[ma].s1, st.armx[ma * k + i - 1])
                        }
                        (i, j) => covariance(
                            n,
                            st.curve[i - 1],
                            st.curve[j - 1],
                            st.curve2[(i - 1) * k + j - 1],
                        ),
                    };
                    c / n as f64
                };
                let mut c = 0.0;
                for (a, &x) in gc.iter().enumerate().filter(|(_, x)| **x != 0.0) {
                    for (b, &y) in gm.iter().enumerate().filter(|(_, y)| **y != 0.0) {
                        c += x * y * cov(a, b);
                    }
                }
                if c.is_finite() {
                    out.insert((ca, ma), c);
                }
            }
        }
        out
    }

    fn curve(&self, st: &Stratum) -> Vec<f64> {
        let n = st.rosters as f64;
        st.curve.iter().map(|&s| s as f64 / n).collect()
    }

    /// The coin value of arm `a` in stratum `st` (AR-44): the delta method through the
    /// isotonic coin curve.
    fn value(&self, st: &Stratum, curve: &[f64], a: usize) -> Inverse {
        let k = self.grid.len();
        let n = st.rosters;
        let grid: Vec<f64> = self.grid.iter().map(|&c| c as f64).collect();
        let cov = |x: usize, y: usize| -> f64 {
            let c = match (x, y) {
                (0, 0) => covariance(n, st.arm[a].s1, st.arm[a].s1, st.arm[a].s2),
                (0, j) | (j, 0) => {
                    covariance(n, st.arm[a].s1, st.curve[j - 1], st.armx[a * k + j - 1])
                }
                (i, j) => covariance(
                    n,
                    st.curve[i - 1],
                    st.curve[j - 1],
                    st.curve2[(i - 1) * k + j - 1],
                ),
            };
            c / n as f64
        };
        crate::stats::invert_effect(&grid, curve, &st.arm[a], 1.0, cov)
    }
}

/// The use order a hero gets for powers it is handed: the attack, then the powers with a `use`
/// clause in the order given ("newly won powers go to the bottom of the use order", AR-44).
fn order_of(cat: &Catalogue, held: &[Held]) -> ([Use; MAX_USE], usize) {
    let mut order = [Use::Attack; MAX_USE];
    let n = crate::games::auto_rumble::powers::catalogue::default_order_into(cat, held, &mut order);
    (order, n)
}

/// Compiles a hero handed `held` with its default order (AR-44); no allocation.
fn compile(
    cat: &Catalogue,
    coins: i32,
    held: &[Held],
) -> Result<Loadout, crate::games::auto_rumble::powers::catalogue::LoadoutError> {
    let (order, n) = order_of(cat, held);
    Loadout::compile(cat, coins, held, &order[..n])
}

/// A worker's scratch.
struct Worker {
    kernel: DataKernel,
    coins: Vec<i32>,
    base: Vec<f64>,
    builds: Vec<Loadout>,
    initiative: Vec<f64>,
    arm_d: Vec<i8>,
    rival_d: Vec<i8>,
    capped: u64,
}

/// Integer sums of one stratum (all rosters, or those with a given number of heroes). `d`s are
/// paired differences from the base: win(arm) - win(base), in {-1, 0, 1}.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
struct Stratum {
    rosters: u64,
    base_wins: u64,
    /// Per coin-curve point: sum of d, and the products of every two points' d.
    curve: Vec<i64>,
    curve2: Vec<i64>,
    /// Per arm: sums of d; and of d times each curve point's d.
    arm: Vec<Sums>,
    armx: Vec<i64>,
    /// Per power: the rival holding it.
    rival: Vec<Sums>,
}

/// Batches of rosters played apart (a shard's), by first roster: how many rosters, and their
/// sums.
pub type Batches = std::collections::BTreeMap<u64, (u64, Accum)>;

/// Everything measured so far: integer sums, so a run continued from them (issue 51) ends with
/// the sums of a run that asked for the larger count from the start.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Accum {
    strata: Vec<Stratum>,
    synergy: Vec<Sums>,
    counter: Vec<Sums>,
    /// Over every roster, each candidate's effect times each catalogue power's (candidate by
    /// member); absent in a run without candidates, and from sums kept before it was summed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    cross: Vec<i64>,
    /// Over all rosters, split into [`GROUPS`] groups by roster number: each group's rosters,
    /// sums of each arm's effect and of each curve point (issue 63: what pairs a what-if of this
    /// analysis, [`PowerValue::replicates`]); absent from sums kept before it was summed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    groups: Vec<i64>,
    battles: u64,
    capped: u64,
}

fn add_all(a: &mut [i64], b: &[i64]) {
    for (x, y) in a.iter_mut().zip(b) {
        *x += y;
    }
}

impl Accum {
    fn merge(&mut self, o: &Accum) {
        for (a, b) in self.strata.iter_mut().zip(&o.strata) {
            a.rosters += b.rosters;
            a.base_wins += b.base_wins;
            add_all(&mut a.curve, &b.curve);
            add_all(&mut a.curve2, &b.curve2);
            add_all(&mut a.armx, &b.armx);
            for (x, y) in a.arm.iter_mut().zip(&b.arm) {
                x.merge(y);
            }
            for (x, y) in a.rival.iter_mut().zip(&b.rival) {
                x.merge(y);
            }
        }
        for (x, y) in self.synergy.iter_mut().zip(&o.synergy) {
            x.merge(y);
        }
        for (x, y) in self.counter.iter_mut().zip(&o.counter) {
            x.merge(y);
        }
        // Sums kept without the products (an older folder's) leave the covariance unknown.
        if self.cross.len() == o.cross.len() {
            add_all(&mut self.cross, &o.cross);
        } else {
            self.cross.clear();
        }
        if self.groups.len() == o.groups.len() {
            add_all(&mut self.groups, &o.groups);
        } else {
            self.groups.clear();
        }
        self.battles += o.battles;
        self.capped += o.capped;
    }
}

/// Where a run is, after a batch.
#[derive(Clone, Copy, Debug)]
pub struct Progress {
    pub rosters: u64,
    pub battles: u64,
    pub max_battles: u64,
    /// The widest coin-value half-width (infinite while any value is unsettled).
    pub worst: f64,
}

/// Why a run stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    Running,
    Precision,
    Budget,
}

/// One arm in one stratum.
#[derive(Clone, Debug)]
pub struct ArmEstimate {
    pub arm: usize,
    /// 0: every roster; else rosters with this many heroes.
    pub heroes: u8,
    pub rosters: u64,
    pub base_win_rate: f64,
    /// win(holding it) - win(base), per roster.
    pub effect: Sums,
    pub value: Inverse,
    /// win(rival holds it) - win(base), per roster (default strength only).
    pub rival: Option<Sums>,
}

#[derive(Clone, Debug)]
pub struct CurvePoint {
    pub heroes: u8,
    pub coins: i32,
    pub sums: Sums,
}

crate::table! {
    /// `heroes.parquet`: every power at every strength by heroes in the battle; `powers.parquet`
    /// is the same over every roster, without the `heroes` column.
    struct StratumRow, StratumRows = "heroes" {
        power: Code => "the power valued",
        faithful: bool => "true if the power file plays the original text as written",
        scales: bool => "true if the power reads its strength (its value depends on the bid)",
        strength: i32 => "the power's strength (winning bid) in these battles",
        heroes: u8 => "heroes in the battle",
        rosters: u64 => "paired battles behind the row",
        base_win_rate: f64 => "the focal hero's win rate without the power",
        win_rate_effect: f64 => "win rate holding the power minus without (paired)",
        effect_lo: f64 => "95% interval, low end",
        effect_hi: f64 => "95% interval, high end",
        coin_value: f64 => "unspent coins that change the win rate as much (AR-44); a bound when censored",
        coin_lo: f64 => "95% interval (delta method), low end; NaN when censored",
        coin_hi: f64 => "95% interval (delta method), high end; NaN when censored",
        censored: Code => "no; below / above: the effect is beyond the coin curve, coin_value is a bound",
        facing_effect: f64 => "the focal hero's win rate when the rival holds the power, minus without; NaN where not measured",
        facing_lo: f64 => "95% interval, low end",
        facing_hi: f64 => "95% interval, high end",
    }
}

crate::table! {
    /// `curve.parquet`: the coin curve, every roster and by heroes in the battle.
    struct CurveRow, CurveRows = "curve" {
        heroes: u8 => "heroes in the battle; 0: every roster",
        coins: i32 => "unspent coins added to the focal hero",
        rosters: u64 => "paired battles behind the point",
        win_rate_change: f64 => "win rate with the coins minus without (paired)",
        lo: f64 => "95% interval, low end",
        hi: f64 => "95% interval, high end",
    }
}

crate::table! {
    /// `pairs.parquet`: synergies and counters between two powers.
    struct PairRow, PairRows = "pairs" {
        kind: Code => "synergy: the focal hero holds both; counter: it holds `power`, the rival holds `other`",
        power: Code => "the focal hero's power",
        other: Code => "the other power (held too, or held by the rival)",
        rosters: u64 => "rosters that played the pair",
        interaction: f64 => "win(both) - win(power) - win(other) + win(neither), paired; > 0: better together than apart",
        lo: f64 => "95% interval, low end",
        hi: f64 => "95% interval, high end",
    }
}

/// The results.
#[derive(Clone, Debug)]
pub struct Estimates {
    /// Every arm in every stratum; stratum 0 (heroes = 0) first.
    pub rows: Vec<ArmEstimate>,
    pub curve: Vec<CurvePoint>,
    pub synergy: Vec<Sums>,
    pub counter: Vec<Sums>,
    pub rosters: u64,
    pub battles: u64,
    pub capped: u64,
    pub stop: Stop,
    /// Covariance of a candidate's coin value with a catalogue power's, over every roster, by
    /// their arms (uncensored values only).
    pub paired: std::collections::BTreeMap<(usize, usize), f64>,
}

impl Estimates {
    /// The widest 95% half-width of a coin value over all rosters; values beyond the grid (bounds,
    /// not estimates) do not hold the run up.
    pub fn worst_half_width(&self) -> f64 {
        self.overall()
            .filter(|r| r.value.censor == Censor::No || !r.value.se.is_finite())
            .map(|r| {
                if r.value.censor == Censor::No {
                    r.value.half_width()
                } else {
                    0.0
                }
            })
            .fold(0.0, f64::max)
    }

    /// The rows over every roster.
    pub fn overall(&self) -> impl Iterator<Item = &ArmEstimate> {
        self.rows.iter().filter(|r| r.heroes == 0)
    }
}

fn censor_name(c: Censor) -> u16 {
    match c {
        Censor::No => 0,
        Censor::Below => 1,
        Censor::Above => 2,
    }
}

impl PowerValue {
    /// An arm's label in the answer: the power, and its strength where it reads it.
    fn arm_label(&self, names: &[String], a: usize) -> String {
        let arm = &self.arms[a];
        if self.scales[arm.power] {
            format!("{} (strength {})", names[arm.power], arm.strength)
        } else {
            names[arm.power].clone()
        }
    }

    /// The answer's estimates over [`GROUPS`] groups of rosters (issue 63), for a what-if of this
    /// analysis to pair: each arm's effect (a mean) and coin value (the delta method's gradient
    /// through the coin curve) linearised at the run's estimate. `None` from sums kept without
    /// the groups.
    pub fn replicates(
        &self,
        acc: &Accum,
        seed: u64,
    ) -> Option<crate::platform::pairing::Replicates> {
        let gw = self.group_width();
        let st = &acc.strata[0];
        if acc.groups.len() != GROUPS * gw || st.rosters < 2 {
            return None;
        }
        let (n, k, arms) = (st.rosters as f64, self.grid.len(), self.arms.len());
        let names = self.names();
        let grid: Vec<f64> = self.grid.iter().map(|&c| c as f64).collect();
        let curve = self.curve(st);
        let groups: Vec<&[i64]> = acc.groups.chunks(gw).collect();
        // Group g's centred sum of variable v (0..arms: effects, then the curve's points).
        let mean: Vec<f64> = (0..arms)
            .map(|a| st.arm[a].mean())
            .chain(curve.iter().copied())
            .collect();
        let part = |g: &[i64], grad: &[(usize, f64)]| -> f64 {
            grad.iter()
                .map(|&(v, w)| w * (g[1 + v] as f64 - g[0] as f64 * mean[v]))
                .sum::<f64>()
                / n
        };
        let mut by = Vec::new();
        let candidates: std::collections::BTreeMap<usize, String> = self
            .powers
            .iter()
            .enumerate()
            .filter(|(_, p)| self.candidates.contains(p))
            .map(|(i, &p)| (self.default_arm[i], self.cat.name(p).to_string()))
            .collect();
        for (a, &effect) in mean[..arms].iter().enumerate() {
            let label = self.arm_label(&names, a);
            by.push((
                "win-rate effect by power".to_string(),
                label.clone(),
                effect,
                groups.iter().map(|g| part(g, &[(a, 1.0)])).collect(),
            ));
            let Ok((x, grad)) = crate::stats::curve_inverse(&grid, &curve, effect) else {
                continue;
            };
            let grad: Vec<(usize, f64)> = std::iter::once((a, grad[0]))
                .chain((0..k).map(|i| (arms + i, grad[1 + i])))
                .filter(|(_, w)| *w != 0.0)
                .collect();
            let z: Vec<f64> = groups.iter().map(|g| part(g, &grad)).collect();
            if let Some(name) = candidates.get(&a) {
                by.push((
                    "the candidates against the field".to_string(),
                    name.clone(),
                    x,
                    z.clone(),
                ));
            }
            by.push(("coin value by power".to_string(), label, x, z));
        }
        Some(crate::platform::pairing::Replicates {
            source: "rumble-powers".into(),
            seed,
            groups: GROUPS,
            by,
        })
    }

    fn names(&self) -> Vec<String> {
        self.powers
            .iter()
            .map(|&p| self.cat.name(p).to_string())
            .collect()
    }

    /// The output tables: `powers` (every power at every strength, over all rosters),
    /// `heroes` (the same by number of heroes), `curve` (the coin curve), `pairs`.
    pub fn tables(&self, est: &Estimates) -> Vec<Table> {
        let names = self.names();
        let censor_labels: Vec<String> = ["no", "below", "above"].map(String::from).to_vec();
        // One declaration for both: `powers` is the rows over every roster, without the
        // `heroes` column.
        let by_stratum = |overall: bool| {
            let mut t = StratumRows::default();
            for r in est.rows.iter().filter(|r| (r.heroes == 0) == overall) {
                let arm = &self.arms[r.arm];
                let censored = r.value.censor == Censor::No;
                let rival = |g: fn(&Sums) -> f64| r.rival.as_ref().map_or(f64::NAN, g);
                t.push(StratumRow {
                    power: arm.power as u16,
                    faithful: self.cat.defs[self.powers[arm.power] as usize].is_faithful(),
                    scales: self.scales[arm.power],
                    strength: arm.strength,
                    heroes: r.heroes,
                    rosters: r.rosters,
                    base_win_rate: r.base_win_rate,
                    win_rate_effect: r.effect.mean(),
                    effect_lo: r.effect.interval_in(-1, 1).1,
                    effect_hi: r.effect.interval_in(-1, 1).2,
                    coin_value: r.value.x,
                    coin_lo: if censored {
                        r.value.interval().0
                    } else {
                        f64::NAN
                    },
                    coin_hi: if censored {
                        r.value.interval().1
                    } else {
                        f64::NAN
                    },
                    censored: censor_name(r.value.censor),
                    facing_effect: rival(|s| s.mean()),
                    facing_lo: rival(|s| s.interval().1),
                    facing_hi: rival(|s| s.interval().2),
                });
            }
            let t = t
                .finish()
                .with_labels("power", names.clone())
                .with_labels("censored", censor_labels.clone());
            if overall {
                t.without("heroes").named("powers")
            } else {
                t
            }
        };
        let powers = by_stratum(true);
        let heroes = by_stratum(false);
        let mut curve = CurveRows::default();
        for p in &est.curve {
            curve.push(CurveRow {
                heroes: p.heroes,
                coins: p.coins,
                rosters: p.sums.n,
                win_rate_change: p.sums.mean(),
                lo: p.sums.interval().1,
                hi: p.sums.interval().2,
            });
        }
        let mut pairs = PairRows::default();
        let both = [
            (0, &est.synergy, &self.synergy),
            (1, &est.counter, &self.counter),
        ];
        for (kind, sums, which) in both {
            for (j, s) in sums.iter().enumerate() {
                pairs.push(PairRow {
                    kind,
                    power: which[j].0 as u16,
                    other: which[j].1 as u16,
                    rosters: s.n,
                    interaction: s.mean(),
                    lo: s.interval().1,
                    hi: s.interval().2,
                });
            }
        }
        let curve = curve.finish();
        let pairs = pairs
            .finish()
            .with_labels("kind", ["synergy", "counter"].map(String::from).to_vec())
            .with_labels("power", names.clone())
            .with_labels("other", names);
        vec![powers, heroes, curve, pairs]
    }

    /// The answer in the platform's result model (issue 50): each power's coin value and
    /// win-rate effect with their 95% intervals, in ranking order; censored values are notes.
    pub fn answer(
        &self,
        est: &Estimates,
        seed: u64,
        command: &str,
        inputs: std::collections::BTreeMap<String, String>,
    ) -> crate::platform::answer::Answer {
        use crate::platform::answer::{Answer, Estimate, Provenance, Section, Unit};
        let rows = ranked(est);
        let names = self.names();
        let label = |r: &ArmEstimate| self.arm_label(&names, r.arm);
        let mut notes = Vec::new();
        let mut values = Vec::new();
        for r in &rows {
            match r.value.censor {
                Censor::No => {
                    let (lo, hi) = r.value.interval();
                    values.push(Estimate {
                        label: label(r),
                        value: r.value.x,
                        lo,
                        hi,
                        count: r.rosters,
                        // No spread although it changed battles: it changed each roster's as a
                        // point of the coin curve did (a Refund of 10 is 10 coins, AR-43).
                        exact: r.value.se == 0.0,
                        se: None,
                    });
                }
                Censor::Below => notes.push(format!(
                    "{}: worth less than {:+.0} coins (beyond the coin grid)",
                    label(r),
                    r.value.x
                )),
                Censor::Above => notes.push(format!(
                    "{}: worth more than {:+.0} coins (beyond the coin grid)",
                    label(r),
                    r.value.x
                )),
            }
        }
        let effects = rows
            .iter()
            .map(|r| {
                let (m, lo, hi) = r.effect.interval_in(-1, 1);
                Estimate {
                    label: label(r),
                    value: m,
                    lo,
                    hi,
                    count: r.rosters,
                    exact: false,
                    se: None,
                }
            })
            .collect();
        let idle: Vec<&str> = rows
            .iter()
            .filter(|r| r.effect.s2 == 0)
            .map(|r| names[self.arms[r.arm].power].as_str())
            .collect();
        if !idle.is_empty() {
            notes.push(format!(
                "never changed a battle when held alone: {} (they act through other powers: see the pairs)",
                idle.join(", ")
            ));
        }
        notes.push(format!("stopped: {}", self.stop_reason(est)));
        let standings = self.standings(est);
        let mut sections = Vec::new();
        let (mut verdict, mut highlight) = (Vec::new(), Vec::new());
        if !standings.is_empty() {
            verdict.extend(standings.iter().map(|s| s.line()));
            highlight.extend(standings.iter().map(|s| s.name.clone()));
            sections.push(Section {
                band: None,
                better: None,
                title: "the candidates against the field".into(),
                meaning: "each candidate's coin value at the middle strength, against the catalogue's powers as the field, on the same rosters as every catalogue power's (common random numbers); its rank is in the verdict".into(),
                unit: Unit::Number,
                estimates: standings
                    .iter()
                    .filter(|s| s.censor == Censor::No)
                    .map(|s| Estimate {
                        label: s.name.clone(),
                        value: s.value,
                        lo: s.lo,
                        hi: s.hi,
                        count: est.rosters,
                        exact: false,
                        se: None,
                    })
                    .collect(),
            });
        }
        Answer {
            apart: standings
                .iter()
                .flat_map(|s| {
                    s.apart.iter().map(|(m, told)| crate::platform::answer::Apart {
                        candidate: s.name.clone(),
                        member: m.clone(),
                        section: "the candidates against the field".into(),
                        told: *told,
                    })
                })
                .collect(),
            verdict,
            highlight,
            outcome: None,
            title: format!(
                "power values: {} powers, {} battles, seed {seed}",
                self.powers.len(),
                crate::platform::tally::thousands(est.battles)
            ),
            provenance: Provenance {
                command: command.to_string(),
                source: "rumble-powers".into(),
                version: env!("CARGO_PKG_VERSION").into(),
                seed,
                matches: est.battles,
                played: est.battles,
                settings: serde_json::to_value(&self.settings).expect("settings serialise"),
                inputs,
            },
            totals: vec![
                (
                    "rosters".into(),
                    crate::platform::tally::thousands(est.rosters),
                ),
                (
                    "battles".into(),
                    crate::platform::tally::thousands(est.battles),
                ),
            ],
            sections: [
                sections,
                vec![Section {
                    band: None,
                    better: None,
                    title: "coin value by power".into(),
                    meaning: "what holding the power is worth in unspent coins (AR-44), with its 95% interval by the delta method".into(),
                    unit: Unit::Number,
                    estimates: values,
                }],
                vec![Section {
                    band: None,
                    better: None,
                    title: "win-rate effect by power".into(),
                    meaning: "the focal hero's win rate holding the power less without it, on the same rosters (common random numbers), 95% interval".into(),
                    unit: Unit::Share,
                    estimates: effects,
                }],
            ]
            .concat(),
            tables: vec![
                "powers".into(),
                "heroes".into(),
                "curve".into(),
                "pairs".into(),
            ],
            notes,
            heatmaps: Vec::new(),
            grids: self.grids(est),
        }
    }

    /// Why the run stopped, in words.
    pub fn stop_reason(&self, est: &Estimates) -> String {
        let target = self.settings.precision;
        match est.stop {
            Stop::Precision => format!("every coin value within ±{target} (95%)"),
            Stop::Budget => format!(
                "battle budget spent ({}); widest coin interval ±{:.2}, target ±{target}: raise --max-battles",
                crate::platform::tally::thousands(self.settings.max_battles),
                est.worst_half_width()
            ),
            Stop::Running => "still running".into(),
        }
    }

    /// The summary's grids (issue 50): the ranking (coin value and win-rate effect with 95%
    /// intervals, the effect of facing the power), the coin value by heroes in the battle, and
    /// the strongest synergies and counters.
    fn grids(&self, est: &Estimates) -> Vec<Grid> {
        let rows = ranked(est);
        let names = self.names();
        let coins = |r: &ArmEstimate| match r.value.censor {
            Censor::No => {
                let (lo, hi) = r.value.interval();
                Cell::estimate((r.value.x, lo, hi))
            }
            Censor::Below => Cell::Text(format!("< {:+.0} (beyond grid)", r.value.x)),
            Censor::Above => Cell::Text(format!("> {:+.0} (beyond grid)", r.value.x)),
        };
        let mut ranking = Grid::new(
            "ranking",
            "coin value (unspent coins as good, AR-44) and win-rate effect of holding the power, with 95% intervals; facing: the effect on a hero whose rival holds it",
            "power",
            &[
                ("rank", Unit::Number),
                ("strength", Unit::Number),
                ("coin value [95%]", Unit::Signed),
                ("win-rate effect [95%]", Unit::Points),
                ("facing", Unit::Points),
            ],
        );
        for (i, r) in rows.iter().enumerate() {
            let arm = &self.arms[r.arm];
            let strength = if self.scales[arm.power] {
                arm.strength.to_string()
            } else {
                "any".to_string()
            };
            ranking.row(
                names[arm.power].clone(),
                vec![
                    Cell::Count(i as u64 + 1),
                    Cell::Text(strength),
                    coins(r),
                    Cell::estimate(r.effect.interval_in(-1, 1)),
                    r.rival.map_or(Cell::Empty, |s| Cell::Value(s.mean())),
                ],
            );
        }
        let mut out = vec![ranking];
        // How the value moves with the number of heroes, at the middle strength.
        let strata: Vec<u8> = (self.settings.heroes[0]..=self.settings.heroes[1]).collect();
        if strata.len() > 1 {
            let heads: Vec<String> = strata.iter().map(|n| format!("{n} heroes")).collect();
            let columns: Vec<(&str, Unit)> =
                heads.iter().map(|h| (h.as_str(), Unit::Signed)).collect();
            let mut g = Grid::new(
                "coin value by heroes in the battle",
                "at the middle strength, with 95% intervals",
                "power",
                &columns,
            );
            for (p, name) in names.iter().enumerate() {
                let cells = strata
                    .iter()
                    .map(|&n| {
                        est.rows
                            .iter()
                            .find(|r| r.heroes == n && r.arm == self.default_arm[p])
                            .map_or(Cell::Empty, coins)
                    })
                    .collect();
                g.row(name.clone(), cells);
            }
            out.push(g);
        }
        for (title, join, list, pairs) in [
            ("synergies (both held)", "+", &est.synergy, &self.synergy),
            (
                "counters (power vs the rival's)",
                "vs",
                &est.counter,
                &self.counter,
            ),
        ] {
            let mut idx: Vec<usize> = (0..list.len()).filter(|&j| list[j].n >= 2).collect();
            if idx.is_empty() {
                continue;
            }
            idx.sort_by(|&a, &b| {
                list[b]
                    .mean()
                    .abs()
                    .total_cmp(&list[a].mean().abs())
                    .then(a.cmp(&b))
            });
            let mut g = Grid::new(
                &format!("strongest {title}"),
                "the interaction in win-rate points, with its 95% interval, and the rosters behind it",
                "powers",
                &[
                    ("interaction [95%]", Unit::Points),
                    ("rosters", Unit::Number),
                ],
            );
            for &j in idx.iter().take(5) {
                let (p, q) = pairs[j];
                g.row(
                    format!("{} {join} {}", names[p], names[q]),
                    vec![Cell::estimate(list[j].interval()), Cell::Count(list[j].n)],
                );
            }
            out.push(g);
        }
        out
    }
}

/// The powers' overall estimates in ranking order: coin value, then win-rate effect, then arm.
/// A candidate power among the catalogue's (see [`PowerValue::standings`]).
#[derive(Clone, Debug)]
pub struct Standing {
    pub name: String,
    pub value: f64,
    pub lo: f64,
    pub hi: f64,
    pub censor: Censor,
    /// Its rank among the catalogue's valued powers (ties shared) and how many are told
    /// apart from it.
    pub verdict: crate::stats::Verdict,
    /// Each catalogue power beside it and whether the test told them apart.
    pub apart: Vec<(String, bool)>,
}

impl Standing {
    pub fn line(&self) -> String {
        let value = match self.censor {
            Censor::No => format!(
                "{:+.1} coins [{:+.1}, {:+.1}]",
                self.value, self.lo, self.hi
            ),
            Censor::Below => format!("less than {:+.0} coins (beyond the grid)", self.value),
            Censor::Above => format!("more than {:+.0} coins (beyond the grid)", self.value),
        };
        let v = &self.verdict;
        format!(
            "{} is worth {value}, {} (higher is better): {} catalogue powers clearly stronger, {} clearly weaker (each difference paired on the same rosters, tested at 5% for the family, Holm's)",
            self.name,
            v.rank_words(),
            v.better,
            v.worse
        )
    }
}

/// The catalogue (a file, or the built-in six) and, with a candidate file, its powers after
/// the catalogue's, with their ids. A candidate may not reuse a catalogue power's name.
fn with_candidates(
    src: &crate::platform::sources::Sources,
    power_file: Option<&str>,
    candidates: Option<&str>,
) -> Result<(Catalogue, Vec<PowerId>), Error> {
    let Some(c) = candidates else {
        return Ok((Catalogue::load(src, power_file)?, Vec::new()));
    };
    let mut defs = match power_file {
        None => crate::games::auto_rumble::powers::file::builtin().to_vec(),
        Some(f) => crate::games::auto_rumble::powers::file::load(src, std::path::Path::new(f))?,
    };
    let extra = crate::games::auto_rumble::powers::file::load(src, std::path::Path::new(c))?;
    let first = defs.len();
    for d in &extra {
        if let Some(o) = defs
            .iter()
            .find(|o| crate::names::normalise(&o.name) == crate::names::normalise(&d.name))
        {
            return Err(Error::Input(format!(
                "{c}: the candidate power `{}` has the name of the catalogue's `{}`: rename it (and drop any `include` of the catalogue: the field comes from --powers)",
                d.name, o.name
            )));
        }
    }
    defs.extend(extra);
    if defs.len() > crate::games::auto_rumble::powers::file::MAX_POWERS {
        return Err(Error::Input(format!(
            "{c}: the catalogue and the candidates hold {} powers together, more than {}",
            defs.len(),
            crate::games::auto_rumble::powers::file::MAX_POWERS
        )));
    }
    let cat = Catalogue::new(defs);
    let ids: Vec<PowerId> = (first as PowerId..cat.len() as PowerId)
        .filter(|p| cat.drawable.contains(p))
        .collect();
    if ids.is_empty() {
        return Err(Error::Input(format!(
            "{c}: every power in it is a helper (AR-55): a candidate needs a power a hero can hold"
        )));
    }
    Ok((cat, ids))
}

fn ranked(est: &Estimates) -> Vec<&ArmEstimate> {
    let mut rows: Vec<&ArmEstimate> = est.overall().collect();
    rows.sort_by(|a, b| {
        b.value
            .x
            .total_cmp(&a.value.x)
            .then(b.effect.mean().total_cmp(&a.effect.mean()))
            .then(a.arm.cmp(&b.arm))
    });
    rows
}

/// The batches the shards of this analysis left in `out/shards/` (issue 51), by first roster; a
/// shard's file edited since it was written is refused, naming it (issue 62).
pub fn shard_batches(
    out: &std::path::Path,
    identity: &serde_json::Value,
) -> Result<Batches, Error> {
    let mut all = Batches::new();
    let Ok(d) = std::fs::read_dir(out.join(crate::platform::ledger::SHARDS)) else {
        return Ok(all);
    };
    let mut files: Vec<_> = d.filter_map(|e| e.ok()).map(|e| e.path()).collect();
    files.sort();
    for f in files {
        let Some(stored) = crate::platform::digest::read_sealed_if_there(&f)? else {
            continue;
        };
        if stored.get("identity") != Some(identity) {
            crate::platform::ledger::earlier_format(&f, stored.get("identity"), identity)?;
            continue;
        }
        let b = serde_json::from_value::<Batches>(stored["batches"].clone()).map_err(|e| {
            format!(
                "{}: `batches`: not as skirmish writes them ({e})",
                f.display()
            )
        })?;
        all.extend(b);
    }
    Ok(all)
}

/// Where an analysis keeps its rosters and sums, to be continued (issue 51).
pub const STATE: &str = "state.json";

impl PowerValue {
    /// What must be equal for a run to continue another: everything but the battle budget and the
    /// precision (which only say when to stop), the seed, the version and every input's digest.
    pub fn identity(
        &self,
        seed: u64,
        inputs: &std::collections::BTreeMap<String, String>,
    ) -> serde_json::Value {
        let mut s = self.settings.clone();
        (s.max_battles, s.precision) = (0, 0.0);
        serde_json::json!({
            "version": env!("CARGO_PKG_VERSION"),
            "seed": seed,
            "settings": serde_json::to_value(&s).expect("settings serialise"),
            "inputs": inputs,
        })
    }

    /// The rosters and sums of an earlier run of the same analysis in `out`, if any; a budget below
    /// what it already played is refused.
    pub fn kept(
        &self,
        out: &std::path::Path,
        identity: &serde_json::Value,
    ) -> Result<Option<(u64, Accum)>, Error> {
        let v = self;
        let path = out.join(STATE);
        // Sealed (issue 62): `rosters` lowered by one was accepted and changed the tables.
        let Some(state) = crate::platform::digest::read_sealed_if_there(&path)? else {
            return Ok(None);
        };
        if state.get("identity") != Some(identity) {
            crate::platform::ledger::earlier_format(&path, state.get("identity"), identity)?;
            return Ok(None); // another analysis: replaced, as any earlier output is
        }
        let (Some(rosters), Ok(sums)) = (
            state["rosters"].as_u64(),
            serde_json::from_value(state["sums"].clone()),
        ) else {
            return Err(Error::Input(format!(
                "{}: `rosters` / `sums`: not as skirmish writes them; run the analysis again into a new --out",
                path.display()
            )));
        };
        // The count it continues from must be the count its sums hold (issue 79: `rosters`
        // lowered by one and resealed passed the default verify).
        let acc: &Accum = &sums;
        let by_count: u64 = acc.strata.iter().skip(1).map(|s| s.rosters).sum();
        if acc.strata.first().map(|s| s.rosters) != Some(rosters) || by_count != rosters {
            return Err(Error::Input(format!(
                "{}: `rosters`: {rosters}, and its sums hold {} rosters ({by_count} by hero count): not as a run writes it; run the analysis again into a new --out",
                path.display(),
                acc.strata.first().map_or(0, |s| s.rosters)
            )));
        }
        if rosters > v.max_rosters() {
            let per = v.battles_per_roster();
            return Err(Error::Input(format!(
                "--max-battles {}: {} already holds {} rosters ({} battles) of this analysis; ask for at least {} battles to continue it, or choose another --out",
                v.settings.max_battles,
                out.display(),
                crate::platform::tally::thousands(rosters),
                crate::platform::tally::thousands(rosters * per),
                rosters * per
            )));
        }
        Ok(Some((rosters, sums)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_grid_gains_the_base_at_zero() {
        let v = PowerValue::new(
            &crate::platform::sources::Sources::disk(),
            ValueSettings::default(),
        )
        .unwrap();
        assert_eq!(v.grid[v.zero], 0);
        assert!(v.grid.windows(2).all(|w| w[0] < w[1]));
        // The six sample powers read no strength: one arm each.
        assert_eq!(v.arms.len(), 6);
        assert_eq!(v.synergy.len(), 15);
        assert_eq!(v.counter.len(), 36);
    }

    #[test]
    fn impossible_settings_name_the_flag() {
        let bad = |f: fn(&mut ValueSettings)| {
            let mut s = ValueSettings::default();
            f(&mut s);
            PowerValue::new(&crate::platform::sources::Sources::disk(), s)
                .err()
                .expect("refused")
                .to_string()
        };
        assert!(bad(|s| s.heroes = [1, 4]).contains("--heroes"));
        assert!(bad(|s| s.grid = vec![-10, 0, 10]).contains("--grid"));
        assert!(bad(|s| s.grid = vec![-10]).contains("--grid"));
        assert!(bad(|s| s.precision = 0.0).contains("--precision"));
        assert!(bad(|s| s.strengths = vec![]).contains("--strengths"));
        assert!(bad(|s| s.powers = vec!["Amoebe".into()]).contains("did you mean `Amoeba`"));
        assert!(bad(|s| s.capacity = 2).contains("--capacity"));
    }

    #[test]
    fn the_result_does_not_depend_on_the_thread_count() {
        let v = PowerValue::new(
            &crate::platform::sources::Sources::disk(),
            ValueSettings {
                batch: 40,
                max_battles: 80 * 100,
                ..ValueSettings::default()
            },
        )
        .unwrap();
        let run = |threads| {
            crate::platform::runner::pool(threads)
                .unwrap()
                .install(|| v.run(7, |_| {}))
        };
        let (a, b) = (run(1), run(3));
        assert_eq!(a.rosters, b.rosters);
        assert_eq!(format!("{:?}", a.rows), format!("{:?}", b.rows));
        assert_eq!(format!("{:?}", a.synergy), format!("{:?}", b.synergy));
    }
}

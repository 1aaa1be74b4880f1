//! Random free-for-all battles for the Monte Carlo platform (`skirmish simulate rumble`).
//!
//! Match `i` draws its roster from the match's Roster stream and its base initiatives from its
//! Initiative stream (AR-19, AR-22), plays one battle with the data kernel (the six from the built-in power file), and appends one row to the
//! `matches` table and one row per hero to the `heroes` table. The draw order is part of the
//! dataset's meaning and is fixed in AR-22.

use crate::error::Error;
use std::ops::Range;

use rand::RngExt;
use rand::seq::SliceRandom;
use serde::{Deserialize, Serialize};

use crate::games::auto_rumble::kernel::data::{DataKernel, NoHook, in_kernel_class};
use crate::games::auto_rumble::powers::catalogue::{
    Catalogue, Held, Loadout, MAX_HELD, MAX_USE, PowerId, Use,
};
pub use crate::games::auto_rumble::powers::limits::Room;
use crate::games::auto_rumble::{EndReason, rules};
use crate::platform::runner::Simulation;
use crate::platform::table::{Code, Codes, I32s, Table};
use crate::platform::tally::{Count, Tally};
use crate::rng::{Stream, match_seed, match_stream_rng, unit_f64};

/// Most heroes one random battle may have (the `slot` column is a byte).
pub const MAX_HEROES: u8 = 64;

/// What a random roster is drawn from, and the battle settings. Ranges are inclusive `[min, max]`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct FfaSettings {
    /// Heroes per battle.
    #[serde(deserialize_with = "min_max")]
    pub heroes: [u8; 2],
    /// Each hero's unspent coins (AR-2).
    #[serde(deserialize_with = "min_max")]
    pub coins: [i32; 2],
    /// Powers per hero, drawn without repeats from `catalogue`.
    #[serde(deserialize_with = "min_max")]
    pub powers: [u8; 2],
    /// The powers heroes may hold, by name; empty: every power of the power file.
    pub catalogue: Vec<String>,
    /// The power file the powers come from; `None`: the built-in six sample powers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub power_file: Option<String>,
    /// A digest of the power file's text, filled in when the settings are checked: a dataset
    /// resumed after the file changed is refused (its identity differs).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub power_file_digest: Option<String>,
    /// Each held power's strength (the winning bid; no sample power scales with it yet).
    #[serde(deserialize_with = "min_max")]
    pub strength: [i32; 2],
    /// Round limit (AR-14).
    pub max_rounds: u32,
    /// Hero capacity (AR-15).
    pub capacity: u32,
    /// A rules file (issue 51): the battle's numbers; `None`: the seed's.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rules_file: Option<String>,
    /// The rules file's departures from the seed's numbers, in plain words, filled in when the
    /// settings are checked: what `diff` shows, and a dataset resumed after the file changed is
    /// refused (its identity differs).
    #[serde(skip_serializing_if = "Vec::is_empty", skip_deserializing)]
    pub rules: Vec<String>,
}

impl Default for FfaSettings {
    fn default() -> FfaSettings {
        FfaSettings {
            heroes: [2, 6],
            coins: [-30, 60],
            powers: [0, 3],
            catalogue: crate::games::auto_rumble::powers::file::builtin()
                .iter()
                .map(|d| d.name.clone())
                .collect(),
            power_file: None,
            power_file_digest: None,
            strength: [1, 30],
            max_rounds: rules::DEFAULT_MAX_ROUNDS,
            capacity: rules::DEFAULT_CAPACITY as u32,
            rules_file: None,
            rules: Vec::new(),
        }
    }
}

/// The settings, checked and compiled.
#[derive(Clone, Debug)]
pub struct Ffa {
    pub settings: FfaSettings,
    /// The powers' definitions (the built-in six).
    cat: Catalogue,
    /// The powers heroes draw from, as ids of `cat`.
    catalogue: Vec<PowerId>,
}

/// A `[min, max]` range of an experiment file: exactly two values (a longer list was read as its
/// first two).
fn min_max<'de, D, T>(d: D) -> Result<[T; 2], D::Error>
where
    D: serde::Deserializer<'de>,
    T: serde::Deserialize<'de> + Copy,
{
    let v: Vec<T> = serde::Deserialize::deserialize(d)?;
    match v[..] {
        [a, b] => Ok([a, b]),
        _ => Err(serde::de::Error::custom(format!(
            "{} values: a range is [min, max], two values",
            v.len()
        ))),
    }
}

/// FNV-1a, 64-bit: a stable digest of a power file's bytes for the dataset identity.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// Most powers a random roster draws from (the draw's pool lives on the stack).
pub const MAX_POOL: usize = 64;

fn range_error(field: &str, r: [i64; 2]) -> Option<String> {
    (r[0] > r[1]).then(|| {
        format!(
            "{field}: the range {}..{} is empty; give min <= max, e.g. {}..{}",
            r[0], r[1], r[1], r[0]
        )
    })
}

impl Ffa {
    /// Checks every setting; the message names the setting and the fix.
    pub fn new(
        src: &crate::platform::sources::Sources,
        mut settings: FfaSettings,
    ) -> Result<Ffa, Error> {
        let cat = match &settings.power_file {
            None => Catalogue::builtin(),
            Some(f) => {
                let text = src
                    .read(std::path::Path::new(f))
                    .map_err(|e| format!("power_file: cannot read `{f}` ({e}): check the path"))?;
                let digest = format!("{:016x}", fnv1a(text.as_bytes()));
                if let Some(d) = &settings.power_file_digest
                    && *d != digest
                {
                    return Err(Error::Input(format!(
                        "power_file: `{f}` has changed since this dataset was started (digest {d}, now {digest}): start a new dataset"
                    )));
                }
                settings.power_file_digest = Some(digest);
                Catalogue::new(
                    crate::games::auto_rumble::powers::file::load(src, std::path::Path::new(f))
                        .map_err(|e| format!("power_file: {e}"))?,
                )
            }
        };
        let cat = cat.with_rules_file(src, settings.rules_file.as_deref())?;
        settings.rules = cat.rules.changes();
        if settings.catalogue.is_empty() {
            // Every power a hero may be drawn with: helpers are left out (AR-55).
            settings.catalogue = cat
                .drawable
                .iter()
                .map(|&p| cat.name(p).to_string())
                .collect();
        }
        let s = &settings;
        for (field, r) in [
            ("heroes", [s.heroes[0] as i64, s.heroes[1] as i64]),
            ("coins", [s.coins[0] as i64, s.coins[1] as i64]),
            ("powers", [s.powers[0] as i64, s.powers[1] as i64]),
            ("strength", [s.strength[0] as i64, s.strength[1] as i64]),
        ] {
            if let Some(e) = range_error(field, r) {
                return Err(Error::Input(e));
            }
        }
        if s.heroes[0] < 2 || s.heroes[1] > MAX_HEROES {
            return Err(Error::Input(format!(
                "heroes: {}..{} is outside 2..{MAX_HEROES}; a battle needs at least 2 heroes",
                s.heroes[0], s.heroes[1]
            )));
        }
        let max = rules::MAX_ABS_COINS;
        if s.coins[0] < -max || s.coins[1] > max {
            return Err(Error::Input(format!(
                "coins: {}..{} is outside -{max}..{max} (AR-18)",
                s.coins[0], s.coins[1]
            )));
        }
        let mut catalogue = Vec::new();
        for name in &s.catalogue {
            let p = cat.id(name).ok_or_else(|| {
                let hint = cat
                    .closest(name)
                    .map(|p| format!("did you mean `{p}`? "))
                    .unwrap_or_default();
                let known: Vec<&str> = cat.defs.iter().map(|d| d.name.as_str()).collect();
                format!(
                    "catalogue: unknown power `{name}`; {hint}known powers: {}",
                    known.join(", ")
                )
            })?;
            cat.drawable_id(name, "catalogue")?;
            if catalogue.contains(&p) {
                return Err(Error::Input(format!(
                    "catalogue: `{name}` is listed twice; list each power once"
                )));
            }
            catalogue.push(p);
        }
        if catalogue.len() > MAX_POOL {
            return Err(Error::Input(format!(
                "catalogue: {} powers; at most {MAX_POOL} can be drawn from",
                catalogue.len()
            )));
        }
        if s.powers[1] as usize > MAX_HELD {
            return Err(Error::Input(format!(
                "powers: at most {MAX_HELD} powers per hero; lower the maximum"
            )));
        }
        if s.powers[1] as usize > catalogue.len() {
            return Err(Error::Input(format!(
                "powers: a hero cannot hold {} distinct powers from a catalogue of {}; lower the \
                 maximum to {} or add powers to the catalogue",
                s.powers[1],
                catalogue.len(),
                catalogue.len()
            )));
        }
        crate::games::auto_rumble::input::scenario::check_limits(
            s.max_rounds,
            s.capacity,
            s.heroes[1],
            ["max_rounds", "capacity"],
        )?;
        // The built-in six play as classes at any capacity; a power file's heroes may not.
        if settings.power_file.is_some() {
            cat.check_work(
                catalogue.iter().copied(),
                s.capacity as usize,
                s.max_rounds,
                "capacity:",
            )?;
        }
        Ok(Ffa {
            settings,
            cat,
            catalogue,
        })
    }

    /// Draws match `index`'s roster into `out` (AR-22) and returns the number of heroes.
    pub fn draw_roster(&self, seed: u64, out: &mut Rosters) -> usize {
        let s = &self.settings;
        let mut rng = match_stream_rng(seed, Stream::Roster);
        let n = rng.random_range(s.heroes[0]..=s.heroes[1]) as usize;
        let mut pool = [0 as PowerId; MAX_POOL];
        let m = self.catalogue.len();
        pool[..m].copy_from_slice(&self.catalogue);
        for h in 0..n {
            let coins = rng.random_range(s.coins[0]..=s.coins[1]);
            let mut k = rng.random_range(s.powers[0]..=s.powers[1]) as usize;
            // A partial Fisher-Yates: the first k of the pool become the held powers, in the
            // order held; a power that would not fit the hero is set aside (AR-22).
            let mut room = Room::default();
            let mut end = m;
            for j in 0..k {
                if !pick_fitting(&mut rng, &self.cat, &mut pool, j, &mut end, &mut room) {
                    k = j;
                    break;
                }
            }
            let held = &mut out.held[h];
            for j in 0..k {
                held[j] = Held {
                    power: pool[j],
                    strength: rng.random_range(s.strength[0]..=s.strength[1]),
                };
            }
            let order = &mut out.order[h];
            let len = use_order(&mut rng, &self.cat, &held[..k], order);
            out.n_held[h] = k as u8;
            out.n_order[h] = len as u8;
            out.coins[h] = coins;
            out.builds[h] = Loadout::compile(&self.cat, coins, &held[..k], &order[..len])
                .expect("a drawn roster fits a hero by construction (AR-17, AR-22)");
        }
        let mut rng = match_stream_rng(seed, Stream::Initiative);
        for h in 0..n {
            // The loadout's coins include `coins` effects (AR-43).
            out.initiative[h] = rules::initiative(out.builds[h].coins, unit_f64(&mut rng));
        }
        n
    }
}

/// Step `j` of a partial Fisher-Yates over `pool[..*end]` that only keeps powers fitting the hero
/// (AR-22): the drawn power goes to `pool[j]`; one that would not fit moves past `end` and
/// another is drawn. Draws exactly as the plain shuffle whenever everything fits, so datasets
/// of files within the limits keep their bytes. Returns false when nothing left fits.
pub fn pick_fitting(
    rng: &mut impl rand::Rng,
    cat: &Catalogue,
    pool: &mut [PowerId],
    j: usize,
    end: &mut usize,
    room: &mut Room,
) -> bool {
    while j < *end {
        let r = rng.random_range(j..*end);
        let d = &cat.defs[pool[r] as usize];
        if room.fits(d.clauses.len(), d.counters.len()) {
            room.take(d.clauses.len(), d.counters.len());
            pool.swap(j, r);
            return true;
        }
        *end -= 1;
        pool.swap(r, *end);
    }
    false
}

/// A hero's use order (AR-22): the attack and each held power that is used, shuffled; writes
/// `order` and returns its length.
pub fn use_order(
    rng: &mut impl rand::Rng,
    cat: &Catalogue,
    held: &[Held],
    order: &mut [Use; MAX_USE],
) -> usize {
    order[0] = Use::Attack;
    let mut len = 1;
    for hp in held {
        if cat.is_used(hp.power) {
            order[len] = Use::Power(hp.power);
            len += 1;
        }
    }
    order[..len].shuffle(rng);
    len
}

/// One match's drawn roster, in fixed-size arrays reused from match to match.
#[derive(Clone, Debug)]
pub struct Rosters {
    pub coins: [i32; MAX_HEROES as usize],
    pub held: [[Held; MAX_HELD]; MAX_HEROES as usize],
    pub n_held: [u8; MAX_HEROES as usize],
    pub order: [[Use; MAX_USE]; MAX_HEROES as usize],
    pub n_order: [u8; MAX_HEROES as usize],
    pub builds: [Loadout; MAX_HEROES as usize],
    pub initiative: [f64; MAX_HEROES as usize],
}

/// A worker's scratch: the kernel and the roster arrays.
pub struct FfaWorker {
    kernel: DataKernel,
    rosters: Box<Rosters>,
}

/// One battle's result as the tables need it: the outcome, each original's own final Energy and
/// each team's heroes alive.
struct Played {
    outcome: crate::games::auto_rumble::Outcome,
    energy: [Option<i32>; MAX_HEROES as usize],
    alive: [u32; MAX_HEROES as usize],
    /// Class operations ([`DataKernel::ops`]).
    ops: u64,
}

crate::table! {
    /// One row per battle.
    struct MatchRow, MatchRows = "matches" {
        match_id: u64 => "match index under the master seed",
        seed: u64 => "the match's own seed (rng::match_seed): replays it alone",
        heroes: u8 => "heroes in the battle",
        rounds: u32 => "rounds played",
        winner: Option<u16> => "slot of the winning hero (its team); null for a draw",
        draw: bool => "no winner",
        capped: bool => "a copy was not made for lack of capacity (AR-15)",
        end: Code => "how the battle ended: elimination, round limit (AR-14) or a power's win (AR-30)",
        survivors: u32 => "heroes alive at the end, copies included",
        hits: u64 => "hits resolved (attacker x target)",
    }
}

crate::table! {
    /// One row per hero of each battle.
    struct HeroRow, HeroRows = "heroes" {
        match_id: u64 => "match index (joins matches.match_id)",
        slot: u8 => "roster position, 0-based",
        team: u16 => "the hero's team: itself and its copies (AR-1)",
        coins: i32 => "unspent coins (AR-2)",
        initiative: f64 => "coins plus the base initiative drawn in [0, 1) (AR-2, AR-19)",
        powers: Codes => "powers held, in the order held",
        strengths: I32s => "each held power's strength, aligned with powers",
        use_order: Codes => "the use order: Attack and the Spend powers (AR-3)",
        won: bool => "the hero's team won",
        final_energy: Option<i32> => "the hero's own Energy at the end; null if it died",
        copies_alive: u32 => "the hero's Amoeba copies alive at the end",
    }
}

impl Ffa {
    fn power_labels(&self) -> Vec<String> {
        self.cat.defs.iter().map(|d| d.name.clone()).collect()
    }

    /// Plays the drawn roster: the data kernel's fast path when its loadouts are in its class,
    /// else its general path.
    fn battle(&self, w: &mut FfaWorker, n: usize) -> Played {
        let r = &*w.rosters;
        let (builds, ini) = (&r.builds[..n], &r.initiative[..n]);
        let mut p = Played {
            outcome: crate::games::auto_rumble::Outcome {
                winner: None,
                rounds: 0,
                capped: false,
                end: EndReason::Elimination,
                hits: 0,
                survivors: 0,
            },
            energy: [None; MAX_HEROES as usize],
            alive: [0; MAX_HEROES as usize],
            ops: 0,
        };
        let max_rounds = self.settings.max_rounds;
        if in_kernel_class(builds) {
            let ops = w.kernel.ops();
            p.outcome = w
                .kernel
                .run(&self.cat, builds, ini, max_rounds, &mut NoHook);
            p.ops = w.kernel.ops() - ops;
            for h in 0..n {
                p.energy[h] = w.kernel.hero_energy(h as u32);
                p.alive[h] = w.kernel.team_alive(h as u16);
            }
        } else {
            let g = w.kernel.general();
            p.outcome = g.run(&self.cat, builds, ini, max_rounds, &mut NoHook);
            // One row per hero: every hit is an operation.
            p.ops = p.outcome.hits;
            for h in 0..n {
                p.energy[h] = g.hero_energy(h as u32);
                // Copies count; summons (and their copies) do not.
                p.alive[h] = g.team_alive(h as u16);
            }
        }
        p
    }
}

impl Simulation for Ffa {
    type Worker = FfaWorker;

    fn name(&self) -> &'static str {
        "rumble-ffa"
    }

    fn tables(&self) -> Vec<&'static str> {
        vec!["matches", "heroes"]
    }

    fn worker(&self) -> FfaWorker {
        let blank = Loadout::compile(&self.cat, 0, &[], &[Use::Attack]).expect("valid");
        FfaWorker {
            kernel: DataKernel::new(self.settings.capacity as usize),
            rosters: Box::new(Rosters {
                coins: [0; MAX_HEROES as usize],
                held: [[Held {
                    power: 0,
                    strength: 0,
                }; MAX_HELD]; MAX_HEROES as usize],
                n_held: [0; MAX_HEROES as usize],
                order: [[Use::Attack; MAX_USE]; MAX_HEROES as usize],
                n_order: [0; MAX_HEROES as usize],
                builds: [blank; MAX_HEROES as usize],
                initiative: [0.0; MAX_HEROES as usize],
            }),
        }
    }

    fn play(
        &self,
        w: &mut FfaWorker,
        master: u64,
        matches: Range<u64>,
        record: bool,
    ) -> (Vec<Table>, Tally) {
        let len = (matches.end - matches.start) as usize;
        let avg_heroes = (self.settings.heroes[0] as usize + self.settings.heroes[1] as usize) / 2;
        let mut matches_rows = MatchRows::with_capacity(if record { len } else { 0 });
        let mut heroes_rows = HeroRows::with_capacity(if record { len * avg_heroes } else { 0 });
        let mut by_heroes = [Count::default(); MAX_HEROES as usize + 1];
        let mut by_power = vec![Count::default(); self.cat.len()];
        let mut no_power = Count::default();
        // This match's wins and heroes by power, emptied into `by_power` at its end.
        let mut open = vec![(0u64, 0u64); self.cat.len()];
        let mut tally = Tally::default();
        for i in matches {
            let seed = match_seed(master, i);
            let n = self.draw_roster(seed, &mut w.rosters);
            let played = self.battle(w, n);
            let o = played.outcome;
            let r = &*w.rosters;
            tally.matches += 1;
            tally.work += o.hits;
            tally.ops += played.ops;
            tally.draws += o.winner.is_none() as u64;
            // The match is the unit of independence (issue 63): each count takes this match's
            // heroes as one trial of its interval.
            by_heroes[n].add_match(o.winner.is_some() as u64, n as u64);
            let mut none = (0, 0);
            for h in 0..n {
                let won = (o.winner == Some(h as u16)) as u64;
                let held = &r.held[h][..r.n_held[h] as usize];
                for hp in held {
                    let here = &mut open[hp.power as usize];
                    *here = (here.0 + won, here.1 + 1);
                }
                if held.is_empty() {
                    none = (none.0 + won, none.1 + 1);
                }
            }
            for h in 0..n {
                for hp in &r.held[h][..r.n_held[h] as usize] {
                    let p = hp.power as usize;
                    if open[p].1 > 0 {
                        by_power[p].add_match(open[p].0, open[p].1);
                        open[p] = (0, 0);
                    }
                }
            }
            no_power.add_match(none.0, none.1);
            if !record {
                continue;
            }
            matches_rows.push(MatchRow {
                match_id: i,
                seed,
                heroes: n as u8,
                rounds: o.rounds,
                winner: o.winner,
                draw: o.winner.is_none(),
                capped: o.capped,
                end: match o.end {
                    EndReason::Elimination => 0,
                    EndReason::RoundLimit => 1,
                    EndReason::PowerWin => 2,
                },
                survivors: o.survivors,
                hits: o.hits,
            });
            for h in 0..n {
                let held = &r.held[h][..r.n_held[h] as usize];
                let (mut powers, mut strengths) = ([0u16; MAX_HELD], [0i32; MAX_HELD]);
                for (k, hp) in held.iter().enumerate() {
                    (powers[k], strengths[k]) = (hp.power, hp.strength);
                }
                let mut order = [0u16; MAX_USE];
                let uses = &r.order[h][..r.n_order[h] as usize];
                for (k, item) in uses.iter().enumerate() {
                    order[k] = match item {
                        Use::Attack => 0,
                        Use::Power(p) => 1 + *p,
                    };
                }
                let energy = played.energy[h];
                heroes_rows.push(HeroRow {
                    match_id: i,
                    slot: h as u8,
                    team: h as u16,
                    coins: r.coins[h],
                    initiative: r.initiative[h],
                    powers: &powers[..held.len()],
                    strengths: &strengths[..held.len()],
                    use_order: &order[..uses.len()],
                    won: o.winner == Some(h as u16),
                    final_energy: energy,
                    copies_alive: played.alive[h] - energy.is_some() as u32,
                });
            }
        }
        for (n, c) in by_heroes.iter().enumerate() {
            if c.trials > 0 {
                *tally.count("heroes in the battle", &n.to_string()) = *c;
            }
        }
        for (d, c) in self.cat.defs.iter().zip(by_power) {
            if c.trials > 0 {
                *tally.count("power held", &d.name) = c;
            }
        }
        if no_power.trials > 0 {
            *tally.count("power held", "(no power)") = no_power;
        }
        if !record {
            return (Vec::new(), tally);
        }
        let mut order_labels = vec!["Attack".to_string()];
        order_labels.extend(self.power_labels());
        let matches = matches_rows.finish().with_labels(
            "end",
            ["elimination", "round limit", "power win"]
                .map(String::from)
                .to_vec(),
        );
        let heroes = heroes_rows
            .finish()
            .with_labels("powers", self.power_labels())
            .with_labels("use_order", order_labels);
        (vec![matches, heroes], tally)
    }
}

/// Which path of the struct-of-arrays data kernel plays each power's battles: "fast"
/// (self-contained powers) or "general" (reactions, summons, effects on other heroes: every
/// clause of the format, slower per hit). Neither allocates.
pub fn power_paths(
    defs: &[crate::games::auto_rumble::powers::file::PowerDef],
) -> Vec<&'static str> {
    use crate::games::auto_rumble::kernel::data::in_kernel_class;
    use crate::games::auto_rumble::powers::catalogue::{Catalogue, Held, Loadout, default_order};
    let cat = Catalogue::new(defs.to_vec());
    (0..cat.len() as u16)
        .map(|p| {
            let held = [Held {
                power: p,
                strength: 0,
            }];
            match Loadout::compile(&cat, 0, &held, &default_order(&cat, &held)) {
                Ok(l) if in_kernel_class(&[l]) => "fast",
                _ => "general",
            }
        })
        .collect()
}

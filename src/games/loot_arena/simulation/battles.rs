//! `skirmish simulate loot` (LA-31): random 2v2 battles on the platform. Battle m's sides are
//! drawn from its seed: each player fields a uniformly random pair of different champions,
//! each item slot is filled with chance `fill` (kind uniform, tier by `tiers`, the item uniform
//! among the catalogue's of that kind and tier), armor with chance `armor` (a weight the class
//! may wear, uniform); champion k of battle m plays policy `(m + k) mod P`.

// A seat (0..4) indexes several parallel columns at once: index loops say so plainly.
#![allow(clippy::needless_range_loop)]

use crate::error::Error;

use std::ops::Range;

use rand::RngExt;

use crate::games::loot_arena::kernel::battle::{Battle, Silent};
use crate::games::loot_arena::policy::Policy;
use crate::games::loot_arena::rules::{Class, Kind, MAX_ITEM_SLOTS, Rules, Weight};
use crate::games::loot_arena::state::{Catalogue, Fielded, Loadout, NO_ITEM};
use crate::platform::answer::Unit;
use crate::platform::grid::{Cell, Grid};
use crate::platform::runner::Simulation;
use crate::platform::table::{Code, Codes, Table};
use crate::platform::tally::Tally;
use crate::rng::{MatchRng, Stream, match_seed, match_stream_rng};

/// The six pairs a player can field, in a fixed order.
pub const PAIRS: [(Class, Class); 6] = [
    (Class::Gladiator, Class::Rogue),
    (Class::Gladiator, Class::Mage),
    (Class::Gladiator, Class::Healer),
    (Class::Rogue, Class::Mage),
    (Class::Rogue, Class::Healer),
    (Class::Mage, Class::Healer),
];

pub fn pair_name(p: usize) -> String {
    format!("{}+{}", PAIRS[p].0.name(), PAIRS[p].1.name())
}

/// The random field: how champions are equipped and how they play.
#[derive(Clone, Debug)]
pub struct Field {
    pub rules: Rules,
    pub catalogue: Catalogue,
    pub policies: Vec<Policy>,
    /// Chance in percent that an item slot is filled, and that a champion wears armor.
    pub fill: u32,
    pub armor: u32,
    /// Relative odds of Common, Uncommon, Rare, Legendary.
    pub tiers: [u32; 4],
}

impl Field {
    /// Checks what no battle could be drawn with.
    pub fn check(&self) -> Result<(), Error> {
        if self.policies.is_empty() {
            return Err("--policies: name at least one policy".into());
        }
        if self.fill > 100 || self.armor > 100 {
            return Err("--fill and --armor are percentages, 0 to 100".into());
        }
        if self.tiers.iter().sum::<u32>() == 0 || self.tiers.iter().any(|&t| t > 1_000_000) {
            return Err("--tiers: four weights (Common, Uncommon, Rare, Legendary), 0 to 1000000, not all 0".into());
        }
        Ok(())
    }

    fn tier(&self, rng: &mut MatchRng) -> usize {
        let total: u32 = self.tiers.iter().sum();
        let mut x = rng.random_range(0..total);
        for (t, &w) in self.tiers.iter().enumerate() {
            if x < w {
                return t;
            }
            x -= w;
        }
        3
    }

    /// Fills a champion's slots and armor by the field's odds.
    pub fn equip(&self, rng: &mut MatchRng, l: &mut Loadout) {
        for s in 0..(self.rules.item_slots.min(MAX_ITEM_SLOTS) as usize) {
            if rng.random_range(0..100) >= self.fill {
                continue;
            }
            let kind = Kind::CARRIED[rng.random_range(0..3usize)];
            let t = self.tier(rng);
            let pool = &self.catalogue.carried[kind as usize][t];
            if !pool.is_empty() {
                l.items[s] = pool[rng.random_range(0..pool.len())];
            }
        }
        if rng.random_range(0..100) < self.armor {
            let allowed = self.rules.class(l.class).armor;
            let n = allowed.count_ones();
            if n > 0 {
                let mut k = rng.random_range(0..n);
                let mut w = Weight::Light;
                for x in Weight::ALL {
                    if allowed & x.bit() != 0 {
                        if k == 0 {
                            w = x;
                            break;
                        }
                        k -= 1;
                    }
                }
                let t = self.tier(rng);
                let pool = &self.catalogue.armor[w as usize][t];
                if !pool.is_empty() {
                    l.armor = pool[rng.random_range(0..pool.len())];
                }
            }
        }
    }

    /// Battle m's champions and the pair each side fields (LA-31).
    pub fn draw(&self, m: u64, seed: u64) -> (Fielded, [usize; 2]) {
        let mut rng = match_stream_rng(seed, Stream::LootField);
        let p = self.policies.len() as u64;
        let mut f = [Loadout::bare(Class::Gladiator, 1, Policy::Random); 4];
        let mut pairs = [0usize; 2];
        for s in 0..2 {
            pairs[s] = rng.random_range(0..6usize);
            let (a, b) = PAIRS[pairs[s]];
            for (k, class) in [a, b].into_iter().enumerate() {
                let c = 2 * s + k;
                let h = self.rules.class(class).health;
                let mut l = Loadout::bare(class, h, self.policies[((m + c as u64) % p) as usize]);
                self.equip(&mut rng, &mut l);
                f[c] = l;
            }
        }
        (f, pairs)
    }
}

pub const PAIR_WINS: &str = "win share by pair";
pub const POLICY_WINS: &str = "win share by policy";
pub const DAMAGE: &str = "damage per attack by class";
pub const CRITS: &str = "share of attacks that crit, by class";

impl Simulation for Field {
    type Worker = Battle;

    fn name(&self) -> &'static str {
        "loot-battles"
    }
    fn grids(&self, tally: &Tally) -> Vec<Grid> {
        grids(self, tally)
    }

    fn tables(&self) -> Vec<&'static str> {
        vec!["battles", "champions"]
    }
    fn work_unit(&self) -> &'static str {
        "dice rolled"
    }
    fn worker(&self) -> Battle {
        Battle::new()
    }

    fn play(
        &self,
        w: &mut Battle,
        master: u64,
        matches: Range<u64>,
        record: bool,
    ) -> (Vec<Table>, Tally) {
        let mut tally = Tally::default();
        let pair_labels: Vec<String> = (0..6).map(pair_name).collect();
        let policy_labels: Vec<String> = self.policies.iter().map(|p| p.spec()).collect();
        let (mut b, mut c) = (BattleRows::default(), ChampionRows::default());
        let none = self.catalogue.items.len() as u16;
        for m in matches {
            let seed = match_seed(master, m);
            let (f, pairs) = self.draw(m, seed);
            let o = w.play(&f, &self.catalogue, &self.rules, seed, &mut Silent);
            tally.matches += 1;
            tally.draws += o.winner.is_none() as u64;
            tally.work += o.dice as u64;
            let points = o.points();
            for s in 0..2 {
                let p = if s == 0 { points } else { 2 - points };
                tally.mean(PAIR_WINS, &pair_labels[pairs[s]]).add(p);
            }
            for k in 0..4 {
                let p = if k < 2 { points } else { 2 - points };
                let pi = ((m + k as u64) % self.policies.len() as u64) as usize;
                tally.mean(POLICY_WINS, &policy_labels[pi]).add(p);
                let class = f[k].class.name();
                if o.attacks[k] > 0 {
                    // A champion's attacks are rows of this match (issue 63: the interval
                    // is by match, not by attack).
                    tally
                        .mean(DAMAGE, class)
                        .add_rows(o.dealt[k] as i64, o.attacks[k] as u64);
                    tally
                        .count(CRITS, class)
                        .add_rows(o.crits[k] as u64, o.attacks[k] as u64);
                }
            }
            if record {
                let kept = |s: usize| o.health[2 * s].max(0) + o.health[2 * s + 1].max(0);
                b.push(BattleRow {
                    battle_id: m,
                    seed,
                    pair_a: pairs[0] as u16,
                    pair_b: pairs[1] as u16,
                    winner: o.winner.map(u16::from),
                    decisive: o.decisive,
                    rounds: o.rounds,
                    health_a: kept(0),
                    health_b: kept(1),
                    dice: o.dice,
                });
                for k in 0..4 {
                    let pi = ((m + k as u64) % self.policies.len() as u64) as u16;
                    let l = &f[k];
                    let mut items = l.items; // overwritten by the carried ones, in order
                    let carried = l
                        .carried()
                        .zip(&mut items)
                        .map(|(i, slot)| *slot = i)
                        .count();
                    c.push(ChampionRow {
                        battle_id: m,
                        side: (k / 2) as u8,
                        slot: (k % 2) as u8,
                        class: l.class as u16,
                        policy: pi,
                        items: &items[..carried],
                        armor: if l.armor == NO_ITEM { none } else { l.armor },
                        start_health: o.start[k],
                        end_health: o.health[k],
                        dealt: o.dealt[k],
                        taken: o.taken[k],
                        healed: o.healed[k],
                        attacks: o.attacks[k],
                        crits: o.crits[k],
                        fell: o.fell[k],
                    });
                }
            }
        }
        if !record {
            return (Vec::new(), tally);
        }
        let names: Vec<String> = self
            .catalogue
            .items
            .iter()
            .map(|i| i.name.clone())
            .collect();
        let mut armor = names.clone();
        armor.push("none".into());
        let battles = b
            .finish()
            .with_labels("pair_a", pair_labels.clone())
            .with_labels("pair_b", pair_labels);
        let champions = c
            .finish()
            .with_labels(
                "class",
                Class::ALL.iter().map(|c| c.name().to_string()).collect(),
            )
            .with_labels("policy", policy_labels)
            .with_labels("items", names)
            .with_labels("armor", armor);
        (vec![battles, champions], tally)
    }
}

crate::table! {
    /// One row per battle.
    struct BattleRow, BattleRows = "battles" {
        battle_id: u64 => "battle index under the master seed",
        seed: u64 => "the battle's own seed (rng::match_seed)",
        pair_a: Code => "the champions side 0 fields",
        pair_b: Code => "the champions side 1 fields",
        winner: Option<u16> => "0 or 1; null for a draw (LA-16)",
        decisive: bool => "a side fell (not decided on health kept)",
        rounds: u32 => "rounds played",
        health_a: i32 => "side 0's health kept (fallen count 0)",
        health_b: i32 => "side 1's health kept",
        dice: u32 => "dice rolled",
    }
}

crate::table! {
    /// One row per champion of each battle.
    struct ChampionRow, ChampionRows = "champions" {
        battle_id: u64 => "battle index",
        side: u8 => "0 or 1",
        slot: u8 => "0 or 1 within its side",
        class: Code => "Gladiator, Rogue, Mage or Healer",
        policy: Code => "how it wrote its sets (LA-20)",
        items: Codes => "Physical, Magical and Support items carried",
        armor: Code => "its defensive item",
        start_health: i32 => "health at the start",
        end_health: i32 => "health at the end (0 or less: fell)",
        dealt: i32 => "damage it dealt",
        taken: i32 => "damage it took",
        healed: i32 => "healing it gave",
        attacks: u16 => "attacks it made",
        crits: u16 => "critical hits among them (LA-10)",
        fell: u16 => "the round it fell; 0 if it stood",
    }
}

/// The summary's grids (issue 50): win share per pair and per policy with 95% intervals; attacks,
/// damage per attack and crit rate per class.
pub fn grids(f: &Field, tally: &Tally) -> Vec<Grid> {
    let mut out: Vec<Grid> = [(PAIR_WINS, "pair"), (POLICY_WINS, "policy")]
        .into_iter()
        .map(|(group, title)| {
            Grid::points(
                &format!("win share by {title}"),
                "draws count half; seats, and share with its 95% interval",
                title,
                "seats",
                tally.means.get(group),
                usize::MAX,
            )
        })
        .collect();
    let mut classes = Grid::new(
        "per class",
        &format!(
            "crit = {}; attacks, damage per attack, and crit rate with its 95% interval",
            f.rules.crit.word()
        ),
        "class",
        &[
            ("attacks", Unit::Number),
            ("damage", Unit::Number),
            ("crit rate [95%]", Unit::Share),
        ],
    );
    for c in Class::ALL {
        let (Some(d), Some(k)) = (
            tally.means.get(DAMAGE).and_then(|g| g.get(c.name())),
            tally.groups.get(CRITS).and_then(|g| g.get(c.name())),
        ) else {
            continue;
        };
        classes.row(
            c.name(),
            vec![
                Cell::Count(d.n),
                Cell::Value(d.mean()),
                Cell::estimate(k.estimate()),
            ],
        );
    }
    out.push(classes);
    out
}

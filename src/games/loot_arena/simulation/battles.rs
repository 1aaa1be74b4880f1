//! `skirmish simulate loot` (LA-31): random 2v2 battles on the platform. Battle m's sides are
//! drawn from its seed: each player fields a uniformly random pair of different champions,
//! each item slot is filled with chance `fill` (kind uniform, tier by `tiers`, the item uniform
//! among the catalogue's of that kind and tier), armor with chance `armor` (a weight the class
//! may wear, uniform); champion k of battle m plays policy `(m + k) mod P`.

// A seat (0..4) indexes several parallel columns at once: index loops say so plainly.
#![allow(clippy::needless_range_loop)]

use std::ops::Range;

use rand::RngExt;

use crate::games::loot_arena::kernel::battle::{Battle, Silent};
use crate::games::loot_arena::policy::Policy;
use crate::games::loot_arena::rules::{Class, Kind, MAX_ITEM_SLOTS, Rules, Weight};
use crate::games::loot_arena::state::{Catalogue, Fielded, Loadout, NO_ITEM, Outcome};
use crate::platform::runner::Simulation;
use crate::platform::table::{Table, Values, col};
use crate::platform::tally::{Tally, thousands};
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
    pub fn check(&self) -> Result<(), String> {
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
pub const CRITS: &str = "crits by class";

impl Simulation for Field {
    type Worker = Battle;

    fn name(&self) -> &'static str {
        "loot-battles"
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
        let n = (matches.end - matches.start) as usize;
        let mut b = BattleRows::with_capacity(if record { n } else { 0 });
        let mut c = ChampionRows::with_capacity(if record { 4 * n } else { 0 });
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
                    let d = tally.mean(DAMAGE, class);
                    d.n += o.attacks[k] as u64;
                    d.sum += o.dealt[k] as i64;
                    let cr = tally.count(CRITS, class);
                    cr.wins += o.crits[k] as u64;
                    cr.trials += o.attacks[k] as u64;
                }
            }
            if record {
                b.push(m, seed, &pairs, &o);
                for k in 0..4 {
                    let pi = ((m + k as u64) % self.policies.len() as u64) as u16;
                    c.push(m, k, &f[k], pi, &o);
                }
            }
        }
        if !record {
            return (Vec::new(), tally);
        }
        (
            vec![
                b.finish(&pair_labels),
                c.finish(&self.catalogue, &policy_labels),
            ],
            tally,
        )
    }
}

struct BattleRows {
    id: Vec<u64>,
    seed: Vec<u64>,
    pair: [Vec<u16>; 2],
    winner: Vec<Option<u16>>,
    decisive: Vec<bool>,
    rounds: Vec<u32>,
    kept: [Vec<i32>; 2],
    dice: Vec<u32>,
}

impl BattleRows {
    fn with_capacity(n: usize) -> BattleRows {
        BattleRows {
            id: Vec::with_capacity(n),
            seed: Vec::with_capacity(n),
            pair: [Vec::with_capacity(n), Vec::with_capacity(n)],
            winner: Vec::with_capacity(n),
            decisive: Vec::with_capacity(n),
            rounds: Vec::with_capacity(n),
            kept: [Vec::with_capacity(n), Vec::with_capacity(n)],
            dice: Vec::with_capacity(n),
        }
    }
    fn push(&mut self, m: u64, seed: u64, pairs: &[usize; 2], o: &Outcome) {
        self.id.push(m);
        self.seed.push(seed);
        for s in 0..2 {
            self.pair[s].push(pairs[s] as u16);
            self.kept[s].push(o.health[2 * s].max(0) + o.health[2 * s + 1].max(0));
        }
        self.winner.push(o.winner.map(u16::from));
        self.decisive.push(o.decisive);
        self.rounds.push(o.rounds);
        self.dice.push(o.dice);
    }
    fn finish(self, pair_labels: &[String]) -> Table {
        let [pa, pb] = self.pair;
        let [ka, kb] = self.kept;
        let label = |codes: Vec<u16>| Values::Label {
            labels: pair_labels.to_vec(),
            codes,
        };
        Table {
            name: "battles",
            columns: vec![
                col(
                    "battle_id",
                    "battle index under the master seed",
                    Values::U64(self.id),
                ),
                col(
                    "seed",
                    "the battle's own seed (rng::match_seed)",
                    Values::U64(self.seed),
                ),
                col("pair_a", "the champions side 0 fields", label(pa)),
                col("pair_b", "the champions side 1 fields", label(pb)),
                col(
                    "winner",
                    "0 or 1; null for a draw (LA-16)",
                    Values::OptU16(self.winner),
                ),
                col(
                    "decisive",
                    "a side fell (not decided on health kept)",
                    Values::Bool(self.decisive),
                ),
                col("rounds", "rounds played", Values::U32(self.rounds)),
                col(
                    "health_a",
                    "side 0's health kept (fallen count 0)",
                    Values::I32(ka),
                ),
                col("health_b", "side 1's health kept", Values::I32(kb)),
                col("dice", "dice rolled", Values::U32(self.dice)),
            ],
        }
    }
}

struct ChampionRows {
    battle: Vec<u64>,
    side: Vec<u8>,
    slot: Vec<u8>,
    class: Vec<u16>,
    policy: Vec<u16>,
    items: crate::platform::table::ListBuilder<u16>,
    armor: Vec<u16>,
    start: Vec<i32>,
    end: Vec<i32>,
    dealt: Vec<i32>,
    taken: Vec<i32>,
    healed: Vec<i32>,
    attacks: Vec<u16>,
    crits: Vec<u16>,
    fell: Vec<u16>,
}

impl ChampionRows {
    fn with_capacity(n: usize) -> ChampionRows {
        ChampionRows {
            battle: Vec::with_capacity(n),
            side: Vec::with_capacity(n),
            slot: Vec::with_capacity(n),
            class: Vec::with_capacity(n),
            policy: Vec::with_capacity(n),
            items: crate::platform::table::ListBuilder::with_capacity(n, 2 * n),
            armor: Vec::with_capacity(n),
            start: Vec::with_capacity(n),
            end: Vec::with_capacity(n),
            dealt: Vec::with_capacity(n),
            taken: Vec::with_capacity(n),
            healed: Vec::with_capacity(n),
            attacks: Vec::with_capacity(n),
            crits: Vec::with_capacity(n),
            fell: Vec::with_capacity(n),
        }
    }
    fn push(&mut self, m: u64, k: usize, l: &Loadout, policy: u16, o: &Outcome) {
        self.battle.push(m);
        self.side.push((k / 2) as u8);
        self.slot.push((k % 2) as u8);
        self.class.push(l.class as u16);
        self.policy.push(policy);
        for i in l.carried() {
            self.items.values.push(i);
        }
        self.items.offsets.push(self.items.values.len() as u32);
        self.armor.push(l.armor);
        self.start.push(o.start[k]);
        self.end.push(o.health[k]);
        self.dealt.push(o.dealt[k]);
        self.taken.push(o.taken[k]);
        self.healed.push(o.healed[k]);
        self.attacks.push(o.attacks[k]);
        self.crits.push(o.crits[k]);
        self.fell.push(o.fell[k]);
    }
    fn finish(self, cat: &Catalogue, policy_labels: &[String]) -> Table {
        let names: Vec<String> = cat.items.iter().map(|i| i.name.clone()).collect();
        let mut armor_labels = names.clone();
        armor_labels.push("none".into());
        let none = (armor_labels.len() - 1) as u16;
        let armor = self
            .armor
            .iter()
            .map(|&a| if a == NO_ITEM { none } else { a })
            .collect();
        Table {
            name: "champions",
            columns: vec![
                col("battle_id", "battle index", Values::U64(self.battle)),
                col("side", "0 or 1", Values::U8(self.side)),
                col("slot", "0 or 1 within its side", Values::U8(self.slot)),
                col(
                    "class",
                    "Gladiator, Rogue, Mage or Healer",
                    Values::Label {
                        labels: Class::ALL.iter().map(|c| c.name().to_string()).collect(),
                        codes: self.class,
                    },
                ),
                col(
                    "policy",
                    "how it wrote its sets (LA-20)",
                    Values::Label {
                        labels: policy_labels.to_vec(),
                        codes: self.policy,
                    },
                ),
                col(
                    "items",
                    "Physical, Magical and Support items carried",
                    Values::LabelList {
                        labels: names,
                        offsets: self.items.offsets,
                        codes: self.items.values,
                    },
                ),
                col(
                    "armor",
                    "its defensive item",
                    Values::Label {
                        labels: armor_labels,
                        codes: armor,
                    },
                ),
                col(
                    "start_health",
                    "health at the start",
                    Values::I32(self.start),
                ),
                col(
                    "end_health",
                    "health at the end (0 or less: fell)",
                    Values::I32(self.end),
                ),
                col("dealt", "damage it dealt", Values::I32(self.dealt)),
                col("taken", "damage it took", Values::I32(self.taken)),
                col("healed", "healing it gave", Values::I32(self.healed)),
                col("attacks", "attacks it made", Values::U16(self.attacks)),
                col(
                    "crits",
                    "critical hits among them (LA-10)",
                    Values::U16(self.crits),
                ),
                col(
                    "fell",
                    "the round it fell; 0 if it stood",
                    Values::U16(self.fell),
                ),
            ],
        }
    }
}

/// The summary: win share per pair and per policy with 95% intervals; damage per attack and
/// crit rate per class.
pub fn summary(f: &Field, tally: &Tally) -> String {
    let mut s = String::new();
    for (group, title) in [(PAIR_WINS, "pair"), (POLICY_WINS, "policy")] {
        s.push_str(&format!(
            "\nwin share by {title} (draws count half; seats, share, 95% interval)\n"
        ));
        if let Some(g) = tally.means.get(group) {
            let mut rows: Vec<_> = g.iter().collect();
            rows.sort_by(|a, b| b.1.mean().total_cmp(&a.1.mean()));
            for (label, m) in rows {
                s.push_str(&format!(
                    "  {label:<28} {:>10}  {}\n",
                    thousands(m.n),
                    m.points_share95()
                ));
            }
        }
    }
    s.push_str(&format!(
        "\nper class (crit reading: {:?}): attacks, damage per attack, crit rate [95%]\n",
        f.rules.crit
    ));
    for c in Class::ALL {
        let (Some(d), Some(k)) = (
            tally.means.get(DAMAGE).and_then(|g| g.get(c.name())),
            tally.groups.get(CRITS).and_then(|g| g.get(c.name())),
        ) else {
            continue;
        };
        s.push_str(&format!(
            "  {:<10} {:>12}  {:6.2}  {}\n",
            c.name(),
            thousands(d.n),
            d.mean(),
            k.share95()
        ));
    }
    s
}

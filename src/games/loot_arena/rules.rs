//! Loot Arena's numbers and readings (`docs/rules/seeds/002_09b196f2d61b7b39.txt`; entries LA-n in
//! `docs/rules/loot-arena.md`). Every number and every settled reading is a field of [`Rules`]
//! with the seed's value (or the most faithful reading) as default; `input::rules` reads a
//! host's rules file into it, so "what if Mages had 90 health" is one line.
//!
//! Multipliers are exact: fixed point with [`SCALE`] units per 1 (3 decimals in files), so
//! 1.25 x 0.8 is exactly 1 and a tie such as 10.5 is a tie, never 10.499999.

use crate::error::Error;
use std::fmt;

/// Fixed-point units per 1.0 (LA-9). Files give multipliers with at most 3 decimals, so the
/// product of three of them is still exact.
pub const SCALE: i64 = 1_000_000_000;

/// Most dice of one kind (a class's base attack, an item, armor): each has 32 places in a
/// champion's draw space (LA-30).
pub const MAX_DICE: u8 = 32;
/// Most rounds in a set and sets in a battle (a set's actions are a fixed-size array).
pub const MAX_ROUNDS_PER_SET: u32 = 16;
pub const MAX_SETS: u32 = 100;
/// Most Physical/Magical/Support items a champion carries (LA-18; the seed's 2 by default).
pub const MAX_ITEM_SLOTS: u32 = 4;

/// The four champions (LA-1), in the order the seed lists their dice.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[repr(u8)]
pub enum Class {
    Gladiator = 0,
    Rogue = 1,
    Mage = 2,
    Healer = 3,
}

impl Class {
    pub const ALL: [Class; 4] = [Class::Gladiator, Class::Rogue, Class::Mage, Class::Healer];
    pub fn name(self) -> &'static str {
        ["Gladiator", "Rogue", "Mage", "Healer"][self as usize]
    }
    pub fn key(self) -> &'static str {
        ["gladiator", "rogue", "mage", "healer"][self as usize]
    }
    #[inline]
    pub fn from_index(i: u8) -> Class {
        Class::ALL[i as usize & 3]
    }
    /// A class by name, any case.
    pub fn parse(s: &str) -> Option<Class> {
        let k = s.trim().to_ascii_lowercase();
        Class::ALL.into_iter().find(|c| c.key() == k)
    }
}

/// An item's type (LA-17).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[repr(u8)]
pub enum Kind {
    Physical = 0,
    Magical = 1,
    Support = 2,
    Defensive = 3,
}

impl Kind {
    pub const ALL: [Kind; 4] = [
        Kind::Physical,
        Kind::Magical,
        Kind::Support,
        Kind::Defensive,
    ];
    /// The kinds that fill the item slots (every kind but Defensive).
    pub const CARRIED: [Kind; 3] = [Kind::Physical, Kind::Magical, Kind::Support];
    pub fn name(self) -> &'static str {
        ["Physical", "Magical", "Support", "Defensive"][self as usize]
    }
    pub fn key(self) -> &'static str {
        ["physical", "magical", "support", "defensive"][self as usize]
    }
    #[inline]
    pub fn bit(self) -> u8 {
        1 << self as u8
    }
    pub fn parse(s: &str) -> Option<Kind> {
        let k = s.trim().to_ascii_lowercase();
        Kind::ALL.into_iter().find(|c| c.key() == k)
    }
}

/// An item's tier (LA-17).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[repr(u8)]
pub enum Tier {
    Common = 0,
    Uncommon = 1,
    Rare = 2,
    Legendary = 3,
}

impl Tier {
    pub const ALL: [Tier; 4] = [Tier::Common, Tier::Uncommon, Tier::Rare, Tier::Legendary];
    pub fn name(self) -> &'static str {
        ["Common", "Uncommon", "Rare", "Legendary"][self as usize]
    }
    pub fn key(self) -> &'static str {
        ["common", "uncommon", "rare", "legendary"][self as usize]
    }
    pub fn parse(s: &str) -> Option<Tier> {
        let k = s.trim().to_ascii_lowercase();
        Tier::ALL.into_iter().find(|c| c.key() == k)
    }
}

/// A defensive item's weight (LA-18).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[repr(u8)]
pub enum Weight {
    Light = 0,
    Medium = 1,
    Heavy = 2,
}

impl Weight {
    pub const ALL: [Weight; 3] = [Weight::Light, Weight::Medium, Weight::Heavy];
    pub fn name(self) -> &'static str {
        ["Light", "Medium", "Heavy"][self as usize]
    }
    pub fn key(self) -> &'static str {
        ["light", "medium", "heavy"][self as usize]
    }
    #[inline]
    pub fn bit(self) -> u8 {
        1 << self as u8
    }
    pub fn parse(s: &str) -> Option<Weight> {
        let k = s.trim().to_ascii_lowercase();
        Weight::ALL.into_iter().find(|c| c.key() == k)
    }
}

/// Dice in the rules' notation: `2d10`, `1d8+1`, `3d6-2`, or a flat `4` (LA-8).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize)]
pub struct Dice {
    pub n: u8,
    pub sides: u16,
    pub plus: i16,
}

impl Dice {
    pub const NONE: Dice = Dice {
        n: 0,
        sides: 0,
        plus: 0,
    };
    pub const fn new(n: u8, sides: u16) -> Dice {
        Dice { n, sides, plus: 0 }
    }
    /// Parses `NdS`, `NdS+K`, `NdS-K` or `K`; the message says what is wrong and the fix.
    pub fn parse(s: &str) -> Result<Dice, Error> {
        let t: String = s.chars().filter(|c| !c.is_whitespace()).collect();
        let t = t.to_ascii_lowercase();
        let bad = || {
            Error::Input(format!(
                "`{s}`: write dice as NdS with an optional +K or -K (`1d8`, `2d6+1`), or a number"
            ))
        };
        // Dice are ASCII: anything else is refused before the string is cut by byte.
        if t.is_empty() || !t.is_ascii() {
            return Err(bad());
        }
        let (dice, plus) = match t[1..].find(['+', '-']) {
            Some(i) => (&t[..i + 1], &t[i + 1..]),
            None => (t.as_str(), ""),
        };
        let plus: i32 = if plus.is_empty() {
            0
        } else {
            plus.parse().map_err(|_| bad())?
        };
        if !(-1000..=1000).contains(&plus) {
            return Err(Error::Input(format!("`{s}`: a bonus is -1000 to 1000")));
        }
        let Some((n, sides)) = dice.split_once('d') else {
            let k: i64 = dice.parse().map_err(|_| bad())?;
            if !(-1000..=1000).contains(&(k + plus as i64)) {
                return Err(Error::Input(format!(
                    "`{s}`: a flat bonus is -1000 to 1000"
                )));
            }
            return Ok(Dice {
                n: 0,
                sides: 0,
                plus: (k + plus as i64) as i16,
            });
        };
        let n: u32 = if n.is_empty() {
            1
        } else {
            n.parse().map_err(|_| bad())?
        };
        let sides: u32 = sides.parse().map_err(|_| bad())?;
        if n > MAX_DICE as u32 {
            return Err(Error::Input(format!("`{s}`: at most {MAX_DICE} dice")));
        }
        if !(1..=1000).contains(&sides) {
            return Err(Error::Input(format!("`{s}`: a die has 1 to 1000 sides")));
        }
        Ok(Dice {
            n: n as u8,
            sides: sides as u16,
            plus: plus as i16,
        })
    }
    /// Dice that absorb damage (armor, evasion) with a least total of 0 or more: below 0 they
    /// would add damage (`1d4-10` armor made hits stronger, issue 53). `what` names them.
    pub fn absorbing(self, what: &str) -> Result<Dice, Error> {
        let (least, _) = self.range();
        if least < 0 {
            return Err(Error::Input(format!(
                "`{self}` can roll {least}: {what} absorbs damage and never adds to it; keep its least roll at 0 or more (e.g. `1d4` rather than `1d4-10`)"
            )));
        }
        Ok(self)
    }

    /// The least and greatest totals.
    pub fn range(self) -> (i32, i32) {
        let n = self.n as i32;
        (
            n.min(n * self.sides as i32) + self.plus as i32,
            n * self.sides as i32 + self.plus as i32,
        )
    }
    pub fn is_none(self) -> bool {
        self.n == 0 && self.plus == 0
    }
    /// The mean total.
    pub fn mean(self) -> f64 {
        self.n as f64 * (self.sides as f64 + 1.0) / 2.0 + self.plus as f64
    }
}

impl fmt::Display for Dice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.n == 0 {
            return write!(f, "{}", self.plus);
        }
        write!(f, "{}d{}", self.n, self.sides)?;
        match self.plus {
            0 => Ok(()),
            p if p > 0 => write!(f, "+{p}"),
            p => write!(f, "{p}"),
        }
    }
}

/// A battle's 64-bit damage or healing into a 32-bit tally, saturating: settings may make one hit
/// exceed 2^31 (multipliers of 100, crit x10, `32d1000+1000`), and a tally must never wrap
/// (issue 53).
#[inline]
pub fn saturate(v: i64) -> i32 {
    v.clamp(i32::MIN as i64, i32::MAX as i64) as i32
}

/// A multiplier in [`SCALE`] units, read from a decimal with at most 3 places.
pub fn frac(x: f64) -> Option<i64> {
    let k = (x * 1000.0).round();
    ((x * 1000.0 - k).abs() < 1e-6 && (0.0..=100_000.0).contains(&k))
        .then_some(k as i64 * (SCALE / 1000))
}

/// A multiplier written back as a decimal (`1.25`).
pub fn show_frac(m: i64) -> String {
    // Enough places for any product of the seed's factors (1.25 x 1.25 = 1.5625).
    let s = format!("{:.6}", m as f64 / SCALE as f64);
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// One class's numbers (LA-1, LA-14, LA-18).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct ClassRules {
    pub health: i32,
    /// The base attack dice (LA-8).
    pub dice: Dice,
    /// Kinds whose items this class uses with affinity (bits of [`Kind::bit`], LA-7).
    pub affinity: u8,
    /// Armor weights it may wear (bits of [`Weight::bit`], LA-18).
    pub armor: u8,
    /// May choose Heal (LA-11) and Support (LA-12).
    pub can_heal: bool,
    pub can_support: bool,
}

/// How two bonuses combine (LA-5, LA-7).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum Stacking {
    /// 1 + (a - 1) + (b - 1): the seed's "stacks additively" (a Gladiator's Physical weapon does
    /// 1.5x to a Mage).
    Additive,
    /// a x b.
    Multiplicative,
}

/// What affinity multiplies (LA-7): the affinity item's own dice (the seed's sentence), or the
/// whole attack when an affinity item is carried (its footnote's other reading: "a Gladiator
/// with a Physical weapon would do 1.5x damage to a Mage").
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum AffinityScope {
    Item,
    Attack,
}

/// Which base rolls make a critical hit (LA-10).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum Crit {
    /// Any base die shows its top face (the seed names single-die faces: "10 for Gladiators").
    AnyDie,
    /// Every base die shows its top face.
    EveryDie,
    /// No critical hits.
    Never,
}

impl Crit {
    /// The reading as a rules file writes it (`crit = "any_die"`), for titles a host reads.
    pub fn word(self) -> &'static str {
        match self {
            Crit::AnyDie => "any_die",
            Crit::EveryDie => "every_die",
            Crit::Never => "never",
        }
    }
}

/// What a critical hit multiplies (LA-10).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum CritStage {
    /// The attack's final damage ("do double the damage").
    Final,
    /// The base roll only.
    Base,
}

/// "Rounded to the nearest whole number": how a half rounds (LA-9).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum Rounding {
    HalfUp,
    HalfEven,
    Down,
}

/// When two Healers in a fight cancel each other's effects (LA-6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum TwoHealers {
    /// Any two Healers in the fight, on one side or both ("if two Healers are in the fight").
    Any,
    /// Only a Healer on each side.
    Opposing,
    /// Never: each Healer's effects stand.
    Never,
}

/// Whether a dead Healer's effects last (LA-6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum HealerEffects {
    /// Only while the Healer lives (a dead champion is not "in the fight").
    WhileAlive,
    /// The whole battle, once fielded.
    WholeBattle,
}

/// Who wins a battle that ends with both sides standing (LA-16).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum Judge {
    /// The side keeping the larger share of its fielded champions' health; equal shares draw.
    HealthShare,
    /// Nobody: it is a draw.
    Draw,
}

/// Every number and reading of the battle.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Rules {
    pub classes: [ClassRules; 4],
    /// `beats[a][b]`: class a is strong against class b (LA-3).
    pub beats: [[bool; 4]; 4],
    /// Damage dealt to a type one is strong against (1.25) and taken from it (0.8), in SCALE.
    pub strong_deals: i64,
    pub strong_takes: i64,
    /// The affinity multiplier on an item's effect (1.25) and how it joins strength (LA-7).
    pub affinity: i64,
    pub affinity_stacking: Stacking,
    /// What affinity multiplies (LA-7).
    pub affinity_scope: AffinityScope,
    pub crit: Crit,
    pub crit_stage: CritStage,
    pub crit_multiplier: u32,
    pub rounding: Rounding,
    /// The least damage an attack does (0: "negative damage" is none, LA-9).
    pub min_damage: i32,
    pub heal_dice: Dice,
    /// Whether healing can lift a champion above its max health (LA-15).
    pub overheal: bool,
    pub support_dice: Dice,
    /// An evader's armor roll counts this many times, plus `evade_dice` (LA-13).
    pub evade_factor: u32,
    pub evade_dice: Dice,
    pub two_healers: TwoHealers,
    pub healer_effects: HealerEffects,
    pub rounds_per_set: u32,
    pub sets: u32,
    pub judge: Judge,
    /// The item kinds that add to an attack, a heal and a support (bits of [`Kind::bit`]).
    pub attack_items: u8,
    pub heal_items: u8,
    pub support_items: u8,
    pub item_slots: u32,
    /// Between battles (part 2): damage stays and the dead stay dead (LA-17).
    pub carry_damage: bool,
    /// The whole battle royale (part 2, LA-40..LA-49).
    pub royale: Royale,
}

/// Most players in a royale (the map's cells bound it further, LA-40).
pub const MAX_PLAYERS: usize = 64;
/// Most items a player holds unequipped (LA-44).
pub const MAX_BAG: u32 = 16;
/// Most looting actions a round (LA-43).
pub const MAX_LOOT_ACTIONS: u32 = 16;

/// What a cell's loot is like: the map's corners, edges and centre (LA-42).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[repr(u8)]
pub enum Ring {
    Corner = 0,
    Edge = 1,
    Centre = 2,
}

impl Ring {
    pub const ALL: [Ring; 3] = [Ring::Corner, Ring::Edge, Ring::Centre];
    pub fn key(self) -> &'static str {
        ["corner", "edge", "centre"][self as usize]
    }
    /// The ring of cell (x, y) on a map of `side` (LA-42): on two borders a corner, on one an
    /// edge, else the centre (a 2x2 map is four corners).
    pub fn of(x: u32, y: u32, side: u32) -> Ring {
        let border = |v: u32| (v == 0 || v + 1 == side) as u32;
        match border(x) + border(y) {
            2 => Ring::Corner,
            1 => Ring::Edge,
            _ => Ring::Centre,
        }
    }
}

/// Where a player on the middle line of a shrinking map goes (LA-41).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum Merge {
    /// Either side at random, drawn per player and axis from the game's seed.
    Random,
    /// The lower side (north, west).
    Low,
}

/// Who fights twice when an odd number of players share a tile (LA-46).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum Twice {
    /// One of the players paired in the first battles, at random among those still in.
    Random,
    /// The one of those with the most health left on its living champions.
    Healthiest,
}

/// The royale's numbers and readings (LA-40..LA-49).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Royale {
    /// The starting map's side (4: a 4x4 grid, LA-40).
    pub side: u32,
    /// `(players, side)`: when that many players or fewer are still in, the map has that side
    /// (the seed's 3x3 at 9 and 2x2 at 4), largest first.
    pub shrink: Vec<(u32, u32)>,
    pub merge: Merge,
    /// Looting actions a round (the seed's "three looting actions by default", LA-43).
    pub loot_actions: u32,
    /// Tier weights by ring (`odds[ring][tier]`, LA-42).
    pub odds: [[u32; 4]; 3],
    /// Kind weights of a found item (Physical, Magical, Support, Defensive).
    pub kinds: [u32; 4],
    /// Items a cell's pool holds; 0: endless (every draw fresh). A finite pool refills when
    /// the map shrinks (LA-42).
    pub pool: u32,
    /// Items a player keeps unequipped (LA-44).
    pub bag: u32,
    pub twice: Twice,
    /// Rounds after which a game stops, reported as a turn cap (LA-48).
    pub max_rounds: u32,
    /// Whether a game that can no longer change ends there, reported as stalled (LA-52);
    /// off: it runs to the turn cap.
    pub end_stalled: bool,
}

impl Default for Royale {
    fn default() -> Royale {
        Royale {
            side: 4,
            shrink: vec![(9, 3), (4, 2)],
            merge: Merge::Random,
            loot_actions: 3,
            odds: [[60, 30, 9, 1], [40, 35, 20, 5], [20, 35, 30, 15]],
            kinds: [1, 1, 1, 1],
            pool: 0,
            bag: 6,
            twice: Twice::Random,
            max_rounds: 60,
            end_stalled: true,
        }
    }
}

impl Royale {
    /// Whether a game of `players` can start (LA-40): at least two, each on a cell of its own.
    pub fn check_players(&self, players: usize) -> Result<(), Error> {
        let side = self.side_for(players as u32);
        let cells = (side * side) as usize;
        if players < 2 {
            let s = if players == 1 { "" } else { "s" };
            return Err(Error::Input(format!(
                "{players} player{s}: a royale needs at least 2"
            )));
        }
        if players > cells.min(MAX_PLAYERS) {
            return Err(Error::Input(format!(
                "{players} players: a {side}x{side} map has {cells} cells and each player spawns \
                 on its own (at most {}); fewer players, or a larger `royale.side`",
                cells.min(MAX_PLAYERS)
            )));
        }
        Ok(())
    }
    /// The map's side while `players` are still in (LA-40).
    pub fn side_for(&self, players: u32) -> u32 {
        let mut side = self.side;
        for &(n, s) in &self.shrink {
            if players <= n {
                side = side.min(s);
            }
        }
        side
    }
}

impl Default for Rules {
    fn default() -> Rules {
        let p = Kind::Physical.bit();
        let m = Kind::Magical.bit();
        let s = Kind::Support.bit();
        let (l, med, h) = (
            Weight::Light.bit(),
            Weight::Medium.bit(),
            Weight::Heavy.bit(),
        );
        let c = |health, n, sides, affinity, armor, can_heal, can_support| ClassRules {
            health,
            dice: Dice::new(n, sides),
            affinity,
            armor,
            can_heal,
            can_support,
        };
        let mut beats = [[false; 4]; 4];
        use Class::*;
        for (a, b) in [
            (Gladiator, Mage),
            (Mage, Rogue),
            (Rogue, Gladiator),
            (Gladiator, Healer),
            (Rogue, Healer),
            (Mage, Healer),
        ] {
            beats[a as usize][b as usize] = true;
        }
        Rules {
            classes: [
                c(100, 2, 10, p, l | med | h, false, false),
                c(85, 3, 8, p | s, l | med, false, true),
                c(85, 4, 5, m, l | med, false, true),
                c(80, 1, 10, m | s, l, true, true),
            ],
            beats,
            strong_deals: 1_250_000_000,
            strong_takes: 800_000_000,
            affinity: 1_250_000_000,
            affinity_stacking: Stacking::Additive,
            affinity_scope: AffinityScope::Item,
            crit: Crit::AnyDie,
            crit_stage: CritStage::Final,
            crit_multiplier: 2,
            rounding: Rounding::HalfUp,
            min_damage: 0,
            heal_dice: Dice::new(1, 20),
            overheal: false,
            support_dice: Dice::new(1, 4),
            evade_factor: 2,
            evade_dice: Dice::new(1, 4),
            two_healers: TwoHealers::Any,
            healer_effects: HealerEffects::WhileAlive,
            rounds_per_set: 4,
            sets: 1,
            judge: Judge::HealthShare,
            attack_items: p | m,
            heal_items: m | s,
            support_items: s,
            item_slots: 2,
            carry_damage: true,
            royale: Royale::default(),
        }
    }
}

impl Rules {
    #[inline]
    pub fn class(&self, c: Class) -> &ClassRules {
        &self.classes[c as usize]
    }
    pub fn rounds(&self) -> u32 {
        self.rounds_per_set * self.sets
    }
    /// The strength factor of an attack (LA-5): `deals` when the attacker is strong against the
    /// target, `takes` when the target is strong against the attacker (never both at once: a
    /// Healer's boost comes with its negation and mutual strengths are refused; were both to
    /// hold, they would add as the seed's bonuses do).
    #[inline]
    pub fn strength(&self, deals: bool, takes: bool) -> i64 {
        let d = if deals { self.strong_deals } else { SCALE };
        let t = if takes { self.strong_takes } else { SCALE };
        compose(Stacking::Additive, d, t)
    }
    /// An item's multiplier on an attack whose strength factor is `f` (LA-7).
    #[inline]
    pub fn item_factor(&self, f: i64, affinity: bool) -> i64 {
        if affinity {
            compose(self.affinity_stacking, f, self.affinity)
        } else {
            f
        }
    }
    /// The factor a whole attack is taken at (LA-7): the strength factor `f`, raised by
    /// affinity when the attacker `carries` an affinity item and affinity reaches the attack
    /// (then its items, affinity ones too, are taken at that factor alone; heal and support
    /// items keep [`Rules::item_factor`]).
    #[inline]
    pub fn attack_factor(&self, f: i64, carries: bool) -> i64 {
        if carries && self.affinity_scope == AffinityScope::Attack {
            compose(self.affinity_stacking, f, self.affinity)
        } else {
            f
        }
    }
    /// A whole number from a value in SCALE units (LA-9).
    #[inline]
    pub fn round(&self, v: i64) -> i64 {
        round(self.rounding, v)
    }
}

/// Two multipliers (SCALE units) combined.
#[inline]
pub fn compose(how: Stacking, a: i64, b: i64) -> i64 {
    match how {
        Stacking::Additive => a + b - SCALE,
        Stacking::Multiplicative => ((a as i128 * b as i128) / SCALE as i128) as i64,
    }
}

/// A value in SCALE units to a whole number.
#[inline]
pub fn round(how: Rounding, v: i64) -> i64 {
    let q = v.div_euclid(SCALE);
    let r = v.rem_euclid(SCALE);
    match how {
        Rounding::Down => q,
        Rounding::HalfUp => q + (2 * r >= SCALE) as i64,
        Rounding::HalfEven => q + ((2 * r > SCALE) || (2 * r == SCALE && q & 1 == 1)) as i64,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dice_notation_reads_and_prints_back() {
        for s in ["1d8", "2d6+1", "3d4-2", "4", "d20"] {
            let d = Dice::parse(s).unwrap();
            let back = if s == "d20" { "1d20" } else { s };
            assert_eq!(d.to_string(), back);
        }
        assert_eq!(Dice::parse("2d6+1").unwrap().range(), (3, 13));
        assert!(Dice::parse("33d6").is_err());
        assert!(Dice::parse("1d0").is_err());
        assert!(Dice::parse("x").is_err());
        assert!(Dice::parse("").is_err());
        assert!(Dice::parse("1d6+").is_err());
    }

    // Issue 53: one hit above 2^31 (accepted multipliers of 100, crit x10, big item dice) wrapped
    // the `dealt` / `taken` / `healed` tallies negative; they saturate now.
    #[test]
    fn tallies_saturate_at_the_extremes_instead_of_wrapping() {
        assert_eq!(saturate(6_368_278_010), i32::MAX);
        assert_eq!(saturate(i64::MAX), i32::MAX);
        assert_eq!(saturate(i64::MIN), i32::MIN);
        assert_eq!(saturate(2_073_310_714), 2_073_310_714);
        assert_eq!(i32::MAX.saturating_add(saturate(1 << 40)), i32::MAX);
    }

    // Issue 53: a first character that is not ASCII was cut inside by byte (a panic), and a flat
    // number near i32::MAX wrapped when its bonus was added.
    #[test]
    fn dice_with_non_ascii_or_huge_numbers_are_refused_not_a_panic() {
        for s in [
            "é",
            "é1d6",
            "1d6+é",
            "Mage with é",
            "ß2",
            "2147483647+1000",
            "-2147483648-1000",
        ] {
            assert!(Dice::parse(s).is_err(), "{s}");
        }
    }

    #[test]
    fn multipliers_are_exact_and_rounding_settles_ties() {
        assert_eq!(frac(1.25), Some(1_250_000_000));
        assert_eq!(frac(1.2345), None);
        let r = Rules::default();
        assert_eq!(
            r.strength(true, true),
            1_050_000_000,
            "additive: 1 + .25 - .2"
        );
        assert_eq!(
            compose(Stacking::Multiplicative, 1_250_000_000, 800_000_000),
            SCALE
        );
        assert_eq!(r.item_factor(r.strength(true, false), true), 1_500_000_000);
        assert_eq!(round(Rounding::HalfUp, 10 * SCALE + SCALE / 2), 11);
        assert_eq!(round(Rounding::HalfEven, 10 * SCALE + SCALE / 2), 10);
        assert_eq!(round(Rounding::HalfEven, 11 * SCALE + SCALE / 2), 12);
        assert_eq!(round(Rounding::Down, 10 * SCALE + SCALE - 1), 10);
    }
}

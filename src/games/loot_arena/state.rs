//! What a battle is made of: items (LA-17), a champion's loadout, the four fielded champions,
//! and what a battle reports. Shared by the kernel, the reference model, the inputs and the
//! analyses; knows no file format and no RNG.

use crate::games::loot_arena::policy::Policy;
use crate::games::loot_arena::rules::{Class, Dice, Kind, MAX_ITEM_SLOTS, Tier, Weight};

/// One item of a catalogue.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Item {
    pub name: String,
    pub kind: Kind,
    pub tier: Tier,
    /// Defensive items only.
    pub weight: Option<Weight>,
    /// Added to an action (Physical, Magical, Support) or rolled as defence (Defensive).
    pub dice: Dice,
}

impl Item {
    /// `Rare Magical`, `Common Light armor`: the label analyses group items by.
    pub fn label(&self) -> String {
        match self.weight {
            Some(w) => format!("{} {} armor", self.tier.name(), w.name()),
            None => format!("{} {}", self.tier.name(), self.kind.name()),
        }
    }
}

/// A list of items with lookups by kind and tier (random draws) and by name (files).
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Catalogue {
    pub items: Vec<Item>,
    /// Where the catalogue came from (named in summaries).
    pub source: String,
    /// `carried[kind][tier]`: indices of Physical / Magical / Support items.
    pub carried: [[Vec<u16>; 4]; 3],
    /// `armor[weight][tier]`: indices of Defensive items.
    pub armor: [[Vec<u16>; 4]; 3],
    /// Items measured but never drawn (a host's candidates, issue 51): in `items`, not in
    /// `carried` or `armor`.
    pub undrawn: Vec<u16>,
}

impl Catalogue {
    pub fn new(items: Vec<Item>, source: impl Into<String>) -> Catalogue {
        let mut c = Catalogue {
            items,
            source: source.into(),
            ..Catalogue::default()
        };
        c.index();
        c
    }
    fn index(&mut self) {
        self.carried = Default::default();
        self.armor = Default::default();
        for (i, it) in self.items.iter().enumerate() {
            if self.undrawn.contains(&(i as u16)) {
                continue;
            }
            match it.weight {
                Some(w) => self.armor[w as usize][it.tier as usize].push(i as u16),
                None => self.carried[it.kind as usize][it.tier as usize].push(i as u16),
            }
        }
    }
    /// Adds an item that is measured but never drawn (issue 51) and returns its index.
    pub fn add_undrawn(&mut self, item: Item) -> u16 {
        self.items.push(item);
        let i = (self.items.len() - 1) as u16;
        self.undrawn.push(i);
        i
    }
    /// Adds an item (a file's own `"magical 1d8"`) and returns its index.
    pub fn add(&mut self, item: Item) -> u16 {
        if let Some(i) = self.items.iter().position(|x| *x == item) {
            return i as u16;
        }
        self.items.push(item);
        self.index();
        (self.items.len() - 1) as u16
    }
    pub fn find(&self, name: &str) -> Option<u16> {
        let key = crate::names::normalise(name);
        self.items
            .iter()
            .position(|i| crate::names::normalise(&i.name) == key)
            .map(|i| i as u16)
    }
    #[inline]
    pub fn get(&self, i: u16) -> Option<&Item> {
        self.items.get(i as usize)
    }
}

/// No item in a slot.
pub const NO_ITEM: u16 = u16::MAX;

/// One champion as fielded: its class, health, items (catalogue indices) and how it plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Loadout {
    pub class: Class,
    /// Health at the start of the battle, and the most it can be healed to (LA-15).
    pub health: i32,
    pub max: i32,
    pub items: [u16; MAX_ITEM_SLOTS as usize],
    pub armor: u16,
    pub policy: Policy,
}

impl Loadout {
    /// A bare champion at full health.
    pub fn bare(class: Class, health: i32, policy: Policy) -> Loadout {
        Loadout {
            class,
            health,
            max: health,
            items: [NO_ITEM; MAX_ITEM_SLOTS as usize],
            armor: NO_ITEM,
            policy,
        }
    }
    pub fn carried(&self) -> impl Iterator<Item = u16> + '_ {
        self.items.iter().copied().filter(|&i| i != NO_ITEM)
    }
}

/// The four fielded champions: side 0 is `[0, 1]`, side 1 is `[2, 3]` (LA-2).
pub type Fielded = [Loadout; 4];

/// The side of fielded champion c, and its partner.
#[inline]
pub const fn side(c: usize) -> usize {
    c >> 1
}
#[inline]
pub const fn partner(c: usize) -> usize {
    c ^ 1
}

/// What a battle reports.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Outcome {
    /// The winning side; `None` for a draw (LA-16).
    pub winner: Option<u8>,
    /// Whether a side fell (the other won outright rather than on the judge's count).
    pub decisive: bool,
    pub rounds: u32,
    pub start: [i32; 4],
    pub health: [i32; 4],
    /// Damage each champion dealt and healing it gave (what it did), and damage it took.
    pub dealt: [i32; 4],
    pub healed: [i32; 4],
    pub taken: [i32; 4],
    pub attacks: [u16; 4],
    pub crits: [u16; 4],
    /// The round a champion fell (1-based); 0 if it stands.
    pub fell: [u16; 4],
    /// Dice rolled in the battle (the kernel's unit of work).
    pub dice: u32,
}

impl Outcome {
    /// Side 0's result as 0 (loss), 1 (draw) or 2 (win): half-points kept in integers.
    pub fn points(&self) -> i64 {
        match self.winner {
            Some(0) => 2,
            Some(_) => 0,
            None => 1,
        }
    }
}

/// Most items a player may hold at once: a full bag and every champion's gear, plus a round's
/// loot and a fallen champion's gear before the Equipment phase trims the bag (LA-44).
pub const MAX_HELD: usize = 64;

/// One of a player's four champions in the royale (LA-44, LA-45): health left (0 or below:
/// fallen for good) and what it wears.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Champ {
    pub health: i32,
    pub items: [u16; MAX_ITEM_SLOTS as usize],
    pub armor: u16,
}

impl Champ {
    pub const BARE: Champ = Champ {
        health: 0,
        items: [NO_ITEM; MAX_ITEM_SLOTS as usize],
        armor: NO_ITEM,
    };
    #[inline]
    pub fn alive(&self) -> bool {
        self.health > 0
    }
    /// Items worn (carried and armor).
    pub fn worn(&self) -> usize {
        self.items.iter().filter(|&&i| i != NO_ITEM).count() + (self.armor != NO_ITEM) as usize
    }
}

/// A player's champions (in `Class::ALL` order) and its bag of unequipped items.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Gear {
    pub champs: [Champ; 4],
    pub bag: [u16; MAX_HELD],
    pub bag_len: u8,
}

impl Gear {
    pub const EMPTY: Gear = Gear {
        champs: [Champ::BARE; 4],
        bag: [NO_ITEM; MAX_HELD],
        bag_len: 0,
    };
    /// Four bare champions at full health.
    pub fn fresh(health: [i32; 4]) -> Gear {
        let mut g = Gear::EMPTY;
        for (c, h) in g.champs.iter_mut().zip(health) {
            c.health = h;
        }
        g
    }
    pub fn bag(&self) -> &[u16] {
        &self.bag[..self.bag_len as usize]
    }
    /// Puts an item in the bag; a bag already holding `MAX_HELD` drops it (never reached: the
    /// Equipment phase trims the bag each round).
    #[inline]
    pub fn stow(&mut self, item: u16) {
        if (self.bag_len as usize) < MAX_HELD {
            self.bag[self.bag_len as usize] = item;
            self.bag_len += 1;
        }
    }
    /// Living champions.
    pub fn living(&self) -> usize {
        self.champs.iter().filter(|c| c.alive()).count()
    }
    /// Health left on the living champions.
    pub fn health(&self) -> i32 {
        self.champs.iter().map(|c| c.health.max(0)).sum()
    }
    /// Items held: worn by the living and in the bag.
    pub fn held(&self) -> usize {
        self.champs
            .iter()
            .filter(|c| c.alive())
            .map(|c| c.worn())
            .sum::<usize>()
            + self.bag_len as usize
    }
    /// A fallen champion's gear goes to the bag (LA-45).
    pub fn strip(&mut self, c: usize) {
        let ch = self.champs[c];
        for i in ch.items.into_iter().chain([ch.armor]) {
            if i != NO_ITEM {
                self.stow(i);
            }
        }
        self.champs[c].items = [NO_ITEM; MAX_ITEM_SLOTS as usize];
        self.champs[c].armor = NO_ITEM;
    }
}

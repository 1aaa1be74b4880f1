//! Minion stat blocks, the catalogue they come from, modifiers, and the groups a combat fields.

use crate::games::minion_combat::effects::{Clause, Effects};
use crate::games::minion_combat::rules::{Attack, BothAttacks, MAX_GROUP, Rules};

/// Monster or recruit (MC-1: a group is all one or all the other).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum Kind {
    Monster,
    Recruit,
    /// A Spirit alteration's form of a recruit: no HP of its own, not fielded alone.
    Form,
}

/// A catalogue entry: a minion type as its card prints it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Stats {
    pub name: String,
    pub card: String,
    pub kind: Kind,
    /// Swordsman, archer (recruits).
    pub class: String,
    /// As the card states it ("random" when the card says random nations); empty for monsters.
    pub nation: String,
    pub hand: Option<i32>,
    pub missile: Option<i32>,
    pub attacks: u32,
    pub armor: i32,
    pub hp: Option<i32>,
    pub level: i32,
    /// The Flight keyword (Pegasus takes less from minions without it, MC-55).
    pub flight: bool,
    pub tags: Vec<String>,
    pub inferred: String,
}

/// The minion catalogue and the modifiers (MC-24, MC-25), names unique regardless of case.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct Catalogue {
    pub minions: Vec<Stats>,
    pub modifiers: Vec<Modifier>,
    /// The effects that tags and modifiers carry (MC-41).
    pub effects: Effects,
    /// The files they came from (minions, modifiers, effects), for errors that point back at
    /// them.
    pub sources: [String; 3],
}

impl Catalogue {
    pub fn find(&self, name: &str) -> Option<&Stats> {
        let key = crate::names::normalise(name);
        self.minions
            .iter()
            .find(|m| crate::names::normalise(&m.name) == key)
    }
    pub fn modifier(&self, name: &str) -> Option<&Modifier> {
        let key = crate::names::normalise(name);
        self.modifiers
            .iter()
            .find(|m| crate::names::normalise(&m.name) == key)
    }
}

/// A plain stat change (MC-25): a spell of `modifiers.toml`, or a host's own.
#[derive(Clone, Debug, PartialEq, Eq, Default, serde::Serialize)]
pub struct Modifier {
    pub name: String,
    pub hand: i32,
    pub missile: i32,
    pub armor: i32,
    pub max_hp: i32,
    pub level: i32,
    pub attacks: i32,
    /// Who may take it, as the card says ("recruit", "archer", "minion with hand attacks", ...).
    pub applies_to: String,
    pub stackable: bool,
    /// When it holds ("" = always).
    pub condition: String,
}

/// A minion as fielded: its stat block with modifiers applied, whole numbers ready for a combat.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Minion {
    pub name: String,
    pub recruit: bool,
    pub hand: Option<i32>,
    pub missile: Option<i32>,
    pub attacks: u32,
    pub armor: i32,
    pub hp: i32,
    pub max_hp: i32,
    pub level: i32,
    pub nation: Option<usize>,
    /// The Flight keyword (MC-55).
    pub flight: bool,
    /// Whether any modifier is on it ("enchanted", MC-25).
    pub enchanted: bool,
    /// The effects it carries, from its tags and modifiers (MC-41); empty for most.
    pub clauses: Vec<Clause>,
}

impl Minion {
    /// A catalogue entry as fielded, before modifiers (an entry without printed HP gets 1; the
    /// input checks refuse to field one).
    pub fn from_stats(s: &Stats, r: &Rules) -> Minion {
        let hp = s.hp.unwrap_or(1);
        Minion {
            name: s.name.clone(),
            recruit: s.kind == Kind::Recruit,
            hand: s.hand,
            missile: s.missile,
            attacks: s.attacks,
            armor: s.armor,
            hp,
            max_hp: hp,
            level: r.clamp_level(s.level),
            nation: r.nation(&s.nation),
            flight: s.flight,
            enchanted: false,
            clauses: Vec::new(),
        }
    }

    /// Whether the optimised kernel plays it exactly: every clause it carries is one its stat
    /// block already plays (MC-41).
    pub fn kernel_plays(&self) -> bool {
        self.clauses
            .iter()
            .all(|c| c.effect == crate::games::minion_combat::effects::Do::Printed)
    }

    /// A swordsman is a recruit with hand attacks only; an archer a recruit with missile ones.
    pub fn swordsman(&self) -> bool {
        self.recruit && self.missile.is_none() && self.hand.is_some()
    }

    /// A shooter has missile attacks; a basher only hand attacks (MC-2).
    pub fn shooter(&self) -> bool {
        self.missile.is_some() && self.attacks > 0
    }

    /// The attack it makes in `round` (MC-6, MC-7).
    pub fn attack_in(&self, round: u32, r: &Rules) -> Option<Attack> {
        match (self.hand, self.missile) {
            (_, Some(_)) if round == 1 => Some(Attack::Missile),
            (_, None) if round == 1 => None,
            (Some(_), Some(_)) => Some(match r.both_attacks {
                BothAttacks::Missile => Attack::Missile,
                BothAttacks::Hand => Attack::Hand,
            }),
            (_, Some(_)) => Some(Attack::Missile),
            (Some(_), None) => Some(Attack::Hand),
            (None, None) => None,
        }
    }

    /// Damage per single attack before round modifiers, the larger of its two (tiebreaker 5).
    pub fn best_damage(&self) -> i32 {
        self.hand.unwrap_or(0).max(self.missile.unwrap_or(0))
    }
}

/// Who owns a group, for precedence (MC-3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
pub enum Owner {
    Initiative = 0,
    Neutral = 1,
    Other = 2,
}

impl Owner {
    pub fn word(self) -> &'static str {
        match self {
            Owner::Initiative => "initiative",
            Owner::Neutral => "neutral",
            Owner::Other => "non-initiative",
        }
    }
}

/// A group as a combat fields it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Group {
    pub name: String,
    pub owner: Owner,
    /// Creation order among its owner's groups (lower is older, MC-3).
    pub age: u32,
    pub minions: Vec<Minion>,
}

/// Whether `a` has precedence over `b` (MC-3): the initiative player, then neutral, then the
/// other player; within one owner, the older group.
pub fn precedes(a: &Group, b: &Group) -> bool {
    (a.owner, a.age) < (b.owner, b.age)
}

/// How a combat ended (MC-22).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum End {
    /// One group was wiped out; the winner is the other.
    Wiped,
    /// Both groups lost all their minions.
    Both,
    /// Both groups stand after the last round.
    Rounds,
}

/// What a combat came to, sides in the order given (not precedence). Fixed-size, so the kernel
/// fills one without allocating and both engines return the same thing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Outcome {
    pub end: End,
    /// The side left standing, when one was wiped out.
    pub winner: Option<usize>,
    pub rounds: u32,
    /// Minions per side.
    pub size: [usize; 2],
    /// Hit points after the combat, per side and minion (0: dead); see [`Outcome::hp`].
    pub hp: [[i32; MAX_GROUP]; 2],
    pub attacks: [u32; 2],
    pub hits: [u32; 2],
    pub misses: [u32; 2],
    pub damage: [i64; 2],
    pub soaked: [i64; 2],
    pub kills: [u32; 2],
    /// Recruits that qualified for an experience level (MC-21), per side and minion.
    pub qualified: [[bool; MAX_GROUP]; 2],
}

impl Outcome {
    pub fn new(size: [usize; 2]) -> Outcome {
        Outcome {
            end: End::Rounds,
            winner: None,
            rounds: 0,
            size,
            hp: [[0; MAX_GROUP]; 2],
            attacks: [0; 2],
            hits: [0; 2],
            misses: [0; 2],
            damage: [0; 2],
            soaked: [0; 2],
            kills: [0; 2],
            qualified: [[false; MAX_GROUP]; 2],
        }
    }
    /// Side `side`'s hit points after the combat, one per minion.
    pub fn hp(&self, side: usize) -> &[i32] {
        &self.hp[side][..self.size[side]]
    }
    pub fn qualified(&self, side: usize) -> &[bool] {
        &self.qualified[side][..self.size[side]]
    }
    pub fn survivors(&self, side: usize) -> usize {
        self.hp(side).iter().filter(|h| **h > 0).count()
    }
    pub fn hp_left(&self, side: usize) -> i64 {
        self.hp(side).iter().map(|h| *h as i64).sum()
    }
    /// Win points of `side`: 2 for a win, 1 for a draw (both stand or both fall), 0 for a loss.
    pub fn points(&self, side: usize) -> u32 {
        match self.winner {
            Some(w) if w == side => 2,
            Some(_) => 0,
            None => 1,
        }
    }
}

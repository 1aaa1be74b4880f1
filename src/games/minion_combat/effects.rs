//! Combat effects as data (MC-41..MC-52): a clause names a trigger at one of the pipeline's
//! points, a condition, a target and what happens. A minion carries the clauses of its catalogue
//! tags and of its modifiers; a status (Gaze, Venom) carries its own, played once per stack.
//! The plain model (`reference.rs`) plays every clause; the kernel fields only minions whose
//! clauses the stat block already plays (`Do::Printed`), so a combat with any other clause is
//! played by the reference.

use crate::games::minion_combat::rules::Attack;

/// Where in the pipeline a clause fires (MC-41).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum When {
    /// Holds all the time (a passive: stat changes, quasi-immunities, ignores armor, ...).
    Always,
    /// C1, in precedence order.
    StartOfCombat,
    /// R1, after armor and attacks reset, in precedence order.
    StartOfRound,
    /// D1 of the holder's takes-damage pipeline: hit by an attacker, before armor.
    IsHit,
    /// D3 of the holder's takes-damage pipeline: after armor.
    AfterArmor,
    /// A4: the holder's attack hit.
    Hits,
    /// A5: the holder's attack damaged or killed.
    Damages,
    /// A8: the holder killed its victim by combat damage.
    Kills,
    /// The holder died (killed or not).
    Dies,
    /// Another minion of the combat, of either group, died; the other party is the dead one
    /// (MC-56).
    AMinionDies,
    /// C4, in precedence order.
    EndOfCombat,
}

/// Trigger names as a file writes them.
pub const WHENS: [(&str, When); 11] = [
    ("always", When::Always),
    ("start_of_combat", When::StartOfCombat),
    ("start_of_round", When::StartOfRound),
    ("is_hit", When::IsHit),
    ("after_armor", When::AfterArmor),
    ("hits", When::Hits),
    ("damages", When::Damages),
    ("kills", When::Kills),
    ("dies", When::Dies),
    ("a_minion_dies", When::AMinionDies),
    ("end_of_combat", When::EndOfCombat),
];

/// Whom a clause acts on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum To {
    /// The holder.
    Me,
    /// The other party of the trigger: the attacker (is hit, after armor), the victim (hits,
    /// damages, kills) or the killer (dies).
    Other,
    /// The holder's living groupmates in the combat, the holder left out.
    Groupmates,
    /// Every living enemy in the combat.
    Enemies,
    /// One living enemy, uniformly (MC-30 place `EFFECT`).
    RandomEnemy,
}

pub const TOS: [(&str, To); 5] = [
    ("me", To::Me),
    ("other", To::Other),
    ("groupmates", To::Groupmates),
    ("enemies", To::Enemies),
    ("random_enemy", To::RandomEnemy),
];

/// A condition on the other party (its kind, class, enchantments, Flight or nation); on a
/// trigger without one (start of combat or round, end of combat), on the targets (MC-55).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum Against {
    Monster,
    Recruit,
    /// A recruit without any modifier on it ("unenchanted").
    UnenchantedRecruit,
    /// A recruit with hand attacks only.
    Swordsman,
    /// A recruit with missile attacks.
    Archer,
    /// A minion with the Flight keyword.
    Flying,
    /// A minion without it.
    NotFlying,
    /// A nation as the effects file names it: `Effects::nations[i]`, settled to `Nation` when
    /// its minion is fielded (the rules file orders the nations).
    NationNamed(u16),
    /// A minion of the rules' nation `i`.
    Nation(u16),
}

pub const AGAINSTS: [(&str, Against); 7] = [
    ("monster", Against::Monster),
    ("recruit", Against::Recruit),
    ("unenchanted recruit", Against::UnenchantedRecruit),
    ("swordsman", Against::Swordsman),
    ("archer", Against::Archer),
    ("flying", Against::Flying),
    ("not flying", Against::NotFlying),
];

/// A stat change: damage of either attack, max armor, level, attacks per round.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, serde::Serialize)]
pub struct Delta {
    pub hand: i32,
    pub missile: i32,
    pub armor: i32,
    pub level: i32,
    pub attacks: i32,
}

impl Delta {
    /// Adds `d` `times` over; saturating, since a file's changes may pile up over a long
    /// combat (a check accepts them, so they must never overflow).
    pub fn add(&mut self, d: &Delta, times: i32) {
        let f = |a: i32, b: i32| a.saturating_add(b.saturating_mul(times));
        self.hand = f(self.hand, d.hand);
        self.missile = f(self.missile, d.missile);
        self.armor = f(self.armor, d.armor);
        self.level = f(self.level, d.level);
        self.attacks = f(self.attacks, d.attacks);
    }
    /// The change in a host's words: "+1 hand, -1 armor".
    pub fn words(&self) -> String {
        [
            (self.hand, "hand"),
            (self.missile, "missile"),
            (self.armor, "armor"),
            (self.level, "level"),
            (self.attacks, "attacks"),
        ]
        .iter()
        .filter(|(v, _)| *v != 0)
        .map(|(v, k)| format!("{v:+} {k}"))
        .collect::<Vec<_>>()
        .join(", ")
    }
    pub fn is_zero(&self) -> bool {
        *self == Delta::default()
    }
}

/// What a clause does.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub enum Do {
    /// Always: a passive stat change of its targets; on a trigger: a change that lasts the
    /// combat (MC-43).
    Stats(Delta),
    /// Is hit / after armor: the damage the holder takes changes by this much, never below 0;
    /// magical damage passes through (MC-44).
    Taken(i32),
    /// After armor: the holder takes no damage from this hit (magical damage passes, MC-44).
    Block,
    /// Magical damage to the targets, the holder to blame (none when it hits itself, MC-45).
    Damage(i32),
    /// The targets die, the holder to blame (MC-45).
    Kill,
    /// The targets leave the combat, alive (MC-46).
    Withdraw,
    /// The targets' max HP changes by this much, HP with it when it rises, HP capped when it
    /// falls; at 0 max HP the target dies, the holder to blame (MC-59).
    MaxHp(i32),
    /// Always: its targets deal no damage (of `attack`'s type, if given): A2's "does not deal"
    /// (MC-57).
    NoDamage,
    /// The targets heal this much, up to their max HP; with `grows`, an undamaged target's max
    /// HP and HP rise by it instead (MC-56).
    Heal { amount: i32, grows: bool },
    /// One more stack of a status on the targets (MC-47).
    Give(Box<Status>),
    /// Every enemy shooter and unpaired enemy basher that is idle must attack the holder (MC-48).
    Compel,
    /// Hits on the holder's groupmates are taken by the holder as magical damage (MC-49).
    Redirect,
    /// Wise targeters of this attack type prefer others (tiebreaker 1, MC-50).
    QuasiImmune(Attack),
    /// The holder's attacks ignore armor (MC-51).
    IgnoresArmor,
    /// The holder's attacks deal magical damage (MC-51).
    Magical,
    /// The holder's attacks heal the victim by what would have been damage after armor (MC-51).
    HealsInstead,
    /// The holder's attacks check for a hit at this level (MC-51).
    AttackLevel(i32),
    /// The holder's level is this, whatever changes it, and it gains no experience (MC-58).
    LevelIs(i32),
    /// The holder's nation (set when it is fielded, MC-52).
    Nation(String),
    /// The stat block already plays it (a non-combatant, a minion that deals no damage).
    Printed,
}

/// One clause: `source` is the catalogue tag, modifier or status that carries it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Clause {
    pub source: String,
    pub when: When,
    pub to: To,
    /// Only in this round.
    pub round: Option<u32>,
    /// Only for this attack type (the incoming one for is hit / after armor, the holder's own
    /// otherwise; for a quasi-immunity, the type it wards).
    pub attack: Option<Attack>,
    /// Only when the other party (the victim in the damage step of an always clause) is one.
    pub against: Option<Against>,
    pub effect: Do,
}

/// A status a clause gives (Gaze, Karillian Venom): its clauses act once per stack on the one
/// holding it; `kills_at` stacks kill it. Statuses last until the end of the combat (MC-47).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Status {
    pub name: String,
    pub kills_at: Option<u32>,
    /// It lasts through this many rounds after the one it is given in, then ends (MC-60);
    /// `None`: to the end of the combat.
    pub rounds: Option<u32>,
    pub clauses: Vec<Clause>,
}

/// The effects file: every clause by source, and the sources whose modifier numbers are
/// played by their clauses instead of being added to the minion.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Effects {
    pub clauses: Vec<Clause>,
    pub statuses: Vec<Status>,
    pub numbers_off: Vec<String>,
    /// The nations `against` names, as written (`Against::NationNamed` indexes them).
    pub nations: Vec<String>,
}

impl Effects {
    /// The clauses `source` carries (a tag or a modifier name, any case).
    pub fn of<'a>(&'a self, source: &'a str) -> impl Iterator<Item = &'a Clause> + 'a {
        let key = crate::names::normalise(source);
        self.clauses
            .iter()
            .filter(move |c| crate::names::normalise(&c.source) == key)
    }
    /// Whether anything plays `source`.
    pub fn plays(&self, source: &str) -> bool {
        self.of(source).next().is_some()
    }
    /// Whether `source` is played by the stat block alone (no clause but `printed`).
    pub fn printed_only(&self, source: &str) -> bool {
        self.of(source).all(|c| c.effect == Do::Printed)
    }
}

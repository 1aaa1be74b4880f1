//! The numbers and readings of a combat (MC-n). Defaults are the seed's; every field can be set
//! in a rules file (`experiments/minion-combat/rules.toml` writes them all).

/// The two kinds of attack (MC-2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub enum Attack {
    Hand,
    Missile,
}

impl Attack {
    pub fn word(self) -> &'static str {
        match self {
            Attack::Hand => "hand",
            Attack::Missile => "missile",
        }
    }
}

/// What "a victim you estimate you (and your fellow group members) can kill off in this round"
/// counts (MC-15).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum Estimate {
    /// My remaining attacks plus those of groupmates already aiming at the victim.
    Group,
    /// My remaining attacks only.
    Own,
    /// The tiebreaker is skipped.
    Off,
}

/// When a shooter chooses its victim wisely (MC-16).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum WisePer {
    /// Once a round (R2, or at its turn in round 1), again only when its victim has died.
    Round,
    /// Before every attack that is not a multi-attacker's random one.
    Attack,
}

/// Which attack a minion with both hand and missile damage makes after round 1 (MC-7).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum BothAttacks {
    Missile,
    Hand,
}

/// A nation's ability (MC-18): `amount` more damage of one attack type in one round (Imp,
/// Keeper, Human: +1 hand in round 2; Elf, Satyr: +1 missile in round 1). The 9-HP nations'
/// ability is already in their printed stat blocks.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Nation {
    pub name: String,
    pub bonus: Option<(Attack, u32, i32)>,
}

/// Everything a combat's outcome depends on besides the groups and the key.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Rules {
    /// Rounds in a full combat (MC-4).
    pub rounds: u32,
    /// The missile round's damage change (MC-6): -1.
    pub missile_round_modifier: i32,
    /// Lowest and highest level (MC-23).
    pub level_min: i32,
    pub level_max: i32,
    pub estimate: Estimate,
    pub wise_per: WisePer,
    pub both_attacks: BothAttacks,
    /// A recruit qualifies for one experience level per combat kill only while it has none
    /// gained by experience (MC-21); `false` lets every kill count (Book of War).
    pub experience_once: bool,
    pub nations: Vec<Nation>,
}

/// Most rounds a combat may be given.
pub const MAX_ROUNDS: u32 = 100;
/// Most attacks a minion makes in a round, whatever its stats, modifiers and effects add (MC-61:
/// an engine bound, 25 times the page's greatest; it bounds the work an accepted file asks for).
pub const MAX_ATTACKS: u32 = 100;
/// Most minions in a group (MC-1).
pub const MAX_GROUP: usize = 8;

impl Default for Rules {
    fn default() -> Rules {
        let n = |name: &str, bonus: Option<(Attack, u32, i32)>| Nation {
            name: name.to_string(),
            bonus,
        };
        Rules {
            rounds: 10,
            missile_round_modifier: -1,
            level_min: 0,
            level_max: 5,
            estimate: Estimate::Group,
            wise_per: WisePer::Round,
            both_attacks: BothAttacks::Missile,
            experience_once: true,
            nations: vec![
                n("Imp", Some((Attack::Hand, 2, 1))),
                n("Cyclops", None),
                n("Keeper", Some((Attack::Hand, 2, 1))),
                n("Shadow", None),
                n("Vision", None),
                n("Gargoyle", None),
                n("Elf", Some((Attack::Missile, 1, 1))),
                n("Dwarf", None),
                n("Djinn", None),
                n("Satyr", Some((Attack::Missile, 1, 1))),
                n("Misfit", None),
                n("Human", Some((Attack::Hand, 2, 1))),
            ],
        }
    }
}

impl Rules {
    /// The nation called `name` (any case).
    pub fn nation(&self, name: &str) -> Option<usize> {
        self.nations
            .iter()
            .position(|n| n.name.eq_ignore_ascii_case(name.trim()))
    }

    /// Level within the game's range (MC-23).
    pub fn clamp_level(&self, l: i32) -> i32 {
        l.clamp(self.level_min, self.level_max)
    }
}

//! Sets and the policies that write them (LA-12, LA-20). A set is the actions a fielded champion
//! submits for the rounds of one set, decided before the set starts; a policy writes a set from
//! what a player can see then (its champions, the opponents, the strengths in play).

use crate::error::Error;
use crate::games::loot_arena::draws::{POLICY, die, place};
use crate::games::loot_arena::rules::{Class, MAX_ROUNDS_PER_SET};

/// Whom a Heal aims at (LA-11).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HealTarget {
    /// The Healer itself.
    Own,
    /// Its partner (itself if the partner has fallen).
    Partner,
    /// Whichever of the two has the smaller share of its max health at the start of the round
    /// (the Healer on a tie).
    Weakest,
}

impl HealTarget {
    pub fn key(self) -> &'static str {
        ["self", "partner", "weakest"][self as usize]
    }
    pub fn parse(s: &str) -> Option<HealTarget> {
        match s.trim().to_ascii_lowercase().as_str() {
            "self" => Some(HealTarget::Own),
            "partner" => Some(HealTarget::Partner),
            "weakest" => Some(HealTarget::Weakest),
            _ => None,
        }
    }
}

/// One round's action (LA-11..LA-13).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Attack the first class of the list that an opponent still standing has (LA-8).
    Attack([Class; 4]),
    Heal(HealTarget),
    Support,
    Evade,
}

impl Action {
    /// The action written as a set line (`attack [Healer, Mage, Gladiator, Rogue]`).
    pub fn spec(&self) -> String {
        match self {
            Action::Attack(p) => {
                let names: Vec<&str> = p.iter().map(|c| c.name()).collect();
                format!("attack [{}]", names.join(", "))
            }
            Action::Heal(t) => format!("heal {}", t.key()),
            Action::Support => "support".into(),
            Action::Evade => "evade".into(),
        }
    }

    /// Parses a set line: `attack [Healer, Mage, Gladiator, Rogue]` (brackets and commas optional;
    /// classes left out follow in the seed's order), `attack`, `heal self|partner|weakest`,
    /// `support`, `evade`.
    pub fn parse(s: &str) -> Result<Action, Error> {
        let words: Vec<String> = s
            .split(|c: char| c.is_whitespace() || matches!(c, '[' | ']' | ','))
            .filter(|w| !w.is_empty())
            .map(|w| w.to_ascii_lowercase())
            .collect();
        let Some(first) = words.first() else {
            return Err("an empty action: write attack, heal, support or evade".into());
        };
        match first.as_str() {
            "attack" => {
                let mut order = Vec::new();
                for w in &words[1..] {
                    let c = Class::parse(w).ok_or_else(|| {
                        format!("`{w}` is not a class: name Gladiator, Rogue, Mage or Healer")
                    })?;
                    if order.contains(&c) {
                        return Err(Error::Input(format!("{} is listed twice", c.name())));
                    }
                    order.push(c);
                }
                for c in Class::ALL {
                    if !order.contains(&c) {
                        order.push(c);
                    }
                }
                Ok(Action::Attack([order[0], order[1], order[2], order[3]]))
            }
            "heal" => {
                let t = match words.get(1) {
                    None => HealTarget::Weakest,
                    Some(w) => HealTarget::parse(w)
                        .ok_or_else(|| format!("heal `{w}`: heal self, partner or weakest"))?,
                };
                if words.len() > 2 {
                    return Err("heal takes one target: self, partner or weakest".into());
                }
                Ok(Action::Heal(t))
            }
            "support" | "evade" if words.len() > 1 => {
                Err(Error::Input(format!("{first} takes nothing after it")))
            }
            "support" => Ok(Action::Support),
            "evade" => Ok(Action::Evade),
            w => Err(Error::Input(format!(
                "`{w}`: an action is attack [classes], heal self|partner|weakest, support or evade"
            ))),
        }
    }
}

/// A set: one action per round of a set (LA-12).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Set {
    pub actions: [Action; MAX_ROUNDS_PER_SET as usize],
    pub len: u8,
}

impl Set {
    pub const EMPTY: Set = Set {
        actions: [Action::Evade; MAX_ROUNDS_PER_SET as usize],
        len: 0,
    };
    /// Round r's action; a set shorter than the rules' rounds repeats its last action.
    #[inline]
    pub fn get(&self, r: u32) -> Action {
        let i = (r as usize).min(self.len.max(1) as usize - 1);
        self.actions[i]
    }
}

/// What a set is aimed at first (LA-20).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Focus {
    /// The types the attacker is strong against (as the strengths stand), then the Healer.
    Strong,
    /// The Healer first (every class is strong against it), then the types one is strong
    /// against.
    Healer,
}

/// A set written from counts: `evade` rounds first, then `support`, then attacks, with `heal`
/// Heals in the last rounds (health settles at the end of a round, so late heals keep more).
/// A class that may not Heal or Support attacks instead (LA-11, LA-12).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Plan {
    pub focus: Focus,
    pub heal: u8,
    pub target: HealTarget,
    pub support: u8,
    pub evade: u8,
}

/// A player's way of writing sets (LA-20).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Policy {
    Plan(Plan),
    /// Each round a uniformly random action the class may take, with a random preference list.
    Random,
    /// The same written set every time.
    Fixed(Set),
}

/// The named policies and what they stand for.
pub const NAMED: &[(&str, &str)] = &[
    ("attack", "attack every round, strong-against types first"),
    (
        "focus-healer",
        "attack every round, the Healer first (all three are strong against it)",
    ),
    (
        "medic",
        "as attack, but a Healer heals the weaker of the two in the last 2 rounds",
    ),
    (
        "supporter",
        "supports its partner in the first 2 rounds (not Gladiators), then attacks",
    ),
    ("evasive", "evades the first round, then attacks"),
    (
        "plan(focus=strong|healer, heal=N, target=self|partner|weakest, support=N, evade=N)",
        "any mix of the above",
    ),
    ("random", "a random allowed action each round"),
];

impl Policy {
    pub fn parse(spec: &str) -> Result<Policy, Error> {
        let (name, args) = crate::names::call(spec)?;
        let mut plan = Plan {
            focus: Focus::Strong,
            heal: 0,
            target: HealTarget::Weakest,
            support: 0,
            evade: 0,
        };
        match name.to_ascii_lowercase().as_str() {
            "attack" | "plan" => {}
            "focus-healer" => plan.focus = Focus::Healer,
            "medic" => plan.heal = 2,
            "supporter" => plan.support = 2,
            "evasive" => plan.evade = 1,
            "random" if args.trim().is_empty() => return Ok(Policy::Random),
            "random" => return Err("`random` takes no parameters".into()),
            n => return Err(crate::names::unknown("policy", n, NAMED).into()),
        }
        for kv in crate::names::params(args) {
            let (k, v) = kv?;
            let count = || -> Result<u8, Error> {
                v.parse::<u8>()
                    .ok()
                    .filter(|n| *n as u32 <= MAX_ROUNDS_PER_SET)
                    .ok_or_else(|| {
                        Error::Input(format!("{k}={v}: give 0 to {MAX_ROUNDS_PER_SET} rounds"))
                    })
            };
            match k {
                "heal" => plan.heal = count()?,
                "support" => plan.support = count()?,
                "evade" => plan.evade = count()?,
                "target" => {
                    plan.target = HealTarget::parse(v)
                        .ok_or_else(|| format!("target={v}: self, partner or weakest"))?
                }
                "focus" => {
                    plan.focus = match v {
                        "strong" => Focus::Strong,
                        "healer" => Focus::Healer,
                        _ => return Err(Error::Input(format!("focus={v}: strong or healer"))),
                    }
                }
                _ => {
                    return Err(Error::Input(format!(
                        "`{k}`: a plan's parameters are focus, heal, target, support, evade"
                    )));
                }
            }
        }
        Ok(Policy::Plan(plan))
    }

    /// The policy written back in the grammar `parse` reads.
    pub fn spec(&self) -> String {
        match self {
            Policy::Random => "random".into(),
            Policy::Fixed(s) => {
                let a: Vec<String> = s.actions[..s.len as usize]
                    .iter()
                    .map(|a| a.spec())
                    .collect();
                format!("set: {}", a.join("; "))
            }
            Policy::Plan(p) => {
                let named = [
                    ("attack", Policy::parse("attack")),
                    ("focus-healer", Policy::parse("focus-healer")),
                    ("medic", Policy::parse("medic")),
                    ("supporter", Policy::parse("supporter")),
                    ("evasive", Policy::parse("evasive")),
                ];
                for (n, q) in named {
                    if q == Ok(*self) {
                        return n.into();
                    }
                }
                format!(
                    "plan(focus={}, heal={}, target={}, support={}, evade={})",
                    match p.focus {
                        Focus::Strong => "strong",
                        Focus::Healer => "healer",
                    },
                    p.heal,
                    p.target.key(),
                    p.support,
                    p.evade
                )
            }
        }
    }
}

/// What a policy sees when it writes a set.
pub struct View {
    pub class: Class,
    /// Bit k: this champion is strong against a standing opponent of class k as the fight
    /// stands (a mask, not an array of flags: the kernel builds it in a register).
    pub strong_against: u8,
    pub can_heal: bool,
    pub can_support: bool,
    pub rounds: u32,
}

/// The preference list of a focus: with `Focus::Healer` the Healer first; then the types
/// the attacker is strong against, in the seed's order; then the Healer; then the rest in the
/// seed's order. Read from a table of every (focus, strong classes) made at compile time by
/// [`preference_of`]: a set is written once per set, but a battle is short.
#[inline]
pub fn preference(focus: Focus, v: &View) -> [Class; 4] {
    PREFERENCES[(focus == Focus::Healer) as usize][(v.strong_against & 15) as usize]
}

/// [`preference`] for every focus (Healer first or not) and set of strong classes (bit c: class c).
const PREFERENCES: [[[Class; 4]; 16]; 2] = {
    let mut t = [[Class::ALL; 16]; 2];
    let mut s = 0;
    while s < 16 {
        t[0][s] = preference_of(false, s as u8);
        t[1][s] = preference_of(true, s as u8);
        s += 1;
    }
    t
};

/// The preference list written out: each class's place is counted (its group, then its seed
/// order).
const fn preference_of(healer_first: bool, strong: u8) -> [Class; 4] {
    let mut key = [0usize; 4];
    let mut c = 0;
    while c < 4 {
        let healer = c == Class::Healer as usize;
        let group = if healer && healer_first {
            0
        } else if strong & (1 << c) != 0 {
            1
        } else if healer {
            2
        } else {
            3
        };
        key[c] = group * 4 + c;
        c += 1;
    }
    let mut order = [Class::Gladiator; 4];
    let mut c = 0;
    while c < 4 {
        let mut place = 0;
        let mut k = 0;
        while k < 4 {
            place += (key[k] < key[c]) as usize;
            k += 1;
        }
        order[place] = Class::ALL[c];
        c += 1;
    }
    order
}

impl Policy {
    /// The set fielded champion `c` submits for the set starting at round `g0` (LA-20); a
    /// `random` player draws its choices at the `POLICY` places of those rounds (LA-30).
    #[inline]
    pub fn write(&self, v: &View, key: u64, g0: u32, c: usize) -> Set {
        let mut set = Set::EMPTY;
        self.write_into(v, key, g0, c, &mut set);
        set
    }

    /// [`Policy::write`] into `set`, in place: its first `len` actions and `len` are written,
    /// the rest (never read, [`Set::get`]) are left as they were. The kernel's sets are written
    /// where they are read, byte by byte, not built and copied whole.
    #[inline]
    pub fn write_into(&self, v: &View, key: u64, g0: u32, c: usize, set: &mut Set) {
        match self {
            Policy::Plan(p) => p.write_into(v, set),
            Policy::Fixed(s) => *set = *s,
            Policy::Random => random_set(v, key, g0, c, set),
        }
    }
}

fn random_set(v: &View, key: u64, g0: u32, c: usize, set: &mut Set) {
    let n = v.rounds.min(MAX_ROUNDS_PER_SET);
    set.len = n as u8;
    for r in 0..n {
        let g = g0 + r;
        let mut order = Class::ALL;
        for i in (1..4usize).rev() {
            let j = die(key, place(g, c, POLICY, 4 - i as u64), i as u16 + 1) as usize - 1;
            order.swap(i, j);
        }
        let target = [HealTarget::Own, HealTarget::Partner, HealTarget::Weakest]
            [die(key, place(g, c, POLICY, 4), 3) as usize - 1];
        let mut choices = [Action::Attack(order); 4];
        let mut m = 1;
        for (ok, a) in [
            (v.can_heal, Action::Heal(target)),
            (v.can_support, Action::Support),
            (true, Action::Evade),
        ] {
            if ok {
                choices[m] = a;
                m += 1;
            }
        }
        set.actions[r as usize] = choices[die(key, place(g, c, POLICY, 0), m as u16) as usize - 1];
    }
}

impl Plan {
    /// The set this plan writes (LA-20), in place (see [`Policy::write_into`]).
    #[inline]
    pub fn write_into(&self, v: &View, set: &mut Set) {
        let n = v.rounds.min(MAX_ROUNDS_PER_SET) as usize;
        set.len = n as u8;
        let attack = Action::Attack(preference(self.focus, v));
        let evade = (self.evade as usize).min(n);
        let support = if v.can_support {
            (self.support as usize).min(n - evade)
        } else {
            0
        };
        let heal = if v.can_heal {
            (self.heal as usize).min(n - evade - support)
        } else {
            0
        };
        // Evasions, supports, attacks, heals: four runs in that order (heal <= n - evade -
        // support), so a round's action is how many of the runs' starts it has passed.
        let kinds = [
            Action::Evade,
            Action::Support,
            attack,
            Action::Heal(self.target),
        ];
        for (r, a) in set.actions[..n].iter_mut().enumerate() {
            let run =
                (r >= evade) as usize + (r >= evade + support) as usize + (r >= n - heal) as usize;
            *a = kinds[run];
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// LA-20's preference lists as a sort by (group, seed order), against the table.
    #[test]
    fn la_20_preference_lists_are_focus_then_strong_types_then_healer_then_the_rest() {
        for focus in [Focus::Strong, Focus::Healer] {
            for strong in 0..16u8 {
                let v = View {
                    class: Class::Gladiator,
                    strong_against: strong,
                    can_heal: false,
                    can_support: false,
                    rounds: 4,
                };
                let mut want = Class::ALL.to_vec();
                want.sort_by_key(|&c| {
                    let group = match c {
                        Class::Healer if focus == Focus::Healer => 0,
                        _ if strong & (1 << c as u8) != 0 => 1,
                        Class::Healer => 2,
                        _ => 3,
                    };
                    (group, c as usize)
                });
                assert_eq!(
                    preference(focus, &v).to_vec(),
                    want,
                    "{focus:?} {strong:04b}"
                );
            }
        }
        // The seed's own case: a Gladiator strong against Mage and Healer, Healer focus.
        let v = View {
            class: Class::Gladiator,
            strong_against: 0b1100,
            can_heal: false,
            can_support: false,
            rounds: 4,
        };
        assert_eq!(
            preference(Focus::Healer, &v),
            [Class::Healer, Class::Mage, Class::Gladiator, Class::Rogue]
        );
    }

    #[test]
    fn policies_read_back_from_their_spec() {
        for s in [
            "attack",
            "focus-healer",
            "medic",
            "supporter",
            "evasive",
            "random",
            "plan(focus=healer, heal=1, target=partner, support=1, evade=1)",
        ] {
            let p = Policy::parse(s).unwrap();
            assert_eq!(Policy::parse(&p.spec()).unwrap(), p, "{s}");
        }
        assert!(
            Policy::parse("atack")
                .unwrap_err()
                .to_string()
                .contains("did you mean `attack`")
        );
        assert!(Policy::parse("plan(heal=99)").is_err());
    }

    #[test]
    fn set_lines_read_as_the_rules_write_them() {
        let a = Action::parse("Attack [Healer, Mage, Gladiator, Rogue]").unwrap();
        assert_eq!(
            a,
            Action::Attack([Class::Healer, Class::Mage, Class::Gladiator, Class::Rogue])
        );
        assert_eq!(Action::parse(&a.spec()).unwrap(), a);
        assert_eq!(
            Action::parse("attack mage").unwrap(),
            Action::Attack([Class::Mage, Class::Gladiator, Class::Rogue, Class::Healer])
        );
        assert!(Action::parse("attack mage mage").is_err());
        assert!(Action::parse("dance").is_err());
    }
}

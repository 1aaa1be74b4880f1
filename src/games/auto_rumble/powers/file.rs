//! Power files: Auto Rumble powers as data (TOML), loaded once into `Copy` clause tables.
//!
//! ```toml
//! [[power]]
//! name = "Crystallize"
//! source = "AR"                      # where the power comes from
//! text = "Spend 20: +X Defence; X starts at 1 and doubles with each use."
//! # interpretation = "..."           # only where this file departs from the text
//! counters = { X = 1 }               # per-hero numbers the power keeps; copies inherit them
//!
//! [[power.clause]]
//! when = "use"                       # battle_start, round_start, use, round_end, passive, or a
//!                                    # reaction: attacked, damaged, hit, kill,
//!                                    # opponent_eliminated, death
//! cost = { spend = 20 }              # spend and/or burn, each a value
//! if = "X < 1000"                    # optional: one condition or a list, all must hold
//! target = "self"                    # who the effects act on (default self)
//! effects = [{ add_defence = "X" }, { counter = "X", multiply = 2 }]
//! ```
//!
//! Values are numbers or strings such as `"10 * heroes_alive"` ([`crate::games::auto_rumble::powers::expr`]). Every
//! error names the file, line and column, the field, and a fix, with a "did you mean" for names.
//! The rule questions the format raises are AR-23 onwards in `docs/rules/auto-rumble.md`.

use crate::platform::sources::Sources;
use std::path::Path;

use serde::Deserialize;
use toml::Spanned;

use crate::games::auto_rumble::powers::expr::{
    Cond, Expr, Names, Quantity, Round, parse_cond, parse_expr,
};
use crate::games::auto_rumble::powers::sample::closest_name;
pub use crate::games::auto_rumble::state::Side;
use crate::names::normalise;

/// When a clause fires (AR-25).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum When {
    BattleStart,
    RoundStart,
    /// Walked from the use order in the action phase (AR-3).
    Use,
    RoundEnd,
    /// Always on: modifies the holder's attacks or the hits it takes; never "used" (AR-9).
    Passive,
    /// Reactions (AR-27): the holder was hit by an attack,
    Attacked,
    /// ... lost Energy to a hit (an attack's or a power's),
    Damaged,
    /// ... hit another hero with its attack,
    Hit,
    /// ... took another hero's Energy (with its attack or a power),
    DealtDamage,
    /// ... eliminated a hero,
    Kill,
    /// ... saw a hero of another team eliminated,
    OpponentEliminated,
    /// ... was eliminated itself.
    Death,
}

pub const WHEN_NAMES: &[(&str, When)] = &[
    ("battle_start", When::BattleStart),
    ("round_start", When::RoundStart),
    ("use", When::Use),
    ("round_end", When::RoundEnd),
    ("passive", When::Passive),
    ("attacked", When::Attacked),
    ("damaged", When::Damaged),
    ("hit", When::Hit),
    ("dealt_damage", When::DealtDamage),
    ("kill", When::Kill),
    ("opponent_eliminated", When::OpponentEliminated),
    ("death", When::Death),
];

impl When {
    pub fn name(self) -> &'static str {
        WHEN_NAMES.iter().find(|(_, w)| *w == self).unwrap().0
    }
    pub fn is_reaction(self) -> bool {
        matches!(
            self,
            When::Attacked
                | When::Damaged
                | When::Hit
                | When::DealtDamage
                | When::Kill
                | When::OpponentEliminated
                | When::Death
        )
    }
    /// The other hero a reaction is about, if any: `other` is a valid target (AR-27; for
    /// `death`, the hero whose hit or effect eliminated the holder, AR-54).
    pub fn has_other(self) -> bool {
        matches!(
            self,
            When::Attacked
                | When::Damaged
                | When::Hit
                | When::DealtDamage
                | When::Kill
                | When::OpponentEliminated
                | When::Death
        )
    }
    pub fn describe(self) -> &'static str {
        match self {
            When::BattleStart => "When the battle starts",
            When::RoundStart => "At the start of each round",
            When::Use => "From the use order",
            When::RoundEnd => "At the end of each round",
            When::Passive => "Always",
            When::Attacked => "When an attack hits this hero",
            When::Damaged => "When a hit takes this hero's Energy",
            When::Hit => "When this hero's attack hits someone",
            When::DealtDamage => "When this hero takes another hero's Energy",
            When::Kill => "When this hero eliminates someone",
            When::OpponentEliminated => "When an opponent is eliminated",
            When::Death => "When this hero is eliminated (`other`: the hero who eliminated it)",
        }
    }
}

/// Whom a clause's effects act on, chosen by a fixed rule (AR-26: ties go to the earlier hero in
/// initiative order).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Target {
    Holder,
    AllOpponents,
    AllAllies,
    Everyone,
    FirstOpponent,
    OpponentMostEnergy,
    OpponentLeastEnergy,
    OpponentMostDefence,
    /// The other hero of a reaction (the attacker, the one hit, the one eliminated).
    Other,
    /// The next alive hero of another team after the holder in initiative order, wrapping round.
    NextOpponent,
    /// The hero with the most Energy of every other hero alive, any team (AR-56).
    AnyoneMostEnergy,
    /// The hero with the least Energy of every other hero alive, any team (AR-56).
    AnyoneLeastEnergy,
    /// Every hero alive who made an attack hit on the holder last round (AR-61).
    AttackersLastRound,
    /// Every hero alive who has made an attack hit on the holder so far this round (AR-66).
    AttackersThisRound,
}

pub const TARGET_NAMES: &[(&str, Target)] = &[
    ("self", Target::Holder),
    ("all_opponents", Target::AllOpponents),
    ("all_allies", Target::AllAllies),
    ("everyone", Target::Everyone),
    ("first_opponent", Target::FirstOpponent),
    ("opponent_most_energy", Target::OpponentMostEnergy),
    ("opponent_least_energy", Target::OpponentLeastEnergy),
    ("opponent_most_defence", Target::OpponentMostDefence),
    ("other", Target::Other),
    ("next_opponent", Target::NextOpponent),
    ("anyone_most_energy", Target::AnyoneMostEnergy),
    ("anyone_least_energy", Target::AnyoneLeastEnergy),
    ("attackers_last_round", Target::AttackersLastRound),
    ("attackers_this_round", Target::AttackersThisRound),
];

impl Target {
    pub fn name(self) -> &'static str {
        TARGET_NAMES.iter().find(|(_, t)| *t == self).unwrap().0
    }
    /// Whether the rule picks at most one hero (so `target.energy` means something).
    pub fn is_single(self) -> bool {
        !matches!(
            self,
            Target::AllOpponents
                | Target::AllAllies
                | Target::Everyone
                | Target::AttackersLastRound
                | Target::AttackersThisRound
        )
    }
    pub fn describe(self) -> &'static str {
        match self {
            Target::Holder => "itself",
            Target::AllOpponents => "every opponent",
            Target::AllAllies => "every ally (itself included)",
            Target::Everyone => "every other hero",
            Target::FirstOpponent => "the first opponent in initiative order",
            Target::OpponentMostEnergy => "the opponent with the most Energy",
            Target::OpponentLeastEnergy => "the opponent with the least Energy",
            Target::OpponentMostDefence => "the opponent with the most Defence",
            Target::Other => "the other hero of the event",
            Target::NextOpponent => "the next opponent in initiative order (wrapping round)",
            Target::AnyoneMostEnergy => {
                "the hero with the most Energy of all the others, allies included"
            }
            Target::AnyoneLeastEnergy => {
                "the hero with the least Energy of all the others, allies included"
            }
            Target::AttackersLastRound => {
                "every hero alive who made an attack hit on it last round"
            }
            Target::AttackersThisRound => {
                "every hero alive who has made an attack hit on it so far this round"
            }
        }
    }
}

/// How often a clause may fire.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Limit {
    #[default]
    Unlimited,
    OncePerRound,
    OncePerGame,
    /// A reaction fires at most once a round for each other hero it reacts to (AR-68).
    OncePerHeroPerRound,
}

/// Spend and Burn (AR-3, AR-24): spending needs budget; burning is an Energy loss.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cost {
    pub spend: Expr,
    pub burn: Expr,
}

impl Cost {
    pub const FREE: Cost = Cost {
        spend: Expr::constant(0),
        burn: Expr::constant(0),
    };
    pub fn is_free(&self) -> bool {
        self.spend.as_constant() == Some(0) && self.burn.as_constant() == Some(0)
    }
}

/// What an effect does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EffectKind {
    AddEnergy,
    /// Unpreventable Energy loss (a Burn inflicted), not damage (AR-29).
    LoseEnergy,
    SetEnergy,
    AddDefence,
    LoseDefence,
    /// A battle-long prevention budget, absorbed after Defence (AR-12).
    AddPrevention,
    /// A hit of the value, through Defence and prevention unless flagged (AR-29).
    Damage,
    /// Passive: added to each hit of the holder's attack (AR-9).
    AttackBonus,
    CounterAdd(u8),
    CounterMultiply(u8),
    CounterSet(u8),
    /// Amoeba's copy: a full copy inserted after the holder (AR-11).
    CopySelf,
    /// The target leaves the battle at once, unpreventably.
    Eliminate,
    /// The holder's team wins at once (AR-30).
    Win,
    /// Passive: added to the first hit of the holder's attack each round.
    FirstHitBonus,
    /// The target must Spend the value during the next round: its budget is that much smaller;
    /// several such effects do not stack, the largest counts (AR-31).
    Tax,
    /// Death reaction: the holder comes back with the value as Energy (AR-27).
    Revive,
    /// This round, attack hits against the target number 1, 2, 3...; those whose number is
    /// 1 more than a multiple of the value are prevented whole (Bullet Time: every second hit,
    /// starting with the first).
    Dodge,
    /// This round, hits against the target are multiplied by the value, before Defence (Curses).
    Vulnerable,
    /// A copy of the target (like `copy_self`) whose Energy is the value (Egg Clutch's hatching).
    CopyWith,
    /// In an `attacked` clause: the hit being resolved is reduced by the value (AR-38).
    ReduceHit,
    /// In an `attacked` clause: the hit being resolved is at most the value (AR-57).
    CapHit,
    /// Passive: the holder's attack hits only the hero its rule (`to`) picks (AR-39).
    AttackOnly,
    /// Passive: the attack is left out of this round's plan (no cost, no hits; AR-40).
    NoAttack,
    /// The target gets a ward of the value this round: a pool that absorbs attack hits before its
    /// own Defence, and what it absorbs becomes the holder's Energy (Aegis Boy, AR-41).
    Ward,
    /// Passive: what is left of each attack hit after Defence is multiplied by value / 100,
    /// rounded up, before prevention (AR-40).
    AfterDefencePercent,
    /// Passive: an attack hit on a target with no Defence when it arrives eliminates it (AR-40).
    ExecuteUndefended,
    /// Passive: while it holds, every hero's attack hits only the hero the rule (`to`) picks
    /// for that hero (Assassin's Game, AR-39).
    EveryoneAttacksOnly,
    /// Passive: this round the holder's `use` clauses that add Defence pay their Spend as a Burn
    /// (Excessive Lethality, AR-37).
    DefenceSpendBurns,
    /// A new hero on the holder's team: the power's summon number `n` (AR-36).
    Summon(u8),
    /// Next round the target's costed and triggered powers do not act; passive ones still do
    /// (Jammer, AR-32).
    Lock,
    /// Passive: the holder counts as having the value more unspent coins for its Energy,
    /// initiative and attack (AR-2, AR-43). Resolved when the loadout is compiled; the
    /// calibration powers of the power-value analysis are made of it.
    Coins,
    /// Passive: every hit the holder deals (attack hits with their bonuses, `damage` effects) is
    /// multiplied by value / 100 as it arrives (AR-59).
    DealPercent,
    /// Passive: every hit the holder takes is multiplied by value / 100 as it arrives (AR-59).
    TakePercent,
    /// Passive: the attack's Spend this round changes by the value, not below 0 (AR-59).
    AttackCost,
    /// The target gains the power's given power number `n` (AR-62): held from then on, at the
    /// giving power's strength, until the target leaves.
    Give(u8),
    /// The target stops holding the power's removed power number `n`, or every power it holds
    /// (AR-69): for good, from now on.
    RemovePower(u8),
    /// Passive: each round the holder loses at most the value in Energy to hits, counted after
    /// Defence and prevention (AR-67).
    RoundLossCap,
}

pub const EFFECT_NAMES: &[&str] = &[
    "add_energy",
    "lose_energy",
    "set_energy",
    "add_defence",
    "lose_defence",
    "add_prevention",
    "damage",
    "attack_bonus",
    "counter",
    "copy_self",
    "eliminate",
    "win",
    "first_hit_bonus",
    "tax",
    "revive",
    "dodge",
    "vulnerable",
    "lock",
    "summon",
    "defence_spend_burns",
    "reduce_hit",
    "cap_hit",
    "attack_only",
    "everyone_attacks_only",
    "no_attack",
    "ward",
    "after_defence_percent",
    "execute_undefended",
    "coins",
    "deal_percent",
    "take_percent",
    "attack_cost",
    "give",
    "remove_power",
    "round_loss_cap",
];

/// A hero a power summons (AR-36): it joins the holder's team right after the holder, with the
/// Energy given, the attack given (none: it never attacks) and the powers named (from the same
/// file), and no coins.
#[derive(Clone, Debug, PartialEq)]
pub struct SummonDef {
    pub name: String,
    pub energy: Expr,
    pub attack: Option<Expr>,
    pub powers: Vec<String>,
    /// Its side: the summoner's team, hostile only to it (AR-42), or neutral (AR-60).
    pub side: Side,
}

impl EffectKind {
    /// Effects that change how the holder's attack or plan works; they belong in `passive`
    /// clauses only, and do nothing when a clause "applies" them (AR-25).
    pub fn is_passive(self) -> bool {
        matches!(
            self,
            EffectKind::AttackBonus
                | EffectKind::FirstHitBonus
                | EffectKind::DefenceSpendBurns
                | EffectKind::AttackOnly
                | EffectKind::EveryoneAttacksOnly
                | EffectKind::NoAttack
                | EffectKind::AfterDefencePercent
                | EffectKind::ExecuteUndefended
                | EffectKind::Coins
                | EffectKind::DealPercent
                | EffectKind::TakePercent
                | EffectKind::AttackCost
                | EffectKind::RoundLossCap
        )
    }
}

/// One effect; `to` overrides the clause's target (e.g. Parasitic Strain's own gain); `cond`
/// is checked when the effect's turn comes, after the effects before it (Wrecking Spree's win).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Effect {
    pub kind: EffectKind,
    pub cond: Option<Cond>,
    pub value: Expr,
    pub to: Option<Target>,
    pub ignore_defence: bool,
    pub unpreventable: bool,
    /// `damage` only: the hit counts as an attack hit (AR-58).
    pub as_attack: bool,
}

use crate::games::auto_rumble::powers::limits::{
    MAX_CLAUSES, MAX_HELD, MAX_HERO_COUNTERS, MAX_INCLUDE_DEPTH, Room,
};
pub use crate::games::auto_rumble::powers::limits::{
    MAX_CONDS, MAX_COUNTERS, MAX_EFFECTS, MAX_POWER_CLAUSES, MAX_POWERS, MAX_SUMMONS,
};

/// One clause: when, if, for how much, to whom, what.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clause {
    pub when: When,
    pub conds: [Cond; MAX_CONDS],
    pub n_conds: u8,
    pub cost: Cost,
    pub target: Target,
    pub limit: Limit,
    pub effects: [Effect; MAX_EFFECTS],
    pub n_effects: u8,
    /// A `passive` clause also read as the battle starts, so its effects hold before the
    /// holder's first plan (AR-59, AR-70).
    pub from_start: bool,
}

impl Clause {
    pub fn conds(&self) -> &[Cond] {
        &self.conds[..self.n_conds as usize]
    }
    pub fn effects(&self) -> &[Effect] {
        &self.effects[..self.n_effects as usize]
    }

    /// Every expression the clause evaluates, wherever it stands: its conditions, its cost, and
    /// each effect's condition and value, in that order. The one walk behind every question of
    /// what a clause reads (which path plays it, what memory the kernels keep), so a new place
    /// for an expression cannot be missed by one of them (issue 49).
    pub fn for_each_expr(&self, mut f: impl FnMut(&Expr)) {
        for k in self.conds() {
            f(&k.left);
            f(&k.right);
        }
        f(&self.cost.spend);
        f(&self.cost.burn);
        for e in self.effects() {
            if let Some(k) = &e.cond {
                f(&k.left);
                f(&k.right);
            }
            f(&e.value);
        }
    }

    /// Whether any expression of the clause reads a quantity `q` picks.
    pub fn reads(&self, q: impl Fn(Quantity) -> bool + Copy) -> bool {
        let mut any = false;
        self.for_each_expr(|e| any |= e.reads(q));
        any
    }
}

impl SummonDef {
    /// The summon's Energy and attack, the expressions evaluated when it is summoned.
    pub fn for_each_expr(&self, mut f: impl FnMut(&Expr)) {
        f(&self.energy);
        if let Some(a) = &self.attack {
            f(a);
        }
    }
}

/// A power as loaded: its words for people and its clauses for the kernel.
#[derive(Clone, Debug, PartialEq)]
pub struct PowerDef {
    pub name: String,
    pub source: String,
    pub text: String,
    /// Where the file departs from `text`: the deterministic reading used. `None`: faithful.
    pub interpretation: Option<String>,
    /// Held only by heroes other powers summon (the Poxwalkers' Pox): never drawn for a hero,
    /// offered in a game, or valued (AR-55).
    pub helper: bool,
    pub counters: Vec<(String, i32)>,
    pub clauses: Vec<Clause>,
    /// Heroes its clauses summon (`EffectKind::Summon(n)` is `summons[n]`).
    pub summons: Vec<SummonDef>,
    /// Powers its clauses give (`EffectKind::Give(n)` is `gives[n]`, a power of the file, AR-62).
    pub gives: Vec<String>,
    /// Powers its clauses remove (`EffectKind::RemovePower(n)` is `removes[n]`: a power of the
    /// file, or `None` for every power, AR-69).
    pub removes: Vec<Option<String>>,
}

impl PowerDef {
    pub fn is_faithful(&self) -> bool {
        self.interpretation.is_none()
    }

    /// Whether anything the power does reads its own strength (the winning bid): its value then
    /// depends on the bid, and the power-value analysis measures it at several strengths.
    pub fn reads_strength(&self) -> bool {
        self.reads(|q| q == Quantity::Strength)
    }

    /// Whether any expression of the power (its clauses' and its summons') reads a quantity `q`
    /// picks.
    pub fn reads(&self, q: impl Fn(Quantity) -> bool + Copy) -> bool {
        let mut any = false;
        self.for_each_expr(|e| any |= e.reads(q));
        any
    }

    /// Every expression of the power: each clause's ([`Clause::for_each_expr`]), then each
    /// summon's.
    pub fn for_each_expr(&self, mut f: impl FnMut(&Expr)) {
        for c in &self.clauses {
            c.for_each_expr(&mut f);
        }
        for sd in &self.summons {
            sd.for_each_expr(&mut f);
        }
    }

    /// Every quantity the power reads (conditions, costs, effect values, summons), each once, in
    /// the order first read: what `powers check` explains beside the names.
    pub fn quantities_read(&self) -> Vec<Quantity> {
        let mut out: Vec<Quantity> = Vec::new();
        self.for_each_expr(|e| {
            for t in e.terms() {
                if !out.contains(&t.q) {
                    out.push(t.q);
                }
            }
        });
        out
    }

    /// A costed clause walked from the use order: the power appears in use orders (AR-17).
    pub fn use_clause(&self) -> Option<&Clause> {
        self.clauses.iter().find(|c| c.when == When::Use)
    }

    /// The power, normalised and readable: what it does, when, to whom, for how much.
    pub fn describe(&self) -> String {
        let counter = |k: u8| {
            self.counters
                .get(k as usize)
                .map_or("?".to_string(), |c| c.0.clone())
        };
        let mut s = format!(
            "{}  [{}; {}{}]\n",
            self.name,
            self.source,
            match &self.interpretation {
                None => "faithful",
                Some(_) => "adapted",
            },
            if self.helper { "; helper" } else { "" }
        );
        s.push_str(&format!("  text: {}\n", self.text));
        if self.helper {
            s.push_str("  helper: held only by heroes other powers summon; never drawn for a hero, offered or valued (AR-55)\n");
        }
        if let Some(i) = &self.interpretation {
            s.push_str(&format!("  reading: {i}\n"));
        }
        for (n, v) in &self.counters {
            s.push_str(&format!("  counter {n} starts at {v}; copies inherit it\n"));
        }
        for sd in &self.summons {
            s.push_str(&format!(
                "  summon {}{}: Energy {}, {}{}\n",
                sd.name,
                match sd.side {
                    Side::Team => "",
                    Side::Hostile => " (hostile only to its summoner's team)",
                    Side::Neutral => " (neutral: fights every team)",
                },
                sd.energy.show(&counter),
                match &sd.attack {
                    None => "no attack".to_string(),
                    Some(a) => format!("attack hits for {}", a.show(&counter)),
                },
                if sd.powers.is_empty() {
                    String::new()
                } else {
                    format!(", holds {}", sd.powers.join(", "))
                }
            ));
        }
        let read = self.quantities_read();
        if !read.is_empty() {
            s.push_str(
                "  reads:
",
            );
            for q in read {
                let name = match q {
                    Quantity::Counter(k) => counter(k),
                    q => q.name().to_string(),
                };
                s.push_str(&format!(
                    "    {name}: {}
",
                    q.meaning()
                ));
            }
        }
        if self.clauses.is_empty() {
            s.push_str("  does nothing in a battle: it has no clause\n");
        }
        for c in &self.clauses {
            s.push_str(&format!("  - {}", c.when.describe()));
            match c.limit {
                Limit::Unlimited => {}
                Limit::OncePerRound => s.push_str(", once per round"),
                Limit::OncePerGame => s.push_str(", once per game"),
                Limit::OncePerHeroPerRound => s.push_str(", once per round for each other hero"),
            }
            if c.from_start {
                s.push_str(", from the battle's start (before its first plan too)");
            }
            for cond in c.conds() {
                s.push_str(&format!(", if {}", cond.show(&counter)));
            }
            if !c.cost.is_free() {
                let mut parts = Vec::new();
                if c.cost.spend.as_constant() != Some(0) {
                    parts.push(format!("Spend {}", c.cost.spend.show(&counter)));
                }
                if c.cost.burn.as_constant() != Some(0) {
                    parts.push(format!("Burn {}", c.cost.burn.show(&counter)));
                }
                s.push_str(&format!(", for {}", parts.join(" and ")));
            }
            s.push_str(":\n");
            if c.effects().is_empty() {
                s.push_str("      nothing more (the clause has no effect)\n");
            }
            for e in c.effects() {
                let to = e.to.unwrap_or(c.target);
                let mut line = describe_effect(e, to, c.from_start, &counter);
                if let EffectKind::Summon(k) = e.kind {
                    let n = self
                        .summons
                        .get(k as usize)
                        .map_or("?", |d| d.name.as_str());
                    line = line.replace("{summon}", n);
                }
                if let EffectKind::Give(k) = e.kind {
                    let n = self.gives.get(k as usize).map_or("?", |n| n.as_str());
                    line = line.replace("{give}", n);
                }
                if let EffectKind::RemovePower(k) = e.kind {
                    let n = match self.removes.get(k as usize) {
                        Some(Some(n)) => format!("the power {n}"),
                        _ => "every power".into(),
                    };
                    line = line.replace("{remove}", &n);
                }
                s.push_str(&format!("      {line}\n"));
            }
        }
        s
    }
}

fn effect_name(k: EffectKind) -> &'static str {
    match k {
        EffectKind::AddEnergy => "add_energy",
        EffectKind::LoseEnergy => "lose_energy",
        EffectKind::SetEnergy => "set_energy",
        EffectKind::AddDefence => "add_defence",
        EffectKind::LoseDefence => "lose_defence",
        EffectKind::AddPrevention => "add_prevention",
        EffectKind::Damage => "damage",
        EffectKind::AttackBonus => "attack_bonus",
        EffectKind::CounterAdd(_) | EffectKind::CounterMultiply(_) | EffectKind::CounterSet(_) => {
            "counter"
        }
        EffectKind::CopySelf => "copy_self",
        EffectKind::Eliminate => "eliminate",
        EffectKind::Win => "win",
        EffectKind::FirstHitBonus => "first_hit_bonus",
        EffectKind::Tax => "tax",
        EffectKind::Revive => "revive",
        EffectKind::Dodge => "dodge",
        EffectKind::Vulnerable => "vulnerable",
        EffectKind::Lock => "lock",
        EffectKind::CopyWith => "copy_self",
        EffectKind::Summon(_) => "summon",
        EffectKind::DefenceSpendBurns => "defence_spend_burns",
        EffectKind::ReduceHit => "reduce_hit",
        EffectKind::CapHit => "cap_hit",
        EffectKind::AttackOnly => "attack_only",
        EffectKind::NoAttack => "no_attack",
        EffectKind::Ward => "ward",
        EffectKind::AfterDefencePercent => "after_defence_percent",
        EffectKind::ExecuteUndefended => "execute_undefended",
        EffectKind::EveryoneAttacksOnly => "everyone_attacks_only",
        EffectKind::Coins => "coins",
        EffectKind::DealPercent => "deal_percent",
        EffectKind::TakePercent => "take_percent",
        EffectKind::AttackCost => "attack_cost",
        EffectKind::Give(_) => "give",
        EffectKind::RemovePower(_) => "remove_power",
        EffectKind::RoundLossCap => "round_loss_cap",
    }
}

fn describe_effect(
    e: &Effect,
    to: Target,
    from_start: bool,
    counter: &dyn Fn(u8) -> String,
) -> String {
    let v = e.value.show(counter);
    // AR-59, AR-70: when a passive value starts to count.
    let (since, except) = if from_start {
        ("from the battle's start", "")
    } else {
        (
            "from its first plan on (round 1)",
            "; battle-start hits are not",
        )
    };
    let who = to.describe();
    let mut s = match e.kind {
        EffectKind::AddEnergy => format!("{who} gains {v} Energy"),
        EffectKind::LoseEnergy => {
            format!("{who} loses {v} Energy (a Burn: no Defence or prevention)")
        }
        EffectKind::SetEnergy => format!("{who}: Energy becomes {v}"),
        EffectKind::AddDefence => format!("{who} gains {v} Defence"),
        EffectKind::LoseDefence => format!("{who} loses {v} Defence"),
        EffectKind::AddPrevention => format!("{who} gains a battle-long prevention of {v} damage"),
        EffectKind::Damage => format!("{who} takes a hit of {v} damage"),
        EffectKind::AttackBonus => format!("each hit of its attack deals {v} more"),
        EffectKind::CounterAdd(k) => format!("counter {} += {v}", counter(k)),
        EffectKind::CounterMultiply(k) => format!("counter {} *= {v}", counter(k)),
        EffectKind::CounterSet(k) => format!("counter {} = {v}", counter(k)),
        EffectKind::CopySelf => "a full copy of it joins its team, right after it".to_string(),
        EffectKind::Eliminate => format!("{who} is eliminated, unpreventably"),
        EffectKind::Win => "its team wins the battle at once".to_string(),
        EffectKind::FirstHitBonus => {
            format!("the first hit of its attack each round deals {v} more")
        }
        EffectKind::Tax => format!("{who} must Spend {v} during the next round (no stacking)"),
        EffectKind::Revive => format!("it comes back with {v} Energy"),
        EffectKind::CopyWith => {
            format!("a copy of {who} with {v} Energy joins its team, right after it")
        }
        EffectKind::Summon(_) => "{summon} joins its team, right after it".to_string(),
        EffectKind::DefenceSpendBurns => {
            "its powers that add Defence pay their Spend as a Burn (an Energy loss)".to_string()
        }
        EffectKind::ReduceHit => format!("the hit is reduced by {v} before Defence"),
        EffectKind::CapHit => format!("the hit is at most {v} before Defence"),
        EffectKind::AttackOnly => format!("its attack hits only {who}"),
        EffectKind::NoAttack => "it does not attack this round".to_string(),
        EffectKind::Ward => format!(
            "{who} is warded for {v} this round: the ward absorbs attack hits before Defence and what it absorbs becomes this hero's Energy"
        ),
        EffectKind::AfterDefencePercent => {
            format!("what Defence lets through of its hits is multiplied by {v}%")
        }
        EffectKind::ExecuteUndefended => {
            "its hit eliminates a target that had no Defence".to_string()
        }
        EffectKind::EveryoneAttacksOnly => {
            format!("every hero's attack hits only {who}, as seen from that hero")
        }
        EffectKind::Coins => format!(
            "it counts as having {v} more unspent coins (Energy, initiative and attack, AR-43)"
        ),
        // AR-59: read when each round's plan is made, so battle-start hits keep 100%.
        EffectKind::DealPercent => format!(
            "{since}, every hit it deals, its attack's and its effects', is multiplied by {v}%{except}"
        ),
        EffectKind::TakePercent => {
            format!("{since}, every hit it takes is multiplied by {v}%{except}")
        }
        EffectKind::AttackCost => format!("its attack costs {v} more this round (not below 0)"),
        EffectKind::Give(_) => format!("{who} gains the power {{give}} for good"),
        EffectKind::RemovePower(_) => format!("{who} loses {{remove}} it holds, for good"),
        EffectKind::RoundLossCap => format!(
            "{since}, each round it loses at most {v} Energy to hits, after Defence and prevention{except}"
        ),
        EffectKind::Dodge => format!(
            "this round, attack hits 1, 1 + {v}, 1 + 2 x {v}, ... against {who} are prevented"
        ),
        EffectKind::Vulnerable => {
            format!("this round, hits against {who} are multiplied by {v} before Defence")
        }
        EffectKind::Lock => {
            format!("next round, the costed and triggered powers of {who} do not act")
        }
    };
    if let Some(c) = &e.cond {
        s = format!("if {}: {s}", c.show(counter));
    }
    if e.as_attack {
        s.push_str(", as an attack hit");
    }
    if e.ignore_defence {
        s.push_str(", ignoring Defence");
    }
    if e.unpreventable {
        s.push_str(", unpreventable");
    }
    s
}

/// A problem in the file, positioned (see [`crate::games::file_error`]).
pub type PowerFileError = crate::games::file_error::FileError;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileDoc {
    include: Option<Vec<Spanned<String>>>,
    power: Option<Vec<Spanned<PowerDoc>>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PowerDoc {
    name: Spanned<String>,
    source: Spanned<String>,
    text: Spanned<String>,
    interpretation: Option<Spanned<String>>,
    helper: Option<bool>,
    counters: Option<Spanned<toml::Table>>,
    clause: Option<Vec<Spanned<ClauseDoc>>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ClauseDoc {
    when: Spanned<String>,
    #[serde(rename = "if")]
    cond: Option<Spanned<toml::Value>>,
    cost: Option<Spanned<toml::Table>>,
    target: Option<Spanned<String>>,
    limit: Option<Spanned<String>>,
    rounding: Option<Spanned<String>>,
    from_start: Option<Spanned<bool>>,
    effects: Option<Vec<Spanned<toml::Value>>>,
}

type Span = std::ops::Range<usize>;

type Ctx<'a> = crate::games::file_error::FileCtx<'a>;

fn did_you_mean(name: &str, all: &[&str]) -> String {
    match closest_name(name, all.iter().copied()) {
        Some(n) => format!("did you mean `{n}`?"),
        None => format!(
            "use one of {}",
            all.iter()
                .map(|n| format!("`{n}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// The files a power file is made of: itself, then every file it includes, depth first (each
/// once). What a dataset's identity must record, so that editing an included file is noticed.
pub fn files(src: &crate::platform::sources::Sources, path: &Path) -> Vec<std::path::PathBuf> {
    fn walk(
        src: &crate::platform::sources::Sources,
        path: &Path,
        depth: usize,
        out: &mut Vec<std::path::PathBuf>,
    ) {
        if depth > MAX_INCLUDE_DEPTH || out.iter().any(|p| p == path) {
            return;
        }
        out.push(path.to_path_buf());
        let Ok(text) = src.read(path) else {
            return;
        };
        let Ok(doc) = toml::from_str::<toml::Table>(&text) else {
            return;
        };
        if let Some(toml::Value::Array(list)) = doc.get("include") {
            for inc in list.iter().filter_map(|v| v.as_str()) {
                if let Some(dir) = path.parent() {
                    walk(src, &dir.join(inc), depth + 1, out);
                }
            }
        }
    }
    let mut out = Vec::new();
    walk(src, path, 0, &mut out);
    out
}

/// Reads and validates a power file, with the files it includes (their powers first).
pub fn load(
    src: &crate::platform::sources::Sources,
    path: &Path,
) -> Result<Vec<PowerDef>, PowerFileError> {
    load_at(src, path, 0)
}

fn load_at(
    src: &crate::platform::sources::Sources,
    path: &Path,
    depth: usize,
) -> Result<Vec<PowerDef>, PowerFileError> {
    let file = path.display().to_string();
    let text = crate::games::file_error::read(src, path, "power file")?;
    parse_in(src, &text, &file, path.parent(), depth)
}

/// Parses and validates power-file text; `file` labels errors. `include` is refused (no folder
/// to resolve it in): use [`load`].
pub fn parse(text: &str, file: &str) -> Result<Vec<PowerDef>, PowerFileError> {
    parse_in(&Sources::disk(), text, file, None, 0)
}

fn parse_in(
    src: &crate::platform::sources::Sources,
    text: &str,
    file: &str,
    dir: Option<&Path>,
    depth: usize,
) -> Result<Vec<PowerDef>, PowerFileError> {
    let cx = Ctx { file, text };
    let doc: FileDoc = toml::from_str(text).map_err(|e| {
        let msg = e.message().trim().to_string();
        // serde names the unknown field; add the nearest known one.
        let hint = unknown_field_hint(&msg);
        cx.err(e.span(), "", format!("{msg}{hint}"))
    })?;
    let mut out: Vec<PowerDef> = Vec::new();
    for inc in doc.include.unwrap_or_default() {
        let Some(dir) = dir else {
            return Err(cx.err(
                Some(inc.span()),
                "include",
                "`include` needs a file on disk to resolve the path against",
            ));
        };
        if depth >= MAX_INCLUDE_DEPTH {
            return Err(cx.err(
                Some(inc.span()),
                "include",
                format!("includes nest deeper than {MAX_INCLUDE_DEPTH} (is there a cycle?): include each file once, from the top"),
            ));
        }
        let before = out.len();
        out.extend(load_at(src, &dir.join(inc.get_ref()), depth + 1)?);
        // Names are unique across the included files too (a file included twice, directly or
        // through two others, brings each of its powers twice).
        if let Some(dup) = out[before..].iter().find(|d| {
            out[..before]
                .iter()
                .any(|p| normalise(&p.name) == normalise(&d.name))
        }) {
            return Err(cx.err(
                Some(inc.span()),
                "include",
                format!(
                    "`{}` brings a power named `{}`, and an earlier include already has one: names must differ across a file and its includes (ignoring case and punctuation); include each file once, and rename one of the two",
                    inc.get_ref(),
                    dup.name
                ),
            ));
        }
    }
    let powers = doc.power.unwrap_or_default();
    if powers.is_empty() && out.is_empty() {
        return Err(cx.err(
            None,
            "power",
            "the file holds no powers: add at least one [[power]] table",
        ));
    }
    for p in powers {
        let span = p.span();
        let def = power(&cx, p.into_inner(), span.clone())?;
        if let Some(prev) = out
            .iter()
            .find(|d| normalise(&d.name) == normalise(&def.name))
        {
            return Err(cx.err(
                Some(span),
                "name",
                format!(
                    "two powers are named `{}` (and `{}`): names must differ (ignoring case and punctuation)",
                    prev.name, def.name
                ),
            ));
        }
        out.push(def);
    }
    for d in &out {
        for sd in &d.summons {
            // The summoned hero is built from these powers when it joins: it must fit a hero.
            let mut room = Room::default();
            for (k, n) in sd.powers.iter().enumerate() {
                let field = format!("{}.summon.powers", d.name);
                if sd.powers[..k].iter().any(|o| normalise(o) == normalise(n)) {
                    return Err(cx.err(
                        None,
                        field,
                        format!("`{}` summons `{}` holding `{n}` twice: a hero holds each power once (AR-17)", d.name, sd.name),
                    ));
                }
                let (clauses, counters) = out
                    .iter()
                    .find(|o| normalise(&o.name) == normalise(n))
                    .map_or((0, 0), |o| (o.clauses.len(), o.counters.len()));
                if !room.fits(clauses, counters) {
                    return Err(cx.err(
                        None,
                        field,
                        format!(
                            "`{}` summons `{}` holding more than a hero holds ({MAX_HELD} powers, {MAX_CLAUSES} clauses, {MAX_HERO_COUNTERS} counters together): give it fewer powers",
                            d.name, sd.name
                        ),
                    ));
                }
                room.take(clauses, counters);
            }
            for n in &sd.powers {
                if !out.iter().any(|o| normalise(&o.name) == normalise(n)) {
                    let all: Vec<&str> = out.iter().map(|o| o.name.as_str()).collect();
                    return Err(cx.err(
                        None,
                        format!("{}.summon.powers", d.name),
                        format!(
                            "`{}` summons `{}` holding `{n}`, which is not in this file or the files it includes: {}",
                            d.name,
                            sd.name,
                            did_you_mean(n, &all)
                        ),
                    ));
                }
            }
        }
    }
    for d in &out {
        for n in &d.gives {
            let field = format!("{}.give", d.name);
            let Some(g) = out.iter().find(|o| normalise(&o.name) == normalise(n)) else {
                let all: Vec<&str> = out.iter().map(|o| o.name.as_str()).collect();
                return Err(cx.err(
                    None,
                    field,
                    format!(
                        "`{}` gives `{n}`, which is not in this file or the files it includes: {}",
                        d.name,
                        did_you_mean(n, &all)
                    ),
                ));
            };
            if g.clauses
                .iter()
                .any(|c| c.effects().iter().any(|e| e.kind == EffectKind::Coins))
            {
                return Err(cx.err(
                    None,
                    field,
                    format!(
                        "`{}` gives `{}`, whose `coins` are settled before the battle (AR-43), so giving it mid-battle could not honour them: give a power without `coins` (AR-62)",
                        d.name, g.name
                    ),
                ));
            }
        }
    }
    for d in &out {
        for n in d.removes.iter().flatten() {
            if !out.iter().any(|o| normalise(&o.name) == normalise(n)) {
                let all: Vec<&str> = out.iter().map(|o| o.name.as_str()).collect();
                return Err(cx.err(
                    None,
                    format!("{}.remove_power", d.name),
                    format!(
                        "`{}` removes `{n}`, which is not in this file or the files it includes: {} (or \"all\" for every power, AR-69)",
                        d.name,
                        did_you_mean(n, &all)
                    ),
                ));
            }
        }
    }
    if out.iter().all(|d| d.helper) {
        return Err(cx.err(
            None,
            "helper",
            "every power is a helper: a catalogue needs at least one power a hero can hold itself (AR-55)",
        ));
    }
    for d in out.iter().filter(|d| d.helper) {
        let held = out.iter().any(|o| {
            o.summons
                .iter()
                .any(|sd| sd.powers.iter().any(|n| normalise(n) == normalise(&d.name)))
                || o.gives.iter().any(|n| normalise(n) == normalise(&d.name))
        });
        if !held {
            return Err(cx.err(
                None,
                format!("{}.helper", d.name),
                format!(
                    "`{}` is marked `helper = true` but no summon in this file holds it and no power gives it: name it in a summon's `powers` or a `give`, or drop `helper` (AR-55)",
                    d.name
                ),
            ));
        }
    }
    if out.len() > MAX_POWERS {
        return Err(cx.err(
            None,
            "power",
            format!("more than {MAX_POWERS} powers: split the catalogue"),
        ));
    }
    Ok(out)
}

/// The built-in catalogue: the six sample powers (`experiments/powers/sample.toml`, compiled in).
pub fn builtin() -> &'static [PowerDef] {
    static BUILTIN: std::sync::OnceLock<Vec<PowerDef>> = std::sync::OnceLock::new();
    BUILTIN.get_or_init(|| {
        parse(
            include_str!("../../../../experiments/powers/sample.toml"),
            "experiments/powers/sample.toml",
        )
        .expect("the built-in catalogue is valid (tested)")
    })
}

fn unknown_field_hint(msg: &str) -> String {
    // "unknown field `efects`, expected one of `when`, `if`, ..."
    let Some(rest) = msg.strip_prefix("unknown field `") else {
        return String::new();
    };
    let Some((name, expected)) = rest.split_once('`') else {
        return String::new();
    };
    let known: Vec<&str> = expected
        .split('`')
        .enumerate()
        .filter(|(i, _)| i % 2 == 1)
        .map(|(_, s)| s)
        .collect();
    match closest_name(name, known.iter().copied()) {
        Some(n) => format!("; did you mean `{n}`?"),
        None => String::new(),
    }
}

fn power(cx: &Ctx<'_>, p: PowerDoc, span: Span) -> Result<PowerDef, PowerFileError> {
    let name = p.name.get_ref().trim().to_string();
    if name.is_empty() || name.eq_ignore_ascii_case("attack") {
        return Err(cx.err(
            Some(p.name.span()),
            "name",
            "a power needs a name other than `Attack` (the default attack's name in use orders)",
        ));
    }
    if p.source.get_ref().trim().is_empty() {
        return Err(cx.err(
            Some(p.source.span()),
            "source",
            "say where the power comes from (a game, a thread, a player), e.g. source = \"KF\"",
        ));
    }
    let mut counters = Vec::new();
    if let Some(t) = &p.counters {
        for (k, v) in t.get_ref() {
            let Some(v) = v.as_integer().filter(|v| {
                v.unsigned_abs() <= crate::games::auto_rumble::powers::expr::MAX_CONSTANT as u64
            }) else {
                return Err(cx.err(
                    Some(t.span()),
                    format!("counters.{k}"),
                    "a counter starts at a whole number (at most 1,000,000 in size), e.g. { X = 1 }",
                ));
            };
            if crate::games::auto_rumble::powers::expr::QUANTITY_NAMES
                .iter()
                .any(|(n, _)| n == k)
                || k == "max"
                || k == "min"
            {
                return Err(cx.err(
                    Some(t.span()),
                    format!("counters.{k}"),
                    format!("`{k}` is a built-in quantity: give the counter another name"),
                ));
            }
            counters.push((k.clone(), v as i32));
        }
        if counters.len() > MAX_COUNTERS {
            return Err(cx.err(
                Some(t.span()),
                "counters",
                format!("at most {MAX_COUNTERS} counters per power: merge or drop some"),
            ));
        }
    }
    // A power with no clause is accepted as such (issue 49): a real power may do nothing in a
    // battle (a bidding bluff, a placeholder while its reading is settled); `check` says so.
    let clauses_doc = p.clause.unwrap_or_default();
    if clauses_doc.len() > MAX_POWER_CLAUSES {
        return Err(cx.err(
            Some(span),
            format!("{name}.clause"),
            format!(
                "{} clauses; a power has at most {MAX_POWER_CLAUSES} (a hero holds {MAX_POWER_CLAUSES} together): split it into two powers",
                clauses_doc.len()
            ),
        ));
    }
    let names: Vec<String> = counters.iter().map(|c| c.0.clone()).collect();
    let mut clauses = Vec::new();
    let mut summons = Vec::new();
    let mut gives = Named::default();
    for c in clauses_doc {
        let cspan = c.span();
        clauses.push(clause(
            cx,
            &name,
            &names,
            c.into_inner(),
            cspan,
            &mut summons,
            &mut gives,
        )?);
    }
    if clauses.iter().filter(|c| c.when == When::Use).count() > 1 {
        return Err(cx.err(
            Some(span),
            format!("{name}.clause"),
            "a power has at most one `use` clause (it has one place in the use order, AR-17): merge them",
        ));
    }
    Ok(PowerDef {
        name,
        source: p.source.into_inner(),
        text: p.text.into_inner(),
        interpretation: p.interpretation.map(|s| s.into_inner()),
        helper: p.helper.unwrap_or(false),
        counters,
        clauses,
        summons,
        gives: gives.gives,
        removes: gives.removes,
    })
}

/// The powers a power's effects name (given and removed), gathered as its clauses load.
#[derive(Default)]
struct Named {
    gives: Vec<String>,
    removes: Vec<Option<String>>,
}

fn lookup<T: Copy>(
    cx: &Ctx<'_>,
    s: &Spanned<String>,
    field: &str,
    table: &[(&str, T)],
) -> Result<T, PowerFileError> {
    let v = s.get_ref().as_str();
    table
        .iter()
        .find(|(n, _)| *n == v)
        .map(|(_, t)| *t)
        .ok_or_else(|| {
            let all: Vec<&str> = table.iter().map(|(n, _)| *n).collect();
            cx.err(
                Some(s.span()),
                field,
                format!(
                    "unknown {} `{v}`: {}",
                    field.rsplit('.').next().unwrap_or(field),
                    did_you_mean(v, &all)
                ),
            )
        })
}

fn value(
    cx: &Ctx<'_>,
    v: &toml::Value,
    span: &Span,
    field: &str,
    names: &Names<'_>,
) -> Result<Expr, PowerFileError> {
    match v {
        toml::Value::Integer(i) => {
            if !(-crate::games::auto_rumble::powers::expr::MAX_CONSTANT
                ..=crate::games::auto_rumble::powers::expr::MAX_CONSTANT)
                .contains(i)
            {
                return Err(cx.err(
                    Some(span.clone()),
                    field,
                    "numbers in a power are at most 1,000,000 in size",
                ));
            }
            Ok(Expr::constant(*i as i32))
        }
        toml::Value::String(s) => parse_expr(s, names)
            .map_err(|e| cx.err(Some(span.clone()), field, format!("in \"{s}\": {e}"))),
        other => Err(cx.err(
            Some(span.clone()),
            field,
            format!(
                "expected a whole number or a value such as \"10 * heroes_alive\", found a {}",
                other.type_str()
            ),
        )),
    }
}

fn clause(
    cx: &Ctx<'_>,
    power: &str,
    counters: &[String],
    c: ClauseDoc,
    span: Span,
    summons: &mut Vec<SummonDef>,
    gives: &mut Named,
) -> Result<Clause, PowerFileError> {
    let names = Names { counters };
    let f = |k: &str| format!("{power}.clause.{k}");
    let when = lookup(cx, &c.when, &f("when"), WHEN_NAMES)?;
    let round = match &c.rounding {
        None => Round::Up,
        Some(r) => lookup(
            cx,
            r,
            &f("rounding"),
            &[("up", Round::Up), ("down", Round::Down)],
        )?,
    };
    let limit = match &c.limit {
        None => Limit::Unlimited,
        Some(l) => lookup(
            cx,
            l,
            &f("limit"),
            &[
                ("once_per_round", Limit::OncePerRound),
                ("once_per_game", Limit::OncePerGame),
                ("once_per_hero_per_round", Limit::OncePerHeroPerRound),
            ],
        )?,
    };
    if limit == Limit::OncePerHeroPerRound && !when.has_other() {
        return Err(cx.err(
            c.limit.as_ref().map(|l| l.span()),
            f("limit"),
            format!(
                "`once_per_hero_per_round` counts the other hero of a reaction, and a `{}` clause has none (AR-68): use `once_per_round`, or make the clause a reaction (`attacked`, `hit`, `damaged`, ...)",
                when.name()
            ),
        ));
    }
    let from_start = c.from_start.as_ref().is_some_and(|b| *b.get_ref());
    if from_start && when != When::Passive {
        return Err(cx.err(
            c.from_start.as_ref().map(|b| b.span()),
            f("from_start"),
            format!(
                "`from_start` makes a passive clause hold before the holder's first plan (AR-70); a `{}` clause fires when its moment comes: drop it, or use `when = \"battle_start\"`",
                when.name()
            ),
        ));
    }
    let target = match &c.target {
        None => Target::Holder,
        Some(t) => lookup(cx, t, &f("target"), TARGET_NAMES)?,
    };
    if target == Target::Other && !when.has_other() {
        return Err(cx.err(
            Some(c.target.as_ref().unwrap().span()),
            f("target"),
            format!(
                "`other` is the other hero of a reaction, and a `{}` clause has none (AR-27): pick a rule such as `opponent_most_energy`, or make the clause a reaction (`attacked`, `hit`, `kill`, ...)",
                when.name()
            ),
        ));
    }
    // Conditions.
    let mut conds = [crate::games::auto_rumble::powers::expr::Cond {
        left: Expr::constant(0),
        cmp: crate::games::auto_rumble::powers::expr::Cmp::Eq,
        right: Expr::constant(0),
    }; MAX_CONDS];
    let mut n_conds = 0;
    if let Some(v) = &c.cond {
        let list: Vec<&toml::Value> = match v.get_ref() {
            toml::Value::Array(a) => a.iter().collect(),
            one => vec![one],
        };
        if list.len() > MAX_CONDS {
            return Err(cx.err(
                Some(v.span()),
                f("if"),
                format!("at most {MAX_CONDS} conditions per clause"),
            ));
        }
        for item in list {
            let Some(s) = item.as_str() else {
                return Err(cx.err(
                    Some(v.span()),
                    f("if"),
                    "a condition is a string such as \"energy > 5\" (or a list of them)",
                ));
            };
            let mut cond = parse_cond(s, &names)
                .map_err(|e| cx.err(Some(v.span()), f("if"), format!("in \"{s}\": {e}")))?;
            cond.left.round = round;
            cond.right.round = round;
            conds[n_conds] = cond;
            n_conds += 1;
        }
    }
    // Cost.
    let mut cost = Cost::FREE;
    if let Some(t) = &c.cost {
        if when == When::Passive {
            return Err(cx.err(
                Some(t.span()),
                f("cost"),
                "a passive clause is always on and is never paid for (AR-25): drop the cost, or make it a `use` clause",
            ));
        }
        if when == When::Death {
            return Err(cx.err(
                Some(t.span()),
                f("cost"),
                "a `death` clause fires when the holder has no Energy left to pay with (AR-54): drop the cost",
            ));
        }
        for (k, v) in t.get_ref() {
            let e = value(cx, v, &t.span(), &f(&format!("cost.{k}")), &names)?;
            let mut e = e;
            e.round = round;
            match k.as_str() {
                "spend" if when != When::Use => {
                    return Err(cx.err(
                        Some(t.span()),
                        f("cost.spend"),
                        format!(
                            "only a `use` clause Spends (from the round's budget, AR-3); a `{}` clause may Burn: write `burn` instead",
                            when.name()
                        ),
                    ));
                }
                "spend" => cost.spend = e,
                "burn" => cost.burn = e,
                other => {
                    return Err(cx.err(
                        Some(t.span()),
                        f("cost"),
                        format!(
                            "unknown cost `{other}`: {}",
                            did_you_mean(other, &["spend", "burn"])
                        ),
                    ));
                }
            }
        }
    }
    // Effects.
    let docs = c.effects.unwrap_or_default();
    // A clause with no effect is accepted as such (issue 49): it fires and pays its cost (a
    // `use` clause's Spend: Sniper's reload) and does nothing else; `check` says so.
    if docs.len() > MAX_EFFECTS {
        return Err(cx.err(
            Some(span),
            f("effects"),
            format!("at most {MAX_EFFECTS} effects per clause: split it"),
        ));
    }
    let mut effects = [Effect {
        kind: EffectKind::Win,
        cond: None,
        value: Expr::constant(0),
        to: None,
        ignore_defence: false,
        unpreventable: false,
        as_attack: false,
    }; MAX_EFFECTS];
    let n_effects = docs.len();
    for (k, d) in docs.iter().enumerate() {
        let mut e = effect(cx, &f("effects"), d, &names, summons, gives)?;
        e.value.round = round;
        let to = e.to.unwrap_or(target);
        check_effect(cx, &f("effects"), d.span(), when, &e, to)?;
        // `target.*` in an effect reads the hero it acts on, one target at a time, so any
        // target will do; an effect sent elsewhere with `to` reads the clause's target, which
        // must then be one hero (AR-26, issue 49).
        if e.to.is_some()
            && !target.is_single()
            && (e.value.reads(Quantity::reads_target)
                || e.cond.is_some_and(|c| c.reads(Quantity::reads_target)))
        {
            return Err(cx.err(
                Some(d.span()),
                f("effects"),
                format!(
                    "the effect is sent elsewhere with `to` and reads `target.*`, the clause's target, but `{}` is several heroes: drop `to`, or pick a single-hero target",
                    target.name()
                ),
            ));
        }
        if e.kind == EffectKind::Coins && n_conds > 0 {
            return Err(cx.err(
                Some(d.span()),
                f("if"),
                "`coins` is settled before the battle, so its clause takes no `if` (AR-43): drop the condition",
            ));
        }
        effects[k] = e;
    }
    if !when.is_reaction()
        && (conds[..n_conds]
            .iter()
            .any(|c| c.reads(Quantity::reads_hit))
            || cost.burn.reads(Quantity::reads_hit)
            || cost.spend.reads(Quantity::reads_hit))
    {
        return Err(cx.err(
            Some(span.clone()),
            f("if"),
            format!(
                "`hit.*` is the hit being resolved, and a `{}` clause fires outside any hit: read it in a reaction (AR-57)",
                when.name()
            ),
        ));
    }
    // A clause's own `if` is read before its targets are picked: `target.*` there can only mean
    // a reaction's other hero (AR-25).
    if target != Target::Other
        && conds[..n_conds]
            .iter()
            .any(|c| c.reads(Quantity::reads_target))
    {
        return Err(cx.err(
            c.cond.as_ref().map(|v| v.span()),
            f("if"),
            format!(
                "the clause's `if` is read before its target `{}` is picked, so `target.*` there reads nothing (AR-25): put the condition on the effect, e.g. {{ damage = 5, if = \"target.energy > 50\" }}, which reads the hero the effect acts on",
                target.name()
            ),
        ));
    }
    // A cost is paid once, before any target: `target.*` there needs one target.
    let reads_target =
        cost.spend.reads(Quantity::reads_target) || cost.burn.reads(Quantity::reads_target);
    if reads_target && !target.is_single() {
        return Err(cx.err(
            Some(span),
            f("target"),
            format!("the clause reads `target.*` but its target `{}` is several heroes: pick a single-hero target", target.name()),
        ));
    }
    Ok(Clause {
        when,
        conds,
        n_conds: n_conds as u8,
        cost,
        target,
        limit,
        effects,
        n_effects: n_effects as u8,
        from_start,
    })
}

fn effect(
    cx: &Ctx<'_>,
    field: &str,
    d: &Spanned<toml::Value>,
    names: &Names<'_>,
    summons: &mut Vec<SummonDef>,
    gives: &mut Named,
) -> Result<Effect, PowerFileError> {
    let span = d.span();
    let mut e = Effect {
        kind: EffectKind::Win,
        cond: None,
        value: Expr::constant(0),
        to: None,
        ignore_defence: false,
        unpreventable: false,
        as_attack: false,
    };
    let table = match d.get_ref() {
        toml::Value::String(s) => {
            e.kind = match s.as_str() {
                "copy_self" => EffectKind::CopySelf,
                "eliminate" => EffectKind::Eliminate,
                "win" => EffectKind::Win,
                other => {
                    return Err(cx.err(
                        Some(span),
                        field,
                        format!(
                            "unknown effect `{other}`: {} (effects with an amount are tables, e.g. {{ add_defence = 10 }})",
                            did_you_mean(other, &["copy_self", "eliminate", "win"])
                        ),
                    ));
                }
            };
            return Ok(e);
        }
        toml::Value::Table(t) => t,
        other => {
            return Err(cx.err(
                Some(span),
                field,
                format!("an effect is a table such as {{ add_defence = 10 }} or a word such as \"copy_self\", found a {}", other.type_str()),
            ));
        }
    };
    let mut kind: Option<(&str, &toml::Value)> = None;
    let mut counter: Option<u8> = None;
    let mut word: Option<EffectKind> = None;
    for (k, v) in table {
        match k.as_str() {
            "if" => {
                let Some(s) = v.as_str() else {
                    return Err(cx.err(
                        Some(span.clone()),
                        format!("{field}.if"),
                        "an effect's `if` is one condition, a string such as \"energy >= 20\" (a list of several belongs on the clause's `if`)",
                    ));
                };
                e.cond = Some(parse_cond(s, names).map_err(|er| {
                    cx.err(
                        Some(span.clone()),
                        format!("{field}.if"),
                        format!("in \"{s}\": {er}"),
                    )
                })?);
            }
            "copy_self" if !v.is_bool() => {
                // `copy_self = V`: the copy's Energy is V (Egg Clutch's hatchlings).
                if kind.is_some() || word.is_some() {
                    return Err(cx.err(
                        Some(span.clone()),
                        field,
                        "one effect per table: make them two effects",
                    ));
                }
                kind = Some(("copy_self", v));
            }
            "summon" => {
                let Some(n) = v.as_str().filter(|n| !n.trim().is_empty()) else {
                    return Err(cx.err(
                        Some(span.clone()),
                        format!("{field}.summon"),
                        "name the summoned hero, e.g. { summon = \"Worshippers\", energy = 40, attack = 10 }",
                    ));
                };
                if kind.is_some() || word.is_some() {
                    return Err(cx.err(
                        Some(span.clone()),
                        field,
                        "one effect per table: make them two effects",
                    ));
                }
                let Some(energy) = table.get("energy") else {
                    return Err(cx.err(
                        Some(span.clone()),
                        format!("{field}.energy"),
                        "a summon needs its Energy, e.g. energy = 50",
                    ));
                };
                let energy = value(cx, energy, &span, &format!("{field}.energy"), names)?;
                let attack = match table.get("attack") {
                    None => None,
                    Some(a) => Some(value(cx, a, &span, &format!("{field}.attack"), names)?),
                };
                let powers = match table.get("powers") {
                    None => Vec::new(),
                    Some(toml::Value::Array(a)) => {
                        let mut out = Vec::new();
                        for x in a {
                            let Some(x) = x.as_str() else {
                                return Err(cx.err(
                                    Some(span.clone()),
                                    format!("{field}.powers"),
                                    "a list of power names from this file",
                                ));
                            };
                            out.push(x.to_string());
                        }
                        out
                    }
                    Some(_) => {
                        return Err(cx.err(
                            Some(span.clone()),
                            format!("{field}.powers"),
                            "a list of power names from this file, e.g. powers = [\"Pox\"]",
                        ));
                    }
                };
                if summons.len() == MAX_SUMMONS {
                    return Err(cx.err(
                        Some(span.clone()),
                        field,
                        format!("at most {MAX_SUMMONS} summons in one power: split it"),
                    ));
                }
                let mut side = Side::Team;
                for (key, s) in [("hostile", Side::Hostile), ("neutral", Side::Neutral)] {
                    match table.get(key) {
                        None | Some(toml::Value::Boolean(false)) => {}
                        Some(toml::Value::Boolean(true)) if side == Side::Team => side = s,
                        Some(toml::Value::Boolean(true)) => {
                            return Err(cx.err(
                                Some(span.clone()),
                                format!("{field}.neutral"),
                                "a summon is hostile (fights only its summoner's team, AR-42) or neutral (fights every team, AR-60), not both: keep one",
                            ));
                        }
                        Some(_) => {
                            return Err(cx.err(
                                Some(span.clone()),
                                format!("{field}.{key}"),
                                "expected true or false",
                            ));
                        }
                    }
                }
                summons.push(SummonDef {
                    name: n.trim().to_string(),
                    energy,
                    attack,
                    powers,
                    side,
                });
                word = Some(EffectKind::Summon((summons.len() - 1) as u8));
            }
            "energy" | "attack" | "powers" | "hostile" | "neutral"
                if table.contains_key("summon") => {}
            "give" => {
                let Some(n) = v.as_str().filter(|n| !n.trim().is_empty()) else {
                    return Err(cx.err(
                        Some(span.clone()),
                        format!("{field}.give"),
                        "name the power given, from this file, e.g. { give = \"Infection\" }",
                    ));
                };
                if kind.is_some() || word.is_some() {
                    return Err(cx.err(
                        Some(span.clone()),
                        field,
                        "one effect per table: make them two effects",
                    ));
                }
                if gives.gives.len() == MAX_SUMMONS {
                    return Err(cx.err(
                        Some(span.clone()),
                        field,
                        format!("at most {MAX_SUMMONS} powers given by one power: split it"),
                    ));
                }
                gives.gives.push(n.trim().to_string());
                word = Some(EffectKind::Give((gives.gives.len() - 1) as u8));
            }
            "remove_power" => {
                let Some(n) = v.as_str().filter(|n| !n.trim().is_empty()) else {
                    return Err(cx.err(
                        Some(span.clone()),
                        format!("{field}.remove_power"),
                        "name the power removed, from this file, or \"all\", e.g. { remove_power = \"Thorns\" }",
                    ));
                };
                if kind.is_some() || word.is_some() {
                    return Err(cx.err(
                        Some(span.clone()),
                        field,
                        "one effect per table: make them two effects",
                    ));
                }
                if gives.removes.len() == MAX_SUMMONS {
                    return Err(cx.err(
                        Some(span.clone()),
                        field,
                        format!("at most {MAX_SUMMONS} powers removed by one power: split it"),
                    ));
                }
                let n = n.trim();
                gives
                    .removes
                    .push((!n.eq_ignore_ascii_case("all")).then(|| n.to_string()));
                word = Some(EffectKind::RemovePower((gives.removes.len() - 1) as u8));
            }
            "attack_only" | "everyone_attacks_only" => {
                if kind.is_some() || word.is_some() {
                    return Err(cx.err(
                        Some(span.clone()),
                        field,
                        "one effect per table: make them two effects",
                    ));
                }
                let s = Spanned::new(span.clone(), v.as_str().unwrap_or("").to_string());
                let rule = lookup(cx, &s, &format!("{field}.{k}"), TARGET_NAMES)?;
                if !rule.is_single()
                    || matches!(
                        rule,
                        Target::Holder
                            | Target::Other
                            | Target::AnyoneMostEnergy
                            | Target::AnyoneLeastEnergy
                    )
                {
                    return Err(cx.err(
                        Some(span.clone()),
                        format!("{field}.{k}"),
                        "name a rule that picks one opponent, e.g. \"first_opponent\" or \"next_opponent\" (AR-39)",
                    ));
                }
                e.to = Some(rule);
                word = Some(if k == "attack_only" {
                    EffectKind::AttackOnly
                } else {
                    EffectKind::EveryoneAttacksOnly
                });
            }
            "copy_self" | "eliminate" | "win" => {
                if v.as_bool() != Some(true) {
                    return Err(cx.err(
                        Some(span.clone()),
                        format!("{field}.{k}"),
                        format!("write `{k} = true` (or the word \"{k}\")"),
                    ));
                }
                if kind.is_some() || word.is_some() {
                    return Err(cx.err(
                        Some(span.clone()),
                        field,
                        "one effect per table: make them two effects",
                    ));
                }
                word = Some(match k.as_str() {
                    "copy_self" => EffectKind::CopySelf,
                    "eliminate" => EffectKind::Eliminate,
                    _ => EffectKind::Win,
                });
            }
            "to" => {
                let s = Spanned::new(span.clone(), v.as_str().unwrap_or("").to_string());
                e.to = Some(lookup(cx, &s, &format!("{field}.to"), TARGET_NAMES)?);
            }
            "ignore_defence" | "unpreventable" | "as_attack" => {
                let Some(b) = v.as_bool() else {
                    return Err(cx.err(
                        Some(span.clone()),
                        format!("{field}.{k}"),
                        "expected true or false",
                    ));
                };
                match k.as_str() {
                    "ignore_defence" => e.ignore_defence = b,
                    "unpreventable" => e.unpreventable = b,
                    _ => e.as_attack = b,
                }
            }
            "counter" => {
                let name = v.as_str().unwrap_or("");
                let Some(slot) = names.counters.iter().position(|c| c == name) else {
                    let all: Vec<&str> = names.counters.iter().map(String::as_str).collect();
                    return Err(cx.err(
                        Some(span.clone()),
                        format!("{field}.counter"),
                        if all.is_empty() {
                            format!("counter `{name}` does not exist: declare it, e.g. counters = {{ {name} = 0 }}")
                        } else {
                            format!("counter `{name}` does not exist: {}", did_you_mean(name, &all))
                        },
                    ));
                };
                counter = Some(slot as u8);
            }
            "add"
            | "multiply"
            | "set"
            | "add_energy"
            | "lose_energy"
            | "set_energy"
            | "add_defence"
            | "lose_defence"
            | "add_prevention"
            | "damage"
            | "attack_bonus"
            | "first_hit_bonus"
            | "tax"
            | "revive"
            | "dodge"
            | "vulnerable"
            | "lock"
            | "defence_spend_burns"
            | "reduce_hit"
            | "cap_hit"
            | "no_attack"
            | "ward"
            | "after_defence_percent"
            | "execute_undefended"
            | "coins"
            | "deal_percent"
            | "take_percent"
            | "attack_cost"
            | "round_loss_cap" => {
                if word.is_some() {
                    return Err(cx.err(
                        Some(span.clone()),
                        field,
                        "one effect per table: make them two effects",
                    ));
                }
                if let Some((prev, _)) = kind {
                    return Err(cx.err(
                        Some(span.clone()),
                        field,
                        format!("one effect per table: `{prev}` and `{k}` are two; make them two effects"),
                    ));
                }
                kind = Some((k.as_str(), v));
            }
            other => {
                let mut all: Vec<&str> = EFFECT_NAMES.to_vec();
                all.extend([
                    "to",
                    "ignore_defence",
                    "unpreventable",
                    "as_attack",
                    "add",
                    "multiply",
                    "set",
                ]);
                return Err(cx.err(
                    Some(span.clone()),
                    field,
                    format!("unknown effect `{other}`: {}", did_you_mean(other, &all)),
                ));
            }
        }
    }
    if let Some(w) = word {
        if counter.is_some() {
            return Err(cx.err(
                Some(span),
                field,
                "`counter` goes with add, multiply or set",
            ));
        }
        e.kind = w;
        return Ok(e);
    }
    let Some((k, v)) = kind else {
        return Err(cx.err(
            Some(span),
            field,
            format!(
                "the effect says nothing to do: name one of {}",
                EFFECT_NAMES
                    .iter()
                    .map(|n| format!("`{n}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        ));
    };
    e.value = value(cx, v, &span, &format!("{field}.{k}"), names)?;
    e.kind = match (k, counter) {
        ("add", Some(c)) => EffectKind::CounterAdd(c),
        ("multiply", Some(c)) => EffectKind::CounterMultiply(c),
        ("set", Some(c)) => EffectKind::CounterSet(c),
        ("add" | "multiply" | "set", None) => {
            return Err(cx.err(
                Some(span),
                field,
                format!("`{k}` changes a counter: name it, e.g. {{ counter = \"X\", {k} = 2 }}"),
            ));
        }
        (_, Some(_)) => {
            return Err(cx.err(
                Some(span),
                field,
                format!("`counter` goes with add, multiply or set, not `{k}`"),
            ));
        }
        ("add_energy", _) => EffectKind::AddEnergy,
        ("lose_energy", _) => EffectKind::LoseEnergy,
        ("set_energy", _) => EffectKind::SetEnergy,
        ("add_defence", _) => EffectKind::AddDefence,
        ("lose_defence", _) => EffectKind::LoseDefence,
        ("add_prevention", _) => EffectKind::AddPrevention,
        ("damage", _) => EffectKind::Damage,
        ("attack_bonus", _) => EffectKind::AttackBonus,
        ("first_hit_bonus", _) => EffectKind::FirstHitBonus,
        ("tax", _) => EffectKind::Tax,
        ("revive", _) => EffectKind::Revive,
        ("dodge", _) => EffectKind::Dodge,
        ("vulnerable", _) => EffectKind::Vulnerable,
        ("lock", _) => EffectKind::Lock,
        ("copy_self", _) => EffectKind::CopyWith,
        ("defence_spend_burns", _) => EffectKind::DefenceSpendBurns,
        ("reduce_hit", _) => EffectKind::ReduceHit,
        ("cap_hit", _) => EffectKind::CapHit,
        ("no_attack", _) => EffectKind::NoAttack,
        ("ward", _) => EffectKind::Ward,
        ("after_defence_percent", _) => EffectKind::AfterDefencePercent,
        ("execute_undefended", _) => EffectKind::ExecuteUndefended,
        ("coins", _) => EffectKind::Coins,
        ("deal_percent", _) => EffectKind::DealPercent,
        ("take_percent", _) => EffectKind::TakePercent,
        ("attack_cost", _) => EffectKind::AttackCost,
        ("round_loss_cap", _) => EffectKind::RoundLossCap,
        _ => unreachable!("every effect key is matched above"),
    };
    if (e.ignore_defence || e.unpreventable || e.as_attack) && e.kind != EffectKind::Damage {
        return Err(cx.err(
            Some(span),
            field,
            "`ignore_defence`, `unpreventable` and `as_attack` qualify `damage` only",
        ));
    }
    Ok(e)
}

/// Combinations that cannot mean anything are refused at load time (AR-25).
fn check_effect(
    cx: &Ctx<'_>,
    field: &str,
    span: Span,
    when: When,
    e: &Effect,
    to: Target,
) -> Result<(), PowerFileError> {
    let fail = |m: String| Err(cx.err(Some(span.clone()), field, m));
    let passive_kind = e.kind.is_passive();
    if passive_kind && when != When::Passive {
        return fail(format!(
            "`{}` changes the holder's attack: it belongs in a `passive` clause",
            effect_name(e.kind)
        ));
    }
    if when == When::Passive && !passive_kind {
        return fail("a passive clause only changes the holder's attack or coins (`attack_bonus`, `first_hit_bonus`, `coins`...); to act each round use `round_start`, once use `battle_start` (AR-25)".into());
    }
    if to == Target::Other && !when.has_other() {
        return fail(format!(
            "`to = \"other\"` needs a reaction with another hero; a `{}` clause has none (AR-27)",
            when.name()
        ));
    }
    if matches!(
        e.kind,
        EffectKind::CopySelf | EffectKind::Win | EffectKind::Revive | EffectKind::Summon(_)
    ) && e.to.is_some_and(|t| t != Target::Holder)
    {
        return fail(format!(
            "`{}` acts on the holder only: drop `to`",
            effect_name(e.kind)
        ));
    }
    if matches!(
        e.kind,
        EffectKind::CounterAdd(_) | EffectKind::CounterMultiply(_) | EffectKind::CounterSet(_)
    ) && to != Target::Holder
    {
        // AR-53: a power's counters are its holder's; on another hero the slot would be some
        // other power's counter.
        return fail(format!(
            "a counter belongs to the power's holder, but this effect acts on {} (the clause's target): add `to = \"self\"` to change the holder's counter (AR-53)",
            to.describe()
        ));
    }
    if e.kind == EffectKind::Coins
        && (e.cond.is_some()
            || e.value
                .reads(|q| !matches!(q, Quantity::Strength | Quantity::OtherStrength)))
    {
        return fail("`coins` is settled before the battle: its value may read only `strength` and `other_strength`, and it takes no `if` (AR-43)".into());
    }
    if matches!(e.kind, EffectKind::ReduceHit | EffectKind::CapHit) && when != When::Attacked {
        return fail(format!(
            "`{}` changes the attack hit arriving: it belongs in an `attacked` clause (AR-38, AR-57)",
            effect_name(e.kind)
        ));
    }
    if (e.value.reads(Quantity::reads_hit) || e.cond.is_some_and(|c| c.reads(Quantity::reads_hit)))
        && !when.is_reaction()
    {
        return fail(format!(
            "`hit.*` is the hit being resolved, and a `{}` clause fires outside any hit: read it in a reaction (`attacked`, `hit`, `damaged`, ...) (AR-57)",
            when.name()
        ));
    }
    if e.kind == EffectKind::Revive && when != When::Death {
        return fail("`revive` belongs in a `death` clause: a hero comes back only from its own elimination (AR-27)".into());
    }
    if when == When::Death
        && to == Target::Holder
        && !matches!(
            e.kind,
            EffectKind::Revive
                | EffectKind::Summon(_)
                | EffectKind::Win
                | EffectKind::CounterAdd(_)
                | EffectKind::CounterMultiply(_)
                | EffectKind::CounterSet(_)
        )
    {
        return fail(format!(
            "a `death` clause fires as the holder leaves: `{}` on the holder does nothing then; act on other heroes (`target` or `to`), or `revive`, `summon`, `win` (AR-54)",
            effect_name(e.kind)
        ));
    }
    // Issue 49: numbers whose negative (or zero) value means nothing a host intends: a negative
    // multiplier made a hero immune, `dodge = 0` dodged nothing while narrated as dodging.
    if let Some(v) = e.value.as_constant() {
        let least = match e.kind {
            EffectKind::Vulnerable
            | EffectKind::DealPercent
            | EffectKind::TakePercent
            | EffectKind::RoundLossCap => Some(0),
            EffectKind::Dodge => Some(1),
            _ => None,
        };
        if let Some(least) = least
            && v < least
        {
            return fail(format!(
                "`{}` is {v}: write {least} or more (a multiplier below 0 would heal or make a hero immune; `dodge = n` prevents hits 1, 1 + n, 1 + 2n, ...)",
                effect_name(e.kind)
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const CRYSTALLIZE: &str = r#"
[[power]]
name = "Crystallize"
source = "AR"
text = "Spend 20: +X Defence; X starts at 1 and doubles with each use."
counters = { X = 1 }

[[power.clause]]
when = "use"
cost = { spend = 20 }
effects = [{ add_defence = "X" }, { counter = "X", multiply = 2 }]
"#;

    #[test]
    fn a_power_loads_into_clauses() {
        let p = parse(CRYSTALLIZE, "t.toml").unwrap();
        assert_eq!(p.len(), 1);
        let c = &p[0].clauses[0];
        assert_eq!(c.when, When::Use);
        assert_eq!(c.cost.spend.as_constant(), Some(20));
        assert_eq!(c.effects()[0].kind, EffectKind::AddDefence);
        assert_eq!(c.effects()[1].kind, EffectKind::CounterMultiply(0));
        assert!(p[0].is_faithful());
        let d = p[0].describe();
        assert!(d.contains("From the use order, for Spend 20:"), "{d}");
        assert!(d.contains("itself gains X Defence"), "{d}");
        assert!(d.contains("counter X *= 2"), "{d}");
    }

    fn err(text: &str) -> PowerFileError {
        parse(text, "bad.toml").unwrap_err()
    }

    #[test]
    fn misspelt_effect_gets_a_suggestion_and_a_position() {
        let e = err(&CRYSTALLIZE.replace("add_defence", "add_defense"));
        assert_eq!(e.at.map(|a| a.0), Some(11), "{e}");
        assert!(
            e.to_string()
                .contains("unknown effect `add_defense`: did you mean `add_defence`?"),
            "{e}"
        );
    }

    // AR-43: `coins` is settled before the battle: passive only, no `if`, strength alone.
    #[test]
    fn coins_is_settled_before_the_battle() {
        let ok = "[[power]]\nname = \"Refund\"\nsource = \"t\"\ntext = \"t\"\n[[power.clause]]\nwhen = \"passive\"\neffects = [{ coins = \"strength\" }]\n";
        assert!(parse(ok, "t.toml").is_ok());
        let e = err(&ok.replace("\"strength\"", "\"energy\""));
        assert!(e.to_string().contains("AR-43"), "{e}");
        let e = err(&ok.replace(
            "when = \"passive\"",
            "when = \"passive\"\nif = \"round > 1\"",
        ));
        assert!(e.to_string().contains("takes no `if`"), "{e}");
        let e = err(&ok.replace("when = \"passive\"", "when = \"round_start\""));
        assert!(
            e.to_string().contains("belongs in a `passive` clause"),
            "{e}"
        );
    }

    #[test]
    fn misspelt_field_trigger_and_quantity_get_suggestions() {
        let e = err(&CRYSTALLIZE.replace("effects =", "efects ="));
        assert!(e.to_string().contains("did you mean `effects`"), "{e}");
        let e = err(&CRYSTALLIZE.replace("\"use\"", "\"round_strat\""));
        assert!(e.to_string().contains("did you mean `round_start`"), "{e}");
        let e =
            err(&CRYSTALLIZE.replace("add_defence = \"X\"", "add_defence = \"10 * heroes_alve\""));
        assert!(e.to_string().contains("did you mean `heroes_alive`"), "{e}");
    }

    // AR-25: impossible combinations are refused when the file loads.
    #[test]
    fn cost_on_a_passive_clause_is_refused() {
        let e = err(&CRYSTALLIZE.replace("\"use\"", "\"passive\""));
        assert!(e.to_string().contains("never paid for"), "{e}");
    }

    #[test]
    fn reaction_target_without_a_reaction_is_refused() {
        let e = err(&CRYSTALLIZE.replace(
            "cost = { spend = 20 }",
            "cost = { spend = 20 }\ntarget = \"other\"",
        ));
        assert!(e.to_string().contains("has none"), "{e}");
    }

    #[test]
    fn undeclared_counter_is_refused() {
        let e = err(&CRYSTALLIZE.replace("counter = \"X\"", "counter = \"Y\""));
        assert!(e.to_string().contains("counter `Y` does not exist"), "{e}");
        let e = err(&CRYSTALLIZE.replace("add_defence = \"X\"", "add_defence = \"Z\""));
        assert!(e.to_string().contains("unknown quantity `Z`"), "{e}");
    }

    #[test]
    fn duplicate_names_and_empty_files_are_refused() {
        let twice = format!(
            "{CRYSTALLIZE}{}",
            CRYSTALLIZE.replace("Crystallize", "crystallize")
        );
        assert!(err(&twice).to_string().contains("two powers are named"));
        assert!(err("").to_string().contains("holds no powers"));
        assert!(err("[[power]]\nname = 3").at.is_some());
    }
}

//! The plain model of one combat (MC-4..MC-22), written to be read against the page: one
//! function per pipeline step, minions in plain structs, victims as (side, index). It narrates
//! single combats, is the oracle an optimised kernel is held to, and walks the exact odds of a
//! combat with effects (its choices come through `Dice`: seeded, or scripted, MC-37).

use std::cell::RefCell;

use crate::games::minion_combat::draws::{Dice, EFFECT, Keyed, MULTI, PAIR, WISE, key, place};
use crate::games::minion_combat::effects::{Against, Clause, Delta, Do, Status, To, When};
use crate::games::minion_combat::rules::{Attack, Estimate, MAX_GROUP, Rules, WisePer};
use crate::games::minion_combat::state::{End, Group, Minion, Outcome};

/// Misses of a minion whose next attack must hit (round 1, MC-9).
pub const INFINITE: u32 = u32::MAX;

/// Which wise-targeting tiebreaker settled a choice (MC-14), 1-based as the page numbers them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tiebreak {
    /// Only one enemy was left.
    Only = 0,
    NonImmune = 1,
    InstantKill = 2,
    HighestArmor = 3,
    LowestHp = 4,
    HighestDamage = 5,
    Random = 6,
}

impl Tiebreak {
    /// Why the choice fell so, in words: the tiebreaker that settled it (MC-14).
    pub fn reason(self) -> &'static str {
        match self {
            Tiebreak::Only => "the only enemy left",
            Tiebreak::NonImmune => "tiebreaker 1: not immune to its attack",
            Tiebreak::InstantKill => "tiebreaker 2: an instant kill",
            Tiebreak::HighestArmor => "tiebreaker 3: the highest armor",
            Tiebreak::LowestHp => "tiebreaker 4: the lowest HP",
            Tiebreak::HighestDamage => "tiebreaker 5: the highest damage",
            Tiebreak::Random => "tiebreaker 6: drawn at random among equals",
        }
    }

    pub fn word(self) -> &'static str {
        match self {
            Tiebreak::Only => "the only enemy left",
            Tiebreak::NonImmune => "1 non-immune",
            Tiebreak::InstantKill => "2 instant kill",
            Tiebreak::HighestArmor => "3 highest armor",
            Tiebreak::LowestHp => "4 lowest HP",
            Tiebreak::HighestDamage => "5 highest damage",
            Tiebreak::Random => "6 random",
        }
    }
}

/// What the takes-damage pipeline returned (MC-19).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Result {
    Bounced,
    Damaged,
    Killed,
}

/// One attack, as A1..A8 saw it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Blow {
    pub attack: Attack,
    pub hit: bool,
    /// The attacker's misses before the check (INFINITE in round 1).
    pub misses: u32,
    pub damage: i32,
    pub soaked: i32,
    pub dealt: i32,
    pub result: Option<Result>,
    /// True for a multi-attacker's random extra attack.
    pub random: bool,
    /// The levels A1 compared: the attacker's (as its attacks count) and the victim's.
    pub levels: (i32, i32),
    /// Who took the damage: the victim, or whoever took the hit for it (MC-49).
    pub taker: Who,
    /// Whether the damage was magical (MC-49, MC-51).
    pub magical: bool,
    /// HP the attack healed instead of dealing (MC-51).
    pub healed: i32,
}

/// A minion by side and position in its group.
pub type Who = (usize, usize);

/// What a combat tells an observer; every method defaults to nothing.
pub trait Hook {
    fn start(&mut self, _groups: &[&Group; 2], _first: usize) {}
    fn round(&mut self, _g: u32, _f: &Fight) {}
    /// Round `g` is over (its attacks, or its R1 effects when they ended the combat).
    fn round_end(&mut self, _g: u32, _f: &Fight) {}
    fn paired(&mut self, _a: Who, _b: Who) {}
    fn wise(&mut self, _m: Who, _victim: Who, _why: Tiebreak) {}
    fn retaliates(&mut self, _m: Who, _victim: Who) {}
    fn forfeits(&mut self, _m: Who, _attacks: u32) {}
    /// `m`'s attack on `victim` hits (A1); effects it sets off come before its [`Hook::blow`].
    fn hit_begins(&mut self, _m: Who, _victim: Who) {}
    fn blow(&mut self, _m: Who, _victim: Who, _b: &Blow, _f: &Fight) {}
    /// A must-attack effect gave `m` its victim (MC-48).
    fn compelled(&mut self, _m: Who, _victim: Who) {}
    /// A clause of `holder` acted on `target` (MC-41): `what` tells it in words.
    fn effect(&mut self, _holder: Who, _target: Who, _what: &str, _f: &Fight) {}
    /// `m` died; `by` is the one to blame, if any.
    fn died(&mut self, _m: Who, _by: Option<Who>) {}
    fn end(&mut self, _o: &Outcome) {}
}

/// Observes nothing.
pub struct Quiet;
impl Hook for Quiet {}

/// A minion's state during a combat (the page's "combat attributes").
#[derive(Clone, Debug)]
pub struct Fighter {
    pub stats: Minion,
    pub hp: i32,
    pub armor: i32,
    pub remaining: u32,
    pub victim: Option<Who>,
    pub misses: u32,
    /// In the combat: living and not withdrawn.
    pub alive: bool,
    pub qualified: bool,
    /// Stat changes triggered clauses gave it, until the end of the combat (MC-43).
    pub gained: Delta,
    /// Statuses it holds, their stacks (MC-47) and the last round each lasts through (MC-60;
    /// `u32::MAX`: the whole combat).
    pub stacks: Vec<(Status, u32, u32)>,
    /// Left the combat alive (MC-46).
    pub withdrawn: bool,
}

impl Fighter {
    /// Every clause this fighter holds, with how many times it acts (its stacks, for a
    /// status's clauses).
    pub fn clauses(&self) -> impl Iterator<Item = (&Clause, i32)> {
        self.stats
            .clauses
            .iter()
            .map(|c| (c, 1))
            .chain(self.stacks.iter().flat_map(|(s, n, _)| {
                s.clauses
                    .iter()
                    .map(move |c| (c, (*n).min(i32::MAX as u32) as i32))
            }))
    }

    /// Whether it holds a standing trait (`when = always`) that `p` picks.
    pub fn has(&self, p: impl Fn(&Do) -> bool) -> bool {
        self.clauses()
            .any(|(c, _)| c.when == When::Always && p(&c.effect))
    }

    /// Max HP changes by `x` (never below 0): HP rises with it, or is capped by it (MC-59).
    fn change_max_hp(&mut self, x: i32) {
        self.stats.max_hp = self.stats.max_hp.saturating_add(x).max(0);
        self.hp = if x > 0 {
            self.hp.saturating_add(x)
        } else {
            self.hp.min(self.stats.max_hp)
        };
    }

    /// Whether it is what `a` names.
    pub fn is(&self, a: Against) -> bool {
        let s = &self.stats;
        match a {
            Against::Monster => !s.recruit,
            Against::Recruit => s.recruit,
            Against::UnenchantedRecruit => s.recruit && !s.enchanted,
            Against::Swordsman => s.swordsman(),
            Against::Archer => s.recruit && s.missile.is_some(),
            Against::Flying => s.flight,
            Against::NotFlying => !s.flight,
            Against::Nation(i) => s.nation == Some(i as usize),
            // Settled to `Nation` when fielded (MC-55); a clause not fielded matches none.
            Against::NationNamed(_) => false,
        }
    }
}

/// Both groups during a combat, sides in the order given.
pub struct Fight {
    pub side: [Vec<Fighter>; 2],
    /// The side with precedence (MC-3).
    pub first: usize,
    pub round: u32,
    /// Random effect targets drawn this round (MC-30 place `EFFECT`).
    pub draws: u64,
    /// Whether any minion carries a clause: stat changes can arise only from one, so a plain
    /// combat skips their sums (the engine an optimised kernel is held to stays plain).
    effects: bool,
    /// Whether any clause, or any status a clause gives, stops damage (MC-57) or hears every
    /// death (MC-56): most combats skip both checks.
    silencing: bool,
    hearing: bool,
}

/// How a standing change held on side `s` reaches `w`: as a groupmate's or an enemy's.
fn reach(s: usize, w: Who) -> To {
    if s == w.0 {
        To::Groupmates
    } else {
        To::Enemies
    }
}

/// Whether `c`, or a clause of a status it gives, is one `p` picks.
fn holds(c: &Clause, p: &impl Fn(&Clause) -> bool) -> bool {
    p(c) || matches!(&c.effect, Do::Give(s) if s.clauses.iter().any(p))
}

impl Fight {
    pub fn new(groups: [&Group; 2], first: usize) -> Fight {
        let side = groups.map(|g| {
            g.minions
                .iter()
                .map(|m| Fighter {
                    stats: m.clone(),
                    hp: m.hp,
                    armor: m.armor,
                    remaining: 0,
                    victim: None,
                    misses: 0,
                    alive: m.hp > 0,
                    qualified: false,
                    gained: Delta::default(),
                    stacks: Vec::new(),
                    withdrawn: false,
                })
                .collect()
        });
        let any = |p: &dyn Fn(&Clause) -> bool| {
            groups
                .iter()
                .flat_map(|g| &g.minions)
                .flat_map(|m| &m.clauses)
                .any(|c| holds(c, &p))
        };
        Fight {
            side,
            first,
            round: 0,
            draws: 0,
            effects: any(&|_| true),
            silencing: any(&|c| c.effect == Do::NoDamage),
            hearing: any(&|c| c.when == When::AMinionDies),
        }
    }

    pub fn get(&self, w: Who) -> &Fighter {
        &self.side[w.0][w.1]
    }

    fn get_mut(&mut self, w: Who) -> &mut Fighter {
        &mut self.side[w.0][w.1]
    }

    pub fn standing(&self, s: usize) -> bool {
        self.side[s].iter().any(|f| f.alive)
    }

    fn living(&self, s: usize) -> Vec<Who> {
        (0..self.side[s].len())
            .filter(|&i| self.side[s][i].alive)
            .map(|i| (s, i))
            .collect()
    }

    fn idle(&self, w: Who) -> bool {
        let f = self.get(w);
        f.alive && self.attacks(w) > 0 && f.victim.is_none()
    }

    /// The standing stat changes on `w` (MC-43): its own, its living groupmates' and enemies'
    /// auras that reach it, and what triggered clauses gave it.
    pub fn delta(&self, w: Who) -> Delta {
        if !self.effects {
            return Delta::default();
        }
        let me = self.get(w);
        let mut d = me.gained;
        let now = |c: &Clause| c.when == When::Always && c.round.is_none_or(|g| g == self.round);
        for (c, n) in me.clauses() {
            if let Do::Stats(x) = &c.effect
                && now(c)
                && c.to == To::Me
                && c.against.is_none()
            {
                d.add(x, n);
            }
        }
        for s in 0..2 {
            for (i, x) in self.side[s].iter().enumerate() {
                if !x.alive || (s, i) == w {
                    continue;
                }
                let reach = reach(s, w);
                for (c, n) in x.clauses() {
                    if let Do::Stats(y) = &c.effect
                        && now(c)
                        && c.to == reach
                        && c.against.is_none_or(|a| me.is(a))
                    {
                        d.add(y, n);
                    }
                }
            }
        }
        d
    }

    /// `w`'s level as its attacks and dodges count it (MC-23, MC-43).
    pub fn level(&self, w: Who, r: &Rules) -> i32 {
        let me = self.get(w);
        let fixed = me.clauses().find_map(|(c, _)| match c.effect {
            Do::LevelIs(n) if c.when == When::Always => Some(n),
            _ => None,
        });
        r.clamp_level(fixed.unwrap_or_else(|| me.stats.level.saturating_add(self.delta(w).level)))
    }

    /// `w`'s max armor with its stat changes (armor gained mid-round counts from the next
    /// reset, MC-43).
    pub fn max_armor(&self, w: Who) -> i32 {
        self.get(w)
            .stats
            .armor
            .saturating_add(self.delta(w).armor)
            .max(0)
    }

    /// `w`'s attacks per round with its stat changes, at most [`MAX_ATTACKS`] (MC-61: stacked
    /// changes could otherwise ask for unbounded work).
    pub fn attacks(&self, w: Who) -> u32 {
        ((self.get(w).stats.attacks as i32)
            .saturating_add(self.delta(w).attacks)
            .max(0) as u32)
            .min(crate::games::minion_combat::rules::MAX_ATTACKS)
    }

    /// Tiebreaker 5's damage per single attack, with stat changes (0 for an attack type it
    /// deals none of, MC-57).
    fn best_damage(&self, w: Who) -> i32 {
        let (s, d) = (&self.get(w).stats, self.delta(w));
        let of = |a: Attack, x: Option<i32>, dx: i32| {
            x.map_or(0, |v| {
                if self.silenced(w, a) {
                    0
                } else {
                    v.saturating_add(dx)
                }
            })
        };
        of(Attack::Hand, s.hand, d.hand).max(of(Attack::Missile, s.missile, d.missile))
    }

    /// Whether a living minion's `no_damage` reaches `w`'s attacks of type `a` (MC-57).
    #[inline]
    fn silenced(&self, w: Who, a: Attack) -> bool {
        if !self.silencing {
            return false;
        }
        let me = self.get(w);
        (0..2).any(|s| {
            self.side[s].iter().enumerate().any(|(i, x)| {
                x.alive
                    && (s, i) != w
                    && x.clauses().any(|(c, _)| {
                        c.effect == Do::NoDamage
                            && c.to == reach(s, w)
                            && c.attack.is_none_or(|k| k == a)
                            && c.round.is_none_or(|g| g == self.round)
                            && c.against.is_none_or(|k| me.is(k))
                    })
            })
        })
    }

    /// Damage of one attack by `m` in this round (MC-18): its stat, its stat changes (MC-43;
    /// those against a kind of victim when `victim` is one), its nation's bonus, the missile
    /// round's modifier, floored at 0.
    pub fn damage_to(&self, m: Who, a: Attack, r: &Rules, victim: Option<Who>) -> i32 {
        let me = self.get(m);
        let s = &me.stats;
        let delta = self.delta(m);
        let mut d = match a {
            Attack::Hand => s.hand.unwrap_or(0).saturating_add(delta.hand),
            Attack::Missile => s.missile.unwrap_or(0).saturating_add(delta.missile),
        };
        if let Some(v) = victim {
            for (c, n) in me.clauses() {
                if let (Do::Stats(x), Some(k)) = (&c.effect, c.against)
                    && c.when == When::Always
                    && c.to == To::Me
                    && c.round.is_none_or(|g| g == self.round)
                    && self.get(v).is(k)
                {
                    d = d.saturating_add(n.saturating_mul(match a {
                        Attack::Hand => x.hand,
                        Attack::Missile => x.missile,
                    }));
                }
            }
        }
        if let Some(n) = s.nation
            && let Some((kind, round, amount)) = r.nations[n].bonus
            && kind == a
            && round == self.round
        {
            d = d.saturating_add(amount);
        }
        if self.round == 1 && a == Attack::Missile {
            d = d.saturating_add(r.missile_round_modifier);
        }
        if self.silenced(m, a) {
            return 0;
        }
        d.max(0)
    }
}

/// Plays one combat between two groups (MC-4); `seed` is the combat's seed.
pub fn combat(groups: [&Group; 2], r: &Rules, seed: u64, hook: &mut impl Hook) -> Outcome {
    combat_with(groups, r, &mut Keyed(key(seed)), hook)
}

/// Plays one combat with its random choices from `dice`: the seed's keyed draws in play, a
/// script of choices when exact odds walk every branch (MC-37).
pub fn combat_with(
    groups: [&Group; 2],
    r: &Rules,
    dice: &mut dyn Dice,
    hook: &mut impl Hook,
) -> Outcome {
    let first = if crate::games::minion_combat::state::precedes(groups[1], groups[0]) {
        1
    } else {
        0
    };
    let mut f = Fight::new(groups, first);
    assert!(
        groups.iter().all(|g| g.minions.len() <= MAX_GROUP),
        "a group holds at most {MAX_GROUP} minions (MC-1)"
    );
    let mut o = Outcome::new(groups.map(|g| g.minions.len()));
    let cx = Cx {
        r,
        dice: RefCell::new(dice),
    };
    hook.start(&groups, first);
    // C1: start-of-combat effects in precedence order, then the early-end check (MC-5).
    every(&mut f, When::StartOfCombat, None, &cx, &mut o, hook);
    for g in 1..=r.rounds {
        if !(f.standing(0) && f.standing(1)) {
            break;
        }
        f.round = g;
        f.draws = 0;
        o.rounds = g;
        start_of_round(&mut f, r);
        hook.round(g, &f);
        // R1: every-round effects, then "if either group has died, halt" (MC-8): the loop's
        // check ends the combat after this round.
        every(&mut f, When::StartOfRound, None, &cx, &mut o, hook);
        if f.standing(0) && f.standing(1) {
            choose_victims(&mut f, &cx, hook);
            for s in [first, 1 - first] {
                side_attacks(&mut f, s, &cx, &mut o, hook);
            }
        }
        // MC-60: statuses given for a number of rounds end with their last.
        for x in f.side.iter_mut().flatten() {
            x.stacks.retain(|s| s.2 > g);
        }
        hook.round_end(g, &f);
    }
    // C4: end-of-combat effects in precedence order.
    every(&mut f, When::EndOfCombat, None, &cx, &mut o, hook);
    for s in 0..2 {
        for (i, m) in f.side[s].iter().enumerate() {
            o.hp[s][i] = if m.alive || m.withdrawn { m.hp } else { 0 };
            // A minion whose level is fixed gains none (MC-58).
            o.qualified[s][i] = m.qualified && !m.has(|d| matches!(d, Do::LevelIs(_)));
        }
    }
    // A group whose last minions withdrew still stands (MC-46).
    let left = |s: usize| f.side[s].iter().any(|m| m.alive || m.withdrawn);
    (o.end, o.winner) = match (left(0), left(1)) {
        (true, true) => (End::Rounds, None),
        (true, false) => (End::Wiped, Some(0)),
        (false, true) => (End::Wiped, Some(1)),
        (false, false) => (End::Both, None),
    };
    hook.end(&o);
    o
}

/// What every step of a combat reads besides the fight: the rules and where its random
/// choices come from.
struct Cx<'a> {
    r: &'a Rules,
    dice: RefCell<&'a mut dyn Dice>,
}

impl Cx<'_> {
    /// A uniform index below `n` for the choice at `place` (MC-30).
    fn below(&self, place: u64, n: usize) -> usize {
        self.dice.borrow_mut().below(place, n)
    }
}

/// R1 (MC-8): armor and remaining attacks reset (none for a minion without an attack this
/// round: a basher's in round 1, MC-9), both with their stat changes (MC-43); shooters go idle.
fn start_of_round(f: &mut Fight, r: &Rules) {
    let g = f.round;
    for s in 0..2 {
        for i in 0..f.side[s].len() {
            let w = (s, i);
            if !f.get(w).alive {
                continue;
            }
            let armor = f.max_armor(w);
            let attacks = if f.get(w).stats.attack_in(g, r).is_some() {
                f.attacks(w)
            } else {
                0
            };
            let m = f.get_mut(w);
            m.armor = armor;
            m.remaining = attacks;
            if m.stats.shooter() {
                m.victim = None;
            }
        }
    }
}

/// The first living minion of side `s`, other than `but`, holding the standing trait `t`.
fn first_holding(f: &Fight, s: usize, t: &Do, but: Option<Who>) -> Option<Who> {
    (0..f.side[s].len())
        .map(|i| (s, i))
        .find(|&w| Some(w) != but && f.get(w).alive && f.get(w).has(|d| d == t))
}

/// The first living minion of side `s` that compels its enemies to attack it (MC-48).
fn compeller(f: &Fight, s: usize) -> Option<Who> {
    first_holding(f, s, &Do::Compel, None)
}

/// R2 (MC-9..MC-12).
fn choose_victims(f: &mut Fight, cx: &Cx, hook: &mut impl Hook) {
    if f.round == 1 {
        // Every first attack hits; hand attacks were forfeited in R1; shooters stay idle until
        // R3/R4.
        for s in 0..2 {
            for m in f.side[s].iter_mut().filter(|m| m.alive) {
                m.misses = INFINITE;
            }
        }
        return;
    }
    pair_bashers(f, cx, hook);
    // Compulsion: every idle minion checks must-attack effects (MC-48).
    for s in [f.first, 1 - f.first] {
        for i in 0..f.side[s].len() {
            if f.idle((s, i))
                && f.side[s][i].remaining > 0
                && let Some(d) = compeller(f, 1 - s)
            {
                f.get_mut((s, i)).victim = Some(d);
                hook.compelled((s, i), d);
            }
        }
    }
    for s in [f.first, 1 - f.first] {
        for i in 0..f.side[s].len() {
            if f.idle((s, i)) && f.side[s][i].remaining > 0 {
                choose_wisely(f, (s, i), 0, cx, hook);
            }
        }
    }
}

/// MC-10: the idle bashers of each side, in a random order each, pair off one to one.
fn pair_bashers(f: &mut Fight, cx: &Cx, hook: &mut impl Hook) {
    let mut lists: [Vec<usize>; 2] = [Vec::new(), Vec::new()];
    for (s, list) in lists.iter_mut().enumerate() {
        *list = (0..f.side[s].len())
            .filter(|&i| f.idle((s, i)) && !f.side[s][i].stats.shooter())
            .collect();
        for i in (1..list.len()).rev() {
            let j = cx.below(place(f.round, s, i, PAIR, 0), i + 1);
            list.swap(i, j);
        }
    }
    let (a, b) = (f.first, 1 - f.first);
    for (&i, &j) in lists[a].iter().zip(&lists[b]) {
        let (x, y) = ((a, i), (b, j));
        f.get_mut(x).victim = Some(y);
        f.get_mut(y).victim = Some(x);
        hook.paired(x, y);
    }
}

/// MC-14: the six tiebreakers, in order, over the living enemies; `k` numbers the minion's
/// choices within the round (0 in R2, 1 + attacks made in R3/R4) so each reads its own place.
fn choose_wisely(f: &mut Fight, m: Who, k: u64, cx: &Cx, hook: &mut impl Hook) {
    let enemies = f.living(1 - m.0);
    if enemies.is_empty() {
        return;
    }
    let (v, why) = wise_choice(f, m, &enemies, cx, k);
    f.get_mut(m).victim = Some(v);
    hook.wise(m, v, why);
}

/// The victim `m` chooses wisely among `enemies`, and the tiebreaker that settled it.
fn wise_choice(f: &Fight, m: Who, enemies: &[Who], cx: &Cx, k: u64) -> (Who, Tiebreak) {
    let r = cx.r;
    if enemies.len() == 1 {
        return (enemies[0], Tiebreak::Only);
    }
    let mut pool: Vec<Who> = enemies.to_vec();
    // 1: not quasi-immune to my damage type; magical damage passes every immunity (MC-50).
    if let Some(a) = f.get(m).stats.attack_in(f.round, r) {
        // Whether its damage is magical against anyone, asked once: most minions' is not.
        let magical = f.get(m).has(|d| *d == Do::Magical);
        let open: Vec<Who> = pool
            .iter()
            .copied()
            .filter(|&v| {
                (magical && f.magical(m, v)) || !f.get(v).has(|d| *d == Do::QuasiImmune(a))
            })
            .collect();
        if !open.is_empty() && open.len() < pool.len() {
            pool = open;
            if pool.len() == 1 {
                return (pool[0], Tiebreak::NonImmune);
            }
        }
    }
    // 2: instant kill.
    if r.estimate != Estimate::Off {
        let kill: Vec<Who> = pool
            .iter()
            .copied()
            .filter(|&v| can_kill(f, m, v, r))
            .collect();
        if !kill.is_empty() && kill.len() < pool.len() {
            pool = kill;
            if pool.len() == 1 {
                return (pool[0], Tiebreak::InstantKill);
            }
        }
    }
    let steps: [(Tiebreak, &dyn Fn(Who) -> i64); 3] = [
        (Tiebreak::HighestArmor, &|v| f.max_armor(v) as i64),
        (Tiebreak::LowestHp, &|v| -(f.get(v).hp as i64)),
        (Tiebreak::HighestDamage, &|v| f.best_damage(v) as i64),
    ];
    for (why, score) in steps {
        let best = pool.iter().map(|&v| score(v)).max().unwrap();
        pool.retain(|&v| score(v) == best);
        if pool.len() == 1 {
            return (pool[0], why);
        }
    }
    let j = cx.below(place(f.round, m.0, m.1, WISE, k), pool.len());
    (pool[j], Tiebreak::Random)
}

/// Whether `m`'s attacks on `v` pass armor (MC-51).
fn pierces(f: &Fight, m: Who, v: Who) -> bool {
    f.trait_vs(m, v, |d| matches!(d, Do::IgnoresArmor | Do::Magical))
}

impl Fight {
    /// Whether `m` holds a standing trait `p` picks that reaches `v` (its `against`, if any,
    /// names what `v` is; MC-51).
    fn trait_vs(&self, m: Who, v: Who, p: impl Fn(&Do) -> bool) -> bool {
        self.get(m).clauses().any(|(c, _)| {
            c.when == When::Always && p(&c.effect) && c.against.is_none_or(|k| self.get(v).is(k))
        })
    }

    /// Whether `m`'s damage to `v` is magical (MC-51).
    fn magical(&self, m: Who, v: Who) -> bool {
        self.trait_vs(m, v, |d| *d == Do::Magical)
    }
}

/// MC-15: whether `m` estimates its group can kill `v` this round. An attack that kills what
/// it damages (Dragon Slayer, MC-45) kills `v` when it gets past `v`'s armor.
fn can_kill(f: &Fight, m: Who, v: Who, r: &Rules) -> bool {
    let per = |w: Who| -> i64 {
        let x = f.get(w);
        match x.stats.attack_in(f.round, r) {
            Some(a) => f.damage_to(w, a, r, Some(v)) as i64 * x.remaining as i64,
            None => 0,
        }
    };
    let t = f.get(v);
    let armor = if pierces(f, m, v) { 0 } else { t.armor } as i64;
    let slays = f.get(m).clauses().any(|(c, _)| {
        c.when == When::Damages
            && c.effect == Do::Kill
            && c.to == To::Other
            && c.against.is_none_or(|k| t.is(k))
    });
    if slays
        && let Some(a) = f.get(m).stats.attack_in(f.round, r)
        && f.damage_to(m, a, r, Some(v)) as i64 > armor
    {
        return true;
    }
    let mut total = per(m);
    if r.estimate == Estimate::Group {
        for i in 0..f.side[m.0].len() {
            let w = (m.0, i);
            if w != m && f.get(w).alive && f.get(w).victim == Some(v) {
                total += per(w);
            }
        }
    }
    total >= t.hp as i64 + armor
}

/// R3 / R4 (MC-13): side `s` attacks, minion by minion.
fn side_attacks(f: &mut Fight, s: usize, cx: &Cx, o: &mut Outcome, hook: &mut impl Hook) {
    let r = cx.r;
    for i in 0..f.side[s].len() {
        let m = (s, i);
        if !f.get(m).alive || f.get(m).remaining == 0 {
            continue;
        }
        if !f.standing(1 - s) {
            return;
        }
        if let Some(v) = f.get(m).victim
            && !f.get(v).alive
        {
            f.get_mut(m).victim = None;
        }
        let shooter = f.get(m).stats.shooter();
        if shooter && r.wise_per == WisePer::Attack && f.get(m).victim.is_some() {
            f.get_mut(m).victim = None;
        }
        if f.get(m).victim.is_none() {
            if let Some(d) = compeller(f, 1 - s) {
                // Compulsion II (MC-48).
                f.get_mut(m).victim = Some(d);
                hook.compelled(m, d);
            } else if shooter {
                let made = f.attacks(m).saturating_sub(f.get(m).remaining);
                choose_wisely(f, m, 1 + made as u64, cx, hook);
            } else if let Some(j) = (0..f.side[1 - s].len())
                .find(|&j| f.side[1 - s][j].alive && f.side[1 - s][j].victim == Some(m))
            {
                f.get_mut(m).victim = Some((1 - s, j));
                hook.retaliates(m, (1 - s, j));
            }
        }
        let Some(v) = f.get(m).victim else {
            hook.forfeits(m, f.get(m).remaining);
            f.get_mut(m).remaining = 0;
            continue;
        };
        attack(f, m, v, false, cx, o, hook);
        let mut k = 0u64;
        while f.get(m).alive && f.get(m).remaining > 0 {
            let enemies = f.living(1 - s);
            if enemies.is_empty() {
                break;
            }
            let v = enemies[cx.below(place(f.round, s, i, MULTI, k), enemies.len())];
            k += 1;
            f.get_mut(m).victim = Some(v);
            attack(f, m, v, true, cx, o, hook);
        }
    }
}

/// The level `m`'s attacks count as in A1: its own, or a level its effects set (MC-51).
fn attack_level(f: &Fight, m: Who, r: &Rules) -> i32 {
    f.get(m)
        .clauses()
        .filter_map(|(c, _)| match c.effect {
            Do::AttackLevel(l) if c.when == When::Always => Some(l),
            _ => None,
        })
        .max()
        .unwrap_or_else(|| f.level(m, r))
}

/// The living groupmate of `v` that takes hits on `v` (MC-49), if any.
fn redirector(f: &Fight, v: Who) -> Option<Who> {
    first_holding(f, v.0, &Do::Redirect, Some(v))
}

/// Damage `w` takes from `attacker`'s hit after its `taken` and `block` clauses at `when`
/// (MC-44); magical damage passes them.
fn taken(
    f: &Fight,
    w: Who,
    (attacker, a): (Who, Attack),
    when: When,
    mut dmg: i32,
    magical: bool,
    hook: &mut impl Hook,
) -> i32 {
    if magical {
        return dmg;
    }
    for (c, n) in f.get(w).clauses() {
        if !applies(f, c, when, Some(attacker), Some(a)) {
            continue;
        }
        let before = dmg;
        match c.effect {
            Do::Taken(x) => dmg = dmg.saturating_add(x.saturating_mul(n)).max(0),
            Do::Block => dmg = 0,
            _ => continue,
        }
        hook.effect(
            w,
            attacker,
            &format!("{}: damage taken {before} -> {dmg}", c.source),
            f,
        );
    }
    dmg
}

/// Whether clause `c` fires at `when` with `other` the other party and `a` the attack type.
/// When `against` picks the targets instead, it is checked on them (MC-55).
fn applies(f: &Fight, c: &Clause, when: When, other: Option<Who>, a: Option<Attack>) -> bool {
    c.when == when
        && c.round.is_none_or(|g| g == f.round)
        && c.attack.is_none_or(|x| a == Some(x))
        && c.against
            .is_none_or(|k| picks_targets(c) || other.is_some_and(|o| f.get(o).is(k)))
}

/// Whether `c`'s `against` picks whom it reaches rather than testing the other party (MC-55):
/// on a clause reaching groupmates, enemies or a random enemy, and at the points of the
/// pipeline without an attacker, victim or killer.
fn picks_targets(c: &Clause) -> bool {
    matches!(c.to, To::Groupmates | To::Enemies | To::RandomEnemy)
        || matches!(
            c.when,
            When::StartOfCombat | When::StartOfRound | When::EndOfCombat
        )
}

/// Every clause of `holder` that fires at `when` (MC-41), in the order written; `taken` and
/// `block` are the takes-damage pipeline's own.
#[allow(clippy::too_many_arguments)]
fn fire(
    f: &mut Fight,
    holder: Who,
    when: When,
    other: Option<Who>,
    a: Option<Attack>,
    cx: &Cx,
    o: &mut Outcome,
    hook: &mut impl Hook,
) {
    let due: Vec<(Clause, i32)> = f
        .get(holder)
        .clauses()
        .filter(|(c, _)| applies(f, c, when, other, a))
        .filter(|(c, _)| !matches!(c.effect, Do::Taken(_) | Do::Block))
        .map(|(c, n)| (c.clone(), n))
        .collect();
    for (c, n) in due {
        act(f, holder, &c, n, other, cx, o, hook);
    }
}

/// `when` clauses of every minion in the combat, in precedence order (C1, R1, C4; and each
/// death, MC-56, with the dead as `other`).
fn every(
    f: &mut Fight,
    when: When,
    other: Option<Who>,
    cx: &Cx,
    o: &mut Outcome,
    hook: &mut impl Hook,
) {
    for s in [f.first, 1 - f.first] {
        for i in 0..f.side[s].len() {
            if f.side[s][i].alive {
                fire(f, (s, i), when, other, None, cx, o, hook);
            }
        }
    }
}

/// One clause acting, `n` times (its stacks), on its targets (MC-43..MC-47).
#[allow(clippy::too_many_arguments)]
fn act(
    f: &mut Fight,
    holder: Who,
    c: &Clause,
    n: i32,
    other: Option<Who>,
    cx: &Cx,
    o: &mut Outcome,
    hook: &mut impl Hook,
) {
    let s = holder.0;
    // MC-55: `against` may pick whom the clause reaches.
    let such = |w: &Who| !picks_targets(c) || c.against.is_none_or(|k| f.get(*w).is(k));
    let targets: Vec<Who> = match c.to {
        To::Me => vec![holder].into_iter().filter(such).collect(),
        To::Other => other.into_iter().collect(),
        To::Groupmates => f
            .living(s)
            .into_iter()
            .filter(|&w| w != holder)
            .filter(such)
            .collect(),
        To::Enemies => f.living(1 - s).into_iter().filter(such).collect(),
        To::RandomEnemy => {
            let e: Vec<Who> = f.living(1 - s).into_iter().filter(such).collect();
            if e.is_empty() {
                Vec::new()
            } else {
                let k = f.draws;
                f.draws += 1;
                vec![e[cx.below(place(f.round, s, holder.1, EFFECT, k), e.len())]]
            }
        }
    };
    let blame = |t: Who| (t != holder).then_some(holder);
    for t in targets {
        if !f.get(t).alive {
            continue;
        }
        let what = match &c.effect {
            Do::Stats(d) => {
                f.get_mut(t).gained.add(d, n);
                let mut x = Delta::default();
                x.add(d, n);
                x.words()
            }
            Do::Damage(x) => {
                let x = x.saturating_mul(n);
                let dealt = x.min(f.get(t).hp);
                f.get_mut(t).hp -= dealt;
                format!("{dealt} magical damage, {} HP left", f.get(t).hp)
            }
            Do::Kill => "killed".to_string(),
            Do::MaxHp(x) => {
                let x = x.saturating_mul(n);
                let w = f.get_mut(t);
                w.change_max_hp(x);
                format!("{x:+} max HP, {} / {} HP", w.hp, w.stats.max_hp)
            }
            Do::Heal { amount, grows } => {
                let x = amount.saturating_mul(n);
                let w = f.get_mut(t);
                if *grows && w.hp == w.stats.max_hp {
                    w.change_max_hp(x);
                    format!("+{x} max HP, {} HP", w.hp)
                } else {
                    let healed = x.min(w.stats.max_hp - w.hp).max(0);
                    w.hp += healed;
                    format!("heals {healed}, {} HP", w.hp)
                }
            }
            Do::Withdraw => {
                let w = f.get_mut(t);
                w.alive = false;
                w.withdrawn = true;
                w.victim = None;
                f.forget(t);
                "withdraws from the combat".to_string()
            }
            Do::Give(st) => {
                let until = st.rounds.map_or(u32::MAX, |g| f.round.saturating_add(g));
                let w = f.get_mut(t);
                let k = match w.stacks.iter().position(|(x, _, _)| x.name == st.name) {
                    Some(k) => k,
                    None => {
                        w.stacks.push(((**st).clone(), 0, 0));
                        w.stacks.len() - 1
                    }
                };
                w.stacks[k].1 = w.stacks[k].1.saturating_add(n as u32);
                w.stacks[k].2 = w.stacks[k].2.max(until);
                format!("{}, {} stack(s)", st.name, w.stacks[k].1)
            }
            _ => continue,
        };
        hook.effect(holder, t, &format!("{}: {what}", c.source), f);
        let dead = match &c.effect {
            Do::Damage(_) | Do::MaxHp(_) => f.get(t).hp == 0,
            Do::Kill => true,
            Do::Give(st) => st.kills_at.is_some_and(|k| {
                f.get(t)
                    .stacks
                    .iter()
                    .any(|(x, m, _)| x.name == st.name && *m >= k)
            }),
            _ => false,
        };
        if dead {
            bury(f, t, blame(t), cx, o, hook);
        }
    }
}

impl Fight {
    /// Whoever aimed at `w` goes idle.
    fn forget(&mut self, w: Who) {
        for s in 0..2 {
            for x in self.side[s].iter_mut() {
                if x.victim == Some(w) {
                    x.victim = None;
                }
            }
        }
    }
}

/// The minion death pipeline: `w` is buried (A7, MC-20), `by` to blame if anyone; its `dies`
/// clauses fire.
fn bury(f: &mut Fight, w: Who, by: Option<Who>, cx: &Cx, o: &mut Outcome, hook: &mut impl Hook) {
    if !f.get(w).alive {
        return;
    }
    let t = f.get_mut(w);
    t.alive = false;
    t.victim = None;
    if let Some(b) = by {
        o.kills[b.0] += 1;
    }
    f.forget(w);
    hook.died(w, by);
    fire(f, w, When::Dies, by, None, cx, o, hook);
    // MC-56: every other minion still in the combat hears it, in precedence order.
    if f.hearing {
        every(f, When::AMinionDies, Some(w), cx, o, hook);
    }
}

/// One attack, A1..A8 (MC-17..MC-21, effects MC-41..MC-51).
fn attack(
    f: &mut Fight,
    m: Who,
    v: Who,
    random: bool,
    cx: &Cx,
    o: &mut Outcome,
    hook: &mut impl Hook,
) {
    let r = cx.r;
    let a = f
        .get(m)
        .stats
        .attack_in(f.round, r)
        .expect("only minions with an attack this round attack");
    // A1: the hit check.
    let level = attack_level(f, m, r);
    let their = f.level(v, r);
    let me = f.get_mut(m);
    me.remaining -= 1;
    let misses = me.misses;
    let reach = (level as i64).saturating_add(misses as i64);
    o.attacks[m.0] += 1;
    let mut b = Blow {
        attack: a,
        hit: false,
        misses,
        damage: 0,
        soaked: 0,
        dealt: 0,
        result: None,
        random,
        levels: (level, their),
        taker: v,
        magical: false,
        healed: 0,
    };
    if their as i64 > reach {
        let me = f.get_mut(m);
        me.misses = me.misses.saturating_add(1);
        o.misses[m.0] += 1;
        hook.blow(m, v, &b, f);
        return;
    }
    b.hit = true;
    hook.hit_begins(m, v);
    f.get_mut(m).misses = 0;
    o.hits[m.0] += 1;
    // A2: damage, floored at 0.
    b.damage = f.damage_to(m, a, r, Some(v));
    // A3: the takes-damage pipeline, on whoever takes the hit (MC-49).
    let t = redirector(f, v).unwrap_or(v);
    b.taker = t;
    b.magical = t != v || f.magical(m, v);
    if t != v {
        hook.effect(t, v, "takes the hit as magical damage (MC-49)", f);
    }
    // D1: is-hit effects, before armor.
    let mut dmg = taken(f, t, (m, a), When::IsHit, b.damage, b.magical, hook);
    fire(f, t, When::IsHit, Some(m), Some(a), cx, o, hook);
    // D2: current armor soaks point for point, unless the damage passes armor.
    if !(b.magical || pierces(f, m, v)) {
        let w = f.get_mut(t);
        b.soaked = dmg.min(w.armor);
        w.armor -= b.soaked;
        dmg -= b.soaked;
    }
    // D3: after-armor effects; the rest, capped at current HP.
    dmg = taken(f, t, (m, a), When::AfterArmor, dmg, b.magical, hook);
    fire(f, t, When::AfterArmor, Some(m), Some(a), cx, o, hook);
    let heals = f.get(m).has(|d| *d == Do::HealsInstead);
    let w = f.get_mut(t);
    b.result = Some(if dmg == 0 || !w.alive {
        Result::Bounced
    } else if heals {
        b.healed = dmg.min(w.stats.max_hp - w.hp).max(0);
        w.hp += b.healed;
        Result::Bounced
    } else {
        b.dealt = dmg.min(w.hp);
        w.hp -= b.dealt;
        if w.hp == 0 {
            Result::Killed
        } else {
            Result::Damaged
        }
    });
    o.damage[m.0] += b.dealt as i64;
    o.soaked[t.0] += b.soaked as i64;
    hook.blow(m, v, &b, f);
    // A4, A5: hits and damages effects, skipped once either minion is buried.
    let buried = |f: &Fight| !f.get(m).alive || !f.get(t).alive;
    if !buried(f) {
        fire(f, m, When::Hits, Some(t), Some(a), cx, o, hook);
    }
    if !buried(f) && b.result != Some(Result::Bounced) {
        fire(f, m, When::Damages, Some(t), Some(a), cx, o, hook);
    }
    // A6: the victim already buried by an effect; A7: the result applied.
    if !f.get(t).alive || b.result != Some(Result::Killed) || f.get(t).hp > 0 {
        return;
    }
    bury(f, t, Some(m), cx, o, hook);
    // A8: kills effects and experience, if the attacker still lives.
    if !f.get(m).alive {
        return;
    }
    fire(f, m, When::Kills, Some(t), Some(a), cx, o, hook);
    let me = f.get_mut(m);
    if me.alive && me.stats.recruit && (!r.experience_once || !me.qualified) {
        me.qualified = true;
    }
}

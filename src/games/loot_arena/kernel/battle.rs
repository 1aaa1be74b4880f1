//! The optimised 2v2 battle (LA-2..LA-16): the four fielded champions in struct-of-arrays form,
//! exact fixed-point damage, dice read by place (LA-30). A worker keeps one [`Battle`] and plays
//! battle after battle in it; nothing is allocated once it exists.

// A seat (0..4) indexes several parallel columns at once: index loops say so plainly.
#![allow(clippy::needless_range_loop)]

use crate::games::loot_arena::draws::{
    self, ACTION, BASE, DEFENCE, EVADE, ITEM, Keyed, Log, Roller, Rolls,
};
use crate::games::loot_arena::policy::{Action, HealTarget, Set, View};
use crate::games::loot_arena::rules::{
    Class, CritStage, Dice, HealerEffects, Judge, MAX_ITEM_SLOTS, Rules, SCALE, TwoHealers,
};
use crate::games::loot_arena::state::{Catalogue, Fielded, NO_ITEM, Outcome, partner, side};

const SLOTS: usize = MAX_ITEM_SLOTS as usize;

/// One attack's numbers, gathered from the champions' columns (LA-8..LA-10, LA-13).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Strike {
    pub base: Dice,
    /// The strength factor of this attacker on this target (SCALE units, LA-5).
    pub f: i64,
    /// The attacker's items that add to attacks, by slot (`Dice::NONE` elsewhere), and whether
    /// each is used with affinity (LA-7).
    pub items: [Dice; SLOTS],
    pub affinity: [bool; SLOTS],
    /// A partner's Support this round (whole points, LA-12).
    pub support: i64,
    pub armor: Dice,
    pub evading: bool,
}

impl Strike {
    /// The factors the attack is taken at (LA-5, LA-7): the whole attack's (the strength
    /// factor, raised when affinity reaches the whole attack and an affinity item is carried)
    /// and an affinity item's.
    pub fn factors(&self, r: &Rules) -> (i64, i64) {
        let carries = self
            .items
            .iter()
            .zip(&self.affinity)
            .any(|(d, &a)| a && (d.n != 0 || d.plus != 0));
        let f = r.attack_factor(self.f, carries);
        if f != self.f {
            (f, f)
        } else {
            (f, r.item_factor(f, true))
        }
    }
}

/// What an attack came to.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Struck {
    pub damage: i64,
    pub crit: bool,
    pub base: i64,
    pub items: [i64; SLOTS],
    pub defence: i64,
    /// The damage before rounding and the crit, in SCALE units (never below 0).
    pub exact: i64,
    pub dice: u32,
}

/// Sums dice at their places, logging each.
#[inline(always)]
fn roll(d: Dice, src: &mut impl Roller, g: u32, c: usize, purpose: u64, log: &mut impl Log) -> i64 {
    if d.n == 1 {
        // Items and armor are one die in the default catalogue: no loop to mispredict.
        let v = src.die(draws::place(g, c, purpose, 0), d.sides);
        log.die(purpose, v);
        return d.plus as i64 + v as i64;
    }
    let mut s = d.plus as i64;
    for k in 0..d.n as u64 {
        let v = src.die(draws::place(g, c, purpose, k), d.sides);
        log.die(purpose, v);
        s += v as i64;
    }
    s
}

/// Kind bits that match every kind: a [`Strike`]'s items are its attack items already.
const EVERY_KIND: u8 = u8::MAX;

/// A carried item that rolls dice, in its slot (its dice place, LA-30): its kind's bit and
/// whether its champion uses it with affinity (LA-7).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Carried {
    slot: u8,
    kind: u8,
    affinity: bool,
    dice: Dice,
}

/// One attack by fielded champion `c` in round `g` (LA-8): base dice (crit read from them),
/// plus each item's dice (affinity applied), plus a partner's support, minus the target's
/// defence roll (doubled and topped up when it evades), times strength; rounded; a crit
/// multiplies (LA-10); never below `min_damage`.
#[inline]
pub fn strike(
    s: &Strike,
    r: &Rules,
    src: &mut impl Roller,
    g: u32,
    c: usize,
    log: &mut impl Log,
) -> Struck {
    let mut items = [Carried::default(); SLOTS];
    let mut n = 0;
    for (slot, d) in s.items.iter().enumerate() {
        if d.n != 0 || d.plus != 0 {
            items[n] = Carried {
                slot: slot as u8,
                kind: EVERY_KIND,
                affinity: s.affinity[slot],
                dice: *d,
            };
            n += 1;
        }
    }
    let (f, fa) = s.factors(r);
    let blow = Blow {
        base: s.base,
        f,
        fa,
        items: Items {
            list: &items,
            n,
            width: SLOTS,
            kinds: EVERY_KIND,
        },
        support: s.support,
        armor: s.armor,
        evading: s.evading,
    };
    resolve(&blow, r, src, g, c, log)
}

/// An attack's numbers as the kernel holds them: the strength factor `f` and the factor of an
/// item used with affinity `fa` (LA-5, LA-7), settled once per pair, and the attack items only.
struct Blow<'a> {
    base: Dice,
    f: i64,
    fa: i64,
    items: Items<'a>,
    support: i64,
    armor: Dice,
    evading: bool,
}

/// A champion's carried items (the first `n` of `list`) as one action uses them: those of
/// `kinds` (bits of [`crate::games::loot_arena::rules::Kind::bit`]). A silent battle reads the first `width` (the rules' item
/// slots, a constant) and keeps those of the champion's items of `kinds`, so how many items a
/// champion carries and of which kinds is no branch; the entries it drops (past `n`: any
/// item's) are read and thrown away.
#[derive(Clone, Copy)]
struct Items<'a> {
    list: &'a [Carried; SLOTS],
    n: usize,
    width: usize,
    kinds: u8,
}

impl Items<'_> {
    /// The items' dice, each times `f(item)` (SCALE units), summed; `each(slot, value, dice)`
    /// sees every item read (a dropped one at slot `SLOTS`, value 0, no dice).
    #[inline(always)]
    fn roll<R: Roller, L: Log>(
        &self,
        src: &mut R,
        g: u32,
        c: usize,
        log: &mut L,
        f: impl Fn(&Carried) -> i64,
        mut each: impl FnMut(usize, i64, u32),
    ) -> i64 {
        let mut sum = 0;
        if R::PURE && !L::KEEPS {
            let mut one = |k: usize| {
                let it = &self.list[k];
                let keep = (k < self.n) & (it.kind & self.kinds != 0);
                let v = roll(it.dice, src, g, c, ITEM + it.slot as u64, log) * keep as i64;
                each(
                    if keep { it.slot as usize } else { SLOTS },
                    v,
                    it.dice.n as u32 * keep as u32,
                );
                f(it) * v
            };
            if self.width == 2 {
                // The seed's two slots as a constant: the loop unrolls and its state stays
                // in registers.
                sum = one(0) + one(1);
            } else {
                for k in 0..self.width {
                    sum += one(k);
                }
            }
        } else {
            for it in &self.list[..self.n] {
                if it.kind & self.kinds == 0 {
                    continue;
                }
                let v = roll(it.dice, src, g, c, ITEM + it.slot as u64, log);
                each(it.slot as usize, v, it.dice.n as u32);
                sum += f(it) * v;
            }
        }
        sum
    }
}

/// [`strike`]'s arithmetic, shared by the kernel and every caller of `strike`.
#[inline(always)]
fn resolve<R: Roller, L: Log>(
    s: &Blow,
    r: &Rules,
    src: &mut R,
    g: u32,
    c: usize,
    log: &mut L,
) -> Struck {
    let mut out = Struck::default();
    let (mut any, mut every) = (false, true);
    let mut base = s.base.plus as i64;
    let n = s.base.n as u64;
    if R::PURE && !L::KEEPS && n <= 4 {
        // The seed's classes roll 1 to 4 base dice: read four and keep the first n, so the
        // class's count is no branch (a mispredicted loop exit costs more than the reads).
        for k in 0..4 {
            let v = src.die(draws::place(g, c, BASE, k), s.base.sides);
            let keep = k < n;
            let top = v == s.base.sides as u32;
            any |= top & keep;
            every &= top | !keep;
            base += v as i64 * keep as i64;
        }
    } else {
        for k in 0..n {
            let v = src.die(draws::place(g, c, BASE, k), s.base.sides);
            log.die(BASE, v);
            let top = v == s.base.sides as u32;
            any |= top;
            every &= top;
            base += v as i64;
        }
    }
    out.dice = s.base.n as u32;
    out.crit = match r.crit {
        crate::games::loot_arena::rules::Crit::AnyDie => any,
        crate::games::loot_arena::rules::Crit::EveryDie => every && s.base.n > 0,
        crate::games::loot_arena::rules::Crit::Never => false,
    };
    out.base = base;
    let base_mult = if out.crit && r.crit_stage == CritStage::Base {
        r.crit_multiplier as i64
    } else {
        1
    };
    let mut num = s.f * (base * base_mult + s.support);
    let mut items = [0i64; SLOTS + 1];
    let mut dice = 0;
    num += s.items.roll(
        src,
        g,
        c,
        log,
        |it| if it.affinity { s.fa } else { s.f },
        |slot, v, n| {
            items[slot] = v;
            dice += n;
        },
    );
    out.items.copy_from_slice(&items[..SLOTS]);
    out.dice += dice;
    let mut def = roll(s.armor, src, g, c, DEFENCE, log);
    out.dice += s.armor.n as u32;
    if s.evading {
        def = def * r.evade_factor as i64 + roll(r.evade_dice, src, g, c, EVADE, log);
        out.dice += r.evade_dice.n as u32;
    }
    out.defence = def;
    num = (num - s.f * def).max(0);
    out.exact = num;
    if out.crit && r.crit_stage == CritStage::Final {
        num *= r.crit_multiplier as i64;
    }
    out.damage = r.round(num).max(r.min_damage as i64);
    out
}

/// What a battle tells an observer (narration, traces). Every method defaults to nothing, and
/// with `ON = false` the kernel builds no log at all.
pub trait Hook {
    const ON: bool = false;
    fn set(&mut self, _set: u32, _sets: &[Set; 4], _alive: &[bool; 4]) {}
    fn round(&mut self, _g: u32, _strong: &[[bool; 4]; 4], _health: &[i32; 4]) {}
    fn support(&mut self, _c: usize, _to: usize, _amount: i64, _rolls: &Rolls) {}
    fn evade(&mut self, _c: usize) {}
    fn attack(
        &mut self,
        _c: usize,
        _t: usize,
        _pref: &[Class; 4],
        _s: &Strike,
        _out: &Struck,
        _rolls: &Rolls,
    ) {
    }
    fn heal(&mut self, _c: usize, _t: usize, _amount: i64, _support: i64, _rolls: &Rolls) {}
    fn round_end(&mut self, _g: u32, _dmg: &[i64; 4], _heal: &[i64; 4], _health: &[i32; 4]) {}
}

/// Observes nothing.
pub struct Silent;
impl Hook for Silent {}

/// Strengths as the fight stands (LA-3..LA-6): `strong[a][b]` for champions on opposite sides.
#[inline]
pub fn strengths(r: &Rules, class: &[Class; 4], present: &[bool; 4]) -> [[bool; 4]; 4] {
    let healer = |c: usize| present[c] && class[c] == Class::Healer;
    let healers = [
        healer(0) as u32 + healer(1) as u32,
        healer(2) as u32 + healer(3) as u32,
    ];
    let cancel = match r.two_healers {
        TwoHealers::Any => healers[0] + healers[1] >= 2,
        TwoHealers::Opposing => healers[0] > 0 && healers[1] > 0,
        TwoHealers::Never => false,
    };
    let active = [healers[0] > 0 && !cancel, healers[1] > 0 && !cancel];
    let mut strong = [[false; 4]; 4];
    for a in 0..4 {
        for b in [2 * (1 - side(a)), 2 * (1 - side(a)) + 1] {
            strong[a][b] = r.beats[class[a] as usize][class[b] as usize];
        }
    }
    // LA-4: a Healer makes its partner strong against the other fighter types.
    for s in 0..2 {
        if !active[s] {
            continue;
        }
        for p in [2 * s, 2 * s + 1] {
            if !healer(partner(p)) {
                continue;
            }
            for b in [2 * (1 - s), 2 * (1 - s) + 1] {
                if class[b] != Class::Healer && class[b] != class[p] {
                    strong[p][b] = true;
                }
            }
        }
    }
    // LA-5: and negates the opposing team's strengths against its side.
    for s in 0..2 {
        if active[s] {
            for o in [2 * (1 - s), 2 * (1 - s) + 1] {
                strong[o][2 * s] = false;
                strong[o][2 * s + 1] = false;
            }
        }
    }
    strong
}

/// An action's value, its dice logged into `self.rolls` when the hook is on and kept nowhere
/// when it is off (`()`: no log is built). A macro, not a function: the expression is
/// instantiated for each log type.
macro_rules! narrated {
    ($battle:ident, $hook:ty, $log:ident => $e:expr) => {
        if <$hook as Hook>::ON {
            let mut rolls = Rolls::default();
            let v = {
                let $log = &mut rolls;
                $e
            };
            $battle.rolls = rolls;
            v
        } else {
            let $log = &mut ();
            $e
        }
    };
}

/// The kernel: the fielded champions' columns and the round's scratch.
pub struct Battle {
    class: [Class; 4],
    health: [i32; 4],
    max: [i32; 4],
    alive: [bool; 4],
    base: [Dice; 4],
    /// The carried items that roll dice, packed (`carried_n` long).
    carried: [[Carried; SLOTS]; 4],
    carried_n: [u8; 4],
    can_heal: [bool; 4],
    can_support: [bool; 4],
    armor: [Dice; 4],
    set: [Set; 4],
    strong: [[bool; 4]; 4],
    /// The strength factor of each attacker on each target, and of an item it uses with
    /// affinity (LA-5, LA-7), settled when the strengths are.
    factor: [[i64; 4]; 4],
    factor_aff: [[i64; 4]; 4],
    /// Whether affinity raises each champion's whole attack (LA-7's other reading, and an
    /// affinity attack item carried).
    whole: [bool; 4],
    /// The rules' factors by (deals, takes) as `2 * deals + takes`, read once per battle.
    by_strength: [i64; 4],
    by_strength_aff: [i64; 4],
    dmg: [i64; 4],
    heal: [i64; 4],
    support: [i64; 4],
    evading: [bool; 4],
    /// The dice of the action being observed (written only when a hook is on).
    rolls: Rolls,
}

impl Default for Battle {
    fn default() -> Battle {
        Battle::new()
    }
}

impl Battle {
    pub fn new() -> Battle {
        Battle {
            class: [Class::Gladiator; 4],
            health: [0; 4],
            max: [0; 4],
            alive: [false; 4],
            base: [Dice::NONE; 4],
            carried: [[Carried::default(); SLOTS]; 4],
            carried_n: [0; 4],
            can_heal: [false; 4],
            can_support: [false; 4],
            armor: [Dice::NONE; 4],
            set: [Set::EMPTY; 4],
            strong: [[false; 4]; 4],
            whole: [false; 4],
            factor: [[0; 4]; 4],
            factor_aff: [[0; 4]; 4],
            by_strength: [0; 4],
            by_strength_aff: [0; 4],
            dmg: [0; 4],
            heal: [0; 4],
            support: [0; 4],
            evading: [false; 4],
            rolls: Rolls::default(),
        }
    }

    #[inline]
    fn load(&mut self, f: &Fielded, cat: &Catalogue, r: &Rules) {
        for i in 0..4 {
            self.by_strength[i] = r.strength(i & 2 != 0, i & 1 != 0);
            self.by_strength_aff[i] = r.item_factor(self.by_strength[i], true);
        }
        for (c, l) in f.iter().enumerate() {
            self.class[c] = l.class;
            self.health[c] = l.health;
            self.max[c] = l.max;
            self.alive[c] = l.health > 0;
            let cr = r.class(l.class);
            self.base[c] = cr.dice;
            self.can_heal[c] = cr.can_heal;
            self.can_support[c] = cr.can_support;
            let mut n = 0;
            for s in 0..(r.item_slots as usize).min(SLOTS) {
                let Some(it) = cat.get(l.items[s]) else {
                    continue;
                };
                let bit = it.kind.bit();
                // Written always and kept by count: an empty item is no branch.
                self.carried[c][n] = Carried {
                    slot: s as u8,
                    kind: bit,
                    affinity: cr.affinity & bit != 0,
                    dice: it.dice,
                };
                n += (it.dice.n != 0 || it.dice.plus != 0) as usize;
            }
            self.carried_n[c] = n as u8;
            self.whole[c] = r.attack_factor(SCALE, true) != SCALE
                && self.carried[c][..n]
                    .iter()
                    .any(|it| it.affinity && it.kind & r.attack_items != 0);
            self.armor[c] = if l.armor == NO_ITEM {
                Dice::NONE
            } else {
                cat.get(l.armor).map_or(Dice::NONE, |i| i.dice)
            };
        }
    }

    #[inline]
    fn present(&self, f: &Fielded, r: &Rules) -> [bool; 4] {
        match r.healer_effects {
            HealerEffects::WhileAlive => self.alive,
            HealerEffects::WholeBattle => [0, 1, 2, 3].map(|c| f[c].health > 0),
        }
    }

    #[inline]
    fn settle_strengths(&mut self, f: &Fielded, r: &Rules) {
        self.strong = strengths(r, &self.class, &self.present(f, r));
        // Only opponents attack each other.
        for a in 0..4 {
            for b in [2 * (1 - side(a)), 2 * (1 - side(a)) + 1] {
                let i = 2 * self.strong[a][b] as usize + self.strong[b][a] as usize;
                if self.whole[a] {
                    let w = r.attack_factor(self.by_strength[i], true);
                    (self.factor[a][b], self.factor_aff[a][b]) = (w, w);
                } else {
                    self.factor[a][b] = self.by_strength[i];
                    self.factor_aff[a][b] = self.by_strength_aff[i];
                }
            }
        }
    }

    #[inline]
    fn view(&self, c: usize, r: &Rules) -> View {
        let mut strong_against = 0u8;
        for t in [2 * (1 - side(c)), 2 * (1 - side(c)) + 1] {
            strong_against |= ((self.alive[t] & self.strong[c][t]) as u8) << self.class[t] as u8;
        }
        let cr = r.class(self.class[c]);
        View {
            class: self.class[c],
            strong_against,
            can_heal: cr.can_heal,
            can_support: cr.can_support,
            rounds: r.rounds_per_set,
        }
    }

    /// The dice of champion c's items of `kinds` (affinity applied), in SCALE units, and how
    /// many dice they are.
    #[inline]
    fn boost(
        &self,
        c: usize,
        kinds: u8,
        r: &Rules,
        key: u64,
        g: u32,
        log: &mut impl Log,
    ) -> (i64, u32) {
        let mut dice = 0;
        let v = self.items(c, kinds, r).roll(
            &mut Keyed(key),
            g,
            c,
            log,
            |it| if it.affinity { r.affinity } else { SCALE },
            |_, _, n| dice += n,
        );
        (v, dice)
    }

    /// Champion c's items of `kinds`.
    #[inline(always)]
    fn items(&self, c: usize, kinds: u8, r: &Rules) -> Items<'_> {
        Items {
            list: &self.carried[c],
            n: self.carried_n[c] as usize,
            width: (r.item_slots as usize).min(SLOTS),
            kinds,
        }
    }

    /// Champion c's attack on t as [`strike`] reads it (what a hook is shown).
    fn strike_of(&self, c: usize, t: usize, r: &Rules) -> Strike {
        let mut items = [Dice::NONE; SLOTS];
        let mut affinity = [false; SLOTS];
        for it in &self.carried[c][..self.carried_n[c] as usize] {
            if it.kind & r.attack_items == 0 {
                continue;
            }
            items[it.slot as usize] = it.dice;
            affinity[it.slot as usize] = it.affinity;
        }
        Strike {
            base: self.base[c],
            // The strength factor alone: [`Strike::factors`] raises it as the attack was.
            f: self.by_strength[2 * self.strong[c][t] as usize + self.strong[t][c] as usize],
            items,
            affinity,
            support: self.support[c],
            armor: self.armor[t],
            evading: self.evading[t],
        }
    }

    /// The opponent an attack with this preference list hits (LA-8): the standing opponent
    /// whose class comes first in the list (the first seat on a tie or when neither class is
    /// listed). Written without branches: which opponent is hit is the battle's least
    /// predictable choice.
    #[inline]
    fn target(&self, c: usize, pref: &[Class; 4]) -> usize {
        let o = 2 * (1 - side(c));
        let mut rank = [4u8; 4];
        for (i, want) in pref.iter().enumerate().rev() {
            rank[*want as usize] = i as u8;
        }
        let second = rank[self.class[o + 1] as usize] < rank[self.class[o] as usize];
        let first = o + second as usize;
        let other = first ^ 1;
        // Both fallen happens only when a side is fielded with none standing: then the
        // second seat, as the list's fallback has it.
        let none = o + 1;
        let t = if self.alive[other] { other } else { none };
        if self.alive[first] { first } else { t }
    }

    /// Whom a Heal of champion c aims at (LA-11).
    #[inline]
    fn heal_target(&self, c: usize, t: HealTarget) -> usize {
        let p = partner(c);
        match t {
            HealTarget::Own => c,
            HealTarget::Partner if self.alive[p] => p,
            HealTarget::Partner => c,
            HealTarget::Weakest => {
                let weaker = (self.health[p] as i64) * (self.max[c] as i64)
                    < (self.health[c] as i64) * (self.max[p] as i64);
                if self.alive[p] && weaker { p } else { c }
            }
        }
    }

    /// Plays one battle (LA-2..LA-16) from the fielded champions; `seed` is the battle's seed.
    pub fn play<H: Hook>(
        &mut self,
        f: &Fielded,
        cat: &Catalogue,
        r: &Rules,
        seed: u64,
        hook: &mut H,
    ) -> Outcome {
        let key = draws::key(seed);
        self.load(f, cat, r);
        let mut o = Outcome {
            start: self.health,
            ..Outcome::default()
        };
        self.settle_strengths(f, r);
        let mut g = 0u32;
        'sets: for set in 0..r.sets {
            for c in 0..4 {
                if self.alive[c] {
                    let v = self.view(c, r);
                    f[c].policy.write_into(&v, key, g, c, &mut self.set[c]);
                } else {
                    self.set[c] = Set::EMPTY;
                }
            }
            if H::ON {
                hook.set(set, &self.set, &self.alive);
            }
            // LA-11, LA-12: a class that may not Heal or Support attacks instead; settled once
            // a set, after the hook has seen the sets as written.
            for c in 0..4 {
                let (heal, support) = (self.can_heal[c], self.can_support[c]);
                let s = &mut self.set[c];
                for a in &mut s.actions[..s.len as usize] {
                    *a = match *a {
                        Action::Heal(_) if !heal => Action::Attack(Class::ALL),
                        Action::Support if !support => Action::Attack(Class::ALL),
                        a => a,
                    };
                }
            }
            for round in 0..r.rounds_per_set {
                if H::ON {
                    hook.round(g, &self.strong, &self.health);
                }
                self.dmg = [0; 4];
                self.heal = [0; 4];
                self.support = [0; 4];
                self.evading = [false; 4];
                let mut act = [Action::Evade; 4];
                // Supports and evasions first: they change this round's attacks and heals.
                for c in 0..4 {
                    if !self.alive[c] {
                        continue;
                    }
                    act[c] = self.set[c].get(round);
                    // An evasion is a store, not a branch, and only a Support branches here:
                    // the second pass below is the round's one many-way branch on what each
                    // champion does.
                    self.evading[c] = matches!(act[c], Action::Evade);
                    if H::ON && self.evading[c] {
                        hook.evade(c);
                    }
                    if matches!(act[c], Action::Support) {
                        let (v, dice) =
                            narrated!(self, H, log => self.support_amount(c, r, key, g, log));
                        o.dice += dice;
                        let p = partner(c);
                        if self.alive[p] {
                            self.support[p] += v;
                        }
                        if H::ON {
                            hook.support(c, p, v, &self.rolls);
                        }
                    }
                }
                for c in 0..4 {
                    if !self.alive[c] {
                        continue;
                    }
                    match act[c] {
                        Action::Attack(pref) => {
                            let t = self.target(c, &pref);
                            let blow = Blow {
                                base: self.base[c],
                                f: self.factor[c][t],
                                fa: self.factor_aff[c][t],
                                items: self.items(c, r.attack_items, r),
                                support: self.support[c],
                                armor: self.armor[t],
                                evading: self.evading[t],
                            };
                            let out = narrated!(self, H, log => resolve(&blow, r, &mut Keyed(key), g, c, log));
                            self.dmg[t] += out.damage;
                            o.dealt[c] = o.dealt[c].saturating_add(
                                crate::games::loot_arena::rules::saturate(out.damage),
                            );
                            o.taken[t] = o.taken[t].saturating_add(
                                crate::games::loot_arena::rules::saturate(out.damage),
                            );
                            o.attacks[c] += 1;
                            o.crits[c] += out.crit as u16;
                            o.dice += out.dice;
                            if H::ON {
                                let s = self.strike_of(c, t, r);
                                hook.attack(c, t, &pref, &s, &out, &self.rolls);
                            }
                        }
                        Action::Heal(target) => {
                            let t = self.heal_target(c, target);
                            let (v, dice) =
                                narrated!(self, H, log => self.heal_amount(c, r, key, g, log));
                            o.dice += dice;
                            self.heal[t] += v;
                            o.healed[c] = o.healed[c]
                                .saturating_add(crate::games::loot_arena::rules::saturate(v));
                            if H::ON {
                                hook.heal(c, t, v, self.support[c], &self.rolls);
                            }
                        }
                        _ => {}
                    }
                }
                // LA-15: health settles at the end of the round from the round's totals.
                // Strengths read who stands only through the Healers (LA-4..LA-6).
                let (mut fell, mut healer_fell) = (false, false);
                for c in 0..4 {
                    if !self.alive[c] {
                        continue;
                    }
                    let mut h = self.health[c] as i64 - self.dmg[c] + self.heal[c];
                    if !r.overheal {
                        h = h.min((self.max[c] as i64).max(self.health[c] as i64));
                    }
                    self.health[c] = h.clamp(i32::MIN as i64, i32::MAX as i64) as i32;
                    if h <= 0 {
                        self.alive[c] = false;
                        o.fell[c] = (g + 1) as u16;
                        fell = true;
                        healer_fell |= self.class[c] == Class::Healer;
                    }
                }
                g += 1;
                if H::ON {
                    hook.round_end(g - 1, &self.dmg, &self.heal, &self.health);
                }
                if fell {
                    if !(self.alive[0] || self.alive[1]) || !(self.alive[2] || self.alive[3]) {
                        break 'sets;
                    }
                    if healer_fell && r.healer_effects == HealerEffects::WhileAlive {
                        self.settle_strengths(f, r);
                    }
                }
            }
        }
        o.rounds = g;
        o.health = self.health;
        judge(&mut o, &self.alive, r);
        o
    }

    /// A Support's amount (LA-12) and the dice it rolled.
    #[inline]
    fn support_amount(
        &self,
        c: usize,
        r: &Rules,
        key: u64,
        g: u32,
        log: &mut impl Log,
    ) -> (i64, u32) {
        let own = roll(r.support_dice, &mut Keyed(key), g, c, ACTION, log);
        let (items, dice) = self.boost(c, r.support_items, r, key, g, log);
        let v = SCALE * own + items;
        (r.round(v.max(0)), r.support_dice.n as u32 + dice)
    }

    /// A Heal's amount (LA-11) and the dice it rolled.
    #[inline]
    fn heal_amount(&self, c: usize, r: &Rules, key: u64, g: u32, log: &mut impl Log) -> (i64, u32) {
        let own = roll(r.heal_dice, &mut Keyed(key), g, c, ACTION, log);
        let (items, dice) = self.boost(c, r.heal_items, r, key, g, log);
        let v = SCALE * (own + self.support[c]) + items;
        (r.round(v.max(0)), r.heal_dice.n as u32 + dice)
    }
}

/// Who won (LA-16): the side left standing; both fallen is a draw; both standing goes to the
/// judge.
#[inline]
pub fn judge(o: &mut Outcome, alive: &[bool; 4], r: &Rules) {
    let up = [alive[0] || alive[1], alive[2] || alive[3]];
    o.decisive = up[0] != up[1] || (!up[0] && !up[1]);
    o.winner = match (up[0], up[1]) {
        (true, false) => Some(0),
        (false, true) => Some(1),
        (false, false) => None,
        (true, true) => match r.judge {
            Judge::Draw => None,
            Judge::HealthShare => {
                let left = |s: usize| (o.health[2 * s].max(0) + o.health[2 * s + 1].max(0)) as i64;
                let start = |s: usize| (o.start[2 * s].max(0) + o.start[2 * s + 1].max(0)) as i64;
                let (a, b) = (left(0) * start(1), left(1) * start(0));
                match a.cmp(&b) {
                    std::cmp::Ordering::Greater => Some(0),
                    std::cmp::Ordering::Less => Some(1),
                    std::cmp::Ordering::Equal => None,
                }
            }
        },
    };
}

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
    Class, CritStage, Dice, HealerEffects, Judge, Kind, MAX_ITEM_SLOTS, Rules, SCALE, TwoHealers,
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
    let mut s = d.plus as i64;
    for k in 0..d.n as u64 {
        let v = src.die(draws::place(g, c, purpose, k), d.sides);
        log.die(purpose, v);
        s += v as i64;
    }
    s
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
    let mut out = Struck::default();
    let (mut any, mut every) = (false, true);
    let mut base = s.base.plus as i64;
    for k in 0..s.base.n as u64 {
        let v = src.die(draws::place(g, c, BASE, k), s.base.sides);
        log.die(BASE, v);
        let top = v == s.base.sides as u32;
        any |= top;
        every &= top;
        base += v as i64;
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
    let mut num = s.f * base * base_mult + s.f * s.support;
    for (slot, d) in s.items.iter().enumerate() {
        if d.n == 0 && d.plus == 0 {
            continue;
        }
        let v = roll(*d, src, g, c, ITEM + slot as u64, log);
        out.dice += d.n as u32;
        out.items[slot] = v;
        num += r.item_factor(s.f, s.affinity[slot]) * v;
    }
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
        for b in 0..4 {
            if side(a) != side(b) {
                strong[a][b] = r.beats[class[a] as usize][class[b] as usize];
            }
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

/// The kernel: the fielded champions' columns and the round's scratch.
pub struct Battle {
    class: [Class; 4],
    health: [i32; 4],
    max: [i32; 4],
    alive: [bool; 4],
    base: [Dice; 4],
    item: [[Dice; SLOTS]; 4],
    kind: [[Kind; SLOTS]; 4],
    armor: [Dice; 4],
    set: [Set; 4],
    strong: [[bool; 4]; 4],
    factor: [[i64; 4]; 4],
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
            item: [[Dice::NONE; SLOTS]; 4],
            kind: [[Kind::Defensive; SLOTS]; 4],
            armor: [Dice::NONE; 4],
            set: [Set::EMPTY; 4],
            strong: [[false; 4]; 4],
            factor: [[0; 4]; 4],
            dmg: [0; 4],
            heal: [0; 4],
            support: [0; 4],
            evading: [false; 4],
            rolls: Rolls::default(),
        }
    }

    #[inline]
    fn load(&mut self, f: &Fielded, cat: &Catalogue, r: &Rules) {
        for (c, l) in f.iter().enumerate() {
            self.class[c] = l.class;
            self.health[c] = l.health;
            self.max[c] = l.max;
            self.alive[c] = l.health > 0;
            self.base[c] = r.class(l.class).dice;
            for s in 0..SLOTS {
                let (d, k) = match cat.get(l.items[s]) {
                    Some(it) if s < r.item_slots as usize => (it.dice, it.kind),
                    _ => (Dice::NONE, Kind::Defensive),
                };
                self.item[c][s] = d;
                self.kind[c][s] = k;
            }
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
        for a in 0..4 {
            for b in 0..4 {
                self.factor[a][b] = r.strength(self.strong[a][b], self.strong[b][a]);
            }
        }
    }

    #[inline]
    fn view(&self, c: usize, r: &Rules) -> View {
        let mut strong_against = [false; 4];
        for t in [2 * (1 - side(c)), 2 * (1 - side(c)) + 1] {
            if self.alive[t] && self.strong[c][t] {
                strong_against[self.class[t] as usize] = true;
            }
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

    /// Item dice of kinds in `mask` (affinity applied), plus `dice`, in SCALE units.
    #[inline]
    fn boost(&self, c: usize, r: &Rules, key: u64, g: u32, mask: u8, log: &mut impl Log) -> i64 {
        let aff = r.class(self.class[c]).affinity;
        let mut v = 0;
        for s in 0..SLOTS {
            let d = self.item[c][s];
            let k = self.kind[c][s];
            if (d.n > 0 || d.plus != 0) && mask & k.bit() != 0 {
                let m = if aff & k.bit() != 0 {
                    r.affinity
                } else {
                    SCALE
                };
                v += m * roll(d, &mut Keyed(key), g, c, ITEM + s as u64, log);
            }
        }
        v
    }

    #[inline]
    fn strike_of(&self, c: usize, t: usize, r: &Rules) -> Strike {
        let aff = r.class(self.class[c]).affinity;
        let mut items = [Dice::NONE; SLOTS];
        let mut affinity = [false; SLOTS];
        for s in 0..SLOTS {
            let k = self.kind[c][s];
            if r.attack_items & k.bit() != 0 {
                items[s] = self.item[c][s];
                affinity[s] = aff & k.bit() != 0;
            }
        }
        Strike {
            base: self.base[c],
            f: self.factor[c][t],
            items,
            affinity,
            support: self.support[c],
            armor: self.armor[t],
            evading: self.evading[t],
        }
    }

    /// The opponent an attack with this preference list hits (LA-8).
    #[inline]
    fn target(&self, c: usize, pref: &[Class; 4]) -> usize {
        let o = 2 * (1 - side(c));
        for want in pref {
            for t in [o, o + 1] {
                if self.alive[t] && self.class[t] == *want {
                    return t;
                }
            }
        }
        if self.alive[o] { o } else { o + 1 }
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
                self.set[c] = if self.alive[c] {
                    f[c].policy.write(&self.view(c, r), key, g, c)
                } else {
                    Set::EMPTY
                };
            }
            if H::ON {
                hook.set(set, &self.set, &self.alive);
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
                    let cr = r.class(self.class[c]);
                    act[c] = match act[c] {
                        Action::Heal(_) if !cr.can_heal => Action::Attack(Class::ALL),
                        Action::Support if !cr.can_support => Action::Attack(Class::ALL),
                        a => a,
                    };
                    match act[c] {
                        Action::Support => {
                            let v = if H::ON {
                                let mut rolls = Rolls::default();
                                let v = self.support_amount(c, r, key, g, &mut rolls);
                                self.rolls = rolls;
                                v
                            } else {
                                self.support_amount(c, r, key, g, &mut ())
                            };
                            o.dice += r.support_dice.n as u32 + self.item_dice(c, r.support_items);
                            let p = partner(c);
                            if self.alive[p] {
                                self.support[p] += v;
                            }
                            if H::ON {
                                hook.support(c, p, v, &self.rolls);
                            }
                        }
                        Action::Evade => {
                            self.evading[c] = true;
                            if H::ON {
                                hook.evade(c);
                            }
                        }
                        _ => {}
                    }
                }
                for c in 0..4 {
                    if !self.alive[c] {
                        continue;
                    }
                    match act[c] {
                        Action::Attack(pref) => {
                            let t = self.target(c, &pref);
                            let s = self.strike_of(c, t, r);
                            let out = if H::ON {
                                self.rolls = Rolls::default();
                                strike(&s, r, &mut Keyed(key), g, c, &mut self.rolls)
                            } else {
                                strike(&s, r, &mut Keyed(key), g, c, &mut ())
                            };
                            self.dmg[t] += out.damage;
                            o.dealt[c] = o.dealt[c].saturating_add(out.damage as i32);
                            o.taken[t] = o.taken[t].saturating_add(out.damage as i32);
                            o.attacks[c] += 1;
                            o.crits[c] += out.crit as u16;
                            o.dice += out.dice;
                            if H::ON {
                                hook.attack(c, t, &pref, &s, &out, &self.rolls);
                            }
                        }
                        Action::Heal(target) => {
                            let t = self.heal_target(c, target);
                            let v = if H::ON {
                                let mut rolls = Rolls::default();
                                let v = self.heal_amount(c, r, key, g, &mut rolls);
                                self.rolls = rolls;
                                v
                            } else {
                                self.heal_amount(c, r, key, g, &mut ())
                            };
                            o.dice += r.heal_dice.n as u32 + self.item_dice(c, r.heal_items);
                            self.heal[t] += v;
                            o.healed[c] = o.healed[c].saturating_add(v as i32);
                            if H::ON {
                                hook.heal(c, t, v, self.support[c], &self.rolls);
                            }
                        }
                        _ => {}
                    }
                }
                // LA-15: health settles at the end of the round from the round's totals.
                let mut fell = false;
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
                    if r.healer_effects == HealerEffects::WhileAlive {
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

    #[inline]
    fn item_dice(&self, c: usize, mask: u8) -> u32 {
        (0..SLOTS)
            .filter(|&s| mask & self.kind[c][s].bit() != 0)
            .map(|s| self.item[c][s].n as u32)
            .sum()
    }

    #[inline]
    fn support_amount(&self, c: usize, r: &Rules, key: u64, g: u32, log: &mut impl Log) -> i64 {
        let v = SCALE * roll(r.support_dice, &mut Keyed(key), g, c, ACTION, log)
            + self.boost(c, r, key, g, r.support_items, log);
        r.round(v.max(0))
    }

    #[inline]
    fn heal_amount(&self, c: usize, r: &Rules, key: u64, g: u32, log: &mut impl Log) -> i64 {
        let v = SCALE * (roll(r.heal_dice, &mut Keyed(key), g, c, ACTION, log) + self.support[c])
            + self.boost(c, r, key, g, r.heal_items, log);
        r.round(v.max(0))
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

//! The same battle written plainly, as the rules read (LA-2..LA-16): a champion is a struct,
//! strengths are asked pair by pair, damage is a sum of rational terms. It reads its dice at the
//! same places (LA-30) and is the kernel's oracle (`tests/conformance`, `tests/loot_arena_*`).

use crate::games::loot_arena::draws::{self, ACTION, BASE, DEFENCE, EVADE, ITEM};
use crate::games::loot_arena::policy::{Action, HealTarget, Set, View};
use crate::games::loot_arena::rules::{
    Class, Crit, CritStage, Dice, HealerEffects, Kind, Rules, SCALE, TwoHealers,
};
use crate::games::loot_arena::state::{Catalogue, Fielded, Item, Outcome};

struct Champion {
    side: usize,
    class: Class,
    health: i64,
    max: i64,
    fielded_alive: bool,
    alive: bool,
    items: Vec<(usize, Item)>,
    armor: Option<Item>,
    set: Set,
}

fn total(d: Dice, key: u64, g: u32, c: usize, purpose: u64) -> (i64, Vec<u32>) {
    let rolls: Vec<u32> = (0..d.n as u64)
        .map(|k| draws::die(key, draws::place(g, c, purpose, k), d.sides))
        .collect();
    (
        rolls.iter().map(|&v| v as i64).sum::<i64>() + d.plus as i64,
        rolls,
    )
}

/// Whether the Healers' effects hold for `side` (LA-4..LA-6).
fn healer_effects(cs: &[Champion], r: &Rules, side: usize) -> bool {
    let in_fight = |c: &Champion| match r.healer_effects {
        HealerEffects::WhileAlive => c.alive,
        HealerEffects::WholeBattle => c.fielded_alive,
    };
    let count = |s: usize| {
        cs.iter()
            .filter(|c| c.side == s && c.class == Class::Healer && in_fight(c))
            .count()
    };
    let (mine, theirs) = (count(side), count(1 - side));
    if mine == 0 {
        return false;
    }
    match r.two_healers {
        TwoHealers::Any => mine + theirs < 2,
        TwoHealers::Opposing => theirs == 0,
        TwoHealers::Never => true,
    }
}

/// Is champion a strong against champion b (LA-3..LA-6)?
fn strong(cs: &[Champion], r: &Rules, a: usize, b: usize) -> bool {
    let (ca, cb) = (&cs[a], &cs[b]);
    if ca.side == cb.side || healer_effects(cs, r, cb.side) {
        return false;
    }
    if r.beats[ca.class as usize][cb.class as usize] {
        return true;
    }
    let partner = &cs[a ^ 1];
    healer_effects(cs, r, ca.side)
        && partner.class == Class::Healer
        && cb.class != Class::Healer
        && cb.class != ca.class
}

fn factor(cs: &[Champion], r: &Rules, a: usize, b: usize) -> i64 {
    let deals = if strong(cs, r, a, b) {
        r.strong_deals
    } else {
        SCALE
    };
    let takes = if strong(cs, r, b, a) {
        r.strong_takes
    } else {
        SCALE
    };
    crate::games::loot_arena::rules::compose(
        crate::games::loot_arena::rules::Stacking::Additive,
        deals,
        takes,
    )
}

/// Plays one battle plainly.
pub fn play(f: &Fielded, cat: &Catalogue, r: &Rules, seed: u64) -> Outcome {
    let key = draws::key(seed);
    let mut cs: Vec<Champion> = f
        .iter()
        .enumerate()
        .map(|(c, l)| Champion {
            side: c / 2,
            class: l.class,
            health: l.health as i64,
            max: l.max as i64,
            fielded_alive: l.health > 0,
            alive: l.health > 0,
            items: l
                .items
                .iter()
                .enumerate()
                .take(r.item_slots as usize)
                .filter_map(|(s, &i)| cat.get(i).map(|it| (s, it.clone())))
                .collect(),
            armor: cat.get(l.armor).cloned(),
            set: Set::EMPTY,
        })
        .collect();
    let mut o = Outcome::default();
    for (c, ch) in cs.iter().enumerate() {
        o.start[c] = ch.health as i32;
    }
    let mut g = 0u32;
    'battle: for _ in 0..r.sets {
        for c in 0..4 {
            if !cs[c].alive {
                cs[c].set = Set::EMPTY;
                continue;
            }
            let mut strong_against = 0u8;
            for t in 0..4 {
                if cs[t].side != cs[c].side && cs[t].alive && strong(&cs, r, c, t) {
                    strong_against |= 1 << cs[t].class as u8;
                }
            }
            let cr = r.class(cs[c].class);
            let view = View {
                class: cs[c].class,
                strong_against,
                can_heal: cr.can_heal,
                can_support: cr.can_support,
                rounds: r.rounds_per_set,
            };
            cs[c].set = f[c].policy.write(&view, key, g, c);
        }
        for round in 0..r.rounds_per_set {
            let mut actions = Vec::new();
            for ch in &cs {
                if !ch.alive {
                    actions.push(None);
                    continue;
                }
                let cr = r.class(ch.class);
                let a = match ch.set.get(round) {
                    Action::Heal(_) if !cr.can_heal => Action::Attack(Class::ALL),
                    Action::Support if !cr.can_support => Action::Attack(Class::ALL),
                    a => a,
                };
                actions.push(Some(a));
            }
            let evading: Vec<bool> = actions.iter().map(|a| *a == Some(Action::Evade)).collect();
            // LA-12: a Support adds its dice and support items to the partner's action.
            let mut support = [0i64; 4];
            for c in 0..4 {
                if actions[c] != Some(Action::Support) {
                    continue;
                }
                let (dice, _) = total(r.support_dice, key, g, c, ACTION);
                o.dice += r.support_dice.n as u32;
                let mut v = dice as i128 * SCALE as i128;
                for (s, it) in &cs[c].items {
                    if r.support_items & it.kind.bit() != 0 {
                        v += item_value(&cs[c], r, it, key, g, c, *s, SCALE, &mut o.dice);
                    }
                }
                if cs[c ^ 1].alive {
                    support[c ^ 1] += r.round(v.max(0) as i64);
                }
            }
            let mut damage = [0i64; 4];
            let mut healing = [0i64; 4];
            for c in 0..4 {
                match actions[c] {
                    Some(Action::Attack(pref)) => {
                        let t = pref
                            .iter()
                            .find_map(|want| {
                                (0..4).find(|&t| {
                                    cs[t].side != cs[c].side && cs[t].alive && cs[t].class == *want
                                })
                            })
                            .or_else(|| (0..4).find(|&t| cs[t].side != cs[c].side && cs[t].alive))
                            .expect("an opponent stands while the battle runs");
                        let d = attack(&cs, r, key, g, c, t, support[c], evading[t], &mut o);
                        damage[t] += d;
                        o.dealt[c] =
                            o.dealt[c].saturating_add(crate::games::loot_arena::rules::saturate(d));
                        o.taken[t] =
                            o.taken[t].saturating_add(crate::games::loot_arena::rules::saturate(d));
                        o.attacks[c] += 1;
                    }
                    Some(Action::Heal(target)) => {
                        let p = c ^ 1;
                        let t = match target {
                            HealTarget::Own => c,
                            HealTarget::Partner => {
                                if cs[p].alive {
                                    p
                                } else {
                                    c
                                }
                            }
                            HealTarget::Weakest => {
                                // The smaller share of max health; the Healer on a tie.
                                if cs[p].alive
                                    && cs[p].health * cs[c].max < cs[c].health * cs[p].max
                                {
                                    p
                                } else {
                                    c
                                }
                            }
                        };
                        let (d20, _) = total(r.heal_dice, key, g, c, ACTION);
                        o.dice += r.heal_dice.n as u32;
                        let mut v = (d20 + support[c]) as i128 * SCALE as i128;
                        for (s, it) in &cs[c].items {
                            if r.heal_items & it.kind.bit() != 0 {
                                v += item_value(&cs[c], r, it, key, g, c, *s, SCALE, &mut o.dice);
                            }
                        }
                        let v = r.round(v.max(0) as i64);
                        healing[t] += v;
                        o.healed[c] = o.healed[c]
                            .saturating_add(crate::games::loot_arena::rules::saturate(v));
                    }
                    _ => {}
                }
            }
            g += 1;
            let mut someone_fell = false;
            for c in 0..4 {
                let ch = &mut cs[c];
                if !ch.alive {
                    continue;
                }
                let mut h = ch.health - damage[c] + healing[c];
                if !r.overheal && h > ch.max.max(ch.health) {
                    h = ch.max.max(ch.health);
                }
                ch.health = h;
                if h <= 0 {
                    ch.alive = false;
                    o.fell[c] = g as u16;
                    someone_fell = true;
                }
            }
            let standing = |s: usize| cs.iter().any(|c| c.side == s && c.alive);
            if someone_fell && (!standing(0) || !standing(1)) {
                break 'battle;
            }
        }
    }
    o.rounds = g;
    let mut alive = [false; 4];
    for c in 0..4 {
        o.health[c] = cs[c].health as i32;
        alive[c] = cs[c].alive;
    }
    judge(&mut o, &alive, r);
    o
}

/// LA-16, plainly: the side left standing wins; both fallen draw; else the larger share of
/// starting health kept, compared as fractions.
fn judge(o: &mut Outcome, alive: &[bool; 4], r: &Rules) {
    let standing = [alive[0] || alive[1], alive[2] || alive[3]];
    o.decisive = !(standing[0] && standing[1]);
    o.winner = if !standing[0] && !standing[1] {
        None
    } else if !standing[1] {
        Some(0)
    } else if !standing[0] {
        Some(1)
    } else if r.judge == crate::games::loot_arena::rules::Judge::Draw {
        None
    } else {
        let kept = |s: usize| (o.health[2 * s].max(0) + o.health[2 * s + 1].max(0)) as i128;
        let start = |s: usize| (o.start[2 * s].max(0) + o.start[2 * s + 1].max(0)) as i128;
        let (a, b) = (kept(0) * start(1), kept(1) * start(0));
        if a > b {
            Some(0)
        } else if b > a {
            Some(1)
        } else {
            None
        }
    };
}

/// An item's dice times its multiplier: `base_factor`, raised by affinity (LA-7).
#[allow(clippy::too_many_arguments)]
fn item_value(
    ch: &Champion,
    r: &Rules,
    it: &Item,
    key: u64,
    g: u32,
    c: usize,
    slot: usize,
    base_factor: i64,
    dice: &mut u32,
) -> i128 {
    let (v, _) = total(it.dice, key, g, c, ITEM + slot as u64);
    *dice += it.dice.n as u32;
    let affinity = r.class(ch.class).affinity & it.kind.bit() != 0;
    v as i128 * r.item_factor(base_factor, affinity) as i128
}

/// One attack (LA-8..LA-10, LA-13), in the order the rules write it: base, items, defence,
/// strength, rounding, crit.
#[allow(clippy::too_many_arguments)]
fn attack(
    cs: &[Champion],
    r: &Rules,
    key: u64,
    g: u32,
    c: usize,
    t: usize,
    support: i64,
    evading: bool,
    o: &mut Outcome,
) -> i64 {
    let sides = r.class(cs[c].class).dice.sides;
    let (base, rolls) = total(r.class(cs[c].class).dice, key, g, c, BASE);
    o.dice += rolls.len() as u32;
    let crit = match r.crit {
        Crit::AnyDie => rolls.contains(&(sides as u32)),
        Crit::EveryDie => !rolls.is_empty() && rolls.iter().all(|&v| v == sides as u32),
        Crit::Never => false,
    };
    o.crits[c] += crit as u16;
    let base = if crit && r.crit_stage == CritStage::Base {
        base * r.crit_multiplier as i64
    } else {
        base
    };
    // LA-7's other reading: affinity raises the whole attack when an affinity item is carried.
    let carries = cs[c].items.iter().any(|(_, it)| {
        r.attack_items & it.kind.bit() != 0
            && it.kind != Kind::Defensive
            && r.class(cs[c].class).affinity & it.kind.bit() != 0
            && (it.dice.n != 0 || it.dice.plus != 0)
    });
    let strength = factor(cs, r, c, t);
    let f = r.attack_factor(strength, carries);
    // An affinity item's factor: raised on its own, or with the whole attack.
    let fa = if f != strength {
        f
    } else {
        r.item_factor(f, true)
    };
    let mut exact = (base + support) as i128 * f as i128;
    for (s, it) in &cs[c].items {
        if r.attack_items & it.kind.bit() != 0 && it.kind != Kind::Defensive {
            let (v, _) = total(it.dice, key, g, c, ITEM + *s as u64);
            o.dice += it.dice.n as u32;
            let affinity = r.class(cs[c].class).affinity & it.kind.bit() != 0;
            exact += v as i128 * if affinity { fa } else { f } as i128;
        }
    }
    let armor = cs[t].armor.as_ref().map_or(Dice::NONE, |a| a.dice);
    let (mut defence, _) = total(armor, key, g, c, DEFENCE);
    o.dice += armor.n as u32;
    if evading {
        let (extra, _) = total(r.evade_dice, key, g, c, EVADE);
        o.dice += r.evade_dice.n as u32;
        defence = defence * r.evade_factor as i64 + extra;
    }
    exact -= defence as i128 * f as i128;
    if exact < 0 {
        exact = 0;
    }
    if crit && r.crit_stage == CritStage::Final {
        exact *= r.crit_multiplier as i128;
    }
    r.round(exact as i64).max(r.min_damage as i64)
}

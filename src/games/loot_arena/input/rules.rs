//! Rules files (TOML): any number or reading of `rules::Rules`, the rest from the seed. The
//! shipped `experiments/loot-arena/rules.toml` writes every key with its default.
//!
//! ```toml
//! [champion.mage]
//! health = 90            # "what if Mages had 90 health"
//! crit = "every_die"     # the other crit reading (LA-10)
//! ```

use crate::error::Error;
use std::collections::BTreeMap;

use serde::Deserialize;

use crate::games::file_error::{FileCtx, FileError};
use crate::games::loot_arena::rules::{
    AffinityScope, Class, Crit, CritStage, Dice, HealerEffects, Judge, Kind, MAX_BAG,
    MAX_ITEM_SLOTS, MAX_LOOT_ACTIONS, MAX_ROUNDS_PER_SET, MAX_SETS, Merge, Ring, Rounding, Royale,
    Rules, Stacking, Twice, TwoHealers, Weight, frac,
};

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct File {
    #[serde(default)]
    champion: BTreeMap<String, ClassFile>,
    strengths: Option<Vec<String>>,
    strong_deals: Option<f64>,
    strong_takes: Option<f64>,
    strength_compose: Option<StackingFile>,
    affinity: Option<f64>,
    affinity_stacking: Option<StackingFile>,
    affinity_scope: Option<AffinityScopeFile>,
    crit: Option<CritFile>,
    crit_stage: Option<CritStageFile>,
    crit_multiplier: Option<u32>,
    rounding: Option<RoundingFile>,
    min_damage: Option<i32>,
    heal_dice: Option<String>,
    overheal: Option<bool>,
    support_dice: Option<String>,
    evade_factor: Option<u32>,
    evade_dice: Option<String>,
    two_healers: Option<TwoHealersFile>,
    healer_effects: Option<HealerEffectsFile>,
    rounds_per_set: Option<u32>,
    sets: Option<u32>,
    judge: Option<JudgeFile>,
    attack_items: Option<Vec<String>>,
    heal_items: Option<Vec<String>>,
    support_items: Option<Vec<String>>,
    item_slots: Option<u32>,
    carry_damage: Option<bool>,
    royale: Option<RoyaleFile>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct RoyaleFile {
    side: Option<u32>,
    shrink: Option<Vec<[u32; 2]>>,
    merge: Option<MergeFile>,
    loot_actions: Option<u32>,
    odds: Option<OddsFile>,
    kinds: Option<KindsFile>,
    pool: Option<u32>,
    bag: Option<u32>,
    twice: Option<TwiceFile>,
    max_rounds: Option<u32>,
    end_stalled: Option<bool>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct OddsFile {
    corner: Option<[u32; 4]>,
    edge: Option<[u32; 4]>,
    centre: Option<[u32; 4]>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct KindsFile {
    physical: Option<u32>,
    magical: Option<u32>,
    support: Option<u32>,
    defensive: Option<u32>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct ClassFile {
    health: Option<i32>,
    dice: Option<String>,
    affinity: Option<Vec<String>>,
    armor: Option<Vec<String>>,
    heal: Option<bool>,
    support: Option<bool>,
}

macro_rules! choice {
    ($file:ident => $ty:ident { $($v:ident => $w:ident),* $(,)? }) => {
        #[derive(Deserialize, Clone, Copy)]
        #[serde(rename_all = "snake_case")]
        enum $file { $($v),* }
        impl From<$file> for $ty {
            fn from(f: $file) -> $ty {
                match f { $($file::$v => $ty::$w),* }
            }
        }
    };
}

choice!(StackingFile => Stacking { Additive => Additive, Multiplicative => Multiplicative });
choice!(AffinityScopeFile => AffinityScope { Item => Item, Attack => Attack });
choice!(CritFile => Crit { AnyDie => AnyDie, EveryDie => EveryDie, Never => Never });
choice!(CritStageFile => CritStage { Final => Final, Base => Base });
choice!(RoundingFile => Rounding { HalfUp => HalfUp, HalfEven => HalfEven, Down => Down });
choice!(TwoHealersFile => TwoHealers { Any => Any, Opposing => Opposing, Never => Never });
choice!(HealerEffectsFile => HealerEffects { WhileAlive => WhileAlive, WholeBattle => WholeBattle });
choice!(JudgeFile => Judge { HealthShare => HealthShare, Draw => Draw });
choice!(MergeFile => Merge { Random => Random, Low => Low });
choice!(TwiceFile => Twice { Random => Random, Healthiest => Healthiest });

/// The `[royale]` table (LA-40..LA-48, LA-52).
fn royale(cx: &FileCtx, f: &RoyaleFile, s: &mut Royale) -> Result<(), FileError> {
    let range = |field: &str, v: Option<u32>, lo: u32, hi: u32, into: &mut u32| {
        if let Some(v) = v {
            if !(lo..=hi).contains(&v) {
                return Err(cx.err(None, field, format!("{v}: give {lo} to {hi}")));
            }
            *into = v;
        }
        Ok(())
    };
    range("royale.side", f.side, 1, 8, &mut s.side)?;
    range(
        "royale.loot_actions",
        f.loot_actions,
        0,
        MAX_LOOT_ACTIONS,
        &mut s.loot_actions,
    )?;
    range("royale.pool", f.pool, 0, 1000, &mut s.pool)?;
    range("royale.bag", f.bag, 0, MAX_BAG, &mut s.bag)?;
    range(
        "royale.max_rounds",
        f.max_rounds,
        1,
        10_000,
        &mut s.max_rounds,
    )?;
    if let Some(list) = &f.shrink {
        let mut last = (u32::MAX, s.side);
        for &[players, side] in list {
            if players == 0 || players >= last.0 || side == 0 || side >= last.1 {
                return Err(cx.err(
                    None,
                    "royale.shrink",
                    format!(
                        "[{players}, {side}]: list [players, side] pairs with fewer players and a \
                         smaller side each time, every side below `side` ({})",
                        s.side
                    ),
                ));
            }
            last = (players, side);
        }
        s.shrink = list.iter().map(|&[p, q]| (p, q)).collect();
    }
    if let Some(m) = f.merge {
        s.merge = m.into();
    }
    if let Some(t) = f.twice {
        s.twice = t.into();
    }
    if let Some(e) = f.end_stalled {
        s.end_stalled = e;
    }
    if let Some(o) = &f.odds {
        for (ring, row) in [
            (Ring::Corner, o.corner),
            (Ring::Edge, o.edge),
            (Ring::Centre, o.centre),
        ] {
            let Some(row) = row else { continue };
            if row.iter().sum::<u32>() == 0 || row.iter().any(|&w| w > 1_000_000) {
                return Err(cx.err(
                    None,
                    format!("royale.odds.{}", ring.key()),
                    "give four weights (common, uncommon, rare, legendary), 0 to 1000000, not all 0",
                ));
            }
            s.odds[ring as usize] = row;
        }
    }
    if let Some(k) = &f.kinds {
        let mut w = s.kinds;
        for (i, v) in [k.physical, k.magical, k.support, k.defensive]
            .into_iter()
            .enumerate()
        {
            if let Some(v) = v {
                w[i] = v;
            }
        }
        if w.iter().sum::<u32>() == 0 || w.iter().any(|&x| x > 1_000_000) {
            return Err(cx.err(
                None,
                "royale.kinds",
                "give weights 0 to 1000000 for physical, magical, support, defensive, not all 0",
            ));
        }
        s.kinds = w;
    }
    Ok(())
}

fn kinds(cx: &FileCtx, field: &str, v: &[String], carried_only: bool) -> Result<u8, FileError> {
    let mut bits = 0;
    for s in v {
        let k = Kind::parse(s).filter(|k| !carried_only || *k != Kind::Defensive);
        match k {
            Some(k) => bits |= k.bit(),
            None => {
                return Err(cx.err(
                    None,
                    field,
                    format!("`{s}`: name physical, magical or support"),
                ));
            }
        }
    }
    Ok(bits)
}

fn multiplier(cx: &FileCtx, field: &str, v: Option<f64>, default: i64) -> Result<i64, FileError> {
    match v {
        None => Ok(default),
        Some(x) => frac(x).filter(|m| *m > 0).ok_or_else(|| {
            cx.err(
                None,
                field,
                format!("{x}: give a multiplier above 0 and up to 100 with at most 3 decimals"),
            )
        }),
    }
}

fn dice(cx: &FileCtx, field: &str, v: &Option<String>, default: Dice) -> Result<Dice, FileError> {
    match v {
        None => Ok(default),
        Some(s) => Dice::parse(s).map_err(|m| cx.err(None, field, m)),
    }
}

/// Parses and checks a rules file; `file` names it in errors.
pub fn parse(file: &str, text: &str) -> Result<Rules, FileError> {
    let cx = FileCtx { file, text };
    let f: File = cx.toml("experiments/loot-arena/rules.toml")?;
    let mut r = Rules::default();
    for (name, cf) in &f.champion {
        let Some(class) = Class::parse(name) else {
            return Err(cx.err(
                None,
                format!("champion.{name}"),
                format!("`{name}` is not a champion: gladiator, rogue, mage or healer"),
            ));
        };
        let field = |k: &str| format!("champion.{name}.{k}");
        let c = &mut r.classes[class as usize];
        if let Some(h) = cf.health {
            if !(1..=100_000).contains(&h) {
                return Err(cx.err(None, field("health"), format!("{h}: give 1 to 100000")));
            }
            c.health = h;
        }
        c.dice = dice(&cx, &field("dice"), &cf.dice, c.dice)?;
        if c.dice.n == 0 {
            return Err(cx.err(
                None,
                field("dice"),
                "a base attack rolls at least one die (crits read the dice, LA-10)",
            ));
        }
        if let Some(a) = &cf.affinity {
            c.affinity = kinds(&cx, &field("affinity"), a, true)?;
        }
        if let Some(a) = &cf.armor {
            let mut bits = 0;
            for w in a {
                bits |= Weight::parse(w)
                    .ok_or_else(|| {
                        cx.err(
                            None,
                            field("armor"),
                            format!("`{w}`: light, medium or heavy"),
                        )
                    })?
                    .bit();
            }
            c.armor = bits;
        }
        c.can_heal = cf.heal.unwrap_or(c.can_heal);
        c.can_support = cf.support.unwrap_or(c.can_support);
    }
    if let Some(list) = &f.strengths {
        let mut beats = [[false; 4]; 4];
        for s in list {
            let parsed = s.split_once('>').and_then(|(a, b)| {
                let (a, b) = (Class::parse(a)?, Class::parse(b)?);
                (a != b).then_some((a, b))
            });
            let Some((a, b)) = parsed else {
                return Err(cx.err(
                    None,
                    "strengths",
                    format!("`{s}`: write \"gladiator > mage\" (two different champions)"),
                ));
            };
            if beats[b as usize][a as usize] {
                return Err(cx.err(
                    None,
                    "strengths",
                    format!("`{s}`: each is strong against the other; keep one direction"),
                ));
            }
            beats[a as usize][b as usize] = true;
        }
        r.beats = beats;
    }
    r.strong_deals = multiplier(&cx, "strong_deals", f.strong_deals, r.strong_deals)?;
    r.strong_takes = multiplier(&cx, "strong_takes", f.strong_takes, r.strong_takes)?;
    r.affinity = multiplier(&cx, "affinity", f.affinity, r.affinity)?;
    // Issue 53: an attacker and its target are never strong against each other at once (LA-5),
    // so the reading of how the two compose decided nothing; a file still setting it is told so.
    if f.strength_compose.is_some() {
        return Err(cx.err(
            None,
            "strength_compose",
            "no longer a setting: an attacker and its target are never both strong against each other (mutual `strengths` are refused, and a Healer's strength boost comes with its negation, LA-5), so nothing composes; remove the line",
        ));
    }
    if let Some(s) = f.affinity_stacking {
        r.affinity_stacking = s.into();
    }
    if let Some(s) = f.affinity_scope {
        r.affinity_scope = s.into();
    }
    if let Some(c) = f.crit {
        r.crit = c.into();
    }
    if let Some(c) = f.crit_stage {
        r.crit_stage = c.into();
    }
    if let Some(m) = f.crit_multiplier {
        if !(1..=10).contains(&m) {
            return Err(cx.err(None, "crit_multiplier", format!("{m}: give 1 to 10")));
        }
        r.crit_multiplier = m;
    }
    if let Some(x) = f.rounding {
        r.rounding = x.into();
    }
    if let Some(m) = f.min_damage {
        if !(0..=1000).contains(&m) {
            return Err(cx.err(None, "min_damage", format!("{m}: give 0 to 1000")));
        }
        r.min_damage = m;
    }
    r.heal_dice = dice(&cx, "heal_dice", &f.heal_dice, r.heal_dice)?;
    r.support_dice = dice(&cx, "support_dice", &f.support_dice, r.support_dice)?;
    r.evade_dice = dice(&cx, "evade_dice", &f.evade_dice, r.evade_dice)?
        .absorbing("an evasion roll")
        .map_err(|m| cx.err(None, "evade_dice", m))?;
    r.overheal = f.overheal.unwrap_or(r.overheal);
    if let Some(e) = f.evade_factor {
        if e > 10 {
            return Err(cx.err(None, "evade_factor", format!("{e}: give 0 to 10")));
        }
        r.evade_factor = e;
    }
    if let Some(x) = f.two_healers {
        r.two_healers = x.into();
    }
    if let Some(x) = f.healer_effects {
        r.healer_effects = x.into();
    }
    if let Some(n) = f.rounds_per_set {
        if !(1..=MAX_ROUNDS_PER_SET).contains(&n) {
            return Err(cx.err(
                None,
                "rounds_per_set",
                format!("{n}: give 1 to {MAX_ROUNDS_PER_SET}"),
            ));
        }
        r.rounds_per_set = n;
    }
    if let Some(n) = f.sets {
        if !(1..=MAX_SETS).contains(&n) {
            return Err(cx.err(None, "sets", format!("{n}: give 1 to {MAX_SETS}")));
        }
        r.sets = n;
    }
    if let Some(j) = f.judge {
        r.judge = j.into();
    }
    if let Some(v) = &f.attack_items {
        r.attack_items = kinds(&cx, "attack_items", v, true)?;
    }
    if let Some(v) = &f.heal_items {
        r.heal_items = kinds(&cx, "heal_items", v, true)?;
    }
    if let Some(v) = &f.support_items {
        r.support_items = kinds(&cx, "support_items", v, true)?;
    }
    if let Some(n) = f.item_slots {
        if n > MAX_ITEM_SLOTS {
            return Err(cx.err(
                None,
                "item_slots",
                format!("{n}: give 0 to {MAX_ITEM_SLOTS}"),
            ));
        }
        r.item_slots = n;
    }
    r.carry_damage = f.carry_damage.unwrap_or(r.carry_damage);
    if let Some(rf) = &f.royale {
        royale(&cx, rf, &mut r.royale)?;
    }
    Ok(r)
}

/// Reads and checks a rules file.
pub fn load(
    src: &crate::platform::sources::Sources,
    path: &std::path::Path,
) -> Result<Rules, FileError> {
    let text = crate::games::file_error::read(src, path, "rules file")?;
    parse(&path.display().to_string(), &text)
}

/// Rules from `--rules FILE`, or the seed's.
pub fn from_flag(
    src: &crate::platform::sources::Sources,
    path: Option<&std::path::Path>,
) -> Result<Rules, Error> {
    match path {
        Some(p) => load(src, p).map_err(Error::from),
        None => Ok(Rules::default()),
    }
}

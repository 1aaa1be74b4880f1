//! One attack's damage, exactly (LA-22): every face of every die enumerated (base dice with the
//! crit read from them, each item, the defence roll, an evader's extra dice), through strength,
//! rounding and the crit, as whole counts over all outcomes. The sampler's oracle
//! (`tests/games/loot_arena_rules.rs`), and `skirmish loot odds`.

use crate::error::Error;
use std::collections::BTreeMap;

use crate::games::loot_arena::kernel::battle::Strike;
use crate::games::loot_arena::rules::{
    Class, Crit, CritStage, Dice, Kind, MAX_ITEM_SLOTS, Rules, Tier, Weight,
};
use crate::games::loot_arena::state::Catalogue;

/// The exact distribution of one attack's damage.
#[derive(Clone, Debug, PartialEq)]
pub struct Odds {
    /// `(damage, outcomes)` in increasing damage.
    pub damage: Vec<(i64, u128)>,
    /// Outcomes in all (the product of every die's faces) and those with a crit.
    pub total: u128,
    pub crits: u128,
}

impl Odds {
    pub fn p(&self, count: u128) -> f64 {
        count as f64 / self.total as f64
    }
    pub fn mean(&self) -> f64 {
        self.damage.iter().map(|&(d, n)| d as f64 * self.p(n)).sum()
    }
    pub fn sd(&self) -> f64 {
        let m = self.mean();
        self.damage
            .iter()
            .map(|&(d, n)| (d as f64 - m).powi(2) * self.p(n))
            .sum::<f64>()
            .sqrt()
    }
    pub fn crit_chance(&self) -> f64 {
        self.p(self.crits)
    }
}

/// Counts of a dice total: `(total, outcomes)`.
fn sums(d: Dice) -> BTreeMap<i64, u128> {
    let mut m = BTreeMap::from([(d.plus as i64, 1u128)]);
    for _ in 0..d.n {
        let mut next = BTreeMap::new();
        for (&s, &n) in &m {
            for f in 1..=d.sides as i64 {
                *next.entry(s + f).or_insert(0) += n;
            }
        }
        m = next;
    }
    m
}

/// Outcomes of `n` dice: at most 2^96 so counts stay exact in 128 bits.
fn outcomes_fit(dice: &[Dice]) -> bool {
    dice.iter()
        .map(|d| d.n as f64 * (d.sides.max(1) as f64).log2())
        .sum::<f64>()
        <= 96.0
}

/// The exact damage of `s` under `r`.
pub fn exact(s: &Strike, r: &Rules) -> Result<Odds, Error> {
    let mut all = vec![s.base, s.armor];
    all.extend(s.items);
    if s.evading {
        all.push(r.evade_dice);
    }
    if !outcomes_fit(&all) {
        return Err("too many dice to enumerate exactly (over 2^96 outcomes)".into());
    }
    // Base dice: (sum, any top face, every top face).
    let mut base: BTreeMap<(i64, bool, bool), u128> =
        BTreeMap::from([((s.base.plus as i64, false, true), 1)]);
    for _ in 0..s.base.n {
        let mut next = BTreeMap::new();
        for (&(sum, any, every), &n) in &base {
            for f in 1..=s.base.sides as i64 {
                let top = f == s.base.sides as i64;
                *next.entry((sum + f, any || top, every && top)).or_insert(0) += n;
            }
        }
        base = next;
    }
    // The factors as applied (affinity may reach the whole attack, LA-7).
    let (f, fa) = s.factors(r);
    // The damage numerator (SCALE units) with the crit flag.
    let mut num: BTreeMap<(i64, bool), u128> = BTreeMap::new();
    for (&(sum, any, every), &n) in &base {
        let crit = match r.crit {
            Crit::AnyDie => any,
            Crit::EveryDie => every && s.base.n > 0,
            Crit::Never => false,
        };
        let bm = if crit && r.crit_stage == CritStage::Base {
            r.crit_multiplier as i64
        } else {
            1
        };
        *num.entry((f * sum * bm + f * s.support, crit)).or_insert(0) += n;
    }
    let add = |num: &mut BTreeMap<(i64, bool), u128>, d: &BTreeMap<i64, u128>, m: i64| {
        let mut next = BTreeMap::new();
        for (&(v, c), &n) in num.iter() {
            for (&x, &k) in d {
                *next.entry((v + m * x, c)).or_insert(0) += n * k;
            }
        }
        *num = next;
    };
    for slot in 0..MAX_ITEM_SLOTS as usize {
        if !s.items[slot].is_none() {
            add(
                &mut num,
                &sums(s.items[slot]),
                if s.affinity[slot] { fa } else { f },
            );
        }
    }
    let mut defence = sums(s.armor);
    if s.evading {
        let extra = sums(r.evade_dice);
        let mut d = BTreeMap::new();
        for (&a, &n) in &defence {
            for (&e, &k) in &extra {
                *d.entry(a * r.evade_factor as i64 + e).or_insert(0) += n * k;
            }
        }
        defence = d;
    }
    add(&mut num, &defence, -f);
    let mut damage: BTreeMap<i64, u128> = BTreeMap::new();
    let (mut total, mut crits) = (0u128, 0u128);
    for (&(v, crit), &n) in &num {
        let mut v = v.max(0);
        if crit && r.crit_stage == CritStage::Final {
            v *= r.crit_multiplier as i64;
        }
        *damage
            .entry(r.round(v).max(r.min_damage as i64))
            .or_insert(0) += n;
        total += n;
        if crit {
            crits += n;
        }
    }
    Ok(Odds {
        damage: damage.into_iter().collect(),
        total,
        crits,
    })
}

/// An attack described in words: `Mage with 1d8,1d8 vs Rogue in Light armor`.
#[derive(Clone, Debug, PartialEq)]
pub struct Matchup {
    pub attacker: Class,
    pub target: Class,
    pub strike: Strike,
    /// How each part was read, for the printout.
    pub reading: Vec<String>,
}

/// Reads `ATTACKER [with ITEM, ...] vs TARGET [in ARMOR] [evading]`. An item is a catalogue
/// name, `KIND DICE` (`magical 1d8`: affinity as the class has it) or bare dice (no affinity);
/// armor is a catalogue name, `[TIER] WEIGHT [armor]` (the catalogue's first of that weight and
/// tier, Common by default) or dice. Strength comes from the classes alone (no Healer in the
/// fight).
pub fn matchup(spec: &str, r: &Rules, cat: &Catalogue) -> Result<Matchup, Error> {
    let lower = spec.to_ascii_lowercase();
    let Some(vs) = lower.find(" vs ") else {
        return Err(Error::Input(format!(
            "`{spec}`: write ATTACKER [with ITEM, ...] vs TARGET [in ARMOR] [evading], e.g. \"Mage with 1d8,1d8 vs Rogue in Light armor\""
        )));
    };
    let (left, right) = (spec[..vs].trim(), spec[vs + 4..].trim());
    let (who, items) = match left.to_ascii_lowercase().find(" with ") {
        Some(i) => (&left[..i], Some(&left[i + 6..])),
        None => (left, None),
    };
    let attacker =
        Class::parse(who).ok_or_else(|| format!("`{who}`: gladiator, rogue, mage or healer"))?;
    let mut right = right.to_string();
    let evading = right.to_ascii_lowercase().ends_with(" evading");
    if evading {
        right.truncate(right.len() - " evading".len());
    }
    let (target, armor) = match right.to_ascii_lowercase().find(" in ") {
        Some(i) => (
            right[..i].to_string(),
            Some(right[i + 4..].trim().to_string()),
        ),
        None => (right.clone(), None),
    };
    let target = Class::parse(&target)
        .ok_or_else(|| format!("`{target}`: gladiator, rogue, mage or healer"))?;
    let cr = r.class(attacker);
    let f = r.strength(
        r.beats[attacker as usize][target as usize],
        r.beats[target as usize][attacker as usize],
    );
    let mut strike = Strike {
        base: cr.dice,
        f,
        items: [Dice::NONE; MAX_ITEM_SLOTS as usize],
        affinity: [false; MAX_ITEM_SLOTS as usize],
        support: 0,
        armor: Dice::NONE,
        evading,
    };
    let mut reading = vec![format!(
        "{} attacks with {} base; strength x{} against a {}",
        attacker.name(),
        cr.dice,
        crate::games::loot_arena::rules::show_frac(f),
        target.name()
    )];
    for (slot, it) in items
        .unwrap_or("")
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .enumerate()
    {
        if slot >= MAX_ITEM_SLOTS as usize {
            return Err(Error::Input(format!("at most {MAX_ITEM_SLOTS} items")));
        }
        let (dice, kind, name) = if let Some(i) = cat.find(it) {
            let x = &cat.items[i as usize];
            (x.dice, Some(x.kind), x.name.clone())
        } else if let Ok(d) = Dice::parse(it) {
            (d, None, format!("{d} (no kind: no affinity)"))
        } else {
            let mut w = it.split_whitespace();
            match (
                w.next().and_then(Kind::parse),
                w.next().map(Dice::parse),
                w.next(),
            ) {
                (Some(k), Some(Ok(d)), None) => (d, Some(k), format!("{} {d}", k.name())),
                _ => {
                    return Err(Error::Input(format!(
                        "item `{it}`: a catalogue name, `magical 1d8` or dice such as `1d8`"
                    )));
                }
            }
        };
        if let Some(k) = kind
            && r.attack_items & k.bit() == 0
        {
            return Err(Error::Input(format!(
                "item `{it}` is {}: it does not add to attacks (LA-8)",
                k.name()
            )));
        }
        let affinity = kind.is_some_and(|k| cr.affinity & k.bit() != 0);
        strike.items[slot] = dice;
        strike.affinity[slot] = affinity;
        reading.push(format!(
            "item {name}: x{}{}",
            crate::games::loot_arena::rules::show_frac(r.item_factor(f, affinity)),
            if affinity { " (affinity)" } else { "" }
        ));
    }
    // LA-7's other reading: affinity on the whole attack, when an affinity item is carried.
    let (whole, _) = strike.factors(r);
    if whole != f {
        reading.push(format!(
            "affinity on the whole attack (affinity_scope = \"attack\"): x{}",
            crate::games::loot_arena::rules::show_frac(whole)
        ));
    }
    if let Some(a) = armor {
        let words: Vec<String> = a
            .split_whitespace()
            .map(|w| w.to_ascii_lowercase())
            .filter(|w| w != "armor" && w != "armour")
            .collect();
        let by_words = match words.as_slice() {
            [w] => Weight::parse(w).map(|w| (Tier::Common, w)),
            [t, w] => Tier::parse(t).zip(Weight::parse(w)),
            _ => None,
        };
        let (dice, name) = if let Some(i) = cat.find(&a) {
            (
                cat.items[i as usize].dice,
                cat.items[i as usize].name.clone(),
            )
        } else if let Some((t, w)) = by_words {
            let i = cat.armor[w as usize][t as usize]
                .first()
                .ok_or_else(|| format!("the catalogue has no {} {} armor", t.name(), w.name()))?;
            let x = &cat.items[*i as usize];
            (
                x.dice,
                format!("{} ({} {} armor)", x.name, t.name(), w.name()),
            )
        } else if let Ok(d) = Dice::parse(&a) {
            (d.absorbing("armor")?, d.to_string())
        } else {
            return Err(Error::Input(format!(
                "armor `{a}`: a catalogue name, `[tier] light|medium|heavy armor`, or dice"
            )));
        };
        strike.armor = dice;
        // Dice given as dice are named once (`defence: 2d4+1`, not `2d4+1, 2d4+1`).
        if name == dice.to_string() {
            reading.push(format!("defence: {dice}"));
        } else {
            reading.push(format!("defence: {name}, {dice}"));
        }
    }
    if evading {
        reading.push(format!(
            "the target evades: defence x{} plus {}",
            r.evade_factor, r.evade_dice
        ));
    }
    Ok(Matchup {
        attacker,
        target,
        strike,
        reading,
    })
}

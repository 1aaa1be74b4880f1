//! Combat files (TOML, MC-26): two groups, each a list of minions by catalogue name, `N x` for
//! several, `+ Modifier` for stat-changing spells:
//!
//! ```toml
//! seed = 42
//! [[group]]
//! name = "Keeper band"
//! owner = "initiative"        # initiative | neutral | other
//! minions = ["3 x Keeper swordsman", "Keeper swordsman + Veteran"]
//! ```

use crate::error::Error;
use serde::Deserialize;

use crate::games::file_error::{FileCtx, FileError};
use crate::games::minion_combat::effects::{Against, Clause, Do, Effects};
use crate::games::minion_combat::input::catalogue::PLAYED_CONDITIONS;
use crate::games::minion_combat::rules::{MAX_GROUP, Rules};
use crate::games::minion_combat::state::{Catalogue, Group, Kind, Minion, Owner, Stats};
use crate::names::closest_name;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    seed: Option<u64>,
    #[serde(default)]
    group: Vec<GroupFile>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct GroupFile {
    name: Option<String>,
    owner: Option<String>,
    age: Option<u32>,
    #[serde(default)]
    minions: Vec<String>,
}

/// A checked combat file.
#[derive(Clone, Debug)]
pub struct CombatFile {
    pub seed: u64,
    pub groups: [Group; 2],
    /// Combat tags of the fielded minions that no step plays yet (MC-40), by minion name.
    pub unplayed: Vec<(String, String)>,
}

/// Most modifiers one minion spec may stack (far beyond any page's spell list).
pub const MAX_MODIFIERS: usize = 100;

/// One minion spec: `"[N x ]Name[ + Modifier]..."` into `n` fielded minions, and the combat
/// tags of its catalogue entry that no clause plays (MC-40).
pub fn minion_spec(
    spec: &str,
    cat: &Catalogue,
    r: &Rules,
) -> Result<(Vec<Minion>, Vec<String>), Error> {
    // Bounded work at load (issue 53: 80,000 stacked modifiers took 12.6 s).
    let stacked = spec.matches('+').count();
    if stacked > MAX_MODIFIERS {
        return Err(Error::Input(format!(
            "`{}...`: {stacked} modifiers on one minion; at most {MAX_MODIFIERS}",
            spec.chars().take(40).collect::<String>()
        )));
    }
    let mut parts = spec.split('+').map(str::trim);
    let head = parts.next().unwrap_or("");
    let (n, name) = match head.split_once(" x ") {
        Some((n, rest)) => match n.trim().parse::<usize>() {
            Ok(k) if (1..=MAX_GROUP).contains(&k) => (k, rest.trim()),
            _ => {
                return Err(Error::Input(format!(
                    "`{spec}`: \"N x Name\" needs N from 1 to {MAX_GROUP}"
                )));
            }
        },
        None => (1, head),
    };
    let stats = cat.find(name).ok_or_else(|| {
        unknown(
            name,
            &format!("is not in the catalogue {}", cat.sources[0]),
            cat.minions.iter().map(|m| m.name.as_str()),
            "name one of its minions",
        )
    })?;
    let mut m = tagged(stats, cat, r)?;
    let fx = &cat.effects;
    let mut taken: Vec<&str> = Vec::new();
    for p in parts {
        let x = cat.modifier(p).ok_or_else(|| {
            unknown(
                p,
                &format!("is not a modifier of {}", cat.sources[1]),
                cat.modifiers.iter().map(|m| m.name.as_str()),
                "name one of its modifiers",
            )
        })?;
        let plain = PLAYED_CONDITIONS.contains(&x.condition.as_str());
        if !plain && !fx.plays(&x.name) {
            return Err(Error::Input(format!(
                "`{}` holds only \"{}\": a conditional modifier is played only by its clauses in the effects file {} (MC-25, MC-41); add them or use one that always holds",
                x.name, x.condition, cat.sources[2]
            )));
        }
        if taken.contains(&x.name.as_str()) && !x.stackable {
            return Err(Error::Input(format!(
                "`{}` twice on one minion: it is not stackable",
                x.name
            )));
        }
        let who = x.applies_to.to_ascii_lowercase();
        let ok = if who.contains("recruit") {
            m.recruit
        } else if who.contains("archer") {
            stats.class.contains("archer")
        } else if who.contains("swordsm") {
            stats.class.contains("swordsman")
        } else if who.contains("hand attacks") {
            m.hand.is_some()
        } else {
            true
        };
        if !ok {
            return Err(Error::Input(format!(
                "`{}` applies to {}; `{}` is not one",
                x.name, x.applies_to, stats.name
            )));
        }
        taken.push(&x.name);
        m.enchanted = true;
        m.clauses.extend(fx.of(&x.name).cloned());
        // A conditional modifier's numbers, or those its clauses say they play, are played
        // by the clauses alone (MC-41).
        if plain && !fx.numbers_off.contains(&x.name) {
            m.hand = m.hand.map(|v| v + x.hand);
            m.missile = m.missile.map(|v| v + x.missile);
            m.armor = (m.armor + x.armor).max(0);
            m.max_hp += x.max_hp;
            m.hp += x.max_hp;
            m.level = r.clamp_level(m.level + x.level);
            m.attacks = (m.attacks as i32 + x.attacks).max(0) as u32;
        }
        m.name = format!("{} + {}", m.name, x.name);
    }
    settle_nation(&mut m, &cat.effects, r)?;
    if m.attacks > crate::games::minion_combat::rules::MAX_ATTACKS {
        return Err(Error::Input(format!(
            "`{spec}` has {} attacks a round; at most {} (MC-61)",
            m.attacks,
            crate::games::minion_combat::rules::MAX_ATTACKS
        )));
    }
    if m.attacks > 0 && m.hand.is_none() && m.missile.is_none() {
        return Err(Error::Input(format!(
            "`{spec}` has {} attack(s) but no hand or missile damage: it could not attack",
            m.attacks
        )));
    }
    if m.max_hp < 1 {
        return Err(Error::Input(format!(
            "`{spec}` has {} max HP: a fielded minion needs at least 1",
            m.max_hp
        )));
    }
    let unplayed = stats
        .tags
        .iter()
        .filter(|t| *t != "hero" && !fx.plays(t))
        .cloned()
        .collect();
    Ok((vec![m; n], unplayed))
}

/// A catalogue minion as fielded, unmodified, with the clauses its tags carry (MC-41): what
/// `"Name"` alone in a group file fields.
pub fn catalogue_minion(stats: &Stats, cat: &Catalogue, r: &Rules) -> Result<Minion, Error> {
    let mut m = tagged(stats, cat, r)?;
    settle_nation(&mut m, &cat.effects, r)?;
    Ok(m)
}

/// A catalogue entry as fielded, carrying its tags' clauses.
fn tagged(stats: &Stats, cat: &Catalogue, r: &Rules) -> Result<Minion, Error> {
    let mut m = field(stats, r)?;
    for t in &stats.tags {
        m.clauses.extend(cat.effects.of(t).cloned());
    }
    Ok(m)
}

/// A clause that makes its minion one of a nation (MC-52) sets it; a nation a condition names
/// becomes the rules' nation (MC-55).
fn settle_nation(m: &mut Minion, fx: &Effects, r: &Rules) -> Result<(), Error> {
    fn settle(c: &mut Clause, fx: &Effects, r: &Rules) -> Result<(), Error> {
        if let Some(Against::NationNamed(i)) = c.against {
            let n = &fx.nations[i as usize];
            let k = r.nation(n).ok_or_else(|| {
                format!(
                    "`{}` acts against `{n}`, a nation the rules file does not list: add it under [nation] or fix the name",
                    c.source
                )
            })?;
            let k = u16::try_from(k).map_err(|_| {
                format!("`{}` acts against `{n}`, past the 65,536th nation of the rules file: list it earlier", c.source)
            })?;
            c.against = Some(Against::Nation(k));
        }
        if let Do::Give(s) = &mut c.effect {
            for x in s.clauses.iter_mut() {
                settle(x, fx, r)?;
            }
        }
        Ok(())
    }
    for c in m.clauses.iter_mut() {
        settle(c, fx, r)?;
    }
    for c in &m.clauses {
        if let Do::Nation(n) = &c.effect {
            m.nation = Some(r.nation(n).ok_or_else(|| {
                format!(
                    "`{}` makes its minion a `{n}`, a nation the rules file does not list: add it under [nation] or fix the name",
                    c.source
                )
            })?);
        }
    }
    Ok(())
}

/// MC-1: 1 to 8 minions, all recruits or all monsters.
pub fn check_group(minions: &[Minion]) -> Result<(), Error> {
    if minions.is_empty() || minions.len() > MAX_GROUP {
        return Err(Error::Input(format!(
            "{} minions: a group holds 1 to {MAX_GROUP} (MC-1)",
            minions.len()
        )));
    }
    if minions.iter().any(|m| m.recruit != minions[0].recruit) {
        return Err(
            "recruits and monsters mixed: a group is all recruits or all monsters (MC-1)".into(),
        );
    }
    Ok(())
}

/// "`name` is not ...: did you mean `X`?", or the fix when no name is close.
fn unknown<'a>(
    name: &str,
    what: &str,
    names: impl IntoIterator<Item = &'a str>,
    fix: &str,
) -> String {
    match closest_name(name, names) {
        Some(c) => format!("`{name}` {what}: did you mean `{c}`?"),
        None => format!("`{name}` {what}: {fix}"),
    }
}

/// A catalogue entry as fielded, before modifiers.
fn field(s: &Stats, r: &Rules) -> Result<Minion, Error> {
    if s.kind == Kind::Form {
        return Err(Error::Input(format!(
            "`{}` is a Spirit alteration's form with no HP of its own: field the recruit instead",
            s.name
        )));
    }
    if s.attacks > 0 && s.hand.is_none() && s.missile.is_none() {
        return Err(Error::Input(format!(
            "`{}` has attacks but no printed damage (the card's depends on its casting cost): give it `hand` or `missile` in your own catalogue",
            s.name
        )));
    }
    if s.hp.is_none() {
        return Err(Error::Input(format!(
            "`{}` has no printed HP (the card prints *): add `hp` to its catalogue entry in your own catalogue",
            s.name
        )));
    }
    Ok(Minion::from_stats(s, r))
}

/// Parses and checks a combat file against the rules and catalogue; `file` names it in errors.
pub fn parse(file: &str, text: &str, r: &Rules, cat: &Catalogue) -> Result<CombatFile, FileError> {
    let cx = FileCtx { file, text };
    let f: File = cx.toml(super::FORMAT)?;
    if f.group.len() != 2 {
        return Err(cx.err(
            None,
            "group",
            format!(
                "{} groups: a combat file has exactly two [[group]] tables",
                f.group.len()
            ),
        ));
    }
    let mut groups: Vec<Group> = Vec::new();
    let mut unplayed = Vec::new();
    for (g, gf) in f.group.iter().enumerate() {
        let fld = |k: &str| format!("group[{g}].{k}");
        let owner = match gf
            .owner
            .as_deref()
            .unwrap_or(if g == 0 { "initiative" } else { "other" })
        {
            "initiative" => Owner::Initiative,
            "neutral" => Owner::Neutral,
            "other" | "non-initiative" => Owner::Other,
            o => {
                return Err(cx.err(
                    None,
                    fld("owner"),
                    format!("`{o}`: initiative, neutral or other"),
                ));
            }
        };
        let mut minions = Vec::new();
        for spec in &gf.minions {
            let (ms, tags) =
                minion_spec(spec, cat, r).map_err(|m| cx.err(None, fld("minions"), m))?;
            for t in tags {
                if !unplayed
                    .iter()
                    .any(|(n, x): &(String, String)| *n == ms[0].name && *x == t)
                {
                    unplayed.push((ms[0].name.clone(), t));
                }
            }
            minions.extend(ms);
        }
        check_group(&minions).map_err(|m| cx.err(None, fld("minions"), m))?;
        groups.push(Group {
            name: gf
                .name
                .clone()
                .unwrap_or_else(|| format!("group {}", g + 1)),
            owner,
            age: gf.age.unwrap_or(g as u32),
            minions,
        });
    }
    if groups[0].owner == groups[1].owner && groups[0].owner != Owner::Neutral {
        return Err(cx.err(None, "group[1].owner", "both groups have one owner: a combat is between hostile groups (give one `owner = \"other\"` or \"neutral\")"));
    }
    if groups[0].owner == groups[1].owner && groups[0].age == groups[1].age {
        return Err(cx.err(None, "group[1].age", "two neutral groups of the same age: give them different `age` (the older has precedence, MC-3)"));
    }
    let b = groups.pop().unwrap();
    let a = groups.pop().unwrap();
    Ok(CombatFile {
        seed: f.seed.unwrap_or(42),
        groups: [a, b],
        unplayed,
    })
}

/// The combat a file names, or the shipped example.
pub fn from_flag(
    src: &crate::platform::sources::Sources,
    path: Option<&std::path::Path>,
    r: &Rules,
    cat: &Catalogue,
) -> Result<CombatFile, Error> {
    let (file, text) = super::read(
        src,
        path,
        ("experiments/minion-combat/combat.toml", super::COMBAT),
    )?;
    parse(&file, &text, r, cat).map_err(Error::from)
}

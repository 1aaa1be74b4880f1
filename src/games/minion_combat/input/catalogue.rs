//! The minion catalogue (`minions.toml`, MC-24) and the modifier list (`modifiers.toml`, MC-25),
//! both made from the shipped CSVs by `experiments/minion-combat/from_csv.py`.

use crate::error::Error;
use serde::Deserialize;

use crate::games::file_error::{FileCtx, FileError};
use crate::games::minion_combat::state::{Catalogue, Kind, Modifier, Stats};
use crate::names::normalise;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MinionsFile {
    #[serde(default)]
    minion: Vec<MinionFile>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MinionFile {
    name: String,
    #[serde(default)]
    card: String,
    card_id: Option<u32>,
    kind: String,
    #[serde(default)]
    class: String,
    #[serde(default)]
    nation: String,
    hand: Option<i32>,
    missile: Option<i32>,
    attacks: Option<u32>,
    #[serde(default)]
    armor: i32,
    hp: Option<i32>,
    #[serde(default)]
    level: i32,
    count: Option<String>,
    #[serde(default)]
    flight: bool,
    #[serde(default)]
    tags: Vec<String>,
    #[serde(default)]
    inferred: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ModifiersFile {
    #[serde(default)]
    modifier: Vec<ModifierFile>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ModifierFile {
    name: String,
    card_id: Option<u32>,
    #[serde(default)]
    applies_to: String,
    #[serde(default)]
    hand: i32,
    #[serde(default)]
    missile: i32,
    #[serde(default)]
    armor: i32,
    #[serde(default)]
    max_hp: i32,
    #[serde(default)]
    level: i32,
    #[serde(default)]
    attacks: i32,
    #[serde(default)]
    stackable: bool,
    #[serde(default)]
    condition: String,
    #[serde(default)]
    other: String,
}

/// Most entries in a catalogue.
pub const MAX_ENTRIES: usize = 10_000;
pub use super::MAX_STAT;

fn stat(cx: &FileCtx, field: String, v: i32, lo: i32) -> Result<i32, FileError> {
    if v < lo || v > MAX_STAT {
        return Err(cx.err(
            None,
            field,
            format!("{v}: write a number from {lo} to {MAX_STAT}"),
        ));
    }
    Ok(v)
}

/// Parses and checks a minion catalogue; `file` names it in errors.
pub fn parse_minions(file: &str, text: &str) -> Result<Vec<Stats>, FileError> {
    let cx = FileCtx { file, text };
    let f: MinionsFile = cx.toml(super::FORMAT)?;
    if f.minion.is_empty() {
        return Err(cx.err(None, "minion", "no minions: add [[minion]] tables (name, kind, hand or missile, attacks, armor, hp, level)"));
    }
    if f.minion.len() > MAX_ENTRIES {
        return Err(cx.err(
            None,
            "minion",
            format!("{} minions: at most {MAX_ENTRIES}", f.minion.len()),
        ));
    }
    let mut out: Vec<Stats> = Vec::with_capacity(f.minion.len());
    for (i, m) in f.minion.iter().enumerate() {
        let field = |k: &str| format!("minion[{i}].{k}");
        let name = m.name.trim().to_string();
        if normalise(&name).is_empty() {
            return Err(cx.err(None, field("name"), "an empty name: give the minion a name"));
        }
        if out.iter().any(|x| normalise(&x.name) == normalise(&name)) {
            return Err(cx.err(
                None,
                field("name"),
                format!("`{name}` is named twice: give every minion its own name"),
            ));
        }
        if name.contains('+') || name.contains(" x ") {
            return Err(cx.err(
                None,
                field("name"),
                format!("`{name}`: `+` and ` x ` are group-file syntax; rename the minion"),
            ));
        }
        let kind = match m.kind.as_str() {
            "monster" => Kind::Monster,
            "recruit" => Kind::Recruit,
            "recruit_form" => Kind::Form,
            k => {
                return Err(cx.err(
                    None,
                    field("kind"),
                    format!("`{k}`: monster, recruit or recruit_form"),
                ));
            }
        };
        let hand = m.hand.map(|v| stat(&cx, field("hand"), v, 0)).transpose()?;
        let missile = m
            .missile
            .map(|v| stat(&cx, field("missile"), v, 0))
            .transpose()?;
        let attacks = m.attacks.unwrap_or(1);
        if attacks > crate::games::minion_combat::rules::MAX_ATTACKS {
            return Err(cx.err(
                None,
                field("attacks"),
                format!(
                    "{attacks}: write 0 to {} attacks a round (MC-61)",
                    crate::games::minion_combat::rules::MAX_ATTACKS
                ),
            ));
        }
        let hp = m.hp.map(|v| stat(&cx, field("hp"), v, 1)).transpose()?;
        if let Some(c) = &m.count
            && !valid_count(c)
        {
            return Err(cx.err(
                None,
                field("count"),
                format!("`{c}`: a number (\"3\") or a range (\"2-8\")"),
            ));
        }
        let _ = (m.card_id, &m.card);
        out.push(Stats {
            name,
            card: m.card.clone(),
            kind,
            class: m.class.clone(),
            nation: m.nation.clone(),
            hand,
            missile,
            attacks,
            armor: stat(&cx, field("armor"), m.armor, 0)?,
            hp,
            level: stat(&cx, field("level"), m.level, -100)?.min(100),
            flight: m.flight,
            tags: m.tags.clone(),
            inferred: m.inferred.clone(),
        });
    }
    Ok(out)
}

fn valid_count(c: &str) -> bool {
    let n = |s: &str| s.trim().parse::<u32>().is_ok_and(|v| (1..=8).contains(&v));
    match c.split_once('-') {
        Some((a, b)) => n(a) && n(b),
        None => n(c),
    }
}

/// Conditions a combat plays as plain stat changes (MC-25); any other is refused where used.
pub const PLAYED_CONDITIONS: [&str; 2] = ["", "until end of next combat"];

/// Parses and checks a modifier list; `file` names it in errors.
pub fn parse_modifiers(file: &str, text: &str) -> Result<Vec<Modifier>, FileError> {
    let cx = FileCtx { file, text };
    let f: ModifiersFile = cx.toml(super::FORMAT)?;
    if f.modifier.len() > MAX_ENTRIES {
        return Err(cx.err(
            None,
            "modifier",
            format!("{} modifiers: at most {MAX_ENTRIES}", f.modifier.len()),
        ));
    }
    let mut out: Vec<Modifier> = Vec::new();
    for (i, m) in f.modifier.iter().enumerate() {
        let field = |k: &str| format!("modifier[{i}].{k}");
        let name = m.name.trim().to_string();
        if normalise(&name).is_empty() {
            return Err(cx.err(
                None,
                field("name"),
                "an empty name: give the modifier a name",
            ));
        }
        if out.iter().any(|x| normalise(&x.name) == normalise(&name)) {
            return Err(cx.err(
                None,
                field("name"),
                format!("`{name}` is named twice: give every modifier its own name"),
            ));
        }
        if name.contains('+') {
            return Err(cx.err(
                None,
                field("name"),
                format!("`{name}`: `+` is group-file syntax; rename the modifier"),
            ));
        }
        let d = |k: &str, v: i32| stat(&cx, field(k), v, -MAX_STAT);
        let _ = (m.card_id, &m.other);
        out.push(Modifier {
            name,
            hand: d("hand", m.hand)?,
            missile: d("missile", m.missile)?,
            armor: d("armor", m.armor)?,
            max_hp: d("max_hp", m.max_hp)?,
            level: d("level", m.level)?,
            attacks: d("attacks", m.attacks)?,
            applies_to: m.applies_to.clone(),
            stackable: m.stackable,
            condition: m.condition.trim().to_string(),
        });
    }
    Ok(out)
}

/// The catalogue `--minions` and `--modifiers` name, or the shipped ones.
pub fn from_flags(
    src: &crate::platform::sources::Sources,
    minions: Option<&std::path::Path>,
    modifiers: Option<&std::path::Path>,
    effects: Option<&std::path::Path>,
) -> Result<Catalogue, Error> {
    let (file, text) = super::read(
        src,
        minions,
        ("experiments/minion-combat/minions.toml", super::MINIONS),
    )?;
    let m = parse_minions(&file, &text)?;
    let minions_file = file;
    let (file, text) = super::read(
        src,
        modifiers,
        ("experiments/minion-combat/modifiers.toml", super::MODIFIERS),
    )?;
    let x = parse_modifiers(&file, &text)?;
    let modifiers_file = file;
    let (file, text) = super::read(
        src,
        effects,
        ("experiments/minion-combat/effects.toml", super::EFFECTS),
    )?;
    let e = super::effects::parse(&file, &text, &m, &x).map_err(|e| {
        // The shipped effects read a host's catalogue: name the catalogue, which lacks what
        // they name (a nation, a modifier).
        if effects.is_none() && (minions.is_some() || modifiers.is_some()) {
            format!(
                "{minions_file}, {modifiers_file}: the shipped effects name what this catalogue lacks (give --effects FILE written for it): {e}"
            )
        } else {
            e.to_string()
        }
    })?;
    Ok(Catalogue {
        minions: m,
        modifiers: x,
        effects: e,
        sources: [minions_file, modifiers_file, file],
    })
}

/// The shipped catalogue and modifiers.
pub fn builtin() -> Catalogue {
    from_flags(&crate::platform::sources::Sources::disk(), None, None, None)
        .expect("the shipped catalogue loads")
}

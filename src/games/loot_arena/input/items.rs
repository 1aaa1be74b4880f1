//! Item catalogues (TOML): `[tiers]` (the dice an item of a tier adds when it names none) and
//! `[[item]]` tables (name, kind, tier, weight for defensive items, dice). The shipped stand-in
//! is `experiments/loot-arena/items.toml` (LA-19).

use crate::error::Error;
use serde::Deserialize;

use crate::games::file_error::{FileCtx, FileError};
use crate::games::loot_arena::rules::{Dice, Kind, Tier, Weight};
use crate::games::loot_arena::state::{Catalogue, Item};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    #[serde(default)]
    tiers: Tiers,
    #[serde(default)]
    item: Vec<ItemFile>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct Tiers {
    common: Option<String>,
    uncommon: Option<String>,
    rare: Option<String>,
    legendary: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ItemFile {
    name: String,
    kind: String,
    tier: String,
    weight: Option<String>,
    dice: Option<String>,
}

/// Most items in a catalogue (indices are 16-bit).
pub const MAX_ITEMS: usize = 10_000;

/// Parses and checks a catalogue; `file` names it in errors.
pub fn parse(file: &str, text: &str) -> Result<Catalogue, FileError> {
    let cx = FileCtx { file, text };
    let f: File = cx.toml("docs/loot-arena.md")?;
    let mut tier_dice = [
        Dice::new(1, 4),
        Dice::new(1, 6),
        Dice::new(1, 8),
        Dice::new(1, 10),
    ];
    for (t, v) in [
        &f.tiers.common,
        &f.tiers.uncommon,
        &f.tiers.rare,
        &f.tiers.legendary,
    ]
    .into_iter()
    .enumerate()
    {
        if let Some(s) = v {
            tier_dice[t] = Dice::parse(s)
                .map_err(|m| cx.err(None, format!("tiers.{}", Tier::ALL[t].key()), m))?;
        }
    }
    if f.item.is_empty() {
        return Err(cx.err(
            None,
            "item",
            "no items: add [[item]] tables (name, kind, tier, dice)",
        ));
    }
    if f.item.len() > MAX_ITEMS {
        return Err(cx.err(
            None,
            "item",
            format!("{} items: at most {MAX_ITEMS}", f.item.len()),
        ));
    }
    let mut items: Vec<Item> = Vec::new();
    // Names seen so far, normalised: one lookup an item (issue 53: a 10,000-item catalogue's
    // check compared every pair).
    let mut seen = std::collections::HashSet::new();
    for (i, it) in f.item.iter().enumerate() {
        let field = |k: &str| format!("item[{i}].{k}");
        let name = it.name.trim().to_string();
        if name.is_empty() {
            return Err(cx.err(None, field("name"), "an empty name: give the item a name"));
        }
        if !seen.insert(crate::names::normalise(&name)) {
            return Err(cx.err(
                None,
                field("name"),
                format!("`{name}` is named twice: give every item its own name"),
            ));
        }
        let kind = Kind::parse(&it.kind).ok_or_else(|| {
            cx.err(
                None,
                field("kind"),
                format!("`{}`: physical, magical, support or defensive", it.kind),
            )
        })?;
        let tier = Tier::parse(&it.tier).ok_or_else(|| {
            cx.err(
                None,
                field("tier"),
                format!("`{}`: common, uncommon, rare or legendary", it.tier),
            )
        })?;
        let weight = match (&it.weight, kind) {
            (Some(w), Kind::Defensive) => Some(Weight::parse(w).ok_or_else(|| {
                cx.err(
                    None,
                    field("weight"),
                    format!("`{w}`: light, medium or heavy"),
                )
            })?),
            (None, Kind::Defensive) => {
                return Err(cx.err(
                    None,
                    field("kind"),
                    "a defensive item needs `weight = \"light\"`, \"medium\" or \"heavy\" (LA-18)",
                ));
            }
            (Some(_), _) => {
                return Err(cx.err(
                    None,
                    field("weight"),
                    "only defensive items have a weight: remove it or make the item defensive",
                ));
            }
            (None, _) => None,
        };
        let dice = match &it.dice {
            Some(s) => Dice::parse(s).map_err(|m| cx.err(None, field("dice"), m))?,
            None => tier_dice[tier as usize],
        };
        if kind == Kind::Defensive {
            dice.absorbing("a defensive item")
                .map_err(|m| cx.err(None, field("dice"), m))?;
        }
        items.push(Item {
            name,
            kind,
            tier,
            weight,
            dice,
        });
    }
    Ok(Catalogue::new(items, file))
}

/// Reads and checks a catalogue file.
pub fn load(
    src: &crate::platform::sources::Sources,
    path: &std::path::Path,
) -> Result<Catalogue, FileError> {
    let text = crate::games::file_error::read(src, path, "item catalogue")?;
    parse(&path.display().to_string(), &text)
}

/// The shipped stand-in catalogue.
pub fn builtin() -> Catalogue {
    parse("experiments/loot-arena/items.toml (built in)", super::ITEMS)
        .expect("the shipped catalogue is valid")
}

/// A catalogue from `--items FILE`, or the built-in one.
pub fn from_flag(
    src: &crate::platform::sources::Sources,
    path: Option<&std::path::Path>,
) -> Result<Catalogue, Error> {
    match path {
        Some(p) => load(src, p).map_err(Error::from),
        None => Ok(builtin()),
    }
}

/// `--candidate`: an item catalogue file, or one item as `NAME: TIER KIND [WEIGHT] DICE` in any
/// order after the colon, read through the catalogue's own loader (the same checks and errors).
pub fn candidate(
    src: &crate::platform::sources::Sources,
    spec: &str,
) -> Result<Vec<crate::games::loot_arena::state::Item>, Error> {
    use crate::games::loot_arena::rules::{Kind, Tier, Weight};
    let path = std::path::Path::new(spec);
    if src.is_file(path) {
        return load(src, path)
            .map(|c| c.items)
            .map_err(|e| Error::Input(format!("--candidate: {e}")));
    }
    let Some((name, rest)) = spec.split_once(':') else {
        return Err(Error::Input(format!(
            "--candidate `{spec}`: write an item as \"Flaming Sword: rare physical 2d6+2\" (name, colon, tier, kind, dice), or give an item catalogue file"
        )));
    };
    let (mut tier, mut kind, mut weight, mut dice) = (None, None, None, None);
    for w in rest.split_whitespace() {
        if Tier::parse(w).is_some() {
            tier = Some(w);
        } else if Kind::parse(w).is_some() {
            kind = Some(w);
        } else if Weight::parse(w).is_some() {
            weight = Some(w);
        } else {
            dice = Some(w);
        }
    }
    let (Some(tier), Some(kind)) = (tier, kind) else {
        return Err(Error::Input(format!(
            "--candidate `{spec}`: say its tier (common, uncommon, rare, legendary) and kind (physical, magical, support, defensive), e.g. \"Flaming Sword: rare physical 2d6+2\""
        )));
    };
    let q = |s: &str| format!("{:?}", s.trim());
    let mut text = format!(
        "[[item]]\nname = {}\nkind = {}\ntier = {}\n",
        q(name),
        q(kind),
        q(tier)
    );
    if let Some(w) = weight {
        text.push_str(&format!("weight = {}\n", q(w)));
    }
    if let Some(d) = dice {
        text.push_str(&format!("dice = {}\n", q(d)));
    }
    parse("--candidate", &text)
        .map(|c| c.items)
        .map_err(Error::from)
}

//! Battle files (TOML): two players, the two champions each fields, their items and their sets.
//!
//! ```toml
//! seed = 7                                  # optional (default 42); --seed overrides it
//! [[player]]
//! name = "Squirrel2412"
//! [[player.champion]]
//! class = "mage"
//! health = 85                               # optional: health carried in (default: full)
//! items = ["Storm Orb", "magical 1d8"]      # catalogue names, or a kind and dice
//! armor = "Elven Mail"                      # optional: a defensive catalogue item
//! set = ["attack [Rogue, Healer, Gladiator, Mage]", "attack", "support", "evade"]
//! # or: policy = "medic"                    (default: medic)
//! ```

use crate::error::Error;
use serde::Deserialize;
use toml::Spanned;

use crate::games::file_error::{FileCtx, FileError};
use crate::games::loot_arena::policy::{Action, Policy, Set};
use crate::games::loot_arena::rules::{Class, Dice, Kind, MAX_ROUNDS_PER_SET, Rules, Tier};
use crate::games::loot_arena::state::{Catalogue, Fielded, Item, Loadout, NO_ITEM};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    seed: Option<u64>,
    #[serde(default)]
    player: Vec<PlayerFile>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PlayerFile {
    name: Spanned<String>,
    #[serde(default)]
    champion: Vec<ChampionFile>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ChampionFile {
    class: Spanned<String>,
    health: Option<Spanned<i32>>,
    items: Option<Spanned<Vec<String>>>,
    armor: Option<Spanned<String>>,
    set: Option<Spanned<Vec<String>>>,
    policy: Option<Spanned<String>>,
}

/// A checked battle.
#[derive(Clone, Debug)]
pub struct BattleFile {
    pub seed: u64,
    pub players: [String; 2],
    pub fielded: Fielded,
    /// The catalogue the loadouts index, with the file's own items added.
    pub catalogue: Catalogue,
}

/// An item named in a battle file: a catalogue name, or `KIND DICE` (`magical 1d8`).
fn item(cat: &mut Catalogue, s: &str) -> Result<u16, Error> {
    if let Some(i) = cat.find(s) {
        return Ok(i);
    }
    let mut words = s.split_whitespace();
    if let (Some(k), Some(d), None) = (words.next(), words.next(), words.next())
        && let Some(kind) = Kind::parse(k)
    {
        let mut dice = Dice::parse(d)?;
        if kind == Kind::Defensive {
            dice = dice.absorbing("a defensive item")?;
        }
        let weight =
            (kind == Kind::Defensive).then_some(crate::games::loot_arena::rules::Weight::Light);
        return Ok(cat.add(Item {
            name: format!("{} {dice}", kind.name()),
            kind,
            tier: Tier::Common,
            weight,
            dice,
        }));
    }
    let hint = crate::names::closest_name(s, cat.items.iter().map(|i| i.name.as_str()))
        .map(|c| format!("did you mean `{c}`? "))
        .unwrap_or_default();
    Err(Error::Input(format!(
        "`{s}` is not in the catalogue ({}): {hint}name a catalogue item or write a kind and dice (`magical 1d8`)",
        cat.source
    )))
}

/// Parses and checks a battle file against the rules and the catalogue.
pub fn parse(
    file: &str,
    text: &str,
    rules: &Rules,
    cat: &Catalogue,
) -> Result<BattleFile, FileError> {
    let cx = FileCtx { file, text };
    let f: File = cx.toml("docs/loot-arena.md")?;
    if f.player.len() != 2 {
        return Err(cx.err(
            None,
            "player",
            format!(
                "{} players: a battle is two players, 2v2 (LA-2); give two [[player]] tables",
                f.player.len()
            ),
        ));
    }
    let mut cat = cat.clone();
    let mut fielded = [Loadout::bare(Class::Gladiator, 1, Policy::Random); 4];
    let mut names = [String::new(), String::new()];
    for (p, pf) in f.player.iter().enumerate() {
        let name = pf.name.get_ref().trim().to_string();
        let at = Some(pf.name.span());
        if name.is_empty() || (p == 1 && name == names[0]) {
            return Err(cx.err(
                at,
                format!("player[{p}].name"),
                format!("`{name}`: give each player its own, non-empty name"),
            ));
        }
        names[p] = name;
        if pf.champion.len() != 2 {
            return Err(cx.err(
                at,
                format!("player[{p}]"),
                format!(
                    "{} champions: each player fields two (LA-2); give two [[player.champion]] tables",
                    pf.champion.len()
                ),
            ));
        }
        for (k, cf) in pf.champion.iter().enumerate() {
            fielded[2 * p + k] = champion(&cx, &mut cat, rules, cf, p, k, &fielded)?;
        }
    }
    Ok(BattleFile {
        seed: f.seed.unwrap_or(42),
        players: names,
        fielded,
        catalogue: cat,
    })
}

/// Reads and checks a battle file.
pub fn load(
    src: &crate::platform::sources::Sources,
    path: &std::path::Path,
    rules: &Rules,
    cat: &Catalogue,
) -> Result<BattleFile, FileError> {
    let text = crate::games::file_error::read(src, path, "battle file")?;
    parse(&path.display().to_string(), &text, rules, cat)
}

/// One `[[player.champion]]` table, checked (LA-1, LA-2, LA-11, LA-12, LA-18).
fn champion(
    cx: &FileCtx,
    cat: &mut Catalogue,
    rules: &Rules,
    cf: &ChampionFile,
    p: usize,
    k: usize,
    fielded: &Fielded,
) -> Result<Loadout, FileError> {
    let field = |x: &str| format!("player[{p}].champion[{k}].{x}");
    let class_at = Some(cf.class.span());
    let class = Class::parse(cf.class.get_ref()).ok_or_else(|| {
        cx.err(
            class_at.clone(),
            field("class"),
            format!("`{}`: gladiator, rogue, mage or healer", cf.class.get_ref()),
        )
    })?;
    if k == 1 && fielded[2 * p].class == class {
        return Err(cx.err(
            class_at,
            field("class"),
            format!(
                "a player has one {} (LA-1): field two different champions",
                class.name()
            ),
        ));
    }
    let cr = rules.class(class);
    let health = cf.health.as_ref().map_or(cr.health, |h| *h.get_ref());
    if !(1..=cr.health).contains(&health) {
        return Err(cx.err(
            cf.health.as_ref().map(|h| h.span()),
            field("health"),
            format!(
                "{health}: a fielded {} has 1 to {} health (the dead are not fielded)",
                class.name(),
                cr.health
            ),
        ));
    }
    let mut l = Loadout::bare(class, health, Policy::Random);
    l.max = cr.health;
    let none = Vec::new();
    let items = cf.items.as_ref().map_or(&none, |i| i.get_ref());
    let items_at = cf.items.as_ref().map(|i| i.span());
    if items.len() > rules.item_slots as usize {
        return Err(cx.err(
            items_at,
            field("items"),
            format!(
                "{} items: a champion carries {} (LA-18); armor goes in `armor`",
                items.len(),
                rules.item_slots
            ),
        ));
    }
    for (s, name) in items.iter().enumerate() {
        let i = item(cat, name).map_err(|m| cx.err(items_at.clone(), field("items"), m))?;
        if cat.items[i as usize].kind == Kind::Defensive {
            return Err(cx.err(
                items_at,
                field("items"),
                format!("`{name}` is armor: put it in `armor = \"{name}\"` (LA-18)"),
            ));
        }
        l.items[s] = i;
    }
    l.armor = NO_ITEM;
    if let Some(sa) = &cf.armor {
        let (a, at) = (sa.get_ref(), Some(sa.span()));
        let i = item(cat, a).map_err(|m| cx.err(at.clone(), field("armor"), m))?;
        let it = &cat.items[i as usize];
        let Some(w) = it.weight else {
            return Err(cx.err(
                at,
                field("armor"),
                format!("`{a}` is not armor: carry it in `items`"),
            ));
        };
        if cr.armor & w.bit() == 0 {
            return Err(cx.err(
                at,
                field("armor"),
                format!(
                    "a {} cannot wear {} armor (LA-18): choose a lighter one",
                    class.name(),
                    w.name()
                ),
            ));
        }
        l.armor = i;
    }
    l.policy = match (&cf.set, &cf.policy) {
        (Some(_), Some(p)) => {
            return Err(cx.err(
                Some(p.span()),
                field("policy"),
                "give a `set` or a `policy`, not both",
            ));
        }
        (Some(sl), None) => {
            let (lines, at) = (sl.get_ref(), Some(sl.span()));
            if lines.is_empty() || lines.len() > MAX_ROUNDS_PER_SET as usize {
                return Err(cx.err(
                    at,
                    field("set"),
                    format!(
                        "{} actions: a set has 1 to {MAX_ROUNDS_PER_SET} (one a round, LA-12)",
                        lines.len()
                    ),
                ));
            }
            let mut set = Set::EMPTY;
            set.len = lines.len() as u8;
            for (r, line) in lines.iter().enumerate() {
                let a = Action::parse(line).map_err(|m| {
                    cx.err(at.clone(), field("set"), format!("action {}: {m}", r + 1))
                })?;
                let refused = match a {
                    Action::Heal(_) if !cr.can_heal => Some("only Healers Heal (LA-11)"),
                    Action::Support if !cr.can_support => {
                        Some("this champion cannot Support (LA-12)")
                    }
                    _ => None,
                };
                if let Some(why) = refused {
                    return Err(cx.err(
                        at,
                        field("set"),
                        format!("action {} `{line}`: {why}; choose attack or evade", r + 1),
                    ));
                }
                set.actions[r] = a;
            }
            Policy::Fixed(set)
        }
        (None, Some(spec)) => Policy::parse(spec.get_ref())
            .map_err(|m| cx.err(Some(spec.span()), field("policy"), m))?,
        (None, None) => Policy::parse("medic").expect("a named policy"),
    };
    Ok(l)
}

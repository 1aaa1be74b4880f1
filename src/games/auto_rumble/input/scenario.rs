//! Scenario files: one battle a host writes by hand (`skirmish rumble play FILE.toml`).
//!
//! ```toml
//! [battle]            # optional
//! max_rounds = 30
//! seed = 7            # only for base initiatives not given below (AR-19)
//! capacity = 4096
//! [[hero]]
//! name = "Bob"
//! coins = 10
//! base_initiative = 0.75
//! powers = ["Crystallize", "Amoeba", { name = "Cosmic Shield", strength = 5 }]
//! order = ["Attack", "Crystallize"]
//! ```
//!
//! Every error names the file, the line and column, the field and the fix.

use crate::error::Error;
use std::path::Path;

use serde::Deserialize;
use toml::Spanned;

use crate::games::auto_rumble::input::roster::{
    HeldPower, HeroSpec, Lineup, RosterError, TeamBuild, UseItem, default_order,
};
use crate::games::auto_rumble::powers::catalogue::{self, Catalogue, Held, Loadout, PowerId, Use};
use crate::games::auto_rumble::powers::sample::Power;
use crate::games::auto_rumble::rules;

/// Largest capacity a file may ask for (three tables of ~23 bytes per slot: about 70 MB).
pub const MAX_CAPACITY: usize = 1 << 20;
/// Most heroes a scenario lists: each is a team, and teams are numbered in 16 bits.
pub const MAX_HEROES: usize = u16::MAX as usize;
/// Largest round limit a file may ask for.
pub const MAX_ROUNDS: u32 = 100_000;

/// Checks a run's round limit and hero capacity (AR-14, AR-15) against the largest roster it
/// draws; `[rounds, capacity]` are the names its messages give them (a flag or a setting).
pub fn check_limits(
    max_rounds: u32,
    capacity: u32,
    largest: u8,
    [rounds, cap]: [&str; 2],
) -> Result<(), Error> {
    if max_rounds == 0 || max_rounds > MAX_ROUNDS {
        return Err(Error::Input(format!(
            "{rounds}: {max_rounds} is outside 1..{MAX_ROUNDS}"
        )));
    }
    if (capacity as usize) < largest as usize || capacity as usize > MAX_CAPACITY {
        return Err(Error::Input(format!(
            "{cap}: {capacity} must hold the largest roster ({largest} heroes) and be at most {MAX_CAPACITY} (AR-15)"
        )));
    }
    Ok(())
}

/// A battle ready to play.
#[derive(Clone, Debug, PartialEq)]
pub struct Scenario {
    pub heroes: Vec<HeroSpec>,
    pub max_rounds: u32,
    pub seed: u64,
    pub capacity: usize,
}

impl Scenario {
    pub fn lineup(&self) -> Lineup {
        Lineup::compile(&self.heroes).expect("a loaded scenario is already validated")
    }
}

/// A battle whose heroes hold powers from a loaded catalogue (`--powers FILE`).
#[derive(Clone, Debug, PartialEq)]
pub struct DataScenario {
    pub heroes: Vec<DataHero>,
    pub max_rounds: u32,
    pub seed: u64,
    pub capacity: usize,
}

/// A hero of a [`DataScenario`]: its compiled loadout.
#[derive(Clone, Debug, PartialEq)]
pub struct DataHero {
    pub name: String,
    /// In [0, 1); drawn from the match's initiative stream when absent (AR-19).
    pub base_initiative: Option<f64>,
    pub loadout: Loadout,
}

impl DataScenario {
    /// Initiatives (AR-2), drawing missing base initiatives from `rng` in roster order (AR-19).
    pub fn initiatives(&self, rng: &mut crate::rng::MatchRng) -> Vec<f64> {
        self.heroes
            .iter()
            .map(|h| {
                let base = h
                    .base_initiative
                    .unwrap_or_else(|| crate::rng::unit_f64(rng));
                rules::initiative(h.loadout.coins, base)
            })
            .collect()
    }
}

/// A problem in the file, positioned (see [`crate::games::file_error`]).
pub type ScenarioError = crate::games::file_error::FileError;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileDoc {
    battle: Option<BattleDoc>,
    hero: Option<Vec<HeroDoc>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct BattleDoc {
    max_rounds: Option<Spanned<i64>>,
    seed: Option<Spanned<i64>>,
    capacity: Option<Spanned<i64>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct HeroDoc {
    name: Spanned<String>,
    coins: Spanned<i64>,
    base_initiative: Option<Spanned<toml::Value>>,
    #[serde(default)]
    powers: Vec<Spanned<toml::Value>>,
    order: Option<Vec<Spanned<String>>>,
}

type Ctx<'a> = crate::games::file_error::FileCtx<'a>;

/// Reads and validates a scenario file.
pub fn load(
    src: &crate::platform::sources::Sources,
    path: &Path,
) -> Result<Scenario, ScenarioError> {
    let file = path.display().to_string();
    let text = crate::games::file_error::read(src, path, "scenario file")?;
    parse(&text, &file)
}

/// Parses and validates scenario text; `file` labels errors.
pub fn parse(text: &str, file: &str) -> Result<Scenario, ScenarioError> {
    let cx = Ctx { file, text };
    let (battle, docs) = battle_and_heroes(&cx)?;
    let mut heroes: Vec<HeroSpec> = Vec::new();
    for (i, h) in docs.iter().enumerate() {
        let names: Vec<&str> = heroes.iter().map(|e| e.name.as_str()).collect();
        let d = draft(&cx, i, h, &names, &SamplePowers)?;
        heroes.push(sample_hero(&cx, i, h, d)?);
    }
    Ok(Scenario {
        heroes,
        max_rounds: battle.0,
        seed: battle.1,
        capacity: battle.2,
    })
}

/// Parses a scenario whose power names come from `cat` (`rumble play --powers FILE`).
pub fn parse_with(text: &str, file: &str, cat: &Catalogue) -> Result<DataScenario, ScenarioError> {
    let cx = Ctx { file, text };
    let (battle, docs) = battle_and_heroes(&cx)?;
    let mut heroes: Vec<DataHero> = Vec::new();
    for (i, h) in docs.iter().enumerate() {
        let names: Vec<&str> = heroes.iter().map(|e| e.name.as_str()).collect();
        let d = draft(&cx, i, h, &names, &CataloguePowers(cat))?;
        let held: Vec<Held> = d
            .powers
            .iter()
            .map(|&(power, strength)| Held { power, strength })
            .collect();
        let order = match &d.order {
            None => catalogue::default_order(cat, &held),
            Some(o) => o
                .iter()
                .map(|u| u.map_or(Use::Attack, Use::Power))
                .collect(),
        };
        let loadout = Loadout::compile(cat, d.coins, &held, &order).map_err(|e| {
            let span = h.order.as_ref().and_then(|o| o.first()).map(|s| s.span());
            cx.err(span, format!("hero[{i}].order"), e.to_string())
        })?;
        heroes.push(DataHero {
            name: d.name,
            base_initiative: d.base_initiative,
            loadout,
        });
    }
    Ok(DataScenario {
        heroes,
        max_rounds: battle.0,
        seed: battle.1,
        capacity: battle.2,
    })
}

/// Loads a scenario file whose power names come from `cat`.
pub fn load_with(
    src: &crate::platform::sources::Sources,
    path: &Path,
    cat: &Catalogue,
) -> Result<DataScenario, ScenarioError> {
    let file = path.display().to_string();
    let text = crate::games::file_error::read(src, path, "scenario file")?;
    parse_with(&text, &file, cat)
}

/// `[battle]` (max rounds, seed, capacity) and the hero tables, checked.
#[allow(clippy::type_complexity)]
fn battle_and_heroes(cx: &Ctx<'_>) -> Result<((u32, u64, usize), Vec<HeroDoc>), ScenarioError> {
    let text = cx.text;
    let doc: FileDoc = toml::from_str(text).map_err(|e| {
        let message = e.message().trim().to_string();
        let hint = syntax_hint(&message);
        cx.err(e.span(), "", format!("{message}{hint}"))
    })?;

    let mut max_rounds = rules::DEFAULT_MAX_ROUNDS;
    let mut seed = 0u64;
    let mut capacity = rules::DEFAULT_CAPACITY;
    if let Some(b) = &doc.battle {
        if let Some(m) = &b.max_rounds {
            if !(1..=MAX_ROUNDS as i64).contains(m.get_ref()) {
                return Err(cx.err(
                    Some(m.span()),
                    "battle.max_rounds",
                    format!(
                        "{} is out of range: use 1..={MAX_ROUNDS} (AR-14)",
                        m.get_ref()
                    ),
                ));
            }
            max_rounds = *m.get_ref() as u32;
        }
        if let Some(s) = &b.seed {
            if *s.get_ref() < 0 {
                return Err(cx.err(
                    Some(s.span()),
                    "battle.seed",
                    "seeds are 0 or more: use e.g. `seed = 7`",
                ));
            }
            seed = *s.get_ref() as u64;
        }
        if let Some(c) = &b.capacity {
            if !(1..=MAX_CAPACITY as i64).contains(c.get_ref()) {
                return Err(cx.err(
                    Some(c.span()),
                    "battle.capacity",
                    format!(
                        "{} is out of range: use 1..={MAX_CAPACITY} (AR-15)",
                        c.get_ref()
                    ),
                ));
            }
            capacity = *c.get_ref() as usize;
        }
    }

    let docs = doc.hero.unwrap_or_default();
    if docs.len() < 2 {
        return Err(cx.err(None, "hero", format!("a battle needs at least 2 heroes; found {}: add `[[hero]]` tables with `name` and `coins`", docs.len())));
    }
    // The kernels number teams in 16 bits; a capacity above that is for copies, not heroes.
    if docs.len() > MAX_HEROES {
        return Err(cx.err(
            None,
            "hero",
            format!(
                "{} heroes are listed: a scenario holds at most {MAX_HEROES} (one team each, team ids are 16-bit); list fewer",
                docs.len()
            ),
        ));
    }
    if docs.len() > capacity {
        return Err(cx.err(
            None,
            "battle.capacity",
            format!(
                "{capacity} is smaller than the {} heroes listed: raise `capacity` (AR-15)",
                docs.len()
            ),
        ));
    }
    Ok(((max_rounds, seed, capacity), docs))
}

/// How a scenario's power names become powers: the hand-written six, or a loaded catalogue.
trait PowerNames {
    type Power: Copy + PartialEq;
    fn lookup(&self, name: &str) -> Result<Self::Power, Error>;
    fn name(&self, p: Self::Power) -> String;
}

struct SamplePowers;

impl PowerNames for SamplePowers {
    type Power = Power;
    fn lookup(&self, name: &str) -> Result<Power, Error> {
        lookup_power(name)
    }
    fn name(&self, p: Power) -> String {
        p.name().to_string()
    }
}

struct CataloguePowers<'a>(&'a Catalogue);

impl PowerNames for CataloguePowers<'_> {
    type Power = PowerId;
    fn lookup(&self, name: &str) -> Result<PowerId, Error> {
        self.0.id(name).ok_or_else(|| {
            Error::Input(match self.0.closest(name) {
                Some(p) => format!("unknown power `{name}` in the power file; did you mean `{p}`?"),
                None => format!(
                    "unknown power `{name}`: it is not in the power file (`skirmish rumble powers FILE` lists them)"
                ),
            })
        })
    }
    fn name(&self, p: PowerId) -> String {
        self.0.name(p).to_string()
    }
}

/// A hero as written, its power names resolved; the use order's `None` is the attack.
struct Draft<P> {
    name: String,
    coins: i32,
    base_initiative: Option<f64>,
    powers: Vec<(P, i32)>,
    order: Option<Vec<Option<P>>>,
}

/// A hero of the hand-written six, checked as the kernel will compile it (AR-17).
fn sample_hero(
    cx: &Ctx<'_>,
    i: usize,
    h: &HeroDoc,
    d: Draft<Power>,
) -> Result<HeroSpec, ScenarioError> {
    let powers: Vec<HeldPower> = d
        .powers
        .iter()
        .map(|&(power, strength)| HeldPower { power, strength })
        .collect();
    let order = match &d.order {
        None => default_order(&powers),
        Some(o) => o
            .iter()
            .map(|u| u.map_or(UseItem::Attack, UseItem::Power))
            .collect(),
    };
    let spec = HeroSpec {
        name: d.name,
        coins: d.coins,
        base_initiative: d.base_initiative,
        powers,
        order,
    };
    if let Err(e) = TeamBuild::compile(&spec) {
        let span = h.order.as_ref().and_then(|o| o.first()).map(|s| s.span());
        return Err(cx.err(span, format!("hero[{i}].order"), e.to_string()));
    }
    Ok(spec)
}

fn draft<N: PowerNames>(
    cx: &Ctx<'_>,
    i: usize,
    h: &HeroDoc,
    earlier: &[&str],
    names: &N,
) -> Result<Draft<N::Power>, ScenarioError> {
    let at = |field: &str| format!("hero[{i}].{field}");
    let name = h.name.get_ref().trim().to_string();
    if name.is_empty() {
        return Err(cx.err(
            Some(h.name.span()),
            at("name"),
            "a hero needs a non-empty name: it names the team (AR-1)",
        ));
    }
    if earlier.contains(&name.as_str()) {
        return Err(cx.err(Some(h.name.span()), at("name"), format!("`{name}` is used by an earlier hero: give every hero its own name (it names the team)")));
    }
    let coins = *h.coins.get_ref();
    if coins.unsigned_abs() > rules::MAX_ABS_COINS as u64 {
        return Err(cx.err(
            Some(h.coins.span()),
            at("coins"),
            RosterError::CoinsOutOfRange(coins).to_string(),
        ));
    }
    let base_initiative = match &h.base_initiative {
        None => None,
        Some(v) => {
            let x =
                match v.get_ref() {
                    toml::Value::Float(x) => *x,
                    toml::Value::Integer(n) => *n as f64,
                    other => return Err(cx.err(
                        Some(v.span()),
                        at("base_initiative"),
                        format!(
                            "expected a number in [0, 1), found {}: e.g. `base_initiative = 0.5`",
                            other.type_str()
                        ),
                    )),
                };
            if !(0.0..1.0).contains(&x) {
                return Err(cx.err(
                    Some(v.span()),
                    at("base_initiative"),
                    RosterError::BaseInitiativeOutOfRange(x).to_string(),
                ));
            }
            Some(x)
        }
    };

    let mut powers: Vec<(N::Power, i32)> = Vec::new();
    for (k, p) in h.powers.iter().enumerate() {
        let field = at(&format!("powers[{k}]"));
        let (pname, strength) = match p.get_ref() {
            toml::Value::String(s) => (s.clone(), 0),
            toml::Value::Table(t) => {
                if let Some(extra) = t.keys().find(|k| *k != "name" && *k != "strength") {
                    return Err(cx.err(Some(p.span()), field, format!("unknown key `{extra}` in a power entry: use `{{ name = \"...\", strength = N }}`")));
                }
                let Some(toml::Value::String(s)) = t.get("name") else {
                    return Err(cx.err(Some(p.span()), field, "a power entry needs `name = \"...\"`, e.g. `{ name = \"Amoeba\", strength = 5 }`"));
                };
                let strength = match t.get("strength") {
                    None => 0,
                    Some(toml::Value::Integer(n)) if (0..=i32::MAX as i64).contains(n) => *n as i32,
                    Some(v) => {
                        return Err(cx.err(
                            Some(p.span()),
                            format!("{field}.strength"),
                            format!("expected a whole number of coins >= 0, found `{v}`"),
                        ));
                    }
                };
                (s.clone(), strength)
            }
            other => {
                return Err(cx.err(
                    Some(p.span()),
                    field,
                    format!(
                        "expected a power name or `{{ name = \"...\", strength = N }}`, found {}",
                        other.type_str()
                    ),
                ));
            }
        };
        let power = names
            .lookup(&pname)
            .map_err(|m| cx.err(Some(p.span()), field.clone(), m))?;
        if powers.iter().any(|q| q.0 == power) {
            return Err(cx.err(
                Some(p.span()),
                field,
                format!(
                    "holds `{}` twice; a hero holds each power once (AR-17): remove the second entry",
                    names.name(power)
                ),
            ));
        }
        powers.push((power, strength));
    }

    let order = match &h.order {
        None => None,
        Some(items) => {
            let mut order = Vec::new();
            for (k, item) in items.iter().enumerate() {
                let s = item.get_ref();
                let u = if s.trim().eq_ignore_ascii_case("attack") {
                    None
                } else {
                    Some(names.lookup(s).map_err(|m| {
                        cx.err(
                            Some(item.span()),
                            at(&format!("order[{k}]")),
                            format!("{m}, or `Attack`"),
                        )
                    })?)
                };
                order.push(u);
            }
            Some(order)
        }
    };
    Ok(Draft {
        name,
        coins: coins as i32,
        base_initiative,
        powers,
        order,
    })
}

fn lookup_power(name: &str) -> Result<Power, Error> {
    Power::from_name(name).ok_or_else(|| {
        let known: Vec<&str> = Power::ALL.iter().map(|p| p.name()).collect();
        Error::Input(match Power::closest(name) {
            Some(p) => format!("unknown power `{name}`; did you mean `{p}`?"),
            None => format!("unknown power `{name}`; known powers: {}", known.join(", ")),
        })
    })
}

fn syntax_hint(message: &str) -> &'static str {
    if message.contains("missing field `coins`") {
        "; every [[hero]] needs `coins = N` (its unspent balance after bidding)"
    } else if message.contains("missing field `name`") {
        "; every [[hero]] needs `name = \"...\"`"
    } else if message.contains("unknown field") {
        "; check the spelling against the scenario format in docs/auto-rumble.md"
    } else {
        ""
    }
}

#[cfg(test)]
mod tests {
    // Issue 53: 65,536 heroes passed `check` and panicked in `play` ("team ids are 16-bit").
    #[test]
    fn more_heroes_than_16_bit_team_ids_are_refused_at_load() {
        let heroes = |n: usize| {
            let mut t = String::from("[battle]\ncapacity = 1000000\n");
            for k in 0..n {
                t.push_str(&format!("[[hero]]\nname = \"h{k}\"\ncoins = 1\n"));
            }
            t
        };
        let err = super::parse(&heroes(super::MAX_HEROES + 1), "big.toml").unwrap_err();
        assert!(err.to_string().contains("at most 65535"), "{err}");
        assert!(super::parse(&heroes(super::MAX_HEROES), "big.toml").is_ok());
    }

    use super::*;

    const TWO: &str = "[[hero]]\nname = \"A\"\ncoins = 0\n[[hero]]\nname = \"B\"\ncoins = 3\n";

    #[test]
    fn minimal_file_gets_the_defaults() {
        let s = parse(TWO, "t.toml").unwrap();
        assert_eq!((s.max_rounds, s.seed, s.capacity), (30, 0, 4096));
        assert_eq!(s.heroes[1].coins, 3);
        assert_eq!(s.heroes[0].order, vec![UseItem::Attack]);
    }

    #[test]
    fn unknown_power_names_file_line_field_and_suggestion() {
        let text = format!("{TWO}powers = [\"Crystalize\"]\n");
        let e = parse(&text, "x.toml").unwrap_err();
        assert_eq!(e.at, Some((7, 11)));
        assert_eq!(e.field, "hero[1].powers[0]");
        assert!(e.to_string().starts_with("x.toml:7:11: `hero[1].powers[0]`: unknown power `Crystalize`; did you mean `Crystallize`?"), "{e}");
    }

    #[test]
    fn missing_coins_is_reported_with_the_fix() {
        let e = parse(
            "[[hero]]\nname = \"A\"\n[[hero]]\nname = \"B\"\ncoins = 1\n",
            "m.toml",
        )
        .unwrap_err();
        assert!(
            e.message.contains("missing field `coins`") && e.message.contains("coins = N"),
            "{e}"
        );
        assert_eq!(e.at.map(|a| a.0), Some(1));
    }

    #[test]
    fn wrong_type_and_unknown_keys_are_rejected() {
        let e = parse("[[hero]]\nname = \"A\"\ncoins = \"ten\"\n", "w.toml").unwrap_err();
        assert!(e.message.contains("invalid type"), "{e}");
        let e = parse(&format!("{TWO}colour = 3\n"), "u.toml").unwrap_err();
        assert!(e.message.contains("unknown field `colour`"), "{e}");
        let e = parse(&format!("[battle]\nmax_round = 3\n{TWO}"), "u.toml").unwrap_err();
        assert!(e.message.contains("unknown field `max_round`"), "{e}");
    }

    #[test]
    fn impossible_settings_are_rejected() {
        let e = parse(&format!("[battle]\nmax_rounds = 0\n{TWO}"), "s.toml").unwrap_err();
        assert_eq!(e.field, "battle.max_rounds");
        let e = parse(&format!("[battle]\ncapacity = 1\n{TWO}"), "s.toml").unwrap_err();
        assert_eq!(e.field, "battle.capacity");
        let e = parse("[[hero]]\nname = \"A\"\ncoins = 0\n", "s.toml").unwrap_err();
        assert!(e.message.contains("at least 2 heroes"));
        let e = parse(&format!("{TWO}base_initiative = 1.0\n"), "s.toml").unwrap_err();
        assert_eq!(e.field, "hero[1].base_initiative");
        let e = parse(
            "[[hero]]\nname = \"A\"\ncoins = 0\n[[hero]]\nname = \"A\"\ncoins = 0\n",
            "s.toml",
        )
        .unwrap_err();
        assert!(e.message.contains("earlier hero"));
    }

    // AR-17 through the file format.
    #[test]
    fn use_order_naming_a_triggered_power_is_rejected_with_the_fix() {
        let text = format!("{TWO}powers = [\"Amoeba\"]\norder = [\"Attack\", \"Amoeba\"]\n");
        let e = parse(&text, "o.toml").unwrap_err();
        assert_eq!(e.field, "hero[1].order");
        assert!(e.message.contains("not a Spend power"), "{e}");
    }

    #[test]
    fn powers_may_carry_a_strength() {
        let text =
            format!("{TWO}powers = [{{ name = \"Amoeba\", strength = 5 }}, \"souleater\"]\n");
        let s = parse(&text, "p.toml").unwrap();
        assert_eq!(
            s.heroes[1].powers,
            vec![
                HeldPower {
                    power: Power::Amoeba,
                    strength: 5
                },
                HeldPower {
                    power: Power::Souleater,
                    strength: 0
                },
            ]
        );
    }
}

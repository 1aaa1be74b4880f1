//! Scenario files: one battle a host writes by hand (`skirmish rumble battle FILE.toml`).
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

use std::path::Path;

use serde::Deserialize;
use toml::Spanned;

use super::powers::Power;
use super::roster::{HeldPower, HeroSpec, Lineup, RosterError, TeamBuild, UseItem, default_order};
use super::rules;

/// Largest capacity a file may ask for (three tables of ~23 bytes per slot: about 70 MB).
pub const MAX_CAPACITY: usize = 1 << 20;
/// Largest round limit a file may ask for.
pub const MAX_ROUNDS: u32 = 100_000;

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
pub fn load(path: &Path) -> Result<Scenario, ScenarioError> {
    let file = path.display().to_string();
    let text = crate::games::file_error::read(path, "scenario file")?;
    parse(&text, &file)
}

/// Parses and validates scenario text; `file` labels errors.
pub fn parse(text: &str, file: &str) -> Result<Scenario, ScenarioError> {
    let cx = Ctx { file, text };
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
    let mut heroes: Vec<HeroSpec> = Vec::new();
    for (i, h) in docs.iter().enumerate() {
        heroes.push(hero(&cx, i, h, &heroes)?);
    }
    Ok(Scenario {
        heroes,
        max_rounds,
        seed,
        capacity,
    })
}

fn hero(
    cx: &Ctx<'_>,
    i: usize,
    h: &HeroDoc,
    earlier: &[HeroSpec],
) -> Result<HeroSpec, ScenarioError> {
    let at = |field: &str| format!("hero[{i}].{field}");
    let name = h.name.get_ref().trim().to_string();
    if name.is_empty() {
        return Err(cx.err(
            Some(h.name.span()),
            at("name"),
            "a hero needs a non-empty name: it names the team (AR-1)",
        ));
    }
    if earlier.iter().any(|e| e.name == name) {
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

    let mut powers: Vec<HeldPower> = Vec::new();
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
        let power = lookup_power(&pname).map_err(|m| cx.err(Some(p.span()), field.clone(), m))?;
        if powers.iter().any(|q| q.power == power) {
            return Err(cx.err(
                Some(p.span()),
                field,
                RosterError::DuplicatePower(power).to_string(),
            ));
        }
        powers.push(HeldPower { power, strength });
    }

    let order = match &h.order {
        None => default_order(&powers),
        Some(items) => {
            let mut order = Vec::new();
            for (k, item) in items.iter().enumerate() {
                let s = item.get_ref();
                let u = if s.trim().eq_ignore_ascii_case("attack") {
                    UseItem::Attack
                } else {
                    UseItem::Power(lookup_power(s).map_err(|m| {
                        cx.err(
                            Some(item.span()),
                            at(&format!("order[{k}]")),
                            format!("{m}, or `Attack`"),
                        )
                    })?)
                };
                order.push(u);
            }
            order
        }
    };
    let spec = HeroSpec {
        name,
        coins: coins as i32,
        base_initiative,
        powers,
        order,
    };
    if let Err(e) = TeamBuild::compile(&spec) {
        let span = h.order.as_ref().and_then(|o| o.first()).map(|s| s.span());
        return Err(cx.err(span, at("order"), e.to_string()));
    }
    Ok(spec)
}

fn lookup_power(name: &str) -> Result<Power, String> {
    Power::from_name(name).ok_or_else(|| {
        let known: Vec<&str> = Power::ALL.iter().map(|p| p.name()).collect();
        match Power::closest(name) {
            Some(p) => format!("unknown power `{name}`; did you mean `{p}`?"),
            None => format!("unknown power `{name}`; known powers: {}", known.join(", ")),
        }
    })
}

fn syntax_hint(message: &str) -> &'static str {
    if message.contains("missing field `coins`") {
        "; every [[hero]] needs `coins = N` (its unspent balance after bidding)"
    } else if message.contains("missing field `name`") {
        "; every [[hero]] needs `name = \"...\"`"
    } else if message.contains("unknown field") {
        "; check the spelling against the scenario format in README.md"
    } else {
        ""
    }
}

#[cfg(test)]
mod tests {
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

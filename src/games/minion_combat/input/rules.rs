//! Rules files (TOML): any number or reading of `rules::Rules`, the rest from the seed. The
//! shipped `experiments/minion-combat/rules.toml` writes every key with its default.

use crate::error::Error;
use std::collections::BTreeMap;

use serde::Deserialize;

use crate::games::file_error::{FileCtx, FileError};
use crate::games::minion_combat::rules::{
    Attack, BothAttacks, Estimate, MAX_ROUNDS, Nation, Rules, WisePer,
};

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct File {
    rounds: Option<u32>,
    missile_round_modifier: Option<i32>,
    level_min: Option<i32>,
    level_max: Option<i32>,
    estimate: Option<String>,
    wise_per: Option<String>,
    both_attacks: Option<String>,
    experience_once: Option<bool>,
    #[serde(default)]
    nation: BTreeMap<String, String>,
}

/// "+1 hand in round 2", "-1 missile in round 1" or "none".
pub fn parse_bonus(s: &str) -> Result<Option<(Attack, u32, i32)>, Error> {
    let t = s.trim().to_ascii_lowercase();
    if t == "none" {
        return Ok(None);
    }
    let bad = || {
        Error::Input(format!(
            "`{s}`: write \"+N hand in round R\", \"+N missile in round R\" or \"none\""
        ))
    };
    let w: Vec<&str> = t.split_whitespace().collect();
    if w.len() != 5 || w[2] != "in" || w[3] != "round" {
        return Err(bad());
    }
    let amount: i32 = w[0].parse().map_err(|_| bad())?;
    let attack = match w[1] {
        "hand" => Attack::Hand,
        "missile" => Attack::Missile,
        _ => return Err(bad()),
    };
    if !(-1000..=1000).contains(&amount) {
        return Err(Error::Input(format!(
            "`{s}`: {amount} more damage: keep it within -1000..1000"
        )));
    }
    let round: u32 = w[4].parse().map_err(|_| bad())?;
    if round == 0 || round > MAX_ROUNDS {
        return Err(Error::Input(format!(
            "`{s}`: round {round} is not a combat round (1-{MAX_ROUNDS})"
        )));
    }
    Ok(Some((attack, round, amount)))
}

/// Parses and checks a rules file; `file` names it in errors.
pub fn parse(file: &str, text: &str) -> Result<Rules, FileError> {
    let cx = FileCtx { file, text };
    let f: File = cx.toml(super::FORMAT)?;
    let mut r = Rules::default();
    if let Some(v) = f.rounds {
        if v == 0 || v > MAX_ROUNDS {
            return Err(cx.err(
                None,
                "rounds",
                format!("{v}: a combat has 1 to {MAX_ROUNDS} rounds (the seed's is 10)"),
            ));
        }
        r.rounds = v;
    }
    if let Some(v) = f.missile_round_modifier {
        if !(-1000..=1000).contains(&v) {
            return Err(cx.err(
                None,
                "missile_round_modifier",
                format!("{v}: keep it within -1000..1000 (the seed's is -1)"),
            ));
        }
        r.missile_round_modifier = v;
    }
    r.level_min = f.level_min.unwrap_or(r.level_min);
    r.level_max = f.level_max.unwrap_or(r.level_max);
    if r.level_min > r.level_max || r.level_min < -100 || r.level_max > 100 {
        return Err(cx.err(None, "level_max", format!("levels {}..{}: the lowest must not exceed the highest, both within -100..100 (the seed's are 0 and 5)", r.level_min, r.level_max)));
    }
    if let Some(v) = &f.estimate {
        r.estimate = match v.as_str() {
            "group" => Estimate::Group,
            "own" => Estimate::Own,
            "off" => Estimate::Off,
            _ => return Err(cx.err(None, "estimate", format!("`{v}`: group, own or off"))),
        };
    }
    if let Some(v) = &f.wise_per {
        r.wise_per = match v.as_str() {
            "round" => WisePer::Round,
            "attack" => WisePer::Attack,
            _ => return Err(cx.err(None, "wise_per", format!("`{v}`: round or attack"))),
        };
    }
    if let Some(v) = &f.both_attacks {
        r.both_attacks = match v.as_str() {
            "missile" => BothAttacks::Missile,
            "hand" => BothAttacks::Hand,
            _ => return Err(cx.err(None, "both_attacks", format!("`{v}`: missile or hand"))),
        };
    }
    r.experience_once = f.experience_once.unwrap_or(r.experience_once);
    for (name, bonus) in &f.nation {
        let b = parse_bonus(bonus).map_err(|m| cx.err(None, format!("nation.{name}"), m))?;
        if b.is_some_and(|(_, round, _)| round > r.rounds) {
            return Err(cx.err(
                None,
                format!("nation.{name}"),
                format!("`{bonus}`: the combat has only {} rounds", r.rounds),
            ));
        }
        match r.nation(name) {
            Some(i) => r.nations[i].bonus = b,
            None => r.nations.push(Nation {
                name: name.clone(),
                bonus: b,
            }),
        }
    }
    Ok(r)
}

/// The rules a `--rules` flag names, or the shipped defaults.
pub fn from_flag(
    src: &crate::platform::sources::Sources,
    path: Option<&std::path::Path>,
) -> Result<Rules, Error> {
    let (file, text) = super::read(
        src,
        path,
        ("experiments/minion-combat/rules.toml", super::RULES),
    )?;
    parse(&file, &text).map_err(Error::from)
}

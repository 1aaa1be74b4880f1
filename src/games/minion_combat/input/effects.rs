//! The effects file (`effects.toml`, MC-41): `[[status]]` tables (Gaze, Karillian Venom) and
//! `[[effect]]` clauses, each carried by a catalogue tag, a modifier or a status:
//!
//! ```toml
//! [[effect]]
//! source = "missile_taken_-2_before_armor"   # the Skeleton's tag
//! when = "is_hit"
//! attack = "missile"
//! do = "taken"
//! amount = -2
//! ```

use serde::Deserialize;

use crate::games::file_error::{FileCtx, FileError};
use crate::games::minion_combat::effects::{
    AGAINSTS, Against, Clause, Delta, Do, Effects, Status, TOS, To, WHENS, When,
};
use crate::games::minion_combat::input::MAX_STAT;
use crate::games::minion_combat::rules::{Attack, MAX_ROUNDS};
use crate::games::minion_combat::state::{Modifier, Stats};
use crate::names::normalise;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct EffectsFile {
    #[serde(default)]
    status: Vec<StatusFile>,
    #[serde(default)]
    effect: Vec<ClauseFile>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct StatusFile {
    name: String,
    kills_at: Option<u32>,
    rounds: Option<u32>,
    #[serde(default)]
    note: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ClauseFile {
    source: String,
    #[serde(default)]
    when: Option<String>,
    #[serde(default)]
    to: Option<String>,
    #[serde(rename = "do")]
    effect: String,
    round: Option<u32>,
    attack: Option<String>,
    against: Option<String>,
    amount: Option<i32>,
    #[serde(default)]
    hand: i32,
    #[serde(default)]
    missile: i32,
    #[serde(default)]
    armor: i32,
    #[serde(default)]
    level: i32,
    #[serde(default)]
    attacks: i32,
    status: Option<String>,
    nation: Option<String>,
    numbers: Option<bool>,
    grows: Option<bool>,
    #[serde(default)]
    note: String,
}

/// Where `DOS` turns from what happens at a point to standing traits of the holder.
const STANDING: usize = 10;

/// What `do` may say: ten happenings (or standing changes of others), then the standing
/// traits of the holder.
pub const DOS: [&str; 20] = [
    "stats",
    "taken",
    "block",
    "damage",
    "kill",
    "withdraw",
    "max_hp",
    "no_damage",
    "heal",
    "give",
    "compel",
    "redirect",
    "quasi_immune",
    "ignores_armor",
    "magical",
    "heals_instead",
    "attack_level",
    "level_is",
    "nation",
    "printed",
];

fn word<T: Copy>(list: &[(&str, T)], v: &str) -> Option<T> {
    list.iter().find(|(w, _)| *w == v.trim()).map(|(_, t)| *t)
}

fn names<T>(list: &[(&str, T)]) -> String {
    list.iter().map(|(w, _)| *w).collect::<Vec<_>>().join(", ")
}

/// `a`'s index among the nations the file names (added at its first mention), if some
/// catalogue minion is of it.
fn nation_word(nations: &mut Vec<String>, known: &[String], a: &str) -> Option<u16> {
    let same = |n: &String| normalise(n) == normalise(a);
    if !known.iter().any(same) {
        return None;
    }
    let i = match nations.iter().position(same) {
        Some(i) => i,
        None => {
            nations.push(a.trim().to_string());
            nations.len() - 1
        }
    };
    u16::try_from(i).ok()
}

/// Parses and checks an effects file against the catalogue's tags and modifiers; `file` names
/// it in errors.
pub fn parse(
    file: &str,
    text: &str,
    minions: &[Stats],
    modifiers: &[Modifier],
) -> Result<Effects, FileError> {
    let cx = FileCtx { file, text };
    let f: EffectsFile = cx.toml(super::FORMAT)?;
    let mut statuses: Vec<Status> = Vec::new();
    for (i, s) in f.status.iter().enumerate() {
        let field = |k: &str| format!("status[{i}].{k}");
        let name = s.name.trim().to_string();
        if normalise(&name).is_empty() {
            return Err(cx.err(None, field("name"), "an empty name: name the status"));
        }
        if statuses
            .iter()
            .any(|x| normalise(&x.name) == normalise(&name))
        {
            return Err(cx.err(
                None,
                field("name"),
                format!("`{name}` is declared twice: give each status its own name"),
            ));
        }
        if s.kills_at == Some(0) {
            return Err(cx.err(
                None,
                field("kills_at"),
                "0: write how many stacks kill (1 or more), or leave it out",
            ));
        }
        if let Some(g) = s.rounds
            && !(1..=MAX_ROUNDS).contains(&g)
        {
            return Err(cx.err(
                None,
                field("rounds"),
                format!("{g}: how many rounds after the one it is given in, from 1 to {MAX_ROUNDS}; leave it out for the whole combat"),
            ));
        }
        let _ = &s.note;
        statuses.push(Status {
            name,
            kills_at: s.kills_at,
            rounds: s.rounds,
            clauses: Vec::new(),
        });
    }
    let mut sources: Vec<String> = Vec::new();
    for m in minions {
        for t in &m.tags {
            if !sources.contains(t) {
                sources.push(t.clone());
            }
        }
    }
    sources.extend(modifiers.iter().map(|m| m.name.clone()));
    sources.extend(statuses.iter().map(|s| s.name.clone()));
    let mut clauses: Vec<Clause> = Vec::new();
    let mut numbers_off: Vec<String> = Vec::new();
    let mut nations: Vec<String> = Vec::new();
    let mut known_nations: Vec<String> = Vec::new();
    for m in minions {
        let n = m.nation.trim();
        if !n.is_empty()
            && n != "random"
            && !known_nations.iter().any(|k| normalise(k) == normalise(n))
        {
            known_nations.push(n.to_string());
        }
    }
    for (i, c) in f.effect.iter().enumerate() {
        let field = |k: &str| format!("effect[{i}].{k}");
        let err = |k: &str, m: String| cx.err(None, field(k), m);
        // A source no catalogue minion carries is kept: the effects file serves any catalogue
        // (`minions check` lists such sources).
        let source = sources
            .iter()
            .find(|s| normalise(s) == normalise(&c.source))
            .cloned()
            .unwrap_or_else(|| c.source.trim().to_string());
        if normalise(&source).is_empty() {
            return Err(err(
                "source",
                "an empty source: name a catalogue tag, a modifier or a [[status]]".into(),
            ));
        }
        let of_status = statuses
            .iter()
            .position(|s| normalise(&s.name) == normalise(&source));
        let when = match &c.when {
            None => When::Always,
            Some(w) => word(&WHENS, w)
                .ok_or_else(|| err("when", format!("`{w}`: one of {}", names(&WHENS))))?,
        };
        let to = match &c.to {
            None => To::Me,
            Some(t) => {
                word(&TOS, t).ok_or_else(|| err("to", format!("`{t}`: one of {}", names(&TOS))))?
            }
        };
        let attack = match c.attack.as_deref() {
            None => None,
            Some("hand") => Some(Attack::Hand),
            Some("missile") => Some(Attack::Missile),
            Some(a) => return Err(err("attack", format!("`{a}`: hand or missile"))),
        };
        let against = match &c.against {
            None => None,
            Some(a) => Some(match word(&AGAINSTS, a) {
                Some(k) => k,
                // A nation some catalogue minion is of (the rules file orders them; fielding
                // settles it, MC-55).
                None => Against::NationNamed(
                    nation_word(&mut nations, &known_nations, a).ok_or_else(|| {
                        err(
                            "against",
                            format!(
                                "`{a}`: one of {}, or a catalogue nation ({})",
                                names(&AGAINSTS),
                                known_nations.join(", ")
                            ),
                        )
                    })?,
                ),
            }),
        };
        if let Some(g) = c.round
            && !(1..=MAX_ROUNDS).contains(&g)
        {
            return Err(err("round", format!("{g}: a round from 1 to {MAX_ROUNDS}")));
        }
        let delta = Delta {
            hand: c.hand,
            missile: c.missile,
            armor: c.armor,
            level: c.level,
            attacks: c.attacks,
        };
        for (k, v) in [
            ("hand", c.hand),
            ("missile", c.missile),
            ("armor", c.armor),
            ("level", c.level),
            ("attacks", c.attacks),
        ] {
            // Attacks a round are bounded (MC-61), so their changes are too.
            let most = if k == "attacks" {
                crate::games::minion_combat::rules::MAX_ATTACKS as i32
            } else {
                MAX_STAT
            };
            if !(-most..=most).contains(&v) {
                return Err(err(
                    k,
                    format!("{v}: write a change from -{most} to {most}"),
                ));
            }
        }
        let amount = |lo: i32, hi: i32, what: &str| -> Result<i32, FileError> {
            match c.amount {
                Some(a) if (lo..=hi).contains(&a) => Ok(a),
                Some(a) => Err(err("amount", format!("{a}: {what} from {lo} to {hi}"))),
                None => Err(err(
                    "amount",
                    format!("missing: do = \"{}\" needs `amount` ({what})", c.effect),
                )),
            }
        };
        let effect = match c.effect.trim() {
            "stats" => {
                if delta.is_zero() {
                    return Err(err(
                        "do",
                        "do = \"stats\" changes nothing: give hand, missile, armor, level or attacks".into(),
                    ));
                }
                Do::Stats(delta)
            }
            "taken" => Do::Taken(amount(-MAX_STAT, MAX_STAT, "the change to damage taken")?),
            "block" => Do::Block,
            "damage" => Do::Damage(amount(1, MAX_STAT, "the damage dealt")?),
            "kill" => Do::Kill,
            "withdraw" => Do::Withdraw,
            "max_hp" => Do::MaxHp(amount(-MAX_STAT, MAX_STAT, "the change to max HP")?),
            "no_damage" => {
                if when != When::Always || to == To::Me {
                    return Err(err(
                        "when",
                        "do = \"no_damage\" is a standing change of others: leave out `when`, and say to = \"groupmates\" or \"enemies\"".into(),
                    ));
                }
                Do::NoDamage
            }
            "heal" => Do::Heal {
                amount: amount(1, MAX_STAT, "the HP healed")?,
                grows: c.grows.unwrap_or(false),
            },
            "give" => {
                let Some(name) = &c.status else {
                    return Err(err(
                        "status",
                        "missing: do = \"give\" names the [[status]] it gives".into(),
                    ));
                };
                let Some(k) = statuses
                    .iter()
                    .position(|s| normalise(&s.name) == normalise(name))
                else {
                    return Err(err(
                        "status",
                        format!("`{name}` is not declared: add a [[status]] with that name"),
                    ));
                };
                if of_status.is_some() {
                    return Err(err(
                        "do",
                        "a status cannot give a status: give it from a tag or modifier".into(),
                    ));
                }
                // Filled with the status's clauses once all are read.
                Do::Give(Box::new(Status {
                    name: statuses[k].name.clone(),
                    kills_at: None,
                    rounds: None,
                    clauses: Vec::new(),
                }))
            }
            "compel" => Do::Compel,
            "redirect" => Do::Redirect,
            "quasi_immune" => match attack {
                Some(a) => Do::QuasiImmune(a),
                None => {
                    return Err(err(
                        "attack",
                        "missing: a quasi-immunity names the attack type it wards (hand or missile)".into(),
                    ));
                }
            },
            "ignores_armor" => Do::IgnoresArmor,
            "magical" => Do::Magical,
            "heals_instead" => Do::HealsInstead,
            "attack_level" => Do::AttackLevel(amount(-100, 100, "the level attacks count as")?),
            "level_is" => Do::LevelIs(amount(-100, 100, "the level it keeps")?),
            "nation" => match &c.nation {
                Some(n) if !n.trim().is_empty() => Do::Nation(n.trim().to_string()),
                _ => {
                    return Err(err(
                        "nation",
                        "missing: do = \"nation\" names the nation (e.g. \"Elf\")".into(),
                    ));
                }
            },
            "printed" => Do::Printed,
            d => {
                return Err(err("do", format!("`{d}`: one of {}", DOS.join(", "))));
            }
        };
        // Each field only where it means something.
        let is = |ks: &[&str]| ks.contains(&c.effect.trim());
        if !delta.is_zero() && !is(&["stats"]) {
            return Err(err(
                "do",
                format!(
                    "hand, missile, armor, level and attacks go with do = \"stats\", not \"{}\"",
                    c.effect
                ),
            ));
        }
        if c.amount.is_some()
            && !is(&[
                "taken",
                "damage",
                "heal",
                "max_hp",
                "attack_level",
                "level_is",
            ])
        {
            return Err(err(
                "amount",
                format!("do = \"{}\" takes no amount: remove it", c.effect),
            ));
        }
        if c.grows.is_some() && !is(&["heal"]) {
            return Err(err(
                "grows",
                format!("do = \"{}\" heals nothing: remove `grows`", c.effect),
            ));
        }
        if c.status.is_some() && !is(&["give"]) {
            return Err(err(
                "status",
                format!("do = \"{}\" gives no status: remove it", c.effect),
            ));
        }
        if c.nation.is_some() && !is(&["nation"]) {
            return Err(err(
                "nation",
                format!("do = \"{}\" sets no nation: remove it", c.effect),
            ));
        }
        let passive = is(&DOS[STANDING..]);
        // Of the standing traits only these two act on one victim at a time, so only they can
        // be limited to a kind of victim (MC-51).
        if passive && against.is_some() && !is(&["magical", "ignores_armor"]) {
            return Err(err(
                "against",
                format!(
                    "do = \"{}\" acts on no one victim, so `against` cannot limit it: remove it",
                    c.effect
                ),
            ));
        }
        if passive && (when != When::Always || to != To::Me) {
            return Err(err(
                "when",
                format!(
                    "do = \"{}\" is a standing trait of its holder: leave out `when` and `to`",
                    c.effect
                ),
            ));
        }
        if is(&["taken", "block"])
            && (!matches!(when, When::IsHit | When::AfterArmor) || to != To::Me)
        {
            return Err(err(
                "when",
                format!(
                    "do = \"{}\" changes damage the holder takes: when = \"is_hit\" (before armor) or \"after_armor\", to = \"me\"",
                    c.effect
                ),
            ));
        }
        if is(&["damage", "kill", "withdraw", "heal", "max_hp", "give"]) && when == When::Always {
            return Err(err(
                "when",
                format!(
                    "do = \"{}\" happens at a point of the pipeline: give `when` (one of {})",
                    c.effect,
                    names(&WHENS[1..])
                ),
            ));
        }
        if when == When::Always && matches!(to, To::Other | To::RandomEnemy) {
            return Err(err(
                "to",
                "a standing stat change acts on me, groupmates or enemies".into(),
            ));
        }
        if to == To::Other
            && matches!(
                when,
                When::StartOfCombat | When::StartOfRound | When::EndOfCombat
            )
        {
            return Err(err(
                "to",
                "\"other\" is the attacker, victim, killer or the dead: only is_hit, after_armor, hits, damages, kills, dies and a_minion_dies have one".into(),
            ));
        }
        // `numbers` speaks of a modifier; on another source (or a modifier this catalogue
        // lacks) it is idle.
        if c.numbers == Some(false) && !numbers_off.contains(&source) {
            numbers_off.push(source.clone());
        }
        let _ = &c.note;
        let clause = Clause {
            source,
            when,
            to,
            round: c.round,
            attack,
            against,
            effect,
        };
        match of_status {
            Some(k) => statuses[k].clauses.push(clause),
            None => clauses.push(clause),
        }
    }
    for c in clauses.iter_mut() {
        if let Do::Give(s) = &mut c.effect {
            let full = statuses
                .iter()
                .find(|x| x.name == s.name)
                .expect("checked above");
            **s = full.clone();
        }
    }
    Ok(Effects {
        clauses,
        statuses,
        numbers_off,
        nations,
    })
}

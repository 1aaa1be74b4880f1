//! Clans as data (CM-20 .. CM-25): a TOML file gives the roster as a function of the budget and
//! each member kind's decision rule as cases of integer expressions (`expr.rs`). Files compile
//! once; building a roster and deciding never parse anything.

use crate::error::Error;
use std::collections::BTreeMap;

use rand::Rng;
use serde::Deserialize;

use crate::games::clan_melee::input::expr::{self, DECISION_VARS, Env, Op, Prog, ROSTER_VARS, Var};
use crate::games::file_error::{FileCtx, FileError};

/// A member's hit points are capped here when it is made (CM-3).
pub const HP_CAP: i32 = 1000;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ClanFile {
    name: String,
    #[serde(default)]
    source: String,
    #[serde(default)]
    #[allow(dead_code)]
    notes: String,
    clan_id: Option<u32>,
    roster: Vec<RosterFile>,
    kinds: BTreeMap<String, KindFile>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RosterFile {
    budget: Option<[i64; 2]>,
    members: Vec<StepFile>,
}

/// An integer or an expression string: `piece = 200` and `piece = "H / 10"` both read.
#[derive(Deserialize, Clone)]
#[serde(untagged)]
enum Src {
    Int(i64),
    Text(String),
}

impl Src {
    fn text(&self) -> String {
        match self {
            Src::Int(i) => i.to_string(),
            Src::Text(s) => s.clone(),
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct StepFile {
    kind: Option<String>,
    pick: Option<Vec<String>>,
    count: Option<Src>,
    hp: Option<Src>,
    pool: Option<Src>,
    piece: Option<Src>,
    split: Option<SplitFile>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SplitFile {
    warrior: String,
    healer: String,
    next: Src,
    amount: Src,
    ratio: f64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct KindFile {
    #[serde(rename = "type")]
    kind_type: String,
    rule: Vec<CaseFile>,
    #[serde(default)]
    #[allow(dead_code)]
    notes: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CaseFile {
    when: Option<Src>,
    ap: Src,
    damage_other: Option<Src>,
}

/// One case of a decision rule: the first case whose `when` holds gives the action points; its
/// `damage_other` (if any) is dealt to the partner first, at decision time (CM-24).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Case {
    pub when: Option<Prog>,
    pub ap: Prog,
    pub damage_other: Option<Prog>,
}

/// A member kind: its type and its rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Kind {
    pub name: String,
    pub healer: bool,
    pub cases: Vec<Case>,
}

impl Kind {
    /// Whether the rule can hurt the partner by side effect (CM-24; the deadlock test needs it).
    pub fn has_effect(&self) -> bool {
        self.cases.iter().any(|c| c.damage_other.is_some())
    }
}

/// How members are drawn for a step: one kind, or one of 2^k kinds by k fair coin flips (CM-22).
#[derive(Clone, Debug, PartialEq)]
enum Who {
    One(u16),
    Pick(Vec<u16>),
}

#[derive(Clone, Debug, PartialEq)]
enum Step {
    Count {
        who: Who,
        count: Prog,
        hp: Prog,
    },
    Pool {
        who: Who,
        pool: Prog,
        piece: Prog,
    },
    Split {
        warrior: u16,
        healer: u16,
        next: Prog,
        amount: Prog,
        ratio: f64,
    },
}

#[derive(Clone, Debug, PartialEq)]
struct Roster {
    lo: i64,
    hi: i64,
    steps: Vec<Step>,
}

/// A compiled clan.
#[derive(Clone, Debug, PartialEq)]
pub struct Clan {
    pub name: String,
    pub source: String,
    pub file: String,
    /// The clan ID its members carry, when the file fixes one (CM-5).
    pub clan_id: Option<u32>,
    pub kinds: Vec<Kind>,
    /// Decision programs (`Case` ranges index it).
    pub ops: Vec<Op>,
    rosters: Vec<Roster>,
    roster_ops: Vec<Op>,
}

/// `count` alike members in a row as a roster makes them: their kind (index into
/// `Clan::kinds`) and requested hit points. A swarm of a million 1-hp members is one run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Made {
    pub kind: u16,
    pub hp: i32,
    pub count: u32,
}

/// Members in a roster's runs.
pub fn members(runs: &[Made]) -> u64 {
    runs.iter().map(|m| m.count as u64).sum()
}

/// Each member of a roster's runs in order, as (kind, requested hit points).
pub fn each_member(runs: &[Made]) -> impl Iterator<Item = (u16, i32)> + '_ {
    runs.iter()
        .flat_map(|m| std::iter::repeat_n((m.kind, m.hp), m.count as usize))
}

impl Clan {
    /// Compiles a clan file's text; `file` names it in errors.
    pub fn parse(file: &str, text: &str) -> Result<Clan, FileError> {
        let ctx = FileCtx { file, text };
        let f: ClanFile = toml::from_str(text).map_err(|e| {
            let msg = e.message().to_string();
            let field = msg
                .split('`')
                .nth(1)
                .filter(|_| msg.starts_with("unknown field"))
                .unwrap_or("")
                .to_string();
            ctx.err(e.span(), field, fix_hint(&msg))
        })?;
        let err = |field: String, message: String| ctx.err(None, field, message);
        let names: Vec<&String> = f.kinds.keys().collect();
        let mut kinds = Vec::new();
        let mut ops = Vec::new();
        for (name, k) in &f.kinds {
            let healer = match k.kind_type.as_str() {
                "healer" => true,
                "warrior" => false,
                other => {
                    return Err(err(
                        format!("kinds.{name}.type"),
                        format!("`{other}` is not a type: write \"warrior\" or \"healer\""),
                    ));
                }
            };
            if k.rule.is_empty() {
                return Err(err(
                    format!("kinds.{name}.rule"),
                    "a rule needs at least one case, e.g. rule = [{ ap = 10 }]".into(),
                ));
            }
            let mut cases = Vec::new();
            for (i, c) in k.rule.iter().enumerate() {
                let at = |f: &str| format!("kinds.{name}.rule[{i}].{f}");
                let comp = |s: &Src, f: &str, ops: &mut Vec<Op>| {
                    expr::compile(&s.text(), DECISION_VARS, ops).map_err(|e| err(at(f), e.0))
                };
                let when = match &c.when {
                    Some(w) => Some(comp(w, "when", &mut ops)?),
                    None => None,
                };
                let ap = comp(&c.ap, "ap", &mut ops)?;
                let damage_other = match &c.damage_other {
                    Some(d) => Some(comp(d, "damage_other", &mut ops)?),
                    None => None,
                };
                if when.is_none() && i + 1 < k.rule.len() {
                    return Err(err(
                        at("when"),
                        "a case without `when` always applies, so the cases after it never do: \
                         give it a `when` or move it last"
                            .into(),
                    ));
                }
                cases.push(Case {
                    when,
                    ap,
                    damage_other,
                });
            }
            if cases.last().is_some_and(|c| c.when.is_some()) {
                return Err(err(
                    format!("kinds.{name}.rule"),
                    "the last case needs no `when` (what the member does otherwise), e.g. { ap = 0 }"
                        .into(),
                ));
            }
            kinds.push(Kind {
                name: name.clone(),
                healer,
                cases,
            });
        }
        let kind_id = |name: &str, field: String| -> Result<u16, FileError> {
            names
                .iter()
                .position(|n| n.as_str() == name)
                .map(|i| i as u16)
                .ok_or_else(|| {
                    let hint = crate::names::closest_name(
                        name,
                        names.iter().map(|s| s.as_str()),
                    )
                    .map(|n| format!("did you mean `{n}`? "))
                    .unwrap_or_default();
                    err(
                        field,
                        format!(
                            "no kind `{name}`: {hint}define it under [kinds.{name}] or use one of {}",
                            names
                                .iter()
                                .map(|s| s.as_str())
                                .collect::<Vec<_>>()
                                .join(", ")
                        ),
                    )
                })
        };
        if f.roster.is_empty() {
            return Err(err(
                "roster".into(),
                "give at least one [[roster]] block (an empty clan is `members = []`)".into(),
            ));
        }
        let mut rosters = Vec::new();
        let mut roster_ops = Vec::new();
        for (r, rf) in f.roster.iter().enumerate() {
            let [lo, hi] = rf.budget.unwrap_or([0, i64::MAX]);
            if lo > hi {
                return Err(err(
                    format!("roster[{r}].budget"),
                    format!("[{lo}, {hi}] is empty: write [low, high] with low <= high"),
                ));
            }
            let mut steps = Vec::new();
            for (s, st) in rf.members.iter().enumerate() {
                let at = |f: &str| format!("roster[{r}].members[{s}].{f}");
                let comp = |src: &Option<Src>, f: &str, ops: &mut Vec<Op>| match src {
                    Some(x) => {
                        expr::compile(&x.text(), ROSTER_VARS, ops).map_err(|e| err(at(f), e.0))
                    }
                    None => Err(err(at(f), format!("this step needs `{f}`"))),
                };
                let who = match (&st.kind, &st.pick) {
                    (Some(k), None) => Some(Who::One(kind_id(k, at("kind"))?)),
                    (None, Some(p)) => {
                        if !(2..=64).contains(&p.len()) || !p.len().is_power_of_two() {
                            return Err(err(
                                at("pick"),
                                "pick 2, 4, 8, ... kinds (one fair coin flip per halving)".into(),
                            ));
                        }
                        Some(Who::Pick(
                            p.iter()
                                .map(|k| kind_id(k, at("pick")))
                                .collect::<Result<_, _>>()?,
                        ))
                    }
                    (Some(_), Some(_)) => {
                        return Err(err(at("pick"), "give `kind` or `pick`, not both".into()));
                    }
                    (None, None) => None,
                };
                let step = match (who, &st.split) {
                    (Some(_), Some(_)) => {
                        return Err(err(
                            at("split"),
                            "a split names its own kinds: drop `kind` / `pick`".into(),
                        ));
                    }
                    (None, Some(sp)) => {
                        if !(sp.ratio.is_finite() && sp.ratio >= 1.0) {
                            return Err(err(
                                at("split.ratio"),
                                "give a ratio of at least 1 (a healer gets next / ratio)".into(),
                            ));
                        }
                        let warrior = kind_id(&sp.warrior, at("split.warrior"))?;
                        let healer = kind_id(&sp.healer, at("split.healer"))?;
                        if kinds[warrior as usize].healer || !kinds[healer as usize].healer {
                            return Err(err(
                                at("split"),
                                "`warrior` must name a warrior kind and `healer` a healer kind"
                                    .into(),
                            ));
                        }
                        Step::Split {
                            warrior,
                            healer,
                            next: comp(&Some(sp.next.clone()), "split.next", &mut roster_ops)?,
                            amount: comp(
                                &Some(sp.amount.clone()),
                                "split.amount",
                                &mut roster_ops,
                            )?,
                            ratio: sp.ratio,
                        }
                    }
                    (None, None) => {
                        return Err(err(
                            at("kind"),
                            "each step needs `kind` (or `pick`) with count + hp or pool + piece, or a `split`"
                                .into(),
                        ));
                    }
                    (Some(who), None) => match (&st.count, &st.pool) {
                        (Some(_), None) => Step::Count {
                            who,
                            count: comp(&st.count, "count", &mut roster_ops)?,
                            hp: comp(&st.hp, "hp", &mut roster_ops)?,
                        },
                        (None, Some(_)) => Step::Pool {
                            who,
                            pool: comp(&st.pool, "pool", &mut roster_ops)?,
                            piece: comp(&st.piece, "piece", &mut roster_ops)?,
                        },
                        _ => {
                            return Err(err(
                                at("count"),
                                "give `count` and `hp` (so many members of so many hit points) or \
                                 `pool` and `piece` (hit points cut into pieces), not both"
                                    .into(),
                            ));
                        }
                    },
                };
                if matches!(step, Step::Count { .. }) && st.piece.is_some()
                    || matches!(step, Step::Pool { .. }) && st.hp.is_some()
                {
                    return Err(err(
                        at("piece"),
                        "`count` goes with `hp`, `pool` with `piece`".into(),
                    ));
                }
                steps.push(step);
            }
            rosters.push(Roster { lo, hi, steps });
        }
        Ok(Clan {
            name: f.name,
            source: f.source,
            file: file.to_string(),
            clan_id: f.clan_id,
            kinds,
            ops,
            rosters,
            roster_ops,
        })
    }

    /// Reads and compiles a clan file.
    pub fn load(
        src: &crate::platform::sources::Sources,
        path: &std::path::Path,
    ) -> Result<Clan, FileError> {
        let text = crate::games::file_error::read(src, path, "clan file")?;
        Clan::parse(&path.display().to_string(), &text)
    }

    /// The clan entering a melee at budget `h` as clan `position` (CM-5): its roster built into
    /// `out` and checked. `Ok` is its hit points after the cap; `Err` the reason it is
    /// disqualified for this melee.
    pub fn enter(
        &self,
        position: usize,
        h: i32,
        rng: &mut impl Rng,
        out: &mut Vec<Made>,
    ) -> Result<i64, Error> {
        self.build(h, rng, out)?;
        let total: i64 = out
            .iter()
            .map(|m| m.hp.min(HP_CAP) as i64 * m.count as i64)
            .sum();
        match self.clan_id {
            Some(id) if id as usize != position => Err(Error::Input(format!(
                "its members carry clan ID {id} but it plays as clan {position}"
            ))),
            _ if total > h as i64 => Err(Error::Input(format!(
                "its members' hit points total {total}, over the budget of {h}"
            ))),
            _ => Ok(total),
        }
    }

    /// The members this clan fields at budget `h` (CM-22), in order as runs of alike members,
    /// drawing kinds from `rng`; `Err` is the reason the clan cannot field a roster (it is
    /// disqualified for that melee, CM-5).
    pub fn build(&self, h: i32, rng: &mut impl Rng, out: &mut Vec<Made>) -> Result<(), Error> {
        out.clear();
        let mut members = 0usize;
        let Some(r) = self
            .rosters
            .iter()
            .find(|r| (r.lo..=r.hi).contains(&(h as i64)))
        else {
            return Ok(());
        };
        // More members than this is a runaway roster, refused before it exhausts memory (CM-5).
        let limit = h.max(0) as usize + 1000;
        let mut rest = h as i64;
        let ops = &self.roster_ops;
        let env = |rest: i64| -> Env {
            let mut e = [0; 9];
            e[Var::Budget as usize] = h;
            e[Var::Rest as usize] = rest.clamp(i32::MIN as i64, i32::MAX as i64) as i32;
            e
        };
        let push =
            |out: &mut Vec<Made>, members: &mut usize, rest: &mut i64, kind: u16, hp: i32| {
                if hp < 0 {
                    return Err(Error::Input(format!(
                        "its roster makes a member with {hp} hit points at budget {h}"
                    )));
                }
                if *members >= limit {
                    return Err(Error::Input(format!(
                        "its roster makes more than H + 1000 = {limit} members at budget {h}"
                    )));
                }
                *members += 1;
                match out.last_mut() {
                    Some(m) if m.kind == kind && m.hp == hp => m.count += 1,
                    _ => out.push(Made { kind, hp, count: 1 }),
                }
                *rest -= hp.min(HP_CAP) as i64;
                Ok(())
            };
        for step in &r.steps {
            match step {
                Step::Count { who, count, hp } => {
                    let e = env(rest);
                    let n = count.run(ops, &e);
                    let hp = hp.run(ops, &e);
                    if let Who::One(k) = who
                        && hp >= 0
                        && members + (n.max(0) as usize) < limit
                    {
                        // Equal members without draws (a swarm of a million 1-hp members):
                        // one run, as the loop below would push them one by one.
                        if n > 0 {
                            members += n as usize;
                            out.push(Made {
                                kind: *k,
                                hp,
                                count: n as u32,
                            });
                            rest -= n as i64 * hp.min(HP_CAP) as i64;
                        }
                        continue;
                    }
                    for _ in 0..n.max(0) {
                        let k = pick(who, rng);
                        push(out, &mut members, &mut rest, k, hp)?;
                    }
                }
                Step::Pool { who, pool, piece } => {
                    let e = env(rest);
                    let p = pool.run(ops, &e);
                    let s = piece.run(ops, &e);
                    if p <= 0 {
                        continue;
                    }
                    if s <= 0 {
                        return Err(Error::Input(format!(
                            "its roster cuts {p} hit points into pieces of {s} at budget {h}"
                        )));
                    }
                    for _ in 0..p / s {
                        let k = pick(who, rng);
                        push(out, &mut members, &mut rest, k, s)?;
                    }
                    if p % s > 0 {
                        let k = pick(who, rng);
                        push(out, &mut members, &mut rest, k, p % s)?;
                    }
                }
                Step::Split {
                    warrior,
                    healer,
                    next,
                    amount,
                    ratio,
                } => {
                    // The classic split (CM-23): a coin flip per member between a warrior of
                    // `next` and a healer of next / ratio, until `amount` is used up.
                    let e = env(rest);
                    let mut next = next.run(ops, &e) as i64;
                    let mut u = amount.run(ops, &e) as i64;
                    while u > 0 {
                        if u < next || next == 0 {
                            next = u;
                        }
                        if crate::rng::unit_f64(rng) < 0.5 {
                            push(out, &mut members, &mut rest, *warrior, next as i32)?;
                            u -= next;
                        } else {
                            push(
                                out,
                                &mut members,
                                &mut rest,
                                *healer,
                                (next as f64 / ratio) as i32,
                            )?;
                            u = (u as f64 - next as f64 / ratio) as i64;
                        }
                    }
                }
            }
        }
        Ok(())
    }
}

/// The kind of the next member of a step: one kind, or one of 2^k by k fair flips, the first flip
/// the high bit, u > 0.5 reading 0 (CM-22).
fn pick(who: &Who, rng: &mut impl Rng) -> u16 {
    match who {
        Who::One(k) => *k,
        Who::Pick(ks) => {
            let mut i = 0;
            let mut n = ks.len();
            while n > 1 {
                i = 2 * i + (crate::rng::unit_f64(rng) <= 0.5) as usize;
                n /= 2;
            }
            ks[i]
        }
    }
}

fn fix_hint(msg: &str) -> String {
    let msg = msg.trim();
    if msg.starts_with("unknown field") {
        format!("{msg}: remove it or fix its spelling")
    } else if msg.starts_with("missing field") {
        format!("{msg}: add it")
    } else {
        msg.to_string()
    }
}

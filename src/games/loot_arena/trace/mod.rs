//! Telling a battle: `Narrator` writes every roll and its arithmetic the way the rules' example
//! does (`Attack [4, 2, 1, 10] = 17`, `+1d8 Item [5] = 22`...), so a host can paste it into the
//! thread; `JsonTrace` writes one JSON object per action and per round (`--trace`).

// A seat (0..4) indexes several parallel columns at once: index loops say so plainly.
#![allow(clippy::needless_range_loop)]

use std::fmt::Write as _;

pub mod royale;

use crate::games::loot_arena::draws::{ACTION, BASE, DEFENCE, EVADE, ITEM, Rolls};
use crate::games::loot_arena::kernel::battle::{Hook, Strike, Struck};
use crate::games::loot_arena::policy::Set;
use crate::games::loot_arena::rules::{Class, Dice, Rules, SCALE, show_frac};
use crate::games::loot_arena::state::{Catalogue, Fielded, NO_ITEM, Outcome, side};

fn list(v: &[u16]) -> String {
    let s: Vec<String> = v.iter().map(|x| x.to_string()).collect();
    format!("[{}]", s.join(", "))
}

/// Names for the narration: "Squirrel2412's Mage".
#[derive(Clone, Debug)]
pub struct Names {
    pub who: [String; 4],
    pub item: [[Option<(String, Dice)>; 4]; 4],
    pub armor: [Option<(String, Dice)>; 4],
}

impl Names {
    pub fn new(players: &[String; 2], f: &Fielded, cat: &Catalogue) -> Names {
        let who = [0, 1, 2, 3].map(|c| format!("{}'s {}", players[side(c)], f[c].class.name()));
        let item = [0, 1, 2, 3].map(|c| {
            [0, 1, 2, 3].map(|s| cat.get(f[c].items[s]).map(|i| (i.name.clone(), i.dice)))
        });
        let armor = [0, 1, 2, 3].map(|c| {
            if f[c].armor == NO_ITEM {
                None
            } else {
                cat.get(f[c].armor).map(|i| (i.name.clone(), i.dice))
            }
        });
        Names { who, item, armor }
    }
}

/// The narration (`--narrate`).
pub struct Narrator<'a> {
    pub out: String,
    names: Names,
    rules: &'a Rules,
    fielded: Fielded,
    players: [String; 2],
    /// Each item's kind bit, for the affinity shown on heals.
    kinds: [[u8; 4]; 4],
}

impl<'a> Narrator<'a> {
    pub fn new(
        players: &[String; 2],
        f: &Fielded,
        cat: &Catalogue,
        rules: &'a Rules,
    ) -> Narrator<'a> {
        let names = Names::new(players, f, cat);
        let mut out = String::new();
        for s in 0..2 {
            let mut parts = Vec::new();
            for c in [2 * s, 2 * s + 1] {
                let mut gear: Vec<String> = names.item[c]
                    .iter()
                    .flatten()
                    .map(|(n, d)| format!("{n} {d}"))
                    .collect();
                if let Some((n, d)) = &names.armor[c] {
                    gear.push(format!("armor {n} {d}"));
                }
                let gear = if gear.is_empty() {
                    "no items".to_string()
                } else {
                    gear.join(", ")
                };
                parts.push(format!(
                    "{} ({}/{} health, {} base; {gear})",
                    f[c].class.name(),
                    f[c].health,
                    f[c].max,
                    rules.class(f[c].class).dice
                ));
            }
            // A royale player with one champion left fields it alone (LA-46).
            let _ = match (f[2 * s].health > 0, f[2 * s + 1].health > 0) {
                (true, false) => writeln!(out, "{} fields {} alone", players[s], parts[0]),
                (false, true) => writeln!(out, "{} fields {} alone", players[s], parts[1]),
                _ => writeln!(out, "{} fields {} and {}", players[s], parts[0], parts[1]),
            };
        }
        let kinds = [0, 1, 2, 3]
            .map(|c| [0, 1, 2, 3].map(|s| cat.get(f[c].items[s]).map_or(0, |i| i.kind.bit())));
        Narrator {
            kinds,
            out,
            names,
            rules,
            fielded: *f,
            players: players.clone(),
        }
    }

    /// The result line.
    pub fn finish(&mut self, o: &Outcome) {
        let share = |s: usize| {
            format!(
                "{}/{}",
                o.health[2 * s].max(0) + o.health[2 * s + 1].max(0),
                o.start[2 * s] + o.start[2 * s + 1]
            )
        };
        let how = if o.decisive {
            "the other side fell".to_string()
        } else {
            format!(
                "on health kept: {} {} vs {} {} (LA-16)",
                self.players[0],
                share(0),
                self.players[1],
                share(1)
            )
        };
        let _ = match o.winner {
            Some(w) => writeln!(
                self.out,
                "\n{} wins after {} rounds, {how}",
                self.players[w as usize], o.rounds
            ),
            None => writeln!(self.out, "\nA draw after {} rounds, {how}", o.rounds),
        };
    }

    fn item_term(
        &mut self,
        c: usize,
        slot: usize,
        rolls: &Rolls,
        m: i64,
        why: &str,
        running: &mut i64,
    ) -> i64 {
        let (name, d) = self.names.item[c][slot]
            .clone()
            .unwrap_or(("item".into(), Dice::NONE));
        let r = rolls.of(ITEM + slot as u64);
        let v: i64 = r.iter().map(|&x| x as i64).sum::<i64>() + d.plus as i64;
        *running += v;
        // The factor the item's roll is taken at, as applied: affinity with the strength
        // factor (issue 53: the line said x1.25 where 1.05 or 1.5 applied).
        let mult = if why.is_empty() {
            String::new()
        } else {
            format!(" (x{}: {why})", show_frac(m))
        };
        let _ = writeln!(
            self.out,
            "    +{d} Item {name} {}{mult} = {running}",
            list(r)
        );
        v
    }
}

impl Hook for Narrator<'_> {
    const ON: bool = true;

    fn set(&mut self, set: u32, sets: &[Set; 4], alive: &[bool; 4]) {
        let _ = writeln!(self.out, "\nSet {}", set + 1);
        for c in 0..4 {
            if !alive[c] {
                continue;
            }
            let s = &sets[c];
            let a: Vec<String> = s.actions[..s.len as usize]
                .iter()
                .map(|a| a.spec())
                .collect();
            let how = match self.fielded[c].policy {
                crate::games::loot_arena::policy::Policy::Fixed(_) => "its written set".to_string(),
                p => p.spec(),
            };
            let _ = writeln!(
                self.out,
                "  {} ({how}): {}",
                self.names.who[c],
                a.join("; ")
            );
        }
    }

    fn round(&mut self, g: u32, strong: &[[bool; 4]; 4], health: &[i32; 4]) {
        let _ = writeln!(self.out, "\nRound {}", g + 1);
        let mut s = Vec::new();
        for a in 0..4 {
            for b in 0..4 {
                if strong[a][b] && health[a] > 0 && health[b] > 0 {
                    s.push(format!(
                        "{} > {}",
                        self.names.who[a],
                        self.fielded[b].class.name()
                    ));
                }
            }
        }
        if !s.is_empty() {
            let _ = writeln!(self.out, "  strong: {}", s.join(", "));
        }
    }

    fn support(&mut self, c: usize, to: usize, amount: i64, rolls: &Rolls) {
        let d = self.rules.support_dice;
        let _ = writeln!(
            self.out,
            "  {} supports {}: {d} {}{} -> +{amount} to its action",
            self.names.who[c],
            self.names.who[to],
            list(rolls.of(ACTION)),
            (0..4)
                .filter(|&s| !rolls.of(ITEM + s as u64).is_empty())
                .map(|s| format!(
                    " + {} {}",
                    self.names.item[c][s]
                        .as_ref()
                        .map_or("item", |x| x.0.as_str()),
                    list(rolls.of(ITEM + s as u64))
                ))
                .collect::<String>()
        );
    }

    fn evade(&mut self, c: usize) {
        let _ = writeln!(
            self.out,
            "  {} evades (its defence counts x{} this round, plus {})",
            self.names.who[c], self.rules.evade_factor, self.rules.evade_dice
        );
    }

    fn attack(
        &mut self,
        c: usize,
        t: usize,
        pref: &[Class; 4],
        s: &Strike,
        out: &Struck,
        rolls: &Rolls,
    ) {
        let names: Vec<&str> = pref.iter().map(|c| c.name()).collect();
        let _ = writeln!(
            self.out,
            "  {} attacks {} (Attack [{}])",
            self.names.who[c],
            self.names.who[t],
            names.join(", ")
        );
        let base = rolls.of(BASE);
        let mut running = out.base;
        // Under `crit_stage = "base"` the crit multiplies the base roll: shown here, so the
        // Strength line's terms add up to its total (issue 53).
        let at_base =
            out.crit && self.rules.crit_stage == crate::games::loot_arena::rules::CritStage::Base;
        let crit = if at_base {
            running *= self.rules.crit_multiplier as i64;
            format!(
                "  critical: a top face, the base x{} = {running}",
                self.rules.crit_multiplier
            )
        } else if out.crit {
            "  critical: a top face".to_string()
        } else {
            String::new()
        };
        let _ = writeln!(
            self.out,
            "    Attack {} {} = {}{crit}",
            s.base,
            list(base),
            out.base
        );
        if s.support != 0 {
            running += s.support;
            let _ = writeln!(self.out, "    +{} Support = {running}", s.support);
        }
        // The factors as applied (affinity may reach the whole attack, LA-7).
        let (f, fa) = s.factors(self.rules);
        let whole = f != s.f;
        let mut terms = vec![format!("{}x{}", running, show_frac(f))];
        for slot in 0..4 {
            if s.items[slot].is_none() {
                continue;
            }
            let m = if s.affinity[slot] { fa } else { f };
            let why = match (s.affinity[slot] || whole, s.f == SCALE) {
                _ if whole => "affinity on the whole attack",
                (true, true) => "affinity",
                (true, false) => "affinity with strength",
                (false, false) => "strength",
                (false, true) => "",
            };
            let v = self.item_term(c, slot, rolls, m, why, &mut running);
            terms.push(format!("{v}x{}", show_frac(m)));
        }
        let armor = self.names.armor[t].clone();
        let d = rolls.of(DEFENCE);
        let def_roll: i64 = d.iter().map(|&x| x as i64).sum::<i64>()
            + armor.as_ref().map_or(0, |a| a.1.plus as i64);
        running -= out.defence;
        match (&armor, s.evading) {
            (Some((n, dice)), false) => {
                let _ = writeln!(
                    self.out,
                    "    Opponent Defense {n} {dice} {} = {} -> {running}",
                    list(d),
                    out.defence
                );
            }
            (None, false) => {
                let _ = writeln!(self.out, "    Opponent Defense: no armor = {running}");
            }
            (_, true) => {
                let _ = writeln!(
                    self.out,
                    "    Opponent Defense, evading: {def_roll}x{} + {} {} = {} -> {running}",
                    self.rules.evade_factor,
                    self.rules.evade_dice,
                    list(rolls.of(EVADE)),
                    out.defence
                );
            }
        }
        terms.push(format!("- {}x{}", out.defence, show_frac(f)));
        let rounded = self.rules.round(out.exact);
        let _ = writeln!(
            self.out,
            "    Strength [{}] = {} -> {rounded}",
            terms.join(" + ").replace("+ -", "-"),
            show_frac(out.exact)
        );
        if out.crit && self.rules.crit_stage == crate::games::loot_arena::rules::CritStage::Final {
            let _ = writeln!(
                self.out,
                "    Critical hit [{}x{}] = {}",
                show_frac(out.exact),
                self.rules.crit_multiplier,
                out.damage
            );
        }
        let _ = writeln!(
            self.out,
            "    {} damage to {}",
            out.damage, self.names.who[t]
        );
    }

    fn heal(&mut self, c: usize, t: usize, amount: i64, support: i64, rolls: &Rolls) {
        let mut parts = vec![format!(
            "{} {}",
            self.rules.heal_dice,
            list(rolls.of(ACTION))
        )];
        if support != 0 {
            parts.push(format!("Support {support}"));
        }
        for s in 0..4 {
            let r = rolls.of(ITEM + s as u64);
            if let Some((n, d)) = &self.names.item[c][s]
                && (!r.is_empty() || (d.n == 0 && d.plus != 0))
            {
                let aff = self.rules.class(self.fielded[c].class).affinity;
                let kind_aff = self.kinds[c][s] & aff != 0;
                let m = if kind_aff {
                    format!(" (x{})", show_frac(self.rules.affinity))
                } else {
                    String::new()
                };
                parts.push(format!("{n} {d} {}{m}", list(r)));
            }
        }
        let _ = writeln!(
            self.out,
            "  {} heals {}: {} = {amount}",
            self.names.who[c],
            if c == t {
                "itself".to_string()
            } else {
                self.names.who[t].clone()
            },
            parts.join(" + ")
        );
    }

    fn round_end(&mut self, g: u32, dmg: &[i64; 4], heal: &[i64; 4], health: &[i32; 4]) {
        let mut s = Vec::new();
        for c in 0..4 {
            if dmg[c] == 0 && heal[c] == 0 && health[c] <= 0 {
                continue;
            }
            let fell = if health[c] <= 0 { " FALLS" } else { "" };
            s.push(format!(
                "{} {} (-{} +{}){fell}",
                self.names.who[c], health[c], dmg[c], heal[c]
            ));
        }
        let _ = writeln!(self.out, "  end of round {}: {}", g + 1, s.join("; "));
    }
}

/// JSON Lines (`--trace`): one object per action and per round's end, then the result.
#[derive(Default)]
pub struct JsonTrace {
    pub out: String,
}

impl JsonTrace {
    pub fn finish(&mut self, o: &Outcome) {
        let v = serde_json::json!({
            "event": "result",
            "winner": o.winner,
            "decisive": o.decisive,
            "rounds": o.rounds,
            "health": o.health,
            "dealt": o.dealt,
            "healed": o.healed,
            "crits": o.crits,
            "dice": o.dice,
        });
        self.out.push_str(&v.to_string());
        self.out.push('\n');
    }
    fn line(&mut self, v: serde_json::Value) {
        self.out.push_str(&v.to_string());
        self.out.push('\n');
    }
}

impl Hook for JsonTrace {
    const ON: bool = true;
    fn support(&mut self, c: usize, to: usize, amount: i64, rolls: &Rolls) {
        // The items' dice too, as an attack's are (issue 53: a trace could not be checked
        // against its amount without them).
        self.line(serde_json::json!({"event": "support", "champion": c, "partner": to, "amount": amount, "dice": rolls.of(ACTION),
            "items": [rolls.of(ITEM), rolls.of(ITEM + 1), rolls.of(ITEM + 2), rolls.of(ITEM + 3)]}));
    }
    fn evade(&mut self, c: usize) {
        self.line(serde_json::json!({"event": "evade", "champion": c}));
    }
    fn attack(
        &mut self,
        c: usize,
        t: usize,
        _pref: &[Class; 4],
        s: &Strike,
        out: &Struck,
        rolls: &Rolls,
    ) {
        self.line(serde_json::json!({
            "event": "attack", "champion": c, "target": t,
            "base": rolls.of(BASE), "items": [rolls.of(ITEM), rolls.of(ITEM + 1), rolls.of(ITEM + 2), rolls.of(ITEM + 3)],
            "defence": rolls.of(DEFENCE), "evade": rolls.of(EVADE), "support": s.support,
            "strength": show_frac(s.f), "crit": out.crit, "exact": show_frac(out.exact), "damage": out.damage,
        }));
    }
    fn heal(&mut self, c: usize, t: usize, amount: i64, support: i64, rolls: &Rolls) {
        self.line(serde_json::json!({"event": "heal", "champion": c, "target": t, "amount": amount, "support": support, "die": rolls.of(ACTION),
            "items": [rolls.of(ITEM), rolls.of(ITEM + 1), rolls.of(ITEM + 2), rolls.of(ITEM + 3)]}));
    }
    fn round_end(&mut self, g: u32, dmg: &[i64; 4], heal: &[i64; 4], health: &[i32; 4]) {
        self.line(serde_json::json!({"event": "round", "round": g + 1, "damage": dmg, "healing": heal, "health": health}));
    }
}

/// One battle told as a host's `loot play` asks: narrated, traced, or its result only.
pub fn tell(
    b: &crate::games::loot_arena::input::battle::BattleFile,
    r: &Rules,
    seed: u64,
    told: crate::platform::narration::Told,
) -> String {
    use crate::games::loot_arena::kernel::battle::{Battle, Silent};
    use crate::platform::narration::{Told, restyle};
    let mut battle = Battle::new();
    let style = match told {
        Told::Traced => {
            let mut t = JsonTrace::default();
            let o = battle.play(&b.fielded, &b.catalogue, r, seed, &mut t);
            t.finish(&o);
            return t.out;
        }
        Told::Narrated(s) | Told::Result(s) => s,
    };
    let mut n = Narrator::new(&b.players, &b.fielded, &b.catalogue, r);
    let o = if matches!(told, Told::Narrated(_)) {
        battle.play(&b.fielded, &b.catalogue, r, seed, &mut n)
    } else {
        battle.play(&b.fielded, &b.catalogue, r, seed, &mut Silent)
    };
    n.finish(&o);
    restyle(style, &n.out)
}

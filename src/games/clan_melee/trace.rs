//! A melee told turn by turn: `skirmish clan-melee play --narrate` (what a host would post) and
//! `--trace` (JSON Lines: each clan's survivors and hp after each turn, then the result). Both
//! listen to the engine through [`TurnHook`]; the engine does not know who listens.

use std::fmt::Write;

use crate::games::clan_melee::kernel::engine::{End, Melee, Outcome, Settings, TurnHook};
use crate::games::clan_melee::state::Field;

/// Every turn's census, kept for telling.
#[derive(Default)]
pub struct TurnRecorder {
    /// `(turn, survivors per clan, hp per clan)`.
    pub turns: Vec<(u32, Vec<u32>, Vec<i32>)>,
}

impl TurnHook for TurnRecorder {
    const ENABLED: bool = true;
    fn turn_end(&mut self, turn: u32, survivors: &[u32], hp: &[i32]) {
        self.turns.push((turn, survivors.to_vec(), hp.to_vec()));
    }
}

/// Plays one melee and records every turn.
pub fn record(field: &Field, h: i32, settings: &Settings, seed: u64) -> (Outcome, TurnRecorder) {
    let mut rec = TurnRecorder::default();
    let outcome = Melee::new().play_observed(field, h, settings, seed, &mut rec);
    (outcome, rec)
}

/// Turns told in full at the start; after them only turns in which a clan fell, and the last.
const TOLD_IN_FULL: u32 = 10;

fn census(field: &Field, survivors: &[u32], hp: &[i32]) -> String {
    let parts: Vec<String> = field
        .clans
        .iter()
        .zip(survivors.iter().zip(hp))
        .filter(|(_, (s, _))| **s > 0)
        .map(|(c, (s, h))| format!("{} {s} ({h} hp)", c.name))
        .collect();
    if parts.is_empty() {
        "no one stands".into()
    } else {
        parts.join(", ")
    }
}

/// The melee as a host would tell it.
pub fn narrate(field: &Field, h: i32, settings: &Settings, seed: u64) -> String {
    let (o, rec) = record(field, h, settings, seed);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "Clan Melee, {} mode, budget {h} hit points, seed {seed}.",
        settings.mode.name()
    );
    for (c, r) in field.clans.iter().zip(&o.clans) {
        match &r.disqualified {
            Some(why) => {
                let _ = writeln!(out, "  {} is disqualified: {why}", c.name);
            }
            None => {
                let _ = writeln!(
                    out,
                    "  {} fields {} members, {} hp.",
                    c.name, r.members, r.hp
                );
            }
        }
    }
    let mut before: Vec<u32> = o.clans.iter().map(|r| r.members).collect();
    let mut skipped = 0u32;
    let last = rec.turns.last().map_or(0, |t| t.0);
    for (turn, survivors, hp) in &rec.turns {
        let fallen: Vec<&str> = field
            .clans
            .iter()
            .zip(before.iter().zip(survivors))
            .filter(|(_, (b, s))| **b > 0 && **s == 0)
            .map(|(c, _)| c.name.as_str())
            .collect();
        if *turn <= TOLD_IN_FULL || !fallen.is_empty() || *turn == last {
            if skipped > 0 {
                let _ = writeln!(out, "  ({skipped} turns in which no clan fell)");
                skipped = 0;
            }
            let _ = write!(out, "Turn {turn}: {}.", census(field, survivors, hp));
            if !fallen.is_empty() {
                let _ = write!(out, " {} fell.", fallen.join(" and "));
            }
            out.push('\n');
        } else {
            skipped += 1;
        }
        before.clone_from(survivors);
    }
    let name = |c: Option<u8>| c.map_or("no clan", |c| field.clans[c as usize].name.as_str());
    let _ = match o.end {
        End::Won => writeln!(
            out,
            "{} wins after {} turns ({} pair interactions); credited to {}.",
            name(o.survivor),
            o.turns,
            o.interactions,
            name(o.credited)
        ),
        End::AllSlain => writeln!(out, "All were slain after {} turns.", o.turns),
        End::Deadlock => writeln!(
            out,
            "Deadlock after {} turns: no one left can die (CM-12).",
            o.turns
        ),
        End::TurnCap => writeln!(out, "Turn cap: still fighting after {} turns.", o.turns),
    };
    out
}

/// JSON Lines: `{"turn":t,"survivors":[..],"hp":[..]}` per turn, then the result.
pub fn trace(field: &Field, h: i32, settings: &Settings, seed: u64) -> String {
    let (o, rec) = record(field, h, settings, seed);
    let list = |v: &[String]| v.join(",");
    let mut out = String::new();
    for (turn, survivors, hp) in &rec.turns {
        let s: Vec<String> = survivors.iter().map(u32::to_string).collect();
        let h: Vec<String> = hp.iter().map(i32::to_string).collect();
        let _ = writeln!(
            out,
            "{{\"turn\":{turn},\"survivors\":[{}],\"hp\":[{}]}}",
            list(&s),
            list(&h)
        );
    }
    let opt = |c: Option<u8>| c.map_or("null".to_string(), |c| c.to_string());
    let _ = writeln!(
        out,
        "{{\"end\":\"{}\",\"turns\":{},\"survivor\":{},\"credited\":{},\"interactions\":{}}}",
        o.end.name(),
        o.turns,
        opt(o.survivor),
        opt(o.credited),
        o.interactions
    );
    out
}

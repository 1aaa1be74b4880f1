//! A melee told turn by turn: `skirmish clan-melee play --narrate` (what a host would post) and
//! `--trace` (JSON Lines: each clan's survivors and hp after each turn, then the result). Both
//! listen to the engine through [`TurnHook`]; the engine does not know who listens. The telling
//! is written as the melee goes (into a [`Sink`]: streamed to stdout by the CLI), so a melee of
//! any number of turns is told in bounded memory.

use std::fmt::Write;

use crate::games::clan_melee::kernel::engine::{
    ClanResult, End, Melee, Outcome, Settings, TurnHook,
};
use crate::games::clan_melee::state::Field;
use crate::platform::sink::Sink;

/// Turns told in full at the start; after them only turns in which a clan fell, and the last.
const TOLD_IN_FULL: u32 = 10;

/// How much of a melee is told.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Telling {
    /// The fielded clans and the verdict.
    Verdict,
    /// As a host would post it: the fielded clans, the turns worth telling, the verdict.
    Narration,
    /// JSON Lines: every turn's survivors and hp per clan, then the result.
    Trace,
}

/// Tells the melee into `out` as the engine reports it.
struct Teller<'a> {
    field: &'a Field,
    how: Telling,
    out: Sink,
    /// Each clan's survivors after the previous turn (who fell this turn).
    before: Vec<u32>,
    /// Turns passed over since the last one told.
    skipped: u32,
    /// The latest turn passed over, kept in case it is the last (always told), with its census.
    held: Option<u32>,
    held_survivors: Vec<u32>,
    held_hp: Vec<i32>,
}

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

impl Teller<'_> {
    fn turn_line(&mut self, turn: u32, survivors: &[u32], hp: &[i32], fallen: &[&str]) {
        if self.skipped > 0 {
            let _ = writeln!(self.out, "  ({} turns in which no clan fell)", self.skipped);
            self.skipped = 0;
        }
        let _ = write!(
            self.out,
            "Turn {turn}: {}.",
            census(self.field, survivors, hp)
        );
        if !fallen.is_empty() {
            let _ = write!(self.out, " {} fell.", fallen.join(" and "));
        }
        self.out.push('\n');
    }

    fn finish(mut self, o: &Outcome) -> Sink {
        let field = self.field;
        if self.how == Telling::Trace {
            let opt = |c: Option<u8>| c.map_or("null".to_string(), |c| c.to_string());
            let _ = writeln!(
                self.out,
                "{{\"end\":\"{}\",\"turns\":{},\"survivor\":{},\"credited\":{},\"interactions\":{}}}",
                o.end.name(),
                o.turns,
                opt(o.survivor),
                opt(o.credited),
                o.interactions
            );
            return self.out;
        }
        // The last turn is always told, after the count of those passed over before it.
        if let Some(turn) = self.held.take() {
            self.skipped -= 1;
            let (survivors, hp) = (
                std::mem::take(&mut self.held_survivors),
                std::mem::take(&mut self.held_hp),
            );
            self.turn_line(turn, &survivors, &hp, &[]);
        }
        let name = |c: Option<u8>| c.map_or("no clan", |c| field.clans[c as usize].name.as_str());
        let out = &mut self.out;
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
        self.out
    }
}

impl TurnHook for Teller<'_> {
    const ENABLED: bool = true;

    fn fielded(&mut self, clans: &[ClanResult]) {
        self.before = clans.iter().map(|r| r.members).collect();
        if self.how == Telling::Trace {
            return;
        }
        for (c, r) in self.field.clans.iter().zip(clans) {
            let _ = match &r.disqualified {
                Some(why) => writeln!(self.out, "  {} is disqualified: {why}", c.name),
                None => writeln!(
                    self.out,
                    "  {} fields {} members, {} hp.",
                    c.name, r.members, r.hp
                ),
            };
        }
    }

    fn turn_end(&mut self, turn: u32, survivors: &[u32], hp: &[i32]) {
        match self.how {
            Telling::Verdict => {}
            Telling::Trace => {
                let _ = write!(self.out, "{{\"turn\":{turn},\"survivors\":[");
                for (k, s) in survivors.iter().enumerate() {
                    let _ = write!(self.out, "{}{s}", if k > 0 { "," } else { "" });
                }
                self.out.push_str("],\"hp\":[");
                for (k, h) in hp.iter().enumerate() {
                    let _ = write!(self.out, "{}{h}", if k > 0 { "," } else { "" });
                }
                self.out.push_str("]}\n");
            }
            Telling::Narration => {
                let field = self.field;
                let fallen: Vec<&str> = field
                    .clans
                    .iter()
                    .zip(self.before.iter().zip(survivors))
                    .filter(|(_, (b, s))| **b > 0 && **s == 0)
                    .map(|(c, _)| c.name.as_str())
                    .collect();
                if turn <= TOLD_IN_FULL || !fallen.is_empty() {
                    self.held = None;
                    self.turn_line(turn, survivors, hp, &fallen);
                } else {
                    self.skipped += 1;
                    self.held = Some(turn);
                    self.held_survivors.clear();
                    self.held_survivors.extend_from_slice(survivors);
                    self.held_hp.clear();
                    self.held_hp.extend_from_slice(hp);
                }
            }
        }
        self.before.clear();
        self.before.extend_from_slice(survivors);
    }
}

/// Plays one melee and tells it into `out` as it goes (`how` says how much); returns `out`.
pub fn tell(
    field: &Field,
    h: i32,
    settings: &Settings,
    seed: u64,
    how: Telling,
    mut out: Sink,
) -> Sink {
    if how != Telling::Trace {
        let _ = writeln!(
            out,
            "Clan Melee, {} mode, budget {h} hit points, seed {seed}.",
            settings.mode.name()
        );
    }
    let mut teller = Teller {
        field,
        how,
        out,
        before: Vec::new(),
        skipped: 0,
        held: None,
        held_survivors: Vec::new(),
        held_hp: Vec::new(),
    };
    let o = Melee::new().play_observed(field, h, settings, seed, &mut teller);
    teller.finish(&o)
}

/// The melee as a host would tell it.
pub fn narrate(field: &Field, h: i32, settings: &Settings, seed: u64) -> String {
    tell(field, h, settings, seed, Telling::Narration, Sink::memory()).finish()
}

/// JSON Lines: `{"turn":t,"survivors":[..],"hp":[..]}` per turn, then the result.
pub fn trace(field: &Field, h: i32, settings: &Settings, seed: u64) -> String {
    tell(field, h, settings, seed, Telling::Trace, Sink::memory()).finish()
}

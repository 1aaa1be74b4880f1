//! Narration of one combat in the page's step names (R1..R4, A1..A8, the wise-targeting
//! tiebreakers by number), so a host can follow every choice and every point of damage.

use std::fmt::Write;

use crate::games::minion_combat::reference::{Blow, Fight, Hook, INFINITE, Result, Tiebreak, Who};
use crate::games::minion_combat::state::{End, Group, Outcome};
use crate::platform::sink::Sink;

/// Writes the narration into `out` (streamed to stdout by the CLI, so a combat of any length
/// is told in bounded memory, issue 53).
pub struct Narrator {
    pub out: Sink,
    names: [Vec<String>; 2],
    groups: [String; 2],
    /// What effects set off by a hit told, held until the hit itself is told (issue 53: they
    /// read as the previous line's consequence).
    held: Option<String>,
    /// Minions that withdrew (MC-46), for the end's words.
    withdrew: Vec<String>,
}

impl Narrator {
    pub fn new(groups: [&Group; 2], out: Sink) -> Narrator {
        let names = groups.map(|g| {
            g.minions
                .iter()
                .enumerate()
                .map(|(i, m)| format!("{} #{}", m.name, i + 1))
                .collect()
        });
        Narrator {
            out,
            names,
            groups: groups.map(|g| g.name.clone()),
            held: None,
            withdrew: Vec::new(),
        }
    }

    fn n(&self, w: Who) -> String {
        format!("{} [{}]", self.names[w.0][w.1], self.groups[w.0])
    }

    /// Where a line goes now: held while a hit is being played, else out.
    fn w(&mut self) -> &mut dyn std::fmt::Write {
        match &mut self.held {
            Some(h) => h,
            None => &mut self.out,
        }
    }
}

impl Hook for Narrator {
    fn start(&mut self, g: &[&Group; 2], first: usize) {
        let _ = writeln!(
            self.out,
            "C1 Start of combat: {} ({}, {} minions) against {} ({}, {} minions); {} has precedence (MC-3).",
            g[0].name,
            g[0].owner.word(),
            g[0].minions.len(),
            g[1].name,
            g[1].owner.word(),
            g[1].minions.len(),
            g[first].name
        );
    }

    fn round(&mut self, r: u32, f: &Fight) {
        let what = if r == 1 {
            " (C2, missile round: missile attacks only, at the round's modifier; bashers skip it)"
        } else {
            ""
        };
        let _ = writeln!(self.out, "\nRound {r}{what}");
        for s in 0..2 {
            let alive: Vec<String> = f.side[s]
                .iter()
                .enumerate()
                .filter(|(_, m)| m.alive)
                .map(|(i, m)| format!("#{} {}/{} HP", i + 1, m.hp, m.stats.max_hp))
                .collect();
            let _ = writeln!(self.out, "  R1 {}: {}", self.groups[s], alive.join(", "));
        }
    }

    fn paired(&mut self, a: Who, b: Who) {
        let _ = writeln!(
            self.out,
            "  R2 bashers pair up: {} <-> {}",
            self.n(a),
            self.n(b)
        );
    }

    fn wise(&mut self, m: Who, v: Who, why: Tiebreak) {
        let _ = writeln!(
            self.out,
            "  wise: {} chooses {} (tiebreaker {})",
            self.n(m),
            self.n(v),
            why.word()
        );
    }

    fn retaliates(&mut self, m: Who, v: Who) {
        let _ = writeln!(
            self.out,
            "  basher retaliates: {} against {}",
            self.n(m),
            self.n(v)
        );
    }

    fn forfeits(&mut self, m: Who, attacks: u32) {
        let _ = writeln!(
            self.out,
            "  basher forfeits: {} has no victim and forfeits {attacks} attack(s)",
            self.n(m)
        );
    }

    fn hit_begins(&mut self, _m: Who, _v: Who) {
        self.held = Some(String::new());
    }

    fn blow(&mut self, m: Who, v: Who, b: &Blow, f: &Fight) {
        let held = self.held.take();
        let step = if m.0 == f.first { "R3" } else { "R4" };
        let random = if b.random {
            " (multi: random victim)"
        } else {
            ""
        };
        let (ml, vl) = b.levels;
        let misses = if b.misses == INFINITE {
            "inf".to_string()
        } else {
            b.misses.to_string()
        };
        if !b.hit {
            let _ = writeln!(
                self.out,
                "  {step} {} attacks {}{random}: A1 misses (victim level {vl} > level {ml} + {misses} misses)",
                self.n(m),
                self.n(v)
            );
            return;
        }
        let result = match b.result {
            Some(Result::Bounced) if b.healed > 0 => format!("healed {} instead", b.healed),
            Some(Result::Bounced) => "bounced".to_string(),
            // A hit taken by another (MC-49) names who took it and whose HP is left.
            Some(Result::Damaged) if b.taker != v => format!(
                "{} takes it: damaged, {} HP left",
                self.n(b.taker),
                f.get(b.taker).hp
            ),
            Some(Result::Damaged) => format!("damaged, {} HP left", f.get(b.taker).hp),
            Some(Result::Killed) if b.taker != v => format!("{} takes it: killed", self.n(b.taker)),
            Some(Result::Killed) => "killed".to_string(),
            None => String::new(),
        };
        let _ = writeln!(
            self.out,
            "  {step} {} attacks {}{random}: A1 hits (level {ml} + {misses} misses >= {vl}); A2 {} damage {}; A3 armor soaks {}, {} dealt: {result}",
            self.n(m),
            self.n(v),
            b.attack.word(),
            b.damage,
            b.soaked,
            b.dealt
        );
        // What the hit set off, after the hit.
        if let Some(h) = held {
            self.out.push_str(&h);
        }
    }

    fn compelled(&mut self, m: Who, v: Who) {
        let _ = writeln!(
            self.out,
            "  compulsion: {} must attack {}",
            self.n(m),
            self.n(v)
        );
    }

    fn effect(&mut self, holder: Who, target: Who, what: &str, _f: &Fight) {
        let on = if holder == target {
            String::new()
        } else {
            format!(" on {}", self.n(target))
        };
        if what.ends_with("withdraws from the combat") {
            self.withdrew.push(self.n(target));
        }
        let line = format!("    effect of {}{on}: {what}", self.n(holder));
        let _ = writeln!(self.w(), "{line}");
    }

    fn died(&mut self, v: Who, by: Option<Who>) {
        let line = match by {
            Some(by) => format!("  A7 {} is killed by {} and buried", self.n(v), self.n(by)),
            None => format!("  {} dies and is buried", self.n(v)),
        };
        let _ = writeln!(self.w(), "{line}");
    }

    fn end(&mut self, o: &Outcome) {
        let how = match (o.end, o.winner) {
            (End::Wiped, Some(w)) => format!(
                "{} wins: {} is wiped out",
                self.groups[w],
                self.groups[1 - w]
            ),
            (End::Both, _) => "both groups are wiped out".to_string(),
            // A combat ended early by a withdrawal (MC-46) says so.
            _ if !self.withdrew.is_empty() => format!(
                "both groups stand; it ends after {} rounds as {} withdrew (MC-46)",
                o.rounds,
                self.withdrew.join(", ")
            ),
            _ => format!("both groups stand after {} rounds", o.rounds),
        };
        let _ = writeln!(
            self.out,
            "\nC4 End of combat after {} round(s): {how}.",
            o.rounds
        );
        for s in 0..2 {
            let q = o.qualified(s).iter().filter(|q| **q).count();
            let _ = writeln!(
                self.out,
                "  {}: {} of {} standing, {} HP left; {} attacks, {} hits, {} misses, {} damage dealt, {} kills; {q} recruit(s) qualify for an experience level (A8)",
                self.groups[s],
                o.survivors(s),
                o.size[s],
                o.hp_left(s),
                o.attacks[s],
                o.hits[s],
                o.misses[s],
                o.damage[s],
                o.kills[s]
            );
        }
    }
}

/// JSON Lines: one object per choice and per attack, then the outcome.
pub struct JsonTrace {
    pub out: Sink,
    round: u32,
}

impl JsonTrace {
    pub fn new(out: Sink) -> JsonTrace {
        JsonTrace { out, round: 0 }
    }
}

impl Hook for JsonTrace {
    fn round(&mut self, r: u32, _f: &Fight) {
        self.round = r;
    }
    fn paired(&mut self, a: Who, b: Who) {
        let _ = writeln!(
            self.out,
            r#"{{"round":{},"step":"pair","minion":[{},{}],"victim":[{},{}]}}"#,
            self.round, a.0, a.1, b.0, b.1
        );
    }
    fn wise(&mut self, m: Who, v: Who, why: Tiebreak) {
        let _ = writeln!(
            self.out,
            r#"{{"round":{},"step":"wise","minion":[{},{}],"victim":[{},{}],"tiebreaker":{}}}"#,
            self.round, m.0, m.1, v.0, v.1, why as u8
        );
    }
    fn retaliates(&mut self, m: Who, v: Who) {
        let _ = writeln!(
            self.out,
            r#"{{"round":{},"step":"retaliate","minion":[{},{}],"victim":[{},{}]}}"#,
            self.round, m.0, m.1, v.0, v.1
        );
    }
    fn forfeits(&mut self, m: Who, attacks: u32) {
        let _ = writeln!(
            self.out,
            r#"{{"round":{},"step":"forfeit","minion":[{},{}],"attacks":{attacks}}}"#,
            self.round, m.0, m.1
        );
    }
    fn compelled(&mut self, m: Who, v: Who) {
        let _ = writeln!(
            self.out,
            r#"{{"round":{},"step":"compel","minion":[{},{}],"victim":[{},{}]}}"#,
            self.round, m.0, m.1, v.0, v.1
        );
    }
    fn effect(&mut self, h: Who, t: Who, what: &str, _f: &Fight) {
        let _ = writeln!(
            self.out,
            r#"{{"round":{},"step":"effect","minion":[{},{}],"target":[{},{}],"what":{:?}}}"#,
            self.round, h.0, h.1, t.0, t.1, what
        );
    }
    fn died(&mut self, m: Who, by: Option<Who>) {
        let by = by.map_or("null".to_string(), |b| format!("[{},{}]", b.0, b.1));
        let _ = writeln!(
            self.out,
            r#"{{"round":{},"step":"died","minion":[{},{}],"by":{by}}}"#,
            self.round, m.0, m.1
        );
    }
    fn blow(&mut self, m: Who, v: Who, b: &Blow, _f: &Fight) {
        let result = match b.result {
            Some(Result::Bounced) => "\"bounced\"",
            Some(Result::Damaged) => "\"damaged\"",
            Some(Result::Killed) => "\"killed\"",
            None => "null",
        };
        let _ = writeln!(
            self.out,
            r#"{{"round":{},"step":"attack","minion":[{},{}],"victim":[{},{}],"attack":"{}","random":{},"hit":{},"damage":{},"soaked":{},"dealt":{},"result":{result}}}"#,
            self.round,
            m.0,
            m.1,
            v.0,
            v.1,
            b.attack.word(),
            b.random,
            b.hit,
            b.damage,
            b.soaked,
            b.dealt
        );
    }
    fn end(&mut self, o: &Outcome) {
        let winner = o.winner.map_or("null".to_string(), |w| w.to_string());
        let _ = writeln!(
            self.out,
            r#"{{"step":"end","rounds":{},"winner":{winner},"hp":[{:?},{:?}]}}"#,
            o.rounds,
            o.hp(0),
            o.hp(1)
        );
    }
}

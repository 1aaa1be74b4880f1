//! Narration of one combat in sentences, as the other games tell theirs (issue 50): who pairs
//! with whom, who aims at whom and why (the wise-targeting tiebreaker), every hit and miss with
//! the levels that decided it, what armor soaked, every death and effect. The page's step names
//! (R1..R4, A1..A8) are in the JSON trace (`--trace`), one object per step.

use std::fmt::Write;

use crate::games::minion_combat::board::{Board, play_quiet};
use crate::games::minion_combat::input::combat::CombatFile;
use crate::games::minion_combat::reference::{Blow, Fight, Hook, INFINITE, Result, Tiebreak, Who};
use crate::games::minion_combat::rules::Rules;
use crate::games::minion_combat::state::{End, Group, Outcome};
use crate::platform::narration::{Told, restyle};
use crate::platform::sink::Sink;

/// The tags of a combat file the kernel does not play yet (MC-40), said before its combat.
pub fn unplayed(c: &CombatFile) -> String {
    if c.unplayed.is_empty() {
        return String::new();
    }
    let list: Vec<String> = c
        .unplayed
        .iter()
        .map(|(n, t)| format!("{n} ({t})"))
        .collect();
    format!(
        "Not played yet (MC-40), these tags do nothing (the rest of each minion is played): {}\n",
        list.join(", ")
    )
}

/// One combat as `minions combat` tells it: its result, a narration, or a JSON trace.
pub fn tell(c: &CombatFile, r: &Rules, seed: u64, told: Told) -> String {
    use crate::games::minion_combat::reference::{Quiet, combat};
    let groups = [&c.groups[0], &c.groups[1]];
    let style = match told {
        Told::Traced => {
            let mut t = JsonTrace::new(Sink::stdout());
            combat(groups, r, seed, &mut t);
            return t.out.finish();
        }
        Told::Narrated(style) => {
            let mut out = Sink::stdout().styled(style);
            out.push_str(&unplayed(c));
            let mut n = Narrator::new(groups, out);
            combat(groups, r, seed, &mut n);
            return n.out.finish();
        }
        Told::Result(style) => style,
    };
    let o = combat(groups, r, seed, &mut Quiet);
    let mut s = unplayed(c);
    s.push_str(&format!(
        "seed {seed}: {} after {} round(s)\n",
        match o.winner {
            Some(w) => format!("{} wins", c.groups[w].name),
            None if o.survivors(0) + o.survivors(1) == 0 => "both groups wiped out".into(),
            None => "both groups stand".into(),
        },
        o.rounds
    ));
    for k in 0..2 {
        s.push_str(&format!(
            "  {}: {} of {} standing, {} HP left\n",
            c.groups[k].name,
            o.survivors(k),
            o.size[k],
            o.hp_left(k)
        ));
    }
    restyle(style, &s)
}

/// A board's turn as `minions combat BOARD` tells it: the combats in the page's order (MC-5)
/// and what stands after them, a narration of each combat, or a JSON trace.
pub fn tell_board(mut b: Board, r: &Rules, told: Told) -> String {
    let labels: Vec<(String, String)> = b
        .groups
        .iter()
        .map(|p| (p.label.clone(), p.player.word().to_string()))
        .collect();
    // Narrations and traces stream as each combat is told (bounded memory, issue 53); the
    // board's summary, which comes first, is played quietly on a copy.
    let narrated = matches!(told, Told::Narrated(_)).then(|| b.clone());
    if told == Told::Traced {
        let f = b.play(
            r,
            |k, _| {
                let mut out = Sink::stdout();
                out.push_str(&format!("{{\"step\":\"combat\",\"combat\":{}}}\n", k + 1));
                JsonTrace::new(out)
            },
            |_, j| {
                j.out.finish();
            },
        );
        return format!("{{\"step\":\"board\",\"combats\":{}}}\n", f.len());
    }
    let fought = play_quiet(&mut b, r);
    let mut s = format!(
        "Board {}x{}, {} has initiative; {} combat(s) in the page's order (MC-5), combat k seeded match_seed({}, k - 1)\n",
        b.rows,
        b.cols,
        b.initiative.word(),
        fought.len(),
        b.seed
    );
    for (k, f) in fought.iter().enumerate() {
        let (x, y) = (&labels[f.a], &labels[f.b]);
        let o = &f.outcome;
        s.push_str(&format!(
            "  combat {}: {} ({} {}) against {} ({} {}) to its {}: {} after {} round(s)\n",
            k + 1,
            b.groups[f.a].group.name,
            x.1,
            x.0,
            b.groups[f.b].group.name,
            y.1,
            y.0,
            f.step.word(),
            match o.winner {
                Some(0) => format!("{} wins", b.groups[f.a].group.name),
                Some(_) => format!("{} wins", b.groups[f.b].group.name),
                None if o.survivors(0) + o.survivors(1) == 0 => "both wiped out".into(),
                None => "both stand".into(),
            },
            o.rounds
        ));
    }
    s.push_str("After the combat phase:\n");
    for p in &b.groups {
        let ms = &p.group.minions;
        s.push_str(&format!(
            "  {} ({} {}): {}\n",
            p.group.name,
            p.player.word(),
            p.label,
            if ms.is_empty() {
                "wiped out, leaves the board".to_string()
            } else {
                format!(
                    "{} minions, {} HP",
                    ms.len(),
                    ms.iter().map(|m| m.hp as i64).sum::<i64>()
                )
            }
        ));
    }
    let style = told.style();
    let Some(mut again) = narrated else {
        return restyle(style, &s);
    };
    let mut out = Sink::stdout().styled(style);
    out.push_str(&s);
    out.finish();
    again.play(
        r,
        |k, g| {
            let mut out = Sink::stdout().styled(style);
            out.push_str(&format!("\n=== Combat {} ===\n", k + 1));
            Narrator::new(g, out)
        },
        |_, n| {
            n.out.finish();
        },
    );
    String::new()
}

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
        let whose = |o: crate::games::minion_combat::state::Owner| match o.word() {
            "neutral" => "neutral".to_string(),
            w => format!("the {w} player's"),
        };
        let _ = writeln!(
            self.out,
            "{} ({} minions, {}) meets {} ({} minions, {}); {} has precedence and strikes first each round (MC-3).",
            g[0].name,
            g[0].minions.len(),
            whose(g[0].owner),
            g[1].name,
            g[1].minions.len(),
            whose(g[1].owner),
            g[first].name
        );
    }

    fn round(&mut self, r: u32, f: &Fight) {
        let what = if r == 1 {
            ": the missile round (only missile attacks, at the round's modifier, and every one hits; bashers sit it out)"
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
            let _ = writeln!(
                self.out,
                "  {} stands with {}.",
                self.groups[s],
                alive.join(", ")
            );
        }
    }

    fn paired(&mut self, a: Who, b: Who) {
        let _ = writeln!(
            self.out,
            "  {} and {} pair up to bash each other.",
            self.n(a),
            self.n(b)
        );
    }

    fn wise(&mut self, m: Who, v: Who, why: Tiebreak) {
        let _ = writeln!(
            self.out,
            "  {} aims at {} ({}).",
            self.n(m),
            self.n(v),
            why.reason()
        );
    }

    fn retaliates(&mut self, m: Who, v: Who) {
        let _ = writeln!(
            self.out,
            "  {} has no partner and strikes back at {}, who aimed at it.",
            self.n(m),
            self.n(v)
        );
    }

    fn forfeits(&mut self, m: Who, attacks: u32) {
        let _ = writeln!(
            self.out,
            "  {} finds no one to bash and loses its {attacks} attack(s).",
            self.n(m)
        );
    }

    fn hit_begins(&mut self, _m: Who, _v: Who) {
        self.held = Some(String::new());
    }

    fn blow(&mut self, m: Who, v: Who, b: &Blow, f: &Fight) {
        let held = self.held.take();
        let random = if b.random {
            " (a multi-attack: a random victim)"
        } else {
            ""
        };
        let (ml, vl) = b.levels;
        let misses = match b.misses {
            1 => "1 miss".to_string(),
            n => format!("{n} misses"),
        };
        if !b.hit {
            let _ = writeln!(
                self.out,
                "  {} misses {}{random}: level {ml} and {misses} so far fall short of level {vl}.",
                self.n(m),
                self.n(v)
            );
            return;
        }
        let why = if b.misses == INFINITE {
            // MC-9: round 1 set its misses to infinite, so its first attack since hits.
            "its first attack since round 1 hits whatever the levels, MC-9".to_string()
        } else {
            format!("level {ml} and {misses} so far reach level {vl}")
        };
        let result = match b.result {
            Some(Result::Bounced) if b.healed > 0 => {
                format!("instead it heals {} by {}", self.n(v), b.healed)
            }
            Some(Result::Bounced) => "it does no harm".to_string(),
            // A hit taken by another (MC-49) names who took it and whose HP is left.
            Some(Result::Damaged) if b.taker != v => format!(
                "{} takes it and has {} HP left",
                self.n(b.taker),
                f.get(b.taker).hp
            ),
            Some(Result::Damaged) => format!("{} HP left", f.get(b.taker).hp),
            Some(Result::Killed) if b.taker != v => {
                format!("{} takes it and is killed", self.n(b.taker))
            }
            Some(Result::Killed) => "a killing blow".to_string(),
            None => String::new(),
        };
        let _ = writeln!(
            self.out,
            "  {} hits {}{random} ({why}): {} {} damage, armor soaks {}, {} dealt; {result}.",
            self.n(m),
            self.n(v),
            b.damage,
            b.attack.word(),
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
            "  {} is compelled to attack {}.",
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
        let line = format!("    {}'s effect{on}: {what}.", self.n(holder));
        let _ = writeln!(self.w(), "{line}");
    }

    fn died(&mut self, v: Who, by: Option<Who>) {
        let line = match by {
            Some(by) => format!("  {} falls to {} and is buried.", self.n(v), self.n(by)),
            None => format!("  {} dies and is buried.", self.n(v)),
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
            "\nThe combat ends after {} round(s): {how}.",
            o.rounds
        );
        for s in 0..2 {
            let q = o.qualified(s).iter().filter(|q| **q).count();
            let _ = writeln!(
                self.out,
                "  {}: {} of {} standing, {} HP left; {} attacks, {} hits, {} misses, {} damage dealt, {} kills; {q} recruit(s) qualify for an experience level (MC-21).",
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

/// JSON Lines: one object per choice and per attack, then the outcome; `page` names the page's
/// step (R2 pairing and compulsion, R3 / R4 the precedence side's attacks and the other's, A7 a
/// burial), which the narration tells in words.
pub struct JsonTrace {
    pub out: Sink,
    round: u32,
    first: usize,
}

impl JsonTrace {
    pub fn new(out: Sink) -> JsonTrace {
        JsonTrace {
            out,
            round: 0,
            first: 0,
        }
    }

    /// R3 for the side with precedence, R4 for the other.
    fn side_step(&self, m: Who) -> &'static str {
        if m.0 == self.first { "R3" } else { "R4" }
    }

    /// The opening of an R3 / R4 step's object: round, step, page, minion and victim.
    fn at(&self, step: &str, m: Who, v: Who) -> String {
        format!(
            r#"{{"round":{},"step":"{step}","page":"{}","minion":[{},{}],"victim":[{},{}]"#,
            self.round,
            self.side_step(m),
            m.0,
            m.1,
            v.0,
            v.1
        )
    }
}

impl Hook for JsonTrace {
    fn start(&mut self, _g: &[&Group; 2], first: usize) {
        self.first = first;
    }
    fn round(&mut self, r: u32, _f: &Fight) {
        self.round = r;
    }
    fn paired(&mut self, a: Who, b: Who) {
        let _ = writeln!(
            self.out,
            r#"{{"round":{},"step":"pair","page":"R2","minion":[{},{}],"victim":[{},{}]}}"#,
            self.round, a.0, a.1, b.0, b.1
        );
    }
    fn wise(&mut self, m: Who, v: Who, why: Tiebreak) {
        let at = self.at("wise", m, v);
        let _ = writeln!(self.out, r#"{at},"tiebreaker":{}}}"#, why as u8);
    }
    fn retaliates(&mut self, m: Who, v: Who) {
        let at = self.at("retaliate", m, v);
        let _ = writeln!(self.out, "{at}}}");
    }
    fn forfeits(&mut self, m: Who, attacks: u32) {
        let _ = writeln!(
            self.out,
            r#"{{"round":{},"step":"forfeit","page":"{}","minion":[{},{}],"attacks":{attacks}}}"#,
            self.round,
            self.side_step(m),
            m.0,
            m.1
        );
    }
    fn compelled(&mut self, m: Who, v: Who) {
        let _ = writeln!(
            self.out,
            r#"{{"round":{},"step":"compel","page":"R2","minion":[{},{}],"victim":[{},{}]}}"#,
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
            r#"{{"round":{},"step":"died","page":"A7","minion":[{},{}],"by":{by}}}"#,
            self.round, m.0, m.1
        );
    }
    fn blow(&mut self, m: Who, v: Who, b: &Blow, _f: &Fight) {
        // The attacker's misses before the check; null in round 1, where every attack hits.
        let misses = if b.misses == INFINITE {
            "null".to_string()
        } else {
            b.misses.to_string()
        };
        let result = match b.result {
            Some(Result::Bounced) => "\"bounced\"",
            Some(Result::Damaged) => "\"damaged\"",
            Some(Result::Killed) => "\"killed\"",
            None => "null",
        };
        let at = self.at("attack", m, v);
        let _ = writeln!(
            self.out,
            r#"{at},"attack":"{}","random":{},"hit":{},"damage":{},"soaked":{},"dealt":{},"result":{result},"levels":[{},{}],"misses":{misses}}}"#,
            b.attack.word(),
            b.random,
            b.hit,
            b.damage,
            b.soaked,
            b.dealt,
            b.levels.0,
            b.levels.1
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

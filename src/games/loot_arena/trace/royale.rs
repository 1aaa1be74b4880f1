//! Telling a whole royale (`loot play ROYALE --narrate`, `--trace`): the map each round (who is
//! where, as the host posts it), what each player looted and wore, every battle in part 1's
//! narration, eliminations. Battles are replayed from their seeds through the battle kernel
//! with part 1's `Narrator`: a battle is a pure function of its fielded champions and seed.

use std::fmt::Write as _;

use crate::games::loot_arena::kernel::battle::Battle;
use crate::games::loot_arena::kernel::royale::{End, Hook, Meeting, Report};
use crate::games::loot_arena::rules::{Class, Ring, Rules};
use crate::games::loot_arena::state::{Catalogue, Fielded, Gear, NO_ITEM, Outcome};
use crate::games::loot_arena::strategy::OUT;
use crate::games::loot_arena::trace::{JsonTrace, Narrator};
use crate::platform::sink::Sink;

/// A cell as a host names it: column then row, 1-based, row 1 north.
pub fn cell_name(c: u8, side: u32) -> String {
    format!("({},{})", c as u32 % side + 1, c as u32 / side + 1)
}

/// The players' one-letter marks on the map: A, B, ... then a, b, ... then digits.
pub fn mark(p: usize) -> char {
    const MARKS: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789!?#$%&*+";
    MARKS[p % MARKS.len()] as char
}

/// The map as rows of cells, each listing the marks of the players on it.
pub fn map(cell: &[u8], side: u32) -> String {
    let mut width = 1;
    let mut on = vec![String::new(); (side * side) as usize];
    for (p, &c) in cell.iter().enumerate() {
        if c != OUT {
            on[c as usize].push(mark(p));
            width = width.max(on[c as usize].len());
        }
    }
    let mut out = String::new();
    for y in 0..side {
        out.push_str("   ");
        for x in 0..side {
            let s = &on[(y * side + x) as usize];
            let s = if s.is_empty() { "." } else { s.as_str() };
            let _ = write!(out, " {s:<width$}");
        }
        out.truncate(out.trim_end().len());
        out.push('\n');
    }
    out
}

/// The narration (`--narrate`).
pub struct RoyaleNarrator<'a> {
    /// Streamed to stdout by the CLI: a royale of any length is told in bounded memory.
    pub out: Sink,
    names: &'a [String],
    cat: &'a Catalogue,
    rules: &'a Rules,
    side: u32,
    loot: Vec<Vec<String>>,
    ring: Vec<Ring>,
    worn: Vec<String>,
}

impl<'a> RoyaleNarrator<'a> {
    pub fn new(
        names: &'a [String],
        specs: &[String],
        cat: &'a Catalogue,
        rules: &'a Rules,
        mut out: Sink,
        players: bool,
    ) -> RoyaleNarrator<'a> {
        if players {
            out.push_str("Players:\n");
            for (p, (n, s)) in names.iter().zip(specs).enumerate() {
                let _ = writeln!(out, "  {} {n} ({s})", mark(p));
            }
        }
        RoyaleNarrator {
            out,
            names,
            cat,
            rules,
            side: 0,
            loot: vec![Vec::new(); names.len()],
            ring: vec![Ring::Corner; names.len()],
            worn: vec![String::new(); names.len()],
        }
    }

    fn item(&self, i: u16) -> String {
        match self.cat.get(i) {
            Some(it) => format!("{} {}", it.name, it.dice),
            None => "?".into(),
        }
    }

    /// A player's champions and bag in one line.
    fn gear(&self, g: &Gear) -> String {
        let mut parts = Vec::new();
        for (c, ch) in g.champs.iter().enumerate() {
            let class = Class::from_index(c as u8);
            if !ch.alive() {
                parts.push(format!("{} fallen", class.name()));
                continue;
            }
            let mut items: Vec<String> = ch
                .items
                .iter()
                .filter(|&&i| i != NO_ITEM)
                .map(|&i| self.item(i))
                .collect();
            if ch.armor != NO_ITEM {
                items.push(format!("armor {}", self.item(ch.armor)));
            }
            let items = if items.is_empty() {
                String::new()
            } else {
                format!(" [{}]", items.join(", "))
            };
            parts.push(format!(
                "{} {}/{}{items}",
                class.name(),
                ch.health,
                self.rules.class(class).health
            ));
        }
        let mut s = parts.join("; ");
        if g.bag_len > 0 {
            let bag: Vec<String> = g.bag().iter().map(|&i| self.item(i)).collect();
            let _ = write!(s, "; bag: {}", bag.join(", "));
        }
        s
    }

    /// The ending: how the game ended and every player's place.
    pub fn finish(&mut self, rep: &Report) {
        let _ = match rep.end {
            End::Won => writeln!(
                self.out,
                "\n{} wins the royale after {} rounds.",
                self.names[rep.winner.unwrap_or(0) as usize],
                rep.rounds
            ),
            End::Draw => writeln!(
                self.out,
                "\nThe last players fell together in round {}: a draw (LA-48).",
                rep.rounds
            ),
            End::Cap => writeln!(
                self.out,
                "\nThe round cap ({}) ends the game: a turn cap, no winner (LA-48).",
                rep.rounds
            ),
            End::Stalled => writeln!(
                self.out,
                "\nRound {}: nobody moved, no two players share a cell and none of them ever \
                 moves at random: no battle can come again. The game stalls, no winner (LA-52).",
                rep.rounds
            ),
        };
        let mut order: Vec<usize> = (0..rep.players).collect();
        order.sort_by_key(|&p| (rep.place[p], p));
        for p in order {
            let out = if rep.out_round[p] == 0 {
                "still in".to_string()
            } else {
                format!("out in round {}", rep.out_round[p])
            };
            let _ = writeln!(
                self.out,
                "  {:>2}. {} {} ({out}; {} battles, {} won; {} items found, {} held)",
                rep.place[p],
                mark(p),
                self.names[p],
                rep.battles[p],
                rep.battles_won[p],
                rep.found[p],
                rep.held[p]
            );
        }
    }
}

impl Hook for RoyaleNarrator<'_> {
    const ON: bool = true;

    fn round(&mut self, round: u32, side: u32, cell: &[u8]) {
        self.side = side;
        if round == 1 {
            let _ = writeln!(self.out, "\nSpawns (LA-40):");
            self.out.push_str(&map(cell, side));
        }
        let _ = writeln!(self.out, "\n=== Round {round} ({side}x{side} map) ===");
    }

    fn shrink(&mut self, round: u32, from: u32, to: u32, cell: &[u8]) {
        let _ = writeln!(
            self.out,
            "\nThe map shrinks from {from}x{from} to {to}x{to} at the start of round {round} (LA-41):"
        );
        self.out.push_str(&map(cell, to));
    }

    fn moved(&mut self, _round: u32, from: &[u8], to: &[u8]) {
        let mut moves = Vec::new();
        for p in 0..from.len() {
            if from[p] == OUT {
                continue;
            }
            if from[p] == to[p] {
                moves.push(format!("{} stays", mark(p)));
            } else {
                moves.push(format!(
                    "{} {} -> {}",
                    mark(p),
                    cell_name(from[p], self.side),
                    cell_name(to[p], self.side)
                ));
            }
        }
        let _ = writeln!(self.out, "Movement: {}", moves.join(", "));
        self.out.push_str(&map(to, self.side));
    }

    fn looted(&mut self, p: usize, ring: Ring, item: Option<u16>) {
        self.ring[p] = ring;
        self.loot[p].push(match item {
            Some(i) => {
                let it = &self.cat.items[i as usize];
                format!("{} ({} {})", it.name, it.label(), it.dice)
            }
            None => "nothing".into(),
        });
    }

    fn equipped(&mut self, p: usize, g: &Gear) {
        let found = std::mem::take(&mut self.loot[p]);
        if !found.is_empty() {
            let _ = writeln!(
                self.out,
                "{} {} loots ({}): {}",
                mark(p),
                self.names[p],
                self.ring[p].key(),
                found.join(", ")
            );
        }
        let worn = self.gear(g);
        if worn != self.worn[p] {
            let _ = writeln!(self.out, "  equips: {worn}");
            self.worn[p] = worn;
        }
    }

    fn battle(&mut self, m: &Meeting, f: &Fielded, o: &Outcome) {
        let (a, b) = (m.players[0] as usize, m.players[1] as usize);
        let twice = if m.twice {
            format!(
                " ({} fights a second time: the odd player's battle, LA-46)",
                self.names[b]
            )
        } else {
            String::new()
        };
        let _ = writeln!(
            self.out,
            "\nBattle on {}: {} vs {}{twice}",
            cell_name(m.cell, self.side),
            self.names[a],
            self.names[b]
        );
        let players = [self.names[a].clone(), self.names[b].clone()];
        let mut n = Narrator::new(&players, f, self.cat, self.rules);
        let replay = Battle::new().play(f, self.cat, self.rules, m.seed, &mut n);
        debug_assert_eq!(replay, *o, "a battle replays from its seed");
        n.finish(o);
        for line in n.out.lines() {
            if line.is_empty() {
                self.out.push('\n');
            } else {
                let _ = writeln!(self.out, "  {line}");
            }
        }
        self.worn[a].clear();
        self.worn[b].clear();
    }

    fn out(&mut self, p: usize, round: u32) {
        let _ = writeln!(
            self.out,
            "{} {} is out in round {round}: all four champions have fallen (LA-47)",
            mark(p),
            self.names[p]
        );
    }
}

/// JSON Lines (`--trace`): one object per round, move, loot, equipment, battle (with part 1's
/// action objects) and elimination, then the result.
pub struct RoyaleTrace<'a> {
    pub out: Sink,
    cat: &'a Catalogue,
    rules: &'a Rules,
    side: u32,
}

impl<'a> RoyaleTrace<'a> {
    pub fn new(cat: &'a Catalogue, rules: &'a Rules, out: Sink) -> RoyaleTrace<'a> {
        RoyaleTrace {
            out,
            cat,
            rules,
            side: 0,
        }
    }
    fn line(&mut self, v: serde_json::Value) {
        self.out.push_str(&v.to_string());
        self.out.push('\n');
    }
    pub fn finish(&mut self, rep: &Report) {
        let n = rep.players;
        self.line(serde_json::json!({
            "event": "result", "end": rep.end.name(), "rounds": rep.rounds, "winner": rep.winner,
            "place": &rep.place[..n], "out_round": &rep.out_round[..n],
            "battles": &rep.battles[..n], "found": &rep.found[..n], "held": &rep.held[..n],
        }));
    }
}

impl Hook for RoyaleTrace<'_> {
    const ON: bool = true;
    fn round(&mut self, round: u32, side: u32, cell: &[u8]) {
        self.side = side;
        let cells: Vec<Option<u8>> = cell.iter().map(|&c| (c != OUT).then_some(c)).collect();
        self.line(
            serde_json::json!({"event": "round", "round": round, "side": side, "cells": cells}),
        );
    }
    fn shrink(&mut self, round: u32, from: u32, to: u32, cell: &[u8]) {
        let cells: Vec<Option<u8>> = cell.iter().map(|&c| (c != OUT).then_some(c)).collect();
        self.line(serde_json::json!({"event": "shrink", "round": round, "from": from, "to": to, "cells": cells}));
    }
    fn moved(&mut self, _round: u32, _from: &[u8], to: &[u8]) {
        let cells: Vec<Option<u8>> = to.iter().map(|&c| (c != OUT).then_some(c)).collect();
        self.line(serde_json::json!({"event": "moved", "cells": cells}));
    }
    fn looted(&mut self, p: usize, ring: Ring, item: Option<u16>) {
        let name = item.and_then(|i| self.cat.get(i)).map(|i| i.name.clone());
        self.line(
            serde_json::json!({"event": "loot", "player": p, "ring": ring.key(), "item": name}),
        );
    }
    fn equipped(&mut self, p: usize, g: &Gear) {
        let name = |i: u16| self.cat.get(i).map(|i| i.name.clone());
        let champs: Vec<serde_json::Value> = g
            .champs
            .iter()
            .map(|c| {
                serde_json::json!({
                    "health": c.health,
                    "items": c.items.iter().filter_map(|&i| name(i)).collect::<Vec<_>>(),
                    "armor": name(c.armor),
                })
            })
            .collect();
        let bag: Vec<Option<String>> = g.bag().iter().map(|&i| name(i)).collect();
        self.line(
            serde_json::json!({"event": "equip", "player": p, "champions": champs, "bag": bag}),
        );
    }
    fn battle(&mut self, m: &Meeting, f: &Fielded, o: &Outcome) {
        self.line(serde_json::json!({
            "event": "battle", "round": m.round, "battle": m.index, "cell": m.cell,
            "players": m.players, "champions": m.champs, "twice": m.twice, "seed": m.seed,
        }));
        let mut t = JsonTrace::default();
        Battle::new().play(f, self.cat, self.rules, m.seed, &mut t);
        t.finish(o);
        self.out.push_str(&t.out);
    }
    fn out(&mut self, p: usize, round: u32) {
        self.line(serde_json::json!({"event": "out", "player": p, "round": round}));
    }
}

/// One whole royale told as a host's `loot play` asks (LA-40..LA-48, LA-52): narrated, traced,
/// or its places only; streamed as it is told, so memory stays bounded whatever its length
/// (issue 53).
pub fn tell(
    g: &crate::games::loot_arena::input::royale::RoyaleFile,
    r: &Rules,
    cat: &Catalogue,
    seed: u64,
    told: crate::platform::narration::Told,
) -> String {
    use crate::games::loot_arena::kernel::royale::{Quiet, Royale};
    use crate::platform::narration::Told;
    let mut engine = Royale::new();
    let mut battle = Battle::new();
    let style = match told {
        Told::Traced => {
            let mut t = RoyaleTrace::new(cat, r, Sink::stdout());
            let rep = engine.play(&g.seats, cat, r, seed, &mut battle, &mut t);
            t.finish(rep);
            return t.out.finish();
        }
        Told::Narrated(s) | Told::Result(s) => s,
    };
    let narrate = matches!(told, Told::Narrated(_));
    let specs: Vec<String> = g.seats.iter().map(|s| s.spec()).collect();
    let out = Sink::stdout().styled(style);
    let mut n = RoyaleNarrator::new(&g.names, &specs, cat, r, out, narrate);
    let rep = if narrate {
        engine.play(&g.seats, cat, r, seed, &mut battle, &mut n)
    } else {
        engine.play(&g.seats, cat, r, seed, &mut battle, &mut Quiet)
    };
    n.finish(rep);
    n.out.finish()
}

//! A game told turn by turn (`skirmish tag play --narrate`): the moves, every collision with its
//! kind, tags, points, eliminations and the map, as a host would post it; and `--trace`, JSON
//! Lines of the same. Both listen through [`TurnHook`].

use std::fmt::Write;

use crate::games::elemental_tag::kernel::collide::Collision;
use crate::games::elemental_tag::kernel::engine::{End, Game, Outcome, TeamSpec, TurnHook};
use crate::games::elemental_tag::rules::DIR_NAMES;

/// The map's mark for player `i`: A..Z, then a..z, then digits, then `#`.
pub fn mark(i: usize) -> char {
    const MARKS: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    MARKS.get(i).map_or('#', |&b| b as char)
}

/// Tells a game.
pub struct Narrator<'a> {
    pub teams: &'a [TeamSpec],
    pub names: Vec<&'a str>,
    pub out: String,
}

impl<'a> Narrator<'a> {
    pub fn new(teams: &'a [TeamSpec]) -> Narrator<'a> {
        let names = teams
            .iter()
            .flat_map(|t| t.players.iter().map(|p| p.0.as_str()))
            .collect();
        Narrator {
            teams,
            names,
            out: String::new(),
        }
    }

    fn map(&mut self, g: &Game) {
        let mut rows = vec![vec!['.'; g.side as usize]; g.side as usize];
        for i in 0..g.cell.len() {
            if g.alive[i] {
                let c = g.cell[i];
                rows[(c / g.side) as usize][(c % g.side) as usize] = mark(i);
            }
        }
        for r in rows {
            let line: String = r.iter().flat_map(|&c| [' ', c]).collect();
            let _ = writeln!(self.out, "   {line}");
        }
    }

    fn points(&mut self, g: &Game) {
        let parts: Vec<String> = self
            .teams
            .iter()
            .enumerate()
            .filter(|(t, _)| g.team_in[*t])
            .map(|(t, spec)| format!("{} {}", spec.name, g.points[t]))
            .collect();
        let _ = writeln!(
            self.out,
            "  Points: {}. It: {}.",
            parts.join(", "),
            self.names[g.it as usize]
        );
    }

    /// The verdict after the game.
    pub fn finish(&mut self, o: &Outcome) {
        let _ = match o.end {
            End::Won => writeln!(
                self.out,
                "{} wins after {} turns.",
                self.teams[o.winner.unwrap() as usize].name,
                o.turns
            ),
            End::AllOut => writeln!(
                self.out,
                "The last teams fell together after {} turns.",
                o.turns
            ),
            End::TurnCap => writeln!(
                self.out,
                "Turn cap: still playing after {} turns (TG-31).",
                o.turns
            ),
        };
        let parts: Vec<String> = self
            .teams
            .iter()
            .zip(&o.score)
            .map(|(t, s)| format!("{} {s}", t.name))
            .collect();
        let _ = writeln!(self.out, "Scores (TG-32): {}.", parts.join(", "));
    }
}

impl TurnHook for Narrator<'_> {
    const ENABLED: bool = true;

    fn start(&mut self, g: &Game, o: &Outcome) {
        let _ = writeln!(
            self.out,
            "Elemental Tag: {} teams, {} players, a {}x{} grid.",
            self.teams.len(),
            self.names.len(),
            g.side,
            g.side
        );
        let bids: Vec<String> = self
            .names
            .iter()
            .zip(&o.bid)
            .map(|(n, b)| format!("{n} {b}"))
            .collect();
        let _ = writeln!(
            self.out,
            "Bids: {}. {} bid lowest and is it (TG-2).",
            bids.join(", "),
            self.names[o.first_it as usize]
        );
        for (i, r) in o.replaced.iter().enumerate() {
            if *r {
                let _ = writeln!(self.out, "{} pays for a new place (TG-5).", self.names[i]);
            }
        }
        let key: Vec<String> = self
            .names
            .iter()
            .enumerate()
            .map(|(i, n)| format!("{} {n}", mark(i)))
            .collect();
        let _ = writeln!(self.out, "Map key: {}.", key.join(", "));
        self.points(g);
        self.map(g);
    }

    fn turn(
        &mut self,
        g: &Game,
        turn: u32,
        ids: &[u32],
        _from: &[u32],
        dirs: &[u8],
        collisions: &[Collision],
        tag: Option<(u32, u32)>,
        out: &[u16],
    ) {
        let _ = writeln!(self.out, "Turn {turn}:");
        let moves: Vec<String> = ids
            .iter()
            .zip(dirs)
            .map(|(&i, &d)| format!("{} {}", self.names[i as usize], DIR_NAMES[d as usize]))
            .collect();
        let _ = writeln!(self.out, "  Moves: {}.", moves.join(", "));
        if !collisions.is_empty() {
            let mut parts: Vec<String> = collisions
                .iter()
                .map(|c| {
                    let a = self.names[ids[c.a as usize] as usize];
                    let b = self.names[ids[c.b as usize] as usize];
                    match (c.kind, c.mutual) {
                        (1, _) => format!("{a} and {b} try to swap (kind 1)"),
                        (3, _) => format!("{a} and {b} cross diagonally (kind 3)"),
                        (_, true) => format!("{a} and {b} collide on one cell (kind 2)"),
                        (_, false) => format!("{a} runs into {b}, who stays (kind 2)"),
                    }
                })
                .collect();
            parts.sort();
            let _ = writeln!(self.out, "  Collisions: {}.", parts.join("; "));
        }
        if let Some((a, b)) = tag {
            let _ = writeln!(
                self.out,
                "  {} tags {}: {} is it now.",
                self.names[a as usize], self.names[b as usize], self.names[b as usize]
            );
        }
        for &t in out {
            let _ = writeln!(
                self.out,
                "  {} is out of points: all its players leave the game (TG-30).",
                self.teams[t as usize].name
            );
        }
        self.points(g);
        self.map(g);
    }
}

/// JSON Lines: one object per turn, then the result.
#[derive(Default)]
pub struct JsonTrace {
    pub out: String,
}

impl TurnHook for JsonTrace {
    const ENABLED: bool = true;
    fn turn(
        &mut self,
        g: &Game,
        turn: u32,
        ids: &[u32],
        _from: &[u32],
        dirs: &[u8],
        collisions: &[Collision],
        tag: Option<(u32, u32)>,
        out: &[u16],
    ) {
        let cells: Vec<String> = ids
            .iter()
            .map(|&i| g.cell[i as usize].to_string())
            .collect();
        let players: Vec<String> = ids.iter().map(|i| i.to_string()).collect();
        let dirs: Vec<String> = dirs.iter().map(|d| d.to_string()).collect();
        let col: Vec<String> = collisions
            .iter()
            .map(|c| {
                format!(
                    "[{},{},{},{}]",
                    c.kind, ids[c.a as usize], ids[c.b as usize], c.mutual
                )
            })
            .collect();
        let points: Vec<String> = g.points.iter().map(|p| p.to_string()).collect();
        let outs: Vec<String> = out.iter().map(|t| t.to_string()).collect();
        let tag = tag.map_or("null".into(), |(a, b)| format!("[{a},{b}]"));
        let _ = writeln!(
            self.out,
            "{{\"turn\":{turn},\"players\":[{}],\"moves\":[{}],\"cells\":[{}],\"collisions\":[{}],\"tag\":{tag},\"it\":{},\"points\":[{}],\"out\":[{}]}}",
            players.join(","),
            dirs.join(","),
            cells.join(","),
            col.join(","),
            g.it,
            points.join(","),
            outs.join(",")
        );
    }
}

impl JsonTrace {
    pub fn finish(&mut self, o: &Outcome) {
        let scores: Vec<String> = o.score.iter().map(|s| s.to_string()).collect();
        let _ = writeln!(
            self.out,
            "{{\"end\":\"{}\",\"turns\":{},\"winner\":{},\"scores\":[{}]}}",
            o.end.name(),
            o.turns,
            o.winner.map_or("null".into(), |w| w.to_string()),
            scores.join(",")
        );
    }
}

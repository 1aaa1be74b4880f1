//! A game told turn by turn (`skirmish tag play --narrate`): the moves, every collision with its
//! kind, tags, points, eliminations and the map, as a host would post it; and `--trace`, JSON
//! Lines of the same. Both listen through [`TurnHook`].

use std::fmt::Write;

use crate::games::elemental_tag::kernel::collide::Collision;
use crate::games::elemental_tag::kernel::engine::{
    Action, End, Game, Outcome, Signup, TeamSpec, TurnHook,
};
use crate::games::elemental_tag::rules::DIR_NAMES;
use crate::platform::sink::Sink;

/// The map's mark for player `i`: A..Z, then a..z, then digits, then `#`.
pub fn mark(i: usize) -> char {
    const MARKS: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    MARKS.get(i).map_or('#', |&b| b as char)
}

/// Tells a game.
pub struct Narrator<'a> {
    pub teams: &'a [TeamSpec],
    pub names: Vec<&'a str>,
    /// Team names by index, grown as team actions make teams.
    team_names: Vec<String>,
    /// Where the telling goes (in memory unless the caller streams it).
    pub out: Sink,
}

impl<'a> Narrator<'a> {
    pub fn new(teams: &'a [TeamSpec]) -> Narrator<'a> {
        Narrator::with_signups(teams, &[])
    }

    /// A narrator that also knows the late signups' names (TG-66).
    pub fn with_signups(teams: &'a [TeamSpec], signups: &'a [Signup]) -> Narrator<'a> {
        let names = teams
            .iter()
            .flat_map(|t| t.players.iter().map(|p| p.0.as_str()))
            .chain(signups.iter().map(|g| g.name.as_str()))
            .collect();
        Narrator {
            teams,
            names,
            team_names: teams.iter().map(|t| t.name.clone()).collect(),
            out: Sink::memory(),
        }
    }

    fn name_team(&mut self, t: u16, name: String) {
        let t = t as usize;
        if self.team_names.len() <= t {
            self.team_names.resize(t + 1, String::new());
        }
        self.team_names[t] = name;
    }

    fn actions(&mut self, g: &Game, actions: &[Action]) {
        for a in actions {
            let line = match *a {
                Action::Leave {
                    player,
                    from,
                    to,
                    points,
                } => {
                    let p = self.names[player as usize];
                    let line = format!(
                        "{p} leaves {} and plays alone with {points} points (TG-61).",
                        self.team_names[from as usize]
                    );
                    self.name_team(to, p.to_string());
                    line
                }
                Action::Eject {
                    player,
                    from,
                    to,
                    points,
                } => {
                    let p = self.names[player as usize];
                    let from = &self.team_names[from as usize];
                    let line = format!(
                        "{from} votes {p} out: {p} plays alone with {points} points, {from} pays for it (TG-62)."
                    );
                    self.name_team(to, p.to_string());
                    line
                }
                Action::Disband {
                    team,
                    a,
                    b,
                    b_team,
                    keep,
                    give,
                } => {
                    let (pa, pb) = (self.names[a as usize], self.names[b as usize]);
                    let line = format!(
                        "{} disbands: {pa} keeps {keep} points, {pb} takes {give} (TG-63).",
                        self.team_names[team as usize]
                    );
                    self.name_team(team, pa.to_string());
                    self.name_team(b_team, pb.to_string());
                    line
                }
                Action::Found { a, b, team, points } => {
                    let (pa, pb) = (self.names[a as usize], self.names[b as usize]);
                    self.name_team(team, format!("{pa} and {pb}"));
                    format!(
                        "{pa} and {pb} found a team on an open element with {points} points (TG-64)."
                    )
                }
                Action::Join { player, team } => format!(
                    "{} is voted into {} (TG-65).",
                    self.names[player as usize], self.team_names[team as usize]
                ),
                Action::Signup {
                    player,
                    team,
                    joined,
                } => {
                    let p = self.names[player as usize];
                    if joined {
                        self.name_team(team, p.to_string());
                        format!(
                            "{p} signs up late and plays alone with {} points (TG-66).",
                            g.points[team as usize]
                        )
                    } else if team == crate::games::elemental_tag::kernel::engine::SIGNUP_NO_CELL {
                        format!(
                            "{p} signs up late, but no cell of the grid is free: it does not join (TG-66)."
                        )
                    } else {
                        format!("{p} signs up late, but too few players remain (TG-66).")
                    }
                }
            };
            let _ = writeln!(self.out, "  {line}");
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
            .team_names
            .iter()
            .enumerate()
            .filter(|(t, _)| g.team_in.get(*t).copied().unwrap_or(false))
            .map(|(t, name)| format!("{name} {}", g.points[t]))
            .collect();
        // Issue 53: with every team out (on bids, say) this read "Points: . It: a1.", naming an
        // eliminated player as it.
        if parts.is_empty() {
            let _ = writeln!(self.out, "  No team is left in play.");
            return;
        }
        let it = if g.alive.get(g.it as usize).copied().unwrap_or(false) {
            self.names[g.it as usize].to_string()
        } else {
            "no one in play".to_string()
        };
        let _ = writeln!(self.out, "  Points: {}. It: {it}.", parts.join(", "));
    }

    /// The verdict after the game.
    pub fn finish(&mut self, o: &Outcome) {
        let _ = match o.end {
            End::Won => writeln!(
                self.out,
                "{} wins after {} turns.",
                self.team_names[o.winner.unwrap() as usize],
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
            .team_names
            .iter()
            .zip(&o.score)
            .zip(&o.ranked)
            .filter(|((n, _), ranked)| !n.is_empty() && **ranked)
            .map(|((t, s), _)| format!("{t} {s}"))
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
        actions: &[Action],
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
                self.team_names[t as usize]
            );
        }
        self.actions(g, actions);
        self.points(g);
        self.map(g);
    }
}

/// JSON Lines: one object per turn, then the result.
#[derive(Default)]
pub struct JsonTrace {
    /// Where the lines go (in memory unless the caller streams it).
    pub out: Sink,
    /// Players' and teams' names, for the start record.
    names: Vec<String>,
    team_names: Vec<String>,
}

impl JsonTrace {
    pub fn new(teams: &[TeamSpec], signups: &[Signup], out: Sink) -> JsonTrace {
        JsonTrace {
            out,
            names: teams
                .iter()
                .flat_map(|t| t.players.iter().map(|p| p.0.clone()))
                .chain(signups.iter().map(|g| g.name.clone()))
                .collect(),
            team_names: teams.iter().map(|t| t.name.clone()).collect(),
        }
    }
}

impl TurnHook for JsonTrace {
    const ENABLED: bool = true;
    /// The start record (issue 53: a trace could not be replayed alone): the grid, every
    /// player's name, team, bid and starting cell (whether it paid for a new place), the teams
    /// with their points after bids, and the first it.
    fn start(&mut self, g: &Game, o: &Outcome) {
        let players: Vec<serde_json::Value> = (0..g.cell.len())
            .map(|i| {
                serde_json::json!({
                    "name": self.names.get(i),
                    "team": g.team[i],
                    "bid": o.bid.get(i),
                    "in": g.alive[i],
                    "cell": g.alive[i].then_some(g.cell[i]),
                    "new_place": o.replaced.get(i),
                })
            })
            .collect();
        let teams: Vec<serde_json::Value> = (0..g.points.len())
            .map(|t| {
                serde_json::json!({
                    "name": self.team_names.get(t),
                    "underworld": g.underworld[t],
                    "points": g.points[t],
                    "in": g.team_in[t],
                })
            })
            .collect();
        let v = serde_json::json!({
            "event": "start", "side": g.side, "it": o.first_it, "players": players, "teams": teams,
        });
        let _ = writeln!(self.out, "{v}");
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
        actions: &[Action],
    ) {
        let acts: Vec<String> = actions.iter().map(|a| format!("\"{a:?}\"")).collect();
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
        let list: Vec<String> = g.tag_list().iter().map(|p| p.to_string()).collect();
        let _ = writeln!(
            self.out,
            "{{\"turn\":{turn},\"players\":[{}],\"moves\":[{}],\"cells\":[{}],\"collisions\":[{}],\"tag\":{tag},\"it_list\":[{}],\"it\":{},\"points\":[{}],\"out\":[{}],\"actions\":[{}]}}",
            players.join(","),
            dirs.join(","),
            cells.join(","),
            col.join(","),
            list.join(","),
            g.it,
            points.join(","),
            outs.join(","),
            acts.join(",")
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

/// One game told as a host's `tag play` asks: narrated or traced as it goes (any length, bounded
/// memory), or its result only.
pub fn tell(
    g: &crate::games::elemental_tag::input::GameFile,
    seed: u64,
    told: crate::platform::narration::Told,
) -> String {
    use crate::games::elemental_tag::kernel::engine::{Game, Silent};
    use crate::platform::narration::{Told, restyle};
    let mut game = Game::new();
    match told {
        Told::Traced => {
            let mut t = JsonTrace::new(&g.teams, &g.signups, Sink::stdout());
            let o = game.play_with(&g.teams, &g.signups, &g.settings, seed, &mut t);
            t.finish(&o);
            t.out.finish()
        }
        Told::Narrated(style) => {
            let mut n = Narrator::with_signups(&g.teams, &g.signups);
            n.out = Sink::stdout().styled(style);
            let o = game.play_with(&g.teams, &g.signups, &g.settings, seed, &mut n);
            n.finish(&o);
            n.out.finish()
        }
        Told::Result(style) => {
            let mut n = Narrator::with_signups(&g.teams, &g.signups);
            let o = game.play_with(&g.teams, &g.signups, &g.settings, seed, &mut Silent);
            n.finish(&o);
            restyle(style, &std::mem::take(&mut n.out).finish())
        }
    }
}

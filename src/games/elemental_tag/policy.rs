//! Players as policies (TG-50): each bids, may ask for a new place, moves, and when it is it
//! names its tag list. A policy sees only what a forum player sees ([`View`]: the map, every
//! team's points, who is it); never others' submissions or the tag list. Chosen by name with
//! parameters, `flee(margin=2, bid=3)`, like Auto Rumble's strategies.

use crate::error::Error;
use rand::RngExt;

use crate::games::elemental_tag::rules::DIRS;
use crate::rng::MatchRng;

/// What a player sees when it decides. Positions are columns of coordinates (no division in
/// a decision: the engine keeps them beside the cells).
pub struct View<'a> {
    pub side: u32,
    /// Every player in the game (dead ones included: `alive` tells).
    pub x: &'a [i32],
    pub y: &'a [i32],
    pub team: &'a [u16],
    pub alive: &'a [bool],
    pub points: &'a [i32],
    pub it: u32,
    pub me: u32,
}

/// Chebyshev distance: moves needed to go from one cell to another.
#[inline(always)]
fn cheb(ax: i32, ay: i32, bx: i32, by: i32) -> i32 {
    (ax - bx).abs().max((ay - by).abs())
}

impl View<'_> {
    /// Moves needed from player `a` to player `b`.
    pub fn dist(&self, a: u32, b: u32) -> i32 {
        let (a, b) = (a as usize, b as usize);
        cheb(self.x[a], self.y[a], self.x[b], self.y[b])
    }
    fn others(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.x.len()).filter(move |&j| j as u32 != self.me && self.alive[j])
    }
    fn at(&self, i: u32) -> (i32, i32) {
        (self.x[i as usize], self.y[i as usize])
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Never moves (chases as it).
    Stay,
    /// A random move each turn, also as it.
    Random,
    /// Runs from the it player once it is within `margin`; chases as it.
    Flee,
    /// Keeps as far as it can from the nearest player; chases as it.
    Spread,
    /// Looks one move ahead: the move that keeps it furthest from every cell the it player can
    /// reach, away from walls; as it, moves into the cell its target is most likely to keep.
    Smart,
    /// On the 5 x 5 grid, the solved duel's mixed strategies (TG-52) against the it player, or
    /// as it against the nearest player of another team; on other grids, `smart`.
    Exact,
}

pub const NAMES: [&str; 6] = ["stay", "random", "flee", "spread", "smart", "exact"];

/// A policy and its parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Policy {
    pub kind: Kind,
    /// Points bid for not being it (TG-2).
    pub bid: i32,
    /// Distance at which `flee` starts running.
    pub margin: i32,
    /// Whether it asks for a new place when it starts next to the it player (TG-5).
    pub replace: bool,
    /// Most names on its tag list (TG-21).
    pub list: usize,
    /// Team actions (TG-61 .. TG-65), each off at 0. Leaves its team (of 3 or more) to play
    /// alone when the team's points are at or below `leave`.
    pub leave: i32,
    /// Votes to eject a teammate who has been it `eject` turns in a row.
    pub eject: u32,
    /// Agrees to disband its two-player team when the team's points are at or below `disband`.
    pub disband: i32,
    /// As an underworld player, founds a team with another underworld player who wants to.
    pub found: bool,
    /// As an underworld player, asks to join an element when its points are at or below `join`.
    pub join: i32,
    /// Votes to let an underworld player join its team.
    pub accept: bool,
    /// As it, hands it-ness to an adjacent teammate nearer the prey: lists it last and moves
    /// into it when no prey is adjacent (a friendly tag costs nothing, TG-22; issue 53).
    pub friendly: bool,
}

impl Policy {
    /// Parses `name` or `name(k=v, ...)`; keys: bid, margin, replace (0/1), list, and the team
    /// actions leave, eject, disband, found (0/1), join, accept (0/1).
    pub fn parse(spec: &str) -> Result<Policy, Error> {
        let spec = spec.trim();
        let (name, params) = match spec.split_once('(') {
            Some((n, rest)) => {
                let inner = rest.strip_suffix(')').ok_or_else(|| {
                    format!("policy `{spec}`: close the parameters, e.g. flee(margin=2)")
                })?;
                (n.trim(), inner)
            }
            None => (spec, ""),
        };
        let kind = match name {
            "stay" => Kind::Stay,
            "random" => Kind::Random,
            "flee" => Kind::Flee,
            "spread" => Kind::Spread,
            "smart" => Kind::Smart,
            "exact" => Kind::Exact,
            other => {
                let hint = crate::names::closest_name(other, NAMES.iter().copied())
                    .map(|n| format!("did you mean `{n}`? "))
                    .unwrap_or_default();
                return Err(Error::Input(format!(
                    "unknown policy `{other}`: {hint}known: {}",
                    NAMES.join(", ")
                )));
            }
        };
        let mut p = Policy {
            kind,
            bid: 2,
            margin: 2,
            replace: false,
            list: 3,
            leave: 0,
            eject: 0,
            disband: 0,
            found: false,
            join: 0,
            accept: false,
            friendly: false,
        };
        let mut seen: Vec<&str> = Vec::new();
        for part in params.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let (k, v) = part.split_once('=').ok_or_else(|| {
                format!("policy `{spec}`: parameter `{part}` needs a value, e.g. bid=3")
            })?;
            // A parameter given twice is a typo, not a last-wins (issue 53).
            if seen.contains(&k.trim()) {
                return Err(Error::Input(format!(
                    "policy `{spec}`: `{}` is given twice; give each parameter once",
                    k.trim()
                )));
            }
            seen.push(k.trim());
            let v: i64 = v.trim().parse().map_err(|_| {
                format!(
                    "policy `{spec}`: `{}` = `{}` is not a whole number",
                    k.trim(),
                    v.trim()
                )
            })?;
            match k.trim() {
                "bid" if (0..=1000).contains(&v) => p.bid = v as i32,
                "margin" if (0..=100).contains(&v) => p.margin = v as i32,
                "replace" if (0..=1).contains(&v) => p.replace = v == 1,
                "list" if (0..=16).contains(&v) => p.list = v as usize,
                "leave" if (0..=1000).contains(&v) => p.leave = v as i32,
                "eject" if (0..=1000).contains(&v) => p.eject = v as u32,
                "disband" if (0..=1000).contains(&v) => p.disband = v as i32,
                "found" if (0..=1).contains(&v) => p.found = v == 1,
                "join" if (0..=1000).contains(&v) => p.join = v as i32,
                "accept" if (0..=1).contains(&v) => p.accept = v == 1,
                "friendly" if (0..=1).contains(&v) => p.friendly = v == 1,
                "bid" | "margin" | "replace" | "list" | "leave" | "eject" | "disband" | "found"
                | "join" | "accept" | "friendly" => {
                    return Err(Error::Input(format!(
                        "policy `{spec}`: `{}` = {v} is out of range (bid, leave, eject, disband, join 0..=1000; margin 0..=100; list 0..=16; replace, found, accept, friendly 0 or 1)",
                        k.trim()
                    )));
                }
                other => {
                    return Err(Error::Input(format!(
                        "policy `{spec}`: unknown parameter `{other}`; known: bid, margin, replace, list, leave, eject, disband, found, join, accept, friendly"
                    )));
                }
            }
        }
        Ok(p)
    }

    /// The policy written back in the parseable form.
    pub fn spec(&self) -> String {
        let mut s = format!(
            "{}(bid={}, margin={}, replace={}, list={}",
            NAMES[self.kind as usize], self.bid, self.margin, self.replace as u8, self.list
        );
        // Team actions only when set, so the usual labels stay short.
        for (k, v) in [
            ("leave", self.leave as i64),
            ("eject", self.eject as i64),
            ("disband", self.disband as i64),
            ("found", self.found as i64),
            ("join", self.join as i64),
            ("accept", self.accept as i64),
            ("friendly", self.friendly as i64),
        ] {
            if v != 0 {
                s.push_str(&format!(", {k}={v}"));
            }
        }
        s + ")"
    }

    /// Whether it takes part in any team action (the engine skips the step when no one does).
    pub fn acts(&self) -> bool {
        self.leave > 0
            || self.eject > 0
            || self.disband > 0
            || self.found
            || self.join > 0
            || self.accept
    }

    /// Whether to ask for a new place (TG-5): only `replace=1`, and only next to the it player.
    pub fn wants_new_place(&self, v: &View) -> bool {
        self.replace && v.me != v.it && v.dist(v.me, v.it) <= 1
    }

    /// The move (0..=8) this turn.
    pub fn choose(&self, v: &View, rng: &mut MatchRng) -> u8 {
        if self.kind == Kind::Random {
            return rng.random_range(0..9u8);
        }
        if self.kind == Kind::Exact && v.side == 5 {
            return exact(v, rng);
        }
        if v.me == v.it {
            return self.chase(v);
        }
        let (ix, iy) = v.at(v.it);
        let far = v.dist(v.me, v.it);
        match self.kind {
            Kind::Stay => 0,
            Kind::Flee if far > self.margin => 0,
            Kind::Flee => best(v, |x, y| cheb(x, y, ix, iy) * 16 + room(v, x, y)),
            Kind::Spread => {
                // Only players within two moves of the nearest can be nearest after a move
                // (a move changes a distance by at most one): gather them once, on the stack.
                let (mx, my) = v.at(v.me);
                let nearest = v.others().map(|j| cheb(mx, my, v.x[j], v.y[j])).min();
                let Some(nearest) = nearest else { return 0 };
                let mut near = [(0i32, 0i32); 64];
                let mut n = 0;
                for j in v.others() {
                    if cheb(mx, my, v.x[j], v.y[j]) <= nearest + 2 {
                        if n == near.len() {
                            n = usize::MAX;
                            break;
                        }
                        near[n] = (v.x[j], v.y[j]);
                        n += 1;
                    }
                }
                best(v, |x, y| {
                    let closest = if n == usize::MAX {
                        v.others()
                            .map(|j| cheb(x, y, v.x[j], v.y[j]))
                            .min()
                            .unwrap()
                    } else {
                        near[..n]
                            .iter()
                            .map(|&(a, b)| cheb(x, y, a, b))
                            .min()
                            .unwrap()
                    };
                    closest * 16 + room(v, x, y)
                })
            }
            Kind::Smart | Kind::Exact => {
                if far > self.margin + 1 {
                    return 0;
                }
                // The worst case over the it player's nine moves, then distance, then room to
                // run. The it player reaches every cell within one move of it (bounded by the
                // grid), so the worst case is the distance to that square, less one.
                best(v, |x, y| {
                    let worst = (cheb(x, y, ix, iy) - 1).max(0);
                    worst * 64 + cheb(x, y, ix, iy) * 8 + room(v, x, y)
                })
            }
            Kind::Random => unreachable!(),
        }
    }

    /// As it: towards the nearest player of another team (the richest team's first on ties);
    /// into its cell when next to it (a player that stays is bumped into, which tags it, TG-23).
    fn chase(&self, v: &View) -> u8 {
        let Some(target) = target(v) else {
            return 0;
        };
        // A friendly tag: into the adjacent teammate nearer the prey, when the prey is not
        // within reach itself.
        if self.friendly
            && v.dist(v.me, target as u32) > 1
            && let Some(mate) = handover(v, target)
        {
            let (mx, my) = v.at(mate as u32);
            return best(v, |x, y| -cheb(x, y, mx, my));
        }
        let (tx, ty) = v.at(target as u32);
        best(v, |x, y| {
            -(cheb(x, y, tx, ty) * 16) - (x - tx).abs() - (y - ty).abs()
        })
    }

    /// The tag list as it (TG-21): players of other teams within two moves, nearest first, at
    /// most `list` names (each costs a point a turn). Writes into `out`, returns how many.
    pub fn tag_list(&self, v: &View, out: &mut [u32]) -> usize {
        let mine = v.team[v.me as usize];
        let mut n = 0;
        for d in 1..=2 {
            for j in v.others() {
                if n == self.list.min(out.len()) {
                    return n;
                }
                if v.team[j] != mine && v.dist(v.me, j as u32) == d {
                    out[n] = j as u32;
                    n += 1;
                }
            }
        }
        // Last, the teammate it would hand it-ness to (friendly, TG-22).
        if self.friendly
            && n < self.list.min(out.len())
            && let Some(mate) = target(v).and_then(|t| handover(v, t))
        {
            out[n] = mate as u32;
            n += 1;
        }
        n
    }
}

/// The adjacent teammate of the it player nearest the prey `target`, if it is nearer (by one:
/// an adjacent player can be no more); ties to the lowest index.
fn handover(v: &View, target: usize) -> Option<usize> {
    let mine = v.team[v.me as usize];
    let here = v.dist(v.me, target as u32);
    v.others()
        .filter(|&j| v.team[j] == mine && v.dist(v.me, j as u32) == 1)
        .map(|j| (v.dist(j as u32, target as u32), j))
        .filter(|&(d, _)| d < here)
        .min()
        .map(|(_, j)| j)
}

/// The it player's target: the nearest player of another team (the richest team's first on
/// ties).
fn target(v: &View) -> Option<usize> {
    let mine = v.team[v.me as usize];
    v.others()
        .filter(|&j| v.team[j] != mine)
        .min_by_key(|&j| (v.dist(v.me, j as u32), -v.points[v.team[j] as usize], j))
}

/// The `exact` policy on the 5 x 5 grid: the solved duel's mixed strategy for the pair (the it
/// player, me) as runner, or (me, my target) as it.
fn exact(v: &View, rng: &mut MatchRng) -> u8 {
    use crate::games::elemental_tag::analysis::duel::{classic, sample};
    let cell = |i: u32| (v.y[i as usize] * 5 + v.x[i as usize]) as u32;
    let d = classic();
    if v.me == v.it {
        match target(v) {
            Some(t) => sample(&d.it_mix[d.state(cell(v.me), cell(t as u32))], rng),
            None => 0,
        }
    } else {
        sample(&d.runner_mix[d.state(cell(v.it), cell(v.me))], rng)
    }
}

/// The move whose destination scores highest (ties: the lower move index, staying first); moves
/// off the grid are stays and are not considered apart.
fn best(v: &View, score: impl Fn(i32, i32) -> i32) -> u8 {
    let (mx, my) = v.at(v.me);
    let side = v.side as i32;
    let mut best = (i32::MIN, 0u8);
    for (d, &(dx, dy)) in DIRS.iter().enumerate() {
        let (x, y) = (mx + dx, my + dy);
        if x < 0 || y < 0 || x >= side || y >= side {
            continue;
        }
        let s = score(x, y);
        if s > best.0 {
            best = (s, d as u8);
        }
    }
    best.1
}

/// Cells a player at (x, y) could move to (walls and corners have fewer): room to run.
fn room(v: &View, x: i32, y: i32) -> i32 {
    let side = v.side as i32 - 1;
    let free = |c: i32| if c == 0 || c == side { 2 } else { 3 };
    free(x) * free(y) - 1
}

/// Kept so that a move index reads as a direction in narration and tests.
pub fn delta(d: u8) -> (i32, i32) {
    DIRS[d as usize]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 53 (TG-22): `friendly=1` hands it-ness to an adjacent teammate nearer the prey: it
    /// lists the teammate last and moves into it; without the option it chases the prey.
    #[test]
    fn friendly_hands_it_ness_to_a_teammate_nearer_the_prey() {
        // 7 x 7: the it (0, team 0) at (0, 3), its teammate (1) at (1, 2), the prey (2, team 1)
        // at (5, 3): 5 moves from the it, 4 from the teammate.
        let (x, y) = ([0, 1, 5], [3, 2, 3]);
        let (team, alive, points) = ([0u16, 0, 1], [true; 3], [40, 40]);
        let v = View {
            side: 7,
            x: &x,
            y: &y,
            team: &team,
            alive: &alive,
            points: &points,
            it: 0,
            me: 0,
        };
        assert_eq!(handover(&v, 2), Some(1));
        let (friendly, plain) = (
            Policy::parse("smart(friendly=1)").unwrap(),
            Policy::parse("smart").unwrap(),
        );
        let mut rng = crate::rng::stream_rng(1, 0, crate::rng::Stream::Moves);
        let mut list = [0u32; 16];
        assert_eq!(friendly.tag_list(&v, &mut list), 1);
        assert_eq!(list[0], 1, "the teammate, last (no prey within two moves)");
        assert_eq!(plain.tag_list(&v, &mut list), 0);
        let (dx, dy) =
            crate::games::elemental_tag::rules::DIRS[friendly.choose(&v, &mut rng) as usize];
        assert_eq!((dx, dy), (1, -1), "into the teammate's cell");
        let (dx, dy) =
            crate::games::elemental_tag::rules::DIRS[plain.choose(&v, &mut rng) as usize];
        assert_eq!((dx, dy), (1, 0), "towards the prey");
        // The prey within reach: no hand-over, the chase goes on.
        let (x2, y2) = ([0, 1, 1], [3, 2, 4]);
        let v2 = View {
            x: &x2,
            y: &y2,
            ..v
        };
        assert_eq!(friendly.choose(&v2, &mut rng), plain.choose(&v2, &mut rng));
        assert!(friendly.spec().contains("friendly=1") && !plain.spec().contains("friendly"));
    }
}

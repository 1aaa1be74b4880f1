//! The plain model of a turn's collisions (TG-10 .. TG-16), written from the rules with no
//! occupancy grid, no lists and no worklist: every rule a scan over all pairs, every chain a scan
//! repeated until nothing changes. `kernel::collide` is held to it on random turns.

// A player is its index into several columns at once: index loops read clearer than zips.
#![allow(clippy::needless_range_loop)]

use crate::games::elemental_tag::kernel::collide::Collision;
use crate::games::elemental_tag::rules::{Cycles, DIRS, Follow, Settings, step};

struct P {
    from: u32,
    to: u32,
    dir: u8,
    moving: bool,
}

/// Where each player ends and every collision, in no particular order.
pub fn resolve(side: u32, cells: &[u32], dirs: &[u8], s: &Settings) -> (Vec<u32>, Vec<Collision>) {
    let mut p: Vec<P> = cells
        .iter()
        .zip(dirs)
        .map(|(&c, &d)| {
            let to = step(side, c, d);
            P {
                from: c,
                to,
                dir: d,
                moving: to != c,
            }
        })
        .collect();
    let n = p.len();
    let mut ev = Vec::new();
    let ev_push = |ev: &mut Vec<Collision>, kind, a: usize, b: usize, mutual| {
        ev.push(Collision {
            kind,
            a: a as u32,
            b: b as u32,
            mutual,
        })
    };
    // Kind 1: swaps, all at once.
    let mut stop = vec![false; n];
    for i in 0..n {
        for j in i + 1..n {
            if p[i].moving && p[j].moving && p[i].to == p[j].from && p[j].to == p[i].from {
                ev_push(&mut ev, 1, i, j, true);
                stop[i] = true;
                stop[j] = true;
            }
        }
    }
    apply(&mut p, &stop);
    loop {
        // Kind 2, all at once.
        let mut stop = vec![false; n];
        for i in 0..n {
            if !p[i].moving {
                continue;
            }
            for j in 0..n {
                if j == i {
                    continue;
                }
                if p[j].moving && p[j].to == p[i].to {
                    if i < j {
                        ev_push(&mut ev, 2, i, j, true);
                    }
                    stop[i] = true;
                }
                if p[j].from == p[i].to {
                    if !p[j].moving {
                        ev_push(&mut ev, 2, i, j, false);
                        stop[i] = true;
                    } else if s.follow == Follow::Collides {
                        ev_push(&mut ev, 2, i, j, true);
                        stop[i] = true;
                        stop[j] = true;
                    }
                }
            }
        }
        if s.follow == Follow::Allowed && s.cycles == Cycles::Collide {
            // A ring: following "moves into the cell of" from i comes back to i.
            let succ = |p: &[P], v: usize| {
                (0..n).find(|&w| p[v].moving && p[w].moving && p[w].from == p[v].to)
            };
            for i in 0..n {
                let mut v = i;
                let mut ring = false;
                for _ in 0..n {
                    match succ(&p, v) {
                        Some(w) if w == i => {
                            ring = true;
                            break;
                        }
                        Some(w) => v = w,
                        None => break,
                    }
                }
                if ring {
                    ev_push(&mut ev, 2, i, succ(&p, i).unwrap(), true);
                    stop[i] = true;
                }
            }
        }
        let second = apply(&mut p, &stop);
        chains(&mut p, &mut ev);
        // Kind 3, all at once.
        let mut stop = vec![false; n];
        for i in 0..n {
            for j in i + 1..n {
                if p[i].moving && p[j].moving && crossing(side, &p[i], &p[j]) {
                    ev_push(&mut ev, 3, i, j, true);
                    stop[i] = true;
                    stop[j] = true;
                }
            }
        }
        let third = apply(&mut p, &stop);
        chains(&mut p, &mut ev);
        if !second && !third {
            break;
        }
    }
    let ends = p
        .iter()
        .map(|q| if q.moving { q.to } else { q.from })
        .collect();
    (ends, ev)
}

fn apply(p: &mut [P], stop: &[bool]) -> bool {
    let mut any = false;
    for (q, &st) in p.iter_mut().zip(stop) {
        if st && q.moving {
            q.moving = false;
            any = true;
        }
    }
    any
}

/// Movers into the cell of a player who stays collide with it and stay, until none is left.
fn chains(p: &mut [P], ev: &mut Vec<Collision>) {
    loop {
        let mut found = None;
        'scan: for i in 0..p.len() {
            if !p[i].moving {
                continue;
            }
            for j in 0..p.len() {
                if !p[j].moving && p[j].from == p[i].to {
                    found = Some((i, j));
                    break 'scan;
                }
            }
        }
        match found {
            Some((i, j)) => {
                p[i].moving = false;
                ev.push(Collision {
                    kind: 2,
                    a: i as u32,
                    b: j as u32,
                    mutual: false,
                });
            }
            None => return,
        }
    }
}

/// Two diagonal moves along the two diagonals of one 2x2 square.
fn crossing(side: u32, a: &P, b: &P) -> bool {
    let (adx, ady) = DIRS[a.dir as usize];
    let (bdx, bdy) = DIRS[b.dir as usize];
    if adx == 0 || ady == 0 || bdx == 0 || bdy == 0 {
        return false;
    }
    let xy = |c: u32| ((c % side) as i32, (c / side) as i32);
    let (ax, ay) = xy(a.from);
    let (bx0, by0) = xy(b.from);
    let (bx1, by1) = xy(b.to);
    // b runs between (ax + adx, ay) and (ax, ay + ady), either way.
    let c1 = (ax + adx, ay);
    let c2 = (ax, ay + ady);
    ((bx0, by0) == c1 && (bx1, by1) == c2) || ((bx0, by0) == c2 && (bx1, by1) == c1)
}

/// One player of the plain game.
#[derive(Clone)]
struct Player {
    team: usize,
    policy: crate::games::elemental_tag::policy::Policy,
    cell: u32,
    alive: bool,
}

/// One team of the plain game.
#[derive(Clone)]
struct Team {
    points: i32,
    in_play: bool,
    underworld: bool,
    /// False once dissolved by a team action (no place, its slot free).
    ranked: bool,
    out_turn: Option<u32>,
}

/// What a `View` borrows, built afresh for each decision: x, y, team, alive, points.
type ViewCols = (Vec<i32>, Vec<i32>, Vec<u16>, Vec<bool>, Vec<i32>);

/// The plain game's state.
struct Plain {
    side: u32,
    players: Vec<Player>,
    teams: Vec<Team>,
    it: usize,
    history: Vec<usize>,
    streak: u32,
}

impl Plain {
    /// Player `me`'s policy deciding from what it sees now.
    fn decide<T>(
        &self,
        me: usize,
        f: impl FnOnce(
            &crate::games::elemental_tag::policy::Policy,
            &crate::games::elemental_tag::policy::View,
        ) -> T,
    ) -> T {
        let (x, y, team, alive, points) = self.view_cols();
        let v = crate::games::elemental_tag::policy::View {
            side: self.side,
            x: &x,
            y: &y,
            team: &team,
            alive: &alive,
            points: &points,
            it: self.it as u32,
            me: me as u32,
        };
        f(&self.players[me].policy, &v)
    }

    fn view_cols(&self) -> ViewCols {
        let side = self.side.max(1);
        (
            self.players
                .iter()
                .map(|p| (p.cell % side) as i32)
                .collect(),
            self.players
                .iter()
                .map(|p| (p.cell / side) as i32)
                .collect(),
            self.players.iter().map(|p| p.team as u16).collect(),
            self.players.iter().map(|p| p.alive).collect(),
            self.teams.iter().map(|t| t.points).collect(),
        )
    }

    fn size(&self, t: usize) -> usize {
        self.players
            .iter()
            .filter(|p| p.alive && p.team == t)
            .count()
    }

    fn new_it(&mut self, p: usize) {
        self.it = p;
        self.history.push(p);
        self.streak = 0;
    }

    /// TG-30.
    fn eliminate(&mut self, turn: u32, rng: &mut crate::rng::MatchRng) {
        use rand::RngExt;
        for t in 0..self.teams.len() {
            if self.teams[t].in_play && self.teams[t].points <= 0 {
                self.teams[t].in_play = false;
                self.teams[t].out_turn = Some(turn);
                for p in self.players.iter_mut().filter(|p| p.team == t) {
                    p.alive = false;
                }
            }
        }
        if !self.players[self.it].alive {
            if let Some(&p) = self.history.iter().rev().find(|&&p| self.players[p].alive) {
                self.new_it(p);
            } else {
                let alive: Vec<usize> = (0..self.players.len())
                    .filter(|&i| self.players[i].alive)
                    .collect();
                if !alive.is_empty() {
                    let p = alive[rng.random_range(0..alive.len())];
                    self.new_it(p);
                }
            }
        }
    }

    fn new_team(&mut self, underworld: bool, points: i32) -> usize {
        let team = Team {
            points,
            in_play: true,
            underworld,
            ranked: true,
            out_turn: None,
        };
        match self.teams.iter().position(|t| !t.ranked && !t.in_play) {
            Some(t) => {
                self.teams[t] = team;
                t
            }
            None => {
                self.teams.push(team);
                self.teams.len() - 1
            }
        }
    }

    fn dissolve(&mut self, t: usize) {
        self.teams[t].ranked = false;
        self.teams[t].in_play = false;
        self.teams[t].points = 0;
    }

    /// TG-61 .. TG-66, as the rules read, in their order.
    fn team_actions(
        &mut self,
        turn: u32,
        s: &Settings,
        signups: &[(u32, usize)],
        rng: &mut crate::rng::MatchRng,
    ) {
        use rand::RngExt;
        let n = self.players.len();
        for i in 0..n {
            let t = self.players[i].team;
            let leave = self.players[i].policy.leave;
            if self.players[i].alive
                && leave > 0
                && !self.teams[t].underworld
                && self.teams[t].points <= leave
                && self.size(t) >= 3
            {
                let to = self.new_team(true, s.newcomer_points);
                self.players[i].team = to;
            }
        }
        let c = self.it;
        let t = self.players[c].team;
        if self.players[c].alive && !self.teams[t].underworld && self.size(t) >= 3 {
            let votes = (0..n)
                .filter(|&j| {
                    let p = &self.players[j];
                    j != c
                        && p.alive
                        && p.team == t
                        && p.policy.eject > 0
                        && self.streak >= p.policy.eject
                })
                .count();
            if 2 * votes > self.size(t) {
                let to = self.new_team(true, s.newcomer_points);
                self.players[c].team = to;
                self.teams[t].points -= s.eject_cost;
            }
        }
        let teams_now = self.teams.len();
        for t in 0..teams_now {
            if !self.teams[t].in_play || self.teams[t].underworld || self.size(t) != 2 {
                continue;
            }
            let members: Vec<usize> = (0..n)
                .filter(|&i| self.players[i].alive && self.players[i].team == t)
                .collect();
            let pts = self.teams[t].points;
            if members.iter().all(|&i| {
                self.players[i].policy.disband > 0 && pts <= self.players[i].policy.disband
            }) {
                let keep = (pts + 1) / 2;
                self.teams[t].points = keep;
                self.teams[t].underworld = true;
                let bt = self.new_team(true, pts - keep);
                self.players[members[1]].team = bt;
            }
        }
        for a in 0..n {
            let ta = self.players[a].team;
            if !self.players[a].alive || !self.players[a].policy.found || !self.teams[ta].underworld
            {
                continue;
            }
            let elements = self
                .teams
                .iter()
                .filter(|t| t.in_play && !t.underworld)
                .count();
            if elements >= s.elements as usize {
                break;
            }
            let side = self.side;
            let cheb = |p: &Player, q: &Player| {
                let (ax, ay) = ((p.cell % side) as i32, (p.cell / side) as i32);
                let (bx, by) = ((q.cell % side) as i32, (q.cell / side) as i32);
                (ax - bx).abs().max((ay - by).abs())
            };
            let partner = (0..n)
                .filter(|&b| {
                    let q = &self.players[b];
                    b != a && q.alive && q.policy.found && self.teams[q.team].underworld
                })
                .min_by_key(|&b| (cheb(&self.players[a], &self.players[b]), b));
            if let Some(b) = partner {
                let tb = self.players[b].team;
                self.teams[ta].points += self.teams[tb].points;
                self.teams[ta].underworld = false;
                self.players[b].team = ta;
                self.dissolve(tb);
            }
        }
        for i in 0..n {
            let ti = self.players[i].team;
            let join = self.players[i].policy.join;
            if !self.players[i].alive
                || join == 0
                || !self.teams[ti].underworld
                || self.teams[ti].points > join
            {
                continue;
            }
            let mut best: Option<usize> = None;
            for t in 0..self.teams.len() {
                if !self.teams[t].in_play || self.teams[t].underworld {
                    continue;
                }
                let votes = self
                    .players
                    .iter()
                    .filter(|p| p.alive && p.team == t && p.policy.accept)
                    .count();
                if 2 * votes > self.size(t)
                    && best.is_none_or(|b| self.teams[t].points > self.teams[b].points)
                {
                    best = Some(t);
                }
            }
            if let Some(t) = best {
                self.players[i].team = t;
                self.dissolve(ti);
            }
        }
        for &(when, i) in signups {
            if when != turn {
                continue;
            }
            if self.players.iter().filter(|p| p.alive).count() < s.late_min_players as usize {
                continue;
            }
            let free: Vec<u32> = (0..self.side * self.side)
                .filter(|&c| !self.players.iter().any(|p| p.alive && p.cell == c))
                .collect();
            if free.is_empty() {
                continue;
            }
            let c = free[rng.random_range(0..free.len())];
            let t = self.new_team(true, s.newcomer_points);
            self.players[i].team = t;
            self.players[i].alive = true;
            self.players[i].cell = c;
        }
    }
}

/// The whole game played plainly (TG-1 .. TG-66): players and teams as structs, collisions by
/// [`resolve`], every rule written where it happens. `kernel::engine` is held to it on random
/// games; it shares only `rules`, the policies and the draws' order (TG-40) with it.
pub fn play(
    teams: &[crate::games::elemental_tag::kernel::engine::TeamSpec],
    s: &Settings,
    seed: u64,
) -> crate::games::elemental_tag::kernel::engine::Outcome {
    play_with(teams, &[], s, seed)
}

/// [`play`] with late signups (TG-66).
pub fn play_with(
    teams: &[crate::games::elemental_tag::kernel::engine::TeamSpec],
    signups: &[crate::games::elemental_tag::kernel::engine::Signup],
    s: &Settings,
    seed: u64,
) -> crate::games::elemental_tag::kernel::engine::Outcome {
    use crate::games::elemental_tag::kernel::engine::{End, Outcome};
    use crate::games::elemental_tag::rules::{TieAverage, div_round_half_up, grid_side, score};
    use crate::rng::{Stream, match_stream_rng};
    use rand::RngExt;
    use rand::seq::SliceRandom;

    let mut rules_rng = match_stream_rng(seed, Stream::Tag);
    let mut moves_rng = match_stream_rng(seed, Stream::Moves);
    let mut players: Vec<Player> = Vec::new();
    for (t, spec) in teams.iter().enumerate() {
        for (_, policy) in &spec.players {
            players.push(Player {
                team: t,
                policy: *policy,
                cell: u32::MAX,
                alive: true,
            });
        }
    }
    let n = players.len();
    let mut late = Vec::new();
    for g in signups {
        late.push((g.turn, players.len()));
        players.push(Player {
            team: usize::MAX,
            policy: g.policy,
            cell: u32::MAX,
            alive: false,
        });
    }
    let total = players.len();
    let team_list: Vec<Team> = teams
        .iter()
        .map(|t| Team {
            points: if t.underworld {
                s.underworld_points
            } else {
                s.element_points
            },
            in_play: true,
            underworld: t.underworld,
            ranked: true,
            out_turn: None,
        })
        .collect();
    let bid: Vec<i32> = (0..total)
        .map(|i| if i < n { players[i].policy.bid } else { 0 })
        .collect();
    let mut turns_it = vec![0u32; total];
    let mut tags = vec![0u32; total];
    let mut tagged = vec![0u32; total];
    let mut listed_total = vec![0u32; total];
    let mut replaced = vec![false; total];
    // TG-2, TG-3.
    let low = *bid[..n].iter().min().unwrap();
    let tied: Vec<usize> = (0..n).filter(|&i| bid[i] == low).collect();
    let first_it = tied[rules_rng.random_range(0..tied.len())];
    let average = match s.tie_average {
        TieAverage::All => {
            div_round_half_up(bid[..n].iter().map(|&b| b as i64).sum(), n as i64) as i32
        }
        TieAverage::Tied => low,
    };
    let mut g = Plain {
        side: 0,
        players,
        teams: team_list,
        it: first_it,
        history: vec![first_it],
        streak: 0,
    };
    for i in 0..n {
        if i != first_it {
            let t = g.players[i].team;
            g.teams[t].points -= if bid[i] == low { average } else { bid[i] };
        }
    }
    g.eliminate(0, &mut rules_rng);
    // TG-4, TG-5.
    g.side = grid_side(s, g.players.iter().filter(|p| p.alive).count() as u32);
    let side = g.side;
    let mut free: Vec<u32> = (0..side * side).collect();
    free.shuffle(&mut rules_rng);
    for p in g.players.iter_mut().filter(|p| p.alive) {
        p.cell = free.pop().unwrap();
    }
    for i in 0..n {
        let asks = g.decide(i, |p, v| p.wants_new_place(v));
        if g.players[i].alive && asks && !free.is_empty() {
            let j = rules_rng.random_range(0..free.len());
            let new = free.swap_remove(j);
            free.push(g.players[i].cell);
            g.players[i].cell = new;
            let t = g.players[i].team;
            g.teams[t].points -= s.replace_cost;
            replaced[i] = true;
        }
    }
    g.eliminate(0, &mut rules_rng);
    let mut turn = 0;
    let mut moves = 0u64;
    let mut end = End::Won;
    loop {
        if g.teams.iter().filter(|t| t.in_play).count() <= 1 {
            break;
        }
        if turn >= s.max_turns {
            end = End::TurnCap;
            break;
        }
        turn += 1;
        // TG-20, TG-21.
        let it = g.it;
        let it_team = g.players[it].team;
        g.teams[it_team].points -= s.it_cost;
        let mut list = [0u32; 16];
        let listed = g.decide(it, |p, v| p.tag_list(v, &mut list));
        g.teams[it_team].points -= s.tag_cost * listed as i32;
        turns_it[it] += 1;
        listed_total[it] += listed as u32;
        g.streak += 1;
        // TG-10.
        let ids: Vec<usize> = (0..total).filter(|&i| g.players[i].alive).collect();
        let mut dirs = Vec::new();
        for &i in &ids {
            dirs.push(g.decide(i, |p, v| p.choose(v, &mut moves_rng)));
        }
        moves += ids.len() as u64;
        let from: Vec<u32> = ids.iter().map(|&i| g.players[i].cell).collect();
        let (ends, events) = resolve(side, &from, &dirs, s);
        for (k, &i) in ids.iter().enumerate() {
            g.players[i].cell = ends[k];
        }
        // TG-23: whom the it player's own move collided into.
        let me = ids.iter().position(|&i| i == it).unwrap() as u32;
        let into: Vec<usize> = events
            .iter()
            .filter_map(|c| {
                if c.a == me {
                    Some(ids[c.b as usize])
                } else if c.b == me && c.mutual {
                    Some(ids[c.a as usize])
                } else {
                    None
                }
            })
            .collect();
        if let Some(&t) = list[..listed]
            .iter()
            .find(|&&t| into.contains(&(t as usize)))
        {
            let t = t as usize;
            // TG-22.
            let tt = g.players[t].team;
            if tt != it_team {
                g.teams[tt].points -= s.tagged_cost;
                tagged[t] += 1;
            }
            tags[it] += 1;
            // The engine keeps one history entry per player; only the latest matters here.
            g.new_it(t);
        }
        g.eliminate(turn, &mut rules_rng);
        g.team_actions(turn, s, &late, &mut rules_rng);
        g.eliminate(turn, &mut rules_rng);
    }
    let left: Vec<usize> = (0..g.teams.len()).filter(|&t| g.teams[t].in_play).collect();
    if end != End::TurnCap {
        end = if left.len() == 1 {
            End::Won
        } else {
            End::AllOut
        };
    }
    // TG-32, TG-33: rank the ranked teams by the turn they fell, still-in first.
    let key = |t: &Team| t.out_turn.map_or(u32::MAX, |x| x);
    let mut groups: Vec<u32> = g.teams.iter().filter(|t| t.ranked).map(key).collect();
    groups.sort_unstable_by(|a, b| b.cmp(a));
    groups.dedup();
    let mut score_of = vec![0u32; g.teams.len()];
    let mut place = 0usize;
    for grp in groups {
        let members: Vec<usize> = (0..g.teams.len())
            .filter(|&t| g.teams[t].ranked && key(&g.teams[t]) == grp)
            .collect();
        let p = if place == 0 && grp != u32::MAX {
            1
        } else {
            place
        };
        for &t in &members {
            score_of[t] = score(p);
        }
        place = p.max(place) + members.len();
    }
    let team_of: Vec<u16> = g
        .players
        .iter()
        .map(|p| {
            if p.team == usize::MAX {
                u16::MAX
            } else {
                p.team as u16
            }
        })
        .collect();
    let player_score = team_of
        .iter()
        .map(|&t| score_of.get(t as usize).copied().unwrap_or(0))
        .collect();
    Outcome {
        end,
        turns: turn,
        side,
        winner: (end == End::Won).then(|| left[0] as u16),
        score: score_of,
        out_turn: g.teams.iter().map(|t| t.out_turn).collect(),
        points: g.teams.iter().map(|t| t.points).collect(),
        bid,
        turns_it,
        tags,
        tagged,
        listed: listed_total,
        replaced,
        team_of,
        player_score,
        ranked: g.teams.iter().map(|t| t.ranked).collect(),
        first_it: first_it as u32,
        moves,
    }
}

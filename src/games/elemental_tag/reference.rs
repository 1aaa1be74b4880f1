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

/// The whole game played plainly (TG-1 .. TG-40): players as structs, collisions by
/// [`resolve`], every rule written where it happens. `kernel::engine` is held to it on random
/// games; it shares only `rules`, the policies and the draws' order (TG-40) with it.
pub fn play(
    teams: &[crate::games::elemental_tag::kernel::engine::TeamSpec],
    s: &Settings,
    seed: u64,
) -> crate::games::elemental_tag::kernel::engine::Outcome {
    use crate::games::elemental_tag::kernel::engine::{End, Outcome};
    use crate::games::elemental_tag::policy::View;
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
    let mut points: Vec<i32> = teams
        .iter()
        .map(|t| {
            if t.underworld {
                s.underworld_points
            } else {
                s.element_points
            }
        })
        .collect();
    let mut out_turn: Vec<Option<u32>> = vec![None; teams.len()];
    let bid: Vec<i32> = players.iter().map(|p| p.policy.bid).collect();
    let mut turns_it = vec![0u32; n];
    let mut tags = vec![0u32; n];
    let mut replaced = vec![false; n];
    // TG-2, TG-3.
    let low = *bid.iter().min().unwrap();
    let tied: Vec<usize> = (0..n).filter(|&i| bid[i] == low).collect();
    let mut it = tied[rules_rng.random_range(0..tied.len())];
    let first_it = it;
    let average = match s.tie_average {
        TieAverage::All => div_round_half_up(bid.iter().map(|&b| b as i64).sum(), n as i64) as i32,
        TieAverage::Tied => low,
    };
    for i in 0..n {
        if i != it {
            points[players[i].team] -= if bid[i] == low { average } else { bid[i] };
        }
    }
    let mut history = vec![it];
    // TG-30 (also TG-6 at turn 0).
    let eliminate = |turn: u32,
                     players: &mut Vec<Player>,
                     points: &[i32],
                     out_turn: &mut Vec<Option<u32>>,
                     it: &mut usize,
                     history: &mut Vec<usize>,
                     rng: &mut crate::rng::MatchRng|
     -> Vec<u16> {
        let mut out = Vec::new();
        for t in 0..points.len() {
            if out_turn[t].is_none() && points[t] <= 0 {
                out_turn[t] = Some(turn);
                out.push(t as u16);
                for p in players.iter_mut().filter(|p| p.team == t) {
                    p.alive = false;
                }
            }
        }
        if !players[*it].alive {
            if let Some(&p) = history.iter().rev().find(|&&p| players[p].alive) {
                *it = p;
                history.push(p);
            } else {
                let alive: Vec<usize> = (0..players.len()).filter(|&i| players[i].alive).collect();
                if !alive.is_empty() {
                    *it = alive[rng.random_range(0..alive.len())];
                    history.push(*it);
                }
            }
        }
        out
    };
    eliminate(
        0,
        &mut players,
        &points,
        &mut out_turn,
        &mut it,
        &mut history,
        &mut rules_rng,
    );
    // TG-4, TG-5.
    let side = grid_side(s, players.iter().filter(|p| p.alive).count() as u32);
    let mut free: Vec<u32> = (0..side * side).collect();
    free.shuffle(&mut rules_rng);
    for p in players.iter_mut().filter(|p| p.alive) {
        p.cell = free.pop().unwrap();
    }
    let view_of = |players: &[Player], points: &[i32], it: usize, me: usize| {
        (
            players
                .iter()
                .map(|p| (p.cell % side) as i32)
                .collect::<Vec<i32>>(),
            players
                .iter()
                .map(|p| (p.cell / side) as i32)
                .collect::<Vec<i32>>(),
            players.iter().map(|p| p.team as u16).collect::<Vec<u16>>(),
            players.iter().map(|p| p.alive).collect::<Vec<bool>>(),
            points.to_vec(),
            it,
            me,
        )
    };
    for i in 0..n {
        let (x, y, team, alive, pts, it_, me) = view_of(&players, &points, it, i);
        let v = View {
            side,
            x: &x,
            y: &y,
            team: &team,
            alive: &alive,
            points: &pts,
            it: it_ as u32,
            me: me as u32,
        };
        if players[i].alive && players[i].policy.wants_new_place(&v) && !free.is_empty() {
            let j = rules_rng.random_range(0..free.len());
            let new = free.swap_remove(j);
            free.push(players[i].cell);
            players[i].cell = new;
            points[players[i].team] -= s.replace_cost;
            replaced[i] = true;
        }
    }
    eliminate(
        0,
        &mut players,
        &points,
        &mut out_turn,
        &mut it,
        &mut history,
        &mut rules_rng,
    );
    let mut turn = 0;
    let mut moves = 0u64;
    let mut end = End::Won;
    loop {
        let teams_in = out_turn.iter().filter(|t| t.is_none()).count();
        if teams_in <= 1 {
            break;
        }
        if turn >= s.max_turns {
            end = End::TurnCap;
            break;
        }
        turn += 1;
        // TG-20, TG-21.
        let it_team = players[it].team;
        points[it_team] -= s.it_cost;
        let (x, y, team, alive, pts, _, _) = view_of(&players, &points, it, it);
        let v = View {
            side,
            x: &x,
            y: &y,
            team: &team,
            alive: &alive,
            points: &pts,
            it: it as u32,
            me: it as u32,
        };
        let mut list = [0u32; 16];
        let listed = players[it].policy.tag_list(&v, &mut list);
        points[it_team] -= s.tag_cost * listed as i32;
        turns_it[it] += 1;
        // TG-10.
        let ids: Vec<usize> = (0..n).filter(|&i| players[i].alive).collect();
        let mut dirs = Vec::new();
        for &i in &ids {
            let (x, y, team, alive, pts, _, _) = view_of(&players, &points, it, i);
            let v = View {
                side,
                x: &x,
                y: &y,
                team: &team,
                alive: &alive,
                points: &pts,
                it: it as u32,
                me: i as u32,
            };
            dirs.push(players[i].policy.choose(&v, &mut moves_rng));
        }
        moves += ids.len() as u64;
        let from: Vec<u32> = ids.iter().map(|&i| players[i].cell).collect();
        let (ends, events) = resolve(side, &from, &dirs, s);
        for (k, &i) in ids.iter().enumerate() {
            players[i].cell = ends[k];
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
            if players[t].team != it_team {
                points[players[t].team] -= s.tagged_cost;
            }
            tags[it] += 1;
            it = t;
            history.push(t);
        }
        eliminate(
            turn,
            &mut players,
            &points,
            &mut out_turn,
            &mut it,
            &mut history,
            &mut rules_rng,
        );
    }
    let left: Vec<usize> = (0..teams.len())
        .filter(|&t| out_turn[t].is_none())
        .collect();
    if end != End::TurnCap {
        end = if left.len() == 1 {
            End::Won
        } else {
            End::AllOut
        };
    }
    // TG-32, TG-33: rank groups by the turn they fell, still-in first.
    let key = |t: usize| out_turn[t].map_or(u32::MAX, |x| x);
    let mut groups: Vec<u32> = (0..teams.len()).map(key).collect();
    groups.sort_unstable_by(|a, b| b.cmp(a));
    groups.dedup();
    let mut score_of = vec![0u32; teams.len()];
    let mut place = 0usize;
    for g in groups {
        let members: Vec<usize> = (0..teams.len()).filter(|&t| key(t) == g).collect();
        let p = if place == 0 && g != u32::MAX {
            1
        } else {
            place
        };
        for &t in &members {
            score_of[t] = score(p);
        }
        place = p.max(place) + members.len();
    }
    Outcome {
        end,
        turns: turn,
        side,
        winner: (end == End::Won).then(|| left[0] as u16),
        score: score_of,
        out_turn,
        points,
        bid,
        turns_it,
        tags,
        replaced,
        first_it: first_it as u32,
        moves,
    }
}

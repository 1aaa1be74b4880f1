//! The plain model of a turn's collisions (TG-10 .. TG-16), written from the rules with no
//! occupancy grid, no lists and no worklist: every rule a scan over all pairs, every chain a scan
//! repeated until nothing changes. `kernel::collide` is held to it on random turns.

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

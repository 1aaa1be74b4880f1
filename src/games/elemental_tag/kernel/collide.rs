//! Simultaneous moves resolved with the seed's collisions (TG-10 .. TG-16), allocation-free: an
//! occupancy grid (cell -> player at the turn's start), a per-cell list of the players moving
//! into it, and a worklist for chains. `reference::resolve` is the plain model it is held to.
//!
//! Order (TG-11): every swap (kind 1) at once; then kind 2 (two or more movers into one cell, or a
//! mover into a cell whose player stays) at once, and every chain it starts; then kind 3 (crossing
//! diagonals) at once and its chains; kinds 2 and 3 again until a pass stops no one. A player
//! counted in a collision stays still for everything after.

// A player is its index into several columns at once: index loops read clearer than zips.
#![allow(clippy::needless_range_loop)]

use crate::games::elemental_tag::rules::{Cycles, DIRS, Follow, Settings, step};

/// One collision between two players (TG-14). `mutual`: both were moving into each other's way
/// (swap, same cell, crossing, a follow or a ring collision); otherwise `a` moved into `b`, who
/// stayed (a bump or a chain). The it player "collides into" `b` when it is `a`, and into `a` when
/// the collision is mutual (TG-23).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Collision {
    /// 1: swap; 2: same cell, bump or chain; 3: crossing diagonals.
    pub kind: u8,
    pub a: u32,
    pub b: u32,
    pub mutual: bool,
}

const NONE: u32 = u32::MAX;

/// Scratch for resolving turns; grows to the largest grid and roster seen, then allocates nothing.
#[derive(Debug, Default)]
pub struct Resolver {
    /// Cell -> the player standing there at the turn's start, or NONE.
    occ: Vec<u32>,
    /// Cell -> the first player moving into it (a list through `next`), or NONE.
    head: Vec<u32>,
    next: Vec<u32>,
    /// Where each player ends (its own cell when it stays).
    pub target: Vec<u32>,
    moving: Vec<bool>,
    stop: Vec<u32>,
    chain: Vec<u32>,
    mark: Vec<u32>,
    /// Every collision of the last turn, in the order found.
    pub events: Vec<Collision>,
}

impl Resolver {
    pub fn new() -> Resolver {
        Resolver::default()
    }

    /// Resolves one turn of players at `cells` (distinct) submitting `dirs` (0..=8) on a
    /// `side` x `side` grid. Returns where each player ends; [`Resolver::events`] says who collided.
    pub fn resolve(&mut self, side: u32, cells: &[u32], dirs: &[u8], s: &Settings) -> &[u32] {
        let n = cells.len();
        let area = (side * side) as usize;
        if self.occ.len() < area {
            self.occ.resize(area, NONE);
            self.head.resize(area, NONE);
        }
        if self.target.len() < n {
            for v in [&mut self.next, &mut self.target, &mut self.mark] {
                v.resize(n, 0);
            }
            self.moving.resize(n, false);
            // A player enters `stop` at most once as a mover and once per player bumping into
            // it; `chain` holds each player once.
            self.stop.reserve(4 * n);
            self.chain.reserve(n);
            self.events.reserve(16 * n);
        }
        self.stop.clear();
        self.chain.clear();
        self.events.clear();
        for i in 0..n {
            self.occ[cells[i] as usize] = i as u32;
            let t = step(side, cells[i], dirs[i]);
            self.target[i] = t;
            self.moving[i] = t != cells[i];
            self.mark[i] = NONE;
            if self.moving[i] {
                self.next[i] = self.head[t as usize];
                self.head[t as usize] = i as u32;
            }
        }
        self.swaps(cells);
        loop {
            let second = self.second_kind(cells, s);
            let third = self.third_kind(side, cells, dirs);
            if !second && !third {
                break;
            }
        }
        for i in 0..n {
            self.occ[cells[i] as usize] = NONE;
            self.head[self.target[i] as usize] = NONE;
            if !self.moving[i] {
                self.target[i] = cells[i];
            }
        }
        &self.target[..n]
    }

    /// TG-11, kind 1: every pair trying to trade places, at once.
    fn swaps(&mut self, cells: &[u32]) {
        self.stop.clear();
        for i in 0..cells.len() {
            if !self.moving[i] {
                continue;
            }
            let j = self.occ[self.target[i] as usize];
            if j != NONE
                && (i as u32) < j
                && self.moving[j as usize]
                && self.target[j as usize] == cells[i]
            {
                self.events.push(Collision {
                    kind: 1,
                    a: i as u32,
                    b: j,
                    mutual: true,
                });
                self.stop.push(i as u32);
                self.stop.push(j);
            }
        }
        for k in 0..self.stop.len() {
            let p = self.stop[k] as usize;
            self.moving[p] = false;
        }
    }

    /// Stops the players in `stop` (found at once), then every chain behind them (TG-12): a
    /// mover into the cell of a player who now stays collides with it and stays too.
    fn apply_stops(&mut self, cells: &[u32]) -> bool {
        let mut any = false;
        for k in 0..self.stop.len() {
            let p = self.stop[k] as usize;
            if self.moving[p] {
                self.moving[p] = false;
                self.chain.push(p as u32);
                any = true;
            }
        }
        while let Some(s) = self.chain.pop() {
            let mut m = self.head[cells[s as usize] as usize];
            while m != NONE {
                if self.moving[m as usize] {
                    self.moving[m as usize] = false;
                    self.events.push(Collision {
                        kind: 2,
                        a: m,
                        b: s,
                        mutual: false,
                    });
                    self.chain.push(m);
                }
                m = self.next[m as usize];
            }
        }
        any
    }

    /// TG-12, kind 2 at once (same cell; a bump into a player who stays; with `follow =
    /// "collides"` a move into an occupied cell; with `cycles = "collide"` a ring), then chains.
    fn second_kind(&mut self, cells: &[u32], s: &Settings) -> bool {
        self.stop.clear();
        let n = cells.len();
        for i in 0..n {
            if !self.moving[i] {
                continue;
            }
            let t = self.target[i];
            let mut crowded = false;
            let mut m = self.head[t as usize];
            while m != NONE {
                if m as usize != i && self.moving[m as usize] {
                    crowded = true;
                    if (i as u32) < m {
                        self.events.push(Collision {
                            kind: 2,
                            a: i as u32,
                            b: m,
                            mutual: true,
                        });
                    }
                }
                m = self.next[m as usize];
            }
            let j = self.occ[t as usize];
            let mut bumped = false;
            if j != NONE && j as usize != i {
                if !self.moving[j as usize] {
                    self.events.push(Collision {
                        kind: 2,
                        a: i as u32,
                        b: j,
                        mutual: false,
                    });
                    bumped = true;
                } else if s.follow == Follow::Collides {
                    self.events.push(Collision {
                        kind: 2,
                        a: i as u32,
                        b: j,
                        mutual: true,
                    });
                    self.stop.push(j);
                    bumped = true;
                }
            }
            if crowded || bumped {
                self.stop.push(i as u32);
            }
        }
        if s.follow == Follow::Allowed && s.cycles == Cycles::Collide {
            self.rings(cells);
        }
        self.apply_stops(cells)
    }

    /// TG-13 with `cycles = "collide"`: rings of movers, each into the next one's cell, among
    /// the players moving at the start of the pass. Each ring member collides with the next.
    fn rings(&mut self, cells: &[u32]) {
        let n = cells.len();
        let succ = |r: &Resolver, v: usize| -> Option<usize> {
            let w = r.occ[r.target[v] as usize];
            (r.moving[v] && w != NONE && r.moving[w as usize]).then_some(w as usize)
        };
        for i in 0..n {
            self.mark[i] = NONE;
        }
        for start in 0..n {
            if self.mark[start] != NONE || !self.moving[start] {
                continue;
            }
            let mut v = start;
            loop {
                self.mark[v] = start as u32;
                match succ(self, v) {
                    Some(w) if self.mark[w] == NONE => v = w,
                    Some(w) if self.mark[w] == start as u32 => {
                        // A ring through w (a swap would have been stopped already, so >= 3).
                        let mut u = w;
                        loop {
                            let nu = succ(self, u).unwrap();
                            self.events.push(Collision {
                                kind: 2,
                                a: u as u32,
                                b: nu as u32,
                                mutual: true,
                            });
                            self.stop.push(u as u32);
                            u = nu;
                            if u == w {
                                break;
                            }
                        }
                        break;
                    }
                    _ => break,
                }
            }
        }
    }

    /// TG-11, kind 3 at once: two diagonal moves across the same 2x2 square, then chains.
    fn third_kind(&mut self, side: u32, cells: &[u32], dirs: &[u8]) -> bool {
        self.stop.clear();
        for i in 0..cells.len() {
            if !self.moving[i] {
                continue;
            }
            let (dx, dy) = DIRS[dirs[i] as usize];
            if dx == 0 || dy == 0 {
                continue;
            }
            // The square's other diagonal runs between these two cells (both on the grid, since
            // the move itself is).
            let x = (cells[i] % side) as i32;
            let y = (cells[i] / side) as i32;
            let a = y as u32 * side + (x + dx) as u32;
            let b = (y + dy) as u32 * side + x as u32;
            for (from, to) in [(a, b), (b, a)] {
                let j = self.occ[from as usize];
                if j != NONE
                    && (i as u32) < j
                    && self.moving[j as usize]
                    && self.target[j as usize] == to
                {
                    self.events.push(Collision {
                        kind: 3,
                        a: i as u32,
                        b: j,
                        mutual: true,
                    });
                    self.stop.push(i as u32);
                    self.stop.push(j);
                }
            }
        }
        self.apply_stops(cells)
    }
}

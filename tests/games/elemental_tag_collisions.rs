//! The collision catalogue of docs/rules/elemental-tag.md (C-1 .. C-12), one test per case with
//! its map before and after, both models; then the properties of TG-16 on random, dense,
//! all-into-one-cell, chain and ring move sets, and the optimised resolver against the plain
//! model (TG-10 .. TG-16).

use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use skirmish::games::elemental_tag::kernel::collide::{Collision, Resolver};
use skirmish::games::elemental_tag::reference;
use skirmish::games::elemental_tag::rules::{Cycles, DIR_NAMES, DIRS, Follow, Settings, step};

/// Parses a square map (`.` empty, letters players), resolves `moves` (letter, move name; the
/// rest stay) with both models, checks they agree, and returns the map after and the collisions
/// as `1 A B`, `2 A=B` (mutual), `2 A>B` (A ran into B), `3 A B`, sorted.
fn case(map: &[&str], moves: &[(char, &str)], s: &Settings) -> (Vec<String>, Vec<String>) {
    let side = map.len() as u32;
    let mut letters = Vec::new();
    let mut cells = Vec::new();
    for (y, row) in map.iter().enumerate() {
        assert_eq!(row.len(), map.len(), "square maps");
        for (x, c) in row.chars().enumerate() {
            if c != '.' {
                letters.push(c);
                cells.push(y as u32 * side + x as u32);
            }
        }
    }
    let dirs: Vec<u8> = letters
        .iter()
        .map(|l| {
            moves.iter().find(|(m, _)| m == l).map_or(0, |(_, d)| {
                DIR_NAMES.iter().position(|n| n == d).unwrap() as u8
            })
        })
        .collect();
    let mut r = Resolver::new();
    let ends = r.resolve(side, &cells, &dirs, s).to_vec();
    let (ref_ends, ref_events) = reference::resolve(side, &cells, &dirs, s);
    assert_eq!(ends, ref_ends, "the models agree on where players end");
    let show = |e: &[Collision]| {
        let mut v: Vec<String> = e
            .iter()
            .map(|c| {
                let (a, b) = (letters[c.a as usize], letters[c.b as usize]);
                match (c.kind, c.mutual) {
                    (2, false) => format!("2 {a}>{b}"),
                    (2, true) => format!("2 {}={}", a.min(b), a.max(b)),
                    (k, _) => format!("{k} {} {}", a.min(b), a.max(b)),
                }
            })
            .collect();
        v.sort();
        v
    };
    assert_eq!(
        show(&r.events),
        show(&ref_events),
        "the models agree on the collisions"
    );
    let mut after = vec![vec!['.'; side as usize]; side as usize];
    for (l, &c) in letters.iter().zip(&ends) {
        after[(c / side) as usize][(c % side) as usize] = *l;
    }
    (
        after.into_iter().map(|r| r.into_iter().collect()).collect(),
        show(&r.events),
    )
}

fn d() -> Settings {
    Settings::default()
}

#[test]
fn c1_swap() {
    let (after, ev) = case(
        &["...", "AB.", "..."],
        &[('A', "east"), ('B', "west")],
        &d(),
    );
    assert_eq!(after, ["...", "AB.", "..."]);
    assert_eq!(ev, ["1 A B"]);
}

#[test]
fn c2_three_into_one_cell_all_collide() {
    let (after, ev) = case(
        &["A.B", "...", ".C."],
        &[('A', "southeast"), ('B', "southwest"), ('C', "north")],
        &d(),
    );
    assert_eq!(after, ["A.B", "...", ".C."]);
    assert_eq!(ev, ["2 A=B", "2 A=C", "2 B=C"]);
}

#[test]
fn c3_chain_behind_a_blocked_player() {
    let (after, ev) = case(
        &["...", "ABC", "..."],
        &[('A', "east"), ('B', "east")],
        &d(),
    );
    assert_eq!(after, ["...", "ABC", "..."]);
    assert_eq!(ev, ["2 A>B", "2 B>C"]);
}

#[test]
fn c4_following_moves_by_default_and_collides_when_set() {
    let (after, ev) = case(
        &["...", "AB.", "..."],
        &[('A', "east"), ('B', "east")],
        &d(),
    );
    assert_eq!(after, ["...", ".AB", "..."]);
    assert!(ev.is_empty());
    let s = Settings {
        follow: Follow::Collides,
        ..d()
    };
    let (after, ev) = case(&["...", "AB.", "..."], &[('A', "east"), ('B', "east")], &s);
    assert_eq!(after, ["...", "AB.", "..."]);
    assert_eq!(ev, ["2 A=B"]);
}

#[test]
fn c5_diagonal_cross() {
    let (after, ev) = case(
        &["AB.", "...", "..."],
        &[('A', "southeast"), ('B', "southwest")],
        &d(),
    );
    assert_eq!(after, ["AB.", "...", "..."]);
    assert_eq!(ev, ["3 A B"]);
}

#[test]
fn c6_two_diagonal_swaps_across_one_square_are_swaps_first() {
    let (after, ev) = case(
        &["AB.", "CD.", "..."],
        &[
            ('A', "southeast"),
            ('D', "northwest"),
            ('B', "southwest"),
            ('C', "northeast"),
        ],
        &d(),
    );
    assert_eq!(after, ["AB.", "CD.", "..."]);
    assert_eq!(ev, ["1 A D", "1 B C"]);
}

#[test]
fn c7_a_ring_of_four_moves_by_default_and_collides_when_set() {
    let m = [('A', "east"), ('B', "south"), ('C', "west"), ('D', "north")];
    let (after, ev) = case(&["AB.", "DC.", "..."], &m, &d());
    assert_eq!(after, ["DA.", "CB.", "..."]);
    assert!(ev.is_empty());
    let s = Settings {
        cycles: Cycles::Collide,
        ..d()
    };
    let (after, ev) = case(&["AB.", "DC.", "..."], &m, &s);
    assert_eq!(after, ["AB.", "DC.", "..."]);
    assert_eq!(ev, ["2 A=B", "2 A=D", "2 B=C", "2 C=D"]);
}

#[test]
fn c7b_a_ring_of_three_with_a_diagonal() {
    let m = [('A', "east"), ('B', "south"), ('C', "northwest")];
    let (after, ev) = case(&["AB.", ".C.", "..."], &m, &d());
    assert_eq!(after, ["CA.", ".B.", "..."]);
    assert!(ev.is_empty());
}

#[test]
fn c8_the_grids_edge_is_a_stay_and_can_be_run_into() {
    let (after, ev) = case(
        &["AB.", "...", "..."],
        &[('A', "north"), ('B', "west")],
        &d(),
    );
    assert_eq!(after, ["AB.", "...", "..."]);
    assert_eq!(ev, ["2 B>A"]);
}

#[test]
fn c9_a_tag_inside_a_chain_is_the_it_players_own_bump() {
    // I (it) runs into T, who stays; X runs into I: I collided into T, X into I (TG-23).
    let (after, ev) = case(
        &["...", "XIT", "..."],
        &[('I', "east"), ('X', "east")],
        &d(),
    );
    assert_eq!(after, ["...", "XIT", "..."]);
    assert_eq!(ev, ["2 I>T", "2 X>I"]);
}

#[test]
fn c10_a_chain_from_a_crossing() {
    let (after, ev) = case(
        &["ABC", "...", "..."],
        &[('A', "southeast"), ('B', "southwest"), ('C', "west")],
        &d(),
    );
    assert_eq!(after, ["ABC", "...", "..."]);
    assert_eq!(ev, ["2 C>B", "3 A B"]);
}

#[test]
fn c11_all_into_one_cell() {
    let m = [
        ('A', "southeast"),
        ('B', "south"),
        ('C', "southwest"),
        ('D', "east"),
        ('E', "west"),
        ('F', "northeast"),
        ('G', "north"),
        ('H', "northwest"),
    ];
    let (after, ev) = case(&["ABC", "D.E", "FGH"], &m, &d());
    assert_eq!(after, ["ABC", "D.E", "FGH"]);
    assert_eq!(ev.len(), 28);
    assert!(ev.iter().all(|e| e.starts_with("2 ") && e.contains('=')));
}

#[test]
fn c12_a_cross_plus_a_swap() {
    let (after, ev) = case(
        &["AB.CD", ".....", ".....", ".....", "....."],
        &[
            ('A', "southeast"),
            ('B', "southwest"),
            ('C', "east"),
            ('D', "west"),
        ],
        &d(),
    );
    assert_eq!(after, ["AB.CD", ".....", ".....", ".....", "....."]);
    assert_eq!(ev, ["1 C D", "3 A B"]);
}

/// Checks TG-16 on one move set and returns how many players moved.
fn invariants(side: u32, cells: &[u32], dirs: &[u8], ends: &[u32], s: &Settings) -> usize {
    let n = cells.len();
    let mut seen = std::collections::HashSet::new();
    for &e in ends {
        assert!(seen.insert(e), "two players end in one cell");
    }
    let moved: Vec<bool> = (0..n).map(|i| ends[i] != cells[i]).collect();
    for i in 0..n {
        if moved[i] {
            assert_eq!(
                ends[i],
                step(side, cells[i], dirs[i]),
                "a player moves only where it asked"
            );
        }
        for j in i + 1..n {
            if moved[i] && moved[j] {
                assert!(
                    !(ends[i] == cells[j] && ends[j] == cells[i]),
                    "two players traded places"
                );
                let (ax, ay) = DIRS[dirs[i] as usize];
                let (bx, by) = DIRS[dirs[j] as usize];
                if ax != 0 && ay != 0 && bx != 0 && by != 0 {
                    let (x, y) = ((cells[i] % side) as i32, (cells[i] / side) as i32);
                    let c1 = (y as u32) * side + (x + ax) as u32;
                    let c2 = ((y + ay) as u32) * side + x as u32;
                    assert!(
                        !((cells[j], ends[j]) == (c1, c2) || (cells[j], ends[j]) == (c2, c1)),
                        "two moves crossed"
                    );
                }
            }
        }
    }
    let _ = s;
    moved.iter().filter(|&&m| m).count()
}

/// A random move set: `n` players on a `side` grid, moves biased by `shape` (0: uniform; 1: all
/// towards one cell; 2: rows marching east, long chains; 3: 2x2 rings).
fn draw(rng: &mut Xoshiro256PlusPlus, side: u32, n: usize, shape: u32) -> (Vec<u32>, Vec<u8>) {
    let mut cells: Vec<u32> = (0..side * side).collect();
    cells.shuffle(rng);
    cells.truncate(n);
    let centre = (side / 2) * side + side / 2;
    let dirs = cells
        .iter()
        .map(|&c| match shape {
            1 => {
                let (x, y) = ((c % side) as i32, (c / side) as i32);
                let (cx, cy) = ((centre % side) as i32, (centre / side) as i32);
                DIRS.iter()
                    .position(|&d| d == ((cx - x).signum(), (cy - y).signum()))
                    .unwrap() as u8
            }
            2 => {
                if rng.random_bool(0.9) {
                    3
                } else {
                    0
                }
            }
            3 => {
                // Round a 2x2 block: E on top-left, S on top-right, W bottom-right, N bottom-left.
                let (x, y) = (c % side, c / side);
                [3u8, 5, 1, 7][((y % 2) * 2 + (x % 2)) as usize]
            }
            _ => rng.random_range(0..9u8),
        })
        .collect();
    (cells, dirs)
}

#[test]
fn tg16_invariants_and_order_independence_on_random_move_sets() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(16);
    let mut r = Resolver::new();
    let mut r2 = Resolver::new();
    let (mut moved, mut total) = (0, 0);
    for k in 0..60_000u32 {
        let side = rng.random_range(2..=9u32);
        let n = rng.random_range(1..=(side * side) as usize);
        let (cells, dirs) = draw(&mut rng, side, n, k % 4);
        let s = Settings {
            follow: if k % 5 == 0 {
                Follow::Collides
            } else {
                Follow::Allowed
            },
            cycles: if k % 7 == 0 {
                Cycles::Collide
            } else {
                Cycles::Move
            },
            ..Settings::default()
        };
        let ends = r.resolve(side, &cells, &dirs, &s).to_vec();
        moved += invariants(side, &cells, &dirs, &ends, &s);
        total += n;
        // Listed in another order, every player ends in the same cell.
        let mut order: Vec<usize> = (0..n).collect();
        order.shuffle(&mut rng);
        let pc: Vec<u32> = order.iter().map(|&i| cells[i]).collect();
        let pd: Vec<u8> = order.iter().map(|&i| dirs[i]).collect();
        let pe = r2.resolve(side, &pc, &pd, &s);
        for (k2, &i) in order.iter().enumerate() {
            assert_eq!(
                pe[k2], ends[i],
                "the order players are listed changed the result"
            );
        }
    }
    // The sample must move many players and stop many, or it proves little.
    assert!(
        moved > total / 5 && moved < total * 9 / 10,
        "{moved} of {total} moved"
    );
}

#[test]
fn optimised_resolver_matches_the_reference_on_random_move_sets() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(1016);
    let mut r = Resolver::new();
    let mut kinds = [0usize; 4];
    for k in 0..20_000u32 {
        let side = rng.random_range(2..=7u32);
        let n = rng.random_range(1..=(side * side) as usize);
        let (cells, dirs) = draw(&mut rng, side, n, k % 4);
        let s = Settings {
            follow: if k % 3 == 0 {
                Follow::Collides
            } else {
                Follow::Allowed
            },
            cycles: if k % 2 == 0 {
                Cycles::Collide
            } else {
                Cycles::Move
            },
            ..Settings::default()
        };
        let ends = r.resolve(side, &cells, &dirs, &s).to_vec();
        let mut ev = r.events.clone();
        let (want_ends, mut want_ev) = reference::resolve(side, &cells, &dirs, &s);
        assert_eq!(ends, want_ends, "move set {k}: ends differ");
        ev.sort();
        want_ev.sort();
        assert_eq!(ev, want_ev, "move set {k}: collisions differ");
        for c in &ev {
            kinds[c.kind as usize] += 1;
        }
    }
    assert!(
        kinds[1] > 100 && kinds[2] > 100 && kinds[3] > 50,
        "{kinds:?}"
    );
}

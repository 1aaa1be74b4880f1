//! Elemental Tag's numbers and readings (`docs/rules/seeds/004_3458d795c23786a0.txt`; entries TG-n in
//! `docs/rules/elemental-tag.md`). Every number and every settled reading is a field of
//! [`Settings`] with the seed's value (or the most faithful reading) as default, so a host can
//! change any of them from a game file's `[settings]`.

use serde::{Deserialize, Serialize};

/// How tied lowest bidders who are not it pay (TG-3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TieAverage {
    /// The average of every bid of the round, rounded half up (default: the only reading under
    /// which "the average" differs from their own, equal, bid).
    All,
    /// The average of the tied bids, i.e. their own bid.
    Tied,
}

/// Moving into a cell whose occupant is moving away (TG-12).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Follow {
    /// The follower moves unless its leader is stopped, which makes it a chain (default).
    Allowed,
    /// Any move into a cell occupied at the start of the turn is a collision of the second kind
    /// with its occupant; neither moves.
    Collides,
}

/// A ring of three or more players each moving into the next one's cell (TG-13).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Cycles {
    /// The ring moves: nobody tries to enter a cell someone stays in (default).
    Move,
    /// Every member collides with the next (second kind); nobody in it moves.
    Collide,
}

/// Every number and reading of a game.
#[derive(Clone, Copy, Debug, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields, default)]
pub struct Settings {
    /// TG-1: an element's starting points.
    pub element_points: i32,
    /// TG-1: an underworld player's starting points.
    pub underworld_points: i32,
    /// TG-3.
    pub tie_average: TieAverage,
    /// TG-4: the grid's side for up to `grid_players` players.
    pub grid_side: u32,
    /// TG-4: players the smallest grid holds; more players grow the side (see [`grid_side`]).
    pub grid_players: u32,
    /// TG-5: points a new random place costs (asked for once).
    pub replace_cost: i32,
    /// TG-20: points the it player's team loses each turn it is it.
    pub it_cost: i32,
    /// TG-21: points per name on the tag list, each turn.
    pub tag_cost: i32,
    /// TG-22: points a team loses when one of its players is tagged by another team.
    pub tagged_cost: i32,
    pub follow: Follow,
    pub cycles: Cycles,
    /// TG-61, TG-62, TG-66: points of a player who leaves, is ejected or signs up late.
    pub newcomer_points: i32,
    /// TG-62: points a team loses for ejecting a player.
    pub eject_cost: i32,
    /// TG-64: elements a game has (a new team needs one no team in play holds).
    pub elements: u32,
    /// TG-66: late signups close when fewer than this many players remain.
    pub late_min_players: u32,
    /// TG-31: turns after which a game stops, reported as a turn cap.
    pub max_turns: u32,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            element_points: 45,
            underworld_points: 25,
            tie_average: TieAverage::All,
            grid_side: 5,
            grid_players: 12,
            replace_cost: 3,
            it_cost: 2,
            tag_cost: 1,
            tagged_cost: 4,
            follow: Follow::Allowed,
            cycles: Cycles::Move,
            newcomer_points: 10,
            eject_cost: 4,
            elements: 12,
            late_min_players: 6,
            max_turns: 200,
        }
    }
}

impl Settings {
    /// Where these settings depart from the seed's, in plain words (`it_cost 2 -> 3`), in the
    /// order of the fields; empty for the seed's own.
    pub fn changes(&self) -> Vec<String> {
        crate::games::changes::of(&Settings::default(), self)
    }
}

/// TG-4: the grid's side for `players` players: `grid_side` up to `grid_players` players, then
/// the smallest side that keeps players per cell no higher than `grid_players` on
/// `grid_side`^2 cells (12 on 25 by default: 13 players get 6x6, 40 get 10x10).
pub fn grid_side(s: &Settings, players: u32) -> u32 {
    let mut side = s.grid_side.max(1);
    while (players as u64) * (s.grid_side as u64).pow(2)
        > (s.grid_players as u64) * (side as u64).pow(2)
    {
        side += 1;
    }
    side
}

/// The nine moves (TG-10): index 0 stays; 1..=8 are N, NE, E, SE, S, SW, W, NW. North is up
/// (y decreases).
pub const DIRS: [(i32, i32); 9] = [
    (0, 0),
    (0, -1),
    (1, -1),
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
];

/// The moves' names, as hosts write them.
pub const DIR_NAMES: [&str; 9] = [
    "stay",
    "north",
    "northeast",
    "east",
    "southeast",
    "south",
    "southwest",
    "west",
    "northwest",
];

/// The cell a move from `cell` leads to on a `side` x `side` grid; off the grid is a stay (TG-10).
#[inline(always)]
pub fn step(side: u32, cell: u32, dir: u8) -> u32 {
    let (dx, dy) = DIRS[dir as usize];
    let x = (cell % side) as i32 + dx;
    let y = (cell / side) as i32 + dy;
    if x < 0 || y < 0 || x >= side as i32 || y >= side as i32 {
        cell
    } else {
        y as u32 * side + x as u32
    }
}

/// TG-32: scoring points by place from the end: the last team standing, the last eliminated,
/// second and third to last, fourth to sixth to last.
pub fn score(place_from_end: usize) -> u32 {
    match place_from_end {
        0 => 5,
        1 => 3,
        2 | 3 => 2,
        4..=6 => 1,
        _ => 0,
    }
}

/// Rounds `num / den` half up (points are whole numbers; TG-3).
pub fn div_round_half_up(num: i64, den: i64) -> i64 {
    (2 * num + den).div_euclid(2 * den)
}

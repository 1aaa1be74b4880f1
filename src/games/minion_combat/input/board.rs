//! Board files (TOML, MC-5): a small map of labelled squares and the groups standing on them.
//!
//! ```toml
//! seed = 42
//! initiative = "blue"                          # blue | red
//! map = [". R1 .", "R4 B1 R2", ". R3 ."]        # rows top to bottom; `.` is an empty square
//! order = ["north", "south", "east", "west"]   # the page's NE, SW, SE, NW (optional)
//! neutral_hostile = true                       # neutral groups fight each other (optional)
//! [[group]]
//! label = "B1"
//! player = "blue"                              # blue | red | neutral
//! minions = ["4 x Keeper swordsman"]
//! ```
//!
//! A player's groups are in its group sequence in the order the file gives them (first =
//! oldest).

use serde::Deserialize;

use crate::games::file_error::{FileCtx, FileError};
use crate::games::minion_combat::board::{Board, Placed, Player, Step};
use crate::games::minion_combat::input::combat::{check_group, minion_spec};
use crate::games::minion_combat::rules::Rules;
use crate::games::minion_combat::state::{Catalogue, Group};

/// Largest map side.
pub const MAX_SIDE: usize = 12;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    seed: Option<u64>,
    initiative: Option<String>,
    map: Vec<String>,
    order: Option<Vec<String>>,
    neutral_hostile: Option<bool>,
    #[serde(default)]
    group: Vec<GroupFile>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct GroupFile {
    label: String,
    name: Option<String>,
    player: String,
    #[serde(default)]
    minions: Vec<String>,
}

fn player(s: &str) -> Option<Player> {
    match s {
        "blue" => Some(Player::Blue),
        "red" => Some(Player::Red),
        "neutral" => Some(Player::Neutral),
        _ => None,
    }
}

/// Parses and checks a board file; `file` names it in errors.
pub fn parse(file: &str, text: &str, r: &Rules, cat: &Catalogue) -> Result<Board, FileError> {
    let cx = FileCtx { file, text };
    let f: File = cx.toml(super::FORMAT)?;
    let initiative = match f.initiative.as_deref().unwrap_or("blue") {
        "blue" => Player::Blue,
        "red" => Player::Red,
        x => {
            return Err(cx.err(
                None,
                "initiative",
                format!("`{x}`: blue or red (the player with initiative)"),
            ));
        }
    };
    let order = match &f.order {
        None => [Step::North, Step::South, Step::East, Step::West],
        Some(o) => {
            let steps: Option<Vec<Step>> = o
                .iter()
                .map(|w| match w.as_str() {
                    "north" => Some(Step::North),
                    "south" => Some(Step::South),
                    "east" => Some(Step::East),
                    "west" => Some(Step::West),
                    _ => None,
                })
                .collect();
            match steps {
                Some(s) if s.len() == 4 && (0..4).all(|i| (0..i).all(|j| s[i] != s[j])) => {
                    [s[0], s[1], s[2], s[3]]
                }
                _ => {
                    return Err(cx.err(
                        None,
                        "order",
                        "the four steps north, south, east, west, each once, in the order of the page's NE, SW, SE, NW",
                    ));
                }
            }
        }
    };
    let rows: Vec<Vec<&str>> = f
        .map
        .iter()
        .map(|l| l.split_whitespace().collect())
        .collect();
    let cols = rows.iter().map(|r| r.len()).max().unwrap_or(0);
    if rows.is_empty() || cols == 0 || rows.len() > MAX_SIDE || cols > MAX_SIDE {
        return Err(cx.err(
            None,
            "map",
            format!(
                "a map of 1 to {MAX_SIDE} rows of 1 to {MAX_SIDE} squares, `.` for an empty one"
            ),
        ));
    }
    let mut placed: Vec<Placed> = Vec::new();
    let mut ages = [0u32; 3];
    for (gi, g) in f.group.iter().enumerate() {
        let fld = |k: &str| format!("group[{gi}].{k}");
        let p = player(&g.player).ok_or_else(|| {
            cx.err(
                None,
                fld("player"),
                format!("`{}`: blue, red or neutral", g.player),
            )
        })?;
        if g.label == "." || g.label.split_whitespace().count() != 1 {
            return Err(cx.err(
                None,
                fld("label"),
                format!("`{}`: one word, not `.`", g.label),
            ));
        }
        if placed.iter().any(|x| x.label == g.label) {
            return Err(cx.err(
                None,
                fld("label"),
                format!("`{}` twice: give every group its own label", g.label),
            ));
        }
        let spots: Vec<(usize, usize)> = rows
            .iter()
            .enumerate()
            .flat_map(|(i, r)| {
                r.iter()
                    .enumerate()
                    .filter(|(_, t)| **t == g.label)
                    .map(move |(j, _)| (i, j))
            })
            .collect();
        if spots.len() != 1 {
            return Err(cx.err(
                None,
                fld("label"),
                format!(
                    "`{}` is on the map {} times: put each group on exactly one square",
                    g.label,
                    spots.len()
                ),
            ));
        }
        let mut minions = Vec::new();
        for spec in &g.minions {
            let (ms, _) = minion_spec(spec, cat, r).map_err(|m| cx.err(None, fld("minions"), m))?;
            minions.extend(ms);
        }
        check_group(&minions).map_err(|m| cx.err(None, fld("minions"), m))?;
        let k = p as usize;
        let age = ages[k];
        ages[k] += 1;
        placed.push(Placed {
            label: g.label.clone(),
            player: p,
            row: spots[0].0,
            col: spots[0].1,
            group: Group {
                name: g.name.clone().unwrap_or_else(|| g.label.clone()),
                owner: crate::games::minion_combat::state::Owner::Neutral,
                age,
                minions,
            },
        });
    }
    for (i, r) in rows.iter().enumerate() {
        for t in r {
            if *t != "." && !placed.iter().any(|p| p.label == *t) {
                return Err(cx.err(
                    None,
                    "map",
                    format!("row {}: `{t}` names no [[group]]; add one with `label = \"{t}\"`, or write `.`", i + 1),
                ));
            }
        }
    }
    let mut b = Board {
        seed: f.seed.unwrap_or(42),
        initiative,
        rows: rows.len(),
        cols,
        groups: placed,
        order,
        neutral_hostile: f.neutral_hostile.unwrap_or(true),
    };
    for i in 0..b.groups.len() {
        b.groups[i].group.owner = b.owner(b.groups[i].player);
    }
    Ok(b)
}

/// Whether a Minion Combat file is a board (it has a `map`).
pub fn is_board(text: &str) -> bool {
    toml::from_str::<toml::Table>(text).is_ok_and(|t| t.contains_key("map"))
}

//! Game files (TOML): teams, players, their policies, and any setting of `rules::Settings`.
//!
//! ```toml
//! seed = 7                   # optional (default 42); --seed overrides it
//! [settings]                 # optional: any field of rules::Settings
//! max_turns = 60
//!
//! [[team]]
//! name = "Fire"              # an element: 2 or more players, one points pool (TG-1)
//! players = [{ name = "Ash", policy = "flee(margin=2)" }, { name = "Ember", policy = "smart" }]
//!
//! [[team]]
//! name = "Nyx"
//! underworld = true          # an underworld player: alone, 25 points
//! players = [{ name = "Nyx", policy = "random" }]
//!
//! [[signup]]                 # optional: a late signup (TG-66), alone with 10 points
//! turn = 5
//! name = "Vesper"
//! policy = "smart"
//! ```

use crate::error::Error;
use serde::Deserialize;
use toml::Spanned;

use crate::games::elemental_tag::kernel::engine::{Signup, TeamSpec};
use crate::games::elemental_tag::policy::Policy;
use crate::games::elemental_tag::rules::{Settings, grid_side};
use crate::games::file_error::{FileCtx, FileError};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    /// The game's seed when `--seed` is not given.
    seed: Option<u64>,
    #[serde(default)]
    settings: Settings,
    #[serde(default)]
    team: Vec<TeamFile>,
    /// Late signups (TG-66).
    #[serde(default)]
    signup: Vec<SignupFile>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SignupFile {
    turn: Spanned<u32>,
    name: Spanned<String>,
    policy: Spanned<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TeamFile {
    name: Spanned<String>,
    #[serde(default)]
    underworld: bool,
    players: Spanned<Vec<PlayerFile>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PlayerFile {
    name: Spanned<String>,
    policy: Spanned<String>,
}

/// A checked game: its teams and settings.
#[derive(Clone, Debug, PartialEq)]
pub struct GameFile {
    /// The file's `seed` (default 42): `--seed` overrides it.
    pub seed: u64,
    pub teams: Vec<TeamSpec>,
    /// Players who sign up late (TG-66), in the file's order.
    pub signups: Vec<Signup>,
    pub settings: Settings,
}

/// Checks a game's settings (TG-1, TG-4, TG-31): what no game could be played with.
pub fn check_settings(s: &Settings) -> Result<(), (&'static str, String)> {
    let positive = [
        ("element_points", s.element_points),
        ("underworld_points", s.underworld_points),
    ];
    for (field, v) in positive {
        if !(1..=1_000_000).contains(&v) {
            return Err((field, format!("{v} points: give 1 to 1000000")));
        }
    }
    let costs = [
        ("newcomer_points", s.newcomer_points),
        ("eject_cost", s.eject_cost),
        ("replace_cost", s.replace_cost),
        ("it_cost", s.it_cost),
        ("tag_cost", s.tag_cost),
        ("tagged_cost", s.tagged_cost),
    ];
    for (field, v) in costs {
        if !(0..=1_000_000).contains(&v) {
            return Err((field, format!("{v}: a cost is 0 to 1000000 points")));
        }
    }
    if !(2..=256).contains(&s.grid_side) {
        return Err((
            "grid_side",
            format!("{}: give a side of 2 to 256 cells", s.grid_side),
        ));
    }
    if s.grid_players == 0 || s.grid_players > s.grid_side * s.grid_side {
        return Err((
            "grid_players",
            format!(
                "{}: give 1 to {} (the smallest grid's cells)",
                s.grid_players,
                s.grid_side * s.grid_side
            ),
        ));
    }
    if !(1..=100_000).contains(&s.max_turns) {
        return Err((
            "max_turns",
            format!("{}: give 1 to 100000 turns", s.max_turns),
        ));
    }
    Ok(())
}

/// Parses and checks a rules file (issue 51): any field of `rules::Settings` at the top level,
/// the seed's values for the rest (`it_cost = 3`).
pub fn parse_rules(file: &str, text: &str) -> Result<Settings, FileError> {
    crate::games::changes::parse_rules(file, text, "docs/elemental-tag.md", check_settings)
}

/// Reads and checks a rules file.
pub fn load_rules(
    src: &crate::platform::sources::Sources,
    path: &std::path::Path,
) -> Result<Settings, FileError> {
    crate::games::changes::load_rules(src, path, "docs/elemental-tag.md", check_settings)
}

/// Whether a file's text is a rules file rather than a game file (it has no teams or
/// `[settings]` table).
pub fn is_rules(text: &str) -> bool {
    crate::games::changes::is_rules(text, &["team", "settings"])
}

/// Most players in a game (the grid grows to 256 x 256 at most).
pub const MAX_PLAYERS: usize = 4096;

/// Parses and checks a game file; `file` names it in errors.
pub fn parse(file: &str, text: &str) -> Result<GameFile, FileError> {
    let cx = FileCtx { file, text };
    let f: File = cx.toml("docs/elemental-tag.md")?;
    check_settings(&f.settings)
        .map_err(|(field, m)| cx.err(None, format!("settings.{field}"), m))?;
    if f.team.len() < 3 {
        return Err(cx.err(
            None,
            "team",
            format!(
                "{} teams: a game needs at least 3 (TG-1); add [[team]] tables",
                f.team.len()
            ),
        ));
    }
    let mut teams = Vec::new();
    let mut names: Vec<String> = Vec::new();
    for (t, tf) in f.team.iter().enumerate() {
        let n = tf.players.get_ref().len();
        let ok = if tf.underworld { n == 1 } else { n >= 2 };
        if !ok {
            let fix = if tf.underworld {
                "an underworld player plays alone: give exactly one player"
            } else {
                "an element has 2 or more players (TG-1); a lone player is `underworld = true`"
            };
            return Err(cx.err(
                Some(tf.players.span()),
                format!("team[{t}].players"),
                format!("{n} players: {fix}"),
            ));
        }
        let team_name = tf.name.get_ref().trim();
        if team_name.is_empty() || teams.iter().any(|x: &TeamSpec| x.name == team_name) {
            return Err(cx.err(
                Some(tf.name.span()),
                format!("team[{t}].name"),
                format!("`{team_name}`: give every team its own, non-empty name (its points are tallied by name)"),
            ));
        }
        let mut players = Vec::new();
        for (p, pf) in tf.players.get_ref().iter().enumerate() {
            let name = pf.name.get_ref().trim().to_string();
            if name.is_empty() || names.contains(&name) {
                return Err(cx.err(
                    Some(pf.name.span()),
                    format!("team[{t}].players[{p}].name"),
                    format!("`{name}`: give every player its own, non-empty name"),
                ));
            }
            names.push(name.clone());
            let policy = Policy::parse(pf.policy.get_ref()).map_err(|m| {
                cx.err(
                    Some(pf.policy.span()),
                    format!("team[{t}].players[{p}].policy"),
                    m,
                )
            })?;
            players.push((name, policy));
        }
        teams.push(TeamSpec {
            name: tf.name.get_ref().trim().to_string(),
            underworld: tf.underworld,
            players,
        });
    }
    let mut signups = Vec::new();
    for (k, g) in f.signup.iter().enumerate() {
        let name = g.name.get_ref().trim().to_string();
        if name.is_empty() || names.contains(&name) {
            return Err(cx.err(
                Some(g.name.span()),
                format!("signup[{k}].name"),
                format!("`{name}`: give every player its own, non-empty name"),
            ));
        }
        if *g.turn.get_ref() == 0 {
            return Err(cx.err(
                Some(g.turn.span()),
                format!("signup[{k}].turn"),
                "0: a late signup joins at the end of turn 1 or later",
            ));
        }
        names.push(name.clone());
        let policy = Policy::parse(g.policy.get_ref())
            .map_err(|m| cx.err(Some(g.policy.span()), format!("signup[{k}].policy"), m))?;
        signups.push(Signup {
            turn: *g.turn.get_ref(),
            name,
            policy,
        });
    }
    if names.len() > MAX_PLAYERS {
        return Err(cx.err(
            None,
            "team",
            format!("{} players: at most {MAX_PLAYERS}", names.len()),
        ));
    }
    let side = grid_side(&f.settings, names.len() as u32);
    if side > 256 {
        return Err(cx.err(
            None,
            "settings.grid_players",
            format!(
                "{} players need a {side}x{side} grid: at most 256x256; raise grid_players",
                names.len()
            ),
        ));
    }
    Ok(GameFile {
        seed: f.seed.unwrap_or(42),
        teams,
        signups,
        settings: f.settings,
    })
}

impl GameFile {
    /// The game under a rules file's settings in place of its own (`tag play --rules`), checked
    /// again: the grid those settings give its players must still fit.
    pub fn with_rules(
        mut self,
        src: &crate::platform::sources::Sources,
        path: &std::path::Path,
    ) -> Result<GameFile, FileError> {
        let text = crate::games::file_error::read(src, path, "rules file")?;
        let file = path.display().to_string();
        let s = parse_rules(&file, &text)?;
        let players =
            self.teams.iter().map(|t| t.players.len()).sum::<usize>() + self.signups.len();
        let side = grid_side(&s, players as u32);
        if side > 256 {
            return Err(FileCtx { file: &file, text: &text }.err(
                None,
                "grid_players",
                format!(
                    "the game's {players} players need a {side}x{side} grid: at most 256x256; raise grid_players"
                ),
            ));
        }
        self.settings = s;
        Ok(self)
    }
}

/// Reads and checks a game file.
pub fn load(
    src: &crate::platform::sources::Sources,
    path: &std::path::Path,
) -> Result<GameFile, FileError> {
    let text = crate::games::file_error::read(src, path, "game file")?;
    parse(&path.display().to_string(), &text)
}

/// `skirmish tag check FILE`: a game file or a rules file, read by its parser (its first error,
/// else what it holds in words).
pub fn check(
    src: &crate::platform::sources::Sources,
    path: &std::path::Path,
) -> Result<String, Error> {
    // A rules file (issue 51) reads back as its changes from the seed's values.
    if let Ok(text) = crate::games::file_error::read(src, path, "file")
        && is_rules(&text)
    {
        let s = load_rules(src, path)?;
        return Ok(crate::games::changes::rules_file_told(path, &s.changes()));
    }
    let g = load(src, path)?;
    let players: usize = g.teams.iter().map(|t| t.players.len()).sum();
    let side = grid_side(&g.settings, players as u32);
    let mut out = format!(
        "{}: {} teams, {players} players, a {side}x{side} grid\n",
        path.display(),
        g.teams.len()
    );
    for t in &g.teams {
        let who: Vec<String> = t
            .players
            .iter()
            .map(|(n, p)| format!("{n} plays {}", p.spec()))
            .collect();
        out.push_str(&format!(
            "  {} ({}): {}\n",
            t.name,
            if t.underworld {
                "underworld"
            } else {
                "element"
            },
            who.join("; ")
        ));
    }
    for l in &g.signups {
        out.push_str(&format!(
            "  {} signs up late at turn {} and plays {}\n",
            l.name,
            l.turn,
            l.policy.spec()
        ));
    }
    // Settings in plain words, as changes from the seed's (issue 53: not a debug dump).
    for c in g.settings.changes() {
        out.push_str(&format!("  setting: {c}\n"));
    }
    Ok(out)
}

//! Royale files (TOML): the players of one whole game and the strategy each plays (LA-50).
//!
//! ```toml
//! seed = 7                       # optional (default 42); --seed overrides it
//! [[player]]
//! name = "Squirrel2412"
//! strategy = "smart"             # a named strategy with optional parameters
//! ```
//!
//! A file is a royale file when its players name a `strategy` (a battle file's players list
//! their champions instead).

use serde::Deserialize;
use toml::Spanned;

use crate::games::file_error::{FileCtx, FileError};
use crate::games::loot_arena::rules::Rules;
use crate::games::loot_arena::strategy::Strategy;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    seed: Option<u64>,
    #[serde(default)]
    player: Vec<PlayerFile>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PlayerFile {
    name: Spanned<String>,
    strategy: Spanned<String>,
}

/// A checked game.
#[derive(Clone, Debug)]
pub struct RoyaleFile {
    pub seed: u64,
    pub names: Vec<String>,
    pub seats: Vec<Strategy>,
}

/// Whether a Loot Arena file is a royale file rather than a battle file.
pub fn is_royale(text: &str) -> bool {
    let Ok(v) = text.parse::<toml::Table>() else {
        return false;
    };
    v.get("player")
        .and_then(|p| p.as_array())
        .is_some_and(|ps| ps.iter().any(|p| p.get("strategy").is_some()))
}

/// Parses and checks a royale file against the rules (the map must hold its players).
pub fn parse(file: &str, text: &str, rules: &Rules) -> Result<RoyaleFile, FileError> {
    let cx = FileCtx { file, text };
    let f: File = cx.toml("docs/loot-arena.md")?;
    if let Err(m) = rules.royale.check_players(f.player.len()) {
        return Err(cx.err(None, "player", format!("{m} (LA-40)")));
    }
    let mut names: Vec<String> = Vec::new();
    let mut seats = Vec::new();
    for (p, pf) in f.player.iter().enumerate() {
        let name = pf.name.get_ref().trim().to_string();
        if name.is_empty() || names.contains(&name) {
            return Err(cx.err(
                Some(pf.name.span()),
                format!("player[{p}].name"),
                format!("`{name}`: give each player its own, non-empty name"),
            ));
        }
        names.push(name);
        let st = Strategy::parse(pf.strategy.get_ref())
            .map_err(|m| cx.err(Some(pf.strategy.span()), format!("player[{p}].strategy"), m))?;
        seats.push(st);
    }
    Ok(RoyaleFile {
        seed: f.seed.unwrap_or(42),
        names,
        seats,
    })
}

/// Reads and checks a royale file.
pub fn load(
    src: &crate::platform::sources::Sources,
    path: &std::path::Path,
    rules: &Rules,
) -> Result<RoyaleFile, FileError> {
    let text = crate::games::file_error::read(src, path, "royale file")?;
    parse(&path.display().to_string(), &text, rules)
}

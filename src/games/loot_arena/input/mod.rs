//! The files a Loot Arena host writes: a rules file (`rules`), an item catalogue (`items`) and a
//! battle (`battle`). Each is checked whole before anything runs; an error names the file, line,
//! field and the fix.

pub mod battle;
pub mod items;
pub mod rules;

/// The shipped files, built in so every command runs without one.
pub const RULES: &str = include_str!("../../../../experiments/loot-arena/rules.toml");
pub const ITEMS: &str = include_str!("../../../../experiments/loot-arena/items.toml");
pub const BATTLE: &str = include_str!("../../../../experiments/loot-arena/battle.toml");

/// Reads TOML into `T`, a syntax or unknown-key error located on its line, with the fix.
pub(crate) fn from_toml<T: serde::de::DeserializeOwned>(
    cx: &crate::games::file_error::FileCtx,
    text: &str,
    format: &str,
) -> Result<T, crate::games::file_error::FileError> {
    toml::from_str(text).map_err(|e| {
        let msg = e.message().to_string();
        let hint = if msg.contains("unknown field") {
            format!(": remove it or fix its spelling ({format} lists the format)")
        } else {
            String::new()
        };
        cx.err(e.span(), "", format!("{msg}{hint}"))
    })
}

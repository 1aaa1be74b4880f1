//! The files a Minion Combat host writes: a rules file (`rules`), the minion catalogue and the
//! modifier list (`catalogue`), the effects they carry (`effects`), a combat (`combat`) and a board of groups (`board`). Each is checked whole before anything
//! runs; an error names the file, line, field and the fix.

pub mod board;
pub mod catalogue;
pub mod combat;
pub mod effects;
pub mod rules;

/// Largest stat a file may give (damage, armor, HP, attacks, an effect's amount), so sums stay
/// far from overflow.
pub const MAX_STAT: i32 = 10_000;

/// The shipped files, built in so every command runs without one.
pub const RULES: &str = include_str!("../../../../experiments/minion-combat/rules.toml");
pub const MINIONS: &str = include_str!("../../../../experiments/minion-combat/minions.toml");
pub const MODIFIERS: &str = include_str!("../../../../experiments/minion-combat/modifiers.toml");
pub const EFFECTS: &str = include_str!("../../../../experiments/minion-combat/effects.toml");
pub const COMBAT: &str = include_str!("../../../../experiments/minion-combat/combat.toml");
pub const BOARD: &str = include_str!("../../../../experiments/minion-combat/board.toml");

/// Where the formats are documented (named in unknown-key errors).
pub const FORMAT: &str = "docs/minion-combat.md";

/// The text of the file a flag names (through the shared reader), or the built-in text, with the
/// name errors give it.
pub fn read(
    src: &crate::platform::sources::Sources,
    path: Option<&std::path::Path>,
    builtin: (&str, &str),
) -> Result<(String, String), String> {
    match path {
        Some(p) => crate::games::file_error::read(src, p, "Minion Combat file")
            .map(|t| (p.display().to_string(), t))
            .map_err(|e| e.to_string()),
        None => Ok((format!("{} (built in)", builtin.0), builtin.1.to_string())),
    }
}

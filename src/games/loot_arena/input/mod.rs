//! The files a Loot Arena host writes: a rules file (`rules`), an item catalogue (`items`) and a
//! battle (`battle`), a whole royale's players (`royale`). Each is checked whole before anything runs; an error names the file, line,
//! field and the fix.

pub mod battle;
pub mod items;
pub mod royale;
pub mod rules;

/// The shipped files, built in so every command runs without one.
pub const RULES: &str = include_str!("../../../../experiments/loot-arena/rules.toml");
pub const ITEMS: &str = include_str!("../../../../experiments/loot-arena/items.toml");
pub const BATTLE: &str = include_str!("../../../../experiments/loot-arena/battle.toml");
pub const ROYALE: &str = include_str!("../../../../experiments/loot-arena/royale.toml");

//! One folder per game, each with the same inner shape (see `auto_rumble`).

pub mod auto_rumble;
pub mod clan_melee;
pub mod file_error;
pub mod names;

//! Clan Melee on the platform: melees between clans at each budget (`tournament`).

pub mod tournament;

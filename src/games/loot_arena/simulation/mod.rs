//! Loot Arena on the platform: random battles.
pub mod battles;

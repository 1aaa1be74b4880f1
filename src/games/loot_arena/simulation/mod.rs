//! Loot Arena on the platform: random battles, and whole royales between strategies.
pub mod battles;
pub mod royale;

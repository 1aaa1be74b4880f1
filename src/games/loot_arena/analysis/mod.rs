//! Loot Arena's questions: one attack's exact odds; what items, pairings and sets are worth.
pub mod items;
pub mod odds;

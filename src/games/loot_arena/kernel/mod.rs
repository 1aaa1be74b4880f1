//! Loot Arena's optimised kernel: the 2v2 battle.
pub mod battle;

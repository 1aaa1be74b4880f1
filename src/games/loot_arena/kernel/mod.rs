//! Loot Arena's optimised kernel: the 2v2 battle, and the whole royale around it.
pub mod battle;
pub mod royale;

//! The optimised combat: minions of both groups in sixteen fixed columns (side x 8 + position),
//! living minions and flags as bit masks, damage per round settled once in R1. It plays every
//! step exactly as `reference` does and reads every random choice from the same place (MC-30),
//! so the two agree choice for choice (`tests/minion_combat_differential.rs`).

pub mod combat;

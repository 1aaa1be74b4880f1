//! What a battle reports and how it is told: `hand` (the `Observer` interface of the hand-written
//! kernel: recorder, JSON Lines, narration) and `data` (the events of a data battle and their
//! narration).

pub mod data;
pub mod hand;
pub mod tell;

//! The optimised game: `collide` (a turn's simultaneous moves and collisions, allocation-free)
//! and `engine` (bids, placement, turns, tags, points, eliminations and scores).

pub mod collide;
pub mod engine;

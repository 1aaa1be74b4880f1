//! The optimised melee: `pairs` (each kind's rule folded per partner class and compiled) and
//! `engine` (pairs drawn, resolved grouped by kind pair, compaction; turns allocate nothing).

pub mod classes;
pub mod engine;
pub mod meeting;
pub mod pairs;

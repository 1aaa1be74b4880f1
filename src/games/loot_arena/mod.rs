//! Loot Arena (rules: `docs/rules/seeds/002_09b196f2d61b7b39.txt`; every reading: LA-n in
//! `docs/rules/loot-arena.md`). Part 1: the 2v2 champion battle with dice and items as data.
//!
//! The one shape of a game folder (ARCHITECTURE.md): `rules` (numbers and readings, all
//! settings), `state` (items, loadouts, outcomes), `draws` (every die by its place), `kernel/`
//! (the optimised battle), `reference` (the same rules written plainly), `policy` (sets and the
//! players who write them), `trace` (narration and JSON Lines), `input/` (rules, item and battle
//! files), `simulation/` (random battles on the platform), `analysis/` (exact odds, item worth).

pub mod analysis;
pub mod draws;
pub mod input;
pub mod kernel;
pub mod policy;
pub mod reference;
pub mod rules;
pub mod simulation;
pub mod state;
pub mod strategy;
pub mod trace;

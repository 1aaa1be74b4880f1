//! Elemental Tag (rules: `docs/rules/seeds/004_3458d795c23786a0.txt`; every reading: TG-n in
//! `docs/rules/elemental-tag.md`).
//!
//! The one shape of a game folder (ARCHITECTURE.md): `rules` (numbers and readings, all
//! settings), `kernel/` (`collide`: a turn's simultaneous moves and collisions; `engine`: the whole
//! game), `reference` (the plain collision model), `policy` (players as policies), `trace`
//! (narration and JSON Lines), `input/` (game files), `simulation/` (tournaments on the platform).

pub mod analysis;
pub mod input;
pub mod kernel;
pub mod policy;
pub mod reference;
pub mod rules;
pub mod simulation;
pub mod trace;

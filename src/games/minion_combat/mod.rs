//! Minion Combat Pipeline (seed 003, Sanctum's "The Combat Pipeline"): two groups of up to eight
//! minions fight a combat of up to ten rounds, step by step as the page writes it (MC-n in
//! `docs/rules/minion-combat.md`).
//!
//! - `analysis`: `analyze minions` (stat, monster, matchup, split and nation worth).
//! - `board`: a turn's combats on a board, in the page's order, losses carrying (MC-5).
//! - `rules`: every number and reading of a combat (`Rules`), nation abilities as data.
//! - `state`: minion stat blocks, the catalogue, modifiers, groups and outcomes.
//! - `effects`: combat effects as data: clauses at the pipeline's points (MC-41).
//! - `draws`: every random choice read by its place from the combat's key (MC-30).
//! - `kernel`: the optimised combat in columns, held to `reference` choice for choice.
//! - `reference`: the plain model of the pipeline, the narrator's engine and the oracle.
//! - `simulation`: random combats on the platform (`simulate minions`).
//! - `trace`: narration in the page's step names.
//! - `input`: rules, catalogue, modifier and combat files.

pub mod analysis;
pub mod board;
pub mod draws;
pub mod effects;
pub mod input;
pub mod kernel;
pub mod reference;
pub mod rules;
pub mod simulation;
pub mod state;
pub mod trace;

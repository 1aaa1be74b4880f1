//! Auto Rumble (rules: `shared/seeds/001_*.txt`; interpretations: `docs/rules/auto-rumble.md`).
//!
//! Same inner shape as every game folder: `rules` (numbers and formulas), `powers`, `roster`
//! (what enters a battle, compiled), `state` (the struct-of-arrays table), `kernel` (the optimised
//! battle), `reference` (the plain model it is tested against), `trace` (observers: recorder,
//! JSON Lines, narration), `scenario` (files a host writes), `bidding` (the sample's auction).

pub mod bidding;
pub mod catalogue;
pub mod data_kernel;
pub mod data_reference;
pub mod data_trace;
pub mod ffa;
pub mod game;
pub mod general_kernel;
pub mod kernel;
pub mod power_expr;
pub mod power_file;
pub mod power_value;
pub mod powerless;
pub mod powers;
pub mod reference;
pub mod roster;
pub mod rules;
pub mod scenario;
pub mod state;
pub mod strategy;
pub mod tournament;
pub mod trace;

pub use kernel::{EndReason, Kernel, Outcome};
pub use powers::Power;
pub use roster::{HeldPower, HeroSpec, Lineup, TeamBuild, UseItem};

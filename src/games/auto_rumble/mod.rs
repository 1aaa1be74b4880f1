//! Auto Rumble (rules: `docs/rules/seeds/001_2ccb15b36011367b.txt`; interpretations: `docs/rules/auto-rumble.md`).
//!
//! The one shape of a game folder (ARCHITECTURE.md): `rules` (numbers and formulas), `state` (the
//! struct-of-arrays table), `kernel/` (the optimised battles), `reference/` (the plain models they
//! are tested against), `trace/` (observers: recorder, JSON Lines, narration), `input/` (files a
//! host writes: scenarios, rosters), `simulation/` (platform runs: free-for-all, tournament),
//! `analysis/` (questions answered). Auto Rumble adds two groups of its own: `powers/` (the
//! power-file language and its compiled catalogue) and `game/` (the full bidding game and its
//! strategies).

pub mod analysis;
pub mod game;
pub mod input;
pub mod kernel;
pub mod powers;
pub mod reference;
pub mod rules;
pub mod simulation;
pub mod state;
pub mod trace;

pub use input::roster::{HeldPower, HeroSpec, Lineup, TeamBuild, UseItem};
pub use kernel::hand::{EndReason, Kernel, Outcome};
pub use powers::sample::Power;

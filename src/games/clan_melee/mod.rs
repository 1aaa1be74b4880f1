//! Clan Melee (rules: `docs/rules/seeds/000_0d162f8ea5072ac6.txt`; the classic tournament's engine and clans:
//! `docs/rules/notes/clan-melee.md`). Every interpretation is an entry CM-n in
//! `docs/rules/clan-melee.md`.
//!
//! The one shape of a game folder (ARCHITECTURE.md):
//! - `rules.rs`: the member primitives (cap, self-damage, decay, heal, damage) and the two modes;
//! - `state.rs`: the field's flat kind tables and the struct-of-arrays participants;
//! - `kernel/`: `pairs` (the rules folded per partner class and compiled to closures) and
//!   `engine` (the optimised melee);
//! - `reference.rs`: the plain model the engine is tested against;
//! - `trace.rs`: a melee told turn by turn;
//! - `input/`: clans as data (`expr`, `clan`: rosters and decision rules, compiled once) and the
//!   nine reference clans, built in (`clans`);
//! - `simulation/`: melees on the platform (`tournament`);
//! - `analysis/`: challenger clans against the reference field (`study`).

pub mod analysis;
pub mod input;
pub mod kernel;
pub mod reference;
pub mod rules;
pub mod simulation;
pub mod state;
pub mod trace;

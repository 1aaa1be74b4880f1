//! Clan Melee (rules: `../shared/seeds/000_*.txt`; the classic tournament's engine and clans:
//! `../shared/clan-melee/README.md`). Every interpretation is an entry CM-n in
//! `docs/rules/clan-melee.md`.
//!
//! - `rules.rs`: the member primitives (cap, self-damage, decay, heal, damage) and the two modes;
//! - `expr.rs`, `clan.rs`: clans as data (rosters and decision rules), compiled once;
//! - `state.rs`: the field's flat kind tables and the struct-of-arrays participants;
//! - `pairs.rs`: the rules folded per partner class and compiled to closures (the engine's path);
//! - `engine.rs`: the optimised melee; `reference.rs`: the plain model it is tested against;
//! - `clans.rs`: the nine reference clans, built in; `tournament.rs`: melees on the platform;
//! - `study.rs`: challenger clans against the reference field (best warrior AP, healer share).

pub mod clan;
pub mod clans;
pub mod engine;
pub mod expr;
pub mod pairs;
pub mod reference;
pub mod rules;
pub mod state;
pub mod study;
pub mod tournament;

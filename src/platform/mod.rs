//! The Monte Carlo platform: seeded chunks of matches on all cores, written as Parquet datasets.
//!
//! Game-agnostic: it knows a [`Simulation`] plays a range of match indices into [`table::Table`]s
//! and a [`tally::Tally`]; it knows nothing of heroes, powers or any rule.
pub mod answer;
pub mod balance;
pub mod command;
pub mod context;
pub mod dataset;
pub mod digest;
pub mod escape;
pub mod grid;
pub mod job;
pub mod ledger;
pub mod manifest;
pub mod memory;
pub mod narration;
pub mod pairing;
#[cfg(feature = "parquet")]
pub mod parquet;
pub mod plan;
pub mod render;
pub mod runner;
/// Private temporary folders, for tests only: no command makes one (issue 78).
#[cfg(test)]
pub mod scratch;
pub mod sink;
pub mod sources;
pub mod table;
pub mod tally;
pub mod unit;

//! The binary as a user runs it, and the platform beneath: every command, its folders, hostile
//! inputs and recorded answers (one test binary: a module per former test file).

#[path = "../common/mod.rs"]
mod common;

mod balance;
mod cli;
#[cfg(feature = "parquet")]
mod cli_analyze;
mod cli_candidate;
#[cfg(feature = "parquet")]
mod cli_clan_melee;
mod cli_extend;
mod cli_grammar;
mod cli_hostile;
mod cli_loot;
mod cli_metagame;
mod cli_minions;
mod cli_report;
mod cli_reproduce;
#[cfg(feature = "parquet")]
mod cli_simulate;
#[cfg(feature = "parquet")]
mod cli_tournament;
mod first_run_build;
mod hostile_62;
#[cfg(feature = "parquet")]
mod platform_dataset;
mod platform_trust;

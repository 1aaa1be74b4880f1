//! skirmish: a Monte Carlo balance lab for small battle games.
//!
//! See ARCHITECTURE.md for the codemap. The library holds everything; `src/main.rs` is a thin
//! binary over [`cli`].

pub mod cli;
pub mod equilibrium;
pub mod error;
pub mod games;
pub mod names;
pub mod platform;
pub mod questions;
pub mod rng;
pub mod search;
pub mod stats;

/// The layering as a test (issue 78): see ARCHITECTURE.md.
#[cfg(test)]
mod architecture;

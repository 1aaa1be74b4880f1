//! `skirmish bench`'s flags; the work is [`crate::questions::bench`].

use crate::error::Error;
use std::path::PathBuf;

use clap::Args;

use crate::questions::bench::Settings;

#[derive(Args, Debug, Clone)]
pub struct BenchFlags {
    /// Matches per measurement of the Auto Rumble end-to-end rows: the main job's million by
    /// default (at most 100,000,000: a bench is minutes, not days).
    #[arg(long, default_value_t = 1_000_000, value_parser = clap::value_parser!(u64).range(1..=100_000_000))]
    pub matches: u64,
    /// Threads for the all-threads rows (default: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Times each measurement is taken (the median is reported): every one-thread workload and
    /// every end-to-end row.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u64).range(1..=100))]
    pub repeats: u64,
    /// Scale of every one-thread workload's match count, in percent (a quick look: 10).
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u64).range(1..=10_000))]
    pub size: u64,
    /// The folder for the answer (`result.json`, `report.html`: what `reproduce` records); the
    /// end-to-end rows write their dataset inside it while they are timed.
    #[arg(long, default_value = "runs/bench")]
    pub out: PathBuf,
    /// Accepted for the grammar's sake: bench draws no progress bar.
    #[arg(long)]
    pub quiet: bool,
}

impl BenchFlags {
    pub fn settings(&self) -> Settings {
        Settings {
            matches: self.matches,
            threads: self.threads,
            repeats: self.repeats,
            size: self.size,
            out: self.out.clone(),
            quiet: self.quiet,
        }
    }
}

/// `skirmish bench`.
pub fn bench(f: &BenchFlags) -> Result<String, Error> {
    crate::questions::bench::bench::<super::Grammar>(&f.settings())
}

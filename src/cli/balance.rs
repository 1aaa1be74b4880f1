//! `skirmish balance`'s flags; the work is [`crate::questions::balance`].

use crate::error::Error;
use std::path::PathBuf;

use clap::Args;

use crate::platform::answer::Outcome;
use crate::questions::balance::Settings;

#[derive(Args, Debug, Clone)]
pub struct BalanceFlags {
    /// The balance file (TOML): `command`, `[[tune]]` and `[[target]]` (docs/balance.md).
    pub file: PathBuf,
    /// The answer's folder: `result.json`, `report.html` and `tuned/` (the inputs with the
    /// tuned numbers filled in).
    #[arg(long, default_value = "runs/balance")]
    pub out: PathBuf,
    /// Master seed of the search's matches (every point plays the same ones); the verification
    /// plays seed + 1, which the search never sees.
    #[arg(long, default_value_t = 42)]
    pub seed: u64,
    /// The most matches the search may play, all points together [default: no cap].
    #[arg(long)]
    pub budget: Option<u64>,
    /// Matches of the verification on fresh seeds [default: 4 x the command's matches].
    #[arg(long)]
    pub verify: Option<u64>,
    /// A grid search over the same ranges at the same precision is played for comparison when it
    /// has at most this many points (by default none: its matches are counted, not played).
    #[arg(long, default_value_t = crate::questions::balance::GRID_LIMIT)]
    pub grid_limit: u64,
    /// Worker threads (default: all cores). The answer does not depend on it.
    #[arg(long)]
    pub threads: Option<usize>,
    /// No progress line.
    #[arg(long)]
    pub quiet: bool,
    /// Machines in step: every shard runs the same search at once and plays its K-th slice of
    /// each point's matches into OUT/shards/, waiting there for the others' (a shared folder);
    /// then the same command without --shard writes the folder, playing only the proof.
    #[command(flatten)]
    pub sharding: super::flags::ShardFlags,
    /// Seconds a shard waits for the other shards' slice of a point before it stops, saying
    /// which is missing (what it played is kept: run it again to continue).
    #[arg(long, default_value_t = 3600)]
    pub shard_wait: u64,
}

impl BalanceFlags {
    /// The settings the flags say (the shard read from `--shard`, else the scheduler's
    /// variables).
    pub fn settings(&self) -> Result<Settings, Error> {
        Ok(Settings {
            file: self.file.clone(),
            out: self.out.clone(),
            seed: self.seed,
            budget: self.budget,
            verify: self.verify,
            grid_limit: self.grid_limit,
            threads: self.threads,
            quiet: self.quiet,
            shard: self.sharding.shard()?,
            shard_named: self.sharding.shard.is_some() || self.sharding.shard_count.is_some(),
            shard_wait: self.shard_wait,
        })
    }
}

/// `skirmish balance`: what it says, and its verdict (the exit code's).
pub fn balance(f: &BalanceFlags) -> Result<(String, Outcome), Error> {
    crate::questions::balance::balance::<super::Grammar>(&f.settings()?)
}

//! A dataset command as one interface (issue 65): its settings build a [`Simulation`], its run
//! is a [`Job`], and [`serve`] plays it, writes its folder and says its summary. The same
//! declaration hands the simulation to whatever else asks the question ([`visit`]: `bench` times
//! it, `calibrate` plays it on many seeds, `balance` and `sensitivity` play it at many points).
//! A new dataset command is one impl; it writes no run, folder or summary code of its own.
//!
//! Knows no game and no flag: a command's impl says how its flags become these.

use super::job::Job;
use super::plan::Plan;
use super::runner::{Encoder, Simulation};
use super::tally::Tally;

/// One dataset command (`simulate GAME`, `tournament GAME`) with its settings given.
pub trait DatasetCommand {
    type Sim: Simulation;
    /// The simulation the settings describe, every input read and checked: an error here is the
    /// host's (positioned, exit 2) and nothing has been written.
    fn build(&self) -> Result<Self::Sim, String>;
    /// The command's own plan when its matches are played whole (a Clan Melee tournament's
    /// melees: its chunks are its own); `None`: any plan of the caller's.
    fn whole(&self, _sim: &Self::Sim) -> Option<Plan> {
        None
    }
    /// The run: its size, seed, folder, threads and shard, and what the folder records of it
    /// (the canonical command, the settings, the input files whose digests join its identity).
    fn job<'a>(&self, sim: &'a Self::Sim) -> Result<Job<'a, Self::Sim>, String>;
    /// What the command prints of a finished run, given the platform's summary: by default the
    /// summary with matches named as the host counts them ([`DatasetCommand::UNIT`]).
    fn said(&self, _sim: &Self::Sim, summary: String, _tally: &Tally) -> String {
        match Self::UNIT {
            "matches" => summary,
            unit => summary.replace(" matches", &format!(" {unit}")),
        }
    }
    /// What one match is called ("battles", "games", "melees").
    const UNIT: &'static str = "matches";
}

/// Plays the command's run (resuming what an earlier run of it left), writes its folder, and
/// returns what it prints: the summary, then where its report is.
pub fn serve<C: DatasetCommand>(c: &C, encode: Encoder) -> Result<String, String> {
    let sim = c.build()?;
    let job = c.job(&sim)?;
    job.check()?;
    let (report, ds) = job.execute(encode)?;
    let summary = job.summary(&report, &ds);
    Ok(c.said(&sim, summary, &report.tally) + &job.report_line())
}

/// What is done with the simulation of a dataset command other than serving it: `whole` is the
/// command's own plan when it is played whole, else `None`.
pub trait WithSimulation {
    type Out;
    fn with<S: Simulation>(self, sim: &S, whole: Option<Plan>) -> Result<Self::Out, String>;
}

/// Builds the command's simulation, as serving it would, and hands it to `v`.
pub fn visit<C: DatasetCommand, V: WithSimulation>(c: &C, v: V) -> Result<V::Out, String> {
    let sim = c.build()?;
    let whole = c.whole(&sim);
    v.with(&sim, whole)
}

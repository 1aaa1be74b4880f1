//! Questions asked of any command, above the games and the platform: `balance` (the numbers
//! that meet targets), `bench` (every game's workloads timed against a yardstick), `calibrate`
//! (do the 95% intervals and the words hold their rates?), `sensitivity` (every rules number
//! moved a step), `question` (a dataset command or an analysis asked at a point, in memory) and
//! `reproduce` (recorded answers run again and compared), `what_if` (`--versus-rules`) and
//! `verify` (a folder proves itself). They reach the command line only through what the CLI hands them
//! ([`Commands`]), never the CLI itself (src/architecture.rs keeps it so).

use crate::error::Error;
pub mod balance;
pub mod bench;
pub mod calibrate;
pub mod question;
pub mod reproduce;
pub mod sensitivity;
pub mod verify;
pub mod what_if;

use crate::platform::command::{Findings, WithSimulation};
use crate::platform::context::Context;
use crate::platform::sources::Sources;

/// What a question needs of the command-line grammar, which the CLI owns.
pub trait Commands: Default + Sync {
    /// A dataset command's flags, read once.
    type Dataset: Dataset + Sync;
    /// Whether `args` (the words after `skirmish`) name a command a recorded answer may run;
    /// `Err` says why not.
    fn may_answer(&self, args: &[String]) -> Result<(), Error>;
    /// Reads the words of a dataset command (`simulate loot --field 3`, run flags left out);
    /// `tool` names the caller in errors.
    fn dataset(&self, words: &[&str], tool: &str) -> Result<Self::Dataset, Error>;
    /// Whether `words` (after `skirmish`) read as a command, as the command line reads them;
    /// `Err` is the grammar's message.
    fn reads(&self, words: &[String]) -> Result<(), Error>;
    /// A whole command line (`skirmish balance FILE ...`) read as a balance's settings: `None`
    /// when it names another command; `Err` is the grammar's message.
    fn balance(&self, argv: &[String]) -> Result<Option<balance::Settings>, Error>;
    /// An analysis's words read as the command line reads them and asked with `ctx`: its
    /// findings, whole.
    fn findings(&self, ctx: &Context, words: Vec<String>) -> Result<Findings, Error>;
    /// A command line the grammar read, ready to run.
    type Ready;
    /// Reads a whole command line (the program's name first) as the command line reads it.
    fn read(&self, argv: &[String]) -> Result<Self::Ready, Misread>;
    /// Whether the command writes a dataset or an analysis folder: all that a folder's record may
    /// run (issue 62).
    fn writes_folder(&self, command: &Self::Ready) -> bool;
    /// Runs the command with `ctx` (a what-if's arm, verify's replay): what it prints.
    fn run(&self, ctx: &Context, command: Self::Ready) -> Result<String, Error>;
}

/// Why the grammar did not read a command line.
#[derive(Clone, Debug)]
pub struct Misread {
    /// The grammar's message, whole.
    pub said: String,
    /// What kind of misreading it was, in the grammar's words.
    pub kind: String,
    /// The flag the command does not take, when that was it (`--rules`, `--out`).
    pub unknown: Option<String>,
}

/// A dataset command read once: its simulation built from its flags as serving it would.
pub trait Dataset {
    /// Builds the simulation, its files read from `src`, and hands it to `v`.
    fn visit<V: WithSimulation>(&self, src: &Sources, v: V) -> Result<V::Out, Error>;
}

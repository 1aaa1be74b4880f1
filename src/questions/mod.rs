//! Questions asked of any command, above the games and the platform: `reproduce` (recorded
//! answers run again and compared). They reach the command line only through what the CLI
//! hands them ([`Commands`]), never the CLI itself (src/architecture.rs keeps it so).

pub mod reproduce;

/// What a question needs of the command-line grammar, which the CLI owns.
pub trait Commands {
    /// Whether `args` (the words after `skirmish`) name a command a recorded answer may run;
    /// `Err` says why not.
    fn may_answer(&self, args: &[String]) -> Result<(), String>;
}

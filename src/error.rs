//! One error type for the whole crate (issue 78): whose the problem is decides the exit code, so
//! no caller reads a message to know what happened. A host's input (a file they wrote, a flag, a
//! folder they named) exits 2 and says the fix; the machine failing under a good command (a write
//! that did not complete, a thread that would not start) exits 1. A command that ran to its end
//! reports a [`Status`] beside its answer: a finding (a balance's FAIL, a recorded answer that
//! moved) is 1 and an inconclusive balance 3, told as answers are, on stdout.

use std::fmt;

/// A problem in a file a host wrote: the file, the 1-based line and column, the field, and a
/// message that says the fix. Every input format reports this, so every such error reads the
/// same: `file:line:col: `field`: message`. (Built with `games::file_error`'s helpers.)
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileError {
    pub file: String,
    /// 1-based line and column, where known.
    pub at: Option<(usize, usize)>,
    pub field: String,
    pub message: String,
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.file)?;
        if let Some((l, c)) = self.at {
            write!(f, ":{l}:{c}")?;
        }
        if self.field.is_empty() {
            write!(f, ": {}", self.message)
        } else {
            write!(f, ": `{}`: {}", self.field, self.message)
        }
    }
}

impl std::error::Error for FileError {}

/// Why a command could not give its answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Error {
    /// A file the host wrote, located to its line and field. Exit 2.
    File(FileError),
    /// The host's command line, folder or settings, in a sentence that names the fix. Exit 2.
    Input(String),
    /// The machine, under a command that was fine: a write or rename that failed, a thread pool
    /// that would not start. Running again elsewhere (or with space freed) may succeed. Exit 1.
    Machine(String),
}

impl Error {
    /// The process's exit code for this error: 2 for the host's input, 1 for the machine.
    pub fn exit_code(&self) -> u8 {
        match self {
            Error::File(_) | Error::Input(_) => 2,
            Error::Machine(_) => 1,
        }
    }

    /// A failure of the machine (exit 1), from an I/O error and what was being done.
    pub fn machine(doing: impl fmt::Display, e: impl fmt::Display) -> Self {
        Error::Machine(format!("{doing}: {e}"))
    }

    /// The same error with `context` before its message (`context: message`), of the same kind.
    pub fn context(self, context: impl fmt::Display) -> Self {
        self.map_message(|m| format!("{context}: {m}"))
    }

    /// The same kind of error with its message rewritten (a file's error, located, becomes
    /// its sentence: what is added is not in the file).
    pub fn map_message(self, f: impl FnOnce(String) -> String) -> Self {
        match self {
            Error::Machine(m) => Error::Machine(f(m)),
            e => Error::Input(f(e.to_string())),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::File(e) => e.fmt(f),
            Error::Input(m) | Error::Machine(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for Error {}

/// A sentence about the host's input (exit 2): most messages are built with `format!`.
impl From<String> for Error {
    fn from(message: String) -> Self {
        Error::Input(message)
    }
}

impl From<&str> for Error {
    fn from(message: &str) -> Self {
        Error::Input(message.to_string())
    }
}

impl From<FileError> for Error {
    fn from(e: FileError) -> Self {
        Error::File(e)
    }
}

/// How a command that ran to its end came out: its exit code beside its answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// The answer, nothing to flag. Exit 0.
    Done,
    /// The answer is a finding a script should stop on: a balance's FAIL, a recorded answer
    /// that moved. Exit 1.
    Finding,
    /// The answer could not decide (a balance's INCONCLUSIVE). Exit 3.
    Inconclusive,
}

impl Status {
    pub fn exit_code(self) -> u8 {
        match self {
            Status::Done => 0,
            Status::Finding => 1,
            Status::Inconclusive => 3,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_hosts_input_exits_2_and_the_machine_1() {
        let file = FileError {
            file: "powers.toml".into(),
            at: Some((3, 1)),
            field: "when".into(),
            message: "use one of hit, hurt".into(),
        };
        assert_eq!(Error::from(file.clone()).exit_code(), 2);
        assert_eq!(
            Error::from(file).to_string(),
            "powers.toml:3:1: `when`: use one of hit, hurt"
        );
        assert_eq!(Error::from("--threads 0: use 1 or more").exit_code(), 2);
        let full = Error::machine("writing out/result.json", "No space left on device");
        assert_eq!(full.exit_code(), 1);
        assert_eq!(
            full.to_string(),
            "writing out/result.json: No space left on device"
        );
        assert_eq!(full.context("balance point 3").exit_code(), 1);
    }

    #[test]
    fn a_commands_status_is_its_exit_code() {
        assert_eq!(Status::Done.exit_code(), 0);
        assert_eq!(Status::Finding.exit_code(), 1);
        assert_eq!(Status::Inconclusive.exit_code(), 3);
    }
}

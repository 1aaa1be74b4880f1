//! One run's context (issue 78): what a command needs to know about how it is being run, passed
//! as a value from `dispatch` down to the job, ledger or folder that acts on it. It replaced four
//! process globals (the replay slot, the command line of a replayed command, a what-if arm's
//! command line, the what-if's pairing parts) and the error string that meant "replayed".
//!
//! Knows no game, no flag and no command grammar: the words it keeps are the CLI's to read.

use crate::error::Error;
use std::sync::Mutex;

use super::sources::Sources;

/// How long `skirmish verify` lets the recorded command play parts again instead of running
/// (issue 53: a part's tally is checked against what its matches give, not trusted from the
/// manifest): parts are taken spread over the run (first, last, middle, quarters...) until the
/// time is spent; `None`: every part.
#[derive(Clone, Copy, Debug)]
pub struct Replay {
    pub budget: Option<std::time::Duration>,
}

/// How a command is run.
#[derive(Debug)]
pub struct Context {
    /// The command line as run, program name first: an answer records it as its provenance.
    argv: Vec<String>,
    /// Parts every run is cut into at least, so that a what-if's two runs pair (issue 63).
    paired_parts: Option<u64>,
    /// `verify`'s request to replay the folder's sums instead of running, and what it found.
    replay: Option<Mutex<Replaying>>,
    /// Where the command reads its input files: the disk, or a question's point held over it.
    sources: Sources,
    /// An analysis asked for its answer as a value (a question's point): no folder is claimed,
    /// read or written, and nothing earlier is continued.
    in_memory: bool,
}

#[derive(Debug)]
struct Replaying {
    asked: Option<Replay>,
    said: Vec<String>,
    failed: bool,
    outcome: Option<Result<String, Error>>,
}

/// What a job, ledger or folder did with the run: ran it, or replayed it for `verify` (its
/// outcome kept in the context; nothing written, nothing to summarise).
#[derive(Debug)]
pub enum Done<T> {
    Ran(T),
    Replayed,
}

impl Context {
    /// A command run as `argv` (program name first).
    pub fn new(argv: Vec<String>) -> Context {
        Context {
            argv,
            paired_parts: None,
            replay: None,
            sources: Sources::disk(),
            in_memory: false,
        }
    }

    /// This process's own command line.
    pub fn of_process() -> Context {
        Context::new(std::env::args().collect())
    }

    /// The command run as `argv` for `verify`, replaying its folder's sums (within `replay`'s
    /// budget) instead of running; see [`Context::replay_outcome`].
    pub fn replaying(argv: Vec<String>, replay: Replay) -> Context {
        Context {
            replay: Some(Mutex::new(Replaying {
                asked: Some(replay),
                said: Vec::new(),
                failed: false,
                outcome: None,
            })),
            ..Context::new(argv)
        }
    }

    /// The same run, with every run cut into at least `parts` parts (a what-if's arms).
    pub fn in_parts(mut self, parts: u64) -> Context {
        self.paired_parts = Some(parts);
        self
    }

    /// One arm of a what-if: this run's pairing, its own command line.
    pub fn arm(&self, argv: Vec<String>) -> Context {
        Context {
            argv,
            paired_parts: self.paired_parts,
            replay: None,
            sources: self.sources.clone(),
            in_memory: self.in_memory,
        }
    }

    /// The same run, its input files read from `sources` (a question's point).
    pub fn reading(mut self, sources: Sources) -> Context {
        self.sources = sources;
        self
    }

    /// Where the command reads its input files.
    pub fn sources(&self) -> &Sources {
        &self.sources
    }

    /// The same run, its answer wanted as a value: no folder claimed, read or written.
    pub fn in_memory(mut self) -> Context {
        self.in_memory = true;
        self
    }

    /// Whether the run's answer is wanted as a value only (see [`Context::in_memory`]).
    pub fn is_in_memory(&self) -> bool {
        self.in_memory
    }

    /// The command line as run, program name first.
    pub fn argv(&self) -> &[String] {
        &self.argv
    }

    /// The part size a run uses: `chunk`, or smaller when the run must have more parts to pair.
    pub fn paired_chunk(&self, chunk: u64, matches: u64) -> u64 {
        match self.paired_parts {
            Some(parts) if chunk > 0 => chunk.min(matches.div_ceil(parts).max(1)),
            _ => chunk,
        }
    }

    fn slot(&self) -> Option<std::sync::MutexGuard<'_, Replaying>> {
        self.replay
            .as_ref()
            .map(|m| m.lock().unwrap_or_else(|e| e.into_inner()))
    }

    /// The replay asked for, taken by the command that serves it (a job, an analysis's ledger):
    /// from here on the command writes nothing (see [`Context::is_replay`]).
    pub fn take_replay(&self) -> Option<Replay> {
        self.slot().and_then(|mut s| s.asked.take())
    }

    /// Whether this run replays for `verify` (its request taken or not): an analysis's folder is
    /// then compared with what the command would write, never written.
    pub fn is_replay(&self) -> bool {
        self.replay.is_some()
    }

    /// Adds a line to what the replay says it checked (an analysis's cells replayed); an `Err`
    /// makes the replay fail whatever follows. Nothing when this run is not a replay.
    pub fn replay_says(&self, line: Result<String, Error>) {
        if let Some(mut s) = self.slot() {
            s.failed |= line.is_err();
            s.said.push(line.unwrap_or_else(|e| e.to_string()));
        }
    }

    /// Ends the replay with `outcome`, after the lines said so far (their problems make it
    /// fail).
    pub fn serve_replay(&self, outcome: Result<String, Error>) {
        let Some(mut s) = self.slot() else { return };
        let said = std::mem::take(&mut s.said).join("; ");
        let join = |o: String| {
            if said.is_empty() {
                o
            } else {
                format!("{said}; {o}")
            }
        };
        s.outcome = Some(match outcome {
            Ok(o) if !s.failed => Ok(join(o)),
            Ok(o) => Err(Error::Input(join(o))),
            Err(e) => Err(e.map_message(join)),
        });
        (s.asked, s.failed) = (None, false);
    }

    /// The replay's outcome, if a command served the request.
    pub fn replay_outcome(&self) -> Option<Result<String, Error>> {
        self.slot().and_then(|mut s| s.outcome.take())
    }
}

#[cfg(test)]
mod tests {
    use super::{Context, Replay};

    /// Issue 63: a what-if's runs are cut into enough parts to pair, a plain run as asked.
    #[test]
    fn a_what_if_cuts_its_runs_into_parts_and_a_plain_run_does_not() {
        let plain = Context::new(vec!["skirmish".into()]);
        assert_eq!(plain.paired_chunk(50_000, 100_000), 50_000);
        let paired = Context::new(vec!["skirmish".into()]).in_parts(20);
        assert_eq!(paired.paired_chunk(50_000, 100_000), 5_000);
        assert_eq!(paired.paired_chunk(50_000, 7), 1);
        assert_eq!(
            paired.arm(vec!["x".into()]).paired_chunk(50_000, 100_000),
            5_000
        );
        assert_eq!(paired.arm(vec!["x".into()]).argv(), ["x".to_string()]);
    }

    /// Issue 78: a replay is an outcome kept in the run's context, taken once, failed by any
    /// line said against it; a run that is not a replay keeps nothing.
    #[test]
    fn a_replay_is_taken_once_and_ends_in_an_outcome() {
        let plain = Context::new(vec![]);
        assert!(plain.take_replay().is_none() && !plain.is_replay());
        plain.replay_says(Err("ignored".into()));
        plain.serve_replay(Ok("ignored".into()));
        assert!(plain.replay_outcome().is_none());

        let r = Context::replaying(vec![], Replay { budget: None });
        assert!(r.is_replay());
        assert!(r.take_replay().is_some());
        assert!(r.take_replay().is_none());
        r.replay_says(Ok("cells a".into()));
        r.serve_replay(Ok("parts b".into()));
        assert_eq!(r.replay_outcome(), Some(Ok("cells a; parts b".into())));
        assert_eq!(r.replay_outcome(), None);

        let bad = Context::replaying(vec![], Replay { budget: None });
        bad.replay_says(Err("cell 3 differs".into()));
        bad.serve_replay(Ok("parts b".into()));
        assert_eq!(
            bad.replay_outcome(),
            Some(Err("cell 3 differs; parts b".into()))
        );
    }
}

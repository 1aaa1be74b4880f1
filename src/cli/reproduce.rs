//! `skirmish reproduce`'s flags (the work is [`crate::questions::reproduce`]) and the grammar a
//! recorded answer's command line is checked against.

use crate::error::{Error, Status};
use std::path::PathBuf;

use clap::Args;

use crate::questions::reproduce::Settings;

#[derive(Args, Debug, Clone)]
pub struct ReproduceFlags {
    /// Recorded answers to run (names of docs/answers/*.json) [default: every one; with
    /// --fast, the fast ones].
    pub names: Vec<String>,
    /// Only the answers marked fast (what CI runs).
    #[arg(long)]
    pub fast: bool,
    /// Run nothing: check that every generated block in README and docs/*.md equals what its
    /// answer file says.
    #[arg(long)]
    pub check_docs: bool,
    /// Record the new answers and rewrite the generated blocks.
    #[arg(long)]
    pub update: bool,
    /// Run nothing: rewrite the generated blocks from the answer files as they are (after a
    /// block is added, or an answer recorded).
    #[arg(long)]
    pub write_docs: bool,
    /// A new recorded answer: its name, then (after --) the command's arguments.
    #[arg(long, value_name = "NAME")]
    pub record: Option<String>,
    /// With --record: CI runs it (a few seconds at most).
    #[arg(long)]
    pub mark_fast: bool,
    /// The command's arguments, with --record (after `--`).
    #[arg(last = true)]
    pub args: Vec<String>,
    /// Where each answer is run again: `OUT/NAME`, a fresh run each time (what an earlier
    /// `reproduce` left there is replaced), kept afterwards to open or `diff`.
    #[arg(long, default_value = "runs/reproduce")]
    pub out: PathBuf,
}

impl ReproduceFlags {
    fn settings(&self) -> Settings {
        Settings {
            names: self.names.clone(),
            fast: self.fast,
            check_docs: self.check_docs,
            update: self.update,
            write_docs: self.write_docs,
            record: self.record.clone(),
            mark_fast: self.mark_fast,
            args: self.args.clone(),
            out: self.out.clone(),
        }
    }
}

/// `skirmish reproduce` and its exit status: estimates moved beyond their intervals are a
/// finding (1, as a balance's FAIL), not an input error (2); the report is printed either way.
pub fn reproduce(f: &ReproduceFlags) -> Result<(String, Status), Error> {
    let r = crate::questions::reproduce::reproduce(&f.settings(), &super::Grammar)?;
    let status = if r.moved > 0 {
        Status::Finding
    } else {
        Status::Done
    };
    Ok((r.text, status))
}

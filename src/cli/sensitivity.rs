//! `skirmish sensitivity`'s flags; the work is [`crate::questions::sensitivity`].

use crate::error::Error;
use clap::Args;

#[derive(Args, Debug, Clone)]
pub struct SensitivityFlags {
    /// The question (a simulate or tournament command, or an analysis with its size), then this
    /// command's own flags (anywhere after it): `--keys all` or `--keys K1,K2`, `--step 10%`,
    /// `--section TITLE` (the estimates ranked; default: every win rate and share), `--detail`,
    /// `--seed N`, `--out DIR`, `--threads N`, `--quiet`.
    #[arg(trailing_var_arg = true, allow_hyphen_values = true, required = true, num_args = 1..)]
    pub words: Vec<String>,
}

/// `skirmish sensitivity`.
pub fn sensitivity(f: &SensitivityFlags) -> Result<String, Error> {
    crate::questions::sensitivity::sensitivity::<super::Grammar>(&f.words)
}

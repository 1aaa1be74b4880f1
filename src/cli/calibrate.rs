//! `skirmish calibrate`'s flags; the work is [`crate::questions::calibrate`].

use crate::error::Error;
use clap::Args;

use crate::questions::calibrate::Settings;

#[derive(Args, Debug, Clone)]
pub struct CalibrateFlags {
    /// Small runs checked per command (each on a seed of its own).
    #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u64).range(10..=100_000))]
    pub runs: u64,
    /// Runs of the same size merged into each command's reference value.
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u64).range(10..=100_000))]
    pub reference: u64,
    /// Scale of every small run's match count, in percent.
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u64).range(1..=10_000))]
    pub size: u64,
    /// An estimate is checked where a small run's interval comes from at least this many
    /// matches (a normal interval from a handful is not a 95% one, nor claimed to be).
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u64).range(2..=1_000_000))]
    pub min_matches: u64,
    /// Only the commands whose words contain this (e.g. `tag`).
    #[arg(long)]
    pub only: Option<String>,
    /// Fail (exit 2) when any kind covers less than 90%.
    #[arg(long)]
    pub check: bool,
    /// Also each label's coverage (which policy, which team size...).
    #[arg(long)]
    pub detail: bool,
    /// The words instead of the intervals (issue 80): each game's candidate twins (a candidate
    /// that plays exactly as a member), `--runs` runs each, and how many of their verdict cards
    /// do not tell the twin from its member (at least 95%, as an interval covers).
    #[arg(long)]
    pub twins: bool,
    /// The balance verdict instead of the intervals (issue 80): `--runs` verifications at a
    /// known truth, with the target's tolerance around it (how often PASS: at least 95%) and
    /// with the truth just outside it (how often not PASS: at least 95%).
    #[arg(long, conflicts_with = "twins")]
    pub balance: bool,
    /// Sensitivity's "clear" instead of the intervals (issue 80): `--runs` runs of moves with no
    /// effect, and how many call none of them clear (at least 95%).
    #[arg(long, conflicts_with_all = ["twins", "balance"])]
    pub sensitivity: bool,
    #[arg(long)]
    pub threads: Option<usize>,
    /// A folder for the answer (`result.json`, `report.html`): what `reproduce` records.
    #[arg(long)]
    pub out: Option<std::path::PathBuf>,
    /// Accepted for the grammar's sake: calibrate draws no progress bar.
    #[arg(long)]
    pub quiet: bool,
}

impl CalibrateFlags {
    pub fn settings(&self) -> Settings {
        Settings {
            runs: self.runs,
            reference: self.reference,
            size: self.size,
            min_matches: self.min_matches,
            only: self.only.clone(),
            check: self.check,
            detail: self.detail,
            twins: self.twins,
            balance: self.balance,
            sensitivity: self.sensitivity,
            threads: self.threads,
            out: self.out.clone(),
            quiet: self.quiet,
        }
    }
}

/// `skirmish calibrate`.
pub fn calibrate(f: &CalibrateFlags) -> Result<String, Error> {
    crate::questions::calibrate::calibrate::<super::Grammar>(&f.settings())
}

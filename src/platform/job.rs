//! One simulation job end to end: open the dataset, run the missing chunks, summarise.

use std::path::PathBuf;

use super::dataset::{Dataset, FORMAT, Identity};
use super::plan::{Plan, Shard};
use super::runner::{self, Encoder, RunConfig, RunReport, Simulation};
use super::tally::thousands;

/// Most matches one run may hold (match ids and chunk arithmetic stay far from overflow).
pub const MAX_MATCHES: u64 = 1 << 40;
/// Most part files one dataset may have.
pub const MAX_PARTS: u64 = 1_000_000;

pub struct Job<'a, S: Simulation> {
    pub sim: &'a S,
    /// The simulation's settings as recorded in the manifest.
    pub settings: serde_json::Value,
    pub seed: u64,
    pub matches: u64,
    /// The flag that set `matches`, as messages name it (`--matches`, `--games`...).
    pub count_flag: &'static str,
    pub chunk_size: u64,
    pub out: PathBuf,
    pub threads: usize,
    pub shard: Option<Shard>,
    pub progress: bool,
    /// The canonical command line recorded in the manifest.
    pub command: String,
    pub experiment: Option<String>,
    /// The files the run reads that can change its output (their digests join the identity).
    pub inputs: Vec<std::path::PathBuf>,
}

impl<S: Simulation> Job<'_, S> {
    pub fn plan(&self) -> Plan {
        Plan {
            matches: self.matches,
            chunk_size: self.chunk_size,
        }
    }

    /// Checks the numbers before anything touches the disk.
    pub fn check(&self) -> Result<(), String> {
        if self.matches == 0 || self.matches > MAX_MATCHES {
            return Err(format!(
                "{} {}: give between 1 and {MAX_MATCHES}",
                self.count_flag, self.matches
            ));
        }
        if self.chunk_size == 0 || self.chunk_size > 10_000_000 {
            return Err(format!(
                "--chunk-size {}: give between 1 and 10000000 (one part file per chunk)",
                self.chunk_size
            ));
        }
        // One part file (and one entry in the run's work list) per chunk: bound their number.
        if self.matches.div_ceil(self.chunk_size.max(1)) > MAX_PARTS {
            return Err(format!(
                "{} {} in chunks of {} makes {} part files, more than {MAX_PARTS}: raise --chunk-size to at least {}",
                self.count_flag,
                self.matches,
                self.chunk_size,
                self.matches.div_ceil(self.chunk_size),
                self.matches.div_ceil(MAX_PARTS)
            ));
        }
        if self.threads == 0 || self.threads > 1024 {
            return Err(format!(
                "--threads {}: give between 1 and 1024",
                self.threads
            ));
        }
        Ok(())
    }

    pub fn identity(&self) -> Identity {
        Identity {
            format: FORMAT.to_string(),
            crate_version: env!("CARGO_PKG_VERSION").to_string(),
            simulation: self.sim.name().to_string(),
            seed: self.seed,
            matches: self.matches,
            chunk_size: self.chunk_size,
            tables: self.sim.tables().iter().map(|t| t.to_string()).collect(),
            settings: self.settings.clone(),
            inputs: self
                .inputs
                .iter()
                .map(|p| {
                    // A file that cannot be read was already refused by the command's checks;
                    // record it as such rather than fail here.
                    let digest = super::digest::sha256_file(p)
                        .unwrap_or_else(|e| format!("unreadable: {e}"));
                    (p.display().to_string(), digest)
                })
                .collect(),
        }
    }

    /// Runs the job into its dataset folder (resuming it) and returns the report and dataset.
    pub fn execute(&self, encode: Encoder) -> Result<(RunReport, Dataset), String> {
        self.check()?;
        let plan = self.plan();
        let chunks = match self.shard {
            Some(s) => plan.shard_chunks(s),
            None => 0..plan.chunks(),
        };
        let threads = match self.sim.worker_memory() {
            None => self.threads,
            Some((bytes, what)) => {
                let fit =
                    super::memory::fit(bytes, self.threads, super::memory::available()?, &what)?;
                if let Some(note) = fit.note {
                    eprintln!("{note}");
                }
                fit.threads
            }
        };
        let mut ds = Dataset::open(
            &self.out,
            self.identity(),
            self.command.clone(),
            self.experiment.clone(),
            self.shard,
        )?;
        let cfg = RunConfig {
            seed: self.seed,
            plan,
            chunks,
            threads,
            progress: self.progress,
        };
        let report = runner::run(self.sim, &cfg, &mut ds, encode)?;
        // The answer beside the manifest, for `skirmish report` and `diff` (issue 50).
        super::dataset::write_answer(&self.out)?;
        Ok((report, ds))
    }

    /// A candidate run's standing lines (issue 51), from the answer its folder holds: where the
    /// candidate stands in the win rates and scores (the report has every section). Empty for
    /// a run without a candidate.
    pub fn candidate_lines(&self) -> String {
        let Ok(a) = super::dataset::answer(&self.out) else {
            return String::new();
        };
        let lines: String = a
            .notes
            .iter()
            .filter(|n| {
                n.starts_with("candidate ")
                    && (n.contains(" in win rate ") || n.contains(" in score"))
            })
            .map(|n| format!("{n}\n"))
            .collect();
        if lines.is_empty() {
            lines
        } else {
            format!("\n{lines}")
        }
    }

    /// The last line of a dataset command's output: where its report is.
    pub fn report_line(&self) -> String {
        super::answer::report_line(&self.out)
    }

    /// The end-of-run summary: throughput, then the win-rate tables with Wilson intervals.
    /// The summary's header block (throughput, dataset, totals), its unit named `unit` ("melees",
    /// "games"): for commands that print their groups as tables of their own.
    pub fn summary_head(&self, r: &RunReport, ds: &Dataset, unit: &str) -> String {
        self.summary(r, ds)
            .replace("matches", unit)
            .lines()
            .take_while(|l| !l.is_empty())
            .map(|l| format!("{l}\n"))
            .collect()
    }

    pub fn summary(&self, r: &RunReport, ds: &Dataset) -> String {
        let secs = r.wall.as_secs_f64().max(1e-9);
        let rate = r.matches_played as f64 / secs;
        let mut s = format!(
            "{}: {} matches played in {:.1} s: {} matches/s overall, {} per thread on {} threads\n",
            self.sim.name(),
            thousands(r.matches_played),
            secs,
            thousands(rate as u64),
            thousands((rate / r.threads as f64) as u64),
            r.threads,
        );
        let shard = self
            .shard
            .map(|s| format!(" (shard {s}: chunks {:?})", self.plan().shard_chunks(s)))
            .unwrap_or_default();
        s.push_str(&format!(
            "dataset {}{shard}: {} parts written now, {} kept from an earlier run; tables: {}\n",
            ds.dir().display(),
            r.parts_written,
            r.parts_kept,
            self.sim.tables().join(", "),
        ));
        if !ds.rejected.is_empty() {
            let why: Vec<String> = ds
                .rejected
                .iter()
                .map(|(p, w)| format!("part {p}: {w}"))
                .collect();
            s.push_str(&format!(
                "{} parts of the earlier run were not what it recorded and were recomputed: {}\n",
                ds.rejected.len(),
                why.join("; ")
            ));
        }
        let t = &r.tally;
        s.push_str(&format!(
            "summary over {} matches (seed {}): {} draws ({:.2}%), {} {}{}\n",
            thousands(t.matches),
            self.seed,
            thousands(t.draws),
            100.0 * t.draws as f64 / t.matches.max(1) as f64,
            thousands(t.work),
            self.sim.work_unit(),
            // The work's rate, when all of it was done in this run's wall time.
            if r.parts_kept == 0 {
                format!(
                    " ({:.1} M/s overall, {:.1} M/s per thread)",
                    t.work as f64 / secs / 1e6,
                    t.work as f64 / secs / 1e6 / r.threads as f64
                )
            } else {
                String::new()
            },
        ));
        s.push_str(&t.render());
        s
    }
}

//! One simulation job end to end: open the dataset, run the missing chunks, summarise.

use crate::error::Error;
use std::path::PathBuf;

use super::context::{Context, Done, Replay};
use super::dataset::{Dataset, FORMAT, Identity};
use super::plan::{Plan, Shard};
use super::runner::{self, Encoder, RunConfig, RunReport, Simulation};
use super::tally::thousands;

/// `0..n` in an order spread over the range: first, last, then the middles of the gaps, so that
/// a replay stopped early has looked across the whole run.
fn spread(n: usize) -> Vec<usize> {
    let mut order: Vec<usize> = match n {
        0 => return Vec::new(),
        1 => vec![0],
        _ => vec![0, n - 1],
    };
    let mut gaps = std::collections::VecDeque::from([(0, n - 1)]);
    while let Some((a, b)) = gaps.pop_front() {
        if b - a >= 2 {
            let m = a + (b - a) / 2;
            order.push(m);
            gaps.push_back((a, m));
            gaps.push_back((m, b));
        }
    }
    order
}

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
    pub fn check(&self) -> Result<(), Error> {
        if self.matches == 0 || self.matches > MAX_MATCHES {
            return Err(Error::Input(format!(
                "{} {}: give between 1 and {MAX_MATCHES}",
                self.count_flag, self.matches
            )));
        }
        if self.chunk_size == 0 || self.chunk_size > 10_000_000 {
            return Err(Error::Input(format!(
                "--chunk-size {}: give between 1 and 10000000 (one part file per chunk)",
                self.chunk_size
            )));
        }
        // One part file (and one entry in the run's work list) per chunk: bound their number.
        if self.matches.div_ceil(self.chunk_size.max(1)) > MAX_PARTS {
            return Err(Error::Input(format!(
                "{} {} in chunks of {} makes {} part files, more than {MAX_PARTS}: raise --chunk-size to at least {}",
                self.count_flag,
                self.matches,
                self.chunk_size,
                self.matches.div_ceil(self.chunk_size),
                self.matches.div_ceil(MAX_PARTS)
            )));
        }
        if self.threads == 0 || self.threads > 1024 {
            return Err(Error::Input(format!(
                "--threads {}: give between 1 and 1024",
                self.threads
            )));
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

    /// [`Job::run`] as `ctx` asks: for `verify` (`ctx` replaying), it plays the chosen recorded parts again instead and
    /// keeps the outcome in `ctx`: nothing is written.
    pub fn execute(
        &self,
        ctx: &Context,
        encode: Encoder,
    ) -> Result<Done<(RunReport, Dataset)>, Error> {
        self.check()?;
        if let Some(r) = ctx.take_replay() {
            ctx.serve_replay(self.replay(r, encode));
            return Ok(Done::Replayed);
        }
        self.run(encode).map(Done::Ran)
    }

    /// Runs the job into its dataset folder (resuming it) and returns the report and dataset
    /// (a run of its own: no replay, whatever the process is doing).
    pub fn run(&self, encode: Encoder) -> Result<(RunReport, Dataset), Error> {
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
        ds.seal(plan.chunks());
        // The answer beside the manifest, for `skirmish report` and `diff` (issue 50).
        super::dataset::write_answer(&self.out, &|t| self.sim.grids(t), self.sim.ranked())?;
        Ok((report, ds))
    }

    /// Plays the chosen recorded parts of the folder again (nothing is written) and compares each
    /// one's tally and file bytes with its record.
    fn replay(&self, r: Replay, encode: Encoder) -> Result<String, Error> {
        use rayon::prelude::*;
        let (ids, parts) = super::dataset::recorded(&self.out)?;
        let here = self.identity();
        for id in &ids {
            let (a, b) = (
                serde_json::to_value(id).expect("serialisable"),
                serde_json::to_value(&here).expect("serialisable"),
            );
            if let Some(d) = super::dataset::first_difference(&a, &b, ["recorded", "now"]) {
                return Err(Error::Input(format!(
                    "the recorded command no longer makes this run ({d}): its inputs or the program changed, so its parts cannot be replayed"
                )));
            }
        }
        // Issue 79: an analysis folder resealed to name a dataset command replayed "0 of 0
        // parts" and passed. A command proves a folder only by replaying what it holds.
        if ids.is_empty() || parts.is_empty() {
            return Err(Error::Input(format!(
                "the recorded command `{}` writes a dataset, and this folder holds no dataset parts it recorded: naming a command proves nothing; the folder is refused",
                super::escape::plain(&self.command)
            )));
        }
        let all: Vec<&super::dataset::PartRecord> = parts.values().collect();
        let chosen: Vec<&super::dataset::PartRecord> =
            spread(all.len()).into_iter().map(|i| all[i]).collect();
        let start = std::time::Instant::now();
        let over = || r.budget.is_some_and(|b| start.elapsed() >= b);
        let replayed = std::sync::atomic::AtomicUsize::new(0);
        let plan = self.plan();
        let problems: Vec<String> = runner::pool(self.threads)?.install(|| {
            chosen
                .par_iter()
                .map_init(
                    || self.sim.worker(),
                    |w, p| {
                        if over() {
                            return None;
                        }
                        replayed.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let range = plan.chunk(p.part);
                        if range.start != p.first_match || range.end - range.start != p.matches {
                            return Some(format!(
                                "part {}: recorded as matches {}..{}, the run's plan says {range:?}",
                                p.part,
                                p.first_match,
                                p.first_match + p.matches
                            ));
                        }
                        let (tables, mut tally) = self.sim.play(w, self.seed, range, true);
                        tally.ops = 0;
                        let (a, b) = (
                            serde_json::to_value(&p.tally).expect("serialisable"),
                            serde_json::to_value(&tally).expect("serialisable"),
                        );
                        if let Some(d) = super::dataset::first_difference(&a, &b, ["recorded", "played"]) {
                            return Some(format!("part {}: its tally is not what its matches give ({d})", p.part));
                        }
                        for ((t, want), table) in self.sim.tables().iter().zip(&p.files).zip(&tables) {
                            match encode(table) {
                                Ok(bytes) if super::dataset::FileRecord::of(&bytes) == *want => {}
                                Ok(_) => {
                                    return Some(format!(
                                        "part {}: table {t}: the recorded digest is not that of the rows its matches give",
                                        p.part
                                    ));
                                }
                                Err(e) => return Some(format!("part {}: {e}", p.part)),
                            }
                        }
                        None
                    },
                )
                .flatten()
                .collect()
        });
        let done = replayed.into_inner();
        // The answer (`result.json`, `report.html`) is recomputed from the manifest's tallies
        // and compared byte for byte (issue 79: a resealed grid cell passed and was reported).
        let answer =
            super::dataset::answer_files(&self.out, &|t| self.sim.grids(t), self.sim.ranked())
                .and_then(|(_, files)| super::dataset::compare_folder(&self.out, &files));
        if problems.is_empty() && done > 0 {
            let answer = answer?;
            Ok(format!(
                "replayed {done} of {} parts in {:.1} s: each one's tally and files are what its matches give; {answer}{}",
                all.len(),
                start.elapsed().as_secs_f64(),
                if done < all.len() {
                    " (the time allowed ran out; --replay-all replays every part)"
                } else {
                    ""
                }
            ))
        } else if problems.is_empty() {
            Err(Error::Input(format!(
                "replayed 0 of {} parts (no time was allowed): nothing was checked against its matches; give --replay-for more seconds or --replay-all",
                all.len()
            )))
        } else {
            Err(Error::Input(format!(
                "replayed {done} of {} parts; {} differ from what their matches give (delete such a part's files and run the recorded command again: it plays the part again): {}",
                all.len(),
                problems.len(),
                problems.join("; ")
            )))
        }
    }

    /// The last line of a dataset command's output: where its report is.
    pub fn report_line(&self) -> String {
        super::render::report_line(&self.out)
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
        // The answer's own rendering (issue 50): what `skirmish report` shows, in brief.
        if let Ok(a) = super::dataset::answer_of(&self.out) {
            s.push_str(&super::render::brief(&a));
        }
        s
    }
}

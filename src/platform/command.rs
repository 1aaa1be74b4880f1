//! A dataset command as one interface (issue 65): its settings build a [`Simulation`], its run
//! is a [`Job`], and [`serve`] plays it, writes its folder and says its summary. The same
//! declaration hands the simulation to whatever else asks the question ([`visit`]: `bench` times
//! it, `calibrate` plays it on many seeds, `balance` and `sensitivity` play it at many points).
//! A new dataset command is one impl; it writes no run, folder or summary code of its own.
//! An analysis is one impl of [`Analysis`]: it plays (its cells in a ledger through
//! [`play_cells`], or its own batches) and says what it found; [`serve_analysis`] writes its
//! folder and says its answer the same way for every analysis.
//!
//! Knows no game and no flag: a command's impl says how its flags become these.

use crate::error::Error;
use std::path::Path;

use super::answer::Answer;
use super::context::{Context, Done};
use super::job::Job;
use super::ledger::{Ledger, Run};
use super::pairing::{self, Replicates};
use super::plan::{Plan, Shard};
use super::render::{self, brief};
use super::runner::{Encoder, Simulation};
use super::sources::Sources;
use super::table::Table;
use super::tally::{Tally, thousands};

/// One dataset command (`simulate GAME`, `tournament GAME`) with its settings given.
pub trait DatasetCommand {
    type Sim: Simulation;
    /// The simulation the settings describe, every input read and checked: an error here is the
    /// host's (positioned, exit 2) and nothing has been written.
    /// Its input files are read from `src` (the disk, or a question's point held over it).
    fn build(&self, src: &Sources) -> Result<Self::Sim, Error>;
    /// The command's own plan when its matches are played whole (a Clan Melee tournament's
    /// melees: its chunks are its own); `None`: any plan of the caller's.
    fn whole(&self, _sim: &Self::Sim) -> Option<Plan> {
        None
    }
    /// The run: its size, seed, folder, threads and shard, and what the folder records of it
    /// (the canonical command, the settings, the input files whose digests join its identity).
    /// Its part size is `ctx`'s ([`Context::paired_chunk`]): a what-if's runs pair.
    fn job<'a>(&self, ctx: &Context, sim: &'a Self::Sim) -> Result<Job<'a, Self::Sim>, Error>;
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
/// For `verify` (`ctx` replaying) it replays instead, prints nothing and keeps the outcome in
/// `ctx`.
pub fn serve<C: DatasetCommand>(ctx: &Context, c: &C, encode: Encoder) -> Result<String, Error> {
    let sim = c.build(ctx.sources())?;
    let job = c.job(ctx, &sim)?;
    job.check()?;
    let (report, ds) = match job.execute(ctx, encode)? {
        Done::Ran(done) => done,
        Done::Replayed => return Ok(String::new()),
    };
    let summary = job.summary(&report, &ds);
    Ok(c.said(&sim, summary, &report.tally) + &job.report_line())
}

/// What is done with the simulation of a dataset command other than serving it: `whole` is the
/// command's own plan when it is played whole, else `None`.
pub trait WithSimulation {
    type Out;
    fn with<S: Simulation>(self, sim: &S, whole: Option<Plan>) -> Result<Self::Out, Error>;
}

/// Builds the command's simulation, as serving it would, and hands it to `v`.
pub fn visit<C: DatasetCommand, V: WithSimulation>(
    src: &Sources,
    c: &C,
    v: V,
) -> Result<V::Out, Error> {
    let sim = c.build(src)?;
    let whole = c.whole(&sim);
    v.with(&sim, whole)
}

/// What an analysis found, as [`serve_analysis`] writes and says it.
pub struct Findings {
    pub answer: Answer,
    /// What a what-if of the analysis pairs by (`replicates.json`, issue 63).
    pub replicates: Option<Replicates>,
    /// Its tables, written as `NAME.parquet`; all encoded before anything is written.
    pub tables: Vec<Table>,
    /// Other files it keeps: the sums a later run continues from, a challenger's clan file.
    pub files: Vec<(String, Vec<u8>)>,
    /// `summary.txt`'s first line (the command's size and seed; no time, so the folder's bytes
    /// depend only on the settings and the seed); the answer in brief follows it.
    pub summary: String,
    /// Printed before the answer: the time, threads, what an earlier run had played.
    pub head: String,
    /// Printed after the line that names the tables: where else it wrote.
    pub tail: String,
    /// What keeps the folder claimed (its lock, the ledger's run) until it is written.
    pub hold: Vec<Box<dyn std::any::Any>>,
}

/// What an analysis's run left: what it prints with its folder written already (one shard's
/// part, which the finishing run completes; a clan challenger's tournament, served in its
/// stead), or its findings.
pub enum Studied {
    Said(String),
    Whole(Box<Findings>),
}

/// One analysis command (`analyze GAME QUESTION`) with its settings given: it plays (resuming
/// what its folder holds, or one shard of it) and says what it found; [`serve_analysis`] writes
/// the folder and says the answer, the same way for every analysis.
pub trait Analysis {
    /// The folder's kind: only an earlier run of this analysis is replaced or continued there.
    const NAME: &'static str;
    /// Its files are written beside a dataset the folder keeps (the meta-game's profiles, the
    /// clan study's melees) rather than as the folder's whole content.
    const BESIDE: bool = false;
    /// Its folder; `None`: the answer is printed only (the Tag duel without `--out`).
    fn out(&self) -> Option<&Path>;
    fn study(&self, ctx: &Context, encode: Encoder) -> Result<Studied, Error>;
}

/// Runs the analysis, then writes its folder in one step (its tables, `summary.txt`, the answer
/// and its report, the replicates, its own files) and returns what it prints: the head, the
/// answer in brief, the tables, the report's line. For `verify` (`ctx` replaying) the folder is
/// compared with what it would write, never written, and the outcome kept in `ctx`.
pub fn serve_analysis<A: Analysis>(ctx: &Context, a: &A, encode: Encoder) -> Result<String, Error> {
    let f = match a.study(ctx, encode)? {
        Studied::Said(said) => return Ok(said),
        Studied::Whole(f) => f,
    };
    let text = brief(&f.answer);
    let Some(out) = a.out() else {
        return Ok(format!("{}{text}{}", f.head, f.tail));
    };
    // Every table is encoded before anything is written: an error leaves no partial output.
    let mut files = f
        .tables
        .iter()
        .map(|t| Ok((format!("{}.parquet", t.name), encode(t)?)))
        .collect::<Result<Vec<_>, Error>>()?;
    files.push((
        "summary.txt".to_string(),
        format!("{}{text}", f.summary).into_bytes(),
    ));
    files.extend(render::files(&f.answer));
    if let Some(r) = &f.replicates {
        files.push((
            pairing::REPLICATES.to_string(),
            super::digest::sealed_text(r).into_bytes(),
        ));
    }
    files.extend(f.files);
    if ctx.is_replay() {
        // Issue 62: an analysis folder replayed for `verify` is compared, never written.
        super::dataset::check_output_folder(out, A::NAME)?;
        if ctx.take_replay().is_some() {
            ctx.replay_says(Ok(
                "ran the whole analysis again (it keeps no sums to replay in part)".into(),
            ));
        }
        ctx.serve_replay(super::dataset::compare_folder(out, &files));
        return Ok(String::new());
    }
    if A::BESIDE {
        for (name, bytes) in &files {
            let (dir, file) = match name.rsplit_once('/') {
                Some((sub, file)) => (out.join(sub), file),
                None => (out.to_path_buf(), name.as_str()),
            };
            std::fs::create_dir_all(&dir).map_err(|e| format!("--out {}: {e}", dir.display()))?;
            super::dataset::atomic_write(&dir, file, bytes)?;
        }
    } else {
        super::dataset::replace_folder(out, A::NAME, &files)?;
    }
    let names = f
        .tables
        .iter()
        .map(|t| t.name)
        .collect::<Vec<_>>()
        .join(", ");
    Ok(format!(
        "{}{text}\ntables: {} ({}summary.txt){}\n{}",
        f.head,
        out.display(),
        if names.is_empty() {
            String::new()
        } else {
            format!("{names} .parquet; ")
        },
        f.tail,
        render::report_line(out)
    ))
}

/// How an analysis whose cells are kept in a ledger is run (`analyze loot items`, `analyze
/// minions`): its folder and command name, identity, shard, threads, the matches it plans (the
/// bar's length, in `unit`), and whether its progress is told as a running total (`absolute`)
/// or as matches just played.
pub struct Cells<'a> {
    pub out: &'a Path,
    pub name: &'static str,
    pub identity: serde_json::Value,
    pub shard: Option<Shard>,
    pub threads: usize,
    pub planned: u64,
    pub quiet: bool,
    pub unit: &'a str,
    pub absolute: bool,
}

/// What a ledger analysis's run left: a shard's line (its cells are in `OUT/shards/`), or the
/// whole findings.
pub enum Played<T> {
    Shard(String),
    Whole(Box<Whole<T>>),
}

/// A ledger analysis's whole findings, with the matches played now, the seconds it took and the
/// run, whose sums the folder keeps.
pub struct Whole<T> {
    pub found: T,
    pub played: u64,
    pub secs: f64,
    pub run: Box<Run>,
    /// The findings again without each group of matches in turn (issue 63: a jackknife's
    /// replicates, what pairs a what-if of the analysis); `None` where a cell has no groups.
    pub replicates: Option<Vec<T>>,
}

impl<T> Whole<T> {
    /// The findings of a whole ledger run: its answer, the jackknife's replicates (each group
    /// left out and answered by `answer_of` as the whole was), its tables and the ledger's sums a
    /// later run continues from; `summary` and `head` as in [`Findings`].
    pub fn findings(
        self,
        answer: Answer,
        answer_of: impl Fn(&T) -> Answer,
        tables: Vec<Table>,
        (summary, head): (String, String),
    ) -> Studied {
        let without: Option<Vec<Answer>> =
            self.replicates.map(|r| r.iter().map(&answer_of).collect());
        Studied::Whole(Box::new(Findings {
            replicates: without.and_then(|r| Replicates::jackknife(&answer, &r)),
            answer,
            tables,
            files: vec![self.run.state()],
            hold: vec![self.run],
            summary,
            head,
            tail: String::new(),
        }))
    }
}

/// Opens the analysis's ledger (earlier runs' and shards' cells summed, not played again), plays
/// what is new on `threads` with a progress bar, and ends a shard's run.
pub fn play_cells<T: Send>(
    ctx: &Context,
    s: Cells<'_>,
    play: impl Fn(&mut Ledger, &(dyn Fn(u64) + Sync)) -> Result<Option<T>, Error> + Send,
) -> Result<Played<T>, Error> {
    use std::sync::atomic::{AtomicU64, Ordering};
    let mut run = Run::open(ctx, s.out, s.name, s.identity, s.shard)?;
    let pool = super::runner::pool(s.threads)?;
    let pb = bar(s.planned, s.quiet, s.unit);
    let start = std::time::Instant::now();
    let played = AtomicU64::new(0);
    let tick = |n: u64| {
        if s.absolute {
            pb.set_position(n);
            played.fetch_max(n, Ordering::Relaxed);
        } else {
            pb.inc(n);
            played.fetch_add(n, Ordering::Relaxed);
        }
    };
    let ledger = &mut run.ledger;
    let (found, replicates) = pool.install(move || with_jackknife(ledger, &tick, play))?;
    let played = played.into_inner();
    pb.finish_and_clear();
    let secs = start.elapsed().as_secs_f64();
    if let Some(audit) = run.ledger.audited() {
        ctx.replay_says(audit);
    }
    if let Some(said) = run.end_shard(&format!("{} {}", thousands(played), s.unit))? {
        return Ok(Played::Shard(said));
    }
    Ok(Played::Whole(Box::new(Whole {
        found: found.expect("a whole run sums every cell"),
        played,
        secs,
        run: Box::new(run),
        replicates,
    })))
}

/// A ledger analysis's findings (`play` on the ledger, `tick` told its progress) and, when it
/// summed every cell, the jackknife's replicates: the findings again from the cells' sums less
/// each group of matches in turn (`None` where a cell has no groups).
#[allow(clippy::type_complexity)]
pub fn with_jackknife<T>(
    ledger: &mut Ledger,
    tick: &(dyn Fn(u64) + Sync),
    play: impl Fn(&mut Ledger, &(dyn Fn(u64) + Sync)) -> Result<Option<T>, Error>,
) -> Result<(Option<T>, Option<Vec<T>>), Error> {
    let found = play(ledger, tick)?;
    if found.is_none() || !ledger.whole() {
        return Ok((found, None));
    }
    let mut reps = Vec::new();
    for g in 0..super::ledger::GROUPS {
        ledger.leave_out(Some(g));
        reps.extend(play(ledger, &|_| {})?);
    }
    let grouped = ledger.leave_out(None);
    let whole = grouped && reps.len() == super::ledger::GROUPS;
    Ok((found, whole.then_some(reps)))
}

/// The progress bar of an analysis of `total` `unit`s (hidden with `--quiet`).
pub fn bar(total: u64, quiet: bool, unit: &str) -> indicatif::ProgressBar {
    use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
    if quiet {
        return ProgressBar::hidden();
    }
    let b = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr_with_hz(4));
    b.set_style(
        ProgressStyle::with_template(&format!(
            "{{spinner}} [{{elapsed_precise}}] {{wide_bar}} {{human_pos}}/{{human_len}} {unit}"
        ))
        .expect("valid template")
        .progress_chars("=> "),
    );
    b.enable_steady_tick(std::time::Duration::from_millis(250));
    b
}

//! Runs a [`Simulation`] over chunks of match indices on a rayon pool and writes the parts in
//! index order.
//!
//! Workers claim pieces of chunks in increasing order from a shared cursor and start no chunk more
//! than `window` chunks ahead of the recorder, so memory stays flat however many matches a run
//! has; the worker that plays a chunk's last piece appends its pieces and writes the part, and the
//! recorder (the calling thread) records parts in index order in the manifest. Which thread plays
//! a piece never matters: a chunk's rows depend only on (master seed, match indices), so the files
//! are the same bytes for any thread count.

use crate::error::Error;
use std::collections::BTreeMap;
use std::ops::Range;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Condvar, Mutex, mpsc};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use super::dataset::{Dataset, PartRecord};
use super::plan::Plan;
use super::table::Table;
use super::tally::Tally;

/// What the platform needs of a game's simulation.
pub trait Simulation: Sync {
    /// Per-thread scratch (a battle kernel's buffers), made once per worker and reused.
    type Worker: Send;
    /// The name recorded in manifests, e.g. `rumble-ffa`.
    fn name(&self) -> &'static str;
    /// The tables every chunk produces, in order.
    fn tables(&self) -> Vec<&'static str>;
    /// What [`Tally::work`] counts, for the summary ("hits resolved", "battles played"...).
    fn work_unit(&self) -> &'static str {
        "hits resolved"
    }
    fn worker(&self) -> Self::Worker;
    /// The compact tables of a run's whole tally that its summary prints (issue 50: a policy's
    /// win share, score and survival on one line); none: the answer's sections are printed.
    fn grids(&self, _tally: &Tally) -> Vec<super::grid::Grid> {
        Vec::new()
    }
    /// Which way each of its tally's mean groups ranks, by the group's name (issue 78: read
    /// from the section's title before). A count group is a win rate, higher better, and a
    /// `share of` group no ranking (`Answer::sections`); a mean group not listed is no ranking
    /// (a game's length, coins left).
    fn ranked(&self) -> &'static [(&'static str, crate::stats::Better)] {
        &[]
    }
    /// The most memory one worker needs while playing any match of this simulation, and what
    /// needs it ("a melee at budget 100000000"), when that can be large: a run lowers its thread
    /// count to what fits, or refuses ([`super::memory::fit`]). `None`: small, never checked.
    fn worker_memory(&self) -> Option<(u64, String)> {
        None
    }
    /// Plays matches `matches` under `master`. With `record`, returns one [`Table`] per
    /// [`Simulation::tables`] entry; without, only the tally (the kernel-only benchmark).
    fn play(
        &self,
        worker: &mut Self::Worker,
        master: u64,
        matches: Range<u64>,
        record: bool,
    ) -> (Vec<Table>, Tally);
}

/// Turns a chunk's tables into file bytes (Parquet in the product, anything in tests).
pub type Encoder = fn(&Table) -> Result<Vec<u8>, Error>;

#[cfg(feature = "parquet")]
const PARQUET: Option<Encoder> = Some(crate::platform::parquet::encode);
#[cfg(not(feature = "parquet"))]
const PARQUET: Option<Encoder> = None;

/// The Parquet encoder, or why this build has none.
pub fn encoder() -> Result<Encoder, Error> {
    PARQUET.ok_or_else(|| {
        Error::Input(
            "this skirmish was built without Parquet support (--no-default-features); rebuild \
             with the default features to write datasets"
                .to_string(),
        )
    })
}

pub struct RunConfig {
    pub seed: u64,
    pub plan: Plan,
    /// The chunks this run is responsible for (all, or one shard's slice).
    pub chunks: Range<u64>,
    pub threads: usize,
    pub progress: bool,
}

/// What a run did.
#[derive(Debug)]
pub struct RunReport {
    pub matches_played: u64,
    pub parts_written: u64,
    pub parts_kept: u64,
    pub wall: Duration,
    pub threads: usize,
    /// Counts over this run's chunk range, finished earlier or now.
    pub tally: Tally,
}

struct Done {
    chunk: u64,
    /// The part's files as written by its worker: their digests.
    files: Result<Vec<super::dataset::FileRecord>, Error>,
    tally: Tally,
}

/// Worker threads when `--threads` is not given: every core.
pub fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// `--threads`, checked the same way by every command: 1 to 1024 (issue 53: `analyze` took
/// 1025, `bench` refused it only after measuring).
pub fn threads(given: Option<usize>) -> Result<usize, Error> {
    let n = given.unwrap_or_else(default_threads);
    if n == 0 || n > 1024 {
        return Err(Error::Input(format!(
            "--threads {n}: give between 1 and 1024"
        )));
    }
    Ok(n)
}

/// A rayon pool of exactly `threads` threads.
pub fn pool(threads: usize) -> Result<rayon::ThreadPool, Error> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|i| format!("skirmish-{i}"))
        .build()
        .map_err(|e| Error::machine(format!("cannot start {threads} threads"), e))
}

/// Plays every unfinished chunk of `cfg.chunks` and writes it into `ds`.
pub fn run<S: Simulation>(
    sim: &S,
    cfg: &RunConfig,
    ds: &mut Dataset,
    encode: Encoder,
) -> Result<RunReport, Error> {
    let start = Instant::now();
    let todo: Vec<u64> = cfg.chunks.clone().filter(|&c| !ds.is_finished(c)).collect();
    let kept = (cfg.chunks.end - cfg.chunks.start) - todo.len() as u64;
    let todo_matches: u64 = todo
        .iter()
        .map(|&c| {
            let r = cfg.plan.chunk(c);
            r.end - r.start
        })
        .sum();
    let bar = progress_bar(todo_matches, cfg.progress);

    let threads = cfg.threads.max(1);
    // How far ahead of the manifest a worker may claim: enough to keep every thread busy while a
    // slow chunk finishes, few enough that the parts written but not yet recorded (written again
    // if the run is killed) stay a small multiple of a chunk.
    let window = 2 * threads + 2;
    let written = Mutex::new(0usize);
    let advanced = Condvar::new();
    let abort = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel::<Done>();
    let pool = pool(threads)?;
    let part_files = ds.part_files();

    let mut played = 0u64;
    let outcome: Result<(), Error> = std::thread::scope(|scope| {
        let (todo_r, written_r, advanced_r, abort_r, pool_r, part_files) =
            (&todo, &written, &advanced, &abort, &pool, &part_files);
        // `tx` moves in (the closure `done` owns it), so the channel closes when the workers
        // are done.
        let workers = scope.spawn(move || {
            // Backpressure: a part starts only while the recorder is within `window` parts.
            let gate = |k: usize| {
                let mut w = written_r.lock().expect("recorder alive");
                while k >= *w + window && !abort_r.load(Ordering::Relaxed) {
                    w = advanced_r.wait(w).expect("recorder alive");
                }
                !abort_r.load(Ordering::Relaxed)
            };
            let done = |k: usize, tables: Vec<Table>, tally: Tally| {
                let c = todo_r[k];
                let files = tables
                    .iter()
                    .map(encode)
                    .collect::<Result<Vec<_>, Error>>()
                    .and_then(|f| part_files.write(c, &f));
                tx.send(Done {
                    chunk: c,
                    files,
                    tally,
                })
                .is_ok()
            };
            play_parts(sim, pool_r, cfg.seed, cfg.plan, todo_r, true, &gate, &done);
        });

        // The recorder: parts into the manifest in index order, each as soon as all earlier ones
        // are written (their files are written by the workers).
        let mut pending: BTreeMap<u64, Done> = BTreeMap::new();
        let mut k = 0usize;
        let result = (|| {
            for done in rx.iter() {
                pending.insert(done.chunk, done);
                while k < todo.len() {
                    let Some(done) = pending.remove(&todo[k]) else {
                        break;
                    };
                    let files = done.files?;
                    let range = cfg.plan.chunk(done.chunk);
                    let n = range.end - range.start;
                    ds.record_part(PartRecord {
                        part: done.chunk,
                        first_match: range.start,
                        matches: n,
                        tally: done.tally,
                        files,
                    })?;
                    played += n;
                    bar.inc(n);
                    k += 1;
                    *written.lock().expect("workers alive") = k;
                    advanced.notify_all();
                }
            }
            Ok(())
        })();
        if result.is_err() {
            abort.store(true, Ordering::Relaxed);
            advanced.notify_all();
            // Drain so blocked senders finish; results are dropped unwritten.
            for _ in rx.iter() {}
        }
        workers.join().expect("worker panicked");
        result
    });
    bar.finish_and_clear();
    outcome?;
    ds.flush()?;

    let mut tally = Tally::default();
    for p in &ds.manifest().parts {
        if cfg.chunks.contains(&p.part) {
            tally.merge(&p.tally);
        }
    }
    Ok(RunReport {
        matches_played: played,
        parts_written: todo.len() as u64,
        parts_kept: kept,
        wall: start.elapsed(),
        threads,
        tally,
    })
}

/// Matches a worker plays at a time when a run has several threads. Parts are split into pieces
/// of about this many so that a run's last parts are shared out too: played whole, the last part
/// of a 2-thread run left one thread idle while the other played it alone (seen by timing each
/// thread's CPU against the wall clock).
const PIECE: u64 = 4096;

/// The pieces part `range` is played in on `threads` threads, in order: the part itself on one
/// thread; else pieces of at most about [`PIECE`] matches, and at least `threads` of them (so
/// that every run on several threads, however small, plays and appends pieces: the tests that
/// compare thread counts byte for byte then check the appending too).
pub fn pieces(range: Range<u64>, threads: usize) -> impl Iterator<Item = Range<u64>> {
    let n = range.end - range.start;
    let k = if threads <= 1 {
        1
    } else {
        n.div_ceil(PIECE).max((threads as u64).min(n))
    }
    .max(1);
    // Near-equal pieces; the arithmetic stays under 2^64 for any part below 2^32 pieces.
    (0..k).map(move |i| {
        let at = |i: u64| range.start + (n as u128 * i as u128 / k as u128) as u64;
        at(i)..at(i + 1)
    })
}

/// A part's pieces as played, in order, put together: the part as if played whole.
pub fn assemble(pieces: impl Iterator<Item = (Vec<Table>, Tally)>) -> (Vec<Table>, Tally) {
    let mut tally = Tally::default();
    let mut by_table: Vec<Vec<Table>> = Vec::new();
    for (tables, t) in pieces {
        tally.merge(&t);
        by_table.resize_with(tables.len(), Vec::new);
        for (pieces, table) in by_table.iter_mut().zip(tables) {
            pieces.push(table);
        }
    }
    (by_table.into_iter().map(Table::concat).collect(), tally)
}

/// A part being played in pieces: the pieces not yet played, and those played, in order.
struct Assembly {
    left: usize,
    played: Vec<Option<(Vec<Table>, Tally)>>,
}

/// Plays parts `todo` of `plan` on `pool`'s threads, a piece at a time ([`pieces`]), claimed in
/// increasing order. Once every piece of the `k`-th part is played, the worker that played the
/// last one appends them in order (the part as if played whole) and hands it to `done(k, tables,
/// tally)`. `gate(k)` waits until the `k`-th part may start; false (as from `done`): stop.
#[allow(clippy::too_many_arguments)]
fn play_parts<S: Simulation>(
    sim: &S,
    pool: &rayon::ThreadPool,
    seed: u64,
    plan: Plan,
    todo: &[u64],
    record: bool,
    gate: &(dyn Fn(usize) -> bool + Sync),
    done: &(dyn Fn(usize, Vec<Table>, Tally) -> bool + Sync),
) {
    let threads = pool.current_num_threads();
    // The next piece to claim: the part's place in `todo`, and the piece's within the part.
    let cursor = Mutex::new((0usize, 0usize));
    let assembling: Mutex<BTreeMap<usize, Assembly>> = Mutex::new(BTreeMap::new());
    let stop = AtomicBool::new(false);
    let split = |k: usize| pieces(plan.chunk(todo[k]), threads);
    pool.scope(|s| {
        for _ in 0..threads {
            s.spawn(|_| {
                let mut worker = sim.worker();
                while !stop.load(Ordering::Relaxed) {
                    let (k, i, range) = {
                        let mut at = cursor.lock().expect("workers alive");
                        let (k, i) = *at;
                        if k >= todo.len() {
                            break;
                        }
                        let mut part = split(k);
                        let range = part.nth(i).expect("a piece of the part");
                        *at = if part.next().is_some() {
                            (k, i + 1)
                        } else {
                            (k + 1, 0)
                        };
                        (k, i, range)
                    };
                    if !gate(k) {
                        stop.store(true, Ordering::Relaxed);
                        break;
                    }
                    let result = sim.play(&mut worker, seed, range, record);
                    let whole = {
                        let mut a = assembling.lock().expect("workers alive");
                        let part = a.entry(k).or_insert_with(|| {
                            let n = split(k).count();
                            Assembly {
                                left: n,
                                played: (0..n).map(|_| None).collect(),
                            }
                        });
                        part.played[i] = Some(result);
                        part.left -= 1;
                        if part.left > 0 {
                            continue;
                        }
                        a.remove(&k).expect("assembled").played
                    };
                    let (tables, tally) =
                        assemble(whole.into_iter().map(|p| p.expect("every piece played")));
                    if !done(k, tables, tally) {
                        stop.store(true, Ordering::Relaxed);
                    }
                }
            });
        }
    });
}

/// Plays `plan`'s chunks on `threads` threads without writing anything; returns the summed tally
/// and the wall time. `record` also builds (and `encode`s) the tables, to price that work.
pub fn measure<S: Simulation>(
    sim: &S,
    seed: u64,
    plan: Plan,
    threads: usize,
    record: bool,
    encode: Option<Encoder>,
) -> Result<(Tally, Duration), Error> {
    let pool = pool(threads)?;
    let start = Instant::now();
    let parts: Vec<u64> = (0..plan.chunks()).collect();
    let sum: Mutex<Result<Tally, Error>> = Mutex::new(Ok(Tally::default()));
    let done = |_: usize, tables: Vec<Table>, tally: Tally| {
        let encoded = match encode {
            Some(encode) => tables.iter().try_for_each(|t| encode(t).map(drop)),
            None => Ok(()),
        };
        let mut sum = sum.lock().expect("workers alive");
        *sum = std::mem::replace(&mut *sum, Ok(Tally::default())).and_then(|mut s| {
            encoded?;
            s.merge(&tally);
            Ok(s)
        });
        sum.is_ok()
    };
    play_parts(sim, &pool, seed, plan, &parts, record, &|_| true, &done);
    let tally = sum.into_inner().expect("workers done")?;
    Ok((tally, start.elapsed()))
}

/// Matches, matches/s and ETA on stderr; hidden when stderr is not a terminal (indicatif checks)
/// or when the caller asks for quiet.
fn progress_bar(len: u64, show: bool) -> ProgressBar {
    if !show {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr_with_hz(4));
    bar.set_style(
        ProgressStyle::with_template(
            "{spinner} [{elapsed_precise}] {wide_bar} {human_pos}/{human_len} matches  \
             {rate}  ETA {eta}",
        )
        .expect("valid template")
        .with_key(
            "rate",
            |s: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                let _ = write!(
                    w,
                    "{} matches/s",
                    super::tally::thousands(s.per_sec() as u64)
                );
            },
        )
        .progress_chars("=> "),
    );
    bar.enable_steady_tick(Duration::from_millis(250));
    bar
}

//! Runs a [`Simulation`] over chunks of match indices on a rayon pool and writes the parts in
//! index order.
//!
//! Workers claim chunks in increasing order from a shared counter and may run at most `window`
//! chunks ahead of the writer, so memory stays flat however many matches a run has; the writer
//! (the calling thread) puts results back in index order and writes each part as soon as every
//! earlier one is written. Which thread plays a chunk never matters: a chunk's rows depend only on
//! (master seed, match indices), so the files are the same bytes for any thread count.

use std::collections::BTreeMap;
use std::ops::Range;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
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
pub type Encoder = fn(&Table) -> Result<Vec<u8>, String>;

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
    files: Result<Vec<super::dataset::FileRecord>, String>,
    tally: Tally,
}

/// A rayon pool of exactly `threads` threads.
pub fn pool(threads: usize) -> Result<rayon::ThreadPool, String> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|i| format!("skirmish-{i}"))
        .build()
        .map_err(|e| format!("cannot start {threads} threads: {e}"))
}

/// Plays every unfinished chunk of `cfg.chunks` and writes it into `ds`.
pub fn run<S: Simulation>(
    sim: &S,
    cfg: &RunConfig,
    ds: &mut Dataset,
    encode: Encoder,
) -> Result<RunReport, String> {
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
    let next = AtomicUsize::new(0);
    let written = Mutex::new(0usize);
    let advanced = Condvar::new();
    let abort = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel::<Done>();
    let pool = pool(threads)?;
    let part_files = ds.part_files();

    let mut played = 0u64;
    let outcome: Result<(), String> = std::thread::scope(|scope| {
        let (todo_r, next_r, written_r, advanced_r, abort_r, pool_r, part_files) = (
            &todo,
            &next,
            &written,
            &advanced,
            &abort,
            &pool,
            &part_files,
        );
        // `tx` moves in, so the channel closes when the last worker is done.
        let workers = scope.spawn(move || {
            pool_r.scope(|s| {
                for _ in 0..threads {
                    let tx = tx.clone();
                    let (todo, next, written, advanced, abort) =
                        (todo_r, next_r, written_r, advanced_r, abort_r);
                    s.spawn(move |_| {
                        let mut worker = sim.worker();
                        loop {
                            let k = next.fetch_add(1, Ordering::Relaxed);
                            if k >= todo.len() {
                                break;
                            }
                            // Backpressure: wait until the writer is within `window` chunks.
                            let mut w = written.lock().expect("writer alive");
                            while k >= *w + window && !abort.load(Ordering::Relaxed) {
                                w = advanced.wait(w).expect("writer alive");
                            }
                            drop(w);
                            if abort.load(Ordering::Relaxed) {
                                break;
                            }
                            let c = todo[k];
                            let (tables, tally) =
                                sim.play(&mut worker, cfg.seed, cfg.plan.chunk(c), true);
                            let files = tables
                                .iter()
                                .map(encode)
                                .collect::<Result<Vec<_>, String>>()
                                .and_then(|f| part_files.write(c, &f));
                            if tx
                                .send(Done {
                                    chunk: c,
                                    files,
                                    tally,
                                })
                                .is_err()
                            {
                                break;
                            }
                        }
                    });
                }
            });
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

/// Plays `plan`'s chunks on `threads` threads without writing anything; returns the summed tally
/// and the wall time. `record` also builds (and `encode`s) the tables, to price that work.
pub fn measure<S: Simulation>(
    sim: &S,
    seed: u64,
    plan: Plan,
    threads: usize,
    record: bool,
    encode: Option<Encoder>,
) -> Result<(Tally, Duration), String> {
    use rayon::prelude::*;
    let pool = pool(threads)?;
    let start = Instant::now();
    let tally = pool.install(|| {
        (0..plan.chunks())
            .into_par_iter()
            .map_init(
                || sim.worker(),
                |w, c| {
                    let (tables, tally) = sim.play(w, seed, plan.chunk(c), record);
                    if let Some(encode) = encode {
                        for t in &tables {
                            encode(t)?;
                        }
                    }
                    Ok::<Tally, String>(tally)
                },
            )
            .try_reduce(Tally::default, |mut a, b| {
                a.merge(&b);
                Ok(a)
            })
    })?;
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

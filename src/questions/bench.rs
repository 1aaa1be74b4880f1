//! `skirmish bench` (issues 3 and 52): what this machine does, as an answer that can be
//! recorded and reproduced.
//!
//! Timings are not samples of one quantity: the same code reads 5-15% apart between runs on a
//! shared machine, and by any factor between machines. So every workload is also measured
//! against a yardstick timed in the same command (a plain loop of the project's generator), and
//! only that ratio is what `skirmish reproduce` compares; absolute rates are shown with the
//! machine they ran on and never compared.

use crate::error::Error;
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::Instant;

use rand::{RngExt as _, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::games::auto_rumble::simulation::ffa::{Ffa, FfaSettings};
use crate::platform::answer::{Answer, Estimate, Provenance, Section, Unit};
use crate::platform::command::WithSimulation;
use crate::platform::job::Job;
use crate::platform::plan::Plan;
use crate::platform::runner::{self, Simulation};
use crate::platform::sources::Sources;
use crate::platform::tally::{Tally, thousands};

use crate::platform::plan::DEFAULT_CHUNK;
use crate::platform::runner::encoder;
use crate::questions::{Commands, Dataset as _};

pub use crate::questions::reproduce::{RELATIVE, SOURCE};
/// The command, as output folders record it.
const COMMAND: &str = "bench";
/// How far a ratio may move, as a factor either way, and still reproduce: timings are not sampled
/// estimates, and the same code's ratio moves up to a fifth between runs on a shared 2-core
/// machine, while a regression worth catching halves it.
const FACTOR: f64 = 1.5;

/// What `skirmish bench` was asked (`cli::bench` reads it from the command line).
#[derive(Debug, Clone)]
pub struct Settings {
    /// Matches per measurement of the Auto Rumble end-to-end rows: the main job's million by
    /// default (at most 100,000,000: a bench is minutes, not days).
    pub matches: u64,
    /// Threads for the all-threads rows (default: all cores).
    pub threads: Option<usize>,
    /// Times each measurement is taken (the median is reported): every one-thread workload and
    /// every end-to-end row.
    pub repeats: u64,
    /// Scale of every one-thread workload's match count, in percent (a quick look: 10).
    pub size: u64,
    /// The folder for the answer (`result.json`, `report.html`: what `reproduce` records); the
    /// end-to-end rows write their dataset inside it while they are timed.
    pub out: PathBuf,
    /// Accepted for the grammar's sake: bench draws no progress bar.
    pub quiet: bool,
}

/// A workload: a game's command (its defaults, or the flags given), played kernel only on one
/// thread; each game declares its own (`crate::games::Game::bench`).
type Workload = crate::games::Entry<crate::games::Workload>;

/// Every game's workloads, in the registry's order.
fn workloads() -> Vec<Workload> {
    crate::games::entries(|g| g.bench)
}

use crate::games::auto_rumble::SAMPLE_ROSTER;

/// One measurement: seconds, the tally played, and the yardstick's steps/s timed just before it
/// (interleaved, so a machine that slows for a while slows both).
type Run = (f64, Tally, f64);

/// Steps of the yardstick timed before each measurement (about a tenth of a second).
const STEPS: u64 = 1 << 26;

fn time<S: Simulation>(sim: &S, plan: Plan, repeats: u64) -> Result<Vec<Run>, Error> {
    (0..repeats)
        .map(|_| {
            let pace = yardstick(STEPS);
            let (t, d) = runner::measure(sim, 1, plan, 1, false, None)?;
            Ok((d.as_secs_f64().max(1e-9), t, pace))
        })
        .collect()
}

/// Plays one workload `repeats` times, one thread, kernel only.
fn measure<C: Commands>(w: &Workload, size: u64, repeats: u64) -> Result<Vec<Run>, Error> {
    struct Time {
        scaled: Plan,
        repeats: u64,
    }
    impl WithSimulation for Time {
        type Out = Vec<Run>;
        fn with<S: Simulation>(self, sim: &S, whole: Option<Plan>) -> Result<Vec<Run>, Error> {
            time(sim, whole.unwrap_or(self.scaled), self.repeats)
        }
    }
    let split = shlex::split(w.command).expect("a workload's command is shell-quoted");
    let words: Vec<&str> = split.iter().map(String::as_str).collect();
    let matches = (w.matches * size / 100).max(1);
    let scaled = Plan {
        matches,
        chunk_size: (matches / 8).max(1),
    };
    C::default()
        .dataset(&words, "bench")?
        .visit(&Sources::disk(), Time { scaled, repeats })
}

/// The yardstick: steps of a plain generator loop per second, one thread. Nothing of the games
/// is in it, so a kernel made faster moves its ratio and not the yardstick.
fn yardstick(steps: u64) -> f64 {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
    let mut acc = 0u64;
    let start = Instant::now();
    for _ in 0..steps {
        acc = acc.wrapping_add(rng.random::<u64>() >> (acc & 7));
    }
    black_box(acc);
    steps as f64 / start.elapsed().as_secs_f64().max(1e-9)
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// The machine, as far as the system says: its processor and its cores.
fn machine() -> (String, usize) {
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|t| {
            t.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, m)| m.trim().to_string())
        })
        .unwrap_or_else(|| std::env::consts::ARCH.to_string());
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    (cpu, cores)
}

/// A rate to read: whole and thousands-separated from 1,000, else three significant figures
/// (rates here span six orders of magnitude).
fn sig(x: f64) -> String {
    if x >= 1000.0 {
        return thousands(x.round() as u64);
    }
    if x <= 0.0 || !x.is_finite() {
        return format!("{x}");
    }
    let places = (2 - x.log10().floor() as i32).max(0) as usize;
    format!("{x:.places$}")
}

/// `skirmish bench`.
pub fn bench<C: Commands>(f: &Settings) -> Result<String, Error> {
    if f.matches == 0 || f.threads == Some(0) {
        return Err("bench: --matches and --threads must be at least 1".into());
    }
    // The folder rule (new, empty, or an earlier bench answer) before a minute of timing.
    let _claim = crate::platform::dataset::claim_output_folder(&f.out, COMMAND)?;
    let all = runner::threads(f.threads)?;
    let (cpu, cores) = machine();
    let mut out = format!(
        "skirmish bench on {cpu} ({cores} cores)\n\nevery game, one thread, kernel only \
         (median of {} runs):\n\n{:<14} {:<40} {:>12} {:>12}  {:>14}  work\n",
        f.repeats, "game", "workload", "matches/s", "vs yardstick", "work/s"
    );
    let mut paces = Vec::new();
    let mut relative = Vec::new();
    let mut absolute = Vec::new();
    let mut work = Vec::new();
    let mut notes = Vec::new();
    let mut slower = Vec::new();
    let mut rate_of: Vec<(&str, f64)> = Vec::new();
    for w in &workloads() {
        let runs = measure::<C>(w, f.size, f.repeats)?;
        let mut rates: Vec<f64> = runs.iter().map(|(s, t, _)| t.matches as f64 / s).collect();
        let mut works: Vec<f64> = runs.iter().map(|(s, t, _)| t.work as f64 / s).collect();
        // Matches per million yardstick steps, run by run: the machine's own pace taken out.
        let mut ratios: Vec<f64> = runs
            .iter()
            .map(|(s, t, pace)| t.matches as f64 / s / pace * 1e6)
            .collect();
        paces.extend(runs.iter().map(|r| r.2));
        let (lo, hi) = (
            rates.iter().copied().fold(f64::INFINITY, f64::min),
            rates.iter().copied().fold(0.0, f64::max),
        );
        let rate = median(&mut rates);
        rate_of.push((w.what, rate));
        let work_rate = median(&mut works);
        let ratio = median(&mut ratios);
        let tally = &runs[0].1;
        // The median run's time, so that the count, the time and the rate agree.
        let secs = tally.matches as f64 / rate;
        let label = format!("{}: {}", w.game, w.what);
        let work_unit = work_unit(w);
        out.push_str(&format!(
            "{:<14} {:<40} {:>12} {:>12}  {:>14}  {work_unit}\n",
            w.game,
            w.what,
            sig(rate),
            sig(ratio),
            sig(work_rate),
        ));
        relative.push(Estimate {
            label: label.clone(),
            value: ratio,
            lo: ratio / FACTOR,
            hi: ratio * FACTOR,
            count: tally.matches,
            exact: false,
            se: None,
        });
        absolute.push(Estimate {
            label: label.clone(),
            value: rate,
            lo,
            hi,
            count: tally.matches,
            exact: false,
            se: None,
        });
        work.push(Estimate {
            label: format!("{label} ({work_unit})"),
            value: work_rate,
            lo: work_rate,
            hi: work_rate,
            count: tally.work,
            exact: false,
            se: None,
        });
        if let Some(&(_, base)) = w
            .versus
            .and_then(|v| rate_of.iter().find(|(what, _)| *what == v))
        {
            let times = base / rate;
            notes.push(format!(
                "{label}: {} times slower than {} on one thread",
                sig(times),
                w.versus.unwrap_or_default()
            ));
            slower.push(Estimate {
                label: label.clone(),
                value: times,
                lo: times,
                hi: times,
                count: tally.matches,
                exact: false,
                se: None,
            });
        }
        notes.push(format!(
            "{label}: {} {}/s on one thread, kernel only ({} {work_unit}/s; {} {} in {:.2} s; the matches of `skirmish {}`), {} per million yardstick steps",
            sig(rate),
            w.unit,
            sig(work_rate),
            thousands(tally.matches),
            w.unit,
            secs,
            w.command,
            sig(ratio)
        ));
    }
    let steps = median(&mut paces);
    for e in &slower {
        out.push_str(&format!(
            "\n{}: {} times slower than {SAMPLE_ROSTER}",
            e.label,
            sig(e.value)
        ));
    }
    out.push_str(&format!(
        "\nyardstick: {} M generator steps/s on one thread; \"vs yardstick\" is matches per \
         million steps, what `skirmish reproduce` compares\n\n",
        sig(steps / 1e6)
    ));

    let (table, e2e_rows, e2e_notes) = end_to_end(&f.out, f.matches, all, f.repeats)?;
    out.push_str(&table);
    notes.extend(e2e_notes);
    notes.insert(
        0,
        format!(
            "measured on {cpu}, {cores} cores; the yardstick ran {} M steps/s",
            sig(steps / 1e6)
        ),
    );

    let dir = &f.out;
    let answer = Answer {
        verdict: Vec::new(),
        highlight: Vec::new(),
        outcome: None,
        apart: Vec::new(),
        title: format!("bench: every game's kernel on {cpu}"),
        provenance: Provenance::of_tool(
            format!(
                "skirmish bench --matches {} --repeats {} --size {}{}",
                f.matches,
                f.repeats,
                f.size,
                f.threads.map_or(String::new(), |t| format!(" --threads {t}"))
            ),
            SOURCE,
            f.matches,
            serde_json::json!({
                "machine": cpu,
                "cores": cores,
                "threads": all,
                "repeats": f.repeats,
                "size_percent": f.size,
                "workloads": workloads().iter().map(|w| w.command).collect::<Vec<_>>(),
            }),
        ),
        totals: vec![
            ("machine".into(), format!("{cpu}, {cores} cores")),
            ("yardstick".into(), format!("{} M steps/s", sig(steps / 1e6))),
        ],
        sections: vec![
            Section {
                band: None,
                better: None,
                title: RELATIVE.into(),
                meaning: format!(
                    "matches per million steps of a plain generator loop timed in the same command, one thread; the band is what reproduce accepts ({FACTOR}x either way), not a sampled interval"
                ),
                unit: Unit::Number,
                estimates: relative,
            },
            Section {
                band: None,
                better: None,
                title: "matches per second, one thread".into(),
                meaning: format!(
                    "median of {} runs, between the slowest and fastest; this machine only, never compared",
                    f.repeats
                ),
                unit: Unit::Number,
                estimates: absolute,
            },
            Section {
                band: None,
                better: None,
                title: "times slower than the sample roster, one thread".into(),
                meaning: format!(
                    "a power's roster beside Amoeba and Titanium Skin against {SAMPLE_ROSTER}: battles/s of that roster over this one's, median runs; issue 81 asks every power within 5x of the median power"
                ),
                unit: Unit::Number,
                estimates: slower,
            },
            Section {
                band: None,
                better: None,
                title: "work per second, one thread".into(),
                meaning: "each game's unit of work (hits, interactions, dice, player-moves, attacks) per second, median run; this machine only".into(),
                unit: Unit::Number,
                estimates: work,
            },
            Section {
                band: None,
                better: None,
                title: format!("Auto Rumble battles per second, {all} threads"),
                meaning: "the main job's rosters: the kernel alone on one and all threads, with tables and Parquet encoding, and end to end with files written; this machine only".into(),
                unit: Unit::Number,
                estimates: e2e_rows,
            },
        ],
        tables: Vec::new(),
        notes,
        heatmaps: Vec::new(),
        grids: Vec::new(),
    };
    let files = crate::platform::render::files(&answer).to_vec();
    crate::platform::dataset::replace_folder(dir, COMMAND, &files)?;
    out.push_str(&crate::platform::render::report_line(dir));
    Ok(out)
}

fn work_unit(w: &Workload) -> &'static str {
    match w.game {
        "Auto Rumble" if w.unit == "games" => "battles",
        "Auto Rumble" => "hits",
        "Clan Melee" => "pair interactions",
        "Elemental Tag" => "player-moves",
        "Loot Arena" if w.unit == "games" => "battles",
        "Loot Arena" => "dice",
        _ => "attacks",
    }
}

/// The main job's rosters: kernel alone on one and all threads, with tables and encoding, and end
/// to end into a scratch folder, each the median of `repeats` runs (single runs on a shared
/// machine move more than the differences measured). The table, its rows as estimates, and notes.
fn end_to_end(
    folder: &Path,
    matches: u64,
    all: usize,
    repeats: u64,
) -> Result<(String, Vec<Estimate>, Vec<String>), Error> {
    let ffa = Ffa::new(&Sources::disk(), FfaSettings::default())?;
    let seed = 1;
    let chunk = (matches / (4 * all as u64)).clamp(1, DEFAULT_CHUNK);
    let plan = Plan {
        matches,
        chunk_size: chunk,
    };
    let mut out = format!(
        "Auto Rumble end to end: {} random battles (default `simulate rumble` rosters, seed \
         {seed}), chunks of {}, median of {repeats} runs; hits/s counts the hits represented, \
         class ops/s the operations that resolved them (one class of alike heroes hitting one \
         class)\n\n{:<44} {:>8} {:>14} {:>16} {:>16}\n",
        thousands(matches),
        thousands(chunk),
        "workload",
        "threads",
        "battles/s",
        "hits/s",
        "class ops/s"
    );
    let mut rows = Vec::new();
    let mut line = |name: &str, t: usize, tally: &Tally, secs: f64| {
        let secs = secs.max(1e-9);
        let rate = tally.matches as f64 / secs;
        out.push_str(&format!(
            "{name:<44} {t:>8} {:>14} {:>16} {:>16}\n",
            thousands(rate as u64),
            thousands((tally.work as f64 / secs) as u64),
            thousands((tally.ops as f64 / secs) as u64)
        ));
        rows.push(Estimate {
            label: format!("{name}, {t} thread{}", if t == 1 { "" } else { "s" }),
            value: rate,
            lo: rate,
            hi: rate,
            count: tally.matches,
            exact: false,
            se: None,
        });
        rate
    };
    let encode = encoder()?;
    // Inside the bench's own folder (issue 78: no temporary folder), removed after each run.
    let dir = folder.join("end-to-end");
    let mut bytes = 0;
    let ffa = &ffa;
    let end_to_end = |bytes: &mut u64| {
        let _ = std::fs::remove_dir_all(&dir);
        let job = Job {
            settings: serde_json::to_value(&ffa.settings).expect("serialisable"),
            command: "skirmish bench".into(),
            inputs: Vec::new(),
            sim: ffa,
            seed,
            matches,
            count_flag: "--matches",
            chunk_size: chunk,
            out: dir.clone(),
            threads: all,
            shard: None,
            progress: false,
            experiment: None,
        };
        let result = job.run(encode);
        *bytes = dir_size(&dir);
        let _ = std::fs::remove_dir_all(&dir);
        result.map(|(report, _)| (report.tally, report.wall))
    };
    // The four rows are measured in turn, `repeats` rounds of them, so that a slow spell of a
    // shared machine falls on every row alike (and on both sides of each ratio); each row is the median of its rounds (the work is
    // the same each time: one tally serves).
    let mut times = vec![Vec::new(); 4];
    let mut tallies = vec![Tally::default(); 4];
    for round in 0..repeats {
        // Every other round in reverse order, so that a machine slowing or speeding up through
        // a round favours no row.
        let mut order = [0, 1, 2, 3];
        if round % 2 == 1 {
            order.reverse();
        }
        for k in order {
            let (t, d) = match k {
                0 => runner::measure(ffa, seed, plan, 1, false, None)?,
                1 => runner::measure(ffa, seed, plan, all, false, None)?,
                2 => runner::measure(ffa, seed, plan, all, true, Some(encode))?,
                _ => end_to_end(&mut bytes)?,
            };
            times[k].push(d.as_secs_f64());
            tallies[k] = t;
        }
    }
    let names = [
        ("kernel only (draw roster + battle)", 1),
        ("kernel only (draw roster + battle)", all),
        ("+ tables + Parquet encoding, in memory", all),
        ("end to end: + writing part files and manifest", all),
    ];
    // Ratios are taken within each round (its rows measured back to back) and their median
    // reported: a slow spell then moves both sides of a ratio, not one.
    let ratio = |a: usize, b: usize| {
        let mut r: Vec<f64> = times[b]
            .iter()
            .zip(&times[a])
            .map(|(tb, ta)| tb / ta)
            .collect();
        median(&mut r)
    };
    let (share_e2e, scaling) = (ratio(3, 1), ratio(1, 0));
    let rates: Vec<f64> = names
        .iter()
        .zip(&tallies)
        .zip(&mut times)
        .map(|((&(name, t), tally), secs)| line(name, t, tally, median(secs)))
        .collect();
    let (kernel, e2e) = (rates[1], rates[3]);
    let share = format!(
        "end to end is {:.0}% of kernel-only throughput on {all} threads (target: at least \
         85%); kernel only on {all} threads is {:.2}x one thread (medians of each round's \
         ratio); {:.1} bytes of Parquet per match",
        100.0 * share_e2e,
        scaling,
        bytes as f64 / matches as f64
    );
    out.push_str(&format!("\n{share}\n"));
    let notes = vec![
        format!(
            "Auto Rumble main job's rosters on {all} threads: {} battles/s kernel only, {} end to end with Parquet files written ({} battles)",
            thousands(kernel as u64),
            thousands(e2e as u64),
            thousands(matches)
        ),
        share,
    ];
    Ok((out, rows, notes))
}

fn dir_size(dir: &Path) -> u64 {
    let mut total = 0;
    if let Ok(rd) = std::fs::read_dir(dir) {
        for e in rd.flatten() {
            let p = e.path();
            total += if p.is_dir() {
                dir_size(&p)
            } else {
                e.metadata().map_or(0, |m| m.len())
            };
        }
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_workload_names_a_command_bench_can_build() {
        for w in &workloads() {
            let runs = measure::<crate::cli::Grammar>(w, 1, 1)
                .unwrap_or_else(|e| panic!("{}: {e}", w.command));
            assert!(runs[0].1.matches > 0, "{}", w.command);
        }
    }

    // A run on several threads plays its parts in pieces and appends them: every dataset
    // command's part, so played, is the part played whole (tables and counts).
    #[test]
    fn every_command_s_part_played_in_pieces_is_the_part_played_whole() {
        /// At most this many matches: a slow workload (a reaction beside Amoeba) plays few.
        struct Pieces(u64);
        impl WithSimulation for Pieces {
            type Out = ();
            fn with<S: Simulation>(self, sim: &S, whole: Option<Plan>) -> Result<(), Error> {
                let n = whole.map_or(self.0, |p| p.matches.min(12));
                let mut w = sim.worker();
                let (tables, tally) = sim.play(&mut w, 7, 0..n, true);
                let played: Vec<_> = runner::pieces(0..n, 5)
                    .map(|piece| sim.play(&mut w, 7, piece, true))
                    .collect();
                let (got, sum) = runner::assemble(played.into_iter());
                assert_eq!(got, tables, "{}", sim.name());
                let json = |t: &Tally| serde_json::to_string(t).expect("serialisable");
                assert_eq!(json(&sum), json(&tally), "{}", sim.name());
                Ok(())
            }
        }
        for w in &workloads() {
            let words = shlex::split(w.command).expect("shell-quoted");
            let words: Vec<&str> = words.iter().map(String::as_str).collect();
            crate::cli::Grammar
                .dataset(&words, "test")
                .unwrap()
                .visit(&Sources::disk(), Pieces((w.matches / 50).clamp(5, 60)))
                .unwrap();
        }
    }

    #[test]
    fn rates_read_whole_from_a_thousand_and_to_three_figures_below() {
        assert_eq!(sig(2_151_234.4), "2,151,234");
        assert_eq!(sig(123.4), "123");
        assert_eq!(sig(12.34), "12.3");
        assert_eq!(sig(1.234), "1.23");
        assert_eq!(sig(0.001234), "0.00123");
    }
}

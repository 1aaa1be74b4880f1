//! `skirmish calibrate` (issue 63): do the 95% intervals cover 95%?
//!
//! For every dataset command of every game (each at a small default), many runs on other seeds
//! are merged into a reference, then many small runs are played and each estimate's 95% interval
//! (every count and mean the command's tally publishes: win shares, per-player and per-team
//! estimates, lengths, scores...) is checked against the reference's value. The share that holds
//! it is the interval's coverage, reported by kind (a tally's group) with its own 95% interval.
//! The match is the unit of independence; a kind whose intervals took rows of one match as
//! independent covers clearly less than 95% (issue 63 found Tag's team sizes at 64%).
//!
//! The reference has sampling noise of its own: with `reference` runs merged it is
//! `1 / reference` of a small run's variance, which lowers a true 95% by about
//! `95% - P(|Z| < 1.96 / sqrt(1 + 1 / reference))` (0.1 point at 100 runs).

use crate::error::Error;
use rayon::prelude::*;

use crate::games::Of;
use crate::platform::answer::{Answer, Apart, Estimate, Provenance, Section, Unit};
use crate::platform::runner::{self, Simulation};
use crate::platform::tally::{Tally, thousands};
use crate::questions::question::Question;
use crate::questions::{Commands, Dataset as _};

/// The section `reproduce` compares and docs/testing.md shows.
pub const COVERAGE: &str = "coverage of the 95% intervals, by kind of estimate";
/// Its section with `--twins` (issue 80: the words).
pub const TWINS: &str = "candidate twins not told from their member, by twin";
/// Its section with `--sensitivity` (issue 80: the words).
pub const SENSITIVITY: &str = "sensitivity's words on moves of no effect";
/// Its section with `--balance` (issue 80: the words).
pub const BALANCE: &str = "balance verdicts right at a known truth, by case";
/// The command, as output folders record it.
const COMMAND: &str = "calibrate";
/// A kind covering less than this is a failure (`--check`): clearly below 95% on a few hundred
/// runs, not a wobble of sampling.
pub const FLOOR: f64 = 0.90;

/// What `skirmish calibrate` was asked (`cli::calibrate` reads it from the command line).
#[derive(Debug, Clone)]
pub struct Settings {
    /// Small runs checked per command (each on a seed of its own).
    pub runs: u64,
    /// Runs of the same size merged into each command's reference value.
    pub reference: u64,
    /// Scale of every small run's match count, in percent.
    pub size: u64,
    /// An estimate is checked where a small run's interval comes from at least this many
    /// matches (a normal interval from a handful is not a 95% one, nor claimed to be).
    pub min_matches: u64,
    /// Only the commands whose words contain this (e.g. `tag`).
    pub only: Option<String>,
    /// Fail (exit 2) when any kind covers less than 90%.
    pub check: bool,
    /// Also each label's coverage (which policy, which team size...).
    pub detail: bool,
    /// The words instead of the intervals (issue 80): each game's candidate twins (a candidate
    /// that plays exactly as a member), `--runs` runs each, and how many of their verdict cards
    /// do not tell the twin from its member (at least 95%, as an interval covers).
    pub twins: bool,
    /// The balance verdict instead of the intervals (issue 80): `--runs` verifications at a
    /// known truth, with the target's tolerance around it (how often PASS: at least 95%) and
    /// with the truth just outside it (how often not PASS: at least 95%).
    pub balance: bool,
    /// Sensitivity's "clear" instead of the intervals (issue 80): `--runs` runs of moves with no
    /// effect, and how many call none of them clear (at least 95%).
    pub sensitivity: bool,
    pub threads: Option<usize>,
    /// A folder for the answer (`result.json`, `report.html`): what `reproduce` records.
    pub out: Option<std::path::PathBuf>,
    /// Accepted for the grammar's sake: calibrate draws no progress bar.
    pub quiet: bool,
}

/// Builds the simulation of the dataset command `words` from the disk's files and hands it to
/// `v`.
fn with_simulation<C: Commands, V: crate::platform::command::WithSimulation>(
    words: &[&str],
    tool: &str,
    v: V,
) -> Result<V::Out, Error> {
    C::default()
        .dataset(words, tool)?
        .visit(&crate::platform::sources::Sources::disk(), v)
}

/// A command checked, at a small size: each game declares its own
/// (`crate::games::Game::calibrate`).
pub type Workload = crate::games::Entry<crate::games::Calibrated>;

/// Every game's checked commands, in the registry's order.
pub fn workloads() -> Vec<Workload> {
    crate::games::entries(|g| g.calibrate)
}

/// A what-if checked (`crate::games::PairedCheck`), each small run cut into [`PARTS`] parts
/// played on the same seeds in both arms.
pub type PairedWorkload = crate::games::Entry<crate::games::PairedCheck>;

/// Every game's checked what-if, in the registry's order.
pub fn paired() -> Vec<PairedWorkload> {
    crate::games::entries(|g| g.paired.as_slice())
}

/// Parts a paired small run is cut into (what a what-if without `--chunk-size` uses).
pub const PARTS: u64 = 20;

/// One kind's coverage: intervals checked and how many held the reference.
#[derive(Clone, Debug)]
pub struct Kind {
    pub game: &'static str,
    pub command: &'static str,
    /// The tally's group ("win share by team"...).
    pub kind: String,
    pub checked: u64,
    pub held: u64,
    /// Each small run's intervals held and checked: a run's labels share its matches, so the
    /// coverage's own interval is by run.
    pub per_run: Vec<(u64, u64)>,
    /// Labels of the kind in the reference (policies, team sizes...).
    pub labels: usize,
    /// Each label's intervals checked and held, the reference value, and the ratio of the
    /// intervals' mean half-width to 1.96 times the spread of the estimates between runs
    /// (1: as wide as they should be).
    pub by_label: Vec<(String, u64, u64, f64, f64)>,
    /// Labels left out: the same in every match of the reference (a rate of 0 or 1, a mean
    /// without spread), which every interval holds by construction.
    pub fixed: usize,
}

impl Kind {
    pub fn coverage(&self) -> f64 {
        self.held as f64 / self.checked.max(1) as f64
    }
    /// The coverage's own 95% interval (runs are independent; labels of one run are not, so
    /// it is a little narrow where a kind has many labels).
    pub fn interval(&self) -> (f64, f64) {
        let mut c = crate::platform::tally::Count::default();
        for &(held, checked) in &self.per_run {
            c.add_match(held, checked);
        }
        c.wilson95()
    }
    /// An interval's: too narrow when clearly under 95%, too wide when clearly over. A word's
    /// (issue 80, `words`): too often wrong when clearly under 95%; right more often is no fault.
    pub fn verdict(&self, words: bool) -> Verdict {
        let (lo, hi) = self.interval();
        if hi < 0.95 {
            if words {
                Verdict::TooOftenWrong
            } else {
                Verdict::TooNarrow
            }
        } else if !words && lo > 0.95 && self.coverage() > 0.99 {
            Verdict::TooWide
        } else {
            Verdict::Ok
        }
    }
}

/// What a kind's coverage (or a word's rate of being right) says, against 95%.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    Ok,
    TooNarrow,
    TooWide,
    TooOftenWrong,
}

impl Verdict {
    pub fn words(self) -> &'static str {
        match self {
            Verdict::Ok => "ok",
            Verdict::TooNarrow => "too narrow",
            Verdict::TooWide => "too wide",
            Verdict::TooOftenWrong => "too often wrong",
        }
    }
}

/// Plays `runs` runs of `matches` matches, run `i` under master seed `first + i`, on the pool.
fn tallies<S: Simulation>(sim: &S, matches: u64, first: u64, runs: u64) -> Vec<Tally> {
    (0..runs)
        .into_par_iter()
        .map_init(
            || sim.worker(),
            |w, i| sim.play(w, first + i, 0..matches, false).1,
        )
        .collect()
}

/// The coverage of every kind of estimate `sim`'s tally publishes.
pub fn coverage<S: Simulation>(sim: &S, w: &Workload, matches: u64, f: &Settings) -> Vec<Kind> {
    // Seeds 1.. for the reference, then the small runs' seeds after them: no run is in both.
    let mut reference = Tally::default();
    for t in tallies(sim, matches, 1, f.reference) {
        reference.merge(&t);
    }
    let small = tallies(sim, matches, 1 + f.reference, f.runs);
    let mut kinds: std::collections::BTreeMap<String, Kind> = Default::default();
    fn kind<'a>(
        kinds: &'a mut std::collections::BTreeMap<String, Kind>,
        w: &Workload,
        name: &str,
    ) -> &'a mut Kind {
        kinds.entry(name.to_string()).or_insert_with(|| Kind {
            game: w.game,
            command: w.command,
            kind: name.to_string(),
            checked: 0,
            held: 0,
            per_run: Vec::new(),
            labels: 0,
            by_label: Vec::new(),
            fixed: 0,
        })
    }
    for (group, labels) in &reference.groups {
        let k = kind(&mut kinds, w, group);
        k.labels = labels.len();
        k.per_run = vec![(0, 0); small.len()];
        for (label, truth) in labels {
            if truth.wins == 0 || truth.wins == truth.trials {
                k.fixed += 1;
                continue;
            }
            check(k, label, truth.rate(), &small, f.min_matches, |t| {
                let c = t.groups.get(group)?.get(label)?;
                let (lo, hi) = c.wilson95();
                Some((c.by_match().matches, c.rate(), lo, hi))
            });
        }
    }
    for (group, labels) in &reference.means {
        let k = kind(&mut kinds, w, group);
        k.labels = labels.len();
        k.per_run = vec![(0, 0); small.len()];
        // Win points are published as a share, with a share's interval.
        let points = group.starts_with(crate::platform::tally::WIN_POINTS);
        let interval = |m: &crate::platform::tally::Mean| {
            if points {
                m.points_estimate()
            } else {
                m.estimate()
            }
        };
        for (label, truth) in labels {
            let (value, lo, hi) = truth.estimate();
            if lo == hi {
                k.fixed += 1;
                continue;
            }
            let truth = if points { 0.5 * value } else { value };
            check(k, label, truth, &small, f.min_matches, |t| {
                let m = t.means.get(group)?.get(label)?;
                let (v, lo, hi) = interval(m);
                Some((m.by_match().matches, v, lo, hi))
            });
        }
    }
    kinds.into_values().filter(|k| k.checked > 0).collect()
}

/// Checks one label's interval in every small run against `truth`: `of` gives a run's matches
/// behind it, its value and its interval (`None`: the run has no such label).
fn check(
    k: &mut Kind,
    label: &str,
    truth: f64,
    small: &[Tally],
    min_matches: u64,
    of: impl Fn(&Tally) -> Option<(u64, f64, f64, f64)>,
) {
    let mut w = Widths::default();
    for (r, t) in small.iter().enumerate() {
        let Some((matches, v, lo, hi)) = of(t) else {
            continue;
        };
        if matches < min_matches {
            continue;
        }
        k.per_run[r].0 += w.add(v, lo, hi, truth) as u64;
        k.per_run[r].1 += 1;
    }
    k.checked += w.checked;
    k.held += w.held;
    k.by_label
        .push((label.to_string(), w.checked, w.held, truth, w.ratio()));
}

/// One label's intervals over the small runs.
#[derive(Default)]
struct Widths {
    checked: u64,
    held: u64,
    /// Sums of the estimates, their squares, and the half-widths.
    sum: f64,
    sum_sq: f64,
    half: f64,
}

impl Widths {
    /// Whether the interval held the truth.
    fn add(&mut self, value: f64, lo: f64, hi: f64, truth: f64) -> bool {
        let held = lo <= truth && truth <= hi;
        self.checked += 1;
        self.held += held as u64;
        self.sum += value;
        self.sum_sq += value * value;
        self.half += 0.5 * (hi - lo);
        held
    }

    /// Mean half-width over 1.96 x the estimates' standard deviation between runs.
    fn ratio(&self) -> f64 {
        let n = self.checked as f64;
        if n < 2.0 {
            return f64::NAN;
        }
        let var = (self.sum_sq - self.sum * self.sum / n) / (n - 1.0);
        self.half / n / (crate::stats::Z95 * var.max(0.0).sqrt())
    }
}

/// The coverage of every paired difference a what-if of `pw` publishes: the reference is the
/// difference pooled over the reference runs (both arms on the same seeds), each small run's
/// interval is the one its parts' paired differences give.
fn paired_coverage<C: Commands>(
    pw: &PairedWorkload,
    matches: u64,
    f: &Settings,
) -> Result<Vec<Kind>, Error> {
    use crate::platform::pairing::Pairing;
    let mut q = Question::<C>::new(pw.command, &[])?;
    let (from, _) = q
        .name(crate::questions::question::Named::Rules(pw.key.to_string()))?
        .ok_or_else(|| format!("{}: `{}` has no value", pw.command, pw.key))?;
    let (a, b) = ([from], [pw.to]);
    let reference: Vec<(u64, std::ops::Range<u64>)> =
        (0..f.reference).map(|i| (1 + i, 0..matches)).collect();
    let parts = PARTS.min(matches).max(1);
    let cut = |k: u64| k * matches / parts;
    let small: Vec<(u64, std::ops::Range<u64>)> = (0..f.runs)
        .flat_map(|r| (0..parts).map(move |k| (1 + f.reference + r, cut(k)..cut(k + 1))))
        .collect();
    let pair = |x: &[Tally], y: &[Tally], keys: &[(u64, u64)]| {
        let px: Vec<(u64, u64, &Tally)> = keys.iter().zip(x).map(|(k, t)| (k.0, k.1, t)).collect();
        let py: Vec<(u64, u64, &Tally)> = keys.iter().zip(y).map(|(k, t)| (k.0, k.1, t)).collect();
        Pairing::of(&px, &py)
    };
    let ref_keys: Vec<(u64, u64)> = reference.iter().map(|_| (0, matches)).collect();
    let truth = pair(
        &q.play_each(&a, reference.clone())?,
        &q.play_each(&b, reference)?,
        &ref_keys,
    )
    .ok_or("the reference runs are too few to pair")?;
    let (ta, tb) = (
        q.play_each(&a, small.clone())?,
        q.play_each(&b, small.clone())?,
    );
    let run_keys: Vec<(u64, u64)> = (0..parts).map(|k| (cut(k), cut(k + 1) - cut(k))).collect();
    let n = parts as usize;
    let runs: Vec<Option<Pairing>> = (0..f.runs as usize)
        .map(|r| pair(&ta[r * n..(r + 1) * n], &tb[r * n..(r + 1) * n], &run_keys))
        .collect();
    let change = format!("{} {from} -> {}", pw.key, pw.to);
    Ok(paired_kinds(pw.game, pw.command, &change, &truth, &runs))
}

/// The coverage of each paired difference `truth` holds by the small runs' intervals, a kind per
/// section ("paired difference, `change`: section").
fn paired_kinds(
    game: &'static str,
    command: &'static str,
    change: &str,
    truth: &crate::platform::pairing::Pairing,
    runs: &[Option<crate::platform::pairing::Pairing>],
) -> Vec<Kind> {
    let mut kinds: std::collections::BTreeMap<String, Kind> = Default::default();
    for ((title, label), &(d, _)) in &truth.by {
        let name = format!("paired difference, {change}: {title}");
        let k = kinds.entry(name.clone()).or_insert_with(|| Kind {
            game,
            command,
            kind: name,
            checked: 0,
            held: 0,
            per_run: vec![(0, 0); runs.len()],
            labels: 0,
            by_label: Vec::new(),
            fixed: 0,
        });
        k.labels += 1;
        // A difference that is 0 in every reference match (a label the rule does not reach)
        // is held by every interval by construction.
        if d == 0.0 {
            k.fixed += 1;
            continue;
        }
        let mut w = Widths::default();
        for (r, p) in runs.iter().enumerate() {
            let Some(&(v, half)) = p
                .as_ref()
                .and_then(|p| p.by.get(&(title.clone(), label.clone())))
            else {
                continue;
            };
            k.per_run[r].0 += w.add(v, v - half, v + half, d) as u64;
            k.per_run[r].1 += 1;
        }
        k.checked += w.checked;
        k.held += w.held;
        k.by_label
            .push((label.clone(), w.checked, w.held, d, w.ratio()));
    }
    kinds.into_values().filter(|k| k.checked > 0).collect()
}

/// The power analysis's command, as the coverage table names it.
const COIN_COMMAND: &str = "analyze rumble powers";
/// Rosters of each small power analysis (at `--size 100`).
const COIN_ROSTERS: u64 = 1_000;
/// Powers whose worth in coins is known by construction (a `coins` power is worth its coins,
/// AR-43; a Refund of strength s is s coins): name, strength (`None`: any), worth.
pub const KNOWN: &[(&str, Option<i32>, f64)] = &[
    ("Calibration +5", None, 5.0),
    ("Calibration +15", None, 15.0),
    ("Calibration +25", None, 25.0),
    ("Calibration +52", None, 52.0),
    ("Debt 15", None, -15.0),
    ("Refund", Some(10), 10.0),
    ("Refund", Some(20), 20.0),
    ("Refund", Some(40), 40.0),
    ("Candidate +15", None, 15.0),
    ("Candidate +16", None, 16.0),
];

/// The power analysis's coin values and its candidates' paired differences (issue 63): `runs`
/// small analyses of the calibration powers (`experiments/powers/calibration.toml`) with two
/// candidates, "+15" (a twin of a catalogue power) and "+16" (a coin more), each on a seed of
/// its own, against one reference run as long as `reference` of them. The powers' worth is
/// also known by construction: how far the reference is from it (the coin curve's linear
/// interpolation between grid points) is said beside, and how often the one-coin gap between
/// "+16" and the catalogue's "+15" is told apart at 5%, paired and unpaired.
fn coin_value_coverage(f: &Settings) -> Result<(Vec<Kind>, Vec<String>), Error> {
    use crate::games::auto_rumble::analysis::power_value::{PowerValue, ValueSettings};
    // Both files held in memory (issue 78: no temporary folder), under the names they go by.
    let catalogue = std::path::Path::new("experiments/powers/calibration.toml");
    let candidates = std::path::Path::new("(the calibration's candidates).toml");
    let mut cand = String::new();
    for c in [15, 16] {
        cand.push_str(&format!(
            "[[power]]\nname = \"Candidate +{c}\"\nsource = \"skirmish\"\ntext = \"Counts as {c} more unspent coins.\"\n\n[[power.clause]]\nwhen = \"passive\"\neffects = [{{ coins = {c} }}]\n\n"
        ));
    }
    let src = crate::platform::sources::Sources::disk()
        .holding(
            catalogue,
            include_str!("../../experiments/powers/calibration.toml"),
        )
        .holding(candidates, cand);
    let rosters = (COIN_ROSTERS * f.size / 100).max(200);
    let settings = ValueSettings {
        power_file: Some(catalogue.display().to_string()),
        candidates: Some(candidates.display().to_string()),
        synergy_per_roster: 0,
        counter_per_roster: 0,
        // A fixed number of rosters (two batches): no stopping rule between the runs.
        precision: f64::MIN_POSITIVE,
        batch: rosters / 2,
        ..ValueSettings::default()
    };
    let mut v = PowerValue::new(&src, settings.clone())?;
    let mut long = PowerValue::new(
        &src,
        ValueSettings {
            batch: rosters * f.reference / 2,
            ..settings
        },
    )?;
    v.settings.max_battles = rosters * v.battles_per_roster();
    long.settings.max_battles = f.reference * v.settings.max_battles;
    let runs = f.runs as usize;
    let blank = |kind: &str| Kind {
        game: "Auto Rumble",
        command: COIN_COMMAND,
        kind: kind.to_string(),
        checked: 0,
        held: 0,
        per_run: vec![(0, 0); runs],
        labels: 0,
        by_label: Vec::new(),
        fixed: 0,
    };
    let mut values = blank("coin value (calibration powers)");
    let mut diffs = blank("paired difference of coin values, candidate minus catalogue power");
    let (mut vw, mut dw): (Vec<Widths>, Vec<Widths>) = Default::default();
    let (mut paired_apart, mut unpaired_apart) = (0u64, 0u64);
    let name = |a: usize| v.cat.name(v.powers[v.arms[a].power]).to_string();
    let known = |a: usize| {
        let arm = &v.arms[a];
        KNOWN
            .iter()
            .position(|k| k.0 == name(a) && k.1.is_none_or(|s| s == arm.strength))
    };
    // The reference: each known power's value, on seed 0 (the small runs' seeds follow).
    let reference = long.run(0, |_| {});
    let mut truth = vec![f64::NAN; KNOWN.len()];
    for row in reference.overall() {
        if let Some(i) = known(row.arm) {
            truth[i] = row.value.x;
        }
    }
    let cand16 = KNOWN
        .iter()
        .position(|k| k.0 == "Candidate +16")
        .expect("listed");
    for r in 0..runs {
        let est = v.run(1 + f.reference + r as u64, |_| {});
        let rows: Vec<_> = est.overall().collect();
        for row in &rows {
            let Some(i) = known(row.arm) else { continue };
            if vw.len() <= i {
                vw.resize_with(KNOWN.len(), Widths::default);
            }
            if row.value.censor != crate::stats::Censor::No || row.value.se == 0.0 {
                continue; // a value on a grid point plays the curve's own battles: exact
            }
            let (lo, hi) = row.value.interval();
            values.per_run[r].0 += vw[i].add(row.value.x, lo, hi, truth[i]) as u64;
            values.per_run[r].1 += 1;
        }
        let plus16 = rows.iter().find(|x| name(x.arm) == "Candidate +16");
        for m in rows
            .iter()
            .filter(|x| v.default_arm[v.arms[x.arm].power] == x.arm)
        {
            let (Some(c), Some(i)) = (plus16, known(m.arm)) else {
                continue;
            };
            let Some(&cov) = est.paired.get(&(c.arm, m.arm)) else {
                continue;
            };
            let var = c.value.se.powi(2) + m.value.se.powi(2) - 2.0 * cov;
            if var <= 0.0 || !var.is_finite() {
                continue;
            }
            if dw.len() <= i {
                dw.resize_with(KNOWN.len(), Widths::default);
            }
            let d = c.value.x - m.value.x;
            let half = crate::stats::Z95 * var.sqrt();
            diffs.per_run[r].0 += dw[i].add(d, d - half, d + half, truth[cand16] - truth[i]) as u64;
            diffs.per_run[r].1 += 1;
            if KNOWN[i].0 == "Calibration +15" {
                let unpaired = c.value.se.powi(2) + m.value.se.powi(2);
                paired_apart += (d.abs() > half) as u64;
                unpaired_apart += (d.abs() > crate::stats::Z95 * unpaired.sqrt()) as u64;
            }
        }
    }
    for (k, w, diff) in [(&mut values, vw, false), (&mut diffs, dw, true)] {
        for (i, w) in w.into_iter().enumerate().filter(|(_, w)| w.checked > 0) {
            let label = match KNOWN[i].1 {
                Some(s) => format!("{} (strength {s})", KNOWN[i].0),
                None => KNOWN[i].0.to_string(),
            };
            k.labels += 1;
            k.checked += w.checked;
            k.held += w.held;
            let ratio = w.ratio();
            let t = if diff {
                truth[cand16] - truth[i]
            } else {
                truth[i]
            };
            k.by_label.push((label, w.checked, w.held, t, ratio));
        }
    }
    let bias: Vec<String> = KNOWN
        .iter()
        .zip(&truth)
        .filter(|(k, t)| !t.is_nan() && !k.0.starts_with("Candidate"))
        .map(|(k, t)| match k.1 {
            Some(s) => format!("{} (strength {s}) {:+.2}", k.0, t - k.2),
            None => format!("{} {:+.2}", k.0, t - k.2),
        })
        .collect();
    let notes = vec![
        format!(
            "a one-coin gap (candidate +16 against the catalogue's +15, {rosters} rosters a run) told apart at 5% in {:.1}% of {runs} runs paired on the same rosters, {:.1}% unpaired",
            100.0 * paired_apart as f64 / runs.max(1) as f64,
            100.0 * unpaired_apart as f64 / runs.max(1) as f64
        ),
        format!(
            "coin values against powers of known worth: the reference run's value minus the worth, in coins (the default grid's linear interpolation, beside sampling error): {}",
            bias.join(", ")
        ),
    ];
    Ok((vec![values, diffs], notes))
}

/// The power analysis's what-if (issue 63: it was compared unpaired): the six sample powers
/// under the seed's rules and under an attack of 20 Energy (`experiments/auto-rumble/
/// costly-attack.toml`) on the same rosters, each small what-if's intervals from its groups of
/// rosters paired ([`PowerValue::replicates`]), against one what-if as long as `reference`.
fn coin_what_if_coverage(f: &Settings) -> Result<Vec<Kind>, Error> {
    use crate::games::auto_rumble::analysis::power_value::{Batches, PowerValue, ValueSettings};
    use crate::platform::pairing::Pairing;
    // The rules held in memory (issue 78: no temporary folder), under the name they go by.
    let rules = std::path::Path::new("experiments/auto-rumble/costly-attack.toml");
    let src = crate::platform::sources::Sources::disk().holding(
        rules,
        include_str!("../../experiments/auto-rumble/costly-attack.toml"),
    );
    let rosters = (COIN_ROSTERS * f.size / 100).max(200);
    let arm = |rules_file: Option<String>, n: u64| {
        let mut v = PowerValue::new(
            &src,
            ValueSettings {
                rules_file,
                synergy_per_roster: 0,
                counter_per_roster: 0,
                precision: f64::MIN_POSITIVE,
                batch: n / 2,
                ..ValueSettings::default()
            },
        )?;
        v.settings.max_battles = n * v.battles_per_roster();
        Ok::<_, Error>(v)
    };
    let changed = Some(rules.display().to_string());
    let (a, b) = (arm(None, rosters)?, arm(changed.clone(), rosters)?);
    let (la, lb) = (
        arm(None, rosters * f.reference)?,
        arm(changed, rosters * f.reference)?,
    );
    let pair = |a: &PowerValue, b: &PowerValue, seed: u64| {
        let (_, _, sa) = a.run_from(seed, None, &Batches::new(), |_| {});
        let (_, _, sb) = b.run_from(seed, None, &Batches::new(), |_| {});
        Pairing::of_replicates(&a.replicates(&sa, seed)?, &b.replicates(&sb, seed)?)
    };
    let truth = pair(&la, &lb, 0).ok_or("the reference what-if did not pair")?;
    let runs: Vec<Option<Pairing>> = (0..f.runs)
        .map(|r| pair(&a, &b, 1 + f.reference + r))
        .collect();
    Ok(paired_kinds(
        "Auto Rumble",
        COIN_COMMAND,
        "attack_cost 10 -> 20",
        &truth,
        &runs,
    ))
}

/// The item analysis's command, as the coverage table names it.
const ITEMS_COMMAND: &str = "analyze loot items";
/// Battles per class and per pairing cell of each small item analysis (at `--size 100`).
const ITEMS_BATTLES: (u64, u64) = (500, 100);

/// A ledger analysis's what-if (issue 65: what `--versus-rules`, `diff` and `sensitivity` of
/// `analyze loot items` publish): the study under the seed's rules and with the Mage's health 95
/// on the same battles, each small what-if's intervals from the jackknife over its groups of
/// battles ([`crate::platform::command::with_jackknife`]), against one what-if as long as
/// `reference` small ones.
fn items_what_if_coverage<C: Commands>(f: &Settings) -> Result<Vec<Kind>, Error> {
    use crate::platform::pairing::{Pairing, Replicates};
    // The rules held in memory (issue 78: no temporary folder).
    let rules = "(the Mage at health 95).toml";
    let src = crate::platform::sources::Sources::disk().holding(
        std::path::Path::new(rules),
        "[champion.mage]\nhealth = 95\n",
    );
    let scale = |n: u64| (n * f.size / 100).max(20);
    // The analysis asked in memory as the command line would (its answer and the jackknife's
    // replicates, as `analyze loot items` writes them), on the current pool.
    let replicates = |rules: Option<&str>, times: u64, seed: u64| -> Result<Replicates, Error> {
        let (battles, cell) = (
            scale(ITEMS_BATTLES.0) * times,
            scale(ITEMS_BATTLES.1) * times,
        );
        let mut words: Vec<String> = ITEMS_COMMAND.split(' ').map(String::from).collect();
        words.extend([
            "--battles".into(),
            battles.to_string(),
            "--cell".into(),
            cell.to_string(),
            "--seed".into(),
            seed.to_string(),
            "--threads".into(),
            rayon::current_num_threads().to_string(),
            "--quiet".into(),
        ]);
        if let Some(r) = rules {
            words.extend(["--rules".into(), r.to_string()]);
        }
        let ctx = crate::platform::context::Context::of_process()
            .reading(src.clone())
            .in_memory();
        C::default()
            .findings(&ctx, words)?
            .replicates
            .ok_or_else(|| Error::from("the study kept no groups"))
    };
    let pair = |times: u64, seed: u64| {
        Pairing::of_replicates(
            &replicates(None, times, seed).ok()?,
            &replicates(Some(rules), times, seed).ok()?,
        )
    };
    let truth = pair(f.reference, 0).ok_or("the reference what-if did not pair")?;
    let runs: Vec<Option<Pairing>> = (0..f.runs).map(|r| pair(1, 1 + f.reference + r)).collect();
    Ok(paired_kinds(
        "Loot Arena",
        ITEMS_COMMAND,
        "champion.mage.health 85 -> 95",
        &truth,
        &runs,
    ))
}

/// Parts a twin's run is cut into for its differences' variances (a dataset's chunks).
const TWIN_PARTS: u64 = 20;

/// Each game's candidate twins ([`crate::games::Twin`]): `runs` runs of each (seeds of their
/// own), each run's verdict card read for which members it told apart from the candidate
/// ([`Apart`]): a dataset command's card made as a candidate run's answer makes it
/// ([`crate::platform::pairing::candidate_standings`], its matches in [`TWIN_PARTS`] parts), an
/// analysis's answer asked in memory. A run holds when no twin of the candidate is called
/// clearly better or worse. One kind per twin, checked as a word: at least 95%.
fn twin_kinds<C: Commands>(f: &Settings) -> Result<Vec<Kind>, Error> {
    let mut out = Vec::new();
    for t in crate::games::entries(|g| g.twins) {
        if f.only.as_deref().is_some_and(|o| !t.command.contains(o)) {
            continue;
        }
        let q = Question::<C>::new(t.command, &[])?;
        let cards = if q.size_flag().is_some() {
            analysis_cards::<C>(&t, &q, f)?
        } else {
            dataset_cards::<C>(&t, f)?
        };
        // The twin against the members it plays as, in every section it is ranked in; None:
        // ranked nowhere beside them (not a check).
        let held: Vec<(u64, u64)> = cards
            .iter()
            .filter_map(|card| {
                let mine: Vec<&Apart> = card
                    .iter()
                    .filter(|a| a.candidate == t.candidate && t.of.holds(&a.member))
                    .collect();
                (!mine.is_empty()).then(|| (!mine.iter().any(|a| a.told) as u64, 1))
            })
            .collect();
        if held.is_empty() {
            return Err(Error::Input(format!(
                "`{}`: the candidate `{}` is ranked beside {} in no section of its answer",
                t.command,
                t.candidate,
                t.of.words()
            )));
        }
        out.push(Kind {
            game: t.game,
            command: t.command,
            kind: match t.of {
                Of::Member(m) => {
                    format!("candidate twin of {m}: runs whose card does not tell it from its twin")
                }
                Of::Every => {
                    "a field of twins: runs whose card calls no member clearly better or worse"
                        .into()
                }
            },
            checked: held.len() as u64,
            held: held.iter().map(|x| x.0).sum(),
            per_run: held,
            labels: 1,
            by_label: Vec::new(),
            fixed: 0,
        });
    }
    Ok(out)
}

/// A dataset twin's runs: each run's card, as its answer would say it.
fn dataset_cards<C: Commands>(
    t: &crate::games::Entry<crate::games::Twin>,
    f: &Settings,
) -> Result<Vec<Vec<Apart>>, Error> {
    let split = shlex::split(t.command).expect("a twin's command is shell-quoted");
    let words: Vec<&str> = split.iter().map(String::as_str).collect();
    struct Cards<'a> {
        candidate: &'a str,
        matches: u64,
        runs: u64,
        first: u64,
    }
    impl crate::platform::command::WithSimulation for Cards<'_> {
        type Out = Vec<Vec<Apart>>;
        fn with<S: Simulation>(
            self,
            sim: &S,
            _whole: Option<crate::platform::plan::Plan>,
        ) -> Result<Self::Out, Error> {
            let Cards {
                candidate,
                matches,
                runs,
                first,
            } = self;
            Ok((0..runs)
                .into_par_iter()
                .map_init(
                    || sim.worker(),
                    |w, r| {
                        let step = matches.div_ceil(TWIN_PARTS);
                        let parts: Vec<Tally> = (0..matches)
                            .step_by(step as usize)
                            .map(|a| sim.play(w, first + r, a..(a + step).min(matches), false).1)
                            .collect();
                        let mut whole = Tally::default();
                        for p in &parts {
                            whole.merge(p);
                        }
                        let sections = Answer::sections(&whole, sim.ranked());
                        let refs: Vec<&Tally> = parts.iter().collect();
                        let (_, standings) = crate::platform::pairing::candidate_standings(
                            candidate, &sections, &refs,
                        );
                        standings
                            .iter()
                            .flat_map(|(k, _, apart)| {
                                let sec = &sections[*k];
                                sec.estimates
                                    .iter()
                                    .filter(|e| e.label != candidate)
                                    .zip(apart)
                                    .map(|(e, &told)| Apart {
                                        candidate: candidate.to_string(),
                                        member: e.label.clone(),
                                        section: sec.title.clone(),
                                        told,
                                    })
                            })
                            .collect()
                    },
                )
                .collect())
        }
    }
    with_simulation::<C, _>(
        &words,
        "calibrate",
        Cards {
            candidate: t.candidate,
            matches: (t.matches * f.size / 100).max(TWIN_PARTS),
            runs: f.runs,
            first: 1 + f.reference,
        },
    )
}

/// An analysis twin's runs: each run's answer asked in memory on a seed of its own, and what
/// its card told apart ([`Answer::apart`]).
fn analysis_cards<C: Commands>(
    t: &crate::games::Entry<crate::games::Twin>,
    q: &Question<C>,
    f: &Settings,
) -> Result<Vec<Vec<Apart>>, Error> {
    let size = (t.matches * f.size / 100).max(1);
    (0..f.runs)
        .map(|r| Ok(q.answer(&[], 1 + f.reference + r, size)?.0.apart))
        .collect()
}

/// What `--balance` verifies: a dataset command, the section and estimate its target reads.
const BALANCE_COMMAND: &str = "simulate loot";
const BALANCE_SECTION: &str = "win share by pair";
const BALANCE_LABEL: &str = "Gladiator+Mage";
/// Matches of each reference run (at `--size 100`).
const BALANCE_REFERENCE: u64 = 20_000;
/// The verification's standard error, as a share of the tolerance: a fifth, where an
/// equivalence test PASSes a truth at the tolerance's centre 99.8% of the time.
const BALANCE_SE: f64 = 0.2;

/// A balance case's kind: each run right or not.
fn balance_kind(kind: &str, per_run: Vec<u64>) -> Kind {
    Kind {
        game: "Loot Arena",
        command: BALANCE_COMMAND,
        kind: kind.to_string(),
        checked: per_run.len() as u64,
        held: per_run.iter().sum(),
        per_run: per_run.into_iter().map(|h| (h, 1)).collect(),
        labels: 1,
        by_label: Vec::new(),
        fixed: 0,
    }
}

/// The number the searched case tunes, its range and its seed value (where the truth is).
const BALANCE_KEY: &str = "champion.mage.health";
const BALANCE_RANGE: (f64, f64) = (60.0, 110.0);
const BALANCE_SEED_VALUE: f64 = 85.0;

/// A balance asked of a [`Question`] in memory, as the search asks it.
struct InMemory<'a, C: Commands>(&'a Question<C>);

impl<C: Commands> crate::platform::balance::Ask for InMemory<'_, C> {
    fn ask(
        &self,
        point: &[f64],
        seed: u64,
        matches: std::ops::Range<u64>,
    ) -> Result<crate::platform::balance::Sums, Error> {
        self.0.sums(point, seed, matches)
    }
}

/// The whole balance where the target is reachable (issue 80: PASS meant "not rejected", and a
/// search tuned Loot's Mage health anywhere from 74 to 88 for the share 85 gives): each run
/// searches [`BALANCE_KEY`] over [`BALANCE_RANGE`] for the truth at its seed value, each point
/// playing up to `per_point` on the search's own seed, then proves the value found on fresh
/// seeds (`matches`), judged as `balance` judges. Each run's verdict, and the range of values
/// tuned.
fn searched_balance<C: Commands>(
    f: &Settings,
    truth: &Estimate,
    matches: u64,
    per_point: u64,
) -> Result<(Vec<crate::platform::answer::Outcome>, String), Error> {
    use crate::platform::balance::{Aim, Number, Plan, Target, judge, misses, search};
    let mut q = Question::<C>::new(BALANCE_COMMAND, &[])?;
    let at = q.name(crate::questions::question::Named::Rules(BALANCE_KEY.into()))?;
    if at.map(|a| a.0) != Some(BALANCE_SEED_VALUE) {
        return Err(Error::Input(format!(
            "{BALANCE_KEY}: the seed's value is not {BALANCE_SEED_VALUE}"
        )));
    }
    let number = Number {
        name: BALANCE_KEY.into(),
        lo: BALANCE_RANGE.0,
        hi: BALANCE_RANGE.1,
        integer: true,
        start: BALANCE_SEED_VALUE,
    };
    let target = Target {
        section: BALANCE_SECTION.into(),
        label: Some(BALANCE_LABEL.into()),
        aim: Aim::Value(truth.value),
        tolerance: None,
    };
    let (mut outcomes, mut tuned) = (Vec::new(), Vec::new());
    for r in 0..f.runs {
        // Seeds no other case plays: the search's, then the proof's.
        let seed = 1_000_000 + 2 * r;
        let plan = Plan {
            seed,
            per_point,
            batch: (per_point / 10).max(1),
            budget: u64::MAX,
        };
        let ask = InMemory(&q);
        let found = search(
            &ask,
            std::slice::from_ref(&number),
            std::slice::from_ref(&target),
            &plan,
        )?;
        let proof = q.sums(&found.point, seed + 1, 0..matches)?;
        let m = misses(std::slice::from_ref(&target), &proof.sections())?;
        outcomes.push(judge(std::slice::from_ref(&target), &m).0);
        tuned.push(found.point[0]);
    }
    let (lo, hi) = tuned
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &x| {
            (a.min(x), b.max(x))
        });
    Ok((outcomes, format!("{lo:.0} to {hi:.0}")))
}

/// The balance verdict at a known truth (issue 80: PASS meant "not rejected"). The truth is the
/// reference's estimate (`reference` runs merged); each of `runs` verifications plays fresh
/// seeds, sized so that its standard error is a fifth of the tolerance, and is judged as
/// `balance` judges its proof ([`crate::platform::balance::judge`]) against two targets: the
/// tolerance (two points, the default for a share) centred on the truth, where it should PASS,
/// and a band whose lower edge is the truth, where the truth is just outside and it should not.
fn balance_kinds<C: Commands>(f: &Settings) -> Result<(Vec<Kind>, Vec<String>), Error> {
    use crate::platform::answer::Outcome;
    use crate::platform::balance::{Aim, SHARE_TOLERANCE, Target, judge, misses};
    let q = Question::<C>::new(BALANCE_COMMAND, &[])?;
    let merged = |tallies: Vec<Tally>| {
        let mut t = Tally::default();
        for x in &tallies {
            t.merge(x);
        }
        t
    };
    let estimate = |t: &Tally| -> Result<Estimate, Error> {
        Answer::sections(t, &[])
            .into_iter()
            .find(|s| s.title == BALANCE_SECTION)
            .and_then(|s| s.estimates.into_iter().find(|e| e.label == BALANCE_LABEL))
            .ok_or_else(|| {
                Error::Input(format!(
                    "`{BALANCE_COMMAND}`: no {BALANCE_SECTION}: {BALANCE_LABEL}"
                ))
            })
    };
    let per = (BALANCE_REFERENCE * f.size / 100).max(1_000);
    let reference = merged(q.play_each(&[], (1..=f.reference).map(|s| (s, 0..per)).collect())?);
    let truth = estimate(&reference)?;
    let tol = SHARE_TOLERANCE;
    // A standard error shrinks as the square root of the matches.
    let se = truth.se();
    let want = BALANCE_SE * tol;
    let matches = ((per * f.reference) as f64 * (se / want).powi(2) / 100.0).ceil() as u64 * 100;
    let first = 1 + f.reference;
    let runs = q.play_each(&[], (0..f.runs).map(|r| (first + r, 0..matches)).collect())?;
    let target = |aim: Aim| Target {
        section: BALANCE_SECTION.into(),
        label: Some(BALANCE_LABEL.into()),
        aim,
        tolerance: None,
    };
    let p = truth.value;
    let cases = [
        (
            "balance PASS with the truth at its tolerance's centre",
            target(Aim::Band(p - tol, p + tol)),
            true,
        ),
        (
            "balance not PASS with the truth just outside its tolerance",
            target(Aim::Band(p, p + 2.0 * tol)),
            false,
        ),
    ];
    let mut out = Vec::new();
    let mut notes = Vec::new();
    for (kind, t, pass_right) in cases {
        let mut per_run = Vec::new();
        let mut counts = [0u64; 3];
        for tally in &runs {
            let m = misses(std::slice::from_ref(&t), &Answer::sections(tally, &[]))?;
            let (outcome, _) = judge(std::slice::from_ref(&t), &m);
            counts[match outcome {
                Outcome::Pass => 0,
                Outcome::Fail => 1,
                Outcome::Inconclusive => 2,
            }] += 1;
            per_run.push(((outcome == Outcome::Pass) == pass_right) as u64);
        }
        notes.push(format!(
            "{kind}: PASS {}, FAIL {}, INCONCLUSIVE {} of {} verifications",
            counts[0], counts[1], counts[2], f.runs
        ));
        out.push(balance_kind(kind, per_run));
    }
    // The whole balance: a search for the number on seeds of its own, then the proof on fresh
    // ones, with the target the truth at the number's seed value (reachable exactly there).
    // At balance's default sizes (a point a quarter of the proof) the search places the value
    // only as well as a quarter of the proof can: a reachable target must then never FAIL; at
    // twice the proof it should PASS.
    let cases = [
        (
            "balance not FAIL after a search, the target reachable (each point a quarter of the proof, as balance plays by default)",
            matches.div_ceil(4),
            false,
        ),
        (
            "balance PASS after a search, the target reachable (each point twice the proof)",
            2 * matches,
            true,
        ),
    ];
    for (kind, per_point, pass) in cases {
        let (outcomes, tuned) = searched_balance::<C>(f, &truth, matches, per_point)?;
        let count = |o: Outcome| outcomes.iter().filter(|&&x| x == o).count();
        notes.push(format!(
            "{kind}: PASS {}, FAIL {}, INCONCLUSIVE {} of {} balances; {BALANCE_KEY} tuned to {tuned} (the seed's {BALANCE_SEED_VALUE} reaches the target exactly)",
            count(Outcome::Pass),
            count(Outcome::Fail),
            count(Outcome::Inconclusive),
            f.runs,
        ));
        let per_run: Vec<u64> = outcomes
            .iter()
            .map(|&o| if pass { o == Outcome::Pass } else { o != Outcome::Fail } as u64)
            .collect();
        out.push(balance_kind(kind, per_run));
    }
    notes.push(format!(
        "the balance's truth: {BALANCE_SECTION}: {BALANCE_LABEL} {:.2}% [{:.2}, {:.2}] over {} battles (seeds 1 to {}); each verification plays {} battles, its standard error {:.2} points against a tolerance of {:.0}",
        100.0 * p,
        100.0 * truth.lo,
        100.0 * truth.hi,
        thousands(per * f.reference),
        f.reference,
        thousands(matches),
        100.0 * se * ((per * f.reference) as f64 / matches as f64).sqrt(),
        100.0 * tol
    ));
    Ok((out, notes))
}

/// What `--sensitivity` moves: a dataset command at the size of the recorded sensitivity, and
/// how many moves of no effect each run makes (eight numbers, each moved down and up).
const SENSITIVITY_COMMAND: &str = "simulate loot";
const SENSITIVITY_MATCHES: u64 = 20_000;
const NULL_MOVES: u64 = 16;

/// Sensitivity's "clear" where nothing moves (issue 80: 13.5% of moves with no effect read as
/// clear). Each run plays the base on a seed of its own, in sensitivity's parts, and
/// [`NULL_MOVES`] moves of no effect: the same rules on other seeds, in the same parts. (With
/// common random numbers a number the command does not read plays the very same matches and
/// moves nothing, which no test could call clear; a move to other seeds keeps the spread of
/// the matches and has no effect.) Each run's moves are judged as `sensitivity` judges them
/// ([`crate::questions::sensitivity::clear_moves`], one family); a run is right when it calls none clear.
fn sensitivity_kinds<C: Commands>(f: &Settings) -> Result<(Vec<Kind>, Vec<String>), Error> {
    use crate::platform::pairing::Pairing;
    use crate::questions::sensitivity::{PARTS, clear_moves, largest_move, ranked_by_default};
    let q = Question::<C>::new(SENSITIVITY_COMMAND, &[])?;
    let matches = (SENSITIVITY_MATCHES * f.size / 100).max(PARTS);
    let size = matches.div_ceil(PARTS);
    let ranges: Vec<std::ops::Range<u64>> = (0..matches)
        .step_by(size as usize)
        .map(|s| s..(s + size).min(matches))
        .collect();
    let mut per_run = Vec::new();
    let mut picked: Vec<(u64, u64)> = Vec::new();
    let mut called = 0usize;
    for r in 0..f.runs {
        // Run r's base on one seed, its moves on the next ones: no two runs share a seed.
        let first = 1 + r * (1 + NULL_MOVES);
        let jobs: Vec<(u64, std::ops::Range<u64>)> = (0..=NULL_MOVES)
            .flat_map(|k| ranges.iter().map(move |m| (first + k, m.clone())))
            .collect();
        let tallies = q.play_each(&[], jobs)?;
        let points: Vec<Vec<(u64, u64, &Tally)>> = tallies
            .chunks(ranges.len())
            .map(|c| {
                c.iter()
                    .zip(&ranges)
                    .map(|(t, m)| (m.start, m.end - m.start, t))
                    .collect()
            })
            .collect();
        let mut whole = Tally::default();
        for p in &points[0] {
            whole.merge(p.2);
        }
        let sections = Answer::sections(&whole, &[]);
        let ranked = ranked_by_default(&sections);
        let pairings: Vec<(String, Pairing)> = points[1..]
            .iter()
            .enumerate()
            .filter_map(|(k, moved)| {
                Pairing::of(&points[0], moved).map(|p| (format!("move {}", k + 1), p))
            })
            .collect();
        if pairings.len() as u64 != NULL_MOVES {
            return Err(Error::Input(format!(
                "`{SENSITIVITY_COMMAND}`: a move did not pair with its base"
            )));
        }
        let clear = clear_moves(pairings.iter().map(|(n, p)| (n.clone(), p)), &ranked);
        called += clear.len();
        per_run.push(((clear.is_empty()) as u64, 1));
        // Each move's largest move has no effect to find: its interval, widened for the pick,
        // should hold 0.
        let covered = pairings
            .iter()
            .filter_map(|(_, p)| largest_move(p, &ranked))
            .map(|(_, _, d, h)| (d.abs() <= h) as u64);
        picked.push(covered.fold((0, 0), |(a, n), c| (a + c, n + 1)));
    }
    let kind = Kind {
        game: "Loot Arena",
        command: SENSITIVITY_COMMAND,
        kind: format!("sensitivity runs calling none of {NULL_MOVES} moves of no effect clear"),
        checked: per_run.len() as u64,
        held: per_run.iter().map(|x| x.0).sum(),
        per_run,
        labels: 1,
        by_label: Vec::new(),
        fixed: 0,
    };
    let largest = Kind {
        game: "Loot Arena",
        command: SENSITIVITY_COMMAND,
        kind: "a move of no effect: its largest move's interval (widened for the pick) holds 0"
            .into(),
        checked: picked.iter().map(|x| x.1).sum(),
        held: picked.iter().map(|x| x.0).sum(),
        per_run: picked,
        labels: 1,
        by_label: Vec::new(),
        fixed: 0,
    };
    let note = format!(
        "sensitivity: each run plays {} battles on its base seed and on each of {NULL_MOVES} other seeds, in {PARTS} parts; {called} of the {} moves were called clear",
        thousands(matches),
        thousands(NULL_MOVES * f.runs)
    );
    Ok((vec![kind, largest], vec![note]))
}

/// Every workload (or those `--only` names), checked.
pub fn kinds<C: Commands>(f: &Settings) -> Result<Vec<Kind>, Error> {
    Ok(kinds_and_notes::<C>(f)?.0)
}

/// [`kinds`], with what the checks found beside coverage (how often a known gap is told apart).
pub fn kinds_and_notes<C: Commands>(f: &Settings) -> Result<(Vec<Kind>, Vec<String>), Error> {
    let threads = runner::threads(f.threads)?;
    let pool = runner::pool(threads)?;
    if f.balance {
        return pool.install(|| balance_kinds::<C>(f));
    }
    if f.sensitivity {
        return pool.install(|| sensitivity_kinds::<C>(f));
    }
    if f.twins {
        let kinds = pool.install(|| twin_kinds::<C>(f))?;
        if kinds.is_empty() {
            return Err(Error::Input(format!(
                "--only {}: no candidate twin's command contains it",
                f.only.as_deref().unwrap_or("")
            )));
        }
        return Ok((kinds, Vec::new()));
    }
    let mut out = Vec::new();
    let mut notes = Vec::new();
    for w in &workloads() {
        if f.only.as_deref().is_some_and(|o| !w.command.contains(o)) {
            continue;
        }
        let split = shlex::split(w.command).expect("a workload's command is shell-quoted");
        let words: Vec<&str> = split.iter().map(String::as_str).collect();
        let scaled = (w.matches * f.size / 100).max(1);
        struct Check<'a> {
            w: &'a Workload,
            matches: u64,
            f: &'a Settings,
        }
        impl crate::platform::command::WithSimulation for Check<'_> {
            type Out = Vec<Kind>;
            fn with<S: Simulation>(
                self,
                sim: &S,
                whole: Option<crate::platform::plan::Plan>,
            ) -> Result<Vec<Kind>, Error> {
                let matches = whole.map_or(self.matches, |p| p.matches);
                Ok(coverage(sim, self.w, matches, self.f))
            }
        }
        let got = pool.install(|| {
            with_simulation::<C, _>(
                &words,
                "calibrate",
                Check {
                    w,
                    matches: scaled,
                    f,
                },
            )
        })?;
        out.extend(got);
    }
    for pw in &paired() {
        if f.only
            .as_deref()
            .is_some_and(|o| !pw.command.contains(o) && !o.contains("paired"))
        {
            continue;
        }
        let scaled = (pw.matches * f.size / 100).max(PARTS);
        out.extend(pool.install(|| paired_coverage::<C>(pw, scaled, f))?);
    }
    if f.only.as_deref().is_none_or(|o| COIN_COMMAND.contains(o)) {
        let (k, n) = pool.install(|| coin_value_coverage(f))?;
        out.extend(k);
        notes.extend(n);
        out.extend(pool.install(|| coin_what_if_coverage(f))?);
    }
    if f.only.as_deref().is_none_or(|o| ITEMS_COMMAND.contains(o)) {
        out.extend(pool.install(|| items_what_if_coverage::<C>(f))?);
    }

    if out.is_empty() {
        return Err(Error::Input(format!(
            "--only {}: no calibrated command contains it (they are: {})",
            f.only.as_deref().unwrap_or(""),
            workloads()
                .iter()
                .map(|w| w.command)
                .chain([COIN_COMMAND, ITEMS_COMMAND])
                .collect::<Vec<_>>()
                .join("; ")
        )));
    }
    Ok((out, notes))
}

/// `skirmish calibrate`: the table, and the answer into `--out`.
pub fn calibrate<C: Commands>(f: &Settings) -> Result<String, Error> {
    let _claim = match &f.out {
        Some(dir) => Some(crate::platform::dataset::claim_output_folder(dir, COMMAND)?),
        None => None,
    };
    let (kinds, notes) = kinds_and_notes::<C>(f)?;
    // The words (issue 80) are judged by the upper 95% bound of how often they are right: a
    // word right more often than 95% is no fault, as an interval too wide is.
    let words = f.twins || f.balance || f.sensitivity;
    let verdict = |k: &Kind| k.verdict(words);
    let failing: Vec<&Kind> = kinds
        .iter()
        .filter(|k| {
            if words {
                verdict(k) != Verdict::Ok
            } else {
                k.coverage() < FLOOR
            }
        })
        .collect();
    let narrow = kinds
        .iter()
        .filter(|k| matches!(verdict(k), Verdict::TooNarrow | Verdict::TooOftenWrong))
        .count();
    let mut out = format!(
        "{} kinds of {}, each checked on {} runs{}: {} {} within their sampling error{}{}\n\n",
        kinds.len(),
        if f.twins {
            "word (a candidate twin not told from its member, Holm's family over the whole card at 5%)"
        } else if f.balance {
            "verdict (balance's equivalence test at a known truth: right in at least 95% of runs)"
        } else if f.sensitivity {
            "word (sensitivity's \"clear\", Holm's family over every move's estimates at 5%)"
        } else {
            "estimate"
        },
        f.runs,
        if f.twins || f.sensitivity {
            String::new()
        } else {
            format!(" against a reference of {} runs merged", f.reference)
        },
        kinds.iter().filter(|k| verdict(k) == Verdict::Ok).count(),
        if words {
            "right at least 95% of the time"
        } else {
            "cover 95%"
        },
        if narrow > 0 {
            format!(", {narrow} clearly less")
        } else {
            String::new()
        },
        match kinds
            .iter()
            .filter(|k| verdict(k) == Verdict::TooWide)
            .count()
        {
            0 => String::new(),
            n => format!(", {n} clearly more (too wide)"),
        }
    );
    out.push_str(&format!(
        "{:<14} {:<50} {:<44} {:>9} {:>22}  verdict\n",
        "game",
        "command",
        if words {
            "kind of word"
        } else {
            "kind of estimate"
        },
        "checked",
        if words {
            "right [95%]"
        } else {
            "coverage [95%]"
        }
    ));
    for k in &kinds {
        let (lo, hi) = k.interval();
        out.push_str(&format!(
            "{:<14} {:<50} {:<44} {:>9} {:>22}  {}\n",
            k.game,
            k.command,
            crate::platform::escape::plain(&k.kind),
            thousands(k.checked),
            crate::platform::tally::share_cell(k.coverage(), lo, hi),
            verdict(k).words()
        ));
        if f.detail {
            for (label, checked, held, truth, ratio) in &k.by_label {
                out.push_str(&format!(
                    "    {:<60} {:>12.4} {:>6.1}% of {:<5} width x{:.2}\n",
                    crate::platform::escape::plain(label),
                    truth,
                    100.0 * *held as f64 / (*checked).max(1) as f64,
                    checked,
                    ratio
                ));
            }
        }
    }
    for n in &notes {
        out.push_str(&format!("\nnote: {n}\n"));
    }
    if let Some(dir) = &f.out {
        let answer = Answer {
            verdict: Vec::new(),
            highlight: Vec::new(),
            outcome: None,
            apart: Vec::new(),
            title: if f.twins {
                "calibrate --twins: how often a candidate twin is told from its member".into()
            } else if f.balance {
                "calibrate --balance: how often balance's verdict is right at a known truth".into()
            } else if f.sensitivity {
                "calibrate --sensitivity: how often moves of no effect are called clear".into()
            } else {
                "calibrate: how often each kind of 95% interval holds the truth".into()
            },
            provenance: Provenance::of_tool(
                format!(
                    "skirmish calibrate --runs {} --reference {} --size {} --min-matches {}{}{}",
                    f.runs,
                    f.reference,
                    f.size,
                    f.min_matches,
                    f.only
                        .as_ref()
                        .map_or(String::new(), |o| format!(" --only {o}")),
                    if f.twins {
                        " --twins"
                    } else if f.balance {
                        " --balance"
                    } else if f.sensitivity {
                        " --sensitivity"
                    } else {
                        ""
                    }
                ),
                COMMAND,
                f.runs,
                serde_json::json!({
                    "runs": f.runs,
                    "reference": f.reference,
                    "size_percent": f.size,
                    "min_matches": f.min_matches,
                    "workloads": workloads().iter().map(|w| (w.command, w.matches)).collect::<Vec<_>>(),
                }),
            ),
            totals: vec![(
                "kinds of estimate".into(),
                format!(
                    "{} ({} clearly under 95%)",
                    kinds.len(),
                    narrow
                ),
            )],
            sections: vec![Section {
                band: None,
                better: None,
                title: if f.twins {
                    TWINS
                } else if f.balance {
                    BALANCE
                } else if f.sensitivity {
                    SENSITIVITY
                } else {
                    COVERAGE
                }
                .into(),
                meaning: if f.twins {
                    "the share of runs whose verdict card (every difference of every section one family, Holm's at 5%) did not tell the candidate from the member it plays exactly as, with that share's own 95% interval; 95% or more is right"
                } else if f.sensitivity {
                    "the share of sensitivity runs that called none of their moves of no effect clear (one family over every move's estimates, Holm's at 5%), and of moves whose largest move's interval (widened for the pick) held 0, each with that share's own 95% interval; 95% or more is right"
                } else if f.balance {
                    "the share of verifications on fresh seeds whose verdict was right (PASS with the truth at the tolerance's centre; not PASS with the truth on its edge, just outside), with that share's own 95% interval; 95% or more is right"
                } else {
                    "the share of small runs whose 95% interval held the reference value, with that share's own 95% interval (by run: a run's labels share its matches); 95% is right"
                }
                .into(),
                unit: Unit::Share,
                estimates: kinds
                    .iter()
                    .map(|k| {
                        let (lo, hi) = k.interval();
                        Estimate {
                            label: format!("{}: {} ({})", k.game, k.kind, k.command),
                            value: k.coverage(),
                            lo,
                            hi,
                            count: k.checked,
                            exact: false,
                            se: None,
                        }
                    })
                    .collect(),
            }],
            tables: Vec::new(),
            notes: std::iter::once(if f.twins {
                format!(
                    "every run plays its matches on a master seed of its own: seeds {} to {}",
                    f.reference + 1,
                    f.reference + f.runs
                )
            } else if f.sensitivity {
                format!(
                    "every run plays its base and its moves on master seeds of their own: seeds 1 to {}",
                    f.runs * (1 + NULL_MOVES)
                )
            } else {
                format!(
                    "every run plays its matches on a master seed of its own: seeds 1 to {} make the reference, the next {} the small runs",
                    f.reference, f.runs
                )
            })
            .chain(notes.iter().cloned())
            .collect(),
            heatmaps: Vec::new(),
            grids: Vec::new(),
        };
        let files = crate::platform::render::files(&answer).to_vec();
        crate::platform::dataset::replace_folder(dir, COMMAND, &files)?;
        out.push_str(&crate::platform::render::report_line(dir));
    }
    if f.check && !failing.is_empty() {
        return Err(Error::Input(format!(
            "{out}\n{} kinds {}: {}",
            failing.len(),
            if words {
                "are right clearly less often than 95%".to_string()
            } else {
                format!("cover less than {:.0}%", 100.0 * FLOOR)
            },
            failing
                .iter()
                .map(|k| format!("{} ({}): {:.1}%", k.kind, k.command, 100.0 * k.coverage()))
                .collect::<Vec<_>>()
                .join("; ")
        )));
    }
    Ok(out)
}

//! `skirmish balance FILE.toml` (issue 65): which numbers make the game fair. A balance file
//! names a dataset command (the question), the numbers to tune (rules keys or `{{placeholders}}`
//! in the command's input files, each with a range) and targets on the command's estimates; the
//! search finds the values that meet them (or the closest reachable), then proves it on fresh
//! seeds, counts a grid search's matches at the same precision, and writes the tuned inputs.

use crate::error::Error;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::games::file_error::FileCtx;
use crate::platform::answer::{Answer, Outcome, Provenance, Section, Unit};
use crate::platform::balance::{self, Aim, Ask, Number, Sums, Target};
use crate::platform::grid::{Cell, Grid};
use crate::platform::tally::thousands;

use crate::platform::escape::shell_quote;
use crate::platform::runner::threads;
use crate::platform::sources::input_digests;
use crate::questions::Commands;
use crate::questions::question::{Named, Question};

const COMMAND: &str = "balance";
/// `--grid-limit`'s default: the grid is counted, never played unless asked (issue 80: playing
/// it by default cost 8x the search's time for one line of comparison).
pub const GRID_LIMIT: u64 = 0;
const FORMAT: &str = "docs/balance.md";

/// What `skirmish balance` was asked (`cli::balance` reads it from the command line).
#[derive(Clone, Debug)]
pub struct Settings {
    /// The balance file (TOML): `command`, `[[tune]]` and `[[target]]` (docs/balance.md).
    pub file: PathBuf,
    /// The answer's folder.
    pub out: PathBuf,
    /// Master seed of the search's matches; the verification plays seed + 1.
    pub seed: u64,
    /// The most matches the search may play, all points together.
    pub budget: Option<u64>,
    /// Matches of the verification on fresh seeds [default: 4 x the command's matches].
    pub verify: Option<u64>,
    /// The largest grid played for comparison.
    pub grid_limit: u64,
    pub threads: Option<usize>,
    /// No progress line.
    pub quiet: bool,
    /// The share this machine plays in step with the others (`--shard`, or the scheduler's).
    pub shard: Option<crate::platform::plan::Shard>,
    /// Whether the command line named a shard (`--shard` or `--shard-count`).
    pub shard_named: bool,
    /// Seconds a shard waits for the others' slice of a point.
    pub shard_wait: u64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct BalanceFile {
    command: String,
    #[serde(default)]
    tune: Vec<Tune>,
    #[serde(default)]
    target: Vec<TargetSpec>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Tune {
    rules: Option<String>,
    file: Option<PathBuf>,
    placeholder: Option<String>,
    range: [f64; 2],
    integer: Option<bool>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TargetSpec {
    section: String,
    label: Option<String>,
    value: Option<f64>,
    band: Option<[f64; 2]>,
    equal: Option<bool>,
    like: Option<String>,
    /// How far from `value`, `like` or the common mean (`equal`) still counts as met; shares
    /// as fractions (0.02 for two points). Default: two points for a share, else 5% of the
    /// value aimed at.
    tolerance: Option<f64>,
}

/// A balance file read and checked: the question with its numbers named, the numbers, targets.
pub struct Read<C: Commands> {
    pub question: Question<C>,
    pub numbers: Vec<Number>,
    pub targets: Vec<Target>,
}

/// Reads a balance file: every error names the file, line and field.
pub fn read<C: Commands>(path: &Path) -> Result<Read<C>, Error> {
    let text = crate::games::file_error::read(
        &crate::platform::sources::Sources::disk(),
        path,
        "balance file",
    )?;
    let file = path.display().to_string();
    let cx = FileCtx {
        file: &file,
        text: &text,
    };
    let f: BalanceFile = cx.toml(FORMAT)?;
    let err = |field: String, m: String| -> Error { cx.err(None, field, m).into() };
    // What the command says at its first point, placed on the file's `command`; a machine's
    // failure while playing it stays the machine's (exit 1).
    let at_command = |e: Error| match e {
        Error::Machine(_) => e,
        e => err("command".into(), e.to_string()),
    };
    if f.tune.is_empty() {
        return Err(err(
            "command".into(),
            "no [[tune]]: name a number to tune (rules = \"KEY\" or file = \"F\", placeholder = \"NAME\") with its range".into(),
        ));
    }
    if f.target.is_empty() {
        return Err(err(
            "command".into(),
            "no [[target]]: name an estimate of the command's answer and its value, band or equal = true".into(),
        ));
    }
    // Relative paths in the file are the host's, from where the command runs (as on the
    // command line).
    let placeholder_files: Vec<PathBuf> = f.tune.iter().filter_map(|t| t.file.clone()).collect();
    let mut q = Question::new(&f.command, &placeholder_files).map_err(at_command)?;
    let mut numbers = Vec::new();
    for (i, t) in f.tune.iter().enumerate() {
        let field = |k: &str| format!("tune[{i}].{k}");
        let [lo, hi] = t.range;
        if !(lo.is_finite() && hi.is_finite() && lo < hi) {
            return Err(err(
                field("range"),
                format!("[{lo}, {hi}]: give [LOW, HIGH] with LOW below HIGH"),
            ));
        }
        let (named, name) = match (&t.rules, &t.file, &t.placeholder) {
            (Some(k), None, None) => (Named::Rules(k.clone()), k.clone()),
            (None, Some(p), Some(n)) => {
                let file = q.file_index(p).expect("every placeholder file is read");
                (
                    Named::Placeholder {
                        file,
                        name: n.clone(),
                    },
                    n.clone(),
                )
            }
            _ => {
                return Err(err(
                    field("rules"),
                    "give either rules = \"KEY\" (a number of the game's rules) or file = \"F\" with placeholder = \"NAME\"".into(),
                ));
            }
        };
        if numbers.iter().any(|n: &Number| n.name == name) {
            return Err(err(field("rules"), format!("`{name}` is tuned twice")));
        }
        let at = q.name(named).map_err(|e| {
            err(
                if t.rules.is_some() {
                    field("rules")
                } else {
                    field("placeholder")
                },
                e.to_string(),
            )
        })?;
        let whole_ends = lo.fract() == 0.0 && hi.fract() == 0.0;
        let integer = match (at, t.integer) {
            (Some((_, true)), Some(false)) => {
                return Err(err(
                    field("integer"),
                    format!(
                        "`{name}` is a whole number in the rules: leave integer out or set it true"
                    ),
                ));
            }
            (Some((_, whole)), given) => given.unwrap_or(whole),
            (None, given) => given.unwrap_or(whole_ends),
        };
        if integer && !whole_ends {
            return Err(err(
                field("range"),
                format!("[{lo}, {hi}]: a whole number's range has whole ends"),
            ));
        }
        let start = at
            .map(|a| a.0)
            .filter(|v| (lo..=hi).contains(v))
            .unwrap_or((lo + hi) / 2.0);
        numbers.push(Number {
            name,
            lo,
            hi,
            integer,
            start: if integer { start.round() } else { start },
        });
    }
    let mut targets = Vec::new();
    for (i, t) in f.target.iter().enumerate() {
        let field = |k: &str| format!("target[{i}].{k}");
        // TOML reads `nan` and `inf` as numbers; no estimate can be at either (issue 79: a NaN
        // target was reported PASS).
        for (name, v) in t
            .value
            .map(|v| ("value", v))
            .into_iter()
            .chain(t.band.into_iter().flatten().map(|v| ("band", v)))
            .chain(t.tolerance.map(|v| ("tolerance", v)))
        {
            if !v.is_finite() {
                return Err(err(
                    field(name),
                    format!("{v}: give a finite number (shares as fractions: 0.5 for 50%)"),
                ));
            }
        }
        let aim = match (t.value, t.band, t.equal, &t.like) {
            (Some(v), None, None, None) => Aim::Value(v),
            (None, Some([a, b]), None, None) if a <= b => Aim::Band(a, b),
            (None, None, None, Some(o)) if t.label.is_some() => Aim::Like(o.clone()),
            (None, None, None, Some(_)) => {
                return Err(err(
                    field("like"),
                    "like = \"OTHER\" compares the target's label with another: give label too"
                        .into(),
                ));
            }
            (None, Some([a, b]), None, None) => {
                return Err(err(
                    field("band"),
                    format!("[{a}, {b}]: give [LOW, HIGH] with LOW not above HIGH"),
                ));
            }
            (None, None, Some(true), None) => Aim::Equal,
            _ => {
                return Err(err(
                    field("value"),
                    "give one of value = X, band = [LOW, HIGH], like = \"OTHER LABEL\" or equal = true (shares as fractions: 0.5 for 50%)".into(),
                ));
            }
        };
        match (t.tolerance, &aim) {
            (Some(_), Aim::Band(..)) => {
                return Err(err(
                    field("tolerance"),
                    "a band's ends are its tolerance: leave tolerance out, or give value = X with tolerance".into(),
                ));
            }
            (Some(x), _) if x <= 0.0 => {
                return Err(err(
                    field("tolerance"),
                    format!(
                        "{x}: give how far from the aim still counts as met, above 0 (shares as fractions: 0.02 for two points)"
                    ),
                ));
            }
            _ => {}
        }
        if aim == Aim::Equal && t.label.is_some() {
            return Err(err(
                field("label"),
                "equal = true compares every estimate of the section: leave label out".into(),
            ));
        }
        targets.push(Target {
            section: t.section.clone(),
            label: t.label.clone(),
            aim,
            tolerance: t.tolerance,
        });
    }
    let start: Vec<f64> = numbers.iter().map(|n| n.start).collect();
    q.prepare(&start).map_err(at_command)?;
    q.matches = q.matches.filter(|&m| m > 0);
    if q.matches.is_none() {
        return Err(err(
            "command".into(),
            match q.size_flag() {
                Some(flag) => format!("give the analysis its size, at least 1 ({flag} N): each point of the search plays it"),
                None => "give the command its matches, at least 1 (--matches N, or --games N for a tournament): each point of the search plays them".into(),
            },
        ));
    }
    // The targets must be in the command's answer: checked on a few matches before any search.
    let t = q
        .sums(
            &start,
            0,
            // Enough matches for every label to appear (an analysis: its whole size, the
            // labels of a smaller one may be others).
            0..q.matches.unwrap_or(1).clamp(
                1,
                if q.size_flag().is_some() {
                    u64::MAX
                } else {
                    500
                },
            ),
        )
        .map_err(at_command)?;
    let sections = t.sections();
    for (i, tg) in targets.iter().enumerate() {
        match balance::misses(std::slice::from_ref(tg), &sections) {
            Err(e) => return Err(err(format!("target[{i}].{}", e.field.key()), e.message)),
            // A number aimed at 0 has no default tolerance (5% of nothing).
            Ok(m)
                if tg.tolerance.is_none()
                    && matches!(tg.aim, Aim::Value(v) if tg.tolerance(m[0].unit, v) == 0.0) =>
            {
                return Err(err(
                    format!("target[{i}].value"),
                    "aimed at 0, it has no default tolerance (5% of the value): give tolerance = X, how far from 0 still counts as met".into(),
                ));
            }
            Ok(_) => {}
        }
    }
    Ok(Read {
        question: q,
        numbers,
        targets,
    })
}

/// One ask the search made and what it came to, as the folder keeps it.
#[derive(Clone, serde::Serialize, serde::Deserialize)]
struct Asked {
    point: Vec<f64>,
    seed: u64,
    from: u64,
    to: u64,
    sums: Sums,
}

/// The most shards whose slices a balance sums.
const MAX_SHARDS: u64 = 100_000;

/// Where a balance keeps its asks (sealed: an edited sum is refused, never taken as played).
pub const ASKED: &str = "asked.json";

/// Whether `dir` is a balance's folder (it keeps its asks), a link included.
pub fn keeps_asks(dir: &Path) -> bool {
    std::fs::symlink_metadata(dir.join(ASKED)).is_ok()
}

/// The asks an earlier run of the same balance left in its folder, and this run's: asked the
/// same again, a run takes them from there, so a stopped run continues where it stopped and a
/// larger `--budget` plays only what is new (the search is deterministic: it asks the same
/// points in the same order).
struct Kept {
    out: PathBuf,
    identity: serde_json::Value,
    /// `verify`: the folder is read, never written.
    read_only: bool,
    asks: std::sync::Mutex<Vec<Asked>>,
    /// When the folder's copy was last written: at most every few seconds, and at the end.
    written: std::sync::Mutex<std::time::Instant>,
    /// Matches taken from the folder rather than played, and the asks they were.
    reused: std::sync::atomic::AtomicU64,
    reused_asks: std::sync::atomic::AtomicU64,
}

impl Kept {
    /// The folder's asks if they are this balance's (same file, inputs, seed and version); an
    /// edited file is refused, naming it.
    fn open(out: &Path, identity: serde_json::Value, read_only: bool) -> Result<Kept, Error> {
        let path = out.join(ASKED);
        let mut asks: Vec<Asked> = Vec::new();
        let stored = crate::platform::digest::read_sealed_if_there(&path)?;
        if read_only {
            // `verify`: the asks must be this very balance's, on the inputs as they are here.
            let Some(recorded) = stored.as_ref().and_then(|s| s.get("identity")) else {
                return Err(Error::Input(format!(
                    "{}: missing: a balance folder keeps its asks there",
                    path.display()
                )));
            };
            if let Some(d) = crate::platform::dataset::first_difference(
                recorded,
                &identity,
                ["recorded", "here"],
            ) {
                return Err(Error::Input(format!(
                    "{}: the folder's balance is not the one its inputs make here ({d}): verify it where its files are as they were, with this version",
                    path.display()
                )));
            }
        }
        if let Some(stored) = stored
            && stored.get("identity") == Some(&identity)
        {
            asks = serde_json::from_value(stored["asks"].clone()).map_err(|e| {
                format!(
                    "{}: `asks`: not as skirmish writes them ({e}); choose another --out",
                    path.display()
                )
            })?;
            for a in &asks {
                plausible(&path, &a.sums, a.to.saturating_sub(a.from))?;
            }
        }
        Ok(Kept {
            out: out.to_path_buf(),
            identity,
            read_only,
            asks: std::sync::Mutex::new(asks),
            written: std::sync::Mutex::new(std::time::Instant::now()),
            reused: Default::default(),
            reused_asks: Default::default(),
        })
    }

    /// An ask kept in the folder, or whole in its shards' slices (`OUT/shards/`).
    fn find(
        &self,
        point: &[f64],
        seed: u64,
        m: &std::ops::Range<u64>,
    ) -> Result<Option<Sums>, Error> {
        let kept = {
            let asks = self.asks.lock().expect("no panic holds it");
            asks.iter()
                .find(|a| a.point == point && a.seed == seed && a.from == m.start && a.to == m.end)
                .map(|a| a.sums.clone())
        };
        let found = match kept {
            Some(s) => Some(s),
            None => match self.sliced(&self.key(point, seed, m), m)? {
                Some(sums) => {
                    self.asks.lock().expect("no panic holds it").push(Asked {
                        point: point.to_vec(),
                        seed,
                        from: m.start,
                        to: m.end,
                        sums: sums.clone(),
                    });
                    Some(sums)
                }
                None => None,
            },
        };
        if found.is_some() {
            use std::sync::atomic::Ordering::Relaxed;
            self.reused.fetch_add(m.end - m.start, Relaxed);
            self.reused_asks.fetch_add(1, Relaxed);
        }
        Ok(found)
    }

    /// An ask's name among the shards' slices: this balance's identity and the ask, digested.
    fn key(&self, point: &[f64], seed: u64, m: &std::ops::Range<u64>) -> String {
        let ask = serde_json::json!({
            "identity": self.identity, "point": point, "seed": seed, "from": m.start, "to": m.end,
        });
        crate::platform::digest::sha256_hex(ask.to_string().as_bytes())[..32].to_string()
    }

    fn shards(&self) -> PathBuf {
        self.out.join(crate::platform::ledger::SHARDS)
    }

    /// The ask summed over every shard's slice when all of some run's shards have written theirs.
    fn sliced(&self, key: &str, m: &std::ops::Range<u64>) -> Result<Option<Sums>, Error> {
        let Ok(d) = std::fs::read_dir(self.shards()) else {
            return Ok(None);
        };
        let count = d.filter_map(|e| e.ok()).find_map(|e| {
            let name = e.file_name().to_string_lossy().to_string();
            let rest = name.strip_prefix(&format!("{key}."))?;
            rest.strip_suffix(".json")?
                .split_once("-of-")?
                .1
                .parse::<u64>()
                .ok()
        });
        // A count no run of shards could have (a name in a shared folder is anyone's) is none.
        let Some(n) = count.filter(|n| (1..=MAX_SHARDS).contains(n)) else {
            return Ok(None);
        };
        let paths: Vec<PathBuf> = (0..n).map(|k| self.slice_path(key, k, n)).collect();
        if !paths.iter().all(|p| p.is_file()) {
            return Ok(None);
        }
        let mut sums = Sums::None;
        for (k, p) in (0..n).zip(&paths) {
            let part = slice(m, k, n);
            sums.merge(read_slice(p, part.end - part.start)?);
        }
        Ok(Some(sums))
    }

    fn slice_path(&self, key: &str, k: u64, n: u64) -> PathBuf {
        self.shards().join(format!("{key}.{k}-of-{n}.json"))
    }

    /// Keeps an ask; the folder's copy is rewritten when the last is a few seconds old.
    fn keep(&self, a: Asked) -> Result<(), Error> {
        self.asks.lock().expect("no panic holds it").push(a);
        let mut w = self.written.lock().expect("no panic holds it");
        if !self.read_only && w.elapsed() >= std::time::Duration::from_secs(5) {
            let (name, bytes) = self.file();
            // The folder is made only now: a refused balance file has written nothing.
            crate::platform::dataset::mark_output_folder(&self.out, COMMAND)?;
            crate::platform::dataset::atomic_write(&self.out, &name, &bytes)?;
            *w = std::time::Instant::now();
        }
        Ok(())
    }

    /// The sealed file of every ask so far.
    fn file(&self) -> (String, Vec<u8>) {
        let asks = self.asks.lock().expect("no panic holds it");
        let stored = serde_json::json!({"identity": self.identity, "asks": *asks});
        (
            ASKED.to_string(),
            crate::platform::digest::sealed_text(&stored).into_bytes(),
        )
    }
}

/// One shard's slice of an ask, as it wrote it (sealed: an edited slice is refused), holding
/// `matches` matches.
fn read_slice(p: &Path, matches: u64) -> Result<Sums, Error> {
    let stored = crate::platform::digest::read_sealed(p)?;
    let sums = serde_json::from_value(stored["sums"].clone())
        .map_err(|e| format!("{}: `sums`: not as skirmish writes them ({e})", p.display()))?;
    plausible(p, &sums, matches)?;
    Ok(sums)
}

/// Kept sums read back from `file` are refused when they cannot be what `matches` matches gave
/// (the check a dataset's parts get): a forged count would reach the search's arithmetic.
fn plausible(file: &Path, sums: &Sums, matches: u64) -> Result<(), Error> {
    let why = match sums {
        Sums::Tally(t) => crate::platform::dataset::implausible_tally(t, matches),
        Sums::None if matches > 0 => Some(format!("no sums for {matches} matches")),
        _ => None,
    };
    match why {
        Some(why) => Err(Error::Input(format!(
            "{}: a point's sums cannot be what its matches gave ({why}); choose another --out",
            file.display()
        ))),
        None => Ok(()),
    }
}

/// A shard of a balance run in step with the others: its index and count, and how long it
/// waits for the others' slices.
struct InStep {
    shard: crate::platform::plan::Shard,
    wait: std::time::Duration,
}

/// The K-th of N slices of `m` (each point's matches split alike on every shard).
fn slice(m: &std::ops::Range<u64>, k: u64, n: u64) -> std::ops::Range<u64> {
    let len = (m.end - m.start) as u128;
    let at = |i: u64| m.start + (len * i as u128 / n as u128) as u64;
    at(k)..at(k + 1)
}

/// The question asked through a progress line, each ask kept in the folder.
struct Asker<'a, C: Commands> {
    q: &'a Question<C>,
    bar: indicatif::ProgressBar,
    kept: &'a Kept,
    in_step: Option<InStep>,
    /// `verify`: every ask of the search must be in the folder (a finished balance kept them
    /// all); only the proof is played.
    checking: bool,
}

impl<C: Commands> Asker<'_, C> {
    /// This shard's slice of the ask played (unless an earlier run of it wrote it), then every
    /// shard's slice waited for and summed: the same sums as the whole ask on one machine.
    fn in_step(
        &self,
        s: &InStep,
        point: &[f64],
        seed: u64,
        m: &std::ops::Range<u64>,
    ) -> Result<Sums, Error> {
        let (k, n) = (s.shard.index, s.shard.count);
        let key = self.kept.key(point, seed, m);
        let mine = self.kept.slice_path(&key, k, n);
        if !mine.is_file() {
            let part = slice(m, k, n);
            let len = part.end - part.start;
            let sums = if len == 0 {
                Sums::None
            } else {
                self.q.sums(point, seed, part)?
            };
            self.bar.inc(len);
            let dir = self.kept.shards();
            crate::platform::dataset::mark_output_folder_as(
                &self.kept.out,
                COMMAND,
                &format!("shard-{k}-of-{n}"),
            )?;
            std::fs::create_dir_all(&dir).map_err(|e| format!("--out {}: {e}", dir.display()))?;
            let name = mine
                .file_name()
                .expect("a file")
                .to_string_lossy()
                .to_string();
            let stored = serde_json::json!({"sums": sums});
            crate::platform::dataset::atomic_write(
                &dir,
                &name,
                crate::platform::digest::sealed_text(&stored).as_bytes(),
            )?;
        }
        let start = std::time::Instant::now();
        let mut total = Sums::None;
        for other in 0..n {
            let p = self.kept.slice_path(&key, other, n);
            while !p.is_file() {
                if start.elapsed() > s.wait {
                    return Err(Error::Input(format!(
                        "--shard {k}/{n}: shard {other}/{n} has not written its slice of a point ({}) in {} s: is it running, on the same --out (a folder every shard sees)? What this shard played is kept: run it again to continue, or give a longer --shard-wait",
                        p.display(),
                        s.wait.as_secs()
                    )));
                }
                std::thread::sleep(std::time::Duration::from_millis(20));
            }
            let part = slice(m, other, n);
            total.merge(read_slice(&p, part.end - part.start)?);
        }
        Ok(total)
    }
}

impl<C: Commands> Asker<'_, C> {
    /// The ask played here and now, whatever the folder keeps for it (what it keeps is replaced
    /// by what was played).
    fn played(&self, point: &[f64], seed: u64, m: std::ops::Range<u64>) -> Result<Sums, Error> {
        self.kept
            .asks
            .lock()
            .expect("no panic holds it")
            .retain(|a| {
                !(a.point == point && a.seed == seed && a.from == m.start && a.to == m.end)
            });
        self.play(point, seed, m)
    }

    /// The ask played on this machine and kept.
    fn play(&self, point: &[f64], seed: u64, m: std::ops::Range<u64>) -> Result<Sums, Error> {
        let names = self.q.names();
        self.bar.set_message(
            names
                .iter()
                .zip(point)
                .map(|(n, x)| format!("{n} = {x}"))
                .collect::<Vec<_>>()
                .join(", "),
        );
        let bar = &self.bar;
        let t = self.q.sums_told(point, seed, m.clone(), &|n| bar.inc(n))?;
        self.kept.keep(Asked {
            point: point.to_vec(),
            seed,
            from: m.start,
            to: m.end,
            sums: t.clone(),
        })?;
        Ok(t)
    }
}

impl<C: Commands> Ask for Asker<'_, C> {
    fn ask(&self, point: &[f64], seed: u64, m: std::ops::Range<u64>) -> Result<Sums, Error> {
        if let Some(sums) = self.kept.find(point, seed, &m)? {
            return Ok(sums);
        }
        if self.checking {
            return Err(Error::Input(format!(
                "{}: the search asks {} on seed {seed}, matches {}..{}, and the folder does not keep it: the balance was not finished there, or its asks were edited; run it again into the folder to finish it",
                self.kept.out.join(ASKED).display(),
                self.q
                    .names()
                    .iter()
                    .zip(point)
                    .map(|(n, x)| format!("{n} = {x}"))
                    .collect::<Vec<_>>()
                    .join(", "),
                m.start,
                m.end
            )));
        }
        if let Some(s) = &self.in_step {
            let sums = self.in_step(s, point, seed, &m)?;
            self.kept
                .asks
                .lock()
                .expect("no panic holds it")
                .push(Asked {
                    point: point.to_vec(),
                    seed,
                    from: m.start,
                    to: m.end,
                    sums: sums.clone(),
                });
            return Ok(sums);
        }
        self.play(point, seed, m)
    }
}

fn spinner(quiet: bool) -> indicatif::ProgressBar {
    if quiet {
        return indicatif::ProgressBar::hidden();
    }
    let b = indicatif::ProgressBar::with_draw_target(
        None,
        indicatif::ProgressDrawTarget::stderr_with_hz(4),
    );
    b.set_style(
        indicatif::ProgressStyle::with_template(
            "{spinner} {pos} matches played ({per_sec}, {elapsed}) at {msg}",
        )
        .expect("a valid template"),
    );
    // It moves while a long point plays, so a slow question never looks stuck.
    b.enable_steady_tick(std::time::Duration::from_millis(250));
    b
}

/// `--shard` of a balance whose question is an analysis: refused before anything is played
/// (reading the file checks its targets by playing the analysis once). A file that does not
/// parse is left to `read`, which says where.
fn refuse_sharded_analysis<C: Commands>(path: &Path) -> Result<(), Error> {
    let command = std::fs::read_to_string(path)
        .ok()
        .and_then(|t| t.parse::<toml::Table>().ok())
        .and_then(|t| t.get("command").and_then(|c| c.as_str()).map(String::from));
    let analysis = command
        .as_deref()
        .and_then(|c| Question::<C>::new(c, &[]).ok())
        .is_some_and(|q| q.size_flag().is_some());
    if analysis {
        return Err(Error::Input(format!(
            "{}: `command`: --shard: each point of `{}` is the whole analysis, played on one machine; shard a balance of a simulate or tournament command (each point's matches are split), or drop --shard",
            path.display(),
            command.unwrap_or_default()
        )));
    }
    Ok(())
}

/// `skirmish balance`: what it says, and its verdict (the exit code's).
pub fn balance<C: Commands>(f: &Settings) -> Result<(String, Outcome), Error> {
    let _claim = match f.shard {
        None => crate::platform::dataset::claim_output_folder(&f.out, COMMAND)?,
        Some(s) => crate::platform::dataset::claim_shard(
            &f.out,
            &format!("shard-{}-of-{}", s.index, s.count),
            COMMAND,
        )?,
    };
    let threads = threads(f.threads)?;
    let pool = crate::platform::runner::pool(threads)?;
    pool.install(|| run::<C>(f, None))
}

/// `verify`'s replay of a balance folder: how long it may replay kept asks beyond the proof
/// (`None`: every one).
struct Check {
    budget: Option<std::time::Duration>,
}

/// The balance `f` asks: played and written into its folder, or (`check`) recomputed from the
/// folder's kept asks, the proof and a sample of the asks played again, and compared with the
/// folder's files, writing nothing.
fn run<C: Commands>(f: &Settings, check: Option<&Check>) -> Result<(String, Outcome), Error> {
    let shard = f.shard;
    if shard.is_some() {
        refuse_sharded_analysis::<C>(&f.file)?;
    }
    let r = read::<C>(&f.file)?;
    let (q, numbers, targets) = (&r.question, &r.numbers, &r.targets);
    let per_point = q.matches.expect("read checks the matches");
    let batch = (per_point / 10).max(1);
    let plan = balance::Plan {
        seed: f.seed,
        per_point,
        batch,
        budget: f.budget.unwrap_or(u64::MAX),
    };
    // What must be equal for an earlier run's asks to be taken: the balance file, every input
    // it names (by digest), the seed and the version (the budget only says when to stop).
    let identity = serde_json::json!({
        "version": env!("CARGO_PKG_VERSION"),
        "seed": f.seed,
        "inputs": input_digests(&crate::platform::sources::Sources::disk(), std::iter::once(f.file.clone()).chain(q.inputs())),
    });
    let kept = Kept::open(&f.out, identity, check.is_some())?;
    let asker = Asker {
        q,
        bar: spinner(f.quiet),
        kept: &kept,
        in_step: shard.map(|shard| InStep {
            shard,
            wait: std::time::Duration::from_secs(f.shard_wait),
        }),
        checking: check.is_some(),
    };
    let found = balance::search(&asker, numbers, targets, &plan)?;
    // The grid at the same precision: played where it is small enough, else counted.
    let grid_points = balance::grid_size(numbers);
    let grid = if grid_points <= f.grid_limit {
        let (p, miss, played) = balance::grid_search(&asker, numbers, targets, f.seed, per_point)?;
        Some((p, miss, played))
    } else {
        None
    };
    // The proof: fresh seeds the search never played.
    let vseed = f.seed.wrapping_add(1);
    let vmatches = f.verify.unwrap_or(per_point.saturating_mul(4)).max(1);
    // A tournament played whole plays its own count.
    let vmatches = if q.whole() { per_point } else { vmatches };
    // A shard plays its slice like any ask; the run that writes the answer plays the proof
    // itself, whole: no kept or received sum decides a verdict (issue 79: a resealed
    // `asked.json` or shard slice turned FAIL into PASS).
    let vt = match shard {
        Some(_) => asker.ask(&found.point, vseed, 0..vmatches)?,
        None => asker.played(&found.point, vseed, 0..vmatches)?,
    };
    asker.bar.finish_and_clear();
    let checked = balance::misses(targets, &vt.sections())?;
    let answer = answer(f, &r, &found, grid, grid_points, vseed, vmatches, &checked);
    let outcome = answer.outcome.unwrap_or(Outcome::Inconclusive);
    if let Some(s) = shard {
        // Every shard found the same answer; the run without --shard writes it, playing only
        // the proof.
        return Ok((
            format!(
                "shard {s}: its slice of every point played, in {}\n{}\n\nwhen every shard is done, run the same command without --shard: it takes every point of the search from the shards, plays the proof itself, and writes the folder\n",
                kept.shards().display(),
                answer.title
            ),
            outcome,
        ));
    }
    let mut files = crate::platform::render::files(&answer).to_vec();
    let tuned = tuned_files(q, &found.point, &f.out);
    files.extend(tuned.iter().cloned());
    files.push(kept.file());
    if let Some(c) = check {
        return replay_kept(&asker, c, &files, &answer.title).map(|said| (said, outcome));
    }
    crate::platform::dataset::replace_folder(&f.out, COMMAND, &files)?;
    let mut out = String::new();
    let reused = kept.reused.load(std::sync::atomic::Ordering::Relaxed);
    if reused > 0 {
        out.push_str(&format!(
            "continued: {} asks ({} {}) were in {} (an earlier run's of this balance, or its shards'), not played again\n",
            kept.reused_asks.load(std::sync::atomic::Ordering::Relaxed),
            thousands(reused),
            q.unit(),
            f.out.display()
        ));
    }
    out += &crate::platform::render::render(&answer, crate::platform::render::Format::Text);
    for (name, _) in &tuned {
        out.push_str(&format!("tuned: {}\n", f.out.join(name).display()));
    }
    out.push_str(&crate::platform::render::report_line(&f.out));
    Ok((out, outcome))
}

/// The inputs with the tuned numbers filled in: the rules (only the keys that differ from the
/// seed's) and each placeholder file, under `tuned/`.
fn tuned_files<C: Commands>(
    q: &Question<C>,
    point: &[f64],
    out_dir: &Path,
) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    if q.named.iter().any(|n| matches!(n, Named::Rules(_))) || q.rules_file.is_some() {
        out.push((
            "tuned/rules.toml".to_string(),
            format!(
                "# The rules `skirmish balance` tuned (the seed's values for every key not here).\n{}",
                match q.rules_text(point) {
                    t if t.trim().is_empty() => "# (every key at the seed's value)\n".to_string(),
                    t => t,
                }
            )
            .into_bytes(),
        ));
    }
    for (i, (p, text)) in q.files_at(point).into_iter().enumerate() {
        let name = p
            .file_name()
            .map_or("input.toml".into(), |n| n.to_string_lossy().to_string());
        // Two files of one name from two folders keep both (the second numbered).
        let name = if out.iter().any(|(n, _)| *n == format!("tuned/{name}")) {
            format!("{i}-{name}")
        } else {
            name
        };
        // Its includes named from `OUT/tuned/`, where it is written (issue 80).
        let text = crate::questions::question::includes_for(&text, &p, &out_dir.join("tuned"));
        out.push((format!("tuned/{name}"), text.into_bytes()));
    }
    out
}

#[allow(clippy::too_many_arguments)]
fn answer<C: Commands>(
    f: &Settings,
    r: &Read<C>,
    found: &balance::Found,
    grid: Option<(Vec<f64>, f64, u64)>,
    grid_points: u64,
    vseed: u64,
    vmatches: u64,
    checked: &[balance::Miss],
) -> Answer {
    let (q, numbers, targets) = (&r.question, &r.numbers, &r.targets);
    let per_point = q.matches.unwrap_or(0);
    // What a point plays: matches, or an analysis's battles or combats.
    let unit = q.unit();
    // An analysis may stop before its size, at its own precision.
    let upto = if q.size_flag().is_some() {
        "up to "
    } else {
        ""
    };
    let values: Vec<String> = numbers
        .iter()
        .zip(&found.point)
        .map(|(n, x)| format!("{} = {}", n.name, balance::show(*x, n.integer)))
        .collect();
    // Equivalence, not "not rejected" (issue 80): PASS only when every interval lies inside its
    // tolerance, FAIL when one lies wholly outside (the targets' family controlled).
    let (outcome, judged) = balance::judge(targets, checked);
    let pass = outcome == Outcome::Pass;
    let mut notes = Vec::new();
    // The verdict first.
    notes.push(format!(
        "{}: {} on fresh seeds (seed {vseed}, {upto}{} {unit} the search never played): {}",
        outcome.word(),
        values.join(", "),
        thousands(vmatches),
        match outcome {
            Outcome::Pass => "every target met within its tolerance",
            Outcome::Fail => "a target missed beyond its tolerance",
            Outcome::Inconclusive => "not yet shown within every tolerance, nor beyond one",
        }
    ));
    for ((t, m), j) in targets.iter().zip(checked).zip(&judged) {
        let shown: Vec<String> = m
            .estimates
            .iter()
            .map(|e| {
                let est = crate::platform::tally::share_cell(e.value, e.lo, e.hi);
                let est = if m.unit == Unit::Share {
                    est
                } else {
                    format!(
                        "{} [{}, {}]",
                        m.unit.short(e.value),
                        m.unit.short(e.lo),
                        m.unit.short(e.hi)
                    )
                };
                format!("{} {est}", e.label)
            })
            .collect();
        // What counts as met, in the target's own terms.
        let (lo, hi) = j.region;
        let within = match t.aim {
            // A band says its own ends.
            Aim::Band(..) => String::new(),
            Aim::Value(_) => format!(" (met: [{}, {}])", m.unit.short(lo), m.unit.short(hi)),
            Aim::Like(_) | Aim::Equal => format!(" (met: within {})", balance::amount(m.unit, hi)),
        };
        notes.push(format!(
            "{} {}{within}: {}",
            j.outcome.word(),
            t.describe(m.unit),
            shown.join("; ")
        ));
    }
    // What to change (issue 80): a number the search left at its range's end.
    if !pass {
        let ends: Vec<String> = numbers
            .iter()
            .zip(&found.point)
            .filter(|(n, x)| **x == n.lo || **x == n.hi)
            .map(|(n, x)| format!("{} = {}", n.name, balance::show(*x, n.integer)))
            .collect();
        if !ends.is_empty() {
            notes.push(format!(
                "at its range's end: {}; widen the range, or the target is beyond what this number can do",
                ends.join(", ")
            ));
        }
    }
    // What would tell an INCONCLUSIVE apart (the intervals shrink as the square root of the
    // matches), if the estimates stay where they are.
    if outcome == Outcome::Inconclusive {
        let more = judged.iter().filter_map(|j| j.more).fold(1.0f64, f64::max);
        notes.push(if more.is_finite() && more < 1e6 {
            format!(
                "to tell: a verification of about {} {unit} (--verify {}), if the estimates stay where they are; or a wider tolerance",
                thousands((vmatches as f64 * more).ceil() as u64),
                (vmatches as f64 * more).ceil() as u64
            )
        } else {
            "to tell: an estimate sits on its tolerance's edge, where no verification can tell; widen the tolerance or move the range".into()
        });
    }
    // Seen on the search's seeds, not proved: said as what the search saw (issue 80: the
    // advice "a band accepts the nearest" was wrong where the response jumps).
    let at = |x: f64| {
        found
            .response
            .iter()
            .find(|r| r.0 == x)
            .map(|r| found.misses[0].unit.short(r.1.value))
    };
    if let (Some((a, b)), false) = (found.between, pass) {
        let n = &numbers[0];
        let went = match (at(a), at(b)) {
            (Some(x), Some(y)) => format!(" (the estimate went from {x} to {y})"),
            _ => String::new(),
        };
        notes.push(format!(
            "on the search's seeds the target fell between {} = {} and {}{went}, and no value at the search's resolution landed on it",
            n.name,
            balance::show(a, n.integer),
            balance::show(b, n.integer)
        ));
    }
    // What the response does, as the search saw it (issue 80: never advise past the data).
    if let (Some(n), Some(e)) = (numbers.first(), found.misses.first())
        && found.response.len() > 1
    {
        let seen: Vec<String> = found
            .response
            .iter()
            .map(|(x, r)| {
                format!(
                    "{} at {}",
                    e.unit.short(r.value),
                    balance::show(*x, n.integer)
                )
            })
            .collect();
        notes.push(format!(
            "the response on the search's seeds ({} by {}): {} (the response section gives their intervals)",
            targets[0]
                .label
                .as_deref()
                .or(e.estimates.first().map(|x| x.label.as_str()))
                .unwrap_or("the estimate"),
            n.name,
            seen.join(", ")
        ));
        // What to change when the number cannot move the estimate (issue 80: "no effect").
        let values = found.response.iter().map(|r| r.1.value);
        let (lo, hi) = (
            values.clone().fold(f64::INFINITY, f64::min),
            values.fold(f64::NEG_INFINITY, f64::max),
        );
        let tolerance = targets[0].tolerance(e.unit, e.estimates.first().map_or(0.0, |x| x.value));
        if !pass && hi - lo < tolerance {
            notes.push(format!(
                "{} barely moves the estimate: from {} to {} across [{}, {}] on the search's seeds, less than the target's tolerance; tune another number, or widen the range",
                n.name,
                e.unit.short(lo),
                e.unit.short(hi),
                balance::show(n.lo, n.integer),
                balance::show(n.hi, n.integer)
            ));
        }
        if found.crossings.len() > 1 {
            let pairs: Vec<String> = found
                .crossings
                .iter()
                .map(|(a, b)| {
                    format!(
                        "{} and {}",
                        balance::show(*a, n.integer),
                        balance::show(*b, n.integer)
                    )
                })
                .collect();
            notes.push(format!(
                "not monotone: the estimate crossed the target {} times among the scanned values of {} (between {}); the search followed the crossing nearest to it",
                found.crossings.len(),
                n.name,
                pairs.join("; ")
            ));
        }
    }
    if let Some(why) = &found.out_of_reach {
        notes.push(why.clone());
    }
    if found.budget_spent {
        notes.push(format!(
            "the search stopped at its budget ({} {unit}): the values are the best found so far",
            thousands(found.played)
        ));
    }
    let grid_matches = grid_points.saturating_mul(per_point);
    let grid_line = match &grid {
        Some((p, _, played)) => format!(
            "{} points x {} {unit} = {} (played; its best point: {})",
            thousands(grid_points),
            thousands(per_point),
            thousands(*played),
            numbers
                .iter()
                .zip(p)
                .map(|(n, x)| format!("{} = {}", n.name, balance::show(*x, n.integer)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        None => format!(
            "{} points x {} {unit} = {} (counted: more than --grid-limit {} points to play)",
            thousands(grid_points),
            thousands(per_point),
            thousands(grid_matches),
            f.grid_limit
        ),
    };
    let ratio = found.played as f64 / grid_matches.max(1) as f64;
    notes.push(format!(
        "the search played {} {unit} at {} points; a grid search at the same precision: {} {unit} ({}): {}",
        thousands(found.played),
        found.path.len(),
        thousands(grid_matches),
        if grid.is_some() { "played" } else { "counted" },
        share_of_grid(ratio)
    ));
    let mut path = Grid::new(
        "the search's path",
        &format!(
            "each point the search played, in order: its values, the {unit} it played (on the same seeds) and its largest miss"
        ),
        "point",
        &numbers
            .iter()
            .map(|n| (n.name.as_str(), Unit::Number))
            .chain([
                (unit, Unit::Number),
                ("largest miss", Unit::Number),
                ("stopped", Unit::Number),
            ])
            .collect::<Vec<_>>(),
    );
    // A miss of shares in percentage points, as a host reads it (issue 80: "0.0850" read as
    // 8.5%); targets of other units keep the number.
    let shares = !found.misses.is_empty()
        && found
            .misses
            .iter()
            .all(|m| matches!(m.unit, Unit::Share | Unit::Points));
    let miss = |x: f64| {
        if shares {
            format!("{:.2} pt", 100.0 * x)
        } else {
            format!("{x:.4}")
        }
    };
    for (i, s) in found.path.iter().enumerate() {
        path.row(
            format!("{}", i + 1),
            s.point
                .iter()
                .zip(numbers)
                .map(|(x, n)| Cell::Text(balance::show(*x, n.integer)))
                .chain([
                    Cell::Count(s.played),
                    Cell::Text(miss(s.miss)),
                    Cell::Text(s.note.clone()),
                ])
                .collect(),
        );
    }
    let mut sections: Vec<Section> = targets
        .iter()
        .zip(checked)
        .map(|(t, m)| Section {
            band: met_band(t, m),
            better: None,
            title: format!("verification: {}", t.section),
            meaning: format!(
                "at the tuned values, on {upto}{} fresh {unit} (seed {vseed}), with 95% intervals; target: {}",
                thousands(vmatches),
                t.describe(m.unit)
            ),
            unit: m.unit,
            estimates: m.estimates.clone(),
        })
        .collect();
    // The response, one number against one target: the picture a designer wants (issue 80).
    if let (Some(n), Some(t), Some(m)) = (numbers.first(), targets.first(), checked.first())
        && !found.response.is_empty()
    {
        sections.push(Section {
            title: format!("response: {}", t.section),
            meaning: format!(
                "the target's estimate at each value of {} the search played, on the search's seeds and that value's own {unit} (a value stopped early, once clearly on one side, has a wide interval), with 95% intervals; target: {}",
                n.name,
                t.describe(m.unit)
            ),
            unit: m.unit,
            estimates: found
                .response
                .iter()
                .map(|(x, e)| crate::platform::answer::Estimate {
                    label: format!(
                        "{} = {}{}",
                        n.name,
                        balance::show(*x, n.integer),
                        if *x == found.point[0] { " (tuned)" } else { "" }
                    ),
                    ..e.clone()
                })
                .collect(),
            band: met_band(t, m),
            better: None,
        });
    }
    Answer {
        verdict: Vec::new(),
        highlight: Vec::new(),
        outcome: Some(outcome),
        apart: Vec::new(),
        // A title short enough for a phone: several numbers are told in the totals.
        title: format!(
            "balance: {} ({})",
            if values.len() == 1 {
                values[0].clone()
            } else {
                format!("{} numbers tuned", values.len())
            },
            outcome.word()
        ),
        provenance: Provenance {
            seed: f.seed,
            inputs: [(f.file.display().to_string(), digest(&f.file))]
                .into_iter()
                .chain(
                    q.rules_file
                        .iter()
                        .map(|p| (p.display().to_string(), digest(p))),
                )
                .chain(
                    q.files
                        .iter()
                        .map(|(p, _)| (p.display().to_string(), digest(p))),
                )
                .collect(),
            ..Provenance::of_tool(
                format!(
                    "skirmish balance {} --seed {}{}{}{}",
                    shell_quote(&f.file.display().to_string()),
                    f.seed,
                    f.budget.map_or(String::new(), |b| format!(" --budget {b}")),
                    f.verify.map_or(String::new(), |v| format!(" --verify {v}")),
                    // The grid decides what the answer says of it: recorded when not the default.
                    if f.grid_limit == GRID_LIMIT {
                        String::new()
                    } else {
                        format!(" --grid-limit {}", f.grid_limit)
                    },
                ),
                COMMAND,
                found.played,
                serde_json::json!({
                    "command": q.command,
                    "tuned": numbers.iter().map(|n| serde_json::json!({"name": n.name, "range": [n.lo, n.hi], "integer": n.integer})).collect::<Vec<_>>(),
                    "targets": targets.iter().map(|t| t.describe(Unit::Number)).collect::<Vec<_>>(),
                    "per_point": per_point,
                }),
            )
        },
        totals: vec![
            ("tuned".into(), values.join(", ")),
            ("question".into(), q.command.clone()),
            (
                "search".into(),
                format!(
                    "{} points, {} {unit}",
                    found.path.len(),
                    thousands(found.played)
                ),
            ),
            ("grid search at the same precision".into(), grid_line),
            ("search against grid".into(), share_of_grid(ratio)),
            ("method".into(), found.method.to_string()),
        ],
        sections,
        tables: Vec::new(),
        notes,
        heatmaps: Vec::new(),
        grids: vec![path],
    }
}

/// What counts as met for a target, in its estimate's values, to shade behind the response: a
/// band's ends, a value give or take its tolerance, the other estimate's value at the tuned
/// point give or take the margin (`like`); none for "all alike".
fn met_band(t: &balance::Target, m: &balance::Miss) -> Option<(f64, f64)> {
    match &t.aim {
        Aim::Band(a, b) => Some((*a, *b)),
        Aim::Value(v) => {
            let tol = t.tolerance(m.unit, *v);
            Some((v - tol, v + tol))
        }
        Aim::Like(_) => m.estimates.get(1).map(|o| {
            let tol = t.tolerance(m.unit, o.value);
            (o.value - tol, o.value + tol)
        }),
        Aim::Equal => None,
    }
}

/// The search's matches as a share of the grid's: a percentage, or one in how many where that
/// would read 0.0%.
fn share_of_grid(ratio: f64) -> String {
    if ratio >= 0.001 {
        format!("{:.1}% of the grid's matches", 100.0 * ratio)
    } else {
        format!(
            "1 in {} of the grid's matches",
            thousands((1.0 / ratio.max(1e-300)).round().min(u64::MAX as f64) as u64)
        )
    }
}

fn digest(p: &Path) -> String {
    crate::platform::digest::sha256_file(p).unwrap_or_default()
}

/// After a balance folder's answer was recomputed from its kept asks (the proof played again):
/// kept asks drawn afresh at random (a forger cannot know which) played again within the time
/// allowed, or all of them, each compared with what the folder keeps; then every file the
/// balance writes compared with the folder's.
fn replay_kept<C: Commands>(
    asker: &Asker<C>,
    check: &Check,
    files: &[(String, Vec<u8>)],
    title: &str,
) -> Result<String, Error> {
    use std::hash::{BuildHasher, Hasher};
    let start = std::time::Instant::now();
    let mut asks = asker.kept.asks.lock().expect("no panic holds it").clone();
    let total = asks.len();
    // A fresh order each run, from std's per-process random keys (never the balance's seeds).
    let key = std::collections::hash_map::RandomState::new();
    let rank = |a: &Asked| {
        let mut h = key.build_hasher();
        h.write(
            serde_json::to_string(&(&a.point, a.seed, a.from, a.to))
                .unwrap_or_default()
                .as_bytes(),
        );
        h.finish()
    };
    asks.sort_by_cached_key(rank);
    let (mut replayed, mut problems) = (0usize, Vec::new());
    for a in &asks {
        if check.budget.is_some_and(|b| start.elapsed() >= b) {
            break;
        }
        let played = asker.q.sums(&a.point, a.seed, a.from..a.to)?;
        replayed += 1;
        if serde_json::to_value(&played).ok() != serde_json::to_value(&a.sums).ok() {
            problems.push(format!(
                "{} on seed {}, matches {}..{}: its kept sums are not what its matches give",
                asker
                    .q
                    .names()
                    .iter()
                    .zip(&a.point)
                    .map(|(n, x)| format!("{n} = {x}"))
                    .collect::<Vec<_>>()
                    .join(", "),
                a.seed,
                a.from,
                a.to
            ));
        }
    }
    let out = &asker.kept.out;
    if !problems.is_empty() {
        return Err(Error::Input(format!(
            "{}: replayed {replayed} of its {total} kept asks; {} are not what their matches give (the folder was edited): {}",
            out.display(),
            problems.len(),
            problems.join("; ")
        )));
    }
    let same = crate::platform::dataset::compare_folder(out, files)
        .map_err(|e| format!("{}: {e}", out.display()))?;
    Ok(format!(
        "{}: {title}\n  the proof on fresh seeds played again; {same}\n  replayed {replayed} of its {total} kept asks, drawn at random, each one's sums what its matches give{}\n",
        out.display(),
        if replayed < total {
            " (the time allowed ran out: --replay-all replays every one)"
        } else {
            ""
        }
    ))
}

/// `skirmish verify DIR` of a balance folder (issue 79): the question its answer records, on its
/// inputs as they are here (each one's digest checked), asked again from the folder's kept
/// asks: the proof played again always, kept asks drawn afresh at random within `replay_for`
/// seconds (every one with `all`), and every file the balance writes compared with the folder's.
/// Nothing is written.
pub fn verify<C: Commands>(dir: &Path, replay_for: u64, all: bool) -> Result<String, Error> {
    let stored = dir.join(crate::platform::answer::FILE);
    let answer = crate::platform::answer::Answer::read(&stored)?;
    let p = &answer.provenance;
    let refuse = |why: String| {
        Error::Input(format!(
            "{}: `provenance.command`: {why}; nothing was run",
            stored.display()
        ))
    };
    let words = shlex::split(&p.command).ok_or_else(|| refuse("not a command line".into()))?;
    let mut argv = words;
    argv.extend(["--out".into(), dir.display().to_string(), "--quiet".into()]);
    let f = C::default()
        .balance(&argv)
        .map_err(|e| refuse(format!("does not parse now ({e})")))?;
    let Some(f) = f else {
        return Err(refuse(format!(
            "`{}` is not a balance, and the folder keeps a balance's asks",
            crate::platform::escape::plain(&p.command)
        )));
    };
    if f.shard_named {
        return Err(refuse(
            "names a shard; a balance's answer is written by the run without --shard".into(),
        ));
    }
    for (path, digest) in &p.inputs {
        match crate::platform::digest::sha256_file(Path::new(path)) {
            Ok(d) if d == *digest => {}
            Ok(_) => {
                return Err(Error::Input(format!(
                    "{path}: the folder's balance read it with another content (digest {digest}): verify where its inputs are as they were"
                )));
            }
            Err(e) => {
                return Err(Error::Input(format!(
                    "{path}: the folder's balance reads it, and it cannot be read here ({e}): verify where its inputs are"
                )));
            }
        }
    }
    let check = Check {
        budget: (!all).then(|| std::time::Duration::from_secs(replay_for)),
    };
    let threads = threads(f.threads)?;
    let pool = crate::platform::runner::pool(threads)?;
    let (said, _) = pool.install(|| run::<C>(&f, Some(&check)))?;
    let inputs: Vec<String> = p
        .inputs
        .iter()
        .map(|(path, d)| format!("{path} {}", &d[..d.len().min(12)]))
        .collect();
    Ok(format!(
        "{}: a balance folder: `{}` on its inputs ({})\n{said}{}\n",
        dir.display(),
        crate::platform::escape::plain(&p.command),
        inputs.join(", "),
        if all {
            "checked: every file, the proof and every kept ask played again"
        } else {
            "checked: every file, the proof played again and the kept asks the time allowed; --replay-all plays every kept ask again"
        }
    ))
}

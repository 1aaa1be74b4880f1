//! Helpers shared by the integration tests (each test binary uses some of them).
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Output;

/// Holds `got` to the golden file `path` (`UPDATE_GOLDEN=1` writes it first, for a change meant
/// to move it); `what` names the thing compared in the failure.
pub fn assert_golden(path: impl AsRef<Path>, got: &str, what: &str) {
    let path = path.as_ref();
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        fs::write(path, got).unwrap();
    }
    let want = fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{}: {e} (UPDATE_GOLDEN=1 writes it)", path.display()));
    assert_eq!(got, want, "{what} differs from {}", path.display());
}

/// Every part file of a rumble dataset, `table/part-NNNNN.parquet` -> bytes.
pub fn dataset_files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    table_files(dir, &["matches", "heroes"])
}

/// Every part file of the named tables of a dataset, `table/part-NNNNN.parquet` -> bytes.
pub fn table_files(dir: &Path, tables: &[&str]) -> BTreeMap<String, Vec<u8>> {
    let mut out = BTreeMap::new();
    for &table in tables {
        for e in fs::read_dir(dir.join(table)).unwrap() {
            let p = e.unwrap().path();
            let name = format!("{table}/{}", p.file_name().unwrap().to_str().unwrap());
            out.insert(name, fs::read(&p).unwrap());
        }
    }
    out
}

/// A dataset table read back by polars: every part of `dir/name` in part order, stacked.
#[cfg(feature = "parquet")]
pub fn table(dir: &Path, name: &str) -> polars::prelude::DataFrame {
    let mut parts: Vec<PathBuf> = fs::read_dir(dir.join(name))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    parts.sort();
    let mut df: Option<polars::prelude::DataFrame> = None;
    for p in parts {
        let part = skirmish::platform::parquet::read(&p).unwrap();
        match &mut df {
            None => df = Some(part),
            Some(d) => {
                d.vstack_mut(&part).unwrap();
            }
        }
    }
    df.unwrap()
}

/// Parts finished in a dataset's manifest (0 when there is none yet).
pub fn parts_finished(dir: &Path) -> usize {
    fs::read_to_string(dir.join("manifest.json"))
        .map(|m| m.matches("\"part\":").count())
        .unwrap_or(0)
}

/// Starts `skirmish args` writing into `dir` and kills it once `parts` parts are in its manifest
/// (or after a minute); returns the parts it had finished.
pub fn run_killed(args: &[String], dir: &Path, parts: usize) -> usize {
    use std::time::{Duration, Instant};
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_skirmish"))
        .args(args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(60) && parts_finished(dir) < parts {
        std::thread::sleep(Duration::from_millis(2));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    parts_finished(dir)
}

/// The stem of the test file that called (through `#[track_caller]`): the test files share a
/// few binaries, so one file's temporary names must not meet another's.
#[track_caller]
fn caller_file() -> String {
    let file = std::panic::Location::caller().file();
    std::path::Path::new(file)
        .file_stem()
        .map_or_else(String::new, |s| s.to_string_lossy().into_owned())
}

/// Runs the built `skirmish` binary with `args`, its `TMPDIR` an empty folder of its own that
/// must still be empty when it is done: no command makes a temporary folder (issue 78: a
/// question's points, `reproduce` and `bench` used to). Every command the suite runs is checked.
pub fn skirmish(args: &[&str]) -> Output {
    skirmish_in(Path::new("."), args)
}

/// [`skirmish`] run in the folder `dir`.
pub fn skirmish_in(dir: &Path, args: &[&str]) -> Output {
    use std::sync::atomic::{AtomicU64, Ordering};
    static RUN: AtomicU64 = AtomicU64::new(0);
    let tmpdir = std::env::temp_dir().join(format!(
        "skirmish-tmpdir-{}-{}",
        std::process::id(),
        RUN.fetch_add(1, Ordering::Relaxed)
    ));
    let _ = fs::remove_dir_all(&tmpdir);
    fs::create_dir_all(&tmpdir).expect("an empty TMPDIR");
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_skirmish"))
        .args(args)
        .current_dir(dir)
        .env("TMPDIR", &tmpdir)
        .output()
        .expect("the binary runs");
    let left: Vec<String> = fs::read_dir(&tmpdir)
        .expect("TMPDIR is still there")
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    let _ = fs::remove_dir_all(&tmpdir);
    assert!(
        left.is_empty(),
        "`skirmish {}` left {left:?} in its TMPDIR: a command makes no temporary folder",
        args.join(" ")
    );
    o
}

/// A fresh (removed) temporary path, unique to this test process, the calling test file,
/// `prefix` and `name`; removed again when the test is done with it.
#[track_caller]
pub fn tmp(prefix: &str, name: &str) -> Tmp {
    let d = std::env::temp_dir().join(format!(
        "skirmish-{prefix}-{}-{}-{name}",
        std::process::id(),
        caller_file()
    ));
    let _ = fs::remove_dir_all(&d);
    Tmp(d)
}

/// A test's temporary file or folder: removed when dropped, so that test runs leave nothing
/// behind, except when the test is failing (kept to look at).
#[derive(Debug)]
#[must_use = "the path is removed when this is dropped"]
pub struct Tmp(PathBuf);

impl std::ops::Deref for Tmp {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<Path> for Tmp {
    fn as_ref(&self) -> &Path {
        &self.0
    }
}

impl Drop for Tmp {
    fn drop(&mut self) {
        if !std::thread::panicking() {
            let _ = fs::remove_dir_all(&self.0);
            let _ = fs::remove_file(&self.0);
        }
    }
}

/// A small input file a test writes into its process's folder; the file is removed when dropped,
/// and the folder with the last one (tests of one process write side by side, so that files can
/// include each other). Reads as the file's path.
#[derive(Debug)]
#[must_use = "the file is removed when this is dropped"]
pub struct TmpFile(PathBuf, String);

/// Writes `text` to `name` in this test process's folder for the calling test file and `prefix`.
#[track_caller]
pub fn tmp_file(prefix: &str, name: &str, text: &str) -> TmpFile {
    let dir = std::env::temp_dir().join(format!(
        "skirmish-{prefix}-{}-{}",
        std::process::id(),
        caller_file()
    ));
    let path = dir.join(name);
    // Another test's last file may remove the shared folder between the two calls: again.
    for _ in 0..10 {
        fs::create_dir_all(&dir).unwrap();
        if fs::write(&path, text).is_ok() {
            break;
        }
    }
    assert!(path.is_file(), "{} could not be written", path.display());
    let shown = path.display().to_string();
    TmpFile(path, shown)
}

impl std::ops::Deref for TmpFile {
    type Target = str;
    fn deref(&self) -> &str {
        &self.1
    }
}

impl std::fmt::Display for TmpFile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.1)
    }
}

impl Drop for TmpFile {
    fn drop(&mut self) {
        if !std::thread::panicking() {
            let _ = fs::remove_file(&self.0);
            if let Some(dir) = self.0.parent() {
                // Fails while other tests' files are still there.
                let _ = fs::remove_dir(dir);
            }
        }
    }
}

/// The 37 archive powers (experiments/powers/archive.toml) as a catalogue.
pub fn archive() -> skirmish::games::auto_rumble::powers::catalogue::Catalogue {
    skirmish::games::auto_rumble::powers::catalogue::Catalogue::new(
        skirmish::games::auto_rumble::powers::file::load(
            &skirmish::platform::sources::Sources::disk(),
            Path::new("experiments/powers/archive.toml"),
        )
        .unwrap(),
    )
}

/// The archive plus the powers hosts write next (experiments/powers/second-edition.toml, issue 23).
pub fn second_edition() -> skirmish::games::auto_rumble::powers::catalogue::Catalogue {
    skirmish::games::auto_rumble::powers::catalogue::Catalogue::new(
        skirmish::games::auto_rumble::powers::file::load(
            &skirmish::platform::sources::Sources::disk(),
            Path::new("experiments/powers/second-edition.toml"),
        )
        .unwrap(),
    )
}

/// A random hero of archive powers: up to `most` of them, strengths 0..=40, a shuffled order.
pub fn random_archive_loadout(
    cat: &skirmish::games::auto_rumble::powers::catalogue::Catalogue,
    rng: &mut impl rand::Rng,
    most: usize,
) -> skirmish::games::auto_rumble::powers::catalogue::Loadout {
    use rand::RngExt;
    use rand::seq::SliceRandom;
    use skirmish::games::auto_rumble::powers::catalogue::{Held, Loadout, default_order};
    loop {
        let mut held = Vec::new();
        for power in 0..cat.len() as u16 {
            if rng.random_bool(0.12) {
                held.push(Held {
                    power,
                    strength: rng.random_range(0..=40),
                });
            }
        }
        held.shuffle(rng);
        held.truncate(most);
        let mut order = default_order(cat, &held);
        order.shuffle(rng);
        // Some combinations hold too many counters or clauses: draw again.
        if let Ok(l) = Loadout::compile(cat, rng.random_range(-30..=60), &held, &order) {
            return l;
        }
    }
}

/// Auto Rumble power battles worked by hand (tests/games/auto_rumble_archive.rs,
/// tests/games/power_files_second_edition.rs): loadouts by power name, played three ways.
mod rumble_hand {
    pub use skirmish::games::auto_rumble::kernel::data::{DataKernel, Rounds, in_kernel_class};
    pub use skirmish::games::auto_rumble::kernel::general::GeneralKernel;
    pub use skirmish::games::auto_rumble::powers::catalogue::{
        Catalogue, Held, Loadout, Use, default_order,
    };
    pub use skirmish::games::auto_rumble::reference::data::{self, Replay};
}
use rumble_hand::*;

/// A hero: coins, powers (strength 0, or `name=strength`), optional use order.
pub fn hero(cat: &Catalogue, coins: i32, powers: &[&str], order: Option<&[&str]>) -> Loadout {
    let held: Vec<Held> = powers
        .iter()
        .map(|p| {
            let (name, strength) = p.split_once('=').unwrap_or((p, "0"));
            Held {
                power: cat.id(name).unwrap_or_else(|| panic!("no power {name}")),
                strength: strength.parse().unwrap(),
            }
        })
        .collect();
    let order = match order {
        None => default_order(cat, &held),
        Some(o) => o
            .iter()
            .map(|n| {
                if *n == "Attack" {
                    Use::Attack
                } else {
                    Use::Power(cat.id(n).unwrap())
                }
            })
            .collect(),
    };
    Loadout::compile(cat, coins, &held, &order).unwrap()
}

pub fn play_within(
    cat: &Catalogue,
    builds: &[Loadout],
    max_rounds: u32,
    capacity: usize,
) -> Replay {
    let ini: Vec<f64> = (0..builds.len()).map(|k| 0.9 - 0.1 * k as f64).collect();
    let want = data::play(cat, builds, &ini, max_rounds, capacity);
    let mut rec = Rounds::default();
    let got = GeneralKernel::new(capacity).run(cat, builds, &ini, max_rounds, &mut rec);
    assert_eq!(rec.0, want.rounds, "general kernel and reference disagree");
    assert_eq!(got, want.outcome, "general kernel and reference disagree");
    if in_kernel_class(builds) {
        let mut rec = Rounds::default();
        let got = DataKernel::new(capacity).run(cat, builds, &ini, max_rounds, &mut rec);
        assert_eq!(rec.0, want.rounds, "kernel and reference disagree");
        assert_eq!(got, want.outcome, "kernel and reference disagree");
    }
    want
}

pub fn round(r: &Replay, k: usize) -> Vec<(u32, i32)> {
    r.rounds[k - 1].clone()
}

/// Every game, as answers and tables name them (the registry's short names).
pub fn games() -> impl Iterator<Item = &'static str> {
    skirmish::games::GAMES.iter().map(|g| g.name)
}

/// Runs `script` with `sh` in a private mount namespace (`unshare -m`), for tests that need
/// read-only storage. The script exits 77 when it cannot make its mounts and 78 when its
/// read-only mount still takes writes; then `None`, and the test says so and passes.
pub fn in_private_mounts(script: &str) -> Option<Output> {
    let o = std::process::Command::new("unshare")
        .args(["-m", "sh", "-c", script])
        .output()
        .ok();
    let o = o.filter(|o| !matches!(o.status.code(), Some(77) | Some(78)));
    if o.is_none() {
        eprintln!("no read-only bind mount on this machine (unshare -m): skipped");
    }
    o
}

/// `skirmish verify DIR EXTRA...`: its exit code, and what it printed (stdout, then stderr).
pub fn verify(dir: &str, extra: &[&str]) -> (Option<i32>, String) {
    let mut args = vec!["verify", dir];
    args.extend(extra);
    let o = skirmish(&args);
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    (o.status.code(), said)
}

/// The first estimate of section `section` in `answer` (a `result.json`) whose label `matches`.
pub fn estimate_in(
    answer: &serde_json::Value,
    section: &str,
    matches: impl Fn(&str) -> bool,
) -> Option<serde_json::Value> {
    answer["sections"]
        .as_array()?
        .iter()
        .find(|s| s["title"] == section)?["estimates"]
        .as_array()?
        .iter()
        .find(|e| e["label"].as_str().is_some_and(&matches))
        .cloned()
}

/// Runs the shell `commands` with `parent` made read-only and each writable folder of
/// `folders` (writable, name) mounted over `parent/name`, in private mounts, and asserts they
/// succeeded: a folder of one's own under a read-only parent. `false` where the machine allows
/// no such mount (the caller's test says so and passes).
pub fn under_read_only_parent(parent: &Path, folders: &[(&Path, &str)], commands: &str) -> bool {
    let ds = parent.display();
    let mounts: Vec<String> = folders
        .iter()
        .map(|(w, name)| format!("mount --bind {} {ds}/{name}", w.display()))
        .collect();
    let script = format!(
        "mount --bind {ds} {ds} && mount -o remount,ro,bind {ds} || exit 77; \
         touch {ds}/probe 2>/dev/null && exit 78; \
         {} || exit 77; \
         {commands}",
        mounts.join(" && ")
    );
    let Some(o) = in_private_mounts(&script) else {
        return false;
    };
    assert!(
        o.status.success(),
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    true
}

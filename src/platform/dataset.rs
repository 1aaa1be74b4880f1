//! A dataset directory: one folder per table of `part-NNNNN.parquet` files, and a manifest.
//!
//! ```text
//! runs/rumble-ffa/
//!   manifest.json              what made the data (identity) and which parts are finished
//!   matches/part-00000.parquet one file per chunk and table
//!   heroes/part-00000.parquet
//! ```
//!
//! Every file is written under a temporary name and renamed when complete, and a part enters the
//! manifest only after all its tables are renamed: a killed run leaves no truncated file under a
//! real name, and re-running the same command resumes from the manifest. Once the manifest lists
//! [`MANIFEST_SMALL`] parts it is rewritten at most once every [`MANIFEST_EVERY`] while parts
//! arrive, and once at the end (a rewrite per part made runs of thousands of small parts
//! quadratic): a killed run loses at most that long's parts, which a resumed run recomputes. A shard (`--shard K/N`)
//! records its parts in `manifest-shard-K-of-N.json` instead, so machines sharing the folder never
//! write the same file; a later run without `--shard` takes their parts over and writes
//! `manifest.json`.

use crate::error::Error;
use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use super::plan::Shard;
use super::tally::Tally;

/// Makes the folder `dir` (and its parents) for a command's `--out`.
pub fn create_folder(dir: &Path) -> Result<(), Error> {
    fs::create_dir_all(dir).map_err(|e| Error::Input(format!("--out {}: {e}", dir.display())))
}

/// The folder where an analysis's shards keep their cells (`OUT/shards/`).
pub const SHARDS: &str = "shards";

/// How often, at most, a run rewrites its manifest while parts arrive.
pub const MANIFEST_EVERY: std::time::Duration = std::time::Duration::from_secs(1);
/// Parts up to which the manifest is rewritten with every part (it is small: cheap to write).
pub const MANIFEST_SMALL: usize = 100;

pub use super::manifest::{FORMAT, FileRecord, Identity, Manifest, PartRecord};

/// Why the part file at `path` is not the one `want` records: missing, a link, another size,
/// other bytes. `None` when it is.
pub fn check_file(path: &Path, want: &FileRecord) -> Option<String> {
    let meta = match fs::symlink_metadata(path) {
        Ok(m) => m,
        Err(_) => return Some("missing".into()),
    };
    if !meta.file_type().is_file() {
        return Some("not a plain file (a link or a folder)".into());
    }
    if meta.len() != want.bytes {
        return Some(format!("{} bytes, {} recorded", meta.len(), want.bytes));
    }
    match super::digest::sha256_file(path) {
        Ok(d) if d == want.sha256 => None,
        Ok(_) => Some("its bytes differ from the recorded SHA-256".into()),
        Err(e) => Some(format!("unreadable ({e})")),
    }
}

/// Where a part's files go. Issue 66: each worker hashes and writes the part it has just encoded
/// (the bytes still in its cache) instead of handing them to one writer thread on another core;
/// only the manifest, which records parts in order, stays with one thread. A file written but
/// not yet recorded when a run is killed is simply written again when the run continues.
#[derive(Clone, Debug)]
pub struct PartFiles {
    dir: PathBuf,
    tables: Vec<String>,
    tag: String,
}

impl PartFiles {
    /// Writes part `part`'s files (one per table, in the manifest's table order), each through a
    /// temporary name; their digests.
    pub fn write(&self, part: u64, files: &[Vec<u8>]) -> Result<Vec<FileRecord>, Error> {
        assert_eq!(files.len(), self.tables.len());
        let mut records = Vec::with_capacity(files.len());
        for (table, bytes) in self.tables.iter().zip(files) {
            records.push(FileRecord::of(bytes));
            atomic_write_tagged(&self.dir.join(table), &part_name(part), &self.tag, bytes)?;
        }
        Ok(records)
    }
}

/// An open dataset directory.
#[derive(Debug)]
pub struct Dataset {
    dir: PathBuf,
    manifest: Manifest,
    manifest_name: String,
    /// The manifest's lock (an OS advisory lock on `.manifest.lock`, or `.<shard manifest>.lock`
    /// for a shard), held while this value lives and released by the OS if the process dies.
    _lock: fs::File,
    /// The folder's lock (`.folder.lock`): exclusive for a run without `--shard`, shared by
    /// shards, so that shards of one run write together but never beside a whole run (which
    /// takes their parts over).
    _folder_lock: fs::File,
    /// Parts listed by an earlier run whose files no longer match the record (recomputed).
    pub rejected: Vec<(u64, String)>,
    /// Parts recorded in memory since the manifest was last written.
    unwritten: usize,
    last_write: std::time::Instant,
    manifest_writes: u64,
}

/// The lock file `dir/name`, opened (created if needed) but not locked.
fn lock_file(dir: &Path, name: &str) -> Result<fs::File, Error> {
    let path = dir.join(name);
    if fs::symlink_metadata(&path).is_ok_and(|m| !m.file_type().is_file()) {
        return Err(Error::Input(format!(
            "--out {}: {} is not a plain file; remove it",
            dir.display(),
            path.display()
        )));
    }
    fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(&path)
        // A finished folder on read-only storage (issue 53): its lock file opens for reading, and
        // an OS lock holds on a file opened so; a run that must write fails later, by name.
        .or_else(|e| fs::File::open(&path).map_err(|_| e))
        .map_err(|e| {
            Error::Input(format!(
                "--out {}: cannot open the lock {}: {e}",
                dir.display(),
                path.display()
            ))
        })
}

/// Takes the folder lock: exclusive for a whole run, shared for a shard; refused (never waited
/// for) when the other kind holds it.
fn lock_folder(dir: &Path, shard: bool) -> Result<fs::File, Error> {
    let file = lock_file(dir, FOLDER_LOCK)?;
    let got = if shard {
        file.try_lock_shared()
    } else {
        file.try_lock()
    };
    match got {
        Ok(()) => Ok(file),
        Err(fs::TryLockError::WouldBlock) => Err(Error::Input(if shard {
            format!(
                "--out {}: a run without --shard is writing this folder (lock {}); wait for it to finish or choose another --out",
                dir.display(),
                dir.join(FOLDER_LOCK).display()
            )
        } else {
            format!(
                "--out {}: shard runs (--shard) are writing this folder (lock {}); a run without --shard takes their parts over once they have finished: wait for them, or choose another --out",
                dir.display(),
                dir.join(FOLDER_LOCK).display()
            )
        })),
        Err(fs::TryLockError::Error(e)) => Err(Error::Input(format!(
            "--out {}: cannot lock {}: {e}",
            dir.display(),
            dir.join(FOLDER_LOCK).display()
        ))),
    }
}

const FOLDER_LOCK: &str = ".folder.lock";

/// Takes the writer's lock of a manifest, or says who holds it.
fn lock(dir: &Path, name: &str) -> Result<fs::File, Error> {
    let path = dir.join(name);
    let mut file = lock_file(dir, name)?;
    match file.try_lock() {
        Ok(()) => {
            use std::io::Write;
            // Who holds it, for the next writer's message.
            let _ = file.set_len(0);
            let _ = writeln!(file, "pid {}", std::process::id());
            Ok(file)
        }
        Err(fs::TryLockError::WouldBlock) => {
            let holder = fs::read_to_string(&path).unwrap_or_default();
            Err(Error::Input(format!(
                "--out {}: another skirmish run is writing this folder ({}, lock {}); wait for it to finish or choose another --out",
                dir.display(),
                holder.trim(),
                path.display()
            )))
        }
        Err(fs::TryLockError::Error(e)) => Err(Error::Input(format!(
            "--out {}: cannot lock {}: {e}",
            dir.display(),
            path.display()
        ))),
    }
}

pub fn part_name(part: u64) -> String {
    format!("part-{part:05}.parquet")
}

/// Whether `p` names a manifest: `manifest.json` or a shard's `manifest-shard-K-of-N.json`.
fn is_manifest(p: &Path) -> bool {
    p.file_name().and_then(|n| n.to_str()).is_some_and(|n| {
        n == "manifest.json" || (n.starts_with("manifest-shard-") && n.ends_with(".json"))
    })
}

/// The manifests in `dir`: the whole folder's first, then the shards' in name order.
fn manifests_in(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut m: Vec<PathBuf> = fs::read_dir(dir)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| is_manifest(p))
        .collect();
    m.sort_by(|a, b| {
        let shard = |p: &PathBuf| p.file_name() != Some(std::ffi::OsStr::new("manifest.json"));
        (shard(a), a).cmp(&(shard(b), b))
    });
    Ok(m)
}

fn shard_manifest_name(s: Shard) -> String {
    format!("manifest-shard-{}-of-{}.json", s.index, s.count)
}

/// A manifest as its writer sealed it (issue 62: a tally edited plausibly was printed and
/// stored as data): an edit after the run wrote it is refused, naming the file.
fn read_manifest(path: &Path) -> Result<Manifest, Error> {
    let content = super::digest::read_sealed(path)?;
    serde_json::from_value(content).map_err(|e| {
        Error::Input(format!(
            "{}: not a skirmish manifest ({e}); choose another --out or delete the folder",
            path.display()
        ))
    })
}

/// The first field where two identities differ, as `field: A there, B here`.
fn difference(there: &Identity, here: &Identity) -> String {
    let a = serde_json::to_value(there).expect("serialisable");
    let b = serde_json::to_value(here).expect("serialisable");
    first_difference(&a, &b, ["there", "here"]).unwrap_or_else(|| "identical".into())
}

impl Dataset {
    /// Opens (creating if needed) the dataset at `dir` for a run with `identity`, taking over the
    /// finished parts of an earlier run of the same command. A folder holding a different run is
    /// an error, never overwritten.
    pub fn open(
        dir: &Path,
        identity: Identity,
        command: String,
        experiment: Option<String>,
        shard: Option<Shard>,
    ) -> Result<Dataset, Error> {
        if dir.as_os_str().is_empty() {
            return Err("--out: an empty path; name a folder, e.g. --out runs/my-run".into());
        }
        if dir.exists() && !dir.is_dir() {
            return Err(Error::Input(format!(
                "--out {}: exists and is not a folder; choose a folder name",
                dir.display()
            )));
        }
        let manifest_name = match shard {
            Some(s) => shard_manifest_name(s),
            None => "manifest.json".to_string(),
        };
        let lock_name = format!(".{}.lock", manifest_name.trim_end_matches(".json"));
        let mut finished: BTreeMap<u64, PartRecord> = BTreeMap::new();
        let mut rejected = Vec::new();
        // What a run leaves before its first manifest is written (a full disk at the start):
        // lock files, its own temporary files, empty table folders. Such a folder is empty.
        fn leftover(p: &Path, depth: usize) -> bool {
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
            let meta = match fs::symlink_metadata(p) {
                Ok(m) => m,
                Err(_) => return true,
            };
            if meta.file_type().is_file() {
                let ours = name.starts_with(".manifest") || name.starts_with(".part-");
                return name.starts_with('.')
                    && (name.ends_with(".lock") || (ours && name.ends_with(".tmp")));
            }
            meta.file_type().is_dir()
                && depth == 0
                && fs::read_dir(p).is_ok_and(|d| {
                    d.filter_map(|e| e.ok())
                        .all(|e| leftover(&e.path(), depth + 1))
                })
        }
        let foreign = |dir: &Path| -> bool {
            let mut names = match fs::read_dir(dir) {
                Ok(d) => d
                    .filter_map(|e| e.ok())
                    .map(|e| e.path())
                    .collect::<Vec<_>>(),
                Err(_) => return false,
            };
            names.retain(|p| !leftover(p, 0));
            !names.is_empty() && !names.iter().any(|p| is_manifest(p))
        };
        // A folder that is someone else's is refused before anything is created in it.
        if dir.is_dir() && foreign(dir) {
            return Err(Error::Input(format!(
                "--out {}: the folder is not empty and holds no skirmish manifest; \
                 choose an empty or new folder",
                dir.display()
            )));
        }
        // The lock comes next: nothing in the folder is looked at or swept before it is ours.
        let had_dir = dir.is_dir();
        fs::create_dir_all(dir)
            .map_err(|e| format!("--out {}: cannot create it: {e}", dir.display()))?;
        let lock_file = lock(dir, &lock_name)?;
        let folder_lock = lock_folder(dir, shard.is_some())?;
        if had_dir {
            let mut manifests =
                manifests_in(dir).map_err(|e| format!("--out {}: {e}", dir.display()))?;
            // A shard started beside this one may write its manifest between the two looks
            // (a flake of `shards_started_together_all_finish`): a manifest is never foreign,
            // and one that appeared is read with the rest.
            if manifests.is_empty()
                && fs::read_dir(dir)
                    .map(|d| {
                        d.filter_map(|e| e.ok())
                            .any(|e| !leftover(&e.path(), 0) && !is_manifest(&e.path()))
                    })
                    .unwrap_or(false)
            {
                return Err(Error::Input(format!(
                    "--out {}: the folder is not empty and holds no skirmish manifest; \
                     choose an empty or new folder",
                    dir.display()
                )));
            }
            if manifests.is_empty() {
                manifests =
                    manifests_in(dir).map_err(|e| format!("--out {}: {e}", dir.display()))?;
            }
            manifests.sort();
            for path in manifests {
                let m = read_manifest(&path)?;
                // Issue 51: the same run asked for more matches extends it in place.
                let extends = {
                    let mut same = m.identity.clone();
                    same.matches = identity.matches;
                    same == identity
                };
                if extends && identity.matches < m.identity.matches {
                    return Err(Error::Input(format!(
                        "{} holds a run of {} matches; asking for {} would drop finished data: ask for {} or more (more extends it in place), or choose another --out",
                        path.display(),
                        m.identity.matches,
                        identity.matches,
                        m.identity.matches
                    )));
                }
                if m.identity != identity && !extends {
                    return Err(Error::Input(format!(
                        "{} was written by a different run ({}); re-run that exact command to \
                         resume it, or choose another --out",
                        path.display(),
                        difference(&m.identity, &identity)
                    )));
                }
                for p in m.parts {
                    // A part is kept only if every file is still the one recorded (a part from
                    // before digests were recorded is recomputed), and, in an extended run, only
                    // if it is still a whole chunk of the larger plan (its last chunk grows).
                    let cs = identity.chunk_size.max(1);
                    let want = cs.min(identity.matches.saturating_sub(p.part * cs));
                    let problem = if p.matches != want || p.first_match != p.part * cs {
                        Some(format!(
                            "{} matches, the run now asks {want} of this chunk: played again",
                            p.matches
                        ))
                    } else if p.files.len() != identity.tables.len() {
                        Some("no size and digest recorded".to_string())
                    } else if let Some(why) = implausible(&p) {
                        Some(why)
                    } else {
                        identity.tables.iter().zip(&p.files).find_map(|(t, want)| {
                            let path = dir.join(t).join(part_name(p.part));
                            check_file(&path, want).map(|why| format!("{}: {why}", path.display()))
                        })
                    };
                    match problem {
                        None => {
                            finished.insert(p.part, p);
                        }
                        Some(why) => rejected.push((p.part, why)),
                    }
                }
            }
        }
        for t in &identity.tables {
            let sub = dir.join(t);
            if fs::symlink_metadata(&sub).is_ok_and(|m| !m.file_type().is_dir()) {
                return Err(Error::Input(format!(
                    "--out {}: {} is not a plain folder (a link?); remove it",
                    dir.display(),
                    sub.display()
                )));
            }
            fs::create_dir_all(&sub).map_err(|e| {
                format!(
                    "--out {}: cannot create {}: {e}",
                    dir.display(),
                    sub.display()
                )
            })?;
            // Temporary files of a killed run of this manifest (they carry its tag, and we hold
            // its lock): never complete, safe to drop. Another shard's are left alone.
            let ours = format!(".{}.tmp", tag_of(&manifest_name));
            for e in fs::read_dir(&sub).map_err(|e| format!("{}: {e}", sub.display()))? {
                let p = e.map_err(|e| format!("{}: {e}", sub.display()))?.path();
                // Untagged `.part-N.parquet.tmp` files come from runs before tags: stale too.
                if p.file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| n.ends_with(&ours) || n.ends_with(".parquet.tmp"))
                {
                    let _ = fs::remove_file(&p);
                }
            }
        }
        let mut ds = Dataset {
            dir: dir.to_path_buf(),
            manifest: Manifest {
                identity,
                command,
                experiment,
                shard: shard.map(|s| s.to_string()),
                parts: finished.into_values().collect(),
            },
            manifest_name,
            _lock: lock_file,
            _folder_lock: folder_lock,
            rejected,
            unwritten: 0,
            last_write: std::time::Instant::now(),
            manifest_writes: 0,
        };
        ds.write_manifest()?;
        Ok(ds)
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    pub fn manifest(&self) -> &Manifest {
        &self.manifest
    }

    pub fn is_finished(&self, part: u64) -> bool {
        self.manifest.parts.iter().any(|p| p.part == part)
    }

    /// What a worker needs to write a part's files itself: the folder, the tables, this
    /// manifest's tag for temporary names.
    pub fn part_files(&self) -> PartFiles {
        PartFiles {
            dir: self.dir.clone(),
            tables: self.manifest.identity.tables.clone(),
            tag: tag_of(&self.manifest_name).to_string(),
        }
    }

    /// Records a part whose files [`PartFiles::write`] has written (`record.files` their
    /// digests). Parts are recorded in any order and kept sorted.
    pub fn record_part(&mut self, record: PartRecord) -> Result<(), Error> {
        assert_eq!(record.files.len(), self.manifest.identity.tables.len());
        let at = self
            .manifest
            .parts
            .partition_point(|p| p.part < record.part);
        self.manifest.parts.insert(at, record);
        self.unwritten += 1;
        if self.manifest.parts.len() <= MANIFEST_SMALL
            || self.last_write.elapsed() >= MANIFEST_EVERY
        {
            self.write_manifest()?;
        }
        Ok(())
    }

    /// Writes the manifest if parts were recorded since it was last written. A run calls it at
    /// its end; dropping the dataset does it too (errors then unreported).
    pub fn flush(&mut self) -> Result<(), Error> {
        if self.unwritten > 0 {
            self.write_manifest()?;
        }
        Ok(())
    }

    /// Once a run without `--shard` holds every part of `chunks` chunks, the shards' manifests
    /// and locks are spent: removed, so a finished sharded folder is what a one-machine run
    /// leaves (issue 53). The whole run holds the folder lock, so no shard is writing. Nothing
    /// is removed (or an error kept) where the storage is read-only.
    pub fn seal(&mut self, chunks: u64) {
        if self.manifest.shard.is_some() || (self.manifest.parts.len() as u64) < chunks {
            return;
        }
        let Ok(entries) = fs::read_dir(&self.dir) else {
            return;
        };
        for e in entries.filter_map(|e| e.ok()) {
            let name = e.file_name().to_string_lossy().into_owned();
            if name.starts_with("manifest-shard-") && name.ends_with(".json")
                || name.starts_with(".manifest-shard-") && name.ends_with(".lock")
            {
                let _ = fs::remove_file(e.path());
            }
        }
    }

    /// How many times this run wrote its manifest.
    pub fn manifest_writes(&self) -> u64 {
        self.manifest_writes
    }

    fn write_manifest(&mut self) -> Result<(), Error> {
        let text = super::digest::sealed_text(&self.manifest);
        // A re-read of a finished run rewrites nothing (it may be on read-only storage).
        if fs::read(self.dir.join(&self.manifest_name)).is_ok_and(|b| b == text.as_bytes()) {
            self.unwritten = 0;
            return Ok(());
        }
        atomic_write_tagged(
            &self.dir,
            &self.manifest_name,
            tag_of(&self.manifest_name),
            text.as_bytes(),
        )?;
        self.unwritten = 0;
        self.last_write = std::time::Instant::now();
        self.manifest_writes += 1;
        Ok(())
    }
}

impl Drop for Dataset {
    fn drop(&mut self) {
        // A run that failed part-way still records the parts it finished.
        let _ = self.flush();
    }
}

/// The tag of a manifest's temporary files: `manifest` or `manifest-shard-K-of-N`.
fn tag_of(manifest_name: &str) -> &str {
    manifest_name.trim_end_matches(".json")
}

/// Writes `dir/.name.tmp`, then renames it to `dir/name`: readers see the whole file or none.
pub fn atomic_write(dir: &Path, name: &str, bytes: &[u8]) -> Result<(), Error> {
    atomic_write_tagged(dir, name, "", bytes)
}

/// [`atomic_write`] with the writer's tag in the temporary name (`.name.TAG.tmp`), so that a
/// sweep removes only its own writer's leftovers.
fn atomic_write_tagged(dir: &Path, name: &str, tag: &str, bytes: &[u8]) -> Result<(), Error> {
    let tmp = if tag.is_empty() {
        dir.join(format!(".{name}.tmp"))
    } else {
        dir.join(format!(".{name}.{tag}.tmp"))
    };
    let dst = dir.join(name);
    // Never through a link planted at the temporary name: remove whatever is there (the link
    // itself, not its target) and create the file new.
    if fs::symlink_metadata(&tmp).is_ok() {
        fs::remove_file(&tmp)
            .map_err(|e| Error::machine(format!("removing {}", tmp.display()), e))?;
    }
    {
        use std::io::Write;
        let mut f = fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&tmp)
            .map_err(|e| Error::machine(format!("writing {}", tmp.display()), e))?;
        // A write the machine refuses (a full disk) leaves no half file behind.
        f.write_all(bytes).map_err(|e| {
            let _ = fs::remove_file(&tmp);
            Error::machine(format!("writing {}", tmp.display()), e)
        })?;
    }
    fs::rename(&tmp, &dst).map_err(|e| {
        Error::machine(
            format!("renaming {} to {}", tmp.display(), dst.display()),
            e,
        )
    })
}

/// Every part's tally in a dataset folder, each part counted once (whole-folder and shard
/// manifests alike): what an analysis built on a dataset reads back.
pub fn merged_tally(dir: &Path) -> Result<Tally, Error> {
    let mut parts: BTreeMap<u64, Tally> = BTreeMap::new();
    let manifests = manifests_in(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    for p in &manifests {
        for r in read_manifest(p)?.parts {
            parts.entry(r.part).or_insert(r.tally);
        }
    }
    let mut t = Tally::default();
    for p in parts.values() {
        t.merge(p);
    }
    Ok(t)
}

/// The command a dataset folder records (the whole folder's manifest's, else a shard's).
pub fn recorded_command(dir: &Path) -> Result<String, Error> {
    let manifests = manifests_in(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    match manifests.first() {
        Some(m) => Ok(read_manifest(m)?.command),
        None => Err(Error::Input(format!(
            "{}: no skirmish manifest here",
            dir.display()
        ))),
    }
}

/// What a dataset folder records: the identity of each manifest (the whole folder's first) and
/// every listed part, each once. For `skirmish verify`'s replay.
pub fn recorded(dir: &Path) -> Result<(Vec<Identity>, BTreeMap<u64, PartRecord>), Error> {
    let manifests = manifests_in(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let (mut ids, mut parts) = (Vec::new(), BTreeMap::new());
    for p in &manifests {
        let m = read_manifest(p)?;
        ids.push(m.identity);
        for r in m.parts {
            parts.entry(r.part).or_insert(r);
        }
    }
    Ok((ids, parts))
}

/// Why a part's recorded tally cannot be what its matches gave, whatever the game: counts
/// beyond the part's matches, wins beyond trials (issue 53: an edited tally printed "501.61%
/// draws"). `None` when it is plausible; only replaying the part proves it exact.
pub fn implausible(p: &PartRecord) -> Option<String> {
    implausible_tally(&p.tally, p.matches)
}

/// [`implausible`] for any tally that should hold `matches` matches (a part's, a balance's
/// kept point).
pub fn implausible_tally(t: &Tally, matches: u64) -> Option<String> {
    if t.matches != matches {
        return Some(format!(
            "its tally counts {} matches, the part holds {matches}",
            t.matches
        ));
    }
    if t.draws > t.matches {
        return Some(format!("{} draws in {} matches", t.draws, t.matches));
    }
    for (g, labels) in &t.groups {
        for (l, c) in labels {
            if c.wins > c.trials {
                return Some(format!("{g} / {l}: {} wins in {} trials", c.wins, c.trials));
            }
        }
    }
    None
}

/// The first place two JSON values differ, as `field: A recorded, B now` (`names`: the two
/// sides' words).
pub fn first_difference(
    a: &serde_json::Value,
    b: &serde_json::Value,
    names: [&str; 2],
) -> Option<String> {
    return walk("", a, b, names);
    fn walk(
        prefix: &str,
        a: &serde_json::Value,
        b: &serde_json::Value,
        names: [&str; 2],
    ) -> Option<String> {
        match (a, b) {
            (serde_json::Value::Object(x), serde_json::Value::Object(y)) => {
                let keys: std::collections::BTreeSet<&String> = x.keys().chain(y.keys()).collect();
                keys.into_iter().find_map(|k| {
                    let null = serde_json::Value::Null;
                    let p = if prefix.is_empty() {
                        k.clone()
                    } else {
                        format!("{prefix}.{k}")
                    };
                    walk(
                        &p,
                        x.get(k).unwrap_or(&null),
                        y.get(k).unwrap_or(&null),
                        names,
                    )
                })
            }
            _ if a != b => Some(format!("{prefix}: {a} {}, {b} {}", names[0], names[1])),
            _ => None,
        }
    }
}

/// A dataset folder's manifest (the whole folder's, else a shard's) and every part its manifests
/// record, each once.
fn parts_of(dir: &Path) -> Result<(Manifest, BTreeMap<u64, PartRecord>), Error> {
    let manifests = manifests_in(dir).map_err(|e| {
        format!(
            "{}: {e}; name a folder a skirmish command wrote",
            dir.display()
        )
    })?;
    let Some(first) = manifests.first() else {
        return Err(Error::Input(format!(
            "{}: no skirmish manifest here; name a folder a skirmish command wrote",
            dir.display()
        )));
    };
    let head = read_manifest(first)?;
    let mut parts: BTreeMap<u64, PartRecord> = BTreeMap::new();
    for p in &manifests {
        for r in read_manifest(p)?.parts {
            parts.entry(r.part).or_insert(r);
        }
    }
    Ok((head, parts))
}

/// The answer a dataset folder holds (issue 50): its identity and command from its manifest, and
/// the tallies of its parts.
pub fn answer(dir: &Path) -> Result<crate::platform::answer::Answer, Error> {
    let (head, parts) = parts_of(dir)?;
    let tallies: Vec<&Tally> = parts.values().map(|r| &r.tally).collect();
    // Which way its sections rank is the game's, which this module does not know: a folder read
    // without its simulation ranks nothing (`answer_of` carries the ranking from the stored answer).
    Ok(crate::platform::answer::Answer::from_dataset(
        &head,
        &tallies,
        &[],
    ))
}

/// Two folders' estimates paired part for part, when both are datasets of one command and seed
/// holding the same matches in the same parts (`None` otherwise: compared unpaired).
pub fn pairing(a: &Path, b: &Path) -> Option<crate::platform::pairing::Pairing> {
    let (Ok((ha, pa)), Ok((hb, pb))) = (parts_of(a), parts_of(b)) else {
        // Analyses keep one sum over all their matches: their groups' replicates pair them.
        let (ra, rb) = (replicates_of(a)?, replicates_of(b)?);
        return crate::platform::pairing::Pairing::of_replicates(&ra, &rb);
    };
    if ha.identity.seed != hb.identity.seed || ha.identity.simulation != hb.identity.simulation {
        return None;
    }
    fn rows(p: &BTreeMap<u64, PartRecord>) -> Vec<(u64, u64, &Tally)> {
        p.values()
            .map(|r| (r.first_match, r.matches, &r.tally))
            .collect()
    }
    crate::platform::pairing::Pairing::of(&rows(&pa), &rows(&pb))
}

/// An analysis folder's [`crate::platform::pairing::Replicates`], when it wrote them and they are
/// as written (an edited file pairs nothing).
fn replicates_of(dir: &Path) -> Option<crate::platform::pairing::Replicates> {
    let f = dir.join(crate::platform::pairing::REPLICATES);
    let v = super::digest::read_sealed(&f).ok()?;
    serde_json::from_value(v).ok()
}

/// The answer any folder holds: a dataset's rebuilt from its manifest (the source of truth,
/// older folders included), else the `result.json` an analysis wrote.
pub fn answer_of(dir: &Path) -> Result<crate::platform::answer::Answer, Error> {
    let has_manifest = fs::read_dir(dir)
        .map(|d| d.filter_map(|e| e.ok()).any(|e| is_manifest(&e.path())))
        .unwrap_or(false);
    let stored = dir.join(crate::platform::answer::FILE);
    if !has_manifest && stored.is_file() {
        return crate::platform::answer::Answer::read(&stored);
    }
    let mut a = answer(dir)?;
    // The grids are laid out by the game, which this module does not know: carried from the
    // stored answer when it is of the same matches (every run rewrites it as it ends), and only
    // when it is still as the run sealed it (issue 62: an edited grid was displayed).
    if stored.is_file() {
        let s = crate::platform::answer::Answer::read(&stored)?;
        if s.provenance == a.provenance {
            a.grids = s.grids;
            // So is a candidate's card: which way each section ranks is the game's too.
            a.verdict = s.verdict;
        }
    }
    Ok(a)
}

/// Writes a dataset folder's answer beside its manifest: `result.json` and `report.html`, with
/// the grids its simulation lays out of the folder's whole tally (its printed summary).
pub fn write_answer(
    dir: &Path,
    grids: &dyn Fn(&Tally) -> Vec<crate::platform::grid::Grid>,
    ranked: &[(&str, crate::stats::Better)],
) -> Result<crate::platform::answer::Answer, Error> {
    let (a, files) = answer_files(dir, grids, ranked)?;
    for (name, bytes) in files {
        if fs::read(dir.join(&name)).is_ok_and(|b| b == bytes) {
            continue;
        }
        // Shards sharing the folder write it at once: each under a temporary name of its own
        // (a shared one collided: "File exists"); the last rename wins, and the sealing run
        // writes the whole folder's.
        atomic_write_tagged(
            dir,
            &name,
            &format!("answer-{}", std::process::id()),
            &bytes,
        )?;
    }
    Ok(a)
}

/// Files by their name in a folder, with their bytes.
pub type NamedFiles = Vec<(String, Vec<u8>)>;

/// The answer a dataset folder's manifest gives, with the grids its simulation lays out of the
/// whole tally, and the files it is written as (`result.json`, `report.html`): what
/// [`write_answer`] writes and what `verify`'s replay compares the folder's files with.
pub fn answer_files(
    dir: &Path,
    grids: &dyn Fn(&Tally) -> Vec<crate::platform::grid::Grid>,
    ranked: &[(&str, crate::stats::Better)],
) -> Result<(crate::platform::answer::Answer, NamedFiles), Error> {
    let (head, parts) = parts_of(dir)?;
    let tallies: Vec<&Tally> = parts.values().map(|r| &r.tally).collect();
    let mut a = crate::platform::answer::Answer::from_dataset(&head, &tallies, ranked);
    let mut whole = Tally::default();
    tallies.iter().for_each(|t| whole.merge(t));
    a.grids = grids(&whole);
    let files = crate::platform::render::files(&a);
    Ok((a, files.to_vec()))
}

/// `skirmish verify DIR` on an analysis folder (no manifest; its answer and, for analyses that
/// keep sums, `ledger.json` or `state.json` and shards' files beside it): every sealed file is
/// checked against its digest. Returns what was checked and the command the answer records
/// (which `verify` replays); `None` when `dir` is not an analysis folder.
pub fn verify_analysis(dir: &Path) -> Result<Option<(String, String)>, Error> {
    let has_manifest = fs::read_dir(dir)
        .map(|d| d.filter_map(|e| e.ok()).any(|e| is_manifest(&e.path())))
        .unwrap_or(false);
    let stored = dir.join(crate::platform::answer::FILE);
    if has_manifest || !stored.is_file() {
        return Ok(None);
    }
    let answer = crate::platform::answer::Answer::read(&stored)?;
    let mut sealed = vec![crate::platform::answer::FILE.to_string()];
    let mut files: Vec<std::path::PathBuf> = [
        "ledger.json",
        "state.json",
        crate::platform::pairing::REPLICATES,
    ]
    .iter()
    .map(|f| dir.join(f))
    .filter(|p| p.is_file())
    .collect();
    if let Ok(d) = fs::read_dir(dir.join(SHARDS)) {
        let mut shards: Vec<_> = d.filter_map(|e| e.ok()).map(|e| e.path()).collect();
        shards.sort();
        files.extend(shards);
    }
    for f in &files {
        super::digest::read_sealed(f)?;
        sealed.push(f.strip_prefix(dir).unwrap_or(f).display().to_string());
    }
    Ok(Some((
        format!(
            "{}: an analysis folder; {} as written (each one's digest checked)\n",
            dir.display(),
            sealed.join(", ")
        ),
        answer.provenance.command,
    )))
}

/// What `verify` finds when it compares an analysis folder with the files its recorded command
/// would write now (from the folder's kept sums, some or all of them replayed): every file the
/// same bytes, or which differ.
pub fn compare_folder(out: &Path, files: &[(String, Vec<u8>)]) -> Result<String, Error> {
    let differ: Vec<String> = files
        .iter()
        .filter_map(|(name, bytes)| {
            let p = out.join(name);
            // A link or anything but a plain file is no file a run wrote (and is not followed).
            if !fs::symlink_metadata(&p).is_ok_and(|m| m.file_type().is_file()) {
                return Some(format!("{name} is missing or not a plain file"));
            }
            match fs::read(&p) {
                Ok(b) if b == *bytes => None,
                Ok(_) => Some(format!("{name} differs")),
                Err(_) => Some(format!("{name} cannot be read")),
            }
        })
        .collect();
    if differ.is_empty() {
        Ok(format!(
            "its {} files are what the command writes now",
            files.len()
        ))
    } else {
        Err(Error::Input(format!(
            "{} of its {} files differ from what the command writes (edited, or written by another version): {}",
            differ.len(),
            files.len(),
            differ.join("; ")
        )))
    }
}

/// A table file's row count (the Parquet layer's; the platform does not read Parquet itself).
pub type RowCount = dyn Fn(&Path) -> Result<u64, Error>;

/// `skirmish verify DIR`: every listed part of every manifest in `dir` checked against its
/// record (present, a plain file, its size and SHA-256), and, given `rows` (a table file's row
/// count, from the Parquet layer), the first table's rows against the part's match count. `Ok`
/// is the report; `Err` lists every problem found.
pub fn verify(dir: &Path, rows: Option<&RowCount>) -> Result<String, Error> {
    let mut manifests =
        manifests_in(dir).map_err(|e| format!("{}: {e}; name a dataset folder", dir.display()))?;
    manifests.sort();
    if manifests.is_empty() {
        return Err(Error::Input(format!(
            "{}: no skirmish manifest here; name a dataset folder (one a run wrote)",
            dir.display()
        )));
    }
    let (mut problems, mut parts, mut files, mut matches) = (Vec::new(), 0u64, 0u64, 0u64);
    // A part may be listed by several manifests (a shard's, then the whole folder's): each is
    // checked and counted once (issue 53: 119 parts were reported for a 40-part folder).
    let mut seen: BTreeMap<u64, PartRecord> = BTreeMap::new();
    let mut plan: Option<(u64, u64)> = None;
    for path in &manifests {
        let m = read_manifest(path)?;
        plan.get_or_insert((m.identity.matches, m.identity.chunk_size));
        for p in &m.parts {
            if let Some(earlier) = seen.get(&p.part) {
                if earlier != p {
                    problems.push(format!(
                        "part {}: two manifests record it differently ({})",
                        p.part,
                        path.display()
                    ));
                }
                continue;
            }
            seen.insert(p.part, p.clone());
            parts += 1;
            matches += p.matches;
            if let Some(why) = implausible(p) {
                problems.push(format!("part {}: {why}", p.part));
            }
            if p.files.len() != m.identity.tables.len() {
                problems.push(format!(
                    "part {}: no size and digest recorded (written before they were)",
                    p.part
                ));
                continue;
            }
            for (k, (t, want)) in m.identity.tables.iter().zip(&p.files).enumerate() {
                let f = dir.join(t).join(part_name(p.part));
                files += 1;
                match check_file(&f, want) {
                    Some(why) => problems.push(format!("{}: {why}", f.display())),
                    None if k == 0 => {
                        if let Some(rows) = rows {
                            match rows(&f) {
                                Ok(n) if n == p.matches => {}
                                Ok(n) => problems.push(format!(
                                    "{}: {n} rows, the manifest counts {} matches",
                                    f.display(),
                                    p.matches
                                )),
                                Err(e) => problems.push(format!("{}: {e}", f.display())),
                            }
                        }
                    }
                    None => {}
                }
            }
        }
    }
    // Complete or not: a killed or unfinished run verifies part by part, and says what is missing.
    if let Some((all, chunk)) = plan {
        let want = all.div_ceil(chunk.max(1));
        if parts < want && problems.is_empty() {
            let missing: Vec<u64> = (0..want).filter(|k| !seen.contains_key(k)).collect();
            let shown: Vec<String> = missing.iter().take(8).map(u64::to_string).collect();
            let more = if missing.len() > 8 { ", ..." } else { "" };
            return Err(Error::Input(format!(
                "{}: incomplete: {parts} of {want} parts are here ({matches} of {all} matches), every one as recorded; missing parts {}{more}: run the recorded command again to finish it (it resumes), or gather the other shards' parts",
                dir.display(),
                shown.join(", ")
            )));
        }
    }
    // The answer beside the manifest is checked too (issue 79: a dataset's result.json was not
    // read by verify at all): sealed, and what the manifest's tallies give; the grids the game
    // lays out of them, and a candidate's card (ranked the game's way), are recomputed by the
    // replay, which compares the files byte for byte.
    if problems.is_empty() {
        let stored = dir.join(crate::platform::answer::FILE);
        match (crate::platform::answer::Answer::read(&stored), answer(dir)) {
            (Err(e), _) | (_, Err(e)) => problems.push(e.to_string()),
            (Ok(mut kept), Ok(rebuilt)) => {
                kept.grids = rebuilt.grids.clone();
                kept.verdict = rebuilt.verdict.clone();
                let text = |a: &crate::platform::answer::Answer| serde_json::to_string(a).ok();
                if text(&kept) != text(&rebuilt) {
                    problems.push(format!(
                        "{}: not the answer the manifest's tallies give (edited after the run wrote it)",
                        stored.display()
                    ));
                }
            }
        }
    }
    if problems.is_empty() {
        Ok(format!(
            "{}: verified {parts} parts ({files} files, {matches} matches), the whole run: every file is the one recorded, and its answer{}\n",
            dir.display(),
            if rows.is_some() {
                ", every part's rows match its count"
            } else {
                ""
            }
        ))
    } else {
        Err(Error::Input(format!(
            "{}: {} problem(s); re-run the command that made it (it recomputes these parts): {}",
            dir.display(),
            problems.len(),
            problems.join("; ")
        )))
    }
}

/// The file that marks a folder as a whole-folder output of `command` (e.g. `analyze powers`).
pub const OUTPUT_MARK: &str = ".skirmish-output";

/// Whether `dir` is a folder a skirmish command wrote (a dataset's manifest or an output's mark).
fn is_output_folder(dir: &Path) -> bool {
    dir.join(OUTPUT_MARK).exists()
        || fs::read_dir(dir).is_ok_and(|d| d.filter_map(|e| e.ok()).any(|e| is_manifest(&e.path())))
}

/// Where `report -o FILE` may write: the folder and the file name, or why not (issue 62:
/// `-o DIR/manifest.json` overwrote a dataset's manifest). A file of a skirmish output folder
/// (anything already in it or its tables' folders, or a name it writes) is refused.
pub fn report_target(p: &Path) -> Result<(PathBuf, String), Error> {
    let name = p
        .file_name()
        .and_then(|n| n.to_str())
        .ok_or_else(|| format!("-o {}: name a file, e.g. -o report.md", p.display()))?
        .to_string();
    let dir = match p.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    if fs::symlink_metadata(p).is_ok_and(|m| m.file_type().is_dir()) {
        return Err(Error::Input(format!(
            "-o {}: is a folder; name a file",
            p.display()
        )));
    }
    let own = |d: &Path| is_output_folder(d);
    let reserved = is_manifest(Path::new(&name))
        || name.starts_with('.')
        || name.ends_with(".parquet")
        || [
            "result.json",
            "report.html",
            "ledger.json",
            "state.json",
            "summary.txt",
        ]
        .contains(&name.as_str());
    let inside = own(&dir) || dir.parent().is_some_and(own);
    if inside && (reserved || p.exists()) {
        return Err(Error::Input(format!(
            "-o {}: is a file of the skirmish output folder {}; write the report elsewhere (e.g. -o report.md)",
            p.display(),
            dir.display()
        )));
    }
    Ok((dir, name))
}

/// Whether `out` may receive a whole-folder output of `command`: it does not exist, is empty, or
/// holds an earlier output of the same command (its mark says so). Anything else is refused and
/// left untouched; checked before any work starts.
pub fn check_output_folder(out: &Path, command: &str) -> Result<(), Error> {
    if out.as_os_str().is_empty() {
        return Err("--out: an empty path; name a folder, e.g. --out runs/powers".into());
    }
    if fs::symlink_metadata(out).is_ok_and(|m| !m.file_type().is_dir()) {
        return Err(Error::Input(format!(
            "--out {}: exists and is not a plain folder; choose a folder name",
            out.display()
        )));
    }
    let Ok(entries) = fs::read_dir(out) else {
        return Ok(());
    };
    // A mark another writer is writing at this moment (shards in step make the folder at once)
    // is not a stranger's file, and nor is the claim's own lock, which goes inside a folder
    // under a read-only parent (issue 79: a balance refused its own empty folder there).
    let marking = format!(".{OUTPUT_MARK}.");
    let others = entries
        .filter_map(|e| e.ok())
        .filter(|e| {
            let name = e.file_name().to_string_lossy().to_string();
            let lock =
                name == ".output.lock" || (name.starts_with(".shard-") && name.ends_with(".lock"));
            let marking_now = name.starts_with(&marking) && name.ends_with(".tmp");
            !(lock || marking_now)
        })
        .count();
    if others == 0 {
        return Ok(());
    }
    match fs::read_to_string(out.join(OUTPUT_MARK)) {
        Ok(mark) if mark.trim() == command => Ok(()),
        Ok(mark) => Err(Error::Input(format!(
            "--out {}: holds the output of `{}`, not `{command}`; choose another --out",
            out.display(),
            mark.trim()
        ))),
        Err(_) => Err(Error::Input(format!(
            "--out {}: the folder is not empty and is not an earlier `{command}` output; choose an empty or new folder",
            out.display()
        ))),
    }
}

/// Whether `dir` is absent or an empty folder (a what-if's folder it made may be removed again).
pub fn absent_or_empty(dir: &Path) -> bool {
    !dir.exists() || std::fs::read_dir(dir).is_ok_and(|mut d| d.next().is_none())
}

/// Removes a folder this run made and could not finish (a what-if's arm that failed).
pub fn discard(dir: &Path) {
    let _ = std::fs::remove_dir_all(dir);
}

/// Removes `dir`'s output mark and then `dir` itself, only if nothing else is in it (a what-if
/// that failed leaves the other arm's finished folder).
pub fn unmark_if_empty(dir: &Path) {
    let _ = std::fs::remove_file(dir.join(OUTPUT_MARK));
    let _ = std::fs::remove_dir(dir);
}

/// Makes `out` this command's output folder (created, its mark written) without replacing what it
/// holds: where a shard of an analysis leaves its cells beside the others' (issue 51).
pub fn mark_output_folder(out: &Path, command: &str) -> Result<(), Error> {
    mark_output_folder_as(out, command, "")
}

/// [`mark_output_folder`] by one of several writers that may make the folder at the same moment
/// (`writer` names it: a shard): each writes the mark under a temporary name of its own.
pub fn mark_output_folder_as(out: &Path, command: &str, writer: &str) -> Result<(), Error> {
    check_output_folder(out, command)?;
    fs::create_dir_all(out).map_err(|e| format!("--out {}: {e}", out.display()))?;
    if !out.join(OUTPUT_MARK).is_file() {
        atomic_write_tagged(out, OUTPUT_MARK, writer, format!("{command}\n").as_bytes())?;
    }
    Ok(())
}

/// Whether this process may create entries in `dir` (tried, not guessed from permission bits:
/// root, ACLs and read-only mounts all answer here).
fn writable(dir: &Path) -> bool {
    let probe = dir.join(format!(".skirmish-probe-{}", std::process::id()));
    match fs::File::create(&probe) {
        Ok(_) => {
            let _ = fs::remove_file(&probe);
            true
        }
        Err(_) => false,
    }
}

/// [`replace_folder`] for a folder whose parent cannot take a temporary sibling: each file is
/// written through a temporary file and a rename inside the folder, then files of the earlier
/// answer the new one does not have are removed (the folder is an output folder: checked).
fn replace_inside(out: &Path, command: &str, files: &[(String, Vec<u8>)]) -> Result<(), Error> {
    let mark = format!("{command}\n");
    let mut keep: Vec<&str> = vec![OUTPUT_MARK];
    for (n, bytes) in files
        .iter()
        .map(|(n, b)| (n.as_str(), b.as_slice()))
        .chain([(OUTPUT_MARK, mark.as_bytes())])
    {
        match n.split_once('/') {
            // A file in a subfolder of the answer (`tuned/rules.toml`): its folder made first.
            Some((sub, file)) => {
                let d = out.join(sub);
                fs::create_dir_all(&d).map_err(|e| format!("creating {}: {e}", d.display()))?;
                atomic_write(&d, file, bytes)?;
            }
            None => atomic_write(out, n, bytes)?,
        }
        keep.push(n);
    }
    for e in fs::read_dir(out)
        .map_err(|e| format!("reading {}: {e}", out.display()))?
        .flatten()
    {
        let name = e.file_name();
        let name = name.to_string_lossy();
        let is_file = e.file_type().is_ok_and(|t| t.is_file());
        if is_file && !name.starts_with('.') && !keep.contains(&name.as_ref()) {
            let _ = fs::remove_file(e.path());
        }
    }
    Ok(())
}

/// An output folder's name and its parent (created), where its lock and temporary folders go.
fn name_and_parent(out: &Path) -> Result<(&str, PathBuf), Error> {
    let name = out
        .file_name()
        .and_then(|n| n.to_str())
        .ok_or_else(|| format!("--out {}: name a folder", out.display()))?;
    let parent = match out.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    fs::create_dir_all(&parent).map_err(|e| format!("--out {}: {e}", out.display()))?;
    Ok((name, parent))
}

/// The writer's claim on a whole-folder output: held while the command works, released when
/// dropped (issue 51: two racing runs of an analysis into one folder both exited 0 and one
/// result silently disappeared; now the second is refused at once).
pub struct OutputClaim {
    locks: Vec<(fs::File, PathBuf)>,
}

impl Drop for OutputClaim {
    /// The lock files are removed as the claim ends (issue 79: every analysis, balance and
    /// sensitivity left `.NAME.output.lock` beside its folder), by the last holder only: a file
    /// still held shared by another shard stays. A run that opened a removed file finds it no
    /// longer at its path once locked, and takes the lock again ([`lock_beside`]).
    fn drop(&mut self) {
        for (file, path) in self.locks.drain(..) {
            // Converting to exclusive succeeds only while nobody else holds the file.
            if file.try_lock().is_ok() {
                let _ = fs::remove_file(&path);
            }
        }
    }
}

/// Whether `path` is still the file `file` has open (a lock taken on a file another run removed
/// in the meantime guards nothing).
fn still_at(file: &fs::File, path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        match (file.metadata(), fs::symlink_metadata(path)) {
            (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
            _ => false,
        }
    }
    #[cfg(not(unix))]
    {
        let _ = (file, path);
        true
    }
}

/// An OS advisory lock beside the folder (`.NAME.SUFFIX.lock`), exclusive or shared; `busy` says
/// who holds it when it cannot be taken.
fn lock_beside(
    out: &Path,
    suffix: &str,
    shared: bool,
    busy: &str,
) -> Result<(fs::File, PathBuf), Error> {
    let (name, mut parent) = name_and_parent(out)?;
    let mut lock_name = format!(".{name}.{suffix}.lock");
    // A writable folder under a parent this user may not write (issue 62): the lock goes inside
    // the folder, where every run of it looks once the parent refuses.
    if out.is_dir() && !writable(&parent) {
        parent = out.to_path_buf();
        lock_name = format!(".{suffix}.lock");
    }
    // The last holder of a claim removes its lock file: one taken on a removed file is taken
    // again on the path's new one.
    let mut tries = 0;
    let (file, got) = loop {
        let file = lock_file(&parent, &lock_name)?;
        let got = if shared {
            file.try_lock_shared()
        } else {
            file.try_lock()
        };
        tries += 1;
        if got.is_err() || still_at(&file, &parent.join(&lock_name)) || tries >= 100 {
            break (file, got);
        }
    };
    match got {
        Ok(()) => Ok((file, parent.join(&lock_name))),
        Err(fs::TryLockError::WouldBlock) => Err(Error::Input(format!(
            "--out {}: {busy} (lock {}); wait for it to finish or choose another --out",
            out.display(),
            parent.join(&lock_name).display()
        ))),
        Err(fs::TryLockError::Error(e)) => Err(Error::Input(format!(
            "--out {}: cannot lock {}: {e}",
            out.display(),
            parent.join(&lock_name).display()
        ))),
    }
}

/// [`check_output_folder`], then the folder's writer lock (an OS advisory lock on
/// `.NAME.output.lock` beside it), or says another run holds it.
pub fn claim_output_folder(out: &Path, command: &str) -> Result<OutputClaim, Error> {
    check_output_folder(out, command)?;
    let busy = format!("another `{command}` run is writing this folder");
    Ok(OutputClaim {
        locks: vec![lock_beside(out, "output", false, &busy)?],
    })
}

/// A shard's claim on an analysis folder (issue 51): the folder's lock shared with the other
/// shards (a whole run, which finishes the folder, never runs beside them) and its own
/// `.NAME.TAG.lock` held alone (two runs of one shard never race).
pub fn claim_shard(out: &Path, tag: &str, command: &str) -> Result<OutputClaim, Error> {
    check_output_folder(out, command)?;
    let whole = format!("a whole `{command}` run is finishing this folder");
    let same = format!("another `{command}` run of this shard is writing it");
    Ok(OutputClaim {
        locks: vec![
            lock_beside(out, "output", true, &whole)?,
            lock_beside(out, tag, false, &same)?,
        ],
    })
}

/// Writes `files` as the whole content of `out`: into a new temporary folder beside it, then
/// renamed into place (an earlier output is moved aside first and removed after), so a failure
/// leaves the earlier output or nothing, never a mix.
pub fn replace_folder(out: &Path, command: &str, files: &[(String, Vec<u8>)]) -> Result<(), Error> {
    check_output_folder(out, command)?;
    let (name, parent) = name_and_parent(out)?;
    if out.is_dir() && !writable(&parent) {
        return replace_inside(out, command, files);
    }
    let pid = std::process::id();
    let tmp = parent.join(format!(".{name}.new-{pid}"));
    let old = parent.join(format!(".{name}.old-{pid}"));
    let _ = fs::remove_dir_all(&tmp);
    fs::create_dir(&tmp).map_err(|e| Error::machine(format!("creating {}", tmp.display()), e))?;
    let mut all: Vec<(&str, &[u8])> = files
        .iter()
        .map(|(n, b)| (n.as_str(), b.as_slice()))
        .collect();
    let mark = format!("{command}\n");
    all.push((OUTPUT_MARK, mark.as_bytes()));
    for (n, bytes) in all {
        if let Some((sub, _)) = n.split_once('/') {
            fs::create_dir_all(tmp.join(sub))
                .map_err(|e| Error::machine(format!("creating {}", tmp.join(sub).display()), e))?;
        }
        fs::write(tmp.join(n), bytes).map_err(|e| {
            let _ = fs::remove_dir_all(&tmp);
            Error::machine(format!("writing {}", tmp.join(n).display()), e)
        })?;
    }
    let had = out.exists();
    if had {
        fs::rename(out, &old)
            .map_err(|e| Error::machine(format!("moving {} aside", out.display()), e))?;
    }
    fs::rename(&tmp, out).map_err(|e| {
        Error::machine(
            format!("renaming {} to {}", tmp.display(), out.display()),
            e,
        )
    })?;
    if had {
        let _ = fs::remove_dir_all(&old);
    }
    Ok(())
}

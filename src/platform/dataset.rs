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
//! real name, and re-running the same command resumes from the manifest. A shard (`--shard K/N`)
//! records its parts in `manifest-shard-K-of-N.json` instead, so machines sharing the folder never
//! write the same file; a later run without `--shard` takes their parts over and writes
//! `manifest.json`.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::plan::Shard;
use super::tally::Tally;

/// Bumped when the layout or the meaning of a manifest field changes.
pub const FORMAT: &str = "skirmish-dataset/1";

/// What makes two runs the same run: any difference and their parts cannot be mixed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Identity {
    pub format: String,
    pub crate_version: String,
    /// The simulation, e.g. `rumble-ffa`.
    pub simulation: String,
    pub seed: u64,
    pub matches: u64,
    pub chunk_size: u64,
    pub tables: Vec<String>,
    /// The simulation's own settings, as it serialises them.
    pub settings: serde_json::Value,
}

/// One finished part.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PartRecord {
    pub part: u64,
    pub first_match: u64,
    pub matches: u64,
    /// The part's win counts, so a resumed run can report on the whole dataset.
    pub tally: Tally,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    #[serde(flatten)]
    pub identity: Identity,
    /// The command that reproduces the dataset (canonical: every setting spelled out).
    pub command: String,
    /// The experiment file's text, when the run came from one (`skirmish run`).
    pub experiment: Option<String>,
    pub shard: Option<String>,
    pub parts: Vec<PartRecord>,
}

/// An open dataset directory.
#[derive(Debug)]
pub struct Dataset {
    dir: PathBuf,
    manifest: Manifest,
    manifest_name: String,
}

pub fn part_name(part: u64) -> String {
    format!("part-{part:05}.parquet")
}

fn shard_manifest_name(s: Shard) -> String {
    format!("manifest-shard-{}-of-{}.json", s.index, s.count)
}

fn read_manifest(path: &Path) -> Result<Manifest, String> {
    let text = fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    serde_json::from_str(&text).map_err(|e| {
        format!(
            "{}: not a skirmish manifest ({e}); choose another --out or delete the folder",
            path.display()
        )
    })
}

/// The first field where two identities differ, as `field: A there, B here`.
fn difference(there: &Identity, here: &Identity) -> String {
    let a = serde_json::to_value(there).expect("serialisable");
    let b = serde_json::to_value(here).expect("serialisable");
    fn walk(prefix: &str, a: &serde_json::Value, b: &serde_json::Value) -> Option<String> {
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
                    walk(&p, x.get(k).unwrap_or(&null), y.get(k).unwrap_or(&null))
                })
            }
            _ if a != b => Some(format!("{prefix}: {a} there, {b} here")),
            _ => None,
        }
    }
    walk("", &a, &b).unwrap_or_else(|| "identical".into())
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
    ) -> Result<Dataset, String> {
        if dir.exists() && !dir.is_dir() {
            return Err(format!(
                "--out {}: exists and is not a folder; choose a folder name",
                dir.display()
            ));
        }
        let mut finished: BTreeMap<u64, PartRecord> = BTreeMap::new();
        if dir.is_dir() {
            let mut manifests: Vec<PathBuf> = fs::read_dir(dir)
                .map_err(|e| format!("--out {}: {e}", dir.display()))?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| {
                    p.file_name().and_then(|n| n.to_str()).is_some_and(|n| {
                        n == "manifest.json"
                            || (n.starts_with("manifest-shard-") && n.ends_with(".json"))
                    })
                })
                .collect();
            manifests.sort();
            if manifests.is_empty()
                && fs::read_dir(dir)
                    .map(|mut d| d.next().is_some())
                    .unwrap_or(false)
            {
                return Err(format!(
                    "--out {}: the folder is not empty and holds no skirmish manifest; \
                     choose an empty or new folder",
                    dir.display()
                ));
            }
            for path in manifests {
                let m = read_manifest(&path)?;
                if m.identity != identity {
                    return Err(format!(
                        "{} was written by a different run ({}); re-run that exact command to \
                         resume it, or choose another --out",
                        path.display(),
                        difference(&m.identity, &identity)
                    ));
                }
                for p in m.parts {
                    let complete = identity
                        .tables
                        .iter()
                        .all(|t| dir.join(t).join(part_name(p.part)).is_file());
                    if complete {
                        finished.insert(p.part, p);
                    }
                }
            }
        }
        for t in &identity.tables {
            let sub = dir.join(t);
            fs::create_dir_all(&sub).map_err(|e| {
                format!(
                    "--out {}: cannot create {}: {e}",
                    dir.display(),
                    sub.display()
                )
            })?;
            // Temporary files of a killed run: never complete, always safe to drop.
            for e in fs::read_dir(&sub).map_err(|e| format!("{}: {e}", sub.display()))? {
                let p = e.map_err(|e| format!("{}: {e}", sub.display()))?.path();
                if p.extension().is_some_and(|x| x == "tmp") {
                    let _ = fs::remove_file(&p);
                }
            }
        }
        let manifest_name = match shard {
            Some(s) => shard_manifest_name(s),
            None => "manifest.json".to_string(),
        };
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

    /// Writes one part's files (one per table, in the manifest's table order) and records it.
    pub fn write_part(&mut self, record: PartRecord, files: &[Vec<u8>]) -> Result<(), String> {
        assert_eq!(files.len(), self.manifest.identity.tables.len());
        for (table, bytes) in self.manifest.identity.tables.iter().zip(files) {
            let dir = self.dir.join(table);
            atomic_write(&dir, &part_name(record.part), bytes)?;
        }
        let at = self
            .manifest
            .parts
            .partition_point(|p| p.part < record.part);
        self.manifest.parts.insert(at, record);
        self.write_manifest()
    }

    fn write_manifest(&mut self) -> Result<(), String> {
        let mut text = serde_json::to_string_pretty(&self.manifest).expect("serialisable");
        text.push('\n');
        atomic_write(&self.dir, &self.manifest_name, text.as_bytes())
    }
}

/// Writes `dir/.name.tmp`, then renames it to `dir/name`: readers see the whole file or none.
pub fn atomic_write(dir: &Path, name: &str, bytes: &[u8]) -> Result<(), String> {
    let tmp = dir.join(format!(".{name}.tmp"));
    let dst = dir.join(name);
    fs::write(&tmp, bytes).map_err(|e| format!("writing {}: {e}", tmp.display()))?;
    fs::rename(&tmp, &dst)
        .map_err(|e| format!("renaming {} to {}: {e}", tmp.display(), dst.display()))
}

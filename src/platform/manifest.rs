//! A dataset folder's manifest as data: what makes two runs the same run, each finished part and
//! its files. Types only, so that an answer can be read from a manifest without knowing how a
//! folder is written (the folder's code is `dataset`).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

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
    /// Every file that can change the output (power files and what they include, values tables,
    /// clan files), by path: its SHA-256. Editing one and resuming is refused as a different run.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub inputs: BTreeMap<String, String>,
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
    /// Per table (in the identity's order): the part file's size in bytes and SHA-256, checked
    /// before a resumed run keeps the part and by `skirmish verify`.
    #[serde(default)]
    pub files: Vec<FileRecord>,
}

/// What a part file was when it was written.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FileRecord {
    pub bytes: u64,
    pub sha256: String,
}

impl FileRecord {
    pub fn of(bytes: &[u8]) -> FileRecord {
        FileRecord {
            bytes: bytes.len() as u64,
            sha256: super::digest::sha256_hex(bytes),
        }
    }
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

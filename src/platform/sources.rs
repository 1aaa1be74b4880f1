//! Where a command reads its input files (issue 78): the disk, with texts held in memory laid
//! over it. A question asked at a point (`balance`, `sensitivity`, `calibrate`) holds its rules
//! and its filled-in files here under the paths the command names, instead of writing them into a
//! temporary folder and naming those: nothing crosses the disk, and an error in a filled-in file
//! names the host's own file.
//!
//! Knows no game and no file format: a path and its text.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The disk, with some paths' texts held in memory instead.
#[derive(Clone, Debug, Default)]
pub struct Sources {
    held: BTreeMap<PathBuf, Arc<str>>,
}

/// A path as a key: absolute, its `.` parts dropped (`./a.toml` and `a.toml` are one file).
fn key(path: &Path) -> PathBuf {
    std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf())
}

impl Sources {
    /// Every file read from the disk.
    pub fn disk() -> Sources {
        Sources::default()
    }

    /// These sources with `text` held as the file at `path`.
    pub fn holding(mut self, path: &Path, text: impl Into<Arc<str>>) -> Sources {
        self.held.insert(key(path), text.into());
        self
    }

    /// The text held for `path`, if one is.
    pub fn held(&self, path: &Path) -> Option<&str> {
        if self.held.is_empty() {
            return None;
        }
        self.held.get(&key(path)).map(|t| &**t)
    }

    /// The text of the file at `path`: the one held, else the disk's.
    pub fn read(&self, path: &Path) -> std::io::Result<String> {
        match self.held(path) {
            Some(t) => Ok(t.to_string()),
            None => std::fs::read_to_string(path),
        }
    }

    /// Whether `path` is a file here (held, or on the disk).
    pub fn is_file(&self, path: &Path) -> bool {
        self.held(path).is_some() || path.is_file()
    }

    /// The SHA-256 of the file at `path` as read here (what a run's identity records).
    pub fn sha256(&self, path: &Path) -> std::io::Result<String> {
        match self.held(path) {
            Some(t) => Ok(super::digest::sha256_hex(t.as_bytes())),
            None => super::digest::sha256_file(path),
        }
    }
}

/// Each input file's SHA-256 by its path as given (an answer's provenance); a file that cannot
/// be read is recorded as such rather than failing an answer already played.
pub fn input_digests<P: AsRef<std::path::Path>>(
    src: &Sources,
    paths: impl IntoIterator<Item = P>,
) -> std::collections::BTreeMap<String, String> {
    paths
        .into_iter()
        .map(|p| {
            let p = p.as_ref();
            let digest = src.sha256(p).unwrap_or_else(|e| format!("unreadable: {e}"));
            (p.display().to_string(), digest)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::Sources;
    use std::path::Path;

    /// Issue 78: a held text is read instead of the disk's, under any spelling of its path, and
    /// its digest is the text's; other paths still read the disk.
    #[test]
    fn a_held_text_is_read_instead_of_the_disk_and_other_files_are_not() {
        let s = Sources::disk().holding(Path::new("no/such/rules.toml"), "x = 1\n");
        assert_eq!(s.read(Path::new("no/such/rules.toml")).unwrap(), "x = 1\n");
        assert_eq!(
            s.read(Path::new("./no/such/rules.toml")).unwrap(),
            "x = 1\n"
        );
        assert!(s.is_file(Path::new("no/such/rules.toml")));
        assert_eq!(
            s.sha256(Path::new("no/such/rules.toml")).unwrap(),
            super::super::digest::sha256_hex(b"x = 1\n")
        );
        assert!(s.read(Path::new("no/such/other.toml")).is_err());
        assert!(Sources::disk().read(Path::new("Cargo.toml")).is_ok());
        assert!(!Sources::disk().is_file(Path::new("no/such/rules.toml")));
    }
}

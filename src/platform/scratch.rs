//! Scratch folders: made afresh under the system's temporary folder with a name nobody can
//! guess, created exclusively (never one that is already there, so never through a link someone
//! planted) and readable by this user alone; removed when dropped.
//!
//! Issue 79: `balance` and `sensitivity` used `$TMPDIR/skirmish-question-PID-N`, used as it was
//! if it existed and followed links inside, so another local user could make a balance overwrite
//! the victim's files. std's `DirBuilder` (exclusive `mkdir` with mode 0700) is all this needs,
//! so no crate is added for it.

use crate::error::Error;
use std::hash::{BuildHasher, Hasher};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

static MADE: AtomicU64 = AtomicU64::new(0);

/// A private folder of this process's, removed with everything in it when dropped.
#[derive(Debug)]
pub struct Scratch {
    path: PathBuf,
}

impl Scratch {
    /// A new empty folder `skirmish-WHAT-XXXXXXXXXXXXXXXX` under the temporary folder.
    pub fn new(what: &str) -> Result<Scratch, Error> {
        let base = std::env::temp_dir();
        let mut last = None;
        for _ in 0..64 {
            // A name drawn from std's per-process random hasher keys (not from the match
            // seeds: nothing here touches a battle's randomness).
            let mut h = std::collections::hash_map::RandomState::new().build_hasher();
            h.write_u64(MADE.fetch_add(1, Ordering::Relaxed));
            h.write_u32(std::process::id());
            if let Ok(t) = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH) {
                h.write_u128(t.as_nanos());
            }
            let path = base.join(format!("skirmish-{what}-{:016x}", h.finish()));
            let mut b = std::fs::DirBuilder::new();
            #[cfg(unix)]
            std::os::unix::fs::DirBuilderExt::mode(&mut b, 0o700);
            match b.create(&path) {
                Ok(()) => return Ok(Scratch { path }),
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => last = Some(e),
                Err(e) => {
                    return Err(Error::Input(format!(
                        "{}: cannot make a scratch folder there ({e}); set TMPDIR to a folder you can write",
                        base.display()
                    )));
                }
            }
        }
        Err(Error::Input(format!(
            "{}: no fresh scratch folder could be made ({}); set TMPDIR to a folder of your own",
            base.display(),
            last.map_or_else(String::new, |e| e.to_string())
        )))
    }

    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.path);
    }
}

#[cfg(test)]
mod tests {
    use super::Scratch;

    /// Issue 79: each scratch folder is new, private and gone once dropped.
    #[test]
    fn scratch_folders_are_fresh_private_and_removed() {
        let a = Scratch::new("test").unwrap();
        let b = Scratch::new("test").unwrap();
        assert_ne!(a.path(), b.path());
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(a.path()).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o700);
        }
        assert_eq!(std::fs::read_dir(a.path()).unwrap().count(), 0);
        std::fs::write(a.path().join("x"), "y").unwrap();
        let p = a.path().to_path_buf();
        drop(a);
        assert!(!p.exists());
    }
}

//! SHA-256 (FIPS 180-4) of a part file, recorded in the manifest so that a resumed run and
//! `skirmish verify` can tell a part that is still what was written from one that was truncated,
//! edited or replaced. The `sha2` crate computes it (already in the build through polars; issue
//! 53), and a file is hashed as it is read, 64 KiB at a time, never copied whole into memory.

use crate::error::Error;
use std::io::Read;

use sha2::{Digest, Sha256};

fn hex(bytes: &[u8]) -> String {
    let mut s = String::with_capacity(2 * bytes.len());
    for b in bytes {
        s.push_str(&format!("{b:02x}"));
    }
    s
}

/// The SHA-256 of `data`, as 64 lowercase hex digits.
pub fn sha256_hex(data: &[u8]) -> String {
    hex(&Sha256::digest(data))
}

/// The SHA-256 of a file, read in blocks (bounded memory whatever its size).
pub fn sha256_file(path: &std::path::Path) -> std::io::Result<String> {
    let mut f = std::fs::File::open(path)?;
    let mut h = Sha256::new();
    let mut buf = vec![0u8; 1 << 16];
    loop {
        let n = f.read(&mut buf)?;
        if n == 0 {
            break;
        }
        h.update(&buf[..n]);
    }
    Ok(hex(&h.finalize()))
}

/// The key of a sealed JSON file's digest (issue 62).
pub const SEAL: &str = "digest";

/// The SHA-256 of a JSON object's content without its [`SEAL`] key, over its compact text.
fn content_digest(v: &serde_json::Value) -> String {
    let mut v = v.clone();
    if let Some(o) = v.as_object_mut() {
        o.remove(SEAL);
    }
    sha256_hex(
        serde_json::to_string(&v)
            .expect("JSON serialises")
            .as_bytes(),
    )
}

/// `v` (a JSON object) with its digest under [`SEAL`]: what a file of saved sums, a manifest or
/// an answer is written as, so that an edit made after the run wrote it is caught when it is read
/// (issue 62). It stops careless and accidental edits; a deliberate forger who recomputes it is
/// caught only by replaying (`skirmish verify`), as docs/datasets.md says.
pub fn seal(mut v: serde_json::Value) -> serde_json::Value {
    let d = content_digest(&v);
    if let Some(o) = v.as_object_mut() {
        o.insert(SEAL.into(), serde_json::Value::String(d));
    }
    v
}

/// [`seal`] of a serialisable value, as pretty JSON text ending in a newline.
pub fn sealed_text<T: serde::Serialize>(value: &T) -> String {
    let v = seal(serde_json::to_value(value).expect("serialisable"));
    serde_json::to_string_pretty(&v).expect("JSON serialises") + "\n"
}

/// The content of a sealed file read from `path` (its [`SEAL`] key removed), or why it cannot be
/// trusted: not JSON, no digest, or a digest its content does not give (edited after writing).
pub fn unseal(path: &std::path::Path, text: &str) -> Result<serde_json::Value, Error> {
    let mut v: serde_json::Value = serde_json::from_str(text)
        .map_err(|e| format!("{}: not a file skirmish wrote ({e})", path.display()))?;
    let recorded = v.get(SEAL).and_then(|d| d.as_str()).map(str::to_string);
    let Some(recorded) = recorded else {
        return Err(Error::Input(format!(
            "{}: `{SEAL}`: missing; skirmish seals every file of saved sums and answers, so this one was written by an older version or edited. Run the command that made it again into a new --out",
            path.display()
        )));
    };
    if content_digest(&v) != recorded {
        return Err(Error::Input(format!(
            "{}: `{SEAL}`: the content does not give the recorded digest: the file was edited after skirmish wrote it. Restore it, or run the command that made it again into a new --out",
            path.display()
        )));
    }
    if let Some(o) = v.as_object_mut() {
        o.remove(SEAL);
    }
    Ok(v)
}

/// The most a kept text file (a manifest, saved sums, an answer) may hold: far above any a run
/// writes, so a file at it was not written by one.
pub const KEPT_MAX_BYTES: u64 = 1 << 30;

/// The text of a file a run keeps in its folder, read only if it is a plain file (never through
/// a link, never a FIFO or a device) of at most [`KEPT_MAX_BYTES`] (issue 79: a received
/// folder's shard file linked to /dev/zero was read without bound, and a FIFO hung `verify`).
pub fn read_kept(path: &std::path::Path) -> Result<String, Error> {
    let refuse = |why: &str| {
        Error::Input(format!(
            "{}: {why}; skirmish writes only plain files there: remove it, or run the command that made the folder again into a new --out",
            path.display()
        ))
    };
    // Looked at without following a link, before anything is opened (opening a FIFO waits).
    let meta = std::fs::symlink_metadata(path).map_err(|e| format!("{}: {e}", path.display()))?;
    if !meta.file_type().is_file() {
        return Err(refuse(if meta.file_type().is_symlink() {
            "a link, not a file (links are never followed)"
        } else {
            "not a plain file"
        }));
    }
    if meta.len() > KEPT_MAX_BYTES {
        return Err(refuse(&format!(
            "{} bytes, more than any file a run keeps ({KEPT_MAX_BYTES})",
            meta.len()
        )));
    }
    let f =
        std::fs::File::open(path).map_err(|e| Error::Input(format!("{}: {e}", path.display())))?;
    let mut text = String::new();
    f.take(KEPT_MAX_BYTES + 1)
        .read_to_string(&mut text)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    if text.len() as u64 > KEPT_MAX_BYTES {
        return Err(refuse("grew past the most any file a run keeps holds"));
    }
    Ok(text)
}

/// [`read_kept`], then [`unseal`]: the content of a sealed file a folder keeps.
pub fn read_sealed(path: &std::path::Path) -> Result<serde_json::Value, Error> {
    unseal(path, &read_kept(path)?)
}

/// [`read_sealed`] of a file a folder may not hold yet: `None` when nothing is there; anything
/// else there (a link, a FIFO, an edited file) is refused as [`read_sealed`] refuses it.
pub fn read_sealed_if_there(path: &std::path::Path) -> Result<Option<serde_json::Value>, Error> {
    match std::fs::symlink_metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        _ => read_sealed(path).map(Some),
    }
}

#[cfg(test)]
mod tests {
    use super::{read_kept, read_sealed, seal, sealed_text, sha256_file, sha256_hex, unseal};

    /// Issue 79: a kept file linked to /dev/zero, a FIFO or a folder is refused at once,
    /// naming it; a plain sealed file reads back.
    #[test]
    fn kept_files_are_read_only_when_plain_never_through_a_link() {
        let dir = crate::platform::scratch::Scratch::new("digest-kept").unwrap();
        let plain = dir.path().join("plain.json");
        std::fs::write(&plain, sealed_text(&serde_json::json!({"a": 1}))).unwrap();
        assert_eq!(read_sealed(&plain).unwrap()["a"], 1);
        let link = dir.path().join("link.json");
        std::os::unix::fs::symlink("/dev/zero", &link).unwrap();
        let e = read_kept(&link).unwrap_err().to_string();
        assert!(e.contains("link.json") && e.contains("a link"), "{e}");
        let to_plain = dir.path().join("to-plain.json");
        std::os::unix::fs::symlink(&plain, &to_plain).unwrap();
        assert!(
            read_sealed(&to_plain)
                .unwrap_err()
                .to_string()
                .contains("a link")
        );
        let fifo = dir.path().join("fifo.json");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        if made.is_ok_and(|s| s.success()) {
            let e = read_kept(&fifo).unwrap_err().to_string();
            assert!(e.contains("not a plain file"), "{e}");
        }
        assert!(
            read_kept(dir.path())
                .unwrap_err()
                .to_string()
                .contains("not a plain file")
        );
    }

    #[test]
    fn a_sealed_file_reads_back_and_an_edit_is_caught() {
        let p = std::path::Path::new("x.json");
        let text = sealed_text(&serde_json::json!({"n": 300, "sums": [1, 2, 3], "f": 0.1}));
        let back = unseal(p, &text).unwrap();
        assert_eq!(
            back,
            serde_json::json!({"n": 300, "sums": [1, 2, 3], "f": 0.1})
        );
        let edited = text.replace("300", "299");
        let e = unseal(p, &edited).unwrap_err().to_string();
        assert!(
            e.starts_with("x.json: `digest`") && e.contains("edited"),
            "{e}"
        );
        let bare = serde_json::to_string(&serde_json::json!({"n": 300})).unwrap();
        assert!(
            unseal(p, &bare)
                .unwrap_err()
                .to_string()
                .contains("missing")
        );
        assert!(seal(serde_json::json!({"a": 1})).get("digest").is_some());
    }

    #[test]
    fn fips_180_vectors() {
        assert_eq!(
            sha256_hex(b""),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
        assert_eq!(
            sha256_hex(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert_eq!(
            sha256_hex(b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        );
        let million = vec![b'a'; 1_000_000];
        assert_eq!(
            sha256_hex(&million),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"
        );
        // The same read from a file in blocks (16 of them here).
        let dir = crate::platform::scratch::Scratch::new("digest").unwrap();
        let path = dir.path().join("million");
        std::fs::write(&path, &million).unwrap();
        assert_eq!(sha256_file(&path).unwrap(), sha256_hex(&million));
    }
}

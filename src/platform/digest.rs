//! SHA-256 (FIPS 180-4) of a part file, recorded in the manifest so that a resumed run and
//! `skirmish verify` can tell a part that is still what was written from one that was truncated,
//! edited or replaced. The `sha2` crate computes it (already in the build through polars; issue
//! 53), and a file is hashed as it is read, 64 KiB at a time, never copied whole into memory.

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
pub fn unseal(path: &std::path::Path, text: &str) -> Result<serde_json::Value, String> {
    let mut v: serde_json::Value = serde_json::from_str(text)
        .map_err(|e| format!("{}: not a file skirmish wrote ({e})", path.display()))?;
    let recorded = v.get(SEAL).and_then(|d| d.as_str()).map(str::to_string);
    let Some(recorded) = recorded else {
        return Err(format!(
            "{}: `{SEAL}`: missing; skirmish seals every file of saved sums and answers, so this one was written by an older version or edited. Run the command that made it again into a new --out",
            path.display()
        ));
    };
    if content_digest(&v) != recorded {
        return Err(format!(
            "{}: `{SEAL}`: the content does not give the recorded digest: the file was edited after skirmish wrote it. Restore it, or run the command that made it again into a new --out",
            path.display()
        ));
    }
    if let Some(o) = v.as_object_mut() {
        o.remove(SEAL);
    }
    Ok(v)
}

#[cfg(test)]
mod tests {
    use super::{seal, sealed_text, sha256_file, sha256_hex, unseal};

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
        let e = unseal(p, &edited).unwrap_err();
        assert!(
            e.starts_with("x.json: `digest`") && e.contains("edited"),
            "{e}"
        );
        let bare = serde_json::to_string(&serde_json::json!({"n": 300})).unwrap();
        assert!(unseal(p, &bare).unwrap_err().contains("missing"));
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
        let path = std::env::temp_dir().join(format!("skirmish-digest-{}", std::process::id()));
        std::fs::write(&path, &million).unwrap();
        assert_eq!(sha256_file(&path).unwrap(), sha256_hex(&million));
        std::fs::remove_file(&path).unwrap();
    }
}

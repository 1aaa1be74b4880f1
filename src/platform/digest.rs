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

#[cfg(test)]
mod tests {
    use super::{sha256_file, sha256_hex};

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

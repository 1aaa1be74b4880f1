//! Helpers shared by the integration tests (each test binary uses some of them).
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Output;

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

/// Runs the built `skirmish` binary with `args`.
pub fn skirmish(args: &[&str]) -> Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_skirmish"))
        .args(args)
        .output()
        .expect("the binary runs")
}

/// A fresh (removed) temporary path, unique to this test process, `prefix` and `name`.
pub fn tmp(prefix: &str, name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("skirmish-{prefix}-{}-{name}", std::process::id()));
    let _ = fs::remove_dir_all(&d);
    d
}

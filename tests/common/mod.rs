//! Helpers shared by the platform's integration tests.

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;

/// Every part file of a rumble dataset, `table/part-NNNNN.parquet` -> bytes.
pub fn dataset_files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut out = BTreeMap::new();
    for table in ["matches", "heroes"] {
        for e in fs::read_dir(dir.join(table)).unwrap() {
            let p = e.unwrap().path();
            let name = format!("{table}/{}", p.file_name().unwrap().to_str().unwrap());
            out.insert(name, fs::read(&p).unwrap());
        }
    }
    out
}

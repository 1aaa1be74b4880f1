//! The platform's promises, on real Parquet datasets: the same bytes for any thread count, the
//! same data for any chunk size, shards whose union is a one-machine run, resumption, and a
//! manifest that refuses to mix runs. Read back with polars.

use crate::common;

use std::fs;
use std::path::Path;

use common::{dataset_files, table};
use skirmish::games::auto_rumble::simulation::ffa::{Ffa, FfaSettings};
use skirmish::platform::job::Job;
use skirmish::platform::parquet;
use skirmish::platform::plan::Shard;

fn tmp(name: &str) -> common::Tmp {
    common::tmp("ds", name)
}

/// Small, quick rosters (a low capacity keeps Amoeba battles short) that still use every power.
fn ffa() -> Ffa {
    Ffa::new(
        &skirmish::platform::sources::Sources::disk(),
        FfaSettings {
            capacity: 64,
            ..FfaSettings::default()
        },
    )
    .unwrap()
}

fn job<'a>(sim: &'a Ffa, out: &Path, matches: u64, chunk: u64, threads: usize) -> Job<'a, Ffa> {
    Job {
        inputs: Vec::new(),
        sim,
        settings: serde_json::to_value(&sim.settings).unwrap(),
        seed: 42,
        matches,
        count_flag: "--matches",
        chunk_size: chunk,
        out: out.to_path_buf(),
        threads,
        shard: None,
        progress: false,
        command: "test".into(),
        experiment: None,
    }
}

/// A table's rows from every part, in part order.
#[test]
fn files_are_the_same_bytes_for_1_2_and_16_threads() {
    let sim = ffa();
    let mut seen = Vec::new();
    for threads in [1, 2, 16] {
        let dir = tmp(&format!("threads{threads}"));
        job(&sim, &dir, 3_000, 400, threads)
            .run(parquet::encode)
            .unwrap();
        seen.push((
            dataset_files(&dir),
            fs::read(dir.join("manifest.json")).unwrap(),
        ));
        fs::remove_dir_all(&dir).unwrap();
    }
    assert_eq!(seen[0].0.len(), 2 * 8, "8 parts per table");
    assert!(seen.iter().all(|s| s == &seen[0]));
}

#[test]
fn data_is_the_same_for_any_chunk_size() {
    let sim = ffa();
    let mut frames = Vec::new();
    for chunk in [1_000, 333, 64] {
        let dir = tmp(&format!("chunk{chunk}"));
        job(&sim, &dir, 1_000, chunk, 2)
            .run(parquet::encode)
            .unwrap();
        frames.push((table(&dir, "matches"), table(&dir, "heroes")));
        fs::remove_dir_all(&dir).unwrap();
    }
    for f in &frames[1..] {
        assert!(f.0.equals_missing(&frames[0].0));
        assert!(f.1.equals_missing(&frames[0].1));
    }
}

#[test]
fn shards_union_is_byte_identical_to_one_machine_and_a_sealing_run_writes_its_manifest() {
    let sim = ffa();
    let whole = tmp("whole");
    job(&sim, &whole, 2_000, 150, 2)
        .run(parquet::encode)
        .unwrap();
    let shared = tmp("shards");
    for index in 0..3 {
        let mut j = job(&sim, &shared, 2_000, 150, 1);
        j.shard = Some(Shard { index, count: 3 });
        let (report, _) = j.run(parquet::encode).unwrap();
        assert!(report.parts_written >= 4, "each shard runs its own slice");
        assert!(
            shared
                .join(format!("manifest-shard-{index}-of-3.json"))
                .is_file()
        );
    }
    assert_eq!(dataset_files(&shared), dataset_files(&whole));
    // A run without --shard over the shards' folder finds every part done and seals it.
    let (report, _) = job(&sim, &shared, 2_000, 150, 2)
        .run(parquet::encode)
        .unwrap();
    assert_eq!((report.parts_written, report.parts_kept), (0, 14));
    assert_eq!(
        fs::read(shared.join("manifest.json")).unwrap(),
        fs::read(whole.join("manifest.json")).unwrap()
    );
    fs::remove_dir_all(&whole).unwrap();
    fs::remove_dir_all(&shared).unwrap();
}

#[test]
fn a_run_resumes_from_its_manifest_and_ends_with_the_same_bytes() {
    let sim = ffa();
    let whole = tmp("resume-whole");
    job(&sim, &whole, 1_500, 200, 2)
        .run(parquet::encode)
        .unwrap();
    // An interrupted run: part 3 never finished (no manifest entry, a stray temporary file, a
    // truncated file under its real name), part 5 lost its heroes file.
    let broken = tmp("resume-broken");
    job(&sim, &broken, 1_500, 200, 2)
        .run(parquet::encode)
        .unwrap();
    let manifest = broken.join("manifest.json");
    let mut m: serde_json::Value = serde_json::from_slice(&fs::read(&manifest).unwrap()).unwrap();
    m["parts"]
        .as_array_mut()
        .unwrap()
        .retain(|p| p["part"] != 3);
    // As a run killed before part 3 wrote it: sealed (issue 62).
    let m = skirmish::platform::digest::seal(m);
    fs::write(&manifest, serde_json::to_string_pretty(&m).unwrap()).unwrap();
    fs::write(broken.join("matches/.part-00003.parquet.tmp"), b"half").unwrap();
    fs::write(broken.join("heroes/part-00003.parquet"), b"trunc").unwrap();
    fs::remove_file(broken.join("heroes/part-00005.parquet")).unwrap();

    let (report, _) = job(&sim, &broken, 1_500, 200, 2)
        .run(parquet::encode)
        .unwrap();
    assert_eq!((report.parts_written, report.parts_kept), (2, 6));
    assert_eq!(dataset_files(&broken), dataset_files(&whole));
    assert_eq!(
        fs::read(&manifest).unwrap(),
        fs::read(whole.join("manifest.json")).unwrap()
    );
    fs::remove_dir_all(&whole).unwrap();
    fs::remove_dir_all(&broken).unwrap();
}

#[test]
fn a_folder_holding_a_different_run_is_an_error_and_is_left_alone() {
    let sim = ffa();
    let dir = tmp("mismatch");
    job(&sim, &dir, 300, 100, 1).run(parquet::encode).unwrap();
    let before = dataset_files(&dir);
    let mut other = job(&sim, &dir, 300, 100, 1);
    other.seed = 43;
    let err = other.run(parquet::encode).unwrap_err().to_string();
    assert!(err.contains("different run"), "{err}");
    assert!(err.contains("seed: 42 there, 43 here"), "{err}");
    assert_eq!(dataset_files(&dir), before);
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn tables_read_back_with_polars_are_consistent_and_self_describing() {
    let sim = ffa();
    let dir = tmp("readback");
    job(&sim, &dir, 500, 250, 2).run(parquet::encode).unwrap();
    let matches = table(&dir, "matches");
    let heroes = table(&dir, "heroes");
    assert_eq!(matches.height(), 500);
    let ids: Vec<u64> = matches
        .column("match_id")
        .unwrap()
        .u64()
        .unwrap()
        .into_no_null_iter()
        .collect();
    assert_eq!(ids, (0..500).collect::<Vec<_>>());
    let n_heroes: u64 = matches
        .column("heroes")
        .unwrap()
        .u8()
        .unwrap()
        .into_no_null_iter()
        .map(u64::from)
        .sum();
    assert_eq!(heroes.height() as u64, n_heroes);
    // Exactly one winning hero per decided match, none in a draw.
    let draws = matches
        .column("draw")
        .unwrap()
        .bool()
        .unwrap()
        .sum()
        .unwrap() as usize;
    let winners = heroes.column("won").unwrap().bool().unwrap().sum().unwrap() as usize;
    assert_eq!(winners + draws, 500);
    // Column descriptions travel in the file.
    let bytes = fs::read(dir.join("heroes/part-00000.parquet")).unwrap();
    let text = String::from_utf8_lossy(&bytes);
    assert!(text.contains("skirmish.columns"));
    assert!(text.contains("the hero's own Energy at the end; null if it died"));
    fs::remove_dir_all(&dir).unwrap();
}

/// Issue 24, item 11: every part once rewrote the whole manifest (8,000 one-match parts took
/// 42 s). Now, past its first 100 parts, it is rewritten at most once a second while parts
/// arrive and once at the end, and still lists every part.
#[test]
fn a_run_of_many_small_parts_rewrites_its_manifest_at_most_once_a_second() {
    let sim = ffa();
    let out = tmp("batched-manifest");
    let start = std::time::Instant::now();
    let (report, ds) = job(&sim, &out, 2_000, 1, 2).run(parquet::encode).unwrap();
    let secs = start.elapsed().as_secs();
    assert_eq!(report.parts_written, 2_000);
    // Opening, the first 100 parts, one per elapsed second, the end.
    assert!(
        ds.manifest_writes() <= 1 + 100 + secs + 1,
        "{} manifest writes in {secs} s",
        ds.manifest_writes()
    );
    drop(ds);
    let m: serde_json::Value =
        serde_json::from_slice(&fs::read(out.join("manifest.json")).unwrap()).unwrap();
    assert_eq!(m["parts"].as_array().unwrap().len(), 2_000);
    fs::remove_dir_all(&out).unwrap();
}

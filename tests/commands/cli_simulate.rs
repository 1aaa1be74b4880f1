//! `skirmish simulate`, `skirmish run` and `skirmish bench` as a user runs them: summaries, exit
//! codes, nothing written on bad input, and a run killed halfway that resumes to the same bytes.

use crate::common;

use std::fs;
use std::path::Path;
use std::process::Command;

use common::{dataset_files, run_killed, skirmish};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_skirmish"))
}

fn tmp(name: &str) -> common::Tmp {
    common::tmp("cli-sim", name)
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

#[test]
fn simulate_writes_a_dataset_and_prints_the_summary_with_wilson_intervals() {
    let out = tmp("summary");
    let args = [
        "simulate",
        "rumble",
        "--matches",
        "3000",
        "--seed",
        "7",
        "--chunk-size",
        "1000",
        "--capacity",
        "64",
        "--out",
        out.to_str().unwrap(),
    ];
    let o = skirmish(&args);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let s = text(&o.stdout);
    assert!(s.contains("rumble-ffa: 3,000 matches played"), "{s}");
    assert!(s.contains("matches/s overall"), "{s}");
    assert!(s.contains("per thread on"), "{s}");
    assert!(s.contains("win rate by heroes in the battle"), "{s}");
    assert!(s.contains("win rate by power held"), "{s}");
    assert!(s.contains("Cosmic Shield"), "{s}");
    // stderr is not a terminal here: no progress bar noise.
    assert!(o.stderr.is_empty(), "{}", text(&o.stderr));
    assert_eq!(dataset_files(&out).len(), 6);
    let m = fs::read_to_string(out.join("manifest.json")).unwrap();
    assert!(m.contains("\"seed\": 7"), "{m}");
    assert!(
        m.contains("skirmish simulate rumble --matches 3000 --seed 7"),
        "{m}"
    );
    // Re-running the finished command resumes: nothing to do, same files.
    let before = dataset_files(&out);
    let o = skirmish(&[&args[..], &["--threads", "1"]].concat());
    assert!(o.status.success());
    assert!(text(&o.stdout).contains("0 parts written now, 3 kept"));
    assert_eq!(dataset_files(&out), before);
    fs::remove_dir_all(&out).unwrap();
}

#[test]
fn a_run_killed_halfway_resumes_to_the_same_bytes_as_an_uninterrupted_run() {
    killed_and_resumed("1");
}

/// Issue 66: workers write their parts themselves, so a killed run on two threads can leave a
/// part's files written ahead of the manifest; the resumed run writes them again, same bytes.
#[test]
fn a_two_thread_run_killed_halfway_resumes_to_the_same_bytes() {
    killed_and_resumed("2");
}

fn killed_and_resumed(threads: &str) {
    let args = |out: &Path| -> Vec<String> {
        [
            "simulate",
            "rumble",
            "--matches",
            "60000",
            "--chunk-size",
            "1000",
            "--threads",
            threads,
            "--capacity",
            "128",
            "--out",
        ]
        .iter()
        .map(|s| s.to_string())
        .chain([out.display().to_string()])
        .collect()
    };
    let whole = tmp(&format!("kill-whole-{threads}"));
    assert!(
        skirmish(&args(&whole).iter().map(|s| s.as_str()).collect::<Vec<_>>())
            .status
            .success()
    );

    let killed = tmp(&format!("kill-killed-{threads}"));
    let finished = run_killed(&args(&killed), &killed, 3);
    let manifest = killed.join("manifest.json");

    assert!(
        finished < 60,
        "the run was killed before it finished ({finished} parts)"
    );

    let o = skirmish(&args(&killed).iter().map(|s| s.as_str()).collect::<Vec<_>>());
    assert!(o.status.success(), "{}", text(&o.stderr));
    let summary = text(&o.stdout);
    assert!(
        summary.contains(&format!(
            "{} parts written now, {finished} kept from an earlier run",
            60 - finished
        )),
        "{summary}"
    );
    assert_eq!(dataset_files(&killed), dataset_files(&whole));
    assert_eq!(
        fs::read(&manifest).unwrap(),
        fs::read(whole.join("manifest.json")).unwrap()
    );
    fs::remove_dir_all(&whole).unwrap();
    fs::remove_dir_all(&killed).unwrap();
}

#[test]
fn bad_settings_exit_2_with_one_message_and_write_nothing() {
    let out = tmp("bad");
    let o_str = out.to_str().unwrap();
    for (flags, expect) in [
        (vec!["--heroes", "1..3"], "a battle needs at least 2 heroes"),
        (
            vec!["--coins", "60..-30"],
            "coins: the range 60..-30 is empty",
        ),
        (
            vec!["--powers", "2..2", "--catalogue", "Amoeba"],
            "lower the maximum to 1",
        ),
        (vec!["--catalogue", "Amoba"], "did you mean `Amoeba`?"),
        (vec!["--heroes", "2-6"], "expected MIN..MAX"),
        (vec!["--matches", "0"], "--matches 0"),
        (vec!["--shard", "3/3"], "0 <= K < N"),
        (
            vec!["--capacity", "3", "--heroes", "2..4"],
            "capacity: 3 must hold",
        ),
    ] {
        let mut args = vec!["simulate", "rumble", "--out", o_str];
        args.extend(flags.iter());
        let o = skirmish(&args);
        assert_eq!(o.status.code(), Some(2), "{flags:?}");
        let e = text(&o.stderr);
        assert!(
            e.starts_with("error: ") && e.contains(expect),
            "{flags:?}: {e}"
        );
        assert!(o.stdout.is_empty());
        assert!(!out.exists(), "{flags:?} wrote {}", out.display());
    }
}

#[test]
fn an_unwritable_or_foreign_output_folder_is_refused() {
    let o = skirmish(&[
        "simulate",
        "rumble",
        "--matches",
        "10",
        "--out",
        "/proc/skirmish/x",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("cannot create"),
        "{}",
        text(&o.stderr)
    );

    let foreign = tmp("foreign");
    fs::create_dir_all(&foreign).unwrap();
    fs::write(foreign.join("notes.txt"), "mine").unwrap();
    let o = skirmish(&[
        "simulate",
        "rumble",
        "--matches",
        "10",
        "--out",
        foreign.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("holds no skirmish manifest"));
    assert_eq!(fs::read_dir(&foreign).unwrap().count(), 1);
    fs::remove_dir_all(&foreign).unwrap();
}

#[test]
fn the_shipped_experiment_runs_and_is_recorded_in_the_manifest() {
    let out = tmp("experiment");
    let o = skirmish(&[
        "run",
        "experiments/rumble-ffa.toml",
        "--matches",
        "500",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let m: serde_json::Value =
        serde_json::from_slice(&fs::read(out.join("manifest.json")).unwrap()).unwrap();
    let shipped = fs::read_to_string("experiments/rumble-ffa.toml").unwrap();
    assert_eq!(m["experiment"].as_str(), Some(shipped.as_str()));
    assert_eq!(m["seed"], 42);
    // The shipped file spells out exactly the built-in defaults.
    let o = skirmish(&[
        "simulate",
        "rumble",
        "--matches",
        "500",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(
        o.status.success(),
        "same settings resume: {}",
        text(&o.stderr)
    );
    fs::remove_dir_all(&out).unwrap();
}

#[test]
fn experiment_files_reject_unknown_keys_with_the_line() {
    let dir = tmp("exp-bad");
    fs::create_dir_all(&dir).unwrap();
    let f = dir.join("bad.toml");
    fs::write(
        &f,
        "command = \"simulate rumble\"\n[settings]\nheros = [2, 4]\n",
    )
    .unwrap();
    let o = skirmish(&[
        "run",
        f.to_str().unwrap(),
        "--out",
        dir.join("out").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    let e = text(&o.stderr);
    assert!(e.contains("bad.toml:3:1") && e.contains("heros"), "{e}");
    assert!(!dir.join("out").exists());
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn shard_comes_from_slurm_or_an_indexed_job_when_the_flag_is_absent() {
    let out = tmp("slurm");
    let o = bin()
        .args([
            "simulate",
            "rumble",
            "--matches",
            "400",
            "--chunk-size",
            "100",
            "--capacity",
            "64",
        ])
        .args(["--out", out.to_str().unwrap()])
        .env("SLURM_ARRAY_TASK_ID", "1")
        .env("SLURM_ARRAY_TASK_COUNT", "2")
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(out.join("manifest-shard-1-of-2.json").is_file());
    assert_eq!(
        dataset_files(&out).keys().cloned().collect::<Vec<_>>(),
        [
            "heroes/part-00002.parquet",
            "heroes/part-00003.parquet",
            "matches/part-00002.parquet",
            "matches/part-00003.parquet"
        ]
    );
    let o = bin()
        .args([
            "simulate",
            "rumble",
            "--matches",
            "400",
            "--chunk-size",
            "100",
            "--capacity",
            "64",
        ])
        .args(["--out", out.to_str().unwrap()])
        .env("JOB_COMPLETION_INDEX", "0")
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("--shard-count"));
    fs::remove_dir_all(&out).unwrap();
}

#[test]
fn bench_reports_every_game_against_the_yardstick_and_end_to_end_rates() {
    let out = std::env::temp_dir().join(format!("skirmish-bench-answer-{}", std::process::id()));
    let _ = fs::remove_dir_all(&out);
    let o = skirmish(&[
        "bench",
        "--matches",
        "400",
        "--threads",
        "2",
        "--size",
        "1",
        "--repeats",
        "1",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let s = text(&o.stdout);
    assert!(s.contains("kernel only"), "{s}");
    assert!(s.contains("end to end is"), "{s}");
    assert!(
        s.contains("battles/s") && s.contains("hits/s") && s.contains("class ops/s"),
        "{s}"
    );
    for game in common::games() {
        assert!(s.contains(game), "{game} is measured: {s}");
    }
    // The answer `reproduce` records: the machine, and every workload's ratio to the yardstick.
    let answer = fs::read_to_string(out.join("result.json")).unwrap();
    assert!(answer.contains("\"source\": \"bench\""), "{answer}");
    assert!(
        answer.contains("speed against this machine's yardstick"),
        "{answer}"
    );
    assert!(answer.contains("\"machine\""), "{answer}");
    assert!(out.join("report.html").is_file());
    fs::remove_dir_all(&out).unwrap();
}

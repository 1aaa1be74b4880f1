//! `skirmish tournament rumble` as a user runs it (AR-45 .. AR-50).

use crate::common;

use std::fs;
use std::path::Path;
use std::process::{Command, Output};

use common::skirmish;
use skirmish::platform::parquet;

fn tmp(name: &str) -> common::Tmp {
    common::tmp("tournament", name)
}

fn run(out: &Path, threads: &str) -> Output {
    skirmish(&[
        "tournament",
        "rumble",
        "--strategies",
        "value(shade=0.5),hoarder,sniper(n=1),spreader,random",
        "--games",
        "300",
        "--chunk-size",
        "100",
        "--value-precision",
        "4",
        "--threads",
        threads,
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ])
}

#[test]
fn a_tournament_prints_its_tables_and_writes_games_players_and_rounds() {
    let out = tmp("tables");
    let o = run(&out, "2");
    let s = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    for want in [
        "300 games played",
        "win rate by strategy (per seat)",
        "value(shade=0.5)",
        "coins left at the end, by strategy",
        "powers won, by strategy",
        "head to head",
    ] {
        assert!(s.contains(want), "{want}: {s}");
    }
    let read = |t: &str| parquet::read(&out.join(t).join("part-00000.parquet")).unwrap();
    assert_eq!(read("games").height(), 100, "one row per game of the chunk");
    assert_eq!(read("players").height(), 100 * 5);
    assert_eq!(read("rounds").height(), 100 * 5 * 10);
    // Exactly one winner per decided game, and it is the games table's winner.
    let won = read("players")
        .column("won")
        .unwrap()
        .bool()
        .unwrap()
        .sum()
        .unwrap() as usize;
    let decided = read("games")
        .column("winner_seat")
        .unwrap()
        .u16()
        .unwrap()
        .len()
        - read("games").column("winner_seat").unwrap().null_count();
    assert_eq!(won, decided);
}

#[test]
fn a_tournament_writes_the_same_bytes_on_one_thread_and_on_two() {
    let (a, b) = (tmp("t1"), tmp("t2"));
    assert!(run(&a, "1").status.success());
    assert!(run(&b, "2").status.success());
    for t in ["games", "players", "rounds"] {
        for part in ["part-00000.parquet", "part-00002.parquet"] {
            assert_eq!(
                fs::read(a.join(t).join(part)).unwrap(),
                fs::read(b.join(t).join(part)).unwrap(),
                "{t}/{part}"
            );
        }
    }
}

#[test]
fn a_tournament_refuses_unknown_strategies_and_bad_tables_and_writes_nothing() {
    for (args, says) in [
        (vec!["--strategies", "valeu,random"], "did you mean `value`"),
        (
            vec!["--strategies", "value(greed=1),random"],
            "no parameter `greed`",
        ),
        (vec!["--players", "2"], "3 to 12 players"),
        (vec!["--strategies", "random,random"], "listed twice"),
    ] {
        let out = tmp("bad");
        let mut all = vec![
            "tournament",
            "rumble",
            "--games",
            "10",
            "--quiet",
            "--out",
            out.to_str().unwrap(),
        ];
        all.extend(args.iter());
        let o = skirmish(&all);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let e = String::from_utf8_lossy(&o.stderr);
        assert!(e.contains(says), "{args:?}: {e}");
        assert!(!out.exists(), "{args:?} wrote {out:?}");
    }
}

#[test]
fn a_tournament_experiment_file_runs_and_is_recorded_and_a_typo_is_refused() {
    let dir = tmp("experiment");
    fs::create_dir_all(&dir).unwrap();
    let file = dir.join("t.toml");
    let out = dir.join("out");
    fs::write(
        &file,
        "command = \"tournament rumble\"\nstrategies = [\"hoarder(bid=2)\", \"spreader\", \"planner(top=3)\"]\n\
         games = 500\nvalue_precision = 4\nseed = 7\nchunk_size = 50\n",
    )
    .unwrap();
    let args = |o: &Path| {
        vec![
            "run".to_string(),
            file.to_str().unwrap().to_string(),
            "--matches".into(),
            "60".into(),
            "--quiet".into(),
            "--out".into(),
            o.to_str().unwrap().to_string(),
        ]
    };
    let o = Command::new(env!("CARGO_BIN_EXE_skirmish"))
        .args(args(&out))
        .output()
        .unwrap();
    let s = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    // --matches overrides the file's 500 games; the file's parameters reach the strategies.
    assert!(s.contains("60 games played"), "{s}");
    assert!(s.contains("planner(shade=0.3, top=3, fill=5)"), "{s}");
    let manifest = fs::read_to_string(out.join("manifest.json")).unwrap();
    assert!(
        manifest.contains("hoarder(bid=2)") && manifest.contains("\"seed\": 7"),
        "{manifest}"
    );
    assert!(
        manifest.contains("tournament rumble"),
        "the file's text is kept: {manifest}"
    );

    fs::write(
        &file,
        "command = \"tournament rumble\"\nstrategies = [\"hoarder\", \"spreader\", \"random\"]\ngame = 10\n",
    )
    .unwrap();
    let bad = dir.join("bad");
    let o = Command::new(env!("CARGO_BIN_EXE_skirmish"))
        .args(args(&bad))
        .output()
        .unwrap();
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success());
    assert!(
        e.contains("t.toml:3:1") && e.contains("unknown field `game`"),
        "{e}"
    );
    assert!(!bad.exists(), "nothing written");
}

// A finished tournament run again into its folder is recognised as the same run and kept: the
// settings recorded in the manifest (coin values included, floats with every digit) read back
// equal to the command's own.
#[test]
fn a_tournament_run_again_into_its_folder_resumes_instead_of_refusing() {
    let out = tmp("again");
    let o = run(&out, "2");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let o = run(&out, "1");
    let s = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(s.contains("0 parts written now"), "{s}");
}

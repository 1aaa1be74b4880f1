//! `skirmish tournament clan-melee` as a user runs it (CM-30, CM-31).

use crate::common;

use std::fs;
use std::path::Path;
use std::process::{Command, Output};

use common::skirmish;
use skirmish::platform::parquet;

fn tmp(name: &str) -> common::Tmp {
    common::tmp("clan-melee", name)
}

fn run(out: &Path, mode: &str, threads: &str, extra: &[&str]) -> Output {
    let mut args = vec![
        "tournament",
        "clan-melee",
        "--mode",
        mode,
        "--budgets",
        "100,1000,10000",
        "--melees",
        "6",
        "--chunk-size",
        "4",
        "--threads",
        threads,
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    skirmish(&args)
}

/// Both runs wrote the same bytes in every part of both tables.
fn same_parts(a: &Path, b: &Path) {
    for t in ["melees", "clans"] {
        for part in 0..5 {
            let f = format!("part-{part:05}.parquet");
            assert_eq!(
                fs::read(a.join(t).join(&f)).unwrap(),
                fs::read(b.join(t).join(&f)).unwrap(),
                "{t}/{f}"
            );
        }
    }
}

#[test]
fn both_modes_print_the_win_table_and_write_melees_and_clans() {
    for mode in ["sane", "reference"] {
        let out = tmp(mode);
        let o = run(&out, mode, "2", &[]);
        let s = String::from_utf8_lossy(&o.stdout);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        for want in [
            &format!("mode: {mode}"),
            "18 melees played",
            "wins per clan and budget",
            "ClanSALTfightingArtichokes",
            "(deadlock)",
            "(turn cap)",
        ] {
            assert!(s.contains(want), "{want}: {s}");
        }
        let melees = parquet::read(&out.join("melees").join("part-00000.parquet")).unwrap();
        assert_eq!(melees.height(), 4);
        let clans = parquet::read(&out.join("clans").join("part-00000.parquet")).unwrap();
        assert_eq!(clans.height(), 4 * 9, "one row per clan per melee");
    }
}

#[test]
fn the_same_seed_gives_the_same_bytes_on_one_thread_and_on_two() {
    let (a, b) = (tmp("t1"), tmp("t2"));
    assert!(run(&a, "reference", "1", &[]).status.success());
    assert!(run(&b, "reference", "2", &[]).status.success());
    same_parts(&a, &b);
}

// CM-14: `--engine members` plays member by member; where classes never pay (100 .. 10,000 hp
// with the classic clans) both engines write the very same melees.
#[test]
fn both_engines_write_the_same_melees_where_classes_never_pay() {
    let (a, b) = (tmp("engine-classes"), tmp("engine-members"));
    assert!(run(&a, "sane", "2", &[]).status.success());
    let o = run(&b, "sane", "2", &["--engine", "members"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    same_parts(&a, &b);
    let manifest = fs::read_to_string(b.join("manifest.json")).unwrap();
    assert!(manifest.contains("\"engine\": \"members\""), "{manifest}");
}

#[test]
fn bad_flags_and_a_malformed_clan_exit_2_and_write_nothing() {
    let out = tmp("bad");
    let dir = tmp("badclans");
    fs::create_dir_all(&dir).unwrap();
    let clan = dir.join("broken.toml");
    fs::write(&clan, "name = \"x\"\n[[roster]]\nmembers = []\n[kinds.k]\ntype = \"warior\"\nrule = [{ ap = 1 }]\n").unwrap();
    let cases: Vec<(Vec<String>, &str)> = vec![
        (
            vec!["--mode".into(), "zany".into()],
            "write sane or reference",
        ),
        (
            vec!["--budgets".into(), "100,ten".into()],
            "`ten` is not a budget",
        ),
        (vec!["--melees".into(), "0".into()], "at least 1 melee"),
        (
            vec!["--engine".into(), "fast".into()],
            "write classes (the default) or members",
        ),
        (
            vec![
                "--clans".into(),
                format!("experiments/clan-melee/0-clan1.toml,{}", clan.display()),
            ],
            "kinds.k.type",
        ),
        (
            vec![
                "--clans".into(),
                "experiments/clan-melee/0-clan1.toml".into(),
            ],
            "2 to 255 clans",
        ),
    ];
    for (extra, want) in cases {
        let mut args = vec![
            "tournament".to_string(),
            "clan-melee".into(),
            "--quiet".into(),
            "--out".into(),
            out.display().to_string(),
        ];
        args.extend(extra);
        let o = Command::new(env!("CARGO_BIN_EXE_skirmish"))
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .args(&args)
            .output()
            .unwrap();
        let e = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(e.contains(want), "{want}: {e}");
        assert!(!out.exists(), "nothing written for {args:?}");
    }
}

fn study(out: &Path, threads: &str, extra: &[&str]) -> Output {
    let mut args = vec![
        "analyze",
        "clan-melee",
        "--ap",
        "0,10,30",
        "--healer-share",
        "0,50",
        "--budgets",
        "300,2000",
        "--melees",
        "8",
        "--chunk-size",
        "3",
        "--threads",
        threads,
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    skirmish(&args)
}

// CM-40 .. CM-42: both studies print win rates and clans outlasted per value and budget, write
// one study row per (challenger, budget) with its intervals, one melee row per melee, and the
// challengers as clan files a host can reuse; the bytes do not depend on the thread count.
#[test]
fn the_study_answers_both_questions_with_intervals_and_repeats_exactly() {
    let (a, b) = (tmp("study1"), tmp("study2"));
    let o = study(&a, "1", &[]);
    let s = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    for want in [
        "80 melees played",
        "warrior AP: win rate",
        "the challenger's win rate against the nine reference clans",
        "healer share: clans outlasted",
        "share of the other 9 clans the challenger outlasted",
        "AP 30",
        "healers 50%",
        "best",
    ] {
        assert!(s.contains(want), "{want}: {s}");
    }
    let t = parquet::read(&a.join("study.parquet")).unwrap();
    assert_eq!(t.height(), 5 * 2, "one row per challenger and budget");
    let melees: usize = (0..27)
        .map(|p| {
            parquet::read(&a.join("melees").join(format!("part-{p:05}.parquet")))
                .unwrap()
                .height()
        })
        .sum();
    assert_eq!(melees, 80);
    for f in ["ap0.toml", "ap30.toml", "healers50.toml"] {
        let text = fs::read_to_string(a.join("challengers").join(f)).unwrap();
        skirmish::games::clan_melee::input::clan::Clan::parse(f, &text).unwrap();
    }
    assert!(study(&b, "2", &[]).status.success());
    assert_eq!(
        common::table_files(&a, &["melees"]),
        common::table_files(&b, &["melees"]),
        "same seed, same bytes on 1 and 2 threads"
    );
    assert_eq!(
        fs::read(a.join("study.parquet")).unwrap(),
        fs::read(b.join("study.parquet")).unwrap()
    );
}

#[test]
fn a_bad_study_setting_exits_2_names_the_flag_and_writes_nothing() {
    for (flag, value, says) in [
        ("--healer-share", "0,120", "--healer-share: `120`"),
        ("--ap", "10,10", "listed twice"),
        ("--piece", "0", "--piece 0"),
        (
            "--study",
            "healers",
            "write warrior-ap, healer-share or both",
        ),
    ] {
        let out = tmp(&format!("bad-study-{}", flag.trim_start_matches('-')));
        let o = skirmish(&[
            "analyze",
            "clan-melee",
            "--melees",
            "2",
            "--quiet",
            "--out",
            out.to_str().unwrap(),
            flag,
            value,
        ]);
        assert_eq!(o.status.code(), Some(2), "{flag} {value}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(says), "{says}: {err}");
        assert!(!out.exists(), "{flag} {value} wrote {}", out.display());
    }
}

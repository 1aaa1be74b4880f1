//! `skirmish analyze rumble powers` as a user runs it: the ranking, the Parquet tables read back by
//! polars, the same bytes on any thread count, and bad input refused with nothing written.

use crate::common;

use std::fs;
use std::path::Path;
use std::process::Output;

use common::skirmish;
use skirmish::platform::parquet;

fn tmp(name: &str) -> common::Tmp {
    common::tmp("analyze", name)
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

const TABLES: [&str; 4] = ["powers", "heroes", "curve", "pairs"];

fn analyze(out: &Path, threads: &str) -> Output {
    skirmish(&[
        "analyze",
        "powers",
        "--powers",
        "experiments/powers/calibration.toml",
        "--power",
        "Calibration +15",
        "--power",
        "Cosmic Shield",
        "--power",
        "Refund",
        "--heroes",
        "3..5",
        "--precision",
        "2",
        "--batch",
        "500",
        "--seed",
        "9",
        "--threads",
        threads,
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ])
}

#[test]
fn analyze_prints_the_ranking_and_writes_tables_polars_reads() {
    let out = tmp("tables");
    let o = analyze(&out, "2");
    assert!(o.status.success(), "{}", text(&o.stderr));
    let s = text(&o.stdout);
    assert!(
        s.contains("stopped: every coin value within ±2 (95%)"),
        "{s}"
    );
    assert!(s.contains("coin value [95%]"), "{s}");
    assert!(s.contains("coin value by heroes in the battle"), "{s}");
    assert!(s.contains("strongest synergies"), "{s}");
    // Cosmic Shield is worth more than 15 coins: it ranks above Calibration +15.
    let shield = s.find("Cosmic Shield").unwrap();
    let cal = s.find("Calibration +15").unwrap();
    assert!(shield < cal, "{s}");

    let powers = parquet::read(&out.join("powers.parquet")).unwrap();
    // Calibration +15 and Cosmic Shield at one strength, Refund at three.
    assert_eq!(powers.height(), 5);
    for c in [
        "power",
        "strength",
        "rosters",
        "win_rate_effect",
        "coin_value",
        "coin_lo",
        "coin_hi",
        "censored",
        "facing_effect",
    ] {
        assert!(powers.column(c).is_ok(), "powers has {c}");
    }
    let heroes = parquet::read(&out.join("heroes.parquet")).unwrap();
    assert_eq!(heroes.height(), 5 * 3, "every row for 3, 4 and 5 heroes");
    let curve = parquet::read(&out.join("curve.parquet")).unwrap();
    assert_eq!(
        curve.height(),
        4 * 15,
        "15 points for all rosters and each hero count"
    );
    let pairs = parquet::read(&out.join("pairs.parquet")).unwrap();
    assert_eq!(pairs.height(), 3 + 9, "3 synergy pairs and 9 counter pairs");
    assert!(
        fs::read_to_string(out.join("summary.txt"))
            .unwrap()
            .contains("seed 9")
    );
}

#[test]
fn analyze_writes_the_same_bytes_on_one_thread_and_on_two() {
    let (a, b) = (tmp("t1"), tmp("t2"));
    assert!(analyze(&a, "1").status.success());
    assert!(analyze(&b, "2").status.success());
    for t in TABLES {
        let name = format!("{t}.parquet");
        assert_eq!(
            fs::read(a.join(&name)).unwrap(),
            fs::read(b.join(&name)).unwrap(),
            "{name}"
        );
    }
}

#[test]
fn analyze_refuses_bad_settings_and_writes_nothing() {
    for (args, says) in [
        (vec!["--heroes", "1..4"], "--heroes"),
        (
            vec!["--power", "Cosmic Sheild"],
            "did you mean `Cosmic Shield`",
        ),
        (vec!["--grid", "0,10"], "--grid"),
        (vec!["--precision", "0"], "--precision"),
        (vec!["--powers", "no/such/file.toml"], "no/such/file.toml"),
        (
            vec!["--rules", "tests/corpus/rumble/rules-free-attack.toml"],
            "rules-free-attack.toml:2:1: `attack_cost`",
        ),
    ] {
        let out = tmp("bad");
        let mut all = vec![
            "analyze",
            "powers",
            "--quiet",
            "--out",
            out.to_str().unwrap(),
        ];
        all.extend(args.iter());
        let o = skirmish(&all);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let e = text(&o.stderr);
        assert!(e.contains(says), "{args:?}: {e}");
        assert!(!out.exists(), "{args:?} wrote {out:?}");
    }
}

#[test]
fn analyze_reports_a_spent_budget() {
    let out = tmp("budget");
    let o = skirmish(&[
        "analyze",
        "powers",
        "--precision",
        "0.01",
        "--max-battles",
        "20000",
        "--batch",
        "100",
        "--synergy",
        "0",
        "--counter",
        "0",
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let s = text(&o.stdout);
    assert!(s.contains("battle budget spent"), "{s}");
    assert!(s.contains("raise --max-battles"), "{s}");
}

/// Issue 51: a rules file reaches every Auto Rumble command that plays battles: the value
/// analysis and the tournament record it (command, settings, input digest), a bad one is refused
/// with nothing written, and `rumble play` tells the dearer attack.
#[test]
fn a_rules_file_reaches_the_value_analysis_and_the_tournament() {
    let rules = "experiments/auto-rumble/costly-attack.toml";
    let out = tmp("rules");
    let o = skirmish(&[
        "analyze",
        "rumble",
        "powers",
        "--rules",
        rules,
        "--max-battles",
        "40000",
        "--batch",
        "500",
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let answer = std::fs::read_to_string(out.join("result.json")).unwrap();
    assert!(
        answer.contains("costly-attack.toml"),
        "the rules file is an input: {answer}"
    );
    let t = tmp("rules-tournament");
    let base = [
        "tournament",
        "rumble",
        "--strategies",
        "random,hoarder,sniper",
        "--games",
        "40",
        "--value-precision",
        "8",
        "--quiet",
        "--out",
    ];
    let o = skirmish(&[&base[..], &[t.to_str().unwrap(), "--rules", rules]].concat());
    assert!(o.status.success(), "{}", text(&o.stderr));
    let m = std::fs::read_to_string(t.join("manifest.json")).unwrap();
    assert!(
        m.contains("attack_cost 10 -> 20") && m.contains("--rules"),
        "{m}"
    );
    let bad = tmp("rules-bad");
    let o = skirmish(
        &[
            &base[..],
            &[
                bad.to_str().unwrap(),
                "--rules",
                "tests/corpus/rumble/rules-too-large.toml",
            ],
        ]
        .concat(),
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("`starting_energy`"),
        "{}",
        text(&o.stderr)
    );
    assert!(!bad.exists());
    // One battle: the sample played under the dearer attack says so as each hero enters.
    let o = skirmish(&["rumble", "play", "--rules", rules]);
    assert!(
        text(&o.stdout).contains("a 20-Energy attack"),
        "{}",
        text(&o.stdout)
    );
}

/// Issue 51: asking a finished analysis for more battles continues it in place: only the new
/// rosters are played, and the folder ends byte for byte as a run that asked for the larger
/// budget from the start; a smaller budget than it holds is refused and the folder kept.
#[test]
fn more_battles_continue_an_analysis_to_the_bytes_of_one_long_run() {
    let (grown, whole) = (tmp("grown"), tmp("whole"));
    let run = |out: &Path, battles: &str| {
        skirmish(&[
            "analyze",
            "rumble",
            "powers",
            "--max-battles",
            battles,
            "--precision",
            "0.01",
            "--batch",
            "300",
            "--quiet",
            "--out",
            out.to_str().unwrap(),
        ])
    };
    assert!(run(&grown, "40000").status.success());
    let o = run(&grown, "90000");
    assert!(o.status.success(), "{}", text(&o.stderr));
    let said = text(&o.stdout);
    assert!(said.starts_with("continued: 930 rosters were in"), "{said}");
    assert!(run(&whole, "90000").status.success());
    let mut names: Vec<String> = std::fs::read_dir(&whole)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert!(names.contains(&"state.json".to_string()), "{names:?}");
    for n in &names {
        let (a, b) = (
            std::fs::read(grown.join(n)).unwrap(),
            std::fs::read(whole.join(n)).unwrap(),
        );
        assert!(
            a == b,
            "{n} differs between the continued and the whole run"
        );
    }
    let o = run(&grown, "40000");
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("already holds 2,093 rosters"),
        "{}",
        text(&o.stderr)
    );
    assert_eq!(
        std::fs::read(grown.join("state.json")).unwrap(),
        std::fs::read(whole.join("state.json")).unwrap()
    );
}

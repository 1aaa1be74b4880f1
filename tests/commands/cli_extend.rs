//! Issue 51: more matches into a finished folder extend it in place: only new chunks are played
//! (a partial last chunk again, whole), the finished parts stay as they are, and the folder is
//! the one a run asking for the larger count from the start writes. A smaller count is refused.

use crate::common;

use common::{skirmish, tmp};

fn files(dir: &std::path::Path) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            let name = p.strip_prefix(dir).unwrap().display().to_string();
            if p.is_dir() {
                stack.push(p);
            } else if !name.ends_with(".lock") {
                out.push((name, std::fs::read(&p).unwrap()));
            }
        }
    }
    out.sort();
    out
}

fn strs(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

fn run(args: &[&str]) -> String {
    let o = skirmish(args);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8_lossy(&o.stdout).to_string()
}

#[test]
fn asking_a_finished_run_for_more_matches_extends_it_to_the_same_bytes() {
    for (game, count) in [("rumble", "--matches"), ("tag", "--games")] {
        let a = tmp("extend", &format!("{game}-a"));
        let b = tmp("extend", &format!("{game}-b"));
        let cmd = |n: &str, out: &std::path::Path| {
            let mut v = vec!["simulate", game, count, n, "--chunk-size", "400", "--quiet"];
            if game == "tag" {
                v[0] = "tournament";
            }
            v.extend(["--out", out.to_str().unwrap()]);
            v.into_iter().map(String::from).collect::<Vec<_>>()
        };
        run(&strs(&cmd("1000", &a)));
        let before = files(&a);
        let said = run(&strs(&cmd("2000", &a)));
        assert!(said.contains("2 kept from an earlier run"), "{said}");
        run(&strs(&cmd("2000", &b)));
        assert_eq!(
            files(&a),
            files(&b),
            "{game}: extended != asked from the start"
        );
        // The finished whole chunks are the files they were.
        for (name, bytes) in &before {
            if name.contains("part-00000") || name.contains("part-00001") {
                let now = files(&a).into_iter().find(|f| &f.0 == name).unwrap();
                assert_eq!(&now.1, bytes, "{name} changed");
            }
        }
        let o = skirmish(&strs(&cmd("1500", &a)));
        assert_eq!(o.status.code(), Some(2));
        assert!(String::from_utf8_lossy(&o.stderr).contains("2000 or more"));
    }
}

// Issue 51: tournaments take --shard like simulate; the shards' parts and the sealing run's
// manifest and answer are those of a one-machine run.
#[test]
fn tournaments_shard_to_the_bytes_of_one_machine() {
    let cases: [(&str, Vec<&str>); 5] = [
        (
            "clan-challengers",
            vec![
                "analyze",
                "clan-melee",
                "challengers",
                "--ap",
                "0,10",
                "--healer-share",
                "50",
                "--budgets",
                "300,2000",
                "--melees",
                "6",
                "--chunk-size",
                "3",
            ],
        ),
        (
            "tag",
            vec!["tournament", "tag", "--games", "900", "--chunk-size", "100"],
        ),
        (
            "loot",
            vec![
                "tournament",
                "loot",
                "--games",
                "600",
                "--chunk-size",
                "100",
            ],
        ),
        (
            "clan",
            vec![
                "tournament",
                "clan-melee",
                "--melees",
                "20",
                "--budgets",
                "1000,10000",
                "--chunk-size",
                "5",
            ],
        ),
        (
            "rumble",
            vec![
                "tournament",
                "rumble",
                "--games",
                "600",
                "--chunk-size",
                "100",
                "--value-precision",
                "4",
            ],
        ),
    ];
    for (name, base) in cases {
        let whole = tmp("shard", &format!("{name}-whole"));
        let split = tmp("shard", &format!("{name}-split"));
        let with = |extra: &[&str], out: &std::path::Path| {
            let mut v = base.clone();
            v.extend(extra);
            v.extend(["--quiet", "--out", out.to_str().unwrap()]);
            run(&v)
        };
        with(&[], &whole);
        with(&["--shard", "0/2"], &split);
        with(&["--shard", "1/2"], &split);
        let sealed = with(&[], &split);
        assert!(sealed.contains("0 parts written now"), "{name}: {sealed}");
        // Issue 53: the sealed folder is what a one-machine run leaves, shard manifests gone.
        assert_eq!(files(&split), files(&whole), "{name}");
        let left: Vec<String> = std::fs::read_dir(&split)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.contains("manifest-shard"))
            .collect();
        assert!(left.is_empty(), "{name}: {left:?}");
    }
}

// Issue 51: two analyses racing into one folder: the second is refused at once, exit 2, and the
// first is left to finish (it used to be that both exited 0 and one result disappeared).
#[test]
fn a_second_analysis_into_a_folder_being_written_is_refused() {
    let out = tmp("claim", "powers");
    let args = |o: &std::path::Path| {
        vec![
            "analyze".to_string(),
            "rumble".into(),
            "powers".into(),
            "--precision".into(),
            "0.01".into(),
            "--max-battles".into(),
            "20000000".into(),
            "--quiet".into(),
            "--out".into(),
            o.to_str().unwrap().to_string(),
        ]
    };
    let mut first = std::process::Command::new(env!("CARGO_BIN_EXE_skirmish"))
        .args(args(&out))
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let lock = out.parent().unwrap().join(format!(
        ".{}.output.lock",
        out.file_name().unwrap().to_str().unwrap()
    ));
    let mut refused = None;
    for _ in 0..200 {
        std::thread::sleep(std::time::Duration::from_millis(25));
        if lock.exists() && first.try_wait().unwrap().is_none() {
            let o = skirmish(&strs(&args(&out)));
            if first.try_wait().unwrap().is_none() {
                refused = Some(o);
                break;
            }
        }
    }
    let _ = first.kill();
    let _ = first.wait();
    let _ = std::fs::remove_file(&lock);
    let o = refused.expect("the second run started while the first was still working");
    assert_eq!(o.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("another `analyze powers` run"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

// Issue 51: Elemental Tag reads a rules file on `tournament tag`; `tag check` reads it back as
// changes in plain words; the what-if moves in one direction for every policy (a dearer tag
// list makes tags rarer: each loses fewer points to being tagged).
#[test]
fn a_tag_rules_file_reads_back_as_changes_and_makes_tags_rarer() {
    let rules = "experiments/tag/tag-cost-4.toml";
    let said = run(&["tag", "check", rules]);
    assert!(said.contains("tag_cost 1 -> 4"), "{said}");
    let (a, b) = (tmp("rules", "tag-a"), tmp("rules", "tag-b"));
    run(&[
        "tournament",
        "tag",
        "--games",
        "2000",
        "--quiet",
        "--out",
        a.to_str().unwrap(),
    ]);
    run(&[
        "tournament",
        "tag",
        "--games",
        "2000",
        "--rules",
        rules,
        "--quiet",
        "--out",
        b.to_str().unwrap(),
    ]);
    let diff = run(&["diff", a.to_str().unwrap(), b.to_str().unwrap()]);
    assert!(diff.contains("tag_cost 1 -> 4"), "{diff}");
    let tags = diff
        .split("points lost to tags by policy")
        .nth(1)
        .unwrap()
        .split("\n\n")
        .next()
        .unwrap();
    let rows: Vec<&str> = tags.lines().filter(|l| l.contains("->")).collect();
    assert_eq!(rows.len(), 5, "{tags}");
    assert!(
        rows.iter().all(|l| l.contains("  -") && l.ends_with('*')),
        "{tags}"
    );
}

// Issue 51's new input, a Tag rules file: a bad one gets one message naming the file, line and
// field, exit 2, and nothing written.
#[test]
fn a_bad_tag_rules_file_is_refused_with_its_line_and_nothing_is_written() {
    let out = tmp("rules", "tag-bad");
    for (text, says) in [
        ("tag_cst = 3\n", "tag_cst"),
        ("\nit_cost = -1\n", "it_cost"),
    ] {
        let file = common::tmp_file("rules", "bad.toml", text);
        let o = skirmish(&[
            "tournament",
            "tag",
            "--rules",
            &file,
            "--quiet",
            "--out",
            out.to_str().unwrap(),
        ]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{err}");
        assert!(err.contains("bad.toml") && err.contains(says), "{err}");
        assert!(!out.exists(), "no partial output");
        assert_eq!(skirmish(&["tag", "check", &file]).status.code(), Some(2));
    }
}

/// Issue 51: an analysis keeps its sums (Loot items' and the Minion study's by cell in
/// `ledger.json`, the power values' in `state.json`): asked again with more battles it plays only
/// the new ones, and shards each play their share into `OUT/shards/` (the power values' every
/// batch of the budget, their stopping rule replayed by the finishing run); either way the
/// folder ends as the bytes of one run on one machine, and a smaller count than a finished
/// run's is refused.
#[test]
fn analyses_continue_and_shard_to_the_bytes_of_one_run() {
    type Case = (
        &'static str,
        &'static [&'static str],
        &'static [&'static str],
        &'static [&'static str],
    );
    let cases: [Case; 3] = [
        (
            "rumble-powers",
            &[
                "analyze",
                "rumble",
                "powers",
                "--precision",
                "1.5",
                "--batch",
                "300",
            ],
            &["--max-battles", "90000"],
            &["--max-battles", "40000"],
        ),
        (
            "loot-items",
            &["analyze", "loot", "items"],
            &["--battles", "600", "--cell", "60"],
            &["--battles", "300", "--cell", "30"],
        ),
        (
            "minions",
            &["analyze", "minions"],
            &["--combats", "400", "--cell", "20"],
            &["--combats", "200", "--cell", "10"],
        ),
    ];
    for (name, cmd, big, small) in cases {
        let one = tmp("extend", &format!("{name}-one"));
        let grown = tmp("extend", &format!("{name}-grown"));
        let sharded = tmp("extend", &format!("{name}-sharded"));
        let with = |out: &std::path::Path, counts: &[&str], extra: &[&str]| {
            let mut a: Vec<&str> = cmd.to_vec();
            a.extend(counts);
            a.extend(["--quiet", "--out", out.to_str().unwrap()]);
            a.extend(extra);
            a.iter().map(|s| s.to_string()).collect::<Vec<_>>()
        };
        run(&strs(&with(&one, big, &[])));
        run(&strs(&with(&grown, small, &[])));
        let said = run(&strs(&with(&grown, big, &[])));
        assert!(said.contains("played now"), "{name}: {said}");
        for k in ["0/3", "1/3", "2/3"] {
            let said = run(&strs(&with(&sharded, big, &["--shard", k])));
            assert!(said.contains("without --shard to finish"), "{name}: {said}");
        }
        run(&strs(&with(&sharded, big, &[])));
        let want = files(&one);
        assert!(
            want.iter()
                .any(|(f, _)| f == "ledger.json" || f == "state.json"),
            "{name}"
        );
        assert_eq!(files(&grown), want, "{name}: continued");
        assert_eq!(files(&sharded), want, "{name}: sharded and finished");
        let o = skirmish(&strs(&with(&grown, small, &[])));
        assert_eq!(
            o.status.code(),
            Some(2),
            "{name}: a smaller count is refused"
        );
        assert!(
            String::from_utf8_lossy(&o.stderr).contains("at least"),
            "{name}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        assert_eq!(files(&grown), want, "{name}: the refused run wrote nothing");
    }
}

/// Issue 51: tournaments and analyses read a cluster's shard as `simulate` does: a Kubernetes
/// Indexed Job's JOB_COMPLETION_INDEX with `--shard-count`, a Slurm array's variables.
#[test]
fn analyses_and_tournaments_take_their_shard_from_a_cluster() {
    let out = tmp("extend", "k8s-items");
    let with_env = |args: &[&str], env: &[(&str, &str)]| {
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_skirmish"))
            .args(args)
            .envs(env.iter().copied())
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        String::from_utf8_lossy(&o.stdout).to_string()
    };
    let o = out.to_str().unwrap();
    let items = [
        "analyze",
        "loot",
        "items",
        "--battles",
        "200",
        "--cell",
        "20",
        "--quiet",
    ];
    let said = with_env(
        &[&items[..], &["--out", o, "--shard-count", "3"]].concat(),
        &[("JOB_COMPLETION_INDEX", "1")],
    );
    assert!(said.starts_with("shard 1/3:"), "{said}");
    assert!(out.join("shards").join("1-of-3.json").is_file());
    let t = tmp("extend", "slurm-tag");
    let said = with_env(
        &[
            "tournament",
            "tag",
            "--games",
            "300",
            "--chunk-size",
            "100",
            "--quiet",
            "--out",
            t.to_str().unwrap(),
        ],
        &[
            ("SLURM_ARRAY_TASK_ID", "2"),
            ("SLURM_ARRAY_TASK_COUNT", "3"),
        ],
    );
    assert!(said.contains("shard 2/3"), "{said}");
}

/// A ledger edited by hand (or damaged) is refused with its file named, exit 2, never a panic.
#[test]
fn a_damaged_ledger_is_refused_not_a_panic() {
    let out = tmp("extend", "damaged-ledger");
    let o = out.to_str().unwrap();
    let items = |battles: &str| {
        skirmish(&[
            "analyze",
            "loot",
            "items",
            "--battles",
            battles,
            "--cell",
            "20",
            "--quiet",
            "--out",
            o,
        ])
    };
    assert!(items("100").status.success());
    let path = out.join("ledger.json");
    let mut l: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    for (_, cell) in l["cells"].as_object_mut().unwrap() {
        cell["sums"] = serde_json::json!([3, 1]);
    }
    std::fs::write(&path, l.to_string()).unwrap();
    let o = items("200");
    assert_eq!(
        o.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let said = String::from_utf8_lossy(&o.stderr);
    assert!(
        said.contains("ledger.json") && said.contains("damaged"),
        "{said}"
    );
}

/// Issue 78: an analysis's identity is values (its rules a table, its catalogue a digest), where
/// it was the rules' debug text. A ledger kept in the earlier way is refused naming the file and
/// the fix, exit 2, never continued under a question it may not answer; the same folder's cells
/// are continued once it is played afresh.
#[test]
fn a_ledger_kept_with_a_debug_text_identity_is_refused_naming_why() {
    let out = tmp("extend", "debug-identity");
    let o = out.to_str().unwrap();
    let minions = |combats: &str| {
        skirmish(&[
            "analyze",
            "minions",
            "--combats",
            combats,
            "--cell",
            "20",
            "--quiet",
            "--out",
            o,
        ])
    };
    assert!(minions("200").status.success());
    let path = out.join("ledger.json");
    let text = std::fs::read_to_string(&path).unwrap();
    let mut l: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert!(l["identity"]["rules"].is_object(), "{text}");
    l["identity"]["rules"] = "Rules { rounds: 10, .. }".into();
    l.as_object_mut().unwrap().remove("digest");
    std::fs::write(&path, skirmish::platform::digest::sealed_text(&l)).unwrap();
    let again = minions("400");
    let said = String::from_utf8_lossy(&again.stderr);
    assert_eq!(again.status.code(), Some(2), "{said}");
    assert!(
        said.contains("ledger.json")
            && said.contains("`rules` another way")
            && said.contains("another --out"),
        "{said}"
    );
    std::fs::remove_file(&path).unwrap();
    assert!(minions("200").status.success());
    let kept = minions("200");
    assert!(String::from_utf8_lossy(&kept.stdout).contains("0 of them played now"));
}

//! Datasets users can trust (issue 24, first part): one writer per folder (an OS lock), parts
//! checked against their recorded size and SHA-256 before a resumed run keeps them, `skirmish
//! verify`, no write through a planted link, and no empty `--out`.

use crate::common;

use std::fs;
use std::path::Path;

use common::{dataset_files, parts_finished, skirmish, tmp};

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn run(out: &Path, seed: &str) -> std::process::Output {
    skirmish(&[
        "simulate",
        "rumble",
        "--matches",
        "4000",
        "--chunk-size",
        "500",
        "--capacity",
        "128",
        "--threads",
        "1",
        "--seed",
        seed,
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ])
}

#[test]
fn a_second_writer_is_refused_while_the_first_holds_the_folder() {
    let out = tmp("trust", "lock");
    let mut first = start_long_run(&out, &[], "manifest.json");
    let o = run(&out, "43");
    first.kill().unwrap();
    first.wait().unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    let err = text(&o.stderr);
    assert!(
        err.contains("another skirmish run is writing this folder") && err.contains("pid "),
        "{err}"
    );
    // The first run's identity is untouched: its seed, resumed to the end, gives its own bytes.
    let m = fs::read_to_string(out.join("manifest.json")).unwrap();
    assert!(m.contains("\"seed\": 42"), "{m}");
    fs::remove_dir_all(&out).unwrap();
}

#[test]
fn resume_recomputes_parts_that_were_truncated_edited_or_replaced_by_a_link() {
    let clean = tmp("trust", "clean");
    assert!(run(&clean, "42").status.success());
    let hurt = tmp("trust", "hurt");
    assert!(run(&hurt, "42").status.success());
    let outside = tmp("trust", "outside.bin");
    fs::write(&outside, b"someone else's file").unwrap();
    let matches = hurt.join("matches");
    let p0 = matches.join("part-00000.parquet");
    let mut bytes = fs::read(&p0).unwrap();
    let mid = bytes.len() / 2;
    bytes[mid] ^= 0x55;
    fs::write(&p0, &bytes).unwrap();
    let p1 = hurt.join("heroes").join("part-00001.parquet");
    let b1 = fs::read(&p1).unwrap();
    fs::write(&p1, &b1[..b1.len() / 3]).unwrap();
    let p2 = matches.join("part-00002.parquet");
    fs::remove_file(&p2).unwrap();
    std::os::unix::fs::symlink(&outside, &p2).unwrap();

    let v = skirmish(&["verify", hurt.to_str().unwrap()]);
    assert_eq!(v.status.code(), Some(2));
    let err = text(&v.stderr);
    for want in [
        "part-00000.parquet: its bytes differ",
        "part-00001.parquet: ",
        "part-00002.parquet: not a plain file",
    ] {
        assert!(err.contains(want), "verify names `{want}`: {err}");
    }

    let o = run(&hurt, "42");
    assert!(o.status.success(), "{}", text(&o.stderr));
    let summary = text(&o.stdout);
    assert!(
        summary
            .contains("3 parts of the earlier run were not what it recorded and were recomputed"),
        "{summary}"
    );
    assert!(summary.contains("3 parts written now, 5 kept"), "{summary}");
    assert_eq!(dataset_files(&hurt), dataset_files(&clean));
    assert_eq!(
        fs::read(&outside).unwrap(),
        b"someone else's file",
        "a link's target is never written"
    );
    let v = skirmish(&["verify", hurt.to_str().unwrap()]);
    assert!(v.status.success(), "{}", text(&v.stderr));
    assert!(
        text(&v.stdout).contains("verified 8 parts (16 files, 4000 matches)"),
        "{}",
        text(&v.stdout)
    );
    for d in [&clean, &hurt] {
        fs::remove_dir_all(d).unwrap();
    }
    fs::remove_file(&outside).unwrap();
}

#[test]
fn a_link_planted_at_the_manifests_temporary_name_is_not_followed() {
    let out = tmp("trust", "planted");
    fs::create_dir_all(&out).unwrap();
    // A folder the run already owns (an earlier run's manifest), with a planted link.
    assert!(run(&out, "42").status.success());
    assert_eq!(parts_finished(&out), 8);
    let victim = tmp("trust", "victim.txt");
    fs::write(&victim, "keep me").unwrap();
    std::os::unix::fs::symlink(&victim, out.join(".manifest.json.manifest.tmp")).unwrap();
    let o = run(&out, "42");
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert_eq!(fs::read_to_string(&victim).unwrap(), "keep me");
    fs::remove_dir_all(&out).unwrap();
    fs::remove_file(&victim).unwrap();
}

#[test]
fn an_empty_out_is_refused_on_the_command_line_and_in_an_experiment_file() {
    let o = skirmish(&["simulate", "rumble", "--matches", "10", "--out", ""]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("--out"), "{}", text(&o.stderr));
    let f = tmp("trust", "empty-out.toml");
    fs::write(
        &f,
        "command = \"tournament clan-melee\"\nmelees = 1\nbudgets = [100]\nout = \"\"\n",
    )
    .unwrap();
    let o = skirmish(&["run", f.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    assert!(text(&o.stderr).contains("--out"), "{}", text(&o.stderr));
    // The rumble experiment format reads `out` itself: refused by the dataset layer.
    fs::write(
        &f,
        "command = \"simulate rumble\"\nmatches = 10\nout = \"\"\n",
    )
    .unwrap();
    let o = skirmish(&["run", f.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    assert!(
        text(&o.stderr).contains("empty path"),
        "{}",
        text(&o.stderr)
    );
    fs::remove_file(&f).unwrap();
}

#[test]
fn editing_an_included_power_file_or_a_clan_file_then_resuming_is_refused() {
    let dir = tmp("trust", "inputs");
    fs::create_dir_all(&dir).unwrap();
    fs::copy("experiments/powers/archive.toml", dir.join("archive.toml")).unwrap();
    fs::copy("experiments/powers/sample.toml", dir.join("sample.toml")).unwrap();
    let out = dir.join("run");
    let args = |out: &Path| {
        vec![
            "simulate".to_string(),
            "rumble".into(),
            "--power-file".into(),
            dir.join("archive.toml").display().to_string(),
            "--matches".into(),
            "300".into(),
            "--capacity".into(),
            "64".into(),
            "--quiet".into(),
            "--out".into(),
            out.display().to_string(),
        ]
    };
    let go = |a: Vec<String>| skirmish(&a.iter().map(|s| s.as_str()).collect::<Vec<_>>());
    assert!(go(args(&out)).status.success());
    let m = fs::read_to_string(out.join("manifest.json")).unwrap();
    assert!(m.contains("sample.toml") && m.contains("\"inputs\""), "{m}");
    // The included file changes (Amoeba's threshold): the same command is now a different run.
    let sample = fs::read_to_string(dir.join("sample.toml")).unwrap();
    fs::write(
        dir.join("sample.toml"),
        sample.replacen("energy > 5", "energy > 6", 1),
    )
    .unwrap();
    let o = go(args(&out));
    assert_eq!(o.status.code(), Some(2));
    let err = text(&o.stderr);
    assert!(
        err.contains("different run") && err.contains("sample.toml"),
        "{err}"
    );

    // A clan file of a tournament likewise.
    fs::copy(
        "experiments/clan-melee/3-salt-coward.toml",
        dir.join("coward.toml"),
    )
    .unwrap();
    let clans = format!(
        "{},experiments/clan-melee/0-clan1.toml",
        dir.join("coward.toml").display()
    );
    let cm = dir.join("cm");
    let t = |out: &Path| {
        skirmish(&[
            "tournament",
            "clan-melee",
            "--clans",
            &clans,
            "--budgets",
            "100",
            "--melees",
            "2",
            "--quiet",
            "--out",
            out.to_str().unwrap(),
        ])
    };
    assert!(t(&cm).status.success());
    let c = fs::read_to_string(dir.join("coward.toml")).unwrap();
    fs::write(dir.join("coward.toml"), format!("{c}\n# edited\n")).unwrap();
    let o = t(&cm);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    assert!(
        text(&o.stderr).contains("coward.toml"),
        "{}",
        text(&o.stderr)
    );
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_deeply_nested_clan_expression_and_a_run_of_too_many_parts_are_refused_up_front() {
    let deep = tmp("trust", "deep.toml");
    let hp = format!("{}H{}", "(".repeat(15_000), ")".repeat(15_000));
    fs::write(
        &deep,
        format!("name = \"Deep\"\n\n[[roster]]\nbudget = [0, 2147483647]\nmembers = [{{ kind = \"w\", count = 1, hp = \"{hp}\" }}]\n\n[kinds.w]\ntype = \"warrior\"\nrule = [{{ ap = 10 }}]\n"),
    )
    .unwrap();
    let o = skirmish(&["clan-melee", "check", deep.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("nested more than 64 deep"),
        "{}",
        text(&o.stderr)
    );
    fs::remove_file(&deep).unwrap();

    let out = tmp("trust", "huge");
    let o = skirmish(&[
        "simulate",
        "rumble",
        "--matches",
        "1099511627776",
        "--chunk-size",
        "1",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("raise --chunk-size"),
        "{}",
        text(&o.stderr)
    );
    assert!(!out.exists());
}

#[test]
fn a_failed_write_to_stdout_is_an_error_and_a_closed_pipe_is_not() {
    let full = fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_skirmish"))
        .args(["tag", "play", "--narrate"])
        .stdout(full)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    assert!(
        text(&o.stderr).contains("it is incomplete"),
        "{}",
        text(&o.stderr)
    );
    // A reader that stops early (`| head`): quiet, success.
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_skirmish"))
        .args(["tag", "play", "--narrate"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let o = child.wait_with_output().unwrap();
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(o.stderr.is_empty());
}

#[test]
fn analyze_powers_writes_only_a_new_empty_or_its_own_folder_and_replaces_it_whole() {
    let args = |out: &Path| {
        vec![
            "analyze".to_string(),
            "rumble".into(),
            "powers".into(),
            "--max-battles".into(),
            "20000".into(),
            "--batch".into(),
            "1000".into(),
            "--quiet".into(),
            "--out".into(),
            out.display().to_string(),
        ]
    };
    let go = |a: Vec<String>| skirmish(&a.iter().map(|s| s.as_str()).collect::<Vec<_>>());
    // Someone else's folder: refused, untouched.
    let theirs = tmp("trust", "theirs");
    fs::create_dir_all(&theirs).unwrap();
    fs::write(theirs.join("summary.txt"), "my notes").unwrap();
    let o = go(args(&theirs));
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    assert!(
        text(&o.stderr).contains("not an earlier `analyze powers` output"),
        "{}",
        text(&o.stderr)
    );
    assert_eq!(
        fs::read_to_string(theirs.join("summary.txt")).unwrap(),
        "my notes"
    );
    assert_eq!(fs::read_dir(&theirs).unwrap().count(), 1);
    fs::remove_dir_all(&theirs).unwrap();
    // A new folder, then the same folder again: replaced whole, no temporary left beside it.
    let mine = tmp("trust", "mine");
    assert!(go(args(&mine)).status.success());
    let first: Vec<_> = fs::read_dir(&mine)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    let o = go(args(&mine));
    assert!(o.status.success(), "{}", text(&o.stderr));
    let mut again: Vec<_> = fs::read_dir(&mine)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    let mut first = first;
    first.sort();
    again.sort();
    assert_eq!(first, again);
    assert!(again.iter().any(|n| n == "powers.parquet"));
    let parent = mine.parent().unwrap();
    let stray = fs::read_dir(parent)
        .unwrap()
        .filter_map(|e| e.ok())
        .any(|e| {
            e.file_name().to_string_lossy().contains(&format!(
                "{}.new-",
                mine.file_name().unwrap().to_string_lossy()
            ))
        });
    assert!(!stray, "no temporary folder left");
    fs::remove_dir_all(&mine).unwrap();
}

#[test]
fn a_range_of_three_values_in_an_experiment_file_is_refused_not_cut_to_two() {
    let f = tmp("trust", "range.toml");
    let out = tmp("trust", "range-out");
    fs::write(
        &f,
        format!(
            "command = \"simulate rumble\"\nmatches = 100\nout = \"{}\"\n[settings]\nheroes = [2, 3, 4]\n",
            out.display()
        ),
    )
    .unwrap();
    let o = skirmish(&["run", f.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    let err = text(&o.stderr);
    assert!(
        err.contains(":5:") && err.contains("a range is [min, max]"),
        "{err}"
    );
    assert!(!out.exists());
    fs::remove_file(&f).unwrap();
}

#[test]
fn a_shard_sweeps_only_its_own_temporary_files() {
    let out = tmp("trust", "sweep");
    let shard = |k: &str| {
        skirmish(&[
            "simulate",
            "rumble",
            "--matches",
            "2000",
            "--chunk-size",
            "500",
            "--capacity",
            "64",
            "--quiet",
            "--shard",
            k,
            "--out",
            out.to_str().unwrap(),
        ])
    };
    assert!(shard("0/2").status.success());
    // Another shard's write in flight, and a stale one of shard 0's own.
    let theirs = out.join("matches/.part-00003.parquet.manifest-shard-1-of-2.tmp");
    let mine = out.join("matches/.part-00001.parquet.manifest-shard-0-of-2.tmp");
    fs::write(&theirs, b"in flight").unwrap();
    fs::write(&mine, b"stale").unwrap();
    assert!(shard("0/2").status.success());
    assert!(
        theirs.exists(),
        "another shard's temporary file is left alone"
    );
    assert!(!mine.exists(), "a stale temporary file of its own is swept");
    fs::remove_dir_all(&out).unwrap();
}

/// A long `simulate rumble` into `out` (1 thread, quiet), `extra` flags appended.
fn long_run_args(out: &Path, extra: &[&str]) -> Vec<String> {
    [
        "simulate",
        "rumble",
        "--matches",
        "200000",
        "--chunk-size",
        "1000",
        "--threads",
        "1",
        "--quiet",
        "--out",
    ]
    .iter()
    .map(|s| s.to_string())
    .chain([out.display().to_string()])
    .chain(extra.iter().map(|s| s.to_string()))
    .collect()
}

/// [`long_run_args`] run to its end (or its refusal).
fn long_run(out: &Path, extra: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_skirmish"))
        .args(long_run_args(out, extra))
        .output()
        .unwrap()
}

/// [`long_run_args`] started in the background; returns once its manifest (`manifest`) exists,
/// i.e. once it holds its locks.
fn start_long_run(out: &Path, extra: &[&str], manifest: &str) -> std::process::Child {
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_skirmish"))
        .args(long_run_args(out, extra))
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let start = std::time::Instant::now();
    while !out.join(manifest).exists() && start.elapsed().as_secs() < 60 {
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    child
}

/// Issue 24, item 7: each run holds its own manifest's lock, so a whole run and a shard run could
/// once write one folder at the same moment (the whole run taking over parts the shard was still
/// writing). The folder lock is exclusive for a whole run and shared by shards.
#[test]
fn a_whole_run_and_a_shard_run_never_write_one_folder_together() {
    let out = tmp("trust", "shard-lock");
    // A shard first: a whole run is refused, another shard of the same run is not.
    let mut shard = start_long_run(&out, &["--shard", "0/2"], "manifest-shard-0-of-2.json");
    let whole = long_run(&out, &["--seed", "42"]);
    let other_shard = long_run(&out, &["--shard", "5/200"]);
    shard.kill().unwrap();
    shard.wait().unwrap();
    assert_eq!(whole.status.code(), Some(2), "{}", text(&whole.stderr));
    assert!(
        text(&whole.stderr).contains("shard runs (--shard) are writing this folder"),
        "{}",
        text(&whole.stderr)
    );
    assert!(
        other_shard.status.success(),
        "shards of one run share the folder: {}",
        text(&other_shard.stderr)
    );
    assert!(
        !out.join("manifest.json").exists(),
        "the whole run wrote nothing"
    );
    fs::remove_dir_all(&out).unwrap();

    // A whole run first: a shard run is refused.
    let out = tmp("trust", "shard-lock-2");
    let mut whole = start_long_run(&out, &[], "manifest.json");
    let shard = long_run(&out, &["--shard", "1/2"]);
    whole.kill().unwrap();
    whole.wait().unwrap();
    assert_eq!(shard.status.code(), Some(2), "{}", text(&shard.stderr));
    assert!(
        text(&shard.stderr).contains("a run without --shard is writing this folder"),
        "{}",
        text(&shard.stderr)
    );
    assert!(!out.join("manifest-shard-1-of-2.json").exists());
    fs::remove_dir_all(&out).unwrap();
}

/// Issue 24, item 11: the manifest's recorded command was not valid shell when a name held a
/// quote. Now every word a user gave is shell-quoted: pasting the command into `sh` (with a new
/// --out) rebuilds the same data.
#[test]
fn the_recorded_command_is_valid_shell_when_a_path_holds_a_quote_and_a_space() {
    let dir = tmp("trust", "quote");
    fs::create_dir_all(dir.join("it's here")).unwrap();
    let powers = dir.join("it's here/my \"powers\" $HOME.toml");
    fs::copy("experiments/powers/sample.toml", &powers).unwrap();
    let first = dir.join("first");
    let o = skirmish(&[
        "simulate",
        "rumble",
        "--matches",
        "300",
        "--chunk-size",
        "100",
        "--capacity",
        "64",
        "--quiet",
        "--power-file",
        powers.to_str().unwrap(),
        "--catalogue",
        "Amoeba",
        "--catalogue",
        "Big, Gnashy Claws",
        "--powers",
        "0..2",
        "--out",
        first.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let m: serde_json::Value =
        serde_json::from_slice(&fs::read(first.join("manifest.json")).unwrap()).unwrap();
    let command = m["command"].as_str().unwrap();
    let again = command.replacen(
        "skirmish",
        &format!("'{}'", env!("CARGO_BIN_EXE_skirmish")),
        1,
    ) + " --quiet --out again";
    let o = std::process::Command::new("sh")
        .arg("-c")
        .arg(&again)
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(o.status.success(), "{again}: {}", text(&o.stderr));
    assert_eq!(dataset_files(&dir.join("again")), dataset_files(&first));
    fs::remove_dir_all(&dir).unwrap();
}

/// Issue 24, item 9: `--budgets 100000000` took 1.8 GB per thread (29 GB on 16 threads) whatever
/// the machine had. Now a run lowers its thread count to what fits in the memory available
/// (SKIRMISH_MEMORY, else the machine's), or refuses before writing anything when not one melee
/// fits; `clan-melee play` too.
#[test]
fn a_melee_too_big_for_memory_is_refused_and_threads_are_lowered_to_what_fits() {
    let out = tmp("trust", "memory");
    let with_limit = |limit: &str, args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_skirmish"))
            .args(args)
            .env("SKIRMISH_MEMORY", limit)
            .output()
            .unwrap()
    };
    let o = with_limit(
        "1G",
        &[
            "tournament",
            "clan-melee",
            "--budgets",
            "100000000",
            "--melees",
            "1",
            "--quiet",
            "--out",
            out.to_str().unwrap(),
        ],
    );
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    assert!(
        text(&o.stderr).contains(
            "a melee at budget 105000000 needs about 2.4 GB of memory and 1.0 GB is available"
        ),
        "{}",
        text(&o.stderr)
    );
    assert!(!out.exists(), "nothing written");
    let o = with_limit("1G", &["clan-melee", "play", "--budget", "100000000"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    assert!(o.stdout.is_empty());
    // 16 threads asked, 2 fit: the run goes on with 2, and says so.
    let o = with_limit(
        "60M",
        &[
            "tournament",
            "clan-melee",
            "--budgets",
            "1000000",
            "--melees",
            "4",
            "--threads",
            "16",
            "--quiet",
            "--out",
            out.to_str().unwrap(),
        ],
    );
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(
        text(&o.stderr).contains("running 2 threads instead of 16"),
        "{}",
        text(&o.stderr)
    );
    assert!(
        text(&o.stdout).contains("on 2 threads"),
        "{}",
        text(&o.stdout)
    );
    let o = with_limit("lots", &["clan-melee", "play"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("SKIRMISH_MEMORY=lots: not a size"));
    fs::remove_dir_all(&out).unwrap();
}

/// Issue 24, item 10: `--narrate` and `--trace` built their whole text in memory (2.6 GB, then
/// an abort with nothing printed). Now they are written as the battle goes: a battle of 1,000
/// heroes told at about 400 MB runs in a few MB, and closing the pipe (`| head`) ends it quietly.
#[cfg(target_os = "linux")]
#[test]
fn a_long_narration_is_streamed_in_bounded_memory_and_a_closed_pipe_ends_it_quietly() {
    use std::io::Read;
    let dir = tmp("trust", "stream");
    fs::create_dir_all(&dir).unwrap();
    let mut toml = String::from("[battle]\nmax_rounds = 1000\n");
    for i in 0..1000 {
        toml.push_str(&format!(
            "\n[[hero]]\nname = \"H{i}\"\ncoins = -30\npowers = [{{ name = \"Cosmic Shield\", strength = 30 }}]\norder = [\"Attack\"]\n"
        ));
    }
    let file = dir.join("crowd.toml");
    fs::write(&file, toml).unwrap();
    let f = file.to_str().unwrap();
    for args in [
        vec!["rumble", "play", f, "--narrate"],
        vec![
            "rumble",
            "play",
            f,
            "--narrate",
            "--powers",
            "experiments/powers/sample.toml",
        ],
    ] {
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_skirmish"))
            .args(&args)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdout = child.stdout.take().unwrap();
        let mut first = vec![0u8; 16 << 20];
        stdout.read_exact(&mut first).unwrap();
        assert!(String::from_utf8_lossy(&first[..200]).starts_with("H0 enters with"));
        // Its peak memory so far, with 16 MB of a ~400 MB narration told.
        let status = fs::read_to_string(format!("/proc/{}/status", child.id())).unwrap();
        let peak_kb: u64 = status
            .lines()
            .find_map(|l| l.strip_prefix("VmHWM:"))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
            .unwrap();
        assert!(peak_kb < 100_000, "{args:?}: peak {peak_kb} kB");
        drop(stdout);
        let o = child.wait_with_output().unwrap();
        assert!(o.status.success(), "{args:?}: {:?}", o.status);
        assert!(o.stderr.is_empty(), "{}", text(&o.stderr));
    }
    fs::remove_dir_all(&dir).unwrap();
}

/// Issue 24, item 11: a disk full at the start left a folder (locks, empty table folders, a
/// half-written manifest under its temporary name) that the same command then refused as not
/// its own. Such a folder is what a run leaves before its first manifest: the run goes on.
#[test]
fn a_folder_left_by_a_run_that_failed_before_its_first_manifest_is_resumed() {
    let out = tmp("trust", "full-at-start");
    fs::create_dir_all(out.join("matches")).unwrap();
    fs::create_dir_all(out.join("heroes")).unwrap();
    fs::write(out.join(".manifest.lock"), "pid 1\n").unwrap();
    fs::write(out.join(".folder.lock"), "").unwrap();
    fs::write(out.join(".manifest.json.manifest.tmp"), "{\"form").unwrap();
    fs::write(out.join("matches/.part-00000.parquet.manifest.tmp"), "PAR").unwrap();
    let o = run(&out, "42");
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert_eq!(parts_finished(&out), 8);
    // A folder holding anything else is still someone else's.
    let other = tmp("trust", "not-ours");
    fs::create_dir_all(other.join("matches")).unwrap();
    fs::write(other.join("matches/notes.txt"), "mine").unwrap();
    let o = run(&other, "42");
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("holds no skirmish manifest"));
    assert_eq!(
        fs::read_to_string(other.join("matches/notes.txt")).unwrap(),
        "mine"
    );
    fs::remove_dir_all(&out).unwrap();
    fs::remove_dir_all(&other).unwrap();
}

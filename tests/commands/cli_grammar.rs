//! The one command grammar (ARCHITECTURE.md, "Commands"): `skirmish games`, `<game> play|check`,
//! `analyze <game> <question>`, `run` for any game's experiment file, and the old spellings kept
//! as aliases for one release.

use crate::common;

use common::{skirmish, tmp};

fn out(args: &[&str]) -> String {
    let o = skirmish(args);
    assert!(
        o.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout).unwrap()
}

#[test]
fn games_lists_every_game_with_its_commands_and_inputs() {
    let text = out(&["games"]);
    for want in [
        "Auto Rumble (rumble)",
        "Clan Melee (clan-melee)",
        "skirmish rumble play",
        "skirmish clan-melee play",
        "skirmish analyze rumble powers",
        "skirmish analyze clan-melee challengers",
        "docs/rules/clan-melee.md",
        "experiments/clan-melee/3-salt-coward.toml",
        // Issue 64: every question, the candidate, the what-if and the meta-game included.
        "skirmish analyze rumble metagame",
        "--candidate POWER-FILE",
        "--candidate CLAN-FILE",
        "--candidate POLICY",
        "--versus-rules FILE: any command",
        "calibrate",
    ] {
        assert!(text.contains(want), "missing `{want}` in:\n{text}");
    }
    // Every input file `games` names is shipped.
    for line in text.lines().filter(|l| l.contains("input:")) {
        let examples = line.split("e.g. ").nth(1).unwrap();
        for path in examples.split(", ") {
            assert!(
                std::path::Path::new(path).is_file(),
                "{path} is named but not shipped"
            );
        }
    }
}

#[test]
fn old_spellings_still_work_as_aliases() {
    assert_eq!(
        out(&["rumble", "battle", "--narrate"]),
        out(&["rumble", "play", "--narrate"])
    );
    assert_eq!(out(&["powers", "list"]), out(&["rumble", "powers"]));
    let f = "experiments/powers/archive.toml";
    assert_eq!(out(&["powers", "check", f]), out(&["rumble", "check", f]));
    assert!(out(&["analyze", "powers", "--help"]).contains("--max-battles"));
    assert!(out(&["analyze", "clan-melee", "--help"]).contains("--healer-share"));
    assert!(out(&["analyze", "clan-melee", "challengers", "--help"]).contains("--healer-share"));
}

#[test]
fn clan_melee_play_tells_the_melee_and_check_reads_a_clan() {
    let text = out(&["clan-melee", "play", "--budget", "300", "--seed", "3"]);
    assert!(text.contains("Clan Melee, sane mode, budget 300 hit points, seed 3."));
    assert!(
        !text.contains("Turn 1:"),
        "without --narrate, no turns: {text}"
    );
    let narrated = out(&[
        "clan-melee",
        "play",
        "--budget",
        "300",
        "--seed",
        "3",
        "--narrate",
    ]);
    assert!(narrated.contains("Turn 1:"));
    let trace = out(&[
        "clan-melee",
        "play",
        "--budget",
        "300",
        "--seed",
        "3",
        "--trace",
    ]);
    assert!(trace.lines().next().unwrap().starts_with("{\"turn\":1,"));
    assert!(trace.lines().last().unwrap().starts_with("{\"end\":"));
    let check = out(&[
        "clan-melee",
        "check",
        "experiments/clan-melee/3-salt-coward.toml",
    ]);
    assert!(
        check.contains("at 1,000: 1,000 members (1000 coward), 1,000 hp"),
        "{check}"
    );
}

#[test]
fn run_takes_an_experiment_file_of_any_command() {
    let dir = tmp("grammar", "run");
    let o = skirmish(&[
        "run",
        "experiments/clan-melee-tournament.toml",
        "--matches",
        "2",
        "--out",
        dir.to_str().unwrap(),
        "--quiet",
    ]);
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(text.contains("12 melees"), "{text}");
    assert!(dir.join("melees").is_dir());
    std::fs::remove_dir_all(&dir).unwrap();

    // A key the command does not know: exit 2, the file named, nothing written.
    let bad = tmp("grammar", "bad.toml");
    std::fs::write(&bad, "command = \"tournament clan-melee\"\nmeleez = 3\n").unwrap();
    let out_dir = tmp("grammar", "bad-out");
    let o = skirmish(&[
        "run",
        bad.to_str().unwrap(),
        "--out",
        out_dir.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains(&format!("{}:2: `meleez`", bad.display())) && err.contains("`melees`?"),
        "{err}"
    );
    assert!(!out_dir.exists());
    std::fs::remove_file(&bad).unwrap();
}

/// Issue 50: every game's narration takes `--format text|md|bbcode`: the same story for a
/// terminal, a web page or a forum post; a trace stays JSON Lines and refuses a style.
#[test]
fn every_narration_is_written_for_a_page_or_a_forum_post() {
    let narrations: [&[&str]; 6] = [
        &["rumble", "play", "--narrate"],
        &["clan-melee", "play", "--narrate", "--budget", "100"],
        &["tag", "play", "--narrate"],
        &["loot", "play", "--narrate"],
        &[
            "loot",
            "play",
            "experiments/loot-arena/royale.toml",
            "--narrate",
        ],
        &["minions", "combat", "--narrate"],
    ];
    for told in narrations {
        let plain = out(told);
        let with = |format: &str| {
            let mut args = told.to_vec();
            args.extend(["--format", format]);
            out(&args)
        };
        assert_eq!(
            with("text"),
            plain,
            "{told:?}: text is the narration as told"
        );
        let md = with("md");
        assert!(
            md.contains("\n### ") || md.contains("**"),
            "{told:?}: Markdown marks the rounds or turns:\n{md}"
        );
        let bb = with("bbcode");
        assert!(
            bb.contains("[b]"),
            "{told:?}: BBCode marks the rounds or turns:\n{bb}"
        );
        assert_eq!(
            bb.matches("[list]").count(),
            bb.matches("[/list]").count(),
            "{told:?}: every list is closed:\n{bb}"
        );
        assert_eq!(
            bb.matches("[code]").count(),
            bb.matches("[/code]").count(),
            "{told:?}"
        );
        // The same story: every word of the plain narration is in each style.
        let words = |s: &str| {
            s.split(|c: char| !c.is_alphanumeric())
                .filter(|w| !w.is_empty() && !["b", "list", "code", "text"].contains(w))
                .count()
        };
        assert_eq!(
            words(&md),
            words(&plain),
            "{told:?}: Markdown tells the same words"
        );
        assert_eq!(
            words(&bb),
            words(&plain),
            "{told:?}: BBCode tells the same words"
        );
    }
    let o = skirmish(&["rumble", "play", "--trace", "--format", "md"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("a trace is JSON Lines"));
}

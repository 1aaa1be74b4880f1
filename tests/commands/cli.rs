//! The `skirmish` binary as a user runs it: output, exit codes, error messages.

use crate::common;

use std::process::{Command, Output};

fn skirmish(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_skirmish"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn scenario(name: &str, text: &str) -> common::TmpFile {
    common::tmp_file("cli", name, text)
}

#[test]
fn battle_without_a_file_plays_the_built_in_sample() {
    let o = skirmish(&["rumble", "battle"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("Alice enters with 118 Energy"), "{out}");
    assert!(
        out.contains("Bob wins after 4 rounds, with 16 hero(es) alive."),
        "{out}"
    );
}

#[test]
fn narrate_tells_the_samples_story_with_the_rules_numbers() {
    let o = skirmish(&[
        "rumble",
        "battle",
        "experiments/sample-round-1.toml",
        "--narrate",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    for line in [
        "At the start of the round Bob's Cosmic Shield gives 30 defence.",
        "Alice spends 10 Energy (out of 118) to attack everyone else for 16 damage each.",
        "Bob is hit for 15: defence absorbs 14 (0 left); loses 1 Energy (109).",
        "At the end of the round Bob uses Amoeba (109 Energy): Bob 1 (60), Bob 2 (60).",
        "At the start of the round Bob 1A's Cosmic Shield gives 60 defence.",
        "Charlie is hit for 14: defence absorbs 4 (0 left); loses 10 Energy (16).",
        "At the end of the round Alice uses Souleater: 1 opponent(s) eliminated, +30 Energy (55).",
        "Alice is hit for 14; loses 14 Energy (-1).",
        "Bob wins after 4 rounds",
    ] {
        assert!(out.contains(line), "missing {line:?} in\n{out}");
    }
}

#[test]
fn trace_prints_json_lines_ending_with_the_winner() {
    let o = skirmish(&[
        "rumble",
        "battle",
        "experiments/sample-round-1.toml",
        "--trace",
    ]);
    assert!(o.status.success());
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[0],
        r#"{"round":1,"team":"Alice","hero":"Alice","energy":118}"#
    );
    assert!(lines.contains(&r#"{"round":1,"team":"Bob","hero":"Bob 2","energy":60}"#));
    assert_eq!(*lines.last().unwrap(), r#"{"winner":"Bob","rounds":4}"#);
    for l in &lines {
        serde_json::from_str::<serde_json::Value>(l).expect("every line is JSON");
    }
}

#[test]
fn trace_marks_capped_battles() {
    let o = skirmish(&[
        "rumble",
        "battle",
        "experiments/sample-round-1.toml",
        "--trace",
        "--capacity",
        "4",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).trim_end().ends_with(r#","capped":true}"#),
        "{}",
        stdout(&o)
    );
}

#[test]
fn unknown_power_exits_2_naming_file_line_field_and_fix() {
    let path = scenario(
        "typo.toml",
        "[[hero]]\nname = \"A\"\ncoins = 0\npowers = [\"Amoeba\", \"Crystalize\"]\n[[hero]]\nname = \"B\"\ncoins = 0\n",
    );
    let o = skirmish(&["rumble", "battle", &path]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stdout(&o).is_empty(), "no partial output");
    let err = stderr(&o);
    assert!(err.contains(&format!("{path}:4:21")), "{err}");
    assert!(
        err.contains(
            "`hero[0].powers[1]`: unknown power `Crystalize`; did you mean `Crystallize`?"
        ),
        "{err}"
    );
}

#[test]
fn missing_field_and_bad_type_exit_2() {
    let path = scenario(
        "missing.toml",
        "[[hero]]\nname = \"A\"\n[[hero]]\nname = \"B\"\ncoins = 0\n",
    );
    let o = skirmish(&["rumble", "battle", &path]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("missing field `coins`"),
        "{}",
        stderr(&o)
    );
    let path = scenario(
        "type.toml",
        "[[hero]]\nname = \"A\"\ncoins = 1.5\n[[hero]]\nname = \"B\"\ncoins = 0\n",
    );
    let o = skirmish(&["rumble", "battle", &path]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("type.toml:3:9"), "{}", stderr(&o));
}

#[test]
fn missing_file_and_impossible_flags_exit_2() {
    let o = skirmish(&["rumble", "battle", "no/such/file.toml"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("no/such/file.toml") && stderr(&o).contains("check the path"));
    let o = skirmish(&["rumble", "battle", "--capacity", "2"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("smaller than the scenario's 3 heroes"),
        "{}",
        stderr(&o)
    );
    let o = skirmish(&["rumble", "battle", "--max-rounds", "0"]);
    assert_eq!(o.status.code(), Some(2));
    let o = skirmish(&["rumble", "battle", "--trace", "--narrate"]);
    assert_eq!(o.status.code(), Some(2));
}

// AR-19: the same seed gives the same battle; missing base initiatives come from the seed.
#[test]
fn seed_decides_missing_base_initiatives_and_repeats_exactly() {
    let path = scenario(
        "seeded.toml",
        "[[hero]]\nname = \"A\"\ncoins = 0\n[[hero]]\nname = \"B\"\ncoins = 0\n[[hero]]\nname = \"C\"\ncoins = 0\n",
    );
    let a = stdout(&skirmish(&[
        "rumble", "battle", &path, "--trace", "--seed", "5",
    ]));
    let b = stdout(&skirmish(&[
        "rumble", "battle", &path, "--trace", "--seed", "5",
    ]));
    assert_eq!(a, b);
    let winners: std::collections::BTreeSet<String> = (0..20)
        .map(|s| {
            let out = stdout(&skirmish(&[
                "rumble",
                "battle",
                &path,
                "--trace",
                "--seed",
                &s.to_string(),
            ]));
            out.lines().last().unwrap().to_string()
        })
        .collect();
    assert!(
        winners.len() > 1,
        "different seeds should change initiative order and the winner"
    );
}

//! Minion Combat as a user runs it: `minions combat` narrates and traces the shipped combat,
//! `minions check` reads every shipped file, bad files get one located error and exit 2.

mod common;

use common::{skirmish, tmp};

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

#[test]
fn minions_combat_narrates_in_the_pages_step_names_and_traces_json_lines() {
    let o = skirmish(&["minions", "combat", "--narrate"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    for step in [
        "C1 Start of combat",
        "Round 1 (C2, missile round",
        "R2 bashers pair up",
        "tiebreaker",
        "A1 hits",
        "A3 armor soaks",
        "A7 ",
        "C4 End of combat",
    ] {
        assert!(out.contains(step), "{step}: {out}");
    }
    assert!(
        out.contains("Not played yet (MC-40)"),
        "unplayed effects are named"
    );
    let o = skirmish(&["minions", "combat", "--trace", "--seed", "7"]);
    assert!(o.status.success());
    let lines: Vec<serde_json::Value> = text(&o.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.last().unwrap()["step"], "end");
    assert!(lines.iter().any(|l| l["step"] == "attack"));
}

#[test]
fn minions_check_reads_the_shipped_files() {
    for (f, says) in [
        ("experiments/minion-combat/minions.toml", "152 minions"),
        ("experiments/minion-combat/modifiers.toml", "79 modifiers"),
        (
            "experiments/minion-combat/combat.toml",
            "Keeper swordsman + Veteran",
        ),
        ("experiments/minion-combat/rules.toml", "a rules file"),
    ] {
        let o = skirmish(&["minions", "check", f]);
        assert!(o.status.success(), "{f}: {}", text(&o.stderr));
        assert!(text(&o.stdout).contains(says), "{f}: {}", text(&o.stdout));
    }
}

#[test]
fn a_bad_combat_or_rules_file_gets_one_located_error_and_exit_2() {
    let d = tmp("minions", "bad");
    std::fs::create_dir_all(&d).unwrap();
    let combat = d.join("bad.toml");
    std::fs::write(&combat, "seed = 1\n[[group]]\nminions = [\"Keeper swordsman\"]\n[[group]]\nminions = [\"Werewolff\"]\n").unwrap();
    let o = skirmish(&["minions", "combat", combat.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    let e = text(&o.stderr);
    assert!(
        e.contains("bad.toml:5:1: `group[1].minions`") && e.contains("did you mean `Werewolf`"),
        "{e}"
    );
    assert!(o.stdout.is_empty());
    let rules = d.join("rules.toml");
    std::fs::write(&rules, "rounds = 10\nestimate = \"everyone\"\n").unwrap();
    let o = skirmish(&["minions", "combat", "--rules", rules.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("rules.toml:2:1: `estimate`: `everyone`: group, own or off"),
        "{}",
        text(&o.stderr)
    );
}

//! Power files as a host uses them: the shipped catalogues load, `rumble check` / `rumble powers` (and the old `powers check` / `powers list`)
//! read them back, and bad files exit 2 naming file, line, column, field and fix.

use crate::common;

use std::path::Path;
use std::process::{Command, Output};

use skirmish::games::auto_rumble::Power;
use skirmish::games::auto_rumble::powers::file::{self, EffectKind, When};

fn skirmish(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_skirmish"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn write(name: &str, text: &str) -> common::TmpFile {
    common::tmp_file("powers", name, text)
}

// The built-in catalogue is the six sample powers, in the sample's order.
#[test]
fn built_in_catalogue_is_the_six_sample_powers_in_order() {
    let names: Vec<&str> = file::builtin().iter().map(|d| d.name.as_str()).collect();
    let sample: Vec<&str> = Power::ALL.iter().map(|p| p.name()).collect();
    assert_eq!(names, sample);
    let amoeba = &file::builtin()[0];
    assert_eq!(amoeba.clauses[0].when, When::RoundEnd);
    assert_eq!(amoeba.clauses[0].effects()[1].kind, EffectKind::CopySelf);
}

#[test]
fn archive_includes_the_sample_and_loads_every_power() {
    let defs = file::load(
        &skirmish::platform::sources::Sources::disk(),
        Path::new("experiments/powers/archive.toml"),
    )
    .unwrap();
    assert_eq!(&defs[..6], file::builtin());
    // All 36 powers of docs/rules/notes/rumble-powers.md, plus Pox (what the Poxwalkers hold).
    assert_eq!(defs.len(), 37);
    for d in &defs {
        assert!(!d.source.is_empty() && !d.text.is_empty(), "{}", d.name);
    }
}

#[test]
fn powers_check_prints_every_power_readably() {
    let o = skirmish(&["powers", "check", "experiments/powers/archive.toml"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("Crystallize  [AR; faithful]"), "{out}");
    assert!(
        out.contains("From the use order, for Spend 20:\n      itself gains X Defence"),
        "{out}"
    );
    assert!(out.contains("Piercing Blow  [KM; adapted]"), "{out}");
    assert!(
        out.contains(
            "the opponent with the most Energy takes a hit of 20 damage, ignoring Defence"
        ),
        "{out}"
    );
    assert!(out.contains("powers, all valid"), "{out}");
    // Hosts see which powers take the kernel's fast path and which its general path.
    assert!(out.contains("Firestorm  [KM; faithful]"), "{out}");
    let firestorm = &out[out.find("Firestorm  [").unwrap()..];
    assert!(
        firestorm.contains("runs on the kernel's general path"),
        "{firestorm}"
    );
}

#[test]
fn powers_list_shows_where_each_power_runs() {
    let o = skirmish(&["powers", "list", "experiments/powers/archive.toml"]);
    assert!(o.status.success());
    let out = String::from_utf8_lossy(&o.stdout);
    let line = |name: &str| {
        out.lines()
            .find(|l| l.starts_with(name))
            .unwrap()
            .to_string()
    };
    assert!(line("Amoeba").contains(" fast "), "{out}");
    assert!(line("Vulture").contains(" general "), "{out}");
}

#[test]
fn powers_list_defaults_to_the_built_in_catalogue() {
    let o = skirmish(&["powers", "list"]);
    assert!(o.status.success());
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("6 powers"), "{out}");
    assert!(out.contains("Titanium Skin"), "{out}");
}

#[test]
fn misspelt_effect_exits_2_with_position_and_suggestion() {
    let f = write(
        "typo.toml",
        r#"[[power]]
name = "Shield Wall"
source = "test"
text = "+10 Defence each round."

[[power.clause]]
when = "round_start"
effects = [{ add_defense = 10 }]
"#,
    );
    let o = skirmish(&["powers", "check", &f]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains(&format!("{f}:8:")), "{err}");
    assert!(
        err.contains("unknown effect `add_defense`; did you mean `add_defence`?")
            || err.contains("unknown effect `add_defense`: did you mean `add_defence`?"),
        "{err}"
    );
    assert!(o.stdout.is_empty(), "nothing printed on error");
}

#[test]
fn missing_file_and_include_cycle_exit_2() {
    let o = skirmish(&["powers", "check", "no/such/file.toml"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("no/such/file.toml"));
    let f = write("cycle.toml", "include = [\"cycle.toml\"]\n");
    let o = skirmish(&["powers", "check", &f]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("is there a cycle?"));
}

// The sample from the power file, through the data reference, gives the hand-written kernel's
// golden trace byte for byte.
#[test]
fn battle_with_powers_file_reproduces_the_golden_sample_trace() {
    let o = skirmish(&[
        "rumble",
        "battle",
        "--trace",
        "--powers",
        "experiments/powers/sample.toml",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let golden = std::fs::read("tests/golden/sample-round-1.trace.jsonl").unwrap();
    assert_eq!(
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&golden)
    );
}

#[test]
fn battle_with_archive_powers_plays_and_names_unknown_powers() {
    let f = write(
        "fire.toml",
        r#"[[hero]]
name = "Pyro"
coins = 0
base_initiative = 0.9
powers = ["Firestorm", "Vulture"]

[[hero]]
name = "Tank"
coins = 0
base_initiative = 0.5
powers = ["Titanium Skin"]

[[hero]]
name = "Glass"
coins = -85
base_initiative = 0.1
"#,
    );
    let o = skirmish(&[
        "rumble",
        "battle",
        &f,
        "--trace",
        "--powers",
        "experiments/powers/archive.toml",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = String::from_utf8_lossy(&o.stdout);
    // Round 1: Pyro hits Tank and Glass (15 Energy: 5 left), Firestorm burns 5 and deals 5 to
    // each: Glass is out and Vulture gives Pyro 50 at once; Tank's 10 hits Pyro.
    assert!(
        out.contains(r#"{"round":1,"team":"Pyro","hero":"Pyro","energy":135}"#),
        "{out}"
    );
    assert!(!out.contains(r#""hero":"Glass""#), "{out}");

    // Its own name: another test here writes a typo.toml of its own at the same time.
    let bad = write(
        "typo-scenario.toml",
        "[[hero]]\nname = \"A\"\ncoins = 0\npowers = [\"Firestrom\"]\n[[hero]]\nname = \"B\"\ncoins = 0\n",
    );
    let o = skirmish(&[
        "rumble",
        "battle",
        &bad,
        "--powers",
        "experiments/powers/archive.toml",
    ]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains(":4:11:"), "{err}");
    assert!(err.contains("did you mean `Firestorm`?"), "{err}");
}

// `simulate rumble --power-file`: rosters drawn from any power file; the file's digest is part
// of the dataset's identity, so resuming after the file changed is refused.
#[test]
fn simulate_draws_from_a_power_file_and_refuses_a_changed_file_on_resume() {
    let dir = common::tmp("powerfile", "sim");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("mine.toml");
    let archive = std::fs::read_to_string("experiments/powers/archive.toml")
        .unwrap()
        .replace("include = [\"sample.toml\"]", "");
    std::fs::write(&file, &archive).unwrap();
    let out = dir.join("run");
    let args = |f: &std::path::Path, o: &std::path::Path| {
        vec![
            "simulate".to_string(),
            "rumble".into(),
            "--matches".into(),
            "300".into(),
            "--chunk-size".into(),
            "100".into(),
            "--power-file".into(),
            f.display().to_string(),
            "--out".into(),
            o.display().to_string(),
        ]
    };
    let run = |a: Vec<String>| {
        let a: Vec<&str> = a.iter().map(String::as_str).collect();
        skirmish(&a)
    };
    let o = run(args(&file, &out));
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("Vulture"), "archive powers are drawn: {text}");
    let manifest = std::fs::read_to_string(out.join("manifest.json")).unwrap();
    assert!(manifest.contains("power_file_digest"), "{manifest}");

    // The same file again resumes (nothing to do); a changed file is refused.
    let o = run(args(&file, &out));
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    std::fs::write(&file, archive.replace("add_energy = 50", "add_energy = 60")).unwrap();
    let o = run(args(&file, &out));
    assert_eq!(o.status.code(), Some(2));

    let o = run(args(&dir.join("missing.toml"), &dir.join("other")));
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--power-file: cannot read"));
    assert!(!dir.join("other").exists(), "nothing written on error");
}

// A summon is named after its summoner in traces (AR-36).
#[test]
fn battle_trace_names_summons_after_their_summoner() {
    let f = write(
        "worship.toml",
        "[[hero]]\nname = \"Bob\"\ncoins = 0\nbase_initiative = 0.9\npowers = [\"Worshippers\", { name = \"Really Big Guns\", strength = 15 }]\n[[hero]]\nname = \"Ann\"\ncoins = 0\nbase_initiative = 0.1\n",
    );
    let o = skirmish(&[
        "rumble",
        "battle",
        &f,
        "--trace",
        "--powers",
        "experiments/powers/archive.toml",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.contains(r#"{"round":1,"team":"Bob","hero":"Bob's Worshippers","energy":20}"#),
        "{out}"
    );
}

// Issue 4: `--narrate` with `--powers`. The sample read from the power file tells the same story
// as the hand-written narration: the same Energies after every round, the same hits and splits,
// the same winner.
#[test]
fn narrate_with_powers_tells_the_sample_with_the_rules_numbers() {
    let run = |extra: &[&str]| {
        let mut args = vec![
            "rumble",
            "battle",
            "experiments/sample-round-1.toml",
            "--narrate",
        ];
        args.extend_from_slice(extra);
        let o = skirmish(&args);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        String::from_utf8_lossy(&o.stdout).to_string()
    };
    let hand = run(&[]);
    let data = run(&["--powers", "experiments/powers/sample.toml"]);
    let after = |s: &str| -> Vec<String> {
        s.lines()
            .map(str::trim)
            .filter(|l| l.starts_with("After round"))
            .map(String::from)
            .collect()
    };
    assert_eq!(after(&hand).len(), 4, "{hand}");
    assert_eq!(after(&data), after(&hand), "{data}");
    for line in [
        "Charlie is hit for 16 by Alice; loses 16 Energy (97).",
        "Bob is hit for 15 by Charlie: defence absorbs 14 (0 left); loses 1 Energy (109).",
        "Alice is hit for 14 by Bob: prevention absorbs 14 (21 left); loses 0 Energy (118).",
        "Bob splits: Bob 1 (60), Bob 2 (60).",
        "Bob's Cosmic Shield fires at the start of the round.",
        "Bob gains 30 defence (30).",
        "Charlie plans Attack (10), Crystallize (20) from 113 Energy.",
    ] {
        assert!(data.contains(line), "missing {line:?} in\n{data}");
    }
    let last = |s: &str| {
        s.lines()
            .rfind(|l| l.contains(" wins "))
            .unwrap()
            .to_string()
    };
    assert_eq!(last(&data), last(&hand));
}

// Reactions, summons and eliminations in the narration (AR-27, AR-36, AR-52): A's attack leaves
// B at 2, the Poxwalker's bite finishes it quietly, and a Poxwalker joins A's team.
#[test]
fn narrate_with_powers_tells_reactions_summons_and_eliminations() {
    let f = write(
        "pox.toml",
        "[[hero]]\nname = \"Ann\"\ncoins = 0\nbase_initiative = 0.9\npowers = [\"Pox\"]\n\
         [[hero]]\nname = \"Ben\"\ncoins = -88\nbase_initiative = 0.8\npowers = [\"Lich\"]\n\
         [[hero]]\nname = \"Cat\"\ncoins = 0\nbase_initiative = 0.7\npowers = [\"Souleater\", \"Vulture\"]\n",
    );
    let o = skirmish(&[
        "rumble",
        "battle",
        &f,
        "--narrate",
        "--max-rounds",
        "1",
        "--powers",
        "experiments/powers/archive.toml",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = String::from_utf8_lossy(&o.stdout);
    for line in [
        "Ben is hit for 10 by Ann; loses 10 Energy (2).",
        "Ann's Pox fires as it damages Ben.",
        "Ben is struck for 5 by Ann; loses 5 Energy (-3).",
        "Ben is eliminated.",
        "Ann's Poxwalker joins with 5 Energy.",
        "Cat gains 30 Energy (115).",
        "After round 1: Ann 90, Ann's Poxwalker 5, Ann's Poxwalker 5, Cat 115.",
    ] {
        assert!(out.contains(line), "missing {line:?} in\n{out}");
    }
    assert!(
        !out.contains("Lich fires"),
        "a quiet elimination fires no death clause: {out}"
    );
    assert!(
        !out.contains("Vulture fires"),
        "nor opponent_eliminated: {out}"
    );
}

/// Issue 24, item 11: two included files (or one file included twice, directly or through two
/// others) defining the same name were accepted, the later power silently shadowed.
#[test]
fn the_same_power_name_through_two_includes_is_refused_naming_the_include() {
    let one = "[[power]]\nname = \"Fury\"\nsource = \"test\"\ntext = \"t\"\n[[power.clause]]\nwhen = \"death\"\ntarget = \"all_opponents\"\neffects = [{ damage = 1 }]\n";
    let _a = write("fury-a.toml", one);
    let _b = write("fury-b.toml", &one.replace("= 1", "= 2"));
    let both = write(
        "fury-both.toml",
        "include = [\"fury-a.toml\", \"fury-b.toml\"]\n",
    );
    let twice = write(
        "fury-twice.toml",
        "include = [\"fury-a.toml\", \"fury-a.toml\"]\n",
    );
    let _via1 = write("fury-via-1.toml", "include = [\"fury-a.toml\"]\n");
    let _via2 = write("fury-via-2.toml", "include = [\"fury-a.toml\"]\n");
    let diamond = write(
        "fury-diamond.toml",
        "include = [\"fury-via-1.toml\", \"fury-via-2.toml\"]\n",
    );
    for (f, inc) in [
        (&both, "fury-b.toml"),
        (&twice, "fury-a.toml"),
        (&diamond, "fury-via-2.toml"),
    ] {
        let o = skirmish(&["rumble", "check", f]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{f}: {err}");
        assert!(
            err.contains(&**f)
                && err.contains(".toml:1:")
                && err.contains("include")
                && err.contains(&format!("`{inc}` brings a power named `Fury`")),
            "{err}"
        );
        assert!(o.stdout.is_empty());
    }
    // One include of a file is still fine.
    let o = skirmish(&[
        "rumble",
        "check",
        &write("fury-once.toml", "include = [\"fury-a.toml\"]\n"),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

//! Minion Combat as a user runs it: `minions combat` narrates and traces the shipped combat,
//! `minions check` reads every shipped file, bad files get one located error and exit 2.

use crate::common;

use common::{skirmish, tmp};

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

#[test]
fn minions_combat_narrates_in_sentences_and_traces_the_pages_steps() {
    let o = skirmish(&["minions", "combat", "--narrate"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    // Issue 50: told as the other games tell theirs, in sentences.
    for said in [
        "Keeper band (8 minions, the initiative player's) meets The pack (4 minions, the non-initiative player's); Keeper band has precedence",
        "Round 1: the missile round",
        "Keeper band stands with #1 7/7 HP",
        "pair up to bash each other.",
        "aims at Revenant #3 [The pack] (tiebreaker 6: drawn at random among equals).",
        "[Keeper band] hits Revenant #3 [The pack] (its first attack since round 1 hits whatever the levels, MC-9): 1 missile damage, armor soaks 0, 1 dealt; 4 HP left.",
        "falls to",
        "The combat ends after",
    ] {
        assert!(out.contains(said), "{said}: {out}");
    }
    for code in ["C1 ", "R1 ", "R2 ", "R3 ", "A1 ", "A7 ", "C4 "] {
        assert!(
            !out.contains(code),
            "no step codes in the narration: {code}: {out}"
        );
    }
    // The page's step names stay in the trace.
    let o = skirmish(&["minions", "combat", "--trace"]);
    let trace = text(&o.stdout);
    assert!(trace.contains(r#""step":"attack","page":"R3""#), "{trace}");
    assert!(trace.contains(r#""step":"died","page":"A7""#), "{trace}");
    assert!(
        out.contains("missile_taken_-2_before_armor: damage taken 2 -> 0"),
        "the Skeleton's effect is played and told (MC-44): {out}"
    );
    let d = tmp("minions", "unplayed");
    std::fs::create_dir_all(&d).unwrap();
    let f = d.join("sawbones.toml");
    std::fs::write(
        &f,
        "[[group]]\nminions = [\"Sawbones\"]\n[[group]]\nminions = [\"Keeper swordsman\"]\n",
    )
    .unwrap();
    let o = skirmish(&["minions", "combat", f.to_str().unwrap()]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(
        text(&o.stdout).contains("Not played yet (MC-40)"),
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
        ("experiments/minion-combat/modifiers.toml", "82 modifiers"),
        (
            "experiments/minion-combat/effects.toml",
            "63 effect clause(s), 9 status(es)",
        ),
        (
            "experiments/minion-combat/combat.toml",
            "Keeper swordsman + Veteran",
        ),
        ("experiments/minion-combat/rules.toml", "a rules file"),
        (
            "experiments/minion-combat/effects-combat.toml",
            "Karillian Arrows",
        ),
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

#[test]
fn analyze_minions_writes_its_tables_the_same_on_any_thread_count() {
    let run = |threads: &str| {
        let out = tmp("minions", &format!("study{threads}"));
        let o = skirmish(&[
            "analyze",
            "minions",
            "--combats",
            "1000",
            "--cell",
            "10",
            "--kinds",
            "recruits",
            "--threads",
            threads,
            "--quiet",
            "--out",
            &out.display().to_string(),
        ]);
        assert!(o.status.success(), "{}", text(&o.stderr));
        (out, text(&o.stdout))
    };
    let (a, said) = run("1");
    for part in [
        "what a stat is worth",
        "(MC-32)",
        "+1 attack",
        "monster worth in baseline recruits",
        "minion matrix",
        "(MC-34)",
        "<- best against the field",
        "Elf (+1 missile in round 1)",
    ] {
        assert!(said.contains(part), "{part}: {said}");
    }
    let (b, _) = run("2");
    for t in [
        "stat_worth",
        "monster_worth",
        "minion_matrix",
        "splits",
        "nation_worth",
    ] {
        let f = format!("{t}.parquet");
        let x = std::fs::read(a.join(&f)).unwrap();
        assert_eq!(x, std::fs::read(b.join(&f)).unwrap(), "{f}");
        let df = skirmish::platform::parquet::read(&a.join(&f)).unwrap();
        assert!(df.height() > 0, "{t}");
    }
    assert_eq!(
        std::fs::read(a.join("summary.txt")).unwrap(),
        std::fs::read(b.join("summary.txt")).unwrap()
    );
    // A baseline that is not in the catalogue: one error, exit 2, nothing written.
    let bad = tmp("minions", "study-bad");
    let o = skirmish(&[
        "analyze",
        "minions",
        "--swordsman",
        "Dwarf swordsmen",
        "--out",
        &bad.display().to_string(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("did you mean `Dwarf swordsman`"),
        "{}",
        text(&o.stderr)
    );
    assert!(!bad.exists(), "nothing written");
    // MC-54: the study pairs combats on the kernel; minions only the plain model plays are
    // refused, with where to play them.
    let o = skirmish(&[
        "analyze",
        "minions",
        "--all-minions",
        "--out",
        &bad.display().to_string(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("simulate minions --all-minions"),
        "{}",
        text(&o.stderr)
    );
    assert!(!bad.exists(), "nothing written");
    for d in [a, b] {
        std::fs::remove_dir_all(d).unwrap();
    }
}

#[test]
fn minions_combat_exact_gives_exact_odds_and_samples_beyond_the_limit() {
    let f = "experiments/minion-combat/small.toml";
    let o = skirmish(&["minions", "combat", f, "--exact"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    // 47/54: every branch of 13,464 weighed by its probability (MC-37).
    assert!(out.contains("exact odds over 13464 path(s)"), "{out}");
    assert!(
        out.contains("Dwarf patrol wins                         87.0370%"),
        "{out}"
    );
    let o = skirmish(&[
        "minions",
        "combat",
        f,
        "--exact",
        "--limit",
        "1000",
        "--samples",
        "20000",
    ]);
    let out = text(&o.stdout);
    assert!(
        out.contains("more than 1000 paths: sampled over 20000 combats"),
        "{out}"
    );
    let line = out
        .lines()
        .find(|l| l.contains("Dwarf patrol wins"))
        .unwrap();
    let nums: Vec<f64> = line
        .replace(['[', ']', '%', ','], " ")
        .split_whitespace()
        .filter_map(|w| w.parse().ok())
        .collect();
    assert!(
        nums[1] <= 87.037 && 87.037 <= nums[2],
        "the interval holds the exact odds: {line}"
    );
    // MC-37, MC-54: a combat with effects walks its branches on the plain model.
    let f = "experiments/minion-combat/effects-combat.toml";
    let o = skirmish(&["minions", "combat", f, "--exact"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    assert!(
        out.contains("exact odds over 96 path(s), every random choice enumerated (MC-37), effects played (the plain model):"),
        "{out}"
    );
    assert!(
        out.contains("Keepers wins                             100.0000%"),
        "{out}"
    );
}

#[test]
fn minions_combat_plays_a_boards_combats_in_order_with_losses_carried() {
    let f = "experiments/minion-combat/board.toml";
    let o = skirmish(&["minions", "combat", f]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    for line in [
        "combat 1: Keeper band (blue B1) against Wolf pack (red R1) to its north",
        "combat 2: Keeper band (blue B1) against Red archers (red R3) to its south",
        "against Werewolves (red R2) to its east",
        "Troll (neutral T) against Revenants (red R4) to its north",
        "Keeper band (blue B1): wiped out, leaves the board",
    ] {
        assert!(out.contains(line), "{line}: {out}");
    }
    let o = skirmish(&["minions", "combat", f, "--narrate"]);
    let out = text(&o.stdout);
    assert!(out.contains("=== Combat 4 ==="), "{out}");
    // The second combat starts from the first's losses: fewer Keeper HP than at full strength.
    let second = out.split("=== Combat 2 ===").nth(1).unwrap();
    let r1 = second
        .lines()
        .find(|l| l.contains("Keeper band stands with"))
        .unwrap();
    assert!(!r1.contains("#1 7/7 HP, #2 11/11 HP, #3 7/7 HP"), "{r1}");
    let o = skirmish(&["minions", "combat", f, "--trace"]);
    let lines: Vec<serde_json::Value> = text(&o.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.iter().filter(|l| l["step"] == "combat").count(), 4);
    assert_eq!(lines.last().unwrap()["combats"], 4);
}

// Issue 52: README's counts of the minions that play whole were typed and disagreed (121, 133,
// 93, 89); `minions check` of the catalogue counts them from the files.
#[test]
fn minions_check_of_the_catalogue_counts_what_plays_whole() {
    let o = common::skirmish(&["minions", "check", "experiments/minion-combat/minions.toml"]);
    let said = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(said.contains("a minion catalogue of 152 minions"), "{said}");
    assert!(said.contains("6 cannot be fielded alone"), "{said}");
    assert!(said.contains("of the 146 others, 127 play with all their combat effects (MC-40), 89 of them on the optimised kernel"), "{said}");
    assert!(
        said.contains("19 have tags no clause plays: Prismatic Serpent"),
        "{said}"
    );
}

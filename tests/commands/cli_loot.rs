//! Loot Arena as a user runs it: `loot odds`, `loot play`, `analyze loot items` (tables read back
//! by polars, the same bytes on 1 and 2 threads), `games` lists it.

use crate::common;

use common::{skirmish, tmp};

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

#[test]
fn loot_odds_prints_the_exact_law_of_the_issues_example() {
    let o = skirmish(&["loot", "odds", "Mage with 1d8,1d8 vs Rogue in Light armor"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    assert!(out.contains("crit chance 0.5904"), "{out}");
    assert!(out.contains("160000 outcomes"), "{out}");
    let o = skirmish(&["loot", "odds", "Mage vs Paladin"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("Paladin"));
}

// Issue 53: a non-ASCII first character panicked the dice reader; armor dice below 0 added
// damage (mean 39.99 against 25.08 unarmored); dice given as armor were printed twice.
#[test]
fn loot_odds_refuses_what_it_cannot_read_and_names_armor_once() {
    for spec in [
        "Mage with é vs Rogue",
        "Mage vs Rogue in é",
        "Mage vs Rogue in 1d4-10",
    ] {
        let o = skirmish(&["loot", "odds", spec]);
        assert_eq!(o.status.code(), Some(2), "{spec}: {}", text(&o.stderr));
        assert!(o.stdout.is_empty(), "{spec}");
    }
    let o = skirmish(&["loot", "odds", "Mage vs Rogue in 2d4+1"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    assert!(out.contains("defence: 2d4+1\n"), "{out}");
}

#[test]
fn loot_play_traces_json_lines_and_a_rules_file_changes_the_battle() {
    let o = skirmish(&["loot", "play", "--trace"]);
    assert!(o.status.success());
    let out = text(&o.stdout);
    for line in out.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        assert!(v.get("event").is_some());
    }
    assert!(out.lines().last().unwrap().contains("\"result\""));
    let dir = tmp("loot", "rules");
    std::fs::create_dir_all(&dir).unwrap();
    let rules = dir.join("rules.toml");
    std::fs::write(&rules, "crit = \"never\"\n").unwrap();
    let a = skirmish(&["loot", "play", "--narrate"]);
    let b = skirmish(&[
        "loot",
        "play",
        "--narrate",
        "--rules",
        rules.to_str().unwrap(),
    ]);
    assert!(b.status.success(), "{}", text(&b.stderr));
    assert!(text(&a.stdout).contains("Critical hit"));
    assert!(!text(&b.stdout).contains("Critical hit"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn analyze_loot_items_writes_tables_polars_reads_the_same_on_1_and_2_threads() {
    let mut seen = Vec::new();
    for threads in ["1", "2"] {
        let dir = tmp("loot", &format!("items{threads}"));
        let o = skirmish(&[
            "analyze",
            "loot",
            "items",
            "--battles",
            "600",
            "--cell",
            "60",
            "--sets",
            "medic,attack",
            "--threads",
            threads,
            "--quiet",
            "--out",
            dir.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{}", text(&o.stderr));
        let out = text(&o.stdout);
        for title in [
            "item worth for a Gladiator",
            "pairings",
            "leave one out",
            "sets for a Healer",
        ] {
            assert!(out.contains(title), "{title}: {out}");
        }
        let worth = skirmish::platform::parquet::read(&dir.join("item_worth.parquet")).unwrap();
        assert_eq!(
            worth.height(),
            4 * 12 + 12 + 8 + 8 + 4,
            "items per class plus its armors"
        );
        let pairings = skirmish::platform::parquet::read(&dir.join("pairings.parquet")).unwrap();
        assert_eq!(pairings.height(), 4 * 36);
        let files: std::collections::BTreeMap<String, Vec<u8>> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .map(|p| {
                (
                    p.file_name().unwrap().to_string_lossy().into_owned(),
                    std::fs::read(&p).unwrap(),
                )
            })
            .collect();
        assert!(files.contains_key("summary.txt"));
        seen.push(files);
        std::fs::remove_dir_all(&dir).unwrap();
    }
    assert_eq!(seen[0], seen[1]);
}

#[test]
fn games_lists_loot_arena_and_the_issues_spelling_runs() {
    let o = skirmish(&["games"]);
    assert!(text(&o.stdout).contains("Loot Arena (loot)"));
    let dir = tmp("loot", "alias");
    let o = skirmish(&[
        "analyze",
        "items",
        "--battles",
        "100",
        "--cell",
        "10",
        "--sets",
        "medic",
        "--quiet",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let o = skirmish(&["loot", "battle", "--seed", "3"]);
    assert!(o.status.success());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn loot_play_narrates_the_example_royale_as_golden() {
    let o = skirmish(&[
        "loot",
        "play",
        "experiments/loot-arena/royale.toml",
        "--narrate",
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let got = text(&o.stdout);
    common::assert_golden("tests/golden/loot-royale.narrate.txt", &got, "narration");
    for part in [
        "=== Round 1 (3x3 map) ===",
        "Movement:",
        "loots (",
        "equips:",
        "Battle on (",
        "is out in round",
        "wins the royale",
    ] {
        assert!(got.contains(part), "{part}");
    }
    // --trace: JSON Lines ending in the result; `loot check` reads the file back.
    let o = skirmish(&[
        "loot",
        "play",
        "experiments/loot-arena/royale.toml",
        "--trace",
    ]);
    let out = text(&o.stdout);
    for line in out.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        assert!(v.get("event").is_some());
    }
    assert!(out.lines().last().unwrap().contains("\"result\""));
    let o = skirmish(&["loot", "check", "experiments/loot-arena/royale.toml"]);
    assert!(text(&o.stdout).contains("a royale of 6 players on a 3x3 map"));
}

#[test]
fn la_52_two_looters_apart_stall_in_round_1_and_the_rules_file_can_play_them_to_the_cap() {
    let dir = tmp("loot", "stall");
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("royale.toml");
    std::fs::write(
        &f,
        "seed = 1\n[[player]]\nname = \"a\"\nstrategy = \"looter\"\n\
         [[player]]\nname = \"b\"\nstrategy = \"looter\"\n",
    )
    .unwrap();
    let o = skirmish(&["loot", "play", f.to_str().unwrap(), "--narrate"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let got = text(&o.stdout);
    assert!(
        got.contains("Round 1: nobody moved") && got.contains("The game stalls, no winner (LA-52)"),
        "{got}"
    );
    assert!(!got.contains("loots ("), "the stalled round loots nothing");
    let rules = dir.join("rules.toml");
    std::fs::write(&rules, "[royale]\nend_stalled = false\nmax_rounds = 3\n").unwrap();
    let o = skirmish(&[
        "loot",
        "play",
        f.to_str().unwrap(),
        "--narrate",
        "--rules",
        rules.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let got = text(&o.stdout);
    assert!(got.contains("The round cap (3) ends the game"), "{got}");
    std::fs::write(&rules, "[royale]\nend_stalled = 1\n").unwrap();
    let o = skirmish(&["loot", "check", rules.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("end_stalled"),
        "{}",
        text(&o.stderr)
    );
}

#[test]
fn a_royale_file_with_a_bad_strategy_or_too_many_players_exits_2_naming_the_line() {
    let dir = tmp("loot", "bad-royale");
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("royale.toml");
    std::fs::write(
        &f,
        "[[player]]\nname = \"a\"\nstrategy = \"looter\"\n[[player]]\nname = \"b\"\nstrategy = \"huntr\"\n",
    )
    .unwrap();
    for cmd in ["play", "check"] {
        let o = skirmish(&["loot", cmd, f.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(2));
        let e = text(&o.stderr);
        assert!(
            e.contains("royale.toml:6")
                && e.contains("player[1].strategy")
                && e.contains("did you mean `hunter`"),
            "{e}"
        );
    }
    let out = dir.join("out");
    let o = skirmish(&[
        "tournament",
        "loot",
        "--players",
        "17",
        "--games",
        "10",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("--players: 17 players"),
        "{}",
        text(&o.stderr)
    );
    assert!(!out.exists(), "nothing written");
}

#[cfg(feature = "parquet")]
#[test]
fn tournament_loot_writes_four_tables_the_same_on_one_and_two_threads() {
    let runs: Vec<_> = ["1", "2"]
        .iter()
        .map(|t| {
            let out = tmp("loot", &format!("royale-{t}"));
            let o = skirmish(&[
                "tournament",
                "loot",
                "--games",
                "300",
                "--chunk-size",
                "100",
                "--threads",
                t,
                "--quiet",
                "--out",
                out.to_str().unwrap(),
            ]);
            assert!(o.status.success(), "{}", text(&o.stderr));
            (out, text(&o.stdout))
        })
        .collect();
    let tables = ["games", "players", "rounds", "battles"];
    assert_eq!(
        common::table_files(&runs[0].0, &tables),
        common::table_files(&runs[1].0, &tables)
    );
    let summary = &runs[0].1;
    for part in [
        "win share",
        "smart",
        "by spawn ring",
        "battles won by role",
        "how games end",
    ] {
        assert!(summary.contains(part), "{part}: {summary}");
    }
    let games = common::table(&runs[0].0, "games");
    let players = common::table(&runs[0].0, "players");
    assert_eq!(games.height(), 300);
    assert_eq!(players.height(), 300 * 16);
    // LA-51: seat k of game m plays strategy (m + k) mod 6.
    let names = ["looter", "centre", "avoider", "hunter", "wanderer", "smart"];
    let game = players.column("game_id").unwrap().u64().unwrap();
    let seat = players.column("seat").unwrap().u16().unwrap();
    let strat = players.column("strategy").unwrap().str().unwrap();
    for i in 0..players.height() {
        let (m, k) = (game.get(i).unwrap(), seat.get(i).unwrap() as u64);
        assert_eq!(strat.get(i).unwrap(), names[((m + k) % 6) as usize]);
    }
    // Exactly one winner per won game.
    let won = players.column("won").unwrap().bool().unwrap();
    let ends = games.column("end").unwrap().str().unwrap();
    let wins = (0..players.height())
        .filter(|&i| won.get(i).unwrap())
        .count();
    let won_games = (0..300).filter(|&i| ends.get(i).unwrap() == "won").count();
    assert_eq!(wins, won_games);
    assert!(common::table(&runs[0].0, "battles").height() > 1000);
}

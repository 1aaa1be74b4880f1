//! Loot Arena as a user runs it: `loot odds`, `loot play`, `analyze loot items` (tables read back
//! by polars, the same bytes on 1 and 2 threads), `games` lists it.

mod common;

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
        assert!(out.contains("ITEM WORTH") && out.contains("PAIRINGS") && out.contains("SETS"));
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

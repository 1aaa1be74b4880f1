//! Issue 54 as a user meets it: the bidding meta-game in one command, the same bytes for any
//! thread count and shard split, and the known answer on the six sample powers (the hoarder).

use crate::common;

use common::{skirmish, tmp};

fn run(args: &[&str], out: &std::path::Path) -> String {
    let mut all = vec![
        "analyze",
        "rumble",
        "metagame",
        "--strategies",
        "hoarder,value,random",
        "--games",
        "300",
        "--chunk-size",
        "100",
        "--resamples",
        "50",
        "--no-search",
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ];
    all.extend(args);
    let o = skirmish(&all);
    let s = format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(o.status.success(), "{s}");
    s
}

#[test]
fn the_hoarder_is_the_equilibrium_on_the_sample_powers_whatever_the_split() {
    let a = tmp("metagame", "a");
    let said = run(&["--threads", "1"], &a);
    // AR-71 on the six sample powers: the hoarder wins every table, so it is the whole mix.
    assert!(
        said.contains("Of these 3 strategies, play hoarder(bid=1)")
            && said.contains("): hoarder(bid=1) 100.0% (largest gain"),
        "{said}"
    );
    assert!(
        said.lines().last().unwrap().starts_with("report: "),
        "{said}"
    );
    // Two shards, then the whole command: the same answer and tables, byte for byte.
    let b = tmp("metagame", "b");
    let first = run(&["--shard", "0/2"], &b);
    assert!(first.contains("not all played yet"), "{first}");
    run(&["--shard", "1/2"], &b);
    run(&["--threads", "2"], &b);
    for f in [
        "equilibrium.parquet",
        "payoffs.parquet",
        "result.json",
        "summary.txt",
    ] {
        assert_eq!(
            std::fs::read(a.join(f)).unwrap(),
            std::fs::read(b.join(f)).unwrap(),
            "{f} differs"
        );
    }
    // The report renders from the folder.
    let o = skirmish(&["report", a.to_str().unwrap(), "--format", "md"]);
    let md = String::from_utf8_lossy(&o.stdout);
    assert!(md.contains("the equilibrium mix"), "{md}");
}

// The best-response search against the sample powers' equilibrium (the hoarder): what it finds
// beats the hoarders at their own table, measured on fresh games (AR-71).
#[test]
fn the_best_response_found_beats_the_equilibrium_on_fresh_games() {
    let out = tmp("metagame", "br");
    let o = skirmish(&[
        "analyze",
        "rumble",
        "metagame",
        "--strategies",
        "hoarder,value",
        "--games",
        "200",
        "--resamples",
        "10",
        "--search-iterations",
        "5",
        "--search-population",
        "10",
        "--search-games",
        "200",
        "--fresh-games",
        "1000",
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ]);
    let s = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success(),
        "{s}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let line = s
        .lines()
        .find(|l| l.trim_start().starts_with("best response: share("))
        .unwrap_or_else(|| panic!("{s}"));
    // Its win share's lower bound is above a fair share (1/3) at the hoarders' table.
    let lo: f64 = line
        .split('[')
        .nth(1)
        .unwrap()
        .split('%')
        .next()
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    assert!(lo > 100.0 / 3.0, "{line}");
    assert!(s.contains("iteration 1: with share("), "{s}");
}

/// Issue 63: the meta-game's what-if says what the rules changed, and that its intervals are
/// unpaired and why, before anything else.
#[test]
fn a_meta_game_what_if_says_what_changed_and_that_it_is_unpaired_first() {
    let out = tmp("metagame", "what-if");
    let s = run(
        &[
            "--versus-rules",
            "experiments/auto-rumble/costly-attack.toml",
        ],
        &out,
    );
    let head: Vec<&str> = s.lines().take(4).collect();
    assert!(
        head.iter()
            .any(|l| l.trim() == "changed: attack_cost 10 -> 20"),
        "{s}"
    );
    assert!(
        head.iter()
            .any(|l| l.trim().starts_with("intervals: UNPAIRED")),
        "{s}"
    );
}

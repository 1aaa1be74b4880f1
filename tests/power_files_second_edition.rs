//! Power files, second edition (issue 23): the defects a new user found, each pinned by the case
//! that showed it, and the clause kinds added since. Rules cited: AR-22, AR-27, AR-43, AR-53...
//! in docs/rules/auto-rumble.md.

mod common;

use std::path::Path;

use common::{skirmish, tmp};
use skirmish::games::auto_rumble::powers::catalogue::{Catalogue, MAX_CLAUSES, MAX_HERO_COUNTERS};
use skirmish::games::auto_rumble::powers::file;

fn write(dir: &Path, name: &str, text: &str) -> String {
    std::fs::create_dir_all(dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p.display().to_string()
}

/// A power keeping four counters (a hero holds eight together).
fn hoard(name: &str) -> String {
    format!(
        r#"
[[power]]
name = "{name}"
source = "test"
text = "Keeps four tallies."
counters = {{ A = 0, B = 0, C = 0, D = 0 }}

[[power.clause]]
when = "round_start"
effects = [{{ counter = "A", add = 1 }}, {{ add_defence = "A" }}]
"#
    )
}

// AR-22: with three powers of four counters each and the default 0..3 powers per hero, a drawn
// hero could keep 12 counters; `simulate` used to panic (TooManyCounters). The draw now sets aside
// a power that would not fit, and `powers check` says what a hero holds.
#[test]
fn simulate_draws_only_heroes_that_fit_ar_22() {
    let dir = tmp("second-edition", "hoards");
    let f = write(
        &dir,
        "hoards.toml",
        &format!(
            "{}{}{}",
            hoard("Hoard A"),
            hoard("Hoard B"),
            hoard("Hoard C")
        ),
    );
    let check = skirmish(&["powers", "check", &f]);
    assert!(check.status.success());
    let text = String::from_utf8_lossy(&check.stdout);
    assert!(
        text.contains("a hero holds at most 8 powers, 16 clauses and 8 counters together"),
        "{text}"
    );
    assert!(text.contains("4 counters (Hoard A)"), "{text}");
    let out = dir.join("run");
    let o = skirmish(&[
        "simulate",
        "rumble",
        "--power-file",
        &f,
        "--matches",
        "400",
        "--heroes",
        "2..6",
        "--out",
        out.to_str().unwrap(),
        "--quiet",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let heroes = common::table(&out, "heroes");
    let held = heroes.column("powers").unwrap().list().unwrap().clone();
    let most = (0..held.len())
        .map(|i| held.get_as_series(i).map_or(0, |s| s.len()))
        .max()
        .unwrap();
    assert_eq!(most, 2, "two hoards fill a hero's 8 counters");
}

// Limits of one power are load-time errors with the line, never a failure later: 17 clauses
// (a hero holds 16), a summon holding more than a hero holds.
#[test]
fn a_power_larger_than_a_hero_is_refused_when_the_file_loads() {
    let clause = "[[power.clause]]\nwhen = \"round_start\"\neffects = [{ add_defence = 1 }]\n";
    let big = format!(
        "[[power]]\nname = \"Big\"\nsource = \"t\"\ntext = \"t\"\n{}",
        clause.repeat(MAX_CLAUSES + 1)
    );
    let e = file::parse(&big, "big.toml").unwrap_err().to_string();
    assert!(e.contains("big.toml:1"), "{e}");
    assert!(e.contains("17 clauses; a power has at most 16"), "{e}");
    let summoner = format!(
        "{}{}{}\n[[power]]\nname = \"Host\"\nsource = \"t\"\ntext = \"t\"\n[[power.clause]]\nwhen = \"battle_start\"\neffects = [{{ summon = \"Swarm\", energy = 10, powers = [\"Hoard A\", \"Hoard B\", \"Hoard C\"] }}]\n",
        hoard("Hoard A"),
        hoard("Hoard B"),
        hoard("Hoard C")
    );
    let e = file::parse(&summoner, "host.toml").unwrap_err().to_string();
    assert!(e.contains("Host.summon.powers"), "{e}");
    assert!(e.contains("holding more than a hero holds"), "{e}");
    assert_eq!(MAX_HERO_COUNTERS, 8);
}

// AR-43: `coins` effects that would take a hero past the coin limit are clamped, so a file
// `powers check` accepts cannot make an unbuildable hero at any drawn strength.
#[test]
fn coins_past_the_limit_are_clamped_ar_43() {
    let text = "[[power]]\nname = \"Hoard of gold\"\nsource = \"t\"\ntext = \"t\"\n[[power.clause]]\nwhen = \"passive\"\neffects = [{ coins = \"1000 * strength\" }]\n";
    let cat = Catalogue::new(file::parse(text, "gold.toml").unwrap());
    let held = [skirmish::games::auto_rumble::powers::catalogue::Held {
        power: 0,
        strength: 5000,
    }];
    let order = skirmish::games::auto_rumble::powers::catalogue::default_order(&cat, &held);
    let l = skirmish::games::auto_rumble::powers::catalogue::Loadout::compile(
        &cat, 900_000, &held, &order,
    )
    .unwrap();
    assert_eq!(l.coins, skirmish::games::auto_rumble::rules::MAX_ABS_COINS);
}

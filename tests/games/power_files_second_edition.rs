//! Power files, second edition (issue 23): the defects a new user found, each pinned by the case
//! that showed it, and the clause kinds added since. Rules cited: AR-22, AR-27, AR-43, AR-53...
//! in docs/rules/auto-rumble.md.

use crate::common;

use std::path::Path;

use common::{hero, play_within, round, second_edition, skirmish, tmp};
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

fn play(
    cat: &Catalogue,
    builds: &[skirmish::games::auto_rumble::powers::catalogue::Loadout],
) -> skirmish::games::auto_rumble::reference::data::Replay {
    play_within(cat, builds, 30, 4096)
}

// AR-53: a counter is its holder's. A counter effect aimed at other heroes wrote into the
// target's slot, i.e. another power's counter (an opponent's Crystallize X went from 2 to 102);
// it is refused where it is written, with the fix.
#[test]
fn a_counter_effect_on_other_heroes_is_refused_ar_53() {
    let text = r#"[[power]]
name = "Shatter"
source = "t"
text = "Start of round: 5 damage to every opponent; N counts the rounds."
counters = { N = 0 }

[[power.clause]]
when = "round_start"
target = "all_opponents"
effects = [{ damage = 5 }, { counter = "N", add = 100 }]
"#;
    let e = file::parse(text, "shatter.toml").unwrap_err();
    assert_eq!(e.at.map(|a| a.0), Some(10), "{e}");
    let e = e.to_string();
    assert!(e.contains("Shatter.clause.effects"), "{e}");
    assert!(e.contains("add `to = \"self\"`"), "{e}");
    assert!(e.contains("AR-53"), "{e}");
    let fixed = text.replace("add = 100 }", "add = 100, to = \"self\" }");
    let defs = file::parse(&fixed, "shatter.toml").unwrap();
    assert!(defs[0].describe().contains("counter N += 100"));
}

// AR-54: a death clause may carry any effect on other heroes. Martyrdom: B (300 Energy, 77 a hit)
// acts first. Round 1: A and C are at 23, A hits B and C (290, 13), C hits B and A (280, 13).
// Round 2: B's hit eliminates A; Martyrdom hits B for 20 (260) and C for 20: C falls (quietly,
// a reaction's effect, AR-52), so B wins in round 2.
#[test]
fn martyrdom_hits_every_opponent_as_it_falls_ar_54() {
    let c = second_edition();
    let b = [
        hero(&c, 200, &[], None),
        hero(&c, 0, &["Martyrdom"], None),
        hero(&c, 0, &[], None),
    ];
    let r = play(&c, &b);
    assert_eq!(round(&r, 1), [(0, 280), (1, 13), (2, 13)]);
    assert_eq!(round(&r, 2), [(0, 260)]);
    assert_eq!(r.outcome.winner, Some(0));
    assert_eq!(r.outcome.rounds, 2);
}

// AR-54: in a death clause `other` is the hero whose hit eliminated the holder. Spite: round 1,
// B hits A (23), A hits B (290); round 2, B's hit eliminates A and B loses 30 (260).
#[test]
fn spite_burns_the_hero_who_eliminated_it_ar_54() {
    let c = second_edition();
    let b = [hero(&c, 200, &[], None), hero(&c, 0, &["Spite"], None)];
    let r = play(&c, &b);
    assert_eq!(round(&r, 1), [(0, 290), (1, 23)]);
    assert_eq!(round(&r, 2), [(0, 260)]);
    // A revive among the death clauses still keeps the hero in: Lich before Martyrdom revives
    // first, so Martyrdom does not fire (the walk stops, AR-27).
    let b = [
        hero(&c, 200, &[], None),
        hero(&c, 0, &["Lich", "Martyrdom"], None),
    ];
    let r = play(&c, &b);
    assert_eq!(round(&r, 2), [(0, 280), (1, 50)]);
}

// AR-54: effects on the holder that mean nothing once it has left are refused, with the fix; so
// is a cost (nothing left to pay with).
#[test]
fn a_death_clause_acting_on_its_fallen_holder_is_refused_ar_54() {
    let text = "[[power]]\nname = \"Last Gasp\"\nsource = \"t\"\ntext = \"t\"\n[[power.clause]]\nwhen = \"death\"\neffects = [{ add_defence = 10 }]\n";
    let e = file::parse(text, "gasp.toml").unwrap_err().to_string();
    assert!(e.contains("does nothing then"), "{e}");
    let e = file::parse(
        &text.replace(
            "effects = [{ add_defence = 10 }]",
            "cost = { burn = 5 }\ntarget = \"all_opponents\"\neffects = [{ damage = 10 }]",
        ),
        "gasp.toml",
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("drop the cost"), "{e}");
}

// AR-55: a helper power (the Poxwalkers' Pox) is held only by what summons it: random rosters,
// the power-value analysis and the bidding game's pool never hand it to a hero, and naming it
// where powers are drawn or valued is refused.
#[test]
fn helper_powers_are_never_drawn_offered_or_valued_ar_55() {
    use skirmish::games::auto_rumble::game::strategy::{Kind, Strategy};
    use skirmish::games::auto_rumble::game::{self, GameSettings, Sizes, Table};
    let cat = common::archive();
    let pox = cat.id("Pox").unwrap();
    assert!(cat.defs[pox as usize].helper);
    assert_eq!(cat.drawable.len(), cat.len() - 1);
    assert!(!cat.drawable.contains(&pox));
    // The bidding game: 40 games of archive powers, nobody ever holds Pox.
    let values: Vec<f64> = (0..cat.len()).map(|i| 10.0 + i as f64).collect();
    let st: Vec<Strategy> = ["random", "hoarder", "spreader", "value"]
        .iter()
        .map(|s| Strategy::for_catalogue(Kind::parse(s).unwrap(), values.clone(), &cat))
        .collect();
    let refs: Vec<&Strategy> = st.iter().collect();
    let settings = GameSettings {
        players: 4,
        max_rounds: 30,
        capacity: 128,
    };
    let mut table = Table::new(&cat, 128);
    let mut held = 0;
    for seed in 0..40 {
        let g = game::play(&cat, &Sizes::new(&cat), &settings, &refs, seed, &mut table);
        for p in &g.players[..4] {
            assert!(p.held().iter().all(|h| h.power != pox), "game {seed}");
            held += p.held().len();
        }
    }
    assert!(held > 100, "the games handed out only {held} powers");
    // Named where powers are drawn or valued: refused, exit 2, naming the rule.
    for args in [
        &[
            "simulate",
            "rumble",
            "--power-file",
            "experiments/powers/archive.toml",
            "--catalogue",
            "Pox",
            "--matches",
            "10",
        ][..],
        &[
            "analyze",
            "powers",
            "--power-file",
            "experiments/powers/archive.toml",
            "--power",
            "Pox",
        ][..],
    ] {
        let o = skirmish(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let e = String::from_utf8_lossy(&o.stderr);
        assert!(
            e.contains("`Pox` is a helper power") && e.contains("AR-55"),
            "{e}"
        );
    }
    // `powers list` and `powers check` say so.
    let o = skirmish(&["powers", "list", "experiments/powers/archive.toml"]);
    assert!(
        String::from_utf8_lossy(&o.stdout)
            .contains("Pox                             BW      helper")
    );
    // A helper no summon holds is a slip, refused with the fix.
    let lone = "[[power]]\nname = \"Bite\"\nsource = \"t\"\ntext = \"t\"\nhelper = true\n[[power.clause]]\nwhen = \"round_start\"\neffects = [{ add_energy = 1 }]\n[[power]]\nname = \"Plain\"\nsource = \"t\"\ntext = \"t\"\n[[power.clause]]\nwhen = \"round_start\"\neffects = [{ add_energy = 1 }]\n";
    let e = file::parse(lone, "lone.toml").unwrap_err().to_string();
    assert!(e.contains("no summon in this file holds it"), "{e}");
}

// AR-55: `simulate rumble --power-file` draws from every power but the helpers.
#[test]
fn simulate_never_draws_a_helper_ar_55() {
    let dir = tmp("second-edition", "no-pox");
    let out = dir.join("run");
    let o = skirmish(&[
        "simulate",
        "rumble",
        "--power-file",
        "experiments/powers/archive.toml",
        "--matches",
        "300",
        "--heroes",
        "2..4",
        "--powers",
        "3..3",
        "--capacity",
        "64",
        "--out",
        out.to_str().unwrap(),
        "--quiet",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let heroes = common::table(&out, "heroes");
    let powers = heroes.column("powers").unwrap().list().unwrap().clone();
    let mut seen = 0;
    for i in 0..powers.len() {
        let s = powers.get_as_series(i).unwrap();
        let s = s.cast(&polars::prelude::DataType::String).unwrap();
        let names = s.str().unwrap();
        for j in 0..names.len() {
            assert_ne!(names.get(j), Some("Pox"));
            seen += 1;
        }
    }
    assert!(seen > 600, "{seen}");
}

// The format's full reference is generated from the loader's tables; docs/power-files.md is
// that output (regenerate: `skirmish rumble reference > docs/power-files.md`), and the old
// spelling prints the same. `check --help` points to it.
#[test]
fn the_reference_in_docs_is_what_the_cli_prints() {
    let o = skirmish(&["rumble", "reference"]);
    assert!(o.status.success());
    let printed = String::from_utf8(o.stdout).unwrap();
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write("docs/power-files.md", &printed).unwrap();
    }
    let docs = std::fs::read_to_string("docs/power-files.md").unwrap();
    assert!(
        printed == docs,
        "docs/power-files.md is stale: run `skirmish rumble reference > docs/power-files.md`"
    );
    for needle in [
        "| `damage_taken` | Energy the holder has lost to hits so far this round: the round's total, not the hit being resolved",
        "| `heroes_alive` | heroes alive at the start of this round",
        "| `attack` | the holder's attack damage per hit from its coins (AR-2), before attack bonuses |",
        "| clauses per hero (its powers together) | 16 |",
    ] {
        assert!(printed.contains(needle), "{needle}");
    }
    let old = skirmish(&["powers", "reference"]);
    assert_eq!(String::from_utf8(old.stdout).unwrap(), printed);
    for args in [
        &["rumble", "check", "--help"][..],
        &["powers", "check", "--help"][..],
    ] {
        let help = String::from_utf8(skirmish(args).stdout).unwrap();
        assert!(help.contains("reference"), "{args:?}: {help}");
    }
}

// `check` prints each quantity a power reads with what it counts, so a misread shows.
#[test]
fn check_explains_every_quantity_a_power_reads() {
    let o = skirmish(&["rumble", "check", "experiments/powers/archive.toml"]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.contains("  reads:\n    hits_taken_last_round: attack hits aimed at the holder in the previous round"),
        "{out}"
    );
    assert!(
        out.contains("    X: the holder's counter of that name now (AR-53)"),
        "{out}"
    );
}

// AR-57: a damage cap on one hit. B (300 Energy, 77 a hit) acts first; A's Stone Skin caps each
// attack hit at 15: A ends round 1 at 85, B at 290.
#[test]
fn stone_skin_caps_each_attack_hit_at_15_ar_57() {
    let c = second_edition();
    let b = [hero(&c, 200, &[], None), hero(&c, 0, &["Stone Skin"], None)];
    let r = play(&c, &b);
    assert_eq!(round(&r, 1), [(0, 290), (1, 85)]);
    assert_eq!(round(&r, 2), [(0, 280), (1, 70)]);
}

// AR-57: `hit.damage` in `damaged` is the Energy the hit took. B's 77 takes A to 23; Vengeful
// Echo hits B for 77 / 2 = 39 (rounded up, AR-23): 261; A's attack: 251.
#[test]
fn vengeful_echo_returns_half_the_hit_it_took_ar_57() {
    let c = second_edition();
    let b = [
        hero(&c, 200, &[], None),
        hero(&c, 0, &["Vengeful Echo"], None),
    ];
    let r = play(&c, &b);
    assert_eq!(round(&r, 1), [(0, 251), (1, 23)]);
    // `hit.arriving` in `attacked`: Braced gains 10 Defence against B's 77 (it arrives >= 30):
    // 67 gets through, A is at 33; C's 10 does not trigger it.
    let b = [
        hero(&c, 200, &[], None),
        hero(&c, 0, &["Braced"], None),
        hero(&c, 0, &[], None),
    ];
    let r = play(&c, &b);
    assert_eq!(round(&r, 1)[1], (1, 23), "B's 67 then C's 10");
}

// AR-58: effect hits that count as attacks. Whirlwind's 8 at round start is an attack hit on B,
// so B's Kinetic Absorption (+5 per attack hit taken last round) counts it. Round 1: B 100 - 8
// - 10 = 82, A 90. Round 2: Whirlwind (74), Kinetic +10 for two hits (84), A's attack (74),
// B's attack (80).
#[test]
fn whirlwind_hits_count_as_attacks_ar_58() {
    let c = second_edition();
    let b = [
        hero(&c, 0, &["Whirlwind"], None),
        hero(&c, 0, &["Kinetic Absorption"], None),
    ];
    let r = play(&c, &b);
    assert_eq!(round(&r, 1), [(0, 90), (1, 82)]);
    assert_eq!(round(&r, 2), [(0, 80), (1, 74)]);
}

// AR-56: a target across all teams. Kingslayer (Spend 15, after its attack) hits the other hero
// with the most Energy: B (300 - 10 = 290 after A's attack) takes 25: 265; C, attacked by A
// and B, is at 13.
#[test]
fn kingslayer_hits_the_other_hero_with_most_energy_ar_56() {
    let c = second_edition();
    let b = [
        hero(&c, 0, &["Kingslayer"], None),
        hero(&c, 200, &[], None),
        hero(&c, 0, &[], None),
    ];
    let r = play(&c, &b);
    // A: attack (B 290, C 90), Kingslayer (B 265); B: 77 each (A 23, C 13); C: 10 each.
    assert_eq!(round(&r, 1), [(0, 13), (1, 255), (2, 13)]);
}

// AR-57, AR-58: an attack hit made inside another hit's `attacked` clause leaves the outer hit as
// it was. B's 77 arrives; Riposte strikes B for 5 (295); the 77 still lands (A 23); A's attack
// takes B to 285.
#[test]
fn riposte_strikes_back_inside_the_hit_without_changing_it_ar_58() {
    let c = second_edition();
    let b = [hero(&c, 200, &[], None), hero(&c, 0, &["Riposte"], None)];
    let r = play(&c, &b);
    assert_eq!(round(&r, 1), [(0, 285), (1, 23)]);
}

// AR-59: damage multipliers, on attack hits and effect hits alike. Glass Cannon (deal 200%,
// take 150%) read when the plan is made, so round 1's Whirlwind (before A's first plan) hits for
// 8: B 92; A's attack 20 (72); B's 10 arrives as 15 (A 85). Round 2: Whirlwind 16 (56), attack
// 20 (36), B's 15 (70).
#[test]
fn glass_cannon_doubles_every_hit_it_deals_and_takes_half_again_ar_59() {
    let c = second_edition();
    let b = [
        hero(&c, 0, &["Glass Cannon", "Whirlwind"], None),
        hero(&c, 0, &[], None),
    ];
    let r = play(&c, &b);
    assert_eq!(round(&r, 1), [(0, 85), (1, 72)]);
    assert_eq!(round(&r, 2), [(0, 70), (1, 36)]);
}

// AR-59: a multiplier's condition is read when the plan is made. Berserk at 100 Energy: A hits B
// for 10 (290); B's 77 leaves A at 23. Round 2, planned below 50: A hits for 15 (275), then
// falls.
#[test]
fn berserk_counts_from_the_plan_made_below_50_ar_59() {
    let c = second_edition();
    let b = [hero(&c, 0, &["Berserk"], None), hero(&c, 200, &[], None)];
    let r = play(&c, &b);
    assert_eq!(round(&r, 1), [(0, 23), (1, 290)]);
    assert_eq!(round(&r, 2), [(1, 275)]);
}

// AR-59: the product is rounded up once. B's 77 on Thick Hide (75%) is 57.75: 58, A at 42.
#[test]
fn thick_hide_takes_three_quarters_rounded_up_ar_59() {
    let c = second_edition();
    let b = [hero(&c, 0, &["Thick Hide"], None), hero(&c, 200, &[], None)];
    let r = play(&c, &b);
    assert_eq!(round(&r, 1), [(0, 42), (1, 290)]);
}

// AR-59: the attack's cost. Heavy Blows' attack Spends 30 and hits for 20: round 1 A (100)
// attacks (B 280) and is left at 23 by B; round 2 its 23 cannot pay 30, so B stays at 280.
#[test]
fn heavy_blows_cannot_attack_below_30_energy_ar_59() {
    let c = second_edition();
    let b = [
        hero(&c, 0, &["Heavy Blows"], None),
        hero(&c, 200, &[], None),
    ];
    let r = play(&c, &b);
    assert_eq!(round(&r, 1), [(0, 23), (1, 280)]);
    assert_eq!(round(&r, 2), [(1, 280)]);
}

// AR-59: percentages compose by multiplying (rounded up to a whole percent), within 0..=1e6;
// a hit arrives as amount x vulnerable x dealt% x taken%, rounded up once.
#[test]
fn damage_percentages_compose_and_round_up_once_ar_59() {
    use skirmish::games::auto_rumble::rules::{arriving_hit, compose_percent};
    assert_eq!(compose_percent(150, 200), 300);
    assert_eq!(compose_percent(100, 33), 33);
    assert_eq!(compose_percent(33, 33), 11, "10.89 rounds up");
    assert_eq!(compose_percent(100, -50), 0);
    assert_eq!(arriving_hit(77, 1, 100, 75), 58);
    assert_eq!(arriving_hit(10, 2, 150, 150), 45);
    assert_eq!(arriving_hit(10, 1, 0, 100), 0);
    assert_eq!(arriving_hit(i32::MAX, 4, 1_000_000, 1_000_000), i32::MAX);
}

// AR-60: a neutral summon fights every team, its summoner's included, and every team fights it.
// The Wild Beast (id 2, 40 Energy, 10 a hit) joins after A. Round 1: A hits B and the Beast (90,
// 30); the Beast hits A and B (90, 80); B hits A and the Beast (80, 20). Round 2: A (70, 10),
// the Beast (70, 60), B's hit on A (60) and on the Beast, which falls.
#[test]
fn a_neutral_beast_attacks_every_team_and_every_team_attacks_it_ar_60() {
    let c = second_edition();
    let b = [hero(&c, 0, &["Wild Hunt"], None), hero(&c, 0, &[], None)];
    let r = play(&c, &b);
    assert_eq!(round(&r, 1), [(0, 80), (2, 20), (1, 80)]);
    assert_eq!(round(&r, 2), [(0, 60), (1, 60)]);
}

// AR-42, AR-60: summons of no team keep no team in the battle. A (50 Energy, no damage) and its
// hostile Militia (20 Energy; A's hits deal 0): B's 77 eliminates A in round 1, and the battle ends there with B the winner,
// the Militia still standing (it used to drag on for 16 rounds of stalemate halving).
#[test]
fn a_team_whose_only_heroes_left_are_hostile_summons_is_out_ar_42() {
    use skirmish::games::auto_rumble::kernel::hand::EndReason;
    let c = second_edition();
    let b = [
        hero(&c, -50, &["City as a Weapon"], None),
        hero(&c, 200, &[], None),
    ];
    let r = play(&c, &b);
    assert_eq!(r.outcome.rounds, 1);
    assert_eq!(r.outcome.winner, Some(1));
    assert_eq!(r.outcome.end, EndReason::Elimination);
    assert_eq!(round(&r, 1), [(2, 20), (1, 300)]);
    // A beast outliving every team but one does not stop that team winning either.
    let b = [
        hero(&c, -50, &["Wild Hunt"], None),
        hero(&c, 200, &[], None),
    ];
    let r = play(&c, &b);
    assert_eq!((r.outcome.rounds, r.outcome.winner), (1, Some(1)));
}

// AR-61: who attacked the holder last round, as a target. Round 1 nobody had: A and B trade 10s
// (90, 90). Round 2: Vendetta hits B for 10 (80), then the attacks (A 80, B 70).
#[test]
fn vendetta_strikes_last_rounds_attackers_ar_61() {
    let c = second_edition();
    let b = [hero(&c, 0, &["Vendetta"], None), hero(&c, 0, &[], None)];
    let r = play(&c, &b);
    assert_eq!(round(&r, 1), [(0, 90), (1, 90)]);
    assert_eq!(round(&r, 2), [(0, 80), (1, 70)]);
}

// AR-61: as a count. Round 1: everyone hits everyone for 10 (80 each). Round 2: A gains 20
// Defence for B and C, which absorbs both their hits (A stays at 80); B and C fall to 60.
#[test]
fn safety_in_numbers_counts_last_rounds_attackers_ar_61() {
    let c = second_edition();
    let b = [
        hero(&c, 0, &["Safety in Numbers"], None),
        hero(&c, 0, &[], None),
        hero(&c, 0, &[], None),
    ];
    let r = play(&c, &b);
    assert_eq!(round(&r, 1), [(0, 80), (1, 80), (2, 80)]);
    assert_eq!(round(&r, 2), [(0, 80), (1, 60), (2, 60)]);
}

// AR-61: as a condition on the other hero. Round 1, B's hit is its first: A 90. Round 2 B
// attacked A last round, so A gains 5 Defence against the hit: 85.
#[test]
fn grudge_braces_against_a_repeat_attacker_ar_61() {
    let c = second_edition();
    let b = [hero(&c, 0, &["Grudge"], None), hero(&c, 0, &[], None)];
    let r = play(&c, &b);
    assert_eq!(round(&r, 1), [(0, 90), (1, 90)]);
    assert_eq!(round(&r, 2), [(0, 85), (1, 80)]);
}

// AR-11, AR-61: a copy remembers what its original does. Round 1: B hits A (90), A splits
// (Amoeba: 45 + 5 = 50 each; the copy is id 2). Round 2: B attacked A last round, so A and its
// copy each gain 10 Defence, which absorbs B's 10 on each; they split from 50 to 30.
#[test]
fn a_copy_remembers_its_originals_attackers_ar_61() {
    let c = second_edition();
    let b = [
        hero(&c, 0, &["Amoeba", "Safety in Numbers"], None),
        hero(&c, 0, &[], None),
    ];
    let r = play(&c, &b);
    assert_eq!(round(&r, 1), [(0, 50), (2, 50), (1, 90)]);
    assert_eq!(round(&r, 2), [(0, 30), (3, 30), (2, 30), (4, 30), (1, 70)]);
}

// AR-62: a power given to another hero. B's first attack hit on A gives B the Plague (round 1:
// 90, 90); from round 2 B loses 5 as it starts (85), then the attacks (A 80, B 75). Hitting A
// again gives nothing more: a hero holds a power once.
#[test]
fn plague_carrier_infects_the_hero_who_hits_it_ar_62() {
    let c = second_edition();
    let b = [
        hero(&c, 0, &["Plague Carrier"], None),
        hero(&c, 0, &[], None),
    ];
    let r = play(&c, &b);
    assert_eq!(round(&r, 1), [(0, 90), (1, 90)]);
    assert_eq!(round(&r, 2), [(0, 80), (1, 75)]);
    assert_eq!(round(&r, 3), [(0, 70), (1, 60)]);
}

// AR-62, AR-59: a curse that stays after its caster is gone. A (15 Energy, no damage) Hexes B
// (the first of the two with most Energy) and falls to B's and C's hits in round 1. Hexed's
// `take_percent` counts from B's next plan: round 2, C's 10 arrives at B as 15 (75), B's at C
// as 10 (80).
#[test]
fn hex_outlasts_its_caster_ar_62() {
    let c = second_edition();
    let b = [
        hero(&c, -85, &["Hex"], Some(&["Hex", "Attack"])),
        hero(&c, 0, &[], None),
        hero(&c, 0, &[], None),
    ];
    let r = play(&c, &b);
    assert_eq!(round(&r, 1), [(1, 90), (2, 90)]);
    assert_eq!(round(&r, 2), [(1, 75), (2, 80)]);
}

// AR-62: a lasting status with its own counter. A dooms B in round 1 (B 190 after A's hit; A 56
// after B's 44); Doomed's T falls to 1 at that round's end and to 0 at the next: B is eliminated
// at the end of round 2 and A wins with 12.
#[test]
fn doom_eliminates_its_mark_at_the_end_of_the_next_round_ar_62() {
    let c = second_edition();
    let b = [hero(&c, 0, &["Doom"], None), hero(&c, 100, &[], None)];
    let r = play(&c, &b);
    assert_eq!(round(&r, 1), [(0, 56), (1, 190)]);
    assert_eq!(round(&r, 2), [(0, 12)]);
    assert_eq!((r.outcome.rounds, r.outcome.winner), (2, Some(0)));
}

// AR-62: what a given power must be is checked when the file loads: it exists, and has no
// `coins` (settled before the battle).
#[test]
fn a_give_of_an_unknown_or_coin_power_is_refused_ar_62() {
    use skirmish::games::auto_rumble::powers::file::parse;
    let giver = |name: &str| {
        format!(
            "[[power]]\nname = \"Giver\"\nsource = \"t\"\ntext = \"t\"\n[[power.clause]]\nwhen = \"round_start\"\ntarget = \"first_opponent\"\neffects = [{{ give = \"{name}\" }}]\n"
        )
    };
    let e = parse(&giver("Plauge"), "g.toml").unwrap_err().to_string();
    assert!(
        e.contains("Giver.give") && e.contains("not in this file"),
        "{e}"
    );
    let text = format!(
        "{}[[power]]\nname = \"Rich\"\nsource = \"t\"\ntext = \"t\"\n[[power.clause]]\nwhen = \"passive\"\neffects = [{{ coins = 5 }}]\n",
        giver("Rich")
    );
    let e = parse(&text, "g.toml").unwrap_err().to_string();
    assert!(e.contains("coins") && e.contains("AR-62"), "{e}");
}

// Issue 49: the verdict's "with N hero(es) alive" counted the winner's hostile summons (of no
// team, AR-42) and read 0 after a power's win at the battle start (no round was played).
#[test]
fn the_verdict_counts_the_winning_teams_heroes_only() {
    let powers = common::tmp_file(
        "second-edition",
        "verdict-powers.toml",
        r#"
[[power]]
name = "Instant"
source = "issue 49"
text = "Win at the start."
[[power.clause]]
when = "battle_start"
effects = ["win"]

[[power]]
name = "Rebels"
source = "issue 49"
text = "Raise a hostile militia at the start."
[[power.clause]]
when = "battle_start"
effects = [{ summon = "Rebel", energy = 500, hostile = true }]
"#,
    );
    let scenario = |a: &str| {
        format!(
            "[[hero]]\nname = \"Ann\"\ncoins = 50\nbase_initiative = 0.9\npowers = [{{ name = \"{a}\", strength = 1 }}]\n\n[[hero]]\nname = \"Ben\"\ncoins = 0\nbase_initiative = 0.1\n"
        )
    };
    let play = |a: &str| {
        let file = common::tmp_file("second-edition", &format!("verdict-{a}.toml"), &scenario(a));
        let o = skirmish(&["rumble", "play", &file, "--powers", &powers]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        String::from_utf8_lossy(&o.stdout).into_owned()
    };
    let out = play("Instant");
    assert!(
        out.contains("Ann wins after 0 rounds (a power's win), with 1 hero(es) alive."),
        "{out}"
    );
    // Ann wins; her 500-Energy Rebel, hostile to her team (it never attacks), is nobody's hero.
    let out = play("Rebels");
    assert!(out.contains("Ann wins after"), "{out}");
    assert!(out.contains("with 1 hero(es) alive."), "{out}");
}

// Issue 49: a hero that leaves inside its own `attacked` reaction was told as hit afterwards.
#[test]
fn a_hero_that_leaves_in_its_attacked_reaction_is_not_told_as_hit() {
    let powers = common::tmp_file(
        "second-edition",
        "coward-powers.toml",
        "[[power]]\nname = \"Coward\"\nsource = \"issue 49\"\ntext = \"Leave when attacked.\"\n[[power.clause]]\nwhen = \"attacked\"\neffects = [\"eliminate\"]\n",
    );
    let scenario = common::tmp_file(
        "second-edition",
        "coward.toml",
        "[[hero]]\nname = \"Ann\"\ncoins = 0\nbase_initiative = 0.1\npowers = [{ name = \"Coward\", strength = 1 }]\n\n[[hero]]\nname = \"Ben\"\ncoins = 0\nbase_initiative = 0.9\n\n[[hero]]\nname = \"Cid\"\ncoins = 0\nbase_initiative = 0.5\n",
    );
    let o = skirmish(&[
        "rumble",
        "play",
        &scenario,
        "--powers",
        &powers,
        "--narrate",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("Ann is eliminated."), "{out}");
    assert!(!out.contains("Ann is hit"), "{out}");
}

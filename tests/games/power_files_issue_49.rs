//! Issue 49's named defects, each a regression case: what a power reads anywhere (an effect's own
//! `if`, a cost, a summon's values) decides which path plays it and what the kernels remember, so
//! `simulate` and `analyze` play exactly what `rumble play` plays; nested clamps mean what they
//! say and never panic.

use crate::common;

use rand::RngExt;
use skirmish::games::auto_rumble::kernel::data::{DataKernel, Rounds, in_kernel_class};
use skirmish::games::auto_rumble::powers::catalogue::{Catalogue, Held, Loadout, default_order};
use skirmish::games::auto_rumble::powers::expr::{Names, parse_expr};
use skirmish::games::auto_rumble::powers::file::parse;
use skirmish::games::auto_rumble::reference::data as reference;
use skirmish::rng::{Stream, stream_rng};

/// The power file of one power named `P` with the clause given.
fn one_power(clause: &str) -> Catalogue {
    let text = format!("[[power]]\nname = \"P\"\nsource = \"issue 49\"\ntext = \"x\"\n{clause}");
    Catalogue::new(parse(&text, "issue49.toml").unwrap_or_else(|e| panic!("{e}\n{text}")))
}

/// 300 battles of a holder of `P` (random strength, coins and seat) against 1-4 plain heroes,
/// through the data kernel as `simulate` plays them and through the reference: every round's
/// Energies and the outcome must agree. Returns how many battles the holder's Energy differed
/// from a powerless twin's, so each case shows the power did something.
fn plays_as_the_reference(cat: &Catalogue) -> u32 {
    let mut kernel = DataKernel::new(64);
    let mut acted = 0;
    for i in 0..300 {
        let mut rng = stream_rng(0x49, i, Stream::Roster);
        let held = [Held {
            power: 0,
            strength: rng.random_range(0..=30),
        }];
        let holder = Loadout::compile(
            cat,
            rng.random_range(-10..=40),
            &held,
            &default_order(cat, &held),
        )
        .unwrap();
        let n = rng.random_range(2..=5);
        let seat = rng.random_range(0..n);
        let builds: Vec<Loadout> = (0..n)
            .map(|k| {
                if k == seat {
                    holder
                } else {
                    Loadout::compile(
                        cat,
                        rng.random_range(-20..=40),
                        &[],
                        &default_order(cat, &[]),
                    )
                    .unwrap()
                }
            })
            .collect();
        let ini: Vec<f64> = (0..n).map(|_| rng.random_range(0.0..1.0)).collect();
        let want = agree(&mut kernel, cat, &builds, &ini, 30);
        let mut plain = builds.clone();
        plain[seat] = Loadout::compile(cat, holder.coins, &[], &default_order(cat, &[])).unwrap();
        acted += (reference::play(cat, &plain, &ini, 30, 64).rounds != want.rounds) as u32;
    }
    acted
}

/// One battle on `kernel` as `simulate` plays it (the fast path when the loadouts are in its
/// class, else the general path) and on the reference: rounds and outcome must agree.
fn agree(
    kernel: &mut DataKernel,
    cat: &Catalogue,
    builds: &[Loadout],
    ini: &[f64],
    rounds: u32,
) -> reference::Replay {
    let want = reference::play(cat, builds, ini, rounds, kernel.capacity());
    let mut rec = Rounds::default();
    let got = if in_kernel_class(builds) {
        kernel.run(cat, builds, ini, rounds, &mut rec)
    } else {
        kernel.general().run(cat, builds, ini, rounds, &mut rec)
    };
    assert_eq!(rec.0, want.rounds, "rounds differ");
    assert_eq!(got, want.outcome, "outcomes differ");
    want
}

fn general(cat: &Catalogue) -> bool {
    let held = [Held {
        power: 0,
        strength: 5,
    }];
    let l = Loadout::compile(cat, 0, &held, &default_order(cat, &held)).unwrap();
    !in_kernel_class(&[l])
}

#[test]
fn an_effect_if_reading_damage_taken_is_played_by_the_general_path() {
    let cat = one_power(
        "[[power.clause]]\nwhen = \"round_end\"\neffects = [{ add_energy = 7, if = \"damage_taken >= 10\" }]\n",
    );
    assert!(general(&cat));
    assert!(plays_as_the_reference(&cat) > 50);
}

#[test]
fn an_effect_if_reading_attackers_last_round_keeps_the_memory() {
    let cat = one_power(
        "[[power.clause]]\nwhen = \"round_start\"\neffects = [{ add_defence = 20, if = \"attackers_last_round >= 2\" }]\n",
    );
    assert!(cat.remembers);
    assert!(general(&cat));
    assert!(plays_as_the_reference(&cat) > 20);
}

#[test]
fn an_effect_if_reading_the_target_on_self_is_played_by_the_general_path() {
    let cat = one_power(
        "[[power.clause]]\nwhen = \"round_start\"\neffects = [{ add_defence = 15, if = \"target.energy < 60\" }]\n",
    );
    assert!(general(&cat));
    assert!(plays_as_the_reference(&cat) > 50);
}

#[test]
// Issue 81: the fast path counts each class's attack hits, so a clause reading
// `hits_taken_last_round` (Kinetic Absorption) plays there, and as the reference plays it.
fn a_spend_reading_hits_taken_last_round_is_played_by_the_fast_path_as_the_reference() {
    let cat = one_power(
        "[[power.clause]]\nwhen = \"use\"\ncost = { spend = \"60 - 20 * hits_taken_last_round\" }\neffects = [{ add_defence = 40 }]\n",
    );
    assert!(!general(&cat));
    assert!(plays_as_the_reference(&cat) > 50);
}

#[test]
fn a_summon_whose_energy_reads_attackers_last_round_keeps_the_memory() {
    let cat = one_power(
        "[[power.clause]]\nwhen = \"round_start\"\nlimit = \"once_per_game\"\neffects = [{ summon = \"Guard\", energy = \"10 + 20 * attackers_last_round\", attack = 5 }]\n",
    );
    assert!(cat.remembers);
    assert!(plays_as_the_reference(&cat) > 50);
}

// AR-9: while a plan is made, `powers_used` is last round's count (0 in round 1) on every path.
#[test]
fn a_spend_reading_powers_used_reads_last_rounds_count_on_every_path() {
    let cat = one_power(
        "[[power.clause]]\nwhen = \"use\"\ncost = { spend = \"30 - 25 * powers_used\" }\neffects = [{ add_defence = 30 }]\n",
    );
    assert!(
        !general(&cat),
        "powers_used is one of the fast path's quantities"
    );
    assert!(plays_as_the_reference(&cat) > 50);
}

// AR-23: `max(min(x, a), b)` is `max(b, min(x, a))` whatever the order of the clamps, printed
// back as the same value, and never a panic when b > a.
#[test]
fn nested_clamps_keep_their_meaning_and_print_back_the_same_value() {
    let cases = [
        ("max(min(energy, 5), 10)", [10, 10, 10]),
        ("min(max(energy, 10), 5)", [5, 5, 5]),
        ("max(min(energy, 50), 10)", [10, 30, 50]),
        ("min(max(energy, 10), 50)", [10, 30, 50]),
        ("max(max(energy, 10), 20)", [20, 30, 80]),
        ("min(min(energy, 50), 20)", [0, 20, 20]),
    ];
    for (text, want) in cases {
        let names = Names { counters: &[] };
        let e = parse_expr(text, &names).unwrap();
        let printed = e.show(&|_| "X".into());
        let again = parse_expr(&printed, &names).unwrap();
        for (energy, w) in [0, 30, 80].into_iter().zip(want) {
            assert_eq!(e.eval(|_| energy), w, "{text} at {energy}");
            assert_eq!(
                again.eval(|_| energy),
                w,
                "{printed} (from {text}) at {energy}"
            );
        }
    }
    let cat = one_power(
        "[[power.clause]]\nwhen = \"round_start\"\neffects = [{ add_defence = \"max(min(energy, 5), 10)\" }]\n",
    );
    assert!(plays_as_the_reference(&cat) > 50);
}

// AR-36: a plain summon joins its maker's side. A hostile Militia (AR-42) that recruits used to
// put its 5000-Energy Recruit on the team it attacks, which then outlasted the real opponent.
#[test]
fn a_hostile_summons_recruit_is_hostile_too_ar_36() {
    let text = r#"
[[power]]
name = "Call Militia"
source = "issue 49"
text = "x"
[[power.clause]]
when = "battle_start"
effects = [{ summon = "Militia", energy = 30, attack = 5, powers = ["Recruiter"], hostile = true }]

[[power]]
name = "Recruiter"
source = "issue 49"
text = "x"
helper = true
[[power.clause]]
when = "round_start"
limit = "once_per_game"
effects = [{ summon = "Recruit", energy = 5000 }]
"#;
    let cat = Catalogue::new(parse(text, "militia.toml").unwrap());
    let held = [Held {
        power: 0,
        strength: 0,
    }];
    let caller = Loadout::compile(&cat, -40, &held, &default_order(&cat, &held)).unwrap();
    let plain = Loadout::compile(&cat, 40, &[], &default_order(&cat, &[])).unwrap();
    let builds = [caller, plain];
    let ini = [0.9, 0.1];
    let want = agree(&mut DataKernel::new(64), &cat, &builds, &ini, 30);
    // The caller (60 Energy, beaten by the Militia and the plain hero) falls early; its team has
    // no hero left, so the plain hero's team wins: the Recruit is the Militia's side, not a team.
    assert_eq!(want.outcome.winner, Some(1), "{:?}", want.outcome);
    assert!(want.outcome.rounds < 30, "{:?}", want.outcome);
}

// AR-24: a negative Spend used to enlarge the round's budget, so a hero with 10 Energy planned
// a 30-Spend power after it; now a Spend or Burn below 0 costs 0.
#[test]
fn a_negative_spend_or_burn_costs_nothing_ar_24() {
    let text = r#"
[[power]]
name = "Refund"
source = "issue 49"
text = "x"
[[power.clause]]
when = "use"
cost = { spend = -50, burn = -20 }
effects = [{ add_defence = 1 }]

[[power]]
name = "Wall"
source = "issue 49"
text = "x"
[[power.clause]]
when = "use"
cost = { spend = 30 }
effects = [{ add_energy = 100 }]
"#;
    let cat = Catalogue::new(parse(text, "refund.toml").unwrap());
    let held = [
        Held {
            power: 0,
            strength: 0,
        },
        Held {
            power: 1,
            strength: 0,
        },
    ];
    // Coins -90: 10 Energy (AR-2), the attack's 10 fits and the Wall's 30 does not, so the
    // holder ends round 1 with at most its 10 (the Wall would make it 110).
    let holder = Loadout::compile(&cat, -90, &held, &default_order(&cat, &held)).unwrap();
    let plain = Loadout::compile(&cat, -27, &[], &default_order(&cat, &[])).unwrap();
    let builds = [holder, plain];
    let ini = [0.9, 0.1];
    let want = agree(&mut DataKernel::new(64), &cat, &builds, &ini, 1);
    assert!(
        want.rounds[0].iter().any(|&(id, e)| id == 0 && e <= 10),
        "the Wall was planned on a refunded budget: {:?}",
        want.rounds
    );
}

// Found by the grammar differential: a watched (hooked) powerless battle compacts its table
// after deaths, and each row's hit stayed where the row was, so the fast path dealt the dead
// heroes' damage. Unwatched runs (`simulate`) never compact powerless rows and were right.
#[test]
fn a_watched_powerless_battle_keeps_each_heroes_hit_after_deaths() {
    let cat =
        one_power("[[power.clause]]\nwhen = \"round_start\"\neffects = [{ add_energy = 1 }]\n");
    let builds: Vec<Loadout> = [31, -7, 15, 51]
        .iter()
        .map(|&c| Loadout::compile(&cat, c, &[], &default_order(&cat, &[])).unwrap())
        .collect();
    let ini = [0.5; 4];
    let want = agree(&mut DataKernel::new(64), &cat, &builds, &ini, 8);
    // Round 3: hero 3 (27 a hit) leaves hero 0 with 33 - 27 = 6.
    assert!(want.rounds[2].contains(&(0, 6)), "{:?}", want.rounds);
}

// Found by the grammar differential's long run: the fast path's per-team deaths of a round were
// reset only as a round of a battle with powers began, so a battle-start clause reading
// `eliminated_this_round` on a reused kernel saw the last battle's deaths (wrapped to -1).
#[test]
fn a_reused_kernel_starts_each_battle_with_no_eliminations() {
    let cat = one_power(
        "[[power.clause]]\nwhen = \"battle_start\"\neffects = [{ add_energy = \"2 * eliminated_this_round + 30\" }]\n",
    );
    let plain = |c| Loadout::compile(&cat, c, &[], &default_order(&cat, &[])).unwrap();
    let held = [Held {
        power: 0,
        strength: 0,
    }];
    let holder = Loadout::compile(&cat, 8, &held, &default_order(&cat, &held)).unwrap();
    let mut kernel = DataKernel::new(64);
    // A powerless battle with deaths first, on the same kernel.
    kernel.run(
        &cat,
        &[plain(40), plain(-60), plain(-70)],
        &[0.9, 0.5, 0.1],
        30,
        &mut Rounds::default(),
    );
    let builds = [plain(48), holder];
    let ini = [0.651, 0.322];
    agree(&mut kernel, &cat, &builds, &ini, 30);
}

// Found by the grammar differential's long run: at the battle start (round 0) the reference
// counted a hero whose Energy had just reached 0 in `eliminated_this_round` before its
// elimination was resolved (its "died in round" read 0 before it died), so a `dealt_damage`
// copy made on the killing hit differed from the general path's.
#[test]
fn an_elimination_at_the_battle_start_counts_once_it_is_resolved() {
    let text = r#"
[[power]]
name = "P0"
source = "issue 49"
text = "x"
[[power.clause]]
when = "dealt_damage"
effects = [{ copy_self = "eliminated_this_round" }]
[[power]]
name = "P1"
source = "issue 49"
text = "x"
[[power.clause]]
when = "battle_start"
target = "anyone_least_energy"
effects = [{ damage = 48 }]
"#;
    let cat = Catalogue::new(parse(text, "start.toml").unwrap());
    let builds = [
        common::hero(&cat, -4, &[], None),
        common::hero(&cat, 55, &["P1"], None),
        common::hero(&cat, 38, &["P0", "P1"], None),
    ];
    // Initiative by seat (0.9, 0.8, 0.7); `play_within` holds the general path to the reference.
    let want = common::play_within(&cat, &builds, 2, 64);
    // The second hit eliminates hero 0 (96 - 48 - 48); the killer's copy reads 0 eliminated
    // while that elimination is being resolved, so no copy is made at the battle start.
    assert!(
        want.births.iter().all(|b| b.round > 0 || b.parent != 2),
        "{:?}",
        want.births
    );
}

// AR-26 (issue 49): "5 damage to every opponent with more than 50 Energy" is writable: an
// effect's `if` under a many-hero target reads each hero it acts on in turn.
#[test]
fn an_effect_if_under_a_many_hero_target_reads_each_target() {
    let file = |cond: &str| {
        one_power(&format!(
            "[[power.clause]]\nwhen = \"battle_start\"\ntarget = \"all_opponents\"\neffects = [{{ lose_energy = 5{cond} }}]\n"
        ))
    };
    let after = |cat: &Catalogue| {
        let builds = [
            common::hero(cat, 0, &["P"], None),
            common::hero(cat, 0, &[], None),
            common::hero(cat, -60, &[], None),
        ];
        common::play_within(cat, &builds, 1, 64).rounds[0].clone()
    };
    let every = after(&file(""));
    let rich = after(&file(", if = \"target.energy > 50\""));
    let energy = |r: &[(u32, i32)], id| r.iter().find(|h| h.0 == id).map(|h| h.1);
    // The 100-Energy opponent loses the 5 either way; the 40-Energy one only without the `if`.
    assert_eq!(energy(&every, 1), energy(&rich, 1));
    assert_eq!(energy(&every, 2).map(|e| e + 5), energy(&rich, 2));
    // Sent elsewhere with `to`, the effect reads the clause's target: several heroes, refused.
    let text = "[[power]]\nname = \"P\"\nsource = \"x\"\ntext = \"x\"\n[[power.clause]]\nwhen = \"battle_start\"\ntarget = \"all_opponents\"\neffects = [{ add_energy = \"target.energy / 10\", to = \"self\" }]\n";
    let err = parse(text, "to.toml").unwrap_err().to_string();
    assert!(err.contains("several heroes"), "{err}");
}

// Found by the grammar differential's long run: an effect on many heroes went on acting after a
// reaction to an earlier target eliminated its holder, and on heroes that had left, bringing
// them back (the reference and the general path each did it their own way). A hero that left
// is acted on no more, and a holder that left acts no more (AR-27).
#[test]
fn an_effect_stops_at_heroes_that_left_while_it_was_under_way() {
    let text = r#"
[[power]]
name = "Reset"
source = "issue 49"
text = "x"
[[power.clause]]
when = "battle_start"
effects = [{ set_energy = "eliminated_this_round - 3", to = "everyone" }]
[[power.clause]]
when = "opponent_eliminated"
effects = [{ eliminate = true }]
"#;
    let cat = Catalogue::new(parse(text, "reset.toml").unwrap());
    let builds = [
        common::hero(&cat, 27, &["Reset"], None),
        common::hero(&cat, -5, &[], None),
        common::hero(&cat, 52, &[], None),
        common::hero(&cat, 25, &["Reset"], None),
        common::hero(&cat, 8, &["Reset"], None),
    ];
    let r = common::play_within(&cat, &builds, 8, 64);
    // Hero 0's reset eliminates hero 1; every holder leaves in reaction, hero 0 included, so its
    // reset stops there: hero 2 is untouched and wins without a round played.
    assert_eq!(r.outcome.winner, Some(2), "{:?}", r.outcome);
    assert_eq!(r.outcome.rounds, 0);
}

// Issue 49: a power with no clause, and a clause with no effect, are accepted as such: the first
// plays as no power at all, the second fires and pays its cost (a triggered Burn here).
#[test]
fn a_power_or_clause_that_does_nothing_is_accepted_as_such() {
    let text = r#"
[[power]]
name = "Bluff"
source = "issue 49"
text = "Nothing at all."

[[power]]
name = "Tithe"
source = "issue 49"
text = "Lose 5 Energy at the start of each round."
[[power.clause]]
when = "round_start"
cost = { burn = 5 }
"#;
    let defs = parse(text, "nothing.toml").unwrap();
    assert!(defs[0].describe().contains("does nothing in a battle"));
    assert!(
        defs[1]
            .describe()
            .contains("nothing more (the clause has no effect)")
    );
    let cat = Catalogue::new(defs);
    let plain = |c| common::hero(&cat, c, &[], None);
    let ini = [0.9, 0.1];
    let bluff = agree(
        &mut DataKernel::new(64),
        &cat,
        &[common::hero(&cat, 0, &["Bluff"], None), plain(0)],
        &ini,
        30,
    );
    let none = agree(
        &mut DataKernel::new(64),
        &cat,
        &[plain(0), plain(0)],
        &ini,
        30,
    );
    assert_eq!(bluff.rounds, none.rounds);
    let tithe = agree(
        &mut DataKernel::new(64),
        &cat,
        &[common::hero(&cat, 0, &["Tithe"], None), plain(0)],
        &ini,
        1,
    );
    // 100 - 5 (the Burn) - 10 (the plain hero's hit).
    assert!(tithe.rounds[0].contains(&(0, 85)), "{:?}", tithe.rounds);
}

// AR-64: players, not their creations: a summon (or a copy) is not a player.
#[test]
fn players_alive_counts_the_heroes_that_entered_ar_64() {
    let text = r#"
[[power]]
name = "Census"
source = "issue 49"
text = "Raise an imp; each round, Energy becomes 1000 plus the players standing."
[[power.clause]]
when = "battle_start"
effects = [{ summon = "Imp", energy = 5 }, "copy_self"]
[[power.clause]]
when = "round_start"
effects = [{ set_energy = "1000 + players_alive" }]
"#;
    let cat = Catalogue::new(parse(text, "census.toml").unwrap());
    assert!(general(&cat), "the fast path does not keep players_alive");
    // The plain hero's attack hits for 0 (coins -30: 10 - 10).
    let builds = [
        common::hero(&cat, 0, &["Census"], None),
        common::hero(&cat, -30, &[], None),
    ];
    let r = agree(&mut DataKernel::new(64), &cat, &builds, &[0.9, 0.1], 1);
    // Two players (the holder and the plain hero); the Imp and the copy are not counted.
    assert!(r.rounds[0].contains(&(0, 1002)), "{:?}", r.rounds);
}

// AR-65: "while Focus is in your plan, your attack deals 10 more".
#[test]
fn planned_reads_this_rounds_plan_ar_65() {
    let text = r#"
[[power]]
name = "Focus"
source = "issue 49"
text = "Spend 95: +10 Defence; while Focus is in your plan, your attack deals 10 more."
[[power.clause]]
when = "use"
cost = { spend = 95 }
effects = [{ add_defence = 10 }]
[[power.clause]]
when = "passive"
effects = [{ attack_bonus = "10 * planned" }]
"#;
    let cat = Catalogue::new(parse(text, "focus.toml").unwrap());
    assert!(general(&cat), "the fast path does not keep planned");
    // The target (coins -30) hits for 0 and starts with 70 Energy.
    let dealt = |coins: i32| {
        let builds = [
            common::hero(&cat, coins, &["Focus"], None),
            common::hero(&cat, -30, &[], None),
        ];
        let r = agree(&mut DataKernel::new(64), &cat, &builds, &[0.9, 0.1], 1);
        70 - r.rounds[0].iter().find(|h| h.0 == 1).unwrap().1
    };
    // 110 Energy (coins 10): the attack (10) and Focus (95) fit; it hits for 14 + 10.
    assert_eq!(dealt(10), 24);
    // 100 Energy: Focus no longer fits after the attack; no bonus, 10 a hit.
    assert_eq!(dealt(0), 10);
}

// AR-66: "at the end of the round, each hero that attacked you loses 5 Energy".
#[test]
fn attackers_this_round_are_the_heroes_that_hit_so_far_ar_66() {
    let file = |target: &str| {
        one_power(&format!(
            "[[power.clause]]\nwhen = \"round_end\"\ntarget = \"{target}\"\neffects = [{{ lose_energy = 5 }}]\n"
        ))
    };
    let after = |cat: &Catalogue| {
        // The holder (100 Energy, hits for 10), an attacker that hits for 0 (70 Energy), and a
        // hero of 5 Energy that cannot pay for its attack.
        let builds = [
            common::hero(cat, 0, &["P"], None),
            common::hero(cat, -30, &[], None),
            common::hero(cat, -95, &[], None),
        ];
        agree(&mut DataKernel::new(64), cat, &builds, &[0.9, 0.5, 0.1], 1).rounds[0].clone()
    };
    let now = after(&file("attackers_this_round"));
    let last = after(&file("attackers_last_round"));
    assert!(file("attackers_this_round").remembers);
    // The attacker: 70 - 10 (the holder's hit) - 5; last round's attackers are nobody in round 1.
    assert!(now.contains(&(1, 55)), "{now:?}");
    assert!(last.contains(&(1, 60)), "{last:?}");
}

// The reference plays what `simulate` plays, in seconds: replication pushed onto an opponent by
// `give` fills the table with thousands of heroes hitting thousands (about 4 M hits a round at
// the default capacity), which the reference once took minutes a round to play (issue 49).
#[test]
fn give_pushed_replication_fills_the_table_and_both_paths_agree() {
    let text = r#"
[[power]]
name = "Spores"
source = "issue 49"
text = "Whoever hits you buds every round; you bud too; a wall of Defence each round."
[[power.clause]]
when = "attacked"
target = "other"
effects = [{ give = "Budding" }]
[[power.clause]]
when = "round_end"
effects = ["copy_self"]
[[power.clause]]
when = "round_start"
effects = [{ add_defence = 100000 }]
[[power]]
name = "Budding"
source = "issue 49"
text = "Split at the end of every round, behind a wall of Defence."
helper = true
[[power.clause]]
when = "round_end"
effects = ["copy_self"]
[[power.clause]]
when = "round_start"
effects = [{ add_defence = 100000 }]
"#;
    let cat = Catalogue::new(parse(text, "spores.toml").unwrap());
    let builds = [
        common::hero(&cat, 30, &["Spores"], None),
        common::hero(&cat, 30, &[], None),
    ];
    let r = agree(&mut DataKernel::new(1024), &cat, &builds, &[0.25, 0.75], 14);
    assert!(r.outcome.capped, "{:?}", r.outcome);
    assert!(
        r.rounds.iter().any(|alive| alive.len() >= 1000),
        "the table fills"
    );
    assert!(r.outcome.hits > 1_000_000, "{:?}", r.outcome);
}

/// Round 1's Energy of hero `id` in a battle `agree` checks on both paths.
fn energy_after(r: &reference::Replay, round: usize, id: u32) -> i32 {
    r.rounds[round]
        .iter()
        .find(|h| h.0 == id)
        .map_or(0, |h| h.1)
}

// AR-67, AR-70: "Stone Skin: you lose at most 15 Energy to hits each round"; with `from_start`
// the cap holds against battle-start hits too.
#[test]
fn a_cap_on_energy_lost_to_hits_holds_each_round_ar_67_and_from_the_start_ar_70() {
    let file = |from_start: bool| {
        let text = format!(
            r#"
[[power]]
name = "Stone Skin"
source = "issue 49"
text = "You lose at most 15 Energy to hits each round."
[[power.clause]]
when = "passive"
from_start = {from_start}
effects = [{{ round_loss_cap = 15 }}]
[[power]]
name = "Opening Volley"
source = "issue 49"
text = "As the battle starts, 40 damage to every opponent."
[[power.clause]]
when = "battle_start"
target = "all_opponents"
effects = [{{ damage = 40 }}]
[[power]]
name = "Ember"
source = "issue 49"
text = "At the end of each round, every opponent loses 4 Energy."
[[power.clause]]
when = "round_end"
target = "all_opponents"
effects = [{{ lose_energy = 4 }}]
"#
        );
        Catalogue::new(parse(&text, "stone.toml").unwrap())
    };
    let battle = |cat: &Catalogue, stone: bool, volley: bool| {
        // The holder (100 Energy, its attack hits for 10) against three heroes whose attacks
        // hit for 10; one opens with a volley, one burns.
        let held: &[&str] = if stone { &["Stone Skin"] } else { &[] };
        let builds = [
            common::hero(cat, 0, held, None),
            common::hero(cat, 0, if volley { &["Opening Volley"] } else { &[] }, None),
            common::hero(cat, 0, &["Ember"], None),
            common::hero(cat, 0, &[], None),
        ];
        let r = agree(
            &mut DataKernel::new(64),
            cat,
            &builds,
            &[0.1, 0.9, 0.8, 0.7],
            2,
        );
        energy_after(&r, 0, 0)
    };
    let plan_time = file(false);
    assert!(general(&plan_time), "the fast path does not play the cap");
    // No cap: three hits of 10 and a Burn of 4.
    assert_eq!(battle(&plan_time, false, false), 100 - 30 - 4);
    // The cap: 15 of the 30 hits, and the Burn, which is not a hit.
    assert_eq!(battle(&plan_time, true, false), 100 - 15 - 4);
    // Before the first plan there is no cap: the whole volley lands.
    assert_eq!(battle(&plan_time, true, true), 100 - 40 - 15 - 4);
    // `from_start`: the volley is capped at 15 too; round 1 has its own 15.
    assert_eq!(battle(&file(true), true, true), 100 - 15 - 15 - 4);
}

// AR-70: a damage multiplier in force from the battle's start ("Thick Hide from birth").
#[test]
fn a_passive_from_the_start_halves_a_battle_start_hit_ar_70() {
    let file = |from_start: bool| {
        let text = format!(
            r#"
[[power]]
name = "Thick Hide"
source = "issue 49"
text = "Take half damage, from the first moment."
[[power.clause]]
when = "passive"
from_start = {from_start}
effects = [{{ take_percent = 50 }}]
[[power]]
name = "Opening Volley"
source = "issue 49"
text = "As the battle starts, 40 damage to every opponent."
[[power.clause]]
when = "battle_start"
target = "all_opponents"
effects = [{{ damage = 40 }}]
"#
        );
        Catalogue::new(parse(&text, "hide.toml").unwrap())
    };
    let lost = |cat: &Catalogue| {
        // The volley's maker hits for 0 (coins -30), so only the volley and nothing else lands.
        let builds = [
            common::hero(cat, 0, &["Thick Hide"], None),
            common::hero(cat, -30, &["Opening Volley"], None),
        ];
        let r = agree(&mut DataKernel::new(64), cat, &builds, &[0.1, 0.9], 1);
        100 - energy_after(&r, 0, 0)
    };
    assert_eq!(lost(&file(false)), 40, "AR-59: before the first plan, 100%");
    assert_eq!(lost(&file(true)), 20);
    assert!(
        file(true).defs[0]
            .describe()
            .contains("from the battle's start"),
        "check says when it starts to count"
    );
}

// AR-68: "whoever hits you loses 3 Energy, once a round for each attacker".
#[test]
fn a_reaction_limited_per_hero_fires_once_a_round_for_each_other_hero_ar_68() {
    let file = |limit: &str| {
        let text = format!(
            r#"
[[power]]
name = "Spite"
source = "issue 49"
text = "Whoever hits you loses 3 Energy."
[[power.clause]]
when = "attacked"
target = "other"
{limit}
effects = [{{ lose_energy = 3 }}]
[[power]]
name = "Double Tap"
source = "issue 49"
text = "Spend 5: a second attack hit of 5 on every opponent."
[[power.clause]]
when = "use"
cost = {{ spend = 5 }}
target = "all_opponents"
effects = [{{ damage = 5, as_attack = true }}]
"#
        );
        Catalogue::new(parse(&text, "spite.toml").unwrap())
    };
    // Spite's holder hits for 0 (coins -30); A hits it twice a round, B once; A acts first.
    let energies = |cat: &Catalogue| {
        let builds = [
            common::hero(cat, -30, &["Spite"], None),
            common::hero(cat, 0, &["Double Tap"], None),
            common::hero(cat, 0, &[], None),
        ];
        let r = agree(&mut DataKernel::new(64), cat, &builds, &[0.1, 0.9, 0.5], 1);
        (energy_after(&r, 0, 1), energy_after(&r, 0, 2))
    };
    let per_hero = file("limit = \"once_per_hero_per_round\"");
    assert!(general(&per_hero));
    let (a, b) = energies(&per_hero);
    let (a_all, b_all) = energies(&file(""));
    let (a_once, b_once) = energies(&file("limit = \"once_per_round\""));
    assert_eq!(a_all, a - 3, "unlimited: A pays for both of its hits");
    assert_eq!(b_all, b);
    assert_eq!(a_once, a, "once per round: only the first attacker pays");
    assert_eq!(b_once, b + 3);
    // Refused where there is no other hero to count.
    let err = parse(
        "[[power]]\nname = \"X\"\nsource = \"s\"\ntext = \"t\"\n[[power.clause]]\nwhen = \"round_end\"\nlimit = \"once_per_hero_per_round\"\neffects = [{ add_energy = 1 }]\n",
        "x.toml",
    )
    .unwrap_err()
    .to_string();
    assert!(err.contains("once_per_round"), "{err}");
}

// AR-69: "Dispel: as the battle starts, the opponent with the most Energy loses Regrow for good".
#[test]
fn a_removed_power_acts_no_more_and_is_not_given_back_ar_69() {
    let text = r#"
[[power]]
name = "Dispel"
source = "issue 49"
text = "As the battle starts, every opponent loses Regrow."
[[power.clause]]
when = "battle_start"
target = "all_opponents"
effects = [{ remove_power = "Regrow" }]
[[power]]
name = "Dispel and Return"
source = "issue 49"
text = "As the battle starts, every opponent loses Regrow, then is handed it back."
[[power.clause]]
when = "battle_start"
target = "all_opponents"
effects = [{ remove_power = "Regrow" }, { give = "Regrow" }]
[[power]]
name = "Purge"
source = "issue 49"
text = "As the battle starts, every opponent loses every power it holds."
[[power.clause]]
when = "battle_start"
target = "all_opponents"
effects = [{ remove_power = "all" }]
[[power]]
name = "Regrow"
source = "issue 49"
text = "At the end of each round, gain 20 Energy."
[[power.clause]]
when = "round_end"
effects = [{ add_energy = 20 }]
[[power]]
name = "Shell"
source = "issue 49"
text = "Spend 10: +30 Defence."
[[power.clause]]
when = "use"
cost = { spend = 10 }
effects = [{ add_defence = 30 }]
"#;
    let cat = Catalogue::new(parse(text, "dispel.toml").unwrap());
    let regrown = |caster: &[&str]| {
        // The caster hits for 10; the target (coins 0) holds Regrow and Shell.
        let builds = [
            common::hero(&cat, 0, caster, None),
            common::hero(&cat, -30, &["Regrow", "Shell"], None),
        ];
        // The target acts first: Shell's Defence is up before the caster's hit.
        let r = agree(&mut DataKernel::new(64), &cat, &builds, &[0.1, 0.9], 1);
        energy_after(&r, 0, 1)
    };
    let plain = regrown(&[]);
    // Shell (planned, 30 Defence) absorbs the caster's hit of 10; Regrow adds 20.
    assert_eq!(plain, 70 + 20);
    assert_eq!(
        regrown(&["Dispel"]),
        70,
        "Regrow is gone; Shell still absorbs"
    );
    assert_eq!(
        regrown(&["Dispel and Return"]),
        70,
        "a removed power is not given back"
    );
    assert_eq!(regrown(&["Purge"]), 70 - 10, "no Shell either");
    assert!(cat.defs[2].describe().contains("every power"));
}

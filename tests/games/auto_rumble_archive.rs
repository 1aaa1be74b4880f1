//! One small battle per archive power (experiments/powers/archive.toml), numbers worked by hand.
//! Each battle is played by the data reference, by the general kernel, and, where the loadouts are
//! in its class, by the data kernel's fast path too (all must agree). Heroes enter in the order given, initiative falling
//! (0.9, 0.8, ...). A hero with 0 coins has 100 Energy and deals 10 per hit (AR-2).

use crate::common;

use common::{archive, hero, play_within, round};

use skirmish::games::auto_rumble::EndReason;
use skirmish::games::auto_rumble::powers::catalogue::{Catalogue, Loadout};
use skirmish::games::auto_rumble::reference::data::Replay;

fn play(cat: &Catalogue, builds: &[Loadout], max_rounds: u32) -> Replay {
    play_within(cat, builds, max_rounds, 4096)
}

#[test]
fn kinetic_absorption_gains_5_per_hit_taken_last_round() {
    let c = archive();
    let b = [
        hero(&c, 0, &["Kinetic Absorption"], None),
        hero(&c, 0, &[], None),
        hero(&c, 0, &[], None),
    ];
    let r = play(&c, &b, 2);
    assert_eq!(round(&r, 1), [(0, 80), (1, 80), (2, 80)]);
    // Round 2 starts with +5 x 2 hits: 90, then two hits: 70.
    assert_eq!(round(&r, 2), [(0, 70), (1, 60), (2, 60)]);
}

#[test]
fn jammer_locks_the_opponents_use_clauses_next_round() {
    let c = archive();
    // B acts first: Crystallize gives Defence 1 in round 1; A's Jammer stops it in round 2.
    let b = [hero(&c, 0, &[], None), hero(&c, 0, &["Jammer"], None)];
    let b = [hero(&c, 0, &["Crystallize"], None), b[1]];
    let r = play(&c, &b, 2);
    assert_eq!(round(&r, 1), [(0, 91), (1, 90)]);
    assert_eq!(
        round(&r, 2),
        [(0, 81), (1, 80)],
        "no Crystallize in round 2"
    );
}

#[test]
fn firestorm_burns_5_and_hits_every_opponent_for_5() {
    let c = archive();
    let b = [
        hero(&c, 0, &["Firestorm"], None),
        hero(&c, 0, &[], None),
        hero(&c, 0, &[], None),
    ];
    let r = play(&c, &b, 1);
    assert_eq!(round(&r, 1), [(0, 75), (1, 75), (2, 75)]);
}

#[test]
fn wrecking_spree_wins_at_the_twentieth_building() {
    let c = archive();
    // B (Giant Growth + Titanium Skin, coins -18: 164 Energy, 50 prevention, 4 damage) outlasts
    // 19 rounds of A's 10 damage; A (100 Energy, 4 lost a round) still has 24 >= 20 in round 20.
    let b = [
        hero(
            &c,
            0,
            &["Wrecking Spree"],
            Some(&["Wrecking Spree", "Attack"]),
        ),
        hero(&c, -18, &["Giant Growth", "Titanium Skin"], None),
    ];
    let r = play(&c, &b, 30);
    assert_eq!(r.outcome.end, EndReason::PowerWin);
    assert_eq!(r.outcome.winner, Some(0));
    assert_eq!(r.outcome.rounds, 20);
    assert_eq!(round(&r, 19), [(0, 24), (1, 164 + 50 - 190)]);
}

#[test]
fn piercing_blow_ignores_defence_on_the_opponent_with_most_energy() {
    let c = archive();
    let b = [
        hero(&c, 0, &["Piercing Blow"], None),
        hero(&c, 0, &["Cosmic Shield"], None),
    ];
    let r = play(&c, &b, 1);
    // B's 20 Defence takes A's attack (10 left); the blow's 20 goes to Energy; A burns 10.
    assert_eq!(round(&r, 1), [(0, 80), (1, 80)]);
}

#[test]
fn entangle_taxes_the_damaged_opponents_next_budget() {
    let c = archive();
    // B (coins -70: 30 Energy, no damage) acts first with Crystallize then Attack. Round 2:
    // 21 Energy less the tax of 10 leaves 11: Crystallize's 20 no longer fits, the walk stops.
    let b = [
        hero(&c, -70, &["Crystallize"], Some(&["Crystallize", "Attack"])),
        hero(&c, 0, &["Entangle"], None),
    ];
    let r = play(&c, &b, 2);
    assert_eq!(round(&r, 1), [(0, 21), (1, 100)]);
    assert_eq!(round(&r, 2), [(0, 11), (1, 100)], "without the tax: 13");
}

#[test]
fn tail_attack_adds_10_to_the_first_hit_only() {
    let c = archive();
    let b = [
        hero(&c, 0, &["Tail Attack"], None),
        hero(&c, 0, &[], None),
        hero(&c, 0, &[], None),
    ];
    let r = play(&c, &b, 1);
    assert_eq!(round(&r, 1), [(0, 80), (1, 70), (2, 80)]);
}

#[test]
fn giant_growth_doubles_starting_energy() {
    let c = archive();
    let b = [hero(&c, 0, &["Giant Growth"], None), hero(&c, 0, &[], None)];
    let r = play(&c, &b, 1);
    assert_eq!(round(&r, 1), [(0, 190), (1, 90)]);
}

#[test]
fn lich_comes_back_once_with_50_energy() {
    let c = archive();
    // B (coins 200: 300 Energy, 77 damage) acts first.
    let b = [hero(&c, 200, &[], None), hero(&c, 0, &["Lich"], None)];
    let r = play(&c, &b, 30);
    assert_eq!(round(&r, 1), [(0, 290), (1, 23)]);
    assert_eq!(
        round(&r, 2),
        [(0, 280), (1, 50)],
        "revived, it still attacks"
    );
    assert_eq!(r.outcome.winner, Some(0));
    assert_eq!(r.outcome.rounds, 3, "the second death is final");
}

#[test]
fn really_big_guns_add_50_per_hit() {
    let c = archive();
    let b = [
        hero(&c, 0, &["Really Big Guns"], None),
        hero(&c, 0, &[], None),
    ];
    assert_eq!(round(&play(&c, &b, 1), 1), [(0, 90), (1, 40)]);
}

#[test]
fn bullet_time_prevents_every_second_hit_starting_with_the_first() {
    let c = archive();
    let b = [
        hero(&c, 0, &["Bullet Time"], Some(&["Bullet Time", "Attack"])),
        hero(&c, 0, &[], None),
        hero(&c, 0, &[], None),
    ];
    let r = play(&c, &b, 1);
    // B's hit on A (the first) is prevented, C's (the second) lands.
    assert_eq!(round(&r, 1), [(0, 90), (1, 80), (2, 80)]);
}

#[test]
fn vulture_gains_50_the_moment_an_opponent_leaves() {
    let c = archive();
    let b = [
        hero(&c, 0, &["Vulture"], None),
        hero(&c, 200, &[], None),
        hero(&c, -80, &[], None),
    ];
    let r = play(&c, &b, 1);
    // B hits A for 77 (23 left) and kills C: +50.
    assert_eq!(round(&r, 1), [(0, 73), (1, 290)]);
}

#[test]
fn energy_manipulation_adds_35_per_hit() {
    let c = archive();
    let b = [
        hero(&c, 0, &["Energy Manipulation"], None),
        hero(&c, 0, &[], None),
    ];
    assert_eq!(round(&play(&c, &b, 1), 1), [(0, 90), (1, 55)]);
}

#[test]
fn curses_double_hits_on_the_opponent_with_most_energy() {
    let c = archive();
    let b = [
        hero(&c, 0, &["Curses"], None),
        hero(&c, 10, &[], None),
        hero(&c, 0, &[], None),
    ];
    let r = play(&c, &b, 1);
    // B (110 Energy) is cursed: A's and C's hits deal 20 each.
    assert_eq!(round(&r, 1), [(0, 76), (1, 70), (2, 76)]);
}

#[test]
fn futuresight_adds_11_defence() {
    let c = archive();
    let b = [hero(&c, 0, &["Futuresight"], None), hero(&c, 0, &[], None)];
    assert_eq!(round(&play(&c, &b, 1), 1), [(0, 100), (1, 90)]);
}

#[test]
fn drill_eliminates_the_opponent_with_most_energy_in_round_1() {
    let c = archive();
    let b = [
        hero(&c, 0, &["Drill That Pierces the Heavens"], None),
        hero(&c, 10, &[], None),
        hero(&c, 5, &[], None),
    ];
    let r = play(&c, &b, 2);
    // C (coins 5) deals 12.
    assert_eq!(round(&r, 1), [(0, 88), (2, 95)]);
    assert_eq!(round(&r, 2), [(0, 76), (2, 85)], "once per game");
}

#[test]
fn meltdown_burns_strength_at_least_10_and_opponents_half_rounded_down() {
    let c = archive();
    let b = [
        hero(&c, 0, &["Meltdown"], None),
        hero(&c, 0, &[], None),
        hero(&c, 0, &[], None),
    ];
    assert_eq!(round(&play(&c, &b, 1), 1), [(0, 70), (1, 75), (2, 75)]);
    let b = [
        hero(&c, 0, &["Meltdown=31"], None),
        hero(&c, 0, &[], None),
        hero(&c, 0, &[], None),
    ];
    // Burn 31; opponents lose 31 / 2 = 15 (rounded down).
    assert_eq!(round(&play(&c, &b, 1), 1), [(0, 49), (1, 65), (2, 65)]);
}

#[test]
fn microscopic_starts_at_1_behind_100_defence() {
    let c = archive();
    let b = [hero(&c, 0, &["Microscopic"], None), hero(&c, 0, &[], None)];
    let r = play(&c, &b, 30);
    assert_eq!(round(&r, 1), [(0, 1), (1, 100)]);
    // Three quiet rounds: the stalemate takes ceil(1/2) = 1 and A is out (AR-13).
    assert_eq!(r.outcome.rounds, 3);
    assert_eq!(r.outcome.winner, Some(1));
    assert_eq!(round(&r, 3), [(1, 50)]);
}

#[test]
fn superadaptation_loses_while_round_is_below_3() {
    let c = archive();
    let b = [
        hero(&c, 0, &["Superadaptation"], None),
        hero(&c, 0, &[], None),
    ];
    let r = play(&c, &b, 4);
    assert_eq!(round(&r, 1), [(0, 76), (1, 90)]);
    assert_eq!(round(&r, 2), [(0, 59), (1, 80)]);
    assert_eq!(round(&r, 3), [(0, 49), (1, 70)], "7 x 0");
    assert_eq!(round(&r, 4), [(0, 46), (1, 60)], "+7 then a hit");
}

#[test]
fn parasitic_strain_takes_the_opponents_defence() {
    let c = archive();
    let b = [
        hero(
            &c,
            0,
            &["Parasitic Strain"],
            Some(&["Parasitic Strain", "Attack"]),
        ),
        hero(&c, 0, &["Cosmic Shield"], None),
    ];
    let r = play(&c, &b, 1);
    // A gains B's 20 Defence, B drops to 0: A's hit lands whole, B's is absorbed.
    assert_eq!(round(&r, 1), [(0, 100), (1, 90)]);
}

#[test]
fn strong_punch_gives_5_defence_per_opponent() {
    let c = archive();
    let b = [
        hero(&c, 0, &["Strong Punch"], None),
        hero(&c, 0, &[], None),
        hero(&c, 0, &[], None),
    ];
    assert_eq!(round(&play(&c, &b, 1), 1), [(0, 90), (1, 80), (2, 80)]);
}

// AR-27: a reaction's own hit fires no reaction, so two reflecting powers cannot loop.
#[test]
fn reactions_do_not_trigger_reactions() {
    let text = r#"
[[power]]
name = "Thorns"
source = "test"
text = "Whenever an attack hits you, the attacker takes 5 damage."

[[power.clause]]
when = "attacked"
target = "other"
effects = [{ damage = 5 }]
"#;
    let c = Catalogue::new(skirmish::games::auto_rumble::powers::file::parse(text, "t").unwrap());
    let b = [
        hero(&c, 0, &["Thorns"], None),
        hero(&c, 0, &["Thorns"], None),
    ];
    let r = play(&c, &b, 1);
    // Each takes the other's 10 and one reflected 5: no reflection of the reflection.
    assert_eq!(round(&r, 1), [(0, 85), (1, 85)]);
}

// AR-36: a summon joins the holder's team right after it, with its own Energy and attack.
#[test]
fn worshippers_join_with_twice_the_other_powers_strength() {
    let c = archive();
    let b = [
        hero(&c, 0, &["Worshippers", "Really Big Guns=15"], None),
        hero(&c, 0, &[], None),
    ];
    let r = play(&c, &b, 30);
    // A (60 per hit) and the Worshippers (id 2, 30 Energy, 10 per hit) against B.
    assert_eq!(round(&r, 1), [(0, 90), (2, 20), (1, 30)]);
    assert_eq!(r.outcome.winner, Some(0));
    assert_eq!(r.outcome.rounds, 2);
}

#[test]
fn egg_clutch_hatches_a_50_energy_copy_every_third_round() {
    let c = archive();
    let b = [hero(&c, 0, &["Egg Clutch"], None), hero(&c, 0, &[], None)];
    let r = play(&c, &b, 3);
    // The clutch (id 2) never attacks; B's attack hits it too. Round 3 ends with a copy of A
    // (id 3) at 50 Energy, right after A.
    assert_eq!(round(&r, 2), [(0, 80), (2, 30), (1, 80)]);
    assert_eq!(round(&r, 3), [(0, 70), (3, 50), (2, 20), (1, 70)]);
}

#[test]
fn poxwalkers_bite_for_5_more_and_spread() {
    let c = archive();
    let b = [hero(&c, 0, &["Poxwalker"], None), hero(&c, 0, &[], None)];
    let r = play(&c, &b, 2);
    // Round 1: the Poxwalker (id 2) hits B for 10, the bite adds 5 and a 5-Energy Poxwalker
    // (id 3) joins after it.
    assert_eq!(round(&r, 1), [(0, 90), (2, 10), (3, 5), (1, 75)]);
    // Round 2: the 5-Energy Poxwalker cannot pay the attack's 10 (AR-3); the first bites again
    // (id 4 joins after the phase, so B's attack misses it) and B kills ids 2 and 3.
    assert_eq!(round(&r, 2), [(0, 80), (4, 5), (1, 50)]);
}

// AR-37: with two teams left, Crystallize's Spend 20 is paid as a Burn.
#[test]
fn excessive_lethality_burns_defence_spending_when_two_teams_remain() {
    let c = archive();
    let b = [
        hero(&c, 0, &["Excessive Lethality", "Crystallize"], None),
        hero(&c, 0, &[], None),
    ];
    let r = play(&c, &b, 1);
    // A burns 20 (80), gains 1 Defence; B's 10 takes 9: 71. Without the power: 91.
    assert_eq!(round(&r, 1), [(0, 71), (1, 90)]);
    let b3 = [b[0], b[1], hero(&c, 0, &[], None)];
    // Three teams: Spend as usual. A takes 10 - 1 and 10.
    assert_eq!(round(&play(&c, &b3, 1), 1), [(0, 81), (1, 80), (2, 80)]);
}

// AR-38: `attacked` sees the hit arriving; Flexible Armor takes 20 off the first one each round
// and, for a Burn of 5, sends half of that back.
#[test]
fn flexible_armor_reduces_the_first_hit_and_reflects_half() {
    let c = archive();
    // B (coins 60: 160 Energy, 30 per hit) acts first.
    let b = [
        hero(&c, 60, &[], None),
        hero(&c, 0, &["Flexible Armor"], None),
    ];
    let r = play(&c, &b, 2);
    // A: 30 - 20 = 10 lands, Burn 5: 85; B takes 10 back and A's 10: 140.
    assert_eq!(round(&r, 1), [(0, 140), (1, 85)]);
    assert_eq!(round(&r, 2), [(0, 120), (1, 70)]);
}

// AR-39: under Assassin's Game each hero attacks only the next opponent, wrapping round.
#[test]
fn assassins_game_makes_every_hero_attack_only_the_next_in_the_cycle() {
    let c = archive();
    let b = [
        hero(&c, 0, &["Assassin's Game"], None),
        hero(&c, 0, &[], None),
        hero(&c, 0, &[], None),
    ];
    let r = play(&c, &b, 1);
    // A hits B, B hits C, C hits A: 90 each (without the power: 80 each).
    assert_eq!(round(&r, 1), [(0, 90), (1, 90), (2, 90)]);
    // A killer inherits its victim's target: with C (coins -85: 15 Energy) killed by B in round 2,
    // B's next target is A.
    let b = [
        hero(&c, 0, &["Assassin's Game"], None),
        hero(&c, 0, &[], None),
        hero(&c, -85, &[], None),
    ];
    let r = play(&c, &b, 2);
    // Round 1: A hits B (90), B hits C (5), C (0 damage) hits A. Round 2: A hits B (80), B
    // kills C. Round 3 would have B hit A.
    assert_eq!(round(&r, 1), [(0, 100), (1, 90), (2, 5)]);
    assert_eq!(round(&r, 2), [(0, 100), (1, 80)]);
}

// AR-40: Sniper fires on odd rounds at the first opponent only, reloads on even rounds,
// multiplies what Defence lets through by 1.5 and kills an undefended target outright.
#[test]
fn sniper_executes_the_undefended_and_reloads_on_even_rounds() {
    let c = archive();
    let b = [
        hero(&c, 0, &["Sniper"], None),
        hero(&c, 0, &[], None),
        hero(&c, 0, &[], None),
    ];
    let r = play(&c, &b, 3);
    // Round 1: B (no Defence) is killed outright; C hits A. Round 2: reload, C hits A again.
    assert_eq!(round(&r, 1), [(0, 90), (2, 100)]);
    assert_eq!(round(&r, 2), [(0, 80), (2, 100)]);
    assert_eq!(r.outcome.winner, Some(0), "round 3: C is executed");
    assert_eq!(r.outcome.rounds, 3);
    // Against Defence: coins 60 (30 per hit) into Cosmic Shield's 20 leaves 10, x1.5 = 15.
    let b = [
        hero(&c, 60, &["Sniper"], None),
        hero(&c, 0, &["Cosmic Shield"], None),
    ];
    assert_eq!(round(&play(&c, &b, 1), 1), [(0, 150), (1, 85)]);
}

// AR-41: Aegis Boy's ward sits on the weakest opponent and feeds its holder what it absorbs.
#[test]
fn aegis_boy_wards_the_weakest_opponent_and_feeds_on_what_it_absorbs() {
    let c = archive();
    let b = [
        hero(&c, 0, &["Aegis Boy"], None),
        hero(&c, 0, &[], None),
        hero(&c, -10, &[], None),
    ];
    let r = play(&c, &b, 1);
    // C (90 Energy, 6 per hit) is warded: A's own hit on C feeds A (+10); B's hit lands whole.
    assert_eq!(round(&r, 1), [(0, 94), (1, 84), (2, 80)]);
}

// AR-42: City as a Weapon's Militia fights only its summoner's team and never wins.
#[test]
fn city_militia_attacks_only_its_summoner_until_killed() {
    let c = archive();
    let b = [
        hero(&c, 0, &["City as a Weapon"], None),
        hero(&c, 0, &[], None),
    ];
    let r = play(&c, &b, 2);
    // Round 1: A hits B and the Militia (id 2) for 10; the Militia hits A for 5; B hits only A.
    assert_eq!(round(&r, 1), [(0, 85), (2, 10), (1, 90)]);
    assert_eq!(round(&r, 2), [(0, 75), (1, 80)], "A's second hit kills it");
    // With strength 10, A's 20 kills the Militia before it acts.
    let b = [
        hero(&c, 0, &["City as a Weapon=10"], None),
        hero(&c, 0, &[], None),
    ];
    assert_eq!(round(&play(&c, &b, 1), 1), [(0, 90), (1, 80)]);
}

// AR-52: A's hit leaves B at 2 and the Poxwalker's bite (a reaction) finishes it. B is eliminated
// once, quietly: its Lich does not bring it back, C's Vulture sees nothing, C's Souleater counts
// it once (+30).
#[test]
fn a_reaction_that_finishes_a_hero_eliminates_it_once_and_quietly() {
    let c = archive();
    // B: coins -88, so 12 Energy and no damage (AR-2).
    let b = [
        hero(&c, 0, &["Pox"], None),
        hero(&c, -88, &["Lich"], None),
        hero(&c, 0, &["Souleater", "Vulture"], None),
    ];
    let r = play(&c, &b, 1);
    // A bites B (12 - 10 - 5) and C (100 - 10 - 5), a Poxwalker joining for each (ids 3, 4);
    // C hits A; Souleater: 85 + 30.
    assert_eq!(round(&r, 1), [(0, 90), (3, 5), (4, 5), (2, 115)]);
}

// AR-52, AR-15: B, killed by A's hit, keeps its place until its death is settled, so the
// Poxwalker the bite would summon in between does not fit a table of 2, and Lich's revive
// leaves exactly 2 heroes.
#[test]
fn a_hero_on_its_way_out_keeps_its_place_toward_capacity() {
    let c = archive();
    // B: coins -95, so 5 Energy (A's 10 kills it) and no damage.
    let b = [hero(&c, 0, &["Pox"], None), hero(&c, -95, &["Lich"], None)];
    let r = play_within(&c, &b, 1, 2);
    assert_eq!(round(&r, 1), [(0, 100), (1, 50)]);
    assert!(r.outcome.capped, "the summon did not fit (AR-15)");
    assert!(r.births.is_empty());
    // With room for 3 the Poxwalker joins after A.
    let r = play_within(&c, &b, 1, 3);
    assert_eq!(round(&r, 1), [(0, 100), (2, 5), (1, 50)]);
    assert!(!r.outcome.capped);
}

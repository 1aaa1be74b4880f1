//! One small battle per rule (docs/rules/auto-rumble.md), each played by the kernel and the
//! reference model, which must agree before the rule's own numbers are checked.

use skirmish::games::auto_rumble::reference::hand as reference;
use skirmish::games::auto_rumble::trace::hand::RoundRecorder;
use skirmish::games::auto_rumble::{
    EndReason, HeroSpec, Kernel, Lineup, Outcome, Power, UseItem, rules,
};

/// Plays `heroes` (base initiatives default to 0.9, 0.8, ... in roster order) through both models.
fn play(heroes: &[HeroSpec], max_rounds: u32, capacity: usize) -> (Outcome, Vec<Vec<(u32, i32)>>) {
    let heroes: Vec<HeroSpec> = heroes
        .iter()
        .enumerate()
        .map(|(i, h)| {
            let mut h = h.clone();
            h.base_initiative = h.base_initiative.or(Some(0.9 - i as f64 * 0.1));
            h
        })
        .collect();
    let lineup = Lineup::compile(&heroes).unwrap();
    let ini: Vec<f64> = heroes
        .iter()
        .map(|h| rules::initiative(h.coins, h.base_initiative.unwrap()))
        .collect();
    let mut rec = RoundRecorder::default();
    let got = Kernel::new(capacity).run(&lineup.builds, &ini, max_rounds, &mut rec);
    let want = reference::play(&heroes, &ini, max_rounds, capacity);
    assert_eq!(
        (got, &rec.rounds),
        (want.outcome, &want.rounds),
        "kernel and reference disagree"
    );
    (got, rec.rounds)
}

fn energy(round: &[(u32, i32)], id: u32) -> Option<i32> {
    round.iter().find(|r| r.0 == id).map(|r| r.1)
}

// AR-1: copies never hit their own team; the default attack hits every other team.
#[test]
fn ar1_attack_hits_every_other_team_never_a_team_mate() {
    let heroes = [
        HeroSpec::new("A", 0, &[Power::Amoeba]),
        HeroSpec::new("B", 0, &[]),
        HeroSpec::new("C", 0, &[]),
    ];
    let (_, r) = play(&heroes, 2, 64);
    // Round 1: A is hit by B and C (80), multiplies to 45 + copy. B and C each take 20.
    assert_eq!(r[0], vec![(0, 45), (3, 45), (1, 80), (2, 80)]);
    // Round 2: each A takes 20 (25); B and C take 10 from each A and 10 from each other (50).
    assert_eq!(energy(&r[1], 1), Some(50));
    assert_eq!(energy(&r[1], 0), Some(amoeba(25)));
}

fn amoeba(e: i32) -> i32 {
    rules::amoeba_energy(e)
}

// AR-4: defence left at the end of a round is lost.
#[test]
fn ar4_unused_defence_is_lost_at_the_end_of_the_round() {
    // A acts first and crystallizes after attacking, so its defence meets B's hit the same round.
    let a = HeroSpec::new("A", 0, &[Power::Crystallize]).with_base_initiative(0.9);
    let b = HeroSpec::new("B", 0, &[]).with_base_initiative(0.1);
    let (_, r) = play(&[a, b], 2, 8);
    // Round 1: A attacks B (90), crystallizes (+1); B hits A for 10, 1 absorbed: 91.
    assert_eq!(r[0], vec![(0, 91), (1, 90)]);
    // Round 2: defence restarts at 0; A's Crystallize now gives 2 (X doubled), so B's hit takes 8.
    assert_eq!(r[1], vec![(0, 83), (1, 80)]);
}

// AR-5: a hero killed before its turn takes no action; its end-of-round powers do not fire.
#[test]
fn ar5_dead_heroes_neither_act_nor_fire_end_of_round_powers() {
    let killer = HeroSpec::new("K", 300, &[]); // 110 damage per hit
    let victim = HeroSpec::new("V", 0, &[Power::Amoeba, Power::Souleater]);
    let (o, r) = play(&[killer, victim], 30, 8);
    assert_eq!(
        r[0],
        vec![(0, 400)],
        "V never hit back and never multiplied"
    );
    assert_eq!(o.winner, Some(0));
    assert_eq!(o.rounds, 1);
    assert_eq!(o.hits, 1);
}

// AR-6: equal initiative keeps roster (creation) order; a copy acts right after its original.
#[test]
fn ar6_equal_initiative_keeps_creation_order() {
    let a = HeroSpec::new("A", 0, &[]).with_base_initiative(0.5);
    let b = HeroSpec::new("B", 0, &[]).with_base_initiative(0.5);
    let c = HeroSpec::new("C", 0, &[]).with_base_initiative(0.7);
    let (_, r) = play(&[a, b, c], 1, 8);
    let order: Vec<u32> = r[0].iter().map(|x| x.0).collect();
    assert_eq!(order, vec![2, 0, 1]);
}

// AR-7: Cosmic Shield counts every hero alive at the start of the round, the holder included.
#[test]
fn ar7_cosmic_shield_counts_all_heroes_alive_at_round_start() {
    let s = HeroSpec::new("S", 0, &[Power::CosmicShield]);
    let others: Vec<HeroSpec> = (0..4)
        .map(|i| HeroSpec::new(&format!("O{i}"), 30, &[]))
        .collect();
    let mut heroes = vec![s];
    heroes.extend(others);
    let (_, r) = play(&heroes, 1, 16);
    // 5 alive: 50 defence against four hits of 20 (damage 10 + 30/3): loses 30.
    assert_eq!(energy(&r[0], 0), Some(70));
}

// AR-9: Big, Gnashy Claws add 20 only in a round whose plan uses nothing costed but the attack.
#[test]
fn ar9_claws_add_20_only_when_the_plan_uses_no_other_costed_power() {
    let claws_only = HeroSpec::new("C", 0, &[Power::BigGnashyClaws]);
    let (_, r) = play(&[claws_only, HeroSpec::new("T", 0, &[])], 1, 8);
    assert_eq!(energy(&r[0], 1), Some(70), "30 damage with the claws out");
    let with_crystal = HeroSpec::new("C", 0, &[Power::BigGnashyClaws, Power::Crystallize]);
    let (_, r) = play(&[with_crystal.clone(), HeroSpec::new("T", 0, &[])], 1, 8);
    assert_eq!(
        energy(&r[0], 1),
        Some(90),
        "Crystallize is in the plan: no bonus"
    );
    // Too poor for Crystallize after the attack (25 - 10 < 20): the plan is the attack alone.
    let poor = HeroSpec {
        coins: -75,
        ..with_crystal
    };
    let (_, r) = play(&[poor, HeroSpec::new("T", 0, &[])], 1, 8);
    assert_eq!(
        energy(&r[0], 1),
        Some(100 - rules::hit_damage(rules::attack_damage(-75), true))
    );
}

// AR-10: +30 per opponent eliminated this round, by anyone; copies of one team count each.
#[test]
fn ar10_souleater_counts_every_opponent_eliminated_by_anyone() {
    let eater = HeroSpec::new("E", 0, &[Power::Souleater]).with_base_initiative(0.1);
    let killer = HeroSpec::new("K", 200, &[]).with_base_initiative(0.9); // 77 damage, acts first
    let weak1 = HeroSpec::new("W1", -30, &[]);
    let weak2 = HeroSpec::new("W2", -30, &[]);
    let (_, r) = play(&[eater, killer, weak1, weak2], 1, 8);
    // E takes 77 from K (23); W1 and W2 die to K before acting; Souleater: +60 -> 83.
    assert_eq!(energy(&r[0], 0), Some(23 + 60));
}

// AR-11: held order matters. [Souleater, Amoeba] copies the gain; [Amoeba, Souleater] gives it to
// the original only, since the copy is born in the phase and does not act in it.
#[test]
fn ar11_copy_born_in_the_phase_does_not_act_in_it() {
    let killer = HeroSpec::new("K", 200, &[]).with_base_initiative(0.9);
    let weak = HeroSpec::new("W", -30, &[]);
    let first = HeroSpec::new("E", 0, &[Power::Souleater, Power::Amoeba]).with_base_initiative(0.1);
    let (_, r) = play(&[first, killer.clone(), weak.clone()], 1, 8);
    let e = amoeba(23 + 30);
    assert_eq!((energy(&r[0], 0), energy(&r[0], 3)), (Some(e), Some(e)));
    let second =
        HeroSpec::new("E", 0, &[Power::Amoeba, Power::Souleater]).with_base_initiative(0.1);
    let (_, r) = play(&[second, killer, weak], 1, 8);
    assert_eq!(
        (energy(&r[0], 0), energy(&r[0], 3)),
        (Some(amoeba(23) + 30), Some(amoeba(23)))
    );
}

// AR-11/AR-12: a copy inherits what is left of Titanium Skin.
#[test]
fn ar12_copies_inherit_the_remaining_titanium_skin() {
    let t = HeroSpec::new("T", 0, &[Power::TitaniumSkin, Power::Amoeba]);
    let hitter = HeroSpec::new("H", 60, &[]); // 30 damage
    let (_, r) = play(&[t, hitter], 2, 8);
    // H (initiative 60) acts first. Round 1: 30 prevented (20 left), T halves to 55 with a copy
    // (id 2). Round 2: H hits both for 30: 20 prevented, 10 taken -> 45 each, then both multiply.
    assert_eq!(r[0], [(1, 150), (0, 55), (2, 55)]);
    assert_eq!(energy(&r[1], 0), Some(amoeba(45)));
    assert_eq!(energy(&r[1], 2), Some(amoeba(45)));
}

// AR-13: three quiet rounds in a row, then every alive hero loses ceil(E/2); the count resets.
#[test]
fn ar13_stalemate_halves_everyone_after_three_quiet_rounds() {
    // Nobody can pay for an attack (9 Energy): every round is quiet.
    let a = HeroSpec::new("A", -91, &[]);
    let b = HeroSpec::new("B", -90, &[]);
    let (o, r) = play(&[a, b], 30, 8);
    let a_energy: Vec<Option<i32>> = r.iter().map(|x| energy(x, 0)).collect();
    assert_eq!(
        a_energy[..6],
        [Some(9), Some(9), Some(4), Some(4), Some(4), Some(2)]
    );
    assert_eq!(energy(&r[2], 1), Some(5));
    // 10 -> 5 -> 2 -> 1 -> 0 for B; A: 9 -> 4 -> 2 -> 1 -> 0: both die in round 12: a draw.
    assert_eq!((o.rounds, o.winner), (12, None));
}

// AR-13: Amoeba's halving counts as a loss only when it lowers Energy (10 -> 10 does not).
#[test]
fn ar13_amoeba_at_ten_energy_is_not_a_loss() {
    // Both attacks deal 0 (10 + ceil(-90/3) = -20, floored), so only Amoeba could lose Energy.
    let a = HeroSpec::new("A", -90, &[Power::Amoeba]).with_order(&[UseItem::Attack]);
    let b = HeroSpec::new("B", -89, &[]);
    let (_, r) = play(&[a, b], 3, 64);
    // A stays at 10 (10 -> ceil(5) + 5 = 10) while multiplying, so rounds 1-3 are quiet and the
    // stalemate hits at the end of round 3: every A 10 -> 5, B 11 -> 5.
    assert!(r[1].iter().filter(|x| x.0 != 1).all(|x| x.1 == 10));
    assert_eq!(
        r[2].iter().filter(|x| x.0 != 1).count(),
        8,
        "1 -> 2 -> 4 -> 8 As"
    );
    assert!(r[2].iter().all(|x| x.1 == 5));
}

// AR-14: after the round limit, most Energy wins, then higher initiative; a two-team tie draws.
#[test]
fn ar14_round_limit_most_energy_then_initiative_then_draw() {
    let rich = HeroSpec::new("R", 5, &[]).with_base_initiative(0.1);
    let poor = HeroSpec::new("P", 0, &[]).with_base_initiative(0.9);
    let (o, _) = play(&[poor.clone(), rich], 1, 8);
    assert_eq!((o.winner, o.end), (Some(1), EndReason::RoundLimit));
    // Equal Energy: higher initiative wins.
    let a = HeroSpec::new("A", 0, &[]).with_base_initiative(0.2);
    let b = HeroSpec::new("B", 0, &[]).with_base_initiative(0.7);
    let (o, _) = play(&[a.clone(), b], 1, 8);
    assert_eq!(o.winner, Some(1));
    // Equal Energy and initiative across teams: a draw.
    let c = HeroSpec::new("C", 0, &[]).with_base_initiative(0.2);
    let (o, _) = play(&[a, c], 1, 8);
    assert_eq!((o.winner, o.end), (None, EndReason::RoundLimit));
}

// AR-15: a copy that would not fit is not created, the original still halves, `capped` is set.
#[test]
fn ar15_copy_beyond_capacity_is_not_created_and_marks_capped() {
    let a = HeroSpec::new("A", 0, &[Power::Amoeba]);
    let b = HeroSpec::new("B", 0, &[]);
    let (o, r) = play(&[a, b], 2, 3);
    // Round 1: A 90 -> 50 with a copy (3 heroes). Round 2: no room: A halves, no copy.
    assert_eq!(r[0].len(), 3);
    assert_eq!(r[1].len(), 3);
    assert!(o.capped);
    let (o, _) = play(
        &[
            HeroSpec::new("A", 0, &[Power::Amoeba]),
            HeroSpec::new("B", 0, &[]),
        ],
        2,
        64,
    );
    assert!(!o.capped);
}

// AR-16: a hero starting at Energy <= 0 never enters; one team left means no rounds are played.
#[test]
fn ar16_hero_starting_dead_never_enters() {
    let (o, r) = play(
        &[HeroSpec::new("D", -100, &[]), HeroSpec::new("L", 0, &[])],
        30,
        8,
    );
    assert_eq!((o.winner, o.rounds), (Some(1), 0));
    assert!(r.is_empty());
    let (o, _) = play(
        &[HeroSpec::new("D", -100, &[]), HeroSpec::new("E", -150, &[])],
        30,
        8,
    );
    assert_eq!((o.winner, o.rounds), (None, 0));
}

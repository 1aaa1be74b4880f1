//! Loot Arena: a test per rule entry of `docs/rules/loot-arena.md` (LA-n), the rules' worked
//! example as a golden test, and the sampler held to the exact distribution.
//!
//! Many battles here use one-sided dice (`1d1+14` always rolls 15) so that every number is
//! known in advance and the rule under test is the only thing that moves.

use skirmish::games::loot_arena::analysis::odds;
use skirmish::games::loot_arena::draws::{self, Keyed, Scripted};
use skirmish::games::loot_arena::input;
use skirmish::games::loot_arena::kernel::battle::{Battle, Silent, Strike, strengths, strike};
use skirmish::games::loot_arena::policy::{Action, Policy, Set};
use skirmish::games::loot_arena::reference;
use skirmish::games::loot_arena::rules::{
    Class, Crit, CritStage, Dice, Rounding, Rules, SCALE, Stacking, TwoHealers,
};
use skirmish::games::loot_arena::state::{Catalogue, Fielded, Loadout, Outcome};

fn set(lines: &[&str]) -> Policy {
    let mut s = Set::EMPTY;
    s.len = lines.len() as u8;
    for (i, l) in lines.iter().enumerate() {
        s.actions[i] = Action::parse(l).unwrap();
    }
    Policy::Fixed(s)
}

/// Rules where every die is fixed and no strength applies: each test turns on what it needs.
fn flat() -> Rules {
    let mut r = Rules::default();
    for c in &mut r.classes {
        c.dice = Dice::parse("1d1+9").unwrap(); // always 10
    }
    r.beats = [[false; 4]; 4];
    // A Healer's partner boost still makes strengths: make them count for nothing.
    r.strong_deals = SCALE;
    r.strong_takes = SCALE;
    r.crit = Crit::Never;
    r.heal_dice = Dice::parse("1d1+19").unwrap(); // always 20
    r.support_dice = Dice::parse("1d1+3").unwrap(); // always 4
    r.evade_dice = Dice::parse("1d1").unwrap(); // always 1
    r
}

fn champ(class: Class, health: i32, max: i32, policy: Policy) -> Loadout {
    let mut l = Loadout::bare(class, health, policy);
    l.max = max;
    l
}

fn both(f: &Fielded, cat: &Catalogue, r: &Rules, seed: u64) -> Outcome {
    let a = Battle::new().play(f, cat, r, seed, &mut Silent);
    let b = reference::play(f, cat, r, seed);
    assert_eq!(a, b, "kernel and reference differ");
    a
}

fn no_items() -> Catalogue {
    Catalogue::new(Vec::new(), "none")
}

#[test]
fn la_1_champions_health_and_dice_are_the_seeds_and_a_rules_file_changes_them() {
    let r = Rules::default();
    let want = [(100, "2d10"), (85, "3d8"), (85, "4d5"), (80, "1d10")];
    for (c, (h, d)) in Class::ALL.iter().zip(want) {
        assert_eq!(r.class(*c).health, h);
        assert_eq!(r.class(*c).dice.to_string(), d);
    }
    let shipped = input::rules::parse("rules.toml", input::RULES).unwrap();
    assert_eq!(shipped, r, "the shipped rules file writes the defaults");
    let mage90 = input::rules::parse("x.toml", "[champion.mage]\nhealth = 90\n").unwrap();
    assert_eq!(mage90.class(Class::Mage).health, 90);
    assert_eq!(mage90.class(Class::Rogue).health, 85);
}

#[test]
fn la_3_strengths_follow_the_cycle_and_all_three_beat_the_healer() {
    let r = Rules::default();
    use Class::*;
    let s = strengths(&r, &[Gladiator, Rogue, Mage, Gladiator], &[true; 4]);
    assert!(s[0][2], "Gladiator beats Mage");
    assert!(s[2][1], "Mage beats Rogue");
    assert!(!s[2][0] && !s[0][3], "nothing else");
    let s = strengths(&r, &[Rogue, Mage, Gladiator, Mage], &[true; 4]);
    assert!(s[0][2], "Rogue beats Gladiator");
    assert!(s[3][0], "Mage beats Rogue");
    assert!(s[2][1], "Gladiator beats Mage");
}

#[test]
fn la_4_and_la_5_a_healer_boosts_its_partner_and_negates_the_opponents_strengths() {
    let r = Rules::default();
    use Class::*;
    // Side 0: Gladiator + Healer; side 1: Rogue + Mage.
    let s = strengths(&r, &[Gladiator, Healer, Rogue, Mage], &[true; 4]);
    assert!(s[0][2], "the Gladiator is now strong against the Rogue");
    assert!(s[0][3], "and still against the Mage");
    assert!(
        !s[2][0],
        "the Rogue's strength against the Gladiator is negated"
    );
    assert!(
        !s[2][1] && !s[3][1],
        "nobody is strong against the Healer any more"
    );
    assert!(!s[1][2], "the Healer itself gains nothing");
    // The factors: the Gladiator deals 1.25 to the Rogue and takes 1 from it.
    assert_eq!(r.strength(s[0][2], s[2][0]), 1_250_000_000);
    assert_eq!(r.strength(s[2][0], s[0][2]), 800_000_000);
    // A dead Healer is not in the fight (healer_effects = while_alive).
    let s = strengths(
        &r,
        &[Gladiator, Healer, Rogue, Mage],
        &[true, false, true, true],
    );
    assert!(s[2][0] && !s[0][2], "the plain cycle again");
}

#[test]
fn la_6_two_healers_cancel_and_the_reading_is_a_setting() {
    use Class::*;
    let mut r = Rules::default();
    let c = [Gladiator, Healer, Rogue, Healer];
    let s = strengths(&r, &c, &[true; 4]);
    assert!(
        s[2][0] && s[0][3] && s[2][1],
        "any two Healers cancel: the plain strengths"
    );
    r.two_healers = TwoHealers::Never;
    let s = strengths(&r, &c, &[true; 4]);
    assert!(
        !s[2][0] && !s[0][3],
        "both negate: nobody strong against the other side"
    );
    // Both Healers on one side: cancelled under `any`, active under `opposing`.
    let c = [Healer, Healer, Rogue, Mage];
    r.two_healers = TwoHealers::Any;
    assert!(strengths(&r, &c, &[true; 4])[2][0]);
    r.two_healers = TwoHealers::Opposing;
    let s = strengths(&r, &c, &[true; 4]);
    assert!(!s[2][0], "negated");
    assert!(
        s[0][2] && s[0][3],
        "a Healer partnered with a Healer is strong against fighters"
    );
}

#[test]
fn la_5_strong_deals_or_takes_and_never_both() {
    let r = Rules::default();
    assert_eq!(r.strength(true, false), 1_250_000_000);
    assert_eq!(r.strength(false, true), 800_000_000);
    // Never both on one attack, under any Healer reading: a side's Healer that makes its
    // partner strong (LA-4) negates the opponents' strengths against that side (LA-5).
    for two_healers in [TwoHealers::Any, TwoHealers::Opposing, TwoHealers::Never] {
        let r = Rules {
            two_healers,
            ..Rules::default()
        };
        // Every line-up of four classes, every champion present or fallen.
        for k in 0..256usize {
            let sides: [Class; 4] = std::array::from_fn(|i| Class::ALL[(k >> (2 * i)) & 3]);
            for alive in 0..16usize {
                let present: [bool; 4] = std::array::from_fn(|i| alive >> i & 1 == 1);
                let s = strengths(&r, &sides, &present);
                let both = (0..16).find(|&i| s[i / 4][i % 4] && s[i % 4][i / 4]);
                assert!(both.is_none(), "{sides:?}: {both:?} both strong");
            }
        }
    }
    // The setting that composed the two is gone, and a file naming it is told why.
    let e = skirmish::games::loot_arena::input::rules::parse(
        "r.toml",
        "strength_compose = \"additive\"\n",
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("`strength_compose`: no longer a setting"), "{e}");
}

fn strike_of(r: &Rules, base: &str, items: &[(&str, bool)], f: i64, armor: &str) -> Strike {
    let mut s = Strike {
        base: Dice::parse(base).unwrap(),
        f,
        items: [Dice::NONE; 4],
        affinity: [false; 4],
        support: 0,
        armor: if armor.is_empty() {
            Dice::NONE
        } else {
            Dice::parse(armor).unwrap()
        },
        evading: false,
    };
    for (i, (d, a)) in items.iter().enumerate() {
        s.items[i] = Dice::parse(d).unwrap();
        s.affinity[i] = *a;
    }
    let _ = r;
    s
}

fn scripted(
    s: &Strike,
    r: &Rules,
    rolls: &[u32],
) -> skirmish::games::loot_arena::kernel::battle::Struck {
    let mut src = Scripted {
        rolls: rolls.to_vec(),
        next: 0,
    };
    strike(s, r, &mut src, 0, 0, &mut ())
}

#[test]
fn la_7_affinity_adds_to_strength_so_a_gladiators_weapon_does_1_5x_to_a_mage() {
    let mut r = Rules::default();
    let f = r.strength(true, false);
    assert_eq!(
        r.item_factor(f, true),
        1_500_000_000,
        "the seed's footnote: 1.5x"
    );
    // Base [3, 4] = 7 at 1.25, the weapon's 8 at 1.5: 8.75 + 12 = 20.75 -> 21.
    let s = strike_of(&r, "2d10", &[("1d8", true)], f, "");
    let out = scripted(&s, &r, &[3, 4, 8]);
    assert_eq!(out.exact, 20_750_000_000);
    assert_eq!(out.damage, 21);
    r.affinity_stacking = Stacking::Multiplicative;
    assert_eq!(
        r.item_factor(f, true),
        1_562_500_000,
        "the reading the seed rejects"
    );
    assert_eq!(
        scripted(&s, &r, &[3, 4, 8]).damage,
        21,
        "8.75 + 12.5 = 21.25 -> 21"
    );
}

#[test]
fn la_21_the_rules_worked_example_from_its_stated_rolls() {
    // "Attack [4, 2, 1, 10] = 17, +1d8 Item [5] = 22, +1d8 Item [3] = 25, Opponent Defense 1d10
    // [9] = 16, Strength Boost [16x1.25] = 20": a Mage (4d5) on a Rogue, items of no stated
    // kind. Slip S-1: a d5 cannot show 10 (and on a d10 that 10 would be a crit, S-2); the
    // arithmetic is reproduced from the stated rolls, and no crit follows since no die shows 5.
    let r = Rules::default();
    let f = r.strength(
        r.beats[Class::Mage as usize][Class::Rogue as usize],
        r.beats[Class::Rogue as usize][Class::Mage as usize],
    );
    assert_eq!(f, 1_250_000_000, "the Mage is strong against the Rogue");
    let s = strike_of(&r, "4d5", &[("1d8", false), ("1d8", false)], f, "1d10");
    let out = scripted(&s, &r, &[4, 2, 1, 10, 5, 3, 9]);
    assert_eq!(out.base, 17);
    assert_eq!(out.items[..2], [5, 3]);
    assert_eq!(out.defence, 9);
    assert!(!out.crit);
    assert_eq!(out.exact, 20 * SCALE, "16 x 1.25");
    assert_eq!(out.damage, 20, "This would do 20 damage against a Rogue.");
}

#[test]
fn la_9_damage_is_rounded_once_half_up_and_never_below_zero() {
    let mut r = Rules::default();
    let s = strike_of(&r, "1d10", &[], 1_250_000_000, "1d10");
    // 2 x 1.25 = 2.5: a tie.
    assert_eq!(scripted(&s, &r, &[3, 1]).damage, 3);
    r.rounding = Rounding::HalfEven;
    assert_eq!(scripted(&s, &r, &[3, 1]).damage, 2);
    r.rounding = Rounding::Down;
    assert_eq!(scripted(&s, &r, &[3, 1]).damage, 2);
    // Defence above the attack: no damage, and no healing.
    assert_eq!(scripted(&s, &r, &[1, 9]).damage, 0);
}

#[test]
fn la_10_crit_readings_and_stages() {
    let mut r = Rules::default();
    let s = strike_of(&r, "4d5", &[("1d8", false)], SCALE, "1d4");
    // [5, 1, 1, 1] = 8, +4, -2 = 10.
    let rolls = [5, 1, 1, 1, 4, 2];
    let out = scripted(&s, &r, &rolls);
    assert!(out.crit, "any die at its top face");
    assert_eq!(out.damage, 20, "the final damage doubled");
    r.crit = Crit::EveryDie;
    assert!(!scripted(&s, &r, &rolls).crit);
    assert!(scripted(&s, &r, &[5, 5, 5, 5, 4, 2]).crit);
    r.crit = Crit::AnyDie;
    r.crit_stage = CritStage::Base;
    assert_eq!(scripted(&s, &r, &rolls).damage, 18, "8 x 2 + 4 - 2");
    // The crit chances of the rules' own table (docs/rules/notes/loot-arena.md).
    let r = Rules::default();
    for (class, any, every) in [
        (Class::Gladiator, 0.19, 0.01),
        (Class::Rogue, 0.330_078, 0.001_953),
        (Class::Mage, 0.5904, 0.0016),
        (Class::Healer, 0.1, 0.1),
    ] {
        let mut s = strike_of(&r, "1d1", &[], SCALE, "");
        s.base = r.class(class).dice;
        let a = odds::exact(&s, &r).unwrap().crit_chance();
        let mut r2 = r.clone();
        r2.crit = Crit::EveryDie;
        let e = odds::exact(&s, &r2).unwrap().crit_chance();
        assert!(
            (a - any).abs() < 1e-4 && (e - every).abs() < 1e-4,
            "{class:?}: {a} {e}"
        );
    }
}

#[test]
fn la_22_the_sampler_matches_the_exact_distribution() {
    let base = Rules::default();
    let mut checked = 0;
    for crit in [Crit::AnyDie, Crit::EveryDie] {
        let mut r = base.clone();
        r.crit = crit;
        for class in Class::ALL {
            for items in [vec![], vec![("1d8", true), ("1d6", false)]] {
                for (armor, evading) in [("", false), ("1d6+1", false), ("1d8", true)] {
                    let mut s = strike_of(&r, "1d1", &items, r.strength(true, false), armor);
                    s.base = r.class(class).dice;
                    s.evading = evading;
                    let exact = odds::exact(&s, &r).unwrap();
                    let n = 20_000u64;
                    let mut counts = std::collections::BTreeMap::<i64, u64>::new();
                    let (mut sum, mut crits) = (0i64, 0u64);
                    for k in 0..n {
                        let key = draws::key(0xD1CE ^ (k << 8) ^ checked);
                        let o = strike(&s, &r, &mut Keyed(key), 0, 0, &mut ());
                        *counts.entry(o.damage).or_insert(0) += 1;
                        sum += o.damage;
                        crits += o.crit as u64;
                    }
                    let mean = sum as f64 / n as f64;
                    let se = exact.sd() / (n as f64).sqrt();
                    assert!(
                        (mean - exact.mean()).abs() < 4.5 * se + 1e-9,
                        "{class:?} {crit:?} {items:?} {armor}: mean {mean} vs {}",
                        exact.mean()
                    );
                    let p = exact.crit_chance();
                    let cse = (p * (1.0 - p) / n as f64).sqrt();
                    assert!((crits as f64 / n as f64 - p).abs() < 4.5 * cse + 1e-9);
                    // The largest gap between the two distribution functions (Kolmogorov-
                    // Smirnov at 99.9%: 1.95 / sqrt(n); discrete laws only make it smaller).
                    let (mut fe, mut fs, mut worst) = (0.0f64, 0.0f64, 0.0f64);
                    for &(d, c) in &exact.damage {
                        fe += exact.p(c);
                        fs += *counts.get(&d).unwrap_or(&0) as f64 / n as f64;
                        worst = worst.max((fe - fs).abs());
                    }
                    assert!(worst < 1.95 / (n as f64).sqrt(), "{class:?}: KS {worst}");
                    let seen: u64 = exact
                        .damage
                        .iter()
                        .map(|&(d, _)| counts.get(&d).copied().unwrap_or(0))
                        .sum();
                    assert_eq!(
                        seen, n,
                        "the sampler made only damages the exact law allows"
                    );
                    checked += 1;
                }
            }
        }
    }
    assert_eq!(checked, 48);
}

#[test]
fn la_15_health_settles_at_the_end_of_the_round_from_its_totals() {
    // The seed: "if a Rogue with 10 health takes 15 damage, but is then healed for 20, they
    // will survive with 15 health". The Gladiator hits for 15, the Healer heals 20.
    let mut r = flat();
    r.classes[Class::Gladiator as usize].dice = Dice::parse("1d1+14").unwrap();
    let f = [
        champ(Class::Rogue, 10, 85, set(&["evade"])),
        champ(Class::Healer, 80, 80, set(&["heal partner"])),
        champ(Class::Gladiator, 100, 100, set(&["attack rogue"])),
        champ(Class::Mage, 85, 85, set(&["evade"])),
    ];
    r.evade_factor = 0;
    r.evade_dice = Dice::NONE;
    r.rounds_per_set = 1;
    let o = both(&f, &no_items(), &r, 1);
    assert_eq!(o.health[0], 15);
    assert_eq!(o.fell, [0; 4]);
    // Healing stops at max health unless overheal.
    let mut g = f;
    g[0].health = 80;
    g[2].policy = set(&["evade"]);
    assert_eq!(both(&g, &no_items(), &r, 1).health[0], 85);
    r.overheal = true;
    assert_eq!(both(&g, &no_items(), &r, 1).health[0], 100);
}

#[test]
fn la_15_a_champion_at_zero_falls_but_acts_in_the_round_it_falls() {
    let mut r = flat();
    r.rounds_per_set = 2;
    // Both Gladiators hit for 10; the Rogues have 10 health: both fall in round 1 and both hit.
    let f = [
        champ(Class::Gladiator, 100, 100, set(&["attack rogue"])),
        champ(Class::Rogue, 10, 85, set(&["attack gladiator"])),
        champ(Class::Gladiator, 100, 100, set(&["attack rogue"])),
        champ(Class::Rogue, 10, 85, set(&["attack gladiator"])),
    ];
    let o = both(&f, &no_items(), &r, 3);
    assert_eq!(o.fell, [0, 1, 0, 1]);
    assert_eq!(o.dealt[1], 10, "the falling Rogue's hit lands");
    assert_eq!(o.dealt[3], 10);
    assert_eq!(
        o.health[0], 80,
        "10 from the Rogue, then 10 from the Gladiator in round 2"
    );
    assert_eq!(o.rounds, 2);
}

#[test]
fn la_8_an_attack_hits_the_first_listed_class_an_opponent_has() {
    let r = flat();
    let f = [
        champ(
            Class::Gladiator,
            100,
            100,
            set(&["attack [Healer, Mage, Gladiator, Rogue]"]),
        ),
        champ(Class::Mage, 85, 85, set(&["evade"])),
        champ(Class::Rogue, 85, 85, set(&["evade"])),
        champ(Class::Mage, 85, 85, set(&["evade"])),
    ];
    let mut r1 = r.clone();
    r1.rounds_per_set = 1;
    r1.evade_factor = 0;
    r1.evade_dice = Dice::NONE;
    let o = both(&f, &no_items(), &r1, 5);
    assert_eq!((o.taken[2], o.taken[3]), (0, 10), "no Healer: the Mage");
}

#[test]
fn la_11_only_healers_heal_and_heal_items_count_with_affinity() {
    let mut r = flat();
    r.rounds_per_set = 1;
    let cat = Catalogue::new(
        vec![skirmish::games::loot_arena::state::Item {
            name: "Wand".into(),
            kind: skirmish::games::loot_arena::rules::Kind::Magical,
            tier: skirmish::games::loot_arena::rules::Tier::Rare,
            weight: None,
            dice: Dice::parse("1d1+3").unwrap(),
        }],
        "test",
    );
    let mut healer = champ(Class::Healer, 40, 80, set(&["heal self"]));
    healer.items[0] = 0;
    let f = [
        healer,
        champ(Class::Mage, 85, 85, set(&["evade"])),
        champ(Class::Rogue, 85, 85, set(&["evade"])),
        // A Gladiator's written heal is played as an attack (the file refuses it, LA-11).
        champ(Class::Gladiator, 100, 100, set(&["heal self"])),
    ];
    let o = both(&f, &cat, &r, 9);
    // 20 + 4 x 1.25 = 25.
    assert_eq!(o.healed[0], 25);
    assert_eq!(o.attacks[3], 1);
    let bad = "[[player]]\nname = \"a\"\n[[player.champion]]\nclass = \"gladiator\"\nset = [\"heal self\"]\n[[player.champion]]\nclass = \"mage\"\n[[player]]\nname = \"b\"\n[[player.champion]]\nclass = \"rogue\"\n[[player.champion]]\nclass = \"mage\"\n";
    let e = input::battle::parse("b.toml", bad, &Rules::default(), &input::items::builtin())
        .unwrap_err();
    assert!(e.to_string().contains("only Healers Heal"), "{e}");
}

#[test]
fn la_12_support_adds_its_dice_to_the_partners_attack_and_gladiators_cannot_support() {
    let mut r = flat();
    r.rounds_per_set = 1;
    let f = [
        champ(Class::Gladiator, 100, 100, set(&["attack rogue"])),
        champ(Class::Mage, 85, 85, set(&["support"])),
        champ(Class::Rogue, 85, 85, set(&["support"])),
        champ(Class::Gladiator, 100, 100, set(&["support"])),
    ];
    let o = both(&f, &no_items(), &r, 2);
    assert_eq!(o.taken[2], 14, "10 + a support of 4");
    // The Rogue supported a Gladiator whose written support became an attack of 10 + 4.
    assert_eq!(o.dealt[3], 14);
}

#[test]
fn la_13_an_evader_doubles_its_defence_and_adds_the_evade_dice() {
    let mut r = flat();
    r.rounds_per_set = 1;
    let cat = input::items::parse(
        "c.toml",
        "[[item]]\nname = \"Plate\"\nkind = \"defensive\"\nweight = \"heavy\"\ntier = \"common\"\ndice = \"1d1+2\"\n",
    )
    .unwrap();
    let mut target = champ(Class::Gladiator, 100, 100, set(&["evade"]));
    target.armor = 0;
    let f = [
        champ(Class::Rogue, 85, 85, set(&["attack gladiator"])),
        champ(Class::Mage, 85, 85, set(&["evade"])),
        target,
        champ(Class::Mage, 85, 85, set(&["evade"])),
    ];
    let o = both(&f, &cat, &r, 4);
    assert_eq!(o.taken[2], 3, "10 - (3 x 2 + 1)");
    let mut g = f;
    g[2].policy = set(&["support"]);
    assert_eq!(both(&g, &cat, &r, 4).taken[2], 7, "10 - 3 when not evading");
}

#[test]
fn la_16_a_battle_goes_to_the_side_left_standing_else_to_the_health_kept() {
    let mut r = flat();
    r.rounds_per_set = 4;
    let f = [
        champ(Class::Gladiator, 100, 100, set(&["attack"])),
        champ(Class::Rogue, 85, 85, set(&["attack"])),
        champ(Class::Gladiator, 15, 100, set(&["evade"])),
        champ(Class::Rogue, 15, 85, set(&["evade"])),
    ];
    let mut r0 = r.clone();
    r0.evade_factor = 0;
    r0.evade_dice = Dice::NONE;
    let o = both(&f, &no_items(), &r0, 8);
    assert_eq!(o.winner, Some(0));
    assert!(o.decisive);
    assert!(o.rounds <= 2, "the battle stops when a side falls");
    // Nobody falls: the larger share of health kept wins; `draw` makes it a draw.
    let mut g = f;
    g[2].health = 100;
    g[3].health = 85;
    g[0].policy = set(&["evade"]);
    let o = both(&g, &no_items(), &r0, 8);
    assert!(!o.decisive);
    assert_eq!(
        o.winner,
        Some(0),
        "side 0 kept all its health, side 1 lost 40"
    );
    r0.judge = skirmish::games::loot_arena::rules::Judge::Draw;
    assert_eq!(both(&g, &no_items(), &r0, 8).winner, None);
}

#[test]
fn la_30_a_battle_is_its_seed_and_an_added_item_moves_no_other_roll() {
    let cat = input::items::builtin();
    let r = Rules::default();
    // Health enough that nobody falls, so every champion acts in every round either way.
    let mut f = [
        champ(Class::Mage, 1000, 1000, Policy::parse("attack").unwrap()),
        champ(Class::Healer, 1000, 1000, Policy::parse("medic").unwrap()),
        champ(
            Class::Gladiator,
            1000,
            1000,
            Policy::parse("attack").unwrap(),
        ),
        champ(Class::Rogue, 1000, 1000, Policy::parse("attack").unwrap()),
    ];
    let a = both(&f, &cat, &r, 77);
    assert_eq!(a, both(&f, &cat, &r, 77));
    assert_ne!(a, both(&f, &cat, &r, 78));
    // Side 1's Gladiator gets a weapon: what the others deal and how often they crit is the same
    // (same targets, same rolls), while the Gladiator hits harder.
    f[2].items[0] = cat.find("Dragonbone Greatsword").unwrap();
    let b = both(&f, &cat, &r, 77);
    assert_eq!(a.crits, b.crits);
    assert!(b.dealt[2] > a.dealt[2]);
}

/// LA-7, the footnote's other reading (issue 53): with `affinity_scope = "attack"` a champion
/// carrying an affinity attack item takes its whole attack at strength + affinity (base, items
/// and defence alike); without one nothing changes; heal and support items keep their own.
#[test]
fn la_7_affinity_on_the_whole_attack_is_a_reading() {
    use skirmish::games::loot_arena::rules::AffinityScope;
    let r = Rules::default();
    let whole = Rules {
        affinity_scope: AffinityScope::Attack,
        ..Rules::default()
    };
    // A Gladiator's Physical weapon against a Mage: strength 1.25.
    let s = strike_of(&r, "2d10", &[("1d6", true)], 1_250_000_000, "");
    assert_eq!(
        s.factors(&r),
        (1_250_000_000, 1_500_000_000),
        "the item alone at 1.5"
    );
    assert_eq!(
        s.factors(&whole),
        (1_500_000_000, 1_500_000_000),
        "the whole attack at 1.5"
    );
    // No affinity item carried: the strength factor alone under both readings.
    let plain = strike_of(&r, "2d10", &[("1d6", false)], 1_250_000_000, "");
    assert_eq!(plain.factors(&whole), plain.factors(&r));
    // The exact mean rises under the whole-attack reading.
    let (a, b) = (
        odds::exact(&s, &r).unwrap().mean(),
        odds::exact(&s, &whole).unwrap().mean(),
    );
    assert!(b > a * 1.1, "{a} -> {b}");
    // Heal items keep their affinity factor.
    assert_eq!(whole.item_factor(SCALE, true), r.item_factor(SCALE, true));
}

//! After warm-up a battle performs zero heap allocations, Amoeba replication up to a full table
//! included. A counting global allocator counts allocations made on this test's thread.

use crate::common;

use common::{archive, random_archive_loadout};

use skirmish::games::auto_rumble::input::roster::random_roster;
use skirmish::games::auto_rumble::trace::hand::Silent;
use skirmish::games::auto_rumble::{HeroSpec, Kernel, Lineup, Power, rules};
use skirmish::rng::{Stream, stream_rng};

use crate::counting_alloc;
use counting_alloc::counted;

#[test]
fn battles_allocate_nothing_after_warm_up_amoeba_included() {
    // Inputs are built before counting: the claim is about the battle, not roster generation.
    let amoeba: Vec<HeroSpec> = (0..5)
        .map(|i| HeroSpec::new(&format!("A{i}"), 0, &[Power::Amoeba, Power::CosmicShield]))
        .collect();
    let amoeba = Lineup::compile(&amoeba).unwrap();
    let randoms: Vec<Lineup> = (0..500u64)
        .map(|i| {
            Lineup::compile(&random_roster(
                &mut stream_rng(7, i, Stream::Roster),
                2..=8,
                -30..=60,
            ))
            .unwrap()
        })
        .collect();
    let mut ini = [0.0; 8];
    let mut kernel = Kernel::new(rules::DEFAULT_CAPACITY);

    // The counter works: a Vec allocates.
    let (_, n) = counted(|| vec![1u8; 16]);
    assert_eq!(n, 1);

    // Warm-up: the first battle of the largest roster may size the per-team arrays.
    let mut rng = stream_rng(1, 0, Stream::Initiative);
    amoeba.initiatives_into(&mut rng, &mut ini[..5]);
    kernel.run(&amoeba.builds, &ini[..5], 30, &mut Silent);
    randoms[0].initiatives_into(&mut rng, &mut ini[..randoms[0].len()]);
    let big = randoms.iter().max_by_key(|l| l.len()).unwrap();
    kernel.run(&big.builds, &ini[..big.len()], 30, &mut Silent);

    let ((capped, max_survivors), n) = counted(|| {
        let (mut capped, mut max_survivors) = (false, 0);
        for _ in 0..5 {
            amoeba.initiatives_into(&mut rng, &mut ini[..5]);
            let o = kernel.run(&amoeba.builds, &ini[..5], 30, &mut Silent);
            capped |= o.capped;
        }
        for l in &randoms {
            l.initiatives_into(&mut rng, &mut ini[..l.len()]);
            let o = kernel.run(&l.builds, &ini[..l.len()], 30, &mut Silent);
            max_survivors = max_survivors.max(o.survivors);
        }
        (capped, max_survivors)
    });
    assert_eq!(n, 0, "battles allocated {n} times after warm-up");
    assert!(
        capped,
        "the Amoeba battles must fill the 4096-hero table (AR-15)"
    );
    assert!(
        max_survivors > 8,
        "random battles must include Amoeba copies"
    );
}

// The data kernel too: the six read from the built-in file, Amoeba filling the table included.
#[test]
fn data_kernel_battles_allocate_nothing_after_warm_up() {
    use skirmish::games::auto_rumble::kernel::data::{DataKernel, NoHook};
    use skirmish::games::auto_rumble::powers::catalogue::{Catalogue, Loadout, loadout_of_spec};
    let cat = Catalogue::builtin();
    let amoeba: Vec<Loadout> = (0..5)
        .map(|i| {
            let h = HeroSpec::new(&format!("A{i}"), 0, &[Power::Amoeba, Power::CosmicShield]);
            loadout_of_spec(&cat, &h).unwrap()
        })
        .collect();
    let randoms: Vec<Vec<Loadout>> = (0..500u64)
        .map(|i| {
            random_roster(&mut stream_rng(7, i, Stream::Roster), 2..=8, -30..=60)
                .iter()
                .map(|h| loadout_of_spec(&cat, h).unwrap())
                .collect()
        })
        .collect();
    let ini = [0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2];
    let mut kernel = DataKernel::new(rules::DEFAULT_CAPACITY);
    kernel.run(&cat, &amoeba, &ini[..5], 30, &mut NoHook);
    let big = randoms.iter().max_by_key(|l| l.len()).unwrap();
    kernel.run(&cat, big, &ini[..big.len()], 30, &mut NoHook);
    let (capped, n) = counted(|| {
        let mut capped = false;
        for _ in 0..3 {
            capped |= kernel.run(&cat, &amoeba, &ini[..5], 30, &mut NoHook).capped;
        }
        for l in &randoms {
            kernel.run(&cat, l, &ini[..l.len()], 30, &mut NoHook);
        }
        capped
    });
    assert_eq!(n, 0, "data battles allocated {n} times after warm-up");
    assert!(capped, "the Amoeba battles must fill the table (AR-15)");
}

// Issue 4: the general path plays every clause of the format (reactions, summons, wards, taxes,
// effects on other heroes) on its struct-of-arrays table without allocating once warm; issue 23:
// the second edition's clause kinds too (death effects, hit quantities, caps, attack-hit effects).
#[test]
fn general_kernel_battles_allocate_nothing_after_warm_up() {
    use rand::RngExt;
    use skirmish::games::auto_rumble::kernel::data::{self, DataKernel, in_kernel_class};
    use skirmish::games::auto_rumble::powers::catalogue::Loadout;
    let cat = common::second_edition();
    let rosters: Vec<Vec<Loadout>> = (0..400u64)
        .map(|i| {
            let mut rng = stream_rng(0xA770, i, Stream::Roster);
            let n = rng.random_range(2..=6);
            (0..n)
                .map(|_| random_archive_loadout(&cat, &mut rng, 4))
                .collect()
        })
        .collect();
    let ini = [0.9, 0.8, 0.7, 0.6, 0.5, 0.4];
    let mut kernel = DataKernel::new(256);
    let play_all = |kernel: &mut DataKernel| {
        let (mut general, mut births) = (0, 0);
        for b in &rosters {
            let o = data::play(kernel, &cat, b, &ini[..b.len()], 30);
            general += !in_kernel_class(b) as u32;
            births += (o.survivors as usize > b.len()) as u32;
        }
        (general, births)
    };
    play_all(&mut kernel); // warm-up: the general path's scratch, the per-team counts
    let ((general, births), n) = counted(|| play_all(&mut kernel));
    assert_eq!(n, 0, "archive battles allocated {n} times after warm-up");
    assert!(general > 300, "only {general} battles on the general path");
    assert!(
        births > 20,
        "copies or summons survived in only {births} battles"
    );
}

// Issue 6: whole games (pool, reveals, submissions, every strategy's bids, settling, ten battles)
// allocate nothing once a table is warm: bids are written into fixed rows, never collected. With
// the six sample powers every battle takes the fast path; with the archive, the general path too.
#[test]
fn full_games_bidding_included_allocate_nothing_after_warm_up() {
    use skirmish::games::auto_rumble::game::strategy::{Kind, NAMES, Strategy};
    use skirmish::games::auto_rumble::game::{self, GameSettings, Sizes, Table};
    use skirmish::games::auto_rumble::powers::catalogue::Catalogue;
    let cat = Catalogue::builtin();
    let sizes = Sizes::new(&cat);
    // Values that differ per power, so value-aware strategies bid on some and not others.
    let values: Vec<f64> = (0..cat.len()).map(|i| i as f64 * 4.0 - 6.0).collect();
    let strategies: Vec<Strategy> = NAMES
        .iter()
        .map(|n| Strategy::new(Kind::parse(n).unwrap(), values.clone()))
        .collect();
    let seats: Vec<&Strategy> = strategies.iter().collect();
    let settings = GameSettings {
        players: seats.len(),
        max_rounds: 30,
        capacity: 256,
    };
    let mut table = Table::new(&cat, settings.capacity);
    game::play(&cat, &sizes, &settings, &seats, 1, &mut table);
    let (sold, n) = counted(|| {
        (2..40u64)
            .map(|seed| {
                let g = game::play(&cat, &sizes, &settings, &seats, seed, &mut table);
                g.rounds.iter().map(|r| r.sold as u32).sum::<u32>()
            })
            .sum::<u32>()
    });
    assert_eq!(n, 0, "38 full games allocated {n} times after warm-up");
    assert!(sold > 38 * 15, "the games must sell powers ({sold} sold)");

    // The archive's 37 powers: battles with reactions and summons take the general path.
    let cat = archive();
    let sizes = Sizes::new(&cat);
    let values: Vec<f64> = (0..cat.len()).map(|i| (i % 9) as f64 * 3.0 - 4.0).collect();
    let strategies: Vec<Strategy> = NAMES
        .iter()
        .map(|n| Strategy::new(Kind::parse(n).unwrap(), values.clone()))
        .collect();
    let seats: Vec<&Strategy> = strategies.iter().collect();
    let mut table = Table::new(&cat, settings.capacity);
    for seed in 1..20u64 {
        game::play(&cat, &sizes, &settings, &seats, seed, &mut table);
    }
    let (sold, n) = counted(|| {
        (20..40u64)
            .map(|seed| {
                let g = game::play(&cat, &sizes, &settings, &seats, seed, &mut table);
                g.rounds.iter().map(|r| r.sold as u32).sum::<u32>()
            })
            .sum::<u32>()
    });
    assert_eq!(n, 0, "20 archive games allocated {n} times after warm-up");
    assert!(
        sold > 20 * 15,
        "the archive games must sell powers ({sold} sold)"
    );
}

// Clan Melee (issue 7): once a melee is set up, its turns (shuffle, pairs, the rules, removing
// the dead) allocate nothing, in both modes.
#[test]
fn clan_melee_turns_allocate_nothing() {
    use skirmish::games::clan_melee::input::clans;
    use skirmish::games::clan_melee::kernel::engine::Melee;
    use skirmish::games::clan_melee::rules::Mode;
    use skirmish::rng::match_stream_rng;
    let field = clans::reference_field();
    let mut melee = Melee::new();
    for mode in [Mode::Sane, Mode::Reference] {
        melee.setup(&field, 100_000, &mut match_stream_rng(3, Stream::Roster));
        let start = melee.p.len();
        let mut rng = match_stream_rng(3, Stream::Battle);
        let (pairs, n) = counted(|| {
            (0..200)
                .map(|_| melee.turn(&field, mode, &mut rng))
                .sum::<u64>()
        });
        assert_eq!(n, 0, "{mode:?}: 200 turns allocated {n} times");
        assert!(pairs > 50_000 && melee.p.len() < start, "{pairs} pairs");
    }
}

// Issue 49: the clause kinds added since (a cap on Energy lost, reactions limited per other
// hero, passives from the start, removing powers) keep the general path allocation-free once
// warm: their records live in scratch reused from battle to battle.
#[test]
fn issue_49_clause_kinds_allocate_nothing_after_warm_up() {
    use rand::RngExt;
    use skirmish::games::auto_rumble::kernel::data::{self, DataKernel};
    use skirmish::games::auto_rumble::powers::catalogue::{Catalogue, Loadout};
    use skirmish::games::auto_rumble::powers::file::{load, parse};
    let mut defs = load(
        &skirmish::platform::sources::Sources::disk(),
        std::path::Path::new("experiments/powers/second-edition.toml"),
    )
    .unwrap();
    let extra = r#"
[[power]]
name = "Stone Skin"
source = "issue 49"
text = "You lose at most 15 Energy to hits each round, from the start."
[[power.clause]]
when = "passive"
from_start = true
effects = [{ round_loss_cap = 15 }, { take_percent = 80 }]
[[power]]
name = "Spite"
source = "issue 49"
text = "Whoever hits you loses 3 Energy, once a round for each attacker."
[[power.clause]]
when = "attacked"
target = "other"
limit = "once_per_hero_per_round"
effects = [{ lose_energy = 3 }, "copy_self"]
[[power]]
name = "Dispel"
source = "issue 49"
text = "Spend 10: the opponent with the most Energy loses every power."
[[power.clause]]
when = "use"
cost = { spend = 10 }
target = "opponent_most_energy"
effects = [{ remove_power = "all" }]
"#;
    defs.extend(parse(extra, "extra.toml").unwrap());
    let cat = Catalogue::new(defs);
    let new: Vec<u16> = ["Stone Skin", "Spite", "Dispel"]
        .iter()
        .map(|n| cat.id(n).unwrap())
        .collect();
    let rosters: Vec<Vec<Loadout>> = (0..300u64)
        .map(|i| {
            let mut rng = stream_rng(0x4949, i, Stream::Roster);
            let n = rng.random_range(2..=6);
            (0..n)
                .map(|k| {
                    // Half the heroes hold a drawn archive power set instead.
                    if rng.random_bool(0.5) {
                        return random_archive_loadout(&cat, &mut rng, 3);
                    }
                    let p = new[(i as usize + k) % new.len()];
                    common::hero(&cat, rng.random_range(-10..=40), &[cat.name(p)], None)
                })
                .collect()
        })
        .collect();
    let ini = [0.9, 0.8, 0.7, 0.6, 0.5, 0.4];
    let mut kernel = DataKernel::new(256);
    let play_all = |kernel: &mut DataKernel| {
        let mut rounds = 0;
        for b in &rosters {
            rounds += data::play(kernel, &cat, b, &ini[..b.len()], 30).rounds;
        }
        rounds
    };
    play_all(&mut kernel); // warm-up
    let (rounds, n) = counted(|| play_all(&mut kernel));
    assert_eq!(n, 0, "battles allocated {n} times after warm-up");
    assert!(rounds > 300, "{rounds} rounds");
}

//! Minion Combat's random field and analyses (MC-31..MC-36), on small runs whose answers are
//! known in sign or exactly.

use skirmish::games::minion_combat::analysis::study::{STATS, Study, crossing, improve};
use skirmish::games::minion_combat::input::catalogue;
use skirmish::games::minion_combat::kernel::combat::{Combat, Silent};
use skirmish::games::minion_combat::rules::Rules;
use skirmish::games::minion_combat::simulation::combats::{Field, plays_exactly};
use skirmish::games::minion_combat::state::Minion;
use skirmish::platform::ledger::Ledger;
use skirmish::platform::tally::Mean;
use skirmish::rng::match_seed;

fn field(kinds: [bool; 2], sizes: (usize, usize), types: usize, all: bool) -> Field {
    Field::new(
        Rules::default(),
        catalogue::builtin(),
        kinds,
        sizes,
        types,
        all,
    )
    .unwrap()
}

#[test]
fn mc_31_random_groups_keep_to_kinds_sizes_types_and_the_played_pool() {
    let f = field([true, false], (3, 5), 2, false);
    let cat = &f.catalogue;
    for m in 0..2000 {
        let d = f.draw(m, match_seed(9, m));
        assert_eq!(d.first, (m & 1) as usize, "precedence alternates");
        for s in 0..2 {
            assert!((3..=5).contains(&d.n[s]));
            assert_eq!(d.kind[s], 0, "recruits only");
            let ids = &d.id[s][..d.n[s]];
            let mut types: Vec<u16> = ids.to_vec();
            types.sort();
            types.dedup();
            assert!(types.len() <= 2);
            for &i in ids {
                assert!(plays_exactly(&cat.minions[i as usize], &cat.effects));
            }
        }
        let again = f.draw(m, match_seed(9, m));
        assert_eq!(again.id, d.id, "a draw is a function of its seed");
    }
    let all = field([true, true], (1, 8), 2, true);
    assert!(all.pool[0].len() + all.pool[1].len() > f.pool[0].len() + f.pool[1].len());
    assert!(
        Field::new(
            Rules::default(),
            catalogue::builtin(),
            [true, true],
            (0, 8),
            2,
            false
        )
        .is_err()
    );
    assert!(
        Field::new(
            Rules::default(),
            catalogue::builtin(),
            [true, true],
            (2, 9),
            2,
            false
        )
        .is_err()
    );
    assert!(
        Field::new(
            Rules::default(),
            catalogue::builtin(),
            [false, false],
            (1, 8),
            2,
            false
        )
        .is_err()
    );
}

#[test]
fn mc_31_the_kernel_hears_every_round() {
    struct Count(u32);
    impl skirmish::games::minion_combat::kernel::combat::RoundHook for Count {
        fn round_end(&mut self, _g: u32, _c: &Combat) {
            self.0 += 1;
        }
    }
    let f = field([true, true], (1, 8), 2, false);
    let mut k = Combat::new();
    for m in 0..200 {
        let s = match_seed(1, m);
        let d = f.draw(m, s);
        let mut c = Count(0);
        let o = k.play(d.sides(), d.first, &f.rules, s, &mut c);
        assert_eq!(c.0, o.rounds);
        assert_eq!(o, k.play(d.sides(), d.first, &f.rules, s, &mut Silent));
    }
}

#[test]
fn mc_32_each_change_touches_only_its_stat_and_level_stays_in_range() {
    let r = Rules::default();
    let base = Minion {
        name: "x".into(),
        recruit: true,
        hand: Some(2),
        missile: None,
        attacks: 1,
        armor: 1,
        hp: 7,
        max_hp: 7,
        level: 5,
        nation: None,
        flight: false,
        enchanted: false,
        clauses: Vec::new(),
    };
    let changed: Vec<Minion> = (0..STATS.len())
        .map(|k| {
            let mut m = base.clone();
            improve(&mut m, k, &r);
            m
        })
        .collect();
    assert_eq!(changed[0].hand, Some(3));
    assert_eq!(changed[1], base, "+1 missile: no missile attack to improve");
    assert_eq!(changed[2].armor, 2);
    assert_eq!((changed[3].hp, changed[3].max_hp), (11, 11));
    assert_eq!(changed[4].level, 5, "MC-23: level 5 is the top");
    assert_eq!(changed[5].attacks, 2);
}

fn study(combats: u64, cell: u64) -> Study {
    Study {
        field: field([true, true], (1, 8), 2, false),
        combats,
        cell,
        size: 4,
        swordsman: "Dwarf swordsman".into(),
        archer: "Dwarf archer".into(),
    }
}

#[test]
fn mc_32_to_36_every_improvement_helps_and_nation_abilities_are_worth_something() {
    let st = study(4000, 20);
    let found = st
        .run(7, &mut Ledger::default(), &|_| {})
        .unwrap()
        .expect("every cell");
    assert_eq!(found.stats.len(), 6);
    for p in &found.stats {
        let (lo, _) = p.points.ci95();
        assert!(lo > 0.0, "{}: {:?}", p.name, p.points);
        assert!(p.hp.mean() > 0.0, "{}", p.name);
        assert_eq!(p.points.n, 4000);
    }
    // MC-36: only nations with an ability in the rules are measured; each helps.
    let names: Vec<&str> = found.nations.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names.len(), 5, "{names:?}");
    assert!(
        names
            .iter()
            .any(|n| n.starts_with("Elf (+1 missile in round 1)"))
    );
    for p in &found.nations {
        assert!(p.points.ci95().0 > 0.0, "{}: {:?}", p.name, p.points);
    }
    // MC-34: a cell per pair of pool minions.
    let m = &found.minions;
    assert_eq!(
        m.names.len(),
        st.field.pool[0].len() + st.field.pool[1].len()
    );
    assert!(
        m.cells
            .iter()
            .all(|r| r.len() == m.names.len() && r.iter().all(|c| c.n == 20))
    );
    // MC-35: nine splits, all eight recruits.
    assert_eq!(found.splits.names.len(), 9);
    assert_eq!(found.splits_vs_field.len(), 9);
    // Same answers on one thread as on the default pool.
    let one = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap()
        .install(|| {
            st.run(7, &mut Ledger::default(), &|_| {})
                .unwrap()
                .expect("every cell")
        });
    assert_eq!(one.stats[5].points, found.stats[5].points);
    assert_eq!(one.minions.cells, found.minions.cells);
}

fn ladder(shares: [f64; 8]) -> [Mean; 8] {
    shares.map(|p| {
        let mut m = Mean::default();
        // 100 combats at the share exactly (points 2 and 0).
        let wins = (p * 100.0).round() as i64;
        for k in 0..100 {
            m.add(if k < wins { 2 } else { 0 });
        }
        m
    })
}

#[test]
fn mc_33_worth_is_the_count_beaten_half_the_time_interpolated() {
    let w = |s| crossing(&ladder(s));
    assert_eq!(w([1.0, 1.0, 0.5, 0.0, 0.0, 0.0, 0.0, 0.0]), Some(3.0));
    assert_eq!(w([1.0, 0.8, 0.2, 0.0, 0.0, 0.0, 0.0, 0.0]), Some(2.5));
    assert_eq!(w([0.0; 8]), Some(0.5), "loses to one: half a recruit");
    assert_eq!(w([1.0; 8]), None, "beats eight");
}

use skirmish::games::minion_combat::analysis::exact::{Odds, enumerate, odds, outcome};

#[test]
fn mc_37_a_combat_without_random_choices_has_one_path() {
    let f = field([true, false], (1, 1), 1, false);
    let r = &f.rules;
    let cat = &f.catalogue;
    let u = |name: &str| {
        let m = skirmish::games::minion_combat::simulation::combats::fielded(
            cat.find(name).unwrap(),
            r,
        );
        skirmish::games::minion_combat::kernel::combat::Unit::new(&m, r)
    };
    let a = [u("Dwarf archer")];
    let b = [u("Human archer")];
    let (p, paths) = enumerate([&a, &b], 0, r, 10).unwrap();
    assert_eq!(paths, 1);
    assert_eq!(p.iter().sum::<f64>(), 1.0);
    // Two archers against two: who shoots whom is a coin at every tie.
    let (p, paths) = enumerate([&[a[0], a[0]], &[b[0], b[0]]], 0, r, 100_000).unwrap();
    assert!(paths > 1);
    assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-12);
    // A limit below the paths falls back to sampling.
    match odds([&[a[0], a[0]], &[b[0], b[0]]], 0, r, 1, 500, 3) {
        Odds::Sampled { counts, .. } => {
            assert_eq!(counts.iter().map(|c| c.wins).sum::<u64>(), 500)
        }
        o => panic!("{o:?}"),
    }
}

/// Plays `n` seeded combats of combat `m` and holds each outcome's share within 4.5 standard
/// errors of its exact probability.
fn sampled_within_exact(
    m: u64,
    p: [f64; 4],
    paths: u64,
    n: u64,
    mut play: impl FnMut(u64) -> skirmish::games::minion_combat::state::Outcome,
) {
    let mut seen = [0u64; 4];
    for s in 0..n {
        seen[outcome(&play(s))] += 1;
    }
    for i in 0..4 {
        let freq = seen[i] as f64 / n as f64;
        let q = p[i].clamp(0.0, 1.0);
        let sd = (q * (1.0 - q) / n as f64).sqrt();
        assert!(
            (freq - p[i]).abs() <= 4.5 * sd + 1e-9,
            "combat {m}, outcome {i}: sampled {freq} vs exact {} ({paths} paths)",
            p[i]
        );
    }
}

#[test]
fn mc_37_sampled_outcomes_agree_with_the_exact_odds() {
    let f = field([true, true], (1, 3), 2, false);
    let mut k = Combat::new();
    let (mut compared, mut branching) = (0, 0);
    for m in 0..200u64 {
        let d = f.draw(m, match_seed(37, m));
        let Some((p, paths)) = enumerate(d.sides(), d.first, &f.rules, 20_000) else {
            continue;
        };
        compared += 1;
        branching += (paths > 1) as u32;
        sampled_within_exact(m, p, paths, 2000, |s| {
            k.play(d.sides(), d.first, &f.rules, match_seed(m, s), &mut Silent)
        });
        if compared == 40 {
            break;
        }
    }
    assert_eq!(compared, 40);
    assert!(
        branching >= 10,
        "only {branching} combats had random choices"
    );
}

use skirmish::games::minion_combat::analysis::exact::{enumerate_groups, odds_groups};
use skirmish::games::minion_combat::simulation::combats::fielded;

/// MC-37 on two engines: the plain model replayed down every branch gives the kernel's exact
/// odds, combat for combat (the two draw the same choices, MC-30).
#[test]
fn mc_37_the_plain_model_walks_to_the_kernels_exact_odds() {
    let f = field([true, true], (1, 3), 2, false);
    let mut compared = 0;
    for m in 0..200u64 {
        let d = f.draw(m, match_seed(38, m));
        let Some((p, paths)) = enumerate(d.sides(), d.first, &f.rules, 5_000) else {
            continue;
        };
        let groups = d.groups(|id| fielded(&f.catalogue.minions[id as usize], &f.rules));
        let (q, plain_paths) = enumerate_groups([&groups[0], &groups[1]], &f.rules, 5_000)
            .expect("the same combat has as many paths on the plain model");
        assert_eq!(paths, plain_paths, "combat {m}");
        for i in 0..4 {
            assert!((p[i] - q[i]).abs() < 1e-12, "combat {m}: {p:?} vs {q:?}");
        }
        compared += 1;
        if compared == 30 {
            break;
        }
    }
    assert_eq!(compared, 30);
}

/// MC-37 with effects (MC-41..MC-54): combats that field minions whose clauses only the plain
/// model plays have exact odds too, and the seeded combats `simulate minions --all-minions`
/// plays agree with them.
#[test]
fn mc_37_combats_with_effects_have_exact_odds_the_sampler_agrees_with() {
    let f = field([true, true], (1, 3), 2, true);
    let (mut compared, mut uncertain) = (0, 0);
    let mut k = Combat::new();
    for m in 0..2000u64 {
        let d = f.draw(m, match_seed(39, m));
        let with_effects = (0..2).any(|s| {
            d.id[s][..d.n[s]]
                .iter()
                .any(|&id| f.plain[id as usize].is_some())
        });
        if !with_effects {
            continue;
        }
        let groups = d.groups(|id| match &f.plain[id as usize] {
            Some(x) => x.clone(),
            None => fielded(&f.catalogue.minions[id as usize], &f.rules),
        });
        let Some((p, paths)) = enumerate_groups([&groups[0], &groups[1]], &f.rules, 5_000) else {
            continue;
        };
        assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-9, "combat {m}");
        compared += 1;
        // A combat whose outcome is certain checks little: sample those that are not.
        if p.iter().all(|&x| !(0.01..=0.99).contains(&x)) {
            continue;
        }
        uncertain += 1;
        sampled_within_exact(m, p, paths, 1000, |s| {
            f.play(&d, match_seed(m, s), &mut k, None)
        });
        if uncertain == 12 {
            break;
        }
    }
    assert_eq!(uncertain, 12, "{compared} combats with effects walked");
    // Past the limit, the plain model's odds are sampled.
    let d = (0..)
        .map(|m| f.draw(m, match_seed(39, m)))
        .find(|d| d.n[0] == 2 && d.n[1] == 2)
        .unwrap();
    let groups = d.groups(|id| match &f.plain[id as usize] {
        Some(x) => x.clone(),
        None => fielded(&f.catalogue.minions[id as usize], &f.rules),
    });
    match odds_groups([&groups[0], &groups[1]], &f.rules, 0, 300, 5) {
        Odds::Sampled { counts, .. } => {
            assert_eq!(counts.iter().map(|c| c.wins).sum::<u64>(), 300)
        }
        o => panic!("{o:?}"),
    }
}

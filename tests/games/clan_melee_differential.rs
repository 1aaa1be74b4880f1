//! The optimised engine against the plain reference model (`reference.rs`): whole melees of the
//! reference field at random budgets, in both modes, must agree in every number.

use skirmish::games::clan_melee::input::clans;
use skirmish::games::clan_melee::kernel::engine::{By, Cpu, Melee, NoTurnHook, Resolve, Settings};
use skirmish::games::clan_melee::reference;
use skirmish::games::clan_melee::rules::{Mode, Rules};
use skirmish::rng::{Stream, match_seed, match_stream_rng};

#[test]
fn engine_and_reference_agree_on_random_melees_in_both_modes() {
    let field = clans::reference_field();
    let mut melee = Melee::new();
    let mut ends = std::collections::BTreeSet::new();
    for i in 0..400u64 {
        let seed = match_seed(11, i);
        // Budgets from 1 to ~5,000, many of them small enough for zombies and odd rosters.
        let h = 1 + (seed % 5_000) as i32 / (1 + (i % 4) as i32 * 3);
        for mode in [Mode::Sane, Mode::Reference] {
            // The per-member engine is the one held to the reference draw for draw.
            let s = Settings {
                mode,
                max_turns: 3_000,
                engine: By::Members,
            };
            let a = melee.play(&field, h, &s, seed);
            let b = reference::play(&field, h, &s, seed);
            assert_eq!(a, b, "melee {i}, H {h}, {mode:?}");
            ends.insert((mode.name(), a.end.name()));
        }
    }
    // The sample must reach the interesting endings, or it proves little.
    assert!(ends.contains(&("sane", "won")), "{ends:?}");
    assert!(ends.contains(&("reference", "won")), "{ends:?}");
}

/// Rules drawn for a differential test (issue 51): each number at the seed's value or anywhere in
/// a small range around it, so caps, free points, iteration damage and decay all move.
fn drawn_rules(rng: &mut skirmish::rng::MatchRng) -> Rules {
    use rand::RngExt;
    let mut r = Rules::SEED;
    if rng.random_bool(0.5) {
        r.free_ap = rng.random_range(0..=20);
    }
    if rng.random_bool(0.5) {
        r.ap_per_damage = rng.random_range(1..=4);
    }
    if rng.random_bool(0.5) {
        r.decay = rng.random_range(0..=3);
    }
    if rng.random_bool(0.5) {
        r.cap_per_hp = rng.random_range(0..=4);
        r.cap_bonus = rng.random_range(0..=30);
    }
    assert!(r.check().is_ok());
    r
}

// Issue 51: a rules file's numbers (CM-1, CM-2, CM-9) are played alike by the engine, member by
// member and by classes where classes never pay, and the reference, in both modes.
#[test]
fn engine_and_reference_agree_under_drawn_rules() {
    let mut field = clans::reference_field();
    let (mut melee, mut by_class) = (Melee::new(), Melee::new());
    let mut rng = match_stream_rng(51, Stream::Battle);
    let mut compared = 0;
    for i in 0..300u64 {
        field.rules = drawn_rules(&mut rng);
        let seed = match_seed(51, i);
        let h = 1 + (seed % 3_000) as i32;
        for mode in [Mode::Sane, Mode::Reference] {
            let s = Settings {
                mode,
                max_turns: 2_000,
                engine: By::Members,
            };
            let a = melee.play(&field, h, &s, seed);
            let b = reference::play(&field, h, &s, seed);
            assert_eq!(a, b, "melee {i}, H {h}, {mode:?}, {:?}", field.rules);
            let before = by_class.class_turns;
            let c = by_class.play(
                &field,
                h,
                &Settings {
                    engine: By::Classes,
                    ..s
                },
                seed,
            );
            if by_class.class_turns == before {
                assert_eq!(
                    c, a,
                    "melee {i} by classes, H {h}, {mode:?}, {:?}",
                    field.rules
                );
                compared += 1;
            }
        }
    }
    assert!(
        compared >= 300,
        "only {compared} melees compared by classes"
    );
}

// CM-20: the engine's rules folded per partner class (`pairs.rs`) answer exactly what the
// interpreter answers, for every kind of the reference field against every partner kind, at
// ordinary, boundary, zombie and wrapped hit points, in both modes (the Splicer's side effect
// included).
#[test]
fn folded_rules_answer_as_the_interpreter_for_every_kind_pair() {
    use rand::RngExt;
    let field = clans::reference_field();
    let mut rng = skirmish::rng::match_stream_rng(5, skirmish::rng::Stream::Battle);
    let edge = [
        0,
        1,
        -1,
        2,
        3,
        9,
        10,
        11,
        20,
        999,
        1000,
        -6,
        -7,
        i32::MAX,
        i32::MIN,
    ];
    let pick = |rng: &mut skirmish::rng::MatchRng| {
        if rng.random_bool(0.3) {
            edge[rng.random_range(0..edge.len())]
        } else {
            rng.random_range(-50..1001)
        }
    };
    let n = field.kinds.len() as u16;
    let mut checked = 0;
    for me in 0..n {
        for other in 0..n {
            for _ in 0..60 {
                let v: Vec<i32> = (0..4).map(|_| pick(&mut rng)).collect();
                for mode in [Mode::Sane, Mode::Reference] {
                    let slow = field.decide(mode, me, v[0], v[1], other, v[2], v[3]);
                    let slot = field.pair_slot(me, other);
                    let fast = field.pairs.decide(mode, slot, (v[0], v[1]), (v[2], v[3]));
                    assert_eq!(fast, slow, "kind {me} vs {other} at {v:?}, {mode:?}");
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 100_000, "{checked}");
}

// CM-13: a turn's pairs are independent and their coins keyed by pair, so resolving them grouped
// by kind pair (the engine's fast order) and in pair order give the same turn, member for member;
// and the turn built for AVX2 CPUs plays the same turns as the baseline build.
#[test]
fn pairs_resolved_grouped_or_in_order_and_either_build_give_the_same_turns() {
    let field = clans::reference_field();
    let ways = [
        (Resolve::Pairs, Cpu::Baseline),
        (Resolve::Buckets, Cpu::Baseline),
        (Resolve::Pairs, Cpu::Detected),
        (Resolve::Buckets, Cpu::Detected),
    ];
    let mut melees: Vec<Melee> = ways.iter().map(|_| Melee::new()).collect();
    let mut played = 0;
    for (i, h) in [40, 300, 2_000, 20_000, 70_000].into_iter().enumerate() {
        for mode in [Mode::Sane, Mode::Reference] {
            let seed = match_seed(5, i as u64);
            for m in &mut melees {
                m.setup(&field, h, &mut match_stream_rng(seed, Stream::Roster));
            }
            let mut rngs: Vec<_> = ways
                .iter()
                .map(|_| match_stream_rng(seed, Stream::Battle))
                .collect();
            for turn in 0..60 {
                let mut first = None;
                for ((m, rng), &(order, cpu)) in melees.iter_mut().zip(&mut rngs).zip(&ways) {
                    let pairs = m.turn_in(&field, mode, rng, order, cpu);
                    let p = &m.p;
                    let now = (pairs, p.hp.clone(), p.max.clone(), p.kind.clone());
                    match &first {
                        None => first = Some(now),
                        Some(f) => assert!(
                            *f == now,
                            "H {h}, {mode:?}, turn {turn}: {order:?} on {cpu:?} differs"
                        ),
                    }
                }
                played += first.unwrap().0;
            }
        }
    }
    assert!(played > 100_000, "only {played} pairs compared");
}

/// Two engines' melees, summarised for comparing their distributions.
#[derive(Default)]
struct Sample {
    /// Melees credited to each clan, and with no clan credited (the last cell).
    credited: Vec<u64>,
    /// Melees by how they ended: won, all slain, deadlock, turn cap.
    ends: [u64; 4],
    turns: Vec<f64>,
    interactions: Vec<f64>,
}

impl Sample {
    fn add(&mut self, o: &skirmish::games::clan_melee::kernel::engine::Outcome, clans: usize) {
        use skirmish::games::clan_melee::kernel::engine::End;
        self.credited.resize(clans + 1, 0);
        self.credited[o.credited.map_or(clans, |c| c as usize)] += 1;
        let e = match o.end {
            End::Won => 0,
            End::AllSlain => 1,
            End::Deadlock => 2,
            End::TurnCap => 3,
        };
        self.ends[e] += 1;
        self.turns.push(o.turns as f64);
        self.interactions.push(o.interactions as f64);
    }
}

/// Largest |z| of the two samples' differences: each cell's share (two-proportion z, pooled) and
/// the means of turns and interactions (Welch), with what differs most.
fn largest_z(a: &Sample, b: &Sample) -> (f64, String) {
    let mut worst = (0.0f64, String::new());
    let mut check = |z: f64, what: String| {
        if z.abs() > worst.0 {
            worst = (z.abs(), what);
        }
    };
    let (na, nb) = (a.turns.len() as f64, b.turns.len() as f64);
    let cells = a
        .credited
        .iter()
        .zip(&b.credited)
        .enumerate()
        .map(|(c, (&x, &y))| (format!("credited clan {c}"), x, y))
        .chain(
            a.ends
                .iter()
                .zip(&b.ends)
                .enumerate()
                .map(|(e, (&x, &y))| (format!("end {e}"), x, y)),
        );
    for (what, x, y) in cells {
        let p = (x + y) as f64 / (na + nb);
        let se = (p * (1.0 - p) * (1.0 / na + 1.0 / nb)).sqrt();
        if se > 0.0 {
            check((x as f64 / na - y as f64 / nb) / se, what);
        }
    }
    let welch = |x: &[f64], y: &[f64]| {
        let m = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
        let var = |v: &[f64], m: f64| {
            v.iter().map(|t| (t - m).powi(2)).sum::<f64>() / (v.len() as f64 - 1.0)
        };
        let (mx, my) = (m(x), m(y));
        let se = (var(x, mx) / x.len() as f64 + var(y, my) / y.len() as f64).sqrt();
        if se > 0.0 { (mx - my) / se } else { 0.0 }
    };
    check(welch(&a.turns, &b.turns), "mean turns".into());
    check(
        welch(&a.interactions, &b.interactions),
        "mean interactions".into(),
    );
    worst
}

// Issue 25: the melee by classes has the per-member engine's distribution. 20,000 melees of the
// reference field per budget and mode, each engine from the same seeds (their draws differ): no
// clan's credited share, end kind, or mean of turns or interactions differs by more than 3.5
// standard errors (two-sided p < 0.0005 each; about 1% for the whole family). A planted change
// of the rules' outcome, 2 points of one clan's wins moved to another, must be caught.
#[test]
fn classes_play_melees_with_the_per_member_distribution() {
    let field = clans::reference_field();
    let k = field.clans.len();
    let mut melee = Melee::new();
    const MELEES: u64 = 20_000;
    for (h, mode) in [
        (100, Mode::Sane),
        (1_000, Mode::Sane),
        (300, Mode::Reference),
    ] {
        let s = Settings {
            mode,
            max_turns: 3_000,
            engine: By::Members,
        };
        let (mut members, mut classes) = (Sample::default(), Sample::default());
        let mut by_class = Melee::new();
        for i in 0..MELEES {
            let seed = match_seed(25, i);
            members.add(&melee.play(&field, h, &s, seed), k);
            // These budgets soon have more classes than pay: held to classes throughout.
            let o = by_class.play_by(&field, h, &s, seed, &mut NoTurnHook, By::OnlyClasses);
            classes.add(&o, k);
        }
        assert_eq!(by_class.member_turns, 0, "H {h}: by classes throughout");
        let (z, what) = largest_z(&members, &classes);
        assert!(
            z < 3.5,
            "H {h} {mode:?}: {what} differs by {z:.2} standard errors"
        );
        // The plant: the most credited clan's share moves 2 points to the next clan.
        let top = (0..k).max_by_key(|&c| members.credited[c]).unwrap();
        let moved = MELEES * 2 / 100;
        let mut planted = Sample {
            credited: classes.credited.clone(),
            ends: classes.ends,
            turns: classes.turns.clone(),
            interactions: classes.interactions.clone(),
        };
        planted.credited[top] -= moved;
        planted.credited[(top + 1) % k] += moved;
        let (z, _) = largest_z(&members, &planted);
        assert!(
            z >= 3.5,
            "H {h} {mode:?}: a 2-point shift went unseen (z {z:.2})"
        );
    }
}

// CM-14: where classes do not pay from the first turn, the default engine lays the rosters out
// in order and plays member by member from the same draws: the very melee `--engine members`
// plays.
#[test]
fn where_classes_never_pay_a_melee_by_classes_is_the_melee_by_members() {
    let field = clans::reference_field();
    let (mut by_class, mut by_member) = (Melee::new(), Melee::new());
    let mut compared = 0;
    for i in 0..150u64 {
        let seed = match_seed(14, i);
        let h = 1 + (seed % 8_000) as i32;
        for mode in [Mode::Sane, Mode::Reference] {
            let s = Settings {
                mode,
                max_turns: 2_000,
                ..Settings::default()
            };
            assert_eq!(s.engine, By::Classes, "classes are the default");
            let before = by_class.class_turns;
            let a = by_class.play(&field, h, &s, seed);
            let b = by_member.play(
                &field,
                h,
                &Settings {
                    engine: By::Members,
                    ..s
                },
                seed,
            );
            if by_class.class_turns == before {
                assert_eq!(a, b, "melee {i}, H {h}, {mode:?}");
                compared += 1;
            }
        }
    }
    assert!(
        compared >= 250,
        "only {compared} melees never played by classes"
    );
}

// CM-14: the first turn of a 10,000,000-hp melee (10.19 million members, ten million of them
// 1-hp cowards in one class) is played by classes, then the survivors member by member.
#[test]
fn a_ten_million_budget_melee_plays_its_first_turn_by_classes() {
    let field = clans::reference_field();
    let mut melee = Melee::new();
    let s = Settings {
        max_turns: 3,
        ..Settings::default()
    };
    let o = melee.play(&field, 10_000_000, &s, 7);
    assert!(
        (10_190_000..10_195_000).contains(&o.participants),
        "{}",
        o.participants
    );
    assert_eq!((melee.class_turns, melee.member_turns), (1, 2));
    assert!(
        o.interactions > o.participants as u64 / 2,
        "turn 1 counts its {} pairs",
        o.participants / 2
    );
    // After turn 1 the cowards are gone: the members laid out are the survivors alone.
    assert!(
        melee.p.len() < 100_000,
        "{} members laid out",
        melee.p.len()
    );
}

// CM-14: the default engine at a budget where classes pay for the first turn and members play
// the rest has the per-member engine's distribution (2,000 melees each at 20,000 hp).
#[test]
fn classes_then_members_keep_the_per_member_distribution() {
    let field = clans::reference_field();
    let k = field.clans.len();
    let (mut a, mut b) = (Melee::new(), Melee::new());
    let (mut members, mut classes) = (Sample::default(), Sample::default());
    let s = Settings::default();
    for i in 0..2_000u64 {
        let seed = match_seed(26, i);
        classes.add(&a.play(&field, 20_000, &s, seed), k);
        let m = Settings {
            engine: By::Members,
            ..s
        };
        members.add(&b.play(&field, 20_000, &m, seed), k);
    }
    assert_eq!(a.class_turns, 2_000, "turn 1 of each melee by classes");
    let (z, what) = largest_z(&members, &classes);
    assert!(z < 3.5, "{what} differs by {z:.2} standard errors");
}

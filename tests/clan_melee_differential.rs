//! The optimised engine against the plain reference model (`reference.rs`): whole melees of the
//! reference field at random budgets, in both modes, must agree in every number.

use skirmish::games::clan_melee::input::clans;
use skirmish::games::clan_melee::kernel::engine::{Melee, Resolve, Settings};
use skirmish::games::clan_melee::reference;
use skirmish::games::clan_melee::rules::Mode;
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
            let s = Settings {
                mode,
                max_turns: 3_000,
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
// by kind pair (the engine's fast order) and in pair order give the same turn, member for member.
#[test]
fn pairs_resolved_grouped_or_in_order_give_the_same_turns() {
    let field = clans::reference_field();
    let (mut grouped, mut ordered) = (Melee::new(), Melee::new());
    let mut played = 0;
    for (i, h) in [40, 300, 2_000, 20_000, 70_000].into_iter().enumerate() {
        for mode in [Mode::Sane, Mode::Reference] {
            let seed = match_seed(5, i as u64);
            for m in [&mut grouped, &mut ordered] {
                m.setup(&field, h, &mut match_stream_rng(seed, Stream::Roster));
            }
            let mut rng_g = match_stream_rng(seed, Stream::Battle);
            let mut rng_o = rng_g.clone();
            for turn in 0..60 {
                let a = grouped.turn_in(&field, mode, &mut rng_g, Resolve::Buckets);
                let b = ordered.turn_in(&field, mode, &mut rng_o, Resolve::Pairs);
                assert_eq!(a, b);
                played += a;
                let (g, o) = (&grouped.p, &ordered.p);
                assert!(
                    g.hp == o.hp && g.max == o.max && g.kind == o.kind,
                    "H {h}, {mode:?}, turn {turn}: the two orders differ"
                );
            }
        }
    }
    assert!(played > 100_000, "only {played} pairs compared");
}

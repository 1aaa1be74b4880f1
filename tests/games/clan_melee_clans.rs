//! The nine reference clans (docs/rules/notes/clan-melee.md, section 2) as written in
//! `experiments/clan-melee/`: rosters pinned at the budgets the description lists, and each
//! clan's decisions in a few situations (CM-20 .. CM-25).

use skirmish::games::clan_melee::input::clan::{Clan, Made, each_member};
use skirmish::games::clan_melee::input::clans;
use skirmish::games::clan_melee::rules::Mode;
use skirmish::games::clan_melee::state::Field;
use skirmish::rng::{Stream, stream_rng};

fn clan(i: usize) -> Clan {
    clans::reference().swap_remove(i)
}

/// (kind name, hp) of each member at budget h, in builder order.
fn roster(c: &Clan, h: i32, seed: u64) -> Vec<(String, i32)> {
    let mut out: Vec<Made> = Vec::new();
    c.build(h, &mut stream_rng(seed, 0, Stream::Roster), &mut out)
        .unwrap();
    each_member(&out)
        .map(|(k, hp)| (c.kinds[k as usize].name.clone(), hp))
        .collect()
}

/// Members as (kind, hp, how many), merging runs.
fn runs(r: &[(String, i32)]) -> Vec<(String, i32, usize)> {
    let mut out: Vec<(String, i32, usize)> = Vec::new();
    for (k, hp) in r {
        match out.last_mut() {
            Some((lk, lh, n)) if lk == k && lh == hp => *n += 1,
            _ => out.push((k.clone(), *hp, 1)),
        }
    }
    out
}

fn total(r: &[(String, i32)]) -> i64 {
    r.iter().map(|(_, h)| (*h).min(1000) as i64).sum()
}

fn s(k: &str, hp: i32, n: usize) -> (String, i32, usize) {
    (k.to_string(), hp, n)
}

#[test]
fn all_nine_compile_in_factory_order() {
    let names: Vec<String> = clans::reference().into_iter().map(|c| c.name).collect();
    assert_eq!(
        names,
        [
            "Clan1",
            "Clan2",
            "ClanSALT8YourHeart",
            "ClanSALTcoward",
            "ClanSALTdStaxx",
            "ClanSALTfightingArtichokes",
            "ClanSALTjamesZerkerClan",
            "ClanSALTnoForgiveness",
            "ClanSALTsaltGolems"
        ]
    );
}

// Section 2.0: pools of 3H/20, 3H/20, 3H/10, 2H/5 cut into 200, 600, 500 and 900.
#[test]
fn clan1_cuts_four_fixed_shares_into_pieces() {
    let c = clan(0);
    assert_eq!(
        runs(&roster(&c, 100, 1)),
        [
            s("standard_healer", 15, 1),
            s("advanced_healer", 15, 1),
            s("barbarian", 30, 1),
            s("assassin", 40, 1)
        ]
    );
    let r = roster(&c, 9501, 1);
    assert_eq!(r.len(), 22);
    assert_eq!(
        runs(&r),
        [
            s("standard_healer", 200, 7),
            s("standard_healer", 25, 1),
            s("advanced_healer", 600, 2),
            s("advanced_healer", 225, 1),
            s("barbarian", 500, 5),
            s("barbarian", 350, 1),
            s("assassin", 900, 4),
            s("assassin", 200, 1)
        ]
    );
    for h in [96, 104, 951, 999, 1000, 1049, 2001, 104_999] {
        let t = total(&roster(&c, h, 1));
        assert!(
            t <= h as i64 && (h % 20 != 0 || t == h as i64),
            "H {h}: {t}"
        );
    }
}

// Section 2.1: equal pieces by budget band, each member's kind by two fair flips.
#[test]
fn clan2_fields_equal_pieces_of_random_kinds() {
    let c = clan(1);
    let hps = |h| {
        let r = roster(&c, h, 3);
        let mut v: Vec<i32> = r.iter().map(|(_, h)| *h).collect();
        v.sort();
        v.dedup();
        (r.len(), v, total(&r))
    };
    assert_eq!(hps(99), (11, vec![9], 99));
    assert_eq!(hps(104), (11, vec![4, 10], 104));
    assert_eq!(hps(999), (53, vec![11, 19], 999));
    assert_eq!(roster(&c, 15, 1), [("simple_warrior".to_string(), 15)]);
    let big = roster(&c, 10_000_000, 1);
    assert_eq!((big.len(), total(&big)), (10_000, 10_000_000));
    for k in [
        "simple_warrior",
        "angry_warrior",
        "simple_healer",
        "selfless_healer",
    ] {
        let n = big.iter().filter(|(x, _)| x == k).count();
        assert!(
            (2_300..2_700).contains(&n),
            "{k}: {n} of 10,000 (a quarter each)"
        );
    }
}

// Section 2.2: always 25 members of H / 25, capped at 1000 by the engine.
#[test]
fn salt_8_your_heart_fields_25_equal_members() {
    let c = clan(2);
    assert_eq!(
        runs(&roster(&c, 104, 1)),
        [
            s("paladin", 4, 5),
            s("golem", 4, 5),
            s("grunt", 4, 5),
            s("dryad", 4, 5),
            s("medic", 4, 5)
        ]
    );
    assert_eq!(roster(&c, 24, 1).iter().filter(|m| m.1 == 0).count(), 25);
    assert_eq!(total(&roster(&c, 10_000_000, 1)), 25_000, "the cap binds");
}

#[test]
fn coward_fields_h_one_hp_warriors_and_james_zerker_none() {
    assert_eq!(runs(&roster(&clan(3), 951, 1)), [s("coward", 1, 951)]);
    assert_eq!(roster(&clan(3), 10_000_000, 1).len(), 10_000_000);
    for h in [96, 9501, 10_000_000] {
        assert!(roster(&clan(6), h, 1).is_empty());
    }
}

// Section 2.4: P = H / 5 into healers of 200 and three warrior groups of 300; 0.8H used.
#[test]
fn dstaxx_uses_four_fifths_of_its_budget() {
    let r = roster(&clan(4), 9501, 1);
    assert_eq!(
        runs(&r),
        [
            s("healer", 200, 9),
            s("healer", 100, 1),
            s("artillery", 300, 6),
            s("artillery", 100, 1),
            s("soldier", 300, 6),
            s("soldier", 100, 1),
            s("trigger_happy", 300, 6),
            s("trigger_happy", 100, 1)
        ]
    );
    assert_eq!(total(&r), 4 * 1900);
}

// Section 2.5: H = 2001 gives 9 swarmers, one 1000 (Tank or Surgeon), then Snipers of 198 and
// Medics of 56 from the remaining 992.
#[test]
fn fighting_artichokes_swarm_then_split() {
    let c = clan(5);
    for seed in 0..20 {
        let r = roster(&c, 2001, seed);
        assert_eq!(r[..9], vec![("swarmer".to_string(), 1); 9][..]);
        assert!(r[9].1 == 1000 && (r[9].0 == "tank" || r[9].0 == "surgeon"));
        assert!(r[10..].iter().all(|(k, h)| {
            (k == "sniper" || k == "medic") && *h <= 198 && (k == "sniper" || *h <= 56)
        }));
        assert_eq!(r[10].1, if r[10].0 == "sniper" { 198 } else { 56 });
        assert!(total(&r) <= 2001);
    }
    let big = roster(&c, 10_000_000, 1);
    let swarmers = big.iter().filter(|(k, _)| k == "swarmer").count();
    assert_eq!(swarmers, (10_000_000 - 200) / 201 + 1);
    assert!(total(&big) <= 10_000_000);
    // Below 2000: no swarmers, H = 951 all in the second split.
    let r = roster(&c, 951, 2);
    assert!(r.iter().all(|(k, _)| k == "sniper" || k == "medic"));
}

// Section 2.7: by budget band; H = 999 gives 181 / 272 / 272 / 272.
#[test]
fn no_forgiveness_rosters_by_band() {
    let c = clan(7);
    assert_eq!(roster(&c, 96, 1), [("tenderfoot".to_string(), 96)]);
    assert_eq!(
        runs(&roster(&c, 151, 1)),
        [s("tenderfoot", 75, 1), s("tenderfoot", 76, 1)]
    );
    assert_eq!(
        runs(&roster(&c, 999, 1)),
        [
            s("nurse", 181, 1),
            s("armsman", 272, 1),
            s("airman", 272, 1),
            s("seaman", 272, 1)
        ]
    );
    let r = roster(&c, 9501, 4);
    let scouts = r.iter().filter(|(k, _)| k == "scout").count();
    assert_eq!(scouts, (9501 - 200) / 201 + 1);
    assert!(
        r.iter().filter(|(k, _)| k == "aide").all(|(_, h)| *h <= 28),
        "Aides get 28 hp (the last one less)"
    );
    assert!(total(&r) <= 9501);
}

// Section 2.8: two golems (+ a Splicer for odd H) below 1000; then golems and pairs of menders
// and a remainder healer, exactly H.
#[test]
fn salt_golems_by_band() {
    let c = clan(8);
    assert_eq!(runs(&roster(&c, 96, 1)), [s("golem", 96, 1)]);
    assert_eq!(
        runs(&roster(&c, 951, 1)),
        [s("golem", 475, 2), s("splicer", 1, 1)]
    );
    assert_eq!(runs(&roster(&c, 104, 1)), [s("golem", 52, 2)]);
    assert_eq!(
        runs(&roster(&c, 1000, 1)),
        [s("golem", 1000, 1), s("remainder", 0, 1)]
    );
    assert_eq!(
        runs(&roster(&c, 1049, 1)),
        [s("golem", 1000, 1), s("remainder", 49, 1)]
    );
    let r = roster(&c, 104_999, 1);
    assert_eq!(
        runs(&r),
        [
            s("golem", 1000, 78),
            s("mender", 500, 52),
            s("remainder", 999, 1)
        ]
    );
    assert_eq!(total(&r), 104_999);
    let r = roster(&c, 10_000_000, 1);
    assert_eq!(
        runs(&r),
        [
            s("golem", 1000, 7500),
            s("mender", 500, 5000),
            s("remainder", 0, 1)
        ]
    );
}

// Section 0.6: at 10M, turn 1 has about 10.19M participants.
#[test]
fn ten_million_budget_fields_about_10_19_million_participants() {
    let mut n = 0;
    let mut one_hp = 0;
    for c in clans::reference() {
        let r = roster(&c, 10_000_000, 9);
        if c.name != "ClanSALTcoward" {
            one_hp += r.iter().filter(|(_, h)| *h == 1).count();
        }
        n += r.len();
    }
    assert_eq!(one_hp, 99_502, "swarmers and scouts");
    assert!((10_190_000..10_195_000).contains(&n), "{n}");
}

/// Decides for kind `me` of clan `mc` against kind `other` of clan `oc` (names), sane mode.
fn decide(
    field: &Field,
    mc: usize,
    me: &str,
    hp: (i32, i32),
    oc: usize,
    other: &str,
    ohp: (i32, i32),
) -> (i32, Option<i32>) {
    let kind = |c: usize, k: &str| {
        field.kind_base[c]
            + field.clans[c]
                .kinds
                .iter()
                .position(|x| x.name == k)
                .unwrap() as u16
    };
    field.decide(
        Mode::Reference,
        kind(mc, me),
        hp.0,
        hp.1,
        kind(oc, other),
        ohp.0,
        ohp.1,
    )
}

#[test]
fn decisions_in_a_few_situations_per_clan() {
    let f = clans::reference_field();
    // Clan1: the assassin's three cases; the advanced healer only below half.
    assert_eq!(
        decide(&f, 0, "assassin", (900, 900), 1, "simple_healer", (9, 9)).0,
        32
    );
    assert_eq!(
        decide(&f, 0, "assassin", (900, 900), 1, "angry_warrior", (3, 9)).0,
        48
    );
    assert_eq!(
        decide(&f, 0, "assassin", (900, 900), 1, "angry_warrior", (4, 9)).0,
        16
    );
    assert_eq!(
        decide(&f, 0, "assassin", (900, 900), 0, "barbarian", (4, 9)).0,
        0
    );
    assert_eq!(
        decide(
            &f,
            0,
            "advanced_healer",
            (600, 600),
            0,
            "barbarian",
            (4, 10)
        )
        .0,
        20
    );
    assert_eq!(
        decide(
            &f,
            0,
            "advanced_healer",
            (600, 600),
            0,
            "barbarian",
            (5, 10)
        )
        .0,
        0
    );
    // Clan2: the simple warrior needs hp > 10 and twice the other's hp.
    assert_eq!(
        decide(&f, 1, "simple_warrior", (11, 19), 0, "barbarian", (22, 30)).0,
        10
    );
    assert_eq!(
        decide(&f, 1, "simple_warrior", (11, 19), 0, "barbarian", (23, 30)).0,
        0
    );
    assert_eq!(
        decide(&f, 1, "simple_healer", (9, 9), 1, "angry_warrior", (8, 10)).0,
        10
    );
    assert_eq!(
        decide(&f, 1, "simple_healer", (9, 9), 1, "angry_warrior", (9, 10)).0,
        0
    );
    // 8YourHeart: the grunt's ratio branch, and the dryad's -1 on a teammate at full hp.
    assert_eq!(
        decide(&f, 2, "grunt", (50, 50), 0, "barbarian", (10, 35)).0,
        30
    );
    assert_eq!(
        decide(&f, 2, "grunt", (50, 50), 0, "barbarian", (10, 200)).0,
        110
    );
    assert_eq!(
        decide(&f, 2, "grunt", (50, 50), 0, "barbarian", (30, 35)).0,
        12
    );
    assert_eq!(
        decide(&f, 2, "grunt", (49, 50), 0, "barbarian", (0, 35)).0,
        10
    );
    assert_eq!(decide(&f, 2, "dryad", (50, 50), 2, "golem", (40, 40)).0, -1);
    assert_eq!(
        decide(&f, 2, "paladin", (10, 50), 0, "barbarian", (30, 35)).0,
        30
    );
    // Coward: anyone below 10, teammates too.
    assert_eq!(decide(&f, 3, "coward", (1, 1), 3, "coward", (1, 1)).0, 10);
    // dStaxx: its warriors hit teammates while unhurt.
    assert_eq!(
        decide(&f, 4, "artillery", (300, 300), 4, "healer", (1, 1)).0,
        10
    );
    assert_eq!(
        decide(&f, 4, "artillery", (300, 300), 0, "barbarian", (1, 1)).0,
        0
    );
    // Artichokes: the swarmer's all-in is exactly the cap.
    assert_eq!(
        decide(&f, 5, "swarmer", (1, 1), 0, "barbarian", (1, 1)).0,
        12
    );
    // noForgiveness: 1 against a full teammate; the Seaman's inverted test.
    assert_eq!(decide(&f, 7, "armsman", (30, 30), 7, "nurse", (9, 9)).0, 1);
    assert_eq!(decide(&f, 7, "seaman", (30, 30), 7, "nurse", (9, 9)).0, 12);
    assert_eq!(
        decide(&f, 7, "seaman", (30, 30), 0, "barbarian", (9, 10)).0,
        1
    );
    assert_eq!(
        decide(&f, 7, "sharpshooter", (30, 30), 0, "barbarian", (5, 60)).0,
        5
    );
    // saltGolems: a full golem spends 1000 on a full 1000-hp enemy; the Splicer's side effect.
    assert_eq!(
        decide(&f, 8, "golem", (1000, 1000), 0, "assassin", (1000, 1000)).0,
        1000
    );
    assert_eq!(
        decide(&f, 8, "splicer", (1, 1), 8, "golem", (475, 475)),
        (0, Some(475))
    );
    assert_eq!(
        decide(&f, 8, "remainder", (49, 49), 0, "barbarian", (30, 30)).0,
        30
    );
    assert_eq!(
        decide(&f, 8, "mender", (500, 500), 8, "golem", (30, 1000)).0,
        508
    );
}

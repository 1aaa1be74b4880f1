//! Clan Melee rules (docs/rules/clan-melee.md), each pinned by a small field written in the clan
//! format.

use rand::Rng;
use skirmish::games::clan_melee::input::clan::Clan;
use skirmish::games::clan_melee::kernel::engine::{End, Melee, Settings, roles};
use skirmish::games::clan_melee::rules::{self, Mode};
use skirmish::games::clan_melee::state::{Field, Participants};
use skirmish::rng::{Stream, match_stream_rng};

/// A one-kind clan: `count` members of `hp`, type `ty`, rule `ap` (an expression).
fn clan(name: &str, count: &str, hp: &str, ty: &str, ap: &str) -> Clan {
    Clan::parse(
        &format!("{name}.toml"),
        &format!(
            "name = \"{name}\"\n[[roster]]\nmembers = [{{ kind = \"k\", count = \"{count}\", hp = \"{hp}\" }}]\n\
             [kinds.k]\ntype = \"{ty}\"\nrule = [{{ ap = \"{ap}\" }}]\n"
        ),
    )
    .unwrap()
}

fn field(clans: Vec<Clan>) -> Field {
    Field::new(clans).unwrap()
}

/// Sets a melee up at budget `h` and plays one turn; returns the survivors' (hp, max) sorted.
fn one_turn(f: &Field, h: i32, mode: Mode, seed: u64) -> Vec<(i32, i32)> {
    let mut m = Melee::new();
    m.setup(f, h, &mut match_stream_rng(seed, Stream::Roster));
    m.turn(f, mode, &mut match_stream_rng(seed, Stream::Battle));
    let mut v: Vec<(i32, i32)> =
        m.p.hp
            .iter()
            .copied()
            .zip(m.p.max.iter().copied())
            .collect();
    v.sort();
    v
}

// CM-1
#[test]
fn the_cap_is_twice_hp_plus_ten_with_no_lower_bound() {
    assert_eq!(rules::cap(100, 20), 50);
    assert_eq!(rules::cap(30, 20), 30);
    assert_eq!(rules::cap(-40, 20), -40, "no lower bound");
    assert_eq!(rules::cap(5, -6), -2, "a zombie at -6 is forced negative");
    assert_eq!(
        Mode::Sane.floor(rules::cap(5, -6)),
        0,
        "sane mode: below 0 counts as 0"
    );
}

// CM-2
#[test]
fn self_damage_is_one_per_two_ap_past_ten_then_max_drops_by_one() {
    assert_eq!(rules::self_damage(10), 0);
    assert_eq!(rules::self_damage(11), 1);
    assert_eq!(rules::self_damage(12), 1);
    assert_eq!(rules::self_damage(13), 2);
    assert_eq!(rules::self_damage(50), 20);
    assert_eq!(rules::decay(30, 30), (29, 29));
    assert_eq!(rules::decay(10, 30), (10, 29));
    // Through a melee: two lone 30-hp warriors asking 20 each, both pay 5 and lose 1 max, then
    // hit each other for 20: 30 - 5 -> 25 (max 29) - 20 = 5.
    let f = field(vec![
        clan("a", "1", "30", "warrior", "20"),
        clan("b", "1", "30", "warrior", "20"),
    ]);
    assert_eq!(one_turn(&f, 30, Mode::Sane, 1), [(5, 29), (5, 29)]);
}

// CM-2: the step runs only above 10 AP, so a zombie deciding at 10 AP or less keeps its
// negative hp (the original engine; running it always would floor the zombie to 0, dead).
#[test]
fn a_zombie_keeps_its_negative_hp_through_a_decision_of_ten_ap_or_less() {
    assert_eq!(rules::pay(-5, 10), -5);
    assert_eq!(rules::pay(-5, 0), -5);
    assert_eq!(
        rules::pay(-5, 11),
        0,
        "paying past 10 AP goes through the damage floor"
    );
    assert_eq!(rules::pay(30, 20), 25);
    let f = field(vec![
        clan("a", "1", "10", "healer", "0"),
        clan("b", "1", "10", "healer", "0"),
    ]);
    for seed in 0..4 {
        let mut m = Melee::new();
        m.setup(&f, 10, &mut match_stream_rng(seed, Stream::Roster));
        for i in 0..m.p.hp.len() {
            m.p.hp[i] = -5;
            m.p.max[i] = 20;
        }
        m.turn(
            &f,
            Mode::Reference,
            &mut match_stream_rng(seed, Stream::Battle),
        );
        // Each asks 0 AP (no payment), heals its partner by 0, decays: -5 of max 19.
        assert_eq!(m.p.hp, [-5, -5]);
        assert_eq!(m.p.max, [19, 19]);
    }
}

// CM-3
#[test]
fn heal_has_no_floor_and_damage_no_ceiling() {
    assert_eq!(rules::heal(5, 10, 20), 10);
    assert_eq!(rules::heal(5, 10, -8), -3, "a negative heal hurts, below 0");
    assert_eq!(rules::damage(5, 8), 0);
    assert_eq!(
        rules::damage(5, -8),
        13,
        "a negative hit raises hp past max"
    );
    assert_eq!(rules::damage(-4, 0), 0, "damage(0) kills a zombie");
}

// CM-4: a 0-hp member becomes -1 at its first decay: a zombie in reference mode, dead in sane.
#[test]
fn zombies_live_in_reference_mode_and_die_in_sane_mode() {
    assert_eq!(rules::decay(0, 0), (-1, -1));
    assert!(Mode::Reference.alive(-1) && !Mode::Sane.alive(-1));
    assert!(!Mode::Reference.alive(0) && !Mode::Sane.alive(0));
    let f = field(vec![
        clan("a", "2", "0", "healer", "0"),
        clan("b", "2", "0", "healer", "0"),
    ]);
    assert_eq!(one_turn(&f, 10, Mode::Reference, 3), [(-1, -1); 4]);
    assert!(one_turn(&f, 10, Mode::Sane, 3).is_empty());
}

// CM-5
#[test]
fn a_clan_over_budget_or_with_the_wrong_id_is_disqualified_and_the_rest_play() {
    let mut wrong_id = clan("wrong", "1", "10", "warrior", "10");
    wrong_id.clan_id = Some(7);
    let f = field(vec![
        clan("fair", "10", "10", "warrior", "10"),
        clan("greedy", "1", "H + 1", "warrior", "10"),
        wrong_id,
        clan("runaway", "H * 20", "0", "warrior", "10"),
        clan("fair too", "5", "20", "healer", "0"),
    ]);
    let o = Melee::new().play(&f, 100, &Settings::default(), 5);
    let dq: Vec<Option<&str>> = o.clans.iter().map(|c| c.disqualified.as_deref()).collect();
    assert_eq!(dq[0], None);
    assert!(
        dq[1].unwrap().contains("total 101, over the budget of 100"),
        "{dq:?}"
    );
    assert!(
        dq[2]
            .unwrap()
            .contains("carry clan ID 7 but it plays as clan 2"),
        "{dq:?}"
    );
    assert!(dq[3].unwrap().contains("more than H + 1000"), "{dq:?}");
    assert_eq!(dq[4], None);
    assert_eq!(o.participants, 15, "the valid clans play on");
    assert_eq!((o.clans[1].members, o.clans[1].hp), (0, 0));
    assert_eq!(o.clans[0].hp, 100, "equal to the budget is allowed");
}

// CM-6, CM-13: the pairs are a uniformly random matching with fair roles and a uniform sit-out,
// exactly as likely as after a full shuffle. Four members: 3 matchings x 2 x 2 roles, each
// outcome 1/12; five members: each sits out 1/5 of the turns.
#[test]
fn pairs_are_a_uniform_matching_with_fair_roles_and_a_uniform_sit_out() {
    let trials = 24_000u64;
    let mut seen = std::collections::BTreeMap::new();
    let mut sat_out = [0u32; 5];
    for seed in 0..trials {
        for n in [4u16, 5] {
            let mut p = Participants::default();
            for k in 0..n {
                p.push(1, 1, k);
            }
            let mut rng = match_stream_rng(seed, Stream::Battle);
            p.draw_pairs(&mut rng);
            let key = rng.next_u64();
            let mut pairs: Vec<(u16, u16)> = (0..n as usize / 2)
                .map(|q| {
                    let (a, b) = roles(key, q);
                    (p.kind[a], p.kind[b])
                })
                .collect();
            if n == 5 {
                sat_out[p.kind[4] as usize] += 1;
            } else {
                // The same matching with the same roles, whichever pair came first.
                pairs.sort();
                *seen.entry(pairs).or_insert(0u32) += 1;
            }
        }
    }
    assert_eq!(seen.len(), 12, "{seen:?}");
    for (pairs, &count) in &seen {
        // Expected 2,000 each, standard deviation about 43.
        assert!((1_800..2_200).contains(&count), "{pairs:?}: {count}");
    }
    for (k, &count) in sat_out.iter().enumerate() {
        // Expected 4,800 each, standard deviation about 62.
        assert!(
            (4_500..5_100).contains(&count),
            "member {k} sat out {count} times"
        );
    }
}

// CM-7: p1 decides seeing p2 untouched; p2 sees p1 after p1's decay. Each asks other.max - 25:
// p1 asks 5 (sees 30), p2 asks 4 (sees 29); each decays to 29 and is hit by the other.
#[test]
fn p2_decides_seeing_p1_after_p1_paid_and_decayed() {
    let f = field(vec![
        clan("a", "1", "30", "warrior", "other.max - 25"),
        clan("b", "1", "30", "warrior", "other.max - 25"),
    ]);
    for seed in 0..10 {
        assert_eq!(one_turn(&f, 30, Mode::Sane, seed), [(24, 29), (25, 29)]);
    }
}

// CM-8, CM-13: a warrior hits a partner that ran away (AP <= 0) only on heads of its coin.
#[test]
fn a_warrior_hits_a_runaway_half_the_time() {
    let f = field(vec![
        clan("hitter", "1", "100", "warrior", "same * 0 + 10"),
        clan("runner", "1", "100", "warrior", "0"),
    ]);
    let mut hit = 0;
    for seed in 0..4000 {
        let after = one_turn(&f, 100, Mode::Sane, seed);
        // The runner ends at 89 when hit (decay to 99, then 10), else 99; the hitter at 99.
        hit += after.contains(&(89, 99)) as u32;
        assert!(after.contains(&(99, 99)));
    }
    assert!((1850..2150).contains(&hit), "{hit} hits of 4000");
}

// CM-8: a healer heals whoever it meets; a member that spent itself to 0 still acts and can be
// healed back the same turn.
#[test]
fn healers_always_heal_even_enemies_and_a_member_at_zero_still_acts() {
    let f = field(vec![
        clan("medic", "1", "100", "healer", "10"),
        clan("berserk", "1", "20", "warrior", "10 + 2 * me.hp"),
    ]);
    for seed in 0..10 {
        // The berserker pays 20 (to 0, max 19), hits the medic for 50 (99 -> 49), and the medic
        // heals it, an enemy, by 10.
        assert_eq!(one_turn(&f, 100, Mode::Sane, seed), [(10, 19), (49, 99)]);
    }
}

// CM-11
#[test]
fn reference_mode_credits_clan_0_when_the_survivors_total_is_not_positive() {
    let f = field(vec![
        clan("mortal", "1", "1", "healer", "0"),
        clan("zombie", "1", "0", "healer", "0"),
        clan("absent", "0", "1", "healer", "0"),
    ]);
    let reference = Settings {
        mode: Mode::Reference,
        max_turns: 10,
        ..Settings::default()
    };
    let o = Melee::new().play(&f, 10, &reference, 1);
    assert_eq!(
        (o.end, o.survivor, o.credited),
        (End::Won, Some(1), Some(0))
    );
    assert_eq!(o.clans[1].hp_left, -1);
    let o = Melee::new().play(&f, 10, &Settings::default(), 1);
    assert_eq!((o.end, o.survivor, o.credited), (End::AllSlain, None, None));
}

// CM-12
#[test]
fn an_all_negative_healer_field_is_a_deadlock_and_a_long_melee_hits_the_turn_cap() {
    let zombies = field(vec![
        clan("a", "3", "0", "healer", "0"),
        clan("b", "2", "0", "healer", "0"),
    ]);
    let reference = Settings {
        mode: Mode::Reference,
        max_turns: 1000,
        ..Settings::default()
    };
    let o = Melee::new().play(&zombies, 10, &reference, 1);
    assert_eq!((o.end, o.turns, o.credited), (End::Deadlock, 1, None));
    // Issue 51: a cap that lets a zombie ask past the free points (here 2 x -1 + 30 = 28 > 10)
    // could make it pay iteration damage and die: no longer final, so played to the turn cap.
    let mut loose = zombies.clone();
    loose.rules.cap_bonus = 30;
    assert!(!loose.rules.deadlock_is_final() && zombies.rules.deadlock_is_final());
    let o = Melee::new().play(&loose, 10, &reference, 1);
    assert_eq!((o.end, o.turns), (End::TurnCap, 1000));
    let r = skirmish::games::clan_melee::reference::play(&loose, 10, &reference, 1);
    assert_eq!(r, o);
    let healers = field(vec![
        clan("a", "1", "1000", "healer", "0"),
        clan("b", "1", "1000", "healer", "0"),
    ]);
    let capped = Settings {
        mode: Mode::Sane,
        max_turns: 5,
        ..Settings::default()
    };
    let o = Melee::new().play(&healers, 1000, &capped, 1);
    assert_eq!((o.end, o.turns, o.credited), (End::TurnCap, 5, None));
    // Uncapped, sane mode ends by decay: max 1000 falls 1 a turn.
    let o = Melee::new().play(&healers, 1000, &Settings::default(), 1);
    assert_eq!((o.end, o.turns), (End::AllSlain, 1000));
}

// CM-30: k = base / 20; H within base +- (k - 1); none below 20.
#[test]
fn the_wiggle_stays_within_five_percent() {
    let mut seen = std::collections::BTreeSet::new();
    for s in 0..2000 {
        let h = rules::wiggle(100, &mut match_stream_rng(s, Stream::Budget));
        assert!((96..=104).contains(&h), "{h}");
        seen.insert(h);
        assert_eq!(
            rules::wiggle(19, &mut match_stream_rng(s, Stream::Budget)),
            19
        );
    }
    assert_eq!(seen.len(), 9, "every value of 96..=104 occurs");
}

#[test]
fn malformed_clan_files_name_the_field_and_the_fix() {
    let bad = |text: &str| Clan::parse("bad.toml", text).unwrap_err().to_string();
    let base = "name = \"x\"\n[[roster]]\nmembers = [{ kind = \"k\", count = 1, hp = 5 }]\n[kinds.k]\ntype = \"warrior\"\n";
    let e = bad(&format!("{base}rule = [{{ ap = \"other.hq\" }}]\n"));
    assert!(
        e.contains("bad.toml")
            && e.contains("kinds.k.rule[0].ap")
            && e.contains("did you mean `other.hp`"),
        "{e}"
    );
    let e = bad(&format!("{base}rule = [{{ when = \"same\", ap = 1 }}]\n"));
    assert!(e.contains("the last case needs no `when`"), "{e}");
    let e = bad(&format!("{base}rule = [{{ ap = 1, dammage_other = 2 }}]\n"));
    assert!(
        e.contains("bad.toml:6") && e.contains("unknown field `dammage_other`"),
        "{e}"
    );
    let e = bad(
        "name = \"x\"\n[[roster]]\nmembers = [{ kind = \"kk\", count = 1, hp = 5 }]\n[kinds.k]\ntype = \"warrior\"\nrule = [{ ap = 1 }]\n",
    );
    assert!(
        e.contains("roster[0].members[0].kind") && e.contains("did you mean `k`"),
        "{e}"
    );
    let e = bad(&base
        .replace("warrior", "wizard")
        .replace("[kinds.k]\n", "[kinds.k]\nrule = [{ ap = 1 }]\n"));
    assert!(
        e.contains("kinds.k.type") && e.contains("\"warrior\" or \"healer\""),
        "{e}"
    );
}

#[test]
fn cm20_expressions_nest_at_most_64_deep() {
    let clan = |hp: &str| {
        Clan::parse(
            "deep.toml",
            &format!(
                "name = \"x\"\n[[roster]]\nmembers = [{{ kind = \"k\", count = 1, hp = \"{hp}\" }}]\n[kinds.k]\ntype = \"warrior\"\nrule = [{{ ap = 10 }}]\n"
            ),
        )
    };
    let nested = |d: usize| format!("{}5{}", "(".repeat(d), ")".repeat(d));
    assert!(clan(&nested(60)).is_ok(), "60 deep is within the limit");
    let e = clan(&nested(15_000)).unwrap_err().to_string();
    assert!(
        e.contains("deep.toml:")
            && e.contains("roster[0].members[0].hp")
            && e.contains("nested more than 64 deep"),
        "{e}"
    );
}

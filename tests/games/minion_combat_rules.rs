//! Minion Combat Pipeline: a test per rule entry (MC-n in docs/rules/minion-combat.md), on
//! hand-built groups whose every number is known.

use skirmish::games::minion_combat::input::{self, catalogue};
use skirmish::games::minion_combat::reference::{Blow, Fight, Hook, Quiet, Tiebreak, Who, combat};
use skirmish::games::minion_combat::rules::{Estimate, Rules};
use skirmish::games::minion_combat::state::{End, Group, Minion, Owner};

fn m(
    name: &str,
    hand: Option<i32>,
    missile: Option<i32>,
    attacks: u32,
    armor: i32,
    hp: i32,
    level: i32,
) -> Minion {
    Minion {
        name: name.into(),
        recruit: true,
        hand,
        missile,
        attacks,
        armor,
        hp,
        max_hp: hp,
        level,
        nation: None,
        flight: false,
        enchanted: false,
        clauses: Vec::new(),
    }
}
fn sword(hp: i32) -> Minion {
    m("swordsman", Some(2), None, 1, 1, hp, 1)
}
fn archer(hp: i32) -> Minion {
    m("archer", None, Some(2), 1, 0, hp, 1)
}
fn group(name: &str, owner: Owner, minions: Vec<Minion>) -> Group {
    Group {
        name: name.into(),
        owner,
        age: 0,
        minions,
    }
}

/// Every attack, choice and death, as (round, attacker, victim, blow).
#[derive(Default)]
struct Log {
    blows: Vec<(u32, Who, Who, Blow)>,
    wise: Vec<(u32, Who, Who, Tiebreak)>,
    pairs: Vec<(u32, Who, Who)>,
    retaliations: Vec<(u32, Who, Who)>,
    forfeits: Vec<(u32, Who)>,
    round: u32,
}
impl Hook for Log {
    fn round(&mut self, g: u32, _f: &Fight) {
        self.round = g;
    }
    fn paired(&mut self, a: Who, b: Who) {
        self.pairs.push((self.round, a, b));
    }
    fn wise(&mut self, x: Who, v: Who, why: Tiebreak) {
        self.wise.push((self.round, x, v, why));
    }
    fn retaliates(&mut self, x: Who, v: Who) {
        self.retaliations.push((self.round, x, v));
    }
    fn forfeits(&mut self, x: Who, _n: u32) {
        self.forfeits.push((self.round, x));
    }
    fn blow(&mut self, x: Who, v: Who, b: &Blow, _f: &Fight) {
        self.blows.push((self.round, x, v, *b));
    }
}

fn play(
    a: Group,
    b: Group,
    r: &Rules,
    seed: u64,
) -> (skirmish::games::minion_combat::state::Outcome, Log) {
    let mut log = Log::default();
    let o = combat([&a, &b], r, seed, &mut log);
    (o, log)
}

#[test]
fn mc_1_a_group_is_all_recruits_or_all_monsters_and_one_to_eight() {
    let r = Rules::default();
    let cat = catalogue::builtin();
    let mixed = "[[group]]\nminions = [\"Keeper swordsman\", \"Werewolf\"]\n[[group]]\nminions = [\"Werewolf\"]\n";
    let e = input::combat::parse("mixed.toml", mixed, &r, &cat)
        .unwrap_err()
        .to_string();
    assert!(
        e.starts_with("mixed.toml:2:1: `group[0].minions`")
            && e.contains("all recruits or all monsters"),
        "{e}"
    );
    let nine =
        "[[group]]\nminions = [\"9 x Keeper swordsman\"]\n[[group]]\nminions = [\"Werewolf\"]\n";
    let e = input::combat::parse("nine.toml", nine, &r, &cat)
        .unwrap_err()
        .to_string();
    assert!(e.contains("N from 1 to 8"), "{e}");
    let form = "[[group]]\nminions = [\"Bear form (of a swordsman)\"]\n[[group]]\nminions = [\"Werewolf\"]\n";
    let e = input::combat::parse("form.toml", form, &r, &cat)
        .unwrap_err()
        .to_string();
    assert!(e.contains("no HP of its own"), "{e}");
    let typo = "[[group]]\nminions = [\"Keeper swordsmen\"]\n[[group]]\nminions = [\"Werewolf\"]\n";
    let e = input::combat::parse("typo.toml", typo, &r, &cat)
        .unwrap_err()
        .to_string();
    assert!(e.contains("did you mean `Keeper swordsman`"), "{e}");
}

#[test]
fn mc_3_precedence_initiative_then_neutral_then_other_then_older() {
    use skirmish::games::minion_combat::state::precedes;
    let g = |o, age| Group {
        name: String::new(),
        owner: o,
        age,
        minions: vec![],
    };
    assert!(precedes(&g(Owner::Initiative, 5), &g(Owner::Neutral, 0)));
    assert!(precedes(&g(Owner::Neutral, 9), &g(Owner::Other, 0)));
    assert!(precedes(&g(Owner::Neutral, 1), &g(Owner::Neutral, 2)));
    // The precedence side attacks first: listed second but with initiative, it shoots first.
    let (_, log) = play(
        group("b", Owner::Other, vec![archer(7)]),
        group("a", Owner::Initiative, vec![archer(7)]),
        &Rules::default(),
        1,
    );
    assert_eq!(log.blows[0].1, (1, 0));
    assert_eq!(log.blows[1].1, (0, 0));
}

#[test]
fn mc_4_mc_22_the_combat_ends_when_a_group_is_wiped_out_or_after_ten_rounds() {
    let r = Rules::default();
    // Two 0-damage archers never hurt each other: ten rounds, both stand.
    let zero = m("zero", None, Some(0), 1, 0, 5, 1);
    let (o, log) = play(
        group("a", Owner::Initiative, vec![zero.clone()]),
        group("b", Owner::Other, vec![zero]),
        &r,
        3,
    );
    assert_eq!((o.end, o.rounds, o.winner), (End::Rounds, 10, None));
    assert_eq!(log.blows.len(), 20);
    // One archer kills a 1-HP minion in round 1: the combat ends there.
    let (o, _) = play(
        group("a", Owner::Initiative, vec![archer(7)]),
        group("b", Owner::Other, vec![archer(1)]),
        &r,
        3,
    );
    assert_eq!((o.end, o.rounds, o.winner), (End::Wiped, 1, Some(0)));
}

#[test]
fn mc_6_round_one_is_missiles_only_at_minus_one_and_bashers_skip_it() {
    let r = Rules::default();
    let (_, log) = play(
        group("a", Owner::Initiative, vec![sword(7), archer(7)]),
        group("b", Owner::Other, vec![sword(20)]),
        &r,
        5,
    );
    let round1: Vec<_> = log.blows.iter().filter(|b| b.0 == 1).collect();
    assert_eq!(round1.len(), 1, "only the archer attacks in round 1");
    assert_eq!(round1[0].1, (0, 1));
    assert_eq!(round1[0].3.damage, 1, "M:2 at -1");
    // With the modifier set to 0 in a rules file, it shoots 2.
    let r0 = input::rules::parse("r.toml", "missile_round_modifier = 0\n").unwrap();
    let (_, log) = play(
        group("a", Owner::Initiative, vec![archer(7)]),
        group("b", Owner::Other, vec![sword(20)]),
        &r0,
        5,
    );
    assert_eq!(log.blows[0].3.damage, 2);
}

#[test]
fn mc_7_a_minion_with_both_attacks_shoots_unless_the_rules_say_hand() {
    let both = m("both", Some(5), Some(1), 1, 0, 9, 1);
    let (_, log) = play(
        group("a", Owner::Initiative, vec![both.clone()]),
        group("b", Owner::Other, vec![sword(50)]),
        &Rules::default(),
        1,
    );
    let r2: Vec<_> = log
        .blows
        .iter()
        .filter(|b| b.0 == 2 && b.1 == (0, 0))
        .collect();
    assert_eq!(r2[0].3.damage, 1);
    let hand = input::rules::parse("r.toml", "both_attacks = \"hand\"\n").unwrap();
    let (_, log) = play(
        group("a", Owner::Initiative, vec![both]),
        group("b", Owner::Other, vec![sword(50)]),
        &hand,
        1,
    );
    assert_eq!(
        log.blows
            .iter()
            .find(|b| b.0 == 2 && b.1 == (0, 0))
            .unwrap()
            .3
            .damage,
        5
    );
    assert_eq!(log.blows[0].3.damage, 0, "round 1 is still missiles: 1 - 1");
}

#[test]
fn mc_8_mc_19_armor_is_a_pool_per_round_reset_at_its_start() {
    // Two archers (M:2) shoot one A:3 target each round: 2 soaked + 1 soaked/1 dealt.
    let tank = m("tank", None, None, 0, 3, 20, 1);
    let (o, log) = play(
        group("a", Owner::Initiative, vec![archer(7), archer(7)]),
        group("b", Owner::Other, vec![tank]),
        &Rules::default(),
        2,
    );
    let r2: Vec<&Blow> = log
        .blows
        .iter()
        .filter(|b| b.0 == 2)
        .map(|b| &b.3)
        .collect();
    assert_eq!((r2[0].soaked, r2[0].dealt), (2, 0));
    assert_eq!((r2[1].soaked, r2[1].dealt), (1, 1));
    let r3: Vec<&Blow> = log
        .blows
        .iter()
        .filter(|b| b.0 == 3)
        .map(|b| &b.3)
        .collect();
    assert_eq!(
        (r3[0].soaked, r3[0].dealt),
        (2, 0),
        "armor is back at 3 in round 3"
    );
    assert_eq!(
        r2[0].result,
        Some(skirmish::games::minion_combat::reference::Result::Bounced)
    );
    // Round 1: 1 + 1 damage, both soaked; rounds 2-10: 1 dealt each: 9 in all.
    assert_eq!(o.hp[1][0], 20 - 9);
}

#[test]
fn mc_9_mc_17_first_attack_hits_then_a_level_gap_of_g_hits_once_every_g_plus_1() {
    // A level-1 archer against a level-3 target: round 1 hits (misses infinite), then
    // miss (0 < 2), miss (1 < 2), hit (2 >= 2), miss, miss, hit, ...
    let target = m("high", None, None, 0, 0, 100, 3);
    let (_, log) = play(
        group("a", Owner::Initiative, vec![archer(7)]),
        group("b", Owner::Other, vec![target]),
        &Rules::default(),
        2,
    );
    let hits: Vec<bool> = log.blows.iter().map(|b| b.3.hit).collect();
    assert_eq!(
        hits,
        [
            true, false, false, true, false, false, true, false, false, true
        ]
    );
}

#[test]
fn mc_10_bashers_pair_up_at_random_one_to_one() {
    // Three bashers against two: two pairs each round 2, one unpaired basher wises up; over many
    // seeds each of the three is left out.
    let mut left_out = [0u32; 3];
    for seed in 0..300 {
        let (_, log) = play(
            group(
                "a",
                Owner::Initiative,
                vec![sword(50), sword(50), sword(50)],
            ),
            group("b", Owner::Other, vec![sword(50), sword(50)]),
            &Rules::default(),
            seed,
        );
        let pairs: Vec<_> = log.pairs.iter().filter(|p| p.0 == 2).collect();
        assert_eq!(pairs.len(), 2);
        let paired: Vec<usize> = pairs.iter().map(|p| p.1.1).collect();
        let out = (0..3).find(|i| !paired.contains(i)).unwrap();
        left_out[out] += 1;
        assert!(
            log.wise.iter().any(|w| w.0 == 2 && w.1 == (0, out)),
            "the unpaired basher chooses wisely"
        );
    }
    for k in left_out {
        assert!((70..=130).contains(&k), "{left_out:?}");
    }
}

#[test]
fn mc_13_an_idle_basher_retaliates_against_its_first_attacker_or_forfeits() {
    // Side a: a killer archer (M:8, armor `k_armor`) and a basher S; side b: bashers B1 (10 HP,
    // left at 4 by the archer's round-1 shot) and B2. Round 2: S pairs with B1 or B2; the other wises up (onto the higher-armored of the
    // archer and S); the archer wises onto B1 (lowest HP) and kills it before S's turn. When S
    // was paired with B1, S is idle at its turn: it retaliates against B2 if B2 aims at S, else
    // it forfeits.
    for (k_armor, retaliates) in [(0, true), (2, false)] {
        let mut seen = false;
        for seed in 0..40 {
            let killer = m("killer", None, Some(8), 1, k_armor, 50, 1);
            let (_, log) = play(
                group("a", Owner::Initiative, vec![killer, sword(50)]),
                group("b", Owner::Other, vec![sword(10), sword(50)]),
                &Rules::default(),
                seed,
            );
            if !log
                .pairs
                .iter()
                .any(|p| p.0 == 2 && p.1 == (0, 1) && p.2 == (1, 0))
            {
                continue;
            }
            seen = true;
            if retaliates {
                assert!(
                    log.retaliations.contains(&(2, (0, 1), (1, 1))),
                    "{:?}",
                    log.retaliations
                );
            } else {
                assert!(log.forfeits.contains(&(2, (0, 1))), "{:?}", log.forfeits);
                assert!(!log.blows.iter().any(|b| b.0 == 2 && b.1 == (0, 1)));
            }
        }
        assert!(seen, "some seed pairs S with B1");
    }
}

#[test]
fn mc_13_multi_attackers_spend_extra_attacks_on_random_enemies() {
    let multi = m("multi", None, Some(1), 3, 0, 500, 1);
    let (_, log) = play(
        group("a", Owner::Initiative, vec![multi]),
        group("b", Owner::Other, (0..4).map(|_| archer(100)).collect()),
        &Rules::default(),
        11,
    );
    let mine: Vec<_> = log.blows.iter().filter(|b| b.1 == (0, 0)).collect();
    assert_eq!(mine.len(), 30);
    assert!(mine.iter().filter(|b| b.3.random).count() == 20);
    let victims: std::collections::BTreeSet<usize> =
        mine.iter().filter(|b| b.3.random).map(|b| b.2.1).collect();
    assert_eq!(victims.len(), 4, "random extra attacks reach every enemy");
}

#[test]
fn mc_14_tiebreakers_in_order() {
    let r = Rules::default();
    // 3: highest max armor beats lowest HP.
    let (_, log) = play(
        group("a", Owner::Initiative, vec![archer(7)]),
        group(
            "b",
            Owner::Other,
            vec![
                m("low", None, None, 0, 0, 3, 1),
                m("armored", None, None, 0, 2, 30, 1),
            ],
        ),
        &r,
        1,
    );
    assert_eq!(log.wise[0].2, (1, 1));
    assert_eq!(log.wise[0].3, Tiebreak::HighestArmor);
    // 4: equal armor, lowest HP.
    let (_, log) = play(
        group("a", Owner::Initiative, vec![archer(7)]),
        group(
            "b",
            Owner::Other,
            vec![
                m("p", None, None, 0, 0, 30, 1),
                m("q", None, None, 0, 0, 20, 1),
            ],
        ),
        &r,
        1,
    );
    assert_eq!((log.wise[0].2, log.wise[0].3), ((1, 1), Tiebreak::LowestHp));
    // 5: equal armor and HP, highest damage per single attack.
    let (_, log) = play(
        group("a", Owner::Initiative, vec![archer(7)]),
        group(
            "b",
            Owner::Other,
            vec![
                m("p", Some(5), None, 1, 0, 30, 1),
                m("q", None, Some(6), 1, 0, 30, 1),
            ],
        ),
        &r,
        1,
    );
    assert_eq!(
        (log.wise[0].2, log.wise[0].3),
        ((1, 1), Tiebreak::HighestDamage)
    );
    // 6: all equal: random, each side chosen over seeds.
    let mut seen = [0; 2];
    for seed in 0..100 {
        let (_, log) = play(
            group("a", Owner::Initiative, vec![archer(7)]),
            group("b", Owner::Other, vec![archer(30), archer(30)]),
            &r,
            seed,
        );
        assert_eq!(log.wise[0].3, Tiebreak::Random);
        seen[log.wise[0].2.1] += 1;
    }
    assert!(seen[0] > 30 && seen[1] > 30, "{seen:?}");
}

#[test]
fn mc_15_instant_kill_estimate_counts_groupmates_already_aiming() {
    // Round 2 choices (archers shoot 2 then): a 2-HP target is killable by one archer; a 3-HP one
    // only by two together; the other target has more armor (tiebreaker 3 would pick it).
    let round2 = |log: &Log, who: usize| {
        *log.wise
            .iter()
            .find(|w| w.0 == 2 && w.1 == (0, who))
            .unwrap()
    };
    let targets = |hp| {
        vec![
            m("weak", None, None, 0, 0, hp, 1),
            m("armored", None, None, 0, 1, 30, 1),
        ]
    };
    let r = Rules::default();
    let (_, log) = play(
        group("a", Owner::Initiative, vec![archer(7)]),
        group("b", Owner::Other, targets(2)),
        &r,
        1,
    );
    let w = round2(&log, 0);
    assert_eq!(
        (w.2, w.3),
        ((1, 0), Tiebreak::InstantKill),
        "2 >= 2 HP: killable this round"
    );
    let off = Rules {
        estimate: Estimate::Off,
        ..Rules::default()
    };
    let (_, log) = play(
        group("a", Owner::Initiative, vec![archer(7)]),
        group("b", Owner::Other, targets(2)),
        &off,
        1,
    );
    let w = round2(&log, 0);
    assert_eq!((w.2, w.3), ((1, 1), Tiebreak::HighestArmor));
    // Two archers, a 3-HP target: the first alone cannot kill it (takes the armored one); so
    // neither can the second (the first aims elsewhere): `group` and `own` agree here...
    let two = || vec![archer(7), archer(7)];
    let (_, log) = play(
        group("a", Owner::Initiative, two()),
        group("b", Owner::Other, targets(3)),
        &r,
        1,
    );
    assert_eq!(round2(&log, 1).2, (1, 1));
    // ...but a basher already locked on the 3-HP target (a duel) makes it killable for the
    // archer under `group` (2 + 2 >= 3), not under `own`.
    let weak_basher = m("weak", Some(1), None, 1, 0, 3, 1);
    let pair = || vec![m("s", Some(2), None, 1, 0, 50, 1), archer(50)];
    let foes = || vec![weak_basher.clone(), m("armored", None, None, 0, 1, 300, 1)];
    let (_, log) = play(
        group("a", Owner::Initiative, pair()),
        group("b", Owner::Other, foes()),
        &r,
        1,
    );
    assert!(
        log.pairs
            .iter()
            .any(|p| p.0 == 2 && p.1 == (0, 0) && p.2 == (1, 0))
    );
    assert_eq!(
        (round2(&log, 1).2, round2(&log, 1).3),
        ((1, 0), Tiebreak::InstantKill)
    );
    let own = Rules {
        estimate: Estimate::Own,
        ..Rules::default()
    };
    let (_, log) = play(
        group("a", Owner::Initiative, pair()),
        group("b", Owner::Other, foes()),
        &own,
        1,
    );
    assert_eq!(
        (round2(&log, 1).2, round2(&log, 1).3),
        ((1, 1), Tiebreak::HighestArmor)
    );
}

#[test]
fn mc_18_nation_abilities_add_in_their_round() {
    let r = Rules::default();
    let cat = catalogue::builtin();
    let (keeper, _) = input::combat::minion_spec("Keeper swordsman", &cat, &r).unwrap();
    let (elf, _) = input::combat::minion_spec("Elf archer", &cat, &r).unwrap();
    let (_, log) = play(
        group(
            "a",
            Owner::Initiative,
            vec![keeper[0].clone(), elf[0].clone()],
        ),
        group("b", Owner::Other, vec![m("wall", None, None, 0, 0, 100, 1)]),
        &r,
        1,
    );
    let dmg = |round: u32, who: usize| {
        log.blows
            .iter()
            .find(|b| b.0 == round && b.1 == (0, who))
            .unwrap()
            .3
            .damage
    };
    assert_eq!(dmg(1, 1), 2, "Elf: M:2 - 1 + 1 in round 1");
    assert_eq!(dmg(2, 1), 2);
    assert_eq!(dmg(2, 0), 3, "Keeper: H:2 + 1 in round 2");
    assert_eq!(dmg(3, 0), 2);
}

#[test]
fn mc_21_a_killing_recruit_qualifies_for_experience() {
    let (o, _) = play(
        group("a", Owner::Initiative, vec![archer(7)]),
        group("b", Owner::Other, vec![archer(1)]),
        &Rules::default(),
        1,
    );
    assert_eq!(o.qualified(0), [true]);
    let mut monster = archer(7);
    monster.recruit = false;
    let (o, _) = play(
        group("a", Owner::Initiative, vec![monster]),
        group("b", Owner::Other, vec![archer(1)]),
        &Rules::default(),
        1,
    );
    assert_eq!(o.qualified(0), [false]);
}

#[test]
fn mc_25_modifiers_change_stats_and_are_checked() {
    let r = Rules::default();
    let cat = catalogue::builtin();
    let (v, _) = input::combat::minion_spec("2 x Keeper swordsman + Veteran", &cat, &r).unwrap();
    assert_eq!(v.len(), 2);
    assert_eq!((v[0].hand, v[0].armor, v[0].max_hp), (Some(3), 2, 11));
    let e = input::combat::minion_spec("Werewolf + Veteran", &cat, &r)
        .unwrap_err()
        .to_string();
    assert!(e.contains("applies to recruit"), "{e}");
    let e = input::combat::minion_spec("Keeper swordsman + Veteran + Veteran", &cat, &r)
        .unwrap_err()
        .to_string();
    assert!(e.contains("not stackable"), "{e}");
}

#[test]
fn mc_30_a_combat_is_a_function_of_its_seed() {
    let r = Rules::default();
    let cat = catalogue::builtin();
    let c = input::combat::from_flag(
        &skirmish::platform::sources::Sources::disk(),
        None,
        &r,
        &cat,
    )
    .unwrap();
    let g = [&c.groups[0], &c.groups[1]];
    let a = combat(g, &r, 9, &mut Quiet);
    assert_eq!(a, combat(g, &r, 9, &mut Quiet));
    let differs = (0..20).any(|s| combat(g, &r, s, &mut Quiet) != a);
    assert!(differs, "seeds change the random choices");
}

#[test]
fn shipped_files_load_and_the_catalogue_keeps_its_attribution() {
    let cat = catalogue::builtin();
    assert_eq!(cat.minions.len(), 152);
    // 79 from modifiers.csv and 3 triggered-only alterations (MC-41).
    assert_eq!(cat.modifiers.len(), 82);
    assert!(input::MINIONS.contains("open-sanctum/sanctum-cards"));
    assert!(input::MODIFIERS.contains("CC-BY 4.0"));
    assert_eq!(
        input::rules::from_flag(&skirmish::platform::sources::Sources::disk(), None).unwrap(),
        Rules::default()
    );
}

mod board {
    use skirmish::games::minion_combat::board::{Board, Step, play_quiet};
    use skirmish::games::minion_combat::input::{board, catalogue};
    use skirmish::games::minion_combat::reference::{Quiet, combat};
    use skirmish::games::minion_combat::rules::Rules;
    use skirmish::rng::match_seed;

    fn parse(text: &str) -> Board {
        board::parse("board.toml", text, &Rules::default(), &catalogue::builtin()).unwrap()
    }

    /// A group `label` of `player` fielding `minions`.
    fn group(label: &str, player: &str, minions: &str) -> String {
        format!("[[group]]\nlabel = \"{label}\"\nplayer = \"{player}\"\nminions = [{minions}]\n")
    }

    fn surrounded(initiative: &str, order: &str, reds: [&str; 4]) -> String {
        let mut t = format!(
            "seed = 5\ninitiative = \"{initiative}\"\n{order}map = [\". N .\", \"W B E\", \". S .\"]\n"
        );
        t.push_str(&group("B", "blue", "\"Juggernaut\""));
        for l in reds {
            t.push_str(&group(l, "red", "\"Revenant\""));
        }
        t
    }

    fn steps(b: &mut Board) -> Vec<(String, String, Step)> {
        let f = play_quiet(b, &Rules::default());
        f.iter()
            .map(|x| {
                (
                    b.groups[x.a].label.clone(),
                    b.groups[x.b].label.clone(),
                    x.step,
                )
            })
            .collect()
    }

    #[test]
    fn mc_5b_a_surrounded_group_with_precedence_fights_in_the_pages_order() {
        let mut b = parse(&surrounded("blue", "", ["N", "S", "E", "W"]));
        let got = steps(&mut b);
        let want = [
            ("B", "N", Step::North),
            ("B", "S", Step::South),
            ("B", "E", Step::East),
            ("B", "W", Step::West),
        ];
        assert_eq!(got, want.map(|(a, b, s)| (a.to_string(), b.to_string(), s)));
        // The order is a reading: the host may map the page's NE, SW, SE, NW otherwise.
        let mut b = parse(&surrounded(
            "blue",
            "order = [\"west\", \"east\", \"south\", \"north\"]\n",
            ["N", "S", "E", "W"],
        ));
        let order: Vec<Step> = steps(&mut b).into_iter().map(|x| x.2).collect();
        assert_eq!(order, [Step::West, Step::East, Step::South, Step::North]);
    }

    #[test]
    fn mc_5b_a_group_without_precedence_fights_in_its_neighbours_group_sequence() {
        // Red has initiative: the reds pick, in red's group sequence (file order), wherever
        // they stand.
        let mut b = parse(&surrounded("red", "", ["E", "N", "W", "S"]));
        let got: Vec<(String, String)> = steps(&mut b).into_iter().map(|x| (x.0, x.1)).collect();
        let want = ["E", "N", "W", "S"].map(|l| (l.to_string(), "B".to_string()));
        assert_eq!(got, want);
    }

    #[test]
    fn mc_5b_losses_carry_and_a_wiped_group_leaves_the_board() {
        let text = format!(
            "seed = 9\ninitiative = \"blue\"\nmap = [\"R1 B R2\"]\n{}{}{}",
            group("B", "blue", "\"2 x Keeper swordsman\", \"Keeper archer\""),
            group("R1", "red", "\"Werewolf\""),
            group("R2", "red", "\"2 x Werewolf\""),
        );
        let mut b = parse(&text);
        let start = b.clone();
        let f = play_quiet(&mut b, &Rules::default());
        // East (R2) comes before west (R1) in the page's order.
        assert_eq!(b.groups[f[0].b].label, "R2");
        // Replayed by hand: combat 1, the survivors' HP carried, combat 2.
        let r = Rules::default();
        let (mut g, r2, r1) = (
            start.groups[0].group.clone(),
            start.groups[2].group.clone(),
            start.groups[1].group.clone(),
        );
        let o1 = combat([&g, &r2], &r, match_seed(9, 0), &mut Quiet);
        assert_eq!(o1, f[0].outcome);
        for (i, m) in g.minions.iter_mut().enumerate() {
            m.hp = o1.hp[0][i];
        }
        g.minions.retain(|m| m.hp > 0);
        if g.minions.is_empty() {
            assert_eq!(f.len(), 1, "a wiped-out group fights no more");
            assert!(b.groups[0].group.minions.is_empty());
        } else {
            let o2 = combat([&g, &r1], &r, match_seed(9, 1), &mut Quiet);
            assert_eq!(f.len(), 2);
            assert_eq!(
                o2, f[1].outcome,
                "the second combat starts from the first's losses"
            );
            assert!(
                o1.hp_left(0)
                    < start.groups[0]
                        .group
                        .minions
                        .iter()
                        .map(|m| m.hp as i64)
                        .sum::<i64>()
            );
        }
    }

    #[test]
    fn mc_5b_neutral_groups_are_checked_last_and_each_pair_fights_once() {
        // Blue B, red R and neutral N in a row, and a second neutral M under N; non-combatants,
        // so every combat ends with both standing and every pair can meet.
        let text = |hostile: bool| {
            format!(
                "initiative = \"blue\"\nneutral_hostile = {hostile}\nmap = [\"B R N\", \". . M\"]\n{}{}{}{}",
                group("B", "blue", "\"Bellwether\""),
                group("R", "red", "\"Bellwether\""),
                group("N", "neutral", "\"Bellwether\""),
                group("M", "neutral", "\"Bellwether\""),
            )
        };
        let mut b = parse(&text(true));
        let got: Vec<(String, String)> = steps(&mut b).into_iter().map(|x| (x.0, x.1)).collect();
        // Blue first (B picks R); red has precedence over nobody; then the neutrals: N (older)
        // picks M to its south before R to its west, per the page's order; M finds N fought.
        let want =
            [("B", "R"), ("N", "M"), ("N", "R")].map(|(a, b)| (a.to_string(), b.to_string()));
        assert_eq!(got, want);
        let mut b = parse(&text(false));
        let got: Vec<(String, String)> = steps(&mut b).into_iter().map(|x| (x.0, x.1)).collect();
        assert!(
            !got.contains(&("N".to_string(), "M".to_string())),
            "{got:?}"
        );
    }
}

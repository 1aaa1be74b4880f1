//! Golden test: the rules' "Sample round 1", from the bids to the winner, numbers and all.
//! Where the sample's text slips against its own rules, the rules' number is asserted and the
//! slip is recorded in docs/rules/auto-rumble.md (S-1 .. S-6).

use skirmish::games::auto_rumble::game::bidding::resolve_round;
use skirmish::games::auto_rumble::input::scenario;
use skirmish::games::auto_rumble::reference::hand as reference;
use skirmish::games::auto_rumble::state::{HeroId, RoundView};
use skirmish::games::auto_rumble::trace::hand::{Hit, JsonTrace, Observer, RoundRecorder};
use skirmish::games::auto_rumble::{EndReason, HeroSpec, Kernel, Lineup, Power, UseItem, rules};

const ALICE: HeroId = 0;
const BOB: HeroId = 1;
const CHARLIE: HeroId = 2;

/// Offered in the order the sample lists them, which is `Power::ALL`'s order.
const OFFERED: [Power; 6] = Power::ALL;

/// "Alice bids 6 coins on Souleater and Titanium Skin and 4 coins on each of the 4 powers. Bob
/// bids 5 coins on Amoeba and Cosmic Shield, 10 on Crystallize, and 3 coins on the others. Charlie
/// bids 7 coins on Big, Gnashy Claws, 10 coins on Crystallize, and 2 coins on the others."
fn sample_bids() -> Vec<Vec<i32>> {
    vec![
        vec![4, 4, 4, 6, 4, 6],
        vec![5, 3, 5, 3, 10, 3],
        vec![2, 7, 2, 2, 10, 2],
    ]
}

/// The sample's heroes as the bids make them, with the sample's base initiatives.
fn heroes_from_bids() -> Vec<HeroSpec> {
    let r = resolve_round(&OFFERED, &[30, 30, 30], &sample_bids()).unwrap();
    let bases = [0.25, 0.75, 0.5];
    ["Alice", "Bob", "Charlie"]
        .iter()
        .enumerate()
        .map(|(p, name)| {
            let powers = r.won[p].clone();
            HeroSpec {
                name: name.to_string(),
                coins: r.balances[p],
                base_initiative: Some(bases[p]),
                order: skirmish::games::auto_rumble::input::roster::default_order(&powers),
                powers,
            }
        })
        .collect()
}

#[derive(Default)]
struct Events {
    round: u32,
    shields: Vec<(u32, HeroId, i32)>,
    hits: Vec<(u32, HeroId, HeroId, Hit)>,
    crystallize: Vec<(u32, HeroId, i32)>,
    deaths: Vec<(u32, HeroId)>,
    souleater: Vec<(u32, HeroId, i32)>,
    rounds: RoundRecorder,
}

impl Observer for Events {
    fn round_start(&mut self, round: u32, _alive: u32) {
        self.round = round;
    }
    fn shield(&mut self, hero: HeroId, defence: i32) {
        self.shields.push((self.round, hero, defence));
    }
    fn hit(&mut self, attacker: HeroId, target: HeroId, hit: &Hit) {
        self.hits.push((self.round, attacker, target, *hit));
    }
    fn crystallize(&mut self, hero: HeroId, gain: i32) {
        self.crystallize.push((self.round, hero, gain));
    }
    fn death(&mut self, hero: HeroId) {
        self.deaths.push((self.round, hero));
    }
    fn souleater(&mut self, hero: HeroId, _eliminated: u32, gain: i32, _energy: i32) {
        self.souleater.push((self.round, hero, gain));
    }
    fn round_end(&mut self, round: u32, heroes: RoundView<'_>) {
        self.rounds.round_end(round, heroes);
    }
}

fn play_sample() -> (Events, skirmish::games::auto_rumble::Outcome) {
    let lineup = Lineup::compile(&heroes_from_bids()).unwrap();
    let initiative: Vec<f64> = lineup
        .builds
        .iter()
        .zip(&lineup.base_initiatives)
        .map(|(b, base)| rules::initiative(b.coins, base.unwrap()))
        .collect();
    let mut ev = Events::default();
    let o = Kernel::new(rules::DEFAULT_CAPACITY).run(&lineup.builds, &initiative, 30, &mut ev);
    (ev, o)
}

/// Ids: Alice 0, Bob 1, Charlie 2; copies from 3 in creation order. After round 1 Bob 1 = 1,
/// Bob 2 = 3; after round 2 Bob 1A = 1, 1B = 4, 2A = 3, 2B = 5.
const BOB_1A: HeroId = 1;
const BOB_1B: HeroId = 4;
const BOB_2A: HeroId = 3;
const BOB_2B: HeroId = 5;

// AR-21: "Bob and Charlie win Crystallize, Bob wins Amoeba and Cosmic Shield, Charlie wins Big,
// Gnashy Claws, Alice wins Souleater and Titanium Skin. Alice now has 18 coins, Bob now has 10
// coins and Charlie now has 13 coins."
#[test]
fn sample_bids_give_the_samples_powers_and_balances() {
    let r = resolve_round(&OFFERED, &[30, 30, 30], &sample_bids()).unwrap();
    assert_eq!(r.balances, vec![18, 10, 13]);
    let held = |p: usize| {
        r.won[p]
            .iter()
            .map(|h| (h.power, h.strength))
            .collect::<Vec<_>>()
    };
    assert_eq!(
        held(0),
        vec![(Power::Souleater, 6), (Power::TitaniumSkin, 6)]
    );
    assert_eq!(
        held(1),
        vec![
            (Power::Crystallize, 10),
            (Power::Amoeba, 5),
            (Power::CosmicShield, 5)
        ]
    );
    assert_eq!(
        held(2),
        vec![(Power::Crystallize, 10), (Power::BigGnashyClaws, 7)]
    );
    assert!(r.unsold.is_empty());
    // Next round's income: "Alice enters round 2 of bidding with 48 coins, Bob with 40 coins, and
    // Charlie with 43 coins."
    let next: Vec<i32> = r.balances.iter().map(|b| b + 30).collect();
    assert_eq!(next, vec![48, 40, 43]);
}

// AR-2: "Alice enters round 1's battle with 118 Energy, a 10 energy attack that hits for 16 damage
// and 18.25 initiative. Bob enters with 110 Energy, ... 14 damage, and 10.75 initiative. Charlie
// enters with 113 Energy, a 15 damage attack, and 13.5 initiative." Use orders: Attack(10);
// Attack(10), Crystallize(20); Attack(10), Crystallize(20).
#[test]
fn sample_heroes_enter_with_the_samples_stats_and_use_orders() {
    let heroes = heroes_from_bids();
    let lineup = Lineup::compile(&heroes).unwrap();
    let stats: Vec<(i32, i32, f64)> = lineup
        .builds
        .iter()
        .zip(&heroes)
        .map(|(b, h)| {
            (
                b.energy,
                b.damage,
                rules::initiative(b.coins, h.base_initiative.unwrap()),
            )
        })
        .collect();
    assert_eq!(
        stats,
        vec![(118, 16, 18.25), (110, 14, 10.75), (113, 15, 13.5)]
    );
    assert_eq!(heroes[0].order, vec![UseItem::Attack]);
    assert_eq!(
        heroes[1].order,
        vec![UseItem::Attack, UseItem::Power(Power::Crystallize)]
    );
    assert_eq!(
        heroes[2].order,
        vec![UseItem::Attack, UseItem::Power(Power::Crystallize)]
    );
}

// The shipped scenario file is exactly what the bids produce.
#[test]
fn shipped_sample_scenario_matches_the_bids() {
    let sc = scenario::load(
        &skirmish::platform::sources::Sources::disk(),
        std::path::Path::new("experiments/sample-round-1.toml"),
    )
    .unwrap();
    assert_eq!(sc.heroes, heroes_from_bids());
}

// The four rounds' Energies, by the rules (AR-1 .. AR-14).
#[test]
fn sample_battle_energies_after_each_round() {
    let (ev, o) = play_sample();
    let r = &ev.rounds.rounds;
    assert_eq!(r.len(), 4);
    // "Round 2: Alice: 118 Energy ... Charlie: 84 Energy. Bob 1: 60 Energy. Bob 2: 60 Energy."
    assert_eq!(r[0], vec![(ALICE, 118), (CHARLIE, 84), (BOB, 60), (3, 60)]);
    // "Round 3: Alice: 96 Energy, Charlie: 42 Energy, Bobs: 35 Energy each"
    assert_eq!(
        r[1],
        vec![
            (ALICE, 96),
            (CHARLIE, 42),
            (BOB_1A, 35),
            (BOB_1B, 35),
            (BOB_2A, 35),
            (BOB_2B, 35)
        ]
    );
    // "Round 4: Alice: 55 Energy, Bobs: 23 Energy each" (Charlie dead).
    assert_eq!(r[2][0], (ALICE, 55));
    assert_eq!(r[2].len(), 9);
    assert!(r[2][1..].iter().all(|&(_, e)| e == 23));
    // "the Bobs multiply again, creating 16 Bobs each with 17 Energy. The Bobs win".
    assert_eq!(r[3].len(), 16);
    assert!(r[3].iter().all(|&(_, e)| e == 17));
    assert_eq!(o.winner, Some(BOB as u16));
    assert_eq!(o.rounds, 4);
    assert_eq!(o.end, EndReason::Elimination);
    assert!(!o.capped);
}

fn hit(ev: &Events, round: u32, attacker: HeroId, target: HeroId) -> Hit {
    ev.hits
        .iter()
        .find(|h| h.0 == round && h.1 == attacker && h.2 == target)
        .map(|h| h.3)
        .unwrap_or_else(|| panic!("no hit {attacker} -> {target} in round {round}"))
}

// Round 1 hit by hit (AR-4, AR-5, AR-7, AR-8, AR-12).
#[test]
fn sample_round_1_hit_by_hit() {
    let (ev, _) = play_sample();
    // "Bob has 30 defence from Cosmic Shield"
    assert_eq!(ev.shields.iter().find(|s| s.0 == 1).map(|s| s.2), Some(30));
    // "Charlie has no defence so loses 16 Energy (97). Bob ... loses 0 Energy and has 14 defence"
    let h = hit(&ev, 1, ALICE, CHARLIE);
    assert_eq!((h.to_energy, h.energy_after), (16, 97));
    let h = hit(&ev, 1, ALICE, BOB);
    assert_eq!((h.to_energy, h.defence_left), (0, 14));
    // "Alice has Titanium skin so the 15 damage is prevented. Bob ... only loses 1 Energy (109)."
    let h = hit(&ev, 1, CHARLIE, ALICE);
    assert_eq!((h.by_prevention, h.to_energy), (15, 0));
    let h = hit(&ev, 1, CHARLIE, BOB);
    assert_eq!((h.by_defence, h.to_energy, h.energy_after), (14, 1, 109));
    // "Charlie has 1 defence so only loses 13 Energy (84)."
    let h = hit(&ev, 1, BOB, CHARLIE);
    assert_eq!((h.by_defence, h.energy_after), (1, 84));
    // "Titanium skin 29/50" used after round 1.
    assert_eq!(hit(&ev, 1, BOB, ALICE).prevention_left, 50 - 29);
    // "gaining 1 defence" for both Crystallize users.
    assert_eq!(
        ev.crystallize
            .iter()
            .filter(|c| c.0 == 1)
            .map(|c| c.2)
            .collect::<Vec<_>>(),
        [1, 1]
    );
}

// Round 2 (AR-3: damage does not shrink the budget; AR-8: X doubles; AR-12 runs out).
#[test]
fn sample_round_2_hit_by_hit() {
    let (ev, _) = play_sample();
    // "Bob 1 and 2 have 40 defence each from Cosmic Shield ... 24 defence left over."
    assert!(ev.shields.iter().filter(|s| s.0 == 2).all(|s| s.2 == 40));
    assert_eq!(hit(&ev, 2, ALICE, BOB).defence_left, 24);
    // "Alice has Titanium skin so 6 damage is prevented (110). Charlie has 2 defence so only
    // loses 12 Energy (56)."
    let h = hit(&ev, 2, BOB, ALICE);
    assert_eq!((h.by_prevention, h.energy_after), (6, 110));
    assert_eq!(hit(&ev, 2, BOB, CHARLIE).energy_after, 56);
    // "Bob 2 ... Alice (96), Charlie (42)."
    assert_eq!(hit(&ev, 2, 3, ALICE).energy_after, 96);
    assert_eq!(hit(&ev, 2, 3, CHARLIE).energy_after, 42);
    assert!(ev.crystallize.iter().filter(|c| c.0 == 2).all(|c| c.2 == 2));
}

// S-1: six heroes alive at the start of round 3 give 60 defence, not the sample's 70.
#[test]
fn slip_s1_round_3_cosmic_shield_is_60_not_70() {
    let (ev, _) = play_sample();
    let r3: Vec<i32> = ev
        .shields
        .iter()
        .filter(|s| s.0 == 3)
        .map(|s| s.2)
        .collect();
    assert_eq!(r3, vec![60; 4]);
    assert_eq!(
        hit(&ev, 3, ALICE, BOB_1A).defence_left,
        44,
        "60 - 16, where the sample says 54"
    );
}

// S-2 and S-4: Charlie's 4 defence from Crystallize counts against Bob 1A; Bob 2A kills him.
#[test]
fn slip_s2_s4_charlies_crystallize_defence_counts_and_bob_2a_kills_him() {
    let (ev, _) = play_sample();
    assert_eq!(hit(&ev, 3, ALICE, CHARLIE).energy_after, 26);
    assert!(ev.crystallize.contains(&(3, CHARLIE, 4)));
    let h = hit(&ev, 3, BOB_1A, CHARLIE);
    assert_eq!(
        (h.by_defence, h.energy_after),
        (4, 16),
        "the sample says 12"
    );
    assert_eq!(
        hit(&ev, 3, BOB_1B, CHARLIE).energy_after,
        2,
        "the sample says 0, dead"
    );
    assert_eq!(hit(&ev, 3, BOB_2A, CHARLIE).energy_after, -12);
    assert_eq!(
        ev.deaths.iter().filter(|d| d.0 == 3).collect::<Vec<_>>(),
        [&(3, CHARLIE)]
    );
    // Alice's numbers agree with the sample: 81, 67, 53, 39, 25, then Souleater +30 = 55.
    let alice: Vec<i32> = ev
        .hits
        .iter()
        .filter(|h| h.0 == 3 && h.2 == ALICE)
        .map(|h| h.3.energy_after)
        .collect();
    assert_eq!(alice, vec![81, 67, 53, 39, 25]);
    assert_eq!(
        ev.souleater.iter().find(|s| s.0 == 3).map(|s| s.2),
        Some(30)
    );
}

// S-3: the copies inherited X = 4, so each Bob gains 4 in round 3, not 2.
#[test]
fn slip_s3_copies_crystallize_for_4_in_round_3() {
    let (ev, _) = play_sample();
    for bob in [BOB_1A, BOB_1B, BOB_2A, BOB_2B] {
        assert!(ev.crystallize.contains(&(3, bob, 4)), "Bob {bob}");
    }
}

// Round 4: "Bob 1A1 ... starts the dogpile on Alice (41), then is unable to use Crystallize
// ... Alice (27), ... (13), Bob 1B2 takes the kill on Alice" (-1; S-6: the sample writes 0).
#[test]
fn sample_round_4_dogpile_and_no_crystallize_at_23_energy() {
    let (ev, _) = play_sample();
    let alice: Vec<i32> = ev
        .hits
        .iter()
        .filter(|h| h.0 == 4 && h.2 == ALICE)
        .map(|h| h.3.energy_after)
        .collect();
    assert_eq!(alice, vec![41, 27, 13, -1]);
    assert!(
        ev.crystallize.iter().all(|c| c.0 != 4),
        "23 - 10 = 13 < 20 (AR-3)"
    );
    assert_eq!(ev.deaths.iter().filter(|d| d.0 == 4).count(), 1);
    assert!(
        ev.souleater.iter().all(|s| s.0 != 4),
        "dead Alice's Souleater does not fire (AR-5)"
    );
}

// S-5: "multiply again at the end of Round 5 to only 9 Energy each and be left unable to attack
// in Round 6": by AR-11 17 becomes 14, which still pays the 10 for an attack.
#[test]
fn slip_s5_seventeen_energy_multiplies_to_14_not_9() {
    assert_eq!(rules::amoeba_energy(17), 14);
    assert!(rules::amoeba_energy(17) >= rules::ATTACK_COST);
}

// The reference model tells the same story.
#[test]
fn sample_reference_model_agrees_with_the_kernel() {
    let (ev, o) = play_sample();
    let heroes = heroes_from_bids();
    let ini: Vec<f64> = heroes
        .iter()
        .map(|h| rules::initiative(h.coins, h.base_initiative.unwrap()))
        .collect();
    let replay = reference::play(&heroes, &ini, 30, rules::DEFAULT_CAPACITY);
    assert_eq!(replay.rounds, ev.rounds.rounds);
    assert_eq!(replay.outcome, o);
}

// Golden playthrough file (OpenSpiel-style): the --trace output of the sample, byte for byte.
#[test]
fn sample_trace_matches_the_golden_playthrough_file() {
    let sc = scenario::load(
        &skirmish::platform::sources::Sources::disk(),
        std::path::Path::new("experiments/sample-round-1.toml"),
    )
    .unwrap();
    let lineup = sc.lineup();
    let ini = lineup.initiatives(&mut skirmish::rng::stream_rng(
        0,
        0,
        skirmish::rng::Stream::Initiative,
    ));
    let mut t = JsonTrace::new(&lineup.names);
    let o = Kernel::new(sc.capacity).run(&lineup.builds, &ini, sc.max_rounds, &mut t);
    t.finish(o.winner, o.rounds, o.capped);
    let golden = std::fs::read_to_string("tests/golden/sample-round-1.trace.jsonl").unwrap();
    assert_eq!(t.out.finish(), golden);
    assert!(
        golden.starts_with("{\"round\":1,\"team\":\"Alice\",\"hero\":\"Alice\",\"energy\":118}\n")
    );
    assert!(golden.contains("{\"round\":1,\"team\":\"Bob\",\"hero\":\"Bob 2\",\"energy\":60}\n"));
    assert!(golden.ends_with("{\"winner\":\"Bob\",\"rounds\":4}\n"));
}

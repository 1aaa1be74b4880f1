//! Powers as data, held to the hand-written six: the six sample powers loaded from the built-in
//! catalogue file must play exactly as the hand-written kernel and its reference play them.
//! Same per-round Energies, same outcomes, on random rosters (2-8 heroes, coins -30..=60, random
//! subsets and orders of the six, forced initiative ties, small capacities, short round limits).

use crate::common;

use common::{archive, random_archive_loadout};

use rand::RngExt;
use skirmish::games::auto_rumble::Kernel;
use skirmish::games::auto_rumble::input::roster::random_roster;
use skirmish::games::auto_rumble::kernel::data::{DataKernel, NoHook, Rounds, in_kernel_class};
use skirmish::games::auto_rumble::powers::catalogue::{Catalogue, Held, Loadout, Use};
use skirmish::games::auto_rumble::reference::{data as data_reference, hand as reference};
use skirmish::games::auto_rumble::rules::Rules;
use skirmish::games::auto_rumble::trace::hand::Silent;
use skirmish::games::auto_rumble::{HeroSpec, Lineup, UseItem, rules};
use skirmish::rng::{Stream, stream_rng};

const CAPACITIES: [usize; 5] = [4, 9, 16, 64, 256];

/// A hand-written roster as data: the six's ids are their positions in the built-in catalogue.
fn loadout(cat: &Catalogue, h: &HeroSpec) -> Loadout {
    let held: Vec<Held> = h
        .powers
        .iter()
        .map(|p| Held {
            power: cat.id(p.power.name()).unwrap(),
            strength: p.strength,
        })
        .collect();
    let order: Vec<Use> = h
        .order
        .iter()
        .map(|u| match u {
            UseItem::Attack => Use::Attack,
            UseItem::Power(p) => Use::Power(cat.id(p.name()).unwrap()),
        })
        .collect();
    Loadout::compile(cat, h.coins, &held, &order).unwrap()
}

#[test]
fn data_reference_plays_the_six_as_the_hand_written_reference_does() {
    let cat = Catalogue::builtin();
    for i in 0..3_000u64 {
        let mut rng = stream_rng(0xDA7A, i, Stream::Roster);
        let mut heroes = random_roster(&mut rng, 2..=8, -30..=60);
        if i % 4 == 0 {
            for h in &mut heroes {
                h.coins = [0, 10][rng.random_range(0..2)];
                h.base_initiative = Some([0.0, 0.5][rng.random_range(0..2)]);
            }
        }
        let cap = CAPACITIES[rng.random_range(0..CAPACITIES.len())];
        let max_rounds = if i % 3 == 0 {
            rng.random_range(1..=8)
        } else {
            rules::DEFAULT_MAX_ROUNDS
        };
        let lineup = Lineup::compile(&heroes).unwrap();
        let ini = lineup.initiatives(&mut stream_rng(0xDA7A, i, Stream::Initiative));
        let builds: Vec<Loadout> = heroes.iter().map(|h| loadout(&cat, h)).collect();
        let want = reference::play(&heroes, &ini, max_rounds, cap);
        let got = data_reference::play(&cat, &builds, &ini, max_rounds, cap);
        assert_eq!(
            got.rounds, want.rounds,
            "battle {i}: per-round Energies differ; {heroes:#?}"
        );
        assert_eq!(got.outcome, want.outcome, "battle {i}: outcomes differ");
    }
}

// The data kernel: the six from the file, in the kernel's class, against both the data reference
// (per-round Energies) and the hand-written kernel (outcomes), hooked and silent.
#[test]
fn data_kernel_matches_data_reference_and_hand_written_kernel_on_10000_battles() {
    let cat = Catalogue::builtin();
    let mut kernels: Vec<DataKernel> = CAPACITIES.iter().map(|&c| DataKernel::new(c)).collect();
    let mut hand: Vec<Kernel> = CAPACITIES.iter().map(|&c| Kernel::new(c)).collect();
    let mut copies = 0;
    for i in 0..10_000u64 {
        let mut rng = stream_rng(0xDA7B, i, Stream::Roster);
        let mut heroes = random_roster(&mut rng, 2..=8, -30..=60);
        if i % 4 == 0 {
            for h in &mut heroes {
                h.coins = [0, 10][rng.random_range(0..2)];
                h.base_initiative = Some([0.0, 0.5][rng.random_range(0..2)]);
            }
        }
        let k = rng.random_range(0..CAPACITIES.len());
        let max_rounds = if i % 3 == 0 {
            rng.random_range(1..=8)
        } else {
            rules::DEFAULT_MAX_ROUNDS
        };
        let lineup = Lineup::compile(&heroes).unwrap();
        let ini = lineup.initiatives(&mut stream_rng(0xDA7B, i, Stream::Initiative));
        let builds: Vec<Loadout> = heroes.iter().map(|h| loadout(&cat, h)).collect();
        assert!(
            in_kernel_class(&builds),
            "the six are in the kernel's class"
        );
        let mut rec = Rounds::default();
        let got = kernels[k].run(&cat, &builds, &ini, max_rounds, &mut rec);
        let want = data_reference::play(&cat, &builds, &ini, max_rounds, CAPACITIES[k]);
        assert_eq!(
            rec.0, want.rounds,
            "battle {i}: per-round Energies differ; {heroes:#?}"
        );
        assert_eq!(got, want.outcome, "battle {i}: outcomes differ");
        let silent = kernels[k].run(&cat, &builds, &ini, max_rounds, &mut NoHook);
        assert_eq!(silent, got, "battle {i}: silent and hooked differ");
        let hand_written = hand[k].run(&lineup.builds, &ini, max_rounds, &mut Silent);
        assert_eq!(hand_written, got, "battle {i}: hand-written kernel differs");
        copies += rec
            .0
            .iter()
            .flatten()
            .any(|&(id, _)| id as usize >= heroes.len()) as u32;
    }
    assert!(copies > 2000, "copies appeared in only {copies} battles");
}

// Every archive power in the kernel's class, in random combinations, strengths and orders: the
// data kernel against the data reference, round by round.
#[test]
fn data_kernel_matches_data_reference_on_archive_powers_in_its_class() {
    use rand::seq::SliceRandom;
    use skirmish::games::auto_rumble::powers::catalogue::default_order;
    let cat = Catalogue::new(
        skirmish::games::auto_rumble::powers::file::load(
            &skirmish::platform::sources::Sources::disk(),
            std::path::Path::new("experiments/powers/archive.toml"),
        )
        .unwrap(),
    );
    let in_class: Vec<u16> = (0..cat.len() as u16)
        .filter(|&p| {
            let l = Loadout::compile(
                &cat,
                0,
                &[Held {
                    power: p,
                    strength: 0,
                }],
                &default_order(
                    &cat,
                    &[Held {
                        power: p,
                        strength: 0,
                    }],
                ),
            )
            .unwrap();
            in_kernel_class(&[l])
        })
        .collect();
    assert!(in_class.len() >= 12, "{} powers in class", in_class.len());
    let mut kernel = DataKernel::new(64);
    let (mut played, mut i) = (0, 0u64);
    while played < 5_000 {
        i += 1;
        let mut rng = stream_rng(0xA4C, i, Stream::Roster);
        let n = rng.random_range(2..=6);
        let builds: Vec<Loadout> = (0..n)
            .map(|_| {
                let mut held = Vec::new();
                for &power in &in_class {
                    if rng.random_bool(0.25) {
                        let strength = rng.random_range(0..=40);
                        held.push(Held { power, strength });
                    }
                }
                held.shuffle(&mut rng);
                held.truncate(4);
                let mut order = default_order(&cat, &held);
                order.shuffle(&mut rng);
                Loadout::compile(&cat, rng.random_range(-30..=60), &held, &order).unwrap()
            })
            .collect();
        let ini: Vec<f64> = (0..n).map(|_| rng.random_range(0.0..1.0)).collect();
        if !in_kernel_class(&builds) {
            continue; // Assassin's Game or Sniper beside a reaction: the general path's
        }
        played += 1;
        let mut rec = Rounds::default();
        let got = kernel.run(&cat, &builds, &ini, 30, &mut rec);
        let want = data_reference::play(&cat, &builds, &ini, 30, 64);
        assert_eq!(rec.0, want.rounds, "battle {i}: per-round Energies differ");
        assert_eq!(got, want.outcome, "battle {i}: outcomes differ");
    }
    assert!(i < 20_000, "{i} rosters drawn for 5,000 on the fast path");
}

// AR-3, AR-5: powerless battles, silent, take the data kernel's run-ahead path (`powerless.rs`):
// long battles (Energies up to 500) whose quiet stretches are played as one step, cut by round
// limits; outcomes must equal the data reference's and the hand-written kernel's.
#[test]
fn data_kernel_plays_powerless_runs_as_the_reference_does() {
    let cat = Catalogue::builtin();
    let mut kernel = DataKernel::new(64);
    let mut hand = Kernel::new(64);
    for i in 0..3_000u64 {
        let mut rng = stream_rng(0x90E5, i, Stream::Roster);
        let n = rng.random_range(2..=8usize);
        let heroes: Vec<HeroSpec> = (0..n)
            .map(|h| HeroSpec::new(&format!("H{h}"), rng.random_range(-40..=400), &[]))
            .collect();
        let max_rounds = rng.random_range(1..=40);
        let lineup = Lineup::compile(&heroes).unwrap();
        let ini = lineup.initiatives(&mut stream_rng(0x90E5, i, Stream::Initiative));
        let builds: Vec<Loadout> = heroes.iter().map(|h| loadout(&cat, h)).collect();
        let got = kernel.run(&cat, &builds, &ini, max_rounds, &mut NoHook);
        let want = data_reference::play(&cat, &builds, &ini, max_rounds, 64);
        assert_eq!(got, want.outcome, "battle {i}: {heroes:?}");
        let hand_written = hand.run(&lineup.builds, &ini, max_rounds, &mut Silent);
        assert_eq!(hand_written, got, "battle {i}: hand-written kernel differs");
    }
}

/// Rules drawn for a differential test (issue 51): each number at the seed's value or anywhere in
/// a range that stays inside its check, so the kernels' run-ahead and plan paths meet cheap and
/// dear attacks, long or no stalemates, and damage of any sign.
fn drawn_rules(rng: &mut skirmish::rng::MatchRng) -> Rules {
    let mut r = Rules::SEED;
    if rng.random_range(0..2) == 0 {
        r.attack_cost = rng.random_range(1..=60);
    }
    if rng.random_range(0..2) == 0 {
        r.stalemate_rounds = rng.random_range(0..=4);
    }
    if rng.random_range(0..2) == 0 {
        r.starting_energy = rng.random_range(1..=400);
    }
    if rng.random_range(0..2) == 0 {
        r.attack_damage = rng.random_range(-20..=60);
        r.coins_per_damage = rng.random_range(1..=7);
    }
    assert!(r.check().is_ok());
    r
}

// Issue 51: a rules file's numbers (AR-2, AR-3, AR-13) are played alike by the data kernel's
// fast path and run-ahead, its general kernel and the data reference, on the six and on
// powerless battles.
#[test]
fn kernels_and_reference_agree_under_drawn_rules() {
    let mut kernel = DataKernel::new(64);
    for i in 0..6_000u64 {
        let mut rng = stream_rng(0x5E1E, i, Stream::Roster);
        let mut cat = Catalogue::builtin();
        cat.rules = drawn_rules(&mut rng);
        let mut heroes = random_roster(&mut rng, 2..=6, -40..=200);
        if i % 2 == 0 {
            // Powerless: the run-ahead path (`powerless.rs`) meets the drawn attack cost.
            heroes = heroes
                .iter()
                .map(|h| HeroSpec::new(&h.name, h.coins, &[]))
                .collect();
        }
        let max_rounds = rng.random_range(1..=40);
        let lineup = Lineup::compile(&heroes).unwrap();
        let ini = lineup.initiatives(&mut stream_rng(0x5E1E, i, Stream::Initiative));
        let builds: Vec<Loadout> = heroes.iter().map(|h| loadout(&cat, h)).collect();
        let want = data_reference::play(&cat, &builds, &ini, max_rounds, 64);
        let got = if in_kernel_class(&builds) {
            kernel.run(&cat, &builds, &ini, max_rounds, &mut NoHook)
        } else {
            kernel
                .general()
                .run(&cat, &builds, &ini, max_rounds, &mut NoHook)
        };
        assert_eq!(
            got, want.outcome,
            "battle {i} under {:?}: {heroes:?}",
            cat.rules
        );
        let general = kernel
            .general()
            .run(&cat, &builds, &ini, max_rounds, &mut NoHook);
        assert_eq!(
            general, want.outcome,
            "battle {i}, general kernel, under {:?}",
            cat.rules
        );
    }
}

/// A birth as the general kernel reports it: round, parent, id, and which power's which summon.
type Born = (u32, u32, u32, Option<(u16, u8)>);

/// Records what the general kernel reports: each round's alive heroes and every birth.
#[derive(Default)]
struct Replayed {
    rounds: Vec<Vec<(u32, i32)>>,
    births: Vec<Born>,
}

impl skirmish::games::auto_rumble::kernel::data::RoundHook for Replayed {
    const ENABLED: bool = true;
    fn round_end(&mut self, _: u32, v: skirmish::games::auto_rumble::state::RoundView<'_>) {
        self.rounds.push(
            v.id.iter()
                .zip(v.energy)
                .filter(|(_, e)| **e > 0)
                .map(|(&i, &e)| (i, e))
                .collect(),
        );
    }
    fn born(&mut self, round: u32, parent: u32, id: u32, summon: Option<(u16, u8)>) {
        self.births.push((round, parent, id, summon));
    }
    fn restart(&mut self) {
        *self = Replayed::default();
    }
}

// The general path of the data kernel (every clause of the format: reactions, effects on other
// heroes, taxes, locks, wards, summons, wins) against the data reference, battle by battle: the
// same alive heroes and Energies after every round, the same copies and summons in the same
// order, the same outcome. Rosters of all 37 archive powers, small capacities (AR-15) and short
// round limits (AR-14) included, and forced initiative ties (AR-6).
#[test]
fn general_kernel_matches_data_reference_on_every_archive_power() {
    let cat = archive();
    let seen = general_matches_reference(&cat, 0x6E4E, 12_000, 0);
    // The draw reaches what it is meant to test.
    assert!(
        seen.outside > 10_000,
        "only {} battles outside the fast class",
        seen.outside
    );
    assert!(
        seen.births > 1_000,
        "copies or summons in only {} battles",
        seen.births
    );
    assert!(
        seen.summons > 300,
        "summons in only {} battles",
        seen.summons
    );
    assert!(seen.wins > 30, "power wins in only {} battles", seen.wins);
}

// The same on the powers hosts write next (issue 23: death clauses with any effect, ...), mixed
// with the whole archive (experiments/powers/second-edition.toml includes it).
#[test]
fn general_kernel_matches_data_reference_on_second_edition_powers() {
    let cat = common::second_edition();
    let first_new = archive().len() as u16;
    let seen = general_matches_reference(&cat, 0x23_2E, 4_000, first_new);
    assert!(
        seen.new_powers > 1_500,
        "second-edition powers in only {} battles",
        seen.new_powers
    );
}

/// What a batch of random battles reached, so a test can tell its draw exercised something.
#[derive(Default)]
struct Seen {
    births: u32,
    summons: u32,
    outside: u32,
    wins: u32,
    /// Battles in which some hero holds a power with id `first_new` or later.
    new_powers: u32,
}

/// `battles` random rosters of `cat`'s powers, each played by the general kernel and the data
/// reference: every round's Energies, births and the outcome must agree.
fn general_matches_reference(cat: &Catalogue, seed: u64, battles: u64, first_new: u16) -> Seen {
    use skirmish::games::auto_rumble::kernel::general::GeneralKernel;
    let mut kernels: Vec<GeneralKernel> =
        CAPACITIES.iter().map(|&c| GeneralKernel::new(c)).collect();
    let mut seen = Seen::default();
    for i in 0..battles {
        let mut rng = stream_rng(seed, i, Stream::Roster);
        let n = rng.random_range(2..=6);
        let builds: Vec<Loadout> = (0..n)
            .map(|_| random_archive_loadout(cat, &mut rng, 4))
            .collect();
        let ini: Vec<f64> = (0..n)
            .map(|_| {
                if i % 5 == 0 {
                    [0.0, 0.5][rng.random_range(0..2)]
                } else {
                    rng.random_range(0.0..1.0)
                }
            })
            .collect();
        let k = rng.random_range(0..CAPACITIES.len());
        let max_rounds = if i % 3 == 0 {
            rng.random_range(1..=8)
        } else {
            30
        };
        let mut rec = Replayed::default();
        let got = kernels[k].run(cat, &builds, &ini, max_rounds, &mut rec);
        let want = data_reference::play(cat, &builds, &ini, max_rounds, CAPACITIES[k]);
        let names: Vec<Vec<&str>> = builds
            .iter()
            .map(|l| {
                let mut v: Vec<&str> = l.clauses[..l.n_clauses as usize]
                    .iter()
                    .map(|c| cat.name(c.power))
                    .collect();
                v.dedup();
                v
            })
            .collect();
        assert_eq!(
            rec.rounds, want.rounds,
            "battle {i}: per-round Energies differ; powers {names:?}, births {:?}",
            want.births
        );
        let got_births: Vec<_> = rec
            .births
            .iter()
            .map(|&(round, parent, id, summon)| {
                let name =
                    summon.map(|(p, k)| cat.defs[p as usize].summons[k as usize].name.clone());
                (round, parent, id, name)
            })
            .collect();
        let want_births: Vec<_> = want
            .births
            .iter()
            .map(|b| (b.round, b.parent, b.id, b.summon.clone()))
            .collect();
        assert_eq!(got_births, want_births, "battle {i}: births differ");
        assert_eq!(got, want.outcome, "battle {i}: outcomes differ");
        seen.births += !want.births.is_empty() as u32;
        seen.summons += want.births.iter().any(|b| b.summon.is_some()) as u32;
        seen.outside += !in_kernel_class(&builds) as u32;
        seen.wins += (got.end == skirmish::games::auto_rumble::EndReason::PowerWin) as u32;
        seen.new_powers += (first_new > 0
            && builds.iter().any(|l| {
                l.clauses[..l.n_clauses as usize]
                    .iter()
                    .any(|c| c.power >= first_new)
            })) as u32;
    }
    seen
}

// The general path plays the fast path's class too, and must agree with it there.
#[test]
fn general_kernel_matches_the_fast_path_on_the_six() {
    use skirmish::games::auto_rumble::kernel::general::GeneralKernel;
    let cat = Catalogue::builtin();
    let mut fast = DataKernel::new(64);
    let mut general = GeneralKernel::new(64);
    for i in 0..3_000u64 {
        let mut rng = stream_rng(0x6E4F, i, Stream::Roster);
        let heroes = random_roster(&mut rng, 2..=8, -30..=60);
        let lineup = Lineup::compile(&heroes).unwrap();
        let ini = lineup.initiatives(&mut stream_rng(0x6E4F, i, Stream::Initiative));
        let builds: Vec<Loadout> = heroes.iter().map(|h| loadout(&cat, h)).collect();
        let mut a = Rounds::default();
        let mut b = Replayed::default();
        let got = general.run(&cat, &builds, &ini, 30, &mut b);
        let want = fast.run(&cat, &builds, &ini, 30, &mut a);
        assert_eq!(b.rounds, a.0, "battle {i}: per-round Energies differ");
        assert_eq!(got, want, "battle {i}: outcomes differ");
    }
}

// Counts read in the phase that makes copies: a copy joins when its phase ends (AR-11), so
// clauses later in that phase (its own holder's or another hero's) must not count it yet.
#[test]
fn copies_are_not_counted_before_their_phase_ends_on_either_path() {
    use skirmish::games::auto_rumble::kernel::general::GeneralKernel;
    let text = r#"
[[power]]
name = "Split"
source = "test"
text = "At the end of each round, copy yourself."
[[power.clause]]
when = "round_end"
if = "energy > 20"
effects = ["copy_self"]

[[power]]
name = "Census"
source = "test"
text = "At the end of each round, +1 Energy per ally and +2 per opponent alive, +1 Defence per team."
[[power.clause]]
when = "round_end"
effects = [{ add_energy = "allies_alive + 2 * opponents_alive" }, { add_defence = "teams_alive" }]

[[power]]
name = "Early Split"
source = "test"
text = "At the start of each round, copy yourself."
[[power.clause]]
when = "round_start"
if = "round == 1"
effects = ["copy_self"]

[[power]]
name = "Early Census"
source = "test"
text = "At the start of each round, +1 Energy per hero alive on either side."
[[power.clause]]
when = "round_start"
effects = [{ add_energy = "allies_alive + 2 * opponents_alive" }]
"#;
    let cat =
        Catalogue::new(skirmish::games::auto_rumble::powers::file::parse(text, "test").unwrap());
    let mut fast = DataKernel::new(64);
    let mut general = GeneralKernel::new(64);
    for i in 0..2_000u64 {
        let mut rng = stream_rng(0xCE05, i, Stream::Roster);
        let n = rng.random_range(2..=4);
        let builds: Vec<Loadout> = (0..n)
            .map(|_| {
                use rand::seq::SliceRandom;
                let mut held: Vec<Held> = (0..4u16)
                    .filter(|_| rng.random_bool(0.6))
                    .map(|power| Held { power, strength: 0 })
                    .collect();
                held.shuffle(&mut rng);
                let order =
                    skirmish::games::auto_rumble::powers::catalogue::default_order(&cat, &held);
                Loadout::compile(&cat, rng.random_range(-30..=30), &held, &order).unwrap()
            })
            .collect();
        assert!(in_kernel_class(&builds));
        let ini: Vec<f64> = (0..n).map(|_| rng.random_range(0.0..1.0)).collect();
        let want = data_reference::play(&cat, &builds, &ini, 8, 64);
        let mut a = Rounds::default();
        let got = fast.run(&cat, &builds, &ini, 8, &mut a);
        assert_eq!(a.0, want.rounds, "battle {i}: fast path differs");
        assert_eq!(got, want.outcome, "battle {i}: fast path differs");
        let mut b = Replayed::default();
        let got = general.run(&cat, &builds, &ini, 8, &mut b);
        assert_eq!(b.rounds, want.rounds, "battle {i}: general path differs");
        assert_eq!(got, want.outcome, "battle {i}: general path differs");
    }
}

/// Test powers that make classes split: copies that differ from their original (a loss after the
/// copy, a second copy after a change), a member that falls after copying, two copies a round,
/// clauses that read the allies' count (played hero by hero, phase::SINGLES_OUT), and `hit`
/// reactions (members of an attacker class that land different hits, phase::SELF_HIT: taken
/// in one step, with a condition, with a limit, on a counter), and a reaction to damage with a
/// fixed point (every later hit leaves the class as it is: taken at once).
const SPLITTERS: &str = r#"
[[power]]
name = "Shedding"
source = "test"
text = "End of round, if Energy > 12: copy yourself, then lose 12 Energy."
[[power.clause]]
when = "round_end"
if = "energy > 12"
effects = ["copy_self", { add_energy = -12 }]

[[power]]
name = "Budding"
source = "test"
text = "End of round, if Energy > 30: copy yourself, halve your Energy, copy yourself again."
[[power.clause]]
when = "round_end"
if = "energy > 30"
effects = ["copy_self", { set_energy = "energy / 2" }, "copy_self"]

[[power]]
name = "Burnout"
source = "test"
text = "End of round: copy yourself, then lose 25 Energy."
[[power.clause]]
when = "round_end"
effects = ["copy_self", { add_energy = -25 }]

[[power]]
name = "Rally"
source = "test"
text = "Start of round: +3 Defence per ally."
[[power.clause]]
when = "round_start"
effects = [{ add_defence = "3 * allies_alive" }]

[[power]]
name = "Leech"
source = "test"
text = "Whenever your attack hits someone, gain 2 Energy."
[[power.clause]]
when = "hit"
effects = [{ add_energy = 2 }]

[[power]]
name = "Thirst"
source = "test"
text = "Whenever your attack hits someone while you are below 40, gain 3 Energy; the first hit each round also gives 2 Defence."
[[power.clause]]
when = "hit"
if = "energy < 40"
effects = [{ add_energy = 3 }]
[[power.clause]]
when = "hit"
limit = "once_per_round"
effects = [{ add_defence = 2 }]

[[power]]
name = "Notches"
source = "test"
text = "Each hero your attack hits is a notch; at the end of each round gain 1 Energy per 4 notches."
counters = { notches = 0 }
[[power.clause]]
when = "hit"
effects = [{ counter = "notches", add = 1 }]
[[power.clause]]
when = "round_end"
effects = [{ add_energy = "notches / 4" }]

[[power]]
name = "Stubborn"
source = "test"
text = "Whenever a hit takes your Energy and leaves you below 12, your Energy becomes 12."
[[power.clause]]
when = "damaged"
if = "energy < 12"
effects = [{ set_energy = 12 }]

[[power]]
name = "Last Stand"
source = "test"
text = "Spend 10: +15 Defence while one opponent is left."
[[power.clause]]
when = "use"
if = "opponents_alive == 1"
cost = { spend = 10 }
effects = [{ add_defence = 15 }]
"#;

/// Allies' gifts (issue 81, Field Medic's kind): one clause and two.
const GIFTS: &str = r#"
[[power]]
name = "Triage"
source = "test"
text = "Whenever a hit takes your Energy, every ally (you too) gains 7 Energy."
[[power.clause]]
when = "damaged"
target = "all_allies"
effects = [{ add_energy = 7 }]

[[power]]
name = "Rallying Cry"
source = "test"
text = "Whenever a hit takes your Energy, every ally gains 1 Energy, then 2 more."
[[power.clause]]
when = "damaged"
target = "all_allies"
effects = [{ add_energy = 1 }]
[[power.clause]]
when = "damaged"
target = "all_allies"
effects = [{ add_energy = 2, to = "all_allies" }]
"#;

// Issue 81: a gift to allies large enough to saturate part-way through a class (AR-18) would
// leave its members apart; the fast path hands the battle to the general path, which plays it
// as the reference does.
#[test]
fn gifts_that_could_saturate_inside_a_class_are_played_hero_by_hero_ar_18() {
    use skirmish::games::auto_rumble::powers::catalogue::default_order;
    let cat = catalogue_with(
        r#"
[[power]]
name = "Windfall"
source = "test"
text = "Whenever a hit takes your Energy, every ally gains 1,000,000 Energy."
[[power.clause]]
when = "damaged"
target = "all_allies"
effects = [{ add_energy = 1000000 }]
"#,
    );
    let held = |names: &[&str]| -> Vec<Held> {
        names
            .iter()
            .map(|n| Held {
                power: cat.id(n).unwrap(),
                strength: 0,
            })
            .collect()
    };
    // Two teams that copy every round; each of the attackers' members makes the givers'
    // classes give a million per member, until Energies reach the top.
    let (givers, copiers) = (held(&["Amoeba", "Windfall"]), held(&["Amoeba"]));
    let mut a = Loadout::compile(&cat, 20, &givers, &default_order(&cat, &givers)).unwrap();
    a.energy = 1_000_000_000;
    let mut b = Loadout::compile(&cat, 20, &copiers, &default_order(&cat, &copiers)).unwrap();
    b.energy = 1_000_000;
    let builds = vec![a, b];
    assert!(in_kernel_class(&builds), "gifts play on the fast path");
    let ini = [0.2, 0.7];
    let want = data_reference::play(&cat, &builds, &ini, 12, 256);
    let mut kernel = DataKernel::new(256);
    let mut rec = Rounds::default();
    let got = kernel.run(&cat, &builds, &ini, 12, &mut rec);
    assert!(kernel.bailed(), "the battle reached a saturating gift");
    assert_eq!(rec.0, want.rounds);
    assert_eq!(got, want.outcome);
    // Its heroes are read where it was played.
    assert_eq!(kernel.hero_energy(0), kernel.general().hero_energy(0));
    // The next battle starts on the fast path again.
    let small = vec![b, b];
    let again = kernel.run(&cat, &small, &ini, 12, &mut NoHook);
    assert!(!kernel.bailed());
    assert_eq!(
        again,
        data_reference::play(&cat, &small, &ini, 12, 256).outcome
    );
}

// Classes (the data kernel's default): 20,000 Amoeba-heavy rosters, many filling small tables
// part-way through a class, with copies that differ from their originals, members falling after
// copying and loadouts played hero by hero: every round's Energies by hero id, copies and
// outcome equal the data reference's and the same kernel's hero-by-hero play.
#[test]
fn classes_play_amoeba_heavy_rosters_as_the_reference_plays_them_hero_by_hero() {
    let cat = catalogue_with(SPLITTERS);
    let seen = classes_against_reference(&cat, 0xC1A55, 20_000, &CAPACITIES, |_| 0.2);
    // The rosters reach what they are for: full tables, test powers, and (with the six alone)
    // far fewer class operations than hero-by-hero ones.
    assert!(seen.capped > 2_000, "{} capped battles", seen.capped);
    assert!(
        seen.tested > 10_000,
        "{} battles with test powers",
        seen.tested
    );
    // Attacker classes split by the hits their members landed, many times over.
    assert!(
        seen.splits > 1_000,
        "{} classes split by their hits",
        seen.splits
    );
    assert!(
        seen.ops[1] > 3 * seen.ops[0],
        "the six: {} class operations, {} hero by hero",
        seen.ops[0],
        seen.ops[1]
    );
}

// Issue 81: allies' gifts on the fast path (Field Medic's kind), beside Amoeba and the other
// powers the fast path plays: classes against the reference and hero by hero, as above.
#[test]
fn classes_that_give_allies_energy_play_as_the_reference_plays_them_hero_by_hero() {
    let cat = catalogue_with(&format!("{SPLITTERS}\n{GIFTS}"));
    let gift = |p: u16| cat.defs[p as usize].text.contains("every ally");
    // (The reference gives each gift to every ally one by one: tables up to 64 keep it quick.)
    let seen = classes_against_reference(&cat, 0x61F7, 4_000, &CAPACITIES[..4], |p| {
        if gift(p) { 0.5 } else { 0.1 }
    });
    assert!(seen.capped > 1_500, "{} capped battles", seen.capped);
    assert!(seen.gifts > 2_500, "{} battles with gifts", seen.gifts);
}

/// Copies made on being attacked (issue 81, Budding's kind): once a round with an Energy, a full
/// copy once a game, two copies at once; beside a reaction of the holder alone (attacked and
/// damaged) so classes take their hits one at a time.
const COPIERS: &str = r#"
[[power]]
name = "Budding"
source = "test"
text = "The first time each round you are hit, a copy of you splits off with 10 Energy."
[[power.clause]]
when = "attacked"
limit = "once_per_round"
effects = [{ copy_self = 10 }]

[[power]]
name = "Spore Burst"
source = "test"
text = "The first time you are ever hit, a full copy of you splits off."
[[power.clause]]
when = "attacked"
limit = "once_per_game"
effects = ["copy_self"]

[[power]]
name = "Twin Buds"
source = "test"
text = "The first time each round you are hit, two copies of you split off, with 4 and 25 Energy."
[[power.clause]]
when = "attacked"
limit = "once_per_round"
effects = [{ copy_self = 4 }, { copy_self = 25 }]

[[power]]
name = "Hardening"
source = "test"
text = "Whenever you are attacked, gain 2 Defence; whenever a hit takes your Energy, gain 1 Energy."
[[power.clause]]
when = "attacked"
effects = [{ add_defence = 2 }]
[[power.clause]]
when = "damaged"
effects = [{ add_energy = 1 }]
"#;

// Issue 81: copies made on being attacked on the fast path (Budding's kind): an attack's first
// member's hits sweep every target class first, copies taking the room falls free (AR-15), and
// each class's copies join after its members, member by member. Classes against the reference
// and hero by hero, as above, on tables small enough that the room runs out part-way through
// classes.
#[test]
fn classes_that_copy_when_attacked_play_as_the_reference_plays_them_hero_by_hero_ar_15() {
    use skirmish::games::auto_rumble::powers::catalogue::phase;
    let cat = catalogue_with(COPIERS);
    let copies = |b: &Loadout| b.phases & phase::COPY_ON_ATTACKED != 0;
    assert!(copies(
        &Loadout::compile(
            &cat,
            0,
            &[Held {
                power: cat.id("Twin Buds").unwrap(),
                strength: 0
            }],
            &[Use::Attack]
        )
        .unwrap()
    ));
    let tested = |p: u16| cat.defs[p as usize].source == "test";
    let seen = classes_against_reference(&cat, 0xB0D, 6_000, &CAPACITIES, |p| {
        if tested(p) { 0.35 } else { 0.1 }
    });
    assert!(seen.capped > 2_000, "{} capped battles", seen.capped);
    assert!(seen.tested > 3_000, "{} battles with copiers", seen.tested);
}

// Issue 81: Assassin's Game's rule on the fast path (AR-39), every attack walking down the next
// opponent's class member by member, the class splitting where one member took part of the
// hits (in front of the attacker too, wrapping round): classes against the reference and hero
// by hero, as above.
#[test]
fn classes_under_assassin_s_game_play_as_the_reference_plays_them_hero_by_hero_ar_39() {
    let cat = catalogue_with(
        r#"
[[power]]
name = "Assassin's Game"
source = "test"
text = "Each hero gets one target, none itself, no two sharing; a hero may attack only its target; a killer inherits its victim's target."
[[power.clause]]
when = "passive"
effects = [{ everyone_attacks_only = "next_opponent" }]
"#,
    );
    let rule = cat.id("Assassin's Game").unwrap();
    let seen = classes_against_reference(&cat, 0xA55, 4_000, &CAPACITIES[..4], |p| {
        if p == rule { 0.4 } else { 0.2 }
    });
    assert!(seen.capped > 1_000, "{} capped battles", seen.capped);
    assert!(
        seen.splits > 10_000,
        "{} classes split by a walk",
        seen.splits
    );
}

// Issue 81: Sniper on the fast path (AR-40): its attack hit by hit on the first member of the
// first opponent class, split off from the rest, x1.5 after Defence, executing the undefended,
// reloading every other round: classes against the reference and hero by hero, as above.
#[test]
fn classes_beside_a_sniper_play_as_the_reference_plays_them_hero_by_hero_ar_40() {
    beside_the_six("Sniper", 0x5419, 0.4);
}

// Issue 81: Parasitic Strain on the fast path (AR-26): beside the six (Cosmic Shield and
// Crystallize give Defence to take), a class whose theft finds Defence plays member by member,
// each target split off its class; where none has Defence the class plays whole. Classes
// against the reference and hero by hero, as above.
#[test]
fn classes_beside_parasitic_strain_play_as_the_reference_plays_them_hero_by_hero_ar_26() {
    beside_the_six("Parasitic Strain", 0x9A5, 0.5);
}

// Issue 81: Piercing Blow on the fast path (AR-24, AR-26): its holder's class plays member by
// member the round it uses it (each member's pick of the opponent with the most Energy reads
// what the members before it did), each target split off its class. Classes against the
// reference and hero by hero, as above.
#[test]
fn classes_beside_piercing_blow_play_as_the_reference_plays_them_hero_by_hero_ar_26() {
    beside_the_six("Piercing Blow", 0xB10, 0.5);
}

/// 4,000 rosters of the six and archive power `name` (held with probability `chance`, each of
/// the six a quarter), classes against the reference and hero by hero; full tables and classes
/// split where the power singled a hero out.
fn beside_the_six(name: &str, seed: u64, chance: f64) {
    let cat = catalogue_with(&archive_power(name));
    let power = cat.id(name).unwrap();
    let seen = classes_against_reference(&cat, seed, 4_000, &CAPACITIES[..4], |p| {
        if p == power { chance } else { 0.25 }
    });
    assert!(
        seen.capped > 1_000,
        "{name}: {} capped battles",
        seen.capped
    );
    assert!(seen.splits > 5_000, "{name}: {} classes split", seen.splits);
}

/// One power of the archive, as its file writes it.
fn archive_power(name: &str) -> String {
    let archive = include_str!("../../experiments/powers/archive.toml");
    let at = archive.find(&format!("name = \"{name}\"")).unwrap();
    let end = at + archive[at..].find("\n# ").unwrap();
    format!("[[power]]\n{}", &archive[at..end])
}

/// The sample powers and `more`.
fn catalogue_with(more: &str) -> Catalogue {
    let text = format!(
        "{}\n{more}",
        include_str!("../../experiments/powers/sample.toml")
    );
    Catalogue::new(
        skirmish::games::auto_rumble::powers::file::parse(&text, "sample+tests").unwrap(),
    )
}

/// What [`classes_against_reference`] played.
struct Classes {
    capped: u32,
    /// Battles with a test power.
    tested: u32,
    /// Battles with allies' gifts.
    gifts: u32,
    /// Class operations and hero-by-hero ones, over the battles of the six alone.
    ops: [u64; 2],
    splits: u64,
}

/// `rosters` Amoeba-heavy rosters (each other power held with probability `chance(power)`,
/// at most four), on the fast path: every round's Energies and the outcome against the data
/// reference, the outcome and originals against the same kernel played hero by hero.
fn classes_against_reference(
    cat: &Catalogue,
    seed: u64,
    rosters: u64,
    capacities: &[usize],
    chance: impl Fn(u16) -> f64,
) -> Classes {
    use rand::seq::SliceRandom;
    use skirmish::games::auto_rumble::powers::catalogue::{default_order, phase};
    let amoeba = cat.id("Amoeba").unwrap();
    let others: Vec<u16> = (0..cat.len() as u16).filter(|&p| p != amoeba).collect();
    let mut classes: Vec<DataKernel> = capacities.iter().map(|&c| DataKernel::new(c)).collect();
    let mut heroes: Vec<DataKernel> = capacities
        .iter()
        .map(|&c| DataKernel::per_hero(c))
        .collect();
    let (mut capped, mut split_tests, mut ops) = (0, 0, [0u64; 2]);
    let mut gifts = 0u32;
    for i in 0..rosters {
        let mut rng = stream_rng(seed, i, Stream::Roster);
        let n = rng.random_range(2..=5);
        let builds: Vec<Loadout> = (0..n)
            .map(|_| {
                let mut held = Vec::new();
                if rng.random_bool(0.85) {
                    held.push(Held {
                        power: amoeba,
                        strength: 0,
                    });
                }
                for &power in &others {
                    if rng.random_bool(chance(power)) {
                        held.push(Held { power, strength: 0 });
                    }
                }
                held.shuffle(&mut rng);
                held.truncate(4);
                let mut order = default_order(cat, &held);
                order.shuffle(&mut rng);
                Loadout::compile(cat, rng.random_range(-30..=60), &held, &order).unwrap()
            })
            .collect();
        // Forced initiative ties now and then (AR-19 orders them by roster position).
        let ini: Vec<f64> = (0..n)
            .map(|_| rng.random_range(0..4) as f64 / 4.0)
            .collect();
        let k = rng.random_range(0..capacities.len());
        let max_rounds = rng.random_range(4..=30);
        if !in_kernel_class(&builds) {
            continue; // a gift held beside a reaction of the holder alone: the general path's
        }
        gifts += builds.iter().any(|b| b.phases & phase::ALLY_GIFT != 0) as u32;
        let want = data_reference::play(cat, &builds, &ini, max_rounds, capacities[k]);
        let mut rec = Rounds::default();
        let got = classes[k].run(cat, &builds, &ini, max_rounds, &mut rec);
        if let Some(r) =
            (0..rec.0.len().max(want.rounds.len())).find(|&r| rec.0.get(r) != want.rounds.get(r))
        {
            panic!(
                "battle {i} (capacity {}), round {}: Energies differ\n kernel: {:?}\n reference: {:?}\n{}",
                capacities[k],
                r + 1,
                &rec.0[..=r.min(rec.0.len() - 1)],
                &want.rounds[..=r.min(want.rounds.len() - 1)],
                builds
                    .iter()
                    .map(|b| format!(
                        "{:?}\n",
                        b.clauses()
                            .iter()
                            .map(|c| &cat.defs[c.power as usize].name)
                            .collect::<Vec<_>>()
                    ))
                    .collect::<String>()
            );
        }
        assert_eq!(got, want.outcome, "battle {i}: outcomes differ");
        let before = (classes[k].ops(), heroes[k].ops());
        let silent = classes[k].run(cat, &builds, &ini, max_rounds, &mut NoHook);
        assert_eq!(silent, want.outcome, "battle {i}: silent outcome differs");
        let by_hero = heroes[k].run(cat, &builds, &ini, max_rounds, &mut NoHook);
        let tested = builds.iter().any(|b| {
            b.clauses()
                .iter()
                .any(|c| cat.defs[c.power as usize].source == "test")
        });
        if !tested {
            ops[0] += classes[k].ops() - before.0;
            ops[1] += heroes[k].ops() - before.1;
        }
        assert_eq!(
            by_hero, want.outcome,
            "battle {i}: hero-by-hero outcome differs"
        );
        for t in 0..n as u16 {
            assert_eq!(
                classes[k].team_alive(t),
                heroes[k].team_alive(t),
                "battle {i}"
            );
            assert_eq!(
                classes[k].hero_energy(t as u32),
                heroes[k].hero_energy(t as u32),
                "battle {i}: original {t}'s Energy"
            );
        }
        capped += want.outcome.capped as u32;
        split_tests += tested as u32;
    }
    Classes {
        capped,
        tested: split_tests,
        gifts,
        ops,
        splits: classes.iter().map(DataKernel::splits).sum(),
    }
}

// Issue 81: every archive power beside Amoeba (and now and then Titanium Skin), the rosters in
// which copies fill the table, played as `simulate` plays them (the fast path where the loadouts
// are in its class, the general path otherwise) against the data reference, battle by battle:
// every round's alive heroes and Energies by id (copies included), births on the general path,
// the outcome.
#[test]
fn every_archive_power_beside_amoeba_plays_as_the_reference() {
    let (battles, full, general) = beside_amoeba(&archive(), 0, 120);
    // The draw reaches full tables and both paths.
    assert!(
        full > battles / 10,
        "a full table in only {full} of {battles} battles"
    );
    assert!(
        general > battles / 3,
        "the general path in only {general} of {battles} battles"
    );
}

// The same for the reactions a host writes (experiments/powers/reactions.toml: Energy on a hit
// or when attacked, healing allies, copying, damage sent back, Energy for a kill), those of the
// holder alone on the fast path (issue 81).
#[test]
fn a_host_s_reactions_beside_amoeba_play_as_the_reference() {
    let cat = Catalogue::new(
        skirmish::games::auto_rumble::powers::file::load(
            &skirmish::platform::sources::Sources::disk(),
            std::path::Path::new("experiments/powers/reactions.toml"),
        )
        .unwrap(),
    );
    let first = archive().len() as u16;
    let (battles, full, _) = beside_amoeba(&cat, first, 300);
    assert!(
        full > battles / 10,
        "a full table in only {full} of {battles} battles"
    );
}

/// `per` random rosters of each drawable power from `first` on, beside Amoeba (and now and
/// then Titanium Skin), played on the path `simulate` takes against the data reference: every
/// round's Energies, births on the general path, the outcome. Returns the battles, those that
/// filled their table and those on the general path.
fn beside_amoeba(cat: &Catalogue, first: u16, per: u64) -> (u32, u32, u32) {
    use rand::seq::SliceRandom;
    use skirmish::games::auto_rumble::powers::catalogue::default_order;
    let amoeba = cat.id("Amoeba").unwrap();
    let skin = cat.id("Titanium Skin").unwrap();
    let mut kernels: Vec<DataKernel> = CAPACITIES.iter().map(|&c| DataKernel::new(c)).collect();
    let (mut battles, mut full, mut general) = (0u32, 0u32, 0u32);
    for p in (first..cat.len() as u16).filter(|&p| p != amoeba && !cat.defs[p as usize].helper) {
        for i in 0..per {
            let mut rng = stream_rng(0x81A, u64::from(p) << 32 | i, Stream::Roster);
            let n = rng.random_range(2..=4);
            let builds: Vec<Loadout> = (0..n)
                .map(|_| {
                    loop {
                        let mut held = Vec::new();
                        let pick = rng.random_range(0..3);
                        if pick != 1 {
                            held.push(Held {
                                power: amoeba,
                                strength: rng.random_range(0..=40),
                            });
                        }
                        if pick != 0 {
                            held.push(Held {
                                power: p,
                                strength: rng.random_range(0..=40),
                            });
                        }
                        if p != skin && rng.random_bool(0.3) {
                            held.push(Held {
                                power: skin,
                                strength: rng.random_range(0..=40),
                            });
                        }
                        let mut order = default_order(cat, &held);
                        order.shuffle(&mut rng);
                        if let Ok(l) =
                            Loadout::compile(cat, rng.random_range(10..=60), &held, &order)
                        {
                            break l;
                        }
                    }
                })
                .collect();
            let ini: Vec<f64> = (0..n).map(|_| rng.random_range(0.0..1.0)).collect();
            let k = rng.random_range(0..CAPACITIES.len());
            let want = data_reference::play(cat, &builds, &ini, 30, CAPACITIES[k]);
            let mut rec = Replayed::default();
            let fast = in_kernel_class(&builds);
            let got = if fast {
                kernels[k].run(cat, &builds, &ini, 30, &mut rec)
            } else {
                kernels[k].general().run(cat, &builds, &ini, 30, &mut rec)
            };
            let name = cat.name(p);
            assert_eq!(
                rec.rounds, want.rounds,
                "{name}, battle {i}: per-round Energies differ"
            );
            if !fast {
                let born: Vec<_> = rec.births.iter().map(|b| (b.0, b.1, b.2)).collect();
                let want_born: Vec<_> = want
                    .births
                    .iter()
                    .map(|b| (b.round, b.parent, b.id))
                    .collect();
                assert_eq!(born, want_born, "{name}, battle {i}: births differ");
            }
            assert_eq!(got, want.outcome, "{name}, battle {i}: outcomes differ");
            if fast {
                // Unwatched, as `simulate` plays it.
                let silent = kernels[k].run(cat, &builds, &ini, 30, &mut NoHook);
                assert_eq!(
                    silent, want.outcome,
                    "{name}, battle {i}: silent outcome differs"
                );
            }
            battles += 1;
            full += got.capped as u32;
            general += !fast as u32;
        }
    }
    (battles, full, general)
}

//! The optimised kernel against the reference model on random battles: identical per-round
//! Energies (hero by hero, in order) and identical outcomes.
//!
//! Rosters: 2-8 heroes, coins -30..=60, random subsets and held orders of the six powers, random
//! use orders. A quarter of the battles force initiative ties (AR-6 tie-break), capacities are
//! mostly small so AR-15 fires often, and round limits vary so AR-14's tie-breaks are exercised.

use rand::RngExt;
use skirmish::games::auto_rumble::input::roster::random_roster;
use skirmish::games::auto_rumble::reference::hand as reference;
use skirmish::games::auto_rumble::trace::hand::{RoundRecorder, Silent};
use skirmish::games::auto_rumble::{Kernel, Lineup, rules};
use skirmish::rng::{Stream, stream_rng};

const CAPACITIES: [usize; 5] = [4, 9, 16, 64, 256];

#[test]
fn kernel_matches_reference_on_10000_random_battles() {
    let mut kernels: Vec<Kernel> = CAPACITIES.iter().map(|&c| Kernel::new(c)).collect();
    let (mut capped, mut round_limit, mut draws, mut copies) = (0, 0, 0, 0);
    for i in 0..10_000u64 {
        let mut rng = stream_rng(0xD1FF, i, Stream::Roster);
        let mut heroes = random_roster(&mut rng, 2..=8, -30..=60);
        if i % 4 == 0 {
            // Force ties: few distinct coin values and base initiatives.
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
        let ini = lineup.initiatives(&mut stream_rng(0xD1FF, i, Stream::Initiative));

        let mut rec = RoundRecorder::default();
        let got = kernels[k].run(&lineup.builds, &ini, max_rounds, &mut rec);
        let want = reference::play(&heroes, &ini, max_rounds, CAPACITIES[k]);
        assert_eq!(
            rec.rounds, want.rounds,
            "battle {i}: per-round Energies differ; heroes {heroes:#?}"
        );
        assert_eq!(got, want.outcome, "battle {i}: outcomes differ");
        // The silent path compacts dead rows lazily: it must reach the same outcome.
        let silent = kernels[k].run(&lineup.builds, &ini, max_rounds, &mut Silent);
        assert_eq!(
            silent, got,
            "battle {i}: silent and observed kernels differ"
        );

        capped += got.capped as u32;
        round_limit += (got.end == skirmish::games::auto_rumble::EndReason::RoundLimit) as u32;
        draws += got.winner.is_none() as u32;
        copies += rec
            .rounds
            .iter()
            .flatten()
            .any(|&(id, _)| id as usize >= heroes.len()) as u32;
    }
    // The random battles must actually reach the rules under test, or the comparison proves little.
    assert!(capped > 500, "capacity fired in only {capped} battles");
    assert!(
        round_limit > 500,
        "round limit decided only {round_limit} battles"
    );
    assert!(draws > 10, "only {draws} draws");
    assert!(copies > 2000, "copies appeared in only {copies} battles");
}

/// Battles where no hero holds a power take the kernel's specialised path when nobody observes
/// (`powerless_round`, and `powerless_rounds` for runs of rounds in which nobody can fall): hold it to the reference too, including zero-damage heroes (coins <= -30,
/// AR-2) whose battles end in stalemates (AR-13) and round limits (AR-14), and the end state that
/// datasets read (each hero's final Energy).
#[test]
fn powerless_fast_path_matches_reference_on_5000_battles() {
    let mut kernel = Kernel::new(64);
    let (mut stalemated, mut limited) = (0, 0);
    for i in 0..5_000u64 {
        let mut rng = stream_rng(0x9A7E, i, Stream::Roster);
        let n = rng.random_range(2..=8usize);
        let heroes: Vec<_> = (0..n)
            .map(|h| {
                let coins = match i % 3 {
                    0 => rng.random_range(-60..=60),
                    1 => [-40, -31, 0, 10][rng.random_range(0..4)],
                    // Large Energies: long runs of rounds in which nobody can fall, which the
                    // kernel plays together (`powerless_rounds`), cut by round limits too.
                    _ => rng.random_range(-20..=400),
                };
                skirmish::games::auto_rumble::HeroSpec::new(&format!("H{h}"), coins, &[])
            })
            .collect();
        let max_rounds = rng.random_range(1..=40);
        let lineup = Lineup::compile(&heroes).unwrap();
        let ini = lineup.initiatives(&mut stream_rng(0x9A7E, i, Stream::Initiative));
        let want = reference::play(&heroes, &ini, max_rounds, 64);
        let got = kernel.run(&lineup.builds, &ini, max_rounds, &mut Silent);
        assert_eq!(got, want.outcome, "battle {i}: outcomes differ; {heroes:?}");
        let last = want.rounds.last().cloned().unwrap_or_default();
        for h in 0..n as u32 {
            let alive = last.iter().find(|&&(id, _)| id == h).map(|&(_, e)| e);
            let expected = if want.rounds.is_empty() {
                kernel.hero_energy(h) // no round played: nothing to compare but liveness below
            } else {
                alive
            };
            assert_eq!(kernel.hero_energy(h), expected, "battle {i}: hero {h}");
        }
        limited += (got.end == skirmish::games::auto_rumble::EndReason::RoundLimit) as u32;
        stalemated +=
            (got.rounds >= 3 && got.hits > 0 && heroes.iter().all(|h| h.coins <= -30)) as u32;
    }
    assert!(limited > 200, "round limit decided only {limited} battles");
    assert!(stalemated > 30, "only {stalemated} all-zero-damage battles");
}

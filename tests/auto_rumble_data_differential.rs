//! Powers as data, held to the hand-written six: the six sample powers loaded from the built-in
//! catalogue file must play exactly as the hand-written kernel and its reference play them.
//! Same per-round Energies, same outcomes, on random rosters (2-8 heroes, coins -30..=60, random
//! subsets and orders of the six, forced initiative ties, small capacities, short round limits).

use rand::RngExt;
use skirmish::games::auto_rumble::catalogue::{Catalogue, Held, Loadout, Use};
use skirmish::games::auto_rumble::roster::random_roster;
use skirmish::games::auto_rumble::{HeroSpec, Lineup, UseItem, data_reference, reference, rules};
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

//! The optimised engine against the plain reference model (`reference.rs`): whole melees of the
//! reference field at random budgets, in both modes, must agree in every number.

use skirmish::games::clan_melee::clans;
use skirmish::games::clan_melee::engine::{Melee, Settings};
use skirmish::games::clan_melee::reference;
use skirmish::games::clan_melee::rules::Mode;
use skirmish::rng::match_seed;

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

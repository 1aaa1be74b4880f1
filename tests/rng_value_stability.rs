//! Fixed seeds give fixed numbers. If a dependency upgrade (rand, rand_xoshiro) or an edit to the
//! derivation changes these, every stored result would silently change meaning: this test fails
//! first. Update the constants only with a deliberate, documented break.

use rand::Rng;
use skirmish::rng::{
    Stream, keyed_coin, match_seed, match_stream_seed, stream_rng, stream_seed, unit_f64,
};

#[test]
fn stream_derivation_and_xoshiro_outputs_are_stable() {
    let seed = stream_seed(42, 7, Stream::Initiative);
    assert_eq!(
        u64::from_le_bytes(seed[..8].try_into().unwrap()),
        EXPECTED_SEED_WORD
    );
    let mut rng = stream_rng(42, 7, Stream::Initiative);
    let got: Vec<u64> = (0..3).map(|_| rng.next_u64()).collect();
    assert_eq!(got, EXPECTED_OUTPUTS);
    let mut rng = stream_rng(0, 0, Stream::Roster);
    assert_eq!(unit_f64(&mut rng), EXPECTED_UNIT);
}

/// Datasets record each match's own seed (the `seed` column); it must keep meaning the same match.
#[test]
fn match_seeds_recorded_in_datasets_are_stable() {
    assert_eq!(match_seed(42, 7), EXPECTED_MATCH_SEED);
    assert_eq!(
        match_stream_seed(match_seed(42, 7), Stream::Initiative),
        stream_seed(42, 7, Stream::Initiative)
    );
}

const EXPECTED_MATCH_SEED: u64 = 17814862988589354131;

const EXPECTED_SEED_WORD: u64 = 4080857549146187286;
const EXPECTED_OUTPUTS: [u64; 3] = [
    15033434999793209047,
    10411582627997172669,
    9261594584370558910,
];
const EXPECTED_UNIT: f64 = 0.8006192665542263;

/// Clan Melee's keyed coins (CM-13): fixed answers for a fixed key, and fair.
#[test]
fn keyed_coins_are_stable_and_fair() {
    let got: Vec<bool> = (0..16).map(|i| keyed_coin(0xC0FFEE, i)).collect();
    let expected: Vec<bool> = EXPECTED_COINS.chars().map(|c| c == 'H').collect();
    assert_eq!(got, expected);
    let heads = (0..100_000).filter(|&i| keyed_coin(7, i)).count();
    assert!(
        (49_000..51_000).contains(&heads),
        "{heads} heads of 100,000"
    );
}

const EXPECTED_COINS: &str = "TTTHTTHTHTHHHTTT";

//! Every random choice of a combat, by its place (MC-30).
//!
//! A combat's choices are read from a counter-based generator keyed by its seed: choice k of
//! purpose p for minion i of side s in round g is `keyed_bits(key, place(g, s, i, p, k))`. No
//! choice depends on how many were drawn before it, so an optimised kernel may draw in any order
//! and still agree with the reference choice for choice.
//!
//! | purpose | who | what |
//! | --- | --- | --- |
//! | `PAIR` (0) | side s, position i | the Fisher-Yates swap of the side's idle bashers (MC-10) |
//! | `WISE` (1) | minion i | the last tiebreaker among equal victims, k-th choice of the round (MC-14) |
//! | `MULTI` (2) | minion i | the victim of its k-th random extra attack (MC-13) |
//! | `EFFECT` (3) | minion i | the enemy a clause of its picks at random, k-th of the round (MC-45) |

use crate::rng::{Stream, keyed_bits, match_stream_key};

pub const PAIR: u64 = 0;
pub const WISE: u64 = 1;
pub const MULTI: u64 = 2;
pub const EFFECT: u64 = 3;

/// The combat's key, from its seed.
pub fn key(seed: u64) -> u64 {
    match_stream_key(seed, Stream::Minions)
}

/// The place of choice `k` (0..256) of `purpose` for minion `i` (0..16) of side `s` in round `g`.
#[inline(always)]
pub fn place(g: u32, s: usize, i: usize, purpose: u64, k: u64) -> u64 {
    ((((g as u64) * 2 + s as u64) * 16 + i as u64) << 12) | (purpose << 8) | (k & 0xFF)
}

/// A uniform index below `n` (n > 0) at `place`.
#[inline(always)]
pub fn below(key: u64, place: u64, n: usize) -> usize {
    (((keyed_bits(key, place) as u128) * n as u128) >> 64) as usize
}

/// Where a combat's random choices come from: the keyed hash of its seed in every simulation;
/// a script when exact enumeration walks every branch (MC-37).
pub trait Dice {
    /// A uniform index below `n` (n > 0) for the choice at `place`.
    fn below(&mut self, place: u64, n: usize) -> usize;
}

/// The choices of the combat whose key is `.0` (MC-30).
pub struct Keyed(pub u64);

impl Dice for Keyed {
    #[inline(always)]
    fn below(&mut self, place: u64, n: usize) -> usize {
        below(self.0, place, n)
    }
}

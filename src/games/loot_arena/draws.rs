//! Every random number of a Loot Arena battle, by its place (LA-30).
//!
//! A battle's dice are read from a counter-based generator keyed by the battle's seed: die k of
//! purpose p of champion c in round g is `bits(key, place(g, c, p, k))`. No die depends on
//! how many were drawn before it, so
//! - the kernel and the reference model may roll in any order and still agree die for die;
//! - paired comparisons are as tight as they can be: giving one champion an item adds its dice
//!   and changes nobody else's rolls (common random numbers, LA-31).
//!
//! | purpose | who rolls | what |
//! | --- | --- | --- |
//! | `BASE` (0) | an attacker | its class's base dice, in order (crit read from them, LA-10) |
//! | `ITEM + s` (1-4) | an attacker, healer or supporter | the dice of its item in slot s |
//! | `DEFENCE` (5) | the attacker, for its target | the target's armor dice (LA-14) |
//! | `EVADE` (6) | the attacker, for an evading target | the evade dice (LA-13) |
//! | `ACTION` (7) | a healer or supporter | the heal die (1d20) or the support dice |
//! | `POLICY` (8) | a `random` player | its action, preference list and heal target |

use crate::rng::{Stream, match_stream_key};

pub const BASE: u64 = 0;
pub const ITEM: u64 = 1;
pub const DEFENCE: u64 = 5;
pub const EVADE: u64 = 6;
pub const ACTION: u64 = 7;
pub const POLICY: u64 = 8;
/// Purposes in all (the log of one action keeps a row per purpose).
pub const PURPOSES: usize = 9;

/// The battle's key, from its seed.
#[inline]
pub fn key(seed: u64) -> u64 {
    match_stream_key(seed, Stream::Loot)
}

/// The place of die `k` (0..32) of `purpose` for fielded champion `c` in round `g` (0-based over
/// the whole battle).
#[inline(always)]
pub fn place(g: u32, c: usize, purpose: u64, k: u64) -> u64 {
    (((g as u64) * 4 + c as u64) << 9) | (purpose << 5) | k
}

/// 64 random bits at `place`: wyrand's output number `place + 1` from state `key` (the state
/// steps by a fixed odd constant; the output folds one 64x64 -> 128-bit product of the state
/// with itself xored with a second constant). One wide multiply a die where SplitMix64's
/// finaliser takes two and three shifts; wyrand passes BigCrush and PractRand, and dice are
/// read by place as before (LA-30).
#[inline(always)]
pub fn bits(key: u64, place: u64) -> u64 {
    let s = key.wrapping_add(WY_STEP.wrapping_mul(place.wrapping_add(1)));
    let t = (s as u128) * ((s ^ WY_MIX) as u128);
    (t >> 64) as u64 ^ t as u64
}

const WY_STEP: u64 = 0xa076_1d64_78bd_642f;
const WY_MIX: u64 = 0xe703_7ed1_a0b4_28db;

/// A die of `sides` faces at `place`: 1..=sides by the multiply-shift map of 64 random bits
/// (its bias, under sides / 2^64, is far below anything a test could see).
#[inline(always)]
pub fn die(key: u64, place: u64, sides: u16) -> u32 {
    (((bits(key, place) as u128) * sides as u128) >> 64) as u32 + 1
}

/// Where dice come from: the battle's key in play; a fixed list in the golden tests that
/// replay the rules' worked example from its stated rolls.
pub trait Roller {
    /// A die depends on its place alone, so one may be read and not used (the kernel reads a
    /// class's base dice four at a time, branch-free).
    const PURE: bool = false;
    fn die(&mut self, place: u64, sides: u16) -> u32;
}

/// The battle's dice, read by place.
pub struct Keyed(pub u64);

impl Roller for Keyed {
    const PURE: bool = true;
    #[inline(always)]
    fn die(&mut self, place: u64, sides: u16) -> u32 {
        die(self.0, place, sides)
    }
}

/// Given rolls, in the order they are asked for (any face, even one the die does not have: the
/// rules' example rolls a 10 on a d5).
pub struct Scripted {
    pub rolls: Vec<u32>,
    pub next: usize,
}

impl Roller for Scripted {
    fn die(&mut self, _place: u64, _sides: u16) -> u32 {
        let v = self.rolls.get(self.next).copied().unwrap_or(1);
        self.next += 1;
        v
    }
}

/// Where an action's dice go when it is narrated (`()` keeps nothing).
pub trait Log {
    /// Whether it keeps anything (`()` does not).
    const KEEPS: bool = true;
    fn die(&mut self, purpose: u64, value: u32);
}

impl Log for () {
    const KEEPS: bool = false;
    #[inline(always)]
    fn die(&mut self, _purpose: u64, _value: u32) {}
}

/// An action's dice, by purpose.
#[derive(Clone, Copy, Debug)]
pub struct Rolls {
    pub values: [[u16; 32]; PURPOSES],
    pub n: [u8; PURPOSES],
}

impl Default for Rolls {
    fn default() -> Rolls {
        Rolls {
            values: [[0; 32]; PURPOSES],
            n: [0; PURPOSES],
        }
    }
}

impl Rolls {
    pub fn of(&self, purpose: u64) -> &[u16] {
        &self.values[purpose as usize][..self.n[purpose as usize] as usize]
    }
}

impl Log for Rolls {
    fn die(&mut self, purpose: u64, value: u32) {
        let p = purpose as usize;
        let k = self.n[p] as usize;
        if k < 32 {
            self.values[p][k] = value as u16;
            self.n[p] += 1;
        }
    }
}

/// The royale's own randomness (LA-49), read like a battle's dice: draw k of purpose p for
/// subject s (a player, a cell, a battle) in round g is `keyed_bits(key, game_place(g, p, s, k))`,
/// so a player's loot never depends on how much the others looted, and a battle's dice come
/// from its own seed (drawn at its place here), never from the game's earlier draws.
///
/// | purpose | subject | what |
/// | --- | --- | --- |
/// | `SPAWN` (0) | draw k | the shuffle that gives players distinct cells (LA-40) |
/// | `MERGE` (1) | a player | its side of the middle line when the map shrinks (LA-41) |
/// | `STEP` (2) | a player | a `wanderer`'s random step |
/// | `LOOT` (3) | a player | action k: the item's tier, kind and pick (LA-42) |
/// | `SPLIT` (4) | a cell | the shuffle that pairs the players on it (LA-46) |
/// | `TWICE` (5) | a cell | who fights the odd player (LA-46) |
/// | `BATTLE` (6) | a battle | the battle's seed (its dice follow LA-30) |
pub mod royale {
    pub const SPAWN: u64 = 0;
    pub const MERGE: u64 = 1;
    pub const STEP: u64 = 2;
    pub const LOOT: u64 = 3;
    pub const SPLIT: u64 = 4;
    pub const TWICE: u64 = 5;
    pub const BATTLE: u64 = 6;

    /// The game's key, from its seed.
    #[inline]
    pub fn key(seed: u64) -> u64 {
        crate::rng::match_stream_key(seed, crate::rng::Stream::Royale)
    }

    /// The place of draw `k` (under 4096) of `purpose` for `subject` (under 4096) in round `g`.
    #[inline]
    pub fn place(g: u32, purpose: u64, subject: u64, k: u64) -> u64 {
        ((g as u64) << 28) | (purpose << 24) | (subject << 12) | k
    }

    /// Draw k of a place as 64 random bits.
    #[inline]
    pub fn bits(key: u64, g: u32, purpose: u64, subject: u64, k: u64) -> u64 {
        crate::rng::keyed_bits(key, place(g, purpose, subject, k))
    }

    /// A number in `0..n` from 64 random bits (multiply-shift).
    #[inline]
    pub fn below(bits: u64, n: u64) -> u64 {
        ((bits as u128 * n as u128) >> 64) as u64
    }
}

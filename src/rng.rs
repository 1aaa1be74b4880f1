//! Where every random number comes from.
//!
//! A match's randomness comes only from `(master seed, match index)`: the pair is hashed, together
//! with a per-purpose stream tag, into the 256-bit seed of a xoshiro256++ generator. Neighbouring
//! matches never share a generator offset by a fixed increment, and each purpose (roster setup,
//! initiative, battle chance) has its own stream, so changing how one is used leaves the others'
//! draws alone (paired comparisons rely on it). `rand` and `rand_xoshiro` are pinned exactly in
//! Cargo.toml and `tests/games/rng_value_stability.rs` fixes the first outputs.

use rand::SeedableRng;
pub use rand_xoshiro::Xoshiro256PlusPlus as MatchRng;

/// A purpose a match draws random numbers for: its tag, part of the derivation (never renumber
/// one). Each game declares the streams it draws from in its `GAME` (`games::Game::streams`),
/// and a test keeps every tag in the registry to one game, so a new game names its own streams
/// in its own folder (`Stream::new(15, "...")`) without touching this file (issue 78).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stream {
    tag: u64,
    /// What the stream draws, as a reader would say it.
    pub what: &'static str,
}

// The streams keep the names they had as an enum's variants, so every call site reads as before.
#[allow(non_upper_case_globals)]
impl Stream {
    /// A stream with tag `tag`: a number no other stream in the registry uses.
    pub const fn new(tag: u64, what: &'static str) -> Stream {
        Stream { tag, what }
    }

    /// The tag mixed into the match's seed.
    pub const fn tag(self) -> u64 {
        self.tag
    }

    /// Drawing a random roster (heroes, coins, powers, orders).
    pub const Roster: Stream = Stream::new(1, "Auto Rumble's random rosters");
    /// Base initiatives (AR-19).
    pub const Initiative: Stream = Stream::new(2, "Auto Rumble's base initiatives");
    /// Chance during a battle (no Auto Rumble rule uses it yet).
    pub const Battle: Stream = Stream::new(3, "Auto Rumble's chance in battle (unused)");
    /// The full game's pool: the starting powers and each round's reveal (AR-50).
    pub const Pool: Stream = Stream::new(4, "Auto Rumble's pool and reveals");
    /// Strategies' own choices in the full game (AR-50).
    pub const Bidding: Stream = Stream::new(5, "Auto Rumble's strategies' choices");
    /// A Clan Melee's budget: the classic 5% wiggle (CM-30).
    pub const Budget: Stream = Stream::new(6, "Clan Melee's budget wiggle");
    /// Elemental Tag's rule draws: ties for it, places, a random new it (TG-40).
    pub const Tag: Stream = Stream::new(7, "Elemental Tag's rule draws");
    /// Elemental Tag's policies' own choices (TG-40).
    pub const Moves: Stream = Stream::new(8, "Elemental Tag's policies' choices");
    /// Loot Arena's dice: a battle's key, from which every die is read by its place (LA-30).
    pub const Loot: Stream = Stream::new(9, "Loot Arena's dice");
    /// Loot Arena's random equipment and fielded pairs in simulations and analyses (LA-31).
    pub const LootField: Stream = Stream::new(10, "Loot Arena's random fields");
    /// Minion Combat's random choices: a combat's key, from which every choice is read by its
    /// place (MC-30).
    pub const Minions: Stream = Stream::new(11, "Minion Combat's choices");
    /// Minion Combat's random groups in simulations and analyses (MC-31).
    pub const MinionField: Stream = Stream::new(12, "Minion Combat's random groups");
    /// Loot Arena's royale: a game's key, from which spawns, loot, splits and battle seeds are
    /// read by their place (LA-49).
    pub const Royale: Stream = Stream::new(13, "Loot Arena's royale");
    /// Elemental Tag's order of policies around the table in a candidate run, one per cycle of
    /// P games (TG-50).
    pub const Seats: Stream = Stream::new(14, "Elemental Tag's seat order");
}

/// SplitMix64's finaliser: a bijective 64-bit mixer with full avalanche.
#[inline]
const fn fmix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

const GOLDEN: u64 = 0x9E37_79B9_7F4A_7C15;

/// Match `index`'s own seed under `master`: the one number a match's randomness derives from.
/// Datasets record it (the `seed` column), so one match can be replayed without the master seed.
pub const fn match_seed(master: u64, index: u64) -> u64 {
    // Chain the inputs through the mixer so each bit of each input reaches every output bit.
    let key = fmix64(master.wrapping_add(GOLDEN));
    fmix64(key ^ index.wrapping_mul(0xD6E8_FEB8_6659_FD93))
}

/// The 256-bit generator seed of `stream` in match `index` under `master`.
pub fn stream_seed(master: u64, index: u64, stream: Stream) -> [u8; 32] {
    match_stream_seed(match_seed(master, index), stream)
}

/// The 256-bit generator seed of `stream` in the match whose [`match_seed`] is `seed`.
pub fn match_stream_seed(seed: u64, stream: Stream) -> [u8; 32] {
    let key = stream_key(seed, stream);
    let mut out = [0u8; 32];
    for (i, word) in out.chunks_exact_mut(8).enumerate() {
        word.copy_from_slice(&stream_word(key, i as u64).to_le_bytes());
    }
    out
}

/// The first 64 bits of [`match_stream_seed`] (little-endian): the key of a game whose draws
/// are read by place (Loot Arena, Minion Combat), without mixing the three words it never reads.
#[inline]
pub fn match_stream_key(seed: u64, stream: Stream) -> u64 {
    stream_word(stream_key(seed, stream), 0)
}

#[inline]
fn stream_key(seed: u64, stream: Stream) -> u64 {
    fmix64(seed ^ stream.tag.wrapping_mul(0xA076_1D64_78BD_642F))
}

/// Word `i` of a stream seed whose mixed key is `key`.
#[inline]
fn stream_word(key: u64, i: u64) -> u64 {
    fmix64(key.wrapping_add(GOLDEN.wrapping_mul(i + 1)))
}

/// The generator for `stream` in match `index` under `master`.
pub fn stream_rng(master: u64, index: u64, stream: Stream) -> MatchRng {
    MatchRng::from_seed(stream_seed(master, index, stream))
}

/// The generator for `stream` in the match whose [`match_seed`] is `seed`.
pub fn match_stream_rng(seed: u64, stream: Stream) -> MatchRng {
    MatchRng::from_seed(match_stream_seed(seed, stream))
}

/// SplitMix64's output number `index + 1` under `key`: 64 bits that look independent of every
/// other index's. Counter-based, so a turn's coins can be read in any order, by any thread, and
/// give the same answers (CM-13).
#[inline(always)]
pub fn keyed_bits(key: u64, index: u64) -> u64 {
    fmix64(key.wrapping_add(GOLDEN.wrapping_mul(index.wrapping_add(1))))
}

/// A uniform draw in [0, 1) with 53 bits, written out so that it never depends on a `rand`
/// distribution's implementation (AR-19).
#[inline]
pub fn unit_f64(rng: &mut impl rand::Rng) -> f64 {
    (rng.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn streams_and_neighbouring_matches_get_unrelated_seeds() {
        let a = stream_seed(42, 0, Stream::Initiative);
        assert_ne!(a, stream_seed(42, 1, Stream::Initiative));
        assert_ne!(a, stream_seed(42, 0, Stream::Roster));
        assert_ne!(a, stream_seed(43, 0, Stream::Initiative));
        assert_eq!(a, stream_seed(42, 0, Stream::Initiative));
    }

    #[test]
    fn a_stream_key_is_the_first_word_of_its_seed() {
        for (seed, stream) in [
            (0, Stream::Loot),
            (42, Stream::Minions),
            (u64::MAX, Stream::Royale),
        ] {
            let s = match_stream_seed(seed, stream);
            assert_eq!(
                match_stream_key(seed, stream),
                u64::from_le_bytes(s[..8].try_into().unwrap())
            );
        }
    }

    #[test]
    fn unit_draws_stay_in_the_half_open_unit_interval() {
        let mut rng = stream_rng(1, 2, Stream::Initiative);
        for _ in 0..10_000 {
            let x = unit_f64(&mut rng);
            assert!((0.0..1.0).contains(&x));
        }
    }
}

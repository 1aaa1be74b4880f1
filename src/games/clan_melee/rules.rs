//! The member primitives of Clan Melee (CM-1 .. CM-4) and the two modes (CM-10). Each is a tiny
//! pure function, shared by the engine and the reference model so both say the same thing.
//! All arithmetic wraps like the reference engine's 32-bit Java ints.

use rand::{Rng, RngExt};

/// Action points a member may spend without hurting itself (CM-2).
pub const FREE_AP: i32 = 10;

/// Which rules the engine plays (CM-10).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// The seed's rules with the reference engine's order of events, but action points below 0
    /// count as 0 and a member is dead at hp <= 0.
    Sane,
    /// The reference engine exactly: negative action points, zombies alive at negative hp, the
    /// win credited to clan 0 when the survivors' total is <= 0.
    Reference,
}

impl Mode {
    pub fn name(self) -> &'static str {
        match self {
            Mode::Sane => "sane",
            Mode::Reference => "reference",
        }
    }

    /// Reference mode when `reference`, else sane (a constant inside code compiled per mode).
    #[inline(always)]
    pub const fn of(reference: bool) -> Mode {
        if reference {
            Mode::Reference
        } else {
            Mode::Sane
        }
    }

    pub fn parse(s: &str) -> Result<Mode, String> {
        match s {
            "sane" => Ok(Mode::Sane),
            "reference" => Ok(Mode::Reference),
            _ => Err(format!("--mode `{s}`: write sane or reference")),
        }
    }

    /// CM-4 / CM-10: alive while hp != 0 (reference: negative hp is a "zombie"), hp > 0 (sane).
    #[inline]
    pub fn alive(self, hp: i32) -> bool {
        match self {
            Mode::Sane => hp > 0,
            Mode::Reference => hp != 0,
        }
    }

    /// CM-10: after the cap, sane mode counts action points below 0 as 0.
    #[inline]
    pub fn floor(self, x: i32) -> i32 {
        match self {
            Mode::Sane => x.max(0),
            Mode::Reference => x,
        }
    }
}

/// CM-1: the upper cap, 2 x hp + 10 with the current hp. No lower bound.
#[inline]
pub fn cap(ap: i32, hp: i32) -> i32 {
    ap.min(hp.wrapping_mul(2).wrapping_add(FREE_AP))
}

/// CM-2: self-damage for spending `ap`: (ap - 11) / 2 + 1 above 10, i.e. ceil((ap - 10) / 2).
#[inline]
pub fn self_damage(ap: i32) -> i32 {
    if ap > FREE_AP { (ap - 11) / 2 + 1 } else { 0 }
}

/// CM-2: hp after paying for `ap`. The step runs only above the free 10 AP, as the original
/// engine does: run at every decision, its floor would reset a zombie's negative hp to 0.
#[inline]
pub fn pay(hp: i32, ap: i32) -> i32 {
    if ap > FREE_AP {
        damage(hp, self_damage(ap))
    } else {
        hp
    }
}

/// CM-3: heal: hp += x, then no more than max. No floor: a negative heal hurts.
#[inline]
pub fn heal(hp: i32, max: i32, x: i32) -> i32 {
    hp.wrapping_add(x).min(max)
}

/// CM-3: damage: hp -= x, then no less than 0. No ceiling: a negative hit raises hp past max.
#[inline]
pub fn damage(hp: i32, x: i32) -> i32 {
    hp.wrapping_sub(x).max(0)
}

/// CM-2: the -1 to max hit points when deciding (and for the odd participant), hp clamped to it.
#[inline]
pub fn decay(hp: i32, max: i32) -> (i32, i32) {
    let max = max.wrapping_sub(1);
    (hp.min(max), max)
}

/// CM-13: the three fair coins of pair q in a turn whose key is `key`: the top three bits of
/// [`crate::rng::keyed_bits`]`(key, q)`, a clear bit for heads. Bit 2 says who is p1 (heads: the
/// member at position 2q), bit 1 whether p1's hit lands on a partner who ran away, bit 0 the same
/// for p2 (CM-8). One hash per pair, read in any order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Coins(pub u32);

impl Coins {
    #[inline(always)]
    pub fn of(key: u64, q: usize) -> Coins {
        Coins((crate::rng::keyed_bits(key, q as u64) >> 61) as u32)
    }
    /// Where p1 sits within its pair: 0 (position 2q, heads) or 1; p2 sits at the other.
    #[inline(always)]
    pub fn p1_offset(self) -> usize {
        (self.0 >> 2 & 1) as usize
    }
    /// p1's hit on a partner who ran away lands (heads).
    #[inline(always)]
    pub fn p1_lands(self) -> bool {
        self.0 & 2 == 0
    }
    /// p2's hit on a partner who ran away lands (heads).
    #[inline(always)]
    pub fn p2_lands(self) -> bool {
        self.0 & 1 == 0
    }
}

/// CM-30: the classic tournament's 5% wiggle: k = base / 20, amount uniform in [0, k), then
/// plus or minus with a fair flip. A base below 20 has no wiggle.
pub fn wiggle(base: i64, rng: &mut impl Rng) -> i64 {
    let k = base / 20;
    let amount = if k > 0 {
        rng.random_range(0..k as u64) as i64
    } else {
        0
    };
    if crate::rng::unit_f64(rng) < 0.5 {
        base + amount
    } else {
        base - amount
    }
}

//! The member primitives of Clan Melee (CM-1 .. CM-4) and the two modes (CM-10). Each is a tiny
//! pure function, shared by the engine and the reference model so both say the same thing.
//! All arithmetic wraps like the reference engine's 32-bit Java ints.

use crate::error::Error;
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

    pub fn parse(s: &str) -> Result<Mode, Error> {
        match s {
            "sane" => Ok(Mode::Sane),
            "reference" => Ok(Mode::Reference),
            _ => Err(Error::Input(format!(
                "--mode `{s}`: write sane or reference"
            ))),
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

/// The numbers of a melee a host may change (issue 51: `--rules FILE`), the seed's by default
/// ([`Rules::SEED`]). Every one feeds the wrapping 32-bit arithmetic of CM-1 and CM-2.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Rules {
    /// CM-2: action points a member may spend without hurting itself.
    pub free_ap: i32,
    /// CM-2: action points past the free ones per point of iteration damage.
    pub ap_per_damage: i32,
    /// CM-2, CM-9: max hit points every member loses each turn.
    pub decay: i32,
    /// CM-1: the cap's hit points factor (the cap is `cap_per_hp x hp + cap_bonus`).
    pub cap_per_hp: i32,
    /// CM-1: the cap's constant.
    pub cap_bonus: i32,
}

impl Default for Rules {
    fn default() -> Rules {
        Rules::SEED
    }
}

impl Rules {
    /// The seed's numbers (and the classic engine's cap).
    pub const SEED: Rules = Rules {
        free_ap: FREE_AP,
        ap_per_damage: 2,
        decay: 1,
        cap_per_hp: 2,
        cap_bonus: FREE_AP,
    };

    /// CM-1: the upper cap, `cap_per_hp x hp + cap_bonus` with the current hp, wrapping. No lower
    /// bound.
    #[inline(always)]
    pub fn cap(&self, ap: i32, hp: i32) -> i32 {
        ap.min(
            hp.wrapping_mul(self.cap_per_hp)
                .wrapping_add(self.cap_bonus),
        )
    }

    /// CM-2: self-damage for spending `ap`: `(ap - free - 1) / ap_per_damage + 1` above the free
    /// action points, i.e. one point per `ap_per_damage` past them, rounded up.
    #[inline(always)]
    pub fn self_damage(&self, ap: i32) -> i32 {
        if ap > self.free_ap {
            (ap - self.free_ap - 1) / self.ap_per_damage + 1
        } else {
            0
        }
    }

    /// CM-2: hp after paying for `ap`. The step runs only above the free action points, as the
    /// original engine does: run at every decision, its floor would reset a zombie's negative hp
    /// to 0.
    #[inline(always)]
    pub fn pay(&self, hp: i32, ap: i32) -> i32 {
        if ap > self.free_ap {
            damage(hp, self.self_damage(ap))
        } else {
            hp
        }
    }

    /// CM-2, CM-9: max hit points drop by `decay` when deciding (and for the odd participant),
    /// hp clamped to them.
    #[inline(always)]
    pub fn decay(&self, hp: i32, max: i32) -> (i32, i32) {
        let max = max.wrapping_sub(self.decay);
        (hp.min(max), max)
    }

    /// CM-12: whether a field of healers without side effects, all at hp < 0 and max < 0, can
    /// never lose a member: their cap at hp = -1 (the highest) keeps every decision within the
    /// free action points, so none pays iteration damage, whose floor at 0 would kill it. The
    /// seed's numbers (cap 2 x -1 + 10 = 8 <= 10) hold; rules that break it play such melees to
    /// the turn cap instead.
    pub fn deadlock_is_final(&self) -> bool {
        self.cap_per_hp >= 0
            && self.cap_bonus as i64 - self.cap_per_hp as i64 <= self.free_ap as i64
    }

    /// The field out of its range and the fix, if any.
    pub fn check(&self) -> Result<(), (&'static str, String)> {
        let within = |field, v: i32, lo: i32, hi: i32, what: &str| {
            if (lo..=hi).contains(&v) {
                Ok(())
            } else {
                Err((field, format!("{v}: give {lo} to {hi} ({what})")))
            }
        };
        let m = 1_000_000;
        within("free_ap", self.free_ap, 0, m, "free action points, CM-2")?;
        within(
            "ap_per_damage",
            self.ap_per_damage,
            1,
            m,
            "action points per point of iteration damage, CM-2",
        )?;
        within(
            "decay",
            self.decay,
            0,
            m,
            "max hit points lost each turn, CM-2",
        )?;
        within(
            "cap_per_hp",
            self.cap_per_hp,
            0,
            1_000,
            "the cap's factor on hit points, CM-1",
        )?;
        within(
            "cap_bonus",
            self.cap_bonus,
            0,
            m,
            "the cap's constant, CM-1",
        )
    }

    /// Where these rules depart from the seed's, in plain words (`decay 1 -> 2`).
    pub fn changes(&self) -> Vec<String> {
        crate::games::changes::of(&Rules::SEED, self)
    }
}

/// CM-1 with the seed's numbers: the upper cap, 2 x hp + 10 with the current hp. No lower bound.
#[inline]
pub fn cap(ap: i32, hp: i32) -> i32 {
    Rules::SEED.cap(ap, hp)
}

/// CM-2 with the seed's numbers: self-damage for spending `ap`: (ap - 11) / 2 + 1 above 10, i.e.
/// ceil((ap - 10) / 2).
#[inline]
pub fn self_damage(ap: i32) -> i32 {
    Rules::SEED.self_damage(ap)
}

/// CM-2 with the seed's numbers: hp after paying for `ap`.
#[inline]
pub fn pay(hp: i32, ap: i32) -> i32 {
    Rules::SEED.pay(hp, ap)
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

/// CM-2 with the seed's numbers: the -1 to max hit points when deciding (and for the odd
/// participant), hp clamped to it.
#[inline]
pub fn decay(hp: i32, max: i32) -> (i32, i32) {
    Rules::SEED.decay(hp, max)
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

#[cfg(test)]
mod tests {
    use super::*;

    // CM-1, CM-2 as settings: the seed's numbers give the seed's formulas; others scale them.
    #[test]
    fn other_numbers_scale_the_cap_the_iteration_damage_and_the_decay() {
        for ap in -5..60 {
            assert_eq!(
                Rules::SEED.self_damage(ap),
                if ap > 10 { (ap - 9) / 2 } else { 0 }
            );
        }
        let r = Rules {
            free_ap: 5,
            ap_per_damage: 3,
            decay: 2,
            cap_per_hp: 3,
            cap_bonus: 1,
        };
        assert_eq!([6, 8, 9, 11].map(|ap| r.self_damage(ap)), [1, 1, 2, 2]);
        assert_eq!(r.cap(100, 10), 31);
        assert_eq!(r.decay(50, 50), (48, 48));
        assert_eq!(r.pay(-3, 5), -3, "no payment within the free points");
        assert_eq!(r.changes().len(), 5);
        assert!(r.check().is_ok());
        assert!(
            Rules {
                ap_per_damage: 0,
                ..r
            }
            .check()
            .is_err()
        );
        assert!(Rules { decay: -1, ..r }.check().is_err());
    }
}

//! The field (every clan's kinds and rules in flat, id-indexed tables) and the participants as
//! struct-of-arrays columns. The engine and the reference model both decide through
//! [`Field::decide`], so a rule means one thing everywhere.

use crate::error::Error;
use crate::games::clan_melee::input::clan::{Case, Clan};
use crate::games::clan_melee::input::expr::{Env, Op, Var};
use crate::games::clan_melee::kernel::pairs::Pairs;
use crate::rng::MatchRng;
use rand::RngExt;

/// Most clans in one melee (a clan index is a `u8`).
pub const MAX_CLANS: usize = 255;

/// One member kind of the field.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FieldKind {
    pub clan: u8,
    pub healer: bool,
    /// Its rule can hurt the partner at decision time (CM-24).
    pub effect: bool,
    cases_start: u32,
    cases_len: u32,
}

/// The clans of a melee, compiled together. Clan ids are positions in `clans` (CM-5).
#[derive(Clone, Debug)]
pub struct Field {
    pub clans: Vec<Clan>,
    pub kinds: Vec<FieldKind>,
    /// `kind_base[c]` is the field kind id of clan c's kind 0.
    pub kind_base: Vec<u16>,
    cases: Vec<Case>,
    ops: Vec<Op>,
    /// The same rules folded per partner class, for the engine (`pairs.rs`).
    pub pairs: Pairs,
    /// The melee's numbers (issue 51: a rules file), the seed's by default: the field is what
    /// the engine and the reference are handed for every melee.
    pub rules: crate::games::clan_melee::rules::Rules,
}

impl Field {
    pub fn new(clans: Vec<Clan>) -> Result<Field, Error> {
        if clans.len() < 2 || clans.len() > MAX_CLANS {
            return Err(Error::Input(format!(
                "a melee needs 2 to {MAX_CLANS} clans; {} given",
                clans.len()
            )));
        }
        let mut kinds = Vec::new();
        let mut kind_base = Vec::new();
        let mut cases = Vec::new();
        let mut ops = Vec::new();
        for (c, clan) in clans.iter().enumerate() {
            kind_base.push(kinds.len() as u16);
            let base = ops.len() as u32;
            ops.extend_from_slice(&clan.ops);
            let shift = |p: crate::games::clan_melee::input::expr::Prog| {
                crate::games::clan_melee::input::expr::Prog {
                    start: p.start + base,
                    len: p.len,
                }
            };
            for k in &clan.kinds {
                let start = cases.len() as u32;
                for case in &k.cases {
                    cases.push(Case {
                        when: case.when.map(shift),
                        ap: shift(case.ap),
                        damage_other: case.damage_other.map(shift),
                    });
                }
                kinds.push(FieldKind {
                    clan: c as u8,
                    healer: k.healer,
                    effect: k.has_effect(),
                    cases_start: start,
                    cases_len: k.cases.len() as u32,
                });
            }
        }
        if kinds.len() > u16::MAX as usize {
            return Err(Error::Input(format!(
                "the field has {} member kinds; at most {}",
                kinds.len(),
                u16::MAX
            )));
        }
        let pairs = Pairs::new(
            kinds
                .iter()
                .map(|k| &cases[k.cases_start as usize..(k.cases_start + k.cases_len) as usize]),
            &ops,
        );
        Ok(Field {
            clans,
            kinds,
            kind_base,
            cases,
            ops,
            pairs,
            rules: crate::games::clan_melee::rules::Rules::SEED,
        })
    }

    /// Where kind `me`'s folded rule facing a partner of kind `other` lives in [`Field::pairs`].
    #[inline(always)]
    pub fn pair_slot(&self, me: u16, other: u16) -> usize {
        let o = self.kinds[other as usize];
        Pairs::slot(me, self.kinds[me as usize].clan == o.clan, o.healer)
    }

    /// A member of kind `me` with (`hp`, `max`) decides against a partner of kind `other` with
    /// (`ohp`, `omax`) (CM-6): the rule's action points, and the damage its case deals to the
    /// partner first, if any (CM-24). The cap and the mode are the caller's.
    #[inline]
    #[allow(clippy::too_many_arguments)]
    pub fn decide(
        &self,
        mode: crate::games::clan_melee::rules::Mode,
        me: u16,
        hp: i32,
        max: i32,
        other: u16,
        ohp: i32,
        omax: i32,
    ) -> (i32, Option<i32>) {
        let k = self.kinds[me as usize];
        let o = self.kinds[other as usize];
        let mut env: Env = [0; 9];
        env[Var::MeHp as usize] = hp;
        env[Var::MeMax as usize] = max;
        env[Var::OtherHp as usize] = ohp;
        env[Var::OtherMax as usize] = omax;
        env[Var::Same as usize] = (k.clan == o.clan) as i32;
        env[Var::OtherHealer as usize] = o.healer as i32;
        env[Var::OtherWarrior as usize] = !o.healer as i32;
        let cases = &self.cases[k.cases_start as usize..(k.cases_start + k.cases_len) as usize];
        for c in cases {
            if let Some(w) = c.when
                && w.run(&self.ops, &env) == 0
            {
                continue;
            }
            // Sane mode deals no negative damage, as it spends no negative action points (CM-10).
            let hit = c.damage_other.map(|d| mode.floor(d.run(&self.ops, &env)));
            if let Some(d) = hit {
                // The side effect lands before the action points are read (CM-24).
                env[Var::OtherHp as usize] = crate::games::clan_melee::rules::damage(ohp, d);
            }
            return (c.ap.run(&self.ops, &env), hit);
        }
        unreachable!("the last case has no `when` (checked when the clan compiled)")
    }
}

/// The participants of a melee, one column per attribute: a turn streams through `hp`, `max` and
/// `kind` in pairs, and removing the dead compacts all three in one pass.
#[derive(Clone, Debug, Default)]
pub struct Participants {
    pub hp: Vec<i32>,
    pub max: Vec<i32>,
    pub kind: Vec<u16>,
}

/// [`Participants`] seen as pairs: row q holds positions 2q and 2q + 1 of each column.
pub struct PairColumns<'a> {
    pub hp: &'a mut [[i32; 2]],
    pub max: &'a mut [[i32; 2]],
    pub kind: &'a [[u16; 2]],
}

impl Participants {
    pub fn len(&self) -> usize {
        self.hp.len()
    }
    pub fn is_empty(&self) -> bool {
        self.hp.is_empty()
    }
    pub fn clear(&mut self) {
        self.hp.clear();
        self.max.clear();
        self.kind.clear();
    }
    /// The columns cut into pairs (positions 2q, 2q + 1), the odd one out left off.
    #[inline(always)]
    pub fn pair_columns(&mut self) -> PairColumns<'_> {
        PairColumns {
            hp: self.hp.as_chunks_mut().0,
            max: self.max.as_chunks_mut().0,
            kind: self.kind.as_chunks().0,
        }
    }
    pub fn push(&mut self, hp: i32, max: i32, kind: u16) {
        self.hp.push(hp);
        self.max.push(max);
        self.kind.push(kind);
    }
    /// CM-6: draws the turn's pairs, a uniformly random matching: with an odd count a uniform
    /// draw first picks who sits out, swapped to the last position; then for q = 0, 1, ...
    /// position 2q is paired with a uniform draw from positions [2q + 1, m) (m: the even count),
    /// swapped to position 2q + 1. (Who of the two is p1 is the turn's coin, CM-13.) One draw
    /// per pair, half a full shuffle's. The draws are made `AHEAD` pairs early, in the same
    /// order, so the random slot each swap touches can be fetched into cache while earlier swaps
    /// run (a million-member turn no longer waits on memory at every step).
    #[inline(always)]
    pub fn draw_pairs(&mut self, rng: &mut MatchRng) {
        const AHEAD: usize = 16;
        // Below this many participants (160 KB of columns) there is no memory wait to hide.
        const PREFETCH_FROM: usize = 1 << 14;
        let n = self.len();
        if n < 2 {
            return;
        }
        if n % 2 == 1 {
            let j = rng.random_range(0..n as u32) as usize;
            self.swap(j, n - 1);
        }
        let m = n - n % 2;
        let pairs = m / 2;
        let draw =
            |q: usize, rng: &mut MatchRng| rng.random_range(2 * q as u32 + 1..m as u32) as usize;
        if n <= PREFETCH_FROM {
            // The columns sit in cache: the same draws without the ring.
            for q in 0..pairs {
                let j = draw(q, rng);
                self.swap(2 * q + 1, j);
            }
            return;
        }
        // Pair q's draw sits at ring[q % AHEAD].
        let mut ring = [0usize; AHEAD];
        for (q, slot) in ring.iter_mut().enumerate().take(pairs) {
            *slot = draw(q, rng);
            self.prefetch(*slot);
        }
        for q in 0..pairs {
            let j = ring[q % AHEAD];
            if q + AHEAD < pairs {
                let next = draw(q + AHEAD, rng);
                ring[q % AHEAD] = next;
                self.prefetch(next);
            }
            self.swap(2 * q + 1, j);
        }
    }

    /// Asks for slot `j`'s cache lines ahead of use; a hint only.
    #[inline(always)]
    fn prefetch(&self, j: usize) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            // SAFETY: a prefetch never faults and changes no state; `j` is in bounds anyway.
            unsafe {
                _mm_prefetch::<_MM_HINT_T0>(self.hp.as_ptr().wrapping_add(j).cast());
                _mm_prefetch::<_MM_HINT_T0>(self.max.as_ptr().wrapping_add(j).cast());
                _mm_prefetch::<_MM_HINT_T0>(self.kind.as_ptr().wrapping_add(j).cast());
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = j;
    }

    #[inline(always)]
    pub fn swap(&mut self, i: usize, j: usize) {
        self.hp.swap(i, j);
        self.max.swap(i, j);
        self.kind.swap(i, j);
    }
}

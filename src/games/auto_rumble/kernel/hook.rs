//! What a data battle reports after each round and at each birth. Both data paths take a hook;
//! it sits below them so that neither has to know the other to share it.

use crate::games::auto_rumble::state::{HeroId, RoundView};

/// Called after each round with the alive heroes in order (tests record Energies with it).
pub trait RoundHook {
    const ENABLED: bool;
    fn round_end(&mut self, round: u32, view: RoundView<'_>);
    /// The battle starts again from its first round on the general path (the fast path met a
    /// class it cannot keep whole): forget what it reported.
    fn restart(&mut self);
    /// A copy or summon (`summon`: which power's which) joined after `parent` in `round` (0: the
    /// battle start). Only [`crate::games::auto_rumble::kernel::general`] reports births.
    #[inline(always)]
    fn born(&mut self, _round: u32, _parent: HeroId, _id: HeroId, _summon: Option<(u16, u8)>) {}
}

/// No hook: compiles away.
pub struct NoHook;

impl RoundHook for NoHook {
    const ENABLED: bool = false;
    #[inline(always)]
    fn round_end(&mut self, _: u32, _: RoundView<'_>) {}
    fn restart(&mut self) {}
}

/// Records each round's `(id, Energy)` of the alive heroes.
#[derive(Default)]
pub struct Rounds(pub Vec<Vec<(HeroId, i32)>>);

impl RoundHook for Rounds {
    const ENABLED: bool = true;
    fn round_end(&mut self, _: u32, v: RoundView<'_>) {
        self.0.push(
            v.id.iter()
                .zip(v.energy)
                .filter(|(_, e)| **e > 0)
                .map(|(&i, &e)| (i, e))
                .collect(),
        );
    }
    fn restart(&mut self) {
        self.0.clear();
    }
}

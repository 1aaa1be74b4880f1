//! One pair's interaction (CM-7, CM-8): what the two kinds fix about it, each member's action
//! points, and the actions. Shared by the per-member engine and the classes, which must not know
//! each other for it.

use crate::games::clan_melee::kernel::pairs::{AtSlot, Pairs, Rule};
use crate::games::clan_melee::rules::{self, Coins, Mode};
use crate::games::clan_melee::state::Field;

/// What the two kinds of a pair fix about their interaction: where each one's folded rule
/// against the other lives, and whether each heals.
#[derive(Clone, Copy, Debug)]
pub(super) struct Meeting {
    pub(super) slot_a: usize,
    pub(super) slot_b: usize,
    heal_a: bool,
    heal_b: bool,
    rules: rules::Rules,
}

impl Meeting {
    #[inline(always)]
    pub(super) fn new(field: &Field, ka: u16, kb: u16) -> Meeting {
        let (ea, eb) = (field.kinds[ka as usize], field.kinds[kb as usize]);
        let same = ea.clan == eb.clan;
        Meeting {
            slot_a: Pairs::slot(ka, same, eb.healer),
            slot_b: Pairs::slot(kb, same, ea.healer),
            heal_a: ea.healer,
            heal_b: eb.healer,
            rules: field.rules,
        }
    }

    /// One pair's interaction: `hp` and `max` are the pair's two rows (positions 2q, 2q + 1),
    /// p1 at `coins.p1_offset()`.
    #[inline(always)]
    pub(super) fn resolve(
        self,
        field: &Field,
        mode: Mode,
        hp: &mut [i32; 2],
        max: &mut [i32; 2],
        coins: Coins,
    ) {
        let (ra, rb) = (
            AtSlot(&field.pairs, self.slot_a),
            AtSlot(&field.pairs, self.slot_b),
        );
        self.resolve_by(mode, &ra, &rb, hp, max, coins);
    }

    /// [`Meeting::resolve`] with p1's and p2's rules as given.
    #[inline(always)]
    pub(super) fn resolve_by(
        self,
        mode: Mode,
        ra: &impl Rule,
        rb: &impl Rule,
        hp: &mut [i32; 2],
        max: &mut [i32; 2],
        coins: Coins,
    ) {
        let (a, b) = (coins.p1_offset(), coins.p1_offset() ^ 1);
        let (mut ha, mut ma, mut hb, mut mb) = (hp[a], max[a], hp[b], max[b]);
        // CM-7: p1 decides seeing p2 untouched; p2 sees p1 after p1 paid and decayed.
        let r = &self.rules;
        let ap1 = decide(mode, r, ra, &mut ha, &mut ma, &mut hb, mb);
        let ap2 = decide(mode, r, rb, &mut hb, &mut mb, &mut ha, ma);
        // CM-8: p1 acts on p2, then p2 on p1, with the pair's run-away coins (CM-13).
        hb = act(self.heal_a, ap1, hb, mb, ap2, coins.p1_lands());
        ha = act(self.heal_b, ap2, ha, ma, ap1, coins.p2_lands());
        hp[a] = ha;
        max[a] = ma;
        hp[b] = hb;
        max[b] = mb;
    }
}

/// CM-1, CM-2, CM-24: a member's action points for this interaction: its rule facing this
/// partner (`rule`; a side effect, if any, lands on the partner now), the
/// cap, the mode's floor, self-damage, then decay.
#[inline(always)]
fn decide(
    mode: Mode,
    r: &rules::Rules,
    rule: &impl Rule,
    hp: &mut i32,
    max: &mut i32,
    ohp: &mut i32,
    omax: i32,
) -> i32 {
    let (raw, hit) = rule.decide(mode, (*hp, *max), (*ohp, omax));
    if let Some(d) = hit {
        *ohp = rules::damage(*ohp, d);
    }
    let ap = mode.floor(r.cap(raw, *hp));
    *hp = r.pay(*hp, ap);
    (*hp, *max) = r.decay(*hp, *max);
    ap
}

/// CM-8: an actor spends `ap` on its target: a healer always heals (any clan, any sign); a
/// warrior hits, but when the target ran away (its AP <= 0) only if its coin `lands`. Returns
/// the target's new hp.
#[inline(always)]
fn act(healer: bool, ap: i32, hp: i32, max: i32, target_ap: i32, lands: bool) -> i32 {
    // Computed both ways and selected: which way goes is a coin toss to the branch predictor.
    let healed = rules::heal(hp, max, ap);
    let hit = rules::damage(hp, ap);
    let lands = (target_ap > 0) | lands;
    if healer {
        healed
    } else if lands {
        hit
    } else {
        hp
    }
}

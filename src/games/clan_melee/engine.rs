//! The optimised melee (CM-6 .. CM-9): participants in struct-of-arrays columns reused from melee
//! to melee; a turn shuffles, pairs, resolves and compacts them in place, allocating nothing.
//! `reference.rs` is the plain model it is tested against, draw for draw.

use super::clan::{HP_CAP, Made};
use super::rules::{self, Mode};
use super::state::{Field, Participants};
use crate::rng::{MatchRng, Stream, match_stream_rng, unit_f64};

/// A melee's settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    pub mode: Mode,
    /// Turns after which an unfinished melee stops, reported as `TurnCap` (CM-12).
    pub max_turns: u32,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            mode: Mode::Sane,
            max_turns: DEFAULT_MAX_TURNS,
        }
    }
}

pub const DEFAULT_MAX_TURNS: u32 = 100_000;

/// How a melee ended (CM-11, CM-12).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    /// One clan left standing.
    Won,
    /// No one left ("All were slain").
    AllSlain,
    /// Reference mode: two or more clans left, every survivor a healer with hp and max below 0;
    /// no one can ever die again (the reference engine would loop forever).
    Deadlock,
    /// Still two or more clans after `max_turns`.
    TurnCap,
}

impl End {
    pub fn name(self) -> &'static str {
        match self {
            End::Won => "won",
            End::AllSlain => "all slain",
            End::Deadlock => "deadlock",
            End::TurnCap => "turn cap",
        }
    }
}

/// One clan in one melee.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClanResult {
    /// Members fielded and their hit points (after the cap, CM-3); 0 when disqualified.
    pub members: u32,
    pub hp: i64,
    /// Why the clan did not play this melee (CM-5).
    pub disqualified: Option<String>,
    pub survivors: u32,
    /// Total hp of its survivors, a wrapping 32-bit sum as the reference computes it (CM-11).
    pub hp_left: i32,
    /// The last turn after which it still had members (0: none after turn 1, or none fielded);
    /// what ranks clans that did not win (CM-42).
    pub lasted: u32,
}

/// What a melee did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub budget: i32,
    pub end: End,
    /// The clan left standing (`End::Won`).
    pub survivor: Option<u8>,
    /// The clan the win is credited to: the survivor, or in reference mode clan 0 when the
    /// survivor's total hp is <= 0 (CM-11).
    pub credited: Option<u8>,
    pub turns: u32,
    pub interactions: u64,
    /// Participants in turn 1.
    pub participants: u32,
    pub clans: Vec<ClanResult>,
}

/// A worker's reusable melee storage.
#[derive(Debug, Default)]
pub struct Melee {
    pub p: Participants,
    made: Vec<Made>,
    survivors: Vec<u32>,
    totals: Vec<i32>,
    lasted: Vec<u32>,
}

impl Melee {
    pub fn new() -> Melee {
        Melee::default()
    }

    /// Builds every clan's roster at budget `h` (CM-5, CM-22) into the participant list, in clan
    /// order, each clan's members in its builder's order.
    pub fn setup(&mut self, field: &Field, h: i32, rng: &mut MatchRng) -> Vec<ClanResult> {
        self.p.clear();
        let mut out = Vec::with_capacity(field.clans.len());
        for (c, clan) in field.clans.iter().enumerate() {
            let mut r = ClanResult {
                members: 0,
                hp: 0,
                disqualified: None,
                survivors: 0,
                hp_left: 0,
                lasted: 0,
            };
            match clan.enter(c, h, rng, &mut self.made) {
                Err(e) => r.disqualified = Some(e),
                Ok(total) => {
                    let base = field.kind_base[c];
                    for m in &self.made {
                        let hp = m.hp.min(HP_CAP);
                        self.p.push(hp, hp, base + m.kind);
                    }
                    r.members = self.made.len() as u32;
                    r.hp = total;
                }
            }
            out.push(r);
        }
        out
    }

    /// One turn (CM-6 .. CM-8): shuffle, resolve pairs (0,1), (2,3), ..., the odd one out decays,
    /// then the dead are removed. Returns the interactions played.
    pub fn turn(&mut self, field: &Field, mode: Mode, rng: &mut MatchRng) -> u64 {
        let p = &mut self.p;
        let n = p.len();
        p.shuffle(rng);
        let pairs = n / 2;
        for q in 0..pairs {
            let (a, b) = (2 * q, 2 * q + 1);
            let (ka, kb) = (p.kind[a], p.kind[b]);
            let (mut ha, mut ma, mut hb, mut mb) = (p.hp[a], p.max[a], p.hp[b], p.max[b]);
            // CM-7: p1 decides seeing p2 untouched; p2 sees p1 after p1 paid and decayed.
            let ap1 = decide(field, mode, ka, &mut ha, &mut ma, kb, &mut hb, mb);
            let ap2 = decide(field, mode, kb, &mut hb, &mut mb, ka, &mut ha, ma);
            // CM-8: p1 acts on p2, then p2 on p1.
            hb = act(field, ka, ap1, hb, mb, ap2, rng);
            ha = act(field, kb, ap2, ha, ma, ap1, rng);
            p.hp[a] = ha;
            p.max[a] = ma;
            p.hp[b] = hb;
            p.max[b] = mb;
        }
        if n % 2 == 1 {
            // CM-9: the odd participant sits out: decay only.
            let (h, m) = rules::decay(p.hp[n - 1], p.max[n - 1]);
            p.hp[n - 1] = h;
            p.max[n - 1] = m;
        }
        // The dead leave at the end of the turn; survivors keep their order (CM-8).
        let mut w = 0;
        for r in 0..n {
            if mode.alive(p.hp[r]) {
                p.hp[w] = p.hp[r];
                p.max[w] = p.max[r];
                p.kind[w] = p.kind[r];
                w += 1;
            }
        }
        p.hp.truncate(w);
        p.max.truncate(w);
        p.kind.truncate(w);
        pairs as u64
    }

    /// Survivors and their wrapping hp total per clan; returns the clans still in play.
    fn census(&mut self, field: &Field) -> usize {
        let k = field.clans.len();
        self.survivors.clear();
        self.survivors.resize(k, 0);
        self.totals.clear();
        self.totals.resize(k, 0);
        for (&hp, &kind) in self.p.hp.iter().zip(&self.p.kind) {
            let c = field.kinds[kind as usize].clan as usize;
            self.survivors[c] += 1;
            self.totals[c] = self.totals[c].wrapping_add(hp);
        }
        self.survivors.iter().filter(|&&s| s > 0).count()
    }

    /// CM-12: every survivor a healer that cannot hurt by side effect, with hp < 0 and max < 0.
    fn deadlocked(&self, field: &Field) -> bool {
        let p = &self.p;
        (0..p.len()).all(|i| {
            let k = field.kinds[p.kind[i] as usize];
            k.healer && !k.effect && p.hp[i] < 0 && p.max[i] < 0
        })
    }

    /// Plays one melee at budget `h` from the melee's `seed` (CM-13 lists the draws).
    pub fn play(&mut self, field: &Field, h: i32, settings: &Settings, seed: u64) -> Outcome {
        let mut roster_rng = match_stream_rng(seed, Stream::Roster);
        let mut rng = match_stream_rng(seed, Stream::Battle);
        let mut clans = self.setup(field, h, &mut roster_rng);
        let participants = self.p.len() as u32;
        // CM-8: "clans in play" starts at the field's size, so at least one turn runs.
        let mut in_play = field.clans.len();
        let (mut turns, mut interactions) = (0u32, 0u64);
        self.lasted.clear();
        self.lasted.resize(field.clans.len(), 0);
        let mut end = End::Won;
        while in_play > 1 {
            if turns >= settings.max_turns {
                end = End::TurnCap;
                break;
            }
            interactions += self.turn(field, settings.mode, &mut rng);
            turns += 1;
            in_play = self.census(field);
            for (l, &s) in self.lasted.iter_mut().zip(&self.survivors) {
                if s > 0 {
                    *l = turns;
                }
            }
            if in_play > 1 && settings.mode == Mode::Reference && self.deadlocked(field) {
                end = End::Deadlock;
                break;
            }
        }
        if in_play == 0 {
            end = End::AllSlain;
        }
        for (c, r) in clans.iter_mut().enumerate() {
            r.survivors = self.survivors.get(c).copied().unwrap_or(0);
            r.hp_left = self.totals.get(c).copied().unwrap_or(0);
            r.lasted = self.lasted[c];
        }
        let survivor = (end == End::Won)
            .then(|| self.survivors.iter().position(|&s| s > 0).map(|c| c as u8))
            .flatten();
        // CM-11: reference mode credits the strictly largest total above 0, else clan 0.
        let credited = survivor.map(|c| match settings.mode {
            Mode::Reference if self.totals[c as usize] <= 0 => 0,
            _ => c,
        });
        Outcome {
            budget: h,
            end,
            survivor,
            credited,
            turns,
            interactions,
            participants,
            clans,
        }
    }
}

/// CM-1, CM-2, CM-24: a member's action points for this interaction: its rule (whose side effect,
/// if any, lands on the partner now), the cap, the mode's floor, self-damage, then decay.
#[inline]
#[allow(clippy::too_many_arguments)]
pub fn decide(
    field: &Field,
    mode: Mode,
    me: u16,
    hp: &mut i32,
    max: &mut i32,
    other: u16,
    ohp: &mut i32,
    omax: i32,
) -> i32 {
    let slot = field.pair_slot(me, other);
    let (raw, hit) = field.pairs.decide(mode, slot, (*hp, *max), (*ohp, omax));
    if let Some(d) = hit {
        *ohp = rules::damage(*ohp, d);
    }
    let ap = mode.floor(rules::cap(raw, *hp));
    *hp = rules::damage(*hp, rules::self_damage(ap));
    (*hp, *max) = rules::decay(*hp, *max);
    ap
}

/// CM-8: an actor spends `ap` on its target: a healer always heals (any clan, any sign); a
/// warrior hits, but only half the time (one draw) when the target ran away (its AP <= 0).
/// Returns the target's new hp.
#[inline]
pub fn act(
    field: &Field,
    actor: u16,
    ap: i32,
    hp: i32,
    max: i32,
    target_ap: i32,
    rng: &mut MatchRng,
) -> i32 {
    if field.kinds[actor as usize].healer {
        rules::heal(hp, max, ap)
    } else if target_ap > 0 || unit_f64(rng) < 0.5 {
        rules::damage(hp, ap)
    } else {
        hp
    }
}

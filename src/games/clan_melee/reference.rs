//! The plain reference model of a melee: a `Vec` of member structs, written to read like the
//! rules (CM-6 .. CM-12), with no concern for speed. `engine.rs` must agree with it exactly,
//! draw for draw (`tests/games/clan_melee_differential.rs`).

use rand::{Rng, RngExt};

use crate::games::clan_melee::input::clan::{self, HP_CAP};
use crate::games::clan_melee::kernel::engine::{ClanResult, End, Outcome, Settings};
use crate::games::clan_melee::rules::{self, Mode};
use crate::games::clan_melee::state::Field;
use crate::rng::{MatchRng, Stream, match_stream_rng};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Member {
    pub hp: i32,
    pub max: i32,
    pub kind: u16,
    pub clan: u8,
    pub healer: bool,
}

/// Builds the members of every valid clan (CM-5).
pub fn setup(field: &Field, h: i32, rng: &mut MatchRng) -> (Vec<Member>, Vec<ClanResult>) {
    let mut members = Vec::new();
    let mut results = Vec::new();
    for (c, clan) in field.clans.iter().enumerate() {
        let mut made = Vec::new();
        let entered = clan.enter(c, h, rng, &mut made);
        if entered.is_ok() {
            for (kind, hp) in clan::each_member(&made) {
                let kind = field.kind_base[c] + kind;
                let hp = hp.min(HP_CAP);
                members.push(Member {
                    hp,
                    max: hp,
                    kind,
                    clan: c as u8,
                    healer: field.kinds[kind as usize].healer,
                });
            }
        }
        results.push(ClanResult {
            members: if entered.is_ok() {
                clan::members(&made) as u32
            } else {
                0
            },
            hp: *entered.as_ref().unwrap_or(&0),
            disqualified: entered.err().map(|e| e.to_string()),
            survivors: 0,
            hp_left: 0,
            lasted: 0,
        });
    }
    (members, results)
}

/// A member's action points against `other` (CM-1, CM-2, CM-24).
fn get_ap(field: &Field, mode: Mode, me: &mut Member, other: &mut Member) -> i32 {
    let (wanted, side_effect) = field.decide(
        mode, me.kind, me.hp, me.max, other.kind, other.hp, other.max,
    );
    if let Some(d) = side_effect {
        other.hp = rules::damage(other.hp, d);
    }
    let r = &field.rules;
    let mut ap = r.cap(wanted, me.hp);
    if mode == Mode::Sane && ap < 0 {
        ap = 0;
    }
    me.hp = r.pay(me.hp, ap);
    me.max = me.max.wrapping_sub(r.decay);
    if me.hp > me.max {
        me.hp = me.max;
    }
    ap
}

/// `actor` spends `ap` on `target` (CM-8); `coin` is the turn's run-away coin for this act
/// (CM-13).
fn act(actor: &Member, ap: i32, target: &mut Member, target_ap: i32, coin: impl Fn() -> bool) {
    if actor.healer {
        target.hp = rules::heal(target.hp, target.max, ap);
    } else {
        let ran_away = target_ap <= 0;
        if !ran_away || coin() {
            target.hp = rules::damage(target.hp, ap);
        }
    }
}

/// Plays one melee, exactly as `engine::Melee::play` must.
pub fn play(field: &Field, h: i32, settings: &Settings, seed: u64) -> Outcome {
    let mode = settings.mode;
    let mut roster_rng = match_stream_rng(seed, Stream::Roster);
    let mut rng = match_stream_rng(seed, Stream::Battle);
    let (mut members, mut clans) = setup(field, h, &mut roster_rng);
    let participants = members.len() as u32;
    let k = field.clans.len();
    let mut in_play = k;
    let mut turns = 0;
    let mut interactions = 0u64;
    let mut end = End::Won;
    let mut survivors = vec![0u32; k];
    let mut totals = vec![0i32; k];
    let mut lasted = vec![0u32; k];
    while in_play > 1 {
        if turns >= settings.max_turns {
            end = End::TurnCap;
            break;
        }
        let n = members.len();
        // CM-6: a random matching. With an odd count, who sits out goes last; then each
        // position 2q in turn meets a member drawn from the positions after it.
        if n >= 2 {
            if n % 2 == 1 {
                let j = rng.random_range(0..n as u32) as usize;
                members.swap(j, n - 1);
            }
            let m = n - n % 2;
            for q in 0..m / 2 {
                let j = rng.random_range(2 * q as u32 + 1..m as u32) as usize;
                members.swap(2 * q + 1, j);
            }
        }
        // CM-13: then one draw keys the turn's coins: pair q's three say who is p1 and whether
        // p1's and p2's hits on a partner who ran away land.
        let key = rng.next_u64();
        for (q, pair) in members.chunks_exact_mut(2).enumerate() {
            let coins = rules::Coins::of(key, q);
            let (left, right) = pair.split_at_mut(1);
            let (p1, p2) = if coins.p1_offset() == 0 {
                (&mut left[0], &mut right[0])
            } else {
                (&mut right[0], &mut left[0])
            };
            let ap1 = get_ap(field, mode, p1, p2);
            let ap2 = get_ap(field, mode, p2, p1);
            act(p1, ap1, p2, ap2, || coins.p1_lands());
            act(p2, ap2, p1, ap1, || coins.p2_lands());
            interactions += 1;
        }
        if n % 2 == 1 {
            let last = &mut members[n - 1];
            last.max = last.max.wrapping_sub(field.rules.decay);
            last.hp = last.hp.min(last.max);
        }
        members.retain(|m| mode.alive(m.hp));
        turns += 1;
        survivors = vec![0; k];
        totals = vec![0; k];
        for m in &members {
            survivors[m.clan as usize] += 1;
            totals[m.clan as usize] = totals[m.clan as usize].wrapping_add(m.hp);
        }
        in_play = survivors.iter().filter(|&&s| s > 0).count();
        for c in 0..k {
            if survivors[c] > 0 {
                lasted[c] = turns;
            }
        }
        let stuck = members
            .iter()
            .all(|m| m.healer && !field.kinds[m.kind as usize].effect && m.hp < 0 && m.max < 0);
        if in_play > 1 && mode == Mode::Reference && stuck && field.rules.deadlock_is_final() {
            end = End::Deadlock;
            break;
        }
    }
    if in_play == 0 {
        end = End::AllSlain;
    }
    for (c, r) in clans.iter_mut().enumerate() {
        r.survivors = survivors[c];
        r.hp_left = totals[c];
        r.lasted = lasted[c];
    }
    let survivor = if end == End::Won {
        survivors.iter().position(|&s| s > 0).map(|c| c as u8)
    } else {
        None
    };
    let credited = match (survivor, mode) {
        (Some(c), Mode::Reference) if totals[c as usize] <= 0 => Some(0),
        (s, _) => s,
    };
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

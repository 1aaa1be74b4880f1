//! Powerless rounds for both kernels (AR-1, AR-3, AR-5, AR-13): one round, and runs of rounds
//! played at once.
//!
//! When no hero holds a power, a round in which every alive hero keeps the plan it has now (its
//! Energy stays on the same side of the attack's cost, AR-3) and nobody falls (AR-5) takes the
//! same Energy from each hero whatever the initiative order: the sum of what the other attackers
//! deal. So a run of such rounds ends exactly as if played one by one, and is played as one
//! step. Rows are the kernels' hero rows (`energy[i] <= 0` is a dead row not yet compacted);
//! `damage(i)` is row i's hit damage (>= 0). Without powers a team is one hero.

/// How many whole rounds from this one, at most `limit`, can be played at once; 0 when fewer
/// than two can, or when no one loses Energy (then the stalemate count must run round by round,
/// AR-13).
#[inline(always)]
pub fn rounds_ahead(
    attack_cost: i32,
    energy: &[i32],
    damage: impl Fn(usize) -> i32,
    limit: u32,
) -> u32 {
    let cost = attack_cost as i64;
    // A plain loop rather than an iterator sum: the latter's `fold` is left out of line when
    // the crate is split into codegen units (callgrind: about 70 instructions per call).
    let mut total = 0i64;
    for (i, &e) in energy.iter().enumerate() {
        if e >= attack_cost {
            total += damage(i) as i64;
        }
    }
    if total == 0 {
        return 0;
    }
    let taken = |i: usize, e: i64| total - if e >= cost { damage(i) as i64 } else { 0 };
    // Playing rounds together pays from two rounds on; rule that out with multiplications
    // before dividing (most late rounds of a battle fail here).
    for (i, &e) in energy.iter().enumerate() {
        let e = e as i64;
        if e > 0 {
            let t = taken(i, e);
            if e - 2 * t <= 0 || (e >= cost && e - t < cost) {
                return 0;
            }
        }
    }
    let mut k = limit;
    for (i, &e) in energy.iter().enumerate() {
        let t = taken(i, e as i64);
        if e <= 0 || t == 0 {
            continue;
        }
        // Both fit a u32 now (t < e / 2); 32-bit division is the cheap one.
        let (e, t) = (e as u32, t as u32);
        // Alive after k rounds: e - k x taken > 0.
        k = k.min((e - 1) / t);
        if e >= attack_cost as u32 {
            // Still attacking at the start of round k: e - (k - 1) x taken >= the cost.
            k = k.min((e - attack_cost as u32) / t + 1);
        }
    }
    k
}

/// Plays `rounds` rounds as [`rounds_ahead`] allowed: each alive hero loses what the attackers
/// deal it, `rounds` times; every attack hits every other alive hero (AR-1). Returns the hits.
#[inline(always)]
pub fn play_rounds(
    attack_cost: i32,
    energy: &mut [i32],
    damage: impl Fn(usize) -> i32,
    rounds: u32,
) -> u64 {
    let (mut total, mut attackers, mut alive) = (0i64, 0u64, 0u64);
    for (i, &e) in energy.iter().enumerate() {
        alive += (e > 0) as u64;
        if e >= attack_cost {
            attackers += 1;
            total += damage(i) as i64;
        }
    }
    for (i, e) in energy.iter_mut().enumerate() {
        if *e <= 0 {
            continue;
        }
        let own = if *e >= attack_cost {
            damage(i) as i64
        } else {
            0
        };
        // No one falls in these rounds, so the result fits an i32 above 0.
        *e = (*e as i64 - rounds as i64 * (total - own)) as i32;
    }
    rounds as u64 * attackers * (alive - 1)
}

/// One whole round when no hero holds a power: plans from the Energy held at the start of the
/// round (AR-3, into `plan`), then each planned attack, in initiative order, hits every other
/// alive hero (AR-1, AR-5). Without powers there are no copies (a team is one hero), no Defence
/// and no prevention. `dies(team)` is told of each hero that falls. Returns the hits and whether
/// anyone lost Energy.
#[inline(always)]
pub fn play_round<P: Copy + From<bool> + PartialEq>(
    attack_cost: i32,
    energy: &mut [i32],
    plan: &mut [P],
    team: &[u16],
    damage: impl Fn(usize) -> i32,
    mut dies: impl FnMut(u16),
) -> (u64, bool) {
    let n = energy.len();
    let (plan, team) = (&mut plan[..n], &team[..n]);
    for (p, &e) in plan.iter_mut().zip(energy.iter()) {
        *p = P::from(e >= attack_cost);
    }
    let none = P::from(false);
    let mut hits = 0u64;
    let mut lost = false;
    for i in 0..n {
        if energy[i] <= 0 || plan[i] == none {
            continue; // AR-5: the dead take no action; AR-3: the attack does not fit
        }
        let damage = damage(i);
        for j in 0..n {
            let e = energy[j];
            if j == i || e <= 0 {
                continue;
            }
            hits += 1;
            if damage > 0 {
                energy[j] = e - damage;
                lost = true;
                if e - damage <= 0 {
                    dies(team[j]);
                }
            }
        }
    }
    (hits, lost)
}

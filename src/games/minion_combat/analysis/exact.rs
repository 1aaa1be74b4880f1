//! Exact odds of one combat (MC-37). Hits are deterministic given the targets, so a combat's
//! only chance is its random choices (pairing orders, the last tiebreaker, multi-attack
//! victims, an effect's random enemy), each uniform over its options. Replaying a combat with a
//! script of choices walks every branch: each path's probability is the product of 1 / options
//! over its choices. Minions without effects replay on the kernel; a combat with effects replays
//! on the plain model, which plays every clause. Beyond a number of paths the odds fall back to
//! Monte Carlo over seeds.

use crate::games::minion_combat::draws::Dice;
use crate::games::minion_combat::kernel::combat::{Combat, Silent, Unit};
use crate::games::minion_combat::reference::{Quiet, combat, combat_with};
use crate::games::minion_combat::rules::Rules;
use crate::games::minion_combat::state::{End, Group, Outcome};
use crate::platform::tally::Count;
use crate::rng::match_seed;

/// Outcome shares, in the order: side 0 wins, side 1 wins, both stand, both fall.
pub const OUTCOMES: [&str; 4] = ["side 0 wins", "side 1 wins", "both stand", "both wiped out"];

/// The index in [`OUTCOMES`] of a combat's outcome.
pub fn outcome(o: &Outcome) -> usize {
    match (o.end, o.winner) {
        (_, Some(w)) => w,
        (End::Rounds, None) => 2,
        _ => 3,
    }
}

/// The odds of one combat.
#[derive(Clone, Debug, PartialEq)]
// A handful per command, never in a hot loop: the sampled counts (with their sums by match,
// issue 63) stay inline rather than boxed.
#[allow(clippy::large_enum_variant)]
pub enum Odds {
    /// Every branch walked: the probability of each outcome, and how many paths.
    Exact { p: [f64; 4], paths: u64 },
    /// Too many branches: outcome counts over `samples` seeded combats.
    Sampled { counts: [Count; 4], limit: u64 },
}

/// Replays a prefix of choices, then takes option 0 of every new one, recording how many options
/// each had.
#[derive(Default)]
struct Script {
    chosen: Vec<(u32, u32)>,
    pos: usize,
}

impl Dice for Script {
    fn below(&mut self, _place: u64, n: usize) -> usize {
        if n <= 1 {
            return 0;
        }
        let c = match self.chosen.get(self.pos) {
            Some(&(c, _)) => c,
            None => {
                self.chosen.push((0, n as u32));
                0
            }
        };
        self.pos += 1;
        c as usize
    }
}

impl Script {
    /// The next path in order; false when every path was walked.
    fn advance(&mut self) -> bool {
        while let Some((c, n)) = self.chosen.pop() {
            if c + 1 < n {
                self.chosen.push((c + 1, n));
                return true;
            }
        }
        false
    }
    fn probability(&self) -> f64 {
        self.chosen.iter().map(|&(_, n)| 1.0 / n as f64).product()
    }
}

/// Walks every branch of the combat the kernel plays: the outcome probabilities and the number
/// of paths; `None` when it has more than `limit` paths.
pub fn enumerate(
    sides: [&[Unit]; 2],
    first: usize,
    r: &Rules,
    limit: u64,
) -> Option<([f64; 4], u64)> {
    let mut k = Combat::new();
    walk(limit, |s| {
        outcome(&k.play_with(sides, first, r, s, &mut Silent))
    })
}

/// [`enumerate`] on the plain model: every effect clause played.
pub fn enumerate_groups(groups: [&Group; 2], r: &Rules, limit: u64) -> Option<([f64; 4], u64)> {
    walk(limit, |s| outcome(&combat_with(groups, r, s, &mut Quiet)))
}

/// Replays `play` (a combat whose choices come from the script; its outcome's index) down every
/// branch.
fn walk(limit: u64, mut play: impl FnMut(&mut Script) -> usize) -> Option<([f64; 4], u64)> {
    let mut s = Script::default();
    let mut p = [0.0; 4];
    let mut paths = 0u64;
    loop {
        s.pos = 0;
        let x = play(&mut s);
        // Choices past the end of this path belong to an earlier, longer one.
        s.chosen.truncate(s.pos);
        p[x] += s.probability();
        paths += 1;
        if paths > limit {
            return None;
        }
        if !s.advance() {
            return Some((p, paths));
        }
    }
}

/// Exact odds when the combat has at most `limit` paths, else Monte Carlo over `samples`
/// combats seeded `match_seed(seed, m)`.
pub fn odds(
    sides: [&[Unit]; 2],
    first: usize,
    r: &Rules,
    limit: u64,
    samples: u64,
    seed: u64,
) -> Odds {
    if let Some((p, paths)) = enumerate(sides, first, r, limit) {
        return Odds::Exact { p, paths };
    }
    let mut k = Combat::new();
    sampled(limit, samples, |m| {
        outcome(&k.play(sides, first, r, match_seed(seed, m), &mut Silent))
    })
}

/// [`odds`] on the plain model, for a combat whose minions carry effects.
/// The odds of two groups as a command asks them (`minions combat --exact`): groups whose
/// minions carry effects the kernel does not play on the plain model, which plays every clause
/// (MC-54); the rest on the kernel (the same odds, many times faster). Whether effects were
/// played comes back with them.
pub fn odds_of(
    groups: [&Group; 2],
    r: &Rules,
    limit: u64,
    samples: u64,
    seed: u64,
) -> (Odds, bool) {
    let effects = groups
        .iter()
        .flat_map(|g| &g.minions)
        .any(|m| !m.kernel_plays());
    if effects {
        return (odds_groups(groups, r, limit, samples, seed), true);
    }
    let first = crate::games::minion_combat::state::precedes(groups[1], groups[0]) as usize;
    let units: Vec<Vec<Unit>> = groups
        .iter()
        .map(|g| g.minions.iter().map(|m| Unit::new(m, r)).collect())
        .collect();
    (
        odds([&units[0], &units[1]], first, r, limit, samples, seed),
        false,
    )
}

pub fn odds_groups(groups: [&Group; 2], r: &Rules, limit: u64, samples: u64, seed: u64) -> Odds {
    if let Some((p, paths)) = enumerate_groups(groups, r, limit) {
        return Odds::Exact { p, paths };
    }
    sampled(limit, samples, |m| {
        outcome(&combat(groups, r, match_seed(seed, m), &mut Quiet))
    })
}

fn sampled(limit: u64, samples: u64, mut play: impl FnMut(u64) -> usize) -> Odds {
    let mut counts = [Count::default(); 4];
    for m in 0..samples {
        let x = play(m);
        for (i, c) in counts.iter_mut().enumerate() {
            c.add(i == x);
        }
    }
    Odds::Sampled { counts, limit }
}

/// `minions combat --exact` in words: the exact odds of every outcome (MC-37), or sampled ones
/// with 95% intervals beyond `limit` paths (`samples` combats from `seed`).
pub fn odds_text(
    c: &crate::games::minion_combat::input::combat::CombatFile,
    r: &Rules,
    limit: u64,
    samples: u64,
    seed: u64,
) -> String {
    let (found, effects) = odds_of([&c.groups[0], &c.groups[1]], r, limit, samples, seed);
    let names = [
        format!("{} wins", c.groups[0].name),
        format!("{} wins", c.groups[1].name),
        "both stand (last round or withdrawal)".to_string(),
        "both wiped out".to_string(),
    ];
    let mut s = crate::games::minion_combat::trace::unplayed(c);
    match found {
        Odds::Exact { p, paths } => {
            s.push_str(&format!(
                "exact odds over {paths} path(s), every random choice enumerated (MC-37){}:\n",
                if effects {
                    ", effects played (the plain model)"
                } else {
                    ""
                }
            ));
            for (n, p) in names.iter().zip(p) {
                s.push_str(&format!("  {n:<40} {:8.4}%\n", 100.0 * p));
            }
        }
        Odds::Sampled { counts, limit } => {
            s.push_str(&format!(
                "more than {limit} paths: sampled over {} combats (seeds from {seed}), 95% intervals:\n",
                counts[0].trials
            ));
            for (n, c) in names.iter().zip(counts) {
                let (lo, hi) = c.wilson95();
                s.push_str(&format!(
                    "  {n:<40} {:8.4}% [{:.4}, {:.4}]\n",
                    100.0 * c.rate(),
                    100.0 * lo,
                    100.0 * hi
                ));
            }
        }
    }
    s
}

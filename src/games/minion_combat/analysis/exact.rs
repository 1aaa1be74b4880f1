//! Exact odds of one combat (MC-37). Hits are deterministic given the targets, so a combat's
//! only chance is its random choices (pairing orders, the last tiebreaker, multi-attack
//! victims), each uniform over its options. Replaying the kernel with a script of choices walks
//! every branch: each path's probability is the product of 1 / options over its choices. Beyond
//! a number of paths the odds fall back to Monte Carlo over seeds.

use crate::games::minion_combat::draws::Dice;
use crate::games::minion_combat::kernel::combat::{Combat, Silent, Unit};
use crate::games::minion_combat::rules::Rules;
use crate::games::minion_combat::state::End;
use crate::platform::tally::Count;
use crate::rng::match_seed;

/// Outcome shares, in the order: side 0 wins, side 1 wins, both stand, both fall.
pub const OUTCOMES: [&str; 4] = ["side 0 wins", "side 1 wins", "both stand", "both wiped out"];

fn outcome(end: End, winner: Option<usize>) -> usize {
    match (end, winner) {
        (_, Some(w)) => w,
        (End::Rounds, None) => 2,
        _ => 3,
    }
}

/// The odds of one combat.
#[derive(Clone, Debug, PartialEq)]
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

/// Walks every branch of the combat: the outcome probabilities and the number of paths; `None`
/// when it has more than `limit` paths.
pub fn enumerate(
    sides: [&[Unit]; 2],
    first: usize,
    r: &Rules,
    limit: u64,
) -> Option<([f64; 4], u64)> {
    let mut k = Combat::new();
    let mut s = Script::default();
    let mut p = [0.0; 4];
    let mut paths = 0u64;
    loop {
        s.pos = 0;
        let o = k.play_with(sides, first, r, &mut s, &mut Silent);
        // Choices past the end of this path belong to an earlier, longer one.
        s.chosen.truncate(s.pos);
        p[outcome(o.end, o.winner)] += s.probability();
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
    let mut counts = [Count::default(); 4];
    for m in 0..samples {
        let o = k.play(sides, first, r, match_seed(seed, m), &mut Silent);
        let x = outcome(o.end, o.winner);
        for (i, c) in counts.iter_mut().enumerate() {
            c.add(i == x);
        }
    }
    Odds::Sampled { counts, limit }
}

//! Policies measured against the exact duel (TG-52): each as the runner against the exact it
//! player and as the it player against the exact runner, from uniformly drawn starts.

use rand::RngExt;

use crate::games::elemental_tag::analysis::duel::{Duel, sample};
use crate::games::elemental_tag::policy::{Policy, View};
use crate::rng::MatchRng;

/// Who plays a side of a measured duel.
#[derive(Clone, Copy, Debug)]
pub enum Side {
    Exact,
    Policy(Policy),
}

/// Plays `games` duels from uniformly drawn starts for at most `turns` turns each; returns the
/// share that ended in a tag.
pub fn measure(
    duel: &Duel,
    it: Side,
    runner: Side,
    games: u32,
    turns: u32,
    rng: &mut MatchRng,
) -> f64 {
    let mut tags = 0;
    let side = duel.side as i32;
    for _ in 0..games {
        let mut st = rng.random_range(0..duel.states.len());
        for _ in 0..turns {
            let (ic, rc) = duel.states[st];
            let x = [(ic as i32) % side, (rc as i32) % side];
            let y = [(ic as i32) / side, (rc as i32) / side];
            let view = |me: u32| View {
                side: duel.side,
                x: &x,
                y: &y,
                team: &[0, 1],
                alive: &[true, true],
                points: &[45, 45],
                it: 0,
                me,
            };
            let a = match it {
                Side::Exact => sample(&duel.it_mix[st], rng),
                Side::Policy(p) => p.choose(&view(0), rng),
            };
            let b = match runner {
                Side::Exact => sample(&duel.runner_mix[st], rng),
                Side::Policy(p) => p.choose(&view(1), rng),
            };
            match duel.step(st, a, b) {
                None => {
                    tags += 1;
                    break;
                }
                Some(n) => st = n,
            }
        }
    }
    tags as f64 / games as f64
}

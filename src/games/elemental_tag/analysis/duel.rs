//! The two-player core solved exactly (TG-52): one it player and one runner on a grid, nine
//! moves each, simultaneous, collisions as in any turn (`kernel::collide`), the runner always on
//! the tag list. A state is the pair of cells. With `P_0 = 0`, the chance the it player can
//! guarantee a tag within `t + 1` turns is the value of the 9 x 9 matrix game whose entry is 1
//! where the two moves tag and `P_t` of the next state otherwise (Shapley's value iteration), the
//! it player maximising and the runner minimising, each with a mixed strategy
//! (`matrix_game::solve`). The strategies of the longest horizon are kept as a policy (`exact`)
//! and as the yardstick the other policies are measured against.

use rand::RngExt;

use crate::games::elemental_tag::analysis::matrix_game;
use crate::games::elemental_tag::kernel::collide::Resolver;
use crate::games::elemental_tag::rules::Settings;
use crate::rng::MatchRng;

const TAG: u32 = u32::MAX;

/// The solved duel on one grid.
#[derive(Clone, Debug)]
pub struct Duel {
    pub side: u32,
    /// `(it cell, runner cell)` of each state.
    pub states: Vec<(u32, u32)>,
    /// `it * area + runner` -> state.
    index: Vec<u32>,
    /// Per state, per (it move, runner move): the next state, or TAG.
    next: Vec<[u32; 81]>,
    /// `p[t][s]`: the chance the it player can guarantee a tag within t turns from state s.
    pub p: Vec<Vec<f64>>,
    /// The longest horizon's optimal mixed strategies, per state.
    pub it_mix: Vec<[f64; 9]>,
    pub runner_mix: Vec<[f64; 9]>,
}

impl Duel {
    /// Solves the duel on a `side` x `side` grid for horizons 1 ..= `turns`.
    pub fn solve(side: u32, s: &Settings, turns: usize) -> Duel {
        let area = side * side;
        let mut states = Vec::new();
        let mut index = vec![TAG; (area * area) as usize];
        for i in 0..area {
            for r in 0..area {
                if i != r {
                    index[(i * area + r) as usize] = states.len() as u32;
                    states.push((i, r));
                }
            }
        }
        let mut resolver = Resolver::new();
        let next: Vec<[u32; 81]> = states
            .iter()
            .map(|&(i, r)| {
                let mut row = [TAG; 81];
                for a in 0..9u8 {
                    for b in 0..9u8 {
                        let ends = resolver.resolve(side, &[i, r], &[a, b], s).to_vec();
                        // TG-23: the it player (0) collided into the runner (1).
                        let tagged = resolver
                            .events
                            .iter()
                            .any(|c| c.a == 0 || (c.b == 0 && c.mutual));
                        row[(a * 9 + b) as usize] = if tagged {
                            TAG
                        } else {
                            index[(ends[0] * area + ends[1]) as usize]
                        };
                    }
                }
                row
            })
            .collect();
        let mut p = vec![vec![0.0; states.len()]];
        let mut it_mix = vec![[0.0; 9]; states.len()];
        let mut runner_mix = vec![[0.0; 9]; states.len()];
        let mut m = vec![vec![0.0; 9]; 9];
        for _ in 0..turns {
            let prev = p.last().unwrap();
            let mut cur = vec![0.0; states.len()];
            for st in 0..states.len() {
                for a in 0..9 {
                    for b in 0..9 {
                        let n = next[st][a * 9 + b];
                        m[a][b] = if n == TAG { 1.0 } else { prev[n as usize] };
                    }
                }
                let sol = matrix_game::solve(&m);
                cur[st] = sol.value.clamp(0.0, 1.0);
                it_mix[st].copy_from_slice(&sol.rows);
                runner_mix[st].copy_from_slice(&sol.cols);
            }
            p.push(cur);
        }
        Duel {
            side,
            states,
            index,
            next,
            p,
            it_mix,
            runner_mix,
        }
    }

    /// The state of an it player at `it` and a runner at `runner`.
    pub fn state(&self, it: u32, runner: u32) -> usize {
        self.index[(it * self.side * self.side + runner) as usize] as usize
    }

    /// Where two moves from a state lead: `None` is a tag.
    pub fn step(&self, state: usize, it_move: u8, runner_move: u8) -> Option<usize> {
        let n = self.next[state][(it_move * 9 + runner_move) as usize];
        (n != TAG).then_some(n as usize)
    }

    /// Mean, least and greatest guaranteed chance of a tag within `t` turns over every start.
    pub fn summary(&self, t: usize) -> (f64, f64, f64) {
        let v = &self.p[t];
        let mean = v.iter().sum::<f64>() / v.len() as f64;
        let lo = v.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = v.iter().copied().fold(0.0, f64::max);
        (mean, lo, hi)
    }
}

/// Draws a move from a mixed strategy.
pub fn sample(mix: &[f64; 9], rng: &mut MatchRng) -> u8 {
    let u: f64 = rng.random_range(0.0..1.0);
    let mut acc = 0.0;
    for (d, &p) in mix.iter().enumerate() {
        acc += p;
        if u < acc {
            return d as u8;
        }
    }
    // Rounding left the sum a hair under 1: the last move with weight.
    mix.iter().rposition(|&p| p > 0.0).unwrap_or(0) as u8
}

/// The solved 5 x 5 duel with default readings, 40 turns deep: the `exact` policy's table,
/// solved once per process on first use (about 0.1 s).
pub fn classic() -> &'static Duel {
    static DUEL: std::sync::OnceLock<Duel> = std::sync::OnceLock::new();
    DUEL.get_or_init(|| Duel::solve(5, &Settings::default(), 40))
}

//! A noisy-objective search (issue 54): the cross-entropy method with paired evaluation. Each
//! iteration draws a population around the current mean, evaluates it together with the
//! incumbent on one fresh block of common random numbers (so every comparison inside an
//! iteration is paired), refits the mean and spread to the elite, and keeps as incumbent the best
//! of the block, the old incumbent included (a lucky block cannot keep a worse incumbent for
//! long: it is re-measured on every new block). Knows no game.

use crate::rng::{Stream, stream_rng};
use rand::RngExt;

/// One iteration's record: the incumbent after it and its score on the iteration's block.
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    pub iteration: usize,
    pub incumbent: Vec<f64>,
    pub score: f64,
}

/// The search's settings.
#[derive(Clone, Debug)]
pub struct Settings {
    pub lo: Vec<f64>,
    pub hi: Vec<f64>,
    pub start: Vec<f64>,
    pub iterations: usize,
    pub population: usize,
    pub elite: usize,
    pub seed: u64,
}

/// Maximises `eval(candidates, block)` (one score per candidate, all measured on the block's
/// common random numbers) within the box `[lo, hi]`. Returns the history; its last step holds
/// the answer.
pub fn cross_entropy(s: &Settings, eval: impl Fn(&[Vec<f64>], u64) -> Vec<f64>) -> Vec<Step> {
    let d = s.lo.len();
    let mut rng = stream_rng(s.seed, 7, Stream::Roster);
    let mut mean = s.start.clone();
    let mut sd: Vec<f64> = (0..d).map(|i| (s.hi[i] - s.lo[i]) / 4.0).collect();
    let mut incumbent = s.start.clone();
    let mut out = Vec::new();
    for it in 0..s.iterations {
        let mut pop: Vec<Vec<f64>> = (0..s.population)
            .map(|_| {
                (0..d)
                    .map(|i| {
                        let (a, b): (f64, f64) =
                            (rng.random_range(1e-12..1.0), rng.random_range(0.0..1.0));
                        let z = (-2.0 * a.ln()).sqrt() * (std::f64::consts::TAU * b).cos();
                        (mean[i] + sd[i] * z).clamp(s.lo[i], s.hi[i])
                    })
                    .collect()
            })
            .collect();
        pop.push(incumbent.clone());
        let scores = eval(&pop, it as u64);
        let mut order: Vec<usize> = (0..pop.len()).collect();
        order.sort_by(|&a, &b| scores[b].total_cmp(&scores[a]).then(a.cmp(&b)));
        let elite = &order[..s.elite.clamp(1, pop.len())];
        for i in 0..d {
            let m = elite.iter().map(|&k| pop[k][i]).sum::<f64>() / elite.len() as f64;
            let v =
                elite.iter().map(|&k| (pop[k][i] - m).powi(2)).sum::<f64>() / elite.len() as f64;
            // Smoothed refits (the usual 0.7), and a spread floor that shrinks slowly, so an
            // early elite cannot freeze a coordinate before the noise averages out.
            mean[i] = 0.7 * m + 0.3 * mean[i];
            let floor = (s.hi[i] - s.lo[i]) * 0.05 / (1.0 + it as f64 / 5.0);
            sd[i] = (0.7 * v.sqrt() + 0.3 * sd[i]).max(floor);
        }
        incumbent = pop[order[0]].clone();
        out.push(Step {
            iteration: it,
            incumbent: incumbent.clone(),
            score: scores[order[0]],
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A planted optimum under noise: the score is a bowl around `target` plus noise that is the
    /// same for every candidate of a block (common random numbers) and a smaller part of its own.
    #[test]
    fn finds_a_planted_optimum_under_noise() {
        let target = [0.3, -1.2, 4.0];
        let s = Settings {
            lo: vec![-2.0, -2.0, 0.0],
            hi: vec![2.0, 2.0, 10.0],
            start: vec![0.0, 0.0, 5.0],
            iterations: 30,
            population: 24,
            elite: 6,
            seed: 11,
        };
        let found = cross_entropy(&s, |pop, block| {
            let mut rng = stream_rng(99, block, Stream::Roster);
            let shared: f64 = rng.random_range(-1.0..1.0);
            pop.iter()
                .map(|x| {
                    let own: f64 = rng.random_range(-0.01..0.01);
                    -x.iter()
                        .zip(target)
                        .map(|(a, t)| (a - t).powi(2))
                        .sum::<f64>()
                        + shared
                        + own
                })
                .collect()
        });
        let best = &found.last().unwrap().incumbent;
        for (b, t) in best.iter().zip(target) {
            assert!((b - t).abs() < 0.15, "{best:?} vs {target:?}");
        }
    }
}

//! Minion Combat kernel benchmark: whole combats (up to 10 rounds) on the optimised kernel.
//!
//!     cargo bench --bench minion_combat
//!
//! Workloads: 8v8 and 4v4 plain recruits (Dwarf swordsmen and archers against Human ones: the
//! issue's target workload), and 8v8 random catalogue groups as `simulate minions` draws them
//! (sizes 8-8, pre-drawn). Each is reported twice: combats per second, and attacks resolved per
//! second (targeting included; 1e9 / that = ns per attack). The last bench plays the plain 8v8
//! on all threads (rayon's pool, one `Combat` per worker; the thread count is in its name).

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rayon::prelude::*;
use skirmish::games::minion_combat::input::{self, combat::minion_spec};
use skirmish::games::minion_combat::kernel::combat::{Combat, Silent, Unit};
use skirmish::games::minion_combat::rules::Rules;
use skirmish::games::minion_combat::simulation::combats::Field;
use skirmish::rng::match_seed;

const COMBATS: u64 = 10_000;
/// Combats per iteration of the all-threads bench (enough to keep every worker busy).
const WIDE: u64 = 200_000;

fn recruits(specs: &[&str], r: &Rules) -> Vec<Unit> {
    let cat = input::catalogue::builtin();
    specs
        .iter()
        .flat_map(|s| minion_spec(s, &cat, r).unwrap().0)
        .map(|m| Unit::new(&m, r))
        .collect()
}

/// Attacks resolved over `n` combats of `sides`, seeds from `master`.
fn attacks(c: &mut Combat, sides: [&[Unit]; 2], r: &Rules, master: u64, n: u64) -> u64 {
    (0..n)
        .map(|m| {
            let o = c.play(
                sides,
                (m & 1) as usize,
                r,
                match_seed(master, m),
                &mut Silent,
            );
            (o.attacks[0] + o.attacks[1]) as u64
        })
        .sum()
}

fn combats(c: &mut Criterion) {
    let r = Rules::default();
    let mut k = Combat::new();
    let plain8 = [
        recruits(&["4 x Dwarf swordsman", "4 x Dwarf archer"], &r),
        recruits(&["4 x Human swordsman", "4 x Human archer"], &r),
    ];
    let plain4 = [
        recruits(&["2 x Dwarf swordsman", "2 x Dwarf archer"], &r),
        recruits(&["2 x Human swordsman", "2 x Human archer"], &r),
    ];
    let f = Field::new(
        r.clone(),
        input::catalogue::builtin(),
        [true, true],
        (8, 8),
        2,
        false,
    )
    .unwrap();
    let drawn: Vec<_> = (0..COMBATS)
        .map(|m| {
            let seed = match_seed(3, m);
            (f.draw(m, seed), seed)
        })
        .collect();
    let random_attacks: u64 = drawn
        .iter()
        .map(|(d, seed)| {
            let o = k.play(d.sides(), d.first, &r, *seed, &mut Silent);
            (o.attacks[0] + o.attacks[1]) as u64
        })
        .sum();
    let workloads: [(&str, [&[Unit]; 2]); 2] = [
        ("8v8 plain recruits", [&plain8[0], &plain8[1]]),
        ("4v4 plain recruits", [&plain4[0], &plain4[1]]),
    ];
    let mut g = c.benchmark_group("minion_combat");
    g.measurement_time(Duration::from_secs(4));
    for (name, sides) in workloads {
        let per = attacks(&mut k, sides, &r, 2, COMBATS);
        eprintln!(
            "minion_combat: {name}: {:.1} attacks per combat",
            per as f64 / COMBATS as f64
        );
        for (unit, n) in [("combats", COMBATS), ("attacks", per)] {
            g.throughput(Throughput::Elements(n));
            g.bench_function(format!("{name}, {unit}"), |b| {
                b.iter(|| black_box(attacks(&mut k, sides, &r, 2, COMBATS)))
            });
        }
    }
    eprintln!(
        "minion_combat: 8v8 random catalogue groups: {:.1} attacks per combat",
        random_attacks as f64 / COMBATS as f64
    );
    for (unit, n) in [("combats", COMBATS), ("attacks", random_attacks)] {
        g.throughput(Throughput::Elements(n));
        g.bench_function(format!("8v8 random catalogue groups, {unit}"), |b| {
            b.iter(|| {
                let s: u32 = drawn
                    .iter()
                    .map(|(d, seed)| k.play(d.sides(), d.first, &r, *seed, &mut Silent).rounds)
                    .sum();
                black_box(s)
            })
        });
    }
    g.throughput(Throughput::Elements(WIDE));
    let sides = [&plain8[0][..], &plain8[1][..]];
    g.bench_function(
        format!(
            "8v8 plain recruits, combats, all {} threads",
            rayon::current_num_threads()
        ),
        |b| {
            b.iter(|| {
                let s: u64 = (0..WIDE / 1000)
                    .into_par_iter()
                    .map_init(Combat::new, |k, c| {
                        (c * 1000..(c + 1) * 1000)
                            .map(|m| {
                                k.play(sides, (m & 1) as usize, &r, match_seed(4, m), &mut Silent)
                                    .rounds as u64
                            })
                            .sum::<u64>()
                    })
                    .sum();
                black_box(s)
            })
        },
    );
    g.finish();
}

criterion_group!(benches, combats);
criterion_main!(benches);

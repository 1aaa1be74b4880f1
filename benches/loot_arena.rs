//! Loot Arena kernel benchmark: random 2v2 battles (one set of 4 rounds, the default field:
//! random pairs, every slot filled by tier odds, the six named policies), drawn and played.
//!
//!     cargo bench --bench loot_arena
//!
//! Criterion reports battles per second ("elements") on one thread, and on all threads (rayon's
//! pool, one `Battle` per worker; the thread count is in the bench's name); the dice each battle
//! rolls are printed once so throughput can be read as dice per second too.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rayon::prelude::*;
use skirmish::games::loot_arena::input;
use skirmish::games::loot_arena::kernel::battle::{Battle, Silent};
use skirmish::games::loot_arena::policy::Policy;
use skirmish::games::loot_arena::rules::Rules;
use skirmish::games::loot_arena::simulation::battles::Field;
use skirmish::rng::match_seed;

const BATTLES: u64 = 10_000;
/// Battles per iteration of the all-threads bench (enough chunks to keep every worker busy).
const WIDE: u64 = 200_000;

fn field() -> Field {
    Field {
        rules: Rules::default(),
        catalogue: input::items::builtin(),
        policies: [
            "medic",
            "attack",
            "focus-healer",
            "supporter",
            "evasive",
            "random",
        ]
        .iter()
        .map(|p| Policy::parse(p).unwrap())
        .collect(),
        fill: 100,
        armor: 100,
        tiers: [40, 30, 20, 10],
    }
}

fn battles(c: &mut Criterion) {
    let f = field();
    let mut b = Battle::new();
    let mut dice = 0u64;
    for m in 0..BATTLES {
        let seed = match_seed(1, m);
        let (x, _) = f.draw(m, seed);
        dice += b.play(&x, &f.catalogue, &f.rules, seed, &mut Silent).dice as u64;
    }
    eprintln!(
        "loot_arena: {:.1} dice rolled per battle (default field)",
        dice as f64 / BATTLES as f64
    );
    let mut g = c.benchmark_group("loot_arena");
    g.throughput(Throughput::Elements(BATTLES));
    g.measurement_time(Duration::from_secs(5));
    g.bench_function("2v2 battles, draw + one set of 4 rounds", |bench| {
        bench.iter(|| {
            let mut s = 0u32;
            for m in 0..BATTLES {
                let seed = match_seed(2, m);
                let (x, _) = f.draw(m, seed);
                s += b.play(&x, &f.catalogue, &f.rules, seed, &mut Silent).rounds;
            }
            black_box(s)
        })
    });
    let fixed: Vec<_> = (0..BATTLES)
        .map(|m| {
            let seed = match_seed(3, m);
            (f.draw(m, seed).0, seed)
        })
        .collect();
    g.bench_function(
        "2v2 battles, one set of 4 rounds (drawn beforehand)",
        |bench| {
            bench.iter(|| {
                let mut s = 0u32;
                for (x, seed) in &fixed {
                    s += b.play(x, &f.catalogue, &f.rules, *seed, &mut Silent).rounds;
                }
                black_box(s)
            })
        },
    );
    let wide: Vec<_> = (0..WIDE)
        .map(|m| {
            let seed = match_seed(4, m);
            (f.draw(m, seed).0, seed)
        })
        .collect();
    g.throughput(Throughput::Elements(WIDE));
    g.bench_function(
        format!(
            "2v2 battles, one set of 4 rounds, all {} threads",
            rayon::current_num_threads()
        ),
        |bench| {
            bench.iter(|| {
                let s: u64 = wide
                    .par_chunks(1000)
                    .map_init(Battle::new, |b, chunk| {
                        chunk
                            .iter()
                            .map(|(x, seed)| {
                                b.play(x, &f.catalogue, &f.rules, *seed, &mut Silent).rounds as u64
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

criterion_group!(benches, battles);
criterion_main!(benches);

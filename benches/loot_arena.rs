//! Loot Arena kernel benchmark: random 2v2 battles (one set of 4 rounds, the default field:
//! random pairs, every slot filled by tier odds, the six named policies), drawn and played; and
//! whole 16-player royales (`loot_royale`).
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
use skirmish::games::loot_arena::kernel::royale::{Quiet, Royale};
use skirmish::games::loot_arena::policy::Policy;
use skirmish::games::loot_arena::rules::Rules;
use skirmish::games::loot_arena::simulation::battles::Field;
use skirmish::games::loot_arena::strategy::Strategy;
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

/// Whole royales (LA-40..LA-48): 16 players of the default tournament's six strategies, seats
/// rotated as `tournament loot` does; games per second on one thread and on all.
fn royales(c: &mut Criterion) {
    let rules = Rules::default();
    let cat = input::items::builtin();
    let names = ["looter", "centre", "avoider", "hunter", "wanderer", "smart"];
    let strategies: Vec<Strategy> = names.iter().map(|s| Strategy::parse(s).unwrap()).collect();
    let seats = |m: u64| -> Vec<Strategy> {
        (0..16)
            .map(|k| strategies[((m + k) % 6) as usize])
            .collect()
    };
    let tables: Vec<Vec<Strategy>> = (0..6).map(seats).collect();
    const GAMES: u64 = 200;
    let mut e = Royale::new();
    let mut b = Battle::new();
    let (mut rounds, mut battles) = (0u64, 0u64);
    for m in 0..GAMES {
        let r = e.play(
            &tables[(m % 6) as usize],
            &cat,
            &rules,
            match_seed(5, m),
            &mut b,
            &mut Quiet,
        );
        rounds += r.rounds as u64;
        battles += r.battle_count as u64;
    }
    eprintln!(
        "loot_arena royale: {:.1} rounds and {:.1} battles per 16-player game",
        rounds as f64 / GAMES as f64,
        battles as f64 / GAMES as f64
    );
    let mut g = c.benchmark_group("loot_royale");
    g.throughput(Throughput::Elements(GAMES));
    g.measurement_time(Duration::from_secs(5));
    g.bench_function("16-player royales, six strategies", |bench| {
        bench.iter(|| {
            let mut s = 0u32;
            for m in 0..GAMES {
                let t = &tables[(m % 6) as usize];
                s += e
                    .play(t, &cat, &rules, match_seed(6, m), &mut b, &mut Quiet)
                    .rounds;
            }
            black_box(s)
        })
    });
    const WIDE_GAMES: u64 = 4_000;
    g.throughput(Throughput::Elements(WIDE_GAMES));
    g.bench_function(
        format!(
            "16-player royales, six strategies, all {} threads",
            rayon::current_num_threads()
        ),
        |bench| {
            bench.iter(|| {
                let s: u64 = (0..WIDE_GAMES as usize)
                    .into_par_iter()
                    .with_min_len(50)
                    .map_init(
                        || (Royale::new(), Battle::new()),
                        |(e, b), m| {
                            let t = &tables[m % 6];
                            let seed = match_seed(7, m as u64);
                            e.play(t, &cat, &rules, seed, b, &mut Quiet).rounds as u64
                        },
                    )
                    .sum();
                black_box(s)
            })
        },
    );
    g.finish();
}

criterion_group!(benches, battles, royales);
criterion_main!(benches);

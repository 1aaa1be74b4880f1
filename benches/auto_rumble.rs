//! Auto Rumble kernel benchmarks: battles/s and attacks (hits) resolved/s.
//!
//!     cargo bench --bench auto_rumble
//!
//! Every iteration plays fresh battles: the kernel is reset from the roster each time, with the
//! match's base initiatives drawn from its own seeded stream (the per-match seeding is part of the
//! measured cost, as it is in a simulation). Workloads are fixed and seeded, so the hit count per
//! iteration is a constant, which is what the "attacks" throughput divides by.
//!
//! Each workload runs three ways: `battles` / `attacks` on the hand-written kernel (the six
//! sample powers as code), `data_battles` / `data_attacks` on the data kernel (the same six read
//! from experiments/powers/sample.toml), which plays heroes alike as one class, and
//! `data_per_hero_battles` on the same kernel playing one row per hero, so the cost of powers as
//! data and the gain of classes are each one comparison away. "attacks" throughput counts the
//! hits represented.
//!
//! `archive_6_heroes` plays rosters of all 37 archive powers (reactions, summons, effects on other
//! heroes: outside the fast path's class) on the general kernel and on the data reference.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use skirmish::games::auto_rumble::input::roster::random_roster;
use skirmish::games::auto_rumble::kernel::data::{DataKernel, NoHook};
use skirmish::games::auto_rumble::powers::catalogue::{Catalogue, Loadout, loadout_of_spec};
use skirmish::games::auto_rumble::trace::hand::Silent;
use skirmish::games::auto_rumble::{HeroSpec, Kernel, Lineup, Power, rules};
use skirmish::rng::{Stream, stream_rng};

/// Plays `lineups[i % len]` for matches `0..n`; returns hits resolved.
fn play(kernel: &mut Kernel, lineups: &[Lineup], n: u64, ini: &mut [f64]) -> u64 {
    let mut hits = 0;
    for i in 0..n {
        let l = &lineups[(i as usize) % lineups.len()];
        let ini = &mut ini[..l.len()];
        l.initiatives_into(&mut stream_rng(42, i, Stream::Initiative), ini);
        hits += kernel
            .run(&l.builds, ini, rules::DEFAULT_MAX_ROUNDS, &mut Silent)
            .hits;
    }
    hits
}

/// The same matches on the data kernel (initiatives drawn the same way, from the lineups).
fn play_data(
    kernel: &mut DataKernel,
    cat: &Catalogue,
    lineups: &[(Lineup, Vec<Loadout>)],
    n: u64,
    ini: &mut [f64],
) -> u64 {
    let mut hits = 0;
    for i in 0..n {
        let (l, builds) = &lineups[(i as usize) % lineups.len()];
        let ini = &mut ini[..l.len()];
        l.initiatives_into(&mut stream_rng(42, i, Stream::Initiative), ini);
        hits += kernel
            .run(cat, builds, ini, rules::DEFAULT_MAX_ROUNDS, &mut NoHook)
            .hits;
    }
    hits
}

fn workload(
    c: &mut Criterion,
    name: &str,
    specs: Vec<Vec<HeroSpec>>,
    battles: u64,
    samples: usize,
) {
    let cat = Catalogue::builtin();
    let lineups: Vec<Lineup> = specs.iter().map(|s| Lineup::compile(s).unwrap()).collect();
    let data: Vec<(Lineup, Vec<Loadout>)> = specs
        .iter()
        .zip(&lineups)
        .map(|(s, l)| {
            let b = s
                .iter()
                .map(|h| loadout_of_spec(&cat, h).unwrap())
                .collect();
            (l.clone(), b)
        })
        .collect();
    let mut kernel = Kernel::new(rules::DEFAULT_CAPACITY);
    let mut dkernel = DataKernel::new(rules::DEFAULT_CAPACITY);
    let mut per_hero = DataKernel::per_hero(rules::DEFAULT_CAPACITY);
    let mut ini = vec![0.0; 64];
    let hits = play(&mut kernel, &lineups, battles, &mut ini);
    assert_eq!(
        hits,
        play_data(&mut dkernel, &cat, &data, battles, &mut ini),
        "both kernels play the same battles"
    );
    assert_eq!(
        hits,
        play_data(&mut per_hero, &cat, &data, battles, &mut ini),
        "classes and rows per hero play the same battles"
    );
    let mut g = c.benchmark_group(name);
    g.sample_size(samples)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(4));
    g.throughput(Throughput::Elements(battles));
    g.bench_function("battles", |b| {
        b.iter(|| black_box(play(&mut kernel, &lineups, battles, &mut ini)))
    });
    g.bench_function("data_battles", |b| {
        b.iter(|| black_box(play_data(&mut dkernel, &cat, &data, battles, &mut ini)))
    });
    g.bench_function("data_per_hero_battles", |b| {
        b.iter(|| black_box(play_data(&mut per_hero, &cat, &data, battles, &mut ini)))
    });
    g.throughput(Throughput::Elements(hits));
    g.bench_function("attacks", |b| {
        b.iter(|| black_box(play(&mut kernel, &lineups, battles, &mut ini)))
    });
    g.bench_function("data_attacks", |b| {
        b.iter(|| black_box(play_data(&mut dkernel, &cat, &data, battles, &mut ini)))
    });
    g.finish();
}

/// 256 seeded rosters of six heroes, each holding up to four archive powers at random strengths,
/// in a random use order, with coins -30..=60.
fn archive_rosters(cat: &Catalogue) -> Vec<Vec<Loadout>> {
    use rand::RngExt;
    use rand::seq::SliceRandom;
    use skirmish::games::auto_rumble::powers::catalogue::{Held, default_order};
    (0..256u64)
        .map(|i| {
            let mut rng = stream_rng(37, i, Stream::Roster);
            (0..6)
                .map(|_| {
                    loop {
                        let mut held = Vec::new();
                        for power in 0..cat.len() as u16 {
                            if rng.random_bool(0.12) {
                                let strength = rng.random_range(0..=40);
                                held.push(Held { power, strength });
                            }
                        }
                        held.shuffle(&mut rng);
                        held.truncate(4);
                        let mut order = default_order(cat, &held);
                        order.shuffle(&mut rng);
                        let coins = rng.random_range(-30..=60);
                        if let Ok(l) = Loadout::compile(cat, coins, &held, &order) {
                            break l;
                        }
                    }
                })
                .collect()
        })
        .collect()
}

/// The archive rosters on the general kernel and on the data reference (same battles).
fn archive_workload(c: &mut Criterion) {
    use skirmish::games::auto_rumble::kernel::general::GeneralKernel;
    use skirmish::games::auto_rumble::reference::data;
    let cat = Catalogue::new(
        skirmish::games::auto_rumble::powers::file::load(
            &skirmish::platform::sources::Sources::disk(),
            std::path::Path::new("experiments/powers/archive.toml"),
        )
        .unwrap(),
    );
    let rosters = archive_rosters(&cat);
    let cap = rules::DEFAULT_CAPACITY;
    let initiative = |i: u64| -> Vec<f64> {
        use rand::RngExt;
        let mut rng = stream_rng(42, i, Stream::Initiative);
        (0..6).map(|_| rng.random_range(0.0..1.0)).collect()
    };
    let mut general = GeneralKernel::new(cap);
    let run_general = |k: &mut GeneralKernel| {
        let mut hits = 0;
        for (i, b) in rosters.iter().enumerate() {
            let ini = initiative(i as u64);
            hits += k
                .run(&cat, b, &ini, rules::DEFAULT_MAX_ROUNDS, &mut NoHook)
                .hits;
        }
        hits
    };
    let run_reference = || {
        let mut hits = 0;
        for (i, b) in rosters.iter().enumerate() {
            let ini = initiative(i as u64);
            hits += data::play(&cat, b, &ini, rules::DEFAULT_MAX_ROUNDS, cap)
                .outcome
                .hits;
        }
        hits
    };
    assert_eq!(run_general(&mut general), run_reference(), "same battles");
    let mut g = c.benchmark_group("archive_6_heroes");
    g.sample_size(20)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(4));
    g.throughput(Throughput::Elements(rosters.len() as u64));
    g.bench_function("general_battles", |b| {
        b.iter(|| black_box(run_general(&mut general)))
    });
    g.bench_function("reference_battles", |b| {
        b.iter(|| black_box(run_reference()))
    });
    g.finish();
}

fn benches(c: &mut Criterion) {
    // The default battle: three heroes, no coins left over, no powers.
    let plain = vec![
        HeroSpec::new("A", 0, &[]),
        HeroSpec::new("B", 0, &[]),
        HeroSpec::new("C", 0, &[]),
    ];
    workload(c, "default_3_heroes", vec![plain], 10_000, 50);

    // Eight heroes, random powers, orders and coins (-30..=60): 256 seeded rosters.
    let random: Vec<Vec<HeroSpec>> = (0..256u64)
        .map(|i| random_roster(&mut stream_rng(7, i, Stream::Roster), 8..=8, -30..=60))
        .collect();
    workload(c, "random_8_heroes", random, 256, 30);

    // Worst case: five teams of Amoeba + Cosmic Shield fill the 4096-hero table (capped at round
    // 11) and attack each other through rounds of thousands of heroes.
    let amoeba: Vec<HeroSpec> = (0..5)
        .map(|i| HeroSpec::new(&format!("A{i}"), 0, &[Power::Amoeba, Power::CosmicShield]))
        .collect();
    workload(c, "amoeba_cosmic_worst", vec![amoeba], 1, 10);

    archive_workload(c);
}

criterion_group!(auto_rumble, benches);
criterion_main!(auto_rumble);

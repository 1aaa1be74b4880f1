//! Clan Melee engine benchmark: pair interactions per second over the turns of a large melee.
//!
//!     cargo bench --bench clan_melee
//!
//! The nine classic clans at a 1,000,000-hp budget (about 1.02 M participants in turn 1, about
//! 9,000 from turn 2): each iteration sets the melee up from the same seed and plays its first 300
//! turns, in each mode. The interactions per iteration are a constant (seeded), which is what the
//! throughput divides by; roster building is included, as it is in a tournament.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use skirmish::games::clan_melee::input::clans;
use skirmish::games::clan_melee::kernel::engine::Melee;
use skirmish::games::clan_melee::rules::Mode;
use skirmish::games::clan_melee::state::Field;
use skirmish::rng::{Stream, match_stream_rng};

const BUDGET: i32 = 1_000_000;
const TURNS: u32 = 300;

fn turns(melee: &mut Melee, field: &Field, mode: Mode) -> u64 {
    melee.setup(field, BUDGET, &mut match_stream_rng(7, Stream::Roster));
    let mut rng = match_stream_rng(7, Stream::Battle);
    (0..TURNS).map(|_| melee.turn(field, mode, &mut rng)).sum()
}

fn bench(c: &mut Criterion) {
    let field = clans::reference_field();
    let mut melee = Melee::new();
    let mut g = c.benchmark_group("clan_melee_1m");
    g.sample_size(10).measurement_time(Duration::from_secs(8));
    for mode in [Mode::Sane, Mode::Reference] {
        let n = turns(&mut melee, &field, mode);
        g.throughput(Throughput::Elements(n));
        g.bench_function(format!("interactions_{}", mode.name()), |b| {
            b.iter(|| black_box(turns(&mut melee, &field, mode)))
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);

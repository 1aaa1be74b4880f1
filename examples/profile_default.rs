//! Plays the default 3-hero battle many times: a target for `perf record` / callgrind.
//!
//!     cargo run --release --example profile_default -- 2000000
use skirmish::games::auto_rumble::trace::hand::Silent;
use skirmish::games::auto_rumble::{HeroSpec, Kernel, Lineup, rules};
use skirmish::rng::{Stream, stream_rng};

fn main() {
    let n: u64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(1_000_000);
    let l = Lineup::compile(&[
        HeroSpec::new("A", 0, &[]),
        HeroSpec::new("B", 0, &[]),
        HeroSpec::new("C", 0, &[]),
    ])
    .unwrap();
    let mut k = Kernel::new(rules::DEFAULT_CAPACITY);
    let mut ini = [0.0; 3];
    let mut hits = 0;
    let t = std::time::Instant::now();
    for i in 0..n {
        l.initiatives_into(&mut stream_rng(42, i, Stream::Initiative), &mut ini);
        hits += k
            .run(&l.builds, &ini, rules::DEFAULT_MAX_ROUNDS, &mut Silent)
            .hits;
    }
    let s = t.elapsed().as_secs_f64();
    println!(
        "{n} battles, {hits} hits, {:.1} ns/battle, {:.2} M battles/s",
        s * 1e9 / n as f64,
        n as f64 / s / 1e6
    );
}

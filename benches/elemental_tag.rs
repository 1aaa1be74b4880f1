//! Elemental Tag engine benchmark: player-moves resolved per second over turns of 12- and
//! 40-player games with the default policies (policies' decisions, collisions, tags, points).
//!
//!     cargo bench --bench elemental_tag
//!
//! Each iteration plays 200 turns of a game that cannot end (no costs, so no one is knocked
//! out): the work per iteration is constant, players x 200 moves. A second group measures whole
//! games (the tournament's rosters, default settings), in games per second.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use skirmish::games::elemental_tag::kernel::engine::{Game, Silent, TeamSpec};
use skirmish::games::elemental_tag::policy::Policy;
use skirmish::games::elemental_tag::rules::Settings;
use skirmish::games::elemental_tag::simulation::tournament::TagTournament;
use skirmish::rng::match_seed;

const TURNS: u32 = 200;
const POLICIES: [&str; 5] = ["stay", "random", "flee", "spread", "smart"];

/// `players` players in elements of 4 (and underworld players for the rest), policies rotated.
fn roster(players: usize) -> Vec<TeamSpec> {
    let mut teams = Vec::new();
    let mut k = 0;
    while k < players {
        let size = if players - k >= 4 { 4 } else { 1 };
        teams.push(TeamSpec {
            name: format!("t{}", teams.len()),
            underworld: size == 1,
            players: (0..size)
                .map(|j| {
                    (
                        format!("p{}", k + j),
                        Policy::parse(POLICIES[(k + j) % POLICIES.len()]).unwrap(),
                    )
                })
                .collect(),
        });
        k += size;
    }
    teams
}

fn turns(g: &mut Game, teams: &[TeamSpec], s: &Settings) -> u64 {
    let mut o = g.begin(teams, s, 7, &mut Silent);
    for _ in 0..TURNS {
        g.next_turn(s, &mut o, &mut Silent);
    }
    o.moves
}

fn bench(c: &mut Criterion) {
    let s = Settings {
        it_cost: 0,
        tag_cost: 0,
        tagged_cost: 0,
        max_turns: 100_000,
        ..Settings::default()
    };
    let mut g = Game::new();
    let mut group = c.benchmark_group("tag_turns");
    group
        .sample_size(20)
        .measurement_time(Duration::from_secs(5));
    for players in [12, 40] {
        let teams = roster(players);
        let n = turns(&mut g, &teams, &s);
        group.throughput(Throughput::Elements(n));
        group.bench_function(format!("player_moves_{players}_players"), |b| {
            b.iter(|| black_box(turns(&mut g, &teams, &s)))
        });
    }
    group.finish();

    let t = TagTournament {
        policies: POLICIES.iter().map(|p| Policy::parse(p).unwrap()).collect(),
        teams: [3, 6],
        team_size: [2, 4],
        underworld: 30,
        settings: Settings::default(),
        shuffle_seats: false,
    };
    let games: Vec<(Vec<TeamSpec>, u64)> = (0..256)
        .map(|m| {
            let seed = match_seed(42, m);
            (t.roster(m, seed, &t.order(0, m)), seed)
        })
        .collect();
    let mut group = c.benchmark_group("tag_games");
    group
        .sample_size(20)
        .measurement_time(Duration::from_secs(5));
    group.throughput(Throughput::Elements(games.len() as u64));
    group.bench_function("tournament_rosters", |b| {
        b.iter(|| {
            for (teams, seed) in &games {
                black_box(g.play(teams, &t.settings, *seed, &mut Silent));
            }
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);

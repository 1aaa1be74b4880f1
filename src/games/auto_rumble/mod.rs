//! Auto Rumble (rules: `docs/rules/seeds/001_2ccb15b36011367b.txt`; interpretations: `docs/rules/auto-rumble.md`).
//!
//! The one shape of a game folder (ARCHITECTURE.md): `rules` (numbers and formulas), `state` (the
//! struct-of-arrays table), `kernel/` (the optimised battles), `reference/` (the plain models they
//! are tested against), `trace/` (observers: recorder, JSON Lines, narration), `input/` (files a
//! host writes: scenarios, rosters), `simulation/` (platform runs: free-for-all, tournament),
//! `analysis/` (questions answered). Auto Rumble adds two groups of its own: `powers/` (the
//! power-file language and its compiled catalogue) and `game/` (the full bidding game and its
//! strategies).
//!
//! Two kernels: the data kernel (`kernel/data.rs`, its fast path: each row a class of alike
//! heroes, state and count, an Amoeba and its copies played once; `kernel/general.rs`, every
//! clause of the format, a row per hero) and the hand-written kernel of the six sample powers
//! (`kernel/hand.rs`), kept (issue 18) as the second, independent implementation the data paths
//! are held to on random battles, the player of `rumble play` without `--powers` and the speed
//! yardstick. Table rows are in initiative order: copies join right after their original when the
//! table is rebuilt at the end of a round, so a team's heroes form one block; rows with Energy <= 0
//! are dead and skipped, and observers always see a compacted table.

pub mod analysis;
pub mod game;
pub mod input;
pub mod kernel;
pub mod powers;
pub mod reference;
pub mod rules;
pub mod simulation;
pub mod state;
pub mod trace;

pub use input::roster::{HeldPower, HeroSpec, Lineup, TeamBuild, UseItem};
pub use kernel::hand::{EndReason, Kernel, Outcome};
pub use powers::sample::Power;

/// The sample roster the bench's power rows are set against (issue 81: every power within 5x
/// of the median power's rate).
pub const SAMPLE_ROSTER: &str = "Souleater beside Amoeba (sample powers)";

/// The game as the platform and the commands know it (`crate::games::GAMES`).
pub const GAME: crate::games::Game = crate::games::Game {
    command: "rumble",
    title: "Auto Rumble",
    name: "Auto Rumble",
    summary: "bid on powers, then heroes battle automatically",
    seed: "docs/rules/seeds/001_2ccb15b36011367b.txt",
    rules: "docs/rules/auto-rumble.md (AR-n)",
    guide: "docs/auto-rumble.md",
    commands: &[
        "rumble play [SCENARIO] [--powers FILE] [--rules FILE] [--narrate [--format md|bbcode] | --trace] [--seed N]",
        "rumble check FILE",
        "rumble powers [POWER-FILE]",
        "simulate rumble [--power-file FILE] [--matches N] [--rules FILE] [--versus-rules FILE]",
        "tournament rumble [--strategies LIST] [--games N] [--rules FILE] [--versus-rules FILE]",
        "analyze rumble powers [--powers FILE] [--candidate POWER-FILE] [--rules FILE] [--versus-rules FILE]",
        "analyze rumble metagame [--strategies LIST] [--players N] [--games N]",
    ],
    inputs: &[
        ("scenario (one battle)", "experiments/sample-round-1.toml"),
        ("power file", "experiments/powers/archive.toml"),
        ("rules file", "experiments/auto-rumble/rules.toml"),
        (
            "experiment file",
            "experiments/rumble-ffa.toml, experiments/rumble-tournament.toml",
        ),
    ],
    seed_rules: || input::rules::SHIPPED.to_string(),
    streams: {
        use crate::rng::Stream;
        &[
            Stream::Roster,
            Stream::Initiative,
            Stream::Battle,
            Stream::Pool,
            Stream::Bidding,
        ]
    },
    sized_analyses: &[
        (&["analyze", "rumble", "powers"], "--max-battles"),
        (&["analyze", "powers"], "--max-battles"),
    ],
    bench: &[
        crate::games::Workload {
            what: "3-hero battles without powers or coins",
            command: "simulate rumble --heroes 3 --coins 0 --powers 0",
            matches: 2_000_000,
            unit: "battles",
            versus: None,
        },
        crate::games::Workload {
            what: "random battles (the main job's rosters)",
            command: "simulate rumble",
            matches: 200_000,
            unit: "battles",
            versus: None,
        },
        crate::games::Workload {
            what: "5 heroes holding Amoeba and Cosmic Shield",
            command: "simulate rumble --heroes 5 --powers 2 --coins 0 --catalogue Amoeba --catalogue 'Cosmic Shield'",
            matches: 100_000,
            unit: "battles",
            versus: None,
        },
        crate::games::Workload {
            what: SAMPLE_ROSTER,
            command: "simulate rumble --power-file experiments/powers/archive.toml --catalogue Souleater --catalogue Amoeba --catalogue 'Titanium Skin' --powers 2",
            matches: 100_000,
            unit: "battles",
            versus: None,
        },
        crate::games::Workload {
            what: "Egg Clutch beside Amoeba (among the slowest archive powers, a summon)",
            command: "simulate rumble --power-file experiments/powers/archive.toml --catalogue 'Egg Clutch' --catalogue Amoeba --catalogue 'Titanium Skin' --powers 2",
            matches: 20_000,
            unit: "battles",
            versus: Some(SAMPLE_ROSTER),
        },
        crate::games::Workload {
            what: "Vampire Fang beside Amoeba (a reaction)",
            command: "simulate rumble --power-file experiments/powers/reactions.toml --catalogue 'Vampire Fang' --catalogue Amoeba --catalogue 'Titanium Skin' --powers 2",
            matches: 200_000,
            unit: "battles",
            versus: Some(SAMPLE_ROSTER),
        },
        crate::games::Workload {
            what: "Budding beside Amoeba (a copy made on being attacked)",
            command: "simulate rumble --power-file experiments/powers/reactions.toml --catalogue Budding --catalogue Amoeba --catalogue 'Titanium Skin' --powers 2",
            matches: 50_000,
            unit: "battles",
            versus: Some(SAMPLE_ROSTER),
        },
        crate::games::Workload {
            what: "full games, sample powers, 7 strategies",
            command: "tournament rumble",
            matches: 3_000,
            unit: "games",
            versus: None,
        },
    ],
    calibrate: &[
        crate::games::Calibrated {
            command: "simulate rumble",
            matches: 400,
        },
        crate::games::Calibrated {
            command: "tournament rumble",
            // Coins left at the end are skewed (most games spend near everything, a few keep
            // hundreds): their intervals covered 93.8% on runs of 450 games, 94.0% on 900 and 94.5%
            // on 1,800 (400 runs each), a small sample's skew that fades as runs grow, so the
            // tournament is checked on runs of 1,800 games (README's run 100,000).
            matches: 600,
        },
    ],
    paired: Some(crate::games::PairedCheck {
        command: "simulate rumble",
        key: "attack_cost",
        to: 20.0,
        matches: 800,
    }),
    twins: &[crate::games::Twin {
        command: "analyze rumble powers --candidate experiments/candidates/titanium-twin.toml",
        candidate: "Titanium Twin",
        of: crate::games::Of::Member("Titanium Skin"),
        matches: 100_000,
    }],
};

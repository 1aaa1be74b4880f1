//! Minion Combat Pipeline (seed 003, Sanctum's "The Combat Pipeline"): two groups of up to eight
//! minions fight a combat of up to ten rounds, step by step as the page writes it (MC-n in
//! `docs/rules/minion-combat.md`).
//!
//! - `analysis`: `analyze minions` (stat, monster, matchup, split and nation worth).
//! - `board`: a turn's combats on a board, in the page's order, losses carrying (MC-5).
//! - `rules`: every number and reading of a combat (`Rules`), nation abilities as data.
//! - `state`: minion stat blocks, the catalogue, modifiers, groups and outcomes.
//! - `effects`: combat effects as data: clauses at the pipeline's points (MC-41).
//! - `draws`: every random choice read by its place from the combat's key (MC-30).
//! - `kernel`: the optimised combat in columns, held to `reference` choice for choice.
//! - `reference`: the plain model of the pipeline, the narrator's engine and the oracle.
//! - `simulation`: random combats on the platform (`simulate minions`).
//! - `trace`: narration in the page's step names.
//! - `input`: rules, catalogue, modifier and combat files.

pub mod analysis;
pub mod board;
pub mod draws;
pub mod effects;
pub mod input;
pub mod kernel;
pub mod reference;
pub mod rules;
pub mod simulation;
pub mod state;
pub mod trace;

/// The game as the platform and the commands know it (`crate::games::GAMES`).
pub const GAME: crate::games::Game = crate::games::Game {
    command: "minions",
    title: "Minion Combat Pipeline",
    name: "Minion Combat",
    summary: "Sanctum's group combat, step by step as its rules page writes it (stat blocks, spells and combat effects as data; `minions check` of the catalogue counts what plays whole)",
    seed: "docs/rules/seeds/003_78e81b0c83cbbbb1.txt",
    rules: "docs/rules/minion-combat.md (MC-n)",
    guide: "docs/minion-combat.md",
    commands: &[
        "minions combat [FILE] [--narrate [--format md|bbcode] | --trace | --exact] [--seed N]",
        "minions check FILE",
        "simulate minions [--matches N] [--kinds recruits,monsters] [--sizes 1-8] [--types 2] [--versus-rules FILE]",
        "analyze minions [--combats N] [--cell N] [--swordsman NAME] [--archer NAME] [--candidate \"H:3 A:1 HP:9 L:1\"]",
    ],
    inputs: &[
        ("combat file", "experiments/minion-combat/combat.toml"),
        ("board file", "experiments/minion-combat/board.toml"),
        (
            "small combat (exact odds)",
            "experiments/minion-combat/small.toml",
        ),
        ("rules file", "experiments/minion-combat/rules.toml"),
        ("minion catalogue", "experiments/minion-combat/minions.toml"),
        ("modifiers", "experiments/minion-combat/modifiers.toml"),
        ("combat effects", "experiments/minion-combat/effects.toml"),
    ],
    seed_rules: || input::RULES.to_string(),
    streams: {
        use crate::rng::Stream;
        &[Stream::Minions, Stream::MinionField]
    },
    sized_analyses: &[(&["analyze", "minions"], "--combats")],
    bench: &[
        crate::games::Workload {
            what: "combats of random fields",
            command: "simulate minions",
            matches: 500_000,
            unit: "combats",
            versus: None,
        },
        crate::games::Workload {
            what: "8v8 combats of one recruit type",
            command: "simulate minions --kinds recruits --sizes 8-8 --types 1",
            matches: 300_000,
            unit: "combats",
            versus: None,
        },
    ],
    calibrate: &[crate::games::Calibrated {
        command: "simulate minions",
        matches: 400,
    }],
    paired: Some(crate::games::PairedCheck {
        command: "simulate minions",
        key: "rounds",
        to: 6.0,
        matches: 800,
    }),
    twins: &[crate::games::Twin {
        command: "analyze minions --candidate 'Dwarf swordsman' --cell 100",
        candidate: "Dwarf swordsman",
        of: crate::games::Of::Member("Dwarf swordsman (baseline)"),
        matches: 20_000,
    }],
};

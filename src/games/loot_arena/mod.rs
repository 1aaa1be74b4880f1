//! Loot Arena (rules: `docs/rules/seeds/002_09b196f2d61b7b39.txt`; every reading: LA-n in
//! `docs/rules/loot-arena.md`). Part 1: the 2v2 champion battle with dice and items as data.
//!
//! The one shape of a game folder (ARCHITECTURE.md): `rules` (numbers and readings, all
//! settings), `state` (items, loadouts, outcomes), `draws` (every die by its place), `kernel/`
//! (the optimised battle), `reference` (the same rules written plainly), `policy` (sets and the
//! players who write them), `trace` (narration and JSON Lines), `input/` (rules, item and battle
//! files), `simulation/` (random battles on the platform), `analysis/` (exact odds, item worth).

pub mod analysis;
pub mod draws;
pub mod input;
pub mod kernel;
pub mod policy;
pub mod reference;
pub mod rules;
pub mod simulation;
pub mod state;
pub mod strategy;
pub mod trace;

/// The game as the platform and the commands know it (`crate::games::GAMES`).
pub const GAME: crate::games::Game = crate::games::Game {
    command: "loot",
    title: "Loot Arena",
    name: "Loot Arena",
    summary: "2v2 champion battles with dice, strengths, crits, healing and items as data; the whole battle royale around them",
    seed: "docs/rules/seeds/002_09b196f2d61b7b39.txt",
    rules: "docs/rules/loot-arena.md (LA-n)",
    guide: "docs/loot-arena.md",
    commands: &[
        "loot play [FILE] [--narrate [--format md|bbcode] | --trace] [--seed N] [--rules FILE] [--items FILE]",
        "loot check FILE",
        "loot odds \"Mage with 1d8,1d8 vs Rogue in Light armor\"",
        "simulate loot [--matches N] [--policies LIST] [--tiers 40,30,20,10] [--versus-rules FILE]",
        "analyze loot items [--battles N] [--sets LIST] [--candidate \"NAME: TIER KIND DICE\"]",
        "tournament loot [--strategies LIST] [--games N] [--players 16] [--rules FILE] [--versus-rules FILE]",
    ],
    inputs: &[
        ("battle file", "experiments/loot-arena/battle.toml"),
        ("royale file", "experiments/loot-arena/royale.toml"),
        ("rules file", "experiments/loot-arena/rules.toml"),
        ("item catalogue", "experiments/loot-arena/items.toml"),
    ],
    seed_rules: || input::RULES.to_string(),
    streams: {
        use crate::rng::Stream;
        &[Stream::Loot, Stream::LootField, Stream::Royale]
    },
    sized_analyses: &[
        (&["analyze", "loot", "items"], "--battles"),
        (&["analyze", "items"], "--battles"),
    ],
    bench: &[
        crate::games::Workload {
            what: "2v2 battles, draw included",
            command: "simulate loot",
            matches: 1_000_000,
            unit: "battles",
            versus: None,
        },
        crate::games::Workload {
            what: "16-player royales",
            command: "tournament loot",
            matches: 10_000,
            unit: "games",
            versus: None,
        },
    ],
    calibrate: &[
        crate::games::Calibrated {
            command: "simulate loot",
            matches: 400,
        },
        crate::games::Calibrated {
            command: "tournament loot",
            matches: 100,
        },
    ],
    paired: Some(crate::games::PairedCheck {
        command: "simulate loot",
        key: "champion.mage.health",
        to: 95.0,
        matches: 800,
    }),
    twins: &[crate::games::Twin {
        command: "analyze loot items --candidate 'Twin Axe: rare physical' --cell 500",
        candidate: "Rare Physical (Twin Axe)",
        of: crate::games::Of::Member("Rare Physical (Runed Axe)"),
        matches: 2_000,
    }],
};

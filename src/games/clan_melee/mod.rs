//! Clan Melee (rules: `docs/rules/seeds/000_0d162f8ea5072ac6.txt`; the classic tournament's engine and clans:
//! `docs/rules/notes/clan-melee.md`). Every interpretation is an entry CM-n in
//! `docs/rules/clan-melee.md`.
//!
//! The one shape of a game folder (ARCHITECTURE.md):
//! - `rules.rs`: the member primitives (cap, self-damage, decay, heal, damage) and the two modes;
//! - `state.rs`: the field's flat kind tables and the struct-of-arrays participants;
//! - `kernel/`: `pairs` (the rules folded per partner class and compiled to closures) and
//!   `engine` (the optimised melee);
//! - `reference.rs`: the plain model the engine is tested against;
//! - `trace.rs`: a melee told turn by turn;
//! - `input/`: clans as data (`expr`, `clan`: rosters and decision rules, compiled once) and the
//!   nine reference clans, built in (`clans`);
//! - `simulation/`: melees on the platform (`tournament`);
//! - `analysis/`: challenger clans against the reference field (`study`).
//!
//! The engine and the reference share `rules.rs`, `expr.rs`'s operators and `Clan::enter` only.
//! The reference interprets each rule as written (`Field::decide`); the engine runs the rules
//! folded per partner class and compiled to one closure per rule (`kernel/pairs.rs`, folding
//! with the interpreter's own `binary` / `unary`, so a constant means what it would at run time),
//! member by member or by classes of alike members (`kernel/classes.rs`, the default while they
//! pay). A pair's interaction (`kernel/meeting.rs`) and the pair coins (`rules::Coins`) are
//! shared by both engines; because a turn's coins are keyed by pair (CM-13) the engine may
//! resolve pairs in any order (grouped by kind pair) while the reference walks them in order.

pub mod analysis;
pub mod input;
pub mod kernel;
pub mod reference;
pub mod rules;
pub mod simulation;
pub mod state;
pub mod trace;

/// The game as the platform and the commands know it (`crate::games::GAMES`).
pub const GAME: crate::games::Game = crate::games::Game {
    command: "clan-melee",
    title: "Clan Melee",
    name: "Clan Melee",
    summary: "clans of warriors and healers, built to a budget, in a free-for-all melee",
    seed: "docs/rules/seeds/000_0d162f8ea5072ac6.txt",
    rules: "docs/rules/clan-melee.md (CM-n)",
    guide: "docs/clan-melee.md",
    commands: &[
        "clan-melee play [--clans FILES] [--budget N] [--rules FILE] [--narrate [--format md|bbcode] | --trace] [--seed N]",
        "clan-melee check FILE",
        "tournament clan-melee [--budgets LIST] [--melees N] [--candidate CLAN-FILE] [--rules FILE] [--versus-rules FILE]",
        "analyze clan-melee challengers [--budgets LIST] [--candidate CLAN-FILE] [--rules FILE] [--versus-rules FILE]",
    ],
    inputs: &[
        ("clan file", "experiments/clan-melee/3-salt-coward.toml"),
        ("rules file", "experiments/clan-melee-rules/rules.toml"),
        ("experiment file", "experiments/clan-melee-tournament.toml"),
    ],
    seed_rules: || input::rules::SHIPPED.to_string(),
    streams: {
        use crate::rng::Stream;
        &[Stream::Budget]
    },
    sized_analyses: &[],
    bench: &[
        crate::games::Workload {
            what: "the classic tournament (30 melees)",
            command: "tournament clan-melee",
            matches: 0,
            unit: "melees",
            versus: None,
        },
        crate::games::Workload {
            what: "melees at budget 10k",
            command: "tournament clan-melee --budgets 10000 --melees 400",
            matches: 0,
            unit: "melees",
            versus: None,
        },
        crate::games::Workload {
            what: "melees at budget 100k",
            command: "tournament clan-melee --budgets 100000 --melees 100",
            matches: 0,
            unit: "melees",
            versus: None,
        },
    ],
    calibrate: &[crate::games::Calibrated {
        command: "tournament clan-melee --budgets 1000 --melees 60",
        matches: 0,
    }],
    paired: None,
    twins: &[crate::games::Twin {
        command: "tournament clan-melee --candidate experiments/candidates/clan1-twin.toml --budgets 1000 --melees 2000",
        candidate: "Clan1 Twin",
        of: crate::games::Of::Member("Clan1"),
        matches: 2_000,
    }],
};

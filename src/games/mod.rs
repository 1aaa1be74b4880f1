//! One folder per game, each with the same inner shape (ARCHITECTURE.md, "The shape of a game
//! folder"), and the list of games that `skirmish games` prints.

pub mod auto_rumble;
pub mod changes;
pub mod clan_melee;
pub mod elemental_tag;
pub mod file_error;
pub mod loot_arena;
pub mod minion_combat;
pub mod names;

/// What a host needs to find a game: its command name, rules, guide, commands and input files.
pub struct Game {
    /// The game's word in commands (`skirmish <command> play`, `simulate <command>`).
    pub command: &'static str,
    pub title: &'static str,
    pub summary: &'static str,
    /// The rules as written (`docs/rules/seeds/`).
    pub seed: &'static str,
    /// Every reading of the rules, numbered.
    pub rules: &'static str,
    /// The full guide: formats, every flag, every measured table.
    pub guide: &'static str,
    pub commands: &'static [&'static str],
    /// `(what, an example shipped in experiments/)`.
    pub inputs: &'static [(&'static str, &'static str)],
}

/// Every game skirmish plays.
pub const GAMES: &[Game] = &[
    Game {
        command: "rumble",
        title: "Auto Rumble",
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
    },
    Game {
        command: "clan-melee",
        title: "Clan Melee",
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
    },
    Game {
        command: "tag",
        title: "Elemental Tag",
        summary: "teams bid for who is it, then simultaneous moves with exact collisions and tags",
        seed: "docs/rules/seeds/004_3458d795c23786a0.txt",
        rules: "docs/rules/elemental-tag.md (TG-n)",
        guide: "docs/elemental-tag.md",
        commands: &[
            "tag play [FILE] [--rules FILE] [--narrate [--format md|bbcode] | --trace] [--seed N]",
            "tag check FILE",
            "tournament tag [--policies LIST] [--candidate POLICY] [--games N] [--rules FILE] [--versus-rules FILE]",
            "analyze tag duel [--side 5] [--turns 40] [--rules FILE]",
        ],
        inputs: &[(
            "game file",
            "experiments/tag/small.toml, experiments/tag/alliances.toml",
        )],
    },
    Game {
        command: "loot",
        title: "Loot Arena",
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
    },
    Game {
        command: "minions",
        title: "Minion Combat Pipeline",
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
    },
];

//! One folder per game, each with the same inner shape (ARCHITECTURE.md, "The shape of a game
//! folder"), and the list of games that `skirmish games` prints.

pub mod auto_rumble;
pub mod changes;
pub mod clan_melee;
pub mod elemental_tag;
pub mod file_error;
pub mod loot_arena;
pub mod minion_combat;

/// A game as the platform and the commands know it (issue 78: one entry per game, declared in
/// the game's own `mod.rs`, where eight hand-kept lists in the CLI and the tests were): what a
/// host needs to find it (command name, rules, guide, commands, input files), the seed's rules
/// a balance tunes, the analyses a question may ask at a size, and what `bench` times and
/// `calibrate` checks.
pub struct Game {
    /// The game's word in commands (`skirmish <command> play`, `simulate <command>`).
    pub command: &'static str,
    pub title: &'static str,
    /// The short name answers and tables use (`Minion Combat`).
    pub name: &'static str,
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
    /// Every key of the game's rules at the seed's value, as TOML (what `balance` and
    /// `sensitivity` move).
    pub seed_rules: fn() -> String,
    /// The random streams its matches draw from (`crate::rng::Stream`), each tag its own.
    pub streams: &'static [crate::rng::Stream],
    /// The analyses a question may ask whole at a size: their words after `skirmish` and the
    /// flag of their size.
    pub sized_analyses: &'static [(&'static [&'static str], &'static str)],
    /// What `skirmish bench` times, in order.
    pub bench: &'static [Workload],
    /// What `skirmish calibrate` checks in many small runs, in order.
    pub calibrate: &'static [Calibrated],
    /// The what-if `calibrate` checks, if any.
    pub paired: Option<PairedCheck>,
    /// Candidate twins `calibrate --twins` plays: how often a candidate that plays exactly as a
    /// member of the field is called clearly better or worse (issue 80: a false "clearly").
    pub twins: &'static [Twin],
}

/// A command with a candidate that plays exactly as a member of its field (a setting its policy
/// never reads, or a member under another name), each run long enough to show a seat bias.
pub struct Twin {
    /// The command's words after `skirmish`, `--candidate` included: a dataset command, or an
    /// analysis (asked in memory, its size the analysis's size flag).
    pub command: &'static str,
    /// The candidate's label in the command's answer.
    pub candidate: &'static str,
    /// Which members it plays exactly as.
    pub of: Of,
    /// Matches per run (an analysis: its size flag's unit).
    pub matches: u64,
}

/// The members of a twin's field that play exactly as the candidate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Of {
    /// The member with this label.
    Member(&'static str),
    /// Every member: a field of twins, where any "clearly" on the card is false.
    Every,
}

impl Of {
    /// Whether `member` (a label in the answer) is one of them.
    pub fn holds(self, member: &str) -> bool {
        match self {
            Of::Member(m) => m == member,
            Of::Every => true,
        }
    }

    pub fn words(self) -> String {
        match self {
            Of::Member(m) => format!("`{m}`"),
            Of::Every => "any member".into(),
        }
    }
}

/// A workload `skirmish bench` times: one of the game's dataset commands (its defaults, or the
/// flags given) played kernel only on one thread.
pub struct Workload {
    pub what: &'static str,
    /// The command's words after `skirmish`.
    pub command: &'static str,
    pub matches: u64,
    pub unit: &'static str,
    /// The workload (its `what`) this one's rate is set against, as times slower: a power's
    /// roster beside the sample roster it replaces one power of.
    pub versus: Option<&'static str>,
}

/// A dataset command `skirmish calibrate` checks at a small size.
pub struct Calibrated {
    /// The command's words after `skirmish`.
    pub command: &'static str,
    /// Matches per small run (`0`: the command's own count, a tournament played whole).
    pub matches: u64,
}

/// A what-if `calibrate` checks (issue 63: paired differences, what `--versus-rules`, `diff`
/// and `sensitivity` publish): the command under the seed's rules and with one rules number
/// moved, played on the same seeds in both arms.
pub struct PairedCheck {
    pub command: &'static str,
    /// The rules key moved and its value in the second arm.
    pub key: &'static str,
    pub to: f64,
    /// Matches per small run.
    pub matches: u64,
}

/// Every game skirmish plays.
pub const GAMES: &[Game] = &[
    auto_rumble::GAME,
    clan_melee::GAME,
    elemental_tag::GAME,
    loot_arena::GAME,
    minion_combat::GAME,
];

/// One thing a game declares (a bench workload, a calibration check), with the game's short
/// name: what `bench` and `calibrate` walk.
pub struct Entry<T: 'static> {
    pub game: &'static str,
    item: &'static T,
}

impl<T> std::ops::Deref for Entry<T> {
    type Target = T;
    fn deref(&self) -> &T {
        self.item
    }
}

/// What `pick` takes of every game, in the registry's order.
pub fn entries<T>(pick: fn(&'static Game) -> &'static [T]) -> Vec<Entry<T>> {
    GAMES
        .iter()
        .flat_map(|g| pick(g).iter().map(|item| Entry { game: g.name, item }))
        .collect()
}

/// The game whose command word is `command`.
pub fn game(command: &str) -> Option<&'static Game> {
    GAMES.iter().find(|g| g.command == command)
}

#[cfg(test)]
mod tests {
    /// A stream's tag is part of every draw's derivation: two games drawing from one tag would
    /// share their randomness (issue 78: a game names its streams in its own folder).
    #[test]
    fn every_random_stream_belongs_to_one_game() {
        let mut seen: Vec<(u64, &str)> = Vec::new();
        for g in super::GAMES {
            assert!(
                !g.streams.is_empty(),
                "{} declares no random stream",
                g.name
            );
            for s in g.streams {
                if let Some((_, other)) = seen.iter().find(|(t, _)| *t == s.tag()) {
                    panic!(
                        "stream tag {} ({}) is declared by {other} and {}",
                        s.tag(),
                        s.what,
                        g.name
                    );
                }
                seen.push((s.tag(), g.name));
            }
        }
    }
}

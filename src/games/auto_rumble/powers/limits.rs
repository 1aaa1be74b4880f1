//! Every limit of the power-file format, in one place. What one file, power, clause or value may
//! hold is checked when the file loads (an error with the file's line, never a panic later); what
//! one hero may hold together is checked when a roster is built: a scenario naming too much is an
//! error, and random rosters leave out a power that would not fit (AR-22). `skirmish powers
//! reference` prints this table.

/// Most powers one file holds, includes counted (power ids are 16-bit with room to spare).
pub const MAX_POWERS: usize = 4096;
/// How deep `include` may nest (a cycle stops here too).
pub const MAX_INCLUDE_DEPTH: usize = 8;
/// Most counters one power keeps.
pub const MAX_COUNTERS: usize = 4;
/// Most clauses one power has (a hero holding it alone must fit).
pub const MAX_POWER_CLAUSES: usize = MAX_CLAUSES;
/// Most heroes one power summons.
pub const MAX_SUMMONS: usize = 255;
/// Most conditions in one clause's `if`.
pub const MAX_CONDS: usize = 3;
/// Most effects in one clause.
pub const MAX_EFFECTS: usize = 4;
/// Most quantities one value reads.
pub const MAX_TERMS: usize = 2;
/// How deep groups in parentheses may nest in a value (`2 * (energy + 5)`).
pub const MAX_GROUP_DEPTH: u8 = 4;
/// Largest number a value may hold: keeps every product inside `i64` and every result, after
/// clamping to `i32`, meaningful (AR-23).
pub const MAX_CONSTANT: i64 = 1_000_000;
/// Most powers one hero holds.
pub const MAX_HELD: usize = 8;
/// Most clauses one hero's powers hold together (a clause's once-per-round bit is one of 16).
pub const MAX_CLAUSES: usize = 16;
/// Most counters one hero's powers keep together.
pub const MAX_HERO_COUNTERS: usize = 8;

/// What a hero being built already holds, against the per-hero limits: the one check a summon's
/// powers (at load) and a drawn roster (AR-22) both go through.
#[derive(Clone, Copy, Debug, Default)]
pub struct Room {
    powers: usize,
    clauses: usize,
    counters: usize,
}

impl Room {
    /// Whether one more power with `clauses` clauses and `counters` counters fits.
    pub fn fits(&self, clauses: usize, counters: usize) -> bool {
        self.powers < MAX_HELD
            && self.clauses + clauses <= MAX_CLAUSES
            && self.counters + counters <= MAX_HERO_COUNTERS
    }

    pub fn take(&mut self, clauses: usize, counters: usize) {
        self.powers += 1;
        self.clauses += clauses;
        self.counters += counters;
    }
}

/// The limits as a host reads them: name in the file's terms, value, when it is checked.
pub fn table() -> Vec<(&'static str, i64, &'static str)> {
    let load = "checked when the file loads";
    let hero =
        "checked when a hero is built; random rosters leave out a power that would not fit (AR-22)";
    vec![
        (
            "powers per file (includes counted)",
            MAX_POWERS as i64,
            load,
        ),
        ("include depth", MAX_INCLUDE_DEPTH as i64, load),
        ("counters per power", MAX_COUNTERS as i64, load),
        ("clauses per power", MAX_POWER_CLAUSES as i64, load),
        ("summons per power", MAX_SUMMONS as i64, load),
        ("conditions per clause (`if`)", MAX_CONDS as i64, load),
        ("effects per clause", MAX_EFFECTS as i64, load),
        ("quantities per value", MAX_TERMS as i64, load),
        (
            "groups in parentheses nested in a value",
            MAX_GROUP_DEPTH as i64,
            load,
        ),
        ("size of a number in a value", MAX_CONSTANT, load),
        ("powers per hero", MAX_HELD as i64, hero),
        (
            "clauses per hero (its powers together)",
            MAX_CLAUSES as i64,
            hero,
        ),
        (
            "counters per hero (its powers together)",
            MAX_HERO_COUNTERS as i64,
            hero,
        ),
    ]
}

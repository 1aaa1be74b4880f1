//! The files a Minion Combat host writes: a rules file (`rules`), the minion catalogue and the
//! modifier list (`catalogue`), the effects they carry (`effects`), a combat (`combat`) and a board of groups (`board`). Each is checked whole before anything
//! runs; an error names the file, line, field and the fix.

use crate::error::Error;
pub mod board;
pub mod candidate;
pub mod catalogue;
pub mod check;
pub mod combat;
pub mod effects;
pub mod rules;

/// Largest stat a file may give (damage, armor, HP, attacks, an effect's amount), so sums stay
/// far from overflow.
pub const MAX_STAT: i32 = 10_000;

/// The shipped files, built in so every command runs without one.
pub const RULES: &str = include_str!("../../../../experiments/minion-combat/rules.toml");
pub const MINIONS: &str = include_str!("../../../../experiments/minion-combat/minions.toml");
pub const MODIFIERS: &str = include_str!("../../../../experiments/minion-combat/modifiers.toml");
pub const EFFECTS: &str = include_str!("../../../../experiments/minion-combat/effects.toml");
pub const COMBAT: &str = include_str!("../../../../experiments/minion-combat/combat.toml");
pub const BOARD: &str = include_str!("../../../../experiments/minion-combat/board.toml");

/// Where the formats are documented (named in unknown-key errors).
pub const FORMAT: &str = "docs/minion-combat.md";

/// The text of the file a flag names (through the shared reader), or the built-in text, with the
/// name errors give it.
pub fn read(
    src: &crate::platform::sources::Sources,
    path: Option<&std::path::Path>,
    builtin: (&str, &str),
) -> Result<(String, String), Error> {
    match path {
        Some(p) => crate::games::file_error::read(src, p, "Minion Combat file")
            .map(|t| (p.display().to_string(), t))
            .map_err(Error::from),
        None => Ok((format!("{} (built in)", builtin.0), builtin.1.to_string())),
    }
}

/// The game's data files a command names (`--rules`, `--minions`, `--modifiers`, `--effects`);
/// none named: the seed's.
#[derive(Clone, Debug, Default)]
pub struct DataFiles {
    pub rules: Option<std::path::PathBuf>,
    pub minions: Option<std::path::PathBuf>,
    pub modifiers: Option<std::path::PathBuf>,
    pub effects: Option<std::path::PathBuf>,
}

impl DataFiles {
    /// The rules and the catalogue (minions, modifiers, effects), each the seed's where no file
    /// is named, checked against each other.
    pub fn load(
        &self,
        src: &crate::platform::sources::Sources,
    ) -> Result<
        (
            crate::games::minion_combat::rules::Rules,
            crate::games::minion_combat::state::Catalogue,
        ),
        Error,
    > {
        use crate::games::minion_combat::rules::Rules;
        let rules = rules::from_flag(src, self.rules.as_deref())?;
        let cat = catalogue::from_flags(
            src,
            self.minions.as_deref(),
            self.modifiers.as_deref(),
            self.effects.as_deref(),
        )?;
        // A nation the rules file adds that no catalogue minion is of is a typo (`Dwraf`) or a
        // nation nobody fields: its ability would silently never apply (issue 53).
        let known = Rules::default();
        for n in &rules.nations {
            let fielded = cat
                .minions
                .iter()
                .any(|m| m.nation.eq_ignore_ascii_case(&n.name));
            if known.nation(&n.name).is_none() && !fielded {
                let names: Vec<&str> = known.nations.iter().map(|k| k.name.as_str()).collect();
                let hint = crate::names::closest_name(&n.name, names.iter().copied())
                    .map(|c| format!("; did you mean `{c}`?"))
                    .unwrap_or_default();
                return Err(Error::Input(format!(
                    "{}: `nation.{}`: no minion of the catalogue is of this nation, so its ability would never apply; name one of {}{hint}",
                    self.rules
                        .as_deref()
                        .map_or("the rules".into(), |p| p.display().to_string()),
                    n.name,
                    names.join(", ")
                )));
            }
        }
        Ok((rules, cat))
    }
}

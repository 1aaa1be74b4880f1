//! `skirmish simulate rumble` and its experiment files.

use crate::error::Error;
use std::path::{Path, PathBuf};

use clap::Args;
use serde::{Deserialize, Serialize};

use crate::games::auto_rumble::simulation::ffa::{Ffa, FfaSettings};
use crate::platform::command::DatasetCommand;
use crate::platform::job::Job;

use super::flags::{Record, RunFlags, parse_range, simulate_job};

/// Roster and battle settings of random Auto Rumble battles. Ranges are MIN..MAX, inclusive.
#[derive(Args, Debug, Clone, Default)]
pub struct FfaFlags {
    /// Heroes per battle [default 2..6].
    #[arg(long, allow_hyphen_values = true)]
    pub heroes: Option<String>,
    /// Unspent coins per hero [default -30..60].
    #[arg(long, allow_hyphen_values = true)]
    pub coins: Option<String>,
    /// Powers per hero, distinct, from the catalogue [default 0..3].
    #[arg(long, allow_hyphen_values = true)]
    pub powers: Option<String>,
    /// A power heroes may hold; repeat for each [default: every power of the power file, or
    /// the six sample powers].
    #[arg(long)]
    pub catalogue: Vec<String>,
    /// Power file the catalogue's powers come from [default: the built-in six sample powers].
    #[arg(long, value_name = "FILE")]
    pub power_file: Option<String>,
    /// Strength of each held power [default 1..30].
    #[arg(long, allow_hyphen_values = true)]
    pub strength: Option<String>,
    #[command(flatten)]
    pub battle: BattleFlags,
}

/// How each Auto Rumble battle is played: its limits and its rules' numbers.
#[derive(Args, Debug, Clone, Default)]
pub struct BattleFlags {
    /// Round limit (AR-14) [default 30].
    #[arg(long)]
    pub max_rounds: Option<u32>,
    /// Hero capacity (AR-15) [default 4096; 256 when powers are valued, AR-44].
    #[arg(long)]
    pub capacity: Option<u32>,
    /// Rules file: the battle's numbers (experiments/auto-rumble/rules.toml lists them) [default:
    /// the seed's].
    #[arg(long, value_name = "FILE")]
    pub rules: Option<String>,
}

impl BattleFlags {
    /// Sets what the flags give: round limit, capacity, rules file.
    pub fn apply(&self, max_rounds: &mut u32, capacity: &mut u32, rules_file: &mut Option<String>) {
        if let Some(m) = self.max_rounds {
            *max_rounds = m;
        }
        if let Some(c) = self.capacity {
            *capacity = c;
        }
        if let Some(f) = &self.rules {
            *rules_file = Some(f.clone());
        }
    }
}

pub use crate::platform::plan::DEFAULT_CHUNK;
/// The folder under `runs/`.
pub const DEFAULT_OUT: &str = "rumble-ffa";

impl FfaFlags {
    /// Overrides `base` with the flags given.
    pub fn apply(&self, mut s: FfaSettings) -> Result<FfaSettings, Error> {
        if let Some(t) = &self.heroes {
            s.heroes = parse_range("heroes", t)?;
        }
        if let Some(t) = &self.coins {
            s.coins = parse_range("coins", t)?;
        }
        if let Some(t) = &self.powers {
            s.powers = parse_range("powers", t)?;
        }
        if let Some(t) = &self.strength {
            s.strength = parse_range("strength", t)?;
        }
        if let Some(f) = &self.power_file {
            s.power_file = Some(f.clone());
            if self.catalogue.is_empty() {
                s.catalogue = Vec::new(); // every power of the file
            }
        }
        if !self.catalogue.is_empty() {
            s.catalogue = self
                .catalogue
                .iter()
                .map(|p| p.trim().to_string())
                .collect();
        }
        self.battle
            .apply(&mut s.max_rounds, &mut s.capacity, &mut s.rules_file);
        Ok(s)
    }
}

/// An experiment file (`skirmish run FILE`): the command and every setting. Unknown keys are
/// errors, so a typo never silently falls back to a default.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Experiment {
    /// The command to run; `simulate rumble` for now.
    pub command: String,
    pub matches: Option<u64>,
    pub seed: Option<u64>,
    pub out: Option<PathBuf>,
    pub chunk_size: Option<u64>,
    #[serde(default)]
    pub settings: FfaSettings,
}

/// The canonical command for a dataset: every setting spelled out, nothing machine-specific.
fn canonical_command(j: (&FfaSettings, u64, u64, u64)) -> String {
    let (s, matches, seed, chunk) = j;
    format!(
        "skirmish simulate rumble --matches {matches} --seed {seed} --chunk-size {chunk} \
         --heroes={}..{} --coins={}..{} --powers={}..{}{} --strength={}..{} \
         --max-rounds {} --capacity {}{}",
        s.heroes[0],
        s.heroes[1],
        s.coins[0],
        s.coins[1],
        s.powers[0],
        s.powers[1],
        s.catalogue
            .iter()
            .map(|p| super::flags::shell_flag("--catalogue", p))
            .collect::<String>(),
        s.strength[0],
        s.strength[1],
        s.max_rounds,
        s.capacity,
        s.power_file
            .as_ref()
            .map(|f| super::flags::shell_flag("--power-file", f))
            .unwrap_or_default()
    ) + &s
        .rules_file
        .as_ref()
        .map(|f| super::flags::shell_flag("--rules", f))
        .unwrap_or_default()
}

/// `simulate rumble` with its settings and run flags (an experiment file's values under the
/// command line's), served by the platform.
pub struct SimulateRumble {
    pub settings: FfaSettings,
    pub run: RunFlags,
    /// The experiment file's text, recorded in the manifest.
    pub experiment: Option<String>,
}

impl DatasetCommand for SimulateRumble {
    type Sim = Ffa;
    fn build(&self, src: &crate::platform::sources::Sources) -> Result<Ffa, Error> {
        // The settings' messages start with their key (`powers: ...`): on the command line the
        // setting is the flag of that name.
        Ffa::new(src, self.settings.clone()).map_err(|e| {
            e.map_message(|e| match e.split_once(':') {
                // A file's own error (`file.toml:3:1: ...`) names its file, line and field already.
                Some((key, rest)) if !key.contains([' ', '.', '/']) => {
                    format!("--{}:{rest}", key.replace('_', "-"))
                }
                _ => e,
            })
        })
    }
    fn job<'a>(
        &self,
        ctx: &crate::platform::context::Context,
        ffa: &'a Ffa,
    ) -> Result<Job<'a, Ffa>, Error> {
        simulate_job(ctx, &self.run, ffa, DEFAULT_OUT, |matches, seed, chunk| {
            Record {
                settings: serde_json::to_value(&ffa.settings).expect("serialisable"),
                command: canonical_command((&ffa.settings, matches, seed, chunk)),
                inputs: ffa
                    .settings
                    .power_file
                    .as_deref()
                    .map(|f| {
                        crate::games::auto_rumble::powers::file::files(ctx.sources(), Path::new(f))
                    })
                    .unwrap_or_default()
                    .into_iter()
                    .chain(ffa.settings.rules_file.as_deref().map(PathBuf::from))
                    .collect(),
                experiment: self.experiment.clone(),
            }
        })
    }
}

/// `skirmish simulate rumble`.
pub fn simulate_rumble(flags: &RunFlags, ffa: &FfaFlags) -> Result<SimulateRumble, Error> {
    Ok(SimulateRumble {
        settings: ffa.apply(FfaSettings::default())?,
        run: flags.clone(),
        experiment: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_parse_inclusive_and_single() {
        assert_eq!(parse_range::<i32>("coins", "-30..60"), Ok([-30, 60]));
        assert_eq!(parse_range::<u8>("heroes", "2..=6"), Ok([2, 6]));
        assert_eq!(parse_range::<u8>("heroes", "4"), Ok([4, 4]));
        assert!(parse_range::<u8>("heroes", "2-6").is_err());
    }

    #[test]
    fn the_canonical_command_round_trips_through_the_flags() {
        let s = FfaSettings::default();
        let cmd = canonical_command((&s, 10, 7, 5));
        assert!(cmd.contains("--coins=-30..60"), "{cmd}");
        assert!(cmd.contains("--catalogue 'Big, Gnashy Claws'"), "{cmd}");
    }
}

//! `skirmish tournament rumble`: full ten-round games between bidding strategies (AR-45 .. AR-50).

use crate::error::Error;
use std::path::{Path, PathBuf};

use clap::Args;

use crate::games::auto_rumble::simulation::tournament::{Tournament, ValueSource, head_to_head};
use crate::platform::command::DatasetCommand;
use crate::platform::job::Job;
use crate::platform::tally::Tally;

use super::flags::{Record, Size, split_specs};

#[derive(Args, Debug, Clone)]
pub struct TournamentFlags {
    /// Strategies, comma-separated, each `name` or `name(param=value,...)`: random, hoarder,
    /// spreader, sniper, value, outbid, planner (AR-51)
    /// [default value,hoarder,sniper,spreader,random,outbid,planner].
    #[arg(long)]
    pub strategies: Option<String>,
    /// Games to play.
    #[arg(long, default_value_t = 100_000)]
    pub games: u64,
    /// Players per game, 3-12 [default: the number of strategies]; seats rotate over them.
    #[arg(long)]
    pub players: Option<usize>,
    /// Power file the pool draws from [default: the built-in six sample powers].
    #[arg(long, value_name = "FILE", alias = "power-file")]
    pub powers: Option<String>,
    /// Coin values for the value-aware strategies: `powers.parquet` from `skirmish analyze
    /// powers` with the same power file [default: measured now].
    #[arg(long, value_name = "FILE")]
    pub values: Option<PathBuf>,
    /// Precision of the values measured now, in coins [default 2].
    #[arg(long, default_value_t = 2.0)]
    pub value_precision: f64,
    /// Dataset folder (created; an earlier run of the same command there is resumed).
    #[arg(long, default_value = "runs/tournament")]
    pub out: PathBuf,
    /// Games per chunk: one part file per chunk and table; chunks are what threads share out.
    #[arg(long, default_value_t = 1_000)]
    pub chunk_size: u64,
    /// Battle round limit (AR-14).
    #[arg(long, default_value_t = 30)]
    pub max_rounds: u32,
    /// Hero capacity (AR-15) [default 256, as for power values, AR-44].
    #[arg(long, default_value_t = 256)]
    pub capacity: u32,
    /// Rules file: the battle's and the game's numbers (experiments/auto-rumble/rules.toml lists
    /// them) [default: the seed's].
    #[arg(long, value_name = "FILE")]
    pub rules: Option<String>,
    #[command(flatten)]
    pub run: super::flags::Running,
    /// The experiment file's text, recorded in the manifest, when the flags came from one.
    #[arg(skip)]
    pub experiment: Option<String>,
}

pub const DEFAULT_STRATEGIES: &str = "value,hoarder,sniper,spreader,random,outbid,planner";

#[cfg(feature = "parquet")]
fn read_values(
    path: &Path,
    t_cat: &crate::games::auto_rumble::powers::catalogue::Catalogue,
) -> Result<Vec<f64>, Error> {
    use crate::platform::parquet::{read_f64s, read_strings};
    let names = read_strings(path, "power")?;
    let strength = read_f64s(path, "strength")?;
    let value = read_f64s(path, "coin_value")?;
    let mut out = Vec::with_capacity(t_cat.len());
    for d in &t_cat.defs {
        if d.helper {
            // AR-55: never offered, so never valued (the analysis leaves it out).
            out.push(0.0);
            continue;
        }
        // The middle strength's row, like the analysis' own default (AR-44).
        let mut rows: Vec<usize> = (0..names.len()).filter(|&i| names[i] == d.name).collect();
        if rows.is_empty() {
            return Err(Error::Input(format!(
                "--values {}: no value for `{}`: run `skirmish analyze rumble powers` with the same power file",
                path.display(),
                d.name
            )));
        }
        rows.sort_by(|&a, &b| strength[a].total_cmp(&strength[b]));
        let v = value[rows[(rows.len() - 1) / 2]];
        // A strategy bidding on NaN or infinity would bid nonsense with exit 0 (issue 53).
        if !v.is_finite() {
            return Err(Error::Input(format!(
                "--values {}: `{}`'s coin value is {v}, not a number a strategy can bid on: measure it again with `skirmish analyze rumble powers`",
                path.display(),
                d.name
            )));
        }
        out.push(v);
    }
    Ok(out)
}

#[cfg(not(feature = "parquet"))]
fn read_values(
    _: &Path,
    _: &crate::games::auto_rumble::powers::catalogue::Catalogue,
) -> Result<Vec<f64>, Error> {
    Err("--values needs Parquet support: rebuild with the default features".into())
}

/// A tournament experiment file (`skirmish run FILE` with `command = "tournament rumble"`): the
/// flags of `skirmish tournament rumble` as keys, strategies as a list. Unknown keys are errors.
#[derive(Debug, Clone, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TournamentExperiment {
    /// `tournament rumble`: read first, to choose this shape of file.
    #[allow(dead_code)]
    pub command: String,
    pub strategies: Vec<String>,
    pub games: Option<u64>,
    pub players: Option<usize>,
    pub powers: Option<String>,
    pub values: Option<PathBuf>,
    pub value_precision: Option<f64>,
    pub seed: Option<u64>,
    pub out: Option<PathBuf>,
    pub chunk_size: Option<u64>,
    pub max_rounds: Option<u32>,
    pub capacity: Option<u32>,
    pub rules: Option<String>,
}

impl TournamentExperiment {
    /// The flags this file stands for; flags given on the command line (`run`'s) win.
    pub fn flags(&self, run: &super::flags::RunFlags, text: String) -> TournamentFlags {
        TournamentFlags {
            strategies: Some(self.strategies.join(",")),
            games: run.matches.or(self.games).unwrap_or(100_000),
            players: self.players,
            powers: self.powers.clone(),
            values: self.values.clone(),
            value_precision: self.value_precision.unwrap_or(2.0),
            out: run
                .out
                .clone()
                .or(self.out.clone())
                .unwrap_or_else(|| PathBuf::from("runs/tournament")),
            chunk_size: run.chunk_size.or(self.chunk_size).unwrap_or(1_000),
            max_rounds: self.max_rounds.unwrap_or(30),
            capacity: self.capacity.unwrap_or(256),
            rules: self.rules.clone(),
            run: super::flags::Running {
                seed: run.seed.or(self.seed).unwrap_or(42),
                threads: run.threads,
                sharding: super::flags::ShardFlags {
                    shard: run.shard.clone(),
                    shard_count: run.shard_count,
                },
                quiet: run.quiet,
            },
            experiment: Some(text),
        }
    }
}

/// `skirmish tournament rumble`.
impl DatasetCommand for TournamentFlags {
    type Sim = Tournament;
    const UNIT: &'static str = "games";
    fn build(&self, src: &crate::platform::sources::Sources) -> Result<Tournament, Error> {
        let f = self;
        let specs = split_specs(f.strategies.as_deref().unwrap_or(DEFAULT_STRATEGIES));
        let source = match &f.values {
            None => {
                if !(f.value_precision > 0.0 && f.value_precision.is_finite()) {
                    return Err("--value-precision: give a positive number of coins, e.g. 2".into());
                }
                ValueSource::Measured {
                    precision: f.value_precision,
                    seed: f.run.seed,
                }
            }
            Some(p) => {
                let cat = crate::games::auto_rumble::powers::catalogue::Catalogue::load(
                    src,
                    f.powers.as_deref(),
                )?
                .with_rules_file(src, f.rules.as_deref())?;
                ValueSource::Given {
                    values: read_values(p, &cat)?,
                    from: p.display().to_string(),
                }
            }
        };
        Tournament::new(
            crate::games::auto_rumble::simulation::tournament::Files {
                src,
                powers: f.powers.as_deref(),
                rules: f.rules.as_deref(),
            },
            &specs,
            f.players,
            source,
            f.max_rounds,
            f.capacity,
        )
    }
    fn job<'a>(
        &self,
        ctx: &crate::platform::context::Context,
        t: &'a Tournament,
    ) -> Result<Job<'a, Tournament>, Error> {
        let f = self;
        let chunk_size = ctx.paired_chunk(f.chunk_size, f.games);
        let command = format!(
            "skirmish tournament rumble --strategies {} --games {} --players {} --seed {} --chunk-size {} --max-rounds {} --capacity {}{}{}{}",
            super::flags::shell_quote(&t.names.join(",")),
            f.games,
            t.game.players,
            f.run.seed,
            chunk_size,
            f.max_rounds,
            f.capacity,
            f.powers
                .as_ref()
                .map(|p| super::flags::shell_flag("--powers", p))
                .unwrap_or_default(),
            f.values
                .as_ref()
                .map(|p| super::flags::shell_flag("--values", p.display()))
                .unwrap_or_else(|| format!(" --value-precision {}", f.value_precision)),
            f.rules
                .as_ref()
                .map(|p| super::flags::shell_flag("--rules", p))
                .unwrap_or_default(),
        );
        let mut settings = serde_json::json!({
            "strategies": t.names,
            "players": t.game.players,
            "power_file": f.powers,
            "values": t.values,
            "values_from": t.values_from,
            "max_rounds": f.max_rounds,
            "capacity": f.capacity,
        });
        if f.rules.is_some() {
            // Issue 51: what the rules file changes, in plain words (what `diff` shows).
            settings["rules"] = t.cat.rules.changes().into();
        }
        // Every file that can change the games: the power file with its includes, the values
        // table, the rules file.
        let mut inputs = f
            .powers
            .as_deref()
            .map(|p| crate::games::auto_rumble::powers::file::files(ctx.sources(), Path::new(p)))
            .unwrap_or_default();
        inputs.extend(f.values.iter().cloned());
        inputs.extend(f.rules.iter().map(PathBuf::from));
        let size = Size::of("--games", f.games, chunk_size);
        let record = Record {
            experiment: f.experiment.clone(),
            ..Record::new(command, settings, inputs)
        };
        f.run.job(t, size, f.out.clone(), record)
    }
    fn said(&self, t: &Tournament, summary: String, tally: &Tally) -> String {
        let mut s = format!("strategies' coin values: {}\n", t.values_from);
        s.push_str(&summary.replace("matches", "games"));
        s.push_str(&head_to_head(&t.names, tally));
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strategy_lists_split_outside_parentheses() {
        assert_eq!(
            split_specs("value(shade=0.5, min=1), sniper ,random"),
            vec!["value(shade=0.5, min=1)", "sniper", "random"]
        );
    }
}

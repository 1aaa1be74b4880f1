//! Flags and helpers every command shares (`--seed`, `--out`, `--threads`, `--quiet`, `--shard`,
//! `--chunk-size` mean the same everywhere). Every command module uses this one; it uses none.

use crate::error::Error;
use crate::platform::sources::Sources;
use std::path::PathBuf;
use std::str::FromStr;

use clap::Args;

use crate::platform::plan::Shard;

/// Flags every simulation shares: size, seed, where to write, how to split the work.
#[derive(Args, Debug, Clone, Default)]
pub struct RunFlags {
    /// Matches to play.
    #[arg(long)]
    pub matches: Option<u64>,
    /// Master seed: match i's randomness comes only from (seed, i).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Dataset folder (created; an earlier run of the same command there is resumed).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Matches per chunk: one part file per chunk and table.
    #[arg(long)]
    pub chunk_size: Option<u64>,
    /// Worker threads (default: all cores). The output does not depend on it.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Run only the K-th (from 0) of N equal slices of the chunks, e.g. 0/4. Without it,
    /// SLURM_ARRAY_TASK_ID/COUNT or JOB_COMPLETION_INDEX (with --shard-count) are used.
    #[arg(long)]
    pub shard: Option<String>,
    /// Shard count for a Kubernetes Indexed Job (JOB_COMPLETION_INDEX gives K).
    #[arg(long)]
    pub shard_count: Option<u64>,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
}

impl Running {
    /// How a ledger analysis with these flags is run: into `out` as command `name`, on the
    /// threads, shard and progress bar they ask for (see [`crate::platform::command::Cells`]).
    pub fn cells<'a>(
        &self,
        out: &'a std::path::Path,
        name: &'static str,
        identity: serde_json::Value,
        planned: u64,
        unit: &'a str,
        absolute: bool,
    ) -> Result<crate::platform::command::Cells<'a>, Error> {
        Ok(crate::platform::command::Cells {
            out,
            name,
            identity,
            shard: self.sharding.shard()?,
            threads: threads(self.threads)?,
            planned,
            quiet: self.quiet,
            unit,
            absolute,
        })
    }
}

/// `MIN..MAX`, `MIN..=MAX` or a single `N`.
pub(crate) fn parse_range<T: FromStr + Copy>(flag: &str, text: &str) -> Result<[T; 2], Error> {
    let bad =
        || format!("--{flag} `{text}`: expected MIN..MAX (inclusive) or one number, e.g. 2..6");
    let parse = |s: &str| s.trim().parse::<T>().map_err(|_| bad());
    match text.split_once("..") {
        Some((a, b)) => Ok([parse(a)?, parse(b.trim_start_matches('='))?]),
        None => {
            let v = parse(text)?;
            Ok([v, v])
        }
    }
}

pub(crate) use crate::platform::runner::encoder;
pub(crate) use crate::platform::runner::{default_threads, threads};

/// `--shard K/N` and `--shard-count N` of a tournament or an analysis, read as `simulate` reads
/// them (issue 51): the flag, else a Slurm job array's or a Kubernetes Indexed Job's variables.
#[derive(Args, Debug, Clone, Default)]
pub struct ShardFlags {
    /// Play only the K-th (from 0) of N shares of the work (slices of the chunks; an analysis's
    /// cells or batches, into OUT/shards/), e.g. 0/4; the same command without it, once every
    /// shard is done, finishes the folder to the bytes of a run on one machine. Without it,
    /// SLURM_ARRAY_TASK_ID/COUNT or JOB_COMPLETION_INDEX (with --shard-count) are used.
    #[arg(long)]
    pub shard: Option<String>,
    /// Shard count for a Kubernetes Indexed Job (JOB_COMPLETION_INDEX gives K).
    #[arg(long)]
    pub shard_count: Option<u64>,
}

impl ShardFlags {
    pub fn shard(&self) -> Result<Option<Shard>, Error> {
        match &self.shard {
            Some(t) => Shard::parse(t).map(Some),
            None => Shard::from_env(|k| std::env::var(k).ok(), self.shard_count),
        }
    }
}

/// A `simulate GAME` command: the run's flags and the game's.
pub struct Simulate<F> {
    pub run: RunFlags,
    pub game: F,
}

pub use crate::platform::escape::shell_quote;

pub use crate::platform::sources::input_digests;

/// ` --flag WORD`, the word shell-quoted (see [`shell_quote`]).
pub fn shell_flag(flag: &str, word: impl std::fmt::Display) -> String {
    format!(" {flag} {}", shell_quote(&word.to_string()))
}

/// Refuses a list naming one entry twice (two spellings of one policy included: entries are
/// compared as `spec` writes them): its rows would be counted twice (issue 53).
pub(crate) fn refuse_repeats(flag: &str, specs: &[String]) -> Result<(), Error> {
    for (k, s) in specs.iter().enumerate() {
        if specs[..k].contains(s) {
            return Err(Error::Input(format!(
                "{flag}: `{s}` is listed twice; list each once (its rows would be counted twice)"
            )));
        }
    }
    Ok(())
}

/// The command line as run, each word shell-quoted, less what cannot change the answer
/// (`--threads`, `--quiet`, `--out`): an answer's provenance (issue 50), the same bytes on any
/// machine and in any folder.
pub(crate) fn command_line(ctx: &crate::platform::context::Context) -> String {
    let mut words = vec!["skirmish".to_string()];
    let mut args = ctx.argv().iter().skip(1);
    while let Some(a) = args.next() {
        if a == "--threads" || a == "--out" {
            args.next();
            continue;
        }
        if a == "--quiet" || a.starts_with("--threads=") || a.starts_with("--out=") {
            continue;
        }
        words.push(shell_quote(a));
    }
    words.join(" ")
}

/// Splits `a,b(x=1,y=2),c` at the commas outside parentheses.
pub(crate) fn split_specs(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut depth = 0;
    let mut cur = String::new();
    for ch in s.chars() {
        match ch {
            '(' => depth += 1,
            ')' => depth -= 1,
            ',' if depth == 0 => {
                out.push(std::mem::take(&mut cur));
                continue;
            }
            _ => {}
        }
        cur.push(ch);
    }
    out.push(cur);
    out.into_iter()
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .collect()
}

/// The flags of every tournament's and analysis's run beside its size and folder: seed, threads,
/// shard and progress (each command names its own count, `--out` and what they mean).
#[derive(Args, Debug, Clone)]
pub struct Running {
    /// Master seed: match m's randomness comes only from (seed, m).
    #[arg(long, default_value_t = 42)]
    pub seed: u64,
    /// Worker threads (default: all cores). The output does not depend on it.
    #[arg(long)]
    pub threads: Option<usize>,
    #[command(flatten)]
    pub sharding: ShardFlags,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
}

impl Default for Running {
    fn default() -> Self {
        Running {
            seed: 42,
            threads: None,
            sharding: ShardFlags::default(),
            quiet: false,
        }
    }
}

/// How big a dataset run is: its matches, the flag that set them (messages name it), and its
/// part size.
pub struct Size {
    pub matches: u64,
    pub count_flag: &'static str,
    pub chunk_size: u64,
}

/// What a dataset run's folder records of it: the canonical command, the settings, the input
/// files whose digests join its identity, and the experiment file's text when it came from one.
pub struct Record {
    pub command: String,
    pub settings: serde_json::Value,
    pub inputs: Vec<PathBuf>,
    pub experiment: Option<String>,
}

impl Size {
    pub fn of(count_flag: &'static str, matches: u64, chunk_size: u64) -> Size {
        Size {
            matches,
            count_flag,
            chunk_size,
        }
    }
}

impl Record {
    /// A record of a run typed on the command line (no experiment file).
    pub fn new(command: String, settings: serde_json::Value, inputs: Vec<PathBuf>) -> Record {
        Record {
            command,
            settings,
            inputs,
            experiment: None,
        }
    }
}

impl Running {
    /// The run of `sim`: `size` matches into `out`, recorded as `record`.
    pub fn job<'a, S: crate::platform::runner::Simulation>(
        &self,
        sim: &'a S,
        size: Size,
        out: PathBuf,
        record: Record,
    ) -> Result<crate::platform::job::Job<'a, S>, Error> {
        Ok(crate::platform::job::Job {
            inputs: record.inputs,
            sim,
            settings: record.settings,
            seed: self.seed,
            matches: size.matches,
            count_flag: size.count_flag,
            chunk_size: size.chunk_size,
            out,
            threads: self.threads.unwrap_or_else(default_threads),
            shard: self.sharding.shard()?,
            progress: !self.quiet,
            command: record.command,
            experiment: record.experiment,
        })
    }
}

/// The dataset job of a `simulate GAME` command from the shared flags, with the defaults every
/// such command has (1,000,000 matches, seed 42, chunks of 50,000, `runs/<out>`); `record` is
/// given the run's matches, seed and part size for its command.
pub fn simulate_job<'a, S: crate::platform::runner::Simulation>(
    ctx: &crate::platform::context::Context,
    run: &RunFlags,
    sim: &'a S,
    out: &str,
    record: impl FnOnce(u64, u64, u64) -> Record,
) -> Result<crate::platform::job::Job<'a, S>, Error> {
    let matches = run.matches.unwrap_or(1_000_000);
    let seed = run.seed.unwrap_or(42);
    let chunk_size = ctx.paired_chunk(run.chunk_size.unwrap_or(50_000), matches);
    let running = Running {
        seed,
        threads: run.threads,
        sharding: ShardFlags {
            shard: run.shard.clone(),
            shard_count: run.shard_count,
        },
        quiet: run.quiet,
    };
    running.job(
        sim,
        Size {
            matches,
            count_flag: "--matches",
            chunk_size,
        },
        run.out
            .clone()
            .unwrap_or_else(|| PathBuf::from("runs").join(out)),
        record(matches, seed, chunk_size),
    )
}

/// The game's own flags of a `simulate GAME` command: what they play, and how the folder
/// records them. [`Simulate`] of them is a dataset command.
pub trait GameFlags {
    type Sim: crate::platform::runner::Simulation;
    /// The game's command word, also the folder under `runs/`.
    const GAME: &'static str;
    /// What one match is called.
    const UNIT: &'static str;
    /// The simulation the flags describe, every input read and checked.
    fn build(&self, src: &Sources) -> Result<Self::Sim, Error>;
    /// The game's flags as the canonical command writes them.
    fn command(&self, sim: &Self::Sim) -> String;
    /// The settings the manifest records.
    fn settings(&self, src: &Sources, sim: &Self::Sim) -> serde_json::Value;
    /// The files whose digests join the run's identity.
    fn inputs(&self) -> Vec<PathBuf>;
}

impl<F: GameFlags> crate::platform::command::DatasetCommand for Simulate<F> {
    type Sim = F::Sim;
    const UNIT: &'static str = F::UNIT;
    fn build(&self, src: &Sources) -> Result<F::Sim, Error> {
        self.game.build(src)
    }
    fn job<'a>(
        &self,
        ctx: &crate::platform::context::Context,
        sim: &'a F::Sim,
    ) -> Result<crate::platform::job::Job<'a, F::Sim>, Error> {
        let command = format!("skirmish simulate {} {}", F::GAME, self.game.command(sim));
        let (settings, inputs) = (self.game.settings(ctx.sources(), sim), self.game.inputs());
        simulate_job(ctx, &self.run, sim, F::GAME, |matches, seed, chunk_size| {
            Record::new(
                format!("{command} --matches {matches} --seed {seed} --chunk-size {chunk_size}"),
                settings,
                inputs,
            )
        })
    }
}

/// How one match of a game's `play` is told: in words (`--narrate`, every draw and its
/// arithmetic, the way the game's rules write their examples), as JSON Lines (`--trace`: one
/// object per step, then the result), or its result only; on which seed.
#[derive(Args, Debug, Clone)]
pub struct Telling {
    /// Tell the match step by step in words: every draw, choice and its arithmetic, the way the
    /// game's rules write their examples.
    #[arg(long, conflicts_with = "trace")]
    pub narrate: bool,
    /// JSON Lines: one object per step (action, turn or round), then the result.
    #[arg(long)]
    pub trace: bool,
    /// The match's seed (the rules list every draw it makes) [default: the file's `seed`, else
    /// 42].
    #[arg(long)]
    pub seed: Option<u64>,
    #[command(flatten)]
    pub style: NarrationFormat,
}

impl Telling {
    /// The narration's style (refused with a trace).
    pub fn style(&self) -> Result<crate::platform::narration::Style, Error> {
        self.style.style(self.trace)
    }

    /// What is told, as a game's `play` takes it (a style refused with a trace).
    pub fn told(&self) -> Result<crate::platform::narration::Told, Error> {
        use crate::platform::narration::Told;
        Ok(Told::of(self.trace, self.narrate, self.style()?))
    }
}

/// How a narration is written (issue 50): `--format text|md|bbcode` on every game's `play`.
#[derive(Args, Debug, Clone)]
pub struct NarrationFormat {
    /// How the told battle is written: text (a terminal), md (a web page, headings and lists) or
    /// bbcode (a forum post).
    #[arg(long, default_value = "text", value_parser = ["text", "md", "bbcode"])]
    pub format: String,
}

impl NarrationFormat {
    /// The style, refused with a trace (JSON Lines are written as they are).
    pub fn style(&self, trace: bool) -> Result<crate::platform::narration::Style, Error> {
        let style = crate::platform::narration::Style::parse(&self.format)?;
        if trace && style != crate::platform::narration::Style::Text {
            return Err(Error::Input(format!(
                "--format {}: a trace is JSON Lines, written as they are; --format styles a narration (--narrate)",
                self.format
            )));
        }
        Ok(style)
    }
}

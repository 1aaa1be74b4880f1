//! The command line's grammar handed to the questions (`questions::Commands`): which command
//! lines a recorded answer may run, a dataset command's flags read once, an analysis asked in
//! memory.

use crate::error::Error;
use clap::{Args, Parser};

use crate::platform::command::{WithSimulation, visit};
use crate::platform::sources::Sources;

/// The command line's grammar, as a question asks it (issue 62: an answer file is data; its
/// `args` name a skirmish command that writes a dataset or `run`, `bench`, `calibrate`,
/// `balance` or `sensitivity`, and nothing else).
#[derive(Clone, Copy, Debug, Default)]
pub struct Grammar;

impl crate::questions::Commands for Grammar {
    type Dataset = Dataset;

    fn dataset(&self, words: &[&str], tool: &str) -> Result<Self::Dataset, Error> {
        Dataset::parse(words, tool)
    }

    fn balance(
        &self,
        argv: &[String],
    ) -> Result<Option<crate::questions::balance::Settings>, Error> {
        use clap::Parser as _;
        let cli = super::Cli::try_parse_from(argv).map_err(|e| e.kind().to_string())?;
        match cli.command {
            super::Command::Balance(f) => f.settings().map(Some),
            _ => Ok(None),
        }
    }

    fn reads(&self, words: &[String]) -> Result<(), Error> {
        parse(words.to_vec()).map(|_| ())
    }

    fn findings(
        &self,
        ctx: &crate::platform::context::Context,
        words: Vec<String>,
    ) -> Result<crate::platform::command::Findings, Error> {
        super::analysis_findings(ctx, parse(words)?.command)
    }

    type Ready = Ready;

    fn read(&self, argv: &[String]) -> Result<Ready, crate::questions::Misread> {
        use clap::Parser as _;
        super::Cli::try_parse_from(argv)
            .map(|cli| Ready(cli.command))
            .map_err(|e| {
                use clap::error::{ContextKind, ContextValue, ErrorKind};
                // The argument the command lacks, from clap's context, not its message's words.
                let unknown = match (e.kind(), e.get(ContextKind::InvalidArg)) {
                    (ErrorKind::UnknownArgument, Some(ContextValue::String(a))) => Some(a.clone()),
                    _ => None,
                };
                crate::questions::Misread {
                    kind: e.kind().to_string(),
                    said: e.to_string(),
                    unknown,
                }
            })
    }

    fn writes_folder(&self, command: &Ready) -> bool {
        super::writes_datasets(&command.0)
    }

    fn run(
        &self,
        ctx: &crate::platform::context::Context,
        command: Ready,
    ) -> Result<String, Error> {
        super::dispatch(ctx, command.0)
    }

    fn may_answer(&self, args: &[String]) -> Result<(), Error> {
        // `--versus-rules FILE` is read before the grammar (`cli::main`): the command is checked
        // without it, as each of its two arms is run.
        let mut own = Vec::new();
        let mut words = args.iter();
        while let Some(w) = words.next() {
            if w == super::VERSUS {
                words.next();
            } else if !w.starts_with("--versus-rules=") {
                own.push(w.clone());
            }
        }
        let argv = std::iter::once("skirmish".to_string()).chain(own).chain([
            "--out".into(),
            "x".into(),
            "--quiet".into(),
        ]);
        use clap::Parser as _;
        let cli = super::Cli::try_parse_from(argv).map_err(|e| e.kind().to_string())?;
        match cli.command {
            c if super::writes_datasets(&c) => Ok(()),
            super::Command::Run { .. }
            | super::Command::Bench(_)
            | super::Command::Calibrate(_)
            | super::Command::Balance(_)
            | super::Command::Sensitivity(_) => Ok(()),
            _ => Err("not a command an answer may run".into()),
        }
    }
}

/// A command line the grammar read, ready to run.
pub struct Ready(super::Command);

/// Words after `skirmish` read by the command grammar, as the command line reads them.
fn parse(words: Vec<String>) -> Result<super::Cli, Error> {
    use clap::Parser as _;
    super::Cli::try_parse_from(std::iter::once("skirmish".to_string()).chain(words))
        .map_err(|e| Error::Input(e.to_string().trim_end().to_string()))
}

/// The flags of one command, parsed from its words as the CLI would.
#[derive(Parser)]
struct Only<T: Args> {
    #[command(flatten)]
    flags: T,
}

fn flags<T: Args>(words: &[&str], tool: &str) -> Result<T, Error> {
    Only::<T>::try_parse_from(std::iter::once("skirmish").chain(words.iter().copied()))
        .map(|o| o.flags)
        .map_err(|e| Error::Input(format!("{tool} workload `{}`: {e}", words.join(" "))))
}

/// A dataset command's flags (`simulate rumble --heroes 3`...), read once from its words as the
/// command line reads them; its simulation is built from them as serving the command would. The
/// command's run flags (`--matches`, `--seed`...) are the caller's, not read here.
pub enum Dataset {
    SimulateRumble(super::simulate::SimulateRumble),
    SimulateLoot(super::flags::Simulate<super::loot::FieldFlags>),
    SimulateMinions(super::flags::Simulate<super::minions::FieldFlags>),
    ClanMelee(super::clan_melee::ClanMeleeFlags),
    TournamentRumble(super::tournament::TournamentFlags),
    TournamentTag(super::tag::TournamentFlags),
    TournamentLoot(super::loot::TournamentFlags),
}

impl Dataset {
    /// Reads the words of a dataset command; `tool` names the caller in errors.
    pub(super) fn parse(words: &[&str], tool: &str) -> Result<Dataset, Error> {
        if words.len() < 2 {
            return Err(Error::Input(format!(
                "{tool} workload `{}`: not a dataset command",
                words.join(" ")
            )));
        }
        let rest = &words[2..];
        Ok(match &words[..2] {
            ["simulate", "rumble"] => {
                let f: super::simulate::FfaFlags = flags(rest, tool)?;
                Dataset::SimulateRumble(super::simulate::simulate_rumble(&Default::default(), &f)?)
            }
            ["simulate", "loot"] => Dataset::SimulateLoot(simulate(flags(rest, tool)?)),
            ["simulate", "minions"] => Dataset::SimulateMinions(simulate(flags(rest, tool)?)),
            ["tournament", "clan-melee"] => Dataset::ClanMelee(flags(rest, tool)?),
            ["tournament", "rumble"] => Dataset::TournamentRumble(flags(rest, tool)?),
            ["tournament", "tag"] => Dataset::TournamentTag(flags(rest, tool)?),
            ["tournament", "loot"] => Dataset::TournamentLoot(flags(rest, tool)?),
            _ => {
                return Err(Error::Input(format!(
                    "{tool} workload `{}`: not a dataset command",
                    words.join(" ")
                )));
            }
        })
    }
}

impl crate::questions::Dataset for Dataset {
    fn visit<V: WithSimulation>(&self, src: &Sources, v: V) -> Result<V::Out, Error> {
        match self {
            Dataset::SimulateRumble(c) => visit(src, c, v),
            Dataset::SimulateLoot(c) => visit(src, c, v),
            Dataset::SimulateMinions(c) => visit(src, c, v),
            Dataset::ClanMelee(c) => visit(src, c, v),
            Dataset::TournamentRumble(c) => visit(src, c, v),
            Dataset::TournamentTag(c) => visit(src, c, v),
            Dataset::TournamentLoot(c) => visit(src, c, v),
        }
    }
}

fn simulate<F>(game: F) -> super::flags::Simulate<F> {
    super::flags::Simulate {
        run: Default::default(),
        game,
    }
}

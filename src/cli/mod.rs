//! The `skirmish` command line. Each subcommand parses its flags, calls library code, and turns
//! errors into one message on stderr with exit code 2.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};

mod analyze;
mod clan_melee;
mod powers;
mod rumble;
pub mod simulate;
mod tournament;

#[derive(Parser, Debug)]
#[command(
    name = "skirmish",
    version,
    about = "A Monte Carlo balance lab for small battle games"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Auto Rumble: bidding on powers, then automated hero battles.
    Rumble {
        #[command(subcommand)]
        command: RumbleCommand,
    },
    /// Auto Rumble power files: validate them and read them back.
    Powers {
        #[command(subcommand)]
        command: PowersCommand,
    },
    /// Play many seeded matches on all cores into a Parquet dataset, then summarise.
    Simulate {
        #[command(subcommand)]
        game: SimulateCommand,
    },
    /// Balance analyses over many paired battles.
    Analyze {
        #[command(subcommand)]
        command: AnalyzeCommand,
    },
    /// Tournaments between strategies, played as full games on all cores.
    Tournament {
        #[command(subcommand)]
        game: TournamentCommand,
    },
    /// Run an experiment file (TOML naming the command and all its settings).
    Run {
        /// The experiment file, e.g. experiments/rumble-ffa.toml.
        file: PathBuf,
        #[command(flatten)]
        flags: simulate::RunFlags,
    },
    /// Measure this machine: kernel battles/s and attacks/s on one and all threads, and the
    /// end-to-end rate with Parquet writing.
    Bench {
        /// Matches per measurement.
        #[arg(long, default_value_t = 200_000)]
        matches: u64,
        /// Threads for the all-threads rows (default: all cores).
        #[arg(long)]
        threads: Option<usize>,
    },
}

#[derive(Subcommand, Debug)]
enum SimulateCommand {
    /// Random Auto Rumble free-for-all battles (rosters drawn from the ranges below).
    Rumble {
        #[command(flatten)]
        flags: simulate::RunFlags,
        #[command(flatten)]
        ffa: simulate::FfaFlags,
    },
}

#[derive(Subcommand, Debug)]
enum TournamentCommand {
    /// Auto Rumble: full ten-round games (bids, then a battle each round) between bidding
    /// strategies, seats rotated; win rates, head to head, coins left, powers won.
    Rumble(tournament::TournamentFlags),
    /// Clan Melee: melees between clans at each budget (the nine classic clans by default);
    /// wins per clan and budget, draws, deadlocks and turn caps.
    ClanMelee(clan_melee::ClanMeleeFlags),
}

#[derive(Subcommand, Debug)]
enum AnalyzeCommand {
    /// Auto Rumble: what each power is worth in coins, with 95% intervals; pairs that combine
    /// or counter (AR-44).
    Powers(analyze::PowerFlags),
    /// Clan Melee: the best fixed warrior AP level and the best healer share, as challenger
    /// clans against the nine reference clans, with 95% intervals (CM-40).
    ClanMelee(clan_melee::StudyFlags),
}

#[derive(Subcommand, Debug)]
enum PowersCommand {
    /// Validate a power file and print each power back in a normalised, readable form.
    Check {
        /// The power file (TOML), e.g. experiments/powers/archive.toml.
        file: PathBuf,
    },
    /// One line per power (default: the built-in catalogue of the six sample powers).
    List {
        /// The power file (TOML).
        file: Option<PathBuf>,
    },
}

#[derive(Subcommand, Debug)]
enum RumbleCommand {
    /// Play one battle from a scenario file (default: the rules' worked sample, round 1).
    Battle(BattleArgs),
}

#[derive(Args, Debug)]
struct BattleArgs {
    /// Scenario file (TOML). Without it, the built-in experiments/sample-round-1.toml.
    file: Option<PathBuf>,
    /// Print JSON Lines: each alive hero's Energy after each round, then the result.
    #[arg(long, conflicts_with = "narrate")]
    trace: bool,
    /// Tell the battle round by round, as a host would post it.
    #[arg(long)]
    narrate: bool,
    /// Power file the heroes' powers come from (default: the built-in six sample powers).
    #[arg(long, value_name = "FILE", alias = "power-file")]
    powers: Option<PathBuf>,
    /// Seed for base initiatives the file does not give (overrides `battle.seed`).
    #[arg(long)]
    seed: Option<u64>,
    /// Round limit (overrides `battle.max_rounds`).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    max_rounds: Option<u32>,
    /// Hero capacity (overrides `battle.capacity`).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=(1 << 20)))]
    capacity: Option<u64>,
}

/// Runs the command line; returns the process exit code.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Rumble {
            command: RumbleCommand::Battle(args),
        } => rumble::battle(args),
        Command::Powers {
            command: PowersCommand::Check { file },
        } => powers::check(&file),
        Command::Powers {
            command: PowersCommand::List { file },
        } => powers::list(file.as_deref()),
        Command::Simulate {
            game: SimulateCommand::Rumble { flags, ffa },
        } => simulate::simulate_rumble(&flags, &ffa),
        Command::Analyze {
            command: AnalyzeCommand::Powers(flags),
        } => analyze::powers(&flags),
        Command::Analyze {
            command: AnalyzeCommand::ClanMelee(flags),
        } => clan_melee::study(&flags),
        Command::Tournament {
            game: TournamentCommand::Rumble(flags),
        } => tournament::rumble(&flags),
        Command::Tournament {
            game: TournamentCommand::ClanMelee(flags),
        } => clan_melee::tournament(&flags),
        Command::Run { file, flags } => simulate::run_experiment(&file, &flags),
        Command::Bench { matches, threads } => {
            if matches == 0 || threads == Some(0) {
                Err("bench: --matches and --threads must be at least 1".to_string())
            } else {
                simulate::bench(matches, threads)
            }
        }
    };
    match result {
        Ok(text) => {
            let mut out = std::io::stdout().lock();
            // A closed pipe (`| head`) is not an error worth a message.
            let _ = out.write_all(text.as_bytes());
            ExitCode::SUCCESS
        }
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::from(2)
        }
    }
}

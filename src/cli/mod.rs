//! The `skirmish` command line. Each subcommand parses its flags, calls library code, and turns
//! errors into one message on stderr with exit code 2.

use crate::error::{Error, Status};
use std::fmt::Write as _;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use crate::platform::command::{serve, serve_analysis};
use crate::platform::context::Context;
use flags::{Simulate, encoder};

mod analyze;
pub mod balance;
mod bench;
pub mod calibrate;
mod clan_melee;
pub mod flags;
mod grammar;
mod loot;
mod metagame;
mod minions;
mod powers;
mod reproduce;
pub use grammar::Grammar;
/// A command asked at a point, read by this command line's grammar.
pub type Question = crate::questions::question::Question<Grammar>;
mod rumble;
mod run;
mod sensitivity;
pub mod simulate;
mod tag;
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

// Parsed once per process: the variants' sizes cost nothing worth boxing for.
#[allow(clippy::large_enum_variant)]
/// How `report` and `diff` give their answer (issue 64: a diff to post takes what a report does).
#[derive(clap::Args, Debug)]
pub struct Rendering {
    /// text, md, bbcode, json or html (a diff's text is side by side; its other formats render
    /// the differences as an answer of their own).
    #[arg(long, default_value = "text")]
    format: String,
    /// Write it to this file instead of printing it.
    #[arg(short = 'o', long)]
    output: Option<PathBuf>,
    /// With --format bbcode: every table, however long the post (by default it fits in 10,000
    /// characters: the findings first, then the tables that fit).
    #[arg(long)]
    full: bool,
}

impl Rendering {
    /// `text` printed (after `before`), or written whole to `-o` (issue 62: a full disk left a
    /// truncated page in place; never over a file of an output folder).
    fn deliver(&self, before: &str, text: String) -> Result<String, Error> {
        match &self.output {
            None => Ok(format!("{before}{text}")),
            Some(p) => {
                let (dir, name) = crate::platform::dataset::report_target(p)?;
                crate::platform::dataset::atomic_write(&dir, &name, text.as_bytes())
                    .map_err(|e| format!("-o {}: {e}", p.display()))?;
                Ok(format!("{before}wrote {}\n", p.display()))
            }
        }
    }
}

// Parsed once per process: the variants' sizes cost nothing worth boxing for.
#[allow(clippy::large_enum_variant)]
#[derive(Subcommand, Debug)]
enum Command {
    /// The games, their commands and their input files.
    Games,
    /// Auto Rumble: bidding on powers, then automated hero battles.
    Rumble {
        #[command(subcommand)]
        command: RumbleCommand,
    },
    /// Clan Melee: clans of warriors and healers in a free-for-all melee.
    ClanMelee {
        #[command(subcommand)]
        command: ClanMeleeCommand,
    },
    /// Elemental Tag: teams bid for who is it, then simultaneous moves, collisions and tags.
    Tag {
        #[command(subcommand)]
        command: TagCommand,
    },
    /// Loot Arena: 2v2 champion battles with dice, strengths and items.
    Loot {
        #[command(subcommand)]
        command: LootCommand,
    },
    /// Minion Combat Pipeline (Sanctum): group against group, step by step as the page writes it.
    Minions {
        #[command(subcommand)]
        command: MinionsCommand,
    },
    /// Play many seeded matches on all cores into a Parquet dataset, then summarise.
    Simulate {
        #[command(subcommand)]
        game: SimulateCommand,
    },
    /// Tournaments between strategies or clans, played on all cores.
    Tournament {
        #[command(subcommand)]
        game: TournamentCommand,
    },
    /// Balance analyses: `skirmish analyze <game> <question>`.
    Analyze {
        #[command(subcommand)]
        game: AnalyzeCommand,
    },
    /// Run an experiment file of any game (TOML naming the command and all its settings).
    Run {
        /// The experiment file, e.g. experiments/rumble-ffa.toml.
        file: PathBuf,
        #[command(flatten)]
        flags: flags::RunFlags,
    },
    /// Render the answer a command wrote into a folder, for a terminal, a web page or a forum
    /// post (any game's simulate or tournament folder).
    Report {
        /// The folder, e.g. runs/rumble-ffa.
        dir: PathBuf,
        #[command(flatten)]
        to: Rendering,
    },
    /// Compare two folders of one command: every estimate side by side, the difference with its
    /// 95% interval, and the settings that differ.
    Diff {
        a: PathBuf,
        b: PathBuf,
        #[command(flatten)]
        to: Rendering,
    },
    /// Re-run the recorded answers behind README and the guides (docs/answers/*.json) and say of
    /// each estimate: identical, within its interval, or moved (exit 1); check or rewrite the
    /// generated blocks.
    Reproduce(reproduce::ReproduceFlags),
    /// Check a dataset folder: every part file against its recorded size and SHA-256, and each
    /// part's rows against its match count.
    Verify {
        /// The dataset or analysis folder, e.g. runs/rumble-ffa.
        dir: PathBuf,
        /// Seconds the recorded command may spend playing parts again (spread over the run:
        /// first, last, middle...) or an analysis's cells (chosen at random) to check them
        /// against the record; 0 checks the files only.
        #[arg(long, default_value_t = 30)]
        replay_for: u64,
        /// Play every part (every cell, every roster) again.
        #[arg(long)]
        replay_all: bool,
    },
    /// Measure this machine: every game's kernel on one thread, against a yardstick timed in the
    /// same command (what `reproduce` compares), and Auto Rumble's main job on all threads, kernel
    /// only and end to end with Parquet writing.
    Bench(bench::BenchFlags),
    /// Check that the 95% intervals cover 95%: every game's dataset commands played many times
    /// on other seeds against a large reference, coverage by kind of estimate.
    Calibrate(calibrate::CalibrateFlags),
    /// Which numbers make the game fair: tune rules keys or placeholders in your files until a
    /// command's estimates meet their targets, then prove it on fresh seeds (docs/balance.md).
    Balance(balance::BalanceFlags),
    /// Which rules numbers move balance most: each moved a step down and up on the same
    /// matches, every estimate's move with its paired interval, ranked (a tornado in the report).
    Sensitivity(sensitivity::SensitivityFlags),
    /// Old spelling of `skirmish rumble check` / `skirmish rumble powers` (kept for one release).
    #[command(hide = true)]
    Powers {
        #[command(subcommand)]
        command: PowersCommand,
    },
}

#[derive(Subcommand, Debug)]
enum SimulateCommand {
    /// Random Auto Rumble free-for-all battles (rosters drawn from the ranges below).
    Rumble {
        #[command(flatten)]
        flags: flags::RunFlags,
        #[command(flatten)]
        ffa: simulate::FfaFlags,
    },
    /// Random Loot Arena 2v2 battles: random pairs, items drawn by tier, sets from policies.
    Loot {
        #[command(flatten)]
        flags: flags::RunFlags,
        #[command(flatten)]
        field: loot::FieldFlags,
    },
    /// Random Minion Combat group-vs-group combats drawn from the catalogue.
    Minions {
        #[command(flatten)]
        flags: flags::RunFlags,
        #[command(flatten)]
        field: minions::FieldFlags,
    },
}

#[derive(Subcommand, Debug)]
enum MinionsCommand {
    /// Play one combat from a combat file (default: the built-in experiments/minion-combat/combat.toml).
    Combat(minions::CombatArgs),
    /// Check a rules file, minion catalogue, modifier list or combat file; print what it holds.
    Check {
        /// The file (TOML), e.g. experiments/minion-combat/combat.toml.
        file: PathBuf,
        #[command(flatten)]
        data: minions::DataFlags,
    },
}

#[derive(Subcommand, Debug)]
enum LootCommand {
    /// Play one battle from a battle file (default: the built-in experiments/loot-arena/battle.toml),
    /// or one whole royale from a royale file (experiments/loot-arena/royale.toml).
    #[command(visible_alias = "battle")]
    Play(loot::PlayArgs),
    /// Check a battle file, a royale file, a rules file or an item catalogue and print it back.
    Check {
        /// The file (TOML), e.g. experiments/loot-arena/battle.toml.
        file: PathBuf,
        #[command(flatten)]
        data: loot::DataFlags,
    },
    /// One attack's exact damage distribution, mean and crit chance (LA-22).
    Odds(loot::OddsArgs),
}

#[derive(Subcommand, Debug)]
enum TournamentCommand {
    /// Auto Rumble: full ten-round games (bids, then a battle each round) between bidding
    /// strategies, seats rotated; win rates, head to head, coins left, powers won.
    Rumble(tournament::TournamentFlags),
    /// Clan Melee: melees between clans at each budget (the nine classic clans by default);
    /// wins per clan and budget, draws, deadlocks and turn caps.
    ClanMelee(clan_melee::ClanMeleeFlags),
    /// Elemental Tag: games between policies (rosters drawn per game, policies rotated over the
    /// seats); win share and score per policy with 95% intervals, by team size and by bid.
    Tag(tag::TournamentFlags),
    /// Loot Arena: whole battle royales between strategies (seats rotated); win share, place,
    /// rounds survived, battles and items held per strategy with 95% intervals.
    Loot(loot::TournamentFlags),
}

// Parsed once per process: the variants' sizes cost nothing worth boxing for.
#[allow(clippy::large_enum_variant)]
#[derive(Subcommand, Debug)]
enum AnalyzeCommand {
    /// Auto Rumble's questions.
    Rumble {
        #[command(subcommand)]
        question: RumbleQuestion,
    },
    /// Clan Melee's questions (`analyze clan-melee` alone: the old spelling of `challengers`).
    #[command(args_conflicts_with_subcommands = true)]
    ClanMelee {
        #[command(subcommand)]
        question: Option<ClanMeleeQuestion>,
        #[command(flatten)]
        flags: clan_melee::StudyFlags,
    },
    /// Elemental Tag's questions.
    Tag {
        #[command(subcommand)]
        question: TagQuestion,
    },
    /// Loot Arena's questions.
    Loot {
        #[command(subcommand)]
        question: LootQuestion,
    },
    /// Minion Combat: what each stat, monster, split and nation ability is worth, and the
    /// matchup matrices (MC-32..MC-36).
    Minions(minions::StudyFlags),
    /// Old spelling of `skirmish analyze rumble powers` (kept for one release).
    #[command(hide = true)]
    Powers(analyze::PowerFlags),
    /// The spelling of `skirmish analyze loot items`.
    #[command(hide = true)]
    Items(loot::ItemFlags),
}

#[derive(Subcommand, Debug)]
enum LootQuestion {
    /// What each item, tier and affinity is worth in health, the 6x6 pairing matrices (bare,
    /// equipped, both crit readings), leave-one-out, and the best set per class (LA-32).
    Items(loot::ItemFlags),
}

#[derive(Subcommand, Debug)]
enum TagQuestion {
    /// The two-player core solved exactly: how fast a lone it player can force a tag, and every
    /// policy measured against the exact strategies (TG-52).
    Duel(tag::DuelFlags),
}

// Parsed once per process: the variants' sizes cost nothing worth boxing for.
#[allow(clippy::large_enum_variant)]
#[derive(Subcommand, Debug)]
enum RumbleQuestion {
    /// What each power is worth in coins, with 95% intervals; pairs that combine or counter
    /// (AR-44).
    Powers(analyze::PowerFlags),
    /// The bidding strategies as a game: every profile of strategies played, the equilibrium
    /// mix, each strategy's regret, how firm the answer is (AR-71).
    Metagame(metagame::MetagameFlags),
}

#[derive(Subcommand, Debug)]
enum ClanMeleeQuestion {
    /// The best fixed warrior AP level and the best healer share, as challenger clans against
    /// the nine reference clans, with 95% intervals (CM-40).
    Challengers(clan_melee::StudyFlags),
}

#[derive(Subcommand, Debug)]
enum PowersCommand {
    /// Validate a power file and print each power back in a normalised, readable form.
    ///
    /// The format's full reference: `skirmish powers reference` (docs/power-files.md).
    Check {
        /// The power file (TOML), e.g. experiments/powers/archive.toml.
        file: PathBuf,
    },
    /// One line per power (default: the built-in catalogue of the six sample powers).
    List {
        /// The power file (TOML).
        file: Option<PathBuf>,
    },
    /// The power-file format's full reference (docs/power-files.md).
    Reference,
}

#[derive(Subcommand, Debug)]
enum RumbleCommand {
    /// Play one battle from a scenario file (default: the rules' worked sample, round 1).
    #[command(alias = "battle")]
    Play(rumble::BattleArgs),
    /// Check any Auto Rumble input file (a power file or a scenario) and print it back.
    ///
    /// A power file is printed power by power in words: when each clause fires, its conditions,
    /// cost, targets and effects, and what each quantity it reads counts. Every trigger, target,
    /// effect, quantity and limit of the format: `skirmish rumble reference` (docs/power-files.md).
    Check {
        /// A power file (`[[power]]` tables) or a scenario (`[battle]`, `[[hero]]`).
        file: PathBuf,
    },
    /// One line per power of a power file (default: the built-in six sample powers).
    Powers {
        /// The power file (TOML).
        file: Option<PathBuf>,
    },
    /// The power-file format's full reference: every trigger, target, effect and quantity with
    /// exactly what it counts and when it is read, and every limit (docs/power-files.md).
    Reference,
}

#[derive(Subcommand, Debug)]
enum TagCommand {
    /// Play one game (default: the built-in experiments/tag/small.toml).
    Play(tag::PlayArgs),
    /// Check a game file and print its teams, players and policies.
    Check {
        /// The game file (TOML), e.g. experiments/tag/small.toml.
        file: PathBuf,
    },
}

#[derive(Subcommand, Debug)]
enum ClanMeleeCommand {
    /// Play one melee (default: the nine classic clans at 1,000 hit points).
    Play(clan_melee::PlayFlags),
    /// Check a clan file and print what it fields at a range of budgets.
    Check {
        /// The clan file (TOML), e.g. experiments/clan-melee/3-salt-coward.toml.
        file: PathBuf,
    },
}

/// Runs the command line; returns the process exit code.
pub fn main() -> ExitCode {
    let argv: Vec<String> = std::env::args().collect();
    // `--versus-rules` of this command, not of one it carries after `--` (`reproduce --record`).
    let own = argv.iter().take_while(|a| *a != "--");
    let result = if own
        .clone()
        .any(|a| a == VERSUS || a.starts_with("--versus-rules="))
        && argv.get(1).is_none_or(|c| c != "reproduce" && c != "run")
    {
        crate::questions::what_if::what_if::<Grammar>(Context::of_process(), argv)
            .map(|text| (text, Status::Done))
    } else {
        match Cli::parse().command {
            // A balance's verdict is its exit code (issue 80): 0 PASS, 1 FAIL, 3 INCONCLUSIVE.
            Command::Balance(flags) => {
                balance::balance(&flags).map(|(text, o)| (shown(text), o.status()))
            }
            // A recorded answer that moved is a finding (exit 1), told like the others.
            Command::Reproduce(flags) => reproduce::reproduce(&flags),
            command => dispatch(&Context::of_process(), command).map(|text| (text, Status::Done)),
        }
    };
    match result {
        Ok((text, status)) => {
            let mut out = std::io::stdout().lock();
            match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
                Ok(()) => ExitCode::from(status.exit_code()),
                // A closed pipe (`| head`) is not an error worth a message.
                Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
                // A full disk or a failing device is: the output is incomplete.
                Err(e) => {
                    eprintln!("error: writing the output to stdout failed ({e}); it is incomplete");
                    ExitCode::from(1)
                }
            }
        }
        Err(error) => {
            // A host's name in a message (a key, a label, a file) shows its controls as
            // `\u{..}`: an error cannot repaint the terminal either.
            let message = error.to_string();
            eprintln!("error: {}", crate::platform::escape::plain_lines(&message));
            // 2 for the host's input, 1 for the machine (`crate::error`).
            ExitCode::from(error.exit_code())
        }
    }
}

use crate::questions::what_if::VERSUS;

/// An analysis's findings as a value (issue 78): its answer and replicates, with `ctx` in
/// memory ([`crate::platform::context::Context::in_memory`]) no folder claimed, read or
/// written. What a question asks at each point of an analysis.
fn analysis_findings(
    ctx: &crate::platform::context::Context,
    command: Command,
) -> Result<crate::platform::command::Findings, Error> {
    use crate::platform::command::{Analysis, Studied};
    fn whole<A: Analysis>(
        ctx: &crate::platform::context::Context,
        a: &A,
    ) -> Result<crate::platform::command::Findings, Error> {
        match a.study(ctx, encoder()?)? {
            Studied::Whole(f) => Ok(*f),
            Studied::Said(said) => Err(Error::Input(format!(
                "{}: gave no answer ({})",
                A::NAME,
                said.trim()
            ))),
        }
    }
    match command {
        Command::Analyze { game } => match game {
            AnalyzeCommand::Rumble {
                question: RumbleQuestion::Powers(flags),
            }
            | AnalyzeCommand::Powers(flags) => whole(ctx, &flags),
            AnalyzeCommand::Rumble {
                question: RumbleQuestion::Metagame(flags),
            } => whole(ctx, &flags),
            AnalyzeCommand::ClanMelee {
                question: Some(ClanMeleeQuestion::Challengers(flags)),
                ..
            }
            | AnalyzeCommand::ClanMelee {
                question: None,
                flags,
            } => whole(ctx, &flags),
            AnalyzeCommand::Tag {
                question: TagQuestion::Duel(flags),
            } => whole(ctx, &flags),
            AnalyzeCommand::Loot {
                question: LootQuestion::Items(flags),
            }
            | AnalyzeCommand::Items(flags) => whole(ctx, &flags),
            AnalyzeCommand::Minions(flags) => whole(ctx, &flags),
        },
        _ => Err("not an analysis: ask `analyze GAME QUESTION`".into()),
    }
}

/// What a command that reads a host's file tells, for a terminal: names and paths with controls
/// in them shown escaped, never acted on (issue 79: `check` printed ESC and BEL from names raw,
/// `balance` its `tuned:` line).
fn shown(text: String) -> String {
    crate::platform::escape::plain_lines(&text).into_owned()
}

fn dispatch(ctx: &Context, command: Command) -> Result<String, Error> {
    match command {
        Command::Games => Ok(games()),
        Command::Rumble { command } => match command {
            RumbleCommand::Play(args) => rumble::battle(args),
            RumbleCommand::Check { file } => rumble::check(&file).map(shown),
            RumbleCommand::Powers { file } => powers::list(file.as_deref()),
            RumbleCommand::Reference => Ok(crate::games::auto_rumble::powers::reference::text()),
        },
        Command::ClanMelee { command } => match command {
            ClanMeleeCommand::Play(flags) => clan_melee::play(&flags),
            ClanMeleeCommand::Check { file } => clan_melee::check(&file).map(shown),
        },
        Command::Tag { command } => match command {
            TagCommand::Play(args) => tag::play(&args),
            TagCommand::Check { file } => tag::check(&file).map(shown),
        },
        Command::Minions { command } => match command {
            MinionsCommand::Combat(args) => minions::combat_cmd(&args),
            MinionsCommand::Check { file, data } => minions::check(&file, &data).map(shown),
        },
        Command::Loot { command } => match command {
            LootCommand::Play(args) => loot::play(&args),
            LootCommand::Check { file, data } => loot::check(&file, &data).map(shown),
            LootCommand::Odds(args) => loot::odds(&args),
        },
        Command::Powers { command } => match command {
            PowersCommand::Check { file } => powers::check(&file).map(shown),
            PowersCommand::List { file } => powers::list(file.as_deref()),
            PowersCommand::Reference => Ok(crate::games::auto_rumble::powers::reference::text()),
        },
        Command::Simulate { game } => match game {
            SimulateCommand::Rumble { flags, ffa } => {
                serve(ctx, &simulate::simulate_rumble(&flags, &ffa)?, encoder()?)
            }
            SimulateCommand::Loot { flags, field } => serve(
                ctx,
                &Simulate {
                    run: flags,
                    game: field,
                },
                encoder()?,
            ),
            SimulateCommand::Minions { flags, field } => serve(
                ctx,
                &Simulate {
                    run: flags,
                    game: field,
                },
                encoder()?,
            ),
        },
        Command::Analyze { game } => match game {
            AnalyzeCommand::Rumble {
                question: RumbleQuestion::Powers(flags),
            }
            | AnalyzeCommand::Powers(flags) => serve_analysis(ctx, &flags, encoder()?),
            AnalyzeCommand::Rumble {
                question: RumbleQuestion::Metagame(flags),
            } => serve_analysis(ctx, &flags, encoder()?),
            AnalyzeCommand::ClanMelee {
                question: Some(ClanMeleeQuestion::Challengers(flags)),
                ..
            }
            | AnalyzeCommand::ClanMelee {
                question: None,
                flags,
            } => serve_analysis(ctx, &flags, encoder()?),
            AnalyzeCommand::Tag {
                question: TagQuestion::Duel(flags),
            } => serve_analysis(ctx, &flags, encoder()?),
            AnalyzeCommand::Loot {
                question: LootQuestion::Items(flags),
            }
            | AnalyzeCommand::Items(flags) => serve_analysis(ctx, &flags, encoder()?),
            AnalyzeCommand::Minions(flags) => serve_analysis(ctx, &flags, encoder()?),
        },
        Command::Tournament { game } => match game {
            TournamentCommand::Rumble(flags) => serve(ctx, &flags, encoder()?),
            TournamentCommand::ClanMelee(flags) => serve(ctx, &flags, encoder()?),
            TournamentCommand::Tag(flags) => serve(ctx, &flags, encoder()?),
            TournamentCommand::Loot(flags) => serve(ctx, &flags, encoder()?),
        },
        Command::Run { file, flags } => match run::experiment(ctx, &file, &flags)? {
            run::Experiment::Done(text) => Ok(text),
            run::Experiment::Argv(argv, text) => {
                let cli = Cli::try_parse_from(std::iter::once("skirmish".to_string()).chain(argv))
                    .map_err(|e| experiment_error(&file, &text, &e))?;
                if !writes_datasets(&cli.command) {
                    return Err(Error::Input(format!(
                        "{}: `command`: an experiment file names simulate, tournament or analyze (one that writes a dataset), never another command",
                        file.display()
                    )));
                }
                // A setting refused while the command runs is placed on the file's line too.
                dispatch(ctx, cli.command)
                    .map_err(|e| e.map_message(|m| run::locate(&file, &text, &m)))
            }
        },
        Command::Verify {
            dir,
            replay_for,
            replay_all,
        } => crate::questions::verify::verify::<Grammar>(&dir, replay_for, replay_all),
        Command::Report { dir, to } => report(&dir, &to),
        Command::Reproduce(flags) => reproduce::reproduce(&flags).map(|(text, _)| text),
        Command::Diff { a, b, to } => {
            use crate::platform::render::Format;
            let f = Format::parse(&to.format)?;
            let (ea, eb) = (
                crate::platform::dataset::answer_of(&a)?,
                crate::platform::dataset::answer_of(&b)?,
            );
            let pairing = crate::platform::dataset::pairing(&a, &b);
            // Issue 64: a diff to post takes the formats a report does (the what-if's model).
            let text = match f {
                Format::Text => crate::platform::pairing::diff(&ea, &eb, pairing.as_ref())?,
                _ => rendered(
                    &crate::platform::pairing::difference(&ea, &eb, pairing.as_ref())?,
                    f,
                    to.full,
                    &format!(
                        "skirmish diff {} {} --format bbcode --full",
                        flags::shell_quote(&a.display().to_string()),
                        flags::shell_quote(&b.display().to_string())
                    ),
                ),
            };
            // A dataset not yet finished is compared on fewer matches than it asks for: said
            // first (issue 62: no word at all).
            let mut warn = String::new();
            for (side, dir, x) in [("A", &a, &ea), ("B", &b, &eb)] {
                let p = &x.provenance;
                if crate::platform::dataset::recorded_command(dir).is_ok() && p.played < p.matches {
                    warn.push_str(&format!(
                        "warning: {side} ({}) is unfinished: {} of its {} matches played; run its command again to finish it\n",
                        crate::platform::escape::plain(&dir.display().to_string()),
                        crate::platform::tally::thousands(p.played),
                        crate::platform::tally::thousands(p.matches)
                    ));
                }
            }
            to.deliver(&warn, text)
        }
        Command::Bench(flags) => bench::bench(&flags),
        Command::Calibrate(flags) => calibrate::calibrate(&flags),
        Command::Balance(flags) => balance::balance(&flags).map(|(text, _)| shown(text)),
        Command::Sensitivity(flags) => sensitivity::sensitivity(&flags).map(shown),
    }
}

/// `skirmish games`: every game, the commands that play it and the files a host writes for it.
fn games() -> String {
    let mut out = String::new();
    for g in crate::games::GAMES {
        let _ = writeln!(out, "{} ({}): {}", g.title, g.command, g.summary);
        let _ = writeln!(
            out,
            "  rules: {}; readings: {}; guide: {}",
            g.seed, g.rules, g.guide
        );
        for c in g.commands {
            let _ = writeln!(out, "  skirmish {c}");
        }
        for (what, example) in g.inputs {
            let _ = writeln!(out, "  input: {what}, e.g. {example}");
        }
        out.push('\n');
    }
    out.push_str("Every dataset command takes --seed, --out, --threads, --chunk-size, --shard and --quiet;\n`skirmish run FILE.toml` runs an experiment file of any of them.\n");
    out.push_str("--candidate: your own power, clan, policy, item or minion against the field, ranked with its 95% interval.\n--versus-rules FILE: any command that takes --rules, under its rules and under FILE on the same seeds, every difference with its interval.\nFor every game: skirmish report DIR, diff A B, verify DIR, reproduce, calibrate, bench.\nMaking it fair: skirmish balance FILE.toml (tune rules keys or {{placeholders}} to targets, proved on fresh seeds; docs/balance.md), skirmish sensitivity COMMAND... (which rules numbers move balance most).\n");
    out
}

/// A clap error about an experiment file's keys, in one line naming the file, and the key's
/// line when the error is about one key.
fn experiment_error(file: &std::path::Path, text: &str, e: &clap::Error) -> String {
    let rendered = e.render().to_string();
    let parts: Vec<&str> = rendered
        .lines()
        .map(|l| {
            l.trim()
                .trim_start_matches("error: ")
                .trim_start_matches("tip: ")
        })
        .filter(|l| !l.is_empty() && !l.starts_with("Usage:") && !l.starts_with("For more"))
        .collect();
    let message = format!(
        "{}; the file's keys are the command's flags (`--help` lists them)",
        parts.join("; ")
    );
    run::locate(file, text, &message)
}

/// `skirmish report DIR`: the folder's answer (rebuilt from its manifest, so folders written
/// before answers were stored render too) in the format asked.
/// An answer in format `f`; a forum post whole with `full`, else within its length, naming
/// `again` (the command with `--full`) for the rest.
fn rendered(
    a: &crate::platform::answer::Answer,
    f: crate::platform::render::Format,
    full: bool,
    again: &str,
) -> String {
    use crate::platform::render::{Format, POST_LIMIT, bbcode_post, render};
    match f {
        Format::BBCode => bbcode_post(a, (!full).then_some(POST_LIMIT), again),
        _ => render(a, f),
    }
}

fn report(dir: &std::path::Path, to: &Rendering) -> Result<String, Error> {
    let f = crate::platform::render::Format::parse(&to.format)?;
    let again = format!(
        "skirmish report {} --format bbcode --full, or its report.html",
        flags::shell_quote(&dir.display().to_string())
    );
    let text = rendered(
        &crate::platform::dataset::answer_of(dir)?,
        f,
        to.full,
        &again,
    );
    to.deliver("", text)
}

/// Whether a parsed command is one that writes a dataset or analysis folder: what a manifest,
/// an experiment file or a recorded answer may name. Everything else (`reproduce`, `run`, `bench`,
/// `verify`, `report`) is refused when it comes from a file (issue 62).
fn writes_datasets(c: &Command) -> bool {
    matches!(
        c,
        Command::Simulate { .. } | Command::Tournament { .. } | Command::Analyze { .. }
    )
}

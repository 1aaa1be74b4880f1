//! The `skirmish` command line. Each subcommand parses its flags, calls library code, and turns
//! errors into one message on stderr with exit code 2.

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
    fn deliver(&self, before: &str, text: String) -> Result<String, String> {
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
        versus(argv).map(|text| (text, 0))
    } else {
        match Cli::parse().command {
            // A balance's verdict is its exit code (issue 80): 0 PASS, 1 FAIL, 3 INCONCLUSIVE.
            Command::Balance(flags) => {
                balance::balance(&flags).map(|(text, o)| (shown(text), o.exit_code()))
            }
            command => dispatch(&Context::of_process(), command).map(|text| (text, 0)),
        }
    };
    match result {
        Ok((text, code)) => {
            let mut out = std::io::stdout().lock();
            match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
                Ok(()) => ExitCode::from(code),
                // A closed pipe (`| head`) is not an error worth a message.
                Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
                // A full disk or a failing device is: the output is incomplete.
                Err(e) => {
                    eprintln!("error: writing the output to stdout failed ({e}); it is incomplete");
                    ExitCode::from(1)
                }
            }
        }
        Err(message) => {
            // A host's name in a message (a key, a label, a file) shows its controls as
            // `\u{..}`: an error cannot repaint the terminal either.
            eprintln!("error: {}", crate::platform::escape::plain_lines(&message));
            ExitCode::from(2)
        }
    }
}

const VERSUS: &str = "--versus-rules";
/// The mark of a what-if's folder (`OUT/base`, `OUT/versus` and the difference's answer).
const WHAT_IF: &str = "what-if";

/// `--versus-rules FILE` on any command that takes `--rules` (issue 51): the same command under
/// its rules (A, `OUT/base`) and under FILE (B, `OUT/versus`), on the same match seeds, and every
/// estimate's difference B - A with its 95% interval as the answer in OUT.
fn versus(argv: Vec<String>) -> Result<String, String> {
    let mut rest = Vec::new();
    let (mut file, mut out) = (None, None);
    let mut words = argv.into_iter();
    while let Some(w) = words.next() {
        if w == VERSUS {
            file = Some(
                words
                    .next()
                    .ok_or("--versus-rules FILE: name the rules file")?,
            );
        } else if let Some(v) = w.strip_prefix("--versus-rules=") {
            file = Some(v.to_string());
        } else if w == "--out" {
            out = Some(words.next().ok_or("--out DIR: name the folder")?);
        } else if let Some(v) = w.strip_prefix("--out=") {
            out = Some(v.to_string());
        } else {
            rest.push(w);
        }
    }
    let file = file.expect("called with --versus-rules");
    // Both runs in at least 20 parts unless the host chose the part size (issue 63).
    let mut ctx = Context::of_process();
    if !rest
        .iter()
        .any(|w| w == "--chunk-size" || w.starts_with("--chunk-size="))
    {
        ctx = ctx.in_parts(2 * crate::platform::pairing::MIN_PAIRED_PARTS as u64);
    }
    let out = PathBuf::from(out.unwrap_or_else(|| "runs/what-if".into()));
    // B: the rules file replaces the command's own, or joins it.
    let mut b = rest.clone();
    match b.iter().position(|w| w == "--rules") {
        Some(i) if i + 1 < b.len() => b[i + 1] = file.clone(),
        _ => {
            b.retain(|w| !w.starts_with("--rules="));
            b.extend(["--rules".to_string(), file.clone()]);
        }
    }
    // Both parsed before either plays; B (the new file) plays first, so a bad FILE is refused
    // before anything of A is written, and an arm that fails leaves no folder it began.
    let mut arms = Vec::new();
    for (mut argv, arm) in [(b, "versus"), (rest, "base")] {
        let dir = out.join(arm);
        argv.extend(["--out".to_string(), dir.display().to_string()]);
        let cli = Cli::try_parse_from(&argv).map_err(|e| {
            let said = e.to_string();
            let first = said.lines().next().unwrap_or("").trim_start_matches("error: ");
            match e.kind() {
                clap::error::ErrorKind::UnknownArgument if first.contains("'--out'") => format!(
                    "--versus-rules: this command writes no answer folder (no --out), so it has no what-if ({first})"
                ),
                clap::error::ErrorKind::UnknownArgument if first.contains("'--rules'") => format!(
                    "--versus-rules: this command takes no --rules, so it has no what-if ({first})"
                ),
                _ => said.trim_end().to_string(),
            }
        })?;
        arms.push((cli.command, dir, argv));
    }
    // A what-if's folder is its own kind of output (issue 62: one written into a finished plain
    // run replaced that run's answer): new, empty, or an earlier what-if's.
    crate::platform::dataset::check_output_folder(&out, WHAT_IF)?;
    let out_is_new = crate::platform::dataset::absent_or_empty(&out);
    crate::platform::dataset::mark_output_folder(&out, WHAT_IF)?;
    let mut answers = Vec::new();
    for (command, dir, argv) in arms {
        let new = !dir.exists();
        // Each arm's answer records its own command line, not the what-if's.
        let played = dispatch(&ctx.arm(argv), command);
        match played.and_then(|_| crate::platform::dataset::answer_of(&dir)) {
            Ok(a) => answers.push(a),
            Err(e) => {
                if new {
                    crate::platform::dataset::discard(&dir);
                }
                if out_is_new {
                    crate::platform::dataset::unmark_if_empty(&out);
                }
                return Err(e);
            }
        }
    }
    let pairing = crate::platform::dataset::pairing(&out.join("base"), &out.join("versus"));
    let d = crate::platform::pairing::difference(&answers[1], &answers[0], pairing.as_ref())?;
    for (name, bytes) in crate::platform::render::files(&d) {
        crate::platform::dataset::atomic_write(&out, &name, &bytes)?;
    }
    Ok(
        crate::platform::render::render(&d, crate::platform::render::Format::Text)
            + &crate::platform::render::report_line(&out),
    )
}

/// An analysis's findings as a value (issue 78): its answer and replicates, with `ctx` in
/// memory ([`crate::platform::context::Context::in_memory`]) no folder claimed, read or
/// written. What a question asks at each point of an analysis.
fn analysis_findings(
    ctx: &crate::platform::context::Context,
    command: Command,
) -> Result<crate::platform::command::Findings, String> {
    use crate::platform::command::{Analysis, Studied};
    fn whole<A: Analysis>(
        ctx: &crate::platform::context::Context,
        a: &A,
    ) -> Result<crate::platform::command::Findings, String> {
        match a.study(ctx, encoder()?)? {
            Studied::Whole(f) => Ok(*f),
            Studied::Said(said) => Err(format!("{}: gave no answer ({})", A::NAME, said.trim())),
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

fn dispatch(ctx: &Context, command: Command) -> Result<String, String> {
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
                    return Err(format!(
                        "{}: `command`: an experiment file names simulate, tournament or analyze (one that writes a dataset), never another command",
                        file.display()
                    ));
                }
                // A setting refused while the command runs is placed on the file's line too.
                dispatch(ctx, cli.command).map_err(|e| run::locate(&file, &text, &e))
            }
        },
        Command::Verify {
            dir,
            replay_for,
            replay_all,
        } => verify(&dir, replay_for, replay_all),
        Command::Report { dir, to } => report(&dir, &to),
        Command::Reproduce(flags) => reproduce::reproduce(&flags),
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

fn report(dir: &std::path::Path, to: &Rendering) -> Result<String, String> {
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

/// `skirmish verify DIR`.
/// `skirmish verify DIR` (issue 79): the question the folder proves first (its command, seed and
/// inputs by digest), then what was checked, then what the default checks and what only
/// `--replay-all` adds. An input the folder's question reads that this machine lacks, or holds
/// changed, is named and the folder refused before anything is played again.
fn verify(dir: &std::path::Path, replay_for: u64, all: bool) -> Result<String, String> {
    // A balance folder keeps its asks (issue 79: verify refused every one, naming a manifest).
    if crate::questions::balance::keeps_asks(dir) {
        return crate::questions::balance::verify::<Grammar>(dir, replay_for, all);
    }
    // A what-if and a sensitivity are folders of their own kind, each asked again whole.
    let mark = crate::platform::digest::read_kept(&dir.join(crate::platform::dataset::OUTPUT_MARK))
        .unwrap_or_default();
    match mark.trim() {
        WHAT_IF => return verify_what_if(dir, replay_for, all),
        crate::questions::sensitivity::COMMAND => {
            return crate::questions::sensitivity::verify::<Grammar>(dir);
        }
        _ => {}
    }
    let question = crate::platform::dataset::answer_of(dir)
        .map(|a| a.provenance)
        .ok();
    let replaying = all || replay_for > 0;
    if let (Some(p), true) = (&question, replaying) {
        for (path, digest) in &p.inputs {
            match crate::platform::digest::sha256_file(std::path::Path::new(path)) {
                Ok(d) if d == *digest => {}
                Ok(_) => {
                    return Err(format!(
                        "{}: the folder's question read {path} with another content (digest {digest}); verify where its inputs are as they were, or with --replay-for 0 (its files only)",
                        dir.display()
                    ));
                }
                Err(e) => {
                    return Err(format!(
                        "{}: the folder's question reads {path}, and this machine lacks it ({e}); verify where its inputs are, or with --replay-for 0 (its files only)",
                        dir.display()
                    ));
                }
            }
        }
    }
    let said = verify_folder(dir, replay_for, all)?;
    let head = match &question {
        Some(p) => format!(
            "{}: the question: `{}` (seed {}; inputs: {})\n",
            dir.display(),
            crate::platform::escape::plain(&p.command),
            p.seed,
            if p.inputs.is_empty() {
                "none".to_string()
            } else {
                p.inputs
                    .iter()
                    .map(|(f, d)| {
                        format!(
                            "{} {}",
                            crate::platform::escape::plain(f),
                            &d[..d.len().min(12)]
                        )
                    })
                    .collect::<Vec<_>>()
                    .join(", ")
            }
        ),
        None => String::new(),
    };
    let tail = if all {
        "checked: every file, and every part or kept sum played again from its seeds"
    } else if replaying {
        "checked: every file, and the parts or kept sums the time allowed played again; --replay-all plays every one"
    } else {
        "checked: every file against its digest and record, and the answer against them; nothing was played again (--replay-for SECONDS or --replay-all play parts or kept sums again)"
    };
    Ok(format!("{head}{said}{tail}\n"))
}

/// `skirmish verify DIR` of a what-if (issue 79): each arm (`base`, `versus`) verified as the
/// folder it is, on its own recorded question, then the difference recomputed from the two and
/// compared with the folder's answer byte for byte.
fn verify_what_if(dir: &std::path::Path, replay_for: u64, all: bool) -> Result<String, String> {
    let (base, versus) = (dir.join("base"), dir.join("versus"));
    let mut said = format!(
        "{}: a what-if: its two arms, then their difference\n",
        dir.display()
    );
    for arm in [&base, &versus] {
        said.push_str(&verify(arm, replay_for, all)?);
    }
    let a = crate::platform::dataset::answer_of(&base)?;
    let b = crate::platform::dataset::answer_of(&versus)?;
    let pairing = crate::platform::dataset::pairing(&base, &versus);
    // As `versus` wrote it: the base's answer first.
    let d = crate::platform::pairing::difference(&a, &b, pairing.as_ref())?;
    let same = crate::platform::dataset::compare_folder(dir, &crate::platform::render::files(&d))
        .map_err(|e| format!("{}: {e}", dir.display()))?;
    said.push_str(&format!("{}: the difference: {same}\n", dir.display()));
    Ok(said)
}

/// [`verify`] of a dataset or analysis folder: its files, then its parts or kept sums replayed.
fn verify_folder(dir: &std::path::Path, replay_for: u64, all: bool) -> Result<String, String> {
    #[cfg(feature = "parquet")]
    let rows = |p: &std::path::Path| -> Result<u64, String> {
        crate::platform::parquet::read(p).map(|df| df.height() as u64)
    };
    #[cfg(feature = "parquet")]
    let rows: Option<&crate::platform::dataset::RowCount> = Some(&rows);
    #[cfg(not(feature = "parquet"))]
    let rows: Option<&crate::platform::dataset::RowCount> = None;
    // An analysis folder (no manifest): its sealed files, then its recorded command replays the
    // kept sums and compares every file it would write (issue 62).
    let analysis = crate::platform::dataset::verify_analysis(dir)?;
    let is_analysis = analysis.is_some();
    let (files, command) = match analysis {
        Some(found) => found,
        None => (
            crate::platform::dataset::verify(dir, rows)?,
            crate::platform::dataset::recorded_command(dir)?,
        ),
    };
    if replay_for == 0 && !all {
        return Ok(files);
    }
    // The tallies are checked by playing parts again: the recorded command, run with the
    // platform's replay request, plays the chosen parts and compares them (it writes nothing).
    use crate::platform::context::Replay;
    let words = shlex::split(&command).ok_or_else(|| {
        format!(
            "{}: the recorded command is not a command line: {command}",
            dir.display()
        )
    })?;
    let mut argv: Vec<String> = words.into_iter().collect();
    argv.extend(["--out".into(), dir.display().to_string(), "--quiet".into()]);
    let cli = Cli::try_parse_from(&argv).map_err(|e| {
        format!(
            "{}: the recorded command does not parse now ({}); its parts cannot be replayed",
            dir.display(),
            e.kind()
        )
    })?;
    // The manifest is data from whoever made the folder: only a command that writes datasets may
    // be replayed from it, never one that runs other programs (issue 62: `reproduce ... -- bash`).
    if !writes_datasets(&cli.command) {
        return Err(format!(
            "{}: manifest.json: `command`: `{}` is not a command that writes a dataset (simulate, tournament or analyze); nothing was run. Re-run the command that made the folder, or verify the files only with --replay-for 0",
            dir.display(),
            crate::platform::escape::plain(&command)
        ));
    }
    // An analysis's answer is written by its run without --shard; a shard's command would
    // write its slice into the folder being checked (issue 79: verify never writes).
    if is_analysis
        && argv
            .iter()
            .any(|w| w == "--shard" || w.starts_with("--shard=") || w.starts_with("--shard-count"))
    {
        return Err(format!(
            "{}: result.json: `provenance.command`: `{}` names a shard, and an analysis folder's answer is written by the run without --shard; the folder is refused and nothing was run",
            dir.display(),
            crate::platform::escape::plain(&command)
        ));
    }
    let ctx = Context::replaying(
        argv,
        Replay {
            budget: (!all).then(|| std::time::Duration::from_secs(replay_for)),
        },
    );
    let ran = dispatch(&ctx, cli.command);
    match (ran, ctx.replay_outcome()) {
        (_, Some(Ok(r))) => Ok(format!("{}{}: {r}\n", files, dir.display())),
        (_, Some(Err(e))) => Err(format!("{}: {e}", dir.display())),
        (Err(e), None) => Err(format!(
            "{}: files verified, but the recorded command cannot replay its parts: {e}",
            dir.display()
        )),
        _ => Err(format!(
            "{}: files verified, but the recorded command played no dataset to replay",
            dir.display()
        )),
    }
}

//! `skirmish tag play|check` and `skirmish tournament tag` (Elemental Tag).

use crate::error::Error;
use std::path::{Path, PathBuf};

use clap::Args;

use super::flags::{Record, Size, parse_range, refuse_repeats, split_specs};
use crate::games::elemental_tag::input::{self, GameFile};
use crate::games::elemental_tag::policy::Policy;
use crate::games::elemental_tag::rules::Settings;
use crate::games::elemental_tag::simulation::tournament::TagTournament;
use crate::platform::command::{Analysis, DatasetCommand, Findings, Studied};
use crate::platform::job::Job;
use crate::platform::runner::Encoder;

/// The shipped example, built in so `skirmish tag play` needs no file.
pub const SMALL: &str = include_str!("../../experiments/tag/small.toml");

#[derive(Args, Debug)]
pub struct PlayArgs {
    /// Game file (TOML) [default: the built-in experiments/tag/small.toml].
    pub file: Option<PathBuf>,
    /// Rules file: every number and reading (TG-n), in place of the game file's `[settings]`
    /// [default: the game file's, else the seed's].
    #[arg(long)]
    pub rules: Option<PathBuf>,
    #[command(flatten)]
    pub tell: super::flags::Telling,
}

fn load(file: Option<&Path>) -> Result<GameFile, Error> {
    match file {
        Some(p) => input::load(&crate::platform::sources::Sources::disk(), p).map_err(Error::from),
        None => input::parse("experiments/tag/small.toml (built in)", SMALL).map_err(Error::from),
    }
}

/// `skirmish tag play`.
pub fn play(a: &PlayArgs) -> Result<String, Error> {
    let told = a.tell.told()?;
    let mut g = load(a.file.as_deref())?;
    if let Some(p) = &a.rules {
        g = g.with_rules(&crate::platform::sources::Sources::disk(), p)?;
    }
    let seed = a.tell.seed.unwrap_or(g.seed);
    Ok(crate::games::elemental_tag::trace::tell(&g, seed, told))
}

/// `skirmish tag check FILE`.
pub fn check(path: &Path) -> Result<String, Error> {
    input::check(&crate::platform::sources::Sources::disk(), path)
}

#[derive(Args, Debug, Clone)]
pub struct TournamentFlags {
    /// Policies, comma-separated (`flee(margin=2)`; a comma inside parentheses is kept).
    #[arg(long, default_value = "stay,random,flee,spread,smart")]
    pub policies: String,
    /// Your own policy (any policy with parameters, e.g. `smart(list=2)`) seated with the
    /// policies as the field; its win share and score with intervals and its rank.
    #[arg(long, value_name = "POLICY")]
    pub candidate: Option<String>,
    /// Games to play.
    #[arg(long, default_value_t = 10_000)]
    pub games: u64,
    /// Teams per game, MIN..MAX (at least 3).
    #[arg(long, default_value = "3..6")]
    pub teams: String,
    /// Players per element, MIN..MAX (at least 2).
    #[arg(long, default_value = "2..4")]
    pub team_size: String,
    /// Chance a drawn team is an underworld player, percent.
    #[arg(long, default_value_t = 30)]
    pub underworld: u32,
    /// Turns after which a game stops, reported as a turn cap (TG-31) [default: the rules',
    /// 200].
    #[arg(long)]
    pub max_turns: Option<u32>,
    /// Rules file (TOML): any number or reading of the game at the top level, e.g. `it_cost = 3`
    /// [default: the seed's]. `tag check FILE` reads it back as changes.
    #[arg(long, value_name = "FILE")]
    pub rules: Option<PathBuf>,
    /// Dataset folder (created; an earlier run of the same command there is resumed).
    #[arg(long, default_value = "runs/tag")]
    pub out: PathBuf,
    /// Games per chunk.
    #[arg(long, default_value_t = 1_000)]
    pub chunk_size: u64,
    #[command(flatten)]
    pub run: super::flags::Running,
}

/// `skirmish tournament tag`.
impl DatasetCommand for TournamentFlags {
    type Sim = TagTournament;
    const UNIT: &'static str = "games";
    fn build(&self, src: &crate::platform::sources::Sources) -> Result<TagTournament, Error> {
        let f = self;
        let mut policies = split_specs(&f.policies)
            .iter()
            .map(|s| Policy::parse(s).map_err(|e| format!("--policies: {e}")))
            .collect::<Result<Vec<_>, _>>()?;
        if let Some(c) = &f.candidate {
            // The host's policy joins the field, seated last.
            let p = Policy::parse(c).map_err(|e| format!("--candidate: {e}"))?;
            if policies.iter().any(|q| q.spec() == p.spec()) {
                return Err(Error::Input(format!(
                    "--candidate: `{}` is one of --policies already; give a policy the field does not hold",
                    p.spec()
                )));
            }
            policies.push(p);
        }
        refuse_repeats(
            "--policies",
            &policies.iter().map(|p| p.spec()).collect::<Vec<_>>(),
        )?;
        let mut settings = match &f.rules {
            None => Settings::default(),
            Some(p) => input::load_rules(src, p)?,
        };
        if let Some(t) = f.max_turns {
            settings.max_turns = t;
            input::check_settings(&settings).map_err(|(_, m)| format!("--max-turns: {m}"))?;
        }
        let t = TagTournament {
            policies,
            teams: parse_range("teams", &f.teams)?,
            team_size: parse_range("team-size", &f.team_size)?,
            underworld: f.underworld,
            settings,
            shuffle_seats: f.candidate.is_some(),
        };
        t.check()?;
        Ok(t)
    }
    fn job<'a>(
        &self,
        ctx: &crate::platform::context::Context,
        t: &'a TagTournament,
    ) -> Result<Job<'a, TagTournament>, Error> {
        let f = self;
        // The field's policies: the candidate is named on its own flag (and seated last).
        let candidate = f
            .candidate
            .as_ref()
            .and(t.policies.last())
            .map(|p| p.spec());
        let n_field = t.policies.len() - candidate.is_some() as usize;
        let specs: Vec<String> = t.policies[..n_field].iter().map(|p| p.spec()).collect();
        let chunk_size = ctx.paired_chunk(f.chunk_size, f.games);
        let command = format!(
            "skirmish tournament tag --policies {}{} --games {} --teams {}..{} --team-size {}..{} --underworld {} --max-turns {} --seed {} --chunk-size {}{}",
            super::flags::shell_quote(&specs.join(",")),
            candidate.as_ref().map_or(String::new(), |c| format!(
                " --candidate {}",
                super::flags::shell_quote(c)
            )),
            f.games,
            t.teams[0],
            t.teams[1],
            t.team_size[0],
            t.team_size[1],
            t.underworld,
            t.settings.max_turns,
            f.run.seed,
            chunk_size,
            f.rules
                .as_ref()
                .map(|p| super::flags::shell_flag("--rules", p.display()))
                .unwrap_or_default()
        );
        let mut settings = serde_json::json!({
            "policies": t.policies.iter().map(|p| p.spec()).collect::<Vec<_>>(),
            "teams": t.teams,
            "team_size": t.team_size,
            "underworld_percent": t.underworld,
            "max_turns": t.settings.max_turns,
        });
        if let Some(c) = &candidate {
            settings["candidate"] = c.clone().into();
        }
        if f.rules.is_some() {
            // Issue 51: every reading the rules file changes, in plain words.
            settings["rules"] = t.settings.changes().into();
        }
        let size = Size::of("--games", f.games, chunk_size);
        let record = Record::new(command, settings, f.rules.iter().cloned().collect());
        f.run.job(t, size, f.out.clone(), record)
    }
}

#[derive(Args, Debug, Clone)]
pub struct DuelFlags {
    /// The grid's side.
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(2..=7))]
    pub side: u32,
    /// Longest horizon solved, in turns.
    #[arg(long, default_value_t = 40, value_parser = clap::value_parser!(u64).range(1..=400))]
    pub turns: u64,
    /// Duels played per measured pairing (policies against the exact strategies).
    #[arg(long, default_value_t = 20_000, value_parser = clap::value_parser!(u32).range(1..))]
    pub games: u32,
    /// Policies measured against the exact strategies, comma-separated.
    #[arg(long, default_value = "stay,random,flee,spread,smart,exact")]
    pub policies: String,
    /// Seed of the measured duels.
    #[arg(long, default_value_t = 42)]
    pub seed: u64,
    /// A folder for the answer (`result.json`, `report.html`, `summary.txt`).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Rules file: the game's readings (TG-n; the duel uses the movement readings, `follow` and
    /// `cycles`) [default: the seed's].
    #[arg(long)]
    pub rules: Option<PathBuf>,
    /// Accepted for the grammar's sake: the duel draws no progress bar.
    #[arg(long)]
    pub quiet: bool,
}

/// `skirmish analyze tag duel` (TG-52): the flags as the game's question, its folder claimed.
fn duel(src: &crate::platform::sources::Sources, f: &DuelFlags) -> Result<Studied, Error> {
    use crate::games::elemental_tag::analysis::duel_study::{Asked, study};
    let given = split_specs(&f.policies);
    let policies = given
        .iter()
        .map(|s| Policy::parse(s).map_err(|e| format!("--policies: {e}")))
        .collect::<Result<Vec<_>, _>>()?;
    refuse_repeats(
        "--policies",
        &policies.iter().map(|p| p.spec()).collect::<Vec<_>>(),
    )?;
    let settings = match &f.rules {
        None => Settings::default(),
        Some(p) => input::load_rules(src, p)?,
    };
    let claim = match &f.out {
        Some(o) => Some(crate::platform::dataset::claim_output_folder(o, DUEL)?),
        None => None,
    };
    let command = format!(
        "skirmish {DUEL} --side {} --turns {} --games {} --policies {} --seed {}{}",
        f.side,
        f.turns,
        f.games,
        super::flags::shell_quote(&f.policies),
        f.seed,
        f.rules
            .as_ref()
            .map(|p| super::flags::shell_flag("--rules", p.display()))
            .unwrap_or_default()
    );
    let mut asked_settings = serde_json::json!({
        "side": f.side, "turns": f.turns, "games": f.games, "policies": f.policies,
    });
    if f.rules.is_some() {
        asked_settings["rules"] = settings.changes().into();
    }
    let (answer, head) = study(&Asked {
        side: f.side,
        turns: f.turns as usize,
        games: f.games,
        policies: given.into_iter().zip(policies).collect(),
        seed: f.seed,
        rules: &settings,
        command,
        settings: asked_settings,
        inputs: super::flags::input_digests(src, &f.rules),
    });
    Ok(Studied::Whole(Box::new(Findings {
        answer,
        replicates: None,
        tables: Vec::new(),
        files: Vec::new(),
        summary: head.clone(),
        head,
        tail: String::new(),
        hold: claim.into_iter().map(|c| Box::new(c) as _).collect(),
    })))
}

impl Analysis for DuelFlags {
    const NAME: &'static str = DUEL;
    fn out(&self) -> Option<&Path> {
        self.out.as_deref()
    }
    fn study(&self, ctx: &crate::platform::context::Context, _: Encoder) -> Result<Studied, Error> {
        duel(ctx.sources(), self)
    }
}

const DUEL: &str = "analyze tag duel";

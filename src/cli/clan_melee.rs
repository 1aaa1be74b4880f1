//! `skirmish tournament clan-melee` (CM-30, CM-31).

use crate::error::Error;
use crate::platform::context::Done;
use std::path::PathBuf;

use clap::Args;

use crate::games::clan_melee::analysis::study::{Challengers, ClanStudy, Study};
use crate::games::clan_melee::input::{clans, rules};
use crate::games::clan_melee::rules::Mode;
use crate::games::clan_melee::simulation::tournament::{By, DEFAULT_MAX_TURNS, Settings};
use crate::games::clan_melee::simulation::tournament::{CLASSIC_BUDGETS, ClanTournament};
use crate::games::clan_melee::state::Field;
use crate::platform::command::{Analysis, DatasetCommand, Findings, Studied, serve};
use crate::platform::job::Job;
use crate::platform::plan::Plan;
use crate::platform::runner::Encoder;
use crate::platform::tally::{Tally, thousands};

use super::flags::{Record, Size};

#[derive(Args, Debug, Clone)]
pub struct ClanMeleeFlags {
    /// sane (the seed's rules, no zombies) or reference (the classic engine, quirks included).
    #[arg(long, default_value = "sane")]
    pub mode: String,
    /// Base budgets in hit points, comma-separated [default: the classic 100,1000,...,10000000].
    #[arg(long)]
    pub budgets: Option<String>,
    /// Melees per budget.
    #[arg(long, default_value_t = 5)]
    pub melees: u64,
    /// Clan files or folders (a folder's *.toml in name order), comma-separated; a clan's id is
    /// its position [default: the nine classic clans, experiments/clan-melee/].
    #[arg(long)]
    pub clans: Option<String>,
    /// Your own clan file, fielded with the clans (--clans, or the nine classic ones): its win
    /// share at each budget with intervals, and its rank.
    #[arg(long, value_name = "FILE")]
    pub candidate: Option<String>,
    #[command(flatten)]
    pub melee: MeleeFlags,
    /// Dataset folder (created; an earlier run of the same command there is resumed).
    #[arg(long, default_value = "runs/clan-melee")]
    pub out: PathBuf,
    /// Melees per chunk [default: a fifth of --melees, at least 1].
    #[arg(long)]
    pub chunk_size: Option<u64>,
    #[command(flatten)]
    pub run: super::flags::Running,
}

/// How every melee of a tournament or a study is played: its readings and engine.
#[derive(Args, Debug, Clone)]
pub struct MeleeFlags {
    /// Play each base budget exactly, without the classic 5% wiggle.
    #[arg(long)]
    pub no_wiggle: bool,
    /// Turns after which a melee stops, reported as a turn cap (CM-12).
    #[arg(long, default_value_t = DEFAULT_MAX_TURNS)]
    pub max_turns: u32,
    /// Rules file: the melee's numbers (experiments/clan-melee-rules/rules.toml lists them)
    /// [default: the seed's].
    #[arg(long, value_name = "FILE")]
    pub rules: Option<String>,
    /// classes (alike members played once, while that pays) or members (one by one: the
    /// reference engine). Same distribution of melees, different draws (CM-14).
    #[arg(long, default_value = "classes")]
    pub engine: String,
}

impl MeleeFlags {
    /// ` --rules FILE` as the canonical command writes it, when given.
    fn rules_flag(&self) -> String {
        self.rules
            .as_ref()
            .map(|r| super::flags::shell_flag("--rules", r))
            .unwrap_or_default()
    }
    /// The melees' settings in `mode`.
    fn settings(&self, mode: Mode) -> Result<Settings, Error> {
        if self.max_turns == 0 {
            return Err("--max-turns: allow at least 1 turn".into());
        }
        Ok(Settings {
            mode,
            max_turns: self.max_turns,
            engine: By::parse(&self.engine)?,
        })
    }
}

/// `--melees`: at least one per `per`, at most a run's matches.
fn melees(n: u64, per: &str) -> Result<(), Error> {
    if n == 0 {
        return Err(Error::Input(format!(
            "--melees: play at least 1 melee per {per}"
        )));
    }
    if n > crate::platform::job::MAX_MATCHES {
        return Err(Error::Input(format!(
            "--melees {n}: play at most {} melees per {per}",
            crate::platform::job::MAX_MATCHES
        )));
    }
    Ok(())
}

fn budgets(s: &str) -> Result<Vec<i64>, Error> {
    let v: Result<Vec<i64>, Error> = s
        .split(',')
        .map(|b| {
            let t: String = b.trim().chars().filter(|&c| c != '_').collect();
            t.parse::<i64>()
                .ok()
                .filter(|&n| (1..=100_000_000).contains(&n))
                .ok_or_else(|| {
                    Error::Input(format!("--budgets: `{}` is not a budget from 1 to 100000000; e.g. --budgets 100,1000,10000", b.trim()))
                })
        })
        .collect();
    let v = v?;
    if v.is_empty() {
        return Err("--budgets: give at least one budget".into());
    }
    crate::cli::flags::refuse_repeats(
        "--budgets",
        &v.iter().map(|b| b.to_string()).collect::<Vec<_>>(),
    )?;
    Ok(v)
}

/// `skirmish tournament clan-melee`.
impl DatasetCommand for ClanMeleeFlags {
    type Sim = ClanTournament;
    const UNIT: &'static str = "melees";
    fn build(&self, src: &crate::platform::sources::Sources) -> Result<ClanTournament, Error> {
        let f = self;
        let mode = Mode::parse(&f.mode)?;
        let budgets = match &f.budgets {
            Some(b) => budgets(b)?,
            None => CLASSIC_BUDGETS.to_vec(),
        };
        melees(f.melees, "budget")?;
        let settings = f.melee.settings(mode)?;
        let mut clans = match &f.clans {
            None => clans::reference(),
            Some(list) => {
                let paths: Vec<PathBuf> =
                    list.split(',').map(|p| PathBuf::from(p.trim())).collect();
                clans::load(src, &paths)?
            }
        };
        if let Some(c) = &f.candidate {
            // Issue 51: the host's clan joins the field, last.
            let mut extra = clans::load(src, &[PathBuf::from(c)])?;
            if extra.len() != 1 {
                return Err(Error::Input(format!(
                    "--candidate {c}: give one clan file (a folder holds {})",
                    extra.len()
                )));
            }
            let cand = extra.remove(0);
            if clans.iter().any(|k| k.name == cand.name) {
                return Err(Error::Input(format!(
                    "--candidate {c}: its clan is named `{}`, like one in the field: rename it",
                    cand.name
                )));
            }
            clans.push(cand);
        }
        let field_len = clans.len();
        let mut field = Field::new(clans).map_err(|e| format!("--clans: {e}"))?;
        field.rules = rules::from_flag(src, f.melee.rules.as_deref())?;
        Ok(ClanTournament {
            field,
            budgets,
            melees: f.melees,
            settings,
            wiggle: !f.melee.no_wiggle,
            candidate: f.candidate.is_some().then(|| field_len - 1),
        })
    }
    fn whole(&self, t: &ClanTournament) -> Option<Plan> {
        // A tournament is played whole, so its chunks are its own.
        Some(Plan {
            matches: t.matches(),
            chunk_size: self.chunk_size.unwrap_or((self.melees / 5).max(1)),
        })
    }
    fn job<'a>(
        &self,
        _: &crate::platform::context::Context,
        t: &'a ClanTournament,
    ) -> Result<Job<'a, ClanTournament>, Error> {
        let f = self;
        let chunk_size = f.chunk_size.unwrap_or((f.melees / 5).max(1));
        let files: Vec<String> = t.field.clans.iter().map(|c| c.file.clone()).collect();
        let command = format!(
            "skirmish tournament clan-melee --mode {} --engine {} --budgets {} --melees {} --seed {} --chunk-size {} --max-turns {}{}{}{}",
            t.settings.mode.name(),
            t.settings.engine.name(),
            t.budgets
                .iter()
                .map(|b| b.to_string())
                .collect::<Vec<_>>()
                .join(","),
            t.melees,
            f.run.seed,
            chunk_size,
            t.settings.max_turns,
            if t.wiggle { "" } else { " --no-wiggle" },
            f.clans
                .as_ref()
                .map(|c| super::flags::shell_flag("--clans", c))
                .unwrap_or_default()
                + &f.candidate
                    .as_ref()
                    .map(|c| super::flags::shell_flag("--candidate", c))
                    .unwrap_or_default(),
            f.melee.rules_flag(),
        );
        let mut settings = serde_json::json!({
            "mode": t.settings.mode.name(),
            "engine": t.settings.engine.name(),
            "budgets": t.budgets,
            "melees_per_budget": t.melees,
            "wiggle": t.wiggle,
            "max_turns": t.settings.max_turns,
            "clans": t.field.clans.iter().map(|c| &c.name).collect::<Vec<_>>(),
            "clan_files": files,
        });
        if f.candidate.is_some() {
            let last = t.field.clans.last().expect("the candidate is in the field");
            settings["candidate"] = last.name.clone().into();
        }
        if f.melee.rules.is_some() {
            // Issue 51: what the rules file changes, in plain words (what `diff` shows).
            settings["rules"] = t.field.rules.changes().into();
        }
        let inputs = t
            .field
            .clans
            .iter()
            .map(|c| PathBuf::from(&c.file))
            .filter(|p| p.is_file())
            .chain(f.melee.rules.iter().map(PathBuf::from))
            .collect();
        let size = Size::of("--melees (x budgets)", t.matches(), chunk_size);
        let record = Record::new(command, settings, inputs);
        f.run.job(t, size, f.out.clone(), record)
    }
    fn said(&self, t: &ClanTournament, summary: String, _: &Tally) -> String {
        format!(
            "mode: {}\n{}",
            t.settings.mode.name(),
            summary.replace(" matches", " melees")
        )
    }
}

/// `skirmish analyze clan-melee challengers` (CM-40 .. CM-42).
#[derive(Args, Debug, Clone)]
pub struct StudyFlags {
    /// Your own clan file: instead of the study, its win share at each budget against the nine
    /// classic clans, with intervals and its rank (`tournament clan-melee --candidate FILE`
    /// with this command's budgets, melees and settings).
    #[arg(long, value_name = "FILE")]
    pub candidate: Option<String>,
    /// Which question: warrior-ap, healer-share or both.
    #[arg(long, default_value = "both")]
    pub study: String,
    /// Action-point levels of the warrior study, comma-separated.
    #[arg(long, default_value = "0,1,5,10,11,12,14,16,20,25,30,40,50")]
    pub ap: String,
    /// Healers' shares of the budget (percent) of the healer study, comma-separated.
    #[arg(long, default_value = "0,10,20,30,40,50,60,70")]
    pub healer_share: String,
    /// The healer study's warriors ask this many AP of every enemy.
    #[arg(long, default_value_t = 10)]
    pub warrior_ap: i32,
    /// Hit points of each challenger member (1 to 1000; the cap, 1000, lives longest).
    #[arg(long, default_value_t = 1000)]
    pub piece: i32,
    /// Base budgets in hit points, comma-separated.
    #[arg(long, default_value = "1000,10000,100000")]
    pub budgets: String,
    /// Melees per challenger and budget.
    #[arg(long, default_value_t = 200)]
    pub melees: u64,
    /// sane (the seed's rules, no zombies) or reference (the classic engine, quirks included).
    #[arg(long, default_value = "sane")]
    pub mode: String,
    #[command(flatten)]
    pub melee: MeleeFlags,
    /// Output folder: the melees dataset, study.parquet, summary.txt and the challengers' clan
    /// files (challengers/*.toml).
    #[arg(long, default_value = "runs/clan-melee-study")]
    pub out: PathBuf,
    /// Melees per chunk [default: --melees].
    #[arg(long)]
    pub chunk_size: Option<u64>,
    #[command(flatten)]
    pub run: super::flags::Running,
}

fn ints(flag: &str, s: &str, lo: i32, hi: i32) -> Result<Vec<i32>, Error> {
    let v = s
        .split(',')
        .map(|x| {
            x.trim()
                .parse::<i32>()
                .ok()
                .filter(|n| (lo..=hi).contains(n))
                .ok_or_else(|| {
                    Error::Input(format!(
                        "{flag}: `{}` is not a whole number from {lo} to {hi}; e.g. {flag} {lo},{hi}",
                        x.trim()
                    ))
                })
        })
        .collect::<Result<Vec<i32>, Error>>()?;
    let mut seen = std::collections::BTreeSet::new();
    if let Some(d) = v.iter().find(|x| !seen.insert(**x)) {
        return Err(Error::Input(format!(
            "{flag}: {d} is listed twice; list each value once"
        )));
    }
    Ok(v)
}

/// Builds the study and the challengers' clan texts (every check before anything is written).
pub fn build_study(
    src: &crate::platform::sources::Sources,
    f: &StudyFlags,
) -> Result<(ClanStudy, Vec<(String, String)>), Error> {
    let mode = Mode::parse(&f.mode)?;
    let studies: Vec<Study> = match f.study.as_str() {
        "both" => vec![Study::WarriorAp, Study::HealerShare],
        "warrior-ap" => vec![Study::WarriorAp],
        "healer-share" => vec![Study::HealerShare],
        s => {
            return Err(Error::Input(format!(
                "--study `{s}`: write warrior-ap, healer-share or both"
            )));
        }
    };
    if !(1..=1000).contains(&f.piece) {
        return Err(Error::Input(format!(
            "--piece {}: members hold 1 to 1000 hp (the cap, CM-3)",
            f.piece
        )));
    }
    melees(f.melees, "challenger and budget")?;
    let settings = f.melee.settings(mode)?;
    let budgets = budgets(&f.budgets)?;
    let rules = rules::from_flag(src, f.melee.rules.as_deref())?;
    let asked = studies
        .into_iter()
        .map(|study| {
            Ok((
                study,
                match study {
                    Study::WarriorAp => ints("--ap", &f.ap, -1000, 10_000)?,
                    Study::HealerShare => ints("--healer-share", &f.healer_share, 0, 100)?,
                },
            ))
        })
        .collect::<Result<Vec<_>, Error>>()?;
    ClanStudy::build(
        &asked,
        Challengers {
            piece: f.piece,
            warrior_ap: f.warrior_ap,
            rules,
        },
        budgets,
        f.melees,
        settings,
        !f.melee.no_wiggle,
    )
}

impl Analysis for StudyFlags {
    const NAME: &'static str = "analyze clan-melee";
    // The study's melees are a dataset the folder keeps.
    const BESIDE: bool = true;
    fn out(&self) -> Option<&std::path::Path> {
        Some(&self.out)
    }
    fn study(
        &self,
        ctx: &crate::platform::context::Context,
        encode: Encoder,
    ) -> Result<Studied, Error> {
        study(ctx, self, encode)
    }
}

/// `skirmish analyze clan-melee challengers`.
fn study(
    ctx: &crate::platform::context::Context,
    f: &StudyFlags,
    encode: Encoder,
) -> Result<Studied, Error> {
    // Issue 51's spelling of a candidate clan against the field: the tournament with it.
    if let Some(c) = &f.candidate {
        let t = ClanMeleeFlags {
            mode: f.mode.clone(),
            budgets: Some(f.budgets.clone()),
            melees: f.melees,
            clans: None,
            candidate: Some(c.clone()),
            melee: f.melee.clone(),
            out: f.out.clone(),
            chunk_size: f.chunk_size,
            run: f.run.clone(),
        };
        return serve(ctx, &t, encode).map(Studied::Said);
    }
    let (s, texts) = build_study(ctx.sources(), f)?;
    let chunk_size = f.chunk_size.unwrap_or(f.melees).max(1);
    let command = format!(
        "skirmish analyze clan-melee --study {} --ap {} --healer-share {} --warrior-ap {} --piece {} --budgets {} --melees {} --mode {} --engine {} --max-turns {} --seed {} --chunk-size {chunk_size}{}{}",
        super::flags::shell_quote(&f.study),
        super::flags::shell_quote(&f.ap.to_string()),
        super::flags::shell_quote(&f.healer_share.to_string()),
        f.warrior_ap,
        f.piece,
        super::flags::shell_quote(&f.budgets),
        f.melees,
        s.settings.mode.name(),
        s.settings.engine.name(),
        f.melee.max_turns,
        f.run.seed,
        if s.wiggle { "" } else { " --no-wiggle" },
        f.melee.rules_flag(),
    );
    let mut settings = serde_json::json!({
        "study": f.study,
        "variants": s.variants.iter().map(|v| v.study.label(v.value)).collect::<Vec<_>>(),
        "warrior_ap": f.warrior_ap,
        "piece": f.piece,
        "budgets": s.budgets,
        "melees_per_budget": s.melees,
        "mode": s.settings.mode.name(),
        "engine": s.settings.engine.name(),
        "wiggle": s.wiggle,
        "max_turns": s.settings.max_turns,
    });
    if f.melee.rules.is_some() {
        let r = s
            .variants
            .first()
            .map_or(Default::default(), |v| v.field.rules);
        settings["rules"] = r.changes().into();
    }
    let size = Size::of(
        "--melees (x budgets x challengers)",
        s.matches(),
        chunk_size,
    );
    let record = Record::new(
        command,
        settings,
        f.melee.rules.iter().map(PathBuf::from).collect(),
    );
    let job = f.run.job(&s, size, f.out.clone(), record)?;
    job.check()?;
    let (report, ds) = match job.execute(ctx, encode)? {
        Done::Ran(done) => done,
        Done::Replayed => return Ok(Studied::Said(String::new())),
    };
    if report.tally.matches < job.matches {
        // One shard: the study needs every melee; the last run of the command writes it.
        return Ok(Studied::Said(format!(
            "{}\nthis was one shard ({} of {} melees here): run the same command without --shard (or every shard) to finish, then the study is written\n",
            job.summary_head(&report, &ds, "melees"),
            report.tally.matches,
            job.matches
        )));
    }
    let dir = ds.dir().to_path_buf();
    let summary = job.summary(&report, &ds).replace(" matches", " melees");
    Ok(Studied::Whole(Box::new(Findings {
        // The dataset's own answer, which its job wrote: the study's table joins it.
        answer: crate::platform::dataset::answer_of(&dir)?,
        replicates: None,
        tables: vec![s.table(&report.tally)],
        files: texts
            .into_iter()
            .map(|(name, text)| (format!("challengers/{name}"), text.into_bytes()))
            .collect(),
        summary: format!(
            "skirmish analyze clan-melee, seed {}: {} melees\n",
            f.run.seed,
            thousands(report.tally.matches)
        ),
        head: format!("mode: {}\n{summary}\n", s.settings.mode.name()),
        tail: format!(
            "; the melees: {} (one row per melee), the challengers' clan files: {}",
            dir.join("melees").display(),
            dir.join("challengers").display()
        ),
        hold: Vec::new(),
    })))
}

/// `skirmish clan-melee play`: one melee, told.
#[derive(Args, Debug, Clone)]
pub struct PlayFlags {
    /// Clan files or folders (a folder's *.toml in name order), comma-separated [default: the
    /// nine classic clans].
    #[arg(long)]
    pub clans: Option<String>,
    /// The melee's budget in hit points, played exactly (no wiggle).
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(i32).range(1..=100_000_000))]
    pub budget: i32,
    /// sane (the seed's rules, no zombies) or reference (the classic engine, quirks included).
    #[arg(long, default_value = "sane")]
    pub mode: String,
    /// The melee's seed (CM-13 lists every draw).
    #[arg(long, default_value_t = 42)]
    pub seed: u64,
    /// Turns after which the melee stops, reported as a turn cap (CM-12).
    #[arg(long, default_value_t = DEFAULT_MAX_TURNS, value_parser = clap::value_parser!(u32).range(1..))]
    pub max_turns: u32,
    /// Rules file: the melee's numbers (experiments/clan-melee-rules/rules.toml lists them)
    /// [default: the seed's].
    #[arg(long, value_name = "FILE")]
    pub rules: Option<String>,
    /// classes (alike members played once, while that pays) or members (one by one: the
    /// reference engine). Same distribution of melees, different draws (CM-14).
    #[arg(long, default_value = "classes")]
    pub engine: String,
    /// Tell the melee turn by turn, as a host would post it.
    #[arg(long, conflicts_with = "trace")]
    pub narrate: bool,
    /// JSON Lines: each clan's survivors and hp after each turn, then the result.
    #[arg(long)]
    pub trace: bool,
    #[command(flatten)]
    pub style: super::flags::NarrationFormat,
}

fn field_of(src: &crate::platform::sources::Sources, clans: Option<&str>) -> Result<Field, Error> {
    let clans = match clans {
        None => clans::reference(),
        Some(list) => {
            let paths: Vec<PathBuf> = list.split(',').map(|p| PathBuf::from(p.trim())).collect();
            clans::load(src, &paths)?
        }
    };
    Field::new(clans).map_err(|e| Error::Input(format!("--clans: {e}")))
}

/// `skirmish clan-melee play`.
pub fn play(f: &PlayFlags) -> Result<String, Error> {
    use crate::games::clan_melee::trace;
    let settings = Settings {
        mode: Mode::parse(&f.mode)?,
        max_turns: f.max_turns,
        engine: By::parse(&f.engine)?,
    };
    let src = &crate::platform::sources::Sources::disk();
    let mut field = field_of(src, f.clans.as_deref())?;
    field.rules = rules::from_flag(src, f.rules.as_deref())?;
    let need = crate::games::clan_melee::simulation::tournament::melee_bytes(&field, f.budget);
    let what = format!("a melee at budget {}", f.budget);
    crate::platform::memory::fit(need, 1, crate::platform::memory::available()?, &what)?;
    // Without --narrate: the fielded clans and the verdict, not every turn. Told as the melee
    // goes (streamed: any number of turns in bounded memory).
    let how = match (f.trace, f.narrate) {
        (true, _) => trace::Telling::Trace,
        (_, true) => trace::Telling::Narration,
        _ => trace::Telling::Verdict,
    };
    let out = crate::platform::sink::Sink::stdout().styled(f.style.style(f.trace)?);
    Ok(trace::tell(&field, f.budget, &settings, f.seed, how, out).finish())
}

/// `skirmish clan-melee check FILE`: the clan compiled, and what it fields at a range of budgets.
pub fn check(path: &std::path::Path) -> Result<String, Error> {
    crate::games::clan_melee::input::check(&crate::platform::sources::Sources::disk(), path)
}

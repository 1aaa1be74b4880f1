//! `skirmish minions combat|check` (Minion Combat Pipeline).

use crate::error::Error;
use std::path::{Path, PathBuf};

use clap::Args;

use super::flags::GameFlags;
use crate::games::minion_combat::input;
use crate::games::minion_combat::rules::Rules;
use crate::games::minion_combat::simulation::combats::Field;
use crate::games::minion_combat::state::Catalogue;
use crate::platform::command::{Analysis, Findings, Played, Studied, play_cells};
use crate::platform::runner::Encoder;

/// `--rules`, `--minions`, `--modifiers`, `--effects`: the game's numbers and its catalogues.
#[derive(Args, Debug, Clone, Default)]
pub struct DataFlags {
    /// Rules file (TOML): any number or reading, e.g. `estimate = "own"`
    /// [default: the seed's, as written in experiments/minion-combat/rules.toml].
    #[arg(long)]
    pub rules: Option<PathBuf>,
    /// Minion catalogue (TOML) [default: experiments/minion-combat/minions.toml].
    #[arg(long)]
    pub minions: Option<PathBuf>,
    /// Modifier list (TOML) [default: experiments/minion-combat/modifiers.toml].
    #[arg(long)]
    pub modifiers: Option<PathBuf>,
    /// Effects file (TOML): the clauses tags and modifiers carry (MC-41)
    /// [default: experiments/minion-combat/effects.toml].
    #[arg(long)]
    pub effects: Option<PathBuf>,
}

impl DataFlags {
    fn files(&self) -> Vec<PathBuf> {
        self.rules
            .iter()
            .chain(&self.minions)
            .chain(&self.modifiers)
            .chain(&self.effects)
            .cloned()
            .collect()
    }
    fn command(&self) -> String {
        let mut s = String::new();
        for (flag, p) in [
            ("--rules", &self.rules),
            ("--minions", &self.minions),
            ("--modifiers", &self.modifiers),
            ("--effects", &self.effects),
        ] {
            if let Some(p) = p {
                s.push_str(&super::flags::shell_flag(flag, p.display()));
            }
        }
        s
    }
    /// The files named, as the game's input takes them.
    pub fn files_named(&self) -> input::DataFiles {
        input::DataFiles {
            rules: self.rules.clone(),
            minions: self.minions.clone(),
            modifiers: self.modifiers.clone(),
            effects: self.effects.clone(),
        }
    }
    fn load(&self, src: &crate::platform::sources::Sources) -> Result<(Rules, Catalogue), Error> {
        self.files_named().load(src)
    }
}

#[derive(Args, Debug)]
pub struct CombatArgs {
    /// Combat file (TOML) [default: the built-in experiments/minion-combat/combat.toml].
    pub file: Option<PathBuf>,
    /// The exact odds of every outcome, every random choice enumerated (MC-37); Monte Carlo
    /// over `--samples` seeds when the combat has more than `--limit` paths.
    #[arg(long, conflicts_with_all = ["narrate", "trace"])]
    pub exact: bool,
    /// Most paths `--exact` enumerates before it falls back to sampling.
    #[arg(long, default_value_t = 1_000_000, value_parser = clap::value_parser!(u64).range(1..=1_000_000_000))]
    pub limit: u64,
    /// Combats sampled when the paths exceed `--limit`.
    #[arg(long, default_value_t = 100_000, value_parser = clap::value_parser!(u64).range(1..=1_000_000_000))]
    pub samples: u64,
    #[command(flatten)]
    pub data: DataFlags,
    #[command(flatten)]
    pub tell: super::flags::Telling,
}

/// `skirmish minions combat`.
pub fn combat_cmd(a: &CombatArgs) -> Result<String, Error> {
    use crate::games::minion_combat::{analysis::exact, trace};
    let told = a.tell.told()?;
    let src = crate::platform::sources::Sources::disk();
    let (r, cat) = a.data.load(&src)?;
    if let Some(p) = &a.file {
        let text = crate::games::file_error::read(&src, p, "Minion Combat file")?;
        if input::board::is_board(&text) {
            if a.exact {
                return Err(
                    "--exact: odds are for one combat; give a combat file, not a board".into(),
                );
            }
            let mut b = input::board::parse(&p.display().to_string(), &text, &r, &cat)?;
            if let Some(seed) = a.tell.seed {
                b.seed = seed;
            }
            return Ok(trace::tell_board(b, &r, told));
        }
    }
    let c = input::combat::from_flag(&src, a.file.as_deref(), &r, &cat)?;
    let seed = a.tell.seed.unwrap_or(c.seed);
    if a.exact {
        return Ok(exact::odds_text(&c, &r, a.limit, a.samples, seed));
    }
    Ok(trace::tell(&c, &r, seed, told))
}

/// `skirmish minions check FILE`: a rules file, catalogue, modifier list or combat file.
pub fn check(path: &Path, data: &DataFlags) -> Result<String, Error> {
    input::check::check(
        &crate::platform::sources::Sources::disk(),
        path,
        &data.files_named(),
    )
}

/// How `simulate minions` and `analyze minions` draw their groups (MC-31).
#[derive(Args, Debug, Clone)]
pub struct FieldFlags {
    /// Group kinds to draw: recruits, monsters, or both (each side picks one at random).
    #[arg(long, default_value = "recruits,monsters")]
    pub kinds: String,
    /// Group sizes, smallest-largest (1 to 8).
    #[arg(long, default_value = "1-8")]
    pub sizes: String,
    /// Most minion types in one group.
    #[arg(long, default_value_t = 2)]
    pub types: usize,
    /// Also draw minions with effects the kernel does not play: a combat that draws one is
    /// played by the plain model, effects and all (slower; MC-54). `simulate minions` only.
    #[arg(long)]
    pub all_minions: bool,
    #[command(flatten)]
    pub data: DataFlags,
}

/// `skirmish simulate minions`.
impl GameFlags for FieldFlags {
    type Sim = Field;
    const GAME: &'static str = "minions";
    const UNIT: &'static str = "combats";
    fn build(&self, src: &crate::platform::sources::Sources) -> Result<Field, Error> {
        let (rules, cat) = self.data.load(src)?;
        let mut kinds = [false; 2];
        for k in self.kinds.split(',').map(str::trim) {
            match k {
                "recruits" | "recruit" => kinds[0] = true,
                "monsters" | "monster" => kinds[1] = true,
                other => {
                    return Err(Error::Input(format!(
                        "--kinds `{other}`: recruits, monsters, or both (recruits,monsters)"
                    )));
                }
            }
        }
        let bad = || {
            format!(
                "--sizes `{}`: smallest-largest, e.g. 1-8 or 4-4",
                self.sizes
            )
        };
        let (a, b) = self.sizes.split_once('-').ok_or_else(bad)?;
        let a: usize = a.trim().parse().map_err(|_| bad())?;
        let b: usize = b.trim().parse().map_err(|_| bad())?;
        Field::new(rules, cat, kinds, (a, b), self.types, self.all_minions)
    }
    fn command(&self, _: &Field) -> String {
        format!(
            "--kinds {} --sizes {} --types {}{}{}",
            super::flags::shell_quote(&self.kinds.to_string()),
            super::flags::shell_quote(&self.sizes.to_string()),
            super::flags::shell_quote(&self.types.to_string()),
            if self.all_minions {
                " --all-minions"
            } else {
                ""
            },
            self.data.command()
        )
    }
    fn settings(&self, src: &crate::platform::sources::Sources, f: &Field) -> serde_json::Value {
        serde_json::json!({
            "kinds": f.kinds,
            "sizes": [f.sizes.0, f.sizes.1],
            "types": f.types,
            "all_minions": f.all_minions,
            "rules": crate::games::changes::of_file(src, input::RULES, self.data.rules.as_deref()),
            "pool": f.pool.iter().map(|p| p.iter().map(|&i| f.catalogue.minions[i as usize].name.clone()).collect::<Vec<_>>()).collect::<Vec<_>>(),
        })
    }
    fn inputs(&self) -> Vec<PathBuf> {
        self.data.files()
    }
}

#[derive(Args, Debug, Clone)]
pub struct StudyFlags {
    /// Paired combats per stat change and per nation, and combats of each split against the
    /// field.
    #[arg(long, default_value_t = 200_000, value_parser = clap::value_parser!(u64).range(2..=100_000_000))]
    pub combats: u64,
    /// Combats per cell of the matrices and per count of the monster ladder.
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(2..=10_000_000))]
    pub cell: u64,
    /// Minions per group in the minion matrix (each group one pool minion).
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u64).range(1..=8))]
    pub size: u64,
    /// The baseline swordsman (a catalogue name, `+ Modifier` allowed).
    #[arg(long, default_value = "Dwarf swordsman")]
    pub swordsman: String,
    /// The baseline archer.
    #[arg(long, default_value = "Dwarf archer")]
    pub archer: String,
    #[command(flatten)]
    pub field: FieldFlags,
    /// Output folder: stat_worth, monster_worth, minion_matrix, splits and nation_worth
    /// .parquet, and summary.txt. An earlier run of the same study there is continued: more
    /// --combats or --cell play only the new combats, and end as one run asked for them all.
    #[arg(long, default_value = "runs/minion-study")]
    pub out: PathBuf,
    /// Your own minion, as stats (`"H:3 A:1 HP:9 L:1"`: hand, attacks, HP, level; also M
    /// missile, AR armor, and `monster`) or a catalogue name with modifiers
    /// (`"Dwarf swordsman + Veteran"`): its worth in baseline recruits and its win share against
    /// the field, paired against the baseline swordsman, with intervals, and its rank among the
    /// monsters. Runs only these questions.
    #[arg(long, value_name = "STATS|NAME")]
    pub candidate: Option<String>,
    #[command(flatten)]
    pub run: super::flags::Running,
}

const STUDY: &str = "analyze minions";

/// `skirmish analyze minions` (MC-32..MC-36): the worth of every stat, monster and nation.
impl Analysis for StudyFlags {
    const NAME: &'static str = STUDY;
    fn out(&self) -> Option<&Path> {
        Some(&self.out)
    }
    fn study(&self, ctx: &crate::platform::context::Context, _: Encoder) -> Result<Studied, Error> {
        let f = self;
        use crate::games::minion_combat::analysis::study;
        use crate::platform::tally::thousands;
        use std::time::Instant;

        if f.field.all_minions {
            return Err(
                "--all-minions: `analyze minions` pairs combats on the optimised kernel, which \
                    plays only minions whose effects are all printed (MC-54); drop the flag, or \
                    use `simulate minions --all-minions`, which plays the rest on the plain model"
                    .into(),
            );
        }
        let field = f.field.build(ctx.sources())?;
        let threads = super::flags::threads(f.run.threads)?;
        let st = study::Study::new(
            field,
            f.combats,
            f.cell,
            f.size as usize,
            &f.swordsman,
            &f.archer,
        )?;
        let candidate = match &f.candidate {
            None => None,
            Some(c) => Some(input::candidate::minion(
                c,
                &st.field.catalogue,
                &st.field.rules,
            )?),
        };
        if f.candidate.is_some() && f.run.sharding.shard.is_some() {
            return Err(
            "--shard: a --candidate run plays only the candidate's questions, on one machine; drop --shard"
                .into(),
        );
        }
        if let Some(m) = candidate {
            // Issue 51: the candidate's questions only, not the whole study.
            // A question's point (issue 78) wants the answer only: no folder is claimed.
            let claim = (!ctx.is_in_memory())
                .then(|| crate::platform::dataset::claim_output_folder(&f.out, STUDY))
                .transpose()?;
            let pool = crate::platform::runner::pool(threads)?;
            let start = Instant::now();
            let c = pool.install(|| st.candidate(&m, f.run.seed))?;
            let secs = start.elapsed().as_secs_f64();
            let answer =
                study::candidate_answer(&c, &st, f.run.seed, &super::flags::command_line(ctx));
            return Ok(Studied::Whole(Box::new(Findings {
                answer,
                replicates: None,
                tables: Vec::new(),
                files: Vec::new(),
                hold: vec![Box::new(claim)],
                summary: format!(
                    "skirmish analyze minions --candidate, seed {}: {} combats\n\n",
                    f.run.seed,
                    thousands(c.combats)
                ),
                head: format!(
                    "analyze minions --candidate: {} combats in {secs:.1} s on {threads} threads\n\n",
                    thousands(c.combats)
                ),
                tail: String::new(),
            })));
        }
        // Issue 51: the study's identity (all but the counts); its cells kept in the folder by an
        // earlier run or by shards are summed, not played again.
        let identity = st.identity(f.run.seed, f.field.command(&st.field));
        let w = match play_cells(
            ctx,
            f.run
                .cells(&f.out, STUDY, identity, st.planned(), "combats", false)?,
            |ledger, tick| st.run(f.run.seed, ledger, tick),
        )? {
            Played::Shard(said) => return Ok(Studied::Said(said)),
            Played::Whole(w) => w,
        };
        let (found, secs) = (&w.found, w.secs);
        let setup = format!(
            "field: {}; {} recruits and {} monsters in the pool\n\n",
            f.field.command(&st.field),
            st.field.pool[0].len(),
            st.field.pool[1].len()
        );
        let head = format!(
            "analyze minions: {} combats{} in {:.1} s ({} combats/s on {threads} threads); {setup}",
            thousands(found.combats),
            if found.played < found.combats {
                format!(
                    ", {} of them played now (the rest kept in the folder)",
                    thousands(found.played)
                )
            } else {
                String::new()
            },
            secs,
            thousands((found.played as f64 / secs.max(1e-9)) as u64),
        );
        // The answer and its report (issue 50), written with the tables in one step.
        let mut answer = study::answer(found, &st, f.run.seed, &super::flags::command_line(ctx));
        // What a what-if of the analysis tells as changed (issue 63): the rules file's changes.
        answer.provenance.settings = serde_json::json!({
            "rules": crate::games::changes::of_file(ctx.sources(), input::RULES, f.field.data.rules.as_deref()),
        });
        let tables = study::tables(found);
        let summary = format!(
            "skirmish analyze minions, seed {}: {} combats; {setup}",
            f.run.seed,
            thousands(found.combats)
        );
        Ok(w.findings(
            answer,
            |x| study::answer(x, &st, f.run.seed, &super::flags::command_line(ctx)),
            tables,
            (summary, head),
        ))
    }
}

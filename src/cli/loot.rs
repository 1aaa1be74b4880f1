//! `skirmish loot play|check|odds`, `simulate loot` and `analyze loot items` (Loot Arena).

use crate::error::Error;
use std::path::{Path, PathBuf};

use clap::Args;

use super::flags::{GameFlags, Record, Size, refuse_repeats, shell_flag, shell_quote, split_specs};
use crate::games::loot_arena::analysis::{items as study, odds};
use crate::games::loot_arena::input::{self, battle::BattleFile};
use crate::games::loot_arena::policy::Policy;
use crate::games::loot_arena::rules::{Rules, show_frac};
use crate::games::loot_arena::simulation::battles::Field;
use crate::games::loot_arena::simulation::royale::RoyaleTournament;
use crate::games::loot_arena::state::Catalogue;
use crate::games::loot_arena::strategy::Strategy;
use crate::platform::command::{Analysis, DatasetCommand, Played, Studied, play_cells};
use crate::platform::job::Job;
use crate::platform::runner::Encoder;
use crate::platform::tally::thousands;

/// `--rules` and `--items`: the game's numbers and its item catalogue.
#[derive(Args, Debug, Clone, Default)]
pub struct DataFlags {
    /// Rules file (TOML): any number or reading, e.g. `[champion.mage] health = 90`
    /// [default: the seed's, as written in experiments/loot-arena/rules.toml].
    #[arg(long)]
    pub rules: Option<PathBuf>,
    /// Item catalogue (TOML) [default: the stand-in experiments/loot-arena/items.toml].
    #[arg(long)]
    pub items: Option<PathBuf>,
}

impl DataFlags {
    fn load(&self, src: &crate::platform::sources::Sources) -> Result<(Rules, Catalogue), Error> {
        Ok((
            input::rules::from_flag(src, self.rules.as_deref())?,
            input::items::from_flag(src, self.items.as_deref())?,
        ))
    }
    fn files(&self) -> Vec<PathBuf> {
        self.rules.iter().chain(&self.items).cloned().collect()
    }
}

#[derive(Args, Debug)]
pub struct PlayArgs {
    /// Battle file or royale file (TOML) [default: the built-in
    /// experiments/loot-arena/battle.toml]. A royale file (players with a `strategy`, e.g.
    /// experiments/loot-arena/royale.toml) plays one whole game.
    pub file: Option<PathBuf>,
    #[command(flatten)]
    pub data: DataFlags,
    #[command(flatten)]
    pub tell: super::flags::Telling,
}

fn load_battle(file: Option<&Path>, r: &Rules, cat: &Catalogue) -> Result<BattleFile, Error> {
    match file {
        Some(p) => input::battle::load(&crate::platform::sources::Sources::disk(), p, r, cat)
            .map_err(Error::from),
        None => input::battle::parse(
            "experiments/loot-arena/battle.toml (built in)",
            input::BATTLE,
            r,
            cat,
        )
        .map_err(Error::from),
    }
}

/// `skirmish loot play`.
pub fn play(a: &PlayArgs) -> Result<String, Error> {
    let told = a.tell.told()?;
    let (r, cat) = a.data.load(&crate::platform::sources::Sources::disk())?;
    if let Some(p) = &a.file {
        let text = crate::games::file_error::read(
            &crate::platform::sources::Sources::disk(),
            p,
            "Loot Arena file",
        )?;
        if input::royale::is_royale(&text) {
            let g = input::royale::parse(&p.display().to_string(), &text, &r)?;
            let seed = a.tell.seed.unwrap_or(g.seed);
            return Ok(crate::games::loot_arena::trace::royale::tell(
                &g, &r, &cat, seed, told,
            ));
        }
    }
    let b = load_battle(a.file.as_deref(), &r, &cat)?;
    let seed = a.tell.seed.unwrap_or(b.seed);
    Ok(crate::games::loot_arena::trace::tell(&b, &r, seed, told))
}

/// `skirmish loot check FILE`: a battle, a royale, a rules file or an item catalogue.
pub fn check(path: &Path, data: &DataFlags) -> Result<String, Error> {
    let src = crate::platform::sources::Sources::disk();
    input::check(&src, path, &|| data.load(&src))
}

#[derive(Args, Debug)]
pub struct OddsArgs {
    /// The attack, e.g. "Mage with 1d8,1d8 vs Rogue in Light armor" (items: catalogue names,
    /// `magical 1d8`, or bare dice; armor: a name, `[tier] light|medium|heavy armor`, or dice;
    /// end with `evading` for an evading target).
    pub attack: String,
    #[command(flatten)]
    pub data: DataFlags,
}

/// `skirmish loot odds`: one attack's exact damage distribution (LA-22).
pub fn odds(a: &OddsArgs) -> Result<String, Error> {
    let (r, cat) = a.data.load(&crate::platform::sources::Sources::disk())?;
    let m = odds::matchup(&a.attack, &r, &cat).map_err(|e| format!("loot odds: {e}"))?;
    let o = odds::exact(&m.strike, &r).map_err(|e| format!("loot odds: {e}"))?;
    let mut out = String::new();
    for line in &m.reading {
        out.push_str(&format!("{line}\n"));
    }
    out.push_str(&format!(
        "crit = {}, crit_stage = {}, x{}; rounding = {}\n\n",
        r.crit.word(),
        snake(&format!("{:?}", r.crit_stage)),
        r.crit_multiplier,
        snake(&format!("{:?}", r.rounding))
    ));
    out.push_str(&format!(
        "mean {:.3}, sd {:.3}, crit chance {:.4}, no damage {:.4}  ({} outcomes, exact)\n\n",
        o.mean(),
        o.sd(),
        o.crit_chance(),
        o.damage
            .first()
            .filter(|d| d.0 == 0)
            .map_or(0.0, |d| o.p(d.1)),
        o.total
    ));
    out.push_str("damage  chance     at least\n");
    let mut above = o.total;
    for &(d, n) in &o.damage {
        out.push_str(&format!("{d:>6}  {:8.5}  {:8.5}\n", o.p(n), o.p(above)));
        above -= n;
    }
    Ok(out)
}

/// How `simulate loot` and `analyze loot items` draw their battles.
#[derive(Args, Debug, Clone)]
pub struct FieldFlags {
    /// Policies, comma-separated; champion k of battle m plays policy (m + k) mod P.
    #[arg(
        long,
        default_value = "medic,attack,focus-healer,supporter,evasive,random"
    )]
    pub policies: String,
    /// Chance in percent that each item slot holds an item.
    #[arg(long, default_value_t = 100)]
    pub fill: u32,
    /// Chance in percent that a champion wears armor.
    #[arg(long, default_value_t = 100)]
    pub armor: u32,
    /// Relative odds of Common, Uncommon, Rare, Legendary items.
    #[arg(long, default_value = "40,30,20,10")]
    pub tiers: String,
    #[command(flatten)]
    pub data: DataFlags,
}

/// `skirmish simulate loot`.
impl GameFlags for FieldFlags {
    type Sim = Field;
    const GAME: &'static str = "loot";
    const UNIT: &'static str = "battles";
    fn build(&self, src: &crate::platform::sources::Sources) -> Result<Field, Error> {
        let (rules, catalogue) = self.data.load(src)?;
        let policies = split_specs(&self.policies)
            .iter()
            .map(|s| Policy::parse(s).map_err(|e| format!("--policies: {e}")))
            .collect::<Result<Vec<_>, _>>()?;
        refuse_repeats(
            "--policies",
            &policies.iter().map(|p| p.spec()).collect::<Vec<_>>(),
        )?;
        let t: Vec<u32> = self
            .tiers
            .split(',')
            .map(|x| x.trim().parse::<u32>())
            .collect::<Result<_, _>>()
            .map_err(|_| {
                format!(
                    "--tiers `{}`: four whole numbers, e.g. 40,30,20,10",
                    self.tiers
                )
            })?;
        let tiers: [u32; 4] = t.try_into().map_err(|_| {
            format!(
                "--tiers `{}`: four weights (Common, Uncommon, Rare, Legendary)",
                self.tiers
            )
        })?;
        let f = Field {
            rules,
            catalogue,
            policies,
            fill: self.fill,
            armor: self.armor,
            tiers,
        };
        f.check()?;
        Ok(f)
    }
    fn settings(&self, src: &crate::platform::sources::Sources, f: &Field) -> serde_json::Value {
        serde_json::json!({
            "policies": f.policies.iter().map(|p| p.spec()).collect::<Vec<_>>(),
            "fill_percent": f.fill,
            "armor_percent": f.armor,
            "tiers": f.tiers,
            "rules": crate::games::changes::of_file(src, input::RULES, self.data.rules.as_deref()),
            "items": f.catalogue.items.iter().map(|i| format!("{} {} {}", i.name, i.label(), i.dice)).collect::<Vec<_>>(),
        })
    }
    fn command(&self, f: &Field) -> String {
        let specs: Vec<String> = f.policies.iter().map(|p| p.spec()).collect();
        let mut s = format!(
            "--policies {} --fill {} --armor {} --tiers {}",
            super::flags::shell_quote(&specs.join(",")),
            f.fill,
            f.armor,
            f.tiers.map(|t| t.to_string()).join(",")
        );
        if let Some(r) = &self.data.rules {
            s.push_str(&super::flags::shell_flag("--rules", r.display()));
        }
        if let Some(i) = &self.data.items {
            s.push_str(&super::flags::shell_flag("--items", i.display()));
        }
        s
    }
    fn inputs(&self) -> Vec<PathBuf> {
        self.data.files()
    }
}

#[derive(Args, Debug, Clone)]
pub struct ItemFlags {
    /// Paired battles per class for item worth and sets, and for leave one out.
    #[arg(long, default_value_t = 100_000, value_parser = clap::value_parser!(u64).range(2..=100_000_000))]
    pub battles: u64,
    /// Battles per cell of the 6x6 pairing matrices.
    #[arg(long, default_value_t = 10_000, value_parser = clap::value_parser!(u64).range(2..=10_000_000))]
    pub cell: u64,
    /// Candidate sets (policies) for each class, comma-separated; the first is also what every
    /// other champion plays, and the yardstick of the paired differences.
    #[arg(
        long,
        default_value = "medic,attack,focus-healer,supporter,evasive,plan(heal=4),plan(evade=2),plan(support=1, heal=1),random"
    )]
    pub sets: String,
    #[command(flatten)]
    pub field: FieldFlags,
    /// Your own item, `"Flaming Sword: rare physical 2d6+2"` (armor: `"Troll Hide: rare
    /// defensive heavy 1d12"`), or an item catalogue file of several: measured against the
    /// catalogue's items on the same battles, never drawn by the field; its worth in health and
    /// its rank among its tier.
    #[arg(long, value_name = "ITEM|FILE")]
    pub candidate: Option<String>,
    /// Output folder: item_worth, pairings, leave_one_out and sets .parquet, and summary.txt.
    /// An earlier run of the same study there is continued: more --battles or --cell play only
    /// the new battles, and end as one run asked for them all from the start.
    #[arg(long, default_value = "runs/loot-items")]
    pub out: PathBuf,
    #[command(flatten)]
    pub run: super::flags::Running,
}

const ITEMS: &str = "analyze loot items";

impl ItemFlags {
    /// The study the flags describe: its field, sets and candidate items, read and checked.
    pub fn build(&self, src: &crate::platform::sources::Sources) -> Result<study::Study, Error> {
        let field = self.field.build(src)?;
        let sets = split_specs(&self.sets)
            .iter()
            .map(|s| Policy::parse(s).map_err(|e| format!("--sets: {e}")))
            .collect::<Result<Vec<_>, _>>()?;
        refuse_repeats("--sets", &sets.iter().map(|p| p.spec()).collect::<Vec<_>>())?;
        if sets.is_empty() {
            return Err("--sets: name at least one policy".into());
        }
        let candidates = match &self.candidate {
            Some(c) => crate::games::loot_arena::input::items::candidate(src, c)?,
            None => Vec::new(),
        };
        study::Study::new(field, self.battles, self.cell, sets, candidates)
    }
}

/// `skirmish analyze loot items` (LA-32).
impl Analysis for ItemFlags {
    const NAME: &'static str = ITEMS;
    fn out(&self) -> Option<&Path> {
        Some(&self.out)
    }
    fn study(&self, ctx: &crate::platform::context::Context, _: Encoder) -> Result<Studied, Error> {
        let f = self;
        let st = f.build(ctx.sources())?;
        let threads = super::flags::threads(f.run.threads)?;
        // Issue 51: the study's identity (all but the counts); its cells kept in the folder by an
        // earlier run or by shards are summed, not played again.
        let identity = st.identity(f.run.seed, f.field.command(&st.field));
        let w = match play_cells(
            ctx,
            f.run
                .cells(&f.out, ITEMS, identity, st.planned(), "battles", true)?,
            |ledger, tick| st.run(f.run.seed, ledger, tick),
        )? {
            Played::Shard(said) => return Ok(Studied::Said(said)),
            Played::Whole(w) => w,
        };
        let (found, played, secs) = (&w.found, w.played, w.secs);
        // The folder's summary leaves out the time and threads, so its bytes depend only on the
        // settings and the seed.
        let setup = format!(
            "field: {}; strengths x{} / x{}, affinity x{}, crit {:?}; catalogue {}\n\n",
            f.field.command(&st.field),
            show_frac(st.field.rules.strong_deals),
            show_frac(st.field.rules.strong_takes),
            show_frac(st.field.rules.affinity),
            st.field.rules.crit,
            st.field.catalogue.source,
        );
        let head = format!(
            "loot items: {} battles{} in {:.1} s ({} battles/s on {threads} threads); {setup}",
            thousands(found.battles),
            if played < found.battles {
                format!(
                    ", {} of them played now (the rest kept in the folder)",
                    thousands(played)
                )
            } else {
                String::new()
            },
            secs,
            thousands((played as f64 / secs.max(1e-9)) as u64),
        );
        // The answer and its report (issue 50), written with the tables in one step.
        let mut answer = study::answer(found, f.run.seed, &super::flags::command_line(ctx));
        // What a what-if of the analysis tells as changed (issue 63): the rules file's changes.
        answer.provenance.settings = serde_json::json!({
            "rules": crate::games::changes::of_file(ctx.sources(), input::RULES, f.field.data.rules.as_deref()),
        });
        // Issue 51: each candidate's rank among the catalogue's items of its tier, per class.
        study::candidate_verdicts(&st, found, &mut answer);
        if let Some(c) = &f.candidate
            && ctx.sources().is_file(std::path::Path::new(c))
        {
            answer.provenance.inputs.insert(
                c.clone(),
                ctx.sources()
                    .sha256(std::path::Path::new(c))
                    .map_err(|e| format!("--candidate {c}: {e}"))?,
            );
        }
        let tables = study::tables(found);
        let summary = format!(
            "skirmish analyze loot items, seed {}: {} battles; {setup}",
            f.run.seed,
            thousands(found.battles)
        );
        Ok(w.findings(
            answer,
            |x| study::answer(x, f.run.seed, &super::flags::command_line(ctx)),
            tables,
            (summary, head),
        ))
    }
}

#[derive(Args, Debug, Clone)]
pub struct TournamentFlags {
    /// Strategies, comma-separated (`smart(greed=5)`; a comma inside parentheses is kept).
    #[arg(
        long,
        visible_alias = "policies",
        default_value = "looter,centre,avoider,hunter,wanderer,smart"
    )]
    pub strategies: String,
    /// Games to play.
    #[arg(long, default_value_t = 10_000)]
    pub games: u64,
    /// Players per game (2 to the map's cells: 16 on the seed's 4x4).
    #[arg(long, default_value_t = 16)]
    pub players: usize,
    #[command(flatten)]
    pub data: DataFlags,
    /// Dataset folder (created; an earlier run of the same command there is resumed).
    #[arg(long, default_value = "runs/loot-royale")]
    pub out: PathBuf,
    /// Games per chunk.
    #[arg(long, default_value_t = 1_000)]
    pub chunk_size: u64,
    #[command(flatten)]
    pub run: super::flags::Running,
}

/// `skirmish tournament loot` (LA-51).
impl DatasetCommand for TournamentFlags {
    type Sim = RoyaleTournament;
    const UNIT: &'static str = "games";
    fn build(&self, src: &crate::platform::sources::Sources) -> Result<RoyaleTournament, Error> {
        let f = self;
        let strategies = split_specs(&f.strategies)
            .iter()
            .map(|s| Strategy::parse(s).map_err(|e| format!("--strategies: {e}")))
            .collect::<Result<Vec<_>, _>>()?;
        refuse_repeats(
            "--strategies",
            &strategies.iter().map(|s| s.spec()).collect::<Vec<_>>(),
        )?;
        let (rules, catalogue) = f.data.load(src)?;
        let t = RoyaleTournament {
            strategies,
            players: f.players,
            rules,
            catalogue,
        };
        t.check()?;
        Ok(t)
    }
    fn job<'a>(
        &self,
        ctx: &crate::platform::context::Context,
        t: &'a RoyaleTournament,
    ) -> Result<Job<'a, RoyaleTournament>, Error> {
        let f = self;
        let specs: Vec<String> = t.strategies.iter().map(|s| s.spec()).collect();
        let chunk_size = ctx.paired_chunk(f.chunk_size, f.games);
        let mut command = format!(
            "skirmish tournament loot --strategies {} --games {} --players {} --seed {} --chunk-size {}",
            shell_quote(&specs.join(",")),
            f.games,
            f.players,
            f.run.seed,
            chunk_size
        );
        for (flag, p) in [("--rules", &f.data.rules), ("--items", &f.data.items)] {
            if let Some(p) = p {
                command.push_str(&shell_flag(flag, p.display()));
            }
        }
        let settings = serde_json::json!({
            "strategies": specs,
            "players": f.players,
            "rules": crate::games::changes::of_file(ctx.sources(), input::RULES, f.data.rules.as_deref()),
            "items": f.data.items,
        });
        let size = Size::of("--games", f.games, chunk_size);
        let record = Record::new(command, settings, f.data.files());
        f.run.job(t, size, f.out.clone(), record)
    }
}

/// A reading's name as a rules file writes it (`HalfUp` -> `half_up`).
fn snake(name: &str) -> String {
    let mut out = String::new();
    for (i, ch) in name.chars().enumerate() {
        if ch.is_uppercase() && i > 0 {
            out.push('_');
        }
        out.extend(ch.to_lowercase());
    }
    out
}

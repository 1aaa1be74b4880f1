//! `skirmish tournament clan-melee` (CM-30, CM-31).

use std::path::PathBuf;

use clap::Args;

use crate::games::clan_melee::clans;
use crate::games::clan_melee::engine::{DEFAULT_MAX_TURNS, Settings};
use crate::games::clan_melee::rules::Mode;
use crate::games::clan_melee::state::Field;
use crate::games::clan_melee::tournament::{CLASSIC_BUDGETS, ClanTournament, win_table};
use crate::platform::job::Job;

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
    /// Play each base budget exactly, without the classic 5% wiggle.
    #[arg(long)]
    pub no_wiggle: bool,
    /// Turns after which a melee stops, reported as a turn cap (CM-12).
    #[arg(long, default_value_t = DEFAULT_MAX_TURNS)]
    pub max_turns: u32,
    /// Master seed: melee m's randomness comes only from (seed, m).
    #[arg(long, default_value_t = 42)]
    pub seed: u64,
    /// Dataset folder (created; an earlier run of the same command there is resumed).
    #[arg(long, default_value = "runs/clan-melee")]
    pub out: PathBuf,
    /// Melees per chunk [default: a fifth of --melees, at least 1].
    #[arg(long)]
    pub chunk_size: Option<u64>,
    /// Worker threads (default: all cores). The output does not depend on it.
    #[arg(long)]
    pub threads: Option<usize>,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
}

fn budgets(s: &str) -> Result<Vec<i64>, String> {
    let v: Result<Vec<i64>, String> = s
        .split(',')
        .map(|b| {
            let t: String = b.trim().chars().filter(|&c| c != '_').collect();
            t.parse::<i64>()
                .ok()
                .filter(|&n| (1..=100_000_000).contains(&n))
                .ok_or_else(|| {
                    format!("--budgets: `{}` is not a budget from 1 to 100000000; e.g. --budgets 100,1000,10000", b.trim())
                })
        })
        .collect();
    let v = v?;
    if v.is_empty() {
        return Err("--budgets: give at least one budget".into());
    }
    Ok(v)
}

/// Builds the tournament the flags describe (every check before anything is written).
pub fn build(f: &ClanMeleeFlags) -> Result<ClanTournament, String> {
    let mode = Mode::parse(&f.mode)?;
    let budgets = match &f.budgets {
        Some(b) => budgets(b)?,
        None => CLASSIC_BUDGETS.to_vec(),
    };
    if f.melees == 0 {
        return Err("--melees: play at least 1 melee per budget".into());
    }
    if f.max_turns == 0 {
        return Err("--max-turns: allow at least 1 turn".into());
    }
    let clans = match &f.clans {
        None => clans::reference(),
        Some(list) => {
            let paths: Vec<PathBuf> = list.split(',').map(|p| PathBuf::from(p.trim())).collect();
            clans::load(&paths).map_err(|e| e.to_string())?
        }
    };
    let field = Field::new(clans).map_err(|e| format!("--clans: {e}"))?;
    Ok(ClanTournament {
        field,
        budgets,
        melees: f.melees,
        settings: Settings {
            mode,
            max_turns: f.max_turns,
        },
        wiggle: !f.no_wiggle,
    })
}

/// `skirmish tournament clan-melee`.
pub fn tournament(f: &ClanMeleeFlags) -> Result<String, String> {
    let t = build(f)?;
    let encode = super::simulate::encoder()?;
    let chunk_size = f.chunk_size.unwrap_or((f.melees / 5).max(1));
    if chunk_size == 0 {
        return Err("--chunk-size: at least 1".into());
    }
    let files: Vec<String> = t.field.clans.iter().map(|c| c.file.clone()).collect();
    let command = format!(
        "skirmish tournament clan-melee --mode {} --budgets {} --melees {} --seed {} --chunk-size {} --max-turns {}{}{}",
        t.settings.mode.name(),
        t.budgets
            .iter()
            .map(|b| b.to_string())
            .collect::<Vec<_>>()
            .join(","),
        t.melees,
        f.seed,
        chunk_size,
        t.settings.max_turns,
        if t.wiggle { "" } else { " --no-wiggle" },
        f.clans
            .as_ref()
            .map(|c| format!(" --clans '{c}'"))
            .unwrap_or_default(),
    );
    let settings = serde_json::json!({
        "mode": t.settings.mode.name(),
        "budgets": t.budgets,
        "melees_per_budget": t.melees,
        "wiggle": t.wiggle,
        "max_turns": t.settings.max_turns,
        "clans": t.field.clans.iter().map(|c| &c.name).collect::<Vec<_>>(),
        "clan_files": files,
    });
    let job = Job {
        sim: &t,
        settings,
        seed: f.seed,
        matches: t.matches(),
        chunk_size,
        out: f.out.clone(),
        threads: f
            .threads
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
        shard: None,
        progress: !f.quiet,
        command,
        experiment: None,
    };
    job.check()?;
    let (report, ds) = job.execute(encode)?;
    let summary = job.summary(&report, &ds).replace("matches", "melees");
    // The per-budget groups are in the win table; keep the summary's header lines.
    let head: String = summary.lines().take(3).map(|l| format!("{l}\n")).collect();
    let mut s = format!("mode: {}\n{head}", t.settings.mode.name());
    s.push_str(&win_table(&t, &report.tally));
    Ok(s)
}

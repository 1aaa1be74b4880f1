//! `skirmish rumble ...`

use crate::error::Error;
use std::path::PathBuf;

use clap::Args;

use crate::games::auto_rumble::input::scenario::{self, Scenario};
use crate::games::auto_rumble::trace::tell;
use crate::platform::narration::Told;
use crate::rng::{Stream, stream_rng};

#[derive(Args, Debug)]
pub struct BattleArgs {
    /// Scenario file (TOML). Without it, the built-in experiments/sample-round-1.toml.
    pub file: Option<PathBuf>,
    /// Print JSON Lines: each alive hero's Energy after each round, then the result.
    #[arg(long, conflicts_with = "narrate")]
    pub trace: bool,
    /// Tell the battle round by round, as a host would post it.
    #[arg(long)]
    pub narrate: bool,
    /// Power file the heroes' powers come from (default: the built-in six sample powers).
    #[arg(long, value_name = "FILE", alias = "power-file")]
    pub powers: Option<PathBuf>,
    /// Rules file: the battle's numbers (experiments/auto-rumble/rules.toml lists them) [default:
    /// the seed's]; the battle is then played by the data reference, as with --powers.
    #[arg(long, value_name = "FILE")]
    pub rules: Option<PathBuf>,
    /// Seed for base initiatives the file does not give (overrides `battle.seed`).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Round limit (overrides `battle.max_rounds`).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub max_rounds: Option<u32>,
    /// Hero capacity (overrides `battle.capacity`).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=(1 << 20)))]
    pub capacity: Option<u64>,
    #[command(flatten)]
    pub style: super::flags::NarrationFormat,
}

/// The rules' worked sample, built in so `skirmish rumble play` needs no file.
pub const SAMPLE_ROUND_1: &str = include_str!("../../experiments/sample-round-1.toml");

pub(super) fn battle(args: BattleArgs) -> Result<String, Error> {
    let style = args.style.style(args.trace)?;
    let told = Told::of(args.trace, args.narrate, style);
    if args.powers.is_some() || args.rules.is_some() {
        return battle_with_powers(&args, told);
    }
    let mut sc: Scenario = match &args.file {
        Some(path) => scenario::load(&crate::platform::sources::Sources::disk(), path)?,
        None => scenario::parse(SAMPLE_ROUND_1, "experiments/sample-round-1.toml (built in)")?,
    };
    let n = sc.heroes.len();
    apply_overrides(&args, n, &mut sc.seed, &mut sc.max_rounds, &mut sc.capacity)?;
    Ok(tell::tell(&sc, told))
}

/// `--powers FILE` or `--rules FILE`: the heroes' powers come from a power file (or the built-in
/// six), the numbers from a rules file (or the seed's). The battle is played by the data
/// reference model (every clause of the format, any rules; one battle needs no speed), so
/// reactions and effects on other heroes work too ([`tell::tell_with`]).
fn battle_with_powers(args: &BattleArgs, told: Told) -> Result<String, Error> {
    use crate::games::auto_rumble::powers::catalogue::Catalogue;
    let cat = match &args.powers {
        Some(p) => Catalogue::new(crate::games::auto_rumble::powers::file::load(
            &crate::platform::sources::Sources::disk(),
            p,
        )?),
        None => Catalogue::builtin(),
    };
    let rules = args.rules.as_ref().map(|p| p.display().to_string());
    let cat = cat.with_rules_file(&crate::platform::sources::Sources::disk(), rules.as_deref())?;
    let mut sc = match &args.file {
        Some(path) => scenario::load_with(&crate::platform::sources::Sources::disk(), path, &cat)?,
        None => scenario::parse_with(
            SAMPLE_ROUND_1,
            "experiments/sample-round-1.toml (built in)",
            &cat,
        )?,
    };
    let n = sc.heroes.len();
    apply_overrides(args, n, &mut sc.seed, &mut sc.max_rounds, &mut sc.capacity)?;
    let flag = match (&args.capacity, &args.file) {
        (None, Some(f)) => format!("{}: battle.capacity", f.display()),
        _ => "--capacity".to_string(),
    };
    let held = sc.heroes.iter().flat_map(|h| {
        h.loadout.clauses[..h.loadout.n_clauses as usize]
            .iter()
            .map(|c| c.power)
    });
    cat.check_work(held, sc.capacity, sc.max_rounds, &flag)?;
    Ok(tell::tell_with(&cat, &sc, told))
}

/// `--seed`, `--max-rounds` and `--capacity` over the scenario's own settings.
fn apply_overrides(
    args: &BattleArgs,
    heroes: usize,
    seed: &mut u64,
    max_rounds: &mut u32,
    capacity: &mut usize,
) -> Result<(), Error> {
    if let Some(s) = args.seed {
        *seed = s;
    }
    if let Some(m) = args.max_rounds {
        *max_rounds = m;
    }
    if let Some(c) = args.capacity {
        if (c as usize) < heroes {
            return Err(Error::Input(format!(
                "--capacity {c} is smaller than the scenario's {heroes} heroes: raise it (AR-15)"
            )));
        }
        *capacity = c as usize;
    }
    Ok(())
}

/// `skirmish rumble check FILE`: a power file (`[[power]]` or `include`) is checked as
/// `powers check` does; anything else is read as a scenario and its heroes printed back.
pub(super) fn check(path: &std::path::Path) -> Result<String, Error> {
    let text = crate::games::file_error::read(
        &crate::platform::sources::Sources::disk(),
        path,
        "Auto Rumble file",
    )?;
    let table: Option<toml::Table> = toml::from_str(&text).ok();
    let is_power_file = table
        .as_ref()
        .is_some_and(|t| t.contains_key("power") || t.contains_key("include"));
    if is_power_file {
        return super::powers::check(path);
    }
    // A rules file (issue 51) reads back as its changes from the seed's values.
    if crate::games::auto_rumble::input::rules::is_rules(&text) {
        let r = crate::games::auto_rumble::input::rules::load(
            &crate::platform::sources::Sources::disk(),
            path,
        )?;
        return Ok(crate::games::changes::rules_file_told(path, &r.changes()));
    }
    let sc = scenario::load(&crate::platform::sources::Sources::disk(), path)?;
    let lineup = sc.lineup();
    let mut out = format!(
        "{}: a scenario of {} heroes (seed {}, at most {} rounds, capacity {})\n",
        path.display(),
        sc.heroes.len(),
        sc.seed,
        sc.max_rounds,
        sc.capacity
    );
    let initiative = lineup.initiatives(&mut stream_rng(sc.seed, 0, Stream::Initiative));
    out.push_str(&tell::header(&lineup, &initiative));
    Ok(out)
}

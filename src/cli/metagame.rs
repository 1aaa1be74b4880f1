//! `skirmish analyze rumble metagame` (issue 54, AR-71): the bidding strategies as a game.

use crate::error::Error;
use crate::platform::context::Done;
use std::path::{Path, PathBuf};

use clap::Args;

use super::flags::{Record, Size, split_specs};
use crate::games::auto_rumble::analysis::metagame::{self, MetaGame};
use crate::games::auto_rumble::simulation::tournament::{Tournament, ValueSource};
use crate::platform::command::{Analysis, Findings, Studied};
use crate::platform::runner::Encoder;
use crate::platform::tally::thousands;

#[derive(Args, Debug, Clone)]
pub struct MetagameFlags {
    /// Strategies, comma-separated, each `name` or `name(param=value,...)`
    /// [default value,hoarder,sniper,spreader,random,outbid,planner].
    #[arg(long)]
    pub strategies: Option<String>,
    /// Players per game (3-12): every multiset of this many strategies is a profile.
    #[arg(long, default_value_t = 3)]
    pub players: usize,
    /// Games per profile (game i of every profile shares its seed).
    #[arg(long, default_value_t = 2_000)]
    pub games: u64,
    /// Power file the pool draws from [default: the built-in six sample powers].
    #[arg(long, value_name = "FILE")]
    pub powers: Option<String>,
    /// Rules file: the battle's and the game's numbers (experiments/auto-rumble/rules.toml lists
    /// them) [default: the seed's].
    #[arg(long, value_name = "FILE")]
    pub rules: Option<String>,
    /// Precision of the coin values the value-aware strategies bid from, measured now.
    #[arg(long, default_value_t = 2.0)]
    pub value_precision: f64,
    /// Starting mixes of the equilibrium search (the uniform mix and random ones).
    #[arg(long, default_value_t = 32)]
    pub starts: usize,
    /// Payoff tables resampled by game (blocks of games, the same for every profile) to test the answer.
    #[arg(long, default_value_t = 200)]
    pub resamples: usize,
    /// Skip the best-response searches (the equilibrium and regrets only).
    #[arg(long)]
    pub no_search: bool,
    /// Iterations of the best-response search (cross-entropy, paired blocks).
    #[arg(long, default_value_t = 8)]
    pub search_iterations: usize,
    /// Candidates per iteration.
    #[arg(long, default_value_t = 16)]
    pub search_population: usize,
    /// Games per candidate per iteration (one block of common random numbers).
    #[arg(long, default_value_t = 400)]
    pub search_games: u64,
    /// Fresh games the best responses found are measured on (issue 63: 4,000 read 91.2% where
    /// 20,000 measured 89.9%; a search's winner is measured on far more games than chose it).
    #[arg(long, default_value_t = 20_000)]
    pub fresh_games: u64,
    /// Times the best response is added to the strategies and the game solved again.
    #[arg(long, default_value_t = 1)]
    pub iterations: usize,
    /// Output folder: the answer, equilibrium.parquet and summary.txt; the profiles' games are
    /// the dataset in its `profiles/` (resumed by the same command).
    #[arg(long, default_value = "runs/metagame")]
    pub out: PathBuf,
    /// Games per chunk.
    #[arg(long, default_value_t = 1_000)]
    pub chunk_size: u64,
    #[command(flatten)]
    pub run: super::flags::Running,
}

const COMMAND: &str = "analyze rumble metagame";

impl Analysis for MetagameFlags {
    const NAME: &'static str = COMMAND;
    // The profiles' games are a dataset the folder keeps.
    const BESIDE: bool = true;
    fn out(&self) -> Option<&Path> {
        Some(&self.out)
    }
    fn study(
        &self,
        ctx: &crate::platform::context::Context,
        encode: Encoder,
    ) -> Result<Studied, Error> {
        metagame(ctx, self, encode)
    }
}

fn metagame(
    ctx: &crate::platform::context::Context,
    f: &MetagameFlags,
    encode: Encoder,
) -> Result<Studied, Error> {
    let specs = split_specs(
        f.strategies
            .as_deref()
            .unwrap_or(super::tournament::DEFAULT_STRATEGIES),
    );
    if !(f.value_precision > 0.0 && f.value_precision.is_finite()) {
        return Err("--value-precision: give a positive number of coins, e.g. 2".into());
    }
    if f.resamples > 100_000 || f.starts == 0 || f.starts > 10_000 {
        return Err("--starts: 1 to 10,000; --resamples: 0 to 100,000".into());
    }
    let t = Tournament::new(
        crate::games::auto_rumble::simulation::tournament::Files {
            src: ctx.sources(),
            powers: f.powers.as_deref(),
            rules: f.rules.as_deref(),
        },
        &specs,
        Some(f.players),
        ValueSource::Measured {
            precision: f.value_precision,
            seed: f.run.seed,
        },
        crate::games::auto_rumble::rules::DEFAULT_MAX_ROUNDS,
        256,
    )?;
    let mg = MetaGame::new(t, f.games)?;
    let claim = crate::platform::dataset::claim_output_folder(&f.out, COMMAND)?;
    f.run.sharding.shard()?;
    let names = mg.t.names.clone();
    let command = format!(
        "skirmish analyze rumble metagame --strategies {} --players {} --games {} --value-precision {} --starts {} --resamples {} --seed {} --chunk-size {}{}{}{}",
        super::flags::shell_quote(&names.join(",")),
        f.players,
        f.games,
        f.value_precision,
        f.starts,
        f.resamples,
        f.run.seed,
        f.chunk_size,
        f.powers
            .as_ref()
            .map(|p| super::flags::shell_flag("--powers", p))
            .unwrap_or_default(),
        f.rules
            .as_ref()
            .map(|p| super::flags::shell_flag("--rules", p))
            .unwrap_or_default(),
        if f.no_search {
            " --no-search".to_string()
        } else {
            format!(
                " --search-iterations {} --search-population {} --search-games {} --fresh-games {} --iterations {}",
                f.search_iterations,
                f.search_population,
                f.search_games,
                f.fresh_games,
                f.iterations
            )
        },
    );
    // The folder is this command's from the start, so a shard's partial run is resumed by the
    // next, and no other command writes here.
    crate::platform::dataset::create_folder(&f.out)?;
    crate::platform::dataset::atomic_write(
        &f.out,
        ".skirmish-output",
        format!("{COMMAND}\n").as_bytes(),
    )?;
    let profiles_dir = f.out.join("profiles");
    let inputs = f
        .powers
        .as_deref()
        .map(|p| crate::games::auto_rumble::powers::file::files(ctx.sources(), Path::new(p)))
        .unwrap_or_default()
        .into_iter()
        .chain(f.rules.as_deref().map(std::path::PathBuf::from))
        .collect();
    let mut settings = serde_json::json!({
        "strategies": names,
        "players": f.players,
        "games_per_profile": f.games,
        "profiles": mg.profiles.len(),
        "power_file": f.powers,
        "values": mg.t.values,
        "values_from": mg.t.values_from,
    });
    if f.rules.is_some() {
        settings["rules"] = mg.t.cat.rules.changes().into();
    }
    let size = Size::of("--games (x profiles)", mg.matches(), f.chunk_size);
    let record = Record::new(command.clone(), settings, inputs);
    let job = f.run.job(&mg, size, profiles_dir.clone(), record)?;
    job.check()?;
    let (report, ds) = match job.execute(ctx, encode)? {
        Done::Ran(done) => done,
        Done::Replayed => return Ok(Studied::Said(String::new())),
    };
    let head = job.summary_head(&report, &ds, "games");
    let tally = crate::platform::dataset::merged_tally(&profiles_dir)?;
    if tally.matches < mg.matches() {
        return Ok(Studied::Said(format!(
            "{head}\nthe profiles' games are not all played yet ({} of {}): this was one shard, or a run stopped early. Run the same command without --shard to finish and solve.\n",
            thousands(tally.matches),
            thousands(mg.matches())
        )));
    }
    let payoffs = mg.payoffs(&tally)?;
    let solved = metagame::solve(&payoffs, f.starts, f.resamples, f.run.seed);
    let responses = if f.no_search {
        None
    } else {
        Some(search(ctx.sources(), &mg, &solved, f, &specs)?)
    };
    let mut answer = metagame::answer(
        &mg,
        &payoffs,
        &solved,
        responses.as_ref(),
        f.run.seed,
        &command,
    );
    if f.rules.is_some() {
        // What a what-if of the meta-game tells as changed (issue 63): the rules' numbers.
        answer.provenance.settings["rules"] = mg.t.cat.rules.changes().into();
    }
    Ok(Studied::Whole(Box::new(Findings {
        tables: vec![
            metagame::equilibrium_table(&mg, &solved),
            metagame::payoff_table(&mg, &payoffs),
        ],
        replicates: None,
        answer,
        files: Vec::new(),
        summary: format!(
            "skirmish {COMMAND}, seed {}: {} games\n",
            f.run.seed,
            thousands(mg.matches())
        ),
        head: format!("{head}\n"),
        tail: format!("; the games: {}", profiles_dir.display()),
        hold: vec![Box::new(claim)],
    })))
}

/// The best responses: to the equilibrium mix, to each strategy alone, and the iterations that
/// add the response to the strategies and solve again.
fn search(
    src: &crate::platform::sources::Sources,
    mg: &MetaGame,
    solved: &metagame::Solved,
    f: &MetagameFlags,
    specs: &[String],
) -> Result<metagame::Responses, Error> {
    if f.search_iterations == 0
        || f.search_population < 2
        || f.search_games == 0
        || f.fresh_games < 2
    {
        return Err("--search-iterations, --search-games: at least 1; --search-population, --fresh-games: at least 2".into());
    }
    let budget = metagame::SearchBudget {
        iterations: f.search_iterations,
        population: f.search_population,
        games: f.search_games,
        fresh: f.fresh_games,
    };
    let k = mg.t.names.len();
    let to_mix = metagame::best_response(
        mg,
        &solved.equilibria[0].x,
        "the equilibrium mix".into(),
        &metagame::SHARE_START,
        budget,
        f.run.seed,
    );
    let exploit = (0..k)
        .map(|s| {
            let mut field = vec![0.0; k];
            field[s] = 1.0;
            // From the response to the mix: a strong start, so a search cannot end below it.
            metagame::best_response(
                mg,
                &field,
                mg.t.names[s].clone(),
                &to_mix.params,
                budget,
                f.run.seed ^ (s as u64 + 1),
            )
        })
        .collect();
    // Iterations: the response joins the strategies; every profile is played again (in memory)
    // and the grown game solved.
    let mut sequence = Vec::new();
    let mut grown: Vec<String> = specs.to_vec();
    let mut br = to_mix.spec.clone();
    for it in 0..f.iterations {
        grown.push(br.clone());
        let t = Tournament::new(
            crate::games::auto_rumble::simulation::tournament::Files {
                src,
                powers: f.powers.as_deref(),
                rules: f.rules.as_deref(),
            },
            &grown,
            Some(f.players),
            ValueSource::Given {
                values: mg.t.values.clone(),
                from: mg.t.values_from.clone(),
            },
            crate::games::auto_rumble::rules::DEFAULT_MAX_ROUNDS,
            256,
        )?;
        let g = MetaGame::new(t, f.games)?;
        let tally = metagame::play_all(&g, f.run.seed);
        let p = g.payoffs(&tally)?;
        let s = metagame::solve(&p, f.starts, 0, f.run.seed);
        let eq = &s.equilibria[0];
        let mix: Vec<String> = eq
            .support(0.01)
            .iter()
            .map(|&i| format!("{} {:.1}%", g.t.names[i], 100.0 * eq.x[i]))
            .collect();
        sequence.push(format!(
            "with {} added, the equilibrium is {}",
            br,
            mix.join(", ")
        ));
        if it + 1 < f.iterations {
            br = metagame::best_response(
                &g,
                &eq.x,
                "the grown equilibrium".into(),
                &metagame::SHARE_START,
                budget,
                f.run.seed + it as u64 + 1,
            )
            .spec;
        }
    }
    Ok(metagame::Responses {
        to_mix,
        exploit,
        sequence,
        fresh: f.fresh_games,
    })
}

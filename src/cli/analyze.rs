//! `skirmish analyze rumble powers`: every power's coin value, win-rate effect, pairs (AR-44).

use crate::error::Error;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use super::flags::parse_range;
use crate::games::auto_rumble::analysis::power_value::{self, PowerValue, ValueSettings};
use crate::platform::command::{Analysis, Findings, Studied};
use crate::platform::runner::Encoder;
use crate::platform::tally::thousands;

#[derive(Args, Debug, Clone, Default)]
pub struct PowerFlags {
    /// Power file whose powers are valued (and which the field draws from) [default: the
    /// built-in six sample powers].
    #[arg(long, value_name = "FILE", alias = "power-file")]
    pub powers: Option<String>,
    /// Value only this power; repeat for several [default: every power of the file].
    #[arg(long, value_name = "NAME")]
    pub power: Vec<String>,
    /// A file of your own new powers, valued against the catalogue (--powers) as the field and
    /// ranked among its powers on the same rosters; no `include` needed.
    #[arg(long, value_name = "FILE")]
    pub candidate: Option<String>,
    /// Heroes per battle, MIN..MAX [default 3..8].
    #[arg(long, allow_hyphen_values = true)]
    pub heroes: Option<String>,
    /// Every hero's unspent coins as drawn, MIN..MAX [default -30..60].
    #[arg(long, allow_hyphen_values = true)]
    pub coins: Option<String>,
    /// Powers per field hero (slots 2 and up), MIN..MAX [default 0..2].
    #[arg(long, allow_hyphen_values = true)]
    pub field_powers: Option<String>,
    /// Strength of each field power, MIN..MAX [default 1..30].
    #[arg(long, allow_hyphen_values = true)]
    pub field_strength: Option<String>,
    /// Strengths at which powers that read their strength are valued [default 10,20,40].
    #[arg(long, value_delimiter = ',', allow_hyphen_values = true)]
    pub strengths: Vec<i32>,
    /// Coin offsets of the win-rate-versus-coins curve
    /// [default -60,-45,-30,-20,-10,10,20,30,45,60,80,100,125,150].
    #[arg(long, value_delimiter = ',', allow_hyphen_values = true)]
    pub grid: Vec<i32>,
    /// Target 95% half-width of every coin value, in coins [default 1].
    #[arg(long)]
    pub precision: Option<f64>,
    /// Battle budget: stop here if the precision is not reached [default 50,000,000].
    #[arg(long)]
    pub max_battles: Option<u64>,
    /// Rosters between checks of the precision [default 2,000].
    #[arg(long)]
    pub batch: Option<u64>,
    /// Pairs of powers held together, sampled per roster [default 8; 0: none].
    #[arg(long)]
    pub synergy: Option<u32>,
    /// (power, rival's power) pairs sampled per roster [default 8; 0: none].
    #[arg(long)]
    pub counter: Option<u32>,
    #[command(flatten)]
    pub battle: super::simulate::BattleFlags,
    /// Output folder for the Parquet tables [default runs/powers]. An earlier run of the same
    /// analysis there is continued (a larger --max-battles or finer --precision plays on).
    #[arg(long)]
    pub out: Option<PathBuf>,
    #[command(flatten)]
    pub run: super::flags::Running,
}

impl PowerFlags {
    pub fn settings(&self) -> Result<ValueSettings, Error> {
        let mut s = ValueSettings {
            power_file: self.powers.clone(),
            candidates: self.candidate.clone(),
            powers: self.power.iter().map(|p| p.trim().to_string()).collect(),
            ..ValueSettings::default()
        };
        if let Some(t) = &self.heroes {
            s.heroes = parse_range("heroes", t)?;
        }
        if let Some(t) = &self.coins {
            s.coins = parse_range("coins", t)?;
        }
        if let Some(t) = &self.field_powers {
            s.field_powers = parse_range("field-powers", t)?;
        }
        if let Some(t) = &self.field_strength {
            s.field_strength = parse_range("field-strength", t)?;
        }
        if !self.strengths.is_empty() {
            s.strengths = self.strengths.clone();
        }
        if !self.grid.is_empty() {
            s.grid = self.grid.clone();
        }
        if let Some(p) = self.precision {
            s.precision = p;
        }
        if let Some(m) = self.max_battles {
            s.max_battles = m;
        }
        if let Some(b) = self.batch {
            s.batch = b;
        }
        if let Some(m) = self.synergy {
            s.synergy_per_roster = m;
        }
        if let Some(m) = self.counter {
            s.counter_per_roster = m;
        }
        self.battle
            .apply(&mut s.max_rounds, &mut s.capacity, &mut s.rules_file);
        Ok(s)
    }
}

fn bar(max: u64, show: bool) -> ProgressBar {
    if !show {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(max), ProgressDrawTarget::stderr_with_hz(4));
    bar.set_style(
        ProgressStyle::with_template(
            "{spinner} [{elapsed_precise}] {wide_bar} {human_pos}/{human_len} battles (budget)  {msg}",
        )
        .expect("valid template")
        .progress_chars("=> "),
    );
    bar.enable_steady_tick(Duration::from_millis(250));
    bar
}

impl Analysis for PowerFlags {
    const NAME: &'static str = POWERS;
    fn out(&self) -> Option<&Path> {
        Some(self.out.as_deref().unwrap_or(Path::new(DEFAULT_OUT)))
    }
    fn study(&self, ctx: &crate::platform::context::Context, _: Encoder) -> Result<Studied, Error> {
        powers(ctx, self)
    }
}

const DEFAULT_OUT: &str = "runs/powers";

/// `skirmish analyze rumble powers`.
fn powers(ctx: &crate::platform::context::Context, flags: &PowerFlags) -> Result<Studied, Error> {
    let settings = flags.settings()?;
    let v = PowerValue::new(ctx.sources(), settings)?;
    // A budget below one roster's battles measured nothing and exited 0 (issue 53).
    if v.settings.max_battles < v.battles_per_roster() {
        return Err(Error::Input(format!(
            "--max-battles {}: one roster here plays {} battles (one per arm); give at least that",
            v.settings.max_battles,
            v.battles_per_roster()
        )));
    }
    let seed = flags.run.seed;
    let out = flags
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from(DEFAULT_OUT));
    let threads = super::flags::threads(flags.run.threads)?;
    // Issue 62: the sums grow as the square of the powers; fewer threads where they do not fit,
    // a refusal naming the fix where not even one does, before anything is written.
    let threads = {
        use crate::platform::memory;
        let (per_thread, fixed, what) = v.memory();
        let avail = memory::available()?;
        if let Some(a) = avail
            && fixed.saturating_add(per_thread) > a
        {
            return Err(Error::Input(format!(
                "{what} need about {} of memory and {} is available: give fewer powers or candidates (their pairs grow as the square of their number), or free memory{}",
                memory::show(fixed.saturating_add(per_thread)),
                memory::show(a),
                if std::env::var(memory::MEMORY_VAR).is_ok() {
                    format!(" (or raise {})", memory::MEMORY_VAR)
                } else {
                    String::new()
                }
            )));
        }
        let fit = memory::fit(
            per_thread,
            threads,
            avail.map(|a| a.saturating_sub(fixed)),
            &what,
        )?;
        if let Some(note) = fit.note {
            eprintln!("{note}");
        }
        fit.threads
    };
    // The folder rule (new, empty, or an earlier `analyze powers` output) before any work.
    let shard = flags.run.sharding.shard()?;
    // A question's point (issue 78) wants the answer only: no folder is claimed or read.
    let memory = ctx.is_in_memory();
    if memory && shard.is_some() {
        return Err("a question's point plays whole: give no --shard".into());
    }
    let claim = match shard {
        _ if memory => None,
        None => Some(crate::platform::dataset::claim_output_folder(&out, POWERS)?),
        Some(s) => Some(crate::platform::dataset::claim_shard(
            &out,
            &format!("shard-{}-of-{}", s.index, s.count),
            POWERS,
        )?),
    };
    let inputs = super::flags::input_digests(
        ctx.sources(),
        flags
            .powers
            .iter()
            .chain(flags.candidate.iter())
            .chain(flags.battle.rules.iter()),
    );
    // Issue 51: an earlier run of this analysis in the folder is continued, not played again.
    let identity = v.identity(seed, &inputs);
    let pool = crate::platform::runner::pool(threads)?;
    let per = v.battles_per_roster();
    let pb = bar(v.settings.max_battles / per * per, !flags.run.quiet);
    if let Some(sh) = shard {
        let batches = pool.install(|| v.run_shard(seed, sh.index, sh.count, |n| pb.inc(n * per)));
        pb.finish_and_clear();
        let rosters: u64 = batches.values().map(|b| b.0).sum();
        crate::platform::dataset::mark_output_folder(&out, POWERS)?;
        let dir = out.join(crate::platform::ledger::SHARDS);
        crate::platform::dataset::create_folder(&dir)?;
        let name = format!("{}-of-{}.json", sh.index, sh.count);
        let stored = serde_json::json!({"identity": identity, "batches": batches});
        crate::platform::dataset::atomic_write(
            &dir,
            &name,
            crate::platform::digest::sealed_text(&stored).as_bytes(),
        )?;
        return Ok(Studied::Said(format!(
            "shard {sh}: {} rosters ({} battles) of the budget's batches played, written to {}. When every shard is done, run the same command without --shard to finish (it replays the stopping rule over the shards' batches and plays whatever is missing)\n",
            thousands(rosters),
            thousands(rosters * per),
            dir.join(&name).display()
        )));
    }
    let (mut from, mut ready) = if memory {
        (None, Default::default())
    } else {
        (
            v.kept(&out, &identity)?,
            power_value::shard_batches(&out, &identity)?,
        )
    };
    // `verify` (issue 62): the folder keeps one sum over all its rosters, so only playing them
    // all again checks it; within a time limit the tables are rebuilt from it and compared.
    if let Some(r) = ctx.take_replay() {
        let kept = from.as_ref().map_or(0, |f| f.0);
        ctx.replay_says(Ok(if r.budget.is_none() {
            (from, ready) = (None, Default::default());
            format!(
                "replayed all {} rosters ({} battles) from their seeds",
                thousands(kept),
                thousands(kept * v.battles_per_roster())
            )
        } else {
            format!(
                "rosters not replayed: the folder keeps one sum over all {} of them, so only --replay-all ({} battles) replays them",
                thousands(kept),
                thousands(kept * v.battles_per_roster())
            )
        }));
    }
    let already = from.as_ref().map_or(0, |f| f.0);
    let target = v.settings.precision;
    let start = Instant::now();
    let (est, rosters, sums) = pool.install(|| {
        v.run_from(seed, from, &ready, |p| {
            pb.set_position(p.battles);
            pb.set_message(if p.worst.is_finite() {
                format!("widest coin interval ±{:.2} (target ±{target})", p.worst)
            } else {
                format!("some coin value not yet settled (target ±{target})")
            });
        })
    });
    let secs = start.elapsed().as_secs_f64();
    let from_shards: u64 = ready.range(already..rosters).map(|(_, (n, _))| *n).sum();
    let played_now = (rosters - already - from_shards.min(rosters - already)) * per;
    pb.finish_and_clear();
    let head = format!(
        "power values: {} powers, {} rosters x {} battles = {} battles, {}in {:.1} s ({} battles/s on {} threads){}\n",
        v.powers.len(),
        thousands(est.rosters),
        per,
        thousands(est.battles),
        if already > 0 {
            format!("{} of them played now ", thousands(played_now))
        } else {
            String::new()
        },
        secs,
        thousands((played_now as f64 / secs.max(1e-9)) as u64),
        threads,
        if est.capped > 0 {
            format!(
                "; {} battles hit the hero capacity (AR-15)",
                thousands(est.capped)
            )
        } else {
            String::new()
        }
    );
    let state = serde_json::json!({"identity": identity, "rosters": rosters, "sums": sums});
    // The answer and its report (issue 50), written with the tables in one step.
    let mut answer = v.answer(&est, seed, &super::flags::command_line(ctx), inputs);
    // What a what-if of the analysis tells as changed (issue 63): the rules' numbers that
    // differ from the seed's, not the file's path.
    if let Some(o) = answer.provenance.settings.as_object_mut() {
        o.remove("rules_file");
        o.insert("rules".into(), v.cat.rules.changes().into());
    }
    let continued = if already > 0 {
        format!(
            "continued: {} rosters were in {} already; {} more played\n",
            thousands(already),
            out.display(),
            thousands(rosters - already)
        )
    } else {
        String::new()
    };
    // The folder's summary leaves out the time and threads: its bytes depend only on the
    // settings and the seed (a continued run ends as one long run).
    Ok(Studied::Whole(Box::new(Findings {
        // What a what-if of this analysis pairs by (issue 63): the folder keeps one sum.
        replicates: v.replicates(&sums, seed),
        answer,
        tables: v.tables(&est),
        files: vec![(
            power_value::STATE.to_string(),
            crate::platform::digest::sealed_text(&state).into_bytes(),
        )],
        summary: format!(
            "skirmish analyze powers, seed {seed}: {} rosters, {} battles\n",
            thousands(est.rosters),
            thousands(est.battles)
        ),
        head: format!("{continued}{head}"),
        tail: String::new(),
        hold: vec![Box::new(claim)],
    })))
}

const POWERS: &str = "analyze powers";

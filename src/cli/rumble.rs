//! `skirmish rumble ...`

use std::fmt::Write as _;

use std::path::PathBuf;

use clap::Args;

use crate::games::auto_rumble::input::scenario::{self, Scenario};
use crate::games::auto_rumble::trace::hand::{JsonTrace, Narrator, Silent};
use crate::games::auto_rumble::{EndReason, Kernel, Lineup, Outcome, rules};
use crate::platform::sink::Sink;
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

pub(super) fn battle(args: BattleArgs) -> Result<String, String> {
    let style = args.style.style(args.trace)?;
    if args.powers.is_some() || args.rules.is_some() {
        return battle_with_powers(&args);
    }
    let mut sc: Scenario = match &args.file {
        Some(path) => scenario::load(&crate::platform::sources::Sources::disk(), path)
            .map_err(|e| e.to_string())?,
        None => scenario::parse(SAMPLE_ROUND_1, "experiments/sample-round-1.toml (built in)")
            .map_err(|e| e.to_string())?,
    };
    let n = sc.heroes.len();
    apply_overrides(&args, n, &mut sc.seed, &mut sc.max_rounds, &mut sc.capacity)?;
    let lineup = sc.lineup();
    let initiative = lineup.initiatives(&mut stream_rng(sc.seed, 0, Stream::Initiative));
    let mut kernel = Kernel::new(sc.capacity);

    // A trace or a narration is streamed as the battle goes (any length, bounded memory).
    if args.trace {
        let mut t = JsonTrace::writing_to(&lineup.names, Sink::stdout());
        let o = kernel.run(&lineup.builds, &initiative, sc.max_rounds, &mut t);
        t.finish(o.winner, o.rounds, o.capped);
        return Ok(t.out.finish());
    }
    let mut text = header(&lineup, &initiative);
    if args.narrate {
        let mut out = Sink::stdout().styled(style);
        out.push_str(&text);
        let mut n = Narrator::writing_to(&lineup.names, out);
        let o = kernel.run(&lineup.builds, &initiative, sc.max_rounds, &mut n);
        let mut out = n.out;
        out.push('\n');
        out.push_str(&verdict(&lineup, &o, &kernel));
        return Ok(out.finish());
    } else {
        let o = kernel.run(&lineup.builds, &initiative, sc.max_rounds, &mut Silent);
        text.push_str(&verdict(&lineup, &o, &kernel));
    }
    Ok(crate::platform::narration::restyle(style, &text))
}

/// `--powers FILE` or `--rules FILE`: the heroes' powers come from a power file (or the built-in
/// six), the numbers from a rules file (or the seed's). The battle is played by the data
/// reference model (every clause of the format, any rules; one battle needs no speed), so
/// reactions and effects on other heroes work too; `--narrate` tells it from the reference's
/// events ([`crate::games::auto_rumble::trace::data`]).
fn battle_with_powers(args: &BattleArgs) -> Result<String, String> {
    use crate::games::auto_rumble::powers::catalogue::Catalogue;
    use crate::games::auto_rumble::reference::data;
    use crate::games::auto_rumble::trace::data::{Event, Renderer};
    use crate::games::auto_rumble::trace::hand::json_str;
    let cat = match &args.powers {
        Some(p) => Catalogue::new(
            crate::games::auto_rumble::powers::file::load(
                &crate::platform::sources::Sources::disk(),
                p,
            )
            .map_err(|e| e.to_string())?,
        ),
        None => Catalogue::builtin(),
    };
    let rules = args.rules.as_ref().map(|p| p.display().to_string());
    let cat = cat.with_rules_file(&crate::platform::sources::Sources::disk(), rules.as_deref())?;
    let mut sc = match &args.file {
        Some(path) => scenario::load_with(&crate::platform::sources::Sources::disk(), path, &cat)
            .map_err(|e| e.to_string())?,
        None => scenario::parse_with(
            SAMPLE_ROUND_1,
            "experiments/sample-round-1.toml (built in)",
            &cat,
        )
        .map_err(|e| e.to_string())?,
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
    let initiative = sc.initiatives(&mut stream_rng(sc.seed, 0, Stream::Initiative));
    let builds: Vec<_> = sc.heroes.iter().map(|h| h.loadout).collect();
    let team_names: Vec<String> = sc.heroes.iter().map(|h| h.name.clone()).collect();
    // The heroes as they enter, before the battle (a trace has no header).
    let mut text = Sink::stdout().styled(args.style.style(args.trace)?);
    if !args.trace {
        text.push_str(&entering(&cat, &sc, &initiative));
    }
    // A narration or a trace is told as the battle goes (any length, bounded memory).
    let mut renderer = Renderer::new(&cat, &team_names);
    let r = if args.narrate || args.trace {
        let mut on = |e: Event| {
            if !args.trace {
                renderer.event(&e, &mut text);
                return;
            }
            renderer.follow(&e);
            if let Event::RoundEnd { round, heroes } = &e {
                let names = renderer.names();
                for &(id, energy) in heroes {
                    let team = json_str(&team_names[names.team_of(id) as usize]);
                    let _ = writeln!(
                        text,
                        "{{\"round\":{round},\"team\":{team},\"hero\":{},\"energy\":{energy}}}",
                        json_str(names.get(id))
                    );
                }
            }
        };
        data::play_narrated(
            &cat,
            &builds,
            &initiative,
            sc.max_rounds,
            sc.capacity,
            &mut on,
        )
    } else {
        data::play(&cat, &builds, &initiative, sc.max_rounds, sc.capacity)
    };
    let o = r.outcome;
    if args.trace {
        let winner = o
            .winner
            .map_or("null".to_string(), |t| json_str(&team_names[t as usize]));
        let capped = if o.capped { ",\"capped\":true" } else { "" };
        let _ = writeln!(
            text,
            "{{\"winner\":{winner},\"rounds\":{}{capped}}}",
            o.rounds
        );
        return Ok(text.finish());
    }
    if args.narrate {
        text.push('\n');
    }
    let how = match o.end {
        EndReason::Elimination => "",
        EndReason::RoundLimit => " (round limit: most Energy, then initiative)",
        EndReason::PowerWin => " (a power's win)",
    };
    match o.winner {
        Some(t) => {
            let _ = writeln!(
                text,
                "{} wins after {} rounds{how}, with {} hero(es) alive.",
                team_names[t as usize], o.rounds, r.winners_alive
            );
        }
        None => {
            let _ = writeln!(text, "Draw after {} rounds{how}.", o.rounds);
        }
    }
    if o.capped {
        text.push_str("Capped: at least one copy was not created for lack of capacity (AR-15).\n");
    }
    Ok(text.finish())
}

/// Each hero as it enters: Energy, attack, initiative, powers and use order.
fn entering(
    cat: &crate::games::auto_rumble::powers::catalogue::Catalogue,
    sc: &scenario::DataScenario,
    initiative: &[f64],
) -> String {
    use crate::games::auto_rumble::powers::catalogue::NO_CLAUSE;
    let mut text = String::new();
    for (t, h) in sc.heroes.iter().enumerate() {
        let l = &h.loadout;
        let mut held: Vec<&str> = Vec::new();
        for c in &l.clauses[..l.n_clauses as usize] {
            let n = cat.name(c.power);
            if !held.contains(&n) {
                held.push(n);
            }
        }
        if held.is_empty() {
            held.push("no powers");
        }
        let order: Vec<&str> = l
            .uses()
            .iter()
            .map(|&u| {
                if u == NO_CLAUSE {
                    "Attack"
                } else {
                    cat.name(l.clauses[u as usize].power)
                }
            })
            .collect();
        let _ = writeln!(
            text,
            "{} enters with {} Energy, a {}-Energy attack that hits for {}, initiative {}; {}. Use order: {}.",
            h.name,
            l.energy,
            cat.rules.attack_cost,
            l.damage.max(0),
            initiative[t],
            held.join(", "),
            order.join(", ")
        );
    }
    text
}

/// `--seed`, `--max-rounds` and `--capacity` over the scenario's own settings.
fn apply_overrides(
    args: &BattleArgs,
    heroes: usize,
    seed: &mut u64,
    max_rounds: &mut u32,
    capacity: &mut usize,
) -> Result<(), String> {
    if let Some(s) = args.seed {
        *seed = s;
    }
    if let Some(m) = args.max_rounds {
        *max_rounds = m;
    }
    if let Some(c) = args.capacity {
        if (c as usize) < heroes {
            return Err(format!(
                "--capacity {c} is smaller than the scenario's {heroes} heroes: raise it (AR-15)"
            ));
        }
        *capacity = c as usize;
    }
    Ok(())
}

fn header(l: &Lineup, initiative: &[f64]) -> String {
    let mut s = String::new();
    for (t, b) in l.builds.iter().enumerate() {
        let uses: Vec<String> = b
            .uses()
            .iter()
            .map(|u| format!("{}({})", u.name(), u.cost()))
            .collect();
        let mut powers: Vec<&str> = crate::games::auto_rumble::Power::ALL
            .iter()
            .filter(|p| b.powers.has(**p))
            .map(|p| p.name())
            .collect();
        if powers.is_empty() {
            powers.push("no powers");
        }
        let _ = writeln!(
            s,
            "{} enters with {} Energy, a {}-Energy attack that hits for {}, initiative {}; {}. Use order: {}.",
            l.names[t],
            b.energy,
            rules::ATTACK_COST,
            rules::hit_damage(b.damage, false),
            initiative[t],
            powers.join(", "),
            uses.join(", ")
        );
    }
    s
}

fn verdict(l: &Lineup, o: &Outcome, k: &Kernel) -> String {
    let how = match o.end {
        EndReason::Elimination => "",
        EndReason::RoundLimit => " (round limit: most Energy, then initiative)",
        EndReason::PowerWin => " (a power's win)",
    };
    let mut s = match o.winner {
        Some(t) => format!(
            "{} wins after {} rounds{how}, with {} hero(es) alive.\n",
            l.names[t as usize],
            o.rounds,
            k.team_alive(t)
        ),
        None => format!("Draw after {} rounds{how}.\n", o.rounds),
    };
    if o.capped {
        s.push_str(
            "Capped: at least one Amoeba copy was not created for lack of capacity (AR-15).\n",
        );
    }
    s
}

/// `skirmish rumble check FILE`: a power file (`[[power]]` or `include`) is checked as
/// `powers check` does; anything else is read as a scenario and its heroes printed back.
pub(super) fn check(path: &std::path::Path) -> Result<String, String> {
    let text = crate::games::file_error::read(
        &crate::platform::sources::Sources::disk(),
        path,
        "Auto Rumble file",
    )
    .map_err(|e| e.to_string())?;
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
        )
        .map_err(|e| e.to_string())?;
        return Ok(crate::games::changes::rules_file_told(path, &r.changes()));
    }
    let sc = scenario::load(&crate::platform::sources::Sources::disk(), path)
        .map_err(|e| e.to_string())?;
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
    out.push_str(&header(&lineup, &initiative));
    Ok(out)
}

//! `skirmish rumble ...`

use std::fmt::Write as _;

use super::BattleArgs;
use crate::games::auto_rumble::scenario::{self, Scenario};
use crate::games::auto_rumble::trace::{JsonTrace, Narrator, Silent};
use crate::games::auto_rumble::{EndReason, Kernel, Lineup, Outcome, rules};
use crate::rng::{Stream, stream_rng};

/// The rules' worked sample, built in so `skirmish rumble battle` needs no file.
pub const SAMPLE_ROUND_1: &str = include_str!("../../experiments/sample-round-1.toml");

pub(super) fn battle(args: BattleArgs) -> Result<String, String> {
    let mut sc: Scenario = match &args.file {
        Some(path) => scenario::load(path).map_err(|e| e.to_string())?,
        None => scenario::parse(SAMPLE_ROUND_1, "experiments/sample-round-1.toml (built in)")
            .map_err(|e| e.to_string())?,
    };
    if let Some(s) = args.seed {
        sc.seed = s;
    }
    if let Some(m) = args.max_rounds {
        sc.max_rounds = m;
    }
    if let Some(c) = args.capacity {
        if (c as usize) < sc.heroes.len() {
            return Err(format!(
                "--capacity {c} is smaller than the scenario's {} heroes: raise it (AR-15)",
                sc.heroes.len()
            ));
        }
        sc.capacity = c as usize;
    }
    let lineup = sc.lineup();
    let initiative = lineup.initiatives(&mut stream_rng(sc.seed, 0, Stream::Initiative));
    let mut kernel = Kernel::new(sc.capacity);

    if args.trace {
        let mut t = JsonTrace::new(&lineup.names);
        let o = kernel.run(&lineup.builds, &initiative, sc.max_rounds, &mut t);
        t.finish(o.winner, o.rounds, o.capped);
        return Ok(t.out);
    }
    let mut text = header(&lineup, &initiative);
    if args.narrate {
        let mut n = Narrator::new(&lineup.names);
        let o = kernel.run(&lineup.builds, &initiative, sc.max_rounds, &mut n);
        text.push_str(&n.out);
        text.push('\n');
        text.push_str(&verdict(&lineup, &o, &kernel));
    } else {
        let o = kernel.run(&lineup.builds, &initiative, sc.max_rounds, &mut Silent);
        text.push_str(&verdict(&lineup, &o, &kernel));
    }
    Ok(text)
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

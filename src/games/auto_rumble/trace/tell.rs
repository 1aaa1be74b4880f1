//! One battle as `skirmish rumble play` tells it: the heroes as they enter and the result, a
//! narration, or a JSON trace; on the hand-written kernel or, with powers from data, on the data
//! reference model.

use std::fmt::Write as _;

use crate::games::auto_rumble::input::scenario::{DataScenario, Scenario};
use crate::games::auto_rumble::powers::catalogue::Catalogue;
use crate::games::auto_rumble::trace::hand::{JsonTrace, Narrator, Silent};
use crate::games::auto_rumble::{EndReason, Kernel, Lineup, Outcome, rules};
use crate::platform::narration::{Told, restyle};
use crate::platform::sink::Sink;
use crate::rng::{Stream, stream_rng};

/// One battle of the hand-written kernel (the six sample powers, the seed's numbers) as `rumble
/// play` tells it: the heroes as they enter and the result, a narration streamed round by round,
/// or a JSON trace (any length, bounded memory).
pub fn tell(sc: &Scenario, told: Told) -> String {
    let lineup = sc.lineup();
    let initiative = lineup.initiatives(&mut stream_rng(sc.seed, 0, Stream::Initiative));
    let mut kernel = Kernel::new(sc.capacity);
    let style = match told {
        Told::Traced => {
            let mut t = JsonTrace::writing_to(&lineup.names, Sink::stdout());
            let o = kernel.run(&lineup.builds, &initiative, sc.max_rounds, &mut t);
            t.finish(o.winner, o.rounds, o.capped);
            return t.out.finish();
        }
        Told::Narrated(style) => {
            let mut out = Sink::stdout().styled(style);
            out.push_str(&header(&lineup, &initiative));
            let mut n = Narrator::writing_to(&lineup.names, out);
            let o = kernel.run(&lineup.builds, &initiative, sc.max_rounds, &mut n);
            let mut out = n.out;
            out.push('\n');
            out.push_str(&verdict(&lineup, &o, &kernel));
            return out.finish();
        }
        Told::Result(style) => style,
    };
    let mut text = header(&lineup, &initiative);
    let o = kernel.run(&lineup.builds, &initiative, sc.max_rounds, &mut Silent);
    text.push_str(&verdict(&lineup, &o, &kernel));
    restyle(style, &text)
}

/// One battle of powers from data (a power file, any rules) as `rumble play --powers` tells
/// it, played by the data reference model (every clause of the format; one battle needs no
/// speed): the heroes as they enter and the result, a narration from the reference's events,
/// or a JSON trace of each hero's Energy after each round.
pub fn tell_with(cat: &Catalogue, sc: &DataScenario, told: Told) -> String {
    use crate::games::auto_rumble::reference::data;
    use crate::games::auto_rumble::trace::data::{Event, Renderer};
    use crate::games::auto_rumble::trace::hand::json_str;
    let initiative = sc.initiatives(&mut stream_rng(sc.seed, 0, Stream::Initiative));
    let builds: Vec<_> = sc.heroes.iter().map(|h| h.loadout).collect();
    let team_names: Vec<String> = sc.heroes.iter().map(|h| h.name.clone()).collect();
    // The heroes as they enter, before the battle (a trace has no header).
    let trace = told == Told::Traced;
    let narrate = matches!(told, Told::Narrated(_));
    let mut text = Sink::stdout().styled(told.style());
    if !trace {
        text.push_str(&entering(cat, sc, &initiative));
    }
    // A narration or a trace is told as the battle goes (any length, bounded memory).
    let mut renderer = Renderer::new(cat, &team_names);
    let r = if narrate || trace {
        let mut on = |e: Event| {
            if !trace {
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
            cat,
            &builds,
            &initiative,
            sc.max_rounds,
            sc.capacity,
            &mut on,
        )
    } else {
        data::play(cat, &builds, &initiative, sc.max_rounds, sc.capacity)
    };
    let o = r.outcome;
    if trace {
        let winner = o
            .winner
            .map_or("null".to_string(), |t| json_str(&team_names[t as usize]));
        let capped = if o.capped { ",\"capped\":true" } else { "" };
        let _ = writeln!(
            text,
            "{{\"winner\":{winner},\"rounds\":{}{capped}}}",
            o.rounds
        );
        return text.finish();
    }
    if narrate {
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
    text.finish()
}

/// Each hero as it enters: Energy, attack, initiative, powers and use order.
fn entering(cat: &Catalogue, sc: &DataScenario, initiative: &[f64]) -> String {
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

/// Each hero of the sample kernel as it enters: Energy, attack, initiative, powers, use order.
pub fn header(l: &Lineup, initiative: &[f64]) -> String {
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

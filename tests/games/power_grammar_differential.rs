//! Issue 49: power files drawn from the format's whole grammar (every trigger, target, effect and
//! quantity the loader's own tables list, conditions at clause and effect level, costs, limits,
//! counters, summons, given powers, clamps and groups), and every file the loader accepts played
//! on random rosters through the data kernel as `simulate` plays it (the fast path when the
//! loadouts are in its class, else the general path) and through the data reference: the same
//! alive heroes and Energies after every round and the same outcome, or the test fails naming the
//! file. Nothing may panic: `check`'s description is printed for every accepted file too.
//!
//! A fixed budget runs in `cargo test --release`; a long run on demand:
//! `SKIRMISH_FUZZ_FILES=200000 cargo test --release --test games power_grammar_differential`
//! (docs/testing.md).

use rand::RngExt;
use rand::seq::{IndexedRandom, SliceRandom};
use skirmish::games::auto_rumble::kernel::data::{DataKernel, Rounds, in_kernel_class};
use skirmish::games::auto_rumble::powers::catalogue::{
    Catalogue, Held, Loadout, Use, default_order,
};
use skirmish::games::auto_rumble::powers::expr::QUANTITY_NAMES;
use skirmish::games::auto_rumble::powers::file::{EFFECT_NAMES, TARGET_NAMES, WHEN_NAMES, parse};
use skirmish::games::auto_rumble::powers::reference::{self as format_reference, PASSIVE};
use skirmish::games::auto_rumble::reference::data as reference;
use skirmish::rng::{MatchRng, Stream, stream_rng};

/// Files per `cargo test` run; `SKIRMISH_FUZZ_FILES` overrides it for a long run.
const FILES: u64 = 3_000;
const BATTLES_PER_FILE: u64 = 6;

fn pick<'a>(rng: &mut MatchRng, xs: &'a [&'a str]) -> &'a str {
    xs.choose(rng).unwrap()
}

/// A quantity as a file writes it: any the format lists, or the power's counter.
fn quantity(rng: &mut MatchRng) -> String {
    if rng.random_bool(0.1) {
        return "X".into();
    }
    QUANTITY_NAMES[rng.random_range(0..QUANTITY_NAMES.len())]
        .0
        .to_string()
}

/// A value: a number, or terms of quantities with multipliers, divisions, a modulo, a group,
/// and clamps nested either way.
fn value(rng: &mut MatchRng) -> String {
    if rng.random_bool(0.35) {
        return rng.random_range(-5..=40).to_string();
    }
    let mut s = quantity(rng);
    match rng.random_range(0..6) {
        0 => s = format!("{} * {s}", rng.random_range(2..=5)),
        1 => s = format!("{s} / {}", rng.random_range(2..=4)),
        2 => s = format!("{s} % {}", rng.random_range(2..=4)),
        3 => s = format!("2 * ({s} + {})", rng.random_range(1..=9)),
        _ => {}
    }
    if rng.random_bool(0.3) {
        s = format!("{s} {} {}", pick(rng, &["+", "-"]), quantity(rng));
    }
    if rng.random_bool(0.5) {
        s = format!(
            "{s} {} {}",
            pick(rng, &["+", "-"]),
            rng.random_range(0..=30)
        );
    }
    for _ in 0..rng.random_range(0..=2) {
        s = format!(
            "{}({s}, {})",
            pick(rng, &["max", "min"]),
            rng.random_range(-10..=60)
        );
    }
    format!("\"{s}\"")
}

fn condition(rng: &mut MatchRng) -> String {
    let left = quantity(rng);
    let cmp = pick(rng, &[">", ">=", "<", "<=", "==", "!="]);
    let right = if rng.random_bool(0.7) {
        rng.random_range(0..=60).to_string()
    } else {
        quantity(rng)
    };
    format!("\"{left} {cmp} {right}\"")
}

/// The format's effects that belong in `passive` clauses, or in any other, as the loader's own
/// reference table places them: a new effect is drawn here without editing this file.
fn effects_for(passive: bool) -> Vec<&'static str> {
    EFFECT_NAMES
        .iter()
        .copied()
        .filter(|n| format_reference::effect(n).is_some_and(|d| (d.allowed == PASSIVE) == passive))
        .collect()
}

/// One effect of the named kind, with its fields, an optional `if` and `to`.
fn effect(rng: &mut MatchRng, kind: &str, powers: &[String], fast: bool) -> String {
    let v = value(rng);
    let mut s = match kind {
        "damage" => {
            let mut s = format!("damage = {v}");
            for flag in ["ignore_defence", "unpreventable", "as_attack"] {
                if rng.random_bool(0.2) {
                    s.push_str(&format!(", {flag} = true"));
                }
            }
            s
        }
        "counter" => format!(
            "counter = \"X\", {} = {v}",
            pick(rng, &["add", "multiply", "set"])
        ),
        "copy_self" if rng.random_bool(0.5) => "copy_self = true".into(),
        "eliminate" | "win" => format!("{kind} = true"),
        "lock" | "no_attack" | "execute_undefended" | "defence_spend_burns" => {
            format!("{kind} = 1")
        }
        "attack_only" | "everyone_attacks_only" => format!(
            "{kind} = \"{}\"",
            pick(
                rng,
                &[
                    "first_opponent",
                    "opponent_most_energy",
                    "opponent_least_energy",
                    "next_opponent"
                ]
            )
        ),
        "coins" => format!(
            "coins = \"{}\"",
            pick(rng, &["strength", "strength / 2", "other_strength", "5"])
        ),
        "summon" => {
            let mut s = format!("summon = \"Imp{}\", energy = {v}", rng.random_range(0..3));
            if rng.random_bool(0.6) {
                s.push_str(&format!(", attack = {}", value(rng)));
            }
            if rng.random_bool(0.4) && !powers.is_empty() {
                s.push_str(&format!(", powers = [\"{}\"]", powers.choose(rng).unwrap()));
            }
            match rng.random_range(0..4) {
                0 => s.push_str(", hostile = true"),
                1 => s.push_str(", neutral = true"),
                _ => {}
            }
            s
        }
        "give" => format!(
            "give = \"{}\"",
            powers.choose(rng).map_or("P0", |p| p.as_str())
        ),
        "remove_power" if rng.random_bool(0.3) => "remove_power = \"all\"".into(),
        "remove_power" => format!(
            "remove_power = \"{}\"",
            powers.choose(rng).map_or("P0", |p| p.as_str())
        ),
        _ => format!("{kind} = {v}"),
    };
    if rng.random_bool(0.3) {
        s.push_str(&format!(", if = {}", condition(rng)));
    }
    if !fast && rng.random_bool(0.2) {
        let (t, _) = TARGET_NAMES[rng.random_range(0..TARGET_NAMES.len())];
        s.push_str(&format!(", to = \"{t}\""));
    }
    format!("{{ {s} }}")
}

/// Effects the fast path plays, on the holder: for files drawn to lean on the fast path.
const FAST_ACTIVE: &[&str] = &[
    "add_energy",
    "set_energy",
    "add_defence",
    "add_prevention",
    "counter",
    "copy_self",
];
const FAST_PASSIVE: &[&str] = &["attack_bonus", "coins"];

/// A clause; `fast` leans it towards what the fast path plays (phases on the holder), so both
/// paths meet many files; its quantities and conditions are still drawn from the whole grammar.
fn clause(rng: &mut MatchRng, powers: &[String], fast: bool) -> String {
    // The reactions the fast path plays (issue 81): Entangle's kind, a constant tax on the hero
    // damaged, now and then; the holder's own `attacked`, `damaged` and `hit` below.
    if fast && rng.random_bool(0.05) {
        return format!(
            "[[power.clause]]\nwhen = \"dealt_damage\"\ntarget = \"other\"\neffects = [{{ tax = {} }}]\n",
            rng.random_range(-5..=40)
        );
    }
    // Copies made on being attacked (issue 81, Budding's kind): copies alone, once a round or
    // a game, unconditional, each bare or with an Energy (at or below 0: none is made).
    if fast && rng.random_bool(0.04) {
        let limit = pick(rng, &["once_per_round", "once_per_game"]);
        let effects: Vec<String> = (0..rng.random_range(1..=2))
            .map(|_| {
                if rng.random_bool(0.3) {
                    "\"copy_self\"".to_string()
                } else {
                    format!("{{ copy_self = {} }}", rng.random_range(-5..=40))
                }
            })
            .collect();
        return format!(
            "[[power.clause]]\nwhen = \"attacked\"\nlimit = \"{limit}\"\neffects = [{}]\n",
            effects.join(", ")
        );
    }
    // The kinds that reach other heroes on the fast path (issue 81): allies' gifts, Assassin's
    // Game's rule, Sniper's aim, Parasitic Strain's theft, Piercing Blow's damage.
    if fast && rng.random_bool(0.1) {
        return singling_out(rng);
    }
    let when = if fast {
        pick(
            rng,
            &[
                "battle_start",
                "round_start",
                "use",
                "round_end",
                "passive",
                "attacked",
                "damaged",
                "hit",
            ],
        )
    } else {
        WHEN_NAMES[rng.random_range(0..WHEN_NAMES.len())].0
    };
    let mut s = format!("[[power.clause]]\nwhen = \"{when}\"\n");
    match rng.random_range(0..4) {
        0 => s.push_str(&format!("if = {}\n", condition(rng))),
        1 => s.push_str(&format!("if = [{}, {}]\n", condition(rng), condition(rng))),
        _ => {}
    }
    if when != "passive" && rng.random_bool(0.4) {
        let field = if when == "use" && rng.random_bool(0.6) {
            "spend"
        } else {
            "burn"
        };
        s.push_str(&format!("cost = {{ {field} = {} }}\n", value(rng)));
    }
    if !fast && rng.random_bool(0.5) {
        let (t, _) = TARGET_NAMES[rng.random_range(0..TARGET_NAMES.len())];
        s.push_str(&format!("target = \"{t}\"\n"));
    }
    if rng.random_bool(0.2) {
        s.push_str(&format!(
            "limit = \"{}\"\n",
            pick(
                rng,
                &["once_per_round", "once_per_game", "once_per_hero_per_round"]
            )
        ));
    }
    if rng.random_bool(0.15) {
        s.push_str("rounding = \"down\"\n");
    }
    if when == "passive" && !fast && rng.random_bool(0.3) {
        s.push_str("from_start = true\n");
    }
    let every = effects_for(when == "passive");
    let kinds: &[&str] = match (when == "passive", fast) {
        (_, false) => &every,
        (true, true) => FAST_PASSIVE,
        (false, true) => FAST_ACTIVE,
    };
    let effects: Vec<String> = (0..rng.random_range(1..=2))
        .map(|_| {
            let kind = pick(rng, kinds);
            effect(rng, kind, powers, fast)
        })
        .collect();
    s.push_str(&format!("effects = [{}]\n", effects.join(", ")));
    s
}

/// A clause of one of the kinds the fast path plays on another hero, its numbers drawn.
fn singling_out(rng: &mut MatchRng) -> String {
    let head = "[[power.clause]]\n";
    match rng.random_range(0..5) {
        0 => format!(
            "{head}when = \"damaged\"\ntarget = \"all_allies\"\neffects = [{{ add_energy = {} }}]\n",
            rng.random_range(0..=12)
        ),
        1 => format!(
            "{head}when = \"passive\"\neffects = [{{ everyone_attacks_only = \"next_opponent\" }}]\n"
        ),
        2 => {
            let mut effects = vec!["{ attack_only = \"first_opponent\" }".to_string()];
            if rng.random_bool(0.5) {
                effects.push(format!(
                    "{{ after_defence_percent = {} }}",
                    rng.random_range(0..=300)
                ));
            }
            if rng.random_bool(0.5) {
                effects.push("{ execute_undefended = 1 }".into());
            }
            if rng.random_bool(0.3) {
                effects = vec!["{ no_attack = 1 }".into()];
            }
            let when = if rng.random_bool(0.5) {
                format!("if = \"round % {} == 0\"\n", rng.random_range(2..=3))
            } else {
                String::new()
            };
            format!(
                "{head}when = \"passive\"\n{when}effects = [{}]\n",
                effects.join(", ")
            )
        }
        3 => format!(
            "{head}when = \"use\"\ncost = {{ spend = {} }}\ntarget = \"opponent_most_defence\"\neffects = [{{ add_defence = \"target.defence\", to = \"self\" }}, {{ lose_defence = {} }}]\n",
            rng.random_range(0..=25),
            rng.random_range(0..=30)
        ),
        _ => format!(
            "{head}when = \"use\"\ncost = {{ spend = {}, burn = {} }}\ntarget = \"{}\"\neffects = [{{ damage = {}, ignore_defence = {} }}]\n",
            rng.random_range(0..=15),
            rng.random_range(0..=12),
            pick(rng, &["opponent_most_energy", "opponent_least_energy"]),
            rng.random_range(1..=30),
            rng.random_bool(0.5)
        ),
    }
}

/// A file of 1-3 powers; later powers may be summons' powers or given ones (a helper sometimes).
/// Each clause is drawn until the file so far loads (up to a few tries), so most files reach
/// the battles: the loader's refusals are the other fuzzers' subject.
fn power_file(rng: &mut MatchRng, fast: bool) -> String {
    let n = rng.random_range(1..=3);
    let names: Vec<String> = (0..n).map(|k| format!("P{k}")).collect();
    let stub = |name: &str| {
        format!(
            "[[power]]\nname = \"{name}\"\nsource = \"fuzz\"\ntext = \"x\"\n[[power.clause]]\nwhen = \"round_end\"\neffects = [{{ add_energy = 1 }}]\n"
        )
    };
    let mut done = String::new();
    for (k, name) in names.iter().enumerate() {
        let mut power = format!("[[power]]\nname = \"{name}\"\nsource = \"fuzz\"\ntext = \"x\"\n");
        if k > 0 && rng.random_bool(0.2) {
            power.push_str("helper = true\n");
        }
        if rng.random_bool(0.7) {
            power.push_str(&format!(
                "counters = {{ X = {} }}\n",
                rng.random_range(0..=5)
            ));
        }
        let mut clauses = 0;
        for _ in 0..rng.random_range(1..=3) {
            for _ in 0..12 {
                let c = clause(rng, &names, fast);
                let mut trial = format!("{done}{power}{c}");
                for later in &names[k + 1..] {
                    trial.push_str(&stub(later));
                }
                if parse(&trial, "fuzz.toml").is_ok() {
                    power.push_str(&c);
                    clauses += 1;
                    break;
                }
            }
        }
        if clauses == 0 {
            // Keep the power loadable: its header and a plain clause.
            power = stub(name);
        }
        done.push_str(&power);
    }
    done
}

/// A random hero of the file's drawable powers.
/// A random hero of the file's drawable powers, and how to build it again by hand (for a
/// failure's message).
fn hero(cat: &Catalogue, rng: &mut MatchRng) -> Option<(Loadout, String)> {
    let mut held = Vec::new();
    for &power in &cat.drawable {
        if rng.random_bool(0.6) {
            held.push(Held {
                power,
                strength: rng.random_range(0..=40),
            });
        }
    }
    held.shuffle(rng);
    let mut order = default_order(cat, &held);
    order.shuffle(rng);
    let coins = rng.random_range(-10..=60);
    let l = Loadout::compile(cat, coins, &held, &order).ok()?;
    let held: Vec<String> = held
        .iter()
        .map(|h| format!("{}={}", cat.name(h.power), h.strength))
        .collect();
    let order: Vec<&str> = order
        .iter()
        .map(|u| match u {
            Use::Attack => "Attack",
            Use::Power(p) => cat.name(*p),
        })
        .collect();
    Some((
        l,
        format!("hero(&cat, {coins}, &{held:?}, Some(&{order:?}))"),
    ))
}

#[derive(Default, Debug)]
struct Seen {
    drawn: u64,
    accepted: u64,
    battles: u64,
    fast: u64,
    general: u64,
    /// Fast-path battles with copies made on being attacked.
    copying: u64,
}

fn run(files: u64) -> Seen {
    let mut seen = Seen::default();
    let mut kernel = DataKernel::new(64);
    // `SKIRMISH_FUZZ_FROM=N`: start at file N (to replay a failure of a long run at once).
    let from = std::env::var("SKIRMISH_FUZZ_FROM")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    for i in from..files {
        seen.drawn += 1;
        let mut rng = stream_rng(0x49F, i, Stream::Roster);
        let text = power_file(&mut rng, i % 2 == 0);
        let defs = match parse(&text, "fuzz.toml") {
            Ok(d) => d,
            Err(e) => {
                if std::env::var("SKIRMISH_FUZZ_WHY").is_ok() {
                    eprintln!("REFUSED {e}");
                }
                continue;
            }
        };
        seen.accepted += 1;
        for d in &defs {
            let _ = d.describe();
        }
        let mut cat = Catalogue::new(defs);
        if i % 3 == 1 {
            // Issue 51: a rules file's numbers, on every path of the kernel.
            let r = &mut cat.rules;
            r.attack_cost = rng.random_range(1..=40);
            r.stalemate_rounds = rng.random_range(0..=4);
            r.starting_energy = rng.random_range(1..=300);
            r.attack_damage = rng.random_range(-10..=40);
            r.coins_per_damage = rng.random_range(1..=5);
        }
        if cat.drawable.is_empty() {
            continue;
        }
        for b in 0..BATTLES_PER_FILE {
            let n = rng.random_range(2..=5);
            let Some(drawn) = (0..n)
                .map(|_| hero(&cat, &mut rng))
                .collect::<Option<Vec<_>>>()
            else {
                continue;
            };
            let builds: Vec<Loadout> = drawn.iter().map(|d| d.0).collect();
            // A tie in initiative now and then (AR-6).
            let ini: Vec<f64> = (0..n)
                .map(|_| {
                    if b % 3 == 0 {
                        0.5
                    } else {
                        rng.random_range(0.0..1.0)
                    }
                })
                .collect();
            let max_rounds = rng.random_range(1..=8);
            let want = reference::play(&cat, &builds, &ini, max_rounds, 64);
            let mut rec = Rounds::default();
            let fast = in_kernel_class(&builds);
            let got = if fast {
                kernel.run(&cat, &builds, &ini, max_rounds, &mut rec)
            } else {
                kernel
                    .general()
                    .run(&cat, &builds, &ini, max_rounds, &mut rec)
            };
            let path = if fast { "fast path" } else { "general path" };
            let heroes: Vec<String> = drawn
                .iter()
                .zip(&ini)
                .map(|(d, ini)| format!("{} at {ini}", d.1))
                .collect();
            let heroes = format!("{heroes:#?}, {max_rounds} rounds at most");
            assert_eq!(
                rec.0, want.rounds,
                "file {i}, battle {b}: the {path} and the reference differ round by round\nheroes {heroes:#?}\n{text}"
            );
            assert_eq!(
                got, want.outcome,
                "file {i}, battle {b}: the {path} and the reference end differently\nheroes {heroes:#?}\n{text}"
            );
            seen.battles += 1;
            seen.fast += fast as u64;
            seen.copying += (fast
                && builds.iter().any(|b| {
                    b.phases
                        & skirmish::games::auto_rumble::powers::catalogue::phase::COPY_ON_ATTACKED
                        != 0
                })) as u64;
            seen.general += !fast as u64;
        }
    }
    seen
}

#[test]
fn every_accepted_grammar_file_plays_the_same_on_the_kernel_and_the_reference() {
    let files = std::env::var("SKIRMISH_FUZZ_FILES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(FILES);
    let seen = run(files);
    eprintln!("{files} files: {seen:?}");
    // The draw reaches both paths, or the test would hold nothing (a replay of a few files
    // from SKIRMISH_FUZZ_FROM is held to agreement only).
    let files = seen.drawn;
    if files >= 1000 {
        assert!(seen.accepted * 10 > files * 9, "only {seen:?} accepted");
        assert!(seen.fast > files / 4, "fast path too rarely: {seen:?}");
        assert!(
            seen.copying > files / 40,
            "copies on being attacked too rarely: {seen:?}"
        );
        assert!(
            seen.general > files / 4,
            "general path too rarely: {seen:?}"
        );
    }
}

//! Minion Combat joins the suite. Its differential check plays random combats on both engines
//! under every reading: catalogue groups as `simulate minions` draws them, and hand-made minions
//! whose levels, attacks, nations and mixed attack types reach the steps catalogue groups rarely
//! do (misses by level, multi-attacks, both-attack minions, non-combatants, wounded minions).

use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use skirmish::games::minion_combat::input;
use skirmish::games::minion_combat::kernel::combat::{Combat, Silent, Unit};
use skirmish::games::minion_combat::reference::{Quiet, combat};
use skirmish::games::minion_combat::rules::{BothAttacks, Estimate, MAX_GROUP, Rules, WisePer};
use skirmish::games::minion_combat::simulation::combats::Field;
use skirmish::games::minion_combat::state::{Group, Minion, Owner};
use skirmish::rng::match_seed;

use crate::suite::{Game, Input};

pub struct MinionCombat;

fn field(rules: Rules) -> Field {
    Field::new(
        rules,
        input::catalogue::builtin(),
        [true, true],
        (1, 8),
        3,
        true,
    )
    .unwrap()
}

/// Every reading flipped somewhere.
fn variants() -> Vec<Rules> {
    let d = Rules::default();
    let mut out = vec![d.clone()];
    let mut r = d.clone();
    r.estimate = Estimate::Own;
    r.wise_per = WisePer::Attack;
    r.both_attacks = BothAttacks::Hand;
    out.push(r);
    let mut r = d.clone();
    r.estimate = Estimate::Off;
    r.experience_once = false;
    r.missile_round_modifier = 1;
    r.rounds = 4;
    out.push(r);
    let mut r = d;
    r.level_max = 9;
    r.rounds = 20;
    r.nations[0].bonus = Some((
        skirmish::games::minion_combat::rules::Attack::Missile,
        3,
        -2,
    ));
    out.push(r);
    out
}

/// A random minion: any mix of attack types, 0-3 attacks, levels across the range, nations;
/// damage, armor and HP times `scale`.
fn random_minion(rng: &mut Xoshiro256PlusPlus, r: &Rules, recruit: bool, scale: i32) -> Minion {
    let kind = rng.random_range(0..4);
    let hand = (kind != 1).then(|| rng.random_range(0..6 * scale));
    let missile = (kind != 0).then(|| rng.random_range(0..5 * scale));
    let (hand, missile) = if kind == 3 {
        (None, None)
    } else {
        (hand, missile)
    };
    let attacks = if kind == 3 {
        0
    } else {
        rng.random_range(0..=3)
    };
    let max_hp = rng.random_range(1..16 * scale);
    Minion {
        name: "m".into(),
        recruit,
        hand,
        missile,
        attacks,
        armor: rng.random_range(0..4 * scale),
        hp: rng.random_range(1..=max_hp),
        max_hp,
        level: rng.random_range(r.level_min..=r.level_max),
        nation: rng
            .random_bool(0.5)
            .then(|| rng.random_range(0..r.nations.len())),
        flight: false,
        enchanted: false,
        clauses: Vec::new(),
    }
}

fn random_group(rng: &mut Xoshiro256PlusPlus, r: &Rules, owner: Owner, scale: i32) -> Group {
    let recruit = rng.random_bool(0.5);
    let n = rng.random_range(1..=MAX_GROUP);
    Group {
        name: "g".into(),
        owner,
        age: 0,
        minions: (0..n)
            .map(|_| random_minion(rng, r, recruit, scale))
            .collect(),
    }
}

impl Game for MinionCombat {
    fn name(&self) -> &'static str {
        "minions"
    }
    fn dataset(&self) -> Vec<&'static str> {
        // Every minion: combats drawing one with effects play on the plain model (MC-54), so
        // both engines are held to the same bytes on any thread count and chunk size.
        vec!["simulate", "minions", "--matches", "3000", "--all-minions"]
    }
    fn tables(&self) -> &'static [&'static str] {
        &["combats", "minions"]
    }
    fn chunk_sizes(&self) -> [u64; 2] {
        [500, 700]
    }
    fn long_dataset(&self) -> Vec<&'static str> {
        vec![
            "simulate",
            "minions",
            "--matches",
            "600000",
            "--chunk-size",
            "10000",
        ]
    }
    fn inputs(&self) -> Vec<Input> {
        let sim = |flag: &'static str| -> &'static [&'static str] {
            match flag {
                "--rules" => &[
                    "simulate",
                    "minions",
                    "--rules",
                    "FILE",
                    "--matches",
                    "300",
                    "--out",
                    "OUT",
                    "--quiet",
                ],
                _ => &[
                    "simulate",
                    "minions",
                    "--minions",
                    "FILE",
                    "--matches",
                    "300",
                    "--out",
                    "OUT",
                    "--quiet",
                ],
            }
        };
        let check: &'static [&'static str] = &["minions", "check", "FILE"];
        vec![
            Input {
                kind: "combat",
                valid: "experiments/minion-combat/combat.toml",
                check,
                used_by: &["minions", "combat", "FILE", "--narrate"],
            },
            Input {
                kind: "board",
                valid: "experiments/minion-combat/board.toml",
                check,
                used_by: &["minions", "combat", "FILE", "--narrate"],
            },
            Input {
                kind: "rules",
                valid: "experiments/minion-combat/rules.toml",
                check,
                used_by: sim("--rules"),
            },
            Input {
                kind: "minions",
                valid: "experiments/minion-combat/minions.toml",
                check,
                used_by: sim("--minions"),
            },
            Input {
                kind: "modifiers",
                valid: "experiments/minion-combat/modifiers.toml",
                check,
                used_by: &["minions", "combat", "--modifiers", "FILE"],
            },
            Input {
                kind: "effects",
                valid: "experiments/minion-combat/effects.toml",
                check,
                used_by: &["minions", "combat", "--effects", "FILE"],
            },
        ]
    }
    fn warm_kernel(&self) -> Box<dyn FnMut()> {
        let f = field(Rules::default());
        let mut c = Combat::new();
        let mut m = 0u64;
        let mut play = move || {
            for _ in 0..200 {
                let seed = match_seed(11, m);
                let d = f.draw(m, seed);
                c.play(d.sides(), d.first, &f.rules, seed, &mut Silent);
                m += 1;
            }
        };
        play();
        Box::new(play)
    }
    fn differential(&self) -> Result<usize, String> {
        let mut n = 0;
        let mut c = Combat::new();
        for (v, rules) in variants().into_iter().enumerate() {
            // Catalogue groups, as simulations draw them.
            let f = field(rules.clone());
            let cat = &f.catalogue;
            for m in 0..250 {
                let seed = match_seed(0x3003 + v as u64, m);
                let d = f.draw(m, seed);
                let groups = d.groups(|id| {
                    skirmish::games::minion_combat::simulation::combats::fielded(
                        &cat.minions[id as usize],
                        &rules,
                    )
                });
                let want = combat([&groups[0], &groups[1]], &rules, seed, &mut Quiet);
                let got = c.play(d.sides(), d.first, &rules, seed, &mut Silent);
                if got != want {
                    return Err(format!(
                        "variant {v}, catalogue combat {m}: kernel {got:?} vs reference {want:?}"
                    ));
                }
                n += 1;
            }
            // Hand-made minions; the last 100 with numbers up to 60 times larger, so that
            // some combats hold HP past 511 or damage past 2^13 a round and the kernel weighs
            // their choices in 64 bits instead of 16-bit lanes.
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(0x3003 + v as u64);
            let mut wide = 0;
            for m in 0..500 {
                let scale = if m < 400 { 1 } else { [8, 30, 60][m % 3] };
                let first = rng.random_range(0..2usize);
                let owners = if first == 0 {
                    [Owner::Initiative, Owner::Other]
                } else {
                    [Owner::Other, Owner::Initiative]
                };
                let groups = owners.map(|o| random_group(&mut rng, &rules, o, scale));
                let units: [Vec<Unit>; 2] = [0, 1].map(|s| {
                    groups[s]
                        .minions
                        .iter()
                        .map(|x| Unit::new(x, &rules))
                        .collect()
                });
                let seed = rng.random::<u64>();
                let want = combat([&groups[0], &groups[1]], &rules, seed, &mut Quiet);
                let got = c.play([&units[0], &units[1]], first, &rules, seed, &mut Silent);
                wide += !c.in_lanes() as usize;
                if got != want {
                    return Err(format!(
                        "variant {v}, random combat {m}: {groups:?}\nkernel {got:?}\nreference {want:?}"
                    ));
                }
                n += 1;
            }
            if !(10..90).contains(&wide) {
                return Err(format!(
                    "variant {v}: {wide} of 500 random combats weighed in 64 bits; both ways need testing"
                ));
            }
        }
        Ok(n)
    }
    fn narrate(&self) -> Vec<&'static str> {
        vec!["minions", "combat", "--narrate"]
    }
}

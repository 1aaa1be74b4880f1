//! Loot Arena joins the suite.

use skirmish::games::loot_arena::input;
use skirmish::games::loot_arena::kernel::battle::{Battle, Silent};
use skirmish::games::loot_arena::kernel::royale::{Quiet, Royale};
use skirmish::games::loot_arena::policy::Policy;
use skirmish::games::loot_arena::reference;
use skirmish::games::loot_arena::rules::{
    AffinityScope, Class, Crit, CritStage, Dice, HealerEffects, Judge, Rounding, Rules, Stacking,
    TwoHealers,
};
use skirmish::games::loot_arena::simulation::battles::Field;
use skirmish::games::loot_arena::strategy::Strategy;
use skirmish::rng::match_seed;

use crate::suite::{Game, Input};

pub struct LootArena;

fn field(rules: Rules, fill: u32) -> Field {
    Field {
        rules,
        catalogue: input::items::builtin(),
        policies: [
            "medic",
            "attack",
            "focus-healer",
            "supporter",
            "evasive",
            "random",
            "plan(heal=2, support=1, evade=1, target=partner)",
        ]
        .iter()
        .map(|p| Policy::parse(p).unwrap())
        .collect(),
        fill,
        armor: fill,
        tiers: [40, 30, 20, 10],
    }
}

/// Dice of every shape the kernel rolls differently (one die, several, flat, more base dice
/// than it reads at once, a modifier): items cycle through them and two classes take them.
fn odd_dice(f: &mut Field) {
    const ODD: [&str; 6] = ["2d6+1", "3", "1d1", "1d8", "3d4-2", "5d3"];
    for (i, it) in f.catalogue.items.iter_mut().enumerate() {
        it.dice = Dice::parse(ODD[i % ODD.len()]).unwrap();
    }
    f.rules.classes[Class::Gladiator as usize].dice = Dice::parse("5d4+1").unwrap();
    f.rules.classes[Class::Healer as usize].dice = Dice::parse("3").unwrap();
}

/// Every reading flipped somewhere: the kernel and the reference must agree under each.
fn variants() -> Vec<Rules> {
    let d = Rules::default();
    let mut out = vec![d.clone()];
    let mut r = d.clone();
    r.crit = Crit::EveryDie;
    r.crit_stage = CritStage::Base;
    r.rounding = Rounding::HalfEven;
    out.push(r);
    let mut r = d.clone();
    r.affinity_stacking = Stacking::Multiplicative;
    r.two_healers = TwoHealers::Never;
    out.push(r.clone());
    // LA-7's other reading: affinity on the whole attack.
    let mut r = d.clone();
    r.affinity_scope = AffinityScope::Attack;
    r.overheal = true;
    out.push(r);
    let mut r = d.clone();
    r.two_healers = TwoHealers::Opposing;
    r.healer_effects = HealerEffects::WholeBattle;
    r.sets = 4;
    r.judge = Judge::Draw;
    out.push(r);
    let mut r = d.clone();
    r.item_slots = 4;
    r.rounds_per_set = 7;
    r.sets = 3;
    r.min_damage = 2;
    r.attack_items = 0b111;
    out.push(r);
    out
}

impl Game for LootArena {
    fn name(&self) -> &'static str {
        "loot"
    }
    fn dataset(&self) -> Vec<&'static str> {
        vec!["simulate", "loot", "--matches", "3000"]
    }
    fn tables(&self) -> &'static [&'static str] {
        &["battles", "champions"]
    }
    fn chunk_sizes(&self) -> [u64; 2] {
        [500, 700]
    }
    fn long_dataset(&self) -> Vec<&'static str> {
        vec![
            "simulate",
            "loot",
            "--matches",
            "600000",
            "--chunk-size",
            "10000",
        ]
    }
    fn inputs(&self) -> Vec<Input> {
        vec![
            Input {
                kind: "battle",
                valid: "experiments/loot-arena/battle.toml",
                check: &["loot", "check", "FILE"],
                used_by: &["loot", "play", "FILE", "--narrate"],
            },
            Input {
                kind: "royale",
                valid: "experiments/loot-arena/royale.toml",
                check: &["loot", "check", "FILE"],
                used_by: &["loot", "play", "FILE", "--narrate"],
            },
            Input {
                kind: "rules",
                valid: "experiments/loot-arena/rules.toml",
                check: &["loot", "check", "FILE"],
                used_by: &[
                    "simulate",
                    "loot",
                    "--rules",
                    "FILE",
                    "--matches",
                    "300",
                    "--out",
                    "OUT",
                    "--quiet",
                ],
            },
            // `loot odds`'s attack, given on the command line (issue 53: non-ASCII text
            // panicked it).
            Input {
                kind: "odds",
                valid: "tests/corpus/loot/valid/odds.txt",
                check: &["loot", "odds", "TEXT"],
                used_by: &[
                    "loot",
                    "odds",
                    "TEXT",
                    "--rules",
                    "experiments/loot-arena/rules.toml",
                ],
            },
            Input {
                kind: "items",
                valid: "experiments/loot-arena/items.toml",
                check: &["loot", "check", "FILE"],
                used_by: &[
                    "simulate",
                    "loot",
                    "--items",
                    "FILE",
                    "--matches",
                    "300",
                    "--out",
                    "OUT",
                    "--quiet",
                ],
            },
        ]
    }
    fn warm_kernel(&self) -> Box<dyn FnMut()> {
        let f = field(Rules::default(), 100);
        let mut b = Battle::new();
        let mut m = 0u64;
        // Whole royales too (LA-40..LA-48): sixteen players of every strategy.
        let mut royale = Royale::new();
        let seats: Vec<Strategy> = [
            "looter",
            "centre",
            "avoider",
            "hunter",
            "wanderer",
            "smart",
            "hunter(field=healer)",
            "wanderer(equip=plain, field=counter, sets=random)",
        ]
        .iter()
        .cycle()
        .take(16)
        .map(|s| Strategy::parse(s).unwrap())
        .collect();
        let mut play = move || {
            for _ in 0..200 {
                let seed = match_seed(11, m);
                let (x, _) = f.draw(m, seed);
                b.play(&x, &f.catalogue, &f.rules, seed, &mut Silent);
                m += 1;
            }
            for g in 0..10 {
                let seed = match_seed(12, m + g);
                royale.play(&seats, &f.catalogue, &f.rules, seed, &mut b, &mut Quiet);
            }
        };
        play();
        Box::new(play)
    }
    fn differential(&self) -> Result<usize, String> {
        let mut n = 0;
        for (v, rules) in variants().into_iter().enumerate() {
            for (fill, odd) in [(100, false), (50, false), (100, true)] {
                let mut f = field(rules.clone(), fill);
                if odd {
                    odd_dice(&mut f);
                }
                let mut b = Battle::new();
                for m in 0..150 {
                    let seed = match_seed(0x1007 + v as u64, m);
                    let (x, _) = f.draw(m, seed);
                    let a = b.play(&x, &f.catalogue, &f.rules, seed, &mut Silent);
                    let r = reference::play(&x, &f.catalogue, &f.rules, seed);
                    if a != r {
                        return Err(format!(
                            "variant {v}, fill {fill}, odd dice {odd}, battle {m}: {a:?} vs {r:?}"
                        ));
                    }
                    n += 1;
                }
            }
        }
        Ok(n)
    }
    fn narrate(&self) -> Vec<&'static str> {
        vec!["loot", "play", "--narrate"]
    }
}

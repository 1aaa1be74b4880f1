//! The power-file loader never panics: arbitrary bytes and mutated valid files either load or
//! give an error. Every mutated file that loads is then played (each power in a short battle),
//! so values that load but overflow at run time would show up too.
//!
//! 20,000 arbitrary inputs + 30,000 mutations per run, from fixed seeds (README records it).

use rand::RngExt;
use skirmish::games::auto_rumble::kernel::data::{DataKernel, play};
use skirmish::games::auto_rumble::powers::catalogue::{Catalogue, Held, Loadout, default_order};
use skirmish::games::auto_rumble::powers::file::parse;
use skirmish::rng::{Stream, stream_rng};

const ARBITRARY: u64 = 20_000;
const MUTATIONS: u64 = 30_000;

fn seeds() -> Vec<String> {
    let sample = std::fs::read_to_string("experiments/powers/sample.toml").unwrap();
    let archive = std::fs::read_to_string("experiments/powers/archive.toml")
        .unwrap()
        .replace("include = [\"sample.toml\"]", "");
    // Issue 23: the second edition's clause kinds (death effects, hit quantities, caps,
    // attack-hit effects, targets across teams).
    let second = std::fs::read_to_string("experiments/powers/second-edition.toml")
        .unwrap()
        .replace("include = [\"archive.toml\"]", "");
    vec![sample, archive, second]
}

/// Tokens a mutation may splice in: the format's own words, odd numbers and punctuation.
const TOKENS: &[&str] = &[
    "when",
    "\"use\"",
    "\"passive\"",
    "\"death\"",
    "if",
    "cost",
    "spend",
    "burn",
    "target",
    "\"other\"",
    "effects",
    "counter",
    "multiply",
    "add",
    "set",
    "to",
    "\"self\"",
    "damage",
    "add_defence",
    "copy_self",
    "\"win\"",
    "revive",
    "dodge",
    "lock",
    "tax",
    "max(",
    "min(",
    ")",
    "*",
    "/",
    "/ 0",
    "-",
    "+",
    "2147483647",
    "-2147483648",
    "999999",
    "1000001",
    "0",
    "=",
    "[",
    "]",
    "{",
    "}",
    ",",
    "\"",
    "\n",
    "[[power]]",
    "[[power.clause]]",
    "energy",
    "target.energy",
    "round",
    "strength",
    "X",
    "limit",
    "\"once_per_game\"",
    "rounding",
    "\"down\"",
    "==",
    ">",
    "cap_hit",
    "as_attack",
    "true",
    "hit.damage",
    "hit.arriving",
    "\"anyone_most_energy\"",
    "\"anyone_least_energy\"",
    "helper",
    "\"attacked\"",
    "\"damaged\"",
    "deal_percent",
    "take_percent",
    "attack_cost",
    "neutral",
    "\"attackers_last_round\"",
    "attackers_last_round",
    "target.attacked_me_last_round",
    "give",
    "\"Plague\"",
    "summon",
    "\"passive\"",
];

fn mutate(text: &str, rng: &mut skirmish::rng::MatchRng) -> String {
    let mut s: Vec<u8> = text.as_bytes().to_vec();
    for _ in 0..rng.random_range(1..=4) {
        let len = s.len().max(1);
        let at = rng.random_range(0..len).min(s.len());
        match rng.random_range(0..5) {
            0 => {
                let end = (at + rng.random_range(1..40)).min(s.len());
                s.drain(at..end);
            }
            1 => {
                let t = TOKENS[rng.random_range(0..TOKENS.len())];
                s.splice(at..at, t.bytes());
            }
            2 => {
                if at < s.len() {
                    s[at] = rng.random_range(0..128);
                }
            }
            3 => {
                let end = (at + rng.random_range(1..80)).min(s.len());
                let copy = s[at..end].to_vec();
                let to = rng.random_range(0..=s.len());
                s.splice(to..to, copy);
            }
            _ => {
                // Replace a number with an extreme one.
                if let Some(p) = s[at..].iter().position(|b| b.is_ascii_digit()) {
                    let p = at + p;
                    let big = ["99999999999", "2147483647", "0", "-5"][rng.random_range(0..4)];
                    s.splice(p..p + 1, big.bytes());
                }
            }
        }
    }
    String::from_utf8_lossy(&s).into_owned()
}

/// Plays every loaded power in a short battle against a plain hero, on the kernel or reference.
fn exercise(text: &str, kernel: &mut DataKernel) -> bool {
    let Ok(defs) = parse(text, "fuzz.toml") else {
        return false;
    };
    let cat = Catalogue::new(defs);
    for p in 0..cat.len().min(8) as u16 {
        let held = [Held {
            power: p,
            strength: 7,
        }];
        let Ok(a) = Loadout::compile(&cat, 5, &held, &default_order(&cat, &held)) else {
            continue;
        };
        let b = Loadout::compile(&cat, 0, &[], &default_order(&cat, &[])).unwrap();
        play(kernel, &cat, &[a, b], &[0.6, 0.3], 6);
        play(kernel, &cat, &[b, a, a], &[0.6, 0.3, 0.1], 6);
    }
    true
}

#[test]
fn arbitrary_bytes_never_panic_the_loader() {
    for i in 0..ARBITRARY {
        let mut rng = stream_rng(0xF022, i, Stream::Roster);
        let n = rng.random_range(0..300);
        let bytes: Vec<u8> = (0..n).map(|_| rng.random_range(0..=255u8)).collect();
        let _ = parse(&String::from_utf8_lossy(&bytes), "fuzz.toml");
    }
}

#[test]
fn mutated_valid_files_never_panic_loader_or_battle() {
    let seeds = seeds();
    let mut kernel = DataKernel::new(256);
    let mut loaded = 0;
    for i in 0..MUTATIONS {
        let mut rng = stream_rng(0xF023, i, Stream::Roster);
        let text = mutate(&seeds[(i % seeds.len() as u64) as usize], &mut rng);
        loaded += exercise(&text, &mut kernel) as u32;
    }
    // The mutations must leave many files loadable, or the battles would go unexercised.
    assert!(loaded > 1_000, "only {loaded} mutated files loaded");
}

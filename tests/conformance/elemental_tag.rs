//! Elemental Tag joins the suite.

use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use skirmish::games::elemental_tag::kernel::collide::Resolver;
use skirmish::games::elemental_tag::kernel::engine::{Game as Engine, Silent};
use skirmish::games::elemental_tag::policy::Policy;
use skirmish::games::elemental_tag::reference;
use skirmish::games::elemental_tag::rules::Settings;
use skirmish::games::elemental_tag::simulation::tournament::TagTournament;
use skirmish::rng::match_seed;

use crate::suite::{Game, Input};

pub struct ElementalTag;

fn tournament(settings: Settings) -> TagTournament {
    TagTournament {
        policies: ["stay", "random", "flee", "spread", "smart"]
            .iter()
            .map(|p| Policy::parse(p).unwrap())
            .collect(),
        teams: [3, 8],
        team_size: [2, 5],
        underworld: 30,
        settings,
        shuffle_seats: false,
    }
}

impl Game for ElementalTag {
    fn name(&self) -> &'static str {
        "tag"
    }
    fn dataset(&self) -> Vec<&'static str> {
        vec!["tournament", "tag", "--games", "600"]
    }
    fn tables(&self) -> &'static [&'static str] {
        &["games", "players"]
    }
    fn chunk_sizes(&self) -> [u64; 2] {
        [200, 150]
    }
    fn long_dataset(&self) -> Vec<&'static str> {
        vec![
            "tournament",
            "tag",
            "--games",
            "60000",
            "--chunk-size",
            "500",
        ]
    }
    fn inputs(&self) -> Vec<Input> {
        vec![
            Input {
                kind: "game",
                valid: "experiments/tag/small.toml",
                check: &["tag", "check", "FILE"],
                used_by: &["tag", "play", "FILE", "--narrate"],
            },
            Input {
                kind: "rules",
                valid: "experiments/tag/tag-cost-4.toml",
                check: &["tag", "check", "FILE"],
                used_by: &[
                    "tournament",
                    "tag",
                    "--rules",
                    "FILE",
                    "--games",
                    "40",
                    "--out",
                    "OUT",
                    "--quiet",
                ],
            },
            // Experiment files (any command's flags as keys; issue 53: errors by line and key).
            Input {
                kind: "experiment",
                valid: "experiments/tag/tournament.toml",
                check: &["run", "FILE", "--matches", "10", "--out", "OUT", "--quiet"],
                used_by: &["run", "FILE", "--matches", "40", "--out", "OUT", "--quiet"],
            },
        ]
    }
    fn warm_kernel(&self) -> Box<dyn FnMut()> {
        // A turn is the kernel's unit of work; with no costs the game never ends.
        let s = Settings {
            it_cost: 0,
            tag_cost: 0,
            tagged_cost: 0,
            max_turns: 100_000,
            ..Settings::default()
        };
        let t = tournament(s);
        let seed = match_seed(9, 0);
        let teams = t.roster(0, seed, &t.order(0, 0));
        let mut g = Engine::new();
        let mut o = g.begin(&teams, &s, seed, &mut Silent);
        for _ in 0..20 {
            assert!(g.next_turn(&s, &mut o, &mut Silent));
        }
        Box::new(move || {
            for _ in 0..50 {
                assert!(g.next_turn(&s, &mut o, &mut Silent));
            }
        })
    }
    fn differential(&self) -> Result<usize, String> {
        let t = tournament(Settings::default());
        let mut g = Engine::new();
        for m in 0..150 {
            let seed = match_seed(0xC0F7, m);
            let teams = t.roster(m, seed, &t.order(0, m));
            let a = g.play(&teams, &t.settings, seed, &mut Silent);
            let b = reference::play(&teams, &t.settings, seed);
            if a != b {
                return Err(format!("game {m}: {a:?} vs {b:?}"));
            }
        }
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(0xC0F8);
        let mut r = Resolver::new();
        for k in 0..300 {
            let side = rng.random_range(2..=6u32);
            let n = rng.random_range(1..=(side * side) as usize);
            let mut cells: Vec<u32> = (0..side * side).collect();
            rand::seq::SliceRandom::shuffle(&mut cells[..], &mut rng);
            cells.truncate(n);
            let dirs: Vec<u8> = (0..n).map(|_| rng.random_range(0..9u8)).collect();
            let s = Settings::default();
            let ends = r.resolve(side, &cells, &dirs, &s).to_vec();
            if ends != reference::resolve(side, &cells, &dirs, &s).0 {
                return Err(format!("move set {k} differs"));
            }
        }
        Ok(450)
    }
    fn narrate(&self) -> Vec<&'static str> {
        vec!["tag", "play", "--narrate"]
    }
}

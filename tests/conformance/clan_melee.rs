//! Clan Melee joins the suite.

use skirmish::games::clan_melee::input::clans;
use skirmish::games::clan_melee::kernel::engine::{By, Melee, Settings};
use skirmish::games::clan_melee::reference;
use skirmish::games::clan_melee::rules::Mode;
use skirmish::rng::{Stream, match_seed, match_stream_rng};

use crate::suite::{Game, Input};

pub struct ClanMelee;

impl Game for ClanMelee {
    fn name(&self) -> &'static str {
        "clan-melee"
    }
    fn dataset(&self) -> Vec<&'static str> {
        vec![
            "tournament",
            "clan-melee",
            "--budgets",
            "100,300",
            "--melees",
            "24",
        ]
    }
    fn tables(&self) -> &'static [&'static str] {
        &["melees", "clans"]
    }
    fn chunk_sizes(&self) -> [u64; 2] {
        [6, 5]
    }
    fn long_dataset(&self) -> Vec<&'static str> {
        vec![
            "tournament",
            "clan-melee",
            "--budgets",
            "1000,3000",
            "--melees",
            "200",
            "--chunk-size",
            "4",
        ]
    }
    fn inputs(&self) -> Vec<Input> {
        vec![
            // Rules files (issue 51): the melee's numbers.
            Input {
                kind: "rules",
                valid: "experiments/clan-melee-rules/fast-decay.toml",
                check: &["clan-melee", "check", "FILE"],
                used_by: &[
                    "tournament",
                    "clan-melee",
                    "--rules",
                    "FILE",
                    "--budgets",
                    "100",
                    "--melees",
                    "4",
                    "--out",
                    "OUT",
                    "--quiet",
                ],
            },
            Input {
                kind: "clan",
                valid: "experiments/clan-melee/1-clan2.toml",
                check: &["clan-melee", "check", "FILE"],
                used_by: &[
                    "tournament",
                    "clan-melee",
                    "--clans",
                    "FILE,experiments/clan-melee/0-clan1.toml",
                    "--budgets",
                    "100",
                    "--melees",
                    "2",
                    "--out",
                    "OUT",
                    "--quiet",
                ],
            },
        ]
    }
    fn warm_kernel(&self) -> Box<dyn FnMut()> {
        // A turn is the kernel's unit of work: the roster is built (and allocates) at setup.
        let field = clans::reference_field();
        let mut melee = Melee::new();
        let mut rng = match_stream_rng(7, Stream::Battle);
        melee.setup(&field, 20_000, &mut match_stream_rng(7, Stream::Roster));
        melee.turn(&field, Mode::Sane, &mut rng);
        Box::new(move || {
            melee.turn(&field, Mode::Sane, &mut rng);
        })
    }
    fn differential(&self) -> Result<usize, String> {
        let field = clans::reference_field();
        let mut melee = Melee::new();
        let mut n = 0;
        for i in 0..60u64 {
            let seed = match_seed(0xC1A7, i);
            let h = 1 + (seed % 3_000) as i32;
            for mode in [Mode::Sane, Mode::Reference] {
                // The per-member engine, the one held to the reference draw for draw.
                let s = Settings {
                    mode,
                    max_turns: 2_000,
                    engine: By::Members,
                };
                let a = melee.play(&field, h, &s, seed);
                let b = reference::play(&field, h, &s, seed);
                if a != b {
                    return Err(format!("melee {i} at {h} hp, {mode:?}: {a:?} vs {b:?}"));
                }
                n += 1;
            }
        }
        Ok(n)
    }
    fn narrate(&self) -> Vec<&'static str> {
        vec!["clan-melee", "play", "--narrate"]
    }
}

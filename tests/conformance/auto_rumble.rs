//! Auto Rumble joins the suite.

use rand::RngExt;

use skirmish::games::auto_rumble::input::roster::random_roster;
use skirmish::games::auto_rumble::kernel::data::{self, DataKernel, Rounds};
use skirmish::games::auto_rumble::powers::catalogue::Loadout;
use skirmish::games::auto_rumble::reference::{data as data_reference, hand as reference};
use skirmish::games::auto_rumble::trace::hand::RoundRecorder;
use skirmish::games::auto_rumble::{Kernel, Lineup, rules};
use skirmish::rng::{Stream, stream_rng};

use crate::common::{archive, random_archive_loadout};
use crate::suite::{Game, Input};

pub struct AutoRumble;

/// Random battles of archive powers: `(loadouts, initiatives)`.
fn archive_battles(
    cat: &skirmish::games::auto_rumble::powers::catalogue::Catalogue,
    salt: u64,
    n: u64,
) -> Vec<(Vec<Loadout>, Vec<f64>)> {
    (0..n)
        .map(|i| {
            let mut rng = stream_rng(salt, i, Stream::Roster);
            let heroes = rng.random_range(2..=5);
            let builds = (0..heroes)
                .map(|_| random_archive_loadout(cat, &mut rng, 3))
                .collect();
            let ini = (0..heroes).map(|_| rng.random_range(0.0..1.0)).collect();
            (builds, ini)
        })
        .collect()
}

impl Game for AutoRumble {
    fn name(&self) -> &'static str {
        "rumble"
    }
    fn dataset(&self) -> Vec<&'static str> {
        vec![
            "simulate",
            "rumble",
            "--matches",
            "3000",
            "--capacity",
            "128",
        ]
    }
    fn tables(&self) -> &'static [&'static str] {
        &["matches", "heroes"]
    }
    fn chunk_sizes(&self) -> [u64; 2] {
        [1_000, 700]
    }
    fn long_dataset(&self) -> Vec<&'static str> {
        vec![
            "simulate",
            "rumble",
            "--matches",
            "30000",
            "--chunk-size",
            "1000",
            "--capacity",
            "128",
        ]
    }
    fn inputs(&self) -> Vec<Input> {
        vec![
            Input {
                kind: "power",
                valid: "experiments/powers/sample.toml",
                check: &["rumble", "check", "FILE"],
                used_by: &[
                    "simulate",
                    "rumble",
                    "--power-file",
                    "FILE",
                    "--matches",
                    "200",
                    "--capacity",
                    "64",
                    "--out",
                    "OUT",
                    "--quiet",
                ],
            },
            Input {
                kind: "scenario",
                valid: "experiments/sample-round-1.toml",
                check: &["rumble", "check", "FILE"],
                used_by: &["rumble", "play", "FILE", "--narrate"],
            },
            // Rules files (issue 51): the battle's and the game's numbers.
            Input {
                kind: "rules",
                valid: "experiments/auto-rumble/costly-attack.toml",
                check: &["rumble", "check", "FILE"],
                used_by: &[
                    "simulate",
                    "rumble",
                    "--rules",
                    "FILE",
                    "--matches",
                    "200",
                    "--out",
                    "OUT",
                    "--quiet",
                ],
            },
            // Experiment files of `simulate rumble`'s own shape (settings under `[settings]`).
            Input {
                kind: "experiment",
                valid: "experiments/rumble-ffa.toml",
                check: &["run", "FILE", "--matches", "10", "--out", "OUT", "--quiet"],
                used_by: &["run", "FILE", "--matches", "60", "--out", "OUT", "--quiet"],
            },
        ]
    }
    fn warm_kernel(&self) -> Box<dyn FnMut()> {
        let cat = archive();
        let battles = archive_battles(&cat, 0xA110C, 60);
        let mut kernel = DataKernel::new(256);
        let mut play = move || {
            for (builds, ini) in &battles {
                data::play(&mut kernel, &cat, builds, ini, 30);
            }
        };
        play();
        Box::new(play)
    }
    fn differential(&self) -> Result<usize, String> {
        // The hand-written kernel against its reference, round by round.
        let mut kernel = Kernel::new(512);
        for i in 0..300u64 {
            let mut rng = stream_rng(0xC0F0, i, Stream::Roster);
            let heroes = random_roster(&mut rng, 2..=6, -30..=60);
            let lineup = Lineup::compile(&heroes).map_err(|e| format!("{e:?}"))?;
            let ini = lineup.initiatives(&mut stream_rng(0xC0F0, i, Stream::Initiative));
            let mut rec = RoundRecorder::default();
            let got = kernel.run(&lineup.builds, &ini, rules::DEFAULT_MAX_ROUNDS, &mut rec);
            let want = reference::play(&heroes, &ini, rules::DEFAULT_MAX_ROUNDS, 512);
            if rec.rounds != want.rounds || got != want.outcome {
                return Err(format!("hand-written battle {i} differs: {heroes:?}"));
            }
        }
        // The data kernel (both paths) against the data reference on archive powers.
        let cat = archive();
        let mut kernel = DataKernel::new(256);
        for (i, (builds, ini)) in archive_battles(&cat, 0xC0F1, 300).iter().enumerate() {
            let got = data::play(&mut kernel, &cat, builds, ini, 30);
            let want = data_reference::play(&cat, builds, ini, 30, 256);
            if got != want.outcome {
                return Err(format!("archive battle {i} differs"));
            }
            if data::in_kernel_class(builds) {
                let mut rounds = Rounds::default();
                kernel.run(&cat, builds, ini, 30, &mut rounds);
                if rounds.0 != want.rounds {
                    return Err(format!("archive battle {i}: rounds differ"));
                }
            }
        }
        Ok(600)
    }
    fn narrate(&self) -> Vec<&'static str> {
        vec!["rumble", "play", "--narrate"]
    }
}

//! Issue 53 (the second hostile sweep) as a user meets it: flags that double-counted rows,
//! named the wrong flag, measured nothing with exit 0 or refused only after working. Each is
//! refused at once with exit 2, a message naming the flag and the fix, and nothing written.

use crate::common;

use common::{skirmish, tmp};

/// Runs `args` with `--out` in a fresh folder; the command must fail with exit 2, say `says`
/// on stderr and leave no folder.
fn refused(name: &str, args: &[&str], says: &str) {
    let dir = tmp("hostile", name);
    let mut all: Vec<&str> = args.to_vec();
    all.extend(["--out", dir.to_str().unwrap(), "--quiet"]);
    let o = skirmish(&all);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
    assert!(err.contains(says), "{args:?}: {err}");
    assert!(!dir.exists(), "{args:?} wrote {}", dir.display());
}

#[test]
fn a_list_naming_an_entry_twice_is_refused() {
    refused(
        "budgets",
        &["tournament", "clan-melee", "--budgets", "100,100"],
        "--budgets: `100` is listed twice",
    );
    refused(
        "strategies",
        &["tournament", "loot", "--strategies", "looter,looter"],
        "--strategies: `looter` is listed twice",
    );
    // Two spellings of one policy are one policy.
    refused(
        "policies",
        &["tournament", "tag", "--policies", "stay,stay(bid=2)"],
        "is listed twice",
    );
    refused(
        "sets",
        &["analyze", "loot", "items", "--sets", "medic,medic"],
        "--sets: `medic` is listed twice",
    );
}

#[test]
fn a_parameter_given_twice_is_refused() {
    refused(
        "param-tag",
        &[
            "tournament",
            "tag",
            "--policies",
            "flee(margin=1, margin=2),stay",
        ],
        "`margin` is given twice",
    );
}

#[test]
fn counts_and_threads_are_checked_before_any_work_naming_their_own_flag() {
    refused(
        "games",
        &["tournament", "loot", "--games", "0"],
        "--games 0: give between 1",
    );
    refused(
        "max-battles",
        &["analyze", "rumble", "powers", "--max-battles", "0"],
        "--max-battles 0",
    );
    refused(
        "threads",
        &["analyze", "loot", "items", "--threads", "1025"],
        "--threads 1025: give between 1 and 1024",
    );
    let o = skirmish(&["bench", "--threads", "1025"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(o.stdout.is_empty(), "bench measured before refusing");
}

#[test]
fn minion_inputs_that_would_measure_nothing_or_forbidden_groups_are_refused() {
    // MC-1: the split's baseline swordsman must be a recruit.
    refused(
        "werewolf",
        &[
            "analyze",
            "minions",
            "--swordsman",
            "Werewolf",
            "--combats",
            "10",
        ],
        "--swordsman `Werewolf`: a monster",
    );
    // A nation no minion is of (a typo of Dwarf) would never apply its ability.
    let dir = tmp("hostile", "nation-file");
    std::fs::create_dir_all(&dir).unwrap();
    let rules = dir.join("rules.toml");
    std::fs::write(&rules, "[nation]\nDwraf = \"+1 hand in round 1\"\n").unwrap();
    refused(
        "nation",
        &[
            "simulate",
            "minions",
            "--rules",
            rules.to_str().unwrap(),
            "--matches",
            "10",
        ],
        "did you mean `Dwarf`?",
    );
}

// Issue 53: `verify` said "verified" on a folder missing most of its parts, and counted a part
// once per manifest that listed it.
#[test]
fn verify_states_whether_the_run_is_whole() {
    let dir = tmp("hostile", "verify-shards");
    let out = dir.to_str().unwrap();
    let shard = |k: &str| {
        let o = skirmish(&[
            "simulate",
            "rumble",
            "--matches",
            "4000",
            "--chunk-size",
            "500",
            "--shard",
            k,
            "--out",
            out,
            "--quiet",
        ]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    };
    shard("0/2");
    let v = skirmish(&["verify", out]);
    let err = String::from_utf8_lossy(&v.stderr);
    assert_eq!(v.status.code(), Some(2), "{err}");
    assert!(err.contains("incomplete: 4 of 8 parts"), "{err}");
    shard("1/2");
    let v = skirmish(&["verify", out]);
    let said = String::from_utf8_lossy(&v.stdout);
    assert!(v.status.success(), "{}", String::from_utf8_lossy(&v.stderr));
    assert!(said.contains("verified 8 parts"), "{said}");
    assert!(said.contains("4000 matches), the whole run"), "{said}");
}

// Issue 53: a finished dataset could not be re-read on read-only storage (its lock file was
// opened for writing, its manifest and answer rewritten). Read-only storage is made with a
// private read-only bind mount; where the machine allows none, the test says so and passes.
#[test]
fn a_finished_dataset_is_re_read_on_read_only_storage() {
    let dir = tmp("hostile", "read-only");
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("t");
    let out_s = out.to_str().unwrap();
    let args = [
        "tournament",
        "tag",
        "--games",
        "300",
        "--out",
        out_s,
        "--quiet",
    ];
    let first = skirmish(&args);
    assert!(
        first.status.success(),
        "{}",
        String::from_utf8_lossy(&first.stderr)
    );
    let bin = env!("CARGO_BIN_EXE_skirmish");
    let d = dir.to_str().unwrap();
    let script = format!(
        "mount --bind {d} {d} && mount -o remount,ro,bind {d} || exit 77; \
         touch {d}/probe 2>/dev/null && exit 78; \
         {bin} {} && {bin} verify {out_s}",
        args.join(" ")
    );
    let Some(o) = common::in_private_mounts(&script) else {
        return;
    };
    let said = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success(),
        "{said}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(said.contains("0 parts written now, 1 kept"), "{said}");
    assert!(said.contains("replayed 1 of 1 parts"), "{said}");
    std::fs::remove_dir_all(&dir).unwrap();
}

// Issue 53: errors in experiment files of the newer commands named a CLI flag ("unexpected
// argument '--colour'") with no line or key; every one now names file, line and key, and
// writes nothing.
#[test]
fn experiment_file_errors_name_file_line_and_key() {
    let dir = tmp("hostile", "experiment-errors");
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("out");
    for (name, body, says) in [
        (
            "typo",
            "command = \"analyze rumble powers\"\n# budget\nmax_battle = 5\n",
            ":3: `max_battle`: not a setting of `analyze rumble powers`; did you mean `max_battles`?",
        ),
        (
            "value",
            "command = \"tournament tag\"\n\ngames = \"many\"\n",
            ":3: `games`: ",
        ),
        (
            "refused-while-running",
            "command = \"tournament clan-melee\"\nmelees = 2\nbudgets = [100, 100]\n",
            ":3: `budgets`: --budgets: `100` is listed twice",
        ),
        (
            "command",
            "# what to run\ncommand = \"tournament tagg\"\n",
            ":2: `command`: `tournament tagg`: no such command (`tagg`); did you mean `tag`?",
        ),
    ] {
        let file = dir.join(format!("{name}.toml"));
        std::fs::write(&file, body).unwrap();
        let o = skirmish(&[
            "run",
            file.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{name}: {err}");
        assert!(
            err.contains(&format!("{}{says}", file.display())),
            "{name}: {err}"
        );
        assert!(!out.exists(), "{name}: wrote {}", out.display());
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

// AR-72 (issue 53): a breeder power file at capacity 16,384 took minutes and gigabytes in one
// battle (every hero hits every other); the capacity is now refused before any battle.
#[test]
fn ar_72_a_multiplying_power_bounds_the_capacity() {
    let dir = tmp("hostile", "breeder");
    std::fs::create_dir_all(&dir).unwrap();
    let powers = dir.join("breeder.toml");
    std::fs::write(
        &powers,
        "[[power]]\nname = \"Breeder\"\nsource = \"test\"\ntext = \"a copy every round; no damage taken\"\n\n[[power.clause]]\nwhen = \"round_end\"\neffects = [{ copy_self = 20 }]\n\n[[power.clause]]\nwhen = \"passive\"\neffects = [{ take_percent = 0 }]\n",
    )
    .unwrap();
    let p = powers.to_str().unwrap();
    let out = dir.join("out");
    let o = out.to_str().unwrap();
    for (args, flag) in [
        (
            vec![
                "simulate",
                "rumble",
                "--power-file",
                p,
                "--catalogue",
                "Breeder",
                "--powers=1..1",
                "--capacity",
                "16384",
                "--matches",
                "10",
                "--out",
                o,
            ],
            "--capacity: 16384: `Breeder` multiplies heroes",
        ),
        (
            vec![
                "tournament",
                "rumble",
                "--powers",
                p,
                "--capacity",
                "20000",
                "--games",
                "10",
                "--out",
                o,
            ],
            "--capacity 20000: `Breeder` multiplies heroes",
        ),
    ] {
        let r = skirmish(&args);
        let err = String::from_utf8_lossy(&r.stderr);
        assert_eq!(r.status.code(), Some(2), "{err}");
        assert!(err.contains(flag), "{err}");
        assert!(err.contains("at most 11965"), "{err}");
        assert!(!out.exists());
    }
    // Fewer rounds leave room for more heroes; the largest capacity that fits is accepted.
    let r = skirmish(&[
        "simulate",
        "rumble",
        "--power-file",
        p,
        "--catalogue",
        "Breeder",
        "--powers=1..1",
        "--capacity",
        "46340",
        "--max-rounds",
        "2",
        "--matches",
        "4",
        "--out",
        o,
        "--quiet",
    ]);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    std::fs::remove_dir_all(&dir).unwrap();
}

// Issue 53: `loot check` printed a debug dump of a changed rules file; it and `minions check`
// now tell the changes from the seed's values in plain words.
#[test]
fn a_rules_file_is_read_back_as_its_changes_in_plain_words() {
    let dir = tmp("hostile", "rules-changes");
    std::fs::create_dir_all(&dir).unwrap();
    for (game, body, says) in [
        (
            "loot",
            "crit_stage = \"base\"\n[champion.mage]\nhealth = 90\n",
            "    champion.mage.health 85 -> 90\n    crit_stage final -> base\n",
        ),
        ("minions", "rounds = 12\n", "    rounds 10 -> 12\n"),
    ] {
        let f = dir.join(format!("{game}.toml"));
        std::fs::write(&f, body).unwrap();
        let o = skirmish(&[game, "check", f.to_str().unwrap()]);
        let said = String::from_utf8_lossy(&o.stdout);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        assert!(said.contains(says), "{said}");
        assert!(!said.contains("Rules {"), "{said}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

// Issue 53: under `crit_stage = "base"` the Strength line showed the undoubled base, so its
// terms did not add up to its total; item lines showed the affinity factor where another
// applied. Every Strength line's terms now add up to the total it prints, under both stages.
#[test]
fn the_loot_narrations_strength_terms_add_up_to_its_total() {
    let dir = tmp("hostile", "loot-terms");
    std::fs::create_dir_all(&dir).unwrap();
    for stage in ["final", "base"] {
        let rules = dir.join(format!("{stage}.toml"));
        std::fs::write(&rules, format!("crit_stage = \"{stage}\"\n")).unwrap();
        let o = skirmish(&[
            "loot",
            "play",
            "experiments/loot-arena/battle.toml",
            "--rules",
            rules.to_str().unwrap(),
            "--narrate",
        ]);
        let said = String::from_utf8_lossy(&o.stdout);
        assert!(o.status.success());
        let mut checked = 0;
        for line in said
            .lines()
            .filter(|l| l.trim_start().starts_with("Strength ["))
        {
            let inner = &line[line.find('[').unwrap() + 1..line.rfind(']').unwrap()];
            let total: f64 = line
                .rsplit("] = ")
                .next()
                .unwrap()
                .split(" ->")
                .next()
                .unwrap()
                .parse()
                .unwrap();
            let mut sum = 0.0;
            for term in inner.replace(" - ", " + -").split(" + ") {
                let (a, f) = term.split_once('x').unwrap();
                sum += a.trim().parse::<f64>().unwrap() * f.parse::<f64>().unwrap();
            }
            assert!(
                (sum - total).abs() < 1e-6,
                "{stage}: {line}: terms add to {sum}"
            );
            checked += 1;
        }
        assert!(checked > 5, "{said}");
        if stage == "base" {
            assert!(
                said.contains("critical: a top face, the base x2 = "),
                "{said}"
            );
        }
        assert!(said.contains("(x1.05: affinity with strength)"), "{said}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

// Issue 53, Minion Combat narration: effects a hit sets off were told before the hit (reading as
// the previous line's consequence); a redirected hit gave the taker's HP under the victim's
// name; a combat ended by a withdrawal said only "both groups stand after 3 rounds".
#[test]
fn minion_narration_tells_a_hits_effects_after_it_its_taker_and_a_withdrawal() {
    let dir = tmp("hostile", "minion-narration");
    std::fs::create_dir_all(&dir).unwrap();
    let narrate = |name: &str, a: &str, b: &str| {
        let f = dir.join(format!("{name}.toml"));
        std::fs::write(
            &f,
            format!("[[group]]\nname = \"A\"\nminions = [{a}]\n[[group]]\nname = \"B\"\nminions = [{b}]\n"),
        )
        .unwrap();
        let o = skirmish(&[
            "minions",
            "combat",
            f.to_str().unwrap(),
            "--narrate",
            "--seed",
            "1",
        ]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        String::from_utf8_lossy(&o.stdout).into_owned()
    };
    let said = narrate(
        "skeleton",
        "\"Skeleton\"",
        "\"Elf archer\", \"Keeper swordsman\"",
    );
    let hit = said.find("Elf archer #1 [B] hits Skeleton #1 [A]").unwrap();
    let effect = said.find("damage taken 2 -> 0").unwrap();
    assert!(hit < effect, "{said}");
    let said = narrate(
        "whipping-boy",
        "\"Keeper swordsman\", \"Keeper swordsman + Whipping Boy\"",
        "\"Elf archer\"",
    );
    assert!(
        said.contains(
            "2 dealt; Keeper swordsman + Whipping Boy #2 [A] takes it and has 9 HP left."
        ),
        "{said}"
    );
    let said = narrate(
        "withdrawal",
        "\"Mechanical Man\"",
        "\"3 x Human swordsman\"",
    );
    assert!(
        said.contains(
            "both groups stand; it ends after 3 rounds as Mechanical Man #1 [A] withdrew (MC-46)"
        ),
        "{said}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The narration of an Elemental Tag game file (`settings` and team tables after the seed).
fn tag_narration(name: &str, game: &str) -> String {
    let dir = tmp("hostile", name);
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("game.toml");
    std::fs::write(&f, format!("seed = 1\n[settings]\n{game}")).unwrap();
    let o = skirmish(&["tag", "play", f.to_str().unwrap(), "--narrate"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8_lossy(&o.stdout).into_owned()
}

// Issue 53 (TG-66): a late signup on a full grid silently never joined.
#[test]
fn a_late_signup_on_a_full_grid_is_told_it_does_not_join() {
    let said = tag_narration(
        "full-grid",
        "grid_side = 2\ngrid_players = 4\nlate_min_players = 2\nmax_turns = 2\n\n\
         [[team]]\nname = \"Fire\"\nplayers = [{ name = \"Ash\", policy = \"stay\" }, { name = \"Ember\", policy = \"stay\" }]\n\n\
         [[team]]\nname = \"Nyx\"\nunderworld = true\nplayers = [{ name = \"Nyx\", policy = \"stay\" }]\n\n\
         [[team]]\nname = \"Umbra\"\nunderworld = true\nplayers = [{ name = \"Umbra\", policy = \"stay\" }]\n\n\
         [[signup]]\nturn = 1\nname = \"Vesper\"\npolicy = \"stay\"\n",
    );
    assert!(
        said.contains(
            "Vesper signs up late, but no cell of the grid is free: it does not join (TG-66)."
        ),
        "{said}"
    );
}

// Issue 53: with every team out on bids the narration read "Points: . It: Ash." (an eliminated
// player named as it).
#[test]
fn every_team_out_on_bids_is_told_as_such() {
    let said = tag_narration(
        "all-out",
        "element_points = 1\nunderworld_points = 1\n\n\
         [[team]]\nname = \"Fire\"\nplayers = [{ name = \"Ash\", policy = \"stay(bid=0)\" }, { name = \"Ember\", policy = \"stay(bid=3)\" }]\n\n\
         [[team]]\nname = \"Nyx\"\nunderworld = true\nplayers = [{ name = \"Nyx\", policy = \"stay(bid=3)\" }]\n\n\
         [[team]]\nname = \"Umbra\"\nunderworld = true\nplayers = [{ name = \"Umbra\", policy = \"stay(bid=3)\" }]\n",
    );
    assert!(said.contains("  No team is left in play.\n"), "{said}");
    assert!(!said.contains("Points: ."), "{said}");
}

// Issue 53: `x.abs() > LIMIT` wrapped for the most negative integer (Minion rules accepted
// -2147483648 where ±1000 is the range; `add_energy = -9223372036854775808` read as 0). Every
// range check now compares the value with its bounds or uses `unsigned_abs`; this keeps the
// wrapping form out of the source.
#[test]
fn no_range_check_compares_a_signed_abs_which_wraps_for_the_most_negative_integer() {
    fn walk(dir: &std::path::Path, found: &mut Vec<String>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(&p, found);
            } else if p.extension().is_some_and(|x| x == "rs") {
                let text = std::fs::read_to_string(&p).unwrap();
                for (i, line) in text.lines().enumerate() {
                    let l = line.replace(' ', "");
                    // A comparison with a whole number or a constant (floats' tolerances are
                    // fine: they cannot wrap).
                    let flagged = l.match_indices(".abs()").any(|(k, _)| {
                        let rest = l[k + 6..].trim_start_matches(['<', '>', '=']);
                        let cmp = l[k + 6..].starts_with(['<', '>']);
                        let word: String = rest
                            .chars()
                            .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == '.')
                            .collect();
                        cmp && !word.is_empty()
                            && (word.chars().all(|c| c.is_ascii_digit() || c == '_')
                                || word.chars().all(|c| c.is_ascii_uppercase() || c == '_'))
                    });
                    if flagged {
                        found.push(format!("{}:{}: {}", p.display(), i + 1, line.trim()));
                    }
                }
            }
        }
    }
    let mut found = Vec::new();
    walk(std::path::Path::new("src"), &mut found);
    assert!(
        found.is_empty(),
        "use unsigned_abs or the bounds: {found:#?}"
    );
}

// Shards of one run writing the folder's answer at once shared one temporary name, and one of
// them failed with "File exists" (seen in CI's Slurm job array). Four shards started together,
// three times over, all finish.
#[test]
fn shards_started_together_all_finish() {
    for round in 0..3 {
        let dir = tmp("hostile", &format!("shards-together-{round}"));
        let out = dir.to_str().unwrap().to_string();
        let children: Vec<_> = (0..4)
            .map(|k| {
                std::process::Command::new(env!("CARGO_BIN_EXE_skirmish"))
                    .args([
                        "simulate",
                        "rumble",
                        "--matches",
                        "8000",
                        "--chunk-size",
                        "1000",
                        "--threads",
                        "1",
                        "--quiet",
                        "--shard",
                        &format!("{k}/4"),
                        "--out",
                        &out,
                    ])
                    .stdout(std::process::Stdio::null())
                    .stderr(std::process::Stdio::piped())
                    .spawn()
                    .unwrap()
            })
            .collect();
        for c in children {
            let o = c.wait_with_output().unwrap();
            assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        }
    }
}

// Issue 51: `tag play --rules FILE` plays the game under the file's settings in place of its
// own, and a rules file whose grid cannot hold the game's players is refused on its line.
#[test]
fn tag_play_takes_a_rules_file_and_refuses_one_whose_grid_cannot_hold_the_game() {
    let plain = skirmish(&["tag", "play"]);
    let costly = skirmish(&["tag", "play", "--rules", "experiments/tag/tag-cost-4.toml"]);
    assert!(
        costly.status.success(),
        "{}",
        String::from_utf8_lossy(&costly.stderr)
    );
    assert_ne!(
        plain.stdout, costly.stdout,
        "a 4-point tag cost changes the game"
    );
    let dir = tmp("hostile", "tag-rules");
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("rules.toml");
    std::fs::write(&f, "# one player per cell of a 2x2 grid, most 2 cells\ngrid_side = 2\ngrid_players = 1\nelements = 12\n").unwrap();
    let ok = skirmish(&["tag", "play", "--rules", f.to_str().unwrap()]);
    assert!(
        ok.status.success(),
        "a grid that grows to fit: {}",
        String::from_utf8_lossy(&ok.stderr)
    );
    // 12 players, one per 256x256 grid: an 887-cell side, past the 256 limit.
    std::fs::write(
        &f,
        "# a huge grid for a single player\ngrid_side = 256\ngrid_players = 1\n",
    )
    .unwrap();
    let o = skirmish(&["tag", "play", "--rules", f.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(
        e.contains("rules.toml:3:1: `grid_players`") && e.contains("raise grid_players"),
        "{e}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A write the machine refuses (a file-size limit here, as a full disk would) is the machine's
/// failure, not the host's input: exit 1 (not 2), naming the file, no half-written file left;
/// the same command with room then runs in the same folder.
#[test]
fn a_write_the_machine_refuses_exits_1_naming_the_file() {
    let out = tmp("machine", "full");
    // The limit's signal ignored, so the write fails with EFBIG instead of killing the run.
    let script = "trap '' XFSZ; ulimit -f 1; exec \"$0\" simulate rumble --matches 2000 --out \"$1\" --quiet";
    let o = std::process::Command::new("sh")
        .args([
            "-c",
            script,
            env!("CARGO_BIN_EXE_skirmish"),
            out.to_str().unwrap(),
        ])
        .output()
        .expect("sh runs");
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains("writing ") && err.contains(&*out.to_string_lossy()),
        "{err}"
    );
    let half: Vec<_> = std::fs::read_dir(&out)
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp"))
        .collect();
    assert!(half.is_empty(), "{half:?}");
    let o = skirmish(&[
        "simulate",
        "rumble",
        "--matches",
        "2000",
        "--out",
        out.to_str().unwrap(),
        "--quiet",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

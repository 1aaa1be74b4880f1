//! Issue 50 as a user meets it: `report` and `diff` on folders written by commands of different
//! games, a what-if shown in its known direction, and refusals.

use crate::common;

use common::{skirmish, tmp};

fn run(args: &[&str], out: &std::path::Path) {
    let mut all = args.to_vec();
    all.extend(["--out", out.to_str().unwrap(), "--quiet"]);
    let o = skirmish(&all);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let said = String::from_utf8_lossy(&o.stdout);
    assert!(
        said.lines().last().unwrap().starts_with("report: "),
        "the last line says where the report is: {said}"
    );
}

/// The answer a command wrote into its folder.
fn answer_in(dir: &std::path::Path) -> skirmish::platform::answer::Answer {
    skirmish::platform::answer::Answer::from_json(
        &std::fs::read_to_string(dir.join("result.json")).unwrap(),
    )
    .unwrap()
}

#[test]
fn diff_shows_a_rule_change_in_its_direction_and_refuses_two_commands() {
    let a = tmp("report", "a");
    let b = tmp("report", "b");
    let t = tmp("report", "tag");
    // Fewer heroes per battle: every power's win rate rises.
    run(
        &["simulate", "rumble", "--matches", "6000", "--seed", "7"],
        &a,
    );
    run(
        &[
            "simulate",
            "rumble",
            "--matches",
            "6000",
            "--seed",
            "7",
            "--heroes",
            "2..3",
        ],
        &b,
    );
    let o = skirmish(&["diff", a.to_str().unwrap(), b.to_str().unwrap()]);
    let said = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(said.contains("heroes: [2,6] -> [2,3]"), "{said}");
    let cosmic = said
        .lines()
        .find(|l| l.trim_start().starts_with("Cosmic Shield"))
        .unwrap();
    assert!(cosmic.contains(" +") && cosmic.ends_with('*'), "{cosmic}");
    assert!(
        said.contains("unpaired (conservative"),
        "one part each: {said}"
    );
    // Ten parts or more of the same matches: paired, and narrower (the rosters differ in size,
    // so the matches are alike only in part).
    let (pa, pb) = (tmp("report", "pa"), tmp("report", "pb"));
    let args = ["simulate", "rumble", "--matches", "6000", "--seed", "7"];
    run(&[&args[..], &["--chunk-size", "500"]].concat(), &pa);
    run(
        &[&args[..], &["--chunk-size", "500", "--heroes", "2..3"]].concat(),
        &pb,
    );
    let o = skirmish(&["diff", pa.to_str().unwrap(), pb.to_str().unwrap()]);
    let paired = String::from_utf8_lossy(&o.stdout);
    assert!(
        paired.contains("paired: both runs played the same match seeds in the same 12 parts"),
        "{paired}"
    );
    let width = |l: &str| {
        let (lo, hi) = l.rsplit_once('[').unwrap().1.split_once(", ").unwrap();
        let pt = |x: &str| {
            x.trim_end_matches([']', '*', ' '])
                .trim_end_matches("pt")
                .parse::<f64>()
                .unwrap()
        };
        pt(hi) - pt(lo)
    };
    let cosmic_paired = paired
        .lines()
        .find(|l| l.trim_start().starts_with("Cosmic Shield"))
        .unwrap();
    assert!(
        width(cosmic_paired) < width(cosmic),
        "{cosmic_paired} against {cosmic}"
    );
    run(
        &["tournament", "tag", "--games", "200", "--chunk-size", "100"],
        &t,
    );
    let o = skirmish(&["diff", a.to_str().unwrap(), t.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("different commands"));
    let o = skirmish(&["report", "src", "--format", "md"]);
    assert_eq!(o.status.code(), Some(2));
    let o = skirmish(&["report", a.to_str().unwrap(), "--format", "pdf"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("text, md, bbcode, json, html"));
}

// `analyze rumble powers` (the flagship answer) writes its answer too: report renders it, and a
// stronger sample power is valued above a weaker one in the report's order.
#[test]
fn an_analysis_folder_has_an_answer_report_renders() {
    let dir = tmp("report", "powers");
    let d = dir.to_str().unwrap();
    let o = skirmish(&[
        "analyze",
        "rumble",
        "powers",
        "--max-battles",
        "60000",
        "--out",
        d,
        "--quiet",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let said = String::from_utf8_lossy(&o.stdout);
    assert!(
        said.lines().last().unwrap().starts_with("report: "),
        "{said}"
    );
    let o = skirmish(&["report", d, "--format", "md"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let md = String::from_utf8_lossy(&o.stdout);
    assert!(md.contains("### coin value by power"), "{md}");
    let shield = md.find("| Cosmic Shield |").unwrap();
    let crystal = md.find("| Crystallize |").unwrap();
    assert!(shield < crystal, "ranked by coin value: {md}");
    let o = skirmish(&["diff", d, d]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

// A mean of win points (a win 2, a draw 1) was reported as its raw mean: "win share by pair"
// said 1.21 where the summary said 60.7%. It is a share in every rendering, and a ratio of
// totals says it has no interval rather than show a zero-width one.
#[test]
fn a_win_share_of_points_is_reported_as_the_share_the_summary_prints() {
    let dir = common::tmp("report", "win-points");
    let d = dir.to_str().unwrap();
    let o = common::skirmish(&[
        "simulate",
        "loot",
        "--matches",
        "3000",
        "--out",
        d,
        "--quiet",
    ]);
    let summary = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(o.status.success());
    let o = common::skirmish(&["report", d, "--format", "json"]);
    let a: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let sections = a["sections"].as_array().unwrap();
    let pairs = sections
        .iter()
        .find(|s| s["title"] == "win share by pair")
        .unwrap();
    for e in pairs["estimates"].as_array().unwrap() {
        let v = e["value"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&v), "{e}");
        let label = e["label"].as_str().unwrap();
        let line = summary
            .lines()
            .find(|l| l.trim_start().starts_with(label))
            .unwrap();
        assert!(
            line.contains(&format!("{:.1}%", 100.0 * v)),
            "{line} vs {v}"
        );
    }
    let damage = sections
        .iter()
        .find(|s| s["title"] == "damage per attack by class")
        .unwrap();
    // A champion's attacks are rows of one battle: the mean per attack has an interval by
    // battle (issue 63), never a zero-width one.
    for e in damage["estimates"].as_array().unwrap() {
        let (v, lo, hi) = (
            e["value"].as_f64().unwrap(),
            e["lo"].as_f64().unwrap(),
            e["hi"].as_f64().unwrap(),
        );
        assert!(lo < v && v < hi, "{e}");
    }
}

// How royale games end was counted only where an end happened, so reports said 100% for every
// kind of end; each end's share of the games now adds to one.
#[test]
fn how_royale_games_end_is_reported_as_shares_of_the_games() {
    let dir = common::tmp("report", "ends");
    let d = dir.to_str().unwrap();
    let o = common::skirmish(&[
        "tournament",
        "loot",
        "--games",
        "300",
        "--out",
        d,
        "--quiet",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let o = common::skirmish(&["report", d, "--format", "json"]);
    let a: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let ends = a["sections"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["title"].as_str().unwrap().ends_with("how they end"))
        .unwrap();
    let total: f64 = ends["estimates"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["value"].as_f64().unwrap())
        .sum();
    assert!((total - 1.0).abs() < 1e-9, "{ends}");
}

/// TG-52's duel answers in the result model (issue 52: the guide's duel table is generated from
/// it): exact chances by horizon, each policy against the exact strategies with an interval.
#[test]
fn the_duel_writes_its_exact_chances_and_measured_tags_as_an_answer() {
    let out = tmp("report", "duel");
    run(
        &[
            "analyze",
            "tag",
            "duel",
            "--turns",
            "5",
            "--games",
            "400",
            "--policies",
            "smart,exact",
        ],
        &out,
    );
    let answer = answer_in(&out);
    let exact = &answer.sections[0];
    assert_eq!(exact.estimates.len(), 5, "horizons 1..5: {exact:?}");
    // One turn: a tag is guaranteed only from the starts next to the runner's every move.
    assert!(
        (exact.estimates[0].value - 0.016).abs() < 0.001,
        "{exact:?}"
    );
    assert!(exact.estimates[0].hi >= 0.5 && exact.estimates[0].lo == 0.0);
    // Issue 51: the duel reads a rules file. When a step into the runner's cell collides even
    // as the runner leaves it, a tag in one turn is guaranteed from every start next to it.
    let collides = tmp("report", "duel-collides");
    let base = [
        "analyze",
        "tag",
        "duel",
        "--turns",
        "5",
        "--games",
        "40",
        "--policies",
        "exact",
    ];
    run(
        &[
            &base[..],
            &["--rules", "experiments/tag/follow-collides.toml"],
        ]
        .concat(),
        &collides,
    );
    let c = answer_in(&collides);
    assert!(
        c.provenance.command.contains("--rules"),
        "{}",
        c.provenance.command
    );
    assert!(
        c.sections[0].estimates[0].value > 10.0 * exact.estimates[0].value,
        "{:?}",
        c.sections[0]
    );
    let measured = &answer.sections[1];
    let labels: Vec<&str> = measured
        .estimates
        .iter()
        .map(|e| e.label.as_str())
        .collect();
    assert_eq!(
        labels,
        [
            "both sides exact (the solved strategies)",
            "smart as runner",
            "smart as it player",
            "exact as runner",
            "exact as it player"
        ]
    );
    assert!(
        measured
            .estimates
            .iter()
            .all(|e| e.lo <= e.value && e.value <= e.hi && e.count == 400)
    );
    assert!(
        answer.notes[0].contains("even chance"),
        "{:?}",
        answer.notes
    );
}

/// Issue 51: a what-if is one command. `--versus-rules FILE` plays the command under its own
/// rules and under FILE on the same seeds, and answers with every difference and its interval.
#[test]
fn versus_rules_answers_a_rule_change_in_its_known_direction() {
    let out = tmp("report", "what-if");
    run(
        &[
            "tournament",
            "tag",
            "--games",
            "3000",
            "--chunk-size",
            "100",
            "--versus-rules",
            "experiments/tag/tag-cost-4.toml",
        ],
        &out,
    );
    let d = answer_in(&out);
    assert!(
        d.notes.iter().any(|n| n.starts_with("paired: ")),
        "{:?}",
        d.notes
    );
    assert!(out.join("base/result.json").is_file() && out.join("versus/result.json").is_file());
    // What changed opens the answer, in the rules file's words (issue 64).
    assert_eq!(d.totals[0].0, "changed", "{:?}", d.totals);
    assert!(d.totals[0].1.contains("tag_cost"), "{:?}", d.totals);
    // Four points a turn for every name on the tag list: games end sooner, by far.
    let length = d
        .sections
        .iter()
        .find(|s| s.title == "what-if: game length")
        .unwrap();
    assert!(length.estimates[0].hi < 0.0, "{length:?}");
    // A difference of win shares is in percentage points, not a share.
    let wins = d
        .sections
        .iter()
        .find(|s| s.title == "what-if: win rate by policy")
        .unwrap();
    assert_eq!(wins.unit, skirmish::platform::answer::Unit::Points);
    // The seed's own rules against themselves: nothing moves.
    let same = tmp("report", "what-if-same");
    run(
        &[
            "simulate",
            "loot",
            "--matches",
            "2000",
            "--chunk-size",
            "100",
            "--versus-rules",
            "experiments/loot-arena/rules.toml",
        ],
        &same,
    );
    let d = answer_in(&same);
    assert!(!d.sections.is_empty());
    // Paired, the same matches under the same rules differ by exactly nothing.
    for s in &d.sections {
        for e in &s.estimates {
            assert_eq!(
                (e.lo, e.value, e.hi),
                (0.0, 0.0, 0.0),
                "{}: {}",
                s.title,
                e.label
            );
        }
    }
    // A command without --rules (the speed bench) has no what-if.
    let o = skirmish(&["bench", "--versus-rules", "experiments/tag/tag-cost-4.toml"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("takes no --rules"));
    // A flag the command lacks is the grammar's message, said once.
    let o = skirmish(&["simulate", "loot", "--versus-rules", "x.toml", "--bogus"]);
    assert_eq!(o.status.code(), Some(2));
    let said = String::from_utf8_lossy(&o.stderr);
    assert!(
        said.starts_with("error: unexpected argument '--bogus'"),
        "{said}"
    );
    // A rules file that does not load is refused before either arm writes a thing.
    let none = tmp("report", "what-if-none");
    let o = skirmish(&[
        "tournament",
        "tag",
        "--games",
        "100",
        "--versus-rules",
        "no/such/rules.toml",
        "--out",
        none.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("no/such/rules.toml"));
    assert!(!none.exists(), "no partial output");
}

// Issue 64: `diff` takes `--format` like `report` (the differences as an answer of their own,
// the pairing said first) and `-o`, which never writes over a file of a folder.
#[test]
fn diff_renders_for_a_web_page_and_a_forum_post() {
    let a = tmp("report", "diff-format-a");
    let b = tmp("report", "diff-format-b");
    let tag = ["tournament", "tag", "--games", "600", "--chunk-size", "50"];
    run(&tag, &a);
    run(
        &[&tag[..], &["--rules", "experiments/tag/tag-cost-4.toml"]].concat(),
        &b,
    );
    let (sa, sb) = (a.to_str().unwrap(), b.to_str().unwrap());
    let said = |args: &[&str]| {
        let o = skirmish(args);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        String::from_utf8_lossy(&o.stdout).into_owned()
    };
    let md = said(&["diff", sa, sb, "--format", "md"]);
    assert!(md.starts_with("## what-if, B - A"), "{md}");
    assert!(md.contains("- intervals: paired over 12 parts"), "{md}");
    assert!(md.contains("| --- |"), "{md}");
    let bb = said(&["diff", sa, sb, "--format", "bbcode"]);
    assert!(bb.contains("[b]") && !bb.contains("## "), "{bb}");
    let page = a.join("..").join("diff-format.html");
    let wrote = said(&[
        "diff",
        sa,
        sb,
        "--format",
        "html",
        "-o",
        page.to_str().unwrap(),
    ]);
    assert!(wrote.contains("wrote"), "{wrote}");
    assert!(std::fs::read_to_string(&page).unwrap().contains("<svg"));
    std::fs::remove_file(&page).unwrap();
    let o = skirmish(&[
        "diff",
        sa,
        sb,
        "-o",
        a.join("result.json").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    let o = skirmish(&["diff", sa, sb, "--format", "pdf"]);
    assert!(String::from_utf8_lossy(&o.stderr).contains("one of text, md, bbcode, json, html"));
}

// Issue 64: a forum post fits in 10,000 characters by default (a Loot Arena post was 35,295),
// findings first, the tables left out named with the command that gives them all; `--full`
// gives everything.
#[test]
fn a_forum_post_fits_in_ten_thousand_characters_unless_asked_for_all() {
    let dir = tmp("report", "post");
    run(
        &[
            "analyze",
            "loot",
            "items",
            "--battles",
            "3000",
            "--cell",
            "500",
        ],
        &dir,
    );
    let d = dir.to_str().unwrap();
    let post = |extra: &[&str]| {
        let mut args = vec!["report", d, "--format", "bbcode"];
        args.extend(extra);
        let o = skirmish(&args);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        String::from_utf8_lossy(&o.stdout).into_owned()
    };
    let short = post(&[]);
    assert!(short.chars().count() <= 10_000, "{}", short.len());
    assert!(short.contains("Left out to fit a forum post"), "{short}");
    assert!(short.contains(&format!("skirmish report {d} --format bbcode --full")));
    let full = post(&["--full"]);
    assert!(full.len() > short.len() && !full.contains("Left out"));
    for sec in answer_in(&dir).sections {
        assert!(full.contains(&sec.title), "{} missing", sec.title);
    }
}

/// Issue 63: the power analysis keeps one sum over all its rosters, so a what-if of it was
/// compared unpaired (intervals 1.3-3.3x too wide). Its rosters, split into groups by number,
/// pair it: the same rosters in both arms, group by group.
#[test]
fn a_power_analysis_what_if_is_paired_on_the_same_rosters() {
    let out = tmp("report", "powers-what-if");
    let powers = ["analyze", "rumble", "powers", "--max-battles", "300000"];
    let with = |rules: &'static str| [&powers[..], &["--versus-rules", rules]].concat();
    run(&with("experiments/auto-rumble/costly-attack.toml"), &out);
    let d = answer_in(&out);
    let intervals = &d.totals.iter().find(|t| t.0 == "intervals").unwrap().1;
    assert!(intervals.starts_with("paired over 20 parts"), "{intervals}");
    // What changed is the rules' numbers, as a dataset command's what-if tells it.
    let changed = &d.totals.iter().find(|t| t.0 == "changed").unwrap().1;
    assert_eq!(changed, "attack_cost 10 -> 20");
    // Each arm records its own command: A without the rules file, B with it.
    let (a, b) = (answer_in(&out.join("base")), answer_in(&out.join("versus")));
    assert!(
        !a.provenance.command.contains("--rules"),
        "{}",
        a.provenance.command
    );
    assert!(
        b.provenance
            .command
            .contains("--rules experiments/auto-rumble/costly-attack.toml")
    );
    // Paired intervals are narrower than the unpaired ones of the two runs' own intervals.
    let values = |x: &skirmish::platform::answer::Answer, t: &str| {
        x.sections
            .iter()
            .find(|s| s.title == t)
            .unwrap()
            .estimates
            .clone()
    };
    let (mut paired, mut unpaired) = (0.0, 0.0);
    for e in values(&d, "what-if: coin value by power") {
        let [ea, eb] = [&a, &b].map(|x| {
            values(x, "coin value by power")
                .into_iter()
                .find(|y| y.label == e.label)
                .unwrap()
        });
        assert!(
            (e.value - (eb.value - ea.value)).abs() < 1e-9,
            "{}",
            e.label
        );
        paired += e.hi - e.lo;
        unpaired += ((ea.hi - ea.lo).powi(2) + (eb.hi - eb.lo).powi(2)).sqrt();
    }
    assert!(
        paired < 0.8 * unpaired,
        "paired {paired} unpaired {unpaired}"
    );
    // An edited replicates file is not trusted: the comparison falls back to unpaired.
    let f = out.join("base/replicates.json");
    let text = std::fs::read_to_string(&f).unwrap();
    std::fs::write(&f, text.replacen("0.0", "0.5", 1)).unwrap();
    let o = skirmish(&[
        "diff",
        out.join("base").to_str().unwrap(),
        out.join("versus").to_str().unwrap(),
    ]);
    assert!(o.status.success());
    assert!(String::from_utf8_lossy(&o.stdout).contains("unpaired"));
    // The seed's own rules against themselves: every difference exactly nothing.
    let same = tmp("report", "powers-what-if-same");
    run(&with("experiments/auto-rumble/rules.toml"), &same);
    for e in &values(&answer_in(&same), "what-if: coin value by power") {
        assert!(e.exact && e.value == 0.0, "{e:?}");
    }
}

/// Issue 63: Loot items and Minion Combat's analysis keep their sums by cell; each cell is also
/// kept in 20 groups of its matches, and a what-if of either pairs by the jackknife over them:
/// far narrower than two runs' own intervals, and exactly 0 under the same rules.
#[test]
fn ledger_analyses_what_ifs_are_paired_by_their_groups() {
    // Six rounds where the seed plays ten (MC-4).
    let rounds = tmp("report", "minion-rounds").with_extension("toml");
    std::fs::write(&rounds, "rounds = 6\n").unwrap();
    let cases: [(&str, &[&str], &str, &str, &str); 2] = [
        (
            "loot-items",
            &[
                "analyze",
                "loot",
                "items",
                "--battles",
                "400",
                "--cell",
                "100",
            ],
            "experiments/loot-arena/mage-90.toml",
            "champion.mage.health 85 -> 90",
            "experiments/loot-arena/rules.toml",
        ),
        (
            "minions",
            &["analyze", "minions", "--combats", "400", "--cell", "40"],
            rounds.to_str().unwrap(),
            "rounds 10 -> 6",
            "experiments/minion-combat/rules.toml",
        ),
    ];
    for (name, cmd, changed, told, same) in cases {
        let out = tmp("report", &format!("{name}-what-if"));
        run(&[cmd, &["--versus-rules", changed]].concat(), &out);
        let d = answer_in(&out);
        // What changed is the rules' numbers, as a dataset command's what-if tells it.
        assert_eq!(
            d.totals.iter().find(|t| t.0 == "changed").unwrap().1,
            told,
            "{name}"
        );
        let intervals = &d.totals.iter().find(|t| t.0 == "intervals").unwrap().1;
        assert!(
            intervals.starts_with("paired over 20 parts"),
            "{name}: {intervals}"
        );
        assert!(out.join("base/replicates.json").is_file(), "{name}");
        let (a, b) = (answer_in(&out.join("base")), answer_in(&out.join("versus")));
        let (mut paired, mut unpaired) = (0.0, 0.0);
        for s in &d.sections {
            let title = s.title.trim_start_matches("what-if: ");
            for e in &s.estimates {
                let [ea, eb] = [&a, &b].map(|x| {
                    x.sections
                        .iter()
                        .find(|t| t.title == title)
                        .and_then(|t| t.estimates.iter().find(|y| y.label == e.label))
                        .unwrap()
                        .clone()
                });
                paired += e.hi - e.lo;
                unpaired += ((ea.hi - ea.lo).powi(2) + (eb.hi - eb.lo).powi(2)).sqrt();
            }
        }
        assert!(
            paired < 0.8 * unpaired,
            "{name}: paired {paired} unpaired {unpaired}"
        );
        let again = tmp("report", &format!("{name}-what-if-same"));
        run(&[cmd, &["--versus-rules", same]].concat(), &again);
        for s in &answer_in(&again).sections {
            for e in &s.estimates {
                assert!(
                    e.value == 0.0 && e.lo == 0.0 && e.hi == 0.0,
                    "{name}: {e:?}"
                );
            }
        }
    }
}

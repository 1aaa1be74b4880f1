//! Issue 62 (the third hostile sweep): nothing a folder or file says runs code, passes for data,
//! or injects markup. Each case failed before its fix.

use crate::common;

use std::fs;
use std::path::Path;

use common::{skirmish, skirmish_in, tmp};

/// One hostile name: script, event handler, closing tags, BBCode, Markdown links and images, a
/// table pipe, a newline, ESC and BEL, and a right-to-left override.
const HOSTILE: &str = "<script>alert(1)</script><img src=x onerror=alert(2)>[/list][url=http://e.com]x[/url][img]http://e.com/i.png[/img] ![i](http://e.com/i.png) [l](http://e.com) a|b\n\u{1b}[31m\u{7}\u{202e}evil";

fn toml_string(s: &str) -> String {
    serde_json::to_string(s).unwrap()
}

/// A power file whose one power is named [`HOSTILE`].
fn hostile_power_file(dir: &Path) -> std::path::PathBuf {
    fs::create_dir_all(dir).unwrap();
    let p = dir.join("hostile.toml");
    fs::write(
        &p,
        format!(
            "[[power]]\nname = {}\nsource = \"test\"\ntext = \"x\"\n\n[[power.clause]]\nwhen = \"passive\"\neffects = [{{ attack_bonus = 5 }}]\n",
            toml_string(HOSTILE)
        ),
    )
    .unwrap();
    p
}

/// A small `simulate rumble` of the [`HOSTILE`] power into `d/run`: its power file, the
/// folder and what it printed.
fn hostile_run(d: &Path) -> (std::path::PathBuf, std::path::PathBuf, String) {
    let file = hostile_power_file(&d.with_extension("in"));
    let out = d.join("run");
    let printed = ok(&[
        "simulate",
        "rumble",
        "--power-file",
        file.to_str().unwrap(),
        "--powers",
        "0..1",
        "--matches",
        "300",
        "--out",
        out.to_str().unwrap(),
        "--quiet",
    ]);
    (file, out, printed)
}

fn ok(args: &[&str]) -> String {
    let o = skirmish(args);
    assert!(
        o.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout).unwrap()
}

fn refused(args: &[&str], says: &str) {
    let o = skirmish(args);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
    assert!(err.contains(says), "{args:?}: {err}");
}

/// Reseals a JSON file after an edit, as a forger who knows the format would.
fn edit_sealed(path: &Path, edit: impl FnOnce(&mut serde_json::Value)) {
    let mut v: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(path).unwrap()).unwrap();
    edit(&mut v);
    let v = skirmish::platform::digest::seal(v);
    fs::write(path, serde_json::to_string_pretty(&v).unwrap()).unwrap();
}

/// A forger's edit of an answer: its first section's first estimate moved by `by`, resealed.
fn move_first_estimate(answer: &Path, by: f64) {
    edit_sealed(answer, |v| {
        let e = &mut v["sections"][0]["estimates"][0]["value"];
        *e = serde_json::json!(e.as_f64().unwrap() + by);
    });
}

/// A small Auto Rumble dataset's command into `out` (four parts).
fn small_rumble_args(out: &Path) -> Vec<&str> {
    let mut a = vec![
        "simulate",
        "rumble",
        "--matches",
        "400",
        "--chunk-size",
        "100",
        "--seed",
        "5",
        "--out",
    ];
    a.extend([out.to_str().unwrap(), "--quiet"]);
    a
}

fn small_rumble(out: &Path) {
    ok(&small_rumble_args(out));
}

#[test]
fn verify_of_a_crafted_manifest_runs_nothing() {
    let d = tmp("h62", "verify");
    small_rumble(&d);
    let marker = d.with_extension("marker");
    let _ = fs::remove_file(&marker);
    for cmd in [
        format!(
            "skirmish reproduce --record x -- bash -c 'touch {}'",
            marker.display()
        ),
        format!("skirmish run {}", marker.display()),
        "skirmish bench".to_string(),
    ] {
        edit_sealed(&d.join("manifest.json"), |m| {
            m["command"] = cmd.clone().into()
        });
        // The answer resealed to match (issue 79: verify holds it to the manifest), so that
        // what is tried here is the recorded command itself.
        edit_sealed(&d.join("result.json"), |a| {
            a["provenance"]["command"] = cmd.clone().into()
        });
        refused(
            &["verify", d.to_str().unwrap()],
            "is not a command that writes a dataset",
        );
        assert!(!marker.exists(), "verify ran `{cmd}`");
    }
}

/// A scratch checkout holding `docs/answers/NAME.json` with `args`.
fn answers_with(name: &str, args: serde_json::Value) -> common::Tmp {
    let d = tmp("h62", name);
    fs::create_dir_all(d.join("docs/answers")).unwrap();
    let mut r: serde_json::Value =
        serde_json::from_str(&fs::read_to_string("docs/answers/rumble-ffa.json").unwrap()).unwrap();
    r["args"] = args;
    r["fast"] = true.into();
    fs::write(
        d.join(format!("docs/answers/{name}.json")),
        serde_json::to_string(&r).unwrap(),
    )
    .unwrap();
    d
}

#[test]
fn reproduce_of_a_crafted_answer_file_runs_nothing() {
    for (k, args) in [
        serde_json::json!(["bash", "-c", "touch MARKER"]),
        serde_json::json!([
            "reproduce",
            "--record",
            "x",
            "--",
            "bash",
            "-c",
            "touch MARKER"
        ]),
        serde_json::json!(["bash", "experiments/other.sh"]),
        serde_json::json!(["verify", "."]),
    ]
    .into_iter()
    .enumerate()
    {
        let d = answers_with(&format!("evil{k}"), args.clone());
        for flags in [&["reproduce", "--fast"][..], &["reproduce"][..]] {
            let o = skirmish_in(&d, flags);
            let err = String::from_utf8_lossy(&o.stderr);
            assert_eq!(o.status.code(), Some(2), "{args}: {err}");
            assert!(err.contains("`args`"), "{args}: {err}");
            assert!(!d.join("MARKER").exists(), "reproduce ran {args}");
        }
    }
}

#[test]
fn a_recorded_answer_name_is_a_plain_name() {
    for name in ["../../escape", "a/b", ".hidden", ""] {
        refused(
            &["reproduce", "--record", name, "--", "games"],
            "a plain name",
        );
    }
}

/// Issue 79: a block `<!-- answer ../x -->` was filled from a file outside docs/answers/.
#[test]
fn an_answer_block_names_only_a_recorded_answer() {
    let d = answers_with("rumble-ffa", serde_json::json!(["simulate", "rumble"]));
    // The file the block reaches for exists, beside docs/answers/.
    fs::copy(
        d.join("docs/answers/rumble-ffa.json"),
        d.join("docs/outside.json"),
    )
    .unwrap();
    let page = "<!-- answer ../outside -->\nold\n<!-- /answer -->\n";
    fs::write(d.join("README.md"), page).unwrap();
    for args in [
        &["reproduce", "--write-docs"][..],
        &["reproduce", "--check-docs"],
    ] {
        let o = skirmish_in(&d, args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_ne!(o.status.code(), Some(0), "{args:?}: {err}");
        assert!(
            err.contains("not a recorded answer's name"),
            "{args:?}: {err}"
        );
    }
    assert_eq!(fs::read_to_string(d.join("README.md")).unwrap(), page);
}

#[test]
fn write_docs_never_writes_through_a_link() {
    let d = answers_with("rumble-ffa", serde_json::json!(["simulate", "rumble"]));
    let outside = d.join("outside.md");
    let stale = "<!-- answer rumble-ffa -->\nold\n<!-- /answer -->\n";
    fs::write(&outside, stale).unwrap();
    std::os::unix::fs::symlink(&outside, d.join("README.md")).unwrap();
    let o = skirmish_in(&d, &["reproduce", "--write-docs"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("is a link"), "{err}");
    assert_eq!(fs::read_to_string(&outside).unwrap(), stale);
}

#[test]
fn an_experiment_file_names_only_a_command_that_writes_a_dataset() {
    let d = tmp("h62", "experiment");
    fs::create_dir_all(&d).unwrap();
    for command in ["reproduce", "bench", "verify"] {
        let f = d.join(format!("{command}.toml"));
        fs::write(&f, format!("command = \"{command}\"\n")).unwrap();
        refused(&["run", f.to_str().unwrap()], "cannot be run from a file");
    }
}

#[test]
fn an_edited_manifest_tally_is_refused_by_the_run_report_and_diff() {
    let d = tmp("h62", "tally");
    small_rumble(&d);
    let m = d.join("manifest.json");
    let text = fs::read_to_string(&m).unwrap();
    let edited = text.replacen("\"draws\": ", "\"draws\": 1", 1);
    assert_ne!(edited, text);
    fs::write(&m, edited).unwrap();
    let dir = d.to_str().unwrap();
    refused(&["report", dir], "manifest.json: `digest`");
    refused(&["diff", dir, dir], "manifest.json: `digest`");
    refused(&["verify", dir], "manifest.json: `digest`");
    let o = skirmish(&small_rumble_args(&d));
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("manifest.json: `digest`"));
}

#[test]
fn an_edited_answer_grid_is_refused() {
    let d = tmp("h62", "grid");
    small_rumble(&d);
    let r = d.join("result.json");
    let text = fs::read_to_string(&r).unwrap();
    // The answer's words or numbers moved by hand, its seal left as it was.
    let edited = text.replacen("\"title\": \"", "\"title\": \"Forged ", 1);
    assert_ne!(edited, text);
    fs::write(&r, edited).unwrap();
    refused(&["report", d.to_str().unwrap()], "result.json: `digest`");
}

#[test]
fn an_edited_ledger_or_state_is_refused_by_the_continuing_run() {
    let d = tmp("h62", "ledger");
    let dir = d.to_str().unwrap();
    let items = |battles: &str| {
        skirmish(&[
            "analyze",
            "loot",
            "items",
            "--battles",
            battles,
            "--cell",
            "100",
            "--seed",
            "3",
            "--out",
            dir,
            "--quiet",
        ])
    };
    assert!(items("200").status.success());
    let l = d.join("ledger.json");
    let text = fs::read_to_string(&l).unwrap();
    fs::write(&l, text.replacen("\"n\": 200", "\"n\": 199", 1)).unwrap();
    let o = items("300");
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("ledger.json: `digest`"), "{err}");

    let p = tmp("h62", "state");
    let dir = p.to_str().unwrap();
    let powers = |battles: &str| {
        skirmish(&[
            "analyze",
            "rumble",
            "powers",
            "--max-battles",
            battles,
            "--batch",
            "100",
            "--seed",
            "3",
            "--out",
            dir,
            "--quiet",
        ])
    };
    let o = powers("4000");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let s = p.join("state.json");
    let text = fs::read_to_string(&s).unwrap();
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let rosters = v["rosters"].as_u64().unwrap();
    fs::write(
        &s,
        text.replacen(
            &format!("\"rosters\": {rosters}"),
            &format!("\"rosters\": {}", rosters - 1),
            1,
        ),
    )
    .unwrap();
    let o = powers("8000");
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("state.json: `digest`"), "{err}");
}

#[test]
fn a_what_if_into_a_finished_plain_run_is_refused() {
    let d = tmp("h62", "whatif");
    small_rumble(&d);
    let before = fs::read(d.join("result.json")).unwrap();
    refused(
        &[
            "simulate",
            "rumble",
            "--matches",
            "400",
            "--versus-rules",
            "experiments/auto-rumble/costly-attack.toml",
            "--out",
            d.to_str().unwrap(),
            "--quiet",
        ],
        "not an earlier `what-if` output",
    );
    assert_eq!(fs::read(d.join("result.json")).unwrap(), before);
}

#[test]
fn report_never_writes_over_a_file_of_the_folder() {
    let d = tmp("h62", "report-o");
    small_rumble(&d);
    let before = fs::read(d.join("manifest.json")).unwrap();
    for name in ["manifest.json", "result.json", "matches/part-00000.parquet"] {
        let target = d.join(name);
        refused(
            &[
                "report",
                d.to_str().unwrap(),
                "-o",
                target.to_str().unwrap(),
            ],
            "is a file of the skirmish output folder",
        );
    }
    assert_eq!(fs::read(d.join("manifest.json")).unwrap(), before);
    let fine = d.join("report.md");
    ok(&[
        "report",
        d.to_str().unwrap(),
        "--format",
        "md",
        "-o",
        fine.to_str().unwrap(),
    ]);
    assert!(fs::read_to_string(&fine).unwrap().starts_with("## "));
}

/// What a CommonMark renderer makes of `md` (tables on, as forums and GitHub render them).
fn commonmark(md: &str) -> String {
    let parser = pulldown_cmark::Parser::new_ext(md, pulldown_cmark::Options::ENABLE_TABLES);
    let mut html = String::new();
    pulldown_cmark::html::push_html(&mut html, parser);
    html
}

/// Every table of rendered HTML keeps its shape: each row has as many cells as its head.
fn tables_keep_their_shape(html: &str) {
    for table in html.split("<table>").skip(1) {
        let table = &table[..table.find("</table>").unwrap()];
        let head = table.matches("</th>").count();
        for row in table.split("<tr>").skip(2) {
            assert_eq!(
                row.matches("</td>").count(),
                head,
                "a row out of shape: {row}"
            );
        }
    }
}

fn no_markup_escapes(html: &str, what: &str) {
    for tag in ["<script", "<img", "<a ", "<a>", "onerror=\""] {
        assert!(!html.contains(tag), "{what}: `{tag}` came through: {html}");
    }
}

fn no_controls(text: &str, what: &str) {
    for c in ['\u{1b}', '\u{7}', '\u{202e}'] {
        assert!(!text.contains(c), "{what}: {c:?} reached the output raw");
    }
}

fn bbcode_is_inert(bb: &str, what: &str) {
    for tag in ["[url", "[img", "[/url]", "[/img]"] {
        assert!(!bb.contains(tag), "{what}: `{tag}` came through");
    }
    assert_eq!(
        bb.matches("[list]").count(),
        bb.matches("[/list]").count(),
        "{what}: lists out of balance"
    );
    no_controls(bb, what);
}

#[test]
fn a_hostile_name_is_inert_in_every_format() {
    let d = tmp("h62", "names");
    let (file, out, printed) = hostile_run(&d);
    no_controls(&printed, "the printed summary");
    let dir = out.to_str().unwrap();
    let text = ok(&["report", dir]);
    no_controls(&text, "report --format text");
    assert!(text.contains("\\u{1b}"), "controls are shown escaped");
    let md = ok(&["report", dir, "--format", "md"]);
    no_controls(&md, "report --format md");
    let html = commonmark(&md);
    no_markup_escapes(&html, "Markdown rendered by CommonMark");
    tables_keep_their_shape(&html);
    assert!(html.contains("<table>"), "the report has tables");
    bbcode_is_inert(&ok(&["report", dir, "--format", "bbcode"]), "report bbcode");
    let page = ok(&["report", dir, "--format", "html"]);
    assert!(
        !page.contains("<script") && !page.contains("<img"),
        "the page stays script-free"
    );
    no_controls(&page, "report html");
    // A diff of the folder with itself shows the name too.
    no_controls(&ok(&["diff", dir, dir]), "diff");

    // A told battle in which a hero and its power carry the name.
    let scenario = d.with_extension("battle.toml");
    fs::write(
        &scenario,
        format!(
            "[battle]\nmax_rounds = 5\n\n[[hero]]\nname = {n}\ncoins = 10\nbase_initiative = 0.25\npowers = [{{ name = {n}, strength = 3 }}]\norder = [\"Attack\"]\n\n[[hero]]\nname = \"Bob\"\ncoins = 10\nbase_initiative = 0.75\npowers = []\norder = [\"Attack\"]\n",
            n = toml_string(HOSTILE)
        ),
    )
    .unwrap();
    let play = |format: &str| {
        ok(&[
            "rumble",
            "play",
            scenario.to_str().unwrap(),
            "--powers",
            file.to_str().unwrap(),
            "--narrate",
            "--format",
            format,
        ])
    };
    no_controls(&play("text"), "narration text");
    bbcode_is_inert(&play("bbcode"), "narration bbcode");
    let md = play("md");
    no_controls(&md, "narration md");
    no_markup_escapes(&commonmark(&md), "narration md rendered");
    let _ = fs::remove_dir_all(d.with_extension("in"));
    let _ = fs::remove_file(&scenario);
}

#[test]
fn a_minion_level_the_rules_cannot_play_is_refused() {
    let d = tmp("h62", "minion-level");
    refused(
        &[
            "analyze",
            "minions",
            "--candidate",
            "H:3 A:1 HP:9 L:7",
            "--out",
            d.to_str().unwrap(),
            "--quiet",
        ],
        "`L:7` is outside 0..5",
    );
    assert!(!d.exists());
}

/// The docs promise saturation into 32 bits: an Energy effect that saturates at the 32-bit
/// minimum takes every point of Energy, on the kernel's paths and the reference alike (it did
/// nothing: `-v` of the minimum is the minimum again).
#[test]
fn an_energy_effect_saturating_at_the_32_bit_minimum_takes_all_energy() {
    use skirmish::games::auto_rumble::kernel::data::{DataKernel, Rounds, in_kernel_class};
    use skirmish::games::auto_rumble::powers::catalogue::{
        Catalogue, Held, Loadout, default_order,
    };
    use skirmish::games::auto_rumble::powers::file::parse;
    use skirmish::games::auto_rumble::reference::data as reference;
    for effect in [
        "{ set_energy = \"-1000000 * energy\" }",
        "{ add_energy = \"-1000000 * energy\" }",
    ] {
        let text = format!(
            "[[power]]\nname = \"P\"\nsource = \"issue 62\"\ntext = \"x\"\n\n[[power.clause]]\nwhen = \"round_start\"\neffects = [{effect}]\n"
        );
        let cat = Catalogue::new(parse(&text, "issue62.toml").unwrap());
        let held = [Held {
            power: 0,
            strength: 1,
        }];
        // 2,148 coins of Energy: -1,000,000 x 2,148 saturates at i32::MIN.
        let holder = Loadout::compile(&cat, 2148, &held, &default_order(&cat, &held)).unwrap();
        let plain = Loadout::compile(&cat, 10, &[], &default_order(&cat, &[])).unwrap();
        let builds = [holder, plain];
        let ini = [0.25, 0.75];
        let want = reference::play(&cat, &builds, &ini, 30, 64);
        assert_eq!(want.outcome.winner, Some(1), "{effect}: the holder falls");
        let mut kernel = DataKernel::new(64);
        if in_kernel_class(&builds) {
            let got = kernel.run(&cat, &builds, &ini, 30, &mut Rounds::default());
            assert_eq!(got, want.outcome, "{effect}: the fast path agrees");
        }
        let got = kernel
            .general()
            .run(&cat, &builds, &ini, 30, &mut Rounds::default());
        assert_eq!(got, want.outcome, "{effect}: the general path agrees");
    }
}

#[test]
fn bench_refuses_a_count_without_bound() {
    refused(&["bench", "--matches", "18446744073709551615"], "--matches");
}

#[test]
fn a_negative_count_in_an_experiment_file_is_placed_on_its_line() {
    let d = tmp("h62", "negative");
    fs::create_dir_all(&d).unwrap();
    let f = d.join("tag.toml");
    fs::write(&f, "command = \"tournament tag\"\n# how many\ngames = -1\n").unwrap();
    refused(&["run", f.to_str().unwrap()], "tag.toml:3: `games`");
}

#[test]
fn the_guides_minion_candidate_with_a_modifier_is_accepted() {
    let readme = fs::read_to_string("docs/minion-combat.md").unwrap();
    let spec = "Dwarf swordsman + Veteran";
    assert!(
        readme.contains(&format!("`\"{spec}\"`")),
        "the Minion Combat guide shows {spec}"
    );
    let d = tmp("h62", "minion-modifier");
    ok(&[
        "analyze",
        "minions",
        "--candidate",
        spec,
        "--combats",
        "60",
        "--out",
        d.to_str().unwrap(),
        "--quiet",
    ]);
}

// Issue 62: an analysis put its lock and its temporary folder beside its output, so it could not
// write into a writable folder under a read-only parent. Made with private bind mounts (the
// parent read-only, the folder a writable mount over it); where the machine allows none, the
// test says so and passes.
#[test]
fn an_analysis_writes_into_a_writable_folder_under_a_read_only_parent() {
    let base = tmp("hostile62", "ro-parent");
    let (d, w) = (base.join("ro"), base.join("w"));
    fs::create_dir_all(d.join("out")).unwrap();
    fs::create_dir_all(&w).unwrap();
    let bin = env!("CARGO_BIN_EXE_skirmish");
    let ds = d.to_str().unwrap();
    let run = format!(
        "{bin} analyze clan-melee challengers --budgets 300 --melees 6 --out {ds}/out --quiet"
    );
    if !common::under_read_only_parent(&d, &[(&w, "out")], &format!("{run} && {run}")) {
        return;
    }
    // The answer landed in the folder, twice over (the second run replaced it in place).
    assert!(w.join("result.json").is_file());
    assert!(!d.join(".out.output.lock").exists());
}

// Issue 62: 1,000 candidate powers needed 1.4 GB and more and aborted (exit 134) under a 1.5 GB
// cap; the memory is estimated first and the run refused, naming the fix, with nothing written.
#[test]
fn a_thousand_candidate_powers_are_refused_before_they_exhaust_memory() {
    let dir = tmp("hostile62", "many-candidates");
    fs::create_dir_all(&dir).unwrap();
    let file = dir.join("many.toml");
    let mut text = String::new();
    for i in 0..1000 {
        text.push_str(&format!(
            "[[power]]\nname = \"P{i}\"\nsource = \"test\"\ntext = \"x\"\n\n[[power.clause]]\nwhen = \"passive\"\neffects = [{{ attack_bonus = {} }}]\n\n",
            i % 7 + 1
        ));
    }
    fs::write(&file, text).unwrap();
    // Capped by the variable, and (issue 79: it aborted there) by the process's own limit.
    for (how, cap) in [("variable", true), ("ulimit -v", false)] {
        let out = dir.join("out");
        let mut cmd = if cap {
            let mut c = std::process::Command::new(env!("CARGO_BIN_EXE_skirmish"));
            c.env("SKIRMISH_MEMORY", "1500M");
            c
        } else {
            let mut c = std::process::Command::new("bash");
            c.args([
                "-c",
                "ulimit -v 1536000 && exec \"$0\" \"$@\"",
                env!("CARGO_BIN_EXE_skirmish"),
            ]);
            c.env_remove("SKIRMISH_MEMORY");
            c
        };
        let o = cmd
            .args([
                "analyze",
                "rumble",
                "powers",
                "--candidate",
                file.to_str().unwrap(),
                "--max-battles",
                "2100",
                "--quiet",
                "--out",
                out.to_str().unwrap(),
            ])
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{how}: {err}");
        assert!(
            err.contains("need about") && err.contains("fewer powers or candidates"),
            "{how}: {err}"
        );
        assert!(!out.exists(), "{how}");
    }
}

// Issue 62: a clan candidate over budget read 0% and "rank 5 of 10" without a word of why; the
// answer now counts the melees it was disqualified from (CM-5) and says so before its rank.
#[test]
fn a_clan_candidate_over_budget_is_said_to_be_disqualified() {
    let dir = tmp("hostile62", "greedy-clan");
    fs::create_dir_all(&dir).unwrap();
    let clan = dir.join("greedy.toml");
    fs::write(
        &clan,
        "name = \"Greedy\"\nsource = \"test\"\nnotes = \"Spends twice the budget.\"\n\n[[roster]]\nmembers = [\n    { kind = \"hunter\", pool = \"2 * H\", piece = 100 },\n]\n\n[kinds.hunter]\ntype = \"warrior\"\nrule = [{ ap = 12 }]\n",
    )
    .unwrap();
    let out = dir.join("out");
    let said = ok(&[
        "tournament",
        "clan-melee",
        "--candidate",
        clan.to_str().unwrap(),
        "--melees",
        "20",
        "--budgets",
        "1000",
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ]);
    let line = said
        .lines()
        .position(|l| l.contains("candidate Greedy: share of melees the candidate was disqualified from (CM-5) at budget 1000 is 100.0%"))
        .unwrap_or_else(|| panic!("{said}"));
    let rank = said
        .lines()
        .position(|l| {
            l.trim_start()
                .starts_with("Greedy in win rate at budget 1000")
        })
        .unwrap();
    assert!(line < rank, "{said}");
}

use common::verify;

/// A small `analyze loot items` (a ledger analysis) written into a folder of its own.
fn small_loot_items(name: &str) -> common::Tmp {
    let d = tmp("h62", name);
    let args = "analyze loot items --battles 200 --cell 100 --seed 3 --quiet --out";
    let mut all: Vec<&str> = args.split(' ').collect();
    all.push(d.to_str().unwrap());
    ok(&all);
    d
}

#[test]
fn verify_replays_an_analysis_ledger_and_finds_a_resealed_cell() {
    let d = small_loot_items("verify-ledger");
    let dir = d.to_str().unwrap();
    let (code, said) = verify(dir, &["--replay-all"]);
    assert_eq!(code, Some(0), "{said}");
    // The jackknife's replicates are sealed and checked too (issue 63).
    assert!(
        said.contains("ledger.json, replicates.json as written"),
        "{said}"
    );
    assert!(
        said.contains("each one's sums are what its matches give")
            && said.contains("files are what the command writes now"),
        "{said}"
    );
    // A forger who knows the format: one win moved in one cell, the digest recomputed.
    edit_sealed(&d.join("ledger.json"), |v| {
        let sums = v["cells"]["item worth/Gladiator"]["sums"]
            .as_array_mut()
            .unwrap();
        sums[4] = serde_json::json!(sums[4].as_i64().unwrap() + 1);
    });
    let (code, said) = verify(dir, &["--replay-for", "0"]);
    assert_eq!(code, Some(0), "the seals alone cannot see it: {said}");
    let (code, said) = verify(dir, &["--replay-all"]);
    assert_eq!(code, Some(2), "{said}");
    assert!(
        said.contains("1 cell is not what their matches give")
            && said.contains("`item worth/Gladiator`: sum 4"),
        "{said}"
    );
}

/// Issue 63: a cell's groups are saved sums too (they pair a what-if): one moved in a resealed
/// ledger is found when the cell is replayed, though the cell's own sums are untouched.
#[test]
fn verify_finds_a_resealed_group_of_a_ledger_cell() {
    let d = small_loot_items("verify-group");
    let dir = d.to_str().unwrap();
    edit_sealed(&d.join("ledger.json"), |v| {
        let group = v["cells"]["item worth/Rogue"]["groups"][3]
            .as_array_mut()
            .unwrap();
        group[4] = serde_json::json!(group[4].as_i64().unwrap() + 1);
    });
    let (code, said) = verify(dir, &["--replay-all"]);
    assert_eq!(code, Some(2), "{said}");
    assert!(
        said.contains("`item worth/Rogue`: its 20 groups are not what its matches give"),
        "{said}"
    );
}

#[test]
fn verify_rebuilds_a_power_analysis_from_its_sums_and_replays_them_all_when_asked() {
    let d = tmp("h62", "verify-state");
    let dir = d.to_str().unwrap();
    ok(&[
        "analyze",
        "rumble",
        "powers",
        "--max-battles",
        "4000",
        "--batch",
        "100",
        "--seed",
        "3",
        "--out",
        dir,
        "--quiet",
    ]);
    let (code, said) = verify(dir, &[]);
    assert_eq!(code, Some(0), "{said}");
    assert!(said.contains("only --replay-all"), "{said}");
    let (code, said) = verify(dir, &["--replay-all"]);
    assert_eq!(code, Some(0), "{said}");
    assert!(said.contains("replayed all"), "{said}");
    // Issue 79: `rosters` lowered by one and resealed passed the default verify; the count is
    // held to the rosters its sums hold.
    let state = fs::read(d.join("state.json")).unwrap();
    edit_sealed(&d.join("state.json"), |v| {
        let r = v["rosters"].as_u64().unwrap();
        v["rosters"] = serde_json::json!(r - 1);
    });
    let (code, said) = verify(dir, &[]);
    assert_eq!(code, Some(2), "{said}");
    assert!(said.contains("state.json: `rosters`"), "{said}");
    fs::write(d.join("state.json"), state).unwrap();
    // The sums forged and resealed: the tables no longer follow from them, and replaying every
    // roster gives other sums.
    edit_sealed(&d.join("state.json"), |v| {
        let b = v["sums"]["battles"].as_u64().unwrap();
        v["sums"]["battles"] = serde_json::json!(b + 1);
    });
    let (code, said) = verify(dir, &[]);
    assert_eq!(code, Some(2), "{said}");
    assert!(said.contains("result.json differs"), "{said}");
    let (code, said) = verify(dir, &["--replay-all"]);
    assert_eq!(code, Some(2), "{said}");
    assert!(said.contains("state.json differs"), "{said}");
}

#[test]
fn verify_runs_an_analysis_without_sums_again_and_finds_an_edited_answer() {
    let d = tmp("h62", "verify-duel");
    let dir = d.to_str().unwrap();
    ok(&["analyze", "tag", "duel", "--out", dir, "--quiet"]);
    let (code, said) = verify(dir, &[]);
    assert_eq!(code, Some(0), "{said}");
    assert!(said.contains("ran the whole analysis again"), "{said}");
    // A file of the folder replaced by a link is not followed.
    let report = d.join("report.html");
    fs::remove_file(&report).unwrap();
    std::os::unix::fs::symlink(d.join("summary.txt"), &report).unwrap();
    let (code, said) = verify(dir, &[]);
    assert_eq!(code, Some(2), "{said}");
    assert!(
        said.contains("report.html is missing or not a plain file"),
        "{said}"
    );
    edit_sealed(&d.join("result.json"), |v| {
        v["notes"] = serde_json::json!(["forged"]);
    });
    let (code, said) = verify(dir, &[]);
    assert_eq!(code, Some(2), "{said}");
    assert!(said.contains("result.json differs"), "{said}");
}

/// Issue 79: `check` of a host's file printed ESC and BEL from names raw; every `check` shows
/// them escaped.
#[test]
fn check_shows_a_hostile_name_escaped_in_every_game() {
    let d = tmp("h79", "check");
    fs::create_dir_all(&*d).unwrap();
    let name = toml_string(HOSTILE);
    for (game, example, from) in [
        ("tag", "experiments/tag/small.toml", "\"Fire\""),
        (
            "clan-melee",
            "experiments/clan-melee/0-clan1.toml",
            "\"Clan1\"",
        ),
    ] {
        let text = fs::read_to_string(example)
            .unwrap()
            .replacen(from, &name, 1);
        let f = d.join(format!("{game}.toml"));
        fs::write(&f, text).unwrap();
        let printed = ok(&[game, "check", f.to_str().unwrap()]);
        no_controls(&printed, &format!("{game} check"));
        assert!(
            printed.contains("\\u{1b}"),
            "{game} check shows the name: {printed}"
        );
    }
}

/// Issue 79 (severe): a dataset's `result.json` was not read by `verify` at all: a plain edit
/// passed, and a resealed grid cell passed `--replay-all` and was reported. Now the files-only
/// check holds the answer to its seal and to what the manifest's tallies give, and the replay
/// recomputes it whole (grids included) and compares it byte for byte.
#[test]
fn verify_recomputes_a_datasets_answer_and_refuses_one_edited_or_resealed() {
    let d = tmp("h79", "dataset-answer");
    small_rumble(&d);
    let dir = d.to_str().unwrap();
    let r = d.join("result.json");
    let original = fs::read_to_string(&r).unwrap();
    let (code, said) = verify(dir, &["--replay-all"]);
    assert_eq!(code, Some(0), "{said}");
    // A plain edit: the seal says so, even without replaying.
    fs::write(&r, original.replacen("\"value\": ", "\"value\": 1", 1)).unwrap();
    let (code, said) = verify(dir, &["--replay-for", "0"]);
    assert_eq!(code, Some(2), "{said}");
    assert!(said.contains("result.json"), "{said}");
    // An estimate moved and resealed: not what the manifest's tallies give.
    fs::write(&r, &original).unwrap();
    move_first_estimate(&r, 0.25);
    let (code, said) = verify(dir, &["--replay-for", "0"]);
    assert_eq!(code, Some(2), "{said}");
    assert!(
        said.contains("not the answer the manifest's tallies give"),
        "{said}"
    );
    // A grid cell moved and resealed (the Clan Melee cell 5/20 -> 19/20): only the game
    // lays grids out, so the replay finds it.
    let g = tmp("h79", "dataset-grid");
    let gdir = g.to_str().unwrap();
    ok(&[
        "tournament",
        "clan-melee",
        "--melees",
        "10",
        "--budgets",
        "1000",
        "--out",
        gdir,
        "--quiet",
    ]);
    let (code, said) = verify(gdir, &["--replay-all"]);
    assert_eq!(code, Some(0), "{said}");
    edit_sealed(&g.join("result.json"), |v| {
        let of = &mut v["grids"][0]["rows"][0]["cells"][0]["of"];
        let part = of["part"].as_u64().expect("a count cell");
        of["part"] = serde_json::json!(if part < 9 { 9 } else { 1 });
    });
    let (code, said) = verify(gdir, &["--replay-all"]);
    assert_eq!(code, Some(2), "{said}");
    assert!(said.contains("result.json differs"), "{said}");
}

/// Issue 79 (severe): an analysis folder resealed to record another command (a tournament that
/// writes a dataset) replayed "0 of 0 parts" and passed with a forged estimate.
#[test]
fn verify_refuses_an_analysis_folder_whose_recorded_command_is_another() {
    let d = small_loot_items("verify-other-command");
    let dir = d.to_str().unwrap();
    edit_sealed(&d.join("result.json"), |v| {
        v["provenance"]["command"] = "skirmish tournament tag --games 200".into();
        let e = &mut v["sections"][0]["estimates"][0]["value"];
        *e = serde_json::json!(99.0);
    });
    let (code, said) = verify(dir, &["--replay-all"]);
    assert_eq!(code, Some(2), "{said}");
    assert!(said.contains("naming a command proves nothing"), "{said}");
    assert!(!said.contains("replayed 0 of 0"), "{said}");
}

/// Issue 79: `verify` never writes into the folder it checks (a resealed command with
/// `--shard 0/2` made it write a shard file there).
#[test]
fn verify_refuses_an_analysis_command_that_names_a_shard_and_writes_nothing() {
    let d = small_loot_items("verify-shard");
    let dir = d.to_str().unwrap();
    edit_sealed(&d.join("result.json"), |v| {
        let c = v["provenance"]["command"].as_str().unwrap().to_string();
        v["provenance"]["command"] = format!("{c} --shard 0/2").into();
    });
    fn every_file(dir: &Path, out: &mut Vec<(std::path::PathBuf, Vec<u8>)>) {
        let mut entries: Vec<_> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        entries.sort();
        for p in entries {
            if p.is_dir() {
                every_file(&p, out);
            } else {
                out.push((p.clone(), fs::read(&p).unwrap()));
            }
        }
    }
    let (mut before, mut after) = (Vec::new(), Vec::new());
    every_file(&d, &mut before);
    let (code, said) = verify(dir, &["--replay-all"]);
    assert_eq!(code, Some(2), "{said}");
    assert!(said.contains("names a shard"), "{said}");
    every_file(&d, &mut after);
    assert!(before == after, "verify wrote into the folder");
    assert!(!d.join("shards").exists());
}

/// Issue 79: `analyze loot items --battles 20` exited 0 with a `result.json` that its own
/// `report` and `verify` refused (leave-one-out rows of one removal written as NaN). An estimate
/// that cannot be measured is said so in a note; the answer reads back.
#[test]
fn a_tiny_item_analysis_writes_an_answer_that_reads_back() {
    let d = tmp("h79", "tiny-items");
    let dir = d.to_str().unwrap();
    ok(&[
        "analyze",
        "loot",
        "items",
        "--battles",
        "20",
        "--seed",
        "42",
        "--out",
        dir,
        "--quiet",
    ]);
    let text = fs::read_to_string(d.join("result.json")).unwrap();
    assert!(!text.contains("null"), "no number is written as null");
    assert!(
        text.contains("removed only once"),
        "the unmeasured rows are named"
    );
    ok(&["report", dir]);
    let (code, said) = verify(dir, &["--replay-for", "0"]);
    assert_eq!(code, Some(0), "{said}");
}

/// Issue 79: every analysis left `.NAME.output.lock` in the parent of its --out; the claim's
/// lock file goes with the claim.
#[test]
fn an_analysis_leaves_no_lock_file_beside_its_folder() {
    let d = small_loot_items("no-lock-left");
    let name = d.file_name().unwrap().to_string_lossy().to_string();
    let left: Vec<String> = fs::read_dir(d.parent().unwrap())
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().to_string())
        .filter(|n| n.starts_with(&format!(".{name}.")))
        .collect();
    assert!(left.is_empty(), "left beside the folder: {left:?}");
}

/// Issue 79: `verify`'s first line says the question it proves (command, seed, inputs by
/// digest); an input the folder's question reads that this machine lacks is named and the
/// folder refused before anything is played; its last line says what was checked.
#[test]
fn verify_says_the_question_and_refuses_a_folder_whose_input_is_missing() {
    let d = tmp("h79", "missing-input");
    let (file, out, _) = hostile_run(&d);
    let dir = out.to_str().unwrap();
    let (code, said) = verify(dir, &[]);
    assert_eq!(code, Some(0), "{said}");
    let first = said.lines().next().unwrap();
    assert!(
        first.contains("the question: `skirmish simulate rumble")
            && first.contains("hostile.toml "),
        "{first}"
    );
    assert!(
        said.trim_end().ends_with("--replay-all plays every one"),
        "{said}"
    );
    fs::remove_file(&file).unwrap();
    let (code, said) = verify(dir, &[]);
    assert_eq!(code, Some(2), "{said}");
    assert!(
        said.contains("hostile.toml, and this machine lacks it"),
        "{said}"
    );
    // Its files alone still verify, and say nothing was played again.
    let (code, said) = verify(dir, &["--replay-for", "0"]);
    assert_eq!(code, Some(0), "{said}");
    assert!(said.contains("nothing was played again"), "{said}");
    let _ = fs::remove_dir_all(d.with_extension("in"));
}

/// Issue 79: one rule for every folder kind. A what-if is verified arm by arm and its
/// difference recomputed; a sensitivity is asked again whole; a resealed number in either's
/// answer is found.
#[test]
fn verify_recomputes_a_what_if_and_a_sensitivity() {
    let d = tmp("h79", "what-if");
    let rules = d.with_extension("toml");
    fs::write(&rules, "rounds = 6\n").unwrap();
    let dir = d.to_str().unwrap();
    ok(&[
        "simulate",
        "minions",
        "--matches",
        "2000",
        "--versus-rules",
        rules.to_str().unwrap(),
        "--out",
        dir,
        "--quiet",
    ]);
    let (code, said) = verify(dir, &[]);
    assert_eq!(code, Some(0), "{said}");
    assert!(
        said.contains("a what-if") && said.contains("the difference: its 2 files"),
        "{said}"
    );
    move_first_estimate(&d.join("result.json"), 0.05);
    let (code, said) = verify(dir, &["--replay-for", "0"]);
    assert_eq!(code, Some(2), "{said}");
    assert!(said.contains("result.json differs"), "{said}");
    let _ = fs::remove_file(&rules);

    let s = tmp("h79", "sensitivity");
    let sdir = s.to_str().unwrap();
    ok(&[
        "sensitivity",
        "simulate",
        "loot",
        "--matches",
        "2000",
        "--keys",
        "champion.mage.health",
        "--out",
        sdir,
        "--quiet",
    ]);
    let (code, said) = verify(sdir, &[]);
    assert_eq!(code, Some(0), "{said}");
    assert!(said.contains("a sensitivity folder"), "{said}");
    move_first_estimate(&s.join("result.json"), 0.05);
    let (code, said) = verify(sdir, &[]);
    assert_eq!(code, Some(2), "{said}");
    assert!(said.contains("result.json differs"), "{said}");
}

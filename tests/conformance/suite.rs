//! The checks, written once against [`Game`].

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use rand::seq::IndexedRandom;
use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::common::{parts_finished, run_killed, skirmish, table, table_files, tmp};

/// A kind of input file a host writes for the game.
pub struct Input {
    /// Its name in the corpus: `tests/corpus/<game>/<kind>-*.toml`.
    pub kind: &'static str,
    /// A valid file, the seed of the fuzzed ones.
    pub valid: &'static str,
    /// The command that checks it (`FILE`, also within an argument, is replaced by the file's
    /// path).
    pub check: &'static [&'static str],
    /// A command that reads it and writes a dataset or prints a result (`FILE`, `OUT`).
    pub used_by: &'static [&'static str],
}

/// What a game gives the suite.
pub trait Game {
    /// The game's word in commands and the corpus / golden file names.
    fn name(&self) -> &'static str;
    /// A small dataset command (without `--out`, `--threads`, `--chunk-size`, `--quiet`).
    fn dataset(&self) -> Vec<&'static str>;
    /// Its tables (one folder of parts each).
    fn tables(&self) -> &'static [&'static str];
    /// Two chunk sizes to compare (any sizes: the data must not depend on them).
    fn chunk_sizes(&self) -> [u64; 2];
    /// A longer dataset command with many chunks, to be killed partway and resumed.
    fn long_dataset(&self) -> Vec<&'static str>;
    /// Its input files.
    fn inputs(&self) -> Vec<Input>;
    /// Plays some kernel work once to warm up, then returns work to count (no allocation
    /// expected); the work is played several times.
    fn warm_kernel(&self) -> Box<dyn FnMut()>;
    /// Kernel against reference on random inputs; `Err` says the first disagreement. Returns how
    /// many cases were compared.
    fn differential(&self) -> Result<usize, String>;
    /// The command that narrates the shipped example.
    fn narrate(&self) -> Vec<&'static str>;
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn run_dataset(args: &[&str], out: &Path, threads: usize, chunk: u64) {
    let chunk = chunk.to_string();
    let threads = threads.to_string();
    let out_s = out.display().to_string();
    let mut all: Vec<&str> = args.to_vec();
    all.extend([
        "--out",
        &out_s,
        "--threads",
        &threads,
        "--chunk-size",
        &chunk,
        "--quiet",
    ]);
    let o = skirmish(&all);
    assert!(o.status.success(), "{all:?}: {}", text(&o.stderr));
}

fn files(g: &dyn Game, dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut f = table_files(dir, g.tables());
    // The answer and its report (issue 50) are the same bytes whatever the threads, too.
    for name in ["manifest.json", "result.json", "report.html"] {
        f.insert(name.into(), fs::read(dir.join(name)).unwrap());
    }
    f
}

/// Issue 50: a dataset command writes its answer and an HTML report with a chart per section;
/// `skirmish report` renders the folder in every format, and `diff` of a folder with itself
/// moves nothing.
pub fn answer_renders_everywhere_and_diffs_to_zero(g: &dyn Game) {
    let dir = tmp(g.name(), "answer");
    run_dataset(&g.dataset(), &dir, 2, g.chunk_sizes()[1]);
    let html = fs::read_to_string(dir.join("report.html")).unwrap();
    assert!(html.starts_with("<!DOCTYPE html>") && !html.contains("<script"));
    let charts = html.matches("<svg").count();
    assert!(charts >= 1, "{}: no chart in report.html", g.name());
    let answer: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(dir.join("result.json")).unwrap()).unwrap();
    let count = |key: &str| answer[key].as_array().map_or(0, |a| a.len());
    // A chart per section (drawn twice: for a desktop and for a phone) and per heat map; a grid
    // is a table (its numbers are the sections').
    assert_eq!(
        charts,
        2 * count("sections") + count("heatmaps"),
        "{}",
        g.name()
    );
    assert_eq!(
        html.matches("<table>").count(),
        count("sections") + count("grids") + html.matches("<h2>Inputs").count(),
        "{}: a table per section and grid",
        g.name()
    );
    let d = dir.to_str().unwrap();
    // Golden renderings of one answer per game (issue 50): the Markdown and the forum post.
    for (format, ext) in [("md", "md"), ("bbcode", "bbcode")] {
        let o = skirmish(&["report", d, "--format", format]);
        assert!(o.status.success(), "{format}: {}", text(&o.stderr));
        // The folder is a scratch one: the post names it where it leaves tables out.
        crate::common::assert_golden(
            format!("tests/golden/{}.report.{ext}", g.name()),
            &text(&o.stdout).replace(d, "FOLDER"),
            &format!("{} report as {format}", g.name()),
        );
    }
    for (format, has) in [
        ("text", "95%"),
        ("md", "| --- |"),
        ("bbcode", "[code]"),
        ("json", "\"provenance\""),
        ("html", "<svg"),
    ] {
        let o = skirmish(&["report", d, "--format", format]);
        assert!(o.status.success(), "{format}: {}", text(&o.stderr));
        assert!(
            text(&o.stdout).contains(has),
            "{format}: {}",
            text(&o.stdout)
        );
    }
    let o = skirmish(&["diff", d, d]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let said = text(&o.stdout);
    assert!(said.contains("the same, and the same seed"), "{said}");
    assert!(
        !said.contains("  *\n"),
        "a folder differs from itself: {said}"
    );
    fs::remove_dir_all(&dir).unwrap();
}

/// Issue 53: `verify` checks each part's tally against what its matches give (the recorded
/// command plays the parts again), so an edited tally in the manifest no longer passes.
pub fn verify_replays_the_parts_and_catches_an_edited_tally(g: &dyn Game) {
    let dir = tmp(g.name(), "verify-replay");
    run_dataset(&g.dataset(), &dir, 2, g.chunk_sizes()[0]);
    let d = dir.to_str().unwrap();
    let o = skirmish(&["verify", d, "--replay-all"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let said = text(&o.stdout);
    assert!(
        said.contains("replayed ") && said.contains("what its matches give"),
        "{said}"
    );
    let path = dir.join("manifest.json");
    let mut m: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(&path).unwrap()).unwrap();
    let last = m["parts"].as_array().unwrap().len() - 1;
    let tally = &mut m["parts"][last]["tally"];
    let draws = tally["draws"].as_u64().unwrap();
    // A plausible edit (draws stay within the part's matches): only replaying can tell.
    tally["draws"] = if draws > 0 { draws - 1 } else { 1 }.into();
    // A careless edit breaks the manifest's seal (issue 62) and is refused by name...
    fs::write(&path, serde_json::to_string_pretty(&m).unwrap()).unwrap();
    let o = skirmish(&["verify", d]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("manifest.json: `digest`"));
    // ...and a forger who reseals it is caught by playing the part again.
    let m = skirmish::platform::digest::seal(m);
    fs::write(&path, serde_json::to_string_pretty(&m).unwrap()).unwrap();
    // Without the answer made anew the files-only check already refuses it (issue 79)...
    let o = skirmish(&["verify", d, "--replay-for", "0"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stdout));
    assert!(text(&o.stderr).contains("result.json: not the answer the manifest's tallies give"));
    // ...so the forger writes the answer the forged manifest gives, its grids kept.
    let kept = skirmish::platform::answer::Answer::read(&dir.join("result.json")).unwrap();
    let mut forged = skirmish::platform::dataset::answer(&dir).unwrap();
    forged.grids = kept.grids;
    for (name, bytes) in skirmish::platform::render::files(&forged) {
        fs::write(dir.join(name), bytes).unwrap();
    }
    let o = skirmish(&["verify", d]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stdout));
    let err = text(&o.stderr);
    assert!(
        err.contains(&format!(
            "part {last}: its tally is not what its matches give (draws: "
        )),
        "{err}"
    );
    fs::remove_dir_all(&dir).unwrap();
}

pub fn same_bytes_on_1_2_and_4_threads(g: &dyn Game) {
    let chunk = g.chunk_sizes()[1];
    let mut seen = Vec::new();
    for threads in [1, 2, 4] {
        let dir = tmp(g.name(), &format!("threads{threads}"));
        run_dataset(&g.dataset(), &dir, threads, chunk);
        seen.push(files(g, &dir));
        fs::remove_dir_all(&dir).unwrap();
    }
    assert!(seen[0].len() > 2, "the dataset has parts");
    assert_eq!(seen[1], seen[0], "2 threads differ from 1");
    assert_eq!(seen[2], seen[0], "4 threads differ from 1");
    // Issue 50: every table keeps its bytes while the code that builds it changes (tables
    // declared once, `platform::table`): the part files' digests are a golden file
    // (`UPDATE_GOLDEN=1` rewrites it, only for a change meant to move the bytes).
    let digests: String = table_files_of(&seen[0], g.tables())
        .map(|(name, bytes)| format!("{name} {}\n", skirmish::platform::digest::sha256_hex(bytes)))
        .collect();
    let path = format!("tests/golden/{}.tables.sha256", g.name());
    crate::common::assert_golden(path, &digests, "the tables' bytes");
}

/// The part files of the named tables among a dataset's files.
fn table_files_of<'a>(
    files: &'a BTreeMap<String, Vec<u8>>,
    tables: &'a [&'a str],
) -> impl Iterator<Item = (&'a String, &'a Vec<u8>)> {
    files
        .iter()
        .filter(move |(n, _)| tables.iter().any(|t| n.starts_with(&format!("{t}/"))))
}

pub fn same_data_for_any_chunk_size(g: &dyn Game) {
    let mut frames = Vec::new();
    for chunk in g.chunk_sizes() {
        let dir = tmp(g.name(), &format!("chunk{chunk}"));
        run_dataset(&g.dataset(), &dir, 2, chunk);
        frames.push(
            g.tables()
                .iter()
                .map(|t| table(&dir, t))
                .collect::<Vec<_>>(),
        );
        fs::remove_dir_all(&dir).unwrap();
    }
    for (t, (a, b)) in frames[0].iter().zip(&frames[1]).enumerate() {
        assert!(a.height() > 0);
        assert!(
            a.equals_missing(b),
            "table {} differs between chunk sizes",
            g.tables()[t]
        );
    }
}

pub fn resume_after_a_kill_gives_the_same_bytes(g: &dyn Game) {
    let args = |out: &Path| -> Vec<String> {
        g.long_dataset()
            .iter()
            .map(|s| s.to_string())
            .chain(["--threads", "1", "--quiet", "--out"].map(String::from))
            .chain([out.display().to_string()])
            .collect()
    };
    let whole = tmp(g.name(), "resume-whole");
    let o = skirmish(&args(&whole).iter().map(|s| s.as_str()).collect::<Vec<_>>());
    assert!(o.status.success(), "{}", text(&o.stderr));
    let killed = tmp(g.name(), "resume-killed");
    let finished = run_killed(&args(&killed), &killed, 1);
    assert!(
        finished < parts_finished(&whole),
        "the run was killed before it finished ({finished} of {} parts)",
        parts_finished(&whole)
    );
    let o = skirmish(&args(&killed).iter().map(|s| s.as_str()).collect::<Vec<_>>());
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert_eq!(files(g, &killed), files(g, &whole));
    fs::remove_dir_all(&whole).unwrap();
    fs::remove_dir_all(&killed).unwrap();
}

/// `template` with `OUT` and `FILE` filled in; `TEXT` stands for the file's text without its
/// comment lines (inputs given on the command line, such as `loot odds`'s attack).
fn command(template: &[&str], file: &Path, out: &Path) -> Vec<String> {
    template
        .iter()
        .map(|a| match *a {
            "OUT" => out.display().to_string(),
            "TEXT" => fs::read_to_string(file)
                .unwrap()
                .lines()
                .filter(|l| !l.starts_with('#'))
                .collect::<Vec<_>>()
                .join("\n")
                // No command line carries a NUL.
                .replace('\0', ""),
            a => a.replace("FILE", &file.display().to_string()),
        })
        .collect()
}

/// Most seconds one command on a fuzzed input may take: an accepted input must not ask for
/// unbounded work (issue 53's time bombs), and a killed one fails the test.
const FUZZ_SECONDS: u64 = 60;

fn exec(args: &[String]) -> std::process::Output {
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_skirmish"))
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the binary runs");
    // Read both pipes while waiting, so a chatty command never blocks on a full pipe.
    let (mut out, mut err) = (child.stdout.take().unwrap(), child.stderr.take().unwrap());
    let o = std::thread::spawn(move || {
        let mut b = Vec::new();
        std::io::Read::read_to_end(&mut out, &mut b).map(|_| b)
    });
    let e = std::thread::spawn(move || {
        let mut b = Vec::new();
        std::io::Read::read_to_end(&mut err, &mut b).map(|_| b)
    });
    let start = std::time::Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if start.elapsed().as_secs() >= FUZZ_SECONDS {
            let _ = child.kill();
            panic!("{args:?} ran past {FUZZ_SECONDS} s: an accepted input asks for unbounded work");
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    };
    std::process::Output {
        status,
        stdout: o.join().unwrap().unwrap_or_default(),
        stderr: e.join().unwrap().unwrap_or_default(),
    }
}

/// The corpus files of one kind: `(path, what the error must name)`. Each file's first line is
/// `# expect: TEXT` (TEXT: the field, and `:LINE:` where the line is pinned).
fn corpus(game: &str, kind: &str) -> Vec<(PathBuf, Vec<String>)> {
    let dir = Path::new("tests/corpus").join(game);
    let mut out: Vec<(PathBuf, Vec<String>)> = fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.file_name()
                .unwrap()
                .to_str()
                .unwrap()
                .starts_with(&format!("{kind}-"))
        })
        .map(|p| {
            let first = fs::read_to_string(&p).unwrap();
            let expect = first
                .lines()
                .next()
                .and_then(|l| l.strip_prefix("# expect:"))
                .unwrap_or_else(|| panic!("{}: first line must be `# expect: ...`", p.display()));
            let wants = expect.split(" && ").map(|s| s.trim().to_string()).collect();
            (p, wants)
        })
        .collect();
    out.sort();
    out
}

pub fn malformed_inputs_exit_2_and_write_nothing(g: &dyn Game) {
    for input in g.inputs() {
        let cases = corpus(g.name(), input.kind);
        assert!(
            cases.len() >= 4,
            "{}: the corpus holds at least 4 malformed {} files",
            g.name(),
            input.kind
        );
        for (path, wants) in cases {
            for template in [input.check, input.used_by] {
                let out = tmp(g.name(), "malformed-out");
                let o = exec(&command(template, &path, &out));
                let err = text(&o.stderr);
                assert_eq!(
                    o.status.code(),
                    Some(2),
                    "{}: {template:?}: {err}",
                    path.display()
                );
                // An input given on the command line (`TEXT`) is named by its command.
                let names = if template.contains(&"TEXT") {
                    template[..2].join(" ")
                } else {
                    path.display().to_string()
                };
                assert!(
                    err.contains(&names),
                    "{}: the error names the file: {err}",
                    path.display()
                );
                for w in &wants {
                    assert!(
                        err.contains(w.as_str()),
                        "{}: wants `{w}` in: {err}",
                        path.display()
                    );
                }
                assert_eq!(err.trim().lines().count(), 1, "one message: {err}");
                assert!(o.stdout.is_empty(), "nothing printed on stdout");
                assert!(!out.exists(), "{}: nothing written", path.display());
            }
        }
    }
}

/// One random edit of a valid file: a line dropped, doubled or swapped, a number made extreme, a
/// value replaced, a key misspelt, or the text cut short.
fn mutate(rng: &mut Xoshiro256PlusPlus, valid: &str) -> String {
    let mut lines: Vec<String> = valid.lines().map(String::from).collect();
    let n = lines.len();
    let i = rng.random_range(0..n);
    match rng.random_range(0..8) {
        7 => {
            // A character put in or taken out anywhere: quotes, brackets, signs, non-ASCII.
            let text = lines.join("\n");
            let chars: Vec<char> = text.chars().collect();
            let at = rng.random_range(0..=chars.len());
            let mut chars = chars;
            if rng.random_bool(0.5) && at < chars.len() {
                chars.remove(at);
            } else {
                let odd = [
                    '"', '\'', '[', ']', '{', '(', ')', '-', '+', '9', 'é', '∞', '\u{0}', '=', ',',
                ];
                chars.insert(at, *odd.choose(rng).unwrap());
            }
            return chars.into_iter().collect::<String>() + "\n";
        }
        0 => {
            lines.remove(i);
        }
        1 => {
            let l = lines[i].clone();
            lines.insert(i, l);
        }
        2 => {
            let j = rng.random_range(0..n);
            lines.swap(i, j);
        }
        3 => {
            let extreme = [
                "-1",
                "0",
                "99999999999",
                "-2147483648",
                "1e308",
                "\"x\"",
                "[]",
            ];
            let e = extreme.choose(rng).unwrap();
            if let Some(eq) = lines[i].find('=') {
                lines[i] = format!("{} = {e}", &lines[i][..eq]);
            }
        }
        4 => {
            let junk = ["\"\"", "\"??\"", "{}", "true", "\"1 +\"", "\"(((\""];
            if let Some(eq) = lines[i].find('=') {
                lines[i] = format!("{} = {}", &lines[i][..eq], junk.choose(rng).unwrap());
            }
        }
        5 => {
            if let Some(eq) = lines[i].find('=') {
                let key = lines[i][..eq].trim().to_string();
                lines[i] = lines[i].replacen(&key, &format!("{key}x"), 1);
            }
        }
        _ => {
            let text = lines.join("\n");
            let cut = rng.random_range(0..text.len().max(1));
            let mut cut = cut;
            while !text.is_char_boundary(cut) {
                cut -= 1;
            }
            return text[..cut].to_string();
        }
    }
    lines.join("\n") + "\n"
}

pub fn fuzzed_inputs_never_crash(g: &dyn Game) {
    // The budget: 60 files of each kind in `cargo test`; a long run on demand, e.g.
    // `SKIRMISH_FUZZ_INPUTS=5000 SKIRMISH_FUZZ_FROM=1 cargo test --release --test conformance fuzzed`.
    let count = std::env::var("SKIRMISH_FUZZ_INPUTS").map_or(60, |v| v.parse().unwrap());
    let from = std::env::var("SKIRMISH_FUZZ_FROM").map_or(0, |v| v.parse::<u64>().unwrap());
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(2026 + from);
    for input in g.inputs() {
        let valid = fs::read_to_string(input.valid).unwrap();
        let (mut accepted, mut refused) = (0, 0);
        for k in 0..count {
            let mut text_ = valid.clone();
            for _ in 0..rng.random_range(1..=3) {
                text_ = mutate(&mut rng, &text_);
            }
            let dir = tmp(g.name(), &format!("fuzz-{}-{k}", input.kind));
            fs::create_dir_all(&dir).unwrap();
            let path = dir.join(format!("{}.toml", input.kind));
            fs::write(&path, &text_).unwrap();
            let out = dir.join("out");
            for template in [input.check, input.used_by] {
                let o = exec(&command(template, &path, &out));
                match o.status.code() {
                    Some(0) => accepted += 1,
                    Some(2) => {
                        refused += 1;
                        let err = text(&o.stderr);
                        assert!(
                            err.contains(&path.display().to_string())
                                || err.contains("--")
                                || (template.contains(&"TEXT")
                                    && err.contains(&template[..2].join(" "))),
                            "a refusal names the file: {err}\n--- file ---\n{text_}"
                        );
                    }
                    other => panic!(
                        "{template:?} exited {other:?} on a fuzzed {}: {}\n--- file ---\n{text_}",
                        input.kind,
                        text(&o.stderr)
                    ),
                }
            }
            fs::remove_dir_all(&dir).unwrap();
        }
        // The mutations must exercise both outcomes, or they prove little.
        assert!(
            accepted > 0 && refused > 0,
            "{}: {accepted} accepted, {refused} refused",
            input.kind
        );
    }
}

pub fn kernel_allocates_nothing_after_warm_up(g: &dyn Game) {
    let mut work = g.warm_kernel();
    let ((), n) = crate::alloc::counted(|| {
        for _ in 0..5 {
            work()
        }
    });
    assert_eq!(
        n,
        0,
        "{}: the kernel allocated {n} times after warm-up",
        g.name()
    );
}

pub fn kernel_and_reference_agree(g: &dyn Game) {
    match g.differential() {
        Ok(n) => assert!(n >= 100, "{}: compared only {n} cases", g.name()),
        Err(e) => panic!("{}: {e}", g.name()),
    }
}

pub fn narration_matches_golden(g: &dyn Game) {
    let o = skirmish(&g.narrate());
    assert!(o.status.success(), "{}", text(&o.stderr));
    let got = text(&o.stdout);
    let path = format!("tests/golden/{}.narrate.txt", g.name());
    crate::common::assert_golden(path, &got, "narration");
}

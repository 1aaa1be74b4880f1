//! `skirmish reproduce` (issue 52): published answers that cannot go stale.
//!
//! A recorded answer is `docs/answers/NAME.json`: the exact arguments of a skirmish command (seed
//! included), whether it is fast enough for CI, and the answer it produced (the result model).
//! `reproduce` runs the command again into a scratch folder and compares every estimate:
//! identical, within its recorded 95% interval, or moved (exit 1, naming it). The numbers in
//! README and the guides stand in generated blocks,
//!
//! ```text
//! <!-- answer NAME [filter="TEXT|TEXT" | section="TITLE"] -->
//! ...generated from docs/answers/NAME.json...
//! <!-- /answer -->
//! ```
//!
//! which `--check-docs` holds equal to what their answer files say (a number edited by hand
//! fails CI) and `--update` rewrites, with the answer files, in one step.

use crate::error::Error;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::platform::answer::Answer;
use crate::platform::escape::shell_quote;
use crate::questions::Commands;

/// The source of `skirmish bench`'s answer: how a reproduction knows to compare its ratios only.
pub const SOURCE: &str = "bench";
/// The section of a timing answer that is compared: each workload's rate over the yardstick's.
pub const RELATIVE: &str = "speed against this machine's yardstick";

/// Where recorded answers live, and the documents whose blocks they fill.
pub const ANSWERS: &str = "docs/answers";
const DOCS: &[&str] = &["README.md", "docs"];

/// What `skirmish reproduce` was asked (`cli::reproduce` reads it from the command line).
#[derive(Debug, Clone)]
pub struct Settings {
    /// Recorded answers to run (names of docs/answers/*.json) [default: every one; with
    /// --fast, the fast ones].
    pub names: Vec<String>,
    /// Only the answers marked fast (what CI runs).
    pub fast: bool,
    /// Run nothing: check that every generated block in README and docs/*.md equals what its
    /// answer file says.
    pub check_docs: bool,
    /// Record the new answers and rewrite the generated blocks.
    pub update: bool,
    /// Run nothing: rewrite the generated blocks from the answer files as they are (after a
    /// block is added, or an answer recorded).
    pub write_docs: bool,
    /// A new recorded answer: its name, then (after --) the command's arguments.
    pub record: Option<String>,
    /// With --record: CI runs it (a few seconds at most).
    pub mark_fast: bool,
    /// The command's arguments, with --record (after `--`).
    pub args: Vec<String>,
    /// Where each answer is run again: `OUT/NAME`, a fresh run each time (what an earlier
    /// `reproduce` left there is replaced), kept afterwards to open or `diff`.
    pub out: PathBuf,
}

/// One recorded answer.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Recorded {
    /// The command's arguments after `skirmish`, without --out and --quiet.
    pub args: Vec<String>,
    /// Whether CI runs it (a few seconds).
    pub fast: bool,
    pub answer: Answer,
}

fn path_of(name: &str) -> PathBuf {
    Path::new(ANSWERS).join(format!("{name}.json"))
}

fn read(name: &str) -> Result<Recorded, Error> {
    // Issue 79: a block `<!-- answer ../../../x -->` was filled from a file outside
    // docs/answers/: every name read is a plain one too, not only those recorded.
    if !plain_name(name) {
        return Err(Error::Input(format!(
            "answer `{}`: not a recorded answer's name (a plain name of letters, digits, `-` and `_`, read from {ANSWERS}/NAME.json)",
            crate::platform::escape::plain(name)
        )));
    }
    let p = path_of(name);
    let text = std::fs::read_to_string(&p).map_err(|e| {
        format!(
            "{}: {e}; record it with `skirmish reproduce --record {name} -- ARGS`",
            p.display()
        )
    })?;
    serde_json::from_str(&text).map_err(|e| Error::Input(format!("{}: {e}", p.display())))
}

fn write(name: &str, r: &Recorded) -> Result<(), Error> {
    std::fs::create_dir_all(ANSWERS).map_err(|e| format!("{ANSWERS}: {e}"))?;
    let text = serde_json::to_string_pretty(r)
        .map_err(|e| Error::machine("encoding a recorded answer", e))?
        + "\n";
    write_in_docs(&path_of(name), text.as_bytes())
}

/// Whether `name` is a plain file name in docs/answers/: no folder, no leading dot.
fn plain_name(name: &str) -> bool {
    !name.is_empty()
        && !name.starts_with('.')
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_' || c == '.')
}

/// A recorded answer's name: a plain file name (issue 62: `--record ../../x` wrote outside
/// `docs/answers/`).
fn check_name(name: &str) -> Result<(), Error> {
    if plain_name(name) {
        Ok(())
    } else {
        Err(Error::Input(format!(
            "--record `{}`: a plain name of letters, digits, `-` and `_` (it becomes {ANSWERS}/NAME.json)",
            crate::platform::escape::plain(name)
        )))
    }
}

/// Writes `path` (README.md or a file under `docs/`) whole through a temporary file and a
/// rename, never through a link: the file, `docs` and every folder between must not be links
/// (issue 62: `--update` wrote wherever a planted link pointed).
fn write_in_docs(path: &Path, bytes: &[u8]) -> Result<(), Error> {
    let inside = path == Path::new("README.md") || path.starts_with("docs");
    if !inside
        || path
            .components()
            .any(|c| c == std::path::Component::ParentDir)
    {
        return Err(Error::Input(format!(
            "{}: reproduce writes only README.md and files under docs/",
            path.display()
        )));
    }
    let mut at = PathBuf::new();
    for c in path.components() {
        at.push(c);
        if std::fs::symlink_metadata(&at).is_ok_and(|m| m.file_type().is_symlink()) {
            return Err(Error::Input(format!(
                "{}: is a link; reproduce never writes through one (replace it with the file itself)",
                at.display()
            )));
        }
    }
    let dir = path.parent().filter(|p| !p.as_os_str().is_empty());
    let name = path
        .file_name()
        .and_then(|n| n.to_str())
        .ok_or_else(|| format!("{}: not a file name", path.display()))?;
    crate::platform::dataset::atomic_write(dir.unwrap_or(Path::new(".")), name, bytes)
}

/// The script `reproduce` may run for the recorded answer that names it: named here, by the
/// program, never taken from an answer file.
const FIRST_RUN: &str = "experiments/first-run.sh";

/// How a recorded answer's arguments are run, after checking them (issue 62: an answer file is
/// data; its `args` name a skirmish command that writes a dataset, `bench`, or the one script
/// this program knows, and nothing else).
enum Runner {
    Skirmish,
    FirstRun,
}

fn runner_of(args: &[String], commands: &impl Commands) -> Result<Runner, Error> {
    if args == ["bash", FIRST_RUN] {
        return Ok(Runner::FirstRun);
    }
    commands.may_answer(args).map_err(|why| {
        format!(
            "`args`: `{}`: {why}; an answer file names simulate, tournament, analyze, run (an experiment file), balance, sensitivity, bench or calibrate, and nothing was run",
            crate::platform::escape::plain(&args.join(" "))
        )
    })?;
    Ok(Runner::Skirmish)
}

fn names() -> Result<Vec<String>, Error> {
    let mut out: Vec<String> = std::fs::read_dir(ANSWERS)
        .map_err(|e| format!("{ANSWERS}: {e}"))?
        .filter_map(|e| e.ok())
        .filter_map(|e| {
            let n = e.file_name().to_string_lossy().to_string();
            n.strip_suffix(".json").map(String::from)
        })
        .collect();
    out.sort();
    Ok(out)
}

/// Makes `dir` ready for a fresh run: absent, or an earlier run's folder (a skirmish output, or
/// what the program's own script wrote: its `result.json` alone) removed.
fn fresh(dir: &Path) -> Result<(), Error> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Ok(());
    };
    let names: Vec<String> = entries
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().to_string())
        .collect();
    let ours = names.is_empty()
        || names
            .iter()
            .any(|n| n == crate::platform::dataset::OUTPUT_MARK)
        || crate::platform::dataset::answer_of(dir).is_ok()
        || names == [crate::platform::answer::FILE];
    if !ours {
        return Err(Error::Input(format!(
            "--out {}: holds files no earlier reproduction wrote; give another --out",
            dir.display()
        )));
    }
    std::fs::remove_dir_all(dir).map_err(|e| Error::Input(format!("--out {}: {e}", dir.display())))
}

/// Runs `args` (plus `--out OUT/NAME` and --quiet) with this very binary and reads the answer
/// its folder holds. The folder is the host's to name (issue 78: no temporary folder); an
/// earlier run's there is removed first (a command continues what its folder holds, and a
/// reproduction must play everything again), any other folder refused.
fn run(out: &Path, name: &str, args: &[String], commands: &impl Commands) -> Result<Answer, Error> {
    // Absolute: a recorded script runs from a folder of its own.
    let scratch =
        std::path::absolute(out.join(name)).map_err(|e| format!("--out {}: {e}", out.display()))?;
    fresh(&scratch)?;
    // A recorded script (`bash experiments/first-run.sh`) measures what skirmish cannot measure
    // from inside: it takes the same --out and writes the same result.json.
    let runner = runner_of(args, commands)?;
    let script = matches!(runner, Runner::FirstRun);
    let mut cmd = match runner {
        Runner::FirstRun => {
            let mut c = std::process::Command::new("bash");
            c.arg(FIRST_RUN);
            c
        }
        Runner::Skirmish => {
            let exe =
                std::env::current_exe().map_err(|e| format!("finding skirmish itself: {e}"))?;
            let mut c = std::process::Command::new(exe);
            c.args(args);
            c
        }
    };
    let o = cmd
        .arg("--out")
        .arg(&scratch)
        .arg("--quiet")
        .output()
        .map_err(|e| format!("running skirmish {}: {e}", args.join(" ")))?;
    // A balance's FAIL (1) and INCONCLUSIVE (3) are answers it wrote, not failures (issue 80).
    let verdict =
        args.first().is_some_and(|a| a == "balance") && matches!(o.status.code(), Some(1 | 3));
    if !o.status.success() && !verdict {
        return Err(Error::Input(format!(
            "skirmish {} failed: {}",
            args.join(" "),
            String::from_utf8_lossy(&o.stderr).trim()
        )));
    }
    // The program's own script writes its answer plainly (it is no skirmish run, so unsealed),
    // into the scratch folder made for it here.
    if script {
        let p = scratch.join(crate::platform::answer::FILE);
        std::fs::read_to_string(&p)
            .map_err(|e| Error::Input(format!("{}: {e}", p.display())))
            .and_then(|t| {
                Answer::from_json(&t).map_err(|e| Error::Input(format!("{}: {e}", p.display())))
            })
    } else {
        crate::platform::dataset::answer_of(&scratch)
    }
}

/// Answers of timings (`skirmish bench`, `experiments/first-run.sh`): only their sections in
/// [`COMPARED`] are compared, the others being this machine's absolute times.
const SPEED: &[&str] = &[SOURCE, "first-run"];
/// The sections of a timing answer that do not depend on the machine: ratios to a reference
/// timed in the same run, and counts.
const COMPARED: &[&str] = &[
    RELATIVE,
    "crates the test command compiles again",
    "the test command's compile against the first build",
];

/// Every estimate of `old` against `new`: (lines, how many moved).
fn compare(name: &str, old: &Answer, new: &Answer) -> (String, usize) {
    let mut out = String::new();
    let (mut same, mut within, mut moved) = (0, 0, 0);
    // A speed answer is compared by its ratios to the yardstick timed beside it, never by its
    // absolute rates (issue 52): those are this machine's and move between runs.
    let speed = SPEED.contains(&old.provenance.source.as_str());
    for sec in &old.sections {
        if speed && !COMPARED.contains(&sec.title.as_str()) {
            continue;
        }
        let other = new.sections.iter().find(|s| s.title == sec.title);
        for e in &sec.estimates {
            let now = other.and_then(|s| s.estimates.iter().find(|x| x.label == e.label));
            match now {
                Some(x) if (x.value - e.value).abs() <= 1e-12 * e.value.abs().max(1.0) => same += 1,
                Some(x) if x.value >= e.lo && x.value <= e.hi => within += 1,
                Some(x) => {
                    moved += 1;
                    out.push_str(&format!(
                        "  moved: {name}: {} / {}: {} [{}, {}] recorded, {} now\n",
                        sec.title, e.label, e.value, e.lo, e.hi, x.value
                    ));
                }
                None => {
                    moved += 1;
                    out.push_str(&format!(
                        "  moved: {name}: {} / {}: no longer answered\n",
                        sec.title, e.label
                    ));
                }
            }
        }
    }
    let notes = if old.notes == new.notes {
        "notes identical"
    } else {
        "notes differ"
    };
    out.insert_str(
        0,
        &format!(
            "{name}: {same} identical, {within} within their interval, {moved} moved; {notes}\n"
        ),
    );
    (out, moved)
}

/// The command a block's numbers come from, as a reader would type it.
fn command_of(r: &Recorded) -> String {
    let words: Vec<String> = r.args.iter().map(|a| shell_quote(a)).collect();
    // A recorded script is shown as run; every other answer is a skirmish command.
    let program = if r.args.first().is_some_and(|a| a == "bash") {
        ""
    } else {
        "skirmish "
    };
    format!("`{program}{}`\n\n", words.join(" "))
}

/// The text a block holds: the command, then the verdict's lines and notes containing `filter` (any of `A|B`), or
/// with `section` that section's estimates as a table, highest first.
fn block_text(r: &Recorded, filter: Option<&str>, section: Option<&str>, layout: Layout) -> String {
    let mut s = command_of(r);
    if let Some(title) = section {
        let Some(sec) = r.answer.sections.iter().find(|x| x.title == title) else {
            return s + &format!("(the answer has no section `{title}`)\n");
        };
        let mut rows = sec.estimates.clone();
        if !layout.recorded_order {
            rows.sort_by(|a, b| b.value.total_cmp(&a.value).then(a.label.cmp(&b.label)));
        }
        let show = |x: f64| sec.unit.short(x);
        let header = layout.columns.map_or_else(
            || format!("{} | estimate | 95% interval | count", sec.title),
            |c| c.replace('|', " | "),
        );
        s.push_str(&format!("| {header} |\n| --- | ---: | --- | ---: |\n"));
        for e in rows {
            let interval = if e.exact {
                "exact".to_string()
            } else if e.lo == e.hi {
                crate::platform::render::NO_SPREAD.to_string()
            } else {
                format!("[{}, {}]", show(e.lo), show(e.hi))
            };
            s.push_str(&format!(
                "| {} | {} | {interval} | {} |\n",
                e.label.replace('|', "\\|"),
                show(e.value),
                crate::platform::tally::thousands(e.count)
            ));
        }
        return s;
    }
    for n in r.answer.verdict.iter().chain(&r.answer.notes) {
        // `filter="A|B"`: the verdict's lines and notes holding A or B.
        if filter.is_none_or(|f| f.split('|').any(|x| n.contains(x))) {
            s.push_str(&format!("- {n}\n"));
        }
    }
    s
}

/// A block's attributes, `key="value"` separated by spaces, in order.
fn attributes(text: &str) -> Result<Vec<(String, String)>, Error> {
    let mut out = Vec::new();
    let mut rest = text.trim();
    while !rest.is_empty() {
        let (key, after) = rest
            .split_once("=\"")
            .ok_or_else(|| format!("`{rest}`: attributes are key=\"value\""))?;
        let (value, after) = after
            .split_once('"')
            .ok_or_else(|| format!("`{key}`: its value has no closing quote"))?;
        let key = key.trim();
        if !["filter", "section", "columns", "order", "figure", "heatmap"].contains(&key) {
            return Err(Error::Input(format!(
                "unknown attribute `{key}` (filter, section, columns, order, figure, heatmap)"
            )));
        }
        out.push((key.to_string(), value.to_string()));
        rest = after.trim_start();
    }
    Ok(out)
}

/// How a section block lays out its table: the four column headers (`A|B|C|D`, else the
/// section's title, estimate, 95% interval, count), and whether rows keep the answer's order
/// (else highest first).
#[derive(Clone, Copy, Default)]
struct Layout<'a> {
    columns: Option<&'a str>,
    recorded_order: bool,
}

/// Every Markdown file whose blocks are generated.
fn documents() -> Vec<PathBuf> {
    let mut out = Vec::new();
    for d in DOCS {
        let p = Path::new(d);
        if p.is_file() {
            out.push(p.to_path_buf());
        } else if let Ok(rd) = std::fs::read_dir(p) {
            let mut v: Vec<PathBuf> = rd
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "md"))
                .collect();
            v.sort();
            out.extend(v);
        }
    }
    out
}

/// Where generated figures are written, and what README links them as.
const FIGURES: &str = "docs/figures";

/// A figure a block draws (issue 50: README's figures are the report's SVG): its file under
/// `docs/figures/` and its bytes.
type Figure = (PathBuf, String);

/// A block's figure: the section's bars or the named heat map, drawn by the report's renderer.
fn figure_of(
    r: &Recorded,
    section: Option<&str>,
    heatmap: Option<&str>,
) -> Result<(String, String), Error> {
    if let Some(title) = heatmap {
        let h = r
            .answer
            .heatmaps
            .iter()
            .find(|h| h.title == title)
            .ok_or_else(|| format!("the answer has no heat map `{title}`"))?;
        return Ok((h.title.clone(), h.svg()));
    }
    let title =
        section.ok_or("figure=\"FILE.svg\" draws a section=\"TITLE\" or a heatmap=\"TITLE\"")?;
    let sec = r
        .answer
        .sections
        .iter()
        .find(|s| s.title == title)
        .ok_or_else(|| format!("the answer has no section `{title}`"))?;
    Ok((sec.title.clone(), crate::platform::render::bars_svg(sec)))
}

/// A document with every block regenerated from its answer file, its links to `docs/figures/`
/// starting with `link`; with the blocks found and the figures they draw.
fn regenerate_doc(text: &str, link: &str) -> Result<(String, usize, Vec<Figure>), Error> {
    let mut figures = Vec::new();
    let mut out = String::new();
    let mut rest = text;
    let mut n = 0;
    while let Some(at) = rest.find("<!-- answer ") {
        let head_end = rest[at..]
            .find("-->")
            .ok_or("an `<!-- answer` comment is not closed")?
            + at
            + 3;
        let head = &rest[at + "<!-- answer ".len()..head_end - 3];
        let close = rest[head_end..].find("<!-- /answer -->").ok_or_else(|| {
            format!(
                "the block `<!-- answer {}-->` has no `<!-- /answer -->`",
                head.trim()
            )
        })? + head_end;
        let mut words = head.trim().splitn(2, ' ');
        let name = words.next().unwrap_or("").to_string();
        let attrs = words.next().unwrap_or("").trim();
        let attrs =
            attributes(attrs).map_err(|e| format!("`<!-- answer {}-->`: {e}", head.trim()))?;
        let attr = |key: &str| {
            attrs
                .iter()
                .find(|(k, _)| k == key)
                .map(|(_, v)| v.as_str())
        };
        let r = read(&name)?;
        out.push_str(&rest[..head_end]);
        out.push('\n');
        if attr("figure").is_none() {
            out.push_str(&block_text(
                &r,
                attr("filter"),
                attr("section"),
                Layout {
                    columns: attr("columns"),
                    recorded_order: attr("order") == Some("recorded"),
                },
            ));
        }
        if let Some(file) = attr("figure") {
            if !file.ends_with(".svg") || file.contains('/') {
                return Err(Error::Input(format!(
                    "`<!-- answer {}-->`: figure=\"{file}\": a file name ending .svg (written under {FIGURES}/)",
                    head.trim()
                )));
            }
            let (title, svg) = figure_of(&r, attr("section"), attr("heatmap"))
                .map_err(|e| format!("`<!-- answer {}-->`: {e}", head.trim()))?;
            out.push_str(&command_of(&r));
            out.push_str(&format!("![{title}, from `{name}`]({link}{file})\n"));
            figures.push((Path::new(FIGURES).join(file), svg));
        }
        rest = &rest[close..];
        n += 1;
    }
    out.push_str(rest);
    Ok((out, n, figures))
}

/// How a document links to `docs/figures/`: README from the top, a guide from `docs/`.
fn link_of(doc: &Path) -> &'static str {
    if doc.parent().is_some_and(|p| p.ends_with("docs")) {
        "figures/"
    } else {
        "docs/figures/"
    }
}

/// Rewrites every document's generated blocks from the answer files.
fn write_docs() -> Result<String, Error> {
    let mut out = String::new();
    for d in documents() {
        let text = std::fs::read_to_string(&d).map_err(|e| format!("{}: {e}", d.display()))?;
        let (new, n, figures) =
            regenerate_doc(&text, link_of(&d)).map_err(|e| format!("{}: {e}", d.display()))?;
        if n > 0 && new != text {
            write_in_docs(&d, new.as_bytes())?;
            out.push_str(&format!("rewrote {n} blocks in {}\n", d.display()));
        }
        for (path, svg) in figures {
            if std::fs::read_to_string(&path).ok().as_deref() != Some(svg.as_str()) {
                std::fs::create_dir_all(FIGURES).map_err(|e| format!("{FIGURES}: {e}"))?;
                write_in_docs(&path, svg.as_bytes())?;
                out.push_str(&format!("drew {}\n", path.display()));
            }
        }
    }
    Ok(out)
}

/// What a reproduction found: its lines, and how many estimates moved beyond their intervals
/// (a finding: the command exits 1).
pub struct Reproduced {
    pub text: String,
    pub moved: usize,
}

/// Runs, checks or records the answers `f` names; `commands` says which command lines an answer
/// may run (the CLI's grammar).
pub fn reproduce(f: &Settings, commands: &impl Commands) -> Result<Reproduced, Error> {
    let done = |text: String| Reproduced { text, moved: 0 };
    if let Some(name) = &f.record {
        check_name(name)?;
        if f.args.is_empty() {
            return Err("--record NAME -- ARGS: give the command's arguments after --".into());
        }
        let answer = run(&f.out, name, &f.args, commands)?;
        write(
            name,
            &Recorded {
                args: f.args.clone(),
                fast: f.mark_fast,
                answer,
            },
        )?;
        return Ok(done(format!("recorded {}\n", path_of(name).display())));
    }
    if f.write_docs {
        return write_docs().map(done);
    }
    if f.check_docs {
        let mut out = String::new();
        let mut stale = Vec::new();
        for d in documents() {
            let text = std::fs::read_to_string(&d).map_err(|e| format!("{}: {e}", d.display()))?;
            let (new, n, figures) =
                regenerate_doc(&text, link_of(&d)).map_err(|e| format!("{}: {e}", d.display()))?;
            if n > 0 {
                out.push_str(&format!("{}: {n} generated blocks\n", d.display()));
            }
            if new != text {
                stale.push(d.display().to_string());
            }
            for (path, svg) in figures {
                if std::fs::read_to_string(&path).ok().as_deref() != Some(svg.as_str()) {
                    stale.push(path.display().to_string());
                }
            }
        }
        if !stale.is_empty() {
            return Err(Error::Input(format!(
                "generated blocks differ from their answer files (a number edited by hand, or an answer re-recorded without --update) in: {}; run `skirmish reproduce --update` or restore them",
                stale.join(", ")
            )));
        }
        return Ok(done(out + "every generated block equals its answer file\n"));
    }
    let all = names()?;
    let wanted: Vec<String> = if f.names.is_empty() {
        all.clone()
    } else {
        for n in &f.names {
            if !all.contains(n) {
                return Err(Error::Input(format!(
                    "{n}: no recorded answer; known: {}",
                    all.join(", ")
                )));
            }
        }
        f.names.clone()
    };
    // Every answer to run is read and its arguments checked before any runs (issue 62).
    let mut chosen = Vec::new();
    for name in wanted {
        let r = read(&name)?;
        if f.fast && !r.fast {
            continue;
        }
        runner_of(&r.args, commands).map_err(|e| format!("{}: {e}", path_of(&name).display()))?;
        chosen.push((name, r));
    }
    let mut out = String::new();
    let mut moved = 0;
    for (name, mut r) in chosen {
        let now = run(&f.out, &name, &r.args, commands)?;
        let (lines, m) = compare(&name, &r.answer, &now);
        out.push_str(&lines);
        moved += m;
        if f.update {
            r.answer = now;
            write(&name, &r)?;
        }
    }
    if f.update {
        return Ok(done(out + &write_docs()?));
    }
    Ok(Reproduced { text: out, moved })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn speed(section: &str, value: f64) -> crate::platform::answer::Section {
        crate::platform::answer::Section {
            band: None,
            better: None,
            title: section.into(),
            meaning: String::new(),
            unit: crate::platform::answer::Unit::Number,
            estimates: vec![crate::platform::answer::Estimate {
                label: "Loot Arena: 2v2 battles".into(),
                value,
                lo: value / 1.5,
                hi: value * 1.5,
                count: 1,
                exact: false,
                se: None,
            }],
        }
    }

    fn bench_answer(ratio: f64, rate: f64) -> Answer {
        let mut a = read("rumble-ffa").unwrap().answer;
        a.provenance.source = SOURCE.into();
        a.sections = vec![
            speed(RELATIVE, ratio),
            speed("matches per second, one thread", rate),
        ];
        a
    }

    #[test]
    fn a_speed_answer_is_compared_by_its_ratios_never_its_rates() {
        // Another machine: every absolute rate halved, the ratios within their band.
        let (_, moved) = compare(
            "speed",
            &bench_answer(900.0, 700_000.0),
            &bench_answer(1000.0, 350_000.0),
        );
        assert_eq!(moved, 0);
        // A kernel twice as slow against the same yardstick has moved.
        let (lines, moved) = compare(
            "speed",
            &bench_answer(900.0, 700_000.0),
            &bench_answer(450.0, 700_000.0),
        );
        assert_eq!(moved, 1, "{lines}");
        assert!(lines.contains("yardstick"), "{lines}");
    }

    #[test]
    fn block_attributes_are_read_in_any_order_and_unknown_ones_refused() {
        let a = attributes(r#"section="a b" columns="w|x|y|z" order="recorded""#).unwrap();
        assert_eq!(a[0], ("section".into(), "a b".into()));
        assert_eq!(a[1], ("columns".into(), "w|x|y|z".into()));
        assert_eq!(a[2], ("order".into(), "recorded".into()));
        assert!(
            attributes(r#"colour="red""#)
                .unwrap_err()
                .to_string()
                .contains("unknown attribute")
        );
        assert!(
            attributes(r#"filter="open"#)
                .unwrap_err()
                .to_string()
                .contains("closing quote")
        );
    }

    #[test]
    fn a_figure_block_draws_the_reports_svg_and_links_it_from_where_the_document_is() {
        let block = "<!-- answer rumble-ffa section=\"win rate by power held\" figure=\"x.svg\" -->\n<!-- /answer -->";
        let (text, n, figures) = regenerate_doc(block, "figures/").unwrap();
        assert_eq!(n, 1);
        assert!(text.contains("](figures/x.svg)"), "{text}");
        assert!(
            !text.contains("| win rate by power held |"),
            "a figure block holds no table: {text}"
        );
        assert_eq!(figures.len(), 1);
        assert_eq!(figures[0].0, Path::new("docs/figures/x.svg"));
        assert!(figures[0].1.starts_with("<svg xmlns="), "{}", figures[0].1);
        assert!(
            figures[0].1.contains("<title>"),
            "every bar carries its data label"
        );
        assert_eq!(link_of(Path::new("docs/auto-rumble.md")), "figures/");
        assert_eq!(link_of(Path::new("README.md")), "docs/figures/");
        let bad = block.replace("x.svg", "x.png");
        assert!(
            regenerate_doc(&bad, "")
                .unwrap_err()
                .to_string()
                .contains("ending .svg")
        );
        let bad = block.replace("power held", "nothing");
        assert!(
            regenerate_doc(&bad, "")
                .unwrap_err()
                .to_string()
                .contains("no section")
        );
    }

    #[test]
    fn a_block_without_its_end_is_refused() {
        assert!(regenerate_doc("x <!-- answer foo --> y", "").is_err());
        let (text, n, figures) = regenerate_doc("no blocks", "").unwrap();
        assert_eq!((text.as_str(), n, figures.len()), ("no blocks", 0, 0));
    }
}

//! A what-if (`--versus-rules FILE` on any command that takes `--rules`, issue 51): the command
//! under its own rules and under FILE on the same match seeds, and every estimate's difference
//! with its paired interval; its folder is its own kind (`OUT/base`, `OUT/versus` and the
//! difference's answer).

use crate::error::Error;
use std::path::PathBuf;

use super::Commands;
use crate::platform::context::Context;

/// The flag that asks a what-if.
pub const VERSUS: &str = "--versus-rules";
/// The mark of a what-if's folder (`OUT/base`, `OUT/versus` and the difference's answer).
pub const WHAT_IF: &str = "what-if";

/// `--versus-rules FILE` on the command line `argv` (the program's name first), asked with
/// `ctx`: the same command under its rules (A, `OUT/base`) and under FILE (B, `OUT/versus`), on
/// the same match seeds, and every estimate's difference B - A with its 95% interval as the
/// answer in OUT.
pub fn what_if<C: Commands>(mut ctx: Context, argv: Vec<String>) -> Result<String, Error> {
    let commands = C::default();
    let mut rest = Vec::new();
    let (mut file, mut out) = (None, None);
    let mut words = argv.into_iter();
    while let Some(w) = words.next() {
        if w == VERSUS {
            file = Some(
                words
                    .next()
                    .ok_or("--versus-rules FILE: name the rules file")?,
            );
        } else if let Some(v) = w.strip_prefix("--versus-rules=") {
            file = Some(v.to_string());
        } else if w == "--out" {
            out = Some(words.next().ok_or("--out DIR: name the folder")?);
        } else if let Some(v) = w.strip_prefix("--out=") {
            out = Some(v.to_string());
        } else {
            rest.push(w);
        }
    }
    let file = file.ok_or("--versus-rules FILE: name the rules file")?;
    // Both runs in at least 20 parts unless the host chose the part size (issue 63).
    if !rest
        .iter()
        .any(|w| w == "--chunk-size" || w.starts_with("--chunk-size="))
    {
        ctx = ctx.in_parts(2 * crate::platform::pairing::MIN_PAIRED_PARTS as u64);
    }
    let out = PathBuf::from(out.unwrap_or_else(|| "runs/what-if".into()));
    // B: the rules file replaces the command's own, or joins it.
    let mut b = rest.clone();
    match b.iter().position(|w| w == "--rules") {
        Some(i) if i + 1 < b.len() => b[i + 1] = file.clone(),
        _ => {
            b.retain(|w| !w.starts_with("--rules="));
            b.extend(["--rules".to_string(), file.clone()]);
        }
    }
    // Both parsed before either plays; B (the new file) plays first, so a bad FILE is refused
    // before anything of A is written, and an arm that fails leaves no folder it began.
    let mut arms = Vec::new();
    for (mut argv, arm) in [(b, "versus"), (rest, "base")] {
        let dir = out.join(arm);
        argv.extend(["--out".to_string(), dir.display().to_string()]);
        let command = commands.read(&argv).map_err(|m| {
            let first = m.said.lines().next().unwrap_or("").trim_start_matches("error: ");
            match m.unknown.as_deref() {
                Some("--out") => format!(
                    "--versus-rules: this command writes no answer folder (no --out), so it has no what-if ({first})"
                ),
                Some("--rules") => format!(
                    "--versus-rules: this command takes no --rules, so it has no what-if ({first})"
                ),
                // The grammar's whole message, less its own `error: ` (the caller prints one).
                _ => m.said.trim_end().trim_start_matches("error: ").to_string(),
            }
        })?;
        arms.push((command, dir, argv));
    }
    // A what-if's folder is its own kind of output (issue 62: one written into a finished plain
    // run replaced that run's answer): new, empty, or an earlier what-if's.
    crate::platform::dataset::check_output_folder(&out, WHAT_IF)?;
    let out_is_new = crate::platform::dataset::absent_or_empty(&out);
    crate::platform::dataset::mark_output_folder(&out, WHAT_IF)?;
    let mut answers = Vec::new();
    for (command, dir, argv) in arms {
        let new = !dir.exists();
        // Each arm's answer records its own command line, not the what-if's.
        let played = commands.run(&ctx.arm(argv), command);
        match played.and_then(|_| crate::platform::dataset::answer_of(&dir)) {
            Ok(a) => answers.push(a),
            Err(e) => {
                if new {
                    crate::platform::dataset::discard(&dir);
                }
                if out_is_new {
                    crate::platform::dataset::unmark_if_empty(&out);
                }
                return Err(e);
            }
        }
    }
    let pairing = crate::platform::dataset::pairing(&out.join("base"), &out.join("versus"));
    let d = crate::platform::pairing::difference(&answers[1], &answers[0], pairing.as_ref())?;
    for (name, bytes) in crate::platform::render::files(&d) {
        crate::platform::dataset::atomic_write(&out, &name, &bytes)?;
    }
    Ok(
        crate::platform::render::render(&d, crate::platform::render::Format::Text)
            + &crate::platform::render::report_line(&out),
    )
}

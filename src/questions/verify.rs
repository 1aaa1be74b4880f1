//! `skirmish verify DIR` (issue 79): a folder proves itself. The question it answers first (its
//! command, seed and inputs by digest), then its files against their digests and records, then
//! its parts or kept sums played again from their seeds by the recorded command (read by the
//! grammar, and only one that writes a folder). A what-if, a sensitivity and a balance are
//! folders of their own kinds, each checked as it was made.

use super::Commands;
use crate::error::Error;

/// `skirmish verify DIR` (issue 79): the question the folder proves first (its command, seed and
/// inputs by digest), then what was checked, then what the default checks and what only
/// `--replay-all` adds. An input the folder's question reads that this machine lacks, or holds
/// changed, is named and the folder refused before anything is played again.
pub fn verify<C: Commands>(
    dir: &std::path::Path,
    replay_for: u64,
    all: bool,
) -> Result<String, Error> {
    // A balance folder keeps its asks (issue 79: verify refused every one, naming a manifest).
    if super::balance::keeps_asks(dir) {
        return super::balance::verify::<C>(dir, replay_for, all);
    }
    // A what-if and a sensitivity are folders of their own kind, each asked again whole.
    let mark = crate::platform::digest::read_kept(&dir.join(crate::platform::dataset::OUTPUT_MARK))
        .unwrap_or_default();
    match mark.trim() {
        super::what_if::WHAT_IF => return verify_what_if::<C>(dir, replay_for, all),
        super::sensitivity::COMMAND => {
            return super::sensitivity::verify::<C>(dir);
        }
        _ => {}
    }
    let question = crate::platform::dataset::answer_of(dir)
        .map(|a| a.provenance)
        .ok();
    let replaying = all || replay_for > 0;
    if let (Some(p), true) = (&question, replaying) {
        for (path, digest) in &p.inputs {
            match crate::platform::digest::sha256_file(std::path::Path::new(path)) {
                Ok(d) if d == *digest => {}
                Ok(_) => {
                    return Err(Error::Input(format!(
                        "{}: the folder's question read {path} with another content (digest {digest}); verify where its inputs are as they were, or with --replay-for 0 (its files only)",
                        dir.display()
                    )));
                }
                Err(e) => {
                    return Err(Error::Input(format!(
                        "{}: the folder's question reads {path}, and this machine lacks it ({e}); verify where its inputs are, or with --replay-for 0 (its files only)",
                        dir.display()
                    )));
                }
            }
        }
    }
    let said = verify_folder::<C>(dir, replay_for, all)?;
    let head = match &question {
        Some(p) => format!(
            "{}: the question: `{}` (seed {}; inputs: {})\n",
            dir.display(),
            crate::platform::escape::plain(&p.command),
            p.seed,
            if p.inputs.is_empty() {
                "none".to_string()
            } else {
                p.inputs
                    .iter()
                    .map(|(f, d)| {
                        format!(
                            "{} {}",
                            crate::platform::escape::plain(f),
                            &d[..d.len().min(12)]
                        )
                    })
                    .collect::<Vec<_>>()
                    .join(", ")
            }
        ),
        None => String::new(),
    };
    let tail = if all {
        "checked: every file, and every part or kept sum played again from its seeds"
    } else if replaying {
        "checked: every file, and the parts or kept sums the time allowed played again; --replay-all plays every one"
    } else {
        "checked: every file against its digest and record, and the answer against them; nothing was played again (--replay-for SECONDS or --replay-all play parts or kept sums again)"
    };
    Ok(format!("{head}{said}{tail}\n"))
}

/// `skirmish verify DIR` of a what-if (issue 79): each arm (`base`, `versus`) verified as the
/// folder it is, on its own recorded question, then the difference recomputed from the two and
/// compared with the folder's answer byte for byte.
fn verify_what_if<C: Commands>(
    dir: &std::path::Path,
    replay_for: u64,
    all: bool,
) -> Result<String, Error> {
    let (base, versus) = (dir.join("base"), dir.join("versus"));
    let mut said = format!(
        "{}: a what-if: its two arms, then their difference\n",
        dir.display()
    );
    for arm in [&base, &versus] {
        said.push_str(&verify::<C>(arm, replay_for, all)?);
    }
    let a = crate::platform::dataset::answer_of(&base)?;
    let b = crate::platform::dataset::answer_of(&versus)?;
    let pairing = crate::platform::dataset::pairing(&base, &versus);
    // As `versus` wrote it: the base's answer first.
    let d = crate::platform::pairing::difference(&a, &b, pairing.as_ref())?;
    let same = crate::platform::dataset::compare_folder(dir, &crate::platform::render::files(&d))
        .map_err(|e| format!("{}: {e}", dir.display()))?;
    said.push_str(&format!("{}: the difference: {same}\n", dir.display()));
    Ok(said)
}

/// [`verify`] of a dataset or analysis folder: its files, then its parts or kept sums replayed.
fn verify_folder<C: Commands>(
    dir: &std::path::Path,
    replay_for: u64,
    all: bool,
) -> Result<String, Error> {
    #[cfg(feature = "parquet")]
    let rows = |p: &std::path::Path| -> Result<u64, Error> {
        crate::platform::parquet::read(p).map(|df| df.height() as u64)
    };
    #[cfg(feature = "parquet")]
    let rows: Option<&crate::platform::dataset::RowCount> = Some(&rows);
    #[cfg(not(feature = "parquet"))]
    let rows: Option<&crate::platform::dataset::RowCount> = None;
    // An analysis folder (no manifest): its sealed files, then its recorded command replays the
    // kept sums and compares every file it would write (issue 62).
    let analysis = crate::platform::dataset::verify_analysis(dir)?;
    let is_analysis = analysis.is_some();
    let (files, command) = match analysis {
        Some(found) => found,
        None => (
            crate::platform::dataset::verify(dir, rows)?,
            crate::platform::dataset::recorded_command(dir)?,
        ),
    };
    if replay_for == 0 && !all {
        return Ok(files);
    }
    // The tallies are checked by playing parts again: the recorded command, run with the
    // platform's replay request, plays the chosen parts and compares them (it writes nothing).
    use crate::platform::context::Replay;
    let words = shlex::split(&command).ok_or_else(|| {
        format!(
            "{}: the recorded command is not a command line: {command}",
            dir.display()
        )
    })?;
    let mut argv: Vec<String> = words.into_iter().collect();
    argv.extend(["--out".into(), dir.display().to_string(), "--quiet".into()]);
    let commands = C::default();
    let command_read = commands.read(&argv).map_err(|m| {
        format!(
            "{}: the recorded command does not parse now ({}); its parts cannot be replayed",
            dir.display(),
            m.kind
        )
    })?;
    // The manifest is data from whoever made the folder: only a command that writes datasets may
    // be replayed from it, never one that runs other programs (issue 62: `reproduce ... -- bash`).
    if !commands.writes_folder(&command_read) {
        return Err(Error::Input(format!(
            "{}: manifest.json: `command`: `{}` is not a command that writes a dataset (simulate, tournament or analyze); nothing was run. Re-run the command that made the folder, or verify the files only with --replay-for 0",
            dir.display(),
            crate::platform::escape::plain(&command)
        )));
    }
    // An analysis's answer is written by its run without --shard; a shard's command would
    // write its slice into the folder being checked (issue 79: verify never writes).
    if is_analysis
        && argv
            .iter()
            .any(|w| w == "--shard" || w.starts_with("--shard=") || w.starts_with("--shard-count"))
    {
        return Err(Error::Input(format!(
            "{}: result.json: `provenance.command`: `{}` names a shard, and an analysis folder's answer is written by the run without --shard; the folder is refused and nothing was run",
            dir.display(),
            crate::platform::escape::plain(&command)
        )));
    }
    let ctx = crate::platform::context::Context::replaying(
        argv,
        Replay {
            budget: (!all).then(|| std::time::Duration::from_secs(replay_for)),
        },
    );
    let ran = commands.run(&ctx, command_read);
    match (ran, ctx.replay_outcome()) {
        (_, Some(Ok(r))) => Ok(format!("{}{}: {r}\n", files, dir.display())),
        (_, Some(Err(e))) => Err(Error::Input(format!("{}: {e}", dir.display()))),
        (Err(e), None) => Err(Error::Input(format!(
            "{}: files verified, but the recorded command cannot replay its parts: {e}",
            dir.display()
        ))),
        _ => Err(Error::Input(format!(
            "{}: files verified, but the recorded command played no dataset to replay",
            dir.display()
        ))),
    }
}

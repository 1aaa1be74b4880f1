//! `skirmish run FILE.toml`: any experiment file of any game. The file names its command; the
//! rest of it is that command's settings. `simulate rumble` (settings under `[settings]`) and
//! `tournament rumble` (strategies as a list) have files of their own shape; every other command's
//! file gives its flags as top-level keys (`melees = 12`, `no_wiggle = true`) and is parsed by the
//! same clap definitions as the command line, so a file can say exactly what a command line can.

use crate::error::Error;
use std::path::Path;

use super::flags::RunFlags;
use super::{simulate, tournament};

/// What an experiment file comes to: run already, or a command line for the caller to run.
pub enum Experiment {
    Done(String),
    /// `skirmish` argv (without the program name) that the file stands for, and the file's text
    /// (to place later errors on its lines: [`locate`]).
    Argv(Vec<String>, String),
}

/// The line (1-based) where `key` (a dotted path) is written in `text`: the file formats' own
/// locator.
fn line_of(text: &str, key: &str) -> Option<usize> {
    crate::games::file_error::locate(text, key).map(|(line, _)| line)
}

/// An error about flag `--some-flag` placed on the file's line that sets its key:
/// `FILE:LINE: `some_flag`: ...` (issue 53: experiment-file errors named CLI flags, no line).
/// Messages not about one of the file's keys are returned as they are, the file named.
pub fn locate(path: &Path, text: &str, message: &str) -> String {
    let flag = message
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
        .find(|w| w.starts_with("--") && w.len() > 2);
    if let Some(flag) = flag {
        let key = flag.trim_start_matches('-').replace('-', "_");
        if let Some(line) = line_of(text, &key) {
            return format!("{}:{line}: `{key}`: {message}", path.display());
        }
    }
    if message.contains(&path.display().to_string()) {
        message.to_string()
    } else {
        format!("{}: {message}", path.display())
    }
}

/// An error about `KEY` of the file's `[settings]` table (`KEY: ...`), placed on its line:
/// `FILE:LINE: `settings.KEY`: ...`.
pub fn locate_setting(path: &Path, text: &str, message: &str) -> String {
    let key = message.split(':').next().unwrap_or("").trim();
    match line_of(text, &format!("settings.{key}")).filter(|_| !key.is_empty()) {
        Some(line) => format!(
            "{}:{line}: `settings.{key}`:{}",
            path.display(),
            &message[key.len() + 1..]
        ),
        None => format!("{}: settings.{message}", path.display()),
    }
}

/// The clap command a file's `command` names, or where the file names none.
fn subcommand(path: &Path, text: &str, command: &str) -> Result<clap::Command, Error> {
    use clap::CommandFactory;
    let mut sub = super::Cli::command();
    for word in command.split(' ') {
        let names: Vec<String> = sub
            .get_subcommands()
            .map(|c| c.get_name().to_string())
            .collect();
        match sub.find_subcommand(word) {
            Some(c) => sub = c.clone(),
            None => {
                let hint = crate::names::closest_name(word, names.iter().map(String::as_str))
                    .map(|c| format!("did you mean `{c}`? "))
                    .unwrap_or_default();
                return Err(Error::Input(format!(
                    "{}:{}: `command`: `{command}`: no such command (`{word}`); {hint}one of: {}",
                    path.display(),
                    line_of(text, "command").unwrap_or(1),
                    names.join(", ")
                )));
            }
        }
    }
    Ok(sub)
}

/// Reads `path` and runs it when it has a shape of its own, or returns the command line it means.
pub fn experiment(
    ctx: &crate::platform::context::Context,
    path: &Path,
    flags: &RunFlags,
) -> Result<Experiment, Error> {
    let text = crate::games::file_error::read(
        &crate::platform::sources::Sources::disk(),
        path,
        "experiment file",
    )?;
    let located = |e: toml::de::Error| {
        let at = e
            .span()
            .map(|s| {
                let line = text[..s.start].matches('\n').count() + 1;
                let col = s.start - text[..s.start].rfind('\n').map_or(0, |i| i + 1) + 1;
                format!(":{line}:{col}")
            })
            .unwrap_or_default();
        format!("{}{at}: {}", path.display(), e.message())
    };
    let table = toml::from_str::<toml::Table>(&text).map_err(located)?;
    let command = table
        .get("command")
        .and_then(|c| c.as_str().map(|c| c.split_whitespace().collect::<Vec<_>>().join(" ")))
        .ok_or_else(|| {
            format!(
                "{}: `command` is missing; e.g. command = \"simulate rumble\" (any command of `skirmish games`)",
                path.display()
            )
        })?;
    match command.as_str() {
        "tournament rumble" => {
            let exp: tournament::TournamentExperiment = toml::from_str(&text).map_err(located)?;
            let f = exp.flags(flags, text.clone());
            crate::platform::command::serve(ctx, &f, super::flags::encoder()?)
                .map(Experiment::Done)
                .map_err(|e| Error::Input(format!("{}: {e}", path.display())))
        }
        "simulate rumble" => {
            ffa_experiment(ctx, path, text.clone(), flags, located).map(Experiment::Done)
        }
        _ => argv(path, &text, &command, &table, flags).map(|a| Experiment::Argv(a, text.clone())),
    }
}

/// The command line a flags-as-keys file stands for; flags given to `run` win over the file's.
fn argv(
    path: &Path,
    text: &str,
    command: &str,
    table: &toml::Table,
    flags: &RunFlags,
) -> Result<Vec<String>, Error> {
    // A file is data (issue 62): it names a command that writes a dataset, never one that runs
    // other programs or files (`reproduce`, `run`, `bench`).
    let first = command.split(' ').next().unwrap_or("");
    if !["simulate", "tournament", "analyze"].contains(&first) {
        return Err(Error::Input(format!(
            "{}:{}: `command`: `{command}` cannot be run from a file: an experiment file names simulate, tournament or analyze",
            path.display(),
            line_of(text, "command").unwrap_or(1)
        )));
    }
    // Every key must be one of the command's flags: named with its line, a likely typo's
    // correction, and the keys there are.
    let sub = subcommand(path, text, command)?;
    let keys: Vec<String> = sub
        .get_arguments()
        .filter_map(|a| a.get_long())
        .filter(|l| *l != "help")
        .map(|l| l.replace('-', "_"))
        .collect();
    for key in table.keys().filter(|k| *k != "command") {
        if !keys.contains(key) {
            let hint = crate::names::closest_name(key, keys.iter().map(String::as_str))
                .map(|c| format!("did you mean `{c}`? "))
                .unwrap_or_default();
            return Err(Error::Input(format!(
                "{}:{}: `{key}`: not a setting of `{command}`; {hint}its keys are the command's flags: {}",
                path.display(),
                line_of(text, key).unwrap_or(1),
                keys.join(", ")
            )));
        }
    }
    let mut overrides: Vec<(&str, String)> = Vec::new();
    if let Some(n) = flags.matches {
        // A game counts its unit in its own word; `--matches` overrides whichever the file uses.
        let key = ["melees", "games", "battles", "matches"]
            .into_iter()
            .find(|k| keys.iter().any(|c| c == k))
            .ok_or_else(|| {
                format!("--matches: `{command}` plays no count of matches to set; leave it out")
            })?;
        overrides.push((key, n.to_string()));
    }
    if let Some(s) = flags.seed {
        overrides.push(("seed", s.to_string()));
    }
    if let Some(o) = &flags.out {
        overrides.push(("out", o.display().to_string()));
    }
    if let Some(c) = flags.chunk_size {
        overrides.push(("chunk_size", c.to_string()));
    }
    if let Some(t) = flags.threads {
        overrides.push(("threads", t.to_string()));
    }
    if let Some(s) = &flags.shard {
        overrides.push(("shard", s.clone()));
    }
    if let Some(s) = flags.shard_count {
        overrides.push(("shard_count", s.to_string()));
    }
    let mut out: Vec<String> = command.split(' ').map(str::to_string).collect();
    for (key, value) in table {
        if key == "command" || overrides.iter().any(|(k, _)| k == key) {
            continue;
        }
        let flag = format!("--{}", key.replace('_', "-"));
        match value {
            toml::Value::Boolean(true) => out.push(flag),
            toml::Value::Boolean(false) => {}
            toml::Value::String(s) => out.extend([flag, s.clone()]),
            // `--flag=-1`, not `--flag -1`: a negative number read as a flag of its own lost its
            // key and line in the error (issue 62).
            toml::Value::Integer(i) => out.push(format!("{flag}={i}")),
            toml::Value::Float(f) => out.push(format!("{flag}={f}")),
            toml::Value::Array(items) => {
                let parts: Result<Vec<String>, Error> = items
                    .iter()
                    .map(|v| match v {
                        toml::Value::String(s) => Ok(s.clone()),
                        toml::Value::Integer(i) => Ok(i.to_string()),
                        toml::Value::Float(f) => Ok(f.to_string()),
                        _ => Err(Error::Input(format!(
                            "{}:{}: `{key}`: a list holds strings or numbers, e.g. {key} = [100, 1000]",
                            path.display(),
                            line_of(text, key).unwrap_or(1)
                        ))),
                    })
                    .collect();
                out.extend([flag, parts?.join(",")]);
            }
            _ => {
                return Err(Error::Input(format!(
                    "{}:{}: `{key}`: give a string, number, boolean or list, e.g. {key} = 10",
                    path.display(),
                    line_of(text, key).unwrap_or(1)
                )));
            }
        }
    }
    for (key, value) in overrides {
        out.extend([format!("--{}", key.replace('_', "-")), value]);
    }
    if flags.quiet && !table.contains_key("quiet") {
        out.push("--quiet".into());
    }
    Ok(out)
}

/// An experiment file of `simulate rumble` (its text already read; `located` places a TOML error).
fn ffa_experiment(
    ctx: &crate::platform::context::Context,
    path: &Path,
    text: String,
    flags: &RunFlags,
    located: impl Fn(toml::de::Error) -> String,
) -> Result<String, Error> {
    let exp: simulate::Experiment = toml::from_str(&text).map_err(located)?;
    let settings = exp.settings.clone();
    crate::games::auto_rumble::simulation::ffa::Ffa::new(ctx.sources(), settings.clone())
        .map_err(|e| e.map_message(|m| locate_setting(path, &text, &m)))?;
    // The command line's flags win over the file's.
    let run = RunFlags {
        matches: flags.matches.or(exp.matches),
        seed: flags.seed.or(exp.seed),
        chunk_size: flags.chunk_size.or(exp.chunk_size),
        out: flags.out.clone().or(exp.out.clone()),
        ..flags.clone()
    };
    crate::platform::command::serve(
        ctx,
        &simulate::SimulateRumble {
            settings,
            run,
            experiment: Some(text),
        },
        super::flags::encoder()?,
    )
}

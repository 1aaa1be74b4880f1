//! A dataset command asked at a point (issue 65): the command's words with values for named
//! numbers (a rules key, or a `{{placeholder}}` in one of its input files) filled in, played on
//! given matches of a master seed, answering with its tally. What `balance` and `sensitivity`
//! ask; every game's dataset command is one (read by the CLI's grammar, [`Commands`]).

use crate::error::Error;
use std::collections::BTreeMap;
use std::ops::Range;
use std::path::{Path, PathBuf};

use rayon::prelude::*;

use crate::platform::balance::Sums;
use crate::platform::plan::Plan;
use crate::platform::runner::Simulation;
use crate::platform::tally::Tally;
use crate::questions::{Commands, Dataset as _};

/// What a coordinate of a point names.
#[derive(Clone, Debug)]
pub enum Named {
    /// A number of the game's rules, by its dotted key (`champion.mage.health`).
    Rules(String),
    /// `{{name}}` in an input file of the command (index into the question's files).
    Placeholder { file: usize, name: String },
}

impl Named {
    pub fn describe<C: Commands>(&self, q: &Question<C>) -> String {
        match self {
            Named::Rules(k) => k.clone(),
            Named::Placeholder { file, name } => {
                format!("{{{{{name}}}}} in {}", q.files[*file].0.display())
            }
        }
    }
}

/// The flags every dataset command takes for its run, not its question: the question sets them.
const RUN_FLAGS: &[(&str, bool)] = &[
    ("--matches", true),
    ("--seed", true),
    ("--out", true),
    ("--threads", true),
    ("--chunk-size", true),
    ("--shard", true),
    ("--shard-count", true),
    ("--quiet", false),
];

pub struct Question<C: Commands> {
    /// The command-line grammar the command is read by.
    commands: C,
    /// The command as the host wrote it.
    pub command: String,
    /// Its words after `skirmish`, run flags and `--rules` taken out.
    words: Vec<String>,
    /// The game's command word (`loot`).
    pub game: String,
    /// Every key of the game's rules at the seed's value, then the host's rules file over it.
    pub rules: toml::Table,
    /// The host's `--rules` file, when the command names one.
    pub rules_file: Option<PathBuf>,
    /// Input files with placeholders: path as the command names it, and text.
    pub files: Vec<(PathBuf, String)>,
    /// What each coordinate of a point names.
    pub named: Vec<Named>,
    /// Matches a point plays (the command's `--matches` or `--games`, or a Clan Melee
    /// tournament's whole count); `None` when the command gives none.
    pub matches: Option<u64>,
    /// A tournament played whole (Clan Melee): its own chunks.
    whole: Option<Plan>,
    /// An analysis: the flag that sets how much it plays (`--max-battles`). Each point is the
    /// whole analysis in its own folder; asked for more, it continues there.
    analysis: Option<&'static str>,
    /// A dataset command's flags, read once: each point builds its simulation from them with
    /// its own rules and files held in memory ([`Question::sources_at`]).
    dataset: Option<C::Dataset>,
}

/// The path the point's rules are held under (never read from the disk: [`Question::sources_at`]
/// holds its text); errors naming it are told as the host's rules with the point's values.
const RULES_AT: &str = "(the rules at this point).toml";

/// The seed's rules of a game as TOML: every key at the seed's value.
pub fn seed_rules(game: &str) -> Option<toml::Table> {
    (crate::games::game(game)?.seed_rules)().parse().ok()
}

/// Every number among a table's leaves, by dotted key, with whether it is whole.
pub fn numbers(t: &toml::Table) -> Vec<(String, f64, bool)> {
    fn walk(prefix: &str, t: &toml::Table, out: &mut Vec<(String, f64, bool)>) {
        for (k, v) in t {
            let key = if prefix.is_empty() {
                k.clone()
            } else {
                format!("{prefix}.{k}")
            };
            match v {
                toml::Value::Integer(i) => out.push((key, *i as f64, true)),
                toml::Value::Float(f) => out.push((key, *f, false)),
                toml::Value::Table(t) => walk(&key, t, out),
                _ => {}
            }
        }
    }
    let mut out = Vec::new();
    walk("", t, &mut out);
    out
}

/// The value at a dotted key.
pub fn get<'a>(t: &'a toml::Table, key: &str) -> Option<&'a toml::Value> {
    let mut parts = key.split('.').peekable();
    let mut table = t;
    while let Some(p) = parts.next() {
        let v = table.get(p)?;
        if parts.peek().is_none() {
            return Some(v);
        }
        table = v.as_table()?;
    }
    None
}

/// Sets the value at a dotted key, making its tables.
fn set(t: &mut toml::Table, key: &str, v: toml::Value) {
    match key.split_once('.') {
        None => {
            t.insert(key.to_string(), v);
        }
        Some((head, rest)) => {
            let e = t
                .entry(head.to_string())
                .or_insert_with(|| toml::Value::Table(Default::default()));
            if !e.is_table() {
                *e = toml::Value::Table(Default::default());
            }
            set(e.as_table_mut().expect("a table"), rest, v);
        }
    }
}

/// Overlays `over`'s leaves on `base`.
fn overlay(base: &mut toml::Table, over: &toml::Table) {
    for (k, v) in over {
        match (base.get_mut(k), v) {
            (Some(toml::Value::Table(b)), toml::Value::Table(o)) => overlay(b, o),
            _ => {
                base.insert(k.clone(), v.clone());
            }
        }
    }
}

/// A flag's value in `words` (`--flag V` or `--flag=V`) and the indices it takes.
fn flag(words: &[String], name: &str) -> Option<(String, Vec<usize>)> {
    let eq = format!("{name}=");
    words.iter().enumerate().find_map(|(i, w)| {
        if w == name {
            words.get(i + 1).map(|v| (v.clone(), vec![i, i + 1]))
        } else {
            w.strip_prefix(&eq).map(|v| (v.to_string(), vec![i]))
        }
    })
}

fn without(words: &[String], drop: &[usize]) -> Vec<String> {
    words
        .iter()
        .enumerate()
        .filter(|(i, _)| !drop.contains(i))
        .map(|(_, w)| w.clone())
        .collect()
}

impl<C: Commands> Question<C> {
    /// Reads a command (`simulate loot --matches 20000 --rules my.toml`): a dataset command of a
    /// game, its rules, and the input files `placeholders` name (path, placeholder names).
    pub fn new(command: &str, placeholder_files: &[PathBuf]) -> Result<Question<C>, Error> {
        let commands = C::default();
        let mut words =
            shlex::split(command).ok_or_else(|| format!("`{command}`: unbalanced quotes"))?;
        if words.first().is_some_and(|w| w == "skirmish") {
            words.remove(0);
        }
        // An analysis asked whole at a size: its game and the flag of its size.
        let analysis = crate::games::GAMES.iter().find_map(|g| {
            g.sized_analyses
                .iter()
                .find(|(w, _)| words.len() >= w.len() && words[..w.len()] == w[..])
                .map(|&(_, size)| (g.command, size))
        });
        if analysis.is_none()
            && (words.len() < 2 || !["simulate", "tournament"].contains(&words[0].as_str()))
        {
            return Err(Error::Input(format!(
                "`{command}`: ask a dataset command (simulate or tournament of a game: `simulate loot --matches 20000`) or an analysis with a size (`analyze rumble powers --max-battles 200000`, `analyze loot items --battles N`, `analyze minions --combats N`)"
            )));
        }
        let game = analysis.map_or(words[1].clone(), |a| a.0.to_string());
        let mut rules = seed_rules(&game).ok_or_else(|| {
            format!(
                "`{command}`: `{}` is not a game (`skirmish games` lists them)",
                words[1]
            )
        })?;
        let mut matches = None;
        for (name, takes) in RUN_FLAGS {
            while let Some((v, at)) = if *takes {
                flag(&words, name)
            } else {
                words
                    .iter()
                    .position(|w| w == name)
                    .map(|i| (String::new(), vec![i]))
            } {
                if *name == "--matches" {
                    matches =
                        Some(v.replace('_', "").parse::<u64>().map_err(|_| {
                            format!("`{command}`: --matches {v}: give a whole number")
                        })?);
                }
                words = without(&words, &at);
            }
        }
        if let Some((_, count)) = analysis {
            matches = None;
            if let Some((v, at)) = flag(&words, count) {
                matches = Some(
                    v.replace('_', "")
                        .parse::<u64>()
                        .map_err(|_| format!("`{command}`: {count} {v}: give a whole number"))?,
                );
                words = without(&words, &at);
            }
        } else if let Some((v, _)) = flag(&words, "--games") {
            matches = Some(
                v.replace('_', "")
                    .parse::<u64>()
                    .map_err(|_| format!("`{command}`: --games {v}: give a whole number"))?,
            );
        }
        let mut rules_file = None;
        if let Some((v, at)) = flag(&words, "--rules") {
            let path = PathBuf::from(&v);
            let text = crate::games::file_error::read(
                &crate::platform::sources::Sources::disk(),
                &path,
                "rules file",
            )?;
            let over: toml::Table = text
                .parse()
                .map_err(|e: toml::de::Error| format!("{}: {}", path.display(), e.message()))?;
            overlay(&mut rules, &over);
            rules_file = Some(path);
            words = without(&words, &at);
        }
        let mut files = Vec::new();
        for p in placeholder_files {
            if files.iter().any(|(q, _): &(PathBuf, String)| q == p) {
                continue;
            }
            let named = p.to_string_lossy();
            if !words
                .iter()
                .any(|w| *w == named || w.ends_with(&format!("={named}")))
            {
                return Err(Error::Input(format!(
                    "{}: the command `{command}` does not name this file; name it there (e.g. --power-file {})",
                    p.display(),
                    p.display()
                )));
            }
            let text = crate::games::file_error::read(
                &crate::platform::sources::Sources::disk(),
                p,
                "input file",
            )?;
            files.push((p.clone(), text));
        }
        words.extend(["--rules".to_string(), RULES_AT.to_string()]);
        let dataset = match analysis {
            Some(_) => None,
            None => {
                let w: Vec<&str> = words.iter().map(String::as_str).collect();
                Some(
                    commands
                        .dataset(&w, "the question")
                        .map_err(|e| format!("`{command}`: {e}"))?,
                )
            }
        };
        Ok(Question {
            commands,
            command: command.to_string(),
            words,
            game,
            rules,
            rules_file,
            files,
            named: Vec::new(),
            matches,
            whole: None,
            analysis: analysis.map(|a| a.1),
            dataset,
        })
    }

    /// Every file the question reads, for its identity: the rules file, the files with
    /// placeholders, and every other word of the command that names a file (a folder: its
    /// files, in name order).
    pub fn inputs(&self) -> Vec<PathBuf> {
        fn walk(p: &Path, depth: u32, out: &mut Vec<PathBuf>) {
            if p.is_file() {
                out.push(p.to_path_buf());
            } else if depth > 0
                && let Ok(d) = std::fs::read_dir(p)
            {
                let mut entries: Vec<PathBuf> =
                    d.filter_map(|e| e.ok().map(|e| e.path())).collect();
                entries.sort();
                for e in entries {
                    walk(&e, depth - 1, out);
                }
            }
        }
        let mut out: Vec<PathBuf> = self.rules_file.iter().cloned().collect();
        out.extend(self.files.iter().map(|(p, _)| p.clone()));
        for w in self.words.iter().filter(|w| *w != RULES_AT) {
            let p = Path::new(w.split_once('=').map_or(w.as_str(), |(_, v)| v));
            if p.exists() && !out.iter().any(|q| q == p) {
                walk(p, 3, &mut out);
            }
        }
        out
    }

    /// Checks the command at `point` (its flags, its files filled in) and learns its shape: a
    /// tournament played whole (Clan Melee) plays its own count and chunks.
    pub fn prepare(&mut self, point: &[f64]) -> Result<(), Error> {
        struct Shape;
        impl crate::platform::command::WithSimulation for Shape {
            type Out = Option<Plan>;
            fn with<S: Simulation>(self, _: &S, whole: Option<Plan>) -> Result<Self::Out, Error> {
                Ok(whole)
            }
        }
        let Some(dataset) = &self.dataset else {
            // Its flags checked as the command line reads them; its inputs when it runs.
            return self.map_err(point, self.commands.reads(&self.words));
        };
        self.whole = self.map_err(point, dataset.visit(&self.sources_at(point), Shape))?;
        if let Some(p) = self.whole {
            self.matches = Some(p.matches);
        }
        Ok(())
    }

    /// Names another coordinate (checked: a rules key must be a number of the game's rules, a
    /// placeholder must be written in its file); its value in the inputs, when it has one.
    pub fn name(&mut self, n: Named) -> Result<Option<(f64, bool)>, Error> {
        let at = match &n {
            Named::Rules(k) => match get(&self.rules, k) {
                Some(toml::Value::Integer(i)) => Some((*i as f64, true)),
                Some(toml::Value::Float(f)) => Some((*f, false)),
                Some(v) => {
                    return Err(Error::Input(format!(
                        "`{k}` is {} in {}'s rules, not a number: tune a number",
                        v.type_str(),
                        self.game
                    )));
                }
                None => {
                    let keys: Vec<String> = numbers(&self.rules).into_iter().map(|x| x.0).collect();
                    return Err(Error::Input(format!(
                        "`{k}` is not a number of {}'s rules{}",
                        self.game,
                        crate::names::closest_name(k, keys.iter().map(String::as_str))
                            .map_or(String::new(), |c| format!(" (did you mean `{c}`?)"))
                    )));
                }
            },
            Named::Placeholder { file, name } => {
                let (p, text) = &self.files[*file];
                if !text.contains(&format!("{{{{{name}}}}}")) {
                    return Err(Error::Input(format!(
                        "{}: holds no `{{{{{name}}}}}`; write it where the number goes",
                        p.display()
                    )));
                }
                None
            }
        };
        self.named.push(n);
        Ok(at)
    }

    /// The index of a placeholder file (added when new; it must be one the command names).
    pub fn file_index(&self, p: &Path) -> Option<usize> {
        self.files.iter().position(|(q, _)| q == p)
    }

    /// The rules at `point` as a TOML table (the host's file with the tuned keys set).
    pub fn rules_at(&self, point: &[f64]) -> toml::Table {
        let mut t = self.rules.clone();
        for (n, &x) in self.named.iter().zip(point) {
            if let Named::Rules(k) = n {
                let v = match get(&t, k) {
                    Some(toml::Value::Integer(_)) => toml::Value::Integer(x.round() as i64),
                    _ => toml::Value::Float(x),
                };
                set(&mut t, k, v);
            }
        }
        t
    }

    /// Each placeholder file's text at `point`.
    pub fn files_at(&self, point: &[f64]) -> Vec<(PathBuf, String)> {
        self.files
            .iter()
            .enumerate()
            .map(|(i, (p, text))| {
                let mut t = text.clone();
                for (n, &x) in self.named.iter().zip(point) {
                    if let Named::Placeholder { file, name } = n
                        && *file == i
                    {
                        t = t.replace(
                            &format!("{{{{{name}}}}}"),
                            &crate::platform::balance::show(x, x.fract() == 0.0),
                        );
                    }
                }
                (p.clone(), t)
            })
            .collect()
    }

    /// What the command reads at `point`: the disk, with the point's rules held under
    /// [`RULES_AT`] (which the command's words name) and each filled-in file held under the
    /// host's own path (so its `include`s and its errors are the host's file's).
    pub fn sources_at(&self, point: &[f64]) -> crate::platform::sources::Sources {
        let rules = toml::to_string(&self.rules_at(point)).expect("a TOML table writes");
        let mut src = crate::platform::sources::Sources::disk().holding(Path::new(RULES_AT), rules);
        for (p, text) in self.files_at(point) {
            src = src.holding(&p, text);
        }
        src
    }

    /// An error about the point's rules told as the host's: the tuned values (their lines are a
    /// generated text's, not the host's). A filled-in file's errors name the host's file
    /// already (its lines are the host's: a placeholder fills one line).
    fn map_err<T>(&self, point: &[f64], r: Result<T, Error>) -> Result<T, Error> {
        r.map_err(|e| e.map_message(|e| self.told_as_the_hosts(point, e)))
    }

    /// [`Self::map_err`]'s message.
    fn told_as_the_hosts(&self, point: &[f64], e: String) -> String {
        {
            let mut e = e;
            while let Some(at) = e.find(RULES_AT) {
                let end = at + RULES_AT.len();
                {
                    // `RULES_AT:L:C` -> `the rules with KEY = V`.
                    let mut stop = end;
                    for _ in 0..2 {
                        let rest = &e[stop..];
                        let digits = rest
                            .strip_prefix(':')
                            .map_or(0, |r| r.chars().take_while(char::is_ascii_digit).count());
                        if digits > 0 {
                            stop += 1 + digits;
                        }
                    }
                    // The values that differ from the inputs' own.
                    let at_point: Vec<String> = self
                        .named
                        .iter()
                        .zip(point)
                        .filter(|(n, x)| match n {
                            Named::Rules(k) => match get(&self.rules, k) {
                                Some(toml::Value::Integer(i)) => *i as f64 != **x,
                                Some(toml::Value::Float(f)) => f != *x,
                                _ => true,
                            },
                            Named::Placeholder { .. } => false,
                        })
                        .map(|(n, x)| {
                            format!(
                                "{} = {}",
                                n.describe(self),
                                crate::platform::balance::show(*x, x.fract() == 0.0)
                            )
                        })
                        .collect();
                    let host = match (&self.rules_file, at_point.is_empty()) {
                        (Some(p), true) => p.display().to_string(),
                        (Some(p), false) => format!("{} with {}", p.display(), at_point.join(", ")),
                        (None, true) => "the seed's rules".into(),
                        (None, false) => format!("the rules with {}", at_point.join(", ")),
                    };
                    e.replace_range(at..stop, &host);
                }
            }
            format!("`{}`: {e}", self.command)
        }
    }

    /// What the command comes to at `point` on `matches` of master seed `seed`: a dataset
    /// command's tally of those matches, or an analysis's answer at its first `matches.end`
    /// (run in the point's own folder, so asked again for more it continues its run).
    pub fn sums(&self, point: &[f64], seed: u64, matches: Range<u64>) -> Result<Sums, Error> {
        self.sums_told(point, seed, matches, &|_| {})
    }

    /// [`Self::sums`], telling `played` each time matches are done (a progress line that moves
    /// within a long point, issue 81).
    pub fn sums_told(
        &self,
        point: &[f64],
        seed: u64,
        matches: Range<u64>,
        played: &(dyn Fn(u64) + Sync),
    ) -> Result<Sums, Error> {
        let Some(count) = self.analysis else {
            return self
                .play_told(point, seed, matches, played)
                .map(Sums::Tally);
        };
        let len = matches.end - matches.start;
        let found = self.findings(count, point, seed, matches.end)?;
        played(len);
        Ok(Sums::Answer(found.answer.sections))
    }

    /// An analysis's answer at `point` on seed `seed` and its first `size` (its size flag's
    /// unit), with what pairs it with another point's (its groups' replicates): asked in memory,
    /// its rules and filled-in files held, no folder claimed, read or written.
    pub fn answer(
        &self,
        point: &[f64],
        seed: u64,
        size: u64,
    ) -> Result<
        (
            crate::platform::answer::Answer,
            Option<crate::platform::pairing::Replicates>,
        ),
        Error,
    > {
        let count = self.analysis.ok_or_else(|| {
            format!(
                "`{}`: a dataset command answers with its tally",
                self.command
            )
        })?;
        let f = self.findings(count, point, seed, size)?;
        Ok((f.answer, f.replicates))
    }

    /// The dataset command's flags (a question about an analysis plays none).
    fn dataset(&self) -> Result<&C::Dataset, Error> {
        self.dataset.as_ref().ok_or_else(|| {
            Error::Input(format!(
                "`{}`: an analysis answers, it plays no tally",
                self.command
            ))
        })
    }

    fn findings(
        &self,
        count: &str,
        point: &[f64],
        seed: u64,
        size: u64,
    ) -> Result<crate::platform::command::Findings, Error> {
        let mut words = self.words.clone();
        words.extend([
            count.to_string(),
            size.to_string(),
            "--seed".into(),
            seed.to_string(),
            "--threads".into(),
            rayon::current_num_threads().to_string(),
            "--quiet".into(),
        ]);
        // The point's answer records the command line of the process asking (the balance's).
        let ctx = crate::platform::context::Context::of_process()
            .reading(self.sources_at(point))
            .in_memory();
        let run = self.commands.findings(&ctx, words);
        self.map_err(point, run)
    }

    /// The command's tally at `point` on `matches` of master seed `seed`, played on the
    /// current rayon pool (the same sums whatever its threads).
    pub fn play(&self, point: &[f64], seed: u64, matches: Range<u64>) -> Result<Tally, Error> {
        self.play_told(point, seed, matches, &|_| {})
    }

    /// [`Self::play`], telling `played` the matches of each part as it is done.
    fn play_told(
        &self,
        point: &[f64],
        seed: u64,
        matches: Range<u64>,
        played: &(dyn Fn(u64) + Sync),
    ) -> Result<Tally, Error> {
        struct Play<'p> {
            seed: u64,
            matches: Range<u64>,
            played: &'p (dyn Fn(u64) + Sync),
        }
        impl crate::platform::command::WithSimulation for Play<'_> {
            type Out = Tally;
            fn with<S: Simulation>(self, sim: &S, _whole: Option<Plan>) -> Result<Tally, Error> {
                let len = self.matches.end - self.matches.start;
                // Any split gives the same sums (a tournament played whole included: its
                // melees are keyed by index), so parts are sized for the threads.
                let size = (len / (4 * rayon::current_num_threads() as u64)).max(1);
                let starts: Vec<u64> = self.matches.clone().step_by(size as usize).collect();
                let end = self.matches.end;
                Ok(starts
                    .into_par_iter()
                    .map_init(
                        || sim.worker(),
                        |w, s| {
                            let part = s..(s + size).min(end);
                            let n = part.end - part.start;
                            let t = sim.play(w, self.seed, part, false).1;
                            (self.played)(n);
                            t
                        },
                    )
                    .reduce(Tally::default, |mut a, b| {
                        a.merge(&b);
                        a
                    }))
            }
        }
        let play = Play {
            seed,
            matches,
            played,
        };
        self.map_err(point, self.dataset()?.visit(&self.sources_at(point), play))
    }

    /// The command's tally at `point` for each `(master seed, matches)` job, the simulation built
    /// once and the jobs played in parallel on the current rayon pool (calibration's many small
    /// runs and their parts).
    pub fn play_each(
        &self,
        point: &[f64],
        jobs: Vec<(u64, Range<u64>)>,
    ) -> Result<Vec<Tally>, Error> {
        struct Each {
            jobs: Vec<(u64, Range<u64>)>,
        }
        impl crate::platform::command::WithSimulation for Each {
            type Out = Vec<Tally>;
            fn with<S: Simulation>(
                self,
                sim: &S,
                _whole: Option<Plan>,
            ) -> Result<Vec<Tally>, Error> {
                Ok(self
                    .jobs
                    .into_par_iter()
                    .map_init(
                        || sim.worker(),
                        |w, (seed, r)| sim.play(w, seed, r, false).1,
                    )
                    .collect())
            }
        }
        let each = Each { jobs };
        self.map_err(point, self.dataset()?.visit(&self.sources_at(point), each))
    }

    /// What a point plays: `matches`, or an analysis's `battles` or `combats` (its size flag's).
    pub fn unit(&self) -> &'static str {
        match self.analysis {
            Some("--combats") => "combats",
            Some(_) => "battles",
            None => "matches",
        }
    }

    /// The flag of an analysis's size (`--max-battles`); `None` for a dataset command.
    pub fn size_flag(&self) -> Option<&'static str> {
        self.analysis
    }

    /// Whether the command is a tournament played whole (its match count is its own: a point
    /// cannot play more).
    pub fn whole(&self) -> bool {
        self.whole.is_some()
    }

    /// The rules file as a host would keep it: only the keys that differ from the seed's.
    pub fn rules_text(&self, point: &[f64]) -> String {
        let seed = seed_rules(&self.game).unwrap_or_default();
        let at = self.rules_at(point);
        let mut out = toml::Table::new();
        fn diff(prefix: &str, a: &toml::Table, b: &toml::Table, out: &mut toml::Table) {
            for (k, v) in b {
                let key = if prefix.is_empty() {
                    k.clone()
                } else {
                    format!("{prefix}.{k}")
                };
                match (a.get(k), v) {
                    (Some(toml::Value::Table(x)), toml::Value::Table(y)) => diff(&key, x, y, out),
                    (Some(x), y) if x == y => {}
                    _ => set(out, &key, v.clone()),
                }
            }
        }
        diff("", &seed, &at, &mut out);
        toml::to_string(&out).unwrap_or_default()
    }

    /// The names of the coordinates.
    pub fn names(&self) -> Vec<String> {
        self.named.iter().map(|n| n.describe(self)).collect()
    }
}

/// A tuned copy's `include`s, which name files beside the host's file, made relative to the
/// folder the copy is written in (`OUT/tuned/`), so that it loads from there (issue 80: a tuned
/// file that included another did not). Relative, not absolute: the folder's bytes name no
/// machine's paths.
pub fn includes_for(text: &str, host: &Path, folder: &Path) -> String {
    with_includes(text, host, |target| relative(target, folder))
}

/// `text` with each `include` it names (a path beside `host`) replaced by what `to` makes of
/// the file it names (`None`: kept as written).
fn with_includes(text: &str, host: &Path, to: impl Fn(&Path) -> Option<PathBuf>) -> String {
    let dir = match host.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let Ok(doc) = text.parse::<toml::Table>() else {
        return text.to_string();
    };
    let Some(toml::Value::Array(list)) = doc.get("include") else {
        return text.to_string();
    };
    let mut out = text.to_string();
    for inc in list.iter().filter_map(|v| v.as_str()) {
        let Some(path) = to(&dir.join(inc)) else {
            continue;
        };
        let quoted = toml::Value::String(path.display().to_string()).to_string();
        out = out
            .replace(&format!("\"{inc}\""), &quoted)
            .replace(&format!("'{inc}'"), &quoted);
    }
    out
}

/// `to` as a path from the folder `from` (both made absolute against the working folder and
/// their `.` and `..` resolved by name).
fn relative(to: &Path, from: &Path) -> Option<PathBuf> {
    use std::path::Component;
    let norm = |p: &Path| -> Option<Vec<std::ffi::OsString>> {
        let mut parts: Vec<std::ffi::OsString> = Vec::new();
        for c in std::path::absolute(p).ok()?.components() {
            match c {
                Component::ParentDir => {
                    parts.pop();
                }
                Component::Normal(x) => parts.push(x.to_os_string()),
                _ => {}
            }
        }
        Some(parts)
    };
    let (t, f) = (norm(to)?, norm(from)?);
    let common = t.iter().zip(&f).take_while(|(a, b)| a == b).count();
    let mut out = PathBuf::new();
    for _ in common..f.len() {
        out.push("..");
    }
    for x in &t[common..] {
        out.push(x);
    }
    Some(out)
}

/// The numbers of a game's rules by key (what `sensitivity --keys all` moves).
pub fn rules_numbers(game: &str) -> BTreeMap<String, (f64, bool)> {
    seed_rules(game)
        .map(|t| {
            numbers(&t)
                .into_iter()
                .map(|(k, v, i)| (k, (v, i)))
                .collect()
        })
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    /// Issue 80: a tuned copy of a file that includes another names the included file from the
    /// folder it is written in.
    #[test]
    fn a_tuned_file_includes_what_its_host_included_from_its_own_folder() {
        let text = "include = [\"../powers/sample.toml\"]\n[[power]]\nname = \"T\"\n";
        let out = super::includes_for(
            text,
            Path::new("experiments/balance/thorns.toml"),
            Path::new("runs/balance/tuned"),
        );
        assert!(
            out.starts_with("include = [\"../../../experiments/powers/sample.toml\"]"),
            "{out}"
        );
        let same = super::includes_for(text, Path::new("a/b.toml"), Path::new("a/x/../c"));
        assert!(
            same.starts_with("include = [\"../../powers/sample.toml\"]"),
            "{same}"
        );
        assert_eq!(
            super::includes_for("x = 1\n", Path::new("a.toml"), Path::new("t")),
            "x = 1\n"
        );
    }

    /// Issue 78 (and 79, whose point files had names too long for the file system): a point
    /// is asked in memory. Its filled-in file is held under the host's own path (its includes
    /// and errors are the host's), its rules under a name no file has, and nothing is written.
    #[test]
    fn a_point_is_asked_in_memory_under_the_hosts_own_paths() {
        let host = Path::new("experiments/balance/thorns-power.toml");
        let mut q = super::Question::<crate::cli::Grammar>::new(
            "simulate rumble --matches 10 --powers 1 --power-file experiments/balance/thorns-power.toml",
            &[host.to_path_buf()],
        )
        .unwrap();
        q.name(super::Named::Placeholder {
            file: 0,
            name: "damage".into(),
        })
        .unwrap();
        q.name(super::Named::Rules("attack_cost".into())).unwrap();
        let src = q.sources_at(&[12.0, 7.0]);
        let filled = src.read(host).unwrap();
        assert!(filled.contains("effects = [{ damage = 12 }]"), "{filled}");
        assert!(
            std::fs::read_to_string(host)
                .unwrap()
                .contains("{{damage}}")
        );
        let rules = src.read(Path::new(super::RULES_AT)).unwrap();
        assert!(rules.contains("attack_cost = 7"), "{rules}");
        assert!(!Path::new(super::RULES_AT).exists());
        assert!(q.play(&[12.0, 7.0], 1, 0..10).unwrap().matches == 10);
    }
}

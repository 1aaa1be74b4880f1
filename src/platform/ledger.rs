//! A ledger of an analysis's integer sums, by cell (issue 51): what lets a fixed-budget analysis
//! (`analyze loot items`, `analyze minions`) be continued with more matches, and split across
//! machines, and still end byte for byte as one long run on one machine.
//!
//! An analysis asks for each of its measurements through [`Ledger::cell`]: a cell is a key, the
//! number of matches it sums over (`0..n`, each match seeded by its own index alone), and a
//! function that plays a range of them into integer sums. Integer sums merge exactly in any order,
//! so the sums over `0..a` kept from an earlier run plus those over `a..n` played now are the
//! sums over `0..n`; and the cells one shard played, merged with the others', are the whole
//! study's. Cells are dealt to shards by the order the analysis asks for them, which is fixed.

use crate::error::Error;
use std::collections::BTreeMap;
use std::ops::Range;

use serde::{Deserialize, Serialize};

/// Integer sums that merge exactly (a [`Mean`](super::tally::Mean), a vector of them...),
/// stored as a flat list of integers.
pub trait Sums: Default {
    fn to_ints(&self) -> Vec<i64>;
    /// The sums back from their integers; `None` when they are not such a list (an edited or
    /// damaged file).
    fn from_ints(v: &[i64]) -> Option<Self>;
    fn merge(&mut self, other: &Self);
}

impl Sums for super::tally::Mean {
    /// `[n, sum, sum_sq]`, then the sums by match when some match added several values
    /// (issue 63), as long as each fits (a sum that does not is refused when read back).
    fn to_ints(&self) -> Vec<i64> {
        let mut v = vec![self.n as i64, self.sum, self.sum_sq];
        if let Some(b) = self.by_match {
            let fit = |x: i128| i64::try_from(x).unwrap_or(i64::MAX);
            v.extend([b.matches as i64, fit(b.yy), fit(b.yn), fit(b.nn)]);
        }
        v
    }
    fn from_ints(v: &[i64]) -> Option<Self> {
        let &[n, sum, sum_sq] = v.first_chunk::<3>()?;
        let rest = &v[3..];
        let mut m = super::tally::Mean::new(u64::try_from(n).ok()?, sum, sum_sq);
        match rest {
            [] => {}
            &[matches, yy, yn, nn] if yy < i64::MAX && yn < i64::MAX && nn < i64::MAX => {
                m.by_match = Some(super::tally::ByMatch {
                    matches: u64::try_from(matches).ok()?,
                    yy: yy as i128,
                    yn: yn as i128,
                    nn: nn as i128,
                });
            }
            _ => return None,
        }
        Some(m)
    }
    fn merge(&mut self, other: &Self) {
        super::tally::Mean::merge(self, other);
    }
}

impl Sums for crate::stats::Sums {
    fn to_ints(&self) -> Vec<i64> {
        vec![self.n as i64, self.s1, self.s2]
    }
    fn from_ints(v: &[i64]) -> Option<Self> {
        let &[n, s1, s2] = v else { return None };
        Some(crate::stats::Sums {
            n: u64::try_from(n).ok()?,
            s1,
            s2,
        })
    }
    fn merge(&mut self, other: &Self) {
        crate::stats::Sums::merge(self, other);
    }
}

/// A list of sums of one kind, all the same length (one per arm, per policy...).
impl<S: Sums> Sums for Vec<S> {
    fn to_ints(&self) -> Vec<i64> {
        let mut out = vec![self.len() as i64];
        for s in self {
            let v = s.to_ints();
            out.push(v.len() as i64);
            out.extend(v);
        }
        out
    }
    fn from_ints(v: &[i64]) -> Option<Self> {
        let (&len, mut rest) = v.split_first()?;
        let mut out = Vec::new();
        for _ in 0..len {
            let (&w, tail) = rest.split_first()?;
            let w = usize::try_from(w).ok().filter(|&w| w <= tail.len())?;
            out.push(S::from_ints(&tail[..w])?);
            rest = &tail[w..];
        }
        rest.is_empty().then_some(out)
    }
    fn merge(&mut self, other: &Self) {
        if self.is_empty() {
            *self = other
                .iter()
                .map(|s| S::from_ints(&s.to_ints()).expect("sums round-trip"))
                .collect();
            return;
        }
        for (a, b) in self.iter_mut().zip(other) {
            a.merge(b);
        }
    }
}

/// Plain integer counters (a count of battles played, cross products), added.
impl Sums for Vec<i64> {
    fn to_ints(&self) -> Vec<i64> {
        self.clone()
    }
    fn from_ints(v: &[i64]) -> Option<Self> {
        Some(v.to_vec())
    }
    fn merge(&mut self, other: &Self) {
        if self.is_empty() {
            *self = other.clone();
            return;
        }
        for (a, b) in self.iter_mut().zip(other) {
            *a += b;
        }
    }
}

impl<A: Sums, B: Sums> Sums for (A, B) {
    fn to_ints(&self) -> Vec<i64> {
        let a = self.0.to_ints();
        let mut out = vec![a.len() as i64];
        out.extend(a);
        out.extend(self.1.to_ints());
        out
    }
    fn from_ints(v: &[i64]) -> Option<Self> {
        let (&w, rest) = v.split_first()?;
        let w = usize::try_from(w).ok().filter(|&w| w <= rest.len())?;
        Some((A::from_ints(&rest[..w])?, B::from_ints(&rest[w..])?))
    }
    fn merge(&mut self, other: &Self) {
        self.0.merge(&other.0);
        self.1.merge(&other.1);
    }
}

/// One cell as kept: the matches summed (`0..n`) and the sums.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    pub n: u64,
    pub sums: Vec<i64>,
    /// The same sums split into [`GROUPS`] groups of its matches (issue 63: what pairs a
    /// what-if of the analysis, by [`Ledger::leave_out`]), by [`block`]. Absent from cells kept
    /// before they were split.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub groups: Vec<Vec<i64>>,
}

/// Groups of matches a ledger's cells are split into: a jackknife over them pairs two runs
/// of one seed group by group.
pub const GROUPS: usize = 20;

/// `play` of matches `range` block by block ([`block`]), each block's sums merged into its
/// group's; returns the whole range's. Blocks are played side by side (a small one alone would
/// keep a thread idle) and merged in their order: integer sums, the same whatever the threads.
fn play_grouped<S: Sums + Send>(
    range: Range<u64>,
    play: &(impl Fn(Range<u64>) -> S + Sync),
    groups: &mut [S],
) -> S {
    use rayon::prelude::*;
    let mut blocks = Vec::new();
    let mut at = range.start;
    while at < range.end {
        let (end, g) = block(at);
        blocks.push((at..end.min(range.end), g));
        at = end.min(range.end);
    }
    let parts: Vec<(S, usize)> = blocks.into_par_iter().map(|(r, g)| (play(r), g)).collect();
    let mut whole = S::default();
    for (part, g) in &parts {
        groups[*g].merge(part);
        whole.merge(part);
    }
    whole
}

/// The block of matches `at` starts or falls in, as its end and its group. Blocks lie where
/// they lie whatever a cell's count (so a continued cell groups its matches as one long run
/// does): levels of `4 x GROUPS` blocks, the j-th level's of 2^j matches, each group taking
/// every `GROUPS`-th block. Any count's groups are within a block of each other (a quarter of
/// a group at most), and a cell of n matches is played in about `4 x GROUPS x log2(n / 80)`
/// blocks.
pub fn block(at: u64) -> (u64, usize) {
    let per = 4 * GROUPS as u64;
    // Level j starts at per x (2^j - 1).
    let j = (at / per + 1).ilog2();
    let start = per * ((1u64 << j) - 1);
    let size = 1u64 << j;
    let k = (at - start) / size;
    (start + (k + 1) * size, (k % GROUPS as u64) as usize)
}

/// The cells of an analysis, and which of them this run plays.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ledger {
    pub cells: BTreeMap<String, Entry>,
    /// This run's shard `(k, of)` (0-based): it plays only the cells dealt to it.
    #[serde(skip)]
    shard: Option<(u64, u64)>,
    /// Cells asked for so far (the deal's order).
    #[serde(skip)]
    asked: u64,
    /// Cells this run skipped (another shard's): the findings are not whole.
    #[serde(skip)]
    skipped: u64,
    /// Matches this run played.
    #[serde(skip)]
    played: u64,
    /// `verify`'s replay of the kept cells, when this run serves one (issue 62).
    #[serde(skip)]
    audit: Option<Box<Audit>>,
    /// Serving every cell without group `g` (a jackknife's replicate), playing nothing.
    #[serde(skip)]
    left_out: Option<usize>,
    /// Whether a cell served without its group had no groups (kept before they were split).
    #[serde(skip)]
    ungrouped: bool,
}

/// `skirmish verify` on an analysis folder (issue 62): kept cells are played again from their
/// seeds and compared with what the folder keeps. Without a time limit every cell is; with one,
/// each cell is replayed with the chance that the time left allows at the rate measured so far,
/// drawn from a per-process random key, so a forger cannot know which cells will be looked at.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Audit {
    budget: Option<std::time::Duration>,
    start: std::time::Instant,
    /// Matches of kept cells not yet asked for.
    left: u64,
    /// Cells asked for, replayed, and matches replayed.
    cells: u64,
    replayed: u64,
    matches: u64,
    /// Seconds spent replaying.
    spent: std::time::Duration,
    problems: Vec<String>,
}

impl Audit {
    /// Whether to replay the cell `key` of `n` matches.
    fn chooses(&self, key: &str, n: u64) -> bool {
        let Some(budget) = self.budget else {
            return true;
        };
        let left = budget.as_secs_f64() - self.start.elapsed().as_secs_f64();
        if left <= 0.0 {
            return false;
        }
        if self.matches == 0 {
            return true; // the first cell measures the rate
        }
        let need = self.spent.as_secs_f64() / self.matches as f64 * (self.left + n) as f64;
        let chance = (left / need.max(1e-9)).min(1.0);
        // `RandomState` keys are drawn at random per process.
        let mut h =
            std::hash::BuildHasher::build_hasher(&std::collections::hash_map::RandomState::new());
        std::hash::Hash::hash(key, &mut h);
        let draw = std::hash::Hasher::finish(&h) as f64 / u64::MAX as f64;
        draw < chance
    }
}

impl Ledger {
    /// A ledger of `cells` kept from earlier runs (empty for a fresh one), for shard `shard`
    /// (`(k, of)`, 0-based) or the whole analysis.
    pub fn new(cells: BTreeMap<String, Entry>, shard: Option<(u64, u64)>) -> Ledger {
        Ledger {
            cells,
            shard,
            ..Ledger::default()
        }
    }

    /// The sums of cell `key` over matches `0..n`: those kept, and `play(range)` of the ones not
    /// yet summed. A cell dealt to another shard is not played (its kept sums, or none). A cell
    /// kept over more than `n` matches is an error (a smaller count than a finished run's).
    pub fn cell<S: Sums + Send>(
        &mut self,
        key: &str,
        n: u64,
        play: impl Fn(Range<u64>) -> S + Sync,
    ) -> Result<S, Error> {
        let ordinal = self.asked;
        self.asked += 1;
        if let Some(g) = self.left_out {
            return Ok(self.without(key, n, g));
        }
        let held = self.cells.get(key).cloned().unwrap_or_default();
        if held.n > n {
            return Err(Error::Input(format!(
                "`{key}` already sums {} matches, more than the {n} asked for now: ask for at least as many (a finished run is never shortened)",
                held.n
            )));
        }
        let damaged = || {
            Error::Input(format!(
                "{STATE}: the sums of `{key}` are not as this analysis writes them (an edited or damaged file); remove the folder's {STATE} and {SHARDS}/ to start over"
            ))
        };
        let mut sums = if held.n > 0 {
            S::from_ints(&held.sums).ok_or_else(damaged)?
        } else {
            S::default()
        };
        let mine = self.shard.is_none_or(|(k, of)| ordinal % of == k);
        if let Some(a) = &mut self.audit {
            a.cells += 1;
            a.left = a.left.saturating_sub(held.n);
            if held.n < n {
                a.problems.push(format!(
                    "`{key}`: {} of its {n} matches summed (the run was not finished)",
                    held.n
                ));
            } else if a.chooses(key, n) {
                let t = std::time::Instant::now();
                // The groups are saved sums too: replayed and compared with the whole.
                let (fresh, groups) = if held.groups.is_empty() {
                    (play(0..n).to_ints(), Vec::new())
                } else {
                    let mut g: Vec<S> = (0..GROUPS).map(|_| S::default()).collect();
                    let whole = play_grouped(0..n, &play, &mut g);
                    (whole.to_ints(), g.iter().map(Sums::to_ints).collect())
                };
                if groups != held.groups {
                    a.problems.push(format!(
                        "`{key}`: its {GROUPS} groups are not what its matches give"
                    ));
                }
                a.spent += t.elapsed();
                a.replayed += 1;
                a.matches = a.matches.saturating_add(n);
                if fresh != held.sums {
                    let at = fresh.iter().zip(&held.sums).position(|(x, y)| x != y);
                    a.problems.push(match at {
                        Some(i) => format!(
                            "`{key}`: sum {i} is {} in the folder, {} when its {n} matches are played",
                            held.sums[i], fresh[i]
                        ),
                        None => format!("`{key}`: its sums have another length than its matches give"),
                    });
                }
            }
            return Ok(sums);
        }
        if held.n == n {
            return Ok(sums);
        }
        if !mine {
            self.skipped += 1;
            return Ok(sums);
        }
        // New matches are played block by block into their groups; a cell kept without groups
        // goes on without them.
        let mut groups: Vec<S> = if held.n == 0 {
            (0..GROUPS).map(|_| S::default()).collect()
        } else if held.groups.is_empty() {
            Vec::new()
        } else {
            let kept: Option<Vec<S>> = held.groups.iter().map(|g| S::from_ints(g)).collect();
            kept.filter(|k| k.len() == GROUPS).ok_or_else(damaged)?
        };
        let new = if groups.len() == GROUPS {
            play_grouped(held.n..n, &play, &mut groups)
        } else {
            groups.clear();
            play(held.n..n)
        };
        if held.n > 0 {
            // Sums of another shape (a file edited by hand) would not merge.
            if sums.to_ints().len() != new.to_ints().len() {
                return Err(damaged());
            }
            sums.merge(&new);
        } else {
            sums = new;
        }
        self.played += n - held.n;
        self.cells.insert(
            key.to_string(),
            Entry {
                n,
                sums: sums.to_ints(),
                groups: groups.iter().map(Sums::to_ints).collect(),
            },
        );
        Ok(sums)
    }

    /// Cell `key`'s sums over its `n` matches less group `g`'s: the merge of the other groups.
    fn without<S: Sums>(&mut self, key: &str, n: u64, g: usize) -> S {
        let mut out = S::default();
        let held = self.cells.get(key);
        let groups = held.filter(|e| e.n == n && e.groups.len() == GROUPS);
        let Some(e) = groups else {
            self.ungrouped = true;
            return held.and_then(|e| S::from_ints(&e.sums)).unwrap_or_default();
        };
        for (h, ints) in e.groups.iter().enumerate() {
            match S::from_ints(ints) {
                Some(s) if h != g => out.merge(&s),
                Some(_) => {}
                None => self.ungrouped = true,
            }
        }
        out
    }

    /// Serves every cell without group `g` from now on (`None`: as kept), for a jackknife's
    /// replicate of the analysis's findings; nothing is played meanwhile. Says whether every
    /// cell served since the last call had its groups.
    pub fn leave_out(&mut self, g: Option<usize>) -> bool {
        self.left_out = g;
        !std::mem::take(&mut self.ungrouped)
    }

    /// Whether every cell asked for is summed in full (no shard's cells missing).
    pub fn whole(&self) -> bool {
        self.skipped == 0
    }

    /// Matches played by this run (not those kept).
    pub fn played(&self) -> u64 {
        self.played
    }

    /// Makes this ledger serve `verify`'s replay: its kept cells are played again (every one,
    /// or within `budget`) and compared, never merged; nothing new is played.
    pub fn audit(&mut self, budget: Option<std::time::Duration>) {
        self.audit = Some(Box::new(Audit {
            budget,
            start: std::time::Instant::now(),
            left: self
                .cells
                .values()
                .map(|e| e.n)
                .fold(0, u64::saturating_add),
            cells: 0,
            replayed: 0,
            matches: 0,
            spent: std::time::Duration::ZERO,
            problems: Vec::new(),
        }));
    }

    /// What the replay found: how many cells it played again and whether each gave the sums the
    /// folder keeps (an `Err` names those that did not); `None` when not replaying.
    pub fn audited(&self) -> Option<Result<String, Error>> {
        let a = self.audit.as_ref()?;
        let kept = self.cells.len();
        let said = format!(
            "replayed {} of the {kept} cells kept ({} matches, in {:.1} s{})",
            a.replayed,
            super::tally::thousands(a.matches),
            a.spent.as_secs_f64(),
            if (a.replayed as usize) < kept {
                ", chosen at random within the time allowed; --replay-all replays every cell"
            } else {
                ""
            }
        );
        Some(if a.problems.is_empty() {
            Ok(format!("{said}: each one's sums are what its matches give"))
        } else {
            Err(Error::Input(format!(
                "{said}; {} not what their matches give (run the analysis again into a new --out): {}",
                match a.problems.len() {
                    1 => "1 cell is".to_string(),
                    n => format!("{n} cells are"),
                },
                a.problems.join("; ")
            )))
        })
    }

    /// Adds another ledger's cells (another shard's): each cell from the one that summed more.
    pub fn absorb(&mut self, other: BTreeMap<String, Entry>) {
        for (k, e) in other {
            match self.cells.get(&k) {
                Some(mine) if mine.n >= e.n => {}
                _ => {
                    self.cells.insert(k, e);
                }
            }
        }
    }
}

/// Where an analysis keeps its cells to be continued: beside its tables.
pub const STATE: &str = "ledger.json";
/// Where each shard of an analysis leaves its cells, until a run without `--shard` finishes it.
pub use super::dataset::SHARDS;

/// A ledger as stored: what analysis it belongs to (every setting but the counts, the seed, the
/// version, every input's digest) and its cells.
#[derive(Serialize, Deserialize)]
struct Stored {
    identity: serde_json::Value,
    cells: BTreeMap<String, Entry>,
}

/// The cells an earlier run of the same analysis left in `out` (its `ledger.json` and every
/// shard's file whose identity is `identity`); none for another analysis's folder, which is
/// replaced as any earlier output is. A file edited since it was written (its seal broken) is
/// refused, naming it (issue 62: a cell's count lowered by one was accepted and published).
pub fn kept(
    out: &std::path::Path,
    identity: &serde_json::Value,
) -> Result<BTreeMap<String, Entry>, Error> {
    let mut files = vec![out.join(STATE)];
    if let Ok(d) = std::fs::read_dir(out.join(SHARDS)) {
        let mut shards: Vec<_> = d.filter_map(|e| e.ok()).map(|e| e.path()).collect();
        shards.sort();
        files.extend(shards);
    }
    let mut all = Ledger::default();
    for f in files {
        let Some(content) = super::digest::read_sealed_if_there(&f)? else {
            continue;
        };
        if content.get("identity") != Some(identity) {
            earlier_format(&f, content.get("identity"), identity)?;
            continue;
        }
        let s: Stored = serde_json::from_value(content)
            .map_err(|e| format!("{}: not a ledger skirmish wrote ({e})", f.display()))?;
        all.absorb(s.cells);
    }
    Ok(all.cells)
}

/// What every study's identity holds alike (issue 78: values, where it was debug text): the
/// version, the seed, the field's flags, every rules number as a table and the catalogue by
/// digest. A study adds what else its cells depend on.
pub fn identity(
    seed: u64,
    field: String,
    rules: &impl Serialize,
    catalogue: &impl Serialize,
) -> serde_json::Map<String, serde_json::Value> {
    let catalogue = serde_json::to_string(catalogue).expect("a catalogue serialises");
    let serde_json::Value::Object(id) = serde_json::json!({
        "version": env!("CARGO_PKG_VERSION"),
        "seed": seed,
        "field": field,
        "rules": serde_json::to_value(rules).expect("rules serialise"),
        "catalogue": super::digest::sha256_hex(catalogue.as_bytes()),
    }) else {
        unreachable!("an object")
    };
    id
}

/// Refuses a file of kept sums at `path` whose identity (`theirs`, not equal to `ours`) holds a
/// key as another kind of value than this version writes (text where it writes a table): kept
/// in an earlier format (issue 78: identities were debug text), not by another question, so
/// neither continued nor silently replaced.
pub fn earlier_format(
    path: &std::path::Path,
    theirs: Option<&serde_json::Value>,
    ours: &serde_json::Value,
) -> Result<(), Error> {
    use serde_json::Value;
    let (Some(Value::Object(theirs)), Value::Object(ours)) = (theirs, ours) else {
        return Ok(());
    };
    let kind = |v: &Value| std::mem::discriminant(v);
    match ours
        .iter()
        .find(|(k, v)| theirs.get(*k).is_some_and(|t| kind(t) != kind(v)))
    {
        Some((key, _)) => Err(Error::Input(format!(
            "{}: kept by an earlier skirmish, which wrote its identity's `{key}` another way (issue 78: as debug text); this version cannot tell whether its sums answer the same question, so it does not continue them. Give another --out, or remove that file to play afresh",
            path.display()
        ))),
        None => Ok(()),
    }
}

/// The bytes of a ledger stored under `identity` (`ledger.json`, or a shard's file), sealed.
pub fn stored(identity: &serde_json::Value, ledger: &Ledger) -> Vec<u8> {
    let s = Stored {
        identity: identity.clone(),
        cells: ledger.cells.clone(),
    };
    super::digest::sealed_text(&s).into_bytes()
}

/// An analysis's run over its folder's ledger (issue 51): the folder claimed (a shard its share,
/// beside the other shards; a whole run all of it), and the cells kept there by an earlier run
/// or by shards opened for this one.
pub struct Run {
    pub ledger: Ledger,
    identity: serde_json::Value,
    out: std::path::PathBuf,
    command: &'static str,
    shard: Option<super::plan::Shard>,
    /// The folder held while the run lives; `None` for an answer wanted in memory.
    _claim: Option<super::dataset::OutputClaim>,
}

impl Run {
    pub fn open(
        ctx: &super::context::Context,
        out: &std::path::Path,
        command: &'static str,
        identity: serde_json::Value,
        shard: Option<super::plan::Shard>,
    ) -> Result<Run, Error> {
        if ctx.is_in_memory() {
            // A question's point (issue 78): every cell played here, nothing read or written.
            if shard.is_some() {
                return Err("a question's point plays whole: give no --shard".into());
            }
            return Ok(Run {
                ledger: Ledger::new(BTreeMap::new(), None),
                identity,
                out: out.to_path_buf(),
                command,
                shard,
                _claim: None,
            });
        }
        let claim = match shard {
            None => super::dataset::claim_output_folder(out, command)?,
            Some(s) => super::dataset::claim_shard(
                out,
                &format!("shard-{}-of-{}", s.index, s.count),
                command,
            )?,
        };
        let mut ledger = Ledger::new(kept(out, &identity)?, shard.map(|s| (s.index, s.count)));
        // `verify` (issue 62): the kept cells are replayed and compared, nothing is written.
        if let Some(r) = ctx.take_replay() {
            ledger.audit(r.budget);
        }
        Ok(Run {
            ledger,
            identity,
            out: out.to_path_buf(),
            command,
            shard,
            _claim: Some(claim),
        })
    }

    /// A shard's run ends here: its cells are written to `OUT/shards/K-of-N.json` (the folder
    /// made this command's output, the others' files left as they are), and the line that says
    /// so is returned, `played` naming what it played. `None` for a whole run.
    pub fn end_shard(&self, played: &str) -> Result<Option<String>, Error> {
        let Some(shard) = self.shard else {
            return Ok(None);
        };
        super::dataset::mark_output_folder(&self.out, self.command)?;
        let dir = self.out.join(SHARDS);
        std::fs::create_dir_all(&dir).map_err(|e| format!("--out {}: {e}", dir.display()))?;
        let name = format!("{}-of-{}.json", shard.index, shard.count);
        super::dataset::atomic_write(&dir, &name, &stored(&self.identity, &self.ledger))?;
        let held = kept(&self.out, &self.identity)?.len();
        Ok(Some(format!(
            "shard {shard}: {played} played, its cells written to {}; {held} cells of the analysis are in the folder. When every shard is done, run the same command without --shard to finish (it plays whatever is missing and writes the tables)\n",
            dir.join(&name).display()
        )))
    }

    /// The ledger as the folder keeps it: `ledger.json` and its bytes.
    pub fn state(&self) -> (String, Vec<u8>) {
        (STATE.to_string(), stored(&self.identity, &self.ledger))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::platform::tally::Mean;

    fn sum(range: Range<u64>) -> Mean {
        let mut m = Mean::default();
        for i in range {
            m.add((i * i % 7) as i64);
        }
        m
    }

    // Issue 63: blocks lie where they lie whatever the count, tile the matches, and share any
    // count among the groups within a block of each other.
    #[test]
    fn blocks_tile_the_matches_and_share_them_among_the_groups() {
        for n in [1u64, 79, 80, 81, 500, 1_000, 12_345, 200_000] {
            let (mut at, mut size, mut calls) = (0, [0u64; GROUPS], 0);
            let mut biggest = 0;
            while at < n {
                let (end, g) = block(at);
                assert!(end > at);
                size[g] += end.min(n) - at;
                biggest = biggest.max(end - at);
                at = end.min(n);
                calls += 1;
            }
            let (lo, hi) = (size.iter().min().unwrap(), size.iter().max().unwrap());
            assert!(hi - lo <= biggest, "{n}: {size:?}");
            assert!(
                calls <= 80 * (1 + (n / 80 + 1).ilog2() as u64),
                "{n}: {calls}"
            );
        }
        // A block starts where an earlier one ended, from any start.
        assert_eq!(block(0), (1, 0));
        assert_eq!(block(80), (82, 0));
        assert_eq!(block(81), (82, 0));
        assert_eq!(block(82), (84, 1));
    }

    // A cell's groups merge to its sums, and leaving group g out serves the others' merge.
    #[test]
    fn a_cell_left_without_a_group_is_the_merge_of_the_others() {
        let mut l = Ledger::default();
        let whole: Mean = l.cell("a", 1_000, sum).unwrap();
        let e = l.cells["a"].clone();
        assert_eq!(e.groups.len(), GROUPS);
        let mut all = Mean::default();
        for g in &e.groups {
            all.merge(&Mean::from_ints(g).unwrap());
        }
        assert_eq!(all, whole);
        l.leave_out(Some(3));
        let less: Mean = l.cell("a", 1_000, |_| panic!("nothing is played")).unwrap();
        let three = Mean::from_ints(&e.groups[3]).unwrap();
        assert_eq!(less.n + three.n, whole.n);
        assert_eq!(less.sum + three.sum, whole.sum);
        assert!(l.leave_out(None), "every cell had its groups");
    }

    #[test]
    fn a_continued_cell_sums_what_one_long_run_sums() {
        let mut short = Ledger::default();
        short.cell("a", 40, sum).unwrap();
        let mut grown = Ledger::new(short.cells.clone(), None);
        let got: Mean = grown.cell("a", 100, sum).unwrap();
        assert_eq!(got, sum(0..100));
        assert_eq!(grown.played(), 60, "only the new matches are played");
        let mut again = Ledger::new(grown.cells.clone(), None);
        assert!(
            again.cell::<Mean>("a", 50, sum).is_err(),
            "a smaller count is refused"
        );
    }

    #[test]
    fn shards_play_disjoint_cells_whose_union_is_the_whole() {
        let keys = ["a", "b", "c", "d", "e"];
        let mut whole = Ledger::default();
        for k in keys {
            whole
                .cell::<Vec<Mean>>(k, 30, |r| vec![sum(r.clone()), sum(r)])
                .unwrap();
        }
        let mut merged = Ledger::default();
        for k in 0..3 {
            let mut s = Ledger::new(BTreeMap::new(), Some((k, 3)));
            for key in keys {
                s.cell::<Vec<Mean>>(key, 30, |r| vec![sum(r.clone()), sum(r)])
                    .unwrap();
            }
            assert!(!s.whole());
            merged.absorb(s.cells);
        }
        assert_eq!(merged.cells, whole.cells);
        let mut last = Ledger::new(merged.cells, None);
        for key in keys {
            last.cell::<Vec<Mean>>(key, 30, |_| panic!("nothing left to play"))
                .unwrap();
        }
        assert!(last.whole() && last.played() == 0);
    }

    #[test]
    fn sums_round_trip_through_their_integers() {
        let v: (Vec<Mean>, Vec<i64>) = (vec![sum(0..5), sum(3..9)], vec![4, -2]);
        let back = <(Vec<Mean>, Vec<i64>)>::from_ints(&v.to_ints());
        assert_eq!(back, Some(v));
        assert_eq!(<Vec<Mean>>::from_ints(&[2, 3, 1, 2]), None, "too short");
        assert_eq!(
            <Vec<Mean>>::from_ints(&[1, 9, 1, 2, 3]),
            None,
            "a width past the end"
        );
        assert_eq!(<Mean>::from_ints(&[-1, 0, 0]), None, "a negative count");
    }
}

//! `analyze tag duel` (TG-52): the two-player core solved exactly, every policy measured
//! against the solution, as the answer (the result model, issue 50).

use std::collections::BTreeMap;

use crate::games::elemental_tag::analysis::duel::Duel;
use crate::games::elemental_tag::analysis::oracle::{Side, measure};
use crate::games::elemental_tag::policy::Policy;
use crate::games::elemental_tag::rules::Settings;
use crate::platform::answer::Answer;
use crate::rng::{Stream, match_stream_rng};

/// What the duel is asked.
pub struct Asked<'a> {
    /// The grid's side.
    pub side: u32,
    /// The longest horizon solved, in turns.
    pub turns: usize,
    /// Duels played per measured pairing.
    pub games: u32,
    /// Each policy measured, as the host wrote it and parsed.
    pub policies: Vec<(String, Policy)>,
    pub seed: u64,
    pub rules: &'a Settings,
    /// The command line, the settings and the inputs' digests the answer records.
    pub command: String,
    pub settings: serde_json::Value,
    pub inputs: BTreeMap<String, String>,
}

/// `analyze tag duel` (TG-52): the two-player core solved exactly for horizons 1..`turns`, and
/// every policy measured against the solution in `games` duels each way; the answer and the
/// line that heads it.
pub fn study(a: &Asked) -> (Answer, String) {
    let t = a.turns;
    let d = Duel::solve(a.side, a.rules, t);
    let mut answer = DuelAnswer::new(a, d.states.len());
    let head = format!(
        "Elemental Tag duel on a {0}x{0} grid: one it player, one runner, {1} starts, solved exactly for horizons 1..{t}\n",
        a.side,
        d.states.len()
    );
    let mut shown = Vec::new();
    for h in [1, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 40, 60, 100, 200, 400] {
        if h <= t {
            shown.push(h);
        }
    }
    if !shown.contains(&t) {
        shown.push(t);
    }
    for h in shown {
        let (mean, lo, hi) = d.summary(h);
        answer.horizon(h, mean, lo, hi);
    }
    let half = (1..=t).find(|&h| d.summary(h).0 >= 0.5);
    let forced = (1..=t).find(|&h| d.summary(h).1 >= 0.999_999);
    answer.answer.notes.push(format!(
        "from an average start the it player can guarantee an even chance of a tag within {}, and {:.1}% within {t}; a certain tag from every start within {}",
        half.map_or(format!("more than {t} turns"), |h| format!("{h} turns")),
        100.0 * d.summary(t).0,
        forced.map_or(format!("more than {t} turns (never certain)"), |h| format!(
            "{h} turns"
        )),
    ));
    let mut rng = match_stream_rng(a.seed, Stream::Moves);
    let both = measure(&d, Side::Exact, Side::Exact, a.games, t as u32, &mut rng);
    answer.measured("both sides exact (the solved strategies)", both);
    answer.answer.grids[1].row(
        "exact (both sides)",
        vec![
            crate::platform::grid::Cell::Value(both),
            crate::platform::grid::Cell::Empty,
        ],
    );
    for (given, p) in &a.policies {
        let as_runner = measure(
            &d,
            Side::Exact,
            Side::Policy(*p),
            a.games,
            t as u32,
            &mut rng,
        );
        let as_it = measure(
            &d,
            Side::Policy(*p),
            Side::Exact,
            a.games,
            t as u32,
            &mut rng,
        );
        // The answer names each policy as the host wrote it: its labels stay short.
        answer.measured(&format!("{given} as runner"), as_runner);
        answer.measured(&format!("{given} as it player"), as_it);
        answer.policy(given, as_runner, as_it);
    }
    answer.answer.notes.push(format!(
        "measured: tags within {t} turns in {} duels from uniform starts (the exact value: {:.2}%)",
        a.games,
        100.0 * d.summary(t).0
    ));
    answer.finish();
    (answer.answer, head)
}

/// The duel's answer (the result model, issue 50), filled as the text is written.
struct DuelAnswer {
    answer: crate::platform::answer::Answer,
    games: u32,
    starts: u64,
}

impl DuelAnswer {
    fn new(a: &Asked, starts: usize) -> DuelAnswer {
        use crate::platform::answer::{Provenance, Section, Unit};
        use crate::platform::grid::Grid;
        let t = a.turns;
        DuelAnswer {
            games: a.games,
            starts: starts as u64,
            answer: Answer {
                verdict: Vec::new(),
                highlight: Vec::new(),
                outcome: None,
                apart: Vec::new(),
                title: format!("tag duel: a {0}x{0} grid, solved exactly to {t} turns", a.side),
                provenance: Provenance {
                    command: a.command.clone(),
                    source: "tag-duel".into(),
                    version: env!("CARGO_PKG_VERSION").into(),
                    seed: a.seed,
                    matches: a.games as u64,
                    played: a.games as u64,
                    settings: a.settings.clone(),
                    inputs: a.inputs.clone(),
                },
                totals: vec![
                    ("starts".into(), crate::platform::tally::thousands(starts as u64)),
                    ("turns solved".into(), t.to_string()),
                ],
                sections: vec![
                    Section {
                        band: None,
                        better: None,
                        title: "guaranteed chance of a tag by turns".into(),
                        meaning: "exact: the chance the it player can guarantee within so many turns, mean over the starts, between the least and the greatest start (not a sampled interval)".into(),
                        unit: Unit::Share,
                        estimates: Vec::new(),
                    },
                    Section {
                        band: None,
                        better: None,
                        title: format!("tags within {t} turns against the exact strategies"),
                        meaning: "duels from uniform starts: each policy as runner against the exact it player, and as it player against the exact runner; the exact strategies mix by the solved values".into(),
                        unit: Unit::Share,
                        estimates: Vec::new(),
                    },
                ],
                tables: Vec::new(),
                notes: Vec::new(),
                heatmaps: Vec::new(),
                grids: vec![
                    Grid::new(
                        "guaranteed chance of a tag by turns",
                        "the chance the it player can guarantee, mean over starts [least, greatest start]",
                        "turns",
                        &[("chance [least, greatest]", Unit::Share)],
                    ),
                    Grid::new(
                        &format!("tags within {t} turns against the exact strategies"),
                        "each policy's duels as runner against the exact it player, and as it player against the exact runner; the exact strategies mix by the solved values",
                        "policy",
                        &[("as runner", Unit::Share), ("as it player", Unit::Share)],
                    ),
                ],
            },
        }
    }

    /// A policy's tags as runner and as it player against the exact strategies, on one row.
    fn policy(&mut self, name: &str, as_runner: f64, as_it: f64) {
        self.answer.grids[1].row(
            name,
            vec![
                crate::platform::grid::Cell::Value(as_runner),
                crate::platform::grid::Cell::Value(as_it),
            ],
        );
    }

    /// The answer, its horizons laid out as a grid too (the printed summary).
    fn finish(&mut self) {
        use crate::platform::grid::Cell;
        let rows: Vec<(String, Cell)> = self.answer.sections[0]
            .estimates
            .iter()
            .map(|e| (e.label.clone(), Cell::estimate((e.value, e.lo, e.hi))))
            .collect();
        for (label, cell) in rows {
            self.answer.grids[0].row(label, vec![cell]);
        }
    }

    fn horizon(&mut self, h: usize, mean: f64, least: f64, greatest: f64) {
        self.answer.sections[0]
            .estimates
            .push(crate::platform::answer::Estimate {
                label: format!("{h} turn{}", if h == 1 { "" } else { "s" }),
                value: mean,
                lo: least,
                hi: greatest,
                count: self.starts,
                exact: false,
                se: None,
            });
    }

    fn measured(&mut self, label: &str, share: f64) {
        let n = self.games as u64;
        let tags = (share * n as f64).round() as u64;
        let (lo, hi) = crate::platform::tally::wilson(tags, n, crate::stats::Z95);
        self.answer.sections[1]
            .estimates
            .push(crate::platform::answer::Estimate {
                label: label.into(),
                value: share,
                lo,
                hi,
                count: n,
                exact: false,
                se: None,
            });
    }
}

//! One result model for every answer (issue 50): what a command found, with where it came from,
//! in a shape that renderers and `diff` read without knowing any game.
//!
//! A game fills an [`Answer`] (every dataset command, from its run's tally, by
//! `Answer::from_dataset` in `platform::pairing`, which also ranks a candidate against its
//! field and takes the difference of two runs); `platform::render` writes it for a terminal, a
//! Markdown page, a forum post (BBCode), JSON, or a self-contained HTML page whose charts are
//! inline SVG. This module is the model alone: it reaches neither of them (issue 78). Kernels
//! know nothing of it, and it knows no game.

use crate::error::Error;
use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::grid::Grid;
use super::tally::Tally;

/// The file name of an answer stored beside a dataset's manifest.
pub const FILE: &str = "result.json";
/// The file name of the HTML report written beside it.
pub const REPORT: &str = "report.html";

/// Where an answer came from: enough to run it again and to tell two answers apart.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Provenance {
    /// The command as recorded (canonical: every setting spelled out).
    pub command: String,
    /// The simulation or analysis that answered (`rumble-ffa`, `tag-tournament`...).
    pub source: String,
    pub version: String,
    pub seed: u64,
    /// Matches asked for, and matches played into this answer.
    pub matches: u64,
    pub played: u64,
    /// The settings as the command records them (what `diff` compares).
    pub settings: serde_json::Value,
    /// Every input file's SHA-256, by path.
    pub inputs: BTreeMap<String, String>,
}

impl Provenance {
    /// A tool's answer (`bench`, `calibrate`): no input files, seed 1, all it asked for done.
    pub fn of_tool(
        command: String,
        source: &str,
        matches: u64,
        settings: serde_json::Value,
    ) -> Provenance {
        Provenance {
            command,
            source: source.into(),
            version: env!("CARGO_PKG_VERSION").into(),
            seed: 1,
            matches,
            played: matches,
            settings,
            inputs: BTreeMap::new(),
        }
    }
}

/// One estimate: a share or a mean, with its 95% interval and the count behind it.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Estimate {
    pub label: String,
    pub value: f64,
    pub lo: f64,
    pub hi: f64,
    /// Trials (shares) or values (means) behind it.
    pub count: u64,
    /// Exact by construction (a table of one strategy shares its wins 1/n; two runs that agree
    /// match for match differ by 0): shown as "exact", the only estimate whose interval may be
    /// zero-width (issue 63).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub exact: bool,
    /// The standard error its builder measured (issue 78: each user read it back from the
    /// interval, with z, also where the interval took a t): see [`Estimate::se`]. Held in
    /// memory, not written: a folder's files keep their bytes, and an estimate read back from
    /// one is a normal interval's (or a share's Wilson interval's), whose width in standard
    /// errors is 2 z.
    #[serde(skip)]
    pub se: Option<f64>,
}

impl Estimate {
    /// The standard error of `value`: the one its builder kept, else its 95% interval's
    /// half-width over z (how every interval a folder holds was made; a share's Wilson interval
    /// is read so, as a normal one). 0 for an exact estimate.
    pub fn se(&self) -> f64 {
        self.se
            .unwrap_or_else(|| (self.hi - self.lo) / (2.0 * crate::stats::Z95))
    }
}

/// What an estimate says: its standard error is how it was measured, not part of the answer
/// (an estimate read back from a folder equals the one that was written).
impl PartialEq for Estimate {
    fn eq(&self, o: &Self) -> bool {
        (
            &self.label,
            self.value,
            self.lo,
            self.hi,
            self.count,
            self.exact,
        ) == (&o.label, o.value, o.lo, o.hi, o.count, o.exact)
    }
}

pub use super::unit::Unit;

/// A titled group of estimates, drawn as one bar chart with intervals.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Section {
    pub title: String,
    /// One line on what the numbers are.
    pub meaning: String,
    pub unit: Unit,
    pub estimates: Vec<Estimate>,
    /// A range of the estimates' values to shade behind the bars (a balance's target, what
    /// counts as met), when the section is drawn against one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub band: Option<(f64, f64)>,
    /// Which way its estimates are better, set by whoever builds the section (issue 78: it was
    /// read from the title's words); `None` for a section that is no ranking (how games end,
    /// how long they last). A candidate is ranked only in a section that has one. Not stored:
    /// what it decides is (the candidate's card), so a folder's files keep their bytes.
    #[serde(skip)]
    pub better: Option<crate::stats::Better>,
}

/// Where one estimate stands among its section's others (issue 51: a candidate against the
/// field): its rank counted from the best, ties shared, and how many others a test of their
/// difference tells apart from it at 5% for the family of comparisons (issue 63, Holm's).
#[derive(Clone, Debug, PartialEq)]
pub struct Standing {
    pub estimate: Estimate,
    pub verdict: crate::stats::Verdict,
    /// Whether every difference's variance was measured on the same matches (else some were
    /// taken as unpaired, the conservative side).
    pub paired: bool,
    /// Whether its family is the whole verdict card (every section's differences), else its
    /// section's.
    pub card: bool,
}

impl Standing {
    /// One line: "`label` in `section`: value [lo, hi], rank r of n, ...".
    pub fn line(&self, sec: &Section) -> String {
        let e = &self.estimate;
        let v = &self.verdict;
        let show = |x: f64| sec.unit.short(x);
        format!(
            "{} in {}: {} [{}, {}], {} ({}); {} clearly better, {} clearly worse (each difference {}tested at 5% for {} family, Holm's)",
            e.label,
            sec.title,
            show(e.value),
            show(e.lo),
            show(e.hi),
            v.rank_words(),
            v.direction.words(),
            v.better,
            v.worse,
            if self.paired {
                "paired on the same matches, "
            } else {
                ""
            },
            if self.card {
                "the whole card's"
            } else {
                "the section's"
            }
        )
    }
}

/// A command's answer.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Answer {
    pub title: String,
    pub provenance: Provenance,
    /// Headline numbers as label and value (matches, draws...).
    pub totals: Vec<(String, String)>,
    pub sections: Vec<Section>,
    /// The Parquet tables beside it, by name.
    pub tables: Vec<String>,
    pub notes: Vec<String>,
    /// Matrices drawn as heat maps (a payoff table, issue 54); absent from the JSON when none,
    /// so answers without them keep their bytes.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub heatmaps: Vec<HeatMap>,
    /// Compact tables of the answer's numbers: what a command prints (its summary is a
    /// rendering of them), first in every format. Absent from the JSON when none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub grids: Vec<Grid>,
    /// What a candidate run finds, a sentence per thing measured: the verdict card that opens
    /// every rendering (issue 64). Absent from the JSON when none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub verdict: Vec<String>,
    /// The labels marked in every table and chart (the candidate's). Absent when none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub highlight: Vec<String>,
    /// A test's verdict, where the answer is one (a balance's, issue 80). Absent when none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outcome: Option<Outcome>,
    /// Which members each candidate's verdict card told apart from it (issue 80: what
    /// `calibrate --twins` reads of the member a twin plays as). Not written: the verdict's
    /// sentences say it.
    #[serde(skip)]
    pub apart: Vec<Apart>,
}

/// One comparison of a candidate's verdict card: the candidate, the member, the section it was
/// ranked in, and whether the card's test told them apart.
#[derive(Clone, Debug, PartialEq)]
pub struct Apart {
    pub candidate: String,
    pub member: String,
    pub section: String,
    pub told: bool,
}

/// What a test concludes (issue 80): PASS only when the data show the target met, FAIL only
/// when they show it missed, INCONCLUSIVE when they cannot tell yet. Each has its exit code.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    Pass,
    Fail,
    Inconclusive,
}

impl Outcome {
    pub fn word(self) -> &'static str {
        match self {
            Outcome::Pass => "PASS",
            Outcome::Fail => "FAIL",
            Outcome::Inconclusive => "INCONCLUSIVE",
        }
    }

    /// The command's status (docs/balance.md): PASS is done (0), FAIL a finding (1),
    /// INCONCLUSIVE exit 3 (2 is a bad input, as for every command).
    pub fn status(self) -> crate::error::Status {
        use crate::error::Status;
        match self {
            Outcome::Pass => Status::Done,
            Outcome::Fail => Status::Finding,
            Outcome::Inconclusive => Status::Inconclusive,
        }
    }
}

/// A matrix of values (row against column) drawn as a heat map.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HeatMap {
    pub title: String,
    pub meaning: String,
    pub unit: Unit,
    pub rows: Vec<String>,
    pub columns: Vec<String>,
    /// `values[r][c]`.
    pub values: Vec<Vec<f64>>,
}

impl Answer {
    /// Every count and mean of a tally as the sections of an answer: counts as win rates (or a
    /// `share of` group as itself) with Wilson's interval, means with the normal one, win points
    /// as a share; what a dataset's answer shows and what `balance` and `sensitivity` read.
    /// Each section says which way it ranks: a win count higher, a `share of` group not at all,
    /// win points higher, another mean as `ranked` (the simulation's [`crate::platform::runner::Simulation::ranked`]) lists it.
    pub fn sections(t: &Tally, ranked: &[(&str, crate::stats::Better)]) -> Vec<Section> {
        use crate::stats::Better;
        let mut sections = Vec::new();
        for (group, labels) in &t.groups {
            let mut rows: Vec<(&String, _)> = labels.iter().collect();
            rows.sort_by(|a, b| match (a.0.parse::<u64>(), b.0.parse::<u64>()) {
                (Ok(x), Ok(y)) => x.cmp(&y),
                _ => a.0.cmp(b.0),
            });
            let share_of = group.starts_with(crate::platform::tally::SHARE_OF);
            sections.push(Section {
                band: None,
                better: (!share_of).then_some(Better::Higher),
                title: count_title(group),
                meaning: if share_of {
                    "out of those counted, with its 95% Wilson interval".into()
                } else {
                    "wins out of those counted, with its 95% Wilson interval".into()
                },
                unit: Unit::Share,
                estimates: rows
                    .into_iter()
                    .map(|(label, c)| {
                        let (lo, hi) = c.wilson95();
                        Estimate {
                            label: label.clone(),
                            value: c.rate(),
                            lo,
                            hi,
                            count: c.trials,
                            exact: false,
                            se: None,
                        }
                    })
                    .collect(),
            });
        }
        for (group, labels) in &t.means {
            // A group of win points (a win 2, a draw 1) is a share: half its mean (its reports
            // said 1.21 for a 60.5% win share).
            let points = group.starts_with(crate::platform::tally::WIN_POINTS);
            let scale = if points { 0.5 } else { 1.0 };
            // A ratio of totals (a sum and a count added whole, no squares kept) has no
            // interval: say so rather than show a zero-width one.
            let ratio = labels
                .values()
                .all(|m| m.sum_sq == 0 && m.by_match.is_none())
                && labels.values().any(|m| m.sum != 0);
            let better = if points {
                Some(Better::Higher)
            } else {
                ranked.iter().find(|(g, _)| g == group).map(|&(_, b)| b)
            };
            sections.push(Section {
                band: None,
                better,
                title: group.clone(),
                meaning: if points {
                    "the share of win points (a draw counts half), with its 95% Wilson interval at the rows the spread between matches is worth"
                        .into()
                } else if ratio {
                    "a ratio of totals (no interval: the parts are not kept one by one)".into()
                } else {
                    "the mean, with its 95% normal interval".into()
                },
                unit: if points { Unit::Share } else { Unit::Number },
                estimates: labels
                    .iter()
                    .map(|(label, m)| {
                        let (lo, hi) = if points { m.points_ci95() } else { m.ci95() };
                        Estimate {
                            label: label.clone(),
                            value: scale * m.mean(),
                            lo,
                            hi,
                            count: m.n,
                            exact: false,
                            // A share of points keeps its Wilson interval's reading.
                            se: if points { None } else { m.se() },
                        }
                    })
                    .collect(),
            });
        }
        sections
    }

    /// Reads the `result.json` a command wrote at `path`, refusing one edited since (issue 62).
    pub fn read(path: &std::path::Path) -> Result<Answer, Error> {
        let content = super::digest::read_sealed(path)?;
        serde_json::from_value(content)
            .map_err(|e| Error::Input(format!("{}: not a skirmish answer: {e}", path.display())))
    }

    /// Reads an answer stored as JSON.
    pub fn from_json(text: &str) -> Result<Answer, Error> {
        serde_json::from_str(text).map_err(|e| Error::Input(format!("not a skirmish answer: {e}")))
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("an answer serialises") + "\n"
    }
}

/// The section title of a group of win counts: a `share of` group by its own name, `wins by
/// policy` as "win rate by policy" (issue 64: it read "win rate by wins by policy").
pub(crate) fn count_title(group: &str) -> String {
    if group.starts_with(crate::platform::tally::SHARE_OF) {
        group.to_string()
    } else if let Some(rest) = group.strip_prefix("wins ") {
        format!("win rate {rest}")
    } else {
        format!("win rate by {group}")
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// Issue 78: which way a section ranks is set by whoever builds it, never read from its
    /// title's words (a win count titled with "lost" ranked lower, a mean titled with "won"
    /// higher).
    #[test]
    fn a_sections_direction_is_its_builders_not_its_titles() {
        use crate::stats::Better;
        let mut t = Tally::default();
        t.count("wins lost by policy", "a").add(true);
        t.count("share of games won by end", "x").add(true);
        t.mean("place by policy", "a").add(1);
        t.mean("games won, by policy", "a").add(3);
        t.mean("win share by policy", "a").add(2);
        let s = Answer::sections(&t, &[("place by policy", Better::Lower)]);
        let better = |title: &str| s.iter().find(|x| x.title == title).unwrap().better;
        assert_eq!(better("win rate lost by policy"), Some(Better::Higher));
        assert_eq!(better("share of games won by end"), None);
        assert_eq!(better("place by policy"), Some(Better::Lower));
        assert_eq!(better("games won, by policy"), None);
        assert_eq!(better("win share by policy"), Some(Better::Higher));
        // Not stored: a folder's result.json keeps its bytes.
        let ranked = s.iter().find(|x| x.better.is_some()).unwrap();
        assert!(!serde_json::to_string(ranked).unwrap().contains("better"));
    }

    /// An answer of two estimates that every renderer and difference test reads.
    pub(crate) fn answer() -> Answer {
        Answer {
            verdict: Vec::new(),
            highlight: Vec::new(),
            outcome: None,
            apart: Vec::new(),
            title: "t <b>".into(),
            provenance: Provenance {
                command: "skirmish simulate rumble --seed 1".into(),
                source: "rumble-ffa".into(),
                version: "0".into(),
                seed: 1,
                matches: 10,
                played: 10,
                settings: serde_json::json!({"heroes": [2, 8]}),
                inputs: BTreeMap::new(),
            },
            totals: vec![("matches".into(), "10".into())],
            sections: vec![Section {
                band: None,
                better: None,
                title: "win rate by power".into(),
                meaning: "wins".into(),
                unit: Unit::Share,
                estimates: vec![
                    Estimate {
                        label: "Amoeba | x".into(),
                        value: 0.5,
                        lo: 0.4,
                        hi: 0.6,
                        count: 100,
                        exact: false,
                        se: None,
                    },
                    Estimate {
                        label: "[none]".into(),
                        value: 0.1,
                        lo: 0.05,
                        hi: 0.2,
                        count: 100,
                        exact: false,
                        se: None,
                    },
                ],
            }],
            tables: vec!["matches".into()],
            notes: vec![],
            heatmaps: Vec::new(),
            grids: Vec::new(),
        }
    }
}

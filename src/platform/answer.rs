//! One result model for every answer (issue 50): what a command found, with where it came from,
//! in a shape that renderers and `diff` read without knowing any game.
//!
//! A game fills an [`Answer`] (today: every dataset command, from its run's tally, by
//! [`Answer::from_dataset`]); [`render`] writes it for a terminal, a Markdown page, a forum post
//! (BBCode), JSON, or a self-contained HTML page whose charts are inline SVG. Kernels know
//! nothing of it, and it knows no game.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::escape::plain;

use serde::{Deserialize, Serialize};

use super::grid::Grid;
use super::manifest::Manifest;
use super::tally::{Tally, thousands};

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

/// An answer as the two files a command writes beside its tables: `result.json` and
/// `report.html`.
pub fn files(a: &Answer) -> [(String, Vec<u8>); 2] {
    [
        // Sealed (issue 62): an edited grid or estimate is refused when the folder is read.
        (FILE.to_string(), super::digest::sealed_text(a).into_bytes()),
        (REPORT.to_string(), render(a, Format::Html).into_bytes()),
    ]
}

/// The last line of a command that wrote an answer into `dir`: where its report is.
pub fn report_line(dir: &std::path::Path) -> String {
    let d = dir.display();
    format!("report: {d}/{REPORT} (for a forum post: skirmish report {d} --format bbcode)\n")
}

/// One estimate: a share or a mean, with its 95% interval and the count behind it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
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

impl Section {
    /// Where the estimate labelled `label` stands, `better` saying which way is better; `None`
    /// when the section has none. Each estimate's standard error is read from its interval; the
    /// covariance of two estimates from the same matches is not kept here, so the test takes it
    /// as 0 (positive under common random numbers: the test is then conservative).
    pub fn standing(&self, label: &str, better: crate::stats::Better) -> Option<Standing> {
        self.standing_paired(label, better, |_| None)
    }

    /// [`Section::standing`] where `var_diff(other)` gives, when known, the variance of the
    /// difference between the estimate and `other`'s as measured on the same matches (issue 63:
    /// the candidate and the field are measured together, so their covariance is not 0).
    pub fn standing_paired(
        &self,
        label: &str,
        better: crate::stats::Better,
        var_diff: impl Fn(&str) -> Option<f64>,
    ) -> Option<Standing> {
        let (me, field, paired) = self.field_of(label, &var_diff)?;
        Some(Standing {
            verdict: crate::stats::compare((me.value, se_of(&me)), &field, better),
            estimate: me,
            paired,
            card: false,
        })
    }

    /// The estimate labelled `label` and the section's others as a verdict's field, with each
    /// difference's covariance where `var_diff` measured it, and whether all were.
    fn field_of(
        &self,
        label: &str,
        var_diff: &dyn Fn(&str) -> Option<f64>,
    ) -> Option<(Estimate, Field, bool)> {
        let me = self.estimates.iter().find(|e| e.label == label)?;
        let mut paired = true;
        let field: Vec<(f64, f64, Option<f64>)> = self
            .estimates
            .iter()
            .filter(|e| e.label != label)
            .map(|e| {
                // The covariance that makes the test's variance the difference's own.
                let cov =
                    var_diff(&e.label).map(|v| 0.5 * (se_of(e).powi(2) + se_of(me).powi(2) - v));
                paired &= cov.is_some();
                (e.value, se_of(e), cov)
            })
            .collect();
        let paired = paired && !field.is_empty();
        Some((me.clone(), field, paired))
    }
}

/// A verdict's field: each member's value, standard error and covariance with the candidate.
type Field = Vec<(f64, f64, Option<f64>)>;

/// An estimate's standard error, read from its 95% interval.
fn se_of(e: &Estimate) -> f64 {
    (e.hi - e.lo) / (2.0 * crate::stats::Z95)
}

/// One section of a verdict card: the section, the candidate's label in it, which way is
/// better, and each member's difference variance where it was measured on the same matches.
pub type Ask<'a> = (
    &'a Section,
    &'a str,
    crate::stats::Better,
    &'a dyn Fn(&str) -> Option<f64>,
);

/// [`Section::standing_paired`] for every section of a verdict card at once, one family under
/// Holm's procedure (issue 80: a family per section let a twin be called clearly different
/// somewhere on the card more often than 1 in 20). Each answer is the standing (`None` where
/// the section has no such label) and which members the card told apart.
pub fn card_standings(asks: &[Ask]) -> Vec<Option<(Standing, Vec<Apart>)>> {
    let found: Vec<_> = asks
        .iter()
        .map(|&(sec, label, better, var_diff)| {
            sec.field_of(label, var_diff)
                .map(|(me, field, paired)| (sec, me, field, better, paired))
        })
        .collect();
    let cards: Vec<crate::stats::Card> = found
        .iter()
        .flatten()
        .map(|(_, me, field, better, _)| {
            ((me.value, se_of(me)), &field[..], *better, f64::INFINITY)
        })
        .collect();
    let mut judged = crate::stats::compare_family_apart(&cards).into_iter();
    found
        .into_iter()
        .map(|f| {
            let (sec, me, _, _, paired) = f?;
            let (verdict, told) = judged.next().expect("one verdict per card");
            let apart = sec
                .estimates
                .iter()
                .filter(|e| e.label != me.label)
                .zip(told)
                .map(|(e, told)| Apart {
                    candidate: me.label.clone(),
                    member: e.label.clone(),
                    section: sec.title.clone(),
                    told,
                })
                .collect();
            Some((
                Standing {
                    estimate: me,
                    verdict,
                    paired,
                    card: true,
                },
                apart,
            ))
        })
        .collect()
}

/// Which way a section's estimates are better, read from its title (issue 63: Tag ranked
/// "points lost" highest first); `None` for a section that is no ranking (how games end, how
/// long they last).
pub fn better_of(title: &str) -> Option<crate::stats::Better> {
    use crate::stats::Better;
    let t = title.to_lowercase();
    let any = |words: &[&str]| words.iter().any(|w| t.contains(w));
    if any(&["lost", "turns it", "place"]) {
        Some(Better::Lower)
    } else if any(&[
        "win",
        "won",
        "score",
        "survived",
        "outlasted",
        "worth",
        "held",
        "value",
    ]) {
        Some(Better::Higher)
    } else {
        None
    }
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

    /// The process's exit code (docs/balance.md): 0 PASS, 1 FAIL, 3 INCONCLUSIVE (2 is a bad
    /// input, as for every command).
    pub fn exit_code(self) -> u8 {
        match self {
            Outcome::Pass => 0,
            Outcome::Fail => 1,
            Outcome::Inconclusive => 3,
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

impl HeatMap {
    fn show(&self, v: f64) -> String {
        self.unit.short(v)
    }

    /// The matrix as aligned text, rows labelled, columns numbered (their names below).
    fn text(&self) -> String {
        let w = self
            .rows
            .iter()
            .map(|r| r.chars().count())
            .max()
            .unwrap_or(1);
        let mut s = format!("{:w$}", "");
        for c in 0..self.columns.len() {
            s.push_str(&format!(" {:>7}", format!("[{}]", c + 1)));
        }
        s.push('\n');
        for (r, name) in self.rows.iter().enumerate() {
            s.push_str(&format!("{:w$}", plain(name)));
            for v in &self.values[r] {
                s.push_str(&format!(" {:>7}", self.show(*v)));
            }
            s.push('\n');
        }
        for (c, name) in self.columns.iter().enumerate() {
            s.push_str(&format!("  [{}] {}\n", c + 1, plain(name)));
        }
        s
    }

    /// Inline SVG: one cell per value, shaded from white (the smallest) to blue (the largest),
    /// its value written in it.
    pub fn svg(&self) -> String {
        // Column names written at 45 degrees above their columns (issue 64: they read [1]..[6]
        // with a legend), the head and the right margin as large as the longest name needs
        // (about 6 px a character at 11 px); the row labels' column as wide as the longest.
        let chars = |v: &[String]| v.iter().map(|x| x.chars().count()).max().unwrap_or(0) as f64;
        let slant = 6.0 * chars(&self.columns) * std::f64::consts::FRAC_1_SQRT_2;
        let label_w = (6.2 * chars(&self.rows) + 12.0).max(120.0);
        let (cell_w, cell_h, head_h) = (64.0, 24.0, slant + 16.0);
        let (nr, nc) = (self.rows.len(), self.columns.len());
        let (w, h) = (
            (label_w + cell_w * nc as f64 + 8.0)
                .max(label_w + cell_w * (nc as f64 - 0.5) + slant + 8.0),
            head_h + cell_h * nr as f64 + 8.0,
        );
        let all = self.values.iter().flatten().filter(|v| v.is_finite());
        let lo = all.clone().fold(f64::INFINITY, |a, &b| a.min(b));
        let hi = all.fold(f64::NEG_INFINITY, |a, &b| a.max(b));
        let span = if hi > lo { hi - lo } else { 1.0 };
        let mut s = format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {w:.0} {h:.0}\" width=\"{w:.0}\" height=\"{h:.0}\" role=\"img\" aria-label=\"{}\" font-family=\"sans-serif\" font-size=\"11\">\n",
            esc_attr(&self.title)
        );
        for c in 0..nc {
            let (x, y) = (label_w + cell_w * (c as f64 + 0.5), head_h - 6.0);
            s.push_str(&format!(
                "<text x=\"{x:.1}\" y=\"{y:.1}\" transform=\"rotate(-45 {x:.1} {y:.1})\">{}</text>\n",
                esc(&self.columns[c]),
            ));
        }
        for r in 0..nr {
            let y = head_h + cell_h * r as f64;
            s.push_str(&format!(
                "<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>\n",
                label_w - 6.0,
                y + cell_h * 0.65,
                esc(&self.rows[r])
            ));
            for c in 0..nc {
                let v = self.values[r][c];
                let t = if v.is_finite() { (v - lo) / span } else { 0.0 };
                let (red, green) = ((255.0 - 200.0 * t) as u8, (255.0 - 140.0 * t) as u8);
                let x = label_w + cell_w * c as f64;
                s.push_str(&format!(
                    "<rect x=\"{x}\" y=\"{y}\" width=\"{}\" height=\"{}\" fill=\"rgb({red},{green},255)\" stroke=\"#fff\"/><text x=\"{}\" y=\"{}\" text-anchor=\"middle\" fill=\"{}\">{}</text>\n",
                    cell_w,
                    cell_h,
                    x + cell_w / 2.0,
                    y + cell_h * 0.65,
                    if t > 0.6 { "#fff" } else { "#222" },
                    esc(&self.show(v))
                ));
            }
        }
        s.push_str("</svg>\n");
        s
    }
}

use crate::stats::Z95;

impl Answer {
    /// Every count and mean of a tally as the sections of an answer: counts as win rates (or a
    /// `share of` group as itself) with Wilson's interval, means with the normal one, win points
    /// as a share; what a dataset's answer shows and what `balance` and `sensitivity` read.
    pub fn sections(t: &Tally) -> Vec<Section> {
        let mut sections = Vec::new();
        for (group, labels) in &t.groups {
            let mut rows: Vec<(&String, _)> = labels.iter().collect();
            rows.sort_by(|a, b| match (a.0.parse::<u64>(), b.0.parse::<u64>()) {
                (Ok(x), Ok(y)) => x.cmp(&y),
                _ => a.0.cmp(b.0),
            });
            sections.push(Section {
                band: None,
                title: count_title(group),
                meaning: if group.starts_with(crate::platform::tally::SHARE_OF) {
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
            sections.push(Section {
                band: None,
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
                        }
                    })
                    .collect(),
            });
        }
        sections
    }

    /// The answer a dataset holds: its manifest's identity and the tallies of the parts present.
    /// Works on any folder a dataset command wrote, older ones included.
    pub fn from_dataset(m: &Manifest, parts: &[&Tally]) -> Answer {
        let mut t = Tally::default();
        for p in parts {
            t.merge(p);
        }
        let id = &m.identity;
        let sections = Answer::sections(&t);
        let mut notes = Vec::new();
        // Issue 51: a candidate run names its candidate; where it stands in each section is
        // told beside the numbers, so every rendering of the folder carries it.
        let (verdict, highlight) = match id.settings.get("candidate").and_then(|v| v.as_str()) {
            Some(c) => (candidate_card(c, &sections, parts), vec![c.to_string()]),
            None => (Vec::new(), Vec::new()),
        };
        if t.matches < id.matches {
            notes.push(format!(
                "incomplete: {} of {} matches are in this folder (a run stopped early, or one shard of several)",
                thousands(t.matches),
                thousands(id.matches)
            ));
        }
        Answer {
            outcome: None,
            apart: Vec::new(),
            title: format!(
                "{}: {} matches, seed {}",
                id.simulation,
                thousands(t.matches),
                id.seed
            ),
            provenance: Provenance {
                command: m.command.clone(),
                source: id.simulation.clone(),
                version: id.crate_version.clone(),
                seed: id.seed,
                matches: id.matches,
                played: t.matches,
                settings: id.settings.clone(),
                inputs: id.inputs.clone(),
            },
            totals: vec![
                ("matches".into(), thousands(t.matches)),
                (
                    "draws".into(),
                    format!(
                        "{} ({:.2}%)",
                        thousands(t.draws),
                        100.0 * t.draws as f64 / t.matches.max(1) as f64
                    ),
                ),
            ],
            sections,
            tables: id.tables.clone(),
            notes,
            heatmaps: Vec::new(),
            grids: Vec::new(),
            verdict,
            highlight,
        }
    }

    /// Reads the `result.json` a command wrote at `path`, refusing one edited since (issue 62).
    pub fn read(path: &std::path::Path) -> Result<Answer, String> {
        let content = super::digest::read_sealed(path)?;
        serde_json::from_value(content)
            .map_err(|e| format!("{}: not a skirmish answer: {e}", path.display()))
    }

    /// Reads an answer stored as JSON.
    pub fn from_json(text: &str) -> Result<Answer, String> {
        serde_json::from_str(text).map_err(|e| format!("not a skirmish answer: {e}"))
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("an answer serialises") + "\n"
    }
}

/// A candidate's verdict card (issue 51): what kept it from playing, then where it stands in
/// each section against the field it played beside, on the same matches (`parts`: the run's
/// batches of whole matches, for each difference's variance). One line per section; `calibrate`
/// counts the "clearly" a candidate twin of a member draws.
pub fn candidate_card(c: &str, sections: &[Section], parts: &[&Tally]) -> Vec<String> {
    let (mut verdict, standings) = candidate_standings(c, sections, parts);
    verdict.extend(standings.iter().map(|(k, st, _)| st.line(&sections[*k])));
    verdict
}

/// A candidate's standing in one section: the section's index, the standing, and which members
/// the family's test told apart from it (the section's other estimates, in order).
pub type Ranked = (usize, Standing, Vec<bool>);

/// [`candidate_card`] as values: the lines on what kept the candidate from playing, then its
/// standing in each section it is ranked in, one family.
pub fn candidate_standings(
    c: &str,
    sections: &[Section],
    parts: &[&Tally],
) -> (Vec<String>, Vec<Ranked>) {
    let mut verdict = Vec::new();
    // What kept the candidate from playing comes before where it stands (issue 62: a
    // clan over budget read 0% and a rank, nothing more).
    for sec in sections
        .iter()
        .filter(|s| s.title.starts_with(crate::platform::tally::SHARE_OF))
    {
        if let Some(e) = sec.estimates.iter().find(|e| e.label == c && e.value > 0.0) {
            verdict.push(format!(
                "candidate {c}: {} is {}; its results there are not a measurement of its play",
                sec.title,
                sec.unit.short(e.value)
            ));
        }
    }
    // The candidate and the field play the same matches: each difference's variance is
    // measured over the parts (batches of whole matches) where there are enough of them,
    // with their degrees of freedom. Every difference on the card is one family (issue
    // 80: each section was its own, and a field of twins showed a false "clearly"
    // somewhere on 28% of cards).
    let by_part: Vec<Ratios> = parts.iter().map(|p| ratios(p)).collect();
    let se = |e: &Estimate| (e.hi - e.lo) / (2.0 * crate::stats::Z95);
    type Row<'s> = (
        usize,
        Estimate,
        Vec<(f64, f64, Option<f64>)>,
        crate::stats::Better,
        f64,
        bool,
    );
    let mut rows: Vec<Row> = Vec::new();
    for (k, sec) in sections.iter().enumerate() {
        // A section of the candidate alone ranks it against nothing.
        let Some(better) = better_of(&sec.title).filter(|_| sec.estimates.len() > 1) else {
            continue;
        };
        let Some(me) = sec.estimates.iter().find(|e| e.label == c) else {
            continue;
        };
        let (mut paired, mut df) = (true, f64::INFINITY);
        let field: Vec<(f64, f64, Option<f64>)> = sec
            .estimates
            .iter()
            .filter(|e| e.label != c)
            .map(|e| {
                let measured = difference_variance(&by_part, &sec.title, c, &e.label);
                paired &= measured.is_some();
                // The covariance that makes the test's variance the difference's own.
                let cov = measured.map(|(v, d)| {
                    df = df.min(d);
                    0.5 * (se(e).powi(2) + se(me).powi(2) - v)
                });
                (e.value, se(e), cov)
            })
            .collect();
        let paired = paired && !field.is_empty();
        rows.push((k, me.clone(), field, better, df, paired));
    }
    let cards: Vec<crate::stats::Card> = rows
        .iter()
        .map(|r| ((r.1.value, se(&r.1)), &r.2[..], r.3, r.4))
        .collect();
    let standings = rows
        .iter()
        .zip(crate::stats::compare_family_apart(&cards))
        .map(|(r, (v, apart))| {
            let st = Standing {
                estimate: r.1.clone(),
                verdict: v,
                paired: r.5,
                card: true,
            };
            (r.0, st, apart)
        })
        .collect();
    (verdict, standings)
}

/// The formats an answer is written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Text,
    Markdown,
    BBCode,
    Json,
    Html,
}

impl Format {
    pub fn parse(s: &str) -> Result<Format, String> {
        Ok(match s {
            "text" | "terminal" => Format::Text,
            "md" | "markdown" => Format::Markdown,
            "bbcode" | "forum" => Format::BBCode,
            "json" => Format::Json,
            "html" => Format::Html,
            other => {
                return Err(format!(
                    "--format `{other}`: one of text, md, bbcode, json, html"
                ));
            }
        })
    }
}

/// A value as its unit shows it: `52.10%` or `3.25`.
fn show(unit: Unit, v: f64) -> String {
    match unit {
        Unit::Share => format!("{:.2}%", 100.0 * v),
        Unit::Points => format!("{:+.2} pt", 100.0 * v),
        Unit::Number => format!("{v:.2}"),
        Unit::Signed => format!("{v:+.2}"),
    }
}

/// An estimate's 95% interval, or "exact" for one exact by construction.
fn interval(unit: Unit, e: &Estimate) -> String {
    if e.exact {
        return "exact".into();
    }
    if e.lo == e.hi {
        return NO_SPREAD.into();
    }
    format!("[{}, {}]", show(unit, e.lo), show(unit, e.hi))
}

/// What stands for an interval where every observation was the same and nothing bounds the
/// value (issue 63: `[4.00, 4.00]` read as certainty): not exact, and no width to show.
pub const NO_SPREAD: &str = "all the same (no spread to measure)";

/// A section's rows as four cells (label, count, estimate, interval), the label passed through
/// the format's own escaping: every renderer lays out the same cells.
fn rows(sec: &Section, marked: &[String], label: impl Fn(&str) -> String) -> Vec<[String; 4]> {
    sec.estimates
        .iter()
        .map(|e| {
            [
                label(&mark(marked, &e.label)),
                thousands(e.count),
                show(sec.unit, e.value),
                interval(sec.unit, e),
            ]
        })
        .collect()
}

/// A label as shown in a table: the candidate's says so (issue 64: highlighted wherever it
/// appears).
fn mark(marked: &[String], label: &str) -> String {
    if marked.iter().any(|m| m == label) {
        format!("{label} (candidate)")
    } else {
        label.to_string()
    }
}

/// The verdict card as text lines (terminal), empty without one.
fn verdict_text(a: &Answer) -> String {
    let mut s = String::new();
    if !a.verdict.is_empty() {
        s.push_str(
            "
VERDICT
",
        );
        for v in &a.verdict {
            let _ = writeln!(s, "  {}", plain(v));
        }
    }
    s
}

/// Rows as aligned columns (terminal and forum `[code]` blocks), each line after `indent`.
fn aligned(rows: &[[String; 4]], indent: &str) -> String {
    let w = rows.iter().map(|r| r[0].chars().count()).max().unwrap_or(0);
    let mut s = String::new();
    for [l, n, v, i] in rows {
        let _ = writeln!(s, "{indent}{l:<w$}  {n:>12}  {v:>8}  {i}");
    }
    s
}

/// Renders an answer in `format`.
pub fn render(a: &Answer, format: Format) -> String {
    match format {
        Format::Text => text(a),
        Format::Markdown => markdown(a),
        Format::BBCode => bbcode(a),
        Format::Json => a.to_json(),
        Format::Html => html(a),
    }
}

fn text(a: &Answer) -> String {
    let mut s = format!("{}\n{}\n", plain(&a.title), plain(&a.provenance.command));
    s.push_str(&verdict_text(a));
    if !a.verdict.is_empty() {
        s.push('\n');
    }
    for (k, v) in &a.totals {
        let _ = writeln!(s, "  {}: {}", plain(k), plain(v));
    }
    s.push_str(&grids_text(a));
    s.push_str(&sections_text(a));
    s.push_str(&tail_text(a));
    s
}

/// The answer's grids with the candidate's rows marked as in [`mark`].
fn marked_grids(a: &Answer) -> Vec<Grid> {
    a.grids
        .iter()
        .map(|g| {
            let mut g = g.clone();
            for r in &mut g.rows {
                r.label = mark(&a.highlight, &r.label);
            }
            g
        })
        .collect()
}

fn grids_text(a: &Answer) -> String {
    let mut s = String::new();
    for g in &marked_grids(a) {
        let _ = writeln!(s, "\n{}   ({})", plain(&g.title), plain(&g.meaning));
        s.push_str(&g.aligned(""));
    }
    s
}

fn sections_text(a: &Answer) -> String {
    let mut s = String::new();
    for sec in &a.sections {
        let _ = writeln!(s, "\n{}   ({})", plain(&sec.title), plain(&sec.meaning));
        s.push_str(&aligned(
            &rows(sec, &a.highlight, |l| plain(l).into_owned()),
            "  ",
        ));
    }
    s
}

/// Heat maps and notes: the end of a text rendering.
fn tail_text(a: &Answer) -> String {
    let mut s = heatmaps_text(a);
    for n in &a.notes {
        let _ = writeln!(s, "\nnote: {}", plain(n));
    }
    s
}

fn heatmaps_text(a: &Answer) -> String {
    let mut s = String::new();
    for m in &a.heatmaps {
        let _ = writeln!(s, "\n{}   ({})", plain(&m.title), plain(&m.meaning));
        s.push_str(&super::escape::plain_lines(&m.text()));
    }
    s
}

/// What a command prints when it ends (issue 50: its summary is a rendering of its answer): the
/// grids where the answer has them, else every section; then heat maps, and the notes as lines
/// of their own (a candidate's standing, a stop's reason). The command line and totals are left
/// to the command's own head (how it ran); `skirmish report` shows everything.
pub fn brief(a: &Answer) -> String {
    let mut s = verdict_text(a);
    s.push_str(&if a.grids.is_empty() {
        sections_text(a)
    } else {
        grids_text(a)
    });
    s.push_str(&heatmaps_text(a));
    if !a.notes.is_empty() {
        s.push('\n');
    }
    for n in &a.notes {
        let _ = writeln!(s, "{}", plain(n));
    }
    s
}

/// Markdown's paragraphs and table cells: host-written text never read as markup (issue 62).
fn md_cell(s: &str) -> String {
    super::escape::markdown(s)
}

fn markdown(a: &Answer) -> String {
    let mut s = format!(
        "## {}\n\n{}\n\n",
        md_cell(&a.title),
        super::escape::markdown_code(&a.provenance.command)
    );
    if !a.verdict.is_empty() {
        s.push_str("> **Verdict**\n>\n");
        for v in &a.verdict {
            let _ = writeln!(s, "> - {}", md_cell(v));
        }
        s.push('\n');
    }
    for (k, v) in &a.totals {
        let _ = writeln!(s, "- {}: {}", md_cell(k), md_cell(v));
    }
    for g in &marked_grids(a) {
        let _ = writeln!(
            s,
            "\n### {}\n\n{}\n",
            md_cell(&g.title),
            md_cell(&g.meaning)
        );
        s.push_str(&g.markdown(md_cell));
    }
    for sec in &a.sections {
        let _ = writeln!(
            s,
            "\n### {}\n\n{}\n",
            md_cell(&sec.title),
            md_cell(&sec.meaning)
        );
        s.push_str("| | count | estimate | 95% interval |\n| --- | ---: | ---: | --- |\n");
        for [l, n, v, i] in rows(sec, &a.highlight, md_cell) {
            let _ = writeln!(s, "| {l} | {n} | {v} | {i} |");
        }
    }
    for m in &a.heatmaps {
        let _ = writeln!(
            s,
            "\n### {}\n\n{}\n",
            md_cell(&m.title),
            md_cell(&m.meaning)
        );
        s.push_str("| |");
        for c in &m.columns {
            let _ = write!(s, " {} |", md_cell(c));
        }
        s.push_str("\n| --- |");
        s.push_str(&" ---: |".repeat(m.columns.len()));
        s.push('\n');
        for (r, name) in m.rows.iter().enumerate() {
            let _ = write!(s, "| {} |", md_cell(name));
            for v in &m.values[r] {
                let _ = write!(s, " {} |", m.show(*v));
            }
            s.push('\n');
        }
    }
    for n in &a.notes {
        let _ = writeln!(s, "\n> {}", md_cell(n));
    }
    s
}

/// BBCode: forums differ in their table support, so each section is a `[code]` block of aligned
/// columns, which every forum shows as it is.
/// The most characters a forum post of an answer takes by default (issue 64: forums commonly
/// cap a post at 10,000 to 25,000; a Loot Arena report was 35,295).
pub const POST_LIMIT: usize = 10_000;

fn bbcode(a: &Answer) -> String {
    bbcode_post(
        a,
        Some(POST_LIMIT),
        "skirmish report FOLDER --format bbcode --full, or the folder's report.html",
    )
}

/// The answer as a forum post: the title, command and totals, then what it finds in words (its
/// notes: a candidate's verdict, what a what-if changed), then its tables in order as long as
/// the post stays within `limit` characters; the tables left out are named at the end, with
/// `everything` saying where they all are (`None`: everything).
pub fn bbcode_post(a: &Answer, limit: Option<usize>, everything: &str) -> String {
    let mut s = format!(
        "[b]{}[/b]\n[i]{}[/i]\n",
        bb(&a.title),
        bb(&a.provenance.command)
    );
    // The verdict is part of the head: never left out of a post.
    if !a.verdict.is_empty() {
        s.push_str("[quote][b]Verdict[/b]\n[list]\n");
        for v in &a.verdict {
            let _ = writeln!(s, "[*]{}", bb(v));
        }
        s.push_str("[/list][/quote]\n");
    }
    for (k, v) in &a.totals {
        let _ = writeln!(s, "{}: {}", bb(k), bb(v));
    }
    // Every block after the head, with its title (to name it when left out).
    let mut blocks: Vec<(String, String)> = Vec::new();
    for n in &a.notes {
        blocks.push(("a note".into(), format!("\n[i]{}[/i]\n", bb(n))));
    }
    for g in &marked_grids(a) {
        let mut b = format!("\n[b]{}[/b] ({})\n[code]\n", bb(&g.title), bb(&g.meaning));
        b.push_str(&super::escape::bbcode_lines(&g.aligned("")));
        b.push_str("[/code]\n");
        blocks.push((g.title.clone(), b));
    }
    for sec in &a.sections {
        let mut b = format!(
            "\n[b]{}[/b] ({})\n[code]\n",
            bb(&sec.title),
            bb(&sec.meaning)
        );
        b.push_str(&aligned(&rows(sec, &a.highlight, bb), ""));
        b.push_str("[/code]\n");
        blocks.push((sec.title.clone(), b));
    }
    for m in &a.heatmaps {
        let mut b = format!("\n[b]{}[/b] ({})\n[code]\n", bb(&m.title), bb(&m.meaning));
        b.push_str(&super::escape::bbcode_lines(&m.text()));
        b.push_str("[/code]\n");
        blocks.push((m.title.clone(), b));
    }
    // Room kept for the closing line that names what was left out.
    const CLOSING: usize = 600;
    let mut left_out: Vec<&str> = Vec::new();
    for (title, b) in &blocks {
        let fits = limit.is_none_or(|l| s.len() + b.len() + CLOSING <= l);
        if fits && left_out.is_empty() {
            s.push_str(b);
        } else {
            left_out.push(title);
        }
    }
    if !left_out.is_empty() {
        let notes = left_out.iter().filter(|t| **t == "a note").count();
        let tables: Vec<&str> = left_out
            .iter()
            .copied()
            .filter(|t| *t != "a note")
            .collect();
        let mut named = tables
            .iter()
            .take(4)
            .map(|t| bb(t))
            .collect::<Vec<_>>()
            .join("; ");
        if tables.len() > 4 {
            named.push_str(&format!("; and {} more", tables.len() - 4));
        }
        let _ = writeln!(
            s,
            "\n[i]Left out to fit a forum post: {}{}{}. Everything: {}.[/i]",
            if notes > 0 {
                format!("{notes} notes")
            } else {
                String::new()
            },
            if notes > 0 && !tables.is_empty() {
                "; "
            } else {
                ""
            },
            if tables.is_empty() {
                String::new()
            } else {
                format!("{} tables ({named})", tables.len())
            },
            bb(everything)
        );
    }
    s
}

/// Square brackets in text would read as tags; controls are shown escaped.
fn bb(s: &str) -> String {
    super::escape::bbcode(s)
}

fn esc(s: &str) -> String {
    html_escape::encode_text(&super::escape::plain(s)).into_owned()
}

fn esc_attr(s: &str) -> String {
    html_escape::encode_double_quoted_attribute(&super::escape::plain(s)).into_owned()
}

/// One self-contained page: no script, no network, readable on a phone.
fn html(a: &Answer) -> String {
    let mut s = String::from(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n",
    );
    let _ = writeln!(s, "<title>{}</title>", esc(&a.title));
    s.push_str(
        "<style>body{font-family:system-ui,sans-serif;max-width:60rem;margin:auto;padding:1rem;color:#222}\
code{background:#f3f3f3;padding:.1rem .3rem;word-break:break-all}\
table{border-collapse:collapse;margin:.5rem 0;display:block;max-width:100%;overflow-x:auto}td,th{padding:.2rem .6rem;border-bottom:1px solid #ddd;text-align:right}\
td:first-child,th:first-child{text-align:left}.chart{max-width:100%;overflow-x:auto}.chart svg.wide{max-width:100%;height:auto}.chart svg.narrow{display:none}@media (max-width:760px){.chart svg.wide{display:none}.chart svg.narrow{display:block;max-width:100%;height:auto}}.note{color:#8a4b00}\
.verdict{border-left:.3rem solid #d9822b;background:#fff6ec;padding:.3rem 1rem;margin:1rem 0}\
.verdict li{margin:.3rem 0}tr.you td{font-weight:bold;background:#fff6ec}\
h1,h2,h3,p,li{overflow-wrap:anywhere}</style>\n</head><body>\n",
    );
    let _ = writeln!(s, "<h1>{}</h1>", esc(&a.title));
    let _ = writeln!(s, "<p><code>{}</code></p>", esc(&a.provenance.command));
    if !a.verdict.is_empty() {
        s.push_str("<div class=\"verdict\"><h2>Verdict</h2><ul>\n");
        for v in &a.verdict {
            let _ = writeln!(s, "<li>{}</li>", esc(v));
        }
        s.push_str("</ul></div>\n");
    }
    s.push_str("<ul>\n");
    for (k, v) in &a.totals {
        let _ = writeln!(s, "<li>{}: {}</li>", esc(k), esc(v));
    }
    let _ = writeln!(
        s,
        "<li>skirmish {}, seed {}</li>",
        esc(&a.provenance.version),
        a.provenance.seed
    );
    s.push_str("</ul>\n");
    for n in &a.notes {
        let _ = writeln!(s, "<p class=\"note\">{}</p>", esc(n));
    }
    for g in &marked_grids(a) {
        let _ = writeln!(s, "<h2>{}</h2>\n<p>{}</p>", esc(&g.title), esc(&g.meaning));
        s.push_str(&g.html(esc));
    }
    for sec in &a.sections {
        let _ = writeln!(
            s,
            "<h2>{}</h2>\n<p>{}</p>",
            esc(&sec.title),
            esc(&sec.meaning)
        );
        // Two drawings, the page's style showing one: the wide one scaled to the column on a
        // desktop (issue 80: drawn wider than the column), the narrow one, labels over bars, on
        // a phone (scaled down to a phone the wide one's text was under 7 px, issue 64).
        let _ = writeln!(
            s,
            "<div class=\"chart\">{}{}</div>",
            bars_marked(sec, &a.highlight, Layout::Wide),
            bars_marked(sec, &a.highlight, Layout::Narrow)
        );
        s.push_str(
            "<table><tr><th></th><th>count</th><th>estimate</th><th>95% interval</th></tr>\n",
        );
        for (e, [l, n, v, i]) in sec.estimates.iter().zip(rows(sec, &a.highlight, esc)) {
            let you = if a.highlight.contains(&e.label) {
                " class=\"you\""
            } else {
                ""
            };
            let _ = writeln!(
                s,
                "<tr{you}><td>{l}</td><td>{n}</td><td>{v}</td><td>{i}</td></tr>"
            );
        }
        s.push_str("</table>\n");
    }
    for m in &a.heatmaps {
        let _ = writeln!(s, "<h2>{}</h2>\n<p>{}</p>", esc(&m.title), esc(&m.meaning));
        let _ = writeln!(s, "<div class=\"chart\">{}</div>", m.svg());
    }
    if !a.provenance.inputs.is_empty() {
        s.push_str("<h2>Inputs</h2>\n<table><tr><th>file</th><th>SHA-256</th></tr>\n");
        for (f, d) in &a.provenance.inputs {
            let _ = writeln!(
                s,
                "<tr><td>{}</td><td><code>{}</code></td></tr>",
                esc(f),
                esc(d)
            );
        }
        s.push_str("</table>\n");
    }
    s.push_str("</body></html>\n");
    s
}

/// A horizontal bar chart with 95% intervals as inline SVG. Written here rather than with
/// plotters: its chart layout measures text through a font backend, which its SVG backend
/// without default features does not have, and these bars need none.
pub fn bars_svg(sec: &Section) -> String {
    bars_marked(sec, &[], Layout::Figure)
}

/// How a bar chart is drawn: a figure for the docs, or one of a report's two drawings.
#[derive(Clone, Copy, PartialEq)]
enum Layout {
    Figure,
    Wide,
    Narrow,
}

/// Most characters of a label on a phone's chart (its full words are in the bar's title and the
/// table below): about 330 px of 12 px text.
const NARROW_LABEL: usize = 44;

/// [`bars_svg`] with the bars of `marked` labels drawn in another colour (the candidate's).
/// `narrow`: for a phone (issue 80: at 390 px the wide chart showed only its labels), each
/// label on its own line above its bar, scaled to the column.
fn bars_marked(sec: &Section, marked: &[String], layout: Layout) -> String {
    let narrow = layout == Layout::Narrow;
    // The label column as wide as the longest label needs (about 6.6 px a character at 12 px,
    // issue 64: long labels were cut at the left edge), at least the 190 px it always had.
    let longest = sec
        .estimates
        .iter()
        .map(|e| mark(marked, &e.label).chars().count())
        .max()
        .unwrap_or(0) as f64;
    let label_w = if narrow {
        0.0
    } else {
        (6.6 * longest + 12.0).max(190.0)
    };
    let (bar_w, row_h, pad) = if narrow {
        (220.0, 36.0, 8.0)
    } else {
        (420.0, 22.0, 8.0)
    };
    // A narrow row's bar sits under its label.
    let bar_top = if narrow { 16.0 } else { 0.0 };
    let n = sec.estimates.len().max(1) as f64;
    let (w, h) = (label_w + bar_w + 90.0, pad * 2.0 + row_h * n + 18.0);
    // A phone's labels run over the bars: the drawing is at least as wide as the longest.
    let w = if narrow {
        w.max(7.6 * longest.min(NARROW_LABEL as f64) + 8.0)
    } else {
        w
    };
    // The scale holds every interval and the band, when there is one.
    let band = sec
        .band
        .filter(|(a, b)| a.is_finite() && b.is_finite() && a <= b);
    let top = sec
        .estimates
        .iter()
        .map(|e| e.hi.max(e.value))
        .chain(band.map(|b| b.1))
        .filter(|v| v.is_finite())
        .fold(0.0f64, f64::max);
    let low = sec
        .estimates
        .iter()
        .map(|e| e.lo.min(e.value))
        .chain(band.map(|b| b.0))
        .filter(|v| v.is_finite())
        .fold(0.0f64, f64::min);
    let span = if top - low > 0.0 { top - low } else { 1.0 };
    // Room left of the bars for the value of one that goes left.
    let lead = if low < 0.0 { 64.0 } else { 0.0 };
    let w = w + lead;
    let x = |v: f64| label_w + lead + bar_w * ((v - low) / span).clamp(0.0, 1.0);
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\"{} viewBox=\"0 0 {w:.0} {h:.0}\" width=\"{w:.0}\" height=\"{h:.0}\" role=\"img\" aria-label=\"{}\">\n",
        match layout {
            Layout::Figure => "",
            Layout::Wide => " class=\"wide\"",
            Layout::Narrow => " class=\"narrow\"",
        },
        esc_attr(&sec.title)
    );
    if let Some((a, b)) = band {
        // What counts as met, shaded behind the bars (a balance's response).
        let _ = writeln!(
            s,
            "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{:.1}\" fill=\"#dcefdc\"><title>target: {} to {}</title></rect>",
            x(a),
            pad,
            (x(b) - x(a)).max(1.0),
            h - 18.0 - pad,
            show(sec.unit, a),
            show(sec.unit, b)
        );
    }
    let _ = writeln!(
        s,
        "<line x1=\"{0:.1}\" y1=\"{1:.1}\" x2=\"{0:.1}\" y2=\"{2:.1}\" stroke=\"#999\"/>",
        x(0.0),
        pad,
        h - 18.0
    );
    for (k, e) in sec.estimates.iter().enumerate() {
        let y = pad + row_h * k as f64;
        let label = mark(marked, &e.label);
        let label = if narrow && label.chars().count() > NARROW_LABEL {
            let cut: String = label.chars().take(NARROW_LABEL - 1).collect();
            format!("{cut}\u{2026}")
        } else {
            label
        };
        // The label's anchor: right of its column, or over its bar on a phone.
        let (label_x, label_y, anchor) = if narrow {
            (2.0, y + 12.0, "start")
        } else {
            (label_w - 6.0, y + row_h * 0.68, "end")
        };
        let (bar_y, bar_h) = if narrow {
            (y + bar_top, row_h - bar_top - 6.0)
        } else {
            (y + 4.0, row_h - 8.0)
        };
        let mid = bar_y + bar_h / 2.0;
        let v = if e.value.is_finite() { e.value } else { 0.0 };
        let (x0, x1) = (x(0.0).min(x(v)), x(0.0).max(x(v)));
        let _ = writeln!(
            s,
            "<g><title>{}: {} {}</title>\
<text x=\"{:.1}\" y=\"{:.1}\" font-size=\"12\" text-anchor=\"{}\">{}</text>\
<rect x=\"{x0:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{:.1}\" fill=\"{}\"/>\
<line x1=\"{:.1}\" y1=\"{:.1}\" x2=\"{:.1}\" y2=\"{:.1}\" stroke=\"#222\" stroke-width=\"1.5\"/>\
<text x=\"{:.1}\" y=\"{:.1}\" font-size=\"11\"{}>{}</text></g>",
            esc(&e.label),
            show(sec.unit, e.value),
            interval(sec.unit, e),
            label_x,
            label_y,
            anchor,
            esc(&label),
            bar_y,
            (x1 - x0).max(0.5),
            bar_h,
            if marked.contains(&e.label) {
                "#d9822b"
            } else {
                "#4a7fb5"
            },
            x(e.lo),
            mid,
            x(e.hi),
            mid,
            // A value beside its bar's outer end: right of a bar that goes right, left of one
            // that goes left (it read over the bar).
            if v < 0.0 {
                x(e.lo.min(v)) - 4.0
            } else {
                x(e.hi.max(v)) + 4.0
            },
            mid + 4.0,
            if v < 0.0 { " text-anchor=\"end\"" } else { "" },
            show(sec.unit, e.value)
        );
    }
    let _ = writeln!(
        s,
        "<text x=\"{:.1}\" y=\"{:.1}\" font-size=\"11\">{}</text><text x=\"{:.1}\" y=\"{:.1}\" font-size=\"11\" text-anchor=\"end\">{}</text>",
        label_w + lead,
        h - 4.0,
        show(sec.unit, low),
        label_w + lead + bar_w,
        h - 4.0,
        show(sec.unit, top)
    );
    s.push_str("</svg>\n");
    s
}

/// B - A and the half-width of its 95% interval, unpaired (each run's interval read as a normal
/// one): conservative for runs of one seed, whose estimates move together.
fn gap(ea: &Estimate, eb: &Estimate) -> (f64, f64) {
    let se = |e: &Estimate| (e.hi - e.lo) / (2.0 * Z95);
    (
        eb.value - ea.value,
        Z95 * (se(ea).powi(2) + se(eb).powi(2)).sqrt(),
    )
}

/// Fewest parts two runs must share to be paired: below it the t quantile of so few degrees of
/// freedom makes a paired interval wider than the unpaired one it would replace.
pub const MIN_PAIRED_PARTS: usize = 10;

/// Paired differences of two dataset runs that played the same match seeds in the same parts
/// (common random numbers): for each estimate, B - A and the half-width of its 95% interval,
/// keyed by section title and label. Each part is a batch of whole matches, independent of the
/// others, and holds the same matches in both runs, so the interval comes from the spread of the
/// parts' paired differences (a ratio estimator's linearisation: the parts may hold different
/// numbers of trials) with a t quantile of `parts - 1` degrees of freedom.
#[derive(Clone, Debug, PartialEq)]
pub struct Pairing {
    pub parts: usize,
    pub by: BTreeMap<(String, String), (f64, f64)>,
    /// Each difference's degrees of freedom (the parts it moved in, less one): what its test's
    /// p-value takes, as its interval's quantile did. Absent: exact (no spread measured).
    pub df: BTreeMap<(String, String), usize>,
    /// Estimates held in fewer than [`MIN_PAIRED_PARTS`] parts: compared unpaired.
    pub thin: usize,
    /// Whether no estimate moved in any part: the two runs agree match for match (a rules
    /// number the command never reads).
    pub identical: bool,
}

impl Pairing {
    /// The two runs' parts as `(first match, matches, tally)`; `None` when they do not hold the
    /// same matches part for part, or share too few parts to pair.
    pub fn of(a: &[(u64, u64, &Tally)], b: &[(u64, u64, &Tally)]) -> Option<Pairing> {
        let keys = |x: &[(u64, u64, &Tally)]| x.iter().map(|p| (p.0, p.1)).collect::<Vec<_>>();
        if keys(a) != keys(b) || a.len() < MIN_PAIRED_PARTS {
            return None;
        }
        let (ra, mut rb): (Vec<_>, Vec<_>) = a
            .iter()
            .zip(b)
            .map(|(x, y)| (ratios(x.2), ratios(y.2)))
            .unzip();
        // An estimate whose label's note moved with the change is the same estimate: B's
        // entries are keyed as A names it.
        let renamed = by_stem(
            ra.iter().flat_map(|m| m.keys()),
            rb.iter().flat_map(|m| m.keys()),
        );
        if !renamed.is_empty() {
            for m in &mut rb {
                for (kb, ka) in &renamed {
                    if let Some(v) = m.remove(kb) {
                        m.insert(ka.clone(), v);
                    }
                }
            }
        }
        let mut labels: Vec<&(String, String)> =
            ra.iter().chain(&rb).flat_map(|m| m.keys()).collect();
        labels.sort();
        labels.dedup();
        let (mut by, mut thin, mut identical) = (BTreeMap::new(), 0, true);
        let mut dfs = BTreeMap::new();
        let mut unmoved = Vec::new();
        for key in labels {
            let get = |r: &Ratios| r.get(key).copied().unwrap_or((0.0, 0.0));
            // The parts that hold the estimate: a budget or a rare label lives in some parts
            // only, and the parts without it are no samples of it.
            let held: Vec<PartPair> = ra
                .iter()
                .zip(&rb)
                .map(|(x, y)| (get(x), get(y)))
                .filter(|(x, y)| x.1 > 0.0 || y.1 > 0.0)
                .collect();
            let k = held.len();
            // A difference that moves in only a few parts (a rare event the change reaches now
            // and then) has a spread measured on those parts alone: its t quantile takes their
            // degrees of freedom (20 parts with 3 moved read as 41% coverage in `calibrate`,
            // issue 63); with none or one moved, nothing is measured and it is compared unpaired.
            let moved = held.iter().filter(|(x, y)| x != y).count();
            identical &= moved == 0;
            if moved == 0 {
                unmoved.push(key.clone());
            }
            if k < MIN_PAIRED_PARTS || moved < 2 {
                thin += 1;
                continue;
            }
            let Some((va, vb, ss)) = linearised(&held) else {
                thin += 1;
                continue;
            };
            let df = moved.min(k) - 1;
            let half = t975(df) * (ss / (k * (k - 1)) as f64).sqrt();
            by.insert(key.clone(), (vb - va, half));
            dfs.insert(key.clone(), df);
        }
        // Runs that agree match for match in every estimate differ by exactly nothing: the
        // change is one the command never reads (or no change at all), exact by construction.
        if identical {
            for key in unmoved {
                by.insert(key, (0.0, 0.0));
            }
            thin = 0;
        }
        Some(Pairing {
            parts: a.len(),
            by,
            df: dfs,
            thin,
            identical,
        })
    }
}

/// The file an analysis that keeps no parts (its folder holds one sum over every match) writes
/// so that a what-if of it still pairs (issue 63): [`Replicates`], sealed.
pub const REPLICATES: &str = "replicates.json";

/// An analysis's estimates split over fixed groups of its matches (match `i` in group
/// `i % groups`), each group's part of the estimate's deviation from its value by the delta
/// method (the gradient at the run's estimate times the group's centred sums, over the run's
/// matches). Two runs of one seed hold the same matches in each group (the groups of the longer
/// run hold more), and groups are independent, so the spread of the groups' paired differences
/// is the variance of B - A ([`Pairing::of_replicates`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Replicates {
    pub source: String,
    pub seed: u64,
    pub groups: usize,
    /// (section title, label, value, each group's part).
    pub by: Vec<(String, String, f64, Vec<f64>)>,
}

impl Replicates {
    /// The delete-a-group jackknife (issue 63): `without[g]` is the same analysis's answer from
    /// its sums less group g; each estimate's part in group g is (G - 1) / G x (value - the value
    /// without g), so that the spread of two runs' paired parts is the jackknife variance of
    /// their difference. Estimates exact, not finite or absent from a replicate are left out.
    pub fn jackknife(whole: &Answer, without: &[Answer]) -> Option<Replicates> {
        let g = without.len();
        if g < MIN_PAIRED_PARTS {
            return None;
        }
        let scale = (g - 1) as f64 / g as f64;
        let mut by = Vec::new();
        for sec in &whole.sections {
            for e in sec
                .estimates
                .iter()
                .filter(|e| !e.exact && e.value.is_finite())
            {
                let parts: Option<Vec<f64>> = without
                    .iter()
                    .map(|a| {
                        let s = a.sections.iter().find(|s| s.title == sec.title)?;
                        let x = s.estimates.iter().find(|x| x.label == e.label)?.value;
                        x.is_finite().then_some(scale * (e.value - x))
                    })
                    .collect();
                if let Some(parts) = parts {
                    by.push((sec.title.clone(), e.label.clone(), e.value, parts));
                }
            }
        }
        Some(Replicates {
            source: whole.provenance.source.clone(),
            seed: whole.provenance.seed,
            groups: g,
            by,
        })
    }
}

impl Pairing {
    /// The half-width of the difference keyed `key`'s interval at two-sided level `alpha` (its
    /// 95% one at 0.05), from the same t; an exact difference keeps none. `None` when the
    /// estimate was not paired.
    pub fn half_width_at(&self, key: &(String, String), alpha: f64) -> Option<f64> {
        let &(_, half) = self.by.get(key)?;
        Some(match self.df.get(key) {
            _ if half <= 0.0 => half,
            Some(&df) => half / t975(df) * crate::stats::t_two_sided_quantile(alpha, df as f64),
            None => half / Z95 * crate::stats::t_two_sided_quantile(alpha, f64::INFINITY),
        })
    }

    /// The two-sided p-value of the difference keyed `key` being nothing, from the same t its
    /// interval's quantile took (issue 80: a normal p-value after a t-based interval is exact at
    /// 5% and several times too small in the far tail a family's test reaches); `None` when the
    /// estimate was not paired. An exact difference (no spread): 0 when it moved, else 1.
    pub fn p_value(&self, key: &(String, String)) -> Option<f64> {
        let &(d, half) = self.by.get(key)?;
        Some(match self.df.get(key) {
            Some(&df) if half > 0.0 => crate::stats::t_two_sided_p(d * t975(df) / half, df as f64),
            _ if d != 0.0 => 0.0,
            _ => 1.0,
        })
    }

    /// Two analyses' [`Replicates`] paired group by group; `None` when they are not of one
    /// command and seed, or hold too few groups.
    pub fn of_replicates(a: &Replicates, b: &Replicates) -> Option<Pairing> {
        let g = a.groups;
        if a.source != b.source || a.seed != b.seed || g != b.groups || g < MIN_PAIRED_PARTS {
            return None;
        }
        let index: BTreeMap<(&str, &str), (f64, &[f64])> =
            a.by.iter()
                .map(|(t, l, v, z)| ((t.as_str(), l.as_str()), (*v, z.as_slice())))
                .collect();
        let (mut by, mut thin, mut identical) = (BTreeMap::new(), 0, true);
        let mut dfs = BTreeMap::new();
        let mut unmoved = Vec::new();
        for (t, l, vb, zb) in &b.by {
            let Some(&(va, za)) = index.get(&(t.as_str(), l.as_str())) else {
                continue;
            };
            if za.len() != g || zb.len() != g {
                thin += 1;
                continue;
            }
            let u: Vec<f64> = za.iter().zip(zb).map(|(x, y)| y - x).collect();
            let moved = u.iter().filter(|x| **x != 0.0).count();
            let same = moved == 0 && va == *vb;
            identical &= same;
            if same {
                unmoved.push((t.clone(), l.clone()));
            }
            if moved < 2 || !u.iter().all(|x| x.is_finite()) {
                thin += 1;
                continue;
            }
            let mean = u.iter().sum::<f64>() / g as f64;
            let ss: f64 = u.iter().map(|x| (x - mean).powi(2)).sum();
            // The variance of a sum of g independent groups' parts, from their spread.
            let df = moved.min(g) - 1;
            let half = t975(df) * (ss * g as f64 / (g - 1) as f64).sqrt();
            by.insert((t.clone(), l.clone()), (vb - va, half));
            dfs.insert((t.clone(), l.clone()), df);
        }
        if identical {
            for key in unmoved {
                by.insert(key, (0.0, 0.0));
            }
            thin = 0;
        }
        Some(Pairing {
            parts: g,
            by,
            df: dfs,
            thin,
            identical,
        })
    }
}

/// The 0.975 quantile of Student's t with `df` degrees of freedom: the table to 30, then the
/// Cornish-Fisher expansion around the normal one (within 0.001 from 30 on).
fn t975(df: usize) -> f64 {
    const T: [f64; 30] = [
        12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160,
        2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056,
        2.052, 2.048, 2.045, 2.042,
    ];
    if (1..=30).contains(&df) {
        return T[df - 1];
    }
    let (z, v) = (Z95, df.max(1) as f64);
    z + (z.powi(3) + z) / (4.0 * v)
        + (5.0 * z.powi(5) + 16.0 * z.powi(3) + 3.0 * z) / (96.0 * v * v)
}

/// Numerator and denominator of each estimate, by section title and label.
type Ratios = BTreeMap<(String, String), (f64, f64)>;

/// A label less its note in parentheses (`underworld (3 points)` -> `underworld`): what matches
/// one estimate across two runs whose note moved with the change (issue 80: such an estimate,
/// often the very one that moved, was dropped from `diff`, what-ifs and `sensitivity`).
pub fn label_stem(label: &str) -> &str {
    label.split_once(" (").map_or(label, |(s, _)| s)
}

/// The estimates only one run holds, matched by title and [`label_stem`]: B's key -> A's key,
/// for each stem that exactly one unmatched label of each run has.
fn by_stem<'k>(
    a: impl IntoIterator<Item = &'k (String, String)>,
    b: impl IntoIterator<Item = &'k (String, String)>,
) -> BTreeMap<(String, String), (String, String)> {
    let a: std::collections::BTreeSet<&(String, String)> = a.into_iter().collect();
    let b: std::collections::BTreeSet<&(String, String)> = b.into_iter().collect();
    let stems = |only: Vec<&&(String, String)>| {
        let mut m: BTreeMap<(String, String), Vec<(String, String)>> = BTreeMap::new();
        for k in only {
            m.entry((k.0.clone(), label_stem(&k.1).to_string()))
                .or_default()
                .push((*k).clone());
        }
        m
    };
    let (sa, sb) = (
        stems(a.difference(&b).collect()),
        stems(b.difference(&a).collect()),
    );
    sb.into_iter()
        .filter_map(
            |(stem, kb)| match (sa.get(&stem).map(Vec::as_slice), kb.as_slice()) {
                (Some([ka]), [kb]) => Some((kb.clone(), ka.clone())),
                _ => None,
            },
        )
        .collect()
}

/// Every estimate a dataset answer holds from one tally, as the numerator and denominator whose
/// ratio it is (wins and trials; a mean's sum and count, halved for win points), keyed as
/// [`Answer::from_dataset`] titles and labels them.
fn ratios(t: &Tally) -> Ratios {
    let mut out = BTreeMap::new();
    for (group, labels) in &t.groups {
        for (label, c) in labels {
            out.insert(
                (count_title(group), label.clone()),
                (c.wins as f64, c.trials as f64),
            );
        }
    }
    for (group, labels) in &t.means {
        let scale = if group.starts_with(crate::platform::tally::WIN_POINTS) {
            0.5
        } else {
            1.0
        };
        for (label, m) in labels {
            out.insert(
                (group.clone(), label.clone()),
                (scale * m.sum as f64, m.n as f64),
            );
        }
    }
    out
}

/// One part's numerator and denominator of two estimates (A's, B's).
type PartPair = ((f64, f64), (f64, f64));

/// Two ratio estimates `A = sum num / sum den` and `B` over the same parts (`(A's, B's)`
/// numerator and denominator in each part), and the sum of squares of the parts' linearised
/// differences B - A (the ratio estimator's delta method); `None` when either has no denominator.
fn linearised(held: &[PartPair]) -> Option<(f64, f64, f64)> {
    let k = held.len() as f64;
    let (na, da, nb, db) = held.iter().fold((0.0, 0.0, 0.0, 0.0), |s, (x, y)| {
        (s.0 + x.0, s.1 + x.1, s.2 + y.0, s.3 + y.1)
    });
    if da == 0.0 || db == 0.0 {
        return None;
    }
    let (va, vb, ma, mb) = (na / da, nb / db, da / k, db / k);
    let ss = held
        .iter()
        .map(|(x, y)| ((y.0 - vb * y.1) / mb - (x.0 - va * x.1) / ma).powi(2))
        .sum();
    Some((va, vb, ss))
}

/// The variance of the difference between two estimates of one section (labels `a` and `b`) of
/// one run, from its parts' sums, each part a batch of whole matches: the ratio estimator's
/// linearisation, with its degrees of freedom (the parts holding either, less one), which the
/// test reads through the t (issue 80). `None` with fewer
/// than [`MIN_PAIRED_PARTS`] parts holding either, or no spread.
fn difference_variance(parts: &[Ratios], title: &str, a: &str, b: &str) -> Option<(f64, f64)> {
    let (ka, kb) = (
        (title.to_string(), a.to_string()),
        (title.to_string(), b.to_string()),
    );
    let held: Vec<PartPair> = parts
        .iter()
        .map(|r| {
            (
                r.get(&ka).copied().unwrap_or((0.0, 0.0)),
                r.get(&kb).copied().unwrap_or((0.0, 0.0)),
            )
        })
        .filter(|(x, y)| x.1 > 0.0 || y.1 > 0.0)
        .collect();
    let k = held.len();
    if k < MIN_PAIRED_PARTS {
        return None;
    }
    let (_, _, ss) = linearised(&held)?;
    // The variance itself and its degrees of freedom: the test reads it through the t.
    let var = ss / (k * (k - 1)) as f64;
    (var > 0.0).then_some((var, (k - 1) as f64))
}

/// The section title of a group of win counts: a `share of` group by its own name, `wins by
/// policy` as "win rate by policy" (issue 64: it read "win rate by wins by policy").
fn count_title(group: &str) -> String {
    if group.starts_with(crate::platform::tally::SHARE_OF) {
        group.to_string()
    } else if let Some(rest) = group.strip_prefix("wins ") {
        format!("win rate {rest}")
    } else {
        format!("win rate by {group}")
    }
}

/// B - A with its interval's half-width: paired where the pairing has the estimate, else unpaired.
fn gap_in(pairing: Option<&Pairing>, title: &str, ea: &Estimate, eb: &Estimate) -> (f64, f64) {
    pairing
        .and_then(|p| p.by.get(&(title.to_string(), ea.label.clone())).copied())
        .unwrap_or_else(|| gap(ea, eb))
}

/// A's label -> B's, for the estimates of two sections of one title that only their stems
/// match (issue 80).
fn stem_pairs(sa: &Section, sb: &Section) -> BTreeMap<String, String> {
    let keys = |sec: &Section| -> Vec<(String, String)> {
        sec.estimates
            .iter()
            .map(|e| (sec.title.clone(), e.label.clone()))
            .collect()
    };
    by_stem(&keys(sa), &keys(sb))
        .into_iter()
        .map(|(b, a)| (a.1, b.1))
        .collect()
}

/// B's estimate of A's `ea` in `sb` (by its label, else by its stem) and the difference's label.
fn match_in<'a>(
    ea: &'a Estimate,
    sb: &'a Section,
    stem: &BTreeMap<String, String>,
) -> Option<(&'a Estimate, &'a Estimate, String)> {
    if let Some(eb) = sb.estimates.iter().find(|x| x.label == ea.label) {
        return Some((ea, eb, ea.label.clone()));
    }
    let lb = stem.get(&ea.label)?;
    let eb = sb.estimates.iter().find(|x| &x.label == lb)?;
    Some((ea, eb, moved_label(&ea.label, lb)))
}

/// The label of a difference between two estimates matched by their stem: `underworld (2
/// points -> 3 points)`.
fn moved_label(a: &str, b: &str) -> String {
    let note = |l: &str| {
        l.split_once(" (")
            .map_or(String::new(), |(_, n)| n.trim_end_matches(')').to_string())
    };
    format!("{} ({} -> {})", label_stem(a), note(a), note(b))
}

/// How a comparison's intervals were found, for its notes and its header.
fn pairing_told(a: &Answer, b: &Answer, pairing: Option<&Pairing>) -> String {
    match pairing {
        Some(p) => format!(
            "paired: both runs played the same match seeds in the same {} parts (common random numbers); each interval is from the parts' paired differences{}",
            p.parts,
            if p.thin > 0 {
                format!(
                    " ({} estimates held in fewer than {MIN_PAIRED_PARTS} parts, or moved in fewer than 2, are compared unpaired)",
                    p.thin
                )
            } else {
                String::new()
            }
        ),
        None if a.provenance.seed == b.provenance.seed => format!(
            "unpaired (conservative: wider than the pairing warrants): the runs share their match seeds but not {MIN_PAIRED_PARTS} or more parts of the same matches (two dataset folders pair when both have a --chunk-size that splits them into {MIN_PAIRED_PARTS} or more parts)"
        ),
        None => "unpaired: the runs played different seeds".to_string(),
    }
}

/// [`pairing_told`] in a few words, for the top of an answer.
fn pairing_short(a: &Answer, b: &Answer, pairing: Option<&Pairing>) -> String {
    match pairing {
        Some(p) if p.identical => format!(
            "exact: the two runs gave the same results in each of {} parts of the same matches, so every difference is exactly 0",
            p.parts
        ),
        Some(p) if p.thin > 0 => format!(
            "paired over {} parts of the same matches ({} estimates moved in too few parts: unpaired)",
            p.parts, p.thin
        ),
        Some(p) => format!("paired over {} parts of the same matches", p.parts),
        None if a.provenance.seed == b.provenance.seed => format!(
            "UNPAIRED, so wider than they need be: the runs share their seeds but not {MIN_PAIRED_PARTS} or more parts of the same matches (a dataset command pairs with a --chunk-size that makes {MIN_PAIRED_PARTS} parts or more; an analysis's folder keeps no parts to pair)"
        ),
        None => "unpaired: the runs played different seeds".into(),
    }
}

/// A what-if as an answer of its own (issue 51, `--versus-rules`): every estimate both runs give,
/// as B - A with its 95% interval, the settings that differ as notes. Renders, stores and
/// reproduces like any answer.
pub fn difference(a: &Answer, b: &Answer, pairing: Option<&Pairing>) -> Result<Answer, String> {
    if a.provenance.source != b.provenance.source {
        return Err(format!(
            "`{}` and `{}` answer different commands; a what-if compares two runs of one command",
            a.provenance.source, b.provenance.source
        ));
    }
    // What changed, in a rules file's words, opens the answer (issue 64).
    let changed = settings_diff(&a.provenance.settings, &b.provenance.settings, "");
    let mut notes = vec![pairing_told(a, b, pairing)];
    // An estimate given without an interval (a ratio of totals) has no unpaired difference's
    // either; paired, its parts give it one.
    let bare = |title: &str, e: &Estimate| {
        let paired =
            pairing.is_some_and(|p| p.by.contains_key(&(title.to_string(), e.label.clone())));
        e.hi - e.lo == 0.0 && e.value != 0.0 && !paired
    };
    let mut without = Vec::new();
    let sections = a
        .sections
        .iter()
        .filter_map(|sa| {
            let sb = b.sections.iter().find(|x| x.title == sa.title)?;
            if sa
                .estimates
                .iter()
                .chain(&sb.estimates)
                .any(|e| bare(&sa.title, e))
            {
                without.push(sa.title.clone());
                return None;
            }
            let stem = stem_pairs(sa, sb);
            let estimates: Vec<Estimate> = sa
                .estimates
                .iter()
                .filter_map(|ea| {
                    let (ea, eb, label) = match_in(ea, sb, &stem)?;
                    let (d, half) = gap_in(pairing, &sa.title, ea, eb);
                    Some(Estimate {
                        label,
                        value: d,
                        lo: d - half,
                        hi: d + half,
                        count: ea.count.min(eb.count),
                        // Both exact, or the runs agree match for match: so is the difference.
                        exact: (ea.exact && eb.exact)
                            || (half == 0.0 && pairing.is_some_and(|p| p.identical)),
                    })
                })
                .collect();
            (!estimates.is_empty()).then(|| Section {
                band: None,
                title: format!("what-if: {}", sa.title),
                meaning: format!(
                    "B minus A, with the difference's 95% interval (each run's: {})",
                    sa.meaning
                ),
                unit: if sa.unit == Unit::Share {
                    Unit::Points
                } else {
                    sa.unit
                },
                estimates,
            })
        })
        .collect();
    if !without.is_empty() {
        notes.push(format!(
            "left out, as their estimates carry no interval: {}",
            without.join(", ")
        ));
    }
    Ok(Answer {
        verdict: Vec::new(),
        highlight: Vec::new(),
        outcome: None,
        apart: Vec::new(),
        title: format!("what-if, B - A: {}", a.title),
        provenance: Provenance {
            command: b.provenance.command.clone(),
            source: format!("{}-what-if", a.provenance.source),
            version: b.provenance.version.clone(),
            seed: b.provenance.seed,
            matches: b.provenance.matches,
            played: a.provenance.played.min(b.provenance.played),
            settings: serde_json::json!({"a": a.provenance.settings, "b": b.provenance.settings}),
            inputs: a
                .provenance
                .inputs
                .iter()
                .chain(&b.provenance.inputs)
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect(),
        },
        // Whether the intervals kept their pairing, first (issue 63: it was the last line).
        totals: vec![
            (
                "changed".into(),
                if changed.is_empty() {
                    "nothing in the settings (the two runs differ only in their inputs' files or seeds)".into()
                } else {
                    changed.join("; ")
                },
            ),
            ("intervals".into(), pairing_short(a, b, pairing)),
            ("A".into(), a.provenance.command.clone()),
            ("B".into(), b.provenance.command.clone()),
        ],
        sections,
        tables: Vec::new(),
        notes,
        heatmaps: Vec::new(),
        grids: Vec::new(),
    })
}

/// `skirmish diff A B`: every estimate of both runs side by side with B - A and its 95% interval,
/// paired where `pairing` has it, the settings that differ at the top.
pub fn diff(a: &Answer, b: &Answer, pairing: Option<&Pairing>) -> Result<String, String> {
    if a.provenance.source != b.provenance.source {
        return Err(format!(
            "diff: `{}` and `{}` answer different commands; compare two runs of one command",
            a.provenance.source, b.provenance.source
        ));
    }
    let mut s = format!("A: {}\nB: {}\n", a.provenance.command, b.provenance.command);
    let changed = settings_diff(&a.provenance.settings, &b.provenance.settings, "");
    if changed.is_empty() && a.provenance.seed == b.provenance.seed {
        s.push_str("settings: the same, and the same seed\n");
    } else {
        s.push_str("settings that differ:\n");
        if a.provenance.seed != b.provenance.seed {
            let _ = writeln!(s, "  seed: {} -> {}", a.provenance.seed, b.provenance.seed);
        }
        for c in changed {
            let _ = writeln!(s, "  {c}");
        }
    }
    let _ = writeln!(
        s,
        "differences B - A with 95% intervals, {}",
        pairing_told(a, b, pairing)
    );
    for sa in &a.sections {
        let Some(sb) = b.sections.iter().find(|x| x.title == sa.title) else {
            continue;
        };
        let _ = writeln!(s, "\n{}", sa.title);
        let stem = stem_pairs(sa, sb);
        let matched: Vec<(&Estimate, &Estimate, String)> = sa
            .estimates
            .iter()
            .filter_map(|ea| match_in(ea, sb, &stem))
            .collect();
        let w = matched.iter().map(|m| m.2.len()).max().unwrap_or(0);
        for (ea, eb, label) in matched {
            let (d, half) = gap_in(pairing, &sa.title, ea, eb);
            let moved = if (d - half) > 0.0 || (d + half) < 0.0 {
                "  *"
            } else {
                ""
            };
            let _ = writeln!(
                s,
                "  {:<w$}  {:>8} -> {:>8}  {:>+8} [{}, {}]{moved}",
                label,
                show(sa.unit, ea.value),
                show(sa.unit, eb.value),
                show_signed(sa.unit, d),
                show_signed(sa.unit, d - half),
                show_signed(sa.unit, d + half)
            );
        }
    }
    s.push_str("\n* the interval excludes 0: a difference the runs can tell apart\n");
    // Names are a host's: shown with their controls escaped (issue 62).
    Ok(super::escape::plain_lines(&s).into_owned())
}

/// A difference as its unit shows it: `+1.20pt` (shares and points) or `+0.35`.
fn show_signed(unit: Unit, v: f64) -> String {
    match unit {
        Unit::Share | Unit::Points => format!("{:+.2}pt", 100.0 * v),
        Unit::Number | Unit::Signed => format!("{v:+.2}"),
    }
}

/// Settings that differ, as `path: a -> b` (nested objects by dotted path).
fn settings_diff(a: &serde_json::Value, b: &serde_json::Value, at: &str) -> Vec<String> {
    use serde_json::Value;
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            let mut keys: Vec<&String> = x.keys().chain(y.keys()).collect();
            keys.sort();
            keys.dedup();
            keys.into_iter()
                .flat_map(|k| {
                    let path = if at.is_empty() {
                        k.clone()
                    } else {
                        format!("{at}.{k}")
                    };
                    settings_diff(
                        x.get(k).unwrap_or(&Value::Null),
                        y.get(k).unwrap_or(&Value::Null),
                        &path,
                    )
                })
                .collect()
        }
        _ if a == b => Vec::new(),
        _ => rules_moved(a, b).unwrap_or_else(|| vec![format!("{at}: {a} -> {b}")]),
    }
}

/// Two runs' rules as their changes from the seed's (`key seed -> value` lines, or none): each
/// key whose value differs between them, as `key A's -> B's` (issue 64: what a what-if changed,
/// in the words of a rules file). `None` when either is not such a list.
fn rules_moved(a: &serde_json::Value, b: &serde_json::Value) -> Option<Vec<String>> {
    use std::collections::BTreeMap;
    // key -> (the seed's value, if known; this run's)
    fn read(v: &serde_json::Value) -> Option<BTreeMap<String, (Option<String>, String)>> {
        let lines: Vec<&str> = match v {
            serde_json::Value::Null => Vec::new(),
            serde_json::Value::Array(x) => x.iter().map(|l| l.as_str()).collect::<Option<_>>()?,
            _ => return None,
        };
        lines
            .into_iter()
            .map(|l| {
                let (key, rest) = l.split_once(' ')?;
                let (seed, now) = rest.split_once("-> ")?;
                let seed = seed.trim_end();
                Some((
                    key.to_string(),
                    (
                        (!seed.is_empty()).then(|| seed.to_string()),
                        now.to_string(),
                    ),
                ))
            })
            .collect()
    }
    let (x, y) = (read(a)?, read(b)?);
    let seed = |k: &String| {
        x.get(k)
            .and_then(|e| e.0.clone())
            .or_else(|| y.get(k).and_then(|e| e.0.clone()))
            .unwrap_or_else(|| "(the seed's)".into())
    };
    let mut keys: Vec<&String> = x.keys().chain(y.keys()).collect();
    keys.sort();
    keys.dedup();
    Some(
        keys.into_iter()
            .filter_map(|k| {
                let from = x.get(k).map_or_else(|| seed(k), |e| e.1.clone());
                let to = y.get(k).map_or_else(|| seed(k), |e| e.1.clone());
                (from != to).then(|| format!("{k} {from} -> {to}"))
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 80: a paired difference's p-value takes the t its interval took. A normal p-value
    /// read from a t interval was several times too small in the far tail that Holm's steps
    /// reach (17.5% of sensitivity runs with moves of no effect called one clear).
    #[test]
    fn a_paired_differences_p_value_takes_its_intervals_t() {
        let key = ("s".to_string(), "a".to_string());
        let mut p = super::Pairing {
            parts: 20,
            by: [(key.clone(), (4.0, super::t975(19)))]
                .into_iter()
                .collect(),
            df: [(key.clone(), 19)].into_iter().collect(),
            thin: 0,
            identical: false,
        };
        let t = p.p_value(&key).unwrap();
        assert!((t - crate::stats::t_two_sided_p(4.0, 19.0)).abs() < 1e-12);
        // The normal reading of the same interval: 4 x 1.96 / 2.093 standard errors.
        let normal = crate::stats::two_sided_p(4.0 * super::Z95 / super::t975(19));
        assert!(t > 3.0 * normal, "{t} vs {normal}");
        // Exact differences: moved or not.
        p.by.insert(key.clone(), (0.5, 0.0));
        p.df.clear();
        assert_eq!(p.p_value(&key), Some(0.0));
        p.by.insert(key.clone(), (0.0, 0.0));
        assert_eq!(p.p_value(&key), Some(1.0));
        assert_eq!(p.p_value(&("s".into(), "b".into())), None);
    }

    /// Issue 80: a candidate's verdict card is one family over all its sections (Loot's item
    /// worth per class was a family per class). A gap of 2.1 standard errors is told apart in a
    /// section alone (p = 0.036), not on a card of two such sections (Holm's first step is
    /// 0.025); the card says which member it compared and that it did not tell them apart.
    #[test]
    fn a_candidates_card_is_one_family_over_its_sections() {
        let sec = |title: &str| Section {
            band: None,
            title: title.into(),
            meaning: String::new(),
            unit: Unit::Number,
            estimates: vec![
                Estimate {
                    label: "me".into(),
                    value: 0.0,
                    lo: -Z95,
                    hi: Z95,
                    count: 100,
                    exact: false,
                },
                Estimate {
                    label: "them".into(),
                    value: 2.1,
                    lo: 2.1,
                    hi: 2.1,
                    count: 100,
                    exact: false,
                },
            ],
        };
        let (a, b) = (sec("worth for a Mage"), sec("worth for a Rogue"));
        let alone = a.standing_paired("me", crate::stats::Better::Higher, |_| None);
        assert_eq!(alone.unwrap().verdict.better, 1);
        let none = |_: &str| None;
        let card = card_standings(&[
            (&a, "me", crate::stats::Better::Higher, &none),
            (&b, "me", crate::stats::Better::Higher, &none),
        ]);
        for (st, apart) in card.into_iter().map(Option::unwrap) {
            assert!(st.card);
            assert_eq!(st.verdict.better, 0);
            assert_eq!(apart.len(), 1);
            assert_eq!((apart[0].member.as_str(), apart[0].told), ("them", false));
        }
    }

    fn answer() -> Answer {
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
                    },
                    Estimate {
                        label: "[none]".into(),
                        value: 0.1,
                        lo: 0.05,
                        hi: 0.2,
                        count: 100,
                        exact: false,
                    },
                ],
            }],
            tables: vec!["matches".into()],
            notes: vec![],
            heatmaps: Vec::new(),
            grids: Vec::new(),
        }
    }

    // Issue 80: an estimate whose label carries a note that moves with the change (`underworld
    // (2 points)` in A, `underworld (3 points)` in B) was dropped from the difference; it is
    // matched by its stem, once on each side, and its label says the note moved.
    #[test]
    fn an_estimate_whose_note_moved_is_matched_by_its_stem() {
        let mut a = answer();
        let mut b = answer();
        a.sections[0].estimates[1].label = "underworld (2 points)".into();
        b.sections[0].estimates[1].label = "underworld (3 points)".into();
        b.sections[0].estimates[1].value = 0.3;
        let d = difference(&a, &b, None).unwrap();
        let labels: Vec<&str> = d.sections[0]
            .estimates
            .iter()
            .map(|e| e.label.as_str())
            .collect();
        assert_eq!(labels, ["Amoeba | x", "underworld (2 points -> 3 points)"]);
        assert!((d.sections[0].estimates[1].value - 0.2).abs() < 1e-12);
        let text = diff(&a, &b, None).unwrap();
        assert!(text.contains("underworld (2 points -> 3 points)"), "{text}");
        // Two labels of one stem on a side: which is which cannot be told, so neither is matched.
        let mut two = b.clone();
        two.sections[0].estimates[0].label = "underworld (4 points)".into();
        a.sections[0].estimates[0].label = "underworld (1 point)".into();
        let d = difference(&a, &two, None).unwrap();
        assert!(d.sections.is_empty() || d.sections[0].estimates.is_empty());
        assert_eq!(
            label_stem("smart(bid=0, margin=2)"),
            "smart(bid=0, margin=2)"
        );
    }

    // Issue 54: a payoff table drawn as a heat map in every format; an answer without one keeps
    // its JSON bytes (no key).
    #[test]
    fn a_heat_map_renders_everywhere_and_is_absent_from_json_when_empty() {
        let plain = answer();
        assert!(!plain.to_json().contains("heatmaps"));
        let mut a = plain.clone();
        a.heatmaps.push(HeatMap {
            title: "payoffs".into(),
            meaning: "row against column".into(),
            unit: Unit::Share,
            rows: vec!["rock".into(), "paper".into()],
            columns: vec!["rock".into(), "paper".into()],
            values: vec![vec![0.5, 0.0], vec![1.0, 0.5]],
        });
        let html = render(&a, Format::Html);
        assert!(html.contains("<svg") && html.contains(">100.0%<"), "{html}");
        assert!(render(&a, Format::Markdown).contains("| paper | 100.0% | 50.0% |"));
        assert!(render(&a, Format::Text).contains("[2] paper"));
        assert!(render(&a, Format::BBCode).contains("[code]"));
        assert_eq!(Answer::from_json(&a.to_json()).unwrap(), a);
    }

    // Issue 63: `4.00 [4.00, 4.00]` read as certainty. An interval of no width is "exact" when
    // the value is exact by construction, and otherwise says there was no spread to measure.
    #[test]
    fn an_interval_of_no_width_says_exact_or_no_spread_in_every_format() {
        let mut a = answer();
        a.sections[0].estimates[0].lo = 0.5;
        a.sections[0].estimates[0].hi = 0.5;
        a.sections[0].estimates[1].lo = 0.1;
        a.sections[0].estimates[1].hi = 0.1;
        a.sections[0].estimates[1].exact = true;
        for f in [Format::Text, Format::Markdown, Format::BBCode, Format::Html] {
            let s = render(&a, f);
            assert!(s.contains(NO_SPREAD) && s.contains("exact"), "{f:?}: {s}");
            assert!(
                !s.contains("[50.0%, 50.0%]") && !s.contains("50.0% 50.0%"),
                "{s}"
            );
        }
    }

    #[test]
    fn every_format_shows_every_estimate_and_escapes_what_it_must() {
        let a = answer();
        for f in [Format::Text, Format::Markdown, Format::BBCode, Format::Html] {
            let s = render(&a, f);
            assert!(
                s.contains("50.00%") && s.contains("[40.00%, 60.00%]"),
                "{f:?}: {s}"
            );
        }
        assert!(render(&a, Format::Markdown).contains("Amoeba \\| x"));
        assert!(render(&a, Format::BBCode).contains("(none)"));
        let h = render(&a, Format::Html);
        assert!(h.contains("t &lt;b&gt;") && !h.contains("<script"));
        // One chart, drawn twice: wide for a desktop, labels over bars for a phone.
        assert_eq!(h.matches("<svg").count(), 2);
        assert!(h.contains("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"wide\""));
        assert!(h.contains("class=\"narrow\"") && h.contains("@media (max-width:760px)"));
        assert_eq!(Answer::from_json(&render(&a, Format::Json)).unwrap(), a);
    }

    #[test]
    fn a_phone_s_chart_puts_each_label_over_its_bar_and_cuts_a_long_one() {
        let mut a = answer();
        a.sections[0].estimates[0].label = "x".repeat(80);
        let narrow = bars_marked(&a.sections[0], &[], Layout::Narrow);
        assert!(narrow.contains("text-anchor=\"start\""), "{narrow}");
        assert!(narrow.contains(&format!("{}\u{2026}", "x".repeat(NARROW_LABEL - 1))));
        // Whole only in the bar's title (a tooltip), never as drawn text.
        assert!(
            !narrow.contains(&format!(">{}<", "x".repeat(80))),
            "{narrow}"
        );
        // The figure for the docs is drawn as before: no class, labels right-aligned.
        let figure = bars_svg(&a.sections[0]);
        assert!(!figure.contains("class=") && figure.contains("text-anchor=\"end\""));
    }

    // Issue 80: a balance's response is drawn against its target, what counts as met shaded
    // behind the bars (and inside the scale); a section without one draws none, and its JSON
    // is as it was (no `band` key).
    #[test]
    fn a_section_s_band_is_shaded_behind_its_bars_and_absent_without_one() {
        let mut a = answer();
        assert!(!bars_svg(&a.sections[0]).contains("<title>target:"));
        assert!(!render(&a, Format::Json).contains("\"band\""));
        a.sections[0].band = Some((0.7, 0.8));
        let svg = bars_svg(&a.sections[0]);
        assert!(
            svg.contains("<title>target: 70.00% to 80.00%</title>"),
            "{svg}"
        );
        // The scale reaches the band's end past every interval.
        assert!(svg.contains(">80.00%</text>"), "{svg}");
        assert_eq!(Answer::from_json(&render(&a, Format::Json)).unwrap(), a);
    }

    /// Parts of one run where labels `a` and `b` of one count group win in the same matches
    /// (`together`) or in opposite ones.
    fn parts_of_two(together: bool) -> Vec<Ratios> {
        (0..20u64)
            .map(|p| {
                let mut t = Tally::default();
                for m in 0..50u64 {
                    let won = (p * 1000 + m).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 60 < 6;
                    t.count("wins by x", "a").add(won);
                    t.count("wins by x", "b")
                        .add(if together { won } else { !won });
                }
                ratios(&t)
            })
            .collect()
    }

    #[test]
    fn a_candidates_difference_is_measured_on_the_same_matches() {
        // Won in the same matches: no spread between them at all.
        assert_eq!(
            difference_variance(&parts_of_two(true), "win rate by x", "a", "b"),
            None
        );
        // Won in opposite matches: the difference moves twice as far as either alone.
        let (v, df) = difference_variance(&parts_of_two(false), "win rate by x", "a", "b").unwrap();
        assert!(v > 0.0, "{v}");
        // Read through the t of its parts less one.
        assert_eq!(df, (parts_of_two(false).len() - 1) as f64);
        // Fewer than ten parts: not measured.
        let few = &parts_of_two(false)[..5];
        assert_eq!(difference_variance(few, "win rate by x", "a", "b"), None);
    }

    #[test]
    fn diff_of_an_answer_with_itself_moves_nothing_and_other_sources_are_refused() {
        let a = answer();
        let d = diff(&a, &a, None).unwrap();
        assert!(d.contains("+0.00pt") && !d.contains("  *\n"), "{d}");
        let mut b = answer();
        b.sections[0].estimates[0].value = 0.9;
        b.sections[0].estimates[0].lo = 0.85;
        b.sections[0].estimates[0].hi = 0.95;
        b.provenance.settings = serde_json::json!({"heroes": [2, 4]});
        let d = diff(&a, &b, None).unwrap();
        assert!(d.contains("+40.00pt") && d.contains("  *\n"), "{d}");
        assert!(d.contains("heroes: [2,8] -> [2,4]"), "{d}");
        b.provenance.source = "tag-tournament".into();
        assert!(diff(&a, &b, None).is_err());
    }

    /// Tallies of `k` parts of `n` matches: in each match A wins with chance 0.4, and B (the same
    /// match under another rule) wins whenever A does and in a further 5% of the others.
    fn paired_parts(seed: u64, k: u64, n: u64) -> (Vec<Tally>, Vec<Tally>) {
        use rand::RngExt;
        let mut rng = crate::rng::stream_rng(seed, 0, crate::rng::Stream::Roster);
        let (mut a, mut b) = (Vec::new(), Vec::new());
        for _ in 0..k {
            let (mut ta, mut tb) = (Tally::default(), Tally::default());
            for _ in 0..n {
                let wa = rng.random_range(0.0..1.0) < 0.4;
                let wb = wa || rng.random_range(0.0..1.0) < 0.05;
                ta.count("power held", "Amoeba").add(wa);
                tb.count("power held", "Amoeba").add(wb);
            }
            a.push(ta);
            b.push(tb);
        }
        (a, b)
    }

    fn rows(t: &[Tally], n: u64) -> Vec<(u64, u64, &Tally)> {
        t.iter()
            .enumerate()
            .map(|(i, x)| (i as u64 * n, n, x))
            .collect()
    }

    // Common random numbers: B - A is 0.6 * 0.05 = 3 points, and the paired interval holds it
    // in about 95% of runs while being far narrower than the unpaired one.
    #[test]
    fn paired_intervals_cover_the_true_difference_and_are_narrower_than_unpaired() {
        let key = (count_title("power held"), "Amoeba".to_string());
        let (mut covered, runs) = (0, 300);
        for seed in 0..runs {
            let (a, b) = paired_parts(seed, 20, 200);
            let p = Pairing::of(&rows(&a, 200), &rows(&b, 200)).unwrap();
            let (d, half) = p.by[&key];
            covered += ((d - 0.03).abs() <= half) as u32;
            if seed == 0 {
                let sum = |t: &[Tally]| {
                    let mut all = Tally::default();
                    t.iter().for_each(|x| all.merge(x));
                    let c = all.groups["power held"]["Amoeba"];
                    let (lo, hi) = c.wilson95();
                    Estimate {
                        label: "Amoeba".into(),
                        value: c.rate(),
                        lo,
                        hi,
                        count: c.trials,
                        exact: false,
                    }
                };
                let (_, unpaired) = gap(&sum(&a), &sum(&b));
                assert!(
                    half < unpaired / 2.0,
                    "paired {half} against unpaired {unpaired}"
                );
            }
        }
        let share = covered as f64 / runs as f64;
        assert!((0.90..=0.99).contains(&share), "coverage {share}");
    }

    #[test]
    fn runs_of_other_parts_or_too_few_parts_are_not_paired_and_a_run_with_itself_moves_nothing() {
        let (a, b) = paired_parts(1, 20, 50);
        let key = (count_title("power held"), "Amoeba".to_string());
        // A run against itself agrees match for match: every difference is exactly 0.
        let same = Pairing::of(&rows(&a, 50), &rows(&a, 50)).unwrap();
        assert!(same.identical && same.thin == 0);
        assert_eq!(same.by[&key], (0.0, 0.0));
        assert!(Pairing::of(&rows(&a, 50), &rows(&b, 60)).is_none());
        let few = MIN_PAIRED_PARTS - 1;
        assert!(Pairing::of(&rows(&a[..few], 50), &rows(&b[..few], 50)).is_none());
    }

    // A budget or a rare label lives in some parts only: it is paired over the parts that hold
    // it (the others are no samples of it), and compared unpaired when too few hold it.
    #[test]
    fn an_estimate_is_paired_over_the_parts_that_hold_it() {
        let (mut a, mut b) = paired_parts(2, 24, 100);
        for (i, (x, y)) in a.iter_mut().zip(b.iter_mut()).enumerate() {
            if i >= 12 {
                x.groups.clear();
                y.groups.clear();
            }
            if i < 3 {
                x.count("power held", "Claws").add(true);
                y.count("power held", "Claws").add(false);
            }
        }
        let p = Pairing::of(&rows(&a, 100), &rows(&b, 100)).unwrap();
        let key = |l: &str| (count_title("power held"), l.to_string());
        let (d, half) = p.by[&key("Amoeba")];
        let (na, nb) = (&a[..12], &b[..12]);
        let twelve = Pairing::of(&rows(na, 100), &rows(nb, 100)).unwrap().by[&key("Amoeba")];
        assert_eq!(
            (d, half),
            twelve,
            "the twelve parts that hold it, as if alone"
        );
        assert!(!p.by.contains_key(&key("Claws")) && p.thin == 1);
    }

    #[test]
    fn t_quantiles_match_the_table_and_approach_the_normal() {
        assert_eq!(t975(1), 12.706);
        assert_eq!(t975(19), 2.093);
        assert!((t975(31) - 2.040).abs() < 0.001);
        assert!((t975(60) - 2.000).abs() < 0.001);
        assert!((t975(120) - 1.980).abs() < 0.001);
        assert!(t975(100_000) - Z95 < 0.0001);
    }
}

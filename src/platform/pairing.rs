//! Comparisons on the same matches (issue 78: apart from the answer model they read,
//! `platform::answer`): a candidate's standing against its field, one family over its card,
//! and the difference of two runs, paired over the parts they share (common random numbers).

use crate::error::Error;
use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde::{Deserialize, Serialize};

use super::answer::{Answer, Apart, Estimate, Provenance, Section, Standing, Unit, count_title};
use super::manifest::Manifest;
use super::render::show;
use super::tally::{Tally, thousands};
use crate::stats::Z95;

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

/// An estimate's standard error (kept by its builder, or read from its interval).
fn se_of(e: &Estimate) -> f64 {
    e.se()
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

impl Answer {
    /// The answer a dataset holds: its manifest's identity and the tallies of the parts present.
    /// Works on any folder a dataset command wrote, older ones included.
    /// `ranked`: which way its mean groups rank ([`crate::platform::runner::Simulation::ranked`]).
    pub fn from_dataset(
        m: &Manifest,
        parts: &[&Tally],
        ranked: &[(&str, crate::stats::Better)],
    ) -> Answer {
        let mut t = Tally::default();
        for p in parts {
            t.merge(p);
        }
        let id = &m.identity;
        let sections = Answer::sections(&t, ranked);
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
    let se = Estimate::se;
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
        let Some(better) = sec.better.filter(|_| sec.estimates.len() > 1) else {
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

/// B - A and the half-width of its 95% interval, unpaired (each run's interval read as a normal
/// one): conservative for runs of one seed, whose estimates move together.
fn gap(ea: &Estimate, eb: &Estimate) -> (f64, f64) {
    (
        eb.value - ea.value,
        Z95 * (ea.se().powi(2) + eb.se().powi(2)).sqrt(),
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
    /// The standard error of the difference keyed `key` (its interval took t at its degrees
    /// of freedom, not z); `None` when the estimate was not paired.
    pub fn se(&self, key: &(String, String)) -> Option<f64> {
        let &(_, half) = self.by.get(key)?;
        Some(match self.df.get(key) {
            _ if half <= 0.0 => 0.0,
            Some(&df) => half / t975(df),
            None => half / Z95,
        })
    }

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
pub fn difference(a: &Answer, b: &Answer, pairing: Option<&Pairing>) -> Result<Answer, Error> {
    if a.provenance.source != b.provenance.source {
        return Err(Error::Input(format!(
            "`{}` and `{}` answer different commands; a what-if compares two runs of one command",
            a.provenance.source, b.provenance.source
        )));
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
                    // Paired, the parts' spread at its t; else the two runs' errors combined.
                    let se = pairing
                        .and_then(|p| p.se(&(sa.title.clone(), ea.label.clone())))
                        .unwrap_or_else(|| (ea.se().powi(2) + eb.se().powi(2)).sqrt());
                    Some(Estimate {
                        label,
                        value: d,
                        lo: d - half,
                        hi: d + half,
                        count: ea.count.min(eb.count),
                        // Both exact, or the runs agree match for match: so is the difference.
                        exact: (ea.exact && eb.exact)
                            || (half == 0.0 && pairing.is_some_and(|p| p.identical)),
                        se: Some(se),
                    })
                })
                .collect();
            (!estimates.is_empty()).then(|| Section {
                band: None,
                better: None,
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
pub fn diff(a: &Answer, b: &Answer, pairing: Option<&Pairing>) -> Result<String, Error> {
    if a.provenance.source != b.provenance.source {
        return Err(Error::Input(format!(
            "diff: `{}` and `{}` answer different commands; compare two runs of one command",
            a.provenance.source, b.provenance.source
        )));
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
    use crate::platform::answer::tests::answer;

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
            better: None,
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
                    se: None,
                },
                Estimate {
                    label: "them".into(),
                    value: 2.1,
                    lo: 2.1,
                    hi: 2.1,
                    count: 100,
                    exact: false,
                    se: None,
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
                        se: None,
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

    // Issue 78: an estimate keeps the standard error its builder measured. A mean's is the
    // spread over matches its interval is z of; a paired difference's took t at the parts'
    // degrees of freedom, so reading it back from its interval with z overstated it. Read
    // back from a folder (not written there), an estimate gives its interval's reading.
    #[test]
    fn an_estimate_keeps_its_standard_error_and_a_paired_difference_its_t() {
        let (a, b) = paired_parts(3, 12, 100);
        let whole = |t: &[Tally]| {
            let mut all = Tally::default();
            t.iter().for_each(|x| all.merge(x));
            all
        };
        let (ta, tb) = (whole(&a), whole(&b));
        let mut t = Tally::default();
        for x in [3, 5, 4, 4, 6] {
            t.mean("rounds", "x").add(x);
            t.matches += 1;
        }
        let sec = &Answer::sections(&t, &[])[0];
        let e = &sec.estimates[0];
        let kept = e.se.expect("a mean keeps its standard error");
        assert_eq!(Some(kept), t.means["rounds"]["x"].se());
        assert!((e.hi - e.value - Z95 * kept).abs() < 1e-12);
        let back: Estimate = serde_json::from_str(&serde_json::to_string(e).unwrap()).unwrap();
        assert_eq!(back.se, None, "not written to a folder");
        assert!((back.se() - kept).abs() < 1e-12 && &back == e);
        // A paired difference: its interval is t975(df) standard errors either side.
        let ans = |t: &Tally| {
            let mut x = answer();
            x.sections = Answer::sections(t, &[]);
            x
        };
        let p = Pairing::of(&rows(&a, 100), &rows(&b, 100)).unwrap();
        let d = difference(&ans(&ta), &ans(&tb), Some(&p)).unwrap();
        let e = d
            .sections
            .iter()
            .flat_map(|s| &s.estimates)
            .find(|e| e.label == "Amoeba")
            .expect("the difference");
        let key = (count_title("power held"), "Amoeba".to_string());
        let df = p.df[&key];
        assert!(df < 30, "few parts, a t well above z: {df}");
        let se = e.se.expect("a difference keeps its standard error");
        assert!(((e.hi - e.value) / t975(df) - se).abs() < 1e-12);
        assert!(
            se < (e.hi - e.lo) / (2.0 * Z95),
            "z's reading of a t interval overstates it"
        );
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

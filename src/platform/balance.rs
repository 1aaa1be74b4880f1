//! The inverse question (issue 65): which values of some named numbers bring a command's
//! estimates to their targets. A question is asked at a point (values of the tuned numbers) on
//! given matches and answers with a tally; every point is played on the same matches of one
//! master seed (common random numbers), so two points differ by their numbers, not their luck.
//!
//! One number with one signed target is bracketed and bisected; anything else (several numbers,
//! several targets, "all alike") is a pattern search on the largest remaining miss. A point plays
//! in batches and stops as soon as its decision is clear (its interval on one side of the target,
//! or clearly worse than the best so far). Knows no game.

use crate::error::Error;
use std::ops::Range;

use crate::platform::answer::{Answer, Estimate, Section};
use crate::platform::tally::Tally;

/// A number being tuned: its name (a rules key, or a placeholder), its range, whether it takes
/// whole values, and where the search starts (the value the inputs hold, inside the range).
#[derive(Clone, Debug)]
pub struct Number {
    pub name: String,
    pub lo: f64,
    pub hi: f64,
    pub integer: bool,
    pub start: f64,
}

impl Number {
    /// The smallest step the search tells apart: 1 for a whole number, 1/64 of the range else
    /// (never below the [`DECIMALS`] grid a rules file accepts).
    pub fn resolution(&self) -> f64 {
        if self.integer {
            1.0
        } else {
            ((self.hi - self.lo) / 64.0).max(1.0 / DECIMALS)
        }
    }
    /// Points a grid over the range at the search's resolution has.
    pub fn grid_points(&self) -> u64 {
        // Saturating: a range of any size counts, it is never listed.
        (((self.hi - self.lo) / self.resolution()).round() as u64).saturating_add(1)
    }
    /// `x` inside the range, on the values a file can hold: whole, or at most three decimals
    /// (issue 79: a float key's search stopped at 0.515625, which its rules file refused).
    fn fit(&self, x: f64) -> f64 {
        let x = x.clamp(self.lo, self.hi);
        if self.integer {
            x.round()
        } else {
            ((x * DECIMALS).round() / DECIMALS).clamp(self.lo, self.hi)
        }
    }
}

/// Units per 1 of a number that is not whole: rules files take at most three decimals.
pub const DECIMALS: f64 = 1000.0;

/// What a target asks of its estimates.
#[derive(Clone, Debug, PartialEq)]
pub enum Aim {
    Value(f64),
    Band(f64, f64),
    /// Every estimate of the section alike (their mean is the target).
    Equal,
    /// As another estimate of the same section, at the same point ("as often as").
    Like(String),
}

/// One target: a section of the command's answer, one of its estimates (or all), the aim, and
/// how far from it still counts as met (`None`: [`Target::tolerance`]'s default).
#[derive(Clone, Debug)]
pub struct Target {
    pub section: String,
    pub label: Option<String>,
    pub aim: Aim,
    pub tolerance: Option<f64>,
}

/// A share's default tolerance: two percentage points (docs/balance.md).
pub const SHARE_TOLERANCE: f64 = 0.02;
/// Any other number's default tolerance: this share of the value aimed at.
pub const RELATIVE_TOLERANCE: f64 = 0.05;

impl Target {
    /// How far from the aim still counts as met, in the estimates' units: the stated
    /// tolerance, else two points for a share (or a difference of shares), else 5% of the
    /// value aimed at (`reference`: the target's value, the other estimate's, or the mean).
    pub fn tolerance(&self, unit: crate::platform::answer::Unit, reference: f64) -> f64 {
        use crate::platform::answer::Unit;
        self.tolerance.unwrap_or(match unit {
            Unit::Share | Unit::Points => SHARE_TOLERANCE,
            _ => RELATIVE_TOLERANCE * reference.abs(),
        })
    }

    /// How the target reads in an answer: `win share by pair: Gladiator+Mage = 50.0%`.
    pub fn describe(&self, unit: crate::platform::answer::Unit) -> String {
        let what = match &self.label {
            Some(l) => format!("{}: {l}", self.section),
            None => format!("{} (every estimate)", self.section),
        };
        match self.aim {
            Aim::Value(v) => format!("{what} = {}", unit.short(v)),
            Aim::Band(a, b) => format!("{what} in [{}, {}]", unit.short(a), unit.short(b)),
            Aim::Equal => format!("{what} all alike"),
            Aim::Like(ref o) => format!("{what} as {o}"),
        }
    }
}

/// How far a point's estimates are from a target: `miss` at the point estimates, `lower` the
/// least miss their 95% intervals allow (0 when they reach the target), `signed` the estimate
/// minus the target where the target is one estimate and one number or band (else `None`).
#[derive(Clone, Debug)]
pub struct Miss {
    pub miss: f64,
    /// What the search makes smallest: the miss, except for a band, where it is how far the
    /// intervals reach outside it (a point whose estimates sit just inside a band on the search's
    /// seeds is not yet a point that stays inside on fresh ones).
    pub goal: f64,
    pub lower: f64,
    /// Whether the target is met on these matches: every estimate inside a band; else every
    /// interval reaching the target (the value, the other estimate's interval, the common mean).
    pub pass: bool,
    pub signed: Option<f64>,
    /// The estimates the target read, as the answer holds them.
    pub estimates: Vec<Estimate>,
    pub unit: crate::platform::answer::Unit,
}

fn distance(x: f64, lo: f64, hi: f64) -> f64 {
    if x < lo {
        lo - x
    } else if x > hi {
        x - hi
    } else {
        0.0
    }
}

/// The estimate labelled `l`: exactly, or the one whose label is `l` and a note in parentheses
/// (`underworld` for `underworld (25 points)`, whose note moves with the rules).
fn label_in<'a>(sec: &'a Section, l: &str) -> Option<&'a Estimate> {
    sec.estimates.iter().find(|e| e.label == l).or_else(|| {
        let mut noted = sec.estimates.iter().filter(|e| {
            e.label
                .strip_prefix(l)
                .is_some_and(|rest| rest.starts_with(" (") && rest.ends_with(')'))
        });
        match (noted.next(), noted.next()) {
            (Some(e), None) => Some(e),
            _ => None,
        }
    })
}

/// A target the answer cannot meet as written: the target's field that is wrong and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unmet {
    /// The target's field the host should fix.
    pub field: TargetField,
    pub message: String,
}

/// A target's field that an [`Unmet`] names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TargetField {
    Section,
    Label,
}

impl TargetField {
    /// The field's key in a balance file's `[[target]]`.
    pub fn key(self) -> &'static str {
        match self {
            TargetField::Section => "section",
            TargetField::Label => "label",
        }
    }
}

impl std::fmt::Display for Unmet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl From<Unmet> for Error {
    fn from(u: Unmet) -> Self {
        Error::Input(u.message)
    }
}

/// The target's estimates in `sections`, or an error naming what there is.
fn find<'a>(t: &Target, sections: &'a [Section]) -> Result<(&'a Section, Vec<Estimate>), Unmet> {
    let unmet = |field, message| Unmet { field, message };
    let Some(sec) = sections.iter().find(|s| s.title == t.section) else {
        let titles: Vec<&str> = sections.iter().map(|s| s.title.as_str()).collect();
        return Err(unmet(
            TargetField::Section,
            format!(
                "target section `{}` is not in the command's answer{}; its sections: {}",
                t.section,
                crate::names::closest_name(&t.section, titles.iter().copied())
                    .map_or(String::new(), |c| format!(" (did you mean `{c}`?)")),
                titles.join("; ")
            ),
        ));
    };
    let est: Vec<Estimate> = match &t.label {
        Some(l) => match label_in(sec, l) {
            Some(e) => vec![e.clone()],
            None => {
                let labels: Vec<&str> = sec.estimates.iter().map(|e| e.label.as_str()).collect();
                return Err(unmet(
                    TargetField::Label,
                    format!(
                        "target label `{l}` is not in section `{}`{}; its labels: {}",
                        t.section,
                        crate::names::closest_name(l, labels.iter().copied())
                            .map_or(String::new(), |c| format!(" (did you mean `{c}`?)")),
                        labels.join("; ")
                    ),
                ));
            }
        },
        None => sec.estimates.clone(),
    };
    if est.is_empty() {
        return Err(unmet(
            TargetField::Section,
            format!("target section `{}` has no estimates", t.section),
        ));
    }
    Ok((sec, est))
}

/// How far `sections` are from each target.
pub fn misses(targets: &[Target], sections: &[Section]) -> Result<Vec<Miss>, Unmet> {
    targets
        .iter()
        .map(|t| {
            let (sec, est) = find(t, sections)?;
            let (miss, lower, signed) = match t.aim {
                Aim::Value(v) => (
                    est.iter().map(|e| (e.value - v).abs()).fold(0.0, f64::max),
                    est.iter()
                        .map(|e| distance(v, e.lo, e.hi))
                        .fold(0.0, f64::max),
                    (est.len() == 1).then(|| est[0].value - v),
                ),
                Aim::Band(a, b) => (
                    est.iter()
                        .map(|e| distance(e.value, a, b))
                        .fold(0.0, f64::max),
                    // The interval's nearest point to the band.
                    est.iter()
                        .map(|e| distance(e.hi.min(a.max(e.lo)), a, b))
                        .fold(0.0, f64::max),
                    // From the band's middle (issue 80: a search stopped at the first point just
                    // inside a band, where fresh seeds rarely show it inside).
                    (est.len() == 1).then(|| est[0].value - (a + b) / 2.0),
                ),
                Aim::Like(ref other) => {
                    let Some(o) = label_in(sec, other) else {
                        let labels: Vec<&str> =
                            sec.estimates.iter().map(|e| e.label.as_str()).collect();
                        return Err(Unmet {
                            field: TargetField::Label,
                            message: format!(
                                "target label `{other}` (like) is not in section `{}`; its labels: {}",
                                t.section,
                                labels.join("; ")
                            ),
                        });
                    };
                    let e = &est[0];
                    // The intervals' gap: 0 when they overlap.
                    let gap = (e.lo - o.hi).max(o.lo - e.hi).max(0.0);
                    ((e.value - o.value).abs(), gap, Some(e.value - o.value))
                }
                Aim::Equal => {
                    let m = est.iter().map(|e| e.value).sum::<f64>() / est.len() as f64;
                    (
                        est.iter().map(|e| (e.value - m).abs()).fold(0.0, f64::max),
                        est.iter()
                            .map(|e| distance(m, e.lo, e.hi))
                            .fold(0.0, f64::max),
                        None,
                    )
                }
            };
            // A "like" target shows the estimate it is held to beside its own.
            let est = match t.aim {
                Aim::Like(ref other) => est
                    .into_iter()
                    .chain(label_in(sec, other).cloned())
                    .collect(),
                _ => est,
            };
            let goal = match t.aim {
                Aim::Band(a, b) => est
                    .iter()
                    .map(|e| (a - e.lo).max(e.hi - b).max(0.0))
                    .fold(0.0, f64::max),
                _ => miss,
            };
            Ok(Miss {
                miss,
                goal,
                lower,
                pass: match t.aim {
                    Aim::Band(..) => miss == 0.0,
                    _ => lower == 0.0,
                },
                signed,
                estimates: est,
                unit: sec.unit,
            })
        })
        .collect()
}

/// One target's verdict on the proof (issue 80): the tolerance region of what it reads, each
/// reading's 95% interval, and what follows.
#[derive(Clone, Debug)]
pub struct Judged {
    pub outcome: crate::platform::answer::Outcome,
    /// The region that counts as met, in what the target reads (the estimate; for `like` and
    /// `equal`, the difference from the other estimate or from the mean).
    pub region: (f64, f64),
    /// The intervals of what it reads, one per estimate.
    pub intervals: Vec<(f64, f64)>,
    /// INCONCLUSIVE: how many times the matches played would likely tell, if the estimates
    /// stay where they are.
    pub more: Option<f64>,
}

/// The verdicts of a proof's misses (issue 80): PASS only when every target's every 95%
/// interval lies inside its tolerance (an intersection-union test: each at 5%, no adjustment
/// needed); FAIL when some interval, widened for the family of targets (Bonferroni), lies wholly
/// outside its tolerance; otherwise INCONCLUSIVE. The whole is PASS when all are, FAIL when one
/// is, INCONCLUSIVE else.
pub fn judge(
    targets: &[Target],
    misses: &[Miss],
) -> (crate::platform::answer::Outcome, Vec<Judged>) {
    use crate::platform::answer::Outcome;
    let k = targets.len().max(1) as f64;
    // How much wider a family-controlled interval is than a 95% one.
    let widen = crate::stats::z_two_sided(0.05 / k) / crate::stats::Z95;
    let judged: Vec<Judged> = targets
        .iter()
        .zip(misses)
        .map(|(t, m)| {
            let est = &m.estimates;
            let mean =
                |f: fn(&Estimate) -> f64| est.iter().map(f).sum::<f64>() / est.len().max(1) as f64;
            let (region, intervals): ((f64, f64), Vec<(f64, f64)>) = match &t.aim {
                Aim::Value(v) => {
                    let tol = t.tolerance(m.unit, *v);
                    (
                        (v - tol, v + tol),
                        est.iter().map(|e| (e.lo, e.hi)).collect(),
                    )
                }
                Aim::Band(a, b) => ((*a, *b), est.iter().map(|e| (e.lo, e.hi)).collect()),
                // The difference's interval from the two (conservative whatever their
                // correlation: the half-widths add).
                Aim::Like(_) => {
                    let (e, o) = (&est[0], &est[est.len() - 1]);
                    let tol = t.tolerance(m.unit, o.value);
                    ((-tol, tol), vec![(e.lo - o.hi, e.hi - o.lo)])
                }
                Aim::Equal => {
                    let (mlo, mhi) = (mean(|e| e.lo), mean(|e| e.hi));
                    let tol = t.tolerance(m.unit, mean(|e| e.value));
                    (
                        (-tol, tol),
                        est.iter().map(|e| (e.lo - mhi, e.hi - mlo)).collect(),
                    )
                }
            };
            let (lo, hi) = region;
            let inside = intervals.iter().all(|&(a, b)| a >= lo && b <= hi);
            let outside = intervals.iter().any(|&(a, b)| {
                let (c, h) = ((a + b) / 2.0, (b - a) / 2.0 * widen);
                c + h < lo || c - h > hi
            });
            let outcome = if inside {
                Outcome::Pass
            } else if outside {
                Outcome::Fail
            } else {
                Outcome::Inconclusive
            };
            // The matches that would shrink each interval enough to tell (it shrinks as the
            // square root of the matches): inside when its centre is, else wholly outside.
            let more = (outcome == Outcome::Inconclusive).then(|| {
                intervals
                    .iter()
                    .map(|&(a, b)| {
                        let (c, h) = ((a + b) / 2.0, (b - a) / 2.0);
                        let room = if (lo..=hi).contains(&c) {
                            (c - lo).min(hi - c)
                        } else {
                            (lo - c).max(c - hi) / widen
                        };
                        if room <= 0.0 {
                            f64::INFINITY
                        } else {
                            (h / room).powi(2).max(1.0)
                        }
                    })
                    .fold(1.0, f64::max)
            });
            Judged {
                outcome,
                region,
                intervals,
                more,
            }
        })
        .collect();
    let all = if judged.iter().all(|j| j.outcome == Outcome::Pass) {
        Outcome::Pass
    } else if judged.iter().any(|j| j.outcome == Outcome::Fail) {
        Outcome::Fail
    } else {
        Outcome::Inconclusive
    };
    (all, judged)
}

/// What the search makes smallest at a point: the largest goal of its targets.
fn goal(m: &[Miss]) -> f64 {
    m.iter().map(|x| x.goal).fold(0.0, f64::max)
}

/// The largest miss of a point and its least value the intervals allow.
fn worst(m: &[Miss]) -> (f64, f64) {
    (
        m.iter().map(|x| x.miss).fold(0.0, f64::max),
        m.iter().map(|x| x.lower).fold(0.0, f64::max),
    )
}

/// What a point's matches come to: a dataset command's tally (batches of matches add up), or an
/// analysis's whole answer (asked to a larger count, an analysis continues its earlier run, so
/// the later answer replaces the earlier).
#[derive(Clone, Debug, Default, serde::Serialize, serde::Deserialize)]
pub enum Sums {
    #[default]
    None,
    Tally(Tally),
    Answer(Vec<Section>),
}

impl Sums {
    /// The sums of more matches of the same point added.
    pub fn merge(&mut self, more: Sums) {
        match (&mut *self, more) {
            (Sums::Tally(a), Sums::Tally(b)) => a.merge(&b),
            // No matches (a shard's empty slice of a small point) add nothing.
            (_, Sums::None) => {}
            (_, more) => *self = more,
        }
    }

    /// The answer's sections.
    pub fn sections(&self) -> Vec<Section> {
        match self {
            Sums::None => Vec::new(),
            Sums::Tally(t) => Answer::sections(t, &[]),
            Sums::Answer(s) => s.clone(),
        }
    }
}

/// The question: the command at `point` on matches `matches` of master seed `seed` (an analysis:
/// its first `matches.end`, the earlier ones again or continued).
pub trait Ask: Sync {
    fn ask(&self, point: &[f64], seed: u64, matches: Range<u64>) -> Result<Sums, Error>;
}

/// A point the search played: its values, the matches it played, its largest miss, and why it
/// stopped (`clearly above`, `clearly worse`...).
#[derive(Clone, Debug)]
pub struct Step {
    pub point: Vec<f64>,
    pub played: u64,
    pub miss: f64,
    pub note: String,
}

/// How the search is asked: its master seed, the matches a point plays at most (`per_point`,
/// in batches of `batch`), and a cap on all the matches it plays.
#[derive(Clone, Debug)]
pub struct Plan {
    pub seed: u64,
    pub per_point: u64,
    pub batch: u64,
    pub budget: u64,
}

/// What the search found.
#[derive(Clone, Debug)]
pub struct Found {
    pub point: Vec<f64>,
    pub misses: Vec<Miss>,
    /// Matches the search played, every point counted.
    pub played: u64,
    pub path: Vec<Step>,
    /// The method, in words (`bisection on common random numbers`...).
    pub method: &'static str,
    /// Why the target is out of reach, when it is.
    pub out_of_reach: Option<String>,
    pub budget_spent: bool,
    /// Two neighbouring values the target lies between (one number at its resolution: a whole
    /// number can land on either side of a share, never on it).
    pub between: Option<(f64, f64)>,
    /// One number, one target: the target's estimate at every value the search played, in
    /// order of the value (its own matches there, on the search's seeds): the response.
    pub response: Vec<(f64, Estimate)>,
    /// One number: the neighbouring scanned values between which the estimate crossed the
    /// target (more than one: the response is not monotone).
    pub crossings: Vec<(f64, f64)>,
}

/// Values a one-number search scans first, evenly over the range (issue 80: a response need not
/// be monotone; a cliff or a hump between the ends is seen before any bracket is trusted).
pub const SCAN: usize = 9;

struct Search<'a, A: Ask> {
    ask: &'a A,
    numbers: &'a [Number],
    targets: &'a [Target],
    plan: &'a Plan,
    /// Every point played: its values, tally and matches so far.
    seen: Vec<(Vec<f64>, Sums, u64)>,
    played: u64,
    path: Vec<Step>,
}

impl<A: Ask> Search<'_, A> {
    /// Plays `point` in batches up to the plan's matches, stopping once `enough` says its
    /// decision is clear; a point played before continues from its matches.
    fn eval(
        &mut self,
        point: &[f64],
        enough: &dyn Fn(&[Miss]) -> Option<String>,
    ) -> Result<Vec<Miss>, Error> {
        let i = match self.seen.iter().position(|s| s.0 == point) {
            Some(i) => i,
            None => {
                self.seen.push((point.to_vec(), Sums::None, 0));
                self.seen.len() - 1
            }
        };
        loop {
            let (_, sums, done) = &self.seen[i];
            let done = *done;
            let m = if done > 0 {
                // A target found at the first point may be missing at another: an analysis
                // leaves out what it cannot measure there (a worth beyond its ladder).
                Some(misses(self.targets, &sums.sections()).map_err(|e| {
                    let at: Vec<String> = self
                        .numbers
                        .iter()
                        .zip(point)
                        .map(|(n, x)| format!("{} = {}", n.name, show(*x, n.integer)))
                        .collect();
                    format!(
                        "at {}: {e} (the command's answer has no such estimate there: an analysis leaves out what it cannot measure, such as a worth beyond its ladder; narrow the range)",
                        at.join(", ")
                    )
                })?)
            } else {
                None
            };
            if let Some(m) = &m {
                if done >= self.plan.per_point {
                    self.log(point, done, m, "all its matches".into());
                    return Ok(m.clone());
                }
                if let Some(why) = enough(m) {
                    self.log(point, done, m, why);
                    return Ok(m.clone());
                }
            }
            if self.played >= self.plan.budget {
                let m = m.ok_or("balance: --budget is spent before the first point was played")?;
                self.log(point, done, &m, "budget spent".into());
                return Ok(m);
            }
            // Saturating: a count near u64's end never wraps into a wrong range.
            let end = done
                .saturating_add(self.plan.batch)
                .min(self.plan.per_point);
            let t = self.ask.ask(point, self.plan.seed, done..end)?;
            self.played = self.played.saturating_add(end - done);
            let s = &mut self.seen[i];
            s.1.merge(t);
            s.2 = end;
        }
    }

    fn log(&mut self, point: &[f64], played: u64, m: &[Miss], note: String) {
        // One line per point: a point extended later replaces its line.
        self.path.retain(|s| s.point != point);
        self.path.push(Step {
            point: point.to_vec(),
            played,
            miss: worst(m).0,
            note,
        });
    }

    /// Plays `point` to all its matches.
    fn full(&mut self, point: &[f64]) -> Result<Vec<Miss>, Error> {
        self.eval(point, &|_| None)
    }

    /// One number, one signed target: a coarse scan of the range ([`SCAN`] values, each
    /// stopped once its interval is on one side of the target), then bisection inside the
    /// scanned pair where the estimate crossed the target nearest to it; none crossed: out of
    /// reach, said from what the scan saw.
    fn bisect(&mut self) -> Result<Found, Error> {
        let n = &self.numbers[0];
        let side = |m: &[Miss]| -> Option<String> {
            let m = &m[0];
            (m.lower > 0.0).then(|| {
                if m.signed.unwrap_or(0.0) > 0.0 {
                    "clearly above the target".into()
                } else {
                    "clearly below the target".into()
                }
            })
        };
        let sign = |m: &[Miss]| m[0].signed.unwrap_or(0.0);
        let mut scanned: Vec<(f64, f64)> = Vec::new();
        // A small whole range scans every other value (the bisection then takes the one left).
        let count = (SCAN as u64).min(n.grid_points().div_ceil(2)).max(2);
        for k in 0..count {
            let x = n.fit(n.lo + (n.hi - n.lo) * k as f64 / (count - 1) as f64);
            if scanned.last().is_some_and(|s| s.0 >= x) {
                continue; // a small whole range: fewer values than SCAN
            }
            if !scanned.is_empty() && self.played >= self.plan.budget {
                break; // the budget spent: the scan so far decides
            }
            let m = self.eval(&[x], &side)?;
            scanned.push((x, sign(&m)));
        }
        // Neighbouring values on two sides of the target, or one on it.
        let crossings: Vec<(f64, f64)> = scanned
            .windows(2)
            .filter(|w| w[0].1 == 0.0 || w[1].1 == 0.0 || w[0].1.signum() != w[1].1.signum())
            .map(|w| (w[0].0, w[1].0))
            .collect();
        // The crossing whose nearer end is nearest the target.
        let near = |x: f64| {
            scanned
                .iter()
                .find(|s| s.0 == x)
                .map_or(f64::INFINITY, |s| s.1.abs())
        };
        let chosen = crossings.iter().copied().min_by(|a, b| {
            near(a.0)
                .min(near(a.1))
                .total_cmp(&near(b.0).min(near(b.1)))
        });
        let (mut lo, mut hi) = chosen.unwrap_or((n.lo, n.hi));
        let f_lo = scanned.iter().find(|s| s.0 == lo).map_or(0.0, |s| s.1);
        let mut out_of_reach = None;
        if chosen.is_some() {
            while hi - lo > n.resolution() * 1.000_001 && self.played < self.plan.budget {
                let mid = n.fit(if n.integer {
                    ((lo + hi) / 2.0).floor()
                } else {
                    (lo + hi) / 2.0
                });
                if mid <= lo || mid >= hi {
                    break;
                }
                let f = sign(&self.eval(&[mid], &side)?);
                if f == 0.0 {
                    (lo, hi) = (mid, mid);
                } else if f.signum() == f_lo.signum() {
                    lo = mid;
                } else {
                    hi = mid;
                }
            }
        } else {
            // Every scanned value on one side: the nearest two, played whole, decide (a value
            // stopped early is near only by its few matches).
            let mut by_miss = scanned.clone();
            by_miss.sort_by(|a, b| a.1.abs().total_cmp(&b.1.abs()));
            let nearest = by_miss.first().map_or(n.lo, |s| s.0);
            let second = by_miss.get(1).map_or(nearest, |s| s.0);
            (lo, hi) = (nearest.min(second), nearest.max(second));
            out_of_reach = Some(format!(
                "the target is out of reach for {} inside [{}, {}]: the estimate is {} it at every one of the {} values scanned (the two nearest, played whole, gave the answer)",
                n.name,
                show(n.lo, n.integer),
                show(n.hi, n.integer),
                if scanned[0].1 > 0.0 { "above" } else { "below" },
                scanned.len(),
            ));
        }
        // The bracket's ends at all their matches: the closer one is the answer.
        let a = self.full(&[lo])?;
        let b = self.full(&[hi])?;
        let between = (out_of_reach.is_none()
            && hi > lo
            && sign(&a) != 0.0
            && sign(&a).signum() != sign(&b).signum())
        .then_some((lo, hi));
        // The closer end: by its miss, then by how far from the target's middle.
        let off = |m: &[Miss]| (worst(m).0, sign(m).abs());
        let (point, m) = if off(&b) < off(&a) { (hi, b) } else { (lo, a) };
        // The response: the target's first estimate at each value played, by value.
        let mut response: Vec<(f64, Estimate)> = Vec::new();
        for (p, sums, done) in &self.seen {
            if *done == 0 {
                continue;
            }
            if let Ok(ms) = misses(self.targets, &sums.sections())
                && let Some(e) = ms[0].estimates.first()
            {
                response.push((p[0], e.clone()));
            }
        }
        response.sort_by(|a, b| a.0.total_cmp(&b.0));
        Ok(Found {
            point: vec![point],
            misses: m,
            played: self.played,
            path: std::mem::take(&mut self.path),
            method: "a scan of the range, then bisection between the scanned values where the estimate crossed the target nearest to it, on common random numbers, each point stopped once its interval is on one side of the target",
            out_of_reach,
            budget_spent: self.played >= self.plan.budget,
            between,
            response,
            crossings,
        })
    }

    /// Several numbers or targets: a pattern search on the largest miss, from the inputs' own
    /// values; each step tries every number up and down, moves on the first improvement, else
    /// halves the steps; a point stops once its intervals make it clearly worse than the best.
    fn pattern(&mut self) -> Result<Found, Error> {
        let mut x: Vec<f64> = self.numbers.iter().map(|n| n.fit(n.start)).collect();
        let mut best = self.full(&x)?;
        let mut steps: Vec<f64> = self
            .numbers
            .iter()
            .map(|n| {
                let s = (n.hi - n.lo) / 4.0;
                if n.integer { s.round().max(1.0) } else { s }
            })
            .collect();
        'search: loop {
            if self.played >= self.plan.budget {
                break;
            }
            for i in 0..x.len() {
                for dir in [1.0, -1.0] {
                    let mut y = x.clone();
                    y[i] = self.numbers[i].fit(x[i] + dir * steps[i]);
                    if y == x {
                        continue;
                    }
                    let bar = goal(&best);
                    let m = self.eval(&y, &move |m: &[Miss]| {
                        (worst(m).1 > bar).then(|| "clearly worse than the best".to_string())
                    })?;
                    let played = self.seen.iter().find(|s| s.0 == y).map_or(0, |s| s.2);
                    if played >= self.plan.per_point && goal(&m) < goal(&best) {
                        (x, best) = (y, m);
                        continue 'search;
                    }
                }
            }
            let mut moved = false;
            for (s, n) in steps.iter_mut().zip(self.numbers) {
                if *s > n.resolution() * 1.000_001 {
                    *s = if n.integer {
                        (*s / 2.0).floor().max(1.0)
                    } else {
                        *s / 2.0
                    };
                    moved = true;
                }
            }
            if !moved {
                break;
            }
        }
        let (miss, lower) = worst(&best);
        Ok(Found {
            point: x,
            played: self.played,
            path: std::mem::take(&mut self.path),
            method: "a pattern search on the largest miss over common random numbers (every number tried up and down, steps halved when none helps), each point stopped once clearly worse than the best",
            out_of_reach: (lower > 0.0).then(|| {
                format!(
                    "the targets are out of reach inside the ranges: the closest point still misses by {} (at least {} by its intervals)",
                    amount(best[0].unit, miss),
                    amount(best[0].unit, lower)
                )
            }),
            misses: best,
            budget_spent: self.played >= self.plan.budget,
            between: None,
            response: Vec::new(),
            crossings: Vec::new(),
        })
    }
}

/// How far, as a host reads it: percentage points for a share (issue 80: "misses by 6.8%"
/// meant points), the number otherwise.
pub fn amount(unit: crate::platform::answer::Unit, x: f64) -> String {
    use crate::platform::answer::Unit;
    match unit {
        Unit::Share | Unit::Points => format!("{} points", show(x * 100.0, false)),
        _ => show(x, false),
    }
}

/// A number as a host writes it.
pub fn show(x: f64, integer: bool) -> String {
    if integer {
        format!("{}", x.round() as i64)
    } else {
        let s = format!("{x:.4}");
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

/// Finds the values of `numbers` that bring the command's estimates closest to `targets`.
pub fn search<A: Ask>(
    ask: &A,
    numbers: &[Number],
    targets: &[Target],
    plan: &Plan,
) -> Result<Found, Error> {
    let mut s = Search {
        ask,
        numbers,
        targets,
        plan,
        seen: Vec::new(),
        played: 0,
        path: Vec::new(),
    };
    // One number and one target that reads one estimate against a number or band: bisection.
    let signed = numbers.len() == 1
        && targets.len() == 1
        && targets[0].label.is_some()
        && targets[0].aim != Aim::Equal;
    if signed { s.bisect() } else { s.pattern() }
}

/// Every point of a grid over the ranges at the search's resolution, in order.
pub fn grid(numbers: &[Number]) -> Vec<Vec<f64>> {
    let mut out: Vec<Vec<f64>> = vec![Vec::new()];
    for n in numbers {
        let k = n.grid_points();
        out = out
            .into_iter()
            .flat_map(|p| {
                (0..k).map(move |j| {
                    let mut q = p.clone();
                    q.push(n.fit(n.lo + j as f64 * n.resolution()));
                    q
                })
            })
            .collect();
    }
    out
}

/// Points of the grid, counted without listing them (saturating).
pub fn grid_size(numbers: &[Number]) -> u64 {
    numbers
        .iter()
        .fold(1u64, |a, n| a.saturating_mul(n.grid_points()))
}

/// A grid search at the search's precision, played: every point at `per_point` matches of the
/// same seed; the best point (largest miss smallest) and the matches played.
pub fn grid_search<A: Ask>(
    ask: &A,
    numbers: &[Number],
    targets: &[Target],
    seed: u64,
    per_point: u64,
) -> Result<(Vec<f64>, f64, u64), Error> {
    let mut best: Option<(Vec<f64>, f64)> = None;
    let mut played = 0u64;
    for p in grid(numbers) {
        let t = ask.ask(&p, seed, 0..per_point)?;
        played = played.saturating_add(per_point);
        let w = goal(&misses(targets, &t.sections())?);
        if best.as_ref().is_none_or(|b| w < b.1) {
            best = Some((p, w));
        }
    }
    let (p, w) = best.expect("a grid has a point");
    Ok((p, w, played))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::platform::tally::Tally;

    /// A game whose win rate is `x / 100` exactly in expectation: a match is won when its
    /// uniform draw falls under it. The draw depends on the match alone (common random numbers).
    struct Coin;
    impl Ask for Coin {
        fn ask(&self, p: &[f64], seed: u64, m: Range<u64>) -> Result<Sums, Error> {
            let mut t = Tally::default();
            for i in m {
                let u = (crate::rng::keyed_bits(seed, i) >> 11) as f64 / (1u64 << 53) as f64;
                let rate = p.iter().sum::<f64>() / 100.0 / p.len() as f64;
                t.count("coin", "heads").add(u < rate);
                t.matches += 1;
            }
            Ok(Sums::Tally(t))
        }
    }

    fn target(v: f64) -> Vec<Target> {
        vec![Target {
            section: "win rate by coin".into(),
            label: Some("heads".into()),
            aim: Aim::Value(v),
            tolerance: None,
        }]
    }

    /// A whole number `name` in `[lo, hi]`, the search starting at `start`.
    fn whole(name: &str, lo: f64, hi: f64, start: f64) -> Number {
        Number {
            name: name.into(),
            lo,
            hi,
            integer: true,
            start,
        }
    }

    fn plan(budget: u64) -> Plan {
        Plan {
            seed: 7,
            per_point: 20_000,
            batch: 1_000,
            budget,
        }
    }

    #[test]
    fn sums_of_no_matches_add_nothing_in_any_order() {
        let played = Coin.ask(&[50.0], 7, 0..100).unwrap();
        for order in [[0, 1, 2], [1, 0, 2], [1, 2, 0]] {
            let parts = [played.clone(), Sums::None, Sums::None];
            let mut total = Sums::None;
            for i in order {
                total.merge(parts[i].clone());
            }
            let Sums::Tally(t) = total else {
                panic!("a slice of no matches replaced the sums");
            };
            assert_eq!(t.matches, 100);
        }
    }

    #[test]
    fn bisection_finds_the_number_that_meets_the_target() {
        let n = [whole("p", 0.0, 100.0, 50.0)];
        let f = search(&Coin, &n, &target(0.3), &plan(u64::MAX)).unwrap();
        assert!((f.point[0] - 30.0).abs() <= 1.0, "{:?}", f.point);
        assert!(f.out_of_reach.is_none());
        // Far points stop after a batch or two: far fewer than a grid's matches.
        assert!(f.played * 5 < 101 * 20_000, "{}", f.played);
    }

    #[test]
    fn a_target_outside_the_range_is_said_out_of_reach_with_the_closest_end() {
        let n = [whole("p", 40.0, 60.0, 50.0)];
        let f = search(&Coin, &n, &target(0.9), &plan(u64::MAX)).unwrap();
        assert_eq!(f.point, vec![60.0]);
        assert!(
            f.out_of_reach
                .unwrap()
                .contains("below it at every one of the 9 values scanned")
        );
    }

    /// A coin whose rate is `shape(x)` at point `x`, drawn on common random numbers.
    struct Shaped(fn(f64) -> f64);
    impl Ask for Shaped {
        fn ask(&self, p: &[f64], seed: u64, m: Range<u64>) -> Result<Sums, Error> {
            let mut t = Tally::default();
            for i in m {
                let u = (crate::rng::keyed_bits(seed, i) >> 11) as f64 / (1u64 << 53) as f64;
                t.count("coin", "heads").add(u < (self.0)(p[0]));
                t.matches += 1;
            }
            Ok(Sums::Tally(t))
        }
    }

    // Issue 80: a response need not be monotone. A hump from 10% at the ends to 90% at 50
    // crosses 50% twice; bisection between the ends (both below) called it out of reach.
    #[test]
    fn a_hump_that_crosses_the_target_twice_is_found_and_said_not_monotone() {
        let n = [whole("p", 0.0, 100.0, 50.0)];
        let hump = |x: f64| 0.1 + 0.8 * (1.0 - (x - 50.0).abs() / 50.0);
        let f = search(&Shaped(hump), &n, &target(0.5), &plan(u64::MAX)).unwrap();
        assert!(f.out_of_reach.is_none());
        assert_eq!(f.crossings.len(), 2, "{:?}", f.crossings);
        assert!(
            (f.point[0] - 25.0).abs() <= 1.0 || (f.point[0] - 75.0).abs() <= 1.0,
            "{:?}",
            f.point
        );
        // The response holds every value played, in order of the value.
        assert!(f.response.len() >= 9);
        assert!(f.response.windows(2).all(|w| w[0].0 < w[1].0));
    }

    // A cliff (Elemental Tag's underworld: 1% at 2 points, 30% from 3 on) lands on no value:
    // the search says between which values it fell, and the estimate at both is far from it.
    #[test]
    fn a_cliff_is_bracketed_by_its_two_values_and_neither_is_passed() {
        let n = [whole("p", 1.0, 60.0, 25.0)];
        let cliff = |x: f64| if x < 3.0 { 0.01 } else { 0.3 };
        let f = search(&Shaped(cliff), &n, &target(0.18), &plan(u64::MAX)).unwrap();
        assert_eq!(f.between, Some((2.0, 3.0)));
        assert_eq!(f.crossings.len(), 1);
        assert!(f.misses[0].lower > 0.05, "{:?}", f.misses[0]);
    }

    #[test]
    fn pattern_search_meets_a_target_with_two_numbers() {
        let n = [whole("a", 0.0, 100.0, 80.0), whole("b", 0.0, 100.0, 80.0)];
        let f = search(&Coin, &n, &target(0.25), &plan(u64::MAX)).unwrap();
        let mean = (f.point[0] + f.point[1]) / 2.0;
        assert!((mean - 25.0).abs() <= 1.5, "{:?}", f.point);
    }

    #[test]
    fn the_budget_stops_the_search() {
        let n = [whole("p", 0.0, 100.0, 50.0)];
        let f = search(&Coin, &n, &target(0.3), &plan(5_000)).unwrap();
        assert!(f.budget_spent);
    }

    #[test]
    fn a_like_target_is_met_where_two_estimates_agree() {
        // Tails is held to heads: heads at rate p, tails at 1 - p meet at p = 50.
        struct Two;
        impl Ask for Two {
            fn ask(&self, p: &[f64], seed: u64, m: Range<u64>) -> Result<Sums, Error> {
                let Sums::Tally(mut t) = Coin.ask(p, seed, m)? else {
                    unreachable!("a coin's sums are a tally")
                };
                let heads = t.groups["coin"]["heads"];
                t.count("coin", "tails")
                    .add_rows(heads.trials - heads.wins, heads.trials);
                Ok(Sums::Tally(t))
            }
        }
        let like = [Target {
            section: "win rate by coin".into(),
            label: Some("heads".into()),
            aim: Aim::Like("tails".into()),
            tolerance: None,
        }];
        let f = search(
            &Two,
            &[whole("p", 0.0, 100.0, 10.0)],
            &like,
            &plan(u64::MAX),
        )
        .unwrap();
        assert!((f.point[0] - 50.0).abs() <= 1.0, "{:?}", f.point);
        // Met on the search's seeds: not shown missed (the proof on fresh seeds says more).
        assert_ne!(
            judge(&like, &f.misses).0,
            crate::platform::answer::Outcome::Fail
        );
    }

    /// A section of one share estimated at `value` with the interval `[lo, hi]`.
    fn share(value: f64, lo: f64, hi: f64) -> Vec<Section> {
        vec![Section {
            band: None,
            better: None,
            title: "win rate by coin".into(),
            meaning: String::new(),
            unit: crate::platform::answer::Unit::Share,
            estimates: vec![Estimate {
                label: "heads".into(),
                value,
                lo,
                hi,
                count: 1000,
                exact: false,
                se: None,
            }],
        }]
    }

    /// Issue 80: PASS is "shown inside the tolerance", not "not rejected": the same estimate
    /// with a wide interval reaching the target is INCONCLUSIVE, and says how many more matches
    /// would tell; FAIL needs the interval wholly outside.
    #[test]
    fn pass_means_the_interval_lies_inside_the_tolerance() {
        use crate::platform::answer::Outcome;
        let t = target(0.5);
        let verdict = |s: &[Section]| {
            let m = misses(&t, s).unwrap();
            judge(&t, &m)
        };
        // 50.4% [49.5, 51.3] inside 50 +- 2 points.
        assert_eq!(verdict(&share(0.504, 0.495, 0.513)).0, Outcome::Pass);
        // 50.4% [46.9, 53.9] reaches the target but not inside the tolerance: was PASS.
        let (o, j) = verdict(&share(0.504, 0.469, 0.539));
        assert_eq!(o, Outcome::Inconclusive);
        let more = j[0].more.unwrap();
        assert!(more > 3.0 && more < 10.0, "{more}");
        // 55% [54, 56]: wholly outside 48..52.
        assert_eq!(verdict(&share(0.55, 0.54, 0.56)).0, Outcome::Fail);
        // 52.5% [51.9, 53.1]: outside, but not wholly: INCONCLUSIVE.
        assert_eq!(
            verdict(&share(0.525, 0.515, 0.535)).0,
            Outcome::Inconclusive
        );
        // A stated tolerance: 1 point.
        let tight = [Target {
            tolerance: Some(0.01),
            ..t[0].clone()
        }];
        let m = misses(&tight, &share(0.504, 0.495, 0.513)).unwrap();
        assert_eq!(judge(&tight, &m).0, Outcome::Inconclusive);
        // A band's own ends are its tolerance.
        let band = [Target {
            aim: Aim::Band(0.47, 0.53),
            ..t[0].clone()
        }];
        // README's Loot example, 52.9% [52.5, 53.3] against 47-53%: was PASS.
        let m = misses(&band, &share(0.529, 0.525, 0.533)).unwrap();
        assert_eq!(judge(&band, &m).0, Outcome::Inconclusive);
    }

    /// Several targets: FAIL is decided at the family's level (each interval widened), and one
    /// FAIL makes the whole a FAIL; one INCONCLUSIVE makes it INCONCLUSIVE.
    #[test]
    fn the_family_of_targets_decides_fail_together() {
        use crate::platform::answer::Outcome;
        let one = target(0.5);
        // Just outside at 95% (48% upper end 47.9%), not at the two targets' level.
        let s = share(0.46, 0.441, 0.479);
        let m = misses(&one, &s).unwrap();
        assert_eq!(judge(&one, &m).0, Outcome::Fail);
        let mut many = target(0.5);
        many.extend(target(0.5));
        many.extend(target(0.5));
        let m = misses(&many, &s).unwrap();
        assert_eq!(judge(&many, &m).0, Outcome::Inconclusive);
    }

    #[test]
    fn an_unknown_target_names_the_sections_there_are() {
        let mut t = Tally::default();
        t.count("coin", "heads").add(true);
        let e = misses(
            &[Target {
                section: "win rate by coins".into(),
                label: None,
                aim: Aim::Equal,
                tolerance: None,
            }],
            &Answer::sections(&t, &[]),
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("did you mean `win rate by coin`"), "{e}");
    }

    #[test]
    fn a_grid_has_every_point_at_the_resolution() {
        let n = [
            Number {
                name: "a".into(),
                lo: 1.0,
                hi: 3.0,
                integer: true,
                start: 1.0,
            },
            Number {
                name: "b".into(),
                lo: 0.0,
                hi: 1.0,
                integer: false,
                start: 0.0,
            },
        ];
        assert_eq!(grid(&n).len(), 3 * 65);
        assert_eq!(grid_size(&n), 3 * 65);
        // Every value is one a rules file takes: three decimals at most.
        for p in grid(&n) {
            assert_eq!((p[1] * DECIMALS).round() / DECIMALS, p[1]);
        }
    }

    /// Issue 79: `strong_deals` over [0.5, 1.5] was searched at 0.515625, which the rules
    /// file refuses ("at most 3 decimals"); every point asked is on the three-decimal grid.
    #[test]
    fn a_number_that_is_not_whole_is_searched_on_three_decimals() {
        let n = [Number {
            name: "x".into(),
            lo: 0.5,
            hi: 1.5,
            integer: false,
            start: 1.0,
        }];
        let f = search(&Coin, &n, &target(0.0093), &plan(2_000_000)).unwrap();
        assert!(f.path.len() > 3, "{:?}", f.path);
        assert!(!f.path.is_empty());
        for s in &f.path {
            let x = s.point[0];
            assert_eq!((x * DECIMALS).round() / DECIMALS, x, "{:?}", s.point);
        }
        // A range narrower than the grid's step is searched at the grid's step.
        let tiny = Number {
            name: "y".into(),
            lo: 0.1,
            hi: 0.102,
            integer: false,
            start: 0.1,
        };
        assert_eq!(tiny.resolution(), 0.001);
        assert_eq!(tiny.grid_points(), 3);
    }
}

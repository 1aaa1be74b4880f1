//! What the classic tournament could not answer (CM-40 .. CM-42): which fixed action-point level
//! serves a warrior best, and what share of a clan's budget should go to healers, each measured
//! as the win rate of a challenger clan entered into the reference field.
//!
//! Challengers are written as ordinary clan files ([`warrior_clan`], [`healer_clan`]) and compiled
//! like any other, so what is measured is exactly what a host could write. Melee k at budget b
//! has the same seed for every challenger (CM-41), so variants face the same rosters, wiggles and
//! draws until their own members change the course of the melee.

use crate::error::Error;
use std::ops::Range;

use crate::games::clan_melee::input::clan::Clan;
use crate::games::clan_melee::input::clans;
use crate::games::clan_melee::kernel::engine::{Melee, Outcome, Settings};
use crate::games::clan_melee::simulation::tournament::melee_budget;
use crate::games::clan_melee::state::Field;
use crate::platform::answer::Unit;
use crate::platform::grid::{Cell, Grid};
use crate::platform::runner::Simulation;
use crate::platform::table::{Label, Table};
use crate::platform::tally::{Count, Mean, Tally, thousands};
use crate::rng::match_seed;

/// One question of the analysis.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Study {
    /// Every member a warrior spending the same action points on every enemy (CM-40).
    WarriorAp,
    /// A share of the budget in healers who heal teammates, the rest in warriors (CM-40).
    HealerShare,
}

impl Study {
    pub fn name(self) -> &'static str {
        match self {
            Study::WarriorAp => "warrior AP",
            Study::HealerShare => "healer share",
        }
    }
    /// The value's label in tables: "AP 12", "healers 30%".
    pub fn label(self, value: i32) -> String {
        match self {
            Study::WarriorAp => format!("AP {value}"),
            Study::HealerShare => format!("healers {value}%"),
        }
    }
}

/// A challenger file's head: its name, the study it comes from, and what it is.
fn challenger(name: &str, study: &str, notes: &str) -> String {
    format!(
        "# A challenger of `skirmish analyze clan-melee` (docs/rules/clan-melee.md, CM-40).\n\
         name = \"{name}\"\n\
         source = \"skirmish analyze clan-melee: the {study} study\"\n\
         notes = \"{notes}\"\n\n"
    )
}

/// The challenger of the warrior study: hit points in members of `piece` hp (then one of the
/// remainder), each a warrior asking `ap` against enemies and 0 against teammates (CM-40).
pub fn warrior_clan(ap: i32, piece: i32) -> String {
    challenger(
        &format!("Warriors at AP {ap}"),
        "warrior",
        &format!(
            "Every member a warrior of {piece} hp asking {ap} AP of every enemy (the cap 2 x hp + 10 applies) and 0 of teammates."
        ),
    ) + &format!(
        r#"[[roster]]
members = [{{ kind = "warrior", pool = "H", piece = {piece} }}]

[kinds.warrior]
type = "warrior"
rule = [{{ when = "same", ap = 0 }}, {{ ap = {ap} }}]
"#
    )
}

/// The challenger of the healer study: `share` percent of the budget in healers, the rest in
/// warriors asking `warrior_ap`; members of `piece` hp. A healer restores a teammate's missing hp
/// up to the 10 free AP, and asks 0 of enemies (CM-40).
pub fn healer_clan(share: i32, warrior_ap: i32, piece: i32) -> String {
    challenger(
        &format!("Healers {share}%"),
        "healer",
        &format!(
            "{share}% of the budget in healers of {piece} hp who heal teammates by what they miss, at most the 10 free AP; the rest in warriors asking {warrior_ap} AP of every enemy."
        ),
    ) + &format!(
        r#"[[roster]]
members = [
    {{ kind = "healer", pool = "H / 100 * {share} + H % 100 * {share} / 100", piece = {piece} }},
    {{ kind = "warrior", pool = "rest", piece = {piece} }},
]

[kinds.healer]
type = "healer"
rule = [{{ when = "same", ap = "min(10, other.max - other.hp)" }}, {{ ap = 0 }}]

[kinds.warrior]
type = "warrior"
rule = [{{ when = "same", ap = 0 }}, {{ ap = {warrior_ap} }}]
"#
    )
}

/// One challenger: its study, its parameter and the field it plays in (the reference clans,
/// then the challenger, whose clan id is 9).
pub struct Variant {
    pub study: Study,
    pub value: i32,
    pub field: Field,
}

impl Variant {
    /// Compiles the challenger's clan text into a field with the reference clans.
    pub fn new(study: Study, value: i32, text: &str) -> Result<Variant, Error> {
        let file = format!("({})", study.label(value));
        let clan = Clan::parse(&file, text)?;
        let mut all = clans::reference();
        all.push(clan);
        Ok(Variant {
            study,
            value,
            field: Field::new(all)?,
        })
    }

    pub fn challenger(&self) -> u8 {
        (self.field.clans.len() - 1) as u8
    }
}

/// CM-42: how a clan did against each other clan of its melee, in half points: 2 for each clan
/// it outlasted (that clan was gone while it still had members, or was gone at an earlier turn),
/// 1 for each that stood level with it, 0 otherwise. A winner scores 2 x (clans - 1).
pub fn outlasted_points(o: &Outcome, me: usize) -> i64 {
    let standing = |c: usize| (o.clans[c].survivors > 0, o.clans[c].lasted);
    let mine = standing(me);
    (0..o.clans.len())
        .filter(|&c| c != me)
        .map(|c| match mine.cmp(&standing(c)) {
            std::cmp::Ordering::Greater => 2,
            std::cmp::Ordering::Equal => 1,
            std::cmp::Ordering::Less => 0,
        })
        .sum()
}

/// The analysis on the platform: match m is variant `m / (budgets x melees)`, budget
/// `(m / melees) % budgets`, melee `m % melees`.
pub struct ClanStudy {
    pub variants: Vec<Variant>,
    pub budgets: Vec<i64>,
    pub melees: u64,
    pub settings: Settings,
    pub wiggle: bool,
}

/// How every challenger is built: its members' hit points (`piece`), the healer study's
/// warriors' action points, and the melee's numbers.
pub struct Challengers {
    pub piece: i32,
    pub warrior_ap: i32,
    pub rules: crate::games::clan_melee::rules::Rules,
}

impl ClanStudy {
    /// The study of each `(study, values)` asked: a challenger per value, compiled and checked,
    /// with its clan file's name and text (what the folder keeps beside the melees).
    pub fn build(
        asked: &[(Study, Vec<i32>)],
        c: Challengers,
        budgets: Vec<i64>,
        melees: u64,
        settings: Settings,
        wiggle: bool,
    ) -> Result<(ClanStudy, Vec<(String, String)>), Error> {
        let mut variants = Vec::new();
        let mut texts = Vec::new();
        for (study, values) in asked {
            for &v in values {
                let t = match study {
                    Study::WarriorAp => warrior_clan(v, c.piece),
                    Study::HealerShare => healer_clan(v, c.warrior_ap, c.piece),
                };
                let mut variant = Variant::new(*study, v, &t)?;
                variant.field.rules = c.rules;
                variants.push(variant);
                let file = study.label(v).to_lowercase().replace(['%', ' '], "");
                texts.push((format!("{file}.toml"), t));
            }
        }
        Ok((
            ClanStudy {
                variants,
                budgets,
                melees,
                settings,
                wiggle,
            },
            texts,
        ))
    }

    /// Melees in the study (saturating: the job refuses more than it allows, never a wrapped
    /// count).
    pub fn matches(&self) -> u64 {
        (self.variants.len() as u64).saturating_mul(self.per_variant())
    }
    fn per_variant(&self) -> u64 {
        (self.budgets.len() as u64).saturating_mul(self.melees)
    }

    /// Group of the tally holding a study's win counts at one base budget.
    pub fn group(study: Study, base: i64) -> String {
        format!("{} at budget {base}", study.name())
    }

    /// The challenger's credited wins for each variant and budget, as counted in `tally`.
    /// The variant's entry at budget `base` in a tally's `groups` or `means` (none yet: empty).
    fn at<T: Copy + Default>(
        table: &std::collections::BTreeMap<String, std::collections::BTreeMap<String, T>>,
        v: &Variant,
        base: i64,
    ) -> T {
        table
            .get(&Self::group(v.study, base))
            .and_then(|g| g.get(&v.study.label(v.value)))
            .copied()
            .unwrap_or_default()
    }

    pub fn count(&self, tally: &Tally, v: &Variant, base: i64) -> Count {
        Self::at(&tally.groups, v, base)
    }

    /// The challenger's outlasted points for each variant and budget (CM-42).
    pub fn outlasted(&self, tally: &Tally, v: &Variant, base: i64) -> Mean {
        Self::at(&tally.means, v, base)
    }

    /// Points to a share: the mean share of the other clans outlasted and its 95% interval.
    pub fn outlasted_share(&self, m: &Mean) -> (f64, f64, f64) {
        let full = 2.0 * (self.variants[0].field.clans.len() - 1) as f64;
        let (lo, hi) = m.share_ci95(full);
        (m.mean() / full, lo, hi)
    }

    /// One row per (variant, budget): wins, rate and its 95% Wilson interval (CM-42).
    pub fn table(&self, tally: &Tally) -> Table {
        let mut t = SummaryRows::default();
        for v in &self.variants {
            for &b in &self.budgets {
                let n = self.count(tally, v, b);
                let (lo95, hi95) = n.wilson95();
                let (outlasted, outlasted_lo95, outlasted_hi95) =
                    self.outlasted_share(&self.outlasted(tally, v, b));
                t.push(SummaryRow {
                    study: v.study.name(),
                    value: v.value,
                    base: b as u64,
                    melees: n.trials,
                    wins: n.wins,
                    win_rate: n.rate(),
                    lo95,
                    hi95,
                    outlasted,
                    outlasted_lo95,
                    outlasted_hi95,
                });
            }
        }
        t.finish()
    }
}

crate::table! {
    /// `study.parquet`: the challenger's results by variant and budget.
    struct SummaryRow, SummaryRows = "study" {
        study: Label => "warrior AP or healer share (CM-40)",
        value: i32 => "the challenger's AP level, or its healers' share of the budget in percent",
        base: u64 => "the budget before the wiggle",
        melees: u64 => "melees played",
        wins: u64 => "melees credited to the challenger (CM-11)",
        win_rate: f64 => "wins / melees",
        lo95: f64 => "95% Wilson interval, low end",
        hi95: f64 => "95% Wilson interval, high end",
        outlasted: f64 => "mean share of the other clans the challenger outlasted, level counting half (CM-42)",
        outlasted_lo95: f64 => "95% normal interval of outlasted, low end",
        outlasted_hi95: f64 => "95% normal interval of outlasted, high end",
    }
}

/// The study's grids (issue 50: what `analyze clan-melee challengers` prints): for each question,
/// the challenger's win rate at every budget with the best value, and the share of the other
/// clans it outlasted.
pub fn grids(s: &ClanStudy, tally: &Tally) -> Vec<Grid> {
    let clans = s.variants.first().map_or(10, |v| v.field.clans.len());
    let heads: Vec<String> = s
        .budgets
        .iter()
        .map(|b| format!("budget {}", thousands(*b as u64)))
        .collect();
    let columns: Vec<(&str, Unit)> = heads.iter().map(|h| (h.as_str(), Unit::Share)).collect();
    let mut out = Vec::new();
    for study in [Study::WarriorAp, Study::HealerShare] {
        let vs: Vec<&Variant> = s.variants.iter().filter(|v| v.study == study).collect();
        if vs.is_empty() {
            continue;
        }
        // A grid of one row per challenger, a column per budget.
        let by_challenger =
            |title: String, meaning: String, cell: &dyn Fn(&Variant, i64) -> Cell| {
                let mut g = Grid::new(&title, &meaning, "challenger", &columns);
                for v in &vs {
                    let cells = s.budgets.iter().map(|&b| cell(v, b)).collect();
                    g.row(study.label(v.value), cells);
                }
                g
            };
        let mut wins = by_challenger(
            format!("{}: win rate", study.name()),
            format!(
                "the challenger's win rate against the nine reference clans (95% Wilson interval; {:.0}% is a fair share); best: by win rate, then clans outlasted, with how many more are within reach",
                100.0 / clans as f64
            ),
            &|v, b| Cell::estimate(s.count(tally, v, b).estimate()),
        );
        // Best by win rate, then by clans outlasted; values whose win-rate interval reaches the
        // best rate are not ruled out ("close"). With no wins at all, the longest-lasting value.
        let best = s
            .budgets
            .iter()
            .map(|&b| {
                // A budget no melee of this run reached yet (one shard's part of the study)
                // has no best.
                if vs.iter().all(|v| s.count(tally, v, b).trials == 0) {
                    return Cell::Empty;
                }
                let key = |v: &Variant| {
                    let c = s.count(tally, v, b);
                    let rate = if c.trials == 0 { -1.0 } else { c.rate() };
                    (rate, s.outlasted(tally, v, b).mean())
                };
                let Some(top) = vs.iter().max_by(|x, y| {
                    let (a, b) = (key(x), key(y));
                    a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1))
                }) else {
                    return Cell::Empty;
                };
                let rate = s.count(tally, top, b).rate();
                if rate == 0.0 {
                    return Cell::Text(format!("none; lasts: {}", study.label(top.value)));
                }
                let close = vs
                    .iter()
                    .filter(|w| w.value != top.value && s.count(tally, w, b).wilson95().1 >= rate)
                    .count();
                let more = if close > 0 {
                    format!(" (+{close} close)")
                } else {
                    String::new()
                };
                Cell::Text(format!("{}{more}", study.label(top.value)))
            })
            .collect();
        wins.row("best", best);
        let lasted = by_challenger(
            format!("{}: clans outlasted", study.name()),
            format!(
                "share of the other {} clans the challenger outlasted (level counts half; 95% interval)",
                clans - 1
            ),
            &|v, b| Cell::estimate(s.outlasted_share(&s.outlasted(tally, v, b))),
        );
        out.extend([wins, lasted]);
    }
    out
}

impl Simulation for ClanStudy {
    type Worker = Melee;

    fn name(&self) -> &'static str {
        "clan-melee-study"
    }

    fn grids(&self, tally: &Tally) -> Vec<Grid> {
        grids(self, tally)
    }

    fn tables(&self) -> Vec<&'static str> {
        vec!["melees"]
    }

    fn work_unit(&self) -> &'static str {
        "pair interactions"
    }

    fn worker(&self) -> Melee {
        Melee::new()
    }

    fn worker_memory(&self) -> Option<(u64, String)> {
        use crate::games::clan_melee::kernel::engine::{melee_bytes, widest_budget};
        let h = self
            .budgets
            .iter()
            .map(|&b| widest_budget(b, self.wiggle))
            .max()?;
        self.variants
            .iter()
            .map(|v| (melee_bytes(&v.field, h), format!("a melee at budget {h}")))
            .max()
    }

    fn play(
        &self,
        w: &mut Melee,
        master: u64,
        matches: Range<u64>,
        record: bool,
    ) -> (Vec<Table>, Tally) {
        let mut tally = Tally::default();
        let mut rows = StudyMeleeRows::default();
        let per = self.per_variant();
        for m in matches {
            let v = &self.variants[(m / per) as usize];
            let within = m % per;
            // CM-41: the same seed for melee `within` in every variant.
            let seed = match_seed(master, within);
            let base = self.budgets[(within / self.melees) as usize];
            let h = melee_budget(base, self.wiggle, seed);
            let o = w.play(&v.field, h, &self.settings, seed);
            let me = v.challenger();
            let mine = o.credited == Some(me);
            tally.matches += 1;
            tally.draws += o.credited.is_none() as u64;
            tally.work += o.interactions;
            let group = Self::group(v.study, base);
            let label = v.study.label(v.value);
            tally.count(&group, &label).add(mine);
            let points = outlasted_points(&o, me as usize);
            tally.mean(&group, &label).add(points);
            if !record {
                continue;
            }
            let r = &o.clans[me as usize];
            rows.push(StudyMeleeRow {
                melee_id: m,
                study: v.study.name(),
                value: v.value,
                seed,
                base: base as u64,
                budget: o.budget,
                end: o.end.name(),
                credited: o
                    .credited
                    .map_or("(no one)", |c| v.field.clans[c as usize].name.as_str()),
                challenger_won: mine,
                challenger_members: r.members,
                challenger_survivors: r.survivors,
                turns: o.turns,
                challenger_lasted: r.lasted,
                outlasted: points as f64 / (2 * (o.clans.len() - 1)) as f64,
            });
        }
        if !record {
            return (Vec::new(), tally);
        }
        (vec![rows.finish()], tally)
    }
}

crate::table! {
    /// One row per melee of the study: the melee and its challenger.
    struct StudyMeleeRow, StudyMeleeRows = "melees" {
        melee_id: u64 => "melee index under the master seed",
        study: Label => "warrior AP or healer share (CM-40)",
        value: i32 => "the challenger's parameter",
        seed: u64 => "the melee's own seed (rng::match_seed; a study shares it across variants, CM-41)",
        base: u64 => "the budget before the wiggle",
        budget: i32 => "hit points each clan may field (CM-30)",
        end: Label => "won, all slain, deadlock or turn cap (CM-11, CM-12)",
        credited: Label => "clan credited with the win (reference mode: clan 0 when the survivors' hp total is <= 0, CM-11)",
        challenger_won: bool => "the challenger was credited with the win",
        challenger_members: u32 => "members the challenger fielded",
        challenger_survivors: u32 => "the challenger's members alive at the end",
        turns: u32 => "turns played",
        challenger_lasted: u32 => "the last turn after which the challenger still had members",
        outlasted: f64 => "share of the other clans the challenger outlasted, level counting half (CM-42)",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::clan_melee::input::clan::Made;
    use crate::games::clan_melee::kernel::engine::{ClanResult, End};
    use crate::rng::{Stream, match_stream_rng};

    fn roster(text: &str, h: i32) -> Vec<(u16, i32)> {
        let clan = Clan::parse("challenger", text).unwrap();
        let mut out: Vec<Made> = Vec::new();
        let mut rng = match_stream_rng(1, Stream::Roster);
        clan.build(h, &mut rng, &mut out).unwrap();
        crate::games::clan_melee::input::clan::each_member(&out).collect()
    }

    // CM-40: pieces of `piece` hp, then one of the remainder.
    #[test]
    fn warrior_challenger_cuts_the_budget_into_pieces() {
        assert_eq!(
            roster(&warrior_clan(12, 1000), 2500),
            vec![(0, 1000), (0, 1000), (0, 500)]
        );
        assert_eq!(roster(&warrior_clan(12, 1000), 999), vec![(0, 999)]);
    }

    // CM-40: the healers' share is floor(H x share / 100), without overflow at any budget.
    #[test]
    fn healer_challenger_gives_healers_their_share_and_warriors_the_rest() {
        let r = roster(&healer_clan(30, 10, 1000), 10_000);
        let healers: i32 = r.iter().filter(|m| m.0 == 0).map(|m| m.1).sum();
        let warriors: i32 = r.iter().filter(|m| m.0 == 1).map(|m| m.1).sum();
        assert_eq!((healers, warriors), (3_000, 7_000));
        let r = roster(&healer_clan(33, 10, 1000), 100_000_000);
        let healers: i64 = r.iter().filter(|m| m.0 == 0).map(|m| m.1 as i64).sum();
        assert_eq!(healers, 33_000_000);
        assert_eq!(roster(&healer_clan(0, 10, 1000), 1500).len(), 2);
    }

    fn clan(survivors: u32, lasted: u32) -> ClanResult {
        ClanResult {
            members: 1,
            hp: 1,
            disqualified: None,
            survivors,
            hp_left: survivors as i32,
            lasted,
        }
    }

    // CM-42: outlasting counts 2, standing level 1; still standing beats any elimination turn.
    #[test]
    fn outlasted_points_rank_by_standing_then_last_turn() {
        let o = Outcome {
            budget: 100,
            end: End::TurnCap,
            survivor: None,
            credited: None,
            turns: 50,
            interactions: 0,
            participants: 4,
            clans: vec![clan(0, 40), clan(0, 30), clan(2, 50), clan(0, 40)],
        };
        // Outlasts clan 1, is outlasted by clan 2, level with clan 3.
        assert_eq!(outlasted_points(&o, 0), 3);
        assert_eq!(outlasted_points(&o, 2), 6, "still standing outlasts all");
        assert_eq!(outlasted_points(&o, 1), 0);
    }
}

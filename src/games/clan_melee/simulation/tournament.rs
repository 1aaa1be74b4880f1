//! `skirmish tournament clan-melee` on the platform (CM-30, CM-31): melees per budget, each
//! reproducible from (master seed, melee index) on any thread count; `melees` and `clans` tables.

use std::ops::Range;

/// How a melee is played (its engine, its turn limit) and what one needs in memory: the
/// settings a command gives, here so that a command asks the game, not its kernel.
pub use crate::games::clan_melee::kernel::engine::{By, DEFAULT_MAX_TURNS, Settings, melee_bytes};
use crate::games::clan_melee::kernel::engine::{End, Melee, widest_budget};
use crate::games::clan_melee::rules;
use crate::games::clan_melee::state::Field;
use crate::platform::answer::Unit;
use crate::platform::grid::{Cell, Grid};
use crate::platform::runner::Simulation;
use crate::platform::table::{Label, Table};
use crate::platform::tally::{Count, Tally, thousands};
use crate::rng::{Stream, match_seed, match_stream_rng};

/// The classic tournament's bases (CM-30).
pub const CLASSIC_BUDGETS: [i64; 6] = [100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000];

pub struct ClanTournament {
    pub field: Field,
    /// Base budgets; melee m plays base `budgets[m / melees]`.
    pub budgets: Vec<i64>,
    pub melees: u64,
    pub settings: Settings,
    /// Apply the classic 5% wiggle to each melee's budget (CM-30).
    pub wiggle: bool,
    /// The host's candidate clan (issue 51), the field's last: how often it was disqualified
    /// at each budget is counted (issue 62: over budget it read 0% and a rank, nothing more).
    pub candidate: Option<usize>,
}

/// The budget a melee with this `seed` plays at `base`: wiggled (CM-30) from its Budget stream.
pub fn melee_budget(base: i64, wiggle: bool, seed: u64) -> i32 {
    let h = if wiggle {
        rules::wiggle(base, &mut match_stream_rng(seed, Stream::Budget))
    } else {
        base
    };
    h as i32
}

pub const ENDS: [End; 4] = [End::Won, End::AllSlain, End::Deadlock, End::TurnCap];

impl ClanTournament {
    pub fn matches(&self) -> u64 {
        (self.budgets.len() as u64).saturating_mul(self.melees)
    }

    /// Melee `m`'s base and budget.
    pub fn budget(&self, m: u64, seed: u64) -> (i64, i32) {
        let base = self.budgets[(m / self.melees) as usize];
        (base, melee_budget(base, self.wiggle, seed))
    }

    pub fn group(base: i64) -> String {
        format!("wins at budget {base}")
    }
}

impl Simulation for ClanTournament {
    type Worker = Melee;

    fn name(&self) -> &'static str {
        "clan-melee"
    }

    fn tables(&self) -> Vec<&'static str> {
        vec!["melees", "clans"]
    }

    fn grids(&self, tally: &Tally) -> Vec<Grid> {
        grids(self, tally)
    }

    fn work_unit(&self) -> &'static str {
        "pair interactions"
    }

    fn worker(&self) -> Melee {
        Melee::new()
    }

    fn worker_memory(&self) -> Option<(u64, String)> {
        self.budgets
            .iter()
            .map(|&b| {
                let h = widest_budget(b, self.wiggle);
                (
                    melee_bytes(&self.field, h),
                    format!("a melee at budget {h}"),
                )
            })
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
        let (mut melees, mut clans) = (MeleeRows::default(), ClanRows::default());
        let names: Vec<&str> = self.field.clans.iter().map(|c| c.name.as_str()).collect();
        for m in matches {
            let seed = match_seed(master, m);
            let (base, h) = self.budget(m, seed);
            let o = w.play(&self.field, h, &self.settings, seed);
            tally.matches += 1;
            tally.draws += o.credited.is_none() as u64;
            tally.work += o.interactions;
            let group = Self::group(base);
            for (c, name) in names.iter().enumerate() {
                tally.count(&group, name).add(o.credited == Some(c as u8));
            }
            for e in ENDS {
                tally
                    .count(
                        &format!("share of melees by how they end at budget {base}"),
                        e.name(),
                    )
                    .add(o.end == e);
            }
            if let Some(c) = self.candidate {
                tally
                    .count(
                        &format!(
                            "{} melees the candidate was disqualified from (CM-5) at budget {base}",
                            crate::platform::tally::SHARE_OF
                        ),
                        names[c],
                    )
                    .add(o.clans[c].disqualified.is_some());
            }
            tally
                .mean("turns per melee, by budget", &base.to_string())
                .add(o.turns as i64);
            if !record {
                continue;
            }
            melees.push(MeleeRow {
                melee_id: m,
                seed,
                base: base as u64,
                budget: o.budget,
                end: o.end.name(),
                survivor: o.survivor.map(u16::from),
                credited: o.credited.map_or("(no one)", |c| names[c as usize]),
                turns: o.turns,
                interactions: o.interactions,
                participants: o.participants,
            });
            for (c, r) in o.clans.iter().enumerate() {
                clans.push(ClanRow {
                    melee_id: m,
                    base: base as u64,
                    clan_id: c as u8,
                    clan: names[c],
                    members: r.members,
                    hp: r.hp as i32,
                    disqualified: r.disqualified.as_deref().unwrap_or(""),
                    survivors: r.survivors,
                    hp_left: r.hp_left,
                    survived: o.survivor == Some(c as u8),
                    credited: o.credited == Some(c as u8),
                    lasted: r.lasted,
                });
            }
        }
        if !record {
            return (Vec::new(), tally);
        }
        (vec![melees.finish(), clans.finish()], tally)
    }
}

crate::table! {
    /// One row per melee.
    struct MeleeRow, MeleeRows = "melees" {
        melee_id: u64 => "melee index under the master seed",
        seed: u64 => "the melee's own seed (rng::match_seed; a study shares it across variants, CM-41)",
        base: u64 => "the budget before the wiggle",
        budget: i32 => "hit points each clan may field (CM-30)",
        end: Label => "won, all slain, deadlock or turn cap (CM-11, CM-12)",
        survivor: Option<u16> => "clan id left standing; null unless the melee was won",
        credited: Label => "clan credited with the win (reference mode: clan 0 when the survivors' hp total is <= 0, CM-11)",
        turns: u32 => "turns played",
        interactions: u64 => "pair interactions resolved",
        participants: u32 => "participants in turn 1",
    }
}

crate::table! {
    /// One row per clan of each melee.
    struct ClanRow, ClanRows = "clans" {
        melee_id: u64 => "melee index",
        base: u64 => "the budget before the wiggle",
        clan_id: u8 => "the clan's position in the field (CM-5)",
        clan: Label => "the clan's name",
        members: u32 => "members fielded (0 if disqualified)",
        hp: i32 => "hit points fielded, after the 1000 cap",
        disqualified: Label => "why the clan did not play this melee; empty if it did (CM-5)",
        survivors: u32 => "members alive at the end",
        hp_left: i32 => "survivors' total hp, a wrapping 32-bit sum as the reference computes it",
        survived: bool => "the clan left standing",
        credited: bool => "credited with the win",
        lasted: u32 => "the last turn after which the clan still had members (0: none after turn 1)",
    }
}

/// The win table (issue 50: the summary's grid): clans down, budgets across, wins of melees with
/// 95% Wilson intervals, then how the melees ended at each budget.
pub fn grids(t: &ClanTournament, tally: &Tally) -> Vec<Grid> {
    let heads: Vec<String> = t.budgets.iter().map(|b| thousands(*b as u64)).collect();
    let columns: Vec<(&str, Unit)> = heads.iter().map(|h| (h.as_str(), Unit::Share)).collect();
    let mut g = Grid::new(
        "wins per clan and budget",
        "wins/melees, 95% Wilson interval; then how the melees ended",
        "clan",
        &columns,
    );
    // The count of `name` in each budget's group, budget by budget.
    let across = |group: &dyn Fn(i64) -> String, name: &str| -> Vec<Option<&Count>> {
        t.budgets
            .iter()
            .map(|b| tally.groups.get(&group(*b)).and_then(|g| g.get(name)))
            .collect()
    };
    for c in &t.field.clans {
        let cells = across(&ClanTournament::group, &c.name)
            .into_iter()
            .map(|n| {
                n.map_or(Cell::Empty, |n| {
                    let (lo, hi) = n.wilson95();
                    Cell::Of {
                        part: n.wins,
                        whole: n.trials,
                        lo,
                        hi,
                    }
                })
            })
            .collect();
        g.row(c.name.clone(), cells);
    }
    for e in ENDS {
        let ends = |b: i64| format!("share of melees by how they end at budget {b}");
        let cells = across(&ends, e.name())
            .into_iter()
            .map(|n| Cell::Count(n.map_or(0, |n| n.wins)))
            .collect();
        g.row(format!("({})", e.name()), cells);
    }
    vec![g]
}

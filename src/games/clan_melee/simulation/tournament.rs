//! `skirmish tournament clan-melee` on the platform (CM-30, CM-31): melees per budget, each
//! reproducible from (master seed, melee index) on any thread count; `melees` and `clans` tables.

use std::ops::Range;

use crate::games::clan_melee::kernel::engine::{End, Melee, Settings, melee_bytes, widest_budget};
use crate::games::clan_melee::rules;
use crate::games::clan_melee::simulation::rows::MeleeRows;
use crate::games::clan_melee::state::Field;
use crate::platform::runner::Simulation;
use crate::platform::table::{LabelBuilder, Table, Values, col};
use crate::platform::tally::{Tally, thousands};
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
        let mut rows = MeleeRows::default();
        let (mut m_survivor, mut m_inter, mut m_part) = (vec![], vec![], vec![]);
        let (mut c_id, mut c_base, mut c_clan_id) = (vec![], vec![], vec![]);
        let mut c_clan = LabelBuilder::default();
        let (mut c_members, mut c_hp, mut c_left, mut c_surv) = (vec![], vec![], vec![], vec![]);
        let mut c_dq = LabelBuilder::default();
        let (mut c_survived, mut c_credited, mut c_lasted) = (vec![], vec![], vec![]);
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
                    .count(&format!("how melees end at budget {base}"), e.name())
                    .add(o.end == e);
            }
            tally
                .mean("turns per melee, by budget", &base.to_string())
                .add(o.turns as i64);
            if !record {
                continue;
            }
            rows.push(
                m,
                seed,
                base,
                &o,
                o.credited.map_or("(no one)", |c| names[c as usize]),
            );
            m_survivor.push(o.survivor.map(u16::from));
            m_inter.push(o.interactions);
            m_part.push(o.participants);
            for (c, r) in o.clans.iter().enumerate() {
                c_id.push(m);
                c_base.push(base as u64);
                c_clan_id.push(c as u8);
                c_clan.push(names[c]);
                c_members.push(r.members);
                c_hp.push(r.hp as i32);
                c_dq.push(r.disqualified.as_deref().unwrap_or(""));
                c_surv.push(r.survivors);
                c_left.push(r.hp_left);
                c_survived.push(o.survivor == Some(c as u8));
                c_credited.push(o.credited == Some(c as u8));
                c_lasted.push(r.lasted);
            }
        }
        if !record {
            return (Vec::new(), tally);
        }
        let r = rows.finish();
        let melees = Table {
            name: "melees",
            columns: vec![
                r.id,
                r.seed,
                r.base,
                r.budget,
                r.end,
                col(
                    "survivor",
                    "clan id left standing; null unless the melee was won",
                    Values::OptU16(m_survivor),
                ),
                r.credited,
                r.turns,
                col(
                    "interactions",
                    "pair interactions resolved",
                    Values::U64(m_inter),
                ),
                col(
                    "participants",
                    "participants in turn 1",
                    Values::U32(m_part),
                ),
            ],
        };
        let clans = Table {
            name: "clans",
            columns: vec![
                col("melee_id", "melee index", Values::U64(c_id)),
                col("base", "the budget before the wiggle", Values::U64(c_base)),
                col(
                    "clan_id",
                    "the clan's position in the field (CM-5)",
                    Values::U8(c_clan_id),
                ),
                col("clan", "the clan's name", c_clan.finish()),
                col(
                    "members",
                    "members fielded (0 if disqualified)",
                    Values::U32(c_members),
                ),
                col(
                    "hp",
                    "hit points fielded, after the 1000 cap",
                    Values::I32(c_hp),
                ),
                col(
                    "disqualified",
                    "why the clan did not play this melee; empty if it did (CM-5)",
                    c_dq.finish(),
                ),
                col("survivors", "members alive at the end", Values::U32(c_surv)),
                col(
                    "hp_left",
                    "survivors' total hp, a wrapping 32-bit sum as the reference computes it",
                    Values::I32(c_left),
                ),
                col(
                    "survived",
                    "the clan left standing",
                    Values::Bool(c_survived),
                ),
                col(
                    "credited",
                    "credited with the win",
                    Values::Bool(c_credited),
                ),
                col(
                    "lasted",
                    "the last turn after which the clan still had members (0: none after turn 1)",
                    Values::U32(c_lasted),
                ),
            ],
        };
        (vec![melees, clans], tally)
    }
}

/// The win table: clans down, budgets across, wins with 95% Wilson intervals, then how the melees
/// ended per budget.
pub fn win_table(t: &ClanTournament, tally: &Tally) -> String {
    let mut s = String::from("\nwins per clan and budget (wins/melees, 95% Wilson interval)\n");
    s.push_str(&format!("{:<28}", "clan"));
    for b in &t.budgets {
        s.push_str(&format!("{:>22}", thousands(*b as u64)));
    }
    s.push('\n');
    for c in &t.field.clans {
        s.push_str(&format!("{:<28}", c.name));
        for b in &t.budgets {
            let cell = tally
                .groups
                .get(&ClanTournament::group(*b))
                .and_then(|g| g.get(&c.name))
                .map(|n| {
                    let (lo, hi) = n.wilson95();
                    format!(
                        "{}/{} [{:.0}-{:.0}%]",
                        n.wins,
                        n.trials,
                        100.0 * lo,
                        100.0 * hi
                    )
                })
                .unwrap_or_default();
            s.push_str(&format!("{cell:>22}"));
        }
        s.push('\n');
    }
    for e in ENDS {
        s.push_str(&format!("{:<28}", format!("({})", e.name())));
        for b in &t.budgets {
            let n = tally
                .groups
                .get(&format!("how melees end at budget {b}"))
                .and_then(|g| g.get(e.name()))
                .map_or(0, |n| n.wins);
            s.push_str(&format!("{:>22}", thousands(n)));
        }
        s.push('\n');
    }
    s
}

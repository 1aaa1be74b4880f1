//! The columns every melee row has, in the tournament's and the study's `melees` tables alike:
//! which melee, its seed and budget, how it ended, who was credited, how long it ran.

use crate::games::clan_melee::kernel::engine::Outcome;
use crate::platform::table::{Column, LabelBuilder, Values, col};

#[derive(Default)]
pub struct MeleeRows {
    id: Vec<u64>,
    seed: Vec<u64>,
    base: Vec<u64>,
    budget: Vec<i32>,
    end: LabelBuilder,
    credited: LabelBuilder,
    turns: Vec<u32>,
}

/// The shared columns, named so each table places them in its own order.
pub struct MeleeColumns {
    pub id: Column,
    pub seed: Column,
    pub base: Column,
    pub budget: Column,
    pub end: Column,
    pub credited: Column,
    pub turns: Column,
}

impl MeleeRows {
    /// Melee `m` of base budget `base`, played from `seed`; `credited` names the clan credited.
    pub fn push(&mut self, m: u64, seed: u64, base: i64, o: &Outcome, credited: &str) {
        self.id.push(m);
        self.seed.push(seed);
        self.base.push(base as u64);
        self.budget.push(o.budget);
        self.end.push(o.end.name());
        self.credited.push(credited);
        self.turns.push(o.turns);
    }

    pub fn finish(self) -> MeleeColumns {
        MeleeColumns {
            id: col(
                "melee_id",
                "melee index under the master seed",
                Values::U64(self.id),
            ),
            seed: col(
                "seed",
                "the melee's own seed (rng::match_seed; a study shares it across variants, CM-41)",
                Values::U64(self.seed),
            ),
            base: col(
                "base",
                "the budget before the wiggle",
                Values::U64(self.base),
            ),
            budget: col(
                "budget",
                "hit points each clan may field (CM-30)",
                Values::I32(self.budget),
            ),
            end: col(
                "end",
                "won, all slain, deadlock or turn cap (CM-11, CM-12)",
                self.end.finish(),
            ),
            credited: col(
                "credited",
                "clan credited with the win (reference mode: clan 0 when the survivors' hp total is <= 0, CM-11)",
                self.credited.finish(),
            ),
            turns: col("turns", "turns played", Values::U32(self.turns)),
        }
    }
}

//! The hero table: struct-of-arrays, fixed capacity, reused across battles.
//!
//! Rows are kept physically in initiative order (AR-6), so every phase and every attack walks the
//! arrays front to back. Copies are inserted directly after their original by rebuilding into a
//! second table at the end of the round (one linear pass) instead of shifting rows mid-phase, and
//! dead heroes are dropped in the same pass. A consequence worth knowing: a team's heroes always
//! sit in one contiguous block (they share an initiative and copies land next to their original).

/// Identity of a hero within one battle: originals are numbered by roster position, copies
/// continue from there in creation order. The reference model numbers them the same way.
pub type HeroId = u32;

/// One table of heroes. Every array has `capacity` slots; the first `len` are live rows.
#[derive(Clone, Debug)]
pub struct HeroTable {
    pub energy: Vec<i32>,
    pub defence: Vec<i32>,
    /// Titanium Skin's remaining budget (AR-12); 0 for heroes without it.
    pub prevention: Vec<i32>,
    /// Crystallize's X (AR-8).
    pub crystal: Vec<i32>,
    pub team: Vec<u16>,
    pub id: Vec<HeroId>,
    /// This round's plan: how many use-order items fit the budget (AR-3).
    pub plan: Vec<u8>,
    pub len: usize,
}

impl HeroTable {
    pub fn with_capacity(capacity: usize) -> HeroTable {
        HeroTable {
            energy: vec![0; capacity],
            defence: vec![0; capacity],
            prevention: vec![0; capacity],
            crystal: vec![0; capacity],
            team: vec![0; capacity],
            id: vec![0; capacity],
            plan: vec![0; capacity],
            len: 0,
        }
    }

    #[inline]
    pub fn capacity(&self) -> usize {
        self.energy.len()
    }

    /// Appends row `i` of `from` (the state a copy inherits; defence and plan are per round).
    #[inline]
    pub fn push_row(&mut self, from: &HeroTable, i: usize) {
        let k = self.len;
        self.energy[k] = from.energy[i];
        self.defence[k] = 0;
        self.prevention[k] = from.prevention[i];
        self.crystal[k] = from.crystal[i];
        self.team[k] = from.team[i];
        self.id[k] = from.id[i];
        self.plan[k] = 0;
        self.len = k + 1;
    }
}

/// What an observer sees of the table at the end of a round: the alive heroes in order.
#[derive(Clone, Copy, Debug)]
pub struct RoundView<'a> {
    pub id: &'a [HeroId],
    pub team: &'a [u16],
    pub energy: &'a [i32],
}

impl HeroTable {
    #[inline]
    pub fn view(&self) -> RoundView<'_> {
        RoundView {
            id: &self.id[..self.len],
            team: &self.team[..self.len],
            energy: &self.energy[..self.len],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // The kernel's memory per hero slot: the hot arrays stay small so 4096 heroes fit in L2.
    #[test]
    fn a_hero_row_costs_at_most_27_bytes() {
        // Summed over the table's real columns, so a wider column type fails this test.
        let t = HeroTable::with_capacity(1);
        let row = size_of_val(&t.energy[0])
            + size_of_val(&t.defence[0])
            + size_of_val(&t.prevention[0])
            + size_of_val(&t.crystal[0])
            + size_of_val(&t.team[0])
            + size_of_val(&t.id[0])
            + size_of_val(&t.plan[0]);
        assert_eq!(row, 23);
        assert!(row <= 27);
    }
}

/// The hit being resolved, as the data reference and the general kernel both keep it: what
/// `attacked` clauses may still change (`in_flight`, `negated`, AR-38) and what reactions read
/// (`hit.arriving`, `hit.damage`, AR-57). A hit inside another hit's reactions saves and
/// restores it whole.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Resolving {
    pub in_flight: i32,
    pub negated: i32,
    pub arriving: i32,
    pub damage: i32,
}

/// Which side a hero fights on. Heroes of a team (originals, copies, ordinary summons) fight
/// the other teams; a hostile summon fights only its summoner's team (AR-42); neutral summons
/// are one third side that fights every team (AR-60). Summons that are hostile or neutral keep
/// no team in the battle and never win.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Side {
    #[default]
    Team,
    Hostile,
    Neutral,
}

impl Side {
    /// Whether a hero of `(team, self)` and one of `(other_team, other)` fight each other.
    #[inline]
    pub fn opposed(self, team: u16, other: Side, other_team: u16) -> bool {
        match (self, other) {
            (Side::Team, Side::Team) => team != other_team,
            (Side::Team, Side::Hostile) | (Side::Hostile, Side::Team) => team == other_team,
            (Side::Team, Side::Neutral) | (Side::Neutral, Side::Team) => true,
            // Hostile and neutral summons belong to no team: they ignore each other.
            _ => false,
        }
    }

    /// Whether they are allies (`all_allies`, `allies_alive`): a team's own heroes; hostile
    /// summons of one summoner's team; every neutral summon.
    #[inline]
    pub fn allied(self, team: u16, other: Side, other_team: u16) -> bool {
        self == other && (self == Side::Neutral || team == other_team)
    }
}

#[cfg(test)]
mod side_tests {
    use super::Side::*;

    // AR-42, AR-60: who fights whom.
    #[test]
    fn sides_fight_as_the_rules_say() {
        assert!(Team.opposed(0, Team, 1) && !Team.opposed(0, Team, 0));
        assert!(Hostile.opposed(0, Team, 0) && !Hostile.opposed(0, Team, 1));
        assert!(Neutral.opposed(0, Team, 0) && Neutral.opposed(0, Team, 1));
        assert!(!Neutral.opposed(0, Neutral, 1) && !Neutral.opposed(0, Hostile, 0));
        assert!(!Hostile.opposed(0, Hostile, 0));
        assert!(Neutral.allied(0, Neutral, 1) && !Team.allied(0, Neutral, 0));
        assert!(Team.allied(2, Team, 2) && !Hostile.allied(0, Hostile, 1));
    }
}

//! The optimised battle kernel: one Auto Rumble battle over the struct-of-arrays hero table.
//!
//! No IO, no threads, no strings, and no heap allocation once a [`Kernel`] exists: every buffer is
//! sized to the capacity up front and reused battle after battle (tests/games/auto_rumble_zero_alloc.rs).
//! Its twin, [`crate::games::auto_rumble::reference::hand`], plays the same rules plainly; tests/games/auto_rumble_differential.rs
//! holds them to identical per-round Energies.

use crate::games::auto_rumble::input::roster::{TeamBuild, UseItem};
use crate::games::auto_rumble::kernel::powerless;
use crate::games::auto_rumble::powers::sample::{Power, PowerSet};
use crate::games::auto_rumble::rules;
use crate::games::auto_rumble::state::{HeroId, HeroTable};
use crate::games::auto_rumble::trace::hand::{Hit, Observer};

/// How a battle ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndReason {
    /// At most one team alive at the end of a round (AR-14); `winner` is that team or none.
    Elimination,
    /// Round limit reached; decided by Energy, then initiative (AR-14).
    RoundLimit,
    /// A power's `win` effect ended the battle at once (AR-30).
    PowerWin,
}

/// The result of one battle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// The winning team (its roster index), `None` for a draw.
    pub winner: Option<u16>,
    /// Rounds played (0 when at most one team could fight, AR-16).
    pub rounds: u32,
    /// A copy was not created for lack of capacity (AR-15).
    pub capped: bool,
    pub end: EndReason,
    /// Hits resolved (one attacker hitting one target), for throughput reports.
    pub hits: u64,
    /// Heroes alive at the end.
    pub survivors: u32,
}

/// Scratch storage for battles, reused from one battle to the next.
#[derive(Clone, Debug)]
pub struct Kernel {
    front: HeroTable,
    back: HeroTable,
    /// Copies made in the end-of-round phase, merged in after it (AR-11: born heroes do not act).
    pending: HeroTable,
    pending_parent: Vec<u32>,
    team_alive: Vec<u32>,
    round_deaths: Vec<u32>,
    sort: Vec<u16>,
    /// Each entered row's hit damage (AR-2), for powerless battles: their rows never move.
    hit: Vec<i32>,
}

/// Per-battle counters that the phases share.
struct Tally {
    teams_alive: u32,
    alive: u32,
    round_deaths: u32,
    lost_energy: bool,
    hits: u64,
}

impl Kernel {
    /// Scratch for battles of up to `capacity` heroes (AR-15). This is the only allocation.
    pub fn new(capacity: usize) -> Kernel {
        let capacity = capacity.max(1);
        Kernel {
            front: HeroTable::with_capacity(capacity),
            back: HeroTable::with_capacity(capacity),
            pending: HeroTable::with_capacity(capacity),
            pending_parent: vec![0; capacity],
            hit: vec![0; capacity],
            team_alive: Vec::new(),
            round_deaths: Vec::new(),
            sort: Vec::new(),
        }
    }

    pub fn capacity(&self) -> usize {
        self.front.capacity()
    }

    /// Heroes of `team` alive at the end of the last battle.
    pub fn team_alive(&self, team: u16) -> u32 {
        self.team_alive[team as usize]
    }

    /// Hero `id`'s Energy at the end of the last battle; `None` if it died or never entered.
    /// (Originals have the ids of their roster positions.)
    pub fn hero_energy(&self, id: HeroId) -> Option<i32> {
        let f = &self.front;
        // Dead rows may linger until compaction: only Energy > 0 is alive (AR-5).
        (0..f.len)
            .find(|&i| f.id[i] == id && f.energy[i] > 0)
            .map(|i| f.energy[i])
    }

    /// Plays one battle. `initiative[t]` is team `t`'s initiative (AR-2); heroes enter in roster
    /// order, which is the tie-break for equal initiatives (AR-6).
    pub fn run<O: Observer>(
        &mut self,
        builds: &[TeamBuild],
        initiative: &[f64],
        max_rounds: u32,
        obs: &mut O,
    ) -> Outcome {
        assert_eq!(builds.len(), initiative.len(), "one initiative per team");
        assert!(builds.len() <= u16::MAX as usize, "team ids are 16-bit");
        let teams = builds.len();
        let mut capped = false;
        // Grows only for a roster bigger than any seen before: no allocation after warm-up.
        if self.team_alive.len() < teams {
            self.team_alive.resize(teams, 0);
            self.round_deaths.resize(teams, 0);
            self.sort.reserve(teams);
        }

        rules::initiative_order(&initiative[..teams], &mut self.sort);
        let front = &mut self.front;
        front.len = 0;
        let mut tally = Tally {
            teams_alive: 0,
            alive: 0,
            round_deaths: 0,
            lost_energy: false,
            hits: 0,
        };
        // Phases no hero uses are skipped whole (the default battle has no end-of-round powers).
        let mut any = PowerSet::default();
        for &t in &self.sort {
            let b = &builds[t as usize];
            any.0 |= b.powers.0;
            self.team_alive[t as usize] = 0;
            // AR-16: a hero starting at Energy <= 0 never enters. AR-15: nor one past capacity.
            if b.energy <= 0 {
                continue;
            }
            if front.len == front.capacity() {
                capped = true;
                continue;
            }
            let k = front.len;
            front.energy[k] = b.energy;
            front.defence[k] = 0;
            front.prevention[k] = if b.powers.has(Power::TitaniumSkin) {
                rules::TITANIUM_SKIN_BUDGET
            } else {
                0
            };
            front.crystal[k] = 1;
            front.team[k] = t;
            front.id[k] = t as HeroId;
            self.hit[k] = rules::hit_damage(b.damage, false);
            front.len = k + 1;
            self.team_alive[t as usize] = 1;
            tally.teams_alive += 1;
            tally.alive += 1;
        }
        let mut next_id = teams as HeroId;
        let any_end = any.has(Power::Amoeba) || any.has(Power::Souleater);
        let any_souleater = any.has(Power::Souleater);
        // No hero holds a power: no defence, prevention, copies or end-of-round phase, so a round
        // is two tight passes (`powerless_round`). Observers always take the general path.
        let powerless = !O::ENABLED && any.0 == 0;

        let mut rounds = 0;
        let mut quiet = 0;
        let mut end = EndReason::Elimination;
        let mut winner = None;
        if tally.teams_alive <= 1 {
            winner = self.last_team_standing(teams);
        }
        while tally.teams_alive > 1 {
            rounds += 1;
            let n = self.front.len;
            obs.round_start(rounds, tally.alive);
            if any_souleater {
                self.round_deaths[..teams].fill(0);
            }
            tally.round_deaths = 0;
            tally.lost_energy = false;

            if powerless {
                // Rounds in which every hero keeps its plan and nobody can fall end alike, so
                // they are played together (same Energies, hits and rounds as one by one).
                let f = &mut self.front;
                let (energy, hit) = (&mut f.energy[..f.len], &self.hit[..f.len]);
                let damage = |i: usize| hit[i];
                let ahead = powerless::rounds_ahead(
                    rules::ATTACK_COST,
                    energy,
                    damage,
                    max_rounds - (rounds - 1),
                );
                if ahead >= 2 {
                    tally.hits += powerless::play_rounds(rules::ATTACK_COST, energy, damage, ahead);
                    tally.lost_energy = true;
                    rounds += ahead - 1;
                } else {
                    self.powerless_round(&mut tally);
                }
            } else {
                self.start_of_round(builds, tally.alive, obs);
                self.actions(builds, &mut tally, obs);
            }
            let copies = if any_end {
                self.end_of_round(builds, &mut tally, &mut next_id, &mut capped, obs)
            } else {
                0
            };

            // AR-13: stalemate after the end-of-round powers.
            quiet = if tally.lost_energy { 0 } else { quiet + 1 };
            if quiet == rules::STALEMATE_QUIET_ROUNDS {
                quiet = 0;
                self.stalemate(copies, &mut tally, obs);
            }

            // Drop the dead and insert copies after their originals, in one pass (AR-6, AR-11).
            // Without copies, dead rows may stay (every phase skips Energy <= 0) until they are
            // half the table; an observer always sees a compacted table.
            let dead = n.saturating_sub(tally.alive as usize);
            if copies > 0 || (dead > 0 && (O::ENABLED || (!powerless && dead * 2 > n))) {
                self.rebuild(copies);
            }
            if O::ENABLED {
                obs.round_end(rounds, self.front.view());
            }

            if tally.teams_alive <= 1 {
                winner = self.last_team_standing(teams);
                break;
            }
            if rounds >= max_rounds {
                end = EndReason::RoundLimit;
                winner = self.round_limit_winner(initiative);
                break;
            }
        }

        Outcome {
            winner,
            rounds,
            capped,
            end,
            hits: tally.hits,
            survivors: tally.alive,
        }
    }

    /// A whole round when no hero holds a power ([`powerless::play_round`]).
    #[inline(always)]
    fn powerless_round(&mut self, tally: &mut Tally) {
        let f = &mut self.front;
        let n = f.len;
        let hit = &self.hit[..n];
        let (team_alive, round_deaths) = (&mut self.team_alive, &mut self.round_deaths);
        let (hits, lost) = powerless::play_round(
            rules::ATTACK_COST,
            &mut f.energy[..n],
            &mut f.plan[..n],
            &f.team[..n],
            |i| hit[i],
            |t| die(t, team_alive, round_deaths, tally),
        );
        tally.hits += hits;
        tally.lost_energy |= lost;
    }

    /// Phase 1: defence resets (AR-4), the plan is fixed from the Energy held now (AR-3), Cosmic
    /// Shield fires (AR-7). Each hero touches only its own row, so one pass in order is the phase.
    #[inline(always)]
    fn start_of_round<O: Observer>(&mut self, builds: &[TeamBuild], alive: u32, obs: &mut O) {
        let f = &mut self.front;
        let n = f.len;
        let shield = rules::COSMIC_SHIELD_PER_HERO.saturating_mul(alive as i32);
        let (energy, defence, plan) = (&f.energy[..n], &mut f.defence[..n], &mut f.plan[..n]);
        for i in 0..n {
            let b = &builds[f.team[i] as usize];
            let p = b.plan_len(energy[i]);
            plan[i] = p;
            defence[i] = 0;
            if O::ENABLED {
                obs.plan(
                    f.id[i],
                    energy[i],
                    &b.uses()[..p as usize],
                    b.claws_out[p as usize],
                );
            }
            if b.powers.has(Power::CosmicShield) {
                defence[i] = shield;
                obs.shield(f.id[i], shield);
            }
        }
    }

    /// Phase 2: each alive hero walks its plan, in initiative order (AR-6).
    #[inline(always)]
    fn actions<O: Observer>(&mut self, builds: &[TeamBuild], tally: &mut Tally, obs: &mut O) {
        let n = self.front.len;
        for i in 0..n {
            if self.front.energy[i] <= 0 {
                continue; // AR-5: the dead take no further action
            }
            let team = self.front.team[i];
            let b = &builds[team as usize];
            let plan = self.front.plan[i] as usize;
            for &item in &b.uses()[..plan] {
                match item {
                    UseItem::Attack => {
                        let damage = rules::hit_damage(b.damage, b.claws_out[plan]);
                        obs.attack(self.front.id[i], damage);
                        self.attack(i, team, damage, tally, obs);
                    }
                    UseItem::Power(Power::Crystallize) => {
                        let f = &mut self.front;
                        let x = f.crystal[i];
                        f.defence[i] = f.defence[i].saturating_add(x);
                        f.crystal[i] = x.saturating_mul(2); // AR-8, AR-18
                        obs.crystallize(f.id[i], x);
                    }
                    UseItem::Power(_) => {
                        unreachable!("only Spend powers are in a use order (AR-17)")
                    }
                }
            }
        }
    }

    /// Phase 3: end-of-round powers in initiative order, each hero's in the order held. Copies go
    /// to `pending` and join the table after the phase (AR-11). Returns the number of copies.
    #[inline(always)]
    fn end_of_round<O: Observer>(
        &mut self,
        builds: &[TeamBuild],
        tally: &mut Tally,
        next_id: &mut HeroId,
        capped: &mut bool,
        obs: &mut O,
    ) -> usize {
        let mut copies = 0;
        self.pending.len = 0;
        let n = self.front.len;
        for i in 0..n {
            let f = &mut self.front;
            if f.energy[i] <= 0 {
                continue; // AR-5: a dead hero's end-of-round powers do not fire
            }
            let team = f.team[i];
            for &p in builds[team as usize].ends() {
                match p {
                    Power::Souleater => {
                        // AR-10: opponents eliminated this round, by anyone.
                        let eliminated = tally.round_deaths - self.round_deaths[team as usize];
                        let gain = (eliminated as i64 * rules::SOULEATER_GAIN as i64)
                            .min(i32::MAX as i64) as i32;
                        f.energy[i] = f.energy[i].saturating_add(gain);
                        obs.souleater(f.id[i], eliminated, gain, f.energy[i]);
                    }
                    Power::Amoeba => {
                        let before = f.energy[i];
                        if before <= rules::AMOEBA_THRESHOLD {
                            continue;
                        }
                        let after = rules::amoeba_energy(before);
                        if after < before {
                            tally.lost_energy = true; // AR-13: the halving is a loss
                        }
                        f.energy[i] = after;
                        // AR-15: alive heroes plus this phase's copies must stay below capacity.
                        let copy = if (tally.alive as usize) < f.capacity() {
                            self.pending.push_row(f, i);
                            self.pending.id[copies] = *next_id;
                            self.pending_parent[copies] = i as u32;
                            copies += 1;
                            tally.alive += 1;
                            self.team_alive[team as usize] += 1;
                            *next_id += 1;
                            Some(*next_id - 1)
                        } else {
                            *capped = true;
                            None
                        };
                        obs.amoeba(f.id[i], copy, before, after);
                    }
                    _ => unreachable!("only end-of-round powers are in `ends`"),
                }
            }
        }
        copies
    }

    /// AR-13: every alive hero, this round's copies included, loses ceil(E/2).
    fn stalemate<O: Observer>(&mut self, copies: usize, tally: &mut Tally, obs: &mut O) {
        let n = self.front.len;
        for (table, len) in [(&mut self.front, n), (&mut self.pending, copies)] {
            for i in 0..len {
                let before = table.energy[i];
                if before <= 0 {
                    continue;
                }
                table.energy[i] = rules::stalemate_energy(before);
                obs.stalemate(table.id[i], before, table.energy[i]);
                if table.energy[i] <= 0 {
                    die(
                        table.team[i],
                        &mut self.team_alive,
                        &mut self.round_deaths,
                        tally,
                    );
                    obs.death(table.id[i]);
                }
            }
        }
    }

    /// The attack of the hero in row `i`: every alive hero of the other teams, in order (AR-1).
    #[inline(always)]
    fn attack<O: Observer>(
        &mut self,
        i: usize,
        team: u16,
        damage: i32,
        tally: &mut Tally,
        obs: &mut O,
    ) {
        let f = &mut self.front;
        let n = f.len;
        let attacker = f.id[i];
        // Zipped iterators: one pass over five arrays with no bounds checks.
        let rows = f.energy[..n]
            .iter_mut()
            .zip(&mut f.defence[..n])
            .zip(&mut f.prevention[..n])
            .zip(&f.team[..n])
            .zip(&f.id[..n]);
        // Counters stay in registers through the loop and are written back once.
        let mut hits = 0u64;
        let mut lost = false;
        for ((((energy, defence), prevention), &target_team), &target) in rows {
            let e = *energy;
            if target_team == team || e <= 0 {
                continue;
            }
            hits += 1;
            // AR-5: defence first, then prevention, then Energy.
            let d = *defence;
            let by_defence = damage.min(d);
            *defence = d - by_defence;
            let rest = damage - by_defence;
            let (mut by_prevention, mut to_energy) = (0, 0);
            if rest > 0 {
                let p = *prevention;
                by_prevention = rest.min(p);
                *prevention = p - by_prevention;
                to_energy = rest - by_prevention;
                if to_energy > 0 {
                    *energy = e - to_energy;
                    lost = true;
                }
            }
            if O::ENABLED {
                let hit = Hit {
                    damage,
                    by_defence,
                    by_prevention,
                    to_energy,
                    energy_after: *energy,
                    defence_left: *defence,
                    prevention_left: *prevention,
                };
                obs.hit(attacker, target, &hit);
            }
            if e - to_energy <= 0 {
                die(
                    target_team,
                    &mut self.team_alive,
                    &mut self.round_deaths,
                    tally,
                );
                obs.death(target);
            }
        }
        tally.hits += hits;
        tally.lost_energy |= lost;
    }

    fn rebuild(&mut self, copies: usize) {
        let (front, back, pending) = (&self.front, &mut self.back, &self.pending);
        back.len = 0;
        let mut j = 0;
        for i in 0..front.len {
            if front.energy[i] > 0 {
                back.push_row(front, i);
            }
            while j < copies && self.pending_parent[j] as usize == i {
                if pending.energy[j] > 0 {
                    back.push_row(pending, j);
                }
                j += 1;
            }
        }
        std::mem::swap(&mut self.front, &mut self.back);
    }

    #[inline]
    fn last_team_standing(&self, teams: usize) -> Option<u16> {
        (0..teams as u16).find(|&t| self.team_alive[t as usize] > 0)
    }

    /// AR-14, on the table as it stands.
    fn round_limit_winner(&self, initiative: &[f64]) -> Option<u16> {
        let f = &self.front;
        rules::round_limit_winner(&f.energy[..f.len], &f.team[..f.len], initiative)
    }
}

#[inline(always)]
fn die(team: u16, team_alive: &mut [u32], round_deaths: &mut [u32], tally: &mut Tally) {
    let t = team as usize;
    team_alive[t] -= 1;
    if team_alive[t] == 0 {
        tally.teams_alive -= 1;
    }
    round_deaths[t] += 1;
    tally.round_deaths += 1;
    tally.alive -= 1;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::auto_rumble::input::roster::{HeroSpec, Lineup};
    use crate::games::auto_rumble::trace::hand::Silent;

    // AR-3, AR-5: after round 1 of the default battle (three heroes at 100 Energy dealing 10)
    // each hero has 80 and loses 20 a round, so rounds 2-4 end alike and are played together.
    // Rounds 5 and 6 are played alone: in round 5 A (first in initiative) and B hit before C
    // can act, C falls; in round 6 A, at 10, still attacks and B falls.
    #[test]
    fn rounds_in_which_nobody_can_fall_are_played_together() {
        let heroes: Vec<HeroSpec> = ["A", "B", "C"]
            .iter()
            .map(|n| HeroSpec::new(n, 0, &[]))
            .collect();
        let l = Lineup::compile(&heroes).unwrap();
        let mut k = Kernel::new(16);
        let o = k.run(&l.builds, &[0.3, 0.2, 0.1], 1, &mut Silent);
        assert_eq!((o.rounds, o.hits), (1, 6));
        let f = &k.front;
        let damage = |i: usize| rules::hit_damage(l.builds[f.team[i] as usize].damage, false);
        let ahead =
            |limit| powerless::rounds_ahead(rules::ATTACK_COST, &f.energy[..f.len], damage, limit);
        assert_eq!(ahead(29), 3);
        assert_eq!(ahead(2), 2, "the round limit cuts the run");
        let o = k.run(&l.builds, &[0.3, 0.2, 0.1], 30, &mut Silent);
        assert_eq!(
            (o.rounds, o.hits, o.winner),
            (6, 6 * 4 + 2 + 2 + 1, Some(0))
        );
    }
}

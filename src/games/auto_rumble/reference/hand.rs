//! The reference model: the same rules as [`crate::games::auto_rumble::kernel::hand`], written to be obviously correct
//! rather than fast. Plain structs, a `Vec` of heroes in initiative order, `Vec::insert` for
//! copies, alive counts recomputed by scanning. It shares only the rule formulas of
//! [`crate::games::auto_rumble::rules`] with the kernel. tests/games/auto_rumble_differential.rs plays both on random rosters
//! and requires identical per-round Energies and outcomes.

use crate::games::auto_rumble::input::roster::{HeroSpec, UseItem};
use crate::games::auto_rumble::kernel::hand::{EndReason, Outcome};
use crate::games::auto_rumble::powers::sample::Power;
use crate::games::auto_rumble::rules;
use crate::games::auto_rumble::state::HeroId;

#[derive(Clone, Debug)]
struct Hero {
    id: HeroId,
    team: usize,
    energy: i32,
    defence: i32,
    titanium_left: i32,
    crystallize_x: i32,
    plan: Vec<UseItem>,
}

impl Hero {
    fn alive(&self) -> bool {
        self.energy > 0
    }
}

/// A battle as the reference model plays it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Replay {
    pub outcome: Outcome,
    /// After each round: the alive heroes in initiative order with their Energy.
    pub rounds: Vec<Vec<(HeroId, i32)>>,
}

fn holds(spec: &HeroSpec, p: Power) -> bool {
    spec.powers.iter().any(|h| h.power == p)
}

/// Plays one battle by the rules. `initiative[t]` is hero `t`'s initiative.
pub fn play(specs: &[HeroSpec], initiative: &[f64], max_rounds: u32, capacity: usize) -> Replay {
    let mut capped = false;
    let mut hits = 0u64;
    // AR-6: highest initiative first; a stable sort keeps roster order among equals.
    let mut by_initiative: Vec<usize> = (0..specs.len()).collect();
    by_initiative.sort_by(|&a, &b| initiative[b].partial_cmp(&initiative[a]).unwrap());
    let mut heroes: Vec<Hero> = Vec::new();
    for t in by_initiative {
        let energy = rules::starting_energy(specs[t].coins);
        if energy <= 0 {
            continue; // AR-16
        }
        if heroes.len() >= capacity.max(1) {
            capped = true; // AR-15
            continue;
        }
        heroes.push(Hero {
            id: t as HeroId,
            team: t,
            energy,
            defence: 0,
            titanium_left: if holds(&specs[t], Power::TitaniumSkin) {
                rules::TITANIUM_SKIN_BUDGET
            } else {
                0
            },
            crystallize_x: 1,
            plan: Vec::new(),
        });
    }
    let mut next_id = specs.len() as HeroId;
    let teams_alive = |heroes: &[Hero]| {
        let mut teams: Vec<usize> = heroes
            .iter()
            .filter(|h| h.alive())
            .map(|h| h.team)
            .collect();
        teams.sort();
        teams.dedup();
        teams
    };

    let mut rounds_log = Vec::new();
    let mut round = 0;
    let mut quiet = 0;
    let mut end = EndReason::Elimination;
    let mut winner = teams_alive(&heroes).first().copied();
    while teams_alive(&heroes).len() > 1 {
        round += 1;
        let alive_at_start = heroes.len() as i32;
        let mut lost_energy = false;
        let mut eliminated_teams: Vec<usize> = Vec::new();

        // Start of round: defence back to 0 (AR-4), plan from this Energy (AR-3), Cosmic Shield.
        for h in heroes.iter_mut() {
            h.defence = 0;
            let mut left = h.energy;
            h.plan.clear();
            for &item in &specs[h.team].order {
                if item.cost() > left {
                    break;
                }
                left -= item.cost();
                h.plan.push(item);
            }
            if holds(&specs[h.team], Power::CosmicShield) {
                h.defence = rules::COSMIC_SHIELD_PER_HERO.saturating_mul(alive_at_start);
            }
        }

        // Actions.
        for i in 0..heroes.len() {
            if !heroes[i].alive() {
                continue;
            }
            let plan = heroes[i].plan.clone();
            let claws = holds(&specs[heroes[i].team], Power::BigGnashyClaws)
                && plan.iter().all(|&u| u == UseItem::Attack);
            for item in plan {
                match item {
                    UseItem::Attack => {
                        let damage = rules::hit_damage(
                            rules::attack_damage(specs[heroes[i].team].coins),
                            claws,
                        );
                        for t in 0..heroes.len() {
                            if heroes[t].team == heroes[i].team || !heroes[t].alive() {
                                continue;
                            }
                            hits += 1;
                            let target = &mut heroes[t];
                            let mut left = damage;
                            let absorbed = left.min(target.defence);
                            target.defence -= absorbed;
                            left -= absorbed;
                            let prevented = left.min(target.titanium_left);
                            target.titanium_left -= prevented;
                            left -= prevented;
                            if left > 0 {
                                target.energy -= left;
                                lost_energy = true;
                                if target.energy <= 0 {
                                    eliminated_teams.push(target.team);
                                }
                            }
                        }
                    }
                    UseItem::Power(Power::Crystallize) => {
                        let h = &mut heroes[i];
                        h.defence = h.defence.saturating_add(h.crystallize_x);
                        h.crystallize_x = h.crystallize_x.saturating_mul(2);
                    }
                    UseItem::Power(p) => panic!("{p} is not a Spend power"),
                }
            }
        }

        // End of round: each alive hero's end-of-round powers in the order held; copies wait.
        let mut copies: Vec<(HeroId, Hero)> = Vec::new();
        for i in 0..heroes.len() {
            if !heroes[i].alive() {
                continue;
            }
            for held in &specs[heroes[i].team].powers {
                match held.power {
                    Power::Souleater => {
                        let mine = heroes[i].team;
                        let n = eliminated_teams.iter().filter(|&&t| t != mine).count() as i64;
                        let gain = (n * rules::SOULEATER_GAIN as i64).min(i32::MAX as i64) as i32;
                        heroes[i].energy = heroes[i].energy.saturating_add(gain);
                    }
                    Power::Amoeba if heroes[i].energy > rules::AMOEBA_THRESHOLD => {
                        let before = heroes[i].energy;
                        heroes[i].energy = rules::amoeba_energy(before);
                        if heroes[i].energy < before {
                            lost_energy = true;
                        }
                        let alive = heroes.iter().filter(|h| h.alive()).count();
                        if alive + copies.len() < capacity.max(1) {
                            let mut copy = heroes[i].clone();
                            copy.id = next_id;
                            next_id += 1;
                            copies.push((heroes[i].id, copy));
                        } else {
                            capped = true;
                        }
                    }
                    _ => {}
                }
            }
        }
        for (parent, copy) in copies {
            let at = heroes.iter().position(|h| h.id == parent).unwrap();
            heroes.insert(at + 1, copy);
        }

        // Stalemate (AR-13).
        quiet = if lost_energy { 0 } else { quiet + 1 };
        if quiet == rules::STALEMATE_QUIET_ROUNDS {
            quiet = 0;
            for h in heroes.iter_mut().filter(|h| h.alive()) {
                h.energy = rules::stalemate_energy(h.energy);
            }
        }

        heroes.retain(|h| h.alive());
        rounds_log.push(heroes.iter().map(|h| (h.id, h.energy)).collect());

        let teams = teams_alive(&heroes);
        if teams.len() <= 1 {
            winner = teams.first().copied();
            break;
        }
        if round >= max_rounds {
            end = EndReason::RoundLimit;
            // AR-14: most Energy, then initiative; a tie between two teams is a draw.
            let key = |h: &Hero| (h.energy, initiative[h.team]);
            let best = heroes
                .iter()
                .map(key)
                .fold(None, |m: Option<(i32, f64)>, k| match m {
                    Some(m) if m >= k => Some(m),
                    _ => Some(k),
                });
            let mut best_teams: Vec<usize> = heroes
                .iter()
                .filter(|h| Some(key(h)) == best)
                .map(|h| h.team)
                .collect();
            best_teams.sort();
            best_teams.dedup();
            winner = if best_teams.len() == 1 {
                Some(best_teams[0])
            } else {
                None
            };
            break;
        }
    }

    Replay {
        outcome: Outcome {
            winner: winner.map(|t| t as u16),
            rounds: round,
            capped,
            end,
            hits,
            survivors: heroes.len() as u32,
        },
        rounds: rounds_log,
    }
}

//! Heroes as a scenario or a bidding round hands them over, and their compiled form.
//!
//! [`HeroSpec`] is the readable description (names, lists). [`TeamBuild`] is what the kernel walks:
//! `Copy`, fixed-size, no strings, no heap. Compiling one checks AR-17.

use std::fmt;
use std::ops::RangeInclusive;

use rand::RngExt;
use rand::seq::SliceRandom;

use crate::games::auto_rumble::powers::sample::{Power, PowerSet, Trigger};
use crate::games::auto_rumble::rules;
use crate::rng::{MatchRng, unit_f64};

/// One item of a use order (AR-3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UseItem {
    /// The default attack: Spend 10, hits every alive hero of the other teams (AR-1, AR-2).
    Attack,
    /// A held Spend power.
    Power(Power),
}

impl UseItem {
    pub fn cost(self) -> i32 {
        match self {
            UseItem::Attack => rules::ATTACK_COST,
            UseItem::Power(p) => match p.trigger() {
                Trigger::Spend(c) => c,
                _ => 0,
            },
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            UseItem::Attack => "Attack",
            UseItem::Power(p) => p.name(),
        }
    }
}

/// A held power and its strength (the winning bid; none of the six sample powers scales with it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HeldPower {
    pub power: Power,
    pub strength: i32,
}

/// A hero entering a battle: its unspent coins, powers in the order held and its use order.
#[derive(Clone, Debug, PartialEq)]
pub struct HeroSpec {
    pub name: String,
    pub coins: i32,
    /// In [0, 1); drawn from the match's initiative stream when absent (AR-19).
    pub base_initiative: Option<f64>,
    pub powers: Vec<HeldPower>,
    pub order: Vec<UseItem>,
}

impl HeroSpec {
    /// A hero holding `powers` (strength 0) with the default use order (AR-17).
    pub fn new(name: &str, coins: i32, powers: &[Power]) -> HeroSpec {
        let powers: Vec<HeldPower> = powers
            .iter()
            .map(|&power| HeldPower { power, strength: 0 })
            .collect();
        let order = default_order(&powers);
        HeroSpec {
            name: name.to_string(),
            coins,
            base_initiative: None,
            powers,
            order,
        }
    }

    pub fn with_base_initiative(mut self, base: f64) -> HeroSpec {
        self.base_initiative = Some(base);
        self
    }

    pub fn with_order(mut self, order: &[UseItem]) -> HeroSpec {
        self.order = order.to_vec();
        self
    }
}

/// Attack, then the held Spend powers in the order held (AR-17).
pub fn default_order(powers: &[HeldPower]) -> Vec<UseItem> {
    std::iter::once(UseItem::Attack)
        .chain(
            powers
                .iter()
                .filter(|h| matches!(h.power.trigger(), Trigger::Spend(_)))
                .map(|h| UseItem::Power(h.power)),
        )
        .collect()
}

/// Why a hero cannot enter a battle. Scenario loading adds the file and line.
#[derive(Clone, Debug, PartialEq)]
pub enum RosterError {
    DuplicatePower(Power),
    OrderNamesUnheldPower(Power),
    OrderNamesUnspentPower(Power),
    OrderRepeats(&'static str),
    OrderMissing(&'static str),
    CoinsOutOfRange(i64),
    BaseInitiativeOutOfRange(f64),
}

impl fmt::Display for RosterError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RosterError::DuplicatePower(p) => write!(
                f,
                "holds `{p}` twice; a hero holds each power once (AR-17): remove the second entry"
            ),
            RosterError::OrderNamesUnheldPower(p) => write!(
                f,
                "use order names `{p}`, which the hero does not hold: add it to `powers` or remove it from `order`"
            ),
            RosterError::OrderNamesUnspentPower(p) => write!(
                f,
                "use order names `{p}`, which is not a Spend power (it fires by itself): remove it from `order` (AR-17)"
            ),
            RosterError::OrderRepeats(n) => {
                write!(
                    f,
                    "use order names `{n}` twice: list each item once (AR-17)"
                )
            }
            RosterError::OrderMissing(n) => write!(
                f,
                "use order leaves out `{n}`: list the attack and every held Spend power once, or drop `order` for the default (AR-17)"
            ),
            RosterError::CoinsOutOfRange(c) => write!(
                f,
                "coins = {c} is outside -{m}..={m}: use a balance in that range (AR-18)",
                m = rules::MAX_ABS_COINS
            ),
            RosterError::BaseInitiativeOutOfRange(b) => write!(
                f,
                "base_initiative = {b} is outside [0, 1): use a value such as 0.5, or leave it out to draw one (AR-2)"
            ),
        }
    }
}

/// Most use-order items a build can hold: the attack plus every Spend power.
pub const MAX_USES: usize = 2;
/// Most end-of-round powers a build can hold.
pub const MAX_ENDS: usize = 2;

/// A hero's compiled loadout, shared by the hero and all its copies (they hold the same powers).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TeamBuild {
    pub energy: i32,
    pub damage: i32,
    pub coins: i32,
    pub powers: PowerSet,
    pub uses: [UseItem; MAX_USES],
    pub n_uses: u8,
    /// End-of-round powers in the order held (AR-6).
    pub ends: [Power; MAX_ENDS],
    pub n_ends: u8,
    /// `cum_cost[k]`: the cost of the first `k` use-order items.
    pub cum_cost: [i32; MAX_USES + 1],
    /// `claws_out[k]`: Big, Gnashy Claws add to hits when the plan is the first `k` items (AR-9).
    pub claws_out: [bool; MAX_USES + 1],
}

impl TeamBuild {
    pub fn compile(spec: &HeroSpec) -> Result<TeamBuild, RosterError> {
        if let Some(b) = spec.base_initiative
            && !(0.0..1.0).contains(&b)
        {
            return Err(RosterError::BaseInitiativeOutOfRange(b));
        }
        TeamBuild::from_parts(spec.coins, &spec.powers, &spec.order)
    }

    /// Compiles from slices, without a [`HeroSpec`]: simulations draw rosters straight into
    /// stack arrays and call this, allocating nothing.
    pub fn from_parts(
        coins: i32,
        held: &[HeldPower],
        order: &[UseItem],
    ) -> Result<TeamBuild, RosterError> {
        if coins.unsigned_abs() > rules::MAX_ABS_COINS as u32 {
            return Err(RosterError::CoinsOutOfRange(coins.into()));
        }
        let mut powers = PowerSet::default();
        let mut ends = [Power::Amoeba; MAX_ENDS];
        let mut n_ends = 0;
        for h in held {
            if powers.has(h.power) {
                return Err(RosterError::DuplicatePower(h.power));
            }
            powers.insert(h.power);
            if h.power.trigger() == Trigger::EndOfRound {
                ends[n_ends] = h.power;
                n_ends += 1;
            }
        }
        check_order(powers, order)?;
        let mut uses = [UseItem::Attack; MAX_USES];
        uses[..order.len()].copy_from_slice(order);
        let mut cum_cost = [0; MAX_USES + 1];
        let mut claws_out = [false; MAX_USES + 1];
        let has_claws = powers.has(Power::BigGnashyClaws);
        for k in 0..=order.len() {
            let plan = &order[..k];
            cum_cost[k] = plan.iter().map(|u| u.cost()).sum();
            claws_out[k] = has_claws && plan.iter().all(|u| *u == UseItem::Attack);
        }
        Ok(TeamBuild {
            energy: rules::starting_energy(coins),
            damage: rules::attack_damage(coins),
            coins,
            powers,
            uses,
            n_uses: order.len() as u8,
            ends,
            n_ends: n_ends as u8,
            cum_cost,
            claws_out,
        })
    }

    /// How many use-order items a round with this budget uses: the walk stops at the first item
    /// that no longer fits (AR-3).
    #[inline]
    pub fn plan_len(&self, budget: i32) -> u8 {
        let mut k = 0;
        while (k as usize) < self.n_uses as usize && self.cum_cost[k as usize + 1] <= budget {
            k += 1;
        }
        k
    }

    #[inline]
    pub fn uses(&self) -> &[UseItem] {
        &self.uses[..self.n_uses as usize]
    }

    #[inline]
    pub fn ends(&self) -> &[Power] {
        &self.ends[..self.n_ends as usize]
    }
}

/// AR-17: the use order is the attack plus each held Spend power, each exactly once.
pub fn check_order(powers: PowerSet, order: &[UseItem]) -> Result<(), RosterError> {
    let mut seen_attack = false;
    let mut seen = PowerSet::default();
    for item in order {
        match *item {
            UseItem::Attack if seen_attack => return Err(RosterError::OrderRepeats("Attack")),
            UseItem::Attack => seen_attack = true,
            UseItem::Power(p) => {
                if !matches!(p.trigger(), Trigger::Spend(_)) {
                    return Err(RosterError::OrderNamesUnspentPower(p));
                }
                if !powers.has(p) {
                    return Err(RosterError::OrderNamesUnheldPower(p));
                }
                if seen.has(p) {
                    return Err(RosterError::OrderRepeats(p.name()));
                }
                seen.insert(p);
            }
        }
    }
    if !seen_attack {
        return Err(RosterError::OrderMissing("Attack"));
    }
    for p in Power::ALL {
        if powers.has(p) && matches!(p.trigger(), Trigger::Spend(_)) && !seen.has(p) {
            return Err(RosterError::OrderMissing(p.name()));
        }
    }
    Ok(())
}

/// A roster compiled for the kernel: one build per team, in roster (creation) order.
#[derive(Clone, Debug, PartialEq)]
pub struct Lineup {
    pub names: Vec<String>,
    pub builds: Vec<TeamBuild>,
    pub base_initiatives: Vec<Option<f64>>,
}

impl Lineup {
    /// Compiles every hero; the error names the hero by position and name.
    pub fn compile(heroes: &[HeroSpec]) -> Result<Lineup, (usize, RosterError)> {
        let builds = heroes
            .iter()
            .enumerate()
            .map(|(i, h)| TeamBuild::compile(h).map_err(|e| (i, e)))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Lineup {
            names: heroes.iter().map(|h| h.name.clone()).collect(),
            builds,
            base_initiatives: heroes.iter().map(|h| h.base_initiative).collect(),
        })
    }

    pub fn len(&self) -> usize {
        self.builds.len()
    }

    pub fn is_empty(&self) -> bool {
        self.builds.is_empty()
    }

    /// Initiatives (AR-2) into `out`, drawing missing base initiatives from `rng` in roster order
    /// (AR-19). Allocation-free so a hot loop can reuse `out`.
    pub fn initiatives_into(&self, rng: &mut MatchRng, out: &mut [f64]) {
        for ((o, b), base) in out.iter_mut().zip(&self.builds).zip(&self.base_initiatives) {
            let base = match base {
                Some(x) => *x,
                None => unit_f64(rng),
            };
            *o = rules::initiative(b.coins, base);
        }
    }

    pub fn initiatives(&self, rng: &mut MatchRng) -> Vec<f64> {
        let mut out = vec![0.0; self.len()];
        self.initiatives_into(rng, &mut out);
        out
    }
}

/// A random roster: `heroes` heroes named A, B, ..., each with coins drawn from `coins`, each of
/// the six powers held with probability 1/2 in a random held order, and a random use order.
pub fn random_roster(
    rng: &mut MatchRng,
    heroes: RangeInclusive<usize>,
    coins: RangeInclusive<i32>,
) -> Vec<HeroSpec> {
    let n = rng.random_range(heroes);
    (0..n)
        .map(|i| {
            let mut powers: Vec<HeldPower> = Power::ALL
                .into_iter()
                .filter(|_| rng.random_bool(0.5))
                .map(|power| HeldPower { power, strength: 0 })
                .collect();
            powers.shuffle(rng);
            let mut order = default_order(&powers);
            order.shuffle(rng);
            HeroSpec {
                name: hero_letter_name(i),
                coins: rng.random_range(coins.clone()),
                base_initiative: None,
                powers,
                order,
            }
        })
        .collect()
}

/// "A".."Z", then "AA", "AB", ...: names for generated heroes.
pub fn hero_letter_name(mut i: usize) -> String {
    let mut s = Vec::new();
    loop {
        s.push(b'A' + (i % 26) as u8);
        if i < 26 {
            break;
        }
        i = i / 26 - 1;
    }
    s.reverse();
    String::from_utf8(s).expect("ASCII")
}

#[cfg(test)]
mod tests {
    use super::*;

    // AR-3: the walk stops at the first item whose cost no longer fits (sample round 4: 23 Energy
    // pays the attack, then Crystallize's 20 does not fit in 13).
    #[test]
    fn plan_stops_at_first_item_that_no_longer_fits() {
        let bob = HeroSpec::new("Bob", 10, &[Power::Crystallize]);
        let b = TeamBuild::compile(&bob).unwrap();
        assert_eq!(b.plan_len(23), 1);
        assert_eq!(b.plan_len(30), 2);
        assert_eq!(b.plan_len(10), 1, "exactly 10 Energy still pays the attack");
        assert_eq!(b.plan_len(9), 0);
        let reordered = bob.with_order(&[UseItem::Power(Power::Crystallize), UseItem::Attack]);
        let b = TeamBuild::compile(&reordered).unwrap();
        assert_eq!(
            b.plan_len(25),
            1,
            "Crystallize fits, the attack's 10 no longer does"
        );
        assert_eq!(
            b.plan_len(15),
            0,
            "a misfit first item stops the walk even if later ones fit"
        );
    }

    // AR-9: the claws are out only when the plan uses nothing costed but the attack.
    #[test]
    fn claws_apply_only_when_the_plan_uses_no_other_costed_power() {
        let h = HeroSpec::new("C", 0, &[Power::BigGnashyClaws, Power::Crystallize]);
        let b = TeamBuild::compile(&h).unwrap();
        assert_eq!(b.claws_out, [true, true, false]);
        let h = HeroSpec::new(
            "C",
            0,
            &[Power::BigGnashyClaws, Power::Amoeba, Power::CosmicShield],
        );
        let b = TeamBuild::compile(&h).unwrap();
        assert!(
            b.claws_out[1],
            "triggered and passive powers do not count as used"
        );
    }

    // AR-17: the use order must be exactly the attack plus the held Spend powers.
    #[test]
    fn use_order_must_list_attack_and_each_spend_power_once() {
        let h = HeroSpec::new("B", 0, &[Power::Crystallize, Power::Amoeba]);
        let bad = |order: &[UseItem]| TeamBuild::compile(&h.clone().with_order(order)).unwrap_err();
        assert_eq!(
            bad(&[UseItem::Attack]),
            RosterError::OrderMissing("Crystallize")
        );
        assert_eq!(
            bad(&[
                UseItem::Attack,
                UseItem::Power(Power::Crystallize),
                UseItem::Power(Power::Amoeba)
            ]),
            RosterError::OrderNamesUnspentPower(Power::Amoeba)
        );
        assert_eq!(
            bad(&[UseItem::Power(Power::Crystallize)]),
            RosterError::OrderMissing("Attack")
        );
        let dup = HeroSpec {
            powers: vec![
                HeldPower {
                    power: Power::Amoeba,
                    strength: 1,
                },
                HeldPower {
                    power: Power::Amoeba,
                    strength: 2,
                },
            ],
            ..HeroSpec::new("D", 0, &[])
        };
        assert_eq!(
            TeamBuild::compile(&dup).unwrap_err(),
            RosterError::DuplicatePower(Power::Amoeba)
        );
    }

    // AR-6: end-of-round powers keep the order held.
    #[test]
    fn end_of_round_powers_keep_the_order_held() {
        let h = HeroSpec::new(
            "X",
            0,
            &[Power::Souleater, Power::CosmicShield, Power::Amoeba],
        );
        assert_eq!(
            TeamBuild::compile(&h).unwrap().ends(),
            &[Power::Souleater, Power::Amoeba]
        );
    }

    #[test]
    fn generated_names_run_a_to_z_then_double_letters() {
        assert_eq!(hero_letter_name(0), "A");
        assert_eq!(hero_letter_name(25), "Z");
        assert_eq!(hero_letter_name(26), "AA");
        assert_eq!(hero_letter_name(27), "AB");
    }
}

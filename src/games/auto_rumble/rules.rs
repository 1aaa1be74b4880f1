//! The numbers and formulas of Auto Rumble's "Fighting" section, in one place.
//!
//! Both the optimised kernel and the reference model call these, so a rule's arithmetic exists
//! once; what differs between them is only how heroes are stored and walked.

use serde::{Deserialize, Serialize};

/// Starting Energy before coins (AR-2).
pub const BASE_ENERGY: i32 = 100;
/// Attack damage before coins (AR-2).
pub const BASE_DAMAGE: i32 = 10;
/// Spend cost of the default attack (AR-2).
pub const ATTACK_COST: i32 = 10;
/// Big, Gnashy Claws' bonus per hit (AR-9).
pub const CLAWS_BONUS: i32 = 20;
/// Cosmic Shield's defence per hero alive at the start of the round (AR-7).
pub const COSMIC_SHIELD_PER_HERO: i32 = 10;
/// Crystallize's Spend cost (AR-8).
pub const CRYSTALLIZE_COST: i32 = 20;
/// Souleater's Energy per opponent eliminated (AR-10).
pub const SOULEATER_GAIN: i32 = 30;
/// Amoeba multiplies only above this Energy (AR-11).
pub const AMOEBA_THRESHOLD: i32 = 5;
/// Titanium Skin's battle-long prevention budget (AR-12).
pub const TITANIUM_SKIN_BUDGET: i32 = 50;
/// Quiet rounds in a row that trigger the stalemate halving (AR-13).
pub const STALEMATE_QUIET_ROUNDS: u32 = 3;
/// Default round limit (AR-14).
pub const DEFAULT_MAX_ROUNDS: u32 = 30;
/// Default hero capacity (AR-15).
pub const DEFAULT_CAPACITY: usize = 4096;
/// Largest |coins| a roster may give (AR-18 keeps every stat far from overflow inside it).
pub const MAX_ABS_COINS: i32 = 1_000_000;

/// The numbers of a battle and a game a host may change (issue 51: `--rules FILE`), the seed's
/// values by default ([`Rules::SEED`]). The six sample powers' own numbers (Claws' 20, the
/// Shield's 10 a hero...) are the powers', changed in a power file, not here.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Rules {
    /// AR-2: a hero's Energy before coins.
    pub starting_energy: i32,
    /// AR-2: the attack's damage before coins.
    pub attack_damage: i32,
    /// AR-2: unspent coins per point of attack damage (the quotient rounded away from zero).
    pub coins_per_damage: i32,
    /// AR-2: the attack's Spend cost.
    pub attack_cost: i32,
    /// AR-13: quiet rounds in a row after which every hero loses half its Energy; 0: never.
    pub stalemate_rounds: u32,
    /// AR-45: coins each player gains every bidding round (the full game).
    pub income: i32,
}

impl Default for Rules {
    fn default() -> Rules {
        Rules::SEED
    }
}

/// The most a rules file may give a hero's starting Energy or the attack's damage or cost: the
/// coin limit, so every stat stays as far from overflow as AR-18 keeps it.
pub const MAX_RULE_STAT: i32 = MAX_ABS_COINS;
/// The most coins a round may bring: ten rounds of it, won away in bids 23 times over, stay
/// inside the coin limit a hero is built with (AR-18, AR-46).
pub const MAX_INCOME: i32 = 1_000;

impl Rules {
    /// The seed's numbers.
    pub const SEED: Rules = Rules {
        starting_energy: BASE_ENERGY,
        attack_damage: BASE_DAMAGE,
        coins_per_damage: 3,
        attack_cost: ATTACK_COST,
        stalemate_rounds: STALEMATE_QUIET_ROUNDS,
        income: 30,
    };

    /// Starting Energy from unspent coins (AR-2).
    #[inline]
    pub const fn energy(&self, coins: i32) -> i32 {
        self.starting_energy + coins
    }

    /// Attack damage from unspent coins, before Claws and the floor at 0 (AR-2).
    #[inline]
    pub const fn damage(&self, coins: i32) -> i32 {
        self.attack_damage + div_away_from_zero(coins, self.coins_per_damage)
    }

    /// AR-13: whether `quiet` quiet rounds in a row call for the halving (never when the rule is
    /// off: a count reset to 0 by a lossy round is not a stalemate).
    #[inline]
    pub const fn stalemate_after(&self, quiet: u32) -> bool {
        self.stalemate_rounds != 0 && quiet == self.stalemate_rounds
    }

    /// The field out of its range and the fix, if any.
    pub fn check(&self) -> Result<(), (&'static str, String)> {
        let m = MAX_RULE_STAT;
        let within = |field, v: i64, lo: i64, hi: i64, what: &str| {
            if (lo..=hi).contains(&v) {
                Ok(())
            } else {
                Err((field, format!("{v}: give {lo} to {hi} ({what})")))
            }
        };
        within(
            "starting_energy",
            self.starting_energy as i64,
            1,
            m as i64,
            "a hero's Energy before coins, AR-2",
        )?;
        within(
            "attack_damage",
            self.attack_damage as i64,
            -(m as i64),
            m as i64,
            "AR-2",
        )?;
        within(
            "coins_per_damage",
            self.coins_per_damage as i64,
            1,
            m as i64,
            "coins per point of damage, AR-2",
        )?;
        within(
            "attack_cost",
            self.attack_cost as i64,
            1,
            m as i64,
            "the attack's Spend cost, AR-2: a free attack would be made by the dead",
        )?;
        within(
            "stalemate_rounds",
            self.stalemate_rounds as i64,
            0,
            1_000,
            "quiet rounds before the halving, AR-13; 0 never halves",
        )?;
        within(
            "income",
            self.income as i64,
            0,
            MAX_INCOME as i64,
            "coins a round, AR-45",
        )
    }

    /// Where these rules depart from the seed's, in plain words (`attack_cost 10 -> 15`).
    pub fn changes(&self) -> Vec<String> {
        crate::games::changes::of(&Rules::SEED, self)
    }
}

/// `a / b` rounded away from zero: the rules' only rounding ("always rounded up (away from zero)").
#[inline]
pub const fn div_away_from_zero(a: i32, b: i32) -> i32 {
    debug_assert!(b > 0);
    if a >= 0 {
        (a + (b - 1)) / b
    } else {
        -((-a + (b - 1)) / b)
    }
}

/// Starting Energy from unspent coins (AR-2).
#[inline]
pub const fn starting_energy(coins: i32) -> i32 {
    BASE_ENERGY + coins
}

/// Attack damage from unspent coins, before Claws and the floor at 0 (AR-2).
#[inline]
pub const fn attack_damage(coins: i32) -> i32 {
    BASE_DAMAGE + div_away_from_zero(coins, 3)
}

/// Initiative from unspent coins and the base initiative in [0, 1) (AR-2).
#[inline]
pub fn initiative(coins: i32, base: f64) -> f64 {
    coins as f64 + base
}

/// What one hit deals: Claws' bonus, then the floor at 0 (AR-2, AR-9).
#[inline]
pub const fn hit_damage(attack: i32, claws_out: bool) -> i32 {
    let d = if claws_out {
        attack.saturating_add(CLAWS_BONUS)
    } else {
        attack
    };
    if d < 0 { 0 } else { d }
}

/// Amoeba's new Energy: ceil(E/2) + 5, for E above the threshold (AR-11).
#[inline]
pub const fn amoeba_energy(energy: i32) -> i32 {
    div_away_from_zero(energy, 2) + AMOEBA_BONUS
}
/// Added to the halved Energy by Amoeba (AR-11).
pub const AMOEBA_BONUS: i32 = 5;

/// Energy after the stalemate loss of ceil(E/2) (AR-13): `1 - 1 = 0`.
#[inline]
pub const fn stalemate_energy(energy: i32) -> i32 {
    energy - div_away_from_zero(energy, 2)
}

/// AR-6: team indices into `order`, highest initiative first, equal initiatives in roster order.
/// An insertion sort into a reused buffer: rosters are small and nothing is allocated.
pub fn initiative_order(initiative: &[f64], order: &mut Vec<u16>) {
    order.clear();
    order.extend(0..initiative.len() as u16);
    // Team k moves up past every earlier team with a strictly lower initiative.
    for k in 1..order.len() {
        let x = initiative[k];
        let mut j = k;
        while j > 0 {
            let before = order[j - 1];
            if initiative[before as usize] < x {
                order[j] = before;
                j -= 1;
            } else {
                break;
            }
        }
        order[j] = k as u16;
    }
}

/// AR-14 at the round limit: the alive hero (Energy > 0) with the most Energy, then the higher
/// initiative, wins for its team; two teams tied on both is a draw (`None`). Rows are `energy[i]`
/// and `team[i]`; `initiative[t]` is team `t`'s.
pub fn round_limit_winner(energy: &[i32], team: &[u16], initiative: &[f64]) -> Option<u16> {
    round_limit_winner_of(energy.iter().copied().zip(team.iter().copied()), initiative)
}

/// [`round_limit_winner`] over `(Energy, team)` rows given one by one (the general path leaves
/// hostile summons out, AR-42).
pub fn round_limit_winner_of(
    rows: impl Iterator<Item = (i32, u16)>,
    initiative: &[f64],
) -> Option<u16> {
    let mut best: Option<(i32, f64, u16)> = None;
    let mut tied = false;
    for (e, t) in rows {
        if e <= 0 {
            continue; // a dead row not yet compacted away
        }
        let ini = initiative[t as usize];
        match best {
            None => best = Some((e, ini, t)),
            Some((be, bi, bt)) => {
                if (e, ini) > (be, bi) {
                    best = Some((e, ini, t));
                    tied = false;
                } else if e == be && ini == bi && bt != t {
                    tied = true;
                }
            }
        }
    }
    if tied { None } else { best.map(|b| b.2) }
}

/// Two percentages applied one after the other (AR-59: `deal_percent` 150 and 200 make 300),
/// rounded up to a whole percent, kept within 0..=1,000,000.
#[inline]
pub fn compose_percent(a: i32, b: i32) -> i32 {
    let p = (a.max(0) as i64 * b.clamp(0, 1_000_000) as i64 + 99) / 100;
    p.min(1_000_000) as i32
}

/// A hit as it arrives at its target (AR-57, AR-59): the amount times the target's `vulnerable`
/// factor, times the dealer's and the target's damage percentages, rounded up once.
#[inline]
pub fn arriving_hit(amount: i32, vulnerable: i32, deal_percent: i32, take_percent: i32) -> i32 {
    let x = amount as i64 * vulnerable as i64;
    if deal_percent == 100 && take_percent == 100 {
        return x.min(i32::MAX as i64) as i32;
    }
    let x = x as i128 * deal_percent as i128 * take_percent as i128;
    ((x + 9_999) / 10_000).clamp(0, i32::MAX as i128) as i32
}

#[cfg(test)]
mod tests {
    use super::*;

    // AR-2: "rounding up (away from zero)", also for negative balances.
    #[test]
    fn division_rounds_away_from_zero_both_signs() {
        assert_eq!(div_away_from_zero(10, 3), 4);
        assert_eq!(div_away_from_zero(9, 3), 3);
        assert_eq!(div_away_from_zero(-10, 3), -4);
        assert_eq!(div_away_from_zero(-9, 3), -3);
        assert_eq!(div_away_from_zero(0, 3), 0);
        assert_eq!(div_away_from_zero(-1, 2), -1);
    }

    // AR-2 with the sample's three balances: 18 -> 16, 10 -> 14, 13 -> 15.
    #[test]
    fn coins_give_the_samples_attack_damage() {
        assert_eq!(attack_damage(18), 16);
        assert_eq!(attack_damage(10), 14);
        assert_eq!(attack_damage(13), 15);
        assert_eq!(attack_damage(-10), 6);
        assert_eq!(starting_energy(18), 118);
        assert_eq!(initiative(18, 0.25), 18.25);
    }

    // AR-2 + AR-9: damage below 0 deals 0; the Claws' bonus comes before the floor.
    #[test]
    fn negative_damage_deals_zero_and_claws_add_before_the_floor() {
        assert_eq!(hit_damage(attack_damage(-60), false), 0);
        assert_eq!(hit_damage(-5, true), 15);
        assert_eq!(hit_damage(-25, true), 0);
    }

    // AR-11: 109 -> 60, 60 -> 35, 35 -> 23, 23 -> 17 (the sample), 17 -> 14 (S-5, not 9).
    #[test]
    fn amoeba_halves_up_and_adds_five() {
        assert_eq!(amoeba_energy(109), 60);
        assert_eq!(amoeba_energy(60), 35);
        assert_eq!(amoeba_energy(35), 23);
        assert_eq!(amoeba_energy(23), 17);
        assert_eq!(amoeba_energy(17), 14);
        assert_eq!(amoeba_energy(10), 10);
        assert_eq!(amoeba_energy(6), 8);
    }

    // AR-13 as a setting: the third quiet round by default; 0 turns the halving off, so a lossy
    // round (which resets the count to 0) never calls for it.
    #[test]
    fn the_stalemate_comes_after_its_quiet_rounds_and_never_when_off() {
        let r = Rules::SEED;
        assert!(!r.stalemate_after(2) && r.stalemate_after(3));
        let off = Rules {
            stalemate_rounds: 0,
            ..Rules::SEED
        };
        assert!((0..10).all(|q| !off.stalemate_after(q)));
    }

    // AR-13: "1 - 0.5 rounds to 1 - 1 which is 0".
    #[test]
    fn stalemate_loss_rounds_the_loss_up() {
        assert_eq!(stalemate_energy(1), 0);
        assert_eq!(stalemate_energy(3), 1);
        assert_eq!(stalemate_energy(10), 5);
        assert_eq!(stalemate_energy(11), 5);
    }
    // AR-6: highest initiative first, ties in creation order, against a plain stable sort.
    #[test]
    fn initiative_order_is_highest_first_with_ties_in_creation_order() {
        use rand::RngExt;
        let mut rng = crate::rng::stream_rng(3, 0, crate::rng::Stream::Initiative);
        let mut order = Vec::new();
        for case in 0..3_000 {
            let n = rng.random_range(0..=24usize);
            // Few distinct values, so ties are common; -0.0 ties with 0.0.
            let ini: Vec<f64> = (0..n)
                .map(|_| [0.0, -0.0, 1.5, 1.5, -3.25, 7.0, 12.0][rng.random_range(0..7)])
                .collect();
            let mut want: Vec<u16> = (0..n as u16).collect();
            want.sort_by(|&a, &b| ini[b as usize].partial_cmp(&ini[a as usize]).unwrap());
            initiative_order(&ini, &mut order);
            assert_eq!(order, want, "case {case}: {ini:?}");
        }
    }
}

//! One round of sealed bids, as far as the rules' sample needs it (AR-21). The full ten-round
//! game with strategies builds on this.

use std::fmt;

use crate::games::auto_rumble::input::roster::HeldPower;
use crate::games::auto_rumble::powers::sample::Power;

/// What one bidding round gives each player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoundResult {
    /// Balances after paying winning bids (may be negative).
    pub balances: Vec<i32>,
    /// Powers won, in the order they join the bottom of the held list (AR-21).
    pub won: Vec<Vec<HeldPower>>,
    /// Offered powers nobody won (a tie at 0 or no bid): they stay in the pool.
    pub unsold: Vec<Power>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BidError {
    /// "no individual bid can be more than your balance".
    AboveBalance {
        player: usize,
        power: Power,
        bid: i32,
        balance: i32,
    },
    Negative {
        player: usize,
        power: Power,
        bid: i32,
    },
    Shape {
        expected_players: usize,
        expected_offers: usize,
    },
}

impl fmt::Display for BidError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BidError::AboveBalance {
                player,
                power,
                bid,
                balance,
            } => write!(
                f,
                "player {player} bids {bid} on {power} with a balance of {balance}: no single bid may exceed the balance"
            ),
            BidError::Negative { player, power, bid } => {
                write!(
                    f,
                    "player {player} bids {bid} on {power}: bids are 0 or more"
                )
            }
            BidError::Shape {
                expected_players,
                expected_offers,
            } => write!(
                f,
                "bids must be one row per player ({expected_players}) with one entry per offered power ({expected_offers})"
            ),
        }
    }
}

/// Resolves `bids[player][offer]` (0 = no bid) on the `offered` powers: highest bid wins and
/// pays; tied highest bidders each get a copy and each pay; a tie at 0 goes to no one.
pub fn resolve_round(
    offered: &[Power],
    balances: &[i32],
    bids: &[Vec<i32>],
) -> Result<RoundResult, BidError> {
    if bids.len() != balances.len() || bids.iter().any(|row| row.len() != offered.len()) {
        return Err(BidError::Shape {
            expected_players: balances.len(),
            expected_offers: offered.len(),
        });
    }
    for (player, row) in bids.iter().enumerate() {
        for (&bid, &power) in row.iter().zip(offered) {
            if bid < 0 {
                return Err(BidError::Negative { player, power, bid });
            }
            if bid > balances[player] {
                return Err(BidError::AboveBalance {
                    player,
                    power,
                    bid,
                    balance: balances[player],
                });
            }
        }
    }
    let mut balances = balances.to_vec();
    // (bid, offer index, power) per player, sorted later into held order.
    let mut won: Vec<Vec<(i32, usize, Power)>> = vec![Vec::new(); balances.len()];
    let mut unsold = Vec::new();
    for (o, &power) in offered.iter().enumerate() {
        let top = bids.iter().map(|row| row[o]).max().unwrap_or(0);
        if top == 0 {
            unsold.push(power);
            continue;
        }
        for (player, row) in bids.iter().enumerate() {
            if row[o] == top {
                balances[player] -= top;
                won[player].push((top, o, power));
            }
        }
    }
    let won = won
        .into_iter()
        .map(|mut w| {
            w.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
            w.into_iter()
                .map(|(strength, _, power)| HeldPower { power, strength })
                .collect()
        })
        .collect();
    Ok(RoundResult {
        balances,
        won,
        unsold,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    // AR-21: "ties for 0 coins, in which case the power goes to no one and stays in the pool".
    #[test]
    fn tie_at_zero_goes_to_no_one_and_stays_in_the_pool() {
        let r = resolve_round(&[Power::Amoeba], &[30, 30], &[vec![0], vec![0]]).unwrap();
        assert_eq!(r.unsold, vec![Power::Amoeba]);
        assert!(r.won.iter().all(|w| w.is_empty()));
        assert_eq!(r.balances, vec![30, 30]);
    }

    // "no individual bid can be more than your balance", though bids may add up to more.
    #[test]
    fn single_bid_above_balance_is_rejected_but_total_above_is_fine() {
        let offered = [Power::Amoeba, Power::Souleater];
        assert!(resolve_round(&offered, &[30, 30], &[vec![20, 20], vec![0, 0]]).is_ok());
        assert_eq!(
            resolve_round(&offered, &[30, 30], &[vec![31, 0], vec![0, 0]]).unwrap_err(),
            BidError::AboveBalance {
                player: 0,
                power: Power::Amoeba,
                bid: 31,
                balance: 30
            }
        );
    }

    // Balances may go negative when several winning bids add up to more than the balance.
    #[test]
    fn winning_bids_can_take_the_balance_negative() {
        let offered = [Power::Amoeba, Power::Souleater];
        let r = resolve_round(&offered, &[30, 30], &[vec![20, 20], vec![1, 1]]).unwrap();
        assert_eq!(r.balances, vec![-10, 30]);
    }
}

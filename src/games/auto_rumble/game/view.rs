//! What a player of the full game sees and holds (AR-48): the table's sizes, a player, the view a
//! strategy decides from, and what fits beside a hero's powers. Both the engine and the
//! strategies use it; it uses neither.

use crate::games::auto_rumble::powers::catalogue::{
    Catalogue, Held, MAX_CLAUSES, MAX_HELD, MAX_HERO_COUNTERS, MAX_USE, PowerId, Use,
};
use crate::rng::MatchRng;

/// Most players at a table (the rules: 3 to 12).
pub const MAX_PLAYERS: usize = 12;
/// Most powers offered in one round: 2 x players.
pub const MAX_OFFER: usize = 2 * MAX_PLAYERS;
/// Bidding rounds in a game.
pub const ROUNDS: usize = 10;
/// The pool's capacity: 3 x players to start, 2 x players submitted in each of rounds 1-9.
pub const MAX_POOL: usize = (3 + 2 * (ROUNDS - 1)) * MAX_PLAYERS;

/// A game's settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameSettings {
    pub players: usize,
    pub max_rounds: u32,
    pub capacity: u32,
}

/// One player: its balance, its hero's powers and use order, its hero's base initiative.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Player {
    pub balance: i32,
    pub held: [Held; MAX_HELD],
    pub n_held: u8,
    pub order: [Use; MAX_USE],
    pub n_order: u8,
    /// Base initiative, drawn once per game (AR-47).
    pub base: f64,
    /// Clauses and counters its powers hold together (what a new power must fit beside).
    pub(super) clauses: u8,
    pub(super) counters: u8,
    pub coins_spent: i32,
    pub powers_won: u8,
}

impl Player {
    pub fn held(&self) -> &[Held] {
        &self.held[..self.n_held as usize]
    }
    pub fn order(&self) -> &[Use] {
        &self.order[..self.n_order as usize]
    }
    pub fn holds(&self, p: PowerId) -> bool {
        self.held().iter().any(|h| h.power == p)
    }
}

/// What a player may see when it decides (AR-48): the round, everyone's balance, held powers and
/// use order (all public once a round is resolved), the powers on offer, and its own seat.
pub struct View<'a> {
    pub round: usize,
    pub seat: usize,
    pub players: &'a [Player],
    pub offered: &'a [PowerId],
    pub cat: &'a Catalogue,
}

impl View<'_> {
    pub fn me(&self) -> &Player {
        &self.players[self.seat]
    }
    /// The largest balance among the other players: no one else can bid more on a power.
    pub fn richest_rival(&self) -> i32 {
        self.players
            .iter()
            .enumerate()
            .filter(|&(i, _)| i != self.seat)
            .map(|(_, p)| p.balance)
            .max()
            .unwrap_or(0)
    }
}

/// Per power: its clauses and counters, to tell whether it fits beside a hero's others.
#[derive(Clone, Debug)]
pub struct Sizes {
    pub(super) clauses: Vec<u8>,
    pub(super) counters: Vec<u8>,
}

impl Sizes {
    pub fn new(cat: &Catalogue) -> Sizes {
        Sizes {
            clauses: cat.defs.iter().map(|d| d.clauses.len() as u8).collect(),
            counters: cat.defs.iter().map(|d| d.counters.len() as u8).collect(),
        }
    }

    /// Whether player `p` may take power `q` (AR-49): not held already, and its hero can hold it
    /// (at most 8 powers, 16 clauses, 8 counters).
    pub fn fits(&self, p: &Player, q: PowerId) -> bool {
        !p.holds(q)
            && (p.n_held as usize) < MAX_HELD
            && p.clauses as usize + self.clauses[q as usize] as usize <= MAX_CLAUSES
            && p.counters as usize + self.counters[q as usize] as usize <= MAX_HERO_COUNTERS
    }
}

/// A strategy's own randomness comes from the game's Bidding stream (AR-50).
pub type DecideRng = MatchRng;

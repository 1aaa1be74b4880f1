//! The full Auto Rumble game's engine (AR-45 .. AR-50): ten bidding rounds, each followed by a battle.
//!
//! A game holds its players in fixed-size arrays and its pool in one fixed array: resolving a
//! round's bids, growing held lists and building loadouts allocate nothing. Strategies
//! (`strategy.rs`) decide bids, submissions and use orders; this module only enforces the rules.

use rand::RngExt;

use crate::games::auto_rumble::game::strategy::Strategy;
use crate::games::auto_rumble::game::view::{
    GameSettings, MAX_OFFER, MAX_PLAYERS, MAX_POOL, Player, ROUNDS, Sizes, View,
};
use crate::games::auto_rumble::kernel::data::{self, DataKernel};
use crate::games::auto_rumble::powers::catalogue::{
    Catalogue, Held, Loadout, MAX_HELD, MAX_USE, PowerId, Use,
};
use crate::games::auto_rumble::rules;
use crate::rng::{Stream, match_stream_rng, unit_f64};

/// One round's record.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RoundRecord {
    /// The battle's winner (a seat), `None` for a draw.
    pub winner: Option<u8>,
    pub balances: [i32; MAX_PLAYERS],
    pub held: [u8; MAX_PLAYERS],
    pub offered: u8,
    pub sold: u8,
    pub capped: bool,
}

/// A whole game's record.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    pub rounds: [RoundRecord; ROUNDS],
    /// The final battle's winner: the game's winner (AR-45).
    pub winner: Option<u8>,
    pub players: [Player; MAX_PLAYERS],
}

/// A worker's scratch for playing games.
pub struct Table {
    kernel: DataKernel,
    pool: [PowerId; MAX_POOL],
    builds: Vec<Loadout>,
    initiative: Vec<f64>,
}

impl Table {
    pub fn new(cat: &Catalogue, capacity: u32) -> Table {
        let blank = Loadout::compile(cat, 0, &[], &[Use::Attack]).expect("valid");
        Table {
            kernel: DataKernel::new(capacity as usize),
            pool: [0; MAX_POOL],
            builds: vec![blank; MAX_PLAYERS],
            initiative: vec![0.0; MAX_PLAYERS],
        }
    }
}

/// The result of one round's bids (AR-46), into fixed arrays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Resolution {
    /// Per offer: the winning bid (0: unsold, it goes back to the pool).
    pub price: [i32; MAX_OFFER],
    /// Per offer: a bit per winning seat.
    pub winners: [u16; MAX_OFFER],
}

/// Resolves `bids[seat][offer]` on `offered` (AR-21, AR-46): the highest bid wins and pays; tied
/// highest bidders each get a copy and each pay; a top bid of 0 goes to no one. Bids must already
/// be valid (0 ..= balance; 0 on powers the bidder may not take).
pub fn resolve(n_offers: usize, players: usize, bids: &[[i32; MAX_OFFER]]) -> Resolution {
    let mut r = Resolution {
        price: [0; MAX_OFFER],
        winners: [0; MAX_OFFER],
    };
    for o in 0..n_offers {
        let top = (0..players).map(|s| bids[s][o]).max().unwrap_or(0);
        if top <= 0 {
            continue;
        }
        r.price[o] = top;
        for (s, row) in bids.iter().enumerate().take(players) {
            if row[o] == top {
                r.winners[o] |= 1 << s;
            }
        }
    }
    r
}

/// Resolves one round's bids (AR-21, AR-46) and applies them: winners pay and take the power
/// at the strength of their bid; offers are settled from the highest bid down, so new powers join
/// the bottom of the use order highest bid first, equal bids in offer order. Unsold powers go to `unsold` (back to the pool). Returns how many
/// offers sold. `bids` must already be valid (the engine's checks in [`play`]).
pub fn settle(
    cat: &Catalogue,
    sizes: &Sizes,
    players: &mut [Player],
    offered: &[PowerId],
    bids: &[[i32; MAX_OFFER]],
    mut unsold: impl FnMut(PowerId),
) -> u8 {
    let (n, k) = (players.len(), offered.len());
    let res = resolve(k, n, bids);
    let mut live = [[0i32; MAX_OFFER]; MAX_PLAYERS];
    live[..n].copy_from_slice(bids);
    let mut by_price = [0usize; MAX_OFFER];
    for (j, b) in by_price.iter_mut().enumerate().take(k) {
        *b = j;
    }
    by_price[..k].sort_by(|&a, &b| res.price[b].cmp(&res.price[a]).then(a.cmp(&b)));
    let mut sold = 0;
    for &o in &by_price[..k] {
        let q = offered[o];
        // AR-49: a top bidder who can no longer take the power (it took a copy of it earlier in
        // this settlement, or its hero is full) has its bid voided; the offer goes to the highest
        // bids left.
        let (price, winners) = loop {
            let top = (0..n).map(|s| live[s][o]).max().unwrap_or(0);
            if top <= 0 {
                break (0, 0u16);
            }
            let mut w = 0u16;
            let mut voided = false;
            for s in 0..n {
                if live[s][o] == top {
                    if sizes.fits(&players[s], q) {
                        w |= 1 << s;
                    } else {
                        live[s][o] = 0;
                        voided = true;
                    }
                }
            }
            if !voided {
                break (top, w);
            }
        };
        if price == 0 {
            unsold(q);
            continue;
        }
        sold += 1;
        for (seat, p) in players.iter_mut().enumerate() {
            if winners & (1 << seat) == 0 {
                continue;
            }
            p.balance -= price;
            p.coins_spent += price;
            p.powers_won += 1;
            p.held[p.n_held as usize] = Held {
                power: q,
                strength: price,
            };
            p.n_held += 1;
            p.clauses += sizes.clauses[q as usize];
            p.counters += sizes.counters[q as usize];
            if cat.is_used(q) {
                p.order[p.n_order as usize] = Use::Power(q);
                p.n_order += 1;
            }
        }
    }
    sold
}

impl Player {
    /// A player before the first round: no coins, no powers, the attack alone in its use order.
    pub fn new(base: f64) -> Player {
        Player {
            balance: 0,
            held: [Held {
                power: 0,
                strength: 0,
            }; MAX_HELD],
            n_held: 0,
            order: [Use::Attack; MAX_USE],
            n_order: 1,
            base,
            clauses: 0,
            counters: 0,
            coins_spent: 0,
            powers_won: 0,
        }
    }

    /// The hero as it enters a battle: its balance as unspent coins (AR-2), its powers and order.
    pub fn loadout(&self, cat: &Catalogue) -> Loadout {
        let coins = self
            .balance
            .clamp(-rules::MAX_ABS_COINS, rules::MAX_ABS_COINS);
        Loadout::compile(cat, coins, self.held(), self.order())
            .expect("the engine only gives a hero powers that fit (AR-49)")
    }
}

/// Plays one game: `strategies[seat]` decide, `seed` is the game's seed (AR-50 lists every draw).
pub fn play(
    cat: &Catalogue,
    sizes: &Sizes,
    settings: &GameSettings,
    strategies: &[&Strategy],
    seed: u64,
    table: &mut Table,
) -> GameRecord {
    let n = settings.players;
    debug_assert!((3..=MAX_PLAYERS).contains(&n) && strategies.len() == n);
    let mut players = [Player::new(0.0); MAX_PLAYERS];
    // AR-47: one base initiative per hero per game, in seat order.
    let mut ini = match_stream_rng(seed, Stream::Initiative);
    for p in players.iter_mut().take(n) {
        p.base = unit_f64(&mut ini);
    }
    // AR-45: the pool starts with 3 x players powers drawn uniformly from the catalogue.
    let mut pool_rng = match_stream_rng(seed, Stream::Pool);
    let mut decide = match_stream_rng(seed, Stream::Bidding);
    // AR-55: helper powers are never offered.
    let m = cat.drawable.len() as u32;
    let mut pool_len = 3 * n;
    for q in table.pool.iter_mut().take(pool_len) {
        *q = cat.drawable[pool_rng.random_range(0..m) as usize];
    }
    let blank_round = RoundRecord {
        winner: None,
        balances: [0; MAX_PLAYERS],
        held: [0; MAX_PLAYERS],
        offered: 0,
        sold: 0,
        capped: false,
    };
    let mut rounds = [blank_round; ROUNDS];
    let mut bids = [[0i32; MAX_OFFER]; MAX_PLAYERS];
    let mut offered = [0 as PowerId; MAX_OFFER];
    for (round, record) in rounds.iter_mut().enumerate() {
        for p in players.iter_mut().take(n) {
            p.balance += cat.rules.income;
        }
        // Reveal 2 x players powers, drawn without replacement from the pool (AR-45): a partial
        // Fisher-Yates moves them to the pool's end, where they are cut off.
        let k = (2 * n).min(pool_len);
        for (j, slot) in offered.iter_mut().enumerate().take(k) {
            let r = pool_rng.random_range(0..(pool_len - j) as u32) as usize;
            table.pool.swap(r, pool_len - 1 - j);
            *slot = table.pool[pool_len - 1 - j];
        }
        pool_len -= k;
        let offered = &offered[..k];
        // Each player submits 2 powers (rounds 1-9), bids, and may reorder its use order, all
        // seeing the same public state (AR-48); submissions join the pool after this reveal.
        let mut submitted = [[0 as PowerId; 2]; MAX_PLAYERS];
        let mut orders = [[Use::Attack; MAX_USE]; MAX_PLAYERS];
        for seat in 0..n {
            let view = View {
                round,
                seat,
                players: &players[..n],
                offered,
                cat,
            };
            let s = strategies[seat];
            if round + 1 < ROUNDS {
                submitted[seat] = s.submit(&view, &mut decide);
            }
            let row = &mut bids[seat];
            *row = [0; MAX_OFFER];
            s.bid(&view, sizes, &mut decide, &mut row[..k]);
            // The engine holds every bid to the rules (AR-46, AR-49).
            let me = &players[seat];
            for (o, b) in row[..k].iter_mut().enumerate() {
                if !sizes.fits(me, offered[o]) || *b < 0 {
                    *b = 0;
                }
                *b = (*b).min(me.balance.max(0));
            }
            let mut order = players[seat].order;
            s.reorder(&view, &mut order[..players[seat].n_order as usize]);
            orders[seat] = order;
        }
        for seat in 0..n {
            players[seat].order = orders[seat];
        }
        let sold = settle(cat, sizes, &mut players[..n], offered, &bids[..n], |q| {
            table.pool[pool_len] = q;
            pool_len += 1;
        });
        if round + 1 < ROUNDS {
            for sub in submitted.iter().take(n) {
                for &q in sub {
                    table.pool[pool_len] = q;
                    pool_len += 1;
                }
            }
        }
        // The battle (AR-45): every hero with its balance as unspent coins.
        for (seat, p) in players.iter().enumerate().take(n) {
            table.builds[seat] = p.loadout(cat);
            table.initiative[seat] = rules::initiative(table.builds[seat].coins, p.base);
        }
        let o = data::play(
            &mut table.kernel,
            cat,
            &table.builds[..n],
            &table.initiative[..n],
            settings.max_rounds,
        );
        *record = RoundRecord {
            winner: o.winner.map(|w| w as u8),
            balances: std::array::from_fn(|i| players[i].balance),
            held: std::array::from_fn(|i| players[i].n_held),
            offered: k as u8,
            sold,
            capped: o.capped,
        };
    }
    GameRecord {
        winner: rounds[ROUNDS - 1].winner,
        rounds,
        players,
    }
}

//! Random combats on the platform: `simulate minions` (MC-31).

pub mod combats;

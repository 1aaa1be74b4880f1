//! Elemental Tag on the platform: tournaments between policies (`tournament`).

pub mod tournament;

//! `skirmish analyze minions` (MC-32..MC-36): what stats, monsters, matchups, splits and nation
//! abilities are worth, from combats on the kernel with common random numbers; exact odds of
//! small combats (`exact`, MC-37).

pub mod exact;
pub mod study;

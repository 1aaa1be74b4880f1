//! `skirmish analyze minions` (MC-32..MC-36): what stats, monsters, matchups, splits and nation
//! abilities are worth, from combats on the kernel with common random numbers.

pub mod study;

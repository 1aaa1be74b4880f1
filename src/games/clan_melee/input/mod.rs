//! Clans as data: integer expressions (`expr`), clan files compiled into rosters and rules
//! (`clan`), and the nine reference clans built in (`clans`).

pub mod clan;
pub mod clans;
pub mod expr;
pub mod rules;

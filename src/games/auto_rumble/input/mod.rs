//! What a host writes and what enters a battle: scenario files (`scenario`) and rosters
//! (`roster`: readable heroes and the compiled team builds the hand-written kernel walks).

pub mod roster;
pub mod rules;
pub mod scenario;

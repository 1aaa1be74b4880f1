//! Auto Rumble on the platform: random free-for-all battles (`ffa`, `simulate rumble`) and full
//! games between strategies (`tournament`, `tournament rumble`).

pub mod ffa;
pub mod tournament;

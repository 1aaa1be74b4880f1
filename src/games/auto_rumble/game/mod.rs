//! The full Auto Rumble game (AR-45 .. AR-51): `view` (what a player sees and holds), `strategy`
//! (bidding strategies, deciding from a view), `engine` (ten rounds of bids and battles, enforcing
//! the rules), `bidding` (one round of sealed bids, as the rules' sample needs). Each sits above
//! what it uses: `engine` -> `strategy` -> `view`.

pub mod bidding;
pub mod engine;
pub mod strategy;
pub mod view;

pub use engine::*;
pub use view::*;
